// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: building packets and handing them to the encapsulation.
 */
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <net/inet_ecn.h>
#include <net/sock.h>

#include "mrc_output.h"
#include "mrc_sk.h"

/**
 * mrc_alloc_skb() - allocate a packet with room for every header.
 * @len: bytes of MRC headers and payload to follow.
 * @gfp: allocation flags.
 *
 * Return: an empty skb whose headroom fits the largest encapsulation, or
 * NULL.
 */
struct sk_buff *mrc_alloc_skb(u32 len, gfp_t gfp)
{
	struct sk_buff *skb;

	skb = alloc_skb(MRC_ENCAP_HEADROOM + len, gfp);
	if (skb)
		skb_reserve(skb, MRC_ENCAP_HEADROOM);
	return skb;
}

/**
 * mrc_xmit() - send a finished MRC packet on a path.
 * @net: namespace.
 * @skb: the packet (MRC headers at skb->data); always consumed.
 * @rt: the path; NULL means entropy mode over the routing table.
 * @fl: addresses, ports, flow label, traffic class.
 * @mark: routing mark.
 * @priority: skb priority.
 *
 * Context: any; does not sleep.
 * Return: 0 or a negative errno, as mrc_encap_xmit() (-ENETDOWN while the
 * namespace has no tunnel socket).
 */
int mrc_xmit(struct net *net, struct sk_buff *skb, const struct mrc_route *rt,
	     const struct mrc_flow *fl, u32 mark, u32 priority)
{
	static const struct mrc_route table_route = { .mode = MRC_FWD_ENTROPY };
	struct socket *sock;
	int err;

	rcu_read_lock();
	sock = rcu_dereference(mrc_dp_net(net)->udp_sock);
	if (!sock) {
		rcu_read_unlock();
		kfree_skb(skb);
		return -ENETDOWN;
	}
	err = mrc_encap_xmit(net, sock->sk, mark, priority, skb,
			     rt ? rt : &table_route, fl);
	rcu_read_unlock();
	return err;
}

/**
 * mrc_send_hdr_pkt() - encode a header-only packet and send it.
 * @net: namespace.
 * @pkt: the packet (SACK, NACK, probe, CM, RESET, endpoint operation).
 * @rt: the path, or NULL for the routing table.
 * @fl: the inner header.
 * @mark: routing mark.
 * @priority: skb priority.
 *
 * Context: any; does not sleep.
 * Return: 0 or a negative errno, as mrc_xmit() (-ENOMEM: no packet).
 */
int mrc_send_hdr_pkt(struct net *net, const struct mrc_pkt *pkt,
		     const struct mrc_route *rt, const struct mrc_flow *fl,
		     u32 mark, u32 priority)
{
	/* a padded path probe is as large as a data packet */
	u32 size = max_t(u32, mrc_pkt_encoded_size(pkt), MRC_PKT_HDR_MAX_ANY);
	struct sk_buff *skb;
	int len;

	skb = mrc_alloc_skb(size, GFP_ATOMIC);
	if (!skb)
		return -ENOMEM;
	len = mrc_pkt_encode(pkt, skb_tail_pointer(skb), size);
	if (len < 0) {
		kfree_skb(skb);
		return -EINVAL;
	}
	skb_put(skb, len);
	return mrc_xmit(net, skb, rt, fl, mark, priority);
}

/**
 * mrc_flow_reply() - the inner header of a stateless answer to a received
 * packet: back to its source, on the EV it came on.
 * @net: the namespace.
 * @skb: the received packet.
 * @fl: filled in (DSCP 0).
 */
void mrc_flow_reply(struct net *net, const struct sk_buff *skb,
		    struct mrc_flow *fl)
{
	const struct ipv6hdr *ip6h = ipv6_hdr(skb);

	memset(fl, 0, sizeof(*fl));
	fl->saddr = ip6h->daddr;
	fl->daddr = ip6h->saddr;
	fl->sport = mrc_ev_sport(MRC_SKB_CB(skb)->ev);
	fl->dport = READ_ONCE(mrc_dp_net(net)->udp_port);
	fl->flowlabel = mrc_ev_flowlabel(MRC_SKB_CB(skb)->ev);
}

/**
 * mrc_flow_of() - the inner header of a connection's packets.
 * @msk: the socket.
 * @fl: filled in.
 * @ev: the 32-bit entropy value: UDP source port 0xC000 | EV[13:0], flow
 *	label EV[31:14] (Documentation/wire-format.md section 2).
 */
void mrc_flow_of(const struct mrc_sock *msk, struct mrc_flow *fl, u32 ev)
{
	fl->saddr = msk->saddr;
	fl->daddr = msk->daddr;
	fl->sport = mrc_ev_sport(ev);
	fl->dport = READ_ONCE(mrc_dp_net(sock_net(&msk->sk))->udp_port);
	fl->flowlabel = mrc_ev_flowlabel(ev);
	/* IPV6_TCLASS gives the DSCP; the ECN bits are not the user's. */
	fl->tclass = READ_ONCE(msk->opts.tclass) & ~INET_ECN_MASK;
}
