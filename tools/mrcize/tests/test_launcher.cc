// SPDX-License-Identifier: GPL-2.0
// mrcize: the launcher, driven in-process with a recorded exec: what CMD
// would be started with, every refusal and its exit code, ELF inspection,
// systemd drop-ins in a temporary directory.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <mrc/error.hpp>

#include "launcher.hpp"

namespace fs = std::filesystem;
using namespace mrcize;

namespace {

struct TempDir {
	fs::path path;
	TempDir()
	{
		char tmpl[] = "/tmp/mrcize-test-XXXXXX";
		path = mkdtemp(tmpl);
	}
	~TempDir()
	{
		std::error_code ec;
		fs::remove_all(path, ec);
	}
};

void write_file(const fs::path &p, const std::string &text, bool exec = false)
{
	std::ofstream(p) << text;
	if (exec)
		chmod(p.c_str(), 0755);
}

std::string read_file(const fs::path &p)
{
	std::ifstream f(p);
	std::stringstream ss;
	ss << f.rdbuf();
	return ss.str();
}

struct Fake {
	TempDir tmp;
	std::ostringstream out, err;
	Context ctx;
	bool autoloaded = false;
	std::vector<std::vector<std::string>> commands;
	bool execed = false;
	std::string exec_path;
	std::vector<std::string> exec_argv, exec_env;
	int exec_errno = 0;
	bool systemd = true;

	Fake()
	{
		ctx.out = &out;
		ctx.err = &err;
		ctx.environ = {"PATH=/usr/bin:/bin", "HOME=/root", "MRCIZE_PORTS=1",
			       "MRCIZE_STRICT=1", "LD_PRELOAD=/other.so"};
		ctx.self_exe = MRCIZE_BIN;
		ctx.install_lib = "/nonexistent/lib/mrcize/libmrcize.so";
		ctx.ipproto_param = (tmp.path / "ipproto").string();
		write_file(ctx.ipproto_param, "261\n");
		ctx.unit_dir = (tmp.path / "etc").string();
		fs::create_directory(ctx.unit_dir);
		ctx.autoload = [this]() { autoloaded = true; };
		ctx.policy_exists = [](const std::string &name) { return name == "fast"; };
		ctx.systemd_running = [this]() { return systemd; };
		ctx.run_command = [this](const std::vector<std::string> &argv) {
			commands.push_back(argv);
			return 0;
		};
		ctx.exec = [this](const std::string &path, const std::vector<std::string> &argv,
				  const std::vector<std::string> &env) {
			execed = true;
			exec_path = path;
			exec_argv = argv;
			exec_env = env;
			return exec_errno;
		};
	}

	int run(const std::vector<std::string> &args) { return mrcize::run(args, ctx); }

	std::optional<std::string> env(const std::string &name) const
	{
		std::optional<std::string> v;
		for (const auto &kv : exec_env)
			if (kv.rfind(name + "=", 0) == 0) {
				EXPECT_FALSE(v.has_value()) << name << " set twice";
				v = kv.substr(name.size() + 1);
			}
		return v;
	}
};

std::string built_lib()
{
	return fs::weakly_canonical(MRCIZE_PRELOAD).string();
}

} // namespace

TEST(Launcher, RunSetsTheEnvironmentAndExecs)
{
	Fake f;
	int rc = f.run({"run", "--ports", "29500,30000-30100", "--dst", "fd00::/8", "--dst",
			"2001:db8::/32", "--connect-timeout", "250", "-v", "--policy", "fast", "--",
			"sh", "-c", "exit 0"});
	ASSERT_EQ(rc, kOk) << f.err.str();
	ASSERT_TRUE(f.execed);
	EXPECT_EQ(f.exec_path, "/usr/bin/sh");
	EXPECT_EQ(f.exec_argv, (std::vector<std::string>{"sh", "-c", "exit 0"}));
	EXPECT_EQ(f.env("LD_PRELOAD"), built_lib() + " /other.so");
	EXPECT_EQ(f.env("MRCIZE_IPPROTO"), "261");
	EXPECT_EQ(f.env("MRCIZE_PORTS"), "29500,30000-30100");
	EXPECT_EQ(f.env("MRCIZE_DST"), "fd00::/8,2001:db8::/32");
	EXPECT_EQ(f.env("MRCIZE_CONNECT_TIMEOUT_MS"), "250");
	EXPECT_EQ(f.env("MRCIZE_VERBOSE"), "1");
	EXPECT_EQ(f.env("MRCIZE_POLICY"), "fast");
	EXPECT_FALSE(f.env("MRCIZE_STRICT")) << "inherited MRCIZE_* are dropped";
	EXPECT_EQ(f.env("HOME"), "/root");
	EXPECT_FALSE(f.autoloaded);
	EXPECT_TRUE(f.err.str().empty());
}

