// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: encapsulation and transmission on one path.
 *
 * Every packet gets an inner IPv6 + UDP header addressed to the peer's
 * plane-independent address, with the entropy value in the UDP source port
 * and the flow label. Then, by the path's forwarding mode:
 *
 *   entropy  nothing more: the fabric's ECMP hash on the inner header picks
 *            the way; the egress device is the plane's, if the path has one
 *   usid     an outer IPv6 header whose destination is the uSID container
 *            (IPv6-in-IPv6, no SRH, like seg6 encap.red); the fabric shifts
 *            it, the destination decapsulates
 *   srh      an outer IPv6 header plus a segment routing header (RFC 8754)
 *            carrying the segment list; the destination decapsulates
 *
 * The inner UDP checksum is left to the device when it can do it for
 * encapsulated packets (CHECKSUM_PARTIAL; iptunnel_handle_offloads tells
 * the stack it is inner), and is computed in software otherwise.
 */
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/ip6_checksum.h>
#include <net/ip6_route.h>
#include <net/ip_tunnels.h>
#include <net/ipv6.h>
#include <net/udp.h>
#include <uapi/linux/seg6.h>

#include "mrc_encap.h"
#include "mrc_kern.h"
#include "mrc_stats.h"

static int mrc_srh_len(u8 nsegs)
{
	return sizeof(struct ipv6_sr_hdr) + nsegs * sizeof(struct in6_addr);
}

/**
 * mrc_encap_overhead() - bytes the headers of a path add to the payload.
 * @rt: the path.
 *
 * Return: the inner IPv6 and UDP headers plus the outer headers of the mode.
 */
int mrc_encap_overhead(const struct mrc_route *rt)
{
	int len = sizeof(struct ipv6hdr) + sizeof(struct udphdr);

	switch (rt->mode) {
	case MRC_FWD_USID:
		len += sizeof(struct ipv6hdr);
		break;
	case MRC_FWD_SRH:
		len += sizeof(struct ipv6hdr) + mrc_srh_len(rt->nsegs);
		break;
	default:
		break;
	}
	return len;
}

static void mrc_push_inner(struct sk_buff *skb, const struct mrc_flow *fl)
{
	struct ipv6hdr *ip6h;
	struct udphdr *uh;
	int len;

	__skb_push(skb, sizeof(*uh));
	skb_reset_transport_header(skb);
	uh = udp_hdr(skb);
	len = skb->len;
	uh->source = htons(fl->sport);
	uh->dest = htons(fl->dport);
	uh->len = htons(len);
	uh->check = 0;

	/* Offload the checksum; the device or the stack completes it. */
	skb->ip_summed = CHECKSUM_PARTIAL;
	skb->csum_start = skb_transport_header(skb) - skb->head;
	skb->csum_offset = offsetof(struct udphdr, check);
	uh->check = ~csum_ipv6_magic(&fl->saddr, &fl->daddr, len, IPPROTO_UDP, 0);

	__skb_push(skb, sizeof(*ip6h));
	skb_reset_network_header(skb);
	ip6h = ipv6_hdr(skb);
	ip6_flow_hdr(ip6h, fl->tclass, htonl(fl->flowlabel & MRC_FLOWLABEL_MASK));
	ip6h->payload_len = htons(len);
	ip6h->nexthdr = IPPROTO_UDP;
	ip6h->hop_limit = 64;
	ip6h->saddr = fl->saddr;
	ip6h->daddr = fl->daddr;
}

/* Outer IPv6 header (+ SRH) in front of the inner packet. */
static int mrc_push_outer(struct sk_buff *skb, const struct mrc_route *rt,
			  const struct mrc_flow *fl)
{
	int inner_len = skb->len;
	struct ipv6_sr_hdr *srh;
	struct ipv6hdr *oh;
	int srh_len = 0;
	int i, err;

	err = iptunnel_handle_offloads(skb, SKB_GSO_IPXIP6);
	if (err)
		return err;
	skb_set_inner_protocol(skb, htons(ETH_P_IPV6));
	skb_set_inner_network_header(skb, 0);
	skb_set_inner_transport_header(skb, sizeof(struct ipv6hdr));

	if (rt->mode == MRC_FWD_SRH) {
		srh_len = mrc_srh_len(rt->nsegs);
		srh = skb_push(skb, srh_len);
		srh->nexthdr = IPPROTO_IPV6;
		srh->hdrlen = (srh_len >> 3) - 1;
		srh->type = IPV6_SRCRT_TYPE_4;
		srh->segments_left = rt->nsegs - 1;
		srh->first_segment = rt->nsegs - 1;
		srh->flags = 0;
		srh->tag = 0;
		/* The SRH lists segments last first (RFC 8754). */
		for (i = 0; i < rt->nsegs; i++)
			srh->segments[rt->nsegs - 1 - i] = rt->segs[i];
	}

	oh = skb_push(skb, sizeof(*oh));
	skb_reset_network_header(skb);
	ip6_flow_hdr(oh, fl->tclass, htonl(fl->flowlabel & MRC_FLOWLABEL_MASK));
	oh->payload_len = htons(inner_len + srh_len);
	oh->nexthdr = srh_len ? NEXTHDR_ROUTING : IPPROTO_IPV6;
	oh->hop_limit = 64;
	oh->saddr = rt->outer_saddr;
	oh->daddr = rt->segs[0];
	return 0;
}

