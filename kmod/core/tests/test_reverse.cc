// SPDX-License-Identifier: GPL-2.0
// Reverse-path liveness (issue #17): a receiver's SACKs travel on its own
// paths and nothing comes back for them, so the paths that carry them are
// probed when they hear nothing (mrc_path_reverse_poll()). Two engines,
// eight paths each (4 planes x 2, no backups), a STREAM transfer A->B, and
// faults in one direction only: a path or a plane that loses everything
// one side sends on it while the other direction works.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <vector>

extern "C" {
#include "mrc_conn.h"
}

#include "engine_pair.hpp"

namespace {

constexpr uint64_t kMs = 1000000;

struct OneWay {
	mrc_conn c[2];
	std::vector<uint64_t> st[2];
	uint64_t now = 1 * kMs;
	uint64_t written = 0;
	// drop(s, path): lose what side s sends on its path index @path
	std::function<bool(int, int)> drop = [](int, int) { return false; };
	// path state changes seen, per side
	std::vector<mrc_conn_event> events[2];
	// A's control packets (its SACKs: probe answers) arrive this late,
	// as if queued behind its data (0: at once)
	uint64_t a_ctrl_delay = 0;
	struct Late {
		uint64_t at;
		mrc_pkt pkt;
		uint32_t ev;
	};
	std::vector<Late> late;
	// B's control packets (its SACKs and probes) sent before this time
	// reach A only then, all at once: A is not scheduled to receive
	std::vector<Late> held;
	uint64_t b_ctrl_held_until = 0;

	explicit OneWay()
	{
		static const mrc_path_cand cands[] = {
		    {1, 1, 0}, {2, 1, 0}, {3, 1, 1}, {4, 1, 1},
		    {5, 1, 2}, {6, 1, 2}, {7, 1, 3}, {8, 1, 3},
		};
		for (int s = 0; s < 2; s++) {
			mrc_conn_params p = engine_pair_params(s);
			p.sock_type = MRC_CONN_STREAM;
			p.rcvbuf = 1 << 20;
			p.peer_window = 1 << 20;
			p.policy.backups = 0;
			st[s].assign(mrc_conn_storage_size(&p) / 8 + 1, 0);
			EXPECT_EQ(mrc_conn_init(&c[s], &p, st[s].data(), cands, 8, now), 0);
		}
	}

	const mrc_path &path(int s, uint32_t i) { return c[s].paths.paths[i]; }

	int path_of(int s, uint32_t ev) { return mrc_path_lookup_ev(&c[s].paths, ev); }

	void deliver(int s, const mrc_pkt &in, uint32_t ev)
	{
		mrc_conn_verdict v;

		if (drop(s, path_of(s, ev)))
			return;
		mrc_conn_rx(&c[1 - s], &in, ev, false, now, &v);
	}

	void pump(int s)
	{
		uint8_t buf[4096];
		mrc_tx_desc d;
		mrc_pkt pkt, in;
		uint32_t ev;

		while (mrc_conn_next_tx(&c[s], now, &d)) {
			int h = mrc_conn_build_data_hdr(&c[s], &d, buf, sizeof(buf));
			ASSERT_GT(h, 0);
			std::memset(buf + h, 0, d.len + mrc_pad_len(d.len));
			ASSERT_EQ(mrc_pkt_decode(buf, h + d.len + mrc_pad_len(d.len), &in), 0);
			deliver(s, in, d.ev);
		}
		for (size_t i = 0; s && i < held.size() && now >= b_ctrl_held_until; i++)
			deliver(1, held[i].pkt, held[i].ev);
		if (s && now >= b_ctrl_held_until)
			held.clear();
		while (mrc_conn_next_ctrl(&c[s], now, &pkt, &ev)) {
			int len = mrc_pkt_encode(&pkt, buf, sizeof(buf));
			ASSERT_GT(len, 0);
			ASSERT_EQ(mrc_pkt_decode(buf, len, &in), 0);
			if (s && now < b_ctrl_held_until)
				held.push_back({b_ctrl_held_until, in, ev});
			else if (!s && a_ctrl_delay)
				late.push_back({now + a_ctrl_delay, in, ev});
			else
				deliver(s, in, ev);
		}
		for (size_t i = 0; !s && i < late.size();) {
			if (late[i].at > now) {
				i++;
				continue;
			}
			deliver(0, late[i].pkt, late[i].ev);
			late.erase(late.begin() + i);
		}
	}

