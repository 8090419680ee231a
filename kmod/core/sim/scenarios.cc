// SPDX-License-Identifier: GPL-2.0
// The simulator's scenarios. Each is a function of (name, seed): the seed
// varies the fault's victim, timing and the network's randomness.
#include "sim.h"

#include "mrc_cm_fsm.h"

#include <random>

namespace mrcsim {
namespace {

constexpr uint64_t kUs = 1000, kMs = 1000000, kS = 1000000000;

void base(Scenario &sc, uint32_t planes, uint32_t per_plane, std::mt19937_64 &g)
{
	sc.planes = planes;
	sc.per_plane = per_plane;
	sc.paths.assign(planes * per_plane, PathCfg{});
	for (auto &p : sc.paths) {
		p.delay_ns = 8 * kUs + g() % (8 * kUs); // paths differ
		p.jitter_ns = 2 * kUs;
		p.rate_bps = 2000000000ULL;
	}
	mrc_conn_params &c = sc.params;
	mrc_conn_params_default(&c);
	// rto_min well above the RTT and its variance, as the default
	// policy is in a VM (2 ms against ~0.3 ms)
	c.policy.rto_min_ns = 500 * kUs;
	c.policy.rto_max_ns = 10 * kMs;
	c.policy.retry_limit = 8;
	c.policy.probe_interval_ns = 1 * kMs;
	c.policy.skip_ns = 100 * kUs;
	c.policy.max_paths = 64;
	c.policy.backups = 0;
	c.policy.min_active = 2;
	c.ack_delay_ns = 20 * kUs;
	c.handshake_rtt_ns = 40 * kUs;
	mrc_cc_params_default(&c.cc, c.max_payload, 40 * kUs, 2000000000ULL * planes * per_plane);
}

} // namespace

// The scenarios CTest runs.
const std::vector<std::string> &scenario_names()
{
	static const std::vector<std::string> names = {
	    "clean",      "seqpacket", "loss",        "bursty",   "reorder",
	    "corrupt",    "blackhole", "blackhole8",  "flap",     "oneway",
	    "plane_down", "ecn",       "slow_reader", "all_dead", "outage",
	    "chaos",      "one_left",  "late_path",   "wide",     "oneway_steps",
	};
	return names;
}

bool make_scenario(const std::string &name, uint64_t seed, Scenario &sc)
{
	std::mt19937_64 g(seed * 1000003 + name.size());
	auto pick = [&](uint64_t n) { return (uint32_t)(g() % n); };

	sc = Scenario{};
	sc.name = name;
	base(sc, 4, 2, g);
	uint32_t np = sc.planes * sc.per_plane;
	uint64_t fault = 200 * kUs + g() % (200 * kUs);

	if (name == "clean") {
		sc.sock_type = pick(2) ? MRC_CONN_SEQPACKET : MRC_CONN_STREAM;
	} else if (name == "seqpacket") {
		sc.sock_type = MRC_CONN_SEQPACKET;
		sc.msg_max = pick(2) ? 200 : 20000;
		for (auto &p : sc.paths)
			p.loss = 0.005;
	} else if (name == "loss") {
		sc.sock_type = pick(2) ? MRC_CONN_SEQPACKET : MRC_CONN_STREAM;
		for (auto &p : sc.paths)
			p.loss = 0.01 + 0.01 * pick(3);
	} else if (name == "bursty") {
		for (auto &p : sc.paths) {
			p.ge_gb = 0.005;
			p.ge_bg = 0.3;
			p.ge_loss = 0.8;
		}
	} else if (name == "reorder") {
		sc.sock_type = pick(2) ? MRC_CONN_SEQPACKET : MRC_CONN_STREAM;
		for (auto &p : sc.paths) {
			p.reorder = 0.05;
			p.dup = 0.02;
			p.jitter_ns = 10 * kUs;
		}
	} else if (name == "corrupt") {
		sc.sock_type = pick(2) ? MRC_CONN_SEQPACKET : MRC_CONN_STREAM;
		for (auto &p : sc.paths)
			p.corrupt = 0.02;
	} else if (name == "blackhole" || name == "blackhole8") {
		// the required result: a silent blackhole of 1 of 8 paths;
		// delivery resumes within 2 x rto_min in every seed
		if (name == "blackhole8") {
			sc.paths.clear();
			base(sc, 8, 1, g);
			np = 8;
		}
		sc.sock_type = pick(2) ? MRC_CONN_SEQPACKET : MRC_CONN_STREAM;
		sc.fault_at = fault;
		sc.blackholes.push_back({pick(np), Window{fault, ~0ULL}});
		sc.stall_limit_ns = 2 * sc.params.policy.rto_min_ns;
	} else if (name == "flap") {
		sc.fault_at = fault;
		sc.flapping.push_back(pick(np));
		sc.flap_period_ns = 100 * kUs + g() % (400 * kUs);
	} else if (name == "plane_down") {
		// side A's port of one plane goes down, later up: A's engine
		// is told (local), B learns it from A's port status (remote)
		sc.fault_at = fault;
		sc.sock_type = pick(2) ? MRC_CONN_SEQPACKET : MRC_CONN_STREAM;
		sc.plane_down.push_back({pick(sc.planes), Window{fault, fault + 400 * kUs}});
		sc.stall_limit_ns = 2 * sc.params.policy.rto_min_ns;
	} else if (name == "ecn") {
		uint32_t plane = pick(sc.planes);
		for (uint32_t i = 0; i < np; i++)
			if (i / sc.per_plane == plane)
				sc.paths[i].ecn = 0.3;
	} else if (name == "slow_path") {
		// Not run by CTest (issue #14, spurious path failures): five
		// times a path is 3 x rto_min slower than the others for 1 ms
		// (a queue building on one spine), nothing lost. Packets sent
		// later on the other paths arrive first, and the slow path is
		// taken out (reason loss, from the SACK gaps): on 2026-11-29,
		// 4 to 5 paths out per run. The emulated fabric under load
		// does the same to live paths (75-probe-budget). A fix makes
		// every seed pass: no path out.
		sc.bytes_ab = 8 << 20;
		sc.time_limit_ns = 10 * kS;
		sc.expect_no_path_out = true;
		sc.fault_at = fault;
		sc.slow_ns = 3 * sc.params.policy.rto_min_ns;
		for (uint32_t k = 0; k < 5; k++)
			sc.slow.push_back(
			    {pick(np), Window{fault + k * 2 * kMs, fault + k * 2 * kMs + 1 * kMs}});
	} else if (name == "late_path") {
		// As slow_path, but the path is late by 1.5 x rto_min, which
		// a timer of rto_min and one RTO more cover: a late path,
		// not a dead one. No path may go out (mrc_path_suspect()).
		// One way, A to B, as a queue on a spine's port is: late both
		// ways, a packet and its SACK together are 3 x rto_min late.
		// B sends nothing: its own packets' SACKs would come back
		// through that queue, late by more than its RTO, and a
		// timeout that proves nothing still counts once per silence
		// of the peer (connection-engine.md, section 6).
		sc.bytes_ab = 8 << 20;
		sc.bytes_ba = 0;
		sc.slow_from = 0;
		sc.time_limit_ns = 10 * kS;
		sc.expect_no_path_out = true;
		sc.fault_at = fault;
		sc.slow_ns = 3 * sc.params.policy.rto_min_ns / 2;
		for (uint32_t k = 0; k < 5; k++)
			sc.slow.push_back(
			    {pick(np), Window{fault + k * 2 * kMs, fault + k * 2 * kMs + 1 * kMs}});
	} else if (name == "wide" || name == "wide_faults") {
		// Hardware scale (issue #15): 256 EVs, 32 on each of 8
		// planes. Fault-free, no path may go out and A's bulk
		// transfer must cover every path within +-25% of even.
		// wide_faults (not run by CTest: connection-engine.md,
		// "Known limits"): a spine of one plane (8 of its 32 paths)
		// goes silent for good and another plane's port is down for
		// 1 ms; only their paths may go out, and delivery resumes
		// within 2 x rto_min.
		sc.paths.clear();
		base(sc, 8, 32, g);
		np = 256;
		sc.params.policy.max_paths = np;
		sc.sock_type = pick(2) ? MRC_CONN_SEQPACKET : MRC_CONN_STREAM;
		sc.bytes_ab = 64 << 20;
		sc.bytes_ba = 64 << 10;
		sc.rcvbuf = 4 << 20;
		sc.time_limit_ns = 10 * kS;
		if (name == "wide") {
			sc.expect_no_path_out = true;
			sc.balance_pct = 25;
		} else {
			uint32_t plane = pick(8), spine = pick(4);
			uint32_t other = (plane + 1 + pick(7)) % 8;

			sc.fault_at = fault;
			sc.expect_out_only_faulted = true;
			sc.stall_limit_ns = 2 * sc.params.policy.rto_min_ns;
			for (uint32_t i = 0; i < 8; i++)
				sc.blackholes.push_back(
				    {plane * 32 + spine * 8 + i, Window{fault, ~0ULL}});
			sc.plane_down.push_back({other, Window{fault, fault + 1 * kMs}});
		}
	} else if (name == "slow_reader") {
		sc.rcvbuf = 16 * 1024;
		sc.read_period_ns = 50 * kUs + g() % (200 * kUs);
		sc.bytes_ab = 256 * 1024;
		sc.bytes_ba = 64 * 1024;
		sc.sock_type = pick(2) ? MRC_CONN_SEQPACKET : MRC_CONN_STREAM;
		sc.msg_max = 4000;
		for (auto &p : sc.paths)
			p.loss = 0.005;
	} else if (name == "all_dead") {
		// every path dies for good: both sides fail with ETIMEDOUT
		// within the policy's budget
		sc.fault_at = fault;
		sc.expect_timeout = true;
		sc.bytes_ab = 4 << 20;
		sc.bytes_ba = 4 << 20;
		for (uint32_t i = 0; i < np; i++)
			sc.blackholes.push_back({i, Window{fault, ~0ULL}});
	} else if (name == "outage") {
		// every path dies for a while, well within the retry budget:
		// no ETIMEDOUT, everything delivered once the fabric is back
		sc.fault_at = fault;
		uint64_t len = 1 * kMs + g() % (5 * kMs);
		for (uint32_t i = 0; i < np; i++)
			sc.blackholes.push_back({i, Window{fault, fault + len}});
	} else if (name == "one_left") {
		// all paths but one die silently, one after the other: the
		// connection must finish on the survivor, never ETIMEDOUT, and
		// close cleanly. The disconnect may need the whole FIN wait: a
		// side whose connection is gone answers a DREQ statelessly, on
		// the routing table's way back, which can keep hitting a dead
		// path (7 in 8 here); the DREQ's sender then ends without error
		// when the wait expires.
		sc.fault_at = fault;
		sc.time_limit_ns = MRC_CM_FIN_WAIT_NS + 2 * kS;
		uint32_t keep = pick(np);
		for (uint32_t i = 0; i < np; i++)
			if (i != keep)
				sc.blackholes.push_back({i, Window{fault + i * (20 * kUs), ~0ULL}});
	} else if (name == "oneway") {
		// one direction of a path dies silently, the other works: B->A
		// of one path (B's SACKs into the hole: B must find it with its
		// reverse-liveness probes) and A->B of another (A's data: A
		// finds it), B mostly receiving. Everything delivered, nobody
		// times out; delivery resumes within 2 x rto_min as for a
		// blackhole (a lost SACK costs at most the RTO of its packet).
		sc.fault_at = fault;
		sc.stall_limit_ns = 2 * sc.params.policy.rto_min_ns;
		sc.bytes_ba = 16 * 1024;
		uint32_t x = pick(np), y = pick(np);
		sc.oneway[1].push_back({x, Window{fault, ~0ULL}});
		sc.oneway[0].push_back({y, Window{fault, ~0ULL}});
	} else if (name == "oneway_steps") {
		// The apps tests' blackhole (issue #17): a leaf's uplink to a
		// spine drops what its host B sends through that spine, and
		// nothing else. A connection into B whose data arrives sees
		// only its SACKs die, with no path of its own failing. Here 2
		// to 4 of B's 8 paths die towards A (the EVs through the dead
		// link: 1 in 8 in the VM's 4 x 2 fabric, more where a spine
		// carries more of them). Traffic as an allreduce runs it:
		// steps of 1 to 4 packets from A, a compute gap of 10 to 100
		// ms between them, B answering with a packet or nothing; the
		// apps policy (rto_min 10 ms, rto_max 100 ms, probes every 5
		// ms, no backups), no RTT from the handshake (the kernel has
		// none) and a VM's round trip of about 1 ms. A pure receiver
		// then fans out once per 100 ms (its RTO without a sample),
		// so the answer to a retransmission goes on one path: into
		// another dead one, the sender's timer doubles. A's every
		// recovery (TTR: from the timeout that found the tail's SACK
		// missing to the SACK) must take less than rto_min: the
		// answer to its first retransmission must arrive.
		for (auto &p : sc.paths) {
			p.delay_ns = 200 * kUs + g() % (300 * kUs);
			p.jitter_ns = 50 * kUs;
			p.rate_bps = 1000000000ULL;
		}
		mrc_conn_params &c = sc.params;
		mrc_policy_default(&c.policy);
		c.policy.rto_min_ns = 10 * kMs;
		c.policy.rto_max_ns = 100 * kMs;
		c.policy.retry_limit = 60;
		c.policy.fail_to_bad = 2;
		c.policy.backups = 0;
		c.ack_delay_ns = 20 * kUs;
		c.handshake_rtt_ns = 0;
		mrc_cc_params_default(&c.cc, c.max_payload, 1 * kMs, 1000000000ULL * np);
		sc.rounds = 100;
		sc.round_ab = (1 + pick(4)) * 1400;
		sc.round_ba = pick(2) ? 0 : 1400;
		sc.round_gap_ns = 10 * kMs + g() % (90 * kMs);
		sc.time_limit_ns = 60 * kS;
		sc.fault_at = 100 * kMs + g() % (100 * kMs);
		sc.ttr_limit_ns = c.policy.rto_min_ns;
		uint32_t dead = 2 + pick(3), first = pick(np);
		for (uint32_t k = 0; k < dead; k++)
			sc.oneway[1].push_back({(first + k * 3) % np, Window{sc.fault_at, ~0ULL}});
	} else if (name == "chaos") {
		uint32_t shapes[][2] = {{4, 2}, {8, 1}, {2, 4}, {4, 4}, {1, 8}};
		auto &s = shapes[pick(5)];
		sc.paths.clear();
		base(sc, s[0], s[1], g);
		np = s[0] * s[1];
		sc.sock_type = pick(2) ? MRC_CONN_SEQPACKET : MRC_CONN_STREAM;
		for (auto &p : sc.paths) {
			p.loss = 0.002 * pick(5);
			p.reorder = 0.01 * pick(3);
			p.dup = 0.005 * pick(2);
			p.corrupt = 0.005 * pick(2);
			p.ecn = 0.05 * pick(2);
			p.rate_bps = 500000000ULL * (1 + pick(4));
		}
		sc.fault_at = fault;
		sc.blackholes.push_back({pick(np), Window{fault, fault + 2 * kMs}});
		if (np > 2)
			sc.flapping.push_back(pick(np));
		if (pick(2))
			sc.plane_down.push_back({pick(sc.planes), Window{fault, fault + 1 * kMs}});
		sc.params.policy.backups = pick(2);
		if (sc.params.policy.backups >= sc.params.policy.max_paths)
			sc.params.policy.backups = 0;
	} else {
		return false;
	}
	return true;
}

} // namespace mrcsim
