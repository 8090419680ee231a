#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# MRC's metrics scraped by a real Prometheus (Debian's prometheus) on the
# reference fabric (usid, 4 planes x 2 spines): mrc-exporter runs in host
# A's namespace (reporting A's and B's, --netns), listening on a
# management link to the guest's own namespace, where Prometheus scrapes
# it every second. The exporter's text passes `promtool check
# metrics`; Prometheus reads its OpenMetrics. A connection lives through
# a silent spine blackhole on plane 1 and its repair; PromQL over
# Prometheus's HTTP API must show plane 1's paths ASSUMED_BAD during the
# fault, the path transitions and the namespace's TTR histogram move, the
# histogram keep its count after the connection has closed, and its p99
# come out of histogram_quantile(). The exporter stops on SIGTERM.
# Documentation/metrics.md.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../lib_faults.sh"

for tool in prometheus promtool curl; do
	if ! command -v "$tool" >/dev/null; then
		mrc_skip "prometheus" "$tool is not installed (scripts/install-deps.sh)"
		mrc_done
	fi
done
t_start=$SECONDS
# Prometheus first, in the guest's own namespace: it takes about 15 s
# to start in the emulated VM, which the fabric's build hides. It scrapes
# A's exporter over a management link every second (every
# MRC_TEST_TIME_SCALE seconds on a debug kernel; OpenMetrics: it asks for
# it) and retries until the exporter is up.
ip link set lo up
res=$(mrc_tmpdir)
mkdir -p "$res/prom"
cat > "$res/prom/prometheus.yml" <<EOF
global:
  scrape_interval: $(mrc_time 1)s
  scrape_timeout: $(mrc_time 1)s
  evaluation_interval: $(mrc_time 1)s
scrape_configs:
  - job_name: mrc
    static_configs:
      - targets: ['[fd99:253::2]:9880']
EOF
mrc_bg prometheus --config.file="$res/prom/prometheus.yml" \
	--storage.tsdb.path="$res/prom/data" --web.listen-address="[::1]:9090" \
	--log.level=warn 2> "$res/prom/log"
prom=$MRC_BG_PID
t_prom=$SECONDS
faults_setup
# The management link: the guest's namespace to A's (the fabric's
# addresses stay the fabric's).
ip link add mgmt-prom type veth peer name mgmt-prom netns "$FAB_A"
mrc_on_exit "ip link del mgmt-prom 2>/dev/null"
ip addr add fd99:253::1/64 dev mgmt-prom nodad
in_ns "$FAB_A" ip addr add fd99:253::2/64 dev mgmt-prom nodad
ip link set mgmt-prom up
in_ns "$FAB_A" ip link set mgmt-prom up
EXPORTER=${MRC_EXPORTER:-$MRC_BUILD/tools/mrc-exporter/mrc-exporter}
PROMQ="python3 -S $MRC_ROOT/selftests/tools/promq.py"
exp_url="http://[fd99:253::2]:9880"
promtool_ok() { promtool check metrics < "$1"; }
prom_url="http://[::1]:9090"

# mrcctl names the namespace it runs in by its entry under /run/netns.
in_ns "$FAB_A" "$MRCCTL" stats -o prometheus > "$res/mrcctl.txt"
mrc_check "mrcctl stats -o prometheus: labelled with A's namespace, up" \
	grep -qx "mrc_up{netns=\"$FAB_A\"} 1" "$res/mrcctl.txt"
mrc_check "promtool check metrics: mrcctl's output is valid" promtool_ok "$res/mrcctl.txt"

# The exporter, in A's namespace, reporting A's and B's (setns).
mrc_bg_in_ns "$FAB_A" "$EXPORTER" --listen "[fd99:253::2]:9880" --netns "$FAB_A" --netns "$FAB_B" \
	--top 4 2> "$res/exporter.log"
exporter=$MRC_BG_PID
mrc_check "exporter: listening on [fd99:253::2]:9880" \
	mrc_wait_for 20 grep -q "listening on" "$res/exporter.log" || cat "$res/exporter.log"

scrape() { # FILE [ACCEPT]: GET /metrics into FILE, headers into FILE.h
	curl -sS -f -D "$1.h" ${2:+-H "Accept: $2"} -o "$1" "$exp_url/metrics"
}
mrc_check "exporter: GET /metrics answers 200" scrape "$res/m0.txt"
mrc_check "exporter: the text format (0.0.4) by default" \
	grep -qi "^content-type: text/plain; version=0.0.4" "$res/m0.txt.h"
mrc_check "promtool check metrics: the exporter's output is valid" promtool_ok "$res/m0.txt"
both_up() {
	grep -qx "mrc_up{netns=\"$FAB_A\"} 1" "$1" && grep -qx "mrc_up{netns=\"$FAB_B\"} 1" "$1"
}
mrc_check "exporter: both namespaces, each up" both_up "$res/m0.txt" ||
	{ grep '^mrc_up' "$res/m0.txt"; cat "$res/exporter.log"; } | sed 's/^/# /'
mrc_check "exporter: A's 4 planes up" \
	test "$(grep -c "^mrc_plane_up{netns=\"$FAB_A\",.*} 1$" "$res/m0.txt")" = 4
om_ok() {
	scrape "$res/om.txt" 'application/openmetrics-text;version=1.0.0' &&
		grep -qi '^content-type: application/openmetrics-text' "$res/om.txt.h" &&
		[ "$(tail -n1 "$res/om.txt")" = "# EOF" ]
}
mrc_check "exporter: OpenMetrics when asked for it, ending in # EOF" om_ok
status_of() { curl -s -o /dev/null -w '%{http_code}' "$exp_url$1"; }
mrc_check_eq "exporter: 404 elsewhere" 404 "$(status_of /nope)"

