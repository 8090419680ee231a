// SPDX-License-Identifier: GPL-2.0
/* The uapi header compiled as strict C99; layouts checked at build time. */
#include <stddef.h>
#include <netinet/in.h>
#include <linux/mrc.h>

_Static_assert(sizeof(struct sockaddr_mrc) == sizeof(struct sockaddr_in6),
	       "sockaddr_mrc has the size of sockaddr_in6");
_Static_assert(offsetof(struct sockaddr_mrc, smrc_port) ==
	       offsetof(struct sockaddr_in6, sin6_port), "port offset");
_Static_assert(offsetof(struct sockaddr_mrc, smrc_addr) ==
	       offsetof(struct sockaddr_in6, sin6_addr), "addr offset");
_Static_assert(offsetof(struct sockaddr_mrc, smrc_scope_id) ==
	       offsetof(struct sockaddr_in6, sin6_scope_id), "scope offset");

int uapi_c_af_default(void);
int uapi_c_af_default(void)
{
	return AF_MRC;
}

unsigned int uapi_c_sockaddr_size(void);
unsigned int uapi_c_sockaddr_size(void)
{
	return sizeof(struct sockaddr_mrc);
}
