"""A long simulation on a Dask cluster of this machine, measured: a scheduler and a worker
process per core started with the `dask` command (as on a real cluster, docs/scale.md), then
`playtest simulate ... --scheduler ADDRESS --json`, its wall time and the peak memory of every
process (the command under /usr/bin/time -v; the scheduler and workers sampled with psutil every
second), then the same first PREFIX games in one process and on the cluster, whose JSON must be
byte-identical.

    python bench/cluster_run.py --games 1000000 --out bench-output/million

Writes into --out: simulate.json (the run's output), time.txt (/usr/bin/time -v of the command),
memory.json (peak RSS per process), prefix-*.json and result.json (every figure at once).
Not a test: it takes minutes to hours.
"""
import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import psutil

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
PY = sys.executable
DASK = os.path.join(os.path.dirname(PY), "dask")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Peaks(threading.Thread):
    """The peak RSS of every process under the given roots, sampled every second."""

    def __init__(self):
        super().__init__(daemon=True)
        self.roots, self.peak, self.stopped = {}, {}, threading.Event()

    def watch(self, role: str, pid: int):
        self.roots[role] = pid

    def run(self):
        while not self.stopped.wait(1.0):
            for role, pid in list(self.roots.items()):
                try:
                    root = psutil.Process(pid)
                    procs = [root] + root.children(recursive=True)
                except psutil.NoSuchProcess:
                    continue
                for p in procs:
                    try:
                        rss = p.memory_info().rss
                        name = " ".join(p.cmdline()[1:4])[:80]
                    except psutil.Error:
                        continue
                    key = f"{role} pid {p.pid}: {name}"
                    self.peak[key] = max(self.peak.get(key, 0), rss)


def simulate(args, extra, out_path, time_path=None) -> float:
    cmd = [PY, "-m", "dsl.cli", "simulate", args.game, "-p", str(args.players), "-n", str(extra.pop(0)),
           "--seed", str(args.seed), "--json"] + extra
    if time_path:
        cmd = ["/usr/bin/time", "-v", "-o", time_path] + cmd
    t = time.perf_counter()
    with open(out_path, "w") as out:
        subprocess.run(cmd, cwd=ROOT, stdout=out, check=True, env=env())
    return time.perf_counter() - t


def env() -> dict:
    e = dict(os.environ)
    e["PYTHONPATH"] = ROOT        # this checkout's dsl, in the command and in the workers
    return e


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="games/democracy.rules")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--prefix", type=int, default=20_000,
                    help="games compared with one process; as many as --games compares the whole run")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=psutil.cpu_count() or 1)
    ap.add_argument("--memory-limit", default="2GB", help="per worker; Dask restarts a worker past it")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    out = lambda name: os.path.join(os.path.abspath(args.out), name)
    address = f"tcp://127.0.0.1:{free_port()}"
    peaks = Peaks()
    peaks.start()
    log = open(out("dask.log"), "w")
    scheduler = subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                                  "--no-dashboard"], stdout=log, stderr=log, env=env(), cwd=ROOT)
    workers = subprocess.Popen([DASK, "worker", address, "--nworkers", str(args.workers), "--nthreads", "1",
                                "--memory-limit", args.memory_limit, "--no-dashboard"],
                               stdout=log, stderr=log, env=env(), cwd=ROOT)
    peaks.watch("scheduler", scheduler.pid)
    peaks.watch("workers", workers.pid)
    result = {"game": args.game, "players": args.players, "games": args.games, "seed": args.seed,
              "workers": args.workers, "memory_limit": args.memory_limit, "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
              "commit": subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()}
    try:
        result["seconds"] = round(simulate(args, [args.games, "--scheduler", address], out("simulate.json"),
                                           out("time.txt")), 1)
        result["finished"] = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
        print(f"{args.games} games: {result['seconds']} s", flush=True)
        if args.prefix >= args.games:      # the whole run again in one process, compared with the cluster's
            alone = simulate(args, [args.games, "--workers", "1"], out("one-process.json"))
            with open(out("simulate.json"), "rb") as a, open(out("one-process.json"), "rb") as b:
                result["whole"] = {"games": args.games, "identical": a.read() == b.read(),
                                   "one_process_seconds": round(alone, 1)}
        elif args.prefix:
            cluster = simulate(args, [args.prefix, "--scheduler", address], out("prefix-cluster.json"))
            alone = simulate(args, [args.prefix, "--workers", "1"], out("prefix-one-process.json"))
            with open(out("prefix-cluster.json"), "rb") as a, open(out("prefix-one-process.json"), "rb") as b:
                result["prefix"] = {"games": args.prefix, "identical": a.read() == b.read(),
                                    "cluster_seconds": round(cluster, 1), "one_process_seconds": round(alone, 1)}
    finally:
        peaks.stopped.set()
        for p in (workers, scheduler):
            p.send_signal(signal.SIGINT)
        for p in (workers, scheduler):
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
        with open(out("time.txt")) if os.path.exists(out("time.txt")) else open(os.devnull) as f:
            for line in f:
                if "Maximum resident set size" in line:
                    result["command_peak_rss_mb"] = round(int(line.split(":")[1]) / 1024, 1)
        result["peak_rss_mb"] = {k: round(v / 2 ** 20, 1) for k, v in sorted(peaks.peak.items())}
        with open(out("result.json"), "w") as f:
            json.dump(result, f, indent=1)
        print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
