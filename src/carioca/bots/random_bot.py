"""The random bot: picks uniformly among the legal actions it is given.

>>> from carioca import Game, RuleSet
>>> game = Game.new(RuleSet.preset("chile"), ["Ana", "Beto"], seed=1)
>>> bot = RandomBot(seed=5)
>>> seat = game.seat_to_act
>>> action = bot.choose(game.view(seat), game.legal_actions(seat))
>>> action.kind
'draw'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ..actions import Action
from ..engine import View

__all__ = ["Bot", "Buyer", "RandomBot"]


@runtime_checkable
class Bot(Protocol):
    """A player the computer plays. It decides from what its seat may see (``game.view(seat)``)
    and the actions the rules allow it now (``game.legal_actions(seat)``), nothing else."""

    name: str
    description: str

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """One of ``legal`` (a face asks only when ``legal`` is not empty)."""
        ...


@runtime_checkable
class Buyer(Protocol):
    """A bot that may also buy out of turn. A face asks, when the rules allow buying and the
    pozo top may be bought, whether the bot wants it (``legal`` then holds the ``Buy``). A bot
    that is not a ``Buyer`` never buys."""

    def wants_to_buy(self, view: View, legal: Sequence[Action]) -> bool:
        ...


class RandomBot:
    """Picks uniformly among the legal actions; out of turn, buys or lets the card pass with
    even odds. With the same seed and the same questions it makes the same choices."""

    name: str = "random"
    description: str = "Picks any legal move at random (elige al azar una jugada permitida)."

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("the bot was asked to move with no legal action")
        return legal[self._rng.randrange(len(legal))]

    def wants_to_buy(self, view: View, legal: Sequence[Action]) -> bool:
        return any(a.kind == "buy" for a in legal) and self._rng.random() < 0.5

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed!r})"
