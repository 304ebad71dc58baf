"""Cards, their text notation and decks.

A card is written rank then suit, as in the record spec: ``10H``, ``QS``, ``AC``;
the joker is ``JK``. Copies of the same card from several decks are the same card,
so a card is a value (a small ``int``) and a deck is a multiset of them.

>>> Card.parse("10h")
Card('10H')
>>> str(Card.parse("T♠"))
'10S'
>>> Card.parse("JK").is_joker
True
>>> len(deck(decks=2, jokers_per_deck=2))
108
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from typing import Final


def quoted(value: object, most: int = 24) -> str:
    """``value`` as the input it was, quoted, for a message; cut short, since what was sent
    may be very long (a message quotes the input so a player sees what was wrong with it).
    JSON's words stay JSON's: a record's ``true`` or ``null`` is quoted so, not as Python's."""
    if value is None or isinstance(value, (bool, list, dict)):
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError, RecursionError):
            text = "[…]" if isinstance(value, list) else "{…}"
    else:
        text = repr(value)
    if len(text) <= most:
        return text
    return text[:most - 2] + "…" + (text[0] if isinstance(value, str) else "")


def named(names: Iterable[object], most: int = 6) -> str:
    """Field or option names for a message, in order, each cut short, and no more than
    ``most`` of them: a hostile document may hold thousands of long names.

    >>> named(["date", "x" * 40])
    'date, xxxxxxxxxxxxxxxxxxxxxx…'
    >>> named(map(str, range(9)), most=3)
    '0, 1, 2 and 6 more'
    """
    shown = [str(n) if len(str(n)) <= 24 else str(n)[:22] + "…" for n in names]
    more = f" and {len(shown) - most} more" if len(shown) > most else ""
    return ", ".join(shown[:most]) + more


__all__ = [
    "RANKS",
    "SUITS",
    "JOKER",
    "Card",
    "CardError",
    "ALL_CARDS",
    "deck",
    "parse_cards",
    "format_cards",
    "sort_by_rank",
    "sort_by_suit",
]

SUITS: Final = "SHDC"
"""Picas, corazones, diamantes, tréboles (the record's order)."""

RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Rank symbols; rank number ``i + 1`` (ace is 1, king 13)."""

SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SYMBOL_TO_SUIT: Final = {v: k for k, v in SUIT_SYMBOLS.items()} | {
    "♤": "S", "♡": "H", "♢": "D", "♧": "C",
}

_JOKER_CODE: Final = 52


class CardError(ValueError):
    """Text that is not a card."""


class Card(int):
    """One card, as a value: ``rank`` 1-13 (0 for the joker) and ``suit`` (``""`` for the joker).

    Instances are interned, so ``Card.parse("7H") is Card.parse("7h")``.
    """

    __slots__ = ()

    @property
    def rank(self) -> int:
        return 0 if self == _JOKER_CODE else int(self) % 13 + 1

    @property
    def suit(self) -> str:
        return "" if self == _JOKER_CODE else SUITS[int(self) // 13]

    @property
    def is_joker(self) -> bool:
        return self == _JOKER_CODE

    @property
    def is_red(self) -> bool:
        return self.suit in ("H", "D")

    @staticmethod
    def of(rank: int, suit: str) -> Card:
        """The card of a rank (1-13) and suit letter."""
        if not 1 <= rank <= 13 or suit not in SUITS or len(suit) != 1:
            raise CardError(f"no card has rank {rank} and suit {suit!r}")
        return ALL_CARDS[SUITS.index(suit) * 13 + rank - 1]

    @staticmethod
    def parse(text: str) -> Card:
        """Read a card: rank then suit (``10H``, ``th``, ``Q♠``) or ``JK``; case-insensitive."""
        if not isinstance(text, str):
            raise CardError(f"a card is written as text like '10H', not {quoted(text)}")
        found = _PARSE_CACHE.get(text)
        if found is not None:
            return found
        t = text.strip().upper()
        if t in ("JK", "JOKER", "🃏"):
            return JOKER
        if len(t) < 2:
            raise CardError(f"{quoted(text)} is not a card (write rank then suit, like 10H or JK)")
        rank_text, suit_text = t[:-1], t[-1]
        suit = _SYMBOL_TO_SUIT.get(suit_text, suit_text)
        if rank_text == "T":
            rank_text = "10"
        if rank_text not in RANKS or suit not in SUITS:
            raise CardError(f"{quoted(text)} is not a card (write rank then suit, like 10H or JK)")
        return Card.of(RANKS.index(rank_text) + 1, suit)

    def __str__(self) -> str:
        if self == _JOKER_CODE:
            return "JK"
        return RANKS[int(self) % 13] + SUITS[int(self) // 13]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def pretty(self) -> str:
        """With a suit symbol, for people: ``10♥``; the joker is ``🃏``."""
        if self == _JOKER_CODE:
            return "🃏"
        return RANKS[int(self) % 13] + SUIT_SYMBOLS[self.suit]

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (str(self),))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


ALL_CARDS: Final[tuple[Card, ...]] = tuple(int.__new__(Card, code) for code in range(53))
"""Every distinct card, by code: 0-51 are the suited cards (suit-major), 52 the joker."""

JOKER: Final = ALL_CARDS[_JOKER_CODE]

_PARSE_CACHE: Final[dict[str, Card]] = {}
for _c in ALL_CARDS:
    _PARSE_CACHE[str(_c)] = _c
    _PARSE_CACHE[str(_c).lower()] = _c


def parse_cards(texts: Iterable[str] | str) -> list[Card]:
    """Read several cards, from a list or a space/comma separated string.

    >>> parse_cards("7H 7s, JK")
    [Card('7H'), Card('7S'), Card('JK')]
    """
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    return [Card.parse(t) for t in texts]


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as record notation, space separated."""
    return " ".join(str(c) for c in cards)


def deck(decks: int, jokers_per_deck: int) -> list[Card]:
    """The full deck in canonical order: each 52-card pack in suit order, then its jokers."""
    one = list(ALL_CARDS[:52]) + [JOKER] * jokers_per_deck
    return one * decks


def deck_counts(decks: int, jokers_per_deck: int) -> Counter[Card]:
    """How many copies of each card the deck holds."""
    return Counter(deck(decks, jokers_per_deck))


def _rank_key(card: Card) -> tuple[int, int]:
    return (99, 0) if card.is_joker else (card.rank, SUITS.index(card.suit))


def _suit_key(card: Card) -> tuple[int, int]:
    return (99, 0) if card.is_joker else (SUITS.index(card.suit), card.rank)


def sort_by_rank(cards: Iterable[Card]) -> list[Card]:
    """Ace first, then 2 ... K, jokers last; suits break ties."""
    return sorted(cards, key=_rank_key)


def sort_by_suit(cards: Iterable[Card]) -> list[Card]:
    """Picas, corazones, diamantes, tréboles, each ace to king; jokers last."""
    return sorted(cards, key=_suit_key)
