"""The command line (``carioca rules``, ``replay``, ``play``) and the random bot."""

from __future__ import annotations

import copy
import io
import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from carioca import Game, RuleSet
from carioca.actions import Action
from carioca.bots import Bot, RandomBot
from carioca.cli import app, parse_set_options, play_game
from carioca.record import FORMAT, load, replay, to_record
from carioca.rules import PRESETS

runner = CliRunner()


# --------------------------------------------------------------------------- helpers

def random_game(preset: str = "chico", players: int = 3, seed: int = 4,
                steps: int | None = None, **options: Any) -> Game:
    """A game played by random bots, to the end or for ``steps`` actions."""
    game = Game.new(RuleSet.preset(preset, **options), ["Ana", "Beto", "Caro", "Diego"][:players],
                    seed=seed)
    bots = [RandomBot(seed * 10 + i) for i in range(players)]
    done = 0
    while not game.is_over and (steps is None or done < steps):
        seat = game.seat_to_act
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions(seat)))
        done += 1
    return game


def write(tmp_path: Path, doc: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path


def no_traceback(result: Any) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def replay_json(path: Path | str, input: str | None = None) -> tuple[int, dict[str, Any]]:
    result = runner.invoke(app, ["replay", str(path), "--json"], input=input)
    no_traceback(result)
    doc = json.loads(result.stdout)
    assert result.stdout.count("\n") == 1  # one document, one line
    return result.exit_code, doc


@pytest.fixture(scope="module")
def finished() -> Game:
    return random_game("chico", 3, seed=4)


@pytest.fixture(scope="module")
def record(finished: Game) -> dict[str, Any]:
    return to_record(finished)


# --------------------------------------------------------------------------- the bot

def test_random_bot_is_a_bot_and_picks_only_legal_actions() -> None:
    bot = RandomBot(seed=1)
    assert isinstance(bot, Bot)
    assert bot.name and bot.description
    game = Game.new(RuleSet.preset("chile"), ["A", "B", "C"], seed=2)
    for _ in range(200):
        seat = game.seat_to_act
        assert seat is not None
        legal = game.legal_actions(seat)
        action = bot.choose(game.view(seat), legal)
        assert action in list(legal)
        game.apply(action)


def test_random_bot_is_repeatable_and_uniform() -> None:
    legal: list[Action] = [Action.parse(f"discard {c}", 0) for c in ("2H", "3H", "4H", "5H")]
    view = Game.new(RuleSet.preset("chile"), ["A", "B"], seed=1).view(0)
    a = [RandomBot(7).choose(view, legal) for _ in range(5)]
    b = [RandomBot(7).choose(view, legal) for _ in range(5)]
    assert a == b
    bot = RandomBot(3)
    counts = {str(x): 0 for x in legal}
    for _ in range(4000):
        counts[str(bot.choose(view, legal))] += 1
    assert all(800 < k < 1200 for k in counts.values()), counts
    with pytest.raises(ValueError):
        bot.choose(view, [])


def test_random_games_replay_to_the_same_scores() -> None:
    for preset in ("chile", "online", "familia"):
        game = random_game(preset, 3, seed=9)
        assert game.is_over
        result = replay(to_record(game))
        assert result.error is None
        assert result.to_json() == game.score_sheet().to_json()


# --------------------------------------------------------------------------- rules

def test_rules_list_names_every_preset() -> None:
    for args in (["rules", "--list"], ["rules", "--list", "--lang", "en"], ["rules"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        for name in PRESETS:
            assert name in result.stdout
    assert len(PRESETS) == 8
    assert "Carioca chico" in runner.invoke(app, ["rules", "--list"]).stdout


def test_rules_in_english_mention_the_contracts() -> None:
    result = runner.invoke(app, ["rules", "chile", "--lang", "en"])
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.startswith("# Carioca: chile")
    for contract in ("two tríos", "one trío and one escala of 4", "two escalas of 4",
                     "three tríos", "one trío and two escalas of 4", "three escalas of 4",
                     "four tríos"):
        assert contract in text


def test_rules_in_spanish_by_default() -> None:
    result = runner.invoke(app, ["rules", "chile"])
    assert result.exit_code == 0
    assert "dos tríos" in result.stdout and "Comodines" in result.stdout


def test_rules_with_options() -> None:
    result = runner.invoke(app, ["rules", "chile", "--lang", "en", "--set", "rounds=[1,3]",
                                 "--set", "buying=penalty_card",
                                 "--set", "max_wilds_per_meld=null"])
    assert result.exit_code == 0, result.output
    assert "2 rounds are played" in result.stdout
    assert "four tríos" not in result.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["rules", "nope"], "unknown preset 'nope'"),
    (["rules", "chil"], "did you mean 'chile'"),
    (["rules", "chile", "--set", "bying=off"], "unknown option 'bying'"),
    (["rules", "chile", "--set", "buying=sometimes"], "option 'buying' must be one of"),
    (["rules", "chile", "--set", "rounds=[9]"], "there is no round 9"),
    (["rules", "chile", "--set", "wrap"], "option=value"),
    (["rules", "chile", "--lang", "fr"], "unknown language 'fr'"),
    (["rules", "dos-libres", "--set", 'contracts=["4E"]', "--set", "hand_size=13"],
     "can never be played"),
])
def test_rules_errors_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, [*args, "--lang", "en"] if "--lang" not in args else args)
    assert result.exit_code == 2
    no_traceback(result)
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""


@pytest.mark.parametrize(("args", "message"), [
    (["rules", "chile", "--set", "decks=7"],
     "carioca: la opción 'decks' tiene que ser de 1 a 4 naipes, no 7"),
    (["play", "--set", "decks=7"],
     "carioca: la opción 'decks' tiene que ser de 1 a 4 naipes, no 7"),
    (["rules", "chil"], "¿quisiste decir 'chile'?"),
])
def test_rules_errors_in_spanish_by_default(args: list[str], message: str) -> None:
    """The terminal speaks Spanish unless told otherwise, and so do its rules errors."""
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    no_traceback(result)
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_set_values_are_json_or_text() -> None:
    assert parse_set_options(["buying=penalty_card", "rounds=[1,3]", "max_wilds_per_meld=null",
                              "wrap=true", "out_score=-10", "values={\"A\": 15}"]) == {
        "buying": "penalty_card", "rounds": [1, 3], "max_wilds_per_meld": None, "wrap": True,
        "out_score": -10, "values": {"A": 15}}


# --------------------------------------------------------------------------- replay

def test_replay_json_prints_the_score_sheet(tmp_path: Path, finished: Game,
                                            record: dict[str, Any]) -> None:
    code, doc = replay_json(write(tmp_path, record))
    assert code == 0
    assert doc == finished.score_sheet().to_json()
    assert doc["finished"] is True and doc["winners"]


