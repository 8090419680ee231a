/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals shared by mrc_conn.c, mrc_conn_tx.c and mrc_conn_rx.c. Not
 * for the glue: use mrc_conn.h.
 */
#ifndef _MRC_CONN_INT_H
#define _MRC_CONN_INT_H

#include "mrc_conn.h"

#ifdef __cplusplus
extern "C" {
#endif

void mrc_conn_push_event(struct mrc_conn *conn,
			 const struct mrc_conn_event *ev);
void mrc_conn_fail(struct mrc_conn *conn, int err, u64 now);
void mrc_conn_push_ack(struct mrc_conn *conn, const struct mrc_conn_ack *a);
void mrc_conn_progress(struct mrc_conn *conn);
void mrc_conn_alive(struct mrc_conn *conn);
void mrc_conn_heard(struct mrc_conn *conn, u64 now);
bool mrc_conn_tx_idle(const struct mrc_conn *conn);
void mrc_conn_losses(struct mrc_conn *conn, u32 n, u64 now);
void mrc_conn_probe_soon(struct mrc_conn *conn, u64 when);
void mrc_conn_data_moved(struct mrc_conn *conn, u64 now);
void mrc_conn_reverse_poll(struct mrc_conn *conn, u64 now);
bool mrc_conn_sacks_missed(struct mrc_conn *conn, u32 psn, u64 now);
u32 mrc_conn_tx_psn(const struct mrc_tx *tx, u32 idx);
void mrc_conn_tx_hold(struct mrc_conn *conn, u64 now);
void mrc_conn_tx_pause(struct mrc_conn *conn, u64 now);

/* A NACK that says "delivered, but no room now", not "lost". */
static inline bool mrc_nack_is_refusal(u8 reason)
{
	return reason == MRC_NACK_NO_PKT_BUFFER ||
	       reason == MRC_NACK_NO_RESOURCE;
}

#ifdef __cplusplus
}
#endif

#endif /* _MRC_CONN_INT_H */
