// SPDX-License-Identifier: GPL-2.0
/*
 * Connection engine, packets in: data (validated before any state
 * changes), SACKs, NACKs, probes and RESETs.
 */
#include "mrc_conn_int.h"

static const char * const mrc_conn_drop_names[__MRC_DROP_MAX] = {
	[MRC_DROP_NONE] = "none",
	[MRC_DROP_CLOSED] = "closed",
	[MRC_DROP_BAD_TYPE] = "bad_type",
	[MRC_DROP_BAD_QPN] = "bad_qpn",
	[MRC_DROP_BAD_RKEY] = "bad_rkey",
	[MRC_DROP_BAD_OPCODE] = "bad_opcode",
	[MRC_DROP_PSN_WINDOW] = "psn_window",
	[MRC_DROP_NO_CREDIT] = "no_credit",
	[MRC_DROP_MSG_FULL] = "msg_full",
	[MRC_DROP_SACK_UNSENT] = "sack_unsent",
	[MRC_DROP_NACK_UNSENT] = "nack_unsent",
	[MRC_DROP_BAD_RESET] = "bad_reset",
	[MRC_DROP_BAD_CTRL_KEY] = "bad_ctrl_key",
	[MRC_DROP_NO_MEM] = "no_mem",
};

/**
 * mrc_conn_drop_name() - counter name of a drop reason.
 * @reason: enum mrc_conn_drop.
 *
 * Return: a static name, "unknown" for values out of range.
 */
const char *mrc_conn_drop_name(int reason)
{
	if (reason < 0 || reason >= __MRC_DROP_MAX)
		return "unknown";
	return mrc_conn_drop_names[reason];
}

static int mrc_conn_drop(struct mrc_conn *conn, int reason)
{
	conn->st.drops[reason]++;
	return reason;
}

static bool mrc_conn_seq(const struct mrc_conn *conn)
{
	return conn->p.sock_type == MRC_CONN_SEQPACKET;
}

/* SEQPACKET: completion ring entries in use or promised to held ends. */
/*
 * Room for one more message end: a message out of order leaves the last
 * slot to the next in order (@in_order), which alone can make the held
 * ones readable.
 */
static bool mrc_conn_msg_room(const struct mrc_conn *conn, bool in_order)
{
	u32 used = conn->rxm_tail - conn->rxm_head + conn->rx_held_ends;

	return used + !in_order < conn->rxm_mask + 1;
}

/* The reader has nothing to read: what is held waits for a hole. */
static bool mrc_conn_rx_starved(const struct mrc_conn *conn)
{
	return !mrc_conn_app_readable(conn) && conn->rxm_tail == conn->rxm_head;
}

static void mrc_conn_nack(struct mrc_conn *conn, const struct mrc_pkt *pkt,
			  u32 rx_ev, u8 reason)
{
	memset(&conn->nack, 0, sizeof(conn->nack));
	conn->nack.reason = reason;
	conn->nack.entropy = rx_ev;
	conn->nack.nack_psn = pkt->bth.psn;
	if (pkt->bth.ts)
		conn->nack.tx_ts = pkt->u.data.tseth.tx_ts;
	conn->nack_pending = true;
}

static void mrc_conn_collect_msgs(struct mrc_conn *conn,
				  const struct mrc_rx_result *res,
				  struct mrc_conn_verdict *v)
{
	u32 cursor = res->adv_from;
	struct mrc_rx_msg m;
	struct mrc_conn_msg *out;

	while (mrc_rx_next_msg(&conn->rx, &cursor, &m)) {
		out = &conn->rxm[conn->rxm_tail & conn->rxm_mask];
		out->off = conn->rx_msg_end;
		out->len = 0;
		if (m.end_off > conn->rx_msg_end) {
			u64 len = m.end_off - conn->rx_msg_end;

			out->len = (u32)min_t(u64, len, U32_MAX);
			conn->rx_msg_end = m.end_off;
		}
		out->imm = m.imm;
		out->has_imm = m.has_imm;
		conn->rxm_tail++;
		if (conn->rx_held_ends)
			conn->rx_held_ends--;
		v->msgs++;
	}
}

