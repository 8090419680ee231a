// SPDX-License-Identifier: GPL-2.0
// mrc-perf: move verified data over MRC, TCP or MPTCP with one code path.
//
//   mrc-perf server [-P mrc|tcp|mptcp] [-t stream|seqpacket] [-p PORT]
//                   [-b ADDR] [--count N] [--mode transfer|rr|many] [-j]
//   mrc-perf client -c ADDR [-P ...] [-t ...] [-p PORT] [-b ADDR]
//                   [-n BYTES | --duration SECS] [--mode ...]
//                   [-m MSGSIZE | --random-sizes MAX] [--seed S]
//                   [--conns N] [--bucket-ms MS] [--requests N]
//                   [--idle-hold SECS] [-j]
//
// Modes (the same on both sides):
//   transfer  the client sends a byte stream generated from a seed; the
//             server regenerates it and checks every byte at its offset
//             (and, on SEQPACKET, every message length), so a lost,
//             duplicated, reordered or corrupted byte is reported with its
//             offset. Both sides report goodput per time bucket (timeline:
//             --bucket-ms 1), the longest stall (the longest time without
//             progress) and when it began, and the process's CPU time.
//   rr        request/response: the client sends -m bytes, the server
//             echoes them, the client checks them; latency percentiles.
//   many      --conns N connections from one thread (epoll): all are
//             opened, held idle for --idle-hold seconds, then each moves
//             -n verified bytes; reports how many progressed and finished.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <linux/mrc.h>
#include <mrc/pattern.hpp>
#include <mrc/socket.hpp>
#include <nlohmann/json.hpp>

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
	std::string proto = "mrc";
	std::string type = "stream";
	std::string addr;
	std::string bind_addr;
	uint16_t port = 5201;
	uint64_t bytes = 16 << 20;
	uint32_t msg_size = 64 << 10;
	uint32_t random_max = 0;
	uint64_t seed = 1;
	unsigned conns = 1;
	unsigned count = 1;
	unsigned bucket_ms = 100;
	unsigned time_limit = 0;
	bool json = false;
	std::string policy;
	std::string mode = "transfer";
	double duration = 0;
	uint64_t requests = 0;
	double idle_hold = 0;
	bool splice = false;
};

// Message sizes for SEQPACKET, from the same seed on both sides.
class Sizes {
public:
	Sizes(const Options &o) : fixed_(o.msg_size), max_(o.random_max), state_(o.seed * 7919 + 1)
	{
	}

	uint32_t next()
	{
		if (!max_)
			return fixed_;
		state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
		return 1 + static_cast<uint32_t>((state_ >> 33) % max_);
	}

private:
	uint32_t fixed_, max_;
	uint64_t state_;
};

struct Addr {
	sockaddr_storage ss{};
	socklen_t len = 0;
};

Addr make_addr(const Options &o, const std::string &host, uint16_t port)
{
	Addr a;
	sockaddr_in6 s6{};
	if (!host.empty() && inet_pton(AF_INET6, host.c_str(), &s6.sin6_addr) != 1)
		throw std::runtime_error("not an IPv6 address: " + host);
	if (o.proto == "mrc") {
		sockaddr_mrc m{};
		m.smrc_family = static_cast<__kernel_sa_family_t>(mrc::af_mrc());
		m.smrc_port = htons(port);
		m.smrc_addr = s6.sin6_addr;
		std::memcpy(&a.ss, &m, sizeof(m));
		a.len = sizeof(m);
	} else {
		s6.sin6_family = AF_INET6;
		s6.sin6_port = htons(port);
		std::memcpy(&a.ss, &s6, sizeof(s6));
		a.len = sizeof(s6);
	}
	return a;
}

Addr make_addr(const Options &o, const std::string &host)
{
	return make_addr(o, host, o.port);
}

[[noreturn]] void die(const std::string &what)
{
	throw std::runtime_error(what + ": " + std::strerror(errno));
}

