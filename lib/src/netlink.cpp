// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: generic netlink transport, extended-ack errors, INFO.
#include <mrc/netlink.hpp>

#include <cerrno>
#include <cstring>
#include <functional>

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

ModuleNotLoaded::ModuleNotLoaded()
    : Error(ENOENT, "the mrc kernel module is not loaded (generic netlink family \"mrc\" not "
		    "found); load it with 'modprobe mrc'")
{
}

namespace {

struct MsgDeleter {
	void operator()(nl_msg *m) const noexcept { nlmsg_free(m); }
};
using MsgPtr = std::unique_ptr<nl_msg, MsgDeleter>;

struct CbDeleter {
	void operator()(nl_cb *c) const noexcept { nl_cb_put(c); }
};
using CbPtr = std::unique_ptr<nl_cb, CbDeleter>;

const char *const kAttrNames[] = {
    [MRC_A_UNSPEC] = "MRC_A_UNSPEC",
    [MRC_A_PAD] = "MRC_A_PAD",
    [MRC_A_INFO_VERSION] = "MRC_A_INFO_VERSION",
    [MRC_A_INFO_AF] = "MRC_A_INFO_AF",
    [MRC_A_INFO_UDP_PORT] = "MRC_A_INFO_UDP_PORT",
    [MRC_A_INFO_NETNS_COOKIE] = "MRC_A_INFO_NETNS_COOKIE",
};
static_assert(std::size(kAttrNames) == __MRC_A_MAX, "name every attribute");

} // namespace

std::string attr_name(uint32_t type)
{
	if (type < std::size(kAttrNames) && kAttrNames[type])
		return kAttrNames[type];
	return "attribute " + std::to_string(type);
}

ExtAck parse_extack(const nlmsghdr *nlh, size_t len)
{
	ExtAck ack;
	const size_t hdr = NLMSG_HDRLEN + sizeof(nlmsgerr);

	if (len < hdr || nlh->nlmsg_len > len || nlh->nlmsg_len < hdr)
		return ack;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return ack;
	size_t off = hdr;
	// Without NLM_F_CAPPED the original request sits between the error
	// and the TLVs.
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
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
	std::string s = operation + ": ";
	s += ack.message.empty() ? std::strerror(errnum) : ack.message;
	if (bad_attr)
		s += " (" + attr_name(*bad_attr) + ")";
	if (ack.missing_type)
		s += " (missing " + attr_name(*ack.missing_type) + ")";
	if (!ack.message.empty())
		s += std::string(" [") + std::strerror(errnum) + "]";
	return s;
}

Info parse_info(nlattr **tb)
{
	Info info;
	if (tb[MRC_A_INFO_VERSION])
		info.version = nla_get_string(tb[MRC_A_INFO_VERSION]);
	if (tb[MRC_A_INFO_AF])
		info.af = nla_get_u32(tb[MRC_A_INFO_AF]);
	if (tb[MRC_A_INFO_UDP_PORT])
		info.udp_port = nla_get_u16(tb[MRC_A_INFO_UDP_PORT]);
	if (tb[MRC_A_INFO_NETNS_COOKIE])
		info.netns_cookie = nla_get_u64(tb[MRC_A_INFO_NETNS_COOKIE]);
	return info;
}

void Client::SockDeleter::operator()(nl_sock *s) const noexcept
{
	nl_socket_free(s);
}

Client::Client() : sock_(nl_socket_alloc())
{
	if (!sock_)
		throw Error(ENOMEM, "cannot allocate a netlink socket");
	int err = genl_connect(sock_.get());
	if (err < 0)
		throw Error(EIO, std::string("cannot open generic netlink: ") + nl_geterror(err));
	int one = 1;
	int fd = nl_socket_get_fd(sock_.get());
	// Ask for the kernel's error text, without the echo of our request.
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	family_ = genl_ctrl_resolve(sock_.get(), MRC_GENL_NAME);
	if (family_ < 0)
		throw ModuleNotLoaded();
}

Client::~Client() = default;
Client::Client(Client &&) noexcept = default;
Client &Client::operator=(Client &&) noexcept = default;

