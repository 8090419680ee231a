// SPDX-License-Identifier: GPL-2.0
// mrcize: libmrcize.so preloaded into a real program (mrcize_testprog)
// over loopback. This host has no MRC, so "MRC" is either a protocol the
// kernel lacks (the module missing) or MPTCP (262), a stand-in that really
// connects; libmrcize_fault.so, preloaded after the library, makes the
// stand-in's connect() fail the way the kernel contract says MRC's does
// (an errno, a refused port, a peer that never answers). Assertions are on
// what the program observed: SO_PROTOCOL of its fd, connect() and poll()
// results, bytes acknowledged by the peer, the -v lines and counters.
#include <atomic>
#include <cerrno>
#include <chrono>
#include <map>
#include <sstream>
#include <thread>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

extern char **environ;

namespace {

constexpr int kStandIn = 262;      // IPPROTO_MPTCP
constexpr int kMissingProto = 253; // reserved for experiments: no kernel has it

using Env = std::map<std::string, std::string>;

bool protocol_exists(int proto)
{
	int fd = socket(AF_INET6, SOCK_STREAM, proto);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

#define REQUIRE_STANDIN()                                                                          \
	do {                                                                                       \
		if (!protocol_exists(kStandIn))                                                    \
			GTEST_SKIP() << "no MPTCP on this host to stand in for MRC";               \
	} while (0)

// A process with its output captured.
class Child {
public:
	Child(const std::vector<std::string> &argv, const Env &extra)
	{
		std::vector<std::string> env;
		for (char **e = environ; *e; e++) {
			std::string kv = *e;
			if (kv.rfind("LD_PRELOAD=", 0) == 0 || kv.rfind("MRCIZE_", 0) == 0)
				continue;
			env.push_back(kv);
		}
		for (const auto &[k, v] : extra)
			env.push_back(k + "=" + v);
		int out[2], err[2];
		if (pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0)
			abort();
		std::vector<char *> a, e;
		for (const auto &s : argv)
			a.push_back(const_cast<char *>(s.c_str()));
		a.push_back(nullptr);
		for (const auto &s : env)
			e.push_back(const_cast<char *>(s.c_str()));
		e.push_back(nullptr);
		pid_ = fork();
		if (pid_ == 0) {
			dup2(out[1], 1);
			dup2(err[1], 2);
			execve(a[0], a.data(), e.data());
			_exit(127);
		}
		close(out[1]);
		close(err[1]);
		out_ = out[0];
		err_ = err[0];
	}
	~Child()
	{
		if (pid_ > 0) {
			kill(pid_, SIGKILL);
			waitpid(pid_, nullptr, 0);
		}
		close(out_);
		close(err_);
	}
	Child(const Child &) = delete;
	Child &operator=(const Child &) = delete;

	/// Read stdout until a line starting with @prefix (or EOF/timeout).
	std::string line_starting(const std::string &prefix, int timeout_ms = 10000)
	{
		auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
		for (;;) {
			size_t pos;
			while ((pos = out_buf_.find('\n')) != std::string::npos) {
				std::string line = out_buf_.substr(0, pos);
				out_all_ += out_buf_.substr(0, pos + 1);
				out_buf_.erase(0, pos + 1);
				if (line.rfind(prefix, 0) == 0)
					return line;
			}
			auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
					end - std::chrono::steady_clock::now())
					.count();
			if (left <= 0 || !pump(out_, out_buf_, static_cast<int>(left)))
				return "";
		}
	}

	/// Wait for the exit; everything printed.
	int finish(int timeout_ms = 20000)
	{
		auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
		bool out_open = true, err_open = true;
		while (out_open || err_open) {
			auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
					end - std::chrono::steady_clock::now())
					.count();
			if (left <= 0)
				break;
			pollfd p[2] = {{out_open ? out_ : -1, POLLIN, 0},
				       {err_open ? err_ : -1, POLLIN, 0}};
			if (poll(p, 2, static_cast<int>(left)) <= 0)
				break;
			if (p[0].revents && !pump(out_, out_buf_, 0))
				out_open = false;
			if (p[1].revents && !pump(err_, err_all_, 0))
				err_open = false;
		}
		out_all_ += out_buf_;
		out_buf_.clear();
		if (out_open || err_open)
			kill(pid_, SIGKILL);
		int st = 0;
		waitpid(pid_, &st, 0);
		pid_ = -1;
		return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	}

