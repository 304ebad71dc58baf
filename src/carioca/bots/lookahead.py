"""Looking one draw ahead: which discard keeps the most live outs.

The greedy planner throws the loosest card (fewest neighbours in rank and suit) among those
whose loss costs nothing. That is a stand-in for the real question, which this module answers
exactly: after this discard, how likely is the next draw to bring the contract nearer? A card
is an *out* when adding it lowers the number of cards the hand lacks
(:func:`~carioca.solver.distance`); it is *live* for as many copies of it as the seat has not
seen (not in its hand, on the table, in the pozo or known to be in another hand). The sum is
an expectimax over the chance node of the next draw, computed over every card kind at once
instead of sampled. Two more things weigh on the discard, priced in live outs: a card that
fits what the next player took from the pozo (feeding them costs us as much as a few outs),
and the card's penalty points (whoever does not go out pays for the hand, and in the rounds
that must be gone out at once that is the whole hand). In the rounds of tríos only, a card of
a rank the next player threw away or let pass this round is safer to throw than one they may
collect, and that is priced in live outs too.

>>> from carioca import Game, RuleSet
>>> from carioca.cards import parse_cards
>>> rules = RuleSet.preset("chile")
>>> hand = parse_cards("5H 6H 8H 7S 7D KC 2D 9S")
>>> contract = rules.rounds[1].contracts
>>> unseen = {card: 2 for card in parse_cards("7H 7C JK 4H")}
>>> live_outs(hand, contract, rules, unseen)
6
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..actions import Action, Discard
from ..cards import Card
from ..engine import View
from ..rules import Contract, RuleSet
from ..solver import Distance, distance, missing_and_outs
from .greedy import (
    Decision,
    GreedyBot,
    _feeding,
    _lost,
    _Memo,
    _neighbours,
    _owed,
    _worth_keeping,
)
from .reading import feeding_chance, refusals, unseen_counts

__all__ = ["LookaheadBot", "unseen_counts", "live_outs", "equivalent_outs", "feeding_by_contract",
           "refused_by", "refusals", "owes_only_trios", "FEED_COST", "VALUE_WEIGHT", "SAFE_BONUS",
           "BOTTLENECK_WIDTH"]

FEED_COST = 9
"""What a discard that fits the next player's pozo takes costs, in live outs (docs/bots.md:
without it the planner won 58.0% of 200 games against greedy, with 9 61.8%; 9 and 15 alike
over 600 games)."""

VALUE_WEIGHT = 0.4
"""What each penalty point of a card is worth, in live outs: throwing a king (10 points) is
worth losing 4 outs. docs/bots.md: on the same 500 deals against greedy, the planner won 54.4%
of the games without it and 60.0% with 0.3 (59.5% with 0.6); it saves most in the rounds gone
out at once, where whoever is caught pays for twelve cards."""


BOTTLENECK_WIDTH = 6
"""How many of the plain planner's best discards the bottleneck weighs again
(``LookaheadBot(bottleneck=True)``): each costs a solver call per out, and a hand far from
three escalas has dozens of outs. docs/bots.md (stop 29): weighing every discard took up to
1.7 s in a round of three escalas; the six best agree with all of them in 99.94% of the
decisions."""

SAFE_BONUS = 6
"""What a discard the next player has refused is worth, in live outs, when their contract is
tríos only (:func:`refused_by`). docs/bots.md: in the round of four tríos against greedy, on the
same 1,000 deals in both seat orders, 4.2 ± 2.9 points a round more with 6 (3.4-4.0 with 3,
10 or 15); nothing in the rounds with escalas, so it stays out of them."""


def live_outs(hand: Sequence[Card], contracts: Contract | Sequence[Contract], rules: RuleSet,
              unseen: Mapping[Card, int]) -> int:
    """The unseen cards (counted with their copies) any one of which, drawn next, would lower
    the number of cards ``hand`` lacks to meet the contract."""
    return sum(unseen.get(card, 0) for card in distance(hand, contracts, rules).outs)


def equivalent_outs(rest: Sequence[Card], owed: Sequence[Contract], rules: RuleSet,
                    unseen: Mapping[Card, int], found: Distance,
                    memo: dict[tuple[Card, ...], frozenset[Card]] | None = None) -> float:
    """The live outs a hand would need to meet its contract as fast as ``rest`` (``found`` is
    its :func:`~carioca.solver.distance`) is expected to, looking two draws deep.

    Live outs add up the outs of every missing card: a hand with 8 outs for one gap and 1 for
    the other scores 9, more than one with 4 and 4, though it waits on a single card. The
    draws a hand needs see that: ``T = U/o + (m-1) · Σ_c (k_c/o) · U/o_c``, with ``U`` the
    unseen cards, ``o`` the live outs, ``m`` the cards missing, ``k_c`` the unseen copies of
    an out ``c`` and ``o_c`` the live outs once ``c`` is drawn; turned back into outs as
    ``m · U / T``. A hand one card short (or with no outs) is worth its live outs; an out
    after which no out is left counts as ``4 · U`` draws (a hand stuck for a long while).
    ``memo`` keeps the outs of the hands already weighed (a decision asks some twice).

    Two hands short of two tríos, with the same cards unseen: the first has more live outs,
    but waits on the one queen left; the second is quicker to meet the contract.

    >>> from carioca.cards import parse_cards
    >>> rules = RuleSet.preset("chile")
    >>> two_trios = rules.rounds[0].contracts
    >>> unseen = {Card.parse(code): copies for code, copies in
    ...           [("7D", 2), ("7C", 2), ("QD", 1), ("5D", 1), ("5C", 1), ("9D", 1), ("9C", 1)]}
    >>> for hand in ("7H 7S QS QH 2C 4D JD KS 3S", "5H 5S 9S 9H 2C 4D JD KS 3S"):
    ...     cards = parse_cards(hand)
    ...     found = distance(cards, two_trios, rules)
    ...     print(live_outs(cards, two_trios, rules, unseen),
    ...           round(equivalent_outs(cards, two_trios, rules, unseen, found), 2))
    5 1.9
    4 2.67
    """
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
        after = tuple(sorted([*rest, card]))
        next_outs = None if memo is None else memo.get(after)
        if next_outs is None:
            _, next_outs = missing_and_outs(after, owed, rules)
            if memo is not None:
                memo[after] = next_outs
        # the copy drawn is no longer unseen
        left = sum(unseen.get(x, 0) for x in next_outs) - (card in next_outs)
        second += copies / outs * (total / left if left > 0 else 4 * total)
    draws = total / outs + (missing - 1) * second
    return missing * total / draws


def feeding_by_contract(view: View, rules: RuleSet, seat: int) -> Callable[[Card], bool]:
    """A test: does discarding this card help ``seat``? Greedy's test (it goes with a card they
    were seen to take, or fits a meld on the table once they are down), narrowed to what
    their contract can use: a card of the same rank only feeds tríos, a card of the same suit
    one or two ranks away only feeds escalas."""
    feeds: Callable[[Card], bool] = _feeding(view, rules, seat, by_contract=True)
    return feeds


def refused_by(view: View, rules: RuleSet, seat: int) -> Callable[[Card], bool]:
    """A test: has ``seat`` refused this card this round? They threw it away, or let it pass
    on the pozo and drew from the mazo. When all they owe is tríos, a card of a refused rank
    counts too (any suit does for a trío); a wild card is never refused (it fits anything).

    >>> from carioca import Game, RuleSet
    >>> from carioca.actions import Discard, Draw
    >>> rules = RuleSet.preset("chile", rounds=[8])  # four tríos
    >>> game = Game.new(rules, ["Ana", "Beto"], seed=3)
    >>> ana = game.seat_to_act
    >>> _ = game.apply(Draw(ana, "mazo"))
    >>> thrown = sorted(game.hand(ana))[0]
    >>> _ = game.apply(Discard(ana, thrown))
    >>> refused = refused_by(game.view(1 - ana), rules, ana)
    >>> thrown, refused(thrown), refused(Card.parse("AD")), refused(Card.parse("KS"))
    (Card('AS'), True, True, False)
    """
    refused = {card for card, _ in refusals(view, seat)}
    ranks = {c.rank for c in refused if not rules.is_wild(c)} if owes_only_trios(view, seat) \
        else set()

    def is_refused(card: Card) -> bool:
        return not rules.is_wild(card) and (card in refused or card.rank in ranks)

    return is_refused


def owes_only_trios(view: View, seat: int) -> bool:
    """Whether every contract ``seat`` may still lay down is made of tríos only."""
    kinds = {spec.kind for contract in _owed(view, seat) for spec in contract.melds}
    return kinds == {"trio"}


class LookaheadBot(GreedyBot):
    """The greedy planner, but for the discard while building the contract: of the cards whose
    loss costs nothing, it throws the one that leaves the most live outs (:func:`live_outs`),
    less :data:`FEED_COST` when the card feeds the next player (by rank for their tríos, by
    suit for their escalas), plus :data:`VALUE_WEIGHT` per penalty point of the card, plus
    :data:`SAFE_BONUS` when the next player owes tríos only and refused the card
    (:func:`refused_by`); the greedy order breaks ties. Everything else (drawing, going down,
    laying off, the lost-round shedding) is greedy's. Like greedy it has no random element.

    ``read`` (off: 0): price the feeding as a chance over that many hands read for the next
    player (:mod:`carioca.bots.reading`) instead of the 1-or-0 test; measured in docs/bots.md
    (stop 15), it did not play better, so the named bots leave it off.

    ``bottleneck`` (off): weigh the best few discards by :func:`equivalent_outs` (the draws
    the hand is expected to need) instead of live outs; measured in docs/bots.md (stops 28
    and 29): a point or so for the planner alone, nothing measurable in the search bot, so
    the named bots leave it off too."""

    name: str = "lookahead"
    description: str = ("The greedy planner, but it discards to keep the most live outs "
                        "(bota para quedarse con más cartas que le sirven).")

    def __init__(self, seed: int | None = None, rules: RuleSet | None = None, *,
                 feed_cost: float = FEED_COST, value_weight: float = VALUE_WEIGHT,
                 safe_bonus: float = SAFE_BONUS, wait_early: bool = False,
                 read: int = 0, bottleneck: bool = False) -> None:
        super().__init__(seed, rules, wait_early=wait_early)
        self.feed_cost = feed_cost
        self.value_weight = value_weight
        self.safe_bonus = safe_bonus
        self.read = read
        self.bottleneck = bottleneck

    def __repr__(self) -> str:
        chain = ", bottleneck=True" if self.bottleneck else ""
        return f"LookaheadBot(seed={self.seed!r}{chain})"

    # What the planner believes about the cards it cannot see. Two methods, so that a
    # measurement can hand the planner the truth instead (bench/bench_information.py asks
    # what knowing it would be worth); a bot for the table never overrides them.

    def _feeds(self, view: View, rules: RuleSet, seat: int) -> Callable[[Card], float]:
        """The chance that discarding a card feeds ``seat`` (the next player), between 0 and
        1; the discard pays :data:`FEED_COST` times it. With ``read`` samples, the share of
        the hands read for them (:func:`~carioca.bots.reading.feeding_chance`) the card is an
        out of; else, or when their hand cannot be read, 1 or 0: whether the card goes with
        what they were seen to take (:func:`feeding_by_contract`)."""
        if self.read:
            chance = feeding_chance(view, rules, seat, samples=self.read, seed=self.seed or 0)
            if chance is not None:
                return chance
        return feeding_by_contract(view, rules, seat)

    def _unseen(self, view: View, rules: RuleSet) -> Mapping[Card, int]:
        """The copies of each card that may still be drawn (:func:`unseen_counts`)."""
        return unseen_counts(view, rules)

    def _outs(self, candidates: Sequence[tuple[Card, list[Card], Distance, int]],
              owed: Sequence[Contract], rules: RuleSet, unseen: Mapping[Card, int],
              extras: Sequence[float]) -> list[float]:
        """What each candidate discard (the card, the hand left, how far it is from the
        contract, its live outs) is worth in outs: its live outs. With ``bottleneck``, the
        :data:`BOTTLENECK_WIDTH` best by the plain reckoning (live outs plus ``extras``, the
        feeding, points and safety prices, given only then) are weighed again by
        :func:`equivalent_outs`, scaled to the most live outs among them so that the prices
        keep their weight, and the others drop out."""
        plain = [float(outs) for *_, outs in candidates]
        if not self.bottleneck:
            return plain
        order = sorted(range(len(candidates)), key=lambda i: -(plain[i] + extras[i]))
        shortlist = order[:BOTTLENECK_WIDTH]
        memo: dict[tuple[Card, ...], frozenset[Card]] = {}
        weights = {i: equivalent_outs(candidates[i][1], owed, rules, unseen, candidates[i][2],
                                      memo) for i in shortlist}
        top = max(weights.values(), default=0.0)
        scale = max(plain[i] for i in shortlist) / top if top > 0 else 1.0
        return [scale * weights[i] if i in weights else -math.inf
                for i in range(len(candidates))]

    def _discard(self, view: View, legal: Sequence[Action], rules: RuleSet, seat: int,
                 hand: list[Card], owed: list[Contract], others_down: list[int]
                 ) -> Decision:
        discards = {a.card: a for a in legal if isinstance(a, Discard)}
        if not discards or view.down[seat] or not owed:
            return super()._discard(view, legal, rules, seat, hand, owed, others_down)
        memo = _Memo(rules, owed)
        now = memo.missing(hand)
        if _lost(view, now, others_down):
            return super()._discard(view, legal, rules, seat, hand, owed, others_down)
        nxt = (seat + 1) % len(view.players)
        feeds = self._feeds(view, rules, nxt)
        refused = refused_by(view, rules, nxt) if self.safe_bonus and owes_only_trios(
            view, nxt) else None
        unseen = self._unseen(view, rules)
        best: tuple[tuple[Any, ...], Card, int, float, float] | None = None
        unsafe_best: tuple[Any, ...] | None = None  # the choice without the safe bonus
        most_outs = -math.inf  # the best worth without the points: did the points decide?
        candidates = []
        for card in sorted(discards):
            if rules.is_wild(card):
                continue  # keep the jokers: a wild card goes only when every natural is needed
            rest = list(hand)
            rest.remove(card)
            found = distance(rest, owed, rules)
            if found.missing <= now:
                candidates.append((card, rest, found, sum(unseen.get(c, 0) for c in found.outs)))
        fed_by = [feeds(card) for card, *_ in candidates]
        extras = [self.value_weight * rules.value(card) - self.feed_cost * fed + (
            self.safe_bonus if refused is not None and not fed and refused(card) else 0)
            for (card, *_), fed in zip(candidates, fed_by, strict=True)
        ] if self.bottleneck else []  # the plain planner orders them below, not here
        weights = self._outs(candidates, owed, rules, unseen, extras)
        for (card, _, _, outs), weight, fed in zip(candidates, weights, fed_by, strict=True):
            plain = weight - self.feed_cost * fed
            most_outs = max(most_outs, plain)
            worth = plain + self.value_weight * rules.value(card)
            tail = (_neighbours(card, hand, rules), -rules.value(card), card)
            unsafe_key = (-worth, *tail)
            if unsafe_best is None or unsafe_key < unsafe_best:
                unsafe_best = unsafe_key
            if refused is not None and not fed and refused(card):
                worth += self.safe_bonus
            key = (-worth, *tail)
            if best is None or key < best[0]:
                best = (key, card, outs, fed, plain)
        if best is None:  # every natural card is needed: greedy knows which to give up
            return super()._discard(view, legal, rules, seat, hand, owed, others_down)
        _, card, outs, fed, plain = best
        details: dict[str, Any] = {"card": card, "missing": now, "before": now,
                                   "live_outs": outs, "points": rules.value(card)}
        if unsafe_best is not None and unsafe_best[-1] != card:
            # The next player refused this card: say so, not which card to keep.
            return Decision(discards[card], "discard_safe", details)
        if plain < most_outs:
            # A dearer card goes at the cost of a few outs: say so, not which card to keep.
            return Decision(discards[card], "discard_dear", details)
        if self._explain:
            keep = _worth_keeping(view, seat, hand, card, memo)
            if keep is not None:
                details["keep"], details["target"] = keep
        return Decision(discards[card], "discard_feeds" if fed else "discard_outs", details)
