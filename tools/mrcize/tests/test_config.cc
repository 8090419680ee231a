// SPDX-License-Identifier: GPL-2.0
// mrcize: the pure logic: port lists, prefixes, the environment, filter
// decisions, option recording and replay.
#include <cerrno>
#include <cstring>
#include <map>

#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "config.hpp"
#include "sockopt_log.hpp"

using namespace mrcize;

namespace {

sockaddr_in6 sa6(const char *addr, uint16_t port)
{
	sockaddr_in6 sa{};
	sa.sin6_family = AF_INET6;
	sa.sin6_port = htons(port);
	EXPECT_EQ(inet_pton(AF_INET6, addr, &sa.sin6_addr), 1) << addr;
	return sa;
}

in6_addr a6(const char *addr)
{
	return sa6(addr, 0).sin6_addr;
}

std::string error_of(const std::function<void()> &fn)
{
	try {
		fn();
	} catch (const ConfigError &e) {
		return e.what();
	}
	return "";
}

Config from(const std::map<std::string, std::string> &env)
{
	return config_from_env([&](const char *name) -> const char * {
		auto it = env.find(name);
		return it == env.end() ? nullptr : it->second.c_str();
	});
}

} // namespace

TEST(PortSet, EmptyMeansEveryPort)
{
	auto s = PortSet::parse("", "MRCIZE_PORTS");
	EXPECT_TRUE(s.all());
	EXPECT_TRUE(s.contains(1));
	EXPECT_TRUE(s.contains(65535));
}

TEST(PortSet, SinglesAndRanges)
{
	auto s = PortSet::parse("29500,30000-30100", "p");
	EXPECT_FALSE(s.all());
	EXPECT_TRUE(s.contains(29500));
	EXPECT_FALSE(s.contains(29501));
	EXPECT_FALSE(s.contains(29999));
	EXPECT_TRUE(s.contains(30000));
	EXPECT_TRUE(s.contains(30050));
	EXPECT_TRUE(s.contains(30100));
	EXPECT_FALSE(s.contains(30101));
	EXPECT_EQ(s.str(), "29500,30000-30100");
	EXPECT_TRUE(PortSet::parse("1-65535", "p").contains(65535));
}

TEST(PortSet, MalformedListsNameTheProblem)
{
	EXPECT_NE(error_of([] { PortSet::parse("0", "MRCIZE_PORTS"); }).find("MRCIZE_PORTS='0'"),
		  std::string::npos);
	EXPECT_NE(error_of([] { PortSet::parse("65536", "p"); }).find("1 to 65535"),
		  std::string::npos);
	EXPECT_NE(error_of([] { PortSet::parse("80,,81", "p"); }).find("empty item"),
		  std::string::npos);
	EXPECT_NE(error_of([] { PortSet::parse("90-80", "p"); }).find("ends before"),
		  std::string::npos);
	for (const char *bad : {"abc", "80-", "-80", "80 ", " 80", "+80", "80-90-100", "1e3", ","})
		EXPECT_FALSE(error_of([&] { PortSet::parse(bad, "p"); }).empty()) << bad;
}

TEST(Prefix6, MatchesByLength)
{
	auto p = Prefix6::parse("fd00:b::/32", "d");
	EXPECT_TRUE(p.contains(a6("fd00:b::1")));
	EXPECT_TRUE(p.contains(a6("fd00:b:ffff::1")));
	EXPECT_FALSE(p.contains(a6("fd00:c::1")));
	auto q = Prefix6::parse("fd00::/7", "d"); // a length that is not a byte boundary
	EXPECT_TRUE(q.contains(a6("fc00::1")));
	EXPECT_TRUE(q.contains(a6("fdff::1")));
	EXPECT_FALSE(q.contains(a6("fe80::1")));
	auto h = Prefix6::parse("::1", "d");
	EXPECT_EQ(h.len, 128);
	EXPECT_TRUE(h.contains(a6("::1")));
	EXPECT_FALSE(h.contains(a6("::2")));
	EXPECT_TRUE(Prefix6::parse("::/0", "d").contains(a6("2001:db8::1")));
}

