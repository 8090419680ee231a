// SPDX-License-Identifier: GPL-2.0
/*
 * "fixed": a constant window (init_cwnd). For tests and for measuring the
 * rest of the stack without congestion control in the way.
 */
#include "mrc_cc.h"
#ifdef __KERNEL__
#include <linux/build_bug.h>
#else
#include <assert.h>
#endif

struct mrc_cc_fixed {
	u64 cwnd;
};

static_assert(sizeof(struct mrc_cc_fixed) <=
	      sizeof(((struct mrc_cc *)0)->priv), "fixed state too large");

static void mrc_fixed_init(struct mrc_cc *cc, const struct mrc_cc_params *p,
			   mrc_time_t now)
{
	struct mrc_cc_fixed *f = (struct mrc_cc_fixed *)cc->priv;

	f->cwnd = p->init_cwnd > p->mtu ? p->init_cwnd : p->mtu;
}

static void mrc_fixed_on_ack(struct mrc_cc *cc, const struct mrc_cc_ack *ack)
{
}

static void mrc_fixed_on_loss(struct mrc_cc *cc, u32 bytes, u64 inflight,
			      mrc_time_t now)
{
}

static void mrc_fixed_on_trim(struct mrc_cc *cc, u32 bytes, u64 inflight,
			      mrc_time_t now, bool last_hop)
{
}

static u64 mrc_fixed_cwnd(const struct mrc_cc *cc)
{
	return ((const struct mrc_cc_fixed *)cc->priv)->cwnd;
}

const struct mrc_cc_ops mrc_cc_fixed_ops = {
	.name = "fixed",
	.init = mrc_fixed_init,
	.on_ack = mrc_fixed_on_ack,
	.on_loss = mrc_fixed_on_loss,
	.on_trim = mrc_fixed_on_trim,
	.cwnd = mrc_fixed_cwnd,
};
