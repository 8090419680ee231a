/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Receive credit (flow control) of one connection.
 *
 * The receiver places every packet at its stream offset on arrival, so
 * it can only accept bytes it has room for. It advertises a limit: the
 * absolute stream offset the sender may send up to (exclusive), which is
 * what the application has consumed plus the receive buffer. Offsets are
 * u64 byte counts from the start of the stream: they never wrap.
 *
 * Silly-window avoidance on both sides:
 * - the receiver moves its advertised limit only by a meaningful step
 *   (the SWS threshold), so a slow reader does not make the sender send
 *   dribbles; the limit never moves backwards, even if the buffer shrinks;
 * - the sender sends a short packet only if it finishes what is queued or
 *   the peer's whole buffer is smaller than a packet.
 *
 * A window update that the sender may be waiting for is sent explicitly
 * (mrc_credit_rx_read() says when); any other update rides on SACKs.
 */
#ifndef _MRC_CREDIT_H
#define _MRC_CREDIT_H

#include "mrc_core_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct mrc_credit_rx - receiver side.
 * @rcvbuf: receive buffer size in bytes.
 * @rcvbuf_max: the size announced in the handshake, which @rcvbuf never
 *	exceeds.
 * @mss: payload bytes of a full packet.
 * @consumed: stream offset up to which the application has read.
 * @received: highest stream offset received (end of the furthest byte).
 * @advertised: last limit advertised to the peer.
 */
struct mrc_credit_rx {
	u64 rcvbuf;
	u64 rcvbuf_max;
	u32 mss;
	u64 consumed;
	u64 received;
	u64 advertised;
};

/**
 * struct mrc_credit_tx - sender side.
 * @limit: the peer's advertised limit (absolute stream offset).
 * @peer_rcvbuf: the peer's buffer size, from the handshake.
 * @mss: payload bytes of a full packet.
 * @updates: window updates that moved the limit.
 * @stale: updates ignored because they did not move it (reordered or old).
 * @bogus: updates ignored because no receiver could have granted them
 *	(beyond the acknowledged offset plus the peer's buffer): forged, or
 *	a broken peer.
 */
struct mrc_credit_tx {
	u64 limit;
	u64 peer_rcvbuf;
	u32 mss;
	u64 updates;
	u64 stale;
	u64 bogus;
};

/**
 * mrc_credit_rx_init() - start the receiver side.
 * @rx: receiver credit state.
 * @rcvbuf: buffer size in bytes (> 0).
 * @mss: payload bytes of a full packet (> 0).
 *
 * The initial limit (sent in the handshake) is @rcvbuf.
 */
void mrc_credit_rx_init(struct mrc_credit_rx *rx, u64 rcvbuf, u32 mss);

/**
 * mrc_credit_rx_sws() - the silly-window threshold.
 * @rx: receiver credit state.
 *
 * Return: the smallest step by which the advertised limit moves:
 * min(rcvbuf / 2, max(mss, rcvbuf / 8)), at least 1.
 */
u64 mrc_credit_rx_sws(const struct mrc_credit_rx *rx);

/**
 * mrc_credit_rx_accept() - may a packet be placed?
 * @rx: receiver credit state.
 * @offset: stream offset of its first byte.
 * @len: payload length.
 *
 * Records the furthest byte received when the packet is accepted.
 *
 * Return: true if [@offset, @offset + @len) lies below the advertised
 * limit, false if the sender overran its credit (drop the packet).
 */
bool mrc_credit_rx_accept(struct mrc_credit_rx *rx, u64 offset, u32 len);

/**
 * mrc_credit_rx_read() - the application consumed bytes.
 * @rx: receiver credit state.
 * @bytes: bytes read.
 *
 * Return: true if a window update must be sent now: the window would open
 * by at least the SWS threshold and the sender has less than that left
 * (it may be blocked and is not going to send the data that would carry
 * a SACK). Otherwise the next SACK carries the update.
 */
