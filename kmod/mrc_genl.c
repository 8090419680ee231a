// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: the generic netlink family "mrc".
 *
 * Every operation is validated strictly (resv_start_op covers all of
 * them): unknown attributes, attributes a command does not take, and
 * trailing bytes are rejected with an extack message. Each command has its
 * own policy, down to the nested objects, so a DEL cannot carry the
 * fields of an ADD. Commands that change state require CAP_NET_ADMIN in
 * the caller's network namespace (GENL_UNS_ADMIN_PERM).
 *
 * A change is validated completely before anything is applied, and
 * applied under mrc_net::lock (after RTNL for planes, whose device must
 * not vanish in between): a request either takes effect whole or not at
 * all. Documentation/object-model.md describes the objects.
 */
#include <linux/ctype.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>

#include "mrc_kern.h"
#include "mrc_dp.h"
#include "mrc_endpoint.h"

#define MRC_IN6_POLICY	NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr))

/* ---- policies ---------------------------------------------------------- */

/*
 * A policy name (NUL-terminated, checked by the type): 1..15 characters
 * of [a-zA-Z0-9_-], with a message that says which rule it breaks.
 */
static int mrc_validate_policy_name(const struct nlattr *attr,
				    struct netlink_ext_ack *extack)
{
	const char *s = nla_data(attr);
	size_t len = strnlen(s, nla_len(attr));

	if (!len) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "policy name is empty");
		return -EINVAL;
	}
	if (len > MRC_POLICY_NAME_LEN) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "policy name is longer than 15 characters");
		return -EINVAL;
	}
	for (; *s; s++) {
		if (!isalnum(*s) && *s != '_' && *s != '-') {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "policy name may only hold letters, digits, '_' and '-'");
			return -EINVAL;
		}
	}
	return 0;
}

#define MRC_POLICY_NAME_POLICY \
	NLA_POLICY_VALIDATE_FN(NLA_NUL_STRING, mrc_validate_policy_name)

/*
 * INFO_GET, SETTINGS_GET and STATS_GET take no attributes: every entry of
 * their policy is NLA_UNSPEC, which strict validation rejects as
 * "Unsupported attribute".
 */
static const struct nla_policy mrc_none_policy[MRC_A_MAX + 1] = {};

static const struct nla_policy mrc_plane_policy[MRC_PLANE_A_MAX + 1] = {
	[MRC_PLANE_A_ID] = NLA_POLICY_MAX(NLA_U32, MRC_PLANE_MAX),
	[MRC_PLANE_A_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[MRC_PLANE_A_IFNAME] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
	[MRC_PLANE_A_SADDR] = MRC_IN6_POLICY,
	[MRC_PLANE_A_ADMIN] = NLA_POLICY_MAX(NLA_U8, MRC_PLANE_ADMIN_UP),
};

static const struct nla_policy mrc_plane_id_policy[MRC_PLANE_A_MAX + 1] = {
	[MRC_PLANE_A_ID] = NLA_POLICY_MAX(NLA_U32, MRC_PLANE_MAX),
};

static const struct nla_policy mrc_plane_nl_policy[MRC_A_MAX + 1] = {
	[MRC_A_PLANE] = NLA_POLICY_NESTED(mrc_plane_policy),
};

static const struct nla_policy mrc_plane_id_nl_policy[MRC_A_MAX + 1] = {
	[MRC_A_PLANE] = NLA_POLICY_NESTED(mrc_plane_id_policy),
};

static const struct nla_policy mrc_seg_policy[MRC_SEG_A_MAX + 1] = {
	[MRC_SEG_A_ADDR] = MRC_IN6_POLICY,
};

static const struct nla_policy mrc_path_policy[MRC_PATH_A_MAX + 1] = {
	[MRC_PATH_A_ID] = { .type = NLA_U32 },
	[MRC_PATH_A_DST] = MRC_IN6_POLICY,
	[MRC_PATH_A_DST_LEN] = NLA_POLICY_MAX(NLA_U8, 128),
	[MRC_PATH_A_PLANE] = NLA_POLICY_MAX(NLA_U32, MRC_PLANE_MAX),
	[MRC_PATH_A_MODE] = NLA_POLICY_MAX(NLA_U8, __MRC_FWD_MAX - 1),
	[MRC_PATH_A_USID] = MRC_IN6_POLICY,
	[MRC_PATH_A_SEGS] = NLA_POLICY_NESTED(mrc_seg_policy),
	[MRC_PATH_A_ENTROPY] = NLA_POLICY_RANGE(NLA_U16, 1, MRC_ENTROPY_MAX),
	[MRC_PATH_A_WEIGHT] = NLA_POLICY_MIN(NLA_U8, 1),
	[MRC_PATH_A_DENY] = NLA_POLICY_MAX(NLA_U8, 1),
};

static const struct nla_policy mrc_path_set_policy[MRC_PATH_A_MAX + 1] = {
	[MRC_PATH_A_ID] = { .type = NLA_U32 },
	[MRC_PATH_A_WEIGHT] = NLA_POLICY_MIN(NLA_U8, 1),
	[MRC_PATH_A_DENY] = NLA_POLICY_MAX(NLA_U8, 1),
};

static const struct nla_policy mrc_path_id_policy[MRC_PATH_A_MAX + 1] = {
	[MRC_PATH_A_ID] = { .type = NLA_U32 },
};

static const struct nla_policy mrc_path_nl_policy[MRC_A_MAX + 1] = {
	[MRC_A_PATH] = NLA_POLICY_NESTED(mrc_path_policy),
};

static const struct nla_policy mrc_path_set_nl_policy[MRC_A_MAX + 1] = {
	[MRC_A_PATH] = NLA_POLICY_NESTED(mrc_path_set_policy),
};

static const struct nla_policy mrc_path_id_nl_policy[MRC_A_MAX + 1] = {
	[MRC_A_PATH] = NLA_POLICY_NESTED(mrc_path_id_policy),
};

/*
 * The knobs are only typed here: their ranges (some relative to each
 * other) are the protocol core's, checked by mrc_policy_validate() on the
 * complete policy, whose message names the field.
 */
static const struct nla_policy mrc_policy_policy[MRC_POLICY_A_MAX + 1] = {
	[MRC_POLICY_A_NAME] = MRC_POLICY_NAME_POLICY,
	[MRC_POLICY_A_RTO_MIN] = { .type = NLA_U64 },
	[MRC_POLICY_A_RTO_MAX] = { .type = NLA_U64 },
	[MRC_POLICY_A_PROBE_INTERVAL] = { .type = NLA_U64 },
	[MRC_POLICY_A_SKIP] = { .type = NLA_U64 },
	[MRC_POLICY_A_RETRY_LIMIT] = { .type = NLA_U32 },
	[MRC_POLICY_A_FAIL_TO_BAD] = { .type = NLA_U32 },
	[MRC_POLICY_A_SUCCESS_TO_GOOD] = { .type = NLA_U32 },
	[MRC_POLICY_A_MIN_ACTIVE] = { .type = NLA_U32 },
	[MRC_POLICY_A_MAX_PATHS] = { .type = NLA_U32 },
	[MRC_POLICY_A_BACKUPS] = { .type = NLA_U32 },
	[MRC_POLICY_A_SACK_GAP] = { .type = NLA_U32 },
	[MRC_POLICY_A_ECN_RESPONSE] = NLA_POLICY_MAX(NLA_U8, 1),
};

static const struct nla_policy mrc_policy_name_policy[MRC_POLICY_A_MAX + 1] = {
	[MRC_POLICY_A_NAME] = MRC_POLICY_NAME_POLICY,
};

static const struct nla_policy mrc_policy_nl_policy[MRC_A_MAX + 1] = {
	[MRC_A_POLICY] = NLA_POLICY_NESTED(mrc_policy_policy),
};

static const struct nla_policy mrc_policy_name_nl_policy[MRC_A_MAX + 1] = {
	[MRC_A_POLICY] = NLA_POLICY_NESTED(mrc_policy_name_policy),
};

static const struct nla_policy mrc_settings_policy[MRC_SETTINGS_A_MAX + 1] = {
	[MRC_SETTINGS_A_UDP_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[MRC_SETTINGS_A_DEFAULT_POLICY] = MRC_POLICY_NAME_POLICY,
	[MRC_SETTINGS_A_MAX_EV_SET] = NLA_POLICY_RANGE(NLA_U32, 1,
						       MRC_EV_SET_MAX),
};

static const struct nla_policy mrc_settings_nl_policy[MRC_A_MAX + 1] = {
	[MRC_A_SETTINGS] = NLA_POLICY_NESTED(mrc_settings_policy),
};

static const struct nla_policy mrc_conn_filter_policy[MRC_CONN_A_MAX + 1] = {
	[MRC_CONN_A_ID] = { .type = NLA_U32 },
	[MRC_CONN_A_LOCAL_ADDR] = MRC_IN6_POLICY,
	[MRC_CONN_A_REMOTE_ADDR] = MRC_IN6_POLICY,
	[MRC_CONN_A_LOCAL_PORT] = { .type = NLA_U16 },
	[MRC_CONN_A_REMOTE_PORT] = { .type = NLA_U16 },
	[MRC_CONN_A_STATE] = NLA_POLICY_MAX(NLA_U8, __MRC_CONN_STATE_MAX - 1),
};

static const struct nla_policy mrc_conn_nl_policy[MRC_A_MAX + 1] = {
	[MRC_A_CONN] = NLA_POLICY_NESTED(mrc_conn_filter_policy),
};

/* Not const: 6.1's struct nla_policy points to it without const. */
static struct netlink_range_validation mrc_probe_timeout_range = {
	.min = 1,
	.max = MRC_PROBE_TIMEOUT_MAX_MS,
};

static const struct nla_policy mrc_probe_policy[MRC_PROBE_A_MAX + 1] = {
	[MRC_PROBE_A_DST] = MRC_IN6_POLICY,
	[MRC_PROBE_A_PATH_ID] = { .type = NLA_U32 },
	[MRC_PROBE_A_TIMEOUT_MS] = NLA_POLICY_FULL_RANGE(NLA_U32,
						&mrc_probe_timeout_range),
};

static const struct nla_policy mrc_probe_nl_policy[MRC_A_MAX + 1] = {
	[MRC_A_PROBE] = NLA_POLICY_NESTED(mrc_probe_policy),
};

/* ---- helpers ----------------------------------------------------------- */

/*
 * NL_SET_ERR_MSG*() want a string literal; these messages are chosen at
 * run time (always static strings), so set the extack directly.
 */
static void mrc_extack(struct netlink_ext_ack *extack,
		       const struct nlattr *attr, const char *msg)
{
	if (!extack)
		return;
	extack->_msg = msg;
	if (attr)
		extack->bad_attr = attr;
}

/*
 * Parse the nested object @type of a request into @tb (already validated
 * against @pol by the generic netlink core; parsing again is cheap).
 */
static int mrc_parse_obj(struct genl_info *info, int type, int maxtype,
			 const struct nla_policy *pol, struct nlattr **tb,
			 const char *missing)
{
	if (!info->attrs[type]) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, type);
		mrc_extack(info->extack, NULL, missing);
		return -EINVAL;
	}
	return nla_parse_nested(tb, maxtype, info->attrs[type], pol,
				info->extack);
}

