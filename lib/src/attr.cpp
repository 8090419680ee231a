// SPDX-License-Identifier: LGPL-2.1-or-later
#include <mrc/attr.hpp>
#include <mrc/error.hpp>

#include <cerrno>
#include <cstring>

#include <linux/netlink.h>

namespace mrc {

AttrWriter &AttrWriter::put(uint16_t type, const void *data, size_t len)
{
	nlattr a{static_cast<uint16_t>(NLA_HDRLEN + len), type};
	size_t off = buf_.size();
	buf_.resize(off + NLA_ALIGN(a.nla_len), 0);
	std::memcpy(buf_.data() + off, &a, sizeof(a));
	if (len)
		std::memcpy(buf_.data() + off + NLA_HDRLEN, data, len);
	return *this;
}

AttrWriter &AttrWriter::begin_nest(uint16_t type)
{
	open_.push_back(buf_.size());
	return put(type | NLA_F_NESTED, nullptr, 0);
}

AttrWriter &AttrWriter::end_nest()
{
	if (open_.empty())
		throw Error(EINVAL, "end_nest without begin_nest");
	size_t off = open_.back();
	open_.pop_back();
	auto len = static_cast<uint16_t>(buf_.size() - off);
	std::memcpy(buf_.data() + off, &len, sizeof(len));
	return *this;
}

namespace {

template <typename T> T get_exact(const std::vector<uint8_t> &d, uint16_t type)
{
	if (d.size() != sizeof(T))
		throw Error(EPROTO, "attribute " + std::to_string(type) + " has length " +
					std::to_string(d.size()) + ", expected " +
					std::to_string(sizeof(T)));
	T v;
	std::memcpy(&v, d.data(), sizeof(T));
	return v;
}

} // namespace

uint8_t Attr::u8() const
{
	return get_exact<uint8_t>(data_, type_);
}
uint16_t Attr::u16() const
{
	return get_exact<uint16_t>(data_, type_);
}
uint32_t Attr::u32() const
{
	return get_exact<uint32_t>(data_, type_);
}
uint64_t Attr::u64() const
{
	return get_exact<uint64_t>(data_, type_);
}
in6_addr Attr::in6() const
{
	return get_exact<in6_addr>(data_, type_);
}
std::string Attr::str() const
{
	const char *p = reinterpret_cast<const char *>(data_.data());
	return std::string(p, strnlen(p, data_.size()));
}

Attrs::Attrs(const uint8_t *data, size_t len)
{
	size_t off = 0;
	while (off + NLA_HDRLEN <= len) {
		nlattr a;
		std::memcpy(&a, data + off, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || off + a.nla_len > len)
			break;
		uint16_t type = a.nla_type & NLA_TYPE_MASK;
		by_type_[type] = all_.size();
		all_.emplace_back(type, data + off + NLA_HDRLEN, a.nla_len - NLA_HDRLEN);
		off += NLA_ALIGN(a.nla_len);
	}
}

const Attr *Attrs::get(uint16_t type) const
{
	auto it = by_type_.find(type);
	return it == by_type_.end() ? nullptr : &all_[it->second];
}

std::optional<uint8_t> Attrs::u8(uint16_t t) const
{
	auto *a = get(t);
	return a ? std::optional(a->u8()) : std::nullopt;
}
std::optional<uint16_t> Attrs::u16(uint16_t t) const
{
	auto *a = get(t);
	return a ? std::optional(a->u16()) : std::nullopt;
}
std::optional<uint32_t> Attrs::u32(uint16_t t) const
{
	auto *a = get(t);
	return a ? std::optional(a->u32()) : std::nullopt;
}
std::optional<uint64_t> Attrs::u64(uint16_t t) const
{
	auto *a = get(t);
	return a ? std::optional(a->u64()) : std::nullopt;
}
std::optional<std::string> Attrs::str(uint16_t t) const
{
	auto *a = get(t);
	return a ? std::optional(a->str()) : std::nullopt;
}
std::optional<in6_addr> Attrs::in6(uint16_t t) const
{
	auto *a = get(t);
	return a ? std::optional(a->in6()) : std::nullopt;
}
Attrs Attrs::nested(uint16_t t) const
{
	auto *a = get(t);
	return a ? Attrs(*a) : Attrs();
}

} // namespace mrc
