// SPDX-License-Identifier: GPL-2.0
// mrcctl: one registration function per subcommand.
#pragma once

#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "args.hpp"
#include "cli.hpp"

namespace mrcctl {

void add_info_command(CLI::App &app, Context &ctx);
void add_plane_command(CLI::App &app, Context &ctx);
void add_path_command(CLI::App &app, Context &ctx);
void add_policy_command(CLI::App &app, Context &ctx);
void add_settings_command(CLI::App &app, Context &ctx);
void add_conn_command(CLI::App &app, Context &ctx);
void add_stats_command(CLI::App &app, Context &ctx);
void add_monitor_command(CLI::App &app, Context &ctx);
void add_probe_command(CLI::App &app, Context &ctx);
void add_top_command(CLI::App &app, Context &ctx);

/// Add subcommand @name of @parent taking ip-style words; @fn gets them
/// as Keywords named "@prefix @name".
CLI::App *add_words_command(CLI::App &parent, const std::string &name, const std::string &desc,
			    const std::string &usage, std::function<void(Keywords &)> fn);

/// Make "@cmd WORD" with an unknown WORD a usage error listing @names
/// (CLI11 would only say the argument was not expected).
void require_known_command(CLI::App *cmd, const std::string &names);

} // namespace mrcctl
