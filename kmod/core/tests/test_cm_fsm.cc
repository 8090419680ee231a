// SPDX-License-Identifier: GPL-2.0
// The connection-management state machine: handshake, retransmission,
// give-up, half-close, and every message that must be ignored.
#include <algorithm>

#include <gtest/gtest.h>

#include "mrc_cm.h"
#include "mrc_cm_fsm.h"
#include "mrc_wire.h"

namespace {

constexpr u64 kMs = 1000000ULL;
constexpr u64 kT0 = 1000 * kMs;

// One connection: its state as the glue keeps it, and the last action.
struct Conn {
	struct mrc_cm_fsm f = {};
	u8 state = MRC_ST_CLOSED;
	struct mrc_cm_act a = {};

	// Apply an action as the glue does: the new state, and the end.
	void Apply()
	{
		if (a.state)
			state = a.state;
		if (a.done)
			state = MRC_ST_CLOSED;
	}
	void Connect(u64 now, u64 budget = 0)
	{
		mrc_cm_fsm_connect(&f, now, budget, &a);
		Apply();
	}
	void Accept(u64 now)
	{
		mrc_cm_fsm_accept(&f, now, &a);
		Apply();
	}
	void Timer(u64 now, bool all_acked = true)
	{
		mrc_cm_fsm_timer(&f, state, now, all_acked, &a);
		Apply();
	}
	void Close(u64 now, bool all_acked = true)
	{
		mrc_cm_fsm_close(&f, state, now, all_acked, &a);
		Apply();
	}
	void Msg(u8 opcode, u64 now, struct mrc_cm_facts m = Peer())
	{
		m.opcode = opcode;
		mrc_cm_fsm_msg(&f, state, &m, now, &a);
		Apply();
	}
	// A message of this attempt from the peer's QPN, engine running.
	static struct mrc_cm_facts Peer()
	{
		struct mrc_cm_facts m = {};

