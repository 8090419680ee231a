// SPDX-License-Identifier: GPL-2.0
// EV set selection: per-plane shares (max-min fair), never a plane left
// out while there are slots for each, random subsets that differ by seed
// and cover every path, weights, deny, determinism.
//
// Statistical checks use bounds derived from the distribution (mean +-
// 6 standard deviations of a binomial count: a false failure has a
// probability below 1e-8 per check), and every seed is fixed, so a run
// is reproducible.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "mrc_evset.h"

namespace {

using Cands = std::vector<struct mrc_evset_cand>;

// @per_plane[p] paths on plane p, ids plane * 10000 + i, weight 1.
Cands Fabric(const std::vector<u32> &per_plane)
{
	Cands c;

	for (u32 p = 0; p < per_plane.size(); p++)
		for (u32 i = 0; i < per_plane[p]; i++)
			c.push_back({p * 10000 + i, p, 1, false});
	return c;
}

std::vector<u32> Select(const Cands &c, u32 slots, u64 seed)
{
	std::vector<u64> sel(slots + 1, ~0ULL);
	int n = mrc_evset_select(c.data(), c.size(), slots, seed, sel.data());
	std::vector<u32> out;

	EXPECT_GE(n, 0);
	EXPECT_EQ(sel[slots], ~0ULL) << "wrote beyond its slots";
	for (int i = 0; i < n; i++)
		out.push_back((u32)sel[i]);
	return out;
}

std::map<u32, u32> PerPlane(const Cands &c, const std::vector<u32> &sel)
{
	std::map<u32, u32> m;

	for (u32 i : sel)
		m[c[i].plane]++;
	return m;
}

// A binomial count of n trials at probability p is within 6 sigma.
void ExpectBinomial(u64 count, u64 n, double p, const char *what)
{
	double mean = n * p, sd = std::sqrt(n * p * (1 - p));

	EXPECT_NEAR((double)count, mean, 6 * sd + 1) << what;
}

} // namespace

TEST(EvSet, AllFitTakesEveryEligiblePathInOrder)
{
	Cands c = Fabric({2, 2, 2, 2});

	c[3].deny = true;
	c.push_back({999, 32, 1, false}); // no such plane
	std::vector<u32> sel = Select(c, 16, 1);
	EXPECT_EQ(sel, (std::vector<u32>{0, 1, 2, 4, 5, 6, 7}));
	EXPECT_EQ(Select(c, 7, 2), sel);
}

TEST(EvSet, ReferenceFabricFourSlotsOnePathPerPlane)
{
	Cands c = Fabric({2, 2, 2, 2});

	for (u64 seed = 0; seed < 1000; seed++) {
		std::vector<u32> sel = Select(c, 4, seed);
		ASSERT_EQ(sel.size(), 4u);
		for (u32 p = 0; p < 4; p++)
			EXPECT_EQ(c[sel[p]].plane, p) << "seed " << seed;
	}
}

TEST(EvSet, EqualSharePerPlane)
{
	Cands c = Fabric({8, 8, 8, 8});

	for (u32 slots = 1; slots < 32; slots++) {
		for (u64 seed = 0; seed < 50; seed++) {
			std::vector<u32> sel = Select(c, slots, seed * 7919);
			std::map<u32, u32> pp = PerPlane(c, sel);
			ASSERT_EQ(sel.size(), slots);
			u32 lo = ~0U, hi = 0;
			for (u32 p = 0; p < 4; p++) {
				lo = std::min(lo, pp[p]);
				hi = std::max(hi, pp[p]);
			}
			EXPECT_LE(hi - lo, 1u) << slots << " slots";
			if (slots >= 4) {
				EXPECT_GE(lo, 1u) << "a plane dropped";
			}
		}
	}
}

TEST(EvSet, UnevenPlanesGiveWhatTheyCannotUseToOthers)
{
	// 1, 3 and 10 paths, 8 slots: 1 + 3 + 4.
	Cands c = Fabric({1, 3, 10});
	std::map<u32, u32> pp = PerPlane(c, Select(c, 8, 5));
	EXPECT_EQ(pp[0], 1u);
	EXPECT_EQ(pp[1], 3u);
	EXPECT_EQ(pp[2], 4u);

	// 1, 5 and 5 paths, 8 slots: 1, then 7 over two planes: 4 + 3, the
	// extra slot to either plane with probability 1/2.
	c = Fabric({1, 5, 5});
	u64 n = 2000, extra1 = 0;
	for (u64 seed = 0; seed < n; seed++) {
		pp = PerPlane(c, Select(c, 8, seed));
		ASSERT_EQ(pp[0], 1u);
		ASSERT_EQ(pp[1] + pp[2], 7u);
		ASSERT_TRUE(pp[1] == 4 || pp[2] == 4);
		extra1 += pp[1] == 4;
	}
	ExpectBinomial(extra1, n, 0.5, "plane 1 gets the odd slot");
}

