// SPDX-License-Identifier: GPL-2.0
// mrc-perf: move verified data over MRC, TCP or MPTCP with one code path.
//
//   mrc-perf server [-P mrc|tcp|mptcp] [-t stream|seqpacket] [-p PORT]
//                   [-b ADDR] [--count N] [-j]
//   mrc-perf client -c ADDR [-P ...] [-t ...] [-p PORT] [-n BYTES]
//                   [-m MSGSIZE | --random-sizes MAX] [--seed S]
//                   [--conns N] [--bucket-ms MS] [-j]
//
// The client sends a byte stream generated from a seed; the server
// regenerates it and checks every byte at its offset (and, on SEQPACKET,
// every message length), so a lost, duplicated, reordered or corrupted
// byte is reported with its offset. Both sides report goodput and the
// longest stall (the longest time without progress).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <linux/mrc.h>
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
};

// The data pattern: a 64-bit xorshift stream, byte i of the stream is
// byte (i % 8) of word (i / 8). Independent of how the bytes are cut.
class Pattern {
public:
	explicit Pattern(uint64_t seed) : seed_(seed ? seed : 1) {}

	uint8_t at(uint64_t off)
	{
		uint64_t w = off / 8;
		if (w != word_idx_ || !valid_) {
			if (!valid_ || w < word_idx_) {
				state_ = seed_;
				word_idx_ = 0;
				word_ = next();
			}
			while (word_idx_ < w) {
				word_ = next();
				word_idx_++;
			}
			valid_ = true;
		}
		return static_cast<uint8_t>(word_ >> (8 * (off % 8)));
	}

	void fill(uint64_t off, uint8_t *buf, size_t len)
	{
		for (size_t i = 0; i < len; i++)
			buf[i] = at(off + i);
	}

private:
	uint64_t next()
	{
		state_ ^= state_ << 13;
		state_ ^= state_ >> 7;
		state_ ^= state_ << 17;
		return state_;
	}
	uint64_t seed_;
	uint64_t state_ = 0;
	uint64_t word_ = 0;
	uint64_t word_idx_ = 0;
	bool valid_ = false;
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

int af_mrc()
{
	std::ifstream f("/sys/module/mrc/parameters/af");
	int af = MRC_AF_DEFAULT;
	if (f)
		f >> af;
	return af;
}

struct Addr {
	sockaddr_storage ss{};
	socklen_t len = 0;
};

Addr make_addr(const Options &o, const std::string &host)
{
	Addr a;
	sockaddr_in6 s6{};
	if (!host.empty() && inet_pton(AF_INET6, host.c_str(), &s6.sin6_addr) != 1)
		throw std::runtime_error("not an IPv6 address: " + host);
	if (o.proto == "mrc") {
		sockaddr_mrc m{};
		m.smrc_family = static_cast<__kernel_sa_family_t>(af_mrc());
		m.smrc_port = htons(o.port);
		m.smrc_addr = s6.sin6_addr;
		std::memcpy(&a.ss, &m, sizeof(m));
		a.len = sizeof(m);
	} else {
		s6.sin6_family = AF_INET6;
		s6.sin6_port = htons(o.port);
		std::memcpy(&a.ss, &s6, sizeof(s6));
		a.len = sizeof(s6);
	}
	return a;
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
		fd = socket(af_mrc(), type, 0);
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
			started = true;
		}
		stall = std::max(stall, now - last);
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
			stall = std::max(stall, Clock::now() - last);
	}
	Clock::duration bucket;
	Clock::time_point start, last;
	Clock::duration stall{};
	std::vector<uint64_t> buckets;
	uint64_t total = 0;
	bool started = false;
};

nlohmann::json report(const Options &o, const Progress &p, const std::string &role, bool ok,
		      const std::string &error)
{
	double t = p.started ? secs(p.last - p.start) : 0.0;
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
	Pattern pat(o.seed);
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
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != pat.at(off + i)) {
				error = "byte " + std::to_string(off + i) + " differs";
				break;
			}
		}
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
			results[i] = serve_one(o, conn.get()) ? 1 : 0;
		});
	}
	for (auto &t : threads)
		t.join();
	for (int r : results)
		all_ok = all_ok && r;
	return all_ok ? 0 : 1;
}

bool send_one(const Options &o, uint64_t seed)
{
	Options mine = o;
	mine.seed = seed;
	Fd fd = make_socket(o);
	Addr a = make_addr(o, o.addr);
	if (connect(fd.get(), reinterpret_cast<sockaddr *>(&a.ss), a.len) < 0)
		die("connect");
	Pattern pat(seed);
	Sizes sizes(mine);
	Progress prog(o.bucket_ms);
	std::vector<uint8_t> buf(std::max<uint32_t>(o.random_max, o.msg_size));
	uint64_t off = 0;
	std::string error;
	bool seq = o.type == "seqpacket";

	auto t0 = Clock::now();
	set_tick(o, fd.get());
	while (off < o.bytes) {
		size_t len = seq ? sizes.next() : std::min<uint64_t>(o.msg_size, o.bytes - off);
		if (seq && off + len > o.bytes)
			len = o.bytes - off; // the last message is shorter
		pat.fill(off, buf.data(), len);
		size_t done = 0;
		while (done < len) {
			ssize_t n = send(fd.get(), buf.data() + done, len - done, MSG_NOSIGNAL);
			if (n < 0) {
				if (errno == EINTR || (errno == EAGAIN && !past(o, t0)))
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
		off += len;
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
	};
	auto *srv = app.add_subcommand("server", "receive and verify");
	common(srv);
	srv->add_option("-b,--bind", o.bind_addr, "local address");
	srv->add_option("--count", o.count, "connections to serve");
	auto *cli = app.add_subcommand("client", "send");
	common(cli);
	cli->add_option("-c,--connect", o.addr, "server address")->required();
	cli->add_option("--conns", o.conns, "parallel connections");
	CLI11_PARSE(app, argc, argv);
	try {
		return srv->parsed() ? run_server(o) : run_client(o);
	} catch (const std::exception &e) {
		std::fprintf(stderr, "mrc-perf: %s\n", e.what());
		return 2;
	}
}
