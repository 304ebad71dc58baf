"""Carioca engine benchmark: random legal play of complete games on one core.

Measures, for one preset and table size:

* throughput: complete games (dealing included) played by a plain, untimed loop that picks
  uniformly among the legal actions of the seat to act; games/s and actions/s;
* latency: the time of each action (``legal_actions`` + the choice + ``apply``) in a second,
  separately timed run, as p50/p90/p99; ``--batch K`` times K actions at a time instead;
* with ``--with-rlcard``: the same loop on RLCard's gin rummy, in its own venv
  (``bench/.venv-rlcard``, made on demand by ``bench/setup_rlcard.sh``), and the ratio
  ours/RLCard of actions per second.

``--grid`` instead reports how the time per action grows with the seats (2..8, where the preset
allows) and the decks. ``--fake`` runs the harness on a stand-in game (``_fake_engine.py``).

No figure here is asserted on anything: this reports, it does not test.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

BENCH_DIR = Path(__file__).resolve().parent
REPO_SRC = BENCH_DIR.parent / "src"
RLCARD_VENV = BENCH_DIR / ".venv-rlcard"
RLCARD_PYTHON = RLCARD_VENV / "bin" / "python"
RLCARD_SCRIPT = BENCH_DIR / "rlcard_gin_rummy.py"
RLCARD_SETUP = BENCH_DIR / "setup_rlcard.sh"

# A game that has not ended after this many actions is an engine bug, not a slow game: stop
# with its seed rather than spin for ever.
MAX_ACTIONS_PER_GAME = 200_000
GRID_SEATS = range(2, 9)


class PlayableGame(Protocol):
    """What the benchmark needs of ``carioca.Game`` (and of the fake)."""

    @property
    def is_over(self) -> bool: ...

    @property
    def seat_to_act(self) -> int: ...

    def legal_actions(self, seat: int) -> Iterable[Any]: ...

    def apply(self, action: Any) -> Any: ...


GameFactory = Callable[[int], PlayableGame]
"""A deal seed -> a new game, rules and table already chosen."""


class StuckGameError(RuntimeError):
    """A game that does not end: the engine's fault, reported with its deal seed."""


# --------------------------------------------------------------------------- engines


def import_carioca() -> Any:
    """Import carioca from this checkout's src/ first, so the benchmark measures the tree it
    sits in even when another version is installed in the environment."""
    if REPO_SRC.is_dir() and str(REPO_SRC) not in sys.path:
        sys.path.insert(0, str(REPO_SRC))
    import carioca

    if not hasattr(carioca, "Game") or not hasattr(carioca, "RuleSet"):
        raise SystemExit(
            f"{carioca.__file__} has no Game/RuleSet yet (is src/carioca/engine.py written?); "
            "use --fake to check the harness alone"
        )
    return carioca


def carioca_factory(preset: str, players: int, decks: int | None) -> GameFactory:
    carioca = import_carioca()
    options = {} if decks is None else {"decks": decks}
    rules = carioca.RuleSet.preset(preset, **options)
    names = [f"P{i}" for i in range(players)]

    def new_game(seed: int) -> PlayableGame:
        game: PlayableGame = carioca.Game.new(rules, players=names, seed=seed)
        return game

    return new_game


def fake_factory(players: int, decks: int | None) -> GameFactory:
    from _fake_engine import new_fake_game  # bench/ is on sys.path when run as a script

    return lambda seed: new_fake_game(players, seed, decks)


def make_factory(args: argparse.Namespace, players: int, decks: int | None) -> GameFactory:
    if args.fake:
        return fake_factory(players, decks)
    return carioca_factory(args.preset, players, decks)


def engine_version(args: argparse.Namespace) -> str:
    if args.fake:
        return "fake"
    return str(getattr(import_carioca(), "__version__", "unknown"))


