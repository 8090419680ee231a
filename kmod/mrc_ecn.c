// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: ECN marks through the destination's decapsulation.
 *
 * MRC's data packets leave ECN-capable (ECT(0), mrc_glue_send_burst()),
 * so a queue on their path marks them Congestion Experienced instead of
 * dropping them, and the receiver reflects the mark in its SACK: the
 * sender skips that path for a while and slows down (the policy's
 * ecn_response, path-state-machine.md). In usid and srh modes the fabric
 * marks the outer IPv6 header, and the destination host takes the outer
 * header off with seg6's End.DT6, which (on 6.1) drops the outer ECN
 * field instead of combining it with the inner one as RFC 6040 asks: the
 * mark would never reach MRC.
 *
 * So, in a namespace where MRC runs (its tunnel socket is open), a
 * netfilter hook at PRE_ROUTING, before the seg6 route decapsulates,
 * looks at IPv6 packets whose outer header is CE: when the packet inside
 * (next header 41, after an SRH or not) is an ECN-capable MRC packet (UDP
 * to the namespace's MRC port), its inner header gets the CE mark (RFC
 * 6040's decapsulation, for our packets only). Every other packet costs
 * one comparison of its traffic class. Kernels without netfilter (the
 * debug kernel of make check-debug) lose the marks of encapsulated
 * packets; entropy mode has no outer header and needs no hook.
 */
#include <linux/netfilter.h>
#include <linux/netfilter_ipv6.h>
#include <net/inet_ecn.h>
#include <net/ipv6.h>
#include <linux/udp.h>

#include "mrc_dp.h"
#include "mrc_ecn.h"
#include "mrc_stats.h"

#if IS_ENABLED(CONFIG_NETFILTER)
static unsigned int mrc_ecn_decap(void *priv, struct sk_buff *skb,
				  const struct nf_hook_state *state)
{
	struct ipv6hdr _ih, *ih;
	struct udphdr _uh, *uh;
	unsigned int off = 0;
	u8 nexthdr;

	if (likely(!INET_ECN_is_ce(ipv6_get_dsfield(ipv6_hdr(skb)))))
		return NF_ACCEPT;
	nexthdr = ipv6_hdr(skb)->nexthdr;
	if (nexthdr != IPPROTO_IPV6 && nexthdr != NEXTHDR_ROUTING)
		return NF_ACCEPT;
	if (ipv6_find_hdr(skb, &off, IPPROTO_IPV6, NULL, NULL) != IPPROTO_IPV6)
		return NF_ACCEPT;
	ih = skb_header_pointer(skb, off, sizeof(_ih), &_ih);
	if (!ih || ih->nexthdr != IPPROTO_UDP ||
	    !INET_ECN_is_capable(ipv6_get_dsfield(ih)) ||
	    INET_ECN_is_ce(ipv6_get_dsfield(ih)))
		return NF_ACCEPT;
	uh = skb_header_pointer(skb, off + sizeof(*ih), sizeof(_uh), &_uh);
	if (!uh || ntohs(uh->dest) != READ_ONCE(mrc_dp_net(state->net)->udp_port))
		return NF_ACCEPT;
	if (skb_ensure_writable(skb, off + sizeof(*ih)))
		return NF_ACCEPT;
	IP6_ECN_set_ce(skb, (struct ipv6hdr *)(skb->data + off));
	MRC_INC_STATS(state->net, MRC_MIB_IN_ECN_DECAP_CE);
	return NF_ACCEPT;
}

static const struct nf_hook_ops mrc_ecn_ops = {
	.hook = mrc_ecn_decap,
	.pf = NFPROTO_IPV6,
	.hooknum = NF_INET_PRE_ROUTING,
	.priority = NF_IP6_PRI_FIRST,
};
#endif

/**
 * mrc_ecn_net_start() - carry outer CE marks into our packets in @net.
 * @net: a namespace whose tunnel socket was just opened.
 * @dn: its data-path state; @dn->lock held.
 *
 * Context: process. Not fatal: without the hook (or without netfilter),
 * marks on encapsulated packets are lost (logged).
 */
void mrc_ecn_net_start(struct net *net, struct mrc_dp_net *dn)
{
#if IS_ENABLED(CONFIG_NETFILTER)
	int err;

	if (dn->ecn_hook)
		return;
	err = nf_register_net_hook(net, &mrc_ecn_ops);
	if (err) {
		net_info_ratelimited("mrc: ECN marks of encapsulated packets are lost: %d\n",
				     err);
		return;
	}
	dn->ecn_hook = true;
#endif
}

/**
 * mrc_ecn_net_stop() - remove the hook of mrc_ecn_net_start(), if any.
 * @net: the namespace (exiting, or the module unloading).
 * @dn: its data-path state.
 *
 * Context: process; the hook is no longer running when this returns.
 */
void mrc_ecn_net_stop(struct net *net, struct mrc_dp_net *dn)
{
#if IS_ENABLED(CONFIG_NETFILTER)
	if (!dn->ecn_hook)
		return;
	nf_unregister_net_hook(net, &mrc_ecn_ops);
	dn->ecn_hook = false;
#endif
}
