// SPDX-License-Identifier: GPL-2.0
/*
 * Connection engine, packets out: data (retransmissions first, on
 * another path), then SACKs, NACKs and probes.
 */
#include "mrc_cm.h"
#include "mrc_conn_int.h"

static bool mrc_conn_seq(const struct mrc_conn *conn)
{
	return conn->p.sock_type == MRC_CONN_SEQPACKET;
}

/* Is there new data (or an empty message) the application queued? */
static bool mrc_conn_has_new(const struct mrc_conn *conn)
{
	if (mrc_conn_seq(conn))
		return conn->txm_send != conn->txm_tail;
	return conn->snd_nxt < conn->snd_end;
}

/**
 * mrc_conn_tx_idle() - nothing is queued, in flight or waiting to be
 * resent: the connection is idle in the sending direction.
 * @conn: connection.
 *
 * Return: true when idle.
 */
bool mrc_conn_tx_idle(const struct mrc_conn *conn)
{
	const struct mrc_tx *tx = &conn->tx;

	return tx->una == tx->nxt && !tx->lost_pkts && !mrc_conn_has_new(conn);
}

/*
 * Nothing in flight, yet something waits (data, a lost packet, or a tail
 * the peer has not cumulatively acknowledged): without a timer this would
 * hang. Arm the persist timer; when it fires a probe asks for a SACK
 * (it carries credit and the cumulative ack) and the retry budget counts.
 */
static void mrc_conn_update_persist(struct mrc_conn *conn, u64 now)
{
	const struct mrc_tx *tx = &conn->tx;
	bool stuck = !tx->inflight_pkts &&
		     (tx->lost_pkts || tx->una != tx->nxt ||
		      mrc_conn_has_new(conn));

	if (!stuck)
		conn->persist_at = 0;
	else if (!conn->persist_at)
		conn->persist_at = now + mrc_rtt_rto(&conn->rtt);
}

static void mrc_conn_fill_desc(const struct mrc_conn *conn, u32 psn, u64 off,
			       u32 len, u32 user, u8 opcode, u16 path,
			       u64 now, struct mrc_tx_desc *d)
{
	const struct mrc_path *p = &conn->paths.paths[path];

	memset(d, 0, sizeof(*d));
	d->off = off;
	d->len = len;
	d->psn = psn;
	d->msn = (u16)user;
	d->opcode = opcode;
	d->path = path;
	d->plane = p->plane;
	d->ev = p->ev;
	d->cfg_id = p->cfg_id;
	d->tx_ts = (u16)(now >> MRC_CONN_TS_SHIFT);
	if (mrc_conn_seq(conn)) {
		const struct mrc_conn_txmsg *m =
			&conn->txm[user & conn->txm_mask];

		d->dma_len = m->len;
		d->rqmsn = (u16)user;
		if (mrc_op_has_imm(opcode))
			d->imm = m->len;
	} else {
		/* STREAM: the message's length rides with its MSN */
		d->dma_len = (user >> MRC_CONN_SMSG_SHIFT) + 1;
	}
}

static int mrc_conn_next_rtx(struct mrc_conn *conn, u64 now, u64 cwnd,
			     struct mrc_tx_desc *d)
{
	struct mrc_tx_lost l;
	int path;

	if (!mrc_tx_peek_lost(&conn->tx, &l))
		return 0;
	if (conn->tx.inflight_bytes >= cwnd)
		return -EAGAIN;
	path = mrc_path_pick_rtx(&conn->paths, now, l.path);
	if (path < 0)
		return -EAGAIN;
	if (mrc_tx_send_rtx(&conn->tx, l.psn, (u16)path, now))
		return -EAGAIN;
	mrc_path_on_tx(&conn->paths, path, true);
	mrc_conn_fill_desc(conn, l.psn, l.off, l.len, l.user, l.flags,
			   (u16)path, now, d);
	d->rtx = true;
	d->ack_req = true;
	conn->st.rtx_pkts++;
	return 1;
}

/* Longest STREAM message: whole packets, at most MRC_CONN_SMSG_MAX. */
static u32 mrc_conn_smsg_cap(u32 mss)
{
	if (mss >= MRC_CONN_SMSG_MAX)
		return MRC_CONN_SMSG_MAX;
	return MRC_CONN_SMSG_MAX - MRC_CONN_SMSG_MAX % mss;
}

static u8 mrc_conn_stream_op(bool first, bool last)
{
	if (first)
		return last ? MRC_OP_WRITE_ONLY : MRC_OP_WRITE_FIRST;
	return last ? MRC_OP_WRITE_LAST : MRC_OP_WRITE_MIDDLE;
}

