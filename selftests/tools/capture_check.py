#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check what tshark, with the Lua dissector tools/wireshark/mrc.lua,
makes of a capture of real MRC traffic (46-capture).

  capture_check.py [--tshark TSHARK] --lua MRC_LUA [--port 4791] PCAP

One tshark run (UDP heuristics first, so a packet whose source port, the
path's entropy value, belongs to another protocol is still offered to MRC
first: tools/wireshark/README.md) prints the fields of every UDP packet to
the MRC port. Output, one line each, for the test to turn into checks:

  type NAME COUNT MISSING       every packet type: how many packets, and
                                the fields (comma separated, "-" for
                                none) missing from at least one of them
  mrc COUNT                     packets decoded as MRC
  not_mrc COUNT FRAMES          packets to the MRC port left undecoded
  bad COUNT FRAMES              MRC packets with a verdict other than ok,
                                the Malformed flag or an error expert info
  lowport COUNT PORTS           MRC packets whose UDP source port is below
                                0xC000: MRC for Linux keeps the ports that
                                carry EVs in 0xC000-0xFFFF, like Linux
                                RoCE (wire-format.md section 2)
  reflect OK MISSING NONE EXAMPLES
                                SACK, NACK and ENDPOINT_RESPONSE entropies
                                that are / are not the EV (mrc.ev, rebuilt
                                from UDP source port and flow label) of a
                                packet in the capture (the receiver
                                reflects the whole 32-bit EV), and SACKs
                                that reflect none (entropy 0: no packet
                                triggered them, e.g. a window update)
