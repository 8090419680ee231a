// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: the configuration of a namespace.
 *
 * Planes, paths and failure policies live in struct mrc_net, and their
 * lifecycle here: found, added, replaced by a changed copy, deleted, with
 * the counts, the notifier chain and RCU freeing that go with it. Writers
 * (the netlink commands in mrc_genl_cfg.c, which only translate requests
 * into these calls and their errors into messages; the netdev notifier
 * here) hold mrc_net::lock and publish with RCU; readers (the data path) look up and
 * copy under rcu_read_lock(). A plane follows its device through a netdev
 * notifier: its oper state is admin up and the device running with
 * carrier; every change emits an event and runs the configuration
 * notifier chain so live connections can react.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>

#include "mrc_kern.h"
#include "mrc_stats.h"
#include "mrc_events.h"
#include "core/mrc_evset.h"

/* Set while the module unregisters its netdev notifier (replayed events). */
static bool mrc_cfg_closing;

static bool mrc_dev_usable(const struct net_device *dev)
{
	return netif_running(dev) && netif_carrier_ok(dev);
}

static void mrc_cfg_notify(struct mrc_net *mn, enum mrc_cfg_event event,
			   struct mrc_cfg_notify *n);

/**
 * mrc_cfg_plane_set_oper() - change a plane's oper state, if it differs.
 * @mn: the namespace; caller holds mn->lock.
 * @pl: the plane.
 * @up: the new state.
 * @reason: enum mrc_plane_reason.
 *
 * Counts the transition, emits a plane event and runs the notifier chain.
 */
static void mrc_cfg_plane_set_oper(struct mrc_net *mn, struct mrc_plane *pl,
				   bool up, u8 reason)
{
	struct mrc_cfg_notify n = { .plane = pl->id, .reason = reason };

	lockdep_assert_held(&mn->lock);
	if (up == pl->oper_up)
		return;
	WRITE_ONCE(pl->oper_up, up);
	MRC_INC_STATS(mn->net, up ? MRC_MIB_PLANE_UP : MRC_MIB_PLANE_DOWN);
	mrc_event_plane(mn->net, up, pl->id, pl->ifindex, reason);
	mrc_cfg_notify(mn, up ? MRC_CFG_PLANE_UP : MRC_CFG_PLANE_DOWN, &n);
}

static void mrc_cfg_plane_refresh(struct mrc_net *mn, struct mrc_plane *pl,
				  const struct net_device *dev, u8 reason)
{
	mrc_cfg_plane_set_oper(mn, pl, pl->admin_up && dev && mrc_dev_usable(dev),
			       reason);
}

/**
 * mrc_cfg_plane_sync() - recompute a plane's oper state after a change.
 * @mn: the namespace; caller holds RTNL and mn->lock.
 * @pl: the plane.
 * @reason: enum mrc_plane_reason of an up/down transition.
 */
static void mrc_cfg_plane_sync(struct mrc_net *mn, struct mrc_plane *pl,
			       u8 reason)
{
	struct net_device *dev = NULL;

	ASSERT_RTNL();
	if (pl->ifindex)
		dev = __dev_get_by_index(mn->net, pl->ifindex);
	mrc_cfg_plane_refresh(mn, pl, dev, reason);
}

/**
 * mrc_cfg_notify() - run the configuration notifier chain.
 * @mn: the namespace; caller holds mn->lock.
 * @event: enum mrc_cfg_event.
 * @n: the data (its @net is filled in here).
 */
static void mrc_cfg_notify(struct mrc_net *mn, enum mrc_cfg_event event,
			   struct mrc_cfg_notify *n)
{
	lockdep_assert_held(&mn->lock);
	n->net = mn->net;
	blocking_notifier_call_chain(&mn->chain, event, n);
}

