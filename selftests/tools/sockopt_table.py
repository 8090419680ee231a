#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check Documentation/socket-options.md against a live MRC socket.

For every option of the SOL_SOCKET, IPPROTO_TCP and IPPROTO_IPV6 levels of
Linux 6.1 this tool knows a value to set. The document has one table row
per option:

    | `NAME` | kind | set | get | for MRC |

kind is honoured, mapped, ignored, refused, n/a (not applicable: no such
thing for a connection) or read-only; set and get are what the call
returns on a fresh socket(AF_INET6, SOCK_STREAM, IPPROTO_MRC): "ok", "ok:
N" (the value read back is the integer N), "ok: same" (it reads back what
was set) or an errno name. The tool sets each option on a socket of its
own, then reads it, and compares both results with the row. It also fails
when an option it knows has no row, or a row names an option it does not
know, so the table and the kernel cannot drift apart.

Usage: sockopt_table.py DOC [--discover]   (--discover prints what the
kernel does, as table cells, for writing the document)
Prints KTAP subtest lines; exit status 1 if any check failed.
"""
import ctypes
import errno
import re
import socket
import struct
import sys

SOL_SOCKET, SOL_TCP, SOL_IPV6 = 1, 6, 41


def i(v):
    return struct.pack("i", v)


# A classic BPF program "accept everything": struct sock_fprog for
# SO_ATTACH_FILTER and SO_ATTACH_REUSEPORT_CBPF.
_FILTER = (ctypes.c_uint8 * 8)(*struct.pack("HBBI", 0x06, 0, 0, 0xFFFFFFFF))
FPROG = struct.pack("HxxxxxxQ", 1, ctypes.addressof(_FILTER))
TIMEVAL = struct.pack("qq", 1, 0)

# level, name -> (number, value to set[, getsockopt buffer length])
OPTIONS = {
    SOL_SOCKET: {
        "SO_DEBUG": (1, i(1)),
        "SO_REUSEADDR": (2, i(1)),
        "SO_TYPE": (3, i(1)),
        "SO_ERROR": (4, i(1)),
        "SO_DONTROUTE": (5, i(1)),
        "SO_BROADCAST": (6, i(1)),
        "SO_SNDBUF": (7, i(65536)),
        "SO_RCVBUF": (8, i(65536)),
        "SO_KEEPALIVE": (9, i(1)),
        "SO_OOBINLINE": (10, i(1)),
        "SO_NO_CHECK": (11, i(1)),
        "SO_PRIORITY": (12, i(3)),
        "SO_LINGER": (13, struct.pack("ii", 1, 5)),
        "SO_BSDCOMPAT": (14, i(1)),
        "SO_REUSEPORT": (15, i(1)),
        "SO_PASSCRED": (16, i(1)),
        "SO_PEERCRED": (17, i(1)),
        "SO_RCVLOWAT": (18, i(10)),
        "SO_SNDLOWAT": (19, i(10)),
        "SO_RCVTIMEO_OLD": (20, TIMEVAL),
        "SO_SNDTIMEO_OLD": (21, TIMEVAL),
        "SO_SECURITY_AUTHENTICATION": (22, i(1)),
        "SO_SECURITY_ENCRYPTION_TRANSPORT": (23, i(1)),
        "SO_SECURITY_ENCRYPTION_NETWORK": (24, i(1)),
        "SO_BINDTODEVICE": (25, b"lo\0"),
        "SO_ATTACH_FILTER": (26, FPROG),
        "SO_DETACH_FILTER": (27, i(0)),
        "SO_PEERNAME": (28, i(1)),
        "SO_TIMESTAMP_OLD": (29, i(1)),
        "SO_ACCEPTCONN": (30, i(1)),
        "SO_PEERSEC": (31, i(1)),
        "SO_SNDBUFFORCE": (32, i(65536)),
        "SO_RCVBUFFORCE": (33, i(65536)),
        "SO_PASSSEC": (34, i(1)),
        "SO_TIMESTAMPNS_OLD": (35, i(1)),
        "SO_MARK": (36, i(7)),
        "SO_TIMESTAMPING_OLD": (37, i(0x18)),
        "SO_PROTOCOL": (38, i(1)),
        "SO_DOMAIN": (39, i(1)),
        "SO_RXQ_OVFL": (40, i(1)),
        "SO_WIFI_STATUS": (41, i(1)),
        "SO_PEEK_OFF": (42, i(0)),
        "SO_NOFCS": (43, i(1)),
        "SO_LOCK_FILTER": (44, i(1)),
        "SO_SELECT_ERR_QUEUE": (45, i(1)),
        "SO_BUSY_POLL": (46, i(50)),
        "SO_MAX_PACING_RATE": (47, i(1000000)),
        "SO_BPF_EXTENSIONS": (48, i(1)),
        "SO_INCOMING_CPU": (49, i(0)),
        "SO_ATTACH_BPF": (50, i(-1)),
        "SO_ATTACH_REUSEPORT_CBPF": (51, FPROG),
        "SO_ATTACH_REUSEPORT_EBPF": (52, i(-1)),
        "SO_CNX_ADVICE": (53, i(1)),
        "SO_MEMINFO": (55, i(1)),
        "SO_INCOMING_NAPI_ID": (56, i(1)),
        "SO_COOKIE": (57, i(1)),
        "SO_PEERGROUPS": (59, i(1)),
        "SO_ZEROCOPY": (60, i(1)),
        "SO_TXTIME": (61, struct.pack("iI", 1, 0)),
        "SO_BINDTOIFINDEX": (62, i(1)),
        "SO_TIMESTAMP_NEW": (63, i(1)),
        "SO_TIMESTAMPNS_NEW": (64, i(1)),
        "SO_TIMESTAMPING_NEW": (65, i(0x18)),
        "SO_RCVTIMEO_NEW": (66, TIMEVAL),
        "SO_SNDTIMEO_NEW": (67, TIMEVAL),
        "SO_DETACH_REUSEPORT_BPF": (68, i(0)),
        "SO_PREFER_BUSY_POLL": (69, i(1)),
        "SO_BUSY_POLL_BUDGET": (70, i(8)),
        "SO_NETNS_COOKIE": (71, i(1), 8),
        "SO_BUF_LOCK": (72, i(3)),
        "SO_RESERVE_MEM": (73, i(4096)),
        "SO_TXREHASH": (74, i(1)),
        "SO_RCVMARK": (75, i(1)),
    },
    SOL_TCP: {
        "TCP_NODELAY": (1, i(1)),
        "TCP_MAXSEG": (2, i(1200)),
        "TCP_CORK": (3, i(1)),
        "TCP_KEEPIDLE": (4, i(30)),
        "TCP_KEEPINTVL": (5, i(7)),
        "TCP_KEEPCNT": (6, i(4)),
        "TCP_SYNCNT": (7, i(3)),
        "TCP_LINGER2": (8, i(20)),
        "TCP_DEFER_ACCEPT": (9, i(5)),
        "TCP_WINDOW_CLAMP": (10, i(100000)),
        "TCP_INFO": (11, i(1)),
        "TCP_QUICKACK": (12, i(1)),
        "TCP_CONGESTION": (13, b"cubic"),
        "TCP_MD5SIG": (14, bytes(216)),
        "TCP_THIN_LINEAR_TIMEOUTS": (16, i(1)),
        "TCP_THIN_DUPACK": (17, i(1)),
        "TCP_USER_TIMEOUT": (18, i(30000)),
        "TCP_REPAIR": (19, i(1)),
        "TCP_REPAIR_QUEUE": (20, i(1)),
        "TCP_QUEUE_SEQ": (21, i(1)),
        "TCP_REPAIR_OPTIONS": (22, i(1)),
        "TCP_FASTOPEN": (23, i(5)),
        "TCP_TIMESTAMP": (24, i(1)),
        "TCP_NOTSENT_LOWAT": (25, i(16384)),
        "TCP_CC_INFO": (26, i(1)),
        "TCP_SAVE_SYN": (27, i(1)),
        "TCP_SAVED_SYN": (28, i(1)),
        "TCP_REPAIR_WINDOW": (29, bytes(20)),
        "TCP_FASTOPEN_CONNECT": (30, i(1)),
        "TCP_ULP": (31, b"tls"),
        "TCP_MD5SIG_EXT": (32, bytes(216)),
        "TCP_FASTOPEN_KEY": (33, bytes(16)),
        "TCP_FASTOPEN_NO_COOKIE": (34, i(1)),
        "TCP_ZEROCOPY_RECEIVE": (35, bytes(64)),
        "TCP_INQ": (36, i(1)),
        "TCP_TX_DELAY": (37, i(10)),
    },
    SOL_IPV6: {
        "IPV6_ADDRFORM": (1, i(socket.AF_INET)),
        "IPV6_2292PKTINFO": (2, i(1)),
        "IPV6_2292HOPOPTS": (3, i(1)),
        "IPV6_2292DSTOPTS": (4, i(1)),
        "IPV6_2292RTHDR": (5, i(1)),
        "IPV6_2292PKTOPTIONS": (6, b""),
        "IPV6_CHECKSUM": (7, i(2)),
        "IPV6_2292HOPLIMIT": (8, i(1)),
        "IPV6_NEXTHOP": (9, bytes(28)),
        "IPV6_AUTHHDR": (10, i(1)),
        "IPV6_FLOWINFO": (11, i(1)),
        "IPV6_UNICAST_HOPS": (16, i(17)),
        "IPV6_MULTICAST_IF": (17, i(1)),
        "IPV6_MULTICAST_HOPS": (18, i(3)),
        "IPV6_MULTICAST_LOOP": (19, i(1)),
        "IPV6_ADD_MEMBERSHIP": (20, socket.inet_pton(socket.AF_INET6, "ff02::1") + i(1)),
        "IPV6_DROP_MEMBERSHIP": (21, socket.inet_pton(socket.AF_INET6, "ff02::1") + i(1)),
        "IPV6_ROUTER_ALERT": (22, i(1)),
        "IPV6_MTU_DISCOVER": (23, i(2)),
        "IPV6_MTU": (24, i(1400)),
        "IPV6_RECVERR": (25, i(1)),
        "IPV6_V6ONLY": (26, i(0)),
        "IPV6_JOIN_ANYCAST": (27, socket.inet_pton(socket.AF_INET6, "2001:db8::") + i(1)),
        "IPV6_LEAVE_ANYCAST": (28, socket.inet_pton(socket.AF_INET6, "2001:db8::") + i(1)),
        "IPV6_MULTICAST_ALL": (29, i(1)),
        "IPV6_ROUTER_ALERT_ISOLATE": (30, i(1)),
        "IPV6_RECVERR_RFC4884": (31, i(1)),
        "IPV6_FLOWLABEL_MGR": (32, bytes(32)),
        "IPV6_FLOWINFO_SEND": (33, i(1)),
        "IPV6_IPSEC_POLICY": (34, bytes(64)),
        "IPV6_XFRM_POLICY": (35, bytes(64)),
        "IPV6_HDRINCL": (36, i(1)),
        "MCAST_JOIN_GROUP": (42, bytes(136)),
        "MCAST_BLOCK_SOURCE": (43, bytes(264)),
        "MCAST_UNBLOCK_SOURCE": (44, bytes(264)),
        "MCAST_LEAVE_GROUP": (45, bytes(136)),
        "MCAST_JOIN_SOURCE_GROUP": (46, bytes(264)),
        "MCAST_LEAVE_SOURCE_GROUP": (47, bytes(264)),
        "MCAST_MSFILTER": (48, bytes(280)),
        "IPV6_RECVPKTINFO": (49, i(1)),
        "IPV6_PKTINFO": (50, bytes(20)),
        "IPV6_RECVHOPLIMIT": (51, i(1)),
        "IPV6_HOPLIMIT": (52, i(1)),
        "IPV6_RECVHOPOPTS": (53, i(1)),
        "IPV6_HOPOPTS": (54, b""),
        "IPV6_RTHDRDSTOPTS": (55, b""),
        "IPV6_RECVRTHDR": (56, i(1)),
        "IPV6_RTHDR": (57, b""),
        "IPV6_RECVDSTOPTS": (58, i(1)),
        "IPV6_DSTOPTS": (59, b""),
        "IPV6_RECVPATHMTU": (60, i(1)),
        "IPV6_PATHMTU": (61, i(1)),
        "IPV6_DONTFRAG": (62, i(1)),
        "IPV6_RECVTCLASS": (66, i(1)),
        "IPV6_TCLASS": (67, i(0x28)),
        "IPV6_AUTOFLOWLABEL": (70, i(0)),
        "IPV6_ADDR_PREFERENCES": (72, i(2)),
        "IPV6_MINHOPCOUNT": (73, i(1)),
        "IPV6_RECVORIGDSTADDR": (74, i(1)),
        "IPV6_TRANSPARENT": (75, i(1)),
        "IPV6_UNICAST_IF": (76, struct.pack(">I", 1)),
        "IPV6_RECVFRAGSIZE": (77, i(1)),
        "IPV6_FREEBIND": (78, i(1)),
    },
}
LEVEL_NAMES = {SOL_SOCKET: "SOL_SOCKET", SOL_TCP: "IPPROTO_TCP", SOL_IPV6: "IPPROTO_IPV6"}
KINDS = {"honoured", "mapped", "ignored", "refused", "n/a", "read-only"}


def mrc_proto():
    try:
        with open("/sys/module/mrc/parameters/ipproto") as f:
            return int(f.read())
    except OSError:
        return 261


def call(fn):
    """'ok' or the errno name of an OSError (EOPNOTSUPP, not its alias
    ENOTSUP)."""
    try:
        return "ok", fn()
    except OSError as e:
        if e.errno == errno.EOPNOTSUPP:
            return "EOPNOTSUPP", None
        return errno.errorcode.get(e.errno, str(e.errno)), None


def observe(level, name):
    """(set cell, get cell) as the kernel answers on a fresh socket."""
    num, val, *getlen = OPTIONS[level][name]
    s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM, mrc_proto())
    try:
        set_res, _ = call(lambda: s.setsockopt(level, num, val))
        get_res, got = call(lambda: s.getsockopt(level, num, getlen[0] if getlen else 256))
    finally:
        s.close()
    if get_res == "ok" and got is not None and len(got) == 4:
        v = struct.unpack("i", got)[0]
        if set_res == "ok" and len(val) == 4 and v == struct.unpack("i", val)[0]:
            get_res = "ok: same"
        else:
            get_res = "ok: %d" % v
    return set_res, get_res


def parse_doc(path):
    """[(level, name, kind, set, get)] from the document's tables."""
    rows, level = [], None
    heading = re.compile(r"^#+ .*`(SOL_SOCKET|IPPROTO_TCP|IPPROTO_IPV6)`")
    by_name = {v: k for k, v in LEVEL_NAMES.items()}
    for line in open(path):
        m = heading.match(line)
        if m:
            level = by_name[m.group(1)]
            continue
        m = re.match(r"^\| `(\w+)` \| ([\w/-]+) \| ([^|]+?) \| ([^|]+?) \|", line)
        if m and level is not None:
            rows.append((level, m.group(1), m.group(2), m.group(3).strip(),
                         m.group(4).strip()))
    return rows