/* A required attribute of nested object @nest is missing: say which. */
static int mrc_missing(struct netlink_ext_ack *extack, struct nlattr *nest,
		       int type, const char *msg)
{
	NL_SET_ERR_ATTR_MISS(extack, nest, type);
	mrc_extack(extack, NULL, msg);
	return -EINVAL;
}

/* Roles of a node address in a request, for mrc_check_unicast(). */
enum { MRC_ADDR_SADDR, MRC_ADDR_USID, MRC_ADDR_SEG, MRC_ADDR_PROBE };

static const char *const mrc_addr_msgs[][4] = {
	[MRC_ADDR_SADDR] = {
		"source address is the unspecified address (::)",
		"source address is multicast",
		"source address is the loopback address",
		"source address is IPv4-mapped",
	},
	[MRC_ADDR_USID] = {
		"uSID container is the unspecified address (::)",
		"uSID container is multicast",
		"uSID container is the loopback address",
		"uSID container is IPv4-mapped",
	},
	[MRC_ADDR_SEG] = {
		"segment is the unspecified address (::)",
		"segment is multicast",
		"segment is the loopback address",
		"segment is IPv4-mapped",
	},
	[MRC_ADDR_PROBE] = {
		"probe destination is the unspecified address (::)",
		"probe destination is multicast",
		"probe destination is the loopback address",
		"probe destination is IPv4-mapped",
	},
};

/*
 * A node address (source, uSID container, segment, probe target) must be
 * unicast: say why @attr is not, naming it by @role.
 */
static int mrc_check_unicast(struct nlattr *attr, int role,
			     struct netlink_ext_ack *extack)
{
	struct in6_addr a = nla_get_in6_addr(attr);
	int type = ipv6_addr_type(&a);
	int why;

	if (type == IPV6_ADDR_ANY)
		why = 0;
	else if (type & IPV6_ADDR_MULTICAST)
		why = 1;
	else if (type & IPV6_ADDR_LOOPBACK)
		why = 2;
	else if (type & IPV6_ADDR_MAPPED)
		why = 3;
	else
		return 0;
	mrc_extack(extack, attr, mrc_addr_msgs[role][why]);
	return -EINVAL;
}

static struct mrc_plane *mrc_plane_get(struct mrc_net *mn, u32 id)
{
	if (id > MRC_PLANE_MAX)
		return NULL;
	return rcu_dereference_protected(mn->planes[id],
					 lockdep_is_held(&mn->lock));
}

static struct mrc_cfg_path *mrc_path_find(struct mrc_net *mn, u32 id)
{
	struct mrc_cfg_path *p;

	list_for_each_entry(p, &mn->paths, list)
		if (p->id == id)
			return p;
	return NULL;
}

static void *mrc_put_hdr(struct sk_buff *skb, u32 portid, u32 seq, int flags,
			 u8 cmd)
{
	return genlmsg_put(skb, portid, seq, &mrc_genl_family, flags, cmd);
}

/* ---- INFO -------------------------------------------------------------- */

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

/* ---- planes ------------------------------------------------------------ */

static int mrc_plane_fill(struct sk_buff *skb, struct net *net,
			  const struct mrc_plane *pl, u32 portid, u32 seq,
			  int flags)
{
	struct net_device *dev;
	struct nlattr *nest;
	void *hdr;

	hdr = mrc_put_hdr(skb, portid, seq, flags, MRC_CMD_PLANE_GET);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, MRC_A_PLANE);
	if (!nest ||
	    nla_put_u32(skb, MRC_PLANE_A_ID, pl->id) ||
	    nla_put_u32(skb, MRC_PLANE_A_IFINDEX, pl->ifindex) ||
	    nla_put_in6_addr(skb, MRC_PLANE_A_SADDR, &pl->saddr) ||
	    nla_put_u8(skb, MRC_PLANE_A_ADMIN, pl->admin_up) ||
	    nla_put_u8(skb, MRC_PLANE_A_OPER, READ_ONCE(pl->oper_up)) ||
	    nla_put_u32(skb, MRC_PLANE_A_NR_PATHS, pl->nr_paths))
		goto cancel;
	rcu_read_lock();
	dev = pl->ifindex ? dev_get_by_index_rcu(net, pl->ifindex) : NULL;
	if (dev && nla_put_string(skb, MRC_PLANE_A_IFNAME, dev->name)) {
		rcu_read_unlock();
		goto cancel;
	}
	rcu_read_unlock();
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * The device a request names (by index or by name), in the caller's
 * namespace; caller holds RTNL. Sets the extack and returns NULL if none.
 */
static struct net_device *mrc_plane_dev(struct net *net, struct nlattr **tb,
					struct netlink_ext_ack *extack)
{
	struct net_device *dev;

	if (tb[MRC_PLANE_A_IFINDEX]) {
		dev = __dev_get_by_index(net, nla_get_u32(tb[MRC_PLANE_A_IFINDEX]));
		if (!dev)
			NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PLANE_A_IFINDEX],
					    "no device with this index in this network namespace");
		return dev;
	}
	dev = __dev_get_by_name(net, nla_data(tb[MRC_PLANE_A_IFNAME]));
	if (!dev)
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PLANE_A_IFNAME],
				    "no device with this name in this network namespace");
	return dev;
}

/* Checks of a plane request that need no state. */
static int mrc_plane_check(struct nlattr *nest, struct nlattr **tb,
			   struct netlink_ext_ack *extack)
{
	if (tb[MRC_PLANE_A_IFINDEX] && tb[MRC_PLANE_A_IFNAME]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PLANE_A_IFNAME],
				    "give the device by index or by name, not both");
		return -EINVAL;
	}
	if (tb[MRC_PLANE_A_SADDR])
		return mrc_check_unicast(tb[MRC_PLANE_A_SADDR], MRC_ADDR_SADDR,
					 extack);
	return 0;
}

