/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pluggable congestion control: one window in bytes per connection, over
 * every path its packets take. An algorithm is a const ops table; its
 * state lives in the fixed-size private area of struct mrc_cc, which the
 * connection embeds (no allocation). Algorithms are found by name.
 *
 * Built in: "nscc" (default; Ultra Ethernet NSCC in integer arithmetic,
 * ECN as the leading signal and queueing delay against a target as the
 * lagging one) and "fixed" (a constant window, for tests).
 * Documentation/congestion-control.md describes both.
 */
#ifndef _MRC_CC_H
#define _MRC_CC_H

#include "mrc_core_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Longest algorithm name, with its NUL. */
#define MRC_CC_NAME_MAX		16
/* Private state of an algorithm, in u64 words. */
#define MRC_CC_PRIV_WORDS	32
/* Fractions (gamma, fi_scale, max_md_jump) are in 1/1024. */
#define MRC_CC_FRAC_SHIFT	10
#define MRC_CC_FRAC_ONE		BIT(MRC_CC_FRAC_SHIFT)
/* Largest receiver penalty (rcv_cwnd_pen). */
#define MRC_CC_RCV_PEN_MAX	127

/**
 * struct mrc_cc_params - knobs of congestion control (all integers).
 * @mtu: payload bytes of a full packet; also the smallest window.
 * @base_rtt_ns: round trip of an empty network; NSCC lowers it to the
 *	smallest RTT it measures.
 * @target_delay_ns: queueing delay NSCC aims for (delay = RTT - base_rtt).
 * @max_cwnd: largest window in bytes (UEC: 1.5 x BDP).
 * @init_cwnd: window at start in bytes; the constant window of "fixed".
 * @eta: bytes added once per adjust period while increasing.
 * @fi: fair increase: bytes per RTT when delay is above target.
 * @pi: proportional increase: bytes per RTT at zero delay, scaled down
 *	linearly to 0 at the target delay.
 * @fi_scale: fast increase on a clear path, in 1/1024 of the acked bytes.
 * @gamma: multiplicative decrease strength, in 1/1024.
 * @max_md_jump: largest fraction of the window one decrease removes, in
 *	1/1024.
 * @adjust_bytes_threshold: acked bytes after which pending increases are
 *	applied.
 * @adjust_period_ns: time after which pending increases are applied.
 * @qa_gate: quick adapt fires only if less than max_cwnd >> @qa_gate was
 *	delivered in the last window (0..31).
 * @qa_threshold_ns: delay beyond which quick adapt fires on its own.
 */
struct mrc_cc_params {
	u32 mtu;
	u64 base_rtt_ns;
	u64 target_delay_ns;
	u64 max_cwnd;
	u64 init_cwnd;
	u32 eta;
	u32 fi;
	u32 pi;
	u32 fi_scale;
	u32 gamma;
	u32 max_md_jump;
	u32 adjust_bytes_threshold;
	u64 adjust_period_ns;
	u32 qa_gate;
	u64 qa_threshold_ns;
};

/**
 * struct mrc_cc_ack - one acknowledgment as congestion control sees it.
 * @now: arrival time.
 * @rtt_ns: RTT of the acknowledged packet, 0 if none can be attributed.
 * @inflight: bytes still in flight once the acknowledged ones are not.
 * @acked_bytes: payload bytes newly acknowledged.
 * @rcv_pen: receiver penalty rcv_cwnd_pen from CC_STATE (0..127).
 * @ecn: the acknowledged packet was ECN-marked (ECN echo).
 */
struct mrc_cc_ack {
	mrc_time_t now;
	u64 rtt_ns;
	u64 inflight;
	u32 acked_bytes;
	u8 rcv_pen;
	bool ecn;
};

struct mrc_cc;

/**
 * struct mrc_cc_ops - a congestion control algorithm.
 * @name: name users select it by.
 * @init: set up the private state from @p at @now.
 * @on_ack: an acknowledgment arrived.
 * @on_loss: @bytes were declared lost (timeout, SACK gap or per-path
 *	expected PSN): quick adapt.
 * @on_trim: a NACK reported @bytes trimmed; @last_hop for TRIMMED_LASTHOP.
 * @cwnd: current window in bytes (>= mtu).
 */
