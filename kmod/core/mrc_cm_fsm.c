// SPDX-License-Identifier: GPL-2.0
/*
 * The connection-management state machine (mrc_cm_fsm.h): handshake and
 * disconnect decisions, time passed in, actions handed back.
 */
#include "mrc_cm_fsm.h"
#include "mrc_cm.h"
#include "mrc_wire.h"
#include "mrc_psn.h"

static void mrc_cm_act_init(struct mrc_cm_act *a)
{
	memset(a, 0, sizeof(*a));
}

/* A CM message goes out now and is retransmitted until @budget runs out. */
static void mrc_cm_fsm_start_retx(struct mrc_cm_fsm *f, u64 now, u64 budget,
				  struct mrc_cm_act *a, u8 opcode)
{
	f->tries = 0;
	f->next = now + MRC_CM_RTO_INIT_NS;
	f->deadline = now + budget;
	a->send = opcode;
	a->timer = f->next;
}

static void mrc_cm_fsm_done(struct mrc_cm_act *a, int err)
{
	a->done = true;
	a->err = err;
}

/**
 * mrc_cm_fsm_connect() - the active side starts: send CM_REQ.
 * @f: the connection's state, fully overwritten.
 * @now: current time (ns).
 * @budget: how long connect() may try (ns); 0: MRC_CM_CONNECT_NS.
 * @a: the action.
 */
void mrc_cm_fsm_connect(struct mrc_cm_fsm *f, u64 now, u64 budget,
			struct mrc_cm_act *a)
{
	mrc_cm_act_init(a);
	memset(f, 0, sizeof(*f));
	f->budget = budget ? budget : MRC_CM_CONNECT_NS;
	a->state = MRC_ST_REQ_SENT;
	mrc_cm_fsm_start_retx(f, now, f->budget, a, MRC_OP_CM_REQ);
}

/* The passive side is done: the engine starts, accept() may take it. */
static void mrc_cm_fsm_passive_complete(struct mrc_cm_act *a)
{
	a->start = true;
	a->state = MRC_ST_ESTABLISHED;
	a->accept = true;
}

/**
 * mrc_cm_fsm_accept() - the passive side is created from a CM_RTU whose
 * cookie proved that the requester saw our (stateless) CM_REP: it is
 * established at once, and answers with the CM_REP again so that the
 * requester stops retransmitting its CM_RTU.
 * @f: the new connection's state, fully overwritten.
 * @now: current time (ns).
 * @a: the action.
 */
void mrc_cm_fsm_accept(struct mrc_cm_fsm *f, u64 now, struct mrc_cm_act *a)
{
	mrc_cm_act_init(a);
	memset(f, 0, sizeof(*f));
	mrc_cm_fsm_passive_complete(a);
	a->send = MRC_OP_CM_REP;
}

/**
 * mrc_cm_fsm_set_policy() - how long a disconnect tries, from the failure
 * policy of the connection (after mrc_cm_fsm_connect() or
 * mrc_cm_fsm_accept(), which clear it).
 * @f: the connection's state.
 * @data_budget: how long the policy lets a data packet go unacknowledged
 *	before the connection fails (mrc_policy_timeout_budget()), ns.
 * @rto_max: the policy's longest retransmission timeout (ns).
 *
 * A CM_DREQ is the stream's last packet: the connection must not fail at
 * its close where its data would still have got through. Our CM_DREQ is
 * retransmitted for as long as a data packet would be (MRC_CM_FIN_WAIT_NS
 * at least), and, like data, no more often than @rto_max once backed off
 * (MRC_CM_RTO_MAX_NS at least): on an overloaded host, a fixed budget
 * failed connections whose every byte had arrived, while a fast
 * retransmission of several copies added to the load.
 */
void mrc_cm_fsm_set_policy(struct mrc_cm_fsm *f, u64 data_budget, u64 rto_max)
{
	f->fin_budget = max(data_budget, MRC_CM_FIN_WAIT_NS);
	f->fin_rto_max = max(rto_max, MRC_CM_RTO_MAX_NS);
}

/*
 * How long our CM_DREQ may go unanswered, and how long a half-closed
 * connection waits between two checks that its peer still has it.
 */
