// SPDX-License-Identifier: GPL-2.0
// mrcctl conn: connections with their per-path state; mrcctl probe.
#include "commands.hpp"
#include "output.hpp"

#include <sys/socket.h>

namespace mrcctl {

namespace {

std::string endpoint(const in6_addr &a, uint16_t port)
{
	return "[" + mrc::addr_str(a) + "]:" + std::to_string(port);
}

// Lower bound of time-to-recovery bucket @b, in microseconds.
uint64_t ttr_bucket_from_us(size_t b)
{
	return b == 0 ? 0 : uint64_t{1} << (b - 1);
}

// The non-empty buckets: [{"from_us": F, "count": N}, ...].
nlohmann::json ttr_hist_json(const mrc::Conn &c)
{
	nlohmann::json j = nlohmann::json::array();
	for (size_t b = 0; b < c.ttr_hist.size(); b++)
		if (c.ttr_hist[b])
			j.push_back({{"from_us", ttr_bucket_from_us(b)}, {"count", c.ttr_hist[b]}});
	return j;
}

nlohmann::json conn_json(const mrc::Conn &c)
{
	nlohmann::json paths = nlohmann::json::array();
	for (const auto &p : c.paths) {
		nlohmann::json j = {{"ev", p.ev},
				    {"plane", p.plane},
				    {"state", mrc::path_state_name(p.state)},
				    {"reason", mrc::path_reason_name(p.reason)},
				    {"tx_pkts", p.tx_pkts},
				    {"retx_pkts", p.retx_pkts},
				    {"lost_pkts", p.lost_pkts},
				    {"timeouts", p.timeouts},
				    {"ecn_marks", p.ecn_marks},
				    {"srtt_us", p.srtt_us}};
		if (p.path_id)
			j["path_id"] = *p.path_id;
		paths.push_back(j);
	}
	return {{"id", c.id},
		{"local", endpoint(c.local_addr, c.local_port)},
		{"remote", endpoint(c.remote_addr, c.remote_port)},
		{"type", c.type == SOCK_SEQPACKET ? "seqpacket" : "stream"},
		{"state", mrc::conn_state_name(c.state)},
		{"local_qpn", c.local_qpn},
		{"remote_qpn", c.remote_qpn},
		{"policy", c.policy},
		{"srtt_us", c.srtt_us},
		{"rto_us", c.rto_us},
		{"cwnd", c.cwnd},
		{"inflight", c.inflight},
		{"paths_good", c.paths_good},
		{"paths_skip", c.paths_skip},
		{"paths_bad", c.paths_bad},
		{"paths_denied", c.paths_denied},
		{"paths_backup", c.paths_backup},
		{"retx_rto", c.retx_rto},
		{"retx_nack", c.retx_nack},
		{"retx_sack", c.retx_sack},
		{"retx_ev", c.retx_ev},
		{"ttr_count", c.ttr_count},
		{"ttr_max_ns", c.ttr_max_ns},
		{"bytes_sent", c.bytes_sent},
		{"bytes_recv", c.bytes_recv},
		{"ttr_hist", ttr_hist_json(c)},
		{"paths", paths}};
}

void show(Context &ctx, const std::vector<mrc::Conn> &conns, bool details)
{
	if (ctx.json) {
		nlohmann::json j = nlohmann::json::array();
		for (const auto &c : conns)
			j.push_back(conn_json(c));
		print_json(*ctx.out, j, ctx.pretty);
		return;
	}
	Table t({"id", "state", "local", "remote", "policy", "srtt", "rto", "cwnd", "inflight",
		 "good/skip/bad/deny/backup", "retx rto/nack/sack/ev", "ttr n/max"});
	for (const auto &c : conns) {
		auto s = [](auto v) { return std::to_string(v); };
		t.add({s(c.id), mrc::conn_state_name(c.state), endpoint(c.local_addr, c.local_port),
		       endpoint(c.remote_addr, c.remote_port), c.policy, s(c.srtt_us) + "us",
		       s(c.rto_us) + "us", s(c.cwnd), s(c.inflight),
		       s(c.paths_good) + "/" + s(c.paths_skip) + "/" + s(c.paths_bad) + "/" +
			   s(c.paths_denied) + "/" + s(c.paths_backup),
		       s(c.retx_rto) + "/" + s(c.retx_nack) + "/" + s(c.retx_sack) + "/" +
			   s(c.retx_ev),
		       s(c.ttr_count) + "/" + format_duration(c.ttr_max_ns)});
	}
	t.print(*ctx.out);
	if (!details)
		return;
	for (const auto &c : conns) {
		*ctx.out << "\nconn " << c.id << " time to recovery:";
		bool any = false;
		for (size_t b = 0; b < c.ttr_hist.size(); b++) {
			if (!c.ttr_hist[b])
				continue;
			*ctx.out << ' ' << (b ? ">=" : "<")
				 << format_duration((b ? ttr_bucket_from_us(b) : 1) * 1000) << ':'
				 << c.ttr_hist[b];
			any = true;
		}
		*ctx.out << (any ? "\n" : " none\n");
		*ctx.out << "conn " << c.id << " paths:\n";
		Table p({"ev", "plane", "path", "state", "reason", "tx", "retx", "lost", "ecn",
			 "srtt"});
		for (const auto &x : c.paths)
			p.add({std::to_string(x.ev), std::to_string(x.plane),
			       x.path_id ? std::to_string(*x.path_id) : "-",
			       mrc::path_state_name(x.state), mrc::path_reason_name(x.reason),
			       std::to_string(x.tx_pkts), std::to_string(x.retx_pkts),
			       std::to_string(x.lost_pkts), std::to_string(x.ecn_marks),
			       std::to_string(x.srtt_us) + "us"});
		p.print(*ctx.out);
	}
}

} // namespace

void add_conn_command(CLI::App &app, Context &ctx)
{
	auto *cmd = app.add_subcommand("conn", "connections and their paths");
	cmd->require_subcommand(0, 1);
	require_known_command(cmd, "show");
	auto fn = [&ctx](Keywords &kw) {
		kw.parse({{"id", true},
			  {"local", true},
			  {"remote", true},
			  {"lport", true},
			  {"rport", true},
			  {"state", true},
			  {"paths", false}});
		mrc::ConnFilter f;
		if (auto v = kw.get("id"))
			f.id = parse_uint(*v, "connection id", 0, UINT32_MAX);
		if (auto v = kw.get("local"))
			f.local_addr = parse_in6(*v, "local address");
		if (auto v = kw.get("remote"))
			f.remote_addr = parse_in6(*v, "remote address");
		if (auto v = kw.get("lport"))
			f.local_port = parse_uint(*v, "local port", 0, UINT16_MAX);
		if (auto v = kw.get("rport"))
			f.remote_port = parse_uint(*v, "remote port", 0, UINT16_MAX);
		if (auto v = kw.get("state")) {
			f.state = mrc::parse_conn_state(*v);
			if (!f.state)
				throw UsageError("invalid connection state '" + *v +
						 "': expected closed, listen, req-sent, req-rcvd, "
						 "established, closing or failed");
		}
		show(ctx, ctx.nl().conns(f), kw.flag("paths"));
	};
	add_words_command(*cmd, "show", "show connections",
			  "[id N] [local ADDR] [remote ADDR] [lport N] [rport N] [state S] [paths]",
			  fn);
	cmd->callback([cmd, &ctx]() {
		if (cmd->get_subcommands().empty())
			show(ctx, ctx.nl().conns(), false);
	});
}

void add_probe_command(CLI::App &app, Context &ctx)
{
	add_words_command(
	    app, "probe", "send an EV probe along one path and print its round-trip time",
	    "DST path ID [timeout MS]", [&ctx](Keywords &kw) {
		    in6_addr dst = parse_in6(kw.positional("destination"), "destination");
		    kw.parse({{"path", true}, {"timeout", true}});
		    if (!kw.get("path"))
			    throw UsageError(kw.cmd() + ": 'path ID' is required");
		    auto id = parse_uint(*kw.get("path"), "path id", 0, UINT32_MAX);
		    std::optional<uint32_t> timeout;
		    if (auto v = kw.get("timeout"))
			    timeout = parse_uint(*v, "timeout", 0, UINT32_MAX);
		    auto r = ctx.nl().probe(dst, id, timeout);
		    if (ctx.json) {
			    nlohmann::json j = {{"dst", mrc::addr_str(dst)},
						{"path", id},
						{"timed_out", r.timed_out}};
			    if (r.rtt_ns)
				    j["rtt_ns"] = *r.rtt_ns;
			    print_json(*ctx.out, j, ctx.pretty);
		    } else if (r.timed_out || !r.rtt_ns) {
			    *ctx.out << "probe " << mrc::addr_str(dst) << " path " << id
				     << ": timeout\n";
		    } else {
			    *ctx.out << "probe " << mrc::addr_str(dst) << " path " << id << ": rtt "
				     << format_duration(*r.rtt_ns) << '\n';
		    }
		    if (r.timed_out)
			    throw mrc::Error(ETIMEDOUT, "probe: no answer in time");
	    });
}

} // namespace mrcctl
