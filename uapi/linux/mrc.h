/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * MRC (Multipath Reliable Connection) for Linux: the public ABI.
 *
 * This one header is shared by the kernel module (mrc.ko), libmrc, mrcctl
 * and applications. It describes the socket API (address family, socket
 * address, socket options) and the generic netlink family "mrc". The
 * family's part, between GENERATED BEGIN and GENERATED END, is generated
 * from Documentation/netlink/specs/mrc.yaml by scripts/mrc-nlgen.py; the
 * rest is written by hand.
 *
 * Everything here is append-only: values are never renumbered.
 */
#ifndef _UAPI_LINUX_MRC_H
#define _UAPI_LINUX_MRC_H

#include <linux/types.h>
#include <linux/socket.h>
#ifdef __KERNEL__
#include <linux/in6.h>
#else
#include <netinet/in.h>
#endif

/**
 * MRC_AF_DEFAULT - default address family number of AF_MRC sockets.
 *
 * No family number below AF_MAX is free for an out-of-tree module. MRC uses
 * 25 (AF_WANPIPE), which no in-tree code registers on supported kernels.
 * The number actually in use is the module parameter "af" of mrc.ko; it is
 * reported by the netlink INFO command (MRC_A_INFO_AF) and by
 * /sys/module/mrc/parameters/af. Applications should ask at run time
 * (libmrc does) rather than trust this default.
 */
#define MRC_AF_DEFAULT		25
#ifndef AF_MRC
#define AF_MRC			MRC_AF_DEFAULT
#endif
#ifndef PF_MRC
#define PF_MRC			AF_MRC
#endif

/**
 * MRC_IPPROTO_DEFAULT - default protocol number of MRC sockets of the
 * AF_INET6 family: socket(AF_INET6, SOCK_STREAM, IPPROTO_MRC) is an MRC
 * connection addressed with struct sockaddr_in6, the drop-in for TCP
 * programs (tools/mrcize runs unmodified ones over it).
 *
 * Like IPPROTO_MPTCP (262), the number lies above the 8-bit protocol
 * numbers of IP packets, where Linux 6.1 accepts 256..262 for sockets.
 * The number in use is the module parameter "ipproto" of mrc.ko (0: not
 * registered), reported by the netlink INFO command (MRC_A_INFO_IPPROTO)
 * and by /sys/module/mrc/parameters/ipproto.
 */
#define MRC_IPPROTO_DEFAULT	261
#ifndef IPPROTO_MRC
#define IPPROTO_MRC		MRC_IPPROTO_DEFAULT
#endif

/** MRC_UDP_PORT_DEFAULT - UDP destination port of MRC packets (RoCEv2). */
#define MRC_UDP_PORT_DEFAULT	4791

/**
 * struct sockaddr_mrc - address of an MRC endpoint.
 * @smrc_family: AF_MRC.
 * @smrc_port: service port in network byte order; 0 in bind() asks for an
 *	ephemeral port.
 * @smrc_flowinfo: reserved, must be zero.
 * @smrc_addr: the node's plane-independent IPv6 address (the underlay is
 *	IPv6 only); in6addr_any in bind() accepts on every local address.
 * @smrc_scope_id: interface index for link-local addresses, else zero.
 *
 * Same size and layout as struct sockaddr_in6, so code that stores either
 * in a struct sockaddr_in6 or struct sockaddr_storage keeps working.
 */
struct sockaddr_mrc {
	__kernel_sa_family_t	smrc_family;
	__be16			smrc_port;
	__u32			smrc_flowinfo;
	struct in6_addr		smrc_addr;
	__u32			smrc_scope_id;
};

/* GENERATED BEGIN (scripts/mrc-nlgen.py) */
/*
 * From here to GENERATED END, generated from
 * Documentation/netlink/specs/mrc.yaml: do not edit by hand; edit the
 * spec and run "make netlink-gen".
 */

/* Generic netlink family. */
#define MRC_GENL_NAME		"mrc"
#define MRC_GENL_VERSION	1
#define MRC_GENL_MCGRP_EVENTS	"events"

/** MRC_VERSION_MAX_LEN - longest version string (with its NUL). */
#define MRC_VERSION_MAX_LEN	32

/** MRC_PLANE_MAX - highest plane id (the peer port-status bitmap is 32-bit). */
#define MRC_PLANE_MAX		31

/** MRC_SRH_MAX_SEGS - most segments in the segment list of an srh path. */
#define MRC_SRH_MAX_SEGS	8

/** MRC_ENTROPY_MAX - most entropy values one entropy path stands for. */
#define MRC_ENTROPY_MAX		256

/** MRC_POLICY_NAME_LEN - longest policy name, without its NUL. */
#define MRC_POLICY_NAME_LEN	15

/** MRC_POLICY_DEFAULT_NAME - the policy that always exists. */
#define MRC_POLICY_DEFAULT_NAME	"default"

/** MRC_EV_SET_MAX - highest "max EV set size" setting. */
#define MRC_EV_SET_MAX		1024

/** MRC_EV_SET_DEFAULT - default "max EV set size" setting. */
#define MRC_EV_SET_DEFAULT	64

/** MRC_PROBE_TIMEOUT_MAX_MS - longest probe timeout (ms). */
#define MRC_PROBE_TIMEOUT_MAX_MS	60000

/**
 * enum mrc_path_state - state of one path (entropy value) of a connection.
 * @MRC_PATH_GOOD: in rotation.
 * @MRC_PATH_SKIP: skipped for about one rotation (ECN mark or trim), then back
 *	to GOOD by itself.
 * @MRC_PATH_ASSUMED_BAD: out of rotation after loss without any answer; probed
 *	until enough probes succeed.
 * @MRC_PATH_DENIED: taken out by the operator; only the operator restores it.
 * @MRC_PATH_BACKUP: held in reserve, replaces a failed path of its plane.
 * @__MRC_PATH_STATE_MAX: number of values.
 */
enum mrc_path_state {
	MRC_PATH_GOOD,
	MRC_PATH_SKIP,
	MRC_PATH_ASSUMED_BAD,
	MRC_PATH_DENIED,
	MRC_PATH_BACKUP,

	__MRC_PATH_STATE_MAX
};

/**
 * enum mrc_path_reason - why a path changed state (events and counters).
 * @MRC_PR_NONE: no reason (initial state).
 * @MRC_PR_ECN: SACK carried SKIP_ONCE (ECN-marked path).
 * @MRC_PR_TRIMMED: NACK TRIMMED on this path.
 * @MRC_PR_ALWAYS_SKIP: SACK carried ALWAYS_SKIP.
 * @MRC_PR_TIMEOUT: retransmission timeout with total silence on the path.
 * @MRC_PR_LOSS: loss detected from the per-path expected PSN.
 * @MRC_PR_PROBE_OK: enough probes answered (hysteresis met).
 * @MRC_PR_PROBE_FAIL: a probe went unanswered.
 * @MRC_PR_SKIP_EXPIRED: the skip period ended.
 * @MRC_PR_PLANE_DOWN: the local plane (port) went down.
 * @MRC_PR_PLANE_UP: the local plane came back.
 * @MRC_PR_PEER_PORT_DOWN: the peer reported its port down.
 * @MRC_PR_PEER_PORT_UP: the peer reported its port up again.
 * @MRC_PR_ADMIN_DENY: the operator denied the path.
 * @MRC_PR_ADMIN_ALLOW: the operator lifted the deny.
 * @MRC_PR_REPLACED: a backup took the place of a failed path.
 * @MRC_PR_RETIRED: a failed path was retired to the backup set.
 * @MRC_PR_MIN_ACTIVE: restored to keep the minimum number of active paths.
 * @MRC_PR_PATH_REMOVED: the operator deleted the path's configuration.
 * @MRC_PR_PKT_TOO_BIG: an ICMPv6 packet-too-big for the path named an MTU below
 *	the connection's data packets.
 * @MRC_PR_TX_REFUSED: the local stack refused a packet sent on the path (no
 *	route, device down, dropped by a filter or the device): it never
 *	left.
 * @__MRC_PR_MAX: number of values.
 */
