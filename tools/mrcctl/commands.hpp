// SPDX-License-Identifier: GPL-2.0
// mrcctl: one registration function per subcommand.
#pragma once

#include <CLI/CLI.hpp>

#include "cli.hpp"

namespace mrcctl {

void add_info_command(CLI::App &app, Context &ctx);

} // namespace mrcctl
