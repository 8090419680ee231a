/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The connection engine: one MRC connection, every protocol decision.
 *
 * It ties the core modules together (sender scoreboard, receiver
 * tracker, path table, RTT, congestion control, credit, TTR) behind one
 * API that the kernel glue (kmod/mrc_*.c) and the simulator
 * (kmod/core/sim) both drive. The engine owns no memory, reads no clock
 * and has no global state: the caller embeds struct mrc_conn, hands in
 * one storage block sized by mrc_conn_storage_size() (and, with
 * tx_later, a second one for sending, mrc_conn_tx_attach()), passes the
 * time to every call and serialises the calls (the socket lock).
 *
 * The application's bytes stay with the caller. The engine reasons in
 * stream byte offsets: the send stream starts at 0 and is the RETH VA
 * space of the peer's receive stream, and vice versa.
 *
 * Calling contract (Documentation/connection-engine.md):
 *  - after every event (app write, packet in, timer, control change),
 *    drain mrc_conn_next_tx() and mrc_conn_next_ctrl() until they return
 *    0, then re-arm the timer at mrc_conn_next_deadline();
 *  - mrc_conn_rx() returns a drop reason and changes nothing when it
 *    drops (counters aside);
 *  - drain mrc_conn_pop_event() whenever convenient (the ring is bounded,
 *    overflow is counted, never blocks).
 */
#ifndef _MRC_CONN_H
#define _MRC_CONN_H

#include "mrc_core_types.h"
#include "mrc_wire.h"
#include "mrc_psn.h"
#include "mrc_rx.h"
#include "mrc_tx.h"
#include "mrc_path.h"
#include "mrc_rtt.h"
#include "mrc_policy.h"
#include "mrc_cc.h"
#include "mrc_credit.h"
#include "mrc_ttr.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Socket types (same values as the CM parameters). */
#define MRC_CONN_STREAM		MRC_CM_SOCK_STREAM
#define MRC_CONN_SEQPACKET	MRC_CM_SOCK_SEQPACKET

/* Small fixed queues inside struct mrc_conn. */
#define MRC_CONN_ACKQ		16	/* pending SACK triggers */
#define MRC_CONN_PROBEQ		16	/* path probes to send */
#define MRC_CONN_PROBE_FANOUT	8	/* paths a probe answer goes out on */
#define MRC_CONN_SACKLOG	8	/* our latest SACKs, for lost-SACK proof */

/**
 * enum mrc_conn_txerr - how the local stack answered a packet the glue
 * handed it (mrc_conn_tx_failed(), mrc_conn_ctrl_failed()).
 * @MRC_TXERR_CONGESTED: NET_XMIT_CN: a local queue is congested; the
 *	packet may have been queued. Not a loss: nothing changes.
 * @MRC_TXERR_DROPPED: dropped on the way out (NET_XMIT_DROP: a queue
 *	full, or a tc filter): it never left; congestion, not the path's
 *	fault, unless the path drops MRC_PATH_DROP_RUN packets in a row.
 * @MRC_TXERR_REFUSED: refused by the route or the device (no route, a
 *	blackhole or unreachable route, device down, a netfilter drop): it
 *	never left, and the path is out at once.
 */
enum mrc_conn_txerr {
	MRC_TXERR_CONGESTED,
	MRC_TXERR_DROPPED,
	MRC_TXERR_REFUSED,
};

/* Defaults of struct mrc_conn_params (mrc_conn_params_default()). */
#define MRC_CONN_DEF_MPR_UNITS		8	/* 1024 PSNs each way */
#define MRC_CONN_DEF_PAYLOAD		1400
#define MRC_CONN_DEF_RCVBUF		(1024U * 1024)
#define MRC_CONN_DEF_MSGS		1024
#define MRC_CONN_MIN_EVENTS		16
#define MRC_CONN_DEF_ACK_DELAY_NS	(50 * MRC_NSEC_PER_USEC)

/*
 * STREAM: longest RDMA WRITE message (bytes), cut to a whole number of
 * full packets. Its length minus one rides in the upper 16 bits of the
 * scoreboard's user word, above the MSN, so that a retransmission carries
 * the same DMA length.
 */
#define MRC_CONN_SMSG_MAX	0x10000U
#define MRC_CONN_SMSG_SHIFT	16

/* TSETH timestamps count units of 2^10 ns (about 1 us), mod 2^16. */
#define MRC_CONN_TS_SHIFT	10

