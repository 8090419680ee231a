# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers of the benchmarks' host side (bench/run.sh, bench/apps-run.sh,
# bench/profile.sh), sourced from the repository's root.

# bench_commit PATH...: the commit the figures belong to, HEAD's short
# hash, "+dirty" when any PATH has uncommitted changes.
bench_commit() {
	local c
	c=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
	if [ -n "$(git status --porcelain -- "$@" 2>/dev/null)" ]; then
		c="$c+dirty"
	fi
	echo "$c"
}

# bench_guest_env PREFIX [NAME...]: BENCH_ENV, the NAME=VALUE of every
# environment variable whose name starts with PREFIX, but the NAMEs (the
# host's own), for the guest (env "${BENCH_ENV[@]}" ...).
bench_guest_env() {
	local prefix=$1 k v
	shift
	BENCH_ENV=()
	while IFS='=' read -r k v; do
		[[ $k == "$prefix"* ]] || continue
		[[ " $* " == *" $k "* ]] && continue
		BENCH_ENV+=("$k=$v")
	done < <(env)
}
