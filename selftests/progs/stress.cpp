// SPDX-License-Identifier: GPL-2.0
// mrc_stress: many AF_MRC stream connections at once, one thread, epoll;
// the program of the stress and memory selftests (70-73).
//
//   mrc_stress server -p PORT [--no-read] [--rcvbuf N] [--report FILE]
//   mrc_stress client -c ADDR -p PORT [--conns N] [--bytes B]
//                     [--total N | --seconds S] [--hold FILE] [--until FILE]
//                     [--sndbuf N] [--report FILE] [--deadline S]
//                     [--rate MBIT/S] [--conn-rate MBIT/S]
//   mrc_stress peer -c ADDR -p PORT --trigger FILE [--deadline S]
//
// Every connection starts with a 16-byte header (seed, length; length
// ~0 means "until the sender closes"), then bytes of libmrc's verified-byte
// pattern (mrc/pattern.hpp), computed
// from the seed and the offset: the server checks every byte, and the
// length at EOF, then closes (which the client waits for).
//
// client: N connections at a time; each connects (non-blocking), sends
// B bytes, half-closes, waits for the server's close; a finished slot
// opens a new connection until --total connections were opened or
// --seconds passed. --hold FILE: once every connection is established,
// say "established N" on stderr and send nothing until FILE exists.
// --until FILE: send without end until FILE exists, then finish.
// --rate: all connections together send at most MBIT/S; --conn-rate:
// each connection alone, in pieces of 1 KiB or more, from when it began
// to send.
// server: accepts and verifies until SIGTERM; --no-read: accepts and
// never reads. Both sample SO_MEMINFO of every socket every 100 ms and
// keep the high-water marks: --report FILE is rewritten with them (JSON),
// the final JSON goes to stdout.
// peer: the surviving side of a namespace deletion (71-netns-delete):
// an idle connection and a sending one; "ready" on stderr once data
// flows; when FILE appears, sends on both (and connects anew once
// FILE.connect appears), and reports how each ended (errno name) and
// after how many milliseconds.
#include <arpa/inet.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <linux/mrc.h>
#include <mrc/pattern.hpp>
#include <mrc/socket.hpp>

namespace {

using Clock = std::chrono::steady_clock;
constexpr uint64_t kUntilClose = ~0ULL;
constexpr size_t kHdr = 16;
constexpr size_t kChunk = 64 * 1024;
constexpr size_t kMinPiece = 1024; // the least a --conn-rate connection sends at once

volatile sig_atomic_t g_stop = 0;

void on_signal(int)
{
	g_stop = 1;
}

struct Options {
	std::string mode, addr, report, hold, until, trigger;
	uint16_t port = 0;
	unsigned conns = 1;
	uint64_t bytes = 1 << 20;
	uint64_t total = 0;
	double seconds = 0;
	double deadline = 300;
	double rate_mbps = 0;
	double conn_rate_mbps = 0;
	int sndbuf = 0, rcvbuf = 0;
	bool no_read = false;
};

double since(Clock::time_point t)
{
	return std::chrono::duration<double>(Clock::now() - t).count();
}

bool exists(const std::string &path)
{
	struct stat st;
	return !path.empty() && stat(path.c_str(), &st) == 0;
}

std::string errname(int e)
{
	switch (e) {
	case ECONNRESET:
		return "ECONNRESET";
	case ETIMEDOUT:
		return "ETIMEDOUT";
	case ECONNREFUSED:
		return "ECONNREFUSED";
	case ENETUNREACH:
		return "ENETUNREACH";
	case EHOSTUNREACH:
		return "EHOSTUNREACH";
	case EPIPE:
		return "EPIPE";
	case ENOTCONN:
		return "ENOTCONN";
	case ENOBUFS:
		return "ENOBUFS";
	case ENOMEM:
		return "ENOMEM";
	case EADDRNOTAVAIL:
		return "EADDRNOTAVAIL";
	case 0:
		return "none";
	default:
		return "errno" + std::to_string(e);
	}
}

sockaddr_mrc make_addr(const std::string &host, uint16_t port)
{
	sockaddr_mrc a{};
	a.smrc_family = static_cast<__kernel_sa_family_t>(mrc::af_mrc());
	a.smrc_port = htons(port);
	if (!host.empty() && inet_pton(AF_INET6, host.c_str(), &a.smrc_addr) != 1) {
		std::fprintf(stderr, "mrc_stress: not an IPv6 address: %s\n", host.c_str());
		std::exit(2);
	}
	return a;
}

int new_socket(const Options &o)
{
	int fd = socket(mrc::af_mrc(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (o.sndbuf)
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &o.sndbuf, sizeof(o.sndbuf));
	if (o.rcvbuf)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &o.rcvbuf, sizeof(o.rcvbuf));
	return fd;
}

// SO_MEMINFO high-water marks over every socket sampled.
struct Mem {
	uint64_t max_rmem = 0, max_wmem_queued = 0, max_wmem_alloc = 0;
	uint64_t max_sum_rmem = 0, max_sum_wmem_queued = 0;
	uint32_t sndbuf = 0, rcvbuf = 0;
	uint64_t drops = 0;

