// SPDX-License-Identifier: GPL-2.0
/*
 * Path (EV) table: building the EV set, the state machine, replacement
 * from the same plane, the min_active floor, the scheduler and probes.
 *
 * Tables hold hundreds of entries at most and events are rare next to
 * packets, so state changes use plain linear scans; only mrc_path_pick()
 * and the per-packet hooks are on the fast path, and they are O(1) while
 * GOOD paths are plentiful.
 */
#include "mrc_path.h"

/* ---- PRNG ---------------------------------------------------------- */

void mrc_prng_seed(struct mrc_prng *r, u64 seed)
{
	r->state = seed;
}

u64 mrc_prng_next(struct mrc_prng *r)
{
	u64 z;

	/* splitmix64 (Steele, Lea, Flood 2014): tiny, fast, well mixed. */
	r->state += 0x9e3779b97f4a7c15ULL;
	z = r->state;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

u32 mrc_prng_below(struct mrc_prng *r, u32 n)
{
	/* Lemire's multiply-shift: no division, bias below 2^-32 * n. */
	return (u32)(((mrc_prng_next(r) >> 32) * (u64)n) >> 32);
}

/* ---- helpers ------------------------------------------------------- */

static void mrc_sat_inc(u8 *v)
{
	if (*v < 0xff)
		(*v)++;
}

static void mrc_sat_inc16(u16 *v)
{
	if (*v < 0xffff)
		(*v)++;
}

static bool mrc_path_held(const struct mrc_path_table *t,
			  const struct mrc_path *p)
{
	return ((t->plane_down | t->peer_down) >> p->plane) & 1;
}

static bool mrc_path_in_use(const struct mrc_path *p)
{
	return p->state == MRC_PATH_GOOD || p->state == MRC_PATH_SKIP;
}

static void mrc_path_unsuspect(struct mrc_path_table *t, struct mrc_path *p);

/* Word came back on @p: what it carried since got through. */
static void mrc_path_heard(struct mrc_path_table *t, struct mrc_path *p,
			   mrc_time_t now)
{
	t->heard_seq++;
	p->last_heard = now;
	p->drop_run = 0;
	p->flags &= ~(MRC_PATHF_REV_CTRL | MRC_PATHF_REV_SUSPECT);
	/* late, not dead: it stays in use */
	if (p->flags & MRC_PATHF_SUSPECT)
		mrc_path_unsuspect(t, p);
}

/*
 * In use and not suspect (of losing our packets either way): may take new
 * packets while another path may.
 */
static bool mrc_path_trusted(const struct mrc_path *p)
{
	return p->state == MRC_PATH_GOOD &&
	       !(p->flags & (MRC_PATHF_SUSPECT | MRC_PATHF_REV_SUSPECT));
}

static u32 mrc_path_plane_active(const struct mrc_path_table *t, u32 plane)
{
	u32 i, n = 0;

	for (i = 0; i < t->count; i++)
		if (t->paths[i].plane == plane && mrc_path_in_use(&t->paths[i]))
			n++;
	return n;
}

u32 mrc_path_active(const struct mrc_path_table *t)
{
	u32 i, n = 0;

	for (i = 0; i < t->count; i++)
		if (mrc_path_in_use(&t->paths[i]))
			n++;
	return n;
}

/*
 * Time from one probe of @p to the next. Its floor keeps a probe from
 * counting as failed on a path that is merely slower than the interval;
 * the backoff keeps a dead path (or an overloaded host, where every path
 * looks dead) from being probed at full rate for ever.
 */
static u64 mrc_path_probe_ivl(const struct mrc_path_table *t,
			      const struct mrc_path *p, u8 state)
{
	u64 ivl = t->pol.probe_interval_ns;
	u64 floor = (u64)p->srtt_us * MRC_NSEC_PER_USEC *
		    MRC_PATH_PROBE_RTT_MULT;

	if (state == MRC_PATH_BACKUP)
		ivl *= MRC_PATH_BACKUP_PROBE_MULT;
	else
		ivl <<= min_t(u32, p->probe_backoff + p->flap_level,
			      MRC_PATH_PROBE_SHIFT_MAX);
	return max(ivl, floor);
}

/* The event of path @idx going to @state for @reason, as it is now. */
static void mrc_path_event_of(const struct mrc_path_table *t, u32 idx,
			      u8 state, u8 reason, struct mrc_path_event *ev)
{
	const struct mrc_path *p = &t->paths[idx];

	ev->index = idx;
	ev->ev = p->ev;
	ev->cfg_id = p->cfg_id;
	ev->plane = p->plane;
	ev->old_state = p->state;
	ev->new_state = state;
	ev->reason = reason;
	ev->drops = p->drops;
}

static void mrc_path_notify(const struct mrc_path_table *t,
			    const struct mrc_path_event *ev)
{
	if (t->notify.event)
		t->notify.event(t->notify.ctx, ev);
}

/* A time in the units of mrc_path::returned_at. */
static u32 mrc_path_coarse(mrc_time_t t)
{
	return (u32)(t >> 10);
}

/*
 * A path in use is failing. If it came back from ASSUMED_BAD only a
 * moment ago, it flapped: probe it less often before the next return
 * (MRC_PATH_FLAP_WINDOW). If it stayed in use for a window, the earlier
 * flaps are forgiven.
 */
static void mrc_path_note_flap(struct mrc_path_table *t, struct mrc_path *p,
			       mrc_time_t now)
{
	u64 window = t->pol.probe_interval_ns * MRC_PATH_FLAP_WINDOW;

	if (!p->returned_at)
		return;
	if ((u32)(mrc_path_coarse(now) - p->returned_at) <
	    mrc_path_coarse(window)) {
		t->flaps++;
		if (p->flap_level < MRC_PATH_FLAP_MAX)
			p->flap_level++;
	} else {
		p->flap_level = 0;
	}
	p->returned_at = 0;
}

/*
 * The one place a state changes: bookkeeping of the new state, then the
 * event. Entering GOOD forgives the drops (after reporting them).
 */
static void mrc_path_set_state(struct mrc_path_table *t, u32 idx, u8 state,
			       u8 reason, mrc_time_t now)
{
	struct mrc_path *p = &t->paths[idx];
	struct mrc_path_event ev;

	if (p->state == state)
		return;
	mrc_path_event_of(t, idx, state, reason, &ev);

	if (state == MRC_PATH_ASSUMED_BAD && mrc_path_in_use(p))
		mrc_path_note_flap(t, p, now);
	else if (p->state == MRC_PATH_ASSUMED_BAD && (state == MRC_PATH_GOOD ||
						      state == MRC_PATH_SKIP))
		p->returned_at = max(mrc_path_coarse(now), 1U);
	p->state = state;
	p->reason = reason;
	/* only a GOOD path is suspect (it shares skip_until's place) */
	if (state != MRC_PATH_GOOD)
		p->flags &= ~(MRC_PATHF_SUSPECT | MRC_PATHF_SUSPECT_TO);
	/* out of use: its probes decide from now on */
	if (state != MRC_PATH_GOOD && state != MRC_PATH_SKIP)
		p->flags &= ~MRC_PATHF_REV_SUSPECT;
	p->successes = 0;
	p->probe_backoff = 0;
	p->flags &= ~MRC_PATHF_PROBE_OUT;
	if (state == MRC_PATH_ASSUMED_BAD || state == MRC_PATH_BACKUP)
		p->next_probe = now + mrc_path_probe_ivl(t, p, state);
	else if (state == MRC_PATH_SKIP)
		p->skip_until = now + t->pol.skip_ns;
	else if (state == MRC_PATH_GOOD)
		p->drops = 0;

	mrc_path_notify(t, &ev);
}

/* Promote backups of @plane until it has its share of active paths. */
static void mrc_path_replace(struct mrc_path_table *t, u32 plane,
			     mrc_time_t now)
{
	struct mrc_path *p;
	int best;
	u32 i;

	while (mrc_path_plane_active(t, plane) < t->target[plane]) {
		best = -1;
		for (i = 0; i < t->count; i++) {
			p = &t->paths[i];
			if (p->plane != plane || p->state != MRC_PATH_BACKUP ||
			    mrc_path_held(t, p))
				continue;
			/* Prefer the backup whose probes failed least. */
			if (best < 0 || p->fails < t->paths[best].fails)
				best = i;
		}
		if (best < 0)
			return;
		mrc_path_set_state(t, best, MRC_PATH_GOOD, MRC_PR_REPLACED, now);
	}
}

/*
 * Whether the floor may put @p back in use: a backup, or an ASSUMED_BAD
 * path whose latest probe was answered (on its way back). A path that
 * failed since its last answered probe is known dead: bringing it back
 * would only feed it packets to lose.
 */
static bool mrc_path_floor_candidate(const struct mrc_path_table *t,
				     const struct mrc_path *p)
{
	if (mrc_path_held(t, p))
		return false;
	return p->state == MRC_PATH_BACKUP ||
	       (p->state == MRC_PATH_ASSUMED_BAD && p->successes);
}

/* Whether floor candidate @a is better than @b: backups first (fewest
 * failed probes), then the ASSUMED_BAD paths with most answered probes.
 */
static bool mrc_path_floor_better(const struct mrc_path *a,
				  const struct mrc_path *b)
{
	if (a->state != b->state)
		return a->state == MRC_PATH_BACKUP;
	if (a->state == MRC_PATH_BACKUP)
		return a->fails < b->fails;
	return a->successes > b->successes;
}

/* Whether last-resort candidate @a is better than @b: fewest flaps in a
 * row, then fewest failures.
 */
static bool mrc_path_resort_better(const struct mrc_path *a,
				   const struct mrc_path *b)
{
	if (a->flap_level != b->flap_level)
		return a->flap_level < b->flap_level;
	return a->fails < b->fails;
}

/*
 * With no path in use at all, nothing but probes would be sent: the
 * least bad ASSUMED_BAD path carries the data again (its retransmission
 * timer, backed off, then paces the attempts, and a connection to a
 * vanished peer still runs out of retries). Return: the path, or -1.
 */
static int mrc_path_last_resort(const struct mrc_path_table *t)
{
	const struct mrc_path *p;
	int best = -1;
	u32 i;

	for (i = 0; i < t->count; i++) {
		p = &t->paths[i];
		if (p->state != MRC_PATH_ASSUMED_BAD || mrc_path_held(t, p))
			continue;
		if (best < 0 || mrc_path_resort_better(p, &t->paths[best]))
			best = i;
	}
	return best;
}

/*
 * Keep min_active paths in use with paths that may work: backups first,
 * then ASSUMED_BAD paths whose probes are being answered; never a path
 * known dead (the connection runs on fewer paths instead). Only when no
 * path at all is left in use does the least bad failed path come back.
 */
static void mrc_path_floor(struct mrc_path_table *t, mrc_time_t now)
{
	const struct mrc_path *p;
	int best;
	u32 i;

	while (mrc_path_active(t) < t->pol.min_active) {
		best = -1;
		for (i = 0; i < t->count; i++) {
			p = &t->paths[i];
			if (!mrc_path_floor_candidate(t, p))
				continue;
			if (best < 0 || mrc_path_floor_better(p, &t->paths[best]))
				best = i;
		}
		if (best < 0 && !mrc_path_active(t))
			best = mrc_path_last_resort(t);
		if (best < 0)
			return;
		mrc_path_set_state(t, best, MRC_PATH_GOOD, MRC_PR_MIN_ACTIVE,
				   now);
	}
}

/* A path left the active set: refill its plane, then the floor. */
static void mrc_path_refill(struct mrc_path_table *t, u32 idx, mrc_time_t now)
{
	mrc_path_replace(t, t->paths[idx].plane, now);
	mrc_path_floor(t, now);
}

static void mrc_path_make_bad(struct mrc_path_table *t, u32 idx, u8 reason,
			      mrc_time_t now)
{
	bool was_active = mrc_path_in_use(&t->paths[idx]);

	mrc_path_set_state(t, idx, MRC_PATH_ASSUMED_BAD, reason, now);
	if (was_active)
		mrc_path_refill(t, idx, now);
}

/*
 * Bring a path back: into use if its plane is short of active paths,
 * otherwise into the backup set (a recovered path whose replacement works
 * is retired there).
 */
static void mrc_path_restore(struct mrc_path_table *t, u32 idx, u8 reason,
			     bool skip, mrc_time_t now)
{
	struct mrc_path *p = &t->paths[idx];

	if (mrc_path_plane_active(t, p->plane) >= t->target[p->plane]) {
		mrc_path_set_state(t, idx, MRC_PATH_BACKUP,
				   reason == MRC_PR_PROBE_OK ? MRC_PR_RETIRED :
							       reason, now);
		return;
	}
	mrc_path_set_state(t, idx, skip ? MRC_PATH_SKIP : MRC_PATH_GOOD, reason,
			   now);
}

static void mrc_path_shuffle(struct mrc_prng *r, u16 *a, u32 n)
{
	u32 i, j;
	u16 tmp;

	for (i = n; i > 1; i--) {
		j = mrc_prng_below(r, i);
		tmp = a[i - 1];
		a[i - 1] = a[j];
		a[j] = tmp;
	}
}

/* ---- setup --------------------------------------------------------- */

int mrc_path_table_init(struct mrc_path_table *t, struct mrc_path *paths,
			u16 *order, u32 capacity,
			const struct mrc_policy *pol,
			const struct mrc_path_notify *notify)
{
	if (!capacity || capacity > MRC_PATH_MAX_ENTRIES)
		return -EINVAL;
	memset(t, 0, sizeof(*t));
	t->paths = paths;
	t->order = order;
	t->capacity = capacity;
	t->limit = capacity;
	t->pol = *pol;
	if (notify)
		t->notify = *notify;
	return 0;
}

void mrc_path_set_policy(struct mrc_path_table *t,
			 const struct mrc_policy *pol)
{
	t->pol = *pol;
}

/*
 * Reservoir-sample @k EVs of @plane among its candidates (each offers
 * min(ev_count, k) slots), writing cfg ids to @out. Return: EVs chosen.
 */
static u32 mrc_path_sample_plane(const struct mrc_path_cand *cand, u32 ncand,
				 u32 plane, u32 k, struct mrc_prng *r,
				 struct mrc_path *out)
{
	u32 c, j, slots, s = 0, pos;

	for (c = 0; c < ncand; c++) {
		if (cand[c].plane != plane)
			continue;
		slots = min(cand[c].ev_count, k);
		for (j = 0; j < slots && s < ~0U; j++, s++) {
			pos = s < k ? s : mrc_prng_below(r, s + 1);
			if (pos < k)
				out[pos].cfg_id = cand[c].cfg_id;
		}
	}
	return min(s, k);
}

/* Shuffle the chosen entries of one plane (only cfg_id is set yet). */
static void mrc_path_shuffle_cfg(struct mrc_prng *r, struct mrc_path *a,
				 u32 n)
{
	u32 i, j, tmp;

	for (i = n; i > 1; i--) {
		j = mrc_prng_below(r, i);
		tmp = a[i - 1].cfg_id;
		a[i - 1].cfg_id = a[j].cfg_id;
		a[j].cfg_id = tmp;
	}
}

int mrc_path_build(struct mrc_path_table *t, const struct mrc_path_cand *cand,
		   u32 ncand, struct mrc_prng *rng, mrc_time_t now)
{
	u32 planes = 0, nplanes = 0, total, share, plane, base, n, b, i, cfg, k;
	u32 entropy, stride;
	struct mrc_path *p;

	t->count = 0;
	t->cursor = 0;
	t->rotations = 0;
	memset(t->target, 0, sizeof(t->target));
	for (i = 0; i < ncand; i++)
		if (cand[i].ev_count && cand[i].plane < MRC_PATH_MAX_PLANES)
			planes |= 1U << cand[i].plane;
	if (!planes)
		return -ENETUNREACH;
	for (plane = 0; plane < MRC_PATH_MAX_PLANES; plane++)
		nplanes += (planes >> plane) & 1;

	t->rng.state = mrc_prng_next(rng);
	total = min(t->pol.max_paths, t->limit);
	share = max(total / nplanes, 1U);

	for (plane = 0; plane < MRC_PATH_MAX_PLANES; plane++) {
		if (!((planes >> plane) & 1))
			continue;
		base = t->count;
		if (base >= total || base >= t->capacity)
			break;
		k = min(share, total - base);
		n = mrc_path_sample_plane(cand, ncand, plane,
					  min(k, t->capacity - base),
					  &t->rng, &t->paths[base]);
		mrc_path_shuffle_cfg(&t->rng, &t->paths[base], n);
		/*
		 * Backups are the EVs beyond the plane's active share (share
		 * minus backups): a plane with no more EVs than that keeps
		 * them all in use. Never the whole plane.
		 */
		b = n + t->pol.backups > k ? n + t->pol.backups - k : 0;
		b = min(b, n - 1);
		for (i = 0; i < n; i++) {
			p = &t->paths[base + i];
			cfg = p->cfg_id;
			memset(p, 0, sizeof(*p));
			p->cfg_id = cfg;
			p->plane = plane;
			p->state = i < n - b ? MRC_PATH_GOOD : MRC_PATH_BACKUP;
			if (p->state == MRC_PATH_BACKUP)
				p->next_probe = now +
					mrc_path_probe_ivl(t, p, MRC_PATH_BACKUP);
		}
		t->target[plane] = n - b;
		t->count += n;
	}

	/*
	 * The whole EV travels and comes back in SACKs and NACKs: its low
	 * MRC_PATH_EV_INDEX_BITS bits are index + 1, the rest random.
	 */
	entropy = (u32)mrc_prng_next(&t->rng);
	stride = (u32)mrc_prng_next(&t->rng) | 1;
	for (i = 0; i < t->count; i++) {
		t->paths[i].ev = ((entropy + i * stride) <<
				  MRC_PATH_EV_INDEX_BITS) | (i + 1);
		t->order[i] = i;
	}
	mrc_path_shuffle(&t->rng, t->order, t->count);
	return t->count;
}

int mrc_path_lookup_ev(const struct mrc_path_table *t, u32 ev)
{
	u32 idx = ev & MRC_PATH_EV_INDEX_MASK;

	if (!idx || idx > t->count || t->paths[idx - 1].ev != ev)
		return -ENOENT;
	return idx - 1;
}

/* ---- scheduler ----------------------------------------------------- */

static u32 mrc_path_next_in_rotation(struct mrc_path_table *t)
{
	u32 idx = t->order[t->cursor];

	if (++t->cursor >= t->count) {
		t->cursor = 0;
		if (++t->rotations >= MRC_PATH_RESHUFFLE) {
			t->rotations = 0;
			mrc_path_shuffle(&t->rng, t->order, t->count);
		}
	}
	return idx;
}

int mrc_path_pick(struct mrc_path_table *t, mrc_time_t now, int exclude)
{
	int skip_fallback = -1, excluded = -1;
	struct mrc_path *p;
	u32 n, idx;

	/*
	 * Two passes: a reshuffle in the middle of the first can hide a
	 * lone usable path from it, never from a whole pass of the new order
	 * (reshuffles are MRC_PATH_RESHUFFLE passes apart). The second pass
	 * only runs when no GOOD path was found.
	 */
	for (n = 0; n < 2 * t->count; n++) {
		idx = mrc_path_next_in_rotation(t);
		p = &t->paths[idx];
		if (p->state == MRC_PATH_SKIP && now >= p->skip_until)
			mrc_path_set_state(t, idx, MRC_PATH_GOOD,
					   MRC_PR_SKIP_EXPIRED, now);
		if (!mrc_path_in_use(p))
			continue;
		if ((int)idx == exclude) {
			excluded = idx;
			continue;
		}
		if (mrc_path_trusted(p))
			return idx;
		if (skip_fallback < 0)
			skip_fallback = idx;
	}
	if (skip_fallback >= 0)
		return skip_fallback;
	return excluded >= 0 ? excluded : -ENOENT;
}

int mrc_path_pick_rtx(struct mrc_path_table *t, mrc_time_t now, int exclude)
{
	int fallback = -1, excluded = -1;
	struct mrc_path *p;
	u32 n, idx;

	for (n = 0; n < t->count; n++) {
		if (t->rtx_cursor >= t->count)
			t->rtx_cursor = 0;
		idx = t->order[t->rtx_cursor++];
		p = &t->paths[idx];
		if (p->state == MRC_PATH_SKIP && now >= p->skip_until)
			mrc_path_set_state(t, idx, MRC_PATH_GOOD,
					   MRC_PR_SKIP_EXPIRED, now);
		if (!mrc_path_in_use(p))
			continue;
		if ((int)idx == exclude) {
			excluded = idx;
			continue;
		}
		if (mrc_path_trusted(p))
			return idx;
		if (fallback < 0)
			fallback = idx;
	}
	if (fallback >= 0)
		return fallback;
	return excluded >= 0 ? excluded : -ENOENT;
}

int mrc_path_pick_heard(const struct mrc_path_table *t)
{
	mrc_time_t best_at = 0, trusted_at = 0;
	int best = -ENOENT, trusted = -ENOENT;
	u32 i;

	for (i = 0; i < t->count; i++) {
		const struct mrc_path *p = &t->paths[i];

		if (!mrc_path_in_use(p) || mrc_path_held(t, p))
			continue;
		if (p->last_heard > best_at) {
			best_at = p->last_heard;
			best = i;
		}
		if (mrc_path_trusted(p) && p->last_heard > trusted_at) {
			trusted_at = p->last_heard;
			trusted = i;
		}
	}
	return trusted >= 0 ? trusted : best;
}

/* ---- signals from the connection ----------------------------------- */

u32 mrc_path_on_tx(struct mrc_path_table *t, u32 idx, bool rtx)
{
	struct mrc_path *p;

	if (idx >= t->count)
		return 0;
	p = &t->paths[idx];
	p->stats.tx_pkts++;
	if (rtx)
		p->stats.retransmits++;
	return p->tx_seq++;
}

u32 mrc_path_on_acked_seq(struct mrc_path_table *t, u32 idx, u32 seq)
{
	struct mrc_path *p;
	s32 gap;

	if (idx >= t->count)
		return 0;
	p = &t->paths[idx];
	gap = (s32)(seq - p->ack_seq);
	/* Old, duplicate, or not sent yet: nothing learnt. */
	if (gap < 0 || (s32)(p->tx_seq - seq) <= 0)
		return 0;
	p->ack_seq = seq + 1;
	return (u32)gap;
}

/*
 * The peer saw CE on a packet of path @idx (a SACK or a probe answer
 * carrying SKIP_ONCE): counted, and a path in use is skipped for a while
 * (if policy.ecn_response). A path out of use already carries nothing;
 * its mark still counts, as one the peer reported.
 */
static void mrc_path_on_ecn(struct mrc_path_table *t, u32 idx,
			    mrc_time_t now)
{
	struct mrc_path *p = &t->paths[idx];

	p->stats.ecn_marks++;
	t->ecn_marks++;
	if (!t->pol.ecn_response)
		return;
	if (p->state == MRC_PATH_SKIP)
		p->skip_until = now + t->pol.skip_ns;
	else if (p->state == MRC_PATH_GOOD)
		mrc_path_set_state(t, idx, MRC_PATH_SKIP, MRC_PR_ECN, now);
}

void mrc_path_on_sack(struct mrc_path_table *t, u32 idx, mrc_time_t now,
		      u32 mark)
{
	struct mrc_path *p;

	if (idx >= t->count)
		return;
	p = &t->paths[idx];
	mrc_path_heard(t, p, now);

	switch (p->state) {
	case MRC_PATH_GOOD:
	case MRC_PATH_SKIP:
		p->fails = 0;
		if (mark == MRC_PATH_MARK_ALWAYS_SKIP)
			mrc_path_make_bad(t, idx, MRC_PR_ALWAYS_SKIP, now);
		break;
	case MRC_PATH_BACKUP:
		p->fails = 0;
		if (mark == MRC_PATH_MARK_ALWAYS_SKIP)
			mrc_path_set_state(t, idx, MRC_PATH_ASSUMED_BAD,
					   MRC_PR_ALWAYS_SKIP, now);
		break;
	default:
		/* Late SACKs on failed paths prove little: probes decide. */
		break;
	}
	if (mark == MRC_PATH_MARK_SKIP_ONCE)
		mrc_path_on_ecn(t, idx, now);
}

void mrc_path_on_trim(struct mrc_path_table *t, u32 idx, mrc_time_t now,
		      bool last_hop)
{
	struct mrc_path *p;

	if (idx >= t->count)
		return;
	p = &t->paths[idx];
	mrc_path_heard(t, p, now);
	p->stats.trims++;
	/* Incast at the receiver is not the path's fault. */
	if (last_hop)
		return;
	if (p->state == MRC_PATH_SKIP)
		p->skip_until = now + t->pol.skip_ns;
	else if (p->state == MRC_PATH_GOOD)
		mrc_path_set_state(t, idx, MRC_PATH_SKIP, MRC_PR_TRIMMED, now);
}

void mrc_path_on_loss(struct mrc_path_table *t, u32 idx, mrc_time_t now)
{
	struct mrc_path *p;

	if (idx >= t->count)
		return;
	p = &t->paths[idx];
	p->stats.losses++;
	mrc_sat_inc16(&p->drops);
	/* suspect: its verdict decides */
	if (p->flags & MRC_PATHF_SUSPECT)
		return;
	mrc_sat_inc(&p->fails);
	if (mrc_path_in_use(p) && p->fails >= t->pol.fail_to_bad)
		mrc_path_make_bad(t, idx, MRC_PR_LOSS, now);
}

void mrc_path_on_timeout(struct mrc_path_table *t, u32 idx, mrc_time_t now,
			 u8 proof)
{
	struct mrc_path *p;

	if (idx >= t->count)
		return;
	p = &t->paths[idx];
	p->stats.timeouts++;
	mrc_sat_inc16(&p->drops);
	if (p->flags & MRC_PATHF_SUSPECT) {
		/* its verdict decides, unless this proves it delivers */
		if (proof != MRC_LOSS_PATH_WORKS)
			return;
		mrc_path_unsuspect(t, p);
	}
	if (proof == MRC_LOSS_UNPROVEN) {
		/* One failure per silence of the peer. */
		if (p->silent_seq == t->heard_seq && p->fails)
			return;
		p->silent_seq = t->heard_seq;
	}
	mrc_sat_inc(&p->fails);
	if (mrc_path_in_use(p) && (proof == MRC_LOSS_PATH_SILENT ||
				   p->fails >= t->pol.fail_to_bad))
		mrc_path_make_bad(t, idx, MRC_PR_TIMEOUT, now);
}

/* When suspect path @p, unless heard from, is out: two RTOs after the
 * packet that made it suspect left (suspect_since is pushed forward when
 * the suspicion comes later than one RTO after that).
 */
static mrc_time_t mrc_path_verdict(const struct mrc_path_table *t,
				   const struct mrc_path *p)
{
	return p->suspect_since + 2 * t->suspect_ns;
}

static void mrc_path_unsuspect(struct mrc_path_table *t, struct mrc_path *p)
{
	p->flags &= ~(MRC_PATHF_SUSPECT | MRC_PATHF_SUSPECT_TO);
	p->fails = 0;
	t->suspects_cleared++;
}

mrc_time_t mrc_path_suspect(struct mrc_path_table *t, u32 idx,
			    mrc_time_t now, mrc_time_t sent_ns, bool timeout)
{
	struct mrc_path *p;

	if (idx >= t->count)
		return 0;
	p = &t->paths[idx];
	/* a SKIP path already carries nothing new: no need to wait */
	if (!t->suspect_ns || p->state != MRC_PATH_GOOD) {
		if (timeout)
			mrc_path_on_timeout(t, idx, now, MRC_LOSS_PATH_SILENT);
		else
			mrc_path_on_loss(t, idx, now);
		return 0;
	}
	if (timeout)
		p->stats.timeouts++;
	else
		p->stats.losses++;
	mrc_sat_inc16(&p->drops);
	if (!(p->flags & MRC_PATHF_SUSPECT)) {
		mrc_sat_inc(&p->fails);
		if (!timeout && p->fails < t->pol.fail_to_bad)
			return 0;
		p->flags |= MRC_PATHF_SUSPECT;
		/*
		 * A timer backed off expires later than one RTO after its
		 * packet left: the path still gets one RTO from now.
		 */
		p->suspect_since = min(sent_ns, now);
		if (now > t->suspect_ns &&
		    p->suspect_since < now - t->suspect_ns)
			p->suspect_since = now - t->suspect_ns;
		t->suspects++;
	}
	/* more of the same silence: the verdict stands as it was */
	if (timeout)
		p->flags |= MRC_PATHF_SUSPECT_TO;
	return max(mrc_path_verdict(t, p), now);
}

void mrc_path_clear_suspect(struct mrc_path_table *t, u32 idx)
{
	if (idx < t->count && (t->paths[idx].flags & MRC_PATHF_SUSPECT))
		mrc_path_unsuspect(t, &t->paths[idx]);
}

mrc_time_t mrc_path_next_verdict(const struct mrc_path_table *t)
{
	mrc_time_t d = 0, at;
	u32 i;

	for (i = 0; i < t->count; i++) {
		if (!(t->paths[i].flags & MRC_PATHF_SUSPECT))
			continue;
		at = mrc_path_verdict(t, &t->paths[i]);
		if (!d || at < d)
			d = at;
	}
	return d;
}

void mrc_path_on_delivered(struct mrc_path_table *t, mrc_time_t sent_at)
{
	t->answered_sent = max(t->answered_sent, sent_at);
}

void mrc_path_on_rtt(struct mrc_path_table *t, u32 idx, u64 rtt_ns)
{
	struct mrc_path *p;
	u64 us;

	if (idx >= t->count || !rtt_ns)
		return;
	p = &t->paths[idx];
	us = mrc_div64(rtt_ns, MRC_NSEC_PER_USEC);
	if (!us)
		us = 1;
	us = min(us, 0x7fffffffULL);
	if (!p->srtt_us)
		p->srtt_us = (u32)us;
	else
		p->srtt_us = p->srtt_us - (p->srtt_us >> 3) + ((u32)us >> 3);
}

/* ---- probes -------------------------------------------------------- */

static void mrc_path_probe_failed(struct mrc_path_table *t, u32 idx,
				  u8 reason, mrc_time_t now)
{
	struct mrc_path *p = &t->paths[idx];

	p->flags &= ~MRC_PATHF_PROBE_OUT;
	p->stats.probes_failed++;
	if (reason == MRC_PR_PROBE_FAIL)
		t->probes_timeout++;
	p->successes = 0;
	mrc_sat_inc(&p->fails);
	if (p->state == MRC_PATH_ASSUMED_BAD &&
	    p->probe_backoff < MRC_PATH_PROBE_BACKOFF_MAX)
		p->probe_backoff++;
	if (p->state == MRC_PATH_BACKUP && p->fails >= t->pol.fail_to_bad)
		mrc_path_set_state(t, idx, MRC_PATH_ASSUMED_BAD, reason, now);
}

/*
 * The local stack or the fabric named path @idx as unable to carry our
 * packets (packet-too-big, a refused transmit): a @hard error takes a path
 * in use or a backup out at once with @reason, and on an ASSUMED_BAD path
 * the outstanding probe has failed. A soft one (a drop that a full queue
 * also gives) is proof only at the end of a run of MRC_PATH_DROP_RUN;
 * before that a probe it refused goes again at its next interval.
 * Return: true if the path was taken out.
 */
static bool mrc_path_refused(struct mrc_path_table *t, u32 idx, u8 reason,
			     bool hard, mrc_time_t now)
{
	struct mrc_path *p;

	if (idx >= t->count)
		return false;
	p = &t->paths[idx];
	if (mrc_path_held(t, p))
		return false;
	mrc_sat_inc16(&p->drops);
	if (!hard && ++p->drop_run < MRC_PATH_DROP_RUN) {
		mrc_path_probe_unsent(t, idx, now, 0);
		return false;
	}
	p->drop_run = 0;
	switch (p->state) {
	case MRC_PATH_GOOD:
	case MRC_PATH_SKIP:
		mrc_sat_inc(&p->fails);
		mrc_path_make_bad(t, idx, reason, now);
		return true;
	case MRC_PATH_BACKUP:
		mrc_sat_inc(&p->fails);
		mrc_path_set_state(t, idx, MRC_PATH_ASSUMED_BAD, reason, now);
		return true;
	case MRC_PATH_ASSUMED_BAD:
		if (p->flags & MRC_PATHF_PROBE_OUT)
			mrc_path_probe_failed(t, idx, reason, now);
		return false;
	default:
		return false;
	}
}

bool mrc_path_on_pkt_too_big(struct mrc_path_table *t, u32 idx,
			     mrc_time_t now)
{
	if (!mrc_path_refused(t, idx, MRC_PR_PKT_TOO_BIG, true, now))
		return false;
	t->pkt_too_big++;
	return true;
}

void mrc_path_on_tx_left(struct mrc_path_table *t, u32 idx)
{
	if (idx < t->count)
		t->paths[idx].drop_run = 0;
}

bool mrc_path_on_tx_refused(struct mrc_path_table *t, u32 idx, bool hard,
			    mrc_time_t now)
{
	if (!mrc_path_refused(t, idx, MRC_PR_TX_REFUSED, hard, now))
		return false;
	t->tx_refused++;
	return true;
}

void mrc_path_probe_lost(struct mrc_path_table *t, u32 idx, mrc_time_t now)
{
	if (idx < t->count && (t->paths[idx].flags & MRC_PATHF_PROBE_OUT))
		mrc_path_probe_failed(t, idx, MRC_PR_PROBE_FAIL, now);
}

bool mrc_path_probe_fresh(const struct mrc_path_table *t, u32 idx,
			  mrc_time_t now, mrc_time_t at)
{
	const struct mrc_path *p;

	if (idx >= t->count || !at || at > now)
		return false;
	p = &t->paths[idx];
	return now - at < mrc_path_probe_ivl(t, p, p->state);
}

void mrc_path_probe_unsent(struct mrc_path_table *t, u32 idx,
			   mrc_time_t now, u64 retry_ns)
{
	struct mrc_path *p;

	if (idx >= t->count || !(t->paths[idx].flags & MRC_PATHF_PROBE_OUT))
		return;
	p = &t->paths[idx];
	if (p->flags & MRC_PATHF_REV_OUT)
		t->rev_probes--;
	p->flags &= ~(MRC_PATHF_PROBE_OUT | MRC_PATHF_REV_OUT);
	p->stats.probes_sent--;
	p->next_probe = now + max(retry_ns, mrc_path_probe_ivl(t, p, p->state));
}

u32 mrc_path_probe_poll(struct mrc_path_table *t, mrc_time_t now, u16 *out,
			u32 max, mrc_time_t *next)
{
	mrc_time_t deadline = MRC_PATH_NEVER;
	struct mrc_path *p;
	u32 i, n = 0;
	u8 state;

	for (i = 0; i < t->count; i++) {
		p = &t->paths[i];
		if ((p->state != MRC_PATH_ASSUMED_BAD &&
		     p->state != MRC_PATH_BACKUP) || mrc_path_held(t, p))
			continue;
		if (now < p->next_probe || n >= max) {
			deadline = min(deadline, p->next_probe);
			continue;
		}
		state = p->state;
		if (p->flags & MRC_PATHF_PROBE_OUT) {
			mrc_path_probe_failed(t, i, MRC_PR_PROBE_FAIL, now);
			if (p->state != state) {
				deadline = min(deadline, p->next_probe);
				continue;
			}
		}
		p->flags |= MRC_PATHF_PROBE_OUT;
		p->probe_sent = 0;	/* stamped when it leaves */
		p->stats.probes_sent++;
		p->next_probe = now + mrc_path_probe_ivl(t, p, p->state);
		deadline = min(deadline, p->next_probe);
		out[n++] = i;
	}
	*next = deadline;
	return n;
}

void mrc_path_probe_stamp(struct mrc_path_table *t, u32 idx, mrc_time_t now)
{
	struct mrc_path *p;

	if (idx >= t->count)
		return;
	p = &t->paths[idx];
	if ((p->state == MRC_PATH_ASSUMED_BAD || p->state == MRC_PATH_BACKUP) &&
	    (p->flags & MRC_PATHF_PROBE_OUT))
		p->probe_sent = now;
}

mrc_time_t mrc_path_probe_sent_at(const struct mrc_path_table *t, u32 idx)
{
	const struct mrc_path *p;

	if (idx >= t->count)
		return 0;
	p = &t->paths[idx];
	if ((p->state != MRC_PATH_ASSUMED_BAD && p->state != MRC_PATH_BACKUP) ||
	    !(p->flags & MRC_PATHF_PROBE_OUT))
		return 0;
	return p->probe_sent;
}

void mrc_path_probe_answered(struct mrc_path_table *t, u32 idx,
			     mrc_time_t now, u32 mark, bool stale)
{
	struct mrc_path *p;
	mrc_time_t sent;

	if (idx >= t->count || !(t->paths[idx].flags & MRC_PATHF_PROBE_OUT))
		return;
	p = &t->paths[idx];
	/*
	 * A probe queued where data queues is marked as data is: the mark
	 * counts, and skips a path in use (a path out of use is restored
	 * to SKIP by a marked answer, below).
	 */
	if (mark == MRC_PATH_MARK_SKIP_ONCE)
		mrc_path_on_ecn(t, idx, now);
	if (stale) {
		t->probes_stale++;
		/*
		 * The answer to a probe that failed: the path is slower
		 * than we wait, so wait longer. A late copy of an answer
		 * already counted (@successes) proves nothing.
		 */
		if (p->state == MRC_PATH_ASSUMED_BAD && !p->successes &&
		    p->probe_backoff < MRC_PATH_PROBE_LATE_MAX)
			p->probe_backoff++;
		return;
	}
	/* In time: its round trip is the floor of the next waits. */
	sent = mrc_path_probe_sent_at(t, idx);
	if (sent && now > sent)
		mrc_path_on_rtt(t, idx, now - sent);
	mrc_path_heard(t, p, now);
	if (mark == MRC_PATH_MARK_ALWAYS_SKIP) {
		mrc_path_probe_failed(t, idx, MRC_PR_ALWAYS_SKIP, now);
		return;
	}
	p->flags &= ~MRC_PATHF_PROBE_OUT;
	p->stats.probes_ok++;
	t->probes_answered++;
	if (p->state != MRC_PATH_ASSUMED_BAD) {
		p->fails = 0;
		return;
	}
	/* Answered: the path may be back, probe it at full rate again. */
	if (p->probe_backoff) {
		p->probe_backoff = 0;
		p->next_probe = min(p->next_probe,
				    now + mrc_path_probe_ivl(t, p, p->state));
	}
	if (mrc_path_held(t, p))
		return;
	mrc_sat_inc(&p->successes);
	if (p->successes < t->pol.success_to_good) {
		/* Answering: the floor may want it back already. */
		mrc_path_floor(t, now);
		return;
	}
	p->fails = 0;
	mrc_path_restore(t, idx, MRC_PR_PROBE_OK,
			 mark == MRC_PATH_MARK_SKIP_ONCE, now);
}

/* ---- reverse liveness ---------------------------------------------- */

/* Silence after which a path carrying our SACKs and NACKs is probed. */
static u64 mrc_path_rev_wait(const struct mrc_path_table *t)
{
	return t->pol.probe_interval_ns * MRC_PATH_REV_MULT;
}

mrc_time_t mrc_path_on_ctrl_tx(struct mrc_path_table *t, u32 idx,
			       mrc_time_t now)
{
	struct mrc_path *p;

	if (idx >= t->count)
		return MRC_PATH_NEVER;
	p = &t->paths[idx];
	if (!mrc_path_in_use(p) || (p->flags & MRC_PATHF_REV_CTRL))
		return MRC_PATH_NEVER;
	p->flags |= MRC_PATHF_REV_CTRL;
	/* One outstanding already (next_probe: when it left): it will do. */
	if ((p->flags & (MRC_PATHF_REV_OUT | MRC_PATHF_PROBE_OUT)) ==
	    (MRC_PATHF_REV_OUT | MRC_PATHF_PROBE_OUT))
		return MRC_PATH_NEVER;
	/* Not sooner than the probe interval after the last probe either. */
	p->next_probe = max(p->next_probe, now + mrc_path_rev_wait(t));
	return p->next_probe;
}

mrc_time_t mrc_path_on_ctrl_lost(struct mrc_path_table *t, u32 idx,
				 mrc_time_t sent_ns, mrc_time_t now)
{
	struct mrc_path *p;

	if (idx >= t->count)
		return MRC_PATH_NEVER;
	p = &t->paths[idx];
	/* heard from since: it carried our packets after that one */
	if (!mrc_path_in_use(p) || mrc_path_held(t, p) ||
	    p->last_heard > sent_ns)
		return MRC_PATH_NEVER;
	if (!(p->flags & MRC_PATHF_REV_SUSPECT)) {
		p->flags |= MRC_PATHF_REV_SUSPECT;
		t->rev_suspects++;
	}
	/* one outstanding already: its verdict will do */
	if ((p->flags & (MRC_PATHF_REV_OUT | MRC_PATHF_PROBE_OUT)) ==
	    (MRC_PATHF_REV_OUT | MRC_PATHF_PROBE_OUT))
		return MRC_PATH_NEVER;
	/*
	 * The lost SACK is the evidence the silence wait
	 * (MRC_PATH_REV_MULT probe intervals) waits for: probe now.
	 */
	p->flags |= MRC_PATHF_REV_CTRL;
	p->next_probe = now;
	return now;
}

/*
 * The reverse probe of @idx went unanswered: a failure like any other
 * unanswered probe; enough in a row and the path is out.
 */
static void mrc_path_reverse_failed(struct mrc_path_table *t, u32 idx,
				    mrc_time_t now)
{
	struct mrc_path *p = &t->paths[idx];

	mrc_path_probe_failed(t, idx, MRC_PR_PROBE_FAIL, now);
	if (mrc_path_in_use(p) && p->fails >= t->pol.fail_to_bad)
		mrc_path_make_bad(t, idx, MRC_PR_PROBE_FAIL, now);
}

/*
 * When the reverse probe outstanding on @p has failed: its answer comes
 * back on the peer's paths, behind the peer's data, so the path's own RTT
 * (sampled by these probes) sets the floor as for other probes; until
 * there is a sample, the answer gets the whole silence wait.
 */
static mrc_time_t mrc_path_rev_deadline(const struct mrc_path_table *t,
					const struct mrc_path *p)
{
	u64 ivl = mrc_path_probe_ivl(t, p, p->state);

	if (!p->srtt_us)
		ivl = max(ivl, mrc_path_rev_wait(t));
	return p->next_probe + ivl;
}

void mrc_path_reverse_answered(struct mrc_path_table *t, u32 idx,
			       mrc_time_t now)
{
	const struct mrc_path *p;

	if (idx >= t->count)
		return;
	p = &t->paths[idx];
	if ((p->flags & (MRC_PATHF_REV_OUT | MRC_PATHF_PROBE_OUT)) !=
	    (MRC_PATHF_REV_OUT | MRC_PATHF_PROBE_OUT))
		return;
	mrc_path_on_delivered(t, p->next_probe);
	if (now > p->next_probe)
		mrc_path_on_rtt(t, idx, now - p->next_probe);
}

/*
 * Settle the reverse probe outstanding on @idx, if any. Return: false when
 * one is still outstanding (sent at next_probe).
 */
static bool mrc_path_reverse_settle(struct mrc_path_table *t, u32 idx,
				    mrc_time_t now)
{
	struct mrc_path *p = &t->paths[idx];

	if (!(p->flags & MRC_PATHF_REV_OUT))
		return true;
	/* Answered, or overtaken by a state change or a link event. */
	if (!(p->flags & MRC_PATHF_PROBE_OUT) || !mrc_path_in_use(p) ||
	    mrc_path_held(t, p)) {
		p->flags &= ~MRC_PATHF_REV_OUT;
		return true;
	}
	if (now < mrc_path_rev_deadline(t, p))
		return false;
	/*
	 * Late, but lost only once the peer answered something we sent
	 * after it (data acknowledged, another reverse probe): a peer that
	 * has answered nothing since is busy (a loaded host) or gone, which
	 * says nothing about this path (the retry budget and keepalive
	 * judge a peer). Until then the probe stays outstanding.
	 */
	if (t->answered_sent < p->next_probe)
		return false;
	p->flags &= ~MRC_PATHF_REV_OUT;
	mrc_path_reverse_failed(t, idx, now);
	return true;
}

u32 mrc_path_reverse_poll(struct mrc_path_table *t, mrc_time_t now, u16 *out,
			  u32 max, mrc_time_t *next)
{
	mrc_time_t deadline = MRC_PATH_NEVER;
	struct mrc_path *p;
	u32 i, n = 0;

	for (i = 0; i < t->count; i++) {
		p = &t->paths[i];
		if (!mrc_path_reverse_settle(t, i, now)) {
			deadline = min(deadline, mrc_path_rev_deadline(t, p));
			continue;
		}
		if (!mrc_path_in_use(p)) {
			p->flags &= ~MRC_PATHF_REV_CTRL;
			continue;
		}
		if (!(p->flags & MRC_PATHF_REV_CTRL) || mrc_path_held(t, p) ||
		    (p->flags & MRC_PATHF_PROBE_OUT))
			continue;
		if (now < p->next_probe || n >= max) {
			deadline = min(deadline, p->next_probe);
			continue;
		}
		p->flags |= MRC_PATHF_PROBE_OUT | MRC_PATHF_REV_OUT;
		p->stats.probes_sent++;
		t->rev_probes++;
		p->next_probe = now;	/* sent; see mrc_path_rev_deadline() */
		deadline = min(deadline, mrc_path_rev_deadline(t, p));
		out[n++] = i;
	}
	/* One poll per probe interval at most, however the dues spread. */
	if (deadline != MRC_PATH_NEVER)
		deadline = max(deadline, now + t->pol.probe_interval_ns);
	*next = deadline;
	return n;
}

/* ---- links and the controller -------------------------------------- */

/*
 * Whether an ASSUMED_BAD path failed because of the link failure being
 * reported now (@reason). Timeouts often beat the report: a peer's
 * port-status update comes a round trip after its port died, and a local
 * carrier loss can be noticed late. A path heard from within the last
 * rto_max was working until just before; one silent for longer failed on
 * its own. A path the local stack refused, though, failed on the local
 * link whenever it was last heard: a slow host (a debug kernel) may not
 * hear a path for rto_max while its carrier goes.
 */
static bool mrc_path_failed_with_link(const struct mrc_path_table *t,
				      const struct mrc_path *p, u8 reason,
				      mrc_time_t now)
{
	if (p->state != MRC_PATH_ASSUMED_BAD ||
	    (p->flags & (MRC_PATHF_LINK_OUT | MRC_PATHF_REMOVED)))
		return false;
	if (reason == MRC_PR_PLANE_DOWN && p->reason == MRC_PR_TX_REFUSED)
		return true;
	return p->last_heard && now - p->last_heard <= t->pol.rto_max_ns;
}

/*
 * Report a new reason for a path that keeps its state (old state = new
 * state in the event): the link, not the timeouts, now explains it.
 */
static void mrc_path_set_reason(struct mrc_path_table *t, u32 idx, u8 reason)
{
	struct mrc_path_event ev;

	mrc_path_event_of(t, idx, t->paths[idx].state, reason, &ev);
	t->paths[idx].reason = reason;
	mrc_path_notify(t, &ev);
}

static void mrc_path_link_down(struct mrc_path_table *t, u32 plane, u8 reason,
			       mrc_time_t now)
{
	struct mrc_path *p;
	u32 i;

	for (i = 0; i < t->count; i++) {
		p = &t->paths[i];
		if (p->plane != plane)
			continue;
		/* Outstanding probes of the plane say nothing any more. */
		p->flags &= ~MRC_PATHF_PROBE_OUT;
		if (mrc_path_failed_with_link(t, p, reason, now)) {
			/* Returns with the link, without probing. */
			p->flags |= MRC_PATHF_LINK_OUT;
			mrc_path_set_reason(t, i, reason);
			continue;
		}
		if (!mrc_path_in_use(p))
			continue;
		p->flags |= MRC_PATHF_LINK_OUT;
		mrc_path_set_state(t, i, MRC_PATH_ASSUMED_BAD, reason, now);
	}
	/* No backup of a dead plane can help: only the floor may. */
	mrc_path_floor(t, now);
}

static void mrc_path_link_up(struct mrc_path_table *t, u32 plane, u8 reason,
			     mrc_time_t now)
{
	struct mrc_path *p;
	u32 i;

	if (((t->plane_down | t->peer_down) >> plane) & 1)
		return;
	for (i = 0; i < t->count; i++) {
		p = &t->paths[i];
		if (p->plane != plane)
			continue;
		if (p->flags & MRC_PATHF_LINK_OUT) {
			p->flags &= ~MRC_PATHF_LINK_OUT;
			p->fails = 0;
			mrc_path_restore(t, i, reason, false, now);
		} else if (p->state == MRC_PATH_ASSUMED_BAD) {
			/* Failed on its own before: probe it soon. */
			p->next_probe = now;
		}
	}
	mrc_path_replace(t, plane, now);
}

void mrc_path_set_plane(struct mrc_path_table *t, u32 plane, bool up,
			mrc_time_t now)
{
	u32 bit;

	if (plane >= MRC_PATH_MAX_PLANES)
		return;
	bit = 1U << plane;
	if (!up && !(t->plane_down & bit)) {
		t->plane_down |= bit;
		mrc_path_link_down(t, plane, MRC_PR_PLANE_DOWN, now);
	} else if (up && (t->plane_down & bit)) {
		t->plane_down &= ~bit;
		mrc_path_link_up(t, plane, MRC_PR_PLANE_UP, now);
	}
}

void mrc_path_set_peer_ports(struct mrc_path_table *t, u32 up_mask,
			     mrc_time_t now)
{
	u32 changed = ~up_mask ^ t->peer_down;
	u32 plane, bit;

	for (plane = 0; plane < MRC_PATH_MAX_PLANES; plane++) {
		bit = 1U << plane;
		if (!(changed & bit))
			continue;
		if (up_mask & bit) {
			t->peer_down &= ~bit;
			mrc_path_link_up(t, plane, MRC_PR_PEER_PORT_UP, now);
		} else {
			t->peer_down |= bit;
			mrc_path_link_down(t, plane, MRC_PR_PEER_PORT_DOWN, now);
		}
	}
}

int mrc_path_set_denied(struct mrc_path_table *t, u32 idx, bool deny,
			mrc_time_t now)
{
	struct mrc_path *p;
	bool was_active;

	if (idx >= t->count)
		return -ENOENT;
	p = &t->paths[idx];
	if (deny) {
		if (p->state == MRC_PATH_DENIED)
			return 0;
		was_active = mrc_path_in_use(p);
		p->flags &= ~MRC_PATHF_LINK_OUT;
		mrc_path_set_state(t, idx, MRC_PATH_DENIED, MRC_PR_ADMIN_DENY,
				   now);
		if (was_active)
			mrc_path_refill(t, idx, now);
		return 0;
	}
	if (p->state != MRC_PATH_DENIED)
		return 0;
	if (p->flags & MRC_PATHF_REMOVED)
		return -EPERM;
	p->fails = 0;
	if (mrc_path_held(t, p)) {
		p->flags |= MRC_PATHF_LINK_OUT;
		mrc_path_set_state(t, idx, MRC_PATH_ASSUMED_BAD,
				   MRC_PR_ADMIN_ALLOW, now);
		return 0;
	}
	mrc_path_restore(t, idx, MRC_PR_ADMIN_ALLOW, false, now);
	return 0;
}

u32 mrc_path_set_cfg_denied(struct mrc_path_table *t, u32 cfg_id, bool deny,
			    mrc_time_t now)
{
	u32 i, n = 0;
	u8 before;

	for (i = 0; i < t->count; i++) {
		if (t->paths[i].cfg_id != cfg_id)
			continue;
		before = t->paths[i].state;
		if (!mrc_path_set_denied(t, i, deny, now) &&
		    t->paths[i].state != before)
			n++;
	}
	return n;
}

u32 mrc_path_remove_cfg(struct mrc_path_table *t, u32 cfg_id,
			mrc_time_t now)
{
	struct mrc_path *p;
	bool was_active;
	u32 i, n = 0;

	for (i = 0; i < t->count; i++) {
		p = &t->paths[i];
		if (p->cfg_id != cfg_id || (p->flags & MRC_PATHF_REMOVED))
			continue;
		was_active = mrc_path_in_use(p);
		p->flags = MRC_PATHF_REMOVED;
		mrc_path_set_state(t, i, MRC_PATH_DENIED, MRC_PR_PATH_REMOVED,
				   now);
		p->reason = MRC_PR_PATH_REMOVED;
		if (was_active)
			mrc_path_refill(t, i, now);
		n++;
	}
	return n;
}

/* ---- queries ------------------------------------------------------- */

void mrc_path_tick(struct mrc_path_table *t, mrc_time_t now)
{
	struct mrc_path *p;
	u8 reason;
	u32 i;

	for (i = 0; i < t->count; i++) {
		p = &t->paths[i];
		if ((p->flags & MRC_PATHF_SUSPECT) &&
		    now >= mrc_path_verdict(t, p)) {
			/* silent all along: dead, not late */
			reason = p->flags & MRC_PATHF_SUSPECT_TO ?
				 MRC_PR_TIMEOUT : MRC_PR_LOSS;
			p->flags &= ~(MRC_PATHF_SUSPECT | MRC_PATHF_SUSPECT_TO);
			if (mrc_path_in_use(p))
				mrc_path_make_bad(t, i, reason, now);
			continue;
		}
		if (p->state == MRC_PATH_SKIP && now >= p->skip_until)
			mrc_path_set_state(t, i, MRC_PATH_GOOD,
					   MRC_PR_SKIP_EXPIRED, now);
	}
}

void mrc_path_count_states(const struct mrc_path_table *t,
			   u32 counts[__MRC_PATH_STATE_MAX])
{
	u32 i;

	memset(counts, 0, sizeof(u32) * __MRC_PATH_STATE_MAX);
	for (i = 0; i < t->count; i++)
		if (t->paths[i].state < __MRC_PATH_STATE_MAX)
			counts[t->paths[i].state]++;
}
