// SPDX-License-Identifier: GPL-2.0
// Test only: linked statically (and as static-pie), for the launcher's
// "statically linked" check.
int main()
{
	return 0;
}