static int mrc_conn_rx_data(struct mrc_conn *conn, const struct mrc_pkt *pkt,
			    u32 rx_ev, bool ce, u64 now,
			    struct mrc_conn_verdict *v)
{
	const struct mrc_data *d = &pkt->u.data;
	bool credit = conn->p.caps & MRC_CAP_CREDIT;
	bool seq = mrc_conn_seq(conn);
	u8 op = pkt->bth.opcode;
	struct mrc_rx_result res;
	struct mrc_conn_ack a;
	struct mrc_rx_pkt rp;
	u64 end = d->va + d->payload_len;
	bool dup, msg_end, missed = false;
	s32 diff;

	/*
	 * Every data opcode is taken on both socket types: STREAM sends
	 * WRITE_FIRST/MIDDLE/LAST (and may receive immediates, ignored);
	 * only SEQPACKET delivers message boundaries.
	 */
	if (d->r_key != conn->p.rx_r_key)
		return mrc_conn_drop(conn, MRC_DROP_BAD_RKEY);
	diff = mrc_psn_diff(pkt->bth.psn, conn->rx.cack);
	if (diff >= (s32)conn->rx.window || diff < -(s32)conn->rx.window)
		return mrc_conn_drop(conn, MRC_DROP_PSN_WINDOW);
	dup = diff < 0 || mrc_rx_has(&conn->rx, pkt->bth.psn);
	msg_end = seq && mrc_op_is_msg_end(op);
	if (!dup && credit && (end < d->va || end > conn->crx.advertised))
		return mrc_conn_drop(conn, MRC_DROP_NO_CREDIT);
	if (!dup && msg_end && !mrc_conn_msg_room(conn, diff == 0)) {
		/* the reader is behind: ask for a retransmission later */
		mrc_conn_nack(conn, pkt, rx_ev, MRC_NACK_NO_PKT_BUFFER);
		return mrc_conn_drop(conn, MRC_DROP_MSG_FULL);
	}
	/*
	 * Memory full of data held behind a hole (the first packets lost,
	 * the rest arrived) with nothing to read: the next packet in order
	 * is taken, or the hole would never fill.
	 */
	if (!dup && conn->rx_mem_full &&
	    !(diff == 0 && mrc_conn_rx_starved(conn))) {
		mrc_conn_nack(conn, pkt, rx_ev, MRC_NACK_NO_PKT_BUFFER);
		return mrc_conn_drop(conn, MRC_DROP_NO_MEM);
	}

	/* accepted: from here on, state changes */
	memset(&rp, 0, sizeof(rp));
	rp.psn = pkt->bth.psn;
	rp.end_off = end;
	rp.imm = d->imm;
	if (msg_end)
		rp.flags |= MRC_RXF_MSG_END;
	if (mrc_op_has_imm(op))
		rp.flags |= MRC_RXF_IMM;
	if (pkt->bth.ack_req)
		rp.flags |= MRC_RXF_ACK_REQ;
	if (pkt->bth.rtx)
		rp.flags |= MRC_RXF_RTX;
	mrc_rx_receive(&conn->rx, &rp, &res);

	conn->st.rx_pkts++;
	mrc_conn_data_moved(conn, now);
	v->data = true;
	v->place_off = d->va;
	if (res.verdict == MRC_RX_NEW) {
		if (credit)
			mrc_credit_rx_accept(&conn->crx, d->va,
					     d->payload_len);
		else
			conn->crx.received = max(conn->crx.received, end);
		conn->st.rx_bytes += d->payload_len;
		v->place_len = d->payload_len;
		if (msg_end)
			conn->rx_held_ends++;
		if (seq && res.adv_count)
			mrc_conn_collect_msgs(conn, &res, v);
	} else {
		conn->st.rx_dup_pkts++;
		v->dup = true;
		/* resent though we had it: our SACKs for it were lost */
		if (pkt->bth.rtx)
			missed = mrc_conn_sacks_missed(conn, pkt->bth.psn,
						       now);
	}
	v->deliver_off = conn->rx.deliver_off;

