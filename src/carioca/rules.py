"""Rule sets: every dimension of the game as data, and the named presets.

A :class:`RuleSet` is frozen and keyword-only, and refuses at construction any rules that
cannot be played, with a message that says why. Variants are presets of options, never
subclasses:

>>> chile = RuleSet.preset("chile")
>>> [str(r.contracts[0]) for r in chile.rounds][:3]
['2T', '1T+1E', '2E']
>>> RuleSet.preset("chile", buying="penalty_card").buying
'penalty_card'
>>> RuleSet.preset("chile", bying="off")
Traceback (most recent call last):
...
carioca.rules.RulesError: unknown option 'bying' (did you mean 'buying'?)
"""

from __future__ import annotations

import dataclasses
import difflib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from .cards import ALL_CARDS, RANKS, Card, named, quoted

__all__ = [
    "RulesError",
    "MeldSpec",
    "Contract",
    "RoundDef",
    "RuleSet",
    "PRESETS",
    "OPTION_NAMES",
]

MeldKind = Literal["trio", "escala", "sucia", "real", "colores"]
Buying = Literal["off", "penalty_card", "penalty_points"]
Replacement = Literal["off", "take", "anyone", "relocate"]
Scoring = Literal["points", "rounds"]
TieBreak = Literal["share", "most_outs", "extra_round"]

WILD_KINDS: Final = ("jokers", "twos", "red_aces")
VALUE_KEYS: Final = (*RANKS, "JK")


class RulesError(ValueError):
    """Rules that cannot be played, or options that do not exist or have a bad value."""


# --------------------------------------------------------------------------- contracts

_KIND_LETTER: Final[dict[str, str]] = {
    "trio": "T", "escala": "E", "sucia": "ES", "real": "ER", "colores": "EC",
}
_FULL_LENGTH: Final = 13  # escala sucia, real and de colores run from the ace to the king


@dataclass(frozen=True, slots=True)
class MeldSpec:
    """One meld a contract asks for: its kind and its shortest length when laid down."""

    kind: MeldKind
    min_len: int

    @property
    def is_sequence(self) -> bool:
        return self.kind != "trio"

    def words(self, lang: str = "en") -> str:
        es = lang == "es"
        if self.kind == "trio":
            return "trío"
        if self.kind == "escala":
            return f"escala de {self.min_len}" if es else f"escala of {self.min_len}"
        names = {"sucia": "escala sucia", "real": "escala real", "colores": "escala de colores"}
        return names[self.kind]


_DIGITS = "0123456789"

MAX_CONTRACT_MELDS = 20
"""More melds than any hand could hold: a bigger count is refused before it is built."""

MAX_ROUNDS = 100
"""The most rounds a game may list (the longest preset has 10; a round may come again): more
would only make every message about the game huge."""


def _is_length(text: str) -> bool:
    """An escala's length as written after its E: one to three ASCII digits."""
    return 0 < len(text) <= 3 and all(c in _DIGITS for c in text)