/// One request/response exchange; calls @on_reply for every reply message.
class Request {
public:
	Request(Client &c, uint8_t cmd, int flags, std::string operation)
	    : client_(c), msg_(nlmsg_alloc()), operation_(std::move(operation))
	{
		if (!msg_ || !genlmsg_put(msg_.get(), NL_AUTO_PORT, NL_AUTO_SEQ, c.family_, 0,
					  flags | NLM_F_REQUEST | NLM_F_ACK, cmd, MRC_GENL_VERSION))
			throw Error(ENOMEM, operation_ + ": cannot build the request");
	}

	nl_msg *msg() { return msg_.get(); }

	void run(const std::function<void(nlattr **)> &on_reply)
	{
		on_reply_ = &on_reply;
		CbPtr cb(nl_cb_alloc(NL_CB_CUSTOM));
		if (!cb)
			throw Error(ENOMEM, operation_ + ": cannot allocate callbacks");
		nl_cb_set(cb.get(), NL_CB_VALID, NL_CB_CUSTOM, &Request::valid_cb, this);
		nl_cb_set(cb.get(), NL_CB_ACK, NL_CB_CUSTOM, &Request::ack_cb, this);
		nl_cb_set(cb.get(), NL_CB_FINISH, NL_CB_CUSTOM, &Request::ack_cb, this);
		nl_cb_err(cb.get(), NL_CB_CUSTOM, &Request::error_cb, this);

		nlmsghdr *nlh = nlmsg_hdr(msg_.get());
		const auto *raw = reinterpret_cast<const uint8_t *>(nlh);
		sent_.assign(raw, raw + nlh->nlmsg_len);

		int err = nl_send_auto(client_.sock_.get(), msg_.get());
		if (err < 0)
			throw Error(EIO, operation_ + ": send failed: " + nl_geterror(err));
		while (!done_) {
			err = nl_recvmsgs(client_.sock_.get(), cb.get());
			if (err < 0 && !errnum_)
				throw Error(EIO, operation_ + ": " + nl_geterror(err));
			if (errnum_)
				break;
		}
		if (errnum_) {
			std::optional<uint32_t> bad;
			if (ack_.offset)
				bad = attr_at_offset(sent_, *ack_.offset);
			throw Error(errnum_, format_error(operation_, errnum_, ack_, bad));
		}
	}

private:
	static int valid_cb(nl_msg *m, void *arg)
	{
		auto *self = static_cast<Request *>(arg);
		nlattr *tb[MRC_A_MAX + 1] = {};
		if (genlmsg_parse(nlmsg_hdr(m), 0, tb, MRC_A_MAX, nullptr) < 0)
			return NL_SKIP;
		(*self->on_reply_)(tb);
		return NL_OK;
	}

	static int ack_cb(nl_msg *, void *arg)
	{
		static_cast<Request *>(arg)->done_ = true;
		return NL_STOP;
	}

	static int error_cb(sockaddr_nl *, nlmsgerr *err, void *arg)
	{
		auto *self = static_cast<Request *>(arg);
		auto *nlh =
		    reinterpret_cast<nlmsghdr *>(reinterpret_cast<uint8_t *>(err) - NLMSG_HDRLEN);
		self->errnum_ = -err->error;
		self->ack_ = parse_extack(nlh, nlh->nlmsg_len);
		self->done_ = true;
		return NL_STOP;
	}

	Client &client_;
	MsgPtr msg_;
	std::string operation_;
	std::vector<uint8_t> sent_;
	const std::function<void(nlattr **)> *on_reply_ = nullptr;
	bool done_ = false;
	int errnum_ = 0;
	ExtAck ack_;
};

Info Client::info()
{
	Request req(*this, MRC_CMD_INFO_GET, 0, "info");
	Info info;
	bool got = false;
	req.run([&](nlattr **tb) {
		info = parse_info(tb);
		got = true;
	});
	if (!got)
		throw Error(EPROTO, "info: the kernel sent no reply");
	return info;
}

} // namespace mrc
