"""What would knowing a hidden card be worth? The lookahead planner against greedy, told one
thing it cannot see, paired with the fair planner on the same deals.

Nothing here is a test, and nothing here is a bot for the table: the *oracles* below read the
other player's hand through the game object, which no bot may do (tests/test_fairness.py
catches a bot that does). They measure how much strength is left in a piece of hidden
information, so that the work goes where the points are. Run from the repository root::

    python bench/bench_information.py --games 1000 --rounds 7,8 --seed 12
    python bench/bench_information.py --games 600 --seed 11 --contestants feeding
    python bench/bench_information.py --games 400 --rounds 7,8 --seed 12 --contestants sampled
    python bench/bench_information.py --games 1000 --rounds 7,8 --seed 12 --contestants read

Contestants (each plays every deal in both seat orders against ``GreedyBot``):

* ``lookahead``: the fair planner, the baseline every other contestant is paired with;
* ``feeding`` (oracle): the planner knows exactly which discards the next player can use (a
  card feeds them when it lowers the number of cards their true hand lacks: greedy then takes
  it from the pozo); the fair planner guesses from the cards they were seen to take;
* ``mazo`` (oracle): live outs counted on the mazo alone, the other hands left out;
* ``danger`` (oracle): the points weight follows how near the next player's true hand is to
  going out (1.2 outs a point when they lack one card or none, 0.6 at two, 0.2 further);
* ``sampled`` (fair): the feeding priced as the chance, over sampled hands of the next
  player, that the card is an out of theirs; in the rounds gone out at once only (the cost
  of the samples goes where the loser pays for a whole hand);
* ``read`` (fair): the planner with ``read=32`` (:mod:`carioca.bots.reading`: the sampled
  hands weighted by how well they explain the next player's last turn, played by the book,
  and what they refused), each feeding chance charged ``--read-cost`` live outs.

Intervals are 95%, normal approximation over deals (both seat orders of a deal are one sample).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from carioca import Action, Discard, Game, RuleSet  # noqa: E402
from carioca.bots import GreedyBot, LookaheadBot  # noqa: E402
from carioca.bots.reading import read_hand  # noqa: E402
from carioca.bots.search import play_until_round_end  # noqa: E402
from carioca.cards import Card  # noqa: E402
from carioca.engine import View  # noqa: E402
from carioca.rules import Contract  # noqa: E402
from carioca.solver import missing_cards  # noqa: E402

Z95 = 1.959963984540054
CONTESTANTS = ("lookahead", "feeding", "mazo", "danger", "sampled", "read")
READ_COST = 15.0  # the feeding cost of the ``read`` contestant (--read-cost)


def owed(view: View, seat: int) -> list[Contract]:
    """What ``seat`` still owes (any alternative), read from a view."""
    return [Contract.parse(o) for o in view.owed[seat] if o] if view.owed else []


def true_need(game: Game, seat: int) -> tuple[list[Card], list[Contract]] | None:
    """``seat``'s true hand and what it owes, while it builds a contract (None once down)."""
    view = game.view(seat)
    contracts = owed(view, seat)
    if view.down[seat] or not contracts:
        return None
    return list(game.hand(seat)), contracts


class Oracle(LookaheadBot):
    """The lookahead planner with a window on the game: for measurement only."""

    def __init__(self, game: Game, seed: int, rules: RuleSet) -> None:
        super().__init__(seed, rules)
        self.game = game



class FeedingOracle(Oracle):
    """Told exactly which discards lower what the next player's true hand lacks."""

    def _feeds(self, view: View, rules: RuleSet, seat: int) -> Callable[[Card], float]:
        truth = true_feeding(self.game, seat)
        if truth is None:  # they are down: feeding is a public fact (a meld it fits)
            return super()._feeds(view, rules, seat)
        return lambda card: float(truth(card))


