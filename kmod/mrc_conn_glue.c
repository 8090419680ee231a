// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: the bridge between a socket and its protocol engine.
 *
 * The engine (kmod/core/mrc_conn.c) makes every protocol decision in
 * stream offsets and PSNs; this file owns the bytes and the packets:
 *
 *  - sendmsg copies the application's bytes into page fragments held by
 *    skbs on msk->sndq (one stream, offsets from 0), the one copy they
 *    get, and tells the engine; mrc_glue_push() asks the engine what to
 *    send, a burst of packets on one path at a time, and builds them as
 *    one skb: each packet's MRC header followed by its payload, the
 *    send queue's pages by reference (a retransmission refers to them
 *    again), sent as one segmentation-offload packet whose every segment
 *    is a whole MRC packet; bytes below the engine's snd_una are freed.
 *  - received data skbs are trimmed to their payload and kept by stream
 *    offset (msk->ofo) until the engine says they are contiguous, then
 *    moved to sk_receive_queue in order. The engine has already rejected
 *    duplicates and anything outside the window or the credit.
 *  - one hrtimer per socket fires at the engine's next deadline.
 *
 * Everything here runs under the socket lock.
 */
#include <linux/jhash.h>
#include <linux/random.h>
#include <linux/sched/signal.h>
#include <net/inet_ecn.h>
#include <net/ip6_route.h>
#include <net/sock.h>

#include "core/mrc_cm.h"
#include "mrc_conn_glue.h"
#include "mrc_output.h"
#include "mrc_table.h"
#include "mrc_stats.h"
#include "mrc_events.h"
#include "mrc_conn_list.h"

/* The uapi arrays of struct mrc_info hold every state and cause. */
static_assert(__MRC_PATH_STATE_MAX <= MRC_PATH_STATES);
static_assert(__MRC_LOSS_MAX <= MRC_LOSS_CAUSES);
static_assert((int)MRC_LOSS_SACK_GAP == (int)MRC_RTX_SACK_GAP &&
	      (int)MRC_LOSS_PER_PATH == (int)MRC_RTX_PER_PATH &&
	      (int)MRC_LOSS_RTO == (int)MRC_RTX_RTO &&
	      (int)MRC_LOSS_NACK == (int)MRC_RTX_NACK &&
	      (int)MRC_LOSS_LINK == (int)MRC_RTX_LINK);

/*
 * Largest engine window, in MPR units of 128 PSNs: 4096 PSNs, 5.7 MB of
 * 1400-byte packets in flight, about 200 KB of scoreboard each way.
 */
#define MRC_GLUE_MPR_UNITS_MAX	32
/* Smallest payload the windows are sized for: a 1500-byte MTU's. */
#define MRC_GLUE_SIZING_PAYLOAD	MRC_CONN_DEF_PAYLOAD
/* EVs of the fallback path set when no path is configured. */
#define MRC_GLUE_FALLBACK_EVS	16
/* The least receive window credited, however small the packets. */
#define MRC_GLUE_RX_WINDOW_MIN	4096

/*
 * The receive window the engine credits, out of the socket's rcvbuf. A
 * received packet costs its truesize, about twice its payload for the
 * ~8 KB packets of a 9000-byte MTU, and input drops data beyond twice
 * rcvbuf of truesize. Crediting half of rcvbuf (as TCP advertises with
 * tcp_adv_win_scale 1) keeps everything the peer may send within that
 * bound: credited data is never dropped for memory.
 */
static void mrc_glue_conn_opts(struct mrc_sock *msk, bool keepalive);
static bool mrc_glue_live(const struct mrc_sock *msk);

static u64 mrc_glue_rcv_window(const struct sock *sk)
{
	return READ_ONCE(sk->sk_rcvbuf) / 2;
}

/*
 * The engine's window for @bytes of a socket buffer, in MPR units: PSNs
 * for that many bytes of 1400-byte packets, at least one unit. The
 * scoreboards are the engine's memory (56 bytes per PSN sent, 16 per PSN
 * received), so a connection costs what its buffers can use, not a fixed
 * 1024 PSNs each way (77 KB, 128 KB with allocation rounding, per idle
 * endpoint). Smaller packets are not lost beyond it: the sender keeps
 * within the peer's window in PSNs as in bytes. Like TCP's window scale,
 * the buffers count as they are at connect() or listen() time.
 */
static u32 mrc_glue_mpr_units(u64 bytes)
{
	u64 psns = DIV_ROUND_UP_ULL(bytes, MRC_GLUE_SIZING_PAYLOAD);

	return clamp_t(u64, DIV_ROUND_UP_ULL(psns, MRC_MPR_UNIT), 1,
		       MRC_GLUE_MPR_UNITS_MAX);
}

/* Packets one push may send before yielding to the timer. */
#define MRC_GLUE_PUSH_BUDGET	128
/*
 * Largest UDP payload of one segmentation-offload packet: the UDP length
 * and the IPv6 payload length (inner headers, then an outer header and
 * the largest SRH) are 16-bit fields.
 */
#define MRC_GLUE_GSO_MAX	60000
/* Fragments a packet of a burst may need: header, payload, pad. */
#define MRC_GLUE_SEG_FRAGS	4

static unsigned int tx_burst = MRC_CONN_TX_BURST;
module_param(tx_burst, uint, 0644);
MODULE_PARM_DESC(tx_burst,
		 "new data packets sent in a row on one path, as one segmentation-offload packet (1: every packet on the next path; default "
		 __stringify(MRC_CONN_TX_BURST) ")");
/* Bytes per skb on the send queue (its pages: fragments of up to 32 KiB). */
#define MRC_GLUE_SNDQ_CHUNK	(64 * 1024)

static struct mrc_cfg_cand *mrc_glue_lookup_paths(struct net *net,
						  const struct in6_addr *daddr,
						  u32 max, u64 seed, int *n)
{
	struct mrc_cfg_cand *c;

	c = kcalloc(max, sizeof(*c), GFP_KERNEL);
	if (!c)
		return NULL;
	*n = mrc_cfg_path_lookup(net, daddr, c, max, seed);
	if (*n < 0) {
		kfree(c);
		return NULL;
	}
	return c;
}

/* Payload that fits a path's MTU after every header. */
static u32 mrc_glue_route_payload(struct net *net, const struct mrc_route *rt,
				  const struct in6_addr *daddr)
{
	u32 mtu = 0;

	if (rt->ifindex) {
		struct net_device *dev;

		rcu_read_lock();
		dev = dev_get_by_index_rcu(net, rt->ifindex);
		if (dev)
			mtu = READ_ONCE(dev->mtu);
		rcu_read_unlock();
	}
	if (!mtu) {
		struct flowi6 fl6 = { .daddr = *daddr };
		struct dst_entry *dst = ip6_route_output(net, NULL, &fl6);

		if (!dst->error)
			mtu = dst_mtu(dst);
		dst_release(dst);
	}
	if (!mtu)
		mtu = IPV6_MIN_MTU;
	mtu -= min_t(u32, mtu - 256, mrc_encap_overhead(rt) + MRC_DATA_HDR_MAX);
	return mtu & ~3U;	/* whole words: no pad on full packets */
}

/**
 * mrc_glue_listen_params() - the CM parameters a listener answers a
 * CM_REQ with, keeping nothing (any context: no allocation): those
 * mrc_glue_prepare() would give a child now, but the payload, which is
 * that of the routing table's route to the requester (the child's own
 * paths still bound what it sends). init_psn and r_key are left to the
 * cookie (mrc_cookie_make()).
 * @l: the listener.
 * @daddr: the requester's address.
 * @p: filled in (fully overwritten).
 */
void mrc_glue_listen_params(struct mrc_sock *l, const struct in6_addr *daddr,
			    struct mrc_cm_params *p)
{
	const struct mrc_route rt = { .mode = MRC_FWD_ENTROPY };
	u64 rcvbuf = mrc_glue_rcv_window(&l->sk);

	memset(p, 0, sizeof(*p));
	p->sock_type = l->sk.sk_type == SOCK_SEQPACKET ? MRC_CM_SOCK_SEQPACKET :
							 MRC_CM_SOCK_STREAM;
	p->mpr = mrc_glue_mpr_units(rcvbuf);
	p->max_payload = min_t(u32, mrc_glue_route_payload(sock_net(&l->sk), &rt,
							   daddr), 65000);
	p->rcv_window = min_t(u64, rcvbuf, U32_MAX);
	p->caps = MRC_CAP_CREDIT | MRC_CAP_TSETH | MRC_CAP_PROBE_PAD;
}

/**
 * mrc_glue_policy() - the failure policy the socket's connection follows:
 * the engine's copy once it runs, else the policy the socket names, or
 * the namespace's "default" policy if that one is gone.
 * @msk: the socket (locked).
 * @pol: filled in.
 */
void mrc_glue_policy(struct mrc_sock *msk, struct mrc_policy *pol)
{
	char name[MRC_POLICY_NAME_LEN + 1];
	struct net *net = sock_net(&msk->sk);

	if (mrc_glue_live(msk)) {
		*pol = msk->conn->p.policy;
		return;
	}
	if (mrc_cfg_policy_get(net, msk->policy, pol, name) &&
	    mrc_cfg_policy_get(net, MRC_POLICY_DEFAULT_NAME, pol, name))
		mrc_policy_default(pol);
}

/**
 * mrc_glue_prepare() - build the path set and allocate the engine, before
 * the handshake (process context).
 * @msk: the socket (locked, or not yet visible), with addresses set.
 *
 * Return: 0 or a negative errno.
 */
