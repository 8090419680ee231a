/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC for Linux: the connection list (mrc_conn_list.c), the data path's
 * connections as the control plane sees them. A connection's id is its
 * local QPN.
 *
 * The list describes a connection as a struct mrc_nl_conn: a copy taken
 * under the socket lock, which its caller's visitor turns into whatever it
 * needs (a CONN_GET message in mrc_genl_conn.c) after the lock is
 * released. It knows nothing of netlink messages, so the netlink side
 * depends on the list and never the other way round. The list also
 * applies a namespace's configuration changes to its live connections and
 * reports their lifecycle to the events group.
 */
#ifndef _MRC_CONN_LIST_H
#define _MRC_CONN_LIST_H

#include <linux/types.h>
#include <linux/in6.h>

#include <linux/mrc.h>

struct net;
struct mrc_sock;

/**
 * struct mrc_conn_filter - which connections mrc_conn_list_walk() visits (a
 * CONN_GET dump's filter).
 * @id: connection id, if @has_id.
 * @laddr: local address, if @has_laddr.
 * @raddr: remote address, if @has_raddr.
 * @lport: local port (host order), if @has_lport.
 * @rport: remote port (host order), if @has_rport.
 * @state: enum mrc_conn_state, if @has_state.
 * @has_id: filter on @id.
 * @has_laddr: filter on @laddr.
 * @has_raddr: filter on @raddr.
 * @has_lport: filter on @lport.
 * @has_rport: filter on @rport.
 * @has_state: filter on @state.
 */
struct mrc_conn_filter {
	u32 id;
	struct in6_addr laddr;
	struct in6_addr raddr;
	u16 lport;
	u16 rport;
	u8 state;
	bool has_id, has_laddr, has_raddr, has_lport, has_rport, has_state;
};

/**
 * struct mrc_nl_conn_path - one EV of a connection, as CONN_GET shows it.
 * @ev: entropy value.
 * @plane: plane id.
 * @path_id: configured path id, or U32_MAX for a fallback path.
 * @state: enum mrc_path_state.
 * @reason: enum mrc_path_reason of the last change.
 * @srtt_us: smoothed RTT on the EV.
 * @tx_pkts: packets sent.
 * @retx_pkts: retransmissions sent.
 * @lost_pkts: packets declared lost.
 * @ecn_marks: ECN marks reported.
 * @timeouts: retransmission timeouts charged to the EV.
 */
struct mrc_nl_conn_path {
	u32 ev;
	u32 plane;
	u32 path_id;
	u8 state;
	u8 reason;
	u32 srtt_us;
	u64 tx_pkts;
	u64 retx_pkts;
	u64 lost_pkts;
	u64 ecn_marks;
	u64 timeouts;
};

/**
 * struct mrc_nl_conn - a connection, for CONN_GET and events.
 * @id: connection id.
 * @laddr: local node address.
 * @raddr: remote node address.
 * @lport: local port (host order).
 * @rport: remote port (host order).
 * @type: SOCK_STREAM or SOCK_SEQPACKET.
 * @state: enum mrc_conn_state.
 * @local_qpn: local QPN.
 * @remote_qpn: remote QPN.
 * @policy: name of the failure policy in use.
 * @srtt_us: smoothed RTT.
 * @rto_us: current RTO.
 * @cwnd: congestion window (bytes).
 * @inflight: bytes in flight.
 * @paths_by_state: EVs per enum mrc_path_state.
 * @retx_rto: retransmissions after a timeout.
 * @retx_nack: retransmissions after a NACK.
 * @retx_sack: retransmissions after a SACK gap.
 * @retx_ev: retransmissions after a per-EV loss.
 * @ttr_count: recoveries measured.
 * @ttr_max_ns: longest time to recovery.
 * @ttr_hist: recoveries per MRC_TTR_BUCKETS bucket.
 * @bytes_sent: payload bytes sent (first transmissions).
 * @bytes_recv: payload bytes delivered.
 * @nr_paths: entries of @paths.
 * @paths: the EV set (may be NULL when @nr_paths is 0).
 */
struct mrc_nl_conn {
	u32 id;
	struct in6_addr laddr;
	struct in6_addr raddr;
	u16 lport;
	u16 rport;
	u8 type;
	u8 state;
	u32 local_qpn;
	u32 remote_qpn;
	char policy[MRC_POLICY_NAME_LEN + 1];
	u32 srtt_us;
	u32 rto_us;
	u32 cwnd;
	u32 inflight;
	u32 paths_by_state[__MRC_PATH_STATE_MAX];
	u64 retx_rto;
	u64 retx_nack;
	u64 retx_sack;
	u64 retx_ev;
	u64 ttr_count;
	u64 ttr_max_ns;
	u64 ttr_hist[MRC_TTR_BUCKETS];
	u64 bytes_sent;
	u64 bytes_recv;
	unsigned int nr_paths;
	const struct mrc_nl_conn_path *paths;
};

/* Connections one at a time, in process context (they lock each socket). */
int mrc_conn_list_walk(struct net *net, const struct mrc_conn_filter *f, long pos[2],
		       int (*visit)(const struct mrc_nl_conn *ci, void *arg),
		       void *arg);
int mrc_conn_list_snapshot(struct net *net, u32 id,
			   int (*visit)(const struct mrc_nl_conn *ci, void *arg),
			   void *arg);

int mrc_conn_list_net_init(struct net *net);
void mrc_conn_list_net_exit(struct net *net);

#endif /* _MRC_CONN_LIST_H */