TEST(Launcher, CommandStartsAtTheFirstWordWithoutDashDash)
{
	Fake f;
	ASSERT_EQ(f.run({"run", "--strict", "sh", "-v", "--", "x"}), kOk) << f.err.str();
	EXPECT_EQ(f.exec_argv, (std::vector<std::string>{"sh", "-v", "--", "x"}));
	EXPECT_EQ(f.env("MRCIZE_STRICT"), "1");
	EXPECT_EQ(f.env("LD_PRELOAD"), built_lib() + " /other.so");
}

TEST(Launcher, NoExistingPreloadAndNoDuplicate)
{
	Fake f;
	f.ctx.environ = {"PATH=/usr/bin:/bin", "LD_PRELOAD=/a.so:" + built_lib()};
	ASSERT_EQ(f.run({"run", "sh"}), kOk) << f.err.str();
	EXPECT_EQ(f.env("LD_PRELOAD"), "/a.so:" + built_lib());
	EXPECT_EQ(prepend_preload("/l.so", nullptr), "/l.so");
	EXPECT_EQ(prepend_preload("/l.so", ""), "/l.so");
	EXPECT_EQ(prepend_preload("/l.so", "/a.so /b.so"), "/l.so /a.so /b.so");
}

TEST(Launcher, ProtocolNumberComesFromTheModuleParameter)
{
	Fake f;
	write_file(f.ctx.ipproto_param, "300\n");
	ASSERT_EQ(f.run({"run", "sh"}), kOk);
	EXPECT_EQ(f.env("MRCIZE_IPPROTO"), "300");
}

TEST(Launcher, ModuleMissingIsExitThreeAfterOneAutoloadTry)
{
	Fake f;
	fs::remove(f.ctx.ipproto_param);
	EXPECT_EQ(f.run({"run", "sh"}), kNoModule);
	EXPECT_TRUE(f.autoloaded);
	EXPECT_FALSE(f.execed);
	EXPECT_EQ(f.err.str(), "mrcize: the mrc kernel module is not loaded (modprobe mrc)\n");
}

TEST(Launcher, AutoloadThatLoadsTheModule)
{
	Fake f;
	std::string param = f.ctx.ipproto_param;
	fs::remove(param);
	f.ctx.autoload = [param]() { write_file(param, "261\n"); };
	EXPECT_EQ(f.run({"run", "sh"}), kOk) << f.err.str();
	EXPECT_EQ(f.env("MRCIZE_IPPROTO"), "261");
}

TEST(Launcher, TcpIfMissingRunsAnyway)
{
	Fake f;
	fs::remove(f.ctx.ipproto_param);
	EXPECT_EQ(f.run({"run", "--tcp-if-missing", "--policy", "nosuch", "sh"}), kOk);
	EXPECT_TRUE(f.execed);
	EXPECT_EQ(f.env("MRCIZE_IPPROTO"), "261");
	EXPECT_NE(f.err.str().find("not loaded: every connection uses TCP"), std::string::npos);
	Fake g;
	EXPECT_EQ(g.run({"run", "--tcp-if-missing", "--strict", "sh"}), kUsage);
}

