"""Why a record, an action or a card cannot be read, in Spanish: every ``raise`` of a
:class:`RecordError`, :class:`ActionError` or :class:`CardError` in carioca/record.py,
carioca/actions.py and carioca/cards.py (and the engine's ``bad_deal``) is triggered here, and
its message comes out of :func:`carioca.spanish.record_reason_es` with no English word left,
the numbers and the quoted input of the English kept. ``carioca replay`` and the terminal game
say them so (tests/test_cli.py)."""

from __future__ import annotations

import ast
import copy
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from carioca import Game, RuleSet
from carioca import actions as actions_module
from carioca import cards as cards_module
from carioca import engine as engine_module
from carioca import record as record_module
from carioca.actions import Action, ActionError
from carioca.cards import Card, CardError
from carioca.record import RecordError, load, replay
from carioca.spanish import record_reason_es

ENGLISH = {
    "action", "an", "and", "be", "but", "cannot", "card", "cards", "deal", "deals",
    "deck", "digits", "each", "exactly", "field", "file", "from", "goes", "hands", "has",
    "holds", "inside", "is", "like", "list", "lists", "long", "meld", "melds", "more",
    "must", "names", "needs", "not", "number", "object", "of", "on", "or", "over",
    "pack", "packs", "players", "read", "record", "round", "rules", "say", "seat", "seats",
    "than", "the", "then", "there", "this", "to", "too", "turns", "unknown", "up", "whole",
    "with", "write", "written",
}


def _record() -> dict[str, Any]:
    game = Game.new(RuleSet.preset("chile", decks=1, jokers=0), ["Ana", "Beto"], seed=1)
    return game.to_record()


def _with(path: tuple[Any, ...], value: Any, *, drop: bool = False) -> Callable[[], Any]:
    def make() -> Any:
        doc = _record()
        where: Any = doc
        for key in path[:-1]:
            where = where[key]
        if drop:
            del where[path[-1]]
        else:
            where[path[-1]] = value
        return _replayed(doc)
    return make


def _replayed(doc: Any) -> RecordError:
    error = replay(doc).error
    assert error is not None
    return error


def _action(data: Any) -> Callable[[], Any]:
    return lambda: Action.from_json(data, 2)


def _one_round_played() -> dict[str, Any]:
    """The record of a game of one round, played to its end."""
    doc = _record()
    doc["rules"]["options"]["rounds"] = [1]
    game = Game.new(RuleSet.from_dict(doc["rules"]), ["Ana", "Beto"], seed=1)
    while game.seat_to_act is not None:
        seat = game.seat_to_act
        game.apply(sorted(game.legal_actions(seat), key=str)[0])
    return game.to_record()


def _two_rounds_for_a_game_of_one() -> RecordError:
    finished = _one_round_played()
    finished["rounds"].append(finished["rounds"][0])
    return _replayed(finished)


def _a_round_cut_short() -> RecordError:
    doc = _record()
    doc["rules"]["options"]["rounds"] = [1, 1]
    doc["rounds"] = [{"seed": 1, "actions": []}, {"seed": 2, "actions": []}]
    return _replayed(doc)


def _an_action_after_the_round() -> RecordError:
    finished = _one_round_played()
    finished["rules"]["options"]["rounds"] = [1, 1]
    finished["rounds"][0]["actions"].append({"p": 0, "draw": "mazo"})
    return _replayed(finished)


def _dealt_nothing() -> RecordError:
    doc = _record()
    doc["rounds"][0].pop("seed", None)
    del doc["rounds"][0]["deal"]
    return _replayed(doc)


def _dealt(change: Callable[[dict[str, Any]], None]) -> Callable[[], Any]:
    def make() -> Any:
        doc = _record()
        change(doc["rounds"][0]["deal"])
        return _replayed(doc)
    return make


def _doubled(deal: dict[str, Any]) -> None:
    deal["hands"][0][0] = deal["hands"][0][1]


def _doubled_with_a_seed(deal: dict[str, Any]) -> None:
    deal["hands"][0][0] = deal["hands"][0][1]
    deal["hands"][0][2] = deal["hands"][0][1]
    del deal["mazo"]


