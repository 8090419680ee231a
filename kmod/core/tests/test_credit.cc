// SPDX-License-Identifier: GPL-2.0
// Receive credit: limit, zero window, reopen, silly-window avoidance.
#include <gtest/gtest.h>

#include <algorithm>

#include "mrc_credit.h"

namespace {

constexpr u32 kMss = 1000;
constexpr u64 kBuf = 64000;

struct mrc_credit_rx Rx(u64 buf = kBuf, u32 mss = kMss)
{
	struct mrc_credit_rx rx;

	mrc_credit_rx_init(&rx, buf, mss);
	return rx;
}

struct mrc_credit_tx Tx(u64 limit = kBuf, u64 buf = kBuf, u32 mss = kMss)
{
	struct mrc_credit_tx tx;

	mrc_credit_tx_init(&tx, limit, buf, mss);
	return tx;
}

} // namespace

TEST(CreditRx, InitialLimitIsBuffer)
{
	struct mrc_credit_rx rx = Rx();

	EXPECT_EQ(rx.advertised, kBuf);
	EXPECT_EQ(mrc_credit_rx_advertise(&rx), kBuf);
}

TEST(CreditRx, SwsThreshold)
{
	struct mrc_credit_rx rx = Rx();

	EXPECT_EQ(mrc_credit_rx_sws(&rx), kBuf / 8); // large buffer
	rx = Rx(4000, 1000);
	EXPECT_EQ(mrc_credit_rx_sws(&rx), 1000U); // one mss
	rx = Rx(1500, 1000);
	EXPECT_EQ(mrc_credit_rx_sws(&rx), 750U); // half a tiny buffer
	rx = Rx(1, 1000);
	EXPECT_EQ(mrc_credit_rx_sws(&rx), 1U);
	rx = Rx(0, 0); // clamped to 1
	EXPECT_EQ(rx.rcvbuf, 1U);
	EXPECT_EQ(rx.mss, 1U);
}

TEST(CreditRx, AcceptWithinLimitOnly)
{
	struct mrc_credit_rx rx = Rx();

	EXPECT_TRUE(mrc_credit_rx_accept(&rx, 0, kMss));
	EXPECT_TRUE(mrc_credit_rx_accept(&rx, kBuf - kMss, kMss));
	EXPECT_EQ(rx.received, kBuf);
	EXPECT_FALSE(mrc_credit_rx_accept(&rx, kBuf - kMss + 1, kMss));
	EXPECT_FALSE(mrc_credit_rx_accept(&rx, kBuf, 1));
	EXPECT_FALSE(mrc_credit_rx_accept(&rx, ~0ULL - 10, 100)) << "overflow";
	EXPECT_TRUE(mrc_credit_rx_accept(&rx, kBuf, 0));
}

TEST(CreditRx, SmallReadsDoNotMoveTheLimit)
{
	struct mrc_credit_rx rx = Rx();

	mrc_credit_rx_accept(&rx, 0, 10000);
	EXPECT_FALSE(mrc_credit_rx_read(&rx, 100));
	EXPECT_EQ(mrc_credit_rx_advertise(&rx), kBuf) << "silly window";
	EXPECT_FALSE(mrc_credit_rx_read(&rx, kBuf / 8 - 100));
	EXPECT_EQ(mrc_credit_rx_advertise(&rx), kBuf + kBuf / 8);
}

TEST(CreditRx, EverythingReadAdvertisesFully)
{
	struct mrc_credit_rx rx = Rx();

	mrc_credit_rx_accept(&rx, 0, 100);
	mrc_credit_rx_read(&rx, 100);
	EXPECT_EQ(mrc_credit_rx_advertise(&rx), kBuf + 100);
}

TEST(CreditRx, ReadCannotPassReceived)
{
	struct mrc_credit_rx rx = Rx();

	mrc_credit_rx_accept(&rx, 0, 500);
	mrc_credit_rx_read(&rx, 10000);
	EXPECT_EQ(rx.consumed, 500U);
}

