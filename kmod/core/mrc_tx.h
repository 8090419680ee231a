/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sender scoreboard of one connection: per PSN what was sent, on which
 * path, when, and what became of it; SACK and NACK processing; loss
 * detection by SACK gaps, by per-path send order and by timeout; the
 * queue of lost packets to retransmit; the MPR and window limits.
 *
 * Storage is the caller's: a ring of entries (a power of two, at least
 * the MPR) and one list head per path index. Entries are linked into
 * intrusive lists by ring index: each in-flight entry sits in its path's
 * send-order list and in one time-ordered list of the connection; a lost
 * entry sits in the lost queue. Every operation is O(1) amortized per
 * packet, apart from the SACK-gap scan (bounded by the window).
 */
#ifndef _MRC_TX_H
#define _MRC_TX_H

#include "mrc_core_types.h"

struct mrc_sack;

/** MRC_TX_NIL - "no entry" in the intrusive lists. */
#define MRC_TX_NIL		0xffffffffU
/** MRC_TX_NO_TIMEOUT - mrc_tx_next_timeout() with nothing in flight. */
#define MRC_TX_NO_TIMEOUT	(~0ULL)
/** MRC_TX_GAP_THRESH_DEFAULT - later PSNs acked before a gap is a loss. */
#define MRC_TX_GAP_THRESH_DEFAULT	3

/**
 * enum mrc_tx_state - state of a scoreboard entry.
 * @MRC_TXS_FREE: unused (below the cumulative ack, or not sent yet).
 * @MRC_TXS_INFLIGHT: sent once, not acknowledged.
 * @MRC_TXS_RTX: retransmitted, not acknowledged.
 * @MRC_TXS_LOST: declared lost, waiting in the lost queue.
 * @MRC_TXS_SACKED: acknowledged by a SACK bitmap above the cumulative ack.
 */
enum mrc_tx_state {
	MRC_TXS_FREE,
	MRC_TXS_INFLIGHT,
	MRC_TXS_RTX,
	MRC_TXS_LOST,
	MRC_TXS_SACKED,
};

/**
 * enum mrc_loss_cause - how a loss was detected.
 * @MRC_LOSS_SACK_GAP: not acked while enough later PSNs were.
 * @MRC_LOSS_PER_PATH: a later packet on the same path was acked first.
 * @MRC_LOSS_RTO: its retransmission timeout expired.
 * @MRC_LOSS_NACK: the receiver NACKed it (reason kept).
 * @MRC_LOSS_LINK: its path's local plane or the peer's port went down
 *	while it was in flight, or the local stack refused it
 *	(mrc_tx_unsent()).
 * @__MRC_LOSS_MAX: number of causes.
 */
enum mrc_loss_cause {
	MRC_LOSS_SACK_GAP,
	MRC_LOSS_PER_PATH,
	MRC_LOSS_RTO,
	MRC_LOSS_NACK,
	MRC_LOSS_LINK,

	__MRC_LOSS_MAX
};

/**
 * struct mrc_tx_entry - one PSN of the scoreboard.
 * @sent_ns: time of the last (re)transmission.
 * @first_ns: time of the first transmission: what a SACK echoing the
 *	first copy's timestamp measures from (mrc_conn_rx_sack()).
 * @off: stream byte offset of the packet's data.
 * @len: payload length in bytes.
 * @user: caller's word (e.g. its message index), returned untouched.
 * @link_prev: previous entry in the path list or the lost queue.
 * @link_next: next entry in the path list or the lost queue.
 * @time_prev: previous entry in the time-ordered list.
 * @time_next: next entry in the time-ordered list.
 * @path: path index of the last transmission.
 * @state: enum mrc_tx_state.
 * @flags: caller's message flags (opcode kind), returned untouched.
 * @rtx_count: retransmissions so far (saturates at 255).
 * @cause: enum mrc_loss_cause, while lost.
 * @nack_reason: NACK reason, when @cause is MRC_LOSS_NACK.
 */
