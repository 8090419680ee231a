// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: how MRC sockets are reached from socket(2).
 *
 * Two entry points, one socket object and one set of operations
 * (mrc_sock.c):
 *   socket(AF_MRC, SOCK_STREAM | SOCK_SEQPACKET, 0)     the native API
 *   socket(AF_INET6, SOCK_STREAM | SOCK_SEQPACKET, IPPROTO_MRC)
 *                                                      the drop-in for TCP
 *
 * Neither number is free for an out-of-tree module to take for good:
 * AF_MRC defaults to 25 (AF_WANPIPE, no in-tree user on 6.1), IPPROTO_MRC
 * to 261 (above 255, like IPPROTO_MPTCP's 262; 6.1 accepts 0..262 and
 * uses 262 only, later kernels took 256 for SMC). Both are module
 * parameters, published in /sys/module/mrc/parameters and by the netlink
 * INFO command; the defaults are in uapi/linux/mrc.h.
 */
#include <linux/module.h>
#include <linux/net.h>
#include <net/protocol.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "mrc_sock.h"
#include "mrc_sock_io.h"
#include "mrc_sockopt.h"

/* Address family number: AF_WANPIPE has no in-tree user on 6.1. */
int mrc_af = MRC_AF_DEFAULT;
module_param_named(af, mrc_af, int, 0444);
MODULE_PARM_DESC(af, "address family number of AF_MRC sockets (default 25)");

int mrc_ipproto = MRC_IPPROTO_DEFAULT;
module_param_named(ipproto, mrc_ipproto, int, 0444);
MODULE_PARM_DESC(ipproto,
		 "protocol number of socket(AF_INET6, ..., IPPROTO_MRC) (default 261; 0: none)");

/*
 * proto_ops carries the family number, which is a module parameter for
 * AF_MRC: those tables are copies of mrc_sock_ops, stamped at init and
 * read-only after.
 */
static struct mrc_family_ops {
	struct proto_ops stream;
	struct proto_ops seqpacket;
} mrc_af_ops __ro_after_init;

static int mrc_create(struct net *net, struct socket *sock, int protocol,
		      int kern)
{
	struct sock *sk;

	if (protocol)
		return -EPROTONOSUPPORT;
	switch (sock->type) {
	case SOCK_STREAM:
		sock->ops = &mrc_af_ops.stream;
		break;
	case SOCK_SEQPACKET:
		sock->ops = &mrc_af_ops.seqpacket;
		break;
	default:
		return -ESOCKTNOSUPPORT;
	}
	sk = sk_alloc(net, mrc_af, GFP_KERNEL, &mrc_proto, kern);
	if (!sk)
		return -ENOMEM;
	sock_init_data(sock, sk);
	sk->sk_protocol = 0;
	mrc_sock_init(sk);
	return 0;
}

static struct net_proto_family mrc_family_ops __ro_after_init = {
	.create = mrc_create,
	.owner = THIS_MODULE,
};

/*
 * AF_INET6: inet6_create() finds these by type and protocol, allocates
 * the socket on mrc6_proto and calls its .init. The protocol number is
 * stamped in at init. Not read-only: the inet6 switch links its entries
 * through them.
 */
static struct inet_protosw mrc6_protosw[] = {
	{
		.type = SOCK_STREAM,
		.prot = &mrc6_proto,
		.ops = &mrc_sock_ops,
	},
	{
		.type = SOCK_SEQPACKET,
		.prot = &mrc6_proto,
		.ops = &mrc_sock_ops,
	},
};

static int mrc_check_numbers(void)
{
	if (mrc_af <= AF_UNSPEC || mrc_af >= NPROTO) {
		pr_err("mrc: af=%d is out of range (1..%d)\n", mrc_af, NPROTO - 1);
		return -EINVAL;
	}
	/* Below 256 are IP protocol numbers of packets; 262 is MPTCP's. */
	if (mrc_ipproto && (mrc_ipproto <= IPPROTO_RAW ||
			    mrc_ipproto >= IPPROTO_MAX ||
			    mrc_ipproto == IPPROTO_MPTCP)) {
		pr_err("mrc: ipproto=%d is not a free socket protocol number (%d..%d, not %d; 0 for none)\n",
		       mrc_ipproto, IPPROTO_RAW + 1, IPPROTO_MAX - 1,
		       IPPROTO_MPTCP);
		return -EINVAL;
	}
	return 0;
}

static void mrc_inet6_unregister(int n)
{
	while (n--)
		inet6_unregister_protosw(&mrc6_protosw[n]);
}

static int mrc_inet6_register(void)
{
	int i, err;

	for (i = 0; i < ARRAY_SIZE(mrc6_protosw); i++) {
		mrc6_protosw[i].protocol = mrc_ipproto;
		err = inet6_register_protosw(&mrc6_protosw[i]);
		if (err) {
			pr_err("mrc: cannot register IPPROTO_MRC %d under AF_INET6: %d; load mrc with ipproto=<free number> or ipproto=0\n",
			       mrc_ipproto, err);
			mrc_inet6_unregister(i);
			return err;
		}
	}
	return 0;
}

/**
 * mrc_plumbing_init() - register the MRC protocols, the AF_MRC family and
 * IPPROTO_MRC under AF_INET6.
 *
 * Return: 0, or a negative errno: -EINVAL for a parameter out of range,
 * -EEXIST when the family slot is taken.
 */
int mrc_plumbing_init(void)
{
	int err;

	err = mrc_check_numbers();
	if (err)
		return err;
	mrc_af_ops.stream = mrc_sock_ops;
	mrc_af_ops.stream.family = mrc_af;
	mrc_af_ops.seqpacket = mrc_sock_ops;
	mrc_af_ops.seqpacket.family = mrc_af;
	mrc_family_ops.family = mrc_af;

	err = proto_register(&mrc_proto, 1);
	if (err)
		return err;
	err = proto_register(&mrc6_proto, 1);
	if (err)
		goto err_proto;
	err = sock_register(&mrc_family_ops);
	if (err) {
		if (err == -EEXIST)
			pr_err("mrc: address family %d is already registered by another protocol; load mrc with af=<free family number>\n",
			       mrc_af);
		goto err_proto6;
	}
	if (mrc_ipproto) {
		err = mrc_inet6_register();
		if (err)
			goto err_sock;
	}
	return 0;

err_sock:
	sock_unregister(mrc_af);
err_proto6:
	proto_unregister(&mrc6_proto);
err_proto:
	proto_unregister(&mrc_proto);
	return err;
}

/**
 * mrc_plumbing_exit() - undo mrc_plumbing_init(). No MRC socket exists:
 * each holds a reference on the module.
 */
void mrc_plumbing_exit(void)
{
	if (mrc_ipproto)
		mrc_inet6_unregister(ARRAY_SIZE(mrc6_protosw));
	sock_unregister(mrc_af);
	proto_unregister(&mrc6_proto);
	proto_unregister(&mrc_proto);
}

/* Autoload on socket() with the default numbers. */
MODULE_ALIAS_NETPROTO(MRC_AF_DEFAULT);
MODULE_ALIAS_NET_PF_PROTO_TYPE(PF_INET6, MRC_IPPROTO_DEFAULT, SOCK_STREAM);
MODULE_ALIAS_NET_PF_PROTO_TYPE(PF_INET6, MRC_IPPROTO_DEFAULT, SOCK_SEQPACKET);
MODULE_ALIAS_NET_PF_PROTO(PF_INET6, MRC_IPPROTO_DEFAULT);
