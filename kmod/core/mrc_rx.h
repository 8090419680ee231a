/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Receiver tracker of one connection: which PSNs arrived inside the MPR
 * window, the cumulative ack, duplicates, the per-packet facts needed to
 * deliver the stream in order (where each packet's data ends, where
 * messages end), the fields of the SACK to send and when to send it.
 *
 * Data is placed in the receive buffer by the caller on arrival (RETH VA);
 * this tracker only decides what has become contiguous. It owns no memory:
 * the caller provides a bitmap and a slot array sized with
 * mrc_rx_storage_slots() when the connection is set up.
 */
#ifndef _MRC_RX_H
#define _MRC_RX_H

#include "mrc_core_types.h"

struct mrc_sack;

/** MRC_MPR_UNIT - PSNs per unit of the MPR field. */
#define MRC_MPR_UNIT		128
/** MRC_RX_WINDOW_MAX - largest receive window (255 MPR units). */
#define MRC_RX_WINDOW_MAX	(255 * MRC_MPR_UNIT)

/* Flags of a received data packet (struct mrc_rx_pkt.flags). */
#define MRC_RXF_MSG_END		BIT(0)	/* WRITE_LAST* or WRITE_ONLY* */
#define MRC_RXF_IMM		BIT(1)	/* carries immediate data */
#define MRC_RXF_ACK_REQ		BIT(2)	/* BTH AckReq */
#define MRC_RXF_RTX		BIT(3)	/* BTH rtx */

/**
 * struct mrc_rx_slot - what the tracker keeps per PSN of the window.
 * @end_off: stream offset just past the packet's data (VA + length).
 * @imm: immediate data, valid with MRC_RXF_IMM.
 * @flags: MRC_RXF_MSG_END and MRC_RXF_IMM of the packet.
 */
struct mrc_rx_slot {
	u64 end_off;
	u32 imm;
	u8 flags;
};

/**
 * struct mrc_rx_ack_policy - when the receiver sends a SACK at once.
 * @ack_every: after this many new packets since the last SACK (0 = 1).
 * @ack_ooo: on every packet that arrives out of order or fills a gap.
 * @ack_dup: on a duplicate (the sender missed an earlier SACK).
 * @ack_rtx: on a retransmission.
 *
 * A packet with AckReq is always acknowledged at once. Anything else
 * waits for the caller's delayed-ack timer (see mrc_rx_sack_pending()).
 */
struct mrc_rx_ack_policy {
	u16 ack_every;
	bool ack_ooo;
	bool ack_dup;
	bool ack_rtx;
};

/**
 * struct mrc_rx - receiver tracker of one connection.
 * @bitmap: one bit per slot, set when that PSN (>= @cack) has arrived.
 * @slots: per-slot records.
 * @mask: number of slots minus one (a power of two).
 * @window: PSNs accepted from @cack on (the MPR in PSNs).
 * @cack: next PSN expected in order; all before it have arrived.
 * @deliver_off: stream offset up to which data is contiguous.
 * @held: packets received above @cack.
 * @unacked: new packets since the last SACK was built.
 * @policy: SACK policy, may be changed at any time.
 */
struct mrc_rx {
	u64 *bitmap;
	struct mrc_rx_slot *slots;
	u32 mask;
	u32 window;
	u32 cack;
	u64 deliver_off;
	u32 held;
	u32 unacked;
	struct mrc_rx_ack_policy policy;
};

/**
 * struct mrc_rx_pkt - the facts of an arriving data packet.
 * @psn: its PSN.
 * @end_off: stream offset just past its data (RETH VA + payload length).
 * @imm: immediate data, valid with MRC_RXF_IMM.
 * @flags: MRC_RXF_*.
 */
struct mrc_rx_pkt {
	u32 psn;
	u64 end_off;
	u32 imm;
	u8 flags;
};

/**
 * enum mrc_rx_verdict - what became of an arriving packet.
 * @MRC_RX_NEW: first arrival, recorded; its data must be kept.
 * @MRC_RX_DUP: already received; drop its data (a SACK may still be due).
 * @MRC_RX_OUT_OF_WINDOW: outside [cack - window, cack + window): nothing
 *	was changed; drop it (and count it).
 */
enum mrc_rx_verdict {
	MRC_RX_NEW,
	MRC_RX_DUP,
	MRC_RX_OUT_OF_WINDOW,
};

/**
 * struct mrc_rx_result - outcome of mrc_rx_receive().
 * @verdict: enum mrc_rx_verdict.
 * @adv_from: first PSN that became in-order (the previous cack).
 * @adv_count: how many PSNs became in-order (0: cack did not move).
 * @deliver_off: contiguous stream offset after this packet; never moves
 *	backward.
 * @msg_ends: message ends among the PSNs that became in-order; walk them
 *	with mrc_rx_next_msg() before the next mrc_rx_receive().
 * @sack_now: the policy asks for a SACK now (build it with
 *	mrc_rx_fill_sack(), naming this packet's PSN).
 */
struct mrc_rx_result {
	enum mrc_rx_verdict verdict;
	u32 adv_from;
	u32 adv_count;
	u64 deliver_off;
	u32 msg_ends;
	bool sack_now;
};

/**
 * struct mrc_rx_msg - a message end that became in-order.
 * @psn: PSN of the message's last packet.
 * @end_off: stream offset just past the message.
 * @has_imm: the message carries immediate data.
 * @imm: the immediate data.
 */
struct mrc_rx_msg {
	u32 psn;
	u64 end_off;
	bool has_imm;
	u32 imm;
};

/**
 * mrc_rx_storage_slots() - slots (and bitmap bits) to allocate for a window.
 * @window: receive window in PSNs.
 *
 * Return: the smallest power of two >= @window, at least 64.
 */
static inline u32 mrc_rx_storage_slots(u32 window)
{
	u32 n = 64;

	while (n < window)
		n <<= 1;
	return n;
}

/** MRC_RX_BITMAP_WORDS - u64 words of bitmap for @slots slots. */
#define MRC_RX_BITMAP_WORDS(slots)	(((slots) + 63) / 64)

int mrc_rx_init(struct mrc_rx *rx, u32 init_psn, u32 window, u64 start_off,
		u64 *bitmap, struct mrc_rx_slot *slots, u32 nslots,
		const struct mrc_rx_ack_policy *policy);
void mrc_rx_receive(struct mrc_rx *rx, const struct mrc_rx_pkt *pkt,
		    struct mrc_rx_result *res);
bool mrc_rx_next_msg(const struct mrc_rx *rx, u32 *cursor,
		     struct mrc_rx_msg *msg);
bool mrc_rx_has(const struct mrc_rx *rx, u32 psn);
bool mrc_rx_sack_pending(const struct mrc_rx *rx);
void mrc_rx_fill_sack(struct mrc_rx *rx, u32 trigger_psn,
		      struct mrc_sack *sack);

#endif /* _MRC_RX_H */
