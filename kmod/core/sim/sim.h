// SPDX-License-Identifier: GPL-2.0
// Deterministic discrete-event simulator of two MRC connection engines
// over a multi-plane, multi-path network. See
// Documentation/connection-engine.md ("The simulator").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

extern "C" {
#include "mrc_conn.h"
}

namespace mrcsim {

// Per-path (both directions) network behaviour.
struct PathCfg {
	uint64_t delay_ns = 10000;
	uint64_t jitter_ns = 1000;
	uint64_t rate_bps = 1000000000ULL;
	double loss = 0;
	// Gilbert-Elliott bursty loss: P(good->bad), P(bad->good), loss in bad
	double ge_gb = 0, ge_bg = 0, ge_loss = 0;
	double reorder = 0; // probability of an extra delay that breaks FIFO
	uint64_t reorder_ns = 30000;
	double dup = 0;
	double corrupt = 0;
	double ecn = 0;
};

// A time window during which something is broken.
struct Window {
	uint64_t from = 0, to = ~0ULL;
	bool covers(uint64_t t) const { return t >= from && t < to; }
};

struct Scenario {
	std::string name;
	uint32_t planes = 4, per_plane = 2;
	std::vector<PathCfg> paths; // planes * per_plane
	uint8_t sock_type = MRC_CONN_STREAM;
	uint64_t bytes_ab = 1 << 20, bytes_ba = 1 << 18;
	uint32_t msg_max = 8000; // SEQPACKET: message lengths 0..msg_max
	uint64_t rcvbuf = 256 * 1024;
	uint64_t read_period_ns = 0; // 0: the reader reads at once
	uint64_t fault_at = 0;       // for stall measurement (0: none)
	// faults
	std::vector<std::pair<uint32_t, Window>> blackholes; // path, when
	// one direction only: [0] loses what A sends on the path, [1] what B sends
	std::vector<std::pair<uint32_t, Window>> oneway[2];
	std::vector<std::pair<uint32_t, Window>> plane_down; // plane, when (side A's port)
	// extra one-way delay on a path while its window lasts (a queue
	// that builds on one spine); nothing is lost
	std::vector<std::pair<uint32_t, Window>> slow;
	uint64_t slow_ns = 0;
	int slow_from = -1;              // the side whose packets are slowed (-1: both)
	bool expect_no_path_out = false; // fail if a path goes ASSUMED_BAD
	// fail if a path goes ASSUMED_BAD that no fault touches (a
	// blackhole, one-way loss, plane down or flapping)
	bool expect_out_only_faulted = false;
	// fail unless every path of A (the bulk sender) carried its share
	// of A's packets within +-balance_pct % of the mean over the paths
	// that stayed in use (0: not checked)
	uint32_t balance_pct = 0;
	std::vector<uint32_t> flapping; // paths
	uint64_t flap_period_ns = 300000;
	bool expect_timeout = false; // all paths die for good
	uint64_t stall_limit_ns = 0; // assert the longest stall (0: report only)
	uint64_t time_limit_ns = 3ULL * 1000000000ULL;
	// new packets per burst on one path, as the kernel sends them
	// (mrc_conn_next_tx_burst(); mrc_sim --burst N)
	uint32_t burst = MRC_CONN_TX_BURST;
	// Steps, as an allreduce runs them (0: one bulk transfer): the
	// applications write round_ab (A) and round_ba (B) bytes per step;
	// a step begins round_gap_ns (the compute between steps) after
	// both sides read everything of the one before. STREAM only;
	// bytes_ab and bytes_ba are set from these.
	uint32_t rounds = 0;
	uint64_t round_ab = 0, round_ba = 0;
	uint64_t round_gap_ns = 0;
	// assert the longest recovery (TTR) of side A, the one that sends
	// the steps (0: report only)
	uint64_t ttr_limit_ns = 0;
	mrc_conn_params params{}; // both sides (QPNs, PSNs, keys set per side)
};

struct Result {
	bool ok = true;
	std::string why;
	uint64_t end_ns = 0;
	uint64_t close_ns = 0; // both applications closed (all delivered)
	uint64_t stall_ns = 0; // longest delivery stall after fault_at
	uint64_t ttr_max_ns = 0, ttr_count = 0, ttr_total_ns = 0;
	uint64_t ttr_side_ns[2] = {0, 0}; // each side's longest recovery
	uint64_t bytes = 0;
	uint64_t retransmits = 0, spurious = 0, timeouts = 0;
	uint64_t pkts = 0, corrupt_dropped = 0;
	// path events to ASSUMED_BAD, both sides: the paths' configured ids,
	// a path once per event
	std::vector<uint32_t> out_paths;
	double balance_min = 0, balance_max = 0; // A's tx per path / mean
	int err_a = 0, err_b = 0;
	uint64_t fail_ns = 0;
};

bool make_scenario(const std::string &name, uint64_t seed, Scenario &sc);
const std::vector<std::string> &scenario_names();
Result run(const Scenario &sc, uint64_t seed, bool verbose);

} // namespace mrcsim
