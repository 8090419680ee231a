// SPDX-License-Identifier: GPL-2.0
/*
 * NSCC (Ultra Ethernet network-signal congestion control) with integer
 * arithmetic only.
 *
 * One window per connection. Each acknowledgment falls in one of four
 * quadrants of (ECN echo, queueing delay vs target):
 *
 *              delay < target            delay >= target
 *   no ECN     proportional increase     fair increase
 *   ECN        hold                      multiplicative decrease
 *
 * ECN is the leading signal (a queue is building somewhere), delay the
 * lagging one (it has built up on this connection's packets). A mark
 * with a low delay is left to path selection: the marked path is skipped
 * and the window holds. On loss or trim, and when the delay explodes,
 * quick adapt resets the window to what was actually delivered in the
 * last round trip. The receiver can cap the window with rcv_cwnd_pen.
 *
 * Increases accumulate in inc_bytes (bytes x bytes) and are applied as
 * inc_bytes / cwnd once enough bytes were acked or a period passed, so
 * the window grows by a fixed number of bytes per round trip whatever its
 * size: that is what makes competing windows converge.
 */
#include "mrc_cc.h"
#ifdef __KERNEL__
#include <linux/build_bug.h>
#else
#include <assert.h>
#endif

/**
 * struct mrc_nscc - NSCC state (private to this file).
 * @p: parameters.
 * @cwnd: window in bytes.
 * @base_rtt: smallest RTT seen (starts at the configured one).
 * @avg_delay: queueing delay averaged over about one base RTT.
 * @last_delay_time: time of the last delay sample.
 * @achieved_bytes: bytes acked since quick adapt last looked.
 * @received_bytes: bytes acked since increases were last applied.
 * @fi_count: bytes acked in a row on a clear path (fast increase).
 * @inc_bytes: pending increase numerator, applied as inc_bytes / cwnd.
 * @qa_endtime: when quick adapt next looks at achieved_bytes.
 * @bytes_to_ignore: marks of this many bytes after quick adapt are stale.
 * @bytes_ignored: bytes acked since quick adapt fired.
 * @last_adjust_time: when the last adjust period started.
 * @last_dec_time: time of the last multiplicative decrease.
 * @trigger_qa: a loss or trim asks quick adapt to act at its next look.
 * @increase_mode: fast increase is active.
 */
struct mrc_nscc {
	struct mrc_cc_params p;
	u64 cwnd;
	u64 base_rtt;
	u64 avg_delay;
	mrc_time_t last_delay_time;
	u64 achieved_bytes;
	u64 received_bytes;
	u64 fi_count;
	u64 inc_bytes;
	mrc_time_t qa_endtime;
	u64 bytes_to_ignore;
	u64 bytes_ignored;
	mrc_time_t last_adjust_time;
	mrc_time_t last_dec_time;
	bool trigger_qa;
	bool increase_mode;
};

static_assert(sizeof(struct mrc_nscc) <= sizeof(((struct mrc_cc *)0)->priv),
	      "NSCC state too large");

static struct mrc_nscc *mrc_nscc(struct mrc_cc *cc)
{
	return (struct mrc_nscc *)cc->priv;
}

/* Never below one packet: the window must let something through. */
static u64 mrc_nscc_floor(const struct mrc_nscc *n, u64 cwnd)
{
	return cwnd > n->p.mtu ? cwnd : n->p.mtu;
}

static void mrc_nscc_init(struct mrc_cc *cc, const struct mrc_cc_params *p,
			  mrc_time_t now)
{
	struct mrc_nscc *n = mrc_nscc(cc);

	n->p = *p;
	n->base_rtt = p->base_rtt_ns;
	n->cwnd = min(mrc_nscc_floor(n, p->init_cwnd), p->max_cwnd);
	n->last_delay_time = now;
	n->last_adjust_time = now;
	n->last_dec_time = now;
	n->qa_endtime = now + n->base_rtt + p->target_delay_ns;
}

static void mrc_nscc_shrink(struct mrc_nscc *n, u64 bytes)
{
	n->cwnd = n->cwnd > bytes + n->p.mtu ? n->cwnd - bytes : n->p.mtu;
}

