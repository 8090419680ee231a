#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The bash completion of mrcize offers the right words.
set -u
. "$(dirname "$0")/../mrcize.bash-completion"
fail=0
expect() { # expect "WANTED" WORDS...
	local want=$1
	shift
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	_mrcize
	if [ "${COMPREPLY[*]}" != "$want" ]; then
		echo "completing '$*': got '${COMPREPLY[*]}', want '$want'"
		fail=1
	fi
}
expect "run" mrcize r
expect "disable" mrcize d
expect "run enable disable help -V --version -h --help" mrcize ""
expect "--strict" mrcize run --st
expect "--tcp-if-missing" mrcize run --t
expect "--policy --ports" mrcize run --policy x --po
expect "" mrcize run --ports ""
expect "" mrcize run --dst ""
expect "--unit-dir" mrcize enable --u
expect "--unit-dir" mrcize disable --u
expect "enable" mrcize help e
# After "--", or once CMD has started, words are CMD's: commands, then files.
mrcize_test_cmd() { :; }
cd "$(mktemp -d)" || exit 1
touch mrcize-test-file
expect "mrcize_test_cmd" mrcize run -- mrcize_test_c
expect "mrcize_test_cmd" mrcize run -v --ports 1 mrcize_test_c
expect "mrcize-test-file" mrcize run -v -- sh mrcize-test-f
expect "mrcize-test-file" mrcize run --strict sh -c mrcize-test-f
expect "" mrcize run -v sh --no-such-file-mrcize
rm -f mrcize-test-file
rmdir "$PWD"
exit $fail
