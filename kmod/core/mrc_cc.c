// SPDX-License-Identifier: GPL-2.0
/*
 * Congestion control: registry by name, default parameters, validation.
 */
#include "mrc_cc.h"

/* The network UEC defines its NSCC constants on: 100 Gb/s, 12 us. */
#define MRC_CC_REF_BDP		150000ULL

static const struct mrc_cc_ops *const mrc_cc_algos[] = {
	&mrc_cc_nscc_ops,	/* first = default */
	&mrc_cc_fixed_ops,
};

const struct mrc_cc_ops *mrc_cc_find(const char *name)
{
	u32 i;

	if (!name || !name[0])
		return mrc_cc_algos[0];
	for (i = 0; i < ARRAY_SIZE(mrc_cc_algos); i++)
		if (!strcmp(mrc_cc_algos[i]->name, name))
			return mrc_cc_algos[i];
	return NULL;
}

const char *mrc_cc_name(u32 idx)
{
	return idx < ARRAY_SIZE(mrc_cc_algos) ? mrc_cc_algos[idx]->name : NULL;
}

/* @x scaled by BDP / reference BDP (the UEC scaling_factor_a), at least 1. */
static u32 mrc_cc_scale(u64 x, u64 bdp)
{
	u64 v = mrc_div64(x * bdp, MRC_CC_REF_BDP);

	if (v > ~0U)
		return ~0U;
	return v ? (u32)v : 1;
}

void mrc_cc_params_default(struct mrc_cc_params *p, u32 mtu,
			   u64 base_rtt_ns, u64 rate_bps)
{
	/* bytes per ms x ns / 1e6: no overflow below 1 Tb/s x 10 s */
	u64 bdp = mrc_div64(mrc_div64(rate_bps, 8000) * base_rtt_ns,
			    MRC_NSEC_PER_MSEC);

	memset(p, 0, sizeof(*p));
	p->mtu = mtu;
	if (bdp < mtu)
		bdp = mtu;
	p->base_rtt_ns = base_rtt_ns;
	/* No trimming switches in a software fabric: target = 1 x base RTT. */
	p->target_delay_ns = base_rtt_ns;
	p->max_cwnd = max(bdp + bdp / 2, 2ULL * mtu);
	p->init_cwnd = p->max_cwnd;
	p->fi = mrc_cc_scale(5ULL * mtu, bdp);
	/*
	 * UEC: alpha = 4 mtu a b / target with b = target / 12 us. We take b
	 * relative to this network's base RTT (b = 1 at the default target):
	 * relative to 12 us it would be ~100 in a VM and overshoot as much.
	 */
	p->pi = mrc_cc_scale(4ULL * mtu, bdp);
	p->eta = mrc_cc_scale(15ULL * mtu, bdp) / 100;
	if (!p->eta)
		p->eta = 1;
	p->fi_scale = mrc_cc_scale(MRC_CC_FRAC_ONE / 4, bdp);
	p->gamma = MRC_CC_FRAC_ONE * 8 / 10;
	p->max_md_jump = MRC_CC_FRAC_ONE / 2;
	p->adjust_bytes_threshold = 8 * mtu;
	p->adjust_period_ns = base_rtt_ns;
	p->qa_gate = 3;
	p->qa_threshold_ns = 4 * p->target_delay_ns;
}

static int mrc_cc_reject(const char **msg, const char *why)
{
	if (msg)
		*msg = why;
	return -EINVAL;
}

int mrc_cc_params_validate(const struct mrc_cc_params *p, const char **msg)
{
	if (p->mtu < 64 || p->mtu > 65535)
		return mrc_cc_reject(msg, "mtu must be between 64 and 65535");
	if (!p->base_rtt_ns || p->base_rtt_ns > 10 * MRC_NSEC_PER_SEC)
		return mrc_cc_reject(msg, "base_rtt must be between 1 ns and 10 s");
	if (!p->target_delay_ns || p->target_delay_ns > 10 * MRC_NSEC_PER_SEC)
		return mrc_cc_reject(msg,
				     "target_delay must be between 1 ns and 10 s");
	if (p->max_cwnd < p->mtu || p->max_cwnd > (1ULL << 40))
		return mrc_cc_reject(msg, "max_cwnd must be between mtu and 1 TiB");
	if (p->init_cwnd < p->mtu || p->init_cwnd > p->max_cwnd)
		return mrc_cc_reject(msg,
				     "init_cwnd must be between mtu and max_cwnd");
	if (p->fi_scale > 16 * MRC_CC_FRAC_ONE)
		return mrc_cc_reject(msg, "fi_scale must be at most 16.0");
	if (p->gamma > MRC_CC_FRAC_ONE)
		return mrc_cc_reject(msg, "gamma must be at most 1.0");
	if (!p->max_md_jump || p->max_md_jump > MRC_CC_FRAC_ONE)
		return mrc_cc_reject(msg,
				     "max_md_jump must be above 0 and at most 1.0");
	if (!p->adjust_bytes_threshold)
		return mrc_cc_reject(msg, "adjust_bytes_threshold must be above 0");
	if (!p->adjust_period_ns)
		return mrc_cc_reject(msg, "adjust_period must be above 0");
	if (p->qa_gate > 31)
		return mrc_cc_reject(msg, "qa_gate must be at most 31");
	return 0;
}

void mrc_cc_init(struct mrc_cc *cc, const struct mrc_cc_ops *ops,
		 const struct mrc_cc_params *p, mrc_time_t now)
{
	memset(cc, 0, sizeof(*cc));
	cc->ops = ops ? ops : mrc_cc_algos[0];
	cc->ops->init(cc, p, now);
}
