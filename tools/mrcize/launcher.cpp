// SPDX-License-Identifier: GPL-2.0
#include "launcher.hpp"

#include <cerrno>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <system_error>

#include <elf.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include <mrc/netlink.hpp>

#include "config.hpp"

extern char **environ;

namespace mrcize {

namespace fs = std::filesystem;

namespace {

class UsageError : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

/// A failure with its exit code; what() is the line after "mrcize: ".
class Failure : public std::runtime_error {
public:
	Failure(int code, const std::string &what) : std::runtime_error(what), code_(code) {}
	int code() const { return code_; }

private:
	int code_;
};

// Options of run and enable, as given.
struct Options {
	std::string policy;
	std::string ports;
	std::vector<std::string> dst;
	bool strict = false;
	std::optional<unsigned> timeout_ms;
	bool verbose = false;
	bool tcp_if_missing = false;
	std::vector<std::string> cmd;
	std::string unit;
	std::string unit_dir;
};

const char *const kDropinName = "mrcize.conf";

void add_conversion_options(CLI::App *c, Options &o)
{
	c->add_option("--policy", o.policy, "MRC failure policy of the converted sockets")
	    ->type_name("NAME");
	c->add_option("--ports", o.ports,
		      "convert only connections to, and listeners on, these ports "
		      "(29500,30000-30100)")
	    ->type_name("LIST");
	c->add_option("--dst", o.dst, "convert only connections into these IPv6 prefixes")
	    ->type_name("PREFIX[,PREFIX...]")
	    ->allow_extra_args(false);
	c->add_flag("--strict", o.strict, "no fallback to TCP: MRC errors reach the program");
	c->add_option("--connect-timeout", o.timeout_ms,
		      "how long a connect() tries MRC before falling back to TCP (default 1000)")
	    ->type_name("MS");
	c->add_flag("-v,--verbose", o.verbose, "a line per fallback and a summary at exit");
}

// Check every value the way the library will (so a mistake is a usage
// error here, not a line at the start of CMD), and return the
// MRCIZE_* assignments that carry them.
std::vector<std::pair<std::string, std::string>> conversion_env(const Options &o)
{
	std::vector<std::pair<std::string, std::string>> env;
	try {
		if (!o.policy.empty())
			env.emplace_back(kEnvPolicy, parse_policy_name(o.policy, "--policy"));
		if (!o.ports.empty())
			env.emplace_back(kEnvPorts, PortSet::parse(o.ports, "--ports").str());
		std::string dst;
		for (const auto &d : o.dst) {
			parse_prefixes(d, "--dst");
			dst += (dst.empty() ? "" : ",") + d;
		}
		if (!dst.empty())
			env.emplace_back(kEnvDst, dst);
		if (o.strict)
			env.emplace_back(kEnvStrict, "1");
		if (o.timeout_ms)
			env.emplace_back(kEnvTimeout,
					 std::to_string(parse_timeout_ms(
					     std::to_string(*o.timeout_ms), "--connect-timeout")));
		if (o.verbose)
			env.emplace_back(kEnvVerbose, "1");
	} catch (const ConfigError &e) {
		throw UsageError(e.what());
	}
	return env;
}

std::optional<std::string> env_get(const Context &ctx, const std::string &name)
{
	for (const auto &kv : ctx.environ)
		if (kv.size() > name.size() && kv.compare(0, name.size(), name) == 0 &&
		    kv[name.size()] == '=')
			return kv.substr(name.size() + 1);
	return std::nullopt;
}

std::optional<int> read_ipproto(const std::string &path)
{
	std::ifstream f(path);
	if (!f)
		return std::nullopt;
	std::stringstream ss;
	ss << f.rdbuf();
	int v = parse_ipproto_param(ss.str());
	if (v < 0)
		throw Failure(kFailed, path + ": unexpected contents '" + ss.str() + "'");
	return v;
}

// The protocol number CMD's sockets will use, and whether the module is
// there to be asked about policies.
std::pair<int, bool> resolve_ipproto(Context &ctx, const Options &o)
{
	if (auto v = env_get(ctx, kEnvIpproto); v && !v->empty()) {
		try {
			return {parse_ipproto(*v, kEnvIpproto), false};
		} catch (const ConfigError &e) {
			throw UsageError(e.what());
		}
	}
	auto p = read_ipproto(ctx.ipproto_param);
	if (!p) {
		ctx.autoload();
		p = read_ipproto(ctx.ipproto_param);
	}
	if (p)
		return {*p, true};
	if (!o.tcp_if_missing)
		throw Failure(kNoModule, "the mrc kernel module is not loaded (modprobe mrc)");
	*ctx.err << "mrcize: the mrc kernel module is not loaded: every connection uses TCP\n";
	return {kIpprotoDefault, false};
}

void check_policy(Context &ctx, const std::string &name)
{
	bool exists;
	try {
		exists = ctx.policy_exists(name);
	} catch (const mrc::ModuleNotLoaded &e) {
		throw Failure(kNoModule, e.what());
	} catch (const mrc::Error &e) {
		throw Failure(kFailed, "cannot check failure policy '" + name + "': " + e.what());
	}
	if (!exists)
		throw Failure(kFailed,
			      "no failure policy named '" + name +
				  "' in this network namespace (see 'mrcctl policy show')");
}

std::string find_library(const Context &ctx)
{
	if (auto v = env_get(ctx, kEnvLib); v && !v->empty()) {
		if (access(v->c_str(), R_OK) != 0)
			throw Failure(kFailed, std::string(kEnvLib) + "=" + *v + ": " +
						   std::strerror(errno));
		return fs::absolute(*v).string();
	}
	std::vector<std::string> tried;
	fs::path self = ctx.self_exe;
	std::vector<fs::path> candidates;
	if (!ctx.self_exe.empty()) {
		candidates.push_back(self.parent_path() / "libmrcize.so");
		candidates.push_back(self.parent_path().parent_path() / MRCIZE_LIBDIR_REL /
				     "mrcize" / "libmrcize.so");
	}
	candidates.push_back(ctx.install_lib);
	for (const auto &c : candidates) {
		if (access(c.c_str(), R_OK) == 0)
			return fs::weakly_canonical(c).string();
		tried.push_back(c.lexically_normal().string());
	}
	std::string list;
	for (const auto &t : tried)
		list += (list.empty() ? "" : ", ") + t;
	throw Failure(kFailed,
		      "libmrcize.so not found (looked for " + list + "; set " + kEnvLib + ")");
}

void check_preloadable(const std::string &lib)
{
	if (lib.find_first_of(" :\t\n") != std::string::npos)
		throw Failure(kFailed,
			      "the library path '" + lib +
				  "' contains a space or ':', which LD_PRELOAD cannot carry");
}

int cmd_run(Context &ctx, Options &o)
{
	auto assignments = conversion_env(o);
	if (o.strict && o.tcp_if_missing)
		throw UsageError("--strict and --tcp-if-missing contradict each other");
	const std::string &cmd = o.cmd.front();
	std::string path_var = env_get(ctx, "PATH").value_or("/usr/local/bin:/usr/bin:/bin");
	auto path = find_command(cmd, path_var);
	if (!path)
		throw Failure(kFailed, cmd + ": command not found");
	if (access(path->c_str(), X_OK) != 0)
		throw Failure(kFailed, *path + ": " + std::strerror(errno));
	std::string interp;
	Linkage link;
	try {
		link = inspect_executable(*path, &interp);
		if (link == Linkage::kScript && !interp.empty() &&
		    inspect_executable(interp) == Linkage::kStatic)
			throw Failure(kFailed, *path + " runs " + interp +
						   ", which is statically linked: LD_PRELOAD "
						   "cannot act on it");
	} catch (const std::system_error &e) {
		throw Failure(kFailed, *path + ": " + e.code().message());
	}
	if (link == Linkage::kStatic)
		throw Failure(kFailed,
			      *path + " is statically linked: LD_PRELOAD cannot act on it");
	std::string lib = find_library(ctx);
	check_preloadable(lib);
	auto [proto, module_there] = resolve_ipproto(ctx, o);
	if (!o.policy.empty() && module_there)
		check_policy(ctx, o.policy);

	// CMD's environment: ours without the library's variables it
	// inherited (another mrcize's), then the options.
	auto is_library_var = [](const std::string &kv) {
		for (const char *v : {kEnvPorts, kEnvDst, kEnvPolicy, kEnvStrict, kEnvVerbose,
				      kEnvTimeout, kEnvIpproto})
			if (kv.rfind(std::string(v) + "=", 0) == 0)
				return true;
		return false;
	};
	std::vector<std::string> env;
	const char *old_preload = nullptr;
	std::string old_preload_s;
	for (const auto &kv : ctx.environ) {
		if (kv.rfind("LD_PRELOAD=", 0) == 0) {
			old_preload_s = kv.substr(11);
			old_preload = old_preload_s.c_str();
			continue;
		}
		if (is_library_var(kv))
			continue;
		env.push_back(kv);
	}
	env.push_back("LD_PRELOAD=" + prepend_preload(lib, old_preload));
	env.push_back(std::string(kEnvIpproto) + "=" + std::to_string(proto));
	for (const auto &[k, v] : assignments)
		env.push_back(k + "=" + v);
	int e = ctx.exec(*path, o.cmd, env);
	if (e == 0)
		return kOk;
	throw Failure(kFailed, *path + ": " + std::strerror(e));
}

fs::path dropin_path(const Context &ctx, const Options &o)
{
	return fs::path(o.unit_dir.empty() ? ctx.unit_dir : o.unit_dir) / (o.unit + ".d") /
	       kDropinName;
}

void check_unit(const std::string &unit)
{
	if (auto why = unit_name_problem(unit))
		throw UsageError(*why);
}

void daemon_reload(Context &ctx, const Options &o)
{
	if (!o.unit_dir.empty() || !ctx.systemd_running())
		return;
	int st = ctx.run_command({"systemctl", "daemon-reload"});
	if (st != 0)
		throw Failure(kFailed,
			      "systemctl daemon-reload failed (status " + std::to_string(st) + ")");
}

int cmd_enable(Context &ctx, Options &o)
{
	check_unit(o.unit);
	auto assignments = conversion_env(o);
	std::string lib = find_library(ctx);
	check_preloadable(lib);
	if (!o.policy.empty()) {
		// Only when the module is there to answer: a unit may well be
		// set up before the module is installed.
		std::error_code ec;
		if (fs::exists(ctx.ipproto_param, ec))
			check_policy(ctx, o.policy);
	}
	fs::path file = dropin_path(ctx, o);
	std::ostringstream text;
	text << "# Written by 'mrcize enable': " << o.unit << " runs over MRC, see mrcize(8).\n"
	     << "# Undo with 'mrcize disable " << o.unit << "'.\n"
	     << "[Service]\n"
	     << "Environment=" << systemd_quote("LD_PRELOAD=" + lib) << "\n";
	for (const auto &[k, v] : assignments)
		text << "Environment=" << systemd_quote(k + "=" + v) << "\n";

	std::error_code ec;
	fs::path dir = file.parent_path();
	if (!fs::is_directory(dir.parent_path(), ec))
		throw Failure(kFailed, dir.parent_path().string() + ": no such directory");
	fs::create_directory(dir, ec);
	if (ec)
		throw Failure(kFailed, dir.string() + ": " + ec.message());
	fs::path tmp = file;
	tmp += ".tmp";
	{
		std::ofstream f(tmp, std::ios::trunc);
		f << text.str();
		f.close();
		if (!f)
			throw Failure(kFailed, tmp.string() + ": cannot write");
	}
	fs::rename(tmp, file, ec);
	if (ec)
		throw Failure(kFailed, file.string() + ": " + ec.message());
	*ctx.out << "mrcize: wrote " << file.string() << "; restart " << o.unit << " to apply\n";
	daemon_reload(ctx, o);
	return kOk;
}

int cmd_disable(Context &ctx, Options &o)
{
	check_unit(o.unit);
	fs::path file = dropin_path(ctx, o);
	std::error_code ec;
	if (!fs::remove(file, ec)) {
		if (ec)
			throw Failure(kFailed, file.string() + ": " + ec.message());
		throw Failure(kFailed, o.unit + " has no mrcize drop-in (" + file.string() + ")");
	}
	fs::remove(file.parent_path(), ec); // only if empty; fine if not
	*ctx.out << "mrcize: removed " << file.string() << "; restart " << o.unit << " to apply\n";
	daemon_reload(ctx, o);
	return kOk;
}

} // namespace

Linkage inspect_executable(const std::string &path, std::string *interp)
{
	int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		throw std::system_error(errno, std::generic_category());
	struct Closer {
		int fd;
		~Closer() { close(fd); }
	} closer{fd};
	auto pread_all = [&](void *buf, size_t len, off_t off) {
		ssize_t n = pread(fd, buf, len, off);
		return n == static_cast<ssize_t>(len);
	};
	char head[256] = {};
	ssize_t n = pread(fd, head, sizeof(head) - 1, 0);
	if (n < 0)
		throw std::system_error(errno, std::generic_category());
	if (n >= 2 && head[0] == '#' && head[1] == '!') {
		if (interp) {
			std::string line(head + 2, static_cast<size_t>(n) - 2);
			line = line.substr(0, line.find('\n'));
			size_t b = line.find_first_not_of(" \t");
			size_t e = b == std::string::npos ? b : line.find_first_of(" \t", b);
			*interp = b == std::string::npos ? "" : line.substr(b, e - b);
		}
		return Linkage::kScript;
	}
	if (n < EI_NIDENT || std::memcmp(head, ELFMAG, SELFMAG) != 0)
		return Linkage::kOther;

	// Program headers, 32 or 64 bits, native byte order (a foreign one
	// cannot be run here anyway).
	bool is64 = head[EI_CLASS] == ELFCLASS64;
	uint16_t type, phnum, phentsize;
	uint64_t phoff;
	if (is64) {
		Elf64_Ehdr eh;
		if (!pread_all(&eh, sizeof(eh), 0))
			return Linkage::kOther;
		type = eh.e_type, phnum = eh.e_phnum, phentsize = eh.e_phentsize;
		phoff = eh.e_phoff;
	} else {
		Elf32_Ehdr eh;
		if (!pread_all(&eh, sizeof(eh), 0))
			return Linkage::kOther;
		type = eh.e_type, phnum = eh.e_phnum, phentsize = eh.e_phentsize;
		phoff = eh.e_phoff;
	}
	bool has_interp = false;
	uint64_t dyn_off = 0, dyn_size = 0;
	for (unsigned i = 0; i < phnum; i++) {
		uint32_t p_type;
		uint64_t off, size;
		if (is64) {
			Elf64_Phdr ph;
			if (!pread_all(&ph, sizeof(ph), static_cast<off_t>(phoff + i * phentsize)))
				break;
			p_type = ph.p_type, off = ph.p_offset, size = ph.p_filesz;
		} else {
			Elf32_Phdr ph;
			if (!pread_all(&ph, sizeof(ph), static_cast<off_t>(phoff + i * phentsize)))
				break;
			p_type = ph.p_type, off = ph.p_offset, size = ph.p_filesz;
		}
		if (p_type == PT_INTERP)
			has_interp = true;
		if (p_type == PT_DYNAMIC)
			dyn_off = off, dyn_size = size;
	}
	if (has_interp)
		return Linkage::kDynamic;
	// No PT_INTERP: static, or static-pie (PT_DYNAMIC, but no loader
	// comes). A shared object run directly (ld.so, libc.so.6) has a
	// DT_SONAME and is its own loader.
	if (type == ET_DYN && dyn_size > 0) {
		size_t entsize = is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn);
		for (uint64_t o = 0; o + entsize <= dyn_size && o < (1u << 20); o += entsize) {
			int64_t tag;
			if (is64) {
				Elf64_Dyn d;
				if (!pread_all(&d, sizeof(d), static_cast<off_t>(dyn_off + o)))
					break;
				tag = d.d_tag;
			} else {
				Elf32_Dyn d;
				if (!pread_all(&d, sizeof(d), static_cast<off_t>(dyn_off + o)))
					break;
				tag = d.d_tag;
			}
			if (tag == DT_NULL)
				break;
			if (tag == DT_SONAME)
				return Linkage::kDynamic;
		}
	}
	return Linkage::kStatic;
}

