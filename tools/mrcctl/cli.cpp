// SPDX-License-Identifier: GPL-2.0
#include "cli.hpp"

#include <iostream>

#include "commands.hpp"

namespace mrcctl {

mrc::Client &Context::nl()
{
	if (!client)
		client = connect ? connect() : std::make_unique<mrc::Client>();
	return *client;
}

int run(const std::vector<std::string> &args, Context &ctx)
{
	std::ostream &out = ctx.out ? *ctx.out : std::cout;
	std::ostream &err = ctx.err ? *ctx.err : std::cerr;
	ctx.out = &out;
	ctx.err = &err;

	CLI::App app{"mrcctl: configure and watch MRC (Multipath Reliable Connection)", "mrcctl"};
	app.set_version_flag("-V,--version", std::string("mrcctl ") + MRC_VERSION);
	app.add_flag("-j,--json", ctx.json, "print JSON instead of tables");
	app.add_flag("-p,--pretty", ctx.pretty, "indent JSON output");
	app.require_subcommand(1);
	app.footer(
	    "Exit status: 0 success, 1 operation failed, 2 usage error, 3 module not loaded.\n"
	    "See mrcctl(8).");
	add_info_command(app, ctx);

	// CLI11 wants argv order with the program name removed, reversed.
	std::vector<std::string> rev(args.rbegin(), args.rend());
	try {
		app.parse(rev);
	} catch (const CLI::CallForHelp &) {
		out << app.help();
		return kOk;
	} catch (const CLI::CallForAllHelp &) {
		out << app.help("", CLI::AppFormatMode::All);
		return kOk;
	} catch (const CLI::CallForVersion &) {
		out << app.version() << '\n';
		return kOk;
	} catch (const CLI::ParseError &e) {
		err << "mrcctl: " << e.what() << "\n"
		    << "Try 'mrcctl --help'.\n";
		return kUsage;
	} catch (const mrc::ModuleNotLoaded &e) {
		err << "mrcctl: " << e.what() << '\n';
		return kNoModule;
	} catch (const mrc::Error &e) {
		err << "mrcctl: " << e.what() << '\n';
		return kFailed;
	}
	return kOk;
}

} // namespace mrcctl
