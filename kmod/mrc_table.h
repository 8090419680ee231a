/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: demultiplexing tables (see mrc_table.c).
 */
#ifndef _MRC_TABLE_H
#define _MRC_TABLE_H

#include "mrc_sk.h"

int mrc_table_add_qpn(struct mrc_sock *msk);
int mrc_table_add_qpn_as(struct mrc_sock *msk, u32 want);
void mrc_table_del_qpn(struct mrc_sock *msk);
struct mrc_sock *mrc_table_lookup_qpn(struct net *net, u32 qpn);
struct mrc_sock *mrc_table_lookup_peer(struct net *net,
				       const struct in6_addr *addr, u32 rqpn);
int mrc_table_bind(struct mrc_sock *msk, u16 port);
void mrc_table_unbind(struct mrc_sock *msk);
struct mrc_sock *mrc_table_lookup_listener(struct net *net, u16 port,
					   const struct in6_addr *daddr);

#endif /* _MRC_TABLE_H */
