// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: names of the family's enums, as tools print them.
#include <mrc/types.hpp>

#include <arpa/inet.h>
#include <linux/mrc.h>

namespace mrc {

namespace {

template <size_t N> std::string name_or_number(const char *const (&names)[N], unsigned v)
{
	return v < N ? names[v] : std::to_string(v);
}

const char *const kModes[] = {"entropy", "usid", "srh"};
static_assert(std::size(kModes) == __MRC_FWD_MAX);
const char *const kPathStates[] = {"good", "skip", "assumed-bad", "denied", "backup"};
static_assert(std::size(kPathStates) == __MRC_PATH_STATE_MAX);
const char *const kPathReasons[] = {
    "none",         "ecn",         "trimmed",      "always-skip", "timeout",  "loss",
    "probe-ok",     "probe-fail",  "skip-expired", "plane-down",  "plane-up", "peer-port-down",
    "peer-port-up", "admin-deny",  "admin-allow",  "replaced",    "retired",  "min-active",
    "path-removed", "pkt-too-big", "tx-refused",
};
static_assert(std::size(kPathReasons) == __MRC_PR_MAX);
const char *const kPlaneReasons[] = {"none",    "admin", "link",          "device-gone",
				     "deleted", "added", "device-changed"};
static_assert(std::size(kPlaneReasons) == __MRC_PLANE_R_MAX);
const char *const kConnStates[] = {"closed",      "listen",  "req-sent", "req-rcvd",
				   "established", "closing", "failed"};
static_assert(std::size(kConnStates) == __MRC_CONN_STATE_MAX);
const char *const kEventTypes[] = {"unspec",           "path-state",  "plane-up",    "plane-down",
				   "conn-established", "conn-closed", "conn-failed", "recovery"};
static_assert(std::size(kEventTypes) == __MRC_EVENT_MAX);
const char *const kMibNames[] = {
    "",
    "InPkts",
    "InBytes",
    "OutPkts",
    "OutBytes",
    "InDropMalformed",
    "InDropCsum",
    "InDropNoConn",
    "InDropBadKey",
    "InDropPsnWindow",
    "InDropDup",
    "InDropNomem",
    "OutDropNoPath",
    "OutDropNomem",
    "HsReqSent",
    "HsReqRecv",
    "HsEstablished",
    "HsRejected",
    "HsTimeout",
    "ConnReset",
    "ConnTimeout",
    "RetxRto",
    "RetxNack",
    "RetxSack",
    "RetxEv",
    "SackIn",
    "SackOut",
    "NackIn",
    "NackOut",
    "EcnMarks",
    "PathToSkip",
    "PathToBad",
    "PathToGood",
    "PathDenied",
    "PathReplaced",
    "ProbesSent",
    "ProbesAnswered",
    "ProbesTimeout",
    "Recoveries",
    "PlaneDown",
    "PlaneUp",
    "EventsDropped",
    "EpRequestsRecv",
    "EpDropRateLimit",
    "EpProbesSent",
    "EpProbesAnswered",
    "EpProbesTimeout",
    "PortStatusSent",
    "PortStatusRecv",
    "OutRouteLookups",
    "HsUnreachable",
    "TcpAccepted",
    "PathFlaps",
    "OutResetNoConn",
    "CtlDropRateLimit",
    "InTransportAck",
    "HsCookieSent",
    "HsCookieBad",
    "HsCookieExpired",
    "PathProbeDeferred",
    "HsReqDropRateLimit",
    "PathPktTooBig",
    "PathProbeShared",
    "PathReverseProbes",
    "OutRefused",
    "PathTxRefused",
    "PathProbeStale",
    "OutBursts",
    "OutZeroCopyBytes",
    "InSackCreditBogus",
    "PathSuspect",
    "PathSuspectCleared",
    "InEcnCe",
    "InEcnDecapCe",
};
static_assert(std::size(kMibNames) == __MRC_MIB_MAX);

} // namespace

std::string to_string(FwdMode m)
{
	return name_or_number(kModes, static_cast<unsigned>(m));
}

std::optional<FwdMode> parse_fwd_mode(const std::string &s)
{
	for (unsigned i = 0; i < std::size(kModes); i++)
		if (s == kModes[i])
			return static_cast<FwdMode>(i);
	return std::nullopt;
}

std::string path_state_name(uint8_t s)
{
	return name_or_number(kPathStates, s);
}
std::string path_reason_name(uint8_t r)
{
	return name_or_number(kPathReasons, r);
}
std::string plane_reason_name(uint8_t r)
{
	return name_or_number(kPlaneReasons, r);
}
std::string conn_state_name(uint8_t s)
{
	return name_or_number(kConnStates, s);
}
std::optional<uint8_t> parse_conn_state(const std::string &s)
{
	for (unsigned i = 0; i < std::size(kConnStates); i++)
		if (s == kConnStates[i])
			return static_cast<uint8_t>(i);
	return std::nullopt;
}
std::string event_type_name(uint8_t t)
{
	return name_or_number(kEventTypes, t);
}
std::string mib_name(uint32_t mib)
{
	if (mib > 0 && mib < std::size(kMibNames))
		return kMibNames[mib];
	return "Mib" + std::to_string(mib);
}

uint64_t TtrHistogram::count() const
{
	uint64_t n = 0;
	for (uint64_t b : buckets)
		n += b;
	return n;
}

std::optional<uint64_t> ttr_bucket_upper_ns(size_t b)
{
	if (b + 1 >= MRC_TTR_BUCKETS)
		return std::nullopt;
	return (uint64_t{1} << b) * 1000;
}

std::string addr_str(const in6_addr &a)
{
	char buf[INET6_ADDRSTRLEN];
	if (!inet_ntop(AF_INET6, &a, buf, sizeof(buf)))
		return "?";
	return buf;
}

std::optional<in6_addr> parse_addr(const std::string &s)
{
	in6_addr a;
	if (inet_pton(AF_INET6, s.c_str(), &a) != 1)
		return std::nullopt;
	return a;
}

} // namespace mrc