@dataclass(frozen=True, slots=True)
class Contract:
    """The melds a round requires, in the order they are written (``1T+2E``)."""

    melds: tuple[MeldSpec, ...]

    @staticmethod
    def parse(text: str, escala_len: int = 4) -> Contract:
        """Read ``2T``, ``1T+2E``, ``2E3`` (escalas of 3), ``ES``, ``ER``, ``EC``.

        >>> Contract.parse("1T+2E").min_cards
        11
        >>> str(Contract.parse("2e3"))
        '2E3'
        """
        melds: list[MeldSpec] = []
        for raw in text.upper().replace(" ", "").split("+"):
            if not raw:
                raise RulesError(f"contract {quoted(text, 40)} has an empty part")
            count_text = ""
            while raw and raw[0] in _DIGITS:  # ASCII only: str.isdigit() takes "²" too
                count_text, raw = count_text + raw[0], raw[1:]
            count = int(count_text[:4]) if count_text else 1  # 4 digits tell it is too many
            if count > MAX_CONTRACT_MELDS:
                many = count_text if len(count_text) <= 9 else count_text[:9] + "…"
                raise RulesError(f"contract {quoted(text, 40)} asks for {many} melds: a "
                                 f"contract has at most {MAX_CONTRACT_MELDS}")
            spec: MeldSpec
            if raw in ("ES", "ER", "EC"):
                kind: MeldKind = {"ES": "sucia", "ER": "real", "EC": "colores"}[raw]  # type: ignore[assignment]
                spec = MeldSpec(kind, _FULL_LENGTH)
            elif raw == "T":
                spec = MeldSpec("trio", 3)
            elif raw.startswith("E") and (_is_length(raw[1:]) or raw == "E"):
                spec = MeldSpec("escala", int(raw[1:]) if raw[1:] else escala_len)
            else:
                raise RulesError(
                    f"contract {quoted(text, 40)}: {quoted(raw)} is not a meld "
                    "(use T, E, E3, ES, ER or EC)"
                )
            if count < 1:
                raise RulesError(f"contract {quoted(text, 40)} asks for no {raw}")
            melds.extend([spec] * count)
        return Contract(tuple(melds))

    @property
    def min_cards(self) -> int:
        return sum(m.min_len for m in self.melds)

    def __str__(self) -> str:
        parts: list[str] = []
        i = 0
        while i < len(self.melds):
            spec = self.melds[i]
            j = i
            while j < len(self.melds) and self.melds[j] == spec:
                j += 1
            letter = _KIND_LETTER[spec.kind]
            if spec.kind in ("sucia", "real", "colores"):
                parts.extend([letter] * (j - i))
            else:
                suffix = str(spec.min_len) if spec.kind == "escala" and spec.min_len != 4 else ""
                parts.append(f"{j - i}{letter}{suffix}")
            i = j
        return "+".join(parts)

    def words(self, lang: str = "en") -> str:
        """``two tríos and one escala of 4`` / ``dos tríos y una escala de 4``."""
        counts: dict[MeldSpec, int] = {}
        for m in self.melds:
            counts[m] = counts.get(m, 0) + 1
        es = lang == "es"
        numbers = (
            ["", "una", "dos", "tres", "cuatro", "cinco"]
            if es
            else ["", "one", "two", "three", "four", "five"]
        )
        parts = []
        for spec, n in counts.items():
            noun = spec.words(lang)
            if n > 1:
                noun = noun.replace("trío", "tríos").replace("escala ", "escalas ", 1)
            num = numbers[n] if n < len(numbers) else str(n)
            if es and spec.kind == "trio" and n == 1:
                num = "un"
            parts.append(f"{num} {noun}")
        joiner = " y " if es else " and "
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + joiner + parts[-1]


@dataclass(frozen=True, slots=True)
class RoundDef:
    """One round: its contract (with alternatives), the hand dealt, and whether the player who
    bajarse must go out in that same turn."""

    contracts: tuple[Contract, ...]
    hand_size: int
    go_out_at_once: bool = False

    @property
    def contract(self) -> Contract:
        return self.contracts[0]

    def __str__(self) -> str:
        return " | ".join(str(c) for c in self.contracts)


def _rounds(spec: str, hand_sizes: Sequence[int], at_once: Sequence[int] = (),
            escala_len: int = 4) -> tuple[RoundDef, ...]:
    out = []
    for i, text in enumerate(spec.split()):
        contracts = tuple(Contract.parse(c, escala_len) for c in text.split("|"))
        out.append(RoundDef(contracts, hand_sizes[i], (i + 1) in at_once))
    return tuple(out)


# --------------------------------------------------------------------------- values

def _values(ace: int, joker: int, two: int | None = None) -> tuple[tuple[str, int], ...]:
    """2-10 at face value, J Q K 10, and the given ace, joker and (wild) two."""
    table = {r: min(i + 1, 10) for i, r in enumerate(RANKS)}
    table["A"] = ace
    if two is not None:
        table["2"] = two
    table["JK"] = joker
    return tuple(table.items())


# --------------------------------------------------------------------------- the rule set

