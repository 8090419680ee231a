// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: the MRC socket object and its operations.
 *
 * One set of operations serves both families: socket(AF_MRC, ...) with
 * struct sockaddr_mrc, and socket(AF_INET6, ..., IPPROTO_MRC) with struct
 * sockaddr_in6 (the same layout); only the family number and how strictly
 * an address is checked differ (mrc_sock_addr()). This file owns the
 * socket's life: bind, listen, connect, accept, shutdown, close, poll.
 * Family registration is in mrc_plumbing.c, options in mrc_sockopt.c,
 * sendmsg and recvmsg in mrc_sock_io.c; below this layer, the handshake
 * and the end of a connection in mrc_handshake.c, the engine's driver in
 * mrc_conn_glue.c, packet input in mrc_input.c. This file also owns the
 * socket's timer, its deferred work (release_cb) and a listener's accept
 * work: they call down into those layers.
 *
 * Contexts: the socket lock is taken with lock_sock() in process context;
 * softirq input and the timer take bh_lock_sock() and, when a process owns
 * the socket, defer their work (input to the backlog, the timer to
 * release_cb), as TCP does.
 */
#include <linux/module.h>
#include <linux/net.h>
#include <linux/poll.h>
#include <net/ipv6.h>
#include <net/ip6_route.h>
#include <net/addrconf.h>
#include <net/sock.h>

#include "mrc_handshake.h"
#include "mrc_conn_glue.h"
#include "mrc_input.h"
#include "mrc_sock.h"
#include "mrc_sock_io.h"
#include "mrc_sockopt.h"
#include "mrc_tcp_listen.h"
#include "mrc_udp.h"
#include "mrc_table.h"
#include "mrc_stats.h"

/* Time in ns on the clock the engine and the timer share. */
static inline u64 mrc_now(void)
{
	return ktime_get_ns();
}

/* Everything the timer does, with the socket bh-locked and not owned. */
static void mrc_timer_work(struct mrc_sock *msk)
{
	switch (msk->sk.sk_state) {
	case MRC_ST_REQ_SENT:
	case MRC_ST_REP_SENT:
		mrc_hs_timer(msk, mrc_now());
		break;
	case MRC_ST_ESTABLISHED:
	case MRC_ST_PEER_CLOSED:
	case MRC_ST_DREQ_SENT:
		/* The verdict runs the disconnect's timer too. */
		mrc_hs_verdict(msk, mrc_glue_timer(msk));
		break;
	default:
		break;
	}
}

static enum hrtimer_restart mrc_timer_fn(struct hrtimer *t)
{
	struct mrc_sock *msk = container_of(t, struct mrc_sock, timer);
	struct sock *sk = &msk->sk;

	bh_lock_sock(sk);
	if (sock_owned_by_user(sk))
		set_bit(MRC_DEFER_TIMER, &msk->deferred);
	else
		mrc_timer_work(msk);
	bh_unlock_sock(sk);
	return HRTIMER_NORESTART;
}

/* Runs in release_sock() for work that arrived while a process owned us. */
static void mrc_release_cb(struct sock *sk)
{
	struct mrc_sock *msk = mrc_sk(sk);
	bool push = false;

	if (test_and_clear_bit(MRC_DEFER_TIMER, &msk->deferred))
		mrc_timer_work(msk);

	if (test_and_clear_bit(MRC_DEFER_PEER_PORTS, &msk->deferred))
		push = mrc_glue_peer_ports(msk, READ_ONCE(msk->peer_ports_pending));
	if (test_and_clear_bit(MRC_DEFER_PUSH, &msk->deferred))
		push = true;
	if (test_and_clear_bit(MRC_DEFER_PTB, &msk->deferred))
		mrc_hs_verdict(msk, mrc_glue_ptb_deferred(msk));
	if (push)
		mrc_hs_verdict(msk, mrc_glue_push(msk));
}

static void mrc_sk_destruct(struct sock *sk)
{
	struct mrc_sock *msk = mrc_sk(sk);

	hrtimer_cancel(&msk->timer);
	mrc_glue_release(msk);
	skb_queue_purge(&msk->req_q);
	skb_queue_purge(&sk->sk_receive_queue);
	atomic_dec(&mrc_net(sock_net(sk))->nr_socks);
}

/**
 * struct mrc_addr - a socket address as both families give it.
 * @addr: the node address.
 * @port: the service port (host order).
 */
