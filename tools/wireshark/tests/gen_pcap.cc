// SPDX-License-Identifier: GPL-2.0
/*
 * gen_pcap: one packet of every type and header combination MRC for Linux
 * sends, encoded by the protocol core's own encoder (mrc_pkt_encode(),
 * mrc_cm_pkt()), wrapped in Ethernet + IPv6 + UDP (destination port 4791,
 * correct checksum) and written as a classic pcap file; then truncated
 * packets, random bytes and mutated packets, each with the verdict of the
 * core's decoder (mrc_pkt_decode()).
 *
 * Usage: gen_pcap OUT.pcap OUT.json
 *
 * OUT.json lists, per frame (1-based, in order), the dissector fields and
 * the values the encoder was given (or the decoder returned), for
 * tools/wireshark/tests/test_dissector.py to compare with tshark's output.
 */
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include "mrc_cm.h"
#include "mrc_conn.h"
#include "mrc_wire.h"
}

namespace {

using Bytes = std::vector<uint8_t>;

// ev: the 32-bit EV, carried as MRC for Linux does (UDP source port
// 0xC000 | EV[13:0], flow label EV[31:14]); raw_port: a source port to
// use instead (a foreign sender), 0 if none.
struct Frame {
	Bytes udp_payload;
	uint32_t ev;
	uint16_t raw_port;
	std::vector<std::pair<std::string, std::string>> expect;
};

std::vector<Frame> frames;

std::string num(uint64_t v)
{
	return std::to_string(v);
}

std::string str(const std::string &s)
{
	return "\"" + s + "\"";
}

// Encodes pkt with the real encoder, appends payload and pad for data
// packets. Aborts on any encoder error: every packet here is one MRC sends.
Bytes encode(const mrc_pkt &pkt, const Bytes &payload = {})
{
	Bytes b(MRC_PKT_HDR_MAX + MRC_DATA_HDR_MAX + mrc_pkt_encoded_size(&pkt));
	int n = mrc_pkt_encode(&pkt, b.data(), b.size());
	if (n < 0) {
		fprintf(stderr, "gen_pcap: encode opcode 0x%02x: %s\n", pkt.bth.opcode,
			mrc_wire_err_name(n));
		exit(1);
	}
	b.resize(n);
	if (pkt.type == MRC_PKT_DATA) {
		b.insert(b.end(), payload.begin(), payload.end());
		b.insert(b.end(), mrc_pad_len(payload.size()), 0);
	}
	return b;
}

// Frames a valid packet: checks that the core's decoder accepts it and
// records the BTH fields every packet has.
Frame &add_valid(const mrc_pkt &pkt, const Bytes &b, uint32_t ev)
{
	mrc_pkt dec;
	int err = mrc_pkt_decode(b.data(), b.size(), &dec);
	if (err) {
		fprintf(stderr, "gen_pcap: decode of opcode 0x%02x: %s\n", pkt.bth.opcode,
			mrc_wire_err_name(err));
		exit(1);
	}
	Frame f{b, ev, 0, {}};
	f.expect = {
	    {"mrc.verdict", str("ok")},
	    {"mrc.ev", num(ev)},
	    {"mrc.bth.opcode", num(pkt.bth.opcode)},
	    {"mrc.bth.se", num(pkt.bth.se)},
	    {"mrc.bth.m", num(pkt.bth.mig)},
	    {"mrc.bth.fecn", num(pkt.bth.fecn)},
	    {"mrc.bth.becn", num(pkt.bth.becn)},
	    {"mrc.bth.pad",
	     num(pkt.type == MRC_PKT_DATA ? mrc_pad_len(pkt.u.data.payload_len) : 0)},
	    {"mrc.bth.tver", "0"},
	    {"mrc.bth.pkey", num(pkt.bth.pkey)},
	    {"mrc.bth.destqp", num(pkt.bth.dest_qpn)},
	    {"mrc.bth.ackreq", num(pkt.bth.ack_req)},
	    {"mrc.bth.rtx", num(pkt.bth.rtx)},
	    {"mrc.bth.ts", num(pkt.bth.ts)},
	    {"mrc.bth.psn", num(pkt.bth.psn)},
	};
	frames.push_back(f);
	return frames.back();
}

void expect(Frame &f, const char *field, uint64_t v)
{
	f.expect.emplace_back(field, num(v));
}

mrc_pkt base(uint8_t op, uint32_t qpn)
{
	mrc_pkt p;
	memset(&p, 0, sizeof(p));
	p.type = mrc_pkt_type_of(op);
	p.bth.opcode = op;
	p.bth.pkey = MRC_PKEY_DEFAULT;
	p.bth.dest_qpn = qpn;
	return p;
}

void data(uint8_t op, bool ts, uint32_t psn, uint64_t va, uint32_t dma, uint32_t plen, bool se,
	  bool ack_req, bool rtx, uint32_t ev)
{
	mrc_pkt p = base(op, 0x1234);
	p.bth.psn = psn;
	p.bth.se = se;
	p.bth.ack_req = ack_req;
	p.bth.rtx = rtx;
	p.bth.ts = ts;
	mrc_data &d = p.u.data;
	d.rqmsn = 7;
	d.msn = 0xfff0 + op;
	d.tseth.tx_ts = 0xbeef;
	d.tseth.tsr = true;
	d.tseth.ftype = 5;
	d.va = va;
	d.r_key = 0xdeadbeef;
	d.dma_len = dma;
	d.imm = 0xcafe0000 | op;
	d.payload_len = plen;
	Bytes payload(plen);
	for (uint32_t i = 0; i < plen; i++)
		payload[i] = (uint8_t)(0x41 + i % 26);
	Frame &f = add_valid(p, encode(p, payload), ev);
	expect(f, "mrc.meth.rqmsn", d.rqmsn);
	expect(f, "mrc.meth.msn", d.msn);
	if (ts) {
		expect(f, "mrc.tseth.tx_timestamp", d.tseth.tx_ts);
		expect(f, "mrc.tseth.tsr", d.tseth.tsr);
		expect(f, "mrc.tseth.ftype", d.tseth.ftype);
	}
	expect(f, "mrc.reth.va", d.va);
	expect(f, "mrc.reth.rkey", d.r_key);
	expect(f, "mrc.reth.dmalen", d.dma_len);
	if (mrc_op_has_imm(op))
		expect(f, "mrc.immdt.imm", d.imm);
	expect(f, "mrc.payload_len", plen);
}

void sack(bool credit, uint8_t mark, bool pr, int16_t apo, uint32_t cack, int16_t so,
	  uint64_t bitmap, uint32_t ev)
{
	mrc_pkt p = base(MRC_OP_SACK, 0x20);
	mrc_sack &s = p.u.sack;
	s.mark = mark;
	s.probe_resp = pr;
	s.ack_psn_offset = apo;
	s.entropy = ev ^ 0x5a5a0000u; // an EV of the peer's data
	s.key = 0xa0b0c0d0u ^ ev;
	s.cack_psn = cack;
	s.cc_type = 0;
	s.cc_flags = 0x9;
	s.mpr = 8;
	s.sack_offset = so;
	s.sack_bitmap = bitmap;
	s.cc.tx_ts = 0x1234;
	s.cc.ts_valid = true;
	s.cc.ooo_count = 0x7ffe;
	s.cc.restore_cwnd = true;
	s.cc.rcv_cwnd_pen = 99;
	s.cc.rcvd_bytes = 0xabcdef;
	s.has_credit = credit;
	s.credit.port_status = 0xb;
	s.credit.credit = 0x123456789abcULL;
	Frame &f = add_valid(p, encode(p), ev);
	expect(f, "mrc.seth.next", credit ? 1 : 0);
	expect(f, "mrc.seth.m", s.mark);
	expect(f, "mrc.seth.probe_resp", s.probe_resp);
	f.expect.emplace_back("mrc.seth.ack_psn_offset", std::to_string(s.ack_psn_offset));
	expect(f, "mrc.seth.trigger_psn", (s.cack_psn + s.ack_psn_offset) & 0xffffff);
	expect(f, "mrc.seth.entropy", s.entropy);
	expect(f, "mrc.seth.key", s.key);
	expect(f, "mrc.seth.cack_psn", s.cack_psn);
	expect(f, "mrc.seth.cc_type", s.cc_type);
	expect(f, "mrc.seth.cc_flags", s.cc_flags);
	expect(f, "mrc.seth.mpr", s.mpr);
	f.expect.emplace_back("mrc.seth.sack_offset", std::to_string(s.sack_offset));
	expect(f, "mrc.seth.sack_base_psn", (s.cack_psn + s.sack_offset) & 0xffffff);
	expect(f, "mrc.seth.sack_bitmap", s.sack_bitmap);
	expect(f, "mrc.seth.sack_count", __builtin_popcountll(s.sack_bitmap));
	expect(f, "mrc.cc_state.tx_timestamp", s.cc.tx_ts);
	expect(f, "mrc.cc_state.ooo_count", s.cc.ooo_count);
	expect(f, "mrc.cc_state.restore_cwnd", s.cc.restore_cwnd);
	expect(f, "mrc.cc_state.ts_valid", s.cc.ts_valid);
	expect(f, "mrc.cc_state.rcv_cwnd_pen", s.cc.rcv_cwnd_pen);
	expect(f, "mrc.cc_state.rcvd_bytes", s.cc.rcvd_bytes);
	if (credit) {
		expect(f, "mrc.credit.version", MRC_CREDIT_EXT_VERSION);
		expect(f, "mrc.credit.port_status", s.credit.port_status);
		expect(f, "mrc.credit.credit", s.credit.credit);
	}
}

void nack(uint8_t reason, uint32_t ev)
{
	mrc_pkt p = base(MRC_OP_NACK, 0xabcdef);
	mrc_nack &n = p.u.nack;
	n.reason = reason;
	n.vendor = 0x42;
	n.entropy = ev ^ 0xa5a50000u;
	n.key = 0x11121314u;
	n.nack_psn = 0xfffffe;
	n.cc_type = 2;
	n.tx_ts = 0x7777;
	Frame &f = add_valid(p, encode(p), ev);
	expect(f, "mrc.neth.reason", n.reason);
	expect(f, "mrc.neth.vendor", n.vendor);
	expect(f, "mrc.neth.entropy", n.entropy);
	expect(f, "mrc.neth.key", n.key);
	expect(f, "mrc.neth.nack_psn", n.nack_psn);
	expect(f, "mrc.neth.cc_type", n.cc_type);
	expect(f, "mrc.neth.tx_timestamp", n.tx_ts);
}

void probe(uint32_t ev)
{
	mrc_pkt p = base(MRC_OP_PROBE, 16);
	p.u.probe.probe_id = 0x01020304;
	p.u.probe.key = 0xfeedbeef;
	p.u.probe.tx_time = 1732440000123456789ULL;
	Frame &f = add_valid(p, encode(p), ev);
	expect(f, "mrc.peth.probe_id", p.u.probe.probe_id);
	expect(f, "mrc.peth.key", p.u.probe.key);
	expect(f, "mrc.peth.tx_time", p.u.probe.tx_time);

	// a path probe padded to the size of a full data packet (issue #17)
	p.u.probe.probe_id++;
	p.u.probe.pad_len = 1400;
	Frame &g = add_valid(p, encode(p), ev);
	expect(g, "mrc.peth.probe_id", p.u.probe.probe_id);
	expect(g, "mrc.peth.pad_len", p.u.probe.pad_len);
}

void ep_req(uint8_t op, uint32_t ev)
{
	mrc_pkt p = base(MRC_OP_EP_REQUEST, MRC_QPN_ENDPOINT);
	p.u.ep_req.op = op;
	p.u.ep_req.req_id = 0x4321 + op;
	p.u.ep_req.port_status = 0xd;
	p.u.ep_req.tx_time = 0x1122334455667788ULL;
	Frame &f = add_valid(p, encode(p), ev);
	expect(f, "mrc.ep.op", op);
	expect(f, "mrc.ep.req_id", p.u.ep_req.req_id);
	expect(f, "mrc.ep.port_status", p.u.ep_req.port_status);
	expect(f, "mrc.ep.tx_time", p.u.ep_req.tx_time);
}

void ep_resp(uint32_t ev)
{
	mrc_pkt p = base(MRC_OP_EP_RESPONSE, MRC_QPN_ENDPOINT);
	mrc_ep_resp &r = p.u.ep_resp;
	r.op = MRC_EP_EV_PROBE;
	r.status = 0;
	r.req_id = 999;
	r.port_status = 0xf;
	r.req_tx_time = 1000000001;
	r.rx_time = 2000000002;
	r.tx_time = 2000000502;
	r.entropy = 0x3ffff;
	Frame &f = add_valid(p, encode(p), ev);
	expect(f, "mrc.ep.op", r.op);
	expect(f, "mrc.ep.status", r.status);
	expect(f, "mrc.ep.req_id", r.req_id);
	expect(f, "mrc.ep.port_status", r.port_status);
	expect(f, "mrc.ep.req_tx_time", r.req_tx_time);
	expect(f, "mrc.ep.rx_time", r.rx_time);
	expect(f, "mrc.ep.tx_time", r.tx_time);
	expect(f, "mrc.ep.entropy", r.entropy);
}

void cm(uint8_t op, uint32_t src, uint32_t dst, uint8_t rej, uint32_t ev, uint8_t version = 0)
{
	mrc_cm c;
	memset(&c, 0, sizeof(c));
	c.version = version;
	c.port = 5000;
	c.client_port = 40001;
	c.src_qpn = src;
	c.dst_qpn = dst;
	c.cookie = 0xfedcba9876543210ULL;
	c.params.sock_type = MRC_CM_SOCK_SEQPACKET;
	c.params.mpr = 32;
	c.params.max_payload = 1408;
	c.params.init_psn = 0x00abcd + op;
	c.params.r_key = 0x5eed0000 | op;
	c.params.rcv_window = 4 << 20;
	c.params.caps = MRC_CAP_TSETH | MRC_CAP_TRIM_NACK | MRC_CAP_CREDIT;
	if (op == MRC_OP_CM_RTU) {
		c.req_params = c.params;
		c.req_params.mpr = 8;
		c.req_params.r_key = 0x0dd0000 | op;
	}
	c.rej_reason = rej;
	mrc_pkt p;
	mrc_cm_pkt(&p, op, &c);
	Frame &f = add_valid(p, encode(p), ev);
	expect(f, "mrc.cm.version", version ? version : MRC_CM_VERSION);
	expect(f, "mrc.cm.flags", 0);
	expect(f, "mrc.cm.service_port", c.port);
	expect(f, "mrc.cm.src_qpn", c.src_qpn);
	expect(f, "mrc.cm.dst_qpn", c.dst_qpn);
	expect(f, "mrc.cm.cookie", c.cookie);
	expect(f, "mrc.cm.client_port", c.client_port);
	if (op == MRC_OP_CM_REQ || op == MRC_OP_CM_REP || op == MRC_OP_CM_RTU) {
		expect(f, "mrc.cm.sock_type", c.params.sock_type);
		expect(f, "mrc.cm.mpr", c.params.mpr);
		expect(f, "mrc.cm.max_payload", c.params.max_payload);
		expect(f, "mrc.cm.init_psn", c.params.init_psn);
		expect(f, "mrc.cm.r_key", c.params.r_key);
		expect(f, "mrc.cm.rcv_window", c.params.rcv_window);
		expect(f, "mrc.cm.caps", c.params.caps);
		expect(f, "mrc.cm.caps.tseth", 1);
		expect(f, "mrc.cm.caps.trim_nack", 1);
		expect(f, "mrc.cm.caps.icrc", 0);
		expect(f, "mrc.cm.caps.credit", 1);
	}
	if (op == MRC_OP_CM_RTU) {
		expect(f, "mrc.cm.req.mpr", c.req_params.mpr);
		expect(f, "mrc.cm.req.r_key", c.req_params.r_key);
		expect(f, "mrc.cm.req.init_psn", c.req_params.init_psn);
	}
	if (op == MRC_OP_CM_REJ)
		expect(f, "mrc.cm.rej_reason", rej);
}

void reset(uint8_t reason, uint32_t dst, uint32_t psn, uint32_t ev)
{
	mrc_pkt p = base(MRC_OP_RESET, MRC_QPN_CM);
	mrc_reset &r = p.u.reset;
	r.reason = reason;
	r.src_qpn = 0x777;
	r.dst_qpn = dst;
	r.r_key = 0x0badf00d;
	r.psn = psn;
	Frame &f = add_valid(p, encode(p), ev);
	expect(f, "mrc.reset.version", MRC_RESET_VERSION);
	expect(f, "mrc.reset.reason", r.reason);
	expect(f, "mrc.reset.src_qpn", r.src_qpn);
	expect(f, "mrc.reset.dst_qpn", r.dst_qpn);
	expect(f, "mrc.reset.r_key", r.r_key);
	expect(f, "mrc.reset.psn", r.psn);
}

// RoCE's Transport ACK (AETH): MRC for Linux never sends it, but decodes,
// counts and ignores it.
void transport_ack(uint32_t ev)
{
	mrc_pkt p = base(MRC_OP_TRANSPORT_ACK, 0x4242);
	p.bth.psn = 0x123456;
	p.u.ack.syndrome = 0x1f;
	p.u.ack.msn = 0xabcdef;
	Frame &f = add_valid(p, encode(p), ev);
	expect(f, "mrc.aeth.syndrome", p.u.ack.syndrome);
	expect(f, "mrc.aeth.msn", p.u.ack.msn);
}

// Expectations from the core decoder's view of a packet (for the packets
// the connection engine builds, whose field values the engine chooses).
void expect_decoded(Frame &f, const mrc_pkt &p)
{
	switch (p.type) {
	case MRC_PKT_DATA: {
		const mrc_data &d = p.u.data;
		expect(f, "mrc.meth.rqmsn", d.rqmsn);
		expect(f, "mrc.meth.msn", d.msn);
		if (p.bth.ts) {
			expect(f, "mrc.tseth.tx_timestamp", d.tseth.tx_ts);
			expect(f, "mrc.tseth.tsr", d.tseth.tsr);
			expect(f, "mrc.tseth.ftype", d.tseth.ftype);
		}
		expect(f, "mrc.reth.va", d.va);
		expect(f, "mrc.reth.rkey", d.r_key);
		expect(f, "mrc.reth.dmalen", d.dma_len);
		if (mrc_op_has_imm(p.bth.opcode))
			expect(f, "mrc.immdt.imm", d.imm);
		expect(f, "mrc.payload_len", d.payload_len);
		break;
	}
	case MRC_PKT_SACK: {
		const mrc_sack &s = p.u.sack;
		expect(f, "mrc.seth.next", s.has_credit);
		expect(f, "mrc.seth.m", s.mark);
		expect(f, "mrc.seth.probe_resp", s.probe_resp);
		f.expect.emplace_back("mrc.seth.ack_psn_offset", std::to_string(s.ack_psn_offset));
		expect(f, "mrc.seth.entropy", s.entropy);
		expect(f, "mrc.seth.key", s.key);
		expect(f, "mrc.seth.cack_psn", s.cack_psn);
		expect(f, "mrc.seth.cc_type", s.cc_type);
		expect(f, "mrc.seth.cc_flags", s.cc_flags);
		expect(f, "mrc.seth.mpr", s.mpr);
		f.expect.emplace_back("mrc.seth.sack_offset", std::to_string(s.sack_offset));
		expect(f, "mrc.seth.sack_bitmap", s.sack_bitmap);
		expect(f, "mrc.cc_state.tx_timestamp", s.cc.tx_ts);
		expect(f, "mrc.cc_state.ooo_count", s.cc.ooo_count);
		expect(f, "mrc.cc_state.ts_valid", s.cc.ts_valid);
		expect(f, "mrc.cc_state.rcvd_bytes", s.cc.rcvd_bytes);
		if (s.has_credit) {
			expect(f, "mrc.credit.port_status", s.credit.port_status);
			expect(f, "mrc.credit.credit", s.credit.credit);
		}
		break;
	}
	case MRC_PKT_NACK:
		expect(f, "mrc.neth.reason", p.u.nack.reason);
		expect(f, "mrc.neth.nack_psn", p.u.nack.nack_psn);
		expect(f, "mrc.neth.entropy", p.u.nack.entropy);
		expect(f, "mrc.neth.key", p.u.nack.key);
		break;
	case MRC_PKT_PROBE:
		expect(f, "mrc.peth.probe_id", p.u.probe.probe_id);
		expect(f, "mrc.peth.key", p.u.probe.key);
		expect(f, "mrc.peth.tx_time", p.u.probe.tx_time);
		break;
	case MRC_PKT_RESET:
		expect(f, "mrc.reset.reason", p.u.reset.reason);
		expect(f, "mrc.reset.src_qpn", p.u.reset.src_qpn);
		expect(f, "mrc.reset.dst_qpn", p.u.reset.dst_qpn);
		expect(f, "mrc.reset.r_key", p.u.reset.r_key);
		expect(f, "mrc.reset.psn", p.u.reset.psn);
		break;
	default:
		break;
	}
}

// A connection between two engines, as the kernel runs it: the data
// packets side 0 sends (mrc_conn_build_data_hdr()), the SACKs side 1
// answers (mrc_conn_next_ctrl()) reflecting each data packet's whole EV
// and carrying side 0's key, and the RESET of an abort.
void engine_session(uint8_t sock_type)
{
	static const mrc_path_cand cands[] = {{0xc101, 1, 0}, {0xc102, 1, 0}, {0xc203, 1, 1}};
	mrc_conn c[2];
	std::vector<uint64_t> st[2];
	uint64_t now = 1000;
	for (int s = 0; s < 2; s++) {
		mrc_conn_params p;
		mrc_conn_params_default(&p);
		p.sock_type = sock_type;
		p.local_qpn = s ? 0x200 : 0x100;
		p.peer_qpn = s ? 0x100 : 0x200;
		p.tx_init_psn = s ? 0xfffff0 : 0xfffffe;
		p.rx_init_psn = s ? 0xfffffe : 0xfffff0;
		p.rx_r_key = s ? 0xb0b0b0b0 : 0xa0a0a0a0;
		p.tx_r_key = s ? 0xa0a0a0a0 : 0xb0b0b0b0;
		p.rcvbuf = 1 << 20;
		p.peer_window = 1 << 20;
		p.seed = s + 1;
		p.ack_delay_ns = 0;
		p.handshake_rtt_ns = 100000;
		st[s].assign(mrc_conn_storage_size(&p) / 8 + 1, 0);
		if (mrc_conn_init(&c[s], &p, st[s].data(), cands, 3, 0)) {
			fprintf(stderr, "gen_pcap: mrc_conn_init failed\n");
			exit(1);
		}
	}
	// a message of several packets, then two one-packet messages
	for (uint64_t len : {5000, 10, 1})
		if (mrc_conn_app_write(&c[0], len, true) < 0) {
			fprintf(stderr, "gen_pcap: mrc_conn_app_write failed\n");
			exit(1);
		}
	uint8_t buf[16384];
	mrc_tx_desc d;
	mrc_pkt pkt, in;
	mrc_conn_verdict v;
	uint32_t ev;
	for (int round = 0; round < 4; round++) {
		now += 10000;
		while (mrc_conn_next_tx(&c[0], now, &d)) {
			int h = mrc_conn_build_data_hdr(&c[0], &d, buf, sizeof(buf));
			if (h < 0 || h + d.len + 4 > sizeof(buf)) {
				fprintf(stderr, "gen_pcap: mrc_conn_build_data_hdr: %d\n", h);
				exit(1);
			}
			for (uint32_t i = 0; i < d.len; i++)
				buf[h + i] = (uint8_t)(d.off + i);
			uint32_t n = h + d.len + mrc_pad_len(d.len);
			memset(buf + h + d.len, 0, mrc_pad_len(d.len));
			if (mrc_pkt_decode(buf, n, &in)) {
				fprintf(stderr, "gen_pcap: engine data packet does not decode\n");
				exit(1);
			}
			Frame &f = add_valid(in, Bytes(buf, buf + n), d.ev);
			expect_decoded(f, in);
			mrc_conn_rx(&c[1], &in, d.ev, false, now, &v);
		}
		for (int s = 1; s >= 0; s--) {
			while (mrc_conn_next_ctrl(&c[s], now, &pkt, &ev)) {
				Frame &f = add_valid(pkt, encode(pkt), ev);
				expect_decoded(f, pkt);
				Bytes b = f.udp_payload;
				mrc_pkt_decode(b.data(), b.size(), &in);
				mrc_conn_rx(&c[1 - s], &in, ev, false, now, &v);
			}
		}
	}
	mrc_conn_reset_pkt(&c[0], MRC_RESET_ABORT, 0, &pkt);
	Frame &f = add_valid(pkt, encode(pkt), 0xc101);
	expect_decoded(f, pkt);
}

// A packet a receiver drops: the expected verdict is the core decoder's.
void add_bad(const Bytes &b, uint32_t ev)
{
	mrc_pkt dec;
	int err = mrc_pkt_decode(b.data(), b.size(), &dec);
	Frame f{b, ev, 0, {}};
	f.expect.emplace_back("mrc.verdict", str(mrc_wire_err_name(err)));
	frames.push_back(f);
}

/* ---- pcap writing ---- */

void put16(Bytes &b, size_t off, uint16_t v)
{
	b[off] = v >> 8;
	b[off + 1] = v & 0xff;
}

Bytes wrap(const Frame &f)
{
	static const uint8_t src_ip[16] = {0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
	static const uint8_t dst_ip[16] = {0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
	size_t ulen = 8 + f.udp_payload.size();
	Bytes e(14 + 40 + ulen, 0);
	// Ethernet
	const uint8_t mac_dst[6] = {0x02, 0, 0, 0, 0, 2}, mac_src[6] = {0x02, 0, 0, 0, 0, 1};
	memcpy(&e[0], mac_dst, 6);
	memcpy(&e[6], mac_src, 6);
	put16(e, 12, 0x86dd);
	// IPv6: EV[31:14] rides in the flow label, EV[13:0] in the port
	uint32_t flow = mrc_ev_flowlabel(f.ev);
	uint16_t sport = f.raw_port ? f.raw_port : mrc_ev_sport(f.ev);
	e[14] = 0x60;
	e[15] = (flow >> 16) & 0x0f;
	e[16] = (flow >> 8) & 0xff;
	e[17] = flow & 0xff;
	put16(e, 18, ulen);
	e[20] = 17;
	e[21] = 64;
	memcpy(&e[22], src_ip, 16);
	memcpy(&e[38], dst_ip, 16);
	// UDP
	size_t u = 54;
	put16(e, u, sport);
	put16(e, u + 2, 4791);
	put16(e, u + 4, ulen);
	memcpy(&e[u + 8], f.udp_payload.data(), f.udp_payload.size());
	// checksum over the IPv6 pseudo header and the datagram
	uint32_t sum = 0;
	for (int i = 0; i < 16; i += 2) {
		sum += (src_ip[i] << 8) | src_ip[i + 1];
		sum += (dst_ip[i] << 8) | dst_ip[i + 1];
	}
	sum += ulen >> 16;
	sum += ulen & 0xffff;
	sum += 17;
	for (size_t i = 0; i < ulen; i += 2) {
		uint16_t w = e[u + i] << 8;
		if (i + 1 < ulen)
			w |= e[u + i + 1];
		sum += w;
	}
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	uint16_t csum = ~sum & 0xffff;
	put16(e, u + 6, csum ? csum : 0xffff);
	return e;
}

void put_le32(FILE *fp, uint32_t v)
{
	uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
	fwrite(b, 1, 4, fp);
}

void put_le16(FILE *fp, uint16_t v)
{
	uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
	fwrite(b, 1, 2, fp);
}

} // namespace

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: gen_pcap OUT.pcap OUT.json\n");
		return 2;
	}