@dataclass(frozen=True, kw_only=True, slots=True)
class RuleSet:
    """Every rule of a game of Carioca. Build one with :meth:`preset` or by keywords.

    The option names are the public names of docs/RULES.md (a record's ``rules.options`` uses them),
    plus a few of this engine's own (``contracts``, ``hand_size``, ``exact_melds``, ...).
    """

    preset_name: str = "custom"
    options: tuple[tuple[str, Any], ...] = ()
    """The options changed from the preset, as given (for records)."""

    rounds: tuple[RoundDef, ...]
    min_players: int = 2
    max_players: int = 6
    decks: int | None = None
    """Packs of 52; ``None`` picks by the number of players (see ``third_deck_from``)."""
    third_deck_from: int = 6
    """With ``decks=None``: two packs, three from this many players on (0: never)."""
    jokers: int = 2
    """Jokers per pack."""
    wilds: frozenset[str] = frozenset({"jokers"})
    max_wilds_per_meld: int | None = 1
    wild_limit_on_layoff: bool = True
    wrap: bool = False
    layoff_same_turn: bool = False
    go_out_by_layoff: bool = True
    partial_contracts: bool = False
    joker_replacement: Replacement = "take"
    out_score: int = 0
    instant_out_score: int | None = None
    """What an instant out ("irse de una") scores; None: the same as any out (``out_score``)."""
    values: tuple[tuple[str, int], ...] = _values(ace=20, joker=50)
    buying: Buying = "off"
    max_buys_per_round: int = 3
    steal_points: int = 2
    scoring: Scoring = "points"
    tie_break: TieBreak = "share"
    exact_melds: bool = False
    bury_wild_first_discard: bool = False
    open_hands: bool = False
    undo: bool = False
    max_reshuffles: int | None = None
    """How often a round may rebuild the mazo from the pozo; None: as often as it runs out."""
    max_turns_per_round: int = 600
    extra_rounds_cap: int = 3

    _value_by_code: tuple[int, ...] = field(default=(), repr=False, compare=False)
    _wild_by_code: tuple[bool, ...] = field(default=(), repr=False, compare=False)
    wild_codes: tuple[int, ...] = field(default=(), repr=False, compare=False)
    """Codes of the cards that are wild under these rules (derived)."""

    def __post_init__(self) -> None:
        self._validate()
        vals = dict(self.values)
        by_code = []
        wild = []
        for card in ALL_CARDS:
            by_code.append(vals["JK"] if card.is_joker else vals[RANKS[card.rank - 1]])
            wild.append(self._is_wild_kind(card))
        object.__setattr__(self, "_value_by_code", tuple(by_code))
        object.__setattr__(self, "_wild_by_code", tuple(wild))
        object.__setattr__(self, "wild_codes", tuple(i for i, w in enumerate(wild) if w))

    # ----------------------------------------------------------------- questions

    def out_points(self, instant: bool) -> int:
        """What the player who goes out scores: ``instant_out_score`` for an instant out where
        the rules set it, else ``out_score``.

        >>> RuleSet.preset("online").out_points(instant=True)
        -10
        >>> RuleSet.preset("chile", out_score=-10).out_points(instant=True)
        -10
        """
        if instant and self.instant_out_score is not None:
            return self.instant_out_score
        return self.out_score

    def value(self, card: Card) -> int:
        """Penalty points of a card left in hand."""
        return self._value_by_code[card]

    def is_wild(self, card: Card) -> bool:
        """Whether the card may stand for another (it may still be natural at its own place)."""
        return self._wild_by_code[card]

    def _is_wild_kind(self, card: Card) -> bool:
        if card.is_joker:
            return "jokers" in self.wilds
        if card.rank == 2 and "twos" in self.wilds:
            return True
        return card.rank == 1 and card.suit in ("H", "D") and "red_aces" in self.wilds

    def deck_for(self, players: int) -> tuple[int, int]:
        """(packs, jokers per pack) for a table of this many players."""
        if self.decks is not None:
            return self.decks, self.jokers
        packs = 3 if self.third_deck_from and players >= self.third_deck_from else 2
        return packs, self.jokers

    def check_players(self, players: int) -> None:
        """Raise :class:`RulesError` unless a game for this many players can be dealt."""
        if not self.min_players <= players <= self.max_players:
            raise RulesError(
                f"{self.preset_name} is played by {self.min_players} to {self.max_players} "
                f"players, not {players}"
            )
        packs, jokers = self.deck_for(players)
        size = packs * (52 + jokers)
        for i, rnd in enumerate(self.rounds, 1):
            need = players * rnd.hand_size + 1
            if need > size:
                raise RulesError(
                    f"round {i} deals {rnd.hand_size} cards to {players} players and turns one "
                    f"up: {need} cards, but the deck has only {size}; add a deck"
                )

    @property
    def option_dict(self) -> dict[str, Any]:
        return dict(self.options)

    def to_dict(self) -> dict[str, Any]:
        """The record's ``rules`` object."""
        return {"preset": self.preset_name, "options": _jsonable(self.option_dict)}

    # ----------------------------------------------------------------- building

    @staticmethod
    def preset(name: str, /, **options: Any) -> RuleSet:
        """A named preset, with any options changed (see :data:`OPTION_NAMES`)."""
        key = str(name).strip().lower()
        if key not in PRESETS:
            close = difflib.get_close_matches(key, PRESETS, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise RulesError(
                f"unknown preset {quoted(str(name))}{hint}; the presets are: {', '.join(PRESETS)}"
            )
        base = PRESETS[key]
        return base.with_options(**options)

    @staticmethod
    def from_dict(data: Any) -> RuleSet:
        """From a record's ``rules`` object: ``{"preset": ..., "options": {...}}``."""
        if not isinstance(data, Mapping):
            raise RulesError("'rules' must be an object with a 'preset' and optional 'options'")
        # An option may also stand beside the preset ({"preset": "chile", "rounds": [2]}), as
        # the record spec's wording allows; any other field is refused (ruling 31).
        beside = {k: v for k, v in data.items() if k in OPTION_NAMES}
        unknown = set(data) - {"preset", "options"} - set(beside)
        if unknown:
            raise RulesError(f"'rules' has unknown field(s): {named(sorted(map(str, unknown)))}")
        if "preset" not in data:
            raise RulesError("'rules' needs a 'preset' (one of: " + ", ".join(PRESETS) + ")")
        if not isinstance(data["preset"], str):
            raise RulesError("'rules.preset' must be a preset name")
        options = data.get("options", {})
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise RulesError("'rules.options' must be an object of option names and values")
        if not all(isinstance(k, str) for k in options):
            raise RulesError("'rules.options' names its options with strings")
        twice = sorted(set(beside) & set(options))
        if twice:
            raise RulesError(f"'rules' gives {', '.join(twice)} twice: beside the preset and in "
                             "'options'")
        return RuleSet.preset(data["preset"], **dict(options), **beside)

    def with_options(self, /, **options: Any) -> RuleSet:
        """This rule set with options changed; every value is checked."""
        base = PRESETS.get(self.preset_name)
        if self.options and base is not None:
            # Rebuild from the preset with every option so far, so round options given in
            # different calls combine the same way as in one call (and as in the record).
            return base.with_options(**{**dict(self.options), **options})
        # null for a round option means "as the preset": it changes nothing, so it is not kept
        options = {k: v for k, v in options.items()
                   if not (v is None and k in ("rounds", "contracts", "hand_size"))}
        changes: dict[str, Any] = {}
        full_rounds = _PRESET_ROUNDS.get(self.preset_name, self.rounds)
        rounds_pick: Any = None
        contracts: Any = None
        hand_size: Any = None
        for name, value in options.items():
            if name not in OPTION_NAMES:
                close = difflib.get_close_matches(name, OPTION_NAMES, n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                raise RulesError(f"unknown option {quoted(name)}{hint}")
            if name == "rounds":
                rounds_pick = value
            elif name == "contracts":
                contracts = value
            elif name == "hand_size":
                hand_size = value
            else:
                changes[name] = _convert_option(name, value, self)
        rounds = self.rounds
        if contracts is not None:
            rounds = _contracts_option(contracts, rounds)
            full_rounds = rounds
        if rounds_pick is not None:
            rounds = _pick_rounds(rounds_pick, full_rounds)
        if hand_size is not None:
            rounds = _hand_size_option(hand_size, rounds)
        merged = dict(self.options)
        merged.update({k: _jsonable(v) for k, v in options.items()})
        if "wilds" in changes:
            merged["wilds"] = sorted(changes["wilds"])  # as the record writes them: "red_aces"
        for name, value in changes.items():
            if value is None:
                merged[name] = None  # "unlimited", "auto", "none" are written as null
        return dataclasses.replace(
            self, rounds=rounds, options=tuple(merged.items()), **changes
        )

    # ----------------------------------------------------------------- validation

    def _validate(self) -> None:
        if not self.rounds:
            raise RulesError("the rules have no rounds to play")
        if self.min_players > self.max_players:
            raise RulesError(f"min_players ({self.min_players}) cannot be more than "
                             f"max_players ({self.max_players})")
        if not 2 <= self.min_players <= self.max_players <= 8:
            raise RulesError("a table has 2 to 8 players")
        if self.decks is not None and not 1 <= self.decks <= 4:
            raise RulesError("'decks' must be 1 to 4 packs")
        if not 0 <= self.jokers <= 4:
            raise RulesError("'jokers' (per pack) must be 0 to 4")
        bad = set(self.wilds) - set(WILD_KINDS)
        if bad:
            raise RulesError(
                f"'wilds' may hold {', '.join(WILD_KINDS)}; not {', '.join(sorted(bad))}"
            )
        if self.max_wilds_per_meld is not None and self.max_wilds_per_meld < 0:
            raise RulesError("'max_wilds_per_meld' must be 0 or more, or null for no limit")
        vals = dict(self.values)
        missing = [k for k in VALUE_KEYS if k not in vals]
        if missing:
            raise RulesError(f"the value table lacks {', '.join(missing)}")
        for i, rnd in enumerate(self.rounds, 1):
            self._validate_round(i, rnd)

    def _validate_round(self, number: int, rnd: RoundDef) -> None:
        if not 1 <= rnd.hand_size <= 13:
            raise RulesError(f"round {number} deals {rnd.hand_size} cards; deal 1 to 13")
        # A hand holds what was dealt plus the card drawn; without going out by laying off,
        # one card must stay back for the last discard.
        room = rnd.hand_size + 1 - (0 if self.go_out_by_layoff else 1)
        for contract in rnd.contracts:
            for spec in contract.melds:
                if spec.kind == "escala" and not 3 <= spec.min_len <= 13:
                    raise RulesError(
                        f"round {number}: an escala must be 3 to 13 cards long, "
                        f"not {spec.min_len}"
                    )
            need = contract.min_cards
            if need > room:
                held = rnd.hand_size + 1
                why = (
                    f"{contract.words()} {'needs' if len(contract.melds) == 1 else 'need'} "
                    f"at least {need} cards, but a hand never holds "
                    f"more than {held}"
                )
                if not self.go_out_by_layoff and need == held:
                    why += " and one card must be kept for the last discard"
                raise RulesError(
                    f"round {number} ({contract}) can never be played: {why}"
                )


def _jsonable(value: Any) -> Any:
    if isinstance(value, (frozenset, set)):
        return sorted(value)
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


# --------------------------------------------------------------------------- options

def parse_option_texts(items: Iterable[str] | None, flag: str = "--set") -> dict[str, Any]:
    """Options written as ``name=value`` (``--set`` on the command line): each value is read
    as JSON when it can be, else kept as text.

    >>> parse_option_texts(["rounds=[1, 3]", "buying=penalty_card", "wrap=true"])
    {'rounds': [1, 3], 'buying': 'penalty_card', 'wrap': True}
    """
    options: dict[str, Any] = {}
    for item in items or ():
        name, sep, raw = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise RulesError(f"{flag} takes option=value, not {quoted(item, 40)}")
        raw = raw.strip()
        try:
            value: Any = json.loads(raw)
        except ValueError:
            value = raw
        except RecursionError:
            raise RulesError(f"option {quoted(name)} is nested too deeply to read") from None
        if name in options and json.dumps(options[name], sort_keys=True) != json.dumps(
                value, sort_keys=True):
            # two values for one option (true is not 1): which was meant is the person's to say
            raise RulesError(f"{flag} gives option {quoted(name)} two different values: keep one")
        options[name] = value
    return options


OPTION_NAMES: Final = (
    "rounds", "buying", "max_buys_per_round", "scoring", "tie_break", "max_wilds_per_meld",
    "wild_limit_on_layoff", "wrap", "layoff_same_turn", "go_out_by_layoff",
    "partial_contracts", "joker_replacement", "out_score", "instant_out_score", "values",
    "decks", "jokers", "wilds", "open_hands",
    # this engine's own
    "contracts", "hand_size", "exact_melds", "bury_wild_first_discard", "steal_points",
    "undo", "max_reshuffles", "max_turns_per_round", "min_players", "max_players",
    "third_deck_from",
)

_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "buying": ("off", "penalty_card", "penalty_points"),
    "scoring": ("points", "rounds"),
    "tie_break": ("share", "most_outs", "extra_round"),
    "joker_replacement": ("off", "take", "anyone", "relocate"),
}
_BOOLS: Final = (
    "wild_limit_on_layoff", "wrap", "layoff_same_turn", "go_out_by_layoff", "partial_contracts",
    "open_hands", "exact_melds", "bury_wild_first_discard", "undo",
)
NULLABLE_OPTIONS: Final[dict[str, tuple[str, ...]]] = {
    "max_wilds_per_meld": ("none", "unlimited"),  # null: no limit
    "decks": ("auto",),  # null: two packs, three from third_deck_from players
    "max_reshuffles": ("none", "unlimited"),  # null: whenever the mazo runs out (RULES.md)
    "instant_out_score": (),  # null: as any out, so a house's out_score counts at once too
}
"""The options that may be null, with the words also read as null."""

INT_RANGES: Final[dict[str, tuple[int, int]]] = {
    "max_buys_per_round": (0, 20),
    "out_score": (-1000, 1000),
    "instant_out_score": (-1000, 1000),
    "steal_points": (0, 1000),
    "jokers": (0, 4),
    "max_reshuffles": (0, 50),
    "max_turns_per_round": (10, 100_000),
    "min_players": (2, 8),
    "max_players": (2, 8),
    "third_deck_from": (0, 8),
}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _convert_option(name: str, value: Any, base: RuleSet) -> Any:
    if name in _CHOICES:
        if value not in _CHOICES[name]:
            raise RulesError(
                f"option '{name}' must be one of {', '.join(_CHOICES[name])}, not {_shown(value)}"
            )
        return value
    if name in _BOOLS:
        if not isinstance(value, bool):
            raise RulesError(f"option '{name}' must be true or false, not {_shown(value)}")
        return value
    if name in NULLABLE_OPTIONS and (value is None or value in NULLABLE_OPTIONS[name]):
        return None
    if name in INT_RANGES:
        lo, hi = INT_RANGES[name]
        if not _is_int(value) or not lo <= value <= hi:
            raise RulesError(f"option '{name}' must be a whole number from {lo} to {hi}, "
                             f"not {_shown(value)}")
        return value
    if name == "max_wilds_per_meld":
        if not _is_int(value) or not 0 <= value <= 20:
            raise RulesError(
                f"option 'max_wilds_per_meld' must be a number from 0 up, or null for no limit, "
                f"not {_shown(value)}"
            )
        return value
    if name == "decks":
        if not _is_int(value) or not 1 <= value <= 4:
            raise RulesError(f"option 'decks' must be 1 to 4 packs, not {_shown(value)}")
        return value
    if name == "wilds":
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, (list, tuple, set, frozenset)) or not all(
            isinstance(v, str) for v in value
        ):
            raise RulesError(
                f"option 'wilds' must be a list drawn from {', '.join(WILD_KINDS)}"
            )
        value = [_wild_kind(v) for v in value]
        bad = [v for v in value if v not in WILD_KINDS]
        if bad:
            raise RulesError(
                f"option 'wilds' may hold {', '.join(WILD_KINDS)}; not {named(bad)}"
            )
        return frozenset(value)
    if name == "values":
        if not isinstance(value, Mapping):
            raise RulesError("option 'values' must map cards (A, 2 ... K, JK) to points")
        table = dict(base.values)
        for k, v in value.items():
            key = str(k).upper()
            key = "10" if key == "T" else key
            key = "JK" if key in ("JOKER", "COMODIN", "COMODÍN") else key
            if key not in VALUE_KEYS:
                raise RulesError(
                    f"option 'values': {quoted(k)} is not a card rank "
                    "(use A, 2 ... 10, J, Q, K, JK)"
                )
            if not _is_int(v) or not 0 <= v <= 1000:
                raise RulesError(f"option 'values': {key} must be worth 0 to 1000 points, "
                                 f"not {_shown(v)}")
            table[key] = v
        return tuple(table.items())
    raise RulesError(f"unknown option '{name}'")  # pragma: no cover - guarded by OPTION_NAMES