class Fd {
public:
	explicit Fd(int fd = -1) : fd_(fd) {}
	~Fd()
	{
		if (fd_ >= 0)
			close(fd_);
	}
	Fd(Fd &&o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
	Fd &operator=(Fd &&o) noexcept
	{
		std::swap(fd_, o.fd_);
		return *this;
	}
	Fd(const Fd &) = delete;
	Fd &operator=(const Fd &) = delete;
	int get() const { return fd_; }

private:
	int fd_;
};

Fd make_socket(const Options &o)
{
	int type = o.type == "seqpacket" ? SOCK_SEQPACKET : SOCK_STREAM;
	int fd;
	if (o.proto == "mrc")
		fd = socket(mrc::af_mrc(), type, 0);
	else if (o.proto == "tcp")
		fd = socket(AF_INET6, SOCK_STREAM, IPPROTO_TCP);
	else if (o.proto == "mptcp")
		fd = socket(AF_INET6, SOCK_STREAM, IPPROTO_MPTCP);
	else
		throw std::runtime_error("unknown protocol " + o.proto);
	if (fd < 0)
		die("socket(" + o.proto + ")");
	if (o.proto == "mrc" && !o.policy.empty() &&
	    setsockopt(fd, SOL_MRC, MRC_SO_POLICY, o.policy.c_str(), o.policy.size()) < 0)
		die("setsockopt(MRC_SO_POLICY)");
	if (o.proto != "mrc") {
		int one = 1;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	}
	return Fd(fd);
}

// With a time limit, blocking calls wake every second to check it.
void set_tick(const Options &o, int fd)
{
	if (!o.time_limit)
		return;
	timeval tv{1, 0};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

bool past(const Options &o, Clock::time_point start)
{
	return o.time_limit && Clock::now() - start > std::chrono::seconds(o.time_limit);
}

double secs(Clock::duration d)
{
	return std::chrono::duration<double>(d).count();
}

// Goodput per bucket and the longest time without progress.
struct Progress {
	explicit Progress(unsigned bucket_ms) : bucket(std::chrono::milliseconds(bucket_ms)) {}
	void add(uint64_t n)
	{
		auto now = Clock::now();
		if (!started) {
			start = last = now;
			start_unix = std::chrono::system_clock::now();
			started = true;
		}
		note_gap(now);
		last = now;
		size_t b = static_cast<size_t>((now - start) / bucket);
		if (buckets.size() <= b)
			buckets.resize(b + 1, 0);
		buckets[b] += n;
		total += n;
	}
	// The transfer is over: a stall that never ended counts too.
	void finish()
	{
		if (started)
			note_gap(Clock::now());
	}
	void note_gap(Clock::time_point now)
	{
		if (now - last > stall) {
			stall = now - last;
			stall_start = last - start;
		}
	}
	Clock::duration bucket;
	Clock::time_point start, last;
	Clock::duration stall{};
	Clock::duration stall_start{};
	std::chrono::system_clock::time_point start_unix;
	std::vector<uint64_t> buckets;
	uint64_t total = 0;
	bool started = false;
};

// CPU time of the whole process so far (user, system), in seconds.
std::pair<double, double> cpu_times()
{
	rusage ru{};
	getrusage(RUSAGE_SELF, &ru);
	auto s = [](const timeval &tv) { return tv.tv_sec + tv.tv_usec / 1e6; };
	return {s(ru.ru_utime), s(ru.ru_stime)};
}

double unix_secs(std::chrono::system_clock::time_point t)
{
	return std::chrono::duration<double>(t.time_since_epoch()).count();
}

nlohmann::json report(const Options &o, const Progress &p, const std::string &role, bool ok,
		      const std::string &error)
{
	double t = p.started ? secs(p.last - p.start) : 0.0;
	auto [cpu_user, cpu_sys] = cpu_times();
	nlohmann::json j = {
	    {"role", role},
	    {"proto", o.proto},
	    {"type", o.type},
	    {"bytes", p.total},
	    {"seconds", t},
	    {"goodput_mbps", t > 0 ? p.total * 8 / t / 1e6 : 0.0},
	    {"longest_stall_ms", secs(p.stall) * 1e3},
	    {"bucket_ms", o.bucket_ms},
	    {"buckets_bytes", p.buckets},
	    {"verified", ok},
	    {"mode", "transfer"},
	    {"start_unix", p.started ? unix_secs(p.start_unix) : 0.0},
	    {"longest_stall_start_ms", secs(p.stall_start) * 1e3},
	    {"cpu_user_s", cpu_user},
	    {"cpu_sys_s", cpu_sys},
	};
	if (!error.empty())
		j["error"] = error;
	return j;
}

void print(const Options &o, const nlohmann::json &j)
{
	if (o.json) {
		std::printf("%s\n", j.dump().c_str());
	} else {
		std::printf("%s: %s %s %llu bytes in %.3f s = %.1f Mbit/s, longest stall %.1f ms, "
			    "%s%s\n",
			    j["role"].get<std::string>().c_str(), o.proto.c_str(), o.type.c_str(),
			    static_cast<unsigned long long>(j["bytes"].get<uint64_t>()),
			    j["seconds"].get<double>(), j["goodput_mbps"].get<double>(),
			    j["longest_stall_ms"].get<double>(),
			    j["verified"].get<bool>() ? "verified" : "NOT VERIFIED",
			    j.contains("error")
				? (" (" + j["error"].get<std::string>() + ")").c_str()
				: "");
	}
	std::fflush(stdout);
}

// Receive and verify one connection's data until EOF.
bool serve_one(const Options &o, int fd)
{
	mrc::Pattern pat(o.seed);
	Sizes sizes(o);
	Progress prog(o.bucket_ms);
	std::vector<uint8_t> buf(std::max<uint32_t>(o.random_max, o.msg_size) + 65536);
	uint64_t off = 0;
	std::string error;
	bool seq = o.type == "seqpacket";

	auto t0 = Clock::now();
	set_tick(o, fd);
	while (error.empty()) {
		ssize_t n = recv(fd, buf.data(), buf.size(), 0);
		if (n < 0) {
			if (errno == EINTR || (errno == EAGAIN && !past(o, t0)))
				continue;
			if (errno == EAGAIN) {
				error = "time limit reached";
				break;
			}
			error = std::string("recv: ") + std::strerror(errno);
			break;
		}
		if (n == 0)
			break;
		if (seq) {
			uint64_t want = sizes.next();
			if (o.bytes && off + want > o.bytes)
				want = o.bytes - off; // the sender cut the last one
			if (!want) {
				error = "a message past the end of the stream";
				break;
			}
			if (static_cast<uint32_t>(n) != want) {
				error = "message at offset " + std::to_string(off) + " has " +
					std::to_string(n) + " bytes, expected " +
					std::to_string(want);
				break;
			}
		}
		if (size_t i = pat.mismatch(off, buf.data(), n); i < static_cast<size_t>(n))
			error = "byte " + std::to_string(off + i) + " differs";
		off += n;
		prog.add(n);
	}
	if (!error.empty())
		prog.finish();
	if (error.empty() && o.bytes && off != o.bytes)
		error =
		    "received " + std::to_string(off) + " of " + std::to_string(o.bytes) + " bytes";
	bool ok = error.empty();
	print(o, report(o, prog, "server", ok, error));
	return ok;
}

bool serve_rr(const Options &o, int fd);

int run_server(const Options &o)
{
	Fd l = make_socket(o);
	Addr a = make_addr(o, o.bind_addr.empty() ? "::" : o.bind_addr);
	if (bind(l.get(), reinterpret_cast<sockaddr *>(&a.ss), a.len) < 0)
		die("bind");
	if (listen(l.get(), 128) < 0)
		die("listen");
	// On stderr, so scripts can wait for it whatever the output format.
	std::fprintf(stderr, "listening on port %u\n", o.port);
	bool all_ok = true;
	std::vector<std::thread> threads;
	std::vector<int> results(o.count, 0);
	for (unsigned i = 0; i < o.count; i++) {
		int c = accept(l.get(), nullptr, nullptr);
		if (c < 0)
			die("accept");
		threads.emplace_back([&o, c, &results, i]() {
			Fd conn(c);
			results[i] =
			    (o.mode == "rr" ? serve_rr(o, conn.get()) : serve_one(o, conn.get()))
				? 1
				: 0;
		});
	}
	for (auto &t : threads)
		t.join();
	for (int r : results)
		all_ok = all_ok && r;
	return all_ok ? 0 : 1;
}

// Bind a client socket to a local address (-b) before it connects.
void bind_client(const Options &o, int fd)
{
	if (o.bind_addr.empty())
		return;
	Addr a = make_addr(o, o.bind_addr, 0);
	if (bind(fd, reinterpret_cast<sockaddr *>(&a.ss), a.len) < 0)
		die("bind " + o.bind_addr);
}

Fd connect_to(const Options &o)
{
	Fd fd = make_socket(o);
	bind_client(o, fd.get());
	Addr a = make_addr(o, o.addr);
	if (connect(fd.get(), reinterpret_cast<sockaddr *>(&a.ss), a.len) < 0)
		die("connect");
	return fd;
}

// The sender's bytes through a pipe and splice() (--splice): each chunk is
// written into the pipe, then spliced into the socket, whose sendpage
// queues the pipe's pages by reference (what sendfile() and splice() users
// get from a stream socket).
class SplicePipe {
public:
	explicit SplicePipe(size_t chunk)
	{
		int p[2];
		if (pipe2(p, O_CLOEXEC) < 0)
			throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
		rd_ = Fd(p[0]);
		wr_ = Fd(p[1]);
		// A whole chunk must fit, or writing it would block forever.
		if (fcntl(wr_.get(), F_SETPIPE_SZ,
			  static_cast<int>(std::max<size_t>(chunk, 4096))) < 0)
			throw std::runtime_error(std::string("pipe size: ") + std::strerror(errno));
	}

	// Put @len bytes in the pipe (empty: the last chunk was spliced whole).
	bool fill(const uint8_t *buf, size_t len)
	{
		for (size_t done = 0; done < len;) {
			ssize_t n = write(wr_.get(), buf + done, len - done);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				return false;
			done += n;
		}
		return true;
	}
	// Up to @len of the pipe's bytes into @fd; as send() for errors.
	ssize_t send_to(int fd, size_t len)
	{
		return splice(rd_.get(), nullptr, fd, nullptr, len, SPLICE_F_MOVE);
	}

private:
	Fd rd_, wr_;
};

bool send_one(const Options &o, uint64_t seed)
{
	Options mine = o;
	mine.seed = seed;
	Fd fd = connect_to(o);
	mrc::Pattern pat(seed);
	Sizes sizes(mine);
	Progress prog(o.bucket_ms);
	std::vector<uint8_t> buf(std::max<uint32_t>(o.random_max, o.msg_size));
	uint64_t off = 0;
	std::string error;
	bool seq = o.type == "seqpacket";
	bool timed = o.duration > 0;

	auto t0 = Clock::now();
	auto until = t0 + std::chrono::duration_cast<Clock::duration>(
			      std::chrono::duration<double>(o.duration));
	auto more = [&]() { return timed ? Clock::now() < until : off < o.bytes; };
	set_tick(o, fd.get());
	if (timed && !o.time_limit) {
		// Blocked sends must wake up to see the end of the duration.
		timeval tv{0, 200000};
		setsockopt(fd.get(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	}
	std::unique_ptr<SplicePipe> pipe;
	if (o.splice)
		pipe = std::make_unique<SplicePipe>(buf.size());
	bool over = false;
	while (!over && more()) {
		size_t len = seq ? sizes.next() : o.msg_size;
		if (!timed) {
			if (seq && off + len > o.bytes)
				len = o.bytes - off; // the last message is shorter
			if (!seq)
				len = std::min<uint64_t>(o.msg_size, o.bytes - off);
		}
		pat.fill(off, buf.data(), len);
		if (pipe && !pipe->fill(buf.data(), len)) {
			error = std::string("pipe write: ") + std::strerror(errno);
			break;
		}
		size_t done = 0;
		while (done < len) {
			ssize_t n =
			    pipe ? pipe->send_to(fd.get(), len - done)
				 : send(fd.get(), buf.data() + done, len - done, MSG_NOSIGNAL);
			if (n < 0) {
				// A timed stream stops where it is when its time is up.
				if (errno == EAGAIN && timed && !seq && Clock::now() >= until) {
					over = true;
					break;
				}
				if (errno == EINTR ||
				    (errno == EAGAIN && !past(o, t0) && (!timed || o.time_limit)))
					continue;
				if (errno == EAGAIN && timed && !o.time_limit)
					continue;
				if (errno == EAGAIN)
					errno = ETIMEDOUT;
				error = std::string("send: ") + std::strerror(errno);
				break;
			}
			done += n;
			prog.add(n);
		}
		if (!error.empty())
			break;
		off += done;
	}
	// Half-close and wait for the server to finish reading (EOF back).
	if (error.empty() && shutdown(fd.get(), SHUT_WR) < 0)
		error = std::string("shutdown: ") + std::strerror(errno);
	while (error.empty()) {
		char c;
		ssize_t n = recv(fd.get(), &c, 1, 0);
		if (n < 0 && (errno == EINTR || (errno == EAGAIN && !past(o, t0))))
			continue;
		if (n < 0)
			error = std::string("waiting for close: ") + std::strerror(errno);
		break;
	}
	bool ok = error.empty();
	if (!ok)
		prog.finish();
	print(o, report(mine, prog, "client", ok, error));
	return ok;
}

int run_client(const Options &o)
{
	if (o.type == "seqpacket" && o.random_max == 0 && o.msg_size == 0)
		throw std::runtime_error("seqpacket needs -m or --random-sizes");
	std::vector<std::thread> threads;
	std::vector<int> results(o.conns, 0);
	for (unsigned i = 0; i < o.conns; i++)
		threads.emplace_back([&o, &results, i]() {
			try {
				results[i] = send_one(o, o.seed) ? 1 : 0;
			} catch (const std::exception &e) {
				std::fprintf(stderr, "mrc-perf: %s\n", e.what());
			}
		});
	for (auto &t : threads)
		t.join();
	return std::all_of(results.begin(), results.end(), [](int r) { return r; }) ? 0 : 1;
}

// ---- request/response ----

void no_delay(const Options &o, int fd)
{
	int one = 1;
	if (o.proto != "mrc")
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

// Move exactly len bytes; false on EOF. Throws on errors.
bool recv_all(int fd, uint8_t *buf, size_t len, bool seq)
{
	size_t got = 0;
	while (got < len) {
		ssize_t n = recv(fd, buf + got, len - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("recv");
		if (n == 0)
			return false;
		got += n;
		if (seq && got != len)
			throw std::runtime_error("short message");
	}
	return true;
}

void send_all(int fd, const uint8_t *buf, size_t len)
{
	size_t done = 0;
	while (done < len) {
		ssize_t n = send(fd, buf + done, len - done, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("send");
		done += n;
	}
}

bool serve_rr(const Options &o, int fd)
{
	no_delay(o, fd);
	std::vector<uint8_t> buf(o.msg_size);
	uint64_t n = 0;
	std::string error;
	try {
		while (recv_all(fd, buf.data(), buf.size(), o.type == "seqpacket")) {
			send_all(fd, buf.data(), buf.size());
			n++;
		}
	} catch (const std::exception &e) {
		error = e.what();
	}
	nlohmann::json j = {{"role", "server"}, {"proto", o.proto}, {"type", o.type},
			    {"mode", "rr"},     {"requests", n},    {"verified", error.empty()}};
	if (!error.empty())
		j["error"] = error;
	if (o.json)
		std::printf("%s\n", j.dump().c_str());
	else
		std::printf("server: %s rr %llu requests%s\n", o.proto.c_str(),
			    static_cast<unsigned long long>(n), error.empty() ? "" : " (error)");
	std::fflush(stdout);
	return error.empty();
}

double percentile(const std::vector<double> &sorted, double q)
{
	if (sorted.empty())
		return 0;
	size_t i = static_cast<size_t>(q * static_cast<double>(sorted.size()));
	return sorted[std::min(i, sorted.size() - 1)];
}

int run_rr_client(const Options &o)
{
	Fd fd = connect_to(o);
	no_delay(o, fd.get());
	mrc::Pattern pat(o.seed);
	std::vector<uint8_t> req(o.msg_size), resp(o.msg_size);
	std::vector<double> lat_us;
	std::string error;
	uint64_t want = o.requests ? o.requests : (o.duration > 0 ? 0 : 10000);
	auto t0 = Clock::now();
	auto until = t0 + std::chrono::duration_cast<Clock::duration>(
			      std::chrono::duration<double>(o.duration));
	try {
		for (uint64_t i = 0; want ? i < want : Clock::now() < until; i++) {
			pat.fill(i * o.msg_size, req.data(), req.size());
			auto a = Clock::now();
			send_all(fd.get(), req.data(), req.size());
			if (!recv_all(fd.get(), resp.data(), resp.size(), o.type == "seqpacket"))
				throw std::runtime_error("EOF from the server");
			auto b = Clock::now();
			if (resp != req)
				throw std::runtime_error("response " + std::to_string(i) +
							 " differs from its request");
			lat_us.push_back(std::chrono::duration<double, std::micro>(b - a).count());
		}
	} catch (const std::exception &e) {
		error = e.what();
	}
	double t = secs(Clock::now() - t0);
	shutdown(fd.get(), SHUT_WR);
	std::vector<double> s = lat_us;
	std::sort(s.begin(), s.end());
	double mean = 0;
	for (double v : s)
		mean += v;
	mean = s.empty() ? 0 : mean / static_cast<double>(s.size());
	auto [cpu_user, cpu_sys] = cpu_times();
	nlohmann::json j = {{"role", "client"},
			    {"proto", o.proto},
			    {"type", o.type},
			    {"mode", "rr"},
			    {"msg_size", o.msg_size},
			    {"requests", s.size()},
			    {"seconds", t},
			    {"rate_per_s", t > 0 ? static_cast<double>(s.size()) / t : 0.0},
			    {"rtt_us",
			     {{"min", s.empty() ? 0 : s.front()},
			      {"mean", mean},
			      {"p50", percentile(s, 0.50)},
			      {"p90", percentile(s, 0.90)},
			      {"p99", percentile(s, 0.99)},
			      {"p999", percentile(s, 0.999)},
			      {"max", s.empty() ? 0 : s.back()}}},
			    {"cpu_user_s", cpu_user},
			    {"cpu_sys_s", cpu_sys},
			    {"verified", error.empty()}};
	if (!error.empty())
		j["error"] = error;
	if (o.json)
		std::printf("%s\n", j.dump().c_str());
	else
		std::printf("client: %s rr %zu x %u bytes in %.3f s, rtt p50 %.1f us, p99 %.1f us, "
			    "p99.9 %.1f us%s\n",
			    o.proto.c_str(), s.size(), o.msg_size, t, percentile(s, 0.5),
			    percentile(s, 0.99), percentile(s, 0.999),
			    error.empty() ? "" : (" (" + error + ")").c_str());
	std::fflush(stdout);
	return error.empty() ? 0 : 1;
}

// ---- many connections from one thread ----

// The first bytes of the pattern, shared by every connection.
std::vector<uint8_t> pattern_prefix(const Options &o)
{
	if (o.bytes == 0 || o.bytes > (64u << 20))
		throw std::runtime_error("--mode many needs -n between 1 and 64 MiB");
	std::vector<uint8_t> v(o.bytes);
	mrc::Pattern(o.seed).fill(0, v.data(), v.size());
	return v;
}

class Epoll {
public:
	Epoll() : fd_(epoll_create1(EPOLL_CLOEXEC))
	{
		if (fd_.get() < 0)
			die("epoll_create1");
	}
	void add(int fd, uint32_t events, uint64_t data) { ctl(EPOLL_CTL_ADD, fd, events, data); }
	void mod(int fd, uint32_t events, uint64_t data) { ctl(EPOLL_CTL_MOD, fd, events, data); }
	int wait(epoll_event *ev, int n, int ms)
	{
		int r = epoll_wait(fd_.get(), ev, n, ms);
		if (r < 0 && errno != EINTR)
			die("epoll_wait");
		return std::max(r, 0);
	}

private:
	void ctl(int op, int fd, uint32_t events, uint64_t data)
	{
		epoll_event e{};
		e.events = events;
		e.data.u64 = data;
		if (epoll_ctl(fd_.get(), op, fd, &e) < 0)
			die("epoll_ctl");
	}
	Fd fd_;
};

void set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		die("fcntl");
}

nlohmann::json done_stats(std::vector<double> done_ms)
{
	std::sort(done_ms.begin(), done_ms.end());
	return {{"p50", percentile(done_ms, 0.5)},
		{"p99", percentile(done_ms, 0.99)},
		{"max", done_ms.empty() ? 0 : done_ms.back()}};
}

void print_many(const Options &o, const nlohmann::json &j)
{
	if (o.json)
		std::printf("%s\n", j.dump().c_str());
	else
		std::printf("%s: %s many: %s\n", j["role"].get<std::string>().c_str(),
			    o.proto.c_str(), j.dump().c_str());
	std::fflush(stdout);
}

int run_many_server(const Options &o)
{
	const std::vector<uint8_t> want = pattern_prefix(o);
	Fd l = make_socket(o);
	Addr a = make_addr(o, o.bind_addr.empty() ? "::" : o.bind_addr);
	if (bind(l.get(), reinterpret_cast<sockaddr *>(&a.ss), a.len) < 0)
		die("bind");
	if (listen(l.get(), 4096) < 0)
		die("listen");
	set_nonblock(l.get());
	std::fprintf(stderr, "listening on port %u\n", o.port);
	struct Conn {
		Fd fd;
		uint64_t got = 0;
		bool open = true;
	};
	std::vector<Conn> conns;
	Epoll ep;
	ep.add(l.get(), EPOLLIN, UINT64_MAX);
	std::vector<uint8_t> buf(256 << 10);
	std::vector<double> done_ms;
	unsigned completed = 0, failed = 0, progressed = 0;
	uint64_t total = 0;
	std::string error;
	Clock::time_point first{}, last{};
	bool any = false;
	auto t0 = Clock::now();
	epoll_event evs[256];
	while (completed + failed < o.count && !past(o, t0)) {
		int n = ep.wait(evs, 256, 200);
		for (int i = 0; i < n; i++) {
			if (evs[i].data.u64 == UINT64_MAX) {
				for (;;) {
					int c = accept4(l.get(), nullptr, nullptr, SOCK_NONBLOCK);
					if (c < 0)
						break;
					ep.add(c, EPOLLIN, conns.size());
					conns.push_back(Conn{Fd(c)});
					if (conns.size() == o.count)
						std::fprintf(stderr, "accepted %zu\n",
							     conns.size());
				}
				continue;
			}
			Conn &c = conns[evs[i].data.u64];
			if (!c.open)
				continue;
			for (;;) {
				ssize_t r = recv(c.fd.get(), buf.data(), buf.size(), MSG_DONTWAIT);
				if (r < 0 && errno == EINTR)
					continue;
				if (r < 0 && errno == EAGAIN)
					break;
				std::string bad;
				if (r < 0)
					bad = std::string("recv: ") + std::strerror(errno);
				else if (r > 0 && (c.got + r > want.size() ||
						   std::memcmp(buf.data(), want.data() + c.got, r)))
					bad = "bad data near offset " + std::to_string(c.got);
				else if (r == 0 && c.got != want.size())
					bad = "EOF after " + std::to_string(c.got) + " bytes";
				if (!bad.empty()) {
					if (error.empty())
						error = bad;
					failed++;
					c.open = false;
					c.fd = Fd();
					break;
				}
				auto now = Clock::now();
				if (r == 0) {
					completed++;
					c.open = false;
					c.fd = Fd();
					last = now;
					done_ms.push_back(0);
					done_ms.back() =
					    std::chrono::duration<double, std::milli>(now - first)
						.count();
					break;
				}
				if (!any) {
					first = now;
					any = true;
				}
				if (!c.got)
					progressed++;
				c.got += r;
				total += r;
			}
		}
	}
	if (completed + failed < o.count && error.empty())
		error = "time limit reached";
	double t = any ? secs(last - first) : 0;
	auto [cpu_user, cpu_sys] = cpu_times();
	nlohmann::json j = {{"role", "server"},
			    {"proto", o.proto},
			    {"type", o.type},
			    {"mode", "many"},
			    {"conns", o.count},
			    {"accepted", conns.size()},
			    {"progressed", progressed},
			    {"completed", completed},
			    {"failed", failed},
			    {"bytes", total},
			    {"seconds", t},
			    {"goodput_mbps", t > 0 ? total * 8 / t / 1e6 : 0.0},
			    {"done_ms", done_stats(done_ms)},
			    {"cpu_user_s", cpu_user},
			    {"cpu_sys_s", cpu_sys},
			    {"verified", error.empty() && completed == o.count}};
	if (!error.empty())
		j["error"] = error;
	print_many(o, j);
	return error.empty() && completed == o.count ? 0 : 1;
}

int run_many_client(const Options &o)
{
	const std::vector<uint8_t> data = pattern_prefix(o);
	struct Conn {
		Fd fd;
		uint64_t sent = 0;
		bool open = true;
	};
	std::vector<Conn> conns;
	std::string error;
	auto t0 = Clock::now();
	for (unsigned i = 0; i < o.conns; i++) {
		try {
			conns.push_back(Conn{connect_to(o)});
		} catch (const std::exception &e) {
			if (error.empty())
				error = e.what();
		}
	}
	double connect_s = secs(Clock::now() - t0);
	std::fprintf(stderr, "connected %zu of %u\n", conns.size(), o.conns);
	if (o.idle_hold > 0)
		std::this_thread::sleep_for(std::chrono::duration<double>(o.idle_hold));
	Epoll ep;
	for (size_t i = 0; i < conns.size(); i++) {
		set_nonblock(conns[i].fd.get());
		ep.add(conns[i].fd.get(), EPOLLOUT, i);
	}
	unsigned completed = 0, failed = 0;
	auto t1 = Clock::now();
	epoll_event evs[256];
	while (completed + failed < conns.size() && !past(o, t1)) {
		int n = ep.wait(evs, 256, 200);
		for (int i = 0; i < n; i++) {
			size_t k = evs[i].data.u64;
			Conn &c = conns[k];
			if (!c.open)
				continue;
			std::string bad;
			if (c.sent < data.size()) {
				size_t len = std::min<size_t>(data.size() - c.sent, o.msg_size);
				ssize_t r = send(c.fd.get(), data.data() + c.sent, len,
						 MSG_DONTWAIT | MSG_NOSIGNAL);
				if (r < 0 && errno != EAGAIN && errno != EINTR)
					bad = std::string("send: ") + std::strerror(errno);
				if (r > 0)
					c.sent += r;
				if (bad.empty() && c.sent == data.size()) {
					if (shutdown(c.fd.get(), SHUT_WR) < 0)
						bad = std::string("shutdown: ") +
						      std::strerror(errno);
					else
						ep.mod(c.fd.get(), EPOLLIN, k);
				}
			} else {
				char ch;
				ssize_t r = recv(c.fd.get(), &ch, 1, MSG_DONTWAIT);
				if (r == 0) {
					completed++;
					c.open = false;
					c.fd = Fd();
				} else if (r < 0 && errno != EAGAIN && errno != EINTR) {
					bad = std::string("recv: ") + std::strerror(errno);
				} else if (r > 0) {
					bad = "unexpected data from the server";
				}
			}
			if (!bad.empty()) {
				if (error.empty())
					error = bad;
				failed++;
				c.open = false;
				c.fd = Fd();
			}
		}
	}
	if (completed + failed < conns.size() && error.empty())
		error = "time limit reached";
	auto [cpu_user, cpu_sys] = cpu_times();
	nlohmann::json j = {{"role", "client"},
			    {"proto", o.proto},
			    {"type", o.type},
			    {"mode", "many"},
			    {"conns", o.conns},
			    {"connected", conns.size()},
			    {"connect_seconds", connect_s},
			    {"completed", completed},
			    {"failed", failed},
			    {"seconds", secs(Clock::now() - t1)},
			    {"cpu_user_s", cpu_user},
			    {"cpu_sys_s", cpu_sys},
			    {"verified", error.empty() && completed == o.conns}};
	if (!error.empty())
		j["error"] = error;
	print_many(o, j);
	return error.empty() && completed == o.conns ? 0 : 1;
}

int run_server_mode(const Options &o)
{
	if (o.mode == "many")
		return run_many_server(o);
	return run_server(o);
}

int run_client_mode(const Options &o)
{
	if (o.mode == "many")
		return run_many_client(o);
	if (o.mode == "rr")
		return run_rr_client(o);
	return run_client(o);
}

} // namespace

int main(int argc, char **argv)
{
	Options o;
	CLI::App app{"mrc-perf: verified transfers over MRC, TCP or MPTCP", "mrc-perf"};
	app.require_subcommand(1);
	auto common = [&o](CLI::App *c) {
		c->add_option("-P,--proto", o.proto, "mrc, tcp or mptcp")
		    ->check(CLI::IsMember({"mrc", "tcp", "mptcp"}));
		c->add_option("-t,--type", o.type, "stream or seqpacket")
		    ->check(CLI::IsMember({"stream", "seqpacket"}));
		c->add_option("-p,--port", o.port, "service port");
		c->add_option("-n,--bytes", o.bytes, "bytes per connection (0 = until EOF)");
		c->add_option("-m,--msg-size", o.msg_size, "bytes per send / message");
		c->add_option("--random-sizes", o.random_max, "seqpacket: random sizes 1..N");
		c->add_option("--seed", o.seed, "pattern seed (both sides)");
		c->add_option("--bucket-ms", o.bucket_ms, "goodput bucket width");
		c->add_option("--policy", o.policy, "MRC failure policy name");
		c->add_option("--time-limit", o.time_limit,
			      "give up after this many seconds, reporting what moved");
		c->add_flag("-j,--json", o.json, "JSON output");
		c->add_option("--mode", o.mode, "transfer, rr (request/response) or many")
		    ->check(CLI::IsMember({"transfer", "rr", "many"}));
	};
	auto *srv = app.add_subcommand("server", "receive and verify");
	common(srv);
	srv->add_option("-b,--bind", o.bind_addr, "local address");
	srv->add_option("--count", o.count, "connections to serve");
	auto *cli = app.add_subcommand("client", "send");
	common(cli);
	cli->add_option("-c,--connect", o.addr, "server address")->required();
	cli->add_option("-b,--bind", o.bind_addr, "local address to connect from");
	cli->add_option("--conns", o.conns, "parallel connections");
	cli->add_option("--duration", o.duration,
			"transfer: send for this many seconds instead of -n bytes "
			"(run the server with -n 0); rr: requests for this long");
	cli->add_option("--requests", o.requests, "rr: requests to make (default 10000)");
	cli->add_flag(
	    "--splice", o.splice,
	    "stream: send through a pipe with splice() (the socket holds the pipe's pages, "
	    "no copy)");
	cli->add_option("--idle-hold", o.idle_hold,
			"many: keep the connections idle this long once all are open");
	CLI11_PARSE(app, argc, argv);
	if (o.splice && (o.type != "stream" || o.mode != "transfer")) {
		std::fprintf(
		    stderr, "mrc-perf: --splice sends a stream (--type stream, --mode transfer)\n");
		return 2;
	}
	// splice() has no MSG_NOSIGNAL: a reset connection must be an error
	// we report, not a SIGPIPE that kills us.
	if (o.splice)
		std::signal(SIGPIPE, SIG_IGN);
	try {
		return srv->parsed() ? run_server_mode(o) : run_client_mode(o);
	} catch (const std::exception &e) {
		std::fprintf(stderr, "mrc-perf: %s\n", e.what());
		return 2;
	}
}
