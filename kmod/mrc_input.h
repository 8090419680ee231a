/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: packet input (mrc_input.c): decode once, find the
 * socket, deliver.
 */
#ifndef _MRC_INPUT_H
#define _MRC_INPUT_H

#include "mrc_sk.h"

void mrc_input(struct net *net, struct sk_buff *skb);
void mrc_input_segs(struct net *net, struct sk_buff *segs);
void mrc_input_locked(struct mrc_sock *msk, struct sk_buff *skb);
bool mrc_input_pkt_too_big(struct net *net, struct sk_buff *skb,
			   unsigned int ip_off, u32 mtu);

#endif /* _MRC_INPUT_H */
