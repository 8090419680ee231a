// SPDX-License-Identifier: GPL-2.0
#include "launcher.hpp"

int main(int argc, char **argv)
{
	mrcize::Context ctx = mrcize::system_context();
	return mrcize::run(std::vector<std::string>(argv + 1, argv + argc), ctx);
}