int mrc_glue_prepare(struct mrc_sock *msk)
{
	struct net *net = sock_net(&msk->sk);
	struct mrc_conn_params *p;
	struct mrc_cfg_cand *cfg;
	u32 max, i, payload = U32_MAX;
	size_t size;
	int n = 0;

	mrc_glue_release(msk);
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	mrc_conn_params_default(p);
	mrc_glue_policy(msk, &p->policy);

	/* The seed also picks which paths a plane gives (mrc_evset.h). */
	p->seed = get_random_u64();
	max = min(mrc_cfg_max_ev_set(net), p->policy.max_paths);
	cfg = mrc_glue_lookup_paths(net, &msk->daddr, max ? max : 1, p->seed,
				    &n);
	if (!cfg)
		goto nomem;
	if (n <= 0) {
		/* Nothing configured: entropy over the routing table. */
		memset(&cfg[0], 0, sizeof(cfg[0]));
		cfg[0].path_id = U32_MAX;
		cfg[0].mode = MRC_FWD_ENTROPY;
		cfg[0].entropy = min_t(u32, MRC_GLUE_FALLBACK_EVS, p->policy.max_paths);
		cfg[0].weight = 1;
		n = 1;
	}
	msk->cands = kcalloc(n, sizeof(*msk->cands), GFP_KERNEL);
	msk->routes = kcalloc(n, sizeof(*msk->routes), GFP_KERNEL);
	msk->route_caches = kcalloc(n, sizeof(*msk->route_caches), GFP_KERNEL);
	if (!msk->cands || !msk->routes || !msk->route_caches)
		goto nomem;
	for (i = 0; i < n; i++) {
		struct mrc_route *rt = &msk->routes[i];

		rt->mode = cfg[i].mode;
		rt->nsegs = cfg[i].nr_segs;
		rt->ifindex = cfg[i].ifindex;
		rt->outer_saddr = cfg[i].saddr;
		rt->path_id = cfg[i].path_id;
		memcpy(rt->segs, cfg[i].segs, sizeof(rt->segs));
		if (rt->mode != MRC_FWD_ENTROPY)
			rt->cache = &msk->route_caches[i];
		msk->cands[i].cfg_id = i;
		msk->cands[i].plane = cfg[i].plane;
		msk->cands[i].ev_count = cfg[i].mode == MRC_FWD_ENTROPY ?
					 max_t(u32, cfg[i].entropy, 1) : 1;
		payload = min(payload, mrc_glue_route_payload(net, rt, &msk->daddr));
	}
	msk->ncands = n;
	kfree(cfg);
	cfg = NULL;
	/* The path table holds no more EVs than the candidates offer. */
	for (i = 0; i < n; i++)
		p->path_evs = min_t(u32, p->path_evs + msk->cands[i].ev_count,
				    MRC_PATH_MAX_ENTRIES);
	/* The send storage comes with the first write (mrc_glue_write()). */
	p->tx_later = true;

	p->sock_type = msk->sk.sk_type == SOCK_SEQPACKET ? MRC_CONN_SEQPACKET
							 : MRC_CONN_STREAM;
	p->max_payload = min_t(u32, payload, 65000);
	p->rcvbuf = mrc_glue_rcv_window(&msk->sk);
	p->rx_mpr = mrc_glue_mpr_units(p->rcvbuf) * MRC_MPR_UNIT;
	/* What may be unacknowledged is what the send queue holds. */
	p->tx_mpr = mrc_glue_mpr_units(READ_ONCE(msk->sk.sk_sndbuf)) *
		    MRC_MPR_UNIT;
	p->max_paths = p->policy.max_paths;

	msk->lparams.sock_type = p->sock_type;
	msk->lparams.mpr = p->rx_mpr / MRC_MPR_UNIT;
	msk->lparams.max_payload = p->max_payload;
	msk->lparams.init_psn = get_random_u32() & MRC_PSN_MASK;
	msk->lparams.r_key = get_random_u32() | 1;
	msk->lparams.rcv_window = min_t(u64, p->rcvbuf, U32_MAX);
	msk->lparams.caps = MRC_CAP_CREDIT | MRC_CAP_TSETH | MRC_CAP_PROBE_PAD;

	size = sizeof(struct mrc_conn) + mrc_conn_storage_size(p);
	msk->conn = kvzalloc(size, GFP_KERNEL);
	if (!msk->conn)
		goto nomem;
	msk->conn_size = size;
	msk->params = p;
	return 0;

nomem:
	kfree(cfg);
	kfree(p);
	mrc_glue_release(msk);
	return -ENOMEM;
}

/**
 * mrc_glue_start() - start the engine once the peer's parameters are
 * known (any context: no allocation).
 * @msk: the socket (locked), @rparams set.
 *
 * Return: 0, or -EPROTO when the peer's parameters are unacceptable.
 */
int mrc_glue_start(struct mrc_sock *msk)
{
	struct mrc_conn_params *p = msk->params;
	const char *msg;
	u32 tx_cap;

	if (!p || !msk->conn)
		return -ENOMEM;
	tx_cap = p->tx_mpr;	/* what mrc_glue_prepare() sized the ring for */
	if (mrc_cm_negotiate(&msk->lparams, &msk->rparams, p->max_payload, p))
		return -EPROTO;
	p->local_qpn = msk->lqpn;
	p->peer_qpn = msk->rqpn;
	/* Never more in flight than the peer's window or our ring. */
	p->tx_mpr = min(p->tx_mpr, tx_cap);
	p->rcvbuf = mrc_glue_rcv_window(&msk->sk);
	if (mrc_conn_params_check(p, &msg)) {
		net_dbg_ratelimited("mrc: bad connection parameters: %s\n", msg);
		return -EPROTO;
	}
	if (sizeof(struct mrc_conn) + mrc_conn_storage_size(p) > msk->conn_size)
		return -EPROTO;
	if (mrc_conn_init(msk->conn, p, msk->conn + 1, msk->cands,
			  msk->ncands, ktime_get_ns()))
		return -EPROTO;
	mrc_glue_conn_opts(msk, sock_flag(&msk->sk, SOCK_KEEPOPEN));
	return 0;
}

/*
 * Keepalive and user timeout of the socket, into its engine. Knobs the
 * socket left unset follow the connection's policy (the engine keeps
 * the request, so a policy change reaches them).
 */
static void mrc_glue_conn_opts(struct mrc_sock *msk, bool keepalive)
{
	const struct mrc_sock_opts *o = &msk->opts;
	struct mrc_conn_keepalive req = {
		.on = keepalive,
		.idle_ns = (u64)o->ka_idle * NSEC_PER_SEC,
		.intvl_ns = (u64)o->ka_intvl * NSEC_PER_SEC,
		.cnt = o->ka_cnt,
	};

	mrc_conn_set_keepalive(msk->conn, &req, ktime_get_ns());
	mrc_conn_set_user_timeout(msk->conn, (u64)o->user_timeout * NSEC_PER_MSEC);
}

/**
 * mrc_glue_apply_opts() - a socket option that the engine follows changed
 * (SO_KEEPALIVE, TCP_KEEP*, TCP_USER_TIMEOUT): apply it to a live
 * connection; one not yet live takes it when it starts.
 * @msk: the socket (locked).
 * @keepalive: SO_KEEPALIVE is (being turned) on.
 */
void mrc_glue_apply_opts(struct mrc_sock *msk, bool keepalive)
{
	if (!mrc_glue_live(msk))
		return;
	mrc_glue_conn_opts(msk, keepalive);
	mrc_timer_arm(msk, mrc_conn_next_deadline(msk->conn));
}

/**
 * mrc_glue_release() - free the engine and every queued byte.
 * @msk: the socket (locked, or being destroyed).
 */
void mrc_glue_release(struct mrc_sock *msk)
{
	struct rb_node *n;
	u32 i;

	kvfree(msk->conn);
	msk->conn = NULL;
	msk->conn_size = 0;
	kvfree(msk->tx_store);
	msk->tx_store = NULL;
	kfree(msk->params);
	msk->params = NULL;
	kfree(msk->cands);
	msk->cands = NULL;
	kfree(msk->routes);
	msk->routes = NULL;
	for (i = 0; msk->route_caches && i < msk->ncands; i++)
		mrc_route_cache_release(&msk->route_caches[i]);
	kfree(msk->route_caches);
	msk->route_caches = NULL;
	msk->ncands = 0;
	skb_queue_purge(&msk->sndq);
	if (msk->hdr_frag.page) {
		put_page(msk->hdr_frag.page);
		msk->hdr_frag.page = NULL;
	}
	msk->sndq_bytes = 0;
	WRITE_ONCE(msk->snd_msgs_full, false);
	while ((n = rb_first(&msk->ofo))) {
		struct sk_buff *skb = rb_to_skb(n);

		rb_erase(n, &msk->ofo);
		kfree_skb(skb);
	}
}

static bool mrc_glue_live(const struct mrc_sock *msk)
{
	int st = msk->sk.sk_state;

	return msk->conn && (st == MRC_ST_ESTABLISHED || st == MRC_ST_PEER_CLOSED ||
			     st == MRC_ST_DREQ_SENT);
}

static const struct mrc_route *mrc_glue_route(const struct mrc_sock *msk, u32 cfg_id)
{
	return cfg_id < msk->ncands ? &msk->routes[cfg_id] : NULL;
}

/*
 * Path probes shared between connections. In usid and srh mode a
 * configured path is one source route whatever the EV, so a probe one
 * connection sent to a peer proves the route for every connection to
 * that peer: when many connections share failed paths or backups, each
 * route is probed about once per probe interval, not once per
 * connection. In entropy mode each EV hashes its own way through the
 * fabric: nothing is shared.
 */
static const struct mrc_route *mrc_glue_probe_route(const struct mrc_sock *msk,
						    u32 ev)
{
	int idx = mrc_conn_path_of_ev(msk->conn, ev);
	const struct mrc_route *rt;

	if (idx < 0)
		return NULL;
	rt = mrc_glue_route(msk, mrc_conn_path(msk->conn, idx)->cfg_id);
	return rt && rt->mode != MRC_FWD_ENTROPY ? rt : NULL;
}

static struct mrc_probe_seen *mrc_glue_probe_slot(struct mrc_dp_net *dn,
						  const struct in6_addr *peer,
						  u32 path_id)
{
	u32 h = jhash2((const u32 *)peer->s6_addr32, 4, path_id);

	return &dn->probe_seen[h & (MRC_PROBE_SEEN - 1)];
}

/*
 * The size a path probe of ours outstanding on @ev proves (bytes beyond
 * its headers: a reverse-liveness probe of a path in use is small), or
 * -1 when none is outstanding.
 */
static int mrc_glue_path_probe_out(const struct mrc_sock *msk, u32 ev)
{
	int idx = mrc_conn_path_of_ev(msk->conn, ev);
	const struct mrc_path *p;

	if (idx < 0)
		return -1;
	p = mrc_conn_path(msk->conn, idx);
	if (!(p->flags & MRC_PATHF_PROBE_OUT))
		return -1;
	if ((p->flags & MRC_PATHF_REV_OUT) &&
	    (p->state == MRC_PATH_GOOD || p->state == MRC_PATH_SKIP))
		return 0;
	return mrc_conn_probe_size(msk->conn);
}