static int mrc_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct mrc_net *mn;
	unsigned int i;

	if (READ_ONCE(mrc_cfg_closing))
		return NOTIFY_DONE;
	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
	case NETDEV_UNREGISTER:
		break;
	default:
		return NOTIFY_DONE;
	}

	mn = mrc_net(dev_net(dev));
	mutex_lock(&mn->lock);
	for (i = 0; i <= MRC_PLANE_MAX; i++) {
		struct mrc_plane *pl = rcu_dereference_protected(mn->planes[i],
						lockdep_is_held(&mn->lock));

		if (!pl || pl->ifindex != dev->ifindex)
			continue;
		if (event == NETDEV_UNREGISTER) {
			/* Keep the plane, down, until it gets a device. */
			mrc_cfg_plane_refresh(mn, pl, NULL,
					      MRC_PLANE_R_DEVICE_GONE);
			WRITE_ONCE(pl->ifindex, 0);
		} else {
			/* A device being deleted is closed first. */
			mrc_cfg_plane_refresh(mn, pl, dev, dev->dismantle ?
					      MRC_PLANE_R_DEVICE_GONE :
					      MRC_PLANE_R_LINK);
		}
	}
	mutex_unlock(&mn->lock);
	return NOTIFY_DONE;
}

static struct notifier_block mrc_netdev_nb = {
	.notifier_call = mrc_netdev_event,
};

/* What a data-path user copies of path @p on plane @pl (RCU held). */
static void mrc_cfg_cand_fill(struct mrc_cfg_cand *c,
			      const struct mrc_cfg_path *p,
			      const struct mrc_plane *pl)
{
	c->path_id = p->id;
	c->plane = p->plane;
	c->ifindex = READ_ONCE(pl->ifindex);
	c->saddr = pl->saddr;
	c->mode = p->mode;
	c->nr_segs = p->nr_segs;
	c->entropy = p->entropy;
	c->weight = p->weight;
	c->prefix_len = p->dst_len;
	memcpy(c->segs, p->segs, sizeof(c->segs));
}

/* A path that matches the destination, and its plane, found under RCU. */
struct mrc_cfg_found {
	const struct mrc_cfg_path *p;
	const struct mrc_plane *pl;
};

/**
 * mrc_cfg_path_lookup() - the paths a new connection to @dst uses.
 * @net: the namespace.
 * @dst: the destination node address.
 * @cand: array filled with copies of the chosen paths.
 * @max: entries of @cand: the most paths the connection may take.
 * @seed: the connection's random seed (which paths of a plane it takes).
 *
 * Longest prefix match: of the longest configured prefix containing @dst
 * that has at least one usable path, every path that is not denied and
 * whose plane is oper up is a candidate. When there are more than @max,
 * mrc_evset_select() chooses: an equal share of @max per plane, a random
 * subset within a plane (by @seed and the paths' weights), never a whole
 * plane left out while @max is at least the number of planes. The result
 * is ordered by plane id then path id and is a snapshot (paths added while
 * it is taken may be left out).
 *
 * Context: process (allocates room for the namespace's paths, may sleep).
 * Return: the number of paths written (0: none configured or usable; use
 * the entropy fallback), at most @max; -ENOMEM.
 */
int mrc_cfg_path_lookup(struct net *net, const struct in6_addr *dst,
			struct mrc_cfg_cand *cand, unsigned int max, u64 seed)
{
	struct mrc_net *mn = mrc_net(net);
	struct mrc_evset_cand *ec = NULL;
	struct mrc_cfg_found *found = NULL;
	const struct mrc_cfg_path *p;
	unsigned int n = 0, cap, plane;
	int best = -1, k, i;
	u64 *sel = NULL;

	might_sleep();
	/* Room for every path of the namespace, counted before RCU. */
	cap = min_t(u32, READ_ONCE(mn->nr_paths), MRC_PATHS_MAX);
	if (!cap || !max)
		return 0;
	max = min(max, cap);
	found = kvmalloc_array(cap, sizeof(*found), GFP_KERNEL);
	ec = kvmalloc_array(cap, sizeof(*ec), GFP_KERNEL);
	sel = kvmalloc_array(max, sizeof(*sel), GFP_KERNEL);
	if (!found || !ec || !sel) {
		k = -ENOMEM;
		goto out_free;
	}

