// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: the "events" multicast group.
 *
 * Every event is one MRC_CMD_EVENT message with a nested MRC_A_EVENT
 * (enum mrc_event_attr) that starts with its type and a CLOCK_REALTIME
 * timestamp. The emitters may be called from any context (softirq and
 * timers included): they allocate with GFP_ATOMIC, do nothing when nobody
 * listens, and count what they could not send (MRC_MIB_EVENTS_DROPPED).
 */
#include <linux/ktime.h>
#include <net/genetlink.h>

#include "mrc_genl_spec.h"
#include "mrc_kern.h"
#include "mrc_stats.h"
#include "mrc_events.h"
#include "mrc_conn_list.h"

#define MRC_EVENTS_GROUP	0

/*
 * Events are sized to their attributes, not to NLMSG_GOODSIZE: a
 * listener's receive buffer is charged by truesize, and a busy
 * connection emits events in bursts (a page per event would let a
 * monitor's buffer hold four times fewer before it overruns).
 * @attrs: the size of the attributes after the type and timestamp.
 */
static size_t mrc_event_size(size_t attrs)
{
	return nla_total_size(0) +			/* MRC_A_EVENT nest */
	       nla_total_size(sizeof(u8)) +		/* type */
	       nla_total_size_64bit(sizeof(u64)) +	/* timestamp */
	       attrs;
}

/* Start an event; NULL when nobody listens or memory is short. */
static struct sk_buff *mrc_event_new(struct net *net, u8 type, size_t attrs,
				     void **hdr, struct nlattr **nest)
{
	struct sk_buff *skb;

	if (!genl_has_listeners(&mrc_genl_family, net, MRC_EVENTS_GROUP))
		return NULL;
	skb = genlmsg_new(mrc_event_size(attrs), GFP_ATOMIC);
	if (!skb)
		goto drop;
	*hdr = genlmsg_put(skb, 0, 0, &mrc_genl_family, 0, MRC_CMD_EVENT);
	if (!*hdr)
		goto free;
	*nest = nla_nest_start(skb, MRC_A_EVENT);
	if (!*nest ||
	    nla_put_u8(skb, MRC_EVENT_A_TYPE, type) ||
	    nla_put_u64_64bit(skb, MRC_EVENT_A_TIMESTAMP, ktime_get_real_ns(),
			      MRC_EVENT_A_PAD))
		goto free;
	return skb;
free:
	nlmsg_free(skb);
drop:
	MRC_INC_STATS(net, MRC_MIB_EVENTS_DROPPED);
	return NULL;
}

static void mrc_event_send(struct net *net, struct sk_buff *skb, void *hdr,
			   struct nlattr *nest)
{
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	genlmsg_multicast_netns(&mrc_genl_family, net, skb, 0,
				MRC_EVENTS_GROUP, GFP_ATOMIC);
}

static void mrc_event_abort(struct net *net, struct sk_buff *skb)
{
	nlmsg_free(skb);
	MRC_INC_STATS(net, MRC_MIB_EVENTS_DROPPED);
}

/**
 * mrc_event_path_state() - an EV of a connection changed state.
 * @net: the connection's namespace.
 * @conn_id: connection id.
 * @ev: the entropy value.
 * @path_id: configured path id, U32_MAX for a fallback path (omitted).
 * @plane: plane id.
 * @old_state: previous enum mrc_path_state.
 * @new_state: new enum mrc_path_state.
 * @reason: enum mrc_path_reason.
 * @drops: packets lost on the EV before the change.
 *
 * Any context.
 */
void mrc_event_path_state(struct net *net, u32 conn_id, u32 ev, u32 path_id,
			  u32 plane, u8 old_state, u8 new_state, u8 reason,
			  u64 drops)
{
	struct nlattr *nest;
	struct sk_buff *skb;
	void *hdr;

	skb = mrc_event_new(net, MRC_EVENT_PATH_STATE,
			    5 * nla_total_size(sizeof(u32)) +
			    3 * nla_total_size(sizeof(u8)) +
			    nla_total_size_64bit(sizeof(u64)), &hdr, &nest);
	if (!skb)
		return;
	if (nla_put_u32(skb, MRC_EVENT_A_CONN_ID, conn_id) ||
	    nla_put_u32(skb, MRC_EVENT_A_EV, ev) ||
	    (path_id != U32_MAX &&
	     nla_put_u32(skb, MRC_EVENT_A_PATH_ID, path_id)) ||
	    nla_put_u32(skb, MRC_EVENT_A_PLANE, plane) ||
	    nla_put_u8(skb, MRC_EVENT_A_OLD_STATE, old_state) ||
	    nla_put_u8(skb, MRC_EVENT_A_NEW_STATE, new_state) ||
	    nla_put_u8(skb, MRC_EVENT_A_REASON, reason) ||
	    nla_put_u64_64bit(skb, MRC_EVENT_A_DROPS, drops, MRC_EVENT_A_PAD))
		goto abort;
	mrc_event_send(net, skb, hdr, nest);
	return;
abort:
	mrc_event_abort(net, skb);
}

