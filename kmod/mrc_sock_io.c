// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: the socket calls that move data, sendmsg and recvmsg,
 * for both socket types.
 *
 * They run in process context under lock_sock() and may sleep for room
 * or data. The bytes themselves belong to the engine's driver
 * (mrc_conn_glue.c: the send queue, the receive queue's order, what the
 * engine allows); after handing bytes over or taking them, a call pushes
 * and gives the push's verdict to connection management, which ends the
 * connection if the engine failed.
 */
#include <linux/sched/signal.h>
#include <net/sock.h>

#include "mrc_conn_glue.h"
#include "mrc_handshake.h"
#include "mrc_sock_io.h"

static int mrc_sock_wait(struct mrc_sock *msk, long *timeo,
			 bool (*ready)(struct mrc_sock *msk))
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct sock *sk = &msk->sk;

	add_wait_queue(sk_sleep(sk), &wait);
	sk_wait_event(sk, timeo, ready(msk) || sk->sk_err ||
		      sk->sk_state == MRC_ST_CLOSED, &wait);
	remove_wait_queue(sk_sleep(sk), &wait);
	if (signal_pending(current))
		return sock_intr_errno(*timeo);
	return 0;
}

/*
 * Wait for room to write: for the peer to acknowledge some of the @queued
 * bytes of the send queue, which is what frees both bytes and SEQPACKET
 * message slots (mrc_glue_write_space()), and wakes us (sk_write_space).
 * Waiting for mrc_glue_writable() instead spun: it is true whenever the
 * queue is under sk_sndbuf, also when every message slot is taken or a
 * message does not fit in what is left. With nothing queued there is
 * nothing to be acknowledged: then wait for mrc_glue_writable().
 */
static int mrc_sock_wait_room(struct mrc_sock *msk, long *timeo, u64 queued)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct sock *sk = &msk->sk;

	add_wait_queue(sk_sleep(sk), &wait);
	sk_wait_event(sk, timeo, READ_ONCE(msk->sndq_bytes) < queued ||
		      (!queued && mrc_glue_writable(msk)) || sk->sk_err ||
		      sk->sk_state == MRC_ST_CLOSED, &wait);
	remove_wait_queue(sk_sleep(sk), &wait);
	if (signal_pending(current))
		return sock_intr_errno(*timeo);
	return 0;
}

static int mrc_sock_send_error(struct mrc_sock *msk, int flags)
{
	struct sock *sk = &msk->sk;
	int err = sock_error(sk);

	if (err)
		return err;
	if ((sk->sk_shutdown & SEND_SHUTDOWN) || sk->sk_state == MRC_ST_CLOSED ||
	    sk->sk_state == MRC_ST_DREQ_SENT) {
		if (!(flags & MSG_NOSIGNAL))
			send_sig(SIGPIPE, current, 0);
		return -EPIPE;
	}
	if (sk->sk_state != MRC_ST_ESTABLISHED && sk->sk_state != MRC_ST_PEER_CLOSED)
		return -ENOTCONN;
	return 0;
}

static bool mrc_sock_connect_done(struct mrc_sock *msk)
{
	return msk->sk.sk_state != MRC_ST_REQ_SENT;
}

/*
 * sendmsg and sendpage for both socket types.
 * @msk: the socket (not locked).
 * @src: the bytes: the message's (copied) or a page's (referenced).
 * @len: their length.
 * @flags: MSG_* flags.
 *
 * STREAM writes as much as fits and blocks (unless non-blocking) for the
 * rest. SEQPACKET queues the whole message or nothing: a message larger
 * than the send buffer is EMSGSIZE.
 *
 * Return: bytes queued or a negative errno.
 */
static int mrc_sock_do_send(struct mrc_sock *msk, struct mrc_send_src *src,
			    size_t len, int flags)
{
	bool seq = msk->sk.sk_type == SOCK_SEQPACKET;
	struct sock *sk = &msk->sk;
	size_t copied = 0;
	long timeo;
	int err;

	lock_sock(sk);
	timeo = sock_sndtimeo(sk, flags & MSG_DONTWAIT);
	while (sk->sk_state == MRC_ST_REQ_SENT && timeo) {
		err = mrc_sock_wait(msk, &timeo, mrc_sock_connect_done);
		if (err)
			goto out;
	}
	err = mrc_sock_send_error(msk, flags);
	if (err)
		goto out;
	if (seq && (len > (size_t)READ_ONCE(sk->sk_sndbuf) || len > U32_MAX)) {
		err = -EMSGSIZE;
		goto out;
	}
	if (seq && !len) {
		err = -EINVAL;	/* MRC messages carry at least one byte */
		goto out;
	}

	while (copied < len || (!len && !copied)) {
		u32 msgs = 0;
		u64 room = mrc_glue_write_space(msk, &msgs);
		size_t n;

		if (seq && (room < len || !msgs))
			room = 0;
		n = min_t(u64, len - copied, room);
		if (!len)
			break;
		if (!n) {
			if (!timeo) {
				err = copied ? 0 : -EAGAIN;
				goto out;
			}
			set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
			err = mrc_sock_wait_room(msk, &timeo, msk->sndq_bytes);
			if (err)
				goto out;
			/*
			 * Having written some bytes, return their count and
			 * leave a connection error for the next call, as TCP
			 * does: reading it here would lose it.
			 */
			if (copied && (sk->sk_err || sk->sk_state == MRC_ST_CLOSED))
				goto out;
			err = mrc_sock_send_error(msk, flags);
			if (err)
				goto out;
			continue;
		}
		err = mrc_glue_write(msk, src, n, seq);
		if (err)
			goto out;
		copied += n;
		mrc_hs_verdict(msk, mrc_glue_push(msk));
	}
out:
	release_sock(sk);
	if (copied)
		return copied;
	return err;
}

