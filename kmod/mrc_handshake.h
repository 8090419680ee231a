/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: connection management (mrc_handshake.c): handshake,
 * disconnect, reset, and the end of a connection, whoever decides it (the
 * engine's driver reports a verdict, mrc_hs_verdict() acts on it).
 */
#ifndef _MRC_HANDSHAKE_H
#define _MRC_HANDSHAKE_H

#include "mrc_sk.h"

struct mrc_dp_net;

/* Stateless control work (NO_CONN RESETs sent, and looked up) per namespace and second. */
#define MRC_HS_CTL_RATE_PER_SEC	1000
/* CM_REPs (stateless answers to CM_REQs) per namespace and second. */
#define MRC_HS_REP_RATE_PER_SEC	10000

void mrc_hs_net_init(struct mrc_dp_net *dn);
void mrc_hs_reset_unknown(struct net *net, struct sk_buff *skb,
			  const struct mrc_pkt *data);
int mrc_hs_connect(struct mrc_sock *msk, u64 now);
void mrc_hs_timer(struct mrc_sock *msk, u64 now);
void mrc_hs_close(struct mrc_sock *msk, u64 now);
void mrc_hs_abort(struct mrc_sock *msk);
void mrc_hs_listener_stop(struct mrc_sock *msk);
void mrc_hs_listener_flush(struct mrc_sock *msk);
void mrc_hs_done(struct mrc_sock *msk, int err);
void mrc_hs_verdict(struct mrc_sock *msk, int verdict);
bool mrc_hs_req_wants_child(struct mrc_sock *l, struct sk_buff *skb,
			    struct mrc_pkt *req);
void mrc_hs_child_start(struct mrc_sock *l, struct mrc_sock *child,
			struct sk_buff *skb, const struct mrc_pkt *req);
struct mrc_sock *mrc_hs_input(struct net *net, struct sk_buff *skb,
			      const struct mrc_pkt *pkt);
void mrc_hs_input_locked(struct mrc_sock *msk, const struct mrc_pkt *pkt);
bool mrc_hs_peer_pkt(struct mrc_sock *msk, const struct mrc_pkt *pkt);
void mrc_hs_icmp(struct net *net, struct sk_buff *skb, unsigned int udp_offset);

#endif /* _MRC_HANDSHAKE_H */
