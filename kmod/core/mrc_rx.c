// SPDX-License-Identifier: GPL-2.0
/*
 * Receiver tracker: arrival bitmap over the MPR window, cumulative ack,
 * in-order delivery offsets and SACK building.
 *
 * Slot i of the ring holds PSN p with p & mask == i. The ring has at least
 * as many slots as the window, so two PSNs the tracker accepts at the same
 * time never share a slot; bits are cleared as the cumulative ack passes
 * them, which leaves every bit outside [cack, cack + window) clear.
 */
#include "mrc_rx.h"
#include "mrc_psn.h"
#include "mrc_wire.h"

/* ooo_count is 15 bits on the wire */
#define MRC_OOO_COUNT_MAX	0x7fff

static u32 mrc_rx_slot_of(const struct mrc_rx *rx, u32 psn)
{
	return psn & rx->mask;
}

static bool mrc_rx_test(const struct mrc_rx *rx, u32 slot)
{
	return rx->bitmap[slot / 64] & BIT_ULL(slot % 64);
}

static void mrc_rx_set(struct mrc_rx *rx, u32 slot)
{
	rx->bitmap[slot / 64] |= BIT_ULL(slot % 64);
}

static void mrc_rx_clear(struct mrc_rx *rx, u32 slot)
{
	rx->bitmap[slot / 64] &= ~BIT_ULL(slot % 64);
}

/**
 * mrc_rx_init() - set up the tracker of a new connection.
 * @rx: tracker to initialise.
 * @init_psn: the peer's initial PSN (from the handshake).
 * @window: receive window in PSNs (the MPR we advertise), 1..
 *	MRC_RX_WINDOW_MAX.
 * @start_off: stream offset of the first byte (usually 0).
 * @bitmap: MRC_RX_BITMAP_WORDS(@nslots) words, owned by the caller.
 * @slots: @nslots slot records, owned by the caller.
 * @nslots: a power of two >= @window and >= 64 (mrc_rx_storage_slots()).
 * @policy: SACK policy (copied).
 *
 * Return: 0, or -EINVAL on bad sizes.
 */
int mrc_rx_init(struct mrc_rx *rx, u32 init_psn, u32 window, u64 start_off,
		u64 *bitmap, struct mrc_rx_slot *slots, u32 nslots,
		const struct mrc_rx_ack_policy *policy)
{
	if (!window || window > MRC_RX_WINDOW_MAX || nslots < 64 ||
	    (nslots & (nslots - 1)) || nslots < window ||
	    !mrc_psn_valid(init_psn))
		return -EINVAL;
	memset(rx, 0, sizeof(*rx));
	memset(bitmap, 0, MRC_RX_BITMAP_WORDS(nslots) * sizeof(*bitmap));
	rx->bitmap = bitmap;
	rx->slots = slots;
	rx->mask = nslots - 1;
	rx->window = window;
	rx->cack = init_psn;
	rx->deliver_off = start_off;
	rx->policy = *policy;
	return 0;
}

/* Move cack over every contiguous arrived PSN; return how many. */
static u32 mrc_rx_advance(struct mrc_rx *rx, struct mrc_rx_result *res)
{
	u32 n = 0;

	for (;;) {
		u32 slot = mrc_rx_slot_of(rx, rx->cack);
		const struct mrc_rx_slot *s = &rx->slots[slot];

		if (!mrc_rx_test(rx, slot))
			break;
		mrc_rx_clear(rx, slot);
		if (s->end_off > rx->deliver_off)
			rx->deliver_off = s->end_off;
		if (s->flags & MRC_RXF_MSG_END)
			res->msg_ends++;
		rx->cack = mrc_psn_add(rx->cack, 1);
		n++;
	}
	return n;
}

/**
 * mrc_rx_receive() - account for an arriving data packet.
 * @rx: tracker.
 * @pkt: the packet's PSN, end offset and flags.
 * @res: outcome (verdict, cumulative ack progress, SACK decision).
 *
 * A packet outside the window changes nothing. The caller keeps the
 * packet's data only on MRC_RX_NEW.
 */
void mrc_rx_receive(struct mrc_rx *rx, const struct mrc_rx_pkt *pkt,
		    struct mrc_rx_result *res)
{
	const struct mrc_rx_ack_policy *pol = &rx->policy;
	bool ack_req = pkt->flags & MRC_RXF_ACK_REQ;
	bool rtx = pkt->flags & MRC_RXF_RTX;
	s32 d = mrc_psn_diff(pkt->psn, rx->cack);
	struct mrc_rx_slot *s;
	u32 slot, every;
	bool ooo;

	memset(res, 0, sizeof(*res));
	res->adv_from = rx->cack;
	res->deliver_off = rx->deliver_off;

	if (!mrc_psn_valid(pkt->psn) || d >= (s32)rx->window ||
	    d < -(s32)rx->window) {
		res->verdict = MRC_RX_OUT_OF_WINDOW;
		return;
	}
	slot = mrc_rx_slot_of(rx, pkt->psn);
	if (d < 0 || mrc_rx_test(rx, slot)) {
		res->verdict = MRC_RX_DUP;
		res->sack_now = ack_req || pol->ack_dup;
		return;
	}

