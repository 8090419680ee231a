// SPDX-License-Identifier: GPL-2.0
/*
 * Connection engine: set-up, the application side, timers, events, info
 * and control. Packets out: mrc_conn_tx.c; packets in: mrc_conn_rx.c.
 */
#include "mrc_conn_int.h"

/* ---- storage layout ---- */

struct mrc_conn_layout {
	u32 tx_n;
	u32 rx_n;
	u32 path_n;
	u32 txm_n;
	u32 rxm_n;
	u32 ev_n;
	size_t tx_ring;
	size_t tx_paths;
	size_t rx_slots;
	size_t rx_bitmap;
	size_t paths;
	size_t order;
	size_t txm;
	size_t rxm;
	size_t evq;
	size_t total;
};

static u32 mrc_roundup_pow2(u32 v)
{
	u32 n = 1;

	while (n < v && n < (1U << 31))
		n <<= 1;
	return n;
}

static size_t mrc_align8(size_t v)
{
	return (v + 7) & ~(size_t)7;
}

/* The most EVs the connection's set may hold (mrc_path_build()). */
static u32 mrc_conn_path_limit(const struct mrc_conn_params *p)
{
	u32 n = p->max_paths ? p->max_paths : p->policy.max_paths;

	if (!n)
		n = 1;
	return min_t(u32, n, MRC_PATH_MAX_ENTRIES);
}

/*
 * Path table entries to allocate: the limit, or fewer when the
 * candidates are known to offer fewer EVs (a set never holds more EVs
 * than its candidates offer), so 8 configured paths cost 8 entries and
 * not the policy's 64.
 */
static u32 mrc_conn_path_slots(const struct mrc_conn_params *p)
{
	u32 n = mrc_conn_path_limit(p);

	return p->path_evs ? min(n, p->path_evs) : n;
}

static u32 mrc_conn_tx_slots(const struct mrc_conn_params *p)
{
	return mrc_roundup_pow2(max_t(u32, p->tx_mpr, 64));
}

static u32 mrc_conn_txm_slots(const struct mrc_conn_params *p)
{
	if (p->sock_type != MRC_CONN_SEQPACKET)
		return 0;
	return mrc_roundup_pow2(max_t(u32, p->tx_msgs, 1));
}

/*
 * The sender's part of the storage: the scoreboard's ring and the
 * SEQPACKET send ring, laid out from @off. Returns the end.
 */
static size_t mrc_conn_tx_layout(const struct mrc_conn_params *p,
				 size_t off, size_t *ring, size_t *txm)
{
	*ring = off;
	off = mrc_align8(off + (size_t)mrc_conn_tx_slots(p) *
			 sizeof(struct mrc_tx_entry));
	*txm = off;
	return mrc_align8(off + (size_t)mrc_conn_txm_slots(p) *
			  sizeof(struct mrc_conn_txmsg));
}

static void mrc_conn_layout(const struct mrc_conn_params *p,
			    struct mrc_conn_layout *l)
{
	bool seq = p->sock_type == MRC_CONN_SEQPACKET;
	size_t off = 0;

	l->tx_n = mrc_conn_tx_slots(p);
	l->rx_n = mrc_rx_storage_slots(p->rx_mpr);
	l->path_n = mrc_conn_path_slots(p);
	l->txm_n = mrc_conn_txm_slots(p);
	l->rxm_n = seq ? mrc_roundup_pow2(max_t(u32, p->rx_msgs, 1)) : 0;
	/*
	 * Events are mostly path state changes, drained after every call:
	 * one slot per path (the fixed 64 before) keeps an engine of 16
	 * EVs within one 8 KB allocation.
	 */
	l->ev_n = mrc_roundup_pow2(p->events ? p->events :
				   max_t(u32, l->path_n, MRC_CONN_MIN_EVENTS));

	l->tx_ring = 0;
	l->txm = 0;
	if (!p->tx_later)
		off = mrc_conn_tx_layout(p, off, &l->tx_ring, &l->txm);
	l->tx_paths = off;
	off = mrc_align8(off + (size_t)l->path_n * sizeof(struct mrc_tx_path));
	l->rx_slots = off;
	off = mrc_align8(off + (size_t)l->rx_n * sizeof(struct mrc_rx_slot));
	l->rx_bitmap = off;
	off = mrc_align8(off + MRC_RX_BITMAP_WORDS(l->rx_n) * sizeof(u64));
	l->paths = off;
	off = mrc_align8(off + (size_t)l->path_n * sizeof(struct mrc_path));
	l->order = off;
	off = mrc_align8(off + (size_t)l->path_n * sizeof(u16));
	l->rxm = off;
	off = mrc_align8(off + (size_t)l->rxm_n * sizeof(struct mrc_conn_msg));
	l->evq = off;
	off = mrc_align8(off + (size_t)l->ev_n *
			 sizeof(struct mrc_conn_event));
	l->total = off;
}

/* ---- set-up ---- */

/**
 * mrc_conn_params_default() - defaults for everything but the
 * handshake-derived fields.
 * @p: parameters to fill (fully overwritten).
 *
 * Sets the default policy, "nscc" with parameters for 1 Gb/s and 1 ms,
 * the default MPR, payload, buffers, rings and SACK policy. The caller
 * then sets QPNs, PSNs, R_Keys and the negotiated values (see
 * mrc_cm_negotiate()).
 */
void mrc_conn_params_default(struct mrc_conn_params *p)
{
	memset(p, 0, sizeof(*p));
	p->local_qpn = MRC_QPN_FIRST_DYNAMIC;
	p->peer_qpn = MRC_QPN_FIRST_DYNAMIC;
	p->tx_mpr = MRC_CONN_DEF_MPR_UNITS * MRC_MPR_UNIT;
	p->rx_mpr = MRC_CONN_DEF_MPR_UNITS * MRC_MPR_UNIT;
	p->max_payload = MRC_CONN_DEF_PAYLOAD;
	p->sock_type = MRC_CONN_STREAM;
	p->caps = MRC_CAP_TSETH | MRC_CAP_CREDIT | MRC_CAP_TRIM_NACK |
		  MRC_CAP_PROBE_PAD;
	p->rcvbuf = MRC_CONN_DEF_RCVBUF;
	p->peer_window = MRC_CONN_DEF_RCVBUF;
	p->tx_msgs = MRC_CONN_DEF_MSGS;
	p->rx_msgs = MRC_CONN_DEF_MSGS;
	mrc_policy_default(&p->policy);
	mrc_cc_params_default(&p->cc, MRC_CONN_DEF_PAYLOAD, MRC_NSEC_PER_MSEC,
			      1000000000ULL);
	p->ack.ack_every = 2;
	/*
	 * Spraying makes nearly every arrival out of order, so this sends
	 * about one SACK per data packet (Documentation/performance.md).
	 * Turned off, the SACKs halve but reflect the EV of every second
	 * packet only: some paths are then rarely heard from, SACK gaps on
	 * them are not blamed on them (mrc_conn_losses()) and a silently
	 * dead path can go unnoticed while its losses are repaired
	 * (42-faults caught it). Fewer SACKs need another way to report
	 * every path's liveness first.
	 */
	p->ack.ack_ooo = true;
	p->ack.ack_dup = true;
	p->ack.ack_rtx = true;
	p->ack_delay_ns = MRC_CONN_DEF_ACK_DELAY_NS;
}

