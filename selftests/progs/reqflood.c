// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_reqflood: CM_REQs from as many spoofed source addresses, as fast as
 * the guest sends them (selftests 61-flood). The Python injector
 * (selftests/tools/mrc_inject.py flood-req) reaches about 1000 a second
 * in the emulated VM; this one builds each IPv6 + UDP + CM_REQ datagram
 * in place and hands 64 at a time to sendmmsg() on a raw IPv6 socket
 * (IPPROTO_RAW: the IPv6 header is ours, the source address too).
 *
 *   mrc_reqflood --to ADDR --service-port N --sources PREFIX::/64
 *                [--count N] [--port 4791] [--seconds S]
 *
 * Source i is PREFIX::(i >> 16) + 1:(i & 0xffff). Stops after --count,
 * --seconds or at SIGTERM, and prints
 * "flood-req: N requests from N source addresses in T s (R/s)".
 * The layouts: Documentation/wire-format.md, sections 3 and 11 (CM
 * version 2: BTH, CMH, parameters).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH 64
#define MRC_LEN (12 + 24 + 20) /* BTH + CMH + CM parameters */
#define PKT_LEN (40 + 8 + MRC_LEN)

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t next_rand(void)
{
	/* xorshift64*: enough for cookies, QPNs and keys nobody checks */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, v >> 32);
	put32(p + 4, v);
}

static uint32_t sum16(const uint8_t *p, size_t len, uint32_t sum)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

/* One IPv6 + UDP + CM_REQ datagram from @src. */
static void build(uint8_t *pkt, const struct in6_addr *src, const struct in6_addr *dst,
		  uint16_t dport, uint16_t service)
{
	uint8_t *udp = pkt + 40, *m = udp + 8, *cmh = m + 12, *par = cmh + 24;
	uint16_t ulen = 8 + MRC_LEN;
	uint32_t sum;

	memset(pkt, 0, PKT_LEN);
	pkt[0] = 0x60;
	put16(pkt + 4, ulen);
	pkt[6] = IPPROTO_UDP;
	pkt[7] = 64;
	memcpy(pkt + 8, src, 16);
	memcpy(pkt + 24, dst, 16);
	put16(udp, 0xc000 | (next_rand() & 0x3fff)); /* the EV */
	put16(udp + 2, dport);
	put16(udp + 4, ulen);
	/* BTH: CM_REQ to QPN 1, P_Key 0xffff */
	m[0] = 0xe0;
	put16(m + 2, 0xffff);
	put32(m + 4, 1);
	/* CMH version 2 */
	cmh[0] = 2;
	put16(cmh + 2, service);
	put32(cmh + 4, 16 + next_rand() % 0xffffef); /* src_qpn */
	put64(cmh + 12, next_rand());                /* cookie */
	put16(cmh + 20, 0xc000 | (next_rand() & 0x3fff));
	/* parameters: stream, mpr 8, 1024 B, random PSN and R_Key, 1 MiB */
	par[1] = 8;
	put16(par + 2, 1024);
	put32(par + 4, next_rand() & 0xffffff);
	put32(par + 8, next_rand() | 1);
	put32(par + 12, 1 << 20);
	put32(par + 16, 0xf);
	/* UDP checksum over the pseudo-header */
	sum = sum16(pkt + 8, 32, 0);
	sum += ulen + IPPROTO_UDP;
	sum = sum16(udp, ulen, sum);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	sum = ~sum & 0xffff;
	put16(udp + 6, sum ? sum : 0xffff);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"to", required_argument, NULL, 't'},
	    {"service-port", required_argument, NULL, 's'},
	    {"sources", required_argument, NULL, 'S'},
	    {"count", required_argument, NULL, 'n'},
	    {"port", required_argument, NULL, 'p'},
	    {"seconds", required_argument, NULL, 'T'},
	    {NULL, 0, NULL, 0},
	};
	static uint8_t pkts[BATCH][PKT_LEN];
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	struct sockaddr_in6 to = {.sin6_family = AF_INET6};
	struct in6_addr prefix = IN6ADDR_ANY_INIT, src;
	unsigned long count = 100000, sent = 0;
	double seconds = 0, t0, dt;
	uint16_t dport = 4791, service = 0;
	int c, fd, i, sndbuf = 4 << 20;
	char *slash;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (inet_pton(AF_INET6, optarg, &to.sin6_addr) != 1)
				goto usage;
			break;
		case 's':
			service = atoi(optarg);
			break;
		case 'S':
			slash = strchr(optarg, '/');
			if (slash)
				*slash = 0;
			if (inet_pton(AF_INET6, optarg, &prefix) != 1)
				goto usage;
			break;
		case 'n':
			count = strtoul(optarg, NULL, 0);
			break;
		case 'p':
			dport = atoi(optarg);
			break;
		case 'T':
			seconds = atof(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (!service || IN6_IS_ADDR_UNSPECIFIED(&to.sin6_addr))
		goto usage;

	fd = socket(AF_INET6, SOCK_RAW, IPPROTO_RAW);
	if (fd < 0) {
		perror("mrc_reqflood: socket");
		return 2;
	}
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	rng ^= (uint64_t)getpid() << 32 ^ (uint64_t)time(NULL);

	for (i = 0; i < BATCH; i++) {
		iov[i].iov_base = pkts[i];
		iov[i].iov_len = PKT_LEN;
		memset(&msgs[i], 0, sizeof(msgs[i]));
		msgs[i].msg_hdr.msg_name = &to;
		msgs[i].msg_hdr.msg_namelen = sizeof(to);
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	t0 = now_s();
	while (!stop && sent < count && (!seconds || now_s() - t0 < seconds)) {
		int n = count - sent < BATCH ? (int)(count - sent) : BATCH;
		int done;

		for (i = 0; i < n; i++) {
			unsigned long k = sent + i;

			src = prefix;
			src.s6_addr[12] = ((k >> 16) + 1) >> 8;
			src.s6_addr[13] = (k >> 16) + 1;
			src.s6_addr[14] = k >> 8;
			src.s6_addr[15] = k;
			build(pkts[i], &src, &to.sin6_addr, dport, service);
		}
		done = sendmmsg(fd, msgs, n, 0);
		if (done < 0) {
			if (errno == ENOBUFS || errno == EAGAIN || errno == EINTR) {
				usleep(200); /* the qdisc is full */
				continue;
			}
			perror("mrc_reqflood: sendmmsg");
			return 1;
		}
		sent += done;
	}
	dt = now_s() - t0;
	printf("flood-req: %lu requests from %lu source addresses in %.1f s (%.0f/s)\n", sent, sent,
	       dt, dt > 0 ? sent / dt : 0);
	return 0;

usage:
	fprintf(stderr, "usage: mrc_reqflood --to ADDR --service-port N --sources PREFIX::/64 "
			"[--count N] [--port 4791] [--seconds S]\n");
	return 2;
}
