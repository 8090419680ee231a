/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: how one path (entropy value) leaves the host.
 */
#ifndef _MRC_ENCAP_H
#define _MRC_ENCAP_H

#include <linux/in6.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/net_namespace.h>

#include <linux/mrc.h>

#ifndef MRC_SRH_MAX_SEGS
#define MRC_SRH_MAX_SEGS	8
#endif

/* The IPv6 flow label: 20 bits, host order (the EV's bits 31..14). */
#define MRC_FLOWLABEL_MASK	0xfffffU

/*
 * Headroom every MRC packet reserves: link layer, an outer IPv6 header
 * with the largest SRH, the inner IPv6 and UDP headers.
 */
#define MRC_ENCAP_HEADROOM	(LL_MAX_HEADER + 2 * sizeof(struct ipv6hdr) + \
				 8 + MRC_SRH_MAX_SEGS * sizeof(struct in6_addr) + \
				 sizeof(struct udphdr))

/**
 * struct mrc_route_cache - the route a path's packets leave by, looked up
 * once (TCP's sk_dst_cache, per path).
 * @dst: the route last looked up (a reference), or NULL.
 * @cookie: its FIB serial number: dst_check() fails once the routing
 *	table changed under it (a plane down, a route replaced).
 * @mark: the routing mark it was looked up with.
 *
 * Owned by a socket and used under its lock only.
 */
struct mrc_route_cache {
	struct dst_entry *dst;
	u32 cookie;
	u32 mark;
};

/**
 * struct mrc_route - everything needed to send on one path.
 * @mode: enum mrc_fwd_mode.
 * @nsegs: number of entries of @segs in use (usid: 1; srh: 1..MAX).
 * @ifindex: egress device of the plane; 0 lets the routing table choose.
 * @outer_saddr: source of the outer header (the plane's address); for
 *	entropy mode, unused.
 * @path_id: the configured path it came from (U32_MAX: none, the
 *	routing-table fallback).
 * @segs: usid: @segs[0] is the uSID container (outer destination); srh:
 *	the segment list in travel order (first segment first).
 * @cache: where to keep the route of the outer header, or NULL to look it
 *	up for every packet. Only usid and srh paths have one: their outer
 *	header's route does not depend on the packet's flow. An entropy
 *	path's route may (a multipath route hashes the flow label and
 *	ports), so it is looked up each time.
 */
struct mrc_route {
	u8 mode;
	u8 nsegs;
	int ifindex;
	struct in6_addr outer_saddr;
	u32 path_id;
	struct in6_addr segs[MRC_SRH_MAX_SEGS];
	struct mrc_route_cache *cache;
};

/**
 * struct mrc_flow - the inner header of one packet.
 * @saddr: our plane-independent address.
 * @daddr: the peer's address.
 * @sport: UDP source port: 0xC000 | EV[13:0] (mrc_ev_sport()).
 * @dport: UDP destination port of the namespace.
 * @flowlabel: IPv6 flow label: EV[31:14] (mrc_ev_flowlabel()), host order.
 * @tclass: traffic class (DSCP and ECN bits).
 */
struct mrc_flow {
	struct in6_addr saddr;
	struct in6_addr daddr;
	u16 sport;
	u16 dport;
	u32 flowlabel;
	u8 tclass;
};

int mrc_encap_overhead(const struct mrc_route *rt);
void mrc_route_cache_release(struct mrc_route_cache *c);
int mrc_encap_xmit(struct net *net, struct sock *tsk, u32 mark, u32 priority,
		   struct sk_buff *skb, const struct mrc_route *rt,
		   const struct mrc_flow *fl);

#endif /* _MRC_ENCAP_H */
