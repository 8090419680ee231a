// SPDX-License-Identifier: GPL-2.0
// mrcize: the launcher. run() is the whole tool; main() only forwards argv
// and the real system, so tests drive run() with captured streams and a
// recorded exec.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace mrcize {

/// Documented exit codes (mrcize(8)); after exec, CMD's own status.
enum Exit : int {
	kOk = 0,       ///< success
	kFailed = 1,   ///< CMD or the library not found or unusable, a file not written
	kUsage = 2,    ///< bad command line
	kNoModule = 3, ///< the mrc module is not loaded
};

/// What the system looks like to the launcher; tests replace parts.
struct Context {
	std::ostream *out = nullptr;
	std::ostream *err = nullptr;
	/// The environment CMD would inherit ("NAME=value" strings).
	std::vector<std::string> environ;
	/// The path of the mrcize executable (for the library next to it).
	std::string self_exe;
	/// The library's install location, baked in by CMake.
	std::string install_lib;
	/// Where the module publishes its protocol number.
	std::string ipproto_param;
	/// Where 'enable' writes drop-ins when --unit-dir is not given (and
	/// then runs systemctl daemon-reload if systemd runs).
	std::string unit_dir;
	/// Try to autoload the module (socket() with the default number).
	std::function<void()> autoload;
	/// Whether the namespace has failure policy @name; throws mrc::Error
	/// when it cannot be asked.
	std::function<bool(const std::string &name)> policy_exists;
	/// Whether systemd is the running init (/run/systemd/system).
	std::function<bool()> systemd_running;
	/// Run a command to completion (systemctl daemon-reload); its status.
	std::function<int(const std::vector<std::string> &argv)> run_command;
	/// Replace the process with @path; returns an errno if it could not.
	std::function<int(const std::string &path, const std::vector<std::string> &argv,
			  const std::vector<std::string> &env)>
	    exec;
};

/// A Context for the real system (environ, /proc/self/exe, libmrc, ...).
Context system_context();

/// Run mrcize with @args (without argv[0]); returns an Exit code (or, if
/// exec was replaced and "returned" 0, kOk).
int run(const std::vector<std::string> &args, Context &ctx);

/// How an executable file can be run.
enum class Linkage {
	kDynamic, ///< PT_INTERP (or a runnable shared object): LD_PRELOAD works
	kStatic,  ///< no dynamic loader: LD_PRELOAD is ignored
	kScript,  ///< "#!": @interp is the interpreter
	kOther,   ///< neither ELF nor script (exec decides)
};

/// Inspect the ELF program headers (or "#!" line) of @path. Throws
/// std::system_error if it cannot be read.
Linkage inspect_executable(const std::string &path, std::string *interp = nullptr);

/// Find @cmd as execvp would: itself if it has a '/', else the first
/// executable regular file of that name along @path_var.
std::optional<std::string> find_command(const std::string &cmd, const std::string &path_var);

/// LD_PRELOAD with @lib first; @old kept after it (unless it already has @lib).
std::string prepend_preload(const std::string &lib, const char *old);

/// A unit name mrcize accepts ("NAME.service", no '/'); else the reason.
std::optional<std::string> unit_name_problem(const std::string &unit);

/// Quote a value for an Environment= line of a systemd unit file.
std::string systemd_quote(const std::string &assignment);

} // namespace mrcize