	void sample(const std::vector<int> &fds)
	{
		uint64_t sr = 0, sw = 0;
		for (int fd : fds) {
			uint32_t m[SK_MEMINFO_VARS] = {};
			socklen_t len = sizeof(m);
			if (getsockopt(fd, SOL_SOCKET, SO_MEMINFO, m, &len) < 0)
				continue;
			max_rmem = std::max<uint64_t>(max_rmem, m[SK_MEMINFO_RMEM_ALLOC]);
			max_wmem_queued =
			    std::max<uint64_t>(max_wmem_queued, m[SK_MEMINFO_WMEM_QUEUED]);
			max_wmem_alloc =
			    std::max<uint64_t>(max_wmem_alloc, m[SK_MEMINFO_WMEM_ALLOC]);
			sndbuf = std::max(sndbuf, m[SK_MEMINFO_SNDBUF]);
			rcvbuf = std::max(rcvbuf, m[SK_MEMINFO_RCVBUF]);
			drops = std::max<uint64_t>(drops, m[SK_MEMINFO_DROPS]);
			sr += m[SK_MEMINFO_RMEM_ALLOC];
			sw += m[SK_MEMINFO_WMEM_QUEUED];
		}
		max_sum_rmem = std::max(max_sum_rmem, sr);
		max_sum_wmem_queued = std::max(max_sum_wmem_queued, sw);
	}

	std::string json() const
	{
		char b[512];
		std::snprintf(b, sizeof(b),
			      "\"max_rmem_alloc\": %llu, \"max_wmem_queued\": %llu, "
			      "\"max_wmem_alloc\": %llu, \"max_sum_rmem_alloc\": %llu, "
			      "\"max_sum_wmem_queued\": %llu, \"sndbuf\": %u, \"rcvbuf\": %u",
			      (unsigned long long)max_rmem, (unsigned long long)max_wmem_queued,
			      (unsigned long long)max_wmem_alloc, (unsigned long long)max_sum_rmem,
			      (unsigned long long)max_sum_wmem_queued, sndbuf, rcvbuf);
		return b;
	}
};

struct Counts {
	uint64_t opened = 0, established = 0, completed = 0, failed = 0, bytes = 0;
	uint64_t streams = 0; // server: connections whose stream header arrived
	std::map<std::string, uint64_t> errors;

	void fail(const std::string &what)
	{
		failed++;
		errors[what]++;
	}

