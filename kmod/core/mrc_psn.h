/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 24-bit packet sequence number (PSN) arithmetic.
 *
 * PSNs live in a circle of 2^24 values. Two PSNs compare by their signed
 * distance: a is before b when b - a (mod 2^24) lies in the half circle
 * ahead of a. Every window the protocol uses (MPR, sender ring) is far
 * smaller than half the circle, so the comparison is unambiguous wherever
 * the core uses it.
 */
#ifndef _MRC_PSN_H
#define _MRC_PSN_H

#include "mrc_core_types.h"

/** MRC_PSN_BITS - width of a PSN on the wire. */
#define MRC_PSN_BITS	24
/** MRC_PSN_MASK - mask of a valid PSN. */
#define MRC_PSN_MASK	0xffffffU
/** MRC_PSN_HALF - half the PSN circle: larger distances read as negative. */
#define MRC_PSN_HALF	0x800000U

/**
 * mrc_psn_valid() - does a value fit in 24 bits?
 * @psn: value to check.
 *
 * Return: true if @psn is a valid PSN.
 */
static inline bool mrc_psn_valid(u32 psn)
{
	return psn <= MRC_PSN_MASK;
}

/**
 * mrc_psn_add() - advance a PSN.
 * @psn: starting PSN.
 * @n: how far to advance (any u32; taken modulo 2^24).
 *
 * Return: (@psn + @n) mod 2^24.
 */
static inline u32 mrc_psn_add(u32 psn, u32 n)
{
	return (psn + n) & MRC_PSN_MASK;
}

/**
 * mrc_psn_sub() - forward distance from one PSN to another.
 * @a: later PSN.
 * @b: earlier PSN.
 *
 * Return: (@a - @b) mod 2^24, in [0, 2^24).
 */
static inline u32 mrc_psn_sub(u32 a, u32 b)
{
	return (a - b) & MRC_PSN_MASK;
}

/**
 * mrc_psn_diff() - signed distance between two PSNs.
 * @a: first PSN.
 * @b: second PSN.
 *
 * Return: @a - @b as a signed value in [-2^23, 2^23).
 */
static inline s32 mrc_psn_diff(u32 a, u32 b)
{
	u32 d = mrc_psn_sub(a, b);

	return d >= MRC_PSN_HALF ? (s32)d - (s32)(MRC_PSN_MASK + 1) : (s32)d;
}

/**
 * mrc_psn_before() - is @a strictly before @b?
 * @a: first PSN.
 * @b: second PSN.
 *
 * Return: true if @a precedes @b on the circle.
 */
static inline bool mrc_psn_before(u32 a, u32 b)
{
	return mrc_psn_diff(a, b) < 0;
}

/**
 * mrc_psn_after() - is @a strictly after @b?
 * @a: first PSN.
 * @b: second PSN.
 *
 * Return: true if @a follows @b on the circle.
 */
static inline bool mrc_psn_after(u32 a, u32 b)
{
	return mrc_psn_diff(a, b) > 0;
}

/**
 * mrc_psn_before_eq() - is @a before or equal to @b?
 * @a: first PSN.
 * @b: second PSN.
 *
 * Return: true if @a does not follow @b.
 */
static inline bool mrc_psn_before_eq(u32 a, u32 b)
{
	return mrc_psn_diff(a, b) <= 0;
}

/**
 * mrc_psn_after_eq() - is @a after or equal to @b?
 * @a: first PSN.
 * @b: second PSN.
 *
 * Return: true if @a does not precede @b.
 */
static inline bool mrc_psn_after_eq(u32 a, u32 b)
{
	return mrc_psn_diff(a, b) >= 0;
}

/**
 * mrc_psn_between() - is @psn in the half-open range [@lo, @hi)?
 * @psn: PSN to test.
 * @lo: first PSN of the range.
 * @hi: first PSN past the range; @lo == @hi is the empty range.
 *
 * Works across the wrap at 0xffffff; the range may be up to 2^24 - 1 long.
 *
 * Return: true if @psn lies in the range.
 */
static inline bool mrc_psn_between(u32 psn, u32 lo, u32 hi)
{
	return mrc_psn_sub(psn, lo) < mrc_psn_sub(hi, lo);
}

/**
 * mrc_psn_in_window() - is @psn in the window of @n PSNs starting at @lo?
 * @psn: PSN to test.
 * @lo: first PSN of the window.
 * @n: window length in PSNs.
 *
 * Return: true if 0 <= @psn - @lo < @n (mod 2^24).
 */
static inline bool mrc_psn_in_window(u32 psn, u32 lo, u32 n)
{
	return mrc_psn_sub(psn, lo) < n;
}

/**
 * mrc_psn_max() - the later of two PSNs.
 * @a: first PSN.
 * @b: second PSN.
 *
 * Return: @b if it follows @a, else @a.
 */
static inline u32 mrc_psn_max(u32 a, u32 b)
{
	return mrc_psn_after(b, a) ? b : a;
}

/**
 * mrc_psn_min() - the earlier of two PSNs.
 * @a: first PSN.
 * @b: second PSN.
 *
 * Return: @b if it precedes @a, else @a.
 */
static inline u32 mrc_psn_min(u32 a, u32 b)
{
	return mrc_psn_before(b, a) ? b : a;
}

#endif /* _MRC_PSN_H */
