// SPDX-License-Identifier: GPL-2.0
/*
 * Sender scoreboard: what is in flight, on which path, since when; SACK,
 * NACK and timeout processing; loss detection; the lost queue.
 *
 * Lists link entries by ring index. An in-flight entry is on its path's
 * list (link_*) and on the time list (time_*); a lost entry is on the lost
 * queue (link_*); acked and free entries are on no list. Every state
 * change goes through mrc_tx_leave() and one of the mrc_tx_to_*()
 * helpers, so the lists and counters can only move together.
 */
#include "mrc_tx.h"
#include "mrc_psn.h"
#include "mrc_wire.h"

/* ---- intrusive lists ---- */

static u32 *mrc_tx_prev(struct mrc_tx_entry *e, bool time)
{
	return time ? &e->time_prev : &e->link_prev;
}

static u32 *mrc_tx_next(struct mrc_tx_entry *e, bool time)
{
	return time ? &e->time_next : &e->link_next;
}

static void mrc_tx_list_init(struct mrc_tx_list *l)
{
	l->head = MRC_TX_NIL;
	l->tail = MRC_TX_NIL;
}

static void mrc_tx_list_append(struct mrc_tx *tx, struct mrc_tx_list *l,
			       u32 idx, bool time)
{
	struct mrc_tx_entry *e = &tx->ring[idx];

	*mrc_tx_prev(e, time) = l->tail;
	*mrc_tx_next(e, time) = MRC_TX_NIL;
	if (l->tail == MRC_TX_NIL)
		l->head = idx;
	else
		*mrc_tx_next(&tx->ring[l->tail], time) = idx;
	l->tail = idx;
}

static void mrc_tx_list_unlink(struct mrc_tx *tx, struct mrc_tx_list *l,
			       u32 idx, bool time)
{
	struct mrc_tx_entry *e = &tx->ring[idx];
	u32 prev = *mrc_tx_prev(e, time), next = *mrc_tx_next(e, time);

	if (prev == MRC_TX_NIL)
		l->head = next;
	else
		*mrc_tx_next(&tx->ring[prev], time) = next;
	if (next == MRC_TX_NIL)
		l->tail = prev;
	else
		*mrc_tx_prev(&tx->ring[next], time) = prev;
	*mrc_tx_prev(e, time) = MRC_TX_NIL;
	*mrc_tx_next(e, time) = MRC_TX_NIL;
}

/* ---- entry states ---- */

static u32 mrc_tx_idx(const struct mrc_tx *tx, u32 psn)
{
	return psn & tx->mask;
}

static u32 mrc_tx_psn_of(const struct mrc_tx *tx, u32 idx)
{
	return mrc_psn_add(tx->una, (idx - tx->una) & tx->mask);
}

/* PSNs sent and not cumulatively acked. */
static u32 mrc_tx_span(const struct mrc_tx *tx)
{
	return mrc_psn_sub(tx->nxt, tx->una);
}

static bool mrc_tx_is_inflight(const struct mrc_tx_entry *e)
{
	return e->state == MRC_TXS_INFLIGHT || e->state == MRC_TXS_RTX;
}

/* Take an entry off whatever list its state puts it on. */
static void mrc_tx_leave(struct mrc_tx *tx, u32 idx)
{
	struct mrc_tx_entry *e = &tx->ring[idx];

	if (mrc_tx_is_inflight(e)) {
		struct mrc_tx_path *p = &tx->paths[e->path];

		mrc_tx_list_unlink(tx, &p->list, idx, false);
		mrc_tx_list_unlink(tx, &tx->time_list, idx, true);
		p->inflight--;
		tx->inflight_pkts--;
		tx->inflight_bytes -= e->len;
	} else if (e->state == MRC_TXS_LOST) {
		mrc_tx_list_unlink(tx, &tx->lost_list, idx, false);
		tx->lost_pkts--;
	}
}