TEST(Launcher, IpprotoOverrideSkipsTheModule)
{
	Fake f;
	fs::remove(f.ctx.ipproto_param);
	f.ctx.environ.push_back("MRCIZE_IPPROTO=262");
	EXPECT_EQ(f.run({"run", "--policy", "nosuch", "sh"}), kOk) << f.err.str();
	EXPECT_FALSE(f.autoloaded);
	EXPECT_EQ(f.env("MRCIZE_IPPROTO"), "262");
	EXPECT_EQ(f.env("MRCIZE_POLICY"), "nosuch"); // not checked without the module
	Fake g;
	g.ctx.environ.push_back("MRCIZE_IPPROTO=abc");
	EXPECT_EQ(g.run({"run", "sh"}), kUsage);
	EXPECT_NE(g.err.str().find("MRCIZE_IPPROTO='abc'"), std::string::npos);
}

TEST(Launcher, UnknownPolicyIsRefused)
{
	Fake f;
	EXPECT_EQ(f.run({"run", "--policy", "nosuch", "sh"}), kFailed);
	EXPECT_FALSE(f.execed);
	EXPECT_EQ(f.err.str(), "mrcize: no failure policy named 'nosuch' in this network "
			       "namespace (see 'mrcctl policy show')\n");
	Fake g;
	g.ctx.policy_exists = [](const std::string &) -> bool { throw mrc::ModuleNotLoaded(); };
	EXPECT_EQ(g.run({"run", "--policy", "fast", "sh"}), kNoModule);
	Fake h;
	h.ctx.policy_exists = [](const std::string &) -> bool {
		throw mrc::Error(EPERM, "policy get: not permitted");
	};
	EXPECT_EQ(h.run({"run", "--policy", "fast", "sh"}), kFailed);
	EXPECT_NE(h.err.str().find("cannot check failure policy 'fast'"), std::string::npos);
}

TEST(Launcher, MalformedOptionsAreUsageErrors)
{
	struct Case {
		std::vector<std::string> args;
		std::string says;
	} cases[] = {
	    {{"run", "--ports", "0", "sh"}, "--ports='0'"},
	    {{"run", "--ports", "1-2-3", "sh"}, "--ports='1-2-3'"},
	    {{"run", "--dst", "10.0.0.0/8", "sh"}, "is not an IPv6 address"},
	    {{"run", "--connect-timeout", "0", "sh"}, "--connect-timeout='0'"},
	    {{"run", "--connect-timeout", "x", "sh"}, "connect-timeout"},
	    {{"run", "--policy", "a.b", "sh"}, "--policy='a.b'"},
	    {{"run", "-v"}, "no command given"},
	    {{"run", "--"}, "no command given"},
	    {{"run", "--bogus", "sh"}, "bogus"},
	    {{}, "A subcommand is required"},
	    {{"help", "frob"}, "no command 'frob'"},
	    {{"frob"}, "frob"},
	};
	for (const auto &c : cases) {
		Fake f;
		EXPECT_EQ(f.run(c.args), kUsage) << c.says;
		EXPECT_NE(f.err.str().find(c.says), std::string::npos)
		    << c.says << ": " << f.err.str();
		EXPECT_NE(f.err.str().find("Try 'mrcize --help'"), std::string::npos);
		EXPECT_FALSE(f.execed);
	}
}

TEST(Launcher, CommandNotFound)
{
	Fake f;
	EXPECT_EQ(f.run({"run", "--", "no-such-command-mrcize"}), kFailed);
	EXPECT_EQ(f.err.str(), "mrcize: no-such-command-mrcize: command not found\n");
	Fake g;
	EXPECT_EQ(g.run({"run", "--", "/nonexistent/prog"}), kFailed);
	EXPECT_EQ(g.err.str(), "mrcize: /nonexistent/prog: command not found\n");
}

TEST(Launcher, StaticBinariesAreRefused)
{
	for (const char *prog : {MRCIZE_STATIC_PROG, MRCIZE_STATIC_PIE_PROG}) {
		Fake f;
		EXPECT_EQ(f.run({"run", "--", prog}), kFailed);
		EXPECT_EQ(f.err.str(), std::string("mrcize: ") + prog +
					   " is statically linked: LD_PRELOAD cannot act on it\n");
		EXPECT_FALSE(f.execed);
	}
}

