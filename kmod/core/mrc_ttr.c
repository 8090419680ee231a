// SPDX-License-Identifier: GPL-2.0
/*
 * Time-to-recovery episodes, counters and log2 histogram.
 */
#include "mrc_ttr.h"
#include "mrc_psn.h"

void mrc_ttr_init(struct mrc_ttr *t)
{
	memset(t, 0, sizeof(*t));
}

void mrc_ttr_on_loss(struct mrc_ttr *t, u32 psn, mrc_time_t now)
{
	psn &= MRC_PSN_MASK;
	if (!t->open) {
		t->open = true;
		t->psn = psn;
		t->t0 = now;
		t->losses = 1;
		return;
	}
	/* Nested loss: the same recovery now has to reach further. */
	if (mrc_psn_after(psn, t->psn))
		t->psn = psn;
	t->losses++;
}

bool mrc_ttr_on_cack(struct mrc_ttr *t, u32 acked_psn, mrc_time_t now,
		     u64 *ttr_ns)
{
	u64 d;

	if (!t->open || mrc_psn_before(acked_psn & MRC_PSN_MASK, t->psn))
		return false;
	d = now > t->t0 ? now - t->t0 : 0;
	t->open = false;
	t->episodes++;
	t->total_ns += d;
	t->max_ns = max(t->max_ns, d);
	t->last_ns = d;
	t->hist[mrc_ttr_bucket(d)]++;
	if (ttr_ns)
		*ttr_ns = d;
	return true;
}

void mrc_ttr_abort(struct mrc_ttr *t)
{
	if (!t->open)
		return;
	t->open = false;
	t->aborted++;
}

u32 mrc_ttr_bucket(u64 ns)
{
	u64 us = mrc_div64(ns, MRC_NSEC_PER_USEC);
	u32 b = 0;

	/* Bucket = number of significant bits of the microsecond count. */
	while (us && b < MRC_TTR_BUCKETS - 1) {
		us >>= 1;
		b++;
	}
	return b;
}

u64 mrc_ttr_bucket_floor_us(u32 bucket)
{
	if (!bucket)
		return 0;
	if (bucket >= MRC_TTR_BUCKETS)
		bucket = MRC_TTR_BUCKETS - 1;
	return 1ULL << (bucket - 1);
}