static int mrc_conn_reject(const char **msg, const char *why)
{
	if (msg)
		*msg = why;
	return -EINVAL;
}

/**
 * mrc_conn_params_check() - validate connection parameters.
 * @p: parameters.
 * @msg: if not NULL, set to a static message naming the bad field.
 *
 * Return: 0, or -EINVAL.
 */
int mrc_conn_params_check(const struct mrc_conn_params *p, const char **msg)
{
	struct mrc_cc_params cc = p->cc;

	if (p->sock_type != MRC_CONN_STREAM &&
	    p->sock_type != MRC_CONN_SEQPACKET)
		return mrc_conn_reject(msg, "bad socket type");
	if (p->local_qpn > MRC_QPN_MASK || p->peer_qpn > MRC_QPN_MASK)
		return mrc_conn_reject(msg, "QPN out of range");
	if (!mrc_psn_valid(p->tx_init_psn) || !mrc_psn_valid(p->rx_init_psn))
		return mrc_conn_reject(msg, "initial PSN out of range");
	if (!p->tx_mpr || p->tx_mpr > MRC_RX_WINDOW_MAX)
		return mrc_conn_reject(msg, "peer MPR out of range");
	if (!p->rx_mpr || p->rx_mpr > MRC_RX_WINDOW_MAX)
		return mrc_conn_reject(msg, "MPR out of range");
	if (!p->max_payload || p->max_payload > U16_MAX)
		return mrc_conn_reject(msg, "max_payload out of range");
	if (!p->rcvbuf || !p->peer_window)
		return mrc_conn_reject(msg, "empty receive window");
	if (mrc_policy_validate(&p->policy, msg))
		return -EINVAL;
	if (!cc.mtu)
		cc.mtu = p->max_payload;
	if (mrc_cc_params_validate(&cc, msg))
		return -EINVAL;
	if (!mrc_cc_find(p->cc_name))
		return mrc_conn_reject(msg, "unknown congestion control");
	return 0;
}

/**
 * mrc_conn_storage_size() - bytes of storage a connection needs.
 * @p: parameters (as for mrc_conn_init()).
 *
 * Return: the size of the one block to hand to mrc_conn_init() (any
 * alignment of at least 8 bytes; zeroing is not required).
 */
size_t mrc_conn_storage_size(const struct mrc_conn_params *p)
{
	struct mrc_conn_layout l;

	mrc_conn_layout(p, &l);
	return l.total;
}

/**
 * mrc_conn_probe_soon() - make sure the probe poll runs by @when.
 * @conn: connection.
 * @when: time a path may need a probe.
 */
void mrc_conn_probe_soon(struct mrc_conn *conn, u64 when)
{
	if (!conn->probe_deadline || when < conn->probe_deadline)
		conn->probe_deadline = when ? when : 1;
}

/**
 * mrc_conn_data_moved() - data was sent or accepted: probing runs.
 * @conn: connection.
 * @now: current time.
 *
 * Backups and ASSUMED_BAD paths are probed only while data moves (see
 * mrc_conn_probes_paused()); the first data after a pause starts the
 * probe poll again at once, so a path that healed while the connection
 * was idle is found within a probe interval of the data's return.
 */
void mrc_conn_data_moved(struct mrc_conn *conn, u64 now)
{
	conn->data_at = now;
	if (conn->probes_idle) {
		conn->probes_idle = false;
		mrc_conn_probe_soon(conn, now);
	}
}

/*
 * Whether path probing pauses: nothing to send or in flight, and no data
 * either way for rto_max. Probes only serve data: a backup proven alive,
 * a failed path proven back. An idle connection probing them would cost
 * every idle endpoint a packet per path per probe interval for nothing
 * (keepalive, when asked for, is what watches an idle peer).
 */
static bool mrc_conn_probes_paused(const struct mrc_conn *conn, u64 now)
{
	return mrc_conn_tx_idle(conn) &&
	       now - conn->data_at >= conn->paths.pol.rto_max_ns;
}

/*
 * A path's link went down: what it had in flight is gone. Queue it for
 * retransmission on the other paths now instead of at the RTO, so a link
 * failure costs the connection a round trip, not a timeout. Neither a
 * congestion signal (congestion control is not told) nor a failure of
 * the path beyond its link (it is already out).
 */
static void mrc_conn_link_losses(struct mrc_conn *conn, u32 path)
{
	struct mrc_tx *tx = &conn->tx;
	u32 n = mrc_tx_path_lost(tx, path);
	u32 idx = tx->lost_list.tail;

	while (n-- && idx != MRC_TX_NIL) {
		mrc_ttr_on_loss(&conn->ttr, mrc_conn_tx_psn(tx, idx), conn->now);
		idx = tx->ring[idx].link_prev;
	}
}

static void mrc_conn_path_event(void *ctx, const struct mrc_path_event *pe)
{
	struct mrc_conn *conn = ctx;
	struct mrc_conn_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = MRC_CEV_PATH;
	ev.plane = pe->plane;
	ev.old_state = pe->old_state;
	ev.new_state = pe->new_state;
	ev.reason = pe->reason;
	ev.index = pe->index;
	ev.ev = pe->ev;
	ev.cfg_id = pe->cfg_id;
	ev.drops = pe->drops;
	ev.time = conn->now;
	if (pe->reason == MRC_PR_PLANE_DOWN ||
	    pe->reason == MRC_PR_PEER_PORT_DOWN)
		mrc_conn_link_losses(conn, pe->index);
	if (pe->new_state == MRC_PATH_ASSUMED_BAD ||
	    pe->new_state == MRC_PATH_BACKUP)
		mrc_conn_probe_soon(conn,
				    conn->paths.paths[pe->index].next_probe);
	if (pe->new_state == MRC_PATH_SKIP) {
		u64 until = conn->now + conn->paths.pol.skip_ns;

		if (!conn->skip_deadline || until < conn->skip_deadline)
			conn->skip_deadline = until;
	}
	mrc_conn_push_event(conn, &ev);
}

/*
 * The keepalive a connection runs: the socket's request (ka_req) over
 * its policy's defaults, so that a policy change reaches the knobs the
 * socket left alone. The idle time restarts from the later of @now and
 * the last packet heard.
 */
static void mrc_conn_keepalive_apply(struct mrc_conn *conn, u64 now)
{
	const struct mrc_conn_keepalive *req = &conn->ka_req;
	const struct mrc_policy *pol = &conn->p.policy;
	struct mrc_conn_keepalive *ka = &conn->ka;

	ka->on = req->on || pol->keepalive;
	ka->idle_ns = req->idle_ns ? req->idle_ns : pol->keepalive_idle_ns;
	ka->intvl_ns = req->intvl_ns ? req->intvl_ns : pol->keepalive_intvl_ns;
	ka->cnt = req->cnt ? req->cnt : pol->keepalive_cnt;
	conn->ka_sent = 0;
	conn->ka_at = 0;
	if (ka->on)
		conn->ka_at = (conn->heard_at > now ? conn->heard_at : now) +
			      ka->idle_ns;
}