/**
 * mrc_event_conn() - a connection was established, closed or failed.
 * @net: the connection's namespace.
 * @type: MRC_EVENT_CONN_ESTABLISHED, MRC_EVENT_CONN_CLOSED or
 *	MRC_EVENT_CONN_FAILED.
 * @ci: the connection (id, addresses and ports are used).
 * @err: positive errno for MRC_EVENT_CONN_FAILED, else 0.
 *
 * Any context.
 */
void mrc_event_conn(struct net *net, enum mrc_event_type type,
		    const struct mrc_nl_conn *ci, int err)
{
	struct nlattr *nest;
	struct sk_buff *skb;
	void *hdr;

	skb = mrc_event_new(net, type,
			    2 * nla_total_size(sizeof(u32)) +
			    2 * nla_total_size(sizeof(struct in6_addr)) +
			    2 * nla_total_size(sizeof(u16)), &hdr, &nest);
	if (!skb)
		return;
	if (nla_put_u32(skb, MRC_EVENT_A_CONN_ID, ci->id) ||
	    nla_put_in6_addr(skb, MRC_EVENT_A_LOCAL_ADDR, &ci->laddr) ||
	    nla_put_in6_addr(skb, MRC_EVENT_A_REMOTE_ADDR, &ci->raddr) ||
	    nla_put_u16(skb, MRC_EVENT_A_LOCAL_PORT, ci->lport) ||
	    nla_put_u16(skb, MRC_EVENT_A_REMOTE_PORT, ci->rport) ||
	    (err && nla_put_u32(skb, MRC_EVENT_A_ERROR, err)))
		goto abort;
	mrc_event_send(net, skb, hdr, nest);
	return;
abort:
	mrc_event_abort(net, skb);
}

/**
 * mrc_event_recovery() - a connection repaired a loss.
 * @net: the connection's namespace.
 * @conn_id: connection id.
 * @ttr_ns: time to recovery (first detection to the cumulative ack
 *	passing the loss).
 *
 * Any context.
 */
void mrc_event_recovery(struct net *net, u32 conn_id, u64 ttr_ns)
{
	struct nlattr *nest;
	struct sk_buff *skb;
	void *hdr;

	skb = mrc_event_new(net, MRC_EVENT_RECOVERY,
			    nla_total_size(sizeof(u32)) +
			    nla_total_size_64bit(sizeof(u64)), &hdr, &nest);
	if (!skb)
		return;
	if (nla_put_u32(skb, MRC_EVENT_A_CONN_ID, conn_id) ||
	    nla_put_u64_64bit(skb, MRC_EVENT_A_TTR, ttr_ns, MRC_EVENT_A_PAD))
		goto abort;
	mrc_event_send(net, skb, hdr, nest);
	return;
abort:
	mrc_event_abort(net, skb);
}

/**
 * mrc_event_plane() - a plane went up or down.
 * @net: the namespace.
 * @up: the new operational state.
 * @plane: plane id.
 * @ifindex: the plane's device (0: none).
 * @reason: enum mrc_plane_reason.
 *
 * Any context.
 */
void mrc_event_plane(struct net *net, bool up, u32 plane, int ifindex,
		     u8 reason)
{
	struct nlattr *nest;
	struct sk_buff *skb;
	void *hdr;

	skb = mrc_event_new(net, up ? MRC_EVENT_PLANE_UP : MRC_EVENT_PLANE_DOWN,
			    2 * nla_total_size(sizeof(u32)) +
			    nla_total_size(sizeof(u8)), &hdr, &nest);
	if (!skb)
		return;
	if (nla_put_u32(skb, MRC_EVENT_A_PLANE, plane) ||
	    nla_put_u32(skb, MRC_EVENT_A_IFINDEX, ifindex) ||
	    nla_put_u8(skb, MRC_EVENT_A_REASON, reason))
		goto abort;
	mrc_event_send(net, skb, hdr, nest);
	return;
abort:
	mrc_event_abort(net, skb);
}