/**
 * enum mrc_conn_drop - why mrc_conn_rx() dropped a packet. Values are
 * never renumbered; mrc_conn_drop_name() gives the counter names.
 * @MRC_DROP_NONE: accepted.
 * @MRC_DROP_CLOSED: the connection has failed.
 * @MRC_DROP_BAD_TYPE: a packet class the connection does not take (CM,
 *	endpoint operations: the glue handles those).
 * @MRC_DROP_BAD_QPN: the DestQP is not the connection's.
 * @MRC_DROP_BAD_RKEY: data with a wrong RETH R_Key.
 * @MRC_DROP_BAD_OPCODE: a data opcode the socket type does not use (no
 *	longer returned: both types take every data opcode since CM
 *	version 2).
 * @MRC_DROP_PSN_WINDOW: data outside the receive window.
 * @MRC_DROP_NO_CREDIT: data beyond the credit we advertised.
 * @MRC_DROP_MSG_FULL: SEQPACKET: no room to record another message end.
 * @MRC_DROP_SACK_UNSENT: a SACK acknowledging PSNs never sent.
 * @MRC_DROP_NACK_UNSENT: a NACK naming a PSN never sent.
 * @MRC_DROP_BAD_RESET: a RESET whose QPN or R_Key does not match.
 * @MRC_DROP_BAD_CTRL_KEY: a SACK, NACK or PROBE whose key is not the one
 *	we issued (our R_Key).
 * @MRC_DROP_NO_MEM: data the glue has no memory to hold (the reader is
 *	behind): a NACK NO_PKT_BUFFER asks for it later.
 * @__MRC_DROP_MAX: number of reasons.
 */
enum mrc_conn_drop {
	MRC_DROP_NONE,
	MRC_DROP_CLOSED,
	MRC_DROP_BAD_TYPE,
	MRC_DROP_BAD_QPN,
	MRC_DROP_BAD_RKEY,
	MRC_DROP_BAD_OPCODE,
	MRC_DROP_PSN_WINDOW,
	MRC_DROP_NO_CREDIT,
	MRC_DROP_MSG_FULL,
	MRC_DROP_SACK_UNSENT,
	MRC_DROP_NACK_UNSENT,
	MRC_DROP_BAD_RESET,
	MRC_DROP_BAD_CTRL_KEY,
	MRC_DROP_NO_MEM,

	__MRC_DROP_MAX
};

/**
 * enum mrc_conn_event_type - what a struct mrc_conn_event reports.
 * @MRC_CEV_PATH: a path changed state (index, ev, cfg_id, plane, states,
 *	reason, drops), or only its reason (old state = new state).
 * @MRC_CEV_RECOVERY: a recovery episode closed (ttr_ns, losses).
 * @MRC_CEV_FAILED: the connection failed (err: -ETIMEDOUT, -ECONNRESET).
 */
enum mrc_conn_event_type {
	MRC_CEV_PATH,
	MRC_CEV_RECOVERY,
	MRC_CEV_FAILED,
};

/**
 * struct mrc_conn_event - one entry of the event ring.
 * @type: enum mrc_conn_event_type.
 * @plane: MRC_CEV_PATH: plane of the path.
 * @old_state: MRC_CEV_PATH: enum mrc_path_state before.
 * @new_state: MRC_CEV_PATH: enum mrc_path_state after.
 * @reason: MRC_CEV_PATH: enum mrc_path_reason.
 * @index: MRC_CEV_PATH: path index in the connection's table.
 * @ev: MRC_CEV_PATH: the path's EV.
 * @cfg_id: MRC_CEV_PATH: the configured path it came from.
 * @drops: MRC_CEV_PATH: losses since the path was last GOOD;
 *	MRC_CEV_RECOVERY: losses folded into the episode.
 * @err: MRC_CEV_FAILED: negative errno.
 * @time: when it happened (ns).
 * @ttr_ns: MRC_CEV_RECOVERY: time to recovery.
 */
struct mrc_conn_event {
	u8 type;
	u8 plane;
	u8 old_state;
	u8 new_state;
	u8 reason;
	u32 index;
	u32 ev;
	u32 cfg_id;
	u32 drops;
	s32 err;
	u64 time;
	u64 ttr_ns;
};