	const std::string &out() const { return out_all_; }
	const std::string &err() const { return err_all_; }

private:
	// Append what @fd has; false at EOF or timeout.
	static bool pump(int fd, std::string &buf, int timeout_ms)
	{
		pollfd p = {fd, POLLIN, 0};
		if (timeout_ms > 0 && poll(&p, 1, timeout_ms) <= 0)
			return false;
		char b[4096];
		ssize_t n = read(fd, b, sizeof(b));
		if (n <= 0)
			return false;
		buf.append(b, static_cast<size_t>(n));
		return true;
	}

	pid_t pid_ = -1;
	int out_ = -1, err_ = -1;
	std::string out_buf_, out_all_, err_all_;
};

// "key=value" words of the program's output (the last value of a key).
std::map<std::string, std::string> words(const std::string &out)
{
	std::map<std::string, std::string> kv;
	std::istringstream in(out);
	std::string w;
	while (in >> w) {
		auto eq = w.find('=');
		if (eq != std::string::npos)
			kv[w.substr(0, eq)] = w.substr(eq + 1);
	}
	return kv;
}

struct Result {
	int status;
	std::string out, err;
	std::map<std::string, std::string> kv;

	std::string operator[](const std::string &k) const
	{
		auto it = kv.find(k);
		return it == kv.end() ? "<unset>" : it->second;
	}
	bool err_has(const std::string &s) const { return err.find(s) != std::string::npos; }
};

Result run(const std::vector<std::string> &argv, const Env &env)
{
	Child c(argv, env);
	int st = c.finish();
	return {st, c.out(), c.err(), words(c.out())};
}

std::string dump(const Result &r)
{
	return "status " + std::to_string(r.status) + "\n--- stdout\n" + r.out + "--- stderr\n" +
	       r.err;
}

int listener(const char *addr, int backlog, bool v6only)
{
	int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int one = 1, v6 = v6only ? 1 : 0;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6, sizeof(v6));
	sockaddr_in6 sa{};
	sa.sin6_family = AF_INET6;
	inet_pton(AF_INET6, addr, &sa.sin6_addr);
	if (bind(fd, reinterpret_cast<sockaddr *>(&sa), sizeof(sa)) < 0 || listen(fd, backlog) < 0)
		abort();
	return fd;
}

uint16_t port_of(int fd)
{
	sockaddr_in6 sa{};
	socklen_t l = sizeof(sa);
	getsockname(fd, reinterpret_cast<sockaddr *>(&sa), &l);
	return ntohs(sa.sin6_port);
}

// A plain TCP peer (this process is not preloaded) on [::] (dual stack):
// reads each connection to its end, answers with the byte count.
class CountServer {
public:
	CountServer() : fd_(listener("::", 16, false)), port_(port_of(fd_))
	{
		thread_ = std::thread([this] { loop(); });
	}
	~CountServer()
	{
		stop_ = true;
		thread_.join();
		close(fd_);
	}
	uint16_t port() const { return port_; }
	int connections() const { return conns_; }

private:
	void loop()
	{
		while (!stop_) {
			pollfd p = {fd_, POLLIN, 0};
			if (poll(&p, 1, 50) <= 0)
				continue;
			int c = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
			if (c < 0)
				continue;
			conns_++;
			timeval tv = {10, 0};
			setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
			long total = 0;
			char buf[65536];
			ssize_t n;
			while ((n = read(c, buf, sizeof(buf))) > 0)
				total += n;
			std::string s = std::to_string(total);
			ssize_t w = write(c, s.data(), s.size());
			(void)w;
			close(c);
		}
	}

	int fd_;
	uint16_t port_;
	std::atomic<bool> stop_{false};
	std::atomic<int> conns_{0};
	std::thread thread_;
};

// A port where nobody listens (connect: ECONNREFUSED).
uint16_t closed_port()
{
	int fd = listener("::1", 1, true);
	uint16_t p = port_of(fd);
	close(fd);
	return p;
}

