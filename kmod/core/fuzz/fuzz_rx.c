// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the receiver tracker fed arbitrary PSN sequences, as a
 * peer (or an attacker) could send them.
 *
 * Input: byte 0-1 window, then 4-byte records: PSN distance from the
 * cumulative ack (signed 16 bits, or a raw 24-bit PSN when the flag byte
 * has bit 7 set) and packet flags. After every packet the tracker's
 * invariants are checked and a SACK is built and checked against it.
 */
#include <stdlib.h>
#include <string.h>

#include "mrc_fuzz.h"
#include "mrc_psn.h"
#include "mrc_rx.h"
#include "mrc_wire.h"

#define NSLOTS	1024

static void check(const struct mrc_rx *rx, u32 trigger)
{
	struct mrc_rx rx_copy = *rx;
	struct mrc_sack s;
	u32 i, base, held = 0;

	for (i = 0; i <= rx->mask; i++)
		held += !!(rx->bitmap[i / 64] & (1ULL << (i % 64)));
	if (held != rx->held || held >= rx->window ||
	    mrc_rx_has(rx, rx->cack))
		abort();

	memset(&s, 0, sizeof(s));
	mrc_rx_fill_sack(&rx_copy, trigger, &s);
	if (s.cack_psn != rx->cack || s.sack_offset < 0)
		abort();
	base = mrc_psn_add(s.cack_psn, (u32)s.sack_offset);
	for (i = 0; i < 64; i++) {
		bool bit = s.sack_bitmap & (1ULL << i);
		u32 psn = mrc_psn_add(base, i);

		if (bit != (mrc_psn_sub(psn, rx->cack) < rx->window &&
			    mrc_rx_has(rx, psn)))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static const struct mrc_rx_ack_policy pol = { 2, true, true, true };
	static u64 bitmap[NSLOTS / 64];
	static struct mrc_rx_slot slots[NSLOTS];
	struct mrc_rx rx;
	u32 window, init;
	u64 prev_off;
	size_t i;

	if (size < 5)
		return 0;
	window = 1 + ((data[0] << 8 | data[1]) % NSLOTS);
	init = mrc_get_be24(data + 2);
	if (mrc_rx_init(&rx, init, window, 0, bitmap, slots, NSLOTS, &pol))
		abort();
	prev_off = 0;
	for (i = 5; i + 4 <= size; i += 4) {
		struct mrc_rx_result res;
		struct mrc_rx_pkt p;
		struct mrc_rx_msg m;
		u32 cur, prev_cack = rx.cack, ends = 0;
		s16 d = (s16)mrc_get_be16(data + i);

		memset(&p, 0, sizeof(p));
		p.flags = data[i + 2] & 0x0f;
		if (data[i + 2] & 0x80)
			p.psn = mrc_get_be24(data + i + 1) |
				((u32)data[i + 3] << 24);
		else
			p.psn = mrc_psn_add(rx.cack, (u32)(s32)d);
		p.end_off = (u64)mrc_psn_sub(p.psn, init) * 100 + data[i + 3];
		mrc_rx_receive(&rx, &p, &res);

		if (res.verdict == MRC_RX_OUT_OF_WINDOW && rx.cack != prev_cack)
			abort();
		if (mrc_psn_sub(rx.cack, prev_cack) != res.adv_count ||
		    res.adv_from != prev_cack || rx.deliver_off < prev_off ||
		    res.deliver_off != rx.deliver_off)
			abort();
		prev_off = rx.deliver_off;
		cur = res.adv_from;
		while (mrc_rx_next_msg(&rx, &cur, &m))
			ends++;
		if (ends != res.msg_ends)
			abort();
		check(&rx, p.psn);
		if (res.sack_now) {
			struct mrc_sack s;

			mrc_rx_fill_sack(&rx, p.psn, &s);
		}
	}
	return 0;
}