/**
 * struct mrc_conn_params - everything a connection is created with.
 * @local_qpn: our QPN (the DestQP of packets to us).
 * @peer_qpn: the peer's QPN (the DestQP we send to).
 * @tx_init_psn: first PSN we send (ours, from our CM parameters).
 * @rx_init_psn: first PSN the peer sends (its CM parameters).
 * @rx_r_key: R_Key every RETH we receive must carry (we issued it).
 * @tx_r_key: R_Key we put in every RETH (the peer issued it).
 * @tx_mpr: the peer's MPR in PSNs: we never send at or past cack + it.
 * @rx_mpr: our MPR in PSNs (receive window; a multiple of 128 on the
 *	wire).
 * @max_payload: payload bytes per data packet (min of both sides and
 *	the path MTU).
 * @sock_type: MRC_CONN_STREAM or MRC_CONN_SEQPACKET.
 * @caps: negotiated MRC_CAP_* bits.
 * @rcvbuf: our receive buffer in bytes (the credit we grant).
 * @peer_window: the peer's initial receive window in bytes.
 * @sndbuf: bytes the application may have queued and unacknowledged
 *	(0: unlimited; the glue may account on its own).
 * @tx_msgs: SEQPACKET: messages queued or unacknowledged at most (ring
 *	slots, rounded up to a power of two; ignored on STREAM).
 * @rx_msgs: SEQPACKET: completed messages not yet read at most (ring
 *	slots, rounded up to a power of two; ignored on STREAM).
 * @events: event ring slots (rounded up to a power of two; 0: one per
 *	path table entry, at least MRC_CONN_MIN_EVENTS).
 * @max_paths: most EVs in the connection's set (0: policy.max_paths).
 * @path_evs: EVs the candidates offer in all, when known (0: unknown):
 *	the path table is then sized for min(@max_paths, @path_evs)
 *	entries instead of @max_paths.
 * @tx_later: the send scoreboard and the SEQPACKET send ring are not in
 *	the storage mrc_conn_init() takes: the caller attaches them with
 *	mrc_conn_tx_attach() before the first write, so an endpoint that
 *	never sends does not hold them.
 * @policy: failure policy (validated by mrc_conn_init()).
 * @cc_name: congestion control algorithm ("" = default).
 * @cc: congestion control parameters.
 * @seed: PRNG seed (path choice, rotation order, probe ids).
 * @ack: receiver SACK policy.
 * @ack_delay_ns: longest a SACK is delayed (0: never delayed).
 * @handshake_rtt_ns: RTT measured by the handshake (0: none), seeds the
 *	estimator.
 */
struct mrc_conn_params {
	u32 local_qpn;
	u32 peer_qpn;
	u32 tx_init_psn;
	u32 rx_init_psn;
	u32 rx_r_key;
	u32 tx_r_key;
	u32 tx_mpr;
	u32 rx_mpr;
	u32 max_payload;
	u8 sock_type;
	u32 caps;
	u64 rcvbuf;
	u64 peer_window;
	u64 sndbuf;
	u32 tx_msgs;
	u32 rx_msgs;
	u32 events;
	u32 max_paths;
	u32 path_evs;
	bool tx_later;
	struct mrc_policy policy;
	char cc_name[MRC_CC_NAME_MAX];
	struct mrc_cc_params cc;
	u64 seed;
	struct mrc_rx_ack_policy ack;
	u64 ack_delay_ns;
	u64 handshake_rtt_ns;
};

/**
 * struct mrc_conn_keepalive - keepalive of an idle connection.
 * @on: keepalive runs.
 * @idle_ns: silence before the first probe.
 * @intvl_ns: time between unanswered probes.
 * @cnt: unanswered probes before the connection fails with ETIMEDOUT.
 *
 * Given to mrc_conn_set_keepalive(), it is what the socket asks for: @on
 * is SO_KEEPALIVE, and a knob left 0 takes the policy's value. What the
 * connection runs is on when the socket or the policy asks, with every
 * knob set.
 */
struct mrc_conn_keepalive {
	bool on;
	u64 idle_ns;
	u64 intvl_ns;
	u32 cnt;
};

/**
 * struct mrc_tx_desc - a data packet mrc_conn_next_tx() asks to send.
 * @off: stream offset of the payload (also the RETH VA).
 * @len: payload length in bytes.
 * @psn: its PSN.
 * @msn: METH MSN (message sequence number, mod 2^16).
 * @rqmsn: METH RQMSN.
 * @dma_len: RETH DMA length: the whole message's length.
 * @imm: immediate data (with a *_IMM opcode).
 * @opcode: MRC_OP_WRITE_*.
 * @rtx: a retransmission.
 * @ack_req: ask the receiver for an immediate SACK.
 * @path: path index in the connection's table.
 * @plane: the path's plane.
 * @ev: the path's EV (UDP source port / flow label).
 * @cfg_id: the configured path (route) to send it on.
 * @tx_ts: TSETH timestamp (with MRC_CAP_TSETH).
 */
struct mrc_tx_desc {
	u64 off;
	u32 len;
	u32 psn;
	u16 msn;
	u16 rqmsn;
	u32 dma_len;
	u32 imm;
	u8 opcode;
	bool rtx;
	bool ack_req;
	u16 path;
	u8 plane;
	u32 ev;
	u32 cfg_id;
	u16 tx_ts;
};

/**
 * struct mrc_conn_verdict - what mrc_conn_rx() decided about a packet.
 * @data: it was a data packet (the fields below up to @msgs apply).
 * @dup: a duplicate: drop its payload (it is still acknowledged).
 * @place_off: stream offset where the payload goes (RETH VA).
 * @place_len: payload bytes to place (0 for a duplicate).
 * @deliver_off: contiguous receive stream end after this packet; bytes
 *	below it may be handed to the application (STREAM).
 * @msgs: SEQPACKET: messages newly completed in order; take them with
 *	mrc_conn_rx_msg_pop().
 * @sack_now: a SACK is due at once (call mrc_conn_next_ctrl()).
 * @tx_ready: the send window opened (call mrc_conn_next_tx()).
 * @failed: the connection failed on this packet (see mrc_conn.err).
 * @probe_answered: it answered the path probe of ours outstanding on its
 *	path, and was counted: not a late answer to an earlier probe (only
 *	such an answer proves the route to other connections).
 */
