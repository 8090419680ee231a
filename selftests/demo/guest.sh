#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The demo, inside the VM: a narrated tour of what works today.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

say() { printf '\n\033[1m## %s\033[0m\n' "$*"; }
run() { printf '$ %s\n' "$*"; "$@"; }

say "Load the MRC module"
run insmod "$MRC_KMOD"
dmesg | grep 'mrc: version' | tail -1

say "Two hosts, each in its own network namespace"
a=$(mrc_ns_new hostA)
b=$(mrc_ns_new hostB)
echo "created $a and $b"

say "mrcctl asks the module in each namespace"
run ip netns exec "$a" "$MRCCTL" info
run ip netns exec "$b" "$MRCCTL" -j info

say "Applications open AF_MRC sockets"
python3 - <<'PY'
import socket
for name, t in (("SOCK_STREAM", socket.SOCK_STREAM), ("SOCK_SEQPACKET", socket.SOCK_SEQPACKET)):
    s = socket.socket(25, t)
    print(f"socket(AF_MRC, {name}, 0) = fd {s.fileno()}")
    s.close()
PY

say "Errors are clear: with the module unloaded"
run rmmod mrc
"$MRCCTL" info || echo "(exit status $?)"
echo
echo "demo: done."
