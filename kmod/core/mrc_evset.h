/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which of the configured paths to a peer a connection takes, when there
 * are more of them than its EV set has slots (the namespace's max-ev-set
 * setting, the policy's max_paths): the hardware way, an equal share of
 * the slots per plane and a random subset within a plane, different for
 * every connection, so that many connections to one peer spread over
 * every path and no plane is ever left out. Documentation/object-model.md,
 * "Candidate selection", describes the rules; mrc_path_build() then turns
 * the chosen paths into EVs.
 *
 * Plain C, no allocation: deterministic given the candidates, the number
 * of slots and the seed.
 */
#ifndef _MRC_EVSET_H
#define _MRC_EVSET_H

#include "mrc_core_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Planes are numbered 0..31, as MRC_PLANE_MAX of the uapi says. */
#define MRC_EVSET_PLANES	32
/* Most candidates one call takes (an index fits 24 bits of a slot). */
#define MRC_EVSET_CANDS_MAX	BIT(24)

/**
 * struct mrc_evset_cand - a configured path offered to mrc_evset_select().
 * @path_id: configured path id (makes the path's random draw: the same
 *	path gets the same draw from the same seed wherever it is listed).
 * @plane: plane id, 0..MRC_EVSET_PLANES - 1; a path on another plane is
 *	never chosen.
 * @weight: the path's relative chance of being chosen when its plane has
 *	more paths than slots (1..255 as configured); 0: chosen only when
 *	the plane's share cannot be filled with paths of nonzero weight.
 * @deny: never chosen and not counted (a denied path is no path).
 */
struct mrc_evset_cand {
	u32 path_id;
	u32 plane;
	u8 weight;
	bool deny;
};

/**
 * mrc_evset_select() - choose the paths of a connection's EV set.
 * @cand: the candidates, in the order the result should keep (the kernel
 *	lists them by plane, then path id).
 * @ncand: entries of @cand, at most MRC_EVSET_CANDS_MAX.
 * @slots: how many paths the set may hold.
 * @seed: the connection's random seed.
 * @sel: @slots entries: the result, also the function's scratch.
 *
 * When every eligible candidate (not denied, on a plane 0..31) fits, all
 * are chosen. Otherwise each plane with candidates gets an equal share of
 * @slots, max-min fair: a plane with fewer candidates than its share takes
 * them all and leaves the rest to the others, and the slots that do not
 * divide evenly go one each to planes drawn at random (so with fewer slots
 * than planes, a random subset of planes gets one path each; with at least
 * as many slots as planes, every plane gets at least one). Within a plane
 * with more candidates than its share, the share is a weighted random
 * sample without replacement (each path's chance proportional to its
 * @weight, Efraimidis-Spirakis with exponential keys in fixed point).
 * Everything random comes from @seed alone.
 *
 * Return: the number of paths chosen, n (min(@slots, eligible
 * candidates)); @sel[0..n-1] are their indices into @cand in increasing
 * order. -EINVAL if @ncand is too large.
 */
int mrc_evset_select(const struct mrc_evset_cand *cand, u32 ncand, u32 slots,
		     u64 seed, u64 *sel);

#ifdef __cplusplus
}
#endif

#endif /* _MRC_EVSET_H */
