// SPDX-License-Identifier: GPL-2.0
// mrc-exporter's HTTP parsing: listen addresses, requests, responses.
#include <gtest/gtest.h>

#include <stdexcept>

#include "http_server.hpp"

using mrc_exporter::parse_listen;
using mrc_exporter::parse_request;

TEST(Listen, Forms)
{
	std::string h, p;
	parse_listen("[::1]:9880", h, p);
	EXPECT_EQ(h, "::1");
	EXPECT_EQ(p, "9880");
	parse_listen("127.0.0.1:80", h, p);
	EXPECT_EQ(h, "127.0.0.1");
	EXPECT_EQ(p, "80");
	parse_listen(":9880", h, p);
	EXPECT_EQ(h, "");
	EXPECT_EQ(p, "9880");
}

TEST(Listen, Errors)
{
	std::string h, p;
	EXPECT_THROW(parse_listen("9880", h, p), std::runtime_error);
	EXPECT_THROW(parse_listen("::1:9880", h, p), std::runtime_error);
	EXPECT_THROW(parse_listen("[::1]9880", h, p), std::runtime_error);
	EXPECT_THROW(parse_listen("[::1]:", h, p), std::runtime_error);
	EXPECT_THROW(parse_listen("[::1]:70000", h, p), std::runtime_error);
	EXPECT_THROW(parse_listen("[::1]:http", h, p), std::runtime_error);
}

TEST(Request, GetWithAccept)
{
	mrc_exporter::Request r;
	ASSERT_TRUE(parse_request("GET /metrics HTTP/1.1\r\nHost: x\r\nACCEPT:  "
				  "application/openmetrics-text;version=1.0.0\r\n\r\n",
				  r));
	EXPECT_EQ(r.method, "GET");
	EXPECT_EQ(r.target, "/metrics");
	EXPECT_EQ(r.accept, "application/openmetrics-text;version=1.0.0");
}

TEST(Request, Malformed)
{
	mrc_exporter::Request r;
	EXPECT_FALSE(parse_request("GET\r\n\r\n", r));
	EXPECT_FALSE(parse_request("GET /metrics\r\n\r\n", r));
	EXPECT_FALSE(parse_request("GET /metrics FTP/1.0\r\n\r\n", r));
	ASSERT_TRUE(parse_request("GET / HTTP/1.0\r\n\r\n", r));
	EXPECT_EQ(r.accept, "");
}

TEST(Response, Format)
{
	mrc_exporter::Response r;
	r.status = 404;
	r.body = "no\n";
	EXPECT_EQ(mrc_exporter::format_response(r),
		  "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\n"
		  "Content-Length: 3\r\nConnection: close\r\n\r\nno\n");
}
