#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Inject hostile MRC packets from raw sockets (selftests 60-inject, 61-flood).

The layouts are those of Documentation/wire-format.md (kmod/core/mrc_wire.h).
Packets are whole IPv6 + UDP datagrams with a correct UDP checksum, sent
from a raw IPv6 socket (IPPROTO_RAW: the header is ours, so any source
address can be forged) in whichever network namespace the source address
routes from. A live connection's QPNs, R_Key and PSNs are learned by
capturing its packets (AF_PACKET) in the receiver's namespace, then
mutated: the hostile packets are as close to real ones as possible.

    mrc_inject.py inject --victim NS,ADDR --peer NS,ADDR --attacker NS,ADDR
        [--port 4791] [--listen-port N] [--oversize-from NS]
      every class against the connection between victim (the receiver of
      a running transfer) and peer; one line per class:
      "RESULT<TAB>ok|fail<TAB>class: packets, counters<TAB>detail"

    mrc_inject.py flood-req --from NS --to ADDR --service-port N --count N
        --sources PREFIX::/64 [--rate PPS]
      CM_REQs from N distinct source addresses (random cookies, QPNs)

    mrc_inject.py rtu-check --from NS --src ADDR --to ADDR --service-port N
        --sources PREFIX::/64 [--forged N] [--expire-after S]
      a CM_REQ from ADDR, its (stateless) CM_REP captured; then N CM_RTUs
      with made-up cookies from spoofed sources, the real CM_RTU with one
      MAC bit changed, and after S seconds (default 22: the cookie, which
      lives 4 slots of 4 s, is 5 or 6 slots old, expired but not so old
      that its 3 slot bits wrap) the real one: 0 created, N + 1 forged,
      1 expired

    mrc_inject.py flood-data --from NS --src ADDR --to ADDR --count N
      data packets to QPNs nobody holds (closed connections)

    mrc_inject.py flood-probe --from NS --src ADDR --to ADDR --qpn Q --count N
      reliability probes and endpoint EV probes

Exit status: 0 when every class passed, 1 otherwise, 2 on a local problem.
"""
import argparse
import ctypes
import fcntl
import os
import random
import select
import socket
import struct
import sys
import time

# Time bounds scale with the kernel under test (MRC_TEST_TIME_SCALE, set by
# the debug suite; see selftests/lib.sh).
TIME_SCALE = int(os.environ.get("MRC_TEST_TIME_SCALE", "1"))

CLONE_NEWNET = 0x40000000
ETH_P_ALL = 0x0003

OP = dict(WRITE_FIRST=0xC6, WRITE_MIDDLE=0xC7, WRITE_LAST=0xC8, WRITE_LAST_IMM=0xC9,
          WRITE_ONLY=0xCA, WRITE_ONLY_IMM=0xCB, TRANSPORT_ACK=0xD1, EP_REQUEST=0xD8,
          EP_RESPONSE=0xD9, SACK=0xDC, NACK=0xDD, PROBE=0xDE, CM_REQ=0xE0, CM_REP=0xE1,
          CM_RTU=0xE2, CM_REJ=0xE3, CM_DREQ=0xE4, CM_DREP=0xE5, RESET=0xE6)
DATA_OPS = range(0xC6, 0xCC)
KNOWN_OPS = set(OP.values())
QPN_CM, QPN_EP = 1, 2
PSN_MOD = 1 << 24

_libc = ctypes.CDLL(None, use_errno=True)
_ns_fds = {}


def enter(ns):
    """Move this (single-threaded) process into network namespace ns."""
    if ns not in _ns_fds:
        _ns_fds[ns] = os.open("/run/netns/" + ns, os.O_RDONLY)
    if _libc.setns(_ns_fds[ns], CLONE_NEWNET) != 0:
        e = ctypes.get_errno()
        raise OSError(e, "setns %s: %s" % (ns, os.strerror(e)))


def stats(ns):
    """The MIB counters (/proc/net/mrc_stat) of a namespace."""
    enter(ns)
    with open("/proc/self/net/mrc_stat") as f:
        return {k: int(v) for k, v in (line.split() for line in f)}


# --- packet building ---------------------------------------------------------

def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def ipv6_udp(src, dst, sport, dport, payload, flowlabel=None):
    s, d = socket.inet_pton(socket.AF_INET6, src), socket.inet_pton(socket.AF_INET6, dst)
    ulen = 8 + len(payload)
    pseudo = s + d + struct.pack("!I3xB", ulen, 17)
    udp = struct.pack("!HHHH", sport, dport, ulen, 0) + payload
    c = csum(pseudo + udp) or 0xFFFF
    udp = udp[:6] + struct.pack("!H", c) + udp[8:]
    fl = sport if flowlabel is None else flowlabel
    ip = struct.pack("!IHBB", (6 << 28) | (fl & 0xFFFFF), ulen, 17, 64) + s + d
    return ip + udp


def bth(opcode, qpn, psn=0, se=0, mig=0, pad=0, tver=0, pkey=0xFFFF, rsvd=0, flags=0):
    return struct.pack("!BBHII", opcode, (se << 7) | (mig << 6) | (pad << 4) | tver, pkey,
                       (rsvd << 24) | (qpn & 0xFFFFFF), (flags << 24) | (psn % PSN_MOD))


def seth(cack, ack_off=0, entropy=0, nxt=0, m=0, pr=0, rsvd0=0, rsvd1=0, mpr=0,
         sack_off=0, bitmap=0, cc=0, key=0):
    """key: bytes 8-11 (UET spdcid|dpdcid), the recipient's R_Key."""
    return struct.pack("!BBhIIIBBhQ", (rsvd0 << 4) | nxt, (m << 6) | (pr << 5) | rsvd1,
                       ack_off, entropy, key, cack % PSN_MOD, cc, mpr, sack_off, bitmap)


