// SPDX-License-Identifier: GPL-2.0
// libmrcize.so: loaded with LD_PRELOAD, it turns a program's IPv6 TCP
// sockets into MRC sockets (socket(AF_INET6, SOCK_STREAM, IPPROTO_MRC)),
// keeps the ones outside the filters on TCP and falls back to TCP, per
// connection, when MRC cannot reach the peer. See mrcize(8).
//
// Every interposer calls the next definition (dlsym(RTLD_NEXT)) for the
// real work. No exception leaves this file. Per-fd state lives in one map
// under a mutex that is never held across a blocking call; fork() takes
// it first (pthread_atfork), and a signal handler that re-enters an
// interposer on the same thread goes straight to the real call.
#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/mrc.h>

#include "config.hpp"
#include "sockopt_log.hpp"

#define MRCIZE_EXPORT extern "C" __attribute__((visibility("default")))

namespace mrcize {
namespace {

using SocketFn = int (*)(int, int, int);
using BindFn = int (*)(int, const sockaddr *, socklen_t);
using ListenFn = int (*)(int, int);
using ConnectFn = int (*)(int, const sockaddr *, socklen_t);
using EpollCtlFn = int (*)(int, int, int, epoll_event *);

// Used when dlsym finds no next definition (it always should).
int sys_socket(int d, int t, int p)
{
	return static_cast<int>(syscall(SYS_socket, d, t, p));
}
int sys_bind(int fd, const sockaddr *a, socklen_t l)
{
	return static_cast<int>(syscall(SYS_bind, fd, a, l));
}
int sys_listen(int fd, int b)
{
	return static_cast<int>(syscall(SYS_listen, fd, b));
}
int sys_connect(int fd, const sockaddr *a, socklen_t l)
{
	return static_cast<int>(syscall(SYS_connect, fd, a, l));
}
int sys_setsockopt(int fd, int lv, int n, const void *v, socklen_t l)
{
	return static_cast<int>(syscall(SYS_setsockopt, fd, lv, n, v, l));
}
int sys_epoll_ctl(int ep, int op, int fd, epoll_event *ev)
{
	return static_cast<int>(syscall(SYS_epoll_ctl, ep, op, fd, ev));
}

struct Real {
	SocketFn socket = sys_socket;
	BindFn bind = sys_bind;
	ListenFn listen = sys_listen;
	ConnectFn connect = sys_connect;
	SetsockoptFn setsockopt = sys_setsockopt;
	EpollCtlFn epoll_ctl = sys_epoll_ctl;
};

// Fallback reasons, in the order of the summary.
enum Reason { kRefused, kTimedOut, kHostUnreach, kNetUnreach, kAfNoSupport, kDeadline, kReasons };

const char *const kReasonNames[kReasons] = {"ECONNREFUSED", "ETIMEDOUT",    "EHOSTUNREACH",
					    "ENETUNREACH",  "EAFNOSUPPORT", "deadline"};

struct Counters {
	std::atomic<unsigned long> mrc_sockets{0}, mrc_connects{0}, mrc_listens{0}, filtered{0},
	    unavailable{0}, ipv4{0}, other{0};
	std::atomic<unsigned long> fallback[kReasons] = {};

