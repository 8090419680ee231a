#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# PyTorch data-parallel training (torch.distributed, gloo backend,
# DistributedDataParallel; Debian's python3-torch, unmodified) with one
# rank on each of 4 hosts of the reference fabric (4 planes x 2 spines),
# over TCP (the fabric's ECMP routes) and over MRC (usid paths between
# every pair of hosts, the apps policy, mrcize): one job per transport,
# about 20 s with fault-free stretches and each fault in turn (3 s each),
# mid-job, on a link the job's traffic crosses (lib_apps.sh,
# apps_phased_job):
#   blackhole  a silent spine blackhole (netem loss 100% on a leaf-spine link)
#   planedown  a host's own plane link down (ip link set plN down)
#   loss1      1% loss on a host's plane link
# Every job trains the same model; its final parameters must match the
# single-process reference (allclose), and every step's time is recorded.
# Over MRC the job must complete with verified results and its steps under
# the fault stay within bounds derived from the policy (lib_apps.sh,
# apps_judge; on a debug kernel they are reported, not asserted); over
# TCP the same figures are reported (# info), never asserted (the TCP
# job runs with MRC_TEST_APPS_TCP=1: make check-slow).
# Without mrcize (tools/mrcize) the MRC runs are skipped.
# torch is imported once per transport (about 40 s in the emulated VM):
# workloads/torch_ddp.py runs every job of a transport from one process.
# timeout: 900
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../workloads/lib_apps.sh"

STEPS=100000	# at most: the test stops the job at the end of its timeline
# gloo's timeout: a TCP job stalled by a fault ends with gloo's own error
# (the fault is repaired after APPS_FAULT_S seconds anyway).
GLOO_TIMEOUT=$(mrc_time 40)

mrc_module_load
t=$SECONDS
mrc_fabric_build 4 2 4 || { mrc_fail "fabric"; mrc_done; }
mrc_info "4-host fabric built in $((SECONDS - t)) s"
mrc_check "fabric: every host reaches every other host" mrc_fabric_hosts_ping
apps_counters_start
base=$(mrc_tmpdir)
port=29500

# The job functions are the torch launcher's (lib_apps.sh); the job is
# test 81's DDP training.
apps_job_start() {
	apps_launcher_send "$APPS_TRANSPORT" "run $1 $STEPS $((port += 1))"
}

# run_transport TR: every job over transport TR, from its launcher.
run_transport() {
	local tr=$1 t
	apps_transport "$tr"
	APPS_RES=$base/$tr
	if ! mrc_wait_for 300 test -e "$APPS_RES/ready"; then
		mrc_fail "$tr: the launcher imported torch"
		sed 's/^/# /' "$APPS_RES/log" | tail -20
		return
	fi
	# The first job of a launcher pays for the code the ranks touch for
	# the first time (gloo, DDP: read over 9p in the VM): a short warm-up
	# job keeps that out of the fault-free yardstick.
	t=$SECONDS
	apps_launcher_send "$tr" "run $tr-warmup 5 $((port += 1))"
	mrc_wait_for 300 test -e "$APPS_RES/$tr-warmup.done"
	mrc_info "$tr: warm-up job in $((SECONDS - t)) s"
	t=$SECONDS
	apps_phased_job "$tr-job"
	apps_launcher_quit "$tr" 60
	mrc_info "$tr: a job through every fault in $((SECONDS - t)) s"
	# The harness, not TCP's behaviour: the job ran and reported (a job
	# that fails reports its error, gloo's timeout included).
	mrc_check "$tr: the job ran on every host and reported its steps" \
		sh -c "test -s $APPS_RES/$tr-job.json || { tail -20 $APPS_RES/log; exit 1; }"
	apps_judge "$tr" "$tr-job"
}

# With the TCP job (apps_tcp_wanted), both launchers import torch at the
# same time (about 40 s each in the emulated VM, mostly waiting for 9p
# reads); the MRC one then waits, idle, while the TCP jobs run.
why=$(apps_mrc_missing)
if apps_tcp_wanted; then
	apps_launcher_start tcp "$base/tcp" "$GLOO_TIMEOUT"
fi
if [ -z "$why" ]; then
	mrc_check "mrc: usid paths between every pair of hosts, the apps policy" apps_mrc_setup
	apps_launcher_start mrc "$base/mrc" "$GLOO_TIMEOUT"
fi
if apps_tcp_wanted; then
	run_transport tcp
fi
if [ -n "$why" ]; then
	mrc_skip "mrc: the same jobs over MRC" "$why"
else
	run_transport mrc
	mrc_info "torch imported in $(sed 's/.*: *\([0-9]*\).*/\1/' "$base/mrc/ready") s"
fi
mrc_done