// A listener whose accept queue is full: SYNs are dropped, connect()
// gets no answer.
class Blackhole {
public:
	Blackhole() : fd_(listener("::1", 0, true)), port_(port_of(fd_))
	{
		sockaddr_in6 sa{};
		sa.sin6_family = AF_INET6;
		sa.sin6_port = htons(port_);
		inet_pton(AF_INET6, "::1", &sa.sin6_addr);
		for (int i = 0; i < 3; i++) {
			int c = socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
			connect(c, reinterpret_cast<sockaddr *>(&sa), sizeof(sa));
			fill_.push_back(c);
			usleep(20000);
		}
	}
	~Blackhole()
	{
		for (int c : fill_)
			close(c);
		close(fd_);
	}
	uint16_t port() const { return port_; }

private:
	int fd_;
	uint16_t port_;
	std::vector<int> fill_;
};

const std::string kProg = MRCIZE_TESTPROG;

// The library with MRC = the stand-in, optionally failing connects.
Env standin(Env extra = {}, bool fault = false)
{
	Env e = {{"LD_PRELOAD",
		  std::string(MRCIZE_PRELOAD) + (fault ? std::string(" ") + MRCIZE_FAULT : "")},
		 {"MRCIZE_IPPROTO", std::to_string(kStandIn)},
		 {"MRCIZE_VERBOSE", "1"}};
	if (fault)
		e["MRCIZE_FAULT_PROTO"] = std::to_string(kStandIn);
	for (const auto &[k, v] : extra)
		e[k] = v;
	return e;
}

Env refused(Env extra = {})
{
	extra["MRCIZE_FAULT_PORT"] = std::to_string(closed_port());
	return standin(extra, true);
}

std::vector<std::string> client(uint16_t port, std::vector<std::string> more = {})
{
	std::vector<std::string> a = {kProg, "client", "--port", std::to_string(port)};
	a.insert(a.end(), more.begin(), more.end());
	return a;
}

} // namespace

TEST(Preload, ModuleMissingMakesTcpSocketsAndTheTransferWorks)
{
	ASSERT_FALSE(protocol_exists(kMissingProto));
	CountServer srv;
	auto r = run(client(srv.port()), {{"LD_PRELOAD", MRCIZE_PRELOAD},
					  {"MRCIZE_IPPROTO", std::to_string(kMissingProto)},
					  {"MRCIZE_VERBOSE", "1"}});
	EXPECT_EQ(r["protocol"], "6") << dump(r);
	EXPECT_EQ(r["connect"], "0");
	EXPECT_EQ(r["acked"], "65536");
	EXPECT_TRUE(r.err_has("mrcize: cannot create MRC sockets (protocol 253: EPROTONOSUPPORT): "
			      "using TCP\n"))
	    << dump(r);
	EXPECT_TRUE(r.err_has(" mrc_sockets=0 mrc_connects=0 mrc_listens=0 fallbacks=0 "
			      "filtered=0 unavailable=1 ipv4=0 other=0"))
	    << dump(r);
}

TEST(Preload, ModuleMissingWithStrictFailsSocket)
{
	auto r = run(client(1), {{"LD_PRELOAD", MRCIZE_PRELOAD},
				 {"MRCIZE_IPPROTO", std::to_string(kMissingProto)},
				 {"MRCIZE_STRICT", "1"}});
	EXPECT_EQ(r["socket"], "EPROTONOSUPPORT") << dump(r);
	EXPECT_TRUE(r.err.empty()) << "quiet without -v: " << dump(r);
}

TEST(Preload, ConnectsOverTheStandIn)
{
	REQUIRE_STANDIN();
	CountServer srv;
	auto r = run(client(srv.port()), standin());
	EXPECT_EQ(r["protocol_before"], "262") << dump(r);
	EXPECT_EQ(r["connect"], "0");
	EXPECT_EQ(r["protocol"], "262");
	EXPECT_EQ(r["acked"], "65536");
	EXPECT_TRUE(r.err_has(" mrc_sockets=1 mrc_connects=1 mrc_listens=0 fallbacks=0 "
			      "filtered=0 unavailable=0 "))
	    << dump(r);
}

