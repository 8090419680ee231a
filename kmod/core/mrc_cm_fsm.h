/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The connection-management state machine: the decisions of a
 * connection's handshake and disconnect (Documentation/wire-format.md,
 * sections 11-12; Documentation/datapath.md). What state comes next, what
 * to send, when to retransmit and when to give up are decided here, with
 * time passed in; the glue (kmod/mrc_handshake.c) gathers the facts (does
 * a message carry this attempt's cookie, is everything acknowledged),
 * does what the returned action says (send, start the engine, wake the
 * application, arm the timer) and keeps the resources (sockets,
 * listeners' child lists).
 *
 *   active:  connect() -> REQ_SENT --CM_REP--> ESTABLISHED (sends CM_RTU
 *            until the peer answers: its CM_REP again, or any packet;
 *            for the handshake's budget, as long as a listener may take
 *            to create the connection from a CM_RTU it received)
 *   passive: a listener answers CM_REQ statelessly (mrc_cookie.h); a
 *            CM_RTU with a good cookie creates the connection, ESTABLISHED
 *            at once (answers CM_REP)
 *   close:   all acked -> DREQ_SENT --CM_DREP--> (CM_DREQ from the peer too)
 *            CLOSED; the peer's CM_DREQ first: PEER_CLOSED.
 */
#ifndef _MRC_CM_FSM_H
#define _MRC_CM_FSM_H

#include "mrc_core_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum mrc_sock_state - a connection's state (the kernel's sk_state
 * carries it).
 * @MRC_ST_CLOSED: no connection (never connected, or ended).
 * @MRC_ST_LISTEN: a listener (not a connection: the glue's alone).
 * @MRC_ST_REQ_SENT: connect(): CM_REQ sent, waiting for CM_REP.
 * @MRC_ST_REP_SENT: accepted side: CM_REP sent, waiting for CM_RTU (no
 *	longer entered: listeners keep no half-open state; kept for the
 *	ABI's state numbers).
 * @MRC_ST_ESTABLISHED: both directions open.
 * @MRC_ST_DREQ_SENT: we closed: all data acknowledged, CM_DREQ sent.
 * @MRC_ST_PEER_CLOSED: the peer sent CM_DREQ: no more data from it.
 */
enum mrc_sock_state {
	MRC_ST_CLOSED = 1,
	MRC_ST_LISTEN,
	MRC_ST_REQ_SENT,
	MRC_ST_REP_SENT,
	MRC_ST_ESTABLISHED,
	MRC_ST_DREQ_SENT,
	MRC_ST_PEER_CLOSED,
};

/** MRC_CM_RTO_INIT_NS - first handshake or disconnect retransmission. */
#define MRC_CM_RTO_INIT_NS	20000000ULL
/** MRC_CM_RTO_MAX_NS - longest wait between two retransmissions. */
#define MRC_CM_RTO_MAX_NS	500000000ULL
/**
 * MRC_CM_RTU_NS - the least time the active side retransmits its CM_RTU
 * when the peer does not answer, within the shortest life of a cookie
 * (mrc_cookie.h, MRC_COOKIE_LIFE_SLOTS), so that any copy that arrives
 * still creates the connection. It waits the connection's handshake
 * budget when that is longer: the listener takes a proven CM_RTU in when
 * it arrives but creates the connection, and answers, when it gets to
 * it, which a busy listener does seconds later (mrc_cm_fsm_msg()).
 */
#define MRC_CM_RTU_NS		4000000000ULL
/**
 * MRC_CM_FIN_WAIT_NS - the least time a disconnect waits for its CM_DREP;
 * longer when the failure policy would wait longer for a data packet
 * (mrc_cm_fsm_set_policy()).
 */
#define MRC_CM_FIN_WAIT_NS	10000000000ULL
/** MRC_CM_CONNECT_NS - connect()'s budget when the policy gives none. */
#define MRC_CM_CONNECT_NS	5000000000ULL

/**
 * struct mrc_cm_fsm - one connection's connection-management state, but
 * its enum mrc_sock_state: the glue keeps that (in sk_state), passes it to
 * every call and takes the new one from the action.
 * @tries: retransmissions of the current CM message so far.
 * @next: when the next retransmission is due (ns).
 * @deadline: when the handshake or disconnect gives up (ns).
 * @budget: active side: the handshake's budget (connect()'s, from the
 *	failure policy): how long each of its two steps, the CM_REQ until a
 *	CM_REP and the CM_RTU until an answer, may go unanswered (ns).
 * @fin_budget: how long our CM_DREQ may go unanswered (ns), 0:
 *	MRC_CM_FIN_WAIT_NS (mrc_cm_fsm_set_policy()).
 * @fin_rto_max: the longest wait between two CM_DREQ retransmissions
 *	(ns), 0: MRC_CM_RTO_MAX_NS.
 * @peer_fin: the peer sent CM_DREQ: it sends no more data.
 * @fin_acked: our CM_DREQ was answered.
 * @close_wanted: the application closed (or shut down sending): send
 *	CM_DREQ once everything is acknowledged.
 * @rtu_pending: active side: our CM_RTU has not been answered yet (the
 *	listener may not have built the connection): it is retransmitted,
 *	and a NO_CONN RESET does not end the connection.
 * @early_guard: active side: @early_psn_end is set.
 * @early_psn_end: active side: the first PSN sent after the CM_RTU was
 *	answered. A NO_CONN RESET naming a PSN before it answers data that
 *	overtook the CM_RTU, arriving late: it is ignored.
 */
struct mrc_cm_fsm {
	u32 tries;
	u64 next;
	u64 deadline;
	u64 budget;
	u64 fin_budget;
	u64 fin_rto_max;
	bool peer_fin;
	bool fin_acked;
	bool close_wanted;
	bool rtu_pending;
	bool early_guard;
	u32 early_psn_end;
};

/**
 * struct mrc_cm_act - what the glue must do, in this order, after a call
 * of this module. A zeroed action does nothing.
 * @start: the handshake is complete: start the engine (with the peer's
 *	parameters); if it refuses them, end the connection with its error
 *	instead of anything below. Push the engine once all below is done.
 * @state: the connection's new state (enum mrc_sock_state), or 0:
 *	unchanged.
 * @new_ev: send on another entropy value than the last try (a
 *	retransmission: another way through the fabric).
 * @send: CM opcode to send now (MRC_OP_CM_*), or 0.
 * @fan_out: send it along several of the connection's paths once it is
 *	live (up to MRC_CONN_PROBE_FANOUT), not one: it is a retransmission
 *	or the answer to one, so a copy was lost, maybe on a path that died
 *	without the sender knowing (a side that only receives never learns
 *	that its own paths died).
 * @rcv_shutdown: the peer will send no more data (RCV_SHUTDOWN).
 * @accept: the accepted side is established: queue it for accept().
 * @timeout: the handshake ran out of time (counted).
 * @done: the connection is over: end it with @err.
 * @err: with @done: the positive errno for the application, or 0.
 * @wake: tell the application the state changed (and that a read would
 *	not block, with @rcv_shutdown).
 * @timer: arm the connection's timer at this time (ns), or 0.
 */
struct mrc_cm_act {
	bool start;
	u8 state;
	bool new_ev;
	u8 send;
	bool fan_out;
	bool rcv_shutdown;
	bool accept;
	bool timeout;
	bool done;
	int err;
	bool wake;
	u64 timer;
};

/**
 * struct mrc_cm_facts - what the glue knows about a received CM message.
 * @opcode: its MRC_OP_CM_* opcode.
 * @ours: it carries this attempt's cookie and service and client ports
 *	(anything else is forged or stale, and ignored).
 * @from_peer: its source QPN is the peer's (known once the CM_REP came).
 * @rtu_ok: a CM_RTU echoes our R_Key and initial PSN (the accepted side
 *	was built from its first copy: this one is a retransmission).
 * @rej_reason: a CM_REJ's reason (MRC_REJ_*).
 * @has_conn: the engine was set up (a DREQ is only answered then).
 * @orphan: the application closed the socket: nobody reads any more.
 * @snd_nxt: the PSN of the next new data packet (mrc_conn_snd_nxt_psn());
 *	0 before the engine runs.
 * @gone: a CM_DREP sent statelessly (MRC_CM_F_GONE): the peer has no
 *	such connection any more.
 */
struct mrc_cm_facts {
	u8 opcode;
	bool ours;
	bool from_peer;
	bool rtu_ok;
	u8 rej_reason;
	bool has_conn;
	bool orphan;
	u32 snd_nxt;
	bool gone;
};

void mrc_cm_fsm_connect(struct mrc_cm_fsm *f, u64 now, u64 budget,
			struct mrc_cm_act *a);
void mrc_cm_fsm_accept(struct mrc_cm_fsm *f, u64 now, struct mrc_cm_act *a);
void mrc_cm_fsm_set_policy(struct mrc_cm_fsm *f, u64 data_budget,
			   u64 rto_max);
void mrc_cm_fsm_timer(struct mrc_cm_fsm *f, u8 state, u64 now, bool all_acked,
		      struct mrc_cm_act *a);
void mrc_cm_fsm_close(struct mrc_cm_fsm *f, u8 state, u64 now, bool all_acked,
		      struct mrc_cm_act *a);
void mrc_cm_fsm_msg(struct mrc_cm_fsm *f, u8 state,
		    const struct mrc_cm_facts *m, u64 now, struct mrc_cm_act *a);
/**
 * MRC_CM_EARLY_PSNS - how far before the guard a NO_CONN RESET's PSN may
 * be and still be taken as answering early data: more than any window.
 */
#define MRC_CM_EARLY_PSNS	65536

bool mrc_cm_fsm_peer_pkt(struct mrc_cm_fsm *f, bool noconn_reset,
			 u32 psn, struct mrc_cm_act *a);

#ifdef __cplusplus
}
#endif

#endif /* _MRC_CM_FSM_H */