	// Run for @ns in 100 us steps (delivery within a step: the fabric
	// RTT is far below the probe interval), A writing @rate bytes a step
	// (B as well when @both), both reading everything.
	void run(uint64_t ns, uint64_t rate = 16384, bool both = false)
	{
		for (uint64_t end = now + ns; now < end;) {
			for (int s = 0; s < (both ? 2 : 1); s++)
				if (rate && mrc_conn_app_write(&c[s], rate, false) == 0 && !s)
					written += rate;
			for (int s = 0; s < 2; s++) {
				mrc_conn_app_read(&c[s], mrc_conn_app_readable(&c[s]));
				pump(s);
			}
			now += 100000;
			for (int s = 0; s < 2; s++) {
				mrc_conn_on_timer(&c[s], now);
				mrc_conn_event ev;
				while (mrc_conn_pop_event(&c[s], &ev))
					if (ev.type == MRC_CEV_PATH)
						events[s].push_back(ev);
			}
		}
	}

	uint32_t transitions(int s, uint32_t idx)
	{
		uint32_t n = 0;

		for (auto &e : events[s])
			if (e.index == idx && e.old_state != e.new_state)
				n++;
		return n;
	}
};

// Time for a receiver to find a dead reverse path, from the policy: it
// waits MRC_PATH_REV_MULT probe intervals of silence, then fail_to_bad
// probes go unanswered, one probe interval each (plus a poll interval
// of slack).
uint64_t detect_bound(const mrc_policy &pol)
{
	return (MRC_PATH_REV_MULT + pol.fail_to_bad + 1) * pol.probe_interval_ns;
}

} // namespace

// B->A of one of B's paths loses everything (B's SACKs into the hole).
// B takes that path out (probe-fail) within the bound, no other path of
// B, and the SACKs move on; the transfer goes on and every byte written
// is read. Once healed, the ordinary probes bring it back, with one
// transition each way. Fails if nothing refreshes a receiver's view of
// its paths (the path stays GOOD for ever).
TEST(ReversePath, ReceiverFindsItsDeadReversePathAndGetsItBack)
{
	OneWay w;
	const uint32_t dead = 5;
	const mrc_policy &pol = w.c[1].paths.pol;

	w.run(50 * kMs);
	ASSERT_EQ(w.path(1, dead).state, MRC_PATH_GOOD);
	w.events[1].clear();
	w.drop = [&](int s, int p) { return s == 1 && p == (int)dead; };
	uint64_t t0 = w.now;
	while (w.path(1, dead).state == MRC_PATH_GOOD && w.now < t0 + 1000 * kMs)
		w.run(kMs);
	EXPECT_EQ(w.path(1, dead).state, MRC_PATH_ASSUMED_BAD);
	EXPECT_EQ(w.path(1, dead).reason, MRC_PR_PROBE_FAIL);
	EXPECT_LE(w.now - t0, detect_bound(pol));
	w.run(100 * kMs);
	for (uint32_t i = 0; i < w.c[1].paths.count; i++) {
		if (i == dead)
			continue;
		EXPECT_EQ(w.path(1, i).state, MRC_PATH_GOOD) << "B path " << i;
	}
	EXPECT_EQ(w.path(1, dead).state, MRC_PATH_ASSUMED_BAD);
	EXPECT_EQ(w.transitions(1, dead), 1u);
	// A's forward paths are not blamed for B's dead SACK path
	for (uint32_t i = 0; i < w.c[0].paths.count; i++)
		EXPECT_EQ(w.path(0, i).state, MRC_PATH_GOOD) << "A path " << i;
	EXPECT_GT(w.c[1].paths.rev_probes, 0u);

	// healed: back within the backed-off probe interval and the
	// hysteresis (success_to_good answers, one per interval)
	w.drop = [](int, int) { return false; };
	uint64_t t1 = w.now;
	while (w.path(1, dead).state != MRC_PATH_GOOD && w.now < t1 + 1000 * kMs)
		w.run(kMs);
	EXPECT_EQ(w.path(1, dead).state, MRC_PATH_GOOD);
	EXPECT_LE(w.now - t1, ((1u << MRC_PATH_PROBE_BACKOFF_MAX) + pol.success_to_good + 1) *
				  pol.probe_interval_ns);
	EXPECT_EQ(w.transitions(1, dead), 2u);
	// everything written arrives
	w.run(100 * kMs, 0);
	EXPECT_EQ(w.c[1].rcv_read, w.written);
	EXPECT_EQ(w.c[0].err, 0);
	EXPECT_EQ(w.c[1].err, 0);
}