promq() { $PROMQ "$prom_url" "$@"; }
if ! mrc_check "prometheus: scrapes the exporter (up == 1)" \
	mrc_wait_for 60 promq 'up{job="mrc"}' eq 1; then
	tail -20 "$res/prom/log" | sed 's/^/# prometheus: /'
fi
mrc_info "prometheus: first good scrape $((SECONDS - t_prom)) s after its start"
targets_ok() {
	curl -sf "$prom_url/api/v1/targets" | python3 -c 'import json, sys
t = json.load(sys.stdin)["data"]["activeTargets"][0]
sys.exit(0 if t["health"] == "up" and not t["lastError"] else t["lastError"])'
}
mrc_check "prometheus: the target is healthy, no scrape error" targets_ok

A="netns=\"$FAB_A\""
ttr_before=$(promq "mrc_time_to_recovery_seconds_count{$A}" | awk '{ print $NF }')
ttr_before=${ttr_before:-0}
good_before=$(promq "mrc_path_transitions_total{$A,to=\"good\"}" | awk '{ print $NF }')
good_before=${good_before:-0}
mrc_info "before the fault: TTR count $ttr_before, transitions to good $good_before"

# A connection alive through a blackhole of spine 0 of plane 1 and its
# repair; what Prometheus sees is asserted while each is in place.
t0a=$(mrc_fabric_ns t0a 1)
bad_in_prom() {
	promq "sum(mrc_paths{$A,plane=\"1\",state=\"assumed-bad\"})" gt 0
}
fault_and_repair() {
	mrc_wait_for 30 promq "sum(mrc_connections{$A,state=\"established\"})" ge 1 &&
		touch "$res/conn-seen"
	mrc_wait_for 30 promq "sum(mrc_conn_sent_bytes_total{$A})" gt 0 &&
		touch "$res/top-seen"
	tc -n "$t0a" qdisc add dev up0 root netem loss 100%
	mrc_wait_for 60 bad_in_prom && touch "$res/bad-seen"
	promq "sum by (plane) (mrc_paths{$A,state=\"assumed-bad\"})" > "$res/bad-by-plane"
	mrc_wait_for 30 promq "mrc_path_transitions_total{$A,to=\"assumed-bad\"}" gt 0 &&
		touch "$res/to-bad-seen"
	mrc_wait_for 30 promq "mrc_time_to_recovery_seconds_count{$A}" gt "$ttr_before" &&
		touch "$res/ttr-seen"
	tc -n "$t0a" qdisc del dev up0 root
	mrc_wait_for 60 promq "mrc_path_transitions_total{$A,to=\"good\"}" gt "$good_before" &&
		touch "$res/good-seen"
}
mrc_check "fault: a connection through a spine blackhole and its repair, every byte verified" \
	faults_transfer_through prom fault_and_repair
mrc_check "promql: an established connection, with per-connection figures (--top)" \
	sh -c "test -e $res/conn-seen && test -e $res/top-seen"
mrc_check "promql: plane 1's paths ASSUMED_BAD during the blackhole" test -e "$res/bad-seen"
mrc_info "assumed-bad paths by plane during the fault: $(tr '\n' ' ' < "$res/bad-by-plane")"
mrc_check "promql: path transitions to assumed-bad counted" test -e "$res/to-bad-seen"
mrc_check "promql: the namespace's TTR histogram count rose above $ttr_before" \
	test -e "$res/ttr-seen"
mrc_check "promql: transitions back to good after the repair" test -e "$res/good-seen"

# The connection is gone; the namespace's histogram is not.
no_conns() { ! faults_a_conns 'any(c["state"] == "established" for c in conns)'; }
mrc_wait_for 30 no_conns
mrc_check "promql: the TTR count outlives the connection (scraped after its close)" \
	mrc_wait_for 30 promq "sum(mrc_connections{$A,state=\"established\"}) == 0 and on() mrc_time_to_recovery_seconds_count{$A} > $ttr_before"
p99=$(promq "histogram_quantile(0.99, mrc_time_to_recovery_seconds_bucket{$A})" | awk '{ print $NF }')
mrc_info "TTR p99 from histogram_quantile: ${p99:-none} s"
mrc_check "promql: TTR p99 is a time between 0 and the policy's retry budget (10 s)" \
	python3 -c "import sys; v = float('${p99:-nan}'); sys.exit(0 if 0 < v < 10 else 1)"
scrape "$res/m1.txt"
mrc_check "promtool check metrics: valid after the fault too" promtool_ok "$res/m1.txt"
sample() { # FILE METRIC: the value of A's sample of METRIC
	awk -v m="$2{netns=\"$FAB_A\"}" '$1 == m { print $2 }' "$1"
}
same_count() {
	local r t
	r=$(sample "$res/m1.txt" mrc_recoveries_total)
	t=$(sample "$res/m1.txt" mrc_time_to_recovery_seconds_count)
	echo "Recoveries '$r', TTR count '$t'"
	[ -n "$r" ] && [ "$r" = "$t" ] && [ "$r" -gt 0 ]
}
mrc_check "exporter: its TTR count equals A's Recoveries counter, not 0" same_count

kill -TERM "$exporter"
wait "$exporter"
mrc_check_eq "exporter: exits 0 on SIGTERM" 0 "$?"
mrc_check "exporter: says it stopped" grep -q "mrc-exporter: stopped" "$res/exporter.log"
kill -TERM "$prom" 2>/dev/null
wait "$prom" 2>/dev/null
mrc_info "45-prometheus: $((SECONDS - t_start)) s"
mrc_done
