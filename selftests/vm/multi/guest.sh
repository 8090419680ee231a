#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The job of each guest of a multi-guest run (run.sh boots them with the
# single-guest harness, selftests/vm/run-vm.sh, unchanged): mount the
# exchange directory both guests share, set up the host's network
# (node.sh net), load mrc.ko; then
#   guest.sh b            the peer: run the agent until the test guest is
#                         done (or run.sh stops it)
#   guest.sh a TEST...    the test guest: wait for the peer's agent, run
#                         the tests with the suite runner (KTAP to
#                         /tmp/out/ktap.txt), then stop the agent
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
role=$1
shift
mkdir -p /tmp/xchg
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 xchg /tmp/xchg ||
	{ echo "guest $role: no exchange directory"; exit 1; }
hostname "mrc-$role"
"$here/node.sh" "$role" net || { echo "guest $role: network set-up failed"; ip link; exit 1; }
"$here/node.sh" "$role" load || { echo "guest $role: cannot load mrc.ko"; exit 1; }
echo "guest $role: up after $(cut -d' ' -f1 /proc/uptime) s"

if [ "$role" = b ]; then
	exec python3 "$here/agent.py" serve 10.99.0.2 7000 /tmp/xchg/stop
fi

if ! python3 "$here/agent.py" wait 10.99.0.2 7000 180; then
	echo "guest a: the peer's agent never answered"
	exit 1
fi
echo "guest a: peer reachable after $(cut -d' ' -f1 /proc/uptime) s"
"$root/selftests/run-suite.sh" -o /tmp/out/ktap.txt "$@"
rc=$?
python3 "$here/agent.py" call -t 5 10.99.0.2 7000 exit >/dev/null 2>&1
exit $rc
