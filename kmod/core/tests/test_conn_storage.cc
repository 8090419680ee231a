// SPDX-License-Identifier: GPL-2.0
// Unit tests of the engine's storage sized by what a connection uses: the
// path table by the EVs its candidates offer (path_evs), the send ring by
// the first write (tx_later, mrc_conn_tx_attach()). Either must behave as
// the full-size storage does; only the bytes differ.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

extern "C" {
#include "mrc_conn.h"
}

#include "engine_pair.hpp"

namespace {

// Uneven planes: plane 0 offers 1 EV, plane 1 offers 7 (an entropy
// candidate with 5 and two single paths), plane 2 offers 2: 10 in all.
const mrc_path_cand kCands[] = {
    {1, 1, 0}, {2, 5, 1}, {3, 1, 1}, {4, 1, 1}, {5, 1, 2}, {6, 1, 2},
};
constexpr uint32_t kNCands = sizeof(kCands) / sizeof(kCands[0]);
constexpr uint32_t kEvs = 10;

struct Engine {
	mrc_conn c;
	std::vector<uint64_t> st;
	std::vector<uint64_t> tx_st;

	void init(const mrc_conn_params &p, const mrc_path_cand *cands = kCands,
		  uint32_t n = kNCands)
	{
		st.assign(mrc_conn_storage_size(&p) / 8 + 1, 0);
		ASSERT_EQ(mrc_conn_init(&c, &p, st.data(), cands, n, 0), 0);
	}

	int attach()
	{
		tx_st.assign(mrc_conn_tx_storage_size(&c) / 8 + 1, 0);
		return mrc_conn_tx_attach(&c, tx_st.data());
	}
};

// The table sized for the candidates' 10 EVs holds the same set, path for
// path, as the one sized for the policy's max_paths: same EVs, same
// planes, same backups, whatever the policy's max_paths and backups.
TEST(ConnStorage, PathTableSizedForTheCandidatesHoldsTheSameSet)
{
	for (uint32_t max_paths : {64u, 10u, 6u, 3u}) {
		for (uint32_t backups : {0u, 1u, 2u}) {
			if (backups >= max_paths)
				continue;
			SCOPED_TRACE("max_paths " + std::to_string(max_paths) + " backups " +
				     std::to_string(backups));
			mrc_conn_params p = engine_pair_params(0);
			p.policy.max_paths = max_paths;
			p.policy.backups = backups;
			p.policy.min_active = 1;
			Engine full, sized;
			full.init(p);
			p.path_evs = kEvs;
			sized.init(p);
			if (max_paths > kEvs) {
				EXPECT_LT(mrc_conn_storage_size(&p), (size_t)full.st.size() * 8);
			}
			ASSERT_EQ(mrc_conn_path_count(&sized.c), mrc_conn_path_count(&full.c));
			// Enough slots for every plane's share: every EV is in.
			if (max_paths >= 3 * 7) {
				EXPECT_EQ(mrc_conn_path_count(&sized.c), kEvs);
			}
			for (uint32_t i = 0; i < mrc_conn_path_count(&full.c); i++) {
				const mrc_path *a = mrc_conn_path(&full.c, i);
				const mrc_path *b = mrc_conn_path(&sized.c, i);
				EXPECT_EQ(a->ev, b->ev) << i;
				EXPECT_EQ(a->cfg_id, b->cfg_id) << i;
				EXPECT_EQ(a->plane, b->plane) << i;
				EXPECT_EQ(a->state, b->state) << i;
			}
		}
	}
}

// With 8 configured paths the default engine is a fraction of what the
// policy's 64 path slots cost, and the send ring comes only with data.
TEST(ConnStorage, IdleEngineHoldsNoSendRing)
{
	mrc_conn_params p = engine_pair_params(0);
	p.tx_mpr = 2 * MRC_MPR_UNIT;
	p.rx_mpr = MRC_MPR_UNIT;
	const size_t full = mrc_conn_storage_size(&p);
	p.path_evs = 8;
	const size_t sized = mrc_conn_storage_size(&p);
	p.tx_later = true;
	const size_t idle = mrc_conn_storage_size(&p);
	Engine e;
	e.init(p);
	const size_t tx = mrc_conn_tx_storage_size(&e.c);

	EXPECT_EQ(tx, 256 * sizeof(mrc_tx_entry));
	EXPECT_EQ(idle + tx, sized);
	// The engine and its storage fit one 8 KB allocation when idle, with
	// the reference fabric's 8 paths and the glue's 16 entropy EVs when
	// no path is configured (kmalloc's next size is 16 KB).
	EXPECT_LE(sizeof(mrc_conn) + idle, 8192u) << full << " " << sized;
	p.path_evs = 16;
	EXPECT_LE(sizeof(mrc_conn) + mrc_conn_storage_size(&p), 8192u);
	EXPECT_LT(sized, full);
}

struct LaterPair {
	Engine e[2];
	uint8_t type;
	uint8_t sack_mpr = 0; // nonzero: every SACK delivered carries it
	uint64_t now = 1000;
	uint8_t buf[4096];