TEST(Prefix6, Malformed)
{
	EXPECT_NE(error_of([] {
			  Prefix6::parse("10.0.0.0/8", "MRCIZE_DST");
		  }).find("is not an IPv6 address"),
		  std::string::npos);
	EXPECT_NE(error_of([] { Prefix6::parse("fd00::/129", "d"); }).find("0 to 128"),
		  std::string::npos);
	EXPECT_FALSE(error_of([] { Prefix6::parse("fd00::/", "d"); }).empty());
	EXPECT_FALSE(error_of([] { parse_prefixes("fd00::/8,", "d"); }).empty());
	EXPECT_EQ(parse_prefixes("fd00::/8,2001:db8::/32", "d").size(), 2u);
}

TEST(Env, DefaultsWhenUnsetOrEmpty)
{
	Config c = from({{"MRCIZE_PORTS", ""}, {"MRCIZE_VERBOSE", ""}});
	EXPECT_TRUE(c.ports.all());
	EXPECT_TRUE(c.dst.empty());
	EXPECT_TRUE(c.policy.empty());
	EXPECT_FALSE(c.strict);
	EXPECT_FALSE(c.verbose);
	EXPECT_EQ(c.connect_timeout_ms, 1000u);
	EXPECT_FALSE(c.ipproto.has_value());
}

TEST(Env, EveryVariable)
{
	Config c = from({{"MRCIZE_PORTS", "5201"},
			 {"MRCIZE_DST", "fd00::/8"},
			 {"MRCIZE_POLICY", "fast_1-x"},
			 {"MRCIZE_STRICT", "1"},
			 {"MRCIZE_VERBOSE", "yes"},
			 {"MRCIZE_CONNECT_TIMEOUT_MS", "250"},
			 {"MRCIZE_IPPROTO", "262"}});
	EXPECT_TRUE(c.ports.contains(5201));
	EXPECT_FALSE(c.ports.contains(5202));
	ASSERT_EQ(c.dst.size(), 1u);
	EXPECT_EQ(c.policy, "fast_1-x");
	EXPECT_TRUE(c.strict);
	EXPECT_TRUE(c.verbose);
	EXPECT_EQ(c.connect_timeout_ms, 250u);
	EXPECT_EQ(c.ipproto, 262);
}

TEST(Env, MalformedVariablesAreNamed)
{
	struct Case {
		const char *var, *value, *says;
	} cases[] = {
	    {"MRCIZE_PORTS", "http", "MRCIZE_PORTS='http'"},
	    {"MRCIZE_DST", "fd00::/200", "MRCIZE_DST='fd00::/200'"},
	    {"MRCIZE_POLICY", "this-name-is-too-long", "1 to 15"},
	    {"MRCIZE_POLICY", "a b", "MRCIZE_POLICY='a b'"},
	    {"MRCIZE_STRICT", "maybe", "MRCIZE_STRICT='maybe': expected 1 or 0"},
	    {"MRCIZE_VERBOSE", "2", "MRCIZE_VERBOSE"},
	    {"MRCIZE_CONNECT_TIMEOUT_MS", "0", "1 to 600000"},
	    {"MRCIZE_CONNECT_TIMEOUT_MS", "1s", "MRCIZE_CONNECT_TIMEOUT_MS='1s'"},
	    {"MRCIZE_IPPROTO", "-1", "MRCIZE_IPPROTO='-1'"},
	    {"MRCIZE_IPPROTO", "70000", "protocol number"},
	};
	for (const auto &c : cases) {
		std::string e = error_of([&] { from({{c.var, c.value}}); });
		EXPECT_NE(e.find(c.says), std::string::npos)
		    << c.var << "=" << c.value << ": " << e;
		EXPECT_EQ(e.find('\n'), std::string::npos) << "one line";
	}
}

