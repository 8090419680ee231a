// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: parsing of kernel replies and errors, without a kernel.
#include <mrc/netlink.hpp>
#include <mrc/socket.hpp>

#include <cstring>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>
#include <linux/genetlink.h>
#include <linux/mrc.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

namespace {

// Append one TLV to a raw netlink buffer.
void put_tlv(std::vector<uint8_t> &buf, uint16_t type, const void *data, size_t len)
{
	nlattr a{static_cast<uint16_t>(NLA_HDRLEN + len), type};
	size_t off = buf.size();
	buf.resize(off + NLA_ALIGN(a.nla_len), 0);
	std::memcpy(buf.data() + off, &a, sizeof(a));
	std::memcpy(buf.data() + off + NLA_HDRLEN, data, len);
}

// An NLMSG_ERROR as the kernel sends it with NETLINK_EXT_ACK|CAP_ACK.
std::vector<uint8_t> error_msg(int err, const char *text, std::optional<uint32_t> offs,
			       std::optional<uint32_t> miss, bool capped = true)
{
	std::vector<uint8_t> buf(NLMSG_HDRLEN + sizeof(nlmsgerr), 0);
	nlmsgerr e{};
	e.error = -err;
	e.msg.nlmsg_len = sizeof(nlmsghdr);
	std::memcpy(buf.data() + NLMSG_HDRLEN, &e, sizeof(e));
	if (text)
		put_tlv(buf, NLMSGERR_ATTR_MSG, text, std::strlen(text) + 1);
	if (offs)
		put_tlv(buf, NLMSGERR_ATTR_OFFS, &*offs, 4);
	if (miss)
		put_tlv(buf, NLMSGERR_ATTR_MISS_TYPE, &*miss, 4);
	nlmsghdr h{};
	h.nlmsg_len = buf.size();
	h.nlmsg_type = NLMSG_ERROR;
	h.nlmsg_flags = (capped ? NLM_F_CAPPED : 0) | ((text || offs || miss) ? NLM_F_ACK_TLVS : 0);
	std::memcpy(buf.data(), &h, sizeof(h));
	return buf;
}

const nlmsghdr *hdr(const std::vector<uint8_t> &b)
{
	return reinterpret_cast<const nlmsghdr *>(b.data());
}

TEST(ExtAck, ParsesMessageOffsetAndMissingType)
{
	auto b = error_msg(EINVAL, "Unsupported attribute", 20u, 3u);
	auto ack = mrc::parse_extack(hdr(b), b.size());
	EXPECT_EQ(ack.message, "Unsupported attribute");
	ASSERT_TRUE(ack.offset);
	EXPECT_EQ(*ack.offset, 20u);
	ASSERT_TRUE(ack.missing_type);
	EXPECT_EQ(*ack.missing_type, 3u);
}

TEST(ExtAck, NoTlvsMeansEmpty)
{
	auto b = error_msg(EPERM, nullptr, std::nullopt, std::nullopt);
	auto ack = mrc::parse_extack(hdr(b), b.size());
	EXPECT_TRUE(ack.message.empty());
	EXPECT_FALSE(ack.offset);
}

TEST(ExtAck, TruncatedInputIsIgnoredNotOverread)
{
	auto b = error_msg(EINVAL, "some message", 20u, std::nullopt);
	for (size_t len = 0; len < b.size(); len++) {
		std::vector<uint8_t> cut(b.begin(), b.begin() + len);
		cut.resize(std::max(cut.size(), sizeof(nlmsghdr)), 0);
		// Length field still claims the full size: must be rejected.
		auto ack = mrc::parse_extack(hdr(cut), len);
		EXPECT_TRUE(ack.message.empty()) << len;
	}
}

TEST(ExtAck, CorruptAttributeLengthStopsParsing)
{
	auto b = error_msg(EINVAL, "x", std::nullopt, std::nullopt);
	// Corrupt the TLV length to run past the message.
	nlattr a;
	std::memcpy(&a, b.data() + NLMSG_HDRLEN + sizeof(nlmsgerr), sizeof(a));
	a.nla_len = 200;
	std::memcpy(b.data() + NLMSG_HDRLEN + sizeof(nlmsgerr), &a, sizeof(a));
	auto ack = mrc::parse_extack(hdr(b), b.size());
	EXPECT_TRUE(ack.message.empty());
}

TEST(ExtAck, UncappedSkipsTheEchoedRequest)
{
	// Uncapped: the error carries the whole original request (here a bare
	// header plus 8 bytes of payload) before the TLVs.
	std::vector<uint8_t> buf(NLMSG_HDRLEN + sizeof(nlmsgerr) + 8, 0);
	nlmsgerr e{};
	e.error = -EINVAL;
	e.msg.nlmsg_len = sizeof(nlmsghdr) + 8;
	std::memcpy(buf.data() + NLMSG_HDRLEN, &e, sizeof(e));
	put_tlv(buf, NLMSGERR_ATTR_MSG, "bad", 4);
	nlmsghdr h{};
	h.nlmsg_len = buf.size();
	h.nlmsg_type = NLMSG_ERROR;
	h.nlmsg_flags = NLM_F_ACK_TLVS;
	std::memcpy(buf.data(), &h, sizeof(h));
	EXPECT_EQ(mrc::parse_extack(hdr(buf), buf.size()).message, "bad");
}

// The NLMSG_DONE that ends a dump: its errno, and the extack TLVs after it
// when the kernel gave a message.
std::vector<uint8_t> done_msg(int err, const char *text)
{
	std::vector<uint8_t> buf(NLMSG_HDRLEN + sizeof(int), 0);
	int e = -err;
	std::memcpy(buf.data() + NLMSG_HDRLEN, &e, sizeof(e));
	if (text)
		put_tlv(buf, NLMSGERR_ATTR_MSG, text, std::strlen(text) + 1);
	nlmsghdr h{};
	h.nlmsg_len = buf.size();
	h.nlmsg_type = NLMSG_DONE;
	h.nlmsg_flags = NLM_F_MULTI | (text ? NLM_F_ACK_TLVS : 0);
	std::memcpy(buf.data(), &h, sizeof(h));
	return buf;
}

TEST(DumpDone, CompleteDumpIsNoError)
{
	auto b = done_msg(0, nullptr);
	EXPECT_EQ(mrc::done_error(hdr(b), b.size()), 0);
	EXPECT_TRUE(mrc::parse_extack(hdr(b), b.size()).message.empty());
}

TEST(DumpDone, FailedDumpGivesItsErrnoAndMessage)
{
	auto b = done_msg(EMSGSIZE, "a connection grew too wide");
	EXPECT_EQ(mrc::done_error(hdr(b), b.size()), EMSGSIZE);
	auto ack = mrc::parse_extack(hdr(b), b.size());
	EXPECT_EQ(ack.message, "a connection grew too wide");
	EXPECT_FALSE(ack.offset);
	EXPECT_EQ(mrc::describe_error("conn show", EMSGSIZE, ack, {}),
		  "conn show: a connection grew too wide [Message too long]");
}

TEST(DumpDone, OtherMessagesAndTruncationAreNoError)
{
	auto e = error_msg(EINVAL, "x", std::nullopt, std::nullopt);
	EXPECT_EQ(mrc::done_error(hdr(e), e.size()), 0);
	auto b = done_msg(EMSGSIZE, "some message");
	for (size_t len = 0; len < NLMSG_HDRLEN + sizeof(int); len++) {
		std::vector<uint8_t> cut(b.begin(), b.begin() + len);
		cut.resize(std::max(cut.size(), sizeof(nlmsghdr)), 0);
		EXPECT_EQ(mrc::done_error(hdr(cut), len), 0) << len;
	}
	for (size_t len = 0; len < b.size(); len++) {
		std::vector<uint8_t> cut(b.begin(), b.begin() + len);
		cut.resize(std::max(cut.size(), sizeof(nlmsghdr)), 0);
		EXPECT_TRUE(mrc::parse_extack(hdr(cut), len).message.empty()) << len;
	}
}

TEST(Errors, FormatNamesTheAttributeAndErrno)
{
	mrc::ExtAck ack;
	ack.message = "Unsupported attribute";
	auto s = mrc::format_error("info", EINVAL, ack, MRC_A_INFO_AF);
	EXPECT_EQ(s, "info: Unsupported attribute (MRC_A_INFO_AF) [Invalid argument]");
	EXPECT_EQ(mrc::format_error("info", EPERM, {}, std::nullopt),
		  "info: Operation not permitted");
	ack = {};
	ack.missing_type = MRC_A_INFO_UDP_PORT;
	EXPECT_EQ(mrc::format_error("x", EINVAL, ack, std::nullopt),
		  "x: Invalid argument (missing MRC_A_INFO_UDP_PORT)");
}

TEST(Errors, AttrNamesCoverTheEnum)
{
	for (uint32_t t = 0; t < __MRC_A_MAX; t++)
		EXPECT_EQ(mrc::attr_name(t).rfind("MRC_A_", 0), 0u) << t;
	EXPECT_EQ(mrc::attr_name(9999), "attribute 9999");
}

TEST(Errors, AttrAtOffsetFindsTheRightAttribute)
{
	std::vector<uint8_t> req(NLMSG_HDRLEN + GENL_HDRLEN, 0);
	uint32_t v = 25;
	put_tlv(req, MRC_A_INFO_AF, &v, 4);       // at 20..27
	put_tlv(req, MRC_A_INFO_UDP_PORT, &v, 2); // at 28..35
	EXPECT_EQ(mrc::attr_at_offset(req, 20), MRC_A_INFO_AF);
	EXPECT_EQ(mrc::attr_at_offset(req, 28), MRC_A_INFO_UDP_PORT);
	EXPECT_EQ(mrc::attr_at_offset(req, 31), MRC_A_INFO_UDP_PORT);
	EXPECT_FALSE(mrc::attr_at_offset(req, 4));
	EXPECT_FALSE(mrc::attr_at_offset(req, 400));
}

TEST(Info, ParsesAReplyBuiltWithLibnl)
{
	nl_msg *m = nlmsg_alloc();
	ASSERT_NE(m, nullptr);
	ASSERT_NE(genlmsg_put(m, 0, 0, 42, 0, 0, MRC_CMD_INFO_GET, 1), nullptr);
	nla_put_string(m, MRC_A_INFO_VERSION, "1.2.3");
	nla_put_u32(m, MRC_A_INFO_AF, 25);
	nla_put_u16(m, MRC_A_INFO_UDP_PORT, 4791);
	nla_put_u64(m, MRC_A_INFO_NETNS_COOKIE, 77);
	nla_put_u32(m, MRC_A_INFO_IPPROTO, 261);
	nlattr *tb[MRC_A_MAX + 1] = {};
	ASSERT_EQ(genlmsg_parse(nlmsg_hdr(m), 0, tb, MRC_A_MAX, nullptr), 0);
	auto info = mrc::parse_info(tb);
	EXPECT_EQ(info.version, "1.2.3");
	EXPECT_EQ(info.af, 25u);
	EXPECT_EQ(info.ipproto, 261u);
	EXPECT_EQ(info.udp_port, 4791);
	EXPECT_EQ(info.netns_cookie, 77u);
	nlmsg_free(m);
}

TEST(Socket, ParsesTheAfParameter)
{
	EXPECT_EQ(mrc::parse_af_param("25\n"), 25);
	EXPECT_EQ(mrc::parse_af_param("40"), 40);
	EXPECT_EQ(mrc::parse_af_param(""), -1);
	EXPECT_EQ(mrc::parse_af_param("x25"), -1);
	EXPECT_EQ(mrc::parse_af_param("0"), -1);
	EXPECT_EQ(mrc::parse_af_param("-3"), -1);
}

TEST(Socket, WithoutTheModuleTheUapiDefaults)
{
	// Where the module is loaded its parameters answer (the VM tests).
	if (access("/sys/module/mrc", F_OK) == 0)
		GTEST_SKIP() << "mrc.ko is loaded";
	EXPECT_EQ(mrc::af_mrc(), MRC_AF_DEFAULT);
	EXPECT_EQ(mrc::ipproto_mrc(), MRC_IPPROTO_DEFAULT);
}

} // namespace
