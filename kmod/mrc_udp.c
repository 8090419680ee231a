// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: the per-namespace UDP tunnel socket.
 *
 * All MRC packets of a namespace arrive on one kernel UDP socket bound to
 * [::]:port (4791 by default). It is created when the first MRC socket of
 * the namespace needs the network (bind, listen, connect), when a plane is
 * added, or when an EV probe is sent, not at module load, so that loading
 * mrc.ko never takes a port nobody uses; it lives until the namespace goes
 * away or the module unloads. Its receive hooks hand packets up to
 * mrc_input() and ICMPv6 errors to the handshake. Whoever needs the tunnel
 * opens it (mrc_udp_get()); the layers below only send through it
 * (mrc_xmit() looks it up under RCU). The namespace's data-path state that
 * holds it is set up and torn down by mrc_netns.c.
 */
#include <linux/icmpv6.h>
#include <linux/module.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>
#include <net/xfrm.h>

#include "mrc_dp.h"
#include "mrc_handshake.h"
#include "mrc_input.h"
#include "mrc_ecn.h"
#include "mrc_udp.h"

/*
 * UDP hands us the packet with the checksum verified, data at UDP. The
 * socket accepts segmentation-offload packets whole (udp_allow_gso()): a
 * sender's burst that arrives uncut (veth, a local sender) is cut here,
 * as UDP would have cut it, and its packets are taken in as one batch.
 */
static int mrc_udp_encap_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct sk_buff *segs, *seg, *next;

	if (!skb_is_gso(skb)) {
		mrc_input(sock_net(sk), skb);
		return 0;
	}
	__skb_push(skb, -skb_mac_offset(skb));
	segs = udp_rcv_segment(sk, skb, false);
	if (!segs)
		return 0;
	skb_list_walk_safe(segs, seg, next) {
		__skb_pull(seg, skb_transport_offset(seg));
		udp_post_segment_fix_csum(seg);
	}
	mrc_input_segs(sock_net(sk), segs);
	return 0;
}

/* ICMPv6 errors about packets we sent to the tunnel port are ours. */
static int mrc_udp_err_lookup(struct sock *sk, struct sk_buff *skb)
{
	return 0;
}

static void mrc_udp_err_rcv(struct sock *sk, struct sk_buff *skb,
			    unsigned int udp_offset)
{
	const struct icmp6hdr *ih = icmp6_hdr(skb);

	/* entropy mode: the quote is our inner header, no extension header */
	if (ih->icmp6_type == ICMPV6_PKT_TOOBIG) {
		if (udp_offset == sizeof(struct ipv6hdr))
			mrc_input_pkt_too_big(sock_net(sk), skb, 0,
					      ntohl(ih->icmp6_mtu));
		return;
	}
	mrc_hs_icmp(sock_net(sk), skb, udp_offset);
}

#if IS_ENABLED(CONFIG_INET6_TUNNEL)
/*
 * In usid and srh modes our packets travel inside an outer IPv6 header
 * (next header 41, after an SRH in srh mode): ICMPv6 errors about them
 * go to the IPv6-in-IPv6 handlers (tunnel6), not to UDP. This handler
 * takes the packet-too-big errors that quote one of our packets and
 * leaves everything else to the other handlers (ip6_tunnel...): it runs
 * first and receives no packet.
 */
static int mrc_ip6ip6_rcv(struct sk_buff *skb)
{
	return -ENOENT;
}

static int mrc_ip6ip6_err(struct sk_buff *skb, struct inet6_skb_parm *opt,
			  u8 type, u8 code, int offset, __be32 info)
{
	struct net *net = dev_net(skb->dev);
	bool ours = false;

	if (type != ICMPV6_PKT_TOOBIG || offset <= 0)
		return -ENOENT;
	rcu_read_lock();
	if (rcu_dereference(mrc_dp_net(net)->udp_sock))
		ours = mrc_input_pkt_too_big(net, skb, offset, ntohl(info));
	rcu_read_unlock();
	return ours ? 0 : -ENOENT;
}

static struct xfrm6_tunnel mrc_ip6ip6_handler __read_mostly = {
	.handler	= mrc_ip6ip6_rcv,
	.err_handler	= mrc_ip6ip6_err,
	.priority	= 0,	/* before ip6_tunnel's (1), which takes all */
};

static bool mrc_ip6ip6_registered;

static int mrc_ip6ip6_register(void)
{
	int err = xfrm6_tunnel_register(&mrc_ip6ip6_handler, AF_INET6);

	mrc_ip6ip6_registered = !err;
	return err;
}

static void mrc_ip6ip6_deregister(void)
{
	if (mrc_ip6ip6_registered)
		xfrm6_tunnel_deregister(&mrc_ip6ip6_handler, AF_INET6);
	mrc_ip6ip6_registered = false;
}
#else
static int mrc_ip6ip6_register(void)
{
	return -EOPNOTSUPP;	/* a kernel without tunnel6 */
}

