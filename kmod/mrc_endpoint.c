// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: endpoint operations on reserved QPN 2.
 *
 * Endpoint operations belong to a host, not to a connection
 * (Documentation/wire-format.md, "Endpoint operations"):
 *
 *   EV_PROBE            MRC_CMD_PROBE sends an ENDPOINT_REQUEST along one
 *                       configured path; the peer's module answers with an
 *                       ENDPOINT_RESPONSE echoing the request's id and
 *                       timestamp, and the caller gets the round-trip time.
 *   PORT_STATUS_UPDATE  when a local plane goes down or comes back, every
 *                       peer of a live connection hears of it at once,
 *                       without waiting for the next SACK (which carries
 *                       the same bitmap).
 *
 * Requests are answered or applied within a per-namespace rate limit: an
 * answer is larger than the request, so unlimited answers would make any
 * host running MRC a reflector. A response counts only when it matches a
 * waiting probe by id, source address and the 64-bit timestamp we sent,
 * so a forged response must guess that timestamp.
 */
#include <linux/completion.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <net/ipv6.h>

#include "mrc_conn_glue.h"
#include "mrc_handshake.h"
#include "mrc_endpoint.h"
#include "mrc_output.h"
#include "mrc_sk.h"
#include "mrc_stats.h"

/**
 * struct mrc_ep_probe - an EV probe waiting for its answer.
 * @node: entry of mrc_dp_net::ep_probes.
 * @dst: the probed address; the answer must come from it.
 * @tx_time: our clock when the request left (ns); echoed by the answer.
 * @rtt_ns: the round-trip time, set when answered.
 * @req_id: the request's identifier.
 * @done: completed by the answer.
 */
struct mrc_ep_probe {
	struct list_head node;
	struct in6_addr dst;
	u64 tx_time;
	u64 rtt_ns;
	u16 req_id;
	struct completion done;
};

/**
 * mrc_ep_net_init() - endpoint state of a new namespace.
 * @dn: the namespace's data-path state.
 */
void mrc_ep_net_init(struct mrc_dp_net *dn)
{
	spin_lock_init(&dn->ep_lock);
	INIT_LIST_HEAD(&dn->ep_probes);
	ratelimit_state_init(&dn->ep_rl, HZ, MRC_EP_RATE_PER_SEC);
	ratelimit_set_flags(&dn->ep_rl, RATELIMIT_MSG_ON_RELEASE);
}

/* Answer an EV probe along the routing table, reflecting its EV. */
static void mrc_ep_answer(struct net *net, struct sk_buff *skb,
			  const struct mrc_ep_req *req, u64 rx_time)
{
	u32 ev = MRC_SKB_CB(skb)->ev;
	struct mrc_pkt pkt = {};
	struct mrc_flow fl;

	pkt.type = MRC_PKT_EP_RESP;
	pkt.bth.opcode = MRC_OP_EP_RESPONSE;
	pkt.bth.pkey = MRC_PKEY_DEFAULT;
	pkt.bth.dest_qpn = MRC_QPN_ENDPOINT;
	pkt.u.ep_resp.op = MRC_EP_EV_PROBE;
	pkt.u.ep_resp.req_id = req->req_id;
	pkt.u.ep_resp.port_status = mrc_cfg_ports_up(net);
	pkt.u.ep_resp.req_tx_time = req->tx_time;
	pkt.u.ep_resp.rx_time = rx_time;
	pkt.u.ep_resp.entropy = ev;
	pkt.u.ep_resp.tx_time = ktime_get_ns();
	mrc_flow_reply(net, skb, &fl);
	if (!mrc_send_hdr_pkt(net, &pkt, NULL, &fl, 0, 0))
		MRC_INC_STATS(net, MRC_MIB_OUT_PKTS);
}

/* Try to apply a peer's port status to one socket (RCU held). */
static bool mrc_ep_ports_one(struct mrc_sock *msk, u32 mask)
{
	struct sock *sk = &msk->sk;
	bool applied = true;

	bh_lock_sock(sk);
	if (!sock_owned_by_user(sk)) {
		applied = mrc_glue_peer_ports(msk, mask);
		if (applied)
			mrc_hs_verdict(msk, mrc_glue_push(msk));
	} else {
		/* Applied by release_cb; the newest update wins. */
		WRITE_ONCE(msk->peer_ports_pending, mask);
		set_bit(MRC_DEFER_PEER_PORTS, &msk->deferred);
	}
	bh_unlock_sock(sk);
	return applied;
}

