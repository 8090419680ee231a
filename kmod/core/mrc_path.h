/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The path (EV) table of one connection: its set of entropy values, their
 * state machine, the scheduler that sprays packets over them, and the
 * probes that bring failed ones back.
 *
 * The table lives in storage the caller sizes at connection setup; nothing
 * here allocates. Every state change is reported through a callback so the
 * kernel can emit netlink events and bump counters. Time is a parameter.
 * Documentation/path-state-machine.md describes the states, transitions,
 * replacement and floor rules.
 *
 * Not thread-safe: the caller serialises calls (the connection lock).
 */
#ifndef _MRC_PATH_H
#define _MRC_PATH_H

#include "mrc_core_types.h"
#include "mrc_policy.h"
#include <linux/mrc.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Planes are numbered 0..31 (a u32 bitmap describes them). */
#define MRC_PATH_MAX_PLANES	32
/* Largest table: indices are u16 and encoded in the EV's high half. */
#define MRC_PATH_MAX_ENTRIES	2047U	/* MRC_PATH_EV_INDEX_MASK */
/* The scheduler reshuffles its rotation order every this many rotations. */
#define MRC_PATH_RESHUFFLE	8
/* Backups are probed this many probe intervals apart. */
#define MRC_PATH_BACKUP_PROBE_MULT	8
/*
 * A path whose probes keep failing is probed less often: the interval
 * doubles with each failure, up to 2^MRC_PATH_PROBE_BACKOFF_MAX times.
 * A dead path then costs an eighth of the probes, and a path that comes
 * back is still found within 8 intervals (40 ms with the defaults).
 */
#define MRC_PATH_PROBE_BACKOFF_MAX	3
/*
 * A path slower than its backed-off interval answers each probe after
 * the next one left: the answer is stale and the probe failed, so with
 * the backoff above alone a path whose round trip exceeds 8 intervals
 * could never come back by probe. A stale answer to a failed probe of an
 * ASSUMED_BAD path proves the path carries packets, only slowly: it
 * doubles the interval once more, up to 2^MRC_PATH_PROBE_LATE_MAX times,
 * until the probes wait long enough to be answered in time (and that
 * answer's round trip then sets the interval's floor).
 */
#define MRC_PATH_PROBE_LATE_MAX		8
/* Doublings of the probe interval at most, backoff and flaps together. */
#define MRC_PATH_PROBE_SHIFT_MAX	10
/*
 * A drop on the way out (NET_XMIT_DROP) is what a full queue gives: a
 * busy host whose input backlog overflows (veth), a qdisc at its limit.
 * That is congestion on every path at once, not a broken path, and
 * blaming paths for it took every path of 1000 connections out at once
 * (74-idle-quiet on a loaded host). A path whose last this many packets
 * were all dropped, none of them leaving or heard of in between, drops
 * everything (a filter, a queue that never drains): it is out then. At a
 * drop rate of one half that many in a row by chance is 1 in 65,536.
 */
#define MRC_PATH_DROP_RUN	16
/*
 * A probe is never due sooner than this many of the path's smoothed RTTs
 * after the last: on a slow host, a probe answered in time must not count
 * as failed because the next was due first.
 */
#define MRC_PATH_PROBE_RTT_MULT		2
/*
 * A path that fails again within MRC_PATH_FLAP_WINDOW probe intervals of
 * coming back from ASSUMED_BAD flapped: it carries what probes carry but
 * not the data (an MTU too small, a congested link). Each flap in a row
 * doubles its probe interval, up to 2^MRC_PATH_FLAP_MAX times on top of
 * the probe backoff, so a path that flaps costs a bounded number of
 * returns per second (about 2 with the defaults) instead of one per probe
 * round; one that then stays in use for a window is forgiven.
 */
#define MRC_PATH_FLAP_WINDOW		16
#define MRC_PATH_FLAP_MAX		5
/*
 * Reverse liveness: a path that carries our SACKs and NACKs (the peer's
 * data direction seen from here) hears nothing back about them. Once it
 * has carried some and heard nothing for MRC_PATH_REV_MULT probe
 * intervals, it gets an EV probe (see mrc_path_reverse_poll()).
 */
#define MRC_PATH_REV_MULT		4
/* A time that never comes. */
#define MRC_PATH_NEVER		(~0ULL)

/*
 * EV layout: all 32 bits travel (UDP source port and flow label, see
 * mrc_ev_sport()) and come back whole in SACKs and NACKs. The low
 * MRC_PATH_EV_INDEX_BITS bits are the entry's index + 1 (never 0, so a
 * reflected EV finds its entry in O(1)); the bits above them are random.
 * The index bits sit in the UDP source port, so the EVs of one connection
 * differ there too (ECMP hashes on ports). Hence at most
 * MRC_PATH_EV_INDEX_MASK entries.
 */
#define MRC_PATH_EV_INDEX_BITS		11
#define MRC_PATH_EV_INDEX_MASK		((1U << MRC_PATH_EV_INDEX_BITS) - 1)

/**
 * enum mrc_path_mark - the m field of a SACK, as the path table takes it
 * (same values as enum mrc_sack_mark of the wire format).
 * @MRC_PATH_MARK_NONE: nothing to say about the path.
 * @MRC_PATH_MARK_SKIP_ONCE: the packet was ECN-marked: skip the path a while.
 * @MRC_PATH_MARK_ALWAYS_SKIP: stop using the path until probes succeed.
 */