static bool mrc_sock_has_data(struct mrc_sock *msk)
{
	return mrc_glue_readable(msk) || (msk->sk.sk_shutdown & RCV_SHUTDOWN);
}

/* Copy up to @len bytes from the head of the receive queue. */
static int mrc_sock_copy_in(struct mrc_sock *msk, struct msghdr *msg,
			    size_t len, bool peek, size_t *done)
{
	struct sock *sk = &msk->sk;
	struct sk_buff *skb, *tmp;
	size_t copied = 0;
	int err = 0;

	skb_queue_walk_safe(&sk->sk_receive_queue, skb, tmp) {
		struct mrc_skb_cb *cb = MRC_SKB_CB(skb);
		u32 skip = skb->len - cb->len;	/* consumed by an earlier read */
		size_t n = min_t(size_t, len - copied, cb->len);

		if (msg && n) {
			err = skb_copy_datagram_msg(skb, skip, msg, n);
			if (err)
				break;
		}
		copied += n;
		if (!peek) {
			cb->len -= n;
			cb->off += n;
			if (!cb->len) {
				__skb_unlink(skb, &sk->sk_receive_queue);
				consume_skb(skb);
			}
		}
		if (copied >= len)
			break;
	}
	*done = copied;
	return err;
}

/*
 * recvmsg for both socket types.
 * @msk: the socket (not locked).
 * @msg: where to copy.
 * @len: room in @msg.
 * @flags: MSG_DONTWAIT, MSG_WAITALL (STREAM), MSG_PEEK, MSG_TRUNC.
 *
 * SEQPACKET returns one whole message per call; a message longer than
 * @len is truncated (MSG_TRUNC in msg_flags; with MSG_TRUNC in @flags the
 * return value is the full length), the rest discarded.
 *
 * Return: bytes received, 0 at end of stream, or a negative errno.
 */
static int mrc_sock_do_recvmsg(struct mrc_sock *msk, struct msghdr *msg,
			       size_t len, int flags)
{
	bool peek = flags & MSG_PEEK;
	struct sock *sk = &msk->sk;
	size_t copied = 0;
	long timeo;
	int target, err = 0;

	lock_sock(sk);
	if (sk->sk_state == MRC_ST_LISTEN) {
		err = -ENOTCONN;
		goto out;
	}
	timeo = sock_rcvtimeo(sk, flags & MSG_DONTWAIT);
	target = sock_rcvlowat(sk, flags & MSG_WAITALL, len);

	while (true) {
		if (sk->sk_type == SOCK_SEQPACKET && mrc_glue_readable(msk)) {
			struct mrc_conn_msg m;
			size_t done;

			mrc_glue_msg_peek(msk, &m);
			err = mrc_sock_copy_in(msk, msg, min_t(size_t, len, m.len),
					       peek, &done);
			if (err)
				break;
			if (!peek && m.len > len)
				mrc_sock_copy_in(msk, NULL, m.len - len, false, &done);
			if (!peek && mrc_glue_read_done(msk, &m, m.len))
				mrc_hs_verdict(msk, mrc_glue_push(msk));
			msg->msg_flags |= MSG_EOR;
			if (m.len > len)
				msg->msg_flags |= MSG_TRUNC;
			copied = (flags & MSG_TRUNC) ? m.len : min_t(size_t, len, m.len);
			break;
		}
		if (sk->sk_type == SOCK_STREAM && mrc_glue_readable(msk)) {
			size_t done;

			/*
			 * A zero-byte read of a stream with data queued
			 * returns 0, as TCP's does: copying nothing can
			 * never reach the target of 1 byte, and the loop
			 * would spin forever with the socket locked.
			 */
			if (!len)
				break;
			err = mrc_sock_copy_in(msk, msg, len - copied, peek, &done);
			if (err)
				break;
			copied += done;
			if (!peek && done && mrc_glue_read_done(msk, NULL, done))
				mrc_hs_verdict(msk, mrc_glue_push(msk));
			if (copied >= target || peek)
				break;
			continue;
		}
		/* Short of MSG_WAITALL's or SO_RCVLOWAT's target: wait for
		 * more, unless the stream ended, failed or must not block.
		 */
		if (copied >= target)
			break;
		if (sk->sk_err) {
			err = sock_error(sk);
			break;
		}
		if ((sk->sk_shutdown & RCV_SHUTDOWN) || sk->sk_state == MRC_ST_CLOSED) {
			if (sk->sk_state == MRC_ST_CLOSED && !msk->conn &&
			    sock_flag(sk, SOCK_DONE) == 0 && !msk->cm.peer_fin &&
			    sk->sk_socket && sk->sk_socket->state == SS_UNCONNECTED)
				err = -ENOTCONN;
			break;
		}
		if (!timeo) {
			err = -EAGAIN;
			break;
		}
		err = mrc_sock_wait(msk, &timeo, mrc_sock_has_data);
		if (err)
			break;
	}
out:
	release_sock(sk);
	return copied ? copied : err;
}

