// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: the AF_MRC socket family and its socket operations.
 *
 * socket(AF_MRC, SOCK_STREAM | SOCK_SEQPACKET, 0). This file owns the
 * socket's life: bind, listen, connect, accept, shutdown, close, options,
 * poll. The handshake is in mrc_handshake.c, the data transfer in
 * mrc_conn_glue.c, packet input in mrc_input.c.
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
#include "mrc_sock.h"
#include "mrc_table.h"

static struct proto mrc_proto;

/* Time in ns on the clock the engine and the timer share. */
static inline u64 mrc_now(void)
{
	return ktime_get_ns();
}

/**
 * mrc_timer_arm() - make the socket's timer fire at @when (ns, ktime), or
 * earlier if it is already due earlier.
 * @msk: the socket (locked).
 * @when: absolute time; 0 does nothing.
 */
void mrc_timer_arm(struct mrc_sock *msk, u64 when)
{
	ktime_t t = ns_to_ktime(when);

	if (!when || msk->sk.sk_state == MRC_ST_CLOSED)
		return;
	if (hrtimer_is_queued(&msk->timer) &&
	    ktime_before(hrtimer_get_expires(&msk->timer), t))
		return;
	hrtimer_start(&msk->timer, t, HRTIMER_MODE_ABS_SOFT);
}

