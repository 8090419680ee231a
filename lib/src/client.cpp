// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: the typed API over a Transport: request builders, reply parsers.
#include <mrc/attr.hpp>
#include <mrc/netlink.hpp>

#include <cerrno>

#include <linux/mrc.h>

namespace mrc {

Client::Client() : transport_(make_netlink_transport())
{
}
Client::Client(std::unique_ptr<Transport> t) : transport_(std::move(t))
{
	if (!transport_)
		throw Error(EINVAL, "no transport");
}
Client::~Client() = default;
Client::Client(Client &&) noexcept = default;
Client &Client::operator=(Client &&) noexcept = default;

std::vector<Message> Client::call(uint8_t cmd, const std::vector<uint8_t> &attrs, bool dump,
				  const std::string &op)
{
	Message m;
	m.cmd = cmd;
	m.attrs = attrs;
	return transport_->request(m, dump, op);
}

namespace {

// The single reply of a do request.
const Message &one(const std::vector<Message> &r, const std::string &op)
{
	if (r.empty())
		throw Error(EPROTO, op + ": the kernel sent no reply");
	return r.front();
}

Attrs nest_of(const Message &m, uint16_t type)
{
	return Attrs(m.attrs).nested(type);
}

} // namespace

Info Client::info()
{
	Attrs a(one(call(MRC_CMD_INFO_GET, {}, false, "info"), "info").attrs);
	Info info;
	info.version = a.str(MRC_A_INFO_VERSION).value_or("");
	info.af = a.u32(MRC_A_INFO_AF).value_or(0);
	info.ipproto = a.u32(MRC_A_INFO_IPPROTO).value_or(0);
	info.udp_port = a.u16(MRC_A_INFO_UDP_PORT).value_or(0);
	info.netns_cookie = a.u64(MRC_A_INFO_NETNS_COOKIE).value_or(0);
	return info;
}

// ---- planes ----

namespace {

std::vector<uint8_t> plane_attrs(const Plane &p, bool id_only)
{
	AttrWriter w;
	w.begin_nest(MRC_A_PLANE);
	w.put_u32(MRC_PLANE_A_ID, p.id);
	if (!id_only) {
		if (p.ifindex)
			w.put_u32(MRC_PLANE_A_IFINDEX, *p.ifindex);
		if (p.ifname)
			w.put_str(MRC_PLANE_A_IFNAME, *p.ifname);
		if (p.saddr)
			w.put_in6(MRC_PLANE_A_SADDR, *p.saddr);
		if (p.admin_up)
			w.put_u8(MRC_PLANE_A_ADMIN,
				 *p.admin_up ? MRC_PLANE_ADMIN_UP : MRC_PLANE_ADMIN_DOWN);
	}
	w.end_nest();
	return w.bytes();
}

} // namespace

Plane parse_plane(const std::vector<uint8_t> &attrs)
{
	Attrs a = Attrs(attrs).nested(MRC_A_PLANE);
	Plane p;
	p.id = a.u32(MRC_PLANE_A_ID).value_or(0);
	p.ifindex = a.u32(MRC_PLANE_A_IFINDEX);
	p.ifname = a.str(MRC_PLANE_A_IFNAME);
	p.saddr = a.in6(MRC_PLANE_A_SADDR);
	if (auto v = a.u8(MRC_PLANE_A_ADMIN))
		p.admin_up = *v == MRC_PLANE_ADMIN_UP;
	p.oper_up = a.u8(MRC_PLANE_A_OPER).value_or(0) == MRC_PLANE_OPER_UP;
	p.nr_paths = a.u32(MRC_PLANE_A_NR_PATHS).value_or(0);
	return p;
}

void Client::plane_add(const Plane &p)
{
	call(MRC_CMD_PLANE_ADD, plane_attrs(p, false), false, "plane add");
}

void Client::plane_set(const Plane &p)
{
	call(MRC_CMD_PLANE_SET, plane_attrs(p, false), false, "plane set");
}

void Client::plane_del(uint32_t id)
{
	Plane p;
	p.id = id;
	call(MRC_CMD_PLANE_DEL, plane_attrs(p, true), false, "plane del");
}

Plane Client::plane_get(uint32_t id)
{
	Plane p;
	p.id = id;
	return parse_plane(
	    one(call(MRC_CMD_PLANE_GET, plane_attrs(p, true), false, "plane show"), "plane show")
		.attrs);
}

std::vector<Plane> Client::planes()
{
	std::vector<Plane> v;
	for (const auto &m : call(MRC_CMD_PLANE_GET, {}, true, "plane show"))
		v.push_back(parse_plane(m.attrs));
	return v;
}

// ---- paths ----

namespace {

std::vector<uint8_t> path_attrs(const Path &p)
{
	AttrWriter w;
	w.begin_nest(MRC_A_PATH);
	w.put_u32(MRC_PATH_A_ID, p.id);
	w.put_in6(MRC_PATH_A_DST, p.dst);
	w.put_u8(MRC_PATH_A_DST_LEN, p.dst_len);
	w.put_u32(MRC_PATH_A_PLANE, p.plane);
	w.put_u8(MRC_PATH_A_MODE, static_cast<uint8_t>(p.mode));
	if (p.usid)
		w.put_in6(MRC_PATH_A_USID, *p.usid);
	if (!p.segs.empty()) {
		w.begin_nest(MRC_PATH_A_SEGS);
		for (const auto &s : p.segs)
			w.put_in6(MRC_SEG_A_ADDR, s);
		w.end_nest();
	}
	if (p.entropy)
		w.put_u16(MRC_PATH_A_ENTROPY, *p.entropy);
	if (p.weight)
		w.put_u8(MRC_PATH_A_WEIGHT, *p.weight);
	if (p.deny)
		w.put_u8(MRC_PATH_A_DENY, *p.deny);
	w.end_nest();
	return w.bytes();
}

std::vector<uint8_t> path_id_attrs(uint32_t id)
{
	AttrWriter w;
	w.begin_nest(MRC_A_PATH).put_u32(MRC_PATH_A_ID, id).end_nest();
	return w.bytes();
}

} // namespace

Path parse_path(const std::vector<uint8_t> &attrs)
{
	Attrs a = Attrs(attrs).nested(MRC_A_PATH);
	Path p;
	p.id = a.u32(MRC_PATH_A_ID).value_or(0);
	p.dst = a.in6(MRC_PATH_A_DST).value_or(in6_addr{});
	p.dst_len = a.u8(MRC_PATH_A_DST_LEN).value_or(128);
	p.plane = a.u32(MRC_PATH_A_PLANE).value_or(0);
	p.mode = static_cast<FwdMode>(a.u8(MRC_PATH_A_MODE).value_or(0));
	p.usid = a.in6(MRC_PATH_A_USID);
	Attrs segs = a.nested(MRC_PATH_A_SEGS);
	for (const auto &s : segs.all())
		if (s.type() == MRC_SEG_A_ADDR)
			p.segs.push_back(s.in6());
	p.entropy = a.u16(MRC_PATH_A_ENTROPY);
	p.weight = a.u8(MRC_PATH_A_WEIGHT);
	if (auto d = a.u8(MRC_PATH_A_DENY))
		p.deny = *d != 0;
	return p;
}

void Client::path_add(const Path &p)
{
	call(MRC_CMD_PATH_ADD, path_attrs(p), false, "path add");
}

void Client::path_set(const PathUpdate &u)
{
	AttrWriter w;
	w.begin_nest(MRC_A_PATH).put_u32(MRC_PATH_A_ID, u.id);
	if (u.weight)
		w.put_u8(MRC_PATH_A_WEIGHT, *u.weight);
	if (u.deny)
		w.put_u8(MRC_PATH_A_DENY, *u.deny);
	w.end_nest();
	call(MRC_CMD_PATH_SET, w.bytes(), false, "path set");
}

void Client::path_del(uint32_t id)
{
	call(MRC_CMD_PATH_DEL, path_id_attrs(id), false, "path del");
}

Path Client::path_get(uint32_t id)
{
	return parse_path(
	    one(call(MRC_CMD_PATH_GET, path_id_attrs(id), false, "path show"), "path show").attrs);
}

std::vector<Path> Client::paths()
{
	std::vector<Path> v;
	for (const auto &m : call(MRC_CMD_PATH_GET, {}, true, "path show"))
		v.push_back(parse_path(m.attrs));
	return v;
}

// ---- policies ----

namespace {

std::vector<uint8_t> policy_attrs(const Policy &p, bool name_only)
{
	AttrWriter w;
	w.begin_nest(MRC_A_POLICY);
	w.put_str(MRC_POLICY_A_NAME, p.name);
	if (!name_only) {
		auto u64 = [&](uint16_t t, const std::optional<uint64_t> &v) {
			if (v)
				w.put_u64(t, *v);
		};
		auto u32 = [&](uint16_t t, const std::optional<uint32_t> &v) {
			if (v)
				w.put_u32(t, *v);
		};
		u64(MRC_POLICY_A_RTO_MIN, p.rto_min_ns);
		u64(MRC_POLICY_A_RTO_MAX, p.rto_max_ns);
		u64(MRC_POLICY_A_PROBE_INTERVAL, p.probe_interval_ns);
		u64(MRC_POLICY_A_SKIP, p.skip_ns);
		u32(MRC_POLICY_A_RETRY_LIMIT, p.retry_limit);
		u32(MRC_POLICY_A_FAIL_TO_BAD, p.fail_to_bad);
		u32(MRC_POLICY_A_SUCCESS_TO_GOOD, p.success_to_good);
		u32(MRC_POLICY_A_MIN_ACTIVE, p.min_active);
		u32(MRC_POLICY_A_MAX_PATHS, p.max_paths);
		u32(MRC_POLICY_A_BACKUPS, p.backups);
		u32(MRC_POLICY_A_SACK_GAP, p.sack_gap);
		if (p.ecn_response)
			w.put_u8(MRC_POLICY_A_ECN_RESPONSE, *p.ecn_response);
		if (p.keepalive)
			w.put_u8(MRC_POLICY_A_KEEPALIVE, *p.keepalive);
		u64(MRC_POLICY_A_KEEPALIVE_IDLE, p.keepalive_idle_ns);
		u64(MRC_POLICY_A_KEEPALIVE_INTERVAL, p.keepalive_interval_ns);
		u32(MRC_POLICY_A_KEEPALIVE_COUNT, p.keepalive_count);
	}
	w.end_nest();
	return w.bytes();
}

} // namespace

Policy parse_policy(const std::vector<uint8_t> &attrs)
{
	Attrs a = Attrs(attrs).nested(MRC_A_POLICY);
	Policy p;
	p.name = a.str(MRC_POLICY_A_NAME).value_or("");
	p.rto_min_ns = a.u64(MRC_POLICY_A_RTO_MIN);
	p.rto_max_ns = a.u64(MRC_POLICY_A_RTO_MAX);
	p.probe_interval_ns = a.u64(MRC_POLICY_A_PROBE_INTERVAL);
	p.skip_ns = a.u64(MRC_POLICY_A_SKIP);
	p.retry_limit = a.u32(MRC_POLICY_A_RETRY_LIMIT);
	p.fail_to_bad = a.u32(MRC_POLICY_A_FAIL_TO_BAD);
	p.success_to_good = a.u32(MRC_POLICY_A_SUCCESS_TO_GOOD);
	p.min_active = a.u32(MRC_POLICY_A_MIN_ACTIVE);
	p.max_paths = a.u32(MRC_POLICY_A_MAX_PATHS);
	p.backups = a.u32(MRC_POLICY_A_BACKUPS);
	p.sack_gap = a.u32(MRC_POLICY_A_SACK_GAP);
	if (auto v = a.u8(MRC_POLICY_A_ECN_RESPONSE))
		p.ecn_response = *v != 0;
	if (auto v = a.u8(MRC_POLICY_A_KEEPALIVE))
		p.keepalive = *v != 0;
	p.keepalive_idle_ns = a.u64(MRC_POLICY_A_KEEPALIVE_IDLE);
	p.keepalive_interval_ns = a.u64(MRC_POLICY_A_KEEPALIVE_INTERVAL);
	p.keepalive_count = a.u32(MRC_POLICY_A_KEEPALIVE_COUNT);
	p.is_default = a.u8(MRC_POLICY_A_DEFAULT).value_or(0) != 0;
	return p;
}

void Client::policy_add(const Policy &p)
{
	call(MRC_CMD_POLICY_ADD, policy_attrs(p, false), false, "policy add");
}

void Client::policy_set(const Policy &p)
{
	call(MRC_CMD_POLICY_SET, policy_attrs(p, false), false, "policy set");
}

void Client::policy_del(const std::string &name)
{
	Policy p;
	p.name = name;
	call(MRC_CMD_POLICY_DEL, policy_attrs(p, true), false, "policy del");
}

Policy Client::policy_get(const std::string &name)
{
	Policy p;
	p.name = name;
	return parse_policy(
	    one(call(MRC_CMD_POLICY_GET, policy_attrs(p, true), false, "policy show"),
		"policy show")
		.attrs);
}

std::vector<Policy> Client::policies()
{
	std::vector<Policy> v;
	for (const auto &m : call(MRC_CMD_POLICY_GET, {}, true, "policy show"))
		v.push_back(parse_policy(m.attrs));
	return v;
}

// ---- settings ----

Settings parse_settings(const std::vector<uint8_t> &attrs)
{
	Attrs a = Attrs(attrs).nested(MRC_A_SETTINGS);
	Settings s;
	s.udp_port = a.u16(MRC_SETTINGS_A_UDP_PORT);
	s.default_policy = a.str(MRC_SETTINGS_A_DEFAULT_POLICY);
	s.max_ev_set = a.u32(MRC_SETTINGS_A_MAX_EV_SET);
	return s;
}

Settings Client::settings()
{
	return parse_settings(
	    one(call(MRC_CMD_SETTINGS_GET, {}, false, "settings show"), "settings show").attrs);
}

void Client::settings_set(const Settings &s)
{
	AttrWriter w;
	w.begin_nest(MRC_A_SETTINGS);
	if (s.udp_port)
		w.put_u16(MRC_SETTINGS_A_UDP_PORT, *s.udp_port);
	if (s.default_policy)
		w.put_str(MRC_SETTINGS_A_DEFAULT_POLICY, *s.default_policy);
	if (s.max_ev_set)
		w.put_u32(MRC_SETTINGS_A_MAX_EV_SET, *s.max_ev_set);
	w.end_nest();
	call(MRC_CMD_SETTINGS_SET, w.bytes(), false, "settings set");
}

// ---- connections ----

namespace {

// Append the EVs of connection attributes @a (MRC_CONN_A_PATHS) to @out.
void append_conn_paths(const Attrs &a, std::vector<ConnPath> &out)
{
	Attrs paths = a.nested(MRC_CONN_A_PATHS);
	for (const auto &pa : paths.all()) {
		if (pa.type() != MRC_CONN_A_PATH)
			continue;
		Attrs p(pa);
		ConnPath cp;
		cp.ev = p.u32(MRC_CPATH_A_EV).value_or(0);
		cp.plane = p.u32(MRC_CPATH_A_PLANE).value_or(0);
		cp.path_id = p.u32(MRC_CPATH_A_PATH_ID);
		cp.state = p.u8(MRC_CPATH_A_STATE).value_or(0);
		cp.reason = p.u8(MRC_CPATH_A_REASON).value_or(0);
		cp.tx_pkts = p.u64(MRC_CPATH_A_TX_PKTS).value_or(0);
		cp.retx_pkts = p.u64(MRC_CPATH_A_RETX_PKTS).value_or(0);
		cp.lost_pkts = p.u64(MRC_CPATH_A_LOST_PKTS).value_or(0);
		cp.timeouts = p.u64(MRC_CPATH_A_TIMEOUTS).value_or(0);
		cp.ecn_marks = p.u64(MRC_CPATH_A_ECN_MARKS).value_or(0);
		cp.srtt_us = p.u32(MRC_CPATH_A_SRTT).value_or(0);
		out.push_back(cp);
	}
}

} // namespace

Conn parse_conn(const std::vector<uint8_t> &attrs)
{
	Attrs a = Attrs(attrs).nested(MRC_A_CONN);
	Conn c;
	c.id = a.u32(MRC_CONN_A_ID).value_or(0);
	c.local_addr = a.in6(MRC_CONN_A_LOCAL_ADDR).value_or(in6_addr{});
	c.remote_addr = a.in6(MRC_CONN_A_REMOTE_ADDR).value_or(in6_addr{});
	c.local_port = a.u16(MRC_CONN_A_LOCAL_PORT).value_or(0);
	c.remote_port = a.u16(MRC_CONN_A_REMOTE_PORT).value_or(0);
	c.type = a.u8(MRC_CONN_A_TYPE).value_or(0);
	c.state = a.u8(MRC_CONN_A_STATE).value_or(0);
	c.local_qpn = a.u32(MRC_CONN_A_LOCAL_QPN).value_or(0);
	c.remote_qpn = a.u32(MRC_CONN_A_REMOTE_QPN).value_or(0);
	c.policy = a.str(MRC_CONN_A_POLICY).value_or("");
	c.srtt_us = a.u32(MRC_CONN_A_SRTT).value_or(0);
	c.rto_us = a.u32(MRC_CONN_A_RTO).value_or(0);
	c.cwnd = a.u32(MRC_CONN_A_CWND).value_or(0);
	c.inflight = a.u32(MRC_CONN_A_INFLIGHT).value_or(0);
	c.paths_good = a.u32(MRC_CONN_A_PATHS_GOOD).value_or(0);
	c.paths_skip = a.u32(MRC_CONN_A_PATHS_SKIP).value_or(0);
	c.paths_bad = a.u32(MRC_CONN_A_PATHS_BAD).value_or(0);
	c.paths_denied = a.u32(MRC_CONN_A_PATHS_DENIED).value_or(0);
	c.paths_backup = a.u32(MRC_CONN_A_PATHS_BACKUP).value_or(0);
	c.retx_rto = a.u64(MRC_CONN_A_RETX_RTO).value_or(0);
	c.retx_nack = a.u64(MRC_CONN_A_RETX_NACK).value_or(0);
	c.retx_sack = a.u64(MRC_CONN_A_RETX_SACK).value_or(0);
	c.retx_ev = a.u64(MRC_CONN_A_RETX_EV).value_or(0);
	c.ttr_count = a.u64(MRC_CONN_A_TTR_COUNT).value_or(0);
	c.ttr_max_ns = a.u64(MRC_CONN_A_TTR_MAX).value_or(0);
	c.bytes_sent = a.u64(MRC_CONN_A_BYTES_SENT).value_or(0);
	c.bytes_recv = a.u64(MRC_CONN_A_BYTES_RECV).value_or(0);
	Attrs hist = a.nested(MRC_CONN_A_TTR_HIST);
	for (const auto &h : hist.all()) {
		if (h.type() >= 1 && h.type() <= MRC_TTR_BUCKETS)
			c.ttr_hist[h.type() - 1] = h.u64();
	}
	append_conn_paths(a, c.paths);
	return c;
}

std::vector<Conn> parse_conns(const std::vector<Message> &msgs, const std::string &op)
{
	std::vector<Conn> v;
	std::vector<std::optional<uint32_t>> want; // MRC_CONN_A_NR_PATHS of each
	for (const auto &m : msgs) {
		Attrs a = Attrs(m.attrs).nested(MRC_A_CONN);
		auto from = a.u32(MRC_CONN_A_PATHS_FROM);
		if (!from) {
			v.push_back(parse_conn(m.attrs));
			want.push_back(a.u32(MRC_CONN_A_NR_PATHS));
			continue;
		}
		// A continuation: the next EVs of the connection just before.
		uint32_t id = a.u32(MRC_CONN_A_ID).value_or(0);
		if (v.empty() || v.back().id != id || v.back().paths.size() != *from)
			throw Error(EPROTO, op + ": EVs " + std::to_string(*from) +
						"... of connection " + std::to_string(id) +
						" came out of order");
		append_conn_paths(a, v.back().paths);
	}
	for (size_t i = 0; i < v.size(); i++)
		if (want[i] && v[i].paths.size() != *want[i])
			throw Error(EPROTO, op + ": connection " + std::to_string(v[i].id) + ": " +
						std::to_string(v[i].paths.size()) + " of its " +
						std::to_string(*want[i]) + " EVs came");
	return v;
}

std::vector<Conn> Client::conns(const ConnFilter &f)
{
	std::vector<uint8_t> attrs;
	if (f.id || f.local_addr || f.remote_addr || f.local_port || f.remote_port || f.state) {
		AttrWriter w;
		w.begin_nest(MRC_A_CONN);
		if (f.id)
			w.put_u32(MRC_CONN_A_ID, *f.id);
		if (f.local_addr)
			w.put_in6(MRC_CONN_A_LOCAL_ADDR, *f.local_addr);
		if (f.remote_addr)
			w.put_in6(MRC_CONN_A_REMOTE_ADDR, *f.remote_addr);
		if (f.local_port)
			w.put_u16(MRC_CONN_A_LOCAL_PORT, *f.local_port);
		if (f.remote_port)
			w.put_u16(MRC_CONN_A_REMOTE_PORT, *f.remote_port);
		if (f.state)
			w.put_u8(MRC_CONN_A_STATE, *f.state);
		w.end_nest();
		attrs = w.bytes();
	}
	return parse_conns(call(MRC_CMD_CONN_GET, attrs, true, "conn show"), "conn show");
}

Conn Client::conn_get(uint32_t id)
{
	AttrWriter w;
	w.begin_nest(MRC_A_CONN).put_u32(MRC_CONN_A_ID, id).end_nest();
	// One connection, in as many messages as its EVs take.
	auto v = parse_conns(call(MRC_CMD_CONN_GET, w.bytes(), false, "conn show"), "conn show");
	if (v.size() != 1)
		throw Error(EPROTO, "conn show: the kernel sent " + std::to_string(v.size()) +
					" connections for one");
	return std::move(v.front());
}

// ---- statistics, probes ----

std::optional<uint64_t> Stats::get(uint32_t mib) const
{
	for (const auto &[k, v] : counters)
		if (k == mib)
			return v;
	return std::nullopt;
}

Stats parse_stats(const std::vector<uint8_t> &attrs)
{
	Stats s;
	Attrs nest = Attrs(attrs).nested(MRC_A_STATS);
	for (const auto &a : nest.all())
		if (a.type() != MRC_MIB_UNSPEC && a.size() == 8)
			s.counters.emplace_back(a.type(), a.u64());
	Attrs top(attrs);
	if (top.has(MRC_A_STATS_TTR_HIST)) {
		TtrHistogram h;
		Attrs hist = top.nested(MRC_A_STATS_TTR_HIST);
		for (const auto &b : hist.all())
			if (b.type() >= 1 && b.type() <= MRC_TTR_BUCKETS && b.size() == 8)
				h.buckets[b.type() - 1] = b.u64();
		h.sum_ns = top.u64(MRC_A_STATS_TTR_SUM).value_or(0);
		s.ttr = h;
	}
	return s;
}

Stats Client::stats()
{
	return parse_stats(one(call(MRC_CMD_STATS_GET, {}, false, "stats"), "stats").attrs);
}

ProbeResult Client::probe(const in6_addr &dst, uint32_t path_id, std::optional<uint32_t> timeout_ms)
{
	AttrWriter w;
	w.begin_nest(MRC_A_PROBE);
	w.put_in6(MRC_PROBE_A_DST, dst);
	w.put_u32(MRC_PROBE_A_PATH_ID, path_id);
	if (timeout_ms)
		w.put_u32(MRC_PROBE_A_TIMEOUT_MS, *timeout_ms);
	w.end_nest();
	Attrs a =
	    nest_of(one(call(MRC_CMD_PROBE, w.bytes(), false, "probe"), "probe"), MRC_A_PROBE);
	ProbeResult r;
	r.rtt_ns = a.u64(MRC_PROBE_A_RTT);
	r.timed_out = a.u8(MRC_PROBE_A_TIMED_OUT).value_or(0) != 0;
	return r;
}

// ---- events ----

Event parse_event(const std::vector<uint8_t> &attrs)
{
	Attrs a = Attrs(attrs).nested(MRC_A_EVENT);
	Event e;
	e.type = a.u8(MRC_EVENT_A_TYPE).value_or(0);
	e.timestamp_ns = a.u64(MRC_EVENT_A_TIMESTAMP).value_or(0);
	e.conn_id = a.u32(MRC_EVENT_A_CONN_ID);
	e.ev = a.u32(MRC_EVENT_A_EV);
	e.path_id = a.u32(MRC_EVENT_A_PATH_ID);
	e.plane = a.u32(MRC_EVENT_A_PLANE);
	e.ifindex = a.u32(MRC_EVENT_A_IFINDEX);
	e.old_state = a.u8(MRC_EVENT_A_OLD_STATE);
	e.new_state = a.u8(MRC_EVENT_A_NEW_STATE);
	e.reason = a.u8(MRC_EVENT_A_REASON);
	e.drops = a.u64(MRC_EVENT_A_DROPS);
	e.ttr_ns = a.u64(MRC_EVENT_A_TTR);
	e.local_addr = a.in6(MRC_EVENT_A_LOCAL_ADDR);
	e.remote_addr = a.in6(MRC_EVENT_A_REMOTE_ADDR);
	e.local_port = a.u16(MRC_EVENT_A_LOCAL_PORT);
	e.remote_port = a.u16(MRC_EVENT_A_REMOTE_PORT);
	e.error = a.u32(MRC_EVENT_A_ERROR);
	return e;
}

void Client::subscribe()
{
	transport_->subscribe();
}

std::optional<Event> Client::next_event(int timeout_ms)
{
	for (;;) {
		auto m = transport_->next_event(timeout_ms);
		if (!m)
			return std::nullopt;
		if (m->cmd == MRC_CMD_EVENT)
			return parse_event(m->attrs);
	}
}

} // namespace mrc