enum mrc_path_reason {
	MRC_PR_NONE,
	MRC_PR_ECN,
	MRC_PR_TRIMMED,
	MRC_PR_ALWAYS_SKIP,
	MRC_PR_TIMEOUT,
	MRC_PR_LOSS,
	MRC_PR_PROBE_OK,
	MRC_PR_PROBE_FAIL,
	MRC_PR_SKIP_EXPIRED,
	MRC_PR_PLANE_DOWN,
	MRC_PR_PLANE_UP,
	MRC_PR_PEER_PORT_DOWN,
	MRC_PR_PEER_PORT_UP,
	MRC_PR_ADMIN_DENY,
	MRC_PR_ADMIN_ALLOW,
	MRC_PR_REPLACED,
	MRC_PR_RETIRED,
	MRC_PR_MIN_ACTIVE,
	MRC_PR_PATH_REMOVED,
	MRC_PR_PKT_TOO_BIG,
	MRC_PR_TX_REFUSED,

	__MRC_PR_MAX
};

/**
 * enum mrc_fwd_mode - how a path's packets are steered through the fabric.
 * @MRC_FWD_ENTROPY: no SRv6; the EV in UDP source port and flow label selects
 *	an ECMP path.
 * @MRC_FWD_USID: outer IPv6 whose destination is a uSID container.
 * @MRC_FWD_SRH: SRv6 segment routing header (RFC 8754).
 * @__MRC_FWD_MAX: number of values.
 */
enum mrc_fwd_mode {
	MRC_FWD_ENTROPY,
	MRC_FWD_USID,
	MRC_FWD_SRH,

	__MRC_FWD_MAX
};

/**
 * enum mrc_plane_admin - administrative state of a plane.
 * @MRC_PLANE_ADMIN_DOWN: taken out of service by the operator.
 * @MRC_PLANE_ADMIN_UP: in service when its device is.
 * @__MRC_PLANE_ADMIN_MAX: number of values.
 */
enum mrc_plane_admin {
	MRC_PLANE_ADMIN_DOWN,
	MRC_PLANE_ADMIN_UP,

	__MRC_PLANE_ADMIN_MAX
};

/**
 * enum mrc_plane_oper - operational state of a plane.
 * @MRC_PLANE_OPER_DOWN: not usable (admin down, device down, no carrier or no
 *	device).
 * @MRC_PLANE_OPER_UP: usable.
 * @__MRC_PLANE_OPER_MAX: number of values.
 */
enum mrc_plane_oper {
	MRC_PLANE_OPER_DOWN,
	MRC_PLANE_OPER_UP,

	__MRC_PLANE_OPER_MAX
};

/**
 * enum mrc_plane_reason - why a plane went up or down (events).
 * @MRC_PLANE_R_NONE: no particular reason.
 * @MRC_PLANE_R_ADMIN: the operator changed the admin state.
 * @MRC_PLANE_R_LINK: the device went down or up, or lost or got carrier.
 * @MRC_PLANE_R_DEVICE_GONE: the device was unregistered (or left the
 *	namespace); the plane stays, down, until given another device.
 * @MRC_PLANE_R_DELETED: the operator deleted the plane.
 * @MRC_PLANE_R_ADDED: the operator added the plane.
 * @MRC_PLANE_R_DEVICE_CHANGED: the operator moved the plane to another device.
 * @__MRC_PLANE_R_MAX: number of values.
 */
enum mrc_plane_reason {
	MRC_PLANE_R_NONE,
	MRC_PLANE_R_ADMIN,
	MRC_PLANE_R_LINK,
	MRC_PLANE_R_DEVICE_GONE,
	MRC_PLANE_R_DELETED,
	MRC_PLANE_R_ADDED,
	MRC_PLANE_R_DEVICE_CHANGED,

	__MRC_PLANE_R_MAX
};

/**
 * enum mrc_conn_state - state of a connection.
 * @MRC_CONN_CLOSED: closed, or not yet connected.
 * @MRC_CONN_LISTEN: listening (a listener, not a connection).
 * @MRC_CONN_REQ_SENT: connection request sent, waiting for the reply.
 * @MRC_CONN_REQ_RCVD: request received, reply sent, waiting for ready.
 * @MRC_CONN_ESTABLISHED: data flows.
 * @MRC_CONN_CLOSING: disconnect in progress.
 * @MRC_CONN_FAILED: failed (timeout, reset); waiting for the owner to close.
 * @__MRC_CONN_STATE_MAX: number of values.
 */
enum mrc_conn_state {
	MRC_CONN_CLOSED,
	MRC_CONN_LISTEN,
	MRC_CONN_REQ_SENT,
	MRC_CONN_REQ_RCVD,
	MRC_CONN_ESTABLISHED,
	MRC_CONN_CLOSING,
	MRC_CONN_FAILED,

	__MRC_CONN_STATE_MAX
};

/**
 * enum mrc_event_type - kinds of MRC_CMD_EVENT notifications.
 * @MRC_EVENT_UNSPEC: never used.
 * @MRC_EVENT_PATH_STATE: an EV of a connection changed state (conn id, EV, path
 *	id, plane, old and new state, reason, drops). Old and new state are
 *	equal when only the reason changed: a path that had just failed by
 *	timeouts is now known to be out because its plane or the peer's port
 *	went down, and will return with it.
 * @MRC_EVENT_PLANE_UP: a plane became usable (plane, ifindex, reason).
 * @MRC_EVENT_PLANE_DOWN: a plane became unusable (plane, ifindex, reason).
 * @MRC_EVENT_CONN_ESTABLISHED: a connection was established (conn id,
 *	addresses, ports).
 * @MRC_EVENT_CONN_CLOSED: a connection closed normally.
 * @MRC_EVENT_CONN_FAILED: a connection failed (with the errno).
 * @MRC_EVENT_RECOVERY: a loss was repaired (conn id, time to recovery).
 * @__MRC_EVENT_MAX: number of values.
 */
enum mrc_event_type {
	MRC_EVENT_UNSPEC,
	MRC_EVENT_PATH_STATE,
	MRC_EVENT_PLANE_UP,
	MRC_EVENT_PLANE_DOWN,
	MRC_EVENT_CONN_ESTABLISHED,
	MRC_EVENT_CONN_CLOSED,
	MRC_EVENT_CONN_FAILED,
	MRC_EVENT_RECOVERY,

	__MRC_EVENT_MAX
};