def source_digest() -> str:
    """A short hash of src/carioca/*.py: the version number does not change with every edit,
    and figures are only comparable between runs of the same code."""
    digest = hashlib.sha256()
    for path in sorted((REPO_SRC / "carioca").rglob("*.py")):
        digest.update(path.relative_to(REPO_SRC).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


# --------------------------------------------------------------------------- playing


def deal_seeds(seed: int) -> Iterator[int]:
    """One reproducible seed per game, so a slow or stuck game can be replayed alone."""
    master = random.Random(seed)
    while True:
        yield master.getrandbits(32)


def play_game(game: PlayableGame, rng: random.Random) -> int:
    """The plain loop, as RLCard's random agents play: returns the number of actions."""
    n = 0
    while not game.is_over:
        actions = list(game.legal_actions(game.seat_to_act))
        game.apply(rng.choice(actions))
        n += 1
        if n == MAX_ACTIONS_PER_GAME:
            raise StuckGameError(f"game not over after {n} actions")
    return n


@contextmanager
def replay_note(deal: int) -> Iterator[None]:
    """Name the deal seed in any error raised while playing a game, so that game can be
    replayed alone: ``Game.new(rules, players, seed=deal)`` chosen by ``random.Random(deal)``."""
    try:
        yield
    except Exception as exc:
        exc.add_note(f"while playing the game of deal seed {deal} (choices: random.Random({deal}))")
        raise


@dataclass
class Budget:
    """Play until ``seconds`` have passed, or exactly ``games`` games when that is given.
    A game is never cut short, so the last one may overrun the time a little."""

    seconds: float
    games: int | None = None

    def fraction(self, elapsed: float, games: int) -> float:
        if self.games is not None:
            return games / self.games
        return elapsed / self.seconds if self.seconds > 0 else 1.0

    def spent(self, elapsed: float, games: int) -> bool:
        return self.fraction(elapsed, games) >= 1.0


Tick = Callable[[float], None]
"""Progress callback: the fraction of the budget spent."""


@dataclass
class Throughput:
    games: int = 0
    actions: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, float]:
        s = self.seconds or float("nan")
        return {
            "games": self.games,
            "actions": self.actions,
            "seconds": round(self.seconds, 4),
            "actions_per_s": round(self.actions / s, 1),
            "games_per_s": round(self.games / s, 3),
            "actions_per_game": round(self.actions / max(self.games, 1), 1),
        }


def measure_throughput(factory: GameFactory, seed: int, budget: Budget, tick: Tick) -> Throughput:
    result = Throughput()
    start = time.perf_counter()
    for deal in deal_seeds(seed):
        with replay_note(deal):
            result.actions += play_game(factory(deal), random.Random(deal))
        result.games += 1
        result.seconds = time.perf_counter() - start
        tick(budget.fraction(result.seconds, result.games))
        if budget.spent(result.seconds, result.games):
            return result
    raise AssertionError("unreachable: deal_seeds never ends")


@dataclass
class Latency:
    """Per-action times in ns (``total``); with batch 1 also split into the ``legal_actions``
    part and the choice + ``apply`` part, to tell which side of the engine is slow."""

    batch: int
    total: list[float] = field(default_factory=list)
    legal: list[int] = field(default_factory=list)
    apply: list[int] = field(default_factory=list)
    slowest: tuple[float, int, int] = (0.0, 0, 0)  # (ns, deal seed, action index)

    def note_slowest(self, deal: int, first_index: int) -> None:
        """Remember the slowest action of the game just timed, to be replayed by seed."""
        for i in range(first_index, len(self.total)):
            if self.total[i] > self.slowest[0]:
                self.slowest = (self.total[i], deal, (i - first_index) * self.batch)


def timed_game(game: PlayableGame, rng: random.Random, out: Latency) -> int:
    clock = time.perf_counter_ns
    n = 0
    while not game.is_over:
        t0 = clock()
        actions = list(game.legal_actions(game.seat_to_act))
        t1 = clock()
        game.apply(rng.choice(actions))
        t2 = clock()
        out.legal.append(t1 - t0)
        out.apply.append(t2 - t1)
        out.total.append(t2 - t0)
        n += 1
        if n == MAX_ACTIONS_PER_GAME:
            raise StuckGameError(f"game not over after {n} actions")
    return n


def timed_game_batched(game: PlayableGame, rng: random.Random, out: Latency) -> int:
    """Time ``out.batch`` actions per clock reading: less timer noise, a blunter tail.
    The last batch of a game may be shorter; it still yields a time per action."""
    clock = time.perf_counter_ns
    n = 0
    while not game.is_over:
        t0 = clock()
        k = 0
        while k < out.batch and not game.is_over:
            game.apply(rng.choice(list(game.legal_actions(game.seat_to_act))))
            k += 1
        out.total.append((clock() - t0) / k)
        n += k
        if n >= MAX_ACTIONS_PER_GAME:
            raise StuckGameError(f"game not over after {n} actions")
    return n


