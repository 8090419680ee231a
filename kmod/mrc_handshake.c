// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: connection management.
 *
 * The handshake, disconnect and reset of Documentation/wire-format.md
 * sections 11-12, on reserved QPN 1:
 *
 *   connect()  CM_REQ  ->            listener: answers at once, keeps nothing
 *              <- CM_REP             (its init_psn and r_key: a cookie)
 *   ESTABLISHED CM_RTU ->            cookie checked: accept work creates
 *              <- CM_REP             the child, ESTABLISHED, accept queue
 *
 * A listener keeps no half-open state (kmod/core/mrc_cookie.h): the CM_REP
 * carries a MAC under the namespace's key, and the CM_RTU, which echoes
 * both parameter sets, proves that the requester saw it. Only then is the
 * child allocated, in process context by the listener's work (its engine
 * storage is allocated with GFP_KERNEL); proven CM_RTUs waiting for it
 * plus the accept queue are bounded by the listen backlog. A flood of
 * requests from spoofed sources costs one CM_REP each and no memory.
 *
 * Disconnect is a half-close per direction: a side sends CM_DREQ once all
 * its data is acknowledged (so the peer has received all of it); CM_DREP
 * answers. The connection is over when both directions are closed.
 */
#include <linux/random.h>
#include <linux/workqueue.h>
#include <net/ipv6.h>
#include <net/udp.h>

#include "core/mrc_cm.h"
#include "core/mrc_cm_fsm.h"
#include "mrc_handshake.h"
#include "mrc_conn_glue.h"
#include "mrc_conn_list.h"
#include "mrc_events.h"
#include "mrc_output.h"
#include "mrc_table.h"
#include "mrc_stats.h"

static u16 mrc_service_port(const struct mrc_sock *msk)
{
	return msk->passive ? msk->sport : msk->dport;
}

static u16 mrc_client_port(const struct mrc_sock *msk)
{
	return msk->passive ? msk->dport : msk->sport;
}

/* Send a CM message or RESET of @msk: along one of its paths once it is
 * live (mrc_glue_cm_route()), along several with @fan_out
 * (mrc_glue_cm_fanout()), else by the routing table with ev_cm.
 */
static int mrc_hs_xmit(struct mrc_sock *msk, const struct mrc_pkt *pkt,
		       bool fan_out)
{
	u32 i, copies = fan_out ? mrc_glue_cm_fanout(msk) : 1;
	const struct mrc_route *rt;
	struct mrc_flow fl;
	int err = 0;

	for (i = 0; i < max(copies, 1U); i++) {
		rt = mrc_glue_cm_route(msk, &fl);
		if (!rt) {
			if (i)
				break;
			mrc_flow_of(msk, &fl, msk->ev_cm);
		}
		err = mrc_send_hdr_pkt(sock_net(&msk->sk), pkt, rt, &fl,
				       msk->sk.sk_mark, msk->sk.sk_priority);
	}
	return err;
}

static int mrc_hs_send(struct mrc_sock *msk, u8 opcode, bool fan_out)
{
	struct mrc_cm cm = {
		.port = mrc_service_port(msk),
		.client_port = mrc_client_port(msk),
		.src_qpn = msk->lqpn,
		.dst_qpn = opcode == MRC_OP_CM_REQ ? 0 : msk->rqpn,
		.cookie = msk->cookie,
	};
	struct mrc_pkt pkt;

	if (opcode == MRC_OP_CM_REQ || opcode == MRC_OP_CM_REP)
		cm.params = msk->lparams;
	if (opcode == MRC_OP_CM_RTU) {
		cm.params = msk->rparams;	/* the REP's, echoed */
		cm.req_params = msk->lparams;	/* and ours: the REQ's */
	}
	mrc_cm_pkt(&pkt, opcode, &cm);
	return mrc_hs_xmit(msk, &pkt, fan_out);
}

/**
 * mrc_hs_net_init() - connection management's state of a new namespace:
 * the budget of its stateless answers.
 * @dn: the namespace's data-path state.
 */
void mrc_hs_net_init(struct mrc_dp_net *dn)
{
	ratelimit_state_init(&dn->ctl_rl, HZ, MRC_HS_CTL_RATE_PER_SEC);
	ratelimit_set_flags(&dn->ctl_rl, RATELIMIT_MSG_ON_RELEASE);
	/* 100 ms windows: a flood cannot spend a whole second's budget at once. */
	ratelimit_state_init(&dn->rep_rl, HZ / 10, MRC_HS_REP_RATE_PER_SEC / 10);
	ratelimit_set_flags(&dn->rep_rl, RATELIMIT_MSG_ON_RELEASE);
	get_random_bytes(&dn->cookie_key, sizeof(dn->cookie_key));
}

/**
 * mrc_hs_reset_unknown() - answer a data packet for a connection we do not
 * know with a RESET (mrc_cm_reset_unknown()), back on the EV it came on,
 * within the namespace's budget: a host that restarted makes its peers'
 * connections fail at once instead of retrying into the void.
 * @net: the namespace.
 * @skb: the received packet.
 * @data: its decoding.
 */