/**
 * enum mrc_mib - counters of a namespace (MRC_CMD_STATS_GET, inside MRC_A_STATS
 * as u64 attributes of these types, and /proc/net/mrc_stat). The data path
 * appends more; tools print unknown ones by number.
 * @MRC_MIB_UNSPEC: never used (so that every counter is a valid attribute
 *	type).
 * @MRC_MIB_IN_PKTS: MRC packets received.
 * @MRC_MIB_IN_BYTES: bytes of MRC packets received (UDP payload).
 * @MRC_MIB_OUT_PKTS: MRC packets sent.
 * @MRC_MIB_OUT_BYTES: bytes of MRC packets sent (UDP payload).
 * @MRC_MIB_IN_DROP_MALFORMED: received packets dropped: truncated or bad
 *	headers.
 * @MRC_MIB_IN_DROP_CSUM: received packets dropped: bad ICRC. Reserved for the
 *	ICRC option, which this version never offers, so it stays 0; a bad
 *	UDP checksum is dropped by the UDP layer before MRC sees it
 *	(Udp6InCsumErrors in /proc/net/snmp6).
 * @MRC_MIB_IN_DROP_NO_CONN: received packets dropped: no such connection.
 * @MRC_MIB_IN_DROP_BAD_KEY: received packets dropped: wrong key (the R_Key of
 *	data, the key of a SACK, NACK or probe, a RESET's key, a CM cookie or
 *	port).
 * @MRC_MIB_IN_DROP_PSN_WINDOW: received packets dropped: PSN outside the
 *	window.
 * @MRC_MIB_IN_DROP_DUP: received duplicates (already placed).
 * @MRC_MIB_IN_DROP_NOMEM: received packets dropped: no memory or no receive
 *	credit.
 * @MRC_MIB_OUT_DROP_NO_PATH: packets not sent: no usable path.
 * @MRC_MIB_OUT_DROP_NOMEM: packets not sent: no memory.
 * @MRC_MIB_HS_REQ_SENT: connection requests sent.
 * @MRC_MIB_HS_REQ_RECV: connection requests received.
 * @MRC_MIB_HS_ESTABLISHED: connections established.
 * @MRC_MIB_HS_REJECTED: connection requests rejected (nobody listens, backlog
 *	full).
 * @MRC_MIB_HS_TIMEOUT: connection attempts that timed out.
 * @MRC_MIB_CONN_RESET: connections reset by the peer.
 * @MRC_MIB_CONN_TIMEOUT: connections failed with ETIMEDOUT.
 * @MRC_MIB_RETX_RTO: retransmissions after a timeout.
 * @MRC_MIB_RETX_NACK: retransmissions after a NACK.
 * @MRC_MIB_RETX_SACK: retransmissions after a SACK gap.
 * @MRC_MIB_RETX_EV: retransmissions after a per-EV loss or because the EV's
 *	link (local plane or peer port) went down.
 * @MRC_MIB_SACK_IN: SACKs received.
 * @MRC_MIB_SACK_OUT: SACKs sent.
 * @MRC_MIB_NACK_IN: NACKs received.
 * @MRC_MIB_NACK_OUT: NACKs sent.
 * @MRC_MIB_ECN_MARKS: ECN marks reported by peers.
 * @MRC_MIB_PATH_TO_SKIP: EV transitions to SKIP.
 * @MRC_MIB_PATH_TO_BAD: EV transitions to ASSUMED_BAD.
 * @MRC_MIB_PATH_TO_GOOD: EV transitions back to GOOD.
 * @MRC_MIB_PATH_DENIED: EV transitions to DENIED.
 * @MRC_MIB_PATH_REPLACED: failed EVs replaced by a backup.
 * @MRC_MIB_PROBES_SENT: probes sent.
 * @MRC_MIB_PROBES_ANSWERED: probes answered.
 * @MRC_MIB_PROBES_TIMEOUT: probes unanswered.
 * @MRC_MIB_RECOVERIES: losses repaired (time to recovery measured).
 * @MRC_MIB_PLANE_DOWN: plane transitions to down.
 * @MRC_MIB_PLANE_UP: plane transitions to up.
 * @MRC_MIB_EVENTS_DROPPED: events that could not be sent (no memory).
 * @MRC_MIB_EP_REQ_RECV: endpoint requests (QPN 2) received.
 * @MRC_MIB_EP_DROP_RATELIMIT: endpoint requests not answered or applied: the
 *	namespace's rate limit was exceeded.
 * @MRC_MIB_EP_PROBES_SENT: EV probes sent (MRC_CMD_PROBE).
 * @MRC_MIB_EP_PROBES_ANSWERED: EV probes answered in time.
 * @MRC_MIB_EP_PROBES_TIMEOUT: EV probes unanswered in time.
 * @MRC_MIB_PORT_STATUS_SENT: port-status updates sent to peers.
 * @MRC_MIB_PORT_STATUS_RECV: port-status updates applied to connections.
 * @MRC_MIB_OUT_ROUTE_LOOKUPS: routes looked up to send a packet. A usid or srh
 *	path keeps its route until the routing table changes, so this stays
 *	far below OutPkts; entropy paths look up every packet.
 * @MRC_MIB_HS_UNREACHABLE: connection requests answered by an ICMPv6 port
 *	unreachable: the peer host runs no MRC (connect() fails with
 *	ECONNREFUSED at once).
 * @MRC_MIB_TCP_ACCEPTED: plain TCP connections accepted by MRC listeners
 *	(MRC_SO_ACCEPT_TCP).
 * @MRC_MIB_PATH_FLAPS: paths that failed again right after coming back from
 *	assumed-bad (within 16 probe intervals): each one's probes then back
 *	off further.
 * @MRC_MIB_RESET_NO_CONN_SENT: RESETs answering a data packet for an unknown
 *	connection (the peer restarted, or closed and its RESET was lost):
 *	the sender fails at once with ECONNRESET.
 * @MRC_MIB_CTL_DROP_RATELIMIT: stateless control work not done, over the
 *	namespace's budget (1000 per second): RESETs answering data for an
 *	unknown connection, and the lookups of NO_CONN RESETs received.
 * @MRC_MIB_IN_TRANSPORT_ACK: RoCE Transport ACKs (opcode 0xD1) received:
 *	decoded, counted and ignored (MRC for Linux acknowledges with SACKs
 *	and sends none).
 * @MRC_MIB_HS_COOKIE_SENT: CM_REPs sent by listeners keeping no state: each
 *	carries a cookie (a keyed MAC) that the requester's CM_RTU must echo.
 * @MRC_MIB_HS_COOKIE_BAD: CM_RTUs for no connection whose cookie is not one of
 *	ours (forged, or a field changed): dropped, nothing created.
 * @MRC_MIB_HS_COOKIE_EXPIRED: CM_RTUs whose cookie was ours but has outlived
 *	its life (12 to 16 s): dropped, nothing created.
 * @MRC_MIB_PATH_PROBE_DEFERRED: Path probes held back because the namespace's
 *	probe budget (4000 per second) was spent: the path is probed later
 *	and nothing counts against it.
 * @MRC_MIB_HS_REQ_DROP_RATELIMIT: CM_REQs not answered because the namespace's
 *	CM_REP budget (10000 per second) was spent: the requester retries.
 * @MRC_MIB_PATH_PKT_TOO_BIG: ICMPv6 packet-too-big errors that took a path of a
 *	connection out (their MTU was below the connection's data packets).
 * @MRC_MIB_PATH_PROBE_SHARED: Path probes not sent because another connection's
 *	probe to the same peer over the same source route (usid or srh), at
 *	least as large, was answered within the probe interval: taken as
 *	answered.
 * @MRC_MIB_PATH_REVERSE_PROBES: reverse-liveness probes: EV probes of paths in
 *	use that carried our SACKs or NACKs and heard nothing back for 4
 *	probe intervals (also in ProbesSent).
 * @MRC_MIB_OUT_REFUSED: packets the local stack refused (no route, device down,
 *	dropped by a filter or a full queue, not NET_XMIT_CN): data packets
 *	are resent on another path (after a pause, for a full queue).
 * @MRC_MIB_PATH_TX_REFUSED: paths of a connection taken out because the local
 *	stack refused their packets (reason tx-refused).
 * @MRC_MIB_PATH_PROBE_STALE: answers to path probes of failed or backup paths
 *	that echoed an earlier probe's send time (late): not counted as
 *	answers.
 * @MRC_MIB_OUT_BURSTS: segmentation-offload packets sent: bursts of more than
 *	one data packet on one path, each cut into whole MRC packets by the
 *	stack or the device (OutPkts counts their packets).
 * @MRC_MIB_OUT_ZERO_COPY_BYTES: bytes sendfile() or splice() queued by
 *	reference to their pages, with no copy (stream sockets; OutBytes
 *	counts them on the wire).
 * @MRC_MIB_IN_SACK_CREDIT_BOGUS: SACKs with the right key whose credit no
 *	receiver could have granted (beyond what it acknowledged plus its
 *	buffer): forged or broken, their credit, port status and MPR ignored.
 * @MRC_MIB_PATH_SUSPECT: paths of a connection made suspect: a packet missing
 *	while later ones on other paths were acknowledged and nothing heard
 *	on its path since (a SACK gap, or a timeout in the path's silence),
 *	which a late path shows as well as a dead one. A suspect path takes
 *	no new packet while another path may; it is out (reason loss or
 *	timeout) if it is heard from no sooner than two RTOs after that
 *	packet left.
 * @MRC_MIB_PATH_SUSPECT_CLEARED: suspect paths heard from in time (a late
 *	packet's SACK): they stayed in use, a path timeout that would have
 *	been false.
 * @MRC_MIB_IN_ECN_CE: MRC packets that arrived marked Congestion Experienced (a
 *	queue on their path marked them): a data packet's mark goes back to
 *	its sender in the SACK, which skips that path (policy ecn-response)
 *	and slows down.
 * @MRC_MIB_IN_ECN_DECAP_CE: MRC packets whose outer IPv6 header (usid, srh)
 *	arrived CE-marked, the mark copied into the inner header before this
 *	host decapsulated them (RFC 6040; the kernel's seg6 decapsulation
 *	drops it).
 * @__MRC_MIB_MAX: number of values.
 * @MRC_MIB_MAX: highest value.
 */
