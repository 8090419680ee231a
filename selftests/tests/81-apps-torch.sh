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
# apps_judge); over TCP the same figures are reported (# info), never
# asserted. Without mrcize (tools/mrcize) the MRC runs are skipped.
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
hosts=""
for i in "${!FAB_HOST_NS[@]}"; do
	hosts="$hosts${hosts:+,}${FAB_HOST_NS[i]}=${FAB_HOST_ADDR[i]}"
done
port=29500
declare -A launcher ctl

apps_job_start() {
	port=$((port + 1))
	echo "run $1 $STEPS $port" >&"${ctl[$APPS_TRANSPORT]}"
}
apps_job_progress() {
	local n=0
	read -r n < "$APPS_RES/$1.progress" 2>/dev/null
	echo "${n:-0}"
}
apps_job_over() {
	[ -e "$APPS_RES/$1.done" ] || ! kill -0 "${launcher[$APPS_TRANSPORT]}" 2>/dev/null
}
apps_job_stop() {
	touch "$APPS_RES/$1.stop"
}
apps_job_finish() { :; }

# start_launcher TR: torch_ddp.py for transport TR, in the background; it
# imports torch, then waits for jobs on its control FIFO.
start_launcher() {
	local tr=$1 fd
	apps_transport "$tr"
	mkdir -p "$base/$tr"
	mkfifo "$base/$tr/ctl"
	mrc_bg "${APPS_WRAP[@]}" "$APPS_PYTHON" "$APPS_DIR/torch_ddp.py" --hosts "$hosts" \
		--out "$base/$tr" --control "$base/$tr/ctl" --timeout "$GLOO_TIMEOUT" \
		> "$base/$tr/log" 2>&1
	launcher[$tr]=$MRC_BG_PID
	exec {fd}<>"$base/$tr/ctl"
	ctl[$tr]=$fd
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
	echo "run $tr-warmup 5 $((port += 1))" >&"${ctl[$tr]}"
	mrc_wait_for 300 test -e "$APPS_RES/$tr-warmup.done"
	mrc_info "$tr: warm-up job in $((SECONDS - t)) s"
	t=$SECONDS
	apps_phased_job "$tr-job"
	echo quit >&"${ctl[$tr]}"
	mrc_wait_for 60 sh -c "! kill -0 ${launcher[$tr]} 2>/dev/null"
	mrc_info "$tr: a job through every fault in $((SECONDS - t)) s"
	# The harness, not TCP's behaviour: the job ran and reported (a job
	# that fails reports its error, gloo's timeout included).
	mrc_check "$tr: the job ran on every host and reported its steps" \
		sh -c "test -s $APPS_RES/$tr-job.json || { tail -20 $APPS_RES/log; exit 1; }"
	apps_judge "$tr" "$tr-job"
}

# Both launchers import torch at the same time (about 40 s each in the
# emulated VM, mostly waiting for 9p reads); the MRC one then waits,
# idle, while the TCP jobs run.
why=$(apps_mrc_missing)
t=$SECONDS
start_launcher tcp
if [ -z "$why" ]; then
	mrc_check "mrc: usid paths between every pair of hosts, the apps policy" apps_mrc_setup
	start_launcher mrc
fi
run_transport tcp
mrc_info "torch imported in $(sed 's/.*: *\([0-9]*\).*/\1/' "$base/tcp/ready") s"
if [ -n "$why" ]; then
	mrc_skip "mrc: the same jobs over MRC" "$why"
else
	run_transport mrc
fi
mrc_done
