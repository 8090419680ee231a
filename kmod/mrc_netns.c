// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: per network namespace state.
 *
 * Every namespace gets its own configuration (UDP port, planes, paths,
 * policies: mrc_cfg.c), its own MIB counters (mrc_stats.c), its own data
 * path (tunnel socket, demultiplexing tables, endpoint state: struct
 * mrc_dp_net) and its own sockets; nothing is shared between namespaces.
 *
 * Two pernet_operations, registered in this order: struct mrc_net first,
 * then struct mrc_dp_net, whose setup subscribes the connection list to the
 * configuration's notifier chain. The kernel tears a namespace down in the
 * reverse order, so the data path (notifier, then tunnel socket) goes
 * before the configuration it follows. They stay two because struct
 * mrc_net is declared for all of the glue (mrc_kern.h) and struct
 * mrc_dp_net for the data path only (mrc_dp.h).
 */
#include <linux/module.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "mrc_kern.h"
#include "mrc_conn_list.h"
#include "mrc_dp.h"
#include "mrc_endpoint.h"
#include "mrc_handshake.h"
#include "mrc_stats.h"
#include "mrc_udp.h"

unsigned int mrc_net_id __read_mostly;
unsigned int mrc_dp_net_id __read_mostly;

/*
 * The probe budget of a namespace, fixed when it is created: each probe
 * costs a packet on the fabric and its answers on the way back, and what
 * a host's fabric carries beside its data varies (an emulated one on a
 * busy machine carries a few thousand packets a second in all).
 */
static unsigned int probe_budget = MRC_PROBE_RATE_PER_SEC;
module_param(probe_budget, uint, 0644);
MODULE_PARM_DESC(probe_budget,
		 "path probes a second per network namespace, all connections together, for namespaces created from now on (10..1000000; default "
		 __stringify(MRC_PROBE_RATE_PER_SEC) ")");

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

static int __net_init mrc_dp_net_init(struct net *net)
{
	struct mrc_dp_net *dn = mrc_dp_net(net);

	mrc_udp_net_init(dn);
	spin_lock_init(&dn->tbl_lock);
	hash_init(dn->qpn_tbl);
	hash_init(dn->port_tbl);
	dn->next_port = MRC_EPHEMERAL_LO;
	mrc_ep_net_init(dn);
	mrc_hs_net_init(dn);
	/* 100 ms windows: a budget spent early in a window waits 100 ms. */
	ratelimit_state_init(&dn->probe_rl, HZ / 10,
			     clamp(READ_ONCE(probe_budget), 10U, 1000000U) / 10);
	ratelimit_set_flags(&dn->probe_rl, RATELIMIT_MSG_ON_RELEASE);
	spin_lock_init(&dn->probe_seen_lock);
	/* Last: from here on configuration changes reach the connections. */
	return mrc_conn_list_net_init(net);
}

static void __net_exit mrc_dp_net_exit(struct net *net)
{
	struct mrc_dp_net *dn = mrc_dp_net(net);

	/* First: the notifier may send through the tunnel closed next. */
	mrc_conn_list_net_exit(net);
	mrc_udp_net_exit(net, dn);
}

static struct pernet_operations mrc_dp_net_ops = {
	.init = mrc_dp_net_init,
	.exit = mrc_dp_net_exit,
	.id = &mrc_dp_net_id,
	.size = sizeof(struct mrc_dp_net),
};

/**
 * mrc_netns_init() - register the per-namespace state of MRC: the
 * configuration and counters (struct mrc_net), then the data path (struct
 * mrc_dp_net). Existing namespaces get both now, new ones when created.
 *
 * Return: 0 or a negative errno.
 */
int mrc_netns_init(void)
{
	int err;

	err = register_pernet_subsys(&mrc_net_ops);
	if (err)
		return err;
	err = register_pernet_subsys(&mrc_dp_net_ops);
	if (err)
		unregister_pernet_subsys(&mrc_net_ops);
	return err;
}

/**
 * mrc_netns_exit() - unregister the per-namespace state of MRC, in the
 * reverse order: every namespace's data path (which closes its tunnel
 * socket), then its configuration and counters.
 */
void mrc_netns_exit(void)
{
	unregister_pernet_subsys(&mrc_dp_net_ops);
	unregister_pernet_subsys(&mrc_net_ops);
}
