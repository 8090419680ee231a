// SPDX-License-Identifier: GPL-2.0
#include "cli.hpp"

#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "commands.hpp"

namespace mrcctl {

mrc::Client &Context::nl()
{
	if (!client)
		client = connect ? connect() : std::make_unique<mrc::Client>();
	return *client;
}

CLI::App *add_words_command(CLI::App &parent, const std::string &name, const std::string &desc,
			    const std::string &usage, std::function<void(Keywords &)> fn)
{
	auto *cmd = parent.add_subcommand(name, desc + (usage.empty() ? "" : "\n  " + usage));
	auto words = std::make_shared<std::vector<std::string>>();
	cmd->add_option("words", *words, usage.empty() ? "none" : usage);
	cmd->positionals_at_end(false);
	std::string full = (parent.get_parent() ? parent.get_name() + " " : "") + name;
	cmd->callback([words, fn, full]() {
		Keywords kw(full, *words);
		fn(kw);
	});
	return cmd;
}

void require_known_command(CLI::App *cmd, const std::string &names)
{
	auto words = std::make_shared<std::vector<std::string>>();
	cmd->add_option("command", *words, names)->expected(0, -1);
	cmd->parse_complete_callback([cmd, words, names]() {
		if (!words->empty() && cmd->get_subcommands().empty())
			throw UsageError(cmd->get_name() + ": unknown command '" + words->front() +
					 "' (" + names + ")");
	});
}

namespace {

int run_one(const std::vector<std::string> &args, Context &ctx, bool in_batch)
{
	std::ostream &out = *ctx.out;
	std::ostream &err = *ctx.err;

	CLI::App app{"mrcctl: configure and watch MRC (Multipath Reliable Connection)", "mrcctl"};
	app.set_version_flag("-V,--version", std::string("mrcctl ") + MRC_VERSION);
	bool json = false, pretty = false;
	app.add_flag("-j,--json", json, "print JSON instead of tables");
	app.add_flag("-p,--pretty", pretty, "indent JSON output");
	app.require_subcommand(1);
	app.footer("Run a file of commands with 'mrcctl -batch FILE' (- for standard input).\n"
		   "Exit status: 0 success, 1 operation failed, 2 usage error, 3 module not "
		   "loaded.\n"
		   "See mrcctl(8).");
	add_info_command(app, ctx);
	add_plane_command(app, ctx);
	add_path_command(app, ctx);
	add_policy_command(app, ctx);
	add_settings_command(app, ctx);
	add_conn_command(app, ctx);
	add_stats_command(app, ctx);
	add_monitor_command(app, ctx);
	add_probe_command(app, ctx);
	add_top_command(app, ctx);
	app.parse_complete_callback([&]() {
		ctx.json = json;
		ctx.pretty = pretty;
	});

	// CLI11 wants argv order with the program name removed, reversed.
	std::vector<std::string> rev(args.rbegin(), args.rend());
	const char *hint = in_batch ? "" : "\nTry 'mrcctl --help'.";
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
		err << "mrcctl: " << e.what() << hint << '\n';
		return kUsage;
	} catch (const UsageError &e) {
		err << "mrcctl: " << e.what() << hint << '\n';
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

} // namespace

int run_batch(std::istream &in, const std::string &name, Context &ctx)
{
	std::string line;
	unsigned lineno = 0;
	while (std::getline(in, line)) {
		lineno++;
		std::vector<std::string> words;
		std::ostringstream errbuf;
		std::ostream *real_err = ctx.err;
		int rc;
		try {
			words = split_line(line);
		} catch (const UsageError &e) {
			*ctx.err << "mrcctl: " << name << ":" << lineno << ": " << e.what() << '\n';
			return kUsage;
		}
		if (words.empty())
			continue;
		if (words[0] == "-batch" || words[0] == "-b" || words[0] == "--batch") {
			*ctx.err << "mrcctl: " << name << ":" << lineno
				 << ": -batch cannot be nested\n";
			return kUsage;
		}
		ctx.err = &errbuf;
		rc = run_one(words, ctx, true);
		ctx.err = real_err;
		std::string msg = errbuf.str();
		if (rc != kOk) {
			// "mrcctl: what" becomes "mrcctl: FILE:LINE: what".
			if (msg.rfind("mrcctl: ", 0) == 0)
				msg = msg.substr(8);
			*ctx.err << "mrcctl: " << name << ":" << lineno << ": " << msg;
			if (msg.empty() || msg.back() != '\n')
				*ctx.err << '\n';
			return rc;
		}
		*ctx.err << msg;
	}
	if (in.bad()) {
		*ctx.err << "mrcctl: " << name << ": read error\n";
		return kFailed;
	}
	return kOk;
}

int run(const std::vector<std::string> &args, Context &ctx)
{
	ctx.out = ctx.out ? ctx.out : &std::cout;
	ctx.err = ctx.err ? ctx.err : &std::cerr;
	if (!ctx.sleep)
		ctx.sleep = [](double s) {
			std::this_thread::sleep_for(std::chrono::duration<double>(s));
		};

	if (!args.empty() && (args[0] == "-batch" || args[0] == "-b" || args[0] == "--batch")) {
		if (args.size() != 2) {
			*ctx.err << "mrcctl: -batch takes exactly one FILE and nothing else\n"
				 << "Try 'mrcctl --help'.\n";
			return kUsage;
		}
		if (args[1] == "-")
			return run_batch(std::cin, "<stdin>", ctx);
		std::ifstream f(args[1]);
		if (!f) {
			*ctx.err << "mrcctl: cannot open batch file '" << args[1] << "'\n";
			return kUsage;
		}
		return run_batch(f, args[1], ctx);
	}
	return run_one(args, ctx, false);
}

} // namespace mrcctl