static u64 mrc_cm_fsm_fin_budget(const struct mrc_cm_fsm *f)
{
	return f->fin_budget ? f->fin_budget : MRC_CM_FIN_WAIT_NS;
}

/* Our CM_DREQ goes out once the application closed and all is acked. */
static void mrc_cm_fsm_maybe_dreq(struct mrc_cm_fsm *f, u8 state, u64 now,
				  bool all_acked, struct mrc_cm_act *a)
{
	if (!f->close_wanted || !all_acked)
		return;
	if (state != MRC_ST_ESTABLISHED && state != MRC_ST_PEER_CLOSED)
		return;
	a->state = MRC_ST_DREQ_SENT;
	f->rtu_pending = false;	/* the DREQ's retransmissions take over */
	mrc_cm_fsm_start_retx(f, now, mrc_cm_fsm_fin_budget(f), a,
			      MRC_OP_CM_DREQ);
}

/*
 * Our CM_DREQ was answered and the peer's has not come: the peer may send
 * data for as long as it likes, and its CM_DREQ ends that. But a peer
 * whose every CM_DREQ copy was lost for its whole budget ends cleanly
 * (it has our end of stream and we acknowledged all its data) and forgets
 * the connection, and a peer that restarted forgot it too: nothing would
 * ever come, and our reader would wait for ever. So, once per budget,
 * our CM_DREQ goes again: a peer that has the connection answers it (and
 * goes on), one that forgot it answers with a CM_DREP flagged
 * MRC_CM_F_GONE (mrc_cm_fsm_msg()).
 */
static void mrc_cm_fsm_half_closed(struct mrc_cm_fsm *f, u64 now,
				   struct mrc_cm_act *a)
{
	if (f->peer_fin)
		return;
	if (now >= f->next) {
		f->next = now + mrc_cm_fsm_fin_budget(f);
		a->new_ev = true;
		a->send = MRC_OP_CM_DREQ;
	}
	a->timer = f->next;
}

/**
 * mrc_cm_fsm_timer() - the connection's timer fired (or the engine ran):
 * retransmit the pending CM message when due, give up at the deadline,
 * send our CM_DREQ once a close waits for nothing more.
 * @f: the connection's state.
 * @state: its enum mrc_sock_state.
 * @now: current time (ns).
 * @all_acked: the peer acknowledged every byte written.
 * @a: the action.
 */
void mrc_cm_fsm_timer(struct mrc_cm_fsm *f, u8 state, u64 now, bool all_acked,
		      struct mrc_cm_act *a)
{
	u8 op;

	mrc_cm_act_init(a);
	switch (state) {
	case MRC_ST_REQ_SENT:
		op = MRC_OP_CM_REQ;
		break;
	case MRC_ST_DREQ_SENT:
		if (f->fin_acked) {
			mrc_cm_fsm_half_closed(f, now, a);
			return;
		}
		op = MRC_OP_CM_DREQ;
		break;
	case MRC_ST_ESTABLISHED:
	case MRC_ST_PEER_CLOSED:
		mrc_cm_fsm_maybe_dreq(f, state, now, all_acked, a);
		if (a->send || !f->rtu_pending)
			return;
		op = MRC_OP_CM_RTU;
		break;
	default:
		return;
	}

	if (now >= f->deadline) {
		/* a CM_RTU never answered: the listener never built it */
		f->rtu_pending = false;
		/*
		 * A CM_DREQ never acknowledged, while the peer's own end of
		 * stream has not come either, is no clean end: a reader of
		 * ours waiting for the peer's must not take silence for it
		 * (TCP's FIN_WAIT1 also gives up with ETIMEDOUT). Once the
		 * peer closed its side (its CM_DREQ came, and it had all our
		 * data, or we would not have sent ours), only our CM_DREP's
		 * answer is missing: its own CM_DREP, or a stateless one if
		 * it has forgotten the connection, was lost. Nothing is
		 * left to lose, and the end is clean.
		 */
		if (state == MRC_ST_DREQ_SENT) {
			mrc_cm_fsm_done(a, f->peer_fin ? 0 : ETIMEDOUT);
		} else {
			a->timeout = true;
			mrc_cm_fsm_done(a, ETIMEDOUT);
		}
		return;
	}
	if (now >= f->next) {
		u64 rto = MRC_CM_RTO_INIT_NS << min(f->tries + 1, 16U);
		u64 cap = MRC_CM_RTO_MAX_NS;

		if (op == MRC_OP_CM_DREQ && f->fin_rto_max)
			cap = f->fin_rto_max;
		f->tries++;
		f->next = now + min(rto, cap);
		a->new_ev = true;
		a->send = op;
		a->fan_out = true;
	}
	a->timer = min(f->next, f->deadline);
}