TRIGGERS: dict[str, Callable[[], Any]] = {
    # the document (record.py)
    "not JSON": lambda: load(b"{"),
    "not UTF-8": lambda: load(b"\xff\xfe{"),
    "a number too long": lambda: load(b"9" * 5000),
    "nested too deeply": lambda: load(b"[" * 100_000),
    "not an object": lambda: _replayed([1]),
    "not this format": _with(("format",), "pgn"),
    "no players": _with(("players",), None, drop=True),
    "a misplaced option": _with(("seed",), 3),
    "rules that cannot be played": _with(("rules", "preset"), "nope"),
    "players not names": _with(("players",), [1, 2]),
    "rounds not a list": _with(("rounds",), {}),
    "too many players": _with(("players",), [str(i) for i in range(9)]),
    # the rounds
    "a round after the game": _two_rounds_for_a_game_of_one,
    "a round not ended": _a_round_cut_short,
    "a round not an object": _with(("rounds", 0), 3),
    "a round's unknown field": _with(("rounds", 0, "sead"), 3),
    "a deal that is no deal": _with(("rounds", 0, "deal"), 3),
    "actions not a list": _with(("rounds", 0, "actions"), {}),
    "an action that is no action": _with(("rounds", 0, "actions"), [3]),
    "an action after the round": _an_action_after_the_round,
    "a seed that is no number": _with(("rounds", 0, "seed"), "x"),
    "no deal and no seed": _dealt_nothing,
    "a deal's unknown field": _with(("rounds", 0, "deal", "stock"), []),
    "a deal without hands": _with(("rounds", 0, "deal", "hands"), None, drop=True),
    "hands not lists": _with(("rounds", 0, "deal", "hands"), "7H"),
    "a pozo not a list": _with(("rounds", 0, "deal", "pozo"), "7H"),
    "a card too many for a seeded mazo": _dealt(_doubled_with_a_seed),
    # the engine's check of a deal (bad_deal)
    "a hand too many": _dealt(lambda d: d["hands"].append(d["hands"][0])),
    "a hand too short": _dealt(lambda d: d["hands"][0].pop()),
    "no card turned up": _dealt(lambda d: (d["mazo"].extend(d["pozo"]), d["pozo"].clear())),
    "a deal off the deck": _dealt(_doubled),
    # actions (actions.py)
    "an action not an object": _action(3),
    "an action without p": _action({"draw": "mazo"}),
    "p not a seat number": _action({"p": "1", "draw": "mazo"}),
    "no such seat": _action({"p": 7, "draw": "mazo"}),
    "two kinds of action": _action({"p": 0, "draw": "mazo", "discard": "7H"}),
    "nothing typed": lambda: Action.parse("  ", 0),
    "typed words that are no action": lambda: Action.parse("hola", 0),
    "a meld number that is no number": lambda: Action.parse("agregar 7H x", 0),
    "an empty meld between the slashes": lambda: Action.parse("bajar 7H 7S 7D /", 0),
    "an end that is neither low nor high": lambda: Action.parse("swap QD 0 middle", 0),
    "a draw from elsewhere": _action({"p": 0, "draw": "cielo"}),
    "bajar not a list": _action({"p": 0, "bajar": "7H"}),
    "bajar with an empty meld": _action({"p": 0, "bajar": [[]]}),
    "agregar not an object": _action({"p": 0, "agregar": "7H"}),
    "agregar's unknown field": _action({"p": 0, "agregar": {"card": "7H", "meld": 0, "x": 1}}),
    "agregar without its meld": _action({"p": 0, "agregar": {"card": "7H"}}),
    "agregar's meld not a number": _action({"p": 0, "agregar": {"card": "7H", "meld": True}}),
    "agregar at no end": _action({"p": 0, "agregar": {"card": "7H", "meld": 0, "end": "up"}}),
    "buy not true": _action({"p": 0, "buy": 1}),
    "a card that is no card": _action({"p": 0, "discard": "ZZ"}),
    # cards (cards.py)
    "a rank and suit of no card": lambda: Card.of(14, "H"),
    "a card that is no text": _action({"p": 0, "discard": 7}),
    "a card with no suit": lambda: Card.parse("7X"),
    "a card too short": lambda: Card.parse("7"),
}


