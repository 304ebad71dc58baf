"""Reading the next player's hand from what they did, as a player who plays by the book.

A discard feeds the next player when it is one of their outs (it brings their contract a card
nearer: a player who plays by the book takes it from the pozo). Which cards those are depends
on their hand, which the seat cannot see. This module guesses it the way a card player does:
deal them a hand from the cards the seat has not seen (with the cards they were seen to take),
many times over, and keep the hands that explain what they did. A hand explains their last
turn when a player who plays like :class:`~carioca.bots.GreedyBot` would have done just that
holding it: thrown the card they threw (their loosest card that costs nothing) and taken or
let pass the pozo card as they did (the book takes the pozo card that is an out, and only
that). Every card they threw away or let pass this round counts against a hand it would be an
out of (they would have kept it or taken it), less for older turns. The hands that fail a
test are not thrown away, only weighted down (``miss``), because the other player may not play
by the book. Only their last turn is replayed: the turns before it held cards drawn from the
mazo that nobody saw, and replaying two turns, with those cards guessed, read no better.

What it is worth (docs/bots.md, stop 15): against greedy, the hands read this way tell the
discards that feed the next player from those that do not only a little better than chance,
and the planner that prices its discards with them (``LookaheadBot(read=...)``) played no
better than the one that does not. It is here for research: a model of the other player to
build on, with its test against greedy's own choices (tests/test_reading.py).

Everything is read from the seat's own view; the samples are seeded by the view, so the same
view gives the same reading (tests/test_fairness.py holds every bot to that).

>>> from carioca import Game, RuleSet
>>> from carioca.actions import Discard, Draw
>>> rules = RuleSet.preset("chile", rounds=[7])  # three escalas, gone out at once
>>> game = Game.new(rules, ["Ana", "Beto"], seed=3)
>>> ana = game.seat_to_act
>>> _ = game.apply(Draw(ana, "mazo"))
>>> _ = game.apply(Discard(ana, sorted(game.hand(ana))[0]))
>>> beto = 1 - ana
>>> _ = game.apply(Draw(beto, "mazo"))
>>> chance = feeding_chance(game.view(beto), rules, ana, samples=8)
>>> chance is not None and all(0.0 <= chance(c) <= 1.0 for c in game.hand(beto))
True
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card, deck_counts
from ..engine import View
from ..rules import RuleSet
from ..solver import distance
from .greedy import _fitting_meld, _goes_with, _Memo, _neighbours, _owed

__all__ = ["Reading", "read_hand", "feeding_chance", "last_turn", "book_discard",
           "unseen_counts", "refusals"]

MISS = 0.2
"""How much a hand that does not explain a test weighs, against one that does."""

REFUSAL = 1.0
"""How strongly a card they threw or let pass counts against a hand it is an out of."""

MEMORY = 0.8
"""How much of that weight a refusal keeps for each turn of theirs since."""


def unseen_counts(view: View, rules: RuleSet) -> Counter[Card]:
    """How many copies of each card the seat has not seen: they are in the others' hands
    (but for the cards those were seen to take, or all of them under open hands) or in the
    mazo."""
    if view.hand is None:
        raise ValueError("only a seat's own view knows which cards it has not seen")
    left: Counter[Card] = Counter(deck_counts(*rules.deck_for(len(view.players))))
    left.subtract(view.hand)
    left.subtract(view.pozo)
    for meld in view.melds:
        left.subtract(meld.cards)
    # Under open hands (the teaching variant) the others' whole hands are in sight.
    seen = view.open_hands if view.open_hands is not None else view.known
    for seat, cards in enumerate(seen):
        if seat != view.seat:
            left.subtract(cards)
    return +left  # a card can only be seen as often as it exists: drop what went below 0


def refusals(view: View, seat: int) -> list[tuple[Card, int]]:
    """The cards ``seat`` threw away or let pass on the pozo this round, in order, each with
    how many of its turns ago (0: this turn or its last one). The card turned up at the deal
    counts when the round's first draw let it pass; after a buy, the card under the bought
    one is the card let pass.

    >>> from carioca import Game, RuleSet
    >>> from carioca.actions import Discard, Draw
    >>> game = Game.new(RuleSet.preset("chile"), ["Ana", "Beto"], seed=3)
    >>> ana = game.seat_to_act
    >>> turned_up = game.view(ana).pozo[-1]
    >>> _ = game.apply(Draw(ana, "mazo"))
    >>> thrown = sorted(game.hand(ana))[0]
    >>> _ = game.apply(Discard(ana, thrown))
    >>> refusals(game.view(1 - ana), ana) == [(turned_up, 0), (thrown, 0)]
    True
    """
    found: list[tuple[Card, int]] = []
    turns = 0
    for entry, top in _pozo_walk(view, _turned_up(view), len(view.log)):
        if entry.get("p") != seat:
            continue
        if "discard" in entry:
            found.append((Card.parse(entry["discard"]), turns))
        elif "draw" in entry:
            turns += 1
            if entry["draw"] == "mazo" and top is not None:
                found.append((top, turns))
    return [(card, turns - at) for card, at in found]


def _pozo_walk(view: View, bottom: Card | None, upto: int
               ) -> Iterator[tuple[dict[str, Any], Card | None]]:
    """The first ``upto`` entries of the round's log, each with the card on top of the pozo
    when it came (None: not known), the pozo followed as the log shows it from ``bottom``, the
    card turned up at the deal: a discard lays a card on it, a draw from it or a buy takes the
    top. So a pozo draw or a buy took that card, and a mazo draw let it pass."""
    pile: list[Card | None] = [bottom]  # top last
    for entry in view.log[:upto]:
        top = pile[-1] if pile else None
        yield entry, top
        if "discard" in entry:
            pile.append(Card.parse(entry["discard"]))
        elif (entry.get("draw") == "pozo" or "buy" in entry) and pile:
            pile.pop()


def _turned_up(view: View) -> Card | None:
    """The card turned face up on the pozo at the deal. It lies at the bottom of the pozo
    until a draw or a buy takes it: the first draw, or a later one once buys have emptied
    the pile down to it; the log names the card a draw or a buy takes. None when the pozo
    was shuffled into a new mazo, or the log is one kept before the log named those cards."""
    if view.reshuffles:
        return None
    pile = 1  # the cards on the pozo, the turned-up card at the bottom
    for entry in view.log:
        if "discard" in entry:
            pile += 1
        elif entry.get("draw") == "pozo" or "buy" in entry:
            pile -= 1
            if pile == 0:  # this took the turned-up card
                card = entry.get("card")
                return Card.parse(card) if isinstance(card, str) else None
    return view.pozo[0] if view.pozo else None


@dataclass(frozen=True)
class Turn:
    """The other player's last turn: the pozo top they drew over (None: unknown), where they
    drew from, the card they threw, and what they knew then of the player after them (the
    cards that player was seen to take, and whether that player was down)."""

    top: Card | None
    source: str
    thrown: Card
    taken: tuple[Card, ...]
    next_down: bool


@dataclass(frozen=True)
class Reading:
    """Weighted guesses at a hand (the weights sum to 1), each with its outs."""

    hands: tuple[tuple[float, tuple[Card, ...], frozenset[Card]], ...]

    def chance(self, card: Card) -> float:
        """The weight of the hands ``card`` is an out of."""
        return sum(w for w, _, outs in self.hands if card in outs)


def last_turn(view: View, seat: int) -> Turn | None:
    """``seat``'s last whole turn of this round (a draw and a discard), read off the public
    log; None when they have not had one, or laid or swapped cards this round (the reading
    covers a hand that only draws and throws)."""
    log = view.log
    if _laid(view, seat):
        return None
    thrown = max((i for i, e in enumerate(log) if e.get("p") == seat and "discard" in e),
                 default=None)
    drew = max((i for i, e in enumerate(log[:thrown or 0]) if e.get("p") == seat
                and "draw" in e), default=None)
    if thrown is None or drew is None:
        return None
    flipped = _flipped(view)
    top = Card.parse(log[drew - 1]["discard"]) if drew and "discard" in log[drew - 1] \
        else flipped if drew == 0 else None
    nxt = (seat + 1) % len(view.players)
    taken, down = _walk(view, flipped, thrown)
    return Turn(top, log[drew]["draw"], Card.parse(log[thrown]["discard"]),
                tuple(taken[nxt]), down[nxt])


def _laid(view: View, seat: int) -> bool:
    """Whether ``seat`` did anything but draw and discard this round (laid, swapped, bought)."""
    return any(e.get("p") == seat and "draw" not in e and "discard" not in e for e in view.log)


def _flipped(view: View) -> Card | None:
    """The card turned face up on the pozo at the deal (:func:`_turned_up`); in a log kept
    before the log named the cards taken, when the round's first draw took it: the one known
    card of the taker's that the log does not account for."""
    log = view.log
    if view.reshuffles:
        return None
    if not log or log[0].get("draw") != "pozo" or "card" in log[0]:
        return _turned_up(view)
    taker = log[0]["p"]
    held = Counter(view.known[taker]) - Counter(_walk(view, None, len(log))[0][taker])
    return next(held.elements()) if sum(held.values()) == 1 else None


