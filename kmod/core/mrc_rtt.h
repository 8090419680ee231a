/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Round-trip time estimation and retransmission timeout (RFC 6298 in
 * integer nanoseconds): RTO = max(rto_min, srtt + 4 * rttvar), clamped to
 * rto_max, with a bounded exponential backoff while timers expire and no
 * new sample arrives.
 */
#ifndef _MRC_RTT_H
#define _MRC_RTT_H

#include "mrc_core_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * RTO before the first sample. RFC 6298 says 1 s for the Internet; a
 * fabric answers in milliseconds even in a VM, and the handshake gives a
 * sample before any data is sent. Clamped to [rto_min, rto_max].
 */
#define MRC_RTT_INITIAL_RTO_NS	(100 * MRC_NSEC_PER_MSEC)

/* Backoff never shifts further: 2^16 x rto_min exceeds any rto_max. */
#define MRC_RTT_MAX_BACKOFF	16

/**
 * struct mrc_rtt - RTT estimator and timeout of one connection.
 * @srtt_ns: smoothed RTT (0 until the first sample).
 * @rttvar_ns: RTT variation.
 * @min_rtt_ns: smallest sample seen (0 until the first sample).
 * @latest_ns: most recent sample.
 * @rto_min_ns: lower clamp of the timeout (from the policy).
 * @rto_max_ns: upper clamp of the timeout, backoff included.
 * @backoff: number of doublings applied to the timeout.
 * @samples: number of samples taken (saturates).
 */
struct mrc_rtt {
	u64 srtt_ns;
	u64 rttvar_ns;
	u64 min_rtt_ns;
	u64 latest_ns;
	u64 rto_min_ns;
	u64 rto_max_ns;
	u32 backoff;
	u32 samples;
};

/**
 * mrc_rtt_init() - start an estimator with no sample.
 * @r: estimator.
 * @rto_min_ns: lower clamp of the timeout.
 * @rto_max_ns: upper clamp (>= @rto_min_ns).
 */
void mrc_rtt_init(struct mrc_rtt *r, u64 rto_min_ns, u64 rto_max_ns);

/**
 * mrc_rtt_sample() - feed one RTT measurement.
 * @r: estimator.
 * @rtt_ns: the measured round trip; take it only from packets that were
 *	not retransmitted (Karn), or from echoed timestamps. Zero is ignored.
 *
 * A valid sample also cancels any backoff: the peer is answering.
 */
void mrc_rtt_sample(struct mrc_rtt *r, u64 rtt_ns);

/**
 * mrc_rtt_base_rto() - the timeout without backoff.
 * @r: estimator.
 *
 * Return: max(rto_min, srtt + 4 * rttvar) clamped to rto_max, or the
 * clamped MRC_RTT_INITIAL_RTO_NS before the first sample.
 */
u64 mrc_rtt_base_rto(const struct mrc_rtt *r);

/**
 * mrc_rtt_rto() - the timeout to arm now, backoff included.
 * @r: estimator.
 *
 * Return: the base RTO doubled @r->backoff times, at most rto_max.
 */
u64 mrc_rtt_rto(const struct mrc_rtt *r);

/**
 * mrc_rtt_backoff() - double the timeout after an expiry without progress.
 * @r: estimator.
 *
 * Stops doubling once rto_max is reached, so the shift never overflows.
 *
 * Return: the new timeout.
 */
u64 mrc_rtt_backoff(struct mrc_rtt *r);

/**
 * mrc_rtt_reset_backoff() - forget the backoff (progress was made).
 * @r: estimator.
 */
void mrc_rtt_reset_backoff(struct mrc_rtt *r);

/**
 * mrc_rtt_set_bounds() - change the clamps (policy changed).
 * @r: estimator.
 * @rto_min_ns: new lower clamp.
 * @rto_max_ns: new upper clamp (>= @rto_min_ns).
 */
void mrc_rtt_set_bounds(struct mrc_rtt *r, u64 rto_min_ns, u64 rto_max_ns);

#ifdef __cplusplus
}
#endif

#endif /* _MRC_RTT_H */
