#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Reordering (netem delay 2 ms, 25% of the packets sent at once,
# correlation 50%) on one plane link of A (pl0) on the reference fabric
# (usid, 4 planes x 2 spines), mid-transfer: the transfer is verified
# byte for byte. Shared set-up: selftests/lib_faults.sh.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../lib_faults.sh"

faults_setup
faults_netem_check reorder pl0 reordering delay 2ms reorder 25% 50%
mrc_done
