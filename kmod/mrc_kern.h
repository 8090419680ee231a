/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: declarations shared by the kernel glue of mrc.ko.
 *
 * Lock order (outermost first; documented once, here):
 *   1. genl_mutex (held by the generic netlink core around every command
 *      and dump)
 *   2. RTNL (taken by the plane commands, so a device cannot vanish
 *      between the check and the update; held around netdev notifiers)
 *   3. struct mrc_net::lock (per-namespace configuration); the
 *      configuration notifier chain (mrc_cfg_register_notifier()) runs
 *      with it held, so its callbacks may only take locks below it
 *   4. (data path) per-socket locks
 * Readers of the configuration (the data path, in any context) take none
 * of these: they use rcu_read_lock() and copy what they need. Nothing here
 * sleeps while holding a spinlock; softirq paths only take spinlocks.
 */
#ifndef _MRC_KERN_H
#define _MRC_KERN_H

#include <linux/types.h>
#include <linux/mutex.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include <linux/mrc.h>
#include "mrc_cfg.h"

struct mrc_mib_stats;

/**
 * struct mrc_net - per network namespace state of MRC.
 * @net: the namespace this state belongs to.
 * @lock: serialises configuration changes in this namespace.
 * @udp_port: UDP destination port of MRC packets in this namespace.
 * @nr_socks: MRC sockets alive in this namespace.
 * @planes: planes by id (RCU; written under @lock).
 * @paths: struct mrc_cfg_path list ordered by id (RCU; written under @lock).
 * @nr_paths: entries of @paths.
 * @policies: struct mrc_policy_obj list (RCU; written under @lock).
 * @nr_policies: entries of @policies.
 * @default_policy: name of the default policy (under @lock; readers use
 *	mrc_cfg_policy_get(), which copies it under RCU via @def_policy).
 * @def_policy: the default policy object (RCU).
 * @max_ev_set: most EVs per connection.
 * @chain: configuration notifier chain (see enum mrc_cfg_event).
 * @mib: per-CPU MIB counters (enum mrc_mib).
 */
struct mrc_net {
	struct net *net;
	struct mutex lock;	/* see the lock order above */
	u16 udp_port;
	atomic_t nr_socks;
	struct mrc_plane __rcu *planes[MRC_PLANE_MAX + 1];
	struct list_head paths;
	u32 nr_paths;
	struct list_head policies;
	u32 nr_policies;
	char default_policy[MRC_POLICY_NAME_LEN + 1];
	struct mrc_policy_obj __rcu *def_policy;
	u32 max_ev_set;
	struct blocking_notifier_head chain;
	struct mrc_mib_stats __percpu *mib;
};

extern unsigned int mrc_net_id;
extern int mrc_af;
extern int mrc_ipproto;

/**
 * mrc_net() - MRC state of a network namespace.
 * @net: the namespace.
 *
 * Return: the namespace's state; valid while the namespace is alive.
 */
static inline struct mrc_net *mrc_net(const struct net *net)
{
	return net_generic(net, mrc_net_id);
}

int mrc_netns_init(void);
void mrc_netns_exit(void);
int mrc_plumbing_init(void);
void mrc_plumbing_exit(void);

#endif /* _MRC_KERN_H */
