// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: the verified-byte pattern of test transfers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mrc {

/// The deterministic byte stream that test transfers carry and check
/// (mrc-perf, mrc_stress, mrc_sockapi): byte @off of the stream of a seed
/// is byte (off % 8) of word off / 8, and word i is splitmix64 of
/// seed + (i + 1) x the golden ratio. Every byte depends only on the seed
/// and its offset, so both ends regenerate it however the bytes are cut,
/// and a lost, duplicated, reordered or corrupted byte shows at its
/// offset.
class Pattern {
public:
	explicit Pattern(uint64_t seed) noexcept : seed_(seed) {}

	uint64_t seed() const noexcept { return seed_; }

	/// Word @idx of the stream (bytes 8 x idx .. 8 x idx + 7).
	static uint64_t word(uint64_t seed, uint64_t idx) noexcept
	{
		uint64_t z = seed + (idx + 1) * 0x9e3779b97f4a7c15ULL;
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		return z ^ (z >> 31);
	}

	/// Byte @off of the stream.
	uint8_t at(uint64_t off) const noexcept
	{
		return static_cast<uint8_t>(word(seed_, off / 8) >> (8 * (off % 8)));
	}

	/// Write bytes @off .. @off + @len of the stream to @buf.
	void fill(uint64_t off, void *buf, size_t len) const noexcept;

	/// The index in @buf of the first of its @len bytes that is not the
	/// stream's from @off on; @len when all are.
	size_t mismatch(uint64_t off, const void *buf, size_t len) const noexcept;

	/// True when @buf holds bytes @off .. @off + @len of the stream.
	bool matches(uint64_t off, const void *buf, size_t len) const noexcept
	{
		return mismatch(off, buf, len) == len;
	}

private:
	uint64_t seed_;
};

} // namespace mrc
