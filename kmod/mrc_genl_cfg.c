// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: generic netlink, the configuration objects: planes,
 * paths and failure policies (ADD, SET, DEL, GET and dump of each).
 *
 * This file only translates: requests into objects and calls of their
 * lifecycle (mrc_cfg.c: find, add, replace, delete), objects into
 * messages, errors into extack messages. GET, its dump, SET and DEL are
 * the same for every object (mrc_genl_obj_*() in mrc_genl.c); what
 * differs is in each object's struct mrc_genl_obj.
 * Documentation/object-model.md describes the objects.
 */
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/ipv6.h>

#include "mrc_genl.h"
#include "mrc_dp.h"
#include "mrc_udp.h"

static int mrc_plane_fill(struct sk_buff *skb, struct mrc_net *mn,
			  const void *obj)
{
	const struct mrc_plane *pl = obj;
	struct net_device *dev;
	int err = 0;

	if (nla_put_u32(skb, MRC_PLANE_A_ID, pl->id) ||
	    nla_put_u32(skb, MRC_PLANE_A_IFINDEX, pl->ifindex) ||
	    nla_put_in6_addr(skb, MRC_PLANE_A_SADDR, &pl->saddr) ||
	    nla_put_u8(skb, MRC_PLANE_A_ADMIN, pl->admin_up) ||
	    nla_put_u8(skb, MRC_PLANE_A_OPER, READ_ONCE(pl->oper_up)) ||
	    nla_put_u32(skb, MRC_PLANE_A_NR_PATHS, pl->nr_paths))
		return -EMSGSIZE;
	rcu_read_lock();
	dev = pl->ifindex ? dev_get_by_index_rcu(mn->net, pl->ifindex) : NULL;
	if (dev && nla_put_string(skb, MRC_PLANE_A_IFNAME, dev->name))
		err = -EMSGSIZE;
	rcu_read_unlock();
	return err;
}

static void *mrc_plane_find(struct mrc_net *mn, const struct nlattr *key)
{
	return mrc_cfg_plane_find(mn, nla_get_u32(key));
}

static void *mrc_plane_from(struct mrc_net *mn, long *pos)
{
	return mrc_cfg_plane_from(mn, pos);
}

static int mrc_plane_del(struct mrc_net *mn, void *obj,
			 const struct nlattr *key, struct netlink_ext_ack *extack)
{
	mrc_cfg_plane_del(mn, obj);
	return 0;
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
		return mrc_genl_check_unicast(tb[MRC_PLANE_A_SADDR],
					      MRC_ADDR_SADDR, extack);
	return 0;
}

/**
 * mrc_genl_plane_add() - MRC_CMD_PLANE_ADD: add a plane.
 * @skb: the request.
 * @info: its attributes, sender and extack.
 *
 * Opens the namespace's UDP port if it is not open yet.
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_plane_add(struct sk_buff *skb, struct genl_info *info)
{
	struct socket *sock;
	struct nlattr *tb[MRC_PLANE_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *nest = info->attrs[MRC_A_PLANE];
	struct net_device *dev;
	struct mrc_plane *pl;
	int err;

	err = mrc_genl_obj_parse(info, &mrc_genl_plane_obj,
				 mrc_genl_plane_req_policy, tb,
				 mrc_genl_plane_obj.missing);
	if (err)
		return err;
	if (!tb[MRC_PLANE_A_IFINDEX] && !tb[MRC_PLANE_A_IFNAME])
		return mrc_genl_missing(extack, nest, MRC_PLANE_A_IFNAME,
					"plane device is required");
	if (!tb[MRC_PLANE_A_SADDR])
		return mrc_genl_missing(extack, nest, MRC_PLANE_A_SADDR,
					"plane source address is required");
	err = mrc_plane_check(nest, tb, extack);
	if (err)
		return err;

	pl = kzalloc(sizeof(*pl), GFP_KERNEL);
	if (!pl)
		return -ENOMEM;
	pl->id = nla_get_u32(tb[MRC_PLANE_A_ID]);
	pl->saddr = nla_get_in6_addr(tb[MRC_PLANE_A_SADDR]);
	pl->admin_up = !tb[MRC_PLANE_A_ADMIN] ||
		       nla_get_u8(tb[MRC_PLANE_A_ADMIN]) == MRC_PLANE_ADMIN_UP;

	rtnl_lock();
	mutex_lock(&mn->lock);
	err = -EEXIST;
	if (mrc_cfg_plane_find(mn, pl->id)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PLANE_A_ID],
				    "a plane with this id already exists");
		goto fail;
	}
	err = -ENODEV;
	dev = mrc_plane_dev(mn->net, tb, extack);
	if (!dev)
		goto fail;
	pl->ifindex = dev->ifindex;
	mrc_cfg_plane_add(mn, pl);
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

/* PLANE_SET: a new device or source address takes the plane down and up. */
static int mrc_plane_set(struct mrc_net *mn, void *old_obj, void *obj,
			 struct nlattr *nest, struct nlattr **tb,
			 struct netlink_ext_ack *extack)
{
	struct mrc_plane *old = old_obj, *pl = obj;
	struct net_device *dev;
	bool moved = false;

