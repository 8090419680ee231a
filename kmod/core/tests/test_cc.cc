// SPDX-License-Identifier: GPL-2.0
// Congestion control: registry, defaults, validation, fixed, and NSCC's
// four quadrants, fast increase, quick adapt, trims, receiver penalty,
// bounds.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "mrc_cc.h"

namespace {

constexpr u64 kUs = MRC_NSEC_PER_USEC;
constexpr u32 kMtu = 1000;
constexpr u64 kBase = 100 * kUs;

// Round numbers so every step can be checked exactly.
struct mrc_cc_params Params()
{
	struct mrc_cc_params p = {};

	p.mtu = kMtu;
	p.base_rtt_ns = kBase;
	p.target_delay_ns = 100 * kUs;
	p.max_cwnd = 100000;
	p.init_cwnd = 50000;
	p.eta = 100;
	p.fi = 1000;
	p.pi = 4000;
	p.fi_scale = 256;    // 0.25
	p.gamma = 819;       // 0.8
	p.max_md_jump = 512; // 0.5
	p.adjust_bytes_threshold = 8000;
	p.adjust_period_ns = 100 * kUs;
	p.qa_gate = 3; // max_cwnd / 8 = 12500
	p.qa_threshold_ns = 400 * kUs;
	return p;
}

class Nscc : public ::testing::Test {
protected:
	void SetUp() override { Start(Params()); }

	void Start(const struct mrc_cc_params &p)
	{
		const char *msg = nullptr;

		ASSERT_EQ(mrc_cc_params_validate(&p, &msg), 0) << msg;
		mrc_cc_init(&cc, &mrc_cc_nscc_ops, &p, 0);
	}

	// One ack of kMtu bytes at @now with queueing delay @delay.
	void Ack(u64 now, u64 delay, bool ecn, u64 inflight = 40000, u8 pen = 0)
	{
		struct mrc_cc_ack a = {};

		a.now = now;
		a.rtt_ns = kBase + delay;
		a.inflight = inflight;
		a.acked_bytes = kMtu;
		a.rcv_pen = pen;
		a.ecn = ecn;
		mrc_cc_on_ack(&cc, &a);
	}

	u64 Cwnd() { return mrc_cc_cwnd(&cc); }

	struct mrc_cc cc;
};

} // namespace

TEST(Cc, FindByName)
{
	EXPECT_EQ(mrc_cc_find("nscc"), &mrc_cc_nscc_ops);
	EXPECT_EQ(mrc_cc_find("fixed"), &mrc_cc_fixed_ops);
	EXPECT_EQ(mrc_cc_find(nullptr), &mrc_cc_nscc_ops);
	EXPECT_EQ(mrc_cc_find(""), &mrc_cc_nscc_ops);
	EXPECT_EQ(mrc_cc_find("cubic"), nullptr);
	EXPECT_STREQ(mrc_cc_name(0), "nscc");
	EXPECT_STREQ(mrc_cc_name(1), "fixed");
	EXPECT_EQ(mrc_cc_name(2), nullptr);
	for (u32 i = 0; mrc_cc_name(i); i++)
		EXPECT_LT(strlen(mrc_cc_name(i)), (size_t)MRC_CC_NAME_MAX);
}

TEST(Cc, NullOpsSelectsDefault)
{
	struct mrc_cc_params p = Params();
	struct mrc_cc cc;

	mrc_cc_init(&cc, nullptr, &p, 0);
	EXPECT_EQ(cc.ops, &mrc_cc_nscc_ops);
	EXPECT_EQ(mrc_cc_cwnd(&cc), 50000U);
}

