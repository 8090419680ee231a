// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: per network namespace state.
 *
 * Every namespace gets its own configuration (UDP port, planes, paths,
 * policies: mrc_cfg.c), its own MIB counters (mrc_stats.c) and its own
 * sockets; nothing is shared between namespaces.
 */
#include <linux/module.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "mrc_kern.h"
#include "mrc_stats.h"

unsigned int mrc_net_id __read_mostly;

static int __net_init mrc_net_init(struct net *net)
{
	struct mrc_net *mn = mrc_net(net);
	int err;

	mn->net = net;
	mutex_init(&mn->lock);
	mn->udp_port = MRC_UDP_PORT_DEFAULT;
	atomic_set(&mn->nr_socks, 0);
	err = mrc_stats_net_init(net);
	if (err)
		return err;
	err = mrc_cfg_net_init(net);
	if (err)
		mrc_stats_net_exit(net);
	return err;
}

static void __net_exit mrc_net_exit(struct net *net)
{
	struct mrc_net *mn = mrc_net(net);

	/* Sockets hold a reference on their namespace: none can be left. */
	WARN_ON_ONCE(atomic_read(&mn->nr_socks));
	mrc_cfg_net_exit(net);
	mrc_stats_net_exit(net);
	mutex_destroy(&mn->lock);
}

static struct pernet_operations mrc_net_ops = {
	.init = mrc_net_init,
	.exit = mrc_net_exit,
	.id = &mrc_net_id,
	.size = sizeof(struct mrc_net),
};

/**
 * mrc_netns_init() - register the per-namespace state of MRC.
 *
 * Return: 0 or a negative errno.
 */
int mrc_netns_init(void)
{
	return register_pernet_subsys(&mrc_net_ops);
}

/**
 * mrc_netns_exit() - unregister the per-namespace state of MRC.
 */
void mrc_netns_exit(void)
{
	unregister_pernet_subsys(&mrc_net_ops);
}
