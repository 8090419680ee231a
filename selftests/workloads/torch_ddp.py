#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Data-parallel training with torch.distributed (gloo) across host namespaces.

A job launcher of the apps tests (selftests/tests/81-apps-torch.sh): the
workload is stock PyTorch (Debian's python3-torch), torch.distributed with
the gloo backend and DistributedDataParallel, unmodified; this file is the
script a user would write to run it on several hosts, with one twist for
the emulated VM, where importing torch takes about 40 s: torch is imported
once, here, and every rank is a fork() of this process that enters its
host's network namespace (setns() on /run/netns/NAME) before it opens a
socket. The launcher then runs any number of jobs, one after another, as
its control input asks, so a test pays for the import once.

Each job: a small MLP (float64) trained with SGD on a fixed batch split
evenly over the ranks, for at most STEPS steps; DDP all-reduces
(averages) the gradients every step over gloo's TCP connections between
the hosts' fabric addresses. The job ends early once DIR/NAME.stop
exists: rank 0 looks every 10 steps, and an all-reduce of that flag
tells every rank, so all stop after the same step. The same model
trained on the whole batch in this one process, for as many steps, is
the reference: every rank's final parameters must be allclose() to it.
Every step's wall-clock start and end are recorded on every rank.

Rendezvous: init_method-style tcp://[RANK0_ADDR]:PORT (dist.rendezvous,
the TCPStore on rank 0). Gloo's device is created explicitly on the
host's fabric address (ProcessGroupGloo.create_device(hostname=ADDR)):
the address lives on lo, which also holds 127.0.0.1 and ::1, so neither
GLOO_SOCKET_IFNAME=lo (gloo takes the interface's first address,
127.0.0.1) nor the hostname (not resolvable in the VM: gloo falls back
to loopback) would put the traffic on the fabric.