/* Size and opcode of the next new packet; 0 bytes and false: wait. */
static bool mrc_conn_next_new(struct mrc_conn *conn, u32 *len, u8 *op,
			      u32 *user, bool *msg_last)
{
	bool credit = conn->p.caps & MRC_CAP_CREDIT;
	u32 mss = conn->p.max_payload;
	const struct mrc_conn_txmsg *m;
	u64 rem, end;
	bool first, last;

	if (!mrc_conn_seq(conn)) {
		/*
		 * STREAM: what is queued when a message starts (at most
		 * MRC_CONN_SMSG_MAX bytes, whole packets) is one RDMA WRITE
		 * message, sent as WRITE_ONLY or WRITE_FIRST, _MIDDLE...,
		 * _LAST like RoCE.
		 */
		if (conn->snd_nxt >= conn->smsg_end) {
			rem = min_t(u64, conn->snd_end - conn->snd_nxt,
				    mrc_conn_smsg_cap(mss));
			conn->smsg_len = (u32)rem;
			conn->smsg_end = conn->snd_nxt + rem;
		}
		rem = conn->smsg_end - conn->snd_nxt;
		*len = credit ? mrc_credit_tx_sendable(&conn->ctx,
						       conn->snd_nxt, rem) :
				(u32)min_t(u64, rem, mss);
		first = conn->snd_nxt + conn->smsg_len == conn->smsg_end;
		last = *len == rem;
		*op = mrc_conn_stream_op(first, last);
		*user = (u16)conn->pkt_msn |
			((conn->smsg_len - 1) << MRC_CONN_SMSG_SHIFT);
		*msg_last = last;
		return *len != 0;
	}
	m = &conn->txm[conn->txm_send & conn->txm_mask];
	end = m->off + m->len;
	rem = end - conn->snd_nxt;
	if (!rem) {
		*len = 0;
	} else {
		*len = credit ? mrc_credit_tx_sendable(&conn->ctx,
						       conn->snd_nxt, rem) :
				(u32)min_t(u64, rem, mss);
		if (!*len)
			return false;
	}
	first = conn->snd_nxt == m->off;
	last = conn->snd_nxt + *len == end;
	if (first && last)
		*op = MRC_OP_WRITE_ONLY_IMM;
	else if (first)
		*op = MRC_OP_WRITE_FIRST;
	else if (last)
		*op = MRC_OP_WRITE_LAST_IMM;
	else
		*op = MRC_OP_WRITE_MIDDLE;
	*user = conn->txm_send;
	*msg_last = last;
	return true;
}

/*
 * The packets handed out last were not refused: they left. A hold (every
 * path refused, or a queue was full) keeps data back until it ends.
 * Return: false while the hold lasts.
 */
static bool mrc_conn_tx_begin(struct mrc_conn *conn, u64 now)
{
	if (conn->tx_out_pending) {
		conn->tx_out_pending = false;
		conn->refuse_run = 0;
		mrc_path_on_tx_left(&conn->paths, conn->tx_out_path);
	}
	if (conn->tx_hold_until) {
		if (now < conn->tx_hold_until)
			return false;
		conn->tx_hold_until = 0;
		conn->tx_hold_soft = false;
		conn->refuse_run = 0;
	}
	return true;
}

/*
 * The next new packet, on @path, or on the next path in rotation when
 * @path is negative. Return: 1 with @d filled, 0 when nothing may go.
 */
static int mrc_conn_next_new_pkt(struct mrc_conn *conn, u64 now, u64 cwnd,
				 int path, struct mrc_tx_desc *d)
{
	struct mrc_tx_pkt tp;
	u32 len, user, psn;
	bool last;
	u8 op;

	if (!mrc_conn_has_new(conn) ||
	    !mrc_tx_can_send(&conn->tx, U32_MAX, cwnd) ||
	    !mrc_conn_next_new(conn, &len, &op, &user, &last))
		return 0;
	if (path < 0)
		path = mrc_path_pick(&conn->paths, now, -1);
	if (path < 0)
		return 0;
	tp.off = conn->snd_nxt;
	tp.len = len;
	tp.user = user;
	tp.flags = op;
	if (mrc_tx_send_new(&conn->tx, &tp, (u16)path, now, &psn))
		return 0;
	mrc_path_on_tx(&conn->paths, path, false);
	mrc_conn_fill_desc(conn, psn, tp.off, len, user, op, (u16)path, now,
			   d);
	conn->snd_nxt += len;
	if (mrc_conn_seq(conn)) {
		if (last) {
			conn->txm[conn->txm_send & conn->txm_mask].last_psn =
				psn;
			conn->txm_send++;
		}
	} else if (last) {
		conn->pkt_msn++;
	}
	/* the tail of what is queued: ask for a SACK at once */
	d->ack_req = !mrc_conn_has_new(conn);
	return 1;
}

/**
 * mrc_conn_next_tx_burst() - the next data packets to send, if any: one
 * retransmission, or a burst of new packets with consecutive PSNs on one
 * path.
 * @conn: connection.
 * @now: current time.
 * @d: filled with the packets to send, in PSN order: build each one's
 *	headers with mrc_conn_build_data_hdr(), append the stream bytes
 *	[@d->off, @d->off + @d->len) and mrc_pad_len() zero bytes, and send
 *	it on the path @d->cfg_id with entropy @d->ev.
 * @max: room in @d (at least 1): the longest burst the caller can send
 *	at once (one segmentation-offload packet, Documentation/datapath.md).
 *
 * Retransmissions come first, one per call, each on another path than
 * the one that lost it when any is usable; then new data while the
 * congestion window, the peer's credit and its MPR allow: the first new
 * packet takes the next path in rotation and up to @max - 1 more follow
 * it on the same path (a burst), the rotation moving on once per burst;
 * while a loss is being recovered, bursts are of one packet. A burst
 * ends after a packet shorter than the connection's payload, so every
 * packet of a burst but its last is a full one. The packets are
 * recorded as sent; if the local stack refuses them, tell
 * mrc_conn_tx_failed() (with the first one's PSN) before the next call,
 * which then resends them on another path. Call until it returns 0 after
 * every event: that also arms the persist timer.
 *
 * Return: the number of packets in @d, 0 when nothing may be sent now.
 */
int mrc_conn_next_tx_burst(struct mrc_conn *conn, u64 now,
			   struct mrc_tx_desc *d, u32 max)
{
	u32 i, n = 0;
	u64 cwnd;
	int r;