def _walk(view: View, flipped: Card | None, upto: int
          ) -> tuple[list[list[Card]], list[bool]]:
    """Each seat's cards seen taken from the pozo and still held, and whether it was down,
    after the first ``upto`` entries of the round's log (the engine's own bookkeeping of
    ``View.known``, redone from the log)."""
    taken: list[list[Card]] = [[] for _ in view.players]
    down = [False for _ in view.players]
    for entry, top in _pozo_walk(view, flipped, upto):
        p = entry.get("p")
        if not isinstance(p, int) or not 0 <= p < len(taken):
            continue
        if "discard" in entry:
            _forget(taken[p], Card.parse(entry["discard"]))
        elif entry.get("draw") == "pozo" or "buy" in entry:
            if top is not None:
                taken[p].append(top)
        elif "draw" in entry:
            continue
        elif "bajar" in entry:
            down[p] = True
            for meld in entry["bajar"]:
                for text in meld:
                    _forget(taken[p], Card.parse(text))
        elif "agregar" in entry:
            _forget(taken[p], Card.parse(entry["agregar"]["card"]))
        else:  # a swap brings back a wild card the log does not name: stop trusting the list
            taken[p].clear()
    return taken, down


def _forget(cards: list[Card], card: Card) -> None:
    if card in cards:
        cards.remove(card)


