/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: socket options and ioctls (mrc_sockopt.c,
 * Documentation/socket-options.md).
 */
#ifndef _MRC_SOCKOPT_H
#define _MRC_SOCKOPT_H

#include "mrc_sk.h"

int mrc_setsockopt(struct socket *sock, int level, int optname,
		   sockptr_t optval, unsigned int optlen);
int mrc_getsockopt(struct socket *sock, int level, int optname,
		   char __user *optval, int __user *optlen);
int mrc_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg);
void mrc_keepalive(struct sock *sk, int on);

#endif /* _MRC_SOCKOPT_H */
