/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: what the files of the generic netlink family "mrc" share
 * (private to the module; the uapi is linux/mrc.h).
 *
 *   mrc_genl_spec.c  the policies, the operations table, the family,
 *                    generated from Documentation/netlink/specs/mrc.yaml
 *                    by scripts/mrc-nlgen.py (with mrc_genl_spec.h: the
 *                    nested policies and the handlers' prototypes)
 *   mrc_genl.c       the shared helpers; INFO, SETTINGS, STATS, PROBE
 *   mrc_genl_cfg.c   planes, paths, failure policies
 *   mrc_genl_conn.c  connections
 *
 * The generic netlink core has validated a request against its command's
 * policy (mrc_genl_spec.c) before a handler runs; a handler parses its
 * nested object again with the nested policy mrc_genl_spec.h declares.
 *
 * A change is validated completely before anything is applied, and
 * applied under mrc_net::lock (after RTNL for planes, whose device must
 * not vanish in between): a request either takes effect whole or not at
 * all. Documentation/object-model.md describes the objects.
 */
#ifndef _MRC_GENL_H
#define _MRC_GENL_H

#include <linux/netlink.h>
#include <net/genetlink.h>

#include "mrc_kern.h"
#include "mrc_genl_spec.h"

/* ---- helpers (mrc_genl.c) ---------------------------------------------- */

/**
 * mrc_genl_extack() - set an extack message chosen at run time.
 * @extack: the extack, or NULL.
 * @attr: the attribute to blame, or NULL to leave the one set (if any).
 * @msg: the message, a static string.
 *
 * NL_SET_ERR_MSG*() want a string literal; these messages are chosen at
 * run time (always static strings), so set the extack directly.
 */
static inline void mrc_genl_extack(struct netlink_ext_ack *extack,
				   const struct nlattr *attr, const char *msg)
{
	if (!extack)
		return;
	extack->_msg = msg;
	if (attr)
		extack->bad_attr = attr;
}

/**
 * mrc_genl_put_hdr() - start a message of the "mrc" family.
 * @skb: the message.
 * @portid: netlink port of the requester.
 * @seq: sequence number of the request.
 * @flags: NLM_F_MULTI in dumps, else 0.
 * @cmd: the command (MRC_CMD_*_GET).
 *
 * Return: the user header, or NULL if @skb is full.
 */
static inline void *mrc_genl_put_hdr(struct sk_buff *skb, u32 portid, u32 seq,
				     int flags, u8 cmd)
{
	return genlmsg_put(skb, portid, seq, &mrc_genl_family, flags, cmd);
}

int mrc_genl_missing(struct netlink_ext_ack *extack, struct nlattr *nest,
		     int type, const char *msg);

/**
 * struct mrc_genl_msg - a message being filled with objects.
 * @skb: the message.
 * @portid: netlink port of the requester.
 * @seq: sequence number of the request.
 * @flags: NLM_F_MULTI in dumps, else 0.
 */
struct mrc_genl_msg {
	struct sk_buff *skb;
	u32 portid;
	u32 seq;
	int flags;
};

/* The most nested attributes of an object struct mrc_genl_obj describes. */
#define MRC_GENL_OBJ_MAXTYPE	MRC_CONN_A_MAX

/**
 * struct mrc_genl_obj - what GET, its dump, SET and DEL do the same way for each
 *	kind of object (plane, path, policy, connection): the object's
 *	attributes, its messages, and callbacks for what differs. The spec
 *	names the commands the shared handlers serve (kernel-object), and
 *	mrc_genl_obj_of() (generated) finds their object by command.
 * @cmd: the command of replies (MRC_CMD_*_GET).
 * @attr: the object's top-level attribute (MRC_A_*).
 * @maxtype: its highest nested attribute (at most MRC_GENL_OBJ_MAXTYPE).
 * @key: the nested attribute that names one object (its id or name).
 * @key_policy: the nested policy of a request that names one object.
 * @missing: extack message of a request without the object.
 * @missing_get: the same for GET (which can dump instead).
 * @key_missing: extack message of an object without @key.
 * @not_found: extack message when no object has the key.
 * @reply_size: size of a GET reply; 0 when @get_key allocates the reply
 *	itself, sized to the object (a connection and its EVs).
 * @fill: put the object's attributes into @skb, inside its nest; nonzero
 *	(the message is full) cancels the object's message. Not with
 *	@get_key.
 * @find: the object @key names, or NULL; mrc_net::lock held.
 * @from: the first object at or after dump position *@pos, setting *@pos
 *	to its position, or NULL; mrc_net::lock held.
 * @del: delete @obj (@key names it) or say why not (0, or a negative
 *	errno with an extack message); mrc_net::lock held.
 * @get_key: instead of @find and @fill under mrc_net::lock, put the object
 *	@key names into @m by other means (connections are not
 *	configuration), allocating @m->skb when @reply_size is 0 (a reply
 *	of several messages: it sends all but the last, left in @m->skb);
 *	0 or a negative errno with an extack message.
 * @set_policy: the nested policy of SET.
 * @set_rtnl: SET holds RTNL too (a plane's new device must not vanish).
 * @obj_size: size of an object: SET changes a copy.
 * @check: checks of a SET request that need no state, or NULL; 0 or a
 *	negative errno with an extack message.
 * @set: apply the request's attributes @tb (its object: @nest) to @obj, a
 *	copy of @old, and put it in @old's place (mrc_cfg.c), or say why
 *	not (0, or a negative errno with an extack message; @obj is then
 *	freed); mrc_net::lock held.
 */
struct mrc_genl_obj {
	u8 cmd;
	int attr;
	int maxtype;
	int key;
	const struct nla_policy *key_policy;
	const char *missing;
	const char *missing_get;
	const char *key_missing;
	const char *not_found;
	size_t reply_size;
	int (*fill)(struct sk_buff *skb, struct mrc_net *mn, const void *obj);
	void *(*find)(struct mrc_net *mn, const struct nlattr *key);
	void *(*from)(struct mrc_net *mn, long *pos);
	int (*del)(struct mrc_net *mn, void *obj, const struct nlattr *key,
		   struct netlink_ext_ack *extack);
	int (*get_key)(struct net *net, const struct nlattr *key,
		       struct mrc_genl_msg *m, struct netlink_ext_ack *extack);
	const struct nla_policy *set_policy;
	bool set_rtnl;
	size_t obj_size;
	int (*check)(struct nlattr *nest, struct nlattr **tb,
		     struct netlink_ext_ack *extack);
	int (*set)(struct mrc_net *mn, void *old, void *obj, struct nlattr *nest,
		   struct nlattr **tb, struct netlink_ext_ack *extack);
};

int mrc_genl_obj_parse(struct genl_info *info, const struct mrc_genl_obj *obj,
		       const struct nla_policy *pol, struct nlattr **tb,
		       const char *missing);

/**
 * enum mrc_genl_addr_role - what a node address of a request is, for the
 *	messages of mrc_genl_check_unicast().
 * @MRC_ADDR_SADDR: a plane's source address.
 * @MRC_ADDR_USID: the uSID container of a usid path.
 * @MRC_ADDR_SEG: a segment of an srh path.
 * @MRC_ADDR_PROBE: the destination of a probe.
 */
enum mrc_genl_addr_role {
	MRC_ADDR_SADDR,
	MRC_ADDR_USID,
	MRC_ADDR_SEG,
	MRC_ADDR_PROBE,
};

int mrc_genl_check_unicast(struct nlattr *attr, enum mrc_genl_addr_role role,
			   struct netlink_ext_ack *extack);

#endif /* _MRC_GENL_H */