def get_matches(want, have):
    """A get cell "ok" accepts any value read; "ok: N" and "ok: same" are
    exact."""
    if want == "ok":
        return have.startswith("ok")
    return want == have


def main():
    doc = sys.argv[1]
    if "--discover" in sys.argv:
        for level, opts in OPTIONS.items():
            print("## " + LEVEL_NAMES[level])
            for name in opts:
                st, gt = observe(level, name)
                print("| `%s` | ? | %s | %s | |" % (name, st, gt))
        return 0
    print("KTAP version 1")
    n = failed = 0

    def report(ok, what, why=""):
        nonlocal n, failed
        n += 1
        failed += not ok
        print("%s %d %s" % ("ok" if ok else "not ok", n, what))
        if not ok and why:
            print("# " + why)

    rows = parse_doc(doc)
    seen = set()
    for level, name, kind, want_set, want_get in rows:
        seen.add((level, name))
        if name not in OPTIONS[level]:
            report(False, "%s %s: the tool knows no such option" % (LEVEL_NAMES[level], name))
            continue
        if kind not in KINDS:
            report(False, "%s: kind %r is not one of %s" % (name, kind, sorted(KINDS)))
            continue
        # The kind must agree with what setting it does. An accepted option
        # may still fail on the tool's value (a filter without a program:
        # EBADF), but never with the errnos of refusal.
        if kind in ("honoured", "mapped", "ignored") and \
                want_set in ("EOPNOTSUPP", "ENOPROTOOPT"):
            report(False, "%s: %s but set is %s" % (name, kind, want_set))
            continue
        if kind in ("refused", "n/a", "read-only") and want_set == "ok":
            report(False, "%s: %s but set succeeds" % (name, kind))
            continue
        have_set, have_get = observe(level, name)
        # "EBADF or EOPNOTSUPP": the answer depends on how the kernel was
        # built (a BPF option without CONFIG_BPF_SYSCALL), not on MRC.
        report(have_set in want_set.split(" or ") and get_matches(want_get, have_get),
               "%s %s (%s): set %s, get %s" % (LEVEL_NAMES[level], name, kind,
                                               want_set, want_get),
               "the kernel says: set %s, get %s" % (have_set, have_get))
    for level, opts in OPTIONS.items():
        missing = [o for o in opts if (level, o) not in seen]
        report(not missing, "every %s option has a row" % LEVEL_NAMES[level],
               "missing: " + " ".join(missing))
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