enum mrc_path_mark {
	MRC_PATH_MARK_NONE,
	MRC_PATH_MARK_SKIP_ONCE,
	MRC_PATH_MARK_ALWAYS_SKIP,
};

/**
 * enum mrc_path_flags - per-entry flags.
 * @MRC_PATHF_LINK_OUT: taken out because its local plane or the peer's
 *	port went down; comes back when both are up, without probing.
 * @MRC_PATHF_PROBE_OUT: a probe is outstanding.
 * @MRC_PATHF_REMOVED: its configured path was deleted; never comes back.
 * @MRC_PATHF_REV_OUT: the outstanding probe is a reverse-liveness probe
 *	of a path in use (set with @MRC_PATHF_PROBE_OUT).
 * @MRC_PATHF_REV_CTRL: the path carried our SACKs or NACKs since it was
 *	last heard from; while set on a path in use, @next_probe is when its
 *	reverse-liveness probe is due (while @MRC_PATHF_REV_OUT is set: when
 *	that probe was sent).
 * @MRC_PATHF_SUSPECT: GOOD, but showed what a dead path shows and a late
 *	one too (mrc_path_suspect()): no new packet goes on it while another
 *	path is GOOD; it stays in use if it is heard from within two RTOs of
 *	@suspect_since, and goes ASSUMED_BAD then otherwise.
 * @MRC_PATHF_SUSPECT_TO: the suspicion came from a timeout (else a loss):
 *	the reason of the verdict.
 * @MRC_PATHF_REV_SUSPECT: in use, but a SACK of ours that went out on it
 *	was lost: the peer resent data the SACK covered
 *	(mrc_path_on_ctrl_lost()). No new packet of ours (data, SACK or
 *	NACK) goes on it while a trusted path is left; its reverse-liveness
 *	probe is due at once, and it stays suspect until it is heard from
 *	(the probe answered) or its probes take it out (PROBE_FAIL).
 */
enum mrc_path_flags {
	MRC_PATHF_LINK_OUT	= 1 << 0,
	MRC_PATHF_PROBE_OUT	= 1 << 1,
	MRC_PATHF_REMOVED	= 1 << 2,
	MRC_PATHF_REV_OUT	= 1 << 3,
	MRC_PATHF_REV_CTRL	= 1 << 4,
	MRC_PATHF_SUSPECT	= 1 << 5,
	MRC_PATHF_SUSPECT_TO	= 1 << 6,
	MRC_PATHF_REV_SUSPECT	= 1 << 7,
};

/**
 * struct mrc_path_stats - per-path counters (wrapping u32; the kernel
 * keeps 64-bit totals per connection).
 * @tx_pkts: packets sent (retransmissions included).
 * @retransmits: retransmissions sent.
 * @losses: losses charged to the path (SACK gap or expected PSN).
 * @timeouts: retransmission timeouts charged to the path.
 * @ecn_marks: SACKs carrying SKIP_ONCE.
 * @trims: NACKs reporting a trim (either kind).
 * @probes_sent: probes sent.
 * @probes_ok: probes answered.
 * @probes_failed: probes unanswered or answered ALWAYS_SKIP.
 */
struct mrc_path_stats {
	u32 tx_pkts;
	u32 retransmits;
	u32 losses;
	u32 timeouts;
	u32 ecn_marks;
	u32 trims;
	u32 probes_sent;
	u32 probes_ok;
	u32 probes_failed;
};

/**
 * struct mrc_path - one entry (EV) of the table.
 * @ev: the 32-bit entropy value (see MRC_PATH_EV_INDEX_BITS).
 * @cfg_id: opaque id of the configured path it came from.
 * @plane: plane number (0..31).
 * @state: enum mrc_path_state.
 * @reason: enum mrc_path_reason of the last transition.
 * @flags: enum mrc_path_flags.
 * @fails: consecutive failures (saturates at 255).
 * @successes: consecutive answered probes (saturates at 255).
 * @probe_backoff: doublings of the probe interval (failed probes in a row
 *	while ASSUMED_BAD, at most MRC_PATH_PROBE_BACKOFF_MAX; late answers
 *	raise it up to MRC_PATH_PROBE_LATE_MAX).
 * @flap_level: flaps in a row (at most MRC_PATH_FLAP_MAX): doublings of
 *	the probe interval while ASSUMED_BAD, on top of @probe_backoff.
 * @silent_seq: the table's @heard_seq when a timeout last counted against
 *	the path without proof (see mrc_path_on_timeout()): one such failure
 *	per silence of the peer.
 * @drop_run: packets on the path the local stack dropped in a row (soft
 *	refusals, mrc_path_on_tx_refused()), none of its packets leaving
 *	(mrc_path_on_tx_left()) or heard of in between; at MRC_PATH_DROP_RUN
 *	the path is out.
 * @drops: losses and timeouts since the path was last GOOD (reported in
 *	events; saturates at 65535, which keeps the entry at 96 bytes).
 * @tx_seq: per-path sequence number of the next packet sent on it.
 * @ack_seq: per-path sequence number expected in the next acknowledgment.
 * @srtt_us: smoothed RTT of the path in microseconds (0: no sample).
 * @skip_until: end of the SKIP period (SKIP only).
 * @suspect_since: while the path is suspect (GOOD with
 *	@MRC_PATHF_SUSPECT), when the packet that made it suspect was sent:
 *	the start of its silence.
 * @probe_sent: while a probe is out on an ASSUMED_BAD or BACKUP path (no
 *	SKIP period then: it shares @skip_until's place), when it was sent
 *	(mrc_path_probe_stamp()): an answer that echoes another time is late,
 *	for an earlier probe.
 * @next_probe: when the next probe is due (ASSUMED_BAD and BACKUP; for a
 *	path in use, see MRC_PATHF_REV_CTRL).
 * @last_heard: last SACK, NACK or probe answer on the path.
 * @returned_at: when the path last came back into use from ASSUMED_BAD,
 *	in units of 1024 ns (wrapping; 0: it has not since it last failed): a
 *	failure soon after is a flap. 32 bits keep the entry small; a wrap
 *	(every 73 minutes) can at worst count one flap too many.
 * @stats: counters.
 */