	res->verdict = MRC_RX_NEW;
	s = &rx->slots[slot];
	s->end_off = pkt->end_off;
	s->imm = pkt->imm;
	s->flags = pkt->flags & (MRC_RXF_MSG_END | MRC_RXF_IMM);
	mrc_rx_set(rx, slot);
	rx->unacked++;

	if (d == 0) {
		res->adv_count = mrc_rx_advance(rx, res);
		/* all but the packet itself were held above the old cack */
		rx->held -= res->adv_count - 1;
		res->deliver_off = rx->deliver_off;
	} else {
		rx->held++;
	}

	ooo = d != 0 || res->adv_count > 1;
	every = pol->ack_every ? pol->ack_every : 1;
	res->sack_now = ack_req || (rtx && pol->ack_rtx) ||
			(ooo && pol->ack_ooo) || rx->unacked >= every;
}

/**
 * mrc_rx_next_msg() - walk the message ends that became in-order.
 * @rx: tracker.
 * @cursor: a PSN; start at mrc_rx_result.adv_from. Advanced past the
 *	message returned.
 * @msg: the next message end at or after @cursor and before the
 *	cumulative ack.
 *
 * Only valid between mrc_rx_receive() and the next call to it: after
 * that, the slots below the cumulative ack may hold new packets.
 *
 * Return: true if @msg was filled, false when no message end is left.
 */
bool mrc_rx_next_msg(const struct mrc_rx *rx, u32 *cursor,
		     struct mrc_rx_msg *msg)
{
	u32 psn = *cursor;

	if (mrc_psn_sub(rx->cack, psn) > rx->window)
		return false;
	for (; psn != rx->cack; psn = mrc_psn_add(psn, 1)) {
		const struct mrc_rx_slot *s = &rx->slots[mrc_rx_slot_of(rx, psn)];

		if (!(s->flags & MRC_RXF_MSG_END))
			continue;
		msg->psn = psn;
		msg->end_off = s->end_off;
		msg->has_imm = s->flags & MRC_RXF_IMM;
		msg->imm = s->imm;
		*cursor = mrc_psn_add(psn, 1);
		return true;
	}
	*cursor = psn;
	return false;
}

/**
 * mrc_rx_has() - has a PSN been received?
 * @rx: tracker.
 * @psn: PSN to test.
 *
 * Return: true if @psn is before the cumulative ack, or inside the window
 * and received.
 */
bool mrc_rx_has(const struct mrc_rx *rx, u32 psn)
{
	s32 d = mrc_psn_diff(psn, rx->cack);

	if (d < 0)
		return true;
	if (d >= (s32)rx->window)
		return false;
	return mrc_rx_test(rx, mrc_rx_slot_of(rx, psn));
}

/**
 * mrc_rx_sack_pending() - have packets arrived since the last SACK?
 * @rx: tracker.
 *
 * The caller's delayed-ack timer sends a SACK when this stays true.
 *
 * Return: true if a SACK is owed.
 */
bool mrc_rx_sack_pending(const struct mrc_rx *rx)
{
	return rx->unacked != 0;
}

/* 64 arrival bits from ring slot @slot on, wrapping around the ring. */
static u64 mrc_rx_bits64(const struct mrc_rx *rx, u32 slot)
{
	u32 nwords = (rx->mask + 1) / 64;
	u32 w = slot / 64, sh = slot % 64;
	u64 bits = rx->bitmap[w] >> sh;

	if (sh)
		bits |= rx->bitmap[(w + 1) & (nwords - 1)] << (64 - sh);
	return bits;
}

/**
 * mrc_rx_fill_sack() - fill the receiver's fields of a SACK.
 * @rx: tracker.
 * @trigger_psn: PSN of the packet that triggers the SACK.
 * @sack: SACK to fill: cack_psn, ack_psn_offset, sack_offset, sack_bitmap
 *	and cc.ooo_count are set, every other field is left alone.
 *
 * The bitmap starts at the cumulative ack when the trigger lies within
 * 64 PSNs of it; otherwise it ends at the trigger, so that the sender
 * sees the trigger's predecessors (which is where its losses show). Also
 * marks the pending acknowledgements as sent.
 */
void mrc_rx_fill_sack(struct mrc_rx *rx, u32 trigger_psn,
		      struct mrc_sack *sack)
{
	s32 d = mrc_psn_diff(trigger_psn, rx->cack);
	u32 base = rx->cack, valid;
	u64 bits;

	/* a trigger the tracker never accepted: name the last in-order PSN */
	if (!mrc_psn_valid(trigger_psn) || d >= (s32)rx->window ||
	    d < -(s32)rx->window)
		d = -1;
	if (d > 63)
		base = mrc_psn_add(rx->cack, d - 63);

	bits = mrc_rx_bits64(rx, mrc_rx_slot_of(rx, base));
	/* report nothing past the window: those slots belong to older PSNs */
	valid = rx->window - mrc_psn_sub(base, rx->cack);
	if (valid < 64)
		bits &= BIT_ULL(valid) - 1;

	sack->cack_psn = rx->cack;
	sack->ack_psn_offset = (s16)d;
	sack->sack_offset = (s16)mrc_psn_sub(base, rx->cack);
	sack->sack_bitmap = bits;
	sack->cc.ooo_count = rx->held < MRC_OOO_COUNT_MAX ?
			     rx->held : MRC_OOO_COUNT_MAX;
	rx->unacked = 0;
}
