// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: a listener that also accepts plain TCP (MRC_SO_ACCEPT_TCP).
 *
 * A program that mrcize converted listens over MRC; its clients without
 * MRC would then find nobody listening. With MRC_SO_ACCEPT_TCP, the MRC
 * listener keeps a TCP listener of its own on the same address and port.
 * A TCP connection waiting there makes the MRC listener readable (the TCP
 * listener's data_ready wakes it), and accept() hands it out as the TCP
 * socket it is: the struct socket that accept() prepared gets TCP's
 * operations, and the module reference taken for MRC's operations is
 * dropped. MPTCP and SMC listeners accept plain TCP the same way, inside
 * their protocol.
 *
 * The TCP socket is created and bound when the MRC socket is bound, so a
 * TCP port in use fails the program's bind() (where programs try another
 * port), and listens with it. It is a user socket (it and its children
 * hold the namespace), created with the MRC socket's lock held: MRC sockets have a
 * lock class of their own (mrc_sock_init()), so the TCP socket's lock
 * nests inside without a false recursion report. Lock order: the MRC
 * listener, then its TCP listener.
 */
#include <net/inet_connection_sock.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "mrc_sk.h"
#include "mrc_stats.h"
#include "mrc_tcp_listen.h"

/*
 * The TCP listener queued a connection: the MRC listener is readable.
 * Its children inherit this callback (a clone copies the listener) but
 * not the pointer (SK_USER_DATA_NOCOPY): for them it does nothing, until
 * accept() gives them TCP's own callback back.
 */
static void mrc_tcp_listen_data_ready(struct sock *tsk)
{
	struct mrc_sock *msk;

	rcu_read_lock();
	msk = rcu_dereference_sk_user_data(tsk);
	if (msk)
		msk->sk.sk_data_ready(&msk->sk);
	rcu_read_unlock();
}

/**
 * mrc_tcp_listen_bind() - take the TCP port too: a TCP socket bound to the
 * MRC socket's address and port, so that a port taken in TCP's space
 * fails the bind() the program made (where programs try another port),
 * not its listen().
 * @msk: the MRC socket (locked), bound.
 *
 * Context: process; may sleep.
 * Return: 0, or a negative errno (-EADDRINUSE: the TCP port is taken).
 */
int mrc_tcp_listen_bind(struct mrc_sock *msk)
{
	struct sock *sk = &msk->sk;
	struct sockaddr_in6 a = {
		.sin6_family = AF_INET6,
		.sin6_port = htons(msk->sport),
		.sin6_addr = msk->saddr,
	};
	struct socket *tcp;
	int err;

	if (msk->tcp_listener)
		return 0;
	err = __sock_create(sock_net(sk), AF_INET6, SOCK_STREAM, IPPROTO_TCP,
			    &tcp, 0);
	if (err)
		return err;
	/* What the program asked of its listener, TCP's listener gets. */
	tcp->sk->sk_reuse = sk->sk_reuse;
	tcp->sk->sk_reuseport = sk->sk_reuseport;
	tcp->sk->sk_ipv6only = msk->opts.v6only;
	tcp->sk->sk_mark = sk->sk_mark;
	tcp->sk->sk_priority = sk->sk_priority;
	err = kernel_bind(tcp, (struct sockaddr *)&a, sizeof(a));
	if (err) {
		sock_release(tcp);
		return err;
	}
	msk->tcp_listener = tcp;
	return 0;
}

/**
 * mrc_tcp_listen_start() - listen on TCP too, on the MRC listener's
 * address and port; or change the backlog of an existing TCP listener.
 * @msk: the MRC socket (locked), bound, about to listen or listening.
 * @backlog: the listen() backlog.
 *
 * Context: process; may sleep.
 * Return: 0, or a negative errno (-EADDRINUSE: the TCP port is taken).
 */
int mrc_tcp_listen_start(struct mrc_sock *msk, int backlog)
{
	struct sock *sk = &msk->sk;
	struct socket *tcp;
	int err;

	err = mrc_tcp_listen_bind(msk);
	if (err)
		return err;
	tcp = msk->tcp_listener;
	if (sock_flag(sk, SOCK_KEEPOPEN))
		sock_set_keepalive(tcp->sk);
	err = kernel_listen(tcp, backlog);
	if (err || msk->tcp_data_ready)
		return err;
	write_lock_bh(&tcp->sk->sk_callback_lock);
	msk->tcp_data_ready = tcp->sk->sk_data_ready;
	__rcu_assign_sk_user_data_with_flags(tcp->sk, msk, SK_USER_DATA_NOCOPY);
	tcp->sk->sk_data_ready = mrc_tcp_listen_data_ready;
	write_unlock_bh(&tcp->sk->sk_callback_lock);
	return 0;
}

/**
 * mrc_tcp_listen_stop() - close the TCP socket (a listener's queued
 * connections are reset, as when any TCP listener closes).
 * @msk: the MRC socket, no longer listening (or connecting instead).
 *
 * Context: process; may sleep.
 */
void mrc_tcp_listen_stop(struct mrc_sock *msk)
{
	struct socket *tcp = msk->tcp_listener;

	if (!tcp)
		return;
	WRITE_ONCE(msk->tcp_listener, NULL);
	if (msk->tcp_data_ready) {
		write_lock_bh(&tcp->sk->sk_callback_lock);
		rcu_assign_sk_user_data(tcp->sk, NULL);
		tcp->sk->sk_data_ready = msk->tcp_data_ready;
		write_unlock_bh(&tcp->sk->sk_callback_lock);
		msk->tcp_data_ready = NULL;
	}
	sock_release(tcp);
}

/**
 * mrc_tcp_listen_ready() - is a TCP connection waiting for accept()?
 * @msk: the MRC socket.
 *
 * Return: true when the TCP listener's accept queue is not empty.
 */
bool mrc_tcp_listen_ready(const struct mrc_sock *msk)
{
	struct socket *tcp = READ_ONCE(msk->tcp_listener);

	return tcp && !reqsk_queue_empty(&inet_csk(tcp->sk)->icsk_accept_queue);
}

/**
 * mrc_tcp_listen_accept() - hand a waiting TCP connection to accept().
 * @msk: the MRC listener (locked).
 * @newsock: the socket accept() prepared with MRC's operations; on
 *	success it is a TCP socket, with TCP's operations.
 * @flags: accept()'s file flags.
 *
 * Return: 0, -EAGAIN when none waits (another accept() took it), or a
 * negative errno.
 */
int mrc_tcp_listen_accept(struct mrc_sock *msk, struct socket *newsock,
			  int flags)
{
	struct socket *tcp = msk->tcp_listener;
	int err;

	if (!tcp)
		return -EAGAIN;
	err = tcp->ops->accept(tcp, newsock, flags | O_NONBLOCK, false);
	if (err)
		return err;
	/* The child cloned the listener's callback: give it TCP's own. */
	write_lock_bh(&newsock->sk->sk_callback_lock);
	newsock->sk->sk_data_ready = msk->tcp_data_ready;
	write_unlock_bh(&newsock->sk->sk_callback_lock);
	/* accept(2) took a module reference for MRC's operations; the
	 * socket now has TCP's, whose release will not drop it.
	 */
	newsock->ops = tcp->ops;
	module_put(THIS_MODULE);
	MRC_INC_STATS(sock_net(&msk->sk), MRC_MIB_TCP_ACCEPTED);
	return 0;
}