struct mrc_path {
	u32 ev;
	u32 cfg_id;
	u8 plane;
	u8 state;
	u8 reason;
	u8 flags;
	u8 fails;
	u8 successes;
	u8 probe_backoff;
	u8 flap_level;
	u8 silent_seq;
	u8 drop_run;
	u16 drops;
	u32 tx_seq;
	u32 ack_seq;
	u32 srtt_us;
	union {
		mrc_time_t skip_until;
		mrc_time_t probe_sent;
		mrc_time_t suspect_since;
	};
	mrc_time_t next_probe;
	mrc_time_t last_heard;
	struct mrc_path_stats stats;
	u32 returned_at;
};

/**
 * struct mrc_path_event - one state change, reported to the caller.
 * @index: table index of the path.
 * @ev: its EV.
 * @cfg_id: its configured path.
 * @plane: its plane.
 * @old_state: enum mrc_path_state before.
 * @new_state: enum mrc_path_state after.
 * @reason: enum mrc_path_reason.
 * @drops: losses and timeouts since the path was last GOOD.
 */
struct mrc_path_event {
	u32 index;
	u32 ev;
	u32 cfg_id;
	u8 plane;
	u8 old_state;
	u8 new_state;
	u8 reason;
	u32 drops;
};

/**
 * struct mrc_path_notify - where state changes go.
 * @event: called once per transition, in order, under the caller's lock;
 *	must not call back into the table. Also called, with old_state =
 *	new_state, when an ASSUMED_BAD path is found to be out because of a
 *	link that just went down (its reason changes). May be NULL.
 * @ctx: passed to @event.
 */
struct mrc_path_notify {
	void (*event)(void *ctx, const struct mrc_path_event *ev);
	void *ctx;
};

/**
 * struct mrc_path_cand - a candidate path offered to mrc_path_build().
 * @cfg_id: opaque id of the configured path.
 * @ev_count: how many EVs it can provide: 1 for an SRv6 path (each EV
 *	is its own route), many for an entropy path (ECMP picks by EV).
 * @plane: plane number (0..31); others are ignored.
 */
struct mrc_path_cand {
	u32 cfg_id;
	u32 ev_count;
	u8 plane;
};

/**
 * struct mrc_prng - tiny deterministic PRNG (splitmix64).
 * @state: the state; any value is a valid seed.
 */
struct mrc_prng {
	u64 state;
};

/**
 * struct mrc_path_table - the EV set of one connection.
 * @paths: entries (caller storage, @capacity of them).
 * @order: rotation order, a permutation of 0..@count-1 (caller storage,
 *	@capacity entries).
 * @capacity: size of both arrays.
 * @limit: most EVs mrc_path_build() puts in the set, with the policy's
 *	max_paths: @capacity unless mrc_path_set_limit() said more (a table
 *	sized for exactly the EVs its candidates offer still shares the
 *	policy's number of EVs between the planes).
 * @count: entries in use.
 * @cursor: next position in @order.
 * @rotations: completed rotations since the last reshuffle.
 * @rtx_cursor: next position in @order for retransmissions
 *	(mrc_path_pick_rtx()).
 * @plane_down: bitmap of local planes that are down.
 * @peer_down: bitmap of planes whose port on the peer is down.
 * @target: active paths wanted per plane (set by mrc_path_build()).
 * @pol: copy of the failure policy.
 * @notify: event sink.
 * @rng: PRNG of the table (reshuffles).
 * @ecn_marks: SACKs carrying SKIP_ONCE, on every path ever in the table
 *	(the per-path counters wrap and leave with their path).
 * @probes_timeout: probes that went unanswered, on every path.
 * @probes_answered: probes answered (the path is alive), on every path.
 * @flaps: flaps (see MRC_PATH_FLAP_WINDOW), on every path.
 * @pkt_too_big: paths taken out by mrc_path_on_pkt_too_big().
 * @rev_probes: reverse-liveness probes sent, on every path.
 * @answered_sent: send time of the latest-sent packet of ours the peer is
 *	known to have received and answered: data it acknowledged
 *	(mrc_path_on_delivered()) or a reverse-liveness probe. An unanswered
 *	reverse probe blames its path only once something sent after it was
 *	answered.
 * @heard_seq: counts SACKs, NACKs and probe answers (wrapping), for
 *	@silent_seq.
 * @tx_refused: paths taken out by mrc_path_on_tx_refused().
 * @probes_stale: probe answers that echoed an earlier probe's send time
 *	(mrc_path_probe_answered()), not counted as answers.
 * @suspect_ns: the connection's RTO (not backed off), which it keeps here:
 *	a suspect path silent for twice that since the packet that made it
 *	suspect left, and at least that since the suspicion, is taken out
 *	(mrc_path_suspect()); 0: evidence acts at once.
 * @suspects: suspicions (mrc_path_suspect()), on every path.
 * @suspects_cleared: suspicions that ended with the path heard from.
 * @rev_suspects: paths made suspect by a lost SACK of ours
 *	(mrc_path_on_ctrl_lost()).
 */