def book_discard(hand: Sequence[Card], memo: _Memo, rules: RuleSet,
                 feeds: Callable[[Card], bool], *, late: bool = False) -> Card:
    """The card :class:`~carioca.bots.GreedyBot` throws from ``hand`` while building its
    contract: the first, loosest first (fewest neighbours; dearest first once someone is down,
    ``late``), of the natural cards that do not feed the next player and whose loss costs
    nothing; in a lost round (someone is down and three cards are missing) the dearest card
    that does not feed."""
    now = memo.missing(hand)
    if late and now >= 3:
        return min(set(hand), key=lambda c: (feeds(c), -rules.value(c), c))
    order = sorted(set(hand), key=lambda c: (
        rules.is_wild(c), feeds(c), _neighbours(c, hand, rules),
        -rules.value(c) if late else 0, -rules.value(c), c))
    for card in order:
        if rules.is_wild(card):
            break  # a wild card goes only if every natural card is needed
        rest = list(hand)
        rest.remove(card)
        if memo.at_most(rest, now):
            return card
    return order[0]


def _feeds_then(turn: Turn, view: View, rules: RuleSet) -> Callable[[Card], bool]:
    """Greedy's "does it feed the player after me" as it stood at ``turn``."""
    known = [k for k in turn.taken if not rules.is_wild(k)]

    def feeds(card: Card) -> bool:
        if rules.is_wild(card) or _goes_with(card, known):
            return True
        return turn.next_down and _fitting_meld(card, view.melds, rules) is not None

    return feeds