	rcu_read_lock();
	/* First pass: the longest prefix with a usable path. */
	list_for_each_entry_rcu(p, &mn->paths, list) {
		const struct mrc_plane *pl = rcu_dereference(mn->planes[p->plane]);

		if (p->deny || !pl || !READ_ONCE(pl->oper_up))
			continue;
		if (p->dst_len > best && ipv6_prefix_equal(&p->dst, dst, p->dst_len))
			best = p->dst_len;
	}
	/* Second pass, plane by plane: that prefix's usable paths. */
	for (plane = 0; best >= 0 && plane <= MRC_PLANE_MAX; plane++) {
		const struct mrc_plane *pl = rcu_dereference(mn->planes[plane]);

		if (!pl || !READ_ONCE(pl->oper_up))
			continue;
		list_for_each_entry_rcu(p, &mn->paths, list) {
			if (p->plane != plane || p->deny || p->dst_len != best ||
			    !ipv6_prefix_equal(&p->dst, dst, p->dst_len))
				continue;
			if (n >= cap)
				goto select;	/* added since counted */
			found[n].p = p;
			found[n].pl = pl;
			ec[n].path_id = p->id;
			ec[n].plane = plane;
			ec[n].weight = p->weight;
			ec[n].deny = false;
			n++;
		}
	}
select:
	/* Which of them, when they do not all fit. */
	k = mrc_evset_select(ec, n, max, seed, sel);
	for (i = 0; i < k; i++)
		mrc_cfg_cand_fill(&cand[i], found[sel[i]].p, found[sel[i]].pl);
	rcu_read_unlock();
out_free:
	kvfree(sel);
	kvfree(ec);
	kvfree(found);
	return k;
}

/**
 * mrc_cfg_ports_up() - which planes of the namespace are up, as the
 * port-status bitmap of SACKs and endpoint operations says it.
 * @net: the namespace.
 *
 * Context: any (RCU inside).
 * Return: bit i set when plane i exists and is operationally up.
 */
u32 mrc_cfg_ports_up(struct net *net)
{
	struct mrc_net *mn = mrc_net(net);
	u32 plane, mask = 0;

	rcu_read_lock();
	for (plane = 0; plane <= MRC_PLANE_MAX; plane++) {
		const struct mrc_plane *pl = rcu_dereference(mn->planes[plane]);

		if (pl && READ_ONCE(pl->oper_up))
			mask |= BIT(plane);
	}
	rcu_read_unlock();
	return mask;
}

/**
 * mrc_cfg_path_get() - one configured path, by id, for a probe.
 * @net: the namespace.
 * @id: the path id.
 * @cand: filled in; @cand->prefix_len is the path's prefix length and
 *	@dst receives its destination prefix.
 * @dst: the path's destination prefix.
 *
 * Context: any (RCU inside).
 * Return: 0, -ENOENT when there is no such path, -ENETDOWN when the path
 * is denied or its plane is missing or down.
 */
int mrc_cfg_path_get(struct net *net, u32 id, struct mrc_cfg_cand *cand,
		     struct in6_addr *dst)
{
	struct mrc_net *mn = mrc_net(net);
	const struct mrc_cfg_path *p;
	const struct mrc_plane *pl;
	int err = -ENOENT;

	rcu_read_lock();
	list_for_each_entry_rcu(p, &mn->paths, list) {
		if (p->id != id)
			continue;
		pl = rcu_dereference(mn->planes[p->plane]);
		err = -ENETDOWN;
		if (p->deny || !pl || !READ_ONCE(pl->oper_up))
			break;
		mrc_cfg_cand_fill(cand, p, pl);
		*dst = p->dst;
		err = 0;
		break;
	}
	rcu_read_unlock();
	return err;
}

/**
 * mrc_cfg_policy_find() - find a policy by name.
 * @mn: the namespace; caller holds mn->lock or rcu_read_lock().
 * @name: the name.
 *
 * Return: the policy or NULL.
 */
struct mrc_policy_obj *mrc_cfg_policy_find(struct mrc_net *mn, const char *name)
{
	struct mrc_policy_obj *po;