struct mrc_path_table {
	struct mrc_path *paths;
	u16 *order;
	u32 capacity;
	u32 limit;
	u32 count;
	u32 cursor;
	u32 rotations;
	u32 rtx_cursor;
	u32 plane_down;
	u32 peer_down;
	u16 target[MRC_PATH_MAX_PLANES];
	struct mrc_policy pol;
	struct mrc_path_notify notify;
	struct mrc_prng rng;
	u64 ecn_marks;
	u64 probes_timeout;
	u64 probes_answered;
	u64 flaps;
	u64 pkt_too_big;
	u64 rev_probes;
	mrc_time_t answered_sent;
	u8 heard_seq;
	u64 tx_refused;
	u64 probes_stale;
	u64 suspect_ns;
	u64 suspects;
	u64 suspects_cleared;
	u64 rev_suspects;
};

/**
 * mrc_prng_seed() - seed a PRNG.
 * @r: PRNG.
 * @seed: any value.
 */
void mrc_prng_seed(struct mrc_prng *r, u64 seed);

/**
 * mrc_prng_next() - next 64 random bits.
 * @r: PRNG.
 *
 * Return: the next value of the splitmix64 sequence.
 */
u64 mrc_prng_next(struct mrc_prng *r);

/**
 * mrc_prng_below() - uniform-ish value below a bound, without division.
 * @r: PRNG.
 * @n: bound (> 0).
 *
 * Return: a value in [0, @n).
 */
u32 mrc_prng_below(struct mrc_prng *r, u32 n);

/**
 * mrc_path_table_init() - set up an empty table over caller storage.
 * @t: table.
 * @paths: @capacity entries.
 * @order: @capacity u16 for the rotation order.
 * @capacity: entries available (<= MRC_PATH_MAX_ENTRIES).
 * @pol: failure policy, copied.
 * @notify: event sink, copied (NULL: no events).
 *
 * Return: 0, or -EINVAL if @capacity is 0 or too large.
 */
int mrc_path_table_init(struct mrc_path_table *t, struct mrc_path *paths,
			u16 *order, u32 capacity,
			const struct mrc_policy *pol,
			const struct mrc_path_notify *notify);

/**
 * mrc_path_set_policy() - switch to another policy (the knobs take effect
 * at the next event; the EV set is not rebuilt).
 * @t: table.
 * @pol: policy, copied.
 */
void mrc_path_set_policy(struct mrc_path_table *t,
			 const struct mrc_policy *pol);

/**
 * mrc_path_set_limit() - how many EVs mrc_path_build() may choose.
 * @t: table.
 * @limit: the connection's max_paths, which may exceed the table's
 *	capacity when the candidates are known to offer fewer EVs: the
 *	planes' shares are then computed as for @limit entries.
 */
static inline void mrc_path_set_limit(struct mrc_path_table *t, u32 limit)
{
	t->limit = limit ? limit : t->capacity;
}

/**
 * mrc_path_build() - choose the EV set from the candidate paths.
 * @t: initialised table (any previous set is discarded).
 * @cand: candidates, in any order.
 * @ncand: number of candidates.
 * @rng: caller's seeded PRNG; the table also seeds its own from it.
 * @now: current time.
 *
 * Each plane with candidates gets an equal share of min(max_paths,
 * limit) EVs, drawn uniformly at random among its candidates' EVs
 * (fewer if it has fewer, and never more than the table holds); of each
 * plane's share, policy.backups (but never all of it) become BACKUP and
 * the rest GOOD. No events are sent.
 *
 * Return: number of entries, or -ENETUNREACH if no candidate can provide
 * an EV.
 */
int mrc_path_build(struct mrc_path_table *t, const struct mrc_path_cand *cand,
		   u32 ncand, struct mrc_prng *rng, mrc_time_t now);

/**
 * mrc_path_lookup_ev() - find the entry of a reflected EV.
 * @t: table.
 * @ev: an EV, as a SACK or NACK reflects it (all 32 bits).
 *
 * Return: the index, or -ENOENT if no entry has that EV.
 */
int mrc_path_lookup_ev(const struct mrc_path_table *t, u32 ev);

/**
 * mrc_path_pick() - the path for the next packet.
 * @t: table.
 * @now: current time (SKIP periods that ended return to GOOD).
 * @exclude: index to avoid (where a retransmitted packet was lost), or -1.
 *
 * Walks the rotation order from where it stopped and returns the next
 * GOOD path other than @exclude, so that every GOOD path is used once per
 * rotation. If there is none, falls back to a SKIP path, then to @exclude
 * itself. ASSUMED_BAD, DENIED and BACKUP paths are never returned.
 *
 * Return: index, or -ENOENT if no path is usable at all.
 */
int mrc_path_pick(struct mrc_path_table *t, mrc_time_t now, int exclude);

/**
 * mrc_path_pick_rtx() - the path for a retransmission.
 * @t: table.
 * @now: current time.
 * @exclude: index to avoid (where the packet was lost), or -1.
 *
 * As mrc_path_pick(), with a rotation of its own: were retransmissions to
 * take turns in the rotation of new data and control packets, a steady
 * pattern (one retransmission and one SACK per timeout, say) could give
 * every turn of one path to the SACKs, and no retransmission would ever
 * use that path, even when it is the only one left that works.
 *
 * Return: index, or -ENOENT if no path is usable at all.
 */
int mrc_path_pick_rtx(struct mrc_path_table *t, mrc_time_t now, int exclude);

