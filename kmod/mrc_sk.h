/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: struct mrc_sock, the socket object every layer of the
 * glue shares, and its accessors. Data only: what a socket does lives in
 * the layers above (Documentation/architecture.md): the engine's driver
 * (mrc_conn_glue.c), connection management (mrc_handshake.c), input
 * (mrc_input.c) and the socket calls (mrc_sock.c, mrc_sock_io.c).
 */
#ifndef _MRC_SK_H
#define _MRC_SK_H

#include <linux/hrtimer.h>
#include <linux/rbtree.h>
#include <linux/workqueue.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "mrc_dp.h"
#include "core/mrc_conn.h"

/* Deferred work bits (msk->deferred), run from release_cb. */
enum {
	MRC_DEFER_TIMER,	/* the timer fired while a process owned it */
	MRC_DEFER_PUSH,		/* more may be sent */
	MRC_DEFER_PEER_PORTS,	/* apply @peer_ports_pending */
	MRC_DEFER_PTB,		/* apply @ptb_pending */
};

/**
 * struct mrc_ptb_pending - an ICMPv6 packet-too-big about a packet of the
 * connection that arrived while a process owned the socket: what the
 * engine needs of its quote (mrc_conn_on_pkt_too_big()).
 * @type: MRC_PKT_DATA or MRC_PKT_PROBE.
 * @psn: data: the quoted PSN.
 * @key: the quoted R_Key (data) or probe key.
 * @probe_id: probe: its id.
 * @ev: the EV it was sent on.
 * @room: the largest MRC packet the reported MTU carries on that path.
 *
 * A burst sent as one segmentation-offload packet and dropped whole at a
 * small link draws one error, not one per packet: it must not be lost to
 * a sender that is in sendmsg() at that moment.
 */
struct mrc_ptb_pending {
	u8 type;
	u32 psn;
	u32 key;
	u32 probe_id;
	u32 ev;
	u32 room;
};

/**
 * struct mrc_sock_opts - socket options of the TCP and IPv6 levels that a
 * drop-in MRC socket honours or keeps (Documentation/socket-options.md).
 * @ka_idle: TCP_KEEPIDLE (s); 0: the policy's keepalive_idle.
 * @ka_intvl: TCP_KEEPINTVL (s); 0: the policy's keepalive_interval.
 * @ka_cnt: TCP_KEEPCNT; 0: the policy's keepalive_count.
 * @user_timeout: TCP_USER_TIMEOUT (ms); 0: the policy's retry budget.
 * @maxseg: TCP_MAXSEG as set (accepted, not used).
 * @window_clamp: TCP_WINDOW_CLAMP as set (accepted, not used).
 * @notsent_lowat: TCP_NOTSENT_LOWAT as set (accepted, not used).
 * @defer_accept: TCP_DEFER_ACCEPT as set (accepted, not used).
 * @linger2: TCP_LINGER2 as set (accepted, not used).
 * @syncnt: TCP_SYNCNT as set (accepted, not used).
 * @fastopen: TCP_FASTOPEN as set (accepted, not used).
 * @unicast_hops: IPV6_UNICAST_HOPS as set (-1: the route's).
 * @tclass: IPV6_TCLASS: traffic class of the connection's packets (its
 *	ECN bits are MRC's own and ignored).
 * @nodelay: TCP_NODELAY (MRC never delays a write: kept for getsockopt).
 * @cork: TCP_CORK as set (accepted, not used).
 * @thin: TCP_THIN_LINEAR_TIMEOUTS as set (accepted, not used).
 * @thin_dupack: TCP_THIN_DUPACK as set (accepted, not used).
 * @fastopen_connect: TCP_FASTOPEN_CONNECT as set (accepted, not used).
 * @fastopen_no_cookie: TCP_FASTOPEN_NO_COOKIE as set (accepted, not used).
 * @freebind: IPV6_FREEBIND: bind() accepts an address not (yet) local.
 * @accept_tcp: MRC_SO_ACCEPT_TCP: listen on TCP too.
 * @v6only: IPV6_V6ONLY was set to 1 (the TCP listener of @accept_tcp is
 *	then IPv6 only; MRC always is).
 * @recverr: IPV6_RECVERR as set (accepted, not used).
 * @autoflowlabel: IPV6_AUTOFLOWLABEL as set (the flow label carries
 *	the EV whatever it says).
 * @mtu_discover: IPV6_MTU_DISCOVER as set (accepted, not used).
 * @addr_prefs: IPV6_ADDR_PREFERENCES as set (accepted, not used).
 */
struct mrc_sock_opts {
	u32 ka_idle;
	u32 ka_intvl;
	u32 ka_cnt;
	u32 user_timeout;
	u32 maxseg;
	u32 window_clamp;
	u32 notsent_lowat;
	u32 defer_accept;
	s32 linger2;
	u32 syncnt;
	u32 fastopen;
	s16 unicast_hops;
	u8 tclass;
	u8 nodelay:1,
	   cork:1,
	   thin:1,
	   thin_dupack:1,
	   fastopen_connect:1,
	   fastopen_no_cookie:1,
	   freebind:1,
	   recverr:1;
	u8 accept_tcp:1,
	   v6only:1;
	u8 autoflowlabel;
	u8 mtu_discover;
	u32 addr_prefs;
};

