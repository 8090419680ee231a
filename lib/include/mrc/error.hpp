// SPDX-License-Identifier: LGPL-2.1-or-later
// libmrc: errors that carry the kernel's own words.
#pragma once

#include <string>
#include <system_error>

namespace mrc {

/// An operation failed. code() is the errno the kernel (or libc) returned;
/// what() is a complete one-line message for a user: the operation, the
/// kernel's extack text when it gave one, and the attribute it blamed.
class Error : public std::system_error {
public:
	Error(int errnum, std::string what)
	    : std::system_error(errnum, std::generic_category()), errnum_(errnum),
	      what_(std::move(what))
	{
	}

	/// The positive errno value.
	int errnum() const noexcept { return errnum_; }

	/// The whole message, as given (std::system_error would append the
	/// errno text a second time).
	const char *what() const noexcept override { return what_.c_str(); }

private:
	int errnum_;
	std::string what_;
};

/// The "mrc" netlink family is not there: the module is not loaded (and
/// could not be autoloaded) in this kernel.
class ModuleNotLoaded : public Error {
public:
	ModuleNotLoaded();
};

} // namespace mrc