	list_for_each_entry_rcu(po, &mn->policies, list,
				lockdep_is_held(&mn->lock))
		if (!strcmp(po->name, name))
			return po;
	return NULL;
}

/* ---- the objects' lifecycle (writers hold mn->lock) --------------------- */

/**
 * mrc_cfg_plane_find() - find a plane by id.
 * @mn: the namespace; caller holds mn->lock.
 * @id: the plane id (any value: ids beyond MRC_PLANE_MAX find nothing).
 *
 * Return: the plane or NULL.
 */
struct mrc_plane *mrc_cfg_plane_find(struct mrc_net *mn, u32 id)
{
	if (id > MRC_PLANE_MAX)
		return NULL;
	return rcu_dereference_protected(mn->planes[id],
					 lockdep_is_held(&mn->lock));
}

/**
 * mrc_cfg_plane_from() - the plane of lowest id at or after a position.
 * @mn: the namespace; caller holds mn->lock.
 * @pos: the first id to look at; set to the plane's id when one is found.
 *
 * Return: the plane or NULL.
 */
struct mrc_plane *mrc_cfg_plane_from(struct mrc_net *mn, long *pos)
{
	struct mrc_plane *pl;
	long id;

	for (id = *pos; id >= 0 && id <= MRC_PLANE_MAX; id++) {
		pl = mrc_cfg_plane_find(mn, id);
		if (pl) {
			*pos = id;
			return pl;
		}
	}
	return NULL;
}

/**
 * mrc_cfg_plane_add() - publish a new plane.
 * @mn: the namespace; caller holds RTNL and mn->lock, and checked that no
 *	plane has @pl's id.
 * @pl: the plane, with its device; owned by the namespace from now on.
 *
 * The plane comes up now if its device can carry it.
 */
void mrc_cfg_plane_add(struct mrc_net *mn, struct mrc_plane *pl)
{
	lockdep_assert_held(&mn->lock);
	rcu_assign_pointer(mn->planes[pl->id], pl);
	mrc_cfg_plane_sync(mn, pl, MRC_PLANE_R_ADDED);
}

/**
 * mrc_cfg_plane_replace() - put a changed copy of a plane in its place.
 * @mn: the namespace; caller holds RTNL and mn->lock.
 * @old: the plane as it is; freed after readers are done.
 * @pl: its new version (same id); owned by the namespace from now on.
 * @moved: @pl has another device or source address than @old.
 *
 * Connections copied the old device and address: a moved plane goes down
 * (they move off it), then its new version comes up if it can.
 */
void mrc_cfg_plane_replace(struct mrc_net *mn, struct mrc_plane *old,
			   struct mrc_plane *pl, bool moved)
{
	u8 reason = moved ? MRC_PLANE_R_DEVICE_CHANGED : MRC_PLANE_R_ADMIN;

	lockdep_assert_held(&mn->lock);
	pl->oper_up = false;
	if (moved && old->oper_up)
		mrc_cfg_plane_set_oper(mn, old, false, reason);
	else
		pl->oper_up = old->oper_up;
	rcu_assign_pointer(mn->planes[pl->id], pl);
	kfree_rcu(old, rcu);
	mrc_cfg_plane_sync(mn, pl, reason);
}

/**
 * mrc_cfg_plane_del() - delete a plane and every path on it.
 * @mn: the namespace; caller holds mn->lock.
 * @pl: the plane; freed after readers are done.
 */
void mrc_cfg_plane_del(struct mrc_net *mn, struct mrc_plane *pl)
{
	struct mrc_cfg_notify n = { .plane = pl->id };
	struct mrc_cfg_path *p, *tmp;

	lockdep_assert_held(&mn->lock);
	list_for_each_entry_safe(p, tmp, &mn->paths, list)
		if (p->plane == pl->id)
			mrc_cfg_path_del(mn, p);
	if (pl->oper_up)
		mrc_cfg_plane_set_oper(mn, pl, false, MRC_PLANE_R_DELETED);
	mrc_cfg_notify(mn, MRC_CFG_PLANE_DEL, &n);
	RCU_INIT_POINTER(mn->planes[pl->id], NULL);
	kfree_rcu(pl, rcu);
}

