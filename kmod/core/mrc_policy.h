/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Failure policy: how fast MRC declares a packet, a path or a connection
 * lost, and how it brings paths back. A policy is a plain struct of knobs
 * with documented defaults and one validator; the kernel keeps named
 * policies ("default" and any the operator adds over netlink) and copies
 * one into each connection when it is created.
 *
 * Every time is in nanoseconds. Documentation/path-state-machine.md
 * explains each knob and why its default was chosen.
 */
#ifndef _MRC_POLICY_H
#define _MRC_POLICY_H

#include "mrc_core_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bounds the validator enforces (inclusive). */
#define MRC_POLICY_RTO_MIN_LO		(50 * MRC_NSEC_PER_USEC)
#define MRC_POLICY_RTO_MIN_HI		(10 * MRC_NSEC_PER_SEC)
#define MRC_POLICY_RTO_MAX_HI		(60 * MRC_NSEC_PER_SEC)
#define MRC_POLICY_RETRY_LIMIT_MAX	100
#define MRC_POLICY_PROBE_IVL_LO		(100 * MRC_NSEC_PER_USEC)
#define MRC_POLICY_PROBE_IVL_HI		(10 * MRC_NSEC_PER_SEC)
#define MRC_POLICY_COUNT_MAX		64
#define MRC_POLICY_SKIP_LO		(10 * MRC_NSEC_PER_USEC)
#define MRC_POLICY_SKIP_HI		(10 * MRC_NSEC_PER_SEC)
#define MRC_POLICY_MAX_PATHS_MAX	1024
#define MRC_POLICY_BACKUPS_MAX		64
#define MRC_POLICY_SACK_GAP_MAX		64
#define MRC_POLICY_KA_TIME_LO		(100 * MRC_NSEC_PER_MSEC)
#define MRC_POLICY_KA_TIME_HI		(32767 * MRC_NSEC_PER_SEC)
#define MRC_POLICY_KA_COUNT_MAX		127

/**
 * struct mrc_policy - the knobs of one failure policy.
 * @rto_min_ns: lower bound of the retransmission timeout.
 * @rto_max_ns: upper bound of the retransmission timeout, backoff included.
 * @probe_interval_ns: time between probes of an ASSUMED_BAD path; an
 *	unanswered probe counts as failed when the next one is due.
 * @skip_ns: how long a path stays in SKIP after an ECN mark or a trim.
 * @retry_limit: timer expiries one packet may suffer (each followed by a
 *	retransmission on another path) before the connection fails with
 *	ETIMEDOUT.
 * @fail_to_bad: consecutive failures (losses, timeouts) that turn a GOOD
 *	path ASSUMED_BAD. A timeout in total silence or an ALWAYS_SKIP mark
 *	does so at once.
 * @success_to_good: consecutive answered probes, one per probe interval,
 *	that bring an ASSUMED_BAD path back (hysteresis).
 * @min_active: floor on paths in use; when fewer are GOOD or SKIP, the
 *	least bad ones are put back rather than stalling the connection.
 * @max_paths: size of a connection's EV set (active and backups).
 * @backups: backup paths held in reserve per plane.
 * @sack_gap_threshold: packets selectively acknowledged beyond a hole
 *	before the hole is declared lost (spraying reorders by design).
 * @ecn_response: skip ECN-marked paths (SKIP_ONCE); when false, marks are
 *	only counted and left to congestion control.
 * @keepalive: every connection keeps alive when idle, as if its socket
 *	had SO_KEEPALIVE set: a peer host that vanished is noticed by a
 *	connection with nothing to send.
 * @keepalive_idle_ns: silence before the first keepalive probe (the
 *	default of TCP_KEEPIDLE).
 * @keepalive_intvl_ns: time between unanswered keepalive probes (the
 *	default of TCP_KEEPINTVL).
 * @keepalive_cnt: unanswered keepalive probes before the connection
 *	fails with ETIMEDOUT (the default of TCP_KEEPCNT).
 */
struct mrc_policy {
	u64 rto_min_ns;
	u64 rto_max_ns;
	u64 probe_interval_ns;
	u64 skip_ns;
	u32 retry_limit;
	u32 fail_to_bad;
	u32 success_to_good;
	u32 min_active;
	u32 max_paths;
	u32 backups;
	u32 sack_gap_threshold;
	bool ecn_response;
	bool keepalive;
	u64 keepalive_idle_ns;
	u64 keepalive_intvl_ns;
	u32 keepalive_cnt;
};

/**
 * mrc_policy_default() - fill a policy with the defaults.
 * @p: policy to fill.
 */
void mrc_policy_default(struct mrc_policy *p);

/**
 * mrc_policy_validate() - check every knob of a policy.
 * @p: policy to check.
 * @msg: if not NULL, set to a static message naming the bad field (for a
 *	netlink extack) when the policy is rejected, else left alone.
 *
 * Return: 0 if valid, -EINVAL otherwise.
 */
int mrc_policy_validate(const struct mrc_policy *p, const char **msg);

/**
 * mrc_policy_timeout_budget() - worst time a packet may stay unacknowledged.
 * @p: a valid policy.
 *
 * Sums the retry_limit + 1 timer periods starting at rto_min and doubling
 * up to rto_max: how long a connection whose every path has gone silent
 * keeps trying before ETIMEDOUT.
 *
 * Return: the budget in nanoseconds.
 */
u64 mrc_policy_timeout_budget(const struct mrc_policy *p);

#ifdef __cplusplus
}
#endif

#endif /* _MRC_POLICY_H */
