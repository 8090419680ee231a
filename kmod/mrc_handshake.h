/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: connection management (handshake, disconnect, reset).
 */
#ifndef _MRC_HANDSHAKE_H
#define _MRC_HANDSHAKE_H

#include "mrc_sock.h"

int mrc_cm_connect(struct mrc_sock *msk, u64 now);
void mrc_cm_timer(struct mrc_sock *msk, u64 now);
void mrc_cm_close(struct mrc_sock *msk, u64 now);
void mrc_cm_abort(struct mrc_sock *msk);
void mrc_cm_listener_stop(struct mrc_sock *msk);
void mrc_cm_listener_flush(struct mrc_sock *msk);
void mrc_cm_accept_work(struct work_struct *work);
void mrc_cm_input(struct net *net, struct sk_buff *skb,
		  const struct mrc_pkt *pkt);
void mrc_cm_input_locked(struct mrc_sock *msk, const struct mrc_pkt *pkt);
bool mrc_cm_policy_exists(struct net *net, const char *name);
void mrc_cm_established(struct mrc_sock *msk);
void mrc_cm_passive_complete(struct mrc_sock *msk);
void mrc_cm_icmp(struct net *net, struct sk_buff *skb, unsigned int udp_offset);

#endif /* _MRC_HANDSHAKE_H */
