// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: connections as the control plane sees them (the API and
 * why it renders nothing: mrc_conn_list.h).
 *
 * CONN_GET (mrc_genl_conn.c) reads connections through mrc_conn_list_walk() and
 * mrc_conn_list_snapshot(); the configuration notifier (mrc_cfg.c) reaches live
 * connections through mrc_conn_list_cfg_event(). Both walk the namespace's QPN
 * table, take a reference on each socket under RCU, then lock the socket
 * (process context) to read or change its engine: the engine is only ever
 * touched under the socket lock.
 */
#include <linux/slab.h>
#include <net/ipv6.h>

#include "mrc_conn_list.h"
#include "mrc_conn_glue.h"
#include "mrc_handshake.h"
#include "mrc_sk.h"
#include "mrc_table.h"
#include "mrc_stats.h"
#include "mrc_events.h"

/* Sockets collected from one hash bucket at a time. */
#define MRC_LIST_BATCH	32

static u8 mrc_conn_list_state_of(const struct mrc_sock *msk)
{
	switch (msk->sk.sk_state) {
	case MRC_ST_LISTEN:
		return MRC_CONN_LISTEN;
	case MRC_ST_REQ_SENT:
		return MRC_CONN_REQ_SENT;
	case MRC_ST_REP_SENT:
		return MRC_CONN_REQ_RCVD;
	case MRC_ST_ESTABLISHED:
		return MRC_CONN_ESTABLISHED;
	case MRC_ST_DREQ_SENT:
	case MRC_ST_PEER_CLOSED:
		return MRC_CONN_CLOSING;
	default:
		return msk->sk.sk_err ? MRC_CONN_FAILED : MRC_CONN_CLOSED;
	}
}

static bool mrc_conn_list_match(const struct mrc_sock *msk,
				const struct mrc_conn_filter *f)
{
	if (!f)
		return true;
	if (f->has_id && msk->lqpn != f->id)
		return false;
	if (f->has_laddr && !ipv6_addr_equal(&msk->saddr, &f->laddr))
		return false;
	if (f->has_raddr && !ipv6_addr_equal(&msk->daddr, &f->raddr))
		return false;
	if (f->has_lport && msk->sport != f->lport)
		return false;
	if (f->has_rport && msk->dport != f->rport)
		return false;
	if (f->has_state && mrc_conn_list_state_of(msk) != f->state)
		return false;
	return true;
}

/*
 * Describe one connection (socket locked). @paths receives up to @max
 * entries. Returns the number of paths described.
 */
static u32 mrc_conn_list_describe(struct mrc_sock *msk, struct mrc_nl_conn *ci,
				  struct mrc_nl_conn_path *paths, u32 max)
{
	u32 n;

	memset(ci, 0, sizeof(*ci));
	ci->id = msk->lqpn;
	ci->laddr = msk->saddr;
	ci->raddr = msk->daddr;
	ci->lport = msk->sport;
	ci->rport = msk->dport;
	ci->type = msk->sk.sk_type;
	ci->state = mrc_conn_list_state_of(msk);
	ci->local_qpn = msk->lqpn;
	ci->remote_qpn = msk->rqpn;
	strscpy(ci->policy, msk->policy, sizeof(ci->policy));
	if (ci->state == MRC_CONN_REQ_SENT || ci->state == MRC_CONN_REQ_RCVD)
		return 0;
	n = mrc_glue_describe(msk, ci, paths, max);
	ci->nr_paths = n;
	ci->paths = paths;
	return n;
}

/*
 * Take references on up to MRC_LIST_BATCH sockets of bucket @b, skipping
 * its first @skip entries (callers walk a long bucket batch by batch).
 */
static int mrc_conn_list_collect(struct mrc_dp_net *dn, u32 b, u32 skip,
				 struct mrc_sock **out)
{
	struct mrc_sock *msk;
	int n = 0;

