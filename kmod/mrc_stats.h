/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: the per-namespace MIB (/proc/net/mrc_stat, netlink
 * STATS_GET): its counters, and the macros that count (mrc_stats.c).
 */
#ifndef _MRC_STATS_H
#define _MRC_STATS_H

#include <net/snmp.h>

#include "mrc_kern.h"

/**
 * struct mrc_mib_stats - per-CPU MIB counters of a namespace, indexed by
 * enum mrc_mib, and its time-to-recovery histogram.
 * @mibs: the counters.
 * @ttr_hist: recoveries per bucket (MRC_TTR_BUCKETS, the buckets of the
 *	connections' histograms), of every connection of the namespace.
 * @ttr_sum_ns: sum of the times to recovery counted in @ttr_hist.
 */
struct mrc_mib_stats {
	unsigned long mibs[__MRC_MIB_MAX];
	unsigned long ttr_hist[MRC_TTR_BUCKETS];
	u64 ttr_sum_ns;
};

/* Statistics. */
int mrc_stats_net_init(struct net *net);
void mrc_stats_net_exit(struct net *net);
void mrc_stats_fold(struct net *net, u64 *out);
void mrc_stats_ttr(struct net *net, u64 ttr_ns);
void mrc_stats_fold_ttr(struct net *net, u64 *hist, u64 *sum_ns);

/**
 * MRC_INC_STATS() - count one event in a namespace's MIB (any context).
 * @net: the namespace.
 * @field: enum mrc_mib.
 */
#define MRC_INC_STATS(net, field) SNMP_INC_STATS(mrc_net(net)->mib, field)
/**
 * MRC_ADD_STATS() - add to a counter of a namespace's MIB (any context).
 * @net: the namespace.
 * @field: enum mrc_mib.
 * @val: amount.
 */
#define MRC_ADD_STATS(net, field, val) \
	SNMP_ADD_STATS(mrc_net(net)->mib, field, val)

#endif /* _MRC_STATS_H */