/**
 * mrc_cm_fsm_close() - the application is done sending (close or SHUT_WR).
 * @f: the connection's state.
 * @state: its enum mrc_sock_state.
 * @now: current time (ns).
 * @all_acked: the peer acknowledged every byte written.
 * @a: the action.
 */
void mrc_cm_fsm_close(struct mrc_cm_fsm *f, u8 state, u64 now, bool all_acked,
		      struct mrc_cm_act *a)
{
	mrc_cm_act_init(a);
	switch (state) {
	case MRC_ST_REQ_SENT:
		mrc_cm_fsm_done(a, 0);
		break;
	case MRC_ST_ESTABLISHED:
	case MRC_ST_PEER_CLOSED:
		f->close_wanted = true;
		mrc_cm_fsm_maybe_dreq(f, state, now, all_acked, a);
		break;
	default:
		break;
	}
}

/* The peer answered our CM_RTU: it has the connection. */
static void mrc_cm_fsm_rtu_answered(struct mrc_cm_fsm *f, u32 snd_nxt)
{
	f->rtu_pending = false;
	f->early_guard = true;
	f->early_psn_end = snd_nxt;
}

/**
 * mrc_cm_fsm_peer_pkt() - a packet other than a CM message reached the
 * connection from its peer (data, SACK, NACK, probe, RESET).
 * @f: the connection's state.
 * @noconn_reset: it is a NO_CONN RESET (the peer knows no such
 *	connection).
 * @psn: for a NO_CONN RESET, the PSN it names (of the data it answers);
 *	else the PSN of our next new data packet (mrc_conn_snd_nxt_psn()).
 * @a: the action (a retransmitted CM_RTU, or nothing).
 *
 * While our CM_RTU is unanswered, the listener may not have built the
 * connection yet (the CM_RTU was lost, or our first data overtook it): its
 * NO_CONN RESET, answering that data, then only says so. It is dropped
 * and the CM_RTU goes again at once, so a lost CM_RTU costs one round
 * trip, not a retransmission timeout. Any other packet from the peer
 * answers the CM_RTU. A NO_CONN RESET that arrives after that but names a
 * PSN sent before it is such a late answer, and is dropped too.
 *
 * Return: true when the packet must be dropped.
 */
bool mrc_cm_fsm_peer_pkt(struct mrc_cm_fsm *f, bool noconn_reset,
			 u32 psn, struct mrc_cm_act *a)
{
	mrc_cm_act_init(a);
	if (f->rtu_pending) {
		if (!noconn_reset) {
			mrc_cm_fsm_rtu_answered(f, psn);
			return false;
		}
		a->send = MRC_OP_CM_RTU;
		a->new_ev = true;
		return true;
	}
	return noconn_reset && f->early_guard &&
	       mrc_psn_before(psn, f->early_psn_end) &&
	       mrc_psn_sub(f->early_psn_end, psn) <= MRC_CM_EARLY_PSNS;
}

static void mrc_cm_fsm_dreq(struct mrc_cm_fsm *f, u8 state,
			    const struct mrc_cm_facts *m, struct mrc_cm_act *a)
{
	if (!m->from_peer || !m->has_conn)
		return;
	a->send = MRC_OP_CM_DREP;	/* every copy: our DREP may be lost */
	if (f->peer_fin) {
		a->fan_out = true;	/* it was: on a dead path of ours? */
		return;
	}
	f->peer_fin = true;
	a->rcv_shutdown = true;
	a->wake = true;
	if (state == MRC_ST_ESTABLISHED)
		a->state = MRC_ST_PEER_CLOSED;
	else if (state == MRC_ST_DREQ_SENT && f->fin_acked)
		mrc_cm_fsm_done(a, 0);	/* both directions closed */
}

