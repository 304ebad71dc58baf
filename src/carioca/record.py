"""The game record, ``carioca-record/1``: what PGN is to chess (see docs/record.md).

>>> from carioca import Game, RuleSet
>>> game = Game.new(RuleSet.preset("chile"), ["Ana", "Beto"], seed=3)
>>> _ = game.apply(game.legal_actions(game.seat_to_act)[0])
>>> doc = to_record(game)
>>> doc["format"], doc["players"], doc["rounds"][0]["actions"]
('carioca-record/1', ['Ana', 'Beto'], [{'p': 1, 'draw': 'mazo'}])
>>> replay(doc).game.view(0).hand == game.view(0).hand
True
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .actions import Action, ActionError
from .cards import Card, CardError, deck, named, quoted
from .engine import Deal, Game
from .errors import IllegalAction, RecordError
from .rules import OPTION_NAMES, RulesError, RuleSet

__all__ = ["FORMAT", "to_record", "from_record", "replay", "Replay", "load", "dumps",
           "check_seeds", "tags"]

FORMAT = "carioca-record/1"


def to_record(game: Game) -> dict[str, Any]:
    """The record of everything played so far: rules, players, each round's deal and actions."""
    rounds = []
    for deal, actions in zip(game.deals, game.log, strict=True):
        entry: dict[str, Any] = {}
        if deal.seed is not None:
            entry["seed"] = deal.seed
        entry["deal"] = deal.to_json()
        entry["actions"] = [a.to_json() for a in actions]
        rounds.append(entry)
    return {
        "format": FORMAT,
        "rules": game.rules.to_dict(),
        "players": list(game.players),
        "rounds": rounds,
    }


def dumps(game: Game, tags: Mapping[str, Any] | None = None) -> str:
    """The record as compact but readable JSON text (one action per line). ``tags`` are notes
    of the document's own (as PGN's tags: the terminal game writes who the bots were), which
    the replay lets be; a tag may not take the name of a field the record has."""
    doc = to_record(game)
    lines = ['{"format": ' + json.dumps(doc["format"]) + ",",
             ' "rules": ' + json.dumps(doc["rules"], ensure_ascii=False) + ",",
             ' "players": ' + json.dumps(doc["players"], ensure_ascii=False) + ","]
    for key, value in (tags or {}).items():
        if key in _DOC_FIELDS or key in _INNER_FIELDS or key in OPTION_NAMES:
            raise ValueError(f"{key!r} is a field of the record, not a tag")
        lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},")
    lines.append(' "rounds": [')
    for i, r in enumerate(doc["rounds"]):
        head = {k: v for k, v in r.items() if k != "actions"}
        lines.append("  {" + json.dumps(head)[1:-1] + ', "actions": [')
        acts = [json.dumps(a) for a in r["actions"]]
        lines.extend("    " + a + ("," if j < len(acts) - 1 else "") for j, a in enumerate(acts))
        lines.append("  ]}" + ("," if i < len(doc["rounds"]) - 1 else ""))
    lines.append(" ]}")
    return "\n".join(lines) + "\n"


@dataclass
class Replay:
    """A replayed record: the game as far as it went, and the first error if there was one."""

    game: Game | None
    error: RecordError | None

    def to_json(self) -> dict[str, Any]:
        if self.error is not None:
            return self.error.to_json()
        assert self.game is not None
        return self.game.score_sheet().to_json()


def tags(doc: Any) -> dict[str, Any]:
    """The notes of a loaded document (every top-level field that is not the record's own),
    in the document's order: what :func:`dumps` should write again to keep them.

    >>> tags({"format": FORMAT, "event": "Navidad", "rules": {}, "players": [], "rounds": []})
    {'event': 'Navidad'}
    """
    if not isinstance(doc, Mapping):
        return {}
    return {str(k): v for k, v in doc.items() if k not in _DOC_FIELDS}


