// SPDX-License-Identifier: GPL-2.0
// RTT estimation (RFC 6298 in integer ns), RTO clamps and bounded backoff.
#include <gtest/gtest.h>

#include "mrc_rtt.h"

namespace {

constexpr u64 kMs = MRC_NSEC_PER_MSEC;
constexpr u64 kUs = MRC_NSEC_PER_USEC;

struct mrc_rtt Make(u64 lo = 2 * kMs, u64 hi = 500 * kMs)
{
	struct mrc_rtt r;

	mrc_rtt_init(&r, lo, hi);
	return r;
}

} // namespace

TEST(Rtt, InitialRtoBeforeAnySample)
{
	struct mrc_rtt r = Make();

	EXPECT_EQ(mrc_rtt_rto(&r), MRC_RTT_INITIAL_RTO_NS);
	r = Make(2 * kMs, 50 * kMs);
	EXPECT_EQ(mrc_rtt_rto(&r), 50 * kMs);
	r = Make(200 * kMs, 500 * kMs);
	EXPECT_EQ(mrc_rtt_rto(&r), 200 * kMs);
}

TEST(Rtt, FirstSample)
{
	struct mrc_rtt r = Make(100 * kUs, 500 * kMs);

	mrc_rtt_sample(&r, 1 * kMs);
	EXPECT_EQ(r.srtt_ns, 1 * kMs);
	EXPECT_EQ(r.rttvar_ns, 500 * kUs);
	EXPECT_EQ(r.min_rtt_ns, 1 * kMs);
	EXPECT_EQ(r.samples, 1U);
	// srtt + 4 rttvar = 3 ms
	EXPECT_EQ(mrc_rtt_rto(&r), 3 * kMs);
}

TEST(Rtt, Rfc6298Update)
{
	struct mrc_rtt r = Make(100 * kUs, 500 * kMs);

	mrc_rtt_sample(&r, 800 * kUs);  // srtt 800, var 400
	mrc_rtt_sample(&r, 1600 * kUs); // |d| = 800
	EXPECT_EQ(r.rttvar_ns, 400 * kUs - 100 * kUs + 200 * kUs);
	EXPECT_EQ(r.srtt_ns, 800 * kUs - 100 * kUs + 200 * kUs);
	EXPECT_EQ(r.latest_ns, 1600 * kUs);
	mrc_rtt_sample(&r, 200 * kUs);
	EXPECT_EQ(r.min_rtt_ns, 200 * kUs);
}

TEST(Rtt, ZeroSampleIgnored)
{
	struct mrc_rtt r = Make();

	mrc_rtt_sample(&r, 0);
	EXPECT_EQ(r.samples, 0U);
	EXPECT_EQ(mrc_rtt_rto(&r), MRC_RTT_INITIAL_RTO_NS);
}

TEST(Rtt, RtoFloorAndCeiling)
{
	struct mrc_rtt r = Make(2 * kMs, 20 * kMs);

	for (int i = 0; i < 50; i++)
		mrc_rtt_sample(&r, 100 * kUs);
	EXPECT_EQ(mrc_rtt_base_rto(&r), 2 * kMs);
	for (int i = 0; i < 50; i++)
		mrc_rtt_sample(&r, 30 * kMs);
	EXPECT_EQ(mrc_rtt_base_rto(&r), 20 * kMs);
}

TEST(Rtt, BackoffDoublesUpToMax)
{
	struct mrc_rtt r = Make(2 * kMs, 50 * kMs);

	mrc_rtt_sample(&r, 400 * kUs); // rto = 0.4 + 0.8 -> floor 2 ms
	ASSERT_EQ(mrc_rtt_rto(&r), 2 * kMs);
	EXPECT_EQ(mrc_rtt_backoff(&r), 4 * kMs);
	EXPECT_EQ(mrc_rtt_backoff(&r), 8 * kMs);
	EXPECT_EQ(mrc_rtt_backoff(&r), 16 * kMs);
	EXPECT_EQ(mrc_rtt_backoff(&r), 32 * kMs);
	EXPECT_EQ(mrc_rtt_backoff(&r), 50 * kMs);
	u32 b = r.backoff;
	for (int i = 0; i < 100; i++)
		EXPECT_EQ(mrc_rtt_backoff(&r), 50 * kMs);
	EXPECT_EQ(r.backoff, b) << "backoff stops growing at the ceiling";
	EXPECT_LE(r.backoff, (u32)MRC_RTT_MAX_BACKOFF);
}

TEST(Rtt, BackoffBoundedEvenWithHugeCeiling)
{
	struct mrc_rtt r = Make(50 * kUs, 60 * MRC_NSEC_PER_SEC);

	mrc_rtt_sample(&r, 1 * kUs);
	for (int i = 0; i < 200; i++)
		mrc_rtt_backoff(&r);
	EXPECT_LE(r.backoff, (u32)MRC_RTT_MAX_BACKOFF);
	EXPECT_LE(mrc_rtt_rto(&r), 60 * MRC_NSEC_PER_SEC);
}

TEST(Rtt, SampleOrResetCancelsBackoff)
{
	struct mrc_rtt r = Make(2 * kMs, 500 * kMs);

	mrc_rtt_sample(&r, 1 * kMs);
	mrc_rtt_backoff(&r);
	mrc_rtt_backoff(&r);
	EXPECT_EQ(r.backoff, 2U);
	mrc_rtt_sample(&r, 1 * kMs);
	EXPECT_EQ(r.backoff, 0U);
	mrc_rtt_backoff(&r);
	mrc_rtt_reset_backoff(&r);
	EXPECT_EQ(mrc_rtt_rto(&r), mrc_rtt_base_rto(&r));
}

TEST(Rtt, SetBoundsKeepsMaxAboveMin)
{
	struct mrc_rtt r = Make();

	mrc_rtt_set_bounds(&r, 10 * kMs, 5 * kMs);
	EXPECT_EQ(r.rto_max_ns, 10 * kMs);
	EXPECT_EQ(mrc_rtt_rto(&r), 10 * kMs);
}
