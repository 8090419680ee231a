// SPDX-License-Identifier: GPL-2.0
// mrcctl stats (with -w watch mode and rates) and mrcctl monitor.
#include "commands.hpp"
#include "output.hpp"

#include <chrono>
#include <ctime>
#include <thread>

#include <mrc/metrics.hpp>

#include <linux/mrc.h>
#include <net/if.h>

namespace mrcctl {

namespace {

void print_stats(Context &ctx, const mrc::Stats &now, const mrc::Stats *prev, double secs, bool all)
{
	if (ctx.json) {
		nlohmann::json c = nlohmann::json::object();
		nlohmann::json r = nlohmann::json::object();
		for (const auto &[k, v] : now.counters) {
			c[mrc::mib_name(k)] = v;
			if (prev && secs > 0)
				r[mrc::mib_name(k)] = (v - prev->get(k).value_or(0)) / secs;
		}
		nlohmann::json j = {{"counters", c}};
		if (prev)
			j["rates"] = r;
		print_json(*ctx.out, j, ctx.pretty);
		return;
	}
	std::vector<std::string> hdr = {"counter", "value"};
	if (prev)
		hdr.push_back("rate/s");
	Table t(hdr);
	for (const auto &[k, v] : now.counters) {
		if (!all && !v)
			continue;
		std::vector<std::string> row = {mrc::mib_name(k), std::to_string(v)};
		if (prev) {
			char buf[32];
			double rate = secs > 0 ? (v - prev->get(k).value_or(0)) / secs : 0;
			std::snprintf(buf, sizeof(buf), "%.1f", rate);
			row.push_back(buf);
		}
		t.add(row);
	}
	t.print(*ctx.out);
}

} // namespace

void add_stats_command(CLI::App &app, Context &ctx)
{
	auto *cmd = app.add_subcommand("stats", "namespace counters (as /proc/net/mrc_stat)");
	auto all = std::make_shared<bool>(false);
	auto watch = std::make_shared<double>(0);
	auto count = std::make_shared<unsigned>(0);
	cmd->add_flag("-a,--all", *all, "also show counters that are zero");
	cmd->add_option("-w,--watch", *watch, "repeat every SECONDS, with rates")
	    ->check(CLI::Range(0.1, 3600.0));
	cmd->add_option("-c,--count", *count, "with -w: stop after COUNT reports");
	auto output = std::make_shared<std::string>("table");
	auto top = std::make_shared<size_t>(0);
	auto top_by = std::make_shared<std::string>("bytes");
	auto netns = std::make_shared<std::string>();
	cmd->add_option("-o,--output", *output,
			"table, prometheus (text format 0.0.4) or openmetrics")
	    ->check(CLI::IsMember({"table", "prometheus", "openmetrics"}));
	cmd->add_option("--top", *top, "with -o: metrics of the N busiest connections");
	cmd->add_option("--top-by", *top_by, "with --top: bytes or retx")
	    ->check(CLI::IsMember({"bytes", "retx"}));
	cmd->add_option("--netns-label", *netns,
			"with -o: the netns label (default: the namespace's name)");
	cmd->callback([&ctx, all, watch, count, output, top, top_by, netns]() {
		if (*output != "table") {
			if (*watch > 0)
				throw UsageError("stats: -w cannot go with -o " + *output);
			mrc::metrics::Options o;
			o.format = *output == "openmetrics" ? mrc::metrics::Format::OpenMetrics
							    : mrc::metrics::Format::Prometheus;
			o.top_n = *top;
			o.top_by = *top_by == "retx" ? mrc::metrics::TopBy::Retx
						     : mrc::metrics::TopBy::Bytes;
			mrc::metrics::Snapshot s;
			s.netns = netns->empty() ? mrc::metrics::netns_label() : *netns;
			s.stats = ctx.nl().stats();
			s.planes = ctx.nl().planes();
			s.conns = ctx.nl().conns();
			*ctx.out << mrc::metrics::render({s}, o);
			return;
		}
		mrc::Stats prev = ctx.nl().stats();
		if (*watch <= 0) {
			print_stats(ctx, prev, nullptr, 0, *all);
			return;
		}
		for (unsigned i = 0; !*count || i < *count; i++) {
			auto t0 = std::chrono::steady_clock::now();
			ctx.sleep(*watch);
			mrc::Stats now = ctx.nl().stats();
			double secs =
			    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
				.count();
			if (!ctx.json)
				*ctx.out << (i ? "\n" : "") << "every " << *watch << "s:\n";
			print_stats(ctx, now, &prev, secs, *all);
			ctx.out->flush();
			prev = std::move(now);
		}
	});
}

std::string format_event(const mrc::Event &e)
{
	char ts[64] = "-";
	time_t sec = static_cast<time_t>(e.timestamp_ns / 1000000000);
	tm tmv;
	if (gmtime_r(&sec, &tmv)) {
		char base[32];
		std::strftime(base, sizeof(base), "%Y-%m-%dT%H:%M:%S", &tmv);
		std::snprintf(ts, sizeof(ts), "%s.%06lluZ", base,
			      static_cast<unsigned long long>(e.timestamp_ns % 1000000000 / 1000));
	}
	std::string s = std::string(ts) + " " + mrc::event_type_name(e.type);
	auto u = [&](const char *k, const std::optional<uint32_t> &v) {
		if (v)
			s += std::string(" ") + k + " " + std::to_string(*v);
	};
	bool plane_ev = e.type == MRC_EVENT_PLANE_UP || e.type == MRC_EVENT_PLANE_DOWN;
	u("conn", e.conn_id);
	if (e.local_addr)
		s += " local [" + mrc::addr_str(*e.local_addr) +
		     "]:" + std::to_string(e.local_port.value_or(0));
	if (e.remote_addr)
		s += " remote [" + mrc::addr_str(*e.remote_addr) +
		     "]:" + std::to_string(e.remote_port.value_or(0));
	u("ev", e.ev);
	u("path", e.path_id);
	u("plane", e.plane);
	if (e.ifindex) {
		char name[IF_NAMESIZE] = {};
		s += " dev " + std::string(*e.ifindex && if_indextoname(*e.ifindex, name)
					       ? name
					       : std::to_string(*e.ifindex));
	}
	if (e.old_state && e.new_state)
		s += " " + mrc::path_state_name(*e.old_state) + " -> " +
		     mrc::path_state_name(*e.new_state);
	if (e.reason)
		s += " reason " + (plane_ev ? mrc::plane_reason_name(*e.reason)
					    : mrc::path_reason_name(*e.reason));
	if (e.drops)
		s += " drops " + std::to_string(*e.drops);
	if (e.ttr_ns)
		s += " ttr " + format_duration(*e.ttr_ns);
	if (e.error)
		s += " error " + std::to_string(*e.error);
	return s;
}

nlohmann::json event_json(const mrc::Event &e)
{
	bool plane_ev = e.type == MRC_EVENT_PLANE_UP || e.type == MRC_EVENT_PLANE_DOWN;
	nlohmann::json j = {{"type", mrc::event_type_name(e.type)},
			    {"timestamp_ns", e.timestamp_ns}};
	auto u = [&](const char *k, const auto &v) {
		if (v)
			j[k] = *v;
	};
	u("conn", e.conn_id);
	u("ev", e.ev);
	u("path", e.path_id);
	u("plane", e.plane);
	u("ifindex", e.ifindex);
	u("drops", e.drops);
	u("ttr_ns", e.ttr_ns);
	u("error", e.error);
	u("local_port", e.local_port);
	u("remote_port", e.remote_port);
	if (e.local_addr)
		j["local_addr"] = mrc::addr_str(*e.local_addr);
	if (e.remote_addr)
		j["remote_addr"] = mrc::addr_str(*e.remote_addr);
	if (e.old_state)
		j["old_state"] = mrc::path_state_name(*e.old_state);
	if (e.new_state)
		j["new_state"] = mrc::path_state_name(*e.new_state);
	if (e.reason)
		j["reason"] =
		    plane_ev ? mrc::plane_reason_name(*e.reason) : mrc::path_reason_name(*e.reason);
	return j;
}

void add_monitor_command(CLI::App &app, Context &ctx)
{
	auto *cmd = app.add_subcommand("monitor", "print events as they happen, with timestamps");
	auto count = std::make_shared<unsigned>(0);
	auto timeout = std::make_shared<double>(0);
	cmd->add_option("-c,--count", *count, "stop after COUNT events");
	cmd->add_option("-t,--timeout", *timeout, "stop after SECONDS without an event")
	    ->check(CLI::Range(0.0, 86400.0));
	cmd->callback([&ctx, count, timeout]() {
		ctx.nl().subscribe();
		*ctx.err << "mrcctl: monitoring events\n";
		ctx.err->flush();
		int ms = *timeout > 0 ? static_cast<int>(*timeout * 1000) : -1;
		for (unsigned n = 0; !*count || n < *count; n++) {
			auto e = ctx.nl().next_event(ms);
			if (!e)
				return;
			if (ctx.json)
				print_json(*ctx.out, event_json(*e), false);
			else
				*ctx.out << format_event(*e) << '\n';
			ctx.out->flush();
		}
	});
}

} // namespace mrcctl
