// SPDX-License-Identifier: GPL-2.0
// Path (EV) table: building the set, the scheduler, every transition of
// the state machine with its reason, replacement, floor, planes, probes.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "mrc_path.h"
extern "C" {
#include "mrc_wire.h"
}

namespace {

constexpr u64 kMs = MRC_NSEC_PER_MSEC;

struct Event {
	u32 index;
	u8 old_state;
	u8 new_state;
	u8 reason;
	u32 drops;
};

void Record(void *ctx, const struct mrc_path_event *ev)
{
	auto *v = static_cast<std::vector<Event> *>(ctx);

	v->push_back({ev->index, ev->old_state, ev->new_state, ev->reason, ev->drops});
}

// cfg_id = plane * 1000 + j.
std::vector<struct mrc_path_cand> Cands(u32 planes, u32 per_plane, u32 ev_count = 1)
{
	std::vector<struct mrc_path_cand> c;

	for (u32 p = 0; p < planes; p++)
		for (u32 j = 0; j < per_plane; j++)
			c.push_back({p * 1000 + j, ev_count, (u8)p});
	return c;
}

class PathTable : public ::testing::Test {
protected:
	void SetUp() override
	{
		mrc_policy_default(&pol);
		pol.max_paths = 32;
		pol.backups = 2;
		pol.min_active = 1;
		pol.fail_to_bad = 2;
		pol.success_to_good = 3;
		Build(4, 10);
	}

	// planes x per_plane candidates; 32 paths: 6 GOOD + 2 BACKUP / plane.
	void Build(u32 planes, u32 per_plane, u32 ev_count = 1, u64 seed = 42)
	{
		struct mrc_path_notify n = {Record, &events};
		struct mrc_prng rng;

		paths.assign(pol.max_paths, {});
		order.assign(pol.max_paths, 0);
		ASSERT_EQ(
		    mrc_path_table_init(&t, paths.data(), order.data(), pol.max_paths, &pol, &n),
		    0);
		cands = Cands(planes, per_plane, ev_count);
		mrc_prng_seed(&rng, seed);
		built = mrc_path_build(&t, cands.data(), cands.size(), &rng, now);
		events.clear();
	}

	u32 State(u32 i) { return t.paths[i].state; }

	// Indices of paths of @plane in @state.
	std::vector<u32> InState(u32 state, int plane = -1)
	{
		std::vector<u32> v;

		for (u32 i = 0; i < t.count; i++)
			if (t.paths[i].state == state && (plane < 0 || t.paths[i].plane == plane))
				v.push_back(i);
		return v;
	}

	u32 Count(u32 state, int plane = -1) { return InState(state, plane).size(); }

	bool Saw(u32 idx, u8 from, u8 to, u8 reason)
	{
		for (auto &e : events)
			if (e.index == idx && e.old_state == from && e.new_state == to &&
			    e.reason == reason)
				return true;
		return false;
	}

	bool SawReason(u8 reason)
	{
		for (auto &e : events)
			if (e.reason == reason)
				return true;
		return false;
	}

	// Take the path down with losses; returns after it is ASSUMED_BAD.
	void Fail(u32 idx)
	{
		for (u32 i = 0; i < pol.fail_to_bad; i++)
			mrc_path_on_loss(&t, idx, now);
		ASSERT_EQ(State(idx), (u32)MRC_PATH_ASSUMED_BAD);
	}

	// Probe everything due now; whether @idx was among the probed.
	bool ProbedNow(u32 idx)
	{
		u16 out[256];
		mrc_time_t next;
		u32 n = mrc_path_probe_poll(&t, now, out, 256, &next);

		for (u32 k = 0; k < n; k++)
			if (out[k] == idx)
				return true;
		return false;
	}

	// Probe everything due; answer the probes of @answer with @mark.
	void ProbeRound(const std::set<u32> &answer, u32 mark = MRC_PATH_MARK_NONE)
	{
		u16 out[256];
		mrc_time_t next;
		u32 n = mrc_path_probe_poll(&t, now, out, 256, &next);

		for (u32 i = 0; i < n; i++)
			if (answer.count(out[i]))
				mrc_path_probe_answered(&t, out[i], now, mark, false);
	}

	struct mrc_policy pol;
	struct mrc_path_table t;
	std::vector<struct mrc_path> paths;
	std::vector<u16> order;
	std::vector<struct mrc_path_cand> cands;
	std::vector<Event> events;
	int built = 0;
	mrc_time_t now = 1000 * kMs;
};

} // namespace

/* ---- PRNG --------------------------------------------------------- */

TEST(Prng, DeterministicAndBounded)
{
	struct mrc_prng a, b;

	mrc_prng_seed(&a, 7);
	mrc_prng_seed(&b, 7);
	for (int i = 0; i < 100; i++)
		EXPECT_EQ(mrc_prng_next(&a), mrc_prng_next(&b));
	std::vector<int> hist(10);

	for (int i = 0; i < 100000; i++) {
		u32 v = mrc_prng_below(&a, 10);

		ASSERT_LT(v, 10U);
		hist[v]++;
	}
	for (int h : hist) {
		EXPECT_GT(h, 9000);
		EXPECT_LT(h, 11000);
	}
	EXPECT_EQ(mrc_prng_below(&a, 1), 0U);
}

/* ---- building the set --------------------------------------------- */

TEST_F(PathTable, InitRejectsBadCapacity)
{
	struct mrc_path_table x;

	EXPECT_EQ(mrc_path_table_init(&x, paths.data(), order.data(), 0, &pol, nullptr), -EINVAL);
	EXPECT_EQ(mrc_path_table_init(&x, paths.data(), order.data(), MRC_PATH_MAX_ENTRIES + 1,
				      &pol, nullptr),
		  -EINVAL);
}

TEST_F(PathTable, EqualSharePerPlaneWithBackups)
{
	ASSERT_EQ(built, 32);
	for (int p = 0; p < 4; p++) {
		EXPECT_EQ(Count(MRC_PATH_GOOD, p), 6U) << p;
		EXPECT_EQ(Count(MRC_PATH_BACKUP, p), 2U) << p;
		EXPECT_EQ(t.target[p], 6U);
		std::set<u32> cfgs;

		for (u32 i = 0; i < t.count; i++)
			if (t.paths[i].plane == p) {
				cfgs.insert(t.paths[i].cfg_id);
				EXPECT_EQ(t.paths[i].cfg_id / 1000, (u32)p);
			}
		EXPECT_EQ(cfgs.size(), 8U) << "one EV per SRv6 path";
	}
	EXPECT_TRUE(events.empty());
	u32 counts[__MRC_PATH_STATE_MAX];

	mrc_path_count_states(&t, counts);
	EXPECT_EQ(counts[MRC_PATH_GOOD], 24U);
	EXPECT_EQ(counts[MRC_PATH_BACKUP], 8U);
	EXPECT_EQ(counts[MRC_PATH_SKIP] + counts[MRC_PATH_ASSUMED_BAD] + counts[MRC_PATH_DENIED],
		  0U);
	EXPECT_EQ(mrc_path_active(&t), 24U);
}

TEST_F(PathTable, EvsUniqueAndLookedUp)
{
	std::set<u32> evs, entropy;

	for (u32 i = 0; i < t.count; i++) {
		u32 ev = t.paths[i].ev;

		evs.insert(ev);
		entropy.insert(mrc_ev_sport(ev));
		EXPECT_NE(ev, 0U);
		EXPECT_EQ(mrc_path_lookup_ev(&t, ev), (int)i);
	}
	EXPECT_EQ(evs.size(), t.count);
	EXPECT_EQ(entropy.size(), t.count) << "distinct UDP source ports (ECMP)";
	EXPECT_EQ(mrc_path_lookup_ev(&t, 0), -ENOENT);
	EXPECT_EQ(mrc_path_lookup_ev(&t, t.paths[0].ev ^ 1), -ENOENT);
	EXPECT_EQ(mrc_path_lookup_ev(&t, t.count + 1), -ENOENT);
}

TEST_F(PathTable, FewerCandidatesThanShare)
{
	// Plane 0 offers 2 paths; the others 10 (share 8).
	std::vector<struct mrc_path_cand> c = Cands(4, 10);
	struct mrc_prng rng;

	c.erase(std::remove_if(c.begin(), c.end(),
			       [](auto &x) { return x.plane == 0 && x.cfg_id % 1000 >= 2; }),
		c.end());
	mrc_prng_seed(&rng, 1);
	ASSERT_EQ(mrc_path_build(&t, c.data(), c.size(), &rng, now), 26);
	// Backups are EVs beyond the active share (8 - 2): plane 0 has none
	// to spare and uses both of its paths.
	EXPECT_EQ(Count(MRC_PATH_GOOD, 0), 2U);
	EXPECT_EQ(Count(MRC_PATH_BACKUP, 0), 0U);
	EXPECT_EQ(Count(MRC_PATH_GOOD, 1), 6U);
	EXPECT_EQ(Count(MRC_PATH_BACKUP, 1), 2U);
}

// The default policy (backups 2, max_paths 64) on a small fabric, 4
// planes of 2 paths, uses every path: idling half of the fabric as
// backups would halve its capacity. A plane with one more path than its
// active share keeps one backup; never the whole plane. Fails if backups
// are taken from a plane that has no EV to spare.
TEST_F(PathTable, SmallFabricUsesEveryPath)
{
	struct mrc_prng rng;
	std::vector<struct mrc_path_cand> c = Cands(4, 2);

	mrc_prng_seed(&rng, 1);
	ASSERT_EQ(mrc_path_build(&t, c.data(), c.size(), &rng, now), 8);
	for (u32 plane = 0; plane < 4; plane++) {
		EXPECT_EQ(Count(MRC_PATH_GOOD, plane), 2U) << "plane " << plane;
		EXPECT_EQ(Count(MRC_PATH_BACKUP, plane), 0U) << "plane " << plane;
	}
	pol.max_paths = 12; // share 3, active share 1
	mrc_path_set_policy(&t, &pol);
	c = Cands(4, 4);
	ASSERT_EQ(mrc_path_build(&t, c.data(), c.size(), &rng, now), 12);
	for (u32 plane = 0; plane < 4; plane++) {
		EXPECT_EQ(Count(MRC_PATH_GOOD, plane), 1U) << "plane " << plane;
		EXPECT_EQ(Count(MRC_PATH_BACKUP, plane), 2U) << "plane " << plane;
	}
}

TEST_F(PathTable, EntropyCandidatesFillShare)
{
	Build(2, 1, 100000);
	EXPECT_EQ(built, 32);
	EXPECT_EQ(Count(MRC_PATH_GOOD, 0), 14U);
	EXPECT_EQ(Count(MRC_PATH_BACKUP, 1), 2U);
}