bool mrc_credit_rx_read(struct mrc_credit_rx *rx, u64 bytes);

/**
 * mrc_credit_rx_advertise() - the limit to put in an outgoing packet.
 * @rx: receiver credit state.
 *
 * Moves the advertised limit to consumed + rcvbuf if that opens it by at
 * least the SWS threshold (or to exactly that when everything received
 * has been read), and records it.
 *
 * Return: the limit to advertise (never smaller than before).
 */
u64 mrc_credit_rx_advertise(struct mrc_credit_rx *rx);

/**
 * mrc_credit_rx_set_rcvbuf() - the buffer size changed (SO_RCVBUF).
 * @rx: receiver credit state.
 * @rcvbuf: new size (> 0). A smaller buffer takes effect as the
 *	application reads: the advertised limit never retreats. A larger
 *	one is capped at the size the handshake announced: the sender
 *	ignores any limit beyond it (mrc_credit_tx_update()).
 */
void mrc_credit_rx_set_rcvbuf(struct mrc_credit_rx *rx, u64 rcvbuf);

/**
 * mrc_credit_tx_init() - start the sender side.
 * @tx: sender credit state.
 * @limit: the peer's initial limit (its buffer size, from the handshake).
 * @peer_rcvbuf: the peer's buffer size.
 * @mss: payload bytes of a full packet (> 0).
 */
void mrc_credit_tx_init(struct mrc_credit_tx *tx, u64 limit,
			u64 peer_rcvbuf, u32 mss);

/**
 * mrc_credit_tx_update() - a window update or a SACK carried a limit.
 * @tx: sender credit state.
 * @limit: the advertised limit.
 * @acked_off: stream offset the peer has acknowledged cumulatively (with
 *	this update counted). A receiver advertises what its application
 *	consumed plus its buffer, and it cannot have consumed what it has
 *	not acknowledged: a limit beyond @acked_off + peer_rcvbuf is bogus
 *	and ignored, so a forged update cannot switch flow control off.
 *
 * Return: true if the window grew (a blocked sender may resume).
 */
bool mrc_credit_tx_update(struct mrc_credit_tx *tx, u64 limit, u64 acked_off);

/**
 * mrc_credit_tx_plausible() - could a receiver ever have granted @limit?
 * Counts a @limit it could not (@bogus), whatever SACK carried it: a
 * reordered or replayed old SACK carries no larger limit than a fresh one
 * could, so one that does is forged or broken.
 * @tx: sender credit state.
 * @limit: the advertised limit.
 * @acked_off: stream offset the peer has acknowledged cumulatively so far.
 *
 * Return: false (counted) when @limit is beyond @acked_off + peer_rcvbuf.
 */
bool mrc_credit_tx_plausible(struct mrc_credit_tx *tx, u64 limit,
			     u64 acked_off);

/**
 * mrc_credit_tx_avail() - bytes the peer can take beyond @snd_nxt.
 * @tx: sender credit state.
 * @snd_nxt: stream offset of the next new byte to send.
 *
 * Return: limit - @snd_nxt, or 0 if the window is closed.
 */
u64 mrc_credit_tx_avail(const struct mrc_credit_tx *tx, u64 snd_nxt);

/**
 * mrc_credit_tx_sendable() - payload of the next new packet.
 * @tx: sender credit state.
 * @snd_nxt: stream offset of the next new byte.
 * @queued: bytes queued by the application and not sent yet.
 *
 * Sender-side silly-window avoidance: a packet shorter than the mss goes
 * out only if it carries everything queued or the peer's whole buffer is
 * smaller than an mss.
 *
 * Return: bytes to put in the next packet (<= mss), 0 to wait for credit.
 */
u32 mrc_credit_tx_sendable(const struct mrc_credit_tx *tx, u64 snd_nxt,
			   u64 queued);

#ifdef __cplusplus
}
#endif

#endif /* _MRC_CREDIT_H */