static int mrc_genl_plane_add(struct sk_buff *skb, struct genl_info *info)
{
	struct socket *sock;
	struct nlattr *tb[MRC_PLANE_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct netlink_ext_ack *extack = info->extack;
	struct net_device *dev;
	struct mrc_plane *pl;
	struct nlattr *nest;
	u32 id;
	int err;

	err = mrc_parse_obj(info, MRC_A_PLANE, MRC_PLANE_A_MAX, mrc_plane_policy,
			    tb, "the plane (MRC_A_PLANE) is required");
	if (err)
		return err;
	nest = info->attrs[MRC_A_PLANE];
	if (!tb[MRC_PLANE_A_ID])
		return mrc_missing(extack, nest, MRC_PLANE_A_ID,
				   "plane id is required");
	if (!tb[MRC_PLANE_A_IFINDEX] && !tb[MRC_PLANE_A_IFNAME])
		return mrc_missing(extack, nest, MRC_PLANE_A_IFNAME,
				   "plane device is required");
	if (!tb[MRC_PLANE_A_SADDR])
		return mrc_missing(extack, nest, MRC_PLANE_A_SADDR,
				   "plane source address is required");
	err = mrc_plane_check(nest, tb, extack);
	if (err)
		return err;
	id = nla_get_u32(tb[MRC_PLANE_A_ID]);

	pl = kzalloc(sizeof(*pl), GFP_KERNEL);
	if (!pl)
		return -ENOMEM;
	pl->id = id;
	pl->saddr = nla_get_in6_addr(tb[MRC_PLANE_A_SADDR]);
	pl->admin_up = !tb[MRC_PLANE_A_ADMIN] ||
		       nla_get_u8(tb[MRC_PLANE_A_ADMIN]) == MRC_PLANE_ADMIN_UP;

	rtnl_lock();
	mutex_lock(&mn->lock);
	err = -EEXIST;
	if (mrc_plane_get(mn, id)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PLANE_A_ID],
				    "a plane with this id already exists");
		goto fail;
	}
	err = -ENODEV;
	dev = mrc_plane_dev(mn->net, tb, extack);
	if (!dev)
		goto fail;
	pl->ifindex = dev->ifindex;
	rcu_assign_pointer(mn->planes[id], pl);
	mrc_cfg_plane_sync(mn, pl, MRC_PLANE_R_ADDED);
	mutex_unlock(&mn->lock);
	rtnl_unlock();
	/*
	 * A namespace with a plane takes part in MRC: open its UDP port now,
	 * so that it answers endpoint operations (EV probes, port status)
	 * before its first socket. A failure (port taken) is reported when
	 * a socket needs the port.
	 */
	mrc_udp_get(mn->net, &sock);
	return 0;
fail:
	mutex_unlock(&mn->lock);
	rtnl_unlock();
	kfree(pl);
	return err;
}

static int mrc_genl_plane_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_PLANE_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct netlink_ext_ack *extack = info->extack;
	struct mrc_plane *old, *pl;
	struct net_device *dev;
	bool moved = false;
	u8 reason;
	int err;

	err = mrc_parse_obj(info, MRC_A_PLANE, MRC_PLANE_A_MAX, mrc_plane_policy,
			    tb, "the plane (MRC_A_PLANE) is required");
	if (err)
		return err;
	if (!tb[MRC_PLANE_A_ID])
		return mrc_missing(extack, info->attrs[MRC_A_PLANE],
				   MRC_PLANE_A_ID, "plane id is required");
	err = mrc_plane_check(info->attrs[MRC_A_PLANE], tb, extack);
	if (err)
		return err;
	pl = kzalloc(sizeof(*pl), GFP_KERNEL);
	if (!pl)
		return -ENOMEM;

	rtnl_lock();
	mutex_lock(&mn->lock);
	old = mrc_plane_get(mn, nla_get_u32(tb[MRC_PLANE_A_ID]));
	if (!old) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PLANE_A_ID],
				    "no plane with this id");
		err = -ENOENT;
		goto fail;
	}
	*pl = *old;
	if (tb[MRC_PLANE_A_IFINDEX] || tb[MRC_PLANE_A_IFNAME]) {
		dev = mrc_plane_dev(mn->net, tb, extack);
		if (!dev) {
			err = -ENODEV;
			goto fail;
		}
		moved |= dev->ifindex != old->ifindex;
		pl->ifindex = dev->ifindex;
	}
	if (tb[MRC_PLANE_A_SADDR]) {
		pl->saddr = nla_get_in6_addr(tb[MRC_PLANE_A_SADDR]);
		moved |= !ipv6_addr_equal(&pl->saddr, &old->saddr);
	}
	if (tb[MRC_PLANE_A_ADMIN])
		pl->admin_up = nla_get_u8(tb[MRC_PLANE_A_ADMIN]) ==
			       MRC_PLANE_ADMIN_UP;

	/*
	 * Connections copied the old device and address: take the plane
	 * down (they move off it), then bring the new one up.
	 */
	reason = moved ? MRC_PLANE_R_DEVICE_CHANGED : MRC_PLANE_R_ADMIN;
	pl->oper_up = false;
	if (moved && old->oper_up)
		mrc_cfg_plane_set_oper(mn, old, false, reason);
	else
		pl->oper_up = old->oper_up;
	rcu_assign_pointer(mn->planes[pl->id], pl);
	kfree_rcu(old, rcu);
	mrc_cfg_plane_sync(mn, pl, reason);
	mutex_unlock(&mn->lock);
	rtnl_unlock();
	return 0;
fail:
	mutex_unlock(&mn->lock);
	rtnl_unlock();
	kfree(pl);
	return err;
}

static void mrc_path_unlink(struct mrc_net *mn, struct mrc_cfg_path *p)
{
	struct mrc_cfg_notify n = { .plane = p->plane, .path = p->id };
	struct mrc_plane *pl = mrc_plane_get(mn, p->plane);

	/* Connections move off the path before it goes. */
	mrc_cfg_notify(mn, MRC_CFG_PATH_DEL, &n);
	list_del_rcu(&p->list);
	mn->nr_paths--;
	if (pl)
		WRITE_ONCE(pl->nr_paths, pl->nr_paths - 1);
	kfree_rcu(p, rcu);
}

static int mrc_genl_plane_del(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_PLANE_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct mrc_cfg_notify n = {};
	struct mrc_cfg_path *p, *tmp;
	struct mrc_plane *pl;
	int err;

	err = mrc_parse_obj(info, MRC_A_PLANE, MRC_PLANE_A_MAX,
			    mrc_plane_id_policy, tb,
			    "the plane (MRC_A_PLANE) is required");
	if (err)
		return err;
	if (!tb[MRC_PLANE_A_ID])
		return mrc_missing(info->extack, info->attrs[MRC_A_PLANE],
				   MRC_PLANE_A_ID, "plane id is required");

	mutex_lock(&mn->lock);
	pl = mrc_plane_get(mn, nla_get_u32(tb[MRC_PLANE_A_ID]));
	if (!pl) {
		mutex_unlock(&mn->lock);
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MRC_PLANE_A_ID],
				    "no plane with this id");
		return -ENOENT;
	}
	list_for_each_entry_safe(p, tmp, &mn->paths, list)
		if (p->plane == pl->id)
			mrc_path_unlink(mn, p);
	if (pl->oper_up)
		mrc_cfg_plane_set_oper(mn, pl, false, MRC_PLANE_R_DELETED);
	n.plane = pl->id;
	mrc_cfg_notify(mn, MRC_CFG_PLANE_DEL, &n);
	RCU_INIT_POINTER(mn->planes[pl->id], NULL);
	kfree_rcu(pl, rcu);
	mutex_unlock(&mn->lock);
	return 0;
}

static int mrc_genl_plane_get(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_PLANE_A_MAX + 1];
	struct net *net = genl_info_net(info);
	struct mrc_net *mn = mrc_net(net);
	struct mrc_plane *pl;
	struct sk_buff *msg;
	int err;

	err = mrc_parse_obj(info, MRC_A_PLANE, MRC_PLANE_A_MAX,
			    mrc_plane_id_policy, tb,
			    "the plane (MRC_A_PLANE) is required (or dump them all)");
	if (err)
		return err;
	if (!tb[MRC_PLANE_A_ID])
		return mrc_missing(info->extack, info->attrs[MRC_A_PLANE],
				   MRC_PLANE_A_ID, "plane id is required");
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	mutex_lock(&mn->lock);
	pl = mrc_plane_get(mn, nla_get_u32(tb[MRC_PLANE_A_ID]));
	if (!pl) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MRC_PLANE_A_ID],
				    "no plane with this id");
		err = -ENOENT;
	} else {
		err = mrc_plane_fill(msg, net, pl, info->snd_portid,
				     info->snd_seq, 0);
	}
	mutex_unlock(&mn->lock);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static int mrc_genl_plane_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	struct mrc_net *mn = mrc_net(net);
	long id;

	mutex_lock(&mn->lock);
	for (id = cb->args[0]; id <= MRC_PLANE_MAX; id++) {
		struct mrc_plane *pl = mrc_plane_get(mn, id);

		if (!pl)
			continue;
		if (mrc_plane_fill(skb, net, pl, NETLINK_CB(cb->skb).portid,
				   cb->nlh->nlmsg_seq, NLM_F_MULTI))
			break;
	}
	mutex_unlock(&mn->lock);
	cb->args[0] = id;
	return skb->len;
}

/* ---- paths ------------------------------------------------------------- */

