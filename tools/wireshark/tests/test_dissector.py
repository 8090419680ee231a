#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check tools/wireshark/mrc.lua against the protocol core's encoder.

gen_pcap writes a pcap of every packet type MRC for Linux sends (encoded by
mrc_pkt_encode()), then truncated, random and mutated packets, and a JSON
file of what each frame holds: the field values the encoder was given, or
the verdict of the core's decoder (mrc_pkt_decode()). This script runs
tshark with the dissector once over the capture and checks, frame by frame:

- valid packets: every field decodes to the encoder's value, the verdict is
  "ok", and no expert info at all (no malformed flag, no warning);
- every other packet: the dissector's verdict is the decoder's drop reason
  (or "ok" when a mutation left the packet valid), and a dropped packet
  carries the Malformed expert info;
- no frame has a Lua error, and tshark prints nothing on stderr; every
  frame's UDP checksum is right (tshark checks it);
- a copy cut to 70 bytes a frame (editcap -s): no Lua error, and a frame the
  capture cut gets no verdict ("capture_truncated") and no Malformed flag;
- all of it twice: with default preferences (the udp.port registration; a
  packet whose source port is 53 goes to DNS there and is skipped) and with
  udp.try_heuristic_first (the heuristic registration, which takes it);
- the "mrc.udp_port" preference moves the dissector to another port.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

MALFORMED_GROUP = 0x07000000
# every drop reason of mrc_pkt_decode() (wire-format.md section 13)
REASONS = {"truncated", "unknown_opcode", "bad_tver",
           "bad_pad", "reserved_bits", "bad_length", "payload_len_mismatch",
           "bad_qpn", "bad_ext", "bad_ext_version", "bad_field"}
ALWAYS = ["frame.number", "udp.length", "udp.srcport", "udp.checksum.status", "mrc.verdict", "mrc.malformed",
          "_ws.malformed", "_ws.lua.error", "_ws.expert", "_ws.expert.group"]


def run_tshark(args, pcap, fields, extra=()):
    cmd = [args.tshark, "-n", "-X", "lua_script:" + args.lua, "-r", pcap,
           "-o", "udp.check_checksum:TRUE", "-T", "json", *extra]
    for f in fields:
        cmd += ["-e", f]
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    stderr = "\n".join(line for line in p.stderr.splitlines()
                       if "Running as user" not in line)
    if p.returncode != 0:
        sys.exit(f"tshark failed ({p.returncode}): {stderr}")
    return [pkt["_source"]["layers"] for pkt in json.loads(p.stdout)], stderr


def as_value(expected, got):
    """tshark prints numbers as decimal, hex (0x..) or 0/1 for booleans."""
    if isinstance(expected, str):
        return got
    try:
        return int(got, 0)
    except ValueError:
        return got


