// SPDX-License-Identifier: GPL-2.0
// Unit tests of packets the local stack refuses (issue #14): a transmit
// error is not a packet in flight. The engine hears of it in the same
// push (mrc_conn_tx_failed(), mrc_conn_ctrl_failed()), resends the data
// on another path at once, takes the path out (reason TX_REFUSED) and
// never spins when every path refuses. Bursts (mrc_conn_next_tx_burst()):
// a run of full packets on one path, refused and resent as a whole.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <vector>

extern "C" {
#include "mrc_conn.h"
#include "mrc_path.h"
}

#include "engine_pair.hpp"

namespace {

// Two engines over 6 paths on 2 planes, a full EV set (max_paths 6): with
// the default backups 2, one GOOD and two BACKUP per plane; with @backups
// 0, three GOOD.
struct Pair {
	mrc_conn c[2];
	std::vector<uint64_t> st[2];
	uint64_t now = 1000;
	uint8_t buf[4096];

	// @cwnd: a window of that many bytes from the start (0: the default)
	explicit Pair(uint32_t backups = 2, uint64_t cwnd = 0)
	{
		static const mrc_path_cand cands[] = {
		    {1, 1, 0}, {2, 1, 0}, {3, 1, 0}, {4, 1, 1}, {5, 1, 1}, {6, 1, 1},
		};
		for (int s = 0; s < 2; s++) {
			mrc_conn_params p = engine_pair_params(s);
			p.ack_delay_ns = 0;
			p.policy.backups = backups;
			p.policy.max_paths = 6;
			p.policy.min_active = 2;
			if (cwnd) {
				p.cc.init_cwnd = cwnd;
				p.cc.max_cwnd = std::max<uint64_t>(p.cc.max_cwnd, cwnd);
			}
			st[s].assign(mrc_conn_storage_size(&p) / 8 + 1, 0);
			EXPECT_EQ(mrc_conn_init(&c[s], &p, st[s].data(), cands, 6, 0), 0);
		}
	}

	// Deliver data packet @d of side s to the other side.
	void deliver(int s, const mrc_tx_desc &d)
	{
		mrc_pkt in;
		mrc_conn_verdict v;
		int h = mrc_conn_build_data_hdr(&c[s], &d, buf, sizeof(buf));
		ASSERT_GT(h, 0);
		std::memset(buf + h, 0, d.len + mrc_pad_len(d.len));
		ASSERT_EQ(mrc_pkt_decode(buf, h + d.len + mrc_pad_len(d.len), &in), 0);
		EXPECT_EQ(mrc_conn_rx(&c[1 - s], &in, d.ev, false, now, &v), 0);
	}

	// Move every control packet of side s to the other side.
	void ctrl(int s)
	{
		mrc_pkt pkt, in;
		mrc_conn_verdict v;
		uint32_t ev;

		while (mrc_conn_next_ctrl(&c[s], now, &pkt, &ev)) {
			int len = mrc_pkt_encode(&pkt, buf, sizeof(buf));
			ASSERT_GT(len, 0);
			ASSERT_EQ(mrc_pkt_decode(buf, len, &in), 0);
			mrc_conn_rx(&c[1 - s], &in, ev, false, now, &v);
		}
	}

	// Exchange everything until quiet, every packet delivered.
	void settle()
	{
		mrc_tx_desc d;

		for (int i = 0; i < 500; i++) {
			now += 10000;
			int n = 0;
			for (int s = 0; s < 2; s++) {
				mrc_conn_on_timer(&c[s], now);
				while (mrc_conn_next_tx(&c[s], now, &d)) {
					deliver(s, d);
					n++;
				}
				ctrl(s);
				mrc_conn_app_read(&c[s], mrc_conn_app_readable(&c[s]));
			}
			if (!n && mrc_conn_all_acked(&c[0]))
				break;
		}
	}

