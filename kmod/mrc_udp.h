/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: the namespace's UDP tunnel socket (mrc_udp.c), which
 * every MRC packet enters by and whose port every packet leaves from.
 */
#ifndef _MRC_UDP_H
#define _MRC_UDP_H

#include "mrc_dp.h"

void mrc_udp_net_init(struct mrc_dp_net *dn);
void mrc_udp_net_exit(struct net *net, struct mrc_dp_net *dn);
int mrc_udp_get(struct net *net, struct socket **sockp);
void mrc_udp_reopen(struct net *net);
void mrc_udp_init(void);
void mrc_udp_exit(void);

#endif /* _MRC_UDP_H */
