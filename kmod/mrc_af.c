// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: the AF_MRC socket family.
 *
 * socket(AF_MRC, SOCK_STREAM | SOCK_SEQPACKET, 0) creates an MRC socket.
 * The family number is the module parameter "af"; registration fails with
 * a clear message if another protocol owns that slot.
 */
#include <linux/module.h>
#include <linux/net.h>
#include <net/sock.h>

#include "mrc_kern.h"

/**
 * struct mrc_sock - an MRC socket.
 * @sk: the generic socket; must stay first (sk_alloc casts).
 */
struct mrc_sock {
	struct sock sk;
};

static struct proto mrc_proto = {
	.name = "MRC",
	.owner = THIS_MODULE,
	.obj_size = sizeof(struct mrc_sock),
};

static int mrc_release(struct socket *sock)
{
	struct sock *sk = sock->sk;

	if (!sk)
		return 0;
	atomic_dec(&mrc_net(sock_net(sk))->nr_socks);
	sock_orphan(sk);
	sock->sk = NULL;
	sock_put(sk);
	return 0;
}

static const struct proto_ops mrc_stream_ops = {
	.family = MRC_AF_DEFAULT,	/* patched to mrc_af at init */
	.owner = THIS_MODULE,
	.release = mrc_release,
	.bind = sock_no_bind,
	.connect = sock_no_connect,
	.socketpair = sock_no_socketpair,
	.accept = sock_no_accept,
	.getname = sock_no_getname,
	.poll = datagram_poll,
	.ioctl = sock_no_ioctl,
	.listen = sock_no_listen,
	.shutdown = sock_no_shutdown,
	.sendmsg = sock_no_sendmsg,
	.recvmsg = sock_no_recvmsg,
	.mmap = sock_no_mmap,
};

/*
 * The family number is a module parameter, and struct proto_ops carries
 * it: so the tables are copies of the templates above, stamped with the
 * number at init and read-only after.
 */
static struct mrc_family_ops {
	struct proto_ops stream;
	struct proto_ops seqpacket;
} mrc_ops __ro_after_init;

static int mrc_create(struct net *net, struct socket *sock, int protocol,
		      int kern)
{
	struct sock *sk;

	if (protocol)
		return -EPROTONOSUPPORT;

	switch (sock->type) {
	case SOCK_STREAM:
		sock->ops = &mrc_ops.stream;
		break;
	case SOCK_SEQPACKET:
		sock->ops = &mrc_ops.seqpacket;
		break;
	default:
		return -ESOCKTNOSUPPORT;
	}

	sk = sk_alloc(net, mrc_af, GFP_KERNEL, &mrc_proto, kern);
	if (!sk)
		return -ENOMEM;
	sock_init_data(sock, sk);
	sk->sk_protocol = protocol;
	atomic_inc(&mrc_net(net)->nr_socks);
	return 0;
}

static struct net_proto_family mrc_family_ops __ro_after_init = {
	.create = mrc_create,
	.owner = THIS_MODULE,
};

/**
 * mrc_af_init() - register the MRC protocol and the AF_MRC family.
 *
 * Return: 0, or a negative errno; -EEXIST when the family slot is taken.
 */
int mrc_af_init(void)
{
	int err;

	mrc_ops.stream = mrc_stream_ops;
	mrc_ops.stream.family = mrc_af;
	mrc_ops.seqpacket = mrc_stream_ops;
	mrc_ops.seqpacket.family = mrc_af;
	mrc_family_ops.family = mrc_af;

	err = proto_register(&mrc_proto, 1);
	if (err)
		return err;
	err = sock_register(&mrc_family_ops);
	if (err) {
		if (err == -EEXIST)
			pr_err("mrc: address family %d is already registered by another protocol; load mrc with af=<free family number>\n",
			       mrc_af);
		proto_unregister(&mrc_proto);
		return err;
	}
	return 0;
}

/**
 * mrc_af_exit() - unregister the AF_MRC family and the MRC protocol.
 */
void mrc_af_exit(void)
{
	sock_unregister(mrc_af);
	proto_unregister(&mrc_proto);
}