static void mrc_tx_to_inflight(struct mrc_tx *tx, u32 idx, u8 state,
			       u16 path, u64 now)
{
	struct mrc_tx_entry *e = &tx->ring[idx];
	struct mrc_tx_path *p = &tx->paths[path];

	/* keep the time list sorted even if the caller's clock stepped back */
	if (tx->time_list.tail != MRC_TX_NIL)
		now = max(now, tx->ring[tx->time_list.tail].sent_ns);
	e->state = state;
	e->path = path;
	e->sent_ns = now;
	mrc_tx_list_append(tx, &p->list, idx, false);
	mrc_tx_list_append(tx, &tx->time_list, idx, true);
	p->inflight++;
	tx->inflight_pkts++;
	tx->inflight_bytes += e->len;
}

/* Declare an in-flight entry lost; return 1 if it was in flight. */
static u32 mrc_tx_to_lost(struct mrc_tx *tx, u32 idx, u8 cause, u8 reason)
{
	struct mrc_tx_entry *e = &tx->ring[idx];

	if (!mrc_tx_is_inflight(e))
		return 0;
	mrc_tx_leave(tx, idx);
	e->state = MRC_TXS_LOST;
	e->cause = cause;
	e->nack_reason = reason;
	mrc_tx_list_append(tx, &tx->lost_list, idx, false);
	tx->lost_pkts++;
	tx->lost_by_cause[cause]++;
	return 1;
}

/* Acknowledge one entry (if not already) and account for it in @res. */
static void mrc_tx_to_acked(struct mrc_tx *tx, u32 idx, u64 now,
			    struct mrc_tx_ack *res)
{
	struct mrc_tx_entry *e = &tx->ring[idx];
	u64 rtt;

	if (e->state == MRC_TXS_SACKED || e->state == MRC_TXS_FREE)
		return;
	if (e->state == MRC_TXS_LOST) {
		res->spurious++;
		tx->spurious++;
	}
	mrc_tx_leave(tx, idx);
	e->state = MRC_TXS_SACKED;
	res->acked_pkts++;
	res->acked_bytes += e->len;
	if (e->rtx_count)
		return;
	/* proof that whatever was sent before it and is missing was lost */
	tx->paths[e->path].acked_sent = max(tx->paths[e->path].acked_sent,
					    e->sent_ns);
	tx->acked_sent = max(tx->acked_sent, e->sent_ns);
	/* Karn: only a packet sent once gives an unambiguous RTT */
	rtt = now > e->sent_ns ? now - e->sent_ns : 0;
	if (!res->rtt_samples || rtt < res->rtt_min_ns)
		res->rtt_min_ns = rtt;
	res->rtt_samples++;
}

/* ---- set-up and sending ---- */

/**
 * mrc_tx_init() - set up the scoreboard of a new connection.
 * @tx: scoreboard.
 * @init_psn: our initial PSN (sent in the handshake).
 * @mpr: the peer's MPR in PSNs.
 * @start_off: stream offset of the first byte (usually 0).
 * @ring: @nslots entries, owned by the caller.
 * @nslots: a power of two, at most 2^22; the ring also bounds the window.
 * @paths: @npaths path records, owned by the caller.
 * @npaths: number of path indexes the caller may use (> 0).
 *
 * Return: 0, or -EINVAL on bad sizes.
 */
int mrc_tx_init(struct mrc_tx *tx, u32 init_psn, u32 mpr, u64 start_off,
		struct mrc_tx_entry *ring, u32 nslots,
		struct mrc_tx_path *paths, u16 npaths)
{
	u32 i;

	if (!nslots || (nslots & (nslots - 1)) || nslots > (1U << 22) ||
	    !npaths || !mrc_psn_valid(init_psn))
		return -EINVAL;
	memset(tx, 0, sizeof(*tx));
	memset(ring, 0, (size_t)nslots * sizeof(*ring));
	for (i = 0; i < npaths; i++) {
		mrc_tx_list_init(&paths[i].list);
		paths[i].inflight = 0;
		paths[i].reorder_us = 0;
		paths[i].acked_sent = 0;
	}
	tx->ring = ring;
	tx->mask = nslots - 1;
	tx->paths = paths;
	tx->npaths = npaths;
	tx->una = init_psn;
	tx->nxt = init_psn;
	tx->sack_hi = init_psn;
	tx->gap_mark = init_psn;
	tx->mpr = mpr;
	tx->gap_thresh = MRC_TX_GAP_THRESH_DEFAULT;
	tx->una_off = start_off;
	mrc_tx_list_init(&tx->time_list);
	mrc_tx_list_init(&tx->lost_list);
	return 0;
}