def _wild_kind(word: str) -> str:
    """A kind of wild card as people write it: RULES.md's "red aces", "Red-Aces", "joker"."""
    key = "_".join(word.strip().lower().replace("-", " ").split())
    return {"joker": "jokers", "two": "twos", "red_ace": "red_aces"}.get(key, key)


def _shown(value: Any) -> str:
    """A value in an error message as the record (JSON) writes it: null, true, false, a list;
    any other value as Python shows it ('x', 12); cut short, as what was sent may be long."""
    return quoted(value, 40)


def _pick_rounds(value: Any, full: tuple[RoundDef, ...]) -> tuple[RoundDef, ...]:
    if not isinstance(value, (list, tuple)) or not value or not all(_is_int(v) for v in value):
        raise RulesError(
            f"option 'rounds' must be a list of round numbers from 1 to {len(full)}, "
            f"like [1, 3, 5, 7]"
        )
    _at_most_rounds("rounds", value)
    for v in value:
        if not 1 <= v <= len(full):
            raise RulesError(f"option 'rounds': there is no round {v}; "
                             f"these rules have rounds 1 to {len(full)}")
    return tuple(full[v - 1] for v in value)


def _contracts_option(value: Any, current: tuple[RoundDef, ...]) -> tuple[RoundDef, ...]:
    if not isinstance(value, (list, tuple)) or not value or not all(
        isinstance(v, str) for v in value
    ):
        raise RulesError("option 'contracts' must be a list like [\"2T\", \"1T+1E\", \"4T|4E\"]")
    _at_most_rounds("contracts", value)
    default_hand = current[0].hand_size if current else 12
    out = []
    for i, text in enumerate(value):
        at_once = text.endswith("!")
        contracts = tuple(Contract.parse(c) for c in text.rstrip("!").split("|"))
        hand = current[i].hand_size if i < len(current) else default_hand
        out.append(RoundDef(contracts, hand, at_once))
    return tuple(out)