enum mrc_mib {
	MRC_MIB_UNSPEC,
	MRC_MIB_IN_PKTS,
	MRC_MIB_IN_BYTES,
	MRC_MIB_OUT_PKTS,
	MRC_MIB_OUT_BYTES,
	MRC_MIB_IN_DROP_MALFORMED,
	MRC_MIB_IN_DROP_CSUM,
	MRC_MIB_IN_DROP_NO_CONN,
	MRC_MIB_IN_DROP_BAD_KEY,
	MRC_MIB_IN_DROP_PSN_WINDOW,
	MRC_MIB_IN_DROP_DUP,
	MRC_MIB_IN_DROP_NOMEM,
	MRC_MIB_OUT_DROP_NO_PATH,
	MRC_MIB_OUT_DROP_NOMEM,
	MRC_MIB_HS_REQ_SENT,
	MRC_MIB_HS_REQ_RECV,
	MRC_MIB_HS_ESTABLISHED,
	MRC_MIB_HS_REJECTED,
	MRC_MIB_HS_TIMEOUT,
	MRC_MIB_CONN_RESET,
	MRC_MIB_CONN_TIMEOUT,
	MRC_MIB_RETX_RTO,
	MRC_MIB_RETX_NACK,
	MRC_MIB_RETX_SACK,
	MRC_MIB_RETX_EV,
	MRC_MIB_SACK_IN,
	MRC_MIB_SACK_OUT,
	MRC_MIB_NACK_IN,
	MRC_MIB_NACK_OUT,
	MRC_MIB_ECN_MARKS,
	MRC_MIB_PATH_TO_SKIP,
	MRC_MIB_PATH_TO_BAD,
	MRC_MIB_PATH_TO_GOOD,
	MRC_MIB_PATH_DENIED,
	MRC_MIB_PATH_REPLACED,
	MRC_MIB_PROBES_SENT,
	MRC_MIB_PROBES_ANSWERED,
	MRC_MIB_PROBES_TIMEOUT,
	MRC_MIB_RECOVERIES,
	MRC_MIB_PLANE_DOWN,
	MRC_MIB_PLANE_UP,
	MRC_MIB_EVENTS_DROPPED,
	MRC_MIB_EP_REQ_RECV,
	MRC_MIB_EP_DROP_RATELIMIT,
	MRC_MIB_EP_PROBES_SENT,
	MRC_MIB_EP_PROBES_ANSWERED,
	MRC_MIB_EP_PROBES_TIMEOUT,
	MRC_MIB_PORT_STATUS_SENT,
	MRC_MIB_PORT_STATUS_RECV,
	MRC_MIB_OUT_ROUTE_LOOKUPS,
	MRC_MIB_HS_UNREACHABLE,
	MRC_MIB_TCP_ACCEPTED,
	MRC_MIB_PATH_FLAPS,
	MRC_MIB_RESET_NO_CONN_SENT,
	MRC_MIB_CTL_DROP_RATELIMIT,
	MRC_MIB_IN_TRANSPORT_ACK,
	MRC_MIB_HS_COOKIE_SENT,
	MRC_MIB_HS_COOKIE_BAD,
	MRC_MIB_HS_COOKIE_EXPIRED,
	MRC_MIB_PATH_PROBE_DEFERRED,
	MRC_MIB_HS_REQ_DROP_RATELIMIT,
	MRC_MIB_PATH_PKT_TOO_BIG,
	MRC_MIB_PATH_PROBE_SHARED,
	MRC_MIB_PATH_REVERSE_PROBES,
	MRC_MIB_OUT_REFUSED,
	MRC_MIB_PATH_TX_REFUSED,
	MRC_MIB_PATH_PROBE_STALE,
	MRC_MIB_OUT_BURSTS,
	MRC_MIB_OUT_ZERO_COPY_BYTES,
	MRC_MIB_IN_SACK_CREDIT_BOGUS,
	MRC_MIB_PATH_SUSPECT,
	MRC_MIB_PATH_SUSPECT_CLEARED,
	MRC_MIB_IN_ECN_CE,
	MRC_MIB_IN_ECN_DECAP_CE,

	__MRC_MIB_MAX,
	MRC_MIB_MAX = __MRC_MIB_MAX - 1
};

/**
 * enum mrc_cmd - generic netlink commands of the "mrc" family.
 * @MRC_CMD_UNSPEC: never used.
 * @MRC_CMD_INFO_GET: module version, address family number and UDP port of the
 *	caller's network namespace (do).
 * @MRC_CMD_PLANE_ADD: add a plane (do; MRC_A_PLANE with id, device, source
 *	address, optional admin state). CAP_NET_ADMIN.
 * @MRC_CMD_PLANE_DEL: delete a plane and every path on it (do; MRC_A_PLANE with
 *	id). CAP_NET_ADMIN.
 * @MRC_CMD_PLANE_SET: change a plane's device, source address or admin state
 *	(do; MRC_A_PLANE with id). CAP_NET_ADMIN.
 * @MRC_CMD_PLANE_GET: one plane (do, MRC_A_PLANE with id) or all (dump).
 * @MRC_CMD_PATH_ADD: add a path (do; MRC_A_PATH). CAP_NET_ADMIN.
 * @MRC_CMD_PATH_DEL: delete a path (do; MRC_A_PATH with id). CAP_NET_ADMIN.
 * @MRC_CMD_PATH_SET: change a path's weight or deny flag (do; MRC_A_PATH with
 *	id). CAP_NET_ADMIN.
 * @MRC_CMD_PATH_GET: one path (do, MRC_A_PATH with id) or all (dump).
 * @MRC_CMD_POLICY_ADD: add a failure policy (do; MRC_A_POLICY with a name;
 *	knobs not given take their defaults). CAP_NET_ADMIN.
 * @MRC_CMD_POLICY_DEL: delete a failure policy other than "default" (do;
 *	MRC_A_POLICY with name). CAP_NET_ADMIN.
 * @MRC_CMD_POLICY_SET: change knobs of a policy; existing connections that use
 *	it follow (do; MRC_A_POLICY with name). CAP_NET_ADMIN.
 * @MRC_CMD_POLICY_GET: one policy (do, MRC_A_POLICY with name) or all (dump).
 * @MRC_CMD_SETTINGS_GET: the namespace's settings (do; MRC_A_SETTINGS).
 * @MRC_CMD_SETTINGS_SET: change settings (do; MRC_A_SETTINGS). CAP_NET_ADMIN.
 * @MRC_CMD_CONN_GET: one connection (do, MRC_A_CONN with id) or all, optionally
 *	filtered by the attributes of MRC_A_CONN (dump). A connection whose
 *	EVs do not fit one message comes in several (see enum mrc_conn_attr),
 *	in a dump as in the reply of a do, all from one snapshot of it.
 * @MRC_CMD_STATS_GET: the namespace's MIB counters and its time-to-recovery
 *	histogram (do; MRC_A_STATS, MRC_A_STATS_TTR_HIST,
 *	MRC_A_STATS_TTR_SUM).
 * @MRC_CMD_PROBE: send an EV probe along one path to a destination and report
 *	its round-trip time (do; MRC_A_PROBE). CAP_NET_ADMIN.
 * @MRC_CMD_EVENT: a notification of the "events" multicast group (MRC_A_EVENT);
 *	never a request.
 * @__MRC_CMD_MAX: number of commands.
 * @MRC_CMD_MAX: highest command.
 */