/**
 * mrc_tx_set_ring() - move the scoreboard to another ring.
 * @tx: scoreboard with nothing sent yet (mrc_tx_init() on a placeholder).
 * @ring: @nslots entries, owned by the caller.
 * @nslots: a power of two, at most 2^22.
 *
 * Entries are found by PSN, so the move is only sound while no PSN has
 * been sent: the caller (mrc_conn_tx_attach()) makes sure of that.
 */
void mrc_tx_set_ring(struct mrc_tx *tx, struct mrc_tx_entry *ring,
		     u32 nslots)
{
	memset(ring, 0, (size_t)nslots * sizeof(*ring));
	tx->ring = ring;
	tx->mask = nslots - 1;
}

/**
 * mrc_tx_set_mpr() - the peer changed its MPR (dynamic MPR).
 * @tx: scoreboard.
 * @mpr: new MPR in PSNs; packets already sent stay in flight.
 */
void mrc_tx_set_mpr(struct mrc_tx *tx, u32 mpr)
{
	tx->mpr = mpr;
}

/**
 * mrc_tx_can_send() - may a new PSN go out?
 * @tx: scoreboard.
 * @win_pkts: congestion window in packets (U32_MAX: none).
 * @win_bytes: congestion window in bytes (U64_MAX: none).
 *
 * Never beyond una + MPR, never more PSNs outstanding than ring slots,
 * and in-flight packets and bytes below the caller's windows.
 *
 * Return: true if mrc_tx_send_new() may be called.
 */
bool mrc_tx_can_send(const struct mrc_tx *tx, u32 win_pkts, u64 win_bytes)
{
	u32 span = mrc_tx_span(tx);

	return span < tx->mpr && span <= tx->mask &&
	       tx->inflight_pkts < win_pkts && tx->inflight_bytes < win_bytes;
}

/**
 * mrc_tx_send_new() - record the first transmission of the next PSN.
 * @tx: scoreboard.
 * @pkt: stream offset, length and caller's data of the packet.
 * @path: path index it goes out on.
 * @now: time of transmission (ns).
 * @psn: set to the PSN assigned.
 *
 * Checks the MPR and ring limits, not the caller's windows.
 *
 * Return: 0, -EINVAL for a bad path index, -ENOSPC beyond the MPR or ring.
 */
int mrc_tx_send_new(struct mrc_tx *tx, const struct mrc_tx_pkt *pkt,
		    u16 path, u64 now, u32 *psn)
{
	u32 idx = mrc_tx_idx(tx, tx->nxt);
	struct mrc_tx_entry *e = &tx->ring[idx];

	if (path >= tx->npaths)
		return -EINVAL;
	if (!mrc_tx_can_send(tx, U32_MAX, U64_MAX))
		return -ENOSPC;
	memset(e, 0, sizeof(*e));
	e->off = pkt->off;
	e->len = pkt->len;
	e->user = pkt->user;
	e->flags = pkt->flags;
	mrc_tx_to_inflight(tx, idx, MRC_TXS_INFLIGHT, path, now);
	e->first_ns = e->sent_ns;
	*psn = tx->nxt;
	tx->nxt = mrc_psn_add(tx->nxt, 1);
	return 0;
}

/**
 * mrc_tx_send_rtx() - record a retransmission.
 * @tx: scoreboard.
 * @psn: PSN retransmitted (lost, or still in flight for a forced resend).
 * @path: path index it goes out on now.
 * @now: time of transmission (ns); its timer restarts.
 *
 * Takes the entry off the lost queue if it was there.
 *
 * Return: 0, -EINVAL for a bad path, -ERANGE if @psn is not outstanding,
 * -EALREADY if it is already acknowledged.
 */
