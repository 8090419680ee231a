// SPDX-License-Identifier: GPL-2.0
// The simulator proper: network, endpoints, event loop and the checks
// (exactly-once in-order delivery, message boundaries, no spurious
// failure, bounded stalls).
#include "sim.h"

extern "C" {
#include "mrc_cm.h"
#include "mrc_cm_fsm.h"
#include "mrc_cookie.h"
}

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <queue>
#include <random>
#include <sstream>

namespace mrcsim {
namespace {

constexpr uint64_t kUs = 1000, kMs = 1000000;

uint64_t mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

// Fill @out with @len bytes of @side's stream from @off (one hash per word).
void fill_pattern(int side, uint64_t off, uint32_t len, uint8_t *out)
{
	uint64_t word = ~0ULL, w = 0;

	for (uint32_t i = 0; i < len; i++) {
		uint64_t o = off + i;
		if ((o >> 3) != word) {
			word = o >> 3;
			w = mix64(((uint64_t)side << 60) ^ word);
		}
		out[i] = (uint8_t)(w >> ((o & 7) * 8));
	}
}

// The UDP checksum stand-in (CRC-32): corrupted datagrams are dropped
// before MRC sees them.
uint32_t crc32(const uint8_t *p, size_t n)
{
	static uint32_t table[256];
	static bool init;
	uint32_t c = ~0U;

	if (!init) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t v = i;
			for (int k = 0; k < 8; k++)
				v = (v >> 1) ^ (0xedb88320U & (0U - (v & 1)));
			table[i] = v;
		}
		init = true;
	}
	for (size_t i = 0; i < n; i++)
		c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return ~c;
}

struct Packet {
	int to;        // receiving side
	uint32_t path; // network path
	uint32_t wire_ev;
	bool ce = false;
	bool corrupted = false;
	std::vector<uint8_t> bytes; // MRC bytes + 4-byte checksum
};

struct Event {
	uint64_t when;
	uint64_t seq;
	int kind; // 0 packet, 1 timer, 2 reader tick, 3 plane edge, 4 CM timer, 5 step
	int side;
	uint64_t gen;
	std::shared_ptr<Packet> pkt;
	bool operator>(const Event &o) const
	{
		return when != o.when ? when > o.when : seq > o.seq;
	}
};

struct Endpoint {
	int side = 0;
	mrc_conn conn{};
	std::vector<uint64_t> storage;
	std::vector<uint64_t> tx_storage; // attached at the first write
	// sending application
	uint64_t total = 0, written = 0;
	std::vector<uint32_t> msgs; // SEQPACKET message lengths
	size_t msgs_written = 0;
	// receiving application
	uint64_t peer_total = 0, read = 0;
	std::vector<uint32_t> peer_msgs;
	size_t msgs_read = 0;
	std::vector<bool> placed;
	uint64_t timer_at = 0, timer_gen = 0;
	uint64_t last_progress = 0;
	uint64_t stall = 0;
	bool reader_due = true;
	uint64_t fail_ns = 0;
	// connection management (kmod/core/mrc_cm_fsm.h): A connects, B
	// accepts; the engines run once established; both close at the end
	mrc_cm_fsm cm{};
	uint8_t cm_state = MRC_ST_CLOSED;
	uint64_t cm_timer_gen = 0;
	uint32_t cm_ev = 0;
	mrc_cm_params lparams{};
	mrc_cm_params rparams{}; // the peer's, from its CM_REP or the CM_RTU
	mrc_conn_params p{};     // the engine's, keys completed at start
	std::vector<mrc_path_cand> cands;
	bool started = false, cm_over = false;
	int cm_err = 0;
	uint64_t cm_over_ns = 0;
	bool done_recv() const { return read >= peer_total && msgs_read >= peer_msgs.size(); }
};

class Sim {
public:
	Sim(const Scenario &sc, uint64_t seed, bool verbose)
	    : sc_(sc), seed_(seed), v_(verbose), rng_(seed * 7919 + 17)
	{
	}
	Result run();

private:
	const Scenario &sc_;
	uint64_t seed_;
	bool v_;
	std::mt19937_64 rng_;
	std::priority_queue<Event, std::vector<Event>, std::greater<Event>> q_;
	uint64_t now_ = 0, seq_ = 0;
	uint64_t cookie_ = 0;
	mrc_cookie_key key_{}; // B's cookie key (a stateless listener)
	bool closing_ = false;
	// steps (Scenario::rounds): how many have begun; one is pending
	// while the gap before it runs
	uint32_t round_ = 1;
	bool round_pending_ = false;
	Endpoint ep_[2];
	// per path, per direction (0: A->B, 1: B->A)
	std::vector<uint64_t> busy_[2], last_arr_[2];
	std::vector<bool> ge_bad_[2];
	std::vector<bool> plane_was_down_;
	Result res_;