def measure_latency(
    factory: GameFactory, seed: int, budget: Budget, batch: int, tick: Tick
) -> tuple[Latency, Throughput]:
    out = Latency(batch=batch)
    play = timed_game if batch == 1 else timed_game_batched
    played = Throughput()
    start = time.perf_counter()
    for deal in deal_seeds(seed):
        first = len(out.total)
        with replay_note(deal):
            played.actions += play(factory(deal), random.Random(deal), out)
        out.note_slowest(deal, first)
        played.games += 1
        played.seconds = time.perf_counter() - start
        tick(budget.fraction(played.seconds, played.games))
        if budget.spent(played.seconds, played.games):
            return out, played
    raise AssertionError("unreachable: deal_seeds never ends")


def percentiles_us(samples_ns: Sequence[float]) -> dict[str, float]:
    if len(samples_ns) < 2:
        return {}
    q = statistics.quantiles(samples_ns, n=100, method="inclusive")
    return {
        "p50": round(q[49] / 1e3, 2),
        "p90": round(q[89] / 1e3, 2),
        "p99": round(q[98] / 1e3, 2),
        "mean": round(statistics.fmean(samples_ns) / 1e3, 2),
        "max": round(max(samples_ns) / 1e3, 2),
    }


def latency_report(lat: Latency) -> dict[str, Any]:
    ns, deal, index = lat.slowest
    report: dict[str, Any] = {
        "batch": lat.batch,
        "samples": len(lat.total),
        "per_action_us": percentiles_us(lat.total),
    }
    if lat.batch == 1:
        report["legal_actions_us"] = percentiles_us(lat.legal)
        report["choose_apply_us"] = percentiles_us(lat.apply)
    report["slowest"] = {"us": round(ns / 1e3, 2), "deal_seed": deal, "action_index": index}
    return report


def timer_overhead_ns(reads: int = 100_000) -> float:
    """Median cost of one ``perf_counter_ns`` pair, to judge how much of a p50 is the clock."""
    clock = time.perf_counter_ns
    gaps = []
    for _ in range(reads):
        t0 = clock()
        gaps.append(clock() - t0)
    return float(statistics.median(gaps))


def warm_up(factory: GameFactory, seed: int, games: int) -> None:
    """Untimed games first: imports, caches and the allocator settle before the clock runs."""
    for deal in itertools.islice(deal_seeds(seed ^ 0x5EED), games):
        play_game(factory(deal), random.Random(deal))


# --------------------------------------------------------------------------- machine


def pin_to_one_core() -> int | None:
    """Run on one CPU, as promised; a subprocess (RLCard) inherits the same CPU."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine_info(cpu: int | None) -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "cpu_model": cpu_model(),
        "cpus": os.cpu_count(),
        "pinned_cpu": cpu,
        # Another busy process on a 2-core machine shows in the figures: keep the evidence
        # (taken before the run, so our own process is not in it).
        "load_avg_1min": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
    }


# --------------------------------------------------------------------------- RLCard


def ensure_rlcard_venv() -> Path:
    """Make ``bench/.venv-rlcard`` on first use only; RLCard never enters the project's env."""
    probe = [str(RLCARD_PYTHON), "-c", "import rlcard"]
    if RLCARD_PYTHON.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return RLCARD_PYTHON
    print(f"setting up {RLCARD_VENV} (once)...", file=sys.stderr)
    subprocess.run(["bash", str(RLCARD_SETUP), sys.executable], check=True, stdout=sys.stderr)
    return RLCARD_PYTHON


def run_rlcard(level: str, seconds: float, seed: int) -> dict[str, Any]:
    python = ensure_rlcard_venv()
    # numpy must not fan out to other cores behind our back: the figure is a one-core one.
    env = os.environ | {
        k: "1" for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
    }
    flags = f"--seconds {seconds} --seed {seed} --level {level}".split()
    cmd = [str(python), str(RLCARD_SCRIPT), *flags]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


# --------------------------------------------------------------------------- output


try:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
    from rich.table import Table
    from rich.text import Text

    HAVE_RICH = True
except ImportError:  # rich is a project dependency, but the harness must not need it
    HAVE_RICH = False


