"""How fast the solver answers, on one core: hands per second for every contract of every
preset, on random hands of 12-14 cards holding 0-2 wild cards, with p50/p99 per hand.

Four questions are timed, each on the same hands:

* ``can_meet``: does the hand hold the contract (the question the engine asks); most random
  hands are settled by a counting test before any search, so ``searched`` times the same
  question on the hands that pass that test only (random hands drawn until 2,000, or
  ``--hands``, pass it);
* ``best``: :func:`carioca.solver.best_arrangement`, the arrangement leaving the least penalty
  (only on the random hands that can meet the contract: the others cost a ``can_meet``), and
  ``built``: the same on hands built to meet it (random melds of the contract, some cards
  replaced by the hand's wild cards, then random cards up to 12-14);
* ``missing``: :func:`carioca.solver.missing_cards`, the fewest cards the hand lacks;
* ``distance``: :func:`carioca.solver.distance`, with the outs and the needed cards.

Nothing here is a test. Run from the repository root::

    python bench/bench_solver.py                 # every preset, 2,000 hands per contract
    python bench/bench_solver.py --preset chile --hands 5000 --seed 1 --repeat 3
    python bench/bench_solver.py --json > solver.json

With ``--repeat R`` each hand is timed R times and its best time kept (for a shared machine).
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from carioca.cards import Card, deck  # noqa: E402
from carioca.rules import PRESETS, Contract, RuleSet  # noqa: E402
from carioca.solver import (  # noqa: E402
    _hopeless,
    best_arrangement,
    can_meet,
    distance,
    missing_cards,
)

HARDEST = ("1T+2E", "3E")


def random_hands(rules: RuleSet, count: int, seed: int) -> list[list[Card]]:
    """``count`` hands of 12-14 cards from the rules' deck (4 players' deck), each with 0, 1 or
    2 wild cards (uniformly), the other cards natural."""
    rng = random.Random(seed)
    cards = deck(*rules.deck_for(4))
    wild = [c for c in cards if rules.is_wild(c)]
    natural = [c for c in cards if not rules.is_wild(c)]
    hands = []
    for _ in range(count):
        size = rng.randint(12, 14)
        n_wild = min(rng.randint(0, 2), len(wild))
        hands.append(rng.sample(natural, size - n_wild) + rng.sample(wild, n_wild))
    return hands


def time_each(fn: Callable[[list[Card]], object], hands: Sequence[list[Card]],
              repeat: int = 1) -> tuple[float, list[float]]:
    """Seconds for all the hands, and the seconds of each hand's call: with ``repeat`` > 1,
    each hand's best of ``repeat`` calls (a shared machine's scheduler adds noise, never
    removes it), and the total is the sum of those."""
    clock = time.perf_counter
    each = []
    for hand in hands:
        best = math.inf
        for _ in range(repeat):
            t0 = clock()
            fn(hand)
            spent = clock() - t0
            if spent < best:
                best = spent
        each.append(best)
    return sum(each), each


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def searched_hands(rules: RuleSet, contract: Contract, count: int, seed: int,
                   tries: int = 2_000_000) -> list[list[Card]]:
    """Random hands (as :func:`random_hands`) that the counting test does not settle."""
    out: list[list[Card]] = []
    batch = 0
    while len(out) < count and batch * 5000 < tries:
        for hand in random_hands(rules, 5000, seed * 7919 + batch):
            if not _hopeless(hand, contract.melds, rules):
                out.append(hand)
                if len(out) == count:
                    break
        batch += 1
    return out


def built_hands(rules: RuleSet, contract: Contract, count: int, seed: int) -> list[list[Card]]:
    """Hands of 12-14 cards (0-2 wild cards) that meet the contract: its melds at their
    shortest from random places, a card of some melds swapped for a wild card, then random
    cards of the deck. Hands that come out longer than 14 are skipped."""
    from carioca.melds import rank_at, wild_limit

    rng = random.Random(seed)
    cards = deck(*rules.deck_for(4))
    wild = [c for c in cards if rules.is_wild(c)]
    out: list[list[Card]] = []
    while len(out) < count:
        pool = list(cards)
        rng.shuffle(pool)
        hand: list[Card] = []
        wilds_left = rng.randint(0, 2)
        for spec in contract.melds:
            if spec.kind == "trio":
                rank = rng.randint(1, 13)
                meld = [Card.of(rank, rng.choice("SHDC")) for _ in range(spec.min_len)]
            elif spec.kind == "escala":
                suit = rng.choice("SHDC")
                start = rng.randint(1, 13 if rules.wrap else 15 - spec.min_len)
                meld = [Card.of(rank_at(start + i), suit) for i in range(spec.min_len)]
            else:
                suit = rng.choice("SHDC")
                meld = [Card.of(r, suit) for r in range(1, 14)]
            cap = wild_limit(spec.kind, rules)
            if wilds_left and wild and (cap is None or cap > 0) and rng.random() < 0.5:
                meld[rng.randrange(len(meld))] = rng.choice(wild)
                wilds_left -= 1
            hand.extend(meld)
        size = rng.randint(12, 14)
        for c in pool:
            if len(hand) >= size:
                break
            if not rules.is_wild(c) and Counter(hand)[c] < 2:
                hand.append(c)
        if len(hand) <= 14 and can_meet(hand, contract, rules):
            out.append(hand)
    return out


def measure(rules: RuleSet, contract: Contract, hands: list[list[Card]],
            questions: Sequence[str], repeat: int = 1, seed: int = 1) -> dict[str, Any]:
    row: dict[str, Any] = {"contract": str(contract), "hands": len(hands)}
    meets = [h for h in hands if can_meet(h, contract, rules)]
    row["meet_share"] = len(meets) / len(hands)
    for q in questions:
        if q == "can_meet":
            total, each = time_each(lambda h: can_meet(h, contract, rules), hands, repeat)
            n = len(hands)
        elif q == "searched":
            hard = searched_hands(rules, contract, len(hands), seed)
            if not hard:
                row[q] = None
                continue
            total, each = time_each(lambda h: can_meet(h, contract, rules), hard, repeat)
            n = len(hard)
        elif q == "built":
            made = built_hands(rules, contract, min(len(hands), 500), seed)
            total, each = time_each(lambda h: best_arrangement(h, [contract], rules), made,
                                    repeat)
            n = len(made)
        elif q == "best":
            if not meets:
                row[q] = None
                continue
            total, each = time_each(lambda h: best_arrangement(h, [contract], rules), meets, repeat)
            n = len(meets)
        elif q == "missing":
            total, each = time_each(lambda h: missing_cards(h, [contract], rules), hands, repeat)
            n = len(hands)
        else:
            total, each = time_each(lambda h: distance(h, [contract], rules), hands, repeat)
            n = len(hands)
        row[q] = {
            "hands_per_s": n / total if total else 0.0,
            "p50_us": percentile(each, 0.5) * 1e6,
            "p99_us": percentile(each, 0.99) * 1e6,
            "max_us": max(each) * 1e6,
            "n": n,
        }
    return row


def contracts_of(rules: RuleSet) -> list[Contract]:
    seen: list[Contract] = []
    for rnd in rules.rounds:
        for c in rnd.contracts:
            if c not in seen:
                seen.append(c)
    return seen


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", action="append", help="a preset (repeatable); default all")
    parser.add_argument("--hands", type=int, default=2000, help="hands per contract")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--questions", default="can_meet,best,missing,distance",
                        help="comma-separated: can_meet,searched,best,built,missing,distance")
    parser.add_argument("--repeat", type=int, default=1,
                        help="time each hand this many times and keep its best time")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    presets = args.preset or sorted(PRESETS)
    questions = [q for q in args.questions.split(",") if q]
    results: list[dict[str, Any]] = []
    for name in presets:
        rules = PRESETS[name]
        for i, contract in enumerate(contracts_of(rules)):
            hands = random_hands(rules, args.hands, args.seed * 1000 + i)
            row = measure(rules, contract, hands, questions, args.repeat,
                          args.seed * 1000 + i)
            row["preset"] = name
            results.append(row)
            if not args.json:
                print(_line(row, questions), flush=True)
    doc = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "hands_per_contract": args.hands,
        "seed": args.seed,
        "repeat": args.repeat,
        "results": results,
    }
    if args.json:
        print(json.dumps(doc, indent=1))
    else:
        hardest = [r for r in results if r["contract"] in HARDEST and "can_meet" in r]
        if hardest:
            worst = min(r["can_meet"]["hands_per_s"] for r in hardest)
            print(f"\nslowest can_meet among {', '.join(HARDEST)}: {worst:,.0f} hands/s "
                  f"(goal: 20,000)")
    return 0


def _line(row: dict[str, Any], questions: Sequence[str]) -> str:
    parts = [f"{row['preset']:<10} {row['contract']:<7} meets {row['meet_share']:6.1%}"]
    for q in questions:
        r = row.get(q)
        if r is None:
            parts.append(f"{q}: -")
        else:
            parts.append(f"{q}: {r['hands_per_s']:>9,.0f}/s p50 {r['p50_us']:>6.0f}µs "
                         f"p99 {r['p99_us']:>7.0f}µs")
    return " | ".join(parts)


if __name__ == "__main__":
    raise SystemExit(main())
