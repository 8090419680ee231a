// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the sender scoreboard driven by arbitrary sends, SACKs
 * (decoded from the input: what a peer or attacker controls), NACKs,
 * timeouts and retransmissions. After every step the intrusive lists and
 * counters must agree with the entries' states, and a rejected SACK must
 * not have changed anything.
 */
#include <stdlib.h>
#include <string.h>

#include "mrc_fuzz.h"
#include "mrc_psn.h"
#include "mrc_tx.h"
#include "mrc_wire.h"

#define NSLOTS	64
#define NPATHS	4

static struct mrc_tx_entry ring[NSLOTS], ring_copy[NSLOTS];
static struct mrc_tx_path paths[NPATHS];

static void check(const struct mrc_tx *tx)
{
	u32 i, n, inflight = 0, lost = 0, span, k, live = 0;
	u64 bytes = 0, last = 0;
	u16 p;

	for (p = 0; p < NPATHS; p++) {
		n = 0;
		for (i = paths[p].list.head; i != MRC_TX_NIL; i = ring[i].link_next) {
			if ((ring[i].state != MRC_TXS_INFLIGHT &&
			     ring[i].state != MRC_TXS_RTX) || ring[i].path != p ||
			    ++n > NSLOTS)
				abort();
			bytes += ring[i].len;
		}
		if (n != paths[p].inflight)
			abort();
		inflight += n;
	}
	if (inflight != tx->inflight_pkts || bytes != tx->inflight_bytes)
		abort();
	n = 0;
	for (i = tx->time_list.head; i != MRC_TX_NIL; i = ring[i].time_next) {
		if (ring[i].sent_ns < last || ++n > NSLOTS)
			abort();
		last = ring[i].sent_ns;
	}
	if (n != inflight)
		abort();
	for (i = tx->lost_list.head; i != MRC_TX_NIL; i = ring[i].link_next)
		if (ring[i].state != MRC_TXS_LOST || ++lost > NSLOTS)
			abort();
	if (lost != tx->lost_pkts)
		abort();
	span = mrc_psn_sub(tx->nxt, tx->una);
	for (k = 0; k < span; k++) {
		u8 st = ring[mrc_psn_add(tx->una, k) & tx->mask].state;

		if (st == MRC_TXS_FREE)
			abort();
		live += st != MRC_TXS_SACKED;
	}
	if (live != inflight + lost || span > tx->mpr)
		abort();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct mrc_tx tx, tx_copy;
	u64 now = 0;
	size_t i;

	if (size < 4)
		return 0;
	if (mrc_tx_init(&tx, mrc_get_be24(data), 1 + data[3] % NSLOTS, 0,
			ring, NSLOTS, paths, NPATHS))
		abort();
	for (i = 4; i + 16 <= size; i += 16) {
		const u8 *op = data + i;
		struct mrc_tx_pkt pkt = { 0, op[1], op[2], op[3] };
		struct mrc_tx_ack res;
		struct mrc_tx_lost l;
		struct mrc_sack s;
		u16 lp;
		u32 psn;
		int err;

		now += op[15];
		switch (op[0] % 6) {
		case 0:		/* send new data */
			if (mrc_tx_can_send(&tx, U32_MAX, U64_MAX) !=
			    !mrc_tx_send_new(&tx, &pkt, op[4] % NPATHS, now, &psn))
				abort();
			break;
		case 1:		/* SACK with fuzzed fields, relative to una */
		case 2:
			memset(&s, 0, sizeof(s));
			s.cack_psn = mrc_psn_add(tx.una, (u32)(s32)(s8)op[1]);
			s.sack_offset = (s16)mrc_get_be16(op + 2);
			s.ack_psn_offset = (s8)op[4];
			s.sack_bitmap = mrc_get_be64(op + 5);
			memcpy(&tx_copy, &tx, sizeof(tx));
			memcpy(ring_copy, ring, sizeof(ring));
			err = mrc_tx_on_sack(&tx, &s, (s8)op[13], now, &res);
			if (err && (memcmp(&tx, &tx_copy, sizeof(tx)) ||
				    memcmp(ring, ring_copy, sizeof(ring))))
				abort();
			break;
		case 3:		/* NACK */
			err = mrc_tx_on_nack(&tx, mrc_psn_add(tx.una, op[1] % 80),
					     op[2], (s8)op[3], &lp);
			if (err == 1 && lp >= NPATHS)
				abort();
			break;
		case 4:		/* timer */
			mrc_tx_expire(&tx, now, op[1] * 16ULL);
			break;
		default:	/* retransmit what is lost */
			while (mrc_tx_peek_lost(&tx, &l))
				if (mrc_tx_send_rtx(&tx, l.psn,
						    (l.path + 1) % NPATHS, now))
					abort();
			break;
		}
		check(&tx);
	}
	return 0;
}
