"""The bottleneck planner of docs/bots.md (stops 28-29), an experiment, not a bot of the
table: the lookahead planner whose discards weigh "equivalent outs"
(:func:`carioca.bots.lookahead.equivalent_outs`, the draws a hand is expected to need, two
draws deep) instead of the plain sum of live outs. It plays a tournament against greedy, as
the lookahead bot (``--bot lookahead``) or as the planner of the search bot (``--bot
search``), and writes every game, to be paired with the plain bot on the same deals::

    python bench/bench_bottleneck.py --bot lookahead --games 1000 --seed 44 --out chain.jsonl
    carioca tournament --bots lookahead,greedy --preset chile --games 1000 --seed 44 \\
        --games-out la.jsonl
    python bench/bench_bots.py paired chain.jsonl la.jsonl

Stop 28: +1.7 ± 2.3 (seed 42) and +1.0 ± 2.0 (seed 43) points of win rate against the plain
planner. Stop 29, as the search bot's planner (seeds 31-34, 1,000 games each): 60.3% ± 1.5
against greedy, the plain search bot's rate (docs/bots.md).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from carioca import lab
from carioca.bots import levels
from carioca.bots.lookahead import LookaheadBot
from carioca.rules import RuleSet


def _seated(make: Callable[..., Any]) -> Callable[..., Any]:
    def make_bot(name: str, seed: int | None = None, rules: RuleSet | None = None) -> Any:
        if name == "bottleneck":
            bot = LookaheadBot(seed=seed, rules=rules, bottleneck=True)
            bot.name = "bottleneck"
            return bot
        return make(name, seed, rules)
    return make_bot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", choices=("lookahead", "search"), default="lookahead")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=44)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.bot == "search":  # the named search bot, planning with the bottleneck
        levels.SEARCH_STYLE["planner"] = "bottleneck"
        seated = "search"
    else:
        lab.make_bot = _seated(lab.make_bot)  # type: ignore[assignment]
        seated = "bottleneck"
    result = lab.tournament([seated, "greedy"], "chile", games=args.games, seed=args.seed,
                            workers=args.workers)
    with args.out.open("w", encoding="utf-8") as sink:
        lab.write_games(result, sink)
    for stats in result.stats:
        print(f"{stats.name}: won {100 * stats.win_rate:.1f}% ± {100 * stats.win_ci:.1f}, "
              f"{stats.mean_points:.1f} ± {stats.points_ci:.1f} points a game; "
              f"decisions p50 {1000 * stats.p50_seconds:.2f} ms, "
              f"p99 {1000 * stats.p99_seconds:.0f} ms, max {1000 * stats.max_seconds:.0f} ms "
              "(CPU)")


if __name__ == "__main__":
    main()
