"""Load test of `carioca serve` on loopback: many tables of 4 seats, every seat a bot client
over a WebSocket that plays a random legal action whenever its state says it may.

Reports the actions per second the server sustains and the latency from sending an action
to that client's acknowledgement (p50, p90, p99). The server runs in its own process, pinned
to core 0; the load generator to core 1 (when the machine has two).

With ``--bots NAME`` seats 1-3 of every table are the server's own bots of that name (a
search bot thinks in a worker thread of the server process) and only seat 0 is a client.
Every run also keeps one table more, idle, where a client pings every 50 ms: the ping's
round trip is how long the server makes anyone wait while it is busy (a bot thinking on the
event loop would show here).

    python bench/bench_server.py --tables 100 --seconds 20
    python bench/bench_server.py --tables 100,500,2000 --seconds 20 --json
    python bench/bench_server.py --tables 10,50 --seconds 30 --bots campeon
    python bench/bench_server.py --tables 100 --store postgres
    python bench/bench_server.py --tables 100 --servers 2     # PostgreSQL + Redis

``--store postgres`` keeps the tables in PostgreSQL (CARIOCA_BENCH_POSTGRES, default
``postgresql:///test``, in a schema made for the run and dropped after it); ``--servers N``
starts N server processes on that database and Redis (CARIOCA_BENCH_REDIS), makes the tables
on each in turn and connects each table's clients to the process that serves it. Servers are
pinned to core 0 only when there is one.

Only 127.0.0.1 is ever contacted. Each run is bounded in time and stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 1 << 20
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, 1 << 20), hard))
    del soft


def _pin(core: int) -> None:
    if hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > core:
        os.sched_setaffinity(0, {core})


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, db: str, bot_delay: float = 0.0, *, pin: bool = True,
                 redis: str | None = None) -> subprocess.Popen[bytes]:
    argv = ["carioca", "serve", "--port", str(port), "--db", db, "--bot-delay", str(bot_delay),
            "--tables-per-address", "0"]  # one address opens every table of the test
    if redis is not None:
        argv += ["--redis", redis]
    code = (
        "import os, resource, sys\n"
        "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))\n"
        + ("hasattr(os, 'sched_setaffinity') and os.sched_setaffinity(0, {0})\n" if pin else "")
        + "from carioca.cli import main\n"
        f"sys.argv = {argv!r}\n"
        "main()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    acks: int = 0
    errors: int = 0
    stale: int = 0


async def seat_client(port: int, code: str, token: str, rng: random.Random, tally: Tally,
                      stop_at: float) -> None:
    from websockets.asyncio.client import connect

    async with connect(f"ws://127.0.0.1:{port}/ws/{code}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        while time.time() < stop_at:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop_at - time.time()))
            except TimeoutError:
                break
            msg = json.loads(raw)
            kind = msg.get("type")
            if kind == "ack" and sent_at is not None:
                tally.latencies.append(time.perf_counter() - sent_at)
                tally.acks += 1
                sent_at = None
            elif kind == "error":
                tally.errors += 1
                tally.stale += msg.get("code") == "stale_version"
                sent_at = None
            elif kind == "state" and msg.get("legal") and sent_at is None:
                action = rng.choice(msg["legal"])
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "version": msg["version"],
                                          "action": action}))


async def pinger(port: int, code: str, token: str, rtts: list[float], stop_at: float) -> None:
    """Ping every 50 ms from a seat of an idle table; each round trip goes in ``rtts``."""
    from websockets.asyncio.client import connect

    async with connect(f"ws://127.0.0.1:{port}/ws/{code}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while time.time() < stop_at:
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "ping"}))
            while json.loads(await ws.recv()).get("type") != "pong":
                pass
            rtts.append(time.perf_counter() - sent)
            await asyncio.sleep(0.05)


async def make_tables(port: int, count: int, bots: str | None = None, *, start: bool = True
                      ) -> list[tuple[str, list[str]]]:
    import httpx

    base = f"http://127.0.0.1:{port}"
    tables = []
    seated = {str(s): bots for s in (1, 2, 3)} if bots else {}
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        for _ in range(count):  # each table is served by the process that made it
            made = (await client.post("/api/tables", json={"name": "S0", "preset": "chile",
                                                           "seats": 4, "bots": seated})).json()
            code, tokens = made["code"], [made["token"]]
            for name in ("S1", "S2", "S3")[:0 if bots else 3]:
                joined = (await client.post(f"/api/tables/{code}/join",
                                            json={"name": name})).json()
                tokens.append(joined["token"])
            if start:
                await client.post(f"/api/tables/{code}/start",
                                  headers={"X-Carioca-Token": tokens[0]})
            tables.append((code, tokens))
    return tables


def _cpu_seconds(procs: list[subprocess.Popen[bytes]]) -> float:
    """The CPU time (user and system) the processes have used so far (Linux's /proc)."""
    total = 0
    for proc in procs:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime: the 14th and 15th
    return total / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def _database(args: argparse.Namespace, tmp: str) -> Iterator[str]:
    """The store's address for one run: a SQLite file, or a PostgreSQL schema of its own."""
    if args.store == "sqlite" and args.servers == 1:
        yield str(Path(tmp) / "bench.sqlite")
        return
    import psycopg

    url = os.environ.get("CARIOCA_BENCH_POSTGRES", "postgresql:///test")
    schema = f"carioca_bench_{secrets.token_hex(4)}"
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(url, autocommit=True) as db:
            db.execute(f"DROP SCHEMA {schema} CASCADE")


def _percentiles(values: list[float]) -> dict[str, float | None]:
    """p50, p90, p99, max and mean of ``values`` (seconds), in milliseconds."""
    ordered = sorted(values)

    def pct(p: float) -> float:
        return 1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered \
            else float("nan")

    return {"p50": round(pct(0.50), 2), "p90": round(pct(0.90), 2), "p99": round(pct(0.99), 2),
            "max": round(1000 * ordered[-1], 2) if ordered else None,
            "mean": round(1000 * statistics.fmean(ordered), 2) if ordered else None}


async def run_load(ports: list[int], tables: int, seconds: float, seed: int,
                   bots: str | None = None) -> dict[str, Any]:
    made = [(port, table) for i, port in enumerate(ports)
            for table in await make_tables(port, len(range(i, tables, len(ports))), bots)]
    port = ports[0]
    (idle_code, idle_tokens), = await make_tables(port, 1, start=False)
    tally = Tally()
    rtts: list[float] = []
    rng = random.Random(seed)
    stop_at = time.time() + seconds
    started = time.perf_counter()
    clients = [seat_client(at, code, token, random.Random(rng.random()), tally, stop_at)
               for at, (code, tokens) in made for token in tokens]
    clients.append(pinger(port, idle_code, idle_tokens[0], rtts, stop_at))
    await asyncio.gather(*clients, return_exceptions=True)
    elapsed = time.perf_counter() - started
    return {
        "tables": tables, "connections": len(clients), "bots": bots, "servers": len(ports),
        "seconds": round(elapsed, 2),
        "actions": tally.acks, "actions_per_s": round(tally.acks / elapsed, 1),
        "latency_ms": _percentiles(tally.latencies),
        "ping_ms": _percentiles(rtts), "pings": len(rtts),
        "errors": tally.errors, "stale": tally.stale,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="100", help="comma-separated table counts")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--bots", default=None,
                        help="seat this server bot in seats 1-3 (a name in docs/bots.md: "
                             "greedy, campeon, ...)")
    parser.add_argument("--bot-delay", type=float, default=0.0,
                        help="the server's pause before a bot plays (serve's default is 0.7)")
    parser.add_argument("--store", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--servers", type=int, default=1,
                        help="server processes sharing PostgreSQL and Redis (more than 1 "
                             "implies --store postgres)")
    args = parser.parse_args()
    _raise_fd_limit()
    results = []
    for count in (int(x) for x in args.tables.split(",")):
        ports = [_free_port() for _ in range(args.servers)]
        with tempfile.TemporaryDirectory() as tmp, _database(args, tmp) as db:
            redis = os.environ.get("CARIOCA_BENCH_REDIS", "redis://127.0.0.1:6379/0") \
                if args.servers > 1 else None
            servers = [start_server(port, db, args.bot_delay, pin=args.servers == 1,
                                    redis=redis) for port in ports]
            if args.servers == 1:
                _pin(1)
            try:
                spent = _cpu_seconds(servers)
                result = asyncio.run(run_load(ports, count, args.seconds, args.seed, args.bots))
                spent = _cpu_seconds(servers) - spent
                # What an action costs the servers, whatever the cores: on this 2-core machine
                # the clients, PostgreSQL and Redis share the cores with them.
                result["server_cpu_ms_per_action"] = round(
                    1000 * spent / max(1, result["actions"]), 3)
                results.append(result)
            finally:
                for server in servers:
                    server.kill()
                    server.wait(timeout=10)
        if not args.json:
            r = results[-1]
            print(f"{args.servers} server(s) on {db.split('?')[0]}:", end=" ")
            lat, ping = r["latency_ms"], r["ping_ms"]
            print(f"{r['tables']:>5} tables {r['connections']:>5} sockets  "
                  f"{r['actions_per_s']:>8.1f} actions/s  p50 {lat['p50']:.1f} ms  "
                  f"p90 {lat['p90']:.1f} ms  p99 {lat['p99']:.1f} ms  "
                  f"ping p50 {ping['p50']:.1f} p99 {ping['p99']:.1f} max {ping['max']} ms  "
                  f"server CPU {r['server_cpu_ms_per_action']:.2f} ms/action  "
                  f"(stale {r['stale']}, errors {r['errors']})", flush=True)
    if args.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
