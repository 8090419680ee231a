// SPDX-License-Identifier: GPL-2.0
// Socket API conformance of MRC sockets, run in the test VM (one
// namespace, over loopback): socket(AF_MRC, type, 0) by default, or with
// "inet6" socket(AF_INET6, type, IPPROTO_MRC), which shares the socket
// operations and must behave the same (plus what only a drop-in for TCP
// needs). Prints KTAP subtest lines; exits 1 if any check failed.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <linux/sockios.h>
#include <linux/tcp.h>
#include <net/if.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <linux/mrc.h>
#include <mrc/netlink.hpp>
#include <mrc/pattern.hpp>
#include <mrc/socket.hpp>

namespace {

int g_af = MRC_AF_DEFAULT;
int g_mrc_af = MRC_AF_DEFAULT; // AF_MRC, even in inet6 mode
int g_proto = 0;               // IPPROTO_MRC with AF_INET6
bool g_inet6 = false;
int g_n = 0;
int g_failed = 0;

void check(bool ok, const std::string &what, const std::string &why = "")
{
	g_n++;
	if (ok) {
		std::printf("ok %d %s\n", g_n, what.c_str());
	} else {
		g_failed++;
		std::printf("not ok %d %s\n", g_n, what.c_str());
		if (!why.empty())
			std::printf("# %s\n", why.c_str());
	}
	std::fflush(stdout);
}

// A call that must fail with @err.
void check_errno(int rc, int err, const std::string &what)
{
	int e = errno;
	check(rc < 0 && e == err, what,
	      rc < 0 ? std::string("errno ") + std::strerror(e) + ", want " + std::strerror(err)
		     : "succeeded, want " + std::string(std::strerror(err)));
}

// A counter of this namespace (libmrc, over netlink), or -1.
long long mib(uint32_t id)
{
	try {
		auto v = mrc::Client().stats().get(id);
		return v ? static_cast<long long>(*v) : -1;
	} catch (const std::exception &) {
		return -1;
	}
}

sockaddr_mrc addr(const char *ip, uint16_t port)
{
	sockaddr_mrc a{};
	a.smrc_family = static_cast<__kernel_sa_family_t>(g_af);
	a.smrc_port = htons(port);
	inet_pton(AF_INET6, ip, &a.smrc_addr);
	return a;
}

sockaddr *sa(sockaddr_mrc &a)
{
	return reinterpret_cast<sockaddr *>(&a);
}

struct Fd {
	int fd;
	explicit Fd(int f = -1) : fd(f) {}
	~Fd()
	{
		if (fd >= 0)
			close(fd);
	}
	Fd(const Fd &) = delete;
	Fd &operator=(const Fd &) = delete;
	Fd(Fd &&o) noexcept : fd(o.fd) { o.fd = -1; }
	operator int() const { return fd; }
};

Fd sock(int type)
{
	return Fd(socket(g_af, type, g_proto));
}

uint16_t port_of(int fd)
{
	sockaddr_mrc a{};
	socklen_t len = sizeof(a);
	if (getsockname(fd, sa(a), &len) < 0)
		return 0;
	return ntohs(a.smrc_port);
}

// A listener on [::]:ephemeral, its port in *port.
Fd listener(int type, uint16_t *port)
{
	Fd l = sock(type);
	auto a = addr("::", 0);
	if (bind(l, sa(a), sizeof(a)) < 0 || listen(l, 16) < 0)
		return Fd();
	*port = port_of(l);
	return l;
}

// A connected pair over loopback: (client, accepted).
std::pair<Fd, Fd> pair(int type)
{
	uint16_t port = 0;
	Fd l = listener(type, &port);
	Fd c = sock(type);
	auto a = addr("::1", port);
	if (connect(c, sa(a), sizeof(a)) < 0)
		return {Fd(), Fd()};
	Fd s(accept(l, nullptr, nullptr));
	return {std::move(c), std::move(s)};
}

void test_socket_and_bind()
{
	if (g_inet6) {
		check_errno(socket(AF_INET6, SOCK_DGRAM, g_proto), EPROTONOSUPPORT,
			    "SOCK_DGRAM is not supported");
	} else {
		check_errno(socket(g_af, SOCK_DGRAM, 0), ESOCKTNOSUPPORT,
			    "SOCK_DGRAM is not supported");
		check_errno(socket(g_af, SOCK_STREAM, 6), EPROTONOSUPPORT, "protocol 6 is refused");
	}

	Fd s = sock(SOCK_STREAM);
	auto a = addr("::", 0);
	// AF_INET6 takes what inet6 takes: the RFC 2133 length, no scope id.
	socklen_t shortest = g_inet6 ? 24 : sizeof(a);
	check_errno(bind(s, sa(a), shortest - 1), EINVAL, "bind with a short address");
	sockaddr_mrc bad = a;
	bad.smrc_family = static_cast<__kernel_sa_family_t>(g_inet6 ? MRC_AF_DEFAULT : AF_INET6);
	check_errno(bind(s, sa(bad), sizeof(bad)), EAFNOSUPPORT, "bind with another family");
	auto mapped = addr("::ffff:127.0.0.1", 0);
	check_errno(bind(s, sa(mapped), sizeof(mapped)), EAFNOSUPPORT,
		    "bind to an IPv4-mapped address");
	auto nonlocal = addr("2001:db8::99", 0);
	check_errno(bind(s, sa(nonlocal), sizeof(nonlocal)), EADDRNOTAVAIL,
		    "bind to an address the host does not have");
	check(bind(s, sa(a), shortest) == 0, "bind to [::]:0");
	check(port_of(s) >= 32768, "an ephemeral port is assigned",
	      "port " + std::to_string(port_of(s)));
	check_errno(bind(s, sa(a), sizeof(a)), EINVAL, "bind twice");

	Fd t = sock(SOCK_STREAM);
	auto same = addr("::", port_of(s));
	check_errno(bind(t, sa(same), sizeof(same)), EADDRINUSE, "bind to a port in use");
}

void test_connect_errors()
{
	uint16_t port = 0;
	{
		Fd l = listener(SOCK_STREAM, &port); // closed at once: port now free
	}
	Fd c = sock(SOCK_STREAM);
	auto a = addr("::1", port);
	check_errno(connect(c, sa(a), sizeof(a)), ECONNREFUSED, "connect with nobody listening");

	Fd d = sock(SOCK_STREAM);
	auto zero = addr("::1", 0);
	check_errno(connect(d, sa(zero), sizeof(zero)), EINVAL, "connect to port 0");
	auto any = addr("::", 80);
	check_errno(connect(d, sa(any), sizeof(any)), ENETUNREACH, "connect to ::");
	auto mapped = addr("::ffff:127.0.0.1", 80);
	check_errno(connect(d, sa(mapped), sizeof(mapped)), EAFNOSUPPORT,
		    "connect to an IPv4-mapped address (no IPv4 underlay)");

	Fd l2 = listener(SOCK_SEQPACKET, &port);
	Fd e = sock(SOCK_STREAM);
	auto b = addr("::1", port);
	check_errno(connect(e, sa(b), sizeof(b)), EPROTOTYPE,
		    "connect a STREAM socket to a SEQPACKET listener (CM_REJ SOCK_TYPE)");

	sockaddr_mrc peer{};
	socklen_t len = sizeof(peer);
	check_errno(getpeername(d, sa(peer), &len), ENOTCONN, "getpeername unconnected");
}

void test_nonblocking_connect_and_accept()
{
	uint16_t port = 0;
	Fd l = listener(SOCK_STREAM, &port);
	int fl = fcntl(l, F_GETFL);
	fcntl(l, F_SETFL, fl | O_NONBLOCK);
	check_errno(accept(l, nullptr, nullptr), EAGAIN, "non-blocking accept, empty queue");
	fcntl(l, F_SETFL, fl);

	Fd c(socket(g_af, SOCK_STREAM | SOCK_NONBLOCK, g_proto));
	auto a = addr("::1", port);
	check_errno(connect(c, sa(a), sizeof(a)), EINPROGRESS, "non-blocking connect");
	pollfd p{c, POLLOUT, 0};
	int n = poll(&p, 1, 20000);
	check(n == 1 && (p.revents & POLLOUT), "poll reports the connect done");
	int err = -1;
	socklen_t len = sizeof(err);
	getsockopt(c, SOL_SOCKET, SO_ERROR, &err, &len);
	check(err == 0, "SO_ERROR is 0 after the connect", std::strerror(err));
	check_errno(connect(c, sa(a), sizeof(a)), EISCONN, "connect twice");

	pollfd lp{l, POLLIN, 0};
	check(poll(&lp, 1, 20000) == 1 && (lp.revents & POLLIN), "listener polls readable");
	sockaddr_mrc from{};
	socklen_t from_len = sizeof(from);
	Fd s(accept4(l, sa(from), &from_len, SOCK_NONBLOCK | SOCK_CLOEXEC));
	check(s >= 0, "accept4 returns the connection");
	check((fcntl(s, F_GETFL) & O_NONBLOCK) && (fcntl(s, F_GETFD) & FD_CLOEXEC),
	      "accept4 flags NONBLOCK and CLOEXEC apply");

	sockaddr_mrc peer{};
	len = sizeof(peer);
	check(getpeername(c, sa(peer), &len) == 0 && ntohs(peer.smrc_port) == port &&
		  len == sizeof(sockaddr_mrc),
	      "getpeername gives the listener's port");
	sockaddr_mrc mine{}, accepted_peer{};
	socklen_t mine_len = sizeof(mine), peer_len = sizeof(accepted_peer);
	check(getsockname(c, sa(mine), &mine_len) == 0 &&
		  getpeername(s, sa(accepted_peer), &peer_len) == 0 && ntohs(mine.smrc_port) != 0 &&
		  accepted_peer.smrc_port == mine.smrc_port &&
		  !std::memcmp(&accepted_peer.smrc_addr, &mine.smrc_addr, sizeof(mine.smrc_addr)),
	      "the accepted socket's peer is the client's address and port");
	check(from_len == sizeof(from) && from.smrc_port == mine.smrc_port,
	      "accept4 reports the client's port");
	char buf[8];
	check_errno(recv(s, buf, sizeof(buf), 0), EAGAIN, "recv on an empty non-blocking socket");
}

void test_stream_data()
{
	auto [c, s] = pair(SOCK_STREAM);
	check(c >= 0 && s >= 0, "STREAM pair over loopback");
	const char msg[] = "hello, multipath";
	check(send(c, msg, sizeof(msg), 0) == sizeof(msg), "send");
	char buf[64] = {};
	pollfd p{s, POLLIN, 0};
	check(poll(&p, 1, 20000) == 1, "the receiver polls readable");
	check(recv(s, buf, 5, MSG_PEEK) == 5 && !std::memcmp(buf, msg, 5), "MSG_PEEK");
	// Before 2026-11-28 this spun in the kernel, the socket locked.
	check(recv(s, buf, 0, 0) == 0 && recv(s, buf, 0, MSG_DONTWAIT) == 0,
	      "a zero-byte recv with data queued returns 0, as TCP's does");
	check(recv(s, buf, sizeof(msg), MSG_WAITALL) == sizeof(msg) &&
		  !std::memcmp(buf, msg, sizeof(msg)),
	      "MSG_WAITALL receives it all, the peeked bytes included");
	check_errno(recv(s, buf, 1, MSG_DONTWAIT), EAGAIN, "MSG_DONTWAIT on an empty queue");

	// MSG_WAITALL and SO_RCVLOWAT wait for the rest of a short write.
	for (int lowat : {0, 10}) {
		if (lowat)
			setsockopt(s, SOL_SOCKET, SO_RCVLOWAT, &lowat, sizeof(lowat));
		std::thread late([&]() {
			send(c, "01234", 5, 0);
			std::this_thread::sleep_for(std::chrono::milliseconds(300));
			send(c, "56789", 5, 0);
		});
		char ten[16] = {};
		ssize_t got = recv(s, ten, 10, lowat ? 0 : MSG_WAITALL);
		late.join();
		check(got == 10 && std::string(ten, 10) == "0123456789",
		      lowat ? "SO_RCVLOWAT waits for the rest" : "MSG_WAITALL waits for the rest",
		      "got " + std::to_string(got));
		lowat = 1;
		setsockopt(s, SOL_SOCKET, SO_RCVLOWAT, &lowat, sizeof(lowat));
	}

	timeval tv{0, 300000};
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	check_errno(recv(s, buf, 1, 0), EAGAIN, "SO_RCVTIMEO ends a blocking recv");

	// Large write, read in pieces.
	std::vector<char> big(3 << 20);
	mrc::Pattern(1).fill(0, big.data(), big.size());
	std::thread w([&]() {
		size_t off = 0;
		while (off < big.size()) {
			ssize_t n = send(c, big.data() + off, big.size() - off, 0);
			if (n <= 0)
				break;
			off += n;
		}
		shutdown(c, SHUT_WR);
	});
	tv = {30, 0};
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	std::vector<char> got;
	char chunk[10000];
	ssize_t n;
	while ((n = recv(s, chunk, sizeof(chunk), 0)) > 0)
		got.insert(got.end(), chunk, chunk + n);
	w.join();
	check(got == big, "3 MiB arrive intact, then end of stream",
	      "got " + std::to_string(got.size()) + " bytes");
	check_errno(send(c, msg, 1, MSG_NOSIGNAL), EPIPE, "send after SHUT_WR");
}

void test_seqpacket()
{
	auto [c, s] = pair(SOCK_SEQPACKET);
	check(c >= 0 && s >= 0, "SEQPACKET pair over loopback");
	std::string a(100, 'a'), b(3000, 'b'), d(10, 'd');
	send(c, a.data(), a.size(), 0);
	send(c, b.data(), b.size(), 0);
	send(c, d.data(), d.size(), 0);
	char buf[4000];
	timeval tv{30, 0};
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	check(recv(s, buf, sizeof(buf), 0) == 100, "first message whole");
	msghdr mh{};
	iovec iov{buf, 1000};
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	ssize_t n = recvmsg(s, &mh, 0);
	check(n == 1000 && (mh.msg_flags & MSG_TRUNC), "a short buffer truncates (MSG_TRUNC)");
	check(recv(s, buf, 2, MSG_TRUNC) == 10, "MSG_TRUNC returns the real length");
	std::string huge((1 << 22), 'h');
	int sndbuf = 0;
	socklen_t len = sizeof(sndbuf);
	getsockopt(c, SOL_SOCKET, SO_SNDBUF, &sndbuf, &len);
	huge.resize(sndbuf + 1);
	check_errno(send(c, huge.data(), huge.size(), 0), EMSGSIZE,
		    "a message larger than the send buffer");
}

// POLLOUT means a send will not fail with EAGAIN. A SEQPACKET sender whose
// peer does not read runs out of message slots before it runs out of
// send buffer (1-byte messages): poll must then stop reporting POLLOUT,
// or a non-blocking writer spins. Once the peer reads, POLLOUT returns.
// Fails if poll reports POLLOUT and the next send returns EAGAIN.
void test_seqpacket_pollout()
{
	auto [c, s] = pair(SOCK_SEQPACKET);
	check(c >= 0 && s >= 0, "SEQPACKET pair for the POLLOUT check");
	int sent = 0, lies = 0;
	bool settled = false;
	for (int round = 0; round < 64 && !settled; round++) {
		while (sent < 200000 && send(c, "x", 1, MSG_DONTWAIT) == 1)
			sent++;
		if (errno != EAGAIN)
			break;
		pollfd p{c, POLLOUT, 0};
		if (poll(&p, 1, 300) == 0) {
			settled = true;
			break;
		}
		// Writable: a send must succeed now.
		if (send(c, "x", 1, MSG_DONTWAIT) == 1)
			sent++;
		else if (errno == EAGAIN)
			lies++;
	}
	check(settled && lies == 0, "a SEQPACKET sender out of message slots is not POLLOUT (" +
					std::to_string(sent) + " messages queued, " +
					std::to_string(lies) + " POLLOUT then EAGAIN)");
	char buf[16];
	int got = 0;
	while (recv(s, buf, sizeof(buf), MSG_DONTWAIT) == 1)
		got++;
	pollfd p{c, POLLOUT, 0};
	check(got > 0 && poll(&p, 1, 20000) == 1 && (p.revents & POLLOUT),
	      "the peer reads: POLLOUT again");
}

void test_options()
{
	Fd s = sock(SOCK_STREAM);
	check(setsockopt(s, SOL_MRC, MRC_SO_POLICY, "default", 7) == 0, "MRC_SO_POLICY default");
	check_errno(setsockopt(s, SOL_MRC, MRC_SO_POLICY, "no-such", 7), ENOENT,
		    "MRC_SO_POLICY with an unknown name");
	char name[16] = {};
	socklen_t len = sizeof(name);
	check(getsockopt(s, SOL_MRC, MRC_SO_POLICY, name, &len) == 0 &&
		  std::string(name) == "default",
	      "read the policy back");
	check_errno(setsockopt(s, SOL_MRC, 999, "x", 1), ENOPROTOOPT, "unknown SOL_MRC option");

	auto [c, a] = pair(SOCK_STREAM);
	mrc_info info{};
	len = sizeof(info);
	check(getsockopt(c, SOL_MRC, MRC_SO_INFO, &info, &len) == 0 && len == sizeof(info),
	      "MRC_SO_INFO");
	check(info.mrci_state == 5 && info.mrci_paths > 0 && info.mrci_local_qpn >= 16 &&
		  info.mrci_remote_qpn >= 16 && info.mrci_max_payload > 0,
	      "MRC_SO_INFO describes an established connection",
	      "state " + std::to_string(info.mrci_state) + " paths " +
		  std::to_string(info.mrci_paths));
}

int int_opt(int fd, int level, int name)
{
	int v = -12345;
	socklen_t len = sizeof(v);
	if (getsockopt(fd, level, name, &v, &len) < 0)
		return -errno - 100000;
	return v;
}

// Read exactly @n bytes (30 s limit); false on error or end of stream.
bool read_all(int fd, char *buf, size_t n)
{
	timeval tv{30, 0};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	size_t got = 0;
	while (got < n) {
		ssize_t r = recv(fd, buf + got, n - got, 0);
		if (r <= 0)
			return false;
		got += r;
	}
	return true;
}

// MRC_SO_ACCEPT_TCP: one listener, reached by MRC and by plain TCP clients;
// accept() returns each as what it is.
void test_accept_tcp()
{
	int one = 1;
	Fd l = sock(SOCK_STREAM);
	check(setsockopt(l, SOL_MRC, MRC_SO_ACCEPT_TCP, &one, sizeof(one)) == 0 &&
		  int_opt(l, SOL_MRC, MRC_SO_ACCEPT_TCP) == 1,
	      "MRC_SO_ACCEPT_TCP set and read back");
	auto any = addr("::", 0);
	if (bind(l, sa(any), sizeof(any)) < 0 || listen(l, 8) < 0) {
		check(false, "listen with MRC_SO_ACCEPT_TCP", std::strerror(errno));
		return;
	}
	uint16_t port = port_of(l);
	check_errno(setsockopt(l, SOL_MRC, MRC_SO_ACCEPT_TCP, &one, sizeof(one)), EISCONN,
		    "MRC_SO_ACCEPT_TCP only before listen()");

	Fd t(socket(AF_INET6, SOCK_STREAM, IPPROTO_TCP));
	sockaddr_in6 to{};
	to.sin6_family = AF_INET6;
	to.sin6_port = htons(port);
	inet_pton(AF_INET6, "::1", &to.sin6_addr);
	check(connect(t, reinterpret_cast<sockaddr *>(&to), sizeof(to)) == 0,
	      "a plain TCP client connects to the MRC listener's port");
	pollfd p{l, POLLIN, 0};
	check(poll(&p, 1, 20000) == 1 && (p.revents & POLLIN),
	      "... which makes the listener readable");
	sockaddr_in6 from{};
	socklen_t flen = sizeof(from);
	Fd a(accept4(l, reinterpret_cast<sockaddr *>(&from), &flen, SOCK_CLOEXEC));
	check(a >= 0 && int_opt(a, SOL_SOCKET, SO_PROTOCOL) == IPPROTO_TCP,
	      "accept() returns it as a TCP socket",
	      "protocol " + std::to_string(int_opt(a, SOL_SOCKET, SO_PROTOCOL)));
	sockaddr_in6 tname{};
	socklen_t tlen = sizeof(tname);
	getsockname(t, reinterpret_cast<sockaddr *>(&tname), &tlen);
	check(flen == sizeof(from) && from.sin6_port == tname.sin6_port,
	      "... with the TCP client's address");
	sockaddr_in6 peer{};
	socklen_t plen = sizeof(peer);
	check(getpeername(a, reinterpret_cast<sockaddr *>(&peer), &plen) == 0 &&
		  peer.sin6_port == tname.sin6_port,
	      "... getpeername() on it names the client");
	char buf[8] = {};
	std::thread later([&]() {
		std::this_thread::sleep_for(std::chrono::milliseconds(200));
		send(t, "tcp!", 4, 0);
	});
	pollfd pa{a, POLLIN, 0};
	check(poll(&pa, 1, 20000) == 1 && (pa.revents & POLLIN),
	      "... poll() wakes on its data (TCP's own callbacks)");
	later.join();
	check(read_all(a, buf, 4) && std::string(buf, 4) == "tcp!", "... and carries its bytes");
	Fd t2(socket(AF_INET6, SOCK_STREAM, IPPROTO_TCP));
	check(connect(t2, reinterpret_cast<sockaddr *>(&to), sizeof(to)) == 0 &&
		  poll(&p, 1, 20000) == 1,
	      "a second TCP client wakes the listener too");
	Fd a2(accept(l, nullptr, nullptr));
	check(a2 >= 0 && int_opt(a2, SOL_SOCKET, SO_PROTOCOL) == IPPROTO_TCP,
	      "... and is accepted as TCP");

	Fd m = sock(SOCK_STREAM);
	auto ma = addr("::1", port);
	check(connect(m, sa(ma), sizeof(ma)) == 0, "an MRC client reaches the same listener");
	Fd b(accept(l, nullptr, nullptr));
	check(b >= 0 && int_opt(b, SOL_SOCKET, SO_PROTOCOL) == g_proto,
	      "... and is accepted as MRC");
	// Set before bind(), it takes the port in TCP's space too: a port TCP
	// already uses fails the bind, where programs try another.
	Fd tl(socket(AF_INET6, SOCK_STREAM, IPPROTO_TCP));
	sockaddr_in6 tany{};
	tany.sin6_family = AF_INET6;
	socklen_t tlen2 = sizeof(tany);
	bool tcp_up = bind(tl, reinterpret_cast<sockaddr *>(&tany), sizeof(tany)) == 0 &&
		      listen(tl, 1) == 0 &&
		      getsockname(tl, reinterpret_cast<sockaddr *>(&tany), &tlen2) == 0;
	Fd x = sock(SOCK_STREAM);
	setsockopt(x, SOL_MRC, MRC_SO_ACCEPT_TCP, &one, sizeof(one));
	auto taken = addr("::", ntohs(tany.sin6_port));
	check(tcp_up, "a TCP listener on a port");
	check_errno(bind(x, sa(taken), sizeof(taken)), EADDRINUSE,
		    "MRC_SO_ACCEPT_TCP: bind() to that port fails (TCP has it)");
	Fd y = sock(SOCK_STREAM);
	check(bind(y, sa(taken), sizeof(taken)) == 0,
	      "without it, the MRC port is free (a separate port space)");
	Fd af(socket(g_mrc_af, SOCK_STREAM, 0));
	check_errno(setsockopt(af, SOL_MRC, MRC_SO_ACCEPT_TCP, &one, sizeof(one)), EOPNOTSUPP,
		    "MRC_SO_ACCEPT_TCP is for AF_INET6 sockets");
}

// What only the drop-in for TCP needs: the inet6 view of the socket, the
// TCP options and ioctls that TCP programs use, sendfile and splice, and
// the flags MRC refuses. Documentation/socket-options.md lists every
// option; 43-socket-options checks that table row by row.
void test_inet6_dropin()
{
	Fd u = sock(SOCK_STREAM);
	check(int_opt(u, SOL_SOCKET, SO_DOMAIN) == AF_INET6, "SO_DOMAIN is AF_INET6");
	check(int_opt(u, SOL_SOCKET, SO_PROTOCOL) == g_proto, "SO_PROTOCOL is IPPROTO_MRC",
	      std::to_string(int_opt(u, SOL_SOCKET, SO_PROTOCOL)));
	check(int_opt(u, IPPROTO_IPV6, IPV6_V6ONLY) == 1, "IPV6_V6ONLY reads 1");

	uint16_t port = 0;
	Fd l = listener(SOCK_STREAM, &port);
	tcp_info ti{};
	socklen_t len = sizeof(ti);
	check(getsockopt(l, IPPROTO_TCP, TCP_INFO, &ti, &len) == 0 && ti.tcpi_state == 10,
	      "TCP_INFO of a listener says LISTEN");
	sockaddr_in6 name{};
	len = sizeof(name);
	check(getsockname(l, reinterpret_cast<sockaddr *>(&name), &len) == 0 &&
		  name.sin6_family == AF_INET6 && ntohs(name.sin6_port) == port,
	      "getsockname gives a sockaddr_in6");

	auto [c, s] = pair(SOCK_STREAM);
	check(c >= 0 && s >= 0, "connected over IPPROTO_MRC");
	int one = 1;
	check(setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) == 0 &&
		  int_opt(c, IPPROTO_TCP, TCP_NODELAY) == 1,
	      "TCP_NODELAY set and read back");
	len = sizeof(ti);
	check(getsockopt(c, IPPROTO_TCP, TCP_INFO, &ti, &len) == 0 && ti.tcpi_state == 1 &&
		  ti.tcpi_snd_mss > 0 && (ti.tcpi_options & TCPI_OPT_SACK),
	      "TCP_INFO of a connection: ESTABLISHED, its MSS, SACK",
	      "state " + std::to_string(ti.tcpi_state) + " mss " + std::to_string(ti.tcpi_snd_mss));
	check(int_opt(c, IPPROTO_TCP, TCP_MAXSEG) == static_cast<int>(ti.tcpi_snd_mss),
	      "TCP_MAXSEG is MRC's payload per packet");

