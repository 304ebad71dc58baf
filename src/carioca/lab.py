"""Tournaments and simulations: many games between bots, on every core or on a Ray cluster.

A **tournament** seats bots at a table on the same deals in every rotation (every bot plays
every seat on every deal), so the luck of the cards cancels out, and reports each bot's win
rate and mean points with 95% confidence intervals. A **simulation** plays one set of rules
(or two side by side) many times and measures what players argue about: how long a round
lasts, how soon players get down, the penalty left in hand, whether the first seat has an
advantage, and how often the mazo runs out.

Every game is a task fixed by its seeds, so the results are the same for the same seed
whether the games run in this process, on local processes, or on Ray (only the time bots
spend deciding differs).

>>> result = tournament(["eager", "random"], "chico", games=4, seed=1, workers=1)
>>> [(s.name, s.games) for s in result.stats]
[('eager', 4), ('random', 4)]
>>> eager, rnd = result.stats
>>> eager.mean_points < rnd.mean_points   # the same deals, every seat: luck cancels out
True
"""

from __future__ import annotations

import errno
import json
import math
import os
import random
import socket
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO, TypeVar

from .actions import Action, Bajar, Buy, Draw
from .bots.levels import make_bot
from .bots.search import play_until_round_end
from .cards import quoted
from .engine import Game
from .rules import RuleSet, parse_option_texts

__all__ = [
    "Config",
    "parse_options",
    "tournament",
    "TournamentResult",
    "BotStats",
    "GameResult",
    "simulate",
    "check_simulation",
    "check_tournament",
    "SimulationResult",
    "ConfigSummary",
    "RoundStats",
    "write_simulation",
    "write_games",
    "run_tasks",
    "play_game",
    "default_workers",
]

T = TypeVar("T")
R = TypeVar("R")
Progress = Callable[[int], None]
"""Called with how many more games are done."""

_Z95 = 1.959963984540054
_MAX_ROUND_ACTIONS = 20_000
_ACTIONS_PER_TURN = 40
"""A generous bound on the actions of one turn (draw, buys, melds, lay-offs, discard)."""


# --------------------------------------------------------------------------- configurations

def parse_options(items: Iterable[str] | None, flag: str = "--set") -> dict[str, Any]:
    """``["hand_size=11", "rounds=[1,3]"]`` as options: each value is read as JSON when it can
    be, else kept as text (as ``carioca rules --set``).

    >>> parse_options(["hand_size=11", "buying=penalty_card", "rounds=[1, 3]"])
    {'hand_size': 11, 'buying': 'penalty_card', 'rounds': [1, 3]}
    """
    return parse_option_texts(items, flag)


@dataclass(frozen=True, slots=True)
class Config:
    """A preset with options changed: one side of a comparison."""

    preset: str
    options: tuple[tuple[str, Any], ...] = ()

    @staticmethod
    def of(preset: str, options: Mapping[str, Any] | None = None) -> Config:
        config = Config(preset, tuple((options or {}).items()))
        config.rules()  # refuse bad rules now, with the reason
        return config

    def rules(self) -> RuleSet:
        return RuleSet.preset(self.preset, **dict(self.options))

    @property
    def label(self) -> str:
        if not self.options:
            return self.preset
        opts = " ".join(f"{k}={_typed(v)}" for k, v in self.options)
        return f"{self.preset} {opts}"


def _typed(value: Any) -> str:
    """An option's value as ``--set`` takes it: text bare (``tie_break=extra_round``) unless
    reading it back as JSON would give something else (``"null"``, ``"3"``)."""
    text = json.dumps(value, separators=(",", ":"))
    if isinstance(value, str):
        try:
            json.loads(value)
        except ValueError:
            return value
    return text


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def _seed(*parts: object) -> int:
    """A 32-bit seed from parts, the same in every process and on every machine."""
    return random.Random("carioca-lab:" + ":".join(map(str, parts))).getrandbits(32)


# --------------------------------------------------------------------------- running tasks

def _run_batch(fn: Callable[[T], R], batch: Sequence[T]) -> list[R]:
    return [fn(task) for task in batch]