/**
 * mrc_cm_fsm_msg() - a CM message for this connection.
 * @f: the connection's state.
 * @state: its enum mrc_sock_state.
 * @m: what the glue knows about the message.
 * @now: current time (ns).
 * @a: the action. For a CM_REP that completes the handshake, the glue
 *	takes the peer's QPN and parameters from it before starting the
 *	engine.
 */
void mrc_cm_fsm_msg(struct mrc_cm_fsm *f, u8 state,
		    const struct mrc_cm_facts *m, u64 now, struct mrc_cm_act *a)
{
	mrc_cm_act_init(a);
	if (!m->ours)
		return;
	/*
	 * Any CM message of the peer's connection (its DREQ when it closes
	 * before its SACKs reach us) says that it exists: no more CM_RTUs,
	 * whose late copies could outlive it and create it again.
	 */
	if (m->from_peer && f->rtu_pending && state != MRC_ST_REQ_SENT)
		mrc_cm_fsm_rtu_answered(f, m->snd_nxt);
	switch (m->opcode) {
	case MRC_OP_CM_REP:
		if (state != MRC_ST_REQ_SENT) {
			/* The accepted side exists: our CM_RTU arrived (above). */
			return;
		}
		a->start = true;
		a->state = MRC_ST_ESTABLISHED;
		a->wake = true;
		/*
		 * Retransmitted until the peer answers (mrc_cm_fsm_peer_pkt()),
		 * for as long as the CM_REQ could be: the listener checks a
		 * CM_RTU's cookie when it arrives and creates the connection,
		 * which answers, when it gets to it; a listener busy making
		 * many connections (or a slow host) answers seconds later. A
		 * requester that gave up sooner would fail a connection the
		 * listener then makes for nobody.
		 */
		mrc_cm_fsm_start_retx(f, now, max(f->budget, MRC_CM_RTU_NS), a,
				      MRC_OP_CM_RTU);
		f->rtu_pending = true;
		break;
	case MRC_OP_CM_RTU:
		/* a copy of a CM_RTU: our CM_REP answering the first was lost */
		if ((state == MRC_ST_ESTABLISHED || state == MRC_ST_PEER_CLOSED) &&
		    m->from_peer && m->rtu_ok) {
			a->send = MRC_OP_CM_REP;
			a->fan_out = true;
		}
		break;
	case MRC_OP_CM_REJ:
		if (state != MRC_ST_REQ_SENT)
			return;
		/*
		 * A full backlog is transient (e.g. a flood of requests): the
		 * REQ is retransmitted until the connect budget runs out, as
		 * a TCP SYN would be.
		 */
		if (m->rej_reason == MRC_REJ_BACKLOG_FULL && now < f->deadline)
			return;
		mrc_cm_fsm_done(a, -mrc_cm_rej_errno(m->rej_reason));
		break;
	case MRC_OP_CM_DREQ:
		mrc_cm_fsm_dreq(f, state, m, a);
		break;
	case MRC_OP_CM_DREP:
		if (state != MRC_ST_DREQ_SENT || !m->from_peer)
			return;
		if (m->gone && !f->peer_fin) {
			/*
			 * The peer ended the connection and we never had its
			 * end of stream: it gave up on its CM_DREQ, failed, or
			 * restarted, and what it sent may not all have come.
			 * As TCP's RST would, that is an error for our reader.
			 */
			mrc_cm_fsm_done(a, ECONNRESET);
			return;
		}
		/* An orphan has nobody to read what the peer may still send. */
		if (f->peer_fin || m->orphan) {
			f->fin_acked = true;
			mrc_cm_fsm_done(a, 0);
			break;
		}
		a->wake = true;
		if (!f->fin_acked) {
			/* the first check on the peer (mrc_cm_fsm_half_closed()) */
			f->next = now + mrc_cm_fsm_fin_budget(f);
			a->timer = f->next;
		}
		f->fin_acked = true;
		break;
	default:
		break;
	}
}