/**
 * mrc_conn_init() - set up a connection.
 * @conn: connection to initialise (fully overwritten).
 * @p: parameters, checked with mrc_conn_params_check() and copied.
 * @storage: mrc_conn_storage_size(@p) bytes, 8-byte aligned, owned by
 *	the caller for the connection's lifetime.
 * @cands: candidate paths to the peer (see mrc_path_build()).
 * @ncands: their number.
 * @now: current time.
 *
 * Return: 0; -EINVAL for bad parameters; -ENETUNREACH if no candidate
 * provides a path.
 */
int mrc_conn_init(struct mrc_conn *conn, const struct mrc_conn_params *p,
		  void *storage, const struct mrc_path_cand *cands,
		  u32 ncands, u64 now)
{
	struct mrc_path_notify notify;
	struct mrc_conn_layout l;
	struct mrc_cc_params cc;
	u8 *base = storage;
	int err;

	err = mrc_conn_params_check(p, NULL);
	if (err)
		return err;
	mrc_conn_layout(p, &l);
	memset(conn, 0, sizeof(*conn));
	conn->p = *p;
	conn->now = now;
	conn->heard_at = now;

	/*
	 * With tx_later the scoreboard starts on a one-entry ring of its
	 * own that nothing is ever sent from (mrc_conn_app_write() takes no
	 * byte until mrc_conn_tx_attach() puts the real ring in place).
	 */
	conn->tx_attached = !p->tx_later;
	err = mrc_tx_init(&conn->tx, p->tx_init_psn, p->tx_mpr, 0,
			  p->tx_later ? &conn->tx_none :
			  (struct mrc_tx_entry *)(base + l.tx_ring),
			  p->tx_later ? 1 : l.tx_n,
			  (struct mrc_tx_path *)(base + l.tx_paths),
			  (u16)l.path_n);
	if (err)
		return err;
	conn->tx.gap_thresh = p->policy.sack_gap_threshold;
	err = mrc_rx_init(&conn->rx, p->rx_init_psn, p->rx_mpr, 0,
			  (u64 *)(base + l.rx_bitmap),
			  (struct mrc_rx_slot *)(base + l.rx_slots), l.rx_n,
			  &p->ack);
	if (err)
		return err;
	notify.event = mrc_conn_path_event;
	notify.ctx = conn;
	err = mrc_path_table_init(&conn->paths,
				  (struct mrc_path *)(base + l.paths),
				  (u16 *)(base + l.order), l.path_n,
				  &p->policy, &notify);
	if (err)
		return err;
	mrc_path_set_limit(&conn->paths, mrc_conn_path_limit(p));
	mrc_prng_seed(&conn->rng, p->seed);
	err = mrc_path_build(&conn->paths, cands, ncands, &conn->rng, now);
	if (err < 0)
		return err;

	mrc_rtt_init(&conn->rtt, p->policy.rto_min_ns, p->policy.rto_max_ns);
	if (p->handshake_rtt_ns)
		mrc_rtt_sample(&conn->rtt, p->handshake_rtt_ns);
	cc = p->cc;
	if (!cc.mtu)
		cc.mtu = p->max_payload;
	mrc_cc_init(&conn->cc, mrc_cc_find(p->cc_name), &cc, now);
	mrc_credit_tx_init(&conn->ctx, p->peer_window, p->peer_window,
			   p->max_payload);
	mrc_credit_rx_init(&conn->crx, p->rcvbuf, p->max_payload);
	mrc_ttr_init(&conn->ttr);

	if (p->tx_later) {
		conn->txm = &conn->txm_none;
		conn->txm_mask = 0;
	} else {
		conn->txm = (struct mrc_conn_txmsg *)(base + l.txm);
		conn->txm_mask = l.txm_n ? l.txm_n - 1 : 0;
	}
	conn->rxm = (struct mrc_conn_msg *)(base + l.rxm);
	conn->rxm_mask = l.rxm_n ? l.rxm_n - 1 : 0;
	conn->evq = (struct mrc_conn_event *)(base + l.evq);
	conn->evq_mask = l.ev_n - 1;
	conn->peer_ports = ~0U;
	conn->probe_deadline = now;
	conn->data_at = now;
	mrc_conn_keepalive_apply(conn, now);
	return 0;
}

/**
 * mrc_conn_tx_storage_size() - bytes mrc_conn_tx_attach() takes.
 * @conn: a connection set up with @p.tx_later.
 *
 * Return: the size of the block (any alignment of at least 8 bytes;
 * zeroing is not required): the send scoreboard's ring (one entry per
 * PSN the peer's window lets us have in flight) and, for SEQPACKET, the
 * send ring of messages.
 */
size_t mrc_conn_tx_storage_size(const struct mrc_conn *conn)
{
	size_t ring, txm;

	return mrc_conn_tx_layout(&conn->p, 0, &ring, &txm);
}

/**
 * mrc_conn_tx_attach() - give a tx_later connection its send storage.
 * @conn: connection, set up with @p.tx_later, nothing written yet.
 * @storage: mrc_conn_tx_storage_size() bytes, 8-byte aligned, owned by
 *	the caller for the connection's lifetime.
 *
 * Until this, the connection takes no write (mrc_conn_app_space() says
 * how much it will take once attached); everything else, receiving,
 * acknowledging, probing, keepalive, works without it.
 *
 * Return: 0; -EALREADY if the connection has its send storage.
 */
int mrc_conn_tx_attach(struct mrc_conn *conn, void *storage)
{
	u32 txm_n = mrc_conn_txm_slots(&conn->p);
	size_t ring, txm;

	if (conn->tx_attached)
		return -EALREADY;
	mrc_conn_tx_layout(&conn->p, 0, &ring, &txm);
	mrc_tx_set_ring(&conn->tx, (struct mrc_tx_entry *)((u8 *)storage +
							    ring),
			mrc_conn_tx_slots(&conn->p));
	if (txm_n) {
		conn->txm = (struct mrc_conn_txmsg *)((u8 *)storage + txm);
		conn->txm_mask = txm_n - 1;
	}
	conn->tx_attached = true;
	return 0;
}

/* ---- helpers shared with the tx and rx halves ---- */

/**
 * mrc_conn_push_event() - append to the event ring.
 * @conn: connection.
 * @ev: the event, copied; dropped (and counted) when the ring is full.
 */
void mrc_conn_push_event(struct mrc_conn *conn,
			 const struct mrc_conn_event *ev)
{
	if (conn->evq_tail - conn->evq_head > conn->evq_mask) {
		conn->st.events_lost++;
		return;
	}
	conn->evq[conn->evq_tail & conn->evq_mask] = *ev;
	conn->evq_tail++;
}

/**
 * mrc_conn_fail() - the connection failed.
 * @conn: connection.
 * @err: negative errno (-ETIMEDOUT, -ECONNRESET, ...).
 * @now: current time.
 *
 * Only the first failure counts. Nothing is sent afterwards.
 */