	if (conn->err || !max)
		return 0;
	conn->now = now;
	if (!mrc_conn_tx_begin(conn, now))
		return 0;
	cwnd = mrc_cc_cwnd(&conn->cc);
	r = mrc_conn_next_rtx(conn, now, cwnd, d);
	if (r > 0) {
		n = 1;
		goto sent;
	}
	if (r < 0)
		goto idle;
	/*
	 * While a loss is being recovered, one packet per path in rotation:
	 * spread over every path, the packets sent after a loss are what
	 * proves which paths still work (a timeout blames its path only when
	 * something sent later was answered), and a burst would put a whole
	 * window on a few paths that may all be dead.
	 */
	if (conn->ttr.open || conn->tx.lost_pkts)
		max = 1;
	while (n < max &&
	       mrc_conn_next_new_pkt(conn, now, cwnd, n ? d[0].path : -1,
				     &d[n])) {
		/* only a full packet may have another behind it */
		if (d[n++].len < conn->p.max_payload)
			break;
	}
	if (!n)
		goto idle;
sent:
	conn->tx_out_pending = true;
	conn->tx_out_path = d[0].path;
	conn->tx_out_psn = d[0].psn;
	conn->tx_out_n = n;
	mrc_conn_data_moved(conn, now);
	conn->persist_at = 0;
	for (i = 0; i < n; i++) {
		conn->st.tx_pkts++;
		conn->st.tx_bytes += d[i].len;
	}
	return (int)n;
idle:
	mrc_conn_update_persist(conn, now);
	return 0;
}

/**
 * mrc_conn_next_tx() - the next data packet to send, if any: a burst of
 * one (mrc_conn_next_tx_burst()).
 * @conn: connection.
 * @now: current time.
 * @d: filled with the packet to send.
 *
 * Return: 1 with @d filled, 0 when nothing may be sent now.
 */
int mrc_conn_next_tx(struct mrc_conn *conn, u64 now, struct mrc_tx_desc *d)
{
	return mrc_conn_next_tx_burst(conn, now, d, 1);
}

/**
 * mrc_conn_data_pkt() - the headers of a data packet as a struct mrc_pkt.
 * @conn: connection.
 * @d: descriptor from mrc_conn_next_tx().
 * @pkt: filled (fully overwritten).
 */
void mrc_conn_data_pkt(const struct mrc_conn *conn,
		       const struct mrc_tx_desc *d, struct mrc_pkt *pkt)
{
	memset(pkt, 0, sizeof(*pkt));
	pkt->type = MRC_PKT_DATA;
	pkt->bth.opcode = d->opcode;
	pkt->bth.pkey = MRC_PKEY_DEFAULT;
	pkt->bth.dest_qpn = conn->p.peer_qpn;
	pkt->bth.ack_req = d->ack_req;
	pkt->bth.rtx = d->rtx;
	pkt->bth.psn = d->psn;
	pkt->u.data.rqmsn = d->rqmsn;
	pkt->u.data.msn = d->msn;
	if (conn->p.caps & MRC_CAP_TSETH) {
		pkt->bth.ts = true;
		pkt->u.data.tseth.tx_ts = d->tx_ts;
	}
	pkt->u.data.va = d->off;
	pkt->u.data.r_key = conn->p.tx_r_key;
	pkt->u.data.dma_len = d->dma_len;
	pkt->u.data.imm = d->imm;
	pkt->u.data.payload_len = d->len;
}

/**
 * mrc_conn_build_data_hdr() - encode the headers of a data packet.
 * @conn: connection.
 * @d: descriptor from mrc_conn_next_tx().
 * @buf: output (MRC_DATA_HDR_MAX bytes always suffice).
 * @cap: room in @buf.
 *
 * Return: header length, or a negative enum mrc_wire_err.
 */
int mrc_conn_build_data_hdr(const struct mrc_conn *conn,
			    const struct mrc_tx_desc *d, u8 *buf, u32 cap)
{
	struct mrc_pkt pkt;

	mrc_conn_data_pkt(conn, d, &pkt);
	return mrc_pkt_encode(&pkt, buf, cap);
}

static void mrc_conn_ctrl_init(const struct mrc_conn *conn,
			       struct mrc_pkt *pkt, enum mrc_pkt_type type,
			       u8 opcode)
{
	memset(pkt, 0, sizeof(*pkt));
	pkt->type = type;
	pkt->bth.opcode = opcode;
	pkt->bth.pkey = MRC_PKEY_DEFAULT;
	pkt->bth.dest_qpn = conn->p.peer_qpn;
}

static void mrc_conn_build_sack(struct mrc_conn *conn,
				const struct mrc_conn_ack *a,
				struct mrc_pkt *pkt)
{
	struct mrc_sack *s = &pkt->u.sack;

	mrc_conn_ctrl_init(conn, pkt, MRC_PKT_SACK, MRC_OP_SACK);
	s->mark = a->ce ? MRC_MARK_SKIP_ONCE : MRC_MARK_NONE;
	s->probe_resp = a->probe;
	s->entropy = a->ev;
	s->key = conn->p.tx_r_key;
	mrc_rx_fill_sack(&conn->rx, a->psn, s);
	s->cc.tx_ts = a->ts_valid ? a->tx_ts : 0;
	s->cc.ts_valid = a->ts_valid;
	s->cc.rcvd_bytes = (u32)(conn->st.rx_bytes & 0xffffff);
	if (conn->p.caps & MRC_CAP_CREDIT) {
		s->has_credit = true;
		s->credit.port_status = ~conn->paths.plane_down;
		s->credit.credit = mrc_credit_rx_advertise(&conn->crx);
	}
	if (!mrc_rx_sack_pending(&conn->rx))
		conn->sack_deadline = 0;
}

