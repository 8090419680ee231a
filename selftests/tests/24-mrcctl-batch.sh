#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mrcctl -batch: a whole fabric from one file; the first failing line
# stops the run and is named; malformed files; standard input.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$MRC_ROOT/selftests/tools/mrcctl_lib.sh"

mrc_module_load
a=$(mrc_ns_new a)
ctl() { in_ns "$a" "$MRCCTL" "$@"; }
for p in 0 1 2 3; do mrcctl_veth_pair "$a" "h$p" "t$p"; done
dir=$(mrc_tmpdir)

cat >"$dir/fabric" <<'FABRIC'
# 4 planes, 2 spines each: 8 uSID paths to host B
policy add fabric rto-min 1ms rto-max 50ms retry-limit 8
settings set default-policy fabric max-ev-set 32
FABRIC
for p in 0 1 2 3; do
	echo "plane add $p dev h$p saddr 2001:db8:$p::a"
	for s in 0 1; do
		echo "path add $((p * 10 + s)) dst 2001:db8:ff::/48 plane $p mode usid usid fc00:$p:$s:f00d::   # spine $s"
	done
done >>"$dir/fabric"
mrc_check "batch builds the fabric" ctl -batch "$dir/fabric"
mrc_check_eq "4 planes" 4 "$(mrcctl_count_rows ctl plane)"
mrc_check_eq "8 paths" 8 "$(mrcctl_count_rows ctl path)"
mrc_check_match "default policy set" "^4791 +fabric +32$" "$(ctl settings | sed -n 2p)"

cat >"$dir/stops" <<'STOPS'
plane del 3
path del 20

path del 20
plane del 2
STOPS
mrcctl_err "stops at the first failure, naming file and line" 1 \
	"mrcctl: $dir/stops:4: path del: no path with this id (MRC_PATH_A_ID) [No such file or directory]" \
	ctl -batch "$dir/stops"
mrc_check_eq "lines before it applied" "0 1 2" "$(ctl plane | awk 'NR > 1 { printf "%s%s", s, $1; s = " " }')"
mrc_check_eq "line after it not applied" 5 "$(mrcctl_count_rows ctl path)"

printf 'plane show\nplane add 9 dev "h0 saddr 2001:db8::1\n' >"$dir/quote"
mrcctl_err "unterminated quote" 2 "mrcctl: $dir/quote:2: unterminated quote" ctl -batch "$dir/quote"
printf 'plane frobnicate 1\n' >"$dir/unknown"
mrcctl_err "unknown command" 2 \
	"mrcctl: $dir/unknown:1: plane: unknown command 'frobnicate' (add, set, del, show)" \
	ctl -batch "$dir/unknown"
printf 'plane add 4 dev h0 saddr 2001:db8::zz\n' >"$dir/value"
mrcctl_err "malformed value" 2 \
	"mrcctl: $dir/value:1: invalid source address '2001:db8::zz': not an IPv6 address" \
	ctl -batch "$dir/value"
mrcctl_err "missing file" 2 "mrcctl: cannot open batch file '$dir/nosuch'" ctl -batch "$dir/nosuch"
mrcctl_err "batch takes one file" 2 "mrcctl: -batch takes exactly one FILE and nothing else
Try 'mrcctl --help'." ctl -batch "$dir/fabric" extra
mrc_check_eq "failed batches applied nothing" 3 "$(mrcctl_count_rows ctl plane)"

out=$(printf 'plane del 2\n-j plane show\n' | ctl -batch -)
mrc_check_eq "standard input, with -j on a line" "0 1" \
	"$(mrcctl_jq "$out" "' '.join(str(p['id']) for p in j)")"
mrc_done