	void reset()
	{
		for (auto *c : {&mrc_sockets, &mrc_connects, &mrc_listens, &filtered, &unavailable,
				&ipv4, &other})
			c->store(0);
		for (auto &c : fallback)
			c.store(0);
	}
};

struct EpollReg {
	int epfd;
	epoll_event ev;
};

// An MRC socket whose fate is not decided yet (no listen or connect).
struct FdState {
	dev_t dev = 0;
	ino_t ino = 0;
	int protocol = 0; // what the program asked for: 0 or IPPROTO_TCP
	OptionLog opts;
	bool bound = false;
	sockaddr_in6 local{};
	std::vector<EpollReg> epolls;
};

struct Global {
	Real real;
	bool enabled = false;
	int proto = kIpprotoDefault;
	Config cfg;
	Counters n;
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	std::unordered_map<int, FdState> fds; // under lock
	std::atomic<size_t> tracked{0};       // fds.size(), read without lock
	std::atomic<bool> said_unavailable{false}, said_policy{false}, said_accept_tcp{false};
};

// Never destroyed: interposers may run during and after exit().
Global &g()
{
	static Global *gl = new Global;
	return *gl;
}

// Set while this thread is inside the library (with initial-exec TLS, so
// reading it is async-signal-safe in a preloaded library).
__attribute__((tls_model("initial-exec"))) thread_local bool t_inside = false;

class Inside {
public:
	Inside() : was_(t_inside) { t_inside = true; }
	~Inside() { t_inside = was_; }
	Inside(const Inside &) = delete;
	Inside &operator=(const Inside &) = delete;
	bool reentered() const { return was_; }

private:
	bool was_;
};

class Locked {
public:
	Locked() { pthread_mutex_lock(&g().lock); }
	~Locked() { pthread_mutex_unlock(&g().lock); }
	Locked(const Locked &) = delete;
	Locked &operator=(const Locked &) = delete;
};

// One line to stderr, in one write().
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void say(const char *fmt, ...)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "mrcize: ");
	va_list ap;
	va_start(ap, fmt);
	int m = vsnprintf(buf + n, sizeof(buf) - n - 1, fmt, ap);
	va_end(ap);
	size_t len = static_cast<size_t>(n) + (m < 0 ? 0 : static_cast<size_t>(m));
	if (len > sizeof(buf) - 2)
		len = sizeof(buf) - 2;
	buf[len++] = '\n';
	ssize_t w = write(STDERR_FILENO, buf, len);
	(void)w;
}

template <typename Fn> Fn next(const char *name, Fn dflt)
{
	void *p = dlsym(RTLD_NEXT, name);
	return p ? reinterpret_cast<Fn>(p) : dflt;
}