	// Data packets: a 250-byte message in three parts, then one-packet
	// messages; with and without TSETH, immediate data, flags and pad.
	data(MRC_OP_WRITE_FIRST, true, 100, 0, 250, 100, false, true, false, 0xc001);
	data(MRC_OP_WRITE_MIDDLE, false, 101, 100, 250, 100, false, false, false, 0xc002);
	data(MRC_OP_WRITE_LAST, true, 102, 200, 250, 50, false, false, true, 0xc003);
	data(MRC_OP_WRITE_FIRST, false, 103, 250, 20, 12, false, false, false, 0xc004);
	data(MRC_OP_WRITE_LAST_IMM, true, 104, 262, 20, 7, true, false, false, 0xc005);
	data(MRC_OP_WRITE_ONLY, false, 105, 269, 13, 13, true, true, false, 0xc006);
	data(MRC_OP_WRITE_ONLY, true, 0xffffff, 0xfffffffffffff000ULL, 1408, 1408, false, false,
	     true, 0xc007);
	data(MRC_OP_WRITE_ONLY_IMM, true, 0, 282, 0, 0, false, false, false, 0xc008);
	data(MRC_OP_WRITE_ONLY_IMM, false, 1, 282, 3, 3, false, false, false, 0xc009);
	data(MRC_OP_WRITE_LAST_IMM, false, 2, 285, 9, 1, false, false, false, 0xc00a);