enum mrc_cmd {
	MRC_CMD_UNSPEC,
	MRC_CMD_INFO_GET,
	MRC_CMD_PLANE_ADD,
	MRC_CMD_PLANE_DEL,
	MRC_CMD_PLANE_SET,
	MRC_CMD_PLANE_GET,
	MRC_CMD_PATH_ADD,
	MRC_CMD_PATH_DEL,
	MRC_CMD_PATH_SET,
	MRC_CMD_PATH_GET,
	MRC_CMD_POLICY_ADD,
	MRC_CMD_POLICY_DEL,
	MRC_CMD_POLICY_SET,
	MRC_CMD_POLICY_GET,
	MRC_CMD_SETTINGS_GET,
	MRC_CMD_SETTINGS_SET,
	MRC_CMD_CONN_GET,
	MRC_CMD_STATS_GET,
	MRC_CMD_PROBE,
	MRC_CMD_EVENT,

	__MRC_CMD_MAX,
	MRC_CMD_MAX = __MRC_CMD_MAX - 1
};

/**
 * enum mrc_attr - top-level attributes of the "mrc" family.
 * @MRC_A_UNSPEC: never used.
 * @MRC_A_PAD: padding for 64-bit attributes.
 * @MRC_A_INFO_VERSION: module version (NUL-terminated string).
 * @MRC_A_INFO_AF: address family number the module registered (u32).
 * @MRC_A_INFO_UDP_PORT: UDP port of the namespace (u16, host order).
 * @MRC_A_INFO_NETNS_COOKIE: unique cookie of the answering namespace (u64), so
 *	tools can tell namespaces apart.
 * @MRC_A_PLANE: a plane (nested, enum mrc_plane_attr).
 * @MRC_A_PATH: a path (nested, enum mrc_path_attr).
 * @MRC_A_POLICY: a failure policy (nested, enum mrc_policy_attr).
 * @MRC_A_SETTINGS: namespace settings (nested, enum mrc_settings_attr).
 * @MRC_A_CONN: a connection, or the filter of a connection dump (nested, enum
 *	mrc_conn_attr).
 * @MRC_A_STATS: MIB counters (nested; attribute type = enum mrc_mib, u64).
 * @MRC_A_PROBE: a probe request and its result (nested, enum mrc_probe_attr).
 * @MRC_A_EVENT: an event (nested, enum mrc_event_attr).
 * @MRC_A_INFO_IPPROTO: protocol number of MRC sockets under AF_INET6 the module
 *	registered, 0 if none (u32).
 * @MRC_A_STATS_TTR_HIST: the namespace's time-to-recovery histogram, every
 *	recovery of every connection since the namespace was created, kept
 *	when connections close (nested, in MRC_CMD_STATS_GET replies:
 *	attribute type b + 1 is the u64 count of bucket b of MRC_TTR_BUCKETS,
 *	every bucket present; type 0 pads).
 * @MRC_A_STATS_TTR_SUM: sum of the times to recovery counted in
 *	MRC_A_STATS_TTR_HIST (u64, ns).
 * @__MRC_A_MAX: number of attributes.
 * @MRC_A_MAX: highest attribute.
 */
enum mrc_attr {
	MRC_A_UNSPEC,
	MRC_A_PAD,
	MRC_A_INFO_VERSION,
	MRC_A_INFO_AF,
	MRC_A_INFO_UDP_PORT,
	MRC_A_INFO_NETNS_COOKIE,
	MRC_A_PLANE,
	MRC_A_PATH,
	MRC_A_POLICY,
	MRC_A_SETTINGS,
	MRC_A_CONN,
	MRC_A_STATS,
	MRC_A_PROBE,
	MRC_A_EVENT,
	MRC_A_INFO_IPPROTO,
	MRC_A_STATS_TTR_HIST,
	MRC_A_STATS_TTR_SUM,

	__MRC_A_MAX,
	MRC_A_MAX = __MRC_A_MAX - 1
};

/**
 * enum mrc_plane_attr - attributes of a plane (inside MRC_A_PLANE).
 * @MRC_PLANE_A_UNSPEC: never used.
 * @MRC_PLANE_A_ID: plane id, 0..MRC_PLANE_MAX (u32).
 * @MRC_PLANE_A_IFINDEX: the plane's network device in the caller's namespace
 *	(u32); 0 in replies when the device went away.
 * @MRC_PLANE_A_IFNAME: the device by name (string, < IFNAMSIZ); an alternative
 *	to MRC_PLANE_A_IFINDEX in requests, filled in replies.
 * @MRC_PLANE_A_SADDR: source IPv6 address of packets sent on the plane (16
 *	bytes, unicast).
 * @MRC_PLANE_A_ADMIN: administrative state, enum mrc_plane_admin (u8).
 * @MRC_PLANE_A_OPER: operational state, enum mrc_plane_oper (u8, replies only):
 *	up when admin up, the device running and with carrier.
 * @MRC_PLANE_A_NR_PATHS: paths configured on the plane (u32, replies only).
 * @__MRC_PLANE_A_MAX: number of attributes.
 * @MRC_PLANE_A_MAX: highest attribute.
 */
enum mrc_plane_attr {
	MRC_PLANE_A_UNSPEC,
	MRC_PLANE_A_ID,
	MRC_PLANE_A_IFINDEX,
	MRC_PLANE_A_IFNAME,
	MRC_PLANE_A_SADDR,
	MRC_PLANE_A_ADMIN,
	MRC_PLANE_A_OPER,
	MRC_PLANE_A_NR_PATHS,

	__MRC_PLANE_A_MAX,
	MRC_PLANE_A_MAX = __MRC_PLANE_A_MAX - 1
};

/**
 * enum mrc_path_attr - attributes of a path (inside MRC_A_PATH).
 * @MRC_PATH_A_UNSPEC: never used.
 * @MRC_PATH_A_ID: path id (u32).
 * @MRC_PATH_A_DST: destination prefix address (16 bytes); host bits must be
 *	zero.
 * @MRC_PATH_A_DST_LEN: destination prefix length, 0..128 (u8).
 * @MRC_PATH_A_PLANE: id of the plane the path leaves on (u32).
 * @MRC_PATH_A_MODE: forwarding mode, enum mrc_fwd_mode (u8).
 * @MRC_PATH_A_USID: uSID container, the outer destination of a usid path (16
 *	bytes; not multicast, unspecified or loopback).
 * @MRC_PATH_A_SEGS: segment list of an srh path (nested: 1 to MRC_SRH_MAX_SEGS
 *	MRC_SEG_A_ADDR, first segment first).
 * @MRC_PATH_A_ENTROPY: entropy values an entropy path stands for,
 *	1..MRC_ENTROPY_MAX (u16).
 * @MRC_PATH_A_WEIGHT: chance of being in a connection's EV set relative to the
 *	other paths of its plane, when the plane has more paths than its
 *	share of the set, 1..255 (u8, default 1).
 * @MRC_PATH_A_DENY: 1 takes the path out of service (u8, 0 or 1).
 * @__MRC_PATH_A_MAX: number of attributes.
 * @MRC_PATH_A_MAX: highest attribute.
 */
enum mrc_path_attr {
	MRC_PATH_A_UNSPEC,
	MRC_PATH_A_ID,
	MRC_PATH_A_DST,
	MRC_PATH_A_DST_LEN,
	MRC_PATH_A_PLANE,
	MRC_PATH_A_MODE,
	MRC_PATH_A_USID,
	MRC_PATH_A_SEGS,
	MRC_PATH_A_ENTROPY,
	MRC_PATH_A_WEIGHT,
	MRC_PATH_A_DENY,

	__MRC_PATH_A_MAX,
	MRC_PATH_A_MAX = __MRC_PATH_A_MAX - 1
};

/**
 * enum mrc_seg_attr - one segment of a segment list (inside MRC_PATH_A_SEGS).
 * @MRC_SEG_A_UNSPEC: never used.
 * @MRC_SEG_A_ADDR: a segment (16 bytes, unicast IPv6).
 * @__MRC_SEG_A_MAX: number of attributes.
 * @MRC_SEG_A_MAX: highest attribute.
 */