struct mrc_tx_entry {
	u64 sent_ns;
	u64 first_ns;
	u64 off;
	u32 len;
	u32 user;
	u32 link_prev;
	u32 link_next;
	u32 time_prev;
	u32 time_next;
	u16 path;
	u8 state;
	u8 flags;
	u8 rtx_count;
	u8 cause;
	u8 nack_reason;
};

/**
 * struct mrc_tx_list - head and tail of an intrusive list (ring indices).
 * @head: first entry or MRC_TX_NIL.
 * @tail: last entry or MRC_TX_NIL.
 */
struct mrc_tx_list {
	u32 head;
	u32 tail;
};

/**
 * struct mrc_tx_path - scoreboard state of one path index.
 * @list: in-flight entries sent on the path, in send order.
 * @inflight: their number.
 * @reorder_us: how long after it left a packet on the path may still be
 *	acknowledged although later PSNs were (microseconds, 0: no
 *	estimate): packets sprayed later on faster paths overtake it, so
 *	SACK gaps do not call it lost before then (mrc_tx_set_reorder()).
 * @acked_sent: send time of the latest-sent packet on the path that was
 *	acknowledged (sent once: a retransmission's copy is ambiguous).
 */
struct mrc_tx_path {
	struct mrc_tx_list list;
	u32 inflight;
	u32 reorder_us;
	u64 acked_sent;
};

/**
 * struct mrc_tx - sender scoreboard of one connection.
 * @ring: entries, indexed by PSN & @mask.
 * @mask: ring size minus one.
 * @paths: per path index state.
 * @npaths: number of path indexes.
 * @una: oldest PSN not cumulatively acked (the peer's cack).
 * @nxt: next new PSN to send.
 * @mpr: the peer's window in PSNs: nothing is sent at or past una + mpr.
 * @gap_thresh: acked later PSNs that make a gap a loss (0: off).
 * @inflight_pkts: packets in flight (sent, not acked, not lost).
 * @inflight_bytes: their payload bytes.
 * @lost_pkts: entries in the lost queue.
 * @una_off: stream offset up to which everything is cumulatively acked.
 * @sack_hi: one past the highest PSN acknowledged (>= @una).
 * @gap_mark: the SACK-gap rule has judged every PSN before this one.
 * @gap_due: when the packet at @gap_mark, held back by its path's
 *	reordering window, may be judged lost (0: none waits;
 *	mrc_tx_on_gap_due()).
 * @time_list: in-flight entries by time of last transmission.
 * @lost_list: the lost queue, in detection order.
 * @lost_by_cause: losses detected, per enum mrc_loss_cause.
 * @spurious: entries acked after being declared lost.
 * @acked_sent: send time of the latest-sent packet acknowledged, on any
 *	path (sent once, as in struct mrc_tx_path).
 */
struct mrc_tx {
	struct mrc_tx_entry *ring;
	u32 mask;
	struct mrc_tx_path *paths;
	u16 npaths;
	u32 una;
	u32 nxt;
	u32 mpr;
	u32 gap_thresh;
	u32 inflight_pkts;
	u64 inflight_bytes;
	u32 lost_pkts;
	u64 una_off;
	u32 sack_hi;
	u32 gap_mark;
	u64 gap_due;
	struct mrc_tx_list time_list;
	struct mrc_tx_list lost_list;
	u64 lost_by_cause[__MRC_LOSS_MAX];
	u64 spurious;
	u64 acked_sent;
};

/**
 * struct mrc_tx_pkt - a new packet handed to mrc_tx_send_new().
 * @off: stream byte offset of its data.
 * @len: payload length.
 * @user: caller's word kept in the entry.
 * @flags: caller's flags kept in the entry.
 */
struct mrc_tx_pkt {
	u64 off;
	u32 len;
	u32 user;
	u8 flags;
};

