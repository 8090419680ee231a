// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: mrc_conn_rx() of an established engine pair fed
 * packets a peer or an attacker controls.
 *
 * Two engines A and B exchange real traffic; the input is a list of
 * records, each one of: deliver the next real packet (possibly with its
 * PSN, VA, R_Key, cumulative ack, bitmap or credit tweaked by input
 * bytes), inject raw bytes through the decoder, let time pass (timers),
 * or read on one side. Invariants after every step: a dropped packet
 * changed no protocol state; offsets never go backward and stay ordered;
 * the scoreboard's counters agree; built headers always encode.
 */
#include <stdlib.h>
#include <string.h>

#include "mrc_fuzz.h"
#include "mrc_conn.h"

#define STORAGE_WORDS	65536
#define QLEN		64
#define PKT_MAX		2048

struct qpkt {
	u8 to;
	u16 ev;
	u32 len;
	u8 buf[PKT_MAX];
};

static u64 storage[2][STORAGE_WORDS];
static struct mrc_conn conn[2];
static struct qpkt q[QLEN];
static u32 qhead, qtail;
static u64 now;

struct snap {
	u32 una, nxt, cack, inflight, lost;
	u64 deliver, una_off, limit, advertised, snd_nxt;
};

static void take(const struct mrc_conn *c, struct snap *s)
{
	memset(s, 0, sizeof(*s));	/* padding too: snapshots are memcmp'd */
	s->una = c->tx.una;
	s->nxt = c->tx.nxt;
	s->cack = c->rx.cack;
	s->inflight = c->tx.inflight_pkts;
	s->lost = c->tx.lost_pkts;
	s->deliver = c->rx.deliver_off;
	s->una_off = c->tx.una_off;
	s->limit = c->ctx.limit;
	s->advertised = c->crx.advertised;
	s->snd_nxt = c->snd_nxt;
}

static void check(const struct mrc_conn *c, const struct snap *before)
{
	u32 span = mrc_psn_sub(c->tx.nxt, c->tx.una);

	if (c->tx.inflight_pkts + c->tx.lost_pkts > span)
		abort();
	if (c->rx.deliver_off < before->deliver ||
	    c->tx.una_off < before->una_off || c->ctx.limit < before->limit ||
	    c->crx.advertised < before->advertised)
		abort();
	if (c->tx.una_off > c->snd_nxt || c->snd_nxt > c->snd_end)
		abort();
	if (c->rcv_read > c->rx.deliver_off)
		abort();
}

static void push(u8 to, u16 ev, const u8 *b, u32 len)
{
	struct qpkt *p;

	if (qtail - qhead >= QLEN || len > PKT_MAX)
		return;
	p = &q[qtail++ % QLEN];
	p->to = to;
	p->ev = ev;
	p->len = len;
	memcpy(p->buf, b, len);
}

/* Drain what side @s wants to send into the queue. */
static void pump(int s)
{
	struct mrc_conn *c = &conn[s];
	static u8 buf[PKT_MAX];
	struct mrc_tx_desc d;
	struct mrc_pkt pkt;
	u32 ev, i;
	int n;

	for (i = 0; i < 32 && mrc_conn_next_tx(c, now, &d); i++) {
		n = mrc_conn_build_data_hdr(c, &d, buf, sizeof(buf));
		if (n < 0 || n + d.len + 4 > sizeof(buf))
			abort();
		memset(buf + n, (u8)d.off, d.len + mrc_pad_len(d.len));
		push(1 - s, (u16)d.ev, buf, n + d.len + mrc_pad_len(d.len));
	}
	for (i = 0; i < 32 && mrc_conn_next_ctrl(c, now, &pkt, &ev); i++) {
		n = mrc_pkt_encode(&pkt, buf, sizeof(buf));
		if (n < 0)
			abort();
		push(1 - s, (u16)ev, buf, n);
	}
	while (mrc_conn_pop_event(c, &(struct mrc_conn_event){0}))
		;
}

static void deliver(int to, const u8 *b, u32 len, u16 ev, bool ce)
{
	struct mrc_conn *c = &conn[to];
	struct mrc_conn_verdict v;
	struct snap s0, s1;
	struct mrc_pkt pkt;
	int drop;

	if (mrc_pkt_decode(b, len, &pkt))
		return;
	take(c, &s0);
	drop = mrc_conn_rx(c, &pkt, ev, ce, now, &v);
	take(c, &s1);
	if (drop && memcmp(&s0, &s1, sizeof(s0)))
		abort();
	if (drop < 0 || drop >= __MRC_DROP_MAX)
		abort();
	check(c, &s0);
}

