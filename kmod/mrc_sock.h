/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: the MRC socket.
 */
#ifndef _MRC_SOCK_H
#define _MRC_SOCK_H

#include <linux/rbtree.h>
#include <linux/workqueue.h>
#include <net/sock.h>

#include "mrc_dp.h"
#include "core/mrc_conn.h"

/* Deferred work bits (msk->deferred), run from release_cb. */
enum {
	MRC_DEFER_TIMER,	/* the timer fired while a process owned it */
	MRC_DEFER_PUSH,		/* more may be sent */
	MRC_DEFER_PEER_PORTS,	/* apply @peer_ports_pending */
};

/**
 * struct mrc_skb_cb - what the data path keeps in skb->cb.
 * @off: stream offset of the first payload byte.
 * @len: payload bytes.
 * @eor: the last packet of a SEQPACKET message.
 * @ev16: receive: the entropy value in the UDP source port.
 * @ecn_ce: receive: the packet was CE-marked.
 */
struct mrc_skb_cb {
	u64 off;
	u32 len;
	u8 eor;
	u8 ecn_ce;
	u16 ev16;
};

#define MRC_SKB_CB(skb) ((struct mrc_skb_cb *)&((skb)->cb[0]))

/**
 * struct mrc_sock - an MRC socket.
 * @sk: the generic socket; must stay first.
 * @saddr: local address (bound, or chosen at connect).
 * @daddr: peer address.
 * @sport: local service port (host order).
 * @dport: peer service port (host order).
 * @lqpn: our QPN (>= MRC_QPN_FIRST_DYNAMIC) once connecting.
 * @rqpn: the peer's QPN once known.
 * @cookie: the handshake cookie, echoed in every CM message.
 * @lparams: our CM parameters.
 * @rparams: the peer's CM parameters.
 * @qpn_node: link in the namespace QPN table.
 * @port_node: link in the namespace port table.
 * @hashed_qpn: @qpn_node is in the table.
 * @hashed_port: @port_node is in the table.
 * @parent: for a child not yet accepted: its listener (a reference).
 * @accept_q: listener: established children waiting for accept().
 * @half_open: listener: children still in the handshake.
 * @child_node: child: its place on @accept_q or @half_open.
 * @nr_half_open: listener: entries of @half_open.
 * @child_lock: listener: protects @accept_q, @half_open and
 *	@nr_half_open; innermost lock (taken under any socket lock).
 * @req_q: listener: CM_REQ packets waiting for @accept_work.
 * @accept_work: listener: creates children in process context.
 * @timer: the one timer of the socket (handshake, RTO, probes, SACKs).
 * @deferred: MRC_DEFER_* bits.
 * @cm_tries: handshake or disconnect retransmissions so far.
 * @cm_next: when the next CM retransmission is due (ns, ktime).
 * @cm_deadline: when the handshake or disconnect gives up (ns, ktime).
 * @conn: the protocol engine (with its storage), NULL until set up.
 * @routes: how each configured path leaves the host (indexed by the
 *	engine's cfg_id, which is an index into @cands).
 * @sndq: bytes the application wrote, in stream order, until acked.
 * @sndq_bytes: payload bytes on @sndq.
 * @snd_end: stream offset just after the last byte written.
 * @ofo: received payload not yet contiguous, by stream offset.
 * @policy: name of the failure policy the socket uses.
 * @passive: created by a listener (the service port is @sport).
 * @peer_fin: the peer sent CM_DREQ: it sends no more data.
 * @fin_acked: our CM_DREQ was answered.
 * @close_wanted: the application closed (or shut down sending): send
 *	CM_DREQ once everything is acknowledged.
 * @cands: path candidates the engine was built from.
 * @ncands: entries of @cands (and of @routes).
 * @ev_cm: entropy value of handshake and disconnect packets.
 * @params: the engine's parameters, prepared before the handshake.
 * @conn_size: bytes allocated at @conn (engine and its storage).
 * @peer_ports_pending: a PORT_STATUS_UPDATE that arrived while a process
 *	owned the socket (MRC_DEFER_PEER_PORTS).
 * @mib_folded: the engine's totals already added to the namespace MIB.
 * @route_caches: the routes the paths of @routes keep (@ncands of them).
 */
struct mrc_sock {
	struct sock sk;
	struct in6_addr saddr;
	struct in6_addr daddr;
	u16 sport;
	u16 dport;
	u32 lqpn;
	u32 rqpn;
	u64 cookie;
	struct mrc_cm_params lparams;
	struct mrc_cm_params rparams;
	struct hlist_node qpn_node;
	struct hlist_node port_node;
	bool hashed_qpn;
	bool hashed_port;
	struct mrc_sock *parent;
	struct list_head accept_q;
	struct list_head half_open;
	struct list_head child_node;
	u32 nr_half_open;
	spinlock_t child_lock;	/* innermost: child lists of a listener */
	struct sk_buff_head req_q;
	struct work_struct accept_work;
	struct hrtimer timer;
	unsigned long deferred;
	u32 cm_tries;
	u64 cm_next;
	u64 cm_deadline;
	struct mrc_conn *conn;
	struct mrc_route *routes;
	struct sk_buff_head sndq;
	u64 sndq_bytes;
	u64 snd_end;
	struct rb_root ofo;
	char policy[16];
	bool passive;
	bool peer_fin;
	bool fin_acked;
	bool close_wanted;
	struct mrc_path_cand *cands;
	u32 ncands;
	u16 ev_cm;
	struct mrc_conn_params *params;
	size_t conn_size;
	u32 peer_ports_pending;
	struct mrc_conn_totals mib_folded;
	struct mrc_route_cache *route_caches;
};

static inline struct mrc_sock *mrc_sk(const struct sock *sk)
{
	return (struct mrc_sock *)sk;
}

static inline void mrc_set_state(struct sock *sk, int state)
{
	/* Pairs with READ_ONCE(sk_state) in poll and the table lookups. */
	smp_store_release(&sk->sk_state, state);
}

void mrc_timer_arm(struct mrc_sock *msk, u64 when);
void mrc_sk_done(struct mrc_sock *msk, int err);
void mrc_sock_init_common(struct sock *sk, struct socket *sock, int type);
struct mrc_sock *mrc_sock_alloc_child(struct mrc_sock *listener);
void mrc_input_locked(struct mrc_sock *msk, struct sk_buff *skb);
void mrc_input_deliver(struct mrc_sock *msk, struct sk_buff *skb);
void mrc_conn_event(struct mrc_sock *msk, enum mrc_event_type type, int err);

#endif /* _MRC_SOCK_H */