TEST(Launcher, ScriptWithAStaticInterpreterIsRefused)
{
	Fake f;
	fs::path script = f.tmp.path / "script";
	write_file(script, std::string("#!") + MRCIZE_STATIC_PROG + " -x\n", true);
	EXPECT_EQ(f.run({"run", script.string()}), kFailed);
	EXPECT_NE(f.err.str().find("which is statically linked"), std::string::npos);
	Fake g;
	fs::path ok = g.tmp.path / "ok";
	write_file(ok, "#!/bin/sh\nexit 0\n", true);
	EXPECT_EQ(g.run({"run", ok.string()}), kOk) << g.err.str();
}

TEST(Launcher, NotExecutable)
{
	Fake f;
	fs::path p = f.tmp.path / "noexec";
	write_file(p, "#!/bin/sh\n");
	chmod(p.c_str(), 0644);
	if (geteuid() == 0 && access(p.c_str(), X_OK) == 0)
		GTEST_SKIP() << "root may execute anything here";
	EXPECT_EQ(f.run({"run", p.string()}), kFailed);
	EXPECT_NE(f.err.str().find("Permission denied"), std::string::npos);
}

TEST(Launcher, LibraryNotFound)
{
	Fake f;
	f.ctx.self_exe = "/nonexistent/bin/mrcize";
	EXPECT_EQ(f.run({"run", "sh"}), kFailed);
	EXPECT_NE(f.err.str().find("libmrcize.so not found (looked for "
				   "/nonexistent/bin/libmrcize.so, "),
		  std::string::npos)
	    << f.err.str();
	EXPECT_NE(f.err.str().find("/nonexistent/lib/mrcize/libmrcize.so; set MRCIZE_LIB)"),
		  std::string::npos);
	EXPECT_FALSE(f.execed);
}

TEST(Launcher, MrcizeLibOverride)
{
	Fake f;
	f.ctx.self_exe = "/nonexistent/bin/mrcize";
	f.ctx.environ.push_back(std::string("MRCIZE_LIB=") + MRCIZE_PRELOAD);
	EXPECT_EQ(f.run({"run", "sh"}), kOk) << f.err.str();
	EXPECT_EQ(f.env("LD_PRELOAD"), fs::absolute(MRCIZE_PRELOAD).string() + " /other.so");
	EXPECT_EQ(f.env("MRCIZE_LIB"), MRCIZE_PRELOAD);
	Fake g;
	g.ctx.environ.push_back("MRCIZE_LIB=/nonexistent/libmrcize.so");
	EXPECT_EQ(g.run({"run", "sh"}), kFailed);
	EXPECT_NE(g.err.str().find("MRCIZE_LIB=/nonexistent/libmrcize.so: No such file"),
		  std::string::npos);
}

TEST(Launcher, InstalledLayoutIsFound)
{
	Fake f;
	// bin/mrcize with LIBDIR/mrcize/libmrcize.so beside it, relocated.
	fs::path root = f.tmp.path / "prefix";
	fs::create_directories(root / "bin");
	fs::create_directories(root / MRCIZE_LIBDIR_REL / "mrcize");
	fs::copy_file(MRCIZE_PRELOAD, root / MRCIZE_LIBDIR_REL / "mrcize" / "libmrcize.so");
	f.ctx.self_exe = (root / "bin" / "mrcize").string();
	EXPECT_EQ(f.run({"run", "sh"}), kOk) << f.err.str();
	EXPECT_EQ(f.env("LD_PRELOAD"),
		  (root / MRCIZE_LIBDIR_REL / "mrcize" / "libmrcize.so").string() + " /other.so");
}

TEST(Launcher, LibraryPathLdPreloadCannotCarry)
{
	Fake f;
	fs::path dir = f.tmp.path / "a b";
	fs::create_directory(dir);
	fs::copy_file(MRCIZE_PRELOAD, dir / "libmrcize.so");
	f.ctx.environ.push_back("MRCIZE_LIB=" + (dir / "libmrcize.so").string());
	EXPECT_EQ(f.run({"run", "sh"}), kFailed);
	EXPECT_NE(f.err.str().find("contains a space or ':'"), std::string::npos);
}

