// SPDX-License-Identifier: GPL-2.0
// mrcctl top: a live view of the namespace, refreshed every interval: the
// MIB counters as rates (packets, bytes, retransmissions, drops), planes,
// the connections' EVs by state and the busiest connections with their
// retransmissions and time to recovery. Plain frames when the output is not
// a terminal; -n ends it after N frames.
#include "commands.hpp"
#include "output.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <map>

#include <sys/socket.h>
#include <unistd.h>

namespace mrcctl {

namespace {

using Clock = std::chrono::steady_clock;

/// One look at the namespace.
struct Sample {
	mrc::Stats stats;
	std::vector<mrc::Plane> planes;
	std::vector<mrc::Path> paths;
	std::vector<mrc::Conn> conns;
	Clock::time_point at;
};

Sample take_sample(Context &ctx)
{
	Sample s;
	s.stats = ctx.nl().stats();
	s.planes = ctx.nl().planes();
	s.paths = ctx.nl().paths();
	s.conns = ctx.nl().conns();
	s.at = Clock::now();
	return s;
}

/// Rates of counters between two samples over @secs.
class Rates {
public:
	Rates(const Sample &now, const Sample &prev, double secs)
	    : now_(now), prev_(prev), secs_(secs)
	{
	}
	uint64_t total(uint32_t mib) const { return now_.stats.get(mib).value_or(0); }
	double rate(uint32_t mib) const
	{
		uint64_t a = prev_.stats.get(mib).value_or(0), b = total(mib);
		return b >= a ? static_cast<double>(b - a) / secs_ : 0;
	}
	double sum(std::initializer_list<uint32_t> mibs) const
	{
		double r = 0;
		for (uint32_t m : mibs)
			r += rate(m);
		return r;
	}

private:
	const Sample &now_, &prev_;
	double secs_;
};

std::string fixed(double v, int prec = 1)
{
	char buf[48];
	std::snprintf(buf, sizeof(buf), "%.*f", prec, v);
	return buf;
}

/// 1234567 -> "1.2M" (decimal units, as ss and nstat).
std::string human(double v)
{
	static const char *units[] = {"", "k", "M", "G", "T"};
	size_t u = 0;
	while (v >= 1000 && u + 1 < std::size(units)) {
		v /= 1000;
		u++;
	}
	return fixed(v, u ? 1 : 0) + units[u];
}

/// 2652770 ns -> "2.65ms": three significant digits, for a glance.
std::string short_duration(uint64_t ns)
{
	static const struct {
		double scale;
		const char *unit;
	} units[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}};
	for (const auto &u : units) {
		double v = static_cast<double>(ns) / u.scale;
		if (v >= 1)
			return fixed(v, v >= 100 ? 0 : v >= 10 ? 1 : 2) + u.unit;
	}
	return std::to_string(ns) + "ns";
}

std::string endpoint(const in6_addr &a, uint16_t port)
{
	return "[" + mrc::addr_str(a) + "]:" + std::to_string(port);
}

/// Upper bound of the time-to-recovery bucket holding the @q quantile, in
/// nanoseconds (bucket 0: under 1 us; i: under 2^i us; the last: open).
std::optional<uint64_t> ttr_quantile_ns(const mrc::Conn &c, double q)
{
	uint64_t n = 0, seen = 0;
	for (uint64_t v : c.ttr_hist)
		n += v;
	if (!n)
		return std::nullopt;
	for (size_t b = 0; b < c.ttr_hist.size(); b++) {
		seen += c.ttr_hist[b];
		if (static_cast<double>(seen) >= q * static_cast<double>(n)) {
			if (b + 1 == c.ttr_hist.size())
				return c.ttr_max_ns;
			return std::min<uint64_t>((uint64_t{1} << b) * 1000, c.ttr_max_ns);
		}
	}
	return c.ttr_max_ns;
}

/// Throughput of each connection of @now: bytes sent and received per
/// second since @prev (a connection new since then: since it opened).
struct ConnRate {
	const mrc::Conn *c;
	double tx, rx, retx;
};

std::vector<ConnRate> conn_rates(const Sample &now, const Sample &prev, double secs)
{
	std::map<uint32_t, const mrc::Conn *> before;
	for (const auto &c : prev.conns)
		before[c.id] = &c;
	std::vector<ConnRate> v;
	for (const auto &c : now.conns) {
		auto it = before.find(c.id);
		const mrc::Conn *p = it == before.end() ? nullptr : it->second;
		auto d = [](uint64_t b, uint64_t a) {
			return b >= a ? static_cast<double>(b - a) : 0;
		};
		uint64_t retx = c.retx_rto + c.retx_nack + c.retx_sack + c.retx_ev;
		uint64_t pretx = p ? p->retx_rto + p->retx_nack + p->retx_sack + p->retx_ev : 0;
		v.push_back({&c, d(c.bytes_sent, p ? p->bytes_sent : 0) / secs,
			     d(c.bytes_recv, p ? p->bytes_recv : 0) / secs, d(retx, pretx) / secs});
	}
	std::stable_sort(v.begin(), v.end(), [](const ConnRate &a, const ConnRate &b) {
		return a.tx + a.rx > b.tx + b.rx;
	});
	return v;
}

std::string utc_now()
{
	char buf[32] = "-";
	time_t t = time(nullptr);
	tm tmv;
	if (gmtime_r(&t, &tmv))
		std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tmv);
	return buf;
}