void mrc_hs_reset_unknown(struct net *net, struct sk_buff *skb,
			  const struct mrc_pkt *data)
{
	struct mrc_flow fl;
	struct mrc_pkt pkt;

	if (!mrc_cm_reset_unknown(data, &pkt))
		return;
	if (!__ratelimit(&mrc_dp_net(net)->ctl_rl)) {
		MRC_INC_STATS(net, MRC_MIB_CTL_DROP_RATELIMIT);
		return;
	}
	MRC_INC_STATS(net, MRC_MIB_RESET_NO_CONN_SENT);
	mrc_flow_reply(net, skb, &fl);
	mrc_send_hdr_pkt(net, &pkt, NULL, &fl, 0, 0);
}

/* A CM_REJ or DREP answering a packet we keep no state for. */
static void mrc_hs_reply_stateless(struct net *net, struct sk_buff *skb,
				   const struct mrc_pkt *req, u8 opcode,
				   u8 reason)
{
	const struct mrc_cm cm = {
		.port = req->u.cm.port,
		.client_port = req->u.cm.client_port,
		.src_qpn = req->u.cm.dst_qpn,
		.dst_qpn = req->u.cm.src_qpn,
		.cookie = req->u.cm.cookie,
		.rej_reason = reason,
		/* an old peer gets its refusal in its own version */
		.version = req->u.cm.version,
		/* a DREP from nobody says so: no connection heard the DREQ */
		.flags = opcode == MRC_OP_CM_DREP ? MRC_CM_F_GONE : 0,
	};
	struct mrc_flow fl;
	struct mrc_pkt pkt;

	mrc_cm_pkt(&pkt, opcode, &cm);
	if (opcode == MRC_OP_CM_REJ)
		MRC_INC_STATS(net, MRC_MIB_HS_REJECTED);
	mrc_flow_reply(net, skb, &fl);
	mrc_send_hdr_pkt(net, &pkt, NULL, &fl, 0, 0);
}

/* Tell the events group that a connection was established, closed or
 * failed (@err: positive errno for MRC_EVENT_CONN_FAILED, else 0).
 */
static void mrc_hs_event(struct mrc_sock *msk, enum mrc_event_type type, int err)
{
	struct mrc_nl_conn ci = {
		.id = msk->lqpn,
		.laddr = msk->saddr,
		.raddr = msk->daddr,
		.lport = msk->sport,
		.rport = msk->dport,
	};

	mrc_event_conn(sock_net(&msk->sk), type, &ci, err);
}

/**
 * mrc_hs_done() - the connection is over: unhash, stop the timer, wake
 * everyone. Keeps the socket memory (the file may still refer to it).
 * @msk: the socket (locked).
 * @err: error for the application (positive errno), or 0.
 */
void mrc_hs_done(struct mrc_sock *msk, int err)
{
	struct sock *sk = &msk->sk;
	int old = sk->sk_state;

	if (old == MRC_ST_ESTABLISHED || old == MRC_ST_PEER_CLOSED ||
	    old == MRC_ST_DREQ_SENT) {
		if (err == ETIMEDOUT)
			MRC_INC_STATS(sock_net(sk), MRC_MIB_CONN_TIMEOUT);
		else if (err == ECONNRESET)
			MRC_INC_STATS(sock_net(sk), MRC_MIB_CONN_RESET);
		mrc_hs_event(msk, err ? MRC_EVENT_CONN_FAILED :
				   MRC_EVENT_CONN_CLOSED, err);
	}
	if (err)
		WRITE_ONCE(sk->sk_err, err);
	mrc_set_state(sk, MRC_ST_CLOSED);
	WRITE_ONCE(sk->sk_shutdown, SHUTDOWN_MASK);
	mrc_table_del_qpn(msk);
	mrc_table_unbind(msk);
	hrtimer_try_to_cancel(&msk->timer);
	if (err)
		sk_error_report(sk);
	sk->sk_state_change(sk);
	if (sock_flag(sk, SOCK_DEAD))
		mrc_glue_release(msk);
}

static void mrc_hs_established(struct mrc_sock *msk);

/*
 * Do what the state machine decided (kmod/core/mrc_cm_fsm.h), in the
 * order struct mrc_cm_act gives.
 */
static void mrc_hs_act(struct mrc_sock *msk, const struct mrc_cm_act *a)
{
	struct sock *sk = &msk->sk;

	if (a->start) {
		int err = mrc_glue_start(msk);

		if (err) {
			mrc_hs_done(msk, -err);
			return;
		}
	}
	if (a->state)
		mrc_set_state(sk, a->state);
	if (a->start) {
		MRC_INC_STATS(sock_net(sk), MRC_MIB_HS_ESTABLISHED);
		mrc_hs_event(msk, MRC_EVENT_CONN_ESTABLISHED, 0);
	}
	if (a->new_ev)
		msk->ev_cm = get_random_u32();
	if (a->send)
		mrc_hs_send(msk, a->send, a->fan_out);
	if (a->rcv_shutdown)
		WRITE_ONCE(sk->sk_shutdown, sk->sk_shutdown | RCV_SHUTDOWN);
	if (a->accept)
		mrc_hs_established(msk);
	if (a->done) {
		if (a->timeout)
			MRC_INC_STATS(sock_net(sk), MRC_MIB_HS_TIMEOUT);
		mrc_hs_done(msk, a->err);
		return;
	}
	if (a->wake) {
		sk->sk_state_change(sk);
		if (a->rcv_shutdown)
			sk->sk_data_ready(sk);
	}
	mrc_timer_arm(msk, a->timer);
	if (a->start)
		mrc_hs_verdict(msk, mrc_glue_push(msk));
}