void mrc_conn_fail(struct mrc_conn *conn, int err, u64 now)
{
	struct mrc_conn_event ev;

	if (conn->err)
		return;
	conn->err = err;
	mrc_ttr_abort(&conn->ttr);
	memset(&ev, 0, sizeof(ev));
	ev.type = MRC_CEV_FAILED;
	ev.err = err;
	ev.time = now;
	mrc_conn_push_event(conn, &ev);
}

/**
 * mrc_conn_push_ack() - queue a SACK trigger.
 * @conn: connection.
 * @a: the trigger.
 *
 * Plain triggers (no ECN mark, not a probe answer) coalesce with a plain
 * trigger queued last: one SACK then carries the latest state. When the
 * queue is full, a plain trigger replaces the last entry if that is
 * plain too, else it is dropped (the next SACK is cumulative anyway).
 */
void mrc_conn_push_ack(struct mrc_conn *conn, const struct mrc_conn_ack *a)
{
	bool plain = !a->ce && !a->probe && !a->fan;
	struct mrc_conn_ack *last;

	if (conn->ackq_n) {
		last = &conn->ackq[conn->ackq_n - 1];
		if (plain && !last->ce && !last->probe && !last->fan) {
			*last = *a;
			return;
		}
	}
	if (conn->ackq_n >= MRC_CONN_ACKQ)
		return;
	conn->ackq[conn->ackq_n++] = *a;
}

/**
 * mrc_conn_progress() - the peer acknowledged new data: the retry budget
 * and the timer backoff start over.
 * @conn: connection.
 */
void mrc_conn_progress(struct mrc_conn *conn)
{
	conn->retries = 0;
	conn->last_timeout = 0;
	conn->persist_out = false;
	mrc_rtt_reset_backoff(&conn->rtt);
}

/**
 * mrc_conn_alive() - the peer answered but took nothing new (a probe
 * answered with a closed window, data refused for lack of room): it is
 * not gone, so the retry budget starts over; the timer backoff stays, so
 * a reader that stopped for minutes costs a packet or two per rto_max,
 * as TCP's persist timer does.
 * @conn: connection.
 */
void mrc_conn_alive(struct mrc_conn *conn)
{
	conn->retries = 0;
	conn->last_timeout = 0;
	conn->persist_out = false;
}

/**
 * mrc_conn_heard() - a packet from the peer was accepted: it is alive,
 * and keepalive starts counting the idle time again.
 * @conn: connection.
 * @now: current time.
 */
void mrc_conn_heard(struct mrc_conn *conn, u64 now)
{
	conn->heard_at = now;
	conn->refuse_run = 0;
	/* what we sent is draining: a pause for a full queue ends */
	if (conn->tx_hold_soft) {
		conn->tx_hold_soft = false;
		conn->tx_hold_until = 0;
	}
	conn->ka_sent = 0;
	if (conn->ka.on)
		conn->ka_at = now + conn->ka.idle_ns;
}

/**
 * mrc_conn_tx_psn() - PSN of a scoreboard ring index.
 * @tx: scoreboard.
 * @idx: ring index of an outstanding entry.
 *
 * Return: its PSN.
 */
u32 mrc_conn_tx_psn(const struct mrc_tx *tx, u32 idx)
{
	return mrc_psn_add(tx->una, (idx - tx->una) & tx->mask);
}

/*
 * The path of @e, missing, shows what a late path shows as well as a dead
 * one: it is given two RTOs from @e's departure to be heard from
 * (mrc_path_suspect()), and the connection's timer wakes for the verdict.
 */
static void mrc_conn_suspect(struct mrc_conn *conn,
			     const struct mrc_tx_entry *e, u64 now, bool timeout)
{
	u64 at;

	conn->paths.suspect_ns = mrc_rtt_base_rto(&conn->rtt);
	at = mrc_path_suspect(&conn->paths, e->path, now, e->sent_ns, timeout);
	if (at && (!conn->skip_deadline || at < conn->skip_deadline))
		conn->skip_deadline = at;
}

/**
 * mrc_conn_losses() - account for the @n newest entries of the lost
 * queue (just declared lost by a SACK): blame their paths, open or
 * extend the recovery episode, tell congestion control.
 * @conn: connection.
 * @n: how many entries at the tail of the lost queue are new.
 * @now: current time.
 */
void mrc_conn_losses(struct mrc_conn *conn, u32 n, u64 now)
{
	struct mrc_tx *tx = &conn->tx;
	u32 idx = tx->lost_list.tail, bytes = 0;

	if (!n)
		return;
	while (n-- && idx != MRC_TX_NIL) {
		const struct mrc_tx_entry *e = &tx->ring[idx];
		const struct mrc_path *p = mrc_conn_path(conn, e->path);

		/*
		 * Spraying reorders: a SACK-gap loss blames its path only if
		 * the path answered before but nothing was heard on it since
		 * the packet left (it died); a path not heard from yet may
		 * just be queueing the first burst (RTO catches a path dead
		 * from the start). Per-path losses are exact and always count.
		 */
		if (p && e->cause != MRC_LOSS_SACK_GAP)
			mrc_path_on_loss(&conn->paths, e->path, now);
		else if (p && p->last_heard && p->last_heard <= e->sent_ns)
			mrc_conn_suspect(conn, e, now, false);
		mrc_ttr_on_loss(&conn->ttr, mrc_conn_tx_psn(tx, idx), now);
		bytes += e->len;
		idx = e->link_prev;
	}
	mrc_cc_on_loss(&conn->cc, bytes, tx->inflight_bytes, now);
}

/* ---- application side ---- */

static bool mrc_conn_seq(const struct mrc_conn *conn)
{
	return conn->p.sock_type == MRC_CONN_SEQPACKET;
}

/**
 * mrc_conn_app_space() - what the application may still queue.
 * @conn: connection.
 * @msgs: if not NULL, set to the messages that may be queued
 *	(SEQPACKET; U32_MAX on STREAM).
 *
 * Before mrc_conn_tx_attach(), what it will take once attached (so that
 * poll() reports an idle socket writable).
 *
 * Return: bytes that may be queued (U64_MAX with no sndbuf limit).
 */
u64 mrc_conn_app_space(const struct mrc_conn *conn, u32 *msgs)
{
	u64 used = conn->snd_end - conn->tx.una_off;

	if (msgs)
		*msgs = !mrc_conn_seq(conn) ? U32_MAX :
			!conn->tx_attached ? mrc_conn_txm_slots(&conn->p) :
			conn->txm_mask + 1 - (conn->txm_tail - conn->txm_head);
	if (!conn->p.sndbuf)
		return U64_MAX;
	return used < conn->p.sndbuf ? conn->p.sndbuf - used : 0;
}

/**
 * mrc_conn_app_write() - the application queued bytes.
 * @conn: connection.
 * @len: bytes appended to the send stream (the glue keeps them until
 *	mrc_conn_snd_una_off() passes them).
 * @msg_end: SEQPACKET: must be true, one call per message (@len may be
 *	0); STREAM: ignored.
 *
 * Return: 0; the connection's error if it failed; -EMSGSIZE for a
 * message larger than the peer's window; -EINVAL for a SEQPACKET write
 * without @msg_end; -ENOBUFS if mrc_conn_app_space() does not allow it
 * or the send storage is not attached yet (mrc_conn_tx_attach()).
 */