// A receiver whose SACKs arrive probes each path at most once per
// MRC_PATH_REV_MULT probe intervals plus one probe round trip, and
// changes no state; a pure sender sends no reverse probe at all (it
// sends no SACKs). Fails if answered probes do not count as heard, or if
// probe answers themselves set off probes (they would ping-pong).
TEST(ReversePath, HealthyReceiverProbesWithinTheBound)
{
	OneWay w;
	const mrc_policy &pol = w.c[1].paths.pol;
	const uint64_t span = 500 * kMs;

	w.run(span);
	const uint32_t paths = w.c[1].paths.count;
	const uint64_t bound = paths * (span / (MRC_PATH_REV_MULT * pol.probe_interval_ns) + 1);
	EXPECT_GT(w.c[1].paths.rev_probes, 0u);
	EXPECT_LE(w.c[1].paths.rev_probes, bound);
	EXPECT_EQ(w.c[0].paths.rev_probes, 0u);
	EXPECT_TRUE(w.events[1].empty());
	EXPECT_TRUE(w.events[0].empty());
	// idle: the probes stop (one more per path at most, for the last SACK)
	w.run(20 * kMs, 0);
	uint64_t idle0 = w.c[1].paths.rev_probes;
	w.run(500 * kMs, 0);
	EXPECT_LE(w.c[1].paths.rev_probes, idle0 + paths);
	uint64_t idle1 = w.c[1].paths.rev_probes;
	w.run(500 * kMs, 0);
	EXPECT_EQ(w.c[1].paths.rev_probes, idle1) << "an idle connection sends nothing";
}

// Data both ways: every path that carries SACKs also carries data whose
// SACKs come back, so no reverse probe is needed while both send. Fails
// if SACKs of our own data do not refresh a path.
TEST(ReversePath, BidirectionalCostsNothingExtra)
{
	OneWay w;

	w.run(300 * kMs, 16384, true);
	EXPECT_LE(w.c[0].paths.rev_probes, w.c[0].paths.count);
	EXPECT_LE(w.c[1].paths.rev_probes, w.c[1].paths.count);
	EXPECT_TRUE(w.events[1].empty());
	EXPECT_TRUE(w.events[0].empty());
}

// A->B of plane 2 loses everything (a dead forward direction). A takes
// its plane-2 paths out; B's paths of plane 2, which carry its SACKs to A
// fine, stay GOOD: B's probes along them reach A, whose answers come back
// on A's working planes. Fails if B blames its reverse paths for a dead
// forward plane.
TEST(ReversePath, DeadForwardDirectionIsNotBlamedOnReversePaths)
{
	OneWay w;
	const uint32_t plane = 2;

	w.run(50 * kMs);
	w.drop = [&](int s, int p) { return s == 0 && p >= 0 && w.path(0, p).plane == plane; };
	w.run(300 * kMs);
	for (uint32_t i = 0; i < w.c[0].paths.count; i++)
		EXPECT_EQ(w.path(0, i).state,
			  w.path(0, i).plane == plane ? MRC_PATH_ASSUMED_BAD : MRC_PATH_GOOD)
		    << "A path " << i;
	for (uint32_t i = 0; i < w.c[1].paths.count; i++)
		EXPECT_EQ(w.path(1, i).state, MRC_PATH_GOOD) << "B path " << i;
	EXPECT_TRUE(w.events[1].empty());
	EXPECT_GT(w.c[1].paths.rev_probes, 0u);
	w.drop = [](int, int) { return false; };
	w.run(200 * kMs, 0);
	EXPECT_EQ(w.c[1].rcv_read, w.written);
}

// Both at once, on different planes: B->A of plane 1 and A->B of plane 3.
// Each side takes out exactly the paths whose own direction is dead, at
// most one transition per path while the faults last.
TEST(ReversePath, OneWayFaultsOnEachSide)
{
	OneWay w;

	w.run(50 * kMs);
	w.drop = [&](int s, int p) { return p >= 0 && w.path(s, p).plane == (s ? 1u : 3u); };
	w.run(300 * kMs);
	for (int s = 0; s < 2; s++)
		for (uint32_t i = 0; i < w.c[s].paths.count; i++) {
			bool dead = w.path(s, i).plane == (s ? 1u : 3u);
			EXPECT_EQ(w.path(s, i).state, dead ? MRC_PATH_ASSUMED_BAD : MRC_PATH_GOOD)
			    << "side " << s << " path " << i;
			EXPECT_LE(w.transitions(s, i), 1u) << "side " << s << " path " << i;
		}
	w.drop = [](int, int) { return false; };
	w.run(200 * kMs, 0);
	EXPECT_EQ(w.c[1].rcv_read, w.written);
	EXPECT_EQ(w.c[0].err, 0);
	EXPECT_EQ(w.c[1].err, 0);
}