/**
 * mrc_cfg_path_find() - find a path by id.
 * @mn: the namespace; caller holds mn->lock.
 * @id: the path id.
 *
 * Return: the path or NULL.
 */
struct mrc_cfg_path *mrc_cfg_path_find(struct mrc_net *mn, u32 id)
{
	struct mrc_cfg_path *p;

	list_for_each_entry(p, &mn->paths, list)
		if (p->id == id)
			return p;
	return NULL;
}

/**
 * mrc_cfg_path_from() - the path of lowest id at or after a position.
 * @mn: the namespace; caller holds mn->lock.
 * @pos: the first id to look at; set to the path's id when one is found.
 *
 * Return: the path or NULL.
 */
struct mrc_cfg_path *mrc_cfg_path_from(struct mrc_net *mn, long *pos)
{
	struct mrc_cfg_path *p;

	/* mn->paths is ordered by id. */
	list_for_each_entry(p, &mn->paths, list) {
		if (p->id >= *pos) {
			*pos = p->id;
			return p;
		}
	}
	return NULL;
}

/**
 * mrc_cfg_path_add() - publish a new path, in id order.
 * @mn: the namespace; caller holds mn->lock.
 * @p: the path, checked but for what depends on the namespace; owned by
 *	the namespace when this succeeds.
 *
 * Return: 0, -ENOENT (no plane with @p's plane id), -EEXIST (a path has
 * @p's id) or -ENOSPC (MRC_PATHS_MAX paths already).
 */
int mrc_cfg_path_add(struct mrc_net *mn, struct mrc_cfg_path *p)
{
	struct mrc_plane *pl = mrc_cfg_plane_find(mn, p->plane);
	struct mrc_cfg_path *pos;
	struct list_head *at;

	lockdep_assert_held(&mn->lock);
	if (!pl)
		return -ENOENT;
	if (mrc_cfg_path_find(mn, p->id))
		return -EEXIST;
	if (mn->nr_paths >= MRC_PATHS_MAX)
		return -ENOSPC;
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
	return 0;
}

/**
 * mrc_cfg_path_replace() - put a changed copy of a path in its place.
 * @mn: the namespace; caller holds mn->lock.
 * @old: the path as it is; freed after readers are done.
 * @p: its new version (same id, plane and route); owned by the namespace
 *	from now on.
 *
 * Connections learn of a change of the deny flag.
 */
void mrc_cfg_path_replace(struct mrc_net *mn, struct mrc_cfg_path *old,
			  struct mrc_cfg_path *p)
{
	struct mrc_cfg_notify n = { .plane = p->plane, .path = p->id };

	lockdep_assert_held(&mn->lock);
	list_replace_rcu(&old->list, &p->list);
	if (p->deny != old->deny)
		mrc_cfg_notify(mn, p->deny ? MRC_CFG_PATH_DENY :
				   MRC_CFG_PATH_ALLOW, &n);
	kfree_rcu(old, rcu);
}

/**
 * mrc_cfg_path_del() - delete a path.
 * @mn: the namespace; caller holds mn->lock.
 * @p: the path; connections move off it first; freed after readers are
 *	done.
 */
void mrc_cfg_path_del(struct mrc_net *mn, struct mrc_cfg_path *p)
{
	struct mrc_cfg_notify n = { .plane = p->plane, .path = p->id };
	struct mrc_plane *pl = mrc_cfg_plane_find(mn, p->plane);

	lockdep_assert_held(&mn->lock);
	mrc_cfg_notify(mn, MRC_CFG_PATH_DEL, &n);
	list_del_rcu(&p->list);
	mn->nr_paths--;
	if (pl)
		WRITE_ONCE(pl->nr_paths, pl->nr_paths - 1);
	kfree_rcu(p, rcu);
}

/**
 * mrc_cfg_policy_at() - a policy by its position in the namespace's list.
 * @mn: the namespace; caller holds mn->lock.
 * @pos: the position (0 is the first policy); unchanged.
 *
 * Return: the policy or NULL.
 */