int read_ipproto_param()
{
	int fd = open(kIpprotoParam, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	char buf[32];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	return parse_ipproto_param(std::string_view(buf, static_cast<size_t>(n)));
}

void atfork_prepare()
{
	pthread_mutex_lock(&g().lock);
}
void atfork_parent()
{
	pthread_mutex_unlock(&g().lock);
}
void atfork_child()
{
	pthread_mutex_unlock(&g().lock);
	g().n.reset(); // counters are per process
}

void init_once()
{
	Inside in;
	Global &gl = g();
	gl.real.socket = next<SocketFn>("socket", sys_socket);
	gl.real.bind = next<BindFn>("bind", sys_bind);
	gl.real.listen = next<ListenFn>("listen", sys_listen);
	gl.real.connect = next<ConnectFn>("connect", sys_connect);
	gl.real.setsockopt = next<SetsockoptFn>("setsockopt", sys_setsockopt);
	gl.real.epoll_ctl = next<EpollCtlFn>("epoll_ctl", sys_epoll_ctl);
	try {
		gl.cfg = config_from_env([](const char *name) { return getenv(name); });
	} catch (const ConfigError &e) {
		say("%s; no socket is converted", e.what());
		return;
	} catch (...) {
		say("cannot read the configuration; no socket is converted");
		return;
	}
	if (gl.cfg.ipproto) {
		gl.proto = *gl.cfg.ipproto;
	} else {
		int p = read_ipproto_param();
		gl.proto = p > 0 ? p : kIpprotoDefault;
	}
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
	gl.enabled = true;
}

pthread_once_t g_once = PTHREAD_ONCE_INIT;

Global &ready()
{
	pthread_once(&g_once, init_once);
	return g();
}

__attribute__((constructor)) void mrcize_init()
{
	ready();
}

void print_summary()
{
	Global &gl = g();
	if (!gl.enabled || !gl.cfg.verbose)
		return;
	std::string reasons;
	unsigned long total = 0;
	for (int i = 0; i < kReasons; i++) {
		unsigned long v = gl.n.fallback[i].load();
		total += v;
		if (v)
			reasons += std::string(reasons.empty() ? " [" : " ") + kReasonNames[i] +
				   "=" + std::to_string(v);
	}
	if (!reasons.empty())
		reasons += "]";
	say("summary (pid %d): mrc_sockets=%lu mrc_connects=%lu mrc_listens=%lu "
	    "fallbacks=%lu%s filtered=%lu unavailable=%lu ipv4=%lu other=%lu",
	    static_cast<int>(getpid()), gl.n.mrc_sockets.load(), gl.n.mrc_connects.load(),
	    gl.n.mrc_listens.load(), total, reasons.c_str(), gl.n.filtered.load(),
	    gl.n.unavailable.load(), gl.n.ipv4.load(), gl.n.other.load());
}

__attribute__((destructor)) void mrcize_fini()
{
	try {
		Inside in;
		print_summary();
	} catch (...) {
	}
}

bool same_file(int fd, const FdState &st)
{
	struct stat sb;
	return fstat(fd, &sb) == 0 && sb.st_dev == st.dev && sb.st_ino == st.ino;
}

// The state of @fd if it is an undecided MRC socket; drops state left by
// an fd number that was closed and reused behind the library's back.
// Call with the lock held.
FdState *lookup(int fd)
{
	Global &gl = g();
	auto it = gl.fds.find(fd);
	if (it == gl.fds.end())
		return nullptr;
	if (!same_file(fd, it->second)) {
		gl.fds.erase(it);
		gl.tracked = gl.fds.size();
		return nullptr;
	}
	return &it->second;
}

// Take @fd's state out of the map (it is decided now).
bool take(int fd, FdState &out)
{
	Global &gl = g();
	if (gl.tracked.load() == 0)
		return false;
	Locked l;
	FdState *st = lookup(fd);
	if (!st)
		return false;
	out = std::move(*st);
	gl.fds.erase(fd);
	gl.tracked = gl.fds.size();
	return true;
}

// Put it back (nothing decided after all).
void put_back(int fd, FdState &&st)
{
	Global &gl = g();
	Locked l;
	gl.fds[fd] = std::move(st);
	gl.tracked = gl.fds.size();
}

// Replace the MRC socket behind @fd by a TCP socket with the same flags
// and options (and the same local address when @rebind and the program
// bound it). Returns 0, or -1 with errno set and @fd unchanged.
int swap_to_tcp(int fd, const FdState &st, bool rebind)
{
	Global &gl = g();
	int fl = fcntl(fd, F_GETFL);
	int fdfl = fcntl(fd, F_GETFD);
	if (fl < 0 || fdfl < 0)
		return -1;
	int nfd = gl.real.socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, st.protocol);
	if (nfd < 0)
		return -1;
	if ((fl & O_NONBLOCK) && fcntl(nfd, F_SETFL, O_NONBLOCK) < 0)
		goto fail;
	st.opts.replay(nfd, gl.real.setsockopt);
	if (rebind && st.bound) {
		// The port the socket really has (bind() may have asked for 0,
		// and the program may have told its peers what it got).
		sockaddr_in6 local = st.local;
		socklen_t ll = sizeof(local);
		if (getsockname(fd, reinterpret_cast<sockaddr *>(&local), &ll) < 0 ||
		    local.sin6_family != AF_INET6)
			local = st.local;
		// A bound MRC socket holds its port in TCP's space too
		// (MRC_SO_ACCEPT_TCP): give it back before TCP binds it.
		int zero = 0;
		gl.real.setsockopt(fd, SOL_MRC, MRC_SO_ACCEPT_TCP, &zero, sizeof(zero));
		if (gl.real.bind(nfd, reinterpret_cast<const sockaddr *>(&local), sizeof(local)) <
		    0)
			goto fail;
	}
	if (dup3(nfd, fd, (fdfl & FD_CLOEXEC) ? O_CLOEXEC : 0) < 0)
		goto fail;
	close(nfd);
	// The old file left every epoll set with its last reference: put
	// the new one where the program had put the old.
	for (const auto &r : st.epolls) {
		epoll_event ev = r.ev;
		gl.real.epoll_ctl(r.epfd, EPOLL_CTL_ADD, fd, &ev);
	}
	return 0;
fail:
	int e = errno;
	close(nfd);
	errno = e;
	return -1;
}

Reason reason_of(int err)
{
	switch (err) {
	case ECONNREFUSED:
		return kRefused;
	case ETIMEDOUT:
		return kTimedOut;
	case EHOSTUNREACH:
		return kHostUnreach;
	case ENETUNREACH:
		return kNetUnreach;
	case EAFNOSUPPORT:
		return kAfNoSupport;
	default:
		return kDeadline;
	}
}

long now_ms()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