static int mrc_path_fill(struct sk_buff *skb, const struct mrc_cfg_path *p,
			 u32 portid, u32 seq, int flags)
{
	struct nlattr *nest, *segs;
	unsigned int i;
	void *hdr;

	hdr = mrc_put_hdr(skb, portid, seq, flags, MRC_CMD_PATH_GET);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, MRC_A_PATH);
	if (!nest ||
	    nla_put_u32(skb, MRC_PATH_A_ID, p->id) ||
	    nla_put_in6_addr(skb, MRC_PATH_A_DST, &p->dst) ||
	    nla_put_u8(skb, MRC_PATH_A_DST_LEN, p->dst_len) ||
	    nla_put_u32(skb, MRC_PATH_A_PLANE, p->plane) ||
	    nla_put_u8(skb, MRC_PATH_A_MODE, p->mode) ||
	    nla_put_u8(skb, MRC_PATH_A_WEIGHT, p->weight) ||
	    nla_put_u8(skb, MRC_PATH_A_DENY, p->deny))
		goto cancel;
	switch (p->mode) {
	case MRC_FWD_USID:
		if (nla_put_in6_addr(skb, MRC_PATH_A_USID, &p->segs[0]))
			goto cancel;
		break;
	case MRC_FWD_SRH:
		segs = nla_nest_start(skb, MRC_PATH_A_SEGS);
		if (!segs)
			goto cancel;
		for (i = 0; i < p->nr_segs; i++)
			if (nla_put_in6_addr(skb, MRC_SEG_A_ADDR, &p->segs[i]))
				goto cancel;
		nla_nest_end(skb, segs);
		break;
	default:
		if (nla_put_u16(skb, MRC_PATH_A_ENTROPY, p->entropy))
			goto cancel;
		break;
	}
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* Mode data of an ADD: exactly what the mode needs, each address valid. */
static int mrc_path_parse_mode(struct mrc_cfg_path *p, struct nlattr *nest,
			       struct nlattr **tb, struct netlink_ext_ack *extack)
{
	struct nlattr *seg;
	int rem;

	if (p->mode != MRC_FWD_USID && tb[MRC_PATH_A_USID]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PATH_A_USID],
				    "a uSID container is only for mode usid");
		return -EINVAL;
	}
	if (p->mode != MRC_FWD_SRH && tb[MRC_PATH_A_SEGS]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PATH_A_SEGS],
				    "a segment list is only for mode srh");
		return -EINVAL;
	}
	if (p->mode != MRC_FWD_ENTROPY && tb[MRC_PATH_A_ENTROPY]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PATH_A_ENTROPY],
				    "an entropy count is only for mode entropy");
		return -EINVAL;
	}

	p->entropy = 1;
	switch (p->mode) {
	case MRC_FWD_USID:
		if (!tb[MRC_PATH_A_USID])
			return mrc_missing(extack, nest, MRC_PATH_A_USID,
					   "mode usid needs a uSID container");
		if (mrc_check_unicast(tb[MRC_PATH_A_USID], MRC_ADDR_USID,
				      extack))
			return -EINVAL;
		p->segs[0] = nla_get_in6_addr(tb[MRC_PATH_A_USID]);
		p->nr_segs = 1;
		break;
	case MRC_FWD_SRH:
		if (!tb[MRC_PATH_A_SEGS])
			return mrc_missing(extack, nest, MRC_PATH_A_SEGS,
					   "mode srh needs a segment list");
		nla_for_each_nested(seg, tb[MRC_PATH_A_SEGS], rem) {
			if (p->nr_segs == MRC_SRH_MAX_SEGS) {
				NL_SET_ERR_MSG_ATTR(extack, seg,
						    "too many segments (at most 8)");
				return -EINVAL;
			}
			if (nla_type(seg) != MRC_SEG_A_ADDR) {
				NL_SET_ERR_MSG_ATTR(extack, seg,
						    "segment list holds only MRC_SEG_A_ADDR");
				return -EINVAL;
			}
			if (mrc_check_unicast(seg, MRC_ADDR_SEG, extack))
				return -EINVAL;
			p->segs[p->nr_segs++] = nla_get_in6_addr(seg);
		}
		if (!p->nr_segs) {
			NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PATH_A_SEGS],
					    "segment list is empty");
			return -EINVAL;
		}
		break;
	default:
		if (tb[MRC_PATH_A_ENTROPY])
			p->entropy = nla_get_u16(tb[MRC_PATH_A_ENTROPY]);
		break;
	}
	return 0;
}

static int mrc_genl_path_add(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_PATH_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct netlink_ext_ack *extack = info->extack;
	struct mrc_cfg_path *p, *pos;
	struct in6_addr masked;
	struct list_head *at;
	struct mrc_plane *pl;
	struct nlattr *nest;
	int err;

	err = mrc_parse_obj(info, MRC_A_PATH, MRC_PATH_A_MAX, mrc_path_policy,
			    tb, "the path (MRC_A_PATH) is required");
	if (err)
		return err;
	nest = info->attrs[MRC_A_PATH];
	if (!tb[MRC_PATH_A_ID])
		return mrc_missing(extack, nest, MRC_PATH_A_ID,
				   "path id is required");
	if (!tb[MRC_PATH_A_DST])
		return mrc_missing(extack, nest, MRC_PATH_A_DST,
				   "path destination prefix is required");
	if (!tb[MRC_PATH_A_PLANE])
		return mrc_missing(extack, nest, MRC_PATH_A_PLANE,
				   "path plane is required");
	if (!tb[MRC_PATH_A_MODE])
		return mrc_missing(extack, nest, MRC_PATH_A_MODE,
				   "path mode is required");

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->id = nla_get_u32(tb[MRC_PATH_A_ID]);
	p->dst = nla_get_in6_addr(tb[MRC_PATH_A_DST]);
	p->dst_len = tb[MRC_PATH_A_DST_LEN] ?
		     nla_get_u8(tb[MRC_PATH_A_DST_LEN]) : 128;
	p->plane = nla_get_u32(tb[MRC_PATH_A_PLANE]);
	p->mode = nla_get_u8(tb[MRC_PATH_A_MODE]);
	p->weight = tb[MRC_PATH_A_WEIGHT] ?
		    nla_get_u8(tb[MRC_PATH_A_WEIGHT]) : 1;
	p->deny = tb[MRC_PATH_A_DENY] && nla_get_u8(tb[MRC_PATH_A_DENY]);

	err = -EINVAL;
	if (ipv6_addr_is_multicast(&p->dst)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PATH_A_DST],
				    "destination prefix is multicast");
		goto fail_free;
	}
	ipv6_addr_prefix(&masked, &p->dst, p->dst_len);
	if (!ipv6_addr_equal(&masked, &p->dst)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PATH_A_DST],
				    "destination prefix has host bits set beyond its length");
		goto fail_free;
	}
	err = mrc_path_parse_mode(p, nest, tb, extack);
	if (err)
		goto fail_free;

	mutex_lock(&mn->lock);
	pl = mrc_plane_get(mn, p->plane);
	if (!pl) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PATH_A_PLANE],
				    "no plane with this id");
		err = -ENOENT;
		goto fail_unlock;
	}
	if (mrc_path_find(mn, p->id)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PATH_A_ID],
				    "a path with this id already exists");
		err = -EEXIST;
		goto fail_unlock;
	}
	if (mn->nr_paths >= MRC_PATHS_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "too many paths in this namespace (at most 4096)");
		err = -ENOSPC;
		goto fail_unlock;
	}
	/* Keep the list ordered by id: dumps resume from an id. */
	at = &mn->paths;
	list_for_each_entry(pos, &mn->paths, list) {
		if (pos->id > p->id)
			break;
		at = &pos->list;
	}
	list_add_rcu(&p->list, at);
	mn->nr_paths++;
	WRITE_ONCE(pl->nr_paths, pl->nr_paths + 1);
	mutex_unlock(&mn->lock);
	return 0;

fail_unlock:
	mutex_unlock(&mn->lock);
fail_free:
	kfree(p);
	return err;
}

static int mrc_genl_path_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_PATH_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct mrc_cfg_notify n = {};
	struct mrc_cfg_path *old, *p;
	int err;

	err = mrc_parse_obj(info, MRC_A_PATH, MRC_PATH_A_MAX,
			    mrc_path_set_policy, tb,
			    "the path (MRC_A_PATH) is required");
	if (err)
		return err;
	if (!tb[MRC_PATH_A_ID])
		return mrc_missing(info->extack, info->attrs[MRC_A_PATH],
				   MRC_PATH_A_ID, "path id is required");
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;

	mutex_lock(&mn->lock);
	old = mrc_path_find(mn, nla_get_u32(tb[MRC_PATH_A_ID]));
	if (!old) {
		mutex_unlock(&mn->lock);
		kfree(p);
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MRC_PATH_A_ID],
				    "no path with this id");
		return -ENOENT;
	}
	*p = *old;
	if (tb[MRC_PATH_A_WEIGHT])
		p->weight = nla_get_u8(tb[MRC_PATH_A_WEIGHT]);
	if (tb[MRC_PATH_A_DENY])
		p->deny = nla_get_u8(tb[MRC_PATH_A_DENY]);
	list_replace_rcu(&old->list, &p->list);
	if (p->deny != old->deny) {
		n.plane = p->plane;
		n.path = p->id;
		mrc_cfg_notify(mn, p->deny ? MRC_CFG_PATH_DENY :
				   MRC_CFG_PATH_ALLOW, &n);
	}
	kfree_rcu(old, rcu);
	mutex_unlock(&mn->lock);
	return 0;
}