/**
 * struct mrc_sock - an MRC socket.
 * @sk: the generic socket; must stay first.
 * @inet: the same memory seen as an inet socket: an AF_INET6 socket
 *	(IPPROTO_MRC) is created by inet6_create(), which initialises it.
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
 * @child_node: child: its place on @accept_q.
 * @child_lock: listener: protects @accept_q; innermost lock (taken under
 *	any socket lock).
 * @req_q: listener: CM_RTUs with a good cookie waiting for @accept_work
 *	(a listener keeps no half-open connections).
 * @accept_work: listener: creates children in process context.
 * @timer: the one timer of the socket (handshake, RTO, probes, SACKs).
 * @deferred: MRC_DEFER_* bits.
 * @cm: connection management's state (kmod/core/mrc_cm_fsm.h): its
 *	retransmissions, deadline and half-close flags.
 * @conn: the protocol engine (with its storage), NULL until set up.
 * @routes: how each configured path leaves the host (indexed by the
 *	engine's cfg_id, which is an index into @cands).
 * @sndq: bytes the application wrote, in stream order, until acked: skbs
 *	with no linear data whose page fragments hold the bytes (filled
 *	from the socket's page fragment, as TCP's write queue); every data
 *	packet refers to these pages, never copies them.
 * @hdr_frag: where the MRC headers of a burst's second and later packets
 *	are written (a packet's fragments follow its header).
 * @sndq_bytes: payload bytes on @sndq.
 * @snd_msgs_full: SEQPACKET: the engine has no slot for another message
 *	(written under the socket lock, read by poll without it).
 * @snd_end: stream offset just after the last byte written.
 * @ofo: received payload not yet contiguous, by stream offset.
 * @push_batch: a packet of a batch being taken in left its push to the
 *	end of the batch (mrc_glue_batch_end()).
 * @rx_ratio: payload per byte of truesize of the data received, in
 *	1/1024 (a moving average; 0 before the first): what the receive
 *	buffer holds in credit (mrc_glue_rx_window()).
 * @policy: name of the failure policy the socket uses.
 * @passive: created by a listener (the service port is @sport).
 * @cands: path candidates the engine was built from.
 * @ncands: entries of @cands (and of @routes).
 * @ev_cm: entropy value of handshake and disconnect packets.
 * @params: the engine's parameters, prepared before the handshake.
 * @conn_size: bytes allocated at @conn (engine and its storage).
 * @tx_store: the engine's send storage (scoreboard ring, SEQPACKET send
 *	ring), allocated at the first write (mrc_conn_tx_attach()), NULL
 *	before: an endpoint that never sends does not hold it.
 * @peer_ports_pending: a PORT_STATUS_UPDATE that arrived while a process
 *	owned the socket (MRC_DEFER_PEER_PORTS).
 * @ptb_pending: the latest packet-too-big that arrived while a process
 *	owned the socket (MRC_DEFER_PTB).
 * @mib_folded: the engine's totals already added to the namespace MIB.
 * @route_caches: the routes the paths of @routes keep (@ncands of them).
 * @opts: TCP- and IPv6-level options (drop-in sockets; AF_MRC too).
 * @tcp_listener: with MRC_SO_ACCEPT_TCP: a TCP socket on the same address
 *	and port, bound with the MRC socket, listening with it
 *	(mrc_tcp_listen.c).
 * @tcp_data_ready: the TCP listener's own data_ready callback, once it
 *	listens (NULL before).
 */
struct mrc_sock {
	union {
		struct sock sk;
		struct inet_sock inet;
	};
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
	struct list_head child_node;
	spinlock_t child_lock;	/* innermost: child lists of a listener */
	struct sk_buff_head req_q;
	struct work_struct accept_work;
	struct hrtimer timer;
	unsigned long deferred;
	struct mrc_cm_fsm cm;
	struct mrc_conn *conn;
	struct mrc_route *routes;
	struct sk_buff_head sndq;
	struct page_frag hdr_frag;
	u64 sndq_bytes;
	bool snd_msgs_full;
	u64 snd_end;
	struct rb_root ofo;
	bool push_batch;
	u32 rx_ratio;
	char policy[16];
	bool passive;
	struct mrc_path_cand *cands;
	u32 ncands;
	u32 ev_cm;
	struct mrc_conn_params *params;
	size_t conn_size;
	void *tx_store;
	u32 peer_ports_pending;
	struct mrc_ptb_pending ptb_pending;
	struct mrc_conn_totals mib_folded;
	struct mrc_route_cache *route_caches;
	struct mrc_sock_opts opts;
	struct socket *tcp_listener;
	void (*tcp_data_ready)(struct sock *sk);
};

/**
 * struct mrc6_sock - an MRC socket of the AF_INET6 family (IPPROTO_MRC):
 * inet6_create() finds the IPv6 part at the end of the object.
 * @msk: the MRC socket; must stay first.
 * @inet6: IPv6 socket state the generic inet6 code expects.
 */
struct mrc6_sock {
	struct mrc_sock msk;
	struct ipv6_pinfo inet6;
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

/**
 * mrc_timer_arm() - make the socket's timer fire at @when (ns, ktime), or
 * earlier if it is already due earlier.
 * @msk: the socket (locked).
 * @when: absolute time; 0 does nothing.
 */
static inline void mrc_timer_arm(struct mrc_sock *msk, u64 when)
{
	ktime_t t = ns_to_ktime(when);

	if (!when || msk->sk.sk_state == MRC_ST_CLOSED)
		return;
	if (hrtimer_is_queued(&msk->timer) &&
	    ktime_before(hrtimer_get_expires(&msk->timer), t))
		return;
	hrtimer_start(&msk->timer, t, HRTIMER_MODE_ABS_SOFT);
}

#endif /* _MRC_SK_H */