enum mrc_seg_attr {
	MRC_SEG_A_UNSPEC,
	MRC_SEG_A_ADDR,

	__MRC_SEG_A_MAX,
	MRC_SEG_A_MAX = __MRC_SEG_A_MAX - 1
};

/**
 * enum mrc_policy_attr - attributes of a failure policy (inside MRC_A_POLICY).
 * Times are in nanoseconds; the meaning and bounds of each knob are those of
 * struct mrc_policy (kmod/core/mrc_policy.h).
 * @MRC_POLICY_A_UNSPEC: never used.
 * @MRC_POLICY_A_PAD: padding for 64-bit attributes.
 * @MRC_POLICY_A_NAME: policy name, 1..MRC_POLICY_NAME_LEN characters of
 *	[a-zA-Z0-9_-] (string).
 * @MRC_POLICY_A_RTO_MIN: lower bound of the RTO (u64 ns).
 * @MRC_POLICY_A_RTO_MAX: upper bound of the RTO (u64 ns).
 * @MRC_POLICY_A_PROBE_INTERVAL: time between probes of a bad path (u64 ns).
 * @MRC_POLICY_A_SKIP: time a path stays in SKIP (u64 ns).
 * @MRC_POLICY_A_RETRY_LIMIT: timer expiries per packet before ETIMEDOUT (u32).
 * @MRC_POLICY_A_FAIL_TO_BAD: failures that make a path ASSUMED_BAD (u32).
 * @MRC_POLICY_A_SUCCESS_TO_GOOD: answered probes that make it GOOD (u32).
 * @MRC_POLICY_A_MIN_ACTIVE: floor on paths in use (u32).
 * @MRC_POLICY_A_MAX_PATHS: EV set size of a connection (u32).
 * @MRC_POLICY_A_BACKUPS: backup paths per plane (u32).
 * @MRC_POLICY_A_SACK_GAP: packets SACKed past a hole before it is lost (u32).
 * @MRC_POLICY_A_ECN_RESPONSE: 1 skips ECN-marked paths (u8, 0 or 1).
 * @MRC_POLICY_A_DEFAULT: 1 when this is the namespace's default policy (u8,
 *	replies only).
 * @MRC_POLICY_A_KEEPALIVE: 1: every connection keeps alive when idle, as if its
 *	socket had SO_KEEPALIVE set (u8, 0 or 1).
 * @MRC_POLICY_A_KEEPALIVE_IDLE: silence before the first keepalive probe; the
 *	default of TCP_KEEPIDLE (u64 ns).
 * @MRC_POLICY_A_KEEPALIVE_INTERVAL: time between unanswered keepalive probes;
 *	the default of TCP_KEEPINTVL (u64 ns).
 * @MRC_POLICY_A_KEEPALIVE_COUNT: unanswered keepalive probes before ETIMEDOUT;
 *	the default of TCP_KEEPCNT (u32).
 * @__MRC_POLICY_A_MAX: number of attributes.
 * @MRC_POLICY_A_MAX: highest attribute.
 */
enum mrc_policy_attr {
	MRC_POLICY_A_UNSPEC,
	MRC_POLICY_A_PAD,
	MRC_POLICY_A_NAME,
	MRC_POLICY_A_RTO_MIN,
	MRC_POLICY_A_RTO_MAX,
	MRC_POLICY_A_PROBE_INTERVAL,
	MRC_POLICY_A_SKIP,
	MRC_POLICY_A_RETRY_LIMIT,
	MRC_POLICY_A_FAIL_TO_BAD,
	MRC_POLICY_A_SUCCESS_TO_GOOD,
	MRC_POLICY_A_MIN_ACTIVE,
	MRC_POLICY_A_MAX_PATHS,
	MRC_POLICY_A_BACKUPS,
	MRC_POLICY_A_SACK_GAP,
	MRC_POLICY_A_ECN_RESPONSE,
	MRC_POLICY_A_DEFAULT,
	MRC_POLICY_A_KEEPALIVE,
	MRC_POLICY_A_KEEPALIVE_IDLE,
	MRC_POLICY_A_KEEPALIVE_INTERVAL,
	MRC_POLICY_A_KEEPALIVE_COUNT,

	__MRC_POLICY_A_MAX,
	MRC_POLICY_A_MAX = __MRC_POLICY_A_MAX - 1
};

/**
 * enum mrc_settings_attr - namespace settings (inside MRC_A_SETTINGS).
 * @MRC_SETTINGS_A_UNSPEC: never used.
 * @MRC_SETTINGS_A_UDP_PORT: UDP destination port, 1..65535 (u16); refused with
 *	EBUSY while MRC sockets exist in the namespace.
 * @MRC_SETTINGS_A_DEFAULT_POLICY: name of the policy new connections use unless
 *	a socket picks one (string).
 * @MRC_SETTINGS_A_MAX_EV_SET: most EVs (paths) in a connection's set,
 *	1..MRC_EV_SET_MAX (u32).
 * @__MRC_SETTINGS_A_MAX: number of attributes.
 * @MRC_SETTINGS_A_MAX: highest attribute.
 */
enum mrc_settings_attr {
	MRC_SETTINGS_A_UNSPEC,
	MRC_SETTINGS_A_UDP_PORT,
	MRC_SETTINGS_A_DEFAULT_POLICY,
	MRC_SETTINGS_A_MAX_EV_SET,

	__MRC_SETTINGS_A_MAX,
	MRC_SETTINGS_A_MAX = __MRC_SETTINGS_A_MAX - 1
};

/**
 * enum mrc_conn_attr - attributes of a connection (inside MRC_A_CONN). In a
 * CONN_GET dump request MRC_A_CONN is a filter: only connections whose
 * attributes equal every given one of MRC_CONN_A_ID, _LOCAL_ADDR, _REMOTE_ADDR,
 * _LOCAL_PORT, _REMOTE_PORT and _STATE are listed. In a reply, a connection's
 * first message holds every attribute and the first of its EVs; a connection
 * with more EVs than one message holds (at most 128 a message: a nest's length
 * is 16 bits, and a 1024-EV set is about 115 KB) continues in the messages
 * right after it, each with only MRC_CONN_A_ID, MRC_CONN_A_PATHS_FROM and the
 * next EVs. A reader appends their EVs to the connection's until it has
 * MRC_CONN_A_NR_PATHS.
 * @MRC_CONN_A_UNSPEC: never used.
 * @MRC_CONN_A_PAD: padding for 64-bit attributes.
 * @MRC_CONN_A_ID: connection id, unique in the namespace (u32).
 * @MRC_CONN_A_LOCAL_ADDR: local node address (16 bytes).
 * @MRC_CONN_A_REMOTE_ADDR: remote node address (16 bytes).
 * @MRC_CONN_A_LOCAL_PORT: local service port (u16, host order).
 * @MRC_CONN_A_REMOTE_PORT: remote service port (u16, host order).
 * @MRC_CONN_A_TYPE: SOCK_STREAM or SOCK_SEQPACKET (u8).
 * @MRC_CONN_A_STATE: enum mrc_conn_state (u8).
 * @MRC_CONN_A_LOCAL_QPN: local queue pair number (u32).
 * @MRC_CONN_A_REMOTE_QPN: remote queue pair number (u32).
 * @MRC_CONN_A_POLICY: name of the failure policy in use (string).
 * @MRC_CONN_A_SRTT: smoothed round-trip time (u32, microseconds).
 * @MRC_CONN_A_RTO: current retransmission timeout (u32, microseconds).
 * @MRC_CONN_A_CWND: congestion window (u32, bytes).
 * @MRC_CONN_A_INFLIGHT: bytes sent and not yet acknowledged (u32).
 * @MRC_CONN_A_PATHS_GOOD: EVs in GOOD (u32).
 * @MRC_CONN_A_PATHS_SKIP: EVs in SKIP (u32).
 * @MRC_CONN_A_PATHS_BAD: EVs in ASSUMED_BAD (u32).
 * @MRC_CONN_A_PATHS_DENIED: EVs in DENIED (u32).
 * @MRC_CONN_A_PATHS_BACKUP: EVs in BACKUP (u32).
 * @MRC_CONN_A_RETX_RTO: retransmissions after a timeout (u64).
 * @MRC_CONN_A_RETX_NACK: retransmissions after a NACK (u64).
 * @MRC_CONN_A_RETX_SACK: retransmissions after a SACK gap (u64).
 * @MRC_CONN_A_RETX_EV: retransmissions after a per-EV loss or because the EV's
 *	link (local plane or peer port) went down (u64).
 * @MRC_CONN_A_TTR_COUNT: recoveries measured (u64).
 * @MRC_CONN_A_TTR_MAX: longest time to recovery (u64, ns).
 * @MRC_CONN_A_BYTES_SENT: payload bytes sent, first transmissions (u64).
 * @MRC_CONN_A_BYTES_RECV: payload bytes delivered to the receiver (u64).
 * @MRC_CONN_A_PATHS: the EV set (nested: one MRC_CONN_A_PATH per EV).
 * @MRC_CONN_A_PATH: one EV (nested, enum mrc_conn_path_attr).
 * @MRC_CONN_A_TTR_HIST: time-to-recovery histogram (nested: attribute type b +
 *	1 is the u64 count of bucket b of MRC_TTR_BUCKETS; only non-empty
 *	buckets are present; type 0 pads).
 * @MRC_CONN_A_NR_PATHS: EVs in the connection's set (u32; in its first
 *	message): how many MRC_CONN_A_PATH its messages hold together.
 * @MRC_CONN_A_PATHS_FROM: marks a continuation message of a connection (u32):
 *	the index in its EV set of the message's first MRC_CONN_A_PATH, which
 *	is how many EVs the messages before it held.
 * @__MRC_CONN_A_MAX: number of attributes.
 * @MRC_CONN_A_MAX: highest attribute.
 */