std::optional<std::string> find_command(const std::string &cmd, const std::string &path_var)
{
	if (cmd.empty())
		return std::nullopt;
	if (cmd.find('/') != std::string::npos) {
		struct stat sb;
		if (stat(cmd.c_str(), &sb) != 0 || !S_ISREG(sb.st_mode))
			return std::nullopt;
		return cmd;
	}
	size_t start = 0;
	for (;;) {
		size_t colon = path_var.find(':', start);
		std::string dir = path_var.substr(start, colon - start);
		std::string cand = (dir.empty() ? "." : dir) + "/" + cmd;
		struct stat sb;
		if (stat(cand.c_str(), &sb) == 0 && S_ISREG(sb.st_mode) &&
		    access(cand.c_str(), X_OK) == 0)
			return cand;
		if (colon == std::string::npos)
			return std::nullopt;
		start = colon + 1;
	}
}

std::string prepend_preload(const std::string &lib, const char *old)
{
	if (!old || !*old)
		return lib;
	std::string s(old);
	// ld.so separates entries with spaces or colons.
	size_t start = 0;
	for (;;) {
		size_t end = s.find_first_of(" :", start);
		if (s.substr(start, end - start) == lib)
			return s;
		if (end == std::string::npos)
			break;
		start = end + 1;
	}
	return lib + " " + s;
}

