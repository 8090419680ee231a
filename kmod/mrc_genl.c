// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: generic netlink, the helpers every handler file shares
 * (see mrc_genl.h) and the commands of the namespace as a whole: INFO,
 * SETTINGS, STATS and PROBE.
 */
#include <linux/ctype.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/ipv6.h>

#include "mrc_genl.h"
#include "mrc_dp.h"
#include "mrc_endpoint.h"
#include "mrc_stats.h"
#include "mrc_udp.h"

/* ---- helpers ----------------------------------------------------------- */

/**
 * mrc_genl_validate_policy_name() - check a policy name in a request.
 * @attr: the name (NUL-terminated: the spec types it as a string).
 * @extack: the request's extack.
 *
 * The spec (Documentation/netlink/specs/mrc.yaml) names this validator for
 * every attribute that holds a policy name: 1..MRC_POLICY_NAME_LEN
 * characters of [a-zA-Z0-9_-], with a message that says which rule the
 * name breaks.
 *
 * Return: 0, or -EINVAL with an extack message.
 */
int mrc_genl_validate_policy_name(const struct nlattr *attr,
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

/**
 * mrc_genl_parse_obj() - parse the nested object of a request.
 * @info: the request.
 * @type: the object's attribute (MRC_A_*).
 * @maxtype: the object's highest attribute.
 * @pol: the object's policy (the request was validated against it by the
 *	generic netlink core: parsing again is cheap).
 * @tb: the object's attributes, @maxtype + 1 of them.
 * @missing: the extack message if the request has no object @type.
 *
 * Return: 0, or -EINVAL with an extack message.
 */
static int mrc_genl_parse_obj(struct genl_info *info, int type, int maxtype,
			      const struct nla_policy *pol, struct nlattr **tb,
			      const char *missing)
{
	if (!info->attrs[type]) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, type);
		mrc_genl_extack(info->extack, NULL, missing);
		return -EINVAL;
	}
	return nla_parse_nested(tb, maxtype, info->attrs[type], pol,
				info->extack);
}

/**
 * mrc_genl_missing() - a required attribute of a nested object is missing:
 *	say which.
 * @extack: the request's extack.
 * @nest: the nested object.
 * @type: the attribute missing from it.
 * @msg: the extack message.
 *
 * Return: -EINVAL.
 */
int mrc_genl_missing(struct netlink_ext_ack *extack, struct nlattr *nest,
		     int type, const char *msg)
{
	NL_SET_ERR_ATTR_MISS(extack, nest, type);
	mrc_genl_extack(extack, NULL, msg);
	return -EINVAL;
}

/**
 * mrc_genl_obj_parse() - parse the object of a request and check that it
 *	names one.
 * @info: the request.
 * @obj: the kind of object.
 * @pol: the nested policy of the command.
 * @tb: the object's attributes, @obj->maxtype + 1 of them.
 * @missing: the extack message if the request has no object.
 *
 * Return: 0, or -EINVAL with an extack message.
 */
int mrc_genl_obj_parse(struct genl_info *info, const struct mrc_genl_obj *obj,
		       const struct nla_policy *pol, struct nlattr **tb,
		       const char *missing)
{
	int err;

	/* @tb of the helpers below holds MRC_GENL_OBJ_MAXTYPE + 1. */
	if (WARN_ON_ONCE(obj->maxtype > MRC_GENL_OBJ_MAXTYPE))
		return -EINVAL;
	err = mrc_genl_parse_obj(info, obj->attr, obj->maxtype, pol, tb,
				 missing);
	if (err)
		return err;
	if (!tb[obj->key])
		return mrc_genl_missing(info->extack, info->attrs[obj->attr],
					obj->key, obj->key_missing);
	return 0;
}

/**
 * mrc_genl_obj_put() - add one object's message to a reply or a dump.
 * @ops: the kind of object.
 * @m: the message.
 * @mn: the namespace (for @ops->fill).
 * @obj: the object.
 *
 * Return: 0, or -EMSGSIZE when @m is full (nothing of @obj is left in it).
 */
static int mrc_genl_obj_put(const struct mrc_genl_obj *ops,
			    struct mrc_genl_msg *m, struct mrc_net *mn,
			    const void *obj)
{
	struct nlattr *nest;
	void *hdr;

	hdr = mrc_genl_put_hdr(m->skb, m->portid, m->seq, m->flags, ops->cmd);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(m->skb, ops->attr);
	if (!nest || ops->fill(m->skb, mn, obj)) {
		genlmsg_cancel(m->skb, hdr);
		return -EMSGSIZE;
	}
	nla_nest_end(m->skb, nest);
	genlmsg_end(m->skb, hdr);
	return 0;
}

