// SPDX-License-Identifier: GPL-2.0
// mrcctl: command-line front end. run() is the whole tool; main() only
// forwards argv, so tests drive run() with captured streams.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include <mrc/netlink.hpp>

namespace mrcctl {

/// Documented exit codes (mrcctl(8)).
enum Exit : int {
	kOk = 0,       ///< success
	kFailed = 1,   ///< the kernel refused or the operation failed
	kUsage = 2,    ///< bad command line
	kNoModule = 3, ///< the mrc module is not loaded
};

/// State shared by every subcommand.
struct Context {
	bool json = false;
	bool pretty = false;
	std::ostream *out = nullptr;
	std::ostream *err = nullptr;
	/// Opens the netlink client on first use (so --help never needs it);
	/// tests replace it.
	std::function<std::unique_ptr<mrc::Client>()> connect;
	std::unique_ptr<mrc::Client> client;
	/// Waits between watch-mode reports; tests replace it.
	std::function<void(double seconds)> sleep;

	mrc::Client &nl();
};

/// Run mrcctl with @args (without argv[0]); returns an Exit code.
/// "-batch FILE" (also -b, --batch; "-" is standard input) runs every
/// line of FILE as one mrcctl command, stopping at the first that fails.
int run(const std::vector<std::string> &args, Context &ctx);

/// Run the commands of @in (named @name in messages); see run().
int run_batch(std::istream &in, const std::string &name, Context &ctx);

} // namespace mrcctl