int mrc_conn_app_write(struct mrc_conn *conn, u64 len, bool msg_end)
{
	u32 msgs;
	u64 space;

	if (conn->err)
		return conn->err;
	if (!conn->tx_attached)
		return -ENOBUFS;
	space = mrc_conn_app_space(conn, &msgs);
	if (!mrc_conn_seq(conn)) {
		if (len > space)
			return -ENOBUFS;
		conn->snd_end += len;
		return 0;
	}
	if (!msg_end)
		return -EINVAL;
	if (len > U32_MAX || len > conn->p.peer_window)
		return -EMSGSIZE;
	if (len > space || !msgs)
		return -ENOBUFS;
	conn->txm[conn->txm_tail & conn->txm_mask].off = conn->snd_end;
	conn->txm[conn->txm_tail & conn->txm_mask].len = (u32)len;
	conn->txm[conn->txm_tail & conn->txm_mask].last_psn = 0;
	conn->txm_tail++;
	conn->snd_end += len;
	return 0;
}

/**
 * mrc_conn_app_readable() - bytes the application may read now.
 * @conn: connection.
 *
 * Return: STREAM: contiguous bytes not yet read; SEQPACKET: bytes of the
 * completed messages not yet read.
 */
u64 mrc_conn_app_readable(const struct mrc_conn *conn)
{
	u64 end = mrc_conn_seq(conn) ? conn->rx_msg_end : conn->rx.deliver_off;

	return end > conn->rcv_read ? end - conn->rcv_read : 0;
}

/**
 * mrc_conn_rx_msg_peek() - the next completed SEQPACKET message.
 * @conn: connection.
 * @msg: filled with it.
 *
 * Return: false if none is waiting.
 */
bool mrc_conn_rx_msg_peek(const struct mrc_conn *conn,
			  struct mrc_conn_msg *msg)
{
	if (!mrc_conn_seq(conn) || conn->rxm_head == conn->rxm_tail)
		return false;
	*msg = conn->rxm[conn->rxm_head & conn->rxm_mask];
	return true;
}

/**
 * mrc_conn_rx_msg_pop() - take the next completed SEQPACKET message.
 * @conn: connection.
 * @msg: filled with it. Read its bytes, then call mrc_conn_app_read()
 *	with its length (also when truncating it).
 *
 * Return: false if none is waiting.
 */
bool mrc_conn_rx_msg_pop(struct mrc_conn *conn, struct mrc_conn_msg *msg)
{
	if (!mrc_conn_rx_msg_peek(conn, msg))
		return false;
	conn->rxm_head++;
	return true;
}

/**
 * mrc_conn_app_read() - the application consumed received bytes.
 * @conn: connection.
 * @bytes: bytes read (clamped to what is readable).
 *
 * Return: true if a window update was queued: call mrc_conn_next_ctrl().
 */
bool mrc_conn_app_read(struct mrc_conn *conn, u64 bytes)
{
	struct mrc_conn_ack a;
	u64 avail = mrc_conn_app_readable(conn);

	if (bytes > avail)
		bytes = avail;
	conn->rcv_read += bytes;
	if (!mrc_credit_rx_read(&conn->crx, bytes) || conn->err ||
	    !(conn->p.caps & MRC_CAP_CREDIT))
		return false;
	memset(&a, 0, sizeof(a));
	a.psn = U32_MAX;
	mrc_conn_push_ack(conn, &a);
	return true;
}

/**
 * mrc_conn_snd_una_off() - where the acknowledged send stream ends.
 * @conn: connection.
 *
 * Return: every byte below this offset is acknowledged: free it.
 */
u64 mrc_conn_snd_una_off(const struct mrc_conn *conn)
{
	return conn->tx.una_off;
}

/**
 * mrc_conn_all_acked() - is everything queued sent and acknowledged?
 * @conn: connection.
 *
 * Return: true when a graceful close may proceed.
 */
bool mrc_conn_all_acked(const struct mrc_conn *conn)
{
	return conn->tx.una == conn->tx.nxt &&
	       conn->snd_nxt == conn->snd_end &&
	       conn->tx.una_off >= conn->snd_end &&
	       conn->txm_send == conn->txm_tail;
}

/* ---- timers ---- */

static u64 mrc_min_deadline(u64 d, u64 t)
{
	return t && t < d ? t : d;
}

/**
 * mrc_conn_next_deadline() - when mrc_conn_on_timer() is due.
 * @conn: connection.
 *
 * Return: absolute time (ns), or 0 if no timer is needed.
 */
u64 mrc_conn_next_deadline(const struct mrc_conn *conn)
{
	u64 d = U64_MAX;

	if (conn->err)
		return 0;
	if (conn->tx.time_list.head != MRC_TX_NIL)
		d = mrc_tx_next_timeout(&conn->tx, mrc_rtt_rto(&conn->rtt));
	d = mrc_min_deadline(d, conn->tx.gap_due);
	d = mrc_min_deadline(d, conn->probe_deadline);
	d = mrc_min_deadline(d, conn->sack_deadline);
	d = mrc_min_deadline(d, conn->persist_at);
	d = mrc_min_deadline(d, conn->skip_deadline);
	d = mrc_min_deadline(d, conn->ka_at);
	d = mrc_min_deadline(d, conn->tx_hold_until);
	if (d == U64_MAX)
		return 0;
	return d ? d : 1;
}

/*
 * A timer expired without progress. Expiries closer together than one
 * RTO are one event (packets sent back to back expire back to back);
 * each event doubles the RTO, and after retry_limit of them the
 * connection fails.
 */
static void mrc_conn_count_timeout(struct mrc_conn *conn, u64 now, u64 rto)
{
	if (conn->last_timeout && now < conn->last_timeout + rto)
		return;
	/* The first expiry of an episode: what it expired was sent one RTO
	 * ago, and has been unacknowledged since.
	 */
	if (!conn->retries)
		conn->stall_since = now > rto ? now - rto : 0;
	conn->last_timeout = now;
	conn->retries++;
	conn->st.timeouts++;
	mrc_rtt_backoff(&conn->rtt);
	/* A user timeout replaces the retry budget, as TCP_USER_TIMEOUT
	 * replaces tcp_retries2: the connection may survive an outage that
	 * long, however many retries that takes.
	 */
	if (conn->user_timeout_ns) {
		if (now - conn->stall_since >= conn->user_timeout_ns)
			mrc_conn_fail(conn, -ETIMEDOUT, now);
	} else if (conn->retries > conn->p.policy.retry_limit) {
		mrc_conn_fail(conn, -ETIMEDOUT, now);
	}
}

/**
 * mrc_conn_tx_hold() - every path refused our packets locally
 * (mrc_conn_tx_failed()): stop trying for an RTO instead of spinning.
 * @conn: connection.
 * @now: current time.
 *
 * With data waiting the hold counts as a timeout (the RTO backs off, and
 * the retry budget ends a connection whose every path keeps refusing:
 * ETIMEDOUT); the hold then lasts the backed-off RTO. The persist timer
 * is off meanwhile: the hold's end is the next try.
 */
