// SPDX-License-Identifier: GPL-2.0
/*
 * MRC for Linux: socket options and ioctls.
 *
 * SOL_MRC holds MRC's own options. IPPROTO_TCP and IPPROTO_IPV6 hold what
 * TCP programs set on their sockets, so that they run unmodified over
 * IPPROTO_MRC (AF_MRC sockets answer the same way): each option is
 * honoured, mapped onto MRC, accepted and ignored, or refused with an
 * errno, as Documentation/socket-options.md lists (and
 * selftests/progs/sockopts.cpp checks, row by row). SOL_SOCKET options
 * are the kernel's own (sock_setsockopt()); SO_KEEPALIVE reaches MRC
 * through proto.keepalive.
 *
 * Unknown options are ENOPROTOOPT. A refused option is EOPNOTSUPP: it
 * asks for something MRC cannot do or would have to fake (TCP-MD5,
 * repair, kTLS, zero-copy receive, IPsec policies, flow label leases: the
 * flow label carries MRC's entropy value).
 */
#include <asm/ioctls.h>
#include <linux/sockios.h>
#include <linux/tcp.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "mrc_conn_glue.h"
#include "mrc_sockopt.h"
#include "mrc_tcp_listen.h"

/* TCP's own limits (include/net/tcp.h), which TCP programs expect. */
#define MRC_TCP_MAX_KEEPIDLE	32767
#define MRC_TCP_MAX_KEEPINTVL	32767
#define MRC_TCP_MAX_KEEPCNT	127
#define MRC_TCP_MAX_SYNCNT	127
#define MRC_TCP_MIN_MSS		88
#define MRC_TCP_MAX_WINDOW	65535
#define MRC_TCP_MSS_DEFAULT	536

static int mrc_opt_get_int(sockptr_t optval, unsigned int optlen, int *val)
{
	if (optlen < sizeof(int))
		return -EINVAL;
	if (copy_from_sockptr(val, optval, sizeof(int)))
		return -EFAULT;
	return 0;
}

static int mrc_opt_put(char __user *optval, int __user *optlen,
		       const void *val, unsigned int size)
{
	int len;

	if (get_user(len, optlen))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;
	len = min_t(unsigned int, len, size);
	if (put_user(len, optlen) || copy_to_user(optval, val, len))
		return -EFAULT;
	return 0;
}

static int mrc_opt_put_int(char __user *optval, int __user *optlen, int val)
{
	return mrc_opt_put(optval, optlen, &val, sizeof(val));
}

/* ---- SOL_MRC ---- */

/* Is there a failure policy of that name in @net? */
static bool mrc_sockopt_policy_exists(struct net *net, const char *name)
{
	char found[MRC_POLICY_NAME_LEN + 1];
	struct mrc_policy pol;

	return !mrc_cfg_policy_get(net, name, &pol, found);
}

static int mrc_setsockopt_mrc(struct mrc_sock *msk, int optname,
			      sockptr_t optval, unsigned int optlen)
{
	struct sock *sk = &msk->sk;
	char name[sizeof(msk->policy)];
	int err = 0;

	switch (optname) {
	case MRC_SO_ACCEPT_TCP: {
		int val;

		if (sk->sk_family != AF_INET6)
			return -EOPNOTSUPP;
		err = mrc_opt_get_int(optval, optlen, &val);
		if (err)
			return err;
		lock_sock(sk);
		if (sk->sk_state != MRC_ST_CLOSED)
			err = -EISCONN;	/* before listen(), as MRC_SO_POLICY */
		else if (msk->hashed_port && !val)
			mrc_tcp_listen_stop(msk);	/* give the TCP port back */
		if (!err)
			msk->opts.accept_tcp = !!val;
		release_sock(sk);
		return err;
	}
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
		else if (!mrc_sockopt_policy_exists(sock_net(sk), name))
			err = -ENOENT;
		else
			strscpy(msk->policy, name, sizeof(msk->policy));
		release_sock(sk);
		return err;
	default:
		return -ENOPROTOOPT;
	}
}