std::optional<std::string> unit_name_problem(const std::string &unit)
{
	const std::string suffix = ".service";
	if (unit.find('/') != std::string::npos)
		return "'" + unit + "' is not a unit name: it contains '/'";
	if (unit.size() <= suffix.size() ||
	    unit.compare(unit.size() - suffix.size(), suffix.size(), suffix) != 0)
		return "'" + unit + "' is not a service: the unit name must end in .service";
	for (char c : unit)
		if (static_cast<unsigned char>(c) <= ' ' || c == '"' || c == '\\' || c == 0x7f)
			return "'" + unit + "' is not a unit name: it contains a blank or quote";
	return std::nullopt;
}

std::string systemd_quote(const std::string &assignment)
{
	std::string q = "\"";
	for (char c : assignment) {
		if (c == '"' || c == '\\')
			q += '\\';
		if (c == '%')
			q += '%';
		q += c;
	}
	return q + "\"";
}

Context system_context()
{
	Context ctx;
	for (char **e = environ; e && *e; e++)
		ctx.environ.emplace_back(*e);
	std::error_code ec;
	ctx.self_exe = fs::read_symlink("/proc/self/exe", ec).string();
	ctx.install_lib = MRCIZE_INSTALL_LIB;
	ctx.ipproto_param = kIpprotoParam;
	ctx.unit_dir = "/etc/systemd/system";
	ctx.autoload = []() {
		int fd = socket(AF_INET6, SOCK_STREAM, kIpprotoDefault);
		if (fd >= 0)
			close(fd);
	};
	ctx.policy_exists = [](const std::string &name) {
		mrc::Client c;
		try {
			c.policy_get(name);
			return true;
		} catch (const mrc::ModuleNotLoaded &) {
			throw;
		} catch (const mrc::Error &e) {
			if (e.errnum() == ENOENT)
				return false;
			throw;
		}
	};
	ctx.systemd_running = []() { return access("/run/systemd/system", F_OK) == 0; };
	ctx.run_command = [](const std::vector<std::string> &argv) {
		std::vector<char *> a;
		for (const auto &s : argv)
			a.push_back(const_cast<char *>(s.c_str()));
		a.push_back(nullptr);
		pid_t pid;
		if (posix_spawnp(&pid, a[0], nullptr, nullptr, a.data(), environ) != 0)
			return 127;
		int st = 0;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
		}
		return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	};
	ctx.exec = [](const std::string &path, const std::vector<std::string> &argv,
		      const std::vector<std::string> &env) {
		std::vector<char *> a, e;
		for (const auto &s : argv)
			a.push_back(const_cast<char *>(s.c_str()));
		a.push_back(nullptr);
		for (const auto &s : env)
			e.push_back(const_cast<char *>(s.c_str()));
		e.push_back(nullptr);
		execve(path.c_str(), a.data(), e.data());
		return errno;
	};
	return ctx;
}