	rcu_read_lock();
	hlist_for_each_entry_rcu(msk, &dn->qpn_tbl[b], qpn_node) {
		if (n == MRC_LIST_BATCH)
			break;
		if (skip) {
			skip--;
			continue;
		}
		if (refcount_inc_not_zero(&msk->sk.sk_refcnt))
			out[n++] = msk;
	}
	rcu_read_unlock();
	return n;
}

/**
 * mrc_conn_list_walk() - visit the namespace's connections a filter matches.
 * @net: the namespace.
 * @f: which connections to visit; NULL visits all.
 * @pos: where to resume, updated: pos[0] is the QPN table bucket, pos[1]
 *	how many sockets of it were already passed (matched or not). {0, 0}
 *	starts at the beginning; a netlink dump keeps it in cb->args.
 * @visit: called with each connection's description, taken under its
 *	socket lock and passed after the lock is released (it and its
 *	@ci->paths are valid during the call only); non-zero stops the walk.
 * @arg: passed to @visit.
 *
 * A negative return of @visit leaves @pos at the connection it was given,
 * so the next walk from @pos visits that connection again: a dump whose
 * message is full resumes with the connection that did not fit. A
 * positive one stops the walk after the connection (a dump that split
 * it over messages holds the rest itself).
 *
 * Context: process (locks each socket).
 * Return: 0 when the walk is complete, what @visit returned when it
 * stopped the walk, or -ENOMEM (@pos unchanged).
 */
int mrc_conn_list_walk(struct net *net, const struct mrc_conn_filter *f, long pos[2],
		       int (*visit)(const struct mrc_nl_conn *ci, void *arg),
		       void *arg)
{
	struct mrc_dp_net *dn = mrc_dp_net(net);
	struct mrc_sock *batch[MRC_LIST_BATCH];
	struct mrc_nl_conn_path *paths;
	u32 b = pos[0];
	int err = 0;

	paths = kvcalloc(MRC_PATH_EV_INDEX_MASK, sizeof(*paths), GFP_KERNEL);
	if (!paths)
		return -ENOMEM;
	for (; b < HASH_SIZE(dn->qpn_tbl); b++) {
		int i, n;

		do {
			n = mrc_conn_list_collect(dn, b, pos[1], batch);
			for (i = 0; i < n; i++) {
				struct mrc_sock *msk = batch[i];
				struct mrc_nl_conn ci;
				bool match;

				if (!err) {
					lock_sock(&msk->sk);
					match = mrc_conn_list_match(msk, f);
					if (match)
						mrc_conn_list_describe(msk, &ci, paths,
								       MRC_PATH_EV_INDEX_MASK);
					release_sock(&msk->sk);
					if (match)
						err = visit(&ci, arg);
					if (err >= 0)
						pos[1]++;
				}
				sock_put(&msk->sk);
			}
		} while (!err && n == MRC_LIST_BATCH);
		if (err)
			break;
		pos[1] = 0;
	}
	pos[0] = b;
	kvfree(paths);
	return err;
}

/**
 * mrc_conn_list_snapshot() - visit one connection, by id.
 * @net: the namespace.
 * @id: connection id (its local QPN).
 * @visit: called with the connection's description, taken under its
 *	socket lock and passed after the lock is released (it and its
 *	@ci->paths are valid during the call only).
 * @arg: passed to @visit.
 *
 * Context: process (locks the socket).
 * Return: what @visit returned, -ENOENT when there is no such connection
 * (@visit is not called), or -ENOMEM.
 */
