#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Duplication (netem duplicate 10%) on one plane link of A (pl1) on the
# reference fabric (usid, 4 planes x 2 spines), mid-transfer: the
# transfer is verified byte for byte. Shared set-up:
# selftests/lib_faults.sh.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../lib_faults.sh"

faults_setup
faults_netem_check dup pl1 duplication duplicate 10%
mrc_done
