// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: helpers for AF_MRC sockets.
#pragma once

#include <string>

namespace mrc {

/// The address family number the loaded module registered: read from
/// /sys/module/mrc/parameters/af (the module parameter), else asked with
/// the netlink INFO command (which autoloads an installed module), else
/// the uapi default MRC_AF_DEFAULT: a module that is not there makes the
/// caller's socket() fail (EAFNOSUPPORT) or autoload it, as it would
/// without this lookup. Never throws. The one lookup of every program of
/// the tree (mrc-perf, the selftest programs).
int af_mrc();

/// The IPPROTO_MRC protocol number of socket(AF_INET6, SOCK_STREAM, ...)
/// (the drop-in for TCP), found as af_mrc() finds the family: the
/// "ipproto" module parameter, the netlink INFO command, MRC_IPPROTO_DEFAULT.
int ipproto_mrc();

/// Parse a numeric module parameter file's contents ("af", "ipproto");
/// -1 if malformed.
int parse_af_param(const std::string &text);

} // namespace mrc