	const mrc_path *path(int s, uint32_t idx) { return mrc_conn_path(&c[s], idx); }
};

// The device or route refuses a data packet: it is resent on another path
// by the very next call (same instant: no timer), in-flight accounting,
// RTO and window are as if it had never been sent, and its path is out
// with reason TX_REFUSED.
TEST(TxErr, RefusedPacketResentAtOnceOnAnotherPath)
{
	Pair pr;
	mrc_tx_desc d, r;

	ASSERT_EQ(mrc_conn_app_write(&pr.c[0], 5000, false), 0);
	const uint64_t cwnd = mrc_cc_cwnd(&pr.c[0].cc);
	const uint64_t rto = mrc_rtt_rto(&pr.c[0].rtt);
	const uint64_t srtt = pr.c[0].rtt.srtt_ns;
	ASSERT_EQ(mrc_conn_next_tx(&pr.c[0], pr.now, &d), 1);
	ASSERT_EQ(pr.c[0].tx.inflight_pkts, 1u);
	ASSERT_EQ(pr.c[0].st.tx_pkts, 1u);

	EXPECT_EQ(mrc_conn_tx_failed(&pr.c[0], d.psn, d.ev, MRC_TXERR_REFUSED, pr.now), 1);
	EXPECT_EQ(pr.c[0].tx.inflight_pkts, 0u) << "a refused packet is not in flight";
	EXPECT_EQ(pr.c[0].tx.inflight_bytes, 0u);
	EXPECT_EQ(pr.c[0].st.tx_pkts, 0u) << "it never left";
	EXPECT_EQ(mrc_cc_cwnd(&pr.c[0].cc), cwnd) << "a local refusal is not congestion";
	EXPECT_EQ(mrc_rtt_rto(&pr.c[0].rtt), rto);
	EXPECT_EQ(pr.c[0].rtt.srtt_ns, srtt);
	EXPECT_EQ(pr.path(0, d.path)->state, MRC_PATH_ASSUMED_BAD);
	EXPECT_EQ(pr.path(0, d.path)->reason, MRC_PR_TX_REFUSED);
	EXPECT_EQ(pr.c[0].paths.tx_refused, 1u);

	// the same instant: the resend comes first, on another path
	ASSERT_EQ(mrc_conn_next_tx(&pr.c[0], pr.now, &r), 1);
	EXPECT_EQ(r.psn, d.psn);
	EXPECT_TRUE(r.rtx);
	EXPECT_NE(r.path, d.path);
	EXPECT_EQ(pr.c[0].tx.inflight_pkts, 1u);
	mrc_conn_totals tot;
	mrc_conn_get_totals(&pr.c[0], &tot);
	EXPECT_EQ(tot.rtx_by_cause[MRC_LOSS_RTO], 0u);
	EXPECT_EQ(tot.rtx_by_cause[MRC_LOSS_LINK], 1u);
	// an event says why the path went out
	mrc_conn_event ev;
	bool seen = false;
	while (mrc_conn_pop_event(&pr.c[0], &ev))
		seen |= ev.type == MRC_CEV_PATH && ev.index == d.path &&
			ev.new_state == MRC_PATH_ASSUMED_BAD && ev.reason == MRC_PR_TX_REFUSED;
	EXPECT_TRUE(seen);

	// everything arrives, without a single timeout
	pr.deliver(0, r);
	pr.settle();
	EXPECT_TRUE(mrc_conn_all_acked(&pr.c[0]));
	EXPECT_EQ(pr.c[1].rcv_read, 5000u);
	EXPECT_EQ(pr.c[0].st.timeouts, 0u);
	EXPECT_EQ(pr.c[0].err, 0);
}

// A drop on the way out (NET_XMIT_DROP) is what a full queue gives: the
// push ends and the packet is resent after a pause of about an RTT, and
// the path stays in use until it has dropped MRC_PATH_DROP_RUN packets in
// a row, none of its packets leaving in between (a filter drops
// everything). NET_XMIT_CN is no loss.
TEST(TxErr, DropRunTakesPathOutCongestionIsNoLoss)
{
	Pair pr(0);
	mrc_tx_desc d, r;

	ASSERT_EQ(mrc_conn_app_write(&pr.c[0], 500000, false), 0);
	ASSERT_EQ(mrc_conn_next_tx(&pr.c[0], pr.now, &d), 1);
	const uint32_t p = d.path;

	EXPECT_EQ(mrc_conn_tx_failed(&pr.c[0], d.psn, d.ev, MRC_TXERR_CONGESTED, pr.now), 0);
	EXPECT_EQ(pr.c[0].tx.inflight_pkts, 1u) << "NET_XMIT_CN: it may have been queued";
	EXPECT_EQ(pr.path(0, p)->state, MRC_PATH_GOOD);

	EXPECT_EQ(mrc_conn_tx_failed(&pr.c[0], d.psn, d.ev, MRC_TXERR_DROPPED, pr.now), 1);
	EXPECT_EQ(pr.c[0].tx.inflight_pkts, 0u);
	EXPECT_EQ(pr.path(0, p)->state, MRC_PATH_GOOD) << "one drop is not proof";
	// a full queue ends the push, as TCP's does: nothing more for about an RTT
	EXPECT_EQ(mrc_conn_next_tx(&pr.c[0], pr.now, &r), 0);
	const uint64_t resume = mrc_conn_next_deadline(&pr.c[0]);
	EXPECT_GT(resume, pr.now);
	EXPECT_LE(resume, pr.now + mrc_rtt_rto(&pr.c[0].rtt));
	EXPECT_EQ(pr.c[0].st.timeouts, 0u) << "a pause is no timeout";
	pr.now = resume;
	ASSERT_EQ(mrc_conn_next_tx(&pr.c[0], pr.now, &r), 1);
	EXPECT_EQ(r.psn, d.psn);
	EXPECT_NE(r.path, p);
	// a refusal reported twice, or for another path, changes nothing
	EXPECT_EQ(mrc_conn_tx_failed(&pr.c[0], d.psn, d.ev, MRC_TXERR_DROPPED, pr.now), 0);
	EXPECT_EQ(mrc_conn_tx_failed(&pr.c[0], d.psn ^ 0x800000, d.ev, MRC_TXERR_DROPPED, pr.now),
		  -EINVAL);
	EXPECT_EQ(pr.c[0].tx.inflight_pkts, 1u);
	pr.deliver(0, r);

	// drop_on_p(): the next packet the scheduler puts on p is dropped
	auto drop_on_p = [&]() {
		pr.now = std::max<uint64_t>(pr.now, mrc_conn_next_deadline(&pr.c[0]));
		for (int i = 0; i < 40; i++) {
			ASSERT_EQ(mrc_conn_next_tx(&pr.c[0], pr.now, &d), 1);
			if (d.path == p)
				break;
			pr.deliver(0, d);
		}
		ASSERT_EQ(d.path, p);
		EXPECT_EQ(mrc_conn_tx_failed(&pr.c[0], d.psn, d.ev, MRC_TXERR_DROPPED, pr.now), 1);
		pr.ctrl(1); // the other paths' SACKs: the peer is heard, no hold
	};
	for (int i = 1; i < MRC_PATH_DROP_RUN - 1; i++)
		drop_on_p();
	EXPECT_EQ(pr.path(0, p)->state, MRC_PATH_GOOD)
	    << MRC_PATH_DROP_RUN - 1 << " drops in a row";
	// one of p's packets gets through and is acknowledged: the run starts over
	pr.now = std::max<uint64_t>(pr.now, mrc_conn_next_deadline(&pr.c[0]));
	for (int i = 0; i < 40; i++) {
		ASSERT_EQ(mrc_conn_next_tx(&pr.c[0], pr.now, &d), 1);
		pr.deliver(0, d);
		if (d.path == p)
			break;
	}
	ASSERT_EQ(d.path, p);
	pr.ctrl(1);
	EXPECT_EQ(pr.path(0, p)->drop_run, 0u);
	for (int i = 0; i < MRC_PATH_DROP_RUN - 1; i++)
		drop_on_p();
	EXPECT_EQ(pr.path(0, p)->state, MRC_PATH_GOOD);
	drop_on_p();
	EXPECT_EQ(pr.path(0, p)->state, MRC_PATH_ASSUMED_BAD) << MRC_PATH_DROP_RUN << " in a row";
	EXPECT_EQ(pr.path(0, p)->reason, MRC_PR_TX_REFUSED);
	EXPECT_EQ(mrc_cc_cwnd(&pr.c[0].cc), mrc_cc_cwnd(&pr.c[1].cc));
}

// A host whose queues overflow (74-idle-quiet: 1000 connections on a
// loaded VM) drops packets on every path alike: a third of all packets,
// probes included, are dropped on the way out for a whole transfer. No
// path goes out and no probe fails (each was blamed before, and every
// path of the connection went out), and every byte is delivered without
// a timeout.
TEST(TxErr, QueueOverflowOnEveryPathBlamesNone)
{
	Pair pr; // the default policy's backups: probes run
	mrc_tx_desc d;
	mrc_pkt pkt;
	uint32_t ev, rng = 12345;
	uint64_t dropped = 0;
	auto drop = [&]() {
		rng = rng * 1103515245u + 12345u;
		return (rng >> 16) % 3 == 0;
	};

	ASSERT_EQ(mrc_conn_app_write(&pr.c[0], 400000, false), 0);
	for (int i = 0; i < 4000 && !mrc_conn_all_acked(&pr.c[0]); i++) {
		pr.now += 10000;
		mrc_conn_on_timer(&pr.c[0], pr.now);
		mrc_conn_on_timer(&pr.c[1], pr.now);
		while (mrc_conn_next_tx(&pr.c[0], pr.now, &d)) {
			if (drop()) {
				dropped++;
				mrc_conn_tx_failed(&pr.c[0], d.psn, d.ev, MRC_TXERR_DROPPED,
						   pr.now);
				continue;
			}
			pr.deliver(0, d);
		}
		int r;
		while ((r = mrc_conn_next_ctrl(&pr.c[0], pr.now, &pkt, &ev))) {
			if (drop()) {
				dropped++;
				mrc_conn_ctrl_failed(&pr.c[0], &pkt, ev, r == 2, MRC_TXERR_DROPPED,
						     pr.now);
				continue;
			}
			mrc_pkt in;
			mrc_conn_verdict v;
			int len = mrc_pkt_encode(&pkt, pr.buf, sizeof(pr.buf));
			ASSERT_GT(len, 0);
			ASSERT_EQ(mrc_pkt_decode(pr.buf, len, &in), 0);
			mrc_conn_rx(&pr.c[1], &in, ev, false, pr.now, &v);
		}
		pr.ctrl(1);
		mrc_conn_app_read(&pr.c[1], mrc_conn_app_readable(&pr.c[1]));
	}
	EXPECT_GT(dropped, 50u);
	EXPECT_TRUE(mrc_conn_all_acked(&pr.c[0]));
	EXPECT_EQ(pr.c[1].rcv_read, 400000u);
	EXPECT_EQ(pr.c[0].err, 0);
	EXPECT_EQ(pr.c[0].tx.lost_by_cause[MRC_LOSS_RTO], 0u) << "no packet waited for its RTO";
	uint32_t probes_failed = 0;
	for (uint32_t i = 0; i < pr.c[0].paths.count; i++) {
		const mrc_path *p = pr.path(0, i);
		probes_failed += p->stats.probes_failed;
		EXPECT_NE(p->state, MRC_PATH_ASSUMED_BAD)
		    << "path " << i << " blamed for congestion";
	}
	EXPECT_EQ(probes_failed, 0u);
	EXPECT_EQ(pr.c[0].paths.tx_refused, 0u);
}

// Every path refuses (the host lost its routes): each call returns at
// most a bounded number of packets before the connection holds for an
// RTO (no busy loop), the holds count against the retry budget, and the
// connection ends with ETIMEDOUT within the policy's budget.
TEST(TxErr, AllPathsRefuseDoesNotSpin)
{
	Pair pr;
	mrc_tx_desc d;
	mrc_pkt pkt;
	uint32_t ev;
	int pushes = 0, max_per_push = 0;

	ASSERT_EQ(mrc_conn_app_write(&pr.c[0], 50000, false), 0);
	const uint32_t bound = pr.c[0].paths.count * pr.c[0].p.policy.fail_to_bad;
	for (; pushes < 100000 && !pr.c[0].err; pushes++) {
		int n = 0;
		while (n < 100000 && mrc_conn_next_tx(&pr.c[0], pr.now, &d)) {
			n++;
			mrc_conn_tx_failed(&pr.c[0], d.psn, d.ev, MRC_TXERR_REFUSED, pr.now);
		}
		int r;
		while (n < 100000 && (r = mrc_conn_next_ctrl(&pr.c[0], pr.now, &pkt, &ev))) {
			n++;
			mrc_conn_ctrl_failed(&pr.c[0], &pkt, ev, r == 2, MRC_TXERR_REFUSED, pr.now);
		}
		max_per_push = std::max(max_per_push, n);
		ASSERT_LE(n, (int)bound + 8) << "push " << pushes << " spun";
		EXPECT_EQ(pr.c[0].tx.inflight_pkts, 0u);
		uint64_t t = mrc_conn_next_deadline(&pr.c[0]);
		if (pr.c[0].err)
			break;
		ASSERT_GT(t, pr.now) << "a timer due at once is a busy loop";
		pr.now = t;
		mrc_conn_on_timer(&pr.c[0], pr.now);
	}
	EXPECT_EQ(pr.c[0].err, -ETIMEDOUT);
	uint64_t budget = mrc_policy_timeout_budget(&pr.c[0].p.policy);
	EXPECT_LE(pr.now, 1000 + budget + pr.c[0].p.policy.rto_max_ns);
	EXPECT_GE(pr.now, 1000 + pr.c[0].p.policy.rto_min_ns);
	EXPECT_LE(pushes, 200) << "one push per hold or probe, not a loop";
	printf("all refuse: %d pushes, at most %d packets each, ETIMEDOUT after %.1f ms\n", pushes,
	       max_per_push, (pr.now - 1000) / 1e6);
	EXPECT_EQ(pr.c[0].tx.lost_by_cause[MRC_LOSS_RTO], 0u);
}

// Some paths refuse, others work: no hold, everything delivered, no
// timeout; the refusing paths are out by TX_REFUSED and only them.
TEST(TxErr, OnePlaneRefusesTransferGoesOn)
{
	Pair pr(0); // no backups: 3 GOOD paths per plane
	mrc_tx_desc d;

	ASSERT_EQ(mrc_conn_app_write(&pr.c[0], 300000, false), 0);
	for (int i = 0; i < 2000 && !mrc_conn_all_acked(&pr.c[0]); i++) {
		pr.now += 10000;
		mrc_conn_on_timer(&pr.c[0], pr.now);
		mrc_conn_on_timer(&pr.c[1], pr.now);
		while (mrc_conn_next_tx(&pr.c[0], pr.now, &d)) {
			if (pr.path(0, d.path)->plane == 1) {
				// a filter drops everything: the run takes it out
				EXPECT_EQ(mrc_conn_tx_failed(&pr.c[0], d.psn, d.ev,
							     MRC_TXERR_DROPPED, pr.now),
					  1);
				continue;
			}
			pr.deliver(0, d);
		}
		pr.ctrl(0);
		pr.ctrl(1);
		mrc_conn_app_read(&pr.c[1], mrc_conn_app_readable(&pr.c[1]));
		pr.ctrl(1);
	}
	EXPECT_TRUE(mrc_conn_all_acked(&pr.c[0]));
	EXPECT_EQ(pr.c[1].rcv_read, 300000u);
	EXPECT_EQ(pr.c[0].st.timeouts, 0u) << "no RTO, no hold";
	EXPECT_EQ(pr.c[0].tx.lost_by_cause[MRC_LOSS_RTO], 0u);
	for (uint32_t i = 0; i < pr.c[0].paths.count; i++) {
		const mrc_path *p = pr.path(0, i);
		if (p->plane == 1) {
			EXPECT_EQ(p->state, MRC_PATH_ASSUMED_BAD) << i;
			EXPECT_EQ(p->reason, MRC_PR_TX_REFUSED) << i;
		} else {
			EXPECT_EQ(p->state, MRC_PATH_GOOD) << i;
		}
	}
}

// A refused SACK goes out again on another path; a refused path probe is
// a failed probe.
TEST(TxErr, RefusedControlPackets)
{
	Pair pr;
	mrc_tx_desc d;
	mrc_pkt pkt;
	uint32_t ev, ev2;

	ASSERT_EQ(mrc_conn_app_write(&pr.c[0], 1000, false), 0);
	ASSERT_EQ(mrc_conn_next_tx(&pr.c[0], pr.now, &d), 1);
	pr.deliver(0, d);
	ASSERT_EQ(mrc_conn_next_ctrl(&pr.c[1], pr.now, &pkt, &ev), 1);
	ASSERT_EQ(pkt.type, MRC_PKT_SACK);
	int bad = mrc_conn_path_of_ev(&pr.c[1], ev);
	ASSERT_GE(bad, 0);
	EXPECT_EQ(mrc_conn_ctrl_failed(&pr.c[1], &pkt, ev, false, MRC_TXERR_REFUSED, pr.now), 1);
	EXPECT_EQ(pr.path(1, bad)->state, MRC_PATH_ASSUMED_BAD);
	mrc_pkt again;
	ASSERT_EQ(mrc_conn_next_ctrl(&pr.c[1], pr.now, &again, &ev2), 1);
	EXPECT_EQ(again.type, MRC_PKT_SACK);
	EXPECT_NE(ev2, ev);
	EXPECT_EQ(again.u.sack.cack_psn, pkt.u.sack.cack_psn);
	// congestion only: nothing sent again
	EXPECT_EQ(mrc_conn_ctrl_failed(&pr.c[1], &again, ev2, false, MRC_TXERR_CONGESTED, pr.now),
		  0);
	EXPECT_EQ(mrc_conn_next_ctrl(&pr.c[1], pr.now, &again, &ev2), 0);

	// the failed path is probed; its refused probe has failed
	uint64_t t = mrc_conn_path(&pr.c[1], bad)->next_probe;
	pr.now = std::max(pr.now, t);
	ASSERT_EQ(mrc_conn_app_write(&pr.c[1], 1000, false), 0); // data moves: probes run
	mrc_conn_on_timer(&pr.c[1], pr.now);
	int r;
	bool probed = false;
	while ((r = mrc_conn_next_ctrl(&pr.c[1], pr.now, &pkt, &ev))) {
		if (r != 2 || mrc_conn_path_of_ev(&pr.c[1], ev) != bad)
			continue;
		probed = true;
		ASSERT_TRUE(pr.path(1, bad)->flags & MRC_PATHF_PROBE_OUT);
		EXPECT_EQ(mrc_conn_ctrl_failed(&pr.c[1], &pkt, ev, true, MRC_TXERR_REFUSED, pr.now),
			  0);
	}
	ASSERT_TRUE(probed);
	EXPECT_FALSE(pr.path(1, bad)->flags & MRC_PATHF_PROBE_OUT);
	EXPECT_EQ(pr.path(1, bad)->stats.probes_failed, 1u);
	EXPECT_EQ(pr.path(1, bad)->state, MRC_PATH_ASSUMED_BAD);
}

} // namespace