TEST_F(PathTable, NothingToBuildFrom)
{
	struct mrc_path_cand c[2] = {{1, 0, 0}, {2, 5, 40}};
	struct mrc_prng rng;

	mrc_prng_seed(&rng, 1);
	EXPECT_EQ(mrc_path_build(&t, c, 2, &rng, now), -ENETUNREACH);
	EXPECT_EQ(mrc_path_build(&t, c, 0, &rng, now), -ENETUNREACH);
	EXPECT_EQ(mrc_path_pick(&t, now, -1), -ENOENT);
}

TEST_F(PathTable, MorePlanesThanPaths)
{
	pol.max_paths = 3;
	pol.backups = 0;
	Build(5, 2);
	EXPECT_EQ(built, 3) << "one each for the first planes, then full";
}

TEST_F(PathTable, DeterministicGivenSeed)
{
	std::vector<u32> a, b, c;

	for (u32 i = 0; i < t.count; i++)
		a.push_back(t.paths[i].ev ^ t.paths[i].cfg_id);
	Build(4, 10, 1, 42);
	for (u32 i = 0; i < t.count; i++)
		b.push_back(t.paths[i].ev ^ t.paths[i].cfg_id);
	Build(4, 10, 1, 43);
	for (u32 i = 0; i < t.count; i++)
		c.push_back(t.paths[i].ev ^ t.paths[i].cfg_id);
	EXPECT_EQ(a, b);
	EXPECT_NE(a, c);
}

TEST_F(PathTable, SamplingIsUniformAmongCandidates)
{
	// Share 4 of 10 candidates per plane: each chosen ~40% of the time.
	std::map<u32, int> hits;

	pol.max_paths = 8;
	pol.backups = 0;
	for (u64 seed = 0; seed < 2000; seed++) {
		Build(2, 10, 1, seed);
		for (u32 i = 0; i < t.count; i++)
			hits[t.paths[i].cfg_id]++;
	}
	EXPECT_EQ(hits.size(), 20U);
	for (auto &h : hits) {
		EXPECT_GT(h.second, 700) << h.first;
		EXPECT_LT(h.second, 900) << h.first;
	}
}

/* ---- scheduler ---------------------------------------------------- */

TEST_F(PathTable, RotationUsesEachGoodPathOnce)
{
	for (int r = 0; r < 20; r++) {
		std::map<int, int> seen;

		for (u32 n = 0; n < 24; n++) {
			int idx = mrc_path_pick(&t, now, -1);

			ASSERT_GE(idx, 0);
			EXPECT_EQ(State(idx), (u32)MRC_PATH_GOOD);
			seen[idx]++;
		}
		EXPECT_EQ(seen.size(), 24U) << "rotation " << r;
	}
}

TEST_F(PathTable, SpreadsEvenlyAndReshuffles)
{
	std::map<int, int> total;
	std::vector<int> first, later;

	for (int r = 0; r < 100; r++) {
		for (u32 n = 0; n < 24; n++) {
			int idx = mrc_path_pick(&t, now, -1);

			total[idx]++;
			if (r == 0)
				first.push_back(idx);
			if (r == MRC_PATH_RESHUFFLE)
				later.push_back(idx);
		}
	}
	for (auto &x : total)
		EXPECT_EQ(x.second, 100);
	EXPECT_NE(first, later) << "order reshuffled";
}

TEST_F(PathTable, NeverPicksExcludedWhileAlternativesExist)
{
	for (int n = 0; n < 500; n++) {
		int idx = mrc_path_pick(&t, now, 5);

		ASSERT_GE(idx, 0);
		EXPECT_NE(idx, 5);
	}
}

TEST_F(PathTable, NeverPicksFailedBackupDeniedOrSkip)
{
	std::vector<u32> good = InState(MRC_PATH_GOOD);

	Fail(good[0]);
	mrc_path_set_denied(&t, good[1], true, now);
	mrc_path_on_sack(&t, good[2], now, MRC_PATH_MARK_SKIP_ONCE);
	for (int n = 0; n < 500; n++) {
		int idx = mrc_path_pick(&t, now, -1);

		ASSERT_GE(idx, 0);
		EXPECT_EQ(State(idx), (u32)MRC_PATH_GOOD);
		EXPECT_NE(idx, (int)good[2]);
	}
}

TEST_F(PathTable, FallbacksSkipThenExcludedThenNothing)
{
	pol.max_paths = 2;
	pol.backups = 0;
	Build(1, 2);
	ASSERT_EQ(built, 2);
	// Only path 1 GOOD, path 0 SKIP: excluded 1 -> SKIP path 0.
	mrc_path_on_trim(&t, 0, now, false);
	EXPECT_EQ(mrc_path_pick(&t, now, 1), 0);
	EXPECT_EQ(mrc_path_pick(&t, now, -1), 1);
	// Both SKIP: still sends (ECN is for CC, not a stall).
	mrc_path_on_trim(&t, 1, now, false);
	int idx = mrc_path_pick(&t, now, -1);

	EXPECT_TRUE(idx == 0 || idx == 1);
	// Path 0 down for good: excluded path 1 is the only one.
	mrc_path_set_denied(&t, 0, true, now);
	EXPECT_EQ(mrc_path_pick(&t, now, 1), 1);
	mrc_path_set_denied(&t, 1, true, now);
	EXPECT_EQ(mrc_path_pick(&t, now, -1), -ENOENT);
}

/* ---- SKIP ----------------------------------------------------------- */

// A probe waits in the same queues as data: an answer that says CE is a
// mark like a SACK's (counted, the path in use skipped), stale or not.
TEST_F(PathTable, EcnMarkedProbeAnswerCountsAndSkips)
{
	u32 i = InState(MRC_PATH_GOOD)[0];

	t.paths[i].flags |= MRC_PATHF_PROBE_OUT;
	mrc_path_probe_answered(&t, i, now, MRC_PATH_MARK_SKIP_ONCE, false);
	EXPECT_EQ(State(i), (u32)MRC_PATH_SKIP);
	EXPECT_TRUE(Saw(i, MRC_PATH_GOOD, MRC_PATH_SKIP, MRC_PR_ECN));
	EXPECT_EQ(t.paths[i].stats.ecn_marks, 1U);
	t.paths[i].flags |= MRC_PATHF_PROBE_OUT;
	mrc_path_probe_answered(&t, i, now, MRC_PATH_MARK_SKIP_ONCE, true);
	EXPECT_EQ(t.paths[i].stats.ecn_marks, 2U) << "a stale answer's mark";
	EXPECT_EQ(t.ecn_marks, 2U);
}

TEST_F(PathTable, EcnMarkSkipsThenExpires)
{
	u32 i = InState(MRC_PATH_GOOD)[0];

	mrc_path_on_sack(&t, i, now, MRC_PATH_MARK_SKIP_ONCE);
	EXPECT_EQ(State(i), (u32)MRC_PATH_SKIP);
	EXPECT_TRUE(Saw(i, MRC_PATH_GOOD, MRC_PATH_SKIP, MRC_PR_ECN));
	EXPECT_EQ(t.paths[i].stats.ecn_marks, 1U);
	EXPECT_EQ(t.ecn_marks, 1U);
	EXPECT_EQ(mrc_path_active(&t), 24U) << "SKIP still counts as active";
	// A second mark extends the skip.
	now += pol.skip_ns / 2;
	mrc_path_on_sack(&t, i, now, MRC_PATH_MARK_SKIP_ONCE);
	now += pol.skip_ns / 2 + 1;
	mrc_path_tick(&t, now);
	EXPECT_EQ(State(i), (u32)MRC_PATH_SKIP);
	now += pol.skip_ns / 2;
	mrc_path_tick(&t, now);
	EXPECT_EQ(State(i), (u32)MRC_PATH_GOOD);
	EXPECT_TRUE(Saw(i, MRC_PATH_SKIP, MRC_PATH_GOOD, MRC_PR_SKIP_EXPIRED));
}

TEST_F(PathTable, SkipExpiresLazilyInPick)
{
	u32 i = InState(MRC_PATH_GOOD)[0];

	mrc_path_on_sack(&t, i, now, MRC_PATH_MARK_SKIP_ONCE);
	now += pol.skip_ns;
	bool picked = false;

	for (int n = 0; n < 24; n++)
		picked |= mrc_path_pick(&t, now, -1) == (int)i;
	EXPECT_TRUE(picked);
	EXPECT_TRUE(Saw(i, MRC_PATH_SKIP, MRC_PATH_GOOD, MRC_PR_SKIP_EXPIRED));
}

TEST_F(PathTable, EcnResponseOff)
{
	pol.ecn_response = false;
	mrc_path_set_policy(&t, &pol);
	u32 i = InState(MRC_PATH_GOOD)[0];

	mrc_path_on_sack(&t, i, now, MRC_PATH_MARK_SKIP_ONCE);
	EXPECT_EQ(State(i), (u32)MRC_PATH_GOOD);
	EXPECT_EQ(t.paths[i].stats.ecn_marks, 1U);
}

TEST_F(PathTable, TrimSkipsLastHopTrimDoesNot)
{
	u32 i = InState(MRC_PATH_GOOD)[0];
	u32 j = InState(MRC_PATH_GOOD)[1];

	mrc_path_on_trim(&t, j, now, true);
	EXPECT_EQ(State(j), (u32)MRC_PATH_GOOD);
	EXPECT_EQ(t.paths[j].stats.trims, 1U);
	mrc_path_on_trim(&t, i, now, false);
	EXPECT_EQ(State(i), (u32)MRC_PATH_SKIP);
	EXPECT_TRUE(Saw(i, MRC_PATH_GOOD, MRC_PATH_SKIP, MRC_PR_TRIMMED));
	mrc_time_t until = t.paths[i].skip_until;

	mrc_path_on_trim(&t, i, now + 10, false);
	EXPECT_EQ(t.paths[i].skip_until, until + 10) << "extended";
	EXPECT_EQ(events.size(), 1U);
}

/* ---- failing ----------------------------------------------------- */

TEST_F(PathTable, AlwaysSkipFailsAtOnceAndIsReplacedFromSamePlane)
{
	u32 i = InState(MRC_PATH_GOOD, 2)[0];

	mrc_path_on_sack(&t, i, now, MRC_PATH_MARK_ALWAYS_SKIP);
	EXPECT_EQ(State(i), (u32)MRC_PATH_ASSUMED_BAD);
	EXPECT_TRUE(Saw(i, MRC_PATH_GOOD, MRC_PATH_ASSUMED_BAD, MRC_PR_ALWAYS_SKIP));
	ASSERT_EQ(events.size(), 2U);
	Event r = events[1];

	EXPECT_EQ(r.reason, MRC_PR_REPLACED);
	EXPECT_EQ(r.old_state, MRC_PATH_BACKUP);
	EXPECT_EQ(r.new_state, MRC_PATH_GOOD);
	EXPECT_EQ(t.paths[r.index].plane, 2);
	EXPECT_EQ(Count(MRC_PATH_GOOD, 2), 6U);
	EXPECT_EQ(Count(MRC_PATH_BACKUP, 2), 1U);
	for (int p : {0, 1, 3})
		EXPECT_EQ(Count(MRC_PATH_BACKUP, p), 2U);
}

