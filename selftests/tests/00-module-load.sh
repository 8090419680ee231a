#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The module loads, registers AF_MRC with the configured number, refuses a
# taken or invalid slot with a clear message, creates both socket types,
# is pinned by open sockets, and autoloads on socket() and on netlink.
# timeout: 900
. "$(dirname "$0")/../lib.sh"

mrc_module_unload
modprobe -qa udp_tunnel ip6_udp_tunnel tunnel6

sock() { # sock FAMILY TYPE [PROTO]: print "ok" or the errno name
	python3 - "$@" <<'PY'
import errno, socket, sys
fam, typ = int(sys.argv[1]), int(sys.argv[2])
proto = int(sys.argv[3]) if len(sys.argv) > 3 else 0
try:
    socket.socket(fam, typ, proto).close()
    print("ok")
except OSError as e:
    print(errno.errorcode[e.errno])
PY
}

out=$(insmod "$MRC_KMOD" af=0 2>&1)
mrc_check_fails "af=0 is refused" mrc_module_loaded
mrc_check_match "af=0: dmesg says why" "af=0 is out of range" "$(dmesg | tail -5)"

insmod "$MRC_KMOD" af=10 >/dev/null 2>&1
mrc_check_fails "af=10 (AF_INET6, taken) is refused" mrc_module_loaded
mrc_check_match "taken slot: dmesg names the family and the fix" \
	"address family 10 is already registered.*af=" "$(dmesg | tail -5)"

mrc_check "insmod with the default family" insmod "$MRC_KMOD"
mrc_check_eq "af parameter published in sysfs" 25 "$(cat /sys/module/mrc/parameters/af)"
mrc_check_match "load banner names version and family" \
	"mrc: version $(cat "$MRC_ROOT/VERSION"), address family 25" "$(dmesg | tail -5)"

mrc_check_eq "SOCK_STREAM socket" ok "$(sock 25 1)"
mrc_check_eq "SOCK_SEQPACKET socket" ok "$(sock 25 5)"
mrc_check_eq "SOCK_DGRAM is not supported" ESOCKTNOSUPPORT "$(sock 25 2)"
mrc_check_eq "a non-zero protocol is refused" EPROTONOSUPPORT "$(sock 25 1 6)"

# An open socket pins the module.
python3 -c 'import socket, time
s = socket.socket(25, socket.SOCK_STREAM)
print("open", flush=True)
time.sleep(600)' > "$(mrc_tmpdir)/holder.out" &
holder=$!
mrc_wait_for 60 grep -q open "$(mrc_tmpdir)/holder.out"
mrc_check_fails "rmmod is refused while a socket is open" rmmod mrc
kill "$holder"
wait "$holder" 2>/dev/null
mrc_check "rmmod succeeds once the socket is closed" mrc_wait_for 30 rmmod mrc

# Autoload: install the module (overlay over the read-only root), then
# socket() and the netlink family each bring it in.
if mrc_module_install_overlay; then
	mrc_on_exit "rmmod mrc; umount /lib/modules/$(uname -r)"
	mrc_check_eq "socket(AF_MRC) autoloads the module" ok "$(sock 25 1)"
	mrc_check "module present after socket()" mrc_module_loaded
	rmmod mrc
	mrc_check "netlink family lookup autoloads the module" "$MRCCTL" info
	mrc_check "module present after mrcctl info" mrc_module_loaded
else
	mrc_skip "autoload" "cannot overlay /lib/modules"
fi
mrc_done