static int mrc_getsockopt_mrc(struct mrc_sock *msk, int optname,
			      char __user *optval, int __user *optlen)
{
	struct sock *sk = &msk->sk;
	char name[sizeof(msk->policy)];
	int err;

	switch (optname) {
	case MRC_SO_POLICY:
		lock_sock(sk);
		memcpy(name, msk->policy, sizeof(name));
		release_sock(sk);
		return mrc_opt_put(optval, optlen, name,
				   strnlen(name, sizeof(name)) + 1);
	case MRC_SO_INFO:
		lock_sock(sk);
		err = mrc_glue_info(msk, optval, optlen);
		release_sock(sk);
		return err;
	case MRC_SO_ACCEPT_TCP: {
		int val;

		if (sk->sk_family != AF_INET6)
			return -EOPNOTSUPP;
		lock_sock(sk);
		val = msk->opts.accept_tcp;
		release_sock(sk);
		return mrc_opt_put_int(optval, optlen, val);
	}
	default:
		return -ENOPROTOOPT;
	}
}

/* ---- IPPROTO_TCP ---- */

/* Options refused at the TCP level, set or get. */
static bool mrc_tcp_refused(int optname)
{
	switch (optname) {
	case TCP_MD5SIG:
	case TCP_MD5SIG_EXT:
	case TCP_REPAIR:
	case TCP_REPAIR_QUEUE:
	case TCP_QUEUE_SEQ:
	case TCP_REPAIR_OPTIONS:
	case TCP_REPAIR_WINDOW:
	case TCP_TIMESTAMP:
	case TCP_CC_INFO:
	case TCP_SAVE_SYN:
	case TCP_SAVED_SYN:
	case TCP_ULP:
	case TCP_ZEROCOPY_RECEIVE:
	case TCP_INQ:
	case TCP_TX_DELAY:
	case TCP_FASTOPEN_KEY:
		return true;
	default:
		return false;
	}
}

/* Set one TCP option; the socket is locked. */
static int mrc_tcp_set(struct mrc_sock *msk, int optname, int val)
{
	struct mrc_sock_opts *o = &msk->opts;
	struct sock *sk = &msk->sk;

	switch (optname) {
	case TCP_NODELAY:
		o->nodelay = !!val;
		return 0;
	case TCP_CORK:
		o->cork = !!val;
		return 0;
	case TCP_QUICKACK:
		return 0;
	case TCP_MAXSEG:
		if (val && (val < MRC_TCP_MIN_MSS || val > MRC_TCP_MAX_WINDOW))
			return -EINVAL;
		o->maxseg = val;
		return 0;
	case TCP_KEEPIDLE:
		if (val < 1 || val > MRC_TCP_MAX_KEEPIDLE)
			return -EINVAL;
		o->ka_idle = val;
		break;
	case TCP_KEEPINTVL:
		if (val < 1 || val > MRC_TCP_MAX_KEEPINTVL)
			return -EINVAL;
		o->ka_intvl = val;
		break;
	case TCP_KEEPCNT:
		if (val < 1 || val > MRC_TCP_MAX_KEEPCNT)
			return -EINVAL;
		o->ka_cnt = val;
		break;
	case TCP_USER_TIMEOUT:
		if (val < 0)
			return -EINVAL;
		o->user_timeout = val;
		break;
	case TCP_SYNCNT:
		if (val < 1 || val > MRC_TCP_MAX_SYNCNT)
			return -EINVAL;
		o->syncnt = val;
		return 0;
	case TCP_LINGER2:
		o->linger2 = val;
		return 0;
	case TCP_DEFER_ACCEPT:
		o->defer_accept = max(val, 0);
		return 0;
	case TCP_WINDOW_CLAMP:
		if (val < 0)
			return -EINVAL;
		o->window_clamp = val;
		return 0;
	case TCP_NOTSENT_LOWAT:
		o->notsent_lowat = val;
		return 0;
	case TCP_THIN_LINEAR_TIMEOUTS:
		o->thin = !!val;
		return 0;
	case TCP_THIN_DUPACK:
		o->thin_dupack = !!val;
		return 0;
	case TCP_FASTOPEN:
		if (val < 0)
			return -EINVAL;
		o->fastopen = val;
		return 0;
	case TCP_FASTOPEN_CONNECT:
		o->fastopen_connect = !!val;
		return 0;
	case TCP_FASTOPEN_NO_COOKIE:
		if (val < 0 || val > 1)
			return -EINVAL;
		o->fastopen_no_cookie = val;
		return 0;
	default:
		return -ENOPROTOOPT;
	}
	/* Keepalive or user timeout: the engine follows at once. */
	mrc_glue_apply_opts(msk, sock_flag(sk, SOCK_KEEPOPEN));
	return 0;
}

