"""A stand-in with the shape of ``carioca.Game``, so the harness can be checked on its own.

``python bench/bench_engine.py --fake`` uses it; it plays no Carioca. Each seat in turn draws
then discards from a shared deck, and the game ends after a fixed number of turns, so the
loop exercises ``is_over``, ``seat_to_act``, ``legal_actions`` and ``apply`` as the real
engine will, at about a microsecond per action.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class FakeScoreSheet:
    totals: list[int]


@dataclass
class FakeGame:
    players: int
    seed: int
    decks: int = 2
    turns: int = 200
    seat_to_act: int = 0
    _turn: int = 0
    _hands: list[list[int]] = field(default_factory=list)
    _stock: list[int] = field(default_factory=list)
    _drawn: bool = False

    def __post_init__(self) -> None:
        cards = list(range(54)) * self.decks
        random.Random(self.seed).shuffle(cards)
        self._hands = [sorted(cards[i * 12 : (i + 1) * 12]) for i in range(self.players)]
        self._stock = cards[self.players * 12 :]

    @property
    def is_over(self) -> bool:
        return self._turn >= self.turns

    def legal_actions(self, seat: int) -> list[tuple[str, int]]:
        if seat != self.seat_to_act:
            return []
        if not self._drawn:
            return [("draw", 0), ("draw", 1)]
        return [("discard", card) for card in self._hands[seat]]

    def apply(self, action: tuple[str, int]) -> None:
        kind, card = action
        hand = self._hands[self.seat_to_act]
        if kind == "draw":
            hand.append(self._stock.pop())
            hand.sort()
            self._drawn = True
            return
        hand.remove(card)
        self._stock.insert(0, card)  # back under the stock, so the stock never runs dry
        self._drawn = False
        self._turn += 1
        self.seat_to_act = (self.seat_to_act + 1) % self.players

    def score_sheet(self) -> FakeScoreSheet:
        return FakeScoreSheet([len(h) for h in self._hands])


def new_fake_game(players: int, seed: int, decks: int | None = None) -> FakeGame:
    return FakeGame(players=players, seed=seed, decks=decks or 2)
