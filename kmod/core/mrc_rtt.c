// SPDX-License-Identifier: GPL-2.0
/*
 * RTT estimation and retransmission timeout, RFC 6298 with integer
 * nanoseconds: alpha = 1/8 and beta = 1/4 become shifts.
 */
#include "mrc_rtt.h"

void mrc_rtt_init(struct mrc_rtt *r, u64 rto_min_ns, u64 rto_max_ns)
{
	memset(r, 0, sizeof(*r));
	mrc_rtt_set_bounds(r, rto_min_ns, rto_max_ns);
}

void mrc_rtt_set_bounds(struct mrc_rtt *r, u64 rto_min_ns, u64 rto_max_ns)
{
	r->rto_min_ns = rto_min_ns;
	r->rto_max_ns = max(rto_min_ns, rto_max_ns);
}

void mrc_rtt_sample(struct mrc_rtt *r, u64 rtt_ns)
{
	u64 delta;

	if (!rtt_ns)
		return;
	r->latest_ns = rtt_ns;
	if (!r->samples) {
		r->srtt_ns = rtt_ns;
		r->rttvar_ns = rtt_ns >> 1;
		r->min_rtt_ns = rtt_ns;
	} else {
		delta = r->srtt_ns > rtt_ns ? r->srtt_ns - rtt_ns :
					      rtt_ns - r->srtt_ns;
		/* rttvar = 3/4 rttvar + 1/4 |srtt - R| (RFC 6298 2.3). */
		r->rttvar_ns = r->rttvar_ns - (r->rttvar_ns >> 2) + (delta >> 2);
		/* srtt = 7/8 srtt + 1/8 R. */
		r->srtt_ns = r->srtt_ns - (r->srtt_ns >> 3) + (rtt_ns >> 3);
		r->min_rtt_ns = min(r->min_rtt_ns, rtt_ns);
	}
	if (r->samples != ~0U)
		r->samples++;
	r->backoff = 0;
}

u64 mrc_rtt_base_rto(const struct mrc_rtt *r)
{
	u64 rto;

	if (!r->samples)
		rto = MRC_RTT_INITIAL_RTO_NS;
	else
		rto = r->srtt_ns + 4 * r->rttvar_ns;
	/* Not clamp(): the bounds were ordered by mrc_rtt_set_bounds(). */
	rto = max(rto, r->rto_min_ns);
	return min(rto, r->rto_max_ns);
}

u64 mrc_rtt_rto(const struct mrc_rtt *r)
{
	u64 rto = mrc_rtt_base_rto(r);
	u32 i;

	/* A loop, not a shift: stop as soon as the clamp is reached. */
	for (i = 0; i < r->backoff && rto < r->rto_max_ns; i++)
		rto *= 2;
	return min(rto, r->rto_max_ns);
}

u64 mrc_rtt_backoff(struct mrc_rtt *r)
{
	if (r->backoff < MRC_RTT_MAX_BACKOFF && mrc_rtt_rto(r) < r->rto_max_ns)
		r->backoff++;
	return mrc_rtt_rto(r);
}

void mrc_rtt_reset_backoff(struct mrc_rtt *r)
{
	r->backoff = 0;
}
