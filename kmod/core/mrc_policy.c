// SPDX-License-Identifier: GPL-2.0
/*
 * Failure policy defaults and validation.
 *
 * The defaults suit a software transport on virtual machines, where a
 * round trip is 0.3 to 2 ms with spikes to ~7 ms: timers that fire well
 * before TCP's 200 ms floor, yet not so early that scheduling jitter alone
 * retransmits. Documentation/path-state-machine.md gives the reasoning for
 * each value.
 */
#include "mrc_policy.h"

void mrc_policy_default(struct mrc_policy *p)
{
	memset(p, 0, sizeof(*p));
	/* Above VM jitter; a hardware NIC would go to tens of microseconds. */
	p->rto_min_ns = 2 * MRC_NSEC_PER_MSEC;
	/* Bounded backoff: a silent fabric is retried twice a second. */
	p->rto_max_ns = 500 * MRC_NSEC_PER_MSEC;
	/* 2+4+...+256 ms, then 8 x 500 ms: about 4.5 s before ETIMEDOUT. */
	p->retry_limit = 15;
	p->probe_interval_ns = 5 * MRC_NSEC_PER_MSEC;
	/* Two losses in a row on one path: one random drop is not a fault. */
	p->fail_to_bad = 2;
	/* Three probes over >= 10 ms before a path carries data again. */
	p->success_to_good = 3;
	/* About one rotation of 64 paths at 1 Gb/s with 1500 B packets. */
	p->skip_ns = 1 * MRC_NSEC_PER_MSEC;
	p->min_active = 4;
	p->max_paths = 64;
	p->backups = 2;
	p->sack_gap_threshold = 8;
	p->ecn_response = true;
	/* An idle connection to a host that vanished learns it within
	 * 60 + 3 x 10 s: one small probe a minute per idle connection.
	 */
	p->keepalive = true;
	p->keepalive_idle_ns = 60 * MRC_NSEC_PER_SEC;
	p->keepalive_intvl_ns = 10 * MRC_NSEC_PER_SEC;
	p->keepalive_cnt = 3;
}

static bool mrc_in_range(u64 v, u64 lo, u64 hi)
{
	return v >= lo && v <= hi;
}

static int mrc_policy_reject(const char **msg, const char *why)
{
	if (msg)
		*msg = why;
	return -EINVAL;
}

int mrc_policy_validate(const struct mrc_policy *p, const char **msg)
{
	if (!mrc_in_range(p->rto_min_ns, MRC_POLICY_RTO_MIN_LO,
			  MRC_POLICY_RTO_MIN_HI))
		return mrc_policy_reject(msg,
					 "rto_min must be between 50 us and 10 s");
	if (!mrc_in_range(p->rto_max_ns, p->rto_min_ns, MRC_POLICY_RTO_MAX_HI))
		return mrc_policy_reject(msg,
					 "rto_max must be between rto_min and 60 s");
	if (!mrc_in_range(p->retry_limit, 1, MRC_POLICY_RETRY_LIMIT_MAX))
		return mrc_policy_reject(msg,
					 "retry_limit must be between 1 and 100");
	if (!mrc_in_range(p->probe_interval_ns, MRC_POLICY_PROBE_IVL_LO,
			  MRC_POLICY_PROBE_IVL_HI))
		return mrc_policy_reject(msg,
					 "probe_interval must be between 100 us and 10 s");
	if (!mrc_in_range(p->fail_to_bad, 1, MRC_POLICY_COUNT_MAX))
		return mrc_policy_reject(msg,
					 "fail_to_bad must be between 1 and 64");
	if (!mrc_in_range(p->success_to_good, 1, MRC_POLICY_COUNT_MAX))
		return mrc_policy_reject(msg,
					 "success_to_good must be between 1 and 64");
	if (!mrc_in_range(p->skip_ns, MRC_POLICY_SKIP_LO, MRC_POLICY_SKIP_HI))
		return mrc_policy_reject(msg,
					 "skip_time must be between 10 us and 10 s");
	if (!mrc_in_range(p->max_paths, 1, MRC_POLICY_MAX_PATHS_MAX))
		return mrc_policy_reject(msg,
					 "max_paths must be between 1 and 1024");
	if (p->backups > MRC_POLICY_BACKUPS_MAX || p->backups >= p->max_paths)
		return mrc_policy_reject(msg,
					 "backups must be at most 64 and below max_paths");
	if (!mrc_in_range(p->min_active, 1, p->max_paths))
		return mrc_policy_reject(msg,
					 "min_active must be between 1 and max_paths");
	if (!mrc_in_range(p->sack_gap_threshold, 1, MRC_POLICY_SACK_GAP_MAX))
		return mrc_policy_reject(msg,
					 "sack_gap_threshold must be between 1 and 64");
	if (!mrc_in_range(p->keepalive_idle_ns, MRC_POLICY_KA_TIME_LO,
			  MRC_POLICY_KA_TIME_HI))
		return mrc_policy_reject(msg,
					 "keepalive_idle must be between 100 ms and 32767 s");
	if (!mrc_in_range(p->keepalive_intvl_ns, MRC_POLICY_KA_TIME_LO,
			  MRC_POLICY_KA_TIME_HI))
		return mrc_policy_reject(msg,
					 "keepalive_interval must be between 100 ms and 32767 s");
	if (!mrc_in_range(p->keepalive_cnt, 1, MRC_POLICY_KA_COUNT_MAX))
		return mrc_policy_reject(msg,
					 "keepalive_count must be between 1 and 127");
	return 0;
}

u64 mrc_policy_timeout_budget(const struct mrc_policy *p)
{
	u64 rto = p->rto_min_ns;
	u64 total = 0;
	u32 i;

	for (i = 0; i <= p->retry_limit; i++) {
		total += rto;
		rto = min(rto * 2, p->rto_max_ns);
	}
	return total;
}