@contextmanager
def progress(label: str, enabled: bool) -> Iterator[Tick]:
    """A progress bar on stderr. It refreshes only when the loop ticks, never from rich's own
    thread: on one core, that thread would take time from the game being measured."""
    if not (enabled and HAVE_RICH):
        yield lambda _fraction: None
        return
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        auto_refresh=False,
        transient=True,
    )
    with bar:
        task = bar.add_task(label, total=1.0)
        last = 0.0

        def tick(fraction: float) -> None:
            nonlocal last
            now = time.perf_counter()
            if now - last >= 0.25:
                bar.update(task, completed=min(fraction, 1.0))
                bar.refresh()
                last = now

        yield tick


def print_table(title: str, header: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    cells = [[f"{c:,}" if isinstance(c, int) else str(c) for c in row] for row in rows]
    if HAVE_RICH:
        table = Table()
        for i, name in enumerate(header):
            table.add_column(name, justify="left" if i == 0 else "right")
        for row in cells:
            table.add_row(*row)
        # Piped output gets rich's 80 columns, which wraps these tables: give it room.
        console = Console(width=None if sys.stdout.isatty() else 120)
        console.print()
        console.print(Text(title, style="bold"))
        console.print(table)
        return
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(header)]
    print(f"\n{title}")
    for row in [list(header), *cells]:
        print(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            )
        )


def fmt_us(p: dict[str, float], key: str) -> str:
    return f"{p[key]:.1f}" if key in p else "-"


def show_main(result: dict[str, Any]) -> None:
    t, lat = result["throughput"], result["latency"]
    print_table(
        f"carioca {result['preset']}, {result['players']} players, decks={result['decks']} "
        f"(engine {result['engine_version']}, src {result['source_digest']}, "
        f"python {result['machine']['python']}, load {result['machine']['load_avg_1min']})",
        ["measure", "value"],
        [
            ["games", t["games"]],
            ["actions", t["actions"]],
            ["seconds", t["seconds"]],
            ["games/s", t["games_per_s"]],
            ["actions/s", f"{t['actions_per_s']:,.0f}"],
            ["actions/game", t["actions_per_game"]],
        ],
    )
    parts = [("per action", lat["per_action_us"])]
    if "legal_actions_us" in lat:
        parts += [
            ("  legal_actions", lat["legal_actions_us"]),
            ("  choice + apply", lat["choose_apply_us"]),
        ]
    batch = "per action" if lat["batch"] == 1 else f"batches of {lat['batch']}"
    print_table(
        f"time per action in µs ({batch}; {lat['samples']:,} samples; "
        f"clock pair ≈ {result['timer_overhead_ns']:.0f} ns)",
        ["", "p50", "p90", "p99", "mean", "max"],
        [
            [name, *(fmt_us(p, k) for k in ("p50", "p90", "p99", "mean", "max"))]
            for name, p in parts
        ],
    )
    slow = lat["slowest"]
    print(
        f"slowest action: {slow['us']:.0f} µs, deal seed {slow['deal_seed']}, "
        f"action #{slow['action_index']}"
    )
    if len(result["rounds"]) > 1:
        show_rounds(result)
    if result.get("rlcard"):
        show_rlcard(result)


def show_rounds(result: dict[str, Any]) -> None:
    levels = [r["level"] for r in result.get("rlcard", [])]
    rows = []
    for i, rnd in enumerate(result["rounds"], 1):
        ours = rnd["carioca"]["actions_per_s"]
        rlcard = [rnd["rlcard"][lv]["actions_per_s"] for lv in levels]
        rows.append(
            [
                i,
                f"{ours:,.0f}",
                *(f"{x:,.0f}" for x in rlcard),
                *(f"{ours / x:.2f}" for x in rlcard),
            ]
        )
    print_table(
        "actions/s by round",
        ["round", "carioca", *(f"rlcard {lv}" for lv in levels), *(f"ratio {lv}" for lv in levels)],
        rows,
    )


def show_rlcard(result: dict[str, Any]) -> None:
    ours = result["throughput"]["actions_per_s"]
    rows: list[list[object]] = [["carioca (ours)", f"{ours:,.0f}", f"{1e6 / ours:.1f}", "1.00"]]
    for r in result["rlcard"]:
        rows.append(
            [
                f"rlcard gin-rummy, {r['level']}",
                f"{r['actions_per_s']:,.0f}",
                f"{1e6 / r['actions_per_s']:.1f}",
                f"{r['ratio_ours_over_rlcard']:.2f}",
            ]
        )
    print_table(
        "ours / RLCard (actions per second, one core; medians over the rounds)",
        ["engine", "actions/s", "µs/action", "ours/RLCard"],
        rows,
    )


