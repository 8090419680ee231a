// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: netlink attributes (TLVs) built and read without libnl, so that
// the typed API and its unit tests share one bounds-checked encoding.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <netinet/in.h>

namespace mrc {

/// Builds a sequence of netlink attributes (host byte order, 4-byte
/// aligned), with nesting.
class AttrWriter {
public:
	AttrWriter &put(uint16_t type, const void *data, size_t len);
	AttrWriter &put_u8(uint16_t type, uint8_t v) { return put(type, &v, 1); }
	AttrWriter &put_u16(uint16_t type, uint16_t v) { return put(type, &v, 2); }
	AttrWriter &put_u32(uint16_t type, uint32_t v) { return put(type, &v, 4); }
	AttrWriter &put_u64(uint16_t type, uint64_t v) { return put(type, &v, 8); }
	AttrWriter &put_str(uint16_t type, const std::string &s)
	{
		return put(type, s.c_str(), s.size() + 1);
	}
	AttrWriter &put_in6(uint16_t type, const in6_addr &a) { return put(type, &a, 16); }
	/// Open a nested attribute; close it with end_nest().
	AttrWriter &begin_nest(uint16_t type);
	AttrWriter &end_nest();

	const std::vector<uint8_t> &bytes() const { return buf_; }

private:
	std::vector<uint8_t> buf_;
	std::vector<size_t> open_;
};

/// One attribute of a parsed sequence. Accessors check the length and
/// throw mrc::Error(EPROTO) on a mismatch, never read out of bounds.
class Attr {
public:
	Attr() = default;
	Attr(uint16_t type, const uint8_t *data, size_t len) : type_(type), data_(data, data + len)
	{
	}
	uint16_t type() const { return type_; }
	size_t size() const { return data_.size(); }
	const std::vector<uint8_t> &data() const { return data_; }
	uint8_t u8() const;
	uint16_t u16() const;
	uint32_t u32() const;
	uint64_t u64() const;
	std::string str() const;
	in6_addr in6() const;

private:
	uint16_t type_ = 0;
	std::vector<uint8_t> data_;
};

/// A parsed sequence of attributes: the last one of each type by type,
/// and all of them in order (for lists such as segments).
class Attrs {
public:
	Attrs() = default;
	/// Parse @len bytes; malformed trailing data is ignored.
	Attrs(const uint8_t *data, size_t len);
	explicit Attrs(const std::vector<uint8_t> &v) : Attrs(v.data(), v.size()) {}
	explicit Attrs(const Attr &nest) : Attrs(nest.data()) {}

	bool has(uint16_t type) const { return by_type_.count(type) != 0; }
	const Attr *get(uint16_t type) const;
	const std::vector<Attr> &all() const { return all_; }

	std::optional<uint8_t> u8(uint16_t t) const;
	std::optional<uint16_t> u16(uint16_t t) const;
	std::optional<uint32_t> u32(uint16_t t) const;
	std::optional<uint64_t> u64(uint16_t t) const;
	std::optional<std::string> str(uint16_t t) const;
	std::optional<in6_addr> in6(uint16_t t) const;
	/// The nested attributes of @t (empty when absent).
	Attrs nested(uint16_t t) const;

private:
	std::vector<Attr> all_;
	std::map<uint16_t, size_t> by_type_;
};

} // namespace mrc
