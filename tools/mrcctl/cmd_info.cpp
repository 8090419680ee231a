// SPDX-License-Identifier: GPL-2.0
// mrcctl info: what the module reports about itself in this namespace.
#include "commands.hpp"
#include "output.hpp"

namespace mrcctl {

void add_info_command(CLI::App &app, Context &ctx)
{
	auto *cmd =
	    app.add_subcommand("info", "show the module version, address family and IPPROTO_MRC "
				       "numbers, and UDP port");
	cmd->callback([&ctx]() {
		mrc::Info info = ctx.nl().info();
		if (ctx.json) {
			print_json(*ctx.out,
				   {{"version", info.version},
				    {"af", info.af},
				    {"ipproto", info.ipproto},
				    {"udp_port", info.udp_port},
				    {"netns_cookie", info.netns_cookie}},
				   ctx.pretty);
			return;
		}
		Table t({"version", "af", "ipproto", "udp_port", "netns"});
		t.add({info.version, std::to_string(info.af), std::to_string(info.ipproto),
		       std::to_string(info.udp_port), std::to_string(info.netns_cookie)});
		t.print(*ctx.out);
	});
}

} // namespace mrcctl