def read_hand(view: View, rules: RuleSet, seat: int, *, samples: int = 32, seed: int = 0,
              miss: float = MISS, refusal: float = REFUSAL, memory: float = MEMORY
              ) -> Reading | None:
    """Weighted guesses at ``seat``'s hand while they build their contract (None once they
    are down, owe nothing or laid cards this round): ``samples`` hands dealt from the cards
    this view has not seen, with the cards they were seen to take, weighted by how well each
    explains what they did (see the module)."""
    owed = _owed(view, seat)
    if view.seat is None or not owed or view.down[seat]:
        return None
    if _laid(view, seat):
        return None
    if view.open_hands is not None:  # the teaching variant: their hand is in sight
        hand = tuple(view.open_hands[seat])
        return Reading(((1.0, hand, frozenset(distance(hand, owed, rules).outs)),))
    turn = last_turn(view, seat)
    memo = _Memo(rules, owed)
    pool = sorted(c for c, k in unseen_counts(view, rules).items() for _ in range(k))
    known = list(view.known[seat]) if view.known else []
    free = max(0, min(view.hand_counts[seat] - len(known), len(pool)))
    refused = [(c, age) for c, age in refusals(view, seat) if not rules.is_wild(c)]
    feeds = _feeds_then(turn, view, rules) if turn is not None else None
    late = turn is not None and turn.next_down
    rng = random.Random(f"{seed}:{view.round}:{len(view.log)}:{seat}")
    found: list[tuple[float, tuple[Card, ...], frozenset[Card]]] = []
    for _ in range(samples):
        hand = (*known, *rng.sample(pool, free))
        outs = frozenset(distance(hand, owed, rules).outs)
        log_w = -refusal * sum(memory ** age for card, age in refused if card in outs)
        if turn is not None and feeds is not None and miss < 1:
            log_w += _explains(turn, hand, known, memo, rules, feeds, late, rng) * math.log(miss)
        found.append((log_w, hand, outs))
    if not found:
        return None
    top = max(w for w, _, _ in found)
    weights = [math.exp(w - top) for w, _, _ in found]
    total = sum(weights)
    return Reading(tuple((w / total, hand, outs)
                         for w, (_, hand, outs) in zip(weights, found, strict=True)))


def _explains(turn: Turn, hand: Sequence[Card], known: Sequence[Card], memo: _Memo,
              rules: RuleSet, feeds: Callable[[Card], bool], late: bool,
              rng: random.Random) -> int:
    """How many of the last turn's two choices ``hand`` fails to explain (0, 1 or 2)."""
    failed = 0
    before = [*hand, turn.thrown]  # what they held when they threw
    if book_discard(before, memo, rules, feeds, late=late) != turn.thrown:
        failed += 1
    if turn.top is None:
        return failed
    drawn: Card | None
    if turn.source == "pozo":
        drawn = turn.top
    else:  # a card nobody saw: any that did not come from the pozo
        unknown = list((Counter(before) - Counter(known)).elements())
        drawn = rng.choice(unknown) if unknown else None
    if drawn is None or drawn not in before:
        return failed
    held = list(before)
    held.remove(drawn)
    took = memo.at_most([*held, turn.top], memo.missing(held) - 1)
    if took != (turn.source == "pozo"):
        failed += 1
    return failed


def feeding_chance(view: View, rules: RuleSet, seat: int, *, samples: int = 32,
                   seed: int = 0) -> Callable[[Card], float] | None:
    """The chance that a card is an out of ``seat``'s hand (:func:`read_hand`); a wild card
    always is. None when the hand cannot be read (see :func:`read_hand`)."""
    reading = read_hand(view, rules, seat, samples=samples, seed=seed)
    if reading is None:
        return None
    return lambda card: 1.0 if rules.is_wild(card) else reading.chance(card)
