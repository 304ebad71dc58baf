"""Actions: the moves of the game, as small frozen values with a text form and the record's
JSON form, both of which round-trip.

>>> a = Action.parse("bajar 7H 7S 7D / QS QH JK", seat=2)
>>> str(a)
'bajar 7H 7S 7D / QS QH JK'
>>> a.to_json()
{'p': 2, 'bajar': [['7H', '7S', '7D'], ['QS', 'QH', 'JK']]}
>>> Action.from_json({"p": 0, "agregar": {"card": "7c", "meld": 0}})
Agregar(seat=0, card=Card('7C'), meld=0, end=None)
>>> str(Action.parse("discard 10h", seat=1))
'discard 10H'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from .cards import ALL_CARDS, Card, CardError, quoted

__all__ = ["Action", "Draw", "Bajar", "Agregar", "Swap", "Discard", "Buy", "ActionError",
           "draw_action", "discard_action"]

End = Literal["low", "high"]
_KINDS = ("draw", "bajar", "agregar", "swap", "discard", "buy")


class ActionError(ValueError):
    """Text or JSON that is not an action."""


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action: ``seat`` is who acts."""

    seat: int
    kind: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError

    @staticmethod
    def from_json(data: Any, players: int | None = None) -> Action:
        """Read a record action (``{"p": 1, "draw": "mazo"}``); raise :class:`ActionError`."""
        if not isinstance(data, Mapping):
            raise ActionError("an action must be an object like {\"p\": 0, \"draw\": \"mazo\"}")
        seat = data.get("p")
        if "p" not in data:
            raise ActionError("an action needs 'p', the number of the seat that acts")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ActionError(f"'p' is the number of the seat that acts (0, 1, ...), "
                              f"not {quoted(seat)}")
        if players is not None and not 0 <= seat < players:
            raise ActionError(f"there is no seat {quoted(seat)}: seats are 0 to {players - 1}")
        kinds = [k for k in data if k != "p"]
        if len(kinds) != 1 or kinds[0] not in _KINDS:
            raise ActionError(
                "an action has 'p' and exactly one of " + ", ".join(_KINDS)
                + (f" (found {', '.join(str(k)[:20] for k in kinds[:5])})" if kinds else "")
            )
        kind = kinds[0]
        return _READERS[kind](seat, data[kind])

    @staticmethod
    def parse(text: str, seat: int) -> Action:
        """Read the text form: ``draw mazo``, ``bajar 7H 7S 7D / QS QH JK``,
        ``agregar 7C 0 [low|high]``, ``swap QD 1 [low|high]``, ``discard 9C``, ``buy``."""
        words = text.replace(",", " ").split()
        if not words:
            raise ActionError("say an action: draw, bajar, agregar, swap, discard or buy")
        kind, rest = words[0].lower(), words[1:]
        if kind == "draw" and len(rest) == 1:
            return _read_draw(seat, rest[0].lower())
        if kind == "bajar" and rest:
            groups = [g.split() for g in " ".join(rest).split("/")]
            if not all(groups):
                raise ActionError("a meld between the '/' is empty: write the melds split by "
                                  "'/', like 7H 7S 7D / QS QH JK")
            return _read_bajar(seat, groups)
        if kind in ("agregar", "swap") and len(rest) in (2, 3):
            # Said in the words typed, not the record's fields ('agregar.meld').
            body: dict[str, Any] = {"card": rest[0], "meld": _int(rest[1])}
            if len(rest) == 3:
                body["end"] = rest[2].lower()
                if body["end"] not in ("low", "high"):
                    raise ActionError(f"{quoted(rest[2])} is not an end of the escala: write "
                                      "low or high")
            return _READERS[kind](seat, body)
        if kind == "discard" and len(rest) == 1:
            return Discard(seat, _card(rest[0]))
        if kind == "buy" and not rest:
            return Buy(seat)
        raise ActionError(
            f"{quoted(text)} is not an action; try 'draw mazo', 'draw pozo', "
            "'bajar 7H 7S 7D / ...', 'agregar 7C 0', 'swap QD 1', 'discard 9C' or 'buy'"
        )


@dataclass(frozen=True, slots=True)
class Draw(Action):
    source: Literal["mazo", "pozo"] = "mazo"
    kind: ClassVar[str] = "draw"

    def to_json(self) -> dict[str, Any]:
        return {"p": self.seat, "draw": self.source}

    def __str__(self) -> str:
        return f"draw {self.source}"


@dataclass(frozen=True, slots=True)
class Bajar(Action):
    melds: tuple[tuple[Card, ...], ...] = ()
    kind: ClassVar[str] = "bajar"

    def to_json(self) -> dict[str, Any]:
        return {"p": self.seat, "bajar": [[str(c) for c in m] for m in self.melds]}

    def __str__(self) -> str:
        return "bajar " + " / ".join(" ".join(str(c) for c in m) for m in self.melds)

    @property
    def cards(self) -> list[Card]:
        return [c for m in self.melds for c in m]


