// SPDX-License-Identifier: GPL-2.0
// Failure policy: defaults, validation of every field, timeout budget.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>

#include "mrc_policy.h"

namespace {

struct mrc_policy Defaults()
{
	struct mrc_policy p;

	mrc_policy_default(&p);
	return p;
}

// Mutates one field, expects rejection with a message naming the field.
void ExpectBad(const std::function<void(struct mrc_policy &)> &mutate, const char *field)
{
	struct mrc_policy p = Defaults();
	const char *msg = nullptr;

	mutate(p);
	EXPECT_EQ(mrc_policy_validate(&p, &msg), -EINVAL) << field;
	ASSERT_NE(msg, nullptr) << field;
	EXPECT_NE(std::string(msg).find(field), std::string::npos)
	    << msg << " should name " << field;
}

void ExpectGood(const std::function<void(struct mrc_policy &)> &mutate)
{
	struct mrc_policy p = Defaults();
	const char *msg = nullptr;

	mutate(p);
	EXPECT_EQ(mrc_policy_validate(&p, &msg), 0) << (msg ? msg : "");
}

} // namespace

TEST(Policy, DefaultsAreValidAndSane)
{
	struct mrc_policy p = Defaults();
	const char *msg = "untouched";

	EXPECT_EQ(mrc_policy_validate(&p, &msg), 0);
	EXPECT_STREQ(msg, "untouched");
	EXPECT_EQ(p.rto_min_ns, 2 * MRC_NSEC_PER_MSEC);
	EXPECT_GE(p.rto_max_ns, 200 * MRC_NSEC_PER_MSEC);
	EXPECT_LE(p.rto_max_ns, 1 * MRC_NSEC_PER_SEC);
	EXPECT_TRUE(p.ecn_response);
	EXPECT_GE(p.max_paths, p.min_active);
	EXPECT_LT(p.backups, p.max_paths);
}

TEST(Policy, DefaultBudgetIsThreeToFiveSeconds)
{
	struct mrc_policy p = Defaults();
	u64 b = mrc_policy_timeout_budget(&p);

	EXPECT_GE(b, 3 * MRC_NSEC_PER_SEC);
	EXPECT_LE(b, 5 * MRC_NSEC_PER_SEC);
}

TEST(Policy, BudgetDoublesThenClamps)
{
	struct mrc_policy p = Defaults();

	p.rto_min_ns = 1 * MRC_NSEC_PER_MSEC;
	p.rto_max_ns = 4 * MRC_NSEC_PER_MSEC;
	p.retry_limit = 4;
	// 1 + 2 + 4 + 4 + 4 ms
	EXPECT_EQ(mrc_policy_timeout_budget(&p), 15 * MRC_NSEC_PER_MSEC);
}

TEST(Policy, NullMessageIsAllowed)
{
	struct mrc_policy p = Defaults();

	p.retry_limit = 0;
	EXPECT_EQ(mrc_policy_validate(&p, nullptr), -EINVAL);
}

TEST(Policy, RtoMin)
{
	ExpectBad([](auto &p) { p.rto_min_ns = 49 * MRC_NSEC_PER_USEC; }, "rto_min");
	ExpectBad([](auto &p) { p.rto_min_ns = 11 * MRC_NSEC_PER_SEC; }, "rto_min");
	ExpectGood([](auto &p) { p.rto_min_ns = 50 * MRC_NSEC_PER_USEC; });
}

TEST(Policy, RtoMax)
{
	ExpectBad([](auto &p) { p.rto_max_ns = p.rto_min_ns - 1; }, "rto_max");
	ExpectBad([](auto &p) { p.rto_max_ns = 61 * MRC_NSEC_PER_SEC; }, "rto_max");
	ExpectGood([](auto &p) { p.rto_max_ns = p.rto_min_ns; });
}