static int mrc_genl_path_del(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_PATH_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct mrc_cfg_path *p;
	int err;

	err = mrc_parse_obj(info, MRC_A_PATH, MRC_PATH_A_MAX,
			    mrc_path_id_policy, tb,
			    "the path (MRC_A_PATH) is required");
	if (err)
		return err;
	if (!tb[MRC_PATH_A_ID])
		return mrc_missing(info->extack, info->attrs[MRC_A_PATH],
				   MRC_PATH_A_ID, "path id is required");
	mutex_lock(&mn->lock);
	p = mrc_path_find(mn, nla_get_u32(tb[MRC_PATH_A_ID]));
	if (!p) {
		mutex_unlock(&mn->lock);
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MRC_PATH_A_ID],
				    "no path with this id");
		return -ENOENT;
	}
	mrc_path_unlink(mn, p);
	mutex_unlock(&mn->lock);
	return 0;
}

static int mrc_genl_path_get(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_PATH_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct sk_buff *msg;
	struct mrc_cfg_path *p;
	int err;

	err = mrc_parse_obj(info, MRC_A_PATH, MRC_PATH_A_MAX,
			    mrc_path_id_policy, tb,
			    "the path (MRC_A_PATH) is required (or dump them all)");
	if (err)
		return err;
	if (!tb[MRC_PATH_A_ID])
		return mrc_missing(info->extack, info->attrs[MRC_A_PATH],
				   MRC_PATH_A_ID, "path id is required");
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	mutex_lock(&mn->lock);
	p = mrc_path_find(mn, nla_get_u32(tb[MRC_PATH_A_ID]));
	if (!p) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MRC_PATH_A_ID],
				    "no path with this id");
		err = -ENOENT;
	} else {
		err = mrc_path_fill(msg, p, info->snd_portid, info->snd_seq, 0);
	}
	mutex_unlock(&mn->lock);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static int mrc_genl_path_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct mrc_net *mn = mrc_net(sock_net(skb->sk));
	struct mrc_cfg_path *p;

	/* cb->args[0]: next id to dump; cb->args[1]: set once finished. */
	if (cb->args[1])
		return 0;
	mutex_lock(&mn->lock);
	list_for_each_entry(p, &mn->paths, list) {
		if (p->id < cb->args[0])
			continue;
		if (mrc_path_fill(skb, p, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, NLM_F_MULTI)) {
			cb->args[0] = p->id;
			goto out;
		}
	}
	cb->args[1] = 1;
out:
	mutex_unlock(&mn->lock);
	return skb->len;
}

/* ---- failure policies -------------------------------------------------- */

static int mrc_policy_fill(struct sk_buff *skb, struct mrc_net *mn,
			   const struct mrc_policy_obj *po, u32 portid,
			   u32 seq, int flags)
{
	const struct mrc_policy *p = &po->p;
	struct nlattr *nest;
	void *hdr;

	hdr = mrc_put_hdr(skb, portid, seq, flags, MRC_CMD_POLICY_GET);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, MRC_A_POLICY);
	if (!nest ||
	    nla_put_string(skb, MRC_POLICY_A_NAME, po->name) ||
	    nla_put_u64_64bit(skb, MRC_POLICY_A_RTO_MIN, p->rto_min_ns,
			      MRC_POLICY_A_PAD) ||
	    nla_put_u64_64bit(skb, MRC_POLICY_A_RTO_MAX, p->rto_max_ns,
			      MRC_POLICY_A_PAD) ||
	    nla_put_u64_64bit(skb, MRC_POLICY_A_PROBE_INTERVAL,
			      p->probe_interval_ns, MRC_POLICY_A_PAD) ||
	    nla_put_u64_64bit(skb, MRC_POLICY_A_SKIP, p->skip_ns,
			      MRC_POLICY_A_PAD) ||
	    nla_put_u32(skb, MRC_POLICY_A_RETRY_LIMIT, p->retry_limit) ||
	    nla_put_u32(skb, MRC_POLICY_A_FAIL_TO_BAD, p->fail_to_bad) ||
	    nla_put_u32(skb, MRC_POLICY_A_SUCCESS_TO_GOOD, p->success_to_good) ||
	    nla_put_u32(skb, MRC_POLICY_A_MIN_ACTIVE, p->min_active) ||
	    nla_put_u32(skb, MRC_POLICY_A_MAX_PATHS, p->max_paths) ||
	    nla_put_u32(skb, MRC_POLICY_A_BACKUPS, p->backups) ||
	    nla_put_u32(skb, MRC_POLICY_A_SACK_GAP, p->sack_gap_threshold) ||
	    nla_put_u8(skb, MRC_POLICY_A_ECN_RESPONSE, p->ecn_response) ||
	    nla_put_u8(skb, MRC_POLICY_A_DEFAULT,
		       !strcmp(po->name, mn->default_policy))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;
}

/* Which attribute a message of mrc_policy_validate() is about. */
static const struct {
	const char *field;
	int attr;
} mrc_policy_fields[] = {
	{ "rto_min", MRC_POLICY_A_RTO_MIN },
	{ "rto_max", MRC_POLICY_A_RTO_MAX },
	{ "retry_limit", MRC_POLICY_A_RETRY_LIMIT },
	{ "probe_interval", MRC_POLICY_A_PROBE_INTERVAL },
	{ "fail_to_bad", MRC_POLICY_A_FAIL_TO_BAD },
	{ "success_to_good", MRC_POLICY_A_SUCCESS_TO_GOOD },
	{ "skip", MRC_POLICY_A_SKIP },
	{ "max_paths", MRC_POLICY_A_MAX_PATHS },
	{ "backups", MRC_POLICY_A_BACKUPS },
	{ "min_active", MRC_POLICY_A_MIN_ACTIVE },
	{ "sack_gap", MRC_POLICY_A_SACK_GAP },
};

/* Apply the knobs of @tb to @p and validate the result with the core. */
static int mrc_policy_apply(struct mrc_policy *p, struct nlattr *nest,
			    struct nlattr **tb, struct netlink_ext_ack *extack)
{
	struct nlattr *bad = nest;
	const char *msg = NULL;
	unsigned int i;

	if (tb[MRC_POLICY_A_RTO_MIN])
		p->rto_min_ns = nla_get_u64(tb[MRC_POLICY_A_RTO_MIN]);
	if (tb[MRC_POLICY_A_RTO_MAX])
		p->rto_max_ns = nla_get_u64(tb[MRC_POLICY_A_RTO_MAX]);
	if (tb[MRC_POLICY_A_PROBE_INTERVAL])
		p->probe_interval_ns = nla_get_u64(tb[MRC_POLICY_A_PROBE_INTERVAL]);
	if (tb[MRC_POLICY_A_SKIP])
		p->skip_ns = nla_get_u64(tb[MRC_POLICY_A_SKIP]);
	if (tb[MRC_POLICY_A_RETRY_LIMIT])
		p->retry_limit = nla_get_u32(tb[MRC_POLICY_A_RETRY_LIMIT]);
	if (tb[MRC_POLICY_A_FAIL_TO_BAD])
		p->fail_to_bad = nla_get_u32(tb[MRC_POLICY_A_FAIL_TO_BAD]);
	if (tb[MRC_POLICY_A_SUCCESS_TO_GOOD])
		p->success_to_good = nla_get_u32(tb[MRC_POLICY_A_SUCCESS_TO_GOOD]);
	if (tb[MRC_POLICY_A_MIN_ACTIVE])
		p->min_active = nla_get_u32(tb[MRC_POLICY_A_MIN_ACTIVE]);
	if (tb[MRC_POLICY_A_MAX_PATHS])
		p->max_paths = nla_get_u32(tb[MRC_POLICY_A_MAX_PATHS]);
	if (tb[MRC_POLICY_A_BACKUPS])
		p->backups = nla_get_u32(tb[MRC_POLICY_A_BACKUPS]);
	if (tb[MRC_POLICY_A_SACK_GAP])
		p->sack_gap_threshold = nla_get_u32(tb[MRC_POLICY_A_SACK_GAP]);
	if (tb[MRC_POLICY_A_ECN_RESPONSE])
		p->ecn_response = nla_get_u8(tb[MRC_POLICY_A_ECN_RESPONSE]);

	if (!mrc_policy_validate(p, &msg))
		return 0;
	/* Blame the attribute the message is about, if the request has it. */
	for (i = 0; msg && i < ARRAY_SIZE(mrc_policy_fields); i++) {
		if (!strncmp(msg, mrc_policy_fields[i].field,
			     strlen(mrc_policy_fields[i].field))) {
			if (tb[mrc_policy_fields[i].attr])
				bad = tb[mrc_policy_fields[i].attr];
			break;
		}
	}
	mrc_extack(extack, bad, msg ? msg : "invalid failure policy");
	return -EINVAL;
}