/*
 * Flags a TCP program may pass that change nothing for MRC: sendmmsg()
 * adds MSG_BATCH, sendfile() and splice() MSG_SENDPAGE_NOTLAST, and TCP
 * ignores MSG_CONFIRM and MSG_WAITALL on send. MSG_OOB (no urgent data)
 * and MSG_ZEROCOPY (no SO_ZEROCOPY) are refused: a program relying on them
 * must learn that it cannot.
 */
#define MRC_SEND_FLAGS	(MSG_DONTWAIT | MSG_NOSIGNAL | MSG_EOR | MSG_MORE | \
			 MSG_BATCH | MSG_SENDPAGE_NOTLAST | MSG_CONFIRM | \
			 MSG_WAITALL | MSG_CMSG_COMPAT)

/**
 * mrc_sendmsg() - the sendmsg socket call of every MRC socket.
 * @sock: the socket.
 * @msg: the message.
 * @len: its length.
 *
 * Return: bytes queued or a negative errno.
 */
int mrc_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct mrc_sock *msk = mrc_sk(sock->sk);

	if (msg->msg_flags & ~MRC_SEND_FLAGS)
		return -EOPNOTSUPP;
	if (msg->msg_name)
		return msk->sk.sk_state == MRC_ST_ESTABLISHED ? -EISCONN : -EOPNOTSUPP;
	return mrc_sock_do_send(msk, &(struct mrc_send_src){ .msg = msg }, len,
				msg->msg_flags);
}

/**
 * mrc_sendpage() - the sendpage socket call of every MRC socket: what
 * sendfile() and splice() use.
 * @sock: the socket.
 * @page: the page holding the bytes.
 * @offset: where they start in it.
 * @size: how many.
 * @flags: MSG_* flags.
 *
 * A stream socket queues the page itself (mrc_glue_write()): the bytes
 * are not copied. A SEQPACKET message must be whole in one call, and a
 * page that may not be referenced (sendpage_ok()) cannot be held: both
 * are copied, as sendmsg() does.
 *
 * Return: bytes queued or a negative errno.
 */
ssize_t mrc_sendpage(struct socket *sock, struct page *page, int offset,
		     size_t size, int flags)
{
	struct mrc_sock *msk = mrc_sk(sock->sk);

	if (flags & ~MRC_SEND_FLAGS)
		return -EOPNOTSUPP;
	if (msk->sk.sk_type != SOCK_STREAM || !sendpage_ok(page))
		return sock_no_sendpage(sock, page, offset, size, flags);
	return mrc_sock_do_send(msk, &(struct mrc_send_src){ .page = page,
							     .offset = offset },
				size, flags);
}

/* As for sending, plus MSG_CMSG_CLOEXEC and MSG_NOSIGNAL that some
 * programs pass to recv() out of habit; MSG_OOB is refused.
 */
#define MRC_RECV_FLAGS	(MSG_DONTWAIT | MSG_WAITALL | MSG_PEEK | MSG_TRUNC | \
			 MSG_CMSG_CLOEXEC | MSG_ERRQUEUE | MSG_NOSIGNAL | \
			 MSG_CMSG_COMPAT)

/**
 * mrc_recvmsg() - the recvmsg socket call of every MRC socket.
 * @sock: the socket.
 * @msg: where to copy.
 * @len: room in @msg.
 * @flags: MSG_* flags.
 *
 * Return: bytes received, 0 at end of stream, or a negative errno.
 */
int mrc_recvmsg(struct socket *sock, struct msghdr *msg, size_t len,
		int flags)
{
	struct mrc_sock *msk = mrc_sk(sock->sk);

	if (flags & ~MRC_RECV_FLAGS)
		return -EOPNOTSUPP;
	if (flags & MSG_ERRQUEUE)
		return -EAGAIN;
	return mrc_sock_do_recvmsg(msk, msg, len, flags);
}
