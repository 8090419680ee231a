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

namespace {

// A module parameter (/sys/module/mrc/parameters/NAME), else what the
// module's INFO reply says (@from_info), else @dflt.
template <typename FromInfo> int module_number(const char *name, FromInfo from_info, int dflt)
{
	std::ifstream f(std::string("/sys/module/mrc/parameters/") + name);
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
		int v = static_cast<int>(from_info(Client().info()));
		if (v > 0)
			return v;
	} catch (const std::exception &) {
		// Not there: socket() will say so, or autoload it.
	}
	return dflt;
}

} // namespace

int af_mrc()
{
	return module_number(
	    "af", [](const Info &i) { return i.af; }, MRC_AF_DEFAULT);
}

int ipproto_mrc()
{
	return module_number(
	    "ipproto", [](const Info &i) { return i.ipproto; }, MRC_IPPROTO_DEFAULT);
}

} // namespace mrc