static int mrc_genl_policy_add(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_POLICY_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct netlink_ext_ack *extack = info->extack;
	struct mrc_policy_obj *po;
	struct nlattr *nest;
	int err;

	err = mrc_parse_obj(info, MRC_A_POLICY, MRC_POLICY_A_MAX,
			    mrc_policy_policy, tb,
			    "the policy (MRC_A_POLICY) is required");
	if (err)
		return err;
	nest = info->attrs[MRC_A_POLICY];
	if (!tb[MRC_POLICY_A_NAME])
		return mrc_missing(extack, nest, MRC_POLICY_A_NAME,
				   "policy name is required");
	po = kzalloc(sizeof(*po), GFP_KERNEL);
	if (!po)
		return -ENOMEM;
	nla_strscpy(po->name, tb[MRC_POLICY_A_NAME], sizeof(po->name));
	mrc_policy_default(&po->p);
	err = mrc_policy_apply(&po->p, nest, tb, extack);
	if (err)
		goto fail;

	mutex_lock(&mn->lock);
	if (mrc_cfg_policy_find(mn, po->name)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_POLICY_A_NAME],
				    "a policy with this name already exists");
		err = -EEXIST;
	} else if (mn->nr_policies >= MRC_POLICIES_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "too many policies in this namespace (at most 64)");
		err = -ENOSPC;
	} else {
		list_add_tail_rcu(&po->list, &mn->policies);
		mn->nr_policies++;
		po = NULL;
	}
	mutex_unlock(&mn->lock);
fail:
	kfree(po);
	return err;
}

static int mrc_genl_policy_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_POLICY_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct netlink_ext_ack *extack = info->extack;
	struct mrc_policy_obj *old, *po;
	struct mrc_cfg_notify n = {};
	int err;

	err = mrc_parse_obj(info, MRC_A_POLICY, MRC_POLICY_A_MAX,
			    mrc_policy_policy, tb,
			    "the policy (MRC_A_POLICY) is required");
	if (err)
		return err;
	if (!tb[MRC_POLICY_A_NAME])
		return mrc_missing(extack, info->attrs[MRC_A_POLICY],
				   MRC_POLICY_A_NAME, "policy name is required");
	po = kzalloc(sizeof(*po), GFP_KERNEL);
	if (!po)
		return -ENOMEM;

	mutex_lock(&mn->lock);
	old = mrc_cfg_policy_find(mn, nla_data(tb[MRC_POLICY_A_NAME]));
	if (!old) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_POLICY_A_NAME],
				    "no policy with this name");
		err = -ENOENT;
		goto fail;
	}
	*po = *old;
	err = mrc_policy_apply(&po->p, info->attrs[MRC_A_POLICY], tb, extack);
	if (err)
		goto fail;
	list_replace_rcu(&old->list, &po->list);
	if (rcu_access_pointer(mn->def_policy) == old)
		rcu_assign_pointer(mn->def_policy, po);
	kfree_rcu(old, rcu);
	/* Existing connections that use the policy take the new knobs. */
	n.policy = po->name;
	mrc_cfg_notify(mn, MRC_CFG_POLICY_CHANGE, &n);
	mutex_unlock(&mn->lock);
	return 0;
fail:
	mutex_unlock(&mn->lock);
	kfree(po);
	return err;
}

static int mrc_genl_policy_del(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_POLICY_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct netlink_ext_ack *extack = info->extack;
	struct mrc_cfg_notify n = {};
	struct mrc_policy_obj *po;
	int err;

	err = mrc_parse_obj(info, MRC_A_POLICY, MRC_POLICY_A_MAX,
			    mrc_policy_name_policy, tb,
			    "the policy (MRC_A_POLICY) is required");
	if (err)
		return err;
	if (!tb[MRC_POLICY_A_NAME])
		return mrc_missing(extack, info->attrs[MRC_A_POLICY],
				   MRC_POLICY_A_NAME, "policy name is required");
	if (!strcmp(nla_data(tb[MRC_POLICY_A_NAME]), MRC_POLICY_DEFAULT_NAME)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_POLICY_A_NAME],
				    "the \"default\" policy cannot be deleted");
		return -EBUSY;
	}
	mutex_lock(&mn->lock);
	po = mrc_cfg_policy_find(mn, nla_data(tb[MRC_POLICY_A_NAME]));
	if (!po) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_POLICY_A_NAME],
				    "no policy with this name");
		err = -ENOENT;
	} else if (rcu_access_pointer(mn->def_policy) == po) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_POLICY_A_NAME],
				    "the policy is the namespace's default policy (see settings)");
		err = -EBUSY;
	} else {
		/* Its users fall back to the default policy. */
		n.policy = po->name;
		mrc_cfg_notify(mn, MRC_CFG_POLICY_DEL, &n);
		list_del_rcu(&po->list);
		mn->nr_policies--;
		kfree_rcu(po, rcu);
	}
	mutex_unlock(&mn->lock);
	return err;
}

static int mrc_genl_policy_get(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_POLICY_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct mrc_policy_obj *po;
	struct sk_buff *msg;
	int err;

	err = mrc_parse_obj(info, MRC_A_POLICY, MRC_POLICY_A_MAX,
			    mrc_policy_name_policy, tb,
			    "the policy (MRC_A_POLICY) is required (or dump them all)");
	if (err)
		return err;
	if (!tb[MRC_POLICY_A_NAME])
		return mrc_missing(info->extack, info->attrs[MRC_A_POLICY],
				   MRC_POLICY_A_NAME, "policy name is required");
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	mutex_lock(&mn->lock);
	po = mrc_cfg_policy_find(mn, nla_data(tb[MRC_POLICY_A_NAME]));
	if (!po) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MRC_POLICY_A_NAME],
				    "no policy with this name");
		err = -ENOENT;
	} else {
		err = mrc_policy_fill(msg, mn, po, info->snd_portid,
				      info->snd_seq, 0);
	}
	mutex_unlock(&mn->lock);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static int mrc_genl_policy_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct mrc_net *mn = mrc_net(sock_net(skb->sk));
	struct mrc_policy_obj *po;
	long i = 0;

	/* cb->args[0]: policies already dumped (the list only appends). */
	mutex_lock(&mn->lock);
	list_for_each_entry(po, &mn->policies, list) {
		if (i++ < cb->args[0])
			continue;
		if (mrc_policy_fill(skb, mn, po, NETLINK_CB(cb->skb).portid,
				    cb->nlh->nlmsg_seq, NLM_F_MULTI)) {
			i--;
			break;
		}
	}
	mutex_unlock(&mn->lock);
	cb->args[0] = i;
	return skb->len;
}

/* ---- settings ---------------------------------------------------------- */

static int mrc_genl_settings_get(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct sk_buff *msg;
	struct nlattr *nest;
	void *hdr;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &mrc_genl_family, 0,
				MRC_CMD_SETTINGS_GET);
	if (!hdr)
		goto nospace;
	mutex_lock(&mn->lock);
	nest = nla_nest_start(msg, MRC_A_SETTINGS);
	if (!nest ||
	    nla_put_u16(msg, MRC_SETTINGS_A_UDP_PORT, mn->udp_port) ||
	    nla_put_string(msg, MRC_SETTINGS_A_DEFAULT_POLICY,
			   mn->default_policy) ||
	    nla_put_u32(msg, MRC_SETTINGS_A_MAX_EV_SET, mn->max_ev_set)) {
		mutex_unlock(&mn->lock);
		goto nospace;
	}
	mutex_unlock(&mn->lock);
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
nospace:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

static int mrc_genl_settings_set(struct sk_buff *skb, struct genl_info *info)
{
	bool port_changed = false;
	struct nlattr *tb[MRC_SETTINGS_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct netlink_ext_ack *extack = info->extack;
	struct mrc_policy_obj *def = NULL;
	int err;

	err = mrc_parse_obj(info, MRC_A_SETTINGS, MRC_SETTINGS_A_MAX,
			    mrc_settings_policy, tb,
			    "the settings (MRC_A_SETTINGS) are required");
	if (err)
		return err;

	mutex_lock(&mn->lock);
	/* Check everything first: nothing is applied unless all is valid. */
	if (tb[MRC_SETTINGS_A_UDP_PORT] &&
	    nla_get_u16(tb[MRC_SETTINGS_A_UDP_PORT]) != mn->udp_port &&
	    atomic_read(&mn->nr_socks)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_SETTINGS_A_UDP_PORT],
				    "the UDP port cannot change while MRC sockets exist in this namespace");
		err = -EBUSY;
		goto out;
	}
	if (tb[MRC_SETTINGS_A_DEFAULT_POLICY]) {
		def = mrc_cfg_policy_find(mn,
					  nla_data(tb[MRC_SETTINGS_A_DEFAULT_POLICY]));
		if (!def) {
			NL_SET_ERR_MSG_ATTR(extack,
					    tb[MRC_SETTINGS_A_DEFAULT_POLICY],
					    "no policy with this name");
			err = -ENOENT;
			goto out;
		}
	}
	if (tb[MRC_SETTINGS_A_UDP_PORT] &&
	    nla_get_u16(tb[MRC_SETTINGS_A_UDP_PORT]) != mn->udp_port) {
		WRITE_ONCE(mn->udp_port, nla_get_u16(tb[MRC_SETTINGS_A_UDP_PORT]));
		port_changed = true;
	}
	if (tb[MRC_SETTINGS_A_MAX_EV_SET])
		WRITE_ONCE(mn->max_ev_set,
			   nla_get_u32(tb[MRC_SETTINGS_A_MAX_EV_SET]));
	if (def) {
		strscpy(mn->default_policy, def->name,
			sizeof(mn->default_policy));
		rcu_assign_pointer(mn->def_policy, def);
	}
