// SPDX-License-Identifier: GPL-2.0
/*
 * Handshake cookies (mrc_cookie.h): SipHash-2-4, written from its
 * specification (Aumasson and Bernstein, "SipHash: a fast short-input
 * PRF", 2012), and the MAC a stateless CM_REP carries.
 */
#include "mrc_cookie.h"
#include "mrc_psn.h"

static u64 mrc_rotl64(u64 x, unsigned int b)
{
	return (x << b) | (x >> (64 - b));
}

static u64 mrc_le64(const u8 *p)
{
	u64 v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

struct mrc_sip {
	u64 v0, v1, v2, v3;
};

static void mrc_sip_round(struct mrc_sip *s)
{
	s->v0 += s->v1;
	s->v1 = mrc_rotl64(s->v1, 13);
	s->v1 ^= s->v0;
	s->v0 = mrc_rotl64(s->v0, 32);
	s->v2 += s->v3;
	s->v3 = mrc_rotl64(s->v3, 16);
	s->v3 ^= s->v2;
	s->v0 += s->v3;
	s->v3 = mrc_rotl64(s->v3, 21);
	s->v3 ^= s->v0;
	s->v2 += s->v1;
	s->v1 = mrc_rotl64(s->v1, 17);
	s->v1 ^= s->v2;
	s->v2 = mrc_rotl64(s->v2, 32);
}

static void mrc_sip_block(struct mrc_sip *s, u64 m)
{
	s->v3 ^= m;
	mrc_sip_round(s);
	mrc_sip_round(s);
	s->v0 ^= m;
}

/**
 * mrc_siphash() - SipHash-2-4 of a byte string.
 * @key: the 128-bit key (k[0] the first 8 key bytes read little-endian).
 * @data: the message.
 * @len: its length in bytes.
 *
 * Return: the 64-bit MAC.
 */
u64 mrc_siphash(const struct mrc_cookie_key *key, const u8 *data, u32 len)
{
	struct mrc_sip s = {
		.v0 = key->k[0] ^ 0x736f6d6570736575ULL,
		.v1 = key->k[1] ^ 0x646f72616e646f6dULL,
		.v2 = key->k[0] ^ 0x6c7967656e657261ULL,
		.v3 = key->k[1] ^ 0x7465646279746573ULL,
	};
	u64 last = (u64)len << 56;
	u32 i, tail = len & 7;

	for (i = 0; i + 8 <= len; i += 8)
		mrc_sip_block(&s, mrc_le64(data + i));
	while (tail--)
		last |= (u64)data[i + tail] << (8 * tail);
	mrc_sip_block(&s, last);
	s.v2 ^= 0xff;
	for (i = 0; i < 4; i++)
		mrc_sip_round(&s);
	return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

/* Bytes of the message the MAC covers (mrc_cookie_msg()). */
#define MRC_COOKIE_MSG_LEN	92

static u8 *mrc_cookie_put(u8 *p, u64 v, int bytes)
{
	while (bytes--)
		*p++ = (u8)(v >> (8 * bytes));
	return p;
}

/*
 * Everything the cookie vouches for, in a fixed order: every field of
 * @c but the CM_REP's init_psn and r_key (the MAC itself), and @slot.
 */
static void mrc_cookie_msg(const struct mrc_cookie_conn *c, u64 slot, u8 *buf)
{
	const struct mrc_cm_params *q = &c->req, *r = &c->rep;
	u8 *p = buf;

	memcpy(p, c->raddr, 16);
	memcpy(p + 16, c->laddr, 16);
	p += 32;
	p = mrc_cookie_put(p, c->port, 2);
	p = mrc_cookie_put(p, c->client_port, 2);
	p = mrc_cookie_put(p, c->rqpn, 4);
	p = mrc_cookie_put(p, c->lqpn, 4);
	p = mrc_cookie_put(p, c->cookie, 8);
	p = mrc_cookie_put(p, q->sock_type, 1);
	p = mrc_cookie_put(p, q->mpr, 1);
	p = mrc_cookie_put(p, q->max_payload, 2);
	p = mrc_cookie_put(p, q->init_psn, 4);
	p = mrc_cookie_put(p, q->r_key, 4);
	p = mrc_cookie_put(p, q->rcv_window, 4);
	p = mrc_cookie_put(p, q->caps, 4);
	p = mrc_cookie_put(p, r->sock_type, 1);
	p = mrc_cookie_put(p, r->mpr, 1);
	p = mrc_cookie_put(p, r->max_payload, 2);
	p = mrc_cookie_put(p, r->rcv_window, 4);
	p = mrc_cookie_put(p, r->caps, 4);
	mrc_cookie_put(p, slot, 8);
}

/*
 * The CM_REP's r_key and init_psn for @c in @slot: r_key bit 0 is set
 * (never 0), bits 1-3 are the slot's low bits (which slot to check
 * against), bits 4-31 and the 24 bits of init_psn are the MAC's: 52 bits
 * an off-path forger must guess.
 */
static void mrc_cookie_fields(const struct mrc_cookie_key *key,
			      const struct mrc_cookie_conn *c, u64 slot,
			      u32 *r_key, u32 *init_psn)
{
	u8 msg[MRC_COOKIE_MSG_LEN];
	u64 mac;

	mrc_cookie_msg(c, slot, msg);
	mac = mrc_siphash(key, msg, sizeof(msg));
	*r_key = ((u32)mac << (MRC_COOKIE_SLOT_BITS + 1)) |
		 (u32)(slot & ((1U << MRC_COOKIE_SLOT_BITS) - 1)) << 1 | 1;
	*init_psn = (u32)(mac >> 32) & MRC_PSN_MASK;
}

static u64 mrc_cookie_slot(u64 now)
{
	return mrc_div64(now, MRC_COOKIE_SLOT_NS);
}

/**
 * mrc_cookie_make() - the cookie of a stateless CM_REP.
 * @key: the namespace's key.
 * @now: current time (ns).
 * @c: the connection as requested and answered; sets @c->rep.init_psn
 *	and @c->rep.r_key, the rest must be filled in.
 */
void mrc_cookie_make(const struct mrc_cookie_key *key, u64 now,
		     struct mrc_cookie_conn *c)
{
	mrc_cookie_fields(key, c, mrc_cookie_slot(now), &c->rep.r_key,
			  &c->rep.init_psn);
}

/**
 * mrc_cookie_check() - does a CM_RTU prove its sender saw our CM_REP?
 * @key: the namespace's key.
 * @now: current time (ns).
 * @c: the connection the CM_RTU describes (mrc_cookie_from_rtu()).
 *
 * One MAC is computed: the r_key names the slot (its low bits), the most
 * recent slot with those bits up to now. A cookie of the current slot or
 * of the MRC_COOKIE_LIFE_SLOTS - 1 before is accepted; an older one the
 * slot bits still tell apart is recognised as expired; anything else is
 * forged.
 *
 * Return: the verdict.
 */
enum mrc_cookie_verdict mrc_cookie_check(const struct mrc_cookie_key *key,
					 u64 now,
					 const struct mrc_cookie_conn *c)
{
	const u64 mask = (1U << MRC_COOKIE_SLOT_BITS) - 1;
	u64 cur = mrc_cookie_slot(now);
	u64 age = (cur - (c->rep.r_key >> 1)) & mask;
	u32 r_key, psn;

	if (!(c->rep.r_key & 1) || age > cur)
		return MRC_COOKIE_BAD;
	mrc_cookie_fields(key, c, cur - age, &r_key, &psn);
	if (r_key != c->rep.r_key || psn != c->rep.init_psn)
		return MRC_COOKIE_BAD;
	return age < MRC_COOKIE_LIFE_SLOTS ? MRC_COOKIE_OK : MRC_COOKIE_EXPIRED;
}

/**
 * mrc_cookie_from_rtu() - the connection a CM_RTU describes.
 * @c: filled in (fully overwritten).
 * @raddr: the CM_RTU's IPv6 source (the requester).
 * @laddr: its IPv6 destination (the listener).
 * @rtu: the decoded CM_RTU (both parameter sets echoed).
 */
void mrc_cookie_from_rtu(struct mrc_cookie_conn *c, const u8 *raddr,
			 const u8 *laddr, const struct mrc_cm *rtu)
{
	memset(c, 0, sizeof(*c));
	memcpy(c->raddr, raddr, 16);
	memcpy(c->laddr, laddr, 16);
	c->port = rtu->port;
	c->client_port = rtu->client_port;
	c->rqpn = rtu->src_qpn;
	c->lqpn = rtu->dst_qpn;
	c->cookie = rtu->cookie;
	c->req = rtu->req_params;
	c->rep = rtu->params;
}
