"""Melds: tríos, escalas, escala sucia, real and de colores, and which cards are wild in them.

A meld is read from the cards in the order they are laid: for any kind of escala the order is
the sequence, low to high, so a wild card's place says which card it stands for.

>>> from carioca.rules import RuleSet
>>> from carioca.cards import parse_cards
>>> chile = RuleSet.preset("chile")
>>> m = read_meld(parse_cards("5H JK 7H 8H"), "escala", chile)
>>> m.describe()
'escala 5H 6H(JK) 7H 8H'
>>> read_meld(parse_cards("7H 7S 7H"), "trio", chile).rank
7
>>> read_meld(parse_cards("KS AS 2S 3S"), "escala", chile)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
carioca.melds.MeldError: an escala may not turn the corner (K-A-2): the ace is low (A-2-3) or ...
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .cards import RANKS, SUITS, Card
from .rules import MeldKind, RuleSet

__all__ = ["Meld", "MeldError", "read_meld", "wild_limit", "rank_at", "End"]

End = Literal["low", "high"]


class MeldError(ValueError):
    """Cards that do not make the meld asked for; the message says why in a player's words."""


def rank_at(position: int) -> int:
    """Rank (1-13) at an escala position; positions run 1 (ace low) to 14 (ace high) and,
    with wrapping, on past 14 (15 is the two again)."""
    return (position - 1) % 13 + 1


def wild_limit(kind: MeldKind, rules: RuleSet) -> int | None:
    """How many wild cards a meld of this kind may hold when laid down (None: no limit)."""
    if kind == "real":
        return 0
    if kind == "sucia":
        return 1 if rules.max_wilds_per_meld is None else min(1, rules.max_wilds_per_meld)
    return rules.max_wilds_per_meld