/**
 * mrc_genl_obj_get() - the GET of one object, by its key (plane, path,
 *	policy, connection: mrc_genl_obj_of()).
 * @skb: the request.
 * @info: its attributes, sender and extack.
 *
 * Return: 0 (the reply is sent) or a negative errno.
 */
int mrc_genl_obj_get(struct sk_buff *skb, struct genl_info *info)
{
	const struct mrc_genl_obj *ops = mrc_genl_obj_of(info->genlhdr->cmd);
	struct nlattr *tb[MRC_GENL_OBJ_MAXTYPE + 1];
	struct net *net = genl_info_net(info);
	struct mrc_net *mn = mrc_net(net);
	struct mrc_genl_msg m = {
		.portid = info->snd_portid,
		.seq = info->snd_seq,
	};
	const struct nlattr *key;
	const void *obj;
	int err;

	if (WARN_ON_ONCE(!ops))
		return -EOPNOTSUPP;
	err = mrc_genl_obj_parse(info, ops, ops->key_policy, tb,
				 ops->missing_get);
	if (err)
		return err;
	key = tb[ops->key];
	/* Without a reply size, @get_key sizes the reply to the object. */
	if (ops->reply_size) {
		m.skb = genlmsg_new(ops->reply_size, GFP_KERNEL);
		if (!m.skb)
			return -ENOMEM;
	}
	if (ops->get_key) {
		err = ops->get_key(net, key, &m, info->extack);
	} else {
		mutex_lock(&mn->lock);
		obj = ops->find(mn, key);
		if (!obj) {
			mrc_genl_extack(info->extack, key, ops->not_found);
			err = -ENOENT;
		} else {
			err = mrc_genl_obj_put(ops, &m, mn, obj);
		}
		mutex_unlock(&mn->lock);
	}
	if (err) {
		nlmsg_free(m.skb);	/* NULL when @get_key failed to allocate */
		return err;
	}
	return genlmsg_reply(m.skb, info);
}

/**
 * mrc_genl_obj_dump() - the GET dump of every object of a kind (plane,
 *	path, policy: mrc_genl_obj_of()).
 * @skb: the message to fill.
 * @cb: the dump's state: cb->args[0] is the position to resume at.
 *
 * One message per object, as many as fit in @skb.
 *
 * Return: the length of @skb (0 ends the dump), or -EMSGSIZE with an
 * extack message when an object does not fit an empty message (none
 * comes near NLMSG_GOODSIZE; the dump must not end as if complete).
 */
int mrc_genl_obj_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct mrc_genl_obj *ops =
		mrc_genl_obj_of(genl_dumpit_info(cb)->op.cmd);
	struct mrc_net *mn = mrc_net(sock_net(skb->sk));
	struct mrc_genl_msg m = {
		.skb = skb,
		.portid = NETLINK_CB(cb->skb).portid,
		.seq = cb->nlh->nlmsg_seq,
		.flags = NLM_F_MULTI,
	};
	long pos = cb->args[0];
	const void *obj;

	if (WARN_ON_ONCE(!ops || !ops->from))
		return -EOPNOTSUPP;
	mutex_lock(&mn->lock);
	for (; (obj = ops->from(mn, &pos)); pos++)
		if (mrc_genl_obj_put(ops, &m, mn, obj))
			break;
	mutex_unlock(&mn->lock);
	cb->args[0] = pos;
	if (obj && !skb->len) {
		NL_SET_ERR_MSG(cb->extack, "an object is too large for a dump message");
		return -EMSGSIZE;
	}
	return skb->len;
}

