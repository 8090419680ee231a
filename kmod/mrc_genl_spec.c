// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: the generic netlink family "mrc", as the kernel sees it:
 * its attribute policies, its operations, its multicast group. The
 * handlers are in mrc_genl.c, mrc_genl_cfg.c and mrc_genl_conn.c; the
 * nested policies they parse their object with again (mrc_genl_*_policy)
 * are declared in mrc_genl.h.
 *
 * Every operation is validated strictly (resv_start_op covers all of
 * them): unknown attributes, attributes a command does not take, and
 * trailing bytes are rejected with an extack message. Each command has its
 * own policy, down to the nested objects, so a DEL cannot carry the
 * fields of an ADD. Commands that change state require CAP_NET_ADMIN in
 * the caller's network namespace (GENL_UNS_ADMIN_PERM).
 */
#include <linux/ctype.h>
#include <linux/if.h>
#include <linux/module.h>
#include <net/genetlink.h>

#include "mrc_genl.h"

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

const struct nla_policy mrc_genl_plane_policy[MRC_PLANE_A_MAX + 1] = {
	[MRC_PLANE_A_ID] = NLA_POLICY_MAX(NLA_U32, MRC_PLANE_MAX),
	[MRC_PLANE_A_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[MRC_PLANE_A_IFNAME] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
	[MRC_PLANE_A_SADDR] = MRC_IN6_POLICY,
	[MRC_PLANE_A_ADMIN] = NLA_POLICY_MAX(NLA_U8, MRC_PLANE_ADMIN_UP),
};

const struct nla_policy mrc_genl_plane_id_policy[MRC_PLANE_A_MAX + 1] = {
	[MRC_PLANE_A_ID] = NLA_POLICY_MAX(NLA_U32, MRC_PLANE_MAX),
};

static const struct nla_policy mrc_plane_nl_policy[MRC_A_MAX + 1] = {
	[MRC_A_PLANE] = NLA_POLICY_NESTED(mrc_genl_plane_policy),
};

static const struct nla_policy mrc_plane_id_nl_policy[MRC_A_MAX + 1] = {
	[MRC_A_PLANE] = NLA_POLICY_NESTED(mrc_genl_plane_id_policy),
};

static const struct nla_policy mrc_seg_policy[MRC_SEG_A_MAX + 1] = {
	[MRC_SEG_A_ADDR] = MRC_IN6_POLICY,
};

const struct nla_policy mrc_genl_path_policy[MRC_PATH_A_MAX + 1] = {
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

const struct nla_policy mrc_genl_path_set_policy[MRC_PATH_A_MAX + 1] = {
	[MRC_PATH_A_ID] = { .type = NLA_U32 },
	[MRC_PATH_A_WEIGHT] = NLA_POLICY_MIN(NLA_U8, 1),
	[MRC_PATH_A_DENY] = NLA_POLICY_MAX(NLA_U8, 1),
};

const struct nla_policy mrc_genl_path_id_policy[MRC_PATH_A_MAX + 1] = {
	[MRC_PATH_A_ID] = { .type = NLA_U32 },
};

static const struct nla_policy mrc_path_nl_policy[MRC_A_MAX + 1] = {
	[MRC_A_PATH] = NLA_POLICY_NESTED(mrc_genl_path_policy),
};

static const struct nla_policy mrc_path_set_nl_policy[MRC_A_MAX + 1] = {
	[MRC_A_PATH] = NLA_POLICY_NESTED(mrc_genl_path_set_policy),
};

static const struct nla_policy mrc_path_id_nl_policy[MRC_A_MAX + 1] = {
	[MRC_A_PATH] = NLA_POLICY_NESTED(mrc_genl_path_id_policy),
};

/*
 * The knobs are only typed here: their ranges (some relative to each
 * other) are the protocol core's, checked by mrc_policy_validate() on the
 * complete policy, whose message names the field.
 */
const struct nla_policy mrc_genl_policy_policy[MRC_POLICY_A_MAX + 1] = {
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

const struct nla_policy mrc_genl_policy_name_policy[MRC_POLICY_A_MAX + 1] = {
	[MRC_POLICY_A_NAME] = MRC_POLICY_NAME_POLICY,
};

static const struct nla_policy mrc_policy_nl_policy[MRC_A_MAX + 1] = {
	[MRC_A_POLICY] = NLA_POLICY_NESTED(mrc_genl_policy_policy),
};

static const struct nla_policy mrc_policy_name_nl_policy[MRC_A_MAX + 1] = {
	[MRC_A_POLICY] = NLA_POLICY_NESTED(mrc_genl_policy_name_policy),
};

const struct nla_policy mrc_genl_settings_policy[MRC_SETTINGS_A_MAX + 1] = {
	[MRC_SETTINGS_A_UDP_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[MRC_SETTINGS_A_DEFAULT_POLICY] = MRC_POLICY_NAME_POLICY,
	[MRC_SETTINGS_A_MAX_EV_SET] = NLA_POLICY_RANGE(NLA_U32, 1,
						       MRC_EV_SET_MAX),
};

static const struct nla_policy mrc_settings_nl_policy[MRC_A_MAX + 1] = {
	[MRC_A_SETTINGS] = NLA_POLICY_NESTED(mrc_genl_settings_policy),
};

const struct nla_policy mrc_genl_conn_filter_policy[MRC_CONN_A_MAX + 1] = {
	[MRC_CONN_A_ID] = { .type = NLA_U32 },
	[MRC_CONN_A_LOCAL_ADDR] = MRC_IN6_POLICY,
	[MRC_CONN_A_REMOTE_ADDR] = MRC_IN6_POLICY,
	[MRC_CONN_A_LOCAL_PORT] = { .type = NLA_U16 },
	[MRC_CONN_A_REMOTE_PORT] = { .type = NLA_U16 },
	[MRC_CONN_A_STATE] = NLA_POLICY_MAX(NLA_U8, __MRC_CONN_STATE_MAX - 1),
};

static const struct nla_policy mrc_conn_nl_policy[MRC_A_MAX + 1] = {
	[MRC_A_CONN] = NLA_POLICY_NESTED(mrc_genl_conn_filter_policy),
};

/* Not const: 6.1's struct nla_policy points to it without const. */
static struct netlink_range_validation mrc_probe_timeout_range = {
	.min = 1,
	.max = MRC_PROBE_TIMEOUT_MAX_MS,
};

const struct nla_policy mrc_genl_probe_policy[MRC_PROBE_A_MAX + 1] = {
	[MRC_PROBE_A_DST] = MRC_IN6_POLICY,
	[MRC_PROBE_A_PATH_ID] = { .type = NLA_U32 },
	[MRC_PROBE_A_TIMEOUT_MS] = NLA_POLICY_FULL_RANGE(NLA_U32,
						&mrc_probe_timeout_range),
};

static const struct nla_policy mrc_probe_nl_policy[MRC_A_MAX + 1] = {
	[MRC_A_PROBE] = NLA_POLICY_NESTED(mrc_genl_probe_policy),
};

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
