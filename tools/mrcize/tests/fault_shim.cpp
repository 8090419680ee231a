// SPDX-License-Identifier: GPL-2.0
// Test only: stands for the kernel side of the contract in the
// integration tests. Preloaded after libmrcize.so, it is the connect()
// the library's dlsym(RTLD_NEXT) finds. For sockets of protocol
// MRCIZE_FAULT_PROTO (the stand-in for IPPROTO_MRC) it makes connect()
// fail as MRC would:
//   MRCIZE_FAULT_ERRNO=ENAME  fail at once with that errno;
//   MRCIZE_FAULT_PORT=N       connect to port N of the same address
//                             instead (a closed port: a real
//                             ECONNREFUSED; a full listener: no answer).
// Other sockets are left alone.
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include <dlfcn.h>
#include <netinet/in.h>
#include <sys/socket.h>

namespace {

using ConnectFn = int (*)(int, const sockaddr *, socklen_t);

int env_int(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? atoi(v) : -1;
}

int errno_by_name(const char *name)
{
	for (int e = 1; e < 200; e++) {
		const char *n = strerrorname_np(e);
		if (n && strcmp(n, name) == 0)
			return e;
	}
	return EIO;
}

} // namespace

extern "C" __attribute__((visibility("default"))) int connect(int fd, const sockaddr *addr,
							      socklen_t len)
{
	static auto next = reinterpret_cast<ConnectFn>(dlsym(RTLD_NEXT, "connect"));
	int proto = 0;
	socklen_t pl = sizeof(proto);
	int want = env_int("MRCIZE_FAULT_PROTO");
	if (want < 0 || getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &pl) < 0 || proto != want ||
	    !addr || addr->sa_family != AF_INET6 || len < sizeof(sockaddr_in6))
		return next(fd, addr, len);
	if (const char *e = getenv("MRCIZE_FAULT_ERRNO"); e && *e) {
		errno = errno_by_name(e);
		return -1;
	}
	int port = env_int("MRCIZE_FAULT_PORT");
	if (port < 0)
		return next(fd, addr, len);
	sockaddr_in6 sa;
	std::memcpy(&sa, addr, sizeof(sa));
	sa.sin6_port = htons(static_cast<uint16_t>(port));
	return next(fd, reinterpret_cast<const sockaddr *>(&sa), sizeof(sa));
}