/**
 * mrc_path_pick_heard() - the path for an answer to the peer's probe, or
 * to a retransmission of data we had (the peer missed our SACK): the
 * usable path (GOOD or SKIP, its link up) heard from most recently, a
 * trusted one (GOOD, not suspect either way) if any was heard.
 * @t: table.
 *
 * A probe tests the peer's path to us; its answer must not be lost on a
 * path of ours that is dead in our direction and not yet found out (it
 * would make the peer blame its own working path). A retransmission of
 * what we had says our SACK was lost; its answer must not be lost too
 * (the peer's timer would back off once more). The freshest path is
 * the one best proven to carry our packets.
 *
 * Return: an index, or -ENOENT if no path is usable or none was heard.
 */
int mrc_path_pick_heard(const struct mrc_path_table *t);

/**
 * mrc_path_on_tx() - a packet is being sent on a path.
 * @t: table.
 * @idx: path index.
 * @rtx: it is a retransmission.
 *
 * Return: the packet's per-path sequence number, for expected-PSN loss
 * detection (store it with the packet; see mrc_path_on_acked_seq()).
 */
u32 mrc_path_on_tx(struct mrc_path_table *t, u32 idx, bool rtx);

/**
 * mrc_path_on_acked_seq() - the packet with per-path sequence @seq on
 * path @idx was acknowledged.
 * @t: table.
 * @idx: path index.
 * @seq: the number mrc_path_on_tx() returned for that packet.
 *
 * A path delivers in order, so packets sent on it before @seq and not yet
 * acknowledged are lost (the caller confirms with its scoreboard and calls
 * mrc_path_on_loss() for each).
 *
 * Return: how many per-path sequence numbers were skipped (0 in order,
 * also 0 for an old or duplicate @seq).
 */
u32 mrc_path_on_acked_seq(struct mrc_path_table *t, u32 idx, u32 seq);

/**
 * mrc_path_on_sack() - a SACK reflected the EV of path @idx.
 * @t: table.
 * @idx: path index.
 * @now: current time.
 * @mark: enum mrc_path_mark of the SACK.
 *
 * The path delivered: its failure count restarts. SKIP_ONCE (the peer saw
 * CE) is counted on any path and skips a GOOD path for policy.skip_ns, or
 * extends a SKIP (if policy.ecn_response); ALWAYS_SKIP makes it
 * ASSUMED_BAD at once.
 */
void mrc_path_on_sack(struct mrc_path_table *t, u32 idx, mrc_time_t now,
		      u32 mark);

/**
 * mrc_path_on_trim() - a NACK TRIMMED or TRIMMED_LASTHOP on path @idx.
 * @t: table.
 * @idx: path index.
 * @now: current time.
 * @last_hop: TRIMMED_LASTHOP (incast at the receiver): no penalty.
 */
void mrc_path_on_trim(struct mrc_path_table *t, u32 idx, mrc_time_t now,
		      bool last_hop);

/**
 * mrc_path_on_loss() - a packet sent on path @idx was lost.
 * @t: table.
 * @idx: path index.
 * @now: current time.
 *
 * Counts toward policy.fail_to_bad consecutive failures.
 */
void mrc_path_on_loss(struct mrc_path_table *t, u32 idx, mrc_time_t now);

/**
 * mrc_path_on_pkt_too_big() - a packet sent on path @idx was too big for a
 * link of the path (ICMPv6 packet-too-big whose MTU cannot carry the
 * connection's data packets, checked by the caller).
 * @t: table.
 * @idx: path index.
 * @now: current time.
 *
 * A path in use or in the backup set becomes ASSUMED_BAD at once with
 * reason PKT_TOO_BIG (no fail_to_bad: the error names the path and the
 * cause); its probes, as large as the data, then keep it out while the
 * link stays small. On an ASSUMED_BAD path the outstanding probe has
 * failed. DENIED paths and paths held out by their link are left alone.
 *
 * Return: true if the path was taken out (counted in @t->pkt_too_big).
 */
bool mrc_path_on_pkt_too_big(struct mrc_path_table *t, u32 idx,
			     mrc_time_t now);

/**
 * mrc_path_on_tx_left() - a data packet sent on path @idx left this host
 * (the local stack took it): the path's run of drops (see
 * MRC_PATH_DROP_RUN) is broken.
 * @t: table.
 * @idx: path index.
 */
void mrc_path_on_tx_left(struct mrc_path_table *t, u32 idx);

/**
 * mrc_path_on_tx_refused() - the local stack refused a packet sent on
 * path @idx: it never left (no route, device down, a filter or the
 * device dropped it).
 * @t: table.
 * @idx: path index.
 * @hard: the route or the device refused it (an error, not a full queue):
 *	proof that the path cannot carry anything now.
 * @now: current time.
 *
 * A hard refusal makes a path in use or in the backup set ASSUMED_BAD at
 * once with reason TX_REFUSED, and a refused probe of an ASSUMED_BAD or
 * BACKUP path has failed. A drop (NET_XMIT_DROP: a full queue, or a
 * filter) is congestion until proven otherwise: it changes no state and
 * fails no probe (the probe goes again at its next interval), until the
 * path has dropped MRC_PATH_DROP_RUN packets in a row, none of its
 * packets leaving or heard of in between; then it counts as a hard
 * refusal. Probes bring
 * the path back, like any failed path. DENIED paths and paths held out
 * by their link are left alone.
 *
 * Return: true if the path was taken out (counted in @t->tx_refused).
 */