int run(const std::vector<std::string> &args, Context &ctx)
{
	ctx.out = ctx.out ? ctx.out : &std::cout;
	ctx.err = ctx.err ? ctx.err : &std::cerr;
	std::ostream &out = *ctx.out;
	std::ostream &err = *ctx.err;

	CLI::App app{"mrcize: run unmodified programs over MRC (Multipath Reliable Connection)",
		     "mrcize"};
	app.set_version_flag("-V,--version", std::string("mrcize ") + MRC_VERSION);
	app.require_subcommand(1);
	app.footer("Exit status: 0 success, 1 failure, 2 usage error, 3 module not loaded;\n"
		   "after 'run' starts CMD, CMD's own. See mrcize(8).");
	Options o;
	int (*action)(Context &, Options &) = nullptr;

	auto *run = app.add_subcommand("run", "run CMD with its IPv6 TCP sockets over MRC");
	add_conversion_options(run, o);
	run->add_flag("--tcp-if-missing", o.tcp_if_missing,
		      "run CMD over TCP when the mrc module is not loaded");
	run->prefix_command();
	run->footer("CMD [ARGS...] follows the options (after '--', or at the first word that is "
		    "not one).");
	run->callback([&]() { action = cmd_run; });

	auto *enable = app.add_subcommand(
	    "enable", "make a systemd service run over MRC (a drop-in with the options)");
	add_conversion_options(enable, o);
	enable
	    ->add_option("--unit-dir", o.unit_dir,
			 "where unit drop-ins go (default /etc/systemd/system); no "
			 "daemon-reload when given")
	    ->type_name("DIR");
	enable->add_option("unit", o.unit, "NAME.service")->required();
	enable->callback([&]() { action = cmd_enable; });

	auto *disable = app.add_subcommand("disable", "remove the drop-in of 'mrcize enable'");
	disable->add_option("--unit-dir", o.unit_dir, "as for enable")->type_name("DIR");
	disable->add_option("unit", o.unit, "NAME.service")->required();
	disable->callback([&]() { action = cmd_disable; });

	app.add_subcommand("help", "show this help, or a command's (help run)")
	    ->add_option("command", o.cmd, "run, enable or disable");

	// "help [COMMAND]" (CLI11 would print the help of "help" itself).
	if (!args.empty() && args[0] == "help") {
		if (args.size() == 1) {
			out << app.help();
			return kOk;
		}
		if (args.size() == 2 &&
		    (args[1] == "run" || args[1] == "enable" || args[1] == "disable")) {
			out << app.get_subcommand(args[1])->help();
			return kOk;
		}
		err << "mrcize: help: no command '" << args.back()
		    << "' (run, enable, disable)\nTry 'mrcize --help'.\n";
		return kUsage;
	}

	// CMD and its arguments are everything after the first word that is
	// not an option of run, or after a "--" before it. CLI11 (2.1) stops
	// at the first word, not at "--": split at the "--" here.
	std::vector<std::string> words = args;
	std::vector<std::string> after;
	bool dashdash = false;
	auto sub = std::find_if(words.begin(), words.end(),
				[](const std::string &w) { return w.empty() || w[0] != '-'; });
	if (sub != words.end() && *sub != "run" && *sub != "enable" && *sub != "disable") {
		err << "mrcize: unknown command '" << *sub
		    << "' (run, enable, disable, help)\nTry 'mrcize --help'.\n";
		return kUsage;
	}
	if (sub != words.end() && *sub == "run") {
		auto dd = std::find(sub, words.end(), "--");
		if (dd != words.end()) {
			after.assign(dd + 1, words.end());
			words.erase(dd, words.end());
			dashdash = true;
		}
	}
	std::vector<std::string> rev(words.rbegin(), words.rend());
	try {
		app.parse(rev);
		if (run->parsed()) {
			o.cmd = run->remaining();
			if (!o.cmd.empty() && o.cmd.front().size() > 1 && o.cmd.front()[0] == '-')
				throw UsageError("run: unknown option '" + o.cmd.front() + "'");
			if (dashdash) {
				if (!o.cmd.empty()) // "--" came after CMD: it is CMD's
					o.cmd.push_back("--");
				o.cmd.insert(o.cmd.end(), after.begin(), after.end());
			}
			if (o.cmd.empty())
				throw UsageError("run: no command given (mrcize run [OPTIONS] -- "
						 "CMD [ARGS...])");
		}
		return action ? action(ctx, o) : kUsage;
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
		err << "mrcize: " << e.what() << "\nTry 'mrcize --help'.\n";
		return kUsage;
	} catch (const UsageError &e) {
		err << "mrcize: " << e.what() << "\nTry 'mrcize --help'.\n";
		return kUsage;
	} catch (const Failure &e) {
		err << "mrcize: " << e.what() << '\n';
		return e.code();
	} catch (const std::exception &e) {
		err << "mrcize: " << e.what() << '\n';
		return kFailed;
	}
}

} // namespace mrcize
