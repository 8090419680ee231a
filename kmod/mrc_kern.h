/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: declarations shared by the kernel glue of mrc.ko.
 *
 * Lock order (outermost first; documented once, here):
 *   1. genl_mutex (held by the generic netlink core around every command)
 *   2. struct mrc_net::lock (per-namespace configuration)
 * Nothing here sleeps while holding a spinlock; softirq paths only take
 * spinlocks.
 */
#ifndef _MRC_KERN_H
#define _MRC_KERN_H

#include <linux/types.h>
#include <linux/mutex.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include <linux/mrc.h>

/**
 * struct mrc_net - per network namespace state of MRC.
 * @net: the namespace this state belongs to.
 * @lock: serialises configuration changes in this namespace.
 * @udp_port: UDP destination port of MRC packets in this namespace.
 * @nr_socks: MRC sockets alive in this namespace.
 */
struct mrc_net {
	struct net *net;
	struct mutex lock;	/* see the lock order above */
	u16 udp_port;
	atomic_t nr_socks;
};

extern unsigned int mrc_net_id;
extern int mrc_af;

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
int mrc_af_init(void);
void mrc_af_exit(void);
int mrc_genl_init(void);
void mrc_genl_exit(void);

#endif /* _MRC_KERN_H */