TEST(Preload, NonBlockingConnectOverTheStandInReturnsConnected)
{
	REQUIRE_STANDIN();
	CountServer srv;
	auto r = run(client(srv.port(), {"--nonblock"}), standin());
	EXPECT_EQ(r["connect"], "0") << dump(r);
	EXPECT_EQ(r["protocol"], "262");
	EXPECT_EQ(r["nonblock_after"], "1") << "O_NONBLOCK restored";
	EXPECT_EQ(r["acked"], "65536");
}

TEST(Preload, RefusedFallsBackToTcp)
{
	REQUIRE_STANDIN();
	CountServer srv;
	auto r = run(client(srv.port()), refused());
	EXPECT_EQ(r["protocol_before"], "262") << dump(r);
	EXPECT_EQ(r["connect"], "0");
	EXPECT_EQ(r["protocol"], "6");
	EXPECT_EQ(r["fd_after"], r["fd"]);
	EXPECT_EQ(r["acked"], "65536");
	EXPECT_TRUE(r.err_has("mrcize: [::1]:" + std::to_string(srv.port()) +
			      " over TCP: ECONNREFUSED at the MRC level\n"))
	    << dump(r);
	EXPECT_TRUE(r.err_has(" mrc_sockets=1 mrc_connects=0 mrc_listens=0 fallbacks=1 "
			      "[ECONNREFUSED=1] filtered=0 "))
	    << dump(r);
}

TEST(Preload, FallbackIsQuietWithoutVerbose)
{
	REQUIRE_STANDIN();
	CountServer srv;
	auto r = run(client(srv.port()), refused({{"MRCIZE_VERBOSE", "0"}}));
	EXPECT_EQ(r["protocol"], "6") << dump(r);
	EXPECT_EQ(r["acked"], "65536");
	EXPECT_EQ(r.err, "");
}

TEST(Preload, NonBlockingFallbackStillSeesEinprogressThenPollout)
{
	REQUIRE_STANDIN();
	CountServer srv;
	auto r = run(client(srv.port(), {"--nonblock"}), refused());
	EXPECT_EQ(r["connect"], "EINPROGRESS") << dump(r);
	EXPECT_EQ(r["pollout"], "1");
	EXPECT_EQ(r["so_error"], "0");
	EXPECT_EQ(r["protocol"], "6");
	EXPECT_EQ(r["nonblock_after"], "1");
	EXPECT_EQ(r["acked"], "65536");
}

TEST(Preload, EpollRegistrationFollowsTheSwap)
{
	REQUIRE_STANDIN();
	CountServer srv;
	auto r = run(client(srv.port(), {"--nonblock", "--epoll"}), refused());
	EXPECT_EQ(r["connect"], "EINPROGRESS") << dump(r);
	EXPECT_EQ(r["epoll_events"], "1") << "the program's epoll set sees the TCP socket";
	EXPECT_EQ(r["data"], "4242");
	EXPECT_EQ(r["out"], "1");
	EXPECT_EQ(r["protocol"], "6");
	EXPECT_EQ(r["acked"], "65536");
}

// Refused at the MRC level and over TCP (nothing listens yet): the
// program gets TCP's answer, and -v does not say "over TCP", which names
// only connections that are.
TEST(Preload, RefusedByBothIsNotOverTcp)
{
	REQUIRE_STANDIN();
	int port;
	{
		CountServer gone;
		port = gone.port();
	}
	auto r = run(client(port), refused());
	EXPECT_EQ(r["connect"], "ECONNREFUSED") << dump(r);
	EXPECT_EQ(r["protocol"], "6") << "the fd was switched to TCP";
	EXPECT_FALSE(r.err_has("over TCP")) << dump(r);
	EXPECT_TRUE(r.err_has("mrcize: [::1]:" + std::to_string(port) +
			      ": ECONNREFUSED at the MRC level, and TCP's connect failed too "
			      "(ECONNREFUSED)\n"))
	    << dump(r);
}

TEST(Preload, EveryFallbackErrnoOfTheContract)
{
	REQUIRE_STANDIN();
	CountServer srv;
	for (const char *e : {"ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAFNOSUPPORT"}) {
		auto r = run(client(srv.port()), standin({{"MRCIZE_FAULT_ERRNO", e}}, true));
		EXPECT_EQ(r["connect"], "0") << e << dump(r);
		EXPECT_EQ(r["protocol"], "6") << e;
		EXPECT_EQ(r["acked"], "65536") << e;
		EXPECT_TRUE(r.err_has(std::string(" over TCP: ") + e + " at the MRC level\n"))
		    << dump(r);
		EXPECT_TRUE(r.err_has(std::string("fallbacks=1 [") + e + "=1]")) << dump(r);
	}
}

