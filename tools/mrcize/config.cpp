// SPDX-License-Identifier: GPL-2.0
#include "config.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>

#include <arpa/inet.h>

namespace mrcize {

namespace {

std::string quoted(const std::string &what, std::string_view text)
{
	return what + "='" + std::string(text) + "'";
}

// A decimal number in [lo, hi], nothing else (no sign, no blanks).
std::optional<uint64_t> parse_dec(std::string_view s, uint64_t lo, uint64_t hi)
{
	if (s.empty() || s.size() > 19)
		return std::nullopt;
	uint64_t v = 0;
	auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
	if (ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi)
		return std::nullopt;
	return v;
}

std::vector<std::string_view> split(std::string_view s, char sep)
{
	std::vector<std::string_view> out;
	size_t start = 0;
	for (;;) {
		size_t pos = s.find(sep, start);
		out.push_back(s.substr(start, pos - start));
		if (pos == std::string_view::npos)
			break;
		start = pos + 1;
	}
	return out;
}

} // namespace

PortSet PortSet::parse(std::string_view text, const std::string &what)
{
	PortSet set;
	if (text.empty())
		return set;
	for (std::string_view item : split(text, ',')) {
		if (item.empty())
			throw ConfigError(quoted(what, text) + ": empty item in the port list");
		auto dash = item.find('-');
		std::string_view a = item.substr(0, dash);
		std::string_view b = dash == std::string_view::npos ? a : item.substr(dash + 1);
		auto lo = parse_dec(a, 1, 65535), hi = parse_dec(b, 1, 65535);
		if (!lo || !hi)
			throw ConfigError(quoted(what, text) + ": bad port or range '" +
					  std::string(item) + "' (ports are 1 to 65535)");
		if (*lo > *hi)
			throw ConfigError(quoted(what, text) + ": range '" + std::string(item) +
					  "' ends before it starts");
		set.ranges_.emplace_back(static_cast<uint16_t>(*lo), static_cast<uint16_t>(*hi));
	}
	return set;
}

bool PortSet::contains(uint16_t port) const
{
	if (ranges_.empty())
		return true;
	for (auto [lo, hi] : ranges_)
		if (port >= lo && port <= hi)
			return true;
	return false;
}

std::string PortSet::str() const
{
	std::string s;
	for (auto [lo, hi] : ranges_) {
		if (!s.empty())
			s += ',';
		s += std::to_string(lo);
		if (hi != lo)
			s += '-' + std::to_string(hi);
	}
	return s;
}

Prefix6 Prefix6::parse(std::string_view text, const std::string &what)
{
	Prefix6 p;
	auto slash = text.find('/');
	std::string addr(text.substr(0, slash));
	if (inet_pton(AF_INET6, addr.c_str(), &p.addr) != 1)
		throw ConfigError(quoted(what, text) + ": '" + addr + "' is not an IPv6 address");
	p.len = 128;
	if (slash != std::string_view::npos) {
		auto len = parse_dec(text.substr(slash + 1), 0, 128);
		if (!len)
			throw ConfigError(quoted(what, text) + ": bad prefix length '" +
					  std::string(text.substr(slash + 1)) + "' (0 to 128)");
		p.len = static_cast<uint8_t>(*len);
	}
	return p;
}

bool Prefix6::contains(const in6_addr &a) const
{
	unsigned full = len / 8, rest = len % 8;
	if (std::memcmp(addr.s6_addr, a.s6_addr, full) != 0)
		return false;
	if (rest == 0)
		return true;
	uint8_t mask = static_cast<uint8_t>(0xff << (8 - rest));
	return (addr.s6_addr[full] & mask) == (a.s6_addr[full] & mask);
}

std::string Prefix6::str() const
{
	char buf[INET6_ADDRSTRLEN];
	inet_ntop(AF_INET6, &addr, buf, sizeof(buf));
	return std::string(buf) + "/" + std::to_string(len);
}

std::vector<Prefix6> parse_prefixes(std::string_view text, const std::string &what)
{
	std::vector<Prefix6> out;
	if (text.empty())
		return out;
	for (std::string_view item : split(text, ',')) {
		if (item.empty())
			throw ConfigError(quoted(what, text) + ": empty item in the prefix list");
		out.push_back(Prefix6::parse(item, what));
	}
	return out;
}

unsigned parse_timeout_ms(std::string_view text, const std::string &what)
{
	auto v = parse_dec(text, kTimeoutMinMs, kTimeoutMaxMs);
	if (!v)
		throw ConfigError(quoted(what, text) + ": expected milliseconds, " +
				  std::to_string(kTimeoutMinMs) + " to " +
				  std::to_string(kTimeoutMaxMs));
	return static_cast<unsigned>(*v);
}

std::string parse_policy_name(std::string_view text, const std::string &what)
{
	bool ok = !text.empty() && text.size() <= kPolicyNameMax;
	for (char c : text)
		ok = ok && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9') || c == '_' || c == '-');
	if (!ok)
		throw ConfigError(quoted(what, text) +
				  ": a policy name is 1 to 15 letters, digits, '_' or '-'");
	return std::string(text);
}

int parse_ipproto(std::string_view text, const std::string &what)
{
	auto v = parse_dec(text, 1, 65535);
	if (!v)
		throw ConfigError(quoted(what, text) + ": expected a protocol number, 1 to 65535");
	return static_cast<int>(*v);
}

bool parse_flag(std::string_view text, const std::string &what)
{
	if (text == "1" || text == "yes" || text == "true" || text == "on")
		return true;
	if (text == "0" || text == "no" || text == "false" || text == "off")
		return false;
	throw ConfigError(quoted(what, text) + ": expected 1 or 0");
}

Config config_from_env(const std::function<const char *(const char *)> &get)
{
	Config c;
	auto val = [&](const char *name) -> std::optional<std::string_view> {
		const char *v = get(name);
		if (!v || !*v)
			return std::nullopt;
		return std::string_view(v);
	};
	if (auto v = val(kEnvPorts))
		c.ports = PortSet::parse(*v, kEnvPorts);
	if (auto v = val(kEnvDst))
		c.dst = parse_prefixes(*v, kEnvDst);
	if (auto v = val(kEnvPolicy))
		c.policy = parse_policy_name(*v, kEnvPolicy);
	if (auto v = val(kEnvStrict))
		c.strict = parse_flag(*v, kEnvStrict);
	if (auto v = val(kEnvVerbose))
		c.verbose = parse_flag(*v, kEnvVerbose);
	if (auto v = val(kEnvTimeout))
		c.connect_timeout_ms = parse_timeout_ms(*v, kEnvTimeout);
	if (auto v = val(kEnvIpproto))
		c.ipproto = parse_ipproto(*v, kEnvIpproto);
	return c;
}

int parse_ipproto_param(std::string_view text)
{
	while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
		text.remove_suffix(1);
	auto v = parse_dec(text, 1, 65535);
	return v ? static_cast<int>(*v) : -1;
}

bool is_v4mapped(const in6_addr &a)
{
	static const uint8_t prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	return std::memcmp(a.s6_addr, prefix, sizeof(prefix)) == 0;
}

Verdict decide_bind(const Config &c, const sockaddr_in6 &local)
{
	if (is_v4mapped(local.sin6_addr))
		return Verdict::kTcp;
	uint16_t port = ntohs(local.sin6_port);
	if (port == 0)
		return Verdict::kUndecided;
	return c.ports.contains(port) ? Verdict::kUndecided : Verdict::kTcp;
}

Verdict decide_listen(const Config &c, uint16_t port)
{
	return c.ports.contains(port) ? Verdict::kMrc : Verdict::kTcp;
}

Verdict decide_connect(const Config &c, const sockaddr_in6 &remote)
{
	if (is_v4mapped(remote.sin6_addr))
		return Verdict::kTcp;
	if (!c.ports.contains(ntohs(remote.sin6_port)))
		return Verdict::kTcp;
	if (c.dst.empty())
		return Verdict::kMrc;
	for (const auto &p : c.dst)
		if (p.contains(remote.sin6_addr))
			return Verdict::kMrc;
	return Verdict::kTcp;
}

bool is_fallback_errno(int err)
{
	switch (err) {
	case ECONNREFUSED:
	case ETIMEDOUT:
	case EHOSTUNREACH:
	case ENETUNREACH:
	case EAFNOSUPPORT:
		return true;
	default:
		return false;
	}
}

std::string errno_name(int err)
{
	const char *name = strerrorname_np(err);
	return name ? std::string(name) : "errno " + std::to_string(err);
}

int errno_from_name(std::string_view name)
{
	for (int e = 1; e < 200; e++) {
		const char *n = strerrorname_np(e);
		if (n && name == n)
			return e;
	}
	return -1;
}

std::string format_endpoint(const sockaddr_in6 &sa)
{
	char buf[INET6_ADDRSTRLEN];
	inet_ntop(AF_INET6, &sa.sin6_addr, buf, sizeof(buf));
	return "[" + std::string(buf) + "]:" + std::to_string(ntohs(sa.sin6_port));
}

} // namespace mrcize