def run_tasks(fn: Callable[[T], R], tasks: Sequence[T], *, workers: int | None = None,
              ray_address: str | None = None, progress: Progress | None = None) -> list[R]:
    """``[fn(t) for t in tasks]``, in order: in this process (``workers=1``), on local
    processes (``workers`` of them; all cores by default), or on Ray (``ray_address``: a
    cluster address, or ``local`` to start Ray here). ``fn`` must be a module-level function."""
    workers = default_workers() if workers is None else max(1, workers)
    if not tasks:
        return []
    if ray_address is not None:
        return _run_ray(fn, tasks, ray_address, workers, progress)
    if workers == 1:
        out = []
        for task in tasks:
            out.append(fn(task))
            if progress is not None:
                progress(1)
        return out
    size = max(1, min(16, len(tasks) // (workers * 4)))
    batches = [tasks[i:i + size] for i in range(0, len(tasks), size)]
    results: list[list[R] | None] = [None] * len(batches)
    pool = ProcessPoolExecutor(max_workers=workers)
    try:
        futures = {pool.submit(_run_batch, fn, batch): i for i, batch in enumerate(batches)}
        for future in as_completed(futures):
            i = futures[future]
            results[i] = future.result()
            if progress is not None:
                progress(len(batches[i]))
    except BaseException:
        # Ctrl-C (or a failed batch): drop the batches not started, instead of playing them
        # all out before the error is seen, and stop the workers at once.
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        raise
    pool.shutdown()
    return [r for batch_result in results if batch_result is not None for r in batch_result]


def _check_ray_address(address: str, wait: float = 5.0) -> None:
    """Fail in seconds, with a reason, where Ray itself would retry for minutes: nothing
    answers at a HOST:PORT (or ray://HOST:PORT) address. 'auto' is left to Ray."""
    if address == "auto":
        return
    where = address.removeprefix("ray://")
    host, _, port = where.rpartition(":")
    if not host or not (port.isascii() and port.isdigit() and len(port) <= 5) \
            or not 0 < int(port) < 65536:
        raise ValueError(f"{address!r} is not a Ray address: give HOST:PORT, ray://HOST:PORT, "
                         "'auto' or 'local'")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=wait).close()
    except OSError:
        raise ValueError(f"no Ray cluster answers at {address} (is 'ray start --head' "
                         "running there, and the port open?)") from None


def _run_ray(fn: Callable[[T], R], tasks: Sequence[T], address: str, workers: int,
             progress: Progress | None) -> list[R]:
    import ray

    started = False
    if not ray.is_initialized():
        if address == "local":
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        else:
            _check_ray_address(address)
            try:
                ray.init(address=address, log_to_driver=False)
            except ConnectionError as exc:
                raise ValueError(f"could not join the Ray cluster at {address}: {exc}") from None
        started = True
    try:
        remote: Any = ray.remote(_run_batch)
        size = max(1, min(16, len(tasks) // (workers * 4)))
        batches = [tasks[i:i + size] for i in range(0, len(tasks), size)]
        fn_ref = ray.put(fn)
        refs = [remote.remote(fn_ref, batch) for batch in batches]
        index = {ref: i for i, ref in enumerate(refs)}
        results: list[list[R] | None] = [None] * len(batches)
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                i = index[ref]
                results[i] = ray.get(ref)
                if progress is not None:
                    progress(len(batches[i]))
        return [r for batch_result in results if batch_result is not None for r in batch_result]
    finally:
        if started:
            ray.shutdown()


# --------------------------------------------------------------------------- one game

def play_game(rules: RuleSet, bot_names: Sequence[str], seed: int, bot_seeds: Sequence[int],
              *, on_round_start: Callable[[Game], Callable[[Game, Action, float], None]]
              | None = None, timer: Callable[[int, float], None] | None = None) -> Game:
    """A whole game between the named bots (one per seat), dealt from ``seed``; ``timer``
    gets the seat and CPU seconds of every decision (a buy declined too)."""
    players = [f"{name} {seat}" for seat, name in enumerate(bot_names)]
    game = Game.new(rules, players, seed=seed)
    # The engine ends a round after max_turns_per_round turns (up to 100,000 may be set);
    # the guard against a round that never ends must leave room for that many.
    max_actions = max(_MAX_ROUND_ACTIONS, _ACTIONS_PER_TURN * rules.max_turns_per_round)
    bots = [make_bot(name, s, rules) for name, s in zip(bot_names, bot_seeds, strict=True)]
    while not game.is_over:
        observer = on_round_start(game) if on_round_start is not None else None
        before = len(game.results)
        play_until_round_end(game, bots, observer=observer, max_actions=max_actions,
                             timer=timer)
        if len(game.results) == before:
            raise RuntimeError(f"a round of game seed {seed} did not end")
    return game


# --------------------------------------------------------------------------- tournaments

@dataclass(frozen=True, slots=True)
class _TournamentGame:
    index: int
    deal: int
    rotation: int
    config: Config
    lineup: tuple[str, ...]
    seed: int
    bot_seeds: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameResult:
    """One tournament game: who sat where, the totals, the winners, each seat's outs, each
    round (who went out, or None, and every seat's score), and (not compared: it depends on
    the machine) the seconds each decision took."""

    index: int
    deal: int
    rotation: int
    lineup: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    outs: tuple[int, ...]
    times: tuple[tuple[float, ...], ...] = field(default=(), compare=False)
    rounds: tuple[tuple[int | None, tuple[int, ...]], ...] = ()


def _tournament_game(task: _TournamentGame) -> GameResult:
    rules = task.config.rules()
    times: list[list[float]] = [[] for _ in task.lineup]

    def timer(seat: int, seconds: float) -> None:
        times[seat].append(seconds)

    game = play_game(rules, task.lineup, task.seed, task.bot_seeds, timer=timer)
    sheet = game.score_sheet()
    outs = [0] * len(task.lineup)
    for r in game.results:
        if r.went_out is not None:
            outs[r.went_out] += 1
    rounds = tuple((r.went_out, r.scores) for r in game.results)
    return GameResult(task.index, task.deal, task.rotation, task.lineup, sheet.totals,
                      sheet.winners, tuple(outs), tuple(tuple(t) for t in times), rounds)


@dataclass(frozen=True, slots=True)
class BotStats:
    """A bot's results over a tournament; ``*_ci`` are half-widths of 95% intervals, computed
    over deals (the games of one deal in every rotation are one sample). A bot that won
    every deal, or none, gets the Wilson interval's width there, not 0."""

    name: str
    games: int
    win_rate: float
    win_ci: float
    mean_points: float
    points_ci: float
    outs_per_game: float
    decisions: int
    p50_seconds: float
    p99_seconds: float
    max_seconds: float


@dataclass(frozen=True, slots=True)
class TournamentResult:
    config: Config
    players: int
    seed: int
    deals: int
    games: tuple[GameResult, ...]
    stats: tuple[BotStats, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": self.config.preset,
            "options": dict(self.config.options),
            "players": self.players,
            "seed": self.seed,
            "deals": self.deals,
            "games": len(self.games),
            "bots": [
                {"name": s.name, "games": s.games, "win_rate": _finite(s.win_rate),
                 "win_ci": _finite(s.win_ci), "mean_points": _finite(s.mean_points),
                 "points_ci": _finite(s.points_ci),
                 "outs_per_game": s.outs_per_game, "decisions": s.decisions,
                 "p50_seconds": s.p50_seconds, "p99_seconds": s.p99_seconds,
                 "max_seconds": s.max_seconds}
                for s in self.stats
            ],
        }


def write_games(result: TournamentResult, sink: TextIO) -> None:
    """Every game of ``result``, one JSON object a line: the deal and rotation, who sat where,
    the totals, the winners (seats), each seat's outs and its slowest decision in seconds,
    and each round: who went out (a seat, or null) and every seat's score.
    Two tournaments with the same seed and lineup size play the same deals, so their lines
    pair game by game (``bench/bench_bots.py paired``)."""
    for g in result.games:
        line = {"index": g.index, "deal": g.deal, "rotation": g.rotation,
                "lineup": list(g.lineup), "totals": list(g.totals),
                "winners": list(g.winners), "outs": list(g.outs),
                "max_seconds": [max(t, default=0.0) for t in g.times],
                "rounds": [{"went_out": out, "scores": list(scores)}
                           for out, scores in g.rounds]}
        sink.write(json.dumps(line) + "\n")


def _finite(x: float) -> float | None:
    """JSON has no NaN: an interval that cannot be computed (one deal) is null."""
    return None if math.isnan(x) else x


def tournament_tasks(bots: Sequence[str], preset: str = "chile",
                     options: Mapping[str, Any] | None = None, *, games: int = 100,
                     players: int | None = None, seed: int = 0) -> list[_TournamentGame]:
    """The games of a tournament: ``games`` rounded up to whole deals, each deal played in
    every rotation of the lineup (``bots`` repeated to fill ``players`` seats)."""
    config = check_tournament(bots, preset, options, players)
    seats = players or len(bots)
    lineup = tuple(bots[i % len(bots)] for i in range(seats))
    deals = max(1, math.ceil(games / seats))
    tasks: list[_TournamentGame] = []
    for deal in range(deals):
        game_seed = _seed(seed, "deal", deal)
        for rotation in range(seats):
            seated = tuple(lineup[(s + rotation) % seats] for s in range(seats))
            bot_seeds = tuple(_seed(seed, "bot", deal, rotation, s) for s in range(seats))
            tasks.append(_TournamentGame(len(tasks), deal, rotation, config, seated, game_seed,
                                         bot_seeds))
    return tasks


def check_tournament(bots: Sequence[str], preset: str = "chile",
                     options: Mapping[str, Any] | None = None,
                     players: int | None = None) -> Config:
    """Refuse a tournament that cannot run (no bot, an unknown one, a table the bots do not
    fit or the rules do not seat) before any game; the configuration when it can."""
    if not bots:
        raise ValueError("a tournament needs at least one bot")
    config = Config.of(preset, options)
    for name in dict.fromkeys(bots):
        make_bot(name, 0, config.rules())  # an unknown bot fails now, not in a worker
    if players is not None and players < 2:
        raise ValueError(f"--players must be 2 or more (or left out: one seat per bot), "
                         f"not {players}")
    if players is None and len(bots) < 2:
        raise ValueError(f"one bot, {quoted(bots[0])}, has nobody to play: name two bots or "
                         "more, or give --players to seat it in every seat")
    seats = players or len(bots)
    if seats < len(bots):
        raise ValueError(f"{len(bots)} bots do not fit at a table of {seats}")
    config.rules().check_players(seats)
    return config


def tournament(bots: Sequence[str], preset: str = "chile",
               options: Mapping[str, Any] | None = None, *, games: int = 100,
               players: int | None = None, seed: int = 0, workers: int | None = None,
               ray_address: str | None = None, progress: Progress | None = None
               ) -> TournamentResult:
    """Play a tournament between the named bots (see :func:`tournament_tasks`)."""
    tasks = tournament_tasks(bots, preset, options, games=games, players=players, seed=seed)
    results = run_tasks(_tournament_game, tasks, workers=workers, ray_address=ray_address,
                        progress=progress)
    config = tasks[0].config
    seats = len(tasks[0].lineup)
    deals = tasks[-1].deal + 1
    rules = config.rules()
    stats = tuple(_bot_stats(name, results, rules) for name in dict.fromkeys(bots))
    return TournamentResult(config, seats, seed, deals, tuple(results), stats)


def _bot_stats(name: str, results: Sequence[GameResult], rules: RuleSet) -> BotStats:
    wins: dict[int, list[float]] = {}
    points: dict[int, list[float]] = {}
    outs = 0
    games = 0
    times: list[float] = []
    for g in results:
        for seat, who in enumerate(g.lineup):
            if who != name:
                continue
            games += 1
            share = 1 / len(g.winners) if seat in g.winners else 0.0
            wins.setdefault(g.deal, []).append(share)
            points.setdefault(g.deal, []).append(g.totals[seat])
            outs += g.outs[seat]
            if g.times:
                times.extend(g.times[seat])
    win_mean, win_ci = _mean_ci([statistics.fmean(v) for v in wins.values()])
    alone = all(who == name for g in results for who in g.lineup)
    if win_ci == 0.0 and not alone:
        # Every deal came out the same (all won, all lost, or a bot in two seats winning
        # with one of them every time): the spread says nothing, and "± 0" would claim a
        # certainty a few deals cannot give. The width the Wilson interval has at 0 or 1,
        # z²/(n + z²), stands in: as sure as n deals make it, no surer. (A bot in every seat
        # shares each game with itself: its rate is exactly even, and "± 0" is the truth.)
        win_ci = _Z95 ** 2 / (len(wins) + _Z95 ** 2)
    pts_mean, pts_ci = _mean_ci([statistics.fmean(v) for v in points.values()])
    times.sort()
    return BotStats(name, games, win_mean, win_ci, pts_mean, pts_ci,
                    outs / games if games else 0.0, len(times), _quantile(times, 0.5),
                    _quantile(times, 0.99), times[-1] if times else 0.0)


def _mean_ci(samples: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation)."""
    if not samples:
        return math.nan, math.nan
    mean = statistics.fmean(samples)
    if len(samples) < 2:
        return mean, math.nan
    return mean, _Z95 * statistics.stdev(samples) / math.sqrt(len(samples))


def _quantile(sorted_values: Sequence[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    k = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[k]


# --------------------------------------------------------------------------- simulations

@dataclass(frozen=True, slots=True)
class RoundStats:
    """One round of a simulated game. Positions count from the seat that plays first in the
    round (0) in turn order; ``down_turn`` is, per position, the player's own turn (1-based)
    in which its contract was complete, 0 if never. ``reshuffles``: how often the mazo ran out
    and was rebuilt from the pozo; ``ended``: ``"out"`` (a player went out), ``"mazo"`` (the
    mazo ran out and could not be rebuilt) or ``"turn_cap"`` (``max_turns_per_round``)."""

    number: int
    contract: str
    turns: int
    went_out: int | None
    scores: tuple[int, ...]
    down_turn: tuple[int, ...]
    reshuffles: int = 0
    ended: str = "out"
    emptied: bool = False
    """The last card of the mazo was drawn, though nobody needed another before the end."""

    @property
    def mazo_ran_out(self) -> bool:
        """The mazo ran out at least once in the round (rebuilt, not rebuilt, or its last
        card drawn just before the round ended)."""
        return self.reshuffles > 0 or self.ended == "mazo" or self.emptied


@dataclass(frozen=True, slots=True)
class _SimGame:
    config_index: int
    config: Config
    lineup: tuple[str, ...]
    seed: int
    bot_seeds: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _SimResult:
    config_index: int
    rounds: tuple[RoundStats, ...]
    winners: tuple[int, ...]


class _RoundTracker:
    """Counts each seat's turns in a round and the turn its contract went down."""

    def __init__(self, game: Game) -> None:
        self.n = game.n
        self.first = game.seat_to_act if game.seat_to_act is not None else 0
        self.start = len(game.results)
        self.turns = [0] * game.n
        self.down = [0] * game.n
        self.reshuffles = 0
        self.emptied = False
        self.max_turns = game.rules.max_turns_per_round

    def __call__(self, game: Game, action: Action, seconds: float) -> None:
        seat = action.seat
        ended = len(game.results) > self.start
        if isinstance(action, Draw):
            self.turns[seat] += 1
        if isinstance(action, (Draw, Buy)) and not ended:
            # An empty mazo is rebuilt when a card must come from it: a draw, or a buy's
            # penalty card (a buy may also end the round; then the view is gone).
            table = game.view(None)
            self.reshuffles = table.reshuffles
            self.emptied = self.emptied or table.mazo_count == 0
        elif isinstance(action, Bajar) and not self.down[seat] \
                and (ended or game.view(None).down[seat]):
            self.down[seat] = self.turns[seat]

    def stats(self, game: Game) -> RoundStats:
        result = game.results[self.start]
        number = result.round
        order = [(self.first + k) % self.n for k in range(self.n)]
        went_out = None if result.went_out is None else order.index(result.went_out)
        turns = sum(self.turns)
        # With nobody out the engine ended the round as a turn started or after a buy: at the
        # turn cap (checked first), else because the mazo was empty and could not be rebuilt.
        ended = ("out" if went_out is not None
                 else "turn_cap" if turns >= self.max_turns else "mazo")
        return RoundStats(number, str(game.round_def(number)), turns, went_out,
                          tuple(result.scores[s] for s in order),
                          tuple(self.down[s] for s in order), self.reshuffles, ended,
                          self.emptied)


def _simulated_game(task: _SimGame) -> _SimResult:
    rules = task.config.rules()
    trackers: list[_RoundTracker] = []

    def start(game: Game) -> Callable[[Game, Action, float], None]:
        tracker = _RoundTracker(game)
        trackers.append(tracker)
        return tracker

    game = play_game(rules, task.lineup, task.seed, task.bot_seeds, on_round_start=start)
    rounds = tuple(t.stats(game) for t in trackers)
    return _SimResult(task.config_index, rounds, game.score_sheet().winners)


@dataclass(frozen=True, slots=True)
class ConfigSummary:
    """What a simulation measured for one configuration."""

    config: Config
    games: int
    players: int
    rounds: tuple[RoundStats, ...]
    metrics: dict[str, float]
    down_by_turn: tuple[float, ...]
    """P(a player's contract is down by its own turn t), t = 1, 2, ... (index t - 1), over all
    players of all rounds; a round that ended earlier counts as not down."""
    by_position: tuple[tuple[float, float], ...]
    """Per position in turn order (0 plays first): (share of rounds it went out, mean score)."""
    by_round: tuple[tuple[int, str, float, float, float, float], ...]
    """Per round number: (round, contract, mean turns, mean penalty (NaN when rounds, not
    points, are scored), share with nobody out, share in which the mazo ran out)."""
    seat_wins: tuple[float, ...]
    """Share of games each seat (by seat number) won (ties shared)."""


@dataclass(frozen=True, slots=True)
class SimulationResult:
    seed: int
    summaries: tuple[ConfigSummary, ...]


_DOWN_TURNS = 40


def check_simulation(configs: Sequence[Config], players: int, bot: str) -> None:
    """Refuse a simulation that cannot run (no configuration, a table the rules do not
    seat, an unknown bot) before any game, or any folder for its files, is made."""
    if not configs:
        raise ValueError("simulate needs at least one configuration")
    for config in configs:
        config.rules().check_players(players)
    make_bot(bot, 0, configs[0].rules())


def simulate(configs: Sequence[Config], *, players: int = 4, games: int = 1000,
             bot: str = "greedy", seed: int = 0, workers: int | None = None,
             ray_address: str | None = None, progress: Progress | None = None
             ) -> SimulationResult:
    """Play ``games`` games of each configuration with ``bot`` in every seat. The games of
    different configurations use the same seeds, so their differences are the rules'."""
    check_simulation(configs, players, bot)
    tasks: list[_SimGame] = []
    for ci, config in enumerate(configs):
        for g in range(games):
            tasks.append(_SimGame(ci, config, (bot,) * players, _seed(seed, "sim", g),
                                  tuple(_seed(seed, "simbot", g, s) for s in range(players))))
    results = run_tasks(_simulated_game, tasks, workers=workers, ray_address=ray_address,
                        progress=progress)
    summaries = []
    for ci, config in enumerate(configs):
        mine = [r for r in results if r.config_index == ci]
        summaries.append(_summarise(config, players, mine))
    return SimulationResult(seed, tuple(summaries))


def _summarise(config: Config, players: int, results: Sequence[_SimResult]) -> ConfigSummary:
    rules = config.rules()
    rounds = tuple(r for g in results for r in g.rounds)
    n_rounds = len(rounds)
    turns = [r.turns for r in rounds]
    penalties = [s for r in rounds for p, s in enumerate(r.scores) if p != r.went_out]
    nobody = sum(1 for r in rounds if r.went_out is None)
    down_at = [d for r in rounds for d in r.down_turn]
    down_by_turn = tuple(
        sum(1 for d in down_at if 0 < d <= t) / len(down_at) if down_at else 0.0
        for t in range(1, _DOWN_TURNS + 1))
    by_position = []
    for p in range(players):
        out_share = sum(1 for r in rounds if r.went_out == p) / n_rounds if n_rounds else 0.0
        mean_score = statistics.fmean(r.scores[p] for r in rounds) if rounds else 0.0
        by_position.append((out_share, mean_score))
    by_round = []
    for number in sorted({r.number for r in rounds}):
        these = [r for r in rounds if r.number == number]
        pens = [s for r in these for p, s in enumerate(r.scores) if p != r.went_out]
        by_round.append((number, these[0].contract, statistics.fmean(r.turns for r in these),
                         (statistics.fmean(pens) if pens else 0.0)
                         if rules.scoring != "rounds" else math.nan,
                         sum(1 for r in these if r.went_out is None) / len(these),
                         sum(1 for r in these if r.mazo_ran_out) / len(these)))
    seat_wins = [0.0] * players
    for g in results:
        for w in g.winners:
            seat_wins[w] += 1 / len(g.winners) / len(results)
    outs = [share for share, _ in by_position]
    fair = 1 / players
    metrics = {
        "games": float(len(results)),
        "rounds": float(n_rounds),
        "turns_per_round_mean": statistics.fmean(turns) if turns else 0.0,
        "turns_per_round_median": statistics.median(turns) if turns else 0.0,
        "turns_per_player_mean": statistics.fmean(turns) / players if turns else 0.0,
        "mean_penalty_per_round": statistics.fmean(penalties) if penalties else 0.0,
        "mean_score_per_round": statistics.fmean(s for r in rounds for s in r.scores)
        if rounds else 0.0,
        "nobody_out_rate": nobody / n_rounds if n_rounds else 0.0,
        "mazo_ran_out_rate": sum(1 for r in rounds if r.mazo_ran_out) / n_rounds
        if n_rounds else 0.0,
        "reshuffles_per_round": statistics.fmean(r.reshuffles for r in rounds)
        if rounds else 0.0,
        "turn_cap_rate": sum(1 for r in rounds if r.ended == "turn_cap") / n_rounds
        if n_rounds else 0.0,
        "first_seat_out_rate": outs[0] if outs else 0.0,
        # Against an even share of the rounds someone went out; with no out, nothing to say.
        "first_seat_advantage": (outs[0] - (1 - nobody / n_rounds) * fair)
        if n_rounds > nobody else math.nan,
        "first_seat_advantage_ci": _advantage_ci(results, fair),
        "first_seat_mean_score": by_position[0][1] if by_position else 0.0,
        "down_by_own_turn_5": down_by_turn[4],
        "down_by_own_turn_10": down_by_turn[9],
        "down_by_own_turn_15": down_by_turn[14],
        "never_down_rate": sum(1 for d in down_at if d == 0) / len(down_at) if down_at else 0.0,
    }
    for seat, share in enumerate(seat_wins):
        metrics[f"seat_{seat}_win_rate"] = share
    if rules.scoring == "rounds":
        metrics["mean_penalty_per_round"] = math.nan
    return ConfigSummary(config, len(results), players, rounds, metrics, down_by_turn,
                         tuple(by_position), tuple(by_round), tuple(seat_wins))


def _advantage_ci(results: Sequence[_SimResult], fair: float) -> float:
    """The half-width of the first seat's advantage's 95% interval, with the games as the
    samples: the rounds of one game are not independent (the same players and hands)."""
    per_game = [(sum(1 for r in g.rounds if r.went_out == 0)
                 - fair * sum(1 for r in g.rounds if r.went_out is not None), len(g.rounds))
                for g in results]
    n_rounds = sum(m for _, m in per_game)
    if len(per_game) < 2 or not any(r.went_out is not None for g in results for r in g.rounds):
        return math.nan
    advantage = sum(x for x, _ in per_game) / n_rounds
    spread = sum((x - advantage * m) ** 2 for x, m in per_game)
    return _Z95 * math.sqrt(len(per_game) / (len(per_game) - 1) * spread) / n_rounds


SIMULATION_FILES = ("summary.csv", "rounds.csv", "down_by_turn.csv", "positions.csv",
                    "by_round.csv", *(f"{name}.{ext}" for name in (
                        "turns_per_round", "down_by_turn", "penalty_by_round", "positions")
                        for ext in ("png", "svg")))
"""Every file :func:`write_simulation` may write."""


def check_simulation_folder(out: Path) -> None:
    """Raise ``OSError`` (naming the path) when a file of the simulation's is in the way in
    ``out``: something not a file, such as a folder, under one of its names."""
    for name in SIMULATION_FILES:
        path = out / name
        if path.exists() and not path.is_file():
            raise IsADirectoryError(errno.EISDIR, "it is not a file", str(path))


def write_simulation(result: SimulationResult, out: Path, *, plots: bool = True) -> list[Path]:
    """Write the simulation's CSV files (and PNG and SVG plots) to ``out``; returns the paths.
    Each file is written aside and put in place once all are, so a failure leaves the folder
    as it was; where the folder holds an earlier simulation (its ``summary.csv``), a file of
    that run which this one does not write (a plot, with ``plots`` off) is removed, so the
    folder does not mix two runs. ``OSError`` names the file that failed."""
    out.mkdir(parents=True, exist_ok=True)
    check_simulation_folder(out)
    earlier = _holds_a_simulation(out)
    aside: list[tuple[Path, Path]] = []
    try:
        _write_aside(result, out, plots, aside)
        for temp, path in aside:
            os.replace(temp, path)
    finally:
        for temp, _ in aside:
            temp.unlink(missing_ok=True)
    written = [path for _, path in aside]
    for name in SIMULATION_FILES if earlier else ():
        if out / name not in written:
            (out / name).unlink(missing_ok=True)
    return written


def _holds_a_simulation(out: Path) -> bool:
    """Whether ``out`` holds a simulation's files (its summary.csv), not only files that
    happen to have the names of some (a folder of the person's own plots)."""
    try:
        with (out / "summary.csv").open(encoding="utf-8") as fh:
            return fh.readline().strip() == "config,metric,value"
    except (OSError, UnicodeDecodeError):
        return False


def _aside(out: Path, name: str, aside: list[tuple[Path, Path]]) -> Path:
    """Where ``name`` is written until every file is: beside it, hidden."""
    temp = out / f".{name}.partial"
    aside.append((temp, out / name))
    return temp


def _write_aside(result: SimulationResult, out: Path, plots: bool,
                 aside: list[tuple[Path, Path]]) -> None:
    import csv

    def table(name: str, header: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
        with _aside(out, name, aside).open("w", newline="", encoding="utf-8") as fh:
            writer = csv.writer(fh)
            writer.writerow(header)
            writer.writerows(rows)

    sums = result.summaries
    table("summary.csv", ["config", "metric", "value"],
          ([s.config.label, k, _fmt(v)] for s in sums for k, v in s.metrics.items()))
    table("rounds.csv",
          ["config", "round", "contract", "turns", "went_out_position", "scores", "down_turn",
           "reshuffles", "ended", "mazo_ran_out"],
          ([s.config.label, r.number, r.contract, r.turns,
            "" if r.went_out is None else r.went_out, " ".join(map(str, r.scores)),
            " ".join(map(str, r.down_turn)), r.reshuffles, r.ended, int(r.mazo_ran_out)]
           for s in sums for r in s.rounds))
    table("down_by_turn.csv", ["config", "own_turn", "p_down"],
          ([s.config.label, t + 1, _fmt(p)] for s in sums for t, p in enumerate(s.down_by_turn)))
    table("positions.csv", ["config", "position", "out_rate", "mean_score"],
          ([s.config.label, p, _fmt(o), _fmt(m)] for s in sums
           for p, (o, m) in enumerate(s.by_position)))
    table("by_round.csv",
          ["config", "round", "contract", "mean_turns", "mean_penalty", "nobody_out_rate",
           "mazo_ran_out_rate"],
          ([s.config.label, n, c, _fmt(t), _fmt(p), _fmt(z), _fmt(m)] for s in sums
           for n, c, t, p, z, m in s.by_round))
    if plots:
        _plots(result, out, aside)


def _fmt(value: float) -> str:
    if isinstance(value, float) and math.isnan(value):
        return ""
    return f"{value:.6g}"


def _plots(result: SimulationResult, out: Path, aside: list[tuple[Path, Path]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sums = result.summaries
    k = len(sums)
    width = 0.8 / k

    def save(fig: Any, name: str) -> None:
        fig.tight_layout()
        for ext in ("png", "svg"):
            fig.savefig(_aside(out, f"{name}.{ext}", aside), dpi=120, format=ext)
        plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4))
    top = max((r.turns for s in sums for r in s.rounds), default=1)
    step = max(1, (top + 1) // 40)
    bins = list(range(0, top + step + 1, step))  # the last edge past the longest round
    for s in sums:
        # weights, not density: a bar is the share of rounds in its bin (bins may be wider
        # than one turn, where a density would not read as a share)
        ax.hist([r.turns for r in s.rounds], bins=bins, alpha=0.55, label=s.config.label,
                weights=[1 / len(s.rounds)] * len(s.rounds))
    ax.set_xlabel("turns in the round (all players)")
    ax.set_ylabel("share of rounds")
    ax.set_title("How long a round lasts")
    ax.legend()
    save(fig, "turns_per_round")

    fig, ax = plt.subplots(figsize=(7, 4))
    for s in sums:
        ax.plot(range(1, len(s.down_by_turn) + 1), s.down_by_turn, marker=".",
                label=s.config.label)
    ax.set_xlabel("the player's own turn")
    ax.set_ylabel("P(contract down by then)")
    ax.set_ylim(0, 1)
    ax.set_title("Chance of being down by turn t")
    ax.legend()
    save(fig, "down_by_turn")

    # Under rounds scoring no hand is counted: there is no penalty to draw (the CSV leaves
    # its cells blank), and an empty chart would only look like a broken one.
    if any(not math.isnan(p) for s in sums for _, _, _, p, *_ in s.by_round):
        fig, ax = plt.subplots(figsize=(7, 4))
        for i, s in enumerate(sums):
            xs = [n + (i - (k - 1) / 2) * width for n, *_ in s.by_round]
            ax.bar(xs, [p for _, _, _, p, *_ in s.by_round], width=width, label=s.config.label)
        ax.set_xlabel("round")
        ax.set_ylabel("mean points left in hand")
        ax.set_title("Penalty per round (players who did not go out)")
        ax.legend()
        save(fig, "penalty_by_round")

    fig, ax = plt.subplots(figsize=(7, 4))
    for i, s in enumerate(sums):
        xs = [p + (i - (k - 1) / 2) * width for p in range(s.players)]
        ax.bar(xs, [o for o, _ in s.by_position], width=width, label=s.config.label)
    ax.set_xticks(range(max(s.players for s in sums)))
    ax.set_xlabel("position in turn order (0 plays first)")
    ax.set_ylabel("share of rounds won (went out)")
    ax.set_title("First-seat advantage")
    ax.legend()
    save(fig, "positions")