// A loaded sender: its answers to the receiver's probes wait behind its
// data, 12 ms here (over two probe intervals). The receiver's probes
// learn that RTT (the first deadline, before any sample, is the silence
// wait): no path of the receiver is failed, while a really dead one
// still is. Fails if the deadline is the bare probe interval (every path
// of the receiver would go ASSUMED_BAD, as on the VM before).
TEST(ReversePath, SlowAnswersAreNotFailures)
{
	OneWay w;
	const uint32_t dead = 2;

	w.a_ctrl_delay = 12 * kMs;
	w.run(300 * kMs);
	EXPECT_TRUE(w.events[1].empty());
	for (uint32_t i = 0; i < w.c[1].paths.count; i++) {
		EXPECT_EQ(w.path(1, i).state, MRC_PATH_GOOD) << "B path " << i;
		EXPECT_GE(w.path(1, i).srtt_us, 6000u) << "B path " << i;
	}
	w.drop = [&](int s, int p) { return s == 1 && p == (int)dead; };
	w.run(300 * kMs);
	for (uint32_t i = 0; i < w.c[1].paths.count; i++)
		EXPECT_EQ(w.path(1, i).state, i == dead ? MRC_PATH_ASSUMED_BAD : MRC_PATH_GOOD)
		    << "B path " << i;
	w.drop = [](int, int) { return false; };
	w.a_ctrl_delay = 0;
	w.run(200 * kMs, 0);
	EXPECT_EQ(w.c[1].rcv_read, w.written);
}

// A busy host: the sender A is not scheduled to receive for 30 ms, five
// times, while what it sent before keeps arriving. B's probes and SACKs
// wait for A: B's probe of a path goes unanswered past its deadline
// while answers to earlier probes still come in, and A's packets time
// out on every path with nothing later acknowledged. Neither is proof
// that a path is dead, and no path of either side may change state; a
// dead path is still found afterwards. Fails if a late answer counts as
// lost because the peer answered something sent earlier, or if timeouts
// without proof take paths out.
TEST(ReversePath, StalledPeerBlamesNoPath)
{
	OneWay w;
	const uint32_t dead = 5;

	w.run(200 * kMs);
	ASSERT_TRUE(w.events[0].empty());
	ASSERT_TRUE(w.events[1].empty());
	for (int k = 0; k < 5; k++) {
		w.b_ctrl_held_until = w.now + 30 * kMs;
		w.run(100 * kMs);
	}
	EXPECT_GT(w.c[0].tx.lost_by_cause[MRC_LOSS_RTO], 0u) << "the stalls made A's timers expire";
	for (int s = 0; s < 2; s++)
		for (auto &e : w.events[s])
			ADD_FAILURE()
			    << "side " << s << " path " << e.index << " " << (int)e.old_state
			    << " -> " << (int)e.new_state << " reason " << (int)e.reason;
	w.drop = [&](int s, int p) { return s == 1 && p == (int)dead; };
	w.run(300 * kMs);
	EXPECT_EQ(w.path(1, dead).state, MRC_PATH_ASSUMED_BAD);
	w.drop = [](int, int) { return false; };
	w.run(200 * kMs, 0);
	EXPECT_EQ(w.c[1].rcv_read, w.written);
}