struct mrc_addr {
	struct in6_addr addr;
	u16 port;
};

/*
 * Check and read a socket address of the socket's family. AF_MRC is the
 * native API: the whole struct sockaddr_mrc, flowinfo zero. AF_INET6 is
 * the drop-in for TCP programs: what inet6 accepts (the RFC 2133 length,
 * without scope id; flowinfo ignored, as TCP ignores it by default). Both:
 * no IPv4-mapped address, as MRC has no IPv4 underlay.
 */
static int mrc_sock_addr(const struct sock *sk, const struct sockaddr *uaddr,
			 int alen, struct mrc_addr *out)
{
	const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)uaddr;
	bool inet6 = sk->sk_family == AF_INET6;

	if (alen < (inet6 ? SIN6_LEN_RFC2133 : (int)sizeof(struct sockaddr_mrc)))
		return -EINVAL;
	if (a->sin6_family != sk->sk_family)
		return -EAFNOSUPPORT;
	if (!inet6 && a->sin6_flowinfo)
		return -EINVAL;
	if (ipv6_addr_v4mapped(&a->sin6_addr))
		return -EAFNOSUPPORT;
	out->addr = a->sin6_addr;
	out->port = ntohs(a->sin6_port);
	return 0;
}

/* How many ephemeral ports a bind tries when TCP's port is taken. */
#define MRC_BIND_TRIES	8

/*
 * Bind to @port (0: an ephemeral one). With MRC_SO_ACCEPT_TCP, the same
 * port in TCP's space too: if it is taken there, an explicit port fails
 * with EADDRINUSE and an ephemeral one is picked again.
 */
static int mrc_sock_bind_port(struct mrc_sock *msk, u16 port)
{
	int tries = port ? 1 : MRC_BIND_TRIES;
	int err;

	do {
		err = mrc_table_bind(msk, port);
		if (err || !msk->opts.accept_tcp)
			return err;
		err = mrc_tcp_listen_bind(msk);
		if (!err)
			return 0;
		mrc_table_unbind(msk);
		/* Lookups may still walk the unhashed node: let them finish
		 * before it goes into another chain (rare: TCP had the port).
		 */
		if (tries > 1 && err == -EADDRINUSE)
			synchronize_rcu();
	} while (--tries && err == -EADDRINUSE);
	return err;
}

static int mrc_bind(struct socket *sock, struct sockaddr *uaddr, int alen)
{
	struct mrc_sock *msk = mrc_sk(sock->sk);
	struct sock *sk = sock->sk;
	struct socket *udp;
	struct mrc_addr a;
	int err;

	err = mrc_sock_addr(sk, uaddr, alen, &a);
	if (err)
		return err;
	if (ipv6_addr_is_multicast(&a.addr))
		return -EADDRNOTAVAIL;
	if (!ipv6_addr_any(&a.addr) && !msk->opts.freebind &&
	    !ipv6_chk_addr(sock_net(sk), &a.addr, NULL, 0))
		return -EADDRNOTAVAIL;

	err = mrc_udp_get(sock_net(sk), &udp);
	if (err)
		return err;

	lock_sock(sk);
	if (sk->sk_state != MRC_ST_CLOSED || msk->hashed_port) {
		err = -EINVAL;
		goto out;
	}
	msk->saddr = a.addr;
	err = mrc_sock_bind_port(msk, a.port);
	if (err)
		msk->saddr = in6addr_any;
out:
	release_sock(sk);
	return err;
}

