// SPDX-License-Identifier: GPL-2.0
#include "cli.hpp"

int main(int argc, char **argv)
{
	mrcctl::Context ctx;
	return mrcctl::run(std::vector<std::string>(argv + 1, argv + argc), ctx);
}
