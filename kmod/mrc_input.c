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

#include "core/mrc_cm.h"
#include "mrc_endpoint.h"
#include "mrc_handshake.h"
#include "mrc_conn_glue.h"
#include "mrc_input.h"
#include "mrc_output.h"
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
	/* A probe's padding is checked to be zero: all of it linear. */
	if (skb->len > MRC_INPUT_PULL && skb->data[0] == MRC_OP_PROBE &&
	    !pskb_may_pull(skb, skb->len))
		return -EINVAL;
	/*
	 * The decoder reads headers only, never the (maybe paged) payload
	 * of a data packet.
	 */
	err = mrc_pkt_decode(skb->data, skb->len, pkt);
	if (err) {
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_MALFORMED);
		net_dbg_ratelimited("mrc: malformed packet: %s\n",
				    mrc_wire_err_name(err));
	}
	return err;
}

/*
 * A CM_REQ of the previous wire generation (CMH version 1: 16-bit EVs,
 * STREAM as WRITE_ONLY, no key in SACKs): refused with a CM_REJ
 * BAD_VERSION in its own version, which that peer reads (its connect()
 * fails at once), within the namespace's budget of stateless answers.
 * The answer is smaller than the request.
 */
static void mrc_input_refuse_version(struct net *net, struct sk_buff *skb,
				     const struct mrc_pkt *req)
{
	const struct mrc_cm cm = {
		.version = MRC_CM_VERSION_V1,
		.port = req->u.cm.port,
		.client_port = req->u.cm.client_port,
		.dst_qpn = req->u.cm.src_qpn,
		.cookie = req->u.cm.cookie,
		.rej_reason = MRC_REJ_BAD_VERSION,
	};
	struct mrc_flow fl;
	struct mrc_pkt pkt;

	if (!__ratelimit(&mrc_dp_net(net)->ctl_rl)) {
		MRC_INC_STATS(net, MRC_MIB_CTL_DROP_RATELIMIT);
		return;
	}
	mrc_cm_pkt(&pkt, MRC_OP_CM_REJ, &cm);
	MRC_INC_STATS(net, MRC_MIB_HS_REJECTED);
	mrc_flow_reply(net, skb, &fl);
	mrc_send_hdr_pkt(net, &pkt, NULL, &fl, 0, 0);
}

/*
 * A decoded packet for a socket, with its lock held. @batch: more of its
 * segmentation-offload packet follow (mrc_input_segs()).
 */
static void mrc_input_pkt(struct mrc_sock *msk, struct sk_buff *skb,
			  const struct mrc_pkt *pkt, bool batch)
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
	mrc_hs_verdict(msk, mrc_glue_input(msk, skb, pkt, batch));
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
	mrc_input_pkt(msk, skb, &pkt, false);
}

/*
 * Hand a decoded packet to the socket its QPN named (softirq): only from
 * the socket's peer; processed at once, or queued to the backlog when a
 * process owns the socket. With @batch (more of its segmentation-offload
 * packet follow), a packet processed at once may leave its push to the
 * end of the batch: then the caller's reference on @msk is returned for
 * mrc_input_batch_end(); otherwise it is dropped and NULL returned.
 */
static struct mrc_sock *mrc_input_deliver(struct mrc_sock *msk,
					  struct sk_buff *skb,
					  const struct mrc_pkt *pkt, bool batch)
{
	struct sock *sk = &msk->sk;
	struct net *net = sock_net(sk);
	bool held = false;

	if (!ipv6_addr_equal(&ipv6_hdr(skb)->saddr, &msk->daddr)) {
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_NO_CONN);
		kfree_skb(skb);
		goto out;
	}
	bh_lock_sock(sk);
	if (!sock_owned_by_user(sk)) {
		mrc_input_pkt(msk, skb, pkt, batch);
		held = msk->push_batch;
	} else if (sk_add_backlog(sk, skb, READ_ONCE(sk->sk_rcvbuf) +
				  READ_ONCE(sk->sk_sndbuf))) {
		MRC_INC_STATS(net, MRC_MIB_IN_DROP_NOMEM);
		kfree_skb(skb);
	}
	bh_unlock_sock(sk);
out:
	if (held)
		return msk;
	sock_put(sk);
	return NULL;
}

/*
 * The batch of packets @msk took in is over: its push, once (softirq).
 * Drops the reference mrc_input_deliver() returned.
 */
