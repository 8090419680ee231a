// SPDX-License-Identifier: GPL-2.0
// mrcize: the socket options a program set on an MRC socket, kept so
// that the TCP socket replacing it (filters, fallback) gets them too.
#pragma once

#include <cstdint>
#include <vector>

#include <sys/socket.h>

namespace mrcize {

/// setsockopt() as the library calls it (the real one, not its own).
using SetsockoptFn = int (*)(int fd, int level, int name, const void *value, socklen_t len);

/// One option as the program set it.
struct RecordedOption {
	int level = 0;
	int name = 0;
	std::vector<uint8_t> value;
};

/// Options in the order the program first set them; setting one again
/// replaces its value in place (the last value wins, the first position
/// stays, so an option that depends on an earlier one still follows it).
class OptionLog {
public:
	void record(int level, int name, const void *value, socklen_t len);
	/// Set every option on @fd with @fn. Returns how many failed; the
	/// first failure's level and name go to @bad_level and @bad_name.
	unsigned replay(int fd, SetsockoptFn fn, int *bad_level = nullptr,
			int *bad_name = nullptr) const;
	const std::vector<RecordedOption> &options() const { return opts_; }

private:
	std::vector<RecordedOption> opts_;
};

} // namespace mrcize
