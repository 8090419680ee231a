/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: the socket calls that move data (mrc_sock_io.c).
 */
#ifndef _MRC_SOCK_IO_H
#define _MRC_SOCK_IO_H

#include "mrc_sk.h"

int mrc_sendmsg(struct socket *sock, struct msghdr *msg, size_t len);
ssize_t mrc_sendpage(struct socket *sock, struct page *page, int offset,
		     size_t size, int flags);
int mrc_recvmsg(struct socket *sock, struct msghdr *msg, size_t len,
		int flags);

#endif /* _MRC_SOCK_IO_H */