static int mrc_setsockopt_tcp(struct mrc_sock *msk, int optname,
			      sockptr_t optval, unsigned int optlen)
{
	int val, err;

	if (mrc_tcp_refused(optname))
		return -EOPNOTSUPP;
	if (optname == TCP_CONGESTION) {
		/* MRC's congestion control is its own (NSCC), not TCP's. */
		return optlen ? -ENOENT : -EINVAL;
	}
	if (optname == TCP_INFO)
		return -ENOPROTOOPT;	/* read-only, as for TCP */
	err = mrc_opt_get_int(optval, optlen, &val);
	if (err)
		return err;
	lock_sock(&msk->sk);
	err = mrc_tcp_set(msk, optname, val);
	release_sock(&msk->sk);
	return err;
}

static u8 mrc_tcp_state(int state)
{
	switch (state) {
	case MRC_ST_ESTABLISHED:
		return TCP_ESTABLISHED;
	case MRC_ST_REQ_SENT:
		return TCP_SYN_SENT;
	case MRC_ST_REP_SENT:
		return TCP_SYN_RECV;
	case MRC_ST_DREQ_SENT:
		return TCP_FIN_WAIT1;
	case MRC_ST_PEER_CLOSED:
		return TCP_CLOSE_WAIT;
	case MRC_ST_LISTEN:
		return TCP_LISTEN;
	default:
		return TCP_CLOSE;
	}
}

/* TCP_INFO: what MRC knows, in TCP's terms; the rest stays zero. */
static void mrc_tcp_info(struct mrc_sock *msk, struct tcp_info *ti)
{
	struct mrc_conn_info ci;
	u32 mss;

	memset(ti, 0, sizeof(*ti));
	ti->tcpi_state = mrc_tcp_state(msk->sk.sk_state);
	if (!mrc_glue_conn_info(msk, &ci))
		return;
	mss = msk->params ? msk->params->max_payload : 0;
	ti->tcpi_options = TCPI_OPT_SACK;	/* selective acknowledgment */
	ti->tcpi_rto = div_u64(ci.rto_ns, NSEC_PER_USEC);
	ti->tcpi_snd_mss = mss;
	ti->tcpi_rcv_mss = mss;
	ti->tcpi_advmss = mss;
	ti->tcpi_unacked = ci.inflight_pkts;
	ti->tcpi_lost = ci.lost_pkts;
	ti->tcpi_rtt = div_u64(ci.srtt_ns, NSEC_PER_USEC);
	ti->tcpi_rttvar = div_u64(ci.rttvar_ns, NSEC_PER_USEC);
	ti->tcpi_min_rtt = div_u64(ci.min_rtt_ns, NSEC_PER_USEC);
	ti->tcpi_snd_ssthresh = TCP_INFINITE_SSTHRESH;
	ti->tcpi_rcv_ssthresh = TCP_INFINITE_SSTHRESH;
	ti->tcpi_snd_cwnd = mss ? DIV_ROUND_UP_ULL(ci.cwnd, mss) : 0;
	ti->tcpi_total_retrans = ci.rtx_pkts;
	ti->tcpi_bytes_sent = ci.tx_bytes;
	ti->tcpi_bytes_acked = ci.snd_una_off;
	ti->tcpi_bytes_received = ci.rcv_deliver_off;
	ti->tcpi_segs_out = ci.tx_pkts + ci.tx_ctrl;
	ti->tcpi_segs_in = ci.rx_pkts + ci.rx_ctrl;
	ti->tcpi_data_segs_out = ci.tx_pkts;
	ti->tcpi_data_segs_in = ci.rx_pkts;
	ti->tcpi_notsent_bytes = ci.snd_end_off - ci.snd_nxt_off;
	ti->tcpi_snd_wnd = ci.snd_limit > ci.snd_una_off ?
			   min_t(u64, ci.snd_limit - ci.snd_una_off, U32_MAX) : 0;
	ti->tcpi_rcv_space = min_t(u64, msk->sk.sk_rcvbuf, U32_MAX);
	ti->tcpi_rcv_ooopack = ci.rcv_held;
	ti->tcpi_max_pacing_rate = READ_ONCE(msk->sk.sk_max_pacing_rate);
}