// Issue #17, the apps tests' blackhole: B only receives, in small steps
// with silence between them, and the path that carried B's SACK for the
// tail of a step is dead towards A. A's timer resends the tail; the
// duplicate proves B's SACK lost, so its path becomes reverse-suspect
// (no more SACKs on it, its probe due now) and the answer goes on the
// path B heard from last, fanned out: A's recovery takes one round trip
// after its timer, not another (backed-off) timer per answer lost. The
// later steps' SACKs avoid the dead path: one timeout in all. Fails if
// B keeps spraying its SACKs over the dead path (a timeout of A for
// every step whose last SACK takes it).
TEST(ReversePath, LostTailSackCostsOneTimeoutAndItsPathIsAvoided)
{
	OneWay w;
	bool lose_all = false;
	int dead = -1;

	w.run(50 * kMs);
	w.run(300 * kMs, 0);
	ASSERT_TRUE(mrc_conn_all_acked(&w.c[0]));
	int lost_on = -1;
	w.drop = [&](int s, int p) {
		if (s == 1 && lose_all)
			lost_on = p;
		return s == 1 && (lose_all || p == dead);
	};
	uint64_t timeouts = w.c[0].st.timeouts;
	for (int step = 0; step < 30; step++) {
		ASSERT_EQ(mrc_conn_app_write(&w.c[0], 1000, false), 0);
		lose_all = step == 0;
		w.run(100000, 0);
		if (step == 0) {
			// the SACK of the tail went out on one path, and died
			ASSERT_GE(lost_on, 0);
			dead = lost_on;
			lose_all = false;
			EXPECT_FALSE(mrc_conn_all_acked(&w.c[0]));
		}
		uint64_t t0 = w.now;
		while (!mrc_conn_all_acked(&w.c[0]) && w.now < t0 + 1000 * kMs)
			w.run(100000, 0);
		ASSERT_TRUE(mrc_conn_all_acked(&w.c[0])) << "step " << step;
		if (step == 0) {
			// A's timer, then one round trip (a 100 us step here)
			EXPECT_LE(w.now - t0, mrc_rtt_rto(&w.c[0].rtt) + kMs);
			EXPECT_EQ(w.c[1].paths.rev_suspects, 1u);
			EXPECT_TRUE(w.path(1, dead).flags & MRC_PATHF_REV_SUSPECT ||
				    w.path(1, dead).state == MRC_PATH_ASSUMED_BAD);
		}
		w.run(10 * kMs, 0);
	}
	EXPECT_EQ(w.c[0].st.timeouts - timeouts, 1u) << "one lost SACK, one timeout";
	EXPECT_EQ(w.path(1, dead).state, MRC_PATH_ASSUMED_BAD);
	EXPECT_EQ(w.path(1, dead).reason, MRC_PR_PROBE_FAIL);
	for (uint32_t i = 0; i < w.c[1].paths.count; i++) {
		if ((int)i != dead) {
			EXPECT_EQ(w.path(1, i).state, MRC_PATH_GOOD) << "B path " << i;
		}
	}
	for (uint32_t i = 0; i < w.c[0].paths.count; i++)
		EXPECT_EQ(w.path(0, i).state, MRC_PATH_GOOD) << "A path " << i;
}

// A slow receiver: its SACKs wait in its own queues while the sender's
// timer fires, and every PSN the sender resends proves one of them
// "lost" (mrc_conn_sacks_missed()). Each such proof used to fan the
// answer out over the receiver's paths at once, bypassing the one fan
// per RTO: every second copy of a backlog of retransmissions cost a fan
// (8 SACKs), multiplying the slow host's own load. Now a run of them
// backs off from rto_min, doubling: 100 copies 1 ms apart cost
// log2(100 ms / rto_min) + 1 fans, not 50. Fails if proven losses fan
// out without a bound (50 fans here).
TEST(ReversePath, BacklogOfRetransmissionsFansOutAFewTimes)
{
	OneWay w;
	mrc_conn &a = w.c[0], &b = w.c[1];

	w.run(20 * kMs);
	w.run(100 * kMs, 0);
	ASSERT_TRUE(mrc_conn_all_acked(&a));
	// one data packet of A, as B gets it
	ASSERT_EQ(mrc_conn_app_write(&a, 1000, false), 0);
	uint8_t buf[4096];
	mrc_tx_desc d;
	mrc_pkt data, pkt;
	uint32_t ev;
	ASSERT_TRUE(mrc_conn_next_tx(&a, w.now, &d));
	int h = mrc_conn_build_data_hdr(&a, &d, buf, sizeof(buf));
	ASSERT_GT(h, 0);
	std::memset(buf + h, 0, d.len + mrc_pad_len(d.len));
	ASSERT_EQ(mrc_pkt_decode(buf, h + d.len + mrc_pad_len(d.len), &data), 0);
	// B has no RTT sample (a pure receiver): its RTO, and so its quiet
	// between fans, is the initial one
	mrc_rtt_init(&b.rtt, b.paths.pol.rto_min_ns, b.paths.pol.rto_max_ns);
	ASSERT_GE(mrc_rtt_rto(&b.rtt), 100 * kMs);

	uint32_t fans = 0, copies = 100;
	for (uint32_t k = 0; k < copies; k++) {
		mrc_conn_verdict v;
		// none of B's SACKs reaches A: A resends the packet every 1 ms
		w.now += kMs;
		data.bth.rtx = k > 0;
		mrc_conn_rx(&b, &data, d.ev, false, w.now, &v);
		mrc_conn_on_timer(&b, w.now);
		uint32_t sacks = 0;
		while (mrc_conn_next_ctrl(&b, w.now, &pkt, &ev))
			if (pkt.type == MRC_PKT_SACK)
				sacks++;
		if (sacks > 1)
			fans++;
	}
	EXPECT_GE(fans, 1u) << "a SACK proven lost still fans out";
	EXPECT_LE(fans, 8u) << copies << " copies 1 ms apart";
}
