/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * MRC (Multipath Reliable Connection) for Linux: the public ABI.
 *
 * This one header is shared by the kernel module (mrc.ko), libmrc, mrcctl
 * and applications. It describes the socket API (address family, socket
 * address, socket options) and the generic netlink family "mrc".
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

/* Generic netlink family. */
#define MRC_GENL_NAME		"mrc"
#define MRC_GENL_VERSION	1
#define MRC_GENL_MCGRP_EVENTS	"events"

/** MRC_VERSION_MAX_LEN - longest version string (with its NUL). */
#define MRC_VERSION_MAX_LEN	32

/**
 * enum mrc_cmd - generic netlink commands of the "mrc" family.
 * @MRC_CMD_UNSPEC: never used.
 * @MRC_CMD_INFO_GET: module version, address family number and UDP port of
 *	the caller's network namespace (do).
 * @__MRC_CMD_MAX: number of commands.
 * @MRC_CMD_MAX: highest command.
 */
enum mrc_cmd {
	MRC_CMD_UNSPEC,
	MRC_CMD_INFO_GET,

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
 * @MRC_A_INFO_NETNS_COOKIE: unique cookie of the answering namespace (u64),
 *	so tools can tell namespaces apart.
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

	__MRC_A_MAX,
	MRC_A_MAX = __MRC_A_MAX - 1
};

/**
 * enum mrc_path_state - state of one path (entropy value) of a connection.
 * @MRC_PATH_GOOD: in rotation.
 * @MRC_PATH_SKIP: skipped for about one rotation (ECN mark or trim), then
 *	back to GOOD by itself.
 * @MRC_PATH_ASSUMED_BAD: out of rotation after loss without any answer;
 *	probed until enough probes succeed.
 * @MRC_PATH_DENIED: taken out by the operator; only the operator restores it.
 * @MRC_PATH_BACKUP: held in reserve, replaces a failed path of its plane.
 * @__MRC_PATH_STATE_MAX: number of states.
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
 * @__MRC_PR_MAX: number of reasons.
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

	__MRC_PR_MAX
};

/**
 * enum mrc_fwd_mode - how a path's packets are steered through the fabric.
 * @MRC_FWD_ENTROPY: no SRv6; the EV in UDP source port and flow label
 *	selects an ECMP path.
 * @MRC_FWD_USID: outer IPv6 whose destination is a uSID container.
 * @MRC_FWD_SRH: SRv6 segment routing header (RFC 8754).
 * @__MRC_FWD_MAX: number of modes.
 */
enum mrc_fwd_mode {
	MRC_FWD_ENTROPY,
	MRC_FWD_USID,
	MRC_FWD_SRH,

	__MRC_FWD_MAX
};

#endif /* _UAPI_LINUX_MRC_H */