TEST_F(PathTable, LossesNeedConsecutiveFailures)
{
	u32 i = InState(MRC_PATH_GOOD)[0];

	mrc_path_on_loss(&t, i, now);
	EXPECT_EQ(State(i), (u32)MRC_PATH_GOOD) << "one loss is not a fault";
	mrc_path_on_sack(&t, i, now, MRC_PATH_MARK_NONE); // delivered
	EXPECT_EQ(t.paths[i].fails, 0U);
	mrc_path_on_loss(&t, i, now);
	EXPECT_EQ(State(i), (u32)MRC_PATH_GOOD);
	mrc_path_on_loss(&t, i, now);
	EXPECT_EQ(State(i), (u32)MRC_PATH_ASSUMED_BAD);
	EXPECT_EQ(t.paths[i].stats.losses, 3U);
	ASSERT_FALSE(events.empty());
	EXPECT_EQ(events[0].reason, MRC_PR_LOSS);
	EXPECT_EQ(events[0].drops, 3U) << "drops since last GOOD";
}

TEST_F(PathTable, SkipPathCanFailToo)
{
	u32 i = InState(MRC_PATH_GOOD)[0];

	mrc_path_on_trim(&t, i, now, false);
	Fail(i);
	EXPECT_TRUE(Saw(i, MRC_PATH_SKIP, MRC_PATH_ASSUMED_BAD, MRC_PR_LOSS));
}

TEST_F(PathTable, TimeoutInSilenceFailsAtOnce)
{
	u32 i = InState(MRC_PATH_GOOD)[0];
	u32 j = InState(MRC_PATH_GOOD)[1];

	// j delivered a later packet: this one was lost, one failure only.
	mrc_path_on_timeout(&t, j, now + 10 * kMs, MRC_LOSS_PATH_WORKS);
	EXPECT_EQ(State(j), (u32)MRC_PATH_GOOD);
	mrc_path_on_timeout(&t, j, now + 20 * kMs, MRC_LOSS_PATH_WORKS);
	EXPECT_EQ(State(j), (u32)MRC_PATH_ASSUMED_BAD) << "second failure";
	// i: silent while later packets arrived on other paths.
	mrc_path_on_timeout(&t, i, now + 10 * kMs, MRC_LOSS_PATH_SILENT);
	EXPECT_EQ(State(i), (u32)MRC_PATH_ASSUMED_BAD);
	EXPECT_TRUE(Saw(i, MRC_PATH_GOOD, MRC_PATH_ASSUMED_BAD, MRC_PR_TIMEOUT));
	EXPECT_EQ(t.paths[i].stats.timeouts, 1U);
}

// Suspect paths (path-state-machine.md, "Suspect paths"): a timeout in
// the path's silence makes it suspect, with no event; the scheduler gives
// it no new packet while another path is GOOD; a word from it before two
// RTOs from the packet's departure keeps it in use (PathSuspectCleared),
// silence till then takes it out with reason TIMEOUT. Fails if a late
// path is taken out at once (the old behaviour), if a suspect path keeps
// getting packets, or if a silent one is never taken out.
TEST_F(PathTable, SuspectPathHeardInTimeStaysInUse)
{
	const u64 rto = 2 * kMs;
	u32 i = InState(MRC_PATH_GOOD)[0];
	mrc_time_t sent = now, at;

	t.suspect_ns = rto;
	at = mrc_path_suspect(&t, i, sent + rto, sent, true);
	EXPECT_EQ(at, sent + 2 * rto) << "two RTOs from the departure";
	EXPECT_EQ(State(i), (u32)MRC_PATH_GOOD);
	EXPECT_TRUE(events.empty()) << "no event for a suspicion";
	EXPECT_EQ(mrc_path_next_verdict(&t), at);
	EXPECT_EQ(t.suspects, 1U);
	EXPECT_EQ(t.paths[i].stats.timeouts, 1U);
	for (u32 n = 0; n < 4 * t.count; n++)
		EXPECT_NE(mrc_path_pick(&t, sent + rto, -1), (int)i)
		    << "a suspect path carries nothing new";
	for (u32 n = 0; n < 2 * t.count; n++)
		EXPECT_NE(mrc_path_pick_rtx(&t, sent + rto, -1), (int)i);
	// More of the same silence: the verdict does not move.
	EXPECT_EQ(mrc_path_suspect(&t, i, sent + rto + 1, sent + 1, true), at);
	// A late packet's SACK, just before the verdict.
	mrc_path_on_sack(&t, i, at - 1, MRC_PATH_MARK_NONE);
	EXPECT_EQ(t.suspects_cleared, 1U);
	EXPECT_EQ(mrc_path_next_verdict(&t), 0U);
	mrc_path_tick(&t, at + 10 * kMs);
	EXPECT_EQ(State(i), (u32)MRC_PATH_GOOD);
	EXPECT_TRUE(events.empty());
	bool picked = false;
	for (u32 n = 0; n < 2 * t.count && !picked; n++)
		picked = mrc_path_pick(&t, at, -1) == (int)i;
	EXPECT_TRUE(picked) << "heard from: in the rotation again";
}

// A SACK of ours proven lost (the peer resent what it covered): the path
// it took is passed over by every pick while a trusted path is left, its
// reverse probe is due at once, and any word from it clears it; no state
// change, no event. A path heard from since that SACK left is not blamed.
TEST_F(PathTable, LostSackMakesItsPathReverseSuspect)
{
	u32 i = InState(MRC_PATH_GOOD)[0];
	mrc_time_t sent = now;

	now += 20 * kMs;
	EXPECT_EQ(mrc_path_on_ctrl_lost(&t, i, sent, now), now) << "probe due now";
	EXPECT_TRUE(t.paths[i].flags & MRC_PATHF_REV_SUSPECT);
	EXPECT_EQ(t.rev_suspects, 1U);
	EXPECT_EQ(State(i), (u32)MRC_PATH_GOOD);
	EXPECT_TRUE(events.empty()) << "no event for a suspicion";
	for (u32 n = 0; n < 4 * t.count; n++)
		EXPECT_NE(mrc_path_pick(&t, now, -1), (int)i) << "our next SACKs avoid it";
	for (u32 n = 0; n < 2 * t.count; n++)
		EXPECT_NE(mrc_path_pick_rtx(&t, now, -1), (int)i);
	// the freshest path, unless suspect
	mrc_path_on_sack(&t, InState(MRC_PATH_GOOD)[1], now - 2, MRC_PATH_MARK_NONE);
	t.paths[i].last_heard = now - 1;
	EXPECT_EQ(mrc_path_pick_heard(&t), (int)InState(MRC_PATH_GOOD)[1]);
	t.paths[i].last_heard = 0;
	// its reverse probe goes at once, not MRC_PATH_REV_MULT intervals on
	u16 out[64];
	mrc_time_t next;
	u32 n = mrc_path_reverse_poll(&t, now, out, 64, &next);
	bool probed = false;
	for (u32 k = 0; k < n; k++)
		probed |= out[k] == i;
	EXPECT_TRUE(probed);
	// answered: trusted again
	mrc_path_reverse_answered(&t, i, now + kMs);
	mrc_path_probe_answered(&t, i, now + kMs, MRC_PATH_MARK_NONE, false);
	EXPECT_FALSE(t.paths[i].flags & MRC_PATHF_REV_SUSPECT);
	bool picked = false;
	for (u32 k = 0; k < 2 * t.count && !picked; k++)
		picked = mrc_path_pick(&t, now + kMs, -1) == (int)i;
	EXPECT_TRUE(picked);
	// heard from after the SACK left: it carried our packets since
	EXPECT_EQ(mrc_path_on_ctrl_lost(&t, i, now, now + 20 * kMs), MRC_PATH_NEVER);
	EXPECT_FALSE(t.paths[i].flags & MRC_PATHF_REV_SUSPECT);
	EXPECT_EQ(t.rev_suspects, 1U);
	EXPECT_TRUE(events.empty());
}

// A reverse-suspect path whose probes go unanswered is out (PROBE_FAIL)
// after fail_to_bad of them, once the peer answered something sent after
// each; a path out of use is not suspect.
TEST_F(PathTable, ReverseSuspectSilentIsOutByItsProbes)
{
	u32 i = InState(MRC_PATH_GOOD)[0], j = InState(MRC_PATH_GOOD)[1];
	u16 out[64];
	mrc_time_t next;

	ASSERT_EQ(mrc_path_on_ctrl_lost(&t, i, now, now + 20 * kMs), now + 20 * kMs);
	now += 20 * kMs;
	for (u32 k = 0; k < pol.fail_to_bad && State(i) == MRC_PATH_GOOD; k++) {
		mrc_path_reverse_poll(&t, now, out, 64, &next);
		// the peer answers what we send later
		now += MRC_PATH_REV_MULT * pol.probe_interval_ns + 1;
		mrc_path_on_delivered(&t, now - 1);
		mrc_path_reverse_poll(&t, now, out, 64, &next);
	}
	EXPECT_EQ(State(i), (u32)MRC_PATH_ASSUMED_BAD);
	EXPECT_EQ(t.paths[i].reason, (u32)MRC_PR_PROBE_FAIL);
	EXPECT_FALSE(t.paths[i].flags & MRC_PATHF_REV_SUSPECT);
	EXPECT_EQ(State(j), (u32)MRC_PATH_GOOD);
	EXPECT_EQ(mrc_path_on_ctrl_lost(&t, i, now - 1, now), MRC_PATH_NEVER);
}

TEST_F(PathTable, SuspectPathSilentIsOutAtItsVerdict)
{
	const u64 rto = 2 * kMs;
	u32 i = InState(MRC_PATH_GOOD)[0];
	mrc_time_t at;

	t.suspect_ns = rto;
	at = mrc_path_suspect(&t, i, now + rto, now, true);
	mrc_path_tick(&t, at - 1);
	EXPECT_EQ(State(i), (u32)MRC_PATH_GOOD) << "not before the verdict";
	mrc_path_tick(&t, at);
	EXPECT_EQ(State(i), (u32)MRC_PATH_ASSUMED_BAD);
	EXPECT_TRUE(Saw(i, MRC_PATH_GOOD, MRC_PATH_ASSUMED_BAD, MRC_PR_TIMEOUT));
	EXPECT_EQ(events.size(), 2U) << "its event, and the backup that replaced it";
	EXPECT_EQ(t.suspects_cleared, 0U);
	EXPECT_EQ(mrc_path_next_verdict(&t), 0U);
}

