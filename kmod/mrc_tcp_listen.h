/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: MRC_SO_ACCEPT_TCP, a TCP listener beside an MRC one
 * (mrc_tcp_listen.c).
 */
#ifndef _MRC_TCP_LISTEN_H
#define _MRC_TCP_LISTEN_H

#include "mrc_sk.h"

int mrc_tcp_listen_bind(struct mrc_sock *msk);
int mrc_tcp_listen_start(struct mrc_sock *msk, int backlog);
void mrc_tcp_listen_stop(struct mrc_sock *msk);
bool mrc_tcp_listen_ready(const struct mrc_sock *msk);
int mrc_tcp_listen_accept(struct mrc_sock *msk, struct socket *newsock,
			  int flags);

#endif /* _MRC_TCP_LISTEN_H */
