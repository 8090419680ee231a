#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What a TCP program does with its socket, over IPPROTO_MRC: the roles of
43-dropin. Every line printed is "EVENT wall-time [details]" (wall time
from time.time(), so the test can compare it with when it broke a link).

  dropin.py serve PORT                  accept connections, read and discard
                                        (a thread each)
  dropin.py refused ADDR PORT           connect once: "result ERRNO-NAME seconds"
  dropin.py idle ADDR PORT [IDLE INTVL CNT]
                                        connect, set keepalive if given, then
                                        block in recv(): "connected IDLE INTVL
                                        CNT" (getsockopt TCP_KEEP*), then
                                        "ended ERRNO-NAME" when recv() fails
  dropin.py send ADDR PORT USER_TIMEOUT_MS SECONDS
                                        connect, set TCP_USER_TIMEOUT, send
                                        for SECONDS: "connected", then "done
                                        BYTES" or "ended ERRNO-NAME"
"""
import errno
import socket
import sys
import threading
import time


def proto():
    try:
        with open("/sys/module/mrc/parameters/ipproto") as f:
            return int(f.read())
    except OSError:
        return 261


def say(*words):
    print(" ".join([words[0], "%.3f" % time.time()] + [str(w) for w in words[1:]]),
          flush=True)


def errname(e):
    return errno.errorcode.get(e.errno, str(e.errno))


def connect(addr, port):
    s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM, proto())
    s.connect((addr, port))
    return s


def sink(c):
    """Read and discard until the connection ends; never close first."""
    try:
        while c.recv(1 << 16):
            pass
    except OSError:
        pass


def serve(port):
    ls = socket.socket(socket.AF_INET6, socket.SOCK_STREAM, proto())
    ls.bind(("::", port))
    ls.listen(16)
    say("listening")
    while True:
        c, _ = ls.accept()
        threading.Thread(target=sink, args=(c,), daemon=True).start()


def refused(addr, port):
    t0 = time.monotonic()
    try:
        connect(addr, port)
        say("result", "connected", "%.3f" % (time.monotonic() - t0))
    except OSError as e:
        say("result", errname(e), "%.3f" % (time.monotonic() - t0))


def idle(addr, port, ka=None):
    s = connect(addr, port)
    if ka:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, ka[0])
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, ka[1])
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, ka[2])
    # what keepalive runs: the socket's knobs, or the policy's
    say("connected", *(s.getsockopt(socket.IPPROTO_TCP, o) for o in
                       (socket.TCP_KEEPIDLE, socket.TCP_KEEPINTVL, socket.TCP_KEEPCNT)))
    try:
        data = s.recv(1)
        say("ended", "EOF" if not data else "data")
    except OSError as e:
        say("ended", errname(e))


def send(addr, port, user_timeout_ms, seconds):
    s = connect(addr, port)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, user_timeout_ms)
    say("connected")
    buf = bytes(65536)
    sent = 0
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            sent += s.send(buf)
        say("done", sent)
    except OSError as e:
        say("ended", errname(e), sent)


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "serve":
        serve(int(args[0]))
    elif cmd == "refused":
        refused(args[0], int(args[1]))
    elif cmd == "idle":
        idle(args[0], int(args[1]), [int(x) for x in args[2:5]] if len(args) >= 5 else None)
    elif cmd == "send":
        send(args[0], int(args[1]), int(args[2]), float(args[3]))
    else:
        sys.exit("unknown role " + cmd)


if __name__ == "__main__":
    main()
