// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: packet input.
 *
 * The UDP tunnel hands every packet here in softirq. Validation happens
 * before any state is touched: the headers must decode (every field
 * checked by the core's decoder), the destination QPN must name a socket
 * whose peer address is the packet's source, and the engine then checks
 * the R_Key, the PSN window and the credit. A socket that a process owns
 * gets the packet through its backlog.
 */
#include <linux/ipv6.h>
#include <net/inet_ecn.h>
#include <net/ipv6.h>
#include <net/udp.h>

#include "mrc_endpoint.h"
#include "mrc_handshake.h"
#include "mrc_conn_glue.h"
#include "mrc_input.h"
#include "mrc_sk.h"
#include "mrc_table.h"
#include "mrc_stats.h"

/* Every header of any packet, so the decoder sees them linear. */
#define MRC_INPUT_PULL	(MRC_BTH_LEN + 64)

static int mrc_input_decode(struct net *net, struct sk_buff *skb,
			    struct mrc_pkt *pkt)
{
	int err;

	if (!pskb_may_pull(skb, min_t(u32, skb->len, MRC_INPUT_PULL)))
		return -EINVAL;
	/* The decoder reads headers only, never the (maybe paged) payload. */
	err = mrc_pkt_decode(skb->data, skb->len, pkt);
	if (err) {
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_MALFORMED);
		net_dbg_ratelimited("mrc: malformed packet: %s\n",
				    mrc_wire_err_name(err));
	}
	return err;
}

/* A decoded packet for a socket, with its lock held. */
static void mrc_input_pkt(struct mrc_sock *msk, struct sk_buff *skb,
			  const struct mrc_pkt *pkt)
{
	if (pkt->bth.dest_qpn == MRC_QPN_CM && pkt->type == MRC_PKT_CM) {
		mrc_hs_input_locked(msk, pkt);
		kfree_skb(skb);
		return;
	}
	/* The first packet from the peer answers our CM_RTU. */
	if (mrc_hs_peer_pkt(msk, pkt)) {
		kfree_skb(skb);
		return;
	}
	/* Data, control and RESET: the engine's. */
	mrc_hs_verdict(msk, mrc_glue_input(msk, skb, pkt));
}

/**
 * mrc_input_locked() - a packet from the socket's backlog: it waited
 * undecoded (a struct mrc_pkt does not fit the skb's cb), so it is decoded
 * again here, once more than a packet processed at once.
 * @msk: the socket (processing its backlog).
 * @skb: the packet, data at the MRC header; consumed.
 */
void mrc_input_locked(struct mrc_sock *msk, struct sk_buff *skb)
{
	struct mrc_pkt pkt;

	if (mrc_input_decode(sock_net(&msk->sk), skb, &pkt)) {
		kfree_skb(skb);
		return;
	}
	mrc_input_pkt(msk, skb, &pkt);
}

/*
 * Hand a decoded packet to the socket its QPN named (softirq): only from
 * the socket's peer; processed at once, or queued to the backlog when a
 * process owns the socket. Drops the caller's reference on @msk.
 */
static void mrc_input_deliver(struct mrc_sock *msk, struct sk_buff *skb,
			      const struct mrc_pkt *pkt)
{
	struct sock *sk = &msk->sk;
	struct net *net = sock_net(sk);

	if (!ipv6_addr_equal(&ipv6_hdr(skb)->saddr, &msk->daddr)) {
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_NO_CONN);
		kfree_skb(skb);
		goto out;
	}
	bh_lock_sock(sk);
	if (!sock_owned_by_user(sk)) {
		mrc_input_pkt(msk, skb, pkt);
	} else if (sk_add_backlog(sk, skb, READ_ONCE(sk->sk_rcvbuf) +
				  READ_ONCE(sk->sk_sndbuf))) {
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_NOMEM);
		kfree_skb(skb);
	}
	bh_unlock_sock(sk);
out:
	sock_put(sk);
}

/**
 * mrc_input() - entry point from the UDP tunnel socket (softirq).
 * @net: namespace of the tunnel.
 * @skb: the packet with the UDP checksum verified, data at the UDP header;
 *	consumed.
 */
void mrc_input(struct net *net, struct sk_buff *skb)
{
	const struct ipv6hdr *ip6h = ipv6_hdr(skb);
	struct mrc_skb_cb *cb = MRC_SKB_CB(skb);
	struct mrc_sock *msk;
	struct mrc_pkt pkt;

	memset(cb, 0, sizeof(*cb));
	cb->ev16 = ntohs(udp_hdr(skb)->source);
	cb->ecn_ce = INET_ECN_is_ce(ipv6_get_dsfield(ip6h));
	__skb_pull(skb, sizeof(struct udphdr));
	MRC_INC_STATS(net, MRC_MIB_IN_PKTS);
	MRC_ADD_STATS(net, MRC_MIB_IN_BYTES, skb->len);

	if (mrc_input_decode(net, skb, &pkt))
		goto drop;

	if (pkt.bth.dest_qpn == MRC_QPN_CM) {
		msk = mrc_hs_input(net, skb, &pkt);
		if (msk)
			mrc_input_deliver(msk, skb, &pkt);
		return;
	}
	if (pkt.bth.dest_qpn == MRC_QPN_ENDPOINT) {
		mrc_ep_input(net, skb, &pkt);
		return;
	}
	if (pkt.bth.dest_qpn < MRC_QPN_FIRST_DYNAMIC) {
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_NO_CONN);
		goto drop;
	}
	msk = mrc_table_lookup_qpn(net, pkt.bth.dest_qpn);
	if (!msk) {
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_NO_CONN);
		mrc_hs_reset_unknown(net, skb, &pkt);
		goto drop;
	}
	mrc_input_deliver(msk, skb, &pkt);
	return;
drop:
	kfree_skb(skb);
}