def cc_state(ts=0, ooo=0, rcvd=0):
    return struct.pack("!HHI", ts, ooo << 1, rcvd & 0xFFFFFF)


def credit_ext(credit, ports=0xFFFFFFFF, version=1, flags=0):
    return struct.pack("!BBHIQ", version, flags, 0, ports, credit)


def neth(reason, psn, entropy=0, rsvd=0, key=0):
    """key: bytes 8-11 (UET spdcid|dpdcid), the recipient's R_Key."""
    return struct.pack("!BBHIIIBBH", reason, 0, rsvd, entropy, key, psn % PSN_MOD, 0, 0, 0)


def peth(probe_id, key=0):
    """key: bytes 4-7, the recipient's R_Key."""
    return struct.pack("!IIQ", probe_id, key, time.monotonic_ns())


def aeth(syndrome=0, msn=0):
    """RoCE's Transport ACK header (0xD1): counted and ignored."""
    return struct.pack("!I", (syndrome << 24) | (msn & 0xFFFFFF))


def erth(op, req_id=1, ports=0xFFFFFFFF, rsvd=0):
    return struct.pack("!BBHIQ", op, rsvd, req_id, ports, time.monotonic_ns())


def eeth(op, req_id, status=0):
    t = time.monotonic_ns()
    return struct.pack("!BBHIQQQI", op, status, req_id, 0xFFFFFFFF, t, t, t, 0)


def cmh(port, src_qpn, dst_qpn, cookie, version=2, flags=0, client_port=0):
    return struct.pack("!BBHIIQHH", version, flags, port, src_qpn, dst_qpn, cookie,
                       client_port, 0)


def cm_params(sock_type=0, mpr=8, max_payload=1024, init_psn=0, r_key=0,
              rcv_window=1 << 20, caps=0xF):
    return struct.pack("!BBHIIII", sock_type, mpr, max_payload, init_psn % PSN_MOD, r_key,
                       rcv_window, caps)


def rsth(src_qpn, dst_qpn, r_key, reason=0, psn=0):
    return struct.pack("!BBHIIII", 1, reason, 0, src_qpn, dst_qpn, r_key, psn)


def cm_req(port, src_qpn, cookie, **params):
    return bth(OP["CM_REQ"], QPN_CM) + cmh(port, src_qpn, 0, cookie) + cm_params(**params)


# --- the live connection ---------------------------------------------------------

class Conn:
    """What the capture learned: qa/ka receive side (victim), qb/kb sender."""
    data = None      # a captured data packet peer -> victim (MRC bytes)
    sack = None      # a captured SACK victim -> peer
    qa = qb = ka = kb = None
    psn = 0          # highest data PSN seen from the peer
    ev = 0           # an EV the peer uses (UDP source port and flow label)


def parse_bth(p):
    op, _, _, q, f = struct.unpack("!BBHII", p[:12])
    return op, q & 0xFFFFFF, f & 0xFFFFFF, f >> 24


def reth_off(p):
    return 12 + 4 + (4 if parse_bth(p)[3] & 0x20 else 0)


def if_mtu(sock, name, cache={}):
    """The MTU of interface @name (SIOCGIFMTU)."""
    if name not in cache:
        req = struct.pack("16si12x", name.encode()[:15], 0)
        cache[name] = struct.unpack("16si12x", fcntl.ioctl(sock, 0x8921, req))[1]
    return cache[name]


