// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: MRC's figures as Prometheus metrics (mrc/metrics.hpp). Names,
// units and labels: Documentation/metrics.md.
#include <mrc/metrics.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/mrc.h>

namespace mrc::metrics {

namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;

// How one MIB counter appears: family (without "_total"), an optional
// label that sets it apart from the family's other counters, and help.
struct MibMetric {
	const char *name;
	const char *label;
	const char *value;
	const char *help;
};

const char *const kDropHelp = "MRC packets dropped on receipt, by reason.";
const char *const kOutDropHelp = "MRC packets not sent, by reason.";
const char *const kRetxHelp = "Retransmissions, by cause.";
const char *const kPathHelp = "EV (path) state transitions of connections, by new state.";
const char *const kPlaneHelp = "Plane state transitions, by new state.";
const char *const kCookieHelp = "CM_RTUs refused, nothing created: cookie forged or expired.";

const MibMetric kMib[] = {
    {nullptr, nullptr, nullptr, nullptr},
    {"mrc_in_packets", nullptr, nullptr, "MRC packets received."},
    {"mrc_in_bytes", nullptr, nullptr, "Bytes of MRC packets received (UDP payload)."},
    {"mrc_out_packets", nullptr, nullptr, "MRC packets sent."},
    {"mrc_out_bytes", nullptr, nullptr, "Bytes of MRC packets sent (UDP payload)."},
    {"mrc_in_dropped_packets", "reason", "malformed", kDropHelp},
    {"mrc_in_dropped_packets", "reason", "csum", kDropHelp},
    {"mrc_in_dropped_packets", "reason", "no-conn", kDropHelp},
    {"mrc_in_dropped_packets", "reason", "bad-key", kDropHelp},
    {"mrc_in_dropped_packets", "reason", "psn-window", kDropHelp},
    {"mrc_in_dropped_packets", "reason", "duplicate", kDropHelp},
    {"mrc_in_dropped_packets", "reason", "nomem", kDropHelp},
    {"mrc_out_dropped_packets", "reason", "no-path", kOutDropHelp},
    {"mrc_out_dropped_packets", "reason", "nomem", kOutDropHelp},
    {"mrc_handshake_requests_sent", nullptr, nullptr, "Connection requests sent."},
    {"mrc_handshake_requests_received", nullptr, nullptr, "Connection requests received."},
    {"mrc_connections_established", nullptr, nullptr, "Connections established."},
    {"mrc_handshake_rejected", nullptr, nullptr,
     "Connection requests rejected (nobody listens, backlog full)."},
    {"mrc_handshake_timeouts", nullptr, nullptr, "Connection attempts that timed out."},
    {"mrc_connections_reset", nullptr, nullptr, "Connections reset by the peer."},
    {"mrc_connections_timed_out", nullptr, nullptr, "Connections failed with ETIMEDOUT."},
    {"mrc_retransmissions", "cause", "rto", kRetxHelp},
    {"mrc_retransmissions", "cause", "nack", kRetxHelp},
    {"mrc_retransmissions", "cause", "sack", kRetxHelp},
    {"mrc_retransmissions", "cause", "ev", kRetxHelp},
    {"mrc_sacks_received", nullptr, nullptr, "SACKs received."},
    {"mrc_sacks_sent", nullptr, nullptr, "SACKs sent."},
    {"mrc_nacks_received", nullptr, nullptr, "NACKs received."},
    {"mrc_nacks_sent", nullptr, nullptr, "NACKs sent."},
    {"mrc_ecn_marks", nullptr, nullptr, "ECN marks reported by peers."},
    {"mrc_path_transitions", "to", "skip", kPathHelp},
    {"mrc_path_transitions", "to", "assumed-bad", kPathHelp},
    {"mrc_path_transitions", "to", "good", kPathHelp},
    {"mrc_path_transitions", "to", "denied", kPathHelp},
    {"mrc_paths_replaced", nullptr, nullptr, "Failed EVs replaced by a backup."},
    {"mrc_path_probes_sent", nullptr, nullptr,
     "Path probes sent by connections (of ASSUMED_BAD EVs)."},
    {"mrc_path_probes_answered", nullptr, nullptr, "Path probes answered."},
    {"mrc_path_probes_timed_out", nullptr, nullptr, "Path probes unanswered."},
    {"mrc_recoveries", nullptr, nullptr, "Losses repaired (recovery episodes closed)."},
    {"mrc_plane_transitions", "to", "down", kPlaneHelp},
    {"mrc_plane_transitions", "to", "up", kPlaneHelp},
    {"mrc_events_dropped", nullptr, nullptr, "Events that could not be sent (no memory)."},
    {"mrc_endpoint_requests_received", nullptr, nullptr, "Endpoint requests (QPN 2) received."},
    {"mrc_endpoint_requests_ratelimited", nullptr, nullptr,
     "Endpoint operations dropped by the rate limit."},
    {"mrc_ev_probes_sent", nullptr, nullptr, "EV probes sent (mrcctl probe)."},
    {"mrc_ev_probes_answered", nullptr, nullptr, "EV probes answered in time."},
    {"mrc_ev_probes_timed_out", nullptr, nullptr, "EV probes unanswered in time."},
    {"mrc_port_status_sent", nullptr, nullptr, "Port-status updates sent to peers."},
    {"mrc_port_status_received", nullptr, nullptr, "Port-status updates applied to connections."},
    {"mrc_route_lookups", nullptr, nullptr, "Routes looked up to send a packet."},
    {"mrc_handshake_unreachable", nullptr, nullptr,
     "Connection requests answered by ICMPv6 port unreachable (no MRC there)."},
    {"mrc_tcp_accepted", nullptr, nullptr, "Plain TCP connections accepted by MRC listeners."},
    {"mrc_path_flaps", nullptr, nullptr,
     "EVs that failed again right after coming back from assumed-bad."},
    {"mrc_resets_no_conn_sent", nullptr, nullptr,
     "RESETs answering data for an unknown connection (the peer restarted)."},
    {"mrc_control_ratelimited", nullptr, nullptr,
     "Stateless control work (NO_CONN RESETs) over the namespace's budget."},
    {"mrc_transport_acks_received", nullptr, nullptr,
     "RoCE Transport ACKs (opcode 0xD1) received: counted and ignored."},
    {"mrc_handshake_cookies_sent", nullptr, nullptr,
     "CM_REPs sent by listeners keeping no state (each carries a cookie)."},
    {"mrc_handshake_cookies_refused", "reason", "bad", kCookieHelp},
    {"mrc_handshake_cookies_refused", "reason", "expired", kCookieHelp},
    {"mrc_path_probes_deferred", nullptr, nullptr,
     "Path probes held back by the namespace's probe budget (not counted as failures)."},
    {"mrc_handshake_requests_ratelimited", nullptr, nullptr,
     "CM_REQs left unanswered over the namespace's CM_REP budget (the requester retries)."},
    {"mrc_path_packet_too_big", nullptr, nullptr,
     "ICMPv6 packet-too-big errors that took a path of a connection out."},
    {"mrc_path_probes_shared", nullptr, nullptr,
     "Path probes answered by another connection's probe of the same route (not sent)."},
    {"mrc_path_reverse_probes", nullptr, nullptr,
     "EV probes of paths that carry our SACKs and heard nothing back."},
    {"mrc_out_refused", nullptr, nullptr,
     "Packets the local stack refused (no route, device down, filter, device drop); data resent at "
     "once."},
    {"mrc_path_tx_refused", nullptr, nullptr,
     "Paths of a connection taken out because the local stack refused their packets."},
    {"mrc_path_probe_answers_stale", nullptr, nullptr,
     "Answers to path probes that echoed an earlier probe (late): not counted as answers."},
    {"mrc_out_bursts", nullptr, nullptr,
     "Segmentation-offload packets sent: bursts of data packets on one path, cut into whole MRC "
     "packets."},
    {"mrc_out_zero_copy_bytes", nullptr, nullptr,
     "Bytes sendfile() or splice() queued by reference to their pages, never copied."},
    {"mrc_in_sack_credit_bogus", nullptr, nullptr,
     "SACKs whose credit no receiver could have granted (forged or broken): their state ignored."},
    {"mrc_path_suspect", nullptr, nullptr,
     "Paths made suspect (a packet missing in its path's silence): no new packet on them until "
     "heard from, out after two RTOs of silence."},
    {"mrc_path_suspect_cleared", nullptr, nullptr,
     "Suspect paths heard from in time (late, not dead): they stayed in use."},
    {"mrc_in_ecn_ce", nullptr, nullptr,
     "MRC packets that arrived marked Congestion Experienced by a queue on their path."},
    {"mrc_in_ecn_decap_ce", nullptr, nullptr,
     "MRC packets whose outer header's CE mark was copied into the inner one at decapsulation."},
};
static_assert(std::size(kMib) == __MRC_MIB_MAX, "a MIB counter without a metric");

struct Sample {
	std::string suffix;
	Labels labels;
	std::string value;
};

struct Family {
	std::string name; // counters: without "_total"
	std::string type;
	std::string help;
	std::vector<Sample> samples;
};

// Families in the order they were first used; each rendered whole.
class Families {
public:
	Family &get(const std::string &name, const std::string &type, const std::string &help)
	{
		auto it = index_.find(name);
		if (it != index_.end())
			return list_[it->second];
		index_[name] = list_.size();
		list_.push_back({name, type, help, {}});
		return list_.back();
	}
	void add(const std::string &name, const char *type, const std::string &help,
		 const Labels &labels, const std::string &value)
	{
		Family &f = get(name, type, help);
		f.samples.push_back({f.type == "counter" ? "_total" : "", labels, value});
	}
	const std::vector<Family> &list() const { return list_; }

private:
	std::vector<Family> list_;
	std::map<std::string, size_t> index_;
};

std::string escape(const std::string &s, bool quote)
{
	std::string o;
	for (char c : s) {
		if (c == '\\')
			o += "\\\\";
		else if (c == '\n')
			o += "\\n";
		else if (c == '"' && quote)
			o += "\\\"";
		else
			o += c;
	}
	return o;
}

// Nanoseconds as exact decimal seconds ("0.000250", "4.194304", "2").
std::string seconds(uint64_t ns)
{
	char buf[48];
	std::snprintf(buf, sizeof(buf), "%llu.%09llu",
		      static_cast<unsigned long long>(ns / 1000000000),
		      static_cast<unsigned long long>(ns % 1000000000));
	std::string s = buf;
	while (s.back() == '0')
		s.pop_back();
	if (s.back() == '.')
		s.pop_back();
	return s;
}

std::string num(uint64_t v)
{
	return std::to_string(v);
}

std::string unit_of(const std::string &name)
{
	for (const char *u : {"seconds", "bytes"}) {
		std::string suf = std::string("_") + u;
		if (name.size() > suf.size() &&
		    name.compare(name.size() - suf.size(), suf.size(), suf) == 0)
			return u;
	}
	return "";
}

std::string endpoint(const in6_addr &a, uint16_t port)
{
	return "[" + addr_str(a) + "]:" + std::to_string(port);
}

// One sample per (label value, figure) of @vals, the label @key added to @l.
void add_by(Families &fs, const char *name, const char *type, const std::string &help,
	    const Labels &l, const char *key,
	    const std::vector<std::pair<std::string, uint64_t>> &vals)
{
	for (const auto &[v, n] : vals) {
		Labels lv = l;
		lv.emplace_back(key, v);
		fs.add(name, type, help, lv, num(n));
	}
}

void add_mib(Families &fs, const Snapshot &s)
{
	for (const auto &[k, v] : s.stats.counters) {
		Labels l = {{"netns", s.netns}};
		if (k >= std::size(kMib) || !kMib[k].name) {
			l.emplace_back("mib", std::to_string(k));
			fs.add("mrc_mib_unknown", "counter",
			       "Counters of a newer module, by number (uapi enum mrc_mib).", l,
			       num(v));
			continue;
		}
		const MibMetric &m = kMib[k];
		if (m.label)
			l.emplace_back(m.label, m.value);
		fs.add(m.name, "counter", m.help, l, num(v));
	}
}

void add_ttr(Families &fs, const Snapshot &s)
{
	if (!s.stats.ttr)
		return;
	const TtrHistogram &h = *s.stats.ttr;
	Family &f = fs.get("mrc_time_to_recovery_seconds", "histogram",
			   "Time to recovery of every connection of the namespace: first loss "
			   "detected to everything lost acknowledged.");
	uint64_t cum = 0;
	for (size_t b = 0; b < h.buckets.size(); b++) {
		cum += h.buckets[b];
		auto up = ttr_bucket_upper_ns(b);
		f.samples.push_back({"_bucket",
				     {{"netns", s.netns}, {"le", up ? seconds(*up) : "+Inf"}},
				     num(cum)});
	}
	f.samples.push_back({"_sum", {{"netns", s.netns}}, seconds(h.sum_ns)});
	f.samples.push_back({"_count", {{"netns", s.netns}}, num(cum)});
}

void add_planes(Families &fs, const Snapshot &s)
{
	for (const auto &p : s.planes) {
		Labels l = {{"netns", s.netns},
			    {"plane", std::to_string(p.id)},
			    {"device", p.ifname.value_or("")}};
		fs.add("mrc_plane_up", "gauge", "1 if the plane is operationally up.", l,
		       num(p.oper_up));
		fs.add("mrc_plane_admin_up", "gauge", "1 if the plane is administratively up.", l,
		       num(p.admin_up.value_or(false)));
		fs.add("mrc_plane_configured_paths", "gauge", "Paths configured on the plane.", l,
		       num(p.nr_paths));
	}
}

// Figures of the open connections, per state and per plane.
void add_open_conns(Families &fs, const Snapshot &s)
{
	for (unsigned st = 0; st < __MRC_CONN_STATE_MAX; st++) {
		uint64_t n = std::count_if(s.conns.begin(), s.conns.end(),
					   [st](const Conn &c) { return c.state == st; });
		fs.add("mrc_connections", "gauge", "Connections, by state.",
		       {{"netns", s.netns}, {"state", conn_state_name(st)}}, num(n));
	}
	struct PlaneSums {
		std::array<uint64_t, __MRC_PATH_STATE_MAX> states{};
		uint64_t tx = 0, retx = 0, lost = 0, ecn = 0, srtt_sum = 0, srtt_n = 0;
	};
	std::map<uint32_t, PlaneSums> planes;
	for (const auto &p : s.planes)
		planes[p.id];
	for (const auto &c : s.conns)
		for (const auto &p : c.paths) {
			PlaneSums &ps = planes[p.plane];
			if (p.state < __MRC_PATH_STATE_MAX)
				ps.states[p.state]++;
			ps.tx += p.tx_pkts;
			ps.retx += p.retx_pkts;
			ps.lost += p.lost_pkts;
			ps.ecn += p.ecn_marks;
			if (p.srtt_us) {
				ps.srtt_sum += p.srtt_us;
				ps.srtt_n++;
			}
		}
	const char *sums = " Summed over the open connections: falls when connections close.";
	for (const auto &[id, ps] : planes) {
		Labels l = {{"netns", s.netns}, {"plane", std::to_string(id)}};
		std::vector<std::pair<std::string, uint64_t>> by_state;
		for (unsigned st = 0; st < __MRC_PATH_STATE_MAX; st++)
			by_state.emplace_back(path_state_name(st), ps.states[st]);
		add_by(fs, "mrc_paths", "gauge",
		       "EVs (paths) of the open connections, by plane and state.", l, "state",
		       by_state);
		fs.add("mrc_open_conns_plane_sent_packets", "gauge",
		       std::string("Packets sent on the plane.") + sums, l, num(ps.tx));
		fs.add("mrc_open_conns_plane_retransmitted_packets", "gauge",
		       std::string("Retransmissions sent on the plane.") + sums, l, num(ps.retx));
		fs.add("mrc_open_conns_plane_lost_packets", "gauge",
		       std::string("Packets declared lost on the plane.") + sums, l, num(ps.lost));
		fs.add("mrc_open_conns_plane_ecn_marks", "gauge",
		       std::string("ECN marks reported for the plane.") + sums, l, num(ps.ecn));
		fs.add("mrc_open_conns_plane_srtt_seconds", "gauge",
		       "Mean smoothed RTT of the plane's EVs of the open connections (0: none).", l,
		       seconds(ps.srtt_n ? ps.srtt_sum * 1000 / ps.srtt_n : 0));
	}
}

uint64_t retx_of(const Conn &c)
{
	return c.retx_rto + c.retx_nack + c.retx_sack + c.retx_ev;
}

void add_top_conns(Families &fs, const Snapshot &s, const Options &o)
{
	std::vector<const Conn *> v;
	for (const auto &c : s.conns)
		v.push_back(&c);
	auto key = [&o](const Conn *c) {
		return o.top_by == TopBy::Retx ? retx_of(*c) : c->bytes_sent + c->bytes_recv;
	};
	std::stable_sort(v.begin(), v.end(),
			 [&key](const Conn *a, const Conn *b) { return key(a) > key(b); });
	v.resize(std::min(v.size(), o.top_n));
	for (const Conn *c : v) {
		Labels l = {{"netns", s.netns},
			    {"conn", std::to_string(c->id)},
			    {"local", endpoint(c->local_addr, c->local_port)},
			    {"remote", endpoint(c->remote_addr, c->remote_port)}};
		fs.add("mrc_conn_sent_bytes", "counter",
		       "Payload bytes a connection sent (first transmissions).", l,
		       num(c->bytes_sent));
		fs.add("mrc_conn_received_bytes", "counter",
		       "Payload bytes delivered to a connection's receiver.", l,
		       num(c->bytes_recv));
		add_by(fs, "mrc_conn_retransmissions", "counter",
		       "Retransmissions of a connection, by cause.", l, "cause",
		       {{"rto", c->retx_rto},
			{"nack", c->retx_nack},
			{"sack", c->retx_sack},
			{"ev", c->retx_ev}});
		fs.add("mrc_conn_recoveries", "counter", "Recoveries of a connection.", l,
		       num(c->ttr_count));
		fs.add("mrc_conn_recovery_max_seconds", "gauge",
		       "Longest time to recovery of a connection.", l, seconds(c->ttr_max_ns));
		fs.add("mrc_conn_srtt_seconds", "gauge", "Smoothed RTT of a connection.", l,
		       seconds(uint64_t{c->srtt_us} * 1000));
		fs.add("mrc_conn_rto_seconds", "gauge", "Retransmission timeout of a connection.",
		       l, seconds(uint64_t{c->rto_us} * 1000));
		fs.add("mrc_conn_cwnd_bytes", "gauge", "Congestion window of a connection.", l,
		       num(c->cwnd));
		fs.add("mrc_conn_inflight_bytes", "gauge",
		       "Bytes a connection sent and has not seen acknowledged.", l,
		       num(c->inflight));
		add_by(fs, "mrc_conn_paths", "gauge", "EVs of a connection, by state.", l, "state",
		       {{path_state_name(MRC_PATH_GOOD), c->paths_good},
			{path_state_name(MRC_PATH_SKIP), c->paths_skip},
			{path_state_name(MRC_PATH_ASSUMED_BAD), c->paths_bad},
			{path_state_name(MRC_PATH_DENIED), c->paths_denied},
			{path_state_name(MRC_PATH_BACKUP), c->paths_backup}});
	}
}

void write_family(std::string &out, const Family &f, Format fmt)
{
	bool om = fmt == Format::OpenMetrics;
	// The text format names a counter by its samples, OpenMetrics by its family.
	std::string head = f.name + (f.type == "counter" && !om ? "_total" : "");
	out += "# HELP " + head + " " + escape(f.help, false) + "\n";
	out += "# TYPE " + head + " " + f.type + "\n";
	std::string unit = unit_of(f.name);
	if (om && !unit.empty())
		out += "# UNIT " + head + " " + unit + "\n";
	for (const auto &s : f.samples) {
		out += f.name + s.suffix;
		if (!s.labels.empty()) {
			out += "{";
			for (size_t i = 0; i < s.labels.size(); i++)
				out += (i ? "," : "") + s.labels[i].first + "=\"" +
				       escape(s.labels[i].second, true) + "\"";
			out += "}";
		}
		out += " " + s.value + "\n";
	}
}

} // namespace

