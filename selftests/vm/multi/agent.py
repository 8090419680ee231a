#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The peer guest's command agent of the multi-guest selftests.

  agent.py serve ADDR PORT STOPFILE   (in the peer guest: answer requests
                                       until STOPFILE exists or "exit")
  agent.py call [-t SECS] ADDR PORT CMD   (in the test guest: run CMD, a
                                       bash command line, in the peer)
  agent.py wait ADDR PORT SECS        (until the agent answers)

One request per TCP connection over the management link: a JSON line
{"cmd": ..., "timeout": ...}, answered by a JSON line {"rc": ..., "out":
...} (stdout and stderr together); or, for clients without JSON (the
tests' bash client, lib_multi.sh's on_b: a python start costs half a
second in the emulated guest), a line "RAW SECS BYTES" followed by the
command's BYTES bytes, answered by a line with the status and then the
output as it is, up to the end of the connection. The command runs in its own session
and is killed with its whole process group at its timeout (rc 124). Its
output goes to a file, not a pipe, so a command that leaves a process in
the background ("server ... &") returns at once. "call" exits with the
command's status, 255 when the agent cannot be reached or does not answer
within the timeout plus 10 s: no call can hang a test.
"""
import json
import os
import signal
import socket
import socketserver
import subprocess
import sys
import tempfile
import threading
import time


def run(cmd, limit):
    with tempfile.TemporaryFile() as out:
        p = subprocess.Popen(["bash", "-c", cmd], stdin=subprocess.DEVNULL,
                             stdout=out, stderr=subprocess.STDOUT,
                             start_new_session=True)
        try:
            rc = p.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            rc = 124
        out.seek(0)
        return rc, out.read().decode(errors="replace")


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        line = self.rfile.readline()
        if not line:    # "wait" only connects
            return
        if line.startswith(b"RAW "):
            _, limit, size = line.split()
            cmd = self.rfile.read(int(size)).decode(errors="replace")
            rc, out = run(cmd, float(limit))
            self.wfile.write(b"%d\n" % rc + out.encode())
            return
        req = json.loads(line)
        if req.get("cmd") == "exit":
            self.server.stop.set()
            rc, out = 0, ""
        else:
            rc, out = run(req["cmd"], float(req.get("timeout", 120)))
        self.wfile.write((json.dumps({"rc": rc, "out": out}) + "\n").encode())


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def serve(addr, port, stopfile):
    srv = Server((addr, int(port)), Handler)
    srv.stop = threading.Event()
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    print(f"agent: serving on {addr}:{port}", flush=True)
    while not srv.stop.is_set() and not os.path.exists(stopfile):
        srv.stop.wait(0.5)
    srv.shutdown()
    return 0


def call(addr, port, cmd, limit):
    try:
        with socket.create_connection((addr, int(port)), timeout=10) as s:
            s.settimeout(limit + 10)
            s.sendall((json.dumps({"cmd": cmd, "timeout": limit}) + "\n").encode())
            buf = b""
            while not buf.endswith(b"\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                buf += chunk
        ans = json.loads(buf)
    except (OSError, ValueError) as e:
        print(f"agent call: no answer from {addr}:{port}: {e}", file=sys.stderr)
        return 255
    sys.stdout.write(ans["out"])
    return ans["rc"]


def wait(addr, port, secs):
    deadline = time.monotonic() + float(secs)
    while time.monotonic() < deadline:
        try:
            socket.create_connection((addr, int(port)), timeout=2).close()
            return 0
        except OSError:
            time.sleep(0.2)
    print(f"agent: {addr}:{port} did not answer within {secs} s", file=sys.stderr)
    return 1


def main(argv):
    if len(argv) >= 4 and argv[0] == "serve":
        return serve(*argv[1:4])
    if len(argv) >= 4 and argv[0] == "wait":
        return wait(*argv[1:4])
    if argv and argv[0] == "call":
        limit = 120.0
        argv = argv[1:]
        if argv[:1] == ["-t"]:
            limit = float(argv[1])
            argv = argv[2:]
        if len(argv) >= 3:
            return call(argv[0], argv[1], " ".join(argv[2:]), limit)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
