/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: the configuration of a namespace (planes, paths, failure
 * policies, settings) as seen by the rest of the module (its statistics:
 * mrc_stats.h; its events: mrc_events.h). Documentation/object-model.md describes the objects; this
 * header is the kernel API the data path builds against.
 *
 * Readers (the data path, any context) use the RCU lookups below and get
 * copies; writers (netlink, the netdev notifier) hold mrc_net::lock and
 * replace objects with RCU. See the lock order in mrc_kern.h.
 */
#ifndef _MRC_CFG_H
#define _MRC_CFG_H

#include <linux/types.h>
#include <linux/in6.h>
#include <linux/list.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>

#include <linux/mrc.h>
#include "mrc_policy.h"

struct net;
struct mrc_net;

/** MRC_PATHS_MAX - most paths in one namespace. */
#define MRC_PATHS_MAX		4096
/** MRC_POLICIES_MAX - most failure policies in one namespace. */
#define MRC_POLICIES_MAX	64

/**
 * struct mrc_plane - a plane: a local device and a source address.
 * @rcu: frees the plane after readers are done.
 * @id: plane id, 0..MRC_PLANE_MAX.
 * @ifindex: the device; 0 once the device went away.
 * @saddr: source address of packets sent on the plane.
 * @admin_up: administrative state.
 * @oper_up: admin_up and the device running with carrier.
 * @nr_paths: paths configured on the plane.
 */
struct mrc_plane {
	struct rcu_head rcu;
	u32 id;
	int ifindex;
	struct in6_addr saddr;
	bool admin_up;
	bool oper_up;
	u32 nr_paths;
};

/**
 * struct mrc_cfg_path - a configured path (immutable once published; changes
 * replace it).
 * @list: entry of mrc_net::paths (RCU), ordered by id.
 * @rcu: frees the path after readers are done.
 * @id: path id.
 * @dst: destination prefix.
 * @dst_len: prefix length.
 * @plane: plane id.
 * @mode: enum mrc_fwd_mode.
 * @nr_segs: segments in @segs (srh: 1..MRC_SRH_MAX_SEGS; usid: 1, the
 *	container; entropy: 0).
 * @entropy: EVs the path stands for (entropy mode), else 1.
 * @weight: the path's relative chance of being among a connection's EVs
 *	when its plane has more paths than slots (mrc_evset_select()), 1..255.
 * @deny: taken out of service by the operator.
 * @segs: uSID container (usid) or segment list (srh), first segment first.
 */
struct mrc_cfg_path {
	struct list_head list;
	struct rcu_head rcu;
	u32 id;
	struct in6_addr dst;
	u8 dst_len;
	u32 plane;
	u8 mode;
	u8 nr_segs;
	u16 entropy;
	u8 weight;
	bool deny;
	struct in6_addr segs[MRC_SRH_MAX_SEGS];
};

/**
 * struct mrc_policy_obj - a named failure policy (replaced on change).
 * @list: entry of mrc_net::policies (RCU).
 * @rcu: frees the object after readers are done.
 * @name: NUL-terminated name.
 * @p: the knobs.
 */
struct mrc_policy_obj {
	struct list_head list;
	struct rcu_head rcu;
	char name[MRC_POLICY_NAME_LEN + 1];
	struct mrc_policy p;
};

/**
 * struct mrc_cfg_cand - what a connection copies of a path when it
 * builds its EV set (mrc_cfg_path_lookup()).
 * @path_id: configured path id.
 * @plane: plane id.
 * @ifindex: the plane's device.
 * @saddr: the plane's source address.
 * @mode: enum mrc_fwd_mode.
 * @nr_segs: valid entries of @segs.
 * @entropy: EVs the path stands for.
 * @weight: the path's relative chance in mrc_evset_select().
 * @prefix_len: length of the matched destination prefix.
 * @segs: uSID container (usid) or segment list (srh).
 */
struct mrc_cfg_cand {
	u32 path_id;
	u32 plane;
	int ifindex;
	struct in6_addr saddr;
	u8 mode;
	u8 nr_segs;
	u16 entropy;
	u8 weight;
	u8 prefix_len;
	struct in6_addr segs[MRC_SRH_MAX_SEGS];
};