	memset(&a, 0, sizeof(a));
	a.psn = pkt->bth.psn;
	a.ev = rx_ev;
	a.ce = ce;
	a.fan = pkt->bth.rtx;
	a.missed = missed;
	if (pkt->bth.ts) {
		a.tx_ts = d->tseth.tx_ts;
		a.ts_valid = true;
	}
	conn->last_rx = a;
	conn->last_rx.ce = false;
	conn->last_rx.fan = false;
	conn->last_rx.missed = false;
	if (res.sack_now || ce || !conn->p.ack_delay_ns) {
		mrc_conn_push_ack(conn, &a);
		v->sack_now = true;
	} else if (!conn->sack_deadline) {
		conn->sack_deadline = now + conn->p.ack_delay_ns;
	}
	return MRC_DROP_NONE;
}

/* Free SEQPACKET send ring entries whose last packet is acknowledged. */
static void mrc_conn_free_txm(struct mrc_conn *conn)
{
	while (conn->txm_head != conn->txm_send) {
		const struct mrc_conn_txmsg *m =
			&conn->txm[conn->txm_head & conn->txm_mask];

		if (!mrc_psn_before(m->last_psn, conn->tx.una))
			break;
		conn->txm_head++;
	}
}

/*
 * The RTT of the copy of a resent packet that a SACK answers, by the TSETH
 * timestamp @ts it echoes; the packet was first sent at @first, last at
 * @last. The timestamp counts 2^10 ns units mod 2^16: it names a send
 * time only within about 67 ms, and a round trip longer than that (a
 * loaded or emulated host, a long fabric) read from it alone comes out as
 * its remainder, a random 0-67 ms. Those samples held the RTO of the
 * debug kernel's guests, whose round trips reach seconds, at 100-200 ms,
 * and every packet was sent many times over (issue #17). So the echo
 * picks the first or the last copy when it is one of theirs; a copy in
 * between left before @last: its RTT is the least value not below
 * @now - @last (less a unit of rounding) that the timestamp allows.
 */
static u64 mrc_conn_ts_rtt(u64 now, u16 ts, u64 first, u64 last)
{
	u64 units = now >> MRC_CONN_TS_SHIFT, least;
	u16 d = (u16)((u16)units - ts);

	if (ts == (u16)(last >> MRC_CONN_TS_SHIFT))
		return now > last ? now - last : 0;
	if (ts == (u16)(first >> MRC_CONN_TS_SHIFT))
		return now > first ? now - first : 0;
	least = units - min(units, (last >> MRC_CONN_TS_SHIFT) + 1);
	least += (u16)(d - (u16)least);
	return least << MRC_CONN_TS_SHIFT;
}

/*
 * Whether a probe answer is for an earlier probe than the one out on an
 * ASSUMED_BAD or BACKUP path: the answer echoes the probe's send time in
 * its timestamp (mrc_conn_rx(); V set). Late answers, and copies of a
 * fanned answer that come after the next probe left, would otherwise
 * count for a probe that may be lost (a dead path would come back). A
 * peer that echoes nothing (V clear) is taken at its word, as before.
 */
static bool mrc_conn_probe_answer_stale(const struct mrc_conn *conn,
					const struct mrc_sack *s, int pidx)
{
	mrc_time_t sent = mrc_path_probe_sent_at(&conn->paths, (u32)pidx);

	if (!s->cc.ts_valid || !sent)
		return false;
	return s->cc.tx_ts != (u16)(sent >> MRC_CONN_TS_SHIFT);
}

static void mrc_conn_sack_path(struct mrc_conn *conn,
			       const struct mrc_sack *s, int pidx, u64 now,
			       struct mrc_conn_verdict *v)
{
	const struct mrc_path *p;

	if (pidx < 0)
		return;
	p = &conn->paths.paths[pidx];
	if (s->probe_resp && (p->flags & MRC_PATHF_PROBE_OUT)) {
		if (mrc_conn_probe_answer_stale(conn, s, pidx)) {
			mrc_path_probe_answered(&conn->paths, pidx, now,
						s->mark, true);
			return;
		}
		mrc_path_reverse_answered(&conn->paths, pidx, now);
		mrc_path_probe_answered(&conn->paths, pidx, now, s->mark,
					false);
		v->probe_answered = true;
		/* an answer may bring the next probe forward */
		if (p->state == MRC_PATH_ASSUMED_BAD)
			mrc_conn_probe_soon(conn, p->next_probe);
	} else {
		mrc_path_on_sack(&conn->paths, pidx, now, s->mark);
	}
}

