// SPDX-License-Identifier: LGPL-2.1-or-later
// The verified-byte pattern of test transfers (mrc/pattern.hpp).
#include <mrc/pattern.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace {

TEST(Pattern, FirstWordIsSplitmix64OfTheSeed)
{
	// splitmix64's first output for state 0 (Vigna's reference code).
	EXPECT_EQ(mrc::Pattern::word(0, 0), 0xe220a8397b1dcdafULL);
	mrc::Pattern p(0);
	for (unsigned b = 0; b < 8; b++)
		EXPECT_EQ(p.at(b), static_cast<uint8_t>(0xe220a8397b1dcdafULL >> (8 * b)));
}

TEST(Pattern, FillIsTheSameHoweverTheBytesAreCut)
{
	mrc::Pattern p(42);
	std::vector<uint8_t> whole(1000);
	p.fill(3, whole.data(), whole.size());
	for (size_t i = 0; i < whole.size(); i++)
		ASSERT_EQ(whole[i], p.at(3 + i)) << i;
	// Pieces of every length from every alignment.
	for (size_t cut = 1; cut < 20; cut++) {
		std::vector<uint8_t> pieces(whole.size());
		for (size_t off = 0; off < pieces.size(); off += cut) {
			size_t n = std::min(cut, pieces.size() - off);
			p.fill(3 + off, pieces.data() + off, n);
		}
		EXPECT_EQ(pieces, whole) << cut;
	}
}

TEST(Pattern, SeedsGiveDifferentStreams)
{
	std::vector<uint8_t> a(64), b(64);
	mrc::Pattern(1).fill(0, a.data(), a.size());
	mrc::Pattern(2).fill(0, b.data(), b.size());
	EXPECT_NE(a, b);
}

TEST(Pattern, MismatchNamesTheFirstWrongByte)
{
	mrc::Pattern p(7);
	std::vector<uint8_t> v(100);
	p.fill(5, v.data(), v.size());
	EXPECT_EQ(p.mismatch(5, v.data(), v.size()), v.size());
	EXPECT_TRUE(p.matches(5, v.data(), v.size()));
	EXPECT_EQ(p.mismatch(5, v.data(), 0), 0u);
	v[37] ^= 1;
	EXPECT_EQ(p.mismatch(5, v.data(), v.size()), 37u);
	EXPECT_FALSE(p.matches(5, v.data(), v.size()));
	v[37] ^= 1;
	// The right bytes at the wrong offset (a duplicated or lost byte).
	EXPECT_LT(p.mismatch(6, v.data(), v.size()), v.size());
}

} // namespace