// ---- bursts (mrc_conn_next_tx_burst()) ----

// New data goes out in bursts: up to @max full packets with consecutive
// PSNs on one path, the next burst on the next path in rotation, so every
// path carries the same share; a packet shorter than the payload ends
// its burst. Fails if the engine sprays within a burst or skips paths.
TEST(Burst, FullPacketsInARowOnOnePathThenTheNext)
{
	Pair pr(0, 100 * MRC_CONN_DEF_PAYLOAD);
	mrc_tx_desc d[8];
	std::vector<uint32_t> per_path(6, 0);
	const uint32_t mss = pr.c[0].p.max_payload;

	// 6 bursts of 4, then a short tail
	ASSERT_EQ(mrc_conn_app_write(&pr.c[0], 24 * mss + 100, false), 0);
	for (int b = 0; b < 6; b++) {
		ASSERT_EQ(mrc_conn_next_tx_burst(&pr.c[0], pr.now, d, 4), 4) << "burst " << b;
		for (int k = 0; k < 4; k++) {
			EXPECT_EQ(d[k].path, d[0].path);
			EXPECT_EQ(d[k].psn, (d[0].psn + k) & MRC_PSN_MASK);
			EXPECT_EQ(d[k].len, mss);
			EXPECT_FALSE(d[k].rtx);
			pr.deliver(0, d[k]);
		}
		per_path[d[0].path] += 4;
	}
	for (uint32_t i = 0; i < 6; i++)
		EXPECT_EQ(per_path[i], 4u) << "path " << i << ": one burst each per rotation";
	// the tail: one short packet, alone
	ASSERT_EQ(mrc_conn_next_tx_burst(&pr.c[0], pr.now, d, 4), 1);
	EXPECT_EQ(d[0].len, 100u);
	EXPECT_TRUE(d[0].ack_req) << "the tail asks for a SACK";
	pr.deliver(0, d[0]);
	EXPECT_EQ(mrc_conn_next_tx_burst(&pr.c[0], pr.now, d, 4), 0);
	pr.settle();
	EXPECT_TRUE(mrc_conn_all_acked(&pr.c[0]));
	EXPECT_EQ(pr.c[1].rcv_read, 24u * mss + 100);
	EXPECT_EQ(pr.c[0].st.tx_pkts, 25u);
}