TEST(Preload, OtherErrorsAreNotFallbacks)
{
	REQUIRE_STANDIN();
	CountServer srv;
	auto r = run(client(srv.port()), standin({{"MRCIZE_FAULT_ERRNO", "EACCES"}}, true));
	EXPECT_EQ(r["connect"], "EACCES") << dump(r);
	EXPECT_EQ(r["protocol"], "262");
	EXPECT_EQ(srv.connections(), 0);
	EXPECT_TRUE(r.err_has("fallbacks=0 ")) << dump(r);
}

TEST(Preload, StrictReturnsTheMrcError)
{
	REQUIRE_STANDIN();
	CountServer srv;
	auto r = run(client(srv.port()), refused({{"MRCIZE_STRICT", "1"}}));
	EXPECT_EQ(r["connect"], "ECONNREFUSED") << dump(r);
	EXPECT_EQ(r["protocol"], "262");
	EXPECT_FALSE(r.err_has("over TCP")) << dump(r);
	EXPECT_EQ(srv.connections(), 0);
	auto nb = run(client(srv.port(), {"--nonblock"}), refused({{"MRCIZE_STRICT", "1"}}));
	EXPECT_EQ(nb["connect"], "EINPROGRESS") << dump(nb);
	EXPECT_EQ(nb["so_error"], "ECONNREFUSED");
	EXPECT_EQ(nb["protocol"], "262");
}

TEST(Preload, NoAnswerWithinTheDeadlineFallsBackNonBlocking)
{
	REQUIRE_STANDIN();
	CountServer srv;
	Blackhole bh;
	auto r = run(client(srv.port(), {"--nonblock"}),
		     standin({{"MRCIZE_FAULT_PORT", std::to_string(bh.port())},
			      {"MRCIZE_CONNECT_TIMEOUT_MS", "300"}},
			     true));
	EXPECT_EQ(r["connect"], "EINPROGRESS") << dump(r);
	int ms = std::stoi(r["elapsed_ms"] == "<unset>" ? "-1" : r["elapsed_ms"]);
	EXPECT_GE(ms, 280) << "the MRC attempt had its deadline";
	EXPECT_LT(ms, 1000) << "and no more (the SYN retry comes at 1 s)";
	EXPECT_EQ(r["pollout"], "1");
	EXPECT_EQ(r["protocol"], "6");
	EXPECT_EQ(r["acked"], "65536");
	EXPECT_TRUE(r.err_has(" over TCP: no answer at the MRC level within 300 ms\n")) << dump(r);
	EXPECT_TRUE(r.err_has("fallbacks=1 [deadline=1]")) << dump(r);
}

TEST(Preload, NoAnswerWithinTheDeadlineFallsBackBlocking)
{
	REQUIRE_STANDIN();
	CountServer srv;
	Blackhole bh;
	auto r = run(client(srv.port()), standin({{"MRCIZE_FAULT_PORT", std::to_string(bh.port())},
						  {"MRCIZE_CONNECT_TIMEOUT_MS", "300"}},
						 true));
	EXPECT_EQ(r["connect"], "0") << dump(r);
	int ms = std::stoi(r["elapsed_ms"] == "<unset>" ? "-1" : r["elapsed_ms"]);
	EXPECT_GE(ms, 280) << dump(r);
	EXPECT_LT(ms, 1000);
	EXPECT_EQ(r["protocol"], "6");
	EXPECT_EQ(r["acked"], "65536");
	EXPECT_TRUE(r.err_has("fallbacks=1 [deadline=1]")) << dump(r);
}