/* Everything the timer does, with the socket bh-locked and not owned. */
static void mrc_timer_work(struct mrc_sock *msk)
{
	switch (msk->sk.sk_state) {
	case MRC_ST_REQ_SENT:
	case MRC_ST_REP_SENT:
		mrc_cm_timer(msk, mrc_now());
		break;
	case MRC_ST_ESTABLISHED:
	case MRC_ST_PEER_CLOSED:
	case MRC_ST_DREQ_SENT:
		mrc_glue_timer(msk);
		mrc_cm_timer(msk, mrc_now());
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

	if (test_and_clear_bit(MRC_DEFER_TIMER, &msk->deferred))
		mrc_timer_work(msk);
	if (test_and_clear_bit(MRC_DEFER_PEER_PORTS, &msk->deferred))
		mrc_glue_peer_ports(msk, READ_ONCE(msk->peer_ports_pending));
	if (test_and_clear_bit(MRC_DEFER_PUSH, &msk->deferred))
		mrc_glue_push(msk);
}

/**
 * mrc_sk_done() - the connection is over: unhash, stop the timer, wake
 * everyone. Keeps the socket memory (the file may still refer to it).
 * @msk: the socket (locked).
 * @err: error for the application (positive errno), or 0.
 */
void mrc_sk_done(struct mrc_sock *msk, int err)
{
	struct sock *sk = &msk->sk;
	int old = sk->sk_state;

	if (old == MRC_ST_ESTABLISHED || old == MRC_ST_PEER_CLOSED ||
	    old == MRC_ST_DREQ_SENT) {
		if (err == ETIMEDOUT)
			MRC_INC_STATS(sock_net(sk), MRC_MIB_CONN_TIMEOUT);
		else if (err == ECONNRESET)
			MRC_INC_STATS(sock_net(sk), MRC_MIB_CONN_RESET);
		mrc_conn_event(msk, err ? MRC_EVENT_CONN_FAILED :
				   MRC_EVENT_CONN_CLOSED, err);
	}
	if (err)
		WRITE_ONCE(sk->sk_err, err);
	mrc_set_state(sk, MRC_ST_CLOSED);
	WRITE_ONCE(sk->sk_shutdown, SHUTDOWN_MASK);
	mrc_table_del_qpn(msk);
	mrc_table_unbind(msk);
	hrtimer_try_to_cancel(&msk->timer);
	if (err)
		sk_error_report(sk);
	sk->sk_state_change(sk);
	if (sock_flag(sk, SOCK_DEAD))
		mrc_glue_release(msk);
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

static int mrc_check_addr(const struct sockaddr *uaddr, int alen)
{
	const struct sockaddr_mrc *a = (const struct sockaddr_mrc *)uaddr;

	if (alen < (int)sizeof(struct sockaddr_mrc))
		return -EINVAL;
	if (a->smrc_family != mrc_af)
		return -EAFNOSUPPORT;
	if (a->smrc_flowinfo)
		return -EINVAL;
	return 0;
}

static int mrc_bind(struct socket *sock, struct sockaddr *uaddr, int alen)
{
	const struct sockaddr_mrc *a = (const struct sockaddr_mrc *)uaddr;
	struct mrc_sock *msk = mrc_sk(sock->sk);
	struct sock *sk = sock->sk;
	struct socket *udp;
	int err;

	err = mrc_check_addr(uaddr, alen);
	if (err)
		return err;
	if (ipv6_addr_is_multicast(&a->smrc_addr))
		return -EADDRNOTAVAIL;
	if (!ipv6_addr_any(&a->smrc_addr) &&
	    !ipv6_chk_addr(sock_net(sk), &a->smrc_addr, NULL, 0))
		return -EADDRNOTAVAIL;

	err = mrc_udp_get(sock_net(sk), &udp);
	if (err)
		return err;

	lock_sock(sk);
	if (sk->sk_state != MRC_ST_CLOSED || msk->hashed_port) {
		err = -EINVAL;
		goto out;
	}
	msk->saddr = a->smrc_addr;
	err = mrc_table_bind(msk, ntohs(a->smrc_port));
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
		err = 0;
		goto out;
	}
	if (sk->sk_state != MRC_ST_CLOSED || msk->conn) {
		err = -EINVAL;
		goto out;
	}
	if (!msk->hashed_port) {
		err = mrc_table_bind(msk, 0);
		if (err)
			goto out;
	}
	WRITE_ONCE(sk->sk_max_ack_backlog, clamp(backlog, 1, 4096));
	mrc_set_state(sk, MRC_ST_LISTEN);
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
	const struct sockaddr_mrc *a = (const struct sockaddr_mrc *)uaddr;
	struct mrc_sock *msk = mrc_sk(sock->sk);
	struct sock *sk = sock->sk;
	struct socket *udp;
	long timeo;
	int err;

	if (alen >= (int)sizeof(sa_family_t) && uaddr->sa_family == AF_UNSPEC)
		return -EOPNOTSUPP;	/* no disconnect by AF_UNSPEC */
	err = mrc_check_addr(uaddr, alen);
	if (err)
		return err;
	if (!a->smrc_port)
		return -EINVAL;
	if (ipv6_addr_any(&a->smrc_addr) || ipv6_addr_is_multicast(&a->smrc_addr))
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

	msk->daddr = a->smrc_addr;
	msk->dport = ntohs(a->smrc_port);
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
	err = mrc_cm_connect(msk, mrc_now());
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
	add_wait_queue_exclusive(sk_sleep(sk), &wait);
	while (list_empty(&msk->accept_q)) {
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
			      sk->sk_state != MRC_ST_LISTEN, &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	if (err)
		goto out;

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
	struct sockaddr_mrc *a = (struct sockaddr_mrc *)uaddr;
	struct mrc_sock *msk = mrc_sk(sock->sk);
	struct sock *sk = sock->sk;

	memset(a, 0, sizeof(*a));
	a->smrc_family = mrc_af;
	lock_sock(sk);
	if (peer) {
		if (sk->sk_state != MRC_ST_ESTABLISHED &&
		    sk->sk_state != MRC_ST_PEER_CLOSED &&
		    sk->sk_state != MRC_ST_DREQ_SENT) {
			release_sock(sk);
			return -ENOTCONN;
		}
		a->smrc_addr = msk->daddr;
		a->smrc_port = htons(msk->dport);
	} else {
		a->smrc_addr = msk->saddr;
		a->smrc_port = htons(msk->sport);
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
		return READ_ONCE(sk->sk_ack_backlog) ? EPOLLIN | EPOLLRDNORM : 0;

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
			mrc_cm_close(msk, mrc_now());
		break;
	case MRC_ST_LISTEN:
		WRITE_ONCE(sk->sk_shutdown, sk->sk_shutdown | how);
		if (how & RCV_SHUTDOWN)
			mrc_cm_listener_stop(msk);
		break;
	default:
		err = -ENOTCONN;
		break;
	}
	sk->sk_state_change(sk);
	release_sock(sk);
	return err;
}

static int mrc_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct mrc_sock *msk = mrc_sk(sock->sk);

	if (msg->msg_flags & ~(MSG_DONTWAIT | MSG_NOSIGNAL | MSG_EOR | MSG_MORE))
		return -EOPNOTSUPP;
	if (msg->msg_name)
		return msk->sk.sk_state == MRC_ST_ESTABLISHED ? -EISCONN : -EOPNOTSUPP;
	return mrc_glue_sendmsg(msk, msg, len);
}

static int mrc_recvmsg(struct socket *sock, struct msghdr *msg, size_t len,
		       int flags)
{
	struct mrc_sock *msk = mrc_sk(sock->sk);

	if (flags & ~(MSG_DONTWAIT | MSG_WAITALL | MSG_PEEK | MSG_TRUNC |
		      MSG_CMSG_CLOEXEC | MSG_ERRQUEUE))
		return -EOPNOTSUPP;
	if (flags & MSG_ERRQUEUE)
		return -EAGAIN;
	return mrc_glue_recvmsg(msk, msg, len, flags);
}

static int mrc_setsockopt(struct socket *sock, int level, int optname,
			  sockptr_t optval, unsigned int optlen)
{
	struct mrc_sock *msk = mrc_sk(sock->sk);
	struct sock *sk = sock->sk;
	char name[sizeof(msk->policy)];
	int err = 0;

	if (level == SOL_SOCKET)
		return sock_setsockopt(sock, level, optname, optval, optlen);
	if (level != SOL_MRC)
		return -ENOPROTOOPT;

	switch (optname) {
	case MRC_SO_POLICY:
		if (optlen == 0 || optlen >= sizeof(name))
			return -EINVAL;
		memset(name, 0, sizeof(name));
		if (copy_from_sockptr(name, optval, optlen))
			return -EFAULT;
		if (strnlen(name, sizeof(name)) == 0)
			return -EINVAL;
		lock_sock(sk);
		if (sk->sk_state != MRC_ST_CLOSED && sk->sk_state != MRC_ST_LISTEN)
			err = -EISCONN;
		else if (!mrc_cm_policy_exists(sock_net(sk), name))
			err = -ENOENT;
		else
			strscpy(msk->policy, name, sizeof(msk->policy));
		release_sock(sk);
		return err;
	default:
		return -ENOPROTOOPT;
	}
}

static int mrc_getsockopt(struct socket *sock, int level, int optname,
			  char __user *optval, int __user *optlen)
{
	struct mrc_sock *msk = mrc_sk(sock->sk);
	struct sock *sk = sock->sk;
	int len, err;

	if (level != SOL_MRC)
		return -ENOPROTOOPT;
	if (get_user(len, optlen))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;

	switch (optname) {
	case MRC_SO_POLICY: {
		char name[sizeof(msk->policy)];

		lock_sock(sk);
		memcpy(name, msk->policy, sizeof(name));
		release_sock(sk);
		len = min_t(int, len, strnlen(name, sizeof(name)) + 1);
		if (copy_to_user(optval, name, len) || put_user(len, optlen))
			return -EFAULT;
		return 0;
	}
	case MRC_SO_INFO:
		lock_sock(sk);
		err = mrc_glue_info(msk, optval, optlen);
		release_sock(sk);
		return err;
	default:
		return -ENOPROTOOPT;
	}
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
		mrc_cm_listener_stop(msk);
	} else if ((sock_flag(sk, SOCK_LINGER) && !sk->sk_lingertime) ||
		   mrc_unread(msk)) {
		mrc_cm_abort(msk);
	} else {
		WRITE_ONCE(sk->sk_shutdown, SHUTDOWN_MASK);
		mrc_cm_close(msk, mrc_now());
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
	    (sk->sk_state == MRC_ST_DREQ_SENT && msk->fin_acked))
		mrc_sk_done(msk, 0);
	release_sock(sk);

	if (listener)
		mrc_cm_listener_flush(msk);
	sock->sk = NULL;
	sock_put(sk);
	return 0;
}