int mrc_tx_send_rtx(struct mrc_tx *tx, u32 psn, u16 path, u64 now)
{
	u32 idx = mrc_tx_idx(tx, psn);
	struct mrc_tx_entry *e = &tx->ring[idx];

	if (path >= tx->npaths)
		return -EINVAL;
	if (!mrc_psn_valid(psn) || !mrc_psn_in_window(psn, tx->una,
						      mrc_tx_span(tx)))
		return -ERANGE;
	if (e->state == MRC_TXS_SACKED)
		return -EALREADY;
	mrc_tx_leave(tx, idx);
	if (e->rtx_count < 255)
		e->rtx_count++;
	mrc_tx_to_inflight(tx, idx, MRC_TXS_RTX, path, now);
	return 0;
}

/* ---- SACK processing ---- */

/**
 * struct mrc_tx_sack_view - a SACK in scoreboard terms.
 * @cack: cumulative ack, clamped to >= una (stale SACKs).
 * @base: PSN of bitmap bit 0.
 * @bitmap: the SACK bitmap.
 * @ack_psn: PSN of the triggering packet.
 */
struct mrc_tx_sack_view {
	u32 cack;
	u32 base;
	u64 bitmap;
	u32 ack_psn;
};

static bool mrc_tx_view_acks(const struct mrc_tx_sack_view *v, u32 psn)
{
	u32 bit = mrc_psn_sub(psn, v->base);

	return mrc_psn_before(psn, v->cack) || psn == v->ack_psn ||
	       (bit < 64 && (v->bitmap & BIT_ULL(bit)));
}

/* Whether the SACK says anything of @psn: acked or not. */
static bool mrc_tx_view_covers(const struct mrc_tx_sack_view *v, u32 psn)
{
	return mrc_psn_before(psn, v->cack) || psn == v->ack_psn ||
	       mrc_psn_sub(psn, v->base) < 64;
}

/* Highest set bit, -1 for none. */
static int mrc_fls64(u64 x)
{
	int n = -1;

	while (x) {
		x >>= 1;
		n++;
	}
	return n;
}

/* Check a SACK against what was sent; fill @v. */
static int mrc_tx_sack_view(const struct mrc_tx *tx, const struct mrc_sack *s,
			    struct mrc_tx_sack_view *v)
{
	s32 span = (s32)mrc_tx_span(tx);
	int hi = mrc_fls64(s->sack_bitmap);

	/* a SACK may be older than one already seen: that is not an error */
	if (mrc_psn_diff(s->cack_psn, tx->una) > span)
		return -ERANGE;
	v->cack = mrc_psn_max(s->cack_psn, tx->una);
	v->base = mrc_psn_add(s->cack_psn, (u32)(s32)s->sack_offset);
	v->bitmap = s->sack_bitmap;
	v->ack_psn = mrc_psn_add(s->cack_psn, (u32)(s32)s->ack_psn_offset);
	if (mrc_psn_diff(v->ack_psn, tx->una) >= span)
		return -ERANGE;
	if (hi >= 0 &&
	    mrc_psn_diff(mrc_psn_add(v->base, hi), tx->una) >= span)
		return -ERANGE;
	return 0;
}

/*
 * Per-path loss detection: packets on one path arrive in send order, so
 * when the packet that triggered the SACK was sent on @path, everything
 * sent on @path before it and not acked by this SACK is lost.
 */
