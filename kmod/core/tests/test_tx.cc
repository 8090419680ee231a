// SPDX-License-Identifier: GPL-2.0
// Unit tests of the sender scoreboard (mrc_tx.h), and an end-to-end run of
// scoreboard and receiver tracker over a simulated lossy multipath network
// with SACKs going through the wire encoder and decoder.
#include <gtest/gtest.h>

#include <cstring>
#include <queue>
#include <random>
#include <tuple>
#include <vector>

extern "C" {
#include "mrc_psn.h"
#include "mrc_rx.h"
#include "mrc_tx.h"
#include "mrc_wire.h"
}

namespace {

struct Tx {
	std::vector<mrc_tx_entry> ring;
	std::vector<mrc_tx_path> paths;
	mrc_tx tx;
	u32 init;
	u64 off = 0;

	Tx(u32 init_psn, u32 mpr, u32 nslots = 256, u16 npaths = 4)
	    : ring(nslots), paths(npaths), init(init_psn)
	{
		EXPECT_EQ(
		    mrc_tx_init(&tx, init_psn, mpr, 0, ring.data(), nslots, paths.data(), npaths),
		    0);
	}

	u32 psn(u32 i) const { return mrc_psn_add(init, i); }

	// Send the next packet of 100 bytes; return its PSN.
	u32 send(u16 path, u64 now, u32 len = 100)
	{
		mrc_tx_pkt p = {off, len, (u32)off, 7};
		u32 out = ~0u;

		EXPECT_EQ(mrc_tx_send_new(&tx, &p, path, now, &out), 0);
		off += len;
		check();
		return out;
	}

	int sack(u32 cack, u32 base, u64 bitmap, u32 ack_psn, int path, u64 now, mrc_tx_ack *res)
	{
		mrc_sack s;

		memset(&s, 0, sizeof(s));
		s.cack_psn = cack;
		s.sack_offset = (s16)mrc_psn_diff(base, cack);
		s.sack_bitmap = bitmap;
		s.ack_psn_offset = (s16)mrc_psn_diff(ack_psn, cack);
		int err = mrc_tx_on_sack(&tx, &s, path, now, res);
		check();
		return err;
	}

	// SACK of the PSNs in @acked (relative), triggered by @trig.
	int sack_set(u32 cack_rel, std::vector<u32> acked, u32 trig_rel, int path, u64 now,
		     mrc_tx_ack *res)
	{
		u64 bm = 0;

		for (u32 a : acked)
			bm |= 1ULL << (a - cack_rel);
		return sack(psn(cack_rel), psn(cack_rel), bm, psn(trig_rel), path, now, res);
	}

	std::vector<u32> lost() const // relative PSNs in queue order
	{
		std::vector<u32> v;

		for (u32 i = tx.lost_list.head; i != MRC_TX_NIL; i = ring[i].link_next)
			v.push_back(mrc_psn_sub(mrc_psn_add(tx.una, (i - tx.una) & tx.mask), init));
		return v;
	}

	const mrc_tx_entry &at(u32 rel) const { return *mrc_tx_entry_of(&tx, psn(rel)); }

