// SPDX-License-Identifier: GPL-2.0
// mrc-exporter: serves MRC's metrics (libmrc's renderer, the same text as
// `mrcctl stats -o prometheus|openmetrics`) on GET /metrics, for one or
// more network namespaces. Documentation/metrics.md.
#include "http_server.hpp"

#include <cerrno>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include <mrc/metrics.hpp>

namespace {

// The caller's namespace, restored after each visit of another.
class NetnsVisit {
public:
	explicit NetnsVisit(const std::string &name)
	{
		home_ = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
		if (home_ < 0)
			throw std::runtime_error(std::string("/proc/self/ns/net: ") +
						 std::strerror(errno));
		std::string path = "/run/netns/" + name;
		int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
		if (fd < 0 || setns(fd, CLONE_NEWNET) < 0) {
			std::string e = path + ": " + std::strerror(errno);
			if (fd >= 0)
				close(fd);
			close(home_);
			throw std::runtime_error(e);
		}
		close(fd);
	}
	~NetnsVisit()
	{
		if (setns(home_, CLONE_NEWNET) < 0) {
			std::cerr << "mrc-exporter: cannot return to its namespace: "
				  << std::strerror(errno) << '\n';
			std::abort();
		}
		close(home_);
	}
	NetnsVisit(const NetnsVisit &) = delete;
	NetnsVisit &operator=(const NetnsVisit &) = delete;

private:
	int home_ = -1;
};

// One namespace's figures. The netlink socket is opened in the namespace
// (a socket stays in the namespace it was made in) at every scrape, so a
// module loaded after the exporter started is found.
mrc::metrics::Snapshot scrape(const std::string &netns, const std::string &label)
{
	std::unique_ptr<mrc::Client> client;
	try {
		if (netns.empty()) {
			client = std::make_unique<mrc::Client>();
		} else {
			NetnsVisit v(netns);
			client = std::make_unique<mrc::Client>();
		}
	} catch (const std::exception &e) {
		mrc::metrics::Snapshot s;
		s.netns = label;
		s.error = e.what();
		return s;
	}
	return mrc::metrics::collect(*client, label);
}

} // namespace

int main(int argc, char **argv)
{
	CLI::App app{"mrc-exporter: MRC metrics for Prometheus on GET /metrics"};
	std::string listen = "[::1]:9880";
	std::vector<std::string> netns;
	size_t top = 10;
	std::string top_by = "bytes";
	app.add_option("-l,--listen", listen,
		       "[ADDR]:PORT to listen on; :PORT for every address (default [::1]:9880)");
	app.add_option("-n,--netns", netns,
		       "a namespace under /run/netns to report (repeatable; default: its own)");
	app.add_option("--top", top, "connections with metrics of their own (default 10)");
	app.add_option("--top-by", top_by, "rank connections by bytes or retx (default bytes)")
	    ->check(CLI::IsMember({"bytes", "retx"}));
	app.set_version_flag("--version", MRC_VERSION);
	CLI11_PARSE(app, argc, argv);

	std::vector<std::pair<std::string, std::string>> targets; // namespace, label
	if (netns.empty())
		targets.emplace_back("", mrc::metrics::netns_label());
	for (const auto &n : netns)
		targets.emplace_back(n, n);

	std::map<std::string, std::string> last_error;
	auto handler = [&](const mrc_exporter::Request &req) {
		mrc_exporter::Response r;
		if (req.method != "GET") {
			r.status = 405;
			r.body = "only GET\n";
			return r;
		}
		if (req.target == "/") {
			r.body = "mrc-exporter: metrics at /metrics\n";
			return r;
		}
		if (req.target != "/metrics") {
			r.status = 404;
			r.body = "not found; metrics at /metrics\n";
			return r;
		}
		mrc::metrics::Options o;
		o.format = req.accept.find("application/openmetrics-text") != std::string::npos
			       ? mrc::metrics::Format::OpenMetrics
			       : mrc::metrics::Format::Prometheus;
		o.top_n = top;
		o.top_by =
		    top_by == "retx" ? mrc::metrics::TopBy::Retx : mrc::metrics::TopBy::Bytes;
		std::vector<mrc::metrics::Snapshot> snaps;
		for (const auto &[ns, label] : targets) {
			snaps.push_back(scrape(ns, label));
			// Each failure once, not at every scrape.
			std::string err = snaps.back().error.value_or("");
			if (err != last_error[label] && !err.empty())
				std::cerr << "mrc-exporter: netns " << label << ": " << err << '\n';
			last_error[label] = err;
		}
		r.content_type = mrc::metrics::content_type(o.format);
		r.body = mrc::metrics::render(snaps, o);
		return r;
	};
	try {
		mrc_exporter::Server server(listen);
		std::cerr << "mrc-exporter: listening on " << listen << '\n';
		server.run(handler);
	} catch (const std::exception &e) {
		std::cerr << "mrc-exporter: " << e.what() << '\n';
		return 1;
	}
	std::cerr << "mrc-exporter: stopped\n";
	return 0;
}
