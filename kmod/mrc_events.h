/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: events to the netlink multicast group (mrc_events.c),
 * what `mrcctl monitor` prints.
 */
#ifndef _MRC_EVENTS_H
#define _MRC_EVENTS_H

#include <linux/types.h>
#include <linux/mrc.h>

struct net;
struct mrc_nl_conn;

/* Events (any context; GFP_ATOMIC). */
void mrc_event_path_state(struct net *net, u32 conn_id, u32 ev, u32 path_id,
			  u32 plane, u8 old_state, u8 new_state, u8 reason,
			  u64 drops);
void mrc_event_conn(struct net *net, enum mrc_event_type type,
		    const struct mrc_nl_conn *ci, int err);
void mrc_event_recovery(struct net *net, u32 conn_id, u64 ttr_ns);
void mrc_event_plane(struct net *net, bool up, u32 plane, int ifindex,
		     u8 reason);

#endif /* _MRC_EVENTS_H */
