// SPDX-License-Identifier: GPL-2.0
// mrcctl top against the fake netlink layer: each frame's requests, its
// rates, planes, EVs by state and the busiest connections, plain frames
// when the output is not a terminal, -n, -j and the usage errors.
#include <sstream>

#include <gtest/gtest.h>
#include <linux/mrc.h>
#include <nlohmann/json.hpp>
#include <sys/socket.h>

#include "cli.hpp"
#include "fake_transport.hpp"

namespace {

using mrc::AttrWriter;
using mrc::Message;
using mrc::testing::FakeTransport;

in6_addr A(const char *s)
{
	return *mrc::parse_addr(s);
}

Message stats(uint64_t in_pkts, uint64_t out_pkts, uint64_t out_bytes, uint64_t retx_sack)
{
	AttrWriter w;
	w.begin_nest(MRC_A_STATS)
	    .put_u64(MRC_MIB_IN_PKTS, in_pkts)
	    .put_u64(MRC_MIB_OUT_PKTS, out_pkts)
	    .put_u64(MRC_MIB_OUT_BYTES, out_bytes)
	    .put_u64(MRC_MIB_RETX_SACK, retx_sack)
	    .put_u64(MRC_MIB_IN_DROP_DUP, retx_sack / 2)
	    .end_nest();
	return {MRC_CMD_STATS_GET, w.bytes()};
}

Message plane(uint32_t id, const char *dev, bool up)
{
	AttrWriter w;
	w.begin_nest(MRC_A_PLANE)
	    .put_u32(MRC_PLANE_A_ID, id)
	    .put_u32(MRC_PLANE_A_IFINDEX, 3 + id)
	    .put_str(MRC_PLANE_A_IFNAME, dev)
	    .put_in6(MRC_PLANE_A_SADDR, A("2001:db8::1"))
	    .put_u8(MRC_PLANE_A_ADMIN, 1)
	    .put_u8(MRC_PLANE_A_OPER, up)
	    .put_u32(MRC_PLANE_A_NR_PATHS, 2)
	    .end_nest();
	return {MRC_CMD_PLANE_GET, w.bytes()};
}

Message path(uint32_t id, uint32_t plane_id)
{
	AttrWriter w;
	w.begin_nest(MRC_A_PATH)
	    .put_u32(MRC_PATH_A_ID, id)
	    .put_in6(MRC_PATH_A_DST, A("2001:db8:2::"))
	    .put_u8(MRC_PATH_A_DST_LEN, 48)
	    .put_u32(MRC_PATH_A_PLANE, plane_id)
	    .put_u8(MRC_PATH_A_MODE, MRC_FWD_ENTROPY)
	    .end_nest();
	return {MRC_CMD_PATH_GET, w.bytes()};
}

Message conn(uint32_t id, uint16_t port, uint64_t sent, uint64_t retx, uint64_t ttr_count)
{
	AttrWriter w;
	w.begin_nest(MRC_A_CONN)
	    .put_u32(MRC_CONN_A_ID, id)
	    .put_in6(MRC_CONN_A_LOCAL_ADDR, A("2001:db8::1"))
	    .put_in6(MRC_CONN_A_REMOTE_ADDR, A("2001:db8::2"))
	    .put_u16(MRC_CONN_A_LOCAL_PORT, 5000)
	    .put_u16(MRC_CONN_A_REMOTE_PORT, port)
	    .put_u8(MRC_CONN_A_TYPE, SOCK_STREAM)
	    .put_u8(MRC_CONN_A_STATE, MRC_CONN_ESTABLISHED)
	    .put_u32(MRC_CONN_A_SRTT, 250)
	    .put_u32(MRC_CONN_A_PATHS_GOOD, 3)
	    .put_u32(MRC_CONN_A_PATHS_BAD, 1)
	    .put_u64(MRC_CONN_A_RETX_SACK, retx)
	    .put_u64(MRC_CONN_A_TTR_COUNT, ttr_count)
	    .put_u64(MRC_CONN_A_TTR_MAX, ttr_count ? 3000000 : 0)
	    .put_u64(MRC_CONN_A_BYTES_SENT, sent);
	if (ttr_count) // all in bucket 12: [2048 us, 4096 us)
		w.begin_nest(MRC_CONN_A_TTR_HIST).put_u64(12 + 1, ttr_count).end_nest();
	w.end_nest();
	return {MRC_CMD_CONN_GET, w.bytes()};
}

struct Top : ::testing::Test {
	std::unique_ptr<FakeTransport> owned = std::make_unique<FakeTransport>();
	FakeTransport *fake = owned.get();
	std::ostringstream out, err;
	mrcctl::Context ctx;
	std::vector<double> slept;

