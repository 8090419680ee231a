// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: the transport under the typed API. The real one speaks generic
// netlink through libnl; unit tests substitute a fake that records
// requests and returns canned replies.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mrc {

/// One generic netlink message of the family: its command and the raw
/// attributes after the genl header.
struct Message {
	uint8_t cmd = 0;
	std::vector<uint8_t> attrs;
};

class Transport {
public:
	virtual ~Transport() = default;
	/// Send @req (a do, or a dump when @dump) and return every reply.
	/// Throws mrc::Error carrying the kernel's extack text on failure.
	/// @operation names the request in error messages ("plane add").
	virtual std::vector<Message> request(const Message &req, bool dump,
					     const std::string &operation) = 0;
	/// Join the "events" multicast group.
	virtual void subscribe() = 0;
	/// Wait up to @timeout_ms (-1: forever) for the next event.
	virtual std::optional<Message> next_event(int timeout_ms) = 0;
};

/// Generic netlink over libnl-genl-3 in the caller's namespace. Throws
/// ModuleNotLoaded when the family does not exist.
std::unique_ptr<Transport> make_netlink_transport();

} // namespace mrc