struct mrc_cc_ops {
	const char *name;
	void (*init)(struct mrc_cc *cc, const struct mrc_cc_params *p,
		     mrc_time_t now);
	void (*on_ack)(struct mrc_cc *cc, const struct mrc_cc_ack *ack);
	void (*on_loss)(struct mrc_cc *cc, u32 bytes, u64 inflight,
			mrc_time_t now);
	void (*on_trim)(struct mrc_cc *cc, u32 bytes, u64 inflight,
			mrc_time_t now, bool last_hop);
	u64 (*cwnd)(const struct mrc_cc *cc);
};

/**
 * struct mrc_cc - congestion control of one connection.
 * @ops: the algorithm.
 * @priv: its private state (algorithms check their size at build time).
 */
struct mrc_cc {
	const struct mrc_cc_ops *ops;
	u64 priv[MRC_CC_PRIV_WORDS];
};

extern const struct mrc_cc_ops mrc_cc_nscc_ops;
extern const struct mrc_cc_ops mrc_cc_fixed_ops;

/**
 * mrc_cc_find() - look an algorithm up by name.
 * @name: NUL-terminated name; NULL or "" selects the default ("nscc").
 *
 * Return: the ops table, or NULL if no algorithm has that name.
 */
const struct mrc_cc_ops *mrc_cc_find(const char *name);

/**
 * mrc_cc_name() - name of the algorithm at @idx, for listing.
 * @idx: 0, 1, ...
 *
 * Return: the name, or NULL past the last algorithm.
 */
const char *mrc_cc_name(u32 idx);

/**
 * mrc_cc_params_default() - defaults scaled to a network.
 * @p: parameters to fill.
 * @mtu: payload bytes of a full packet (> 0).
 * @base_rtt_ns: round trip of the empty network (> 0).
 * @rate_bps: bottleneck rate in bits per second (> 0), e.g. the sum of
 *	the planes' link speeds.
 *
 * The UEC constants are defined on a reference network (100 Gb/s, 12 us,
 * BDP 150 kB) and scaled by BDP / reference BDP; see
 * Documentation/congestion-control.md.
 */
void mrc_cc_params_default(struct mrc_cc_params *p, u32 mtu,
			   u64 base_rtt_ns, u64 rate_bps);

/**
 * mrc_cc_params_validate() - check parameters.
 * @p: parameters.
 * @msg: if not NULL, set to a static message naming the bad field.
 *
 * Return: 0 if valid, -EINVAL otherwise.
 */
int mrc_cc_params_validate(const struct mrc_cc_params *p, const char **msg);

/**
 * mrc_cc_init() - start congestion control.
 * @cc: state to set up.
 * @ops: algorithm (NULL selects the default).
 * @p: valid parameters.
 * @now: current time.
 */
void mrc_cc_init(struct mrc_cc *cc, const struct mrc_cc_ops *ops,
		 const struct mrc_cc_params *p, mrc_time_t now);

/**
 * mrc_cc_on_ack() - feed an acknowledgment.
 * @cc: congestion control state.
 * @ack: the acknowledgment.
 */
static inline void mrc_cc_on_ack(struct mrc_cc *cc,
				 const struct mrc_cc_ack *ack)
{
	cc->ops->on_ack(cc, ack);
}

/**
 * mrc_cc_on_loss() - feed a declared loss.
 * @cc: congestion control state.
 * @bytes: bytes lost.
 * @inflight: bytes in flight, the lost ones excluded.
 * @now: current time.
 */
static inline void mrc_cc_on_loss(struct mrc_cc *cc, u32 bytes, u64 inflight,
				  mrc_time_t now)
{
	cc->ops->on_loss(cc, bytes, inflight, now);
}

/**
 * mrc_cc_on_trim() - feed a trim NACK.
 * @cc: congestion control state.
 * @bytes: bytes trimmed.
 * @inflight: bytes in flight, the trimmed ones excluded.
 * @now: current time.
 * @last_hop: the NACK reason was TRIMMED_LASTHOP.
 */
static inline void mrc_cc_on_trim(struct mrc_cc *cc, u32 bytes, u64 inflight,
				  mrc_time_t now, bool last_hop)
{
	cc->ops->on_trim(cc, bytes, inflight, now, last_hop);
}

/**
 * mrc_cc_cwnd() - the current window.
 * @cc: congestion control state.
 *
 * Return: bytes that may be in flight.
 */
static inline u64 mrc_cc_cwnd(const struct mrc_cc *cc)
{
	return cc->ops->cwnd(cc);
}

#ifdef __cplusplus
}
#endif

#endif /* _MRC_CC_H */