TEST(Launcher, ExecFailure)
{
	Fake f;
	f.exec_errno = ENOEXEC;
	EXPECT_EQ(f.run({"run", "sh"}), kFailed);
	EXPECT_EQ(f.err.str(), "mrcize: /usr/bin/sh: Exec format error\n");
}

TEST(Launcher, VersionAndHelp)
{
	Fake f;
	EXPECT_EQ(f.run({"--version"}), kOk);
	EXPECT_EQ(f.out.str().rfind("mrcize ", 0), 0u);
	Fake g;
	EXPECT_EQ(g.run({"help"}), kOk);
	for (const char *w : {"run", "enable", "disable", "Exit status"})
		EXPECT_NE(g.out.str().find(w), std::string::npos) << w;
	Fake h;
	EXPECT_EQ(h.run({"run", "--help"}), kOk);
	EXPECT_NE(h.out.str().find("--connect-timeout"), std::string::npos);
	Fake i;
	EXPECT_EQ(i.run({"help", "enable"}), kOk);
	EXPECT_NE(i.out.str().find("--unit-dir"), std::string::npos);
}

TEST(Elf, Inspection)
{
	std::string interp;
	EXPECT_EQ(inspect_executable("/bin/sh"), Linkage::kDynamic);
	EXPECT_EQ(inspect_executable(MRCIZE_TESTPROG), Linkage::kDynamic);
	EXPECT_EQ(inspect_executable(MRCIZE_STATIC_PROG), Linkage::kStatic);
	EXPECT_EQ(inspect_executable(MRCIZE_STATIC_PIE_PROG), Linkage::kStatic);
	// Shared objects that run on their own are their own loader.
	if (fs::exists("/lib64/ld-linux-x86-64.so.2")) {
		EXPECT_EQ(inspect_executable("/lib64/ld-linux-x86-64.so.2"), Linkage::kDynamic);
	}
	TempDir t;
	write_file(t.path / "s", "#!  /usr/bin/env python3\n");
	EXPECT_EQ(inspect_executable((t.path / "s").string(), &interp), Linkage::kScript);
	EXPECT_EQ(interp, "/usr/bin/env");
	write_file(t.path / "text", "hello\n");
	EXPECT_EQ(inspect_executable((t.path / "text").string()), Linkage::kOther);
	write_file(t.path / "short", "\x7f"
				     "ELF");
	EXPECT_EQ(inspect_executable((t.path / "short").string()), Linkage::kOther);
	EXPECT_THROW(inspect_executable("/nonexistent"), std::system_error);
}

TEST(Elf, FindCommand)
{
	EXPECT_EQ(find_command("sh", "/nonexistent:/bin"), "/bin/sh");
	EXPECT_EQ(find_command("no-such-command-mrcize", "/bin:/usr/bin"), std::nullopt);
	EXPECT_EQ(find_command("/bin/sh", ""), "/bin/sh");
	EXPECT_EQ(find_command("/bin", "/usr/bin"), std::nullopt); // a directory
	EXPECT_EQ(find_command("", "/bin"), std::nullopt);
}

TEST(Units, NamesAndQuoting)
{
	EXPECT_FALSE(unit_name_problem("iperf3.service"));
	EXPECT_FALSE(unit_name_problem("getty@tty1.service"));
	EXPECT_NE(unit_name_problem("a/b.service")->find("contains '/'"), std::string::npos);
	EXPECT_NE(unit_name_problem("iperf3")->find("must end in .service"), std::string::npos);
	EXPECT_TRUE(unit_name_problem("iperf3.socket"));
	EXPECT_TRUE(unit_name_problem(".service"));
	EXPECT_TRUE(unit_name_problem("a b.service"));
	EXPECT_EQ(systemd_quote("A=b%c\"d\\"), "\"A=b%%c\\\"d\\\\\"");
}