TEST(Policy, RetryLimit)
{
	ExpectBad([](auto &p) { p.retry_limit = 0; }, "retry_limit");
	ExpectBad([](auto &p) { p.retry_limit = 101; }, "retry_limit");
	ExpectGood([](auto &p) { p.retry_limit = 100; });
}

TEST(Policy, ProbeInterval)
{
	ExpectBad([](auto &p) { p.probe_interval_ns = 99 * MRC_NSEC_PER_USEC; }, "probe_interval");
	ExpectBad([](auto &p) { p.probe_interval_ns = 11 * MRC_NSEC_PER_SEC; }, "probe_interval");
}

TEST(Policy, FailToBad)
{
	ExpectBad([](auto &p) { p.fail_to_bad = 0; }, "fail_to_bad");
	ExpectBad([](auto &p) { p.fail_to_bad = 65; }, "fail_to_bad");
	ExpectGood([](auto &p) { p.fail_to_bad = 1; });
}

TEST(Policy, SuccessToGood)
{
	ExpectBad([](auto &p) { p.success_to_good = 0; }, "success_to_good");
	ExpectBad([](auto &p) { p.success_to_good = 65; }, "success_to_good");
}

TEST(Policy, SkipTime)
{
	ExpectBad([](auto &p) { p.skip_ns = 0; }, "skip_time");
	ExpectBad([](auto &p) { p.skip_ns = 11 * MRC_NSEC_PER_SEC; }, "skip_time");
}

TEST(Policy, MaxPaths)
{
	ExpectBad([](auto &p) { p.max_paths = 0; }, "max_paths");
	ExpectBad([](auto &p) { p.max_paths = 1025; }, "max_paths");
	ExpectGood([](auto &p) { p.max_paths = 1024; });
}

TEST(Policy, Backups)
{
	ExpectBad([](auto &p) { p.backups = 65; }, "backups");
	ExpectBad(
	    [](auto &p) {
		    p.max_paths = 4;
		    p.min_active = 1;
		    p.backups = 4;
	    },
	    "backups");
	ExpectGood([](auto &p) { p.backups = 0; });
}

TEST(Policy, MinActive)
{
	ExpectBad([](auto &p) { p.min_active = 0; }, "min_active");
	ExpectBad([](auto &p) { p.min_active = p.max_paths + 1; }, "min_active");
	ExpectGood([](auto &p) { p.min_active = p.max_paths; });
}

TEST(Policy, SackGapThreshold)
{
	ExpectBad([](auto &p) { p.sack_gap_threshold = 0; }, "sack_gap_threshold");
	ExpectBad([](auto &p) { p.sack_gap_threshold = 65; }, "sack_gap_threshold");
}

TEST(Policy, KeepaliveTimesAndCount)
{
	EXPECT_TRUE(Defaults().keepalive);
	ExpectBad([](mrc_policy &p) { p.keepalive_idle_ns = 99 * MRC_NSEC_PER_MSEC; },
		  "keepalive_idle");
	ExpectGood([](mrc_policy &p) { p.keepalive_idle_ns = 100 * MRC_NSEC_PER_MSEC; });
	ExpectBad([](mrc_policy &p) { p.keepalive_idle_ns = 32768 * MRC_NSEC_PER_SEC; },
		  "keepalive_idle");
	ExpectBad([](mrc_policy &p) { p.keepalive_intvl_ns = 0; }, "keepalive_interval");
	ExpectGood([](mrc_policy &p) { p.keepalive_intvl_ns = 32767 * MRC_NSEC_PER_SEC; });
	ExpectBad([](mrc_policy &p) { p.keepalive_cnt = 0; }, "keepalive_count");
	ExpectBad([](mrc_policy &p) { p.keepalive_cnt = 128; }, "keepalive_count");
	ExpectGood([](mrc_policy &p) {
		p.keepalive_cnt = 127;
		p.keepalive = false;
	});
}

TEST(Policy, EcnResponseEitherWay)
{
	ExpectGood([](auto &p) { p.ecn_response = false; });
}
