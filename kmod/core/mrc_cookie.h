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

/**
 * MRC_COOKIE_SLOT_NS - length of a cookie time slot. A cookie is accepted
 * in its slot and the next, so it lives between one and two slots.
 */
#define MRC_COOKIE_SLOT_NS	4000000000ULL
/** MRC_COOKIE_SLOT_BITS - low bits of the slot carried in the r_key. */
#define MRC_COOKIE_SLOT_BITS	2

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
 * @MRC_COOKIE_OK: made by this key in the current or the previous slot:
 *	the requester saw our CM_REP.
 * @MRC_COOKIE_BAD: not made by this key (forged, or a field changed).
 * @MRC_COOKIE_EXPIRED: made by this key two or three slots ago.
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
