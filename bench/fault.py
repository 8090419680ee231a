#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make bench, in the guest: an agent that watches each transfer and
injects its fault on time without starting a process at that moment
(process start-ups, python's above all, cost seconds in a contended
emulated VM, so the agent runs once for the whole bench).

It reads device counters of any namespace by entering it (setns) and
reading /proc/self/net/dev, and sends the fault as one line to a command
FIFO that a long-running `tc -batch` / `ip -batch` of that namespace reads
(bench/guest.sh starts them).

  fault.py --a NS_A --t0a NS,NS,... --fifo-dir DIR --requests FIFO

Each request line: "OUTFILE FAULT AT PORT TIMEOUT", FAULT none, blackhole
or planedown. The agent samples host A's counters, creates OUTFILE.armed,
waits until host A sends data (>= 256 KiB over its plane devices), counts
the established TCP connections to PORT in A (MPTCP subflows), then AT
seconds after the flow began: samples 0.5 s of counters, picks the plane
(plane 1 when it carries >= 5% of A's traffic, else the busiest) and for a
blackhole the busiest spine link of that plane, writes the command. Then
writes one JSON object to OUTFILE: flow_unix, fault_unix, plane, spine,
desc, subflows.
"""
import argparse
import ctypes
import json
import os
import socket
import time

CLONE_NEWNET = 0x40000000
libc = ctypes.CDLL(None, use_errno=True)
_fds = {}


def enter(ns):
    fd = _fds.get(ns)
    if fd is None:
        fd = _fds[ns] = os.open(f"/run/netns/{ns}", os.O_RDONLY)
    if libc.setns(fd, CLONE_NEWNET) != 0:
        raise OSError(ctypes.get_errno(), f"setns {ns}")


def tx_bytes(ns):
    """{device: tx bytes} of a namespace."""
    enter(ns)
    out = {}
    with open("/proc/self/net/dev") as f:
        for line in f.readlines()[2:]:
            name, rest = line.split(":", 1)
            out[name.strip()] = int(rest.split()[8])
    return out


def _addr6(h):
    b = bytes.fromhex(h)
    return socket.inet_ntop(socket.AF_INET6, b"".join(b[i:i + 4][::-1] for i in range(0, 16, 4)))


def established(ns, port):
    """Local addresses of A's established TCP connections to PORT."""
    enter(ns)
    out = []
    with open("/proc/self/net/tcp6") as f:
        for line in f.readlines()[1:]:
            fields = line.split()
            laddr = fields[1].split(":")[0]
            rport = int(fields[2].split(":")[1], 16)
            if rport == port and fields[3] == "01":
                out.append(_addr6(laddr))
    return sorted(out)


def watch(a, t0a, fault, at, port, timeout, armed):
    planes = len(t0a)
    res = {"flow_unix": None, "fault_unix": None, "plane": None, "spine": None,
           "desc": "none", "subflows": None}

    def a_tx():
        c = tx_bytes(a.a)
        return [c.get(f"pl{p}", 0) for p in range(planes)]

    start = time.time()
    base = sum(a_tx())
    open(armed, "w").close()
    while sum(a_tx()) - base < 256 << 10:
        if time.time() - start > timeout:
            res["desc"] = "no traffic seen"
            return res
        time.sleep(0.01)
    flow = time.time()
    res["flow_unix"] = flow
    if port:  # MPTCP: its subflows are up a second after data flows
        time.sleep(max(0.0, flow + min(1.0, at - 0.6) - time.time()))
        res["subflows"] = established(a.a, port)
    if fault == "none":
        return res
    time.sleep(max(0.0, flow + at - 0.5 - time.time()))
    p0, s0 = a_tx(), tx_bytes(t0a[1 if planes > 1 else 0])
    time.sleep(0.5)
    p1 = a_tx()
    d = [y - x for x, y in zip(p0, p1)]
    plane = 1 if planes > 1 and d[1] * 20 >= sum(d) and d[1] > 0 else d.index(max(d))
    if plane != (1 if planes > 1 else 0):
        s0 = None
    ups = tx_bytes(t0a[plane])
    if s0 is None:  # no earlier sample of this plane: take 0.2 s more
        s0 = ups
        time.sleep(0.2)
        ups = tx_bytes(t0a[plane])
    spines = sorted(k for k in ups if k.startswith("up"))
    spine = max(spines, key=lambda k: ups[k] - s0.get(k, 0))
    res["plane"] = plane
    if fault == "blackhole":
        res["spine"] = int(spine[2:])
        cmd = f"qdisc replace dev {spine} root netem loss 100%\n"
        fifo = os.path.join(a.fifo_dir, f"{t0a[plane]}.tc")
        res["desc"] = f"silent blackhole: netem loss 100% on plane {plane} spine {spine[2:]}"
    else:
        cmd = f"link set pl{plane} down\n"
        fifo = os.path.join(a.fifo_dir, f"{a.a}.ip")
        res["desc"] = f"local plane down: host A's pl{plane} set down"
    res["fault_unix"] = time.time()
    with open(fifo, "w") as f:
        f.write(cmd)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", required=True)
    ap.add_argument("--t0a", required=True)
    ap.add_argument("--fifo-dir", required=True)
    ap.add_argument("--requests", required=True)
    a = ap.parse_args()
    t0a = a.t0a.split(",")
    # The shell keeps a writer open: EOF only when the bench ends.
    with open(a.requests) as req:
        for line in req:
            f = line.split()
            if len(f) != 5:
                continue
            out, fault, at, port, timeout = f[0], f[1], float(f[2]), int(f[3]), float(f[4])
            try:
                res = watch(a, t0a, fault, at, port, timeout, out + ".armed")
            except Exception as e:  # report, keep serving
                res = {"fault_unix": None, "desc": f"agent error: {e}"}
            with open(out + ".tmp", "w") as o:
                o.write(json.dumps(res) + "\n")
            os.rename(out + ".tmp", out)


if __name__ == "__main__":
    main()