def relocates_wild(meld: Meld, rules: RuleSet) -> bool:
    """Whether a wild swapped out of ``meld`` moves to one of its ends (``relocate``) rather
    than to the player's hand. A trío, an escala sucia, real or de colores, and an escala that
    holds all thirteen ranks have no end to move it to, so the wild goes to the hand
    (ruling 11)."""
    return (rules.joker_replacement == "relocate" and meld.kind == "escala"
            and len(meld.cards) < 13)


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld on the table.

    ``cards`` are in laid order (escalas low to high); ``wild`` marks which of them stand for
    another card. For a trío ``rank`` is its rank; for an escala ``start`` is the position of
    its first card and ``suit`` its suit (``""`` for sucia; for colores, ``suit`` is ``"R"`` or
    ``"B"``, the colour of the first card).
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    wild: tuple[bool, ...]
    owner: int = -1
    rank: int = 0
    start: int = 0
    suit: str = ""

    @property
    def wild_count(self) -> int:
        return sum(self.wild)

    @property
    def is_sequence(self) -> bool:
        return self.kind != "trio"

    def stands_for(self, index: int) -> str:
        """What the card at ``index`` stands for, in record notation (``6H``; ``6`` when the
        suit is free; ``6R``/``6B`` for a colour)."""
        if self.kind == "trio":
            return RANKS[self.rank - 1]
        rank = RANKS[rank_at(self.start + index) - 1]
        if self.kind == "escala":
            return rank + self.suit
        if self.kind == "colores":
            return rank + _colour_at(self.suit, index)
        return rank

    def describe(self) -> str:
        parts = []
        for i, c in enumerate(self.cards):
            parts.append(f"{self.stands_for(i)}({c})" if self.wild[i] else str(c))
        return f"{_KIND_NAMES[self.kind]} " + " ".join(parts)

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "owner": self.owner,
            "cards": [str(c) for c in self.cards],
            "stands_for": [self.stands_for(i) for i in range(len(self.cards))],
        }

    # -------------------------------------------------------------- growing a meld

    def fits(self, card: Card, end: End | None, rules: RuleSet, *, limit: bool = True) -> bool:
        """Whether ``card`` may be added at ``end`` (the end is ignored for a trío)."""
        return self.grown(card, end, rules, limit=limit) is not None

    def open_ends(self, rules: RuleSet) -> tuple[End, ...]:
        """The ends at which an escala can still grow (none for a trío: it has no ends)."""
        if self.kind != "escala" or len(self.cards) >= 13:
            return ()
        if rules.wrap:
            return ("low", "high")
        ends: list[End] = []
        if self.start > 1:
            ends.append("low")
        if self.start + len(self.cards) <= 14:
            ends.append("high")
        return tuple(ends)

    def extended(self, card: Card, end: End | None, rules: RuleSet, *, limit: bool = True) -> Meld:
        """This meld with ``card`` added (at ``end`` for an escala), or :class:`MeldError`
        saying why not."""
        new = self.grown(card, end, rules, limit=limit)
        if new is None:
            raise MeldError(self._misfit(card, end, rules))
        return new

    def grown(self, card: Card, end: End | None, rules: RuleSet, *, limit: bool = True
              ) -> Meld | None:
        """This meld with ``card`` added, or None: :meth:`extended` without the reason, for
        the bots and the solver, which ask this millions of times and mostly hear no."""
        if self.kind == "trio":
            natural_here = card.rank == self.rank and not card.is_joker
            if not natural_here and not rules.is_wild(card):
                return None
            if not natural_here and limit and self._over_wild_limit(rules):
                return None
            return Meld(self.kind, (*self.cards, card), (*self.wild, not natural_here),
                        self.owner, rank=self.rank)
        if self.kind != "escala":
            return None  # sucia, real and colores run from the ace to the king
        wild = rules.is_wild(card)
        if not wild and card.suit != self.suit:
            return None  # the usual no, answered before the ends are worked out
        ends = self.open_ends(rules)
        if end is None:
            end = _default_end(self, card, ends, rules)
        if end not in ends:
            return None
        pos = self.start - 1 if end == "low" else self.start + len(self.cards)  # _beyond, inline
        natural_here = card == Card.of(rank_at(pos), self.suit)
        if not natural_here and not wild:
            return None
        if not natural_here and limit and self._over_wild_limit(rules):
            return None
        if end == "low":
            start = pos if pos >= 1 else pos + 13
            return Meld(self.kind, (card, *self.cards), (not natural_here, *self.wild),
                        self.owner, start=start, suit=self.suit)
        return Meld(self.kind, (*self.cards, card), (*self.wild, not natural_here),
                    self.owner, start=self.start, suit=self.suit)

    def _beyond(self, end: End) -> int:
        """The escala position just past its ``end``: where a card added there goes."""
        return self.start - 1 if end == "low" else self.start + len(self.cards)

    def _over_wild_limit(self, rules: RuleSet) -> bool:
        """Whether one more wild card would pass the cap of this kind of meld."""
        cap = wild_limit(self.kind, rules)
        return cap is not None and self.wild_count + 1 > cap

    def _misfit(self, card: Card, end: End | None, rules: RuleSet) -> str:
        """Why :meth:`grown` said no, in a player's words."""
        if self.kind in ("sucia", "real", "colores"):
            return f"the {self.kind} runs from the ace to the king; nothing can be added"
        if card.is_joker and not rules.is_wild(card):
            return _DEAD_JOKER
        if self.kind == "trio":
            if (card.is_joker or card.rank != self.rank) and not rules.is_wild(card):
                return f"{card} is not a {RANKS[self.rank - 1]}: it does not fit the trío"
        else:
            ends = self.open_ends(rules)
            if end is None:
                # The natural card past an ace (K-A-2 without wrap) is refused for that end
                # being closed, not for not fitting the other end.
                sides: tuple[End, ...] = ("low", "high")
                past = [e for e in sides
                        if e not in ends and card == Card.of(rank_at(self._beyond(e)), self.suit)]
                end = past[0] if past else _default_end(self, card, ends, rules)
            if end not in ends:
                return _closed_end_reason(self, end)
            pos = self._beyond(end)
            want = Card.of(rank_at(pos), self.suit)
            if card != want and not rules.is_wild(card):
                return f"{card} does not fit the {end} end of the escala (it needs {want})"
        return _too_many_wilds(wild_limit(self.kind, rules) or 0)

    # -------------------------------------------------------------- swapping a wild out

    def wild_index_for(self, card: Card) -> int | None:
        """The place of a wild card that the natural ``card`` can replace, if any."""
        if card.is_joker:
            return None
        for i, is_wild in enumerate(self.wild):
            if is_wild and self._matches(i, card):
                return i
        return None

    def _matches(self, index: int, card: Card) -> bool:
        if self.kind == "trio":
            return card.rank == self.rank
        rank = rank_at(self.start + index)
        if card.rank != rank:
            return False
        if self.kind == "escala" or self.kind == "real":
            return card.suit == self.suit
        if self.kind == "colores":
            return _colour_of(card) == _colour_at(self.suit, index)
        return True

    def swapped(self, card: Card, index: int) -> tuple[Meld, Card]:
        """The meld with the natural ``card`` in place of the wild at ``index``, and the wild."""
        wild = self.cards[index]
        cards = list(self.cards)
        flags = list(self.wild)
        cards[index] = card
        flags[index] = False
        return Meld(self.kind, tuple(cards), tuple(flags), self.owner, self.rank,
                    self.start, self.suit), wild


