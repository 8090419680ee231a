/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: endpoint operations on QPN 2 (see mrc_endpoint.c).
 */
#ifndef _MRC_ENDPOINT_H
#define _MRC_ENDPOINT_H

#include <linux/netlink.h>

#include "mrc_dp.h"
#include "core/mrc_wire.h"

/* Endpoint requests a namespace answers or applies per second (burst). */
#define MRC_EP_RATE_PER_SEC	1000

void mrc_ep_net_init(struct mrc_dp_net *dn);
void mrc_ep_input(struct net *net, struct sk_buff *skb,
		  const struct mrc_pkt *pkt);
int mrc_ep_probe_path(struct net *net, const struct in6_addr *dst,
		      u32 path_id, struct mrc_cfg_cand *cand,
		      struct netlink_ext_ack *extack);
int mrc_ep_probe(struct net *net, const struct in6_addr *dst,
		 const struct mrc_cfg_cand *cand, u32 timeout_ms, u64 *rtt_ns,
		 struct netlink_ext_ack *extack);

#endif /* _MRC_ENDPOINT_H */