/* Every connection whose peer is @peer learns its port status. */
static void mrc_ep_port_status(struct net *net, const struct in6_addr *peer,
			       u32 mask)
{
	struct mrc_dp_net *dn = mrc_dp_net(net);
	struct mrc_sock *msk;
	u32 applied = 0;
	int bkt;

	rcu_read_lock();
	hash_for_each_rcu(dn->qpn_tbl, bkt, msk, qpn_node) {
		if (!ipv6_addr_equal(&msk->daddr, peer) ||
		    !refcount_inc_not_zero(&msk->sk.sk_refcnt))
			continue;
		applied += mrc_ep_ports_one(msk, mask);
		sock_put(&msk->sk);
	}
	rcu_read_unlock();
	if (applied)
		MRC_ADD_STATS(net, MRC_MIB_PORT_STATUS_RECV, applied);
	else
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_NO_CONN);
}

/* An answer to one of our probes: wake its caller. */
static void mrc_ep_response(struct net *net, struct sk_buff *skb,
			    const struct mrc_ep_resp *resp)
{
	struct mrc_dp_net *dn = mrc_dp_net(net);
	const struct in6_addr *src = &ipv6_hdr(skb)->saddr;
	u64 now = ktime_get_ns();
	struct mrc_ep_probe *pr;
	bool found = false;

	spin_lock(&dn->ep_lock);
	list_for_each_entry(pr, &dn->ep_probes, node) {
		if (pr->req_id != resp->req_id || pr->tx_time != resp->req_tx_time ||
		    !ipv6_addr_equal(&pr->dst, src))
			continue;
		pr->rtt_ns = max_t(u64, now - pr->tx_time, 1);
		list_del_init(&pr->node);
		complete(&pr->done);
		found = true;
		break;
	}
	spin_unlock(&dn->ep_lock);
	if (!found)
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_NO_CONN);
}

/**
 * mrc_ep_input() - a packet for reserved QPN 2 (softirq).
 * @net: the namespace.
 * @skb: the packet, data at the MRC header; consumed.
 * @pkt: its decoded headers (validated by the decoder: the opcode is an
 *	endpoint operation, the operation is known).
 */
void mrc_ep_input(struct net *net, struct sk_buff *skb,
		  const struct mrc_pkt *pkt)
{
	u64 rx_time = ktime_get_ns();

	switch (pkt->type) {
	case MRC_PKT_EP_REQ:
		MRC_INC_STATS(net, MRC_MIB_EP_REQ_RECV);
		if (!__ratelimit(&mrc_dp_net(net)->ep_rl)) {
			MRC_INC_STATS(net, MRC_MIB_EP_DROP_RATELIMIT);
			break;
		}
		if (pkt->u.ep_req.op == MRC_EP_EV_PROBE)
			mrc_ep_answer(net, skb, &pkt->u.ep_req, rx_time);
		else
			mrc_ep_port_status(net, &ipv6_hdr(skb)->saddr,
					   pkt->u.ep_req.port_status);
		break;
	case MRC_PKT_EP_RESP:
		if (pkt->u.ep_resp.op == MRC_EP_EV_PROBE)
			mrc_ep_response(net, skb, &pkt->u.ep_resp);
		else
			MRC_INC_STATS(net, MRC_MIB_IN_DROP_NO_CONN);
		break;
	default:
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_MALFORMED);
		break;
	}
	kfree_skb(skb);
}

/* The local address a probe to @dst comes from, as connect() picks it. */
static int mrc_ep_saddr(struct net *net, const struct in6_addr *dst,
			struct in6_addr *saddr)
{
	struct flowi6 fl6 = {
		.daddr = *dst,
		.flowi6_proto = IPPROTO_UDP,
	};
	struct dst_entry *de;

	if (ip6_dst_lookup(net, NULL, &de, &fl6))
		return -ENETUNREACH;
	dst_release(de);
	*saddr = fl6.saddr;
	return 0;
}

/* Send the request of @pr along @cand. */
static int mrc_ep_send_probe(struct net *net, struct mrc_ep_probe *pr,
			     const struct mrc_cfg_cand *cand)
{
	struct mrc_route rt = {};
	struct mrc_pkt pkt = {};
	struct mrc_flow fl = {};
	u32 ev = get_random_u32();
	int err;

	err = mrc_ep_saddr(net, &pr->dst, &fl.saddr);
	if (err)
		return err;
	rt.mode = cand->mode;
	rt.nsegs = cand->nr_segs;
	rt.ifindex = cand->ifindex;
	rt.outer_saddr = cand->saddr;
	rt.path_id = cand->path_id;
	memcpy(rt.segs, cand->segs, sizeof(rt.segs));
	fl.daddr = pr->dst;
	fl.sport = mrc_ev_sport(ev);
	fl.dport = READ_ONCE(mrc_dp_net(net)->udp_port);
	fl.flowlabel = mrc_ev_flowlabel(ev);

	pkt.type = MRC_PKT_EP_REQ;
	pkt.bth.opcode = MRC_OP_EP_REQUEST;
	pkt.bth.pkey = MRC_PKEY_DEFAULT;
	pkt.bth.dest_qpn = MRC_QPN_ENDPOINT;
	pkt.u.ep_req.op = MRC_EP_EV_PROBE;
	pkt.u.ep_req.req_id = pr->req_id;
	pkt.u.ep_req.port_status = mrc_cfg_ports_up(net);
	pkt.u.ep_req.tx_time = pr->tx_time;
	err = mrc_send_hdr_pkt(net, &pkt, &rt, &fl, 0, 0);
	if (!err) {
		MRC_INC_STATS(net, MRC_MIB_OUT_PKTS);
		MRC_INC_STATS(net, MRC_MIB_EP_PROBES_SENT);
	}
	return err;
}

