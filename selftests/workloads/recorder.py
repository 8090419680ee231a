#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""What MRC's flight recorder saw in each fault window of an apps job:
the `mrcctl monitor` output of every host (lib_apps.sh,
apps_recorder_start), per connection.

  recorder.py PREFIX GRACE_S EVENTS_FILE... -- T0,T1 ...

T0,T1: the fault windows (seconds since the epoch, as steps.py takes
them). A recovery belongs to window i when it ends between T0 and
T1 + GRACE_S (a loss of the fault's last moments is repaired after the
repair). Prints shell assignments, per window i (1, 2, ...):
  PREFIX_w<i>_rec_n      recoveries (every host, every connection)
  PREFIX_w<i>_rec_conns  distinct connections that recovered a loss
  PREFIX_w<i>_ttr_max_ms the longest time to recovery (- when none)
  PREFIX_w<i>_ttr_conn   the connection (host:conn id) it was on
  PREFIX_w<i>_to_bad     path transitions into assumed-bad
  PREFIX_w<i>_min_active paths put back in use by the min-active floor
then the fault-free recoveries, those outside every window and its grace
(the emulated VM's own stalls, which hold a recovery under a fault too):
  PREFIX_base_rec_n      their number
  PREFIX_base_ttr_max_ms the longest (0 when none)
and then, as comment lines (an eval skips them; apps_judge prints them
when a check failed), the longest recovery's story: the events of its
connection on its host from 50 ms before its loss to its end, with every
host's plane events of that time.
"""
import calendar
import re
import sys
import time

UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
LINE = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?Z (\S+)(.*)$")


def epoch(base, frac):
    t = calendar.timegm(time.strptime(base, "%Y-%m-%dT%H:%M:%S"))
    return t + (float(frac) if frac else 0.0)


def events(path):
    host = path.rsplit(".", 1)[-1]
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return
    for line in lines:
        m = LINE.match(line)
        if not m:
            continue
        rest = m.group(4)
        ev = {"t": epoch(m.group(1), m.group(2)), "type": m.group(3), "host": host,
              "line": line}
        c = re.search(r" conn (\d+)", rest)
        ev["conn"] = f"{host}:{c.group(1)}" if c else None
        a = re.search(r" local (\S+) remote (\S+)", rest)
        ev["ends"] = (a.group(1), a.group(2)) if a else None
        d = re.search(r" ttr (\d+)(ns|us|ms|s)\b", rest)
        ev["ttr"] = int(d.group(1)) * UNITS[d.group(2)] if d else None
        s = re.search(r" (\S+) -> (\S+)(?: reason (\S+))?", rest)
        ev["to"] = s.group(2) if s else None
        ev["reason"] = s.group(3) if s else None
        yield ev


def main():
    args = sys.argv[1:]
    sep = args.index("--")
    pre, grace, files = args[0], float(args[1]), args[2:sep]
    wins = [tuple(float(x) for x in w.split(",")) for w in args[sep + 1:]]
    evs = [e for f in files for e in events(f)]
    for n, (t0, t1) in enumerate(wins, 1):
        rec = [e for e in evs if e["type"] == "recovery" and e["ttr"] is not None
               and t0 <= e["t"] <= t1 + grace]
        worst = max(rec, key=lambda e: e["ttr"]) if rec else None
        paths = [e for e in evs if e["type"] == "path-state" and t0 <= e["t"] <= t1]
        out = {
            "rec_n": len(rec),
            "rec_conns": len({e["conn"] for e in rec}),
            "ttr_max_ms": round(worst["ttr"] * 1000) if worst else "-",
            "ttr_conn": worst["conn"] if worst else "-",
            "to_bad": sum(1 for e in paths if e["to"] == "assumed-bad"),
            "min_active": sum(1 for e in paths if e["reason"] == "min-active"),
        }
        for k, v in out.items():
            print(f"{pre}_w{n}_{k}={v}")
        if worst:
            story(n, worst, evs)
    base = [e["ttr"] for e in evs if e["type"] == "recovery" and e["ttr"] is not None
            and not any(t0 <= e["t"] <= t1 + grace for t0, t1 in wins)]
    print(f"{pre}_base_rec_n={len(base)}")
    print(f"{pre}_base_ttr_max_ms={round(max(base) * 1000) if base else 0}")


def peer_of(conn, evs):
    """The same connection's other end (host:conn), from the
    conn-established events of both hosts: local and remote swapped."""
    ends = {e["conn"]: e["ends"] for e in evs if e["type"] == "conn-established" and e["ends"]}
    mine = ends.get(conn)
    if not mine:
        return None
    for c, (local, remote) in ends.items():
        if c != conn and (local, remote) == (mine[1], mine[0]):
            return c
    return None


def story(n, worst, evs, limit=16):
    """The longest recovery's events, on both ends of its connection (a
    dead reverse path shows on the peer's side), as comment lines."""
    t0, t1 = worst["t"] - worst["ttr"] - 0.05, worst["t"]
    peer = peer_of(worst["conn"], evs)
    told = [e for e in evs if t0 <= e["t"] <= t1 and
            (e["conn"] in (worst["conn"], peer) or e["type"].startswith("plane-"))]
    told.sort(key=lambda e: e["t"])
    print(f"# window {n}: the longest recovery, {round(worst['ttr'] * 1000)} ms on {worst['conn']}"
          f" (peer {peer or 'unknown'}): {len(told)} events from 50 ms before its loss"
          f"{', the last ' + str(limit) if len(told) > limit else ''}")
    for e in told[-limit:]:
        # the time of day and what happened, without the addresses
        line = re.sub(r" (local|remote) \[[^]]*\]:\d+", "", e["line"][11:])
        print(f"#   {e['host']} {line}")


if __name__ == "__main__":
    main()
