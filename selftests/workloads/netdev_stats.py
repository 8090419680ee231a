#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Byte counters of many devices in many network namespaces, fast enough to
pick the link a running job's traffic crosses (the apps tests,
selftests/tests/8x-apps-*.sh; lib_apps.sh's apps_counters).

  netdev_stats.py NS:DEV ...
      one line per device: NS DEV rx_bytes tx_bytes (from /proc/net/dev,
      read inside NS); a device or namespace that is gone prints 0 0.
  netdev_stats.py --serve FIFO DIR
      the same as a server, for tests that ask often: starting Python
      costs seconds in the emulated VM, a query to a running server
      milliseconds. Each line read from FIFO, "ID NS:DEV ...", is answered
      in DIR/ID (written whole, then renamed into place). A namespace's
      /proc/net/dev is opened once (setns, then open: the file stays
      bound to that namespace) and re-read for every query.
"""
import ctypes
import os
import sys

CLONE_NEWNET = 0x40000000
libc = ctypes.CDLL(None, use_errno=True)
files = {}


def netdev(ns):
    """The open /proc/net/dev of namespace NS (None if it is gone)."""
    if ns not in files:
        me = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
        try:
            fd = os.open(f"/run/netns/{ns}", os.O_RDONLY)
            try:
                if libc.setns(fd, CLONE_NEWNET) != 0:
                    raise OSError(ctypes.get_errno(), "setns")
                files[ns] = open("/proc/thread-self/net/dev", "rb", buffering=0)
            finally:
                os.close(fd)
                libc.setns(me, CLONE_NEWNET)
        except OSError:
            return None
        finally:
            os.close(me)
    return files[ns]


def query(links):
    want = {}
    for arg in links:
        ns, dev = arg.split(":", 1)
        want.setdefault(ns, []).append(dev)
    out = []
    for ns, devs in want.items():
        stats = {}
        f = netdev(ns)
        if f is not None:
            f.seek(0)
            data = b""
            while True:
                chunk = f.read(65536)
                if not chunk:
                    break
                data += chunk
            for line in data.decode().splitlines()[2:]:
                name, rest = line.split(":", 1)
                v = rest.split()
                stats[name.strip()] = (int(v[0]), int(v[8]))
        for dev in devs:
            rx, tx = stats.get(dev, (0, 0))
            out.append(f"{ns} {dev} {rx} {tx}\n")
    return "".join(out)


def serve(fifo, outdir):
    # Opened read-write: the server never sees end-of-file between the
    # test's writes.
    with open(os.open(fifo, os.O_RDWR), "r") as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "quit":
                return
            tmp = os.path.join(outdir, f".{w[0]}.tmp")
            with open(tmp, "w") as o:
                o.write(query(w[1:]))
            os.replace(tmp, os.path.join(outdir, w[0]))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(sys.argv[2], sys.argv[3])
    else:
        sys.stdout.write(query(sys.argv[1:]))
