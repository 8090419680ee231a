/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: the engine's driver, between a socket and its protocol
 * engine (struct mrc_conn of kmod/core): it owns the connection's bytes,
 * packets, routes and timer deadline. Every function runs with the socket
 * lock held (owned or bh-locked), and none calls up: those that may end
 * the connection return a verdict for connection management
 * (mrc_hs_verdict()): 0, the positive errno the connection failed with,
 * or MRC_GLUE_ABORT.
 */
#ifndef _MRC_CONN_GLUE_H
#define _MRC_CONN_GLUE_H

#include "mrc_sk.h"

struct mrc_cfg_notify;
struct mrc_nl_conn;
struct mrc_nl_conn_path;

/* Verdict: new data reached a socket nobody will read: reset the peer. */
#define MRC_GLUE_ABORT	(-1)

int mrc_glue_prepare(struct mrc_sock *msk);
void mrc_glue_listen_params(struct mrc_sock *l, const struct in6_addr *daddr,
			    struct mrc_cm_params *p);
int mrc_glue_start(struct mrc_sock *msk);
void mrc_glue_release(struct mrc_sock *msk);
int mrc_glue_input(struct mrc_sock *msk, struct sk_buff *skb,
		   const struct mrc_pkt *pkt, bool batch);
int mrc_glue_batch_end(struct mrc_sock *msk);
int mrc_glue_timer(struct mrc_sock *msk);
int mrc_glue_push(struct mrc_sock *msk);
void mrc_glue_ptb_defer(struct mrc_sock *msk, const struct mrc_pkt *quote,
			u32 ev, u32 room);
int mrc_glue_ptb_deferred(struct mrc_sock *msk);
bool mrc_glue_pkt_too_big(struct mrc_sock *msk, const struct mrc_pkt *quote,
			  u32 ev, u32 room, int *verdict);
bool mrc_glue_all_acked(struct mrc_sock *msk);
bool mrc_glue_readable(struct mrc_sock *msk);
bool mrc_glue_writable(struct mrc_sock *msk);
u64 mrc_glue_write_space(struct mrc_sock *msk, u32 *msgs);
/* Where the bytes of a send come from (mrc_glue_write()). */
struct mrc_send_src {
	struct msghdr *msg;	/* the application's, copied; or */
	struct page *page;	/* a page, referenced (sendpage) */
	u32 offset;		/* of the bytes in @page */
};

int mrc_glue_write(struct mrc_sock *msk, struct mrc_send_src *src, size_t n,
		   bool seq);
bool mrc_glue_msg_peek(struct mrc_sock *msk, struct mrc_conn_msg *m);
bool mrc_glue_read_done(struct mrc_sock *msk, struct mrc_conn_msg *m,
			u64 n);
int mrc_glue_send_port_status(struct mrc_sock *msk);
const struct mrc_route *mrc_glue_cm_route(struct mrc_sock *msk,
					  struct mrc_flow *fl);
u32 mrc_glue_cm_fanout(struct mrc_sock *msk);
bool mrc_glue_peer_ports(struct mrc_sock *msk, u32 up_mask);
int mrc_glue_info(struct mrc_sock *msk, char __user *optval,
		  int __user *optlen);
void mrc_glue_apply_opts(struct mrc_sock *msk, bool keepalive);
void mrc_glue_policy(struct mrc_sock *msk, struct mrc_policy *pol);
bool mrc_glue_conn_info(struct mrc_sock *msk, struct mrc_conn_info *ci);
u64 mrc_glue_inq(struct mrc_sock *msk);
u32 mrc_glue_describe(struct mrc_sock *msk, struct mrc_nl_conn *ci,
		      struct mrc_nl_conn_path *paths, u32 max);
bool mrc_glue_cfg_change(struct mrc_sock *msk, unsigned long event,
			 const struct mrc_cfg_notify *n);
void mrc_glue_reset_pkt(struct mrc_sock *msk, struct mrc_pkt *pkt);

#endif /* _MRC_CONN_GLUE_H */