TEST(Preload, BlockingConnectHonoursTheProgramsSendTimeout)
{
	REQUIRE_STANDIN();
	CountServer srv;
	Blackhole bh;
	auto r = run(client(srv.port(), {"--sndtimeo", "200"}),
		     standin({{"MRCIZE_FAULT_PORT", std::to_string(bh.port())},
			      {"MRCIZE_CONNECT_TIMEOUT_MS", "5000"}},
			     true));
	EXPECT_EQ(r["connect"], "0") << dump(r);
	int ms = std::stoi(r["elapsed_ms"] == "<unset>" ? "-1" : r["elapsed_ms"]);
	EXPECT_GE(ms, 180) << dump(r);
	EXPECT_LT(ms, 1000);
	EXPECT_EQ(r["protocol"], "6");
	EXPECT_EQ(r["sndtimeo_after_ms"], "200") << "SO_SNDTIMEO replayed on the TCP socket";
	EXPECT_EQ(r["acked"], "65536");
	EXPECT_TRUE(r.err_has("within 200 ms")) << dump(r);
}

TEST(Preload, OptionsSurviveTheSwap)
{
	REQUIRE_STANDIN();
	CountServer srv;
	for (bool fallback : {false, true}) {
		auto r = run(client(srv.port(), {"--opts"}), fallback ? refused() : standin());
		EXPECT_EQ(r["protocol"], fallback ? "6" : "262") << dump(r);
		EXPECT_EQ(r["setsockopt_failed"], "<unset>") << dump(r);
		EXPECT_EQ(r["nodelay"], "1");
		EXPECT_EQ(r["keepalive"], "1");
		EXPECT_EQ(r["keepidle"], "77") << "the last value set";
		EXPECT_EQ(r["keepintvl"], "13");
		EXPECT_EQ(r["keepcnt"], "5");
		EXPECT_EQ(r["sndbuf"], "131072");
		EXPECT_EQ(r["acked"], "65536");
	}
}

TEST(Preload, LocalBindSurvivesTheFallback)
{
	REQUIRE_STANDIN();
	CountServer srv;
	uint16_t local = closed_port();
	auto r = run(client(srv.port(), {"--bind-port", std::to_string(local)}), refused());
	EXPECT_EQ(r["protocol"], "6") << dump(r);
	EXPECT_EQ(r["local_port"], std::to_string(local));
	EXPECT_EQ(r["acked"], "65536");
}

TEST(Preload, PortFilterKeepsOtherConnectionsOnTcp)
{
	REQUIRE_STANDIN();
	CountServer srv;
	auto out = run(client(srv.port()), standin({{"MRCIZE_PORTS", "1-2,7"}}));
	EXPECT_EQ(out["protocol_before"], "262") << dump(out);
	EXPECT_EQ(out["protocol"], "6");
	EXPECT_EQ(out["acked"], "65536");
	EXPECT_TRUE(out.err_has("mrc_connects=0 mrc_listens=0 fallbacks=0 filtered=1 "))
	    << dump(out);
	EXPECT_FALSE(out.err_has("over TCP"));
	auto in = run(client(srv.port()),
		      standin({{"MRCIZE_PORTS", "1-2," + std::to_string(srv.port())}}));
	EXPECT_EQ(in["protocol"], "262") << dump(in);
	EXPECT_TRUE(in.err_has("mrc_connects=1 mrc_listens=0 fallbacks=0 filtered=0 "));
}

TEST(Preload, DestinationFilter)
{
	REQUIRE_STANDIN();
	CountServer srv;
	auto out = run(client(srv.port()), standin({{"MRCIZE_DST", "fd00::/8"}}));
	EXPECT_EQ(out["protocol"], "6") << dump(out);
	EXPECT_EQ(out["acked"], "65536");
	EXPECT_TRUE(out.err_has("filtered=1 ")) << dump(out);
	auto in = run(client(srv.port()), standin({{"MRCIZE_DST", "fd00::/8,::1"}}));
	EXPECT_EQ(in["protocol"], "262") << dump(in);
}

TEST(Preload, IPv4MappedDestinationStaysTcp)
{
	REQUIRE_STANDIN();
	CountServer srv;
	auto r = run(client(srv.port(), {"--addr", "::ffff:127.0.0.1"}), standin());
	EXPECT_EQ(r["protocol"], "6") << dump(r);
	EXPECT_EQ(r["connect"], "0");
	EXPECT_EQ(r["acked"], "65536");
	EXPECT_TRUE(r.err_has("fallbacks=0 filtered=1 ")) << dump(r);
}