def capture(ns, port, victim, peer, timeout=30):
    """Learn the connection peer -> victim from packets seen in ns."""
    enter(ns)
    # ETH_P_ALL: protocol taps do not see outgoing packets (the SACKs).
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    v = socket.inet_pton(socket.AF_INET6, victim)
    pe = socket.inet_pton(socket.AF_INET6, peer)
    c = Conn()
    deadline = time.monotonic() + timeout * TIME_SCALE
    ndata = 0
    while time.monotonic() < deadline and (ndata < 20 or c.sack is None):
        r, _, _ = select.select([s], [], [], 1)
        if not r:
            continue
        frame, addr = s.recvfrom(65535)
        ip = frame[14:]
        if frame[12:14] != b"\x86\xdd" or len(ip) < 48 or ip[6] != 17:
            continue
        # A sender's burst can pass a veth whole, one frame of several
        # MRC packets back to back (a segmentation-offload packet): only
        # a frame that fits the link is one packet to learn from.
        if len(ip) > if_mtu(s, addr[0]):
            continue
        src, dst = ip[8:24], ip[24:40]
        flow = struct.unpack("!I", ip[0:4])[0] & 0xFFFFF
        sport, dport = struct.unpack("!HH", ip[40:44])
        if dport != port:
            continue
        mrc = ip[48:]
        if len(mrc) < 12:
            continue
        op, qpn, psn, _ = parse_bth(mrc)
        if src == pe and dst == v and op in DATA_OPS:
            ndata += 1
            c.data, c.qa = mrc, qpn
            c.ev = ((flow & 0x3FFFF) << 14) | (sport & 0x3FFF)
            c.ka = struct.unpack("!I", mrc[reth_off(mrc) + 8:reth_off(mrc) + 12])[0]
            if ndata == 1 or ((psn - c.psn) % PSN_MOD) < PSN_MOD // 2:
                c.psn = psn
        elif src == v and dst == pe and op == OP["SACK"] and len(mrc) >= 24:
            c.sack, c.qb = mrc, qpn
            c.kb = struct.unpack("!I", mrc[20:24])[0]  # the peer's key
    s.close()
    if c.data is None or c.sack is None:
        raise RuntimeError("no live connection seen in %s (data %s, sack %s)" %
                           (ns, c.data is not None, c.sack is not None))
    return c


def with_bth(p, **kw):
    """p with BTH fields replaced."""
    op, q, psn, fl = parse_bth(p)
    b1 = p[1]
    args = dict(opcode=op, qpn=q, psn=psn, se=b1 >> 7, mig=(b1 >> 6) & 1,
                pad=(b1 >> 4) & 3, tver=b1 & 15, pkey=struct.unpack("!H", p[2:4])[0],
                rsvd=p[4], flags=fl)
    args.update(kw)
    return bth(**args) + p[12:]


def with_reth(p, va=None, r_key=None, dma=None):
    o = reth_off(p)
    cva, ck, cd = struct.unpack("!QII", p[o:o + 16])
    reth = struct.pack("!QII", cva if va is None else va, ck if r_key is None else r_key,
                       cd if dma is None else dma)
    return p[:o] + reth + p[o + 16:]


# --- sending -------------------------------------------------------------------------

class Sender:
    def __init__(self):
        self.socks = {}
        self.sent = 0

    def send(self, ns, src, dst, payload, sport=None, dport=4791):
        if ns not in self.socks:
            enter(ns)
            s = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_RAW)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
            self.socks[ns] = s
        sport = sport or random.randint(0xC000, 0xFFFF)
        pkt = ipv6_udp(src, dst, sport, dport, payload)
        while True:
            try:
                self.socks[ns].sendto(pkt, (dst, 0))
                break
            except BlockingIOError:
                time.sleep(0.001)
            except OSError as e:
                if e.errno != 105:  # ENOBUFS: the qdisc is full, retry
                    raise
                time.sleep(0.001)
        self.sent += 1


def wait_counters(ns, before, names, want, timeout=15):
    """Poll until the summed delta of names reaches want; return the deltas."""
    deadline = time.monotonic() + timeout * TIME_SCALE
    while True:
        now = stats(ns)
        delta = {n: now.get(n, 0) - before.get(n, 0) for n in names}
        if sum(delta.values()) >= want or time.monotonic() > deadline:
            return delta, now
        time.sleep(0.02)


# --- the classes of hostile input ------------------------------------------------------

