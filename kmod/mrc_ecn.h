/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: ECN marks through the destination's decapsulation
 * (mrc_ecn.c).
 */
#ifndef _MRC_ECN_H
#define _MRC_ECN_H

#include "mrc_dp.h"

void mrc_ecn_net_start(struct net *net, struct mrc_dp_net *dn);
void mrc_ecn_net_stop(struct net *net, struct mrc_dp_net *dn);

#endif /* _MRC_ECN_H */