A second workload, for make bench-apps (bench/apps-guest.sh): an
all-reduce loop. Each iteration every rank fills a float32 tensor of MIB
MiB with a pattern of its own (rank, iteration and element index, small
integers, so every sum is exact) and sums it over the ranks with
dist.all_reduce (gloo); the time of the all_reduce call alone is the
step, and every element of every result is checked against the expected
sum before the next iteration. The job stops once NAME.stop exists, as
the DDP job does, but rank 0's stop flag travels in the tensor's last
element, so no other collective runs between iterations (a stall there
would escape the step times). Its NAME.json has the same keys, plus
"workload": "allreduce", "bytes" (the tensor's size) and "checked"
(iterations whose every element was verified, on every rank).

Usage (the control input is stdin, or --control FILE, a FIFO):
  torch_ddp.py --hosts NS=ADDR,NS=ADDR,... --out DIR [--timeout S] ...
  control lines:  run NAME MAX_STEPS PORT   |   allreduce NAME MAX_STEPS PORT MIB
                  |   quit
Output in DIR:
  ready           written once torch is imported (JSON: import_s)
  NAME.progress   the last finished step of rank 0 (rewritten every step)
  NAME.stop       (made by the test) ends the job
  NAME.json       the job's result: ok, error, max_abs_diff, wall_s,
                  reference_s (computing the reference), setup_s (from
                  the fork to the first step: rendezvous, connections,
                  DDP's initial broadcast), steps, start[i] / end[i] (per
                  step: earliest start and latest end over the ranks),
                  per-rank step durations
  NAME.done       the job is over (after NAME.json)
The exit status is 0 when every job was ok.
"""
import argparse
import ctypes
import json
import os
import signal
import sys
import time

CLONE_NEWNET = 0x40000000

t_import = time.time()
import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
from torch.nn.parallel import DistributedDataParallel as DDP  # noqa: E402
import_s = time.time() - t_import


def parse():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hosts", required=True,
                    help="NS=ADDR,...: one rank per host, rank 0 first")
    ap.add_argument("--out", required=True, help="result directory")
    ap.add_argument("--control", help="read commands from this file/FIFO "
                    "instead of stdin")
    ap.add_argument("--timeout", type=float, default=60,
                    help="gloo's and the store's timeout, seconds: a job "
                    "that stalls longer fails with gloo's own error")
    ap.add_argument("--hidden", type=int, default=32, help="MLP width")
    ap.add_argument("--batch", type=int, default=64,
                    help="global batch (a multiple of the ranks)")
    ap.add_argument("--features", type=int, default=64)
    ap.add_argument("--classes", type=int, default=16)
    ap.add_argument("--lr", type=float, default=0.05)
    return ap.parse_args()


def make_model(a):
    torch.manual_seed(1234)
    return torch.nn.Sequential(
        torch.nn.Linear(a.features, a.hidden), torch.nn.Tanh(),
        torch.nn.Linear(a.hidden, a.hidden), torch.nn.Tanh(),
        torch.nn.Linear(a.hidden, a.classes)).double()


def make_data(a):
    g = torch.Generator().manual_seed(4321)
    x = torch.randn(a.batch, a.features, generator=g, dtype=torch.float64)
    y = torch.randn(a.batch, a.classes, generator=g, dtype=torch.float64)
    return x, y


def reference(a, steps):
    """The same model trained on the whole batch in one process."""
    model = make_model(a)
    opt = torch.optim.SGD(model.parameters(), lr=a.lr)
    x, y = make_data(a)
    for _ in range(steps):
        opt.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        opt.step()
    return [p.detach().clone() for p in model.parameters()]


def write_atomic(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


STOP_EVERY = 10


def rank_group(a, hosts, rank, port):
    """Enter the rank's host namespace, meet the others, return the gloo
    process group on the host's fabric address."""
    ns, addr = hosts[rank]
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(f"/run/netns/{ns}", os.O_RDONLY)
    if libc.setns(fd, CLONE_NEWNET) != 0:
        raise OSError(ctypes.get_errno(), f"setns {ns}")
    os.close(fd)
    torch.set_num_threads(1)
    world = len(hosts)
    timeout = __import__("datetime").timedelta(seconds=a.timeout)
    url = f"tcp://[{hosts[0][1]}]:{port}?rank={rank}&world_size={world}"
    store, _, _ = next(dist.rendezvous(url, timeout=timeout))
    opts = dist.ProcessGroupGloo._Options()
    opts._devices = [dist.ProcessGroupGloo.create_device(hostname=addr)]
    opts._timeout = timeout
    return dist.ProcessGroupGloo(store, rank, world, opts)


def rank_process(a, hosts, rank, name, port, body):
    """One rank, in a forked child: never returns. Enters the rank's
    namespace, joins the gloo group and runs body(pg, res), which appends
    each step's start and end to res; then waits at a barrier for every
    rank (so that none closes its connections while others still need
    them) and writes res, with the error if any, to NAME.rankR.json."""
    res = {"rank": rank, "ok": False, "error": None, "start": [], "end": []}
    out = os.path.join(a.out, f"{name}.rank{rank}.json")
    try:
        pg = rank_group(a, hosts, rank, port)
        body(pg, res)
        res["ok"] = True
        pg.barrier().wait()
    except Exception as e:  # reported in the job's JSON, not a traceback
        res["error"] = f"{type(e).__name__}: {e}"
    write_atomic(out, json.dumps(res))
    os._exit(0 if res["ok"] else 1)


def rank_train(a, hosts, rank, name, steps, pg, res):
    """The DDP job's body: train on the rank's share of the batch, stop
    once NAME.stop exists (checked every STOP_EVERY steps, agreed by an
    allreduce), save the final parameters."""
    world = len(hosts)
    model = DDP(make_model(a), process_group=pg)
    opt = torch.optim.SGD(model.parameters(), lr=a.lr)
    x, y = make_data(a)
    per = a.batch // world
    x, y = x[rank * per:(rank + 1) * per], y[rank * per:(rank + 1) * per]
    prog = os.path.join(a.out, f"{name}.progress")
    stop = os.path.join(a.out, f"{name}.stop")
    for i in range(steps):
        t0 = time.time()
        opt.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        opt.step()
        t1 = time.time()
        res["start"].append(t0)
        res["end"].append(t1)
        if rank == 0:
            write_atomic(prog, f"{i + 1}\n")
        if i % STOP_EVERY == STOP_EVERY - 1:
            flag = torch.tensor([float(rank == 0 and os.path.exists(stop))])
            pg.allreduce([flag]).wait()
            if flag.item() > 0:
                break
    torch.save([p.detach() for p in model.module.parameters()],
               os.path.join(a.out, f"{name}.rank{rank}.pt"))


AR_MOD = 1024  # pattern values stay small integers: float32 sums are exact


def rank_allreduce(a, hosts, rank, name, steps, mib, pg, res):
    """The all-reduce loop's body. The tensor's last element carries the
    stop flag (1 from rank 0 once NAME.stop exists, 0 otherwise), so that
    no other collective runs between iterations; the others carry the
    pattern: in iteration i rank r contributes base * (r + 1) + i % AR_MOD,
    base[k] = k % AR_MOD, and the sum over W ranks must be
    base * W(W+1)/2 + W (i % AR_MOD), every element (at most
    1023 * 10 + 4 * 1023 for W = 4: exact in float32). res["checked"]
    counts the iterations whose every element was verified."""
    res["checked"] = 0
    world = len(hosts)
    n = int(mib * 2**20) // 4
    base = (torch.arange(n - 1, dtype=torch.int64) % AR_MOD).to(torch.float32)
    mine = base * (rank + 1)
    expect_base = base * (world * (world + 1) // 2)
    t = torch.empty(n, dtype=torch.float32)
    body = t[:-1]
    prog = os.path.join(a.out, f"{name}.progress")
    stop = os.path.join(a.out, f"{name}.stop")
    for i in range(steps):
        body.copy_(mine)
        body.add_(float(i % AR_MOD))
        t[-1] = float(rank == 0 and os.path.exists(stop))
        t0 = time.time()
        dist.all_reduce(t, group=pg)
        t1 = time.time()
        res["start"].append(t0)
        res["end"].append(t1)
        flag = float(t[-1])
        body.sub_(expect_base)
        want = float(world * (i % AR_MOD))
        if flag not in (0.0, 1.0) or not bool((body == want).all()):
            bad = int((body != want).sum())
            raise ValueError(f"iteration {i}: {bad} of {n - 1} elements differ from "
                             f"the sum, by up to {float((body - want).abs().max())}; "
                             f"stop flag {flag}")
        res["checked"] += 1
        if rank == 0:
            write_atomic(prog, f"{i + 1}\n")
        if flag:
            break


def fork_ranks(a, hosts, name, target):
    """Fork one rank per host running target(rank) (which never returns),
    wait for them, return (wall seconds, their result dicts)."""
    t0 = time.time()
    pids = {}
    for rank in range(len(hosts)):
        pid = os.fork()
        if pid == 0:
            target(rank)
        pids[pid] = rank
    # Ranks end by themselves (gloo's timeout bounds every wait); past
    # twice that, plus the job's own time, they are killed.
    deadline = time.time() + 2 * a.timeout + 120
    status = {}
    while pids:
        pid, st = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            if time.time() > deadline:
                for p in pids:
                    os.kill(p, signal.SIGKILL)
                deadline = float("inf")
            time.sleep(0.05)
            continue
        status[pids.pop(pid)] = st
    wall = time.time() - t0
    ranks = []
    for r in range(len(hosts)):
        try:
            with open(os.path.join(a.out, f"{name}.rank{r}.json")) as f:
                ranks.append(json.load(f))
        except OSError:
            ranks.append({"rank": r, "ok": False, "start": [], "end": [],
                          "error": f"no result (wait status {status.get(r)})"})
    return t0, wall, ranks


def job_steps(ranks, n):
    """The job's steps: earliest start and latest end over the ranks."""
    return {
        "start": [min(x["start"][i] for x in ranks) for i in range(n)],
        "end": [max(x["end"][i] for x in ranks) for i in range(n)],
        "rank_step_s": [[e - s for s, e in zip(x["start"], x["end"])]
                        for x in ranks],
    }


def allreduce_job(a, hosts, name, steps, port, mib):
    t0, wall, ranks = fork_ranks(
        a, hosts, name, lambda r: rank_process(
            a, hosts, r, name, port,
            lambda pg, res: rank_allreduce(a, hosts, r, name, steps, mib, pg, res)))
    n = min(len(x["start"]) for x in ranks)
    for x in ranks:
        if x["ok"] and x.get("checked") != len(x["start"]):
            x["ok"], x["error"] = False, f"{x.get('checked')} of {len(x['start'])} checked"
        elif x["ok"] and len(x["start"]) != n:
            x["ok"], x["error"] = False, f"{len(x['start'])} steps, not {n}"
    job = {
        "name": name, "workload": "allreduce", "world": len(hosts), "steps": steps,
        "steps_done": n, "wall_s": wall, "import_s": import_s,
        "bytes": int(mib * 2**20) // 4 * 4, "dtype": "float32",
        "checked": min(x.get("checked", 0) for x in ranks),
        "setup_s": (min(x["start"][0] for x in ranks) - t0) if n else None,
        "ok": all(x["ok"] for x in ranks),
        "error": "; ".join(f"rank {x['rank']}: {x['error']}"
                           for x in ranks if x.get("error")) or None,
    }
    job.update(job_steps(ranks, n))
    write_atomic(os.path.join(a.out, f"{name}.json"), json.dumps(job))
    write_atomic(os.path.join(a.out, f"{name}.done"), "")
    return job["ok"]


def run_job(a, hosts, name, steps, port):
    t0, wall, ranks = fork_ranks(
        a, hosts, name, lambda r: rank_process(
            a, hosts, r, name, port,
            lambda pg, res: rank_train(a, hosts, r, name, steps, pg, res)))
    n = min(len(x["start"]) for x in ranks)
    # The reference, for as many steps as the ranks did; every rank's
    # final parameters against it.
    t1 = time.time()
    ref = reference(a, n)
    ref_s = time.time() - t1
    diff = None
    for x in ranks:
        if not x["ok"]:
            continue
        if len(x["start"]) != n:
            x["ok"], x["error"] = False, f"{len(x['start'])} steps, not {n}"
            continue
        try:
            params = torch.load(os.path.join(a.out, f"{name}.rank{x['rank']}.pt"))
        except (OSError, RuntimeError) as e:
            x["ok"], x["error"] = False, f"no parameters: {e}"
            continue
        d = max(float((p - r).abs().max()) for p, r in zip(params, ref))
        diff = d if diff is None else max(diff, d)
        if not all(torch.allclose(p, r, rtol=1e-9, atol=1e-12)
                   for p, r in zip(params, ref)):
            x["ok"], x["error"] = False, f"parameters differ from the reference by {d}"
    job = {
        "name": name, "world": len(hosts), "steps": steps,
        "steps_done": n, "wall_s": wall, "import_s": import_s,
        "reference_s": ref_s,
        "setup_s": (min(x["start"][0] for x in ranks) - t0) if n else None,
        "ok": all(x["ok"] for x in ranks),
        "error": "; ".join(f"rank {x['rank']}: {x['error']}"
                           for x in ranks if x.get("error")) or None,
        "max_abs_diff": diff,
    }
    job.update(job_steps(ranks, n))
    write_atomic(os.path.join(a.out, f"{name}.json"), json.dumps(job))
    write_atomic(os.path.join(a.out, f"{name}.done"), "")
    return job["ok"]


def main():
    a = parse()
    hosts = [tuple(h.split("=", 1)) for h in a.hosts.split(",")]
    if a.batch % len(hosts):
        sys.exit("torch_ddp: --batch must be a multiple of the host count")
    # One thread: the ranks share two vCPUs, and the reference computed
    # here must not leave an OpenMP pool behind in the forked ranks.
    torch.set_num_threads(1)
    os.makedirs(a.out, exist_ok=True)
    write_atomic(os.path.join(a.out, "ready"),
                 json.dumps({"import_s": import_s}))
    ok = True
    ctl = open(a.control) if a.control else sys.stdin
    for line in ctl:
        w = line.split()
        if not w:
            continue
        if w[0] == "quit":
            break
        if w[0] == "run" and len(w) == 4:
            ok = run_job(a, hosts, w[1], int(w[2]), int(w[3])) and ok
        elif w[0] == "allreduce" and len(w) == 5:
            ok = allreduce_job(a, hosts, w[1], int(w[2]), int(w[3]),
                               float(w[4])) and ok
        else:
            print(f"torch_ddp: bad command: {line.strip()}", file=sys.stderr)
            ok = False
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
