// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: the verified-byte pattern of test transfers.
#include <mrc/pattern.hpp>

namespace mrc {

// Both walk the stream a word at a time: one splitmix64 per 8 bytes, so
// a verifying receiver in the emulated VM spends little on the pattern.
void Pattern::fill(uint64_t off, void *buf, size_t len) const noexcept
{
	auto *p = static_cast<uint8_t *>(buf);
	size_t i = 0;
	while (i < len) {
		uint64_t w = word(seed_, (off + i) / 8);
		for (unsigned b = (off + i) % 8; b < 8 && i < len; b++, i++)
			p[i] = static_cast<uint8_t>(w >> (8 * b));
	}
}

size_t Pattern::mismatch(uint64_t off, const void *buf, size_t len) const noexcept
{
	const auto *p = static_cast<const uint8_t *>(buf);
	size_t i = 0;
	while (i < len) {
		uint64_t w = word(seed_, (off + i) / 8);
		for (unsigned b = (off + i) % 8; b < 8 && i < len; b++, i++)
			if (p[i] != static_cast<uint8_t>(w >> (8 * b)))
				return i;
	}
	return len;
}

} // namespace mrc