/*
 * A probe of ours on @ev, proving @size, was answered (the engine counted
 * the answer: a late one, to an earlier probe, proves nothing now):
 * remember it.
 */
static void mrc_glue_probe_note(struct mrc_sock *msk, u32 ev, u32 size, u64 now)
{
	struct mrc_dp_net *dn = mrc_dp_net(sock_net(&msk->sk));
	const struct mrc_route *rt = mrc_glue_probe_route(msk, ev);
	struct mrc_probe_seen *e;

	if (!rt)
		return;
	e = mrc_glue_probe_slot(dn, &msk->daddr, rt->path_id);
	spin_lock_bh(&dn->probe_seen_lock);
	e->peer = msk->daddr;
	e->path_id = rt->path_id;
	e->size = size;
	e->qpn = msk->lqpn;
	e->at = now;
	spin_unlock_bh(&dn->probe_seen_lock);
}

/*
 * When a probe as large as ours over @ev's route was last answered to a
 * connection of the namespace (0: not known), and whether it was @msk's
 * own; the engine decides whether that is recent enough for this path
 * and may stand for its probe (mrc_conn_probe_shared()).
 */
static u64 mrc_glue_probe_known(struct mrc_sock *msk, u32 ev, bool *own)
{
	struct mrc_dp_net *dn = mrc_dp_net(sock_net(&msk->sk));
	const struct mrc_route *rt = mrc_glue_probe_route(msk, ev);
	const struct mrc_probe_seen *e;
	u64 at = 0;

	*own = false;
	if (!rt)
		return 0;
	e = mrc_glue_probe_slot(dn, &msk->daddr, rt->path_id);
	spin_lock_bh(&dn->probe_seen_lock);
	if (e->path_id == rt->path_id && ipv6_addr_equal(&e->peer, &msk->daddr) &&
	    e->size >= mrc_conn_probe_size(msk->conn)) {
		at = e->at;
		*own = e->qpn == msk->lqpn;
	}
	spin_unlock_bh(&dn->probe_seen_lock);
	return at;
}

/*
 * A probe held back by the budget tries again once the budget has
 * refilled (its 100 ms window), spread over a second window so that the
 * probes held back together do not come back together.
 */
static u64 mrc_glue_probe_retry_ns(void)
{
	return 100 * NSEC_PER_MSEC + get_random_u32_below(100 * NSEC_PER_MSEC);
}

/* Copy stream bytes [off, off + len) out of the send queue. */
static int mrc_glue_copy_out(struct mrc_sock *msk, u64 off, u32 len, u8 *to)
{
	struct sk_buff *skb;

	skb_queue_walk(&msk->sndq, skb) {
		struct mrc_skb_cb *cb = MRC_SKB_CB(skb);
		u32 n;

		if (off >= cb->off + cb->len)
			continue;
		if (off < cb->off)
			return -EFAULT;
		n = min_t(u64, len, cb->off + cb->len - off);
		if (skb_copy_bits(skb, off - cb->off, to, n))
			return -EFAULT;
		to += n;
		off += n;
		len -= n;
		if (!len)
			return 0;
	}
	return len ? -EFAULT : 0;
}

/*
 * What a transmit error says about the path (issue #14), or false when it
 * says nothing: the packet left, or may have (NET_XMIT_CN is 0 here), or
 * memory ran short (not the path's fault: the packet waits for its RTO).
 * A drop by the device or a queue (-ENOBUFS, NET_XMIT_DROP) may be a
 * queue full for a moment; an error of the route or the device is proof.
 */
static bool mrc_glue_txerr(struct net *net, int err, enum mrc_conn_txerr *kind)
{
	if (!err)
		return false;
	if (err == -ENOMEM) {
		MRC_INC_STATS(net, MRC_MIB_OUT_DROP_NOMEM);
		return false;
	}
	if (err == -ENETUNREACH)
		MRC_INC_STATS(net, MRC_MIB_OUT_DROP_NO_PATH);
	MRC_INC_STATS(net, MRC_MIB_OUT_REFUSED);
	*kind = err == -ENOBUFS ? MRC_TXERR_DROPPED : MRC_TXERR_REFUSED;
	return true;
}

/*
 * Add @len bytes of @page at @off to @skb's fragments, merged with the
 * last one when they continue it. Return: false when no fragment is left.
 */
static bool mrc_glue_add_frag(struct sk_buff *skb, struct page *page, u32 off,
			      u32 len)
{
	int i = skb_shinfo(skb)->nr_frags;

	if (i && skb_can_coalesce(skb, i, page, off)) {
		skb_frag_size_add(&skb_shinfo(skb)->frags[i - 1], len);
	} else {
		if (i >= MAX_SKB_FRAGS)
			return false;
		get_page(page);
		skb_fill_page_desc(skb, i, page, off, len);
	}
	skb->len += len;
	skb->data_len += len;
	skb->truesize += len;
	return true;
}

/*
 * Walk the send queue's fragments holding stream bytes [off, off + len):
 * with @skb, attach them to it; without, count them. Return: fragments
 * (at most MAX_SKB_FRAGS + 1), or -EFAULT when the bytes are not queued.
 */
static int mrc_glue_sndq_frags(struct mrc_sock *msk, u64 off, u32 len,
			       struct sk_buff *skb)
{
	struct sk_buff *q;
	int frags = 0;

	if (!len)
		return 0;
	skb_queue_walk(&msk->sndq, q) {
		struct mrc_skb_cb *cb = MRC_SKB_CB(q);
		u64 pos;
		int i;

		if (off >= cb->off + cb->len)
			continue;
		if (off < cb->off)
			return -EFAULT;
		pos = off - cb->off;
		/* q holds some of the bytes: its pages may be another's */
		if (skb && skb_has_shared_frag(q))
			skb_shinfo(skb)->flags |= SKBFL_SHARED_FRAG;
		for (i = 0; i < skb_shinfo(q)->nr_frags; i++) {
			const skb_frag_t *f = &skb_shinfo(q)->frags[i];
			u32 fsz = skb_frag_size(f), n;

			if (pos >= fsz) {
				pos -= fsz;
				continue;
			}
			n = min_t(u64, len, fsz - pos);
			if (skb && !mrc_glue_add_frag(skb, skb_frag_page(f),
						      skb_frag_off(f) + pos, n))
				return -EFAULT;
			if (++frags > MAX_SKB_FRAGS)
				return frags;
			pos = 0;
			off += n;
			len -= n;
			if (!len)
				return frags;
		}
	}
	return -EFAULT;
}

/*
 * Write a packet's header into the socket's header page, at its free
 * offset; mrc_glue_take_hdr() then attaches it (or the next write
 * overwrites it). Return: its length, or a negative errno.
 */
static int mrc_glue_write_hdr(struct mrc_sock *msk, const struct mrc_tx_desc *d)
{
	struct page_frag *pf = &msk->hdr_frag;
	int hlen;

	if (!skb_page_frag_refill(MRC_DATA_HDR_MAX, pf, GFP_ATOMIC))
		return -ENOMEM;
	hlen = mrc_conn_build_data_hdr(msk->conn, d,
				       page_address(pf->page) + pf->offset,
				       MRC_DATA_HDR_MAX);
	return hlen < 0 ? -EINVAL : hlen;
}

/* Attach the header mrc_glue_write_hdr() just wrote. */
static bool mrc_glue_take_hdr(struct mrc_sock *msk, struct sk_buff *skb,
			      u32 hlen)
{
	struct page_frag *pf = &msk->hdr_frag;

	if (!mrc_glue_add_frag(skb, pf->page, pf->offset, hlen))
		return false;
	pf->offset += ALIGN(hlen, 4);
	return true;
}

/* The zero bytes after a payload that is not whole words. */
static int mrc_glue_attach_pad(struct mrc_sock *msk, struct sk_buff *skb,
			       u32 pad)
{
	struct page_frag *pf = &msk->hdr_frag;

	if (!pad)
		return 0;
	if (!skb_page_frag_refill(4, pf, GFP_ATOMIC))
		return -ENOMEM;
	memset(page_address(pf->page) + pf->offset, 0, pad);
	if (!mrc_glue_add_frag(skb, pf->page, pf->offset, pad))
		return -EMSGSIZE;
	pf->offset += 4;
	return 0;
}

/*
 * One packet whose payload is scattered over more send-queue fragments
 * than an skb holds (small writes of several sockets sharing a task's
 * page fragment): its payload is copied. Return: the skb, or NULL.
 */
static struct sk_buff *mrc_glue_copied_pkt(struct mrc_sock *msk,
					   const struct mrc_tx_desc *d)
{
	u32 pad = mrc_pad_len(d->len);
	struct sk_buff *skb;
	int hlen;

	skb = mrc_alloc_skb(MRC_DATA_HDR_MAX + d->len + pad, GFP_ATOMIC);
	if (!skb)
		return NULL;
	hlen = mrc_conn_build_data_hdr(msk->conn, d, skb_tail_pointer(skb),
				       MRC_DATA_HDR_MAX);
	if (hlen < 0 ||
	    mrc_glue_copy_out(msk, d->off, d->len, skb_put(skb, hlen + d->len) + hlen)) {
		kfree_skb(skb);
		return NULL;
	}
	if (pad)
		skb_put_zero(skb, pad);
	return skb;
}

/*
 * Build one skb out of the packets @d[0..@n): the first packet's header
 * linear, its payload and every later packet's header, payload and pad as
 * page fragments. Packets join while each is as long on the wire as the
 * first (the last may be shorter), the fragments and MRC_GLUE_GSO_MAX
 * allow. More than one packet makes a UDP segmentation-offload skb
 * (SKB_GSO_UDP_L4) of segments as long as the first packet, so the stack
 * or the device cuts it into exactly these packets, each with its own
 * headers. Return: the skb (with *@used packets), or NULL without memory.
 */