/* TCP_KEEPIDLE/INTVL (s) and CNT: the socket's, or its policy's. */
static int mrc_keepalive_get(struct mrc_sock *msk, int optname)
{
	const struct mrc_sock_opts *o = &msk->opts;
	struct mrc_policy pol;

	if (optname == TCP_KEEPIDLE && o->ka_idle)
		return o->ka_idle;
	if (optname == TCP_KEEPINTVL && o->ka_intvl)
		return o->ka_intvl;
	if (optname == TCP_KEEPCNT && o->ka_cnt)
		return o->ka_cnt;
	mrc_glue_policy(msk, &pol);
	if (optname == TCP_KEEPIDLE)
		return DIV_ROUND_UP_ULL(pol.keepalive_idle_ns, NSEC_PER_SEC);
	if (optname == TCP_KEEPINTVL)
		return DIV_ROUND_UP_ULL(pol.keepalive_intvl_ns, NSEC_PER_SEC);
	return pol.keepalive_cnt;
}

static int mrc_tcp_get(struct mrc_sock *msk, int optname, int *val)
{
	const struct mrc_sock_opts *o = &msk->opts;
	struct net *net = sock_net(&msk->sk);

	switch (optname) {
	case TCP_NODELAY:
		*val = o->nodelay;
		break;
	case TCP_CORK:
		*val = o->cork;
		break;
	case TCP_QUICKACK:
		*val = 1;	/* MRC never delays an acknowledgment on purpose */
		break;
	case TCP_MAXSEG:
		/* The payload of one MRC packet once known. */
		if (msk->params && msk->sk.sk_state != MRC_ST_CLOSED &&
		    msk->sk.sk_state != MRC_ST_LISTEN)
			*val = msk->params->max_payload;
		else
			*val = o->maxseg ?: MRC_TCP_MSS_DEFAULT;
		break;
	case TCP_KEEPIDLE:
	case TCP_KEEPINTVL:
	case TCP_KEEPCNT:
		*val = mrc_keepalive_get(msk, optname);
		break;
	case TCP_USER_TIMEOUT:
		*val = o->user_timeout;
		break;
	case TCP_SYNCNT:
		*val = o->syncnt ?: READ_ONCE(net->ipv4.sysctl_tcp_syn_retries);
		break;
	case TCP_LINGER2:
		*val = o->linger2;
		break;
	case TCP_DEFER_ACCEPT:
		*val = o->defer_accept;
		break;
	case TCP_WINDOW_CLAMP:
		*val = o->window_clamp;
		break;
	case TCP_NOTSENT_LOWAT:
		*val = o->notsent_lowat;
		break;
	case TCP_THIN_LINEAR_TIMEOUTS:
		*val = o->thin;
		break;
	case TCP_THIN_DUPACK:
		*val = o->thin_dupack;
		break;
	case TCP_FASTOPEN:
		*val = o->fastopen;
		break;
	case TCP_FASTOPEN_CONNECT:
		*val = o->fastopen_connect;
		break;
	case TCP_FASTOPEN_NO_COOKIE:
		*val = o->fastopen_no_cookie;
		break;
	default:
		return -ENOPROTOOPT;
	}
	return 0;
}