struct mrc_conn_verdict {
	bool data;
	bool dup;
	u64 place_off;
	u32 place_len;
	u64 deliver_off;
	u32 msgs;
	bool sack_now;
	bool tx_ready;
	bool failed;
	bool probe_answered;
};

/**
 * struct mrc_conn_msg - a SEQPACKET message completed in order.
 * @off: stream offset of its first byte.
 * @len: its length.
 * @imm: immediate data of its last packet.
 * @has_imm: @imm is valid.
 */
struct mrc_conn_msg {
	u64 off;
	u32 len;
	u32 imm;
	bool has_imm;
};

/**
 * struct mrc_conn_info - snapshot for MRC_INFO and netlink.
 * @err: 0, or the negative errno the connection failed with.
 * @srtt_ns: smoothed RTT.
 * @rttvar_ns: RTT variation.
 * @min_rtt_ns: smallest RTT sample.
 * @rto_ns: current RTO, backoff included.
 * @cwnd: congestion window in bytes.
 * @inflight_bytes: payload bytes in flight.
 * @inflight_pkts: packets in flight.
 * @lost_pkts: packets waiting for retransmission.
 * @snd_una_off: stream offset everything below which is acknowledged.
 * @snd_nxt_off: next new stream offset to send.
 * @snd_end_off: end of what the application queued.
 * @snd_limit: credit: the peer accepts bytes below this offset.
 * @snd_una_psn: oldest unacknowledged PSN.
 * @snd_nxt_psn: next new PSN.
 * @rcv_deliver_off: contiguous received stream end.
 * @rcv_read_off: what the application has read.
 * @rcv_advertised: credit we granted.
 * @rcv_cack_psn: next PSN expected in order.
 * @rcv_held: packets held above it.
 * @npaths: entries of the path table.
 * @paths_by_state: paths per enum mrc_path_state.
 * @rtx_by_cause: losses detected per enum mrc_loss_cause.
 * @rtx_pkts: retransmissions sent.
 * @spurious: packets acknowledged after being declared lost.
 * @timeouts: RTO expiries counted toward the retry budget.
 * @ttr_count: recovery episodes closed.
 * @ttr_aborted: episodes dropped unfinished.
 * @ttr_total_ns: sum of TTRs.
 * @ttr_max_ns: longest TTR.
 * @ttr_last_ns: latest TTR.
 * @ttr_hist: TTRs per log2-microsecond bucket (see mrc_ttr.h).
 * @tx_pkts: data packets sent (retransmissions included).
 * @tx_bytes: payload bytes sent.
 * @rx_pkts: data packets accepted (duplicates included).
 * @rx_bytes: new payload bytes accepted.
 * @rx_dup_pkts: duplicates among @rx_pkts.
 * @tx_ctrl: control packets built (SACK, probe, NACK).
 * @rx_ctrl: control packets accepted.
 * @probes_sent: path and persist probes sent.
 * @keepalives: keepalive probes sent (also in @probes_sent).
 * @drops: packets dropped per enum mrc_conn_drop.
 * @events_lost: events lost to a full ring.
 */
struct mrc_conn_info {
	s32 err;
	u64 srtt_ns;
	u64 rttvar_ns;
	u64 min_rtt_ns;
	u64 rto_ns;
	u64 cwnd;
	u64 inflight_bytes;
	u32 inflight_pkts;
	u32 lost_pkts;
	u64 snd_una_off;
	u64 snd_nxt_off;
	u64 snd_end_off;
	u64 snd_limit;
	u32 snd_una_psn;
	u32 snd_nxt_psn;
	u64 rcv_deliver_off;
	u64 rcv_read_off;
	u64 rcv_advertised;
	u32 rcv_cack_psn;
	u32 rcv_held;
	u32 npaths;
	u32 paths_by_state[__MRC_PATH_STATE_MAX];
	u64 rtx_by_cause[__MRC_LOSS_MAX];
	u64 rtx_pkts;
	u64 spurious;
	u64 timeouts;
	u64 ttr_count;
	u64 ttr_aborted;
	u64 ttr_total_ns;
	u64 ttr_max_ns;
	u64 ttr_last_ns;
	u64 ttr_hist[MRC_TTR_BUCKETS];
	u64 tx_pkts;
	u64 tx_bytes;
	u64 rx_pkts;
	u64 rx_bytes;
	u64 rx_dup_pkts;
	u64 tx_ctrl;
	u64 rx_ctrl;
	u64 probes_sent;
	u64 keepalives;
	u64 drops[__MRC_DROP_MAX];
	u64 events_lost;
};

