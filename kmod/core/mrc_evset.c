// SPDX-License-Identifier: GPL-2.0
/*
 * Choosing a connection's paths: per-plane shares, max-min fair, and a
 * weighted random subset within a plane (see mrc_evset.h).
 *
 * The subset of a plane is the share's smallest keys E / weight, where E
 * is an exponential variable drawn per path from the seed and the path id
 * (-log2 of a uniform 32-bit value, in Q26 fixed point): the exponential
 * clocks form of Efraimidis and Spirakis's weighted sampling without
 * replacement, in integers, so the kernel needs no floating point. Keys
 * are compared as E_a * w_b < E_b * w_a, with no division.
 *
 * A slot of @sel holds, while a plane is sampled, the key and the index:
 * E in bits 63..32, the weight in bits 31..24, the index in bits 23..0.
 * At the end every slot holds an index only.
 */
#include "mrc_evset.h"
#include "mrc_path.h"

#define MRC_EVSET_Q		26	/* fractional bits of E */
#define MRC_EVSET_IDX_MASK	(MRC_EVSET_CANDS_MAX - 1)
/* Keeps the draws of the selection apart from the engine's own, same seed. */
#define MRC_EVSET_SALT		0x6576736574736c74ULL	/* "evsetslt" */
#define MRC_EVSET_GAMMA		0x9e3779b97f4a7c15ULL

/* log2(@x) in Q26, for 1 <= @x <= 2^32: exact to the last bit kept. */
static u32 mrc_evset_log2(u64 x)
{
	u32 n = 0, r, bit;
	u64 m;

	while (x >> (n + 1))
		n++;
	/* The mantissa, [1, 2) in Q31. */
	m = n <= 31 ? x << (31 - n) : x >> (n - 31);
	r = n << MRC_EVSET_Q;
	for (bit = 1U << (MRC_EVSET_Q - 1); bit; bit >>= 1) {
		m = (m * m) >> 31;
		if (m >= (1ULL << 32)) {
			m >>= 1;
			r |= bit;
		}
	}
	return r;
}

/* The key of candidate @idx (path @path_id, weight @w) under @base. */
static u64 mrc_evset_key(u64 base, u32 path_id, u8 w, u32 idx)
{
	struct mrc_prng r;
	u64 x;
	u32 e;

	mrc_prng_seed(&r, base + (u64)path_id * MRC_EVSET_GAMMA);
	x = (mrc_prng_next(&r) >> 32) + 1;		/* 1..2^32 */
	e = (32U << MRC_EVSET_Q) - mrc_evset_log2(x);	/* Exp(ln 2), Q26 */
	return ((u64)e << 32) | ((u64)w << 24) | idx;
}

/* Key @a sorts before @b: a smaller E / weight (weight 0: infinite). */
static bool mrc_evset_key_less(u64 a, u64 b)
{
	u64 ea = a >> 32, eb = b >> 32;
	u64 wa = (a >> 24) & 0xff, wb = (b >> 24) & 0xff;

	if (!wa != !wb)
		return wa;
	if (wa && ea * wb != eb * wa)
		return ea * wb < eb * wa;
	if (!wa && ea != eb)
		return ea < eb;
	return (a & MRC_EVSET_IDX_MASK) < (b & MRC_EVSET_IDX_MASK);
}

static bool mrc_evset_idx_less(u64 a, u64 b)
{
	return a < b;
}

/* Restore the max-heap @h[0..@n-1] below position @i. */
static void mrc_evset_sift_down(u64 *h, u32 n, u32 i,
				bool (*less)(u64 a, u64 b))
{
	u32 c;
	u64 t;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && less(h[c], h[c + 1]))
			c++;
		if (!less(h[i], h[c]))
			return;
		t = h[i];
		h[i] = h[c];
		h[c] = t;
		i = c;
	}
}

static void mrc_evset_sift_up(u64 *h, u32 i)
{
	u32 parent;
	u64 t;

	while (i) {
		parent = (i - 1) / 2;
		if (!mrc_evset_key_less(h[parent], h[i]))
			return;
		t = h[i];
		h[i] = h[parent];
		h[parent] = t;
		i = parent;
	}
}