	// SACKs: with the credit extension (what MRC for Linux sends) and
	// without (what it accepts); each path verdict; bitmap at cack and
	// ending at the trigger; a probe answer.
	sack(true, MRC_MARK_NONE, false, 5, 1000, 0, 0x3f, 0xc010);
	sack(true, MRC_MARK_SKIP_ONCE, false, -3, 0xfffff0, 0, 0x8000000000000001ULL, 0xc011);
	sack(false, MRC_MARK_ALWAYS_SKIP, true, 200, 5000, 137, 0xf0f0f0f0f0f0f0f0ULL, 0xc012);
	sack(true, MRC_MARK_NONE, true, 0, 7, 0, 0, 0xc013);

	for (uint8_t r : {MRC_NACK_TRIMMED, MRC_NACK_TRIMMED_LASTHOP, MRC_NACK_NO_BITMAP,
			  MRC_NACK_NO_PKT_BUFFER, MRC_NACK_NO_RESOURCE, MRC_NACK_PSN_OOR_WINDOW,
			  MRC_NACK_UNEXP_EVENT})
		nack(r, 0xc020 + r);
	probe(0xc030);
	ep_req(MRC_EP_PORT_STATUS_UPDATE, 0xc031);
	ep_req(MRC_EP_EV_PROBE, 0xc032);
	ep_resp(0xc033);