static u32 mrc_tx_per_path(struct mrc_tx *tx, const struct mrc_tx_sack_view *v,
			   int path)
{
	u32 trig = mrc_tx_idx(tx, v->ack_psn), idx, next, lost = 0;
	const struct mrc_tx_entry *t = &tx->ring[trig];

	if (path < 0 || path >= tx->npaths || !mrc_tx_is_inflight(t) ||
	    t->path != path || mrc_psn_before(v->ack_psn, tx->una))
		return 0;
	for (idx = tx->paths[path].list.head; idx != trig; idx = next) {
		u32 psn = mrc_tx_psn_of(tx, idx);

		next = tx->ring[idx].link_next;
		/*
		 * Between the cumulative ack and the bitmap, and beyond the
		 * bitmap, the SACK says nothing: the packet may have arrived
		 * (its own SACK is on a slower reverse path). Only what the
		 * SACK covers counts. With hundreds of paths, thousands of
		 * PSNs are in flight and most lie outside the 64-bit bitmap.
		 */
		if (!mrc_tx_view_covers(v, psn))
			continue;
		if (!mrc_tx_view_acks(v, psn))
			lost += mrc_tx_to_lost(tx, idx, MRC_LOSS_PER_PATH, 0);
	}
	return lost;
}

/**
 * mrc_tx_set_reorder() - how late a packet on a path may be acknowledged.
 * @tx: scoreboard.
 * @path: path index (ignored if out of range).
 * @window_us: microseconds after it left (0: no wait).
 *
 * A packet is acknowledged about its path's RTT after it left, however
 * many PSNs sprayed later on faster paths were acknowledged before it:
 * with hundreds of paths whose delays differ, that is far more PSNs than
 * any fixed gap threshold. SACK gaps call it lost only once @window_us
 * have passed (RACK's reordering window, per path; the connection derives
 * it from the path's smoothed RTT, see mrc_conn_rx_sack()).
 */
void mrc_tx_set_reorder(struct mrc_tx *tx, int path, u32 window_us)
{
	if (path < 0 || path >= tx->npaths)
		return;
	tx->paths[path].reorder_us = window_us;
}

/*
 * SACK-gap detection: a first transmission is lost once gap_thresh later
 * PSNs are acknowledged and its path's reordering window has passed since
 * it left. Walk down from the highest acked PSN to the gap_thresh-th acked
 * one; every first transmission below it (and above what earlier SACKs
 * judged) is lost. The judgement stops at the first one still within its
 * window: the next SACK takes it up again (an RTO if none comes).
 */
static u32 mrc_tx_sack_gaps(struct mrc_tx *tx, u64 now)
{
	u64 due;
	u32 psn = tx->sack_hi, count = 0, lost = 0;

	tx->gap_due = 0;
	if (!tx->gap_thresh)
		return 0;
	while (psn != tx->gap_mark && count < tx->gap_thresh) {
		psn = mrc_psn_add(psn, MRC_PSN_MASK);	/* psn - 1 */
		if (tx->ring[mrc_tx_idx(tx, psn)].state == MRC_TXS_SACKED)
			count++;
	}
	if (count < tx->gap_thresh)
		return 0;
	for (; tx->gap_mark != psn; tx->gap_mark = mrc_psn_add(tx->gap_mark, 1)) {
		const struct mrc_tx_entry *e =
			&tx->ring[mrc_tx_idx(tx, tx->gap_mark)];

		if (e->state != MRC_TXS_INFLIGHT)
			continue;
		due = e->sent_ns;
		if (e->path < tx->npaths)
			due += (u64)tx->paths[e->path].reorder_us *
			       MRC_NSEC_PER_USEC;
		if (now < due) {
			tx->gap_due = due;
			break;
		}
		lost += mrc_tx_to_lost(tx, mrc_tx_idx(tx, tx->gap_mark),
				       MRC_LOSS_SACK_GAP, 0);
	}
	return lost;
}

/**
 * mrc_tx_on_gap_due() - the reordering window of a held-back packet ended.
 * @tx: scoreboard.
 * @now: current time (>= @tx->gap_due).
 *
 * Judges again what the last SACK left to judge, as if it came again:
 * without this, a packet lost at the end of a burst (no later SACK) would
 * wait for its retransmission timeout.
 *
 * Return: how many entries were moved to the lost queue (their cause
 * MRC_LOSS_SACK_GAP); the caller accounts for them as for a SACK's.
 */