static void mrc_conn_build_probe(struct mrc_conn *conn, u64 now,
				 struct mrc_pkt *pkt)
{
	mrc_conn_ctrl_init(conn, pkt, MRC_PKT_PROBE, MRC_OP_PROBE);
	pkt->u.probe.probe_id = ++conn->probe_id;
	pkt->u.probe.key = conn->p.tx_r_key;
	pkt->u.probe.tx_time = now;
	conn->st.probes_sent++;
}

/**
 * mrc_conn_data_pkt_size() - bytes of the connection's largest data packet
 * (UDP payload: headers and a full payload).
 * @conn: connection.
 *
 * Return: the size in bytes.
 */
u32 mrc_conn_data_pkt_size(const struct mrc_conn *conn)
{
	u8 op = conn->p.sock_type == MRC_CONN_SEQPACKET ?
		MRC_OP_WRITE_ONLY_IMM : MRC_OP_WRITE_ONLY;
	int hdr = mrc_pkt_hdr_len(op, conn->p.caps & MRC_CAP_TSETH);

	return (hdr < 0 ? 0 : (u32)hdr) + conn->p.max_payload;
}

/**
 * mrc_conn_probe_size() - the size a path probe of the connection must
 * prove its path carries (UDP payload): that of its largest data packet
 * once it has data to send, its probes padded to it; 0 while it has
 * written nothing, when its paths carry only its SACKs and NACKs and a
 * small probe proves what they need (a receiver's padded probes cost it
 * a data packet's bytes each way per probe, for nothing).
 * @conn: connection.
 *
 * Return: the size in bytes, or 0 for a small probe.
 */
u32 mrc_conn_probe_size(const struct mrc_conn *conn)
{
	if (!(conn->p.caps & MRC_CAP_PROBE_PAD) || !conn->snd_end)
		return 0;
	return mrc_conn_data_pkt_size(conn);
}

/*
 * Padding that makes a path probe as large as the connection's largest
 * data packet, when the peer takes padded probes and the connection sends
 * data: a path that carries small packets but not full ones must fail
 * its probes, not return and eat the next data packets.
 */
static u16 mrc_conn_probe_pad(const struct mrc_conn *conn)
{
	u32 data = mrc_conn_probe_size(conn);
	u32 probe = MRC_BTH_LEN + MRC_PETH_LEN;

	if (data <= probe)
		return 0;
	return (u16)min_t(u32, data - probe, MRC_PROBE_PAD_MAX);
}

/* Is the probe outstanding on @p a reverse-liveness probe? */
static bool mrc_conn_reverse_probe(const struct mrc_path *p)
{
	return (p->flags & MRC_PATHF_REV_OUT) &&
	       (p->state == MRC_PATH_GOOD || p->state == MRC_PATH_SKIP);
}

/* How far back a quoted probe id may be: the probes of a few seconds. */
#define MRC_CONN_PTB_PROBE_AGE	65536U

/*
 * Whether a packet quoted by an ICMPv6 error is one this connection sent:
 * to the peer's QPN, with the key the peer issued, a PSN or probe id
 * already used. An off-path sender knows neither key nor PSNs.
 */
static bool mrc_conn_quote_ours(const struct mrc_conn *conn,
				const struct mrc_pkt *q)
{
	u32 back;

	if (q->bth.dest_qpn != conn->p.peer_qpn)
		return false;
	if (q->type == MRC_PKT_PROBE)
		return q->u.probe.key == conn->p.tx_r_key &&
		       conn->probe_id - q->u.probe.probe_id <
		       MRC_CONN_PTB_PROBE_AGE;
	if (q->type != MRC_PKT_DATA || q->u.data.r_key != conn->p.tx_r_key)
		return false;
	/* sent: before nxt, and not older than a window */
	back = mrc_psn_sub(conn->tx.nxt, q->bth.psn);
	return back && back <= conn->tx.mpr;
}

/**
 * mrc_conn_on_pkt_too_big() - an ICMPv6 packet-too-big about a packet the
 * connection sent.
 * @conn: connection.
 * @quote: the quoted packet, decoded (mrc_pkt_decode_quote()).
 * @ev: the EV it was sent on (its UDP source port and flow label).
 * @room: the largest MRC packet (UDP payload) the reported MTU carries
 *	on that path, once the path's encapsulation is taken off.
 * @now: current time.
 *
 * A quote that is not one of our data packets or padded probes (wrong
 * QPN, key, PSN or probe id), an EV not ours, or a @room that still
 * carries the connection's full data packets changes nothing. Otherwise
 * the path is taken out (mrc_path_on_pkt_too_big()): its probes are as
 * large as the data, so it stays out while the link is small. The path's
 * payload size is not lowered: one size per connection keeps the send
 * queue simple, and the other paths carry full packets.
 *
 * Return: 1 if the path was taken out, 0 if nothing changed, -EINVAL if
 * the quote is not ours.
 */
