// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: connection management.
 *
 * The handshake, disconnect and reset of Documentation/wire-format.md
 * sections 11-12, on reserved QPN 1:
 *
 *   connect()  CM_REQ  ->            listener: accept work creates a child
 *              <- CM_REP             child: REP_SENT (retransmits the REP)
 *   ESTABLISHED CM_RTU ->            child: ESTABLISHED, on the accept queue
 *
 * A CM_REQ is never acted on in softirq: it is queued to the listener
 * and a work item creates the child (its engine storage is allocated with
 * GFP_KERNEL). Half-open children plus queued requests are bounded by the
 * listen backlog, so a flood of requests costs bounded memory.
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
	else if (opcode == MRC_OP_CM_RTU)
		cm.params = msk->rparams;	/* the REP's, echoed */
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

static void mrc_hs_child_unlink(struct mrc_sock *child);
static void mrc_hs_established(struct mrc_sock *msk);

/*
 * Do what the state machine decided (kmod/core/mrc_cm_fsm.h), in the
 * order struct mrc_cm_act gives.
 */
static void mrc_hs_act(struct mrc_sock *msk, const struct mrc_cm_act *a)
{
	struct sock *sk = &msk->sk;
	int old = sk->sk_state;

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
		if (a->timeout && old == MRC_ST_REP_SENT) {
			/* The peer never completed: forget the child. */
			mrc_hs_child_unlink(msk);
			mrc_hs_done(msk, a->err);
			sock_put(sk);	/* the listener list's reference */
		} else {
			mrc_hs_done(msk, a->err);
		}
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
	mrc_hs_act(msk, &a);
	MRC_INC_STATS(sock_net(&msk->sk), MRC_MIB_HS_REQ_SENT);
	return 0;
}