TEST(Cc, DefaultsOnReferenceNetworkMatchUec)
{
	struct mrc_cc_params p;

	// 100 Gb/s x 12 us = 150 kB: scaling factor 1.
	mrc_cc_params_default(&p, 4096, 12 * kUs, 100000000000ULL);
	EXPECT_EQ(p.max_cwnd, 225000U); // 1.5 BDP
	EXPECT_EQ(p.init_cwnd, p.max_cwnd);
	EXPECT_EQ(p.fi, 5U * 4096);
	EXPECT_EQ(p.pi, 4U * 4096);
	EXPECT_EQ(p.eta, 15U * 4096 / 100);
	EXPECT_EQ(p.fi_scale, MRC_CC_FRAC_ONE / 4);
	EXPECT_EQ(p.gamma, 819U);
	EXPECT_EQ(p.max_md_jump, MRC_CC_FRAC_ONE / 2);
	EXPECT_EQ(p.target_delay_ns, 12 * kUs);
	EXPECT_EQ(p.qa_threshold_ns, 48 * kUs);
	EXPECT_EQ(p.adjust_bytes_threshold, 8U * 4096);
	EXPECT_EQ(p.qa_gate, 3U);
	EXPECT_EQ(mrc_cc_params_validate(&p, nullptr), 0);
}

TEST(Cc, DefaultsForAVm)
{
	struct mrc_cc_params p;

	mrc_cc_params_default(&p, 1400, 500 * kUs, 1000000000ULL);
	EXPECT_EQ(p.max_cwnd, 93750U); // 1.5 x 62.5 kB
	EXPECT_EQ(mrc_cc_params_validate(&p, nullptr), 0);
	// Tiny network: the window still holds two packets, knobs >= 1.
	mrc_cc_params_default(&p, 1400, 1 * kUs, 1000);
	EXPECT_EQ(p.max_cwnd, 2800U);
	EXPECT_GE(p.eta, 1U);
	EXPECT_GE(p.fi_scale, 1U);
	EXPECT_EQ(mrc_cc_params_validate(&p, nullptr), 0);
}

namespace {

void ExpectBadParam(const std::function<void(struct mrc_cc_params &)> &f, const char *field)
{
	struct mrc_cc_params p = Params();
	const char *msg = nullptr;

	f(p);
	EXPECT_EQ(mrc_cc_params_validate(&p, &msg), -EINVAL) << field;
	ASSERT_NE(msg, nullptr);
	EXPECT_NE(std::string(msg).find(field), std::string::npos) << msg;
}

} // namespace

TEST(Cc, ValidateEachField)
{
	ExpectBadParam([](auto &p) { p.mtu = 63; }, "mtu");
	ExpectBadParam([](auto &p) { p.mtu = 65536; }, "mtu");
	ExpectBadParam([](auto &p) { p.base_rtt_ns = 0; }, "base_rtt");
	ExpectBadParam([](auto &p) { p.target_delay_ns = 0; }, "target_delay");
	ExpectBadParam([](auto &p) { p.max_cwnd = kMtu - 1; }, "max_cwnd");
	ExpectBadParam([](auto &p) { p.init_cwnd = p.max_cwnd + 1; }, "init_cwnd");
	ExpectBadParam([](auto &p) { p.fi_scale = 16 * 1024 + 1; }, "fi_scale");
	ExpectBadParam([](auto &p) { p.gamma = 1025; }, "gamma");
	ExpectBadParam([](auto &p) { p.max_md_jump = 0; }, "max_md_jump");
	ExpectBadParam([](auto &p) { p.adjust_bytes_threshold = 0; }, "adjust_bytes_threshold");
	ExpectBadParam([](auto &p) { p.adjust_period_ns = 0; }, "adjust_period");
	ExpectBadParam([](auto &p) { p.qa_gate = 32; }, "qa_gate");
}

TEST(Cc, FixedNeverMoves)
{
	struct mrc_cc_params p = Params();
	struct mrc_cc cc;
	struct mrc_cc_ack a = {};

	p.init_cwnd = 30000;
	mrc_cc_init(&cc, mrc_cc_find("fixed"), &p, 0);
	EXPECT_EQ(mrc_cc_cwnd(&cc), 30000U);
	a.acked_bytes = 1000;
	a.rtt_ns = 10 * kBase;
	a.ecn = true;
	a.rcv_pen = 127;
	for (int i = 0; i < 100; i++) {
		a.now = i * kUs;
		mrc_cc_on_ack(&cc, &a);
	}
	mrc_cc_on_loss(&cc, 20000, 0, 500 * kUs);
	mrc_cc_on_trim(&cc, 1000, 0, 600 * kUs, false);
	EXPECT_EQ(mrc_cc_cwnd(&cc), 30000U);
}