bool mrc_path_on_tx_refused(struct mrc_path_table *t, u32 idx, bool hard,
			    mrc_time_t now);

/**
 * enum mrc_path_loss_proof - what later deliveries say about a packet whose
 * timer expired (the sender's scoreboard knows: mrc_tx_delivered_since()).
 * @MRC_LOSS_UNPROVEN: nothing sent after it has reached the peer, on any
 *	path: the peer (or this host) may just have stalled.
 * @MRC_LOSS_PATH_WORKS: a packet sent after it on the same path arrived:
 *	the path works, this one packet was lost.
 * @MRC_LOSS_PATH_SILENT: packets sent after it arrived on other paths,
 *	none on this one.
 */
enum mrc_path_loss_proof {
	MRC_LOSS_UNPROVEN,
	MRC_LOSS_PATH_WORKS,
	MRC_LOSS_PATH_SILENT,
};

/**
 * mrc_path_suspect() - a packet sent on path @idx is missing in a way that
 * a late path shows as well as a dead one: packets sent after it, on other
 * paths, were acknowledged, and nothing has been heard on @idx since it
 * left (a SACK gap, or a timeout proven MRC_LOSS_PATH_SILENT).
 * @t: table.
 * @idx: path index.
 * @now: current time.
 * @sent_ns: when the missing packet was sent.
 * @timeout: the packet's timer expired (else a SACK gap showed the loss).
 *
 * Counted as mrc_path_on_timeout() or mrc_path_on_loss() counts it, and
 * where either would take a GOOD path out, it becomes suspect instead: no
 * new packet on it while another path is GOOD, no event. A word from the
 * path (a late packet's SACK: a duplicate is acknowledged at once), a
 * timeout proven MRC_LOSS_PATH_WORKS, or mrc_path_clear_suspect() before
 * 2 x @suspect_ns (two RTOs) have passed since @sent_ns clears it;
 * silence that long takes it out, with the reason of the evidence
 * (mrc_path_tick()); other losses and timeouts meanwhile only count. A
 * path whose packets queue for up to an RTO longer than their timer then
 * stays in use; a dead one carries nothing more either way, and is
 * reported out an RTO after its timer expired (or two RTOs after the
 * packet left, when SACK gaps showed it sooner). A SKIP path, and any
 * path with @suspect_ns 0, is treated as mrc_path_on_timeout() or
 * mrc_path_on_loss() would.
 *
 * Return: the time of the verdict, if the path is suspect; 0 otherwise.
 */
mrc_time_t mrc_path_suspect(struct mrc_path_table *t, u32 idx,
			    mrc_time_t now, mrc_time_t sent_ns, bool timeout);

/**
 * mrc_path_clear_suspect() - the connection saw path @idx deliver a packet
 * sent at or after its @suspect_since (the scoreboard acknowledged it, by
 * a SACK that named another path): it is alive, no longer suspect.
 * @t: table.
 * @idx: path index.
 */
void mrc_path_clear_suspect(struct mrc_path_table *t, u32 idx);

/**
 * mrc_path_next_verdict() - when the earliest suspect path's verdict is
 * due (mrc_path_tick() gives it).
 * @t: table.
 *
 * Return: that time, or 0 if no path is suspect.
 */
mrc_time_t mrc_path_next_verdict(const struct mrc_path_table *t);

/**
 * mrc_path_on_timeout() - the timer of a packet sent on path @idx expired.
 * @t: table.
 * @idx: path index.
 * @now: current time.
 * @proof: enum mrc_path_loss_proof.
 *
 * A path silent while later packets arrive on others (PATH_SILENT)
 * becomes ASSUMED_BAD at once; a lost packet on a working path counts as
 * a failure. Without proof (UNPROVEN: on a busy machine every path's
 * packets time out together when the peer stalls) it counts as a failure
 * only once per silence of the peer (until something is heard on any
 * path), so a stall alone never takes a path out with the default
 * fail_to_bad of 2.
 */
void mrc_path_on_timeout(struct mrc_path_table *t, u32 idx, mrc_time_t now,
			 u8 proof);

/**
 * mrc_path_on_delivered() - the peer acknowledged a packet of ours sent at
 * @sent_at (data: mrc_tx_delivered_since()), so it answers what it gets:
 * a reverse-liveness probe sent before that and still unanswered was lost
 * (see struct mrc_path_table, @answered_sent).
 * @t: table.
 * @sent_at: send time of the latest-sent packet the peer acknowledged.
 */
void mrc_path_on_delivered(struct mrc_path_table *t, mrc_time_t sent_at);

/**
 * mrc_path_on_rtt() - an RTT sample of path @idx (per-path RTT).
 * @t: table.
 * @idx: path index.
 * @rtt_ns: the sample.
 */
void mrc_path_on_rtt(struct mrc_path_table *t, u32 idx, u64 rtt_ns);

/**
 * mrc_path_probe_poll() - which paths to probe now.
 * @t: table.
 * @now: current time.
 * @out: indices of the paths to probe now.
 * @max: room in @out.
 * @next: set to when to call again (MRC_PATH_NEVER: nothing to probe).
 *
 * ASSUMED_BAD paths are probed every policy.probe_interval_ns and BACKUP
 * paths MRC_PATH_BACKUP_PROBE_MULT times less often, never sooner than
 * MRC_PATH_PROBE_RTT_MULT smoothed RTTs of the path; each failed probe of
 * an ASSUMED_BAD path doubles its interval (MRC_PATH_PROBE_BACKOFF_MAX
 * times at most) until a probe is answered. Paths held out by a
 * down plane or peer port are not probed. A probe still unanswered when
 * the next one is due has failed (a BACKUP that fails policy.fail_to_bad
 * probes in a row becomes ASSUMED_BAD). The returned paths are recorded
 * as probed: send one probe on each.
 *
 * Return: number of indices written to @out.
 */