// Connect @fd over MRC within @deadline_ms, whatever the program's
// O_NONBLOCK: a non-blocking connect, then poll() for POLLOUT and
// SO_ERROR (the kernel's documented non-blocking behaviour). Returns 0 if
// connected, else the errno; EINPROGRESS when the deadline passed first.
// The socket's flags are as the program left them on return.
int attempt_mrc(int fd, const sockaddr *addr, socklen_t len, int flags, long deadline_ms)
{
	Global &gl = g();
	if (!(flags & O_NONBLOCK) && fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
		return errno;
	int err = 0;
	if (gl.real.connect(fd, addr, len) < 0) {
		err = errno;
		if (err == EINPROGRESS) {
			long end = now_ms() + deadline_ms;
			for (;;) {
				pollfd p = {fd, POLLOUT, 0};
				long left = end - now_ms();
				int r = left > 0 ? poll(&p, 1, static_cast<int>(left)) : 0;
				if (r < 0 && errno == EINTR)
					continue;
				if (r <= 0)
					break; // deadline: still EINPROGRESS
				socklen_t sl = sizeof(err);
				if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &sl) < 0)
					err = errno;
				break;
			}
		}
	}
	if (!(flags & O_NONBLOCK))
		fcntl(fd, F_SETFL, flags);
	return err;
}

// The program's SO_SNDTIMEO in ms (0: none).
long sndtimeo_ms(int fd)
{
	timeval tv{};
	socklen_t sl = sizeof(tv);
	if (getsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, &sl) < 0)
		return 0;
	return tv.tv_sec * 1000L + (tv.tv_usec + 999) / 1000;
}

int do_connect(int fd, const sockaddr *addr, socklen_t len)
{
	Global &gl = g();
	if (!addr || addr->sa_family != AF_INET6 || len < sizeof(sockaddr_in6))
		return gl.real.connect(fd, addr, len);
	FdState st;
	if (!take(fd, st))
		return gl.real.connect(fd, addr, len);
	sockaddr_in6 remote;
	std::memcpy(&remote, addr, sizeof(remote));

	if (decide_connect(gl.cfg, remote) == Verdict::kTcp) {
		if (swap_to_tcp(fd, st, true) < 0) {
			int e = errno;
			if (gl.cfg.verbose)
				say("%s: cannot switch to TCP: %s", format_endpoint(remote).c_str(),
				    errno_name(e).c_str());
			errno = e;
			return -1;
		}
		gl.n.filtered++;
		return gl.real.connect(fd, addr, len);
	}

	if (gl.cfg.strict) {
		int r = gl.real.connect(fd, addr, len);
		if (r == 0 || errno == EINPROGRESS)
			gl.n.mrc_connects++;
		return r;
	}

	int flags = fcntl(fd, F_GETFL);
	if (flags < 0)
		return -1;
	long deadline = gl.cfg.connect_timeout_ms;
	if (!(flags & O_NONBLOCK)) {
		long t = sndtimeo_ms(fd);
		if (t > 0 && t < deadline)
			deadline = t;
	}
	int err = attempt_mrc(fd, addr, len, flags, deadline);
	if (err == 0) {
		gl.n.mrc_connects++;
		return 0;
	}
	if (err != EINPROGRESS && !is_fallback_errno(err)) {
		errno = err;
		return -1;
	}
	// Fall back: a new TCP socket on the same fd, then the program's own
	// connect() on it with its own flags.
	if (swap_to_tcp(fd, st, true) < 0) {
		int e = errno;
		if (gl.cfg.verbose)
			say("%s: no MRC (%s) and cannot switch to TCP: %s",
			    format_endpoint(remote).c_str(), errno_name(err).c_str(),
			    errno_name(e).c_str());
		errno = err == EINPROGRESS ? ETIMEDOUT : err;
		return -1;
	}
	gl.n.fallback[reason_of(err)]++;
	int r = gl.real.connect(fd, addr, len);
	int tcp_err = r < 0 ? errno : 0;
	if (gl.cfg.verbose) {
		// Said once TCP's answer is known: a client that connects before
		// its server listens is refused by both, and its retry may well
		// go over MRC; "over TCP" names only connections that are.
		std::string mrc = err == EINPROGRESS ? "no answer at the MRC level within " +
							   std::to_string(deadline) + " ms"
						     : errno_name(err) + " at the MRC level";
		if (tcp_err == 0 || tcp_err == EINPROGRESS || tcp_err == EINTR)
			say("%s over TCP: %s", format_endpoint(remote).c_str(), mrc.c_str());
		else
			say("%s: %s, and TCP's connect failed too (%s)",
			    format_endpoint(remote).c_str(), mrc.c_str(),
			    errno_name(tcp_err).c_str());
	}
	errno = tcp_err;
	return r;
}