// While a loss is being recovered, bursts are of one packet on the next
// path each: the packets sent after a loss must reach many paths to prove
// which still work. Fails if a burst goes out with a loss outstanding.
TEST(Burst, OnePacketPerPathWhileALossIsRecovered)
{
	Pair pr(0, 100 * MRC_CONN_DEF_PAYLOAD);
	mrc_tx_desc d[8], r[8];
	const uint32_t mss = pr.c[0].p.max_payload;

	ASSERT_EQ(mrc_conn_app_write(&pr.c[0], 40 * mss, false), 0);
	ASSERT_EQ(mrc_conn_next_tx_burst(&pr.c[0], pr.now, d, 8), 8);
	// the first burst never left: a loss to recover (its path is out)
	ASSERT_EQ(mrc_conn_tx_failed(&pr.c[0], d[0].psn, d[0].ev, MRC_TXERR_REFUSED, pr.now), 1);
	ASSERT_TRUE(pr.c[0].ttr.open);
	std::set<uint32_t> paths;
	// the 8 lost packets again, then new ones, until the window is full
	for (int i = 0; i < 13; i++) {
		int n = mrc_conn_next_tx_burst(&pr.c[0], pr.now, r, 8);
		ASSERT_EQ(n, 1) << "call " << i << ": a burst while recovering";
		EXPECT_EQ(r[0].rtx, i < 8);
		if (!r[0].rtx)
			paths.insert(r[0].path);
		pr.deliver(0, r[0]);
	}
	EXPECT_EQ(paths.size(), 5u) << "new packets after a loss go to every usable path";
	// recovered once the peer acknowledges: bursts again
	pr.ctrl(1);
	ASSERT_FALSE(pr.c[0].ttr.open);
	ASSERT_EQ(pr.c[0].tx.lost_pkts, 0u);
	EXPECT_EQ(mrc_conn_next_tx_burst(&pr.c[0], pr.now, d, 8), 8);
}