/**
 * struct mrc_conn_txmsg - SEQPACKET send ring entry: one message.
 * @off: stream offset of its first byte.
 * @len: its length.
 * @last_psn: PSN of its last packet, once sent; the entry is freed when
 *	the cumulative ack passes it.
 */
struct mrc_conn_txmsg {
	u64 off;
	u32 len;
	u32 last_psn;
};

/**
 * struct mrc_conn_ack - a pending SACK trigger.
 * @psn: PSN of the triggering packet (U32_MAX: none, e.g. a window
 *	update).
 * @ev: EV the trigger arrived on, reflected (0: none).
 * @tx_ts: its TSETH timestamp.
 * @ts_valid: @tx_ts is valid.
 * @ce: it arrived ECN-marked (reflect SKIP_ONCE).
 * @probe: it answers a probe.
 * @fan: send it on several of our paths (answers a probe or a
 *	retransmission: our earlier answer may have taken a dead path).
 * @missed: it answers a retransmission of data we had, and one of our
 *	SACKs for it is proven lost (mrc_conn_sacks_missed()): it goes on
 *	the path best proven to carry our packets (mrc_path_pick_heard())
 *	and fans out even within @fan_quiet_until of the last fan (a run
 *	of such fans backs off: mrc_conn_missed_fan_due()).
 */
struct mrc_conn_ack {
	u32 psn;
	u32 ev;
	u16 tx_ts;
	bool ts_valid;
	bool ce;
	bool probe;
	bool fan;
	bool missed;
};

/**
 * struct mrc_conn_sent_sack - one of our latest SACKs, remembered: if the
 * peer resends data it covered, it was lost, and so may be the next ones
 * on its path (mrc_path_on_ctrl_lost()).
 * @sent_ns: when it left (0: a free slot, or already judged).
 * @cack: its cumulative ack (every PSN before it was covered).
 * @psn: the PSN that triggered it (covered too).
 * @path: the path it left on.
 */
struct mrc_conn_sent_sack {
	u64 sent_ns;
	u32 cack;
	u32 psn;
	u32 path;
};