def classes(c, a):
    """Yield (name, target, counters, exact, [(sender_ns, src, dst, mrc_bytes)])."""
    V, P, X = a.victim, a.peer, a.attacker
    data = c.data
    rnd = random.Random(1234)
    # Packets that pass the decoder and the address check reach the socket;
    # when a process owns it and its backlog is full they are dropped there
    # first (InDropNomem). Legitimate traffic is dropped there too, so a
    # class during which InDropNomem moved is checked with >=, any other
    # exactly.
    sock = ["InDropNomem"]

    def to_victim(p, frm=P):
        return (frm[0], frm[1], V[1], p)

    def to_peer(p, frm=V):
        return (frm[0], frm[1], P[1], p)

    # 1. Truncated at every header boundary of every packet kind.
    sack = with_bth(c.sack, qpn=c.qa)
    nack = bth(OP["NACK"], c.qa) + neth(0x01, c.psn, key=c.ka)
    probe = bth(OP["PROBE"], c.qa) + peth(7, key=c.ka)
    req = cm_req(a.listen_port, 0x100, 99)
    rst = bth(OP["RESET"], QPN_CM) + rsth(c.qa, c.qa, 1)
    epq = bth(OP["EP_REQUEST"], QPN_EP) + erth(1)
    epr = bth(OP["EP_RESPONSE"], QPN_EP) + eeth(1, 5)
    cuts = []
    for p, bounds in ((data, (1, 4, 8, 11, 12, 15, 16, reth_off(data) - 1,
                              reth_off(data), reth_off(data) + 8, reth_off(data) + 15)),
                      (sack, (12, 13, 20, 39, 40, 47, 48, 63)),
                      (nack, (12, 16, 31)), (probe, (12, 20, 27)),
                      (req, (12, 20, 35, 36, 44, 55)), (rst, (12, 24, 31)),
                      (epq, (12, 27)), (epr, (12, 30, 47))):
        cuts += [to_victim(p[:n]) for n in bounds if n < len(p)]
    yield ("truncated at every header boundary", V[0], ["InDropMalformed"], True, cuts)

    yield ("zero-length UDP payload and empty data parts", V[0],
           ["InDropMalformed", "InDropBadKey"] + sock, True,
           [to_victim(b"")] * 3 +
           [to_victim(bth(OP["WRITE_FIRST"], c.qa, c.psn) + struct.pack("!HH", 0, 0) +
                      struct.pack("!QII", 0, c.ka, 4096))] * 3 +
           [to_victim(bth(OP["WRITE_ONLY"], c.qa, c.psn) + struct.pack("!HH", 0, 0) +
                      struct.pack("!QII", 0, c.ka ^ 0x5A5A5A5A, 0))] * 3)

    # 2. Unknown opcodes, to the live QPN.
    yield ("unknown opcodes (all 237)", V[0], ["InDropMalformed"], True,
           [to_victim(bth(op, c.qa) + bytes(36)) for op in range(256) if op not in KNOWN_OPS])

    # 2b. RoCE's Transport ACK (0xD1) is decoded, counted and ignored;
    # one with trailing bytes is malformed.
    acks = [bth(OP["TRANSPORT_ACK"], c.qa, psn=c.psn) + aeth(s, c.psn) for s in (0, 0x1F, 0x60)]
    acks += [bth(OP["TRANSPORT_ACK"], c.qb, psn=c.psn) + aeth()]
    yield ("Transport ACKs counted and ignored (InTransportAck), one over-long",
           V[0], ["InTransportAck", "InDropMalformed"], True,
           [to_victim(p) for p in acks] + [to_victim(acks[0] + bytes(8))])

    # 2c. FECN, BECN and M are taken (and ignored): the connection's own
    # data packet with them set, at PSNs beyond the window, passes the
    # decoder and the key check and is dropped by the window check.
    yield ("data with FECN, BECN or M set passes the decoder (then beyond the window)",
           V[0], ["InDropPsnWindow"] + sock, True,
           [to_victim(with_bth(data, rsvd=r, mig=m, psn=(c.psn + 50000 + i) % PSN_MOD))
            for i, (r, m) in enumerate(((0x80, 0), (0x40, 0), (0xC0, 1), (0, 1)))])

    # 3. BTH fields that must be zero.
    bad = [with_bth(data, tver=t) for t in (1, 7, 15)]
    bad += [with_bth(data, rsvd=0x20), with_bth(data, rsvd=1), with_bth(data, rsvd=0xBF)]
    bad += [with_bth(data, flags=(parse_bth(data)[3] | f)) for f in (0x01, 0x10)]
    bad += [with_bth(sack, se=1), with_bth(sack, pad=2), with_bth(sack, psn=5),
            with_bth(sack, flags=0x80)]
    yield ("reserved BTH bits, TVer, pad on control packets", V[0],
           ["InDropMalformed"], True, [to_victim(p) for p in bad])

    # 4. Wrong destination QPN (reserved, unknown, another kind's).
    qs = [0, 3, 15, 0xFFFFFF] + [rnd.randint(16, 0xFFFFFE) for _ in range(8)]
    bad = [with_bth(data, qpn=q) for q in qs if q != c.qa and q != c.qb]
    bad += [with_bth(data, qpn=QPN_CM), with_bth(data, qpn=QPN_EP),
            with_bth(sack, qpn=QPN_CM), with_bth(probe, qpn=QPN_EP)]
    yield ("wrong QPN", V[0], ["InDropMalformed", "InDropNoConn"], True,
           [to_victim(p) for p in bad])

    # 5. The connection's own packet, replayed from an off-path address.
    yield ("valid data replayed from an off-path address", V[0], ["InDropNoConn"], True,
           [to_victim(data, X)] * 10)

    # 6. Wrong R_Key, from the peer's address.
    yield ("wrong R_Key", V[0], ["InDropBadKey"] + sock, True,
           [to_victim(with_reth(data, r_key=c.ka ^ (1 << b))) for b in range(0, 32, 3)])

    # 7. PSNs outside the receive window (right key and address).
    offs = (40000, -40000, 1 << 22, -(1 << 22), (1 << 23) - 1, 1 << 23, 70000, -70000)
    yield ("PSN outside the window", V[0], ["InDropPsnWindow"] + sock, True,
           [to_victim(with_bth(data, psn=(c.psn + o) % PSN_MOD)) for o in offs])

    # 8. SACKs for data never sent, to the sender (from the victim's address).
    nxt = c.psn + (1 << 22)
    sk = []
    kb = c.kb
    for cack, off, bm in ((nxt, 0, 0), (nxt + 100, 0, 1), (c.psn + 30000, 0, 0)):
        sk.append(bth(OP["SACK"], c.qb) + seth(cack, ack_off=off, bitmap=bm, key=kb) +
                  cc_state())
    # cumulative ack fine (an old one), bitmap and trigger far beyond
    sk.append(bth(OP["SACK"], c.qb) + seth(c.psn - 1000, sack_off=30000, bitmap=(1 << 64) - 1,
                                           key=kb) + cc_state())
    sk.append(bth(OP["SACK"], c.qb) + seth(c.psn - 1000, ack_off=31000, key=kb) + cc_state())
    sk.append(bth(OP["SACK"], c.qb) + seth(nxt, nxt=1, key=kb) + cc_state() +
              credit_ext(1 << 40))
    yield ("SACKs acknowledging data never sent", P[0], ["InDropMalformed"] + sock, True,
           [to_peer(p) for p in sk] * 2)

    # 8b. Issue 17: an attacker on the path, who saw the sender's key in
    # the receiver's SACKs, replays an old SACK (its cumulative ack 64
    # PSNs behind, acknowledging nothing) three times, its credit inflated
    # and every plane of the receiver said down. Believed, the credit
    # would switch flow control off for the rest of the connection (the
    # receiver then drops what it has no room for); each copy is counted
    # as a credit no receiver could grant, and nothing it says is taken
    # (60-inject.sh checks that no out-of-window drops follow).
    stale = bth(OP["SACK"], c.qb) + seth(c.psn - 64, nxt=1, key=kb) + cc_state() + \
        credit_ext(1 << 40, ports=0)
    yield ("replayed old SACK with the right key and an inflated credit (x3)", P[0],
           ["InSackCreditBogus"], True, [to_peer(stale)] * 3)

    # 9. NACKs for PSNs never sent; UNEXP_EVENT (fatal) among them.
    yield ("NACKs for PSNs never sent (incl. fatal UNEXP_EVENT)", P[0],
           ["InDropMalformed"] + sock, True,
           [to_peer(bth(OP["NACK"], c.qb) + neth(r, nxt + i, key=kb))
            for i, r in enumerate((0x01, 0x02, 0x06, 0x0B, 0x19, 0x19, 0x77))])

    # 9b. Issue 17: SACKs, NACKs and probes with the right QPN, from the
    # right address, naming PSNs really sent, but without the key their
    # recipient issued (a blind attacker's guess). Believed, they would
    # acknowledge data the receiver never got, condemn every path
    # (ALWAYS_SKIP), reset the connection (UNEXP_EVENT) or make the
    # receiver answer: each is dropped before any state changes.
    wrong = [kb ^ (1 << b) for b in range(0, 32, 4)] + [0, rnd.getrandbits(32) | 1]
    wrong = [k for k in wrong if k != kb]
    forged = [bth(OP["SACK"], c.qb) + seth(c.psn + 1, ack_off=-1, m=2, key=k) + cc_state()
              for k in wrong]
    forged += [bth(OP["SACK"], c.qb) + seth(c.psn + 1, ack_off=-1, nxt=1, key=wrong[0]) +
               cc_state() + credit_ext(1 << 40, ports=0)]
    forged += [bth(OP["NACK"], c.qb) + neth(r, c.psn, key=k)
               for r in (0x19, 0x01, 0x0B) for k in wrong[:3]]
    to_sender = [to_peer(p) for p in forged]
    to_receiver = [to_victim(bth(OP["PROBE"], c.qa) + peth(100 + i, key=c.ka ^ (1 << i)))
                   for i in range(0, 32, 8)]
    yield ("forged SACKs/NACKs with the right QPN and address but a wrong key", P[0],
           ["InDropBadKey"] + sock, True, to_sender)
    yield ("forged probes with the right QPN and address but a wrong key", V[0],
           ["InDropBadKey"] + sock, True, to_receiver)

    # 10. Probes with bad fields, to unknown QPNs, from off-path.
    bad = [to_victim(bth(OP["PROBE"], c.qa, psn=9) + peth(2, key=c.ka)),
           to_victim(bth(OP["PROBE"], c.qa, flags=0x80) + peth(3, key=c.ka)),
           # trailing bytes that are not zero padding (a padded probe,
           # zeros to the data size, is valid: wire-format.md, PETH)
           to_victim(bth(OP["PROBE"], c.qa) + peth(4, key=c.ka) + bytes([1, 2, 3, 4])),
           to_victim(bth(OP["PROBE"], 0xABCDE) + peth(5, key=c.ka)),
           to_victim(bth(OP["PROBE"], c.qa) + peth(6, key=c.ka), X),
           to_victim(bth(OP["PROBE"], c.qa) + peth(7, key=c.ka), X)]
    yield ("probes: PSN, flags, length, unknown QPN, off-path", V[0],
           ["InDropMalformed", "InDropNoConn"], True, bad)

    # 11. Endpoint operations (QPN 2) with bad fields.
    bad = [bth(OP["EP_REQUEST"], QPN_EP) + erth(op) for op in (2, 3, 0x80, 0xFF)]
    bad += [bth(OP["EP_REQUEST"], QPN_EP) + erth(1, rsvd=1),
            bth(OP["EP_REQUEST"], QPN_EP) + erth(1) + bytes(8),
            bth(OP["EP_REQUEST"], QPN_EP, psn=3) + erth(1),
            bth(OP["EP_REQUEST"], c.qa) + erth(1),
            bth(OP["EP_RESPONSE"], c.qa) + eeth(1, 1),
            bth(OP["EP_RESPONSE"], QPN_EP) + eeth(7, 1)]
    resp = [bth(OP["EP_RESPONSE"], QPN_EP) + eeth(1, rnd.randint(0, 0xFFFF)) for _ in range(4)]
    resp += [bth(OP["EP_RESPONSE"], QPN_EP) + eeth(0, 9)]
    yield ("endpoint operations: bad op, reserved, length, QPN; unsolicited responses",
           V[0], ["InDropMalformed", "InDropNoConn"], True,
           [to_victim(p, X) for p in bad + resp])

    # 12. Forged handshake and teardown from an off-path address.
    forged = [bth(OP["CM_REP"], QPN_CM) + cmh(0, 0x1234, c.qb, rnd.getrandbits(64)) +
              cm_params(),
              bth(OP["CM_REJ"], QPN_CM) + cmh(0, 0, c.qb, rnd.getrandbits(64)) +
              struct.pack("!B3x", 1),
              bth(OP["CM_DREQ"], QPN_CM) + cmh(0, c.qa, c.qb, rnd.getrandbits(64)),
              bth(OP["CM_DREP"], QPN_CM) + cmh(0, c.qa, c.qb, rnd.getrandbits(64)),
              bth(OP["RESET"], QPN_CM) + rsth(c.qa, c.qb, rnd.getrandbits(32))]
    to_a = [bth(OP["CM_RTU"], QPN_CM) + cmh(0, c.qb, c.qa, rnd.getrandbits(64)) +
            cm_params(r_key=c.ka) + cm_params(),
            bth(OP["CM_DREQ"], QPN_CM) + cmh(0, c.qb, c.qa, rnd.getrandbits(64)),
            bth(OP["RESET"], QPN_CM) + rsth(c.qb, c.qa, rnd.getrandbits(32), reason=2)]
    yield ("forged handshake/teardown/RESET from an off-path address (to the sender)", P[0],
           ["InDropNoConn"], False, [(X[0], X[1], P[1], p) for p in forged] * 2)
    yield ("forged handshake/teardown/RESET from an off-path address (to the receiver)",
           V[0], ["InDropNoConn"], True, [to_victim(p, X) for p in to_a] * 2)

    # 13. The same from the peer's own address, without the secrets.
    spoof = [bth(OP["CM_DREQ"], QPN_CM) + cmh(0, c.qb, c.qa, rnd.getrandbits(64)),
             bth(OP["CM_RTU"], QPN_CM) + cmh(0, c.qb, c.qa, rnd.getrandbits(64)) + cm_params() +
             cm_params(),
             bth(OP["CM_REJ"], QPN_CM) + cmh(0, c.qb, c.qa, rnd.getrandbits(64)) +
             struct.pack("!B3x", 2)]
    spoof += [bth(OP["RESET"], QPN_CM) + rsth(c.qb, c.qa, rnd.getrandbits(32), reason=r)
              for r in (0, 1, 2, 3)]
    yield ("forged DREQ/RTU/REJ/RESET from the peer's address, wrong cookie or key",
           V[0], ["InDropBadKey"] + sock, True, [to_victim(p) for p in spoof])

    # 14. CM_REQs that must be refused without creating anything.
    reqs = [cm_req(a.listen_port, 0x200 + i, rnd.getrandbits(64), mpr=0) for i in range(2)]
    reqs += [cm_req(a.listen_port, 0x300, 1, sock_type=7),
             cm_req(a.listen_port, 5, 2),
             bth(OP["CM_REQ"], QPN_CM) + cmh(a.listen_port, 0x400, 0x77, 3) + cm_params(),
             bth(OP["CM_REQ"], QPN_CM) + cmh(a.listen_port, 0x401, 0, 4, version=3) +
             cm_params()]
    # 14b. A peer of the previous wire generation (CMH version 1: 16-bit
    # EVs, no key in SACKs) is refused cleanly: a CM_REJ BAD_VERSION in
    # version 1, which it reads (its connect() fails at once).
    old = [bth(OP["CM_REQ"], QPN_CM) + cmh(a.listen_port, 0x500 + i, 0, rnd.getrandbits(64),
                                          version=1) + cm_params() for i in range(3)]
    yield ("CM_REQs of the previous wire version refused (CM_REJ BAD_VERSION)", V[0],
           ["HsRejected", "CtlDropRateLimit"], True, [to_victim(p, X) for p in old])

    yield ("malformed CM_REQs (mpr 0, sock_type, QPNs, version)", V[0],
           ["InDropMalformed"], True, [to_victim(p, X) for p in reqs])

    # 15. Oversized packets (the attacker's link has a 9000-byte MTU).
    if a.oversize_from:
        big = [with_bth(with_reth(data, dma=n), psn=(c.psn + 50000) % PSN_MOD)[:reth_off(data) + 16]
               + bytes(n) for n in (2000, 4000, 8000)]
        big += [with_reth(data, r_key=c.ka ^ 1)[:reth_off(data) + 16] + bytes(8400)]
        big += [sack + bytes(4000), req + bytes(8000), epq + bytes(6000)]
        yield ("oversized: 2-8 KB payloads beyond window/key, padded control packets", V[0],
               ["InDropPsnWindow", "InDropBadKey", "InDropMalformed"] + sock, True,
               [(a.oversize_from, P[1], V[1], p) for p in big])