def _at_most_rounds(option: str, value: Sequence[Any]) -> None:
    if len(value) > MAX_ROUNDS:
        raise RulesError(f"option '{option}' lists {len(value)} rounds: a game has at most "
                         f"{MAX_ROUNDS}")


def _hand_size_option(value: Any, rounds: tuple[RoundDef, ...]) -> tuple[RoundDef, ...]:
    if _is_int(value):
        sizes = [value] * len(rounds)
    elif isinstance(value, (list, tuple)) and len(value) == len(rounds) and all(
        _is_int(v) for v in value
    ):
        sizes = list(value)
    else:
        raise RulesError(
            f"option 'hand_size' must be a number, or a list of {len(rounds)} numbers "
            f"(one per round)"
        )
    return tuple(dataclasses.replace(r, hand_size=s) for r, s in zip(rounds, sizes, strict=True))


# --------------------------------------------------------------------------- presets

_CHILE_8 = "2T 1T+1E 2E 3T 2T+1E 1T+2E 3E 4T"

_PRESET_ROUNDS: dict[str, tuple[RoundDef, ...]] = {
    "chile": _rounds(_CHILE_8, [12] * 8, at_once=(7, 8)),
    "chile-10": _rounds(_CHILE_8 + " ES ER", [12] * 10, at_once=(7, 8, 9, 10)),
    "dos-libres": _rounds(_CHILE_8, [11] * 7 + [13], at_once=(8,)),
    "argentina": _rounds("2T 1T+1E 2E 3T 2T+1E 1T+2E 3E", [11] * 7),
    "rumi": _rounds(_CHILE_8, [12] * 8, at_once=(7, 8)),
    "chico": _rounds("2T 2E 2T+1E 3E", [12] * 4, at_once=(4,)),
    "familia": _rounds("2T 1T+1E 2E 3T", [12] * 4, escala_len=3),
    "online": _rounds("2T 1E+1T 2E 3T 2T+1E 2E+1T 3E ER", [11] * 6 + [12, 13], at_once=(7, 8)),
}