out:
	mutex_unlock(&mn->lock);
	/* No socket uses the tunnel (checked above): move it to the new port. */
	if (port_changed)
		mrc_udp_reopen(mn->net);
	return err;
}

/* ---- connections ------------------------------------------------------- */

/**
 * mrc_conn_fill() - put one connection into a CONN_GET message.
 * @skb: the message.
 * @ci: the connection.
 * @portid: netlink port of the requester.
 * @seq: sequence number of the request.
 * @flags: NLM_F_MULTI in dumps, else 0.
 *
 * For the data path's mrc_conn_dump() and mrc_conn_get().
 *
 * Return: 0, or -EMSGSIZE when @skb is full (nothing of the connection is
 * left in it).
 */
int mrc_conn_fill(struct sk_buff *skb, const struct mrc_nl_conn *ci,
		  u32 portid, u32 seq, int flags)
{
	struct nlattr *nest, *paths, *pn, *hist;
	unsigned int i;
	void *hdr;

	hdr = mrc_put_hdr(skb, portid, seq, flags, MRC_CMD_CONN_GET);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, MRC_A_CONN);
	if (!nest ||
	    nla_put_u32(skb, MRC_CONN_A_ID, ci->id) ||
	    nla_put_in6_addr(skb, MRC_CONN_A_LOCAL_ADDR, &ci->laddr) ||
	    nla_put_in6_addr(skb, MRC_CONN_A_REMOTE_ADDR, &ci->raddr) ||
	    nla_put_u16(skb, MRC_CONN_A_LOCAL_PORT, ci->lport) ||
	    nla_put_u16(skb, MRC_CONN_A_REMOTE_PORT, ci->rport) ||
	    nla_put_u8(skb, MRC_CONN_A_TYPE, ci->type) ||
	    nla_put_u8(skb, MRC_CONN_A_STATE, ci->state) ||
	    nla_put_u32(skb, MRC_CONN_A_LOCAL_QPN, ci->local_qpn) ||
	    nla_put_u32(skb, MRC_CONN_A_REMOTE_QPN, ci->remote_qpn) ||
	    nla_put_string(skb, MRC_CONN_A_POLICY, ci->policy) ||
	    nla_put_u32(skb, MRC_CONN_A_SRTT, ci->srtt_us) ||
	    nla_put_u32(skb, MRC_CONN_A_RTO, ci->rto_us) ||
	    nla_put_u32(skb, MRC_CONN_A_CWND, ci->cwnd) ||
	    nla_put_u32(skb, MRC_CONN_A_INFLIGHT, ci->inflight) ||
	    nla_put_u32(skb, MRC_CONN_A_PATHS_GOOD,
			ci->paths_by_state[MRC_PATH_GOOD]) ||
	    nla_put_u32(skb, MRC_CONN_A_PATHS_SKIP,
			ci->paths_by_state[MRC_PATH_SKIP]) ||
	    nla_put_u32(skb, MRC_CONN_A_PATHS_BAD,
			ci->paths_by_state[MRC_PATH_ASSUMED_BAD]) ||
	    nla_put_u32(skb, MRC_CONN_A_PATHS_DENIED,
			ci->paths_by_state[MRC_PATH_DENIED]) ||
	    nla_put_u32(skb, MRC_CONN_A_PATHS_BACKUP,
			ci->paths_by_state[MRC_PATH_BACKUP]) ||
	    nla_put_u64_64bit(skb, MRC_CONN_A_RETX_RTO, ci->retx_rto,
			      MRC_CONN_A_PAD) ||
	    nla_put_u64_64bit(skb, MRC_CONN_A_RETX_NACK, ci->retx_nack,
			      MRC_CONN_A_PAD) ||
	    nla_put_u64_64bit(skb, MRC_CONN_A_RETX_SACK, ci->retx_sack,
			      MRC_CONN_A_PAD) ||
	    nla_put_u64_64bit(skb, MRC_CONN_A_RETX_EV, ci->retx_ev,
			      MRC_CONN_A_PAD) ||
	    nla_put_u64_64bit(skb, MRC_CONN_A_TTR_COUNT, ci->ttr_count,
			      MRC_CONN_A_PAD) ||
	    nla_put_u64_64bit(skb, MRC_CONN_A_TTR_MAX, ci->ttr_max_ns,
			      MRC_CONN_A_PAD) ||
	    nla_put_u64_64bit(skb, MRC_CONN_A_BYTES_SENT, ci->bytes_sent,
			      MRC_CONN_A_PAD) ||
	    nla_put_u64_64bit(skb, MRC_CONN_A_BYTES_RECV, ci->bytes_recv,
			      MRC_CONN_A_PAD))
		goto cancel;
	paths = nla_nest_start(skb, MRC_CONN_A_PATHS);
	if (!paths)
		goto cancel;
	for (i = 0; i < ci->nr_paths; i++) {
		const struct mrc_nl_conn_path *p = &ci->paths[i];

		pn = nla_nest_start(skb, MRC_CONN_A_PATH);
		if (!pn ||
		    nla_put_u32(skb, MRC_CPATH_A_EV, p->ev) ||
		    nla_put_u32(skb, MRC_CPATH_A_PLANE, p->plane) ||
		    (p->path_id != U32_MAX &&
		     nla_put_u32(skb, MRC_CPATH_A_PATH_ID, p->path_id)) ||
		    nla_put_u8(skb, MRC_CPATH_A_STATE, p->state) ||
		    nla_put_u8(skb, MRC_CPATH_A_REASON, p->reason) ||
		    nla_put_u64_64bit(skb, MRC_CPATH_A_TX_PKTS, p->tx_pkts,
				      MRC_CPATH_A_PAD) ||
		    nla_put_u64_64bit(skb, MRC_CPATH_A_RETX_PKTS, p->retx_pkts,
				      MRC_CPATH_A_PAD) ||
		    nla_put_u64_64bit(skb, MRC_CPATH_A_LOST_PKTS, p->lost_pkts,
				      MRC_CPATH_A_PAD) ||
		    nla_put_u64_64bit(skb, MRC_CPATH_A_ECN_MARKS, p->ecn_marks,
				      MRC_CPATH_A_PAD) ||
		    nla_put_u32(skb, MRC_CPATH_A_SRTT, p->srtt_us))
			goto cancel;
		nla_nest_end(skb, pn);
	}
	nla_nest_end(skb, paths);
	hist = nla_nest_start(skb, MRC_CONN_A_TTR_HIST);
	if (!hist)
		goto cancel;
	for (i = 0; i < MRC_TTR_BUCKETS; i++)
		if (ci->ttr_hist[i] &&
		    nla_put_u64_64bit(skb, i + 1, ci->ttr_hist[i], 0))
			goto cancel;
	nla_nest_end(skb, hist);
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static int mrc_genl_conn_get(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_CONN_A_MAX + 1];
	struct sk_buff *msg;
	int err;

	err = mrc_parse_obj(info, MRC_A_CONN, MRC_CONN_A_MAX,
			    mrc_conn_filter_policy, tb,
			    "the connection (MRC_A_CONN) is required (or dump them all)");
	if (err)
		return err;
	if (!tb[MRC_CONN_A_ID])
		return mrc_missing(info->extack, info->attrs[MRC_A_CONN],
				   MRC_CONN_A_ID, "connection id is required");
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	err = mrc_conn_get(genl_info_net(info), nla_get_u32(tb[MRC_CONN_A_ID]),
			   msg, info);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static int mrc_genl_conn_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *di = genl_dumpit_info(cb);
	struct nlattr *tb[MRC_CONN_A_MAX + 1];
	struct mrc_conn_filter f = {};
	struct nlattr *nest = di->attrs[MRC_A_CONN];

	if (nest) {
		if (nla_parse_nested(tb, MRC_CONN_A_MAX, nest,
				     mrc_conn_filter_policy, NULL))
			return -EINVAL;
		if (tb[MRC_CONN_A_ID]) {
			f.has_id = true;
			f.id = nla_get_u32(tb[MRC_CONN_A_ID]);
		}
		if (tb[MRC_CONN_A_LOCAL_ADDR]) {
			f.has_laddr = true;
			f.laddr = nla_get_in6_addr(tb[MRC_CONN_A_LOCAL_ADDR]);
		}
		if (tb[MRC_CONN_A_REMOTE_ADDR]) {
			f.has_raddr = true;
			f.raddr = nla_get_in6_addr(tb[MRC_CONN_A_REMOTE_ADDR]);
		}
		if (tb[MRC_CONN_A_LOCAL_PORT]) {
			f.has_lport = true;
			f.lport = nla_get_u16(tb[MRC_CONN_A_LOCAL_PORT]);
		}
		if (tb[MRC_CONN_A_REMOTE_PORT]) {
			f.has_rport = true;
			f.rport = nla_get_u16(tb[MRC_CONN_A_REMOTE_PORT]);
		}
		if (tb[MRC_CONN_A_STATE]) {
			f.has_state = true;
			f.state = nla_get_u8(tb[MRC_CONN_A_STATE]);
		}
	}
	return mrc_conn_dump(skb, cb, &f);
}

