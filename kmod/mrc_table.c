// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: demultiplexing tables of a namespace.
 *
 * Two hash tables per namespace: sockets by local QPN (every packet but
 * CM_REQ carries the destination QPN) and bound sockets by service port
 * (CM_REQ names a port; bind() must find conflicts). Writers hold
 * tbl_lock with BH disabled; readers in softirq use RCU and take a socket
 * reference before leaving the read section (sockets are freed after an
 * RCU grace period: SOCK_RCU_FREE).
 */
#include <linux/random.h>
#include <net/ipv6.h>

#include "mrc_sk.h"
#include "mrc_table.h"

/**
 * mrc_table_add_qpn() - give a socket a fresh random QPN and hash it.
 * @msk: the socket; must not be hashed yet.
 *
 * A random QPN (>= MRC_QPN_FIRST_DYNAMIC) makes blind injection of
 * packets into a connection a 24-bit guess on top of the R_Key.
 *
 * Return: 0, or -EADDRNOTAVAIL if no free QPN was found.
 */
int mrc_table_add_qpn(struct mrc_sock *msk)
{
	return mrc_table_add_qpn_as(msk, 0);
}

/**
 * mrc_table_add_qpn_as() - hash a socket under a given QPN, or a fresh
 * random one.
 * @msk: the socket; must not be hashed yet.
 * @want: the QPN (a stateless CM_REP announced it), or 0 for a random
 *	one (mrc_table_add_qpn()).
 *
 * Return: 0, or -EADDRNOTAVAIL if @want is taken (or no free QPN was
 * found).
 */
int mrc_table_add_qpn_as(struct mrc_sock *msk, u32 want)
{
	struct mrc_dp_net *dn = mrc_dp_net(sock_net(&msk->sk));
	int tries;

	spin_lock_bh(&dn->tbl_lock);
	for (tries = 0; tries < (want ? 1 : 64); tries++) {
		u32 qpn = want ?: get_random_u32() & MRC_QPN_MASK;
		struct mrc_sock *o;
		bool used = false;

		if (qpn < MRC_QPN_FIRST_DYNAMIC)
			continue;
		hash_for_each_possible(dn->qpn_tbl, o, qpn_node, qpn) {
			if (o->lqpn == qpn) {
				used = true;
				break;
			}
		}
		if (used)
			continue;
		msk->lqpn = qpn;
		hash_add_rcu(dn->qpn_tbl, &msk->qpn_node, qpn);
		msk->hashed_qpn = true;
		sock_hold(&msk->sk);
		spin_unlock_bh(&dn->tbl_lock);
		return 0;
	}
	spin_unlock_bh(&dn->tbl_lock);
	return -EADDRNOTAVAIL;
}

/**
 * mrc_table_del_qpn() - unhash a socket from the QPN table.
 * @msk: the socket.
 */
void mrc_table_del_qpn(struct mrc_sock *msk)
{
	struct mrc_dp_net *dn = mrc_dp_net(sock_net(&msk->sk));
	bool put = false;

	spin_lock_bh(&dn->tbl_lock);
	if (msk->hashed_qpn) {
		hash_del_rcu(&msk->qpn_node);
		msk->hashed_qpn = false;
		put = true;
	}
	spin_unlock_bh(&dn->tbl_lock);
	if (put)
		sock_put(&msk->sk);
}

/**
 * mrc_table_lookup_qpn() - find the socket of a local QPN.
 * @net: the namespace.
 * @qpn: the QPN.
 *
 * Context: any.
 * Return: the socket with a reference held, or NULL.
 */
struct mrc_sock *mrc_table_lookup_qpn(struct net *net, u32 qpn)
{
	struct mrc_dp_net *dn = mrc_dp_net(net);
	struct mrc_sock *msk, *found = NULL;