static int mrc_listen(struct socket *sock, int backlog)
{
	struct mrc_sock *msk = mrc_sk(sock->sk);
	struct sock *sk = sock->sk;
	struct socket *udp;
	int err;

	err = mrc_udp_get(sock_net(sk), &udp);
	if (err)
		return err;
	lock_sock(sk);
	if (sk->sk_state == MRC_ST_LISTEN) {
		/* Only the backlog changes, as for TCP. */
		WRITE_ONCE(sk->sk_max_ack_backlog, clamp(backlog, 1, 4096));
		err = msk->tcp_listener ? mrc_tcp_listen_start(msk, backlog) : 0;
		goto out;
	}
	if (sk->sk_state != MRC_ST_CLOSED || msk->conn) {
		err = -EINVAL;
		goto out;
	}
	if (!msk->hashed_port) {
		err = mrc_sock_bind_port(msk, 0);
		if (err)
			goto out;
	}
	WRITE_ONCE(sk->sk_max_ack_backlog, clamp(backlog, 1, 4096));
	/*
	 * MRC first, then TCP: a client (mrcize) refused at the MRC level
	 * while the TCP listener already took connections would fall back
	 * to TCP for good. The other way round, a TCP client that comes too
	 * early is refused and retries, as before any listen().
	 */
	mrc_set_state(sk, MRC_ST_LISTEN);
	if (msk->opts.accept_tcp) {
		err = mrc_tcp_listen_start(msk, backlog);
		if (err) {
			/*
			 * Nothing was accepted meanwhile: requests are taken
			 * under this socket's lock (mrc_sock_accept_work()),
			 * and they will find it closed.
			 */
			mrc_set_state(sk, MRC_ST_CLOSED);
			goto out;
		}
	}
	err = 0;
out:
	release_sock(sk);
	return err;
}

/* Pick the local address for @daddr when the socket is not bound to one. */
static int mrc_pick_saddr(struct mrc_sock *msk)
{
	struct sock *sk = &msk->sk;
	struct flowi6 fl6 = {
		.daddr = msk->daddr,
		.flowi6_oif = sk->sk_bound_dev_if,
		.flowi6_proto = IPPROTO_UDP,
	};
	struct dst_entry *dst;
	int err;

	if (!ipv6_addr_any(&msk->saddr))
		return 0;
	/* ip6_dst_lookup() picks the source address like connect() would. */
	err = ip6_dst_lookup(sock_net(sk), NULL, &dst, &fl6);
	if (err)
		return -ENETUNREACH;
	dst_release(dst);
	msk->saddr = fl6.saddr;
	return 0;
}

static long mrc_wait_state(struct sock *sk, long timeo, int from)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);

	add_wait_queue(sk_sleep(sk), &wait);
	while (sk->sk_state == from && timeo && !signal_pending(current))
		sk_wait_event(sk, &timeo, sk->sk_state != from, &wait);
	remove_wait_queue(sk_sleep(sk), &wait);
	return timeo;
}

static int mrc_connect(struct socket *sock, struct sockaddr *uaddr, int alen,
		       int flags)
{
	struct mrc_sock *msk = mrc_sk(sock->sk);
	struct sock *sk = sock->sk;
	struct socket *udp;
	struct mrc_addr a;
	long timeo;
	int err;

	if (alen >= (int)sizeof(sa_family_t) && uaddr->sa_family == AF_UNSPEC)
		return -EOPNOTSUPP;	/* no disconnect by AF_UNSPEC */
	err = mrc_sock_addr(sk, uaddr, alen, &a);
	if (err)
		return err;
	if (!a.port)
		return -EINVAL;
	if (ipv6_addr_any(&a.addr) || ipv6_addr_is_multicast(&a.addr))
		return -ENETUNREACH;

	err = mrc_udp_get(sock_net(sk), &udp);
	if (err)
		return err;

	lock_sock(sk);
	switch (sk->sk_state) {
	case MRC_ST_ESTABLISHED:
	case MRC_ST_PEER_CLOSED:
		err = -EISCONN;
		goto out;
	case MRC_ST_REQ_SENT:
		err = -EALREADY;
		goto out;
	case MRC_ST_CLOSED:
		break;
	default:
		err = -EINVAL;
		goto out;
	}
	if (sock->state == SS_CONNECTED || msk->conn) {
		/* A connection that ended cannot be reused. */
		err = sk->sk_err ? -sk->sk_err : -EISCONN;
		goto out;
	}

	msk->daddr = a.addr;
	msk->dport = a.port;
	/* A connection accepts nobody: drop the TCP port a bind() took. */
	mrc_tcp_listen_stop(msk);
	err = mrc_pick_saddr(msk);
	if (err)
		goto out;
	if (!msk->hashed_port) {
		err = mrc_table_bind(msk, 0);
		if (err)
			goto out;
	}
	err = mrc_glue_prepare(msk);
	if (err)
		goto out;
	err = mrc_hs_connect(msk, mrc_now());
	if (err)
		goto out;
	sock->state = SS_CONNECTING;

	timeo = sock_sndtimeo(sk, flags & O_NONBLOCK);
	if (!timeo) {
		err = -EINPROGRESS;
		goto out;
	}
	timeo = mrc_wait_state(sk, timeo, MRC_ST_REQ_SENT);
	if (sk->sk_state == MRC_ST_REQ_SENT) {
		err = timeo ? sock_intr_errno(timeo) : -EINPROGRESS;
		goto out;
	}
	err = sock_error(sk);
	if (!err && sk->sk_state != MRC_ST_ESTABLISHED)
		err = -ECONNREFUSED;
	sock->state = err ? SS_UNCONNECTED : SS_CONNECTED;
out:
	release_sock(sk);
	return err;
}