// SACK gaps: fail_to_bad of them in a row make the path suspect (one is
// one failure, as before); the verdict's reason is LOSS, and is TIMEOUT
// once a timeout joined in.
TEST_F(PathTable, SuspectFromSackGapsNeedsFailToBad)
{
	const u64 rto = 2 * kMs;
	std::vector<u32> good = InState(MRC_PATH_GOOD);
	u32 i = good[0], j = good[1];
	mrc_time_t at;

	t.suspect_ns = rto;
	EXPECT_EQ(mrc_path_suspect(&t, i, now + 100, now, false), 0U);
	EXPECT_EQ(t.suspects, 0U);
	at = mrc_path_suspect(&t, i, now + 200, now + 10, false);
	EXPECT_EQ(at, now + 10 + 2 * rto);
	EXPECT_EQ(State(i), (u32)MRC_PATH_GOOD);
	mrc_path_tick(&t, at);
	EXPECT_TRUE(Saw(i, MRC_PATH_GOOD, MRC_PATH_ASSUMED_BAD, MRC_PR_LOSS));

	mrc_path_suspect(&t, j, now + 100, now, false);
	at = mrc_path_suspect(&t, j, now + 200, now, false);
	mrc_path_suspect(&t, j, now + rto, now, true);
	mrc_path_tick(&t, at);
	EXPECT_TRUE(Saw(j, MRC_PATH_GOOD, MRC_PATH_ASSUMED_BAD, MRC_PR_TIMEOUT));
}

// Alone, a suspect path still carries (the scheduler's fallback, as for
// SKIP): nothing else could. With suspect_ns 0 the evidence acts at once.
TEST_F(PathTable, SuspectIsAFallbackAndZeroGraceActsAtOnce)
{
	pol.backups = 0;
	Build(1, 1);
	ASSERT_EQ(t.count, 1U);
	t.suspect_ns = kMs;
	mrc_path_suspect(&t, 0, now + kMs, now, true);
	EXPECT_EQ(mrc_path_pick(&t, now + kMs, -1), 0);

	Build(4, 2);
	u32 i = InState(MRC_PATH_GOOD)[0];
	t.suspect_ns = 0;
	EXPECT_EQ(mrc_path_suspect(&t, i, now + kMs, now, true), 0U);
	EXPECT_TRUE(Saw(i, MRC_PATH_GOOD, MRC_PATH_ASSUMED_BAD, MRC_PR_TIMEOUT));
}

// A timer backed off expires long after its packet left: the path still
// gets one RTO from the suspicion, not a verdict at once.
TEST_F(PathTable, SuspectAfterABackedOffTimerStillWaitsAnRto)
{
	const u64 rto = 2 * kMs;
	u32 i = InState(MRC_PATH_GOOD)[0];

	t.suspect_ns = rto;
	EXPECT_EQ(mrc_path_suspect(&t, i, now + 8 * rto, now, true), now + 9 * rto);
	mrc_path_tick(&t, now + 9 * rto - 1);
	EXPECT_EQ(State(i), (u32)MRC_PATH_GOOD);
	mrc_path_tick(&t, now + 9 * rto);
	EXPECT_TRUE(Saw(i, MRC_PATH_GOOD, MRC_PATH_ASSUMED_BAD, MRC_PR_TIMEOUT));
}

// A SKIP path (ECN) carries nothing new already, and keeps its skip in the
// field a suspicion would use: the evidence takes it out at once, as
// before suspect paths.
TEST_F(PathTable, SkipPathIsNotSuspectButOut)
{
	u32 i = InState(MRC_PATH_GOOD)[0];

	pol.ecn_response = true;
	mrc_path_set_policy(&t, &pol);
	mrc_path_on_sack(&t, i, now, MRC_PATH_MARK_SKIP_ONCE);
	ASSERT_EQ(State(i), (u32)MRC_PATH_SKIP);
	t.suspect_ns = 2 * kMs;
	EXPECT_EQ(mrc_path_suspect(&t, i, now + 2 * kMs, now, true), 0U);
	EXPECT_TRUE(Saw(i, MRC_PATH_SKIP, MRC_PATH_ASSUMED_BAD, MRC_PR_TIMEOUT));
	EXPECT_EQ(t.suspects, 0U);
}

// While suspect, other losses and unproven timeouts only count (the
// verdict decides); a timeout proving a later packet on the path arrived
// (PATH_WORKS) clears the suspicion, and so does the connection when its
// scoreboard saw the path deliver (mrc_path_clear_suspect()).
TEST_F(PathTable, SuspectOnlyTheVerdictOrProofOfDeliveryDecides)
{
	const u64 rto = 2 * kMs;
	std::vector<u32> good = InState(MRC_PATH_GOOD);
	u32 i = good[0], j = good[1];

	t.suspect_ns = rto;
	mrc_path_suspect(&t, i, now + rto, now, true);
	for (int n = 0; n < 5; n++) {
		mrc_path_on_loss(&t, i, now + rto + n);
		mrc_path_on_timeout(&t, i, now + rto + n, MRC_LOSS_UNPROVEN);
	}
	EXPECT_EQ(State(i), (u32)MRC_PATH_GOOD);
	EXPECT_EQ(t.paths[i].stats.timeouts, 6U);
	mrc_path_on_timeout(&t, i, now + rto + 10, MRC_LOSS_PATH_WORKS);
	EXPECT_FALSE(t.paths[i].flags & MRC_PATHF_SUSPECT);
	EXPECT_EQ(t.paths[i].fails, 1U) << "one packet lost, as before";
	EXPECT_EQ(State(i), (u32)MRC_PATH_GOOD);

	mrc_path_suspect(&t, j, now + rto, now, true);
	mrc_path_clear_suspect(&t, j);
	mrc_path_tick(&t, now + 10 * rto);
	EXPECT_EQ(State(j), (u32)MRC_PATH_GOOD);
	EXPECT_EQ(t.suspects_cleared, 2U);
	EXPECT_TRUE(events.empty());
}

// A busy host or peer stalls: every packet in flight, several per path,
// times out while nothing sent later reached the peer on any path (no
// proof of loss). No path may go out for that alone: one failure per
// path per silence. Once the peer was heard again, the next unproven
// timeout counts, so a path that keeps eating packets still goes out.
// Fails if each unproven timeout counts (the stall takes every path out)
// or if none ever does.
TEST_F(PathTable, StallWithoutProofTakesNoPathOut)
{
	std::vector<u32> good = InState(MRC_PATH_GOOD);
	u32 i = good[0], other = good[1];

	mrc_path_on_sack(&t, i, now, MRC_PATH_MARK_NONE);
	for (u32 p : good)
		for (u32 k = 0; k < 3; k++)
			mrc_path_on_timeout(&t, p, now + 10 * kMs + k, MRC_LOSS_UNPROVEN);
	for (u32 p : good)
		EXPECT_EQ(State(p), (u32)MRC_PATH_GOOD) << "path " << p;
	EXPECT_EQ(t.paths[i].fails, 1U);
	EXPECT_EQ(t.paths[i].stats.timeouts, 3U);
	// The peer is heard again, on another path only; i's next packet is
	// lost without proof as well: the second failure in a row.
	now += 20 * kMs;
	mrc_path_on_sack(&t, other, now, MRC_PATH_MARK_NONE);
	mrc_path_on_timeout(&t, i, now + 10 * kMs, MRC_LOSS_UNPROVEN);
	EXPECT_EQ(State(i), (u32)MRC_PATH_ASSUMED_BAD);
}

TEST_F(PathTable, SignalsOnOutOfRangeIndexIgnored)
{
	mrc_path_on_sack(&t, 999, now, MRC_PATH_MARK_ALWAYS_SKIP);
	mrc_path_on_trim(&t, 999, now, false);
	mrc_path_on_loss(&t, 999, now);
	mrc_path_on_timeout(&t, 999, now, MRC_LOSS_PATH_SILENT);
	mrc_path_on_rtt(&t, 999, 5);
	mrc_path_probe_answered(&t, 999, now, 0, false);
	mrc_path_probe_lost(&t, 999, now);
	EXPECT_EQ(mrc_path_set_denied(&t, 999, true, now), -ENOENT);
	EXPECT_TRUE(events.empty());
}

TEST_F(PathTable, LateSignalsOnFailedPathsChangeNothing)
{
	u32 i = InState(MRC_PATH_GOOD)[0];

	Fail(i);
	events.clear();
	mrc_path_on_sack(&t, i, now, MRC_PATH_MARK_NONE);
	mrc_path_on_sack(&t, i, now, MRC_PATH_MARK_ALWAYS_SKIP);
	mrc_path_on_loss(&t, i, now);
	mrc_path_on_timeout(&t, i, now, MRC_LOSS_PATH_SILENT);
	mrc_path_on_trim(&t, i, now, false);
	EXPECT_EQ(State(i), (u32)MRC_PATH_ASSUMED_BAD);
	EXPECT_TRUE(events.empty());
}

/* ---- probes and hysteresis --------------------------------------- */

TEST_F(PathTable, ProbeScheduleAndDeadline)
{
	u32 i = InState(MRC_PATH_GOOD)[0];
	u16 out[64];
	mrc_time_t next;

	// Backups are due 8 intervals after the build.
	EXPECT_EQ(mrc_path_probe_poll(&t, now, out, 64, &next), 0U);
	EXPECT_EQ(next, now + 8 * pol.probe_interval_ns);
	Fail(i);
	EXPECT_EQ(mrc_path_probe_poll(&t, now, out, 64, &next), 0U);
	EXPECT_EQ(next, now + pol.probe_interval_ns);
	now = next;
	ASSERT_EQ(mrc_path_probe_poll(&t, now, out, 64, &next), 1U);
	EXPECT_EQ(out[0], i);
	EXPECT_EQ(t.paths[i].stats.probes_sent, 1U);
	EXPECT_EQ(next, now + pol.probe_interval_ns);
	// Not again before the interval.
	EXPECT_EQ(mrc_path_probe_poll(&t, now + 1, out, 64, &next), 0U);
}

TEST_F(PathTable, ProbePollRespectsRoom)
{
	for (u32 i : InState(MRC_PATH_GOOD, 0))
		mrc_path_on_sack(&t, i, now, MRC_PATH_MARK_ALWAYS_SKIP);
	now += pol.probe_interval_ns;
	u16 out[2];
	mrc_time_t next;

	EXPECT_EQ(mrc_path_probe_poll(&t, now, out, 2, &next), 2U);
	EXPECT_EQ(next, now) << "more are due: call again";
}