	double uni() { return std::uniform_real_distribution<double>(0, 1)(rng_); }
	bool fail(const std::string &why)
	{
		if (res_.ok) {
			res_.ok = false;
			std::ostringstream o;
			o << why << " at t=" << now_ << "ns";
			res_.why = o.str();
		}
		return false;
	}
	void log(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
	bool path_up(uint32_t path, uint64_t t) const;
	bool setup_endpoint(int side);
	bool faulted(uint32_t path) const;
	void check_balance();
	void transmit(int from, uint32_t path, uint32_t wire_ev, std::vector<uint8_t> bytes);
	bool kick(int side);
	bool attach_tx(Endpoint &e);
	bool deliver(const Packet &p);
	bool app_read(int side);
	void arm(int side);
	void apply_planes();
	void cm_send(int side, uint8_t opcode, bool fan_out = false);
	bool cm_act(int side, const mrc_cm_act &a);
	// The disconnect's budget from the policy, as the module's glue sets it.
	void set_cm_policy(Endpoint &e) const
	{
		mrc_cm_fsm_set_policy(&e.cm, mrc_policy_timeout_budget(&sc_.params.policy),
				      sc_.params.policy.rto_max_ns);
	}
	bool cm_input(int side, const mrc_pkt &pkt, uint32_t wire_ev);
	void snap_rto();
	uint64_t round_bytes(int side) const { return side ? sc_.round_ba : sc_.round_ab; }
	uint64_t allowed(int side) const;
	void round_check();
	uint64_t rto_at_fault_[2] = {0, 0};
	void cm_reply_stateless(int side, uint8_t opcode, uint32_t wire_ev);
	std::vector<uint8_t> cm_bytes(int side, uint8_t opcode, bool stateless = false);
	mrc_cookie_conn cookie_conn() const;
};

void Sim::log(const char *fmt, ...)
{
	if (!v_)
		return;
	va_list ap;
	va_start(ap, fmt);
	std::printf("%10.3f us  ", now_ / 1000.0);
	std::vprintf(fmt, ap);
	std::printf("\n");
	va_end(ap);
}

bool Sim::path_up(uint32_t path, uint64_t t) const
{
	uint32_t plane = path / sc_.per_plane;

	for (auto &b : sc_.blackholes)
		if (b.first == path && b.second.covers(t))
			return false;
	for (auto &d : sc_.plane_down)
		if (d.first == plane && d.second.covers(t))
			return false;
	for (auto f : sc_.flapping)
		if (f == path && t >= sc_.fault_at &&
		    ((t - sc_.fault_at) / sc_.flap_period_ns) % 2 == 0)
			return false;
	return true;
}

bool Sim::faulted(uint32_t path) const
{
	auto touches = [path](const std::vector<std::pair<uint32_t, Window>> &v) {
		for (auto &w : v)
			if (w.first == path)
				return true;
		return false;
	};
	for (auto &d : sc_.plane_down)
		if (d.first == path / sc_.per_plane)
			return true;
	for (auto f : sc_.flapping)
		if (f == path)
			return true;
	return touches(sc_.blackholes) || touches(sc_.oneway[0]) || touches(sc_.oneway[1]) ||
	       touches(sc_.slow);
}

// The share of A's packets each path carried, against the mean over the
// paths never taken out: spraying must spread a bulk transfer evenly.
void Sim::check_balance()
{
	const mrc_conn *c = &ep_[0].conn;
	std::vector<uint32_t> tx;

	for (uint32_t i = 0; i < mrc_conn_path_count(c); i++) {
		const mrc_path *pp = mrc_conn_path(c, i);
		bool out = false;

		for (uint32_t id : res_.out_paths)
			out |= id == pp->cfg_id;
		if (!out && !faulted(pp->cfg_id))
			tx.push_back(pp->stats.tx_pkts);
	}
	if (tx.empty())
		return (void)fail("no path of A stayed in use");
	double mean = 0;
	for (uint32_t n : tx)
		mean += n;
	mean /= tx.size();
	auto [lo, hi] = std::minmax_element(tx.begin(), tx.end());
	res_.balance_min = *lo / mean;
	res_.balance_max = *hi / mean;
	double tol = sc_.balance_pct / 100.0;
	if (res_.balance_min < 1 - tol || res_.balance_max > 1 + tol)
		fail("per-path packets of A from " + std::to_string(*lo) + " to " +
		     std::to_string(*hi) + " over " + std::to_string(tx.size()) + " paths, mean " +
		     std::to_string((uint64_t)mean) + ": not within +-" +
		     std::to_string(sc_.balance_pct) + "%");
}

bool Sim::setup_endpoint(int side)
{
	Endpoint &e = ep_[side];
	mrc_conn_params p = sc_.params;
	std::vector<mrc_path_cand> cands;

	e.side = side;
	p.local_qpn = side ? 0x200 : 0x100;
	p.peer_qpn = side ? 0x100 : 0x200;
	uint32_t psn_a = (uint32_t)mix64(seed_ * 3 + 1) & MRC_PSN_MASK;
	uint32_t psn_b = (uint32_t)mix64(seed_ * 3 + 2) & MRC_PSN_MASK;
	uint32_t key_a = (uint32_t)mix64(seed_ * 5 + 1), key_b = (uint32_t)mix64(seed_ * 5 + 2);
	p.tx_init_psn = side ? psn_b : psn_a;
	p.rx_init_psn = side ? psn_a : psn_b;
	p.rx_r_key = side ? key_b : key_a;
	p.tx_r_key = side ? key_a : key_b;
	p.sock_type = sc_.sock_type;
	p.rcvbuf = sc_.rcvbuf;
	p.peer_window = sc_.rcvbuf;
	p.seed = mix64(seed_ * 11 + side);
	for (uint32_t i = 0; i < sc_.planes * sc_.per_plane; i++)
		cands.push_back({i, 1, (uint8_t)(i / sc_.per_plane)});
	// As the kernel does: a path table for the EVs offered, the send
	// storage at the first write (attach_tx()).
	p.path_evs = (uint32_t)cands.size();
	p.tx_later = true;
	e.storage.assign(mrc_conn_storage_size(&p) / 8 + 1, 0);
	int err = mrc_conn_init(&e.conn, &p, e.storage.data(), cands.data(), cands.size(), 0);
	if (err)
		return fail("mrc_conn_init failed: " + std::to_string(err));
	e.lparams.sock_type =
	    sc_.sock_type == MRC_CONN_SEQPACKET ? MRC_CM_SOCK_SEQPACKET : MRC_CM_SOCK_STREAM;
	e.lparams.mpr = 1;
	e.lparams.max_payload = 1400;
	e.lparams.init_psn = p.tx_init_psn;
	e.lparams.r_key = p.rx_r_key;
	e.lparams.rcv_window = (uint32_t)sc_.rcvbuf;
	e.p = p;
	e.cands = cands;
	e.cm_ev = (uint16_t)mix64(seed_ * 13 + side);
	e.total = side ? sc_.bytes_ba : sc_.bytes_ab;
	e.peer_total = side ? sc_.bytes_ab : sc_.bytes_ba;
	if (sc_.rounds) {
		e.total = sc_.rounds * round_bytes(side);
		e.peer_total = sc_.rounds * round_bytes(1 - side);
	}
	return true;
}

void Sim::transmit(int from, uint32_t path, uint32_t wire_ev, std::vector<uint8_t> bytes)
{
	const PathCfg &pc = sc_.paths[path];
	uint32_t crc = crc32(bytes.data(), bytes.size());

	res_.pkts++;
	for (int i = 0; i < 4; i++)
		bytes.push_back((uint8_t)(crc >> (24 - 8 * i)));
	uint64_t ser = (bytes.size() + 70) * 8ULL * 1000000000ULL / pc.rate_bps;
	uint64_t depart = std::max(now_, busy_[from][path]) + ser;
	busy_[from][path] = depart;
	if (!path_up(path, now_) || !path_up(path, depart))
		return;
	for (auto &b : sc_.oneway[from])
		if (b.first == path && b.second.covers(now_)) {
			if (getenv("SIMDBG"))
				log("side %d packet lost on one-way path %u", from, path);
			return;
		}
	bool lost = uni() < pc.loss;
	if (pc.ge_gb > 0) {
		bool bad = ge_bad_[from][path];
		if (bad && uni() < pc.ge_bg)
			bad = false;
		else if (!bad && uni() < pc.ge_gb)
			bad = true;
		ge_bad_[from][path] = bad;
		if (bad && uni() < pc.ge_loss)
			lost = true;
	}
	if (lost)
		return;
	auto pkt = std::make_shared<Packet>();
	pkt->to = 1 - from;
	pkt->path = path;
	pkt->wire_ev = wire_ev;
	pkt->ce = uni() < pc.ecn;
	pkt->bytes = std::move(bytes);
	if (uni() < pc.corrupt) {
		const std::vector<uint8_t> sent = pkt->bytes;
		int n = 1 + (int)(rng_() % 3);
		for (int i = 0; i < n; i++)
			pkt->bytes[rng_() % pkt->bytes.size()] ^= (uint8_t)(1 + rng_() % 255);
		// Two flips of one byte can cancel: then nothing was corrupted.
		pkt->corrupted = pkt->bytes != sent;
	}
	uint64_t arr = depart + pc.delay_ns + (pc.jitter_ns ? rng_() % pc.jitter_ns : 0);
	for (auto &w : sc_.slow)
		if (w.first == path && w.second.covers(depart) &&
		    (sc_.slow_from < 0 || sc_.slow_from == from))
			arr += sc_.slow_ns;
	if (uni() < pc.reorder) {
		arr += rng_() % pc.reorder_ns; // overtaken: FIFO broken
	} else {
		arr = std::max(arr, last_arr_[from][path]);
		last_arr_[from][path] = arr;
	}
	q_.push({arr, seq_++, 0, pkt->to, 0, pkt});
	if (uni() < pc.dup) {
		auto copy = std::make_shared<Packet>(*pkt);
		q_.push({arr + 1 + rng_() % 5000, seq_++, 0, pkt->to, 0, copy});
	}
}

bool Sim::deliver(const Packet &p)
{
	Endpoint &e = ep_[p.to];
	size_t n = p.bytes.size();
	mrc_pkt pkt;
	mrc_conn_verdict v;

	if (n < 4)
		return fail("runt packet");
	uint32_t crc = ((uint32_t)p.bytes[n - 4] << 24) | ((uint32_t)p.bytes[n - 3] << 16) |
		       ((uint32_t)p.bytes[n - 2] << 8) | p.bytes[n - 1];
	int derr = mrc_pkt_decode(p.bytes.data(), (uint32_t)(n - 4), &pkt);
	if (crc != crc32(p.bytes.data(), n - 4)) {
		// the decoder must survive it; the checksum drops it
		res_.corrupt_dropped++;
		return true;
	}
	if (p.corrupted)
		return fail("corrupted packet passed the checksum");
	if (derr)
		return fail(std::string("decoder rejected a good packet: ") +
			    mrc_wire_err_name(derr));
	if (pkt.bth.dest_qpn == MRC_QPN_CM)
		return cm_input(p.to, pkt, p.wire_ev);
	// B before the CM_RTU built its side: no connection; data gets a
	// NO_CONN RESET back on its EV (mrc_hs_reset_unknown())
	if (!e.started) {
		mrc_pkt rst;
		uint8_t buf[MRC_PKT_HDR_MAX];

		if (!e.cm_over && mrc_cm_reset_unknown(&pkt, &rst)) {
			int len = mrc_pkt_encode(&rst, buf, sizeof(buf));

			if (len < 0)
				return fail("RESET encode");
			log("side %d answers data with a NO_CONN RESET", p.to);
			transmit(p.to, p.wire_ev % (sc_.planes * sc_.per_plane), p.wire_ev,
				 std::vector<uint8_t>(buf, buf + len));
		}
		return true;
	}
	// anything from B answers A's CM_RTU
	{
		mrc_cm_act a;

		mrc_cm_fsm_peer_pkt(&e.cm, false, mrc_conn_snd_nxt_psn(&e.conn), &a);
	}
	if (e.cm_over)
		return true; // the connection ended: the socket is gone
	int drop = mrc_conn_rx(&e.conn, &pkt, p.wire_ev, p.ce, now_, &v);
	if (drop) {
		// a correct peer never provokes these
		if (drop != MRC_DROP_PSN_WINDOW && drop != MRC_DROP_CLOSED &&
		    drop != MRC_DROP_MSG_FULL)
			return fail(std::string("unexpected drop ") + mrc_conn_drop_name(drop));
		log("side %d drop %s", p.to, mrc_conn_drop_name(drop));
		return true;
	}
	if (v.data)
		log("side %d data psn %u off %llu len %u dup %d msgs %u deliver %llu op %x", p.to,
		    pkt.bth.psn, (unsigned long long)v.place_off, pkt.u.data.payload_len, v.dup,
		    v.msgs, (unsigned long long)v.deliver_off, pkt.bth.opcode);
	if (v.data && !v.dup) {
		const uint8_t *pl = p.bytes.data() + pkt.u.data.payload_off;
		if (v.place_len != pkt.u.data.payload_len || v.place_off != pkt.u.data.va)
			return fail("verdict placement disagrees with the packet");
		if (v.place_off + v.place_len > e.peer_total)
			return fail("data beyond the end of the stream");
		std::vector<uint8_t> want(v.place_len);
		fill_pattern(1 - p.to, v.place_off, v.place_len, want.data());
		if (v.place_len && std::memcmp(pl, want.data(), v.place_len))
			return fail("payload content wrong");
		for (uint32_t i = 0; i < v.place_len; i++) {
			uint64_t off = v.place_off + i;
			if (e.placed[off])
				return fail("byte placed twice (not flagged duplicate)");
			e.placed[off] = true;
		}
	}
	return true;
}

bool Sim::app_read(int side)
{
	Endpoint &e = ep_[side];
	bool progress = false;

	if (sc_.sock_type == MRC_CONN_STREAM) {
		uint64_t n = mrc_conn_app_readable(&e.conn);
		for (uint64_t i = 0; i < n; i++)
			if (!e.placed[e.read + i])
				return fail("delivered a byte never placed");
		if (n) {
			e.read += n;
			mrc_conn_app_read(&e.conn, n);
			progress = true;
		}
	} else {
		mrc_conn_msg m;
		while (mrc_conn_rx_msg_pop(&e.conn, &m)) {
			if (e.msgs_read >= e.peer_msgs.size())
				return fail("more messages than sent");
			if (m.off != e.read || m.len != e.peer_msgs[e.msgs_read])
				return fail("message boundary wrong");
			if (!m.has_imm || m.imm != m.len)
				return fail("message immediate wrong");
			for (uint64_t i = 0; i < m.len; i++)
				if (!e.placed[e.read + i])
					return fail("delivered a byte never placed");
			e.read += m.len;
			e.msgs_read++;
			mrc_conn_app_read(&e.conn, m.len);
			progress = true;
		}
	}
	if (progress) {
		uint64_t gap = now_ - e.last_progress;
		if (sc_.fault_at && now_ > sc_.fault_at && !e.conn.err)
			e.stall = std::max(e.stall, gap);
		e.last_progress = now_;
	}
	return true;
}

// Each side's longest retransmission timeout just after the fault began
// (the timers of the packets the fault took).
void Sim::snap_rto()
{
	for (int s = 0; s < 2; s++) {
		mrc_conn_info info;

		mrc_conn_get_info(&ep_[s].conn, &info);
		rto_at_fault_[s] = std::max<uint64_t>(rto_at_fault_[s], info.rto_ns);
	}
}

void Sim::arm(int side)
{
	Endpoint &e = ep_[side];
	uint64_t d = mrc_conn_next_deadline(&e.conn);

	if (!d || d == e.timer_at)
		return;
	e.timer_at = d;
	e.timer_gen++;
	q_.push({std::max(d, now_), seq_++, 1, side, e.timer_gen, nullptr});
}

// What @side's application has written by the current step (all of it
// without steps).
uint64_t Sim::allowed(int side) const
{
	const Endpoint &e = ep_[side];

	if (!sc_.rounds)
		return e.total;
	return std::min<uint64_t>(e.total, round_ * round_bytes(side));
}

// Steps: once both sides have read everything of the current one, the
// next begins after the compute gap (an event of kind 5).
void Sim::round_check()
{
	if (!sc_.rounds || round_pending_ || round_ >= sc_.rounds)
		return;
	for (int s = 0; s < 2; s++)
		if (ep_[s].read < allowed(1 - s))
			return;
	round_pending_ = true;
	log("step %u read by both sides; step %u in %llu ns", round_, round_ + 1,
	    (unsigned long long)sc_.round_gap_ns);
	q_.push({now_ + sc_.round_gap_ns, seq_++, 5, 0, 0, nullptr});
}

// The engine's send storage, at the endpoint's first write.
bool Sim::attach_tx(Endpoint &e)
{
	if (mrc_conn_tx_attached(&e.conn))
		return true;
	e.tx_storage.assign(mrc_conn_tx_storage_size(&e.conn) / 8 + 1, 0);
	return mrc_conn_tx_attach(&e.conn, e.tx_storage.data()) == 0;
}

bool Sim::kick(int side)
{
	Endpoint &e = ep_[side];
	mrc_conn *c = &e.conn;
	uint8_t buf[MRC_PKT_HDR_MAX + 70000];

	if (!e.started || e.cm_over)
		return true;
	if (e.reader_due && !app_read(side))
		return false;
	if (!sc_.read_period_ns)
		e.reader_due = true;
	// the application writes whatever the connection takes
	if (sc_.sock_type == MRC_CONN_STREAM) {
		uint64_t space = mrc_conn_app_space(c, nullptr);
		uint64_t n = std::min(space, allowed(side) - e.written);
		if (n && !c->err) {
			if (!attach_tx(e))
				return fail("send storage refused");
			if (mrc_conn_app_write(c, n, false))
				return fail("app_write refused");
			e.written += n;
		}
	} else {
		while (e.msgs_written < e.msgs.size() && !c->err) {
			uint32_t left;
			uint64_t space = mrc_conn_app_space(c, &left);
			uint32_t len = e.msgs[e.msgs_written];
			if (!left || space < len)
				break;
			if (!attach_tx(e))
				return fail("send storage refused");
			if (mrc_conn_app_write(c, len, true))
				return fail("app_write refused");
			e.msgs_written++;
		}
	}
	std::vector<mrc_tx_desc> ds(std::max<uint32_t>(sc_.burst, 1));
	int nd;
	while ((nd = mrc_conn_next_tx_burst(c, now_, ds.data(), (uint32_t)ds.size())) > 0) {
		for (int k = 0; k < nd; k++) {
			const mrc_tx_desc &d = ds[k];
			// what the kernel turns into one segmentation-offload packet
			if (k && (d.path != ds[0].path || d.rtx ||
				  d.psn != ((ds[0].psn + k) & MRC_PSN_MASK) ||
				  ds[k - 1].len != c->p.max_payload))
				return fail("a burst of other than full packets with "
					    "consecutive PSNs on one path");
			int h = mrc_conn_build_data_hdr(c, &d, buf, sizeof(buf));
			if (h < 0)
				return fail(std::string("data header encode: ") +
					    mrc_wire_err_name(h));
			if (d.off + d.len > e.total)
				return fail("sender sent beyond what was written");
			std::vector<uint8_t> bytes(buf, buf + h);
			bytes.resize(h + d.len + mrc_pad_len(d.len), 0);
			fill_pattern(side, d.off, d.len, bytes.data() + h);
			if (getenv("SIMDBG"))
				log("side %d tx psn %u cfg %u rtx %d", side, d.psn, d.cfg_id,
				    d.rtx);
			transmit(side, d.cfg_id, d.ev, std::move(bytes));
		}
	}
	mrc_pkt pkt;
	uint32_t ev;
	while (mrc_conn_next_ctrl(c, now_, &pkt, &ev)) {
		int n = mrc_pkt_encode(&pkt, buf, sizeof(buf));
		if (n < 0)
			return fail(std::string("control encode: ") + mrc_wire_err_name(n));
		int idx = mrc_conn_path_of_ev(c, ev);
		if (idx < 0)
			return fail("control packet on an unknown EV");
		if (getenv("SIMDBG"))
			log("side %d ctrl type %d%s cack %u on path %d (cfg %u)", side, pkt.type,
			    pkt.type == MRC_PKT_SACK && pkt.u.sack.probe_resp ? " (probe answer)"
									      : "",
			    pkt.type == MRC_PKT_SACK ? pkt.u.sack.cack_psn : 0, idx,
			    mrc_conn_path(c, idx)->cfg_id);
		transmit(side, mrc_conn_path(c, idx)->cfg_id, ev,
			 std::vector<uint8_t>(buf, buf + n));
	}
	mrc_conn_event cev;
	while (mrc_conn_pop_event(c, &cev)) {
		if (cev.type == MRC_CEV_PATH) {
			log("side %d path %u (plane %u) %u -> %u reason %u drops %u", side,
			    cev.index, cev.plane, cev.old_state, cev.new_state, cev.reason,
			    cev.drops);
			if (cev.new_state == MRC_PATH_ASSUMED_BAD)
				res_.out_paths.push_back(mrc_conn_path(c, cev.index)->cfg_id);
		} else if (cev.type == MRC_CEV_RECOVERY)
			log("side %d recovery ttr %.1f us", side, cev.ttr_ns / 1000.0);
		else {
			log("side %d FAILED err %d", side, cev.err);
			e.fail_ns = now_;
		}
	}
	arm(side);
	return true;
}

// The CM message @opcode of @side on the wire (empty, and the run failed,
// if it does not encode).
std::vector<uint8_t> Sim::cm_bytes(int side, uint8_t opcode, bool stateless)
{
	Endpoint &e = ep_[side];
	uint8_t buf[MRC_PKT_HDR_MAX];
	mrc_cm cm{};
	mrc_pkt pkt;

	cm.port = 4791;
	cm.client_port = 40000;
	cm.src_qpn = side ? 0x200 : 0x100;
	cm.dst_qpn = opcode == MRC_OP_CM_REQ ? 0 : (side ? 0x100 : 0x200);
	cm.cookie = cookie_;
	// the kernel's DREP from nobody says so (kmod/mrc_handshake.c)
	if (stateless && opcode == MRC_OP_CM_DREP)
		cm.flags = MRC_CM_F_GONE;
	if (opcode == MRC_OP_CM_REQ || opcode == MRC_OP_CM_REP)
		cm.params = e.lparams;
	if (opcode == MRC_OP_CM_RTU) {
		cm.params = e.rparams; // the REP's, echoed
		cm.req_params = e.lparams;
	}
	mrc_cm_pkt(&pkt, opcode, &cm);
	int n = mrc_pkt_encode(&pkt, buf, sizeof(buf));
	if (n < 0) {
		fail(std::string("CM encode: ") + mrc_wire_err_name(n));
		return {};
	}
	return std::vector<uint8_t>(buf, buf + n);
}

// A CM message of @side, as kmod/mrc_handshake.c sends it: once the
// engine runs, along the next of its paths in rotation (@fan_out: along
// up to MRC_CONN_PROBE_FANOUT of them); before, on the path its current
// EV hashes to (the routing table's choice).
void Sim::cm_send(int side, uint8_t opcode, bool fan_out)
{
	Endpoint &e = ep_[side];
	std::vector<uint8_t> bytes = cm_bytes(side, opcode);
	uint32_t copies = 0;

	if (bytes.empty())
		return;
	if (e.started && !e.cm_over)
		copies = fan_out ? std::min<uint32_t>(mrc_conn_usable_paths(&e.conn),
						      MRC_CONN_PROBE_FANOUT)
				 : 1;
	for (uint32_t i = 0; i < copies; i++) {
		int idx = mrc_conn_pick_path(&e.conn, now_);

		if (idx < 0) {
			copies = 0;
			break;
		}
		const mrc_path *path = mrc_conn_path(&e.conn, idx);
		log("side %d sends CM 0x%x on path %d", side, opcode, idx);
		transmit(side, path->cfg_id, path->ev, bytes);
	}
	if (copies)
		return;
	log("side %d sends CM 0x%x on ev %u", side, opcode, e.cm_ev);
	transmit(side, e.cm_ev % (sc_.planes * sc_.per_plane), e.cm_ev, std::move(bytes));
}

// A CM message of @side's closed connection, answering one that came on
// @wire_ev: back on the same EV (mrc_flow_reply), no state left.
void Sim::cm_reply_stateless(int side, uint8_t opcode, uint32_t wire_ev)
{
	std::vector<uint8_t> bytes = cm_bytes(side, opcode, true);

	if (bytes.empty())
		return;
	log("side %d answers CM 0x%x statelessly on ev %u", side, opcode, wire_ev);
	transmit(side, wire_ev % (sc_.planes * sc_.per_plane), wire_ev, std::move(bytes));
}

// Do what the state machine decided, as kmod/mrc_handshake.c does.
bool Sim::cm_act(int side, const mrc_cm_act &a)
{
	Endpoint &e = ep_[side];

	if (a.start) {
		if (e.started)
			return fail("engine started twice");
		e.started = true;
		e.last_progress = now_;
		// the keys the handshake agreed on (B's are its cookie's)
		e.p.tx_init_psn = e.lparams.init_psn;
		e.p.rx_r_key = e.lparams.r_key;
		e.p.rx_init_psn = e.rparams.init_psn;
		e.p.tx_r_key = e.rparams.r_key;
		std::fill(e.storage.begin(), e.storage.end(), 0);
		e.conn = mrc_conn{};
		if (mrc_conn_init(&e.conn, &e.p, e.storage.data(), e.cands.data(), e.cands.size(),
				  now_))
			return fail("mrc_conn_init at start failed");
	}
	if (a.state)
		e.cm_state = a.state;
	if (a.new_ev)
		e.cm_ev = (uint16_t)rng_();
	if (a.send)
		cm_send(side, a.send, a.fan_out);
	if (a.done) {
		e.cm_state = MRC_ST_CLOSED;
		e.cm_over = true;
		e.cm_err = a.err;
		e.cm_over_ns = now_;
		log("side %d connection over, err %d", side, a.err);
		return true;
	}
	if (a.timer) {
		e.cm_timer_gen++;
		q_.push(
		    {std::max<uint64_t>(a.timer, now_), seq_++, 4, side, e.cm_timer_gen, nullptr});
	}
	if (a.start)
		return kick(side);
	return true;
}

// A CM message for @side: B's first CM_REQ makes it accept.
bool Sim::cm_input(int side, const mrc_pkt &pkt, uint32_t wire_ev)
{
	Endpoint &e = ep_[side];
	const mrc_cm &cm = pkt.u.cm;
	mrc_cm_facts m{};
	mrc_cm_act a;

	if (pkt.type != MRC_PKT_CM) {
		// a NO_CONN RESET answering data that overtook our CM_RTU
		if (e.started && !e.cm_over && pkt.u.reset.reason == MRC_RESET_NO_CONN &&
		    mrc_cm_fsm_peer_pkt(&e.cm, true, pkt.u.reset.psn, &a))
			return cm_act(side, a);
		if (e.cm_over)
			return true;
		return fail("unexpected RESET");
	}
	if (pkt.bth.opcode == MRC_OP_CM_REQ) {
		if (side != 1)
			return fail("CM_REQ to the connecting side");
		if (mrc_cm_params_check(&cm.params))
			return fail("CM_REQ parameters refused");
		if (e.started || e.cm_over)
			return true;
		// the listener keeps nothing: its CM_REP carries a cookie
		mrc_cookie_conn c = cookie_conn();
		c.cookie = cm.cookie;
		c.req = cm.params;
		c.rep = e.lparams;
		mrc_cookie_make(&key_, now_, &c);
		e.lparams.init_psn = c.rep.init_psn;
		e.lparams.r_key = c.rep.r_key;
		cm_reply_stateless(side, MRC_OP_CM_REP, wire_ev);
		return true;
	}
	if (pkt.bth.opcode == MRC_OP_CM_RTU && side == 1 && !e.started && !e.cm_over) {
		// the CM_RTU proves A saw the CM_REP: B's side is built from it
		const mrc_cookie_conn addrs = cookie_conn();
		mrc_cookie_conn c;

		mrc_cookie_from_rtu(&c, addrs.raddr, addrs.laddr, &cm);
		if (mrc_cookie_check(&key_, now_, &c) != MRC_COOKIE_OK)
			return fail("CM_RTU cookie refused");
		e.lparams = cm.params;
		e.rparams = cm.req_params;
		mrc_cm_fsm_accept(&e.cm, now_, &a);
		set_cm_policy(e);
		return cm_act(side, a);
	}
	if (e.cm_over) {
		// the socket is gone: the kernel answers a DREQ statelessly,
		// back on the EV it came on (mrc_hs_reply_stateless)
		if (pkt.bth.opcode == MRC_OP_CM_DREQ)
			cm_reply_stateless(side, MRC_OP_CM_DREP, wire_ev);
		return true;
	}
	m.opcode = pkt.bth.opcode;
	m.ours = cm.cookie == cookie_ && cm.port == 4791 && cm.client_port == 40000;
	m.from_peer = cm.src_qpn == (side ? 0x100u : 0x200u);
	m.rtu_ok = cm.params.r_key == e.lparams.r_key && cm.params.init_psn == e.lparams.init_psn;
	m.rej_reason = cm.rej_reason;
	m.gone = cm.flags & MRC_CM_F_GONE;
	m.has_conn = true;
	m.snd_nxt = e.started ? mrc_conn_snd_nxt_psn(&e.conn) : 0;
	if (!m.ours)
		return fail("a CM message not of this attempt");
	if (m.opcode == MRC_OP_CM_REP && mrc_cm_params_check(&cm.params))
		return fail("CM_REP parameters refused");
	mrc_cm_fsm_msg(&e.cm, e.cm_state, &m, now_, &a);
	if (a.start && m.opcode == MRC_OP_CM_REP)
		e.rparams = cm.params;
	return cm_act(side, a);
}

// The addresses and QPNs of the simulated connection, for B's cookies.
mrc_cookie_conn Sim::cookie_conn() const
{
	mrc_cookie_conn c{};

	c.raddr[0] = 0xfd;
	c.raddr[15] = 0xa;
	c.laddr[0] = 0xfd;
	c.laddr[15] = 0xb;
	c.port = 4791;
	c.client_port = 40000;
	c.rqpn = 0x100;
	c.lqpn = 0x200;
	return c;
}

void Sim::apply_planes()
{
	// plane faults are at side A's port: A's engine is told, B learns it
	// from A's SACKs (port status)
	for (uint32_t pl = 0; pl < sc_.planes; pl++) {
		bool down = false;
		for (auto &d : sc_.plane_down)
			if (d.first == pl && d.second.covers(now_))
				down = true;
		if (down != plane_was_down_[pl]) {
			plane_was_down_[pl] = down;
			log("plane %u %s at side A", pl, down ? "DOWN" : "UP");
			mrc_conn_set_plane(&ep_[0].conn, pl, !down, now_);
		}
	}
}

Result Sim::run()
{
	uint32_t np = sc_.planes * sc_.per_plane;

	if (sc_.paths.size() != np) {
		fail("scenario path count mismatch");
		return res_;
	}
	for (int d = 0; d < 2; d++) {
		busy_[d].assign(np, 0);
		last_arr_[d].assign(np, 0);
		ge_bad_[d].assign(np, false);
	}
	plane_was_down_.assign(sc_.planes, false);
	if (!setup_endpoint(0) || !setup_endpoint(1))
		return res_;
	if (sc_.sock_type == MRC_CONN_SEQPACKET) {
		for (int s = 0; s < 2; s++) {
			std::mt19937_64 g(seed_ * 31 + s);
			std::vector<uint32_t> lens;
			uint64_t tot = 0, want = s ? sc_.bytes_ba : sc_.bytes_ab;
			while (tot < want) {
				uint32_t l = (uint32_t)(g() % (sc_.msg_max + 1));
				if (g() % 16 == 0)
					l = 0; // empty messages too
				lens.push_back(l);
				tot += l;
			}
			ep_[s].msgs = lens;
			ep_[s].total = tot;
			ep_[1 - s].peer_msgs = lens;
			ep_[1 - s].peer_total = tot;
		}
	}
	for (int s = 0; s < 2; s++)
		ep_[s].placed.assign(ep_[s].peer_total, false);
	// fault edges as events so plane changes happen on time
	for (auto &d : sc_.plane_down) {
		q_.push({d.second.from, seq_++, 3, 0, 0, nullptr});
		if (d.second.to != ~0ULL)
			q_.push({d.second.to, seq_++, 3, 0, 0, nullptr});
	}
	if (sc_.read_period_ns)
		for (int s = 0; s < 2; s++)
			q_.push({sc_.read_period_ns, seq_++, 2, s, 0, nullptr});
	// A connects; B starts when the handshake completes (cm_act()).
	cookie_ = mix64(seed_ * 17 + 3);
	key_.k[0] = mix64(seed_ * 19 + 5);
	key_.k[1] = mix64(seed_ * 23 + 7);
	{
		mrc_cm_act a;

		mrc_cm_fsm_connect(&ep_[0].cm, now_, 0, &a);
		set_cm_policy(ep_[0]);
		if (!cm_act(0, a))
			return res_;
	}

	uint64_t same_time = 0, last_t = ~0ULL;
	while (!q_.empty() && res_.ok) {
		Event ev = q_.top();
		q_.pop();
		if (ev.when > sc_.time_limit_ns) {
			now_ = ev.when;
			break;
		}
		now_ = ev.when;
		if (sc_.fault_at && now_ >= sc_.fault_at &&
		    now_ <= sc_.fault_at + 2 * sc_.stall_limit_ns)
			snap_rto();
		same_time = now_ == last_t ? same_time + 1 : 0;
		last_t = now_;
		if (same_time > 100000) {
			fail("livelock: no time progress");
			break;
		}
		int side = ev.side;
		if (ev.kind == 0) {
			if (!deliver(*ev.pkt))
				break;
		} else if (ev.kind == 1) {
			if (ev.gen != ep_[side].timer_gen)
				continue;
			ep_[side].timer_at = 0;
			mrc_conn_on_timer(&ep_[side].conn, now_);
		} else if (ev.kind == 4) {
			Endpoint &e = ep_[side];
			mrc_cm_act a;

			if (ev.gen != e.cm_timer_gen || e.cm_over)
				continue;
			mrc_cm_fsm_timer(&e.cm, e.cm_state, now_,
					 !e.started || mrc_conn_all_acked(&e.conn), &a);
			if (!cm_act(side, a))
				break;
		} else if (ev.kind == 5) {
			round_++;
			round_pending_ = false;
			log("step %u begins", round_);
			if (!kick(0) || !kick(1))
				break;
			continue;
		} else if (ev.kind == 2) {
			ep_[side].reader_due = true;
			q_.push({now_ + sc_.read_period_ns, seq_++, 2, side, 0, nullptr});
			if (ep_[side].done_recv() && ep_[1 - side].done_recv())
				continue;
		} else {
			apply_planes();
			kick(0);
			kick(1);
			continue;
		}
		if (!kick(side))
			break;
		if (sc_.read_period_ns)
			ep_[side].reader_due = false;
		round_check();
		bool done = true;
		for (int s = 0; s < 2; s++)
			done = done && ep_[s].started && ep_[s].done_recv() &&
			       mrc_conn_all_acked(&ep_[s].conn);
		if (done && !closing_) {
			// both applications close: a DREQ each way, then the end
			closing_ = true;
			res_.close_ns = now_;
			for (int s = 0; s < 2 && res_.ok; s++) {
				mrc_cm_act a;

				mrc_cm_fsm_close(&ep_[s].cm, ep_[s].cm_state, now_, true, &a);
				cm_act(s, a);
			}
		}
		if (closing_ && ep_[0].cm_over && ep_[1].cm_over)
			break;
		if (ep_[0].conn.err && ep_[1].conn.err)
			break;
	}
	res_.end_ns = now_;
	res_.err_a = ep_[0].conn.err;
	res_.err_b = ep_[1].conn.err;
	for (int s = 0; s < 2; s++) {
		mrc_conn_info info;
		mrc_conn_get_info(&ep_[s].conn, &info);
		log("side %d: err %d snd una %llu nxt %llu end %llu limit %llu inflight %u lost %u "
		    "cwnd %llu | rcv deliver %llu read %llu adv %llu held %u | rtx %llu to %llu "
		    "paths good %u bad %u",
		    s, info.err, (unsigned long long)info.snd_una_off,
		    (unsigned long long)info.snd_nxt_off, (unsigned long long)info.snd_end_off,
		    (unsigned long long)info.snd_limit, info.inflight_pkts, info.lost_pkts,
		    (unsigned long long)info.cwnd, (unsigned long long)info.rcv_deliver_off,
		    (unsigned long long)info.rcv_read_off, (unsigned long long)info.rcv_advertised,
		    info.rcv_held, (unsigned long long)info.rtx_pkts,
		    (unsigned long long)info.timeouts, info.paths_by_state[MRC_PATH_GOOD],
		    info.paths_by_state[MRC_PATH_ASSUMED_BAD]);
		log("side %d retransmissions by cause: sack-gap %llu per-path %llu rto %llu "
		    "nack %llu link %llu, spurious %llu",
		    s, (unsigned long long)info.rtx_by_cause[MRC_LOSS_SACK_GAP],
		    (unsigned long long)info.rtx_by_cause[MRC_LOSS_PER_PATH],
		    (unsigned long long)info.rtx_by_cause[MRC_LOSS_RTO],
		    (unsigned long long)info.rtx_by_cause[MRC_LOSS_NACK],
		    (unsigned long long)info.rtx_by_cause[MRC_LOSS_LINK],
		    (unsigned long long)info.spurious);
		for (uint32_t i = 0; v_ && i < mrc_conn_path_count(&ep_[s].conn); i++) {
			const mrc_path *pp = mrc_conn_path(&ep_[s].conn, i);
			log("side %d path %u cfg %u state %u tx %u probes %u ok %u failed %u", s, i,
			    pp->cfg_id, pp->state, pp->stats.tx_pkts, pp->stats.probes_sent,
			    pp->stats.probes_ok, pp->stats.probes_failed);
		}
		res_.ttr_max_ns = std::max<uint64_t>(res_.ttr_max_ns, info.ttr_max_ns);
		res_.ttr_side_ns[s] = info.ttr_max_ns;
		res_.ttr_count += info.ttr_count;
		res_.ttr_total_ns += info.ttr_total_ns;
		res_.retransmits += info.rtx_pkts;
		res_.spurious += info.spurious;
		res_.timeouts += info.timeouts;
		res_.bytes += ep_[s].read;
		res_.stall_ns = std::max(res_.stall_ns, ep_[s].stall);
		res_.fail_ns = std::max(res_.fail_ns, ep_[s].fail_ns);
	}
	if (!res_.ok)
		return res_;
	if (sc_.expect_no_path_out && !res_.out_paths.empty())
		fail(std::to_string(res_.out_paths.size()) +
		     " paths went ASSUMED_BAD, nothing was lost");
	for (uint32_t id : res_.out_paths)
		if (sc_.expect_out_only_faulted && !faulted(id))
			fail("path " + std::to_string(id) +
			     ", which no fault touched, went ASSUMED_BAD");
	if (sc_.balance_pct)
		check_balance();
	if (sc_.expect_timeout) {
		uint64_t budget = mrc_policy_timeout_budget(&sc_.params.policy);
		uint64_t limit = sc_.fault_at + budget + sc_.params.policy.rto_max_ns +
				 4 * sc_.params.policy.rto_min_ns;
		for (int s = 0; s < 2; s++) {
			if (ep_[s].conn.err != -ETIMEDOUT &&
			    !(ep_[s].done_recv() && mrc_conn_all_acked(&ep_[s].conn)))
				fail("side " + std::to_string(s) + " did not fail with ETIMEDOUT");
			else if (ep_[s].conn.err && ep_[s].fail_ns > limit)
				fail("ETIMEDOUT too late: " + std::to_string(ep_[s].fail_ns) +
				     " > " + std::to_string(limit));
			else if (ep_[s].conn.err &&
				 ep_[s].fail_ns < sc_.fault_at + sc_.params.policy.rto_min_ns)
				fail("ETIMEDOUT too early");
		}
		return res_;
	}
	for (int s = 0; s < 2; s++) {
		if (!ep_[s].cm_over || ep_[s].cm_err)
			return fail("side " + std::to_string(s) + " did not close cleanly (err " +
				    std::to_string(ep_[s].cm_err) + ")"),
			       res_;
		if (ep_[s].cm_over_ns > res_.close_ns + ep_[s].cm.fin_budget)
			return fail("side " + std::to_string(s) + " closed too late"), res_;
		if (ep_[s].conn.err)
			return fail("side " + std::to_string(s) + " failed with err " +
				    std::to_string(ep_[s].conn.err)),
			       res_;
		if (!ep_[s].done_recv())
			return fail("side " + std::to_string(s) + " stalled: read " +
				    std::to_string(ep_[s].read) + " of " +
				    std::to_string(ep_[s].peer_total)),
			       res_;
		if (!mrc_conn_all_acked(&ep_[s].conn))
			return fail("side " + std::to_string(s) + " not all acked"), res_;
	}
	if (sc_.ttr_limit_ns && res_.ttr_side_ns[0] > sc_.ttr_limit_ns)
		return fail("recovery (TTR) of A " + std::to_string(res_.ttr_side_ns[0]) +
			    "ns > limit " + std::to_string(sc_.ttr_limit_ns) + "ns"),
		       res_;
	// A side's stall waits for its peer's retransmission timer: the
	// scenario's limit, or that RTO (the longest just after the fault
	// began) plus rto_min when the peer's RTT estimate had grown beyond
	// rto_min.
	for (int s = 0; sc_.stall_limit_ns && s < 2; s++) {
		uint64_t limit = std::max<uint64_t>(
		    sc_.stall_limit_ns, rto_at_fault_[1 - s] + sc_.params.policy.rto_min_ns);
		if (ep_[s].stall > limit)
			return fail("delivery stall " + std::to_string(ep_[s].stall) +
				    "ns > limit " + std::to_string(limit) + "ns"),
			       res_;
	}
	return res_;
}

} // namespace

Result run(const Scenario &sc, uint64_t seed, bool verbose)
{
	Sim s(sc, seed, verbose);
	return s.run();
}

} // namespace mrcsim
