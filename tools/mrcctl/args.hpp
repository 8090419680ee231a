// SPDX-License-Identifier: GPL-2.0
// mrcctl: ip-style arguments ("dev eth0 saddr 2001:db8::1"), strictly
// parsed: every malformed value is a usage error that names it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <netinet/in.h>

namespace mrcctl {

/// A command line (or batch line) mistake: exit status 2.
class UsageError : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

/// Keyword arguments of one subcommand.
class Keywords {
public:
	/// @cmd names the command in messages ("plane add").
	Keywords(std::string cmd, std::vector<std::string> args);

	/// Take the leading positional argument; throws if absent.
	std::string positional(const std::string &what);
	/// Take the leading positional argument if there is one that is not a
	/// keyword of @spec.
	std::optional<std::string> optional_positional(const std::map<std::string, bool> &spec);
	/// Parse the rest: @spec maps each keyword to whether it takes a
	/// value. Unknown keywords, missing values and repeats are errors.
	void parse(const std::map<std::string, bool> &spec);

	std::optional<std::string> get(const std::string &key) const;
	bool flag(const std::string &key) const { return values_.count(key) != 0; }
	const std::string &cmd() const { return cmd_; }

private:
	std::string cmd_;
	std::vector<std::string> args_;
	size_t pos_ = 0;
	std::map<std::string, std::string> values_;
};

/// Unsigned integer in [lo, hi] (decimal or 0x hex); @what names it.
uint64_t parse_uint(const std::string &s, const std::string &what, uint64_t lo, uint64_t hi);
/// A duration with unit (ns, us, ms, s; bare numbers are nanoseconds).
uint64_t parse_duration(const std::string &s, const std::string &what);
/// An IPv6 address.
in6_addr parse_in6(const std::string &s, const std::string &what);
/// An IPv6 prefix "addr/len" (no length: /128).
std::pair<in6_addr, uint8_t> parse_prefix(const std::string &s, const std::string &what);
/// on/off, up/down, yes/no, true/false, 1/0.
bool parse_bool(const std::string &s, const std::string &what);
/// Duration as text ("2ms", "500us", "1.5s" is not produced: exact units).
std::string format_duration(uint64_t ns);

/// Split a batch line into words: whitespace separated, "double" or
/// 'single' quotes, '#' starts a comment. Throws UsageError on an
/// unterminated quote.
std::vector<std::string> split_line(const std::string &line);

} // namespace mrcctl