std::string ttr_text(const mrc::Conn &c)
{
	if (!c.ttr_count)
		return "-";
	auto p99 = ttr_quantile_ns(c, 0.99);
	return std::to_string(c.ttr_count) + "/p99<" + short_duration(p99.value_or(0)) + "/max " +
	       short_duration(c.ttr_max_ns);
}

void print_frame(Context &ctx, const Sample &now, const Sample &prev, double secs, double interval,
		 unsigned frame, unsigned top)
{
	Rates r(now, prev, secs);
	auto conns = conn_rates(now, prev, secs);
	uint64_t ev[5] = {};
	unsigned established = 0;
	for (const auto &c : now.conns) {
		ev[0] += c.paths_good;
		ev[1] += c.paths_skip;
		ev[2] += c.paths_bad;
		ev[3] += c.paths_denied;
		ev[4] += c.paths_backup;
		established += c.state == MRC_CONN_ESTABLISHED;
	}
	const double retx =
	    r.sum({MRC_MIB_RETX_RTO, MRC_MIB_RETX_NACK, MRC_MIB_RETX_SACK, MRC_MIB_RETX_EV});
	const std::initializer_list<uint32_t> in_drops = {
	    MRC_MIB_IN_DROP_MALFORMED, MRC_MIB_IN_DROP_CSUM,       MRC_MIB_IN_DROP_NO_CONN,
	    MRC_MIB_IN_DROP_BAD_KEY,   MRC_MIB_IN_DROP_PSN_WINDOW, MRC_MIB_IN_DROP_DUP,
	    MRC_MIB_IN_DROP_NOMEM};
	const std::initializer_list<uint32_t> out_drops = {MRC_MIB_OUT_DROP_NO_PATH,
							   MRC_MIB_OUT_DROP_NOMEM};

	if (ctx.json) {
		nlohmann::json planes = nlohmann::json::array();
		for (const auto &p : now.planes)
			planes.push_back({{"id", p.id},
					  {"dev", p.ifname.value_or("")},
					  {"admin", p.admin_up.value_or(true) ? "up" : "down"},
					  {"oper", p.oper_up ? "up" : "down"},
					  {"paths", p.nr_paths}});
		nlohmann::json cj = nlohmann::json::array();
		for (size_t i = 0; i < conns.size() && i < top; i++) {
			const auto &c = *conns[i].c;
			cj.push_back({{"id", c.id},
				      {"local", endpoint(c.local_addr, c.local_port)},
				      {"remote", endpoint(c.remote_addr, c.remote_port)},
				      {"type", c.type == SOCK_SEQPACKET ? "seqpacket" : "stream"},
				      {"state", mrc::conn_state_name(c.state)},
				      {"tx_bytes_per_s", conns[i].tx},
				      {"rx_bytes_per_s", conns[i].rx},
				      {"retx_per_s", conns[i].retx},
				      {"retx", c.retx_rto + c.retx_nack + c.retx_sack + c.retx_ev},
				      {"ttr_count", c.ttr_count},
				      {"ttr_p99_ns", ttr_quantile_ns(c, 0.99).value_or(0)},
				      {"ttr_max_ns", c.ttr_max_ns},
				      {"srtt_us", c.srtt_us}});
		}
		nlohmann::json j = {{"frame", frame},
				    {"seconds", secs},
				    {"in_pkts_per_s", r.rate(MRC_MIB_IN_PKTS)},
				    {"in_bytes_per_s", r.rate(MRC_MIB_IN_BYTES)},
				    {"out_pkts_per_s", r.rate(MRC_MIB_OUT_PKTS)},
				    {"out_bytes_per_s", r.rate(MRC_MIB_OUT_BYTES)},
				    {"retx_per_s", retx},
				    {"in_drops_per_s", r.sum(in_drops)},
				    {"out_drops_per_s", r.sum(out_drops)},
				    {"planes", planes},
				    {"paths", now.paths.size()},
				    {"evs",
				     {{"good", ev[0]},
				      {"skip", ev[1]},
				      {"bad", ev[2]},
				      {"denied", ev[3]},
				      {"backup", ev[4]}}},
				    {"conns", now.conns.size()},
				    {"top_conns", cj}};
		print_json(*ctx.out, j, ctx.pretty);
		return;
	}

	std::ostream &o = *ctx.out;
	o << "mrcctl top  " << utc_now() << "  every " << fixed(interval, interval < 1 ? 1 : 0)
	  << "s  frame " << frame << '\n';
	Table t({"traffic", "packets/s", "bytes/s", "packets", "bytes"});
	t.add({"in", fixed(r.rate(MRC_MIB_IN_PKTS)), human(r.rate(MRC_MIB_IN_BYTES)),
	       std::to_string(r.total(MRC_MIB_IN_PKTS)), human(r.total(MRC_MIB_IN_BYTES))});
	t.add({"out", fixed(r.rate(MRC_MIB_OUT_PKTS)), human(r.rate(MRC_MIB_OUT_BYTES)),
	       std::to_string(r.total(MRC_MIB_OUT_PKTS)), human(r.total(MRC_MIB_OUT_BYTES))});
	t.print(o);
	o << "retransmissions/s " << fixed(retx) << " (rto " << fixed(r.rate(MRC_MIB_RETX_RTO))
	  << ", nack " << fixed(r.rate(MRC_MIB_RETX_NACK)) << ", sack "
	  << fixed(r.rate(MRC_MIB_RETX_SACK)) << ", ev " << fixed(r.rate(MRC_MIB_RETX_EV))
	  << "); recoveries/s " << fixed(r.rate(MRC_MIB_RECOVERIES)) << '\n';
	o << "drops/s in " << fixed(r.sum(in_drops)) << " (malformed "
	  << fixed(r.rate(MRC_MIB_IN_DROP_MALFORMED)) << ", no-conn "
	  << fixed(r.rate(MRC_MIB_IN_DROP_NO_CONN)) << ", bad-key "
	  << fixed(r.rate(MRC_MIB_IN_DROP_BAD_KEY)) << ", psn-window "
	  << fixed(r.rate(MRC_MIB_IN_DROP_PSN_WINDOW)) << ", dup "
	  << fixed(r.rate(MRC_MIB_IN_DROP_DUP)) << "), out " << fixed(r.sum(out_drops)) << '\n';
	o << "planes";
	if (now.planes.empty())
		o << " none";
	for (const auto &p : now.planes)
		o << "  " << p.id << " " << p.ifname.value_or("-") << " "
		  << (!p.admin_up.value_or(true) ? "admin-down"
		      : p.oper_up                ? "up"
						 : "down")
		  << " (" << p.nr_paths << " paths)";
	o << '\n';
	o << "paths " << now.paths.size() << " configured; connection EVs: good " << ev[0]
	  << ", skip " << ev[1] << ", assumed-bad " << ev[2] << ", denied " << ev[3] << ", backup "
	  << ev[4] << '\n';
	o << "connections " << now.conns.size() << " (" << established << " established)";
	if (conns.size() > top)
		o << ", the " << top << " busiest:";
	o << '\n';
	if (!conns.empty()) {
		Table ct({"conn", "local", "remote", "type", "state", "tx/s", "rx/s", "retx",
			  "retx/s", "ttr", "srtt"});
		for (size_t i = 0; i < conns.size() && i < top; i++) {
			const auto &c = *conns[i].c;
			ct.add({std::to_string(c.id), endpoint(c.local_addr, c.local_port),
				endpoint(c.remote_addr, c.remote_port),
				c.type == SOCK_SEQPACKET ? "seqpacket" : "stream",
				mrc::conn_state_name(c.state), human(conns[i].tx) + "B",
				human(conns[i].rx) + "B",
				std::to_string(c.retx_rto + c.retx_nack + c.retx_sack + c.retx_ev),
				fixed(conns[i].retx), ttr_text(c),
				std::to_string(c.srtt_us) + "us"});
		}
		ct.print(o);
	}
}

} // namespace

