// SPDX-License-Identifier: GPL-2.0
// mrcize: the configuration shared by the launcher and libmrcize.so (the
// MRCIZE_* environment variables), and the pure decisions taken from it:
// which sockets become MRC, which connect() errors fall back to TCP.
// Nothing here makes a system call, so all of it is unit-tested.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <netinet/in.h>

namespace mrcize {

/// The protocol number of MRC under AF_INET6 when the module does not say
/// otherwise. Contract with the kernel side: uapi/linux/mrc.h will define
/// MRC_IPPROTO_DEFAULT 261 and IPPROTO_MRC; the module publishes the
/// number in use as /sys/module/mrc/parameters/ipproto. Defined here until
/// the header has it.
inline constexpr int kIpprotoDefault = 261;
/// Where the module publishes its protocol number.
inline constexpr const char *kIpprotoParam = "/sys/module/mrc/parameters/ipproto";

/// A malformed MRCIZE_* variable or option value. what() is one line that
/// names the variable and the bad part.
class ConfigError : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

/// Ports as "29500,30000-30100". Empty means every port.
class PortSet {
public:
	/// Throws ConfigError naming @what on a malformed list.
	static PortSet parse(std::string_view text, const std::string &what);
	bool all() const { return ranges_.empty(); }
	bool contains(uint16_t port) const;
	/// The list as given, normalised ("29500,30000-30100"; "" for all).
	std::string str() const;

private:
	std::vector<std::pair<uint16_t, uint16_t>> ranges_;
};

/// An IPv6 prefix; host bits are ignored.
struct Prefix6 {
	in6_addr addr{};
	uint8_t len = 0;

	/// "fd00::/8", or an address alone for /128. Throws ConfigError.
	static Prefix6 parse(std::string_view text, const std::string &what);
	bool contains(const in6_addr &a) const;
	std::string str() const;
};

/// Everything the library needs, from the environment.
struct Config {
	PortSet ports;            ///< MRCIZE_PORTS (empty: all)
	std::vector<Prefix6> dst; ///< MRCIZE_DST (empty: all)
	std::string policy;       ///< MRCIZE_POLICY (empty: the default policy)
	bool strict = false;      ///< MRCIZE_STRICT: no fallback to TCP
	bool verbose = false;     ///< MRCIZE_VERBOSE: a line per fallback, a summary at exit
	unsigned connect_timeout_ms = 1000; ///< MRCIZE_CONNECT_TIMEOUT_MS
	std::optional<int> ipproto;         ///< MRCIZE_IPPROTO (unset: ask the module)
};

/// Limits of the values (also used by the launcher's options).
inline constexpr unsigned kTimeoutMinMs = 1;
inline constexpr unsigned kTimeoutMaxMs = 600000;
inline constexpr size_t kPolicyNameMax = 15; ///< MRC_POLICY_NAME_LEN

/// Names of the variables.
inline constexpr const char *kEnvPorts = "MRCIZE_PORTS";
inline constexpr const char *kEnvDst = "MRCIZE_DST";
inline constexpr const char *kEnvPolicy = "MRCIZE_POLICY";
inline constexpr const char *kEnvStrict = "MRCIZE_STRICT";
inline constexpr const char *kEnvVerbose = "MRCIZE_VERBOSE";
inline constexpr const char *kEnvTimeout = "MRCIZE_CONNECT_TIMEOUT_MS";
inline constexpr const char *kEnvIpproto = "MRCIZE_IPPROTO";
inline constexpr const char *kEnvLib = "MRCIZE_LIB";

/// Read the configuration through @get (getenv in the library; a map in
/// tests). Unset and empty variables take the defaults. Throws
/// ConfigError ("MRCIZE_PORTS='x': ...") on the first malformed one.
Config config_from_env(const std::function<const char *(const char *)> &get);

/// The pieces, also used by the launcher to check its options.
std::vector<Prefix6> parse_prefixes(std::string_view text, const std::string &what);
unsigned parse_timeout_ms(std::string_view text, const std::string &what);
/// A failure policy name: 1 to 15 letters, digits, '_' or '-'.
std::string parse_policy_name(std::string_view text, const std::string &what);
/// A protocol number, 1 to 65535.
int parse_ipproto(std::string_view text, const std::string &what);
/// "1"/"0" (also yes/no, true/false, on/off).
bool parse_flag(std::string_view text, const std::string &what);

/// Contents of /sys/module/mrc/parameters/ipproto: a decimal number and a
/// newline. -1 if malformed.
int parse_ipproto_param(std::string_view text);

bool is_v4mapped(const in6_addr &a);

/// What happens to an MRC socket at one step of its life.
enum class Verdict {
	kMrc,       ///< stays MRC
	kTcp,       ///< outside the filters: becomes TCP before the call
	kUndecided, ///< stays MRC for now; listen() or connect() decides
};

/// bind() to @local: a non-zero port outside --ports, or an IPv4-mapped
/// address (no IPv4 underlay), makes the socket TCP; port 0 leaves the
/// decision to listen() or connect().
Verdict decide_bind(const Config &c, const sockaddr_in6 &local);
/// listen() on local port @port.
Verdict decide_listen(const Config &c, uint16_t port);
/// connect() to @remote: its port must be in --ports, its address in
/// --dst, and not IPv4-mapped.
Verdict decide_connect(const Config &c, const sockaddr_in6 &remote);

/// Errors of connect() over MRC after which the connection is retried
/// over TCP (unless --strict).
bool is_fallback_errno(int err);

/// "ECONNREFUSED" (the symbolic name), or the number.
std::string errno_name(int err);
/// Symbolic errno name to number ("ENETUNREACH" -> 101); -1 if unknown
/// among the ones tests and messages use.
int errno_from_name(std::string_view name);

/// "[fd00:b::1]:5201".
std::string format_endpoint(const sockaddr_in6 &sa);

} // namespace mrcize