// A burst the local stack refuses is one refusal: every packet of it is
// taken back (not in flight, not counted as sent) and resent on other
// paths at once; a refusal reported from the middle of a burst takes back
// that packet and the rest, not those before it. Fails if only the first
// packet is taken back (the others would wait for their RTO) or if each
// packet counts as a refusal (a burst of 8 would hold the connection).
TEST(Burst, RefusedBurstIsTakenBackWhole)
{
	Pair pr(0, 100 * MRC_CONN_DEF_PAYLOAD);
	mrc_tx_desc d[8], r;
	const uint32_t mss = pr.c[0].p.max_payload;

	ASSERT_EQ(mrc_conn_app_write(&pr.c[0], 40 * mss, false), 0);
	ASSERT_EQ(mrc_conn_next_tx_burst(&pr.c[0], pr.now, d, 8), 8);
	EXPECT_EQ(mrc_conn_tx_failed(&pr.c[0], d[0].psn, d[0].ev, MRC_TXERR_REFUSED, pr.now), 1);
	EXPECT_EQ(pr.c[0].tx.inflight_pkts, 0u);
	EXPECT_EQ(pr.c[0].tx.lost_pkts, 8u);
	EXPECT_EQ(pr.c[0].st.tx_pkts, 0u);
	EXPECT_EQ(pr.c[0].refuse_run, 1u) << "one burst, one refusal";
	EXPECT_EQ(pr.path(0, d[0].path)->state, MRC_PATH_ASSUMED_BAD);
	for (int k = 0; k < 8; k++) {
		ASSERT_EQ(mrc_conn_next_tx(&pr.c[0], pr.now, &r), 1);
		EXPECT_EQ(r.psn, d[k].psn);
		EXPECT_TRUE(r.rtx);
		EXPECT_NE(r.path, d[0].path);
		pr.deliver(0, r);
	}

	// refused from its fourth packet on: the first three left
	Pair pm(0, 100 * MRC_CONN_DEF_PAYLOAD);
	ASSERT_EQ(mrc_conn_app_write(&pm.c[0], 40 * mss, false), 0);
	ASSERT_EQ(mrc_conn_next_tx_burst(&pm.c[0], pm.now, d, 8), 8);
	EXPECT_EQ(mrc_conn_tx_failed(&pm.c[0], d[3].psn, d[3].ev, MRC_TXERR_REFUSED, pm.now), 1);
	EXPECT_EQ(pm.c[0].tx.inflight_pkts, 3u);
	EXPECT_EQ(pm.c[0].tx.lost_pkts, 5u);
	EXPECT_EQ(pm.c[0].st.tx_pkts, 3u);
	ASSERT_EQ(mrc_conn_next_tx(&pm.c[0], pm.now, &r), 1);
	EXPECT_EQ(r.psn, d[3].psn);
}

// A path probe proves what the connection's paths must carry: its data
// packets once it has written anything (padded to their size), only its
// SACKs while it has written nothing (small). Fails if a pure receiver
// pads its probes: each would cost a data packet's bytes each way.
TEST(Burst, ReceiverProbesSmallSenderProbesAtDataSize)
{
	Pair pr(0);

	EXPECT_EQ(mrc_conn_probe_size(&pr.c[0]), 0u) << "nothing written yet";
	EXPECT_EQ(mrc_conn_probe_size(&pr.c[1]), 0u);
	ASSERT_EQ(mrc_conn_app_write(&pr.c[0], 5000, false), 0);
	EXPECT_EQ(mrc_conn_probe_size(&pr.c[0]), mrc_conn_data_pkt_size(&pr.c[0]));
	pr.settle();
	EXPECT_EQ(mrc_conn_probe_size(&pr.c[1]), 0u) << "a receiver's paths carry its SACKs";
	EXPECT_EQ(pr.c[1].rcv_read, 5000u);
}
