#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything MRC for Linux needs from Debian's archive. Idempotent:
# when every package is present it only checks and returns in a second.
#
# Usage: scripts/install-deps.sh [--bench]   (--bench adds benchmark tools)
set -euo pipefail

packages=(
	# build
	build-essential cmake pkg-config git
	# the kernel the module is built for and tested on (in QEMU)
	linux-image-amd64 linux-headers-amd64 linux-source-6.1
	# the test VM
	qemu-system-x86 busybox-static cpio file kmod iproute2 iputils-ping procps python3
	# the two-kernel tests switch NIC offloads (selftests/multi/40-offloads)
	ethtool
	# userspace libraries and tests
	libnl-3-dev libnl-genl-3-dev libcli11-dev nlohmann-json3-dev
	libgtest-dev libgmock-dev
	# the Wireshark dissector's test (tools/wireshark)
	tshark
	# kernel code checks, fuzzing, coverage
	sparse clang llvm libclang-rt-14-dev gcovr
	# building Debian's kernel for make check-debug (linux-source only
	# recommends them, and recommendations are not installed)
	bc bison flex libelf-dev libssl-dev rsync
	# the netlink code generator and its check (scripts/mrc-nlgen.py)
	python3-yaml
	# plots of make demo and make bench
	python3-matplotlib
)
# Unmodified applications of the apps tests (selftests/tests/8x-apps-*)
# and the metrics test's Prometheus, like everything here installed
# without their recommendations (python3-torch recommends a few hundred MB
# of build tools and extras the tests do not use, prometheus the node
# exporter).
apps_packages=(python3-torch openmpi-bin libopenmpi-dev iperf3
	# 45-prometheus and the promtool unit test: prometheus (and promtool), curl
	prometheus curl)
if [ "${1:-}" = "--bench" ]; then
	packages+=(iperf3 mptcpize python3-matplotlib linux-perf)
fi

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}
missing=()
for p in "${packages[@]}"; do
	installed "$p" || missing+=("$p")
done
apps_missing=()
for p in "${apps_packages[@]}"; do
	installed "$p" || apps_missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ] && [ ${#apps_missing[@]} -eq 0 ]; then
	exit 0
fi

sudo=
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
	sudo=sudo
fi
echo "install-deps: installing ${missing[*]} ${apps_missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# tshark's wireshark-common asks whether non-root users may capture: keep
# Debian's default (no) without asking.
echo "wireshark-common wireshark-common/install-setuid boolean false" |
	$sudo debconf-set-selections
$sudo apt-get update -q
# Never the recommendations: only what the build and the tests use.
if [ ${#missing[@]} -gt 0 ]; then
	$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if [ ${#apps_missing[@]} -gt 0 ]; then
	$sudo apt-get install -y -q --no-install-recommends "${apps_missing[@]}"
fi

# The kernel image and its headers must be the same version.
"$(dirname "$0")/../selftests/vm/kver.sh" >/dev/null