void mrc_conn_tx_hold(struct mrc_conn *conn, u64 now)
{
	u64 rto = mrc_rtt_rto(&conn->rtt);

	if (conn->tx_hold_until && !conn->tx_hold_soft)
		return;
	if (!mrc_conn_tx_idle(conn))
		mrc_conn_count_timeout(conn, now, rto);
	conn->tx_hold_until = now + mrc_rtt_rto(&conn->rtt);
	conn->tx_hold_soft = false;
	conn->persist_at = 0;
}

/**
 * mrc_conn_tx_pause() - a local queue dropped one of our packets
 * (NET_XMIT_DROP): stop sending for about an RTT.
 * @conn: connection.
 * @now: current time.
 *
 * A full queue is congestion at this host: resending at once, on any
 * path, only adds to it (1000 connections doing so on a loaded host sent
 * ten packets for every one that left). As TCP ends its push when the
 * device drops and goes on with the next ACK, data waits for the smoothed
 * RTT (rto_min before a sample, never longer than the RTO), or less when
 * the peer is heard: what we sent is draining. Not a timeout: the retry
 * budget is untouched.
 */
void mrc_conn_tx_pause(struct mrc_conn *conn, u64 now)
{
	u64 pause = conn->rtt.srtt_ns ? conn->rtt.srtt_ns :
		    conn->paths.pol.rto_min_ns;

	if (conn->tx_hold_until)
		return;
	pause = min(pause, mrc_rtt_base_rto(&conn->rtt));
	conn->tx_hold_until = now + max_t(u64, pause, 1);
	conn->tx_hold_soft = true;
}

/*
 * Keepalive: an idle connection (nothing to send, nothing unacknowledged)
 * that heard nothing for idle_ns sends a RELIABILITY_PROBE, which the peer
 * answers with a SACK, every intvl_ns; after cnt unanswered probes the
 * peer is gone. While data waits, the retransmission timers watch the
 * peer instead.
 */
static void mrc_conn_keepalive_tick(struct mrc_conn *conn, u64 now)
{
	if (!mrc_conn_tx_idle(conn)) {
		conn->ka_sent = 0;
		conn->ka_at = now + conn->ka.idle_ns;
		return;
	}
	if (conn->ka_sent >= conn->ka.cnt) {
		mrc_conn_fail(conn, -ETIMEDOUT, now);
		return;
	}
	conn->ka_sent++;
	conn->st.keepalives++;
	conn->persist_probe = true;
	conn->ka_at = now + conn->ka.intvl_ns;
}

/* What the scoreboard proves about the loss of @e (mrc_path_on_timeout()). */
static u8 mrc_conn_loss_proof(const struct mrc_tx *tx,
			      const struct mrc_tx_entry *e)
{
	if (mrc_tx_delivered_since(tx, e->path, e->sent_ns))
		return MRC_LOSS_PATH_WORKS;
	if (mrc_tx_delivered_since(tx, -1, e->sent_ns))
		return MRC_LOSS_PATH_SILENT;
	return MRC_LOSS_UNPROVEN;
}

static void mrc_conn_rto(struct mrc_conn *conn, u64 now)
{
	struct mrc_tx *tx = &conn->tx;
	u64 rto = mrc_rtt_rto(&conn->rtt);
	u32 idx = tx->time_list.head, bytes = 0;

	if (idx == MRC_TX_NIL || tx->ring[idx].sent_ns + rto > now)
		return;
	for (; idx != MRC_TX_NIL; idx = tx->ring[idx].time_next) {
		const struct mrc_tx_entry *e = &tx->ring[idx];

		if (e->sent_ns + rto > now)
			break;
		/*
		 * A packet the peer refused for room (NACK NO_PKT_BUFFER)
		 * only waited: its path delivered it.
		 */
		if (!mrc_nack_is_refusal(e->nack_reason)) {
			u8 proof = mrc_conn_loss_proof(tx, e);

			if (proof == MRC_LOSS_PATH_SILENT)
				mrc_conn_suspect(conn, e, now, true);
			else
				mrc_path_on_timeout(&conn->paths, e->path, now,
						    proof);
		}
		mrc_ttr_on_loss(&conn->ttr, mrc_conn_tx_psn(tx, idx), now);
		bytes += e->len;
	}
	mrc_tx_expire(tx, now, rto);
	mrc_cc_on_loss(&conn->cc, bytes, tx->inflight_bytes, now);
	mrc_conn_count_timeout(conn, now, rto);
}

static void mrc_conn_skip_tick(struct mrc_conn *conn, u64 now)
{
	u64 d = 0;
	u32 i;

	/*
	 * A suspect path whose later packet the scoreboard saw acknowledged
	 * delivers (a SACK that named another path covered it): not dead.
	 */
	conn->paths.suspect_ns = mrc_rtt_base_rto(&conn->rtt);
	for (i = 0; i < conn->paths.count; i++) {
		const struct mrc_path *p = &conn->paths.paths[i];

		if ((p->flags & MRC_PATHF_SUSPECT) &&
		    mrc_tx_delivered_since(&conn->tx, i, p->suspect_since))
			mrc_path_clear_suspect(&conn->paths, i);
	}
	mrc_path_tick(&conn->paths, now);
	for (i = 0; i < conn->paths.count; i++) {
		const struct mrc_path *p = &conn->paths.paths[i];

		if (p->state == MRC_PATH_SKIP && (!d || p->skip_until < d))
			d = p->skip_until;
	}
	conn->skip_deadline = mrc_min_deadline(d ? d : U64_MAX,
					       mrc_path_next_verdict(&conn->paths));
	if (conn->skip_deadline == U64_MAX)
		conn->skip_deadline = 0;
}

/**
 * mrc_conn_on_timer() - run whatever is due.
 * @conn: connection.
 * @now: current time.
 *
 * SACK-gap judgements whose reordering window ended
 * (mrc_tx_on_gap_due()), retransmission timeouts (the packets go to the
 * lost queue, their paths are blamed: a path silent while others answer
 * becomes suspect, mrc_path_suspect()), suspect paths' verdicts, the
 * retry budget (ETIMEDOUT), the persist timer (zero window, no
 * usable path, unacknowledged tail: a probe), path probes, the delayed
 * SACK and the end of SKIP periods. Then drain mrc_conn_next_tx() and
 * mrc_conn_next_ctrl().
 */