/* ---- statistics and probes -------------------------------------------- */

static int mrc_genl_stats_get(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	struct nlattr *nest;
	unsigned int i;
	u64 *vals;
	void *hdr;
	int err = -EMSGSIZE;

	vals = kcalloc(__MRC_MIB_MAX, sizeof(*vals), GFP_KERNEL);
	if (!vals)
		return -ENOMEM;
	mrc_stats_fold(genl_info_net(info), vals);
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg) {
		kfree(vals);
		return -ENOMEM;
	}
	hdr = genlmsg_put_reply(msg, info, &mrc_genl_family, 0,
				MRC_CMD_STATS_GET);
	if (!hdr)
		goto fail;
	nest = nla_nest_start(msg, MRC_A_STATS);
	if (!nest)
		goto fail;
	/* MRC_MIB_UNSPEC is never a counter: it pads the 64-bit values. */
	for (i = 1; i < __MRC_MIB_MAX; i++)
		if (nla_put_u64_64bit(msg, i, vals[i], MRC_MIB_UNSPEC))
			goto fail;
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	kfree(vals);
	return genlmsg_reply(msg, info);
fail:
	kfree(vals);
	nlmsg_free(msg);
	return err;
}

static int mrc_genl_probe(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_PROBE_A_MAX + 1];
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *nest;
	struct sk_buff *msg;
	u32 timeout_ms = 1000;
	u64 rtt_ns = 0;
	void *hdr;
	int err;

	err = mrc_parse_obj(info, MRC_A_PROBE, MRC_PROBE_A_MAX, mrc_probe_policy,
			    tb, "the probe (MRC_A_PROBE) is required");
	if (err)
		return err;
	if (!tb[MRC_PROBE_A_DST])
		return mrc_missing(extack, info->attrs[MRC_A_PROBE],
				   MRC_PROBE_A_DST, "probe destination is required");
	if (!tb[MRC_PROBE_A_PATH_ID])
		return mrc_missing(extack, info->attrs[MRC_A_PROBE],
				   MRC_PROBE_A_PATH_ID, "probe path id is required");
	err = mrc_check_unicast(tb[MRC_PROBE_A_DST], MRC_ADDR_PROBE, extack);
	if (err)
		return err;
	if (tb[MRC_PROBE_A_TIMEOUT_MS])
		timeout_ms = nla_get_u32(tb[MRC_PROBE_A_TIMEOUT_MS]);
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	/* Sleeps until the answer or the timeout: the family is parallel_ops. */
	err = mrc_ep_probe(genl_info_net(info),
			   nla_data(tb[MRC_PROBE_A_DST]),
			   nla_get_u32(tb[MRC_PROBE_A_PATH_ID]), timeout_ms,
			   &rtt_ns, extack);
	if (err) {
		if (err == -ENOENT || err == -ENETDOWN)
			extack->bad_attr = tb[MRC_PROBE_A_PATH_ID];
		else if (err == -EINVAL)
			extack->bad_attr = tb[MRC_PROBE_A_DST];
		goto fail;
	}
	err = -EMSGSIZE;
	hdr = genlmsg_put_reply(msg, info, &mrc_genl_family, 0, MRC_CMD_PROBE);
	if (!hdr)
		goto fail;
	nest = nla_nest_start(msg, MRC_A_PROBE);
	if (!nest ||
	    nla_put_in6_addr(msg, MRC_PROBE_A_DST, nla_data(tb[MRC_PROBE_A_DST])) ||
	    nla_put_u32(msg, MRC_PROBE_A_PATH_ID,
			nla_get_u32(tb[MRC_PROBE_A_PATH_ID])) ||
	    (rtt_ns ? nla_put_u64_64bit(msg, MRC_PROBE_A_RTT, rtt_ns,
					MRC_PROBE_A_PAD) :
		      nla_put_u8(msg, MRC_PROBE_A_TIMED_OUT, 1)))
		goto fail;
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
fail:
	nlmsg_free(msg);
	return err;
}

/* ---- the family -------------------------------------------------------- */

#define MRC_OP_DO(_cmd, _doit, _policy, _flags) {		\
	.cmd = (_cmd), .doit = (_doit), .policy = (_policy),	\
	.maxattr = MRC_A_MAX, .flags = (_flags),		\
}

#define MRC_OP_GET(_cmd, _doit, _dumpit, _policy) {		\
	.cmd = (_cmd), .doit = (_doit), .dumpit = (_dumpit),	\
	.policy = (_policy), .maxattr = MRC_A_MAX,		\
}

static const struct genl_ops mrc_genl_ops[] = {
	MRC_OP_DO(MRC_CMD_INFO_GET, mrc_genl_info_get, mrc_none_policy, 0),
	MRC_OP_DO(MRC_CMD_PLANE_ADD, mrc_genl_plane_add, mrc_plane_nl_policy,
		  GENL_UNS_ADMIN_PERM),
	MRC_OP_DO(MRC_CMD_PLANE_DEL, mrc_genl_plane_del, mrc_plane_id_nl_policy,
		  GENL_UNS_ADMIN_PERM),
	MRC_OP_DO(MRC_CMD_PLANE_SET, mrc_genl_plane_set, mrc_plane_nl_policy,
		  GENL_UNS_ADMIN_PERM),
	MRC_OP_GET(MRC_CMD_PLANE_GET, mrc_genl_plane_get, mrc_genl_plane_dump,
		   mrc_plane_id_nl_policy),
	MRC_OP_DO(MRC_CMD_PATH_ADD, mrc_genl_path_add, mrc_path_nl_policy,
		  GENL_UNS_ADMIN_PERM),
	MRC_OP_DO(MRC_CMD_PATH_DEL, mrc_genl_path_del, mrc_path_id_nl_policy,
		  GENL_UNS_ADMIN_PERM),
	MRC_OP_DO(MRC_CMD_PATH_SET, mrc_genl_path_set, mrc_path_set_nl_policy,
		  GENL_UNS_ADMIN_PERM),
	MRC_OP_GET(MRC_CMD_PATH_GET, mrc_genl_path_get, mrc_genl_path_dump,
		   mrc_path_id_nl_policy),
	MRC_OP_DO(MRC_CMD_POLICY_ADD, mrc_genl_policy_add, mrc_policy_nl_policy,
		  GENL_UNS_ADMIN_PERM),
	MRC_OP_DO(MRC_CMD_POLICY_DEL, mrc_genl_policy_del,
		  mrc_policy_name_nl_policy, GENL_UNS_ADMIN_PERM),
	MRC_OP_DO(MRC_CMD_POLICY_SET, mrc_genl_policy_set, mrc_policy_nl_policy,
		  GENL_UNS_ADMIN_PERM),
	MRC_OP_GET(MRC_CMD_POLICY_GET, mrc_genl_policy_get,
		   mrc_genl_policy_dump, mrc_policy_name_nl_policy),
	MRC_OP_DO(MRC_CMD_SETTINGS_GET, mrc_genl_settings_get, mrc_none_policy,
		  0),
	MRC_OP_DO(MRC_CMD_SETTINGS_SET, mrc_genl_settings_set,
		  mrc_settings_nl_policy, GENL_UNS_ADMIN_PERM),
	MRC_OP_GET(MRC_CMD_CONN_GET, mrc_genl_conn_get, mrc_genl_conn_dump,
		   mrc_conn_nl_policy),
	MRC_OP_DO(MRC_CMD_STATS_GET, mrc_genl_stats_get, mrc_none_policy, 0),
	MRC_OP_DO(MRC_CMD_PROBE, mrc_genl_probe, mrc_probe_nl_policy,
		  GENL_UNS_ADMIN_PERM),
};

static const struct genl_multicast_group mrc_genl_mcgrps[] = {
	{ .name = MRC_GENL_MCGRP_EVENTS, },
};

struct genl_family mrc_genl_family __ro_after_init = {
	.name = MRC_GENL_NAME,
	.version = MRC_GENL_VERSION,
	.maxattr = MRC_A_MAX,
	.netnsok = true,
	/* Every handler locks what it touches; PROBE sleeps for its answer. */
	.parallel_ops = true,
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