class MazoOracle(Oracle):
    """Told the mazo: its live outs leave out the cards the other hands hold."""

    def _unseen(self, view: View, rules: RuleSet) -> Mapping[Card, int]:
        left = Counter(super()._unseen(view, rules))
        for seat in range(self.game.n):
            if seat != view.seat:
                hidden = Counter(self.game.hand(seat))
                hidden.subtract(view.known[seat])  # those were never counted as unseen
                left.subtract(+hidden)
        return +left


class DangerOracle(Oracle):
    """Told how many cards the next player lacks: its points weight follows that."""

    WEIGHTS = {0: 1.2, 1: 1.2, 2: 0.6}

    def _discard(self, view: View, legal: Any, rules: RuleSet, seat: int, *rest: Any
                 ) -> Any:
        need = true_need(self.game, (seat + 1) % len(view.players))
        self.value_weight = 0.4 if need is None else self.WEIGHTS.get(
            missing_cards(need[0], need[1], rules), 0.2)
        return super()._discard(view, legal, rules, seat, *rest)


class SampledFeeding(LookaheadBot):
    """Fair: the chance a discard feeds the next player, over ``samples`` hands dealt to them
    from the cards this seat has not seen (plus those they were seen to take), each weighted
    down for every card they refused or threw this round that would be an out of it (they
    would have taken it, or kept it): :func:`carioca.bots.reading.read_hand` without the
    replay of their last turn. Seeded by the view, so the same view decides the same."""

    def __init__(self, seed: int, rules: RuleSet, samples: int = 16, refusal: float = 1.0,
                 memory: float = 0.8) -> None:
        super().__init__(seed, rules)
        self.samples, self.refusal, self.memory = samples, refusal, memory

    def _feeds(self, view: View, rules: RuleSet, seat: int) -> Callable[[Card], float]:
        reading = read_hand(view, rules, seat, samples=self.samples, seed=self.seed or 0,
                            miss=1.0, refusal=self.refusal, memory=self.memory) \
            if view.go_out_at_once else None
        if reading is None:
            return super()._feeds(view, rules, seat)
        return lambda card: 1.0 if rules.is_wild(card) else reading.chance(card)


def contestant(name: str, game: Game, seed: int, rules: RuleSet,
               read_cost: float = READ_COST) -> LookaheadBot:
    makers: dict[str, Callable[[], LookaheadBot]] = {
        "lookahead": lambda: LookaheadBot(seed, rules),
        "feeding": lambda: FeedingOracle(game, seed, rules),
        "mazo": lambda: MazoOracle(game, seed, rules),
        "danger": lambda: DangerOracle(game, seed, rules),
        "sampled": lambda: SampledFeeding(seed, rules),
        "read": lambda: LookaheadBot(seed, rules, read=32, feed_cost=read_cost),
    }
    return makers[name]()


class Result(NamedTuple):
    """A contestant's result on one deal (the mean of both seat orders) and, summed, its
    discards while building a contract and how many of them the next player could use."""

    win: float
    points: float
    discards: int
    fed: int


def true_feeding(game: Game, seat: int) -> Callable[[Card], bool] | None:
    """Which cards lower what ``seat``'s true hand lacks (greedy takes those from the pozo),
    while ``seat`` builds a contract; None once they are down or owe nothing."""
    need = true_need(game, seat)
    if need is None:
        return None
    hand, contracts = need
    now = missing_cards(hand, contracts, game.rules)
    return lambda card: missing_cards([*hand, card], contracts, game.rules) < now


class Counted:
    """A contestant, counting its discards while building in the rounds gone out at once,
    and how many of them the next player could use (``counts``: [discards, fed])."""

    def __init__(self, bot: LookaheadBot, game: Game, counts: list[int]) -> None:
        self.bot, self.game, self.counts = bot, game, counts

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        action = self.bot.choose(view, legal)
        if isinstance(action, Discard) and view.go_out_at_once and not view.down[action.seat]:
            self.counts[0] += 1
            truth = true_feeding(self.game, (action.seat + 1) % self.game.n)
            self.counts[1] += truth is not None and truth(action.card)
        return action

    def wants_to_buy(self, view: View, legal: Sequence[Action]) -> bool:
        return self.bot.wants_to_buy(view, legal)


