"""Hand-written scenario records, one or more per preset, replayed to known results.

Each ``tests/records/<preset>-<what>.json`` is a ``carioca-record/1`` document whose deal and
actions were chosen by hand from RULES.md; ``tests/records/expected.json`` holds, per file,
either the exact ``carioca replay --json`` document (scores computed by hand from the preset's
value table, the arithmetic in ``why``) or the first illegal action (``round``/``action``,
1-based, and optionally words the message must contain).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from carioca.record import replay
from carioca.rules import PRESETS

RECORDS = Path(__file__).parent / "records"
EXPECTED: dict[str, Any] = json.loads((RECORDS / "expected.json").read_text(encoding="utf-8"))
FILES = sorted(p.name for p in RECORDS.glob("*.json") if p.name != "expected.json")


def _load(name: str) -> Any:
    return json.loads((RECORDS / name).read_text(encoding="utf-8"))


def test_every_record_has_an_expectation_and_back() -> None:
    assert sorted(EXPECTED) == FILES


def test_every_preset_has_a_record() -> None:
    covered = {_load(name)["rules"]["preset"] for name in FILES}
    assert set(PRESETS) <= covered, f"presets without a record: {set(PRESETS) - covered}"


def test_every_preset_has_a_round_that_someone_goes_out_of() -> None:
    went_out: set[str] = set()
    for name in FILES:
        want = EXPECTED[name]
        if "error" not in want and any(r["went_out"] is not None for r in want["rounds"]):
            went_out.add(_load(name)["rules"]["preset"])
    assert set(PRESETS) <= went_out


@pytest.mark.parametrize("name", FILES)
def test_record(name: str) -> None:
    want = {k: v for k, v in EXPECTED[name].items() if k != "why"}
    result = replay(_load(name))
    got = result.to_json()
    if "error" in want:
        expected_error = want["error"]
        assert "error" in got, f"{name}: expected an error, the replay gave {got}"
        error = got["error"]
        where = (error["round"], error["action"])
        assert where == (expected_error["round"], expected_error["action"]), (
            f"{name}: stopped at round/action {where}, expected "
            f"{(expected_error['round'], expected_error['action'])}: {error['message']}"
        )
        assert isinstance(error["message"], str) and error["message"].strip()
        for word in expected_error.get("words", []):
            assert word.lower() in error["message"].lower(), (name, word, error["message"])
    else:
        assert "error" not in got, f"{name}: unexpected error {got}"
        assert got == want, f"{name}: {EXPECTED[name]['why']}"


@pytest.mark.parametrize("p, said", [
    ("1", "'p' is the number of the seat that acts (0, 1, ...), not '1'"),
    (True, "'p' is the number of the seat that acts (0, 1, ...), not true"),
    (None, "'p' is the number of the seat that acts (0, 1, ...), not null"),
    ("absent", "an action needs 'p', the number of the seat that acts"),
])
def test_a_seat_of_the_wrong_type_is_named(p: Any, said: str) -> None:
    """A 'p' that is there but not a seat number is told apart from a missing one."""
    action = {"draw": "mazo"} if p == "absent" else {"p": p, "draw": "mazo"}
    doc = {"format": "carioca-record/1", "rules": {"preset": "chile"}, "players": ["Ana", "Beto"],
           "rounds": [{"seed": 1, "actions": [action]}]}
    error = replay(doc).to_json()["error"]
    assert (error["round"], error["action"]) == (1, 1)
    assert error["message"].endswith(said), error["message"]


def test_a_deal_off_the_deck_names_the_doubled_card_and_the_missing_one() -> None:
    """A dealt card written twice pushes one out: the error names both, not only the first
    card (in card order) that differs, which may well be the right one."""
    from carioca import Game, RuleSet

    game = Game.new(RuleSet.preset("chile", decks=1, jokers=0), ["Ana", "Beto"], seed=1)
    doc = game.to_record()
    hand = doc["rounds"][0]["deal"]["hands"][0]
    lost, hand[0] = hand[0], hand[1]
    error = replay(doc).error
    assert error is not None and error.round == 1
    assert (f"(1 pack + 0 jokers = 52 cards): too many {hand[1]} (2, the deck has 1); "
            f"too few {lost} (0, the deck has 1)") in error.message


LONG = "x" * 100_000


@pytest.mark.parametrize("change", [
    {"format": LONG},
    {"rules": {"preset": LONG}},
    {"rules": {"preset": "chile", "options": {"wrap": LONG}}},
    {"rules": {"preset": "chile", "options": {LONG: 1}}},
    {"rules": {"preset": "chile", "options": {"values": {LONG: 1}}}},
    {"rules": {"preset": "chile", "options": {"contracts": [LONG]}}},
    {"rules": {"preset": "chile", "options": {"contracts": ["9" * 5000 + "T"]}}},
    {"rules": {"preset": "chile", **{f"{LONG}{i}": 1 for i in range(50)}}},
    {"rounds": [{"seed": 1, "actions": [], **{f"{LONG}{i}": 1 for i in range(50)}}]},
])
def test_a_message_quotes_a_long_input_cut_short(change: dict[str, Any]) -> None:
    """What a hostile document sends back in its error is cut short, in both languages: the
    error is one line a person reads, not the 100,000 characters sent."""
    from carioca.spanish import record_reason_es

    doc = {"format": "carioca-record/1", "rules": {"preset": "chile"},
           "players": ["Ana", "Beto"], "rounds": [], **change}
    error = replay(doc).error
    assert error is not None
    assert len(error.message) < 300 and "…" in error.message, error.message[:300]
    spanish = record_reason_es(error.message)
    assert len(spanish) < 400 and spanish != error.message, spanish[:400]
    assert " more" not in spanish and " and " not in spanish, spanish  # "y 44 más"


def test_a_reader_is_told_who_broke_the_rule_by_the_name_as_written() -> None:
    """A record's error names the player as the record writes the name ("ana", not "Ana"),
    and the Spanish for its reader says who, in the third person ("ana no tiene el ..."),
    not the player's own "no tienes"."""
    from carioca import Game, RuleSet
    from carioca.errors import IllegalAction
    from carioca.spanish import explain_to_reader

    game = Game.new(RuleSet.preset("chile"), ["ana", "beto"], seed=4)
    doc = game.to_record()
    seat = game.seat_to_act
    held = set(game.view(seat).hand)
    missing = next(str(c) for c in ("AS", "AH", "AD", "AC", "KS", "KH") if c not in
                   {str(h) for h in held})
    name = doc["players"][seat]
    doc["rounds"][0]["actions"] = [{"p": seat, "draw": "mazo"}, {"p": seat, "discard": missing}]
    error = replay(doc).error
    assert error is not None and error.message.startswith(f"{name} has no {missing}")
    said = explain_to_reader(IllegalAction(error.code, error.message), "es")
    assert said == f"{name} no tiene el {missing}"
    # a buy by the player whose turn it is, before and after the draw: said of them
    buying = Game.new(RuleSet.preset("chile", buying="penalty_card"), ["ana", "beto"], seed=4)
    doc = buying.to_record()
    turn = [{"p": seat, "buy": True}]
    for actions, words in ((turn, "no hace falta comprarla"),
                           ([{"p": seat, "draw": "mazo"}, *turn], "quien tiene el turno no")):
        doc["rounds"][0]["actions"] = actions
        error = replay(doc).error
        assert error is not None and error.code == "cannot_buy", error
        said = explain_to_reader(IllegalAction(error.code, error.message), "es")
        assert said.startswith(f"es el turno de {name}") and words in said, said
    # a name that only begins a message's first word leaves it a sentence
    from carioca.record import _capital

    assert _capital("the pozo is empty", ["t", "beto"]) == "The pozo is empty"
    assert _capital("t has no AS", ["t", "beto"]) == "t has no AS"