	if (tb[MRC_PLANE_A_IFINDEX] || tb[MRC_PLANE_A_IFNAME]) {
		dev = mrc_plane_dev(mn->net, tb, extack);
		if (!dev)
			return -ENODEV;
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
	mrc_cfg_plane_replace(mn, old, pl, moved);
	return 0;
}

const struct mrc_genl_obj mrc_genl_plane_obj = {
	.cmd = MRC_CMD_PLANE_GET,
	.attr = MRC_A_PLANE,
	.maxtype = MRC_PLANE_A_MAX,
	.key = MRC_PLANE_A_ID,
	.key_policy = mrc_genl_plane_id_policy,
	.missing = "the plane (MRC_A_PLANE) is required",
	.missing_get = "the plane (MRC_A_PLANE) is required (or dump them all)",
	.key_missing = "plane id is required",
	.not_found = "no plane with this id",
	.reply_size = NLMSG_DEFAULT_SIZE,
	.fill = mrc_plane_fill,
	.find = mrc_plane_find,
	.from = mrc_plane_from,
	.del = mrc_plane_del,
	.set_policy = mrc_genl_plane_req_policy,
	.set_rtnl = true,
	.obj_size = sizeof(struct mrc_plane),
	.check = mrc_plane_check,
	.set = mrc_plane_set,
};

/* ---- paths ------------------------------------------------------------- */

static int mrc_path_fill(struct sk_buff *skb, struct mrc_net *mn,
			 const void *obj)
{
	const struct mrc_cfg_path *p = obj;
	struct nlattr *segs;
	unsigned int i;

	if (nla_put_u32(skb, MRC_PATH_A_ID, p->id) ||
	    nla_put_in6_addr(skb, MRC_PATH_A_DST, &p->dst) ||
	    nla_put_u8(skb, MRC_PATH_A_DST_LEN, p->dst_len) ||
	    nla_put_u32(skb, MRC_PATH_A_PLANE, p->plane) ||
	    nla_put_u8(skb, MRC_PATH_A_MODE, p->mode) ||
	    nla_put_u8(skb, MRC_PATH_A_WEIGHT, p->weight) ||
	    nla_put_u8(skb, MRC_PATH_A_DENY, p->deny))
		return -EMSGSIZE;
	switch (p->mode) {
	case MRC_FWD_USID:
		return nla_put_in6_addr(skb, MRC_PATH_A_USID, &p->segs[0]);
	case MRC_FWD_SRH:
		segs = nla_nest_start(skb, MRC_PATH_A_SEGS);
		if (!segs)
			return -EMSGSIZE;
		for (i = 0; i < p->nr_segs; i++)
			if (nla_put_in6_addr(skb, MRC_SEG_A_ADDR, &p->segs[i]))
				return -EMSGSIZE;
		nla_nest_end(skb, segs);
		return 0;
	default:
		return nla_put_u16(skb, MRC_PATH_A_ENTROPY, p->entropy);
	}
}

static void *mrc_path_find(struct mrc_net *mn, const struct nlattr *key)
{
	return mrc_cfg_path_find(mn, nla_get_u32(key));
}

static void *mrc_path_from(struct mrc_net *mn, long *pos)
{
	return mrc_cfg_path_from(mn, pos);
}

static int mrc_path_del(struct mrc_net *mn, void *obj,
			const struct nlattr *key, struct netlink_ext_ack *extack)
{
	mrc_cfg_path_del(mn, obj);
	return 0;
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
			return mrc_genl_missing(extack, nest,
						MRC_PATH_A_USID,
						"mode usid needs a uSID container");
		if (mrc_genl_check_unicast(tb[MRC_PATH_A_USID], MRC_ADDR_USID,
					   extack))
			return -EINVAL;
		p->segs[0] = nla_get_in6_addr(tb[MRC_PATH_A_USID]);
		p->nr_segs = 1;
		break;
	case MRC_FWD_SRH:
		if (!tb[MRC_PATH_A_SEGS])
			return mrc_genl_missing(extack, nest,
						MRC_PATH_A_SEGS,
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
			if (mrc_genl_check_unicast(seg, MRC_ADDR_SEG, extack))
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

/**
 * mrc_genl_path_add() - MRC_CMD_PATH_ADD: add a path.
 * @skb: the request.
 * @info: its attributes, sender and extack.
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_path_add(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_PATH_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct netlink_ext_ack *extack = info->extack;
	struct in6_addr masked;
	struct mrc_cfg_path *p;
	struct nlattr *nest;
	int err;

	err = mrc_genl_obj_parse(info, &mrc_genl_path_obj, mrc_genl_path_policy, tb,
				 mrc_genl_path_obj.missing);
	if (err)
		return err;
	nest = info->attrs[MRC_A_PATH];
	if (!tb[MRC_PATH_A_DST])
		return mrc_genl_missing(extack, nest, MRC_PATH_A_DST,
					"path destination prefix is required");
	if (!tb[MRC_PATH_A_PLANE])
		return mrc_genl_missing(extack, nest, MRC_PATH_A_PLANE,
					"path plane is required");
	if (!tb[MRC_PATH_A_MODE])
		return mrc_genl_missing(extack, nest, MRC_PATH_A_MODE,
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
	err = mrc_cfg_path_add(mn, p);
	mutex_unlock(&mn->lock);
	switch (err) {
	case 0:
		return 0;
	case -ENOENT:
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PATH_A_PLANE],
				    "no plane with this id");
		break;
	case -EEXIST:
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PATH_A_ID],
				    "a path with this id already exists");
		break;
	case -ENOSPC:
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "too many paths in this namespace (at most 4096)");
		break;
	}
fail_free:
	kfree(p);
	return err;
}

/* PATH_SET: a path's weight and deny flag. */
static int mrc_path_set(struct mrc_net *mn, void *old, void *obj,
			struct nlattr *nest, struct nlattr **tb,
			struct netlink_ext_ack *extack)
{
	struct mrc_cfg_path *p = obj;

	if (tb[MRC_PATH_A_WEIGHT])
		p->weight = nla_get_u8(tb[MRC_PATH_A_WEIGHT]);
	if (tb[MRC_PATH_A_DENY])
		p->deny = nla_get_u8(tb[MRC_PATH_A_DENY]);
	mrc_cfg_path_replace(mn, old, p);
	return 0;
}

const struct mrc_genl_obj mrc_genl_path_obj = {
	.cmd = MRC_CMD_PATH_GET,
	.attr = MRC_A_PATH,
	.maxtype = MRC_PATH_A_MAX,
	.key = MRC_PATH_A_ID,
	.key_policy = mrc_genl_path_id_policy,
	.missing = "the path (MRC_A_PATH) is required",
	.missing_get = "the path (MRC_A_PATH) is required (or dump them all)",
	.key_missing = "path id is required",
	.not_found = "no path with this id",
	.reply_size = NLMSG_DEFAULT_SIZE,
	.fill = mrc_path_fill,
	.find = mrc_path_find,
	.from = mrc_path_from,
	.del = mrc_path_del,
	.set_policy = mrc_genl_path_set_policy,
	.obj_size = sizeof(struct mrc_cfg_path),
	.set = mrc_path_set,
};

/* ---- failure policies -------------------------------------------------- */

static int mrc_policy_fill(struct sk_buff *skb, struct mrc_net *mn,
			   const void *obj)
{
	const struct mrc_policy_obj *po = obj;
	const struct mrc_policy *p = &po->p;

	if (nla_put_string(skb, MRC_POLICY_A_NAME, po->name) ||
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
	    nla_put_u8(skb, MRC_POLICY_A_KEEPALIVE, p->keepalive) ||
	    nla_put_u64_64bit(skb, MRC_POLICY_A_KEEPALIVE_IDLE,
			      p->keepalive_idle_ns, MRC_POLICY_A_PAD) ||
	    nla_put_u64_64bit(skb, MRC_POLICY_A_KEEPALIVE_INTERVAL,
			      p->keepalive_intvl_ns, MRC_POLICY_A_PAD) ||
	    nla_put_u32(skb, MRC_POLICY_A_KEEPALIVE_COUNT, p->keepalive_cnt) ||
	    nla_put_u8(skb, MRC_POLICY_A_DEFAULT,
		       !strcmp(po->name, mn->default_policy)))
		return -EMSGSIZE;
	return 0;
}

static void *mrc_policy_find(struct mrc_net *mn, const struct nlattr *key)
{
	return mrc_cfg_policy_find(mn, nla_data(key));
}

static void *mrc_policy_from(struct mrc_net *mn, long *pos)
{
	return mrc_cfg_policy_at(mn, pos);
}

/* Neither "default" nor the namespace's default policy can go. */
static int mrc_policy_del(struct mrc_net *mn, void *obj,
			  const struct nlattr *key,
			  struct netlink_ext_ack *extack)
{
	if (!strcmp(nla_data(key), MRC_POLICY_DEFAULT_NAME)) {
		NL_SET_ERR_MSG_ATTR(extack, key,
				    "the \"default\" policy cannot be deleted");
		return -EBUSY;
	}
	if (mrc_cfg_policy_del(mn, obj)) {
		NL_SET_ERR_MSG_ATTR(extack, key,
				    "the policy is the namespace's default policy (see settings)");
		return -EBUSY;
	}
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
	{ "keepalive_idle", MRC_POLICY_A_KEEPALIVE_IDLE },
	{ "keepalive_interval", MRC_POLICY_A_KEEPALIVE_INTERVAL },
	{ "keepalive_count", MRC_POLICY_A_KEEPALIVE_COUNT },
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
	if (tb[MRC_POLICY_A_KEEPALIVE])
		p->keepalive = nla_get_u8(tb[MRC_POLICY_A_KEEPALIVE]);
	if (tb[MRC_POLICY_A_KEEPALIVE_IDLE])
		p->keepalive_idle_ns = nla_get_u64(tb[MRC_POLICY_A_KEEPALIVE_IDLE]);
	if (tb[MRC_POLICY_A_KEEPALIVE_INTERVAL])
		p->keepalive_intvl_ns = nla_get_u64(tb[MRC_POLICY_A_KEEPALIVE_INTERVAL]);
	if (tb[MRC_POLICY_A_KEEPALIVE_COUNT])
		p->keepalive_cnt = nla_get_u32(tb[MRC_POLICY_A_KEEPALIVE_COUNT]);

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
	mrc_genl_extack(extack, bad, msg ? msg : "invalid failure policy");
	return -EINVAL;
}

/**
 * mrc_genl_policy_add() - MRC_CMD_POLICY_ADD: add a failure policy.
 * @skb: the request.
 * @info: its attributes, sender and extack.
 *
 * Knobs the request leaves out take the core's defaults.
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_policy_add(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_POLICY_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *nest = info->attrs[MRC_A_POLICY];
	struct mrc_policy_obj *po;
	int err;

	err = mrc_genl_obj_parse(info, &mrc_genl_policy_obj,
				 mrc_genl_policy_req_policy, tb,
				 mrc_genl_policy_obj.missing);
	if (err)
		return err;
	po = kzalloc(sizeof(*po), GFP_KERNEL);
	if (!po)
		return -ENOMEM;
	nla_strscpy(po->name, tb[MRC_POLICY_A_NAME], sizeof(po->name));
	mrc_policy_default(&po->p);
	err = mrc_policy_apply(&po->p, nest, tb, extack);
	if (err)
		goto fail;

	mutex_lock(&mn->lock);
	err = mrc_cfg_policy_add(mn, po);
	mutex_unlock(&mn->lock);
	if (!err)
		return 0;
	if (err == -EEXIST)
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_POLICY_A_NAME],
				    "a policy with this name already exists");
	else
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "too many policies in this namespace (at most 64)");
fail:
	kfree(po);
	return err;
}

/* POLICY_SET: connections that use the policy take the new knobs. */
static int mrc_policy_set(struct mrc_net *mn, void *old, void *obj,
			  struct nlattr *nest, struct nlattr **tb,
			  struct netlink_ext_ack *extack)
{
	struct mrc_policy_obj *po = obj;
	int err;

	err = mrc_policy_apply(&po->p, nest, tb, extack);
	if (err)
		return err;
	mrc_cfg_policy_replace(mn, old, po);
	return 0;
}

const struct mrc_genl_obj mrc_genl_policy_obj = {
	.cmd = MRC_CMD_POLICY_GET,
	.attr = MRC_A_POLICY,
	.maxtype = MRC_POLICY_A_MAX,
	.key = MRC_POLICY_A_NAME,
	.key_policy = mrc_genl_policy_name_policy,
	.missing = "the policy (MRC_A_POLICY) is required",
	.missing_get = "the policy (MRC_A_POLICY) is required (or dump them all)",
	.key_missing = "policy name is required",
	.not_found = "no policy with this name",
	.reply_size = NLMSG_DEFAULT_SIZE,
	.fill = mrc_policy_fill,
	.find = mrc_policy_find,
	.from = mrc_policy_from,
	.del = mrc_policy_del,
	.set_policy = mrc_genl_policy_req_policy,
	.obj_size = sizeof(struct mrc_policy_obj),
	.set = mrc_policy_set,
};

