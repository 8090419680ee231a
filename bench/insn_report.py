#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Turn an instruction profile of the guest (bench/insn-profile.cc: guest
instructions executed per translation block) into top symbols, with the
guest's /proc/kallsyms taken in the same boot.

Usage: insn_report.py KALLSYMS NAME.insns [--top N] [--json OUT]

Prints the split kernel / mrc.ko / other modules / user, the vCPUs' busy
share of the window, then the top symbols by instructions executed in the
symbol itself ("self": a translation block belongs to the function it
starts in), the same grouped by subsystem (by symbol prefix), and the
most called functions (executions of the block at a symbol's address;
a call that jumps past it is missed, so these are lower bounds).
"""
import argparse
import bisect
import collections
import json
import re
import sys

KERNEL_MIN = 0xFFFF800000000000

# Subsystems by symbol name, first match wins: what a function is for.
GROUPS = [
    ("mrc.ko", None),  # by module, not by name
    # perf stat's tracepoints: the measurement's own cost
    ("perf tracepoints (measuring)", r"^(perf_|__perf|tracing_gen_ctx|trace_event_|__traceiter_|strnlen$)"),
    ("copy to/from user", r"^(copy_user|_copy_(to|from)_user|rep_movs|copyin|copyout|__copy_user|simple_copy_to_iter|copy_page_(to|from)_iter|_copy_to_iter|_copy_from_iter|skb_copy_datagram_iter|__skb_datagram_iter)"),
    ("memcpy/memset", r"^(memcpy|memset|memmove|__memcpy|__memset|__memmove|memcpy_erms|memset_erms|memcpy_orig|clear_page)"),
    ("checksum", r"(csum|checksum)"),
    ("TCP", r"^(tcp_|__tcp_|tcp6_|inet_csk|__inet_lookup|inet6_csk|inet_ehash)"),
    ("MPTCP", r"^(mptcp|__mptcp)"),
    ("UDP", r"^(udp|__udp|udpv6|__udp6|udp6)"),
    ("GSO/GRO", r"(gso|gro|segment)"),
    ("SRv6 (seg6)", r"^(seg6|__seg6|input_action|end_|lwtunnel|__lwtunnel)"),
    ("IPv6", r"^(ip6|__ip6|ipv6|ip6_|ip6t|rt6|fib6|icmp6|ndisc|__ipv6|nf_hook|ip6mr|l3mdev|fib_rules|__fib6)"),
    ("qdisc (tbf/netem/fifo)", r"^(tbf|netem|pfifo|__qdisc|qdisc|sch_|dev_qdisc|__dev_xmit|tcf_)"),
    ("veth/netdev core", r"^(veth|__netif|netif|__dev_queue|dev_queue|dev_hard|net_rx|process_backlog|napi|__napi|enqueue_to_backlog|dev_gro|__dev|dev_|validate_xmit|skb_network|eth_)"),
    ("skb alloc/free", r"^(__alloc_skb|alloc_skb|kfree_skb|__kfree_skb|consume_skb|skb_release|skb_free|__build_skb|skb_clone|__skb_clone|skb_put|pskb|skb_|__skb|sock_wfree|sock_rfree|napi_consume)"),
    ("slab/page alloc", r"^(kmem_cache|__kmem_cache|kmalloc|__kmalloc|kfree|__slab|slab_|___slab|__alloc_pages|get_page_from_freelist|free_unref|__free_pages|page_frag|rmqueue|free_pcp|__page_frag|memcg|__memcg|mod_memcg|obj_cgroup|refill_obj|drain_obj)"),
    ("timers/hrtimer", r"^(hrtimer|__hrtimer|__run_hrtimer|timer|__mod_timer|mod_timer|run_timer|__run_timers|tick_|ktime|clockevents|lapic)"),
    ("scheduler/wakeup", r"^(schedule|__schedule|try_to_wake|ttwu|enqueue_|dequeue_|pick_next|update_|__update|finish_task|select_task|__wake_up|wake_up|autoremove|sched_|set_next|put_prev|check_preempt|resched|load_balance|psi_|cpuacct|__switch_to|switch_mm)"),
    ("locks/irq", r"(_raw_spin|spin_lock|spin_unlock|mutex|lock_sock|release_sock|__local_bh|local_bh|irq|_raw_read|_raw_write|queued_spin|native_queued)"),
    ("syscall entry/exit", r"^(entry_SYSCALL|do_syscall|syscall_|__x64_sys|__sys_|exit_to_user|__fdget|fput|__fget|sock_sendmsg|sock_recvmsg|____sys|sock_read|sock_write|__sock|sock_)"),
    ("poll/epoll", r"^(ep_|do_epoll|__ep|poll|do_sys_poll|sock_poll)"),
    ("idle", r"^(native_safe_halt|default_idle|do_idle|cpuidle|arch_cpu_idle|cpu_startup|acpi_idle|mwait)"),
    ("softirq", r"^(handle_softirqs|__do_softirq|do_softirq|irq_exit|__irq_exit|run_ksoftirqd|net_tx_action)"),
]
GROUP_RE = [(g, re.compile(r) if r else None) for g, r in GROUPS]


def load_kallsyms(path):
    syms = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 3 or parts[1] not in "tTwW":
                continue
            addr = int(parts[0], 16)
            if addr == 0:
                continue
            mod = parts[3].strip("[]") if len(parts) > 3 else "kernel"
            syms.append((addr, parts[2], mod))
    syms.sort()
    return syms


def load_insns(path):
    meta, blocks = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith("# window_ns"):
                meta["window_ns"] = int(line.split()[2])
            elif line.startswith("# idle_ns"):
                meta["idle_ns"] = {int(k): int(v) for k, v in (x.split(":") for x in line.split()[2:])}
            elif line.strip():
                f = line.split()
                # VADDR INSNS [N: instructions in the block]
                blocks.append((int(f[0], 16), int(f[1]), int(f[2]) if len(f) > 2 else 0))
    return meta, blocks


def group_of(sym, mod):
    if mod == "mrc":
        return "mrc.ko"
    for g, r in GROUP_RE:
        if r is not None and r.search(sym):
            return g
    return "other kernel" if mod == "kernel" else "module " + mod


def analyse(kallsyms, insns, top):
    syms = load_kallsyms(kallsyms)
    addrs = [s[0] for s in syms]
    meta, blocks = load_insns(insns)
    by_sym = collections.Counter()
    by_space = collections.Counter()
    by_group = collections.Counter()
    calls = collections.Counter()  # executions of the block a symbol starts with
    for va, n, blen in blocks:
        if va < KERNEL_MIN:
            by_space["user"] += n
            by_sym[("[user]", "user")] += n
            by_group["user space"] += n
            continue
        i = bisect.bisect_right(addrs, va) - 1
        if i < 0:
            name, mod = "0x%x" % va, "kernel"
        else:
            start, name, mod = syms[i]
            if va == start and blen:
                calls[(name, mod)] += n // blen
        by_space["mrc.ko" if mod == "mrc" else ("kernel" if mod == "kernel" else "other modules")] += n
        by_sym[(name, mod)] += n
        by_group[group_of(name, mod)] += n
    total = sum(by_space.values()) or 1
    ncpu = max(len(meta.get("idle_ns", {})), 1)
    window = meta.get("window_ns", 0)
    idle = sum(meta.get("idle_ns", {}).values())
    out = {
        "insns_total": total,
        "window_s": window / 1e9,
        "vcpus_seen_idle": ncpu,
        "busy_share": (1 - idle / (window * ncpu)) if window else None,
        "space": {k: v for k, v in by_space.most_common()},
        "groups": [{"group": g, "insns": n, "share": n / total} for g, n in by_group.most_common()],
        "symbols": [{"symbol": s, "module": m, "insns": n, "share": n / total,
                     "calls": calls.get((s, m))}
                    for (s, m), n in by_sym.most_common(top)],
        "calls": [{"symbol": s, "module": m, "calls": n} for (s, m), n in calls.most_common(top)],
    }
    return out


def print_report(r, title):
    t = r["insns_total"]
    print("## %s" % title)
    print("guest instructions in the window: %.3g (%.1f s window, vCPUs busy %s)" % (
        t, r["window_s"], "%.0f%%" % (100 * r["busy_share"]) if r["busy_share"] is not None else "n/a"))
    print("split: " + ", ".join("%s %.1f%%" % (k, 100 * v / t) for k, v in r["space"].items()))
    print("\nby subsystem (self instructions):")
    for g in r["groups"][:20]:
        print("  %6.2f%%  %s" % (100 * g["share"], g["group"]))
    print("\ntop symbols (self instructions):")
    for s in r["symbols"]:
        mod = "" if s["module"] in ("kernel", "user") else " [%s]" % s["module"]
        c = "" if s["calls"] is None else "  (%d calls)" % s["calls"]
        print("  %6.2f%%  %s%s%s" % (100 * s["share"], s["symbol"], mod, c))
    if r["calls"]:
        print("\nmost called (entries of the symbol's first block):")
        for s in r["calls"][:20]:
            print("  %10d  %s" % (s["calls"], s["symbol"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kallsyms")
    ap.add_argument("insns")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--json")
    ap.add_argument("--title", default="")
    a = ap.parse_args()
    r = analyse(a.kallsyms, a.insns, a.top)
    print_report(r, a.title or a.insns)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(r, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