enum mrc_conn_attr {
	MRC_CONN_A_UNSPEC,
	MRC_CONN_A_PAD,
	MRC_CONN_A_ID,
	MRC_CONN_A_LOCAL_ADDR,
	MRC_CONN_A_REMOTE_ADDR,
	MRC_CONN_A_LOCAL_PORT,
	MRC_CONN_A_REMOTE_PORT,
	MRC_CONN_A_TYPE,
	MRC_CONN_A_STATE,
	MRC_CONN_A_LOCAL_QPN,
	MRC_CONN_A_REMOTE_QPN,
	MRC_CONN_A_POLICY,
	MRC_CONN_A_SRTT,
	MRC_CONN_A_RTO,
	MRC_CONN_A_CWND,
	MRC_CONN_A_INFLIGHT,
	MRC_CONN_A_PATHS_GOOD,
	MRC_CONN_A_PATHS_SKIP,
	MRC_CONN_A_PATHS_BAD,
	MRC_CONN_A_PATHS_DENIED,
	MRC_CONN_A_PATHS_BACKUP,
	MRC_CONN_A_RETX_RTO,
	MRC_CONN_A_RETX_NACK,
	MRC_CONN_A_RETX_SACK,
	MRC_CONN_A_RETX_EV,
	MRC_CONN_A_TTR_COUNT,
	MRC_CONN_A_TTR_MAX,
	MRC_CONN_A_BYTES_SENT,
	MRC_CONN_A_BYTES_RECV,
	MRC_CONN_A_PATHS,
	MRC_CONN_A_PATH,
	MRC_CONN_A_TTR_HIST,
	MRC_CONN_A_NR_PATHS,
	MRC_CONN_A_PATHS_FROM,

	__MRC_CONN_A_MAX,
	MRC_CONN_A_MAX = __MRC_CONN_A_MAX - 1
};

/**
 * enum mrc_conn_path_attr - one EV of a connection (inside MRC_CONN_A_PATH).
 * @MRC_CPATH_A_UNSPEC: never used.
 * @MRC_CPATH_A_PAD: padding for 64-bit attributes.
 * @MRC_CPATH_A_EV: entropy value (u32).
 * @MRC_CPATH_A_PLANE: plane id (u32).
 * @MRC_CPATH_A_PATH_ID: configured path id the EV came from (u32); absent for
 *	the fallback entropy paths built without configuration.
 * @MRC_CPATH_A_STATE: enum mrc_path_state (u8).
 * @MRC_CPATH_A_REASON: enum mrc_path_reason of the last change (u8).
 * @MRC_CPATH_A_TX_PKTS: packets sent on the EV (u64).
 * @MRC_CPATH_A_RETX_PKTS: retransmissions sent on the EV (u64).
 * @MRC_CPATH_A_LOST_PKTS: packets declared lost on the EV (u64).
 * @MRC_CPATH_A_ECN_MARKS: ECN marks reported for the EV (u64).
 * @MRC_CPATH_A_SRTT: smoothed RTT seen on the EV (u32, microseconds).
 * @MRC_CPATH_A_TIMEOUTS: retransmission timeouts of packets sent on the EV
 *	(u64): a packet the local stack refused is resent at once, never
 *	counted here.
 * @__MRC_CPATH_A_MAX: number of attributes.
 * @MRC_CPATH_A_MAX: highest attribute.
 */
enum mrc_conn_path_attr {
	MRC_CPATH_A_UNSPEC,
	MRC_CPATH_A_PAD,
	MRC_CPATH_A_EV,
	MRC_CPATH_A_PLANE,
	MRC_CPATH_A_PATH_ID,
	MRC_CPATH_A_STATE,
	MRC_CPATH_A_REASON,
	MRC_CPATH_A_TX_PKTS,
	MRC_CPATH_A_RETX_PKTS,
	MRC_CPATH_A_LOST_PKTS,
	MRC_CPATH_A_ECN_MARKS,
	MRC_CPATH_A_SRTT,
	MRC_CPATH_A_TIMEOUTS,

	__MRC_CPATH_A_MAX,
	MRC_CPATH_A_MAX = __MRC_CPATH_A_MAX - 1
};

/**
 * enum mrc_probe_attr - a probe (inside MRC_A_PROBE).
 * @MRC_PROBE_A_UNSPEC: never used.
 * @MRC_PROBE_A_PAD: padding for 64-bit attributes.
 * @MRC_PROBE_A_DST: node address to probe (16 bytes, unicast).
 * @MRC_PROBE_A_PATH_ID: configured path to send the probe along (u32).
 * @MRC_PROBE_A_TIMEOUT_MS: how long to wait for the answer,
 *	1..MRC_PROBE_TIMEOUT_MAX_MS (u32, default 1000).
 * @MRC_PROBE_A_RTT: round-trip time of the answer (u64 ns, replies only; absent
 *	when the probe timed out).
 * @MRC_PROBE_A_TIMED_OUT: 1 when no answer came in time (u8, replies only).
 * @__MRC_PROBE_A_MAX: number of attributes.
 * @MRC_PROBE_A_MAX: highest attribute.
 */
enum mrc_probe_attr {
	MRC_PROBE_A_UNSPEC,
	MRC_PROBE_A_PAD,
	MRC_PROBE_A_DST,
	MRC_PROBE_A_PATH_ID,
	MRC_PROBE_A_TIMEOUT_MS,
	MRC_PROBE_A_RTT,
	MRC_PROBE_A_TIMED_OUT,

	__MRC_PROBE_A_MAX,
	MRC_PROBE_A_MAX = __MRC_PROBE_A_MAX - 1
};

