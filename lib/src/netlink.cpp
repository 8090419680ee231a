// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: generic netlink transport, extended-ack errors, INFO.
#include <mrc/attr.hpp>
#include <mrc/netlink.hpp>

#include <cerrno>
#include <cstring>

#include <linux/genetlink.h>
#include <linux/mrc.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <sys/socket.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

namespace mrc {

namespace {

const char *const kTop[] = {
    "MRC_A_UNSPEC",         "MRC_A_PAD",           "MRC_A_INFO_VERSION",
    "MRC_A_INFO_AF",        "MRC_A_INFO_UDP_PORT", "MRC_A_INFO_NETNS_COOKIE",
    "MRC_A_PLANE",          "MRC_A_PATH",          "MRC_A_POLICY",
    "MRC_A_SETTINGS",       "MRC_A_CONN",          "MRC_A_STATS",
    "MRC_A_PROBE",          "MRC_A_EVENT",         "MRC_A_INFO_IPPROTO",
    "MRC_A_STATS_TTR_HIST", "MRC_A_STATS_TTR_SUM",
};
static_assert(std::size(kTop) == MRC_A_MAX + 1, "name every mrc_attr value");
const char *const kPlane[] = {
    "MRC_PLANE_A_UNSPEC", "MRC_PLANE_A_ID",    "MRC_PLANE_A_IFINDEX", "MRC_PLANE_A_IFNAME",
    "MRC_PLANE_A_SADDR",  "MRC_PLANE_A_ADMIN", "MRC_PLANE_A_OPER",    "MRC_PLANE_A_NR_PATHS",
};
static_assert(std::size(kPlane) == MRC_PLANE_A_NR_PATHS + 1, "name every mrc_plane_attr value");
const char *const kPath[] = {
    "MRC_PATH_A_UNSPEC",  "MRC_PATH_A_ID",     "MRC_PATH_A_DST",  "MRC_PATH_A_DST_LEN",
    "MRC_PATH_A_PLANE",   "MRC_PATH_A_MODE",   "MRC_PATH_A_USID", "MRC_PATH_A_SEGS",
    "MRC_PATH_A_ENTROPY", "MRC_PATH_A_WEIGHT", "MRC_PATH_A_DENY",
};
static_assert(std::size(kPath) == MRC_PATH_A_DENY + 1, "name every mrc_path_attr value");
const char *const kSeg[] = {
    "MRC_SEG_A_UNSPEC",
    "MRC_SEG_A_ADDR",
};
static_assert(std::size(kSeg) == MRC_SEG_A_ADDR + 1, "name every mrc_seg_attr value");
const char *const kPolicy[] = {
    "MRC_POLICY_A_UNSPEC",
    "MRC_POLICY_A_PAD",
    "MRC_POLICY_A_NAME",
    "MRC_POLICY_A_RTO_MIN",
    "MRC_POLICY_A_RTO_MAX",
    "MRC_POLICY_A_PROBE_INTERVAL",
    "MRC_POLICY_A_SKIP",
    "MRC_POLICY_A_RETRY_LIMIT",
    "MRC_POLICY_A_FAIL_TO_BAD",
    "MRC_POLICY_A_SUCCESS_TO_GOOD",
    "MRC_POLICY_A_MIN_ACTIVE",
    "MRC_POLICY_A_MAX_PATHS",
    "MRC_POLICY_A_BACKUPS",
    "MRC_POLICY_A_SACK_GAP",
    "MRC_POLICY_A_ECN_RESPONSE",
    "MRC_POLICY_A_DEFAULT",
    "MRC_POLICY_A_KEEPALIVE",
    "MRC_POLICY_A_KEEPALIVE_IDLE",
    "MRC_POLICY_A_KEEPALIVE_INTERVAL",
    "MRC_POLICY_A_KEEPALIVE_COUNT",
};
static_assert(std::size(kPolicy) == MRC_POLICY_A_KEEPALIVE_COUNT + 1,
	      "name every mrc_policy_attr value");
const char *const kSettings[] = {
    "MRC_SETTINGS_A_UNSPEC",
    "MRC_SETTINGS_A_UDP_PORT",
    "MRC_SETTINGS_A_DEFAULT_POLICY",
    "MRC_SETTINGS_A_MAX_EV_SET",
};
static_assert(std::size(kSettings) == MRC_SETTINGS_A_MAX_EV_SET + 1,
	      "name every mrc_settings_attr value");
const char *const kConn[] = {
    "MRC_CONN_A_UNSPEC",      "MRC_CONN_A_PAD",          "MRC_CONN_A_ID",
    "MRC_CONN_A_LOCAL_ADDR",  "MRC_CONN_A_REMOTE_ADDR",  "MRC_CONN_A_LOCAL_PORT",
    "MRC_CONN_A_REMOTE_PORT", "MRC_CONN_A_TYPE",         "MRC_CONN_A_STATE",
    "MRC_CONN_A_LOCAL_QPN",   "MRC_CONN_A_REMOTE_QPN",   "MRC_CONN_A_POLICY",
    "MRC_CONN_A_SRTT",        "MRC_CONN_A_RTO",          "MRC_CONN_A_CWND",
    "MRC_CONN_A_INFLIGHT",    "MRC_CONN_A_PATHS_GOOD",   "MRC_CONN_A_PATHS_SKIP",
    "MRC_CONN_A_PATHS_BAD",   "MRC_CONN_A_PATHS_DENIED", "MRC_CONN_A_PATHS_BACKUP",
    "MRC_CONN_A_RETX_RTO",    "MRC_CONN_A_RETX_NACK",    "MRC_CONN_A_RETX_SACK",
    "MRC_CONN_A_RETX_EV",     "MRC_CONN_A_TTR_COUNT",    "MRC_CONN_A_TTR_MAX",
    "MRC_CONN_A_BYTES_SENT",  "MRC_CONN_A_BYTES_RECV",   "MRC_CONN_A_PATHS",
    "MRC_CONN_A_PATH",        "MRC_CONN_A_TTR_HIST",     "MRC_CONN_A_NR_PATHS",
    "MRC_CONN_A_PATHS_FROM",
};
static_assert(std::size(kConn) == MRC_CONN_A_PATHS_FROM + 1, "name every mrc_conn_attr value");
const char *const kConnPath[] = {
    "MRC_CPATH_A_UNSPEC",    "MRC_CPATH_A_PAD",       "MRC_CPATH_A_EV",
    "MRC_CPATH_A_PLANE",     "MRC_CPATH_A_PATH_ID",   "MRC_CPATH_A_STATE",
    "MRC_CPATH_A_REASON",    "MRC_CPATH_A_TX_PKTS",   "MRC_CPATH_A_RETX_PKTS",
    "MRC_CPATH_A_LOST_PKTS", "MRC_CPATH_A_ECN_MARKS", "MRC_CPATH_A_SRTT",
    "MRC_CPATH_A_TIMEOUTS",
};
static_assert(std::size(kConnPath) == MRC_CPATH_A_TIMEOUTS + 1,
	      "name every mrc_conn_path_attr value");
const char *const kProbe[] = {
    "MRC_PROBE_A_UNSPEC",     "MRC_PROBE_A_PAD", "MRC_PROBE_A_DST",       "MRC_PROBE_A_PATH_ID",
    "MRC_PROBE_A_TIMEOUT_MS", "MRC_PROBE_A_RTT", "MRC_PROBE_A_TIMED_OUT",
};
static_assert(std::size(kProbe) == MRC_PROBE_A_TIMED_OUT + 1, "name every mrc_probe_attr value");
const char *const kEvent[] = {
    "MRC_EVENT_A_UNSPEC",      "MRC_EVENT_A_PAD",        "MRC_EVENT_A_TYPE",
    "MRC_EVENT_A_TIMESTAMP",   "MRC_EVENT_A_CONN_ID",    "MRC_EVENT_A_EV",
    "MRC_EVENT_A_PATH_ID",     "MRC_EVENT_A_PLANE",      "MRC_EVENT_A_IFINDEX",
    "MRC_EVENT_A_OLD_STATE",   "MRC_EVENT_A_NEW_STATE",  "MRC_EVENT_A_REASON",
    "MRC_EVENT_A_DROPS",       "MRC_EVENT_A_TTR",        "MRC_EVENT_A_LOCAL_ADDR",
    "MRC_EVENT_A_REMOTE_ADDR", "MRC_EVENT_A_LOCAL_PORT", "MRC_EVENT_A_REMOTE_PORT",
    "MRC_EVENT_A_ERROR",
};
static_assert(std::size(kEvent) == MRC_EVENT_A_ERROR + 1, "name every mrc_event_attr value");

struct Table {
	const char *const *names;
	size_t n;
};

template <size_t N> constexpr Table table(const char *const (&a)[N])
{
	return {a, N};
}

// The enum of the attributes nested in attribute @types (from the top).
std::optional<Table> child_table(const std::vector<uint16_t> &types)
{
	if (types.empty())
		return table(kTop);
	if (types.size() == 1) {
		switch (types[0]) {
		case MRC_A_PLANE:
			return table(kPlane);
		case MRC_A_PATH:
			return table(kPath);
		case MRC_A_POLICY:
			return table(kPolicy);
		case MRC_A_SETTINGS:
			return table(kSettings);
		case MRC_A_CONN:
			return table(kConn);
		case MRC_A_PROBE:
			return table(kProbe);
		case MRC_A_EVENT:
			return table(kEvent);
		default:
			return std::nullopt;
		}
	}
	if (types.size() == 2 && types[0] == MRC_A_PATH && types[1] == MRC_PATH_A_SEGS)
		return table(kSeg);
	if (types.size() == 2 && types[0] == MRC_A_CONN && types[1] == MRC_CONN_A_PATHS)
		return Table{nullptr, 0}; // a list of MRC_CONN_A_PATH
	if (types.size() == 3 && types[0] == MRC_A_CONN && types[1] == MRC_CONN_A_PATHS)
		return table(kConnPath);
	return std::nullopt;
}

} // namespace

std::string attr_name(uint32_t type)
{
	if (type < std::size(kTop))
		return kTop[type];
	return "attribute " + std::to_string(type);
}

std::string attr_path_name(const std::vector<uint16_t> &types)
{
	if (types.empty())
		return "message";
	std::vector<uint16_t> parent(types.begin(), types.end() - 1);
	auto t = child_table(parent);
	uint16_t last = types.back();
	if (t && parent.size() == 2 && parent[1] == MRC_CONN_A_PATHS)
		return "MRC_CONN_A_PATH";
	if (t && t->names && last < t->n)
		return t->names[last];
	return "attribute " + std::to_string(last);
}

namespace {

void walk(const std::vector<uint8_t> &buf, size_t start, size_t end, uint32_t offset, bool exact,
	  std::vector<uint16_t> &path)
{
	size_t off = start;
	while (off + sizeof(nlattr) <= end) {
		nlattr a;
		std::memcpy(&a, buf.data() + off, sizeof(a));
		if (a.nla_len < sizeof(nlattr) || off + a.nla_len > end)
			return;
		uint16_t type = a.nla_type & NLA_TYPE_MASK;
		if (offset >= off && offset < off + a.nla_len) {
			path.push_back(type);
			if (exact && offset == off)
				return;
			// Descend into the family's nests.
			if (child_table(path) && offset >= off + NLA_HDRLEN) {
				walk(buf, off + NLA_HDRLEN, off + a.nla_len, offset, exact, path);
				return;
			}
			if (exact)
				path.clear();
			return;
		}
		off += NLA_ALIGN(a.nla_len);
	}
}

} // namespace

std::vector<uint16_t> attr_path_at_offset(const std::vector<uint8_t> &request, uint32_t offset,
					  bool exact)
{
	std::vector<uint16_t> path;
	walk(request, NLMSG_HDRLEN + GENL_HDRLEN, request.size(), offset, exact, path);
	return path;
}

std::string format_error(const std::string &operation, int errnum, const std::string &message,
			 const std::optional<std::string> &bad,
			 const std::optional<std::string> &missing)
{
	std::string s = operation + ": ";
	s += message.empty() ? std::strerror(errnum) : message;
	if (bad)
		s += " (" + *bad + ")";
	if (missing)
		s += " (missing " + *missing + ")";
	if (!message.empty())
		s += std::string(" [") + std::strerror(errnum) + "]";
	return s;
}

std::string describe_error(const std::string &operation, int errnum, const ExtAck &ack,
			   const std::vector<uint8_t> &request)
{
	std::optional<std::string> bad, missing;
	if (ack.offset) {
		auto path = attr_path_at_offset(request, *ack.offset);
		if (!path.empty())
			bad = attr_path_name(path);
	}
	// The kernel's policy says what would have been accepted; a maximum
	// that is only the type's own is not worth saying.
	std::optional<uint64_t> type_max;
	if (ack.policy_type == NL_ATTR_TYPE_U8)
		type_max = UINT8_MAX;
	else if (ack.policy_type == NL_ATTR_TYPE_U16)
		type_max = UINT16_MAX;
	else if (ack.policy_type == NL_ATTR_TYPE_U32)
		type_max = UINT32_MAX;
	else if (ack.policy_type == NL_ATTR_TYPE_U64)
		type_max = UINT64_MAX;
	if (bad && ack.min_value && ack.max_value && ack.max_value == type_max)
		*bad += ", at least " + std::to_string(*ack.min_value);
	else if (bad && ack.min_value && ack.max_value)
		*bad += ", valid range " + std::to_string(*ack.min_value) + ".." +
			std::to_string(*ack.max_value);
	else if (bad && ack.min_value)
		*bad += ", at least " + std::to_string(*ack.min_value);
	else if (bad && ack.max_value)
		*bad += ", at most " + std::to_string(*ack.max_value);
	if (bad && ack.min_length && ack.max_length && *ack.min_length == *ack.max_length)
		*bad += ", length must be " + std::to_string(*ack.min_length);
	else if (bad && ack.max_length)
		*bad += ", at most " + std::to_string(*ack.max_length) + " bytes";
	if (ack.missing_type) {
		std::vector<uint16_t> nest;
		if (ack.missing_nest)
			nest = attr_path_at_offset(request, *ack.missing_nest, true);
		nest.push_back(static_cast<uint16_t>(*ack.missing_type));
		missing = attr_path_name(nest);
	}
	return format_error(operation, errnum, ack.message, bad, missing);
}

int done_error(const nlmsghdr *nlh, size_t len)
{
	const size_t hdr = NLMSG_HDRLEN + sizeof(int);
	if (len < hdr || nlh->nlmsg_len > len || nlh->nlmsg_len < hdr ||
	    nlh->nlmsg_type != NLMSG_DONE)
		return 0;
	int err;
	std::memcpy(&err, reinterpret_cast<const uint8_t *>(nlh) + NLMSG_HDRLEN, sizeof(err));
	return err < 0 ? -err : 0;
}

ExtAck parse_extack(const nlmsghdr *nlh, size_t len)
{
	ExtAck ack;
	// An NLMSG_ERROR holds a struct nlmsgerr, an NLMSG_DONE the dump's
	// errno; the TLVs follow (the request echoed in between for an
	// error without NLM_F_CAPPED).
	const bool done = len >= NLMSG_HDRLEN && nlh->nlmsg_type == NLMSG_DONE;
	const size_t hdr = NLMSG_HDRLEN + (done ? sizeof(int) : sizeof(nlmsgerr));

	if (len < hdr || nlh->nlmsg_len > len || nlh->nlmsg_len < hdr)
		return ack;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return ack;
	size_t off = hdr;
	if (!done && !(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		auto *err = reinterpret_cast<const nlmsgerr *>(
		    reinterpret_cast<const uint8_t *>(nlh) + NLMSG_HDRLEN);
		off += NLMSG_ALIGN(err->msg.nlmsg_len) - sizeof(nlmsghdr);
	}
	const auto *base = reinterpret_cast<const uint8_t *>(nlh);
	while (off + sizeof(nlattr) <= nlh->nlmsg_len) {
		nlattr a;
		std::memcpy(&a, base + off, sizeof(a));
		if (a.nla_len < sizeof(nlattr) || off + a.nla_len > nlh->nlmsg_len)
			break;
		const uint8_t *payload = base + off + NLA_HDRLEN;
		size_t plen = a.nla_len - NLA_HDRLEN;
		uint32_t v;
		switch (a.nla_type & NLA_TYPE_MASK) {
		case NLMSGERR_ATTR_MSG:
			ack.message.assign(reinterpret_cast<const char *>(payload),
					   strnlen(reinterpret_cast<const char *>(payload), plen));
			break;
		case NLMSGERR_ATTR_OFFS:
			if (plen >= 4) {
				std::memcpy(&v, payload, 4);
				ack.offset = v;
			}
			break;
		case NLMSGERR_ATTR_MISS_TYPE:
			if (plen >= 4) {
				std::memcpy(&v, payload, 4);
				ack.missing_type = v;
			}
			break;
		case NLMSGERR_ATTR_POLICY: {
			Attrs pol(payload, plen);
			auto num = [&](uint16_t t) -> std::optional<uint64_t> {
				auto *x = pol.get(t);
				if (!x)
					return std::nullopt;
				if (x->size() == 8)
					return x->u64();
				if (x->size() == 4)
					return x->u32();
				return std::nullopt;
			};
			if (auto v = num(NL_POLICY_TYPE_ATTR_MIN_VALUE_U))
				ack.min_value = static_cast<int64_t>(*v);
			if (auto v = num(NL_POLICY_TYPE_ATTR_MIN_VALUE_S))
				ack.min_value = static_cast<int64_t>(*v);
			if (auto v = num(NL_POLICY_TYPE_ATTR_MAX_VALUE_U))
				ack.max_value = *v;
			if (auto v = num(NL_POLICY_TYPE_ATTR_MAX_VALUE_S))
				ack.max_value = *v;
			if (auto v = num(NL_POLICY_TYPE_ATTR_MIN_LENGTH))
				ack.min_length = static_cast<uint32_t>(*v);
			if (auto v = num(NL_POLICY_TYPE_ATTR_MAX_LENGTH))
				ack.max_length = static_cast<uint32_t>(*v);
			if (auto v = num(NL_POLICY_TYPE_ATTR_TYPE))
				ack.policy_type = static_cast<uint32_t>(*v);
			break;
		}
		case NLMSGERR_ATTR_MISS_NEST:
			if (plen >= 4) {
				std::memcpy(&v, payload, 4);
				ack.missing_nest = v;
			}
			break;
		default:
			break;
		}
		off += NLA_ALIGN(a.nla_len);
	}
	return ack;
}

std::optional<uint32_t> attr_at_offset(const std::vector<uint8_t> &request, uint32_t offset)
{
	size_t off = NLMSG_HDRLEN + GENL_HDRLEN;
	while (off + sizeof(nlattr) <= request.size()) {
		nlattr a;
		std::memcpy(&a, request.data() + off, sizeof(a));
		if (a.nla_len < sizeof(nlattr))
			break;
		if (offset >= off && offset < off + a.nla_len)
			return a.nla_type & NLA_TYPE_MASK;
		off += NLA_ALIGN(a.nla_len);
	}
	return std::nullopt;
}

std::string format_error(const std::string &operation, int errnum, const ExtAck &ack,
			 std::optional<uint32_t> bad_attr)
{
	std::optional<std::string> bad, missing;
	if (bad_attr)
		bad = attr_name(*bad_attr);
	if (ack.missing_type)
		missing = attr_name(*ack.missing_type);
	return format_error(operation, errnum, ack.message, bad, missing);
}

Info parse_info(nlattr **tb)
{
	Info info;
	if (tb[MRC_A_INFO_VERSION])
		info.version = nla_get_string(tb[MRC_A_INFO_VERSION]);
	if (tb[MRC_A_INFO_AF])
		info.af = nla_get_u32(tb[MRC_A_INFO_AF]);
	if (tb[MRC_A_INFO_IPPROTO])
		info.ipproto = nla_get_u32(tb[MRC_A_INFO_IPPROTO]);
	if (tb[MRC_A_INFO_UDP_PORT])
		info.udp_port = nla_get_u16(tb[MRC_A_INFO_UDP_PORT]);
	if (tb[MRC_A_INFO_NETNS_COOKIE])
		info.netns_cookie = nla_get_u64(tb[MRC_A_INFO_NETNS_COOKIE]);
	return info;
}

} // namespace mrc
