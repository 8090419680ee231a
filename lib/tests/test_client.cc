// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: the typed API against a fake netlink layer (no kernel).
#include <mrc/attr.hpp>
#include <mrc/netlink.hpp>

#include <algorithm>
#include <cstring>

#include <gtest/gtest.h>
#include <linux/genetlink.h>
#include <linux/mrc.h>
#include <linux/netlink.h>
#include <sys/socket.h>

#include "fake_transport.hpp"

namespace {

using mrc::Attrs;
using mrc::AttrWriter;
using mrc::testing::FakeTransport;

in6_addr A(const char *s)
{
	return *mrc::parse_addr(s);
}

struct Fixture : ::testing::Test {
	FakeTransport *fake = nullptr;
	std::unique_ptr<mrc::Client> client;
	void SetUp() override
	{
		auto f = std::make_unique<FakeTransport>();
		fake = f.get();
		client = std::make_unique<mrc::Client>(std::move(f));
	}
};

TEST(Attr, RoundTripWithNesting)
{
	AttrWriter w;
	w.put_u32(1, 7).begin_nest(2).put_u8(1, 3).put_str(2, "abc").end_nest().put_u64(3,
											1ull << 40);
	Attrs a(w.bytes());
	EXPECT_EQ(a.u32(1), 7u);
	EXPECT_EQ(a.u64(3), 1ull << 40);
	Attrs n = a.nested(2);
	EXPECT_EQ(n.u8(1), 3);
	EXPECT_EQ(n.str(2), "abc");
	EXPECT_FALSE(a.has(9));
	EXPECT_FALSE(a.u32(9));
}

TEST(Attr, WrongLengthThrowsEproto)
{
	AttrWriter w;
	w.put_u8(1, 1);
	Attrs a(w.bytes());
	try {
		a.u32(1);
		FAIL();
	} catch (const mrc::Error &e) {
		EXPECT_EQ(e.errnum(), EPROTO);
	}
}

TEST(Attr, TruncatedAndCorruptInputIsNotOverread)
{
	AttrWriter w;
	w.put_u32(1, 1).put_u32(2, 2);
	auto b = w.bytes();
	Attrs cut(b.data(), b.size() - 2);
	EXPECT_TRUE(cut.has(1));
	EXPECT_FALSE(cut.has(2));
	b[0] = 200; // length beyond the buffer
	EXPECT_TRUE(Attrs(b).all().empty());
	b[0] = 2; // length below the header
	EXPECT_TRUE(Attrs(b).all().empty());
}

TEST(Attr, EndNestWithoutBeginThrows)
{
	AttrWriter w;
	EXPECT_THROW(w.end_nest(), mrc::Error);
}

TEST_F(Fixture, PlaneAddEncodesANestedPlane)
{
	mrc::Plane p;
	p.id = 3;
	p.ifname = "eth1";
	p.saddr = A("2001:db8::1");
	p.admin_up = false;
	client->plane_add(p);
	ASSERT_EQ(fake->calls.size(), 1u);
	EXPECT_EQ(fake->calls[0].req.cmd, MRC_CMD_PLANE_ADD);
	EXPECT_FALSE(fake->calls[0].dump);
	EXPECT_EQ(fake->calls[0].operation, "plane add");
	Attrs n = fake->last().nested(MRC_A_PLANE);
	EXPECT_EQ(n.u32(MRC_PLANE_A_ID), 3u);
	EXPECT_EQ(n.str(MRC_PLANE_A_IFNAME), "eth1");
	EXPECT_FALSE(n.has(MRC_PLANE_A_IFINDEX));
	EXPECT_EQ(mrc::addr_str(*n.in6(MRC_PLANE_A_SADDR)), "2001:db8::1");
	EXPECT_EQ(n.u8(MRC_PLANE_A_ADMIN), MRC_PLANE_ADMIN_DOWN);
}

TEST_F(Fixture, PlaneDelAndGetSendOnlyTheId)
{
	AttrWriter r;
	r.begin_nest(MRC_A_PLANE).put_u32(MRC_PLANE_A_ID, 5).end_nest();
	fake->reply(MRC_CMD_PLANE_GET, r);
	client->plane_del(5);
	EXPECT_EQ(fake->calls[0].req.cmd, MRC_CMD_PLANE_DEL);
	EXPECT_EQ(fake->last().nested(MRC_A_PLANE).all().size(), 1u);
	// the queued reply answers the del (ignored); get needs its own
	fake->reply(MRC_CMD_PLANE_GET, r);
	EXPECT_EQ(client->plane_get(5).id, 5u);
	EXPECT_EQ(fake->last().nested(MRC_A_PLANE).all().size(), 1u);
}

TEST_F(Fixture, PlanesDumpParsesEveryReply)
{
	std::vector<mrc::Message> msgs;
	for (uint32_t id : {0u, 4u}) {
		AttrWriter w;
		w.begin_nest(MRC_A_PLANE)
		    .put_u32(MRC_PLANE_A_ID, id)
		    .put_u32(MRC_PLANE_A_IFINDEX, 10 + id)
		    .put_str(MRC_PLANE_A_IFNAME, "veth" + std::to_string(id))
		    .put_in6(MRC_PLANE_A_SADDR, A("2001:db8::2"))
		    .put_u8(MRC_PLANE_A_ADMIN, 1)
		    .put_u8(MRC_PLANE_A_OPER, id == 0)
		    .put_u32(MRC_PLANE_A_NR_PATHS, 2)
		    .end_nest();
		msgs.push_back({MRC_CMD_PLANE_GET, w.bytes()});
	}
	fake->reply_many(msgs);
	auto v = client->planes();
	EXPECT_TRUE(fake->calls[0].dump);
	EXPECT_TRUE(fake->calls[0].req.attrs.empty());
	ASSERT_EQ(v.size(), 2u);
	EXPECT_EQ(v[1].id, 4u);
	EXPECT_EQ(v[1].ifindex, 14u);
	EXPECT_EQ(v[1].ifname, "veth4");
	EXPECT_TRUE(v[0].oper_up);
	EXPECT_FALSE(v[1].oper_up);
	EXPECT_EQ(v[0].admin_up, true);
	EXPECT_EQ(v[0].nr_paths, 2u);
}

TEST_F(Fixture, PathAddEncodesTheSegmentList)
{
	mrc::Path p;
	p.id = 9;
	p.dst = A("2001:db8:2::");
	p.dst_len = 48;
	p.plane = 1;
	p.mode = mrc::FwdMode::Srh;
	p.segs = {A("fc00::1"), A("fc00::2"), A("fc00::3")};
	p.weight = 4;
	client->path_add(p);
	Attrs n = fake->last().nested(MRC_A_PATH);
	EXPECT_EQ(n.u8(MRC_PATH_A_MODE), MRC_FWD_SRH);
	EXPECT_EQ(n.u8(MRC_PATH_A_DST_LEN), 48);
	EXPECT_EQ(n.u8(MRC_PATH_A_WEIGHT), 4);
	EXPECT_FALSE(n.has(MRC_PATH_A_DENY));
	EXPECT_FALSE(n.has(MRC_PATH_A_USID));
	Attrs segs = n.nested(MRC_PATH_A_SEGS);
	ASSERT_EQ(segs.all().size(), 3u);
	EXPECT_EQ(segs.all()[2].type(), MRC_SEG_A_ADDR);
	EXPECT_EQ(mrc::addr_str(segs.all()[2].in6()), "fc00::3");
	// and back
	mrc::Path q = mrc::parse_path(fake->calls[0].req.attrs);
	EXPECT_EQ(q.segs.size(), 3u);
	EXPECT_EQ(q.mode, mrc::FwdMode::Srh);
	EXPECT_EQ(q.weight, 4);
}

TEST_F(Fixture, PathSetSendsOnlyWhatChanges)
{
	client->path_set({7, std::nullopt, true});
	Attrs n = fake->last().nested(MRC_A_PATH);
	EXPECT_EQ(fake->calls[0].req.cmd, MRC_CMD_PATH_SET);
	EXPECT_EQ(n.u32(MRC_PATH_A_ID), 7u);
	EXPECT_EQ(n.u8(MRC_PATH_A_DENY), 1);
	EXPECT_FALSE(n.has(MRC_PATH_A_WEIGHT));
}

TEST_F(Fixture, PolicyAddSendsOnlyGivenKnobs)
{
	mrc::Policy p;
	p.name = "fast";
	p.rto_min_ns = 1000000;
	p.fail_to_bad = 1;
	p.ecn_response = false;
	client->policy_add(p);
	Attrs n = fake->last().nested(MRC_A_POLICY);
	EXPECT_EQ(n.str(MRC_POLICY_A_NAME), "fast");
	EXPECT_EQ(n.u64(MRC_POLICY_A_RTO_MIN), 1000000u);
	EXPECT_EQ(n.u32(MRC_POLICY_A_FAIL_TO_BAD), 1u);
	EXPECT_EQ(n.u8(MRC_POLICY_A_ECN_RESPONSE), 0);
	EXPECT_FALSE(n.has(MRC_POLICY_A_RTO_MAX));
	EXPECT_EQ(n.all().size(), 4u);
	client->policy_del("fast");
	EXPECT_EQ(fake->last().nested(MRC_A_POLICY).all().size(), 1u);
}

TEST_F(Fixture, PolicyParsesEveryKnob)
{
	AttrWriter w;
	w.begin_nest(MRC_A_POLICY)
	    .put_str(MRC_POLICY_A_NAME, "default")
	    .put_u64(MRC_POLICY_A_RTO_MIN, 1)
	    .put_u64(MRC_POLICY_A_RTO_MAX, 2)
	    .put_u64(MRC_POLICY_A_PROBE_INTERVAL, 3)
	    .put_u64(MRC_POLICY_A_SKIP, 4)
	    .put_u32(MRC_POLICY_A_RETRY_LIMIT, 5)
	    .put_u32(MRC_POLICY_A_FAIL_TO_BAD, 6)
	    .put_u32(MRC_POLICY_A_SUCCESS_TO_GOOD, 7)
	    .put_u32(MRC_POLICY_A_MIN_ACTIVE, 8)
	    .put_u32(MRC_POLICY_A_MAX_PATHS, 9)
	    .put_u32(MRC_POLICY_A_BACKUPS, 10)
	    .put_u32(MRC_POLICY_A_SACK_GAP, 11)
	    .put_u8(MRC_POLICY_A_ECN_RESPONSE, 1)
	    .put_u8(MRC_POLICY_A_DEFAULT, 1)
	    .end_nest();
	fake->reply(MRC_CMD_POLICY_GET, w);
	auto p = client->policy_get("default");
	EXPECT_EQ(p.rto_min_ns, 1u);
	EXPECT_EQ(p.rto_max_ns, 2u);
	EXPECT_EQ(p.probe_interval_ns, 3u);
	EXPECT_EQ(p.skip_ns, 4u);
	EXPECT_EQ(p.retry_limit, 5u);
	EXPECT_EQ(p.fail_to_bad, 6u);
	EXPECT_EQ(p.success_to_good, 7u);
	EXPECT_EQ(p.min_active, 8u);
	EXPECT_EQ(p.max_paths, 9u);
	EXPECT_EQ(p.backups, 10u);
	EXPECT_EQ(p.sack_gap, 11u);
	EXPECT_EQ(p.ecn_response, true);
	EXPECT_TRUE(p.is_default);
}

TEST_F(Fixture, SettingsRoundTrip)
{
	AttrWriter w;
	w.begin_nest(MRC_A_SETTINGS)
	    .put_u16(MRC_SETTINGS_A_UDP_PORT, 4792)
	    .put_str(MRC_SETTINGS_A_DEFAULT_POLICY, "fast")
	    .put_u32(MRC_SETTINGS_A_MAX_EV_SET, 128)
	    .end_nest();
	fake->reply(MRC_CMD_SETTINGS_GET, w);
	auto s = client->settings();
	EXPECT_EQ(s.udp_port, 4792);
	EXPECT_EQ(s.default_policy, "fast");
	EXPECT_EQ(s.max_ev_set, 128u);
	client->settings_set({std::nullopt, std::string("x"), std::nullopt});
	Attrs n = fake->last().nested(MRC_A_SETTINGS);
	EXPECT_EQ(n.all().size(), 1u);
	EXPECT_EQ(n.str(MRC_SETTINGS_A_DEFAULT_POLICY), "x");
}

mrc::Message conn_msg(uint32_t id)
{
	AttrWriter w;
	w.begin_nest(MRC_A_CONN)
	    .put_u32(MRC_CONN_A_ID, id)
	    .put_in6(MRC_CONN_A_LOCAL_ADDR, A("2001:db8::1"))
	    .put_in6(MRC_CONN_A_REMOTE_ADDR, A("2001:db8::2"))
	    .put_u16(MRC_CONN_A_LOCAL_PORT, 5000)
	    .put_u16(MRC_CONN_A_REMOTE_PORT, 6000)
	    .put_u8(MRC_CONN_A_TYPE, SOCK_STREAM)
	    .put_u8(MRC_CONN_A_STATE, MRC_CONN_ESTABLISHED)
	    .put_str(MRC_CONN_A_POLICY, "default")
	    .put_u32(MRC_CONN_A_SRTT, 250)
	    .put_u32(MRC_CONN_A_PATHS_GOOD, 3)
	    .put_u32(MRC_CONN_A_PATHS_BAD, 1)
	    .put_u64(MRC_CONN_A_RETX_RTO, 2)
	    .put_u64(MRC_CONN_A_TTR_COUNT, 1)
	    .put_u64(MRC_CONN_A_TTR_MAX, 3000000)
	    .begin_nest(MRC_CONN_A_PATHS);
	for (uint32_t ev = 0; ev < 2; ev++)
		w.begin_nest(MRC_CONN_A_PATH)
		    .put_u32(MRC_CPATH_A_EV, 100 + ev)
		    .put_u32(MRC_CPATH_A_PLANE, ev)
		    .put_u8(MRC_CPATH_A_STATE, ev ? MRC_PATH_ASSUMED_BAD : MRC_PATH_GOOD)
		    .put_u8(MRC_CPATH_A_REASON, ev ? MRC_PR_TIMEOUT : MRC_PR_NONE)
		    .put_u64(MRC_CPATH_A_TX_PKTS, 10)
		    .end_nest();
	w.end_nest().end_nest();
	return {MRC_CMD_CONN_GET, w.bytes()};
}

TEST_F(Fixture, ConnDumpWithFilterAndPaths)
{
	fake->reply_many({conn_msg(1), conn_msg(2)});
	mrc::ConnFilter f;
	f.remote_addr = A("2001:db8::2");
	f.state = MRC_CONN_ESTABLISHED;
	auto v = client->conns(f);
	EXPECT_TRUE(fake->calls[0].dump);
	Attrs n = fake->last().nested(MRC_A_CONN);
	EXPECT_EQ(n.all().size(), 2u);
	EXPECT_EQ(n.u8(MRC_CONN_A_STATE), MRC_CONN_ESTABLISHED);
	ASSERT_EQ(v.size(), 2u);
	EXPECT_EQ(v[1].id, 2u);
	EXPECT_EQ(v[0].remote_port, 6000);
	EXPECT_EQ(v[0].policy, "default");
	EXPECT_EQ(v[0].paths_good, 3u);
	EXPECT_EQ(v[0].ttr_max_ns, 3000000u);
	ASSERT_EQ(v[0].paths.size(), 2u);
	EXPECT_EQ(v[0].paths[1].ev, 101u);
	EXPECT_EQ(v[0].paths[1].state, MRC_PATH_ASSUMED_BAD);
	EXPECT_FALSE(v[0].paths[1].path_id);
}

TEST_F(Fixture, ConnDumpWithoutFilterSendsNoAttributes)
{
	client->conns();
	EXPECT_TRUE(fake->calls[0].req.attrs.empty());
}

// The messages of a connection with @n EVs split as the kernel splits
// them: the first with every attribute and MRC_CONN_A_NR_PATHS, the next
// ones with the id, MRC_CONN_A_PATHS_FROM and @per more EVs each.
std::vector<mrc::Message> split_conn(uint32_t id, uint32_t n, uint32_t per)
{
	std::vector<mrc::Message> v;
	for (uint32_t from = 0; from < n || !from; from += per) {
		AttrWriter w;
		w.begin_nest(MRC_A_CONN).put_u32(MRC_CONN_A_ID, id);
		if (from)
			w.put_u32(MRC_CONN_A_PATHS_FROM, from);
		else
			w.put_u8(MRC_CONN_A_STATE, MRC_CONN_ESTABLISHED)
			    .put_str(MRC_CONN_A_POLICY, "wide")
			    .put_u32(MRC_CONN_A_NR_PATHS, n);
		w.begin_nest(MRC_CONN_A_PATHS);
		for (uint32_t ev = from; ev < std::min(n, from + per); ev++)
			w.begin_nest(MRC_CONN_A_PATH)
			    .put_u32(MRC_CPATH_A_EV, ev + 1)
			    .put_u32(MRC_CPATH_A_PLANE, ev % 4)
			    .put_u64(MRC_CPATH_A_TX_PKTS, ev)
			    .end_nest();
		w.end_nest().end_nest();
		v.push_back({MRC_CMD_CONN_GET, w.bytes()});
		if (!n)
			break;
	}
	return v;
}

// A connection split over messages is put back together, between others.
TEST_F(Fixture, ConnDumpJoinsASplitConnection)
{
	auto msgs = split_conn(9, 1024, 128);
	ASSERT_EQ(msgs.size(), 8u);
	msgs.insert(msgs.begin(), conn_msg(1));
	msgs.push_back(conn_msg(2));
	fake->reply_many(msgs);
	auto v = client->conns();
	ASSERT_EQ(v.size(), 3u);
	EXPECT_EQ(v[0].id, 1u);
	EXPECT_EQ(v[0].paths.size(), 2u);
	EXPECT_EQ(v[1].id, 9u);
	EXPECT_EQ(v[1].policy, "wide");
	EXPECT_EQ(v[1].state, MRC_CONN_ESTABLISHED);
	ASSERT_EQ(v[1].paths.size(), 1024u);
	for (uint32_t i = 0; i < 1024; i++)
		ASSERT_EQ(v[1].paths[i].ev, i + 1) << i;
	EXPECT_EQ(v[1].paths[1023].tx_pkts, 1023u);
	EXPECT_EQ(v[2].id, 2u);
}

// The single GET of a wide connection: several messages, one connection.
TEST_F(Fixture, ConnGetJoinsItsMessages)
{
	fake->reply_many(split_conn(9, 300, 128));
	auto c = client->conn_get(9);
	EXPECT_FALSE(fake->calls[0].dump);
	EXPECT_EQ(c.id, 9u);
	ASSERT_EQ(c.paths.size(), 300u);
	EXPECT_EQ(c.paths[299].ev, 300u);
	fake->reply_many(split_conn(0, 0, 128));
	EXPECT_TRUE(client->conn_get(0).paths.empty());
}

// Continuations out of order, of another connection, or missing: an
// error, never a connection with some of its EVs.
TEST_F(Fixture, ConnSplitBrokenIsAnError)
{
	auto expect_eproto = [&](std::vector<mrc::Message> msgs, const char *what) {
		fake->reply_many(std::move(msgs));
		try {
			client->conns();
			FAIL() << what;
		} catch (const mrc::Error &e) {
			EXPECT_EQ(e.errnum(), EPROTO) << what;
			EXPECT_EQ(std::string(e.what()).rfind("conn show: ", 0), 0u) << e.what();
		}
	};
	auto msgs = split_conn(9, 300, 128);
	expect_eproto({msgs[0], msgs[2]}, "a continuation skipped");
	expect_eproto({msgs[0], msgs[1]}, "the last continuation missing");
	expect_eproto({msgs[1], msgs[2]}, "no first message");
	expect_eproto({msgs[0], conn_msg(3), msgs[1], msgs[2]}, "another connection between");
	auto other = split_conn(8, 300, 128);
	expect_eproto({msgs[0], other[1], msgs[2]}, "another connection's continuation");
}

TEST_F(Fixture, StatsAndNames)
{
	AttrWriter w;
	w.begin_nest(MRC_A_STATS).put_u64(MRC_MIB_IN_PKTS, 5).put_u64(MRC_MIB_PLANE_DOWN, 2);
	w.put_u64(200, 9).end_nest(); // a counter this library does not know yet
	fake->reply(MRC_CMD_STATS_GET, w);
	auto s = client->stats();
	EXPECT_EQ(s.get(MRC_MIB_IN_PKTS), 5u);
	EXPECT_EQ(s.get(MRC_MIB_PLANE_DOWN), 2u);
	EXPECT_EQ(s.get(200), 9u);
	EXPECT_FALSE(s.get(MRC_MIB_OUT_PKTS));
	EXPECT_EQ(mrc::mib_name(MRC_MIB_IN_PKTS), "InPkts");
	EXPECT_EQ(mrc::mib_name(MRC_MIB_EVENTS_DROPPED), "EventsDropped");
	EXPECT_EQ(mrc::mib_name(200), "Mib200");
}

TEST_F(Fixture, ProbeEncodesAndParses)
{
	AttrWriter w;
	w.begin_nest(MRC_A_PROBE).put_u64(MRC_PROBE_A_RTT, 123456).end_nest();
	fake->reply(MRC_CMD_PROBE, w);
	auto r = client->probe(A("2001:db8::9"), 4, 250);
	Attrs n = fake->last().nested(MRC_A_PROBE);
	EXPECT_EQ(n.u32(MRC_PROBE_A_PATH_ID), 4u);
	EXPECT_EQ(n.u32(MRC_PROBE_A_TIMEOUT_MS), 250u);
	EXPECT_EQ(r.rtt_ns, 123456u);
	EXPECT_FALSE(r.timed_out);
}

TEST_F(Fixture, ErrorsPropagateWithTheirText)
{
	fake->fail(EEXIST, "plane add: a plane with this id already exists (MRC_PLANE_A_ID) "
			   "[File exists]");
	try {
		client->plane_add({});
		FAIL();
	} catch (const mrc::Error &e) {
		EXPECT_EQ(e.errnum(), EEXIST);
		EXPECT_NE(std::string(e.what()).find("already exists"), std::string::npos);
	}
}

TEST_F(Fixture, EventsSkipOtherMessages)
{
	AttrWriter w;
	w.begin_nest(MRC_A_EVENT)
	    .put_u8(MRC_EVENT_A_TYPE, MRC_EVENT_PATH_STATE)
	    .put_u64(MRC_EVENT_A_TIMESTAMP, 1700000000123456789ull)
	    .put_u32(MRC_EVENT_A_CONN_ID, 3)
	    .put_u32(MRC_EVENT_A_EV, 17)
	    .put_u8(MRC_EVENT_A_OLD_STATE, MRC_PATH_GOOD)
	    .put_u8(MRC_EVENT_A_NEW_STATE, MRC_PATH_ASSUMED_BAD)
	    .put_u8(MRC_EVENT_A_REASON, MRC_PR_TIMEOUT)
	    .put_u64(MRC_EVENT_A_DROPS, 4)
	    .end_nest();
	fake->events.push_back({MRC_CMD_PLANE_GET, {}});
	fake->events.push_back({MRC_CMD_EVENT, w.bytes()});
	client->subscribe();
	EXPECT_TRUE(fake->subscribed);
	auto e = client->next_event(0);
	ASSERT_TRUE(e);
	EXPECT_EQ(e->type, MRC_EVENT_PATH_STATE);
	EXPECT_EQ(e->conn_id, 3u);
	EXPECT_EQ(e->ev, 17u);
	EXPECT_EQ(e->new_state, MRC_PATH_ASSUMED_BAD);
	EXPECT_EQ(e->drops, 4u);
	EXPECT_FALSE(client->next_event(0));
}

// A request as sent: netlink + genl headers, then attributes.
std::vector<uint8_t> as_sent(const AttrWriter &w)
{
	std::vector<uint8_t> req(NLMSG_HDRLEN + GENL_HDRLEN, 0);
	req.insert(req.end(), w.bytes().begin(), w.bytes().end());
	return req;
}

TEST(Errors, NestedAttributesAreNamed)
{
	AttrWriter w;
	w.begin_nest(MRC_A_PLANE)
	    .put_u32(MRC_PLANE_A_ID, 40)              // at 24
	    .put_in6(MRC_PLANE_A_SADDR, A("ff02::1")) // at 32
	    .end_nest();
	auto req = as_sent(w);
	auto path = mrc::attr_path_at_offset(req, 32);
	ASSERT_EQ(path.size(), 2u);
	EXPECT_EQ(mrc::attr_path_name(path), "MRC_PLANE_A_SADDR");
	EXPECT_EQ(mrc::attr_path_name(mrc::attr_path_at_offset(req, 24)), "MRC_PLANE_A_ID");
	EXPECT_EQ(mrc::attr_path_name(mrc::attr_path_at_offset(req, 20)), "MRC_A_PLANE");
	mrc::ExtAck ack;
	ack.message = "integer out of range";
	ack.offset = 24;
	ack.min_value = 0;
	ack.max_value = 31;
	EXPECT_EQ(mrc::describe_error("plane add", ERANGE, ack, req),
		  "plane add: integer out of range (MRC_PLANE_A_ID, valid range 0..31) "
		  "[Numerical result out of range]");
	ack.policy_type = NL_ATTR_TYPE_U32;
	ack.min_value = 1;
	ack.max_value = UINT32_MAX;
	EXPECT_EQ(mrc::describe_error("plane add", ERANGE, ack, req),
		  "plane add: integer out of range (MRC_PLANE_A_ID, at least 1) "
		  "[Numerical result out of range]");
}

TEST(Errors, MissingNestedAttributeIsNamed)
{
	AttrWriter w;
	w.begin_nest(MRC_A_PATH).put_u32(MRC_PATH_A_ID, 1).end_nest();
	auto req = as_sent(w);
	mrc::ExtAck ack;
	ack.message = "mode usid needs a uSID container";
	ack.missing_type = MRC_PATH_A_USID;
	ack.missing_nest = 20;
	EXPECT_EQ(mrc::describe_error("path add", EINVAL, ack, req),
		  "path add: mode usid needs a uSID container (missing MRC_PATH_A_USID) "
		  "[Invalid argument]");
	ack.missing_nest.reset();
	ack.missing_type = MRC_A_PATH;
	EXPECT_EQ(mrc::describe_error("path add", EINVAL, ack, req),
		  "path add: mode usid needs a uSID container (missing MRC_A_PATH) "
		  "[Invalid argument]");
}

TEST(Errors, SegmentsAreNamedInsideTheirList)
{
	AttrWriter w;
	w.begin_nest(MRC_A_PATH).begin_nest(MRC_PATH_A_SEGS);
	w.put_in6(MRC_SEG_A_ADDR, A("fc00::1")).put_in6(MRC_SEG_A_ADDR, A("ff02::1"));
	w.end_nest().end_nest();
	auto req = as_sent(w);
	auto path = mrc::attr_path_at_offset(req, 20 + 4 + 4 + 20);
	ASSERT_EQ(path.size(), 3u);
	EXPECT_EQ(mrc::attr_path_name(path), "MRC_SEG_A_ADDR");
}

TEST(Errors, EveryNestedEnumHasNames)
{
	struct {
		uint16_t top;
		unsigned n;
		const char *prefix;
	} enums[] = {{MRC_A_PLANE, __MRC_PLANE_A_MAX, "MRC_PLANE_A_"},
		     {MRC_A_PATH, __MRC_PATH_A_MAX, "MRC_PATH_A_"},
		     {MRC_A_POLICY, __MRC_POLICY_A_MAX, "MRC_POLICY_A_"},
		     {MRC_A_SETTINGS, __MRC_SETTINGS_A_MAX, "MRC_SETTINGS_A_"},
		     {MRC_A_CONN, __MRC_CONN_A_MAX, "MRC_CONN_A_"},
		     {MRC_A_PROBE, __MRC_PROBE_A_MAX, "MRC_PROBE_A_"},
		     {MRC_A_EVENT, __MRC_EVENT_A_MAX, "MRC_EVENT_A_"}};
	for (const auto &e : enums)
		for (uint16_t t = 0; t < e.n; t++)
			EXPECT_EQ(mrc::attr_path_name({e.top, t}).rfind(e.prefix, 0), 0u)
			    << e.prefix << t;
	EXPECT_EQ(mrc::attr_path_name({MRC_A_PLANE, 99}), "attribute 99");
}

TEST(Names, EnumsHaveToolNames)
{
	EXPECT_EQ(mrc::to_string(mrc::FwdMode::Usid), "usid");
	EXPECT_EQ(mrc::parse_fwd_mode("srh"), mrc::FwdMode::Srh);
	EXPECT_FALSE(mrc::parse_fwd_mode("mpls"));
	EXPECT_EQ(mrc::path_state_name(MRC_PATH_ASSUMED_BAD), "assumed-bad");
	EXPECT_EQ(mrc::path_reason_name(MRC_PR_PATH_REMOVED), "path-removed");
	EXPECT_EQ(mrc::plane_reason_name(MRC_PLANE_R_DEVICE_GONE), "device-gone");
	EXPECT_EQ(mrc::conn_state_name(MRC_CONN_ESTABLISHED), "established");
	EXPECT_EQ(mrc::parse_conn_state("failed"), MRC_CONN_FAILED);
	EXPECT_EQ(mrc::event_type_name(MRC_EVENT_RECOVERY), "recovery");
	EXPECT_EQ(mrc::path_state_name(77), "77");
	EXPECT_FALSE(mrc::parse_addr("2001:db8::g"));
}

TEST(ExtAck, ParsesPolicyRangeAndMissingNest)
{
	std::vector<uint8_t> buf(NLMSG_HDRLEN + sizeof(nlmsgerr), 0);
	nlmsgerr e{};
	e.error = -ERANGE;
	std::memcpy(buf.data() + NLMSG_HDRLEN, &e, sizeof(e));
	AttrWriter w;
	w.put_u32(NLMSGERR_ATTR_MISS_NEST, 20);
	w.begin_nest(NLMSGERR_ATTR_POLICY)
	    .put_u64(NL_POLICY_TYPE_ATTR_MIN_VALUE_U, 1)
	    .put_u64(NL_POLICY_TYPE_ATTR_MAX_VALUE_U, 255)
	    .end_nest();
	buf.insert(buf.end(), w.bytes().begin(), w.bytes().end());
	nlmsghdr h{};
	h.nlmsg_len = buf.size();
	h.nlmsg_type = NLMSG_ERROR;
	h.nlmsg_flags = NLM_F_CAPPED | NLM_F_ACK_TLVS;
	std::memcpy(buf.data(), &h, sizeof(h));
	auto ack = mrc::parse_extack(reinterpret_cast<const nlmsghdr *>(buf.data()), buf.size());
	EXPECT_EQ(ack.missing_nest, 20u);
	EXPECT_EQ(ack.min_value, 1);
	EXPECT_EQ(ack.max_value, 255u);
}

} // namespace