def spoofed_port_status(c, a):
    """Yield the class that needs no secret: port status by address."""
    # From the receiver's own (spoofed) address: every plane down (refused:
    # it would leave no path) and only plane 0 up (applied: no secret
    # protects it). The receiver's next SACK carries its real port status,
    # so the transfer must not stall for good (checked after the run).
    V, P = a.victim, a.peer
    yield ("spoofed PORT_STATUS_UPDATEs (all planes down, only plane 0 up) from the "
           "receiver's address", P[0], ["PortStatusRecv", "EpDropRateLimit", "InDropNoConn"],
           False, [(V[0], V[1], P[1], bth(OP["EP_REQUEST"], QPN_EP) +
                    erth(0, req_id=i, ports=i % 2)) for i in range(4)])


def run_inject(a):
    a.victim = a.victim.split(",")
    a.peer = a.peer.split(",")
    a.attacker = a.attacker.split(",")
    c = capture(a.victim[0], a.port, a.victim[1], a.peer[1])
    print("# connection: victim QPN %#x, peer QPN %#x, R_Keys %#010x/%#010x, PSN %#x, "
          "EV %#010x" % (c.qa, c.qb, c.ka, c.kb, c.psn, c.ev), flush=True)
    snd = Sender()
    failed = 0
    total = 0
    import itertools
    todo = list(itertools.chain(classes(c, a), spoofed_port_status(c, a)))
    # the test checks that a RESULT line came for every class announced
    print("# classes %d" % len(todo), flush=True)
    for name, ns, names, exact, pkts in todo:
        before = stats(ns)
        for frm, src, dst, p in pkts:
            snd.send(frm, src, dst, p, dport=a.port)
        delta, after = wait_counters(ns, before, names, len(pkts))
        got = sum(delta.values())
        if delta.get("InDropNomem", 0) > 0:
            exact = False     # legitimate traffic was dropped there too
        ok = got == len(pkts) if exact else got >= len(pkts)
        moved = {k: after[k] - before[k] for k in after
                 if after[k] != before[k] and k not in ("InPkts", "InBytes", "OutPkts",
                                                        "OutBytes", "SackIn", "SackOut")}
        total += len(pkts)
        failed += not ok
        print("RESULT\t%s\t%s: %d packets, %s %s %d\t%s" %
              ("ok" if ok else "fail", name, len(pkts), "+".join(names),
               "==" if exact else ">=", got,
               " ".join("%s+%d" % kv for kv in sorted(moved.items()))), flush=True)
    print("# injected %d hostile packets (%d sent)" % (total, snd.sent), flush=True)
    return 1 if failed else 0