/*
 * A packet of path @pidx counts as lost to SACK gaps only half its path's
 * RTT late (the others' packets overtake it by their difference in delay)
 * and never later than half an RTO: a late path must be found by its gaps
 * before its timer blames it for silence (mrc_conn_suspect()).
 */
static void mrc_conn_set_reorder(struct mrc_conn *conn, int pidx)
{
	u64 srtt = mrc_conn_path(conn, pidx)->srtt_us;
	u64 cap = mrc_div64(mrc_rtt_base_rto(&conn->rtt), 2 * MRC_NSEC_PER_USEC);

	mrc_tx_set_reorder(&conn->tx, pidx, (u32)min(srtt + srtt / 2, cap));
}

static int mrc_conn_rx_sack(struct mrc_conn *conn, const struct mrc_pkt *pkt,
			    u64 now, struct mrc_conn_verdict *v)
{
	const struct mrc_sack *s = &pkt->u.sack;
	u32 una_before = conn->tx.una;
	struct mrc_cc_ack ca;
	bool fresh;
	struct mrc_tx_ack res;
	u64 rtt = 0, ttr;
	int pidx;

	pidx = mrc_path_lookup_ev(&conn->paths, s->entropy);
	if (pidx < 0)
		pidx = -1;
	if (mrc_tx_on_sack(&conn->tx, s, pidx, now, &res))
		return mrc_conn_drop(conn, MRC_DROP_SACK_UNSENT);
	conn->st.rx_ctrl++;

	mrc_conn_sack_path(conn, s, pidx, now, v);
	if (s->probe_resp && conn->persist_out) {
		/* the peer is alive: a closed window is not a timeout */
		mrc_conn_alive(conn);
	}
	/*
	 * A resent packet's SACK says by its timestamp which copy it
	 * answers. A packet already cumulatively acknowledged says nothing
	 * of when its copy left (a duplicate): no sample (Karn).
	 */
	if (res.has_rtt)
		rtt = res.rtt_ns;
	else if (s->cc.ts_valid && (conn->p.caps & MRC_CAP_TSETH) &&
		 !s->probe_resp && res.has_trigger)
		rtt = mrc_conn_ts_rtt(now, s->cc.tx_ts, res.trigger_first_ns,
				      res.trigger_sent_ns);
	if (rtt) {
		mrc_rtt_sample(&conn->rtt, rtt);
		if (pidx >= 0) {
			mrc_path_on_rtt(&conn->paths, pidx, rtt);
			mrc_conn_set_reorder(conn, pidx);
		}
	}
	mrc_conn_losses(conn, res.lost, now);
	if (res.acked_pkts) {
		mrc_path_on_delivered(&conn->paths, conn->tx.acked_sent);
		mrc_conn_progress(conn);
		memset(&ca, 0, sizeof(ca));
		ca.now = now;
		ca.rtt_ns = rtt;
		ca.inflight = conn->tx.inflight_bytes;
		ca.acked_bytes = (u32)min_t(u64, res.acked_bytes, U32_MAX);
		ca.rcv_pen = s->cc.rcv_cwnd_pen;
		ca.ecn = s->mark == MRC_MARK_SKIP_ONCE;
		mrc_cc_on_ack(&conn->cc, &ca);
	}
	if (res.cack_advanced) {
		if (mrc_ttr_on_cack(&conn->ttr,
				    mrc_psn_add(conn->tx.una, MRC_PSN_MASK),
				    now, &ttr)) {
			struct mrc_conn_event ev;

			memset(&ev, 0, sizeof(ev));
			ev.type = MRC_CEV_RECOVERY;
			ev.time = now;
			ev.ttr_ns = ttr;
			mrc_conn_push_event(conn, &ev);
		}
		if (mrc_conn_seq(conn))
			mrc_conn_free_txm(conn);
	}
	/*
	 * What a SACK says about the receiver's state (credit, port status,
	 * MPR) is as old as its cumulative ack: a reordered older SACK, or
	 * a replayed one, must not move it. A credit no receiver could have
	 * granted, fresh or not, says the SACK is forged or broken: nothing
	 * else of its extension is believed either.
	 */
	fresh = mrc_psn_after_eq(s->cack_psn, una_before);
	if (s->has_credit &&
	    !mrc_credit_tx_plausible(&conn->ctx, s->credit.credit,
				     conn->tx.una_off))
		fresh = false;
	if (s->has_credit && fresh) {
		mrc_credit_tx_update(&conn->ctx, s->credit.credit,
				     conn->tx.una_off);
		if (s->credit.port_status != conn->peer_ports) {
			conn->peer_ports = s->credit.port_status;
			mrc_path_set_peer_ports(&conn->paths,
						s->credit.port_status, now);
			mrc_conn_probe_soon(conn, now);
		}
	}
	if (s->mpr && fresh) {
		/* Before the send ring is attached its one entry is no bound. */
		u32 mpr = min_t(u32, (u32)s->mpr * MRC_MPR_UNIT,
				conn->tx_attached ? conn->tx.mask + 1 :
				U32_MAX);

		mpr = min_t(u32, mpr, conn->p.tx_mpr);
		if (mpr != conn->tx.mpr)
			mrc_tx_set_mpr(&conn->tx, mpr);
	}
	v->tx_ready = true;
	return MRC_DROP_NONE;
}

