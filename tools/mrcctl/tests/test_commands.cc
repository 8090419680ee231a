// SPDX-License-Identifier: GPL-2.0
// mrcctl: every subcommand against a fake netlink layer: what it sends,
// what it prints, the exact errors and exit codes.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <linux/mrc.h>
#include <unistd.h>

#include "args.hpp"
#include "cli.hpp"
#include "fake_transport.hpp"

namespace {

using mrc::Attrs;
using mrc::AttrWriter;
using mrc::testing::FakeTransport;

in6_addr A(const char *s)
{
	return *mrc::parse_addr(s);
}

struct Cmd : ::testing::Test {
	FakeTransport *fake = nullptr;
	std::unique_ptr<FakeTransport> owned = std::make_unique<FakeTransport>();
	std::ostringstream out, err;
	mrcctl::Context ctx;
	std::vector<double> slept;

	void SetUp() override
	{
		fake = owned.get();
		ctx.out = &out;
		ctx.err = &err;
		ctx.connect = [this]() { return std::make_unique<mrc::Client>(std::move(owned)); };
		ctx.sleep = [this](double s) { slept.push_back(s); };
	}
	int run(std::vector<std::string> args) { return mrcctl::run(args, ctx); }
	Attrs sent(size_t i, uint16_t nest) const
	{
		return Attrs(fake->calls.at(i).req.attrs).nested(nest);
	}
};

// ---- planes ----

TEST_F(Cmd, PlaneAdd)
{
	EXPECT_EQ(
	    run({"plane", "add", "2", "dev", "eth1", "saddr", "2001:db8::1", "admin", "down"}),
	    mrcctl::kOk)
	    << err.str();
	ASSERT_EQ(fake->calls.size(), 1u);
	EXPECT_EQ(fake->calls[0].req.cmd, MRC_CMD_PLANE_ADD);
	auto n = sent(0, MRC_A_PLANE);
	EXPECT_EQ(n.u32(MRC_PLANE_A_ID), 2u);
	EXPECT_EQ(n.str(MRC_PLANE_A_IFNAME), "eth1");
	EXPECT_EQ(n.u8(MRC_PLANE_A_ADMIN), MRC_PLANE_ADMIN_DOWN);
	EXPECT_TRUE(out.str().empty());
}

TEST_F(Cmd, PlaneAddByIfindexAndSet)
{
	EXPECT_EQ(run({"plane", "add", "1", "ifindex", "7", "saddr", "2001:db8::1"}), mrcctl::kOk);
	EXPECT_EQ(sent(0, MRC_A_PLANE).u32(MRC_PLANE_A_IFINDEX), 7u);
	EXPECT_EQ(run({"plane", "set", "1", "admin", "up"}), mrcctl::kOk);
	auto n = sent(1, MRC_A_PLANE);
	EXPECT_EQ(fake->calls[1].req.cmd, MRC_CMD_PLANE_SET);
	EXPECT_EQ(n.all().size(), 2u);
	EXPECT_EQ(run({"plane", "del", "1"}), mrcctl::kOk);
	EXPECT_EQ(fake->calls[2].req.cmd, MRC_CMD_PLANE_DEL);
}

struct UsageCase {
	std::vector<std::string> args;
	std::string message;
};

TEST_F(Cmd, UsageErrorsAreExactAndExit2)
{
	const UsageCase cases[] = {
	    {{"plane", "add", "1", "saddr", "2001:db8::1"}, "plane add: 'dev DEV' is required"},
	    {{"plane", "add", "1", "dev", "x"}, "plane add: 'saddr ADDR' is required"},
	    {{"plane", "add"}, "plane add: plane id is required"},
	    {{"plane", "add", "x", "dev", "e"}, "invalid plane id 'x': not a number"},
	    {{"plane", "add", "-1"}, "invalid plane id '-1': not a number"},
	    {{"plane", "add", "99999999999", "dev", "e"},
	     "invalid plane id '99999999999': must be between 0 and 4294967295"},
	    {{"plane", "add", "1", "dev"}, "plane add: 'dev' needs a value"},
	    {{"plane", "add", "1", "dev", "a", "dev", "b"}, "plane add: 'dev' given twice"},
	    {{"plane", "add", "1", "colour", "red"}, "plane add: unknown argument 'colour'"},
	    {{"plane", "add", "1", "dev", "e", "saddr", "2001:db8::zz"},
	     "invalid source address '2001:db8::zz': not an IPv6 address"},
	    {{"plane", "set", "1", "admin", "maybe"},
	     "invalid admin state 'maybe': expected on or off"},
	    {{"plane", "del", "1", "2"}, "plane del: unknown argument '2'"},
	    {{"path", "add", "1", "dst", "2001:db8::/48", "plane", "0"},
	     "path add: 'mode' is required"},
	    {{"path", "add", "1", "dst", "2001:db8::/129", "plane", "0", "mode", "srh"},
	     "invalid destination prefix length '129': must be between 0 and 128"},
	    {{"path", "add", "1", "dst", "2001:db8::/48", "plane", "0", "mode", "mpls"},
	     "invalid mode 'mpls': expected usid, srh or entropy"},
	    {{"path", "add", "1", "dst", "::/0", "plane", "0", "mode", "srh", "segs", "fc00::1,x"},
	     "invalid segment 'x': not an IPv6 address"},
	    {{"path", "add", "1", "dst", "::/0", "plane", "0", "mode", "entropy", "entropy",
	      "70000"},
	     "invalid entropy count '70000': must be between 0 and 65535"},
	    {{"path", "set", "1", "deny", "allow"},
	     "path set: 'deny' and 'allow' exclude each other"},
	    {{"policy", "add", "p", "rto-min", "5parsecs"},
	     "invalid rto-min '5parsecs': unknown unit 'parsecs' (ns, us, ms, s)"},
	    {{"policy", "add", "p", "rto-min", "ms"},
	     "invalid rto-min 'ms': not a duration (e.g. 2ms)"},
	    {{"policy", "add", "p", "ecn", "sometimes"},
	     "invalid ecn 'sometimes': expected on or off"},
	    {{"policy", "set", "p", "keepalive", "2"}, "invalid keepalive '2': expected on or off"},
	    {{"policy", "set", "p", "keepalive-idle", "soon"},
	     "invalid keepalive-idle 'soon': not a duration (e.g. 2ms)"},
	    {{"settings", "set"}, "settings set: nothing to set"},
	    {{"settings", "set", "udp-port", "65536"},
	     "invalid UDP port '65536': must be between 0 and 65535"},
	    {{"conn", "show", "state", "dancing"},
	     "invalid connection state 'dancing': expected closed, listen, req-sent, req-rcvd, "
	     "established, closing or failed"},
	    {{"probe", "2001:db8::1"}, "probe: 'path ID' is required"},
	    {{"plane", "frob"}, "plane: unknown command 'frob' (add, set, del, show)"},
	    {{"settings", "get"}, "settings: unknown command 'get' (show, set)"},
	};
	for (const auto &c : cases) {
		err.str("");
		EXPECT_EQ(run(c.args), mrcctl::kUsage) << c.message;
		EXPECT_EQ(err.str(), "mrcctl: " + c.message + "\nTry 'mrcctl --help'.\n");
	}
	EXPECT_TRUE(fake->calls.empty()) << "a usage error sent a request";
}

TEST_F(Cmd, PlaneShowTableAndJson)
{
	auto plane = [](uint32_t id, bool up) {
		AttrWriter w;
		w.begin_nest(MRC_A_PLANE)
		    .put_u32(MRC_PLANE_A_ID, id)
		    .put_u32(MRC_PLANE_A_IFINDEX, 3)
		    .put_str(MRC_PLANE_A_IFNAME, "veth0")
		    .put_in6(MRC_PLANE_A_SADDR, A("2001:db8::1"))
		    .put_u8(MRC_PLANE_A_ADMIN, 1)
		    .put_u8(MRC_PLANE_A_OPER, up)
		    .put_u32(MRC_PLANE_A_NR_PATHS, 12)
		    .end_nest();
		return mrc::Message{MRC_CMD_PLANE_GET, w.bytes()};
	};
	fake->reply_many({plane(0, true), plane(17, false)});
	EXPECT_EQ(run({"plane", "show"}), mrcctl::kOk);
	EXPECT_EQ(out.str(), "id  dev    saddr        admin  oper  paths\n"
			     "0   veth0  2001:db8::1  up     up    12\n"
			     "17  veth0  2001:db8::1  up     down  12\n");
	EXPECT_TRUE(fake->calls[0].dump);
	out.str("");
	fake->reply_many({plane(0, true)});
	EXPECT_EQ(run({"-j", "plane", "show", "0"}), mrcctl::kOk);
	EXPECT_FALSE(fake->calls[1].dump);
	EXPECT_EQ(out.str(), "[{\"admin\":\"up\",\"dev\":\"veth0\",\"id\":0,\"ifindex\":3,\"oper\":"
			     "\"up\",\"paths\":12,\"saddr\":\"2001:db8::1\"}]\n");
	out.str("");
	fake->reply_many({});
	EXPECT_EQ(run({"plane"}), mrcctl::kOk);
	EXPECT_EQ(out.str(), "id  dev  saddr  admin  oper  paths\n");
}

// ---- paths ----

TEST_F(Cmd, PathAddEveryMode)
{
	EXPECT_EQ(run({"path", "add", "1", "dst", "2001:db8:2::/48", "plane", "0", "mode", "usid",
		       "usid", "fc00:0:1::"}),
		  mrcctl::kOk);
	EXPECT_EQ(run({"path", "add", "2", "dst", "2001:db8:2::1", "plane", "1", "mode", "srh",
		       "segs", "fc00::1,fc00::2", "weight", "3", "deny"}),
		  mrcctl::kOk);
	EXPECT_EQ(run({"path", "add", "3", "dst", "::/0", "plane", "2", "mode", "entropy",
		       "entropy", "16"}),
		  mrcctl::kOk);
	auto a = sent(0, MRC_A_PATH);
	EXPECT_EQ(a.u8(MRC_PATH_A_MODE), MRC_FWD_USID);
	EXPECT_EQ(mrc::addr_str(*a.in6(MRC_PATH_A_USID)), "fc00:0:1::");
	auto b = sent(1, MRC_A_PATH);
	EXPECT_EQ(b.u8(MRC_PATH_A_DST_LEN), 128);
	EXPECT_EQ(b.nested(MRC_PATH_A_SEGS).all().size(), 2u);
	EXPECT_EQ(b.u8(MRC_PATH_A_WEIGHT), 3);
	EXPECT_EQ(b.u8(MRC_PATH_A_DENY), 1);
	auto c = sent(2, MRC_A_PATH);
	EXPECT_EQ(c.u16(MRC_PATH_A_ENTROPY), 16);
	EXPECT_EQ(c.u8(MRC_PATH_A_DST_LEN), 0);
}

TEST_F(Cmd, PathSetDelShow)
{
	EXPECT_EQ(run({"path", "set", "4", "allow", "weight", "9"}), mrcctl::kOk);
	auto n = sent(0, MRC_A_PATH);
	EXPECT_EQ(n.u8(MRC_PATH_A_DENY), 0);
	EXPECT_EQ(n.u8(MRC_PATH_A_WEIGHT), 9);
	EXPECT_EQ(run({"path", "del", "4"}), mrcctl::kOk);
	EXPECT_EQ(fake->calls[1].req.cmd, MRC_CMD_PATH_DEL);

	mrc::Path p;
	p.id = 4;
	p.dst = A("2001:db8:2::");
	p.dst_len = 48;
	p.plane = 1;
	p.mode = mrc::FwdMode::Srh;
	p.segs = {A("fc00::1"), A("fc00::2")};
	p.weight = 1;
	p.deny = true;
	// Encode the reply the way the kernel does, via the request encoder.
	auto f2 = std::make_unique<FakeTransport>();
	auto *fp = f2.get();
	mrc::Client encoder(std::move(f2));
	encoder.path_add(p);
	fake->reply_many({{MRC_CMD_PATH_GET, fp->calls[0].req.attrs}});
	EXPECT_EQ(run({"path"}), mrcctl::kOk);
	EXPECT_EQ(out.str(), "id  dst              plane  mode  via              weight  state\n"
			     "4   2001:db8:2::/48  1      srh   fc00::1,fc00::2  1       deny\n");
	out.str("");
	fake->reply_many({{MRC_CMD_PATH_GET, fp->calls[0].req.attrs}});
	EXPECT_EQ(run({"-j", "path", "show", "4"}), mrcctl::kOk);
	EXPECT_EQ(out.str(),
		  "[{\"deny\":true,\"dst\":\"2001:db8:2::/48\",\"id\":4,\"mode\":\"srh\","
		  "\"plane\":1,\"segs\":[\"fc00::1\",\"fc00::2\"],\"weight\":1}]\n");
}

// ---- policies and settings ----

TEST_F(Cmd, PolicyAddParsesDurations)
{
	EXPECT_EQ(run({"policy", "add", "fast", "rto-min", "500us", "rto-max", "2s", "skip", "100",
		       "retry-limit", "3", "ecn", "off"}),
		  mrcctl::kOk);
	auto n = sent(0, MRC_A_POLICY);
	EXPECT_EQ(n.str(MRC_POLICY_A_NAME), "fast");
	EXPECT_EQ(n.u64(MRC_POLICY_A_RTO_MIN), 500000u);
	EXPECT_EQ(n.u64(MRC_POLICY_A_RTO_MAX), 2000000000u);
	EXPECT_EQ(n.u64(MRC_POLICY_A_SKIP), 100u);
	EXPECT_EQ(n.u32(MRC_POLICY_A_RETRY_LIMIT), 3u);
	EXPECT_EQ(n.u8(MRC_POLICY_A_ECN_RESPONSE), 0);
	EXPECT_EQ(run({"policy", "set", "fast", "min-active", "2"}), mrcctl::kOk);
	EXPECT_EQ(fake->calls[1].req.cmd, MRC_CMD_POLICY_SET);
	EXPECT_EQ(run({"policy", "del", "fast"}), mrcctl::kOk);
	EXPECT_EQ(fake->calls[2].req.cmd, MRC_CMD_POLICY_DEL);
}

TEST_F(Cmd, PolicyShowMarksTheDefault)
{
	AttrWriter w;
	w.begin_nest(MRC_A_POLICY)
	    .put_str(MRC_POLICY_A_NAME, "default")
	    .put_u64(MRC_POLICY_A_RTO_MIN, 2000000)
	    .put_u64(MRC_POLICY_A_RTO_MAX, 500000000)
	    .put_u64(MRC_POLICY_A_PROBE_INTERVAL, 5000000)
	    .put_u64(MRC_POLICY_A_SKIP, 1000000)
	    .put_u32(MRC_POLICY_A_RETRY_LIMIT, 15)
	    .put_u32(MRC_POLICY_A_FAIL_TO_BAD, 2)
	    .put_u32(MRC_POLICY_A_SUCCESS_TO_GOOD, 3)
	    .put_u32(MRC_POLICY_A_MIN_ACTIVE, 4)
	    .put_u32(MRC_POLICY_A_MAX_PATHS, 64)
	    .put_u32(MRC_POLICY_A_BACKUPS, 2)
	    .put_u32(MRC_POLICY_A_SACK_GAP, 8)
	    .put_u8(MRC_POLICY_A_ECN_RESPONSE, 1)
	    .put_u8(MRC_POLICY_A_KEEPALIVE, 1)
	    .put_u64(MRC_POLICY_A_KEEPALIVE_IDLE, 60000000000ull)
	    .put_u64(MRC_POLICY_A_KEEPALIVE_INTERVAL, 10000000000ull)
	    .put_u32(MRC_POLICY_A_KEEPALIVE_COUNT, 3)
	    .put_u8(MRC_POLICY_A_DEFAULT, 1)
	    .end_nest();
	fake->reply(MRC_CMD_POLICY_GET, w);
	EXPECT_EQ(run({"policy", "show"}), mrcctl::kOk);
	EXPECT_EQ(
	    out.str(),
	    "name      rto-min  rto-max  retry  probe  skip  bad  good  min-act  max-paths  "
	    "backups  sack-gap  ecn  keepalive  ka-idle  ka-intvl  ka-cnt\n"
	    "default*  2ms      500ms    15     5ms    1ms   2    3     4        64         2    "
	    "    8         on   on         60s      10s       3\n");
}

TEST_F(Cmd, Info)
{
	AttrWriter w;
	w.put_str(MRC_A_INFO_VERSION, "0.1.0")
	    .put_u32(MRC_A_INFO_AF, 25)
	    .put_u16(MRC_A_INFO_UDP_PORT, 4791)
	    .put_u64(MRC_A_INFO_NETNS_COOKIE, 7)
	    .put_u32(MRC_A_INFO_IPPROTO, 261);
	fake->reply(MRC_CMD_INFO_GET, w);
	EXPECT_EQ(run({"info"}), mrcctl::kOk);
	EXPECT_EQ(out.str(), "version  af  ipproto  udp_port  netns\n"
			     "0.1.0    25  261      4791      7\n");
	out.str("");
	fake->reply(MRC_CMD_INFO_GET, w);
	EXPECT_EQ(run({"-j", "info"}), mrcctl::kOk);
	EXPECT_EQ(out.str(), "{\"af\":25,\"ipproto\":261,\"netns_cookie\":7,\"udp_port\":4791,"
			     "\"version\":\"0.1.0\"}\n");
}

TEST_F(Cmd, Settings)
{
	AttrWriter w;
	w.begin_nest(MRC_A_SETTINGS)
	    .put_u16(MRC_SETTINGS_A_UDP_PORT, 4791)
	    .put_str(MRC_SETTINGS_A_DEFAULT_POLICY, "default")
	    .put_u32(MRC_SETTINGS_A_MAX_EV_SET, 64)
	    .end_nest();
	fake->reply(MRC_CMD_SETTINGS_GET, w);
	EXPECT_EQ(run({"-j", "settings"}), mrcctl::kOk);
	EXPECT_EQ(out.str(),
		  "{\"default_policy\":\"default\",\"max_ev_set\":64,\"udp_port\":4791}\n");
	EXPECT_EQ(run({"settings", "set", "udp-port", "5000", "max-ev-set", "8"}), mrcctl::kOk);
	auto n = sent(1, MRC_A_SETTINGS);
	EXPECT_EQ(n.u16(MRC_SETTINGS_A_UDP_PORT), 5000);
	EXPECT_EQ(n.u32(MRC_SETTINGS_A_MAX_EV_SET), 8u);
	EXPECT_FALSE(n.has(MRC_SETTINGS_A_DEFAULT_POLICY));
}

// ---- connections, stats, monitor, probe ----

mrc::Message conn_msg()
{
	AttrWriter w;
	w.begin_nest(MRC_A_CONN)
	    .put_u32(MRC_CONN_A_ID, 7)
	    .put_in6(MRC_CONN_A_LOCAL_ADDR, A("2001:db8::1"))
	    .put_in6(MRC_CONN_A_REMOTE_ADDR, A("2001:db8::2"))
	    .put_u16(MRC_CONN_A_LOCAL_PORT, 5000)
	    .put_u16(MRC_CONN_A_REMOTE_PORT, 6000)
	    .put_u8(MRC_CONN_A_STATE, MRC_CONN_ESTABLISHED)
	    .put_str(MRC_CONN_A_POLICY, "default")
	    .put_u32(MRC_CONN_A_SRTT, 250)
	    .put_u32(MRC_CONN_A_RTO, 2000)
	    .put_u32(MRC_CONN_A_CWND, 65536)
	    .put_u32(MRC_CONN_A_PATHS_GOOD, 7)
	    .put_u32(MRC_CONN_A_PATHS_BAD, 1)
	    .put_u64(MRC_CONN_A_RETX_RTO, 2)
	    .put_u64(MRC_CONN_A_TTR_COUNT, 1)
	    .put_u64(MRC_CONN_A_TTR_MAX, 3000000)
	    .begin_nest(MRC_CONN_A_PATHS)
	    .begin_nest(MRC_CONN_A_PATH)
	    .put_u32(MRC_CPATH_A_EV, 42)
	    .put_u32(MRC_CPATH_A_PLANE, 1)
	    .put_u32(MRC_CPATH_A_PATH_ID, 5)
	    .put_u8(MRC_CPATH_A_STATE, MRC_PATH_ASSUMED_BAD)
	    .put_u8(MRC_CPATH_A_REASON, MRC_PR_TIMEOUT)
	    .put_u64(MRC_CPATH_A_TX_PKTS, 100)
	    .put_u64(MRC_CPATH_A_LOST_PKTS, 3)
	    .end_nest()
	    .end_nest()
	    .end_nest();
	return {MRC_CMD_CONN_GET, w.bytes()};
}

TEST_F(Cmd, ConnShowWithFilterAndPaths)
{
	fake->reply_many({conn_msg()});
	EXPECT_EQ(run({"conn", "show", "remote", "2001:db8::2", "state", "established", "paths"}),
		  mrcctl::kOk)
	    << err.str();
	auto f = sent(0, MRC_A_CONN);
	EXPECT_EQ(f.u8(MRC_CONN_A_STATE), MRC_CONN_ESTABLISHED);
	EXPECT_TRUE(f.has(MRC_CONN_A_REMOTE_ADDR));
	EXPECT_FALSE(f.has(MRC_CONN_A_LOCAL_ADDR));
	std::string s = out.str();
	EXPECT_NE(s.find("7   established  [2001:db8::1]:5000  [2001:db8::2]:6000  default  250us"),
		  std::string::npos)
	    << s;
	EXPECT_NE(s.find("7/0/1/0/0"), std::string::npos);
	EXPECT_NE(s.find("1/3ms"), std::string::npos);
	EXPECT_NE(s.find("conn 7 paths:"), std::string::npos);
	EXPECT_NE(s.find("42  1      5     assumed-bad  timeout"), std::string::npos) << s;
	out.str("");
	fake->reply_many({conn_msg()});
	EXPECT_EQ(run({"-j", "conn"}), mrcctl::kOk);
	EXPECT_NE(out.str().find("\"paths\":[{\"ecn_marks\":0,\"ev\":42,\"lost_pkts\":3"),
		  std::string::npos)
	    << out.str();
}

mrc::Message stats_msg(uint64_t pkts)
{
	AttrWriter w;
	w.begin_nest(MRC_A_STATS)
	    .put_u64(MRC_MIB_IN_PKTS, pkts)
	    .put_u64(MRC_MIB_OUT_PKTS, 0)
	    .put_u64(MRC_MIB_PLANE_DOWN, 1)
	    .end_nest();
	return {MRC_CMD_STATS_GET, w.bytes()};
}

TEST_F(Cmd, StatsHidesZeroesUnlessAll)
{
	fake->reply_many({stats_msg(10)});
	EXPECT_EQ(run({"stats"}), mrcctl::kOk);
	EXPECT_EQ(out.str(), "counter    value\nInPkts     10\nPlaneDown  1\n");
	out.str("");
	fake->reply_many({stats_msg(10)});
	EXPECT_EQ(run({"stats", "-a"}), mrcctl::kOk);
	EXPECT_NE(out.str().find("OutPkts    0"), std::string::npos);
	out.str("");
	fake->reply_many({stats_msg(10)});
	EXPECT_EQ(run({"-j", "stats"}), mrcctl::kOk);
	EXPECT_EQ(out.str(), "{\"counters\":{\"InPkts\":10,\"OutPkts\":0,\"PlaneDown\":1}}\n");
}

TEST_F(Cmd, StatsWatchShowsRates)
{
	fake->reply_many({stats_msg(0)});
	fake->reply_many({stats_msg(100)});
	fake->reply_many({stats_msg(300)});
	EXPECT_EQ(run({"stats", "-w", "1", "-c", "2"}), mrcctl::kOk) << err.str();
	EXPECT_EQ(slept, (std::vector<double>{1, 1}));
	EXPECT_EQ(fake->calls.size(), 3u);
	std::string s = out.str();
	EXPECT_NE(s.find("every 1s:\ncounter    value  rate/s\nInPkts     100"), std::string::npos)
	    << s;
	EXPECT_EQ(run({"stats", "-w", "0"}), mrcctl::kUsage);
}

TEST_F(Cmd, StatsAsPrometheusAndOpenMetrics)
{
	fake->reply_many({stats_msg(10)});
	fake->reply_many({}); // planes
	fake->reply_many({}); // connections
	EXPECT_EQ(run({"stats", "-o", "prometheus", "--netns-label", "ns1"}), mrcctl::kOk)
	    << err.str();
	ASSERT_EQ(fake->calls.size(), 3u);
	EXPECT_EQ(fake->calls[1].operation, "plane show");
	EXPECT_EQ(fake->calls[2].operation, "conn show");
	std::string s = out.str();
	EXPECT_NE(s.find("# TYPE mrc_in_packets_total counter\nmrc_in_packets_total{netns=\"ns1\"} "
			 "10\n"),
		  std::string::npos)
	    << s;
	EXPECT_NE(s.find("mrc_plane_transitions_total{netns=\"ns1\",to=\"down\"} 1\n"),
		  std::string::npos);
	out.str("");
	fake->reply_many({stats_msg(10)});
	fake->reply_many({});
	fake->reply_many({});
	EXPECT_EQ(run({"stats", "-o", "openmetrics", "--netns-label", "ns1"}), mrcctl::kOk);
	EXPECT_NE(out.str().find("# TYPE mrc_in_packets counter\n"), std::string::npos);
	EXPECT_EQ(out.str().substr(out.str().size() - 6), "# EOF\n");
}

TEST_F(Cmd, StatsOutputUsageErrors)
{
	EXPECT_EQ(run({"stats", "-o", "xml"}), mrcctl::kUsage);
	EXPECT_EQ(run({"stats", "-o", "prometheus", "-w", "1"}), mrcctl::kUsage);
	EXPECT_NE(err.str().find("mrcctl: stats: -w cannot go with -o prometheus"),
		  std::string::npos)
	    << err.str();
	EXPECT_EQ(run({"stats", "-o", "prometheus", "--top-by", "age"}), mrcctl::kUsage);
	EXPECT_TRUE(fake->calls.empty());
}

mrc::Message event_msg(uint8_t type)
{
	AttrWriter w;
	w.begin_nest(MRC_A_EVENT)
	    .put_u8(MRC_EVENT_A_TYPE, type)
	    .put_u64(MRC_EVENT_A_TIMESTAMP, 1700000000123456789ull);
	if (type == MRC_EVENT_PLANE_DOWN)
		w.put_u32(MRC_EVENT_A_PLANE, 2)
		    .put_u32(MRC_EVENT_A_IFINDEX, 0)
		    .put_u8(MRC_EVENT_A_REASON, MRC_PLANE_R_LINK);
	else
		w.put_u32(MRC_EVENT_A_CONN_ID, 3)
		    .put_u32(MRC_EVENT_A_EV, 17)
		    .put_u32(MRC_EVENT_A_PLANE, 1)
		    .put_u8(MRC_EVENT_A_OLD_STATE, MRC_PATH_GOOD)
		    .put_u8(MRC_EVENT_A_NEW_STATE, MRC_PATH_ASSUMED_BAD)
		    .put_u8(MRC_EVENT_A_REASON, MRC_PR_TIMEOUT)
		    .put_u64(MRC_EVENT_A_DROPS, 4);
	w.end_nest();
	return {MRC_CMD_EVENT, w.bytes()};
}

TEST_F(Cmd, MonitorPrintsTimestampedEvents)
{
	fake->events = {event_msg(MRC_EVENT_PLANE_DOWN), event_msg(MRC_EVENT_PATH_STATE)};
	EXPECT_EQ(run({"monitor", "-c", "2"}), mrcctl::kOk) << err.str();
	EXPECT_TRUE(fake->subscribed);
	EXPECT_EQ(out.str(), "2023-11-14T22:13:20.123456Z plane-down plane 2 dev 0 reason link\n"
			     "2023-11-14T22:13:20.123456Z path-state conn 3 ev 17 plane 1 good -> "
			     "assumed-bad reason timeout drops 4\n");
	EXPECT_EQ(err.str(), "mrcctl: monitoring events\n");
	out.str("");
	fake->events = {event_msg(MRC_EVENT_PLANE_DOWN)};
	EXPECT_EQ(run({"-j", "monitor", "-t", "1"}), mrcctl::kOk);
	EXPECT_EQ(out.str(), "{\"ifindex\":0,\"plane\":2,\"reason\":\"link\",\"timestamp_ns\":"
			     "1700000000123456789,\"type\":\"plane-down\"}\n");
}

TEST_F(Cmd, ProbeReportsTheKernelsAnswer)
{
	AttrWriter w;
	w.begin_nest(MRC_A_PROBE).put_u64(MRC_PROBE_A_RTT, 1500000).end_nest();
	fake->reply(MRC_CMD_PROBE, w);
	EXPECT_EQ(run({"probe", "2001:db8::9", "path", "3", "timeout", "100"}), mrcctl::kOk);
	EXPECT_EQ(out.str(), "probe 2001:db8::9 path 3: rtt 1500us\n");
	auto n = sent(0, MRC_A_PROBE);
	EXPECT_EQ(n.u32(MRC_PROBE_A_TIMEOUT_MS), 100u);
	out.str("");
	AttrWriter t;
	t.begin_nest(MRC_A_PROBE).put_u8(MRC_PROBE_A_TIMED_OUT, 1).end_nest();
	fake->reply(MRC_CMD_PROBE, t);
	EXPECT_EQ(run({"probe", "2001:db8::9", "path", "3"}), mrcctl::kFailed);
	EXPECT_EQ(out.str(), "probe 2001:db8::9 path 3: timeout\n");
	EXPECT_EQ(err.str(), "mrcctl: probe: no answer in time\n");
	err.str("");
	fake->fail(EOPNOTSUPP, "probe: probes need the data path (not built yet) [Operation not "
			       "supported]");
	EXPECT_EQ(run({"probe", "2001:db8::9", "path", "3"}), mrcctl::kFailed);
	EXPECT_EQ(err.str(), "mrcctl: probe: probes need the data path (not built yet) [Operation "
			     "not supported]\n");
}

TEST_F(Cmd, KernelErrorsExit1)
{
	fake->fail(EEXIST, "plane add: a plane with this id already exists (MRC_PLANE_A_ID) "
			   "[File exists]");
	EXPECT_EQ(run({"plane", "add", "1", "dev", "e", "saddr", "2001:db8::1"}), mrcctl::kFailed);
	EXPECT_EQ(err.str(), "mrcctl: plane add: a plane with this id already exists "
			     "(MRC_PLANE_A_ID) [File exists]\n");
}

TEST(CliNoModule, EveryCommandExits3)
{
	const std::vector<std::vector<std::string>> cmds = {
	    {"plane"},
	    {"plane", "add", "1", "dev", "e", "saddr", "2001:db8::1"},
	    {"path", "show"},
	    {"policy", "del", "x"},
	    {"settings"},
	    {"conn"},
	    {"stats"},
	    {"monitor"},
	    {"probe", "2001:db8::1", "path", "1"}};
	for (const auto &c : cmds) {
		std::ostringstream out, err;
		mrcctl::Context ctx;
		ctx.out = &out;
		ctx.err = &err;
		ctx.connect = []() -> std::unique_ptr<mrc::Client> {
			throw mrc::ModuleNotLoaded();
		};
		EXPECT_EQ(mrcctl::run(c, ctx), mrcctl::kNoModule) << c[0];
		EXPECT_NE(err.str().find("not loaded"), std::string::npos);
	}
}

// ---- batch ----

struct Batch : Cmd {
	std::string path;
	void write(const std::string &text)
	{
		char tmpl[] = "/tmp/mrcctl-batch-XXXXXX";
		int fd = mkstemp(tmpl);
		ASSERT_GE(fd, 0);
		close(fd);
		path = tmpl;
		std::ofstream(path) << text;
	}
	void TearDown() override
	{
		if (!path.empty())
			unlink(path.c_str());
	}
};

TEST_F(Batch, RunsEveryLine)
{
	write("# a fabric\n"
	      "plane add 0 dev eth0 saddr 2001:db8::1\n"
	      "\n"
	      "path add 1 dst 2001:db8:2::/48 plane 0 mode usid usid fc00::1   # comment\n"
	      "policy add \"fast\" rto-min 1ms\n");
	EXPECT_EQ(run({"-batch", path}), mrcctl::kOk) << err.str();
	ASSERT_EQ(fake->calls.size(), 3u);
	EXPECT_EQ(fake->calls[2].req.cmd, MRC_CMD_POLICY_ADD);
	EXPECT_EQ(sent(2, MRC_A_POLICY).str(MRC_POLICY_A_NAME), "fast");
}

TEST_F(Batch, StopsAtTheFirstFailureAndNamesItsLine)
{
	write("plane add 0 dev eth0 saddr 2001:db8::1\n"
	      "plane add 0 dev eth0 saddr 2001:db8::1\n"
	      "plane add 1 dev eth1 saddr 2001:db8::2\n");
	fake->replies.push_back({});
	fake->fail(EEXIST, "plane add: a plane with this id already exists (MRC_PLANE_A_ID) "
			   "[File exists]");
	EXPECT_EQ(run({"-batch", path}), mrcctl::kFailed);
	EXPECT_EQ(fake->calls.size(), 2u);
	EXPECT_EQ(err.str(), "mrcctl: " + path +
				 ":2: plane add: a plane with this id already exists "
				 "(MRC_PLANE_A_ID) [File exists]\n");
}

TEST_F(Batch, UsageErrorsAndMalformedLines)
{
	write("plane add 0 dev eth0 saddr 2001:db8::1\nplane add 1 dev \"eth1\n");
	EXPECT_EQ(run({"-batch", path}), mrcctl::kUsage);
	EXPECT_EQ(err.str(), "mrcctl: " + path + ":2: unterminated quote\n");
	err.str("");
	write("plane frob\n");
	EXPECT_EQ(run({"--batch", path}), mrcctl::kUsage);
	EXPECT_EQ(err.str().rfind("mrcctl: " + path + ":1: ", 0), 0u) << err.str();
	err.str("");
	write("path add 1 dst ::/0 plane 0 mode warp\n");
	EXPECT_EQ(run({"-b", path}), mrcctl::kUsage);
	EXPECT_EQ(err.str(),
		  "mrcctl: " + path + ":1: invalid mode 'warp': expected usid, srh or entropy\n");
	err.str("");
	write("-batch /etc/passwd\n");
	EXPECT_EQ(run({"-batch", path}), mrcctl::kUsage);
	EXPECT_EQ(err.str(), "mrcctl: " + path + ":1: -batch cannot be nested\n");
}

TEST_F(Batch, MissingFileAndBadUsage)
{
	EXPECT_EQ(run({"-batch", "/nonexistent/file"}), mrcctl::kUsage);
	EXPECT_EQ(err.str(), "mrcctl: cannot open batch file '/nonexistent/file'\n");
	err.str("");
	EXPECT_EQ(run({"-batch"}), mrcctl::kUsage);
	EXPECT_EQ(run({"-batch", "a", "b"}), mrcctl::kUsage);
}

TEST(Args, SplitLine)
{
	using mrcctl::split_line;
	EXPECT_EQ(split_line("  a  b\tc "), (std::vector<std::string>{"a", "b", "c"}));
	EXPECT_EQ(split_line("a 'b c' \"d e\"f # x"),
		  (std::vector<std::string>{"a", "b c", "d ef"}));
	EXPECT_EQ(split_line("a#b"), (std::vector<std::string>{"a#b"}));
	EXPECT_TRUE(split_line("# only").empty());
	EXPECT_THROW(split_line("a 'b"), mrcctl::UsageError);
}

TEST(Args, Durations)
{
	using mrcctl::format_duration;
	using mrcctl::parse_duration;
	EXPECT_EQ(parse_duration("7", "t"), 7u);
	EXPECT_EQ(parse_duration("7ns", "t"), 7u);
	EXPECT_EQ(parse_duration("7us", "t"), 7000u);
	EXPECT_EQ(parse_duration("7ms", "t"), 7000000u);
	EXPECT_EQ(parse_duration("7s", "t"), 7000000000u);
	EXPECT_THROW(parse_duration("99999999999999999999s", "t"), mrcctl::UsageError);
	EXPECT_THROW(parse_duration("18446744073709551s", "t"), mrcctl::UsageError);
	EXPECT_EQ(format_duration(0), "0ns");
	EXPECT_EQ(format_duration(1500), "1500ns");
	EXPECT_EQ(format_duration(3000000), "3ms");
	EXPECT_EQ(format_duration(60000000000), "60s");
}

TEST(Args, NumbersAndPrefixes)
{
	using mrcctl::parse_uint;
	EXPECT_EQ(parse_uint("0x10", "n", 0, 100), 16u);
	EXPECT_THROW(parse_uint("", "n", 0, 1), mrcctl::UsageError);
	EXPECT_THROW(parse_uint("1 ", "n", 0, 1), mrcctl::UsageError);
	EXPECT_THROW(parse_uint("+1", "n", 0, 1), mrcctl::UsageError);
	auto [a, len] = mrcctl::parse_prefix("2001:db8::/32", "p");
	EXPECT_EQ(len, 32);
	EXPECT_EQ(mrc::addr_str(a), "2001:db8::");
	EXPECT_THROW(mrcctl::parse_prefix("2001:db8::/x", "p"), mrcctl::UsageError);
	EXPECT_TRUE(mrcctl::parse_bool("up", "b"));
	EXPECT_FALSE(mrcctl::parse_bool("off", "b"));
}

} // namespace