static struct sk_buff *mrc_glue_build(struct mrc_sock *msk,
				      const struct mrc_tx_desc *d, u32 n,
				      u32 *used)
{
	u32 seg, total, k, pad;
	struct sk_buff *skb;
	int hlen, frags;

	*used = 1;
	frags = mrc_glue_sndq_frags(msk, d[0].off, d[0].len, NULL);
	if (frags < 0 || frags + 1 > MAX_SKB_FRAGS)
		return mrc_glue_copied_pkt(msk, &d[0]);
	skb = mrc_alloc_skb(MRC_DATA_HDR_MAX, GFP_ATOMIC);
	if (!skb)
		return NULL;
	hlen = mrc_conn_build_data_hdr(msk->conn, &d[0], skb_tail_pointer(skb),
				       MRC_DATA_HDR_MAX);
	if (hlen < 0)
		goto drop;
	skb_put(skb, hlen);
	pad = mrc_pad_len(d[0].len);
	if (mrc_glue_sndq_frags(msk, d[0].off, d[0].len, skb) < 0 ||
	    mrc_glue_attach_pad(msk, skb, pad))
		goto drop;
	seg = hlen + d[0].len + pad;
	total = seg;
	for (k = 1; k < n; k++) {
		u32 sz;

		pad = mrc_pad_len(d[k].len);
		frags = mrc_glue_sndq_frags(msk, d[k].off, d[k].len, NULL);
		if (frags < 0 || total + seg > MRC_GLUE_GSO_MAX ||
		    skb_shinfo(skb)->nr_frags + frags + 2 > MAX_SKB_FRAGS)
			break;
		hlen = mrc_glue_write_hdr(msk, &d[k]);
		if (hlen < 0)
			goto drop;
		sz = hlen + d[k].len + pad;
		/* every segment but the last is as long as the first */
		if (sz > seg)
			break;
		if (!mrc_glue_take_hdr(msk, skb, hlen) ||
		    mrc_glue_sndq_frags(msk, d[k].off, d[k].len, skb) < 0 ||
		    mrc_glue_attach_pad(msk, skb, pad))
			goto drop;
		total += sz;
		*used = k + 1;
		if (sz < seg)
			break;
	}
	if (*used > 1) {
		skb_shinfo(skb)->gso_size = seg;
		skb_shinfo(skb)->gso_type = SKB_GSO_UDP_L4;
		skb_shinfo(skb)->gso_segs = *used;
	}
	return skb;
drop:
	kfree_skb(skb);
	return NULL;
}

/*
 * Send the burst @d[0..@n) (mrc_conn_next_tx_burst(): one path, PSN
 * order), as few skbs as mrc_glue_build() makes of it. Return: 0, or the
 * error of the local stack with *@failed set to the first packet that did
 * not leave (the rest were not tried).
 */
static int mrc_glue_send_burst(struct mrc_sock *msk, const struct mrc_tx_desc *d,
			       u32 n, u32 *failed)
{
	struct net *net = sock_net(&msk->sk);
	const struct mrc_route *rt = mrc_glue_route(msk, d[0].cfg_id);
	struct mrc_flow fl;
	u32 k = 0, used;
	int err;

	mrc_flow_of(msk, &fl, d[0].ev);
	/*
	 * Data is ECN-capable: a queue on its path marks it rather than
	 * drop it, and the SACK tells us which path to skip (mrc_ecn.c).
	 */
	fl.tclass |= INET_ECN_ECT_0;
	while (k < n) {
		struct sk_buff *skb = mrc_glue_build(msk, d + k, n - k, &used);

		if (!skb) {
			/* The engine retransmits them on timeout. */
			MRC_ADD_STATS(net, MRC_MIB_OUT_DROP_NOMEM, n - k);
			return 0;
		}
		MRC_ADD_STATS(net, MRC_MIB_OUT_PKTS, used);
		MRC_ADD_STATS(net, MRC_MIB_OUT_BYTES, skb->len);
		if (used > 1)
			MRC_INC_STATS(net, MRC_MIB_OUT_BURSTS);
		err = mrc_xmit(net, skb, rt, &fl, msk->sk.sk_mark,
			       msk->sk.sk_priority);
		if (err) {
			*failed = k;
			return err;
		}
		k += used;
	}
	return 0;
}

/* MIB counters of control packets, by type and direction. */
static void mrc_glue_count_ctrl(struct net *net, enum mrc_pkt_type type, bool out)
{
	/* Received packets are already in InPkts (mrc_input()). */
	if (out)
		MRC_INC_STATS(net, MRC_MIB_OUT_PKTS);
	switch (type) {
	case MRC_PKT_SACK:
		MRC_INC_STATS(net, out ? MRC_MIB_SACK_OUT : MRC_MIB_SACK_IN);
		break;
	case MRC_PKT_NACK:
		MRC_INC_STATS(net, out ? MRC_MIB_NACK_OUT : MRC_MIB_NACK_IN);
		break;
	case MRC_PKT_PROBE:
		if (out)
			MRC_INC_STATS(net, MRC_MIB_PROBES_SENT);
		break;
	default:
		break;
	}
}

/* MIB counter of a packet the engine dropped. */
static void mrc_glue_count_drop(struct net *net, int reason)
{
	switch (reason) {
	case MRC_DROP_BAD_RKEY:
	case MRC_DROP_BAD_RESET:
	case MRC_DROP_BAD_CTRL_KEY:
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_BAD_KEY);
		break;
	case MRC_DROP_PSN_WINDOW:
	case MRC_DROP_NO_CREDIT:
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_PSN_WINDOW);
		break;
	case MRC_DROP_MSG_FULL:
	case MRC_DROP_NO_MEM:
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_NOMEM);
		break;
	default:
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_MALFORMED);
		break;
	}
}

/* MIB counter of a path state change. */
static void mrc_glue_count_path(struct net *net, const struct mrc_conn_event *ev)
{
	if (ev->old_state == ev->new_state)
		return;	/* a new reason only: no transition to count */
	if (ev->reason == MRC_PR_REPLACED)
		MRC_INC_STATS(net, MRC_MIB_PATH_REPLACED);
	if (ev->reason == MRC_PR_TX_REFUSED &&
	    ev->new_state == MRC_PATH_ASSUMED_BAD)
		MRC_INC_STATS(net, MRC_MIB_PATH_TX_REFUSED);
	switch (ev->new_state) {
	case MRC_PATH_SKIP:
		MRC_INC_STATS(net, MRC_MIB_PATH_TO_SKIP);
		break;
	case MRC_PATH_ASSUMED_BAD:
		MRC_INC_STATS(net, MRC_MIB_PATH_TO_BAD);
		break;
	case MRC_PATH_GOOD:
		MRC_INC_STATS(net, MRC_MIB_PATH_TO_GOOD);
		break;
	case MRC_PATH_DENIED:
		MRC_INC_STATS(net, MRC_MIB_PATH_DENIED);
		break;
	default:
		break;
	}
}

/* Return: 0, or the error of the local stack (mrc_send_hdr_pkt()). */
static int mrc_glue_send_ctrl(struct mrc_sock *msk, const struct mrc_pkt *pkt,
			      u32 ev)
{
	const struct mrc_route *rt = NULL;
	const struct mrc_path *path;
	struct mrc_flow fl;
	int idx, err;

	idx = mrc_conn_path_of_ev(msk->conn, ev);
	if (idx >= 0) {
		path = mrc_conn_path(msk->conn, idx);
		if (path)
			rt = mrc_glue_route(msk, path->cfg_id);
	}
	mrc_flow_of(msk, &fl, ev);
	err = mrc_send_hdr_pkt(sock_net(&msk->sk), pkt, rt, &fl, msk->sk.sk_mark,
			       msk->sk.sk_priority);
	mrc_glue_count_ctrl(sock_net(&msk->sk), pkt->type, true);
	return err;
}

static void mrc_glue_fold_one(struct net *net, int field, u64 *folded,
			      u64 now)
{
	if (now > *folded)
		MRC_ADD_STATS(net, field, now - *folded);
	*folded = now;
}

/* Add what the engine counted since the last push to the namespace MIB. */
static void mrc_glue_fold_mib(struct mrc_sock *msk)
{
	static const int rtx_mib[__MRC_LOSS_MAX] = {
		[MRC_LOSS_SACK_GAP] = MRC_MIB_RETX_SACK,
		[MRC_LOSS_PER_PATH] = MRC_MIB_RETX_EV,
		[MRC_LOSS_RTO] = MRC_MIB_RETX_RTO,
		[MRC_LOSS_NACK] = MRC_MIB_RETX_NACK,
		[MRC_LOSS_LINK] = MRC_MIB_RETX_EV,	/* the EV's link failed */
	};
	struct mrc_conn_totals *f = &msk->mib_folded;
	struct net *net = sock_net(&msk->sk);
	struct mrc_conn_totals now;
	int i;

	mrc_conn_get_totals(msk->conn, &now);
	for (i = 0; i < __MRC_LOSS_MAX; i++)
		mrc_glue_fold_one(net, rtx_mib[i], &f->rtx_by_cause[i],
				  now.rtx_by_cause[i]);
	mrc_glue_fold_one(net, MRC_MIB_ECN_MARKS, &f->ecn_marks, now.ecn_marks);
	mrc_glue_fold_one(net, MRC_MIB_PROBES_TIMEOUT, &f->probes_timeout,
			  now.probes_timeout);
	mrc_glue_fold_one(net, MRC_MIB_PROBES_ANSWERED, &f->probes_answered,
			  now.probes_answered);
	mrc_glue_fold_one(net, MRC_MIB_PATH_FLAPS, &f->path_flaps,
			  now.path_flaps);
	mrc_glue_fold_one(net, MRC_MIB_PATH_REVERSE_PROBES, &f->rev_probes,
			  now.rev_probes);
	mrc_glue_fold_one(net, MRC_MIB_PATH_PROBE_STALE, &f->probes_stale,
			  now.probes_stale);
	mrc_glue_fold_one(net, MRC_MIB_IN_SACK_CREDIT_BOGUS, &f->credit_bogus,
			  now.credit_bogus);
	mrc_glue_fold_one(net, MRC_MIB_PATH_SUSPECT, &f->suspects,
			  now.suspects);
	mrc_glue_fold_one(net, MRC_MIB_PATH_SUSPECT_CLEARED,
			  &f->suspects_cleared, now.suspects_cleared);
}

