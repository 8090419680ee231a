// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: per-namespace MIB counters.
 *
 * Per-CPU counters indexed by enum mrc_mib (uapi), bumped from any context
 * with MRC_INC_STATS()/MRC_ADD_STATS(), folded on read for the netlink
 * STATS_GET command and /proc/net/mrc_stat ("Name value" lines, like
 * /proc/net/netstat). The data path appends counters to the uapi enum and
 * a name here; a BUILD_BUG_ON keeps the two in step.
 *
 * Beside the counters, a namespace keeps a time-to-recovery histogram of
 * every recovery of its connections (the buckets of the connections' own
 * histograms), which outlives them: netlink STATS_GET returns it.
 */
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <net/net_namespace.h>
#include <net/snmp.h>

#include "mrc_kern.h"
#include "mrc_stats.h"
#include "core/mrc_ttr.h"

static const char *const mrc_mib_names[__MRC_MIB_MAX] = {
	[MRC_MIB_UNSPEC] = NULL,
	[MRC_MIB_IN_PKTS] = "InPkts",
	[MRC_MIB_IN_BYTES] = "InBytes",
	[MRC_MIB_OUT_PKTS] = "OutPkts",
	[MRC_MIB_OUT_BYTES] = "OutBytes",
	[MRC_MIB_IN_DROP_MALFORMED] = "InDropMalformed",
	[MRC_MIB_IN_DROP_CSUM] = "InDropCsum",
	[MRC_MIB_IN_DROP_NO_CONN] = "InDropNoConn",
	[MRC_MIB_IN_DROP_BAD_KEY] = "InDropBadKey",
	[MRC_MIB_IN_DROP_PSN_WINDOW] = "InDropPsnWindow",
	[MRC_MIB_IN_DROP_DUP] = "InDropDup",
	[MRC_MIB_IN_DROP_NOMEM] = "InDropNomem",
	[MRC_MIB_OUT_DROP_NO_PATH] = "OutDropNoPath",
	[MRC_MIB_OUT_DROP_NOMEM] = "OutDropNomem",
	[MRC_MIB_HS_REQ_SENT] = "HsReqSent",
	[MRC_MIB_HS_REQ_RECV] = "HsReqRecv",
	[MRC_MIB_HS_ESTABLISHED] = "HsEstablished",
	[MRC_MIB_HS_REJECTED] = "HsRejected",
	[MRC_MIB_HS_TIMEOUT] = "HsTimeout",
	[MRC_MIB_CONN_RESET] = "ConnReset",
	[MRC_MIB_CONN_TIMEOUT] = "ConnTimeout",
	[MRC_MIB_RETX_RTO] = "RetxRto",
	[MRC_MIB_RETX_NACK] = "RetxNack",
	[MRC_MIB_RETX_SACK] = "RetxSack",
	[MRC_MIB_RETX_EV] = "RetxEv",
	[MRC_MIB_SACK_IN] = "SackIn",
	[MRC_MIB_SACK_OUT] = "SackOut",
	[MRC_MIB_NACK_IN] = "NackIn",
	[MRC_MIB_NACK_OUT] = "NackOut",
	[MRC_MIB_ECN_MARKS] = "EcnMarks",
	[MRC_MIB_PATH_TO_SKIP] = "PathToSkip",
	[MRC_MIB_PATH_TO_BAD] = "PathToBad",
	[MRC_MIB_PATH_TO_GOOD] = "PathToGood",
	[MRC_MIB_PATH_DENIED] = "PathDenied",
	[MRC_MIB_PATH_REPLACED] = "PathReplaced",
	[MRC_MIB_PROBES_SENT] = "ProbesSent",
	[MRC_MIB_PROBES_ANSWERED] = "ProbesAnswered",
	[MRC_MIB_PROBES_TIMEOUT] = "ProbesTimeout",
	[MRC_MIB_RECOVERIES] = "Recoveries",
	[MRC_MIB_PLANE_DOWN] = "PlaneDown",
	[MRC_MIB_PLANE_UP] = "PlaneUp",
	[MRC_MIB_EVENTS_DROPPED] = "EventsDropped",
	[MRC_MIB_EP_REQ_RECV] = "EpRequestsRecv",
	[MRC_MIB_EP_DROP_RATELIMIT] = "EpDropRateLimit",
	[MRC_MIB_EP_PROBES_SENT] = "EpProbesSent",
	[MRC_MIB_EP_PROBES_ANSWERED] = "EpProbesAnswered",
	[MRC_MIB_EP_PROBES_TIMEOUT] = "EpProbesTimeout",
	[MRC_MIB_PORT_STATUS_SENT] = "PortStatusSent",
	[MRC_MIB_PORT_STATUS_RECV] = "PortStatusRecv",
	[MRC_MIB_OUT_ROUTE_LOOKUPS] = "OutRouteLookups",
	[MRC_MIB_HS_UNREACHABLE] = "HsUnreachable",
	[MRC_MIB_TCP_ACCEPTED] = "TcpAccepted",
	[MRC_MIB_PATH_FLAPS] = "PathFlaps",
	[MRC_MIB_RESET_NO_CONN_SENT] = "OutResetNoConn",
	[MRC_MIB_CTL_DROP_RATELIMIT] = "CtlDropRateLimit",
	[MRC_MIB_IN_TRANSPORT_ACK] = "InTransportAck",
	[MRC_MIB_HS_COOKIE_SENT] = "HsCookieSent",
	[MRC_MIB_HS_COOKIE_BAD] = "HsCookieBad",
	[MRC_MIB_HS_COOKIE_EXPIRED] = "HsCookieExpired",
	[MRC_MIB_PATH_PROBE_DEFERRED] = "PathProbeDeferred",
	[MRC_MIB_HS_REQ_DROP_RATELIMIT] = "HsReqDropRateLimit",
	[MRC_MIB_PATH_PKT_TOO_BIG] = "PathPktTooBig",
	[MRC_MIB_PATH_PROBE_SHARED] = "PathProbeShared",
	[MRC_MIB_PATH_REVERSE_PROBES] = "PathReverseProbes",
	[MRC_MIB_OUT_REFUSED] = "OutRefused",
	[MRC_MIB_PATH_TX_REFUSED] = "PathTxRefused",
	[MRC_MIB_PATH_PROBE_STALE] = "PathProbeStale",
	[MRC_MIB_OUT_BURSTS] = "OutBursts",
	[MRC_MIB_OUT_ZERO_COPY_BYTES] = "OutZeroCopyBytes",
	[MRC_MIB_IN_SACK_CREDIT_BOGUS] = "InSackCreditBogus",
	[MRC_MIB_PATH_SUSPECT] = "PathSuspect",
	[MRC_MIB_PATH_SUSPECT_CLEARED] = "PathSuspectCleared",
	[MRC_MIB_IN_ECN_CE] = "InEcnCe",
	[MRC_MIB_IN_ECN_DECAP_CE] = "InEcnDecapCe",
};