struct mrc_policy_obj *mrc_cfg_policy_at(struct mrc_net *mn, long *pos)
{
	struct mrc_policy_obj *po;
	long i = 0;

	lockdep_assert_held(&mn->lock);
	list_for_each_entry(po, &mn->policies, list)
		if (i++ == *pos)
			return po;
	return NULL;
}

/**
 * mrc_cfg_policy_add() - add a failure policy.
 * @mn: the namespace; caller holds mn->lock.
 * @po: the policy, validated; owned by the namespace when this succeeds.
 *
 * Return: 0, -EEXIST (a policy has @po's name) or -ENOSPC
 * (MRC_POLICIES_MAX policies already).
 */
int mrc_cfg_policy_add(struct mrc_net *mn, struct mrc_policy_obj *po)
{
	lockdep_assert_held(&mn->lock);
	if (mrc_cfg_policy_find(mn, po->name))
		return -EEXIST;
	if (mn->nr_policies >= MRC_POLICIES_MAX)
		return -ENOSPC;
	list_add_tail_rcu(&po->list, &mn->policies);
	mn->nr_policies++;
	return 0;
}

/**
 * mrc_cfg_policy_replace() - put a changed copy of a policy in its place.
 * @mn: the namespace; caller holds mn->lock.
 * @old: the policy as it is; freed after readers are done.
 * @po: its new version (same name), validated; owned by the namespace from
 *	now on.
 *
 * Existing connections that use the policy take the new knobs.
 */
void mrc_cfg_policy_replace(struct mrc_net *mn, struct mrc_policy_obj *old,
			    struct mrc_policy_obj *po)
{
	struct mrc_cfg_notify n = { .policy = po->name };

	lockdep_assert_held(&mn->lock);
	list_replace_rcu(&old->list, &po->list);
	if (rcu_access_pointer(mn->def_policy) == old)
		rcu_assign_pointer(mn->def_policy, po);
	kfree_rcu(old, rcu);
	mrc_cfg_notify(mn, MRC_CFG_POLICY_CHANGE, &n);
}

/**
 * mrc_cfg_policy_del() - delete a failure policy.
 * @mn: the namespace; caller holds mn->lock.
 * @po: the policy; its users fall back to the default policy; freed after
 *	readers are done.
 *
 * Return: 0, or -EBUSY if @po is the namespace's default policy.
 */
int mrc_cfg_policy_del(struct mrc_net *mn, struct mrc_policy_obj *po)
{
	struct mrc_cfg_notify n = { .policy = po->name };

	lockdep_assert_held(&mn->lock);
	if (rcu_access_pointer(mn->def_policy) == po)
		return -EBUSY;
	mrc_cfg_notify(mn, MRC_CFG_POLICY_DEL, &n);
	list_del_rcu(&po->list);
	mn->nr_policies--;
	kfree_rcu(po, rcu);
	return 0;
}

/**
 * mrc_cfg_policy_get() - copy a failure policy.
 * @net: the namespace.
 * @name: the policy's name, or NULL for the namespace's default policy.
 * @out: receives the knobs.
 * @name_out: if not NULL, receives the policy's name
 *	(MRC_POLICY_NAME_LEN + 1 bytes).
 *
 * Safe in any context (RCU inside).
 *
 * Return: 0, or -ENOENT when no policy has that name.
 */
int mrc_cfg_policy_get(struct net *net, const char *name,
		       struct mrc_policy *out, char *name_out)
{
	struct mrc_net *mn = mrc_net(net);
	struct mrc_policy_obj *po;
	int err = 0;

	rcu_read_lock();
	po = name ? mrc_cfg_policy_find(mn, name) : rcu_dereference(mn->def_policy);
	if (po) {
		*out = po->p;
		if (name_out)
			strscpy(name_out, po->name, MRC_POLICY_NAME_LEN + 1);
	} else {
		err = -ENOENT;
	}
	rcu_read_unlock();
	return err;
}

/**
 * mrc_cfg_max_ev_set() - most EVs a connection's set may hold.
 * @net: the namespace.
 *
 * Return: the "max EV set size" setting.
 */