/**
 * enum mrc_cfg_event - events of the per-namespace configuration notifier
 * chain (mrc_cfg_register_notifier()); the data argument is a
 * struct mrc_cfg_notify.
 * @MRC_CFG_PLANE_UP: a plane became usable (@plane).
 * @MRC_CFG_PLANE_DOWN: a plane became unusable (@plane, @reason).
 * @MRC_CFG_PLANE_DEL: a plane is being deleted (after its paths).
 * @MRC_CFG_PATH_DEL: a path is being deleted (@path, @plane).
 * @MRC_CFG_PATH_DENY: a path was denied (@path, @plane).
 * @MRC_CFG_PATH_ALLOW: a deny was lifted (@path, @plane).
 * @MRC_CFG_POLICY_CHANGE: a policy's knobs changed (@policy).
 * @MRC_CFG_POLICY_DEL: a policy is being deleted (@policy); users fall
 *	back to the default policy.
 */
enum mrc_cfg_event {
	MRC_CFG_PLANE_UP,
	MRC_CFG_PLANE_DOWN,
	MRC_CFG_PLANE_DEL,
	MRC_CFG_PATH_DEL,
	MRC_CFG_PATH_DENY,
	MRC_CFG_PATH_ALLOW,
	MRC_CFG_POLICY_CHANGE,
	MRC_CFG_POLICY_DEL,
};

/**
 * struct mrc_cfg_notify - data of a configuration notification.
 * @net: the namespace.
 * @plane: plane id (plane and path events).
 * @path: path id (path events).
 * @reason: enum mrc_plane_reason (plane events).
 * @policy: policy name (policy events).
 */
struct mrc_cfg_notify {
	struct net *net;
	u32 plane;
	u32 path;
	u8 reason;
	const char *policy;
};

/*
 * Configuration lookups for the data path (any context, RCU inside; the
 * path lookup: process context).
 */
int mrc_cfg_path_lookup(struct net *net, const struct in6_addr *dst,
			struct mrc_cfg_cand *cand, unsigned int max, u64 seed);
u32 mrc_cfg_ports_up(struct net *net);
int mrc_cfg_path_get(struct net *net, u32 id, struct mrc_cfg_cand *cand,
		     struct in6_addr *dst);
int mrc_cfg_policy_get(struct net *net, const char *name,
		       struct mrc_policy *out, char *name_out);
u32 mrc_cfg_max_ev_set(struct net *net);
int mrc_cfg_register_notifier(struct net *net, struct notifier_block *nb);
int mrc_cfg_unregister_notifier(struct net *net, struct notifier_block *nb);

/* Internal to the configuration code (mrc_cfg.c, mrc_genl*.c). */
int mrc_cfg_net_init(struct net *net);
void mrc_cfg_net_exit(struct net *net);
int mrc_cfg_init(void);
void mrc_cfg_exit(void);
struct mrc_policy_obj *mrc_cfg_policy_find(struct mrc_net *mn, const char *name);

/*
 * The objects' lifecycle (mrc_cfg.c), for netlink (mrc_genl_cfg.c): the
 * caller holds mrc_net::lock (and RTNL for a plane's add and replace)
 * across its checks and the change.
 */
struct mrc_plane *mrc_cfg_plane_find(struct mrc_net *mn, u32 id);
struct mrc_plane *mrc_cfg_plane_from(struct mrc_net *mn, long *pos);
void mrc_cfg_plane_add(struct mrc_net *mn, struct mrc_plane *pl);
void mrc_cfg_plane_replace(struct mrc_net *mn, struct mrc_plane *old,
			   struct mrc_plane *pl, bool moved);
void mrc_cfg_plane_del(struct mrc_net *mn, struct mrc_plane *pl);
struct mrc_cfg_path *mrc_cfg_path_find(struct mrc_net *mn, u32 id);
struct mrc_cfg_path *mrc_cfg_path_from(struct mrc_net *mn, long *pos);
int mrc_cfg_path_add(struct mrc_net *mn, struct mrc_cfg_path *p);
void mrc_cfg_path_replace(struct mrc_net *mn, struct mrc_cfg_path *old,
			  struct mrc_cfg_path *p);
void mrc_cfg_path_del(struct mrc_net *mn, struct mrc_cfg_path *p);
struct mrc_policy_obj *mrc_cfg_policy_at(struct mrc_net *mn, long *pos);
int mrc_cfg_policy_add(struct mrc_net *mn, struct mrc_policy_obj *po);
void mrc_cfg_policy_replace(struct mrc_net *mn, struct mrc_policy_obj *old,
			    struct mrc_policy_obj *po);
int mrc_cfg_policy_del(struct mrc_net *mn, struct mrc_policy_obj *po);

#endif /* _MRC_CFG_H */