// A path whose probes go unanswered is probed half as often after each
// failure, down to an eighth of the rate, so a dead path (or a host so
// slow that every path looks dead) does not cost probes at full rate for
// ever; one answer puts it back to full rate.
TEST_F(PathTable, ProbeBackoffWhileProbesFail)
{
	u32 i = InState(MRC_PATH_GOOD)[0];
	const u64 ivl = pol.probe_interval_ns;

	// A backup's failed probe does not back it off: its interval is
	// already long, and fail_to_bad failures make it ASSUMED_BAD.
	u32 b = InState(MRC_PATH_BACKUP)[0];
	t.paths[b].flags |= MRC_PATHF_PROBE_OUT;
	mrc_path_probe_lost(&t, b, now);
	ASSERT_EQ(State(b), (u32)MRC_PATH_BACKUP);
	EXPECT_EQ(t.paths[b].probe_backoff, 0U);

	Fail(i);
	now += ivl;
	ASSERT_TRUE(ProbedNow(i));
	EXPECT_EQ(t.paths[i].next_probe, now + ivl) << "the first probe: full rate";
	for (u64 gap : {2 * ivl, 4 * ivl, 8 * ivl, 8 * ivl, 8 * ivl}) {
		now = t.paths[i].next_probe;
		// the previous probe is declared failed as this one goes out
		ASSERT_TRUE(ProbedNow(i));
		EXPECT_EQ(t.paths[i].next_probe - now, gap);
	}
	EXPECT_EQ(t.paths[i].probe_backoff, (u8)MRC_PATH_PROBE_BACKOFF_MAX);
	EXPECT_EQ(t.paths[i].stats.probes_failed, 5U);
	EXPECT_EQ(t.paths[i].stats.probes_sent, 6U) << "none sooner than its interval";
	// The path answers: the next probe comes one plain interval later.
	now += ivl;
	mrc_path_probe_answered(&t, i, now, MRC_PATH_MARK_NONE, false);
	EXPECT_EQ(t.paths[i].probe_backoff, 0U);
	EXPECT_EQ(t.paths[i].next_probe, now + ivl);
	EXPECT_EQ(State(i), (u32)MRC_PATH_ASSUMED_BAD) << "hysteresis still applies";
}

// A probe is never due sooner than two of the path's smoothed RTTs: on a
// host slower than the probe interval, an answer that arrives after one
// RTT still counts, and the path comes back.
TEST_F(PathTable, ProbeIntervalCoversTwoRtts)
{
	u32 i = InState(MRC_PATH_GOOD, 1)[0];
	const u64 rtt = 20 * pol.probe_interval_ns;

	// Drain the plane's backups so the path comes back GOOD.
	for (u32 b : InState(MRC_PATH_BACKUP, 1))
		mrc_path_set_denied(&t, b, true, now);
	for (int k = 0; k < 8; k++)
		mrc_path_on_rtt(&t, i, rtt);
	Fail(i);
	EXPECT_EQ(t.paths[i].next_probe, now + 2 * rtt);
	for (u32 k = 0; k < pol.success_to_good; k++) {
		now = t.paths[i].next_probe;
		ASSERT_TRUE(ProbedNow(i));
		EXPECT_EQ(t.paths[i].next_probe, now + 2 * rtt);
		now += rtt; // the answer, one RTT later
		mrc_path_probe_answered(&t, i, now, MRC_PATH_MARK_NONE, false);
	}
	EXPECT_EQ(t.paths[i].stats.probes_failed, 0U);
	EXPECT_EQ(State(i), (u32)MRC_PATH_GOOD);
}

// A path slower than the backed-off probe interval (8 intervals) answers
// every probe after the next one left: each answer is stale and each probe
// fails. Late answers prove the path carries packets, so its probes wait
// longer until one is answered in time; that answer's round trip then
// sets the floor of the interval, and the path comes back.
TEST_F(PathTable, SlowPathComesBackByProbe)
{
	u32 i = InState(MRC_PATH_GOOD, 1)[0];
	const u64 ivl = pol.probe_interval_ns;
	const u64 rtt = 30 * ivl; // no RTT sample of the path before it fails

	for (u32 b : InState(MRC_PATH_BACKUP, 1))
		mrc_path_set_denied(&t, b, true, now);
	Fail(i);
	const mrc_time_t failed_at = now;
	// Each probe the path carries is answered one round trip after it left.
	std::multimap<mrc_time_t, mrc_time_t> answers; // arrival -> probe sent
	const mrc_time_t bound = failed_at + (5 + 2 * pol.success_to_good) * rtt;
	while (State(i) == MRC_PATH_ASSUMED_BAD && now < failed_at + 100 * rtt) {
		now += ivl / 4;
		if (ProbedNow(i)) {
			mrc_path_probe_stamp(&t, i, now);
			answers.emplace(now + rtt, now);
		}
		while (!answers.empty() && answers.begin()->first <= now) {
			mrc_time_t sent = answers.begin()->second;
			answers.erase(answers.begin());
			bool stale = sent != mrc_path_probe_sent_at(&t, i);
			mrc_path_probe_answered(&t, i, now, MRC_PATH_MARK_NONE, stale);
		}
	}
	EXPECT_EQ(State(i), (u32)MRC_PATH_GOOD) << "still out after 100 round trips";
	EXPECT_LE(now, bound) << "back after " << (now - failed_at) / rtt << " round trips";
	EXPECT_GT(t.probes_stale, 0U) << "the path was slower than the probes at first";
	EXPECT_GE(t.paths[i].srtt_us, rtt / MRC_NSEC_PER_USEC / 2)
	    << "the answer in time is a sample";
}

TEST_F(PathTable, HysteresisNeedsConsecutiveAnsweredProbes)
{
	u32 i = InState(MRC_PATH_GOOD, 1)[0];

	// Drain the plane's backups so the path comes back GOOD.
	Fail(i);
	for (u32 b : InState(MRC_PATH_BACKUP, 1))
		mrc_path_set_denied(&t, b, true, now);
	u32 j = InState(MRC_PATH_GOOD, 1)[0];

	Fail(j);
	events.clear();
	now += pol.probe_interval_ns;
	ProbeRound({i});
	now += pol.probe_interval_ns;
	ProbeRound({i});
	EXPECT_EQ(t.paths[i].successes, 2U);
	// A lost probe resets the count.
	now += pol.probe_interval_ns;
	ProbeRound({});
	now += pol.probe_interval_ns;
	ProbeRound({i}); // previous declared lost here
	EXPECT_EQ(t.paths[i].stats.probes_failed, 1U);
	u64 failed = 0;
	for (u32 k = 0; k < t.count; k++)
		failed += t.paths[k].stats.probes_failed;
	EXPECT_EQ(t.probes_timeout, failed) << "the table-wide total the MIB folds";
	EXPECT_EQ(t.paths[i].successes, 1U);
	EXPECT_EQ(State(i), (u32)MRC_PATH_ASSUMED_BAD);
	// A duplicate answer does not count.
	mrc_path_probe_answered(&t, i, now, MRC_PATH_MARK_NONE, false);
	EXPECT_EQ(t.paths[i].successes, 1U);
	now += pol.probe_interval_ns;
	ProbeRound({i});
	now += pol.probe_interval_ns;
	ProbeRound({i});
	EXPECT_EQ(State(i), (u32)MRC_PATH_GOOD);
	EXPECT_TRUE(Saw(i, MRC_PATH_ASSUMED_BAD, MRC_PATH_GOOD, MRC_PR_PROBE_OK));
	EXPECT_EQ(t.paths[i].fails, 0U);
	EXPECT_EQ(t.paths[i].stats.probes_ok, 5U);
	u64 ok = 0;
	for (u32 k = 0; k < t.count; k++)
		ok += t.paths[k].stats.probes_ok;
	EXPECT_EQ(t.probes_answered, ok)
	    << "the MIB's ProbesAnswered: every answer, not only the one that restored the path";
}

TEST_F(PathTable, RecoveredPathRetiredWhenPlaneIsFull)
{
	u32 i = InState(MRC_PATH_GOOD, 3)[0];

	Fail(i); // replaced by a backup: plane 3 full again
	for (u32 k = 0; k < pol.success_to_good; k++) {
		now += pol.probe_interval_ns;
		ProbeRound({i});
	}
	EXPECT_EQ(State(i), (u32)MRC_PATH_BACKUP);
	EXPECT_TRUE(Saw(i, MRC_PATH_ASSUMED_BAD, MRC_PATH_BACKUP, MRC_PR_RETIRED));
	EXPECT_EQ(Count(MRC_PATH_BACKUP, 3), 2U);
}

TEST_F(PathTable, ProbeAnsweredSkipOnceReturnsAsSkip)
{
	u32 i = InState(MRC_PATH_GOOD, 0)[0];

	Fail(i);
	for (u32 b : InState(MRC_PATH_BACKUP, 0))
		mrc_path_set_denied(&t, b, true, now);
	Fail(InState(MRC_PATH_GOOD, 0)[0]);
	for (u32 k = 0; k < pol.success_to_good; k++) {
		now += pol.probe_interval_ns;
		ProbeRound({i}, MRC_PATH_MARK_SKIP_ONCE);
	}
	EXPECT_EQ(State(i), (u32)MRC_PATH_SKIP);
	EXPECT_TRUE(Saw(i, MRC_PATH_ASSUMED_BAD, MRC_PATH_SKIP, MRC_PR_PROBE_OK));
	EXPECT_EQ(t.paths[i].stats.ecn_marks, pol.success_to_good)
	    << "each marked answer counted, the path out of use";
}

TEST_F(PathTable, ProbeAnsweredAlwaysSkipCountsAsFailure)
{
	u32 i = InState(MRC_PATH_GOOD)[0];

	Fail(i);
	now += pol.probe_interval_ns;
	ProbeRound({i});
	now += pol.probe_interval_ns;
	ProbeRound({i}, MRC_PATH_MARK_ALWAYS_SKIP);
	EXPECT_EQ(t.paths[i].successes, 0U);
	EXPECT_EQ(t.paths[i].stats.probes_failed, 1U);
	EXPECT_EQ(t.probes_timeout, 0U) << "answered, so not a timeout";
	EXPECT_EQ(t.probes_answered, 1U) << "an ALWAYS_SKIP answer is a failure, not an answer";
	EXPECT_EQ(State(i), (u32)MRC_PATH_ASSUMED_BAD);
}

TEST_F(PathTable, BackupFailingProbesBecomesBad)
{
	u32 b = InState(MRC_PATH_BACKUP, 0)[0];
	u32 c = InState(MRC_PATH_BACKUP, 1)[0];
	u64 ivl = 8 * pol.probe_interval_ns;

	for (u32 k = 0; k <= pol.fail_to_bad; k++) {
		now += ivl;
		ProbeRound({c}); // c answers, b does not
	}
	EXPECT_EQ(State(b), (u32)MRC_PATH_ASSUMED_BAD);
	EXPECT_TRUE(Saw(b, MRC_PATH_BACKUP, MRC_PATH_ASSUMED_BAD, MRC_PR_PROBE_FAIL));
	EXPECT_EQ(t.paths[c].fails, 0U);
	EXPECT_EQ(State(c), (u32)MRC_PATH_BACKUP);
	EXPECT_EQ(t.paths[c].stats.probes_ok, 3U);
}

TEST_F(PathTable, BackupWithAlwaysSkipSackBecomesBad)
{
	u32 b = InState(MRC_PATH_BACKUP, 0)[0];

	mrc_path_on_sack(&t, b, now, MRC_PATH_MARK_ALWAYS_SKIP);
	EXPECT_TRUE(Saw(b, MRC_PATH_BACKUP, MRC_PATH_ASSUMED_BAD, MRC_PR_ALWAYS_SKIP));
}

TEST_F(PathTable, ReplacementPrefersHealthyBackup)
{
	std::vector<u32> b = InState(MRC_PATH_BACKUP, 0);

	t.paths[b[0]].fails = 1; // one probe lost
	Fail(InState(MRC_PATH_GOOD, 0)[0]);
	EXPECT_EQ(State(b[1]), (u32)MRC_PATH_GOOD);
	EXPECT_EQ(State(b[0]), (u32)MRC_PATH_BACKUP);
}