	cm(MRC_OP_CM_REQ, 0x100, 0, 0, 0xc040);
	cm(MRC_OP_CM_REP, 0x200, 0x100, 0, 0xc041);
	cm(MRC_OP_CM_RTU, 0x100, 0x200, 0, 0xc042);
	cm(MRC_OP_CM_REJ, 0, 0x100, MRC_REJ_NO_LISTENER, 0xc043);
	for (uint8_t r = MRC_REJ_BACKLOG_FULL; r <= MRC_REJ_CONSUMER; r++)
		cm(MRC_OP_CM_REJ, 0x200, 0x100, r, 0xc043);
	cm(MRC_OP_CM_DREQ, 0x100, 0x200, 0, 0xc044);
	cm(MRC_OP_CM_DREP, 0x200, 0x100, 0, 0xc045);
	// A sender that is not MRC for Linux, from source port 53 (DNS's):
	// UDP offers it to DNS first unless heuristics go first.
	cm(MRC_OP_CM_DREP, 0x200, 0x100, 0, 53);
	frames.back().raw_port = 53;
	frames.back().expect.erase(frames.back().expect.begin() + 1); // mrc.ev
	// The refusal of an older peer: its version 1 CM_REQ, our v1 CM_REJ.
	cm(MRC_OP_CM_REQ, 0x100, 0, 0, 0xc046, MRC_CM_VERSION_V1);
	cm(MRC_OP_CM_REJ, 0, 0x100, MRC_REJ_BAD_VERSION, 0xc047, MRC_CM_VERSION_V1);
	transport_ack(0xc048);
	// FECN, BECN and M are taken (and ignored) on any packet.
	{
		mrc_pkt p = base(MRC_OP_WRITE_ONLY, 0x1234);
		p.bth.fecn = p.bth.becn = p.bth.mig = true;
		p.bth.psn = 9;
		p.u.data.r_key = 0xdeadbeef;
		p.u.data.dma_len = p.u.data.payload_len = 4;
		Frame &f = add_valid(p, encode(p, Bytes(4, 0x61)), 0xfedcba98);
		expect(f, "mrc.reth.dmalen", 4);
		mrc_pkt q = base(MRC_OP_NACK, 0x1234);
		q.bth.becn = true;
		q.u.nack.reason = MRC_NACK_TRIMMED;
		add_valid(q, encode(q), 0x00003fff);
	}
	reset(MRC_RESET_ABORT, 0x999, 0, 0xc050);
	reset(MRC_RESET_NO_CONN, 0, 12345, 0xc051);
	reset(MRC_RESET_PROTOCOL, 0x999, 77, 0xc052);
	reset(MRC_RESET_TIMEOUT, 0x999, 0, 0xc053);

