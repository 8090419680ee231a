#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# An MPI job (progs/mpi_apps.c: allreduce and alltoall of verified data,
# every iteration timed) run by Debian's Open MPI, unmodified, with one
# rank on each of 4 hosts of the reference fabric (4 planes x 2 spines):
# mpirun starts its daemons through workloads/mpi_ns_agent.sh, the "ssh"
# that enters a host's namespace; the ranks talk over the TCP BTL on IPv6
# between the hosts' fabric addresses (btl_tcp_if_include lo: where each
# host's address lives), across the fabric. mpirun's own out-of-band
# channel runs over a separate IPv4 management link per host (10.254.i.x,
# not part of the fabric), so the faults hit the job's data only. Runs
# over TCP (the fabric's ECMP routes) and over MRC (usid paths, the apps
# policy, mrcize): one job per transport, about 20 s with fault-free
# stretches and each fault in turn (3 s each), mid-job, on a link the
# job's traffic crosses (lib_apps.sh, apps_phased_job): a silent spine
# blackhole, a host's plane link down, 1% loss on a host's plane link.
# Over MRC every job must complete with every element verified and its
# iterations under the fault stay within bounds derived from the policy
# (apps_judge; on a debug kernel they are reported, not asserted); over
# TCP (MRC_TEST_APPS_TCP=1: make check-slow) the same figures are
# reported (# info), never asserted. Without mrcize
# (tools/mrcize) the MRC runs are skipped.
# timeout: 900
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../workloads/lib_apps.sh"

MPI_PROG=$MRC_BUILD/progs/mrc_mpi_apps
ITERS=100000	# at most: the test stops the job at the end of its timeline
# Doubles per allreduce (and per alltoall, all peers). Divided by
# MRC_TEST_SIZE_DIV like every heavy transfer of the suite: on the debug
# kernel the full size overflows the fabric hops' backlog (53,223 drops in
# one run) and stalls TCP's job and MRC's alike for minutes.
COUNT=${APPS_MPI_COUNT:-$(mrc_size 8192 256)}

if [ ! -x "$MPI_PROG" ] || ! command -v mpirun >/dev/null; then
	mrc_skip "MPI jobs" "Open MPI or $MPI_PROG missing (libopenmpi-dev, openmpi-bin)"
	mrc_done
fi

mrc_module_load
mrc_fabric_build 4 2 4 || { mrc_fail "fabric"; mrc_done; }
mrc_check "fabric: every host reaches every other host" mrc_fabric_hosts_ping
base=$(mrc_tmpdir)

# The management network of mpirun's out-of-band channel: host i is
# 10.254.i.2 on "mgmt", the initial namespace (where mpirun runs)
# 10.254.i.1 on "mgi". Deleting the host's namespace deletes the pair.
mgmt() {
	local i
	for i in "${!FAB_HOST_NS[@]}"; do
		ip link add name "mg$i" type veth peer name mgmt netns "${FAB_HOST_NS[i]}" &&
			ip addr add "10.254.$i.1/24" dev "mg$i" && ip link set "mg$i" up &&
			ip -n "${FAB_HOST_NS[i]}" addr add "10.254.$i.2/24" dev mgmt &&
			ip -n "${FAB_HOST_NS[i]}" link set mgmt up || return 1
	done
}
mrc_check "management links for mpirun's out-of-band channel" mgmt
apps_counters_start
printf '%s slots=1\n' "${FAB_HOST_NS[@]}" > "$base/hostfile"

# PMIx's shared-memory store does not work in the guest (as root, on the
# shared read-only root); its hash store does.
export PMIX_MCA_gds=hash
# orted's hwloc run-time component sometimes crashes writing its
# shared-memory topology in the guest (a segfault in
# hwloc_shmem_topology_write, with or without mrcize): --mca rtc ^hwloc.
# The ranks are not bound to CPUs anyway.
apps_job_start() {
	rm -f "$APPS_RES/$1.progress"
	# mrcize wraps each rank (as a user would), not mpirun and its
	# daemons: their out-of-band channel stays on the management links.
	mrc_bg mpirun --allow-run-as-root -np "${#FAB_HOST_NS[@]}" \
		--hostfile "$base/hostfile" --map-by node \
		--mca plm_rsh_agent "$APPS_DIR/mpi_ns_agent.sh" \
		--mca oob_tcp_if_include 10.254.0.0/16 \
		--mca btl tcp,self --mca btl_tcp_disable_family 4 --mca btl_tcp_if_include lo \
		--mca pml ob1 --mca osc ^ucx --mca mpi_yield_when_idle 1 -x PMIX_MCA_gds \
		--mca rtc ^hwloc \
		--timeout "$(mrc_time 300)" \
		"${APPS_WRAP[@]}" "$MPI_PROG" --iters "$ITERS" --count "$COUNT" \
		--out "$APPS_RES/$1.json" --progress "$APPS_RES/$1.progress" --stop "$APPS_RES/$1.stop" \
		> "$APPS_RES/$1.log" 2>&1
	job=$MRC_BG_PID
	job_t0=$SECONDS
}
apps_job_progress() {
	local n=0
	read -r n < "$APPS_RES/$1.progress" 2>/dev/null
	echo "${n:-0}"
}
apps_job_over() {
	! kill -0 "$job" 2>/dev/null
}
apps_job_stop() {
	touch "$APPS_RES/$1.stop"
}
apps_job_finish() {
	wait "$job"
	echo $? > "$APPS_RES/$1.rc"
	mrc_info "$1: mpirun ran $((SECONDS - job_t0)) s, exit $(cat "$APPS_RES/$1.rc")"
}
job_err() { # NAME: the end of mpirun's output
	grep -v '^$' "$APPS_RES/$1.log" | tail -3 | tr '\n' ' ' | head -c 300
}

run_transport() {
	local tr=$1 t=$SECONDS
	apps_transport "$tr"
	APPS_RES=$base/$tr
	mkdir -p "$APPS_RES"
	apps_phased_job "$tr-job"
	mrc_info "$tr: a job through every fault in $((SECONDS - t)) s"
	# The harness, not TCP's behaviour (a TCP job stalled for good ends
	# by mpirun's --timeout, with no result; it is reported, not
	# asserted): over MRC the job must report.
	if [ -s "$APPS_RES/$tr-job.json" ]; then
		mrc_info "$tr: the job ran on every host and reported its iterations"
	else
		mrc_info "$tr: no result: $(job_err "$tr-job")"
		grep -v -E 'mrcize: summary|^$' "$APPS_RES/$tr-job.log" | tail -n 20 | sed 's/^/# /'
	fi
	apps_judge "$tr" "$tr-job" "$(job_err "$tr-job")"
}

if apps_tcp_wanted; then
	run_transport tcp
fi
why=$(apps_mrc_missing)
if [ -n "$why" ]; then
	mrc_skip "mrc: the same jobs over MRC" "$why"
else
	mrc_check "mrc: usid paths between every pair of hosts, the apps policy" apps_mrc_setup
	run_transport mrc
fi
mrc_done