@dataclass(frozen=True, slots=True)
class Agregar(Action):
    card: Card = ALL_CARDS[0]
    meld: int = 0
    end: End | None = None
    kind: ClassVar[str] = "agregar"

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"card": str(self.card), "meld": self.meld}
        if self.end is not None:
            body["end"] = self.end
        return {"p": self.seat, "agregar": body}

    def __str__(self) -> str:
        return f"agregar {self.card} {self.meld}" + (f" {self.end}" if self.end else "")


@dataclass(frozen=True, slots=True)
class Swap(Action):
    card: Card = ALL_CARDS[0]
    meld: int = 0
    end: End | None = None
    kind: ClassVar[str] = "swap"

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"card": str(self.card), "meld": self.meld}
        if self.end is not None:
            body["end"] = self.end
        return {"p": self.seat, "swap": body}

    def __str__(self) -> str:
        return f"swap {self.card} {self.meld}" + (f" {self.end}" if self.end else "")


@dataclass(frozen=True, slots=True)
class Discard(Action):
    card: Card = ALL_CARDS[0]
    kind: ClassVar[str] = "discard"

    def to_json(self) -> dict[str, Any]:
        return {"p": self.seat, "discard": str(self.card)}

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Buy(Action):
    kind: ClassVar[str] = "buy"

    def to_json(self) -> dict[str, Any]:
        return {"p": self.seat, "buy": True}

    def __str__(self) -> str:
        return "buy"


# --------------------------------------------------------------------------- readers

def _card(text: Any) -> Card:
    try:
        return Card.parse(text)
    except CardError as exc:
        raise ActionError(str(exc)) from None


def _int(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        number = -1
    if number < 0:
        raise ActionError(f"{quoted(text)} is not a meld number (melds are numbered from 0)")
    return number


def _word(body: Any) -> Any:
    """A word of the notation (``mazo``, ``pozo``, ``low``, ``high``), read in any case as
    cards are (docs/rulings.md, 32)."""
    return body.strip().lower() if isinstance(body, str) else body


def _read_draw(seat: int, body: Any) -> Draw:
    body = _word(body)
    if body not in ("mazo", "pozo"):
        raise ActionError(f"draw from the 'mazo' or the 'pozo', not {quoted(body)}")
    return Draw(seat, body)


def _read_bajar(seat: int, body: Any) -> Bajar:
    if not isinstance(body, Sequence) or isinstance(body, str) or not body:
        raise ActionError("'bajar' is a list of melds, each a list of cards")
    melds = []
    for meld in body:
        if not isinstance(meld, Sequence) or isinstance(meld, str) or not meld:
            raise ActionError("'bajar' is a list of melds, each a non-empty list of cards")
        melds.append(tuple(_card(c) for c in meld))
    return Bajar(seat, tuple(melds))


def _read_placed(seat: int, body: Any, cls: type[Agregar] | type[Swap]) -> Agregar | Swap:
    name = cls.kind
    if not isinstance(body, Mapping):
        raise ActionError(f"'{name}' is an object like {{\"card\": \"7C\", \"meld\": 0}}")
    extra = set(body) - {"card", "meld", "end"}
    if extra:
        fields = ", ".join(quoted(f) for f in sorted(map(str, extra))[:5])
        raise ActionError(f"'{name}' has unknown field(s): {fields}")
    if "card" not in body or "meld" not in body:
        raise ActionError(f"'{name}' needs a 'card' and a 'meld' number")
    meld = body["meld"]
    if not isinstance(meld, int) or isinstance(meld, bool) or meld < 0:
        raise ActionError(f"'{name}.meld' must be a meld number from 0, not {quoted(meld)}")
    end = _word(body.get("end"))
    if end is not None and end not in ("low", "high"):
        raise ActionError(f"'{name}.end' is 'low' or 'high', not {quoted(end)}")
    return cls(seat, _card(body["card"]), meld, end)


def _read_discard(seat: int, body: Any) -> Discard:
    return Discard(seat, _card(body))


def _read_buy(seat: int, body: Any) -> Buy:
    if body is not True:
        raise ActionError("'buy' must be true")
    return Buy(seat)


_READERS: dict[str, Callable[[int, Any], Action]] = {
    "draw": _read_draw,
    "bajar": _read_bajar,
    "agregar": lambda seat, body: _read_placed(seat, body, Agregar),
    "swap": lambda seat, body: _read_placed(seat, body, Swap),
    "discard": _read_discard,
    "buy": _read_buy,
}

# Interned actions for the hot path: drawing and discarding happen every turn.
_DRAWS: dict[tuple[int, str], Draw] = {
    (s, "mazo"): Draw(s, "mazo") for s in range(8)
} | {
    (s, "pozo"): Draw(s, "pozo") for s in range(8)
}
_DISCARDS = [[Discard(s, c) for c in ALL_CARDS] for s in range(8)]


def draw_action(seat: int, source: str) -> Draw:
    return _DRAWS[(seat, source)]


def discard_action(seat: int, card: Card) -> Discard:
    return _DISCARDS[seat][card]