u32 mrc_path_probe_poll(struct mrc_path_table *t, mrc_time_t now, u16 *out,
			u32 max, mrc_time_t *next);

/**
 * mrc_path_on_ctrl_tx() - one of our SACKs or NACKs is being sent on
 * path @idx.
 * @t: table.
 * @idx: path index.
 * @now: current time.
 *
 * Nothing comes back for a SACK: unless the path is heard from (a SACK or
 * NACK of our own data sent on it, a probe answer), its reverse-liveness
 * probe falls due MRC_PATH_REV_MULT probe intervals after the first one.
 *
 * Return: when that probe may fall due if this packet started the wait,
 * else MRC_PATH_NEVER (nothing new to schedule).
 */
mrc_time_t mrc_path_on_ctrl_tx(struct mrc_path_table *t, u32 idx,
			       mrc_time_t now);

/**
 * mrc_path_on_ctrl_lost() - a SACK of ours that left on path @idx at
 * @sent_ns never reached the peer: the peer resent data it covered, long
 * after the SACK should have arrived.
 * @t: table.
 * @idx: path index.
 * @sent_ns: when the SACK left.
 * @now: current time.
 *
 * Unless the path was heard from since @sent_ns (it carried something of
 * ours then), a path in use becomes reverse-suspect
 * (@MRC_PATHF_REV_SUSPECT): mrc_path_pick() and mrc_path_pick_heard()
 * pass it over while a trusted path is left, so our next SACKs do not
 * follow the lost one, and its reverse-liveness probe is due now instead
 * of MRC_PATH_REV_MULT probe intervals after our first SACK on it. Its
 * answer clears the suspicion; policy.fail_to_bad unanswered ones take
 * the path out (PROBE_FAIL), as for any reverse probe. No state change,
 * no event: a SACK lost to a random drop costs a probe.
 *
 * Return: when that probe is due, or MRC_PATH_NEVER if none is needed.
 */
mrc_time_t mrc_path_on_ctrl_lost(struct mrc_path_table *t, u32 idx,
				 mrc_time_t sent_ns, mrc_time_t now);

/**
 * mrc_path_reverse_poll() - reverse-liveness probes due now.
 * @t: table.
 * @now: current time.
 * @out: indices of the paths to probe now.
 * @max: room in @out.
 * @next: set to when to call again (MRC_PATH_NEVER: nothing pending).
 *
 * A path in use (GOOD or SKIP) that has carried our SACKs or NACKs and
 * heard nothing back for MRC_PATH_REV_MULT probe intervals is probed,
 * one probe outstanding at a time, no sooner than the probe interval
 * (with the path's flap backoff and RTT floor, as other probes) after the
 * last. A probe still unanswered then has failed; policy.fail_to_bad
 * failures in a row make the path ASSUMED_BAD (reason PROBE_FAIL), and
 * the ordinary probes bring it back. A path heard from needs no probe,
 * and one that carries nothing is never probed. The returned paths are
 * recorded as probed: send one probe on each. Answers go to
 * mrc_path_probe_answered() as for other probes.
 *
 * Return: number of indices written to @out.
 */
u32 mrc_path_reverse_poll(struct mrc_path_table *t, mrc_time_t now, u16 *out,
			  u32 max, mrc_time_t *next);

/**
 * mrc_path_reverse_answered() - a probe answer reflecting path @idx came
 * back: if it answers a reverse-liveness probe, sample the path's RTT.
 * @t: table.
 * @idx: path index.
 * @now: current time.
 *
 * Call before mrc_path_probe_answered(). The answer travels behind the
 * peer's data, so under load it takes far longer than the fabric's RTT:
 * the sample keeps the probe's deadline (2 smoothed RTTs at least) from
 * failing paths that merely answer slowly.
 */
void mrc_path_reverse_answered(struct mrc_path_table *t, u32 idx,
			       mrc_time_t now);

/**
 * mrc_path_probe_stamp() - the probe the table asked for on path @idx
 * (mrc_path_probe_poll()) is being sent now.
 * @t: table.
 * @idx: path index.
 * @now: the send time the probe carries.
 */
void mrc_path_probe_stamp(struct mrc_path_table *t, u32 idx, mrc_time_t now);

/**
 * mrc_path_probe_sent_at() - when the outstanding probe of an ASSUMED_BAD
 * or BACKUP path @idx was sent (mrc_path_probe_stamp()).
 * @t: table.
 * @idx: path index.
 *
 * Return: the time, or 0 when no such probe is out (a path in use: its
 * reverse-liveness probes are matched by what the peer answered since,
 * see mrc_path_reverse_answered()).
 */
mrc_time_t mrc_path_probe_sent_at(const struct mrc_path_table *t, u32 idx);

