#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Goodput and stalls of an iperf3 run, from its --json output, as shell
assignments for the apps tests (selftests/tests/80-apps-iperf3.sh).

  iperf3_summary.py PREFIX RECEIVER.json CLIENT.json [S,E ...]

RECEIVER.json is the receiving side's --json output (the client's with
-R, the server's otherwise), whose intervals (-i 0.1) count what
arrived; CLIENT.json the client's, for its error (the test ends a run
with SIGINT: "interrupt - the client has terminated"). S,E: fault windows in
seconds from the moment the test saw data arrive, which is up to about
half a second after iperf3's own start of the test (its interval clock):
a window is taken as [S, E + 0.5] so that it covers the fault wherever it
really was, and the intervals within 1.5 s after it are left out of the
fault-free yardstick. Prints (times in ms, rates in Mbit/s):
  PREFIX_goodput_mbps, PREFIX_bytes, PREFIX_error (the client's, or -)
  PREFIX_base_stall_ms, PREFIX_base_mbps
          the longest run of intervals in which nothing arrived, and the
          goodput, outside the fault windows
  PREFIX_w<i>_stall_ms, PREFIX_w<i>_mbps
          the same inside window i
  PREFIX_w<i>_after_bytes
          bytes received in intervals that ended after window i began
"""
import json
import sys


def stall(iv):
    cur = best = 0.0
    for i in iv:
        cur = cur + i["seconds"] if i["bytes"] == 0 else 0.0
        best = max(best, cur)
    return round(best * 1000)


def mbps(iv):
    s = sum(i["seconds"] for i in iv)
    return round(sum(i["bytes"] for i in iv) * 8 / s / 1e6, 1) if s else 0


def main():
    pre, rx_path, cli_path = sys.argv[1], sys.argv[2], sys.argv[3]
    wins = [tuple(float(x) for x in w.split(",")) for w in sys.argv[4:]]

    def load(path):
        try:
            return json.load(open(path))
        except (OSError, ValueError) as e:
            return {"error": f"no JSON in {path}: {e}"}
    rx, cli = load(rx_path), load(cli_path)
    iv = [i["sum"] for i in rx.get("intervals", [])]
    err = cli.get("error")
    out = {"bytes": sum(i["bytes"] for i in iv), "goodput_mbps": mbps(iv),
           "error": "-" if not err else err.replace("'", " ")}
    base = [i for i in iv if not any(i["end"] >= s - 0.2 and i["start"] <= e + 1.5
                                     for s, e in wins)]
    out["base_stall_ms"] = stall(base)
    out["base_mbps"] = mbps(base)
    for n, (s, e) in enumerate(wins, 1):
        w = [i for i in iv if i["end"] >= s and i["start"] <= e + 0.5]
        out[f"w{n}_stall_ms"] = stall(w)
        out[f"w{n}_mbps"] = mbps(w)
        out[f"w{n}_after_bytes"] = sum(i["bytes"] for i in iv if i["end"] > s)
    for k, v in out.items():
        print(f"{pre}_{k}='{v}'")


if __name__ == "__main__":
    main()
