#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The aborting client of 46-capture, over IPPROTO_MRC (a TCP program's
socket): connect, turn keepalive on (idle, interval 1 s, so an idle
connection sends RELIABILITY_PROBEs), print "connected", wait until the
file GO exists, then close with SO_LINGER 0, which resets the connection
(an MRC RESET, reason ABORT), and print "aborted".

  capture_abort.py ADDR PORT GO
"""
import os
import socket
import struct
import sys
import time

# The module's IPPROTO_MRC, as dropin.py (the drop-in tests' roles) reads it.
from dropin import proto


def main():
    addr, port, go = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM, proto())
    s.connect((addr, port))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, 1)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, 1)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, 30)
    print("connected", flush=True)
    deadline = time.monotonic() + 120
    while not os.path.exists(go) and time.monotonic() < deadline:
        time.sleep(0.05)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()
    print("aborted", flush=True)


if __name__ == "__main__":
    main()
