// SPDX-License-Identifier: GPL-2.0
// Handshake cookies: SipHash-2-4 against its reference vector, and the
// stateless listener's MAC: made, checked, bound to every field, expiring.
#include <gtest/gtest.h>

#include "mrc_cookie.h"
#include "mrc_psn.h"

namespace {

constexpr u64 kS = 1000000000ULL;

mrc_cookie_key Key(u64 a = 0x0706050403020100ULL, u64 b = 0x0f0e0d0c0b0a0908ULL)
{
	mrc_cookie_key k{};

	k.k[0] = a;
	k.k[1] = b;
	return k;
}

// The reference vector of the SipHash paper (appendix A): key 00..0f,
// message 00..0e.
TEST(Cookie, SipHashReferenceVector)
{
	mrc_cookie_key k = Key();
	u8 msg[15];

	for (int i = 0; i < 15; i++)
		msg[i] = (u8)i;
	EXPECT_EQ(mrc_siphash(&k, msg, sizeof(msg)), 0xa129ca6149be45e5ULL);
	// every length hashes differently (the length is in the last block)
	EXPECT_NE(mrc_siphash(&k, msg, 8), mrc_siphash(&k, msg, 7));
	EXPECT_NE(mrc_siphash(&k, msg, 0), mrc_siphash(&k, msg, 1));
}

mrc_cookie_conn Conn()
{
	mrc_cookie_conn c{};

	for (int i = 0; i < 16; i++) {
		c.raddr[i] = (u8)(0xfd + i);
		c.laddr[i] = (u8)(0x20 + i);
	}
	c.port = 5001;
	c.client_port = 40001;
	c.rqpn = 0x123456;
	c.lqpn = 0x654321;
	c.cookie = 0x0123456789abcdefULL;
	c.req = {MRC_CM_SOCK_STREAM, 8, 1400, 0xabcdef, 0xdeadbeef, 1 << 20, 3};
	c.rep = {MRC_CM_SOCK_STREAM, 16, 9000, 0, 0, 1 << 21, 11};
	return c;
}

// A cookie lives MRC_COOKIE_LIFE_SLOTS slots (12 to 16 s): a requester
// whose CM_RTU copies a loaded host holds for seconds still connects.
TEST(Cookie, MadeCookieChecksWithinItsLife)
{
	mrc_cookie_key k = Key();
	u64 t0 = 1000 * MRC_COOKIE_SLOT_NS + 5;
	const u64 life = MRC_COOKIE_LIFE_SLOTS, seen = 1u << MRC_COOKIE_SLOT_BITS;
	mrc_cookie_conn c = Conn();

	ASSERT_GE((life - 1) * MRC_COOKIE_SLOT_NS, 12 * kS) << "the shortest life the docs promise";
	ASSERT_LT(life, seen) << "expired cookies must be told apart";
	mrc_cookie_make(&k, t0, &c);
	EXPECT_TRUE(c.rep.r_key & 1) << "an r_key is never 0";
	EXPECT_EQ(c.rep.init_psn & ~MRC_PSN_MASK, 0u);
	EXPECT_EQ(mrc_cookie_check(&k, t0, &c), MRC_COOKIE_OK);
	EXPECT_EQ(mrc_cookie_check(&k, t0 + MRC_COOKIE_SLOT_NS, &c), MRC_COOKIE_OK);
	// the last moment of its life, then recognised as expired
	EXPECT_EQ(mrc_cookie_check(&k, (1000 + life) * MRC_COOKIE_SLOT_NS - 1, &c), MRC_COOKIE_OK);
	EXPECT_EQ(mrc_cookie_check(&k, (1000 + life) * MRC_COOKIE_SLOT_NS, &c), MRC_COOKIE_EXPIRED);
	EXPECT_EQ(mrc_cookie_check(&k, (1000 + seen - 1) * MRC_COOKIE_SLOT_NS + kS, &c),
		  MRC_COOKIE_EXPIRED);
	// the slot bits wrap: it looks current and the MAC is wrong
	EXPECT_EQ(mrc_cookie_check(&k, (1000 + seen) * MRC_COOKIE_SLOT_NS, &c), MRC_COOKIE_BAD);
	// a cookie from the future (a clock never goes back) is bad too
	EXPECT_EQ(mrc_cookie_check(&k, 999 * MRC_COOKIE_SLOT_NS, &c), MRC_COOKIE_BAD);
}

TEST(Cookie, SameRequestSameSlotSameCookie)
{
	mrc_cookie_key k = Key();
	mrc_cookie_conn a = Conn(), b = Conn();

	mrc_cookie_make(&k, 77 * MRC_COOKIE_SLOT_NS, &a);
	mrc_cookie_make(&k, 77 * MRC_COOKIE_SLOT_NS + MRC_COOKIE_SLOT_NS - 1, &b);
	EXPECT_EQ(a.rep.r_key, b.rep.r_key);
	EXPECT_EQ(a.rep.init_psn, b.rep.init_psn);
	mrc_cookie_make(&k, 78 * MRC_COOKIE_SLOT_NS, &b);
	EXPECT_NE(a.rep.r_key, b.rep.r_key) << "another slot, another cookie";
}

TEST(Cookie, AnotherKeyRefuses)
{
	mrc_cookie_key k = Key(), other = Key(1, 2);
	mrc_cookie_conn c = Conn();
	u64 t = 50 * MRC_COOKIE_SLOT_NS;

	mrc_cookie_make(&k, t, &c);
	EXPECT_EQ(mrc_cookie_check(&other, t, &c), MRC_COOKIE_BAD);
}

// Every field the CM_RTU carries is bound: change any, the cookie fails.
TEST(Cookie, EveryFieldIsBound)
{
	mrc_cookie_key k = Key();
	u64 t = 50 * MRC_COOKIE_SLOT_NS;
	mrc_cookie_conn good = Conn();

	mrc_cookie_make(&k, t, &good);
	std::vector<std::pair<const char *, void (*)(mrc_cookie_conn &)>> muts = {
	    {"raddr", [](mrc_cookie_conn &c) { c.raddr[15] ^= 1; }},
	    {"laddr", [](mrc_cookie_conn &c) { c.laddr[0] ^= 0x80; }},
	    {"port", [](mrc_cookie_conn &c) { c.port++; }},
	    {"client_port", [](mrc_cookie_conn &c) { c.client_port++; }},
	    {"rqpn", [](mrc_cookie_conn &c) { c.rqpn++; }},
	    {"lqpn", [](mrc_cookie_conn &c) { c.lqpn++; }},
	    {"cookie", [](mrc_cookie_conn &c) { c.cookie ^= 1ULL << 63; }},
	    {"req.sock_type", [](mrc_cookie_conn &c) { c.req.sock_type ^= 1; }},
	    {"req.mpr", [](mrc_cookie_conn &c) { c.req.mpr++; }},
	    {"req.max_payload", [](mrc_cookie_conn &c) { c.req.max_payload++; }},
	    {"req.init_psn", [](mrc_cookie_conn &c) { c.req.init_psn++; }},
	    {"req.r_key", [](mrc_cookie_conn &c) { c.req.r_key++; }},
	    {"req.rcv_window", [](mrc_cookie_conn &c) { c.req.rcv_window++; }},
	    {"req.caps", [](mrc_cookie_conn &c) { c.req.caps ^= 4; }},
	    {"rep.sock_type", [](mrc_cookie_conn &c) { c.rep.sock_type ^= 1; }},
	    {"rep.mpr", [](mrc_cookie_conn &c) { c.rep.mpr++; }},
	    {"rep.max_payload", [](mrc_cookie_conn &c) { c.rep.max_payload++; }},
	    {"rep.rcv_window", [](mrc_cookie_conn &c) { c.rep.rcv_window++; }},
	    {"rep.caps", [](mrc_cookie_conn &c) { c.rep.caps ^= 4; }},
	    {"rep.init_psn", [](mrc_cookie_conn &c) { c.rep.init_psn ^= 0x800000; }},
	    {"rep.r_key mac", [](mrc_cookie_conn &c) { c.rep.r_key ^= 0x80000000u; }},
	    {"rep.r_key slot", [](mrc_cookie_conn &c) { c.rep.r_key ^= 2; }},
	    {"rep.r_key bit 0", [](mrc_cookie_conn &c) { c.rep.r_key ^= 1; }},
	};
	for (auto &m : muts) {
		mrc_cookie_conn c = good;

		m.second(c);
		EXPECT_EQ(mrc_cookie_check(&k, t, &c), MRC_COOKIE_BAD) << m.first;
	}
}

TEST(Cookie, FromRtuTakesBothParameterSets)
{
	mrc_cookie_key k = Key();
	u64 t = 9 * MRC_COOKIE_SLOT_NS;
	mrc_cookie_conn made = Conn(), got;
	mrc_cm rtu{};

	mrc_cookie_make(&k, t, &made);
	rtu.port = made.port;
	rtu.client_port = made.client_port;
	rtu.src_qpn = made.rqpn;
	rtu.dst_qpn = made.lqpn;
	rtu.cookie = made.cookie;
	rtu.params = made.rep;
	rtu.req_params = made.req;
	mrc_cookie_from_rtu(&got, made.raddr, made.laddr, &rtu);
	EXPECT_EQ(mrc_cookie_check(&k, t + kS, &got), MRC_COOKIE_OK);
	EXPECT_EQ(memcmp(&got, &made, sizeof(got)), 0);
}

// Forging blindly: the 53 MAC bits make a hit in 100000 tries unlikely
// (1 in 2^36); none is expected.
TEST(Cookie, BlindForgeriesFail)
{
	mrc_cookie_key k = Key(0x1234, 0x5678);
	u64 t = 100 * MRC_COOKIE_SLOT_NS;
	mrc_cookie_conn c = Conn();
	u32 ok = 0;

	for (u32 i = 0; i < 100000; i++) {
		c.rep.r_key = i * 2654435761u;
		c.rep.init_psn = (i * 40503u) & MRC_PSN_MASK;
		ok += mrc_cookie_check(&k, t, &c) != MRC_COOKIE_BAD;
	}
	EXPECT_EQ(ok, 0u);
}

} // namespace