TEST_F(PathTable, ExplicitProbeLost)
{
	u32 i = InState(MRC_PATH_GOOD)[0];

	Fail(i);
	mrc_path_probe_lost(&t, i, now); // none outstanding: no-op
	EXPECT_EQ(t.paths[i].stats.probes_failed, 0U);
	now += pol.probe_interval_ns;
	ProbeRound({});
	mrc_path_probe_lost(&t, i, now);
	EXPECT_EQ(t.paths[i].stats.probes_failed, 1U);
	mrc_path_probe_answered(&t, i, now, MRC_PATH_MARK_NONE, false);
	EXPECT_EQ(t.paths[i].stats.probes_ok, 0U) << "too late";
}

/* ---- floor --------------------------------------------------------- */

TEST_F(PathTable, FloorNeverResurrectsAKnownDeadPath)
{
	// The demo's shape: 4 paths in use, min_active 4, no backup. One dies.
	pol.min_active = 4;
	pol.max_paths = 4;
	pol.backups = 0;
	Build(2, 2);
	ASSERT_EQ(mrc_path_active(&t), 4U);
	u32 dead = InState(MRC_PATH_GOOD)[0];

	Fail(dead);
	// Its probes keep failing: it stays out, the others carry the data.
	for (int round = 0; round < 20; round++) {
		now += 16 * pol.probe_interval_ns;
		ProbeRound({});
		EXPECT_EQ(State(dead), (u32)MRC_PATH_ASSUMED_BAD) << round;
		EXPECT_EQ(mrc_path_active(&t), 3U) << round;
		for (int n = 0; n < 8; n++)
			EXPECT_NE(mrc_path_pick(&t, now, -1), (int)dead);
	}
	EXPECT_FALSE(SawReason(MRC_PR_MIN_ACTIVE));
	// Another path dies: the dead one still stays out.
	Fail(InState(MRC_PATH_GOOD)[0]);
	EXPECT_EQ(State(dead), (u32)MRC_PATH_ASSUMED_BAD);
	EXPECT_EQ(mrc_path_active(&t), 2U);
	// Once a probe of it is answered, the floor may take it back.
	now += 16 * pol.probe_interval_ns;
	ProbeRound({dead});
	EXPECT_EQ(State(dead), (u32)MRC_PATH_GOOD);
	EXPECT_TRUE(Saw(dead, MRC_PATH_ASSUMED_BAD, MRC_PATH_GOOD, MRC_PR_MIN_ACTIVE));
}

TEST_F(PathTable, FloorKeepsSomethingInUseWhenEverythingFails)
{
	pol.min_active = 4;
	pol.max_paths = 8;
	pol.backups = 1;
	Build(2, 4); // per plane: 3 GOOD + 1 BACKUP
	ASSERT_EQ(built, 8);
	// Fail everything in use, over and over: never stuck with nothing.
	for (int round = 0; round < 30; round++) {
		std::vector<u32> good = InState(MRC_PATH_GOOD);

		ASSERT_FALSE(good.empty()) << round;
		mrc_path_on_sack(&t, good[0], now, MRC_PATH_MARK_ALWAYS_SKIP);
		EXPECT_GE(mrc_path_active(&t), 1U) << round;
		EXPECT_GE(mrc_path_pick(&t, now, -1), 0) << "never stalls " << round;
	}
	EXPECT_TRUE(SawReason(MRC_PR_MIN_ACTIVE));
}

TEST_F(PathTable, FloorPrefersBackupsThenAnsweredProbes)
{
	pol.min_active = 3;
	pol.max_paths = 4;
	pol.backups = 1;
	Build(1, 4); // 3 GOOD + 1 BACKUP, target 3
	std::vector<u32> g = InState(MRC_PATH_GOOD);
	u32 b = InState(MRC_PATH_BACKUP)[0];

	// g0 fails: the backup replaces it (REPLACED, not MIN_ACTIVE).
	Fail(g[0]);
	EXPECT_TRUE(Saw(b, MRC_PATH_BACKUP, MRC_PATH_GOOD, MRC_PR_REPLACED));
	// g1 fails too, g0's probes unanswered: nothing to take, 2 in use.
	Fail(g[1]);
	EXPECT_EQ(mrc_path_active(&t), 2U);
	EXPECT_FALSE(SawReason(MRC_PR_MIN_ACTIVE));
	// g0 answers one probe (of success_to_good), g1 none: the floor
	// takes g0 back at once, not g1.
	now += 16 * pol.probe_interval_ns;
	ProbeRound({g[0]});
	EXPECT_TRUE(Saw(g[0], MRC_PATH_ASSUMED_BAD, MRC_PATH_GOOD, MRC_PR_MIN_ACTIVE));
	EXPECT_EQ(State(g[1]), (u32)MRC_PATH_ASSUMED_BAD);
	EXPECT_EQ(mrc_path_active(&t), 3U);
	// g2 fails: g1 is still known dead, the floor leaves it out.
	events.clear();
	Fail(g[2]);
	EXPECT_EQ(State(g[1]), (u32)MRC_PATH_ASSUMED_BAD);
	EXPECT_EQ(mrc_path_active(&t), 2U);
	EXPECT_FALSE(SawReason(MRC_PR_MIN_ACTIVE));
}

TEST_F(PathTable, FloorTakesJustFailedPathIfNothingElse)
{
	pol.min_active = 1;
	pol.max_paths = 1;
	pol.backups = 0;
	Build(1, 1);
	mrc_path_on_sack(&t, 0, now, MRC_PATH_MARK_ALWAYS_SKIP);
	EXPECT_EQ(State(0), (u32)MRC_PATH_GOOD);
	EXPECT_TRUE(Saw(0, MRC_PATH_ASSUMED_BAD, MRC_PATH_GOOD, MRC_PR_MIN_ACTIVE));
}

/* ---- flaps --------------------------------------------------------- */

class PathFlap : public PathTable {
protected:
	void SetUp() override
	{
		PathTable::SetUp();
		pol.min_active = 1;
		pol.max_paths = 4;
		pol.backups = 0;
		Build(1, 4);
		p = InState(MRC_PATH_GOOD)[0];
	}

	// Probe @p back to GOOD (success_to_good answers, each when due).
	void Return()
	{
		for (u32 n = 0; n < 64 && State(p) != MRC_PATH_GOOD; n++) {
			now = std::max(now, t.paths[p].next_probe);
			ProbeRound({p});
		}
		ASSERT_EQ(State(p), (u32)MRC_PATH_GOOD);
	}

	u64 Ivl() { return t.paths[p].next_probe - now; }

	u32 p = 0;
};

TEST_F(PathFlap, FailingRightAfterReturnBacksOffAndIsCounted)
{
	Fail(p);
	u64 ivl0 = Ivl();

	EXPECT_EQ(ivl0, pol.probe_interval_ns);
	for (u32 k = 1; k <= MRC_PATH_FLAP_MAX + 2; k++) {
		Return();
		now += pol.probe_interval_ns; // the next data dies at once
		Fail(p);
		u32 level = std::min<u32>(k, MRC_PATH_FLAP_MAX);

		EXPECT_EQ(t.flaps, (u64)k);
		EXPECT_EQ(t.paths[p].flap_level, level);
		EXPECT_EQ(Ivl(), ivl0 << level) << "bounded: 2^FLAP_MAX";
	}
}

TEST_F(PathFlap, AReturnThatLastsIsForgiven)
{
	Fail(p);
	Return();
	now += pol.probe_interval_ns;
	Fail(p);
	ASSERT_EQ(t.paths[p].flap_level, 1U);
	Return();
	// In use for a whole window: its next failure is a new one.
	now += pol.probe_interval_ns * MRC_PATH_FLAP_WINDOW;
	Fail(p);
	EXPECT_EQ(t.paths[p].flap_level, 0U);
	EXPECT_EQ(t.flaps, 1U);
	EXPECT_EQ(Ivl(), pol.probe_interval_ns);
}

TEST_F(PathFlap, BackupPromotedAndFailingIsNoFlap)
{
	pol.backups = 1;
	Build(1, 4);
	u32 b = InState(MRC_PATH_BACKUP)[0];

	Fail(InState(MRC_PATH_GOOD)[0]);
	ASSERT_EQ(State(b), (u32)MRC_PATH_GOOD);
	Fail(b);
	EXPECT_EQ(t.flaps, 0U);
}

/* ---- planes and peer ports ---------------------------------------- */

TEST_F(PathTable, PlaneDownTakesAllItsPathsOutAndBack)
{
	u32 bad = InState(MRC_PATH_GOOD, 1)[0];

	Fail(bad); // failed on its own before the plane goes down
	events.clear();
	mrc_path_set_plane(&t, 1, false, now);
	EXPECT_EQ(Count(MRC_PATH_GOOD, 1) + Count(MRC_PATH_SKIP, 1), 0U);
	EXPECT_EQ(Count(MRC_PATH_ASSUMED_BAD, 1), 7U);
	for (auto &e : events) {
		EXPECT_EQ(e.reason, MRC_PR_PLANE_DOWN);
		EXPECT_EQ(t.paths[e.index].plane, 1);
	}
	EXPECT_EQ(events.size(), 6U) << "no backup of a dead plane promoted";
	mrc_path_set_plane(&t, 1, false, now); // idempotent
	EXPECT_EQ(events.size(), 6U);
	for (int n = 0; n < 200; n++)
		EXPECT_NE(t.paths[mrc_path_pick(&t, now, -1)].plane, 1);
	// Not probed while down.
	u16 out[64];
	mrc_time_t next;

	now += 100 * pol.probe_interval_ns;
	u32 np = mrc_path_probe_poll(&t, now, out, 64, &next);

	for (u32 k = 0; k < np; k++)
		EXPECT_NE(t.paths[out[k]].plane, 1);
	events.clear();
	mrc_path_set_plane(&t, 1, true, now);
	EXPECT_EQ(Count(MRC_PATH_GOOD, 1), 6U);
	EXPECT_EQ(events.size(), 6U);
	for (auto &e : events)
		EXPECT_EQ(e.reason, MRC_PR_PLANE_UP);
	EXPECT_EQ(State(bad), (u32)MRC_PATH_ASSUMED_BAD) << "still probed";
	EXPECT_EQ(t.paths[bad].next_probe, now);
	mrc_path_set_plane(&t, 99, false, now); // ignored
}