_KIND_NAMES = {"trio": "trío", "escala": "escala", "sucia": "escala sucia",
               "real": "escala real", "colores": "escala de colores"}


def _colour_of(card: Card) -> str:
    return "R" if card.suit in ("H", "D") else "B"


def _colour_at(first: str, index: int) -> str:
    if index % 2 == 0:
        return first
    return "B" if first == "R" else "R"


def _too_many_wilds(cap: int) -> str:
    if cap == 0:
        return "this meld may hold no wild card"
    if cap == 1:
        return "a meld may hold only one wild card (comodín)"
    return f"a meld may hold at most {cap} wild cards"


def _default_end(meld: Meld, card: Card, ends: tuple[End, ...], rules: RuleSet) -> End:
    # A natural card goes where it belongs; a wild card, when the record does not say,
    # goes on the high end if it can (players extend escalas upwards first).
    for end in ends:
        pos = meld.start - 1 if end == "low" else meld.start + len(meld.cards)
        if card == Card.of(rank_at(pos), meld.suit):
            return end
    if "high" in ends:
        return "high"
    return ends[0] if ends else "high"


def _closed_end_reason(meld: Meld, end: End) -> str:
    if len(meld.cards) >= 13:
        return "the escala already has all thirteen ranks"
    if end == "low":
        return "the escala already starts at the ace; it cannot go lower"
    return "the escala already ends at the ace; it cannot go higher"


# --------------------------------------------------------------------------- reading melds

def read_meld(cards: Sequence[Card], kind: MeldKind, rules: RuleSet, *, owner: int = -1,
              min_len: int | None = None, exact: bool = False) -> Meld:
    """Read ``cards`` as a meld of ``kind`` laid down as a contract meld, or raise
    :class:`MeldError` saying why not."""
    cards = tuple(cards)
    if any(c.is_joker and not rules.is_wild(c) for c in cards):
        raise MeldError(_DEAD_JOKER)
    if kind == "trio":
        meld = _read_trio(cards, rules, owner)
        shortest = 3 if min_len is None else min_len
        noun = "trío"
    else:
        meld = _read_sequence(cards, kind, rules, owner)
        shortest = (13 if kind != "escala" else 4) if min_len is None else min_len
        noun = "escala" if kind == "escala" else f"escala {kind}"
    article = "an" if noun.startswith("escala") else "a"
    if len(cards) < shortest:
        raise MeldError(f"{article} {noun} needs {shortest} cards, not {len(cards)}")
    if exact and len(cards) != shortest:
        raise MeldError(
            f"{article} {noun} is laid down with exactly {shortest} cards, not {len(cards)}"
        )
    cap = wild_limit(kind, rules)
    if cap is not None and meld.wild_count > cap:
        raise MeldError(_too_many_wilds(cap))
    return meld


_DEAD_JOKER = "the jokers are not wild in these rules: a joker fits no meld"