static void mrc_glue_events(struct mrc_sock *msk)
{
	struct net *net = sock_net(&msk->sk);
	struct mrc_conn_event ev;

	while (mrc_conn_pop_event(msk->conn, &ev)) {
		const struct mrc_route *rt;

		switch (ev.type) {
		case MRC_CEV_PATH:
			rt = mrc_glue_route(msk, ev.cfg_id);
			mrc_event_path_state(net, msk->lqpn, ev.ev,
					     rt ? rt->path_id : U32_MAX, ev.plane,
					     ev.old_state, ev.new_state,
					     ev.reason, ev.drops);
			mrc_glue_count_path(net, &ev);
			break;
		case MRC_CEV_RECOVERY:
			mrc_event_recovery(net, msk->lqpn, ev.ttr_ns);
			MRC_INC_STATS(net, MRC_MIB_RECOVERIES);
			mrc_stats_ttr(net, ev.ttr_ns);
			break;
		default:
			break;
		}
	}
	mrc_glue_fold_mib(msk);
}

/* Free send-queue bytes the peer acknowledged. */
/*
 * Publish for poll whether the engine takes another SEQPACKET message:
 * the byte budget alone would report writable while every message slot
 * is taken, and a non-blocking writer would spin on EAGAIN. Return true
 * when a slot came free.
 */
static bool mrc_glue_note_msg_room(struct mrc_sock *msk)
{
	bool was_full = msk->snd_msgs_full;
	u32 msgs;

	mrc_conn_app_space(msk->conn, &msgs);
	WRITE_ONCE(msk->snd_msgs_full, !msgs);
	return was_full && msgs;
}

static void mrc_glue_free_acked(struct mrc_sock *msk)
{
	u64 una = mrc_conn_snd_una_off(msk->conn);
	struct sock *sk = &msk->sk;
	struct sk_buff *skb;
	bool freed = mrc_glue_note_msg_room(msk);

	while ((skb = skb_peek(&msk->sndq))) {
		struct mrc_skb_cb *cb = MRC_SKB_CB(skb);

		if (cb->off + cb->len > una)
			break;
		__skb_unlink(skb, &msk->sndq);
		msk->sndq_bytes -= cb->len;
		sk_wmem_queued_add(sk, -skb->truesize);
		consume_skb(skb);
		freed = true;
	}
	if (freed)
		sk->sk_write_space(sk);
}

/**
 * mrc_glue_cm_route() - the way a CM message or RESET of a live connection
 * goes: along one of its usable paths, the next in rotation.
 * @msk: the socket (locked).
 * @fl: filled in with the path's flow when a path is found.
 *
 * Left to the routing table, a disconnect could hash onto a spine that
 * silently drops everything for as long as the fault lasts: every retry
 * lost, the peer would never see the end of the stream. The connection's
 * own paths are the ones known to work.
 *
 * Return: the path's route, or NULL (@fl untouched) when the connection is
 * not live or has no usable path: the caller uses the routing table.
 */
const struct mrc_route *mrc_glue_cm_route(struct mrc_sock *msk,
					  struct mrc_flow *fl)
{
	const struct mrc_route *rt;
	const struct mrc_path *p;
	int idx;

	if (!mrc_glue_live(msk))
		return NULL;
	idx = mrc_conn_pick_path(msk->conn, ktime_get_ns());
	p = idx >= 0 ? mrc_conn_path(msk->conn, idx) : NULL;
	rt = p ? mrc_glue_route(msk, p->cfg_id) : NULL;
	if (rt)
		mrc_flow_of(msk, fl, p->ev);
	return rt;
}

/**
 * mrc_glue_cm_fanout() - how many copies of a retransmitted CM message (or
 * of the answer to one) go out, each along the next path in rotation.
 * @msk: the socket (locked).
 *
 * A copy was lost, maybe on a path of ours that died without our knowing
 * it: a side that only receives never learns that its own paths died,
 * and its every disconnect would be lost until the rotation found the
 * survivor.
 *
 * Return: up to MRC_CONN_PROBE_FANOUT, never more than the usable paths;
 * 0 when the connection is not live (the routing table carries it).
 */
u32 mrc_glue_cm_fanout(struct mrc_sock *msk)
{
	if (!mrc_glue_live(msk))
		return 0;
	return min_t(u32, mrc_conn_usable_paths(msk->conn),
		     MRC_CONN_PROBE_FANOUT);
}

/**
 * mrc_glue_send_port_status() - tell the peer at once which of our planes
 * are up (ENDPOINT_REQUEST PORT_STATUS_UPDATE), one copy along a GOOD path
 * of each plane that is up, so the news arrives even when the plane it is
 * about is the one that failed.
 * @msk: the socket (locked).
 *
 * Return: the number of copies sent.
 */
int mrc_glue_send_port_status(struct mrc_sock *msk)
{
	struct mrc_pkt pkt = {};
	u32 i, sent_planes = 0;
	int sent = 0;

	if (!mrc_glue_live(msk))
		return 0;
	pkt.type = MRC_PKT_EP_REQ;
	pkt.bth.opcode = MRC_OP_EP_REQUEST;
	pkt.bth.pkey = MRC_PKEY_DEFAULT;
	pkt.bth.dest_qpn = MRC_QPN_ENDPOINT;
	pkt.u.ep_req.op = MRC_EP_PORT_STATUS_UPDATE;
	pkt.u.ep_req.req_id = get_random_u16();
	pkt.u.ep_req.port_status = ~msk->conn->paths.plane_down;
	pkt.u.ep_req.tx_time = ktime_get_ns();
	for (i = 0; i < mrc_conn_path_count(msk->conn); i++) {
		const struct mrc_path *p = mrc_conn_path(msk->conn, i);

		if (!p || p->state != MRC_PATH_GOOD || p->plane >= 32 ||
		    (sent_planes & BIT(p->plane)))
			continue;
		sent_planes |= BIT(p->plane);
		mrc_glue_send_ctrl(msk, &pkt, p->ev);
		sent++;
	}
	return sent;
}

/**
 * mrc_glue_peer_ports() - the peer reported which of its planes are up.
 * @msk: the socket (locked).
 * @up_mask: bit i set when the peer's plane i is up.
 *
 * An update that would leave the connection no plane at all is ignored:
 * a peer with every port down could not have sent it, so it is forged or
 * stale, and acting on it would only stall the connection. The peer's
 * SACKs carry the same bitmap and correct any stale value.
 *
 * Return: true when the update was applied (push then).
 */
bool mrc_glue_peer_ports(struct mrc_sock *msk, u32 up_mask)
{
	u32 i, used = 0;

	if (!mrc_glue_live(msk))
		return false;
	for (i = 0; i < msk->ncands; i++)
		if (msk->cands[i].plane < 32)
			used |= BIT(msk->cands[i].plane);
	if (!(up_mask & used))
		return false;
	mrc_conn_set_peer_ports(msk->conn, up_mask, ktime_get_ns());
	return true;
}

/**
 * mrc_glue_push() - send what the engine allows, handle its events, free
 * acknowledged bytes, re-arm the timer.
 * @msk: the socket (locked).
 *
 * Return: a verdict for connection management (mrc_hs_verdict()): 0, or
 * the positive errno that ended the connection.
 */
int mrc_glue_push(struct mrc_sock *msk)
{
	struct net *net = sock_net(&msk->sk);
	struct mrc_conn *conn = msk->conn;
	struct mrc_tx_desc d[MRC_CONN_TX_BURST];
	int budget = MRC_GLUE_PUSH_BUDGET;
	enum mrc_conn_txerr kind;
	u32 burst, failed = 0;
	int n;
	struct mrc_pkt pkt;
	bool own;
	u64 now;
	u32 ev;
	int r;

	msk->push_batch = false;
	if (!mrc_glue_live(msk))
		return 0;
	now = ktime_get_ns();
	while (budget > 0 && (r = mrc_conn_next_ctrl(conn, now, &pkt, &ev))) {
		budget--;
		/* A recent answer over the same route may do. */
		if (r == 2) {
			u64 at = mrc_glue_probe_known(msk, ev, &own);

			if (mrc_conn_probe_shared(conn, ev, now, at, own)) {
				MRC_INC_STATS(net, MRC_MIB_PATH_PROBE_SHARED);
				continue;
			}
		}
		/* A path probe waits when the namespace's budget is spent. */
		if (r == 2 && !__ratelimit(&mrc_dp_net(net)->probe_rl)) {
			mrc_conn_probe_unsent(conn, ev, now, mrc_glue_probe_retry_ns());
			MRC_INC_STATS(net, MRC_MIB_PATH_PROBE_DEFERRED);
			continue;
		}
		/*
		 * Refused by the route or the device: the engine blames the
		 * path and sends a SACK or NACK again on another one, now.
		 */
		if (mrc_glue_txerr(net, mrc_glue_send_ctrl(msk, &pkt, ev), &kind))
			mrc_conn_ctrl_failed(conn, &pkt, ev, r == 2, kind,
					     ktime_get_ns());
	}
	/*
	 * Each packet is stamped when it leaves, not when the push began: on
	 * a busy host a long push would otherwise make its last packets time
	 * out early and their RTT samples look longer than they were. A
	 * packet the local stack refused never left: the engine takes it
	 * out of flight and resends it on another path in this same loop
	 * (issue #14), instead of waiting for its RTO.
	 */
	burst = clamp_t(u32, MRC_GLUE_GSO_MAX /
			(MRC_DATA_HDR_MAX + conn->p.max_payload), 1,
			min_t(u32, READ_ONCE(tx_burst) ?: 1, MRC_CONN_TX_BURST));
	while (budget > 0 &&
	       (n = mrc_conn_next_tx_burst(conn, (now = ktime_get_ns()), d,
					   min_t(u32, burst, budget))) > 0) {
		if (mrc_glue_txerr(net, mrc_glue_send_burst(msk, d, n, &failed), &kind))
			mrc_conn_tx_failed(conn, d[failed].psn, d[failed].ev, kind, now);
		budget -= n;
	}
	mrc_glue_events(msk);
	mrc_glue_free_acked(msk);

	if (conn->err)
		return -conn->err;
	/* Out of budget: come back at once, from the timer. */
	mrc_timer_arm(msk, budget ? mrc_conn_next_deadline(conn) :
		      ktime_get_ns());
	return 0;
}