	void SetUp() override
	{
		ctx.out = &out;
		ctx.err = &err;
		ctx.connect = [this]() { return std::make_unique<mrc::Client>(std::move(owned)); };
		ctx.sleep = [this](double s) { slept.push_back(s); };
	}
	int run(std::vector<std::string> args) { return mrcctl::run(args, ctx); }
	/// One sample: stats, planes, paths, connections, in that order.
	void sample(uint64_t k)
	{
		fake->reply_many({stats(1000 * k, 2000 * k, 3000000 * k, 4 * k)});
		fake->reply_many({plane(0, "pl0", true), plane(1, "pl1", k < 2)});
		fake->reply_many({path(0, 0), path(1, 0), path(2, 1), path(3, 1)});
		fake->reply_many(
		    {conn(7, 6000, 1000000 * k, k, 2), conn(9, 6001, 5000000 * k, 0, 0)});
	}
};

TEST_F(Top, PlainFramesWithRates)
{
	sample(0);
	sample(1);
	sample(2);
	ASSERT_EQ(run({"top", "-n", "2", "-i", "0.5"}), mrcctl::kOk) << err.str();
	EXPECT_EQ(slept, (std::vector<double>{0.5, 0.5}));
	ASSERT_EQ(fake->calls.size(), 12u);
	EXPECT_EQ(fake->calls[0].req.cmd, MRC_CMD_STATS_GET);
	EXPECT_EQ(fake->calls[1].req.cmd, MRC_CMD_PLANE_GET);
	EXPECT_EQ(fake->calls[2].req.cmd, MRC_CMD_PATH_GET);
	EXPECT_EQ(fake->calls[3].req.cmd, MRC_CMD_CONN_GET);
	std::string s = out.str();
	EXPECT_EQ(s.find("\033["), std::string::npos) << "escape codes on a non-terminal";
	// two frames, a blank line between them
	size_t f1 = s.find("mrcctl top "), f2 = s.find("\n\nmrcctl top ");
	ASSERT_NE(f1, std::string::npos) << s;
	ASSERT_NE(f2, std::string::npos) << s;
	EXPECT_EQ(s.find("mrcctl top ", f2 + 3), std::string::npos);
	EXPECT_NE(s.find("every 0.5s  frame 1\n"), std::string::npos) << s;
	std::string second = s.substr(f2 + 2);
	// per 0.5 s: 1000 packets in, 2000 out, 3 MB out, 4 SACK retransmissions
	EXPECT_NE(second.find("traffic  packets/s  bytes/s  packets  bytes\n"
			      "in       2000.0     0        2000     0\n"
			      "out      4000.0     6.0M     4000     6.0M\n"),
		  std::string::npos)
	    << second;
	EXPECT_NE(second.find("retransmissions/s 8.0 (rto 0.0, nack 0.0, sack 8.0, ev 0.0)"),
		  std::string::npos)
	    << second;
	EXPECT_NE(second.find("drops/s in 4.0 (malformed 0.0, no-conn 0.0, bad-key 0.0, "
			      "psn-window 0.0, dup 4.0), out 0.0"),
		  std::string::npos)
	    << second;
	EXPECT_NE(second.find("planes  0 pl0 up (2 paths)  1 pl1 down (2 paths)\n"),
		  std::string::npos)
	    << second;
	EXPECT_NE(second.find("paths 4 configured; connection EVs: good 6, skip 0, assumed-bad 2, "
			      "denied 0, backup 0\n"),
		  std::string::npos)
	    << second;
	EXPECT_NE(second.find("connections 2 (2 established)\n"), std::string::npos) << second;
	// the busiest first: conn 9 sends 10 MB/s, conn 7 2 MB/s
	size_t c9 = second.find("\n9 "), c7 = second.find("\n7 ");
	ASSERT_NE(c9, std::string::npos) << second;
	ASSERT_NE(c7, std::string::npos) << second;
	EXPECT_LT(c9, c7);
	EXPECT_NE(second.find("[2001:db8::2]:6001  stream  established  10.0MB"), std::string::npos)
	    << second;
	// conn 7: 2 retransmissions, 2/s, two recoveries under 4.096 ms, max 3 ms
	EXPECT_NE(second.find("2.0MB   0B    2     2.0     2/p99<3.00ms/max 3.00ms  250us"),
		  std::string::npos)
	    << second;
}

TEST_F(Top, BusiestOnlyAndJson)
{
	sample(0);
	sample(1);
	ASSERT_EQ(run({"-j", "top", "-n", "1", "-c", "1"}), mrcctl::kOk) << err.str();
	auto j = nlohmann::json::parse(out.str());
	EXPECT_EQ(j["frame"], 1);
	EXPECT_DOUBLE_EQ(j["out_pkts_per_s"].get<double>(), 2000.0);
	EXPECT_EQ(j["conns"], 2);
	ASSERT_EQ(j["top_conns"].size(), 1u);
	EXPECT_EQ(j["top_conns"][0]["id"], 9);
	EXPECT_EQ(j["planes"][1]["oper"], "up");
	EXPECT_EQ(j["evs"]["bad"], 2);
}

TEST_F(Top, UsageErrors)
{
	EXPECT_EQ(run({"top", "-i", "0"}), mrcctl::kUsage);
	EXPECT_EQ(run({"top", "extra"}), mrcctl::kUsage);
	EXPECT_TRUE(fake->calls.empty());
}

} // namespace
