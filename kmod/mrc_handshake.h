/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: connection management (mrc_handshake.c): handshake,
 * disconnect, reset, and the end of a connection, whoever decides it (the
 * engine's driver reports a verdict, mrc_cm_verdict() acts on it).
 */
#ifndef _MRC_HANDSHAKE_H
#define _MRC_HANDSHAKE_H

#include "mrc_sk.h"

int mrc_cm_connect(struct mrc_sock *msk, u64 now);
void mrc_cm_timer(struct mrc_sock *msk, u64 now);
void mrc_cm_close(struct mrc_sock *msk, u64 now);
void mrc_cm_abort(struct mrc_sock *msk);
void mrc_cm_listener_stop(struct mrc_sock *msk);
void mrc_cm_listener_flush(struct mrc_sock *msk);
void mrc_cm_done(struct mrc_sock *msk, int err);
void mrc_cm_verdict(struct mrc_sock *msk, int verdict);
bool mrc_cm_req_wants_child(struct mrc_sock *l, struct sk_buff *skb,
			    struct mrc_pkt *req);
void mrc_cm_child_start(struct mrc_sock *l, struct mrc_sock *child,
			struct sk_buff *skb, const struct mrc_pkt *req);
struct mrc_sock *mrc_cm_input(struct net *net, struct sk_buff *skb,
			      const struct mrc_pkt *pkt);
void mrc_cm_input_locked(struct mrc_sock *msk, const struct mrc_pkt *pkt);
bool mrc_cm_policy_exists(struct net *net, const char *name);
void mrc_cm_established(struct mrc_sock *msk);
void mrc_cm_passive_complete(struct mrc_sock *msk);
void mrc_cm_icmp(struct net *net, struct sk_buff *skb, unsigned int udp_offset);

#endif /* _MRC_HANDSHAKE_H */
