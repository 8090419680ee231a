// SPDX-License-Identifier: GPL-2.0
// mrc-exporter: a minimal HTTP server (http_server.hpp).
#include "http_server.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <netinet/in.h>

namespace mrc_exporter {

namespace {

// A client gets this long to send its request, and no more bytes.
constexpr int kRequestTimeoutMs = 5000;
constexpr size_t kMaxHead = 16384;

std::runtime_error sys_error(const std::string &what)
{
	return std::runtime_error(what + ": " + std::strerror(errno));
}

const char *reason(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 400:
		return "Bad Request";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	default:
		return "Internal Server Error";
	}
}

std::string lower(std::string s)
{
	for (char &c : s)
		c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
	return s;
}

} // namespace

void parse_listen(const std::string &spec, std::string &host, std::string &port)
{
	size_t colon;
	if (!spec.empty() && spec[0] == '[') {
		size_t close = spec.find(']');
		if (close == std::string::npos || close + 1 >= spec.size() ||
		    spec[close + 1] != ':')
			throw std::runtime_error("listen address '" + spec +
						 "': expected [ADDR]:PORT");
		host = spec.substr(1, close - 1);
		colon = close + 1;
	} else {
		colon = spec.rfind(':');
		if (colon == std::string::npos)
			throw std::runtime_error("listen address '" + spec +
						 "': expected [ADDR]:PORT, ADDR:PORT or :PORT");
		host = spec.substr(0, colon);
		if (host.find(':') != std::string::npos)
			throw std::runtime_error("listen address '" + spec +
						 "': put an IPv6 address in brackets");
	}
	port = spec.substr(colon + 1);
	if (port.empty() || port.find_first_not_of("0123456789") != std::string::npos ||
	    std::stoul(port) > 65535)
		throw std::runtime_error("listen address '" + spec + "': bad port '" + port + "'");
}

bool parse_request(const std::string &head, Request &req)
{
	size_t eol = head.find("\r\n");
	std::string line = head.substr(0, eol);
	size_t sp1 = line.find(' ');
	size_t sp2 = line.find(' ', sp1 == std::string::npos ? sp1 : sp1 + 1);
	if (sp1 == std::string::npos || sp2 == std::string::npos ||
	    line.compare(sp2 + 1, 5, "HTTP/") != 0)
		return false;
	req.method = line.substr(0, sp1);
	req.target = line.substr(sp1 + 1, sp2 - sp1 - 1);
	while (eol != std::string::npos) {
		size_t start = eol + 2;
		eol = head.find("\r\n", start);
		std::string h = head.substr(start, eol == std::string::npos ? eol : eol - start);
		size_t c = h.find(':');
		if (c != std::string::npos && lower(h.substr(0, c)) == "accept")
			req.accept = h.substr(h.find_first_not_of(' ', c + 1) == std::string::npos
						  ? h.size()
						  : h.find_first_not_of(' ', c + 1));
	}
	return true;
}

std::string format_response(const Response &r)
{
	return "HTTP/1.1 " + std::to_string(r.status) + " " + reason(r.status) +
	       "\r\nContent-Type: " + r.content_type +
	       "\r\nContent-Length: " + std::to_string(r.body.size()) +
	       "\r\nConnection: close\r\n\r\n" + r.body;
}

Server::Server(const std::string &spec)
{
	std::string host, port;
	parse_listen(spec, host, port);
	addrinfo hints{}, *res = nullptr;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV;
	hints.ai_family = host.empty() ? AF_INET6 : AF_UNSPEC;
	int rc = getaddrinfo(host.empty() ? nullptr : host.c_str(), port.c_str(), &hints, &res);
	if (rc)
		throw std::runtime_error("listen address '" + spec + "': " + gai_strerror(rc));
	listen_fd_ = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (listen_fd_ < 0) {
		freeaddrinfo(res);
		throw sys_error("socket");
	}
	int one = 1, zero = 0;
	setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (res->ai_family == AF_INET6 && host.empty())
		setsockopt(listen_fd_, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	rc = bind(listen_fd_, res->ai_addr, res->ai_addrlen);
	freeaddrinfo(res);
	if (rc < 0 || listen(listen_fd_, 16) < 0) {
		auto e = sys_error("listen on " + spec);
		close(listen_fd_);
		throw e;
	}
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, nullptr);
	signal(SIGPIPE, SIG_IGN);
	signal_fd_ = signalfd(-1, &set, SFD_CLOEXEC);
	if (signal_fd_ < 0) {
		auto e = sys_error("signalfd");
		close(listen_fd_);
		throw e;
	}
}

Server::~Server()
{
	close(listen_fd_);
	close(signal_fd_);
}

void Server::run(const std::function<Response(const Request &)> &handler)
{
	for (;;) {
		pollfd p[2] = {{signal_fd_, POLLIN, 0}, {listen_fd_, POLLIN, 0}};
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			throw sys_error("poll");
		}
		if (p[0].revents)
			return;
		int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		serve_one(fd, handler);
		close(fd);
	}
}

void Server::serve_one(int fd, const std::function<Response(const Request &)> &handler)
{
	std::string head;
	char buf[2048];
	while (head.find("\r\n\r\n") == std::string::npos) {
		pollfd p = {fd, POLLIN, 0};
		if (head.size() > kMaxHead || poll(&p, 1, kRequestTimeoutMs) <= 0)
			return;
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		if (n <= 0)
			return;
		head.append(buf, static_cast<size_t>(n));
	}
	Request req;
	Response r;
	if (!parse_request(head, req)) {
		r.status = 400;
		r.body = "malformed request\n";
	} else {
		r = handler(req);
	}
	std::string out = format_response(r);
	for (size_t off = 0; off < out.size();) {
		ssize_t n = send(fd, out.data() + off, out.size() - off, MSG_NOSIGNAL);
		if (n <= 0)
			return;
		off += static_cast<size_t>(n);
	}
}

} // namespace mrc_exporter