	// Lists and counters agree with the entries' states.
	void check() const
	{
		u32 inflight = 0, lost = 0;
		u64 bytes = 0;

		for (u16 p = 0; p < paths.size(); p++) {
			u32 n = 0, prev = MRC_TX_NIL;

			for (u32 i = paths[p].list.head; i != MRC_TX_NIL; i = ring[i].link_next) {
				ASSERT_TRUE(ring[i].state == MRC_TXS_INFLIGHT ||
					    ring[i].state == MRC_TXS_RTX);
				ASSERT_EQ(ring[i].path, p);
				ASSERT_EQ(ring[i].link_prev, prev);
				prev = i;
				n++;
				bytes += ring[i].len;
			}
			ASSERT_EQ(paths[p].list.tail, prev);
			ASSERT_EQ(n, paths[p].inflight);
			inflight += n;
		}
		ASSERT_EQ(inflight, tx.inflight_pkts);
		ASSERT_EQ(bytes, tx.inflight_bytes);

		u32 n = 0;
		u64 last = 0;
		for (u32 i = tx.time_list.head; i != MRC_TX_NIL; i = ring[i].time_next) {
			ASSERT_GE(ring[i].sent_ns, last);
			last = ring[i].sent_ns;
			n++;
		}
		ASSERT_EQ(n, inflight);
		for (u32 i = tx.lost_list.head; i != MRC_TX_NIL; i = ring[i].link_next) {
			ASSERT_EQ(ring[i].state, MRC_TXS_LOST);
			lost++;
		}
		ASSERT_EQ(lost, tx.lost_pkts);

		u32 span = mrc_psn_sub(tx.nxt, tx.una), states = 0;
		for (u32 k = 0; k < span; k++) {
			u8 st = ring[mrc_psn_add(tx.una, k) & tx.mask].state;

			ASSERT_NE(st, MRC_TXS_FREE);
			states += st != MRC_TXS_SACKED;
		}
		ASSERT_EQ(states, inflight + lost);
	}
};

TEST(Tx, InitValidates)
{
	std::vector<mrc_tx_entry> ring(64);
	std::vector<mrc_tx_path> paths(2);
	mrc_tx tx;

	EXPECT_EQ(mrc_tx_init(&tx, 0, 8, 0, ring.data(), 0, paths.data(), 2), -EINVAL);
	EXPECT_EQ(mrc_tx_init(&tx, 0, 8, 0, ring.data(), 48, paths.data(), 2), -EINVAL);
	EXPECT_EQ(mrc_tx_init(&tx, 0, 8, 0, ring.data(), 64, paths.data(), 0), -EINVAL);
	EXPECT_EQ(mrc_tx_init(&tx, 1u << 24, 8, 0, ring.data(), 64, paths.data(), 2), -EINVAL);
	EXPECT_EQ(mrc_tx_init(&tx, 5, 8, 0, ring.data(), 64, paths.data(), 2), 0);
	EXPECT_EQ(mrc_tx_next_timeout(&tx, 1000), MRC_TX_NO_TIMEOUT);
	EXPECT_EQ(mrc_tx_entry_of(&tx, 5), nullptr);
}

TEST(Tx, MprLimit)
{
	Tx t(0xfffffa, 10);
	mrc_tx_pkt p = {0, 1, 0, 0};
	mrc_tx_ack res;
	u32 psn;

	for (int i = 0; i < 10; i++) {
		EXPECT_TRUE(mrc_tx_can_send(&t.tx, U32_MAX, U64_MAX));
		t.send(0, i);
	}
	EXPECT_FALSE(mrc_tx_can_send(&t.tx, U32_MAX, U64_MAX));
	EXPECT_EQ(mrc_tx_send_new(&t.tx, &p, 0, 10, &psn), -ENOSPC);
	// the cumulative ack opens the window, a SACK bitmap does not
	ASSERT_EQ(t.sack_set(0, {5, 6, 7}, 7, -1, 20, &res), 0);
	EXPECT_FALSE(mrc_tx_can_send(&t.tx, U32_MAX, U64_MAX));
	ASSERT_EQ(t.sack_set(3, {}, 2, -1, 20, &res), 0);
	for (int i = 0; i < 3; i++)
		t.send(1, 30);
	EXPECT_FALSE(mrc_tx_can_send(&t.tx, U32_MAX, U64_MAX));
	mrc_tx_set_mpr(&t.tx, 14);
	EXPECT_TRUE(mrc_tx_can_send(&t.tx, U32_MAX, U64_MAX));
	EXPECT_EQ(t.tx.nxt, t.psn(13));
}

TEST(Tx, RingAndWindowLimits)
{
	Tx t(0, 1000, 16);
	mrc_tx_pkt p = {0, 1, 0, 0};
	u32 psn;

	for (int i = 0; i < 16; i++)
		t.send(0, i);
	EXPECT_FALSE(mrc_tx_can_send(&t.tx, U32_MAX, U64_MAX));
	EXPECT_EQ(mrc_tx_send_new(&t.tx, &p, 0, 10, &psn), -ENOSPC);

	Tx w(0, 1000);
	for (int i = 0; i < 5; i++)
		w.send(0, i);
	EXPECT_FALSE(mrc_tx_can_send(&w.tx, 5, U64_MAX));
	EXPECT_TRUE(mrc_tx_can_send(&w.tx, 6, U64_MAX));
	EXPECT_FALSE(mrc_tx_can_send(&w.tx, 100, 500));
	EXPECT_TRUE(mrc_tx_can_send(&w.tx, 100, 501));
	EXPECT_EQ(mrc_tx_send_new(&w.tx, &p, 4, 10, &psn), -EINVAL);
}

TEST(Tx, CumulativeAckAndRtt)
{
	Tx t(0xfffffd, 100);
	mrc_tx_ack res;

	for (int i = 0; i < 5; i++)
		t.send(i % 2, 100 + i);
	EXPECT_EQ(t.tx.inflight_pkts, 5u);
	EXPECT_EQ(t.tx.inflight_bytes, 500u);
	ASSERT_EQ(t.sack_set(3, {}, 2, 0, 1000, &res), 0);
	EXPECT_EQ(res.acked_pkts, 3u);
	EXPECT_EQ(res.acked_bytes, 300u);
	EXPECT_TRUE(res.cack_advanced);
	EXPECT_EQ(res.una, t.psn(3));
	EXPECT_EQ(res.una, 0u); // wrapped
	EXPECT_EQ(res.una_off, 300u);
	EXPECT_TRUE(res.has_rtt);
	EXPECT_EQ(res.rtt_ns, 898u);
	EXPECT_EQ(res.rtt_samples, 3u);
	EXPECT_EQ(res.rtt_min_ns, 898u);
	EXPECT_EQ(res.lost, 0u);
	EXPECT_EQ(t.tx.inflight_pkts, 2u);
	EXPECT_EQ(mrc_tx_entry_of(&t.tx, t.psn(2)), nullptr);

	// the same SACK again changes nothing
	ASSERT_EQ(t.sack_set(3, {}, 2, 0, 1100, &res), 0);
	EXPECT_EQ(res.acked_pkts, 0u);
	EXPECT_FALSE(res.cack_advanced);
	EXPECT_FALSE(res.has_rtt);

	// SACK bitmap above the cumulative ack
	ASSERT_EQ(t.sack_set(3, {4}, 4, 0, 1200, &res), 0);
	EXPECT_EQ(res.acked_pkts, 1u);
	EXPECT_FALSE(res.cack_advanced);
	EXPECT_EQ(t.at(4).state, MRC_TXS_SACKED);
	ASSERT_EQ(t.sack_set(5, {}, 3, 0, 1300, &res), 0);
	EXPECT_EQ(res.acked_pkts, 1u); // only PSN 3 is new
	EXPECT_EQ(res.una_off, 500u);
	EXPECT_EQ(t.tx.inflight_pkts, 0u);
	EXPECT_EQ(mrc_tx_next_timeout(&t.tx, 10), MRC_TX_NO_TIMEOUT);
}

TEST(Tx, KarnNoRttFromRetransmission)
{
	Tx t(0, 100);
	mrc_tx_ack res;

	t.send(0, 0);
	EXPECT_EQ(mrc_tx_expire(&t.tx, 1000, 1000), 1u);
	EXPECT_EQ(mrc_tx_send_rtx(&t.tx, t.psn(0), 1, 1500), 0);
	ASSERT_EQ(t.sack_set(1, {}, 0, 1, 1600, &res), 0);
	EXPECT_EQ(res.acked_pkts, 1u);
	EXPECT_FALSE(res.has_rtt);
	EXPECT_EQ(res.rtt_samples, 0u);
	EXPECT_EQ(res.spurious, 0u);
}

TEST(Tx, SackForUnsentPsnRejectedWithoutChange)
{
	Tx t(0xfffffe, 100);
	mrc_tx_ack res;

	for (int i = 0; i < 5; i++)
		t.send(0, i);
	mrc_tx before = t.tx;
	auto ring_before = t.ring;
	auto same = [&]() {
		EXPECT_EQ(memcmp(&before, &t.tx, sizeof(before)), 0);
		EXPECT_EQ(
		    memcmp(ring_before.data(), t.ring.data(), t.ring.size() * sizeof(mrc_tx_entry)),
		    0);
	};

	// cumulative ack past nxt
	EXPECT_EQ(t.sack(t.psn(6), t.psn(6), 0, t.psn(5), 0, 10, &res), -ERANGE);
	same();
	// bitmap bit on nxt
	EXPECT_EQ(t.sack(t.psn(0), t.psn(0), 1ULL << 5, t.psn(0), 0, 10, &res), -ERANGE);
	same();
	EXPECT_EQ(t.sack(t.psn(2), t.psn(2), 1ULL << 63, t.psn(2), 0, 10, &res), -ERANGE);
	same();
	// trigger never sent
	EXPECT_EQ(t.sack(t.psn(1), t.psn(1), 0, t.psn(5), 0, 10, &res), -ERANGE);
	same();
	// far away: garbage
	EXPECT_EQ(t.sack(0x400000, 0x400000, 0, 0x400000, 0, 10, &res), -ERANGE);
	same();
	// cack == nxt is fine: everything acked
	EXPECT_EQ(t.sack(t.psn(5), t.psn(5), 0, t.psn(4), 0, 10, &res), 0);
	EXPECT_EQ(res.acked_pkts, 5u);
	// with nothing outstanding, any new PSN is unsent
	EXPECT_EQ(t.sack(t.psn(5), t.psn(5), 0, t.psn(5), 0, 10, &res), -ERANGE);
}

TEST(Tx, StaleSackIgnored)
{
	Tx t(0, 100);
	mrc_tx_ack res;

	for (int i = 0; i < 8; i++)
		t.send(0, i);
	ASSERT_EQ(t.sack_set(5, {}, 4, -1, 10, &res), 0);
	// a SACK overtaken by the one above: cack 2, bits for 3 and 6
	ASSERT_EQ(t.sack(t.psn(2), t.psn(2), 0b10010, t.psn(6), -1, 20, &res), 0);
	EXPECT_FALSE(res.cack_advanced);
	EXPECT_EQ(res.una, t.psn(5));
	EXPECT_EQ(res.acked_pkts, 1u); // PSN 6 is news
	EXPECT_EQ(t.at(6).state, MRC_TXS_SACKED);
}

TEST(Tx, SackGapLoss)
{
	Tx t(0, 100);
	mrc_tx_ack res;

	for (int i = 0; i < 10; i++)
		t.send(i % 4, i);
	ASSERT_EQ(t.sack_set(0, {1, 2}, 2, -1, 100, &res), 0);
	EXPECT_EQ(res.lost, 0u);
	ASSERT_EQ(t.sack_set(0, {1, 2, 3}, 3, -1, 101, &res), 0);
	EXPECT_EQ(res.lost, 1u);
	EXPECT_EQ(t.lost(), std::vector<u32>({0}));

	mrc_tx_lost l;
	ASSERT_TRUE(mrc_tx_peek_lost(&t.tx, &l));
	EXPECT_EQ(l.psn, t.psn(0));
	EXPECT_EQ(l.path, 0);
	EXPECT_EQ(l.cause, MRC_LOSS_SACK_GAP);
	EXPECT_EQ(l.off, 0u);
	EXPECT_EQ(l.len, 100u);
	EXPECT_EQ(l.user, 0u);
	EXPECT_EQ(l.flags, 7);
	EXPECT_EQ(l.rtx_count, 0);
	EXPECT_EQ(t.tx.lost_by_cause[MRC_LOSS_SACK_GAP], 1u);

	// two holes, then three later acks
	ASSERT_EQ(t.sack_set(0, {1, 2, 3, 6, 7, 8}, 8, -1, 102, &res), 0);
	EXPECT_EQ(res.lost, 2u);
	EXPECT_EQ(t.lost(), std::vector<u32>({0, 4, 5}));
	EXPECT_EQ(t.tx.inflight_pkts, 1u); // PSN 9

	// a retransmission is not judged by the gap rule again
	ASSERT_EQ(mrc_tx_send_rtx(&t.tx, t.psn(4), 3, 200), 0);
	ASSERT_EQ(t.sack_set(0, {1, 2, 3, 6, 7, 8, 9}, 9, -1, 210, &res), 0);
	EXPECT_EQ(res.lost, 0u);
	EXPECT_EQ(t.at(4).state, MRC_TXS_RTX);
}

TEST(Tx, SackGapDisabled)
{
	Tx t(0, 100);
	mrc_tx_ack res;

	t.tx.gap_thresh = 0;
	for (int i = 0; i < 10; i++)
		t.send(0, i);
	ASSERT_EQ(t.sack_set(0, {5, 6, 7, 8, 9}, 9, -1, 100, &res), 0);
	EXPECT_EQ(res.lost, 0u);
	t.tx.gap_thresh = 1;
	ASSERT_EQ(t.sack_set(0, {5, 6, 7, 8, 9}, 9, -1, 100, &res), 0);
	EXPECT_EQ(res.lost, 5u);
}

TEST(Tx, PerPathLoss)
{
	Tx t(0xfffffc, 100);
	mrc_tx_ack res;
	u16 lp = 99;

	t.tx.gap_thresh = 0;
	for (int i = 0; i < 8; i++) // path 0: 0 2 4 6, path 1: 1 3 5 7
		t.send(i % 2, i);
	// 4 arrived on path 0 before 0 and 2: both lost, path 1 untouched
	ASSERT_EQ(t.sack_set(0, {4}, 4, 0, 100, &res), 0);
	EXPECT_EQ(res.lost, 2u);
	EXPECT_EQ(t.lost(), std::vector<u32>({0, 2}));
	EXPECT_EQ(t.at(0).cause, MRC_LOSS_PER_PATH);
	EXPECT_EQ(t.tx.lost_by_cause[MRC_LOSS_PER_PATH], 2u);
	EXPECT_EQ(t.paths[0].inflight, 1u);
	EXPECT_EQ(t.paths[1].inflight, 4u);

	// a trigger that went out on another path says nothing about path 0
	ASSERT_EQ(t.sack_set(0, {4, 5}, 5, 0, 101, &res), 0);
	EXPECT_EQ(res.lost, 0u);
	// entries acked by the same SACK are not lost
	ASSERT_EQ(t.sack_set(0, {3, 4, 5, 7}, 7, 1, 102, &res), 0);
	EXPECT_EQ(res.lost, 1u); // only 1; 3 and 5 are acked
	EXPECT_EQ(t.lost(), std::vector<u32>({0, 2, 1}));

	// retransmit 0 on path 1: sent after 7, so 7's ack did not doom it
	ASSERT_EQ(mrc_tx_send_rtx(&t.tx, t.psn(0), 1, 200), 0);
	ASSERT_EQ(mrc_tx_send_rtx(&t.tx, t.psn(1), 1, 201), 0);
	// 1's retransmission acked on path 1 before 0's: 0 lost again
	ASSERT_EQ(t.sack_set(0, {1, 3, 4, 5, 7}, 1, 1, 300, &res), 0);
	EXPECT_EQ(res.lost, 1u);
	EXPECT_EQ(t.lost(), std::vector<u32>({2, 0}));
	EXPECT_EQ(t.at(0).rtx_count, 1);
	// unknown path index: no per-path detection
	ASSERT_EQ(mrc_tx_send_rtx(&t.tx, t.psn(2), 2, 301), 0);
	t.send(2, 302);
	ASSERT_EQ(t.sack_set(0, {1, 3, 4, 5, 7}, 7, 17, 400, &res), 0);
	EXPECT_EQ(res.lost, 0u);
	ASSERT_EQ(t.sack_set(0, {1, 3, 4, 5, 7, 8}, 8, 2, 400, &res), 0);
	EXPECT_EQ(res.lost, 1u); // 2, sent before 8 on path 2
	EXPECT_EQ(mrc_tx_on_nack(&t.tx, t.psn(2), 1, -1, &lp), 0);
}

// What a timeout may blame (mrc_path_on_timeout()) rests on which later
// packets arrived: on the same path (it works), on another (this path is
// silent), on none (a stall, no proof). A retransmission's ack proves
// nothing about either copy's path. Fails if the scoreboard forgets
// deliveries or credits the wrong path.
TEST(Tx, DeliveredSinceTellsWhatATimeoutProves)
{
	Tx t(100, 100);
	mrc_tx_ack res;

	t.tx.gap_thresh = 0;
	t.send(0, 10); // 0: the one that will time out
	t.send(1, 20); // 1
	t.send(0, 30); // 2
	EXPECT_FALSE(mrc_tx_delivered_since(&t.tx, -1, 10)) << "nothing acked yet";
	// 1 arrives (path 1): proof against path 0's packet 0, not for it
	ASSERT_EQ(t.sack_set(0, {1}, 1, 1, 50, &res), 0);
	EXPECT_TRUE(mrc_tx_delivered_since(&t.tx, -1, 10));
	EXPECT_FALSE(mrc_tx_delivered_since(&t.tx, 0, 10));
	EXPECT_TRUE(mrc_tx_delivered_since(&t.tx, 1, 20));
	EXPECT_FALSE(mrc_tx_delivered_since(&t.tx, 1, 21));
	// 2 arrives on path 0: path 0 works
	ASSERT_EQ(t.sack_set(0, {1, 2}, 2, 0, 60, &res), 0);
	EXPECT_TRUE(mrc_tx_delivered_since(&t.tx, 0, 10));
	// a retransmission acked proves nothing
	ASSERT_EQ(mrc_tx_send_rtx(&t.tx, t.psn(0), 3, 70), 0);
	ASSERT_EQ(t.sack_set(3, {}, 0, 3, 80, &res), 0);
	EXPECT_FALSE(mrc_tx_delivered_since(&t.tx, 3, 70));
	EXPECT_FALSE(mrc_tx_delivered_since(&t.tx, -1, 31));
	EXPECT_FALSE(mrc_tx_delivered_since(&t.tx, 9, 0)) << "bad path index";
}

// A SACK whose bitmap starts above the cumulative ack says nothing about
// the PSNs in between: per-path detection must not call them lost (their
// own SACKs may come later on a slower reverse path).
TEST(Tx, PerPathIgnoresPsnsTheSackDoesNotCover)
{
	Tx t(0xffffe0, 256);
	mrc_tx_ack res;

	t.tx.gap_thresh = 0;
	for (int i = 0; i < 100; i++) // path 0: even, path 1: odd
		t.send(i % 2, i);
	// cack 0, bitmap 36..99 (ends at the trigger 98, on path 0)
	ASSERT_EQ(t.sack(t.psn(0), t.psn(35), ~0ULL & ~1ULL, t.psn(98), 0, 50, &res), 0);
	// only 0 (at the cumulative ack, not covered) is unknown too; the
	// even PSNs 2..34 are unknown: none lost
	EXPECT_EQ(res.lost, 0u);
	EXPECT_EQ(t.tx.lost_by_cause[MRC_LOSS_PER_PATH], 0u);
	// a SACK covering them proves the loss
	u64 bm = 0;
	for (int i = 1; i < 64; i++)
		bm |= 1ULL << i;
	ASSERT_EQ(t.sack(t.psn(0), t.psn(0), bm & ~(1ULL << 2), t.psn(4), 0, 60, &res), 0);
	EXPECT_EQ(res.lost, 2u); // 0 and 2, sent on path 0 before 4
}

// With hundreds of paths, thousands of PSNs are in flight and a 64-bit
// bitmap covers few of them: a SACK triggered far above its bitmap says
// nothing of the trigger path's packets between the bitmap and the
// trigger. Fails if per-path detection calls them lost (it did: at 256
// paths, a third of the packets were retransmitted in a fault-free run).
TEST(Tx, PerPathIgnoresPsnsAboveTheBitmap)
{
	Tx t(0xffff00, 512, 512);
	mrc_tx_ack res;

	t.tx.gap_thresh = 0;
	for (int i = 0; i < 200; i++) // path 0: even, path 1: odd
		t.send(i % 2, i);
	// cack 0, bitmap 0..63 with 1..63 acked but 10, trigger 150 (path 0)
	u64 bm = ~1ULL & ~(1ULL << 10);
	ASSERT_EQ(t.sack(t.psn(0), t.psn(0), bm, t.psn(150), 0, 500, &res), 0);
	// 0 and 10 are in the SACK's view and missing; 64..148 are not
	EXPECT_EQ(res.lost, 2u);
	EXPECT_EQ(t.lost(), std::vector<u32>({0, 10}));
	EXPECT_EQ(t.at(64).state, MRC_TXS_INFLIGHT);
	EXPECT_EQ(t.at(148).state, MRC_TXS_INFLIGHT);
}

// A packet sprayed on a slow path is overtaken by many PSNs on faster
// paths: SACK gaps wait for its path's reordering window before calling
// it lost, and mrc_tx_on_gap_due() judges it when the window ends if no
// SACK comes. Fails if the gap rule ignores the window (spurious
// retransmissions), forgets what it held back (a loss left to the RTO),
// or calls a packet lost that arrived meanwhile.
TEST(Tx, SackGapWaitsForThePathsReorderWindow)
{
	Tx t(0, 100);
	mrc_tx_ack res;
	const u64 us = 1000;

	mrc_tx_set_reorder(&t.tx, 0, 100); // path 0: 100 us
	mrc_tx_set_reorder(&t.tx, 9, 100); // out of range: ignored
	for (int i = 0; i < 12; i++)
		t.send(i % 4, i);
	// 1..11 but 0 and 4 (both on path 0) acked at 20 us: within the window
	ASSERT_EQ(t.sack_set(0, {1, 2, 3, 5, 6, 7, 8, 9, 10, 11}, 11, -1, 20 * us, &res), 0);
	EXPECT_EQ(res.lost, 0u);
	EXPECT_EQ(t.tx.gap_due, 0 + 100 * us);
	EXPECT_EQ(mrc_tx_on_gap_due(&t.tx, 99 * us), 0u) << "not due yet";
	// 0 arrives late: only 4 is judged when the window ends
	ASSERT_EQ(t.sack_set(1, {1, 2, 3, 5, 6, 7, 8, 9, 10, 11}, 0, -1, 50 * us, &res), 0);
	EXPECT_EQ(res.lost, 0u);
	EXPECT_EQ(t.tx.gap_due, 4 + 100 * us);
	EXPECT_EQ(mrc_tx_on_gap_due(&t.tx, 104 * us), 1u);
	EXPECT_EQ(t.lost(), std::vector<u32>({4}));
	EXPECT_EQ(t.at(4).cause, MRC_LOSS_SACK_GAP);
	EXPECT_EQ(t.tx.gap_due, 0u);
	EXPECT_EQ(mrc_tx_on_gap_due(&t.tx, 200 * us), 0u) << "nothing held back";
	// a path without a window is judged at once, as before
	for (int i = 12; i < 24; i++)
		t.send(1 + i % 3, 300 * us + i);
	ASSERT_EQ(
	    t.sack_set(12, {13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}, 23, -1, 301 * us, &res),
	    0);
	EXPECT_EQ(res.lost, 1u);
	EXPECT_EQ(t.lost(), std::vector<u32>({12})); // 4 left with the cumulative ack
}

TEST(Tx, RtoExpiry)
{
	Tx t(0, 100);
	mrc_tx_ack res;

	t.send(0, 0);
	t.send(1, 10);
	t.send(2, 20);
	EXPECT_EQ(mrc_tx_next_timeout(&t.tx, 100), 100u);
	EXPECT_EQ(mrc_tx_expire(&t.tx, 99, 100), 0u);
	EXPECT_EQ(mrc_tx_expire(&t.tx, 100, 100), 1u);
	EXPECT_EQ(t.lost(), std::vector<u32>({0}));
	EXPECT_EQ(t.at(0).cause, MRC_LOSS_RTO);
	EXPECT_EQ(mrc_tx_next_timeout(&t.tx, 100), 110u);
	ASSERT_EQ(mrc_tx_send_rtx(&t.tx, t.psn(0), 3, 105), 0);
	EXPECT_TRUE(t.lost().empty());
	EXPECT_EQ(mrc_tx_next_timeout(&t.tx, 100), 110u);
	EXPECT_EQ(mrc_tx_expire(&t.tx, 125, 100), 2u);
	EXPECT_EQ(t.lost(), std::vector<u32>({1, 2}));
	EXPECT_EQ(mrc_tx_next_timeout(&t.tx, 100), 205u);
	EXPECT_EQ(t.tx.lost_by_cause[MRC_LOSS_RTO], 3u);

	// a clock that steps back does not unsort the timers
	ASSERT_EQ(mrc_tx_send_rtx(&t.tx, t.psn(1), 0, 50), 0);
	EXPECT_EQ(t.at(1).sent_ns, 105u);
	t.check();

	// late ack of lost entries: spurious, off the lost queue
	ASSERT_EQ(t.sack_set(3, {}, 2, 2, 300, &res), 0);
	EXPECT_EQ(res.acked_pkts, 3u);
	EXPECT_EQ(res.spurious, 1u);
	EXPECT_EQ(t.tx.spurious, 1u);
	EXPECT_TRUE(t.lost().empty());
	EXPECT_EQ(t.tx.lost_pkts, 0u);
	EXPECT_EQ(mrc_tx_next_timeout(&t.tx, 100), MRC_TX_NO_TIMEOUT);
	EXPECT_EQ(mrc_tx_expire(&t.tx, ~0ULL, 100), 0u);
}

TEST(Tx, Nack)
{
	Tx t(0, 100);
	mrc_tx_ack res;
	u16 lp = 99;

	for (int i = 0; i < 4; i++)
		t.send(i, i);
	EXPECT_EQ(mrc_tx_on_nack(&t.tx, t.psn(1), MRC_NACK_TRIMMED, -1, &lp), 1);
	EXPECT_EQ(lp, 1);
	mrc_tx_lost l;
	ASSERT_TRUE(mrc_tx_peek_lost(&t.tx, &l));
	EXPECT_EQ(l.cause, MRC_LOSS_NACK);
	EXPECT_EQ(l.nack_reason, MRC_NACK_TRIMMED);
	EXPECT_EQ(l.path, 1);
	EXPECT_EQ(t.tx.lost_by_cause[MRC_LOSS_NACK], 1u);
	// already lost: nothing more
	EXPECT_EQ(mrc_tx_on_nack(&t.tx, t.psn(1), MRC_NACK_TRIMMED, -1, &lp), 0);
	// about a transmission on another path than the current one
	EXPECT_EQ(mrc_tx_on_nack(&t.tx, t.psn(2), MRC_NACK_TRIMMED, 3, &lp), 0);
	EXPECT_EQ(mrc_tx_on_nack(&t.tx, t.psn(2), MRC_NACK_TRIMMED, 2, &lp), 1);
	// never sent
	EXPECT_EQ(mrc_tx_on_nack(&t.tx, t.psn(4), MRC_NACK_TRIMMED, -1, &lp), -ERANGE);
	EXPECT_EQ(mrc_tx_on_nack(&t.tx, 1u << 24, MRC_NACK_TRIMMED, -1, &lp), -ERANGE);
	// acked already
	ASSERT_EQ(t.sack_set(1, {}, 0, 0, 10, &res), 0);
	EXPECT_EQ(mrc_tx_on_nack(&t.tx, t.psn(0), MRC_NACK_TRIMMED, -1, &lp), 0);
	t.check();
}

TEST(Tx, LostQueueAndRetransmit)
{
	Tx t(0, 100);
	mrc_tx_ack res;
	mrc_tx_lost l;

	EXPECT_FALSE(mrc_tx_peek_lost(&t.tx, &l));
	for (int i = 0; i < 4; i++)
		t.send(0, i);
	EXPECT_EQ(mrc_tx_expire(&t.tx, 1000, 10), 4u);
	EXPECT_EQ(t.tx.inflight_pkts, 0u);
	EXPECT_EQ(t.tx.lost_pkts, 4u);
	for (u32 i = 0; i < 4; i++) {
		ASSERT_TRUE(mrc_tx_peek_lost(&t.tx, &l));
		EXPECT_EQ(l.psn, t.psn(i));
		EXPECT_EQ(l.off, 100u * i);
		ASSERT_EQ(mrc_tx_send_rtx(&t.tx, l.psn, 1, 2000 + i), 0);
		EXPECT_EQ(t.at(i).state, MRC_TXS_RTX);
		EXPECT_EQ(t.at(i).rtx_count, 1);
		EXPECT_EQ(t.at(i).path, 1);
	}
	EXPECT_FALSE(mrc_tx_peek_lost(&t.tx, &l));
	EXPECT_EQ(t.paths[1].inflight, 4u);
	EXPECT_EQ(t.paths[0].inflight, 0u);

	// errors
	EXPECT_EQ(mrc_tx_send_rtx(&t.tx, t.psn(4), 1, 0), -ERANGE);
	EXPECT_EQ(mrc_tx_send_rtx(&t.tx, 1u << 24, 1, 0), -ERANGE);
	EXPECT_EQ(mrc_tx_send_rtx(&t.tx, t.psn(0), 4, 0), -EINVAL);
	ASSERT_EQ(t.sack_set(0, {2}, 2, 1, 3000, &res), 0);
	EXPECT_EQ(mrc_tx_send_rtx(&t.tx, t.psn(2), 1, 0), -EALREADY);
	// a forced resend of an in-flight packet moves it to the new path
	EXPECT_EQ(mrc_tx_send_rtx(&t.tx, t.psn(3), 2, 3100), 0);
	EXPECT_EQ(t.at(3).rtx_count, 2);
	EXPECT_EQ(t.paths[2].inflight, 1u);
	t.check();
	// rtx_count saturates
	for (int i = 0; i < 300; i++)
		ASSERT_EQ(mrc_tx_send_rtx(&t.tx, t.psn(3), i % 4, 4000 + i), 0);
	EXPECT_EQ(t.at(3).rtx_count, 255);
}

TEST(Tx, WrapAroundLongRun)
{
	Tx t(0xffff00, 64, 64);
	mrc_tx_ack res;
	u32 acked = 0;

	for (u32 i = 0; i < 2000; i++) {
		while (mrc_tx_can_send(&t.tx, U32_MAX, U64_MAX))
			t.send(i % 4, i);
		// ack half of what is outstanding
		u32 span = mrc_psn_sub(t.tx.nxt, t.tx.una) / 2;
		u32 cack = mrc_psn_add(t.tx.una, span);
		ASSERT_EQ(t.sack(cack, cack, 0, mrc_psn_add(cack, 0xffffff), -1, i + 1000, &res),
			  0);
		acked += res.acked_pkts;
	}
	EXPECT_EQ(acked, mrc_psn_sub(t.tx.una, t.init));
	EXPECT_EQ(t.tx.una_off, 100ULL * acked);
	EXPECT_LT(t.tx.una, t.init); // wrapped past 0xffffff
}

// ---- end to end: scoreboard + tracker over a lossy multipath network ----

struct Event {
	u64 when;
	u64 seq;
	bool is_sack;
	u16 path;
	u32 psn;
	bool rtx;
	std::vector<u8> bytes; // SACK on the wire
	bool operator>(const Event &o) const
	{
		return std::tie(when, seq) > std::tie(o.when, o.seq);
	}
};

void run_end_to_end(u32 seed, u32 npkts, bool blackhole)
{
	const u16 npaths = 8;
	const u32 init = 0xfffe00 + seed;
	const u64 rto = 200000;
	std::mt19937 rng(seed);
	Tx t(init, 256, 512, npaths);
	std::vector<u64> bm(MRC_RX_BITMAP_WORDS(256));
	std::vector<mrc_rx_slot> slots(256);
	mrc_rx_ack_policy pol = {2, true, true, true};
	mrc_rx rx;
	std::priority_queue<Event, std::vector<Event>, std::greater<Event>> q;
	std::vector<u64> last_arrival(npaths * 2, 0);
	u64 now = 0, seq = 0, sent = 0;
	u16 rr = 0;

	ASSERT_EQ(mrc_rx_init(&rx, init, 256, 0, bm.data(), slots.data(), 256, &pol), 0);
	// one-way latency per path and direction; FIFO on each
	auto ship = [&](Event e, unsigned dir) {
		bool dead = blackhole && e.path == 3;
		u32 loss = e.is_sack ? 1 : 3; // percent

		if (dead || rng() % 100 < loss)
			return;
		u64 &last = last_arrival[e.path * 2 + dir];
		e.when = std::max(last, now + 10000 + e.path * 3000 + rng() % 500);
		last = e.when;
		e.seq = seq++;
		q.push(std::move(e));
	};
	auto send_data = [&](u32 psn, u16 path, bool rtx) {
		Event e{};

		e.path = path;
		e.psn = psn;
		e.rtx = rtx;
		ship(std::move(e), 0);
	};

	for (int iter = 0; iter < 2000000; iter++) {
		// sender: retransmissions first, then new data
		mrc_tx_lost l;
		while (mrc_tx_peek_lost(&t.tx, &l)) {
			u16 path = (l.path + 1 + rng() % (npaths - 1)) % npaths;

			ASSERT_LT(l.rtx_count, 50) << "retries exhausted";
			ASSERT_EQ(mrc_tx_send_rtx(&t.tx, l.psn, path, now), 0);
			send_data(l.psn, path, true);
		}
		while (sent < npkts && mrc_tx_can_send(&t.tx, 64, U64_MAX)) {
			u32 psn;
			mrc_tx_pkt p = {sent * 1000, 1000, 0, 0};
			u16 path = rr++ % npaths;

			ASSERT_EQ(mrc_tx_send_new(&t.tx, &p, path, now, &psn), 0);
			send_data(psn, path, false);
			sent++;
		}
		if (rx.cack == mrc_psn_add(init, npkts) && t.tx.una == rx.cack)
			break;

		u64 tmo = mrc_tx_next_timeout(&t.tx, rto);
		if (q.empty() || tmo < q.top().when) {
			ASSERT_NE(tmo, MRC_TX_NO_TIMEOUT) << "stalled";
			now = tmo;
			ASSERT_GT(mrc_tx_expire(&t.tx, now, rto), 0u);
			continue;
		}
		Event e = q.top();
		q.pop();
		now = e.when;
		if (!e.is_sack) {
			mrc_rx_pkt p = {};
			mrc_rx_result r;

			p.psn = e.psn;
			p.end_off = 1000ULL * (mrc_psn_sub(e.psn, init) + 1);
			p.flags = e.rtx ? MRC_RXF_RTX : 0;
			mrc_rx_receive(&rx, &p, &r);
			ASSERT_NE(r.verdict, MRC_RX_OUT_OF_WINDOW);
			if (!r.sack_now && mrc_psn_sub(rx.cack, init) != npkts)
				continue;
			mrc_pkt s;
			memset(&s, 0, sizeof(s));
			s.type = MRC_PKT_SACK;
			s.bth.opcode = MRC_OP_SACK;
			s.bth.dest_qpn = 0x100;
			s.u.sack.entropy = e.path;
			s.u.sack.has_credit = true;
			mrc_rx_fill_sack(&rx, e.psn, &s.u.sack);
			Event a{};
			a.is_sack = true;
			a.path = e.path;
			a.bytes.resize(MRC_PKT_HDR_MAX);
			int n = mrc_pkt_encode(&s, a.bytes.data(), a.bytes.size());
			ASSERT_GT(n, 0);
			a.bytes.resize(n);
			ship(std::move(a), 1);
		} else {
			mrc_pkt s;
			mrc_tx_ack res;

			ASSERT_EQ(mrc_pkt_decode(e.bytes.data(), e.bytes.size(), &s), 0);
			ASSERT_EQ(
			    mrc_tx_on_sack(&t.tx, &s.u.sack, (int)s.u.sack.entropy, now, &res), 0);
		}
		t.check();
	}
	EXPECT_EQ(rx.cack, mrc_psn_add(init, npkts));
	EXPECT_EQ(rx.deliver_off, 1000ULL * npkts);
	EXPECT_EQ(t.tx.una, rx.cack);
	EXPECT_EQ(t.tx.una_off, 1000ULL * npkts);
	if (blackhole) {
		// the dead path's losses are found without waiting for a timeout
		EXPECT_GT(t.tx.lost_by_cause[MRC_LOSS_PER_PATH] +
			      t.tx.lost_by_cause[MRC_LOSS_SACK_GAP],
			  t.tx.lost_by_cause[MRC_LOSS_RTO]);
	}
}

TEST(TxRx, EndToEndRandomLoss)
{
	for (u32 seed = 1; seed <= 5; seed++)
		run_end_to_end(seed, 3000, false);
}

TEST(TxRx, EndToEndBlackholedPath)
{
	for (u32 seed = 11; seed <= 15; seed++)
		run_end_to_end(seed, 3000, true);
}

} // namespace