void mrc_conn_on_timer(struct mrc_conn *conn, u64 now)
{
	mrc_time_t next;
	u32 room, n;

	if (conn->err)
		return;
	conn->now = now;
	mrc_conn_losses(conn, mrc_tx_on_gap_due(&conn->tx, now), now);
	mrc_conn_rto(conn, now);
	if (conn->persist_at && now >= conn->persist_at) {
		conn->persist_at = 0;
		/*
		 * Only a probe that went unanswered counts against the retry
		 * budget; an answered one (a closed window, a full reader)
		 * only backs the next one off, up to rto_max.
		 */
		if (conn->persist_out)
			mrc_conn_count_timeout(conn, now,
					       mrc_rtt_rto(&conn->rtt));
		else
			mrc_rtt_backoff(&conn->rtt);
		conn->persist_probe = true;
	}
	if (conn->probe_deadline && now >= conn->probe_deadline &&
	    mrc_conn_probes_paused(conn, now)) {
		conn->probe_deadline = 0;
		conn->probes_idle = true;
	}
	if (conn->probe_deadline && now >= conn->probe_deadline) {
		room = MRC_CONN_PROBEQ - conn->probeq_n;
		n = mrc_path_probe_poll(&conn->paths, now,
					conn->probeq + conn->probeq_n, room,
					&next);
		conn->probeq_n += n;
		conn->probe_deadline = next == MRC_PATH_NEVER ? 0 : next;
		if (!room)
			conn->probe_deadline = now +
				conn->paths.pol.probe_interval_ns;
		mrc_conn_reverse_poll(conn, now);
	}
	if (conn->sack_deadline && now >= conn->sack_deadline) {
		conn->sack_deadline = 0;
		if (mrc_rx_sack_pending(&conn->rx))
			mrc_conn_push_ack(conn, &conn->last_rx);
	}
	if (conn->skip_deadline && now >= conn->skip_deadline)
		mrc_conn_skip_tick(conn, now);
	if (conn->ka_at && now >= conn->ka_at && !conn->err)
		mrc_conn_keepalive_tick(conn, now);
}

/* ---- events and info ---- */

/**
 * mrc_conn_pop_event() - take the oldest event.
 * @conn: connection.
 * @ev: filled with it.
 *
 * Return: false if the ring is empty.
 */
bool mrc_conn_pop_event(struct mrc_conn *conn, struct mrc_conn_event *ev)
{
	if (conn->evq_head == conn->evq_tail)
		return false;
	*ev = conn->evq[conn->evq_head & conn->evq_mask];
	conn->evq_head++;
	return true;
}

/**
 * mrc_conn_get_totals() - the counters the kernel folds into its MIB.
 * @conn: connection.
 * @out: filled in; every field only grows over the connection's life.
 */
void mrc_conn_get_totals(const struct mrc_conn *conn,
			 struct mrc_conn_totals *out)
{
	u32 i;

	for (i = 0; i < __MRC_LOSS_MAX; i++)
		out->rtx_by_cause[i] = conn->tx.lost_by_cause[i];
	out->ecn_marks = conn->paths.ecn_marks;
	out->probes_timeout = conn->paths.probes_timeout;
	out->probes_answered = conn->paths.probes_answered;
	out->path_flaps = conn->paths.flaps;
	out->rev_probes = conn->paths.rev_probes;
	out->probes_stale = conn->paths.probes_stale;
	out->credit_bogus = conn->ctx.bogus;
	out->suspects = conn->paths.suspects;
	out->suspects_cleared = conn->paths.suspects_cleared;
}

/**
 * mrc_conn_get_info() - snapshot of the connection.
 * @conn: connection.
 * @info: filled (fully overwritten).
 */
void mrc_conn_get_info(const struct mrc_conn *conn,
		       struct mrc_conn_info *info)
{
	const struct mrc_ttr *t = &conn->ttr;
	u32 i;

	memset(info, 0, sizeof(*info));
	info->err = conn->err;
	info->srtt_ns = conn->rtt.srtt_ns;
	info->rttvar_ns = conn->rtt.rttvar_ns;
	info->min_rtt_ns = conn->rtt.min_rtt_ns;
	info->rto_ns = mrc_rtt_rto(&conn->rtt);
	info->cwnd = mrc_cc_cwnd(&conn->cc);
	info->inflight_bytes = conn->tx.inflight_bytes;
	info->inflight_pkts = conn->tx.inflight_pkts;
	info->lost_pkts = conn->tx.lost_pkts;
	info->snd_una_off = conn->tx.una_off;
	info->snd_nxt_off = conn->snd_nxt;
	info->snd_end_off = conn->snd_end;
	info->snd_limit = conn->ctx.limit;
	info->snd_una_psn = conn->tx.una;
	info->snd_nxt_psn = conn->tx.nxt;
	info->rcv_deliver_off = conn->rx.deliver_off;
	info->rcv_read_off = conn->rcv_read;
	info->rcv_advertised = conn->crx.advertised;
	info->rcv_cack_psn = conn->rx.cack;
	info->rcv_held = conn->rx.held;
	info->npaths = conn->paths.count;
	mrc_path_count_states(&conn->paths, info->paths_by_state);
	for (i = 0; i < __MRC_LOSS_MAX; i++)
		info->rtx_by_cause[i] = conn->tx.lost_by_cause[i];
	info->rtx_pkts = conn->st.rtx_pkts;
	info->spurious = conn->tx.spurious;
	info->timeouts = conn->st.timeouts;
	info->ttr_count = t->episodes;
	info->ttr_aborted = t->aborted;
	info->ttr_total_ns = t->total_ns;
	info->ttr_max_ns = t->max_ns;
	info->ttr_last_ns = t->last_ns;
	for (i = 0; i < MRC_TTR_BUCKETS; i++)
		info->ttr_hist[i] = t->hist[i];
	info->tx_pkts = conn->st.tx_pkts;
	info->tx_bytes = conn->st.tx_bytes;
	info->rx_pkts = conn->st.rx_pkts;
	info->rx_bytes = conn->st.rx_bytes;
	info->rx_dup_pkts = conn->st.rx_dup_pkts;
	info->tx_ctrl = conn->st.tx_ctrl;
	info->rx_ctrl = conn->st.rx_ctrl;
	info->probes_sent = conn->st.probes_sent;
	info->keepalives = conn->st.keepalives;
	for (i = 0; i < __MRC_DROP_MAX; i++)
		info->drops[i] = conn->st.drops[i];
	info->events_lost = conn->st.events_lost;
}

/**
 * mrc_conn_path_count() - entries of the path table (for a dump).
 * @conn: connection.
 *
 * Return: their number; indices run from 0 to it minus one.
 */
u32 mrc_conn_path_count(const struct mrc_conn *conn)
{
	return conn->paths.count;
}

/**
 * mrc_conn_path() - one entry of the path table.
 * @conn: connection.
 * @idx: path index.
 *
 * Return: the entry (read only), or NULL past the end.
 */
const struct mrc_path *mrc_conn_path(const struct mrc_conn *conn, u32 idx)
{
	return idx < conn->paths.count ? &conn->paths.paths[idx] : NULL;
}

/**
 * mrc_conn_path_of_ev() - path index of one of our EVs.
 * @conn: connection.
 * @ev: EV.
 *
 * Return: the index, or -ENOENT.
 */
int mrc_conn_path_of_ev(const struct mrc_conn *conn, u32 ev)
{
	return mrc_path_lookup_ev(&conn->paths, ev);
}

/**
 * mrc_conn_pick_path() - a path for a control message that must arrive
 * (a disconnect, a reset): the next usable one in rotation, as a SACK's.
 * @conn: connection.
 * @now: current time (ns).
 *
 * Return: the path index, or -ENOENT when no path is usable.
 */
