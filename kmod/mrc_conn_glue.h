/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: the bridge between a socket and its protocol engine
 * (struct mrc_conn of kmod/core). The socket layer (mrc_sock.c, mrc_cm.c)
 * calls only these; mrc_conn_glue.c is the only file that calls the
 * engine. All run with the socket lock held (owned or bh-locked).
 */
#ifndef _MRC_CONN_GLUE_H
#define _MRC_CONN_GLUE_H

#include "mrc_sock.h"

int mrc_glue_prepare(struct mrc_sock *msk);
int mrc_glue_start(struct mrc_sock *msk);
void mrc_glue_release(struct mrc_sock *msk);
void mrc_glue_input(struct mrc_sock *msk, struct sk_buff *skb,
		    const struct mrc_pkt *pkt);
void mrc_glue_timer(struct mrc_sock *msk);
void mrc_glue_push(struct mrc_sock *msk);
bool mrc_glue_all_acked(struct mrc_sock *msk);
int mrc_glue_sendmsg(struct mrc_sock *msk, struct msghdr *msg, size_t len);
int mrc_glue_recvmsg(struct mrc_sock *msk, struct msghdr *msg, size_t len,
		     int flags);
bool mrc_glue_readable(struct mrc_sock *msk);
bool mrc_glue_writable(struct mrc_sock *msk);
int mrc_glue_send_port_status(struct mrc_sock *msk);
const struct mrc_route *mrc_glue_cm_route(struct mrc_sock *msk,
					  struct mrc_flow *fl);
bool mrc_glue_peer_ports(struct mrc_sock *msk, u32 up_mask);
int mrc_glue_info(struct mrc_sock *msk, char __user *optval,
		  int __user *optlen);
void mrc_glue_apply_opts(struct mrc_sock *msk, bool keepalive);
bool mrc_glue_conn_info(struct mrc_sock *msk, struct mrc_conn_info *ci);
u64 mrc_glue_inq(struct mrc_sock *msk);

#endif /* _MRC_CONN_GLUE_H */
