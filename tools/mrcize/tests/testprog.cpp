// SPDX-License-Identifier: GPL-2.0
// A small program the integration tests run under libmrcize.so. It uses
// the socket API as an ordinary program does and prints what it saw as
// "key=value" words, one step per line, so tests assert on behaviour:
//
//   client --port P [--addr A] [--nonblock] [--epoll] [--bind-port N]
//          [--opts] [--sndtimeo MS] [--bytes N]
//       connect to [A]:P (default ::1), send N bytes (default 65536),
//       shut down writing and read the peer's count of bytes received.
//   server [--port P] [--addr A] [--ipv6only]
//       listen, print the port, accept one connection, count its bytes,
//       answer with the count.
//   others
//       create an AF_INET stream socket and an AF_INET6 datagram socket.
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

struct Args {
	std::string mode;
	std::string addr = "::1";
	int port = 0;
	int bind_port = -1;
	bool nonblock = false;
	bool epoll = false;
	bool opts = false;
	bool ipv6only = false;
	long sndtimeo_ms = 0;
	long bytes = 65536;
};

const char *ename(int e)
{
	const char *n = strerrorname_np(e);
	return n ? n : "?";
}

int get_int(int fd, int level, int name)
{
	int v = -1;
	socklen_t l = sizeof(v);
	if (getsockopt(fd, level, name, &v, &l) < 0)
		return -errno;
	return v;
}

sockaddr_in6 make_addr(const std::string &a, int port)
{
	sockaddr_in6 sa{};
	sa.sin6_family = AF_INET6;
	sa.sin6_port = htons(static_cast<uint16_t>(port));
	if (inet_pton(AF_INET6, a.c_str(), &sa.sin6_addr) != 1) {
		fprintf(stderr, "bad address %s\n", a.c_str());
		exit(2);
	}
	return sa;
}

void set_opt(int fd, int level, int name, int v, const char *what)
{
	if (setsockopt(fd, level, name, &v, sizeof(v)) < 0)
		printf("setsockopt_failed=%s:%s\n", what, ename(errno));
}

// Send @bytes, half-close, read the peer's decimal count.
void transfer(int fd, long bytes)
{
	int fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	std::vector<char> buf(16384, 'm');
	long sent = 0;
	while (sent < bytes) {
		size_t n = static_cast<size_t>(std::min<long>(bytes - sent, 16384));
		ssize_t w = write(fd, buf.data(), n);
		if (w < 0) {
			printf("write_error=%s\n", ename(errno));
			break;
		}
		sent += w;
	}
	shutdown(fd, SHUT_WR);
	std::string reply;
	char rb[64];
	ssize_t r;
	while ((r = read(fd, rb, sizeof(rb))) > 0)
		reply.append(rb, static_cast<size_t>(r));
	printf("sent=%ld acked=%s\n", sent, reply.empty() ? "none" : reply.c_str());
}

int client(const Args &a)
{
	int fd = socket(AF_INET6, SOCK_STREAM | (a.nonblock ? SOCK_NONBLOCK : 0), 0);
	if (fd < 0) {
		printf("socket=%s\n", ename(errno));
		return 0;
	}
	printf("socket=ok fd=%d protocol_before=%d\n", fd, get_int(fd, SOL_SOCKET, SO_PROTOCOL));
	if (a.opts) {
		set_opt(fd, IPPROTO_TCP, TCP_NODELAY, 1, "TCP_NODELAY");
		set_opt(fd, SOL_SOCKET, SO_KEEPALIVE, 1, "SO_KEEPALIVE");
		set_opt(fd, IPPROTO_TCP, TCP_KEEPIDLE, 50, "TCP_KEEPIDLE");
		set_opt(fd, IPPROTO_TCP, TCP_KEEPIDLE, 77, "TCP_KEEPIDLE"); // the last wins
		set_opt(fd, IPPROTO_TCP, TCP_KEEPINTVL, 13, "TCP_KEEPINTVL");
		set_opt(fd, IPPROTO_TCP, TCP_KEEPCNT, 5, "TCP_KEEPCNT");
		set_opt(fd, SOL_SOCKET, SO_SNDBUF, 65536, "SO_SNDBUF");
	}
	if (a.sndtimeo_ms > 0) {
		timeval tv = {a.sndtimeo_ms / 1000, (a.sndtimeo_ms % 1000) * 1000};
		if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0)
			printf("setsockopt_failed=SO_SNDTIMEO:%s\n", ename(errno));
	}
	int ep = -1;
	if (a.epoll) {
		ep = epoll_create1(EPOLL_CLOEXEC);
		epoll_event ev{};
		ev.events = EPOLLOUT;
		ev.data.u64 = 4242;
		if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0)
			printf("epoll_ctl=%s\n", ename(errno));
	}
	if (a.bind_port >= 0) {
		int one = 1;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		sockaddr_in6 local = make_addr(a.addr, a.bind_port);
		if (bind(fd, reinterpret_cast<sockaddr *>(&local), sizeof(local)) < 0)
			printf("bind=%s\n", ename(errno));
	}
	sockaddr_in6 sa = make_addr(a.addr, a.port);
	auto t0 = std::chrono::steady_clock::now();
	int r = connect(fd, reinterpret_cast<sockaddr *>(&sa), sizeof(sa));
	int e = errno;
	long ms = std::chrono::duration_cast<std::chrono::milliseconds>(
		      std::chrono::steady_clock::now() - t0)
		      .count();
	printf("connect=%s elapsed_ms=%ld fd_after=%d\n", r == 0 ? "0" : ename(e), ms, fd);
	bool connected = r == 0;
	if (r < 0 && e == EINPROGRESS) {
		if (a.epoll) {
			epoll_event ev{};
			int n = epoll_wait(ep, &ev, 1, 5000);
			printf("epoll_events=%d data=%llu out=%d\n", n,
			       static_cast<unsigned long long>(ev.data.u64),
			       (ev.events & EPOLLOUT) ? 1 : 0);
		} else {
			pollfd p = {fd, POLLOUT, 0};
			int n = poll(&p, 1, 5000);
			printf("pollout=%d\n", n == 1 && (p.revents & POLLOUT) ? 1 : 0);
		}
		int err = get_int(fd, SOL_SOCKET, SO_ERROR);
		printf("so_error=%s\n", err == 0 ? "0" : ename(err));
		connected = err == 0;
	}
	printf("protocol=%d\n", get_int(fd, SOL_SOCKET, SO_PROTOCOL));
	if (a.opts)
		printf("nodelay=%d keepalive=%d keepidle=%d keepintvl=%d keepcnt=%d sndbuf=%d\n",
		       get_int(fd, IPPROTO_TCP, TCP_NODELAY), get_int(fd, SOL_SOCKET, SO_KEEPALIVE),
		       get_int(fd, IPPROTO_TCP, TCP_KEEPIDLE),
		       get_int(fd, IPPROTO_TCP, TCP_KEEPINTVL),
		       get_int(fd, IPPROTO_TCP, TCP_KEEPCNT), get_int(fd, SOL_SOCKET, SO_SNDBUF));
	if (a.nonblock)
		printf("nonblock_after=%d\n", (fcntl(fd, F_GETFL) & O_NONBLOCK) ? 1 : 0);
	if (a.sndtimeo_ms > 0) {
		timeval tv{};
		socklen_t l = sizeof(tv);
		getsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, &l);
		printf("sndtimeo_after_ms=%ld\n", tv.tv_sec * 1000 + tv.tv_usec / 1000);
	}
	if (a.bind_port >= 0) {
		sockaddr_in6 local{};
		socklen_t l = sizeof(local);
		getsockname(fd, reinterpret_cast<sockaddr *>(&local), &l);
		printf("local_port=%d\n", ntohs(local.sin6_port));
	}
	if (connected)
		transfer(fd, a.bytes);
	fflush(stdout);
	close(fd);
	return 0;
}