def load(text: str | bytes) -> Any:
    """Parse JSON text, turning any fault into a :class:`RecordError`."""
    try:
        return json.loads(text)
    except UnicodeDecodeError as exc:
        raise RecordError(f"the file is not JSON: {exc}") from None
    except ValueError as exc:
        if "integer string conversion" in str(exc):
            # Python's own advice (sys.set_int_max_str_digits) means nothing to a player.
            most = sys.get_int_max_str_digits()
            raise RecordError(f"the file holds a number too long to read (over {most:,} "
                              "digits); no number in a record is that long") from None
        raise RecordError(f"the file is not JSON: {exc}") from None
    except RecursionError:
        raise RecordError("the file is not JSON: it is nested too deeply") from None


def from_record(doc: Any) -> Game:
    """The game a record describes; raises :class:`RecordError` at the first fault."""
    result = replay(doc)
    if result.error is not None:
        raise result.error
    assert result.game is not None
    return result.game


def replay(doc: Any) -> Replay:
    """Replay a record as far as it is valid. Never raises for bad input."""
    try:
        game = _new_game(doc)
    except RecordError as exc:
        return Replay(None, exc)
    try:
        _play_rounds(game, doc["rounds"])
    except RecordError as exc:
        return Replay(game, exc)
    return Replay(game, None)


def check_seeds(doc: Any, replayed: Replay | None = None) -> list[dict[str, Any]]:
    """For each round that gives both a seed and a whole deal: is the deal the one the seed
    gives (the provably fair deck: the server shows a hash of each round's seed while it is
    played and reveals the seed after)? Rounds without both are left out. ``replayed``: the
    document's :func:`replay`, when the caller has it already."""
    result = replayed if replayed is not None else replay(doc)
    game = result.game
    out: list[dict[str, Any]] = []
    if game is None:
        return out
    for number, deal in enumerate(game.deals, 1):
        entry = doc["rounds"][number - 1]
        if deal.seed is None or "deal" not in entry or "mazo" not in entry["deal"]:
            continue
        expected = game.deal_from_seed(deal.seed, number)
        same = (expected.hands, expected.pozo, expected.mazo) == (deal.hands, deal.pozo,
                                                                  deal.mazo)
        out.append({"round": number, "seed": deal.seed, "matches": same})
    return out


# --------------------------------------------------------------------------- reading

_DOC_FIELDS: Final = ("format", "rules", "players", "rounds")
_INNER_FIELDS: Final = frozenset({"preset", "options", "deal", "seed", "actions", "hands",
                                  "pozo", "mazo"})
"""Fields of the rules or of a round: refused at the top of a record, where they would be
quietly ignored."""


