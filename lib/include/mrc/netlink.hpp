// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: a typed client of the "mrc" generic netlink family.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <mrc/error.hpp>

struct nl_sock;
struct nl_msg;
struct nlmsghdr;
struct nlattr;

namespace mrc {

/// What the module reports about itself in the caller's namespace.
struct Info {
	std::string version;       ///< module version
	uint32_t af = 0;           ///< address family number of AF_MRC sockets
	uint16_t udp_port = 0;     ///< UDP port of MRC packets in this namespace
	uint64_t netns_cookie = 0; ///< tells namespaces apart
};

/// Details the kernel attached to a netlink error (extended ack).
struct ExtAck {
	std::string message;                  ///< NLMSGERR_ATTR_MSG, may be empty
	std::optional<uint32_t> offset;       ///< byte offset of the bad attribute
	std::optional<uint32_t> missing_type; ///< attribute that was required
};

/// Parse the extended ack of an NLMSG_ERROR message (NETLINK_CAP_ACK set:
/// the original request is not echoed). Never reads past @len.
ExtAck parse_extack(const nlmsghdr *nlh, size_t len);

/// Name of a top-level attribute of the family ("MRC_A_INFO_AF"), or a
/// number when unknown.
std::string attr_name(uint32_t type);

/// Find which top-level attribute starts at @offset of @request (a whole
/// netlink message as sent), to name it in an error.
std::optional<uint32_t> attr_at_offset(const std::vector<uint8_t> &request, uint32_t offset);

/// Build the user-facing message of a failed request.
std::string format_error(const std::string &operation, int errnum, const ExtAck &ack,
			 std::optional<uint32_t> bad_attr);

/// A connection to the "mrc" family in the caller's network namespace.
/// Not thread-safe: one Client per thread.
class Client {
public:
	/// Connect and resolve the family; throws ModuleNotLoaded when the
	/// module is absent, Error otherwise.
	Client();
	~Client();
	Client(const Client &) = delete;
	Client &operator=(const Client &) = delete;
	Client(Client &&) noexcept;
	Client &operator=(Client &&) noexcept;

	/// MRC_CMD_INFO_GET.
	Info info();

	/// Numeric id of the family (for tests and tools).
	int family_id() const noexcept { return family_; }

private:
	struct SockDeleter {
		void operator()(nl_sock *s) const noexcept;
	};
	std::unique_ptr<nl_sock, SockDeleter> sock_;
	int family_ = -1;

	friend class Request;
};

/// Parse the attributes of an INFO reply (exposed for unit tests).
Info parse_info(nlattr **attrs);

} // namespace mrc
