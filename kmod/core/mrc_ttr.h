/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Time to recovery (TTR), the operators' KPI, measured per connection.
 *
 * An episode opens when a loss is first detected (time t0, PSN p) and
 * closes when the cumulative acknowledgment passes p, i.e. when the
 * stream has recovered everything lost so far. A loss detected while an
 * episode is open, beyond p, extends the episode (p moves forward, t0
 * stays): nested losses make one longer recovery, not several short ones.
 *
 * Closed episodes are kept as counters and a log2 histogram in
 * microseconds that the kernel exports over netlink and MRC_INFO.
 */
#ifndef _MRC_TTR_H
#define _MRC_TTR_H

#include "mrc_core_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Histogram buckets: MRC_TTR_BUCKETS of the uapi, which exports them.
 * Bucket 0 holds TTRs below 1 us; bucket i (1 <= i < MRC_TTR_BUCKETS - 1)
 * holds [2^(i-1), 2^i) us; the last bucket holds everything from
 * 2^(MRC_TTR_BUCKETS - 2) us (~4.2 s) up.
 */
#include <linux/mrc.h>

/**
 * struct mrc_ttr - TTR accounting of one connection.
 * @open: an episode is in progress.
 * @psn: PSN the cumulative ack must pass to close the open episode.
 * @t0: when the open episode started.
 * @losses: losses folded into the open episode.
 * @episodes: closed episodes.
 * @aborted: episodes dropped unfinished (connection closed or failed).
 * @total_ns: sum of the TTRs of closed episodes.
 * @max_ns: longest closed episode.
 * @last_ns: most recent closed episode.
 * @hist: closed episodes per bucket (see MRC_TTR_BUCKETS).
 */
struct mrc_ttr {
	bool open;
	u32 psn;
	mrc_time_t t0;
	u32 losses;
	u64 episodes;
	u64 aborted;
	u64 total_ns;
	u64 max_ns;
	u64 last_ns;
	u64 hist[MRC_TTR_BUCKETS];
};

/**
 * mrc_ttr_init() - clear all accounting.
 * @t: TTR state.
 */
void mrc_ttr_init(struct mrc_ttr *t);

/**
 * mrc_ttr_on_loss() - a loss of @psn was detected at @now.
 * @t: TTR state.
 * @psn: lost PSN (24 bits).
 * @now: detection time.
 *
 * Opens an episode, or extends the open one if @psn lies beyond its PSN.
 */
void mrc_ttr_on_loss(struct mrc_ttr *t, u32 psn, mrc_time_t now);

/**
 * mrc_ttr_on_cack() - the cumulative acknowledgment moved.
 * @t: TTR state.
 * @acked_psn: last PSN acknowledged cumulatively: every PSN up to and
 *	including it has been received.
 * @now: time of the acknowledgment.
 * @ttr_ns: if not NULL, set to the episode's TTR when one closes.
 *
 * Return: true if this closed an episode.
 */
bool mrc_ttr_on_cack(struct mrc_ttr *t, u32 acked_psn, mrc_time_t now,
		     u64 *ttr_ns);

/**
 * mrc_ttr_abort() - drop the open episode without recording a TTR.
 * @t: TTR state.
 *
 * For a connection that closes or fails while recovering.
 */
void mrc_ttr_abort(struct mrc_ttr *t);

/**
 * mrc_ttr_bucket() - histogram bucket of a duration.
 * @ns: duration in nanoseconds.
 *
 * Return: bucket index in [0, MRC_TTR_BUCKETS).
 */
u32 mrc_ttr_bucket(u64 ns);

/**
 * mrc_ttr_bucket_floor_us() - lower bound of a bucket.
 * @bucket: bucket index.
 *
 * Return: the smallest TTR in microseconds that falls in @bucket.
 */
u64 mrc_ttr_bucket_floor_us(u32 bucket);

#ifdef __cplusplus
}
#endif

#endif /* _MRC_TTR_H */