static void tweak(u8 *b, u32 len, const u8 *in)
{
	struct mrc_pkt pkt;

	if (mrc_pkt_decode(b, len, &pkt))
		return;
	switch (in[0] % 6) {
	case 0:
		pkt.bth.psn = (pkt.bth.psn + (s8)in[1] * 37) & MRC_PSN_MASK;
		break;
	case 1:
		if (pkt.type == MRC_PKT_DATA)
			pkt.u.data.va += (s8)in[1] * 1000;
		break;
	case 2:
		if (pkt.type == MRC_PKT_DATA)
			pkt.u.data.r_key ^= in[1];
		break;
	case 3:
		if (pkt.type == MRC_PKT_SACK)
			pkt.u.sack.cack_psn = (pkt.u.sack.cack_psn +
					       (s8)in[1]) & MRC_PSN_MASK;
		break;
	case 4:
		if (pkt.type == MRC_PKT_SACK)
			pkt.u.sack.sack_bitmap ^= (u64)in[1] << (in[1] % 56);
		break;
	default:
		if (pkt.type == MRC_PKT_SACK && pkt.u.sack.has_credit)
			pkt.u.sack.credit.credit += (s8)in[1] * 4096;
		break;
	}
	mrc_pkt_encode(&pkt, b, PKT_MAX);
}

static int setup(void)
{
	static const struct mrc_path_cand cands[] = {
		{ 1, 1, 0 }, { 2, 1, 0 }, { 3, 1, 1 }, { 4, 1, 1 },
	};
	struct mrc_conn_params p;
	int s;

	for (s = 0; s < 2; s++) {
		mrc_conn_params_default(&p);
		p.sock_type = MRC_CONN_SEQPACKET;
		p.local_qpn = s ? 0x200 : 0x100;
		p.peer_qpn = s ? 0x100 : 0x200;
		p.tx_init_psn = s ? 0xfffff0 : 100;
		p.rx_init_psn = s ? 100 : 0xfffff0;
		p.rx_r_key = s ? 0xbbbb : 0xaaaa;
		p.tx_r_key = s ? 0xaaaa : 0xbbbb;
		p.tx_mpr = 256;
		p.rx_mpr = 256;
		p.max_payload = 256;
		p.rcvbuf = 16384;
		p.peer_window = 16384;
		p.tx_msgs = 16;
		p.rx_msgs = 16;
		p.events = 8;
		p.seed = s + 1;
		p.policy.rto_min_ns = 100000;
		if (mrc_conn_storage_size(&p) > sizeof(storage[s]))
			abort();
		if (mrc_conn_init(&conn[s], &p, storage[s], cands, 4, 0))
			abort();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	size_t i = 0;
	int s;

	qhead = 0;
	qtail = 0;
	now = 1000;
	setup();
	for (s = 0; s < 2; s++) {
		mrc_conn_app_write(&conn[s], 3000, true);
		mrc_conn_app_write(&conn[s], 0, true);
		mrc_conn_app_write(&conn[s], 700, true);
		pump(s);
	}
	while (i + 2 <= size) {
		u8 op = data[i], arg = data[i + 1];
		struct mrc_conn_msg m;
		struct qpkt *p;
		u32 len;

		i += 2;
		switch (op % 6) {
		case 0:	/* deliver the next real packet */
		case 1:	/* ... tweaked */
			if (qhead == qtail)
				break;
			p = &q[qhead++ % QLEN];
			if (op % 6 == 1 && i + 2 <= size) {
				tweak(p->buf, p->len, data + i);
				i += 2;
			}
			deliver(p->to, p->buf, p->len, arg & 1 ? p->ev : arg,
				arg & 2);
			pump(p->to);
			break;
		case 2:	/* drop the next real packet */
			if (qhead != qtail)
				qhead++;
			break;
		case 3:	/* raw bytes */
			len = arg;
			if (i + len > size)
				len = size - i;
			deliver(op & 0x80 ? 1 : 0, data + i, len, arg, false);
			i += len;
			break;
		case 4:	/* time passes */
			now += (u64)arg * 7919;
			for (s = 0; s < 2; s++) {
				u64 d = mrc_conn_next_deadline(&conn[s]);

				if (d && d <= now)
					mrc_conn_on_timer(&conn[s], now);
				pump(s);
			}
			break;
		default: /* the application reads and writes */
			s = arg & 1;
			while (mrc_conn_rx_msg_pop(&conn[s], &m))
				mrc_conn_app_read(&conn[s], m.len);
			mrc_conn_app_write(&conn[s], arg * 13, true);
			pump(s);
			break;
		}
	}
	return 0;
}
