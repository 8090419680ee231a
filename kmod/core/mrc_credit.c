// SPDX-License-Identifier: GPL-2.0
/*
 * Receive credit: advertised limit, silly-window avoidance, update rule.
 */
#include "mrc_credit.h"

void mrc_credit_rx_init(struct mrc_credit_rx *rx, u64 rcvbuf, u32 mss)
{
	memset(rx, 0, sizeof(*rx));
	rx->rcvbuf = rcvbuf ? rcvbuf : 1;
	rx->rcvbuf_max = rx->rcvbuf;
	rx->mss = mss ? mss : 1;
	rx->advertised = rx->rcvbuf;
}

u64 mrc_credit_rx_sws(const struct mrc_credit_rx *rx)
{
	u64 step = rx->rcvbuf >> 3;

	if (step < rx->mss)
		step = rx->mss;
	step = min(step, rx->rcvbuf >> 1);
	return step ? step : 1;
}

bool mrc_credit_rx_accept(struct mrc_credit_rx *rx, u64 offset, u32 len)
{
	u64 end = offset + len;

	if (end < offset || end > rx->advertised)
		return false;
	rx->received = max(rx->received, end);
	return true;
}

/* The limit the buffer allows now, never below what was promised. */
static u64 mrc_credit_rx_open_limit(const struct mrc_credit_rx *rx)
{
	return max(rx->consumed + rx->rcvbuf, rx->advertised);
}

bool mrc_credit_rx_read(struct mrc_credit_rx *rx, u64 bytes)
{
	u64 sws = mrc_credit_rx_sws(rx);
	u64 left;

	rx->consumed = min(rx->consumed + bytes, rx->received);
	if (mrc_credit_rx_open_limit(rx) - rx->advertised < sws)
		return false;
	/* Credit the sender still holds: beyond it, it is stalled. */
	left = rx->advertised > rx->received ? rx->advertised - rx->received :
					       0;
	return left < sws;
}

u64 mrc_credit_rx_advertise(struct mrc_credit_rx *rx)
{
	u64 open = mrc_credit_rx_open_limit(rx);

	if (open - rx->advertised >= mrc_credit_rx_sws(rx) ||
	    (rx->consumed == rx->received && open > rx->advertised))
		rx->advertised = open;
	return rx->advertised;
}

void mrc_credit_rx_set_rcvbuf(struct mrc_credit_rx *rx, u64 rcvbuf)
{
	if (!rcvbuf)
		rcvbuf = 1;
	rx->rcvbuf = min(rcvbuf, rx->rcvbuf_max);
}

void mrc_credit_tx_init(struct mrc_credit_tx *tx, u64 limit,
			u64 peer_rcvbuf, u32 mss)
{
	memset(tx, 0, sizeof(*tx));
	tx->limit = limit;
	tx->peer_rcvbuf = peer_rcvbuf;
	tx->mss = mss ? mss : 1;
}

bool mrc_credit_tx_plausible(struct mrc_credit_tx *tx, u64 limit,
			     u64 acked_off)
{
	if (limit <= acked_off + tx->peer_rcvbuf)
		return true;
	tx->bogus++;
	return false;
}

bool mrc_credit_tx_update(struct mrc_credit_tx *tx, u64 limit, u64 acked_off)
{
	if (!mrc_credit_tx_plausible(tx, limit, acked_off))
		return false;
	/* Updates travel on many paths: an older one may arrive last. */
	if (limit <= tx->limit) {
		tx->stale++;
		return false;
	}
	tx->limit = limit;
	tx->updates++;
	return true;
}

u64 mrc_credit_tx_avail(const struct mrc_credit_tx *tx, u64 snd_nxt)
{
	return tx->limit > snd_nxt ? tx->limit - snd_nxt : 0;
}

u32 mrc_credit_tx_sendable(const struct mrc_credit_tx *tx, u64 snd_nxt,
			   u64 queued)
{
	u64 avail = mrc_credit_tx_avail(tx, snd_nxt);
	u64 n = min(avail, queued);

	if (n > tx->mss)
		n = tx->mss;
	if (!n)
		return 0;
	if (n == tx->mss || n == queued || avail >= tx->peer_rcvbuf)
		return (u32)n;
	return 0;
}