def test_replay_from_stdin(record: dict[str, Any], finished: Game) -> None:
    code, doc = replay_json("-", input=json.dumps(record))
    assert code == 0
    assert doc == finished.score_sheet().to_json()


def test_replay_of_a_game_stopped_midway(tmp_path: Path) -> None:
    game = random_game("chile", 4, seed=12, steps=150)
    code, doc = replay_json(write(tmp_path, to_record(game)))
    assert code == 0
    assert doc == game.score_sheet().to_json()
    assert doc["finished"] is False and doc["rounds"][-1]["scores"] is None


def test_replay_json_of_a_name_that_is_not_text(tmp_path: Path, record: dict[str, Any]) -> None:
    """A name holding a lone surrogate ("\\ud800", valid JSON, not valid text) still gets the
    error where the rules are broken, escaped, not an internal error with no place."""
    doc = {**record, "players": ["\ud800", *record["players"][1:]]}
    doc["rounds"] = [{**doc["rounds"][0], "actions": [{"p": 0, "draw": "mazo"}]}]
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(doc), encoding="ascii")
    code, out = replay_json(path)
    assert code == 2
    assert (out["error"]["round"], out["error"]["action"]) == (1, 1)
    assert "\ud800" in out["error"]["message"] and "internal" not in out["error"]["message"]


def test_replay_of_a_number_too_long_says_so_in_words(tmp_path: Path) -> None:
    code, out = replay_json(write(tmp_path, '{"format": ' + "9" * 5000 + "}"))
    assert code == 2
    assert out["error"]["message"] == ("the file holds a number too long to read (over 4,300 "
                                       "digits); no number in a record is that long")