/**
 * mrc_genl_obj_set() - the SET of one object, by its key (plane, path,
 *	policy: mrc_genl_obj_of()): a changed copy takes its place.
 * @skb: the request.
 * @info: its attributes, sender and extack.
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_obj_set(struct sk_buff *skb, struct genl_info *info)
{
	const struct mrc_genl_obj *ops = mrc_genl_obj_of(info->genlhdr->cmd);
	struct nlattr *tb[MRC_GENL_OBJ_MAXTYPE + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct nlattr *nest;
	void *old, *obj;
	int err;

	if (WARN_ON_ONCE(!ops || !ops->set))
		return -EOPNOTSUPP;
	err = mrc_genl_obj_parse(info, ops, ops->set_policy, tb, ops->missing);
	if (err)
		return err;
	nest = info->attrs[ops->attr];
	if (ops->check) {
		err = ops->check(nest, tb, info->extack);
		if (err)
			return err;
	}
	obj = kzalloc(ops->obj_size, GFP_KERNEL);
	if (!obj)
		return -ENOMEM;

	if (ops->set_rtnl)
		rtnl_lock();
	mutex_lock(&mn->lock);
	old = ops->find(mn, tb[ops->key]);
	if (!old) {
		mrc_genl_extack(info->extack, tb[ops->key], ops->not_found);
		err = -ENOENT;
	} else {
		memcpy(obj, old, ops->obj_size);
		err = ops->set(mn, old, obj, nest, tb, info->extack);
	}
	mutex_unlock(&mn->lock);
	if (ops->set_rtnl)
		rtnl_unlock();
	if (err)
		kfree(obj);
	return err;
}

/**
 * mrc_genl_obj_del() - the DEL of one object, by its key (plane, path,
 *	policy: mrc_genl_obj_of()).
 * @skb: the request.
 * @info: its attributes, sender and extack.
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_obj_del(struct sk_buff *skb, struct genl_info *info)
{
	const struct mrc_genl_obj *ops = mrc_genl_obj_of(info->genlhdr->cmd);
	struct nlattr *tb[MRC_GENL_OBJ_MAXTYPE + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	void *obj;
	int err;

	if (WARN_ON_ONCE(!ops || !ops->del))
		return -EOPNOTSUPP;
	err = mrc_genl_obj_parse(info, ops, ops->key_policy, tb, ops->missing);
	if (err)
		return err;
	mutex_lock(&mn->lock);
	obj = ops->find(mn, tb[ops->key]);
	if (!obj) {
		mrc_genl_extack(info->extack, tb[ops->key], ops->not_found);
		err = -ENOENT;
	} else {
		err = ops->del(mn, obj, tb[ops->key], info->extack);
	}
	mutex_unlock(&mn->lock);
	return err;
}

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

/**
 * mrc_genl_check_unicast() - check that a node address is unicast.
 * @attr: the address (source, uSID container, segment, probe target).
 * @role: what it is, to name it in the message.
 * @extack: the request's extack.
 *
 * Return: 0, or -EINVAL with a message that says why @attr is not unicast.
 */
int mrc_genl_check_unicast(struct nlattr *attr, enum mrc_genl_addr_role role,
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
	mrc_genl_extack(extack, attr, mrc_addr_msgs[role][why]);
	return -EINVAL;
}

/* ---- INFO -------------------------------------------------------------- */

/**
 * mrc_genl_info_get() - MRC_CMD_INFO_GET: the module and this namespace.
 * @skb: the request.
 * @info: its attributes, sender and extack.
 *
 * Return: 0 (the reply is sent) or a negative errno.
 */
int mrc_genl_info_get(struct sk_buff *skb, struct genl_info *info)
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
	    nla_put_u32(msg, MRC_A_INFO_IPPROTO, mrc_ipproto) ||
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

/* ---- settings ---------------------------------------------------------- */

/**
 * mrc_genl_settings_get() - MRC_CMD_SETTINGS_GET: the namespace settings.
 * @skb: the request.
 * @info: its attributes, sender and extack.
 *
 * Return: 0 (the reply is sent) or a negative errno.
 */
int mrc_genl_settings_get(struct sk_buff *skb, struct genl_info *info)
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

/**
 * mrc_genl_settings_set() - MRC_CMD_SETTINGS_SET: change the settings.
 * @skb: the request.
 * @info: its attributes, sender and extack.
 *
 * The UDP port can only change while the namespace has no MRC socket.
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_settings_set(struct sk_buff *skb, struct genl_info *info)
{
	bool port_changed = false;
	struct nlattr *tb[MRC_SETTINGS_A_MAX + 1];
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct netlink_ext_ack *extack = info->extack;
	struct mrc_policy_obj *def = NULL;
	int err;

	err = mrc_genl_parse_obj(info, MRC_A_SETTINGS, MRC_SETTINGS_A_MAX,
				 mrc_genl_settings_policy, tb,
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

/* ---- statistics and probes -------------------------------------------- */