"""
import argparse
import collections
import subprocess
import sys

CMH = ["mrc.cm.version", "mrc.cm.flags", "mrc.cm.service_port", "mrc.cm.src_qpn",
       "mrc.cm.dst_qpn", "mrc.cm.cookie", "mrc.cm.client_port"]
CMP = ["mrc.cm.sock_type", "mrc.cm.mpr", "mrc.cm.max_payload", "mrc.cm.init_psn",
       "mrc.cm.r_key", "mrc.cm.rcv_window", "mrc.cm.caps", "mrc.cm.caps.credit"]
DATA = ["mrc.ev", "mrc.bth.psn", "mrc.bth.destqp", "mrc.bth.pad", "mrc.meth.rqmsn",
        "mrc.meth.msn", "mrc.reth.va", "mrc.reth.rkey", "mrc.reth.dmalen", "mrc.payload_len"]
SACK = ["mrc.seth.next", "mrc.seth.m", "mrc.seth.ack_psn_offset", "mrc.seth.entropy",
        "mrc.seth.key",
        "mrc.seth.cack_psn", "mrc.seth.cc_type", "mrc.seth.mpr", "mrc.seth.sack_offset",
        "mrc.seth.sack_bitmap", "mrc.seth.trigger_psn", "mrc.seth.sack_count",
        "mrc.cc_state.tx_timestamp", "mrc.cc_state.ooo_count", "mrc.cc_state.rcv_cwnd_pen",
        "mrc.cc_state.rcvd_bytes"]
CREDIT = ["mrc.credit.version", "mrc.credit.flags", "mrc.credit.port_status",
          "mrc.credit.credit"]
EP = ["mrc.ep.op", "mrc.ep.req_id", "mrc.ep.port_status"]

# name: (opcode, extra condition on the row or None, fields every one has)
TYPES = collections.OrderedDict([
    ("CM_REQ", (0xE0, None, CMH + CMP)),
    ("CM_REP", (0xE1, None, CMH + CMP)),
    ("CM_RTU", (0xE2, None, CMH + CMP)),
    ("CM_REJ", (0xE3, None, CMH + ["mrc.cm.rej_reason"])),
    ("CM_DREQ", (0xE4, None, CMH)),
    ("CM_DREP", (0xE5, None, CMH)),
    ("CM_REQ SOCK_STREAM", (0xE0, ("mrc.cm.sock_type", "0"), CMH + CMP)),
    ("CM_REQ SOCK_SEQPACKET", (0xE0, ("mrc.cm.sock_type", "1"), CMH + CMP)),
    # STREAM: what is queued is sent as RDMA WRITE messages (up to 64 KiB)
    ("WRITE_ONLY", (0xCA, None, DATA + ["mrc.payload"])),
    ("WRITE_FIRST", (0xC6, None, DATA + ["mrc.payload"])),
    ("WRITE_MIDDLE", (0xC7, None, DATA + ["mrc.payload"])),
    ("WRITE_LAST", (0xC8, None, DATA + ["mrc.payload"])),
    # a SEQPACKET message ends with an immediate (its RQMSN): it ends with
    # WRITE_LAST_WITH_IMM or is one WRITE_ONLY_WITH_IMM
    ("WRITE_LAST_WITH_IMM", (0xC9, None, DATA + ["mrc.payload", "mrc.immdt.imm"])),
    ("WRITE_ONLY_WITH_IMM", (0xCB, None, DATA + ["mrc.payload", "mrc.immdt.imm"])),
    ("data retransmission", (None, ("mrc.bth.rtx", "1"), DATA)),
    ("data with TSETH", (None, ("mrc.bth.ts", "1"),
                         DATA + ["mrc.tseth.tx_timestamp", "mrc.tseth.tsr",
                                 "mrc.tseth.ftype"])),
    ("RELIABILITY_SACK", (0xDC, None, SACK)),
    ("SACK with credit", (0xDC, ("mrc.seth.next", "1"), SACK + CREDIT)),
    ("SACK answering a probe", (0xDC, ("mrc.seth.probe_resp", "1"), SACK)),
    ("RELIABILITY_NACK", (0xDD, None, ["mrc.neth.reason", "mrc.neth.vendor",
                                       "mrc.neth.entropy", "mrc.neth.key",
                                       "mrc.neth.nack_psn",
                                       "mrc.neth.cc_type", "mrc.neth.tx_timestamp"])),
    ("RELIABILITY_PROBE", (0xDE, None, ["mrc.peth.probe_id", "mrc.peth.key",
                                        "mrc.peth.tx_time"])),
    ("ENDPOINT_REQUEST EV_PROBE", (0xD8, ("mrc.ep.op", "1"), EP + ["mrc.ep.tx_time"])),
    ("ENDPOINT_REQUEST PORT_STATUS_UPDATE", (0xD8, ("mrc.ep.op", "0"),
                                             EP + ["mrc.ep.tx_time"])),
    ("ENDPOINT_RESPONSE", (0xD9, None, EP + ["mrc.ep.status", "mrc.ep.req_tx_time",
                                             "mrc.ep.rx_time", "mrc.ep.tx_time",
                                             "mrc.ep.entropy"])),
    ("RESET", (0xE6, None, ["mrc.reset.version", "mrc.reset.reason",
                            "mrc.reset.src_qpn", "mrc.reset.dst_qpn",
                            "mrc.reset.r_key", "mrc.reset.psn"])),
])
DATA_OPS = range(0xC6, 0xCC)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tshark", default="tshark")
    ap.add_argument("--lua", required=True)
    ap.add_argument("--port", type=int, default=4791)
    ap.add_argument("pcap")
    a = ap.parse_args()

    base = ["frame.number", "frame.protocols", "udp.srcport", "_ws.expert.severity",
            "mrc.bth.opcode", "mrc.verdict", "mrc.bth.rtx", "mrc.bth.ts", "mrc.seth.next",
            "mrc.seth.probe_resp", "mrc.ep.op", "mrc.ev", "mrc.seth.entropy",
            "mrc.neth.entropy", "mrc.ep.entropy"]
    fields = list(base)
    for _, _, need in TYPES.values():
        fields += [f for f in need if f not in fields]
    cmd = [a.tshark, "-n", "-r", a.pcap, "-X", "lua_script:" + a.lua,
           "-o", "udp.try_heuristic_first:TRUE",
           "-Y", "udp.dstport == %d && !icmpv6" % a.port,
           "-T", "fields", "-E", "separator=/t", "-E", "occurrence=f"]
    for f in fields:
        cmd += ["-e", f]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0 or "Lua" in p.stderr:
        print("tshark failed (%d): %s" % (p.returncode, p.stderr.strip()[:500]),
              file=sys.stderr)
        return 1

    rows = []
    for line in p.stdout.splitlines():
        v = line.split("\t")
        v += [""] * (len(fields) - len(v))
        rows.append(dict(zip(fields, v)))

    mrc, not_mrc, bad, low = [], [], [], []
    counts = collections.OrderedDict((t, 0) for t in TYPES)
    missing = collections.OrderedDict((t, set()) for t in TYPES)
    for r in rows:
        protos = r["frame.protocols"].split(":")
        if "mrc" not in protos:
            not_mrc.append(r["frame.number"])
            continue
        mrc.append(r)
        sev = [int(s, 0) for s in r["_ws.expert.severity"].split(",") if s]
        # error severity (PI_ERROR) is 0x00800000
        if (r["mrc.verdict"] != "ok" or "_ws.malformed" in protos
                or any(s >= 0x00800000 for s in sev)):
            bad.append(r["frame.number"])
        if r["udp.srcport"] and int(r["udp.srcport"]) < 0xC000:
            low.append(r["udp.srcport"])
        op = int(r["mrc.bth.opcode"], 0) if r["mrc.bth.opcode"] else -1
        for name, (top, cond, need) in TYPES.items():
            if top is not None and op != top:
                continue
            if top is None and op not in DATA_OPS:
                continue
            if cond and r.get(cond[0]) not in (cond[1], "True" if cond[1] == "1" else cond[1]):
                continue
            counts[name] += 1
            missing[name].update(f for f in need if not r.get(f))

    # every EV a packet travelled on; the entropies reflected must be among
    # them (a packet reflected but not captured would be a capture drop)
    evs = {int(r["mrc.ev"], 0) for r in mrc if r["mrc.ev"]}
    ok, miss, none = 0, [], 0
    for r in mrc:
        for f in ("mrc.seth.entropy", "mrc.neth.entropy", "mrc.ep.entropy"):
            if r.get(f):
                if int(r[f], 0) == 0:
                    none += 1
                elif int(r[f], 0) in evs:
                    ok += 1
                else:
                    miss.append("%s:%s" % (r["frame.number"], r[f]))
    for name in TYPES:
        print("type %s\t%d\t%s" % (name, counts[name],
                                   ",".join(sorted(missing[name])) or "-"))
    print("mrc %d" % len(mrc))
    print("not_mrc %d %s" % (len(not_mrc), ",".join(not_mrc[:20]) or "-"))
    print("bad %d %s" % (len(bad), ",".join(bad[:20]) or "-"))
    print("lowport %d %s" % (len(low), ",".join(sorted(set(low), key=int)[:20]) or "-"))
    print("reflect %d %d %d %s" % (ok, len(miss), none, ",".join(miss[:10]) or "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
