// SPDX-License-Identifier: GPL-2.0
// mrcctl: command-line parsing and exit codes, without a kernel.
#include <sstream>

#include <gtest/gtest.h>

#include "cli.hpp"

namespace {

struct Run {
	int code;
	std::string out;
	std::string err;
};

// Run mrcctl with a netlink connection that reports the module missing.
Run run_without_module(std::vector<std::string> args)
{
	std::ostringstream out, err;
	mrcctl::Context ctx;
	ctx.out = &out;
	ctx.err = &err;
	ctx.connect = []() -> std::unique_ptr<mrc::Client> { throw mrc::ModuleNotLoaded(); };
	int code = mrcctl::run(args, ctx);
	return {code, out.str(), err.str()};
}

TEST(Cli, HelpListsSubcommandsAndExitCodes)
{
	auto r = run_without_module({"--help"});
	EXPECT_EQ(r.code, mrcctl::kOk);
	EXPECT_NE(r.out.find("info"), std::string::npos);
	EXPECT_NE(r.out.find("Exit status"), std::string::npos);
}

TEST(Cli, VersionNeedsNoModule)
{
	auto r = run_without_module({"--version"});
	EXPECT_EQ(r.code, mrcctl::kOk);
	EXPECT_EQ(r.out.rfind("mrcctl ", 0), 0u);
}

TEST(Cli, NoSubcommandIsAUsageError)
{
	auto r = run_without_module({});
	EXPECT_EQ(r.code, mrcctl::kUsage);
	EXPECT_NE(r.err.find("Try 'mrcctl --help'"), std::string::npos);
}

TEST(Cli, UnknownSubcommandIsAUsageError)
{
	auto r = run_without_module({"frobnicate"});
	EXPECT_EQ(r.code, mrcctl::kUsage);
	EXPECT_TRUE(r.out.empty());
}

TEST(Cli, UnknownOptionIsAUsageError)
{
	EXPECT_EQ(run_without_module({"info", "--bogus"}).code, mrcctl::kUsage);
}

TEST(Cli, MissingModuleGivesOneLineAndExit3)
{
	for (auto args : {std::vector<std::string>{"info"}, {"-j", "info"}}) {
		auto r = run_without_module(args);
		EXPECT_EQ(r.code, mrcctl::kNoModule);
		EXPECT_TRUE(r.out.empty());
		EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
		EXPECT_NE(r.err.find("not loaded"), std::string::npos);
	}
}

TEST(Cli, KernelErrorsExit1WithTheirText)
{
	std::ostringstream out, err;
	mrcctl::Context ctx;
	ctx.out = &out;
	ctx.err = &err;
	ctx.connect = []() -> std::unique_ptr<mrc::Client> {
		throw mrc::Error(EPERM, "info: Operation not permitted");
	};
	EXPECT_EQ(mrcctl::run({"info"}, ctx), mrcctl::kFailed);
	EXPECT_EQ(err.str(), "mrcctl: info: Operation not permitted\n");
}

} // namespace
