// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: generic netlink, the configuration objects: planes,
 * paths and failure policies (ADD, SET, DEL, GET and dump of each).
 * They live in struct mrc_net (mrc_cfg.h); Documentation/object-model.md
 * describes them.
 */
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/ipv6.h>

#include "mrc_genl.h"
#include "mrc_dp.h"

/* ---- lookups (caller holds mrc_net::lock) ------------------------------ */

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

/* ---- planes ------------------------------------------------------------ */

static int mrc_plane_fill(struct sk_buff *skb, struct net *net,
			  const struct mrc_plane *pl, u32 portid, u32 seq,
			  int flags)
{
	struct net_device *dev;
	struct nlattr *nest;
	void *hdr;

	hdr = mrc_genl_put_hdr(skb, portid, seq, flags, MRC_CMD_PLANE_GET);
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
	struct net_device *dev;
	struct mrc_plane *pl;
	struct nlattr *nest;
	u32 id;
	int err;

	err = mrc_genl_parse_obj(info, MRC_A_PLANE, MRC_PLANE_A_MAX,
				 mrc_genl_plane_req_policy, tb,
				 "the plane (MRC_A_PLANE) is required");
	if (err)
		return err;
	nest = info->attrs[MRC_A_PLANE];
	if (!tb[MRC_PLANE_A_ID])
		return mrc_genl_missing(extack, nest, MRC_PLANE_A_ID,
					"plane id is required");
	if (!tb[MRC_PLANE_A_IFINDEX] && !tb[MRC_PLANE_A_IFNAME])
		return mrc_genl_missing(extack, nest, MRC_PLANE_A_IFNAME,
					"plane device is required");
	if (!tb[MRC_PLANE_A_SADDR])
		return mrc_genl_missing(extack, nest, MRC_PLANE_A_SADDR,
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

/**
 * mrc_genl_plane_set() - MRC_CMD_PLANE_SET: change a plane.
 * @skb: the request.
 * @info: its attributes, sender and extack.
 *
 * A new device or source address takes the plane down and up again.
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_plane_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_PLANE_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct netlink_ext_ack *extack = info->extack;
	struct mrc_plane *old, *pl;
	struct net_device *dev;
	bool moved = false;
	u8 reason;
	int err;

	err = mrc_genl_parse_obj(info, MRC_A_PLANE, MRC_PLANE_A_MAX,
				 mrc_genl_plane_req_policy, tb,
				 "the plane (MRC_A_PLANE) is required");
	if (err)
		return err;
	if (!tb[MRC_PLANE_A_ID])
		return mrc_genl_missing(extack, info->attrs[MRC_A_PLANE],
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

/**
 * mrc_genl_plane_del() - MRC_CMD_PLANE_DEL: delete a plane and its paths.
 * @skb: the request.
 * @info: its attributes, sender and extack.
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_plane_del(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_PLANE_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct mrc_cfg_notify n = {};
	struct mrc_cfg_path *p, *tmp;
	struct mrc_plane *pl;
	int err;

	err = mrc_genl_parse_obj(info, MRC_A_PLANE, MRC_PLANE_A_MAX,
				 mrc_genl_plane_id_policy, tb,
				 "the plane (MRC_A_PLANE) is required");
	if (err)
		return err;
	if (!tb[MRC_PLANE_A_ID])
		return mrc_genl_missing(info->extack, info->attrs[MRC_A_PLANE],
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

/**
 * mrc_genl_plane_get() - MRC_CMD_PLANE_GET: one plane, by id.
 * @skb: the request.
 * @info: its attributes, sender and extack.
 *
 * Return: 0 (the reply is sent) or a negative errno.
 */
int mrc_genl_plane_get(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_PLANE_A_MAX + 1];
	struct net *net = genl_info_net(info);
	struct mrc_net *mn = mrc_net(net);
	struct mrc_plane *pl;
	struct sk_buff *msg;
	int err;

	err = mrc_genl_parse_obj(info, MRC_A_PLANE, MRC_PLANE_A_MAX,
				 mrc_genl_plane_id_policy, tb,
				 "the plane (MRC_A_PLANE) is required (or dump them all)");
	if (err)
		return err;
	if (!tb[MRC_PLANE_A_ID])
		return mrc_genl_missing(info->extack, info->attrs[MRC_A_PLANE],
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

/**
 * mrc_genl_plane_dump() - MRC_CMD_PLANE_GET dump: every plane.
 * @skb: the message to fill.
 * @cb: the dump's state.
 *
 * cb->args[0] is the next plane id.
 *
 * Return: the length of @skb (0 ends the dump).
 */
int mrc_genl_plane_dump(struct sk_buff *skb, struct netlink_callback *cb)
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

	hdr = mrc_genl_put_hdr(skb, portid, seq, flags, MRC_CMD_PATH_GET);
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
	struct mrc_cfg_path *p, *pos;
	struct in6_addr masked;
	struct list_head *at;
	struct mrc_plane *pl;
	struct nlattr *nest;
	int err;

	err = mrc_genl_parse_obj(info, MRC_A_PATH, MRC_PATH_A_MAX,
				 mrc_genl_path_policy, tb,
				 "the path (MRC_A_PATH) is required");
	if (err)
		return err;
	nest = info->attrs[MRC_A_PATH];
	if (!tb[MRC_PATH_A_ID])
		return mrc_genl_missing(extack, nest, MRC_PATH_A_ID,
					"path id is required");
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

/**
 * mrc_genl_path_set() - MRC_CMD_PATH_SET: change a path's weight or deny flag.
 * @skb: the request.
 * @info: its attributes, sender and extack.
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_path_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_PATH_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct mrc_cfg_notify n = {};
	struct mrc_cfg_path *old, *p;
	int err;

	err = mrc_genl_parse_obj(info, MRC_A_PATH, MRC_PATH_A_MAX,
				 mrc_genl_path_set_policy, tb,
				 "the path (MRC_A_PATH) is required");
	if (err)
		return err;
	if (!tb[MRC_PATH_A_ID])
		return mrc_genl_missing(info->extack, info->attrs[MRC_A_PATH],
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

/**
 * mrc_genl_path_del() - MRC_CMD_PATH_DEL: delete a path.
 * @skb: the request.
 * @info: its attributes, sender and extack.
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_path_del(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_PATH_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct mrc_cfg_path *p;
	int err;

	err = mrc_genl_parse_obj(info, MRC_A_PATH, MRC_PATH_A_MAX,
				 mrc_genl_path_id_policy, tb,
				 "the path (MRC_A_PATH) is required");
	if (err)
		return err;
	if (!tb[MRC_PATH_A_ID])
		return mrc_genl_missing(info->extack, info->attrs[MRC_A_PATH],
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

/**
 * mrc_genl_path_get() - MRC_CMD_PATH_GET: one path, by id.
 * @skb: the request.
 * @info: its attributes, sender and extack.
 *
 * Return: 0 (the reply is sent) or a negative errno.
 */
int mrc_genl_path_get(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_PATH_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct sk_buff *msg;
	struct mrc_cfg_path *p;
	int err;

	err = mrc_genl_parse_obj(info, MRC_A_PATH, MRC_PATH_A_MAX,
				 mrc_genl_path_id_policy, tb,
				 "the path (MRC_A_PATH) is required (or dump them all)");
	if (err)
		return err;
	if (!tb[MRC_PATH_A_ID])
		return mrc_genl_missing(info->extack, info->attrs[MRC_A_PATH],
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

/**
 * mrc_genl_path_dump() - MRC_CMD_PATH_GET dump: every path, by id.
 * @skb: the message to fill.
 * @cb: the dump's state.
 *
 * Return: the length of @skb (0 ends the dump).
 */
int mrc_genl_path_dump(struct sk_buff *skb, struct netlink_callback *cb)
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

	hdr = mrc_genl_put_hdr(skb, portid, seq, flags, MRC_CMD_POLICY_GET);
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
	struct mrc_policy_obj *po;
	struct nlattr *nest;
	int err;

	err = mrc_genl_parse_obj(info, MRC_A_POLICY, MRC_POLICY_A_MAX,
				 mrc_genl_policy_req_policy, tb,
				 "the policy (MRC_A_POLICY) is required");
	if (err)
		return err;
	nest = info->attrs[MRC_A_POLICY];
	if (!tb[MRC_POLICY_A_NAME])
		return mrc_genl_missing(extack, nest, MRC_POLICY_A_NAME,
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

/**
 * mrc_genl_policy_set() - MRC_CMD_POLICY_SET: change a failure policy.
 * @skb: the request.
 * @info: its attributes, sender and extack.
 *
 * Connections that use it take the new knobs.
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_policy_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_POLICY_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct netlink_ext_ack *extack = info->extack;
	struct mrc_policy_obj *old, *po;
	struct mrc_cfg_notify n = {};
	int err;

	err = mrc_genl_parse_obj(info, MRC_A_POLICY, MRC_POLICY_A_MAX,
				 mrc_genl_policy_req_policy, tb,
				 "the policy (MRC_A_POLICY) is required");
	if (err)
		return err;
	if (!tb[MRC_POLICY_A_NAME])
		return mrc_genl_missing(extack, info->attrs[MRC_A_POLICY],
					MRC_POLICY_A_NAME,
					"policy name is required");
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

/**
 * mrc_genl_policy_del() - MRC_CMD_POLICY_DEL: delete a failure policy.
 * @skb: the request.
 * @info: its attributes, sender and extack.
 *
 * Neither "default" nor the namespace's default policy can go.
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_policy_del(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_POLICY_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct netlink_ext_ack *extack = info->extack;
	struct mrc_cfg_notify n = {};
	struct mrc_policy_obj *po;
	int err;

	err = mrc_genl_parse_obj(info, MRC_A_POLICY, MRC_POLICY_A_MAX,
				 mrc_genl_policy_name_policy, tb,
				 "the policy (MRC_A_POLICY) is required");
	if (err)
		return err;
	if (!tb[MRC_POLICY_A_NAME])
		return mrc_genl_missing(extack, info->attrs[MRC_A_POLICY],
					MRC_POLICY_A_NAME,
					"policy name is required");
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

/**
 * mrc_genl_policy_get() - MRC_CMD_POLICY_GET: one failure policy, by name.
 * @skb: the request.
 * @info: its attributes, sender and extack.
 *
 * Return: 0 (the reply is sent) or a negative errno.
 */
int mrc_genl_policy_get(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_POLICY_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct mrc_policy_obj *po;
	struct sk_buff *msg;
	int err;

	err = mrc_genl_parse_obj(info, MRC_A_POLICY, MRC_POLICY_A_MAX,
				 mrc_genl_policy_name_policy, tb,
				 "the policy (MRC_A_POLICY) is required (or dump them all)");
	if (err)
		return err;
	if (!tb[MRC_POLICY_A_NAME])
		return mrc_genl_missing(info->extack, info->attrs[MRC_A_POLICY],
					MRC_POLICY_A_NAME,
					"policy name is required");
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

/**
 * mrc_genl_policy_dump() - MRC_CMD_POLICY_GET dump: every failure policy.
 * @skb: the message to fill.
 * @cb: the dump's state.
 *
 * Return: the length of @skb (0 ends the dump).
 */
int mrc_genl_policy_dump(struct sk_buff *skb, struct netlink_callback *cb)
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