/* Sort @a[0..@n-1] ascending (heapsort: no recursion, no scratch). */
static void mrc_evset_sort(u64 *a, u32 n)
{
	u32 i;
	u64 t;

	for (i = n / 2; i > 0; i--)
		mrc_evset_sift_down(a, n, i - 1, mrc_evset_idx_less);
	for (i = n; i > 1; i--) {
		t = a[0];
		a[0] = a[i - 1];
		a[i - 1] = t;
		mrc_evset_sift_down(a, i - 1, 0, mrc_evset_idx_less);
	}
}

static bool mrc_evset_eligible(const struct mrc_evset_cand *c)
{
	return !c->deny && c->plane < MRC_EVSET_PLANES;
}

/*
 * The @k smallest keys of @plane's candidates into @h (a max-heap while it
 * fills: the root is the worst key kept).
 */
static void mrc_evset_sample_plane(const struct mrc_evset_cand *cand,
				   u32 ncand, u32 plane, u32 k, u64 base,
				   u64 *h)
{
	u32 i, n = 0;
	u64 key;

	for (i = 0; i < ncand; i++) {
		if (cand[i].plane != plane || !mrc_evset_eligible(&cand[i]))
			continue;
		key = mrc_evset_key(base, cand[i].path_id, cand[i].weight, i);
		if (n < k) {
			h[n] = key;
			mrc_evset_sift_up(h, n++);
		} else if (mrc_evset_key_less(key, h[0])) {
			h[0] = key;
			mrc_evset_sift_down(h, k, 0, mrc_evset_key_less);
		}
	}
}

/*
 * Max-min fair shares of @slots (< the eligible total) over the planes
 * with candidates (@count per plane), the remainder to random planes.
 */
static void mrc_evset_shares(const u32 *count, u32 slots, struct mrc_prng *r,
			     u32 *share)
{
	u32 ord[MRC_EVSET_PLANES], np = 0, i, j, left, each, extra, t;

	for (i = 0; i < MRC_EVSET_PLANES; i++) {
		share[i] = 0;
		if (!count[i])
			continue;
		/* Insertion by count, ascending (then plane id). */
		for (j = np++; j > 0 && count[ord[j - 1]] > count[i]; j--)
			ord[j] = ord[j - 1];
		ord[j] = i;
	}
	/* Planes that fit their fair share take all they have. */
	for (i = 0; i < np; i++) {
		left = np - i;
		if (count[ord[i]] > slots / left)
			break;
		share[ord[i]] = count[ord[i]];
		slots -= count[ord[i]];
	}
	if (i == np)
		return;
	/* The others each have more than slots / left: they share evenly. */
	left = np - i;
	each = slots / left;
	extra = slots % left;
	for (j = i; j < np; j++)
		share[ord[j]] = each;
	/* The slots left over go one each to planes drawn at random. */
	for (j = 0; j < extra; j++) {
		t = i + j + mrc_prng_below(r, left - j);
		share[ord[t]]++;
		ord[t] = ord[i + j];
	}
}

int mrc_evset_select(const struct mrc_evset_cand *cand, u32 ncand, u32 slots,
		     u64 seed, u64 *sel)
{
	u32 count[MRC_EVSET_PLANES] = { 0 }, share[MRC_EVSET_PLANES];
	u32 i, total = 0, n = 0, plane;
	struct mrc_prng r;
	u64 base;

	if (ncand > MRC_EVSET_CANDS_MAX)
		return -EINVAL;
	for (i = 0; i < ncand; i++) {
		if (!mrc_evset_eligible(&cand[i]))
			continue;
		count[cand[i].plane]++;
		total++;
	}
	if (total <= slots) {
		for (i = 0; i < ncand; i++)
			if (mrc_evset_eligible(&cand[i]))
				sel[n++] = i;
		return n;
	}

	mrc_prng_seed(&r, seed ^ MRC_EVSET_SALT);
	base = mrc_prng_next(&r);
	mrc_evset_shares(count, slots, &r, share);
	for (plane = 0; plane < MRC_EVSET_PLANES; plane++) {
		if (!share[plane])
			continue;
		if (share[plane] == count[plane]) {
			for (i = 0; i < ncand; i++)
				if (cand[i].plane == plane &&
				    mrc_evset_eligible(&cand[i]))
					sel[n++] = i;
			continue;
		}
		mrc_evset_sample_plane(cand, ncand, plane, share[plane], base,
				       &sel[n]);
		n += share[plane];
	}
	for (i = 0; i < n; i++)
		sel[i] &= MRC_EVSET_IDX_MASK;
	mrc_evset_sort(sel, n);
	return n;
}
