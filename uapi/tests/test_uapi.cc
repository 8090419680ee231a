// SPDX-License-Identifier: GPL-2.0
// The uapi header compiled as C++, compared with the C view of it.
#include <cstddef>
#include <string_view>

#include <gtest/gtest.h>
#include <linux/mrc.h>

extern "C" int uapi_c_af_default(void);
extern "C" unsigned int uapi_c_sockaddr_size(void);

TEST(Uapi, CAndCppAgreeOnTheAbi)
{
	EXPECT_EQ(uapi_c_af_default(), AF_MRC);
	EXPECT_EQ(uapi_c_sockaddr_size(), sizeof(sockaddr_mrc));
	EXPECT_EQ(sizeof(sockaddr_mrc), sizeof(sockaddr_in6));
	EXPECT_EQ(offsetof(sockaddr_mrc, smrc_addr), offsetof(sockaddr_in6, sin6_addr));
}

TEST(Uapi, PublishedConstants)
{
	// These numbers are ABI: changing them breaks deployed programs.
	EXPECT_EQ(MRC_AF_DEFAULT, 25);
	EXPECT_EQ(MRC_UDP_PORT_DEFAULT, 4791);
	EXPECT_EQ(std::string_view(MRC_GENL_NAME), "mrc");
	EXPECT_EQ(std::string_view(MRC_GENL_MCGRP_EVENTS), "events");
	EXPECT_EQ(MRC_CMD_INFO_GET, 1);
	EXPECT_EQ(MRC_A_INFO_VERSION, 2);
	EXPECT_EQ(MRC_PATH_GOOD, 0);
	EXPECT_EQ(MRC_FWD_ENTROPY, 0);
}
