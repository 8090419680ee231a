/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Connection management helpers: validate the parameters of a CM_REQ,
 * CM_REP or CM_RTU, negotiate the connection's parameters from ours and
 * the peer's (or name the CM_REJ reason), map reject reasons to errnos
 * and fill CM packets for mrc_pkt_encode(). Every rule about the
 * parameters lives here; the handshake's and disconnect's decisions are
 * in mrc_cm_fsm.h; cookies, listeners and sockets belong to the glue.
 * Documentation/wire-format.md, 11.
 */
#ifndef _MRC_CM_H
#define _MRC_CM_H

#include "mrc_core_types.h"
#include "mrc_wire.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mrc_conn_params;

/** MRC_CM_MIN_PAYLOAD - smallest max_payload a peer may offer. */
#define MRC_CM_MIN_PAYLOAD	64
/** MRC_CM_MIN_WINDOW - smallest receive window a peer may offer. */
#define MRC_CM_MIN_WINDOW	1024

int mrc_cm_params_check(const struct mrc_cm_params *p);
int mrc_cm_negotiate(const struct mrc_cm_params *local,
		     const struct mrc_cm_params *remote, u32 path_payload,
		     struct mrc_conn_params *out);
int mrc_cm_rej_errno(u8 reason);
void mrc_cm_pkt(struct mrc_pkt *pkt, u8 opcode, const struct mrc_cm *cm);
void mrc_reset_pkt(struct mrc_pkt *pkt, const struct mrc_reset *r);
bool mrc_cm_reset_unknown(const struct mrc_pkt *data, struct mrc_pkt *pkt);

#ifdef __cplusplus
}
#endif

#endif /* _MRC_CM_H */