int mrc_conn_on_pkt_too_big(struct mrc_conn *conn, const struct mrc_pkt *quote,
			    u32 ev, u32 room, u64 now)
{
	int idx;

	if (conn->err || !mrc_conn_quote_ours(conn, quote))
		return -EINVAL;
	idx = mrc_path_lookup_ev(&conn->paths, ev);
	if (idx < 0)
		return -EINVAL;
	if (room >= mrc_conn_data_pkt_size(conn))
		return 0;
	conn->now = now;
	return mrc_path_on_pkt_too_big(&conn->paths, idx, now) ? 1 : 0;
}

static bool mrc_conn_probe_wanted(const struct mrc_path *p)
{
	if ((p->flags & MRC_PATHF_REV_OUT) &&
	    (p->state == MRC_PATH_GOOD || p->state == MRC_PATH_SKIP))
		return p->flags & MRC_PATHF_PROBE_OUT;
	return (p->state == MRC_PATH_ASSUMED_BAD ||
		p->state == MRC_PATH_BACKUP) &&
	       (p->flags & MRC_PATHF_PROBE_OUT);
}

/*
 * A SACK or NACK of ours leaves on @path: nothing will come back for it,
 * so unless the path is heard from, its reverse-liveness probe falls due
 * (mrc_path_reverse_poll()).
 */
static void mrc_conn_ctrl_on_path(struct mrc_conn *conn, int path, u64 now)
{
	mrc_time_t due = mrc_path_on_ctrl_tx(&conn->paths, path, now);

	if (due != MRC_PATH_NEVER)
		mrc_conn_probe_soon(conn, due);
}

/**
 * mrc_conn_reverse_poll() - queue the reverse-liveness probes due now.
 * @conn: connection.
 * @now: current time.
 *
 * Called with the path probe poll: the paths that carry our SACKs and
 * NACKs and heard nothing back get an EV probe each (mrc_path_reverse_poll()).
 */
void mrc_conn_reverse_poll(struct mrc_conn *conn, u64 now)
{
	u32 room = MRC_CONN_PROBEQ - conn->probeq_n;
	mrc_time_t next;

	conn->probeq_n += mrc_path_reverse_poll(&conn->paths, now,
						conn->probeq + conn->probeq_n,
						room, &next);
	if (next != MRC_PATH_NEVER)
		mrc_conn_probe_soon(conn, next);
}

/* Next path for a copy of a probe answer: any path not denied or held out. */
static int mrc_conn_fan_path(struct mrc_conn *conn)
{
	const struct mrc_path_table *t = &conn->paths;
	u32 n, idx;

	for (n = 0; n < t->count; n++) {
		const struct mrc_path *p;

		idx = conn->fan_cursor++ % t->count;
		p = &t->paths[idx];
		if (idx == conn->fan_first || p->state == MRC_PATH_DENIED ||
		    (((t->plane_down | t->peer_down) >> p->plane) & 1))
			continue;
		return idx;
	}
	return -ENOENT;
}

/*
 * A SACK of ours leaves on @path alone: remember it, in case the peer
 * shows it was lost (mrc_conn_sacks_missed()).
 */
static void mrc_conn_sack_sent(struct mrc_conn *conn,
			       const struct mrc_sack *s, int path, u64 now)
{
	struct mrc_conn_sent_sack *e;

	e = &conn->sacklog[conn->sacklog_next++ % MRC_CONN_SACKLOG];
	e->sent_ns = max_t(u64, now, 1);
	e->cack = s->cack_psn;
	/* no trigger (a window update): the last PSN in order */
	e->psn = mrc_psn_add(s->cack_psn, s->ack_psn_offset >= 0 ?
			     (u32)s->ack_psn_offset : MRC_PSN_MASK);
	e->path = (u32)path;
}

/**
 * mrc_conn_sacks_missed() - the peer resent @psn, which we had: it missed
 * our SACKs for it.
 * @conn: connection.
 * @psn: the PSN of the retransmission.
 * @now: current time.
 *
 * Each of our latest SACKs that covered @psn and left at least half of
 * rto_min ago was lost: the peer resends a packet whose SACKs it has not
 * seen at its timer, rto_min at least after the packet left, and a SACK
 * that left that long before the retransmission arrived had time to
 * reach it first (a round trip is far below rto_min, which stays above
 * the hosts' scheduling jitter). A younger SACK may still be on its way:
 * a packet the peer resent by SACK gaps, late but not lost, is covered
 * only by SACKs sent after it arrived. The paths of the lost SACKs become
 * reverse-suspect (mrc_path_on_ctrl_lost()): our next SACKs avoid them,
 * and their probes are due now. Each remembered SACK is judged once.
 *
 * Return: true if a SACK of ours is proven lost (the answer to the
 * retransmission then fans out: struct mrc_conn_ack, @missed).
 */
bool mrc_conn_sacks_missed(struct mrc_conn *conn, u32 psn, u64 now)
{
	u64 guard = conn->paths.pol.rto_min_ns / 2;
	struct mrc_conn_sent_sack *e;
	bool lost = false;
	mrc_time_t due;
	u32 i;

	for (i = 0; i < MRC_CONN_SACKLOG; i++) {
		e = &conn->sacklog[i];
		if (!e->sent_ns || e->sent_ns + guard > now ||
		    (!mrc_psn_before(psn, e->cack) && psn != e->psn))
			continue;
		due = mrc_path_on_ctrl_lost(&conn->paths, e->path, e->sent_ns,
					    now);
		e->sent_ns = 0;
		lost = true;
		if (due != MRC_PATH_NEVER)
			mrc_conn_probe_soon(conn, due);
	}
	return lost;
}