	rcu_read_lock();
	hash_for_each_possible_rcu(dn->qpn_tbl, msk, qpn_node, qpn) {
		if (msk->lqpn == qpn && refcount_inc_not_zero(&msk->sk.sk_refcnt)) {
			found = msk;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

/**
 * mrc_table_lookup_peer() - find the connection to a peer's QPN at a peer's
 * address, for the one packet that cannot name our QPN: a NO_CONN RESET
 * (the peer forgot the connection, and data packets do not carry our QPN).
 * A scan of the namespace's connections: the caller keeps it within a
 * budget.
 * @net: the namespace.
 * @addr: the peer's address.
 * @rqpn: the peer's QPN.
 *
 * Context: any.
 * Return: the socket with a reference held, or NULL.
 */
struct mrc_sock *mrc_table_lookup_peer(struct net *net,
				       const struct in6_addr *addr, u32 rqpn)
{
	struct mrc_dp_net *dn = mrc_dp_net(net);
	struct mrc_sock *msk, *found = NULL;
	int bkt;

	rcu_read_lock();
	hash_for_each_rcu(dn->qpn_tbl, bkt, msk, qpn_node) {
		if (READ_ONCE(msk->rqpn) == rqpn &&
		    ipv6_addr_equal(&msk->daddr, addr) &&
		    refcount_inc_not_zero(&msk->sk.sk_refcnt)) {
			found = msk;
			goto out;
		}
	}
out:
	rcu_read_unlock();
	return found;
}

static bool mrc_port_used(struct mrc_dp_net *dn, u16 port, const struct in6_addr *addr,
			  bool reuse)
{
	struct mrc_sock *o;

	hash_for_each_possible(dn->port_tbl, o, port_node, port) {
		if (o->sport != port)
			continue;
		if (reuse && o->sk.sk_reuse && o->sk.sk_state != MRC_ST_LISTEN)
			continue;
		if (ipv6_addr_any(addr) || ipv6_addr_any(&o->saddr) ||
		    ipv6_addr_equal(addr, &o->saddr))
			return true;
	}
	return false;
}

/**
 * mrc_table_bind() - claim a service port for a socket.
 * @msk: the socket, with @msk->saddr set (may be any).
 * @port: the port, or 0 for an ephemeral one.
 *
 * Return: 0, -EADDRINUSE when the port is taken, -EADDRNOTAVAIL when no
 * ephemeral port is free.
 */
int mrc_table_bind(struct mrc_sock *msk, u16 port)
{
	struct mrc_dp_net *dn = mrc_dp_net(sock_net(&msk->sk));
	bool reuse = msk->sk.sk_reuse;
	int n = MRC_EPHEMERAL_HI - MRC_EPHEMERAL_LO + 1;
	int err = 0;

	spin_lock_bh(&dn->tbl_lock);
	if (port) {
		if (mrc_port_used(dn, port, &msk->saddr, reuse))
			err = -EADDRINUSE;
	} else {
		err = -EADDRNOTAVAIL;
		while (n--) {
			u16 p = dn->next_port++;

			if (dn->next_port > MRC_EPHEMERAL_HI)
				dn->next_port = MRC_EPHEMERAL_LO;
			if (!mrc_port_used(dn, p, &msk->saddr, false)) {
				port = p;
				err = 0;
				break;
			}
		}
	}
	if (!err) {
		msk->sport = port;
		hash_add_rcu(dn->port_tbl, &msk->port_node, port);
		msk->hashed_port = true;
		sock_hold(&msk->sk);
	}
	spin_unlock_bh(&dn->tbl_lock);
	return err;
}

/**
 * mrc_table_unbind() - release a socket's service port.
 * @msk: the socket.
 */
void mrc_table_unbind(struct mrc_sock *msk)
{
	struct mrc_dp_net *dn = mrc_dp_net(sock_net(&msk->sk));
	bool put = false;

	spin_lock_bh(&dn->tbl_lock);
	if (msk->hashed_port) {
		hash_del_rcu(&msk->port_node);
		msk->hashed_port = false;
		put = true;
	}
	spin_unlock_bh(&dn->tbl_lock);
	if (put)
		sock_put(&msk->sk);
}

/**
 * mrc_table_lookup_listener() - find the listener of a service port.
 * @net: the namespace.
 * @port: the port the CM_REQ names.
 * @daddr: the address the CM_REQ was sent to.
 *
 * A listener bound to @daddr wins over one bound to any address.
 *
 * Context: any.
 * Return: the listener with a reference held, or NULL.
 */
struct mrc_sock *mrc_table_lookup_listener(struct net *net, u16 port,
					   const struct in6_addr *daddr)
{
	struct mrc_dp_net *dn = mrc_dp_net(net);
	struct mrc_sock *msk, *best = NULL;

	rcu_read_lock();
	hash_for_each_possible_rcu(dn->port_tbl, msk, port_node, port) {
		if (msk->sport != port || READ_ONCE(msk->sk.sk_state) != MRC_ST_LISTEN)
			continue;
		if (ipv6_addr_equal(&msk->saddr, daddr)) {
			best = msk;
			break;
		}
		if (ipv6_addr_any(&msk->saddr) && !best)
			best = msk;
	}
	if (best && !refcount_inc_not_zero(&best->sk.sk_refcnt))
		best = NULL;
	rcu_read_unlock();
	return best;
}
