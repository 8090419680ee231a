// SPDX-License-Identifier: GPL-2.0
#include "sockopt_log.hpp"

namespace mrcize {

void OptionLog::record(int level, int name, const void *value, socklen_t len)
{
	const auto *p = static_cast<const uint8_t *>(value);
	std::vector<uint8_t> bytes;
	if (p && len > 0)
		bytes.assign(p, p + len);
	for (auto &o : opts_) {
		if (o.level == level && o.name == name) {
			o.value = std::move(bytes);
			return;
		}
	}
	opts_.push_back({level, name, std::move(bytes)});
}

unsigned OptionLog::replay(int fd, SetsockoptFn fn, int *bad_level, int *bad_name) const
{
	unsigned failed = 0;
	for (const auto &o : opts_) {
		const void *v = o.value.empty() ? nullptr : o.value.data();
		if (fn(fd, o.level, o.name, v, static_cast<socklen_t>(o.value.size())) == 0)
			continue;
		if (failed++ == 0) {
			if (bad_level)
				*bad_level = o.level;
			if (bad_name)
				*bad_name = o.name;
		}
	}
	return failed;
}

} // namespace mrcize
