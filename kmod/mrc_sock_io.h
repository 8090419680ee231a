/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: the socket calls that move data (mrc_sock_io.c).
 */
#ifndef _MRC_SOCK_IO_H
#define _MRC_SOCK_IO_H

#include "mrc_sk.h"

int mrc_sendmsg(struct socket *sock, struct msghdr *msg, size_t len);
int mrc_recvmsg(struct socket *sock, struct msghdr *msg, size_t len,
		int flags);

#endif /* _MRC_SOCK_IO_H */