/* How long the disconnect tries: from the connection's failure policy. */
static void mrc_hs_set_policy(struct mrc_sock *msk)
{
	const struct mrc_policy *p;

	if (!msk->params)
		return;
	p = &msk->params->policy;
	mrc_cm_fsm_set_policy(&msk->cm, mrc_policy_timeout_budget(p),
			      p->rto_max_ns);
}

/**
 * mrc_hs_connect() - start the active side of the handshake.
 * @msk: the socket (locked), bound, with addresses and engine prepared.
 * @now: current time (ns).
 *
 * Return: 0 or a negative errno.
 */
int mrc_hs_connect(struct mrc_sock *msk, u64 now)
{
	u64 budget = msk->params ? mrc_policy_timeout_budget(&msk->params->policy) : 0;
	struct mrc_cm_act a;
	int err;

	err = mrc_table_add_qpn(msk);
	if (err)
		return err;
	msk->cookie = get_random_u64();
	msk->ev_cm = get_random_u32();
	msk->rqpn = 0;
	mrc_cm_fsm_connect(&msk->cm, now, budget, &a);
	mrc_hs_set_policy(msk);
	mrc_hs_act(msk, &a);
	MRC_INC_STATS(sock_net(&msk->sk), MRC_MIB_HS_REQ_SENT);
	return 0;
}

/**
 * mrc_hs_timer() - handshake and disconnect retransmissions and limits;
 * our CM_DREQ once a close waits for nothing more.
 * @msk: the socket (bh-locked or owned).
 * @now: current time (ns).
 */
void mrc_hs_timer(struct mrc_sock *msk, u64 now)
{
	struct mrc_cm_act a;

	mrc_cm_fsm_timer(&msk->cm, msk->sk.sk_state, now,
			 mrc_glue_all_acked(msk), &a);
	mrc_hs_act(msk, &a);
}

/**
 * mrc_hs_close() - the application is done sending (close or SHUT_WR).
 * @msk: the socket (locked).
 * @now: current time (ns).
 */
void mrc_hs_close(struct mrc_sock *msk, u64 now)
{
	struct mrc_cm_act a;

	mrc_cm_fsm_close(&msk->cm, msk->sk.sk_state, now,
			 mrc_glue_all_acked(msk), &a);
	mrc_hs_act(msk, &a);
}

/**
 * mrc_hs_abort() - abortive close (SO_LINGER 0): RESET the peer.
 * @msk: the socket (locked).
 */
void mrc_hs_abort(struct mrc_sock *msk)
{
	int st = msk->sk.sk_state;

	if (msk->conn && (st == MRC_ST_ESTABLISHED || st == MRC_ST_PEER_CLOSED ||
			  st == MRC_ST_DREQ_SENT)) {
		struct mrc_pkt pkt = {};

		mrc_glue_reset_pkt(msk, &pkt);
		mrc_hs_xmit(msk, &pkt, false);
	}
	if (st != MRC_ST_CLOSED)
		mrc_hs_done(msk, 0);
}

/**
 * mrc_hs_verdict() - act on what the engine's driver reported after it ran
 * (mrc_glue_push(), mrc_glue_timer(), mrc_glue_input()): end the
 * connection it failed, reset the peer of a socket nobody reads, or else
 * go on with the disconnect (a CM_DREQ once all is acknowledged, its
 * retransmission).
 * @msk: the socket (locked).
 * @verdict: 0, a positive errno, or MRC_GLUE_ABORT.
 */
void mrc_hs_verdict(struct mrc_sock *msk, int verdict)
{
	int st = msk->sk.sk_state;

	if (verdict == MRC_GLUE_ABORT)
		mrc_hs_abort(msk);
	else if (verdict)
		mrc_hs_done(msk, verdict);
	else if (st == MRC_ST_ESTABLISHED || st == MRC_ST_PEER_CLOSED ||
		 st == MRC_ST_DREQ_SENT)
		mrc_hs_timer(msk, ktime_get_ns());
}

/**
 * mrc_hs_listener_stop() - a listener stops taking connections.
 * @msk: the listener (locked).
 */
void mrc_hs_listener_stop(struct mrc_sock *msk)
{
	mrc_set_state(&msk->sk, MRC_ST_CLOSED);
	mrc_table_unbind(msk);
	msk->sk.sk_state_change(&msk->sk);
}

/**
 * mrc_hs_listener_flush() - abort every connection a closed listener
 * still holds (not yet accepted), and drop the CM_RTUs still queued.
 * @msk: the listener, not locked, no longer in the port table.
 *
 * Context: process.
 */