/**
 * struct mrc_conn - one connection. Treat as opaque: use the functions.
 * @p: the parameters (copied).
 * @err: 0, or the negative errno the connection failed with.
 * @tx: sender scoreboard.
 * @rx: receiver tracker.
 * @paths: path table.
 * @rtt: RTT estimator.
 * @cc: congestion control.
 * @ctx: credit, sender side.
 * @crx: credit, receiver side.
 * @ttr: time-to-recovery accounting.
 * @rng: PRNG.
 * @txm: SEQPACKET send ring.
 * @txm_mask: its size minus one.
 * @tx_attached: the send scoreboard's ring and @txm are in place (at
 *	mrc_conn_init(), or later by mrc_conn_tx_attach() with
 *	@p.tx_later); until then they point at @tx_none and @txm_none and
 *	mrc_conn_app_write() takes nothing.
 * @tx_none: the one-entry ring the scoreboard points at until attached.
 * @txm_none: the one-entry SEQPACKET send ring until attached.
 * @txm_head: message number of the oldest unacknowledged message.
 * @txm_send: message number of the message being sent.
 * @txm_tail: message number of the next message queued.
 * @rxm: SEQPACKET receive ring of completed messages.
 * @rxm_mask: its size minus one.
 * @rxm_head: next to pop.
 * @rxm_tail: next to push.
 * @rx_held_ends: message-end packets held above the cumulative ack.
 * @rx_msg_end: stream offset where the next received message starts.
 * @evq: event ring.
 * @evq_mask: its size minus one.
 * @evq_head: next to pop.
 * @evq_tail: next to push.
 * @snd_end: end of the bytes the application queued.
 * @snd_nxt: next new stream offset to send.
 * @pkt_msn: STREAM: message counter used as MSN.
 * @smsg_end: STREAM: stream offset where the message being sent ends.
 * @smsg_len: STREAM: its length (the RETH DMA length of its packets).
 * @rcv_read: what the application has read.
 * @ackq: pending SACK triggers.
 * @ackq_n: their number.
 * @last_rx: the last new data packet (delayed SACK trigger).
 * @sack_deadline: when the delayed SACK is due (0: none).
 * @nack_pending: a NACK is to be sent.
 * @nack: it (reason, psn, entropy, tx_ts).
 * @fan_ack: the probe answer being fanned out.
 * @fan_left: copies of it still to send (each on another path: the
 *	peer's probe proves its path, not ours, so the answer must find a
 *	working path of ours even when our active ones are dead).
 * @fan_first: the path its first copy went out on.
 * @fan_cursor: rotation over our paths for the copies.
 * @fan_quiet_until: no new fan-out before this time (one per RTO: SACKs
 *	are cumulative, and a fan per retransmission or probe multiplies a
 *	slow host's load by the fan-out).
 * @missed_fan_until: no fan for a SACK proven lost before this time
 *	(mrc_conn_missed_fan_due()).
 * @missed_fan_ivl: the current wait between such fans: rto_min, doubled
 *	(up to rto_max) while they follow each other closely.
 * @sacklog: our latest SACKs that went out on one path (not fanned, not
 *	probe answers), for the proof that one was lost.
 * @sacklog_next: the slot of @sacklog the next one takes.
 * @probeq: paths to probe.
 * @probeq_n: their number.
 * @probe_deadline: when mrc_path_probe_poll() is due (0: never).
 * @probes_idle: path probing is paused: no data moved for a while
 *	(mrc_conn_probes_paused()); the next data restarts it.
 * @data_at: when data was last sent or accepted.
 * @probe_id: last probe id.
 * @persist_at: persist timer (0: off): zero window, no path, tail.
 * @persist_probe: a persist probe is to be sent.
 * @persist_out: a persist probe is outstanding.
 * @rx_mem_full: set by the glue before a packet goes in: it has no memory
 *	to hold more data (mrc_conn_set_rx_mem_full()).
 * @retries: consecutive timeouts without progress.
 * @last_timeout: when a timeout was last counted.
 * @stall_since: when the data of the current timeout episode was sent.
 * @user_timeout_ns: replaces the retry budget when non-zero: how long
 *	data may stay unacknowledged (mrc_conn_set_user_timeout()).
 * @ka_req: keepalive the socket asked for (mrc_conn_set_keepalive()).
 * @ka: keepalive that runs: @ka_req over the policy's defaults.
 * @ka_at: when the next keepalive check is due (0: off).
 * @ka_sent: keepalive probes sent since the peer was last heard.
 * @heard_at: when a packet of the peer was last accepted.
 * @skip_deadline: earliest end of a SKIP period (0: none).
 * @now: time of the current call (for path events).
 * @peer_ports: last port status the peer reported.
 * @ports_dirty: our port status changed: tell the peer.
 * @refuse_run: packets the local stack refused in a row (mrc_conn_tx_failed(),
 *	mrc_conn_ctrl_failed()), with no data packet leaving and nothing
 *	heard from the peer in between: at mrc_conn_refuse_max() every path
 *	had its chance, and sending holds.
 * @tx_out_pending: mrc_conn_next_tx_burst() handed out data packets that
 *	have not been refused (yet): at the next call, they left.
 * @tx_out_path: the path they went on.
 * @tx_out_psn: the PSN of the first of them.
 * @tx_out_n: how many (a burst: consecutive PSNs on one path).
 * @tx_hold_until: data waits until then (0: no hold): every path refused
 *	its packets; an RTO later they are tried again, and each hold counts
 *	as a timeout against the retry budget. Or (@tx_hold_soft) a local
 *	queue dropped a packet: a pause of about an RTT (mrc_conn_tx_pause()).
 * @tx_hold_soft: the hold is such a pause, which hearing the peer ends.
 * @st: counters reported by mrc_conn_get_info().
 * @st.tx_pkts: data packets sent.
 * @st.tx_bytes: payload bytes sent.
 * @st.rx_pkts: data packets accepted.
 * @st.rx_bytes: new payload bytes accepted.
 * @st.rx_dup_pkts: duplicates.
 * @st.tx_ctrl: control packets built.
 * @st.rx_ctrl: control packets accepted.
 * @st.rtx_pkts: retransmissions sent.
 * @st.probes_sent: probes sent.
 * @st.keepalives: keepalive probes sent (also in @st.probes_sent).
 * @st.timeouts: counted timeouts.
 * @st.events_lost: events lost to a full ring.
 * @st.drops: drops per enum mrc_conn_drop.
 */
struct mrc_conn {
	struct mrc_conn_params p;
	int err;
	struct mrc_tx tx;
	struct mrc_rx rx;
	struct mrc_path_table paths;
	struct mrc_rtt rtt;
	struct mrc_cc cc;
	struct mrc_credit_tx ctx;
	struct mrc_credit_rx crx;
	struct mrc_ttr ttr;
	struct mrc_prng rng;

	struct mrc_conn_txmsg *txm;
	u32 txm_mask;
	bool tx_attached;
	struct mrc_tx_entry tx_none;
	struct mrc_conn_txmsg txm_none;
	u32 txm_head;
	u32 txm_send;
	u32 txm_tail;
	struct mrc_conn_msg *rxm;
	u32 rxm_mask;
	u32 rxm_head;
	u32 rxm_tail;
	u32 rx_held_ends;
	u64 rx_msg_end;
	struct mrc_conn_event *evq;
	u32 evq_mask;
	u32 evq_head;
	u32 evq_tail;