static int mrc_accept(struct socket *sock, struct socket *newsock, int flags,
		      bool kern)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct mrc_sock *msk = mrc_sk(sock->sk);
	struct sock *sk = sock->sk;
	struct mrc_sock *child;
	long timeo;
	int err = 0;

	lock_sock(sk);
	if (sk->sk_state != MRC_ST_LISTEN) {
		err = -EINVAL;
		goto out;
	}
	timeo = sock_rcvtimeo(sk, flags & O_NONBLOCK);
again:
	add_wait_queue_exclusive(sk_sleep(sk), &wait);
	while (list_empty(&msk->accept_q) && !mrc_tcp_listen_ready(msk)) {
		if (sk->sk_state != MRC_ST_LISTEN) {
			err = -EINVAL;
			break;
		}
		if (!timeo) {
			err = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			err = sock_intr_errno(timeo);
			break;
		}
		sk_wait_event(sk, &timeo, !list_empty(&msk->accept_q) ||
			      mrc_tcp_listen_ready(msk) ||
			      sk->sk_state != MRC_ST_LISTEN, &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	if (err)
		goto out;
	if (list_empty(&msk->accept_q)) {
		/* A plain TCP client (MRC_SO_ACCEPT_TCP). */
		err = mrc_tcp_listen_accept(msk, newsock, flags);
		if (err == -EAGAIN)
			goto again;	/* another accept() took it */
		goto out;
	}

	spin_lock_bh(&msk->child_lock);
	child = list_first_entry_or_null(&msk->accept_q, struct mrc_sock, child_node);
	if (child) {
		list_del_init(&child->child_node);
		sk_acceptq_removed(sk);
	}
	spin_unlock_bh(&msk->child_lock);
	if (!child) {
		/* A concurrent close of the listener took it. */
		err = -EINVAL;
		goto out;
	}

	lock_sock_nested(&child->sk, SINGLE_DEPTH_NESTING);
	child->parent = NULL;
	sock_graft(&child->sk, newsock);
	newsock->state = child->sk.sk_state == MRC_ST_CLOSED ? SS_UNCONNECTED
							      : SS_CONNECTED;
	release_sock(&child->sk);
	sock_put(sk);		/* the child's reference on its listener */
out:
	release_sock(sk);
	return err;
}

static int mrc_getname(struct socket *sock, struct sockaddr *uaddr, int peer)
{
	struct sockaddr_in6 *a = (struct sockaddr_in6 *)uaddr;
	struct mrc_sock *msk = mrc_sk(sock->sk);
	struct sock *sk = sock->sk;

	/* struct sockaddr_mrc has the layout of struct sockaddr_in6. */
	memset(a, 0, sizeof(*a));
	a->sin6_family = sk->sk_family;
	lock_sock(sk);
	if (peer) {
		if (sk->sk_state != MRC_ST_ESTABLISHED &&
		    sk->sk_state != MRC_ST_PEER_CLOSED &&
		    sk->sk_state != MRC_ST_DREQ_SENT) {
			release_sock(sk);
			return -ENOTCONN;
		}
		a->sin6_addr = msk->daddr;
		a->sin6_port = htons(msk->dport);
	} else {
		a->sin6_addr = msk->saddr;
		a->sin6_port = htons(msk->sport);
	}
	release_sock(sk);
	return sizeof(*a);
}

static __poll_t mrc_poll(struct file *file, struct socket *sock,
			 struct poll_table_struct *wait)
{
	struct mrc_sock *msk = mrc_sk(sock->sk);
	struct sock *sk = sock->sk;
	__poll_t mask = 0;
	int state;

	sock_poll_wait(file, sock, wait);
	state = READ_ONCE(sk->sk_state);

	if (state == MRC_ST_LISTEN)
		return READ_ONCE(sk->sk_ack_backlog) || mrc_tcp_listen_ready(msk) ?
		       EPOLLIN | EPOLLRDNORM : 0;

	if (READ_ONCE(sk->sk_err) || !skb_queue_empty_lockless(&sk->sk_error_queue))
		mask |= EPOLLERR;
	if (READ_ONCE(sk->sk_shutdown) == SHUTDOWN_MASK || state == MRC_ST_CLOSED) {
		if (sock->state != SS_UNCONNECTED || READ_ONCE(sk->sk_err))
			mask |= EPOLLHUP;
	}
	if (READ_ONCE(sk->sk_shutdown) & RCV_SHUTDOWN)
		mask |= EPOLLIN | EPOLLRDNORM | EPOLLRDHUP;
	if (state == MRC_ST_REQ_SENT)
		return mask;
	if (mrc_glue_readable(msk))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (state == MRC_ST_ESTABLISHED || state == MRC_ST_PEER_CLOSED) {
		if (!(READ_ONCE(sk->sk_shutdown) & SEND_SHUTDOWN) &&
		    mrc_glue_writable(msk))
			mask |= EPOLLOUT | EPOLLWRNORM;
		else
			sk_set_bit(SOCKWQ_ASYNC_NOSPACE, sk);
	} else if (state == MRC_ST_CLOSED && sock->state == SS_CONNECTING) {
		/* A failed non-blocking connect: writable, with the error. */
		mask |= EPOLLOUT | EPOLLWRNORM;
	}
	return mask;
}

static int mrc_shutdown(struct socket *sock, int how)
{
	struct mrc_sock *msk = mrc_sk(sock->sk);
	struct sock *sk = sock->sk;
	int err = 0;

	how++;	/* SHUT_RD..SHUT_RDWR -> RCV_SHUTDOWN..SHUTDOWN_MASK */
	if (how < RCV_SHUTDOWN || how > SHUTDOWN_MASK)
		return -EINVAL;
	lock_sock(sk);
	switch (sk->sk_state) {
	case MRC_ST_ESTABLISHED:
	case MRC_ST_PEER_CLOSED:
	case MRC_ST_DREQ_SENT:
		WRITE_ONCE(sk->sk_shutdown, sk->sk_shutdown | how);
		if (how & SEND_SHUTDOWN)
			mrc_hs_close(msk, mrc_now());
		break;
	case MRC_ST_LISTEN:
		WRITE_ONCE(sk->sk_shutdown, sk->sk_shutdown | how);
		if (how & RCV_SHUTDOWN) {
			mrc_hs_listener_stop(msk);
			mrc_tcp_listen_stop(msk);
		}
		break;
	default:
		err = -ENOTCONN;
		break;
	}
	sk->sk_state_change(sk);
	release_sock(sk);
	return err;
}

/* Bytes received that the application will never read. */
static bool mrc_unread(struct mrc_sock *msk)
{
	return !skb_queue_empty(&msk->sk.sk_receive_queue) ||
	       !RB_EMPTY_ROOT(&msk->ofo);
}

/* Close: a listener stops at once; a connection finishes delivering what
 * the application wrote (unless SO_LINGER with zero time asks for an
 * abort, or received data was never read: as TCP, the peer is reset
 * rather than left to believe it was read), then disconnects, orphaned if
 * need be.
 */
static int mrc_release(struct socket *sock)
{
	struct sock *sk = sock->sk;
	struct mrc_sock *msk;
	bool listener;

	if (!sk)
		return 0;
	msk = mrc_sk(sk);

	lock_sock(sk);
	listener = sk->sk_state == MRC_ST_LISTEN;
	if (listener) {
		mrc_hs_listener_stop(msk);
	} else if ((sock_flag(sk, SOCK_LINGER) && !sk->sk_lingertime) ||
		   mrc_unread(msk)) {
		mrc_hs_abort(msk);
	} else {
		WRITE_ONCE(sk->sk_shutdown, SHUTDOWN_MASK);
		mrc_hs_close(msk, mrc_now());
		if (sock_flag(sk, SOCK_LINGER) && sk->sk_state != MRC_ST_CLOSED) {
			long timeo = sk->sk_lingertime;
			DEFINE_WAIT_FUNC(wait, woken_wake_function);

			add_wait_queue(sk_sleep(sk), &wait);
			while (sk->sk_state != MRC_ST_CLOSED && timeo &&
			       !signal_pending(current))
				sk_wait_event(sk, &timeo,
					      sk->sk_state == MRC_ST_CLOSED, &wait);
			remove_wait_queue(sk_sleep(sk), &wait);
		}
	}
	sock_orphan(sk);
	/* Our direction was closed and acknowledged before (shutdown): an
	 * orphan has nobody to read what the peer may still send, as when the
	 * CM_DREP arrives after close. Waiting for the peer's CM_DREQ could
	 * keep the orphan for as long as the peer's application lives.
	 */
	if (sk->sk_state == MRC_ST_CLOSED ||
	    (sk->sk_state == MRC_ST_DREQ_SENT && msk->cm.fin_acked))
		mrc_hs_done(msk, 0);
	release_sock(sk);

	if (listener) {
		mrc_hs_listener_flush(msk);
		mrc_tcp_listen_stop(msk);
	}
	sock->sk = NULL;
	sock_put(sk);
	return 0;
}

static int mrc_backlog_rcv(struct sock *sk, struct sk_buff *skb)
{
	mrc_input_locked(mrc_sk(sk), skb);
	return 0;
}

/*
 * The operations of every MRC socket, both families and both types. The
 * AF_MRC tables are copies stamped with the run-time family number
 * (mrc_plumbing.c).
 */
const struct proto_ops mrc_sock_ops = {
	.family = AF_INET6,
	.owner = THIS_MODULE,
	.release = mrc_release,
	.bind = mrc_bind,
	.connect = mrc_connect,
	.socketpair = sock_no_socketpair,
	.accept = mrc_accept,
	.getname = mrc_getname,
	.poll = mrc_poll,
	.ioctl = mrc_ioctl,
	.listen = mrc_listen,
	.shutdown = mrc_shutdown,
	.setsockopt = mrc_setsockopt,
	.getsockopt = mrc_getsockopt,
	.sendmsg = mrc_sendmsg,
	.recvmsg = mrc_recvmsg,
	.sendpage = mrc_sendpage,
	.mmap = sock_no_mmap,
};

/*
 * sk_common_release() unhashes a socket whose creation failed after
 * inet6_create() allocated it; MRC sockets are in no table by then.
 */
static void mrc_sk_unhash(struct sock *sk)
{
}

/* inet6_create() allocated the socket and its inet part: the MRC part. */
static int mrc6_sk_init(struct sock *sk)
{
	mrc_sock_init(sk);
	return 0;
}

/* AF_MRC sockets. */
struct proto mrc_proto = {
	.name = "MRC",
	.owner = THIS_MODULE,
	.obj_size = sizeof(struct mrc_sock),
	.backlog_rcv = mrc_backlog_rcv,
	.release_cb = mrc_release_cb,
	.keepalive = mrc_keepalive,
	.unhash = mrc_sk_unhash,
};

/* AF_INET6 sockets of protocol IPPROTO_MRC (inet6_create() uses .init). */
struct proto mrc6_proto = {
	.name = "MRCv6",
	.owner = THIS_MODULE,
	.obj_size = sizeof(struct mrc6_sock),
	.init = mrc6_sk_init,
	.backlog_rcv = mrc_backlog_rcv,
	.release_cb = mrc_release_cb,
	.keepalive = mrc_keepalive,
	.unhash = mrc_sk_unhash,
};

/*
 * What inet6_create() sets up in a new AF_INET6 socket, for a child that
 * a listener creates itself: the generic inet6 code (BPF, LSMs) may read
 * it. MRC never sends through it.
 */
static void mrc6_sk_init_inet(struct sock *sk)
{
	struct mrc6_sock *m6 = container_of(mrc_sk(sk), struct mrc6_sock, msk);
	struct inet_sock *inet = inet_sk(sk);

	inet->pinet6 = &m6->inet6;
	m6->inet6.hop_limit = -1;
	m6->inet6.mcast_hops = IPV6_DEFAULT_MCASTHOPS;
	m6->inet6.pmtudisc = IPV6_PMTUDISC_WANT;
	inet->uc_ttl = -1;
	inet->mc_ttl = 1;
	sk->sk_ipv6only = 1;
}

/*
 * A listener's proven CM_RTUs become children in process context (their
 * engine storage is allocated with GFP_KERNEL); connection management
 * decides and answers, this work allocates. Holds a reference on the
 * listener.
 */
static struct mrc_sock *mrc_sock_alloc_child(struct mrc_sock *listener);

static void mrc_sock_accept_work(struct work_struct *work)
{
	struct mrc_sock *l = container_of(work, struct mrc_sock, accept_work);
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&l->req_q))) {
		struct mrc_pkt req;

		if (mrc_hs_req_wants_child(l, skb, &req))
			mrc_hs_child_start(l, mrc_sock_alloc_child(l), skb, &req);
		kfree_skb(skb);
	}
	sock_put(&l->sk);
}