/**
 * mrc_glue_pkt_too_big() - an ICMPv6 packet-too-big about a packet of this
 * connection (mrc_input_pkt_too_big() checked the quote's headers).
 * @msk: the socket (locked, not owned by a process).
 * @quote: the quoted packet, decoded.
 * @ev: the EV it was sent on.
 * @room: the largest MRC packet the reported MTU carries on that path.
 * @verdict: set to a verdict for connection management (mrc_hs_verdict()).
 *
 * Return: true if the quote was this connection's (key, PSN or probe id
 * and EV checked by the engine).
 */
bool mrc_glue_pkt_too_big(struct mrc_sock *msk, const struct mrc_pkt *quote,
			  u32 ev, u32 room, int *verdict)
{
	int ret;

	*verdict = 0;
	if (!mrc_glue_live(msk))
		return false;
	ret = mrc_conn_on_pkt_too_big(msk->conn, quote, ev, room,
				      ktime_get_ns());
	if (ret > 0) {
		MRC_INC_STATS(sock_net(&msk->sk), MRC_MIB_PATH_PKT_TOO_BIG);
		/* the event out, the path's packets resent on the others */
		*verdict = mrc_glue_push(msk);
	}
	return ret >= 0;
}

/**
 * mrc_glue_ptb_defer() - keep a packet-too-big that arrived while a
 * process owned the socket for release_cb (mrc_glue_ptb_deferred()); a
 * later one replaces it.
 * @msk: the socket (bh-locked, owned by a process).
 * @quote: the quoted packet, decoded.
 * @ev: the EV it was sent on.
 * @room: the largest MRC packet the reported MTU carries on that path.
 */
void mrc_glue_ptb_defer(struct mrc_sock *msk, const struct mrc_pkt *quote,
			u32 ev, u32 room)
{
	struct mrc_ptb_pending *p = &msk->ptb_pending;

	p->type = quote->type;
	p->psn = quote->bth.psn;
	p->key = quote->type == MRC_PKT_PROBE ? quote->u.probe.key :
						quote->u.data.r_key;
	p->probe_id = quote->u.probe.probe_id;
	p->ev = ev;
	p->room = room;
	set_bit(MRC_DEFER_PTB, &msk->deferred);
}

/**
 * mrc_glue_ptb_deferred() - the packet-too-big kept by mrc_glue_ptb_defer(),
 * now that the process released the socket.
 * @msk: the socket (locked).
 *
 * Return: a verdict for connection management (mrc_hs_verdict()).
 */
int mrc_glue_ptb_deferred(struct mrc_sock *msk)
{
	const struct mrc_ptb_pending *p = &msk->ptb_pending;
	struct mrc_pkt q = {};
	int verdict;

	q.type = p->type;
	q.bth.dest_qpn = msk->rqpn;
	q.bth.psn = p->psn;
	if (p->type == MRC_PKT_PROBE) {
		q.u.probe.key = p->key;
		q.u.probe.probe_id = p->probe_id;
	} else {
		q.u.data.r_key = p->key;
	}
	mrc_glue_pkt_too_big(msk, &q, p->ev, p->room, &verdict);
	return verdict;
}

/**
 * mrc_glue_timer() - the socket's timer fired while connected.
 * @msk: the socket (locked).
 *
 * Return: the verdict of mrc_glue_push().
 */
int mrc_glue_timer(struct mrc_sock *msk)
{
	if (!mrc_glue_live(msk))
		return 0;
	mrc_conn_on_timer(msk->conn, ktime_get_ns());
	return mrc_glue_push(msk);
}

/**
 * mrc_glue_all_acked() - has the peer acknowledged every byte written?
 * @msk: the socket (locked).
 *
 * Return: true when nothing is queued or in flight.
 */
bool mrc_glue_all_acked(struct mrc_sock *msk)
{
	return !msk->conn || mrc_conn_all_acked(msk->conn);
}

/* Move payload the engine declared contiguous to the receive queue. */
static void mrc_glue_deliver(struct mrc_sock *msk, u64 deliver_off)
{
	struct sock *sk = &msk->sk;
	bool woke = false;
	struct rb_node *n;

	while ((n = rb_first(&msk->ofo))) {
		struct sk_buff *skb = rb_to_skb(n);

		if (MRC_SKB_CB(skb)->off >= deliver_off)
			break;
		rb_erase(n, &msk->ofo);
		__skb_queue_tail(&sk->sk_receive_queue, skb);
		woke = true;
	}
	if (woke)
		sk->sk_data_ready(sk);
}

/*
 * The window a receive buffer is worth in payload. Input refuses data
 * beyond twice rcvbuf of truesize, and a stream of small packets costs
 * several times its payload in truesize: crediting rcvbuf / 2 of payload
 * then promises more than the queue can hold, and the sender's packets
 * are refused (NACK NO_PKT_BUFFER) instead of waiting for credit. As TCP
 * scales its window by the payload-to-truesize ratio it sees, the credit
 * follows the ratio of what arrives; large packets keep rcvbuf / 2.
 * The window never drops below one full packet (the sender waits for
 * credit of a whole one).
 */
static void mrc_glue_rx_window(struct mrc_sock *msk, u32 len, u32 truesize)
{
	struct sock *sk = &msk->sk;
	u32 r = truesize ? min_t(u32, div_u64((u64)len << 10, truesize),
				 1024) : 1024;
	u64 win, floor;

	if (!msk->rx_ratio)
		msk->rx_ratio = r;
	else
		msk->rx_ratio = msk->rx_ratio - (msk->rx_ratio >> 3) + (r >> 3);
	win = (2ULL * READ_ONCE(sk->sk_rcvbuf) * msk->rx_ratio) >> 10;
	/*
	 * Never below one full packet: a sender waits for credit of a whole
	 * packet before it sends one (silly-window avoidance), so a smaller
	 * window would stall a stream of large packets for good.
	 */
	floor = max_t(u64, MRC_GLUE_RX_WINDOW_MIN,
		      msk->params ? msk->params->max_payload : U16_MAX);
	win = min_t(u64, max(win, floor), mrc_glue_rcv_window(sk));
	mrc_conn_set_rcvbuf(msk->conn, win);
}

static void mrc_glue_ofo_insert(struct mrc_sock *msk, struct sk_buff *skb)
{
	struct rb_node **p = &msk->ofo.rb_node, *parent = NULL;
	u64 off = MRC_SKB_CB(skb)->off;

	while (*p) {
		parent = *p;
		if (off < MRC_SKB_CB(rb_to_skb(parent))->off)
			p = &parent->rb_left;
		else
			p = &parent->rb_right;
	}
	rb_link_node(&skb->rbnode, parent, p);
	rb_insert_color(&skb->rbnode, &msk->ofo);
}

/**
 * mrc_glue_input() - a packet for an established connection.
 * @msk: the socket (locked).
 * @skb: the packet, data at the MRC header; consumed.
 * @pkt: its decoded headers.
 * @batch: more packets of the same segmentation-offload packet follow:
 *	leave the push (and the SACK it sends) to mrc_glue_batch_end(),
 *	one for the whole batch.
 *
 * Return: a verdict for connection management (mrc_hs_verdict()): 0, the
 * positive errno that ended the connection, or MRC_GLUE_ABORT when new
 * data reached a socket nobody will read.
 */
int mrc_glue_input(struct mrc_sock *msk, struct sk_buff *skb,
		   const struct mrc_pkt *pkt, bool batch)
{
	struct net *net = sock_net(&msk->sk);
	struct mrc_skb_cb *cb = MRC_SKB_CB(skb);
	struct sock *sk = &msk->sk;
	struct mrc_conn_verdict v;
	int path_probe;
	int drop;
	u64 now;

	if (!mrc_glue_live(msk))
		goto free;
	/*
	 * The credit counts payload bytes, the receive queue truesize: a
	 * stream of small packets fills it first. The engine refuses new
	 * data then with a NACK NO_PKT_BUFFER, and the sender waits.
	 */
	if (pkt->type == MRC_PKT_DATA)
		mrc_conn_set_rx_mem_full(msk->conn,
					 atomic_read(&sk->sk_rmem_alloc) >
					 2 * READ_ONCE(sk->sk_rcvbuf));
	/*
	 * Only the answer to a path probe (padded to the data size) proves
	 * a route for others; a persist or keepalive probe is small.
	 */
	path_probe = pkt->type == MRC_PKT_SACK && pkt->u.sack.probe_resp &&
		     pkt->u.sack.mark == MRC_PATH_MARK_NONE ?
		     mrc_glue_path_probe_out(msk, pkt->u.sack.entropy) : -1;
	now = ktime_get_ns();
	drop = mrc_conn_rx(msk->conn, pkt, cb->ev, cb->ecn_ce, now, &v);
	if (!drop && v.probe_answered && path_probe >= 0)
		mrc_glue_probe_note(msk, pkt->u.sack.entropy, path_probe, now);
	if (drop) {
		mrc_glue_count_drop(net, drop);
		net_dbg_ratelimited("mrc: qpn %u dropped a packet: %s\n",
				    msk->lqpn, mrc_conn_drop_name(drop));
		kfree_skb(skb);
		/*
		 * No room (message ring or memory) queued a NACK
		 * NO_PKT_BUFFER: send it now, not with whatever the
		 * connection sends next.
		 */
		return drop == MRC_DROP_MSG_FULL || drop == MRC_DROP_NO_MEM ?
		       mrc_glue_push(msk) : 0;
	}
	if (pkt->type == MRC_PKT_DATA && v.place_len && !v.dup &&
	    sock_flag(sk, SOCK_DEAD)) {
		/* New data for a closed socket nobody will read: reset the
		 * peer, as TCP does, instead of taking it in for ever.
		 */
		kfree_skb(skb);
		return MRC_GLUE_ABORT;
	}
	if (pkt->type == MRC_PKT_DATA) {
		if (v.dup)
			MRC_INC_STATS(net, MRC_MIB_IN_DROP_DUP);
		if (v.dup || !v.place_len) {
			kfree_skb(skb);
		} else {
			u32 hlen = pkt->u.data.payload_off;

			if (!pskb_pull(skb, hlen) || pskb_trim(skb, v.place_len)) {
				kfree_skb(skb);
			} else {
				skb_orphan(skb);
				skb_set_owner_r(skb, sk);
				cb->off = v.place_off;
				cb->len = v.place_len;
				mrc_glue_rx_window(msk, v.place_len,
						   skb->truesize);
				mrc_glue_ofo_insert(msk, skb);
			}
		}
		mrc_glue_deliver(msk, v.deliver_off);
		skb = NULL;
	} else {
		mrc_glue_count_ctrl(net, pkt->type, false);
	}
	if (v.failed || msk->conn->err) {
		kfree_skb(skb);
		return msk->conn->err ? -msk->conn->err : ECONNRESET;
	}
	consume_skb(skb);	/* a control packet, used */
	if (batch) {
		msk->push_batch = true;
		return 0;
	}
	return mrc_glue_push(msk);
free:
	kfree_skb(skb);
	return 0;
}