class Stop(Exception):
    pass


def _stop(signum, frame):
    raise Stop()


def run_flood_req(a):
    """CM_REQs from distinct sources until --count or SIGTERM; then a summary."""
    import signal
    signal.signal(signal.SIGTERM, _stop)
    net = a.sources.split("/")[0].rstrip(":")
    snd = Sender()
    gap = 1.0 / a.rate if a.rate else 0
    t0 = time.monotonic()
    i = 0
    try:
        while i < a.count:
            src = "%s::%x:%x" % (net, (i >> 16) + 1, i & 0xFFFF)
            p = cm_req(a.service_port, random.randint(16, 0xFFFFFF), random.getrandbits(64),
                       init_psn=random.getrandbits(24), r_key=random.getrandbits(32))
            snd.send(a.from_ns, src, a.to, p, dport=a.port)
            i += 1
            if gap:
                late = t0 + i * gap - time.monotonic()
                if late > 0:
                    time.sleep(late)
    except Stop:
        pass
    dt = time.monotonic() - t0
    print("flood-req: %d requests from %d source addresses in %.1f s (%.0f/s)" %
          (i, i, dt, i / dt), flush=True)
    return 0


def run_rtu_check(a):
    """Forged and expired CM_RTUs against a stateless listener."""
    enter(a.from_ns)
    cap = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    cap.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    snd = Sender()
    me = socket.inet_pton(socket.AF_INET6, a.src)
    qpn, cookie, cport = 0x4242, random.getrandbits(64), 0xC123
    req_params = cm_params(init_psn=random.getrandbits(24), r_key=random.getrandbits(32) | 1)
    req = bth(OP["CM_REQ"], QPN_CM) + cmh(a.service_port, qpn, 0, cookie,
                                         client_port=cport) + req_params
    rep = None
    deadline = time.monotonic() + 10 * TIME_SCALE
    while rep is None and time.monotonic() < deadline:
        snd.send(a.from_ns, a.src, a.to, req, dport=a.port)
        until = time.monotonic() + 1
        while rep is None and time.monotonic() < until:
            r, _, _ = select.select([cap], [], [], 0.2)
            if not r:
                continue
            frame = cap.recv(65535)
            ip = frame[14:]
            if frame[12:14] != b"\x86\xdd" or len(ip) < 48 + 56 or ip[6] != 17:
                continue
            m = ip[48:]
            if ip[24:40] == me and m[0] == OP["CM_REP"] and m[24:32] == struct.pack("!Q", cookie):
                rep = m
    cap.close()
    if rep is None:
        raise RuntimeError("no CM_REP to the CM_REQ from %s" % a.src)
    t_rep = time.monotonic()
    print("rtu-check: CM_REP captured", flush=True)
    lqpn = struct.unpack("!I", rep[16:20])[0] & 0xFFFFFF
    rep_params = rep[36:56]

    def rtu(params):
        return (bth(OP["CM_RTU"], QPN_CM) +
                cmh(a.service_port, qpn, lqpn, cookie, client_port=cport) + params + req_params)

    net = a.sources.split("/")[0].rstrip(":")
    for i in range(a.forged):
        made_up = cm_params(init_psn=random.getrandbits(24), r_key=random.getrandbits(32))
        p = (bth(OP["CM_RTU"], QPN_CM) +
             cmh(a.service_port, random.randint(16, 0xFFFFFF), random.randint(16, 0xFFFFFF),
                 random.getrandbits(64), client_port=random.randint(1024, 0xFFFF)) +
             made_up + cm_params())
        snd.send(a.from_ns, "%s::%x:%x" % (net, 0xff00 + (i >> 16), i & 0xFFFF), a.to, p,
                 dport=a.port)
    # the real cookie with one MAC bit of its r_key changed
    bad = bytearray(rep_params)
    bad[8] ^= 0x80
    snd.send(a.from_ns, a.src, a.to, rtu(bytes(bad)), dport=a.port)
    print("rtu-check: forged CM_RTUs sent", flush=True)
    wait = t_rep + a.expire_after - time.monotonic()
    if wait > 0:
        time.sleep(wait)
    late = time.monotonic() - t_rep
    snd.send(a.from_ns, a.src, a.to, rtu(rep_params), dport=a.port)
    print("rtu-check: %d forged CM_RTUs sent, then the real one %.1f s after its CM_REP" %
          (a.forged + 1, late), flush=True)
    return 0


