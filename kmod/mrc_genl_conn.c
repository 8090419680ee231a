// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: generic netlink, connections (CONN_GET and its dump).
 * The connection list (mrc_conn_list.h) walks the sockets and describes
 * each connection; the visitors here put the description into messages.
 *
 * A connection's EVs take about 112 bytes each: 29 KB at 256 EVs, 115 KB
 * at the 1024 a policy allows (MRC_POLICY_MAX_PATHS_MAX). No message
 * could hold them all: an attribute's length is 16 bits, so the
 * MRC_A_CONN nest ends below 64 KB (and nla_nest_end() would wrap its
 * length, not fail), while a dump's messages get a page to 32 KB. So a
 * connection whose EVs do not fit one message is split over several
 * (enum mrc_conn_attr): the first has every attribute, each next one
 * (a continuation) its id, MRC_CONN_A_PATHS_FROM and more EVs, at most
 * MRC_GENL_CONN_MSG_EVS a message. All come from one snapshot of the
 * connection, taken under its socket lock: a GET sends them together, a
 * dump holds the rest of a split connection (struct mrc_genl_conn_rest)
 * from one of its messages to the next. Readers (libmrc, the python
 * tests) append continuations to their connection.
 *
 * Sizing each message for the whole connection instead (a dump's
 * cb->min_dump_alloc, as rtnetlink sizes its link dumps) would end at
 * about 580 EVs, by the nest's 16-bit length, and cost a 128 KB
 * allocation per message of every dump in a namespace holding one wide
 * connection.
 */
#include <linux/overflow.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include "mrc_genl.h"
#include "mrc_conn_list.h"

/*
 * Most EVs in one message: about 15 KB (an order-2 allocation for a GET's
 * message), far from what the MRC_A_CONN nest's 16-bit length allows.
 */
#define MRC_GENL_CONN_MSG_EVS	128U

/* A connection's attributes but its id and EVs (its first message). */
static int mrc_genl_conn_attrs(struct sk_buff *skb, const struct mrc_nl_conn *ci)
{
	struct nlattr *hist;
	unsigned int i;

	if (nla_put_in6_addr(skb, MRC_CONN_A_LOCAL_ADDR, &ci->laddr) ||
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
			      MRC_CONN_A_PAD) ||
	    nla_put_u32(skb, MRC_CONN_A_NR_PATHS, ci->nr_paths))
		return -EMSGSIZE;
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

/* One EV (MRC_CONN_A_PATH); nothing of it is left in @skb on -EMSGSIZE. */
static int mrc_genl_conn_path(struct sk_buff *skb,
			      const struct mrc_nl_conn_path *p)
{
	struct nlattr *pn;

	pn = nla_nest_start(skb, MRC_CONN_A_PATH);
	if (!pn)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_CPATH_A_EV, p->ev) ||
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
			      MRC_CPATH_A_PAD)) {
		nla_nest_cancel(skb, pn);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, pn);
	return 0;
}

/*
 * Room for one message of a connection holding @n EVs, its first (@first:
 * every attribute) or a continuation (its id and MRC_CONN_A_PATHS_FROM):
 * what mrc_genl_conn_put() puts, counted the same way (change them
 * together). Only a GET's messages are sized by it; one it undercounts
 * would hold fewer EVs, and the next message the rest.
 */
static size_t mrc_genl_conn_size(bool first, u32 n)
{
	size_t path = nla_total_size(0) +			/* MRC_CONN_A_PATH */
		      3 * nla_total_size(sizeof(u32)) +		/* EV, PLANE, PATH_ID */
		      2 * nla_total_size(sizeof(u8)) +		/* STATE, REASON */
		      nla_total_size(sizeof(u32)) +		/* SRTT */
		      5 * nla_total_size_64bit(sizeof(u64));	/* packets, TIMEOUTS */
	size_t size = nla_total_size(0) +			/* MRC_A_CONN */
		      nla_total_size(sizeof(u32)) +		/* ID */
		      nla_total_size(0) + n * path;		/* PATHS */

	if (!first)
		return size + nla_total_size(sizeof(u32));	/* PATHS_FROM */
	return size +
	       2 * nla_total_size(sizeof(struct in6_addr)) +	/* addresses */
	       2 * nla_total_size(sizeof(u16)) +		/* ports */
	       2 * nla_total_size(sizeof(u8)) +			/* TYPE, STATE */
	       2 * nla_total_size(sizeof(u32)) +		/* QPNs */
	       nla_total_size(MRC_POLICY_NAME_LEN + 1) +	/* POLICY */
	       4 * nla_total_size(sizeof(u32)) +		/* SRTT, RTO, CWND, INFLIGHT */
	       5 * nla_total_size(sizeof(u32)) +		/* PATHS_<state> */
	       8 * nla_total_size_64bit(sizeof(u64)) +		/* RETX_*, TTR_*, BYTES_* */
	       nla_total_size(sizeof(u32)) +			/* NR_PATHS */
	       nla_total_size(0) +				/* TTR_HIST */
	       MRC_TTR_BUCKETS * nla_total_size_64bit(sizeof(u64));
}