TEST_F(Nscc, StartsAtInitCwnd)
{
	EXPECT_EQ(Cwnd(), 50000U);
}

TEST_F(Nscc, NoEcnLowDelayProportionalIncrease)
{
	// delay 50 us of a 100 us target: pi/2 = 2000 bytes per RTT.
	for (int i = 1; i <= 9; i++)
		Ack(i * kUs, 50 * kUs, false);
	// 9 acks > 8000 bytes: inc = 9 x 1000 x 2000, / cwnd 50000 = 360.
	EXPECT_EQ(Cwnd(), 50360U);
}

TEST_F(Nscc, ProportionalIncreaseShrinksNearTarget)
{
	for (int i = 1; i <= 9; i++)
		Ack(i * kUs, 90 * kUs, false);
	EXPECT_EQ(Cwnd(), 50000U + 9 * 1000 * 400 / 50000);
}

TEST_F(Nscc, NoEcnHighDelayFairIncrease)
{
	for (int i = 1; i <= 9; i++)
		Ack(i * kUs, 150 * kUs, false);
	// fi = 1000 bytes per RTT: 9 x 1000 x 1000 / 50000 = 180.
	EXPECT_EQ(Cwnd(), 50180U);
}

TEST_F(Nscc, EcnHighDelayMultiplicativeDecrease)
{
	// avg delay 150 us: cut = 0.8 x 50/150 = 273/1024.
	Ack(150 * kUs, 150 * kUs, true);
	EXPECT_EQ(Cwnd(), 50000U - (50000U * 273 >> 10));
	u64 w = Cwnd();

	// At most once per base RTT.
	Ack(200 * kUs, 150 * kUs, true);
	EXPECT_EQ(Cwnd(), w);
}

TEST_F(Nscc, DecreaseCappedByMaxMdJump)
{
	Ack(150 * kUs, 10000 * kUs, true);
	EXPECT_EQ(Cwnd(), 25000U);
}

TEST_F(Nscc, EcnLowDelayHolds)
{
	for (int i = 1; i <= 150; i++)
		Ack(i * kUs, 20 * kUs, true);
	EXPECT_EQ(Cwnd(), 50000U) << "no increase, no eta, no decrease";
}

TEST_F(Nscc, EtaAddedPerAdjustPeriodWhileIncreasing)
{
	// One ack per period, below the bytes threshold: only eta moves.
	struct mrc_cc_params p = Params();

	p.pi = 1;
	p.fi = 1;
	Start(p);
	Ack(100 * kUs, 150 * kUs, false);
	EXPECT_EQ(Cwnd(), 50000U + 100);
}

TEST_F(Nscc, FastIncreaseOnClearPath)
{
	u64 t = 0;

	for (int i = 0; i < 200; i++)
		Ack(t += kUs, 0, false);
	EXPECT_GT(Cwnd(), 85000U);
	EXPECT_LE(Cwnd(), 100000U);
	for (int i = 0; i < 200; i++)
		Ack(t += kUs, 0, false);
	EXPECT_EQ(Cwnd(), 100000U) << "bounded by max_cwnd";
}

TEST_F(Nscc, BaseRttFollowsMinimum)
{
	struct mrc_cc_ack a = {};

	a.now = 10 * kUs;
	a.rtt_ns = 60 * kUs; // below the configured 100 us
	a.acked_bytes = kMtu;
	mrc_cc_on_ack(&cc, &a);
	// Now 100 us RTT is 40 us of delay: proportional, not fair.
	for (int i = 2; i <= 9; i++) {
		a.now = i * 10 * kUs;
		a.rtt_ns = 100 * kUs;
		mrc_cc_on_ack(&cc, &a);
	}
	// 1 ack at zero delay (pi 4000, but fi_count only), 8 at 40 us (2400).
	EXPECT_GT(Cwnd(), 50000U);
}