def show_grid(result: dict[str, Any]) -> None:
    rows = []
    for cell in result["grid"]:
        if "skipped" in cell:
            reason = f"skipped: {cell['skipped'][:60]}"
            rows.append([cell["players"], cell["decks"], *["-"] * 7, reason])
            continue
        p = cell["per_action_us"]
        rows.append(
            [
                cell["players"],
                cell["decks"],
                cell["actions_per_game"],
                fmt_us(p, "p50"),
                fmt_us(p, "p90"),
                fmt_us(p, "p99"),
                fmt_us(p, "mean"),
                f"x{cell['growth']['p50']:.2f}",
                f"x{cell['growth']['p99']:.2f}",
                "",
            ]
        )
    print_table(
        f"carioca {result['preset']}: time per action (µs) by seats and decks, "
        f"{result['grid_seconds']} s per cell (src {result['source_digest']}, "
        f"load {result['machine']['load_avg_1min']})",
        [
            "seats",
            "decks",
            "actions/game",
            "p50",
            "p90",
            "p99",
            "mean",
            "p50/1st",
            "p99/1st",
            "note",
        ],
        rows,
    )


# --------------------------------------------------------------------------- runs


def run_main(args: argparse.Namespace, cpu: int | None) -> dict[str, Any]:
    result = header(args, cpu)  # first, so the load average is the machine's before our run
    factory = make_factory(args, args.players, args.decks)
    warm_up(factory, args.seed, args.warmup)
    rounds = [measure_round(args, factory, i) for i in range(args.rounds)]
    with progress("latency", args.progress) as tick:
        lat, _ = measure_latency(
            factory, args.seed, Budget(args.latency_seconds, args.games), args.batch, tick
        )
    result |= {
        "players": args.players,
        "decks": args.decks or "preset",
        "throughput": median_run([r["carioca"] for r in rounds]),
        "rounds": rounds,
        "latency": latency_report(lat),
        "timer_overhead_ns": timer_overhead_ns(),
    }
    if args.with_rlcard:
        result["rlcard"] = summarize_rlcard(rounds, args.rlcard_levels)
    return result


def measure_round(args: argparse.Namespace, factory: GameFactory, index: int) -> dict[str, Any]:
    """Our throughput, then RLCard's right after it (same seed, same budget)."""
    label = "throughput" if args.rounds == 1 else f"throughput {index + 1}/{args.rounds}"
    with progress(label, args.progress) as tick:
        ours = measure_throughput(factory, args.seed, Budget(args.seconds, args.games), tick)
    measured: dict[str, Any] = {"carioca": ours.as_dict()}
    if args.with_rlcard:
        measured["rlcard"] = {}
        for level in args.rlcard_levels:
            print(f"rlcard gin-rummy ({level}) for {args.seconds} s...", file=sys.stderr)
            measured["rlcard"][level] = run_rlcard(level, args.seconds, args.seed)
    return measured