/*
 * Put one message of connection @ci into @m: its first (*@from is 0) or a
 * continuation from EV *@from on, with as many EVs as fit, at most
 * MRC_GENL_CONN_MSG_EVS, and at least one unless none is left. *@from
 * advances past the EVs put. Returns 0 once the last EV is in, else
 * -EMSGSIZE (*@from unchanged: the message did not fit, nothing of it is
 * left in @m).
 */
static int mrc_genl_conn_put(struct mrc_genl_msg *m,
			     const struct mrc_nl_conn *ci, u32 *from)
{
	u32 i = *from, end = min(ci->nr_paths, *from + MRC_GENL_CONN_MSG_EVS);
	struct sk_buff *skb = m->skb;
	struct nlattr *nest, *paths;
	void *hdr;

	hdr = mrc_genl_put_hdr(skb, m->portid, m->seq, m->flags, MRC_CMD_CONN_GET);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, MRC_A_CONN);
	if (!nest || nla_put_u32(skb, MRC_CONN_A_ID, ci->id) ||
	    (i ? nla_put_u32(skb, MRC_CONN_A_PATHS_FROM, i) :
		 mrc_genl_conn_attrs(skb, ci)))
		goto cancel;
	paths = nla_nest_start(skb, MRC_CONN_A_PATHS);
	if (!paths)
		goto cancel;
	while (i < end && !mrc_genl_conn_path(skb, &ci->paths[i]))
		i++;
	if (i == *from && i < ci->nr_paths)
		goto cancel;
	nla_nest_end(skb, paths);
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	*from = i;
	return i < ci->nr_paths ? -EMSGSIZE : 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * Connection @ci from EV *@from on, in as many messages as fit in @m.
 * Returns 0 once its last EV is in, else -EMSGSIZE (*@from: the first EV
 * left out).
 */
static int mrc_genl_conn_put_all(struct mrc_genl_msg *m,
				 const struct mrc_nl_conn *ci, u32 *from)
{
	u32 before;
	int err;

	do {
		before = *from;
		err = mrc_genl_conn_put(m, ci, from);
	} while (err && *from != before);
	return err;
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
	/* 0: mrc_genl_conn_reply() sizes the messages to the connection */
	.reply_size = 0,
	.get_key = mrc_genl_conn_key,
};

/**
 * struct mrc_genl_conn_get - the reply of a CONN_GET of one connection.
 * @m: its messages; m->skb receives the last one.
 * @net: the namespace of the requester, to send the others to.
 */
struct mrc_genl_conn_get {
	struct mrc_genl_msg *m;
	struct net *net;
};

/*
 * The reply of a CONN_GET of one connection (@arg: struct
 * mrc_genl_conn_get), each message sized to its EVs; the visitor of
 * mrc_conn_list_snapshot(). Sends every message but the last, which it
 * leaves in m->skb for mrc_genl_obj_get(). Returns 0 or a negative errno.
 */
static int mrc_genl_conn_reply(const struct mrc_nl_conn *ci, void *arg)
{
	struct mrc_genl_conn_get *g = arg;
	struct mrc_genl_msg *m = g->m;
	u32 from = 0, before, n;
	int err;

	for (;;) {
		before = from;
		n = min(ci->nr_paths - from, MRC_GENL_CONN_MSG_EVS);
		m->skb = genlmsg_new(mrc_genl_conn_size(!from, n), GFP_KERNEL);
		if (!m->skb)
			return -ENOMEM;
		err = mrc_genl_conn_put(m, ci, &from);
		if (!err)
			return 0;
		/* A message sized for EVs holds at least one. */
		if (WARN_ON_ONCE(from == before))
			return -EMSGSIZE;
		err = genlmsg_unicast(g->net, m->skb, m->portid);
		m->skb = NULL;
		if (err)
			return err;
	}
}

/* CONN_GET of one connection: a snapshot of it, taken under its lock. */
static int mrc_genl_conn_key(struct net *net, const struct nlattr *key,
			     struct mrc_genl_msg *m,
			     struct netlink_ext_ack *extack)
{
	struct mrc_genl_conn_get g = { .m = m, .net = net };
	int err;

	err = mrc_conn_list_snapshot(net, nla_get_u32(key), mrc_genl_conn_reply, &g);
	if (err == -ENOENT)
		NL_SET_ERR_MSG(extack, "no connection with this id");
	return err;
}

/**
 * struct mrc_genl_conn_rest - a connection a dump split: its snapshot, and
 *	the EVs still to send.
 * @ci: the connection (@ci.paths is @paths).
 * @from: the first EV not sent yet.
 * @paths: every EV of the connection.
 */
struct mrc_genl_conn_rest {
	struct mrc_nl_conn ci;
	u32 from;
	struct mrc_nl_conn_path paths[];
};

