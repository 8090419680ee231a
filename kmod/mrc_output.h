/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: building and sending packets (see mrc_output.c).
 */
#ifndef _MRC_OUTPUT_H
#define _MRC_OUTPUT_H

#include "mrc_dp.h"
#include "core/mrc_wire.h"

/* Largest header-only packet the module sends (CM messages are largest). */
#define MRC_PKT_HDR_MAX_ANY	128

struct sk_buff *mrc_alloc_skb(u32 len, gfp_t gfp);
int mrc_xmit(struct net *net, struct sk_buff *skb, const struct mrc_route *rt,
	     const struct mrc_flow *fl, u32 mark, u32 priority);
struct mrc_sock;

void mrc_flow_of(const struct mrc_sock *msk, struct mrc_flow *fl, u32 ev);
void mrc_flow_reply(struct net *net, const struct sk_buff *skb,
		    struct mrc_flow *fl);
int mrc_send_hdr_pkt(struct net *net, const struct mrc_pkt *pkt,
		     const struct mrc_route *rt, const struct mrc_flow *fl,
		     u32 mark, u32 priority);

#endif /* _MRC_OUTPUT_H */