	size_t nhand = frames.size();
	engine_session(MRC_CONN_SEQPACKET);
	engine_session(MRC_CONN_STREAM);
	size_t nvalid = frames.size();
	fprintf(stderr, "gen_pcap: %zu packets encoded here, %zu by the connection engine\n", nhand,
		nvalid - nhand);

	// Truncations of every valid packet at a few points, an empty payload
	// and a 5-byte one.
	std::mt19937 rng(18);
	for (size_t i = 0; i < nvalid; i++) {
		Bytes b = frames[i].udp_payload;
		for (size_t cut : {(size_t)11, (size_t)13, b.size() / 2, b.size() - 1}) {
			if (cut < b.size())
				add_bad(Bytes(b.begin(), b.begin() + cut), 0xd000);
		}
		// one byte too many
		Bytes longer = b;
		longer.push_back(0);
		add_bad(longer, 0xd001);
	}
	add_bad(Bytes{}, 0xd002);
	add_bad(Bytes{0xdc, 0, 0xff, 0xff, 0}, 0xd003);
	// Random bytes of random lengths, some behind an MRC opcode.
	for (int i = 0; i < 60; i++) {
		Bytes b(rng() % 80);
		for (auto &c : b)
			c = rng();
		if (i % 2 && !b.empty())
			b[0] = 0xc6 + rng() % 0x21;
		add_bad(b, 0xd004);
	}
	// One packet for each rule of the decoder (wire-format.md section 13):
	// a valid packet with a few bytes set.
	auto edit = [&](uint8_t op, bool ts,
			std::initializer_list<std::pair<size_t, uint8_t>> sets) {
		for (size_t i = 0; i < nvalid; i++) {
			Bytes b = frames[i].udp_payload;
			if (b[0] != op || ts != bool(b[8] & 0x20))
				continue;
			for (auto [off, val] : sets)
				b[off] = val;
			mrc_pkt dec;
			if (!mrc_pkt_decode(b.data(), b.size(), &dec)) {
				fprintf(stderr, "gen_pcap: edit of opcode 0x%02x still decodes\n",
					op);
				exit(1);
			}
			add_bad(b, 0xd007);
			return;
		}
		fprintf(stderr, "gen_pcap: no packet of opcode 0x%02x to edit\n", op);
		exit(1);
	};
	edit(MRC_OP_SACK, false, {{0, MRC_OP_TRANSPORT_ACK}}); // an ACK too long
	edit(MRC_OP_SACK, false, {{0, 0xe7}});                 // unknown_opcode
	edit(MRC_OP_SACK, false, {{1, 0x01}});                 // bad_tver
	edit(MRC_OP_SACK, false, {{4, 0x20}});                 // byte 4 reserved
	edit(MRC_OP_SACK, false, {{8, 0x01}});                 // reserved flag
	edit(MRC_OP_SACK, false, {{1, 0x10}});                 // pad, no payload
	edit(MRC_OP_SACK, false, {{1, 0x80}});                 // SE on a SACK
	edit(MRC_OP_SACK, false, {{8, 0x80}});                 // AckReq on a SACK
	edit(MRC_OP_SACK, false, {{11, 0x01}});                // PSN on a SACK
	edit(MRC_OP_SACK, false, {{12, 0x02}});                // bad_ext
	edit(MRC_OP_SACK, false, {{12, 0x00}});                // bad_length
	edit(MRC_OP_SACK, false, {{13, 0xc0}});                // m = 3
	edit(MRC_OP_SACK, false, {{48, 0x02}});                // bad_ext_version
	edit(MRC_OP_SACK, false, {{7, 0x05}});                 // DestQP 5
	edit(MRC_OP_WRITE_ONLY, true,
	     {{20, 0xff},
	      {21, 0xff},
	      {22, 0xff},
	      {23, 0xff},
	      {24, 0xff},
	      {25, 0xff},
	      {26, 0xff},
	      {27, 0xff}});                                     // VA wraps
	edit(MRC_OP_WRITE_ONLY, true, {{35, 0x01}});            // DMA length
	edit(MRC_OP_WRITE_ONLY, true, {{18, 0x01}});            // TSETH reserved
	edit(MRC_OP_WRITE_ONLY, false, {{1, 0x10}});            // pad 1, not 3
	edit(MRC_OP_EP_REQUEST, false, {{12, 2}});              // unknown op
	edit(MRC_OP_EP_REQUEST, false, {{7, 1}});               // to QPN 1
	edit(MRC_OP_EP_RESPONSE, false, {{12, 7}});             // unknown op
	edit(MRC_OP_CM_REQ, false, {{12, 3}});                  // CM version 3
	edit(MRC_OP_CM_REP, false, {{12, 1}});                  // a v1 REP
	edit(MRC_OP_CM_RTU, false, {{57, 0}});                  // echoed REQ mpr 0
	edit(MRC_OP_CM_RTU, false, {{60, 1}});                  // its init_psn byte
	edit(MRC_OP_CM_REQ, false, {{36, 2}});                  // sock_type 2
	edit(MRC_OP_CM_REQ, false, {{37, 0}});                  // mpr 0
	edit(MRC_OP_CM_REQ, false, {{38, 0}, {39, 0}});         // max_payload 0
	edit(MRC_OP_CM_REQ, false, {{23, 5}});                  // dst_qpn in a REQ
	edit(MRC_OP_CM_REQ, false, {{40, 1}});                  // init_psn's byte
	edit(MRC_OP_CM_REQ, false, {{7, 16}});                  // to QPN 16
	edit(MRC_OP_CM_REJ, false, {{36, 0}});                  // reason 0
	edit(MRC_OP_CM_REJ, false, {{39, 1}});                  // REJ reserved
	edit(MRC_OP_CM_REJ, false, {{19, 5}});                  // src_qpn 5
	edit(MRC_OP_CM_DREQ, false, {{34, 1}});                 // CMH reserved
	edit(MRC_OP_RESET, false, {{12, 0}});                   // RSTH version 0
	edit(MRC_OP_RESET, false, {{19, 0}, {18, 0}, {17, 0}}); // src_qpn 0
	edit(MRC_OP_RESET, false, {{28, 1}});                   // psn's byte
	edit(MRC_OP_NACK, false, {{28, 0x01}});                 // NETH reserved
	edit(MRC_OP_TRANSPORT_ACK, false, {{8, 0x80}});         // AckReq on it