int server(const Args &a)
{
	int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);
	if (fd < 0) {
		printf("socket=%s\n", ename(errno));
		return 0;
	}
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (a.ipv6only)
		set_opt(fd, IPPROTO_IPV6, IPV6_V6ONLY, 1, "IPV6_V6ONLY");
	sockaddr_in6 sa = make_addr(a.addr, a.port);
	if (bind(fd, reinterpret_cast<sockaddr *>(&sa), sizeof(sa)) < 0) {
		printf("bind=%s\n", ename(errno));
		return 0;
	}
	if (listen(fd, 8) < 0) {
		printf("listen=%s\n", ename(errno));
		return 0;
	}
	sockaddr_in6 local{};
	socklen_t l = sizeof(local);
	getsockname(fd, reinterpret_cast<sockaddr *>(&local), &l);
	printf("listening port=%d protocol=%d v6only=%d\n", ntohs(local.sin6_port),
	       get_int(fd, SOL_SOCKET, SO_PROTOCOL), get_int(fd, IPPROTO_IPV6, IPV6_V6ONLY));
	fflush(stdout);
	int c = accept(fd, nullptr, nullptr);
	if (c < 0) {
		printf("accept=%s\n", ename(errno));
		return 0;
	}
	long total = 0;
	char buf[16384];
	ssize_t r;
	while ((r = read(c, buf, sizeof(buf))) > 0)
		total += r;
	std::string reply = std::to_string(total);
	ssize_t w = write(c, reply.data(), reply.size());
	(void)w;
	close(c);
	printf("received=%ld\n", total);
	fflush(stdout);
	return 0;
}

int others()
{
	int a = socket(AF_INET, SOCK_STREAM, 0);
	int b = socket(AF_INET6, SOCK_DGRAM, 0);
	printf("inet_stream_protocol=%d inet6_dgram_protocol=%d\n",
	       get_int(a, SOL_SOCKET, SO_PROTOCOL), get_int(b, SOL_SOCKET, SO_PROTOCOL));
	close(a);
	close(b);
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	setvbuf(stdout, nullptr, _IOLBF, 0);
	Args a;
	if (argc < 2) {
		fprintf(stderr, "usage: %s client|server|others [options]\n", argv[0]);
		return 2;
	}
	a.mode = argv[1];
	for (int i = 2; i < argc; i++) {
		std::string o = argv[i];
		auto val = [&]() -> std::string {
			if (i + 1 >= argc) {
				fprintf(stderr, "%s needs a value\n", o.c_str());
				exit(2);
			}
			return argv[++i];
		};
		if (o == "--port")
			a.port = std::stoi(val());
		else if (o == "--addr")
			a.addr = val();
		else if (o == "--bind-port")
			a.bind_port = std::stoi(val());
		else if (o == "--nonblock")
			a.nonblock = true;
		else if (o == "--epoll")
			a.epoll = true;
		else if (o == "--opts")
			a.opts = true;
		else if (o == "--ipv6only")
			a.ipv6only = true;
		else if (o == "--sndtimeo")
			a.sndtimeo_ms = std::stol(val());
		else if (o == "--bytes")
			a.bytes = std::stol(val());
		else {
			fprintf(stderr, "unknown option %s\n", o.c_str());
			return 2;
		}
	}
	if (a.mode == "client")
		return client(a);
	if (a.mode == "server")
		return server(a);
	if (a.mode == "others")
		return others();
	fprintf(stderr, "unknown mode %s\n", a.mode.c_str());
	return 2;
}