def median_run(runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The run with the median actions/s (the lower middle one for an even count)."""
    ordered = sorted(runs, key=lambda r: float(r["actions_per_s"]))
    return ordered[(len(ordered) - 1) // 2]


def summarize_rlcard(
    rounds: Sequence[dict[str, Any]], levels: Sequence[str]
) -> list[dict[str, Any]]:
    """Per level, the median RLCard run and the median of the per-round ratios. Each ratio is
    taken within one round, from runs seconds apart, so that load from other processes that
    comes and goes over the whole benchmark weighs on both sides of it alike."""
    summary = []
    for level in levels:
        ratios = [
            r["carioca"]["actions_per_s"] / r["rlcard"][level]["actions_per_s"] for r in rounds
        ]
        summary.append(
            median_run([r["rlcard"][level] for r in rounds])
            | {
                "ratio_ours_over_rlcard": round(statistics.median(ratios), 3),
                "ratios_by_round": [round(x, 3) for x in ratios],
            }
        )
    return summary


def grid_cell(args: argparse.Namespace, players: int, decks: int | None) -> dict[str, Any]:
    cell: dict[str, Any] = {"players": players, "decks": decks or "preset"}
    try:
        factory = make_factory(args, players, decks)
        factory(args.seed)  # a table the preset cannot deal fails here, with its reason
    except ValueError as exc:  # RulesError is a ValueError
        return cell | {"skipped": str(exc)}
    warm_up(factory, args.seed, 1)
    with progress(f"{players} seats, decks {cell['decks']}", args.progress) as tick:
        lat, played = measure_latency(factory, args.seed, Budget(args.grid_seconds), 1, tick)
    return cell | {
        "games": played.games,
        # Taken with a clock pair around every action, so a little below the untimed figure.
        "actions_per_s_timed": round(played.actions / played.seconds, 1),
        "actions_per_game": round(played.actions / played.games, 1),
        "per_action_us": percentiles_us(lat.total),
    }


def run_grid(args: argparse.Namespace, cpu: int | None) -> dict[str, Any]:
    result = header(args, cpu)
    cells = [grid_cell(args, players, decks) for decks in args.grid_decks for players in GRID_SEATS]
    measured = [c for c in cells if "per_action_us" in c]
    if measured:
        # Growth against the first cell, by percentile and not by mean: on a shared 2-core
        # machine a few preempted actions of several ms move the mean more than the engine does.
        base = measured[0]["per_action_us"]
        for c in measured:
            c["growth"] = {k: round(c["per_action_us"][k] / base[k], 3) for k in ("p50", "p99")}
    return result | {"grid_seconds": args.grid_seconds, "grid": cells}


def header(args: argparse.Namespace, cpu: int | None) -> dict[str, Any]:
    return {
        "engine": "carioca" if not args.fake else "fake",
        "engine_version": engine_version(args),
        "source_digest": "fake" if args.fake else source_digest(),
        "preset": args.preset,
        "seed": args.seed,
        "machine": machine_info(cpu),
        "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
    }


# --------------------------------------------------------------------------- CLI


def levels_list(text: str) -> list[str]:
    levels = text.split(",")
    if not set(levels) <= {"env", "game"}:
        raise argparse.ArgumentTypeError(f"levels are env and game, not {text!r}")
    return levels


def decks_list(text: str) -> list[int | None]:
    """``2,3`` -> [2, 3]; ``preset`` stands for the preset's own choice by table size."""
    return [None if part == "preset" else int(part) for part in text.split(",")]


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--preset", default="chile")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--decks", type=int, default=None, help="packs (default: the preset's)")
    p.add_argument(
        "--seconds", type=float, default=10.0, help="throughput budget, and RLCard's (default 10)"
    )
    p.add_argument(
        "--games",
        type=int,
        default=None,
        help="play exactly this many games per phase instead of --seconds",
    )
    p.add_argument(
        "--latency-seconds",
        type=float,
        default=5.0,
        help="budget of the timed-per-action run (default 5)",
    )
    p.add_argument(
        "--batch", type=int, default=1, help="time this many actions per clock reading (default 1)"
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="repeat the throughput run (and RLCard's after it) this many times and report "
        "medians: steadier figures on a shared machine (default 1)",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--warmup", type=int, default=2, help="untimed games first (default 2)")
    p.add_argument("--grid", action="store_true", help="time per action by seats and decks")
    p.add_argument("--grid-seconds", type=float, default=3.0, help="per cell (default 3)")
    p.add_argument(
        "--grid-decks",
        type=decks_list,
        default=[2, 3],
        help="comma list of packs, or 'preset' (default 2,3)",
    )
    p.add_argument(
        "--with-rlcard",
        action="store_true",
        help="also run RLCard's gin rummy (sets up bench/.venv-rlcard once)",
    )
    p.add_argument(
        "--rlcard-levels",
        type=levels_list,
        default=["env", "game"],
        help="env (public API), game (rules core) or both: env,game (default)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object, no tables")
    p.add_argument("--no-progress", dest="progress", action="store_false")
    p.add_argument("--fake", action="store_true", help="bench a stand-in game (harness check)")
    args = p.parse_args(argv)
    if args.batch < 1 or args.rounds < 1:
        p.error("--batch and --rounds must be at least 1")
    args.progress = args.progress and sys.stderr.isatty()
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    cpu = pin_to_one_core()
    result = run_grid(args, cpu) if args.grid else run_main(args, cpu)
    if not args.fake and source_digest() != result["source_digest"]:
        # Others edit src/ while we run. The figures are still those of the code imported at
        # the start (whose digest the result carries), but the tree no longer is that code.
        result["source_changed_during_run"] = True
        print(
            f"note: src/carioca changed during the run; the figures are for src "
            f"{result['source_digest']}, as imported at the start",
            file=sys.stderr,
        )
    if args.json:
        print(json.dumps(result, indent=2))
    elif args.grid:
        show_grid(result)
    else:
        show_main(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