TEST(EvSet, FewerSlotsThanPlanesPickRandomPlanes)
{
	Cands c = Fabric({2, 2, 2, 2, 2, 2, 2, 2});
	u64 n = 4000;
	std::map<u32, u64> seen;

	for (u64 seed = 0; seed < n; seed++) {
		std::vector<u32> sel = Select(c, 3, seed);
		std::map<u32, u32> pp = PerPlane(c, sel);
		ASSERT_EQ(sel.size(), 3u);
		ASSERT_EQ(pp.size(), 3u) << "one path per plane";
		for (auto &kv : pp)
			seen[kv.first]++;
	}
	for (u32 p = 0; p < 8; p++)
		ExpectBinomial(seen[p], n, 3.0 / 8, "plane chosen");
}

TEST(EvSet, NeverDropsAPlaneWhileSlotsLast)
{
	// Random fabrics: 1..32 planes of 1..40 paths, some denied, slots
	// from the number of planes up.
	struct mrc_prng_state {
		u64 s;
		u32 below(u32 n)
		{
			s = s * 6364136223846793005ULL + 1442695040888963407ULL;
			return (u32)((s >> 33) % n);
		}
	} r{42};

	for (int iter = 0; iter < 2000; iter++) {
		u32 planes = 1 + r.below(32);
		Cands c;
		std::map<u32, u32> avail;
		for (u32 p = 0; p < planes; p++) {
			u32 k = 1 + r.below(40);
			for (u32 i = 0; i < k; i++) {
				bool deny = i > 0 && r.below(5) == 0;
				c.push_back({p * 1000 + i, p, (u8)(1 + r.below(255)), deny});
				avail[p] += !deny;
			}
		}
		u32 total = c.size();
		u32 eligible = 0;
		for (auto &kv : avail)
			eligible += kv.second;
		u32 slots = planes + r.below(total);
		std::vector<u32> sel = Select(c, slots, iter);
		ASSERT_EQ(sel.size(), std::min(slots, eligible));
		ASSERT_TRUE(std::is_sorted(sel.begin(), sel.end()));
		ASSERT_EQ(std::set<u32>(sel.begin(), sel.end()).size(), sel.size());
		std::map<u32, u32> pp = PerPlane(c, sel);
		// Max-min fair: every plane has min(avail, level) or level + 1.
		u32 level = ~0U;
		for (auto &kv : avail)
			if (pp[kv.first] < kv.second)
				level = std::min(level, pp[kv.first]);
		for (auto &kv : avail) {
			ASSERT_GE(pp[kv.first], 1u) << "plane " << kv.first << " dropped";
			if (level != ~0U) {
				ASSERT_GE(pp[kv.first], std::min(kv.second, level));
				ASSERT_LE(pp[kv.first], level + 1);
			}
		}
		for (u32 i : sel)
			ASSERT_FALSE(c[i].deny);
	}
}

TEST(EvSet, SubsetsDifferBySeedAndCoverEveryPath)
{
	// 4 planes x 8 spines, 4 slots: one path of 8 per plane. A given path
	// is missed by all n seeds with probability (7/8)^n (< 1e-23 for
	// n = 400), and each is chosen Binomial(n, 1/8) times.
	Cands c = Fabric({8, 8, 8, 8});
	u64 n = 400;
	std::map<u32, u64> chosen;
	std::set<std::vector<u32>> subsets;

	for (u64 seed = 0; seed < n; seed++) {
		std::vector<u32> sel = Select(c, 4, 0x1234567ULL * seed + 99);
		subsets.insert(sel);
		for (u32 i : sel)
			chosen[c[i].path_id]++;
	}
	for (auto &p : c) {
		EXPECT_GT(chosen[p.path_id], 0u) << "path " << p.path_id;
		ExpectBinomial(chosen[p.path_id], n, 1.0 / 8, "path chosen");
	}
	// 8^4 = 4096 subsets: n draws give many distinct ones (birthday
	// bound: expected repeats about n^2 / (2 * 4096) ~ 20).
	EXPECT_GT(subsets.size(), n - 60);
}

TEST(EvSet, WeightIsTheChanceOfBeingChosen)
{
	// One slot for a plane of weights 3 and 1: 3/4 and 1/4.
	Cands c = {{1, 0, 3, false}, {2, 0, 1, false}};
	u64 n = 4000, heavy = 0;

	for (u64 seed = 0; seed < n; seed++)
		heavy += Select(c, 1, seed)[0] == 0;
	ExpectBinomial(heavy, n, 0.75, "weight 3 against 1");

	// Two slots of four paths weighted 1, 1, 1, 5: successive sampling
	// takes the heavy one first (5/8) or second (3/8 * 5/7).
	c = {{1, 0, 1, false}, {2, 0, 1, false}, {3, 0, 1, false}, {4, 0, 5, false}};
	heavy = 0;
	for (u64 seed = 0; seed < n; seed++) {
		std::vector<u32> sel = Select(c, 2, seed);
		heavy += std::count(sel.begin(), sel.end(), 3u);
	}
	ExpectBinomial(heavy, n, 5.0 / 8 + 3.0 / 8 * 5.0 / 7, "weight 5 of 8");

	// Equal weights of any value are uniform.
	c = Fabric({6});
	for (auto &p : c)
		p.weight = 200;
	std::map<u32, u64> chosen;
	for (u64 seed = 0; seed < n; seed++)
		for (u32 i : Select(c, 2, seed))
			chosen[i]++;
	for (u32 i = 0; i < 6; i++)
		ExpectBinomial(chosen[i], n, 2.0 / 6, "equal weights");
}