	std::string json(const Mem &m, double secs) const
	{
		std::string e = "{";
		for (const auto &[k, v] : errors)
			e += (e.size() > 1 ? ", \"" : "\"") + k + "\": " + std::to_string(v);
		e += "}";
		char b[256];
		std::snprintf(b, sizeof(b),
			      "{\"opened\": %llu, \"established\": %llu, \"completed\": %llu, "
			      "\"failed\": %llu, \"bytes\": %llu, \"streams\": %llu, "
			      "\"seconds\": %.3f, ",
			      (unsigned long long)opened, (unsigned long long)established,
			      (unsigned long long)completed, (unsigned long long)failed,
			      (unsigned long long)bytes, (unsigned long long)streams, secs);
		return b + m.json() + ", \"errors\": " + e + "}";
	}
};

void write_report(const std::string &path, const std::string &json)
{
	if (path.empty())
		return;
	std::string tmp = path + ".tmp";
	FILE *f = std::fopen(tmp.c_str(), "w");
	if (!f)
		return;
	std::fprintf(f, "%s\n", json.c_str());
	std::fclose(f);
	std::rename(tmp.c_str(), path.c_str());
}

// ---- server ----

struct Rx {
	uint8_t hdr[kHdr];
	size_t hlen = 0;
	uint64_t seed = 0, len = 0, off = 0;
};

int run_server(const Options &o)
{
	int l = new_socket(o);
	sockaddr_mrc a = make_addr("::", o.port);
	if (l < 0 || bind(l, reinterpret_cast<sockaddr *>(&a), sizeof(a)) < 0 ||
	    listen(l, 4096) < 0) {
		std::perror("mrc_stress: listen");
		return 2;
	}
	std::fprintf(stderr, "listening on port %u\n", o.port);
	int ep = epoll_create1(EPOLL_CLOEXEC);
	epoll_event ev{};
	ev.events = EPOLLIN;
	ev.data.fd = l;
	epoll_ctl(ep, EPOLL_CTL_ADD, l, &ev);
	std::map<int, Rx> conns;
	std::vector<int> held;
	Counts c;
	Mem mem;
	std::vector<uint8_t> buf(256 * 1024);
	auto start = Clock::now(), last = start;

	while (!g_stop) {
		epoll_event evs[64];
		int n = epoll_wait(ep, evs, 64, 100);
		for (int i = 0; i < n; i++) {
			int fd = evs[i].data.fd;
			if (fd == l) {
				int c2;
				while ((c2 = accept4(l, nullptr, nullptr,
						     SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
					c.opened++;
					c.established++;
					if (o.no_read) {
						held.push_back(c2);
						continue;
					}
					conns[c2] = Rx{};
					held.push_back(c2);
					epoll_event e2{};
					e2.events = EPOLLIN | EPOLLRDHUP;
					e2.data.fd = c2;
					epoll_ctl(ep, EPOLL_CTL_ADD, c2, &e2);
				}
				continue;
			}
			Rx &r = conns[fd];
			std::string err;
			bool done = false;
			for (int k = 0; k < 16 && !done && err.empty(); k++) {
				ssize_t got = recv(fd, buf.data(), buf.size(), MSG_DONTWAIT);
				if (got < 0) {
					if (errno != EAGAIN && errno != EINTR)
						err = errname(errno);
					break;
				}
				if (got == 0) {
					if (r.hlen < kHdr ||
					    (r.len != kUntilClose && r.off != r.len))
						err = "short";
					else
						done = true;
					break;
				}
				size_t p = 0;
				while (r.hlen < kHdr && p < (size_t)got)
					r.hdr[r.hlen++] = buf[p++];
				if (r.hlen == kHdr && p > 0 && r.off == 0) {
					std::memcpy(&r.seed, r.hdr, 8);
					std::memcpy(&r.len, r.hdr + 8, 8);
					c.streams++;
				}
				size_t n = static_cast<size_t>(got) - p;
				size_t ok = mrc::Pattern(r.seed).mismatch(r.off, buf.data() + p, n);
				r.off += ok;
				if (ok < n)
					err = "corrupt";
				c.bytes += got;
			}
			if (done || !err.empty()) {
				if (done)
					c.completed++;
				else
					c.fail(err);
				epoll_ctl(ep, EPOLL_CTL_DEL, fd, nullptr);
				close(fd);
				conns.erase(fd);
				held.erase(std::find(held.begin(), held.end(), fd));
			}
		}
		if (since(last) >= 0.1) {
			last = Clock::now();
			mem.sample(held);
			write_report(o.report, c.json(mem, since(start)));
		}
	}
	mem.sample(held);
	std::printf("%s\n", c.json(mem, since(start)).c_str());
	write_report(o.report, c.json(mem, since(start)));
	return c.failed ? 1 : 0;
}

// ---- client ----

enum class St { Free, Connecting, Held, Sending, Draining };

struct Tx {
	int fd = -1;
	St st = St::Free;
	uint64_t seed = 0, len = 0, off = 0; // off counts the header too
	bool until = false;
	bool paced = false;   // waiting for the --rate or --conn-rate budget
	Clock::time_point t0; // when it began to send (--conn-rate)
};

int run_client(const Options &o)
{
	sockaddr_mrc a = make_addr(o.addr, o.port);
	int ep = epoll_create1(EPOLL_CLOEXEC);
	std::vector<Tx> slots(o.conns);
	std::map<int, size_t> by_fd;
	Counts c;
	Mem mem;
	std::vector<uint8_t> buf(kChunk);
	uint64_t total = o.total ? o.total : o.conns, next_seed = 1;
	bool held = !o.hold.empty(), announced = false;
	auto start = Clock::now(), last = start;

	auto want_more = [&]() {
		if (o.seconds > 0)
			return since(start) < o.seconds && !g_stop;
		return c.opened < total && !g_stop;
	};
	auto finish = [&](size_t i, const std::string &err) {
		Tx &t = slots[i];
		if (err.empty())
			c.completed++;
		else
			c.fail(err);
		epoll_ctl(ep, EPOLL_CTL_DEL, t.fd, nullptr);
		by_fd.erase(t.fd);
		close(t.fd);
		t = Tx{};
	};
	auto watch = [&](size_t i, uint32_t events) {
		epoll_event e{};
		e.events = events;
		e.data.fd = slots[i].fd;
		epoll_ctl(ep, EPOLL_CTL_MOD, slots[i].fd, &e);
	};
	auto open_one = [&](size_t i) {
		Tx &t = slots[i];
		t.fd = new_socket(o);
		c.opened++;
		if (t.fd < 0) {
			c.fail("socket:" + errname(errno));
			t = Tx{};
			return;
		}
		t.seed = next_seed++ * 0x100000001b3ULL;
		t.until = !o.until.empty();
		t.len = t.until ? kUntilClose : o.bytes;
		t.off = 0;
		t.st = St::Connecting;
		by_fd[t.fd] = i;
		epoll_event e{};
		e.events = EPOLLOUT;
		e.data.fd = t.fd;
		epoll_ctl(ep, EPOLL_CTL_ADD, t.fd, &e);
		if (connect(t.fd, reinterpret_cast<const sockaddr *>(&a), sizeof(a)) < 0 &&
		    errno != EINPROGRESS)
			finish(i, "connect:" + errname(errno));
	};
	// Send what fits; returns an error name or "".
	auto over_rate = [&]() {
		return o.rate_mbps > 0 && c.bytes > o.rate_mbps * 1e6 / 8 * since(start);
	};
	// What connection i may send now under --conn-rate: a connection paced
	// alone sends small pieces often, not a chunk now and then, so that
	// it is never idle for long (probing pauses on an idle connection).
	auto conn_allowance = [&](size_t i) -> uint64_t {
		if (o.conn_rate_mbps <= 0)
			return kChunk;
		double may = o.conn_rate_mbps * 1e6 / 8 * since(slots[i].t0) - slots[i].off;
		return may < kMinPiece ? 0 : std::min<uint64_t>(kChunk, static_cast<uint64_t>(may));
	};
	auto pump = [&](size_t i) -> std::string {
		Tx &t = slots[i];
		for (int k = 0; k < 64; k++) {
			uint64_t may = conn_allowance(i);

			if (over_rate() || !may) {
				t.paced = true;
				watch(i, EPOLLRDHUP);
				return "";
			}
			if (t.until && exists(o.until) && t.len == kUntilClose) {
				// Stop at a clean point: the server accepts EOF anywhere.
				t.len = t.off > kHdr ? t.off - kHdr : 0;
			}
			uint64_t end = t.len == kUntilClose ? kUntilClose : t.len + kHdr;
			if (t.off >= end) {
				if (shutdown(t.fd, SHUT_WR) < 0)
					return "shutdown:" + errname(errno);
				t.st = St::Draining;
				watch(i, EPOLLIN | EPOLLRDHUP);
				return "";
			}
			size_t n = std::min<uint64_t>(may, end - t.off);
			size_t p = 0;
			if (t.off < kHdr) {
				uint8_t h[kHdr];
				uint64_t hl = t.until ? kUntilClose : t.len;
				std::memcpy(h, &t.seed, 8);
				std::memcpy(h + 8, &hl, 8);
				p = std::min<size_t>(n, kHdr - t.off);
				std::memcpy(buf.data(), h + t.off, p);
			}
			mrc::Pattern(t.seed).fill(t.off + p - kHdr, buf.data() + p, n - p);
			ssize_t s = send(t.fd, buf.data(), n, MSG_NOSIGNAL | MSG_DONTWAIT);
			if (s < 0)
				return errno == EAGAIN ? "" : errname(errno);
			t.off += s;
			c.bytes += s;
		}
		return "";
	};

	for (size_t i = 0; i < slots.size() && want_more(); i++)
		open_one(i);
	while (!by_fd.empty()) {
		if (since(start) > o.deadline) {
			std::fprintf(stderr,
				     "mrc_stress: deadline passed with %zu connections open\n",
				     by_fd.size());
			for (auto &t : slots)
				if (t.fd >= 0 && t.st != St::Free)
					c.fail("deadline");
			break;
		}
		if (held && !announced) {
			bool all = std::all_of(slots.begin(), slots.end(), [](const Tx &t) {
				return t.st == St::Held || t.st == St::Free;
			});
			if (all) {
				std::fprintf(stderr, "established %llu\n",
					     (unsigned long long)c.established);
				announced = true;
			}
		}
		if (held && announced && exists(o.hold)) {
			held = false;
			for (size_t i = 0; i < slots.size(); i++)
				if (slots[i].st == St::Held) {
					slots[i].st = St::Sending;
					slots[i].t0 = Clock::now();
					watch(i, EPOLLOUT);
				}
		}
		epoll_event evs[256];
		int n = epoll_wait(ep, evs, 256, 50);
		for (int k = 0; k < n; k++) {
			auto it = by_fd.find(evs[k].data.fd);
			if (it == by_fd.end())
				continue;
			size_t i = it->second;
			Tx &t = slots[i];
			std::string err;
			if (t.st == St::Connecting) {
				int e = 0;
				socklen_t el = sizeof(e);
				getsockopt(t.fd, SOL_SOCKET, SO_ERROR, &e, &el);
				if (e) {
					finish(i, "connect:" + errname(e));
				} else {
					c.established++;
					t.st = held ? St::Held : St::Sending;
					t.t0 = Clock::now();
					if (held)
						watch(i, EPOLLRDHUP);
				}
				if (e || held)
					continue;
			}
			if (t.st == St::Held) {
				finish(i, "closed while held");
				continue;
			}
			if (t.st == St::Sending) {
				err = pump(i);
				if (!err.empty())
					finish(i, err);
				continue;
			}
			if (t.st == St::Draining) {
				char ch;
				ssize_t r = recv(t.fd, &ch, 1, MSG_DONTWAIT);
				if (r == 0)
					finish(i, "");
				else if (r > 0)
					finish(i, "unexpected data");
				else if (errno != EAGAIN)
					finish(i, errname(errno));
			}
		}
		// Refill free slots (churn), poll --until for senders.
		for (size_t i = 0; i < slots.size(); i++) {
			if (slots[i].st == St::Free && want_more() && !held)
				open_one(i);
			else if (slots[i].st == St::Sending && slots[i].until && exists(o.until))
				watch(i, EPOLLOUT);
			else if (slots[i].st == St::Sending && slots[i].paced && !over_rate() &&
				 conn_allowance(i)) {
				slots[i].paced = false;
				watch(i, EPOLLOUT);
			}
		}
		if (since(last) >= 0.1) {
			last = Clock::now();
			std::vector<int> fds;
			for (auto &[fd, i] : by_fd)
				fds.push_back(fd);
			mem.sample(fds);
			write_report(o.report, c.json(mem, since(start)));
		}
	}
	std::printf("%s\n", c.json(mem, since(start)).c_str());
	write_report(o.report, c.json(mem, since(start)));
	return c.failed || !c.completed ? 1 : 0;
}

// ---- peer (71-netns-delete) ----

struct Outcome {
	std::string result = "hang";
	double ms = -1;
	bool eof = false;
};

int run_peer(const Options &o)
{
	sockaddr_mrc a = make_addr(o.addr, o.port);
	// Setting up is not what is tested: a handshake lost to the
	// emulated VM's hiccups is tried again.
	auto connect_blocking = [&](uint64_t seed) {
		int fd = -1;
		for (int tries = 0; fd < 0 && tries < 3; tries++) {
			fd = socket(mrc::af_mrc(), SOCK_STREAM | SOCK_CLOEXEC, 0);
			if (fd >= 0 &&
			    connect(fd, reinterpret_cast<const sockaddr *>(&a), sizeof(a)) < 0) {
				std::perror("mrc_stress: connect");
				close(fd);
				fd = -1;
			}
		}
		if (fd < 0)
			std::exit(2);
		uint8_t h[kHdr];
		std::memcpy(h, &seed, 8);
		std::memcpy(h + 8, &kUntilClose, 8);
		if (send(fd, h, kHdr, MSG_NOSIGNAL) != (ssize_t)kHdr) {
			std::perror("mrc_stress: send");
			std::exit(2);
		}
		return fd;
	};
	int fds[2] = {connect_blocking(1), connect_blocking(2)};
	uint64_t off[2] = {0, 0};
	std::vector<uint8_t> buf(kChunk);
	// The sender is mid-transfer before the trigger.
	auto send_some = [&](int k) -> int {
		mrc::Pattern(k + 1).fill(off[k], buf.data(), buf.size());
		ssize_t s = send(fds[k], buf.data(), buf.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
		if (s > 0)
			off[k] += s;
		return s < 0 && errno != EAGAIN ? errno : 0;
	};
	auto t0 = Clock::now();
	while (off[1] < (4u << 20) && since(t0) < o.deadline) {
		pollfd p{fds[1], POLLOUT, 0};
		poll(&p, 1, 100);
		if (int e = send_some(1)) {
			std::fprintf(stderr, "mrc_stress: sender failed before the trigger: %s\n",
				     errname(e).c_str());
			return 2;
		}
	}
	std::fprintf(stderr, "ready\n");
	while (!exists(o.trigger)) {
		pollfd p{fds[1], POLLOUT, 0};
		poll(&p, 1, 50);
		if (int e = send_some(1)) {
			std::fprintf(stderr, "mrc_stress: sender failed before the trigger: %s\n",
				     errname(e).c_str());
			return 2;
		}
	}
	auto trig = Clock::now();
	Outcome out[3];
	bool over[3] = {false, false, false};
	auto end = [&](int k, const std::string &why) {
		if (over[k])
			return;
		over[k] = true;
		out[k].result = why;
		out[k].ms = since(trig) * 1e3;
	};
	// The new connection starts when FILE.connect appears too.
	int cfd = -1;
	auto ctrig = trig;
	while (!(over[0] && over[1] && over[2]) && since(trig) < o.deadline) {
		if (cfd < 0 && exists(o.trigger + ".connect")) {
			ctrig = Clock::now();
			cfd = socket(mrc::af_mrc(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
			if (connect(cfd, reinterpret_cast<const sockaddr *>(&a), sizeof(a)) < 0 &&
			    errno != EINPROGRESS)
				end(2, errname(errno));
		}
		pollfd p[3] = {{fds[0], POLLOUT | POLLIN, 0},
			       {fds[1], POLLOUT | POLLIN, 0},
			       {cfd, POLLOUT, 0}};
		poll(p, 3, 50);
		for (int k = 0; k < 2; k++) {
			if (over[k])
				continue;
			char ch;
			ssize_t r = recv(fds[k], &ch, 1, MSG_DONTWAIT);
			if (r == 0)
				out[k].eof = true;
			else if (r < 0 && errno != EAGAIN) {
				end(k, errname(errno));
				continue;
			}
			if (int e = send_some(k))
				end(k, errname(e));
		}
		if (!over[2] && cfd >= 0 && p[2].revents) {
			int e = 0;
			socklen_t el = sizeof(e);
			getsockopt(cfd, SOL_SOCKET, SO_ERROR, &e, &el);
			end(2, e ? errname(e) : "connected");
			out[2].ms = since(ctrig) * 1e3;
		}
	}
	static const char *names[3] = {"idle", "sender", "connect"};
	std::printf("{");
	for (int k = 0; k < 3; k++)
		std::printf("%s\"%s\": {\"result\": \"%s\", \"ms\": %.1f, \"eof\": %s}",
			    k ? ", " : "", names[k], out[k].result.c_str(), out[k].ms,
			    out[k].eof ? "true" : "false");
	std::printf("}\n");
	close(fds[0]);
	close(fds[1]);
	if (cfd >= 0)
		close(cfd);
	return 0;
}

[[noreturn]] void usage()
{
	std::fprintf(stderr, "usage: mrc_stress server|client|peer [options] (see the source)\n");
	std::exit(2);
}

} // namespace

int main(int argc, char **argv)
{
	Options o;
	if (argc < 2)
		usage();
	o.mode = argv[1];
	for (int i = 2; i < argc; i++) {
		std::string k = argv[i];
		auto val = [&]() -> std::string {
			if (i + 1 >= argc)
				usage();
			return argv[++i];
		};
		if (k == "-p")
			o.port = static_cast<uint16_t>(std::stoul(val()));
		else if (k == "-c")
			o.addr = val();
		else if (k == "--conns")
			o.conns = static_cast<unsigned>(std::stoul(val()));
		else if (k == "--bytes")
			o.bytes = std::stoull(val());
		else if (k == "--total")
			o.total = std::stoull(val());
		else if (k == "--seconds")
			o.seconds = std::stod(val());
		else if (k == "--rate")
			o.rate_mbps = std::stod(val());
		else if (k == "--conn-rate")
			o.conn_rate_mbps = std::stod(val());
		else if (k == "--deadline")
			o.deadline = std::stod(val());
		else if (k == "--hold")
			o.hold = val();
		else if (k == "--until")
			o.until = val();
		else if (k == "--trigger")
			o.trigger = val();
		else if (k == "--report")
			o.report = val();
		else if (k == "--sndbuf")
			o.sndbuf = std::stoi(val());
		else if (k == "--rcvbuf")
			o.rcvbuf = std::stoi(val());
		else if (k == "--no-read")
			o.no_read = true;
		else
			usage();
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGPIPE, SIG_IGN);
	if (o.mode == "server")
		return run_server(o);
	if (o.mode == "client" && !o.addr.empty() && o.conns > 0)
		return run_client(o);
	if (o.mode == "peer" && !o.addr.empty() && !o.trigger.empty())
		return run_peer(o);
	usage();
}
