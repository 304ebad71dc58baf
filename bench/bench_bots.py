"""Two bots compared on the same games: the paired difference of their tournament results.

Nothing here is a test. Two tournaments with the same ``--seed`` and the same number of seats
play the same deals in the same rotations, so a bot's result in one game of the first run
pairs with another bot's result in the same game of the second. Pairing cancels the luck of
the cards, which is most of the spread: two bots that win 61% and 62% of 600 games each carry
± 3.3 points of win rate, their paired difference often ± 1. Run from the repository root::

    carioca tournament --bots search,greedy --games 600 --seed 5 --games-out a.jsonl
    carioca tournament --bots lookahead,greedy --games 600 --seed 5 --games-out b.jsonl
    python bench/bench_bots.py paired a.jsonl b.jsonl       # search minus lookahead
    python bench/bench_bots.py rounds a.jsonl               # search's points, round by round

By default the bot compared in each file is the first seat's bot of its first game; ``--a``
and ``--b`` name others. Intervals are 95%, normal approximation over deals (all the
rotations of one deal are one sample, as in ``carioca tournament``).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

Z95 = 1.959963984540054


def load(path: Path) -> list[dict[str, Any]]:
    """The games of a ``--games-out`` file."""
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def seats_of(game: dict[str, Any], bot: str) -> list[int]:
    """The seats ``bot`` sat in, in one game."""
    return [s for s, who in enumerate(game["lineup"]) if who == bot]


Results = dict[tuple[int, int], tuple[float, float]]
"""(deal, rotation) -> (a bot's win share, its mean points) in that game."""


def per_game(games: Sequence[dict[str, Any]], bot: str) -> Results:
    """Each game's result for ``bot``, by (deal, rotation)."""
    found: Results = {}
    for g in games:
        seats = seats_of(g, bot)
        if not seats:
            continue
        wins = [1 / len(g["winners"]) if s in g["winners"] else 0.0 for s in seats]
        points = [g["totals"][s] for s in seats]
        found[(g["deal"], g["rotation"])] = (statistics.fmean(wins), statistics.fmean(points))
    return found


def mean_ci(samples: Sequence[float]) -> tuple[float, float]:
    mean = statistics.fmean(samples)
    spread = statistics.stdev(samples) / math.sqrt(len(samples)) if len(samples) > 1 else math.nan
    return mean, Z95 * spread


def paired(a: Path, b: Path, bot_a: str | None, bot_b: str | None) -> int:
    games_a, games_b = load(a), load(b)
    if not games_a or not games_b:
        print("a file holds no games", file=sys.stderr)
        return 2
    name_a = bot_a or games_a[0]["lineup"][0]
    name_b = bot_b or games_b[0]["lineup"][0]
    first, second = per_game(games_a, name_a), per_game(games_b, name_b)
    common = sorted(set(first) & set(second))
    if not common:
        print(f"no game holds both {name_a} (in {a}) and {name_b} (in {b}) on the same deal "
              "and rotation: were both runs made with the same --seed?", file=sys.stderr)
        return 2
    by_deal: dict[int, list[tuple[float, float, float, float]]] = {}
    for key in common:
        by_deal.setdefault(key[0], []).append((*first[key], *second[key]))
    columns = list(zip(*[[statistics.fmean(v) for v in zip(*rows, strict=True)]
                         for rows in by_deal.values()], strict=True))
    win_a, pts_a, win_b, pts_b = (mean_ci(c) for c in columns)
    win_d = mean_ci([x - y for x, y in zip(columns[0], columns[2], strict=True)])
    pts_d = mean_ci([x - y for x, y in zip(columns[1], columns[3], strict=True)])
    print(f"{len(common)} games paired ({len(by_deal)} deals)")
    print(f"{name_a:>12}: won {100 * win_a[0]:.1f}% ± {100 * win_a[1]:.1f}, "
          f"{pts_a[0]:.1f} ± {pts_a[1]:.1f} points a game")
    print(f"{name_b:>12}: won {100 * win_b[0]:.1f}% ± {100 * win_b[1]:.1f}, "
          f"{pts_b[0]:.1f} ± {pts_b[1]:.1f} points a game")
    print(f"{'difference':>12}: {100 * win_d[0]:+.1f} ± {100 * win_d[1]:.1f} points of win "
          f"rate, {pts_d[0]:+.1f} ± {pts_d[1]:.1f} points a game (fewer is better)")
    return 0


def by_round(path: Path, bot: str | None) -> int:
    """Where a bot's points come from: round by round, how often it went out, how often
    another seat did, and the points it paid against the mean of the other seats."""
    games = load(path)
    if not games:
        print("the file holds no games", file=sys.stderr)
        return 2
    name = bot or games[0]["lineup"][0]
    rows: dict[int, list[tuple[float, float, float, float]]] = {}
    for g in games:
        seats = seats_of(g, name)
        others = [s for s in range(len(g["lineup"])) if s not in seats]
        if not seats or not others:
            continue
        for number, r in enumerate(g.get("rounds", ()), 1):
            out = r["went_out"]
            rows.setdefault(number, []).append((
                float(out in seats), float(out is not None and out not in seats),
                statistics.fmean(r["scores"][s] for s in seats),
                statistics.fmean(r["scores"][s] for s in others)))
    if not rows:
        print(f"no round of {name} against another bot in {path} (files written before "
              "the rounds were kept have none)", file=sys.stderr)
        return 2
    print(f"{name} against the other seats, {len(games)} games of {path}")
    print("round  rounds  went out  other out  points paid  others paid  difference")
    for number in sorted(rows):
        mine, theirs, paid, others_paid = (statistics.fmean(c) for c in zip(*rows[number],
                                                                           strict=True))
        print(f"{number:>5}  {len(rows[number]):>6}  {100 * mine:>7.1f}%  {100 * theirs:>8.1f}%"
              f"  {paid:>11.1f}  {others_paid:>11.1f}  {others_paid - paid:>+10.1f}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    pair = sub.add_parser("paired", help="A's bot minus B's bot, game by game")
    pair.add_argument("a", type=Path)
    pair.add_argument("b", type=Path)
    pair.add_argument("--a", dest="bot_a", help="the bot compared in A (default: seat 0's)")
    pair.add_argument("--b", dest="bot_b", help="the bot compared in B (default: seat 0's)")
    rounds = sub.add_parser("rounds", help="a bot's outs and points, round by round")
    rounds.add_argument("games", type=Path)
    rounds.add_argument("--bot", help="the bot to look at (default: seat 0's)")
    args = parser.parse_args(argv)
    try:
        if args.command == "rounds":
            return by_round(args.games, args.bot)
        return paired(args.a, args.b, args.bot_a, args.bot_b)
    except (OSError, ValueError, KeyError) as exc:
        print(f"could not read the games: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