TEST(Env, IpprotoParameterFile)
{
	EXPECT_EQ(parse_ipproto_param("261\n"), 261);
	EXPECT_EQ(parse_ipproto_param("262"), 262);
	EXPECT_EQ(parse_ipproto_param(""), -1);
	EXPECT_EQ(parse_ipproto_param("x\n"), -1);
	EXPECT_EQ(parse_ipproto_param("0\n"), -1);
}

TEST(Decide, EverythingIsMrcWithoutFilters)
{
	Config c;
	EXPECT_EQ(decide_connect(c, sa6("2001:db8::1", 80)), Verdict::kMrc);
	EXPECT_EQ(decide_listen(c, 5201), Verdict::kMrc);
	EXPECT_EQ(decide_listen(c, 0), Verdict::kMrc);
	EXPECT_EQ(decide_bind(c, sa6("::", 5201)), Verdict::kUndecided);
	EXPECT_EQ(decide_bind(c, sa6("::", 0)), Verdict::kUndecided);
}

TEST(Decide, IPv4MappedAddressesStayTcp)
{
	Config c;
	EXPECT_TRUE(is_v4mapped(a6("::ffff:10.0.0.1")));
	EXPECT_FALSE(is_v4mapped(a6("::1")));
	EXPECT_FALSE(is_v4mapped(a6("64:ff9b::10.0.0.1")));
	EXPECT_EQ(decide_connect(c, sa6("::ffff:127.0.0.1", 80)), Verdict::kTcp);
	EXPECT_EQ(decide_bind(c, sa6("::ffff:127.0.0.1", 0)), Verdict::kTcp);
}

TEST(Decide, PortFilter)
{
	Config c;
	c.ports = PortSet::parse("29500,30000-30100", "p");
	EXPECT_EQ(decide_connect(c, sa6("fd00::1", 29500)), Verdict::kMrc);
	EXPECT_EQ(decide_connect(c, sa6("fd00::1", 30100)), Verdict::kMrc);
	EXPECT_EQ(decide_connect(c, sa6("fd00::1", 22)), Verdict::kTcp);
	EXPECT_EQ(decide_listen(c, 30001), Verdict::kMrc);
	EXPECT_EQ(decide_listen(c, 8080), Verdict::kTcp);
	EXPECT_EQ(decide_listen(c, 0), Verdict::kTcp); // not bound: an ephemeral port
	EXPECT_EQ(decide_bind(c, sa6("::", 8080)), Verdict::kTcp);
	EXPECT_EQ(decide_bind(c, sa6("::", 29500)), Verdict::kUndecided);
	EXPECT_EQ(decide_bind(c, sa6("::", 0)), Verdict::kUndecided); // connect() decides
}

TEST(Decide, DestinationFilter)
{
	Config c;
	c.dst = parse_prefixes("fd00:b::/32,2001:db8:1::/48", "d");
	EXPECT_EQ(decide_connect(c, sa6("fd00:b::1", 80)), Verdict::kMrc);
	EXPECT_EQ(decide_connect(c, sa6("2001:db8:1:2::1", 80)), Verdict::kMrc);
	EXPECT_EQ(decide_connect(c, sa6("2001:db8:2::1", 80)), Verdict::kTcp);
	EXPECT_EQ(decide_connect(c, sa6("::1", 80)), Verdict::kTcp);
	c.ports = PortSet::parse("80", "p");
	EXPECT_EQ(decide_connect(c, sa6("fd00:b::1", 81)), Verdict::kTcp); // both must hold
}