static int mrc_getsockopt_tcp(struct mrc_sock *msk, int optname,
			      char __user *optval, int __user *optlen)
{
	struct sock *sk = &msk->sk;
	int val, err;

	if (mrc_tcp_refused(optname))
		return -EOPNOTSUPP;
	if (optname == TCP_INFO) {
		struct tcp_info ti;

		lock_sock(sk);
		mrc_tcp_info(msk, &ti);
		release_sock(sk);
		return mrc_opt_put(optval, optlen, &ti, sizeof(ti));
	}
	if (optname == TCP_CONGESTION) {
		char name[TCP_CA_NAME_MAX] = "nscc";

		lock_sock(sk);
		if (msk->params && msk->params->cc_name[0])
			strscpy(name, msk->params->cc_name, sizeof(name));
		release_sock(sk);
		return mrc_opt_put(optval, optlen, name, sizeof(name));
	}
	lock_sock(sk);
	err = mrc_tcp_get(msk, optname, &val);
	release_sock(sk);
	if (err)
		return err;
	return mrc_opt_put_int(optval, optlen, val);
}

/* ---- IPPROTO_IPV6 ---- */

/*
 * IPv6 options MRC has no use for: ancillary data of datagrams, multicast,
 * router alert, raw sockets. ENOPROTOOPT, as for an unknown option.
 */
static bool mrc_ipv6_not_applicable(int optname)
{
	switch (optname) {
	case IPV6_2292PKTINFO:
	case IPV6_2292HOPOPTS:
	case IPV6_2292DSTOPTS:
	case IPV6_2292RTHDR:
	case IPV6_2292PKTOPTIONS:
	case IPV6_CHECKSUM:
	case IPV6_2292HOPLIMIT:
	case IPV6_NEXTHOP:
	case IPV6_AUTHHDR:
	case IPV6_MULTICAST_IF:
	case IPV6_MULTICAST_HOPS:
	case IPV6_MULTICAST_LOOP:
	case IPV6_ADD_MEMBERSHIP:
	case IPV6_DROP_MEMBERSHIP:
	case IPV6_ROUTER_ALERT:
	case IPV6_JOIN_ANYCAST:
	case IPV6_LEAVE_ANYCAST:
	case IPV6_MULTICAST_ALL:
	case IPV6_ROUTER_ALERT_ISOLATE:
	case IPV6_HDRINCL:
	case MCAST_JOIN_GROUP:
	case MCAST_BLOCK_SOURCE:
	case MCAST_UNBLOCK_SOURCE:
	case MCAST_LEAVE_GROUP:
	case MCAST_JOIN_SOURCE_GROUP:
	case MCAST_LEAVE_SOURCE_GROUP:
	case MCAST_MSFILTER:
	case IPV6_RECVPKTINFO:
	case IPV6_PKTINFO:
	case IPV6_RECVHOPLIMIT:
	case IPV6_HOPLIMIT:
	case IPV6_RECVHOPOPTS:
	case IPV6_HOPOPTS:
	case IPV6_RTHDRDSTOPTS:
	case IPV6_RECVRTHDR:
	case IPV6_RTHDR:
	case IPV6_RECVDSTOPTS:
	case IPV6_DSTOPTS:
	case IPV6_RECVPATHMTU:
	case IPV6_PATHMTU:
	case IPV6_DONTFRAG:
	case IPV6_RECVTCLASS:
	case IPV6_RECVORIGDSTADDR:
	case IPV6_RECVFRAGSIZE:
		return true;
	default:
		return false;
	}
}

/* IPv6 options refused: MRC would have to fake them. */
static bool mrc_ipv6_refused(int optname)
{
	switch (optname) {
	case IPV6_ADDRFORM:
	case IPV6_FLOWLABEL_MGR:
	case IPV6_IPSEC_POLICY:
	case IPV6_XFRM_POLICY:
	case IPV6_MINHOPCOUNT:
	case IPV6_TRANSPARENT:
		return true;
	default:
		return false;
	}
}