/**
 * mrc_glue_batch_end() - the last packet of a batch was taken in: push
 * once for all of them, if one left its push to the end.
 * @msk: the socket (locked, not owned by a process).
 *
 * Return: the verdict of mrc_glue_push(), or 0.
 */
int mrc_glue_batch_end(struct mrc_sock *msk)
{
	if (!msk->push_batch)
		return 0;
	msk->push_batch = false;
	return mrc_glue_push(msk);
}

/* ---- the application's bytes (its socket calls: mrc_sock_io.c) ---- */

/**
 * mrc_glue_writable() - may the application write more?
 * @msk: the socket.
 *
 * Return: true when the send buffer and the engine have room.
 */
bool mrc_glue_writable(struct mrc_sock *msk)
{
	return !READ_ONCE(msk->snd_msgs_full) &&
	       READ_ONCE(msk->sndq_bytes) < (u64)READ_ONCE(msk->sk.sk_sndbuf);
}

/**
 * mrc_glue_readable() - is there something for recvmsg?
 * @msk: the socket.
 *
 * Return: STREAM: any byte; SEQPACKET: a whole message.
 */
bool mrc_glue_readable(struct mrc_sock *msk)
{
	struct mrc_conn_msg m;

	if (skb_queue_empty_lockless(&msk->sk.sk_receive_queue))
		return false;
	if (msk->sk.sk_type == SOCK_STREAM)
		return true;
	return msk->conn && mrc_conn_rx_msg_peek(msk->conn, &m);
}

/* Drop the bytes written at or after stream offset @end (a failed write). */
static void mrc_glue_sndq_trim(struct mrc_sock *msk, u64 end)
{
	struct sock *sk = &msk->sk;
	struct sk_buff *skb;

	while ((skb = skb_peek_tail(&msk->sndq))) {
		struct mrc_skb_cb *cb = MRC_SKB_CB(skb);
		u32 keep = end > cb->off ? end - cb->off : 0;
		u32 gone = cb->len - min(keep, cb->len);
		int truesize = skb->truesize;

		if (!gone)
			break;
		msk->sndq_bytes -= gone;
		msk->snd_end -= gone;
		if (!keep) {
			__skb_unlink(skb, &msk->sndq);
			sk_wmem_queued_add(sk, -skb->truesize);
			kfree_skb(skb);
			continue;
		}
		/* the fragments past @keep go; their pages were charged */
		if (___pskb_trim(skb, keep)) {
			/* cannot fail for an skb we own, uncloned */
			WARN_ON_ONCE(1);
			break;
		}
		cb->len = keep;
		skb->truesize -= gone;
		sk_wmem_queued_add(sk, skb->truesize - truesize);
		break;
	}
}

/*
 * The send-queue skb the next bytes, at @page + @off, join: the last one
 * while it holds less than a chunk and has a free fragment (or the bytes
 * continue its last one), else a new one. Return: the skb, or NULL.
 */
static struct sk_buff *mrc_glue_sndq_tail(struct mrc_sock *msk,
					  struct page *page, u32 off)
{
	struct sk_buff *skb = skb_peek_tail(&msk->sndq);
	struct sock *sk = &msk->sk;
	int i = skb ? skb_shinfo(skb)->nr_frags : 0;

	if (skb && MRC_SKB_CB(skb)->len < MRC_GLUE_SNDQ_CHUNK &&
	    (i < MAX_SKB_FRAGS || skb_can_coalesce(skb, i, page, off)))
		return skb;
	skb = alloc_skb(0, sk->sk_allocation);
	if (!skb)
		return NULL;
	MRC_SKB_CB(skb)->off = msk->snd_end;
	MRC_SKB_CB(skb)->len = 0;
	sk_wmem_queued_add(sk, skb->truesize);
	__skb_queue_tail(&msk->sndq, skb);
	return skb;
}

/* @n bytes at @page + @off were hung on @skb: count them as queued. */
static void mrc_glue_sndq_added(struct mrc_sock *msk, struct sk_buff *skb,
				u32 n)
{
	MRC_SKB_CB(skb)->len += n;
	msk->snd_end += n;
	msk->sndq_bytes += n;
	sk_wmem_queued_add(&msk->sk, n);
}

/*
 * Copy @len bytes of the application's message into the send queue: into
 * the socket's page fragment (the task's, as TCP uses it), appended as
 * page fragments of the last send-queue skb while it has room, else of a
 * new one. This is the only copy the bytes get: packets refer to these
 * pages (mrc_glue_build()).
 */
static int mrc_glue_sndq_append(struct mrc_sock *msk, struct msghdr *msg,
				size_t len)
{
	struct page_frag *pfrag = sk_page_frag(&msk->sk);
	struct sock *sk = &msk->sk;
	u64 start = msk->snd_end;

	while (len) {
		struct sk_buff *skb;
		size_t n;

		if (!sk_page_frag_refill(sk, pfrag))
			goto nomem;
		skb = mrc_glue_sndq_tail(msk, pfrag->page, pfrag->offset);
		if (!skb)
			goto nomem;
		n = min_t(size_t, len, pfrag->size - pfrag->offset);
		n = min_t(size_t, n, MRC_GLUE_SNDQ_CHUNK - MRC_SKB_CB(skb)->len);
		if (copy_page_from_iter(pfrag->page, pfrag->offset, n,
					&msg->msg_iter) != n) {
			mrc_glue_sndq_trim(msk, start);
			return -EFAULT;
		}
		/* a fragment was free or the bytes continue the last one */
		mrc_glue_add_frag(skb, pfrag->page, pfrag->offset, n);
		pfrag->offset += n;
		mrc_glue_sndq_added(msk, skb, n);
		len -= n;
	}
	return 0;
nomem:
	mrc_glue_sndq_trim(msk, start);
	return -ENOBUFS;
}

/*
 * Queue @len bytes of @page from @off by reference (sendfile(), splice()):
 * the send queue holds the page itself, as TCP's does, and packets refer
 * to it, so the bytes are never copied. As with TCP, a change to the page
 * before the bytes are acknowledged changes what a retransmission carries;
 * the skbs say their fragments are shared (SKBFL_SHARED_FRAG), so nothing
 * below computes a checksum over bytes that may change under it.
 */
static int mrc_glue_sndq_append_page(struct mrc_sock *msk, struct page *page,
				     u32 off, size_t len)
{
	u64 start = msk->snd_end;

	while (len) {
		struct sk_buff *skb = mrc_glue_sndq_tail(msk, page, off);
		size_t n;

		if (!skb) {
			mrc_glue_sndq_trim(msk, start);
			return -ENOBUFS;
		}
		n = min_t(size_t, len, MRC_GLUE_SNDQ_CHUNK - MRC_SKB_CB(skb)->len);
		mrc_glue_add_frag(skb, page, off, n);
		skb_shinfo(skb)->flags |= SKBFL_SHARED_FRAG;
		mrc_glue_sndq_added(msk, skb, n);
		off += n;
		len -= n;
	}
	MRC_ADD_STATS(sock_net(&msk->sk), MRC_MIB_OUT_ZERO_COPY_BYTES,
		      msk->snd_end - start);
	return 0;
}

/**
 * mrc_glue_write_space() - how much the application may write now.
 * @msk: the socket (locked), connected.
 * @msgs: set to the messages the engine can still take (SEQPACKET).
 *
 * Return: bytes the send buffer and the engine both have room for.
 */
u64 mrc_glue_write_space(struct mrc_sock *msk, u32 *msgs)
{
	u64 sndbuf = READ_ONCE(msk->sk.sk_sndbuf);
	u64 room = sndbuf > msk->sndq_bytes ? sndbuf - msk->sndq_bytes : 0;

	return min(room, mrc_conn_app_space(msk->conn, msgs));
}

/*
 * The engine's send storage, at the first write: about 14 KB at the
 * default buffers that an endpoint which only reads, or an idle one,
 * never holds (performance.md, "Kernel memory per idle connection").
 * Process context, the socket owned: the allocation may sleep.
 */
static int mrc_glue_tx_attach(struct mrc_sock *msk)
{
	void *store;

	store = kvzalloc(mrc_conn_tx_storage_size(msk->conn), GFP_KERNEL);
	if (!store)
		return -ENOMEM;
	if (mrc_conn_tx_attach(msk->conn, store)) {
		kvfree(store);
		return -EALREADY;
	}
	msk->tx_store = store;
	return 0;
}

/**
 * mrc_glue_write() - take @n bytes into the send queue and hand them to
 * the engine (the caller pushes).
 * @msk: the socket (locked), connected, with room for @n bytes
 *	(mrc_glue_write_space()).
 * @src: where the bytes are: the application's message, its iterator at
 *	them (copied), or a page (referenced; @src->offset moves past them).
 * @n: how many.
 * @seq: SEQPACKET: the bytes are one whole message.
 *
 * Return: 0 or a negative errno.
 */
int mrc_glue_write(struct mrc_sock *msk, struct mrc_send_src *src, size_t n,
		   bool seq)
{
	int err;

	if (!mrc_conn_tx_attached(msk->conn)) {
		err = mrc_glue_tx_attach(msk);
		if (err)
			return err;
	}
	if (src->page) {
		err = mrc_glue_sndq_append_page(msk, src->page, src->offset, n);
		if (!err)
			src->offset += n;
	} else {
		err = mrc_glue_sndq_append(msk, src->msg, n);
	}
	if (!err) {
		mrc_conn_app_write(msk->conn, n, seq);
		mrc_glue_note_msg_room(msk);
	}
	return err;
}

