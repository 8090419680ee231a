// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: MRC's figures as Prometheus metrics, in the Prometheus text
// format (0.0.4) or OpenMetrics 1.0. The one renderer of `mrcctl stats -o
// prometheus|openmetrics` and of mrc-exporter (Documentation/metrics.md
// lists every name).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <mrc/netlink.hpp>
#include <mrc/types.hpp>

namespace mrc::metrics {

enum class Format {
	Prometheus,  ///< text format 0.0.4 (node_exporter's textfile collector)
	OpenMetrics, ///< OpenMetrics 1.0.0 (ends with "# EOF")
};

/// Which connections get metrics of their own.
enum class TopBy {
	Bytes, ///< bytes sent + received
	Retx,  ///< retransmissions of every cause
};

struct Options {
	Format format = Format::Prometheus;
	size_t top_n = 0; ///< connections with metrics of their own (0: none)
	TopBy top_by = TopBy::Bytes;
};

/// What one namespace reported.
struct Snapshot {
	std::string netns;                ///< the value of the netns label
	std::optional<std::string> error; ///< set when the namespace could not be read
	Stats stats;
	std::vector<Plane> planes;
	std::vector<Conn> conns;
};

/// Read everything the metrics need from @client's namespace; an error
/// (the module not loaded, a failed request) is kept in Snapshot::error.
Snapshot collect(Client &client, const std::string &netns);

/// The metrics of @snaps, every family once, namespaces as label values.
std::string render(const std::vector<Snapshot> &snaps, const Options &opts);

/// The HTTP Content-Type of @f.
const char *content_type(Format f);

/// The name of the calling thread's network namespace: its name under
/// /run/netns when one is bound there, else "net:[INODE]" as the kernel
/// shows it in /proc/self/ns/net.
std::string netns_label();

} // namespace mrc::metrics