	// Queue ioctls.
	std::vector<char> data(1000, 'q');
	send(c, data.data(), data.size(), 0);
	int inq = 0;
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
	while (std::chrono::steady_clock::now() < end) {
		if (ioctl(s, FIONREAD, &inq) < 0 || inq >= 1000)
			break;
		std::this_thread::sleep_for(std::chrono::milliseconds(20));
	}
	check(inq == 1000, "FIONREAD counts the bytes ready", std::to_string(inq));
	int outq = -1;
	end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
	while (std::chrono::steady_clock::now() < end) {
		if (ioctl(c, SIOCOUTQ, &outq) < 0 || outq == 0)
			break;
		std::this_thread::sleep_for(std::chrono::milliseconds(20));
	}
	check(outq == 0, "SIOCOUTQ drops to 0 once the peer acknowledged", std::to_string(outq));
	check(read_all(s, data.data(), data.size()), "the bytes are read");
	ifreq ifr{};
	std::strcpy(ifr.ifr_name, "lo");
	check(ioctl(c, SIOCGIFINDEX, &ifr) == 0 && ifr.ifr_ifindex > 0,
	      "device ioctls (SIOCGIFINDEX) work on an MRC socket");

	// sendfile() from a file, splice() through a pipe both ways.
	char path[] = "/tmp/mrc-sendfile.XXXXXX";
	int f = mkstemp(path);
	std::vector<char> file(1 << 20);
	mrc::Pattern(2).fill(0, file.data(), file.size());
	bool wrote = f >= 0 && write(f, file.data(), file.size()) == (ssize_t)file.size();
	std::vector<char> got(file.size());
	bool ok = false;
	long long zc0 = mib(MRC_MIB_OUT_ZERO_COPY_BYTES);
	if (wrote) {
		std::thread rd([&]() { ok = read_all(s, got.data(), got.size()); });
		off_t off = 0;
		size_t sent = 0;
		while (sent < file.size()) {
			ssize_t n = sendfile(c, f, &off, file.size() - sent);
			if (n <= 0)
				break;
			sent += n;
		}
		rd.join();
	}
	check(ok && got == file, "sendfile() of 1 MiB arrives intact");
	// The stream socket's sendpage queues the file's pages themselves:
	// every byte counted as never copied (fewer: some were copied).
	long long zc = mib(MRC_MIB_OUT_ZERO_COPY_BYTES) - zc0;
	check(zc0 >= 0 && zc == (long long)file.size(),
	      "sendfile() queues the file's pages without copying them (OutZeroCopyBytes)",
	      std::to_string(zc) + " bytes by reference, want " + std::to_string(file.size()));
	if (f >= 0) {
		close(f);
		unlink(path);
	}
	int p[2];
	bool spliced = false;
	if (pipe(p) == 0) {
		std::string msg = "spliced through a pipe";
		ssize_t w = write(p[1], msg.data(), msg.size());
		long long zs0 = mib(MRC_MIB_OUT_ZERO_COPY_BYTES);
		ssize_t out = splice(p[0], nullptr, c, nullptr, msg.size(), 0);
		long long zs = mib(MRC_MIB_OUT_ZERO_COPY_BYTES) - zs0;
		check(out > 0 && zs == out,
		      "splice() from a pipe queues its pages without copying them",
		      std::to_string(zs) + " bytes by reference, want " + std::to_string(out));
		pollfd pf{s, POLLIN, 0};
		poll(&pf, 1, 20000);
		ssize_t in = splice(s, nullptr, p[1], nullptr, msg.size(), 0);
		char buf[64] = {};
		ssize_t r = in > 0 ? read(p[0], buf, sizeof(buf)) : -1;
		spliced = w == (ssize_t)msg.size() && out == w && in == w && r == w &&
			  msg == std::string(buf, r);
		close(p[0]);
		close(p[1]);
	}
	check(spliced, "splice() into and out of the socket");