static int mrc_backlog_rcv(struct sock *sk, struct sk_buff *skb)
{
	mrc_input_locked(mrc_sk(sk), skb);
	return 0;
}

static const struct proto_ops mrc_ops_template = {
	.family = MRC_AF_DEFAULT,	/* the run-time number is stamped in */
	.owner = THIS_MODULE,
	.release = mrc_release,
	.bind = mrc_bind,
	.connect = mrc_connect,
	.socketpair = sock_no_socketpair,
	.accept = mrc_accept,
	.getname = mrc_getname,
	.poll = mrc_poll,
	.ioctl = sock_no_ioctl,
	.listen = mrc_listen,
	.shutdown = mrc_shutdown,
	.setsockopt = mrc_setsockopt,
	.getsockopt = mrc_getsockopt,
	.sendmsg = mrc_sendmsg,
	.recvmsg = mrc_recvmsg,
	.mmap = sock_no_mmap,
};

/*
 * The family number is a module parameter, and struct proto_ops carries
 * it: so the tables are copies of the template, stamped with the number
 * at init and read-only after.
 */
static struct mrc_family_ops {
	struct proto_ops stream;
	struct proto_ops seqpacket;
} mrc_ops __ro_after_init;

static struct proto mrc_proto = {
	.name = "MRC",
	.owner = THIS_MODULE,
	.obj_size = sizeof(struct mrc_sock),
	.backlog_rcv = mrc_backlog_rcv,
	.release_cb = mrc_release_cb,
};