/**
 * mrc_path_probe_answered() - a probe on path @idx was answered.
 * @t: table.
 * @idx: path index.
 * @now: current time.
 * @mark: enum mrc_path_mark of the answer.
 * @stale: the answer echoes the send time of an earlier probe, not of the
 *	outstanding one (it came late, or a fanned copy came after the next
 *	probe left): counted in @t->probes_stale; on an ASSUMED_BAD path
 *	with no answer in time since it failed, it doubles the probe
 *	interval once more (MRC_PATH_PROBE_LATE_MAX), and nothing else
 *	changes.
 *
 * Answers with no probe outstanding are ignored. An answer in time is an
 * RTT sample of the path (the floor of its probe interval). After
 * policy.success_to_good answers in a row (one per probe interval) an
 * ASSUMED_BAD path returns: GOOD (or SKIP if answered SKIP_ONCE) if its
 * plane is short of active paths, else BACKUP (reason RETIRED). An
 * ALWAYS_SKIP answer counts as a failed probe. A SKIP_ONCE answer, even a
 * stale one, counts as an ECN mark and acts on a path in use as in
 * mrc_path_on_sack().
 */
void mrc_path_probe_answered(struct mrc_path_table *t, u32 idx,
			     mrc_time_t now, u32 mark, bool stale);

/**
 * mrc_path_probe_lost() - a probe on path @idx is known to be lost.
 * @t: table.
 * @idx: path index.
 * @now: current time.
 *
 * Optional: mrc_path_probe_poll() declares unanswered probes lost itself.
 */
void mrc_path_probe_lost(struct mrc_path_table *t, u32 idx, mrc_time_t now);

/**
 * mrc_path_probe_unsent() - the probe mrc_path_probe_poll() asked for on
 * path @idx was not sent (the namespace's probe budget was spent).
 * @t: path table.
 * @idx: path index.
 * @now: current time.
 * @retry_ns: wait at least this long before the next probe (the budget's
 *	refill, spread by the caller).
 *
 * Nothing is outstanding and nothing counts against the path: it is
 * probed again one probe interval (with its backoff), or @retry_ns if
 * longer, later. A held-back
 * reverse-liveness probe is not counted in @t->rev_probes either.
 */
void mrc_path_probe_unsent(struct mrc_path_table *t, u32 idx,
			   mrc_time_t now, u64 retry_ns);

/**
 * mrc_path_probe_fresh() - would an answer received at @at do for the
 * probe of path @idx due now?
 * @t: path table.
 * @idx: path index.
 * @now: current time.
 * @at: when the answer came (0: none).
 *
 * Return: true when @at is less than the path's own probe interval (with
 * its state's multiplier and backoff) old.
 */
bool mrc_path_probe_fresh(const struct mrc_path_table *t, u32 idx,
			  mrc_time_t now, mrc_time_t at);

/**
 * mrc_path_set_plane() - the local plane went down or came up.
 * @t: table.
 * @plane: plane number.
 * @up: new state.
 * @now: current time.
 *
 * Down: every GOOD or SKIP path of the plane becomes ASSUMED_BAD
 * (PLANE_DOWN) at once and is not probed. Up: those paths return (GOOD,
 * or BACKUP if the plane is full) unless the peer's port is still down.
 */
void mrc_path_set_plane(struct mrc_path_table *t, u32 plane, bool up,
			mrc_time_t now);

/**
 * mrc_path_set_peer_ports() - the peer reported its port status.
 * @t: table.
 * @up_mask: bit p set when the peer's port of plane p is up.
 * @now: current time.
 *
 * Like mrc_path_set_plane() for each plane whose bit changed, with
 * reasons PEER_PORT_DOWN / PEER_PORT_UP.
 */
void mrc_path_set_peer_ports(struct mrc_path_table *t, u32 up_mask,
			     mrc_time_t now);

/**
 * mrc_path_set_denied() - the controller denies or allows path @idx.
 * @t: table.
 * @idx: path index.
 * @deny: true to deny, false to allow.
 * @now: current time.
 *
 * Return: 0, -ENOENT for a bad index, -EPERM to allow a removed path.
 */
int mrc_path_set_denied(struct mrc_path_table *t, u32 idx, bool deny,
			mrc_time_t now);

/**
 * mrc_path_set_cfg_denied() - deny or allow every EV of a configured path.
 * @t: table.
 * @cfg_id: configured path.
 * @deny: true to deny, false to allow.
 * @now: current time.
 *
 * Return: number of entries changed.
 */
u32 mrc_path_set_cfg_denied(struct mrc_path_table *t, u32 cfg_id, bool deny,
			    mrc_time_t now);

/**
 * mrc_path_remove_cfg() - a configured path was deleted.
 * @t: table.
 * @cfg_id: configured path.
 * @now: current time.
 *
 * Its EVs become DENIED (PATH_REMOVED) for good and are replaced.
 *
 * Return: number of entries removed.
 */
u32 mrc_path_remove_cfg(struct mrc_path_table *t, u32 cfg_id,
			mrc_time_t now);

/**
 * mrc_path_tick() - housekeeping: end SKIP periods that are over, and
 * give suspect paths their verdict when it is due (mrc_path_suspect()).
 * @t: table.
 * @now: current time.
 *
 * mrc_path_pick() does this lazily; call this before reporting states.
 */
void mrc_path_tick(struct mrc_path_table *t, mrc_time_t now);

/**
 * mrc_path_count_states() - paths per state (for MRC_INFO).
 * @t: table.
 * @counts: filled with the number of paths in each enum mrc_path_state.
 */
void mrc_path_count_states(const struct mrc_path_table *t,
			   u32 counts[__MRC_PATH_STATE_MAX]);

/**
 * mrc_path_active() - paths in use (GOOD or SKIP).
 * @t: table.
 *
 * Return: their number.
 */
u32 mrc_path_active(const struct mrc_path_table *t);

#ifdef __cplusplus
}
#endif

#endif /* _MRC_PATH_H */