/**
 * enum mrc_event_attr - attributes of an event (inside MRC_A_EVENT).
 * @MRC_EVENT_A_UNSPEC: never used.
 * @MRC_EVENT_A_PAD: padding for 64-bit attributes.
 * @MRC_EVENT_A_TYPE: enum mrc_event_type (u8).
 * @MRC_EVENT_A_TIMESTAMP: CLOCK_REALTIME when the event happened (u64 ns).
 * @MRC_EVENT_A_CONN_ID: connection id (u32).
 * @MRC_EVENT_A_EV: entropy value (u32).
 * @MRC_EVENT_A_PATH_ID: configured path id (u32).
 * @MRC_EVENT_A_PLANE: plane id (u32).
 * @MRC_EVENT_A_IFINDEX: the plane's device (u32).
 * @MRC_EVENT_A_OLD_STATE: previous enum mrc_path_state (u8).
 * @MRC_EVENT_A_NEW_STATE: new enum mrc_path_state (u8).
 * @MRC_EVENT_A_REASON: enum mrc_path_reason for path events, enum
 *	mrc_plane_reason for plane events (u8).
 * @MRC_EVENT_A_DROPS: packets lost on the path before the change (u64).
 * @MRC_EVENT_A_TTR: time to recovery (u64 ns).
 * @MRC_EVENT_A_LOCAL_ADDR: local node address (16 bytes).
 * @MRC_EVENT_A_REMOTE_ADDR: remote node address (16 bytes).
 * @MRC_EVENT_A_LOCAL_PORT: local service port (u16).
 * @MRC_EVENT_A_REMOTE_PORT: remote service port (u16).
 * @MRC_EVENT_A_ERROR: positive errno of a failed connection (u32).
 * @__MRC_EVENT_A_MAX: number of attributes.
 * @MRC_EVENT_A_MAX: highest attribute.
 */
enum mrc_event_attr {
	MRC_EVENT_A_UNSPEC,
	MRC_EVENT_A_PAD,
	MRC_EVENT_A_TYPE,
	MRC_EVENT_A_TIMESTAMP,
	MRC_EVENT_A_CONN_ID,
	MRC_EVENT_A_EV,
	MRC_EVENT_A_PATH_ID,
	MRC_EVENT_A_PLANE,
	MRC_EVENT_A_IFINDEX,
	MRC_EVENT_A_OLD_STATE,
	MRC_EVENT_A_NEW_STATE,
	MRC_EVENT_A_REASON,
	MRC_EVENT_A_DROPS,
	MRC_EVENT_A_TTR,
	MRC_EVENT_A_LOCAL_ADDR,
	MRC_EVENT_A_REMOTE_ADDR,
	MRC_EVENT_A_LOCAL_PORT,
	MRC_EVENT_A_REMOTE_PORT,
	MRC_EVENT_A_ERROR,

	__MRC_EVENT_A_MAX,
	MRC_EVENT_A_MAX = __MRC_EVENT_A_MAX - 1
};

/* GENERATED END */

/* ---- Socket options ---- */

/**
 * SOL_MRC - setsockopt()/getsockopt() level of MRC options. Chosen above
 * every SOL_* of supported kernels; the module only sees levels other than
 * SOL_SOCKET, so no clash is possible with another family's levels.
 */
#define SOL_MRC			299

/**
 * enum mrc_sockopt - options at level SOL_MRC.
 * @MRC_SO_POLICY: the failure policy by name (a string of at most 15
 *	characters; set before connect() or listen(); ENOENT if the
 *	namespace has no such policy). Accepted connections inherit the
 *	listener's.
 * @MRC_SO_INFO: read-only: a struct mrc_info about the connection.
 * @MRC_SO_ACCEPT_TCP: an int, set before listen() on an AF_INET6 socket
 *	(IPPROTO_MRC): the listener also accepts plain TCP connections on
 *	the same port (dual-stack unless IPV6_V6ONLY was set to 1), and
 *	accept() returns them as TCP sockets, so that clients without MRC
 *	still reach a program that mrcize converted. EOPNOTSUPP on AF_MRC.
 */
enum mrc_sockopt {
	MRC_SO_POLICY = 1,
	MRC_SO_INFO = 2,
	MRC_SO_ACCEPT_TCP = 3,
};

/* Sizes of the arrays of struct mrc_info (fixed: they are ABI). */
#define MRC_PATH_STATES		8	/* >= __MRC_PATH_STATE_MAX */
#define MRC_LOSS_CAUSES		8	/* retransmission causes */

/**
 * enum mrc_loss_cause_uapi - index of mrc_info::mrci_rtx_by_cause.
 * @MRC_RTX_SACK_GAP: a gap in the SACK bitmap (enough later PSNs acked).
 * @MRC_RTX_PER_PATH: a later packet on the same path was acked first.
 * @MRC_RTX_RTO: the packet's retransmission timeout expired.
 * @MRC_RTX_NACK: the receiver sent a NACK.
 * @MRC_RTX_LINK: the packet's path lost its link (local plane or peer
 *	port down) while it was in flight, or the local stack refused it
 *	(no route, device down, dropped on the way out); resent at once.
 */
enum mrc_loss_cause_uapi {
	MRC_RTX_SACK_GAP,
	MRC_RTX_PER_PATH,
	MRC_RTX_RTO,
	MRC_RTX_NACK,
	MRC_RTX_LINK,
};

/**
 * MRC_TTR_BUCKETS - buckets of the time-to-recovery histograms
 * (MRC_SO_INFO, MRC_CONN_A_TTR_HIST). Bucket 0 counts recoveries under
 * 1 us; bucket i, 1 <= i < MRC_TTR_BUCKETS - 1, counts [2^(i-1), 2^i) us;
 * the last counts everything from 2^(MRC_TTR_BUCKETS - 2) us (~4.2 s) up.
 */
#define MRC_TTR_BUCKETS		24

/**
 * struct mrc_info - MRC_SO_INFO: the state of one connection (like
 * struct tcp_info). Fields are only appended; a shorter optlen gets a
 * prefix.
 * @mrci_state: socket state (1 closed, 2 listen, 3 connecting,
 *	4 accepting, 5 established, 6 closing, 7 peer closed).
 * @mrci_pad: zero.
 * @mrci_local_qpn: our QPN.
 * @mrci_remote_qpn: the peer's QPN.
 * @mrci_max_payload: payload bytes per data packet.
 * @mrci_srtt_us: smoothed round-trip time.
 * @mrci_rttvar_us: its variation.
 * @mrci_rto_us: current retransmission timeout.
 * @mrci_cwnd: congestion window (bytes).
 * @mrci_inflight_pkts: packets in flight.
 * @mrci_paths: size of the connection's EV set.
 * @mrci_inflight_bytes: payload bytes in flight.
 * @mrci_paths_by_state: paths per enum mrc_path_state.
 * @mrci_rtx_by_cause: losses detected per enum mrc_loss_cause_uapi.
 * @mrci_rtx_pkts: retransmissions sent.
 * @mrci_timeouts: retransmission timeouts.
 * @mrci_ttr_count: recoveries (first loss detected to cumulative ack
 *	past it) measured.
 * @mrci_ttr_max_ns: longest time to recovery.
 * @mrci_ttr_total_ns: sum of the times to recovery.
 * @mrci_ttr_last_ns: latest time to recovery.
 * @mrci_bytes_sent: payload bytes sent, retransmissions included.
 * @mrci_bytes_acked: bytes the peer acknowledged.
 * @mrci_bytes_received: bytes received in order.
 * @mrci_ttr_hist: recoveries per time-to-recovery bucket (see
 *	MRC_TTR_BUCKETS).
 */
struct mrc_info {
	__u8	mrci_state;
	__u8	mrci_pad[3];
	__u32	mrci_local_qpn;
	__u32	mrci_remote_qpn;
	__u32	mrci_max_payload;
	__u32	mrci_srtt_us;
	__u32	mrci_rttvar_us;
	__u32	mrci_rto_us;
	__u32	mrci_cwnd;
	__u32	mrci_inflight_pkts;
	__u32	mrci_paths;
	__u64	mrci_inflight_bytes;
	__u32	mrci_paths_by_state[MRC_PATH_STATES];
	__u64	mrci_rtx_by_cause[MRC_LOSS_CAUSES];
	__u64	mrci_rtx_pkts;
	__u64	mrci_timeouts;
	__u64	mrci_ttr_count;
	__u64	mrci_ttr_max_ns;
	__u64	mrci_ttr_total_ns;
	__u64	mrci_ttr_last_ns;
	__u64	mrci_bytes_sent;
	__u64	mrci_bytes_acked;
	__u64	mrci_bytes_received;
	__u64	mrci_ttr_hist[MRC_TTR_BUCKETS];
};

#endif /* _UAPI_LINUX_MRC_H */