def _read_trio(cards: tuple[Card, ...], rules: RuleSet, owner: int) -> Meld:
    if len(cards) < 1:
        raise MeldError("a trío needs cards")
    fixed = {c.rank for c in cards if not rules.is_wild(c)}
    if len(fixed) > 1:
        # (A joker that is not wild was refused by read_meld; the rank 0 is a joker's.)
        ranks = sorted(fixed, key=lambda r: r or 99)
        names = ", ".join("JK" if r == 0 else RANKS[r - 1] for r in ranks)
        raise MeldError(f"a trío is cards of one rank, not {names}")
    if fixed:
        rank = fixed.pop()
    else:
        # Only wild cards: they can still be a trío of their own rank (three twos, or two red
        # aces and a two); the rank held most is the trío's.
        ranks = [c.rank for c in cards if not c.is_joker]
        if not ranks:
            raise MeldError("every meld needs at least one natural card")
        rank = max(sorted(set(ranks)), key=ranks.count)
    wild = tuple(c.is_joker or c.rank != rank for c in cards)
    if all(wild):
        raise MeldError("every meld needs at least one natural card")
    return Meld("trio", cards, wild, owner, rank=rank)


def _read_sequence(cards: tuple[Card, ...], kind: MeldKind, rules: RuleSet, owner: int) -> Meld:
    n = len(cards)
    if n > 13:
        raise MeldError("an escala has at most thirteen cards: no rank may appear twice")
    if kind == "escala":
        starts = range(1, 14) if rules.wrap else range(1, 16 - n)
        suits: Sequence[str] = _candidate_suits(cards, rules)
    else:
        starts = range(1, 2)  # sucia, real and colores run from the ace to the king
        if kind == "real":
            suits = _candidate_suits(cards, rules)
        else:
            suits = ("R", "B") if kind == "colores" else ("",)
    best: Meld | None = None
    for suit in suits:
        for start in starts:
            wild = _fit(cards, kind, suit, start, rules)
            if wild is None:
                continue
            if best is None or sum(wild) < best.wild_count:
                best = Meld(kind, cards, wild, owner, start=start, suit=suit)
    if best is None:
        raise MeldError(_sequence_reason(cards, kind, rules))
    if all(best.wild):
        raise MeldError("every meld needs at least one natural card")
    return best


def _candidate_suits(cards: tuple[Card, ...], rules: RuleSet) -> Sequence[str]:
    fixed = {c.suit for c in cards if not rules.is_wild(c)}
    if len(fixed) > 1:
        raise MeldError("an escala is cards of one suit")
    if fixed:
        return tuple(fixed)
    return tuple(s for s in SUITS if any(c.suit == s for c in cards)) or SUITS


def _fit(cards: tuple[Card, ...], kind: MeldKind, suit: str, start: int,
         rules: RuleSet) -> tuple[bool, ...] | None:
    """Which cards are wild if the sequence starts at ``start``; None if it cannot."""
    wild: list[bool] = []
    for i, card in enumerate(cards):
        rank = rank_at(start + i)
        if kind == "escala" or kind == "real":
            natural = not card.is_joker and card.rank == rank and card.suit == suit
        elif kind == "colores":
            natural = not card.is_joker and card.rank == rank and _colour_of(card) == \
                _colour_at(suit, i)
        else:
            natural = not card.is_joker and card.rank == rank
        if not natural and not rules.is_wild(card):
            return None
        wild.append(not natural)
    return tuple(wild)


def _sequence_reason(cards: tuple[Card, ...], kind: MeldKind, rules: RuleSet) -> str:
    if kind != "escala":
        what = {"sucia": "any suits", "real": "one suit", "colores": "alternating red and black"}
        return (f"an escala {kind} is the thirteen cards from the ace to the king, in order, "
                f"{what[kind]}")
    ranks = [c.rank for c in cards if not rules.is_wild(c)]
    if len(ranks) != len(set(ranks)):
        return "no rank may appear twice in an escala"
    if not rules.wrap and 1 in ranks and 13 in ranks:
        return "an escala may not turn the corner (K-A-2): the ace is low (A-2-3) or high (Q-K-A)"
    return "the cards of an escala follow each other in order, low to high"
