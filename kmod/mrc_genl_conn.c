// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: generic netlink, connections (CONN_GET and its dump).
 * The connection list (mrc_conn_list.h) walks the sockets and describes
 * each connection; mrc_genl_conn_fill(), its visitor, puts the description into
 * the message.
 */
#include <net/genetlink.h>
#include <net/sock.h>

#include "mrc_genl.h"
#include "mrc_conn_list.h"

/* A connection's attributes (struct mrc_genl_obj::fill). */
static int mrc_genl_conn_attrs(struct sk_buff *skb, struct mrc_net *mn,
			       const void *obj)
{
	const struct mrc_nl_conn *ci = obj;
	struct nlattr *paths, *pn, *hist;
	unsigned int i;

	if (nla_put_u32(skb, MRC_CONN_A_ID, ci->id) ||
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
		return -EMSGSIZE;
	paths = nla_nest_start(skb, MRC_CONN_A_PATHS);
	if (!paths)
		return -EMSGSIZE;
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
		    nla_put_u32(skb, MRC_CPATH_A_SRTT, p->srtt_us) ||
		    nla_put_u64_64bit(skb, MRC_CPATH_A_TIMEOUTS, p->timeouts,
				      MRC_CPATH_A_PAD))
			return -EMSGSIZE;
		nla_nest_end(skb, pn);
	}
	nla_nest_end(skb, paths);
	hist = nla_nest_start(skb, MRC_CONN_A_TTR_HIST);
	if (!hist)
		return -EMSGSIZE;
	for (i = 0; i < MRC_TTR_BUCKETS; i++)
		if (ci->ttr_hist[i] &&
		    nla_put_u64_64bit(skb, i + 1, ci->ttr_hist[i], 0))
			return -EMSGSIZE;
	nla_nest_end(skb, hist);
	return 0;
}

static int mrc_genl_conn_key(struct net *net, const struct nlattr *key,
			     struct mrc_genl_msg *m,
			     struct netlink_ext_ack *extack);

const struct mrc_genl_obj mrc_genl_conn_obj = {
	.cmd = MRC_CMD_CONN_GET,
	.attr = MRC_A_CONN,
	.maxtype = MRC_CONN_A_MAX,
	.key = MRC_CONN_A_ID,
	.key_policy = mrc_genl_conn_filter_policy,
	.missing_get = "the connection (MRC_A_CONN) is required (or dump them all)",
	.key_missing = "connection id is required",
	.reply_size = NLMSG_GOODSIZE,
	.fill = mrc_genl_conn_attrs,
	.get_key = mrc_genl_conn_key,
};

/*
 * Put one connection into a CONN_GET message (@arg: struct mrc_genl_msg);
 * the visitor of mrc_conn_list_walk() and mrc_conn_list_snapshot(). Returns 0, or
 * -EMSGSIZE when the message is full (nothing of the connection is left
 * in it).
 */
static int mrc_genl_conn_fill(const struct mrc_nl_conn *ci, void *arg)
{
	return mrc_genl_obj_put(&mrc_genl_conn_obj, arg, NULL, ci);
}

/* CONN_GET of one connection: a snapshot of it, taken under its lock. */
static int mrc_genl_conn_key(struct net *net, const struct nlattr *key,
			     struct mrc_genl_msg *m,
			     struct netlink_ext_ack *extack)
{
	int err;

	err = mrc_conn_list_snapshot(net, nla_get_u32(key), mrc_genl_conn_fill, m);
	/* the lookup's: mrc_genl_conn_fill() fails with -EMSGSIZE only */
	if (err == -ENOENT)
		NL_SET_ERR_MSG(extack, "no connection with this id");
	return err;
}

/**
 * mrc_genl_conn_dump() - MRC_CMD_CONN_GET dump: connections a filter matches.
 * @skb: the message to fill.
 * @cb: the dump's state.
 *
 * The filter is the request's optional MRC_A_CONN.
 *
 * Return: the length of @skb (0 ends the dump), or a negative errno.
 */
int mrc_genl_conn_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *di = genl_dumpit_info(cb);
	struct nlattr *tb[MRC_CONN_A_MAX + 1];
	struct mrc_conn_filter f = {};
	struct nlattr *nest = di->attrs[MRC_A_CONN];
	struct mrc_genl_msg m = {
		.skb = skb,
		.portid = NETLINK_CB(cb->skb).portid,
		.seq = cb->nlh->nlmsg_seq,
		.flags = NLM_F_MULTI,
	};
	int err;

	if (nest) {
		if (nla_parse_nested(tb, MRC_CONN_A_MAX, nest,
				     mrc_genl_conn_filter_policy, NULL))
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
	/*
	 * A full message (-EMSGSIZE) is no error: cb->args is left at the
	 * connection that did not fit, where the next call resumes.
	 */
	err = mrc_conn_list_walk(sock_net(skb->sk), &f, cb->args, mrc_genl_conn_fill, &m);
	if (err && err != -EMSGSIZE)
		return err;
	return skb->len;
}
