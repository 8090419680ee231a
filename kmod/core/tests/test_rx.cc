// SPDX-License-Identifier: GPL-2.0
// Unit tests of the receiver tracker (mrc_rx.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <vector>

extern "C" {
#include "mrc_psn.h"
#include "mrc_rx.h"
#include "mrc_wire.h"
}

namespace {

const mrc_rx_ack_policy kAckAll = {1, true, true, true};

struct Rx {
	std::vector<u64> bitmap;
	std::vector<mrc_rx_slot> slots;
	mrc_rx rx;

	Rx(u32 init_psn, u32 window, const mrc_rx_ack_policy &pol = kAckAll, u64 start = 0)
	{
		u32 n = mrc_rx_storage_slots(window);

		bitmap.resize(MRC_RX_BITMAP_WORDS(n), ~0ULL); // init clears
		slots.resize(n);
		EXPECT_EQ(
		    mrc_rx_init(&rx, init_psn, window, start, bitmap.data(), slots.data(), n, &pol),
		    0);
	}

	// A packet of 100 bytes at stream offset 100 * (psn - base).
	mrc_rx_result recv(u32 psn, u8 flags = 0, u32 base = 0, u32 imm = 0)
	{
		mrc_rx_pkt p = {};
		mrc_rx_result r;

		p.psn = psn;
		p.end_off = 100ULL * (mrc_psn_sub(psn, base) + 1);
		p.flags = flags;
		p.imm = imm;
		mrc_rx_receive(&rx, &p, &r);
		return r;
	}

