#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Corruption (netem corrupt 2%) on one plane link of A (pl2) on the
# reference fabric (usid, 4 planes x 2 spines), mid-transfer: the
# transfer is verified byte for byte. Shared set-up:
# selftests/lib_faults.sh.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../lib_faults.sh"

faults_setup
faults_netem_check corrupt pl2 corruption corrupt 2%
mrc_done