u32 mrc_cfg_max_ev_set(struct net *net)
{
	return READ_ONCE(mrc_net(net)->max_ev_set);
}

/**
 * mrc_cfg_register_notifier() - follow configuration changes.
 * @net: the namespace.
 * @nb: the callback; called with enum mrc_cfg_event and a
 *	struct mrc_cfg_notify, in process context with mrc_net::lock held.
 *
 * Return: 0 or a negative errno.
 */
int mrc_cfg_register_notifier(struct net *net, struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&mrc_net(net)->chain, nb);
}

/**
 * mrc_cfg_unregister_notifier() - stop following configuration changes.
 * @net: the namespace.
 * @nb: a callback given to mrc_cfg_register_notifier().
 *
 * Return: 0 or -ENOENT.
 */
int mrc_cfg_unregister_notifier(struct net *net, struct notifier_block *nb)
{
	return blocking_notifier_chain_unregister(&mrc_net(net)->chain, nb);
}

/**
 * mrc_cfg_net_init() - empty configuration of a new namespace.
 * @net: the namespace.
 *
 * The "default" policy (core defaults) is created and made the default.
 *
 * Return: 0 or -ENOMEM.
 */
int mrc_cfg_net_init(struct net *net)
{
	struct mrc_net *mn = mrc_net(net);
	struct mrc_policy_obj *po;

	INIT_LIST_HEAD(&mn->paths);
	INIT_LIST_HEAD(&mn->policies);
	BLOCKING_INIT_NOTIFIER_HEAD(&mn->chain);
	mn->max_ev_set = MRC_EV_SET_DEFAULT;

	po = kzalloc(sizeof(*po), GFP_KERNEL);
	if (!po)
		return -ENOMEM;
	strscpy(po->name, MRC_POLICY_DEFAULT_NAME, sizeof(po->name));
	mrc_policy_default(&po->p);
	list_add(&po->list, &mn->policies);
	mn->nr_policies = 1;
	strscpy(mn->default_policy, po->name, sizeof(mn->default_policy));
	RCU_INIT_POINTER(mn->def_policy, po);
	return 0;
}

/**
 * mrc_cfg_net_exit() - free a namespace's configuration.
 * @net: the namespace (no netlink command can reach it any more).
 */
void mrc_cfg_net_exit(struct net *net)
{
	struct mrc_net *mn = mrc_net(net);
	struct mrc_policy_obj *po, *ptmp;
	struct mrc_cfg_path *p, *tmp;
	unsigned int i;

	mutex_lock(&mn->lock);
	list_for_each_entry_safe(p, tmp, &mn->paths, list) {
		list_del_rcu(&p->list);
		kfree_rcu(p, rcu);
	}
	mn->nr_paths = 0;
	for (i = 0; i <= MRC_PLANE_MAX; i++) {
		struct mrc_plane *pl = rcu_dereference_protected(mn->planes[i],
						lockdep_is_held(&mn->lock));

		RCU_INIT_POINTER(mn->planes[i], NULL);
		if (pl)
			kfree_rcu(pl, rcu);
	}
	RCU_INIT_POINTER(mn->def_policy, NULL);
	list_for_each_entry_safe(po, ptmp, &mn->policies, list) {
		list_del_rcu(&po->list);
		kfree_rcu(po, rcu);
	}
	mn->nr_policies = 0;
	mutex_unlock(&mn->lock);
}

/**
 * mrc_cfg_init() - start following network devices.
 *
 * Return: 0 or a negative errno.
 */
int mrc_cfg_init(void)
{
	WRITE_ONCE(mrc_cfg_closing, false);
	return register_netdevice_notifier(&mrc_netdev_nb);
}

/**
 * mrc_cfg_exit() - stop following network devices.
 *
 * Unregistering replays DOWN/UNREGISTER for every device; planes are about
 * to be freed with their namespaces, so the replay is ignored.
 */
void mrc_cfg_exit(void)
{
	WRITE_ONCE(mrc_cfg_closing, true);
	unregister_netdevice_notifier(&mrc_netdev_nb);
}