/**
 * mrc_ep_probe_path() - the configured path an EV probe to @dst takes.
 * @net: the namespace.
 * @dst: the host to probe.
 * @path_id: the configured path.
 * @cand: filled in: the path, for mrc_ep_probe().
 * @extack: where to say what is wrong.
 *
 * Context: any (RCU inside).
 * Return: 0, or a negative errno: -ENOENT no such path, -ENETDOWN the path
 * is unusable, -EINVAL @dst is outside the path's prefix.
 */
int mrc_ep_probe_path(struct net *net, const struct in6_addr *dst,
		      u32 path_id, struct mrc_cfg_cand *cand,
		      struct netlink_ext_ack *extack)
{
	struct in6_addr prefix;
	int err;

	err = mrc_cfg_path_get(net, path_id, cand, &prefix);
	if (err == -ENOENT) {
		NL_SET_ERR_MSG(extack, "no path with this id");
		return err;
	}
	if (err) {
		NL_SET_ERR_MSG(extack, "the path is denied or its plane is down");
		return err;
	}
	if (!ipv6_prefix_equal(&prefix, dst, cand->prefix_len)) {
		NL_SET_ERR_MSG(extack,
			       "probe destination is outside the path's prefix");
		return -EINVAL;
	}
	return 0;
}

/**
 * mrc_ep_probe() - send an EV probe along one configured path and wait
 * for the answer.
 * @net: the namespace.
 * @dst: the host to probe (inside the path's destination prefix).
 * @cand: the path (mrc_ep_probe_path()).
 * @timeout_ms: how long to wait.
 * @rtt_ns: the round-trip time; 0 when the probe timed out.
 * @extack: where to say what is wrong.
 *
 * The endpoint, like the other senders (connection glue, handshake), does
 * not open the namespace's tunnel socket: its caller has (mrc_udp_get()),
 * because the request leaves through it and the answer comes back on it.
 *
 * Context: process; sleeps up to @timeout_ms (interruptibly).
 * Return: 0 (answered, or timed out with *@rtt_ns 0), or a negative errno:
 * -ENOMEM, -EINTR, or why the request could not be sent (-ENETUNREACH no
 * source address, -ENETDOWN no tunnel socket, ...).
 */
int mrc_ep_probe(struct net *net, const struct in6_addr *dst,
		 const struct mrc_cfg_cand *cand, u32 timeout_ms, u64 *rtt_ns,
		 struct netlink_ext_ack *extack)
{
	struct mrc_dp_net *dn = mrc_dp_net(net);
	struct mrc_ep_probe *pr;
	long left;
	int err;

	pr = kzalloc(sizeof(*pr), GFP_KERNEL);
	if (!pr)
		return -ENOMEM;
	pr->dst = *dst;
	pr->req_id = get_random_u16();
	init_completion(&pr->done);

	spin_lock_bh(&dn->ep_lock);
	pr->tx_time = ktime_get_ns();
	list_add(&pr->node, &dn->ep_probes);
	spin_unlock_bh(&dn->ep_lock);

	err = mrc_ep_send_probe(net, pr, cand);
	if (err) {
		NL_SET_ERR_MSG(extack, "the probe could not be sent");
		left = 0;
	} else {
		long to = msecs_to_jiffies(timeout_ms);

		left = wait_for_completion_interruptible_timeout(&pr->done, to);
	}

	spin_lock_bh(&dn->ep_lock);
	list_del(&pr->node);	/* a no-op once answered (list_del_init) */
	*rtt_ns = pr->rtt_ns;
	spin_unlock_bh(&dn->ep_lock);
	kfree(pr);

	if (err)
		return err;
	if (*rtt_ns) {
		MRC_INC_STATS(net, MRC_MIB_EP_PROBES_ANSWERED);
		return 0;
	}
	if (left < 0)
		return -EINTR;
	MRC_INC_STATS(net, MRC_MIB_EP_PROBES_TIMEOUT);
	return 0;
}