TEST(Units, EnableWritesADropInAndDisableRemovesIt)
{
	Fake f;
	fs::path dir = f.tmp.path / "units";
	fs::create_directory(dir);
	ASSERT_EQ(f.run({"enable", "--unit-dir", dir.string(), "--ports", "5201", "--policy",
			 "fast", "--strict", "iperf3.service"}),
		  kOk)
	    << f.err.str();
	fs::path file = dir / "iperf3.service.d" / "mrcize.conf";
	EXPECT_EQ(read_file(file), "# Written by 'mrcize enable': iperf3.service runs over MRC, "
				   "see mrcize(8).\n"
				   "# Undo with 'mrcize disable iperf3.service'.\n"
				   "[Service]\n"
				   "Environment=\"LD_PRELOAD=" +
				       built_lib() +
				       "\"\n"
				       "Environment=\"MRCIZE_POLICY=fast\"\n"
				       "Environment=\"MRCIZE_PORTS=5201\"\n"
				       "Environment=\"MRCIZE_STRICT=1\"\n");
	EXPECT_TRUE(f.commands.empty()) << "no daemon-reload with --unit-dir";
	EXPECT_NE(f.out.str().find("restart iperf3.service"), std::string::npos);

	Fake g;
	ASSERT_EQ(g.run({"disable", "--unit-dir", dir.string(), "iperf3.service"}), kOk)
	    << g.err.str();
	EXPECT_FALSE(fs::exists(file));
	EXPECT_FALSE(fs::exists(file.parent_path())) << "the empty .d directory goes too";
	Fake h;
	EXPECT_EQ(h.run({"disable", "--unit-dir", dir.string(), "iperf3.service"}), kFailed);
	EXPECT_NE(h.err.str().find("iperf3.service has no mrcize drop-in"), std::string::npos);
}

TEST(Units, DisableKeepsOtherDropIns)
{
	Fake f;
	fs::path dir = f.tmp.path / "units";
	fs::create_directories(dir / "x.service.d");
	write_file(dir / "x.service.d" / "other.conf", "[Service]\n");
	ASSERT_EQ(f.run({"enable", "--unit-dir", dir.string(), "x.service"}), kOk);
	ASSERT_EQ(f.run({"disable", "--unit-dir", dir.string(), "x.service"}), kOk);
	EXPECT_TRUE(fs::exists(dir / "x.service.d" / "other.conf"));
}

TEST(Units, DefaultDirReloadsSystemdWhenItRuns)
{
	Fake f;
	ASSERT_EQ(f.run({"enable", "a.service"}), kOk) << f.err.str();
	EXPECT_TRUE(fs::exists(fs::path(f.ctx.unit_dir) / "a.service.d" / "mrcize.conf"));
	ASSERT_EQ(f.commands.size(), 1u);
	EXPECT_EQ(f.commands[0], (std::vector<std::string>{"systemctl", "daemon-reload"}));
	ASSERT_EQ(f.run({"disable", "a.service"}), kOk);
	EXPECT_EQ(f.commands.size(), 2u);
	Fake g;
	g.systemd = false;
	ASSERT_EQ(g.run({"enable", "a.service"}), kOk);
	EXPECT_TRUE(g.commands.empty());
	Fake h;
	h.ctx.run_command = [](const std::vector<std::string> &) { return 1; };
	EXPECT_EQ(h.run({"enable", "a.service"}), kFailed);
	EXPECT_NE(h.err.str().find("systemctl daemon-reload failed (status 1)"), std::string::npos);
}

TEST(Units, Refusals)
{
	for (const char *bad : {"a/b.service", "sshd", "x.timer"}) {
		Fake f;
		EXPECT_EQ(f.run({"enable", bad}), kUsage) << bad;
		std::string e = f.err.str();
		EXPECT_EQ(std::count(e.begin(), e.end(), '\n'), 2)
		    << "one line and the hint: " << e;
		Fake g;
		EXPECT_EQ(g.run({"disable", bad}), kUsage) << bad;
	}
	Fake f;
	EXPECT_EQ(f.run({"enable", "--unit-dir", "/nonexistent/units", "a.service"}), kFailed);
	EXPECT_NE(f.err.str().find("/nonexistent/units: no such directory"), std::string::npos);
	Fake g;
	EXPECT_EQ(g.run({"enable", "--policy", "nosuch", "a.service"}), kFailed);
	EXPECT_NE(g.err.str().find("no failure policy named 'nosuch'"), std::string::npos);
	Fake h;
	EXPECT_EQ(h.run({"enable", "--ports", "x", "a.service"}), kUsage);
}