def run_flood_data(a):
    snd = Sender()
    t0 = time.monotonic()
    for i in range(a.count):
        q = random.randint(16, 0xFFFFFF)
        p = (bth(OP["WRITE_ONLY"], q, random.getrandbits(24)) + bytes(4) +
             struct.pack("!QII", 0, random.getrandbits(32), 256) + bytes(256))
        snd.send(a.from_ns, a.src, a.to, p, dport=a.port)
    dt = time.monotonic() - t0
    print("flood-data: %d packets in %.2f s (%.0f/s)" % (a.count, dt, a.count / dt))
    return 0


def run_flood_probe(a):
    snd = Sender()
    t0 = time.monotonic()
    for i in range(a.count):
        if i % 2:
            p = bth(OP["PROBE"], a.qpn) + peth(i)
        else:
            p = bth(OP["EP_REQUEST"], QPN_EP) + erth(1, req_id=i & 0xFFFF)
        snd.send(a.from_ns, a.src, a.to, p, dport=a.port)
    dt = time.monotonic() - t0
    print("flood-probe: %d packets in %.2f s (%.0f/s)" % (a.count, dt, a.count / dt))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    i = sub.add_parser("inject")
    i.add_argument("--victim", required=True)
    i.add_argument("--peer", required=True)
    i.add_argument("--attacker", required=True)
    i.add_argument("--listen-port", type=int, default=5000)
    i.add_argument("--oversize-from")
    f = sub.add_parser("flood-req")
    f.add_argument("--from", dest="from_ns", required=True)
    f.add_argument("--to", required=True)
    f.add_argument("--service-port", type=int, required=True)
    f.add_argument("--count", type=int, default=1000)
    f.add_argument("--sources", required=True)
    f.add_argument("--rate", type=float, default=0)
    r = sub.add_parser("rtu-check")
    r.add_argument("--from", dest="from_ns", required=True)
    r.add_argument("--src", required=True)
    r.add_argument("--to", required=True)
    r.add_argument("--service-port", type=int, required=True)
    r.add_argument("--sources", required=True)
    r.add_argument("--forged", type=int, default=1000)
    r.add_argument("--expire-after", type=float, default=22)
    for name in ("flood-data", "flood-probe"):
        d = sub.add_parser(name)
        d.add_argument("--from", dest="from_ns", required=True)
        d.add_argument("--src", required=True)
        d.add_argument("--to", required=True)
        d.add_argument("--count", type=int, default=1000)
        d.add_argument("--qpn", type=lambda s: int(s, 0), default=0x10)
    for p in (i, f, r) + tuple(sub.choices[n] for n in ("flood-data", "flood-probe")):
        p.add_argument("--port", type=int, default=4791)
    a = ap.parse_args()
    try:
        return dict(inject=run_inject, **{"flood-req": run_flood_req,
                                          "rtu-check": run_rtu_check,
                                          "flood-data": run_flood_data,
                                          "flood-probe": run_flood_probe})[a.cmd](a)
    except (OSError, RuntimeError) as e:
        print("mrc_inject: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