void mrc_hs_listener_flush(struct mrc_sock *msk)
{
	struct mrc_sock *child, *tmp;
	LIST_HEAD(victims);

	/* A queued run holds a reference on the listener: drop it too. */
	if (cancel_work_sync(&msk->accept_work))
		sock_put(&msk->sk);
	skb_queue_purge(&msk->req_q);

	spin_lock_bh(&msk->child_lock);
	list_splice_init(&msk->accept_q, &victims);
	spin_unlock_bh(&msk->child_lock);

	list_for_each_entry_safe(child, tmp, &victims, child_node) {
		struct sock *csk = &child->sk;

		list_del_init(&child->child_node);
		lock_sock(csk);
		sock_set_flag(csk, SOCK_DEAD);
		mrc_hs_abort(child);
		if (child->parent) {
			child->parent = NULL;
			sock_put(&msk->sk);
		}
		release_sock(csk);
		sock_put(csk);	/* the list's reference */
	}
}

/*
 * A CM_RTU for a QPN some socket of ours holds: the child it created is
 * there (its CM_REP was lost and the RTU retransmitted): let the child
 * answer it. Anything else is a collision or forged: dropped.
 */
static bool mrc_hs_rtu_dup(struct net *net, struct sk_buff *skb,
			   const struct mrc_pkt *rtu)
{
	struct mrc_sock *msk = mrc_table_lookup_qpn(net, rtu->u.cm.dst_qpn);

	if (!msk)
		return false;
	lock_sock(&msk->sk);
	if (msk->passive && msk->cookie == rtu->u.cm.cookie &&
	    ipv6_addr_equal(&msk->daddr, &ipv6_hdr(skb)->saddr))
		mrc_hs_input_locked(msk, rtu);
	else
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_BAD_KEY);
	release_sock(&msk->sk);
	sock_put(&msk->sk);
	return true;
}

static struct mrc_cookie_used *mrc_hs_cookie_slot(struct net *net, u64 cookie)
{
	return &mrc_dp_net(net)->cookie_used[hash_64(cookie, ilog2(MRC_COOKIE_USED))];
}

/* Did this cookie create a connection already (within its life)? */
static bool mrc_hs_cookie_used(struct net *net, u64 cookie, u64 now)
{
	struct mrc_cookie_used *u = mrc_hs_cookie_slot(net, cookie);

	return READ_ONCE(u->cookie) == cookie && now < READ_ONCE(u->until);
}

/* Is queued CM_RTU @q one of cookie @want (big-endian) from @saddr? */
static bool mrc_hs_rtu_same(const struct sk_buff *q,
			    const struct in6_addr *saddr, __be64 want)
{
	__be64 c;

	return !skb_copy_bits(q, MRC_BTH_LEN + 12, &c, sizeof(c)) &&
	       c == want && ipv6_addr_equal(&ipv6_hdr(q)->saddr, saddr);
}

/*
 * The child of a CM_RTU now holds its QPN, so copies arriving from now on
 * reach it; copies already queued behind other requests are dropped
 * (skb @skb's cookie and source): processed later, maybe after the child
 * ended, they would create it again.
 */
static void mrc_hs_rtu_purge(struct mrc_sock *l, const struct sk_buff *skb,
			     u64 cookie)
{
	const struct in6_addr *saddr = &ipv6_hdr(skb)->saddr;
	struct sk_buff *q, *tmp;
	struct sk_buff_head dups;
	__be64 want = cpu_to_be64(cookie);

	__skb_queue_head_init(&dups);
	spin_lock_bh(&l->req_q.lock);
	skb_queue_walk_safe(&l->req_q, q, tmp) {
		if (!mrc_hs_rtu_same(q, saddr, want))
			continue;
		__skb_unlink(q, &l->req_q);
		__skb_queue_tail(&dups, q);
	}
	spin_unlock_bh(&l->req_q.lock);
	__skb_queue_purge(&dups);
}

/**
 * mrc_hs_req_wants_child() - should this queued CM_RTU of a listener get
 * a child socket? Its cookie was checked when it arrived
 * (mrc_hs_rtu_input()); a copy for a child already made is handed to it.
 * @l: the listener (not locked).
 * @skb: the CM_RTU, data at the MRC header.
 * @req: set to the decoded CM_RTU.
 *
 * Context: process (the listener's accept work).
 * Return: true when the caller should allocate a child and pass it to
 * mrc_hs_child_start().
 */
bool mrc_hs_req_wants_child(struct mrc_sock *l, struct sk_buff *skb,
			    struct mrc_pkt *req)
{
	if (mrc_pkt_decode(skb->data, skb->len, req) ||
	    req->type != MRC_PKT_CM || req->bth.opcode != MRC_OP_CM_RTU)
		return false;
	if (READ_ONCE(l->sk.sk_state) != MRC_ST_LISTEN)
		return false;	/* the requester's RTUs time out */
	if (mrc_hs_rtu_dup(sock_net(&l->sk), skb, req))
		return false;
	/* a copy of one whose connection already ended */
	return !mrc_hs_cookie_used(sock_net(&l->sk), req->u.cm.cookie,
				   ktime_get_ns());
}