static int mrc_conn_rx_nack(struct mrc_conn *conn, const struct mrc_pkt *pkt,
			    u64 now, struct mrc_conn_verdict *v)
{
	const struct mrc_nack *n = &pkt->u.nack;
	const struct mrc_tx_entry *e;
	u16 lost_path = 0;
	bool last_hop;
	int pidx, r;

	pidx = mrc_path_lookup_ev(&conn->paths, n->entropy);
	if (pidx < 0)
		pidx = -1;
	e = mrc_tx_entry_of(&conn->tx, n->nack_psn);
	if (n->reason == MRC_NACK_UNEXP_EVENT) {
		/* fatal, but only about a PSN we really have outstanding */
		if (!e)
			return mrc_conn_drop(conn, MRC_DROP_NACK_UNSENT);
		conn->st.rx_ctrl++;
		mrc_conn_fail(conn, -ECONNRESET, now);
		v->failed = true;
		return MRC_DROP_NONE;
	}
	if (mrc_nack_is_refusal(n->reason)) {
		/*
		 * Delivered, but the reader is behind: the packet waits one
		 * RTO (backed off while the peer stays full), not a
		 * retransmission per NACK; the path is not blamed, and the
		 * peer is alive, so the retry budget starts over.
		 */
		r = mrc_tx_on_refused(&conn->tx, n->nack_psn, n->reason,
				      pidx, now);
		if (r < 0)
			return mrc_conn_drop(conn, MRC_DROP_NACK_UNSENT);
		conn->st.rx_ctrl++;
		if (r > 0) {
			mrc_path_on_sack(&conn->paths, pidx, now,
					 MRC_PATH_MARK_NONE);
			mrc_conn_alive(conn);
		}
		return MRC_DROP_NONE;
	}
	r = mrc_tx_on_nack(&conn->tx, n->nack_psn, n->reason, pidx,
			   &lost_path);
	if (r < 0)
		return mrc_conn_drop(conn, MRC_DROP_NACK_UNSENT);
	conn->st.rx_ctrl++;
	if (r > 0 && e) {
		mrc_ttr_on_loss(&conn->ttr, n->nack_psn, now);
		if (n->reason == MRC_NACK_TRIMMED ||
		    n->reason == MRC_NACK_TRIMMED_LASTHOP) {
			last_hop = n->reason == MRC_NACK_TRIMMED_LASTHOP;
			mrc_path_on_trim(&conn->paths, lost_path, now,
					 last_hop);
			mrc_cc_on_trim(&conn->cc, e->len,
				       conn->tx.inflight_bytes, now, last_hop);
		}
	}
	v->tx_ready = true;
	return MRC_DROP_NONE;
}

static int mrc_conn_rx_reset(struct mrc_conn *conn, const struct mrc_pkt *pkt,
			     u64 now, struct mrc_conn_verdict *v)
{
	const struct mrc_reset *r = &pkt->u.reset;

	if (r->src_qpn != conn->p.peer_qpn || r->r_key != conn->p.tx_r_key ||
	    (r->dst_qpn && r->dst_qpn != conn->p.local_qpn))
		return mrc_conn_drop(conn, MRC_DROP_BAD_RESET);
	conn->st.rx_ctrl++;
	mrc_conn_fail(conn, -ECONNRESET, now);
	v->failed = true;
	return MRC_DROP_NONE;
}

