#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Without the module every mrcctl command exits 3 with one line saying
# so, batch files included; usage errors still exit 2.
# timeout: 120
. "$(dirname "$0")/../lib.sh"
. "$MRC_ROOT/selftests/tools/mrcctl_lib.sh"

mrc_module_loaded && rmmod mrc
mrc_check "module is not loaded" test ! -d /sys/module/mrc
msg="mrcctl: the mrc kernel module is not loaded (generic netlink family \"mrc\" not found); load it with 'modprobe mrc'"
while read -r cmd; do
	# shellcheck disable=SC2086
	mrcctl_err "'$cmd' exits 3" 3 "$msg" "$MRCCTL" $cmd
done <<'CMDS'
info
plane show
plane add 0 dev lo saddr 2001:db8::1
path show
path add 1 dst ::/0 plane 0 mode entropy
policy show
policy del x
settings show
settings set udp-port 5000
conn show
stats
monitor
probe 2001:db8::1 path 1
CMDS
f=$(mrc_tmpdir)/batch
printf 'plane show\n' >"$f"
mrcctl_err "batch exits 3 and names the line" 3 "mrcctl: $f:1: ${msg#mrcctl: }" "$MRCCTL" -batch "$f"
mrcctl_err "usage errors need no module" 2 "mrcctl: invalid plane id 'x': not a number
Try 'mrcctl --help'." "$MRCCTL" plane add x
mrc_check "help needs no module" "$MRCCTL" plane --help
mrc_module_load
mrc_check "works again once loaded" "$MRCCTL" plane show
mrc_done
