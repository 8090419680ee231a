// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: connection listing, placeholder.
 *
 * THIS FILE IS REPLACED BY THE DATA PATH. The netlink CONN_GET command
 * (mrc_genl.c) calls mrc_conn_dump() and mrc_conn_get(); until the data
 * path exists there are no connections, so the dump is empty and a get
 * finds nothing. The data path deletes this file from kmod/Kbuild and
 * implements both functions next to its connection table, filling each
 * message with mrc_conn_fill().
 */
#include <linux/netlink.h>
#include <net/genetlink.h>

#include "mrc_kern.h"

/**
 * mrc_conn_dump() - dump the namespace's connections (none yet).
 * @skb: the dump message being filled.
 * @cb: the dump state (cb->args[] are free for the implementation; the
 *	caller does not use them).
 * @filter: which connections to include.
 *
 * Return: skb->len (netlink dump convention: 0 ends the dump).
 */
int mrc_conn_dump(struct sk_buff *skb, struct netlink_callback *cb,
		  const struct mrc_conn_filter *filter)
{
	return skb->len;
}

/**
 * mrc_conn_get() - fill @msg with one connection (never found yet).
 * @net: the namespace.
 * @id: connection id.
 * @msg: the reply, to be filled with mrc_conn_fill().
 * @info: the request (for the extack and sequence number).
 *
 * Return: 0, or -ENOENT when there is no such connection.
 */
int mrc_conn_get(struct net *net, u32 id, struct sk_buff *msg,
		 struct genl_info *info)
{
	NL_SET_ERR_MSG(info->extack, "no connection with this id");
	return -ENOENT;
}