/* The key a SACK, NACK or PROBE carries. */
static u32 mrc_conn_ctrl_key(const struct mrc_pkt *pkt)
{
	switch (pkt->type) {
	case MRC_PKT_SACK:
		return pkt->u.sack.key;
	case MRC_PKT_NACK:
		return pkt->u.nack.key;
	default:
		return pkt->u.probe.key;
	}
}

/**
 * mrc_conn_rx() - a decoded packet arrived for this connection.
 * @conn: connection.
 * @pkt: the packet (mrc_pkt_decode() accepted it; the glue matched its
 *	DestQP, or for a RESET its src_qpn and source address).
 * @rx_ev: the EV it arrived with (UDP source port / flow label), to
 *	reflect in the SACK.
 * @ecn_ce: it arrived with ECN CE (reflected as SKIP_ONCE).
 * @now: current time.
 * @v: the verdict (fully overwritten).
 *
 * Every check (R_Key of data, key of SACK, NACK and PROBE, PSN window,
 * credit, SACK or NACK of unsent PSNs, RESET key) runs before anything
 * changes:
 * a dropped packet changes nothing but the drop counter (and may queue a
 * NACK). Data: place the payload at @v->place_off unless @v->dup, then
 * deliver up to @v->deliver_off (STREAM) or pop @v->msgs messages
 * (SEQPACKET). Afterwards drain mrc_conn_next_ctrl() and
 * mrc_conn_next_tx().
 *
 * Return: MRC_DROP_NONE (0) if accepted, else the enum mrc_conn_drop
 * reason.
 */
int mrc_conn_rx(struct mrc_conn *conn, const struct mrc_pkt *pkt, u32 rx_ev,
		bool ecn_ce, u64 now, struct mrc_conn_verdict *v)
{
	int ret;

	memset(v, 0, sizeof(*v));
	if (conn->err)
		return mrc_conn_drop(conn, MRC_DROP_CLOSED);
	if (pkt->type == MRC_PKT_RESET)
		return mrc_conn_rx_reset(conn, pkt, now, v);
	if (pkt->type != MRC_PKT_DATA && pkt->type != MRC_PKT_SACK &&
	    pkt->type != MRC_PKT_NACK && pkt->type != MRC_PKT_PROBE)
		return mrc_conn_drop(conn, MRC_DROP_BAD_TYPE);
	if (pkt->bth.dest_qpn != conn->p.local_qpn)
		return mrc_conn_drop(conn, MRC_DROP_BAD_QPN);
	/* SACK, NACK and PROBE carry the key we issued, as data does. */
	if (pkt->type != MRC_PKT_DATA &&
	    mrc_conn_ctrl_key(pkt) != conn->p.rx_r_key)
		return mrc_conn_drop(conn, MRC_DROP_BAD_CTRL_KEY);
	conn->now = now;
	switch (pkt->type) {
	case MRC_PKT_DATA:
		ret = mrc_conn_rx_data(conn, pkt, rx_ev, ecn_ce, now, v);
		break;
	case MRC_PKT_SACK:
		ret = mrc_conn_rx_sack(conn, pkt, now, v);
		break;
	case MRC_PKT_NACK:
		ret = mrc_conn_rx_nack(conn, pkt, now, v);
		break;
	default: {
		struct mrc_conn_ack a;

		/*
		 * a probe: answer on the path it came by (reflected EV),
		 * echoing its send time, which tells the prober which of its
		 * probes this answers
		 */
		memset(&a, 0, sizeof(a));
		a.psn = U32_MAX;
		a.ev = rx_ev;
		a.probe = true;
		a.tx_ts = (u16)(pkt->u.probe.tx_time >> MRC_CONN_TS_SHIFT);
		a.ts_valid = true;
		a.fan = true;
		a.ce = ecn_ce;
		mrc_conn_push_ack(conn, &a);
		conn->st.rx_ctrl++;
		v->sack_now = true;
		ret = MRC_DROP_NONE;
		break;
	}
	}
	if (ret == MRC_DROP_NONE)
		mrc_conn_heard(conn, now);
	return ret;
}
