/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: the socket layer (mrc_sock.c): the socket calls of both
 * families and both types (data moves in mrc_sock_io.c), the socket's
 * timer and deferred work, and the life of a socket from creation to
 * destruction. Family registration is in mrc_plumbing.c.
 */
#ifndef _MRC_SOCK_H
#define _MRC_SOCK_H

#include "mrc_sk.h"

extern const struct proto_ops mrc_sock_ops;
extern struct proto mrc_proto;
extern struct proto mrc6_proto;

void mrc_sock_init(struct sock *sk);

#endif /* _MRC_SOCK_H */
