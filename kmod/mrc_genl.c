// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: the generic netlink family "mrc".
 *
 * Every operation is validated strictly (resv_start_op covers all of
 * them): unknown attributes, attributes a command does not take, and
 * trailing bytes are rejected with an extack message. Commands that change
 * state require CAP_NET_ADMIN in the caller's network namespace
 * (GENL_UNS_ADMIN_PERM).
 */
#include <linux/module.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>

#include "mrc_kern.h"

static struct genl_family mrc_genl_family;

/*
 * INFO_GET takes no attributes: every entry of its policy is NLA_UNSPEC,
 * which strict validation rejects as "Unsupported attribute".
 */
static const struct nla_policy mrc_info_get_policy[MRC_A_MAX + 1] = {};

static int mrc_genl_info_get(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct mrc_net *mn = mrc_net(net);
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &mrc_genl_family, 0,
				MRC_CMD_INFO_GET);
	if (!hdr)
		goto nospace;
	if (nla_put_string(msg, MRC_A_INFO_VERSION, MRC_MODULE_VERSION) ||
	    nla_put_u32(msg, MRC_A_INFO_AF, mrc_af) ||
	    nla_put_u16(msg, MRC_A_INFO_UDP_PORT, READ_ONCE(mn->udp_port)) ||
	    nla_put_u64_64bit(msg, MRC_A_INFO_NETNS_COOKIE,
			      net->net_cookie, MRC_A_PAD))
		goto nospace;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

nospace:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

static const struct genl_ops mrc_genl_ops[] = {
	{
		.cmd = MRC_CMD_INFO_GET,
		.doit = mrc_genl_info_get,
		.policy = mrc_info_get_policy,
		.maxattr = MRC_A_MAX,
	},
};

static const struct genl_multicast_group mrc_genl_mcgrps[] = {
	{ .name = MRC_GENL_MCGRP_EVENTS, },
};

static struct genl_family mrc_genl_family __ro_after_init = {
	.name = MRC_GENL_NAME,
	.version = MRC_GENL_VERSION,
	.maxattr = MRC_A_MAX,
	.netnsok = true,
	.module = THIS_MODULE,
	.ops = mrc_genl_ops,
	.n_ops = ARRAY_SIZE(mrc_genl_ops),
	.resv_start_op = MRC_CMD_INFO_GET,
	.mcgrps = mrc_genl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(mrc_genl_mcgrps),
};

/**
 * mrc_genl_init() - register the "mrc" generic netlink family.
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_init(void)
{
	return genl_register_family(&mrc_genl_family);
}

/**
 * mrc_genl_exit() - unregister the "mrc" generic netlink family.
 */
void mrc_genl_exit(void)
{
	genl_unregister_family(&mrc_genl_family);
}