		m.ours = true;
		m.from_peer = true;
		m.rtu_ok = true;
		m.has_conn = true;
		return m;
	}
};

bool Nothing(const struct mrc_cm_act &a)
{
	return !a.start && !a.state && !a.new_ev && !a.send && !a.rcv_shutdown && !a.accept &&
	       !a.timeout && !a.done && !a.wake && !a.timer;
}

TEST(CmFsm, ActiveHandshake)
{
	Conn c;

	c.Connect(kT0, 3000 * kMs);
	EXPECT_EQ(c.state, MRC_ST_REQ_SENT);
	EXPECT_EQ(c.a.send, MRC_OP_CM_REQ);
	EXPECT_EQ(c.a.timer, kT0 + MRC_CM_RTO_INIT_NS);
	EXPECT_EQ(c.f.deadline, kT0 + 3000 * kMs);

	c.Msg(MRC_OP_CM_REP, kT0 + kMs);
	EXPECT_TRUE(c.a.start);
	EXPECT_EQ(c.state, MRC_ST_ESTABLISHED);
	EXPECT_EQ(c.a.send, MRC_OP_CM_RTU);
	EXPECT_TRUE(c.a.wake);
	EXPECT_FALSE(c.a.accept); // the active side is nobody's child
}

TEST(CmFsm, ConnectWithoutBudgetUsesTheDefault)
{
	Conn c;

	c.Connect(kT0, 0);
	EXPECT_EQ(c.f.deadline, kT0 + MRC_CM_CONNECT_NS);
}

TEST(CmFsm, RetransmissionBacksOffOnAnotherEvUntilTheDeadline)
{
	Conn c;
	u64 now = kT0, prev_gap = 0;
	u32 sends = 0;

	c.Connect(kT0, 5000 * kMs);
	while (c.state == MRC_ST_REQ_SENT) {
		now = c.a.timer;
		ASSERT_GT(now, 0u);
		c.Timer(now);
		if (c.a.send) {
			sends++;
			EXPECT_EQ(c.a.send, MRC_OP_CM_REQ);
			EXPECT_TRUE(c.a.new_ev) << "a retry takes another path";
			u64 gap = c.f.next - now;

			EXPECT_GE(gap, prev_gap);
			EXPECT_LE(gap, MRC_CM_RTO_MAX_NS);
			prev_gap = gap;
		}
		ASSERT_LT(sends, 100u);
	}
	EXPECT_TRUE(c.a.done);
	EXPECT_TRUE(c.a.timeout);
	EXPECT_EQ(c.a.err, ETIMEDOUT);
	EXPECT_EQ(now, kT0 + 5000 * kMs) << "gives up at the deadline, not later";
	// 20, 40, 80, 160, 320 ms, then every 500 ms up to 5 s.
	EXPECT_GE(sends, 10u);
}

TEST(CmFsm, TimerBeforeDueSendsNothing)
{
	Conn c;

	c.Connect(kT0);
	c.Timer(kT0 + MRC_CM_RTO_INIT_NS - 1);
	EXPECT_EQ(c.a.send, 0);
	EXPECT_EQ(c.a.timer, kT0 + MRC_CM_RTO_INIT_NS);
}

TEST(CmFsm, PassiveIsEstablishedFromTheRtuAndConfirmsIt)
{
	Conn c;

	c.Accept(kT0);
	EXPECT_TRUE(c.a.start);
	EXPECT_TRUE(c.a.accept);
	EXPECT_EQ(c.state, MRC_ST_ESTABLISHED);
	EXPECT_EQ(c.a.send, MRC_OP_CM_REP) << "the requester stops its RTUs on it";
	EXPECT_EQ(c.a.timer, 0u) << "nothing to retransmit: the requester does";
	// A copy of the RTU (our REP was lost) is answered again, no more.
	c.Msg(MRC_OP_CM_RTU, kT0 + kMs);
	EXPECT_EQ(c.a.send, MRC_OP_CM_REP);
	EXPECT_TRUE(c.a.fan_out);
	EXPECT_FALSE(c.a.start);
	EXPECT_FALSE(c.a.accept);
	EXPECT_FALSE(c.a.state);
}

TEST(CmFsm, RtuCopyMustEchoOurKeyAndComeFromThePeer)
{
	Conn c;
	struct mrc_cm_facts m = Conn::Peer();

	c.Accept(kT0);
	m.rtu_ok = false;
	c.Msg(MRC_OP_CM_RTU, kT0, m);
	EXPECT_TRUE(Nothing(c.a));
	m = Conn::Peer();
	m.from_peer = false;
	c.Msg(MRC_OP_CM_RTU, kT0, m);
	EXPECT_TRUE(Nothing(c.a));
	EXPECT_EQ(c.state, MRC_ST_ESTABLISHED);
}

TEST(CmFsm, RtuIsRetransmittedUntilTheRepAnswersIt)
{
	Conn c;

	c.Connect(kT0);
	c.Msg(MRC_OP_CM_REP, kT0);
	EXPECT_TRUE(c.f.rtu_pending);
	EXPECT_EQ(c.a.timer, kT0 + MRC_CM_RTO_INIT_NS);
	c.Timer(kT0 + MRC_CM_RTO_INIT_NS);
	EXPECT_EQ(c.a.send, MRC_OP_CM_RTU);
	EXPECT_TRUE(c.a.new_ev);
	EXPECT_TRUE(c.a.fan_out);
	EXPECT_GT(c.a.timer, kT0 + MRC_CM_RTO_INIT_NS);
	// The accepted side's REP: answered, nothing more to send.
	c.Msg(MRC_OP_CM_REP, kT0 + 30 * kMs);
	EXPECT_TRUE(Nothing(c.a)) << "no RTU for a REP once established";
	EXPECT_FALSE(c.f.rtu_pending);
	c.Timer(kT0 + 1000 * kMs);
	EXPECT_TRUE(Nothing(c.a));
	EXPECT_EQ(c.state, MRC_ST_ESTABLISHED);
}

TEST(CmFsm, RtuRepFromAnotherQpnIsNoAnswer)
{
	Conn c;
	struct mrc_cm_facts m = Conn::Peer();

	c.Connect(kT0);
	c.Msg(MRC_OP_CM_REP, kT0);
	m.from_peer = false;
	c.Msg(MRC_OP_CM_REP, kT0 + kMs, m);
	EXPECT_TRUE(Nothing(c.a));
	EXPECT_TRUE(c.f.rtu_pending);
}

TEST(CmFsm, AnyPacketFromThePeerAnswersTheRtuButANoConnReset)
{
	Conn c;

	c.Connect(kT0);
	c.Msg(MRC_OP_CM_REP, kT0);
	// The listener has not built it yet: its NO_CONN RESET is dropped
	// and the RTU goes again at once.
	EXPECT_TRUE(mrc_cm_fsm_peer_pkt(&c.f, true, 100, &c.a));
	EXPECT_EQ(c.a.send, MRC_OP_CM_RTU);
	EXPECT_TRUE(c.a.new_ev);
	EXPECT_TRUE(c.f.rtu_pending);
	// A SACK: answered; 110 is the next PSN we send.
	EXPECT_FALSE(mrc_cm_fsm_peer_pkt(&c.f, false, 110, &c.a));
	EXPECT_TRUE(Nothing(c.a));
	EXPECT_FALSE(c.f.rtu_pending);
	// A late NO_CONN RESET for data sent before: dropped, no RTU.
	EXPECT_TRUE(mrc_cm_fsm_peer_pkt(&c.f, true, 109, &c.a));
	EXPECT_TRUE(Nothing(c.a));
	// One for data sent after is the peer's word: delivered.
	EXPECT_FALSE(mrc_cm_fsm_peer_pkt(&c.f, true, 110, &c.a));
	EXPECT_FALSE(mrc_cm_fsm_peer_pkt(&c.f, true, 5000, &c.a));
	EXPECT_FALSE(mrc_cm_fsm_peer_pkt(&c.f, true, 110 - MRC_CM_EARLY_PSNS - 1, &c.a));
	c.Timer(kT0 + MRC_CM_RTU_NS);
	EXPECT_TRUE(Nothing(c.a));
}

TEST(CmFsm, PsnGuardWrapsAround)
{
	Conn c;
	struct mrc_cm_facts m = Conn::Peer();

	c.Connect(kT0);
	c.Msg(MRC_OP_CM_REP, kT0);
	m.snd_nxt = 5; // PSNs 0xfffffa .. 4 went before the answer
	c.Msg(MRC_OP_CM_REP, kT0 + kMs, m);
	EXPECT_FALSE(c.f.rtu_pending);
	EXPECT_TRUE(mrc_cm_fsm_peer_pkt(&c.f, true, 0xfffffa, &c.a));
	EXPECT_TRUE(mrc_cm_fsm_peer_pkt(&c.f, true, 4, &c.a));
	EXPECT_FALSE(mrc_cm_fsm_peer_pkt(&c.f, true, 5, &c.a));
}

TEST(CmFsm, PeersDreqAnswersTheRtu)
{
	Conn c;

	c.Connect(kT0);
	c.Msg(MRC_OP_CM_REP, kT0);
	ASSERT_TRUE(c.f.rtu_pending);
	c.Msg(MRC_OP_CM_DREQ, kT0 + kMs);
	EXPECT_FALSE(c.f.rtu_pending) << "the peer's connection exists";
	EXPECT_EQ(c.state, MRC_ST_PEER_CLOSED);
	c.Timer(kT0 + MRC_CM_RTO_INIT_NS);
	EXPECT_NE(c.a.send, MRC_OP_CM_RTU);
}

TEST(CmFsm, UnansweredRtuTimesOut)
{
	Conn c;
	u32 sends = 0;

	c.Connect(kT0);
	c.Msg(MRC_OP_CM_REP, kT0 + kMs);
	while (c.state == MRC_ST_ESTABLISHED) {
		ASSERT_GT(c.a.timer, 0u);
		c.Timer(c.a.timer);
		sends += c.a.send == MRC_OP_CM_RTU;
		ASSERT_LT(sends, 100u);
	}
	EXPECT_TRUE(c.a.done);
	EXPECT_TRUE(c.a.timeout);
	EXPECT_EQ(c.a.err, ETIMEDOUT);
	EXPECT_GE(sends, 8u);
}

// The CM_RTU is lost, and the copy that gets through reaches a listener
// busy making other connections: it checks the cookie when the copy
// arrives and makes this connection, which answers, seconds later (the
// debug kernel's 74-idle-quiet: 40 requesters, the children made one at a
// time; 15 requesters gave up after 4 s on connections the listener then
// made). The requester waits its handshake budget (the policy's, as for
// the CM_REQ), so the late answer completes the connection.
TEST(CmFsm, RtuLostThenAnsweredLateByABusyListenerCompletes)
{
	constexpr u64 kBudget = 30000 * kMs; // a policy's timeout budget
	constexpr u64 kAnswer = 9000 * kMs;  // the listener's late answer
	Conn c;
	u64 now = kT0;
	u32 rtus = 0;

	c.Connect(kT0, kBudget);
	c.Msg(MRC_OP_CM_REP, kT0 + 10 * kMs); // the CM_RTU goes, and is lost
	ASSERT_EQ(c.a.send, MRC_OP_CM_RTU);
	ASSERT_TRUE(c.f.rtu_pending);
	u64 timer = c.a.timer; // the glue's timer: this action armed it
	// Every copy is lost or waits in the listener's queue; the first data's
	// NO_CONN RESET (the connection is not made yet) sends another.
	EXPECT_TRUE(mrc_cm_fsm_peer_pkt(&c.f, true, 7, &c.a));
	EXPECT_EQ(c.a.send, MRC_OP_CM_RTU);
	while (timer && timer < kT0 + kAnswer) {
		now = timer;
		c.Timer(now);
		timer = c.a.timer;
		rtus += c.a.send == MRC_OP_CM_RTU;
		ASSERT_EQ(c.state, MRC_ST_ESTABLISHED)
		    << "gave up " << (now - kT0) / kMs << " ms after connect()";
		ASSERT_LT(rtus, 100u);
	}
	EXPECT_GE(rtus, 20u) << "retransmitted all along";
	// The connection the listener made answers: the handshake completes.
	c.Msg(MRC_OP_CM_REP, kT0 + kAnswer);
	EXPECT_FALSE(c.f.rtu_pending);
	EXPECT_FALSE(c.a.done);
	c.Timer(kT0 + kBudget + kAnswer);
	EXPECT_TRUE(Nothing(c.a)) << "nothing more to send, no time-out";
	EXPECT_EQ(c.state, MRC_ST_ESTABLISHED);
}

TEST(CmFsm, RtuWaitsTheHandshakeBudgetButNoLessThanACookiesLife)
{
	struct Case {
		u64 budget, want;
	} cases[] = {
	    {0, MRC_CM_CONNECT_NS}, // no policy: connect()'s default
	    {12000 * kMs, 12000 * kMs},
	    {1000 * kMs, MRC_CM_RTU_NS}, // any copy within it still counts
	};

	for (const Case &k : cases) {
		Conn c;

		c.Connect(kT0, k.budget);
		c.Msg(MRC_OP_CM_REP, kT0 + 500 * kMs);
		EXPECT_EQ(c.f.deadline, kT0 + 500 * kMs + k.want) << k.budget;
		while (c.state == MRC_ST_ESTABLISHED) {
			ASSERT_GT(c.a.timer, 0u);
			c.Timer(c.a.timer);
		}
		EXPECT_EQ(c.a.err, ETIMEDOUT);
		EXPECT_TRUE(c.a.timeout);
	}
}

TEST(CmFsm, CloseWithRtuPendingSendsDreqInstead)
{
	Conn c;

	c.Connect(kT0);
	c.Msg(MRC_OP_CM_REP, kT0);
	c.Close(kT0 + kMs, true);
	EXPECT_EQ(c.a.send, MRC_OP_CM_DREQ);
	EXPECT_FALSE(c.f.rtu_pending);
	EXPECT_EQ(c.state, MRC_ST_DREQ_SENT);
}

TEST(CmFsm, MessagesNotOfThisAttemptAreIgnored)
{
	for (u8 op :
	     {MRC_OP_CM_REP, MRC_OP_CM_RTU, MRC_OP_CM_REJ, MRC_OP_CM_DREQ, MRC_OP_CM_DREP}) {
		Conn c;
		struct mrc_cm_facts m = Conn::Peer();

		c.Connect(kT0);
		m.ours = false;
		c.Msg(op, kT0, m);
		EXPECT_TRUE(Nothing(c.a)) << int(op);
		EXPECT_EQ(c.state, MRC_ST_REQ_SENT);
	}
}

TEST(CmFsm, RejectEndsConnectExceptAFullBacklogBeforeTheDeadline)
{
	Conn c;
	struct mrc_cm_facts m = Conn::Peer();

	c.Connect(kT0, 1000 * kMs);
	m.rej_reason = MRC_REJ_BACKLOG_FULL;
	c.Msg(MRC_OP_CM_REJ, kT0 + 10 * kMs, m);
	EXPECT_TRUE(Nothing(c.a)) << "a full backlog is retried";
	c.Msg(MRC_OP_CM_REJ, kT0 + 1000 * kMs, m);
	EXPECT_TRUE(c.a.done);
	EXPECT_EQ(c.a.err, ENOBUFS);

	Conn d;

	d.Connect(kT0);
	m.rej_reason = MRC_REJ_NO_LISTENER;
	d.Msg(MRC_OP_CM_REJ, kT0, m);
	EXPECT_TRUE(d.a.done);
	EXPECT_EQ(d.a.err, ECONNREFUSED);
	EXPECT_FALSE(d.a.timeout);
}

// Two connected ends, a close on one side: DREQ once all is acked.
TEST(CmFsm, CloseWaitsForEverythingAcknowledged)
{
	Conn c;

	c.Connect(kT0);
	c.Msg(MRC_OP_CM_REP, kT0);
	c.Close(kT0 + kMs, false);
	EXPECT_TRUE(Nothing(c.a)) << "bytes in flight: no DREQ yet";
	EXPECT_EQ(c.state, MRC_ST_ESTABLISHED);
	c.Timer(kT0 + 2 * kMs, true);
	EXPECT_EQ(c.state, MRC_ST_DREQ_SENT);
	EXPECT_EQ(c.a.send, MRC_OP_CM_DREQ);
	EXPECT_EQ(c.f.deadline, kT0 + 2 * kMs + MRC_CM_FIN_WAIT_NS);
	// The DREP closes our direction; the peer's stays open.
	c.Msg(MRC_OP_CM_DREP, kT0 + 3 * kMs);
	EXPECT_TRUE(c.f.fin_acked);
	EXPECT_FALSE(c.a.done);
	EXPECT_TRUE(c.a.wake);
	c.Timer(kT0 + 4 * kMs);
	EXPECT_EQ(c.a.send, 0) << "no DREQ retransmission once answered";
	EXPECT_EQ(c.a.timer, kT0 + 3 * kMs + MRC_CM_FIN_WAIT_NS)
	    << "only a check on the peer, a budget later";
	// The peer's DREQ ends the connection.
	c.Msg(MRC_OP_CM_DREQ, kT0 + 5 * kMs);
	EXPECT_EQ(c.a.send, MRC_OP_CM_DREP);
	EXPECT_TRUE(c.a.rcv_shutdown);
	EXPECT_TRUE(c.a.done);
	EXPECT_EQ(c.a.err, 0);
}

TEST(CmFsm, PeerClosesFirst)
{
	Conn c;

	c.Accept(kT0);
	c.Msg(MRC_OP_CM_DREQ, kT0 + kMs);
	EXPECT_EQ(c.state, MRC_ST_PEER_CLOSED);
	EXPECT_EQ(c.a.send, MRC_OP_CM_DREP);
	EXPECT_TRUE(c.a.rcv_shutdown);
	EXPECT_TRUE(c.a.wake);
	// A repeated DREQ (our DREP was lost) is answered again, no more.
	c.Msg(MRC_OP_CM_DREQ, kT0 + 2 * kMs);
	EXPECT_EQ(c.a.send, MRC_OP_CM_DREP);
	EXPECT_FALSE(c.a.rcv_shutdown);
	EXPECT_FALSE(c.a.wake);
	// Our close: DREQ, then its DREP ends the connection.
	c.Close(kT0 + 3 * kMs);
	EXPECT_EQ(c.state, MRC_ST_DREQ_SENT);
	c.Msg(MRC_OP_CM_DREP, kT0 + 4 * kMs);
	EXPECT_TRUE(c.a.done);
	EXPECT_EQ(c.a.err, 0);
}

TEST(CmFsm, DreqNeedsTheEngineAndThePeer)
{
	Conn c;
	struct mrc_cm_facts m = Conn::Peer();

	c.Accept(kT0);
	m.from_peer = false;
	c.Msg(MRC_OP_CM_DREQ, kT0, m);
	EXPECT_TRUE(Nothing(c.a));
	m = Conn::Peer();
	m.has_conn = false;
	c.Msg(MRC_OP_CM_DREQ, kT0, m);
	EXPECT_TRUE(Nothing(c.a));
	EXPECT_FALSE(c.f.peer_fin);
}

TEST(CmFsm, AnOrphanEndsOnItsDrep)
{
	Conn c;
	struct mrc_cm_facts m = Conn::Peer();

	c.Connect(kT0);
	c.Msg(MRC_OP_CM_REP, kT0);
	c.Close(kT0);
	m.orphan = true;
	c.Msg(MRC_OP_CM_DREP, kT0 + kMs, m);
	EXPECT_TRUE(c.a.done);
}

TEST(CmFsm, UnansweredDreqEndsWithTimeout)
{
	Conn c;

	c.Connect(kT0);
	c.Msg(MRC_OP_CM_REP, kT0);
	c.Close(kT0);
	c.Timer(kT0 + MRC_CM_FIN_WAIT_NS - 1);
	EXPECT_FALSE(c.a.done);
	c.Timer(kT0 + MRC_CM_FIN_WAIT_NS);
	EXPECT_TRUE(c.a.done);
	/* The peer never acknowledged our end of stream, nor closed its own:
	 * a reader waiting for its EOF must not be handed one.
	 */
	EXPECT_EQ(c.a.err, ETIMEDOUT);
	EXPECT_FALSE(c.a.timeout) << "not a handshake's timeout";
}

// A CM_DREQ is the stream's last packet: it is retransmitted for as long
// as the failure policy would retransmit a data packet, backing off to the
// policy's longest RTO like data. On a slow, overloaded host the fixed
// 10 s failed connections whose every byte had arrived (73-many-conns on
// the debug kernel).
TEST(CmFsm, DisconnectTriesAsLongAsThePolicyWouldForData)
{
	constexpr u64 kBudget = 60000 * kMs, kRtoMax = 4000 * kMs;
	Conn c;

	c.Connect(kT0);
	mrc_cm_fsm_set_policy(&c.f, kBudget, kRtoMax);
	c.Msg(MRC_OP_CM_REP, kT0);
	c.Close(kT0);
	ASSERT_EQ(c.state, MRC_ST_DREQ_SENT);
	EXPECT_EQ(c.f.deadline, kT0 + kBudget);
	u64 now = kT0, last = kT0, longest = 0;
	u32 sends = 0;
	while (now < kT0 + kBudget) {
		c.Timer(now);
		ASSERT_FALSE(c.a.done) << "gave up at " << (now - kT0) / kMs << " ms";
		if (c.a.send == MRC_OP_CM_DREQ) {
			longest = std::max(longest, now - last);
			last = now;
			sends++;
		}
		ASSERT_GT(c.a.timer, now);
		now = c.a.timer;
	}
	EXPECT_EQ(longest, kRtoMax) << "backs off to the policy's RTO, no further";
	// 20 ms doubling to 4 s (8 sends), then every 4 s until 60 s.
	EXPECT_GE(sends, 20u);
	EXPECT_LE(sends, 22u);
	c.Timer(kT0 + kBudget);
	EXPECT_TRUE(c.a.done);
	EXPECT_EQ(c.a.err, ETIMEDOUT);
}

// A policy that gives up on data sooner than MRC_CM_FIN_WAIT_NS (the
// default: 4.5 s) leaves the disconnect its 10 s and 500 ms backoff.
TEST(CmFsm, DisconnectTriesAtLeastTheFixedWait)
{
	Conn c;

	c.Accept(kT0);
	mrc_cm_fsm_set_policy(&c.f, 4500 * kMs, 500 * kMs);
	c.Close(kT0);
	ASSERT_EQ(c.state, MRC_ST_DREQ_SENT);
	EXPECT_EQ(c.f.deadline, kT0 + MRC_CM_FIN_WAIT_NS);
	for (u64 now = kT0; now < kT0 + MRC_CM_FIN_WAIT_NS; now = c.a.timer) {
		c.Timer(now);
		ASSERT_FALSE(c.a.done);
		if (c.a.send) {
			EXPECT_LE(c.f.next - now, MRC_CM_RTO_MAX_NS);
		}
	}
	c.Timer(kT0 + MRC_CM_FIN_WAIT_NS);
	EXPECT_TRUE(c.a.done);
	EXPECT_EQ(c.a.err, ETIMEDOUT);
}

// Half-closed: our CM_DREQ answered, the peer's not come. A peer whose
// every CM_DREQ copy was lost for its whole budget ends cleanly and forgets
// the connection (and a restarted one forgot it): we would wait for ever.
// Once per budget our CM_DREQ goes again; a peer that still has the
// connection answers with its CM_DREP, one that forgot it with a stateless
// CM_DREP flagged GONE, which ends ours with ECONNRESET (we never had its
// end of stream), as TCP's RST does in FIN_WAIT2.
TEST(CmFsm, HalfClosedChecksOnItsPeerOncePerBudget)
{
	constexpr u64 kBudget = 30000 * kMs;
	Conn c;
	struct mrc_cm_facts gone = Conn::Peer();

	gone.gone = true;
	c.Connect(kT0);
	mrc_cm_fsm_set_policy(&c.f, kBudget, 500 * kMs);
	c.Msg(MRC_OP_CM_REP, kT0);
	c.Close(kT0);
	c.Msg(MRC_OP_CM_DREP, kT0 + kMs);
	ASSERT_TRUE(c.f.fin_acked);
	EXPECT_EQ(c.a.timer, kT0 + kMs + kBudget);
	c.Timer(kT0 + kMs + kBudget - 1);
	EXPECT_EQ(c.a.send, 0);
	c.Timer(kT0 + kMs + kBudget);
	EXPECT_EQ(c.a.send, MRC_OP_CM_DREQ);
	EXPECT_TRUE(c.a.new_ev);
	EXPECT_FALSE(c.a.done) << "a check, not a deadline";
	EXPECT_EQ(c.a.timer, kT0 + kMs + 2 * kBudget);
	// The peer still has the connection: its CM_DREP, and we go on.
	c.Msg(MRC_OP_CM_DREP, kT0 + 2 * kMs + kBudget);
	EXPECT_FALSE(c.a.done);
	EXPECT_EQ(c.state, MRC_ST_DREQ_SENT);
	// A budget later it has forgotten it.
	c.Timer(kT0 + kMs + 2 * kBudget);
	EXPECT_EQ(c.a.send, MRC_OP_CM_DREQ);
	c.Msg(MRC_OP_CM_DREP, kT0 + 2 * kMs + 2 * kBudget, gone);
	EXPECT_TRUE(c.a.done);
	EXPECT_EQ(c.a.err, ECONNRESET);
}

// A stateless CM_DREP (GONE) after the peer's CM_DREQ came is the usual
// end: the peer closed both ways and forgot; only its answer to ours was
// lost. Before anything of the peer's end came, it is a reset.
TEST(CmFsm, GoneDrepIsCleanOnlyAfterThePeersDreq)
{
	struct mrc_cm_facts gone = Conn::Peer();
	Conn c, d;

	gone.gone = true;
	c.Connect(kT0);
	c.Msg(MRC_OP_CM_REP, kT0);
	c.Close(kT0);
	c.Msg(MRC_OP_CM_DREQ, kT0 + kMs);
	c.Msg(MRC_OP_CM_DREP, kT0 + 2 * kMs, gone);
	EXPECT_TRUE(c.a.done);
	EXPECT_EQ(c.a.err, 0);

	d.Connect(kT0);
	d.Msg(MRC_OP_CM_REP, kT0);
	d.Close(kT0);
	d.Msg(MRC_OP_CM_DREP, kT0 + kMs, gone);
	EXPECT_TRUE(d.a.done);
	EXPECT_EQ(d.a.err, ECONNRESET) << "the peer restarted before our end of stream";
}

// Both sides closed at once and the peer's CM_DREQ came (we answered it),
// but no CM_DREP for ours ever did (every answer lost, or the peer forgot
// the connection and its stateless answers are lost): the end of stream
// came both ways, every byte was acknowledged, and the end is clean.
TEST(CmFsm, UnansweredDreqAfterThePeersIsClean)
{
	Conn c;
	struct mrc_cm_facts m = Conn::Peer();

	c.Connect(kT0);
	c.Msg(MRC_OP_CM_REP, kT0);
	c.Close(kT0);
	ASSERT_EQ(c.state, MRC_ST_DREQ_SENT);
	c.Msg(MRC_OP_CM_DREQ, kT0 + kMs, m);
	EXPECT_EQ(c.a.send, MRC_OP_CM_DREP);
	EXPECT_FALSE(c.a.done) << "our own CM_DREQ is not acknowledged yet";
	c.Timer(kT0 + MRC_CM_FIN_WAIT_NS);
	EXPECT_TRUE(c.a.done);
	EXPECT_EQ(c.a.err, 0);
}

TEST(CmFsm, CloseDuringConnectEndsIt)
{
	Conn c;

	c.Connect(kT0);
	c.Close(kT0);
	EXPECT_TRUE(c.a.done);
	EXPECT_EQ(c.a.err, 0);
	// Closing what is already closed does nothing.
	c.Close(kT0);
	EXPECT_TRUE(Nothing(c.a));
}

} // namespace
