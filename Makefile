# SPDX-License-Identifier: GPL-2.0
#
# MRC for Linux: every entry point.
#
#   make            build mrc.ko and the userspace (libmrc, mrcctl, tests)
#   make check      install what is missing, build, lint, unit tests, VM suite
#   make demo       boot the VM and show MRC at work
#   make bench      MRC vs TCP vs MPTCP on the reference fabric in the VM:
#                   JSON, a table of ratios and plots in build/bench/; then
#                   the training job of bench-apps and the two-kernel
#                   scenarios of bench-multi
#   make bench-profile  where MRC's and TCP's CPU goes in the VM (perf, a
#                   QEMU plugin, counters) and an idle connection's memory:
#                   build/bench-profile/
#   make bench-apps the second boot of bench alone: an unmodified PyTorch
#                   training job (DDP step time, all-reduce bandwidth) over
#                   MRC, TCP and MPTCP, fault-free and under each fault:
#                   build/bench-apps/
#   make bench-multi  bench's aggregate, blackhole and plane-down scenarios
#                   across two kernels (the two guests of selftests-multi):
#                   MRC vs TCP over shaped planes, a table of ratios in
#                   build/bench-multi/
#   make unit       unit tests only (CTest)
#   make selftests  VM selftests only (T="00-module-load 10-mrcctl-info")
#   make selftests-fabric  only the VM tests that build the reference
#                   fabric (transfers, faults; part of check too)
#   make selftests-multi  two guests, two kernels (T="10-transfer")
#   make check-debug  the VM suite on a debug kernel (KASAN, lockdep, kmemleak,
#                   UBSAN; built once per machine, about an hour; not in check;
#                   about 80 min on a quiet 2-core machine, T="..." for some
#                   tests, MRC_SUITE_BUDGET=SECONDS bounds the run)
#   make check-slow  the long forms of VM tests make check runs short: a
#                   reader stopped for 3 minutes (48-stalled-reader), a spine
#                   link with a small MTU through 192 MiB (49-path-mtu); not
#                   in check (about 7 minutes; T="..." for one)
#   make check-mutants  tests of the tests: each mutant breaks one promise of
#                   the engine on purpose; the core's unit tests and the
#                   simulator must catch every one (20+ min; not in check)
#   make lint       checkpatch --strict, kernel-doc, sparse, W=1, clang-format,
#                   the netlink code generated from its spec
#   make netlink-gen  regenerate the netlink family's code from
#                   Documentation/netlink/specs/mrc.yaml (uapi enums, kernel
#                   policies and ops, python constants); commit the result
#   make coverage   line coverage of the protocol core (gcovr)
#   make fuzz       run each libFuzzer target for FUZZ_SECONDS (default 60)
#   make install    install mrc.ko (+depmod), mrcctl, man pages, completion
#   make deps       install build and test dependencies (apt-get)
#   make wireshark-plugin  copy the MRC dissector (tools/wireshark/mrc.lua)
#                   to ~/.local/lib/wireshark/plugins/ for wireshark/tshark
BUILD ?= build
JOBS ?= $(shell nproc)
FUZZ_SECONDS ?= 60
PREFIX ?= /usr/local

all: kmod userspace

deps:
	scripts/install-deps.sh

kmod:
	$(MAKE) -C kmod W=1

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD)

userspace: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j$(JOBS)

unit: userspace
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

selftests: all
	selftests/run.sh $(T)

selftests-fabric: all
	selftests/run.sh $(notdir $(basename $(shell grep -l lib_fabric.sh selftests/tests/*.sh | xargs grep -L '^\# suite: slow$$')))

# Two kernels: guest A and guest B over virtio-net plane links (T: names
# under selftests/multi, default all of them; run under the VM lock).
selftests-multi: all
	selftests/vm/multi/run.sh $(or $(T),$(notdir $(basename $(wildcard selftests/multi/[0-9]*.sh))))

netlink-gen:
	python3 scripts/mrc-nlgen.py

lint:
	scripts/lint-kernel.sh
	scripts/lint-userspace.sh

check:
	scripts/check.sh

check-debug: all
	scripts/check-debug.sh $(T)

check-slow: all
	scripts/check-slow.sh $(T)

check-mutants:
	scripts/mutants.sh $(T)

demo:
	scripts/demo.sh

bench:
	scripts/install-deps.sh --bench
	$(MAKE) all
	rc=0; bench/run.sh || rc=1; bench/apps-run.sh || rc=1; bench/multi-run.sh || rc=1; exit $$rc

bench-apps:
	scripts/install-deps.sh --bench
	$(MAKE) all
	bench/apps-run.sh

# Two guests: run under the VM lock (flock /tmp/mrc-vm.lock make bench-multi).
bench-multi: all
	bench/multi-run.sh

bench-profile:
	scripts/install-deps.sh --bench
	$(MAKE) all
	bench/profile.sh

coverage:
	scripts/coverage.sh

fuzz:
	scripts/fuzz.sh $(FUZZ_SECONDS)

install: all
	$(MAKE) -C kmod install
	cmake --install $(BUILD) --prefix $(PREFIX)

wireshark-plugin:
	install -D -m 644 tools/wireshark/mrc.lua $(HOME)/.local/lib/wireshark/plugins/mrc.lua
	@echo "installed: $(HOME)/.local/lib/wireshark/plugins/mrc.lua (tshark -G plugins | grep mrc)"

clean:
	$(MAKE) -C kmod clean
	rm -rf $(BUILD)

.PHONY: all deps kmod userspace unit selftests selftests-fabric selftests-multi netlink-gen lint check check-debug check-slow check-mutants demo bench bench-apps bench-multi bench-profile coverage fuzz install wireshark-plugin clean