	mmsghdr mm[2] = {};
	char m0[] = "first", m1[] = "second";
	iovec io[2] = {{m0, 5}, {m1, 6}};
	mm[0].msg_hdr.msg_iov = &io[0];
	mm[0].msg_hdr.msg_iovlen = 1;
	mm[1].msg_hdr.msg_iov = &io[1];
	mm[1].msg_hdr.msg_iovlen = 1;
	char buf[16] = {};
	check(sendmmsg(c, mm, 2, 0) == 2 && read_all(s, buf, 11) &&
		  std::string(buf, 11) == "firstsecond",
	      "sendmmsg() (MSG_BATCH) sends both");

	test_accept_tcp();

	check_errno(send(c, "x", 1, MSG_ZEROCOPY), EOPNOTSUPP, "MSG_ZEROCOPY is refused");
	check_errno(setsockopt(c, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)), EOPNOTSUPP,
		    "SO_ZEROCOPY is refused");
	check_errno(send(c, "x", 1, MSG_OOB), EOPNOTSUPP, "MSG_OOB is refused");
	check_errno(setsockopt(c, IPPROTO_TCP, TCP_ULP, "tls", 3), EOPNOTSUPP,
		    "TCP_ULP (kTLS) is refused");
}

// Connections in the namespace, counted by the shell command that 41 passes
// in MRC_SOCKAPI_CONNS (mrcctl); -1 without it.
int conn_count()
{
	const char *cmd = std::getenv("MRC_SOCKAPI_CONNS");
	if (!cmd)
		return -1;
	std::unique_ptr<FILE, int (*)(FILE *)> p(popen(cmd, "r"), pclose);
	int n = -1;
	if (!p || std::fscanf(p.get(), "%d", &n) != 1)
		return -1;
	return n;
}