int mrc_conn_list_snapshot(struct net *net, u32 id,
			   int (*visit)(const struct mrc_nl_conn *ci, void *arg),
			   void *arg)
{
	struct mrc_nl_conn_path *paths;
	struct mrc_nl_conn ci;
	struct mrc_sock *msk;
	int err;

	msk = mrc_table_lookup_qpn(net, id);
	if (!msk)
		return -ENOENT;
	paths = kvcalloc(MRC_PATH_EV_INDEX_MASK, sizeof(*paths), GFP_KERNEL);
	if (!paths) {
		sock_put(&msk->sk);
		return -ENOMEM;
	}
	lock_sock(&msk->sk);
	mrc_conn_list_describe(msk, &ci, paths, MRC_PATH_EV_INDEX_MASK);
	release_sock(&msk->sk);
	sock_put(&msk->sk);
	err = visit(&ci, arg);
	kvfree(paths);
	return err;
}

/* Peers told of a plane change during one notification (one update each). */
#define MRC_TOLD_MAX	64

struct mrc_told {
	struct in6_addr *addr;	/* NULL when the allocation failed */
	u32 n;
};

/* Should @peer be told? Without room to remember, tell it again. */
static bool mrc_told_first(struct mrc_told *t, const struct in6_addr *peer)
{
	u32 i;

	for (i = 0; t->addr && i < t->n; i++)
		if (ipv6_addr_equal(&t->addr[i], peer))
			return false;
	if (t->addr && t->n < MRC_TOLD_MAX)
		t->addr[t->n++] = *peer;
	return true;
}

/* Apply one configuration change to one connection (socket locked). */
static void mrc_conn_list_apply(struct mrc_sock *msk, unsigned long event,
				const struct mrc_cfg_notify *n,
				struct mrc_told *told)
{
	if (!mrc_glue_cfg_change(msk, event, n))
		return;
	if ((event == MRC_CFG_PLANE_UP || event == MRC_CFG_PLANE_DOWN ||
	     event == MRC_CFG_PLANE_DEL) && mrc_told_first(told, &msk->daddr))
		MRC_ADD_STATS(sock_net(&msk->sk), MRC_MIB_PORT_STATUS_SENT,
			      mrc_glue_send_port_status(msk));
	mrc_hs_verdict(msk, mrc_glue_push(msk));
}

static int mrc_conn_list_cfg_event(struct notifier_block *nb, unsigned long event,
				   void *data)
{
	const struct mrc_cfg_notify *n = data;
	struct mrc_dp_net *dn = mrc_dp_net(n->net);
	struct mrc_sock *batch[MRC_LIST_BATCH];
	struct mrc_told told = {};
	u32 b, skip;
	int i, cnt;

	if (event == MRC_CFG_PLANE_UP || event == MRC_CFG_PLANE_DOWN ||
	    event == MRC_CFG_PLANE_DEL)
		told.addr = kmalloc_array(MRC_TOLD_MAX, sizeof(*told.addr),
					  GFP_KERNEL);
	for (b = 0; b < HASH_SIZE(dn->qpn_tbl); b++) {
		skip = 0;
		do {
			cnt = mrc_conn_list_collect(dn, b, skip, batch);
			for (i = 0; i < cnt; i++) {
				lock_sock(&batch[i]->sk);
				mrc_conn_list_apply(batch[i], event, n, &told);
				release_sock(&batch[i]->sk);
				sock_put(&batch[i]->sk);
			}
			skip += cnt;
		} while (cnt == MRC_LIST_BATCH);
	}
	kfree(told.addr);
	return NOTIFY_OK;
}

/**
 * mrc_conn_list_net_init() - subscribe a namespace's connections to its
 * configuration changes.
 * @net: the namespace.
 *
 * Return: 0 or a negative errno.
 */
int mrc_conn_list_net_init(struct net *net)
{
	struct mrc_dp_net *dn = mrc_dp_net(net);

	dn->cfg_nb.notifier_call = mrc_conn_list_cfg_event;
	return mrc_cfg_register_notifier(net, &dn->cfg_nb);
}

/**
 * mrc_conn_list_net_exit() - unsubscribe.
 * @net: the namespace.
 */
void mrc_conn_list_net_exit(struct net *net)
{
	mrc_cfg_unregister_notifier(net, &mrc_dp_net(net)->cfg_nb);
}