u32 mrc_tx_on_gap_due(struct mrc_tx *tx, u64 now)
{
	if (!tx->gap_due || now < tx->gap_due)
		return 0;
	return mrc_tx_sack_gaps(tx, now);
}

/* Move una to @cack, freeing the entries it passes. */
static void mrc_tx_advance(struct mrc_tx *tx, u32 cack, u64 now,
			   struct mrc_tx_ack *res)
{
	while (tx->una != cack) {
		u32 idx = mrc_tx_idx(tx, tx->una);
		struct mrc_tx_entry *e = &tx->ring[idx];

		mrc_tx_to_acked(tx, idx, now, res);
		e->state = MRC_TXS_FREE;
		tx->una_off = max(tx->una_off, e->off + e->len);
		tx->una = mrc_psn_add(tx->una, 1);
		res->cack_advanced = true;
	}
	tx->sack_hi = mrc_psn_max(tx->sack_hi, tx->una);
	tx->gap_mark = mrc_psn_max(tx->gap_mark, tx->una);
}

static void mrc_tx_ack_one(struct mrc_tx *tx, u32 psn, u64 now,
			   struct mrc_tx_ack *res)
{
	if (!mrc_psn_in_window(psn, tx->una, mrc_tx_span(tx)))
		return;
	mrc_tx_to_acked(tx, mrc_tx_idx(tx, psn), now, res);
	tx->sack_hi = mrc_psn_max(tx->sack_hi, mrc_psn_add(psn, 1));
}

/**
 * mrc_tx_on_sack() - process a SACK.
 * @tx: scoreboard.
 * @sack: the decoded SACK (cack_psn, sack_offset, sack_bitmap and
 *	ack_psn_offset are used).
 * @path: path index of the SACK's reflected entropy, -1 if unknown.
 * @now: arrival time (ns), for RTT samples.
 * @res: what changed.
 *
 * Acknowledges what the SACK acknowledges, then runs per-path and SACK-gap
 * loss detection; lost entries go to the lost queue. A SACK that
 * acknowledges a PSN never sent is rejected before anything changes.
 *
 * Return: 0, or -ERANGE for a SACK of unsent PSNs.
 */
int mrc_tx_on_sack(struct mrc_tx *tx, const struct mrc_sack *sack, int path,
		   u64 now, struct mrc_tx_ack *res)
{
	struct mrc_tx_sack_view v;
	const struct mrc_tx_entry *t;
	u32 i;
	int err;

	memset(res, 0, sizeof(*res));
	err = mrc_tx_sack_view(tx, sack, &v);
	if (err)
		return err;

	/* the trigger's RTT before it is acked (its entry may be freed) */
	t = &tx->ring[mrc_tx_idx(tx, v.ack_psn)];
	if (mrc_psn_in_window(v.ack_psn, tx->una, mrc_tx_span(tx))) {
		res->has_trigger = true;
		res->trigger_sent_ns = t->sent_ns;
		res->trigger_first_ns = t->first_ns;
		if (t->state != MRC_TXS_SACKED && !t->rtx_count) {
			res->has_rtt = true;
			res->rtt_ns = now > t->sent_ns ? now - t->sent_ns : 0;
		}
	}

	res->lost += mrc_tx_per_path(tx, &v, path);
	mrc_tx_advance(tx, v.cack, now, res);
	for (i = 0; i < 64; i++)
		if (v.bitmap & BIT_ULL(i))
			mrc_tx_ack_one(tx, mrc_psn_add(v.base, i), now, res);
	mrc_tx_ack_one(tx, v.ack_psn, now, res);
	res->lost += mrc_tx_sack_gaps(tx, now);

	res->una = tx->una;
	res->una_off = tx->una_off;
	return 0;
}

/**
 * mrc_tx_on_refused() - the peer refused a packet for lack of room (NACK
 * NO_PKT_BUFFER or NO_RESOURCE): it stays in flight with its timer
 * restarted, and goes again when that expires; a retransmission now
 * would be refused too.
 * @tx: scoreboard.
 * @psn: the refused PSN.
 * @reason: NACK reason, kept with the entry (its expiry blames no path).
 * @path: path index of the NACK's reflected entropy, -1 if unknown. A
 *	NACK about an earlier transmission on another path is ignored.
 * @now: current time (ns).
 *
 * Return: 1 if the timer restarted, 0 if nothing changed, -ERANGE if
 * @psn was never sent.
 */
