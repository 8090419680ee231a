// SPDX-License-Identifier: GPL-2.0
#include "args.hpp"

#include <arpa/inet.h>
#include <cctype>

namespace mrcctl {

Keywords::Keywords(std::string cmd, std::vector<std::string> args)
    : cmd_(std::move(cmd)), args_(std::move(args))
{
}

std::string Keywords::positional(const std::string &what)
{
	if (pos_ >= args_.size())
		throw UsageError(cmd_ + ": " + what + " is required");
	return args_[pos_++];
}

std::optional<std::string> Keywords::optional_positional(const std::map<std::string, bool> &spec)
{
	if (pos_ >= args_.size() || spec.count(args_[pos_]))
		return std::nullopt;
	return args_[pos_++];
}

void Keywords::parse(const std::map<std::string, bool> &spec)
{
	while (pos_ < args_.size()) {
		const std::string &k = args_[pos_++];
		auto it = spec.find(k);
		if (it == spec.end())
			throw UsageError(cmd_ + ": unknown argument '" + k + "'");
		if (values_.count(k))
			throw UsageError(cmd_ + ": '" + k + "' given twice");
		if (!it->second) {
			values_[k] = "";
			continue;
		}
		if (pos_ >= args_.size())
			throw UsageError(cmd_ + ": '" + k + "' needs a value");
		values_[k] = args_[pos_++];
	}
}

std::optional<std::string> Keywords::get(const std::string &key) const
{
	auto it = values_.find(key);
	if (it == values_.end())
		return std::nullopt;
	return it->second;
}

uint64_t parse_uint(const std::string &s, const std::string &what, uint64_t lo, uint64_t hi)
{
	if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0])))
		throw UsageError("invalid " + what + " '" + s + "': not a number");
	size_t idx = 0;
	unsigned long long v;
	try {
		v = std::stoull(s, &idx, 0);
	} catch (const std::out_of_range &) {
		throw UsageError("invalid " + what + " '" + s + "': too large");
	} catch (const std::exception &) {
		throw UsageError("invalid " + what + " '" + s + "': not a number");
	}
	if (idx != s.size())
		throw UsageError("invalid " + what + " '" + s + "': not a number");
	if (v < lo || v > hi)
		throw UsageError("invalid " + what + " '" + s + "': must be between " +
				 std::to_string(lo) + " and " + std::to_string(hi));
	return v;
}

uint64_t parse_duration(const std::string &s, const std::string &what)
{
	size_t i = 0;
	while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
		i++;
	if (i == 0)
		throw UsageError("invalid " + what + " '" + s + "': not a duration (e.g. 2ms)");
	std::string unit = s.substr(i);
	uint64_t mult;
	if (unit.empty() || unit == "ns")
		mult = 1;
	else if (unit == "us")
		mult = 1000;
	else if (unit == "ms")
		mult = 1000000;
	else if (unit == "s")
		mult = 1000000000;
	else
		throw UsageError("invalid " + what + " '" + s + "': unknown unit '" + unit +
				 "' (ns, us, ms, s)");
	uint64_t v = parse_uint(s.substr(0, i), what, 0, UINT64_MAX);
	if (v > UINT64_MAX / mult)
		throw UsageError("invalid " + what + " '" + s + "': too large");
	return v * mult;
}

std::string format_duration(uint64_t ns)
{
	if (ns && ns % 1000000000 == 0)
		return std::to_string(ns / 1000000000) + "s";
	if (ns && ns % 1000000 == 0)
		return std::to_string(ns / 1000000) + "ms";
	if (ns && ns % 1000 == 0)
		return std::to_string(ns / 1000) + "us";
	return std::to_string(ns) + "ns";
}

in6_addr parse_in6(const std::string &s, const std::string &what)
{
	in6_addr a;
	if (inet_pton(AF_INET6, s.c_str(), &a) != 1)
		throw UsageError("invalid " + what + " '" + s + "': not an IPv6 address");
	return a;
}

std::pair<in6_addr, uint8_t> parse_prefix(const std::string &s, const std::string &what)
{
	auto slash = s.find('/');
	if (slash == std::string::npos)
		return {parse_in6(s, what), 128};
	in6_addr a = parse_in6(s.substr(0, slash), what);
	auto len = parse_uint(s.substr(slash + 1), what + " length", 0, 128);
	return {a, static_cast<uint8_t>(len)};
}

bool parse_bool(const std::string &s, const std::string &what)
{
	if (s == "on" || s == "up" || s == "yes" || s == "true" || s == "1")
		return true;
	if (s == "off" || s == "down" || s == "no" || s == "false" || s == "0")
		return false;
	throw UsageError("invalid " + what + " '" + s + "': expected on or off");
}

std::vector<std::string> split_line(const std::string &line)
{
	std::vector<std::string> words;
	std::string cur;
	bool in_word = false;
	char quote = 0;
	for (char c : line) {
		if (quote) {
			if (c == quote)
				quote = 0;
			else
				cur += c;
			continue;
		}
		if (c == '"' || c == '\'') {
			quote = c;
			in_word = true;
		} else if (c == '#' && !in_word) {
			break;
		} else if (std::isspace(static_cast<unsigned char>(c))) {
			if (in_word)
				words.push_back(cur);
			cur.clear();
			in_word = false;
		} else {
			cur += c;
			in_word = true;
		}
	}
	if (quote)
		throw UsageError("unterminated quote");
	if (in_word)
		words.push_back(cur);
	return words;
}

} // namespace mrcctl
