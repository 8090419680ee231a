// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: the objects of the "mrc" netlink family, typed
// (Documentation/object-model.md). Optional fields are optional in
// requests (absent: the kernel's default or "unchanged") and filled in
// replies.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <netinet/in.h>

#include <linux/mrc.h>

namespace mrc {

/// Forwarding mode of a path (enum mrc_fwd_mode).
enum class FwdMode : uint8_t { Entropy = 0, Usid = 1, Srh = 2 };

struct Plane {
	uint32_t id = 0;
	std::optional<uint32_t> ifindex;   ///< device by index (requests: or ifname)
	std::optional<std::string> ifname; ///< device by name
	std::optional<in6_addr> saddr;     ///< source address
	std::optional<bool> admin_up;      ///< administrative state
	bool oper_up = false;              ///< replies: operational state
	uint32_t nr_paths = 0;             ///< replies: paths on the plane
};

struct Path {
	uint32_t id = 0;
	in6_addr dst{};        ///< destination prefix
	uint8_t dst_len = 128; ///< prefix length
	uint32_t plane = 0;    ///< plane id
	FwdMode mode = FwdMode::Entropy;
	std::optional<in6_addr> usid;    ///< mode usid: the uSID container
	std::vector<in6_addr> segs;      ///< mode srh: the segment list
	std::optional<uint16_t> entropy; ///< mode entropy: EVs (default 1)
	std::optional<uint8_t> weight;   ///< default 1
	std::optional<bool> deny;        ///< default false
};

/// PATH_SET: what may change on an existing path.
struct PathUpdate {
	uint32_t id = 0;
	std::optional<uint8_t> weight;
	std::optional<bool> deny;
};

/// A failure policy; knobs left empty take the core's defaults (add) or
/// stay as they are (set). Times in nanoseconds.
struct Policy {
	std::string name;
	std::optional<uint64_t> rto_min_ns, rto_max_ns, probe_interval_ns, skip_ns;
	std::optional<uint32_t> retry_limit, fail_to_bad, success_to_good, min_active, max_paths,
	    backups, sack_gap;
	std::optional<bool> ecn_response;
	/// Keepalive of every connection (as SO_KEEPALIVE), and the defaults
	/// of TCP_KEEPIDLE, TCP_KEEPINTVL and TCP_KEEPCNT.
	std::optional<bool> keepalive;
	std::optional<uint64_t> keepalive_idle_ns, keepalive_interval_ns;
	std::optional<uint32_t> keepalive_count;
	bool is_default = false; ///< replies: the namespace's default policy
};

struct Settings {
	std::optional<uint16_t> udp_port;
	std::optional<std::string> default_policy;
	std::optional<uint32_t> max_ev_set;
};

/// One EV of a connection.
struct ConnPath {
	uint32_t ev = 0;
	uint32_t plane = 0;
	std::optional<uint32_t> path_id; ///< absent for fallback paths
	uint8_t state = 0;               ///< enum mrc_path_state
	uint8_t reason = 0;              ///< enum mrc_path_reason
	uint64_t tx_pkts = 0, retx_pkts = 0, lost_pkts = 0, ecn_marks = 0, timeouts = 0;
	uint32_t srtt_us = 0;
};

struct Conn {
	uint32_t id = 0;
	in6_addr local_addr{}, remote_addr{};
	uint16_t local_port = 0, remote_port = 0;
	uint8_t type = 0;  ///< SOCK_STREAM or SOCK_SEQPACKET
	uint8_t state = 0; ///< enum mrc_conn_state
	uint32_t local_qpn = 0, remote_qpn = 0;
	std::string policy;
	uint32_t srtt_us = 0, rto_us = 0, cwnd = 0, inflight = 0;
	uint32_t paths_good = 0, paths_skip = 0, paths_bad = 0, paths_denied = 0, paths_backup = 0;
	uint64_t retx_rto = 0, retx_nack = 0, retx_sack = 0, retx_ev = 0;
	uint64_t ttr_count = 0, ttr_max_ns = 0;
	/// Recoveries per time-to-recovery bucket: [0] under 1 us, [i] from
	/// 2^(i-1) us to 2^i us, the last from 2^(MRC_TTR_BUCKETS-2) us up.
	std::array<uint64_t, MRC_TTR_BUCKETS> ttr_hist{};
	uint64_t bytes_sent = 0, bytes_recv = 0;
	std::vector<ConnPath> paths;
};

/// Which connections a dump returns (every given field must match).
struct ConnFilter {
	std::optional<uint32_t> id;
	std::optional<in6_addr> local_addr, remote_addr;
	std::optional<uint16_t> local_port, remote_port;
	std::optional<uint8_t> state;
};

/// A time-to-recovery histogram in the buckets of MRC_TTR_BUCKETS.
struct TtrHistogram {
	/// Recoveries per bucket: [0] under 1 us, [i] from 2^(i-1) us to
	/// 2^i us, the last from 2^(MRC_TTR_BUCKETS-2) us up.
	std::array<uint64_t, MRC_TTR_BUCKETS> buckets{};
	uint64_t sum_ns = 0; ///< sum of the times counted
	uint64_t count() const;
};

/// Exclusive upper bound of TTR bucket @b in nanoseconds (1 us for
/// bucket 0, 2^b us after it); std::nullopt for the last bucket, which
/// has none.
std::optional<uint64_t> ttr_bucket_upper_ns(size_t b);

/// MIB counters: value by enum mrc_mib index (index 0 unused).
struct Stats {
	std::vector<std::pair<uint32_t, uint64_t>> counters;
	std::optional<uint64_t> get(uint32_t mib) const;
	/// The namespace's TTR histogram, every recovery of every connection
	/// (absent from modules that predate it).
	std::optional<TtrHistogram> ttr;
};

struct ProbeResult {
	std::optional<uint64_t> rtt_ns; ///< absent when timed out
	bool timed_out = false;
};

/// A notification of the "events" multicast group.
struct Event {
	uint8_t type = 0; ///< enum mrc_event_type
	uint64_t timestamp_ns = 0;
	std::optional<uint32_t> conn_id, ev, path_id, plane, ifindex, error;
	std::optional<uint8_t> old_state, new_state, reason;
	std::optional<uint64_t> drops, ttr_ns;
	std::optional<in6_addr> local_addr, remote_addr;
	std::optional<uint16_t> local_port, remote_port;
};

// Names used by tools and in JSON (lower case, as in the man page).
std::string to_string(FwdMode m);
std::optional<FwdMode> parse_fwd_mode(const std::string &s);
std::string path_state_name(uint8_t s);
std::string path_reason_name(uint8_t r);
std::string plane_reason_name(uint8_t r);
std::string conn_state_name(uint8_t s);
std::optional<uint8_t> parse_conn_state(const std::string &s);
std::string event_type_name(uint8_t t);
/// The /proc/net/mrc_stat name of a counter ("InPkts"), or "Mib<N>".
std::string mib_name(uint32_t mib);
/// IPv6 address text; throws nothing.
std::string addr_str(const in6_addr &a);
/// Parse an IPv6 address; std::nullopt if malformed.
std::optional<in6_addr> parse_addr(const std::string &s);

} // namespace mrc