/**
 * mrc_genl_stats_get() - MRC_CMD_STATS_GET: the namespace's MIB counters
 * and its time-to-recovery histogram.
 * @skb: the request.
 * @info: its attributes, sender and extack.
 *
 * Return: 0 (the reply is sent) or a negative errno.
 */
int mrc_genl_stats_get(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	struct nlattr *nest;
	unsigned int i;
	u64 *vals, *hist, sum_ns;
	void *hdr;
	int err = -EMSGSIZE;

	/* One allocation: the counters, then the TTR histogram. */
	vals = kcalloc(__MRC_MIB_MAX + MRC_TTR_BUCKETS, sizeof(*vals),
		       GFP_KERNEL);
	if (!vals)
		return -ENOMEM;
	hist = vals + __MRC_MIB_MAX;
	mrc_stats_fold(genl_info_net(info), vals);
	mrc_stats_fold_ttr(genl_info_net(info), hist, &sum_ns);
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
	/* Every bucket, empty ones too: the tools need not know the count. */
	nest = nla_nest_start(msg, MRC_A_STATS_TTR_HIST);
	if (!nest)
		goto fail;
	for (i = 0; i < MRC_TTR_BUCKETS; i++)
		if (nla_put_u64_64bit(msg, i + 1, hist[i], 0))
			goto fail;
	nla_nest_end(msg, nest);
	if (nla_put_u64_64bit(msg, MRC_A_STATS_TTR_SUM, sum_ns, MRC_A_PAD))
		goto fail;
	genlmsg_end(msg, hdr);
	kfree(vals);
	return genlmsg_reply(msg, info);
fail:
	kfree(vals);
	nlmsg_free(msg);
	return err;
}

/**
 * mrc_genl_probe() - MRC_CMD_PROBE: probe a node over one path.
 * @skb: the request.
 * @info: its attributes, sender and extack.
 *
 * Sleeps up to the request's timeout (one second by default).
 *
 * Return: 0 (the reply, an RTT or a timeout, is sent) or a negative errno.
 */
int mrc_genl_probe(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_PROBE_A_MAX + 1];
	struct netlink_ext_ack *extack = info->extack;
	struct net *net = genl_info_net(info);
	const struct in6_addr *dst;
	struct mrc_cfg_cand cand;
	struct socket *udp;
	struct nlattr *nest;
	struct sk_buff *msg;
	u32 timeout_ms = 1000;
	u64 rtt_ns = 0;
	void *hdr;
	int err;

	err = mrc_genl_parse_obj(info, MRC_A_PROBE, MRC_PROBE_A_MAX,
				 mrc_genl_probe_req_policy, tb,
				 "the probe (MRC_A_PROBE) is required");
	if (err)
		return err;
	if (!tb[MRC_PROBE_A_DST])
		return mrc_genl_missing(extack, info->attrs[MRC_A_PROBE],
					MRC_PROBE_A_DST,
					"probe destination is required");
	if (!tb[MRC_PROBE_A_PATH_ID])
		return mrc_genl_missing(extack, info->attrs[MRC_A_PROBE],
					MRC_PROBE_A_PATH_ID,
					"probe path id is required");
	err = mrc_genl_check_unicast(tb[MRC_PROBE_A_DST], MRC_ADDR_PROBE,
				     extack);
	if (err)
		return err;
	if (tb[MRC_PROBE_A_TIMEOUT_MS])
		timeout_ms = nla_get_u32(tb[MRC_PROBE_A_TIMEOUT_MS]);
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	dst = nla_data(tb[MRC_PROBE_A_DST]);
	err = mrc_ep_probe_path(net, dst, nla_get_u32(tb[MRC_PROBE_A_PATH_ID]),
				&cand, extack);
	if (!err) {
		/*
		 * The probe leaves through the namespace's tunnel socket and
		 * its answer comes back on it: open it, as a socket's bind()
		 * and connect() do, once the path is known to be usable.
		 */
		err = mrc_udp_get(net, &udp);
		if (err)
			NL_SET_ERR_MSG(extack, "cannot open the MRC UDP port");
	}
	/* Sleeps until the answer or the timeout: the family is parallel_ops. */
	if (!err)
		err = mrc_ep_probe(net, dst, &cand, timeout_ms, &rtt_ns, extack);
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
	    nla_put_in6_addr(msg, MRC_PROBE_A_DST, dst) ||
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