TEST_F(PathTable, PeerPortDownAndUp)
{
	mrc_path_set_peer_ports(&t, ~0U & ~(1U << 2), now);
	EXPECT_EQ(Count(MRC_PATH_GOOD, 2), 0U);
	EXPECT_TRUE(SawReason(MRC_PR_PEER_PORT_DOWN));
	// Local plane 2 also goes down, then the peer's port comes back:
	// still held by the local plane.
	mrc_path_set_plane(&t, 2, false, now);
	events.clear();
	mrc_path_set_peer_ports(&t, ~0U, now);
	EXPECT_TRUE(events.empty());
	EXPECT_EQ(Count(MRC_PATH_GOOD, 2), 0U);
	mrc_path_set_plane(&t, 2, true, now);
	EXPECT_EQ(Count(MRC_PATH_GOOD, 2), 6U);
	// Same status again: nothing happens.
	events.clear();
	mrc_path_set_peer_ports(&t, ~0U, now);
	EXPECT_TRUE(events.empty());
	// Peer port alone down and up.
	mrc_path_set_peer_ports(&t, ~(1U << 0), now);
	mrc_path_set_peer_ports(&t, ~0U, now);
	EXPECT_EQ(Count(MRC_PATH_GOOD, 0), 6U);
	EXPECT_TRUE(SawReason(MRC_PR_PEER_PORT_UP));
}

// The timeouts of a dead peer port often come before its port-status
// update: the paths that failed just before are the link's, and return
// with it; one that failed long before is still probed.
TEST_F(PathTable, PathsThatJustTimedOutReturnWithThePeerPort)
{
	std::vector<u32> good = InState(MRC_PATH_GOOD, 3);
	u32 recent = good[0], old = good[1];

	mrc_path_on_sack(&t, old, now, MRC_PATH_MARK_NONE);
	Fail(old);
	now += pol.rto_max_ns + kMs;
	mrc_path_on_sack(&t, recent, now, MRC_PATH_MARK_NONE);
	now += 3 * kMs;
	mrc_path_on_timeout(&t, recent, now, MRC_LOSS_PATH_SILENT);
	ASSERT_EQ(State(recent), (u32)MRC_PATH_ASSUMED_BAD);
	events.clear();
	mrc_path_set_peer_ports(&t, ~(1U << 3), now);
	EXPECT_TRUE(Saw(recent, MRC_PATH_ASSUMED_BAD, MRC_PATH_ASSUMED_BAD, MRC_PR_PEER_PORT_DOWN))
	    << "the link now explains the failure";
	EXPECT_EQ(t.paths[recent].reason, MRC_PR_PEER_PORT_DOWN);
	for (auto &e : events)
		EXPECT_NE(e.index, old) << "failed on its own: not the link's";
	events.clear();
	now += kMs;
	mrc_path_set_peer_ports(&t, ~0U, now);
	EXPECT_TRUE(Saw(recent, MRC_PATH_ASSUMED_BAD, MRC_PATH_GOOD, MRC_PR_PEER_PORT_UP) ||
		    Saw(recent, MRC_PATH_ASSUMED_BAD, MRC_PATH_BACKUP, MRC_PR_PEER_PORT_UP))
	    << "back with the port, without probing";
	EXPECT_EQ(State(old), (u32)MRC_PATH_ASSUMED_BAD) << "still probed";
	EXPECT_EQ(t.paths[old].next_probe, now);
}

// A path the local stack refused failed on the local link, however long
// it went unheard before (a slow host): the plane's carrier loss claims
// it, and it returns with the plane. One that timed out as long ago is
// still its own failure.
TEST_F(PathTable, PathsTheStackRefusedReturnWithTheirPlane)
{
	std::vector<u32> good = InState(MRC_PATH_GOOD, 2);
	u32 refused = good[0], silent = good[1];

	mrc_path_on_sack(&t, refused, now, MRC_PATH_MARK_NONE);
	mrc_path_on_sack(&t, silent, now, MRC_PATH_MARK_NONE);
	now += pol.rto_max_ns + kMs;
	ASSERT_TRUE(mrc_path_on_tx_refused(&t, refused, true, now));
	Fail(silent);
	now += 30 * kMs;
	events.clear();
	mrc_path_set_plane(&t, 2, false, now);
	EXPECT_TRUE(Saw(refused, MRC_PATH_ASSUMED_BAD, MRC_PATH_ASSUMED_BAD, MRC_PR_PLANE_DOWN))
	    << "the plane's link explains the refusal";
	for (auto &e : events)
		EXPECT_NE(e.index, silent) << "silent for longer than rto_max: its own failure";
	events.clear();
	now += kMs;
	mrc_path_set_plane(&t, 2, true, now);
	EXPECT_TRUE(Saw(refused, MRC_PATH_ASSUMED_BAD, MRC_PATH_GOOD, MRC_PR_PLANE_UP) ||
		    Saw(refused, MRC_PATH_ASSUMED_BAD, MRC_PATH_BACKUP, MRC_PR_PLANE_UP))
	    << "back with the plane, without probing";
	EXPECT_EQ(State(silent), (u32)MRC_PATH_ASSUMED_BAD) << "still probed";
}

TEST_F(PathTable, AllPlanesDownStallsThenRecovers)
{
	for (u32 p = 0; p < 4; p++)
		mrc_path_set_plane(&t, p, false, now);
	EXPECT_EQ(mrc_path_pick(&t, now, -1), -ENOENT);
	EXPECT_FALSE(SawReason(MRC_PR_MIN_ACTIVE)) << "dead planes not used";
	mrc_path_set_plane(&t, 3, true, now);
	EXPECT_GE(mrc_path_pick(&t, now, -1), 0);
}

/* ---- controller ---------------------------------------------------- */

TEST_F(PathTable, DenyAndAllow)
{
	u32 i = InState(MRC_PATH_GOOD, 0)[0];

	EXPECT_EQ(mrc_path_set_denied(&t, i, true, now), 0);
	EXPECT_TRUE(Saw(i, MRC_PATH_GOOD, MRC_PATH_DENIED, MRC_PR_ADMIN_DENY));
	EXPECT_TRUE(SawReason(MRC_PR_REPLACED));
	EXPECT_EQ(mrc_path_set_denied(&t, i, true, now), 0); // again
	// Not probed.
	u16 out[64];
	mrc_time_t next;

	now += 100 * pol.probe_interval_ns;
	u32 np = mrc_path_probe_poll(&t, now, out, 64, &next);

	for (u32 k = 0; k < np; k++)
		EXPECT_NE(out[k], i);
	// Plane full again thanks to the backup: allowed path -> BACKUP.
	EXPECT_EQ(mrc_path_set_denied(&t, i, false, now), 0);
	EXPECT_TRUE(Saw(i, MRC_PATH_DENIED, MRC_PATH_BACKUP, MRC_PR_ADMIN_ALLOW));
	EXPECT_EQ(mrc_path_set_denied(&t, i, false, now), 0); // again
	// Deny a GOOD path with no backup left: allow brings it back GOOD.
	for (u32 b : InState(MRC_PATH_BACKUP, 0))
		mrc_path_set_denied(&t, b, true, now);
	u32 j = InState(MRC_PATH_GOOD, 0)[0];

	mrc_path_set_denied(&t, j, true, now);
	mrc_path_set_denied(&t, j, false, now);
	EXPECT_TRUE(Saw(j, MRC_PATH_DENIED, MRC_PATH_GOOD, MRC_PR_ADMIN_ALLOW));
}

TEST_F(PathTable, AllowWhilePlaneDownWaitsForPlane)
{
	u32 i = InState(MRC_PATH_GOOD, 0)[0];

	mrc_path_set_denied(&t, i, true, now);
	mrc_path_set_plane(&t, 0, false, now);
	mrc_path_set_denied(&t, i, false, now);
	EXPECT_TRUE(Saw(i, MRC_PATH_DENIED, MRC_PATH_ASSUMED_BAD, MRC_PR_ADMIN_ALLOW));
	mrc_path_set_plane(&t, 0, true, now);
	EXPECT_TRUE(State(i) == MRC_PATH_GOOD || State(i) == MRC_PATH_BACKUP);
	EXPECT_TRUE(SawReason(MRC_PR_PLANE_UP));
}

TEST_F(PathTable, DenyByConfiguredPath)
{
	Build(2, 1, 100); // one entropy path per plane: all EVs share it
	EXPECT_EQ(mrc_path_set_cfg_denied(&t, 1000, true, now), 16U);
	EXPECT_EQ(Count(MRC_PATH_DENIED, 1), 16U);
	EXPECT_EQ(Count(MRC_PATH_GOOD, 0), 14U);
	EXPECT_EQ(mrc_path_set_cfg_denied(&t, 1000, true, now), 0U);
	EXPECT_EQ(mrc_path_set_cfg_denied(&t, 1000, false, now), 16U);
	EXPECT_EQ(Count(MRC_PATH_GOOD, 1), 14U);
	EXPECT_EQ(Count(MRC_PATH_BACKUP, 1), 2U);
}

TEST_F(PathTable, RemovedPathNeverReturns)
{
	u32 i = InState(MRC_PATH_GOOD, 3)[0];
	u32 cfg = t.paths[i].cfg_id;

	EXPECT_EQ(mrc_path_remove_cfg(&t, cfg, now), 1U);
	EXPECT_TRUE(Saw(i, MRC_PATH_GOOD, MRC_PATH_DENIED, MRC_PR_PATH_REMOVED));
	EXPECT_TRUE(SawReason(MRC_PR_REPLACED));
	EXPECT_EQ(mrc_path_set_denied(&t, i, false, now), -EPERM);
	EXPECT_EQ(mrc_path_remove_cfg(&t, cfg, now), 0U);
	EXPECT_EQ(mrc_path_remove_cfg(&t, 424242, now), 0U);
	// Removing an already denied path still marks it removed.
	u32 j = InState(MRC_PATH_GOOD, 3)[0];

	mrc_path_set_denied(&t, j, true, now);
	EXPECT_EQ(mrc_path_remove_cfg(&t, t.paths[j].cfg_id, now), 1U);
	EXPECT_EQ(t.paths[j].reason, MRC_PR_PATH_REMOVED);
	EXPECT_EQ(mrc_path_set_denied(&t, j, false, now), -EPERM);
}

/* ---- per-path bookkeeping ----------------------------------------- */

TEST_F(PathTable, PerPathSequenceRevealsLoss)
{
	u32 i = InState(MRC_PATH_GOOD)[0];

	EXPECT_EQ(mrc_path_on_tx(&t, i, false), 0U);
	EXPECT_EQ(mrc_path_on_tx(&t, i, false), 1U);
	EXPECT_EQ(mrc_path_on_tx(&t, i, true), 2U);
	EXPECT_EQ(mrc_path_on_tx(&t, i, false), 3U);
	EXPECT_EQ(t.paths[i].stats.tx_pkts, 4U);
	EXPECT_EQ(t.paths[i].stats.retransmits, 1U);
	EXPECT_EQ(mrc_path_on_acked_seq(&t, i, 0), 0U);
	EXPECT_EQ(mrc_path_on_acked_seq(&t, i, 3), 2U) << "1 and 2 lost";
	EXPECT_EQ(mrc_path_on_acked_seq(&t, i, 1), 0U) << "old";
	EXPECT_EQ(mrc_path_on_acked_seq(&t, i, 3), 0U) << "duplicate";
	EXPECT_EQ(mrc_path_on_acked_seq(&t, i, 9), 0U) << "never sent";
	EXPECT_EQ(t.paths[i].ack_seq, 4U);
}

