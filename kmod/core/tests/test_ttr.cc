// SPDX-License-Identifier: GPL-2.0
// Time to recovery: episodes, nesting, PSN wrap, counters, histogram.
#include <gtest/gtest.h>

#include "mrc_ttr.h"

namespace {

constexpr u64 kUs = MRC_NSEC_PER_USEC;

struct mrc_ttr Make()
{
	struct mrc_ttr t;

	mrc_ttr_init(&t);
	return t;
}

} // namespace

TEST(Ttr, SingleEpisode)
{
	struct mrc_ttr t = Make();
	u64 ttr = 0;

	EXPECT_FALSE(mrc_ttr_on_cack(&t, 100, 5 * kUs, &ttr));
	mrc_ttr_on_loss(&t, 10, 1000 * kUs);
	EXPECT_TRUE(t.open);
	EXPECT_FALSE(mrc_ttr_on_cack(&t, 9, 1100 * kUs, &ttr));
	EXPECT_TRUE(mrc_ttr_on_cack(&t, 10, 1300 * kUs, &ttr));
	EXPECT_EQ(ttr, 300 * kUs);
	EXPECT_FALSE(t.open);
	EXPECT_EQ(t.episodes, 1U);
	EXPECT_EQ(t.total_ns, 300 * kUs);
	EXPECT_EQ(t.max_ns, 300 * kUs);
	EXPECT_EQ(t.last_ns, 300 * kUs);
	EXPECT_EQ(t.hist[mrc_ttr_bucket(300 * kUs)], 1U);
	// A later ack does not close anything again.
	EXPECT_FALSE(mrc_ttr_on_cack(&t, 20, 1400 * kUs, nullptr));
}

TEST(Ttr, NestedLossExtendsEpisode)
{
	struct mrc_ttr t = Make();
	u64 ttr = 0;

	mrc_ttr_on_loss(&t, 10, 0);
	mrc_ttr_on_loss(&t, 50, 100 * kUs); // beyond: extends
	mrc_ttr_on_loss(&t, 30, 150 * kUs); // inside: no change
	EXPECT_EQ(t.psn, 50U);
	EXPECT_EQ(t.losses, 3U);
	EXPECT_FALSE(mrc_ttr_on_cack(&t, 10, 200 * kUs, &ttr));
	EXPECT_FALSE(mrc_ttr_on_cack(&t, 49, 300 * kUs, &ttr));
	EXPECT_TRUE(mrc_ttr_on_cack(&t, 60, 400 * kUs, &ttr));
	EXPECT_EQ(ttr, 400 * kUs) << "t0 is the first detection";
	EXPECT_EQ(t.episodes, 1U);
}

TEST(Ttr, SuccessiveEpisodesAccumulate)
{
	struct mrc_ttr t = Make();

	mrc_ttr_on_loss(&t, 1, 0);
	mrc_ttr_on_cack(&t, 1, 10 * kUs, nullptr);
	mrc_ttr_on_loss(&t, 5, 100 * kUs);
	mrc_ttr_on_cack(&t, 5, 130 * kUs, nullptr);
	EXPECT_EQ(t.episodes, 2U);
	EXPECT_EQ(t.total_ns, 40 * kUs);
	EXPECT_EQ(t.max_ns, 30 * kUs);
	EXPECT_EQ(t.last_ns, 30 * kUs);
}

TEST(Ttr, PsnWrap)
{
	struct mrc_ttr t = Make();

	mrc_ttr_on_loss(&t, 0xfffffe, 0);
	mrc_ttr_on_loss(&t, 0x000002, 1 * kUs); // after the wrap: extends
	EXPECT_EQ(t.psn, 2U);
	EXPECT_FALSE(mrc_ttr_on_cack(&t, 0xffffff, 2 * kUs, nullptr));
	EXPECT_FALSE(mrc_ttr_on_cack(&t, 0x000001, 3 * kUs, nullptr));
	EXPECT_TRUE(mrc_ttr_on_cack(&t, 0x000002, 4 * kUs, nullptr));
}

TEST(Ttr, AbortDropsEpisode)
{
	struct mrc_ttr t = Make();

	mrc_ttr_abort(&t);
	EXPECT_EQ(t.aborted, 0U);
	mrc_ttr_on_loss(&t, 7, 0);
	mrc_ttr_abort(&t);
	EXPECT_FALSE(t.open);
	EXPECT_EQ(t.aborted, 1U);
	EXPECT_EQ(t.episodes, 0U);
	EXPECT_FALSE(mrc_ttr_on_cack(&t, 7, 10, nullptr));
}

TEST(Ttr, ClockNotMonotonicGivesZero)
{
	struct mrc_ttr t = Make();
	u64 ttr = 1;

	mrc_ttr_on_loss(&t, 1, 100);
	EXPECT_TRUE(mrc_ttr_on_cack(&t, 1, 50, &ttr));
	EXPECT_EQ(ttr, 0U);
	EXPECT_EQ(t.hist[0], 1U);
}

TEST(Ttr, BucketBoundaries)
{
	EXPECT_EQ(mrc_ttr_bucket(0), 0U);
	EXPECT_EQ(mrc_ttr_bucket(999), 0U);
	EXPECT_EQ(mrc_ttr_bucket(1 * kUs), 1U);
	EXPECT_EQ(mrc_ttr_bucket(2 * kUs - 1), 1U);
	EXPECT_EQ(mrc_ttr_bucket(2 * kUs), 2U);
	EXPECT_EQ(mrc_ttr_bucket(3 * kUs), 2U);
	EXPECT_EQ(mrc_ttr_bucket(4 * kUs), 3U);
	EXPECT_EQ(mrc_ttr_bucket(1000 * kUs), 10U); // [512, 1024) us
	EXPECT_EQ(mrc_ttr_bucket(1024 * kUs), 11U);
	EXPECT_EQ(mrc_ttr_bucket(~0ULL), (u32)MRC_TTR_BUCKETS - 1);
	for (u32 b = 1; b < MRC_TTR_BUCKETS; b++) {
		u64 lo = mrc_ttr_bucket_floor_us(b);

		EXPECT_EQ(mrc_ttr_bucket(lo * kUs), b);
		if (b > 1) {
			EXPECT_EQ(mrc_ttr_bucket(lo * kUs - 1), b - 1);
		}
	}
	EXPECT_EQ(mrc_ttr_bucket_floor_us(0), 0U);
	EXPECT_EQ(mrc_ttr_bucket_floor_us(100), mrc_ttr_bucket_floor_us(MRC_TTR_BUCKETS - 1));
}

TEST(Ttr, HistogramCountsEachEpisode)
{
	struct mrc_ttr t = Make();
	const u64 durations[] = {500, 3 * kUs, 3 * kUs, 700 * kUs, 10 * MRC_NSEC_PER_SEC};
	u64 now = 0;
	u32 psn = 0;

	for (u64 d : durations) {
		mrc_ttr_on_loss(&t, psn, now);
		now += d;
		mrc_ttr_on_cack(&t, psn, now, nullptr);
		psn++;
	}
	EXPECT_EQ(t.hist[0], 1U);
	EXPECT_EQ(t.hist[2], 2U);
	EXPECT_EQ(t.hist[10], 1U);
	EXPECT_EQ(t.hist[MRC_TTR_BUCKETS - 1], 1U);
	u64 sum = 0;

	for (u64 h : t.hist)
		sum += h;
	EXPECT_EQ(sum, t.episodes);
}