/**
 * mrc_hs_child_start() - the passive side of a handshake: a CM_RTU whose
 * cookie proved that the requester saw our CM_REP becomes a child of @l,
 * established at once, rebuilt from the parameters the CM_RTU echoes; it
 * answers with the CM_REP again and goes on the accept queue.
 * @l: the listener (not locked).
 * @child: a socket from mrc_sock_alloc_child(), owned by this call; NULL
 *	when none could be allocated (the requester's RTU times out).
 * @skb: the CM_RTU, data at the MRC header.
 * @rtu: the decoded CM_RTU (mrc_hs_req_wants_child()).
 *
 * Context: process.
 */
void mrc_hs_child_start(struct mrc_sock *l, struct mrc_sock *child,
			struct sk_buff *skb, const struct mrc_pkt *rtu)
{
	const struct ipv6hdr *ip6h = ipv6_hdr(skb);
	struct net *net = sock_net(&l->sk);
	struct mrc_cm_act a;

	if (!child) {
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_NOMEM);
		return;
	}
	child->passive = true;
	child->saddr = ip6h->daddr;
	child->daddr = ip6h->saddr;
	child->sport = l->sport;
	child->dport = rtu->u.cm.client_port;
	child->cookie = rtu->u.cm.cookie;
	child->rqpn = rtu->u.cm.src_qpn;
	child->ev_cm = MRC_SKB_CB(skb)->ev;

	if (mrc_glue_prepare(child))
		goto free_child;
	/* what our CM_REP said (the cookie) and what the CM_REQ asked */
	child->lparams = rtu->u.cm.params;
	child->rparams = rtu->u.cm.req_params;
	if (mrc_table_add_qpn_as(child, rtu->u.cm.dst_qpn))
		goto free_child;	/* taken since: the RTU times out */
	mrc_hs_rtu_purge(l, skb, rtu->u.cm.cookie);
	{
		struct mrc_cookie_used *u = mrc_hs_cookie_slot(net, child->cookie);

		WRITE_ONCE(u->cookie, child->cookie);
		WRITE_ONCE(u->until, ktime_get_ns() +
			   MRC_COOKIE_LIFE_SLOTS * MRC_COOKIE_SLOT_NS);
	}

	lock_sock(&child->sk);
	sock_hold(&l->sk);
	child->parent = l;
	mrc_cm_fsm_accept(&child->cm, ktime_get_ns(), &a);
	mrc_hs_set_policy(child);
	mrc_hs_act(child, &a);
	if (child->sk.sk_state == MRC_ST_CLOSED) {
		/* the engine refused the parameters: nobody will accept it */
		child->parent = NULL;
		sock_put(&l->sk);
		release_sock(&child->sk);
		sock_put(&child->sk);
		return;
	}
	release_sock(&child->sk);
	return;

free_child:
	MRC_INC_STATS(net, MRC_MIB_IN_DROP_NOMEM);
	mrc_table_del_qpn(child);
	sk_free(&child->sk);
}

/*
 * A fresh QPN for a CM_REP: random, not held by any socket now (it is
 * claimed when the CM_RTU comes; another connection taking it first makes
 * that RTU fail, which the requester then sees as a timeout).
 */
static u32 mrc_hs_free_qpn(struct net *net)
{
	int tries;

	for (tries = 0; tries < 8; tries++) {
		u32 qpn = get_random_u32() & MRC_QPN_MASK;
		struct mrc_sock *o;

		if (qpn < MRC_QPN_FIRST_DYNAMIC)
			continue;
		o = mrc_table_lookup_qpn(net, qpn);
		if (!o)
			return qpn;
		sock_put(&o->sk);
	}
	return 0;
}

/*
 * Answer a CM_REQ keeping nothing: a CM_REP whose init_psn and r_key are
 * a cookie over the request and our answer (kmod/core/mrc_cookie.h), back
 * on the EV it came on.
 */
static void mrc_hs_rep_stateless(struct net *net, struct mrc_sock *l,
				 struct sk_buff *skb, const struct mrc_pkt *req)
{
	const struct ipv6hdr *ip6h = ipv6_hdr(skb);
	struct mrc_cookie_conn c = {
		.port = req->u.cm.port,
		.client_port = req->u.cm.client_port,
		.rqpn = req->u.cm.src_qpn,
		.cookie = req->u.cm.cookie,
		.req = req->u.cm.params,
	};
	struct mrc_cm cm = {};
	struct mrc_flow fl;
	struct mrc_pkt pkt;

	/* Before any work: a flood over the budget costs no MAC, no route. */
	if (!__ratelimit(&mrc_dp_net(net)->rep_rl)) {
		MRC_INC_STATS(net, MRC_MIB_HS_REQ_DROP_RATELIMIT);
		return;
	}
	c.lqpn = mrc_hs_free_qpn(net);
	if (!c.lqpn) {
		mrc_hs_reply_stateless(net, skb, req, MRC_OP_CM_REJ,
				       MRC_REJ_NO_RESOURCES);
		return;
	}
	memcpy(c.raddr, &ip6h->saddr, sizeof(c.raddr));
	memcpy(c.laddr, &ip6h->daddr, sizeof(c.laddr));
	mrc_glue_listen_params(l, &ip6h->saddr, &c.rep);
	mrc_cookie_make(&mrc_dp_net(net)->cookie_key, ktime_get_ns(), &c);