TEST(Preload, IPv4AndDatagramSocketsAreLeftAlone)
{
	REQUIRE_STANDIN();
	auto r = run({kProg, "others"}, standin());
	EXPECT_EQ(r["inet_stream_protocol"], "6") << dump(r);
	EXPECT_EQ(r["inet6_dgram_protocol"], "17");
	EXPECT_TRUE(r.err_has(" mrc_sockets=0 mrc_connects=0 mrc_listens=0 fallbacks=0 "
			      "filtered=0 unavailable=0 ipv4=1 other=1\n"))
	    << dump(r);
}

TEST(Preload, ListenerIsConvertedOrFilteredByItsPort)
{
	REQUIRE_STANDIN();
	uint16_t port = closed_port();
	struct Case {
		Env env;
		std::vector<std::string> args;
		const char *protocol, *counters;
	} cases[] = {
	    {{}, {}, "262", "mrc_listens=1 fallbacks=0 filtered=0"},
	    {{{"MRCIZE_PORTS", std::to_string(port)}},
	     {"--port", std::to_string(port)},
	     "262",
	     "mrc_listens=1 fallbacks=0 filtered=0"},
	    // bind() to a port outside the list: TCP at bind(), with the
	    // option set before it.
	    {{{"MRCIZE_PORTS", "1"}},
	     {"--port", std::to_string(port), "--ipv6only"},
	     "6",
	     "mrc_listens=0 fallbacks=0 filtered=1"},
	    // an ephemeral port is outside any list: TCP at listen()
	    {{{"MRCIZE_PORTS", "1"}}, {}, "6", "mrc_listens=0 fallbacks=0 filtered=1"},
	};
	for (const auto &c : cases) {
		std::vector<std::string> argv = {kProg, "server"};
		argv.insert(argv.end(), c.args.begin(), c.args.end());
		Child ch(argv, standin(c.env));
		std::string line = ch.line_starting("listening ");
		auto kv = words(line);
		ASSERT_FALSE(line.empty()) << ch.finish() << ch.out() << ch.err();
		EXPECT_EQ(kv["protocol"], c.protocol) << line;
		if (c.args.size() == 3) {
			EXPECT_EQ(kv["v6only"], "1") << "IPV6_V6ONLY replayed";
		}
		// A plain TCP client reaches both (MPTCP listeners take TCP).
		int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
		sockaddr_in6 sa{};
		sa.sin6_family = AF_INET6;
		sa.sin6_port = htons(static_cast<uint16_t>(std::stoi(kv["port"])));
		inet_pton(AF_INET6, "::1", &sa.sin6_addr);
		ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr *>(&sa), sizeof(sa)), 0);
		std::string data(10000, 'x');
		ASSERT_EQ(write(fd, data.data(), data.size()), 10000);
		shutdown(fd, SHUT_WR);
		char buf[32] = {};
		ASSERT_GT(read(fd, buf, sizeof(buf) - 1), 0);
		close(fd);
		EXPECT_STREQ(buf, "10000");
		ch.finish();
		EXPECT_TRUE(words(ch.out())["received"] == "10000") << ch.out();
		EXPECT_NE(ch.err().find(c.counters), std::string::npos) << ch.err();
	}
}

TEST(Preload, MalformedEnvironmentConvertsNothing)
{
	REQUIRE_STANDIN();
	CountServer srv;
	auto r = run(client(srv.port()), standin({{"MRCIZE_PORTS", "http"}}));
	EXPECT_EQ(r["protocol"], "6") << dump(r);
	EXPECT_EQ(r["acked"], "65536");
	EXPECT_EQ(r.err, "mrcize: MRCIZE_PORTS='http': bad port or range 'http' (ports are 1 to "
			 "65535); no socket is converted\n");
}

TEST(Preload, PolicyThatCannotBeSetIsReportedOnce)
{
	REQUIRE_STANDIN();
	CountServer srv;
	// The stand-in knows no SOL_MRC: setting the policy fails as it would
	// for a policy the namespace lacks.
	auto r = run(client(srv.port()), standin({{"MRCIZE_POLICY", "fast"}}));
	EXPECT_EQ(r["protocol"], "262") << dump(r);
	EXPECT_EQ(r["acked"], "65536");
	std::string line = "mrcize: failure policy 'fast' not applied (";
	auto first = r.err.find(line);
	EXPECT_NE(first, std::string::npos) << dump(r);
	EXPECT_EQ(r.err.find(line, first + 1), std::string::npos) << "once";
}