/**
 * struct mrc_genl_conn_dump_ctx - a CONN_GET dump's state, in cb->ctx.
 * @pos: where mrc_conn_list_walk() resumes.
 * @rest: the connection split at the end of the last message, or NULL.
 */
struct mrc_genl_conn_dump_ctx {
	long pos[2];
	struct mrc_genl_conn_rest *rest;
};

static_assert(sizeof(struct mrc_genl_conn_dump_ctx) <=
	      sizeof_field(struct netlink_callback, ctx));

/**
 * struct mrc_genl_conn_walk - what a dump's visitor fills.
 * @m: the message.
 * @rest: where a connection split goes (the dump's @rest).
 */
struct mrc_genl_conn_walk {
	struct mrc_genl_msg m;
	struct mrc_genl_conn_rest **rest;
};

/*
 * Put one connection into a dump's message (@arg: struct
 * mrc_genl_conn_walk); the visitor of mrc_conn_list_walk(). Returns 0
 * when it is in whole; -EMSGSIZE when it does not fit what is left of the
 * message (nothing of it is left: the next message starts with it); 1
 * when it was split, its first EVs in this message (which it began) and
 * the rest held for the next ones; or -ENOMEM.
 */
static int mrc_genl_conn_fill(const struct mrc_nl_conn *ci, void *arg)
{
	struct mrc_genl_conn_walk *w = arg;
	struct sk_buff *skb = w->m.skb;
	unsigned char *mark = skb_tail_pointer(skb);
	struct mrc_genl_conn_rest *rest;
	bool fresh = !skb->len;
	u32 from = 0;

	if (!mrc_genl_conn_put_all(&w->m, ci, &from))
		return 0;
	/* Only a connection that does not fit a message of its own is split. */
	if (!fresh || !from) {
		nlmsg_trim(skb, mark);
		return -EMSGSIZE;
	}
	rest = kvmalloc(struct_size(rest, paths, ci->nr_paths), GFP_KERNEL);
	if (!rest) {
		nlmsg_trim(skb, mark);
		return -ENOMEM;
	}
	rest->ci = *ci;
	memcpy(rest->paths, ci->paths, flex_array_size(rest, paths, ci->nr_paths));
	rest->ci.paths = rest->paths;
	rest->from = from;
	*w->rest = rest;
	return 1;
}

/**
 * mrc_genl_conn_dump() - MRC_CMD_CONN_GET dump: connections a filter matches.
 * @skb: the message to fill.
 * @cb: the dump's state.
 *
 * The filter is the request's optional MRC_A_CONN. A message begins with
 * what is left of a connection split at the end of the one before.
 *
 * Return: the length of @skb (0 ends the dump), or a negative errno.
 */
int mrc_genl_conn_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct mrc_genl_conn_dump_ctx *ctx = (void *)cb->ctx;
	const struct genl_dumpit_info *di = genl_dumpit_info(cb);
	struct nlattr *tb[MRC_CONN_A_MAX + 1];
	struct mrc_conn_filter f = {};
	struct nlattr *nest = di->attrs[MRC_A_CONN];
	struct mrc_genl_conn_walk w = {
		.m = {
			.skb = skb,
			.portid = NETLINK_CB(cb->skb).portid,
			.seq = cb->nlh->nlmsg_seq,
			.flags = NLM_F_MULTI,
		},
		.rest = &ctx->rest,
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
	 * A full message (-EMSGSIZE) is no error: the rest of a split
	 * connection waits in ctx->rest, and ctx->pos is left at the
	 * connection that did not fit, where the next call resumes. But not
	 * an empty one: its length, 0, would end the dump as if complete.
	 */
	if (ctx->rest &&
	    mrc_genl_conn_put_all(&w.m, &ctx->rest->ci, &ctx->rest->from)) {
		err = -EMSGSIZE;
	} else {
		kvfree(ctx->rest);	/* sent whole, or none */
		ctx->rest = NULL;
		err = mrc_conn_list_walk(sock_net(skb->sk), &f, ctx->pos,
					 mrc_genl_conn_fill, &w);
	}
	if (err == -EMSGSIZE && !skb->len) {
		NL_SET_ERR_MSG(cb->extack, "a connection does not fit a dump message");
		return -EMSGSIZE;
	}
	if (err < 0 && err != -EMSGSIZE)
		return err;
	return skb->len;
}

/**
 * mrc_genl_conn_dump_done() - MRC_CMD_CONN_GET dump: release its state.
 * @cb: the dump's state.
 *
 * Called when the dump ends, complete or failed, or its socket closes
 * under it: frees the rest of a split connection, if any.
 *
 * Return: 0.
 */
int mrc_genl_conn_dump_done(struct netlink_callback *cb)
{
	struct mrc_genl_conn_dump_ctx *ctx = (void *)cb->ctx;

	kvfree(ctx->rest);
	ctx->rest = NULL;
	return 0;
}