static int mrc_ipv6_set(struct mrc_sock *msk, int optname, int val)
{
	struct mrc_sock_opts *o = &msk->opts;

	switch (optname) {
	case IPV6_V6ONLY:
		/* MRC is always IPv6 only, and refuses mapped addresses; the
		 * value goes to the TCP listener of MRC_SO_ACCEPT_TCP.
		 */
		o->v6only = !!val;
		return 0;
	case IPV6_TCLASS:
		if (val < -1 || val > 0xff)
			return -EINVAL;
		o->tclass = val < 0 ? 0 : val;
		return 0;
	case IPV6_UNICAST_HOPS:
		if (val < -1 || val > 0xff)
			return -EINVAL;
		o->unicast_hops = val;
		return 0;
	case IPV6_RECVERR:
		o->recverr = !!val;
		return 0;
	case IPV6_RECVERR_RFC4884:
		if (val < 0 || val > 1)
			return -EINVAL;
		return 0;
	case IPV6_MTU_DISCOVER:
		if (val < IPV6_PMTUDISC_DONT || val > IPV6_PMTUDISC_OMIT)
			return -EINVAL;
		o->mtu_discover = val;
		return 0;
	case IPV6_MTU:
	case IPV6_FLOWINFO:
	case IPV6_FLOWINFO_SEND:
	case IPV6_UNICAST_IF:
		return 0;
	case IPV6_AUTOFLOWLABEL:
		o->autoflowlabel = !!val;
		return 0;
	case IPV6_ADDR_PREFERENCES:
		o->addr_prefs = val;
		return 0;
	case IPV6_FREEBIND:
		o->freebind = !!val;
		return 0;
	default:
		return -ENOPROTOOPT;
	}
}

static int mrc_ipv6_get(struct mrc_sock *msk, int optname, int *val)
{
	const struct mrc_sock_opts *o = &msk->opts;
	struct net *net = sock_net(&msk->sk);

	switch (optname) {
	case IPV6_V6ONLY:
		*val = 1;
		break;
	case IPV6_TCLASS:
		*val = o->tclass;
		break;
	case IPV6_UNICAST_HOPS:
		*val = o->unicast_hops >= 0 ? o->unicast_hops :
		       READ_ONCE(net->ipv6.devconf_all->hop_limit);
		break;
	case IPV6_RECVERR:
		*val = o->recverr;
		break;
	case IPV6_RECVERR_RFC4884:
	case IPV6_FLOWINFO:
	case IPV6_FLOWINFO_SEND:
	case IPV6_UNICAST_IF:
		*val = 0;
		break;
	case IPV6_MTU_DISCOVER:
		*val = o->mtu_discover;
		break;
	case IPV6_AUTOFLOWLABEL:
		*val = o->autoflowlabel;
		break;
	case IPV6_ADDR_PREFERENCES:
		*val = o->addr_prefs;
		break;
	case IPV6_FREEBIND:
		*val = o->freebind;
		break;
	default:
		return -ENOPROTOOPT;
	}
	return 0;
}

static int mrc_setsockopt_ipv6(struct mrc_sock *msk, int optname,
			       sockptr_t optval, unsigned int optlen)
{
	int val, err;

	if (mrc_ipv6_refused(optname))
		return -EOPNOTSUPP;
	if (mrc_ipv6_not_applicable(optname))
		return -ENOPROTOOPT;
	err = mrc_opt_get_int(optval, optlen, &val);
	if (err)
		return err;
	lock_sock(&msk->sk);
	err = mrc_ipv6_set(msk, optname, val);
	release_sock(&msk->sk);
	return err;
}

static int mrc_getsockopt_ipv6(struct mrc_sock *msk, int optname,
			       char __user *optval, int __user *optlen)
{
	int val, err;

	if (mrc_ipv6_refused(optname))
		return -EOPNOTSUPP;
	if (mrc_ipv6_not_applicable(optname) || optname == IPV6_MTU)
		return -ENOPROTOOPT;
	lock_sock(&msk->sk);
	err = mrc_ipv6_get(msk, optname, &val);
	release_sock(&msk->sk);
	if (err)
		return err;
	return mrc_opt_put_int(optval, optlen, val);
}