	explicit LaterPair(uint8_t t) : type(t)
	{
		for (int s = 0; s < 2; s++) {
			mrc_conn_params p = engine_pair_params(s);
			p.sock_type = type;
			p.rcvbuf = 65536;
			p.peer_window = 65536;
			p.sndbuf = 1 << 20;
			p.ack_delay_ns = 0;
			p.policy.backups = 0;
			p.path_evs = kEvs;
			p.tx_later = true;
			e[s].init(p);
		}
	}

	// Move what side s sends to the other side.
	int pump(int s)
	{
		mrc_conn_verdict v;
		mrc_tx_desc d;
		mrc_pkt pkt, in;
		uint32_t ev;
		int n = 0;

		while (mrc_conn_next_tx(&e[s].c, now, &d)) {
			int h = mrc_conn_build_data_hdr(&e[s].c, &d, buf, sizeof(buf));
			EXPECT_GT(h, 0);
			size_t len = h + d.len + mrc_pad_len(d.len);
			std::memset(buf + h, 0, len - h);
			EXPECT_EQ(mrc_pkt_decode(buf, len, &in), 0);
			EXPECT_EQ(mrc_conn_rx(&e[1 - s].c, &in, d.ev, false, now, &v), 0);
			n++;
		}
		while (mrc_conn_next_ctrl(&e[s].c, now, &pkt, &ev)) {
			int len = mrc_pkt_encode(&pkt, buf, sizeof(buf));
			EXPECT_GT(len, 0);
			EXPECT_EQ(mrc_pkt_decode(buf, len, &in), 0);
			if (sack_mpr && in.type == MRC_PKT_SACK)
				in.u.sack.mpr = sack_mpr;
			mrc_conn_rx(&e[1 - s].c, &in, ev, false, now, &v);
			n++;
		}
		return n;
	}

	int attach_and_write(int s, uint64_t n)
	{
		int err = e[s].attach();

		return err ? err : mrc_conn_app_write(&e[s].c, n, false);
	}