TEST(CreditRx, ZeroWindowReopenForcesUpdate)
{
	struct mrc_credit_rx rx = Rx();

	// The sender filled the whole window: zero window.
	for (u64 off = 0; off < kBuf; off += kMss)
		ASSERT_TRUE(mrc_credit_rx_accept(&rx, off, kMss));
	EXPECT_FALSE(mrc_credit_rx_accept(&rx, kBuf, 1));
	// A small read: not worth an update yet.
	EXPECT_FALSE(mrc_credit_rx_read(&rx, kMss));
	// Enough to open by the SWS threshold: the blocked sender needs it.
	EXPECT_TRUE(mrc_credit_rx_read(&rx, kBuf / 8));
	u64 lim = mrc_credit_rx_advertise(&rx);

	EXPECT_EQ(lim, kBuf + kMss + kBuf / 8);
	EXPECT_TRUE(mrc_credit_rx_accept(&rx, kBuf, kMss));
	// Already advertised: no second forced update for the same bytes.
	EXPECT_FALSE(mrc_credit_rx_read(&rx, 0));
}

TEST(CreditRx, NoForcedUpdateWhileSenderHasCredit)
{
	struct mrc_credit_rx rx = Rx();

	mrc_credit_rx_accept(&rx, 0, 20000); // 44000 of credit left
	EXPECT_FALSE(mrc_credit_rx_read(&rx, 20000)) << "rides on SACKs";
	EXPECT_EQ(mrc_credit_rx_advertise(&rx), kBuf + 20000);
}

TEST(CreditRx, ShrinkingBufferNeverRetracts)
{
	struct mrc_credit_rx rx = Rx();

	mrc_credit_rx_set_rcvbuf(&rx, 1000);
	EXPECT_EQ(mrc_credit_rx_advertise(&rx), kBuf);
	mrc_credit_rx_accept(&rx, 0, 30000);
	mrc_credit_rx_read(&rx, 30000);
	EXPECT_EQ(mrc_credit_rx_advertise(&rx), kBuf);
	mrc_credit_rx_accept(&rx, 30000, 34000);
	mrc_credit_rx_read(&rx, 34000);
	EXPECT_EQ(mrc_credit_rx_advertise(&rx), kBuf + 1000);
	mrc_credit_rx_set_rcvbuf(&rx, 0);
	EXPECT_EQ(rx.rcvbuf, 1U);
}

TEST(CreditTx, AvailAndZeroWindow)
{
	struct mrc_credit_tx tx = Tx();

	EXPECT_EQ(mrc_credit_tx_avail(&tx, 0), kBuf);
	EXPECT_EQ(mrc_credit_tx_avail(&tx, kBuf), 0U);
	EXPECT_EQ(mrc_credit_tx_avail(&tx, kBuf + 5), 0U);
	EXPECT_EQ(mrc_credit_tx_sendable(&tx, kBuf, 5000), 0U);
}

TEST(CreditTx, UpdatesOnlyMoveForward)
{
	struct mrc_credit_tx tx = Tx();

	EXPECT_TRUE(mrc_credit_tx_update(&tx, kBuf + 8000, 8000));
	EXPECT_FALSE(mrc_credit_tx_update(&tx, kBuf + 4000, 8000)) << "reordered";
	EXPECT_FALSE(mrc_credit_tx_update(&tx, kBuf + 8000, 8000)) << "duplicate";
	EXPECT_EQ(tx.limit, kBuf + 8000);
	EXPECT_EQ(tx.updates, 1U);
	EXPECT_EQ(tx.stale, 2U);
	EXPECT_EQ(tx.bogus, 0U);
}