TEST(EvSet, WeightZeroOnlyWhenThePlaneHasNothingElse)
{
	Cands c = {{1, 0, 0, false}, {2, 0, 1, false}, {3, 0, 1, false},
		   {4, 1, 0, false}, {5, 1, 0, false}, {6, 1, 1, false}};
	std::set<u32> zero_seen;

	for (u64 seed = 0; seed < 200; seed++) {
		std::vector<u32> sel = Select(c, 4, seed);
		std::map<u32, u32> pp = PerPlane(c, sel);
		ASSERT_EQ(pp[0], 2u);
		ASSERT_EQ(pp[1], 2u);
		// Plane 0 has two paths of weight 1: its zero is never taken.
		ASSERT_EQ(std::count(sel.begin(), sel.end(), 0u), 0);
		// Plane 1 has one: it is always taken, plus one zero.
		ASSERT_EQ(std::count(sel.begin(), sel.end(), 5u), 1);
		for (u32 i : sel)
			if (c[i].plane == 1 && i != 5)
				zero_seen.insert(i);
	}
	EXPECT_EQ(zero_seen, (std::set<u32>{3, 4})) << "the zeros draw at random";
}

TEST(EvSet, DeniedPathsAreNoPaths)
{
	// Plane 1 is all denied: its share goes to the others.
	Cands c = Fabric({4, 4, 4});
	for (auto &p : c)
		if (p.plane == 1 || p.path_id == 0)
			p.deny = true;
	for (u64 seed = 0; seed < 100; seed++) {
		std::vector<u32> sel = Select(c, 6, seed);
		std::map<u32, u32> pp = PerPlane(c, sel);
		ASSERT_EQ(sel.size(), 6u);
		EXPECT_EQ(pp[1], 0u);
		EXPECT_EQ(pp[0], 3u);
		EXPECT_EQ(pp[2], 3u);
		for (u32 i : sel)
			EXPECT_FALSE(c[i].deny);
	}
}

TEST(EvSet, DeterministicAndIndependentOfListOrder)
{
	Cands c = Fabric({7, 9, 5, 12});
	std::vector<u32> a = Select(c, 10, 0xabcdef);

	EXPECT_EQ(Select(c, 10, 0xabcdef), a);
	EXPECT_NE(Select(c, 10, 0xabcdee), a); // 7*9*5*12-ish subsets

	// A path's draw comes from its id: reversed, the same paths win.
	Cands rev(c.rbegin(), c.rend());
	std::vector<u32> b = Select(rev, 10, 0xabcdef);
	std::set<u32> ida, idb;
	for (u32 i : a)
		ida.insert(c[i].path_id);
	for (u32 i : b)
		idb.insert(rev[i].path_id);
	EXPECT_EQ(ida, idb);
}

TEST(EvSet, EdgeCases)
{
	Cands c = Fabric({3, 3});

	EXPECT_EQ(mrc_evset_select(c.data(), c.size(), 0, 1, nullptr), 0);
	EXPECT_EQ(mrc_evset_select(nullptr, 0, 4, 1, nullptr), 0);
	EXPECT_EQ(mrc_evset_select(c.data(), MRC_EVSET_CANDS_MAX + 1, 4, 1, nullptr), -EINVAL);
	// One slot, two planes: one path of a random plane.
	std::set<u32> planes;
	for (u64 seed = 0; seed < 64; seed++) {
		std::vector<u32> sel = Select(c, 1, seed);
		ASSERT_EQ(sel.size(), 1u);
		planes.insert(c[sel[0]].plane);
	}
	EXPECT_EQ(planes.size(), 2u); // 2^-63 to see one plane only
}

TEST(EvSet, ANamespaceFullOfPaths)
{
	// MRC_PATHS_MAX (4096) paths over 8 planes, the largest EV set.
	Cands c = Fabric({512, 512, 512, 512, 512, 512, 512, 512});
	std::vector<u32> sel = Select(c, 1024, 7);
	std::map<u32, u32> pp = PerPlane(c, sel);

	ASSERT_EQ(sel.size(), 1024u);
	for (u32 p = 0; p < 8; p++)
		EXPECT_EQ(pp[p], 128u);
	EXPECT_TRUE(std::is_sorted(sel.begin(), sel.end()));
}