	void settle()
	{
		for (int i = 0; i < 400; i++) {
			now += 10000;
			for (int s = 0; s < 2; s++) {
				mrc_conn_on_timer(&e[s].c, now);
				if (type == MRC_CONN_STREAM)
					mrc_conn_app_read(&e[s].c, mrc_conn_app_readable(&e[s].c));
			}
			if (!pump(0) + !pump(1) == 2)
				break;
		}
	}
};

// Before its send storage is attached a connection takes no write but
// says what it will take; it receives and acknowledges all the same, so
// an endpoint that only reads never holds a send ring.
TEST(ConnStorage, SendStorageComesWithTheFirstWrite)
{
	LaterPair pr(MRC_CONN_STREAM);
	mrc_conn *a = &pr.e[0].c, *b = &pr.e[1].c;

	EXPECT_FALSE(mrc_conn_tx_attached(a));
	EXPECT_EQ(mrc_conn_app_space(a, nullptr), 1u << 20);
	EXPECT_EQ(mrc_conn_app_write(a, 1000, false), -ENOBUFS);
	EXPECT_EQ(mrc_conn_snd_nxt_psn(a), 7u);
	pr.settle();
	EXPECT_EQ(mrc_conn_snd_nxt_psn(a), 7u);

	ASSERT_EQ(pr.attach_and_write(0, 200000), 0);
	pr.settle();
	EXPECT_EQ(b->rcv_read, 200000u);
	EXPECT_TRUE(mrc_conn_all_acked(a));
	EXPECT_FALSE(mrc_conn_tx_attached(b));
	EXPECT_EQ(pr.e[0].attach(), -EALREADY);

	// The reader answers later: its own send storage, its first write.
	ASSERT_EQ(pr.attach_and_write(1, 50000), 0);
	pr.settle();
	EXPECT_EQ(a->rcv_read, 50000u);
	EXPECT_TRUE(mrc_conn_all_acked(b));
}

// An endpoint that never wrote still runs keepalive, and an MPR the
// answers carry (this engine sends none, another implementation may: 8
// units here) is not cut to the placeholder ring's one entry: once
// attached, the sender has the whole window the peer granted.
TEST(ConnStorage, KeepaliveRunsBeforeTheFirstWriteAndTheWindowSurvives)
{
	LaterPair pr(MRC_CONN_STREAM);
	mrc_conn *a = &pr.e[0].c;
	const uint64_t ms = 1000000;
	mrc_conn_keepalive ka = {true, 10 * ms, 10 * ms, 3};

	pr.sack_mpr = 8;

	mrc_conn_set_keepalive(a, &ka, pr.now);
	const uint64_t until = pr.now + 200 * ms;
	while (pr.now < until && !a->err) {
		uint64_t d = mrc_conn_next_deadline(a);
		pr.now = d && d > pr.now && d < until ? d : pr.now + ms;
		mrc_conn_on_timer(a, pr.now);
		pr.pump(0);
		pr.pump(1);
	}
	EXPECT_EQ(a->err, 0);
	EXPECT_GE(a->st.keepalives, 10u);
	EXPECT_EQ(mrc_conn_snd_nxt_psn(a), 7u);
	ASSERT_EQ(pr.e[0].attach(), 0);
	EXPECT_EQ(a->tx.mpr, std::min<uint32_t>(8 * MRC_MPR_UNIT, a->p.tx_mpr));
	EXPECT_GT(a->tx.mpr, 1u);
}

TEST(ConnStorage, SeqpacketMessagesWaitForTheSendStorage)
{
	LaterPair pr(MRC_CONN_SEQPACKET);
	mrc_conn *a = &pr.e[0].c, *b = &pr.e[1].c;
	mrc_conn_msg m;
	uint32_t msgs = 0;

	mrc_conn_app_space(a, &msgs);
	EXPECT_EQ(msgs, (uint32_t)MRC_CONN_DEF_MSGS);
	EXPECT_EQ(mrc_conn_app_write(a, 100, true), -ENOBUFS);
	ASSERT_EQ(pr.e[0].attach(), 0);
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(mrc_conn_app_write(a, 3000 + i, true), 0);
	mrc_conn_app_space(a, &msgs);
	EXPECT_EQ(msgs, (uint32_t)MRC_CONN_DEF_MSGS - 3);
	pr.settle();
	for (int i = 0; i < 3; i++) {
		ASSERT_TRUE(mrc_conn_rx_msg_pop(b, &m)) << i;
		EXPECT_EQ(m.len, 3000u + i);
		mrc_conn_app_read(b, m.len);
	}
	EXPECT_TRUE(mrc_conn_all_acked(a));
}

} // namespace