/**
 * mrc_stats_fold() - sum a namespace's counters over every CPU.
 * @net: the namespace.
 * @out: __MRC_MIB_MAX values, indexed by enum mrc_mib.
 */
void mrc_stats_fold(struct net *net, u64 *out)
{
	struct mrc_net *mn = mrc_net(net);
	unsigned int i;
	int cpu;

	memset(out, 0, sizeof(*out) * __MRC_MIB_MAX);
	for_each_possible_cpu(cpu) {
		const struct mrc_mib_stats *m = per_cpu_ptr(mn->mib, cpu);

		for (i = 1; i < __MRC_MIB_MAX; i++)
			out[i] += READ_ONCE(m->mibs[i]);
	}
}

/**
 * mrc_stats_ttr() - count one recovery in a namespace's TTR histogram.
 * @net: the namespace.
 * @ttr_ns: its time to recovery.
 *
 * Any context; the connection's own histogram counts it too (the core).
 */
void mrc_stats_ttr(struct net *net, u64 ttr_ns)
{
	struct mrc_mib_stats __percpu *mib = mrc_net(net)->mib;

	this_cpu_inc(mib->ttr_hist[mrc_ttr_bucket(ttr_ns)]);
	this_cpu_add(mib->ttr_sum_ns, ttr_ns);
}

/**
 * mrc_stats_fold_ttr() - sum a namespace's TTR histogram over every CPU.
 * @net: the namespace.
 * @hist: MRC_TTR_BUCKETS counts, by bucket.
 * @sum_ns: the sum of the times to recovery counted.
 */
void mrc_stats_fold_ttr(struct net *net, u64 *hist, u64 *sum_ns)
{
	struct mrc_net *mn = mrc_net(net);
	unsigned int i;
	int cpu;

	memset(hist, 0, sizeof(*hist) * MRC_TTR_BUCKETS);
	*sum_ns = 0;
	for_each_possible_cpu(cpu) {
		const struct mrc_mib_stats *m = per_cpu_ptr(mn->mib, cpu);

		for (i = 0; i < MRC_TTR_BUCKETS; i++)
			hist[i] += READ_ONCE(m->ttr_hist[i]);
		*sum_ns += READ_ONCE(m->ttr_sum_ns);
	}
}

static int mrc_stat_show(struct seq_file *seq, void *v)
{
	struct net *net = seq->private;
	u64 *vals;
	unsigned int i;

	vals = kcalloc(__MRC_MIB_MAX, sizeof(*vals), GFP_KERNEL);
	if (!vals)
		return -ENOMEM;
	mrc_stats_fold(net, vals);
	for (i = 1; i < __MRC_MIB_MAX; i++)
		seq_printf(seq, "%s %llu\n", mrc_mib_names[i], vals[i]);
	kfree(vals);
	return 0;
}

/**
 * mrc_stats_net_init() - counters and /proc/net/mrc_stat of a namespace.
 * @net: the namespace.
 *
 * Return: 0 or -ENOMEM.
 */
int mrc_stats_net_init(struct net *net)
{
	struct mrc_net *mn = mrc_net(net);
	unsigned int i;

	BUILD_BUG_ON(ARRAY_SIZE(mrc_mib_names) != __MRC_MIB_MAX);
	for (i = 1; i < __MRC_MIB_MAX; i++)
		if (WARN_ON_ONCE(!mrc_mib_names[i]))
			return -EINVAL;
	mn->mib = alloc_percpu(struct mrc_mib_stats);
	if (!mn->mib)
		return -ENOMEM;
	if (!proc_create_net_single("mrc_stat", 0444, net->proc_net,
				    mrc_stat_show, NULL)) {
		free_percpu(mn->mib);
		mn->mib = NULL;
		return -ENOMEM;
	}
	return 0;
}

/**
 * mrc_stats_net_exit() - remove a namespace's counters.
 * @net: the namespace.
 */
void mrc_stats_net_exit(struct net *net)
{
	struct mrc_net *mn = mrc_net(net);

	remove_proc_entry("mrc_stat", net->proc_net);
	free_percpu(mn->mib);
	mn->mib = NULL;
}