int do_socket(int domain, int type, int protocol)
{
	Global &gl = g();
	int base = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (domain == AF_INET) {
		gl.n.ipv4++;
		return gl.real.socket(domain, type, protocol);
	}
	if (domain != AF_INET6)
		return gl.real.socket(domain, type, protocol);
	if (base != SOCK_STREAM || (protocol != 0 && protocol != IPPROTO_TCP)) {
		gl.n.other++;
		return gl.real.socket(domain, type, protocol);
	}
	int fd = gl.real.socket(AF_INET6, type, gl.proto);
	if (fd < 0) {
		int e = errno;
		if (gl.cfg.strict) {
			errno = e;
			return -1;
		}
		fd = gl.real.socket(domain, type, protocol);
		if (fd < 0)
			return -1;
		gl.n.unavailable++;
		if (gl.cfg.verbose && !gl.said_unavailable.exchange(true))
			say("cannot create MRC sockets (protocol %d: %s): using TCP", gl.proto,
			    errno_name(e).c_str());
		return fd;
	}
	if (!gl.cfg.policy.empty() &&
	    gl.real.setsockopt(fd, SOL_MRC, MRC_SO_POLICY, gl.cfg.policy.c_str(),
			       static_cast<socklen_t>(gl.cfg.policy.size())) < 0) {
		int e = errno;
		if (gl.cfg.verbose && !gl.said_policy.exchange(true))
			say("failure policy '%s' not applied (%s): sockets keep the default policy",
			    gl.cfg.policy.c_str(), errno_name(e).c_str());
	}
	// Clients without MRC still reach the program: should this socket
	// listen, it also accepts plain TCP on its port (the kernel's
	// MRC_SO_ACCEPT_TCP), unless --strict wants MRC only. Set now, so that
	// a TCP port in use fails the program's bind(), where it can try
	// another port, rather than its listen().
	if (!gl.cfg.strict) {
		int one = 1;
		if (gl.real.setsockopt(fd, SOL_MRC, MRC_SO_ACCEPT_TCP, &one, sizeof(one)) < 0 &&
		    gl.cfg.verbose && !gl.said_accept_tcp.exchange(true))
			say("listeners accept MRC only (MRC_SO_ACCEPT_TCP: %s)",
			    errno_name(errno).c_str());
	}
	FdState st;
	struct stat sb;
	if (fstat(fd, &sb) == 0) {
		st.dev = sb.st_dev;
		st.ino = sb.st_ino;
	}
	st.protocol = protocol;
	{
		Locked l;
		gl.fds[fd] = std::move(st);
		gl.tracked = gl.fds.size();
	}
	gl.n.mrc_sockets++;
	return fd;
}

int do_bind(int fd, const sockaddr *addr, socklen_t len)
{
	Global &gl = g();
	if (!addr || addr->sa_family != AF_INET6 || len < sizeof(sockaddr_in6))
		return gl.real.bind(fd, addr, len);
	FdState st;
	if (!take(fd, st))
		return gl.real.bind(fd, addr, len);
	sockaddr_in6 local;
	std::memcpy(&local, addr, sizeof(local));
	if (decide_bind(gl.cfg, local) == Verdict::kTcp) {
		if (swap_to_tcp(fd, st, false) < 0) {
			put_back(fd, std::move(st));
			return -1;
		}
		gl.n.filtered++;
		return gl.real.bind(fd, addr, len);
	}
	int r = gl.real.bind(fd, addr, len);
	int e = errno;
	if (r == 0) {
		st.bound = true;
		st.local = local;
	}
	put_back(fd, std::move(st));
	errno = e;
	return r;
}