TEST_F(Nscc, AckWithoutRttOnlyCounts)
{
	struct mrc_cc_ack a = {};

	a.now = 10 * kUs;
	a.acked_bytes = 100000;
	mrc_cc_on_ack(&cc, &a);
	EXPECT_EQ(Cwnd(), 50000U);
}

TEST_F(Nscc, QuickAdaptOnLoss)
{
	// Little delivered in the first window (5 kB < 100 kB / 8).
	for (int i = 1; i <= 5; i++)
		Ack(i * 10 * kUs, 150 * kUs, false);
	u64 before = Cwnd();

	mrc_cc_on_loss(&cc, kMtu, 30000, 250 * kUs);
	EXPECT_EQ(Cwnd(), 5000U) << "window = bytes delivered";
	EXPECT_LT(Cwnd(), before);
	// ECN marks of the bytes already in flight are not acted on again.
	Ack(260 * kUs, 300 * kUs, true);
	EXPECT_EQ(Cwnd(), 5000U);
}

TEST_F(Nscc, LossWithGoodDeliveryOnlyShrinks)
{
	// 20 kB delivered >= 12.5 kB gate: no quick adapt, shrink by loss.
	for (int i = 1; i <= 20; i++)
		Ack(i * 5 * kUs, 20 * kUs, true);
	ASSERT_EQ(Cwnd(), 50000U);
	mrc_cc_on_loss(&cc, 3000, 30000, 250 * kUs);
	EXPECT_EQ(Cwnd(), 47000U);
}

TEST_F(Nscc, LossBeforeWindowEndDefersQuickAdapt)
{
	Ack(10 * kUs, 20 * kUs, true);
	mrc_cc_on_loss(&cc, 1000, 30000, 50 * kUs);
	EXPECT_EQ(Cwnd(), 49000U) << "shrunk, quick adapt armed";
	Ack(250 * kUs, 20 * kUs, true);
	EXPECT_EQ(Cwnd(), 2000U) << "fires at the window end";
}

TEST_F(Nscc, QuickAdaptOnExplodingDelay)
{
	Ack(10 * kUs, 20 * kUs, false);
	Ack(250 * kUs, 500 * kUs, false); // > qa_threshold 400 us
	EXPECT_EQ(Cwnd(), 2000U);
}

TEST_F(Nscc, TrimQuickAdaptsOrShrinks)
{
	mrc_cc_on_trim(&cc, kMtu, 30000, 50 * kUs, false);
	EXPECT_EQ(Cwnd(), 49000U);
	mrc_cc_on_trim(&cc, kMtu, 30000, 60 * kUs, true);
	EXPECT_EQ(Cwnd(), 48000U) << "last-hop trims also slow the sender";
	mrc_cc_on_trim(&cc, kMtu, 30000, 250 * kUs, false);
	EXPECT_EQ(Cwnd(), (u64)kMtu) << "quick adapt: nothing delivered";
}

TEST_F(Nscc, ReceiverPenalty)
{
	Ack(10 * kUs, 0, false, 20000, 64);
	// min(cwnd, inflight) = 20000, then - 64/128 of the acked bytes.
	EXPECT_EQ(Cwnd(), 19500U);
	Ack(20 * kUs, 0, false, 20000, 255); // clamped to 127
	EXPECT_EQ(Cwnd(), 19500U - (127 * 1000 >> 7));
}

TEST_F(Nscc, NeverBelowOnePacket)
{
	for (int i = 0; i < 100; i++)
		mrc_cc_on_loss(&cc, 1000000, 0, i * kUs);
	EXPECT_EQ(Cwnd(), (u64)kMtu);
	Ack(150 * kUs, 0, false, 0, 127);
	EXPECT_EQ(Cwnd(), (u64)kMtu);
}

TEST_F(Nscc, InitClampsWindow)
{
	struct mrc_cc_params p = Params();
	struct mrc_cc c2;

	p.init_cwnd = p.mtu;
	mrc_cc_init(&c2, &mrc_cc_nscc_ops, &p, 0);
	EXPECT_EQ(mrc_cc_cwnd(&c2), (u64)kMtu);
}