PRESETS: dict[str, RuleSet] = {
    "chile": RuleSet(
        preset_name="chile", rounds=_PRESET_ROUNDS["chile"], max_players=8,
    ),
    "chile-10": RuleSet(
        preset_name="chile-10", rounds=_PRESET_ROUNDS["chile-10"], third_deck_from=5,
        values=_values(ace=20, joker=30), tie_break="most_outs",
    ),
    "dos-libres": RuleSet(
        preset_name="dos-libres", rounds=_PRESET_ROUNDS["dos-libres"], third_deck_from=5,
        jokers=1, wilds=frozenset({"jokers", "twos"}), values=_values(ace=15, joker=50, two=25),
        bury_wild_first_discard=True, joker_replacement="anyone",
    ),
    "argentina": RuleSet(
        preset_name="argentina", rounds=_PRESET_ROUNDS["argentina"], third_deck_from=5,
        jokers=1, values=_values(ace=15, joker=50), bury_wild_first_discard=True,
        joker_replacement="anyone",
    ),
    "rumi": RuleSet(
        preset_name="rumi", rounds=_PRESET_ROUNDS["rumi"], max_players=8,
        partial_contracts=True,
    ),
    "chico": RuleSet(
        preset_name="chico", rounds=_PRESET_ROUNDS["chico"],
        max_players=8,
    ),
    "familia": RuleSet(
        preset_name="familia", rounds=_PRESET_ROUNDS["familia"], max_wilds_per_meld=None,
        scoring="rounds", third_deck_from=0,
    ),
    "online": RuleSet(
        preset_name="online", rounds=_PRESET_ROUNDS["online"][:7], max_players=4,
        third_deck_from=0, wrap=True, exact_melds=True, joker_replacement="relocate",
        values=_values(ace=15, joker=25), instant_out_score=-10,
        go_out_by_layoff=False, undo=True,
    ),
}
"""The named presets of docs/RULES.md."""

PRESET_NOTES: Final[dict[str, str]] = {
    "chile": "The Chilean standard (Swedish guide): 8 rounds, 12 cards, 108 cards.",
    "chile-10": "As played in Chile (Spanish source): chile's 8 rounds + escala sucia + real.",
    "dos-libres": "Twos are wild (German source): 11 cards, 13 in round 8 (four tríos at once).",
    "argentina": "Argentina (German source): 7 rounds, twos not wild.",
    "rumi": "Peru's rumi: as chile, but the contract may be laid in parts over several turns.",
    "chico": "Carioca chico: rounds 1, 3, 5 and 7 of chile, a quick game.",
    "familia": "For families with kids: 4 rounds, 3-card escalas, free jokers, tally scoring.",
    "online": "The online game (English source): 7 rounds (+ escalera real), wrap, -10 out.",
}