/**
 * mrc_route_cache_release() - drop the route a path keeps.
 * @c: the path's cache (may be NULL).
 */
void mrc_route_cache_release(struct mrc_route_cache *c)
{
	if (!c)
		return;
	dst_release(c->dst);
	c->dst = NULL;
}

/* The route of the packet: the path's cached one while the routing table
 * has not changed under it, else a fresh lookup (kept if the path caches).
 * Return: a route with a reference the caller owns; dst->error on failure.
 */
static struct dst_entry *mrc_route_lookup(struct net *net, struct sock *tsk,
					  const struct mrc_route *rt,
					  struct flowi6 *fl6)
{
	struct mrc_route_cache *c = rt->cache;
	struct dst_entry *dst;

	if (c && c->dst && c->mark == fl6->flowi6_mark) {
		dst = dst_check(c->dst, c->cookie);
		if (dst) {
			dst_hold(dst);
			return dst;
		}
	}
	dst = ip6_route_output(net, tsk, fl6);
	MRC_INC_STATS(net, MRC_MIB_OUT_ROUTE_LOOKUPS);
	if (dst->error || !c)
		return dst;
	dst_release(c->dst);
	dst_hold(dst);
	c->dst = dst;
	c->cookie = rt6_get_cookie((struct rt6_info *)dst);
	c->mark = fl6->flowi6_mark;
	return dst;
}

/**
 * mrc_encap_xmit() - add the headers of a path and send the packet.
 * @net: namespace to route in.
 * @tsk: the namespace's UDP tunnel socket (an IPv6 socket: the output
 *	path may look at it as one, so never an MRC socket).
 * @mark: routing mark (the MRC socket's SO_MARK).
 * @priority: skb priority (the MRC socket's SO_PRIORITY).
 * @skb: packet with the MRC headers and payload at skb->data and at least
 *	MRC_ENCAP_HEADROOM bytes of headroom. Always consumed.
 * @rt: the path. If it has a route cache, the caller holds the lock of
 *	the socket that owns it.
 * @fl: the inner header.
 *
 * Context: any; does not sleep.
 * Return: 0 when the packet left or was queued (NET_XMIT_CN included: it
 * may have been), -ENOBUFS when the device or a queueing discipline
 * dropped it (NET_XMIT_DROP), -ENOMEM without memory, or the error of the
 * route or the output path (no route: -ENETUNREACH; a blackhole route
 * -EINVAL, an unreachable one -EHOSTUNREACH; device down -ENETDOWN; a
 * netfilter drop -EPERM).
 */
int mrc_encap_xmit(struct net *net, struct sock *tsk, u32 mark, u32 priority,
		   struct sk_buff *skb, const struct mrc_route *rt,
		   const struct mrc_flow *fl)
{
	struct flowi6 fl6 = {};
	struct dst_entry *dst;
	int err;

	if (skb_headroom(skb) < MRC_ENCAP_HEADROOM) {
		err = pskb_expand_head(skb, MRC_ENCAP_HEADROOM, 0, GFP_ATOMIC);
		if (err)
			goto drop;
	}
	mrc_push_inner(skb, fl);

	fl6.flowi6_oif = rt->ifindex;
	fl6.flowlabel = htonl(fl->flowlabel & MRC_FLOWLABEL_MASK);
	fl6.flowi6_mark = mark;
	if (rt->mode == MRC_FWD_ENTROPY) {
		fl6.daddr = fl->daddr;
		fl6.saddr = fl->saddr;
		fl6.flowi6_proto = IPPROTO_UDP;
		fl6.fl6_sport = htons(fl->sport);
		fl6.fl6_dport = htons(fl->dport);
	} else {
		err = mrc_push_outer(skb, rt, fl);
		if (err)
			goto drop;
		fl6.daddr = rt->segs[0];
		fl6.saddr = rt->outer_saddr;
		fl6.flowi6_proto = rt->mode == MRC_FWD_SRH ? NEXTHDR_ROUTING
							    : IPPROTO_IPV6;
	}

	dst = mrc_route_lookup(net, tsk, rt, &fl6);
	if (dst->error) {
		err = dst->error;
		dst_release(dst);
		goto drop;
	}
	skb_dst_set(skb, dst);
	skb->protocol = htons(ETH_P_IPV6);
	skb->priority = priority;
	skb->mark = mark;
	memset(IP6CB(skb), 0, sizeof(*IP6CB(skb)));

	err = ip6_local_out(net, tsk, skb);
	if (err < 0)
		return err;
	return net_xmit_eval(err) ? -ENOBUFS : 0;

drop:
	kfree_skb(skb);
	return err;
}