/**
 * struct mrc_tx_ack - what a SACK changed.
 * @acked_pkts: entries newly acknowledged.
 * @acked_bytes: their payload bytes.
 * @cack_advanced: the cumulative ack moved.
 * @una: the cumulative ack after the SACK.
 * @una_off: stream offset cumulatively acked after the SACK.
 * @has_rtt: @rtt_ns is valid.
 * @rtt_ns: RTT sample of the triggering packet (sent once: Karn).
 * @has_trigger: the triggering packet is still in the scoreboard (not yet
 *	cumulatively acked before this SACK): @trigger_sent_ns is valid.
 * @trigger_sent_ns: when it was last sent, which bounds the RTT of the
 *	copy the SACK answers from below (mrc_conn_rx_sack()).
 * @trigger_first_ns: when it was first sent.
 * @rtt_samples: newly acked entries that were sent only once.
 * @rtt_min_ns: smallest of their RTT samples (valid if @rtt_samples).
 * @lost: entries newly declared lost by this SACK.
 * @spurious: newly acked entries that had been declared lost.
 */
struct mrc_tx_ack {
	u32 acked_pkts;
	u64 acked_bytes;
	bool cack_advanced;
	u32 una;
	u64 una_off;
	bool has_rtt;
	u64 rtt_ns;
	bool has_trigger;
	u64 trigger_sent_ns;
	u64 trigger_first_ns;
	u32 rtt_samples;
	u64 rtt_min_ns;
	u32 lost;
	u32 spurious;
};

/**
 * struct mrc_tx_lost - head of the lost queue: a packet to retransmit.
 * @psn: its PSN.
 * @path: path index that lost it (choose another one).
 * @cause: enum mrc_loss_cause.
 * @nack_reason: NACK reason when @cause is MRC_LOSS_NACK.
 * @rtx_count: retransmissions so far (for the retry limit).
 * @off: stream offset of its data.
 * @len: payload length.
 * @user: caller's word.
 * @flags: caller's flags.
 */
struct mrc_tx_lost {
	u32 psn;
	u16 path;
	u8 cause;
	u8 nack_reason;
	u8 rtx_count;
	u64 off;
	u32 len;
	u32 user;
	u8 flags;
};

int mrc_tx_init(struct mrc_tx *tx, u32 init_psn, u32 mpr, u64 start_off,
		struct mrc_tx_entry *ring, u32 nslots,
		struct mrc_tx_path *paths, u16 npaths);
void mrc_tx_set_ring(struct mrc_tx *tx, struct mrc_tx_entry *ring,
		     u32 nslots);
void mrc_tx_set_mpr(struct mrc_tx *tx, u32 mpr);
bool mrc_tx_can_send(const struct mrc_tx *tx, u32 win_pkts, u64 win_bytes);
void mrc_tx_set_reorder(struct mrc_tx *tx, int path, u32 window_us);
int mrc_tx_send_new(struct mrc_tx *tx, const struct mrc_tx_pkt *pkt,
		    u16 path, u64 now, u32 *psn);
int mrc_tx_send_rtx(struct mrc_tx *tx, u32 psn, u16 path, u64 now);
int mrc_tx_on_sack(struct mrc_tx *tx, const struct mrc_sack *sack, int path,
		   u64 now, struct mrc_tx_ack *res);
int mrc_tx_on_refused(struct mrc_tx *tx, u32 psn, u8 reason, int path,
		      u64 now);
int mrc_tx_on_nack(struct mrc_tx *tx, u32 psn, u8 reason, int path,
		   u16 *lost_path);
int mrc_tx_unsent(struct mrc_tx *tx, u32 psn, u16 path);
u64 mrc_tx_next_timeout(const struct mrc_tx *tx, u64 rto);
u32 mrc_tx_on_gap_due(struct mrc_tx *tx, u64 now);
u32 mrc_tx_expire(struct mrc_tx *tx, u64 now, u64 rto);
u32 mrc_tx_path_lost(struct mrc_tx *tx, u16 path);
bool mrc_tx_peek_lost(const struct mrc_tx *tx, struct mrc_tx_lost *out);
const struct mrc_tx_entry *mrc_tx_entry_of(const struct mrc_tx *tx, u32 psn);
bool mrc_tx_delivered_since(const struct mrc_tx *tx, int path, u64 sent_ns);

#endif /* _MRC_TX_H */
