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

/// Parse the "af" module parameter file's contents; -1 if malformed.
int parse_af_param(const std::string &text);

} // namespace mrc