// The launcher, end to end.

TEST(Launch, RunsTheProgramWithTheLibrary)
{
	REQUIRE_STANDIN();
	CountServer srv;
	auto r = run({MRCIZE_BIN, "run", "-v", "--ports", std::to_string(srv.port()), "--", kProg,
		      "client", "--port", std::to_string(srv.port())},
		     {{"MRCIZE_IPPROTO", "262"}});
	EXPECT_EQ(r.status, 0) << dump(r);
	EXPECT_EQ(r["protocol"], "262");
	EXPECT_EQ(r["acked"], "65536");
	EXPECT_TRUE(r.err_has("mrc_sockets=1 mrc_connects=1 ")) << dump(r);
}

TEST(Launch, KeepsAnExistingPreloadAfterTheLibrary)
{
	REQUIRE_STANDIN();
	CountServer srv;
	// The fault library comes after libmrcize.so, so the fallback works
	// through the launcher too.
	auto r =
	    run({MRCIZE_BIN, "run", "-v", kProg, "client", "--port", std::to_string(srv.port())},
		{{"MRCIZE_IPPROTO", "262"},
		 {"LD_PRELOAD", MRCIZE_FAULT},
		 {"MRCIZE_FAULT_PROTO", "262"},
		 {"MRCIZE_FAULT_ERRNO", "ECONNREFUSED"}});
	EXPECT_EQ(r.status, 0) << dump(r);
	EXPECT_EQ(r["protocol"], "6");
	EXPECT_EQ(r["acked"], "65536");
	EXPECT_TRUE(r.err_has("over TCP: ECONNREFUSED at the MRC level")) << dump(r);
	auto s = run(
	    {MRCIZE_BIN, "run", "--strict", kProg, "client", "--port", std::to_string(srv.port())},
	    {{"MRCIZE_IPPROTO", "262"},
	     {"LD_PRELOAD", MRCIZE_FAULT},
	     {"MRCIZE_FAULT_PROTO", "262"},
	     {"MRCIZE_FAULT_ERRNO", "ECONNREFUSED"}});
	EXPECT_EQ(s["connect"], "ECONNREFUSED") << dump(s);
}

TEST(Launch, ModuleNotLoaded)
{
	if (access("/sys/module/mrc", F_OK) == 0)
		GTEST_SKIP() << "the mrc module is loaded here";
	auto r = run({MRCIZE_BIN, "run", "--", kProg, "others"}, {});
	EXPECT_EQ(r.status, 3) << dump(r);
	EXPECT_EQ(r.err, "mrcize: the mrc kernel module is not loaded (modprobe mrc)\n");
	EXPECT_EQ(r.out, "");
	auto t = run({MRCIZE_BIN, "run", "--tcp-if-missing", "-v", "--", kProg, "others"}, {});
	EXPECT_EQ(t.status, 0) << dump(t);
	EXPECT_EQ(t["inet_stream_protocol"], "6");
}

TEST(Launch, RefusesStaticAndMissingCommands)
{
	auto s = run({MRCIZE_BIN, "run", "--", MRCIZE_STATIC_PROG}, {{"MRCIZE_IPPROTO", "262"}});
	EXPECT_EQ(s.status, 1);
	EXPECT_EQ(s.err, std::string("mrcize: ") + MRCIZE_STATIC_PROG +
			     " is statically linked: LD_PRELOAD cannot act on it\n");
	auto m =
	    run({MRCIZE_BIN, "run", "--", "no-such-command-mrcize"}, {{"MRCIZE_IPPROTO", "262"}});
	EXPECT_EQ(m.status, 1);
	EXPECT_EQ(m.err, "mrcize: no-such-command-mrcize: command not found\n");
	auto u = run({MRCIZE_BIN, "run", "--ports", "x", "--", kProg}, {{"MRCIZE_IPPROTO", "262"}});
	EXPECT_EQ(u.status, 2) << dump(u);
}