/* Average delay over about one base RTT: each sample weighs dt/base_rtt. */
static void mrc_nscc_update_delay(struct mrc_nscc *n, u64 delay,
				  mrc_time_t now)
{
	u64 dt = now > n->last_delay_time ? now - n->last_delay_time : 0;

	n->last_delay_time = now;
	if (dt >= n->base_rtt) {
		n->avg_delay = delay;
	} else if (delay > n->avg_delay) {
		n->avg_delay += mrc_div64((delay - n->avg_delay) * dt,
					  n->base_rtt);
	} else {
		n->avg_delay -= mrc_div64((n->avg_delay - delay) * dt,
					  n->base_rtt);
	}
}

/* The receiver holds the window down: no growth, shrink by pen/128. */
static bool mrc_nscc_rcv_penalty(struct mrc_nscc *n, u32 pen, u32 bytes,
				 u64 inflight)
{
	if (!pen)
		return false;
	if (pen > MRC_CC_RCV_PEN_MAX)
		pen = MRC_CC_RCV_PEN_MAX;
	n->cwnd = mrc_nscc_floor(n, min(n->cwnd, inflight));
	mrc_nscc_shrink(n, ((u64)pen * bytes) >> 7);
	return true;
}

/*
 * Quick adapt: once per (base RTT + target delay), if a loss, a trim or an
 * exploding delay says the window is far too large, and less than
 * max_cwnd >> qa_gate was delivered meanwhile, set the window to what was
 * delivered. Marks on the bytes already in flight then say nothing new.
 */
static bool mrc_nscc_quick_adapt(struct mrc_nscc *n, bool loss, bool marked,
				 u64 delay, u64 inflight, mrc_time_t now)
{
	bool handled = false;
	bool slow;

	if (marked && n->bytes_ignored < n->bytes_to_ignore) {
		handled = true;
	} else if (now >= n->qa_endtime) {
		slow = n->trigger_qa || loss ||
		       (n->p.qa_threshold_ns && delay > n->p.qa_threshold_ns);
		if (slow && n->achieved_bytes < (n->p.max_cwnd >> n->p.qa_gate)) {
			n->cwnd = mrc_nscc_floor(n, n->achieved_bytes);
			n->bytes_to_ignore = inflight;
			n->bytes_ignored = 0;
			n->trigger_qa = false;
			handled = true;
		}
		n->achieved_bytes = 0;
		n->qa_endtime = now + n->base_rtt + n->p.target_delay_ns;
	}
	if (handled) {
		n->inc_bytes = 0;
		n->received_bytes = 0;
	}
	return handled;
}

/*
 * Fast increase: after a window's worth of bytes acked on a clear path
 * (delay under 1/8 of the target: jitter-tolerant version of UEC's
 * "delay ~= 0"), grow by fi_scale of every acked byte.
 */
static bool mrc_nscc_fast_increase(struct mrc_nscc *n, u32 bytes, u64 delay)
{
	if (delay <= n->p.target_delay_ns >> 3) {
		n->fi_count += bytes;
		if (n->fi_count > n->cwnd || n->increase_mode) {
			n->cwnd += ((u64)bytes * n->p.fi_scale) >>
				   MRC_CC_FRAC_SHIFT;
			n->cwnd = min(n->cwnd, n->p.max_cwnd);
			n->increase_mode = true;
			return true;
		}
	} else {
		n->fi_count = 0;
	}
	n->increase_mode = false;
	return false;
}

/*
 * Multiplicative decrease, at most once per base RTT (the next RTT's
 * delays do not reflect it yet), by gamma x (avg - target) / avg, capped
 * at max_md_jump.
 */
static void mrc_nscc_decrease(struct mrc_nscc *n, mrc_time_t now)
{
	u64 cut;

	n->increase_mode = false;
	n->fi_count = 0;
	if (n->avg_delay <= n->p.target_delay_ns ||
	    now - n->last_dec_time <= n->base_rtt)
		return;
	cut = mrc_div64((u64)n->p.gamma *
			(n->avg_delay - n->p.target_delay_ns), n->avg_delay);
	if (cut > n->p.max_md_jump)
		cut = n->p.max_md_jump;
	n->cwnd -= (n->cwnd * cut) >> MRC_CC_FRAC_SHIFT;
	n->cwnd = mrc_nscc_floor(n, n->cwnd);
	n->last_dec_time = now;
}