/**
 * mrc_glue_msg_peek() - the next whole message received (SEQPACKET).
 * @msk: the socket (locked).
 * @m: set to its length when there is one.
 *
 * Return: true when a whole message is ready.
 */
bool mrc_glue_msg_peek(struct mrc_sock *msk, struct mrc_conn_msg *m)
{
	return msk->conn && mrc_conn_rx_msg_peek(msk->conn, m);
}

/**
 * mrc_glue_read_done() - the application consumed received bytes.
 * @msk: the socket (locked).
 * @m: SEQPACKET: the message consumed (@n is its length); NULL: STREAM.
 * @n: bytes consumed.
 *
 * Return: true when the receive window opened enough that the peer must
 * be told (the caller pushes).
 */
bool mrc_glue_read_done(struct mrc_sock *msk, struct mrc_conn_msg *m,
			u64 n)
{
	if (!msk->conn)
		return false;
	if (m)
		mrc_conn_rx_msg_pop(msk->conn, m);
	return mrc_conn_app_read(msk->conn, n);
}

/**
 * mrc_glue_describe() - the engine's part of a connection's description
 * for the connection list: timers, window, retransmissions, TTR, bytes,
 * and each path.
 * @msk: the socket (locked), past the handshake.
 * @ci: the description, its socket fields already filled in.
 * @paths: room for @max path descriptions.
 * @max: entries of @paths.
 *
 * Return: paths described (0 when the engine has none).
 */
u32 mrc_glue_describe(struct mrc_sock *msk, struct mrc_nl_conn *ci,
		      struct mrc_nl_conn_path *paths, u32 max)
{
	struct mrc_conn_info info;
	u32 i, n = 0;

	if (!msk->conn || !msk->conn->paths.paths)
		return 0;
	mrc_conn_get_info(msk->conn, &info);
	ci->srtt_us = div_u64(info.srtt_ns, NSEC_PER_USEC);
	ci->rto_us = div_u64(info.rto_ns, NSEC_PER_USEC);
	ci->cwnd = min_t(u64, info.cwnd, U32_MAX);
	ci->inflight = min_t(u64, info.inflight_bytes, U32_MAX);
	for (i = 0; i < __MRC_PATH_STATE_MAX; i++)
		ci->paths_by_state[i] = info.paths_by_state[i];
	ci->retx_rto = info.rtx_by_cause[MRC_LOSS_RTO];
	ci->retx_nack = info.rtx_by_cause[MRC_LOSS_NACK];
	ci->retx_sack = info.rtx_by_cause[MRC_LOSS_SACK_GAP];
	ci->retx_ev = info.rtx_by_cause[MRC_LOSS_PER_PATH] +
		      info.rtx_by_cause[MRC_LOSS_LINK];
	ci->ttr_count = info.ttr_count;
	ci->ttr_max_ns = info.ttr_max_ns;
	memcpy(ci->ttr_hist, info.ttr_hist, sizeof(ci->ttr_hist));
	ci->bytes_sent = info.snd_una_off;
	ci->bytes_recv = info.rcv_deliver_off;

	for (i = 0; i < mrc_conn_path_count(msk->conn) && n < max; i++) {
		const struct mrc_path *p = mrc_conn_path(msk->conn, i);
		struct mrc_nl_conn_path *o = &paths[n++];

		o->ev = p->ev;
		o->plane = p->plane;
		o->path_id = p->cfg_id < msk->ncands ?
			     msk->routes[p->cfg_id].path_id : U32_MAX;
		o->state = p->state;
		o->reason = p->reason;
		o->srtt_us = p->srtt_us;
		o->tx_pkts = p->stats.tx_pkts;
		o->retx_pkts = p->stats.retransmits;
		o->lost_pkts = p->stats.losses;
		o->ecn_marks = p->stats.ecn_marks;
		o->timeouts = p->stats.timeouts;
	}
	return n;
}

/**
 * mrc_glue_cfg_change() - apply one configuration change to the engine of
 * a connection: a plane up or down, a path deleted, denied or allowed, a
 * failure policy changed or deleted (the connection then uses "default").
 * @msk: the socket (locked).
 * @event: MRC_CFG_* (mrc_cfg.h).
 * @n: what changed.
 *
 * Return: true when the connection's engine was told (push then).
 */
bool mrc_glue_cfg_change(struct mrc_sock *msk, unsigned long event,
			 const struct mrc_cfg_notify *n)
{
	char name[MRC_POLICY_NAME_LEN + 1];
	u64 now = ktime_get_ns();
	struct mrc_policy pol;
	u32 i;

	if (!msk->conn || !msk->conn->paths.paths)
		return false;
	switch (event) {
	case MRC_CFG_PLANE_UP:
	case MRC_CFG_PLANE_DOWN:
	case MRC_CFG_PLANE_DEL:
		mrc_conn_set_plane(msk->conn, n->plane, event == MRC_CFG_PLANE_UP, now);
		return true;
	case MRC_CFG_PATH_DEL:
	case MRC_CFG_PATH_DENY:
	case MRC_CFG_PATH_ALLOW:
		for (i = 0; i < msk->ncands; i++) {
			if (msk->routes[i].path_id != n->path)
				continue;
			if (event == MRC_CFG_PATH_DEL)
				mrc_conn_remove_cfg(msk->conn, i, now);
			else
				mrc_conn_set_cfg_denied(msk->conn, i,
							event == MRC_CFG_PATH_DENY, now);
		}
		return true;
	case MRC_CFG_POLICY_CHANGE:
	case MRC_CFG_POLICY_DEL:
		if (strcmp(msk->policy, n->policy))
			return false;
		if (event == MRC_CFG_POLICY_DEL)
			strscpy(msk->policy, "default", sizeof(msk->policy));
		if (!mrc_cfg_policy_get(sock_net(&msk->sk), msk->policy, &pol, name))
			mrc_conn_set_policy(msk->conn, &pol, now);
		return true;
	default:
		return false;
	}
}

/**
 * mrc_glue_reset_pkt() - the RESET that aborts a live connection.
 * @msk: the socket (locked), its engine running.
 * @pkt: filled in.
 */
void mrc_glue_reset_pkt(struct mrc_sock *msk, struct mrc_pkt *pkt)
{
	mrc_conn_reset_pkt(msk->conn, MRC_RESET_ABORT, 0, pkt);
}

/**
 * mrc_glue_conn_info() - the engine's view of the connection.
 * @msk: the socket (locked).
 * @ci: filled in when the engine runs.
 *
 * Return: false before the handshake completed and after the connection
 * ended (nothing filled in).
 */
bool mrc_glue_conn_info(struct mrc_sock *msk, struct mrc_conn_info *ci)
{
	int st = msk->sk.sk_state;

	if (!msk->conn || st == MRC_ST_REQ_SENT || st == MRC_ST_REP_SENT)
		return false;
	mrc_conn_get_info(msk->conn, ci);
	return true;
}

/**
 * mrc_glue_inq() - what the next recv() can return (SIOCINQ).
 * @msk: the socket (locked).
 *
 * Return: STREAM: the bytes ready; SEQPACKET: the length of the next
 * whole message, or 0.
 */
u64 mrc_glue_inq(struct mrc_sock *msk)
{
	struct mrc_conn_msg m;
	struct sk_buff *skb;
	u64 n = 0;

	if (!mrc_glue_readable(msk))
		return 0;
	if (msk->sk.sk_type == SOCK_SEQPACKET)
		return mrc_conn_rx_msg_peek(msk->conn, &m) ? m.len : 0;
	skb_queue_walk(&msk->sk.sk_receive_queue, skb)
		n += MRC_SKB_CB(skb)->len;
	return n;
}

/**
 * mrc_glue_info() - MRC_SO_INFO: a struct mrc_info for the application.
 * @msk: the socket (locked).
 * @optval: user buffer.
 * @optlen: its length (in: room; out: bytes written).
 *
 * Return: 0 or a negative errno.
 */
int mrc_glue_info(struct mrc_sock *msk, char __user *optval,
		  int __user *optlen)
{
	struct mrc_info info = {};
	struct mrc_conn_info ci;
	int len, i;

	if (get_user(len, optlen))
		return -EFAULT;
	info.mrci_state = msk->sk.sk_state;
	info.mrci_local_qpn = msk->lqpn;
	info.mrci_remote_qpn = msk->rqpn;
	if (mrc_glue_conn_info(msk, &ci)) {
		info.mrci_srtt_us = div_u64(ci.srtt_ns, NSEC_PER_USEC);
		info.mrci_rttvar_us = div_u64(ci.rttvar_ns, NSEC_PER_USEC);
		info.mrci_rto_us = div_u64(ci.rto_ns, NSEC_PER_USEC);
		info.mrci_cwnd = ci.cwnd;
		info.mrci_inflight_bytes = ci.inflight_bytes;
		info.mrci_inflight_pkts = ci.inflight_pkts;
		info.mrci_paths = ci.npaths;
		for (i = 0; i < __MRC_PATH_STATE_MAX; i++)
			info.mrci_paths_by_state[i] = ci.paths_by_state[i];
		for (i = 0; i < __MRC_LOSS_MAX; i++)
			info.mrci_rtx_by_cause[i] = ci.rtx_by_cause[i];
		info.mrci_rtx_pkts = ci.rtx_pkts;
		info.mrci_timeouts = ci.timeouts;
		info.mrci_ttr_count = ci.ttr_count;
		info.mrci_ttr_max_ns = ci.ttr_max_ns;
		info.mrci_ttr_total_ns = ci.ttr_total_ns;
		info.mrci_ttr_last_ns = ci.ttr_last_ns;
		memcpy(info.mrci_ttr_hist, ci.ttr_hist, sizeof(info.mrci_ttr_hist));
		info.mrci_bytes_sent = ci.tx_bytes;
		info.mrci_bytes_acked = ci.snd_una_off;
		info.mrci_bytes_received = ci.rcv_deliver_off;
		info.mrci_max_payload = msk->params ? msk->params->max_payload : 0;
	}
	len = min_t(int, len, sizeof(info));
	if (len < 0)
		return -EINVAL;
	if (copy_to_user(optval, &info, len) || put_user(len, optlen))
		return -EFAULT;
	return 0;
}
