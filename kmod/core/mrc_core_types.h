/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Type shim of the portable MRC protocol core.
 *
 * The files of kmod/core/ are built twice: into mrc.ko (with __KERNEL__)
 * and into the userspace library libmrccore for unit tests, fuzzers and
 * the simulator. This header is the only place that knows which: the rest
 * of the core uses kernel-style fixed-width types, bool, and the few
 * string helpers below, and never allocates, sleeps, reads a clock or
 * touches global state. Time is always a parameter (nanoseconds, u64).
 */
#ifndef _MRC_CORE_TYPES_H
#define _MRC_CORE_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/errno.h>
#include <linux/bits.h>
#include <linux/minmax.h>
#include <linux/math64.h>

static inline u64 mrc_div64(u64 a, u64 b)
{
	return div64_u64(a, b);
}
#else
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <errno.h>
#include <linux/types.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

/*
 * Like the kernel's: each argument evaluated once. Not for C++ (the unit
 * tests), where they would break std::min; core headers that C++ includes
 * must not use them in inline functions.
 */
#ifndef __cplusplus
#ifndef min
#define min(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
		     _a < _b ? _a : _b; })
#endif
#ifndef max
#define max(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
		     _a > _b ? _a : _b; })
#endif
#ifndef clamp
#define clamp(v, lo, hi) ({ __typeof__(v) _v = (v); \
	__typeof__(lo) _lo = (lo); __typeof__(hi) _hi = (hi); \
	_v < _lo ? _lo : (_v > _hi ? _hi : _v); })
#endif
#ifndef min_t
#define min_t(type, a, b) min((type)(a), (type)(b))
#endif
#ifndef max_t
#define max_t(type, a, b) max((type)(a), (type)(b))
#endif
#endif /* !__cplusplus */
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#ifndef BIT
#define BIT(n) (1UL << (n))
#endif
#ifndef BIT_ULL
#define BIT_ULL(n) (1ULL << (n))
#endif
#ifndef U16_MAX
#define U16_MAX ((u16)~0U)
#endif
#ifndef U32_MAX
#define U32_MAX ((u32)~0U)
#endif
#ifndef U64_MAX
#define U64_MAX ((u64)~0ULL)
#endif

static inline u64 mrc_div64(u64 a, u64 b)
{
	return a / b;
}
#endif /* __KERNEL__ */

/* Nanoseconds; the core never reads a clock itself. */
typedef u64 mrc_time_t;

#define MRC_NSEC_PER_USEC	1000ULL
#define MRC_NSEC_PER_MSEC	1000000ULL
#define MRC_NSEC_PER_SEC	1000000000ULL

/* Byte-order helpers on raw buffers: the wire code never casts packets. */
static inline u16 mrc_get_be16(const u8 *p)
{
	return (u16)((p[0] << 8) | p[1]);
}

static inline u32 mrc_get_be24(const u8 *p)
{
	return ((u32)p[0] << 16) | ((u32)p[1] << 8) | p[2];
}

static inline u32 mrc_get_be32(const u8 *p)
{
	return ((u32)p[0] << 24) | ((u32)p[1] << 16) | ((u32)p[2] << 8) | p[3];
}

static inline u64 mrc_get_be64(const u8 *p)
{
	return ((u64)mrc_get_be32(p) << 32) | mrc_get_be32(p + 4);
}

static inline void mrc_put_be16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static inline void mrc_put_be24(u8 *p, u32 v)
{
	p[0] = v >> 16;
	p[1] = v >> 8;
	p[2] = v;
}

static inline void mrc_put_be32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline void mrc_put_be64(u8 *p, u64 v)
{
	mrc_put_be32(p, v >> 32);
	mrc_put_be32(p + 4, (u32)v);
}

#endif /* _MRC_CORE_TYPES_H */