static void mrc_ip6ip6_deregister(void)
{
}
#endif

/**
 * mrc_udp_init() - receive the ICMPv6 errors about encapsulated packets
 * (usid and srh modes), at module load.
 *
 * Not fatal: without the handler (a kernel built without tunnel6, as the
 * debug kernel of make check-debug, or another handler in the slot) a
 * path's data-sized probes still keep a too-small path out.
 */
void mrc_udp_init(void)
{
	int err = mrc_ip6ip6_register();

	if (err)
		pr_info("mrc: no packet-too-big errors over SRv6 paths: %d\n",
			err);
}

/**
 * mrc_udp_exit() - stop receiving those errors, at module unload; the
 * handler is no longer running when this returns.
 */
void mrc_udp_exit(void)
{
	mrc_ip6ip6_deregister();
}

/**
 * mrc_udp_get() - the namespace's UDP tunnel socket, created if needed.
 * @net: the namespace.
 * @sockp: where to store the socket (owned by the namespace, no reference
 *	is taken: it lives as long as @net).
 *
 * Context: process; may sleep.
 * Return: 0, or a negative errno (-EADDRINUSE when the port is taken).
 */
int mrc_udp_get(struct net *net, struct socket **sockp)
{
	struct mrc_dp_net *dn = mrc_dp_net(net);
	struct udp_tunnel_sock_cfg tcfg = {};
	struct udp_port_cfg cfg = {};
	struct socket *sock;
	int err = 0;

	mutex_lock(&dn->lock);
	sock = rcu_dereference_protected(dn->udp_sock, lockdep_is_held(&dn->lock));
	if (sock)
		goto out;

	cfg.family = AF_INET6;
	cfg.local_ip6 = in6addr_any;
	cfg.local_udp_port = htons(READ_ONCE(mrc_net(net)->udp_port));
	cfg.ipv6_v6only = 1;
	cfg.use_udp6_tx_checksums = 1;
	cfg.use_udp6_rx_checksums = 1;
	err = udp_sock_create6(net, &cfg, &sock);
	if (err) {
		net_info_ratelimited("mrc: cannot bind UDP port %u: %d\n",
				     ntohs(cfg.local_udp_port), err);
		goto out;
	}
	tcfg.encap_type = 1;
	tcfg.encap_rcv = mrc_udp_encap_rcv;
	tcfg.encap_err_lookup = mrc_udp_err_lookup;
	tcfg.encap_err_rcv = mrc_udp_err_rcv;
	setup_udp_tunnel_sock(net, sock, &tcfg);
	udp_allow_gso(sock->sk);
	dn->udp_port = ntohs(cfg.local_udp_port);
	rcu_assign_pointer(dn->udp_sock, sock);
	mrc_ecn_net_start(net, dn);
out:
	if (!err)
		*sockp = sock;
	mutex_unlock(&dn->lock);
	return err;
}

/**
 * mrc_udp_reopen() - move the namespace's tunnel socket to the configured
 * port (after the port setting changed); nothing if none is open.
 * @net: the namespace.
 *
 * Context: process; may sleep. The caller made sure no MRC socket uses
 * the tunnel; endpoint operations in flight may be lost.
 */
void mrc_udp_reopen(struct net *net)
{
	struct mrc_dp_net *dn = mrc_dp_net(net);
	struct socket *sock;

	mutex_lock(&dn->lock);
	sock = rcu_dereference_protected(dn->udp_sock, lockdep_is_held(&dn->lock));
	RCU_INIT_POINTER(dn->udp_sock, NULL);
	mutex_unlock(&dn->lock);
	if (!sock)
		return;
	synchronize_rcu();	/* senders look the socket up under RCU */
	udp_tunnel_sock_release(sock);
	if (mrc_udp_get(net, &sock))
		net_info_ratelimited("mrc: the tunnel socket could not move to port %u\n",
				     READ_ONCE(mrc_net(net)->udp_port));
}

/**
 * mrc_udp_net_init() - tunnel state of a new namespace (none open yet).
 * @dn: the namespace's data-path state.
 */
void mrc_udp_net_init(struct mrc_dp_net *dn)
{
	mutex_init(&dn->lock);
}

/**
 * mrc_udp_net_exit() - close the namespace's tunnel socket, if open, and
 * remove its ECN hook (mrc_ecn_net_stop()).
 * @net: the namespace.
 * @dn: its data-path state.
 *
 * Context: process; namespace exit or module unload. No MRC socket is left
 * (each holds its namespace and the module), and the connection list has
 * stopped following the configuration (its notifier sends port-status
 * updates through the tunnel).
 */
void mrc_udp_net_exit(struct net *net, struct mrc_dp_net *dn)
{
	struct socket *sock;

	mrc_ecn_net_stop(net, dn);
	sock = rcu_dereference_protected(dn->udp_sock, true);
	RCU_INIT_POINTER(dn->udp_sock, NULL);
	if (sock)
		udp_tunnel_sock_release(sock);
	mutex_destroy(&dn->lock);
}