int do_listen(int fd, int backlog)
{
	Global &gl = g();
	FdState st;
	if (!take(fd, st))
		return gl.real.listen(fd, backlog);
	sockaddr_in6 local{};
	socklen_t sl = sizeof(local);
	uint16_t port = 0;
	if (getsockname(fd, reinterpret_cast<sockaddr *>(&local), &sl) == 0 &&
	    local.sin6_family == AF_INET6)
		port = ntohs(local.sin6_port);
	if (decide_listen(gl.cfg, port) == Verdict::kTcp) {
		if (swap_to_tcp(fd, st, true) < 0) {
			int e = errno;
			put_back(fd, std::move(st));
			errno = e;
			return -1;
		}
		gl.n.filtered++;
		return gl.real.listen(fd, backlog);
	}
	int r = gl.real.listen(fd, backlog);
	int e = errno;
	if (r == 0)
		gl.n.mrc_listens++;
	else
		put_back(fd, std::move(st));
	errno = e;
	return r;
}

void note_setsockopt(int fd, int level, int name, const void *value, socklen_t len)
{
	Global &gl = g();
	if (level == SOL_MRC || gl.tracked.load() == 0)
		return;
	Locked l;
	if (FdState *st = lookup(fd))
		st->opts.record(level, name, value, len);
}

void note_epoll_ctl(int epfd, int op, int fd, const epoll_event *ev)
{
	Global &gl = g();
	if (gl.tracked.load() == 0)
		return;
	Locked l;
	FdState *st = lookup(fd);
	if (!st)
		return;
	auto &v = st->epolls;
	for (auto it = v.begin(); it != v.end(); ++it) {
		if (it->epfd != epfd)
			continue;
		if (op == EPOLL_CTL_DEL)
			v.erase(it);
		else if (ev)
			it->ev = *ev;
		return;
	}
	if (op == EPOLL_CTL_ADD && ev)
		v.push_back({epfd, *ev});
}

} // namespace
} // namespace mrcize

using mrcize::Inside;
using mrcize::ready;

MRCIZE_EXPORT int socket(int domain, int type, int protocol)
{
	Inside in;
	auto &gl = ready();
	if (!gl.enabled || in.reentered())
		return gl.real.socket(domain, type, protocol);
	try {
		return mrcize::do_socket(domain, type, protocol);
	} catch (...) {
		return gl.real.socket(domain, type, protocol);
	}
}

MRCIZE_EXPORT int bind(int fd, const sockaddr *addr, socklen_t len)
{
	Inside in;
	auto &gl = ready();
	if (!gl.enabled || in.reentered())
		return gl.real.bind(fd, addr, len);
	try {
		return mrcize::do_bind(fd, addr, len);
	} catch (...) {
		return gl.real.bind(fd, addr, len);
	}
}

MRCIZE_EXPORT int listen(int fd, int backlog)
{
	Inside in;
	auto &gl = ready();
	if (!gl.enabled || in.reentered())
		return gl.real.listen(fd, backlog);
	try {
		return mrcize::do_listen(fd, backlog);
	} catch (...) {
		return gl.real.listen(fd, backlog);
	}
}

MRCIZE_EXPORT int connect(int fd, const sockaddr *addr, socklen_t len)
{
	Inside in;
	auto &gl = ready();
	if (!gl.enabled || in.reentered())
		return gl.real.connect(fd, addr, len);
	try {
		return mrcize::do_connect(fd, addr, len);
	} catch (...) {
		return gl.real.connect(fd, addr, len);
	}
}

MRCIZE_EXPORT int setsockopt(int fd, int level, int name, const void *value, socklen_t len)
{
	Inside in;
	auto &gl = ready();
	int r = gl.real.setsockopt(fd, level, name, value, len);
	if (r != 0 || !gl.enabled || in.reentered())
		return r;
	int e = errno;
	try {
		mrcize::note_setsockopt(fd, level, name, value, len);
	} catch (...) {
	}
	errno = e;
	return r;
}

MRCIZE_EXPORT int epoll_ctl(int epfd, int op, int fd, epoll_event *ev)
{
	Inside in;
	auto &gl = ready();
	int r = gl.real.epoll_ctl(epfd, op, fd, ev);
	if (r != 0 || !gl.enabled || in.reentered())
		return r;
	int e = errno;
	try {
		mrcize::note_epoll_ctl(epfd, op, fd, ev);
	} catch (...) {
	}
	errno = e;
	return r;
}
