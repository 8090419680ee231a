#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Send hand-made (malformed) requests to the "mrc" generic netlink family.

mrcctl and libmrc always encode attributes correctly, so the kernel's own
validation of types, lengths, nesting and per-command attribute sets is
tested with raw messages built here. Usage:

    mrc_nlraw.py SCENARIO     print "ERRNO: extack message" (or "OK")
    mrc_nlraw.py --all        every scenario: "SCENARIO<TAB>result" lines
    mrc_nlraw.py --list       list the scenarios
    mrc_nlraw.py --conn-get ID
                              the single CONN_GET (a do, which mrcctl never
                              sends: its `conn show id N` is a filtered
                              dump): "OK <EVs> EVs in <messages> messages"

Exit status 0 when the kernel answered (whatever it answered), 1 on a
local problem (no family, bad scenario).
"""
import errno
import os
import socket
import struct
import sys

# The family's numbers, generated from its spec like uapi/linux/mrc.h
# (scripts/mrc-nlgen.py; the lint and CTest check catches drift).
import mrc_nlconst as nl  # beside this script
from mrc_nlconst import (
    MRC_A_PLANE as A_PLANE, MRC_A_PATH as A_PATH, MRC_A_POLICY as A_POLICY,
    MRC_A_SETTINGS as A_SETTINGS,
    MRC_PLANE_A_ID as PLANE_ID, MRC_PLANE_A_IFINDEX as PLANE_IFINDEX,
    MRC_PLANE_A_IFNAME as PLANE_IFNAME, MRC_PLANE_A_SADDR as PLANE_SADDR,
    MRC_PLANE_A_ADMIN as PLANE_ADMIN, MRC_PLANE_A_OPER as PLANE_OPER,
    MRC_PATH_A_ID as PATH_ID, MRC_PATH_A_DST as PATH_DST, MRC_PATH_A_MODE as PATH_MODE,
    MRC_PATH_A_SEGS as PATH_SEGS,
    MRC_POLICY_A_NAME as POLICY_NAME, MRC_POLICY_A_RTO_MIN as POLICY_RTO_MIN,
    MRC_SETTINGS_A_UDP_PORT as SETTINGS_UDP_PORT)

NETLINK_GENERIC = 16
NLM_F_REQUEST, NLM_F_ACK = 1, 4
NLMSG_ERROR = 2
GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 16, 3, 1, 2
SOL_NETLINK, NETLINK_EXT_ACK, NETLINK_CAP_ACK = 270, 11, 10
NLMSGERR_ATTR_MSG = 1
NLA_F_NESTED = 1 << 15

# Commands by the names the scenarios use: "PLANE_ADD" is MRC_CMD_PLANE_ADD.
CMD = {k[len("MRC_CMD_"):]: v for k, v in vars(nl).items()
       if k.startswith("MRC_CMD_") and k != "MRC_CMD_MAX"}


def attr(t, payload):
    hdr = struct.pack("HH", 4 + len(payload), t)
    pad = b"\0" * ((4 - len(payload) % 4) % 4)
    return hdr + payload + pad


def nest(t, *attrs):
    return attr(t | NLA_F_NESTED, b"".join(attrs))


def u8(t, v):
    return attr(t, struct.pack("B", v))


def u16(t, v):
    return attr(t, struct.pack("H", v))


def u32(t, v):
    return attr(t, struct.pack("I", v))


def u64(t, v):
    return attr(t, struct.pack("Q", v))


def addr(t, text):
    return attr(t, socket.inet_pton(socket.AF_INET6, text))


def request(sock, family, cmd, payload, flags=NLM_F_REQUEST | NLM_F_ACK):
    body = struct.pack("BBH", cmd, 1, 0) + payload
    msg = struct.pack("IHHII", 16 + len(body), family, flags, 1, 0) + body
    sock.send(msg)
    data = sock.recv(65536)
    while data:
        length, mtype, mflags = struct.unpack("IHH", data[:8])
        if mtype == NLMSG_ERROR:
            return error_text(data[:length])
        data = data[(length + 3) & ~3:]
    return "OK"


def error_text(msg):
    """An NLMSG_ERROR (capped, with extack): "OK", "ERRNO" or "ERRNO: text"."""
    err = -struct.unpack("i", msg[16:20])[0]
    off = 16 + 4 + 16  # nlmsgerr with a capped request
    text = ""
    while off + 4 <= len(msg):
        alen, atype = struct.unpack("HH", msg[off:off + 4])
        if alen < 4:
            break
        if atype & 0x7fff == NLMSGERR_ATTR_MSG:
            text = msg[off + 4:off + alen].split(b"\0")[0].decode()
        off += (alen + 3) & ~3
    if err == 0:
        return "OK"
    name = "EOPNOTSUPP" if err == errno.EOPNOTSUPP else errno.errorcode.get(err, str(err))
    return "%s: %s" % (name, text) if text else name


def family_id(sock):
    name = attr(CTRL_ATTR_FAMILY_NAME, nl.MRC_GENL_NAME.encode() + b"\0")
    body = struct.pack("BBH", CTRL_CMD_GETFAMILY, 1, 0) + name
    sock.send(struct.pack("IHHII", 16 + len(body), GENL_ID_CTRL, NLM_F_REQUEST, 1, 0) + body)
    data = sock.recv(65536)
    length, mtype = struct.unpack("IH", data[:6])
    if mtype == NLMSG_ERROR:
        return None
    off = 20
    while off + 4 <= length:
        alen, atype = struct.unpack("HH", data[off:off + 4])
        if atype == CTRL_ATTR_FAMILY_ID:
            return struct.unpack("H", data[off + 4:off + 6])[0]
        off += (alen + 3) & ~3
    return None


def attrs(data):
    """{type: payload} of the attributes in data (the last of a type)."""
    out, off = {}, 0
    while off + 4 <= len(data):
        alen, atype = struct.unpack("HH", data[off:off + 4])
        if alen < 4:
            break
        out[atype & 0x7fff] = data[off + 4:off + alen]
        off += (alen + 3) & ~3
    return out


def nested_all(data, t):
    """Payloads of every attribute of type t in data, in order."""
    out, off = [], 0
    while off + 4 <= len(data):
        alen, atype = struct.unpack("HH", data[off:off + 4])
        if alen < 4:
            break
        if atype & 0x7fff == t:
            out.append(data[off + 4:off + alen])
        off += (alen + 3) & ~3
    return out


def conn_get(sock, family, conn_id):
    """CONN_GET (do) of connection conn_id, its messages joined as a reader
    must (uapi enum mrc_conn_attr): ("OK", EVs, messages) or (error, None,
    messages). An error when a continuation is out of place or the EVs
    are not MRC_CONN_A_NR_PATHS."""
    payload = nest(nl.MRC_A_CONN, u32(nl.MRC_CONN_A_ID, conn_id))
    body = struct.pack("BBH", CMD["CONN_GET"], 1, 0) + payload
    sock.send(struct.pack("IHHII", 16 + len(body), family, NLM_F_REQUEST | NLM_F_ACK, 1, 0)
              + body)
    evs, want, msgs = None, None, 0
    while True:
        data = sock.recv(1 << 20)
        while len(data) >= 16:
            length, mtype = struct.unpack("IH", data[:6])
            msg, data = data[:length], data[(length + 3) & ~3:]
            if mtype == NLMSG_ERROR:
                if error_text(msg) != "OK":
                    return error_text(msg), None, msgs
                if evs is None or want is None or len(evs) != want:
                    return "EPROTO: %s of %s EVs" % (len(evs or []), want), None, msgs
                return "OK", evs, msgs
            msgs += 1
            conn = attrs(attrs(msg[20:]).get(nl.MRC_A_CONN, b""))
            cur = [struct.unpack("I", attrs(p)[nl.MRC_CPATH_A_EV])[0]
                   for p in nested_all(conn.get(nl.MRC_CONN_A_PATHS, b""), nl.MRC_CONN_A_PATH)]
            if nl.MRC_CONN_A_PATHS_FROM in conn:
                start = struct.unpack("I", conn[nl.MRC_CONN_A_PATHS_FROM])[0]
                if evs is None or start != len(evs):
                    return "EPROTO: continuation from %d after %s EVs" % (
                        start, len(evs or [])), None, msgs
                evs += cur
            elif evs is None:
                evs = cur
                want = struct.unpack("I", conn[nl.MRC_CONN_A_NR_PATHS])[0]
            else:
                return "EPROTO: a second connection", None, msgs


SADDR = addr(PLANE_SADDR, "2001:db8::1")
SCENARIOS = {
    # name: (command, attributes)
    "unknown-top-attr": ("PLANE_ADD", u32(99, 1)),
    "unknown-nested-attr": ("PLANE_ADD", nest(A_PLANE, u32(PLANE_ID, 1), u32(40, 1))),
    "reply-only-attr": ("PLANE_ADD", nest(A_PLANE, u32(PLANE_ID, 1), u8(PLANE_OPER, 1))),
    "plane-not-nested": ("PLANE_ADD", u32(A_PLANE, 1)),
    "plane-id-wrong-length": ("PLANE_ADD", nest(A_PLANE, u8(PLANE_ID, 1), SADDR)),
    "saddr-wrong-length": ("PLANE_ADD", nest(A_PLANE, u32(PLANE_ID, 1), u32(PLANE_IFINDEX, 1),
                                             attr(PLANE_SADDR, b"\x20\x01\x0d\xb8"))),
    "ifname-not-terminated": ("PLANE_ADD", nest(A_PLANE, u32(PLANE_ID, 1),
                                                attr(PLANE_IFNAME, b"lo"), SADDR)),
    "ifname-too-long": ("PLANE_ADD", nest(A_PLANE, u32(PLANE_ID, 1),
                                          attr(PLANE_IFNAME, b"x" * 20 + b"\0"), SADDR)),
    "admin-out-of-range": ("PLANE_ADD", nest(A_PLANE, u32(PLANE_ID, 1), u8(PLANE_ADMIN, 2))),
    "both-ifindex-and-ifname": ("PLANE_ADD", nest(A_PLANE, u32(PLANE_ID, 1), u32(PLANE_IFINDEX, 1),
                                                  attr(PLANE_IFNAME, b"lo\0"), SADDR)),
    "plane-missing": ("PLANE_ADD", b""),
    "plane-del-with-saddr": ("PLANE_DEL", nest(A_PLANE, u32(PLANE_ID, 1), SADDR)),
    "info-with-attr": ("INFO_GET", nest(A_PLANE, u32(PLANE_ID, 1))),
    "path-mode-out-of-range": ("PATH_ADD", nest(A_PATH, u32(PATH_ID, 1), u8(PATH_MODE, 7))),
    "path-segs-not-addresses": ("PATH_ADD", nest(A_PATH, u32(PATH_ID, 1),
                                                 nest(PATH_SEGS, u32(1, 5)))),
    "path-set-with-dst": ("PATH_SET", nest(A_PATH, u32(PATH_ID, 1), addr(PATH_DST, "2001:db8::"))),
    "policy-rto-wrong-type": ("POLICY_ADD", nest(A_POLICY, attr(POLICY_NAME, b"x\0"),
                                                 u32(POLICY_RTO_MIN, 5))),
    "policy-name-empty": ("POLICY_ADD", nest(A_POLICY, attr(POLICY_NAME, b"\0"))),
    "udp-port-wrong-type": ("SETTINGS_SET", nest(A_SETTINGS, u32(SETTINGS_UDP_PORT, 80))),
    "event-is-not-a-request": ("EVENT", b""),
    "trailing-garbage": ("INFO_GET", b"\x01\x02"),
}


def open_family():
    """A generic netlink socket asking for extack, and the family's id
    (None without the module)."""
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
    sock.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
    return sock, family_id(sock)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--conn-get":
        sock, fam = open_family()
        if fam is None:
            print("no mrc family", file=sys.stderr)
            return 1
        result, evs, msgs = conn_get(sock, fam, int(sys.argv[2]))
        print("OK %d EVs in %d messages" % (len(evs), msgs) if evs is not None else result)
        return 0
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 1
    if sys.argv[1] == "--list":
        print("\n".join(sorted(SCENARIOS)))
        return 0
    if sys.argv[1] != "--all" and sys.argv[1] not in SCENARIOS:
        print("unknown scenario " + sys.argv[1], file=sys.stderr)
        return 1
    sock, fam = open_family()
    if fam is None:
        print("no mrc family", file=sys.stderr)
        return 1
    names = sorted(SCENARIOS) if sys.argv[1] == "--all" else [sys.argv[1]]
    for name in names:
        cmd, payload = SCENARIOS[name]
        result = request(sock, fam, CMD[cmd], payload)
        print("%s\t%s" % (name, result) if len(names) > 1 else result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