	cm.port = c.port;
	cm.client_port = c.client_port;
	cm.src_qpn = c.lqpn;
	cm.dst_qpn = c.rqpn;
	cm.cookie = c.cookie;
	cm.params = c.rep;
	mrc_cm_pkt(&pkt, MRC_OP_CM_REP, &cm);
	MRC_INC_STATS(net, MRC_MIB_HS_COOKIE_SENT);
	mrc_flow_reply(net, skb, &fl);
	mrc_send_hdr_pkt(net, &pkt, NULL, &fl, READ_ONCE(l->sk.sk_mark),
			 READ_ONCE(l->sk.sk_priority));
}

/* Proven CM_RTUs waiting for the accept work plus the accept queue. */
static bool mrc_hs_backlog_full(struct mrc_sock *l)
{
	u32 pending = skb_queue_len(&l->req_q) + READ_ONCE(l->sk.sk_ack_backlog);

	return pending >= READ_ONCE(l->sk.sk_max_ack_backlog) + 1;
}

/* A CM_REQ reached a listener (softirq): answered, nothing kept. */
static void mrc_hs_req_input(struct net *net, struct sk_buff *skb,
			     const struct mrc_pkt *pkt)
{
	const struct ipv6hdr *ip6h = ipv6_hdr(skb);
	u8 want = pkt->u.cm.params.sock_type == MRC_CM_SOCK_SEQPACKET ?
		  SOCK_SEQPACKET : SOCK_STREAM;
	struct mrc_sock *l;

	MRC_INC_STATS(net, MRC_MIB_HS_REQ_RECV);
	/* a CM_REQ of version 1 was refused by mrc_input_refuse_version() */
	l = mrc_table_lookup_listener(net, pkt->u.cm.port, &ip6h->daddr);
	if (!l) {
		mrc_hs_reply_stateless(net, skb, pkt, MRC_OP_CM_REJ,
				       MRC_REJ_NO_LISTENER);
		goto drop;
	}
	if (mrc_cm_params_check(&pkt->u.cm.params)) {
		mrc_hs_reply_stateless(net, skb, pkt, MRC_OP_CM_REJ,
				       MRC_REJ_BAD_PARAMS);
		goto put;
	}
	if (l->sk.sk_type != want) {
		mrc_hs_reply_stateless(net, skb, pkt, MRC_OP_CM_REJ,
				       MRC_REJ_SOCK_TYPE);
		goto put;
	}
	if (mrc_hs_backlog_full(l)) {
		mrc_hs_reply_stateless(net, skb, pkt, MRC_OP_CM_REJ,
				       MRC_REJ_BACKLOG_FULL);
		goto put;
	}
	mrc_hs_rep_stateless(net, l, skb, pkt);
put:
	sock_put(&l->sk);
drop:
	kfree_skb(skb);
}

/*
 * Queue a proven CM_RTU for the listener's work, unless a copy of it (a
 * retransmission: up to MRC_CONN_PROBE_FANOUT copies each time) already
 * waits there: one copy makes the connection, and the others would take
 * the backlog's room from other requesters and make a busy listener's
 * work longer still.
 * Return: 0 when queued, -EEXIST for such a copy, -ENOBUFS when the
 * backlog is full.
 */
static int mrc_hs_rtu_enqueue(struct mrc_sock *l, struct sk_buff *skb,
			      u64 cookie)
{
	const struct in6_addr *saddr = &ipv6_hdr(skb)->saddr;
	__be64 want = cpu_to_be64(cookie);
	struct sk_buff *q;
	int err = 0;

	spin_lock_bh(&l->req_q.lock);
	skb_queue_walk(&l->req_q, q) {
		if (mrc_hs_rtu_same(q, saddr, want)) {
			err = -EEXIST;
			goto out;
		}
	}
	if (mrc_hs_backlog_full(l)) {
		err = -ENOBUFS;
		goto out;
	}
	__skb_queue_tail(&l->req_q, skb);
out:
	spin_unlock_bh(&l->req_q.lock);
	return err;
}

/*
 * A CM_RTU for no socket (softirq): if its cookie is ours and fresh, it
 * goes to its listener's work, which creates the child. Consumes @skb.
 */
