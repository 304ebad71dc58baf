"""Looking one draw ahead: which discard keeps the most live outs.

The greedy planner throws the loosest card (fewest neighbours in rank and suit) among those
whose loss costs nothing. That is a stand-in for the real question, which this module answers
exactly: after this discard, how likely is the next draw to bring the contract nearer? A card
is an *out* when adding it lowers the number of cards the hand lacks
(:func:`~carioca.solver.distance`); it is *live* for as many copies of it as the seat has not
seen (not in its hand, on the table, in the pozo or known to be in another hand). The sum is
an expectimax over the chance node of the next draw, computed over every card kind at once
instead of sampled. A card that fits the next player's known pozo takes costs outs too:
feeding them is worth about as much as a few live outs to us.

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

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..actions import Action, Discard
from ..cards import Card, deck_counts
from ..engine import View
from ..rules import Contract, RuleSet
from ..solver import distance
from .greedy import Decision, GreedyBot, _feeding, _lost, _Memo, _neighbours, _worth_keeping

__all__ = ["LookaheadBot", "unseen_counts", "live_outs", "FEED_COST"]

FEED_COST = 9
"""What a discard that fits the next player's pozo takes costs, in live outs (docs/bots.md:
without it the planner won 58.0% of 200 games against greedy, with 9 61.8%; 9 and 15 alike
over 600 games)."""


def unseen_counts(view: View, rules: RuleSet) -> Counter[Card]:
    """How many copies of each card the seat has not seen: they are in the others' hands
    (but for the cards those were seen to take) or in the mazo."""
    if view.hand is None:
        raise ValueError("only a seat's own view knows which cards it has not seen")
    left: Counter[Card] = Counter(deck_counts(*rules.deck_for(len(view.players))))
    left.subtract(view.hand)
    left.subtract(view.pozo)
    for meld in view.melds:
        left.subtract(meld.cards)
    for seat, known in enumerate(view.known):
        if seat != view.seat:
            left.subtract(known)
    return +left  # a card can only be seen as often as it exists: drop what went below 0


def live_outs(hand: Sequence[Card], contracts: Contract | Sequence[Contract], rules: RuleSet,
              unseen: Mapping[Card, int]) -> int:
    """The unseen cards (counted with their copies) any one of which, drawn next, would lower
    the number of cards ``hand`` lacks to meet the contract."""
    return sum(unseen.get(card, 0) for card in distance(hand, contracts, rules).outs)


class LookaheadBot(GreedyBot):
    """The greedy planner, but for the discard while building the contract: of the cards whose
    loss costs nothing, it throws the one that leaves the most live outs (:func:`live_outs`),
    less :data:`FEED_COST` when the card feeds the next player; the greedy order breaks ties.
    Everything else (drawing, going down, laying off, the lost-round shedding) is greedy's.
    Like greedy it has no random element."""

    name: str = "lookahead"
    description: str = ("The greedy planner, but it discards to keep the most live outs "
                        "(bota para quedarse con más cartas que le sirven).")

    def __init__(self, seed: int | None = None, rules: RuleSet | None = None, *,
                 feed_cost: float = FEED_COST, wait_early: bool = False) -> None:
        super().__init__(seed, rules, wait_early=wait_early)
        self.feed_cost = feed_cost

    def __repr__(self) -> str:
        return f"LookaheadBot(seed={self.seed!r})"

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
        feeds = _feeding(view, rules, (seat + 1) % len(view.players))
        unseen = unseen_counts(view, rules)
        best: tuple[tuple[Any, ...], Card, int, bool] | None = None
        for card in sorted(discards):
            if rules.is_wild(card):
                continue  # keep the jokers: a wild card goes only when every natural is needed
            rest = list(hand)
            rest.remove(card)
            found = distance(rest, owed, rules)
            if found.missing > now:
                continue
            outs = sum(unseen.get(c, 0) for c in found.outs)
            fed = feeds(card)
            key = (-(outs - self.feed_cost * fed), _neighbours(card, hand, rules),
                   -rules.value(card), card)
            if best is None or key < best[0]:
                best = (key, card, outs, fed)
        if best is None:  # every natural card is needed: greedy knows which to give up
            return super()._discard(view, legal, rules, seat, hand, owed, others_down)
        _, card, outs, fed = best
        details: dict[str, Any] = {"card": card, "missing": now, "before": now,
                                   "live_outs": outs}
        if self._explain:
            keep = _worth_keeping(view, seat, hand, card, memo)
            if keep is not None:
                details["keep"], details["target"] = keep
        return Decision(discards[card], "discard_feeds" if fed else "discard_outs", details)

