// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: helpers for AF_MRC sockets.
#include <mrc/netlink.hpp>
#include <mrc/socket.hpp>

#include <charconv>
#include <exception>
#include <fstream>
#include <sstream>

#include <linux/mrc.h>

namespace mrc {

int parse_af_param(const std::string &text)
{
	int v = -1;
	auto end = text.data() + text.size();
	while (end > text.data() && (end[-1] == '\n' || end[-1] == ' '))
		--end;
	auto [ptr, ec] = std::from_chars(text.data(), end, v);
	if (ec != std::errc() || ptr != end || v <= 0)
		return -1;
	return v;
}

int af_mrc()
{
	std::ifstream f("/sys/module/mrc/parameters/af");
	if (f) {
		std::stringstream ss;
		ss << f.rdbuf();
		int v = parse_af_param(ss.str());
		if (v > 0)
			return v;
	}
	// Not visible in sysfs (e.g. a container): ask the module itself,
	// which also autoloads it when installed.
	try {
		int v = static_cast<int>(Client().info().af);
		if (v > 0)
			return v;
	} catch (const std::exception &) {
		// Not there: socket() will say so, or autoload it.
	}
	return MRC_AF_DEFAULT;
}

} // namespace mrc