	// Every header byte of every valid packet changed, one at a time: one
	// bit flipped, and all eight.
	for (size_t i = 0; i < nvalid; i++) {
		const Bytes v = frames[i].udp_payload; // a copy: frames grows
		size_t hdr = v.size() < 64 ? v.size() : 64;
		for (size_t off = 0; off < hdr; off++) {
			for (uint8_t x : {(uint8_t)(1u << ((off + i) % 8)), (uint8_t)0xff}) {
				Bytes b = v;
				b[off] ^= x;
				add_bad(b, 0xd006);
			}
		}
	}
	// Mutations of valid packets: one to three bytes changed. Most are
	// dropped by the decoder for one reason or another, some stay valid:
	// the dissector's verdict must agree either way.
	for (int i = 0; i < 400; i++) {
		Bytes b = frames[rng() % nvalid].udp_payload;
		int n = 1 + rng() % 3;
		for (int k = 0; k < n; k++) {
			size_t off = rng() % (b.size() < 48 ? b.size() : 48);
			b[off] ^= (uint8_t)(1u << (rng() % 8));
		}
		add_bad(b, 0xd005);
	}

	FILE *fp = fopen(argv[1], "wb");
	if (!fp) {
		perror(argv[1]);
		return 1;
	}
	put_le32(fp, 0xa1b2c3d4);
	put_le16(fp, 2);
	put_le16(fp, 4);
	put_le32(fp, 0);
	put_le32(fp, 0);
	put_le32(fp, 65535);
	put_le32(fp, 1); // LINKTYPE_ETHERNET
	uint32_t t = 1764000000;
	for (size_t i = 0; i < frames.size(); i++) {
		Bytes e = wrap(frames[i]);
		put_le32(fp, t + i / 1000);
		put_le32(fp, i % 1000 * 1000);
		put_le32(fp, e.size());
		put_le32(fp, e.size());
		fwrite(e.data(), 1, e.size(), fp);
	}
	if (fclose(fp)) {
		perror(argv[1]);
		return 1;
	}

	fp = fopen(argv[2], "w");
	if (!fp) {
		perror(argv[2]);
		return 1;
	}
	fprintf(fp, "{\"valid\": %zu, \"frames\": [\n", nvalid);
	for (size_t i = 0; i < frames.size(); i++) {
		fprintf(fp, "  {");
		for (size_t k = 0; k < frames[i].expect.size(); k++)
			fprintf(fp, "%s\"%s\": %s", k ? ", " : "",
				frames[i].expect[k].first.c_str(),
				frames[i].expect[k].second.c_str());
		fprintf(fp, "}%s\n", i + 1 < frames.size() ? "," : "");
	}
	fprintf(fp, "]}\n");
	return fclose(fp) ? 1 : 0;
}
