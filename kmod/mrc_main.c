// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: module registration and unwinding.
 *
 * Start-up order: per-namespace state first (everything else looks it up:
 * the configuration, then the data path, mrc_netns.c), then the socket
 * families (mrc_plumbing.c), then the netlink family (the last thing a user
 * can reach), then the netdev notifier (which emits netlink events). Exit
 * runs the same steps in reverse. A socket holds a reference on the
 * module, so rmmod is refused while any socket exists.
 */
#include <linux/module.h>
#include <linux/net.h>
#include <net/genetlink.h>

#include "mrc_genl_spec.h"
#include "mrc_kern.h"
#include "mrc_udp.h"

static int __init mrc_init(void)
{
	int err;

	/* ABI sizes userspace depends on: break the build, not users. */
	BUILD_BUG_ON(sizeof(struct sockaddr_mrc) != sizeof(struct sockaddr_in6));
	BUILD_BUG_ON(offsetof(struct sockaddr_mrc, smrc_addr) !=
		     offsetof(struct sockaddr_in6, sin6_addr));
	BUILD_BUG_ON(offsetof(struct sockaddr_mrc, smrc_scope_id) !=
		     offsetof(struct sockaddr_in6, sin6_scope_id));

	/* Configuration and counters, then the data path (tunnel, tables). */
	err = mrc_netns_init();
	if (err)
		return err;
	mrc_udp_init();		/* ICMPv6 errors about SRv6-encapsulated packets */
	err = mrc_plumbing_init();
	if (err)
		goto err_netns;
	err = mrc_genl_init();
	if (err)
		goto err_plumbing;
	/* Last: the netdev notifier emits events through the family. */
	err = mrc_cfg_init();
	if (err)
		goto err_genl;

	pr_info("mrc: version %s, address family %d, IPPROTO_MRC %d\n",
		MRC_MODULE_VERSION, mrc_af, mrc_ipproto);
	return 0;

err_genl:
	mrc_genl_exit();
err_plumbing:
	mrc_plumbing_exit();
err_netns:
	mrc_udp_exit();
	mrc_netns_exit();
	return err;
}

static void __exit mrc_exit(void)
{
	mrc_cfg_exit();
	mrc_genl_exit();
	mrc_plumbing_exit();
	mrc_udp_exit();
	mrc_netns_exit();	/* the data path's state, then the configuration */
	/* Configuration objects are freed with kfree_rcu(). */
	rcu_barrier();
}

module_init(mrc_init);
module_exit(mrc_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("MRC: Multipath Reliable Connection transport");
MODULE_VERSION(MRC_MODULE_VERSION);
MODULE_ALIAS_GENL_FAMILY(MRC_GENL_NAME);