	u64 snd_end;
	u64 snd_nxt;
	u32 pkt_msn;
	u64 smsg_end;
	u32 smsg_len;
	u64 rcv_read;

	struct mrc_conn_ack ackq[MRC_CONN_ACKQ];
	u32 ackq_n;
	struct mrc_conn_ack last_rx;
	u64 sack_deadline;
	bool nack_pending;
	struct mrc_nack nack;
	struct mrc_conn_ack fan_ack;
	u32 fan_left;
	u32 fan_first;
	u32 fan_cursor;
	u64 fan_quiet_until;
	u64 missed_fan_until;
	u64 missed_fan_ivl;
	struct mrc_conn_sent_sack sacklog[MRC_CONN_SACKLOG];
	u32 sacklog_next;
	u16 probeq[MRC_CONN_PROBEQ];
	u32 probeq_n;
	u64 probe_deadline;
	bool probes_idle;
	u64 data_at;
	u32 probe_id;
	u64 persist_at;
	bool persist_probe;
	bool persist_out;
	bool rx_mem_full;
	u32 retries;
	u64 last_timeout;
	u64 stall_since;
	u64 user_timeout_ns;
	struct mrc_conn_keepalive ka_req;
	struct mrc_conn_keepalive ka;
	u64 ka_at;
	u32 ka_sent;
	u64 heard_at;
	u64 skip_deadline;
	u64 now;
	u32 peer_ports;
	bool ports_dirty;
	u32 refuse_run;
	bool tx_out_pending;
	u16 tx_out_path;
	u32 tx_out_psn;
	u32 tx_out_n;
	u64 tx_hold_until;
	bool tx_hold_soft;

	struct {
		u64 tx_pkts;
		u64 tx_bytes;
		u64 rx_pkts;
		u64 rx_bytes;
		u64 rx_dup_pkts;
		u64 tx_ctrl;
		u64 rx_ctrl;
		u64 rtx_pkts;
		u64 probes_sent;
		u64 keepalives;
		u64 timeouts;
		u64 events_lost;
		u64 drops[__MRC_DROP_MAX];
	} st;
};

/* ---- set-up ---- */

void mrc_conn_params_default(struct mrc_conn_params *p);
int mrc_conn_params_check(const struct mrc_conn_params *p, const char **msg);
size_t mrc_conn_storage_size(const struct mrc_conn_params *p);
int mrc_conn_init(struct mrc_conn *conn, const struct mrc_conn_params *p,
		  void *storage, const struct mrc_path_cand *cands,
		  u32 ncands, u64 now);
size_t mrc_conn_tx_storage_size(const struct mrc_conn *conn);
int mrc_conn_tx_attach(struct mrc_conn *conn, void *storage);

/**
 * mrc_conn_tx_attached() - whether the connection can take writes.
 * @conn: connection.
 *
 * Return: false only while a @p.tx_later connection waits for
 * mrc_conn_tx_attach().
 */
static inline bool mrc_conn_tx_attached(const struct mrc_conn *conn)
{
	return conn->tx_attached;
}

/* ---- application side ---- */

int mrc_conn_app_write(struct mrc_conn *conn, u64 len, bool msg_end);
u64 mrc_conn_app_space(const struct mrc_conn *conn, u32 *msgs);
u64 mrc_conn_app_readable(const struct mrc_conn *conn);
bool mrc_conn_rx_msg_peek(const struct mrc_conn *conn,
			  struct mrc_conn_msg *msg);
bool mrc_conn_rx_msg_pop(struct mrc_conn *conn, struct mrc_conn_msg *msg);
bool mrc_conn_app_read(struct mrc_conn *conn, u64 bytes);
u64 mrc_conn_snd_una_off(const struct mrc_conn *conn);
bool mrc_conn_all_acked(const struct mrc_conn *conn);

/* ---- packets out ---- */

/*
 * New packets per burst on one path (mrc_conn_next_tx_burst()) that the
 * kernel asks for and the simulator sends: one segmentation-offload
 * packet. The trade-off, measured: Documentation/datapath.md.
 */
#define MRC_CONN_TX_BURST	8

int mrc_conn_next_tx(struct mrc_conn *conn, u64 now, struct mrc_tx_desc *d);
int mrc_conn_next_tx_burst(struct mrc_conn *conn, u64 now,
			   struct mrc_tx_desc *d, u32 max);
void mrc_conn_data_pkt(const struct mrc_conn *conn,
		       const struct mrc_tx_desc *d, struct mrc_pkt *pkt);
int mrc_conn_build_data_hdr(const struct mrc_conn *conn,
			    const struct mrc_tx_desc *d, u8 *buf, u32 cap);
void mrc_conn_probe_unsent(struct mrc_conn *conn, u32 ev, u64 now,
			   u64 retry_ns);
bool mrc_conn_probe_shared(struct mrc_conn *conn, u32 ev, u64 now,
			   u64 answered_at, bool own);
