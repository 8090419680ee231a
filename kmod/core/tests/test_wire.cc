// SPDX-License-Identifier: GPL-2.0
// Unit tests of the wire format (mrc_wire.h): round trips of every packet
// type, byte-exact layouts, truncation at every length, and every reason
// the decoder or encoder can give.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

extern "C" {
#include "mrc_wire.h"
}

namespace {

struct Sample {
	std::string name;
	mrc_pkt pkt;
};

mrc_pkt blank(u8 op, u32 qpn)
{
	mrc_pkt p;

	memset(&p, 0, sizeof(p));
	p.type = mrc_pkt_type_of(op);
	p.bth.opcode = op;
	p.bth.pkey = MRC_PKEY_DEFAULT;
	p.bth.dest_qpn = qpn;
	return p;
}

mrc_pkt data(u8 op, u32 payload, u32 dma, bool ts)
{
	mrc_pkt p = blank(op, 0x123456);

	p.bth.psn = 0xabcdef;
	p.bth.ack_req = true;
	p.bth.rtx = op == MRC_OP_WRITE_MIDDLE;
	p.bth.se = mrc_op_has_imm(op);
	p.bth.ts = ts;
	p.u.data.rqmsn = 0x1111;
	p.u.data.msn = 0x2222;
	if (ts) {
		p.u.data.tseth.tx_ts = 0xbeef;
		p.u.data.tseth.tsr = true;
		p.u.data.tseth.ftype = 0x9;
	}
	p.u.data.va = 0x0102030405060708ULL;
	p.u.data.r_key = 0xcafef00d;
	p.u.data.dma_len = dma;
	if (mrc_op_has_imm(op))
		p.u.data.imm = 0xdeadbeef;
	p.u.data.payload_len = payload;
	return p;
}

mrc_pkt sack(bool credit)
{
	mrc_pkt p = blank(MRC_OP_SACK, 0x10);

	p.u.sack.mark = MRC_MARK_SKIP_ONCE;
	p.u.sack.probe_resp = true;
	p.u.sack.ack_psn_offset = -7;
	p.u.sack.entropy = 0x89abcdef;
	p.u.sack.key = 0x12345678;
	p.u.sack.cack_psn = 0xfffff0;
	p.u.sack.cc_type = 0xa;
	p.u.sack.cc_flags = 0x5;
	p.u.sack.mpr = 8;
	p.u.sack.sack_offset = 3;
	p.u.sack.sack_bitmap = 0x8000000000000001ULL;
	p.u.sack.cc.tx_ts = 0x4321;
	p.u.sack.cc.ts_valid = true;
	p.u.sack.cc.ooo_count = 0x7fff;
	p.u.sack.cc.restore_cwnd = true;
	p.u.sack.cc.rcv_cwnd_pen = 127;
	p.u.sack.cc.rcvd_bytes = 0xfedcba;
	if (credit) {
		p.u.sack.has_credit = true;
		p.u.sack.credit.port_status = 0x0000000f;
		p.u.sack.credit.credit = 0x1122334455667788ULL;
	}
	return p;
}

mrc_pkt cm(u8 op)
{
	mrc_pkt p = blank(op, MRC_QPN_CM);

	p.u.cm.port = 5001;
	p.u.cm.client_port = 49153;
	p.u.cm.src_qpn = 0x000010;
	p.u.cm.dst_qpn = op == MRC_OP_CM_REQ ? 0 : 0xfffff0;
	p.u.cm.cookie = 0x0123456789abcdefULL;
	p.u.cm.version = MRC_CM_VERSION;
	if (op == MRC_OP_CM_RTU) {
		p.u.cm.req_params.sock_type = MRC_CM_SOCK_SEQPACKET;
		p.u.cm.req_params.mpr = 8;
		p.u.cm.req_params.max_payload = 9000;
		p.u.cm.req_params.init_psn = 0xfedcba;
		p.u.cm.req_params.r_key = 0xa5a5a5a5;
		p.u.cm.req_params.rcv_window = 65536;
		p.u.cm.req_params.caps = MRC_CAP_CREDIT;
	}
	if (op == MRC_OP_CM_REQ || op == MRC_OP_CM_REP || op == MRC_OP_CM_RTU) {
		p.u.cm.params.sock_type = MRC_CM_SOCK_SEQPACKET;
		p.u.cm.params.mpr = 64;
		p.u.cm.params.max_payload = 1400;
		p.u.cm.params.init_psn = 0x00abcd;
		p.u.cm.params.r_key = 0x5a5a5a5a;
		p.u.cm.params.rcv_window = 1u << 20;
		p.u.cm.params.caps = MRC_CAP_TSETH | MRC_CAP_CREDIT | 0x80000000u;
	}
	if (op == MRC_OP_CM_REJ)
		p.u.cm.rej_reason = MRC_REJ_BACKLOG_FULL;
	return p;
}

std::vector<Sample> samples()
{
	std::vector<Sample> v;
	const u8 ops[] = {MRC_OP_WRITE_FIRST,    MRC_OP_WRITE_MIDDLE, MRC_OP_WRITE_LAST,
			  MRC_OP_WRITE_LAST_IMM, MRC_OP_WRITE_ONLY,   MRC_OP_WRITE_ONLY_IMM};

	for (u8 op : ops) {
		for (int ts = 0; ts < 2; ts++) {
			bool only = op == MRC_OP_WRITE_ONLY || op == MRC_OP_WRITE_ONLY_IMM;
			for (u32 len : {1u, 2u, 3u, 4u, 1021u}) {
				v.push_back({"data" + std::to_string(op) + "ts" +
						 std::to_string(ts) + "len" + std::to_string(len),
					     data(op, len, only ? len : 4096, ts)});
			}
			if (only)
				v.push_back(
				    {"data_empty" + std::to_string(op), data(op, 0, 0, ts)});
		}
	}
	v.push_back({"sack", sack(false)});
	v.push_back({"sack_credit", sack(true)});

	mrc_pkt n = blank(MRC_OP_NACK, 0xffffff);
	n.u.nack.reason = MRC_NACK_TRIMMED;
	n.u.nack.vendor = 0x42;
	n.u.nack.entropy = 0x00010203;
	n.u.nack.key = 0x00010002;
	n.u.nack.nack_psn = 0xffffff;
	n.u.nack.cc_type = 0xf;
	n.u.nack.tx_ts = 0x7777;
	v.push_back({"nack", n});

	mrc_pkt pr = blank(MRC_OP_PROBE, 0x20);
	pr.u.probe.probe_id = 0xa5a5a5a5;
	pr.u.probe.key = 0x0badf00d;
	pr.u.probe.tx_time = 0x1000000000000001ULL;
	v.push_back({"probe", pr});

	// RoCE's Transport ACK: decoded (to be counted and ignored)
	mrc_pkt ack = blank(MRC_OP_TRANSPORT_ACK, 0x30);
	ack.bth.psn = 0xabcdef;
	ack.u.ack.syndrome = 0x1f;
	ack.u.ack.msn = 0x123456;
	v.push_back({"transport_ack", ack});

	// FECN, BECN and M are accepted (and carried) on every packet
	mrc_pkt cong = data(MRC_OP_WRITE_MIDDLE, 8, 100, true);
	cong.bth.fecn = true;
	cong.bth.becn = true;
	cong.bth.mig = true;
	v.push_back({"data_fecn_becn_mig", cong});
	mrc_pkt scong = sack(false);
	scong.bth.becn = true;
	v.push_back({"sack_becn", scong});

	mrc_pkt q = blank(MRC_OP_EP_REQUEST, MRC_QPN_ENDPOINT);
	q.u.ep_req.op = MRC_EP_PORT_STATUS_UPDATE;
	q.u.ep_req.req_id = 0x4242;
	q.u.ep_req.port_status = 0xfffffffe;
	q.u.ep_req.tx_time = 99;
	v.push_back({"ep_req", q});

	mrc_pkt r = blank(MRC_OP_EP_RESPONSE, MRC_QPN_ENDPOINT);
	r.u.ep_resp.op = MRC_EP_EV_PROBE;
	r.u.ep_resp.status = 3;
	r.u.ep_resp.req_id = 0x4242;
	r.u.ep_resp.port_status = 0xf;
	r.u.ep_resp.req_tx_time = 1;
	r.u.ep_resp.rx_time = 2;
	r.u.ep_resp.tx_time = 3;
	r.u.ep_resp.entropy = 0xfeedface;
	v.push_back({"ep_resp", r});

	for (u8 op = MRC_OP_CM_REQ; op <= MRC_OP_CM_DREP; op++)
		v.push_back({"cm" + std::to_string(op), cm(op)});
	mrc_pkt gone = cm(MRC_OP_CM_DREP);
	gone.u.cm.flags = MRC_CM_F_GONE;
	v.push_back({"cm_drep_gone", gone});

	mrc_pkt rs = blank(MRC_OP_RESET, MRC_QPN_CM);
	rs.u.reset.reason = MRC_RESET_NO_CONN;
	rs.u.reset.src_qpn = 0x777777;
	rs.u.reset.dst_qpn = 0;
	rs.u.reset.r_key = 0x13572468;
	rs.u.reset.psn = 0x000042;
	v.push_back({"reset", rs});
	return v;
}

// Encode the headers, then append payload bytes and zero pad like a sender.
std::vector<u8> wire(const mrc_pkt &p)
{
	std::vector<u8> buf(MRC_PKT_HDR_MAX);
	int n = mrc_pkt_encode(&p, buf.data(), buf.size());

	EXPECT_GT(n, 0) << mrc_wire_err_name(n);
	if (n < 0)
		return {};
	buf.resize(n);
	if (p.type == MRC_PKT_DATA) {
		for (u32 i = 0; i < p.u.data.payload_len; i++)
			buf.push_back((u8)(i * 7 + 1));
		buf.resize(buf.size() + mrc_pad_len(p.u.data.payload_len), 0);
	}
	return buf;
}

// What the decoder is expected to return for @p.
mrc_pkt expected(const mrc_pkt &p)
{
	mrc_pkt e = p;

	if (p.type == MRC_PKT_DATA) {
		e.bth.pad_cnt = mrc_pad_len(p.u.data.payload_len);
		e.u.data.payload_off = mrc_pkt_hdr_len(p.bth.opcode, p.bth.ts);
	}
	return e;
}

int decode(const std::vector<u8> &b, u32 len, mrc_pkt *out)
{
	// exact-size heap copy so ASan catches any read past @len
	std::vector<u8> copy(b.begin(), b.begin() + len);

	return mrc_pkt_decode(copy.data(), len, out);
}

int decode(const std::vector<u8> &b, mrc_pkt *out)
{
	return decode(b, b.size(), out);
}

TEST(Wire, RoundTripEveryPacketType)
{
	for (const Sample &s : samples()) {
		SCOPED_TRACE(s.name);
		std::vector<u8> b = wire(s.pkt);
		mrc_pkt got, want = expected(s.pkt);

		ASSERT_EQ(decode(b, &got), 0);
		EXPECT_EQ(memcmp(&got, &want, sizeof(got)), 0);

		// and back to the very same bytes
		std::vector<u8> again = wire(got);
		EXPECT_EQ(again, b);
	}
}

TEST(Wire, HeaderLengths)
{
	EXPECT_EQ(mrc_pkt_hdr_len(MRC_OP_WRITE_MIDDLE, false), 32);
	EXPECT_EQ(mrc_pkt_hdr_len(MRC_OP_WRITE_MIDDLE, true), 36);
	EXPECT_EQ(mrc_pkt_hdr_len(MRC_OP_WRITE_ONLY_IMM, false), 36);
	EXPECT_EQ(mrc_pkt_hdr_len(MRC_OP_WRITE_LAST_IMM, true), 40);
	EXPECT_EQ(mrc_pkt_hdr_len(MRC_OP_WRITE_LAST_IMM, true), MRC_DATA_HDR_MAX);
	EXPECT_EQ(mrc_pkt_hdr_len(MRC_OP_SACK, false), 64);
	EXPECT_EQ(mrc_pkt_hdr_len(MRC_OP_NACK, false), 32);
	EXPECT_EQ(mrc_pkt_hdr_len(MRC_OP_PROBE, false), 28);
	EXPECT_EQ(mrc_pkt_hdr_len(MRC_OP_EP_REQUEST, false), 28);
	EXPECT_EQ(mrc_pkt_hdr_len(MRC_OP_EP_RESPONSE, false), 48);
	EXPECT_EQ(mrc_pkt_hdr_len(MRC_OP_CM_REQ, false), 56);
	EXPECT_EQ(mrc_pkt_hdr_len(MRC_OP_CM_REJ, false), 40);
	EXPECT_EQ(mrc_pkt_hdr_len(MRC_OP_CM_DREQ, false), 36);
	EXPECT_EQ(mrc_pkt_hdr_len(MRC_OP_RESET, false), 32);
	EXPECT_EQ(mrc_pkt_hdr_len(MRC_OP_TRANSPORT_ACK, false), 16);
	EXPECT_EQ(mrc_pkt_hdr_len(0x00, false), -MRC_WERR_UNKNOWN_OPCODE);
	for (const Sample &s : samples()) {
		if (s.pkt.type == MRC_PKT_DATA ||
		    (s.pkt.type == MRC_PKT_SACK && !s.pkt.u.sack.has_credit))
			continue;
		EXPECT_EQ((size_t)mrc_pkt_hdr_len(s.pkt.bth.opcode, false), wire(s.pkt).size())
		    << s.name;
	}
}

// The bytes Documentation/wire-format.md shows.
TEST(Wire, DataPacketBytesArePinned)
{
	mrc_pkt p = data(MRC_OP_WRITE_LAST_IMM, 5, 4096, true);
	std::vector<u8> b = wire(p);
	const u8 want[] = {
	    0xc9, 0x80 | 0x30, 0xff, 0xff, // opcode, SE + pad 3, P_Key
	    0x00, 0x12,        0x34, 0x56, // resv, DestQP
	    0xe0, 0xab,        0xcd, 0xef, // AckReq rtx ts, PSN
	    0x11, 0x11,        0x22, 0x22, // METH
	    0xbe, 0xef,        0x80, 0x09, // TSETH
	    0x01, 0x02,        0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	    0xca, 0xfe,        0xf0, 0x0d, 0x00, 0x00, 0x10, 0x00, // RETH
	    0xde, 0xad,        0xbe, 0xef,                         // ImmDt
	};

	p.bth.rtx = true;
	b = wire(p);
	ASSERT_EQ(b.size(), sizeof(want) + 8);
	EXPECT_EQ(memcmp(b.data(), want, sizeof(want)), 0);
	EXPECT_EQ(b[sizeof(want) + 5], 0); // pad bytes are zero
}

TEST(Wire, SackBytesArePinned)
{
	std::vector<u8> b = wire(sack(true));
	const u8 want[] = {
	    0xdc, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, // BTH
	    0x01, 0x60, 0xff, 0xf9,                         // next=credit, m=01 pr, off -7
	    0x89, 0xab, 0xcd, 0xef,                         // entropy
	    0x12, 0x34, 0x56, 0x78,                         // key (spdcid|dpdcid)
	    0x00, 0xff, 0xff, 0xf0,                         // resv, cack
	    0xa5, 0x08, 0x00, 0x03,                         // cc type/flags, mpr, sack_off
	    0x80, 0,    0,    0,    0,    0,    0,    0x01, // bitmap
	    0x43, 0x21, 0xff, 0xff,                         // CC_STATE ts, ooo|restore
	    0xff, 0xfe, 0xdc, 0xba,                         // ts_valid|pen, rcvd_bytes
	    0x01, 0x00, 0x00, 0x00,                         // credit ext ver, resv
	    0x00, 0x00, 0x00, 0x0f,                         // port status
	    0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	};

	ASSERT_EQ(b.size(), sizeof(want));
	EXPECT_EQ(memcmp(b.data(), want, sizeof(want)), 0);
}

TEST(Wire, CmReqBytesArePinned)
{
	std::vector<u8> b = wire(cm(MRC_OP_CM_REQ));
	const u8 want[] = {
	    0xe0, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01,
	    0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x13, 0x89, // ver 2, flags, port 5001
	    0x00, 0x00, 0x00, 0x10,                         // src QPN
	    0x00, 0x00, 0x00, 0x00,                         // dst QPN
	    0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, // cookie
	    0xc0, 0x01, 0x00, 0x00,                         // client port 49153, resv
	    0x01, 0x40, 0x05, 0x78,                         // seqpacket, mpr 64, 1400
	    0x00, 0x00, 0xab, 0xcd,                         // init PSN
	    0x5a, 0x5a, 0x5a, 0x5a,                         // R_Key
	    0x00, 0x10, 0x00, 0x00,                         // window
	    0x80, 0x00, 0x00, 0x09,                         // caps
	};

	ASSERT_EQ(b.size(), sizeof(want));
	EXPECT_EQ(memcmp(b.data(), want, sizeof(want)), 0);
}

TEST(Wire, TruncationAtEveryLength)
{
	for (const Sample &s : samples()) {
		SCOPED_TRACE(s.name);
		std::vector<u8> b = wire(s.pkt);
		u32 hdr = s.pkt.type == MRC_PKT_DATA
			      ? mrc_pkt_hdr_len(s.pkt.bth.opcode, s.pkt.bth.ts)
			      : b.size();
		bool only = s.pkt.bth.opcode == MRC_OP_WRITE_ONLY ||
			    s.pkt.bth.opcode == MRC_OP_WRITE_ONLY_IMM;
		mrc_pkt got;

		for (u32 len = 0; len < b.size(); len++) {
			int err = decode(b, len, &got);

			if (len < hdr) {
				EXPECT_EQ(err, -MRC_WERR_TRUNCATED) << len;
			} else if (s.pkt.type != MRC_PKT_DATA || only) {
				EXPECT_LT(err, 0) << len;
			}
		}
	}
}

TEST(Wire, TrailingBytesRejected)
{
	for (const Sample &s : samples()) {
		SCOPED_TRACE(s.name);
		std::vector<u8> b = wire(s.pkt);
		mrc_pkt got;
		int want = -MRC_WERR_BAD_LENGTH;

		if (s.pkt.type == MRC_PKT_DATA) {
			if (s.pkt.bth.opcode != MRC_OP_WRITE_ONLY &&
			    s.pkt.bth.opcode != MRC_OP_WRITE_ONLY_IMM)
				continue;
			want = -MRC_WERR_PAYLOAD_LEN;
			b.resize(b.size() + 4, 0);
		} else if (s.pkt.type == MRC_PKT_PROBE) {
			// a probe may be padded, but only with zeros
			b.push_back(1);
			want = -MRC_WERR_RESERVED;
		} else {
			b.push_back(0);
		}
		EXPECT_EQ(decode(b, &got), want);
	}
}

// A path probe padded to the size of a data packet (issue #17: a path
// that carries small packets but not data must fail its probes).
mrc_pkt padded_probe(u16 pad)
{
	mrc_pkt pr = blank(MRC_OP_PROBE, 0x20);

	pr.u.probe.probe_id = 7;
	pr.u.probe.key = 0x0badf00d;
	pr.u.probe.tx_time = 12345;
	pr.u.probe.pad_len = pad;
	return pr;
}

std::vector<u8> wire_big(const mrc_pkt &p)
{
	std::vector<u8> buf(mrc_pkt_encoded_size(&p));
	int n = mrc_pkt_encode(&p, buf.data(), buf.size());

	EXPECT_EQ(n, (int)buf.size()) << mrc_wire_err_name(n);
	return buf;
}

TEST(Wire, PaddedProbeRoundTrip)
{
	for (u16 pad : {1, 3, 1472, 8972, 0xffff}) {
		SCOPED_TRACE(pad);
		mrc_pkt p = padded_probe(pad), got;
		std::vector<u8> b = wire_big(p);

		ASSERT_EQ(b.size(), 28U + pad);
		for (size_t i = 28; i < b.size(); i++)
			ASSERT_EQ(b[i], 0) << i;
		ASSERT_EQ(decode(b, &got), 0);
		EXPECT_EQ(got.u.probe.pad_len, pad);
		EXPECT_EQ(got.u.probe.probe_id, 7U);
		EXPECT_EQ(got.u.probe.key, 0x0badf00dU);
		EXPECT_EQ(memcmp(&got, &p, sizeof(got)), 0);
		EXPECT_EQ(wire_big(got), b);

		// every padding byte is checked, the last one too
		b.back() = 0x80;
		EXPECT_EQ(decode(b, &got), -MRC_WERR_RESERVED);
		// the buffer must hold the padding: nothing written otherwise
		std::vector<u8> small(28 + pad - 1, 0xaa);
		EXPECT_EQ(mrc_pkt_encode(&p, small.data(), small.size()), -MRC_WERR_NOSPC);
		EXPECT_EQ(small[0], 0xaa);
	}
	// a probe longer than a u16 of padding cannot be represented
	std::vector<u8> huge = wire_big(padded_probe(0xffff));
	mrc_pkt got;

	huge.push_back(0);
	EXPECT_EQ(decode(huge, &got), -MRC_WERR_BAD_LENGTH);
}

int decode_quote(const std::vector<u8> &b, u32 have, u32 len, mrc_pkt *out)
{
	std::vector<u8> copy(b.begin(), b.begin() + have);

	return mrc_pkt_decode_quote(copy.data(), have, len, out);
}

TEST(Wire, QuotedDataPacketDecodesItsHeaders)
{
	mrc_pkt p = data(MRC_OP_WRITE_ONLY, 4000, 4000, true), got, full;
	std::vector<u8> b = wire(p);
	u32 hdr = mrc_pkt_hdr_len(p.bth.opcode, p.bth.ts);

	ASSERT_EQ(decode(b, &full), 0);
	// an ICMPv6 error quotes the headers and part of the payload
	for (u32 have : {hdr, hdr + 1, hdr + 100, (u32)b.size()}) {
		SCOPED_TRACE(have);
		ASSERT_EQ(decode_quote(b, have, b.size(), &got), 0);
		EXPECT_EQ(memcmp(&got, &full, sizeof(got)), 0);
	}
	EXPECT_EQ(decode_quote(b, hdr - 1, b.size(), &got), -MRC_WERR_TRUNCATED);
	EXPECT_EQ(decode_quote(b, 11, b.size(), &got), -MRC_WERR_TRUNCATED);
	// quoted more than was sent: not a packet of ours
	EXPECT_EQ(decode_quote(b, b.size(), b.size() - 4, &got), -MRC_WERR_BAD_LENGTH);
	// the headers are checked as the decoder checks them
	std::vector<u8> bad = b;
	bad[8] |= 0x01; // BTH reserved bit
	EXPECT_EQ(decode_quote(bad, hdr, bad.size(), &got), -MRC_WERR_RESERVED);
	// a burst quoted whole (a segmentation-offload packet a router
	// dropped): the lengths are all its packets', the headers the first's
	ASSERT_EQ(decode_quote(b, hdr, 3 * b.size(), &got), 0);
	EXPECT_EQ(got.bth.psn, full.bth.psn);
	EXPECT_EQ(got.u.data.r_key, full.u.data.r_key);
	EXPECT_EQ(got.u.data.va, full.u.data.va);
	EXPECT_EQ(got.u.data.payload_len, 0u);
	// but its words must still be whole
	EXPECT_EQ(decode_quote(b, hdr, b.size() + 2, &got), -MRC_WERR_BAD_PAD);
}

TEST(Wire, QuotedProbeAndOtherPackets)
{
	std::vector<u8> b = wire_big(padded_probe(1400));
	mrc_pkt got;

	ASSERT_EQ(decode_quote(b, 200, b.size(), &got), 0);
	EXPECT_EQ(got.u.probe.pad_len, 1400);
	EXPECT_EQ(got.u.probe.key, 0x0badf00dU);
	b[150] = 1;
	EXPECT_EQ(decode_quote(b, 200, b.size(), &got), -MRC_WERR_RESERVED);
	EXPECT_EQ(decode_quote(b, 27, b.size(), &got), -MRC_WERR_TRUNCATED);

	// a header-only packet is never too big: only a whole quote decodes
	std::vector<u8> n = wire(sack(true));
	EXPECT_EQ(decode_quote(n, n.size() - 1, n.size(), &got), -MRC_WERR_TRUNCATED);
	EXPECT_EQ(decode_quote(n, n.size(), n.size(), &got), 0);
	std::vector<u8> junk(40, 0);
	EXPECT_EQ(decode_quote(junk, 20, 40, &got), -MRC_WERR_UNKNOWN_OPCODE);
}

TEST(Wire, UnknownAndUnsupportedOpcodes)
{
	std::vector<u8> b(64, 0);
	mrc_pkt got;
	int known = 0;

	for (int op = 0; op < 256; op++) {
		b[0] = (u8)op;
		if (mrc_pkt_type_of((u8)op) != MRC_PKT_INVALID) {
			known++;
			continue;
		}
		EXPECT_EQ(decode(b, &got), -MRC_WERR_UNKNOWN_OPCODE) << op;
	}
	EXPECT_EQ(known, 6 + 5 + 6 + 1 + 1);
	// even a bare opcode byte with a short buffer says truncated first
	EXPECT_EQ(decode(b, 1, &got), -MRC_WERR_TRUNCATED);
	EXPECT_EQ(decode(b, 0, &got), -MRC_WERR_TRUNCATED);
}

// Flip bytes of a valid packet and check the exact reason.
struct Mutation {
	std::string name;
	mrc_pkt pkt;
	u32 at;
	u8 value;   // new byte value
	bool or_in; // OR @value in instead of replacing
	int err;
};

TEST(Wire, EveryDecoderRejection)
{
	mrc_pkt only = data(MRC_OP_WRITE_ONLY, 8, 8, true);
	mrc_pkt mid = data(MRC_OP_WRITE_MIDDLE, 8, 100, false);
	mrc_pkt sk = sack(true);
	mrc_pkt nk = samples()[0].pkt;
	std::vector<Mutation> m;

	for (const Sample &s : samples())
		if (s.pkt.type == MRC_PKT_NACK)
			nk = s.pkt;
	m.push_back({"tver", only, 1, 0x01, true, -MRC_WERR_BAD_TVER});
	m.push_back({"tver_f", sk, 1, 0x0f, true, -MRC_WERR_BAD_TVER});
	m.push_back({"mig", only, 1, 0x40, true, 0});
	m.push_back({"fecn", only, 4, 0x80, false, 0});
	m.push_back({"becn", sk, 4, 0x40, false, 0});
	m.push_back({"bth_byte4", only, 4, 0x20, false, -MRC_WERR_RESERVED});
	m.push_back({"bth_byte4_low", nk, 4, 0x01, true, -MRC_WERR_RESERVED});
	m.push_back({"bth_flags", only, 8, 0x01, true, -MRC_WERR_RESERVED});
	m.push_back({"pad_on_sack", sk, 1, 0x10, true, -MRC_WERR_BAD_PAD});
	m.push_back({"ackreq_on_sack", sk, 8, 0x80, true, -MRC_WERR_RESERVED});
	m.push_back({"rtx_on_nack", nk, 8, 0x40, true, -MRC_WERR_RESERVED});
	m.push_back({"se_on_nack", nk, 1, 0x80, true, -MRC_WERR_RESERVED});
	m.push_back({"psn_on_sack", sk, 11, 0x01, false, -MRC_WERR_RESERVED});
	m.push_back({"tseth_rsvd", only, 18, 0x01, true, -MRC_WERR_RESERVED});
	m.push_back({"tseth_rsvd2", only, 19, 0x10, true, -MRC_WERR_RESERVED});
	m.push_back({"only_dma", only, 35, 0x09, false, -MRC_WERR_PAYLOAD_LEN});
	m.push_back({"mid_dma", mid, 31, 0x08, false, -MRC_WERR_PAYLOAD_LEN});
	m.push_back({"sack_rsvd0", sk, 12, 0x10, true, -MRC_WERR_RESERVED});
	m.push_back({"sack_rsvd1", sk, 13, 0x01, true, -MRC_WERR_RESERVED});
	m.push_back({"sack_rsvd12", sk, 24, 0x01, false, -MRC_WERR_RESERVED});
	m.push_back({"sack_m3", sk, 13, 0xc0, true, -MRC_WERR_BAD_FIELD});
	m.push_back({"sack_next", sk, 12, 0x02, false, -MRC_WERR_BAD_EXT});
	m.push_back({"sack_next_f", sk, 12, 0x0f, false, -MRC_WERR_BAD_EXT});
	m.push_back({"credit_ver0", sk, 48, 0x00, false, -MRC_WERR_BAD_EXT_VERSION});
	m.push_back({"credit_ver2", sk, 48, 0x02, false, -MRC_WERR_BAD_EXT_VERSION});
	m.push_back({"credit_flags", sk, 49, 0x01, false, -MRC_WERR_RESERVED});
	m.push_back({"credit_rsvd", sk, 51, 0x01, false, -MRC_WERR_RESERVED});
	m.push_back({"sack_qpn", sk, 7, 0x0f, false, -MRC_WERR_BAD_QPN});
	m.push_back({"nack_rsvd", nk, 14, 0x01, false, -MRC_WERR_RESERVED});
	m.push_back({"nack_rsvd_psn", nk, 24, 0x01, false, -MRC_WERR_RESERVED});
	m.push_back({"nack_rsvd_cc", nk, 28, 0x01, true, -MRC_WERR_RESERVED});
	m.push_back({"nack_rsvd17", nk, 29, 0x01, false, -MRC_WERR_RESERVED});

	for (const Sample &s : samples()) {
		const mrc_pkt &p = s.pkt;
		u8 op = p.bth.opcode;

		switch (p.type) {
		case MRC_PKT_ACK:
			m.push_back({"ack_qpn", p, 7, 2, false, -MRC_WERR_BAD_QPN});
			m.push_back({"ack_ackreq", p, 8, 0x80, true, -MRC_WERR_RESERVED});
			m.push_back({"ack_pad", p, 1, 0x10, true, -MRC_WERR_BAD_PAD});
			break;
		case MRC_PKT_PROBE:
			m.push_back({"probe_key", p, 19, 1, false, 0});
			m.push_back({"probe_qpn", p, 7, 2, false, -MRC_WERR_BAD_QPN});
			break;
		case MRC_PKT_EP_REQ:
			m.push_back({"erth_rsvd", p, 13, 1, false, -MRC_WERR_RESERVED});
			m.push_back({"erth_op", p, 12, 2, false, -MRC_WERR_BAD_FIELD});
			m.push_back({"erth_qpn", p, 7, 1, false, -MRC_WERR_BAD_QPN});
			break;
		case MRC_PKT_EP_RESP:
			m.push_back({"eeth_op", p, 12, 0xff, false, -MRC_WERR_BAD_FIELD});
			m.push_back({"eeth_qpn", p, 7, 0x10, false, -MRC_WERR_BAD_QPN});
			break;
		case MRC_PKT_CM:
			m.push_back({"cm_ver0", p, 12, 0, false, -MRC_WERR_BAD_EXT_VERSION});
			m.push_back({"cm_ver3", p, 12, 3, false, -MRC_WERR_BAD_EXT_VERSION});
			// version 1 (the previous wire): a CM_REQ decodes, to be
			// refused with a CM_REJ BAD_VERSION; nothing else does
			m.push_back({"cm_ver1", p, 12, 1, false,
				     op == MRC_OP_CM_REQ || op == MRC_OP_CM_REJ
					 ? 0
					 : -MRC_WERR_BAD_EXT_VERSION});
			// GONE is a CM_DREP's (Wire.CmFlagOnlyGoneOnDrep)
			m.push_back({"cm_flags", p, 13, u8(op == MRC_OP_CM_DREP ? 0x02 : 0x01),
				     false, -MRC_WERR_RESERVED});
			m.push_back({"cm_src_rsvd", p, 16, 1, false, -MRC_WERR_RESERVED});
			m.push_back({"cm_dst_rsvd", p, 20, 1, false, -MRC_WERR_RESERVED});
			m.push_back({"cm_qpn", p, 7, 2, false, -MRC_WERR_BAD_QPN});
			m.push_back({"cm_port_rsvd", p, 34, 1, false, -MRC_WERR_RESERVED});
			m.push_back({"cm_port_rsvd2", p, 35, 0x80, false, -MRC_WERR_RESERVED});
			m.push_back({"cm_src_qpn_zero", p, 19, 0, false,
				     op == MRC_OP_CM_REJ ? 0 : -MRC_WERR_BAD_QPN});
			m.push_back({"cm_src_qpn_low", p, 19, 15, false, -MRC_WERR_BAD_QPN});
			if (op == MRC_OP_CM_REQ)
				m.push_back({"req_dst", p, 23, 0x20, false, -MRC_WERR_BAD_QPN});
			if (op == MRC_OP_CM_REJ) {
				m.push_back({"rej_reason", p, 36, 0, false, -MRC_WERR_BAD_FIELD});
				m.push_back({"rej_rsvd", p, 39, 1, false, -MRC_WERR_RESERVED});
			}
			if (op <= MRC_OP_CM_RTU) {
				m.push_back({"sock_type", p, 36, 2, false, -MRC_WERR_BAD_FIELD});
				m.push_back({"mpr0", p, 37, 0, false, -MRC_WERR_BAD_FIELD});
				m.push_back({"psn_rsvd", p, 40, 1, false, -MRC_WERR_RESERVED});
			}
			if (op == MRC_OP_CM_RTU) {
				// the CM_REQ's parameters, echoed after the CM_REP's
				m.push_back(
				    {"req_sock_type", p, 56, 2, false, -MRC_WERR_BAD_FIELD});
				m.push_back({"req_mpr0", p, 57, 0, false, -MRC_WERR_BAD_FIELD});
				m.push_back({"req_psn_rsvd", p, 60, 1, false, -MRC_WERR_RESERVED});
			}
			break;
		case MRC_PKT_RESET:
			m.push_back({"rst_ver", p, 12, 0, false, -MRC_WERR_BAD_EXT_VERSION});
			m.push_back({"rst_rsvd", p, 14, 1, false, -MRC_WERR_RESERVED});
			m.push_back({"rst_src_rsvd", p, 16, 1, false, -MRC_WERR_RESERVED});
			m.push_back({"rst_dst_rsvd", p, 20, 1, false, -MRC_WERR_RESERVED});
			m.push_back({"rst_psn_rsvd", p, 28, 1, false, -MRC_WERR_RESERVED});
			m.push_back({"rst_dst_low", p, 23, 5, false, -MRC_WERR_BAD_QPN});
			m.push_back({"rst_qpn", p, 7, 16, false, -MRC_WERR_BAD_QPN});
			break;
		default:
			break;
		}
	}

	for (const Mutation &mu : m) {
		SCOPED_TRACE(mu.name);
		std::vector<u8> b = wire(mu.pkt);
		mrc_pkt got;

		ASSERT_LT(mu.at, b.size());
		b[mu.at] = mu.or_in ? (u8)(b[mu.at] | mu.value) : mu.value;
		EXPECT_EQ(decode(b, &got), mu.err) << mrc_wire_err_name(decode(b, &got));
	}
}

// Each opcode class goes to its own QPNs.
TEST(Wire, QpnClasses)
{
	mrc_pkt got;
	auto set_qpn = [](std::vector<u8> &b, u32 qpn) {
		b[5] = qpn >> 16;
		b[6] = qpn >> 8;
		b[7] = qpn;
	};

	for (const Sample &s : samples()) {
		SCOPED_TRACE(s.name);
		std::vector<u8> b = wire(s.pkt);
		bool cm = s.pkt.type == MRC_PKT_CM || s.pkt.type == MRC_PKT_RESET;
		bool ep = s.pkt.type == MRC_PKT_EP_REQ || s.pkt.type == MRC_PKT_EP_RESP;

		for (u32 qpn : {0u, 1u, 2u, 3u, 15u, 16u, 0xffffffu}) {
			bool ok = cm ? qpn == MRC_QPN_CM : ep ? qpn == MRC_QPN_ENDPOINT : qpn >= 16;

			set_qpn(b, qpn);
			EXPECT_EQ(decode(b, &got), ok ? 0 : -MRC_WERR_BAD_QPN) << qpn;
		}
	}
}

// The CMH's flags byte (offset 13 of the packet): MRC_CM_F_GONE, on a
// CM_DREP only; anything else is a reserved bit, both ways.
TEST(Wire, CmFlagOnlyGoneOnDrep)
{
	mrc_pkt got;
	std::vector<u8> b = wire(cm(MRC_OP_CM_DREP));

	b[13] = MRC_CM_F_GONE;
	ASSERT_EQ(decode(b, &got), 0);
	EXPECT_EQ(got.u.cm.flags, MRC_CM_F_GONE);
	for (u8 f : {0x02, 0x80, 0x03}) {
		b[13] = f;
		EXPECT_EQ(decode(b, &got), -MRC_WERR_RESERVED) << int(f);
	}
	for (u8 op = MRC_OP_CM_REQ; op < MRC_OP_CM_DREP; op++) {
		mrc_pkt p = cm(op);
		u8 buf[MRC_PKT_HDR_MAX];

		b = wire(p);
		b[13] = MRC_CM_F_GONE;
		EXPECT_EQ(decode(b, &got), -MRC_WERR_RESERVED) << int(op);
		p.u.cm.flags = MRC_CM_F_GONE;
		EXPECT_EQ(mrc_pkt_encode(&p, buf, sizeof(buf)), -MRC_WERR_RESERVED) << int(op);
	}
}

TEST(Wire, CmZeroFieldsRejected)
{
	mrc_pkt p = cm(MRC_OP_CM_REP), got;
	std::vector<u8> b = wire(p);

	b[38] = 0; // max_payload = 0
	b[39] = 0;
	EXPECT_EQ(decode(b, &got), -MRC_WERR_BAD_FIELD);

	b = wire(cm(MRC_OP_CM_RTU));
	b[21] = b[22] = b[23] = 0; // dst QPN 0
	EXPECT_EQ(decode(b, &got), -MRC_WERR_BAD_QPN);

	// a CM_REJ may come from a listener that has no QPN yet
	p = cm(MRC_OP_CM_REJ);
	p.u.cm.src_qpn = 0;
	b = wire(p);
	EXPECT_EQ(decode(b, &got), 0);
	b[21] = b[22] = b[23] = 0;
	EXPECT_EQ(decode(b, &got), -MRC_WERR_BAD_QPN);
}

TEST(Wire, DataPadRules)
{
	mrc_pkt p = data(MRC_OP_WRITE_MIDDLE, 6, 100, false), got;
	std::vector<u8> b = wire(p); // 32 + 6 + 2 pad

	ASSERT_EQ(b.size(), 40u);
	EXPECT_EQ(decode(b, &got), 0);
	EXPECT_EQ(got.u.data.payload_len, 6u);
	EXPECT_EQ(got.u.data.payload_off, 32u);
	EXPECT_EQ(got.bth.pad_cnt, 2);

	// payload plus pad not a word multiple
	EXPECT_EQ(decode(b, 39, &got), -MRC_WERR_BAD_PAD);
	EXPECT_EQ(decode(b, 33, &got), -MRC_WERR_BAD_PAD);
	// pad count larger than what follows the headers
	EXPECT_EQ(decode(b, 32, &got), -MRC_WERR_BAD_PAD);

	// zero-length WRITE_ONLY: no pad
	p = data(MRC_OP_WRITE_ONLY_IMM, 0, 0, false);
	b = wire(p);
	EXPECT_EQ(b.size(), 36u);
	EXPECT_EQ(decode(b, &got), 0);
	b[1] |= 0x10;
	EXPECT_EQ(decode(b, &got), -MRC_WERR_BAD_PAD);
}

TEST(Wire, DataPayloadLengthRules)
{
	mrc_pkt got;
	std::vector<u8> b(MRC_PKT_HDR_MAX);

	// FIRST, MIDDLE, LAST: non-empty and shorter than the message
	for (u8 op :
	     {MRC_OP_WRITE_FIRST, MRC_OP_WRITE_MIDDLE, MRC_OP_WRITE_LAST, MRC_OP_WRITE_LAST_IMM}) {
		mrc_pkt p = data(op, 0, 100, false);

		EXPECT_EQ(mrc_pkt_encode(&p, b.data(), b.size()), -MRC_WERR_PAYLOAD_LEN);
		p = data(op, 100, 100, false);
		EXPECT_EQ(mrc_pkt_encode(&p, b.data(), b.size()), -MRC_WERR_PAYLOAD_LEN);
		p = data(op, 99, 100, false);
		EXPECT_GT(mrc_pkt_encode(&p, b.data(), b.size()), 0);
	}
	mrc_pkt p = data(MRC_OP_WRITE_ONLY, 4, 8, false);
	EXPECT_EQ(mrc_pkt_encode(&p, b.data(), b.size()), -MRC_WERR_PAYLOAD_LEN);

	// VA + length must not wrap
	p = data(MRC_OP_WRITE_ONLY, 8, 8, false);
	p.u.data.va = ~0ULL - 4;
	EXPECT_EQ(mrc_pkt_encode(&p, b.data(), b.size()), -MRC_WERR_BAD_FIELD);
	p.u.data.va = ~0ULL - 8;
	std::vector<u8> w = wire(p);
	EXPECT_EQ(decode(w, &got), 0);
	w[23] = 0xfc; // VA low byte: ~0 - 3
	EXPECT_EQ(decode(w, &got), -MRC_WERR_BAD_FIELD);
}

TEST(Wire, EncoderRejections)
{
	std::vector<u8> b(MRC_PKT_HDR_MAX, 0x5a);
	const std::vector<u8> untouched = b;
	mrc_pkt p;

	p = data(MRC_OP_WRITE_ONLY, 4, 4, false);
	p.bth.psn = 0x1000000;
	EXPECT_EQ(mrc_pkt_encode(&p, b.data(), b.size()), -MRC_WERR_BAD_FIELD);
	p = data(MRC_OP_WRITE_ONLY, 4, 4, false);
	p.type = MRC_PKT_SACK;
	EXPECT_EQ(mrc_pkt_encode(&p, b.data(), b.size()), -MRC_WERR_BAD_FIELD);
	p = data(MRC_OP_WRITE_ONLY, 4, 4, false);
	p.bth.dest_qpn = 0x1000010;
	EXPECT_EQ(mrc_pkt_encode(&p, b.data(), b.size()), -MRC_WERR_BAD_QPN);
	p.bth.dest_qpn = 15;
	EXPECT_EQ(mrc_pkt_encode(&p, b.data(), b.size()), -MRC_WERR_BAD_QPN);
	p = data(MRC_OP_WRITE_ONLY, 4, 4, true);
	p.u.data.tseth.ftype = 16;
	EXPECT_EQ(mrc_pkt_encode(&p, b.data(), b.size()), -MRC_WERR_BAD_FIELD);

	p = blank(0x00, 0x100);
	EXPECT_EQ(mrc_pkt_encode(&p, b.data(), b.size()), -MRC_WERR_UNKNOWN_OPCODE);
	p = blank(MRC_OP_TRANSPORT_ACK, 0x100);
	p.u.ack.msn = 0x1000000;
	EXPECT_EQ(mrc_pkt_encode(&p, b.data(), b.size()), -MRC_WERR_BAD_FIELD);
	p = blank(MRC_OP_CM_DREQ, MRC_QPN_CM);
	p.u.cm.src_qpn = 0x100;
	p.u.cm.dst_qpn = 0x200;
	p.u.cm.version = 3;
	EXPECT_EQ(mrc_pkt_encode(&p, b.data(), b.size()), -MRC_WERR_BAD_EXT_VERSION);
	p.u.cm.version = MRC_CM_VERSION_V1;
	EXPECT_EQ(mrc_pkt_encode(&p, b.data(), b.size()), -MRC_WERR_BAD_EXT_VERSION);
	p = blank(MRC_OP_SACK, 0x100);
	p.type = MRC_PKT_INVALID;
	EXPECT_EQ(mrc_pkt_encode(&p, b.data(), b.size()), -MRC_WERR_UNKNOWN_OPCODE);

	struct {
		const char *what;
		void (*set)(mrc_pkt *);
		int err;
	} sk[] = {
	    {"psn", [](mrc_pkt *q) { q->bth.psn = 1; }, -MRC_WERR_RESERVED},
	    {"ts", [](mrc_pkt *q) { q->bth.ts = true; }, -MRC_WERR_RESERVED},
	    {"mark", [](mrc_pkt *q) { q->u.sack.mark = 3; }, -MRC_WERR_BAD_FIELD},
	    {"cack", [](mrc_pkt *q) { q->u.sack.cack_psn = 1u << 24; }, -MRC_WERR_BAD_FIELD},
	    {"cc_type", [](mrc_pkt *q) { q->u.sack.cc_type = 16; }, -MRC_WERR_BAD_FIELD},
	    {"cc_flags", [](mrc_pkt *q) { q->u.sack.cc_flags = 16; }, -MRC_WERR_BAD_FIELD},
	    {"ooo", [](mrc_pkt *q) { q->u.sack.cc.ooo_count = 0x8000; }, -MRC_WERR_BAD_FIELD},
	    {"pen", [](mrc_pkt *q) { q->u.sack.cc.rcv_cwnd_pen = 128; }, -MRC_WERR_BAD_FIELD},
	    {"rcvd", [](mrc_pkt *q) { q->u.sack.cc.rcvd_bytes = 1u << 24; }, -MRC_WERR_BAD_FIELD},
	};
	for (auto &c : sk) {
		p = sack(true);
		c.set(&p);
		EXPECT_EQ(mrc_pkt_encode(&p, b.data(), b.size()), c.err) << c.what;
	}

	p = cm(MRC_OP_CM_REQ);
	p.u.cm.src_qpn = 1u << 24;
	EXPECT_EQ(mrc_pkt_encode(&p, b.data(), b.size()), -MRC_WERR_BAD_QPN);
	p = cm(MRC_OP_CM_REP);
	p.u.cm.params.init_psn = 1u << 24;
	EXPECT_EQ(mrc_pkt_encode(&p, b.data(), b.size()), -MRC_WERR_BAD_FIELD);
	p = blank(MRC_OP_RESET, MRC_QPN_CM);
	p.u.reset.src_qpn = 0x100;
	p.u.reset.dst_qpn = 1u << 24;
	EXPECT_EQ(mrc_pkt_encode(&p, b.data(), b.size()), -MRC_WERR_BAD_QPN);
	p.u.reset.dst_qpn = 0;
	p.u.reset.psn = 1u << 24;
	EXPECT_EQ(mrc_pkt_encode(&p, b.data(), b.size()), -MRC_WERR_BAD_FIELD);
	p = samples()[0].pkt;
	for (const Sample &s : samples())
		if (s.pkt.type == MRC_PKT_NACK)
			p = s.pkt;
	p.u.nack.nack_psn = 1u << 24;
	EXPECT_EQ(mrc_pkt_encode(&p, b.data(), b.size()), -MRC_WERR_BAD_FIELD);

	EXPECT_EQ(b, untouched); // nothing written on error
}

TEST(Wire, EncoderNeverWritesPastCapacity)
{
	for (const Sample &s : samples()) {
		SCOPED_TRACE(s.name);
		int need = wire(s.pkt).size() -
			   (s.pkt.type == MRC_PKT_DATA
				? s.pkt.u.data.payload_len + mrc_pad_len(s.pkt.u.data.payload_len)
				: 0);

		for (int cap = 0; cap < need; cap++) {
			std::vector<u8> b(cap + 8, 0xee);

			EXPECT_EQ(mrc_pkt_encode(&s.pkt, b.data(), cap), -MRC_WERR_NOSPC);
			for (u8 c : b)
				ASSERT_EQ(c, 0xee);
		}
		std::vector<u8> b(need + 8, 0xee);
		EXPECT_EQ(mrc_pkt_encode(&s.pkt, b.data(), need), need);
		for (int i = need; i < need + 8; i++)
			EXPECT_EQ(b[i], 0xee);
	}
}

TEST(Wire, SackWithoutCreditExtension)
{
	mrc_pkt p = sack(false), got;
	std::vector<u8> b = wire(p);

	EXPECT_EQ(b.size(), 48u);
	EXPECT_EQ(b[12], MRC_SETH_NEXT_NONE);
	ASSERT_EQ(decode(b, &got), 0);
	EXPECT_FALSE(got.u.sack.has_credit);
	// announcing the extension without carrying it is a truncation
	b[12] = MRC_SETH_NEXT_CREDIT;
	EXPECT_EQ(decode(b, &got), -MRC_WERR_TRUNCATED);
}

TEST(Wire, ErrorNames)
{
	std::set<std::string> names;

	for (int e = 0; e < __MRC_WERR_MAX; e++) {
		const char *n = mrc_wire_err_name(e);

		ASSERT_NE(n, nullptr) << e;
		EXPECT_STRNE(n, "unknown") << e;
		EXPECT_STREQ(n, mrc_wire_err_name(-e));
		for (const char *c = n; *c; c++)
			EXPECT_TRUE((*c >= 'a' && *c <= 'z') || *c == '_') << n;
		names.insert(n);
	}
	EXPECT_EQ(names.size(), (size_t)__MRC_WERR_MAX);
	EXPECT_STREQ(mrc_wire_err_name(__MRC_WERR_MAX), "unknown");
	EXPECT_STREQ(mrc_wire_err_name(-1000), "unknown");
	EXPECT_STREQ(mrc_wire_err_name(-MRC_WERR_TRUNCATED), "truncated");
}

TEST(Wire, OpcodeHelpers)
{
	EXPECT_TRUE(mrc_op_is_data(0xc6));
	EXPECT_TRUE(mrc_op_is_data(0xcb));
	EXPECT_FALSE(mrc_op_is_data(0xc5));
	EXPECT_FALSE(mrc_op_is_data(0xcc));
	EXPECT_TRUE(mrc_op_is_msg_end(MRC_OP_WRITE_LAST));
	EXPECT_TRUE(mrc_op_is_msg_end(MRC_OP_WRITE_ONLY_IMM));
	EXPECT_FALSE(mrc_op_is_msg_end(MRC_OP_WRITE_MIDDLE));
	EXPECT_FALSE(mrc_op_is_msg_end(MRC_OP_WRITE_FIRST));
	EXPECT_TRUE(mrc_op_has_imm(MRC_OP_WRITE_LAST_IMM));
	EXPECT_FALSE(mrc_op_has_imm(MRC_OP_WRITE_ONLY));
	EXPECT_EQ(mrc_pad_len(0), 0u);
	EXPECT_EQ(mrc_pad_len(1), 3u);
	EXPECT_EQ(mrc_pad_len(3), 1u);
	EXPECT_EQ(mrc_pad_len(4), 0u);
}

// Random byte strings: the decoder must never crash, and whatever it
// accepts must re-encode to the same bytes.
TEST(Wire, RandomBytesRoundTrip)
{
	u64 x = 0x9e3779b97f4a7c15ULL;
	auto rnd = [&x]() {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		return x;
	};
	std::vector<Sample> s = samples();
	int accepted = 0;

	for (int iter = 0; iter < 200000; iter++) {
		std::vector<u8> b = wire(s[rnd() % s.size()].pkt);
		int flips = rnd() % 3;
		mrc_pkt got;

		for (int f = 0; f < flips; f++)
			b[rnd() % b.size()] ^= (u8)(1u << (rnd() % 8));
		if (decode(b, &got))
			continue;
		accepted++;
		std::vector<u8> out(MRC_PKT_HDR_MAX);
		int n = mrc_pkt_encode(&got, out.data(), out.size());
		ASSERT_GT(n, 0);
		ASSERT_TRUE(std::equal(out.begin(), out.begin() + n, b.begin()));
	}
	EXPECT_GT(accepted, 1000);
}

} // namespace