TEST(Fallback, ErrnosOfTheContract)
{
	for (int e : {ECONNREFUSED, ETIMEDOUT, EHOSTUNREACH, ENETUNREACH, EAFNOSUPPORT})
		EXPECT_TRUE(is_fallback_errno(e)) << e;
	for (int e : {0, EACCES, EADDRINUSE, EADDRNOTAVAIL, EINTR, EISCONN, EBADF, ECONNRESET})
		EXPECT_FALSE(is_fallback_errno(e)) << e;
}

TEST(Format, EndpointsAndErrnoNames)
{
	EXPECT_EQ(format_endpoint(sa6("fd00:b::1", 5201)), "[fd00:b::1]:5201");
	EXPECT_EQ(errno_name(ECONNREFUSED), "ECONNREFUSED");
	EXPECT_EQ(errno_from_name("ENETUNREACH"), ENETUNREACH);
	EXPECT_EQ(errno_from_name("ENOTANERRNO"), -1);
}

namespace {

struct Call {
	int fd, level, name;
	std::vector<uint8_t> value;
};
std::vector<Call> calls;
int fail_name = -1;

int fake_setsockopt(int fd, int level, int name, const void *v, socklen_t len)
{
	auto *p = static_cast<const uint8_t *>(v);
	calls.push_back({fd, level, name, std::vector<uint8_t>(p, p + len)});
	if (name == fail_name) {
		errno = ENOPROTOOPT;
		return -1;
	}
	return 0;
}

} // namespace

TEST(OptionLog, LastValueWinsInFirstPosition)
{
	OptionLog log;
	int a = 50, b = 1, c = 77;
	log.record(IPPROTO_TCP, TCP_KEEPIDLE, &a, sizeof(a));
	log.record(SOL_SOCKET, SO_KEEPALIVE, &b, sizeof(b));
	log.record(IPPROTO_TCP, TCP_KEEPIDLE, &c, sizeof(c));
	ASSERT_EQ(log.options().size(), 2u);
	calls.clear();
	fail_name = -1;
	EXPECT_EQ(log.replay(9, fake_setsockopt), 0u);
	ASSERT_EQ(calls.size(), 2u);
	EXPECT_EQ(calls[0].fd, 9);
	EXPECT_EQ(calls[0].name, TCP_KEEPIDLE);
	int v;
	std::memcpy(&v, calls[0].value.data(), sizeof(v));
	EXPECT_EQ(v, 77);
	EXPECT_EQ(calls[1].level, SOL_SOCKET);
	EXPECT_EQ(calls[1].name, SO_KEEPALIVE);
}

TEST(OptionLog, ReplayReportsTheFirstFailureAndGoesOn)
{
	OptionLog log;
	int one = 1;
	log.record(IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	log.record(IPPROTO_TCP, TCP_KEEPCNT, &one, sizeof(one));
	log.record(SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
	calls.clear();
	fail_name = TCP_KEEPCNT;
	int lv = 0, nm = 0;
	EXPECT_EQ(log.replay(3, fake_setsockopt, &lv, &nm), 1u);
	EXPECT_EQ(lv, IPPROTO_TCP);
	EXPECT_EQ(nm, TCP_KEEPCNT);
	EXPECT_EQ(calls.size(), 3u);
	fail_name = -1;
}

TEST(OptionLog, ReplayOntoARealSocket)
{
	OptionLog log;
	int one = 1, idle = 123;
	linger lg = {1, 7};
	log.record(IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	log.record(IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	log.record(SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	int fd = socket(AF_INET6, SOCK_STREAM, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(log.replay(fd, ::setsockopt), 0u);
	int v = 0;
	socklen_t l = sizeof(v);
	getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &v, &l);
	EXPECT_EQ(v, 1);
	getsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &v, &l);
	EXPECT_EQ(v, 123);
	linger got{};
	l = sizeof(got);
	getsockopt(fd, SOL_SOCKET, SO_LINGER, &got, &l);
	EXPECT_EQ(got.l_onoff, 1);
	EXPECT_EQ(got.l_linger, 7);
	close(fd);
}