static void mrc_hs_rtu_input(struct net *net, struct sk_buff *skb,
			     const struct mrc_pkt *pkt)
{
	const struct ipv6hdr *ip6h = ipv6_hdr(skb);
	struct mrc_cookie_conn c;
	struct mrc_sock *l;

	l = mrc_table_lookup_listener(net, pkt->u.cm.port, &ip6h->daddr);
	if (!l) {
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_NO_CONN);
		goto drop;
	}
	mrc_cookie_from_rtu(&c, ip6h->saddr.s6_addr, ip6h->daddr.s6_addr,
			    &pkt->u.cm);
	switch (mrc_cookie_check(&mrc_dp_net(net)->cookie_key, ktime_get_ns(),
				 &c)) {
	case MRC_COOKIE_OK:
		break;
	case MRC_COOKIE_EXPIRED:
		MRC_INC_STATS(net, MRC_MIB_HS_COOKIE_EXPIRED);
		goto put;
	default:
		MRC_INC_STATS(net, MRC_MIB_HS_COOKIE_BAD);
		goto put;
	}
	if (mrc_hs_cookie_used(net, c.cookie, ktime_get_ns())) {
		/* a late copy: its connection was created, and ended */
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_NO_CONN);
		goto put;
	}
	switch (mrc_hs_rtu_enqueue(l, skb, c.cookie)) {
	case 0:
		break;
	case -EEXIST:
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_DUP);
		goto put;
	default:
		/* the requester retransmits its RTU */
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_NOMEM);
		goto put;
	}
	sock_hold(&l->sk);
	if (!schedule_work(&l->accept_work))
		sock_put(&l->sk);
	sock_put(&l->sk);
	return;
put:
	sock_put(&l->sk);
drop:
	kfree_skb(skb);
}

/*
 * The passive side is connected: hand the child (locked, state already
 * ESTABLISHED) to its listener's accept queue.
 */
static void mrc_hs_established(struct mrc_sock *msk)
{
	struct mrc_sock *l = msk->parent;

	if (!l)
		return;
	spin_lock_bh(&l->child_lock);
	/* the list takes the reference mrc_sock_alloc_child() gave us */
	list_add_tail(&msk->child_node, &l->accept_q);
	sk_acceptq_added(&l->sk);
	spin_unlock_bh(&l->child_lock);
	l->sk.sk_data_ready(&l->sk);
}

/**
 * mrc_hs_peer_pkt() - a packet other than a CM message from the peer of
 * a connection whose CM_RTU may be unanswered (mrc_cm_fsm_peer_pkt()):
 * anything answers it, but a NO_CONN RESET answering data that overtook
 * it, which is dropped and makes the CM_RTU go again.
 * @msk: the socket (bh-locked or owned by us), its engine running.
 * @pkt: the decoded packet.
 *
 * Return: true when @pkt must be dropped.
 */
bool mrc_hs_peer_pkt(struct mrc_sock *msk, const struct mrc_pkt *pkt)
{
	bool noconn = pkt->type == MRC_PKT_RESET &&
		      pkt->u.reset.reason == MRC_RESET_NO_CONN;
	struct mrc_cm_act a;
	bool drop;

	if (!msk->conn || (!msk->cm.rtu_pending && !noconn))
		return false;
	drop = mrc_cm_fsm_peer_pkt(&msk->cm, noconn,
				   noconn ? pkt->u.reset.psn :
				   mrc_conn_snd_nxt_psn(msk->conn), &a);
	mrc_hs_act(msk, &a);
	return drop;
}

/**
 * mrc_hs_input_locked() - a CM message for a known socket.
 * @msk: the socket it names (bh-locked or owned by us).
 * @pkt: the decoded packet (MRC_PKT_CM).
 */
void mrc_hs_input_locked(struct mrc_sock *msk, const struct mrc_pkt *pkt)
{
	const struct mrc_cm *cm = &pkt->u.cm;
	struct mrc_cm_facts m = {
		.opcode = pkt->bth.opcode,
		.ours = cm->cookie == msk->cookie &&
			cm->port == mrc_service_port(msk) &&
			cm->client_port == mrc_client_port(msk),
		.from_peer = cm->src_qpn == msk->rqpn,
		.gone = cm->flags & MRC_CM_F_GONE,
		.rtu_ok = cm->params.r_key == msk->lparams.r_key &&
			  cm->params.init_psn == msk->lparams.init_psn,
		.rej_reason = cm->rej_reason,
		.has_conn = !!msk->conn,
		.orphan = sock_flag(&msk->sk, SOCK_DEAD),
		.snd_nxt = msk->conn && msk->sk.sk_state != MRC_ST_REQ_SENT ?
			   mrc_conn_snd_nxt_psn(msk->conn) : 0,
	};
	struct mrc_cm_act a;

	if (!m.ours) {
		/* not this attempt: forged or stale */
		MRC_INC_STATS(sock_net(&msk->sk), MRC_MIB_IN_DROP_BAD_KEY);
		return;
	}
	mrc_cm_fsm_msg(&msk->cm, msk->sk.sk_state, &m, ktime_get_ns(), &a);
	if (a.start && m.opcode == MRC_OP_CM_REP) {
		/* The active side learns the peer's QPN and parameters. */
		msk->rqpn = cm->src_qpn;
		msk->rparams = cm->params;
	}
	mrc_hs_act(msk, &a);
}

/*
 * The connection a RESET without our QPN is about (NO_CONN: the peer
 * forgot the connection): found by the peer's address and QPN, a scan
 * within the namespace's budget of stateless control work. The engine
 * then checks the key (mrc_conn_rx_reset()).
 */
