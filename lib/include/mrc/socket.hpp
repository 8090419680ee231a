// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: helpers for AF_MRC sockets.
#pragma once

#include <string>

namespace mrc {

/// The address family number the loaded module registered: read from
/// /sys/module/mrc/parameters/af (the module parameter), else the netlink
/// INFO command, else the uapi default. Throws ModuleNotLoaded when the
/// module is absent and cannot be asked.
int af_mrc();

/// Parse the "af" module parameter file's contents; -1 if malformed.
int parse_af_param(const std::string &text);

} // namespace mrc