TEST_F(PathTable, EntryStaysSmall)
{
	// Documentation/path-state-machine.md promises 96 B + 2 B per path.
	EXPECT_LE(sizeof(struct mrc_path), 96U);
	EXPECT_EQ(mrc_path_on_tx(&t, 999, false), 0U);
	EXPECT_EQ(mrc_path_on_acked_seq(&t, 999, 1), 0U);
}

TEST_F(PathTable, PerPathRtt)
{
	mrc_path_on_rtt(&t, 0, 800 * MRC_NSEC_PER_USEC);
	EXPECT_EQ(t.paths[0].srtt_us, 800U);
	mrc_path_on_rtt(&t, 0, 1600 * MRC_NSEC_PER_USEC);
	EXPECT_EQ(t.paths[0].srtt_us, 900U);
	mrc_path_on_rtt(&t, 1, 10); // sub-microsecond
	EXPECT_EQ(t.paths[1].srtt_us, 1U);
	mrc_path_on_rtt(&t, 1, 0); // ignored
	EXPECT_EQ(t.paths[1].srtt_us, 1U);
}

TEST_F(PathTable, NoNotifierIsFine)
{
	struct mrc_path_table x;
	struct mrc_prng rng;

	ASSERT_EQ(mrc_path_table_init(&x, paths.data(), order.data(), pol.max_paths, &pol, nullptr),
		  0);
	mrc_prng_seed(&rng, 3);
	ASSERT_GT(mrc_path_build(&x, cands.data(), cands.size(), &rng, now), 0);
	mrc_path_on_sack(&x, 0, now, MRC_PATH_MARK_ALWAYS_SKIP);
	EXPECT_EQ(x.paths[0].state, MRC_PATH_ASSUMED_BAD);
}

TEST_F(PathTable, EveryReasonIsReachable)
{
	// Replays the scenarios above in one table and checks that each
	// reason code of the uapi shows up in an event.
	std::set<u8> reasons;
	auto collect = [&]() {
		for (auto &e : events)
			reasons.insert(e.reason);
		events.clear();
	};
	std::vector<u32> g0 = InState(MRC_PATH_GOOD, 0);
	std::vector<u32> g1 = InState(MRC_PATH_GOOD, 1);

	mrc_path_on_sack(&t, g0[0], now, MRC_PATH_MARK_SKIP_ONCE);
	mrc_path_on_trim(&t, g0[1], now, false);
	mrc_path_tick(&t, now + pol.skip_ns);
	mrc_path_on_sack(&t, g0[2], now, MRC_PATH_MARK_ALWAYS_SKIP);
	mrc_path_on_timeout(&t, g0[3], now, MRC_LOSS_PATH_SILENT);
	Fail(g0[4]);
	collect();
	for (u32 k = 0; k < pol.success_to_good; k++) {
		now += pol.probe_interval_ns;
		ProbeRound({g0[2]}); // plane 0 short: back GOOD
	}
	for (u32 k = 0; k < pol.success_to_good; k++) {
		now += pol.probe_interval_ns;
		ProbeRound({g0[3]}); // plane 0 full: RETIRED
	}
	u32 b = InState(MRC_PATH_BACKUP, 1)[0];

	for (u32 k = 0; k <= pol.fail_to_bad; k++) {
		now += 8 * pol.probe_interval_ns;
		ProbeRound({});
	}
	EXPECT_EQ(State(b), (u32)MRC_PATH_ASSUMED_BAD);
	mrc_path_set_plane(&t, 2, false, now);
	mrc_path_set_plane(&t, 2, true, now);
	mrc_path_set_peer_ports(&t, ~(1U << 3), now);
	mrc_path_set_peer_ports(&t, ~0U, now);
	mrc_path_set_denied(&t, g1[0], true, now);
	mrc_path_set_denied(&t, g1[0], false, now);
	mrc_path_remove_cfg(&t, t.paths[g1[1]].cfg_id, now);
	mrc_path_on_pkt_too_big(&t, g1[2], now);
	ASSERT_GT(g1.size(), 3u);
	mrc_path_on_tx_refused(&t, g1[3], true, now);
	collect();
	// Floor: a one-path table.
	pol.max_paths = 1;
	pol.backups = 0;
	Build(1, 1);
	mrc_path_on_sack(&t, 0, now, MRC_PATH_MARK_ALWAYS_SKIP);
	collect();
	for (u8 r = MRC_PR_ECN; r < __MRC_PR_MAX; r++)
		EXPECT_TRUE(reasons.count(r)) << "reason " << (int)r;
}

// The whole 32-bit EV travels (UDP source port + flow label) and comes back
// in SACKs: rebuilt from the wire, it finds its entry; EVs differ in the
// source port (ECMP) and the port is never below 0xC000.
TEST(PathWire, ReflectedWireValueFindsItsEntry)
{
	std::vector<mrc_path> paths(300);
	std::vector<u16> order(300);
	mrc_policy pol;
	mrc_policy_default(&pol);
	pol.max_paths = 300;
	mrc_path_table t;
	ASSERT_EQ(mrc_path_table_init(&t, paths.data(), order.data(), 300, &pol, nullptr), 0);
	mrc_path_cand cand[4];
	for (u32 i = 0; i < 4; i++)
		cand[i] = {i, 100, static_cast<u8>(i)};
	mrc_prng rng;
	mrc_prng_seed(&rng, 7);
	int n = mrc_path_build(&t, cand, 4, &rng, 0);
	ASSERT_GT(n, 200);
	std::set<u32> ports, labels;
	for (int i = 0; i < n; i++) {
		u32 ev = t.paths[i].ev;
		u16 sport = mrc_ev_sport(ev);
		u32 fl = mrc_ev_flowlabel(ev);
		EXPECT_GE(sport, 0xc000u);
		EXPECT_LE(fl, 0xfffffu);
		EXPECT_TRUE(ports.insert(sport).second) << "duplicate source port";
		labels.insert(fl);
		EXPECT_EQ(mrc_ev_from_wire(sport, fl), ev);
		EXPECT_EQ(mrc_path_lookup_ev(&t, mrc_ev_from_wire(sport, fl)), i);
	}
	EXPECT_GT(labels.size(), (size_t)n / 2) << "flow labels spread too";
	// An EV whose index bits name an entry but whose other bits differ.
	u32 forged = t.paths[0].ev ^ 0x80000000u;
	EXPECT_EQ(mrc_path_lookup_ev(&t, forged), -ENOENT);
	EXPECT_EQ(mrc_path_lookup_ev(&t, 0), -ENOENT);
}

/* ---- packet too big (issue #17) ------------------------------------ */

TEST_F(PathTable, PacketTooBigTakesAGoodPathOutAtOnce)
{
	u32 i = InState(MRC_PATH_GOOD, 1)[0];

	// no fail_to_bad: the error names the path and the cause
	EXPECT_TRUE(mrc_path_on_pkt_too_big(&t, i, now));
	EXPECT_EQ(State(i), (u32)MRC_PATH_ASSUMED_BAD);
	EXPECT_EQ(t.paths[i].reason, MRC_PR_PKT_TOO_BIG);
	EXPECT_TRUE(Saw(i, MRC_PATH_GOOD, MRC_PATH_ASSUMED_BAD, MRC_PR_PKT_TOO_BIG));
	EXPECT_EQ(t.pkt_too_big, 1U);
	// replaced from its plane, like any failure
	EXPECT_EQ(Count(MRC_PATH_GOOD, 1), 6U);
	EXPECT_TRUE(SawReason(MRC_PR_REPLACED));
	// a second error for the same path takes nothing more out
	EXPECT_FALSE(mrc_path_on_pkt_too_big(&t, i, now));
	EXPECT_EQ(t.pkt_too_big, 1U);
}

TEST_F(PathTable, PacketTooBigOnBackupSkipDeniedAndOutOfRange)
{
	u32 b = InState(MRC_PATH_BACKUP, 0)[0];
	u32 g = InState(MRC_PATH_GOOD, 2)[0];
	u32 d = InState(MRC_PATH_GOOD, 3)[0];

	EXPECT_TRUE(mrc_path_on_pkt_too_big(&t, b, now));
	EXPECT_TRUE(Saw(b, MRC_PATH_BACKUP, MRC_PATH_ASSUMED_BAD, MRC_PR_PKT_TOO_BIG));

	mrc_path_on_sack(&t, g, now, MRC_PATH_MARK_SKIP_ONCE);
	ASSERT_EQ(State(g), (u32)MRC_PATH_SKIP);
	EXPECT_TRUE(mrc_path_on_pkt_too_big(&t, g, now));
	EXPECT_TRUE(Saw(g, MRC_PATH_SKIP, MRC_PATH_ASSUMED_BAD, MRC_PR_PKT_TOO_BIG));

	mrc_path_set_denied(&t, d, true, now);
	events.clear();
	EXPECT_FALSE(mrc_path_on_pkt_too_big(&t, d, now));
	EXPECT_FALSE(mrc_path_on_pkt_too_big(&t, t.count, now));
	EXPECT_EQ(State(d), (u32)MRC_PATH_DENIED);
	EXPECT_TRUE(events.empty());
	EXPECT_EQ(t.pkt_too_big, 2U);
}

TEST_F(PathTable, PacketTooBigFailsTheProbeOfAFailedPath)
{
	u32 i = InState(MRC_PATH_GOOD, 0)[0];

	Fail(i);
	// two answered probes: one short of returning
	for (int k = 0; k < 2; k++) {
		now += pol.probe_interval_ns;
		ProbeRound({i});
	}
	ASSERT_EQ(t.paths[i].successes, 2);
	now += pol.probe_interval_ns;
	ASSERT_TRUE(ProbedNow(i));
	// the (data-sized) probe met the small link: its answer never comes
	EXPECT_FALSE(mrc_path_on_pkt_too_big(&t, i, now));
	EXPECT_EQ(t.paths[i].successes, 0);
	EXPECT_EQ(State(i), (u32)MRC_PATH_ASSUMED_BAD);
	EXPECT_EQ(t.pkt_too_big, 0U);
	// nor does a late answer count: no probe is outstanding any more
	mrc_path_probe_answered(&t, i, now, MRC_PATH_MARK_NONE, false);
	EXPECT_EQ(t.paths[i].successes, 0);
}

TEST_F(PathTable, PacketTooBigIgnoresPathsHeldByTheirLink)
{
	u32 i = InState(MRC_PATH_GOOD, 2)[0];

	mrc_path_set_plane(&t, 2, false, now);
	ASSERT_EQ(State(i), (u32)MRC_PATH_ASSUMED_BAD);
	events.clear();
	EXPECT_FALSE(mrc_path_on_pkt_too_big(&t, i, now));
	EXPECT_TRUE(events.empty());
	EXPECT_EQ(t.paths[i].reason, MRC_PR_PLANE_DOWN);
}