/*
 * Whether the answer to a retransmission that proved a SACK of ours lost
 * may fan out before @fan_quiet_until (one fan per RTO). A slow host
 * proves its SACKs "lost" by the dozen: its peer's timer fires while
 * they wait in a queue, every PSN it resends finds another of them, and
 * a fan per retransmission multiplied the slow host's own load by the
 * fan-out (min(paths, MRC_CONN_PROBE_FANOUT)). So such fans come at most
 * once per @missed_fan_ivl, which starts at rto_min and doubles while
 * they follow each other within twice that wait: a run of N of them over
 * T costs about log2(T / rto_min) + 1 fans, and a lone one (a path that
 * died under our SACKs) still fans out at once.
 */
static bool mrc_conn_missed_fan_due(struct mrc_conn *conn, u64 now)
{
	u64 rto_min = conn->paths.pol.rto_min_ns;
	u64 rto_max = conn->paths.pol.rto_max_ns;

	if (now < conn->missed_fan_until)
		return false;
	if (conn->missed_fan_until &&
	    now < conn->missed_fan_until + conn->missed_fan_ivl)
		conn->missed_fan_ivl = min(conn->missed_fan_ivl * 2, rto_max);
	else
		conn->missed_fan_ivl = rto_min;
	conn->missed_fan_until = now + conn->missed_fan_ivl;
	return true;
}

/**
 * mrc_conn_next_ctrl() - the next control packet to send, if any.
 * @conn: connection.
 * @now: current time.
 * @pkt: filled with the packet: encode it with mrc_pkt_encode().
 * @ev: set to the EV (one of our paths) to send it on; the path's route
 *	is mrc_conn_path(conn, mrc_conn_path_of_ev(conn, *ev))->cfg_id.
 *
 * In order: a NACK, SACKs (coalesced per the SACK policy; they go out on
 * one of our usable paths and reflect the trigger's EV inside the SETH),
 * path probes (each on the path it tests), a persist probe.
 *
 * Return: 1 with @pkt and @ev filled, 2 when that packet is a path probe
 * (which the caller may hold back: mrc_conn_probe_unsent()), 0 when
 * nothing is due.
 */
int mrc_conn_next_ctrl(struct mrc_conn *conn, u64 now, struct mrc_pkt *pkt,
		       u32 *ev)
{
	struct mrc_conn_ack a;
	int path;
	u32 idx;

	if (conn->err)
		return 0;
	conn->now = now;
	if (conn->fan_left) {
		conn->fan_left--;
		path = mrc_conn_fan_path(conn);
		if (path >= 0) {
			mrc_conn_build_sack(conn, &conn->fan_ack, pkt);
			*ev = conn->paths.paths[path].ev;
			goto out;
		}
		conn->fan_left = 0;
	}
	if (conn->nack_pending || conn->ackq_n || conn->persist_probe) {
		path = mrc_path_pick(&conn->paths, now, -1);
		if (path < 0) {
			/* nowhere to send: SACKs are cumulative, drop them */
			conn->nack_pending = false;
			conn->ackq_n = 0;
			conn->persist_probe = false;
		} else if (conn->nack_pending) {
			conn->nack_pending = false;
			mrc_conn_ctrl_init(conn, pkt, MRC_PKT_NACK,
					   MRC_OP_NACK);
			pkt->u.nack = conn->nack;
			pkt->u.nack.key = conn->p.tx_r_key;
			*ev = conn->paths.paths[path].ev;
			mrc_conn_ctrl_on_path(conn, path, now);
			goto out;
		} else if (conn->ackq_n) {
			a = conn->ackq[0];
			conn->ackq_n--;
			memmove(conn->ackq, conn->ackq + 1,
				conn->ackq_n * sizeof(conn->ackq[0]));
			if (a.probe || a.missed) {
				int heard = mrc_path_pick_heard(&conn->paths);

				if (heard >= 0)
					path = heard;
			}
			mrc_conn_build_sack(conn, &a, pkt);
			*ev = conn->paths.paths[path].ev;
			/*
			 * A probe answer proves nothing of ours and is not
			 * worth a probe of its own: probes would answer
			 * probes for ever.
			 */
			if (!a.probe)
				mrc_conn_ctrl_on_path(conn, path, now);
			/*
			 * A proven lost SACK fans out at once: the path
			 * heard last may have died since (the fault began
			 * after its last answer), and each answer lost
			 * doubles the peer's timer. One fan per SACK
			 * proven lost at most (mrc_conn_sacks_missed()),
			 * and a run of them backs off.
			 */
			if (a.fan && (now >= conn->fan_quiet_until ||
				      (a.missed &&
				       mrc_conn_missed_fan_due(conn, now)))) {
				conn->fan_quiet_until = now +
					mrc_rtt_rto(&conn->rtt);
				conn->fan_ack = a;
				/*
				 * The copies are for a lost reverse path, not
				 * more marks: a CE mark is reported once, or
				 * the peer counts (and reacts to) it fan-out
				 * times.
				 */
				conn->fan_ack.ce = false;
				conn->fan_first = path;
				conn->fan_left = min_t(u32, conn->paths.count,
						       MRC_CONN_PROBE_FANOUT) - 1;
			} else if (!a.probe) {
				mrc_conn_sack_sent(conn, &pkt->u.sack, path,
						   now);
			}
			goto out;
		} else {
			conn->persist_probe = false;
			conn->persist_out = true;
			mrc_conn_build_probe(conn, now, pkt);
			*ev = conn->paths.paths[path].ev;
			goto out;
		}
	}
	while (conn->probeq_n) {
		idx = conn->probeq[--conn->probeq_n];
		if (idx >= conn->paths.count ||
		    !mrc_conn_probe_wanted(&conn->paths.paths[idx]))
			continue;
		mrc_conn_build_probe(conn, now, pkt);
		/*
		 * A path in use probed for its reverse direction carries our
		 * SACKs and NACKs, not our data (data would have been
		 * answered): a small probe proves what it must, where one as
		 * large as data would cost a data packet's bytes each way
		 * every few probe intervals on every path of a receiver.
		 */
		if (!mrc_conn_reverse_probe(&conn->paths.paths[idx]))
			pkt->u.probe.pad_len = mrc_conn_probe_pad(conn);
		mrc_path_probe_stamp(&conn->paths, idx, now);
		*ev = conn->paths.paths[idx].ev;
		conn->st.tx_ctrl++;
		return 2;
	}
	return 0;
out:
	conn->st.tx_ctrl++;
	return 1;
}