def play_deal(task: tuple[RuleSet, Sequence[str], int, float]) -> dict[str, Result]:
    """Each contestant's result on one deal, in both seat orders against greedy."""
    rules, names, deal_seed, read_cost = task
    found: dict[str, Result] = {}
    for name in names:
        wins, points, counts = [], [], [0, 0]
        for seat in (0, 1):
            game = Game.new(rules, ["Ana", "Beto"], seed=deal_seed)
            bots: list[Any] = [GreedyBot(deal_seed, rules), GreedyBot(deal_seed, rules)]
            bots[seat] = Counted(contestant(name, game, deal_seed, rules, read_cost), game,
                                 counts)
            while not game.is_over:
                play_until_round_end(game, bots)
            sheet = game.score_sheet()
            wins.append(1 / len(sheet.winners) if seat in sheet.winners else 0.0)
            points.append(float(sheet.totals[seat]))
        found[name] = Result(statistics.fmean(wins), statistics.fmean(points), *counts)
    return found


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    if len(values) < 2:
        return (values[0] if values else math.nan), math.nan
    return statistics.fmean(values), Z95 * statistics.stdev(values) / math.sqrt(len(values))


def report(names: Sequence[str], results: Sequence[dict[str, Result]]) -> None:
    print(f"{2 * len(results)} games a contestant ({len(results)} deals × 2 seat orders), "
          "against greedy")
    for name in names:
        win, win_ci = mean_ci([r[name].win for r in results])
        pts, pts_ci = mean_ci([r[name].points for r in results])
        line = f"  {name:10s} won {100 * win:5.1f}% ± {100 * win_ci:.1f}, " \
               f"{pts:6.1f} ± {pts_ci:.1f} points a game"
        discards = sum(r[name].discards for r in results)
        if discards:
            fed = sum(r[name].fed for r in results)
            line += f"; {100 * fed / discards:.1f}% of its {discards} discards while " \
                    "building, in the rounds gone out at once, fed the next player"
        if name != "lookahead":
            dw, dw_ci = mean_ci([r[name].win - r["lookahead"].win for r in results])
            dp, dp_ci = mean_ci([r[name].points - r["lookahead"].points for r in results])
            line += f"; against lookahead {100 * dw:+.1f} ± {100 * dw_ci:.1f} points of " \
                    f"win rate, {dp:+.1f} ± {dp_ci:.1f} points"
        print(line)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200,
                        help="games a contestant (rounded up to whole deals × 2 seat orders)")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--rounds", default="", help="rounds of chile to play, e.g. 7,8")
    parser.add_argument("--contestants", default="feeding,mazo,danger",
                        help=f"besides lookahead, any of {', '.join(CONTESTANTS[1:])}")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--read-cost", type=float, default=READ_COST,
                        help="the feeding cost of the read contestant, in live outs")
    args = parser.parse_args(argv)
    names = ["lookahead", *[n for n in args.contestants.split(",") if n and n != "lookahead"]]
    unknown = [n for n in names if n not in CONTESTANTS]
    if unknown:
        parser.error(f"unknown contestant {unknown[0]!r}: use {', '.join(CONTESTANTS)}")
    rules = RuleSet.preset("chile", **(
        {"rounds": [int(r) for r in args.rounds.split(",")]} if args.rounds else {}))
    deals = max(1, math.ceil(args.games / 2))
    tasks = [(rules, names, args.seed * 1_000_003 + d, args.read_cost) for d in range(deals)]
    results: list[dict[str, Result]] = []
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for done, found in enumerate(pool.map(play_deal, tasks, chunksize=4), 1):
            results.append(found)
            if done % 50 == 0 or done == deals:
                print(f"  {done}/{deals} deals, {time.perf_counter() - started:.0f} s",
                      file=sys.stderr)
    report(names, results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