u32 mrc_conn_data_pkt_size(const struct mrc_conn *conn);
u32 mrc_conn_probe_size(const struct mrc_conn *conn);
int mrc_conn_tx_failed(struct mrc_conn *conn, u32 psn, u32 ev,
		       enum mrc_conn_txerr err, u64 now);
int mrc_conn_ctrl_failed(struct mrc_conn *conn, const struct mrc_pkt *pkt,
			 u32 ev, bool path_probe, enum mrc_conn_txerr err,
			 u64 now);
int mrc_conn_on_pkt_too_big(struct mrc_conn *conn, const struct mrc_pkt *quote,
			    u32 ev, u32 room, u64 now);
int mrc_conn_next_ctrl(struct mrc_conn *conn, u64 now, struct mrc_pkt *pkt,
		       u32 *ev);
void mrc_conn_reset_pkt(const struct mrc_conn *conn, u8 reason, u32 psn,
			struct mrc_pkt *pkt);

/* ---- packets in ---- */

int mrc_conn_rx(struct mrc_conn *conn, const struct mrc_pkt *pkt, u32 rx_ev,
		bool ecn_ce, u64 now, struct mrc_conn_verdict *v);
const char *mrc_conn_drop_name(int reason);

/* ---- timers ---- */

u64 mrc_conn_next_deadline(const struct mrc_conn *conn);
void mrc_conn_on_timer(struct mrc_conn *conn, u64 now);

/* ---- events and info ---- */

/**
 * struct mrc_conn_totals - the connection's monotonic counters that the
 * kernel folds into its per-namespace MIB (cheap to read on every push).
 * @rtx_by_cause: losses detected per enum mrc_loss_cause.
 * @ecn_marks: SACKs carrying SKIP_ONCE.
 * @probes_timeout: path probes that went unanswered.
 * @probes_answered: path probes answered.
 * @path_flaps: paths that failed right after returning (MRC_PATH_FLAP_WINDOW).
 * @rev_probes: reverse-liveness probes (mrc_path_reverse_poll()).
 * @probes_stale: probe answers for an earlier probe (not counted).
 * @credit_bogus: SACKs whose credit no receiver could have granted
 *	(mrc_credit_tx_plausible()): ignored.
 * @suspects: paths made suspect (mrc_path_suspect()).
 * @suspects_cleared: suspect paths heard from in time.
 */
struct mrc_conn_totals {
	u64 rtx_by_cause[__MRC_LOSS_MAX];
	u64 ecn_marks;
	u64 probes_timeout;
	u64 probes_answered;
	u64 path_flaps;
	u64 rev_probes;
	u64 probes_stale;
	u64 credit_bogus;
	u64 suspects;
	u64 suspects_cleared;
};

void mrc_conn_get_totals(const struct mrc_conn *conn,
			 struct mrc_conn_totals *out);

bool mrc_conn_pop_event(struct mrc_conn *conn, struct mrc_conn_event *ev);
void mrc_conn_get_info(const struct mrc_conn *conn,
		       struct mrc_conn_info *info);
u32 mrc_conn_path_count(const struct mrc_conn *conn);
const struct mrc_path *mrc_conn_path(const struct mrc_conn *conn, u32 idx);
int mrc_conn_path_of_ev(const struct mrc_conn *conn, u32 ev);
int mrc_conn_pick_path(struct mrc_conn *conn, u64 now);
u32 mrc_conn_usable_paths(const struct mrc_conn *conn);
u32 mrc_conn_snd_nxt_psn(const struct mrc_conn *conn);

/* ---- control ---- */

void mrc_conn_set_plane(struct mrc_conn *conn, u32 plane, bool up, u64 now);
void mrc_conn_set_peer_ports(struct mrc_conn *conn, u32 up_mask, u64 now);
int mrc_conn_set_path_denied(struct mrc_conn *conn, u32 idx, bool deny,
			     u64 now);
u32 mrc_conn_set_cfg_denied(struct mrc_conn *conn, u32 cfg_id, bool deny,
			    u64 now);
u32 mrc_conn_remove_cfg(struct mrc_conn *conn, u32 cfg_id, u64 now);
int mrc_conn_set_policy(struct mrc_conn *conn, const struct mrc_policy *pol,
			u64 now);
void mrc_conn_set_rcvbuf(struct mrc_conn *conn, u64 rcvbuf);
void mrc_conn_set_keepalive(struct mrc_conn *conn,
			    const struct mrc_conn_keepalive *req, u64 now);
void mrc_conn_set_user_timeout(struct mrc_conn *conn, u64 timeout_ns);
void mrc_conn_set_rx_mem_full(struct mrc_conn *conn, bool full);
void mrc_conn_abort(struct mrc_conn *conn, int err, u64 now);

#ifdef __cplusplus
}
#endif

#endif /* _MRC_CONN_H */