/**
 * mrc_conn_probe_shared() - the path probe mrc_conn_next_ctrl() just
 * returned (return value 2) need not be sent if another connection's
 * probe over the same source route to the same peer, at least as large,
 * was answered recently enough: within this path's own probe interval.
 * @conn: connection.
 * @ev: the EV it was for.
 * @now: current time.
 * @answered_at: when that answer came (0: none known).
 * @own: that answer was to a probe of this connection, already counted:
 *	it keeps a backup or a path in use known alive for one more
 *	interval, but a failed path needs success_to_good answers of its
 *	own, and one answer must not count twice.
 *
 * Return: true when the answer was taken as this probe's (do not send
 * it); false: send it (or hold it back, mrc_conn_probe_unsent()).
 */
bool mrc_conn_probe_shared(struct mrc_conn *conn, u32 ev, u64 now,
			   u64 answered_at, bool own)
{
	int idx = mrc_conn_path_of_ev(conn, ev);
	const struct mrc_path *p;

	if (idx < 0 ||
	    (own && conn->paths.paths[idx].state == MRC_PATH_ASSUMED_BAD) ||
	    !mrc_path_probe_fresh(&conn->paths, idx, now, answered_at))
		return false;
	conn->st.tx_ctrl--;
	conn->st.probes_sent--;
	mrc_path_probe_answered(&conn->paths, idx, now, MRC_PATH_MARK_NONE,
				false);
	p = &conn->paths.paths[idx];
	if (p->state == MRC_PATH_ASSUMED_BAD)
		mrc_conn_probe_soon(conn, p->next_probe);
	return true;
}

/**
 * mrc_conn_probe_unsent() - the path probe mrc_conn_next_ctrl() just
 * returned (return value 2) was not sent: the namespace's probe budget
 * is spent.
 * @conn: connection.
 * @ev: the EV it was for.
 * @now: current time.
 * @retry_ns: probe the path again no sooner than this (when the budget
 *	has room again).
 *
 * The path is not blamed: nothing is outstanding.
 */
void mrc_conn_probe_unsent(struct mrc_conn *conn, u32 ev, u64 now,
			   u64 retry_ns)
{
	int idx = mrc_conn_path_of_ev(conn, ev);

	if (idx < 0)
		return;
	mrc_path_probe_unsent(&conn->paths, idx, now, retry_ns);
	conn->st.tx_ctrl--;
	conn->st.probes_sent--;
	mrc_conn_probe_soon(conn, conn->paths.paths[idx].next_probe);
}

/**
 * mrc_conn_reset_pkt() - build a RESET to abort the connection.
 * @conn: connection.
 * @reason: MRC_RESET_*.
 * @psn: PSN of the packet that provoked it, else 0.
 * @pkt: filled (fully overwritten): encode it and send it to QPN 1.
 */
void mrc_conn_reset_pkt(const struct mrc_conn *conn, u8 reason, u32 psn,
			struct mrc_pkt *pkt)
{
	const struct mrc_reset r = {
		.reason = reason,
		.src_qpn = conn->p.local_qpn,
		.dst_qpn = conn->p.peer_qpn,
		.r_key = conn->p.rx_r_key,
		.psn = psn,
	};

	mrc_reset_pkt(pkt, &r);
}

/*
 * Refusals in a row (no data packet leaving, the peer not heard) after
 * which every path has had its chance (fail_to_bad each): the connection
 * holds instead of trying the paths the floor brings back, one after the
 * other, for ever, or pushing into queues that stay full.
 */
static u32 mrc_conn_refuse_max(const struct mrc_conn *conn)
{
	u32 f = conn->paths.pol.fail_to_bad ? conn->paths.pol.fail_to_bad : 1;

	return max_t(u32, conn->paths.count * f, 1);
}

/*
 * One more refusal: true while the refused packet may be tried again at
 * once. A drop by a full queue pauses sending instead (mrc_conn_tx_pause()),
 * unless it ended its path's run of drops (the path drops everything).
 */
static bool mrc_conn_refused(struct mrc_conn *conn, int idx,
			     enum mrc_conn_txerr err, u64 now)
{
	bool out = mrc_path_on_tx_refused(&conn->paths, (u32)idx,
					  err == MRC_TXERR_REFUSED, now);

	if (err != MRC_TXERR_REFUSED && !out) {
		mrc_conn_tx_pause(conn, now);
		return false;
	}
	if (++conn->refuse_run < mrc_conn_refuse_max(conn))
		return true;
	mrc_conn_tx_hold(conn, now);
	return false;
}