void add_top_command(CLI::App &app, Context &ctx)
{
	auto *cmd = app.add_subcommand(
	    "top", "live view: rates, planes, paths and the busiest connections, refreshed");
	auto interval = std::make_shared<double>(1.0);
	auto frames = std::make_shared<unsigned>(0);
	auto top = std::make_shared<unsigned>(10);
	cmd->add_option("-i,--interval", *interval, "refresh every SECONDS (default 1)")
	    ->check(CLI::Range(0.1, 3600.0));
	cmd->add_option("-n,--iterations", *frames, "stop after N frames (default: never)");
	cmd->add_option("-c,--conns", *top, "connections listed, the busiest first (default 10)");
	cmd->callback([&ctx, interval, frames, top]() {
		// A terminal gets each frame on a cleared screen; anything else
		// (a pipe, a file, a test) one plain frame after another.
		bool tty = ctx.out == &std::cout && isatty(STDOUT_FILENO) && !ctx.json;
		Sample prev = take_sample(ctx);
		for (unsigned i = 1; !*frames || i <= *frames; i++) {
			ctx.sleep(*interval);
			Sample now = take_sample(ctx);
			double secs = std::chrono::duration<double>(now.at - prev.at).count();
			// Rates per asked interval when the wait was cut short
			// (only a test's sleep does that).
			if (secs < *interval / 2)
				secs = *interval;
			if (tty)
				*ctx.out << "\033[H\033[2J";
			else if (i > 1 && !ctx.json)
				*ctx.out << '\n';
			print_frame(ctx, now, prev, secs, *interval, i, *top);
			ctx.out->flush();
			prev = std::move(now);
		}
	});
}

} // namespace mrcctl