static void mrc_hs_child_unlink(struct mrc_sock *child)
{
	struct mrc_sock *parent = child->parent;

	if (!parent)
		return;
	spin_lock_bh(&parent->child_lock);
	if (!list_empty(&child->child_node)) {
		list_del_init(&child->child_node);
		if (child->sk.sk_state == MRC_ST_REP_SENT)
			parent->nr_half_open--;
		else
			sk_acceptq_removed(&parent->sk);
	}
	spin_unlock_bh(&parent->child_lock);
	child->parent = NULL;
	sock_put(&parent->sk);
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
 * still holds (half-open and not yet accepted).
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
	list_splice_init(&msk->half_open, &victims);
	list_splice_init(&msk->accept_q, &victims);
	msk->nr_half_open = 0;
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

/* The child of @list made by the request (@saddr, @cookie), or NULL. */
static struct mrc_sock *mrc_hs_find_child(struct list_head *list,
					  const struct in6_addr *saddr,
					  u64 cookie)
{
	struct mrc_sock *c;

	list_for_each_entry(c, list, child_node)
		if (c->cookie == cookie && ipv6_addr_equal(&c->daddr, saddr))
			return c;
	return NULL;
}

/* A duplicate CM_REQ: answer again from the child it created, if any. */
static bool mrc_hs_dup_req(struct mrc_sock *l, const struct in6_addr *saddr,
			   u64 cookie)
{
	struct mrc_sock *found;

	spin_lock_bh(&l->child_lock);
	found = mrc_hs_find_child(&l->half_open, saddr, cookie) ?:
		mrc_hs_find_child(&l->accept_q, saddr, cookie);
	if (found)
		sock_hold(&found->sk);
	spin_unlock_bh(&l->child_lock);
	if (!found)
		return false;
	lock_sock(&found->sk);
	if (found->sk.sk_state == MRC_ST_REP_SENT)
		mrc_hs_send(found, MRC_OP_CM_REP, false);
	release_sock(&found->sk);
	sock_put(&found->sk);
	return true;
}

/*
 * Room for one more child: half-open children plus the accept queue stay
 * within the backlog. When half-open children fill it, the oldest is
 * dropped (counted as a handshake timeout), so a flood of requests that
 * never complete, e.g. from spoofed sources, cannot lock real clients out:
 * they complete while the flood cycles through the backlog.
 */
static bool mrc_hs_make_room(struct mrc_sock *l)
{
	struct mrc_sock *old;

	spin_lock_bh(&l->child_lock);
	if (l->nr_half_open + READ_ONCE(l->sk.sk_ack_backlog) <
	    READ_ONCE(l->sk.sk_max_ack_backlog) + 1) {
		spin_unlock_bh(&l->child_lock);
		return true;
	}
	old = list_first_entry_or_null(&l->half_open, struct mrc_sock,
				       child_node);
	if (old)
		sock_hold(&old->sk);
	spin_unlock_bh(&l->child_lock);
	if (!old)
		return false;	/* the accept queue alone is full */

	lock_sock(&old->sk);
	if (old->sk.sk_state == MRC_ST_REP_SENT && old->parent == l) {
		MRC_INC_STATS(sock_net(&l->sk), MRC_MIB_HS_TIMEOUT);
		mrc_hs_child_unlink(old);
		mrc_hs_done(old, ETIMEDOUT);
		sock_put(&old->sk);	/* the listener list's reference */
	}
	release_sock(&old->sk);
	sock_put(&old->sk);
	return true;
}

/**
 * mrc_hs_req_wants_child() - should this queued CM_REQ of a listener get
 * a child socket? Answers it here when not: a reject when the listener
 * closed or has no room, the CM_REP again for a duplicate.
 * @l: the listener (not locked).
 * @skb: the request, data at the MRC header.
 * @req: set to the decoded request.
 *
 * Context: process (the listener's accept work).
 * Return: true when the caller should allocate a child and pass it to
 * mrc_hs_child_start().
 */
bool mrc_hs_req_wants_child(struct mrc_sock *l, struct sk_buff *skb,
			    struct mrc_pkt *req)
{
	if (mrc_pkt_decode(skb->data, skb->len, req) || req->type != MRC_PKT_CM)
		return false;
	lock_sock(&l->sk);
	if (l->sk.sk_state != MRC_ST_LISTEN) {
		release_sock(&l->sk);
		mrc_hs_reply_stateless(sock_net(&l->sk), skb, req,
				       MRC_OP_CM_REJ, MRC_REJ_NO_LISTENER);
		return false;
	}
	release_sock(&l->sk);
	if (mrc_hs_dup_req(l, &ipv6_hdr(skb)->saddr, req->u.cm.cookie))
		return false;
	if (!mrc_hs_make_room(l)) {
		mrc_hs_reply_stateless(sock_net(&l->sk), skb, req,
				       MRC_OP_CM_REJ, MRC_REJ_BACKLOG_FULL);
		return false;
	}
	return true;
}

/**
 * mrc_hs_child_start() - the passive side of a handshake: a new child of
 * @l answers the request with a CM_REP and waits half-open for the RTU.
 * @l: the listener (not locked).
 * @child: a socket from mrc_sock_alloc_child(), owned by this call; NULL
 *	when none could be allocated (the request is then rejected).
 * @skb: the request, data at the MRC header.
 * @req: the decoded request (mrc_hs_req_wants_child()).
 *
 * Context: process.
 */
void mrc_hs_child_start(struct mrc_sock *l, struct mrc_sock *child,
			struct sk_buff *skb, const struct mrc_pkt *req)
{
	const struct ipv6hdr *ip6h = ipv6_hdr(skb);
	u64 now = ktime_get_ns();
	struct mrc_cm_act a;

	if (!child)
		goto reject;
	child->passive = true;
	child->saddr = ip6h->daddr;
	child->daddr = ip6h->saddr;
	child->sport = l->sport;
	child->dport = req->u.cm.client_port;
	child->cookie = req->u.cm.cookie;
	child->rqpn = req->u.cm.src_qpn;
	child->rparams = req->u.cm.params;
	child->ev_cm = MRC_SKB_CB(skb)->ev;

	if (mrc_glue_prepare(child))
		goto free_child;
	if (mrc_table_add_qpn(child))
		goto free_child;

	lock_sock(&child->sk);
	mrc_set_state(&child->sk, MRC_ST_REP_SENT);
	sock_hold(&l->sk);
	child->parent = l;
	spin_lock_bh(&l->child_lock);
	list_add_tail(&child->child_node, &l->half_open);
	l->nr_half_open++;
	spin_unlock_bh(&l->child_lock);
	mrc_cm_fsm_accept(&child->cm, now, &a);
	mrc_hs_act(child, &a);
	release_sock(&child->sk);
	return;

free_child:
	mrc_table_del_qpn(child);
	sk_free(&child->sk);
reject:
	mrc_hs_reply_stateless(sock_net(&l->sk), skb, req, MRC_OP_CM_REJ,
			       MRC_REJ_NO_RESOURCES);
}

/* A CM_REQ reached a listener (softirq). */
static void mrc_hs_req_input(struct net *net, struct sk_buff *skb,
			     const struct mrc_pkt *pkt)
{
	const struct ipv6hdr *ip6h = ipv6_hdr(skb);
	u8 want = pkt->u.cm.params.sock_type == MRC_CM_SOCK_SEQPACKET ?
		  SOCK_SEQPACKET : SOCK_STREAM;
	struct mrc_sock *l;
	u32 pending;

	MRC_INC_STATS(net, MRC_MIB_HS_REQ_RECV);
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
	/* Half-open children make room (mrc_hs_make_room()). */
	pending = skb_queue_len(&l->req_q) + READ_ONCE(l->sk.sk_ack_backlog);
	if (pending >= READ_ONCE(l->sk.sk_max_ack_backlog) + 1) {
		mrc_hs_reply_stateless(net, skb, pkt, MRC_OP_CM_REJ,
				       MRC_REJ_BACKLOG_FULL);
		goto put;
	}
	skb_queue_tail(&l->req_q, skb);
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
	if (!list_empty(&msk->child_node)) {
		list_move_tail(&msk->child_node, &l->accept_q);
		l->nr_half_open--;
		sk_acceptq_added(&l->sk);
	}
	spin_unlock_bh(&l->child_lock);
	l->sk.sk_data_ready(&l->sk);
}

/**
 * mrc_hs_passive_complete() - the accepted side received data carrying
 * its R_Key: if its CM_RTU was lost, that data proves the peer got our
 * CM_REP, so the connection completes (the engine starts, accept() may
 * take it).
 * @msk: the child (bh-locked or owned by us).
 */
void mrc_hs_passive_complete(struct mrc_sock *msk)
{
	struct mrc_cm_act a;

	mrc_cm_fsm_keyed_data(msk->sk.sk_state, &a);
	mrc_hs_act(msk, &a);
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
		.rtu_ok = cm->params.r_key == msk->lparams.r_key &&
			  cm->params.init_psn == msk->lparams.init_psn,
		.rej_reason = cm->rej_reason,
		.has_conn = !!msk->conn,
		.orphan = sock_flag(&msk->sk, SOCK_DEAD),
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
 * delivers @skb to it), or NULL when @skb was consumed here (a CM_REQ for
 * a listener, or a packet for no connection).
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
