// SPDX-License-Identifier: GPL-2.0
// Unit tests of the 24-bit PSN arithmetic (mrc_psn.h).
#include <gtest/gtest.h>

extern "C" {
#include "mrc_psn.h"
}

namespace {

TEST(Psn, AddWrapsAt24Bits)
{
	EXPECT_EQ(mrc_psn_add(0, 1), 1u);
	EXPECT_EQ(mrc_psn_add(0xffffff, 1), 0u);
	EXPECT_EQ(mrc_psn_add(0xfffffe, 5), 3u);
	EXPECT_EQ(mrc_psn_add(5, 0xffffff), 4u); // adding -1
	EXPECT_EQ(mrc_psn_add(0, 0x1000000), 0u);
}

TEST(Psn, SubIsForwardDistance)
{
	EXPECT_EQ(mrc_psn_sub(5, 3), 2u);
	EXPECT_EQ(mrc_psn_sub(2, 0xfffffe), 4u);
	EXPECT_EQ(mrc_psn_sub(3, 5), 0xfffffeu);
	EXPECT_EQ(mrc_psn_sub(7, 7), 0u);
}

TEST(Psn, DiffIsSigned)
{
	EXPECT_EQ(mrc_psn_diff(5, 3), 2);
	EXPECT_EQ(mrc_psn_diff(3, 5), -2);
	EXPECT_EQ(mrc_psn_diff(1, 0xffffff), 2);
	EXPECT_EQ(mrc_psn_diff(0xffffff, 1), -2);
	EXPECT_EQ(mrc_psn_diff(0x7fffff, 0), 0x7fffff);
	EXPECT_EQ(mrc_psn_diff(0x800000, 0), -0x800000);
	EXPECT_EQ(mrc_psn_diff(0, 0x800000), -0x800000);
}

TEST(Psn, OrderAcrossWrap)
{
	EXPECT_TRUE(mrc_psn_before(0xffffff, 0));
	EXPECT_TRUE(mrc_psn_after(0, 0xffffff));
	EXPECT_FALSE(mrc_psn_before(0, 0xffffff));
	EXPECT_FALSE(mrc_psn_before(4, 4));
	EXPECT_FALSE(mrc_psn_after(4, 4));
	EXPECT_TRUE(mrc_psn_before_eq(4, 4));
	EXPECT_TRUE(mrc_psn_after_eq(4, 4));
	EXPECT_TRUE(mrc_psn_before_eq(0xfffff0, 0x10));
	EXPECT_TRUE(mrc_psn_after_eq(0x10, 0xfffff0));
	EXPECT_FALSE(mrc_psn_after_eq(0xfffff0, 0x10));
}

TEST(Psn, BetweenHalfOpen)
{
	EXPECT_TRUE(mrc_psn_between(0xfffffe, 0xfffffe, 2));
	EXPECT_TRUE(mrc_psn_between(0xffffff, 0xfffffe, 2));
	EXPECT_TRUE(mrc_psn_between(0, 0xfffffe, 2));
	EXPECT_TRUE(mrc_psn_between(1, 0xfffffe, 2));
	EXPECT_FALSE(mrc_psn_between(2, 0xfffffe, 2));
	EXPECT_FALSE(mrc_psn_between(0xfffffd, 0xfffffe, 2));
	EXPECT_FALSE(mrc_psn_between(5, 5, 5)); // empty range
}

TEST(Psn, InWindow)
{
	EXPECT_TRUE(mrc_psn_in_window(0xffffff, 0xffff00, 0x100));
	EXPECT_FALSE(mrc_psn_in_window(0, 0xffff00, 0x100));
	EXPECT_TRUE(mrc_psn_in_window(0, 0xffff00, 0x101));
	EXPECT_FALSE(mrc_psn_in_window(0xfffeff, 0xffff00, 0x100));
	EXPECT_FALSE(mrc_psn_in_window(3, 3, 0));
}

TEST(Psn, MinMaxAndValid)
{
	EXPECT_EQ(mrc_psn_max(0xffffff, 2), 2u);
	EXPECT_EQ(mrc_psn_max(2, 0xffffff), 2u);
	EXPECT_EQ(mrc_psn_min(0xffffff, 2), 0xffffffu);
	EXPECT_EQ(mrc_psn_min(2, 0xffffff), 0xffffffu);
	EXPECT_TRUE(mrc_psn_valid(0xffffff));
	EXPECT_FALSE(mrc_psn_valid(0x1000000));
	EXPECT_FALSE(mrc_psn_valid(0xffffffff));
}

TEST(Psn, ExhaustiveNeighbourhoodOfWrap)
{
	for (u32 a = 0xfffff0; a != 0x10; a = mrc_psn_add(a, 1)) {
		for (u32 k = 1; k < 64; k++) {
			u32 b = mrc_psn_add(a, k);

			EXPECT_TRUE(mrc_psn_before(a, b));
			EXPECT_TRUE(mrc_psn_after(b, a));
			EXPECT_EQ(mrc_psn_diff(b, a), (s32)k);
			EXPECT_EQ(mrc_psn_sub(b, a), k);
			EXPECT_TRUE(mrc_psn_between(a, a, b));
			EXPECT_FALSE(mrc_psn_between(b, a, b));
		}
	}
}

} // namespace