Snapshot collect(Client &client, const std::string &netns)
{
	Snapshot s;
	s.netns = netns;
	try {
		s.stats = client.stats();
		s.planes = client.planes();
		s.conns = client.conns();
	} catch (const std::exception &e) {
		s.error = e.what();
	}
	return s;
}

std::string render(const std::vector<Snapshot> &snaps, const Options &opts)
{
	Families fs;
	for (const auto &s : snaps)
		fs.add("mrc_up", "gauge",
		       "1 if the namespace's MRC figures could be read (the module is loaded).",
		       {{"netns", s.netns}}, num(!s.error));
	for (const auto &s : snaps) {
		if (s.error)
			continue;
		add_mib(fs, s);
		add_ttr(fs, s);
		add_planes(fs, s);
		add_open_conns(fs, s);
		if (opts.top_n)
			add_top_conns(fs, s, opts);
	}
	std::string out;
	for (const auto &f : fs.list())
		write_family(out, f, opts.format);
	if (opts.format == Format::OpenMetrics)
		out += "# EOF\n";
	return out;
}

const char *content_type(Format f)
{
	return f == Format::OpenMetrics
		   ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
		   : "text/plain; version=0.0.4; charset=utf-8";
}

std::string netns_label()
{
	struct stat self;
	if (stat("/proc/self/ns/net", &self) == 0) {
		if (DIR *d = opendir("/run/netns")) {
			std::string found;
			while (dirent *e = readdir(d)) {
				struct stat st;
				std::string p = std::string("/run/netns/") + e->d_name;
				if (e->d_name[0] != '.' && stat(p.c_str(), &st) == 0 &&
				    st.st_ino == self.st_ino && st.st_dev == self.st_dev) {
					found = e->d_name;
					break;
				}
			}
			closedir(d);
			if (!found.empty())
				return found;
		}
	}
	char buf[64] = {};
	ssize_t n = readlink("/proc/self/ns/net", buf, sizeof(buf) - 1);
	return n > 0 ? std::string(buf, n) : "unknown";
}

} // namespace mrc::metrics
