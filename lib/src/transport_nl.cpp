// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: the generic netlink transport (libnl-genl-3), RAII throughout.
#include <mrc/netlink.hpp>
#include <mrc/transport.hpp>

#include <cerrno>
#include <cstring>
#include <deque>

#include <linux/genetlink.h>
#include <linux/mrc.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <poll.h>
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

struct SockDeleter {
	void operator()(nl_sock *s) const noexcept { nl_socket_free(s); }
};
using SockPtr = std::unique_ptr<nl_sock, SockDeleter>;

struct MsgDeleter {
	void operator()(nl_msg *m) const noexcept { nlmsg_free(m); }
};
using MsgPtr = std::unique_ptr<nl_msg, MsgDeleter>;

struct CbDeleter {
	void operator()(nl_cb *c) const noexcept { nl_cb_put(c); }
};
using CbPtr = std::unique_ptr<nl_cb, CbDeleter>;

SockPtr open_genl()
{
	SockPtr sock(nl_socket_alloc());
	if (!sock)
		throw Error(ENOMEM, "cannot allocate a netlink socket");
	int err = genl_connect(sock.get());
	if (err < 0)
		throw Error(EIO, std::string("cannot open generic netlink: ") + nl_geterror(err));
	int one = 1;
	int fd = nl_socket_get_fd(sock.get());
	// Ask for the kernel's error text, without the echo of our request.
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	// Read each datagram whole, however large: peeking sizes the buffer
	// to it. The kernel fills a dump's datagrams up to the largest buffer
	// the socket has read with (up to 32 KB), and a connection's
	// messages (kmod/mrc_genl_conn.c) come near 16 KB each. libnl 3.7
	// peeks by default when no buffer size is set, but nothing binds it
	// to: ask, rather than fail with NLE_MSG_TRUNC should that change.
	nl_socket_enable_msg_peek(sock.get());
	return sock;
}

Message to_message(nl_msg *m)
{
	nlmsghdr *nlh = nlmsg_hdr(m);
	auto *g = static_cast<genlmsghdr *>(nlmsg_data(nlh));
	Message msg;
	msg.cmd = g->cmd;
	auto *a = reinterpret_cast<const uint8_t *>(genlmsg_attrdata(g, 0));
	int len = genlmsg_attrlen(g, 0);
	if (len > 0)
		msg.attrs.assign(a, a + len);
	return msg;
}

/// One request/response exchange.
class Exchange {
public:
	Exchange(nl_sock *sock, int family, const Message &req, bool dump, std::string operation)
	    : sock_(sock), msg_(nlmsg_alloc()), operation_(std::move(operation))
	{
		int flags = NLM_F_REQUEST | (dump ? NLM_F_DUMP : NLM_F_ACK);
		if (!msg_ || !genlmsg_put(msg_.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, flags,
					  req.cmd, MRC_GENL_VERSION))
			throw Error(ENOMEM, operation_ + ": cannot build the request");
		if (!req.attrs.empty() &&
		    nlmsg_append(msg_.get(), const_cast<uint8_t *>(req.attrs.data()),
				 req.attrs.size(), NLMSG_ALIGNTO) < 0)
			throw Error(ENOMEM, operation_ + ": request too large");
	}

	std::vector<Message> run()
	{
		CbPtr cb(nl_cb_alloc(NL_CB_CUSTOM));
		if (!cb)
			throw Error(ENOMEM, operation_ + ": cannot allocate callbacks");
		nl_cb_set(cb.get(), NL_CB_VALID, NL_CB_CUSTOM, &Exchange::valid_cb, this);
		nl_cb_set(cb.get(), NL_CB_ACK, NL_CB_CUSTOM, &Exchange::done_cb, this);
		nl_cb_set(cb.get(), NL_CB_FINISH, NL_CB_CUSTOM, &Exchange::done_cb, this);
		nl_cb_err(cb.get(), NL_CB_CUSTOM, &Exchange::error_cb, this);

		nlmsghdr *nlh = nlmsg_hdr(msg_.get());
		const auto *raw = reinterpret_cast<const uint8_t *>(nlh);
		sent_.assign(raw, raw + nlh->nlmsg_len);

		int err = nl_send_auto(sock_, msg_.get());
		if (err < 0)
			throw Error(EIO, operation_ + ": send failed: " + nl_geterror(err));
		while (!done_) {
			err = nl_recvmsgs(sock_, cb.get());
			if (errnum_)
				break;
			if (err < 0)
				throw Error(EIO, operation_ + ": " + nl_geterror(err));
		}
		if (errnum_)
			throw Error(errnum_, describe_error(operation_, errnum_, ack_, sent_));
		return std::move(replies_);
	}

private:
	static int valid_cb(nl_msg *m, void *arg)
	{
		static_cast<Exchange *>(arg)->replies_.push_back(to_message(m));
		return NL_OK;
	}