	mrc_sack sack(u32 trigger)
	{
		mrc_sack s;

		memset(&s, 0, sizeof(s));
		mrc_rx_fill_sack(&rx, trigger, &s);
		return s;
	}
};

TEST(Rx, InitValidatesStorage)
{
	std::vector<u64> bm(64);
	std::vector<mrc_rx_slot> sl(4096);
	mrc_rx rx;

	EXPECT_EQ(mrc_rx_init(&rx, 0, 0, 0, bm.data(), sl.data(), 64, &kAckAll), -EINVAL);
	EXPECT_EQ(mrc_rx_init(&rx, 0, 65, 0, bm.data(), sl.data(), 64, &kAckAll), -EINVAL);
	EXPECT_EQ(mrc_rx_init(&rx, 0, 64, 0, bm.data(), sl.data(), 96, &kAckAll), -EINVAL);
	EXPECT_EQ(mrc_rx_init(&rx, 0, 16, 0, bm.data(), sl.data(), 32, &kAckAll), -EINVAL);
	EXPECT_EQ(mrc_rx_init(&rx, 1u << 24, 64, 0, bm.data(), sl.data(), 64, &kAckAll), -EINVAL);
	EXPECT_EQ(
	    mrc_rx_init(&rx, 0, MRC_RX_WINDOW_MAX + 1, 0, bm.data(), sl.data(), 65536, &kAckAll),
	    -EINVAL);
	EXPECT_EQ(mrc_rx_init(&rx, 0, 64, 0, bm.data(), sl.data(), 64, &kAckAll), 0);
	EXPECT_EQ(mrc_rx_storage_slots(1), 64u);
	EXPECT_EQ(mrc_rx_storage_slots(128), 128u);
	EXPECT_EQ(mrc_rx_storage_slots(129), 256u);
	EXPECT_EQ(mrc_rx_storage_slots(MRC_RX_WINDOW_MAX), 32768u);
}

TEST(Rx, InOrderAdvances)
{
	Rx r(10, 128);

	for (u32 i = 0; i < 300; i++) {
		mrc_rx_result res = r.recv(10 + i, 0, 10);

		EXPECT_EQ(res.verdict, MRC_RX_NEW);
		EXPECT_EQ(res.adv_from, 10 + i);
		EXPECT_EQ(res.adv_count, 1u);
		EXPECT_EQ(res.deliver_off, 100ULL * (i + 1));
		EXPECT_EQ(r.rx.cack, 11 + i);
		EXPECT_EQ(r.rx.held, 0u);
	}
}

TEST(Rx, OutOfOrderHeldThenDelivered)
{
	Rx r(0, 128);
	mrc_rx_result res;

	res = r.recv(2);
	EXPECT_EQ(res.verdict, MRC_RX_NEW);
	EXPECT_EQ(res.adv_count, 0u);
	EXPECT_EQ(res.deliver_off, 0u);
	res = r.recv(1);
	EXPECT_EQ(res.adv_count, 0u);
	EXPECT_EQ(r.rx.held, 2u);
	EXPECT_TRUE(mrc_rx_has(&r.rx, 1));
	EXPECT_TRUE(mrc_rx_has(&r.rx, 2));
	EXPECT_FALSE(mrc_rx_has(&r.rx, 0));
	EXPECT_FALSE(mrc_rx_has(&r.rx, 3));
	res = r.recv(0);
	EXPECT_EQ(res.adv_from, 0u);
	EXPECT_EQ(res.adv_count, 3u);
	EXPECT_EQ(res.deliver_off, 300u);
	EXPECT_EQ(r.rx.cack, 3u);
	EXPECT_EQ(r.rx.held, 0u);
	EXPECT_TRUE(mrc_rx_has(&r.rx, 0));
	EXPECT_FALSE(mrc_rx_has(&r.rx, 200));
}

TEST(Rx, Duplicates)
{
	Rx r(0, 128);

	r.recv(0);
	r.recv(5);
	EXPECT_EQ(r.recv(0).verdict, MRC_RX_DUP); // below cack
	EXPECT_EQ(r.recv(5).verdict, MRC_RX_DUP); // held already
	EXPECT_EQ(r.rx.held, 1u);
	EXPECT_EQ(r.rx.cack, 1u);
	// a duplicate asks for a SACK only under the policy (or AckReq)
	EXPECT_TRUE(r.recv(5).sack_now);
	r.rx.policy.ack_dup = false;
	EXPECT_FALSE(r.recv(5).sack_now);
	EXPECT_TRUE(r.recv(5, MRC_RXF_ACK_REQ).sack_now);
}

TEST(Rx, WindowEdgesRejectWithoutStateChange)
{
	for (u32 init : {0u, 0xffffc0u, 0xffffffu}) {
		Rx r(init, 100); // 128 slots, window 100
		u32 cack = init;

		r.recv(mrc_psn_add(init, 3));
		auto before_bm = r.bitmap;
		mrc_rx before = r.rx;

		for (u32 bad :
		     {mrc_psn_add(cack, 100), mrc_psn_add(cack, 128), mrc_psn_add(cack, 0x800000),
		      mrc_psn_add(cack, (u32)-101), (u32)(1u << 24) | cack}) {
			mrc_rx_result res = r.recv(bad);

			EXPECT_EQ(res.verdict, MRC_RX_OUT_OF_WINDOW) << bad;
			EXPECT_FALSE(res.sack_now);
			EXPECT_EQ(res.adv_count, 0u);
			EXPECT_EQ(memcmp(&before, &r.rx, sizeof(before)), 0);
			EXPECT_EQ(before_bm, r.bitmap);
		}
		EXPECT_EQ(r.recv(mrc_psn_add(cack, (u32)-100)).verdict, MRC_RX_DUP);
		EXPECT_EQ(r.recv(mrc_psn_add(cack, 99)).verdict, MRC_RX_NEW);
		EXPECT_EQ(r.rx.held, 2u);
	}
}

TEST(Rx, WrapAround)
{
	const u32 init = 0xfffff0;
	Rx r(init, 256);
	std::vector<u32> order;

	for (u32 i = 0; i < 64; i++)
		order.push_back(mrc_psn_add(init, i));
	std::reverse(order.begin(), order.end());
	for (u32 psn : order)
		r.recv(psn, 0, init);
	EXPECT_EQ(r.rx.cack, mrc_psn_add(init, 64));
	EXPECT_EQ(r.rx.cack, 0x30u);
	EXPECT_EQ(r.rx.deliver_off, 6400u);
	EXPECT_EQ(r.rx.held, 0u);
	EXPECT_EQ(r.recv(0xffffff).verdict, MRC_RX_DUP);
}

TEST(Rx, MessageEndsAndImmediates)
{
	Rx r(0, 128);
	mrc_rx_result res;
	mrc_rx_msg m;

	// messages: [0,1] [2] [3,4,5 imm]; arrive 5 4 3 1 2 0
	r.recv(5, MRC_RXF_MSG_END | MRC_RXF_IMM, 0, 0xabcd);
	r.recv(4);
	r.recv(3);
	r.recv(1, MRC_RXF_MSG_END);
	res = r.recv(2, MRC_RXF_MSG_END | MRC_RXF_ACK_REQ);
	EXPECT_EQ(res.msg_ends, 0u);
	res = r.recv(0);
	EXPECT_EQ(res.adv_count, 6u);
	EXPECT_EQ(res.msg_ends, 3u);

	u32 cur = res.adv_from;
	ASSERT_TRUE(mrc_rx_next_msg(&r.rx, &cur, &m));
	EXPECT_EQ(m.psn, 1u);
	EXPECT_EQ(m.end_off, 200u);
	EXPECT_FALSE(m.has_imm);
	ASSERT_TRUE(mrc_rx_next_msg(&r.rx, &cur, &m));
	EXPECT_EQ(m.psn, 2u);
	EXPECT_EQ(m.end_off, 300u);
	ASSERT_TRUE(mrc_rx_next_msg(&r.rx, &cur, &m));
	EXPECT_EQ(m.psn, 5u);
	EXPECT_EQ(m.end_off, 600u);
	EXPECT_TRUE(m.has_imm);
	EXPECT_EQ(m.imm, 0xabcdu);
	EXPECT_FALSE(mrc_rx_next_msg(&r.rx, &cur, &m));
	EXPECT_EQ(cur, 6u);
	EXPECT_FALSE(mrc_rx_next_msg(&r.rx, &cur, &m));

	// a cursor outside the window finds nothing
	cur = 0x800000;
	EXPECT_FALSE(mrc_rx_next_msg(&r.rx, &cur, &m));
}

TEST(Rx, DeliverOffsetNeverMovesBack)
{
	Rx r(0, 128);
	mrc_rx_pkt p = {};
	mrc_rx_result res;

	p.psn = 0;
	p.end_off = 1000;
	mrc_rx_receive(&r.rx, &p, &res);
	p.psn = 1;
	p.end_off = 500; // a lying peer
	mrc_rx_receive(&r.rx, &p, &res);
	EXPECT_EQ(res.deliver_off, 1000u);
}

TEST(Rx, SackFieldsNearCack)
{
	Rx r(0xfffffe, 128);
	mrc_sack s;

	r.recv(0xfffffe); // in order
	r.recv(0);        // hole at 0xffffff
	r.recv(2);
	s = r.sack(2);
	EXPECT_EQ(s.cack_psn, 0xffffffu);
	EXPECT_EQ(s.ack_psn_offset, 3);
	EXPECT_EQ(s.sack_offset, 0);
	EXPECT_EQ(s.sack_bitmap, 0b1010ULL);
	EXPECT_EQ(s.cc.ooo_count, 2);
	EXPECT_FALSE(mrc_rx_sack_pending(&r.rx));

	// duplicate trigger below cack: negative offset
	s = r.sack(0xfffffe);
	EXPECT_EQ(s.ack_psn_offset, -1);
}

TEST(Rx, SackBitmapFollowsFarTrigger)
{
	Rx r(0, 1024);
	mrc_sack s;

	for (u32 p = 200; p < 300; p += 2)
		r.recv(p);
	s = r.sack(298);
	EXPECT_EQ(s.cack_psn, 0u);
	EXPECT_EQ(s.ack_psn_offset, 298);
	EXPECT_EQ(s.sack_offset, 298 - 63);
	// base 235 (odd): bits for even PSNs 236..298 are the odd bits
	EXPECT_EQ(s.sack_bitmap, 0xaaaaaaaaaaaaaaaaULL);
	EXPECT_EQ(s.cc.ooo_count, 50);

	// bitmap base crossing the ring end
	Rx w(1000, 128); // PSN 1010 sits in slot 114 of 128
	for (u32 p = 1010; p < 1074; p++)
		w.recv(p);
	w.recv(1075);
	s = w.sack(1073);
	EXPECT_EQ(s.sack_offset, 10);
	EXPECT_EQ(s.sack_bitmap, ~0ULL);
	s = w.sack(1075);
	EXPECT_EQ(s.sack_offset, 12);
	EXPECT_EQ(s.sack_bitmap, (~0ULL >> 2) | (1ULL << 63));
}

TEST(Rx, SackNeverReportsBeyondWindow)
{
	Rx r(0, 40); // 64 slots, window 40
	mrc_sack s;

	r.recv(1);
	r.recv(39);
	s = r.sack(39);
	EXPECT_EQ(s.sack_offset, 0);
	EXPECT_EQ(s.sack_bitmap, (1ULL << 1) | (1ULL << 39));
	// advance so the ring wraps; slots past the window must not leak
	for (u32 p = 0; p < 40; p++)
		r.recv(p);
	EXPECT_EQ(r.rx.cack, 40u);
	r.recv(41);
	s = r.sack(41);
	EXPECT_EQ(s.sack_bitmap, 1ULL << 1);
	// an invalid trigger names the last in-order PSN
	s = r.sack(0x1000000);
	EXPECT_EQ(s.ack_psn_offset, -1);
}

TEST(Rx, LargestWindow)
{
	Rx r(0, MRC_RX_WINDOW_MAX);

	for (u32 p = 1; p < MRC_RX_WINDOW_MAX; p++)
		r.recv(p);
	EXPECT_EQ(r.rx.held, MRC_RX_WINDOW_MAX - 1);
	EXPECT_EQ(r.sack(5).cc.ooo_count, MRC_RX_WINDOW_MAX - 1);
	EXPECT_EQ(r.recv(MRC_RX_WINDOW_MAX).verdict, MRC_RX_OUT_OF_WINDOW);
	mrc_rx_result res = r.recv(0);
	EXPECT_EQ(res.adv_count, MRC_RX_WINDOW_MAX);
	EXPECT_EQ(r.rx.held, 0u);
}

TEST(Rx, CoalescingPolicy)
{
	const mrc_rx_ack_policy every4 = {4, false, true, false};
	Rx r(0, 128, every4);

	EXPECT_FALSE(r.recv(0).sack_now);
	EXPECT_FALSE(r.recv(1).sack_now);
	EXPECT_TRUE(mrc_rx_sack_pending(&r.rx));
	EXPECT_FALSE(r.recv(2).sack_now);
	EXPECT_TRUE(r.recv(3).sack_now);
	r.sack(3);
	EXPECT_FALSE(mrc_rx_sack_pending(&r.rx));
	EXPECT_TRUE(r.recv(4, MRC_RXF_ACK_REQ).sack_now);
	r.sack(4);
	EXPECT_FALSE(r.recv(5, MRC_RXF_RTX).sack_now); // ack_rtx off
	EXPECT_FALSE(r.recv(7).sack_now);              // ack_ooo off
	r.rx.policy.ack_rtx = true;
	EXPECT_TRUE(r.recv(8, MRC_RXF_RTX).sack_now);
	r.sack(8);
	r.rx.policy.ack_ooo = true;
	EXPECT_TRUE(r.recv(10).sack_now); // creates a hole
	r.sack(10);
	EXPECT_TRUE(r.recv(6).sack_now); // fills a hole
	r.sack(6);
	r.rx.policy.ack_every = 0; // 0 means 1
	EXPECT_TRUE(r.recv(9).sack_now);
}

// Random arrival orders with duplicates against a simple model.
TEST(Rx, RandomAgainstModel)
{
	std::mt19937 rng(42);

	for (int round = 0; round < 20; round++) {
		u32 init = rng() & MRC_PSN_MASK;
		u32 window = 64 + rng() % 1000;
		Rx r(init, window, kAckAll);
		std::map<u32, bool> got; // offset from init
		u32 model_cack = 0, next_new = 0;

		for (int step = 0; step < 20000; step++) {
			// the sender never goes past cack + window
			u32 hi = std::min(next_new + 8, model_cack + window);
			u32 off = model_cack + rng() % (hi - model_cack);
			if (rng() % 10 == 0 && model_cack > 0)
				off = model_cack - 1 - rng() % std::min(model_cack, window);
			next_new = std::max(next_new, off + 1);
			u32 psn = mrc_psn_add(init, off);
			mrc_rx_result res = r.recv(psn, 0, init);
			bool dup = off < model_cack || got.count(off);

			ASSERT_EQ(res.verdict, dup ? MRC_RX_DUP : MRC_RX_NEW);
			if (off >= model_cack)
				got[off] = true;
			while (got.count(model_cack))
				got.erase(model_cack++);
			ASSERT_EQ(r.rx.cack, mrc_psn_add(init, model_cack));
			ASSERT_EQ(r.rx.held, got.size());
			ASSERT_EQ(r.rx.deliver_off, 100ULL * model_cack);

			mrc_sack s = r.sack(psn);
			u32 base = mrc_psn_add(s.cack_psn, (u32)(s32)s.sack_offset);
			for (u32 i = 0; i < 64; i++) {
				u32 o = model_cack + mrc_psn_sub(base, s.cack_psn) + i;
				ASSERT_EQ(!!(s.sack_bitmap & (1ULL << i)), got.count(o) == 1);
			}
			ASSERT_EQ(mrc_psn_add(s.cack_psn, (u32)(s32)s.ack_psn_offset), psn);
		}
	}
}

} // namespace