static struct mrc_sock *mrc_hs_reset_owner(struct net *net,
					   struct sk_buff *skb,
					   const struct mrc_pkt *pkt)
{
	if (!__ratelimit(&mrc_dp_net(net)->ctl_rl)) {
		MRC_INC_STATS(net, MRC_MIB_CTL_DROP_RATELIMIT);
		return NULL;
	}
	return mrc_table_lookup_peer(net, &ipv6_hdr(skb)->saddr,
				     pkt->u.reset.src_qpn);
}

/**
 * mrc_hs_input() - a packet on QPN 1 (softirq, no lock held).
 * @net: namespace.
 * @skb: the packet, data at the MRC header.
 * @pkt: its decoded headers.
 *
 * Return: the socket the packet is for (with a reference; the caller
 * delivers @skb to it), or NULL when @skb was consumed here (a CM_REQ, a
 * CM_RTU for a listener, or a packet for no connection).
 */
struct mrc_sock *mrc_hs_input(struct net *net, struct sk_buff *skb,
			      const struct mrc_pkt *pkt)
{
	struct mrc_sock *msk;
	u32 qpn;

	if (pkt->type == MRC_PKT_CM && pkt->bth.opcode == MRC_OP_CM_REQ) {
		mrc_hs_req_input(net, skb, pkt);
		return NULL;
	}
	qpn = pkt->type == MRC_PKT_RESET ? pkt->u.reset.dst_qpn : pkt->u.cm.dst_qpn;
	if (pkt->type == MRC_PKT_RESET && !qpn)
		msk = mrc_hs_reset_owner(net, skb, pkt);
	else
		msk = mrc_table_lookup_qpn(net, qpn);
	if (!msk && pkt->type == MRC_PKT_CM && pkt->bth.opcode == MRC_OP_CM_RTU) {
		mrc_hs_rtu_input(net, skb, pkt);	/* a listener's, maybe */
		return NULL;
	}
	if (!msk) {
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_NO_CONN);
		/* A DREQ for a connection we already forgot: answer it. */
		if (pkt->type == MRC_PKT_CM && pkt->bth.opcode == MRC_OP_CM_DREQ)
			mrc_hs_reply_stateless(net, skb, pkt, MRC_OP_CM_DREP, 0);
		kfree_skb(skb);
	}
	return msk;
}

/**
 * mrc_hs_icmp() - an ICMPv6 error about a packet we sent. A port
 * unreachable that quotes one of our pending CM_REQs says the peer host
 * runs no MRC at all: connect() fails with ECONNREFUSED at once, as TCP's
 * does on a port unreachable for its SYN, instead of retrying for the
 * policy's whole budget. Only a quote carrying the request's cookie
 * counts, so an off-path sender cannot refuse connections it cannot see.
 * @net: the namespace.
 * @skb: the error, data at the quoted IPv6 header (UDP tunnel error hook).
 * @udp_offset: offset of the quoted UDP header from skb->data.
 *
 * Context: softirq.
 */
void mrc_hs_icmp(struct net *net, struct sk_buff *skb, unsigned int udp_offset)
{
	const struct ipv6hdr *ip6h = (const struct ipv6hdr *)skb->data;
	const struct icmp6hdr *ih = icmp6_hdr(skb);
	u8 buf[MRC_BTH_LEN + MRC_CMH_LEN + MRC_CM_PARAMS_LEN + 16];
	struct udphdr _uh;
	const struct udphdr *uh;
	struct mrc_sock *msk;
	struct mrc_pkt pkt;
	int len;

	if (ih->icmp6_type != ICMPV6_DEST_UNREACH ||
	    ih->icmp6_code != ICMPV6_PORT_UNREACH)
		return;
	uh = skb_header_pointer(skb, udp_offset, sizeof(_uh), &_uh);
	if (!uh)
		return;
	len = (int)ntohs(uh->len) - (int)sizeof(*uh);
	if (len <= 0 || len > sizeof(buf) ||
	    skb_copy_bits(skb, udp_offset + sizeof(*uh), buf, len))
		return;
	if (mrc_pkt_decode(buf, len, &pkt) || pkt.type != MRC_PKT_CM ||
	    pkt.bth.opcode != MRC_OP_CM_REQ)
		return;
	msk = mrc_table_lookup_qpn(net, pkt.u.cm.src_qpn);
	if (!msk)
		return;
	bh_lock_sock(&msk->sk);
	/* An owner is rare here (connect() sleeps unlocked); the next
	 * retransmission's error will do.
	 */
	if (!sock_owned_by_user(&msk->sk) &&
	    msk->sk.sk_state == MRC_ST_REQ_SENT &&
	    msk->cookie == pkt.u.cm.cookie &&
	    ipv6_addr_equal(&msk->daddr, &ip6h->daddr)) {
		MRC_INC_STATS(net, MRC_MIB_HS_UNREACHABLE);
		mrc_hs_done(msk, ECONNREFUSED);
	}
	bh_unlock_sock(&msk->sk);
	sock_put(&msk->sk);
}