def check(frames, nvalid, layers, stderr, heur, errors):
    """Compares tshark's layers with the expectations; returns counts."""
    run = "heuristics first" if heur else "default prefs"
    if stderr.strip():
        errors.append(f"{run}: tshark stderr: " + stderr.strip()[:2000])
    if len(layers) != len(frames):
        errors.append(f"{run}: tshark read {len(layers)} frames, expected {len(frames)}")

    n_fields = n_bad = n_dropped = 0
    for i, (fr, got) in enumerate(zip(frames, layers)):
        num = i + 1
        where = f"{run}: frame {num}"
        if "_ws.lua.error" in got:
            errors.append(f"{where}: Lua error {got.get('_ws.expert')}")
        if got.get("udp.checksum.status") != ["1"]:
            errors.append(f"{where}: UDP checksum status {got.get('udp.checksum.status')}")
        if got.get("udp.length") == ["8"]:
            # UDP hands an empty payload to no dissector: nothing to check
            continue
        if not heur and got.get("udp.srcport") == ["53"]:
            # UDP tries the lower port first: DNS takes it, unless
            # udp.try_heuristic_first is set (the second run checks it)
            continue
        if "mrc.verdict" not in got:
            errors.append(f"{where}: not dissected as MRC")
            continue
        verdict = got["mrc.verdict"][0]
        groups = [int(g, 0) for g in got.get("_ws.expert.group", [])]
        if i < nvalid:
            for k, v in fr.items():
                vals = got.get(k)
                if vals is None:
                    errors.append(f"{where}: field {k} missing (expected {v})")
                    continue
                if len(vals) != 1 or as_value(v, vals[0]) != v:
                    errors.append(f"{where}: {k} = {vals}, expected {v}")
                n_fields += 1
            if "_ws.expert" in got or "_ws.malformed" in got:
                errors.append(f"{where}: valid packet has expert info "
                              f"{got.get('_ws.expert')}")
            continue
        n_bad += 1
        want = fr["mrc.verdict"]
        if verdict != want:
            errors.append(f"{where}: verdict {verdict}, the core's decoder says {want}")
        if want != "ok":
            n_dropped += 1
            if "mrc.malformed" not in got or MALFORMED_GROUP not in groups:
                errors.append(f"{where}: dropped packet ({want}) not flagged malformed")
        elif "mrc.malformed" in got:
            errors.append(f"{where}: valid packet flagged malformed")
    return n_fields, n_bad, n_dropped


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", required=True)
    ap.add_argument("--lua", required=True)
    ap.add_argument("--tshark", default="tshark")
    ap.add_argument("--workdir", default=".")
    args = ap.parse_args()
    if shutil.which(args.tshark) is None:
        print(f"SKIP: {args.tshark} not found (scripts/install-deps.sh installs tshark)")
        return 77

    pcap = os.path.join(args.workdir, "mrc-all.pcap")
    expj = os.path.join(args.workdir, "mrc-all.json")
    subprocess.run([args.gen, pcap, expj], check=True)
    with open(expj, encoding="utf-8") as fp:
        exp = json.load(fp)
    frames, nvalid = exp["frames"], exp["valid"]

    fields = list(ALWAYS)
    for fr in frames:
        for k in fr:
            if k not in fields:
                fields.append(k)
    layers, stderr = run_tshark(args, pcap, fields)

    errors = []
    stats = check(frames, nvalid, layers, stderr, False, errors)
    # Again with UDP's heuristics first: the heuristic registration takes
    # the packets whose source port (the EV) another dissector owns.
    layers, stderr = run_tshark(args, pcap, fields,
                                ["-o", "udp.try_heuristic_first:TRUE"])
    check(frames, nvalid, layers, stderr, True, errors)
    n_fields, n_bad, n_dropped = stats
    seen = {fr["mrc.verdict"] for fr in frames[nvalid:]}
    if REASONS - seen:
        errors.append(f"no test packet for the drop reasons {sorted(REASONS - seen)}")

    # The same capture cut to 70 bytes a frame (a small snaplen): no Lua
    # error, and a frame the capture cut has no verdict and no Malformed flag.
    editcap = shutil.which("editcap")
    if editcap:
        cut = os.path.join(args.workdir, "mrc-all-snap70.pcap")
        subprocess.run([editcap, "-s", "70", pcap, cut], check=True)
        layers, stderr = run_tshark(args, cut, ALWAYS + ["frame.cap_len", "frame.len"])
        if stderr.strip():
            errors.append("snaplen 70: tshark stderr: " + stderr.strip()[:2000])
        for num, got in enumerate(layers, 1):
            if "_ws.lua.error" in got:
                errors.append(f"snaplen 70: frame {num}: Lua error {got.get('_ws.expert')}")
            if got.get("frame.cap_len") == got.get("frame.len") or "mrc.verdict" not in got:
                continue
            if got["mrc.verdict"] != ["capture_truncated"] or "mrc.malformed" in got:
                errors.append(f"snaplen 70: frame {num}: verdict {got['mrc.verdict']}, "
                              f"malformed {'mrc.malformed' in got}")

    # The port preference: the same capture read with MRC moved to port
    # 9999 is no longer MRC; with the port of the capture it is again.
    moved, _ = run_tshark(args, pcap, ["mrc.verdict"],
                          ["-c", "3", "-o", "mrc.udp_port:9999"])
    if any("mrc.verdict" in l for l in moved):
        errors.append("mrc.udp_port:9999 still dissects port 4791 as MRC")
    back, _ = run_tshark(args, pcap, ["mrc.verdict"],
                         ["-c", "3", "-o", "mrc.udp_port:4791"])
    if not all("mrc.verdict" in l for l in back):
        errors.append("mrc.udp_port:4791 does not dissect port 4791")

    for e in errors[:60]:
        print("FAIL:", e)
    if len(errors) > 60:
        print(f"... and {len(errors) - 60} more")
    print(f"{len(frames)} frames: {nvalid} valid packets ({n_fields} fields "
          f"checked), {n_bad} truncated/random/mutated ({n_dropped} dropped by "
          f"the decoder), {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