int mrc_conn_pick_path(struct mrc_conn *conn, u64 now)
{
	return mrc_path_pick(&conn->paths, now, -1);
}

/**
 * mrc_conn_usable_paths() - how many paths a control message may take now.
 * @conn: connection.
 *
 * Return: the paths in use (GOOD or SKIP).
 */
u32 mrc_conn_usable_paths(const struct mrc_conn *conn)
{
	return mrc_path_active(&conn->paths);
}

/**
 * mrc_conn_snd_nxt_psn() - the PSN the next new data packet will carry.
 * @conn: connection.
 *
 * Return: that PSN (every PSN sent so far is before it).
 */
u32 mrc_conn_snd_nxt_psn(const struct mrc_conn *conn)
{
	return conn->tx.nxt;
}

/* ---- control ---- */

static void mrc_conn_ports_changed(struct mrc_conn *conn)
{
	struct mrc_conn_ack a;

	if (!(conn->p.caps & MRC_CAP_CREDIT) || conn->err)
		return;
	/* tell the peer now: a SACK carries our port status */
	memset(&a, 0, sizeof(a));
	a.psn = U32_MAX;
	mrc_conn_push_ack(conn, &a);
}

/**
 * mrc_conn_set_plane() - a local plane (port) went down or came up.
 * @conn: connection.
 * @plane: plane number.
 * @up: its new state.
 * @now: current time.
 *
 * Its paths leave or return at once, and the peer is told with the next
 * SACK (one is queued).
 */
void mrc_conn_set_plane(struct mrc_conn *conn, u32 plane, bool up, u64 now)
{
	u32 before = conn->paths.plane_down;

	conn->now = now;
	mrc_path_set_plane(&conn->paths, plane, up, now);
	mrc_conn_probe_soon(conn, now);
	if (conn->paths.plane_down != before)
		mrc_conn_ports_changed(conn);
}

/**
 * mrc_conn_set_peer_ports() - the peer reported its port status (from
 * an endpoint PORT_STATUS_UPDATE; SACKs are handled by mrc_conn_rx()).
 * @conn: connection.
 * @up_mask: bit p set when the peer's port of plane p is up.
 * @now: current time.
 */
void mrc_conn_set_peer_ports(struct mrc_conn *conn, u32 up_mask, u64 now)
{
	conn->now = now;
	conn->peer_ports = up_mask;
	mrc_path_set_peer_ports(&conn->paths, up_mask, now);
	mrc_conn_probe_soon(conn, now);
}

/**
 * mrc_conn_set_path_denied() - the controller denies or allows a path.
 * @conn: connection.
 * @idx: path index.
 * @deny: deny (true) or allow.
 * @now: current time.
 *
 * Return: as mrc_path_set_denied().
 */
int mrc_conn_set_path_denied(struct mrc_conn *conn, u32 idx, bool deny,
			     u64 now)
{
	conn->now = now;
	return mrc_path_set_denied(&conn->paths, idx, deny, now);
}

/**
 * mrc_conn_set_cfg_denied() - deny or allow every EV of a configured path.
 * @conn: connection.
 * @cfg_id: configured path.
 * @deny: deny (true) or allow.
 * @now: current time.
 *
 * Return: entries changed.
 */
u32 mrc_conn_set_cfg_denied(struct mrc_conn *conn, u32 cfg_id, bool deny,
			    u64 now)
{
	conn->now = now;
	return mrc_path_set_cfg_denied(&conn->paths, cfg_id, deny, now);
}

/**
 * mrc_conn_remove_cfg() - a configured path was deleted.
 * @conn: connection.
 * @cfg_id: configured path.
 * @now: current time.
 *
 * Return: entries removed.
 */
u32 mrc_conn_remove_cfg(struct mrc_conn *conn, u32 cfg_id, u64 now)
{
	conn->now = now;
	return mrc_path_remove_cfg(&conn->paths, cfg_id, now);
}

/**
 * mrc_conn_set_policy() - switch the connection to another policy.
 * @conn: connection.
 * @pol: the policy (validated, copied).
 * @now: current time.
 *
 * Return: 0, or -EINVAL for an invalid policy (nothing changed).
 */
int mrc_conn_set_policy(struct mrc_conn *conn, const struct mrc_policy *pol,
			u64 now)
{
	if (mrc_policy_validate(pol, NULL))
		return -EINVAL;
	conn->now = now;
	conn->p.policy = *pol;
	mrc_path_set_policy(&conn->paths, pol);
	mrc_rtt_set_bounds(&conn->rtt, pol->rto_min_ns, pol->rto_max_ns);
	conn->tx.gap_thresh = pol->sack_gap_threshold;
	mrc_conn_keepalive_apply(conn, now);
	return 0;
}

/**
 * mrc_conn_set_rcvbuf() - the receive buffer changed (SO_RCVBUF).
 * @conn: connection.
 * @rcvbuf: new size in bytes.
 */
void mrc_conn_set_rcvbuf(struct mrc_conn *conn, u64 rcvbuf)
{
	conn->p.rcvbuf = rcvbuf;
	mrc_credit_rx_set_rcvbuf(&conn->crx, rcvbuf);
}

/**
 * mrc_conn_set_keepalive() - what the socket asks of keepalive
 * (SO_KEEPALIVE, TCP_KEEPIDLE, TCP_KEEPINTVL, TCP_KEEPCNT).
 * @conn: connection.
 * @req: the request: @req->on turns keepalive on even where the policy
 *	does not; a knob left 0 takes the policy's value.
 * @now: current time: the idle time counts from the later of @now and
 *	the last packet heard.
 */
void mrc_conn_set_keepalive(struct mrc_conn *conn,
			    const struct mrc_conn_keepalive *req, u64 now)
{
	conn->ka_req = *req;
	mrc_conn_keepalive_apply(conn, now);
}

/**
 * mrc_conn_set_user_timeout() - how long sent data may stay
 * unacknowledged before the connection fails with ETIMEDOUT
 * (TCP_USER_TIMEOUT).
 * @conn: connection.
 * @timeout_ns: the limit; 0 restores the policy's retry budget.
 */
void mrc_conn_set_user_timeout(struct mrc_conn *conn, u64 timeout_ns)
{
	conn->user_timeout_ns = timeout_ns;
}

/**
 * mrc_conn_set_rx_mem_full() - whether the glue can hold more received
 * data, for the packets that follow.
 * @conn: connection.
 * @full: true: new data is refused with a NACK NO_PKT_BUFFER (dropped as
 *	MRC_DROP_NO_MEM) once it passed every other check, so the sender
 *	learns the peer is alive and waits instead of timing out.
 */
void mrc_conn_set_rx_mem_full(struct mrc_conn *conn, bool full)
{
	conn->rx_mem_full = full;
}

/**
 * mrc_conn_abort() - fail the connection from outside (close with
 * linger 0, RESET received by the glue, module unload).
 * @conn: connection.
 * @err: negative errno reported to the application.
 * @now: current time.
 */
void mrc_conn_abort(struct mrc_conn *conn, int err, u64 now)
{
	mrc_conn_fail(conn, err, now);
}
