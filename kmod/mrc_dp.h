/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: the data path's internal declarations (sockets, the UDP
 * tunnel, demultiplexing tables).
 *
 * Locking, below the configuration locks of mrc_kern.h:
 *   a. the socket lock (lock_sock / bh_lock_sock): all of a socket's
 *      protocol state, including its struct mrc_conn; softirq input that
 *      finds the socket owned by a process goes to the socket backlog and
 *      timers that do defer to release_cb (the TCP pattern);
 *   b. struct mrc_dp_net::tbl_lock (spinlock, BH): insertion into and
 *      removal from the QPN and port tables; lookups use RCU and take a
 *      socket reference before leaving the RCU section.
 *   c. struct mrc_dp_net::ep_lock (spinlock, BH): the waiting EV probes;
 *      innermost, no other lock is taken under it.
 * The listener's lock is never held while a child's is taken, except in
 * accept() (listener, then child), which is the only order used.
 */
#ifndef _MRC_DP_H
#define _MRC_DP_H

#include <linux/hashtable.h>
#include <linux/hrtimer.h>
#include <linux/ratelimit.h>
#include <linux/skbuff.h>
#include <net/sock.h>

#include "mrc_encap.h"
#include "core/mrc_cm_fsm.h"
#include "core/mrc_cookie.h"
#include "mrc_kern.h"

/**
 * struct mrc_skb_cb - what the data path keeps in skb->cb.
 * @off: stream offset of the first payload byte.
 * @len: payload bytes.
 * @eor: the last packet of a SEQPACKET message.
 * @ev: receive: the entropy value, rebuilt from the UDP source port and
 *	the IPv6 flow label (mrc_ev_from_wire()).
 * @ecn_ce: receive: the packet was CE-marked.
 */
struct mrc_skb_cb {
	u64 off;
	u32 len;
	u8 eor;
	u8 ecn_ce;
	u32 ev;
};

/* Entries of struct mrc_dp_net::cookie_used (16 bytes each). */
#define MRC_COOKIE_USED	1024

#define MRC_SKB_CB(skb) ((struct mrc_skb_cb *)&((skb)->cb[0]))

/*
 * Path probes per namespace and second, all connections together: a
 * host whose paths all fail at once (200 connections, 8 paths each,
 * probed every 5 ms) would otherwise send 320,000 probes a second into
 * the failure. 4000 covers 20 assumed-bad paths at the default policy's
 * probe interval; beyond it probes wait their turn. The default of the
 * probe_budget module parameter (mrc_netns.c).
 */
#define MRC_PROBE_RATE_PER_SEC	4000

/* Answered path probes remembered per namespace (direct-mapped). */
#define MRC_PROBE_SEEN		256

/**
 * struct mrc_probe_seen - a path probe that was answered: for a probe
 * interval, any connection to @peer over the source route @path_id takes
 * it as the answer to its own probe of that route (mrc_conn_glue.c).
 * @peer: the peer's address.
 * @path_id: the configured path (usid or srh: one route for every EV).
 * @size: bytes the probe carried on the wire beyond its headers: a
 *	connection with larger data packets needs a probe of its own.
 * @qpn: the connection whose probe it answered, which has counted it
 *	already: for that connection it stands for a liveness probe (a
 *	backup, a path in use) but is not one more answer for a failed path
 *	(mrc_conn_probe_shared()).
 * @at: when the answer came (0: empty).
 */
struct mrc_probe_seen {
	struct in6_addr peer;
	u32 path_id;
	u32 size;
	u32 qpn;
	u64 at;
};

/**
 * struct mrc_dp_net - per-namespace state of the data path (mrc_netns.c
 * sets it up and tears it down).
 * @lock: serialises creation of @udp_sock.
 * @udp_sock: the namespace's UDP tunnel socket (RCU; created on first use).
 * @udp_port: the port @udp_sock is bound to.
 * @tbl_lock: protects insertion into and removal from the tables.
 * @qpn_tbl: connecting and connected sockets by local QPN.
 * @port_tbl: bound sockets by local service port.
 * @next_port: where the search for an ephemeral port starts.
 * @cfg_nb: subscription to the namespace's configuration changes.
 * @ep_lock: protects @ep_probes (taken in softirq).
 * @ep_probes: EV probes waiting for their answer (struct mrc_ep_probe).
 * @ep_rl: rate limit of endpoint requests answered or applied.
 * @rep_rl: rate limit of the CM_REPs listeners send (each answers a
 *	CM_REQ keeping nothing: a spoofed flood is reflected at most this
 *	fast; a CM_REQ over it is dropped, and its requester retries).
 * @probe_rl: the namespace's budget of path probes (every connection's
 *	probes of backups and assumed-bad paths together); a probe over
 *	it is held back, not counted against its path.
 * @probe_seen_lock: protects @probe_seen (taken in softirq).
 * @probe_seen: answered path probes, shared by the namespace's
 *	connections to the same peer over the same source route.
 * @ctl_rl: rate limit of stateless control work: RESETs answering data
 *	for an unknown connection (mrc_hs_reset_unknown()) and the lookups
 *	of NO_CONN RESETs received (mrc_table_lookup_peer()).
 * @cookie_key: the secret of the namespace's handshake cookies (random,
 *	never sent; mrc_cookie.h): its listeners answer CM_REQs keeping
 *	nothing.
 * @cookie_used: cookies that created a connection, direct-mapped by
 *	cookie, each until its cookie expires: a late copy of a CM_RTU
 *	must not create the connection again after it ended (proven
 *	connections only: a flood of CM_REQs puts nothing here).
 * @ecn_hook: the hook that carries outer CE marks into our packets is
 *	registered (with @udp_sock, mrc_ecn.c).
 */
struct mrc_dp_net {
	struct mutex lock;	/* serialises tunnel socket creation */
	struct socket __rcu *udp_sock;
	u16 udp_port;
	spinlock_t tbl_lock;	/* table writers; readers use RCU */
	DECLARE_HASHTABLE(qpn_tbl, 10);
	DECLARE_HASHTABLE(port_tbl, 8);
	u16 next_port;
	struct notifier_block cfg_nb;
	spinlock_t ep_lock;	/* the list of waiting probes */
	struct list_head ep_probes;
	struct ratelimit_state ep_rl;
	struct ratelimit_state rep_rl;
	struct ratelimit_state probe_rl;
	spinlock_t probe_seen_lock;	/* @probe_seen */
	struct mrc_probe_seen probe_seen[MRC_PROBE_SEEN];
	struct ratelimit_state ctl_rl;
	struct mrc_cookie_key cookie_key;
	struct mrc_cookie_used {
		u64 cookie;
		u64 until;
	} cookie_used[MRC_COOKIE_USED];
	bool ecn_hook;
};

extern unsigned int mrc_dp_net_id;

/**
 * mrc_dp_net() - data-path state of a namespace.
 * @net: the namespace.
 *
 * Return: the state, valid while @net is alive.
 */
static inline struct mrc_dp_net *mrc_dp_net(const struct net *net)
{
	return net_generic(net, mrc_dp_net_id);
}

/* Ephemeral service ports (bind to port 0, connect without bind). */
#define MRC_EPHEMERAL_LO	32768
#define MRC_EPHEMERAL_HI	60999

#endif /* _MRC_DP_H */