/**
 * mrc_conn_tx_failed() - the local stack refused the data packets that
 * mrc_conn_next_tx_burst() just returned: they never left.
 * @conn: connection.
 * @psn: the PSN of the first packet refused: it and every later packet
 *	of its burst never left (a burst is one packet, or a few, for the
 *	stack: refused together).
 * @ev: the EV they were to go out on.
 * @err: how they were refused; MRC_TXERR_CONGESTED changes nothing (they
 *	may have been queued).
 * @now: current time.
 *
 * The packets leave the in-flight accounting (congestion control is not
 * told and no RTT or RTO changes: they never left) and go to the lost
 * queue. Refused by the route or the device, they are resent on another
 * path at once, in the same push, and their path is out
 * (mrc_path_on_tx_refused(), reason TX_REFUSED); dropped by a full queue,
 * they wait for the pause that drop begins (mrc_conn_tx_pause()), and
 * their path is out only at the end of a run of drops. A burst counts as
 * one refusal. When every path keeps refusing, sending holds for an RTO
 * (mrc_conn_tx_hold()) rather than spin, and the retry budget ends the
 * connection.
 *
 * Return: 1 if the packets will be resent, 0 if nothing changed, -EINVAL
 * for a PSN or EV that is not the one just sent.
 */
int mrc_conn_tx_failed(struct mrc_conn *conn, u32 psn, u32 ev,
		       enum mrc_conn_txerr err, u64 now)
{
	const struct mrc_tx_entry *e;
	u32 i, n, taken = 0;
	int idx, r;

	if (conn->err || err == MRC_TXERR_CONGESTED)
		return 0;
	idx = mrc_path_lookup_ev(&conn->paths, ev);
	e = mrc_tx_entry_of(&conn->tx, psn);
	if (idx < 0 || !e)
		return -EINVAL;
	/* from @psn to the end of the burst it belongs to */
	n = 1;
	if (conn->tx_out_pending) {
		s32 at = mrc_psn_diff(psn, conn->tx_out_psn);

		if (at >= 0 && (u32)at < conn->tx_out_n)
			n = conn->tx_out_n - (u32)at;
	}
	conn->now = now;
	conn->tx_out_pending = false;
	for (i = 0; i < n; i++) {
		u32 q = mrc_psn_add(psn, i);
		bool rtx;

		e = mrc_tx_entry_of(&conn->tx, q);
		if (!e)
			break;
		rtx = e->state == MRC_TXS_RTX;
		r = mrc_tx_unsent(&conn->tx, q, (u16)idx);
		if (r < 0)
			return taken ? 1 : -EINVAL;
		if (!r)
			continue;
		/* it never left */
		conn->st.tx_pkts--;
		conn->st.tx_bytes -= e->len;
		if (rtx)
			conn->st.rtx_pkts--;
		taken++;
		mrc_ttr_on_loss(&conn->ttr, q, now);
	}
	if (!taken)
		return 0;
	mrc_conn_refused(conn, idx, err, now);
	return 1;
}

/**
 * mrc_conn_ctrl_failed() - the local stack refused the control packet
 * that mrc_conn_next_ctrl() just returned.
 * @conn: connection.
 * @pkt: the packet.
 * @ev: the EV it was to go out on.
 * @path_probe: it was a path probe (mrc_conn_next_ctrl() returned 2).
 * @err: how it was refused; MRC_TXERR_CONGESTED changes nothing.
 * @now: current time.
 *
 * The path is blamed as for data (mrc_path_on_tx_refused()): a path
 * probe refused by an error is a failed probe; one dropped (a full queue)
 * goes again at the path's next probe interval. A SACK or NACK refused by
 * an error is queued again and goes out on another path; a persist or
 * keepalive probe refused so is sent again the same way. Nothing dropped
 * by a full queue is queued again (sending pauses, mrc_conn_tx_pause(),
 * and the next SACK will do), nor anything once every path has refused
 * (mrc_conn_tx_hold()). Probe answers are not repeated: they fan out over
 * several paths already.
 *
 * Return: 1 if the packet will be sent again, 0 if not, -EINVAL for an
 * EV that is not one of our paths.
 */
int mrc_conn_ctrl_failed(struct mrc_conn *conn, const struct mrc_pkt *pkt,
			 u32 ev, bool path_probe, enum mrc_conn_txerr err,
			 u64 now)
{
	const struct mrc_sack *s = &pkt->u.sack;
	struct mrc_conn_ack a;
	int idx;

	if (conn->err || err == MRC_TXERR_CONGESTED)
		return 0;
	idx = mrc_path_lookup_ev(&conn->paths, ev);
	if (idx < 0)
		return -EINVAL;
	conn->now = now;
	if (!mrc_conn_refused(conn, idx, err, now) || path_probe)
		return 0;
	switch (pkt->type) {
	case MRC_PKT_SACK:
		if (s->probe_resp)
			return 0;
		memset(&a, 0, sizeof(a));
		a.psn = s->ack_psn_offset >= 0 ?
			mrc_psn_add(s->cack_psn, (u32)s->ack_psn_offset) :
			U32_MAX;
		a.ev = s->entropy;
		a.tx_ts = s->cc.tx_ts;
		a.ts_valid = s->cc.ts_valid;
		a.ce = s->mark == MRC_MARK_SKIP_ONCE;
		mrc_conn_push_ack(conn, &a);
		return 1;
	case MRC_PKT_NACK:
		conn->nack_pending = true;
		return 1;
	case MRC_PKT_PROBE:
		conn->persist_probe = true;
		return 1;
	default:
		return 0;
	}
}