int mrc_tx_on_refused(struct mrc_tx *tx, u32 psn, u8 reason, int path,
		      u64 now)
{
	s32 d = mrc_psn_diff(psn, tx->una);
	u32 idx = mrc_tx_idx(tx, psn);
	struct mrc_tx_entry *e = &tx->ring[idx];
	u16 on;
	u8 state;

	if (!mrc_psn_valid(psn) || d >= (s32)mrc_tx_span(tx))
		return -ERANGE;
	if (d < 0 || !mrc_tx_is_inflight(e) || (path >= 0 && e->path != path))
		return 0;
	state = e->state;
	on = e->path;
	mrc_tx_leave(tx, idx);
	mrc_tx_to_inflight(tx, idx, state, on, now);
	e->nack_reason = reason;
	return 1;
}

/**
 * mrc_tx_on_nack() - process a NACK.
 * @tx: scoreboard.
 * @psn: the NACKed PSN.
 * @reason: NACK reason, kept with the loss.
 * @path: path index of the NACK's reflected entropy, -1 if unknown. A NACK
 *	about an earlier transmission on another path is ignored.
 * @lost_path: set to the path index that lost the packet, when marked.
 *
 * Return: 1 if the packet was marked lost, 0 if nothing changed, -ERANGE
 * if @psn was never sent.
 */
int mrc_tx_on_nack(struct mrc_tx *tx, u32 psn, u8 reason, int path,
		   u16 *lost_path)
{
	s32 d = mrc_psn_diff(psn, tx->una);
	u32 idx = mrc_tx_idx(tx, psn);
	struct mrc_tx_entry *e = &tx->ring[idx];

	if (!mrc_psn_valid(psn) || d >= (s32)mrc_tx_span(tx))
		return -ERANGE;
	if (d < 0 || !mrc_tx_is_inflight(e) || (path >= 0 && e->path != path))
		return 0;
	*lost_path = e->path;
	return mrc_tx_to_lost(tx, idx, MRC_LOSS_NACK, reason);
}

/**
 * mrc_tx_unsent() - the packet just recorded as sent on @path never left:
 * the local stack refused it (no route, device down, dropped by a filter
 * or the device).
 * @tx: scoreboard.
 * @psn: its PSN.
 * @path: path index it was to go out on. A PSN since resent on another
 *	path, acknowledged or already lost changes nothing.
 *
 * It leaves the in-flight accounting (packets, bytes, its path's list
 * and the timer list) and joins the lost queue (cause MRC_LOSS_LINK), to
 * be resent on another path by the next mrc_tx_peek_lost().
 *
 * Return: 1 if it was taken back, 0 if nothing changed, -ERANGE if @psn
 * was never sent.
 */
int mrc_tx_unsent(struct mrc_tx *tx, u32 psn, u16 path)
{
	s32 d = mrc_psn_diff(psn, tx->una);
	u32 idx = mrc_tx_idx(tx, psn);
	struct mrc_tx_entry *e = &tx->ring[idx];

	if (!mrc_psn_valid(psn) || d >= (s32)mrc_tx_span(tx))
		return -ERANGE;
	if (d < 0 || !mrc_tx_is_inflight(e) || e->path != path)
		return 0;
	return mrc_tx_to_lost(tx, idx, MRC_LOSS_LINK, 0);
}

/* ---- timeouts and the lost queue ---- */

/**
 * mrc_tx_next_timeout() - when the next in-flight packet times out.
 * @tx: scoreboard.
 * @rto: retransmission timeout (ns) for every in-flight packet.
 *
 * Return: absolute time (ns) to arm the caller's timer for, or
 * MRC_TX_NO_TIMEOUT when nothing is in flight.
 */
