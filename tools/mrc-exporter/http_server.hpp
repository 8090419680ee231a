// SPDX-License-Identifier: GPL-2.0
// mrc-exporter: the smallest HTTP/1.x server that serves a scrape: one
// request per connection, answered and closed, one client at a time.
#pragma once

#include <functional>
#include <string>

namespace mrc_exporter {

struct Request {
	std::string method; ///< "GET"
	std::string target; ///< "/metrics"
	std::string accept; ///< the Accept header ("" when absent)
};

struct Response {
	int status = 200;
	std::string content_type = "text/plain; charset=utf-8";
	std::string body;
};

/// Split "[ADDR]:PORT", "ADDR:PORT" (IPv4) or ":PORT" (every address);
/// throws std::runtime_error with the reason.
void parse_listen(const std::string &spec, std::string &host, std::string &port);

/// Parse a request's head (up to the empty line); false if malformed.
bool parse_request(const std::string &head, Request &req);

/// The status line, headers and body of @r.
std::string format_response(const Response &r);

class Server {
public:
	/// Listen on @spec (parse_listen()); throws std::runtime_error.
	explicit Server(const std::string &spec);
	~Server();
	Server(const Server &) = delete;
	Server &operator=(const Server &) = delete;

	/// Answer requests with @handler until SIGTERM or SIGINT arrives
	/// (both are blocked and read from a signalfd).
	void run(const std::function<Response(const Request &)> &handler);

private:
	void serve_one(int fd, const std::function<Response(const Request &)> &handler);
	int listen_fd_ = -1;
	int signal_fd_ = -1;
};

} // namespace mrc_exporter