def test_replay_table(tmp_path: Path, finished: Game, record: dict[str, Any]) -> None:
    result = runner.invoke(app, ["replay", str(write(tmp_path, record)), "--lang", "en"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    sheet = finished.score_sheet()
    for name in sheet.players:
        assert name in out
    for total in sheet.totals:
        assert str(total) in out
    assert "Total" in out and "two tríos" in out
    winners = [sheet.players[s] for s in sheet.winners]
    assert any(line.startswith(winners[0]) and "win" in line for line in out.splitlines())


def _set(doc: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


def _wrong_seat(record: dict[str, Any]) -> dict[str, Any]:
    doc = copy.deepcopy(record)
    action = doc["rounds"][1]["actions"][2]
    action["p"] = (action["p"] + 1) % len(doc["players"])
    return doc


def _second_draw(record: dict[str, Any]) -> dict[str, Any]:
    doc = copy.deepcopy(record)
    actions = doc["rounds"][0]["actions"]
    actions[3] = dict(actions[2])  # a draw where the discard was: drawn twice
    assert "draw" in actions[2]
    return doc


def _card_too_many(record: dict[str, Any]) -> dict[str, Any]:
    doc = copy.deepcopy(record)
    doc["rounds"][0]["deal"]["mazo"].append("7H")
    return doc


def _unknown_card(record: dict[str, Any]) -> dict[str, Any]:
    doc = copy.deepcopy(record)
    doc["rounds"][0]["deal"]["hands"][1][3] = "11H"
    return doc


def _unknown_card_in_action(record: dict[str, Any]) -> dict[str, Any]:
    doc = copy.deepcopy(record)
    actions = doc["rounds"][1]["actions"]
    index = next(i for i, a in enumerate(actions) if "discard" in a)
    actions[index]["discard"] = "ZZ"
    return doc


def _no_players(record: dict[str, Any]) -> dict[str, Any]:
    doc = copy.deepcopy(record)
    del doc["players"]
    return doc


ERROR_CASES: dict[str, tuple[Callable[[dict[str, Any]], Any], int | None, int | None, str]] = {
    # name: (make the document, round, action, words in the message)
    "non-object": (lambda r: [r], None, None, "JSON object"),
    "not a record": (lambda r: _set(r, ("format",), "pgn"), None, None, "not a"),
    "unknown preset": (lambda r: _set(r, ("rules", "preset"), "nope"), None, None,
                       "unknown preset 'nope'"),
    "unknown option": (lambda r: _set(r, ("rules", "options"), {"bying": "off"}), None, None,
                       "unknown option 'bying'"),
    "bad option value": (lambda r: _set(r, ("rules", "options"), {"buying": "always"}), None,
                         None, "option 'buying'"),
    "missing players": (_no_players, None, None, "players"),
    "unknown card": (_unknown_card, 1, None, "'11H' is not a card"),
    "unknown card in an action": (_unknown_card_in_action, 2, None, "'ZZ' is not a card"),
    "a card too many": (_card_too_many, 1, None, "deck"),
    "wrong seat": (_wrong_seat, 2, 3, "turn"),
    "illegal action": (_second_draw, 1, 4, "drawn already"),
}


SPANISH_WORDS = {
    "non-object": "un registro es un objeto JSON", "not a record": "no es un registro",
    "unknown preset": "las reglas no se pueden jugar: no hay una variante 'nope'",
    "unknown option": "no existe la opción 'bying'", "bad option value": "la opción 'buying'",
    "missing players": "al registro le falta 'players'",
    "unknown card": "'11H' no es una carta", "unknown card in an action": "'ZZ' no es una carta",
    # a record's reader is told who did what, in the third person
    "a card too many": "la baraja de las reglas", "wrong seat": "es el turno de Ana, no de Beto",
    "illegal action": "Caro ya sacó: le toca bajarse",
}


@pytest.mark.parametrize("case", list(ERROR_CASES))
def test_replay_errors(tmp_path: Path, record: dict[str, Any], case: str) -> None:
    make, round_, action, words = ERROR_CASES[case]
    doc = make(record)
    if case == "unknown card in an action":
        # the action number is that of the bad discard
        actions = doc["rounds"][1]["actions"]
        action = next(i for i, a in enumerate(actions, 1) if a.get("discard") == "ZZ")
    path = write(tmp_path, doc)
    code, out = replay_json(path)
    assert code == 2
    assert set(out) == {"error"}
    error = out["error"]
    assert (error["round"], error["action"]) == (round_, action), error
    assert words in error["message"]
    assert "internal error" not in error["message"]
    # without --json: a readable message on stderr, exit 2, no traceback; stdout ends with
    # the spec's {"error": ...} line all the same, for a script that reads it
    result = runner.invoke(app, ["replay", str(path), "--lang", "en"])
    assert result.exit_code == 2
    no_traceback(result)
    assert words in result.stderr
    assert json.loads(result.stdout.splitlines()[-1]) == out
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    no_traceback(result)
    # in Spanish: a move the rules forbid, and a record that cannot be read
    assert words not in result.stderr or words in ("players", "turn")
    assert SPANISH_WORDS[case] in result.stderr, result.stderr
    if round_ is not None and action is not None:
        assert f"ronda {round_}, jugada {action}" in result.stderr
        assert "Anotador" in result.stdout  # the sheet so far


def test_replay_malformed_json(tmp_path: Path) -> None:
    for text in ('{"format": "carioca-record/1", ', "", "nul", "\xff\xfe", "[" * 100_000):
        code, out = replay_json(write(tmp_path, text))
        assert code == 2
        assert out["error"]["round"] is None and out["error"]["action"] is None
        assert "not JSON" in out["error"]["message"]


def test_replay_missing_file(tmp_path: Path) -> None:
    code, out = replay_json(tmp_path / "nope.json")
    assert code == 2
    assert out == {"error": {"round": None, "action": None,
                             "message": out["error"]["message"]}}
    assert "cannot read" in out["error"]["message"]
    result = runner.invoke(app, ["replay", str(tmp_path)])  # a folder
    assert result.exit_code == 2
    no_traceback(result)
    assert "no se puede leer" in result.stderr and "es una carpeta" in result.stderr
    result = runner.invoke(app, ["replay", str(tmp_path), "--lang", "en"])
    assert result.exit_code == 2 and "cannot read" in result.stderr
    assert "cannot read" in json.loads(result.stdout)["error"]["message"]
    result = runner.invoke(app, ["replay", ""])
    assert result.exit_code == 2 and "falta el archivo del registro" in result.stderr


def test_replay_never_crashes_on_odd_documents(tmp_path: Path, record: dict[str, Any]) -> None:
    odd: list[Any] = [
        None, 0, "x", {}, {"format": FORMAT},
        _set(record, ("rules",), []), _set(record, ("rules",), {"preset": 7}),
        _set(record, ("rules", "options"), {"rounds": "1"}),
        _set(record, ("rules", "options"), {"values": {"A": "x"}}),
        _set(record, ("players",), []), _set(record, ("players",), ["solo"]),
        _set(record, ("players",), [1, 2]), _set(record, ("players",), ["p"] * 9),
        _set(record, ("rounds",), "x"), _set(record, ("rounds",), [1]),
        _set(record, ("rounds",), [{"seed": "x"}]), _set(record, ("rounds",), [{"seed": 1.5}]),
        _set(record, ("rounds", 0, "deal"), {"hands": "x", "pozo": []}),
        _set(record, ("rounds", 0, "deal", "pozo"), []),
        _set(record, ("rounds", 0, "actions"), [{"p": 0}]),
        _set(record, ("rounds", 0, "actions"), [{"p": "1", "draw": "mazo"}]),
        _set(record, ("rounds", 0, "actions"), [{"p": 10**30, "draw": "mazo"}]),
        _set(record, ("rounds", 0, "actions"), [{"p": 1, "draw": "x"}]),
        _set(record, ("rounds", 0, "actions"), [{"p": 1, "bajar": [[]]}]),
        _set(record, ("rounds", 0, "actions"), [{"p": 1, "agregar": {"card": 1, "meld": -1}}]),
        _set(record, ("rounds", 0, "actions"), [{"p": 1, "buy": "yes"}]),
        _set(record, ("rounds", 0, "extra"), 1),  # (the document's own notes are let be)
    ]
    for doc in odd:
        code, out = replay_json(write(tmp_path, doc))
        assert code == 2, doc
        assert out["error"]["message"] and "internal error" not in out["error"]["message"]
    # a round may be dealt from any whole-number seed, and stop before its first action
    code, out = replay_json(write(tmp_path, _set(record, ("rounds",), [{"seed": 10**40}])))
    assert code == 0 and out["rounds"] == [{"round": 1, "went_out": None, "scores": None}]


def test_replay_turns_an_unexpected_failure_into_a_message(
        tmp_path: Path, record: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    # Not an input the engine should ever fail on: this only checks the last line of defence.
    def broken(doc: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr("carioca.record.replay", broken)
    path = write(tmp_path, record)
    code, out = replay_json(path)
    assert code == 2
    assert out["error"]["round"] is None and "internal error" in out["error"]["message"]
    assert "RuntimeError: boom" in out["error"]["message"]
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    no_traceback(result)
    assert "RuntimeError: boom" in result.stderr
    assert json.loads(result.stdout) == out


# --------------------------------------------------------------------------- play

class Script:
    """Answers the prompts of :func:`play_game`: the given answers first, then ``default``,
    and EOF after ``limit`` prompts."""

    def __init__(self, answers: list[str], default: str = "1", limit: int = 10_000) -> None:
        self.answers: Iterator[str] = iter(answers)
        self.default = default
        self.limit = limit
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if len(self.prompts) > self.limit:
            raise EOFError
        return next(self.answers, self.default)


def console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=100, color_system=None), out


def assert_replays(path: Path, game: Game) -> Any:
    doc = load(path.read_text(encoding="utf-8"))
    result = replay(doc)
    assert result.error is None
    assert result.to_json() == game.score_sheet().to_json()
    return doc


def test_play_a_few_moves_then_quit(tmp_path: Path) -> None:
    con, out = console()
    save = tmp_path / "g.json"
    script = Script(["1", "1", "1", "1", "1", "quit"])
    game = play_game(con, script, "chile", 3, seed=5, name="Ana", save=save)
    text = out.getvalue()
    assert "Ronda 1 de 8" in text and "dos tríos" in text
    assert "repartes tú, empieza Beto" in text  # round 1: seat 0, the person, deals
    assert "Te toca: saca una carta" in text
    assert "1) saca mazo | 2) saca pozo" in text  # the verbs one types
    assert "Anotador" in text and "Mazo:" in text and "Pozo:" in text and "Tu mano" in text
    assert re.search(r"Beto saca (\S+ )?del (mazo|pozo)", text), text
    assert f"Partida guardada en {save}" in text.replace("\n", "")
    assert not game.is_over
    doc = assert_replays(save, game)
    assert doc["players"] == ["Ana", "Beto", "Caro"]
    assert sum(len(r["actions"]) for r in doc["rounds"]) > 5


def test_play_a_whole_game_choosing_option_1(tmp_path: Path) -> None:
    con, out = console()
    save = tmp_path / "whole.json"
    game = play_game(con, Script([]), "chico", 2, seed=8, lang="en", save=save,
                     options={"rounds": [1, 4]})  # 4: go out at once
    assert game.is_over
    text = out.getvalue()
    assert "End of round 1" in text and "Game over" in text and "win" in text
    assert_replays(save, game)


def test_play_explains_what_is_wrong(tmp_path: Path) -> None:
    con, out = console()
    script = Script(["hola", "discard ZZ", "discard 9C", "99", "²", "9" * 5000, "saca",
                     "saca cielo", "help", "sort", "mazo", "quit"])
    play_game(con, script, "chile", 2, seed=3, save=tmp_path / "g.json")
    text = out.getvalue()
    assert "No entiendo: 'hola' no es una jugada; prueba 'saca mazo', 'saca pozo'" in text
    # digits that int() does not take are a choice that is not there, not the end of the game
    assert "No hay opción ²" in text and text.count("No hay opción") == 3
    # what the player typed is quoted, in Spanish, not the English word it stands for
    assert "No entiendo: 'saca' no es una jugada" in text and "'draw'" not in text
    assert "No entiendo: saca del 'mazo' o del 'pozo', no 'cielo'" in text
    assert "No entiendo: 'ZZ' no es una carta" in text
    assert "No se puede: primero saca una carta" in text
    assert "No hay opción 99" in text
    assert "baja 7H 7S 7D / QS QH JK" in text  # the help
    assert "Mano ordenada por pinta" in text and "por pinta" in text
    assert "Sacas del mazo:" in text


def test_play_takes_the_old_spanish_verb_for_drawing_too(tmp_path: Path) -> None:
    # "saca" is shown and documented; "roba", the old word, still works for whoever types it.
    for typed in ("saca mazo", "roba mazo"):
        con, out = console()
        play_game(con, Script(["ayuda", typed, "quit"]), "chile", 2, seed=3,
                  save=tmp_path / f"{typed.split()[0]}.json")
        text = out.getvalue()
        assert "Sacas del mazo:" in text and "No entiendo" not in text, (typed, text)
        assert "saca mazo | saca pozo" in text and "salir" in text  # the help, in Spanish
        assert "draw mazo" not in text and "quit " not in text


def test_play_shows_what_people_type_as_typed(tmp_path: Path) -> None:
    # Square brackets are Rich's markup: a name or an answer with them is text, not a style.
    con, out = console()
    save = tmp_path / "g.json"
    play_game(con, Script(["[/x]", "[bold]hola", "quit"]), "chile", 2, seed=3,
              name="[/b]Ana", save=save)
    text = out.getvalue()
    assert "No entiendo: '[/x]'" in text and "No entiendo: '[bold]hola'" in text
    assert "[/b]Ana" in text
    assert json.loads(save.read_text(encoding="utf-8"))["players"][0] == "[/b]Ana"


def test_play_refuses_a_save_path_before_the_game(tmp_path: Path) -> None:
    for bad in (tmp_path, tmp_path / "missing" / "g.json", tmp_path / ("a" * 300 + ".json")):
        result = runner.invoke(app, ["play", "--save", str(bad)], input="1\n")
        no_traceback(result)
        assert result.exit_code == 2
        assert "Ronda" not in result.output  # refused before the first move
        assert str(bad) in result.output.replace("\n", "")


def test_the_winner_line_speaks_to_the_player() -> None:
    from carioca.cli import _result_line

    game = random_game("chico", 2, seed=4, rounds=[1])
    sheet = game.score_sheet()
    assert sheet.finished and len(sheet.winners) == 1
    you = sheet.winners[0]
    assert _result_line(game, "es", you=you) == "¡Ganaste!"
    assert _result_line(game, "en", you=you) == "You win!"
    name = sheet.players[you]
    assert _result_line(game, "en", you=1 - you) == f"{name} wins."


def test_play_stops_on_eof_and_ctrl_c(tmp_path: Path) -> None:
    for stop in (EOFError, KeyboardInterrupt):
        con, out = console()

        def read_line(prompt: str, stop: type[BaseException] = stop) -> str:
            raise stop

        save = tmp_path / f"{stop.__name__}.json"
        game = play_game(con, read_line, "chile", 4, seed=1, save=save)
        assert "Partida interrumpida" in out.getvalue()
        assert_replays(save, game)


def test_play_buying_and_undo(tmp_path: Path) -> None:
    con, out = console()
    save = tmp_path / "buy.json"
    prompts: list[str] = []

    def buyer(prompt: str) -> str:  # yes to every buy, option 1 for every move
        prompts.append(prompt)
        if len(prompts) > 300:
            raise EOFError
        return "s" if prompt.startswith("¿Compras") else "1"

    game = play_game(con, buyer, "chile", 3, seed=2, save=save,
                     options={"buying": "penalty_card"})
    text = out.getvalue()
    assert any(p.startswith("¿Compras") for p in prompts)
    assert "• Compras " in text and "castigo" in text
    assert_replays(save, game)

    # undo (the online rules allow it): take back the first bajar offered, then go on
    con, out = console()
    state: dict[str, bool | None] = {"undo": False}

    def read_line(prompt: str) -> str:
        if state["undo"] is None:
            return "1"
        if state["undo"]:
            state["undo"] = None
            return "undo"
        if "1) baja " in out.getvalue().rsplit("Puedes:", 1)[-1]:
            state["undo"] = True
        return "1"

    game = play_game(con, read_line, "online", 2, seed=6, save=save)
    assert "Deshecho: baja " in out.getvalue()
    assert_replays(save, game)


def test_play_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["play", "--players", "2", "--seed", "77", "--lang", "en",
                                 "--name", "Ana", "--sort", "suit"], input="1\n1\n1\nquit\n")
    assert result.exit_code == 0, result.output
    no_traceback(result)
    saved = list(tmp_path.glob("carioca-*-77.json"))
    assert len(saved) == 1
    assert "Game saved to" in result.stdout
    doc = load(saved[0].read_text(encoding="utf-8"))
    assert replay(doc).error is None and doc["players"] == ["Ana", "Beto"]

    path = tmp_path / "x.json"
    result = runner.invoke(app, ["play", "--preset", "familia", "--seed", "1", "--save", str(path),
                                 "--set", "rounds=[1]"], input="")  # EOF at once
    assert result.exit_code == 0, result.output
    assert path.exists() and replay(load(path.read_text())).error is None


def test_play_with_the_bots_named(tmp_path: Path) -> None:
    """--bots seats the bots named (the list repeats to fill the table): every move of theirs
    is the move that bot makes from that seat's view; a personality sits under its own name,
    and the table is told who is who."""
    from carioca.bots import make_bot

    con, out = console()
    answers = iter(["1"] * 400)
    game = play_game(con, lambda prompt: next(answers), "chile", 4, seed=9, lang="en",
                     save=tmp_path / "b.json", options={"rounds": [1]},
                     opponents=["chela", "lookahead"])
    assert game.players == ("You", "Tía Chela", "Beto", "Tía Chela 2")
    text = out.getvalue()
    assert "At the table with you:" in text
    assert "Tía Chela: plays by the book" in text and "Tía Chela 2 — Tía Chela: " in text
    assert "Beto — Lookahead: builds its melds like greedy" in text
    kinds = {1: "chela", 2: "lookahead", 3: "chela"}
    replayed = Game.new(game.rules, game.players, seed=9)
    checked = 0
    for action in game.log[0]:
        seat = action.seat
        if seat != 0 and replayed.seat_to_act == seat:
            bot = make_bot(kinds[seat], 0, game.rules)
            assert bot.choose(replayed.view(seat), replayed.legal_actions(seat)) == action
            checked += 1
        replayed.apply(action)
    assert checked > 20 and replayed.is_over


def test_play_seats_one_player_per_bot_named(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["play", "--bots", "chela,lookahead", "--seed", "5", "--lang",
                                 "en", "--save", "g.json"], input="quit\n")
    assert result.exit_code == 0, result.output
    doc = load((tmp_path / "g.json").read_text())
    assert doc["players"] == ["You", "Tía Chela", "Beto"]
    # Who the bots were goes with the record (a tag the replay lets be), and --resume seats
    # them again; more bots than the saved table has seats is refused.
    assert doc["bots"] == [None, "chela", "lookahead"] and replay(doc).error is None
    again = runner.invoke(app, ["play", "--resume", "g.json", "--lang", "en"], input="quit\n")
    assert again.exit_code == 0, again.output
    assert "Tía Chela: plays by the book" in again.output
    assert "Beto — Lookahead: builds its melds like greedy" in again.output
    assert load((tmp_path / "g.json").read_text())["bots"] == [None, "chela", "lookahead"]
    # The record's other notes are the sharer's: saving it back keeps them, in their place.
    noted = load((tmp_path / "g.json").read_text())
    noted = {"format": noted["format"], "event": "Navidad", **noted, "date": "2026-12-24"}
    (tmp_path / "g.json").write_text(json.dumps(noted), encoding="utf-8")
    kept = runner.invoke(app, ["play", "--resume", "g.json"], input="quit\n")
    assert kept.exit_code == 0, kept.output
    after = load((tmp_path / "g.json").read_text())
    assert [k for k in after if k not in ("rules", "players", "rounds")] == [
        "format", "event", "bots", "date"]
    assert (after["event"], after["date"]) == ("Navidad", "2026-12-24")
    crowded = runner.invoke(app, ["play", "--resume", "g.json", "--bots", "chela,beto,rosa"],
                            input="quit\n")
    assert crowded.exit_code == 2
    assert "la mesa tiene lugar para 2 además de ti" in crowded.output
    doc["bots"] = [None, "chela", "nope"]
    (tmp_path / "bad.json").write_text(json.dumps(doc), encoding="utf-8")
    bad = runner.invoke(app, ["play", "--resume", "bad.json"], input="quit\n")
    assert bad.exit_code == 2 and "no conozco al bot 'nope'" in bad.output


@pytest.mark.parametrize(("args", "message"), [
    (["play", "--bots", "chela,nope"], "no conozco al bot 'nope': elige entre random, eager"),
    (["play", "--bots", "nope", "--lang", "en"], "unknown bot 'nope'; the bots are: random"),
    (["play", "--bots", "search@0", "--lang", "en"], "'search@0': write search@N"),
    (["play", "--bots", "search@16:foo"], "'search@16:foo': escribe search@N, con N de 1 a"),
    (["play", "--bots", " , "], "--bots necesita al menos un bot"),
    (["play", "--bots", "chela,beto", "--players", "2", "--lang", "en"],
     "--bots names 2 bots, but the table has room for 1 besides you"),
])
def test_play_refuses_unknown_bots(args: list[str], message: str, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == 2
    no_traceback(result)
    assert message in result.output
    assert not list(tmp_path.iterdir())  # refused before any game: nothing saved


@pytest.mark.parametrize(("args", "message"), [
    (["play", "--preset", "nope"], "no hay una variante 'nope'"),  # Spanish, as the game
    (["play", "--players", "9"], "de 2 a 8 jugadores, no con 9"),
    (["play", "--set", "bying=1"], "no existe la opción 'bying'"),
    (["play", "--set", "bying=1", "--lang", "en"], "unknown option"),
    (["play", "--sort", "colour"], "--sort"),
    (["play", "--lang", "de"], "unknown language"),
])
def test_play_command_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str],
                             message: str) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == 2
    no_traceback(result)
    assert message in result.stderr
    assert not list(tmp_path.iterdir())  # no game, nothing saved


# --------------------------------------------------------------------------- from the CLI audit

def test_a_record_cannot_drive_the_terminal(tmp_path: Path, record: dict[str, Any]) -> None:
    """A shared record's player names reach the terminal with their control characters shown
    as codes: no escape sequence clears the screen or retitles the window."""
    doc = copy.deepcopy(record)
    doc["players"][0] = "Ana\x1b[2J\x1b]0;PWN\x07\u202e"
    path = write(tmp_path, doc)
    result = runner.invoke(app, ["replay", str(path), "--lang", "en"])
    no_traceback(result)
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "\u202e" not in result.output
    assert "Ana\\x1b[2J" in result.output.replace("\n", "")
    # the same in an error line, which names the players too
    doc["rounds"][0]["actions"][0]["p"] = (doc["rounds"][0]["actions"][0]["p"] + 1) % 2
    result = runner.invoke(app, ["replay", str(write(tmp_path, doc, "bad.json"))])
    assert result.exit_code == 2 and "\x1b" not in result.output
    assert "\u202e" not in result.output  # the stdout error line is ASCII too


def test_a_buy_is_answered_only_by_yes_or_no(tmp_path: Path) -> None:
    con, out = console()
    asked: list[str] = []

    def read_line(prompt: str) -> str:
        if prompt.startswith("¿Compras"):
            asked.append(prompt)
            if len(asked) > 4:
                raise EOFError
            # "1" is a move's number (the answer typed at every other prompt), never a yes.
            return ["1", "sii", "hint", "n"][len(asked) - 1]
        return "1"

    play_game(con, read_line, "chile", 3, seed=2, save=tmp_path / "g.json",
              options={"buying": "penalty_card"})
    text = out.getvalue()
    assert len(asked) == 5  # "1", a typo and a hint ask again; "n" declines; EOF at the next
    assert "Responde s (sí, la compro) o n (no)" in text
    assert "Pista:" in text
    assert "• Compras " not in text


def test_the_buy_question_takes_the_verb_the_help_and_the_coach_say(tmp_path: Path) -> None:
    """The help lists "compra" and the coach says "compra": typed at the "¿Compras?"
    question, it buys ("buy" in an English game)."""
    for lang, verb in (("es", "compra"), ("en", "buy")):
        con, out = console()

        def read_line(prompt: str, verb: str = verb) -> str:
            return verb if prompt.startswith(("¿Compras", "Buy ")) else "1"

        game = play_game(con, _buying(read_line), "chile", 3, seed=2, lang=lang,
                         save=tmp_path / f"{lang}.json", options={"buying": "penalty_card"})
        bought = [a for actions in game.log for a in actions if a.kind == "buy"]
        assert any(a.seat == 0 for a in bought), out.getvalue()[-500:]
        text = out.getvalue()
        assert "Responde s" not in text and "Answer y" not in text


def _buying(read_line: Callable[[str], str], limit: int = 400) -> Callable[[str], str]:
    """``read_line``, then EOF after ``limit`` prompts."""
    asked = [0]

    def limited(prompt: str) -> str:
        asked[0] += 1
        if asked[0] > limit:
            raise EOFError
        return read_line(prompt)
    return limited


def test_typed_moves_are_refused_in_the_words_typed(tmp_path: Path) -> None:
    """A refused typed move is told in the player's words, never in the record's fields
    ('agregar.meld'); in one's own turn "compra" is not offered, and a buy after the draw
    says that the draw is made."""
    con, out = console()
    typed = ["agrega 7C -1", "cambia QD 0 middle", "baja /", "baja 7H 7S 7D /", "xyz",
             "saca mazo", "compra", "quit"]
    play_game(con, Script(typed), "chile", 2, seed=1, save=tmp_path / "g.json",
              options={"buying": "penalty_card"})
    text = " ".join(out.getvalue().split())
    assert "'-1' no es un número de juego (los juegos se numeran desde 0)" in text
    assert "'middle' no es un extremo de la escala: escribe low (abajo) o high (arriba)" in text
    assert text.count("hay un juego vacío entre las '/'") == 2
    assert "'cambia QD 1' o 'bota 9C'" in text and "'compra'" not in text
    assert ".meld" not in text and ".end" not in text and "'bajar' es una lista" not in text
    assert "ya sacaste: en tu turno no se compra" in text
    con, out = console()
    play_game(con, Script(["agregar 7C x", "swap QD 0 up", "xyz", "quit"]), "chile", 2,
              seed=1, lang="en", save=tmp_path / "e.json")
    text = " ".join(out.getvalue().split())
    assert "'x' is not a meld number" in text
    assert "'up' is not an end of the escala: write low or high" in text
    assert "'swap QD 1' or 'discard 9C'" in text and "'buy'" not in text


def test_a_resumed_records_names_drive_no_terminal(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A shared record's names with escape codes reach neither the bots' introduction nor
    the coach's hints nor any refusal: their control characters are shown as codes."""
    monkeypatch.chdir(tmp_path)
    made = runner.invoke(app, ["play", "--bots", "chela,greedy", "--seed", "5", "--save",
                               "g.json"], input="quit\n")
    assert made.exit_code == 0, made.output
    doc = load((tmp_path / "g.json").read_text())
    doc["players"][1] = "Eve\x1b[2J"
    doc["players"][2] = "Caro\x1b]0;PWN\x07"
    (tmp_path / "g.json").write_text(json.dumps(doc), encoding="utf-8")
    played = runner.invoke(app, ["play", "--resume", "g.json", "--hints", "--lang", "en"],
                           input="1\n" * 60 + "quit\n")
    assert played.exit_code == 0, played.output
    assert "\x1b" not in played.output and "\x07" not in played.output
    assert "Eve\\x1b[2J — Tía Chela" in played.output
    assert "Hint:" in played.output


def test_bytes_that_are_not_utf8_are_asked_again(tmp_path: Path) -> None:
    """A terminal in Latin-1 types "sí" as bytes UTF-8 cannot read: the game says so and
    asks again, and goes on."""
    import subprocess
    import sys

    save = tmp_path / "g.json"
    result = subprocess.run(
        [sys.executable, "-c", "from carioca.cli import main; main()", "play", "--seed", "1",
         "--players", "2", "--save", str(save)], input=b"s\xed\n1\nquit\n",
        capture_output=True, timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8:strict", "COLUMNS": "200"})
    out = result.stdout.decode()
    assert result.returncode == 0, result.stderr.decode()
    assert "No entiendo esas letras" in out and "error interno" not in out
    # and the lines after it were read: the player drew ("1") before quitting
    assert any(a["p"] == 0 for a in load(save.read_text())["rounds"][0]["actions"])


def test_play_never_overwrites_and_saves_somewhere(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    kept = tmp_path / "keep.json"
    kept.write_text("a finished game", encoding="utf-8")
    result = runner.invoke(app, ["play", "--save", str(kept)], input="quit\n")
    assert result.exit_code == 2 and "ya existe" in result.stderr
    assert kept.read_text(encoding="utf-8") == "a finished game"
    # A place that cannot take the record (its folder is a file): the games folder does.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    blocked = tmp_path / "a-file"
    blocked.write_text("", encoding="utf-8")
    con, out = console()
    game = play_game(con, Script(["1", "quit"]), "chile", 2, seed=9, save=blocked / "g.json")
    saved = list((tmp_path / "data" / "carioca" / "games").glob("carioca-*-9.json"))
    assert len(saved) == 1
    assert "la partida quedó en" in out.getvalue().replace("\n", "")
    assert_replays(saved[0], game)


def test_a_stopped_game_goes_on_with_resume(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    con, _ = console()
    first = play_game(con, Script(["1"] * 12 + ["quit"]), "chico", 2, seed=5, name="Ana",
                      save=save)
    assert not first.is_over
    before = sum(len(r["actions"]) for r in load(save.read_text("utf-8"))["rounds"])
    result = runner.invoke(app, ["play", "--resume", str(save), "--preset", "rumi"],
                           input="quit\n")
    assert result.exit_code == 2 and "--resume" in result.stderr  # the record's rules stand
    result = runner.invoke(app, ["play", "--resume", str(save), "--lang", "en"],
                           input="1\n1\n1\n1\nquit\n")
    no_traceback(result)
    assert result.exit_code == 0, result.output
    assert f"Going on with the game in {save}" in result.stdout.replace("\n", "")
    assert "you deal, Beto starts" in result.stdout  # who started, not whose turn it is now
    doc = load(save.read_text("utf-8"))
    assert doc["players"][0] == "Ana"
    assert sum(len(r["actions"]) for r in doc["rounds"]) > before
    assert replay(doc).error is None
    # on to the end of the game, over the ends of rounds (dealt from a new seed)
    result = runner.invoke(app, ["play", "--resume", str(save)], input="1\n" * 20_000)
    no_traceback(result)
    assert result.exit_code == 0, result.output[-2000:]
    doc = load(save.read_text("utf-8"))
    finished = replay(doc)
    assert finished.error is None and finished.game is not None and finished.game.is_over
    assert len(doc["rounds"]) == 4  # chico
    # a record with no round dealt yet starts at round 1
    empty = write(tmp_path, to_record(Game(RuleSet.preset("chico"), ["Ana", "Beto"])),
                  "empty.json")
    result = runner.invoke(app, ["play", "--resume", str(empty)], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "ronda 1." in " ".join(result.stdout.split())  # wrapped where the path ends
    assert len(load(empty.read_text("utf-8"))["rounds"]) == 1
    # to the end, then a finished game has nothing to go on with
    con, _ = console()
    whole = play_game(con, Script([]), "chico", 2, seed=5, save=tmp_path / "w.json",
                      options={"rounds": [1]})
    assert whole.is_over
    result = runner.invoke(app, ["play", "--resume", str(tmp_path / "w.json")])
    assert result.exit_code == 2 and "ya terminó" in result.stderr
    result = runner.invoke(app, ["play", "--resume", str(write(tmp_path, "{", "junk.json"))])
    assert result.exit_code == 2 and "no se puede seguir" in result.stderr
    no_traceback(result)


@pytest.mark.parametrize(("args", "message"), [
    (["tournament", "--bots", "nope"], "unknown bot"),
    (["tournament", "--bots", "search@0"], "search@N"),
    (["tournament", "--bots", "search@99999999999999999999,greedy"], "100,000"),
    (["tournament", "--bots", "greedy,random", "--players", "0"], "--players must be 2"),
    (["tournament", "--bots", "greedy", "--players", "1"], "--players must be 2 or more"),
    (["tournament", "--bots", "search@²,greedy"], "search@N"),
    (["tournament", "--bots", "search@" + "9" * 5000 + ",greedy"], "…': write search@N"),
    (["tournament", "--bots", "greedy,search@5:clever"],
     "'search@5:clever': unknown playout policy 'clever': use greedy, lookahead"),
    (["tournament", "--bots", "greedy,search@5:" + "x" * 300], "policy 'xxxxxxxxxx"),
])
def test_tournament_refuses_bad_lineups_at_once(args: list[str], message: str) -> None:
    result = runner.invoke(app, [*args, "--games", "2", "--no-progress"])
    no_traceback(result)
    assert result.exit_code == 2
    assert message in result.stderr.replace("\n", ""), result.stderr
    # With the progress bar on, the refusal comes before any bar: no "0/2 games" over it.
    shown = runner.invoke(app, [*args, "--games", "2"])
    assert shown.exit_code == 2 and "games" not in shown.stderr, shown.stderr


def test_compare_set_is_named_when_it_is_misspelt() -> None:
    result = runner.invoke(app, ["simulate", "--games", "1", "--compare-set", "foo",
                                 "--no-progress"])
    assert result.exit_code == 2 and "--compare-set takes option=value" in result.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["--bot", "nope"], "unknown bot"),
    (["--players", "9"], "players"),
    (["--compare-set", "decks=1", "--players", "8"], "cards"),
])
def test_a_refused_simulation_makes_no_folder(tmp_path: Path, args: list[str],
                                              message: str) -> None:
    out = tmp_path / "sims"
    result = runner.invoke(app, ["simulate", "--games", "1", *args, "--out", str(out),
                                 "--no-progress"])
    no_traceback(result)
    assert result.exit_code == 2 and message in result.stderr, result.stderr
    assert not out.exists()


def test_an_option_set_twice_to_two_values_is_refused() -> None:
    """Which of two values was meant is the person's to say (the second used to win)."""
    lineup = ["tournament", "--bots", "random,random", "--games", "2", "--workers", "1",
              "--no-progress"]
    result = runner.invoke(app, [*lineup, "--set", "buying=off", "--set", "buying=penalty_card"])
    no_traceback(result)
    assert result.exit_code == 2
    assert "--set gives option 'buying' two different values: keep one" in result.stderr.replace(
        "\n", "")
    for values in (["jokers=true", "jokers=1"], ["hand_size=11", "hand_size=11.0"]):
        other = runner.invoke(app, [*lineup, "--set", values[0], "--set", values[1]])
        assert other.exit_code == 2 and "two different values" in other.stderr, values
    same = runner.invoke(app, [*lineup, "--set", "buying=off", "--set", "buying=off"])
    assert same.exit_code == 0, same.output


def test_a_run_of_more_games_than_can_be_listed_is_refused() -> None:
    for command in ("tournament", "simulate"):
        result = runner.invoke(app, [command, "--games", str(10**12), "--no-progress"])
        no_traceback(result)
        assert result.exit_code == 2 and "10000000" in result.output, result.output


def test_simulate_checks_its_folder_before_the_games(tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("", encoding="utf-8")
    result = runner.invoke(app, ["simulate", "--games", "1", "--workers", "1", "--out",
                                 str(blocked / "out"), "--no-progress"])
    no_traceback(result)
    assert result.exit_code == 2 and "cannot write to" in result.stderr
    assert "Turns" not in result.stdout  # refused before any game was played


def test_spanish_says_why_a_meld_is_not_one() -> None:
    """Every reason the engine gives for a meld that is not one, or a card that does not fit,
    has Spanish words in `carioca play --lang es` (tried on 3,000 random hands of cards)."""
    import random as _random

    from carioca.cards import ALL_CARDS, Card
    from carioca.errors import IllegalAction
    from carioca.melds import MeldError, read_meld
    from carioca.spanish import explain, meld_reason_es

    rng = _random.Random(7)
    seen: set[str] = set()
    for preset in ("chile", "chile-10", "online", "dos-libres"):
        rules = RuleSet.preset(preset)
        for _ in range(750):
            kind = rng.choice(["trio", "escala", "escala", "sucia", "real"])
            if kind in ("sucia", "real") and preset != "chile-10":
                kind = "escala"
            cards = rng.sample(list(ALL_CARDS), rng.randint(1, 6))
            try:
                meld = read_meld(cards, kind, rules, exact=preset == "online")
            except MeldError as exc:
                seen.add(str(exc))
                continue
            extra = rng.choice(list(ALL_CARDS))
            try:
                meld.grown(extra, rng.choice(["low", "high", None]), rules)
            except MeldError as exc:
                seen.add(str(exc))
    assert len(seen) >= 40
    english = [r for r in seen if meld_reason_es(r) == r]
    assert not english, english
    wrapped = IllegalAction("not_the_contract", "that is not the contract (two tríos): "
                                                "a trío needs 3 cards, not 2")
    assert explain(wrapped, "es") == "eso no es el contrato: un trío necesita 3 cartas, no 2"
    misfit = IllegalAction("does_not_fit", "7H cannot go on meld 0: 7H is not a Q: it does not "
                                           "fit the trío")
    assert explain(misfit, "es") == "7H no va en el juego 0: 7H no es una Q: no va en el trío"
    assert Card.parse("7H")  # the cards above are real cards


def test_a_failed_save_leaves_the_file_that_was_there(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The record is written beside its file and then put in place: a full disk keeps the game
    being resumed as it was, and the game goes to the games folder."""
    import os

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    kept = tmp_path / "resumed.json"
    kept.write_text("the game so far", encoding="utf-8")
    real_replace = os.replace

    def full_disk(src: Any, dst: Any) -> None:
        if Path(dst) == kept:
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", full_disk)
    con, out = console()
    game = play_game(con, Script(["1", "quit"]), "chile", 2, seed=4, name="Ana\ud800",
                     save=kept)
    assert kept.read_text(encoding="utf-8") == "the game so far"
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []
    saved = list((tmp_path / "data" / "carioca" / "games").glob("*.json"))
    assert len(saved) == 1 and "No space left" in " ".join(out.getvalue().split())
    doc = assert_replays(saved[0], game)
    assert doc["players"][0] == "Ana\ud800"  # an odd name is kept as it was given


def test_a_spanish_hint_names_the_move_as_the_player_types_it(tmp_path: Path) -> None:
    # "Pista: bota 7S", not the record's "discard 7S": typed back, it is the move suggested.
    con, out = console()
    typed: list[str] = []

    def read_line(prompt: str) -> str:
        if prompt.startswith("¿Compras"):
            return "n"
        hints = [line for line in out.getvalue().splitlines() if line.startswith("Pista: ")]
        if len(typed) == 12:
            raise EOFError
        move = hints[-1].removeprefix("Pista: ").split(" — ")[0]
        typed.append(move)
        return move

    game = play_game(con, read_line, "chile", 2, seed=4, save=tmp_path / "g.json",
                     hints=True)
    verbs = {move.split()[0] for move in typed}
    assert verbs <= {"saca", "baja", "agrega", "bota", "cambia"} and "bota" in verbs
    mine = [a for a in game.log[0] if a.seat == 0]
    assert len(mine) >= 12  # every suggestion typed back was played


@pytest.mark.parametrize(("twelve", "added", "said"), [
    ("AH 2H 3H 4H 5H JK 7H 8H 9H 10H JH QH", "KH", "puts 6H in meld 0 and takes the comodín"),
    ("2H 3H 4H 5H JK 7H 8H 9H 10H JH QH KH", None, "puts 6H in meld 0; the comodín moves"),
])
def test_the_terminal_says_where_a_swapped_wild_went(twelve: str, added: str | None,
                                                     said: str) -> None:
    """Under relocate the wild moves to an end of the escala, unless the escala holds all
    thirteen ranks: then it goes to the hand (ruling 11), and the line says so."""
    from collections import Counter

    from carioca.actions import Agregar, Bajar, Discard, Draw, Swap
    from carioca.cards import Card, deck, parse_cards
    from carioca.cli import _Session
    from carioca.engine import Deal

    rules = RuleSet.preset("online", contracts=["1E"], hand_size=13, exact_melds=False)
    hands = (tuple(parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")),
             tuple(parse_cards(f"{twelve} 6H")))
    top, pozo = parse_cards("QD 10D KH"), (Card.parse("5C"),)
    rest = Counter(deck(2, 2))
    rest.subtract([*hands[0], *hands[1], *top, *pozo])
    game = Game(rules, ["Ana", "Beto"])
    game.start_round(Deal(hands, pozo, (*top, *sorted(rest.elements())), None))
    game.apply(Draw(1, "mazo"))
    game.apply(Bajar(1, (tuple(parse_cards(twelve)),)))
    game.apply(Discard(1, Card.parse("QD")))
    game.apply(Draw(0, "mazo"))
    game.apply(Discard(0, Card.parse("10D")))
    game.apply(Draw(1, "mazo"))
    if added:
        game.apply(Agregar(1, Card.parse(added), 0, "high"))
    out = io.StringIO()
    session = _Session(Console(file=out, width=200), lambda prompt: "", game, {}, "en", "rank")
    session.apply(Swap(1, Card.parse("6H"), 0))
    assert said in out.getvalue()


@pytest.mark.parametrize("cap, said", [
    (None, ("Mazo: 0 cards (drawing reshuffles the pozo)",
            "Mazo: 0 cartas (al sacar, se baraja el pozo)")),
    (0, ("Mazo: 0 cards\n", "Mazo: 0 cartas\n")),  # the discard to come ends the round
])
def test_an_empty_mazo_says_the_pozo_rebuilds_it(cap: int | None, said: tuple[str, str]) -> None:
    """Ruling 21: an empty mazo is rebuilt from the pozo when drawn from, and the board says so,
    unless the table's cap allows no more."""
    from carioca.actions import Discard, Draw
    from carioca.cli import _Session

    game = Game.new(RuleSet.preset("chile", decks=1, jokers=0, hand_size=5, rounds=[1],
                                   max_reshuffles=cap), ["Ana", "Beto"], seed=2)
    while True:
        seat = game.seat_to_act
        assert seat is not None
        game.apply(Draw(seat, "mazo"))
        if not game.view(None).mazo_count:
            break  # the last card drawn: its player is to play
        game.apply(Discard(seat, game.hand(seat)[-1]))
    for lang, words in zip(("en", "es"), said, strict=True):
        out = io.StringIO()
        _Session(Console(file=out, width=200), lambda prompt: "", game, {}, lang, "rank"
                 ).show_board()
        assert words in out.getvalue(), out.getvalue()


def test_a_nested_set_value_is_refused_in_words() -> None:
    deep = "rounds=" + "[" * 3000
    for args in (["rules", "chile", "--set", deep],
                 ["tournament", "--bots", "greedy,greedy", "--games", "2", "--set", deep]):
        result = runner.invoke(app, args)
        no_traceback(result)
        assert result.exit_code == 2, result.output
        assert "'rounds'" in result.stderr and ("nested" in result.stderr
                                                or "anidada" in result.stderr)


def test_a_closed_standard_input_is_said_and_the_game_kept(tmp_path: Path) -> None:
    """`carioca replay - <&-` and `carioca play <&-`: no keyboard is no internal error."""
    import os
    import subprocess
    import sys

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        carioca = str(Path(sys.executable).parent / "carioca")
        return subprocess.run([carioca, *args], capture_output=True,
                              text=True, timeout=120, preexec_fn=lambda: os.close(0),
                              stdin=subprocess.DEVNULL)

    replayed = run("replay", "-")
    assert replayed.returncode == 2
    assert "no se puede leer -: la entrada está cerrada" in replayed.stderr, replayed.stderr
    save = tmp_path / "g.json"
    played = run("play", "--seed", "1", "--players", "2", "--save", str(save))
    assert "Traceback" not in played.stderr and "interno" not in played.stderr, played.stderr
    assert played.returncode == 0 and replay(json.loads(save.read_text())).error is None