static void mrc_input_batch_end(struct mrc_sock *msk)
{
	struct sock *sk = &msk->sk;

	bh_lock_sock(sk);
	if (!sock_owned_by_user(sk))
		mrc_hs_verdict(msk, mrc_glue_batch_end(msk));
	else if (msk->push_batch)
		set_bit(MRC_DEFER_PUSH, &msk->deferred);
	bh_unlock_sock(sk);
	sock_put(sk);
}

/*
 * One packet from the UDP tunnel socket, data at its UDP header; consumed.
 * @batch: more of its segmentation-offload packet follow. Return: the
 * socket whose push waits for the batch's end (a reference), or NULL.
 */
static struct mrc_sock *mrc_input_one(struct net *net, struct sk_buff *skb,
				      bool batch)
{
	const struct ipv6hdr *ip6h = ipv6_hdr(skb);
	struct mrc_skb_cb *cb = MRC_SKB_CB(skb);
	struct mrc_sock *msk;
	struct mrc_pkt pkt;

	memset(cb, 0, sizeof(*cb));
	cb->ev = mrc_ev_from_wire(ntohs(udp_hdr(skb)->source),
				  ntohl(ip6_flowlabel(ip6h)));
	cb->ecn_ce = INET_ECN_is_ce(ipv6_get_dsfield(ip6h));
	__skb_pull(skb, sizeof(struct udphdr));
	MRC_INC_STATS(net, MRC_MIB_IN_PKTS);
	if (cb->ecn_ce)
		MRC_INC_STATS(net, MRC_MIB_IN_ECN_CE);
	MRC_ADD_STATS(net, MRC_MIB_IN_BYTES, skb->len);

	if (mrc_input_decode(net, skb, &pkt))
		goto drop;

	if (pkt.type == MRC_PKT_ACK) {
		/* RoCE's ACK: MRC acknowledges with SACKs; count, ignore */
		MRC_INC_STATS(net, MRC_MIB_IN_TRANSPORT_ACK);
		goto drop;
	}
	if (pkt.type == MRC_PKT_CM && pkt.u.cm.version != MRC_CM_VERSION) {
		/* the previous wire: refuse its CM_REQ; we sent no v1 REQ */
		if (pkt.bth.opcode == MRC_OP_CM_REQ)
			mrc_input_refuse_version(net, skb, &pkt);
		else
			MRC_INC_STATS(net, MRC_MIB_IN_DROP_MALFORMED);
		goto drop;
	}
	if (pkt.bth.dest_qpn == MRC_QPN_CM) {
		msk = mrc_hs_input(net, skb, &pkt);
		if (msk)
			mrc_input_deliver(msk, skb, &pkt, false);
		return NULL;
	}
	if (pkt.bth.dest_qpn == MRC_QPN_ENDPOINT) {
		mrc_ep_input(net, skb, &pkt);
		return NULL;
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
	return mrc_input_deliver(msk, skb, &pkt, batch);
drop:
	kfree_skb(skb);
	return NULL;
}

/**
 * mrc_input() - entry point from the UDP tunnel socket (softirq).
 * @net: namespace of the tunnel.
 * @skb: the packet with the UDP checksum verified, data at the UDP header;
 *	consumed.
 */
void mrc_input(struct net *net, struct sk_buff *skb)
{
	mrc_input_one(net, skb, false);
}

/**
 * mrc_input_segs() - the packets a segmentation-offload packet carried
 * (a sender's burst, cut by mrc_udp.c), each with its UDP header: taken
 * in one after the other, each connection pushing (and sending its SACK)
 * once, after the last of its packets, not once per packet.
 * @net: namespace of the tunnel.
 * @segs: the list of packets, data at their UDP headers; consumed.
 */
void mrc_input_segs(struct net *net, struct sk_buff *segs)
{
	struct mrc_sock *waiting = NULL, *msk;
	struct sk_buff *skb, *next;

	skb_list_walk_safe(segs, skb, next) {
		skb_mark_not_on_list(skb);
		msk = mrc_input_one(net, skb, next);
		if (waiting && waiting != msk)
			mrc_input_batch_end(waiting);
		else if (waiting)
			sock_put(&waiting->sk);	/* one reference is enough */
		waiting = msk;
	}
	if (waiting)
		mrc_input_batch_end(waiting);
}

/* Bytes of a quoted packet read: every header, some of a probe's padding. */
#define MRC_INPUT_QUOTE	128

/**
 * mrc_input_pkt_too_big() - an ICMPv6 packet-too-big about a packet we
 * sent: take the path it names out of its connection if the MTU cannot
 * carry the connection's data packets (mrc_conn_on_pkt_too_big()).
 * @net: the namespace the error arrived in.
 * @skb: the error, data at the quoted (outermost) IPv6 header.
 * @ip_off: offset from skb->data of the quoted IPv6 header followed by
 *	MRC's UDP header (0 in entropy mode; past the outer header and any
 *	SRH in usid and srh modes).
 * @mtu: the MTU the error reports.
 *
 * Every field of the quote is checked before any state is looked at: the
 * MTU (at least IPv6's 1280, below the size of the quoted packet), the
 * inner IPv6 and UDP headers (UDP, our port, a generation-2 source port,
 * lengths that agree), the MRC headers (mrc_pkt_decode_quote()); the
 * connection is found by the peer's address and QPN within the
 * namespace's budget of stateless work, and must have our address; the
 * engine then checks the key, the PSN or probe id and the EV. An
 * off-path sender, who knows neither key nor PSNs, changes nothing.
 *
 * Context: softirq (ICMPv6 error handlers).
 * Return: true if the quote was one of our connections' packets.
 */
bool mrc_input_pkt_too_big(struct net *net, struct sk_buff *skb,
			   unsigned int ip_off, u32 mtu)
{
	unsigned int udp_off = ip_off + sizeof(struct ipv6hdr);
	const struct ipv6hdr *outer, *ip6;
	struct ipv6hdr _outer, _ip6;
	const struct udphdr *uh;
	u8 buf[MRC_INPUT_QUOTE];
	struct mrc_sock *msk;
	struct udphdr _uh;
	struct mrc_pkt q;
	u32 len, have, ev;
	bool ours = false;
	int verdict;

	outer = skb_header_pointer(skb, 0, sizeof(_outer), &_outer);
	ip6 = skb_header_pointer(skb, ip_off, sizeof(_ip6), &_ip6);
	uh = skb_header_pointer(skb, udp_off, sizeof(_uh), &_uh);
	if (!outer || !ip6 || !uh || outer->version != 6 || ip6->version != 6)
		return false;
	/* any IPv6 link carries 1280; the packet dropped was larger */
	if (mtu < IPV6_MIN_MTU ||
	    ntohs(outer->payload_len) + sizeof(*outer) <= mtu ||
	    mtu <= udp_off + sizeof(*uh))
		return false;
	len = ntohs(uh->len);
	if (ip6->nexthdr != IPPROTO_UDP ||
	    uh->dest != htons(READ_ONCE(mrc_dp_net(net)->udp_port)) ||
	    ntohs(uh->source) < MRC_EV_SPORT_BASE ||
	    ntohs(ip6->payload_len) != len ||
	    len < sizeof(*uh) + MRC_BTH_LEN || skb->len <= udp_off + sizeof(*uh))
		return false;
	len -= sizeof(*uh);
	have = min3(skb->len - udp_off - (u32)sizeof(*uh), len,
		    (u32)sizeof(buf));
	if (skb_copy_bits(skb, udp_off + sizeof(*uh), buf, have) ||
	    mrc_pkt_decode_quote(buf, have, len, &q) ||
	    (q.type != MRC_PKT_DATA && q.type != MRC_PKT_PROBE))
		return false;
	ev = mrc_ev_from_wire(ntohs(uh->source), ntohl(ip6_flowlabel(ip6)));

	if (!__ratelimit(&mrc_dp_net(net)->ctl_rl)) {
		MRC_INC_STATS(net, MRC_MIB_CTL_DROP_RATELIMIT);
		return false;
	}
	msk = mrc_table_lookup_peer(net, &ip6->daddr, q.bth.dest_qpn);
	if (!msk)
		return false;
	if (ipv6_addr_equal(&msk->saddr, &ip6->saddr)) {
		bh_lock_sock(&msk->sk);
		/*
		 * A sender is often in sendmsg(): the error waits for its
		 * release_sock(). A burst dropped whole at a small link
		 * draws one error for all its packets.
		 */
		if (!sock_owned_by_user(&msk->sk)) {
			ours = mrc_glue_pkt_too_big(msk, &q, ev, mtu - udp_off -
						    (u32)sizeof(*uh), &verdict);
			if (ours)
				mrc_hs_verdict(msk, verdict);
		} else {
			mrc_glue_ptb_defer(msk, &q, ev, mtu - udp_off -
					   (u32)sizeof(*uh));
			ours = true;
		}
		bh_unlock_sock(&msk->sk);
	}
	sock_put(&msk->sk);
	return ours;
}