u64 mrc_tx_next_timeout(const struct mrc_tx *tx, u64 rto)
{
	if (tx->time_list.head == MRC_TX_NIL)
		return MRC_TX_NO_TIMEOUT;
	return tx->ring[tx->time_list.head].sent_ns + rto;
}

/**
 * mrc_tx_expire() - declare lost the packets whose timeout has passed.
 * @tx: scoreboard.
 * @now: current time (ns).
 * @rto: retransmission timeout (ns).
 *
 * Return: number of packets moved to the lost queue (cause MRC_LOSS_RTO).
 */
u32 mrc_tx_expire(struct mrc_tx *tx, u64 now, u64 rto)
{
	u32 n = 0;

	while (tx->time_list.head != MRC_TX_NIL &&
	       tx->ring[tx->time_list.head].sent_ns + rto <= now)
		n += mrc_tx_to_lost(tx, tx->time_list.head, MRC_LOSS_RTO, 0);
	return n;
}

/**
 * mrc_tx_path_lost() - declare lost every packet in flight on a path
 * whose link went down.
 * @tx: scoreboard.
 * @path: path index.
 *
 * Return: number of packets moved to the lost queue (cause
 * MRC_LOSS_LINK), in the order they were sent.
 */
u32 mrc_tx_path_lost(struct mrc_tx *tx, u16 path)
{
	u32 n = 0;

	if (path >= tx->npaths)
		return 0;
	/* The path's list holds only packets in flight: each call shrinks it. */
	while (tx->paths[path].list.head != MRC_TX_NIL) {
		if (!mrc_tx_to_lost(tx, tx->paths[path].list.head,
				    MRC_LOSS_LINK, 0))
			break;
		n++;
	}
	return n;
}

/**
 * mrc_tx_peek_lost() - the oldest packet waiting for retransmission.
 * @tx: scoreboard.
 * @out: filled with the packet's facts.
 *
 * The entry leaves the queue when mrc_tx_send_rtx() resends it or a SACK
 * acknowledges it.
 *
 * Return: false when the lost queue is empty.
 */
bool mrc_tx_peek_lost(const struct mrc_tx *tx, struct mrc_tx_lost *out)
{
	const struct mrc_tx_entry *e;
	u32 idx = tx->lost_list.head;

	if (idx == MRC_TX_NIL)
		return false;
	e = &tx->ring[idx];
	out->psn = mrc_tx_psn_of(tx, idx);
	out->path = e->path;
	out->cause = e->cause;
	out->nack_reason = e->nack_reason;
	out->rtx_count = e->rtx_count;
	out->off = e->off;
	out->len = e->len;
	out->user = e->user;
	out->flags = e->flags;
	return true;
}

/**
 * mrc_tx_delivered_since() - whether a packet sent at or after @sent_ns
 * was acknowledged: on path @path, or on any path if @path is negative.
 * @tx: scoreboard.
 * @path: path index, or -1.
 * @sent_ns: a send time (of a packet whose timer expired).
 *
 * Only packets sent once count (which copy of a retransmission arrived
 * is unknown). Packets on one path arrive in send order, so a later one
 * acknowledged on the same path says the path works.
 *
 * Return: true if so.
 */
bool mrc_tx_delivered_since(const struct mrc_tx *tx, int path, u64 sent_ns)
{
	if (path < 0)
		return tx->acked_sent >= sent_ns;
	if (path >= tx->npaths)
		return false;
	return tx->paths[path].acked_sent >= sent_ns;
}

/**
 * mrc_tx_entry_of() - the scoreboard entry of an outstanding PSN.
 * @tx: scoreboard.
 * @psn: PSN.
 *
 * Return: the entry, or NULL if @psn is not in [una, nxt).
 */
const struct mrc_tx_entry *mrc_tx_entry_of(const struct mrc_tx *tx, u32 psn)
{
	if (!mrc_psn_valid(psn) ||
	    !mrc_psn_in_window(psn, tx->una, mrc_tx_span(tx)))
		return NULL;
	return &tx->ring[mrc_tx_idx(tx, psn)];
}