	static int done_cb(nl_msg *m, void *arg)
	{
		auto *self = static_cast<Exchange *>(arg);
		nlmsghdr *nlh = nlmsg_hdr(m);
		// A dump that failed part way ends with an NLMSG_DONE carrying
		// its error and extack: the replies so far are not all there is.
		if (int errnum = done_error(nlh, nlh->nlmsg_len)) {
			self->errnum_ = errnum;
			self->ack_ = parse_extack(nlh, nlh->nlmsg_len);
		}
		self->done_ = true;
		return NL_STOP;
	}

	static int error_cb(sockaddr_nl *, nlmsgerr *err, void *arg)
	{
		auto *self = static_cast<Exchange *>(arg);
		auto *nlh =
		    reinterpret_cast<nlmsghdr *>(reinterpret_cast<uint8_t *>(err) - NLMSG_HDRLEN);
		self->errnum_ = -err->error;
		self->ack_ = parse_extack(nlh, nlh->nlmsg_len);
		self->done_ = true;
		return NL_STOP;
	}

	nl_sock *sock_;
	MsgPtr msg_;
	std::string operation_;
	std::vector<uint8_t> sent_;
	std::vector<Message> replies_;
	bool done_ = false;
	int errnum_ = 0;
	ExtAck ack_;
};

class NetlinkTransport : public Transport {
public:
	NetlinkTransport() : sock_(open_genl())
	{
		family_ = genl_ctrl_resolve(sock_.get(), MRC_GENL_NAME);
		if (family_ < 0)
			throw ModuleNotLoaded();
	}

	std::vector<Message> request(const Message &req, bool dump,
				     const std::string &operation) override
	{
		Exchange x(sock_.get(), family_, req, dump, operation);
		return x.run();
	}

	void subscribe() override
	{
		if (events_)
			return;
		int grp = genl_ctrl_resolve_grp(sock_.get(), MRC_GENL_NAME, MRC_GENL_MCGRP_EVENTS);
		if (grp < 0)
			throw Error(ENOENT, "monitor: the mrc family has no \"events\" group");
		SockPtr ev = open_genl();
		nl_socket_disable_seq_check(ev.get());
		int err = nl_socket_add_membership(ev.get(), grp);
		if (err < 0)
			throw Error(EIO, std::string("monitor: cannot join the events group: ") +
					     nl_geterror(err));
		// A busy connection emits path events in bursts: a large receive
		// buffer (beyond rmem_max when we may) keeps a monitor from
		// overrunning. Best effort: the default size still works.
		int fd = nl_socket_get_fd(ev.get());
		int size = kEventBufferBytes;
		if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0)
			setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
		events_ = std::move(ev);
		cb_.reset(nl_cb_alloc(NL_CB_CUSTOM));
		if (!cb_)
			throw Error(ENOMEM, "monitor: cannot allocate callbacks");
		nl_cb_set(cb_.get(), NL_CB_VALID, NL_CB_CUSTOM, &NetlinkTransport::event_cb, this);
		// Notifications carry no sequence number of ours.
		nl_cb_set(cb_.get(), NL_CB_SEQ_CHECK, NL_CB_CUSTOM, &NetlinkTransport::no_seq_check,
			  nullptr);
	}

	std::optional<Message> next_event(int timeout_ms) override
	{
		if (!events_)
			subscribe();
		while (pending_.empty()) {
			pollfd p{nl_socket_get_fd(events_.get()), POLLIN, 0};
			int n = poll(&p, 1, timeout_ms);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				throw Error(errno,
					    std::string("monitor: poll: ") + std::strerror(errno));
			if (n == 0)
				return std::nullopt;
			int err = nl_recvmsgs(events_.get(), cb_.get());
			// Overrun (ENOBUFS): the kernel dropped events for this socket.
			// The events after it still come: keep listening.
			if (err == -NLE_NOMEM)
				continue;
			if (err < 0 && err != -NLE_AGAIN)
				throw Error(EIO, std::string("monitor: ") + nl_geterror(err));
		}
		Message m = std::move(pending_.front());
		pending_.pop_front();
		return m;
	}

private:
	static constexpr int kEventBufferBytes = 4 << 20;

	static int no_seq_check(nl_msg *, void *) { return NL_OK; }

	static int event_cb(nl_msg *m, void *arg)
	{
		static_cast<NetlinkTransport *>(arg)->pending_.push_back(to_message(m));
		return NL_OK;
	}

	SockPtr sock_;
	int family_ = -1;
	SockPtr events_;
	CbPtr cb_;
	std::deque<Message> pending_;
};

} // namespace

std::unique_ptr<Transport> make_netlink_transport()
{
	return std::make_unique<NetlinkTransport>();
}

} // namespace mrc
