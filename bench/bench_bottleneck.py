"""The bottleneck planner of docs/bots.md (stop 28), an experiment, not a bot of the table:
the lookahead planner whose discards weigh "equivalent outs" (the draws a hand is expected
to need, two draws deep) instead of the plain sum of live outs. It plays a tournament against
greedy and writes every game, to be paired with the plain planner on the same deals::

    python bench/bench_bottleneck.py --games 1000 --seed 44 --out chain.jsonl
    carioca tournament --bots lookahead,greedy --preset chile --games 1000 --seed 44 \\
        --games-out la.jsonl
    python bench/bench_bots.py paired chain.jsonl la.jsonl

Stop 28: +1.7 ± 2.3 (seed 42) and +1.0 ± 2.0 (seed 43) points of win rate against the plain
planner; about 30 minutes per 1,000 games on one core.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from carioca import lab
from carioca.bots.lookahead import LookaheadBot
from carioca.cards import Card
from carioca.rules import Contract, RuleSet
from carioca.solver import Distance, distance


def equivalent_outs(rest: Sequence[Card], owed: Sequence[Contract], rules: RuleSet,
                    unseen: Mapping[Card, int], found: Distance) -> float:
    """The live outs a hand would need to meet its contract as fast as ``rest`` is expected
    to, two draws deep: ``T = U/o + (m-1) · Σ_c (k_c/o) · U/o_c``, turned back as ``m·U/T``."""
    outs = sum(unseen.get(c, 0) for c in found.outs)
    missing = found.missing
    if outs == 0 or missing <= 1:
        return float(outs)
    total = sum(unseen.values())
    second = 0.0
    for card in found.outs:
        copies = unseen.get(card, 0)
        if not copies:
            continue
        after = distance([*rest, card], list(owed), rules)
        left = sum(unseen.get(x, 0) - (x == card) for x in after.outs)
        second += copies / outs * (total / left if left > 0 else 4 * total)
    draws = total / outs + (missing - 1) * second
    return missing * total / draws


class BottleneckBot(LookaheadBot):
    """The lookahead planner with :func:`equivalent_outs` for its discards while building,
    scaled to the decision's plain outs so that the feeding and points prices keep theirs."""

    name = "bottleneck"

    def _outs(self, candidates: Sequence[tuple[Card, list[Card], Distance, int]],
              owed: Sequence[Contract], rules: RuleSet, unseen: Mapping[Card, int]
              ) -> list[float]:
        weights = [equivalent_outs(rest, owed, rules, unseen, found)
                   for _, rest, found, _ in candidates]
        top = max(weights, default=0.0)
        scale = max((outs for *_, outs in candidates), default=0) / top if top > 0 else 1.0
        return [scale * weight for weight in weights]


def _seated(make: Callable[..., Any]) -> Callable[..., Any]:
    def make_bot(name: str, seed: int | None = None, rules: RuleSet | None = None) -> Any:
        return BottleneckBot(seed=seed, rules=rules) if name == "bottleneck" else make(
            name, seed, rules)
    return make_bot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=44)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    lab.make_bot = _seated(lab.make_bot)  # type: ignore[assignment]
    result = lab.tournament(["bottleneck", "greedy"], "chile", games=args.games,
                            seed=args.seed, workers=args.workers)
    with args.out.open("w", encoding="utf-8") as sink:
        lab.write_games(result, sink)
    for stats in result.stats:
        print(f"{stats.name}: won {100 * stats.win_rate:.1f}% ± {100 * stats.win_ci:.1f}, "
              f"{stats.mean_points:.1f} ± {stats.points_ci:.1f} points a game")


if __name__ == "__main__":
    main()
