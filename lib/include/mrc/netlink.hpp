// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: a typed client of the "mrc" generic netlink family.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <mrc/error.hpp>
#include <mrc/transport.hpp>
#include <mrc/types.hpp>

struct nlmsghdr;
struct nlattr;

namespace mrc {

/// What the module reports about itself in the caller's namespace.
struct Info {
	std::string version;       ///< module version
	uint32_t af = 0;           ///< address family number of AF_MRC sockets
	uint32_t ipproto = 0;      ///< IPPROTO_MRC under AF_INET6 (0: not registered)
	uint16_t udp_port = 0;     ///< UDP port of MRC packets in this namespace
	uint64_t netns_cookie = 0; ///< tells namespaces apart
};

/// Details the kernel attached to a netlink error (extended ack).
struct ExtAck {
	std::string message;                  ///< NLMSGERR_ATTR_MSG, may be empty
	std::optional<uint32_t> offset;       ///< byte offset of the bad attribute
	std::optional<uint32_t> missing_type; ///< attribute that was required
	std::optional<uint32_t> missing_nest; ///< offset of the nest it was missing from
	std::optional<int64_t> min_value;     ///< policy of the bad attribute: lowest value
	std::optional<uint64_t> max_value;    ///< policy of the bad attribute: highest value
	std::optional<uint32_t> min_length;   ///< policy of the bad attribute: shortest
	std::optional<uint32_t> max_length;   ///< policy of the bad attribute: longest
	std::optional<uint32_t> policy_type;  ///< policy of the bad attribute: NL_ATTR_TYPE_*
};

/// Parse the extended ack of an NLMSG_ERROR message (with NETLINK_CAP_ACK
/// the original request is not echoed), or of the NLMSG_DONE that ends a
/// failed dump. Never reads past @len.
ExtAck parse_extack(const nlmsghdr *nlh, size_t len);

/// The error of a dump that failed part way, which the kernel reports in
/// the NLMSG_DONE that ends it (an errno, positive), or 0: the message is
/// no NLMSG_DONE or the dump completed. Never reads past @len.
int done_error(const nlmsghdr *nlh, size_t len);

/// Name of a top-level attribute of the family ("MRC_A_INFO_AF"), or a
/// number when unknown.
std::string attr_name(uint32_t type);

/// Name of a nested attribute given the types from the top level down
/// ({MRC_A_PLANE, MRC_PLANE_A_SADDR} -> "MRC_PLANE_A_SADDR").
std::string attr_path_name(const std::vector<uint16_t> &types);

/// Find which top-level attribute starts at @offset of @request (a whole
/// netlink message as sent), to name it in an error.
std::optional<uint32_t> attr_at_offset(const std::vector<uint8_t> &request, uint32_t offset);

/// Like attr_at_offset(), but descends into the family's nested
/// attributes: the types from the top level down to the innermost
/// attribute containing @offset (empty when none). With @exact, only an
/// attribute whose header starts at @offset matches (for nests).
std::vector<uint16_t> attr_path_at_offset(const std::vector<uint8_t> &request, uint32_t offset,
					  bool exact = false);

/// Build the user-facing message of a failed request.
std::string format_error(const std::string &operation, int errnum, const ExtAck &ack,
			 std::optional<uint32_t> bad_attr);

/// Same, with attribute names already resolved (nested ones included).
std::string format_error(const std::string &operation, int errnum, const std::string &message,
			 const std::optional<std::string> &bad,
			 const std::optional<std::string> &missing);

/// The message of a failed @request (whole netlink message as sent).
std::string describe_error(const std::string &operation, int errnum, const ExtAck &ack,
			   const std::vector<uint8_t> &request);

/// A connection to the "mrc" family in the caller's network namespace.
/// Not thread-safe: one Client per thread.
class Client {
public:
	/// Connect and resolve the family; throws ModuleNotLoaded when the
	/// module is absent, Error otherwise.
	Client();
	/// Use @transport (unit tests pass a fake).
	explicit Client(std::unique_ptr<Transport> transport);
	~Client();
	Client(const Client &) = delete;
	Client &operator=(const Client &) = delete;
	Client(Client &&) noexcept;
	Client &operator=(Client &&) noexcept;

	Info info();

	void plane_add(const Plane &p);
	void plane_set(const Plane &p);
	void plane_del(uint32_t id);
	Plane plane_get(uint32_t id);
	std::vector<Plane> planes();

	void path_add(const Path &p);
	void path_set(const PathUpdate &u);
	void path_del(uint32_t id);
	Path path_get(uint32_t id);
	std::vector<Path> paths();

	void policy_add(const Policy &p);
	void policy_set(const Policy &p);
	void policy_del(const std::string &name);
	Policy policy_get(const std::string &name);
	std::vector<Policy> policies();

	Settings settings();
	void settings_set(const Settings &s);

	std::vector<Conn> conns(const ConnFilter &filter = {});
	Conn conn_get(uint32_t id);

	Stats stats();

	ProbeResult probe(const in6_addr &dst, uint32_t path_id,
			  std::optional<uint32_t> timeout_ms = std::nullopt);

	/// Join the events group; then call next_event().
	void subscribe();
	/// The next event, or nullopt after @timeout_ms (-1: wait forever).
	std::optional<Event> next_event(int timeout_ms = -1);

	Transport &transport() { return *transport_; }

private:
	std::vector<Message> call(uint8_t cmd, const std::vector<uint8_t> &attrs, bool dump,
				  const std::string &op);
	std::unique_ptr<Transport> transport_;
};

/// Parse the attributes of an INFO reply (exposed for unit tests).
Info parse_info(nlattr **attrs);

// Reply parsers and request builders (exposed for unit tests).
Plane parse_plane(const std::vector<uint8_t> &attrs);
Path parse_path(const std::vector<uint8_t> &attrs);
Policy parse_policy(const std::vector<uint8_t> &attrs);
Settings parse_settings(const std::vector<uint8_t> &attrs);
Conn parse_conn(const std::vector<uint8_t> &attrs);
/// The connections of a CONN_GET reply or dump: a connection whose EVs
/// did not fit one message continues in the next ones (each with
/// MRC_CONN_A_PATHS_FROM), appended here; throws Error(EPROTO, naming
/// @op) when they come out of order or fewer than MRC_CONN_A_NR_PATHS.
std::vector<Conn> parse_conns(const std::vector<Message> &msgs, const std::string &op);
Stats parse_stats(const std::vector<uint8_t> &attrs);
Event parse_event(const std::vector<uint8_t> &attrs);

} // namespace mrc
