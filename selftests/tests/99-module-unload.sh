#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Last test of the suite: the module unloads cleanly after everything the
# other tests did, and its socket family and netlink family are gone.
# timeout: 300
. "$(dirname "$0")/../lib.sh"

mrc_module_load
mrc_check "rmmod mrc" rmmod mrc
mrc_check_fails "no /sys/module/mrc after unload" mrc_module_loaded
"$MRCCTL" info >/dev/null 2>&1
mrc_check_eq "netlink family gone (mrcctl exit 3)" 3 "$?"
mrc_check_fails "no leftover MRC protocol in /proc/net/protocols" \
	grep -q '^MRC ' /proc/net/protocols
mrc_done