/**
 * mrc_sock_init_common() - initialise the MRC part of a new socket.
 * @sk: a socket just allocated with sk_alloc() on mrc_proto.
 * @sock: its struct socket, or NULL for a child not yet accepted.
 * @type: SOCK_STREAM or SOCK_SEQPACKET.
 */
void mrc_sock_init_common(struct sock *sk, struct socket *sock, int type)
{
	struct mrc_sock *msk = mrc_sk(sk);

	sock_init_data(sock, sk);
	sk->sk_type = type;
	sk->sk_protocol = 0;
	sk->sk_family = mrc_af;
	sk->sk_state = MRC_ST_CLOSED;
	sk->sk_destruct = mrc_sk_destruct;
	sk->sk_backlog_rcv = sk->sk_prot->backlog_rcv;
	sock_set_flag(sk, SOCK_RCU_FREE);
	INIT_LIST_HEAD(&msk->accept_q);
	INIT_LIST_HEAD(&msk->half_open);
	INIT_LIST_HEAD(&msk->child_node);
	spin_lock_init(&msk->child_lock);
	skb_queue_head_init(&msk->req_q);
	skb_queue_head_init(&msk->sndq);
	INIT_WORK(&msk->accept_work, mrc_cm_accept_work);
	hrtimer_init(&msk->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	msk->timer.function = mrc_timer_fn;
	msk->ofo = RB_ROOT;
	strscpy(msk->policy, "default", sizeof(msk->policy));
	atomic_inc(&mrc_net(sock_net(sk))->nr_socks);
}

/**
 * mrc_sock_alloc_child() - a socket for the passive side of a connection.
 * @listener: the listening socket.
 *
 * Context: process (GFP_KERNEL).
 * Return: the child (one reference, owned by the caller), or NULL.
 */
struct mrc_sock *mrc_sock_alloc_child(struct mrc_sock *listener)
{
	struct sock *lsk = &listener->sk;
	struct sock *sk;

	sk = sk_alloc(sock_net(lsk), mrc_af, GFP_KERNEL, &mrc_proto, 0);
	if (!sk)
		return NULL;
	mrc_sock_init_common(sk, NULL, lsk->sk_type);
	sk->sk_sndbuf = lsk->sk_sndbuf;
	sk->sk_rcvbuf = lsk->sk_rcvbuf;
	sk->sk_priority = lsk->sk_priority;
	sk->sk_mark = lsk->sk_mark;
	sk->sk_rcvtimeo = lsk->sk_rcvtimeo;
	sk->sk_sndtimeo = lsk->sk_sndtimeo;
	memcpy(mrc_sk(sk)->policy, listener->policy, sizeof(listener->policy));
	return mrc_sk(sk);
}

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
	mrc_sock_init_common(sk, sock, sock->type);
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

	mrc_ops.stream = mrc_ops_template;
	mrc_ops.stream.family = mrc_af;
	mrc_ops.seqpacket = mrc_ops_template;
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
