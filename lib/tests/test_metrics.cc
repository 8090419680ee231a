// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: the namespace TTR histogram in STATS_GET replies, and the
// metrics renderer (mrc/metrics.hpp) in both formats.
#include <mrc/attr.hpp>
#include <mrc/metrics.hpp>
#include <mrc/netlink.hpp>

#include <cerrno>

#include <gtest/gtest.h>
#include <linux/mrc.h>

#include "fake_transport.hpp"

namespace {

using mrc::AttrWriter;
namespace mm = mrc::metrics;

bool has(const std::string &text, const std::string &line)
{
	return text.find(line + "\n") != std::string::npos;
}

TEST(StatsTtr, ParsedFromReply)
{
	AttrWriter w;
	w.begin_nest(MRC_A_STATS).put_u64(MRC_MIB_RECOVERIES, 3).end_nest();
	w.begin_nest(MRC_A_STATS_TTR_HIST);
	for (uint16_t b = 0; b < MRC_TTR_BUCKETS; b++)
		w.put_u64(b + 1, b == 2 ? 2 : b == MRC_TTR_BUCKETS - 1 ? 1 : 0);
	w.end_nest();
	w.put_u64(MRC_A_STATS_TTR_SUM, 4200000000ULL);
	mrc::Stats s = mrc::parse_stats(w.bytes());
	ASSERT_TRUE(s.ttr);
	EXPECT_EQ(s.ttr->buckets[2], 2u);
	EXPECT_EQ(s.ttr->buckets[MRC_TTR_BUCKETS - 1], 1u);
	EXPECT_EQ(s.ttr->count(), 3u);
	EXPECT_EQ(s.ttr->sum_ns, 4200000000ULL);
	EXPECT_EQ(s.get(MRC_MIB_RECOVERIES), 3u);
}

TEST(StatsTtr, AbsentFromOlderModules)
{
	AttrWriter w;
	w.begin_nest(MRC_A_STATS).put_u64(MRC_MIB_IN_PKTS, 1).end_nest();
	EXPECT_FALSE(mrc::parse_stats(w.bytes()).ttr);
}

TEST(StatsTtr, BucketBounds)
{
	EXPECT_EQ(mrc::ttr_bucket_upper_ns(0), 1000u);
	EXPECT_EQ(mrc::ttr_bucket_upper_ns(1), 2000u);
	EXPECT_EQ(mrc::ttr_bucket_upper_ns(10), 1024000u);
	EXPECT_EQ(mrc::ttr_bucket_upper_ns(MRC_TTR_BUCKETS - 2), (1ULL << 22) * 1000);
	EXPECT_FALSE(mrc::ttr_bucket_upper_ns(MRC_TTR_BUCKETS - 1));
}

mm::Snapshot snap()
{
	mm::Snapshot s;
	s.netns = "a";
	s.stats.counters = {{MRC_MIB_IN_PKTS, 5}, {MRC_MIB_RETX_NACK, 2}, {200, 9}};
	mrc::TtrHistogram h;
	h.buckets[0] = 1;
	h.buckets[2] = 2;
	h.buckets[MRC_TTR_BUCKETS - 1] = 1;
	h.sum_ns = 4194305250ULL;
	s.stats.ttr = h;
	mrc::Plane p;
	p.id = 3;
	p.ifname = "eth\"1";
	p.oper_up = true;
	s.planes = {p};
	for (uint32_t id = 1; id <= 3; id++) {
		mrc::Conn c;
		c.id = id;
		c.state = MRC_CONN_ESTABLISHED;
		c.bytes_sent = id == 2 ? 100 : 10;
		c.retx_sack = id == 3 ? 7 : 0;
		mrc::ConnPath cp;
		cp.plane = 3;
		cp.state = id == 1 ? MRC_PATH_ASSUMED_BAD : MRC_PATH_GOOD;
		cp.tx_pkts = 10;
		c.paths = {cp};
		s.conns.push_back(c);
	}
	return s;
}

TEST(Render, CountersGaugesHistogram)
{
	std::string t = mm::render({snap()}, {});
	EXPECT_TRUE(has(t, "# TYPE mrc_in_packets_total counter")) << t;
	EXPECT_TRUE(has(t, "mrc_in_packets_total{netns=\"a\"} 5"));
	EXPECT_TRUE(has(t, "mrc_retransmissions_total{netns=\"a\",cause=\"nack\"} 2"));
	EXPECT_TRUE(has(t, "mrc_mib_unknown_total{netns=\"a\",mib=\"200\"} 9"));
	EXPECT_TRUE(has(t, "mrc_up{netns=\"a\"} 1"));
	// Cumulative buckets, le in seconds; the last bucket is +Inf.
	EXPECT_TRUE(has(t, "mrc_time_to_recovery_seconds_bucket{netns=\"a\",le=\"0.000001\"} 1"));
	EXPECT_TRUE(has(t, "mrc_time_to_recovery_seconds_bucket{netns=\"a\",le=\"0.000002\"} 1"));
	EXPECT_TRUE(has(t, "mrc_time_to_recovery_seconds_bucket{netns=\"a\",le=\"0.000004\"} 3"));
	EXPECT_TRUE(has(t, "mrc_time_to_recovery_seconds_bucket{netns=\"a\",le=\"4.194304\"} 3"));
	EXPECT_TRUE(has(t, "mrc_time_to_recovery_seconds_bucket{netns=\"a\",le=\"+Inf\"} 4"));
	EXPECT_TRUE(has(t, "mrc_time_to_recovery_seconds_sum{netns=\"a\"} 4.19430525"));
	EXPECT_TRUE(has(t, "mrc_time_to_recovery_seconds_count{netns=\"a\"} 4"));
	EXPECT_TRUE(has(t, "mrc_plane_up{netns=\"a\",plane=\"3\",device=\"eth\\\"1\"} 1"));
	EXPECT_TRUE(has(t, "mrc_paths{netns=\"a\",plane=\"3\",state=\"assumed-bad\"} 1"));
	EXPECT_TRUE(has(t, "mrc_paths{netns=\"a\",plane=\"3\",state=\"good\"} 2"));
	EXPECT_TRUE(has(t, "mrc_connections{netns=\"a\",state=\"established\"} 3"));
	EXPECT_TRUE(has(t, "mrc_open_conns_plane_sent_packets{netns=\"a\",plane=\"3\"} 30"));
	EXPECT_EQ(t.find("mrc_conn_"), std::string::npos); // no --top
	EXPECT_EQ(t.find("# EOF"), std::string::npos);
}

TEST(Render, TopConnections)
{
	mm::Options o;
	o.top_n = 1;
	std::string t = mm::render({snap()}, o);
	EXPECT_NE(t.find("mrc_conn_sent_bytes_total{netns=\"a\",conn=\"2\","), std::string::npos);
	EXPECT_EQ(t.find("conn=\"1\""), std::string::npos);
	o.top_by = mm::TopBy::Retx;
	t = mm::render({snap()}, o);
	EXPECT_NE(t.find("mrc_conn_retransmissions_total{netns=\"a\",conn=\"3\","),
		  std::string::npos);
	EXPECT_EQ(t.find("conn=\"2\""), std::string::npos);
}

TEST(Render, OpenMetricsNamesFamiliesAndEnds)
{
	mm::Options o;
	o.format = mm::Format::OpenMetrics;
	std::string t = mm::render({snap()}, o);
	EXPECT_TRUE(has(t, "# TYPE mrc_in_packets counter"));
	EXPECT_TRUE(has(t, "mrc_in_packets_total{netns=\"a\"} 5"));
	EXPECT_TRUE(has(t, "# UNIT mrc_time_to_recovery_seconds seconds"));
	EXPECT_TRUE(has(t, "# UNIT mrc_in_bytes bytes") ||
		    t.find("mrc_in_bytes") == std::string::npos);
	EXPECT_EQ(t.substr(t.size() - 6), "# EOF\n");
}

TEST(Render, FamiliesWholeAcrossNamespaces)
{
	mm::Snapshot b = snap();
	b.netns = "b";
	mm::Snapshot gone;
	gone.netns = "c";
	gone.error = "not loaded";
	std::string t = mm::render({snap(), b, gone}, {});
	EXPECT_TRUE(has(t, "mrc_up{netns=\"c\"} 0"));
	// An unreadable namespace has mrc_up 0 and nothing else.
	size_t up = t.find("mrc_up{netns=\"c\"} 0\n");
	ASSERT_NE(up, std::string::npos);
	EXPECT_EQ(t.find("netns=\"c\"", t.find('\n', up)), std::string::npos);
	// One TYPE line per family, its samples right after it.
	size_t type = t.find("# TYPE mrc_in_packets_total counter");
	EXPECT_EQ(t.find("# TYPE mrc_in_packets_total", type + 1), std::string::npos);
	EXPECT_NE(t.find("# TYPE mrc_in_packets_total counter\nmrc_in_packets_total{netns=\"a\"} "
			 "5\nmrc_in_packets_total{netns=\"b\"} 5\n"),
		  std::string::npos)
	    << t;
}

TEST(Render, CollectKeepsErrors)
{
	auto f = std::make_unique<mrc::testing::FakeTransport>();
	f->replies.push_back({{}, mrc::Error(EIO, "stats: boom")});
	mrc::Client c(std::move(f));
	mm::Snapshot s = mm::collect(c, "x");
	ASSERT_TRUE(s.error);
	EXPECT_NE(s.error->find("boom"), std::string::npos);
}

} // namespace