static void mrc_nscc_fulfill(struct mrc_nscc *n, bool increase,
			     mrc_time_t now)
{
	n->cwnd += mrc_div64(n->inc_bytes, n->cwnd);
	if (now - n->last_adjust_time >= n->p.adjust_period_ns) {
		n->last_adjust_time = now;
		if (increase)
			n->cwnd += n->p.eta;
	}
	n->cwnd = min(n->cwnd, n->p.max_cwnd);
	n->inc_bytes = 0;
	n->received_bytes = 0;
}

static void mrc_nscc_on_ack(struct mrc_cc *cc, const struct mrc_cc_ack *a)
{
	struct mrc_nscc *n = mrc_nscc(cc);
	u64 target = n->p.target_delay_ns;
	bool increase;
	u64 delay;

	n->bytes_ignored += a->acked_bytes;
	n->received_bytes += a->acked_bytes;
	n->achieved_bytes += a->acked_bytes;
	increase = !mrc_nscc_rcv_penalty(n, a->rcv_pen, a->acked_bytes,
					 a->inflight) && !a->ecn;
	if (!a->rtt_ns)
		return;
	n->base_rtt = min(n->base_rtt, a->rtt_ns);
	delay = a->rtt_ns - n->base_rtt;
	mrc_nscc_update_delay(n, delay, a->now);
	if (mrc_nscc_quick_adapt(n, false, a->ecn, delay, a->inflight, a->now))
		return;

	if (increase && delay >= target) {
		/* Fair increase: fi bytes per RTT, the same for everyone. */
		n->inc_bytes += (u64)n->p.fi * a->acked_bytes;
	} else if (increase) {
		/* Proportional increase: pi bytes per RTT at zero delay. */
		if (!mrc_nscc_fast_increase(n, a->acked_bytes, delay))
			n->inc_bytes += mrc_div64((u64)n->p.pi *
						  (target - delay), target) *
					a->acked_bytes;
	} else if (a->ecn && delay >= target) {
		mrc_nscc_decrease(n, a->now);
	}
	/* ECN below the target delay: hold, path selection moves traffic. */

	if (a->now - n->last_adjust_time >= n->p.adjust_period_ns ||
	    n->received_bytes > n->p.adjust_bytes_threshold)
		mrc_nscc_fulfill(n, increase, a->now);
}

static void mrc_nscc_on_loss(struct mrc_cc *cc, u32 bytes, u64 inflight,
			     mrc_time_t now)
{
	struct mrc_nscc *n = mrc_nscc(cc);

	n->trigger_qa = true;
	if (!mrc_nscc_quick_adapt(n, true, false, 0, inflight, now))
		mrc_nscc_shrink(n, bytes);
	n->bytes_ignored += bytes;
}

/*
 * A trim met a full queue. Last-hop trims are treated the same: MRC for
 * Linux has no receiver-driven last-hop control besides rcv_cwnd_pen, so
 * the window must react to incast. (The path is not blamed: that is the
 * path table's business.)
 */
static void mrc_nscc_on_trim(struct mrc_cc *cc, u32 bytes, u64 inflight,
			     mrc_time_t now, bool last_hop)
{
	struct mrc_nscc *n = mrc_nscc(cc);

	mrc_nscc_update_delay(n, n->p.target_delay_ns, now);
	n->bytes_ignored += bytes;
	n->trigger_qa = true;
	if (!mrc_nscc_quick_adapt(n, true, true, 0, inflight, now))
		mrc_nscc_shrink(n, bytes);
}

static u64 mrc_nscc_cwnd(const struct mrc_cc *cc)
{
	return ((const struct mrc_nscc *)cc->priv)->cwnd;
}

const struct mrc_cc_ops mrc_cc_nscc_ops = {
	.name = "nscc",
	.init = mrc_nscc_init,
	.on_ack = mrc_nscc_on_ack,
	.on_loss = mrc_nscc_on_loss,
	.on_trim = mrc_nscc_on_trim,
	.cwnd = mrc_nscc_cwnd,
};