/**
 * mrc_setsockopt() - setsockopt() of an MRC socket, levels other than
 * SOL_SOCKET (which the kernel handles itself).
 * @sock: the socket.
 * @level: SOL_MRC, IPPROTO_TCP or IPPROTO_IPV6; others are ENOPROTOOPT.
 * @optname: the option.
 * @optval: its value.
 * @optlen: its length.
 *
 * Return: 0 or a negative errno.
 */
int mrc_setsockopt(struct socket *sock, int level, int optname,
		   sockptr_t optval, unsigned int optlen)
{
	struct mrc_sock *msk = mrc_sk(sock->sk);

	switch (level) {
	case SOL_MRC:
		return mrc_setsockopt_mrc(msk, optname, optval, optlen);
	case SOL_TCP:
		return mrc_setsockopt_tcp(msk, optname, optval, optlen);
	case SOL_IPV6:
		return mrc_setsockopt_ipv6(msk, optname, optval, optlen);
	default:
		return -ENOPROTOOPT;
	}
}

/**
 * mrc_getsockopt() - getsockopt() of an MRC socket, levels other than
 * SOL_SOCKET.
 * @sock: the socket.
 * @level: SOL_MRC, IPPROTO_TCP or IPPROTO_IPV6; others are ENOPROTOOPT.
 * @optname: the option.
 * @optval: user buffer.
 * @optlen: its length (in: room; out: bytes written).
 *
 * Return: 0 or a negative errno.
 */
int mrc_getsockopt(struct socket *sock, int level, int optname,
		   char __user *optval, int __user *optlen)
{
	struct mrc_sock *msk = mrc_sk(sock->sk);

	switch (level) {
	case SOL_MRC:
		return mrc_getsockopt_mrc(msk, optname, optval, optlen);
	case SOL_TCP:
		return mrc_getsockopt_tcp(msk, optname, optval, optlen);
	case SOL_IPV6:
		return mrc_getsockopt_ipv6(msk, optname, optval, optlen);
	default:
		return -ENOPROTOOPT;
	}
}

/**
 * mrc_keepalive() - SO_KEEPALIVE changed (struct proto .keepalive).
 * @sk: the socket (locked by sock_setsockopt()).
 * @on: the new value (SOCK_KEEPOPEN is set after this returns).
 */
void mrc_keepalive(struct sock *sk, int on)
{
	mrc_glue_apply_opts(mrc_sk(sk), on);
}

/**
 * mrc_ioctl() - the queue ioctls of stream sockets: SIOCINQ (FIONREAD),
 * SIOCOUTQ, SIOCOUTQNSD, SIOCATMARK.
 * @sock: the socket.
 * @cmd: the ioctl.
 * @arg: user pointer to an int.
 *
 * Return: 0, a negative errno, or -ENOIOCTLCMD for every other ioctl, so
 * that the device ioctls (SIOCGIFINDEX...) programs issue on any socket
 * still work.
 */
int mrc_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	struct mrc_sock *msk = mrc_sk(sock->sk);
	struct sock *sk = sock->sk;
	struct mrc_conn_info ci;
	u64 answ;

	switch (cmd) {
	case SIOCINQ:
		if (READ_ONCE(sk->sk_state) == MRC_ST_LISTEN)
			return -EINVAL;
		lock_sock(sk);
		answ = mrc_glue_inq(msk);
		release_sock(sk);
		break;
	case SIOCOUTQ:		/* written and not yet acknowledged */
		answ = READ_ONCE(msk->sndq_bytes);
		break;
	case SIOCOUTQNSD:	/* written and never sent */
		lock_sock(sk);
		if (mrc_glue_conn_info(msk, &ci))
			answ = ci.snd_end_off - ci.snd_nxt_off;
		else
			answ = msk->sndq_bytes;
		release_sock(sk);
		break;
	case SIOCATMARK:	/* MRC has no urgent data */
		answ = 0;
		break;
	default:
		return -ENOIOCTLCMD;
	}
	return put_user((int)min_t(u64, answ, INT_MAX), (int __user *)arg);
}
