#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The "remote shell" Open MPI's mpirun uses to start its daemons (orted)
# on the hosts of the reference fabric (82-apps-mpi): what ssh does on a
# cluster, this does with network namespaces. mpirun calls it as
#   mpi_ns_agent.sh [ssh-like options] HOST COMMAND...
# with HOST a name from the hostfile, which is the host's namespace
# (/run/netns/HOST), and COMMAND a shell command line (ssh semantics:
# the words joined with spaces and run by a shell). The daemon, and the
# ranks it forks, live in that network namespace only (nsenter --net:
# cheaper than ip netns exec in the emulated VM, and the file system and
# /tmp stay shared, as Open MPI's session directories expect).
while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do
	shift	# ssh options (-x, ...): nothing to do here
done
host=$1
shift
[ -e "/run/netns/$host" ] || { echo "mpi_ns_agent: no namespace $host" >&2; exit 255; }
exec nsenter -F --net="/run/netns/$host" /bin/sh -c "$*"
