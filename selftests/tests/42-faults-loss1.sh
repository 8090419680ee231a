#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# 1% random loss on every plane link of both hosts, both directions, on
# the reference fabric (usid, 4 planes x 2 spines): the transfer is
# verified byte for byte and the retransmissions are counted in the MIB.
# The sender splices its bytes in through a pipe (mrc-perf --splice), so
# the send queue holds the pipe's pages and every retransmission refers to
# them again: OutZeroCopyBytes counts every byte (fails when sendpage
# copies, or when a retransmission from a referenced page is wrong).
# Shared set-up: selftests/lib_faults.sh.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../lib_faults.sh"

faults_setup
retx_total() { # the namespace's retransmissions, all causes
	echo $(($(mrc_mib "$1" RetxSack) + $(mrc_mib "$1" RetxEv) + $(mrc_mib "$1" RetxRto) +
		$(mrc_mib "$1" RetxNack)))
}
retx0=$(retx_total "$FAB_A")
zc0=$(mrc_mib "$FAB_A" OutZeroCopyBytes)
faults_netem_all add netem loss 1%
MRC_PERF_SPLICE=1 mrc_check "1% loss on every plane: $(faults_mib 25165824) MiB verified" \
	faults_transfer loss1 :
zc=$(($(mrc_mib "$FAB_A" OutZeroCopyBytes) - zc0))
mrc_check "the spliced bytes were queued by reference, not copied: $zc of $(mrc_size 25165824 4194304)" \
	test "$zc" -eq "$(mrc_size 25165824 4194304)"
mrc_check "1% loss: retransmissions counted in the MIB (Retx*)" \
	test "$(retx_total "$FAB_A")" -gt "$retx0"
faults_report loss1
faults_netem_all del
mrc_done
