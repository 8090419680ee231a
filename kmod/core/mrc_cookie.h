/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Handshake cookies: how a listener answers a CM_REQ keeping nothing, and
 * recognises the CM_RTU that proves the requester saw its answer
 * (Documentation/wire-format.md, 11.5). Like TCP's SYN cookies, the
 * CM_REP's init_psn and r_key carry a MAC: SipHash-2-4 under a secret key
 * of the namespace over both addresses, both ports, both QPNs, the
 * requester's cookie, the CM_REQ's parameters, the CM_REP's other
 * parameters and a time slot. The CM_RTU echoes both parameter sets, so
 * the listener rebuilds the connection from it alone, after checking the
 * MAC. Keys and times come from the caller; nothing here allocates.
 */
#ifndef _MRC_COOKIE_H
#define _MRC_COOKIE_H

#include "mrc_core_types.h"
#include "mrc_wire.h"

#ifdef __cplusplus
extern "C" {
#endif

/** MRC_COOKIE_SLOT_NS - length of a cookie time slot. */
#define MRC_COOKIE_SLOT_NS	4000000000ULL
/**
 * MRC_COOKIE_LIFE_SLOTS - a cookie is accepted in its slot and the
 * MRC_COOKIE_LIFE_SLOTS - 1 after it: it lives 12 to 16 s. The requester
 * retransmits its CM_RTU for its whole handshake budget, and a CM_RTU
 * none of whose copies reaches the listener within the cookie's life can
 * never make the connection (its requester waits out the budget), so the
 * life covers what a loaded host holds packets for (once 4 to 8 s: 10 of
 * 1000 requesters of 74-idle-quiet on a loaded machine failed so), while
 * a replayed CM_RTU still has a bounded window (security.md).
 */
#define MRC_COOKIE_LIFE_SLOTS	4
/**
 * MRC_COOKIE_SLOT_BITS - low bits of the slot carried in the r_key: a
 * cookie up to 2^MRC_COOKIE_SLOT_BITS - 1 slots old is recognised (older
 * than its life: expired), an older one looks forged.
 */
#define MRC_COOKIE_SLOT_BITS	3

/**
 * struct mrc_cookie_key - a namespace's secret for its cookies.
 * @k: the two 64-bit halves of the SipHash key (random, never sent).
 */
struct mrc_cookie_key {
	u64 k[2];
};

/**
 * struct mrc_cookie_conn - what a cookie vouches for: a connection as
 * the CM_REQ asked for it and the CM_REP answered it.
 * @raddr: the requester's address (the CM_REQ's IPv6 source).
 * @laddr: the listener's address (the CM_REQ's IPv6 destination).
 * @port: the service port.
 * @client_port: the requester's port.
 * @rqpn: the requester's QPN.
 * @lqpn: the QPN the listener's side will have.
 * @cookie: the requester's 64-bit nonce.
 * @req: the CM_REQ's parameters.
 * @rep: the CM_REP's parameters: init_psn and r_key are the MAC
 *	(mrc_cookie_make() sets them), the rest the listener's.
 */
struct mrc_cookie_conn {
	u8 raddr[16];
	u8 laddr[16];
	u16 port;
	u16 client_port;
	u32 rqpn;
	u32 lqpn;
	u64 cookie;
	struct mrc_cm_params req;
	struct mrc_cm_params rep;
};

/**
 * enum mrc_cookie_verdict - what a CM_RTU's cookie proves.
 * @MRC_COOKIE_OK: made by this key within its life (the current slot or
 *	the MRC_COOKIE_LIFE_SLOTS - 1 before): the requester saw our CM_REP.
 * @MRC_COOKIE_BAD: not made by this key (forged, or a field changed).
 * @MRC_COOKIE_EXPIRED: made by this key MRC_COOKIE_LIFE_SLOTS to
 *	2^MRC_COOKIE_SLOT_BITS - 1 slots ago.
 */
enum mrc_cookie_verdict {
	MRC_COOKIE_OK,
	MRC_COOKIE_BAD,
	MRC_COOKIE_EXPIRED,
};

u64 mrc_siphash(const struct mrc_cookie_key *key, const u8 *data, u32 len);
void mrc_cookie_make(const struct mrc_cookie_key *key, u64 now,
		     struct mrc_cookie_conn *c);
enum mrc_cookie_verdict mrc_cookie_check(const struct mrc_cookie_key *key,
					 u64 now,
					 const struct mrc_cookie_conn *c);
void mrc_cookie_from_rtu(struct mrc_cookie_conn *c, const u8 *raddr,
			 const u8 *laddr, const struct mrc_cm *rtu);

#ifdef __cplusplus
}
#endif

#endif /* _MRC_COOKIE_H */