// Poll for the namespace to hold @want connections, for up to 20 s.
bool conns_become(int want)
{
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
	while (std::chrono::steady_clock::now() < end) {
		if (conn_count() == want)
			return true;
		std::this_thread::sleep_for(std::chrono::milliseconds(50));
	}
	return false;
}

void test_close_semantics()
{
	if (conn_count() >= 0) {
		const int base = 0;
		check(conns_become(base), "every connection of the tests above has ended",
		      std::to_string(conn_count()) + " left");
		auto [c, s] = pair(SOCK_STREAM);
		shutdown(c, SHUT_WR);
		char buf[8];
		timeval tv{30, 0};
		setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		check(recv(s, buf, sizeof(buf), 0) == 0, "SHUT_WR: the peer reads end of stream");
		check(conn_count() == base + 2, "both ends of the half-closed connection exist");
		close(c.fd); // the peer's application keeps its end open
		c.fd = -1;
		check(conns_become(base + 1),
		      "close after an acknowledged SHUT_WR leaves no orphan behind",
		      std::to_string(conn_count() - base) + " connections left");
		close(s.fd);
		s.fd = -1;
		check(conns_become(base), "the peer's close then ends its side too",
		      std::to_string(conn_count() - base) + " connections left");
	}
	{
		auto [c, s] = pair(SOCK_STREAM);
		// Less than the receive buffer: nobody reads until after close.
		std::vector<char> data(100000, 'x');
		size_t off = 0;
		while (off < data.size()) {
			ssize_t n = send(c, data.data() + off, data.size() - off, 0);
			if (n <= 0)
				break;
			off += n;
		}
		close(c.fd); // graceful: everything written is still delivered
		c.fd = -1;
		timeval tv{30, 0};
		setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		size_t got = 0;
		char buf[65536];
		ssize_t n;
		while ((n = recv(s, buf, sizeof(buf), 0)) > 0)
			got += n;
		check(got == data.size() && n == 0,
		      "close after send delivers every byte, then EOF",
		      "got " + std::to_string(got));
	}
	{
		auto [c, s] = pair(SOCK_STREAM);
		linger lg{1, 0};
		setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		close(c.fd); // abortive: the peer is reset
		c.fd = -1;
		timeval tv{30, 0};
		setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		char buf[8];
		check_errno(recv(s, buf, sizeof(buf), 0), ECONNRESET,
			    "SO_LINGER 0 resets the peer");
	}
}

} // namespace

int main(int argc, char **argv)
{
	g_af = mrc::af_mrc();
	g_mrc_af = g_af;
	if (argc > 1 && std::string(argv[1]) == "inet6") {
		g_inet6 = true;
		g_af = AF_INET6;
		g_proto = mrc::ipproto_mrc();
	}
	std::printf("KTAP version 1\n");
	test_socket_and_bind();
	test_connect_errors();
	test_nonblocking_connect_and_accept();
	test_stream_data();
	test_seqpacket();
	test_seqpacket_pollout();
	test_options();
	if (g_inet6)
		test_inet6_dropin();
	test_close_semantics();
	std::printf("1..%d\n", g_n);
	return g_failed ? 1 : 0;
}