def _new_game(doc: Any) -> Game:
    if not isinstance(doc, Mapping):
        raise RecordError("a record is a JSON object with format, rules, players and rounds")
    fmt = doc.get("format")
    if fmt != FORMAT:
        raise RecordError(f"this is not a {FORMAT} record (format is {quoted(fmt)})")
    for key in _DOC_FIELDS[1:]:
        if key not in doc:
            raise RecordError(f"the record has no '{key}'")
    # Other fields of the document itself ("date", "event", as PGN's tags) are the
    # sharer's notes: they change no game, since every field the replay reads is required
    # here (ruling 31), so they are let be; but not a field that belongs inside (a stray
    # "options" or "seed" would otherwise be a change of the game quietly ignored).
    misplaced = sorted(str(k) for k in doc
                       if k not in _DOC_FIELDS and (k in _INNER_FIELDS or k in OPTION_NAMES))
    if misplaced:
        names = ", ".join(f"'{k}'" for k in misplaced)
        verb = "belongs" if len(misplaced) == 1 else "belong"
        raise RecordError(f"{names} {verb} inside 'rules' or a round, not at the top of the "
                          "record")
    try:
        rules = RuleSet.from_dict(doc["rules"])
    except RulesError as exc:
        raise RecordError(f"the rules cannot be played: {exc}") from None
    players = doc["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("'players' must be a list of names, in seat order")
    if not isinstance(doc["rounds"], list):
        raise RecordError("'rounds' must be a list of rounds")
    try:
        return Game(rules, players)
    except RulesError as exc:
        raise RecordError(str(exc)) from None


def _play_rounds(game: Game, rounds: Sequence[Any]) -> None:
    for number, entry in enumerate(rounds, 1):
        if game.is_over:
            raise RecordError(f"the game ended after round {number - 1}, but the record goes on",
                              number)
        if game.seat_to_act is not None:
            raise RecordError(f"round {number - 1} has not ended, but the record goes on with "
                              f"round {number}", number)
        if not isinstance(entry, Mapping):
            raise RecordError(f"round {number} must be an object with a deal and actions", number)
        extra = set(entry) - {"deal", "seed", "actions"}
        if extra:
            raise RecordError(f"round {number} has unknown field(s): "
                              f"{named(sorted(map(str, extra)))}", number)
        deal = _read_deal(game, entry, number)
        try:
            game.start_round(deal)
        except IllegalAction as exc:
            raise RecordError(exc.message, number) from None
        actions = entry.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError(f"round {number}: 'actions' must be a list", number)
        for index, raw in enumerate(actions, 1):
            _play_action(game, raw, number, index)


def _play_action(game: Game, raw: Any, number: int, index: int) -> None:
    try:
        action = Action.from_json(raw, game.n)
    except ActionError as exc:
        raise RecordError(str(exc), number, index) from None
    if game.is_over or game.seat_to_act is None:
        raise RecordError(f"round {number} is over; no action may follow", number, index)
    try:
        game.apply(action)
    except IllegalAction as exc:
        raise RecordError(_capital(exc.message, game.players), number, index,
                          exc.code) from None


def _capital(text: str, names: Sequence[str]) -> str:
    """A message as a sentence, but a player's name as the player wrote it ("ana")."""
    if any(name and text.startswith((f"{name} ", f"{name}'s ")) for name in names):
        return text
    return text[:1].upper() + text[1:]


def _read_deal(game: Game, entry: Mapping[str, Any], number: int) -> Deal:
    seed = entry.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(f"round {number}: 'seed' must be a whole number", number)
    if "deal" not in entry:
        if seed is None:
            raise RecordError(f"round {number} needs a 'deal' or a 'seed'", number)
        return game.deal_from_seed(seed, number)
    raw = entry["deal"]
    if not isinstance(raw, Mapping):
        raise RecordError(f"round {number}: 'deal' must be an object with hands, pozo and mazo",
                          number)
    extra = set(raw) - {"hands", "pozo", "mazo"}
    if extra:
        raise RecordError(f"round {number}: 'deal' has unknown field(s): "
                          f"{named(sorted(map(str, extra)))}", number)
    if "hands" not in raw or "pozo" not in raw:
        raise RecordError(f"round {number}: the deal needs 'hands' and 'pozo'", number)
    hands = raw["hands"]
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        raise RecordError(f"round {number}: 'hands' must be a list of lists of cards", number)
    try:
        hand_cards = tuple(tuple(_cards(h)) for h in hands)
        pozo = tuple(_cards(raw["pozo"], "pozo"))
        if "mazo" in raw:
            mazo = tuple(_cards(raw["mazo"], "mazo"))
        else:
            mazo = _rest_of_deck(game, hand_cards, pozo, seed or 0)
    except CardError as exc:
        raise RecordError(f"round {number}: {exc}", number) from None
    return Deal(hand_cards, pozo, mazo, seed)


def _cards(items: Any, what: str = "hand") -> list[Card]:
    if not isinstance(items, list):
        raise CardError(f"the {what} must be a list of cards")
    return [Card.parse(c) for c in items]


def _rest_of_deck(game: Game, hands: tuple[tuple[Card, ...], ...], pozo: tuple[Card, ...],
                  seed: int) -> tuple[Card, ...]:
    left = Counter(deck(*game.rules.deck_for(game.n)))
    left.subtract(c for h in hands for c in h)
    left.subtract(pozo)
    over = [c for c, k in left.items() if k < 0]
    if over:
        packs, jokers = game.rules.deck_for(game.n)
        named = ", ".join(str(c) for c in sorted(over)[:4])
        raise CardError(f"the deal holds more {named} than the deck of the rules has "
                        f"({packs} {'pack' if packs == 1 else 'packs'}, {jokers} "
                        f"{'joker' if jokers == 1 else 'jokers'} each)")
    rest = []
    for card in deck(*game.rules.deck_for(game.n)):
        if left[card] > 0:
            rest.append(card)
            left[card] -= 1
    random.Random(seed).shuffle(rest)
    return tuple(rest)
