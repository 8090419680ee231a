// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the connection-management state machine driven by an
 * arbitrary sequence of events, as a peer (or an attacker guessing
 * nothing) and the clock could produce them.
 *
 * Input: byte 0 chooses the side (bit 0: passive) and whether the data is
 * acknowledged; then 3-byte records: event (timer, close, CM message, any
 * other packet from the peer, a NO_CONN RESET among them), the time step (in ms, up to 255) and the message's facts
 * (opcode and flag bits). After every event the action must fit the
 * state it was taken in (see check()).
 */
#include <stdlib.h>
#include <string.h>

#include "mrc_cm_fsm.h"
#include "mrc_fuzz.h"
#include "mrc_wire.h"

static const u8 opcodes[] = {
	MRC_OP_CM_REQ, MRC_OP_CM_REP, MRC_OP_CM_RTU, MRC_OP_CM_REJ,
	MRC_OP_CM_DREQ, MRC_OP_CM_DREP, 0x00, 0xff,
};

/* What one action may do, given the state it was taken in. */
static void check(u8 state, u64 now, const struct mrc_cm_fsm *f,
		  const struct mrc_cm_act *a)
{
	/* An ended connection does nothing but answer a CM_DREQ again. */
	if (state == MRC_ST_CLOSED &&
	    ((a->send && a->send != MRC_OP_CM_DREP) || a->state || a->start ||
	     a->done || a->timer))
		abort();
	if (a->state && (a->state < MRC_ST_REQ_SENT ||
			 a->state > MRC_ST_PEER_CLOSED))
		abort();
	if (a->timer && a->timer < now)
		abort();	/* never a timer in the past */
	if (a->start && a->state != MRC_ST_ESTABLISHED)
		abort();
	if (a->accept)
		abort();	/* only mrc_cm_fsm_accept() queues a child */
	if (a->timeout && (!a->done || a->err != ETIMEDOUT))
		abort();
	if (a->done && a->err < 0)
		abort();
	/* A retransmitted message is the one its state waits on. */
	if (a->new_ev && !((state == MRC_ST_REQ_SENT && a->send == MRC_OP_CM_REQ) ||
			   ((state == MRC_ST_ESTABLISHED ||
			     state == MRC_ST_PEER_CLOSED) &&
			    a->send == MRC_OP_CM_RTU) ||
			   (state == MRC_ST_DREQ_SENT && a->send == MRC_OP_CM_DREQ)))
		abort();
	/* only an unanswered CM_RTU is retransmitted */
	if (a->send == MRC_OP_CM_RTU && state != MRC_ST_REQ_SENT &&
	    !f->rtu_pending)
		abort();
	/* a retransmission is never further off than the longest backoff;
	 * a half-closed connection checks on its peer once per budget
	 */
	if (!f->fin_acked &&
	    f->next > f->deadline + max(MRC_CM_RTO_MAX_NS, f->fin_rto_max))
		abort();
	if (f->fin_acked && f->next > now + MRC_CM_FIN_WAIT_NS + f->fin_budget)
		abort();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct mrc_cm_fsm f;
	struct mrc_cm_act a;
	u64 now = 1000000000ULL;
	bool all_acked;
	u8 state;
	size_t i;

	if (size < 1)
		return 0;
	all_acked = data[0] & 2;
	if (data[0] & 1)
		mrc_cm_fsm_accept(&f, now, &a);
	else
		mrc_cm_fsm_connect(&f, now, (u64)(data[0] >> 2) * 100000000ULL, &a);
	state = a.state;
	/* a failure policy's data budget and longest RTO, 0 to 63 s */
	mrc_cm_fsm_set_policy(&f, (u64)(data[0] >> 2) * 1000000000ULL,
			      (u64)(data[0] >> 4) * 250000000ULL);

	for (i = 1; i + 3 <= size; i += 3) {
		u8 ev = data[i] & 3, bits = data[i + 2];
		u8 before = state;

		now += (u64)data[i + 1] * 1000000ULL;
		switch (ev) {
		case 0:
			mrc_cm_fsm_timer(&f, state, now, all_acked, &a);
			break;
		case 1:
			mrc_cm_fsm_close(&f, state, now, all_acked, &a);
			break;
		case 2: {
			struct mrc_cm_facts m = {
				.opcode = opcodes[bits & 7],
				.ours = bits & 8,
				.from_peer = bits & 16,
				.rtu_ok = bits & 32,
				.rej_reason = (data[i] >> 2) & 7,
				.has_conn = bits & 64,
				.orphan = bits & 128,
			};

			mrc_cm_fsm_msg(&f, state, &m, now, &a);
			if (!m.ours && (a.send || a.state || a.done || a.start))
				abort();	/* a stranger changes nothing */
			break;
		}
		default: {
			bool drop, noconn = bits & 1;
			bool pending = f.rtu_pending;

			drop = mrc_cm_fsm_peer_pkt(&f, noconn, (u32)bits << 16 |
						   data[i + 1], &a);
			/* only a NO_CONN RESET is ever dropped */
			if (drop && !noconn)
				abort();
			if (pending && !noconn && f.rtu_pending)
				abort();	/* any other packet answers */
			break;
		}
		}
		check(before, now, &f, &a);
		if (a.state)
			state = a.state;
		if (a.done)
			state = MRC_ST_CLOSED;
		all_acked = data[i] & 0x80 ? !all_acked : all_acked;
	}
	return 0;
}