def _refusal(trigger: Callable[[], Any]) -> Exception:
    try:
        result = trigger()
    except (RecordError, ActionError, CardError) as exc:
        return exc
    assert isinstance(result, RecordError), result
    return result


def _message(exc: Exception) -> str:
    return exc.message if isinstance(exc, RecordError) else str(exc)


def _raise_lines(module: Any, names: set[str]) -> set[tuple[str, int]]:
    path = Path(module.__file__)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {(path.name, node.lineno) for node in ast.walk(tree)
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
            and isinstance(node.exc.func, ast.Name) and node.exc.func.id in names}


def _raised_at(exc: Exception) -> set[tuple[str, int]]:
    """Every place of the three modules the exception passed through on its way up."""
    places = set()
    for frame in _frames(exc):
        places.add(frame)
    return places


def _frames(exc: Exception) -> list[tuple[str, int]]:
    seen = []
    tb = exc.__traceback__
    while tb is not None:
        seen.append((Path(tb.tb_frame.f_code.co_filename).name, tb.tb_lineno))
        tb = tb.tb_next
    return seen


def _unquoted(text: str) -> str:
    return re.sub(r"'[^']*'|\"[^\"]*\"|\{[^}]*\}", " ", text)


@pytest.mark.parametrize("trigger", list(TRIGGERS.values()), ids=list(TRIGGERS))
def test_every_reason_reads_in_spanish(trigger: Callable[[], Any]) -> None:
    english = _message(_refusal(trigger))
    spanish = record_reason_es(english)
    assert spanish != english, english
    left = sorted(w for w in ENGLISH
                  if re.search(rf"(?<![\w'-]){re.escape(w)}(?![\w'-])", _unquoted(spanish)))
    assert not left, f"English words {left} in {spanish!r} (from {english!r})"
    if english.startswith("the file is not JSON: "):  # Python's words: only where it is
        english = english.split("(char")[0] if "line" in english else "the file is not JSON"
    numbers = Counter(re.findall(r"\d+", english.replace(",", "")))
    assert not numbers - Counter(re.findall(r"\d+", spanish.replace(".", ""))), (english,
                                                                                  spanish)
    for quoted in re.findall(r"'[^']*'", english):  # the input and the field names
        assert quoted in spanish, (quoted, spanish)


def test_every_raise_is_reached() -> None:
    """Each raise of a record, action or card reason in the three modules is reached by a
    trigger above (so a new reason without Spanish words fails the test before)."""
    wanted = (_raise_lines(record_module, {"RecordError", "CardError"})
              | _raise_lines(actions_module, {"ActionError"})
              | _raise_lines(cards_module, {"CardError"}))
    engine = Path(engine_module.__file__)
    wanted |= {(engine.name, node.lineno) for node in ast.walk(ast.parse(engine.read_text("utf-8")))
               if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
               and isinstance(node.exc.func, ast.Name) and node.exc.func.id == "IllegalAction"
               and node.exc.args and isinstance(node.exc.args[0], ast.Constant)
               and node.exc.args[0].value == "bad_deal"}
    # A move the rules forbid has its code and is said by carioca.spanish.explain_to_reader.
    source = Path(record_module.__file__).read_text(encoding="utf-8").splitlines()
    wanted -= {("record.py", n) for n, line in enumerate(source, 1)
               if "RecordError(_capital(exc.message" in line}
    reached: set[tuple[str, int]] = set()
    for trigger in TRIGGERS.values():
        exc = _refusal(trigger)
        reached |= _raised_at(exc)
        context = exc.__context__
        while context is not None:  # a reason passed on (a CardError as an ActionError)
            reached |= set(_frames(context))  # type: ignore[arg-type]
            context = context.__context__
    assert not wanted - reached, f"not reached: {sorted(wanted - reached)}"


def test_a_record_is_not_changed_by_the_triggers() -> None:
    assert copy.deepcopy(_record()) == _record()