/*
 * MRC sockets get a lock class of their own: an AF_INET6 one would share
 * inet6's, and a listener with MRC_SO_ACCEPT_TCP takes its TCP listener's
 * lock inside its own (mrc_tcp_listen.c).
 */
static struct lock_class_key mrc_slock_key;
static struct lock_class_key mrc_sk_lock_key;

/**
 * mrc_sock_init() - initialise the MRC part of a new socket, after
 * sock_init_data() (and, for AF_INET6, the rest of inet6_create()).
 * @sk: the socket; its family and protocol are already set.
 */
void mrc_sock_init(struct sock *sk)
{
	struct mrc_sock *msk = mrc_sk(sk);

	sock_lock_init_class_and_name(sk, "slock-MRC", &mrc_slock_key,
				      "sk_lock-MRC", &mrc_sk_lock_key);
	sk->sk_state = MRC_ST_CLOSED;
	sk->sk_destruct = mrc_sk_destruct;
	sk->sk_backlog_rcv = sk->sk_prot->backlog_rcv;
	/* Never dual-stack: an IPv4-mapped address is refused. */
	sk->sk_ipv6only = 1;
	sock_set_flag(sk, SOCK_RCU_FREE);
	INIT_LIST_HEAD(&msk->accept_q);
	INIT_LIST_HEAD(&msk->child_node);
	spin_lock_init(&msk->child_lock);
	skb_queue_head_init(&msk->req_q);
	skb_queue_head_init(&msk->sndq);
	INIT_WORK(&msk->accept_work, mrc_sock_accept_work);
	hrtimer_init(&msk->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	msk->timer.function = mrc_timer_fn;
	msk->ofo = RB_ROOT;
	msk->opts.unicast_hops = -1;
	msk->opts.autoflowlabel = 1;
	msk->opts.mtu_discover = IPV6_PMTUDISC_WANT;
	strscpy(msk->policy, "default", sizeof(msk->policy));
	atomic_inc(&mrc_net(sock_net(sk))->nr_socks);
}

/*
 * A socket for the passive side of a connection, of the listener's
 * family, protocol and options: one reference, owned by the caller, or
 * NULL. Process context (GFP_KERNEL).
 */
static struct mrc_sock *mrc_sock_alloc_child(struct mrc_sock *listener)
{
	struct sock *lsk = &listener->sk;
	struct sock *sk;

	sk = sk_alloc(sock_net(lsk), lsk->sk_family, GFP_KERNEL, lsk->sk_prot, 0);
	if (!sk)
		return NULL;
	sock_init_data(NULL, sk);
	sk->sk_type = lsk->sk_type;
	sk->sk_family = lsk->sk_family;
	sk->sk_protocol = lsk->sk_protocol;
	if (sk->sk_family == AF_INET6)
		mrc6_sk_init_inet(sk);
	mrc_sock_init(sk);
	sk->sk_sndbuf = lsk->sk_sndbuf;
	sk->sk_rcvbuf = lsk->sk_rcvbuf;
	sk->sk_priority = lsk->sk_priority;
	sk->sk_mark = lsk->sk_mark;
	sk->sk_rcvtimeo = lsk->sk_rcvtimeo;
	sk->sk_sndtimeo = lsk->sk_sndtimeo;
	/* SO_KEEPALIVE and SO_LINGER are inherited, as TCP's children do. */
	if (sock_flag(lsk, SOCK_KEEPOPEN))
		sock_set_flag(sk, SOCK_KEEPOPEN);
	if (sock_flag(lsk, SOCK_LINGER))
		sock_set_flag(sk, SOCK_LINGER);
	sk->sk_lingertime = lsk->sk_lingertime;
	mrc_sk(sk)->opts = listener->opts;
	memcpy(mrc_sk(sk)->policy, listener->policy, sizeof(listener->policy));
	return mrc_sk(sk);
}