// A receiver grants what its application consumed plus its buffer, and
// consumed no more than it acknowledged: a larger limit is forged (or
// the peer is broken), and taking it would switch flow control off.
TEST(CreditTx, LimitBeyondWhatThePeerCouldGrantIsIgnored)
{
	struct mrc_credit_tx tx = Tx();

	EXPECT_FALSE(mrc_credit_tx_update(&tx, kBuf + 8001, 8000));
	EXPECT_FALSE(mrc_credit_tx_update(&tx, ~0ULL, 8000));
	EXPECT_EQ(tx.limit, kBuf) << "unchanged";
	EXPECT_EQ(tx.bogus, 2U);
	EXPECT_EQ(tx.updates, 0U);
	EXPECT_TRUE(mrc_credit_tx_update(&tx, kBuf + 8000, 8000))
	    << "exactly the most it could grant";
}

TEST(CreditRx, BufferNeverGrowsPastTheHandshake)
{
	struct mrc_credit_rx rx = Rx(10000, kMss);

	mrc_credit_rx_set_rcvbuf(&rx, 50000);
	EXPECT_EQ(rx.rcvbuf, 10000U) << "the sender would ignore a larger limit";
	mrc_credit_rx_set_rcvbuf(&rx, 4000);
	EXPECT_EQ(rx.rcvbuf, 4000U);
	mrc_credit_rx_set_rcvbuf(&rx, 0);
	EXPECT_EQ(rx.rcvbuf, 1U);
	mrc_credit_rx_set_rcvbuf(&rx, 20000);
	EXPECT_EQ(rx.rcvbuf, 10000U);
}

TEST(CreditTx, SendableFullPackets)
{
	struct mrc_credit_tx tx = Tx();

	EXPECT_EQ(mrc_credit_tx_sendable(&tx, 0, 100000), kMss);
	EXPECT_EQ(mrc_credit_tx_sendable(&tx, 0, 0), 0U);
}

TEST(CreditTx, ShortPacketOnlyToFinishQueue)
{
	struct mrc_credit_tx tx = Tx();

	// Queue tail shorter than an mss: send it.
	EXPECT_EQ(mrc_credit_tx_sendable(&tx, 0, 300), 300U);
	// 300 bytes of credit left but more queued: silly, wait.
	EXPECT_EQ(mrc_credit_tx_sendable(&tx, kBuf - 300, 5000), 0U);
	// 300 of credit, exactly 300 queued: finishes the queue.
	EXPECT_EQ(mrc_credit_tx_sendable(&tx, kBuf - 300, 300), 300U);
}

TEST(CreditTx, TinyPeerBufferAllowsShortPackets)
{
	struct mrc_credit_tx tx = Tx(500, 500, kMss);

	EXPECT_EQ(mrc_credit_tx_sendable(&tx, 0, 5000), 500U)
	    << "whole peer buffer is below an mss: no deadlock";
	tx = Tx(500, 500, 0);
	EXPECT_EQ(tx.mss, 1U);
}

TEST(Credit, EndToEndNeverOverrunsAndNeverDeadlocks)
{
	struct mrc_credit_rx rx = Rx(10000, kMss);
	struct mrc_credit_tx tx = Tx(10000, 10000, kMss);
	u64 snd = 0, total = 1000000, app_read = 0;
	int stalls = 0;

	while (app_read < total) {
		u32 n = mrc_credit_tx_sendable(&tx, snd, total - snd);

		if (n) {
			ASSERT_TRUE(mrc_credit_rx_accept(&rx, snd, n));
			snd += n;
			continue;
		}
		// Blocked: the application reads a slow, odd amount.
		u64 r = std::min<u64>(777, rx.received - rx.consumed);

		app_read += r;
		if (mrc_credit_rx_read(&rx, r) || rx.consumed == rx.received)
			mrc_credit_tx_update(&tx, mrc_credit_rx_advertise(&rx), rx.consumed);
		ASSERT_LT(++stalls, 100000);
	}
	EXPECT_EQ(snd, total);
	EXPECT_EQ(tx.bogus, 0U) << "a real receiver's limits are never bogus";
}
