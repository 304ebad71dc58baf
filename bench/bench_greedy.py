"""The greedy bot, measured on one core: how often it beats the random bot, how long a game
between greedy bots takes, and whether waiting to go down in the early rounds pays.

Nothing here is a test. Run from the repository root::

    python bench/bench_greedy.py duel --games 200           # 2 seats, greedy vs random
    python bench/bench_greedy.py table --games 50           # 4 greedy bots, time per game
    python bench/bench_greedy.py wait --games 100           # wait_early on / off, rounds 1-3

Deals come from ``Game.new(rules, players, seed=base + g)``; in ``duel`` the greedy bot takes
seat 0 in even games and seat 1 in odd ones, on the same deals; in ``wait`` every deal is
played twice with the two policies' seats swapped, so the deals cancel out.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from carioca import Buy, Game, RuleSet  # noqa: E402
from carioca.bots import GreedyBot, RandomBot  # noqa: E402

NAMES = ("Ana", "Beto", "Caro", "Dani", "Eli", "Fran")


def offer_buys(game: Game, bots: Sequence[Any], drawer: int) -> bool:
    """Before ``drawer`` draws, the others may buy the pozo top, nearest first."""
    for k in range(1, game.n):
        other = (drawer + k) % game.n
        legal = game.legal_actions(other)
        if any(isinstance(a, Buy) for a in legal) and bots[other].wants_to_buy(
                game.view(other), legal):
            game.apply(Buy(other))
            return True
    return False


def play(rules: RuleSet, bots: Sequence[Any], seed: int) -> Game:
    game = Game.new(rules, NAMES[:len(bots)], seed=seed)
    while not game.is_over:
        seat = game.seat_to_act
        assert seat is not None
        if rules.buying != "off" and game.phase == "draw" and offer_buys(game, bots, seat):
            continue
        legal = game.legal_actions(seat)
        game.apply(bots[seat].choose(game.view(seat), legal))
    return game


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def duel(args: argparse.Namespace) -> None:
    rules = RuleSet.preset(args.preset)
    wins = ties = 0
    t0 = time.perf_counter()
    for g in range(args.games):
        seat = g % 2
        bots: list[Any] = [RandomBot(g), RandomBot(g)]
        bots[seat] = GreedyBot(g, rules)
        game = play(rules, bots, args.seed + g)
        winners = game.score_sheet().winners
        if winners == (seat,):
            wins += 1
        elif seat in winners:
            ties += 1
    spent = time.perf_counter() - t0
    lo, hi = wilson(wins, args.games)
    print(f"{args.preset}, 2 seats, greedy vs random: greedy won {wins}/{args.games} "
          f"({wins / args.games:.1%}, 95% CI {lo:.1%}-{hi:.1%}), shared {ties}; "
          f"{spent / args.games:.3f} s per game")


def table(args: argparse.Namespace) -> None:
    rules = RuleSet.preset(args.preset)
    walls: list[float] = []
    cpus: list[float] = []
    actions = outs = rounds = 0
    for g in range(args.games):
        bots = [GreedyBot(s, rules) for s in range(args.players)]
        w0, c0 = time.perf_counter(), time.process_time()
        game = play(rules, bots, args.seed + g)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
        actions += sum(len(r) for r in game.log)
        outs += sum(r.went_out is not None for r in game.results)
        rounds += len(game.results)
    walls.sort()
    cpus.sort()
    print(f"{args.preset}, {args.players} greedy bots, {args.games} games: "
          f"wall median {statistics.median(walls):.3f} s, mean {statistics.mean(walls):.3f} s, "
          f"p90 {walls[int(0.9 * (len(walls) - 1))]:.3f} s; CPU median "
          f"{statistics.median(cpus):.3f} s, mean {statistics.mean(cpus):.3f} s; "
          f"{actions / args.games:.0f} actions per game; "
          f"someone went out in {outs}/{rounds} rounds")


def wait(args: argparse.Namespace) -> None:
    rules = RuleSet.preset(args.preset, rounds=[1, 2, 3])
    diffs: list[float] = []
    totals = {True: 0, False: 0}
    for g in range(args.games):
        per_deal = {True: 0, False: 0}
        for flip in (0, 1):
            bots = [GreedyBot(s, rules, wait_early=(s + flip) % 2 == 0)
                    for s in range(args.players)]
            game = play(rules, bots, args.seed + g)
            for s, t in enumerate(game.score_sheet().totals):
                per_deal[bots[s].wait_early] += t
        for k in (True, False):
            totals[k] += per_deal[k]
        # Both policies sat in every seat of this deal once: the difference is per seat-game.
        diffs.append((per_deal[True] - per_deal[False]) / args.players)
    seats = args.games * args.players
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    print(f"{args.preset} rounds 1-3, {args.players} seats, {args.games} deals x 2 "
          f"(seats swapped): mean points per seat and game: going down at once "
          f"{totals[False] / seats:.1f}, waiting while nobody is down {totals[True] / seats:.1f}; "
          f"waiting costs {mean:+.1f} points (95% CI {mean - half:+.1f} to {mean + half:+.1f})")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("duel", "table", "wait"))
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", default="chile")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args(argv)
    {"duel": duel, "table": table, "wait": wait}[args.what](args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
