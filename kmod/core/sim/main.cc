// SPDX-License-Identifier: GPL-2.0
// mrc_sim: run seeded scenarios, replay one verbosely, or print a report.
//
//   mrc_sim --scenario blackhole --seeds 1-500      check many seeds
//   mrc_sim --scenario blackhole --seed 42 -v       replay one, verbosely
//   mrc_sim --report [--scenario X] [--seeds 1-50]  Markdown table
//   mrc_sim --list
#include "sim.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace mrcsim;

// --burst N: packets per burst instead of the kernel's (0: as the scenario)
static uint32_t burst_override;

static bool make_run(const std::string &name, uint64_t seed, Scenario &sc)
{
	if (!make_scenario(name, seed, sc))
		return false;
	if (burst_override)
		sc.burst = burst_override;
	return true;
}

static void usage()
{
	std::fprintf(stderr, "usage: mrc_sim [--scenario NAME|all] [--seed N | --seeds A-B] "
			     "[--burst N] [-v] [--report] [--list]\n");
	std::exit(2);
}

static int check(const std::vector<std::string> &names, uint64_t lo, uint64_t hi, bool verbose)
{
	uint64_t runs = 0, failed = 0;

	for (auto &n : names) {
		uint64_t worst_stall = 0, worst_seed = 0, worst_ttr = 0, ttr_seed = 0;
		uint64_t worst_a = 0, a_seed = 0;
		for (uint64_t seed = lo; seed <= hi; seed++) {
			Scenario sc;
			make_run(n, seed, sc);
			Result r = run(sc, seed, verbose);
			runs++;
			if (r.ttr_side_ns[0] > worst_a) {
				worst_a = r.ttr_side_ns[0];
				a_seed = seed;
			}
			if (r.ttr_max_ns > worst_ttr) {
				worst_ttr = r.ttr_max_ns;
				ttr_seed = seed;
			}
			if (r.stall_ns > worst_stall) {
				worst_stall = r.stall_ns;
				worst_seed = seed;
			}
			if (!r.ok) {
				failed++;
				std::printf(
				    "FAIL %s seed %llu: %s\n  replay: mrc_sim --scenario %s "
				    "--seed %llu -v\n",
				    n.c_str(), (unsigned long long)seed, r.why.c_str(), n.c_str(),
				    (unsigned long long)seed);
			}
		}
		Scenario sc;
		make_run(n, lo, sc);
		std::printf(
		    "%-12s seeds %llu-%llu: longest stall after fault %.1f us (seed %llu)%s\n",
		    n.c_str(), (unsigned long long)lo, (unsigned long long)hi, worst_stall / 1000.0,
		    (unsigned long long)worst_seed,
		    sc.stall_limit_ns ? (" limit " + std::to_string(sc.stall_limit_ns / 1000) +
					 " us (2 x rto_min)")
					    .c_str()
				      : "");
		std::printf(
		    "%-12s longest recovery (TTR) %.1f us (seed %llu), of A %.1f us (seed "
		    "%llu)%s\n",
		    n.c_str(), worst_ttr / 1000.0, (unsigned long long)ttr_seed, worst_a / 1000.0,
		    (unsigned long long)a_seed,
		    sc.ttr_limit_ns
			? (" limit " + std::to_string(sc.ttr_limit_ns / 1000) + " us").c_str()
			: "");
	}
	std::printf("%llu runs, %llu failed\n", (unsigned long long)runs,
		    (unsigned long long)failed);
	return failed ? 1 : 0;
}

static int report(const std::vector<std::string> &names, uint64_t lo, uint64_t hi)
{
	std::printf("| scenario | runs | ok | goodput (Gb/s, median) | longest stall after fault "
		    "(us, max) | TTR max (us) | TTR mean (us) | retransmits/run | spurious/run "
		    "|\n|---|---|---|---|---|---|---|---|---|\n");
	for (auto &n : names) {
		std::vector<double> gp;
		uint64_t ok = 0, stall = 0, ttr_max = 0, ttr_n = 0, ttr_tot = 0, rtx = 0, sp = 0;
		for (uint64_t seed = lo; seed <= hi; seed++) {
			Scenario sc;
			make_run(n, seed, sc);
			Result r = run(sc, seed, false);
			ok += r.ok;
			if (r.end_ns)
				gp.push_back(r.bytes * 8.0 / r.end_ns);
			stall = std::max(stall, r.stall_ns);
			ttr_max = std::max(ttr_max, r.ttr_max_ns);
			ttr_n += r.ttr_count;
			ttr_tot += r.ttr_total_ns;
			rtx += r.retransmits;
			sp += r.spurious;
		}
		std::sort(gp.begin(), gp.end());
		uint64_t runs = hi - lo + 1;
		std::printf("| %s | %llu | %llu | %.2f | %.1f | %.1f | %.1f | %.1f | %.1f |\n",
			    n.c_str(), (unsigned long long)runs, (unsigned long long)ok,
			    gp.empty() ? 0 : gp[gp.size() / 2], stall / 1000.0, ttr_max / 1000.0,
			    ttr_n ? ttr_tot / 1000.0 / ttr_n : 0.0, (double)rtx / runs,
			    (double)sp / runs);
	}
	return 0;
}

int main(int argc, char **argv)
{
	std::string scen = "all";
	uint64_t lo = 1, hi = 20;
	bool verbose = false, rep = false;

	for (int i = 1; i < argc; i++) {
		std::string a = argv[i];
		if (a == "--scenario" && i + 1 < argc) {
			scen = argv[++i];
		} else if (a == "--seed" && i + 1 < argc) {
			lo = hi = std::strtoull(argv[++i], nullptr, 0);
		} else if (a == "--seeds" && i + 1 < argc) {
			std::string s = argv[++i];
			size_t dash = s.find('-');
			if (dash == std::string::npos)
				usage();
			lo = std::strtoull(s.substr(0, dash).c_str(), nullptr, 0);
			hi = std::strtoull(s.substr(dash + 1).c_str(), nullptr, 0);
		} else if (a == "--burst" && i + 1 < argc) {
			burst_override = (uint32_t)std::strtoul(argv[++i], nullptr, 0);
		} else if (a == "-v") {
			verbose = true;
		} else if (a == "--report") {
			rep = true;
		} else if (a == "--list") {
			for (auto &n : scenario_names())
				std::printf("%s\n", n.c_str());
			return 0;
		} else {
			usage();
		}
	}
	std::vector<std::string> names;
	if (scen == "all") {
		names = scenario_names();
	} else {
		Scenario sc;
		if (!make_scenario(scen, lo, sc)) {
			std::fprintf(stderr, "mrc_sim: unknown scenario %s (--list)\n",
				     scen.c_str());
			return 2;
		}
		names.push_back(scen);
	}
	if (hi < lo)
		usage();
	return rep ? report(names, lo, hi) : check(names, lo, hi, verbose);
}
