"""The online table's protocol: schema-checked messages, hidden information, versions,
buying, and nothing acknowledged is ever lost (restart, and kill -9)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from carioca import Game, RuleSet
from carioca.bots.levels import BOTS
from carioca.record import replay
from carioca.server import create_app, tables
from carioca.server.app import ActionMsg, _handle
from carioca.server.tables import Connection, clean_name, make_bot

CARD_KEYS_ALLOWED = (
    ("view", "hand"),
    ("view", "pozo"),
    ("view", "melds", "*", "cards"),
    ("view", "melds", "*", "stands_for"),
    ("view", "known", "*"),
    ("view", "log", "*", "bajar", "*"),
    ("round_end", "hands", "*"),
)


def _new(client: TestClient, **body: Any) -> dict[str, Any]:
    answer = client.post("/api/tables", json={"name": "Ana", **body})
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def test_an_option_named_self_or_not_text_is_refused_in_words() -> None:
    """Options whose name is "self" (a clash with Python's arguments), or holds a lone
    surrogate (valid JSON, not valid text), get the rules' refusal, not a 500."""
    with TestClient(create_app(":memory:", bot_delay=0)) as client:
        for key in ("self", "\udfff"):
            body = json.dumps({"name": "Ana", "options": {key: 1}})
            made = client.post("/api/tables", content=body,
                               headers={"Content-Type": "application/json"})
            shown = client.get("/api/rules", params={"options": json.dumps({key: 1})})
            for answer in (made, shown):
                assert answer.status_code == 400, answer.text
                error = answer.json()["error"]
                assert error["code"] == "bad_rules"
                assert error["message"] == f"unknown option {key!r}"  # escaped, as Python


def test_the_frameworks_refusals_have_the_documented_shape() -> None:
    """A body that is not JSON or not UTF-8, a route or method that is not there, a bot name
    too long: each a coded error in the {"error": ...} shape, and no long input echoed."""
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        json_type = {"Content-Type": "application/json"}
        for body in (b"{nope", b'{"name": "\xff"}', b'{"seats": ' + b"9" * 5000 + b"}"):
            answer = client.post("/api/tables", content=body, headers=json_type)
            assert answer.status_code == 400
            assert answer.json()["error"]["code"] == "bad_json", answer.text
        assert client.get("/api/nothing").json() == {"error": {
            "code": "not_found", "message": "there is no such page or API route"}}
        wrong = client.get("/api/tables")
        assert wrong.json()["error"]["code"] == "bad_method"
        assert wrong.headers["allow"] == "POST"
        answer = client.post("/api/tables", json={"name": "Ana", "bots": {"1": "x" * 100_000}})
        assert answer.status_code == 400 and len(answer.content) < 400
        answer = client.get(f"/api/tables/{'Q' * 60_000}")
        assert answer.status_code == 404 and len(answer.content) < 400
        code, token, _, _ = _two_playing(client, app)
        with client.websocket_connect(f"/ws/{code}") as ws:
            _hello(ws, token)
            reply = _send(ws, {"type": "x" * 16_000})
            assert reply["code"] == "bad_message" and len(reply["message"]) < 120
            assert reply["message"].startswith("that message's type is not one of")
            reply = _send(ws, {"type": "action", "action": {"p": 0, "discard": "Z" * 10_000}})
            assert reply["code"] == "bad_action" and len(reply["message"]) <= 300
            assert reply["message"] == ("'ZZZZZZZZZZZZZZZZZZZZZ…' is not a card (write rank then "
                                        "suit, like 10H or JK)"), reply["message"]


def _two_playing(client: TestClient, app: Any) -> tuple[str, str, str, Any]:
    """Ana (the host) and Beto at a started 2-seat `chile` table: its code, their tokens and
    the table (Beto plays first)."""
    made = _new(client, preset="chile", seats=2)
    code, ana = made["code"], made["token"]
    beto = client.post(f"/api/tables/{code}/join", json={"name": "Beto"}).json()["token"]
    client.post(f"/api/tables/{code}/start", headers={"X-Carioca-Token": ana})
    return code, ana, beto, app.state.manager.tables[code]


def _hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome"
    state = ws.receive_json()
    assert state["type"] == "state"
    return welcome  # type: ignore[no-any-return]


@contextlib.contextmanager
def _started_duel(client: TestClient) -> Iterator[Any]:
    """A started 2-seat `chile` table, Ana at seat 0 and a bot at seat 1 (who plays first in
    round 1): Ana's connection."""
    made = _new(client, preset="chile", seats=2, bots={"1": "random"})
    code, token = made["code"], made["token"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        _hello(ws, token)
        client.post(f"/api/tables/{code}/start", headers={"X-Carioca-Token": token})
        yield ws


def _until_state(ws: Any, pred: Any = None, limit: int = 500) -> dict[str, Any]:
    for _ in range(limit):
        msg = ws.receive_json()
        if msg["type"] == "state" and (pred is None or pred(msg)):
            return msg  # type: ignore[no-any-return]
    raise AssertionError("no such state")


def _send(ws: Any, payload: dict[str, Any]) -> dict[str, Any]:
    """Send a message and wait for its answer (an ack or an error), skipping states."""
    ws.send_json(payload)
    for _ in range(500):
        reply = ws.receive_json()
        if reply["type"] in ("ack", "error"):
            return reply  # type: ignore[no-any-return]
    raise AssertionError("no answer")


def _moves(log: Any) -> list[str]:
    """What each log entry did: draw, discard, buy, bajar, ..."""
    return [next(k for k in e if k != "p") for e in log]


def _mazo_then_first_discard(legal: Any) -> Any:
    """A test bot's move: draw from the mazo, then throw the first card it may."""
    from carioca.actions import Discard, Draw

    return next((a for a in legal if isinstance(a, Draw) and a.source == "mazo"),
                next((a for a in legal if isinstance(a, Discard)), legal[0]))


def _card_lists(node: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], list[str]]]:
    """Every list of card texts in a message, with where it is."""
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _card_lists(value, (*path, str(key)))
    elif isinstance(node, list):
        if node and all(isinstance(x, str) and _is_card(x) for x in node):
            found.append((path, node))
        else:
            for i, value in enumerate(node):
                found += _card_lists(value, (*path, str(i)))
    return found


def _is_card(text: str) -> bool:
    from carioca.cards import Card, CardError

    try:
        Card.parse(text)
    except CardError:
        return False
    return True


def _allowed(path: tuple[str, ...]) -> bool:
    for pattern in CARD_KEYS_ALLOWED:
        if len(pattern) == len(path) and all(p in ("*", q) for p, q in zip(pattern, path,
                                                                             strict=True)):
            return True
    return path[:1] == ("legal",)


def test_a_whole_game_over_the_socket_replays_to_the_same_scores() -> None:
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        made = _new(client, preset="chico", seats=3, bots={"1": "random", "2": "random"})
        code, token = made["code"], made["token"]
        with client.websocket_connect(f"/ws/{code}") as ws:
            assert _hello(ws, token)["seat"] == 0
            start = client.post(f"/api/tables/{code}/start", headers={"X-Carioca-Token": token})
            assert start.json()["status"] == "playing"
            rng = random.Random(3)
            while True:
                msg = ws.receive_json()
                if msg["type"] != "state":
                    continue
                if msg["table"]["status"] == "over":
                    final = msg["view"]["sheet"]
                    break
                if msg.get("legal"):
                    ws.send_json({"type": "action", "version": msg["version"],
                                  "action": rng.choice(msg["legal"])})
        record = client.get(f"/api/tables/{code}/record").json()
    result = replay(record)
    assert result.error is None
    assert result.game is not None
    assert result.game.score_sheet().to_json() == final
    assert final["finished"] and final["winners"]


def test_a_seat_never_receives_another_seats_hidden_cards() -> None:
    app = create_app(":memory:", bot_delay=0)
    manager = app.state.manager
    with TestClient(app) as client:
        made = _new(client, preset="chico", seats=3, bots={"1": "random", "2": "random"},
                    options={"buying": "penalty_card", "rounds": [1, 2]})
        code, token = made["code"], made["token"]
        with client.websocket_connect(f"/ws/{code}") as ws:
            _hello(ws, token)
            client.post(f"/api/tables/{code}/start", headers={"X-Carioca-Token": token})
            table = manager.tables[code]
            rng = random.Random(5)
            checked = compared = 0
            while True:
                msg = ws.receive_json()
                if msg["type"] != "state" or "view" not in msg:
                    continue
                checked += 1
                compared += _check_secret(msg, 0, table)
                if msg["table"]["status"] == "over":
                    break
                if msg["legal"]:
                    ws.send_json({"type": "action", "version": msg["version"],
                                  "action": rng.choice(msg["legal"])})
            assert checked > 100 and compared > 20, (checked, compared)


def _check_secret(msg: dict[str, Any], seat: int, table: Any) -> bool:
    """Check one state message to ``seat``; whether its hand was compared with the game's."""
    assert "mazo" not in msg["view"], "the mazo order never leaves the server"
    assert msg["view"]["open_hands"] is None
    for path, _cards in _card_lists(msg):
        assert _allowed(path), f"cards at {path} in a message to seat {seat}"
    for action in msg["legal"]:
        assert action["p"] == seat
    game = table.game
    # The server's thread may be changing the game as this one reads it. One view reads the
    # hand and the round from the same round, then the log (an action joins the log before
    # it moves a card), then the version (moved after both): a hand read mid-change never
    # matches the message's moment, so it is not compared.
    own = game.view(seat)
    hand = Counter(str(c) for c in own.hand or ())
    moment = (own.round, len(own.log), table.version)
    view = msg["view"]
    if moment == (view["round"], view["log_start"] + len(view["log"]), msg["version"]) \
            and game.seat_to_act is not None:
        assert Counter(view["hand"]) == hand
        compared = True
    else:
        compared = False
    end = msg.get("round_end")
    if end is not None:
        assert end["round"] <= len(game.results), "hands are shown only once a round is over"
    return compared


def test_bad_messages_get_an_error_and_change_nothing() -> None:
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        code, token, token1, table = _two_playing(client, app)
        with client.websocket_connect(f"/ws/{code}") as ws:
            _hello(ws, token)  # seat 0; seat 1 plays first in round 1
            before = (table.version, len(table.game.log[-1]))
            bad = [
                "not json",
                "[1, 2]",
                json.dumps({"type": "shout"}),
                json.dumps({"type": "action", "version": table.version,
                            "action": {"p": 0, "draw": "mazo"}, "extra": 1}),
                json.dumps({"type": "action", "version": table.version, "action": "draw"}),
                "x" * 20000,
                json.dumps({"type": "action", "version": table.version,
                            "action": {"p": 1, "draw": "mazo"}}),  # another seat
                json.dumps({"type": "action", "version": table.version,
                            "action": {"p": 0, "draw": "mazo"}}),  # out of turn
                json.dumps({"type": "action", "version": table.version - 1,
                            "action": {"p": 0, "draw": "mazo"}}),  # stale
                json.dumps({"type": "action", "version": table.version,
                            "action": {"p": 0, "discard": "ZZ"}}),
                json.dumps({"type": "undo", "version": table.version}),
            ]
            codes = []
            for text in bad:
                ws.send_text(text)
                reply = ws.receive_json()
                while reply["type"] == "state":
                    reply = ws.receive_json()
                assert reply["type"] == "error", text[:40]
                assert reply["message"]
                codes.append(reply["code"])
                assert (table.version, len(table.game.log[-1])) == before
            assert "not_your_seat" in codes and "stale_version" in codes
            assert "not_your_turn" in codes and "too_big" in codes
        with client.websocket_connect(f"/ws/{code}") as ws1:
            _hello(ws1, token1)
            ws1.send_json({"type": "action", "version": table.version,
                           "action": {"p": 1, "draw": "mazo"}})
            reply = ws1.receive_json()
            while reply["type"] == "state":
                reply = ws1.receive_json()
            assert reply["type"] == "ack"


def test_hints_and_bot_lines_come_in_the_players_language() -> None:
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        catalog = client.get("/api/presets").json()
        assert all(set(b["description"]) == {"es", "en", "de", "sv"} for b in catalog["bots"])
        for preset in catalog["presets"]:  # the lobby's line about each preset
            assert set(preset["notes"]) == {"es", "en", "de", "sv"}, preset["name"]
            assert all(preset["notes"].values()), preset["name"]
        made = _new(client, preset="chile", seats=4,
                    bots={"1": "chela", "2": "chela", "3": "greedy"})
        code, token = made["code"], made["token"]
        names = [s["name"] for s in client.get(f"/api/tables/{code}").json()["seats"]]
        assert names == ["Ana", "Tía Chela", "Tía Chela 2", "Greedy"]  # titles, not codes
        with client.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json({"type": "hello", "token": token, "lang": "sv"})
            assert ws.receive_json()["type"] == "welcome"
            client.post(f"/api/tables/{code}/start", headers={"X-Carioca-Token": token})
            _until_state(ws, lambda m: bool(m.get("legal")))
            reply = _send_hint(ws)
            assert reply["type"] == "hint", reply
            assert reply["reason"].split()[0] in ("ta", "dra"), reply  # Swedish: take, draw


def test_the_generic_bots_have_a_title_in_each_language() -> None:
    """Random, Eager, Greedy, Lookahead and Search are named in the page's language ("Al
    azar" in Spanish) with their line; a personality is called the same in every language;
    a seat keeps the English title, which the log and the record name it by."""
    generic = {"random", "eager", "greedy", "lookahead", "search"}
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        bots = {b["name"]: b for b in client.get("/api/presets").json()["bots"]}
        assert bots["random"]["titles"] == {"es": "Al azar", "en": "Random", "de": "Zufall",
                                            "sv": "Slumpen"}
        assert bots["random"]["title"] == "Random"  # the name a seat takes
        for name, bot in bots.items():
            titles = bot["titles"]
            assert set(titles) == {"es", "en", "de", "sv"} and titles["en"] == bot["title"]
            for lang, title in titles.items():
                assert bot["description"][lang].startswith(f"{title}: "), (name, lang)
                line = getattr(BOTS[name], lang)
                assert bot["description"][lang] == f"{title}: {line}"
            if name in generic:  # a word of each language, none the English one
                assert len(set(titles.values())) == 4, titles
            else:
                assert set(titles.values()) == {bot["title"]}, titles
        made = _new(client, preset="chile", seats=3, bots={"1": "random", "2": "random"})
        names = [s["name"] for s in made["table"]["seats"]]
        assert names == ["Ana", "Random", "Random 2"]


@pytest.mark.parametrize("name", sorted(BOTS))
def test_every_named_bot_moves_at_a_table(name: str) -> None:
    # The table hands a bot its legal actions as a plain list: the planners must be told the
    # rules (before stop 15 every bot but random and eager failed here and never moved).
    rules = RuleSet.preset("chile")
    game = Game.new(rules, ["Ana", "Beto"], seed=2)
    seat = game.seat_to_act
    assert seat is not None
    for _ in range(2):  # a draw, then a play
        legal = list(game.legal_actions(seat))
        action = make_bot(name, 5, rules).choose(game.view(seat), legal)
        assert action in legal
        game.apply(action)


def test_a_bot_that_fails_is_played_for_and_the_game_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:
        name = "broken"
        description = "raises (for the test only)"

        def choose(self, view: Any, legal: Any) -> Any:
            raise RuntimeError("a bug in a bot")

    monkeypatch.setattr(tables, "make_bot", lambda name, seed, rules=None: Broken())
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client, _started_duel(client) as ws:
        # Seat 1 plays first in round 1: the table draws and discards for the broken bot
        # (as the turn timer would), and the turn comes to seat 0.
        state = _until_state(ws, lambda m: bool(m.get("legal")))
        moves = _moves(state["view"]["log"])
        assert moves == ["draw", "discard"]
        assert state["view"]["log"][0] == {"p": 1, "draw": "mazo"}


def test_the_server_serves_other_tables_while_a_bot_thinks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    class Slow:
        """Thinks until the test lets it go (a search bot's second, stretched)."""

        name = "slow"
        description = "waits (for the test only)"
        thinking, finished, go = threading.Event(), threading.Event(), threading.Event()

        def choose(self, view: Any, legal: Any) -> Any:
            self.thinking.set()
            self.go.wait(10)
            self.finished.set()
            return legal[0]

    monkeypatch.setattr(tables, "make_bot", lambda name, seed, rules=None: Slow())
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        slow = _new(client, preset="chile", seats=2, bots={"1": "random"})
        other = _new(client, preset="chile", seats=2)
        client.post(f"/api/tables/{slow['code']}/start",
                    headers={"X-Carioca-Token": slow["token"]})
        assert Slow.thinking.wait(10)  # seat 1 plays first in round 1: the bot is thinking
        with client.websocket_connect(f"/ws/{other['code']}") as ws:
            _hello(ws, other["token"])
            ws.send_json({"type": "ping"})
            while ws.receive_json()["type"] != "pong":
                pass
            assert not Slow.finished.is_set()  # answered while the bot was still thinking
        Slow.go.set()
        table = app.state.manager.tables[slow["code"]]
        for _ in range(200):
            if table.game.view(0).log:
                break
            time.sleep(0.05)
        first = table.game.view(0).log[0]
        assert first["p"] == 1 and "draw" in first  # then its move was played


def test_a_hint_is_worked_out_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from carioca import coach

    where: list[str] = []
    real = coach.hint

    def spy(*args: Any, **kwargs: Any) -> Any:
        where.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(coach, "hint", spy)
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client, _started_duel(client) as ws:
        _until_state(ws, lambda m: bool(m.get("legal")))
        assert _send_hint(ws)["type"] == "hint"
    assert where and where[0].startswith("carioca-bot")  # the bots' thread, not the loop


def test_a_hint_for_a_moment_gone_is_not_given(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table moves while the coach thinks: the answer says so instead of old advice. A
    coach that fails on a position says so too, and the table goes on."""
    from carioca import coach

    real = coach.hint
    app = create_app(":memory:", bot_delay=0)

    def moved(*args: Any, **kwargs: Any) -> Any:
        (table,) = app.state.manager.tables.values()
        table.version += 1  # as any change of the game does
        table.game_version = table.version
        return real(*args, **kwargs)

    with TestClient(app) as client, _started_duel(client) as ws:
        _until_state(ws, lambda m: bool(m.get("legal")))
        monkeypatch.setattr(coach, "hint", moved)
        refused = _send_hint(ws)
        # said about the hint: a page does not take it for the refusal of a move
        assert (refused["code"], refused["about"]) == ("stale_version", "hint")
        monkeypatch.setattr(coach, "hint", real)
        assert _send_hint(ws)["type"] == "hint"

        def fails(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("a fault of the coach's")
        # A coach that fails says so; the connection and the table go on.
        monkeypatch.setattr(coach, "hint", fails)
        assert _send_hint(ws)["code"] == "no_coach"
        monkeypatch.setattr(coach, "hint", real)
        assert _send_hint(ws)["type"] == "hint"


def _send_hint(ws: Any) -> dict[str, Any]:
    ws.send_json({"type": "hint"})
    for _ in range(500):
        reply = ws.receive_json()
        if reply["type"] != "state":
            return reply  # type: ignore[no-any-return]
    raise AssertionError("no hint")


def test_the_state_says_whom_the_turn_timer_played_for() -> None:
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        made = _new(client, preset="chile", seats=2, bots={"1": "random"}, turn_timer=30)
        code, token = made["code"], made["token"]
        with client.websocket_connect(f"/ws/{code}") as ws:
            _hello(ws, token)
            client.post(f"/api/tables/{code}/start", headers={"X-Carioca-Token": token})
            mine = _until_state(ws, lambda m: bool(m.get("legal")))
            assert mine["played_for"] is None
            # the server's clock, by which the page counts the deadline down
            assert abs(mine["now"] - time.time()) < 5 and mine["deadlines"]["turn"] > mine["now"]
            app.state.manager.tables[code].turn_deadline = time.time() - 1  # it runs out
            played = _until_state(ws, lambda m: m.get("played_for") is not None)
        assert played["played_for"] == 0
        assert _moves(played["view"]["log"][-2:]) == ["draw", "discard"]


def test_the_replay_viewer_is_told_the_code_of_a_records_fault() -> None:
    # The page says the fault in the player's language by its code; the rest is the
    # `carioca replay --json` error.
    app = create_app(":memory:", bot_delay=0)
    from carioca.actions import Draw

    game = Game.new(RuleSet.preset("chile", rounds=[1]), ["Ana", "Beto"], seed=2)
    seat = game.seat_to_act
    assert seat is not None
    game.apply(Draw(seat, "mazo"))
    doc = game.to_record()
    missing = next(c for c in ("AS", "KD", "7H", "2C") if c not in map(str, game.hand(seat)))
    doc["rounds"][0]["actions"].append({"p": seat, "discard": missing})
    with TestClient(app) as client:
        broken = client.post("/api/replay", json=doc).json()
        malformed = client.post("/api/replay", json={"format": "x"}).json()
    assert broken["error"]["code"] == "card_not_in_hand"
    assert (broken["error"]["round"], broken["error"]["action"]) == (1, 2)
    assert len(broken["steps"]) == 1  # the draw, up to the fault
    assert malformed["error"]["code"] == "bad_record" and malformed["error"]["round"] is None


def test_a_record_is_replayed_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long record takes seconds to replay; done on the server's event loop it would stop
    every table meanwhile, so both replay endpoints hand it to the one replay thread (many
    threads would each want the interpreter lock the loop needs)."""
    import threading

    from carioca.server import app as app_module

    threads: list[str] = []
    for name in ("_replay_steps", "_replay_view"):
        real = getattr(app_module, name)

        def spy(*args: Any, real: Any = real) -> Any:
            threads.append(threading.current_thread().name)
            return real(*args)
        monkeypatch.setattr(app_module, name, spy)
    doc = Game.new(RuleSet.preset("chile", rounds=[1]), ["Ana", "Beto"], seed=2).to_record()
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        loop = client.portal.call(lambda: threading.current_thread().name)  # type: ignore[union-attr]
        assert "steps" in client.post("/api/replay", json=doc).json()
        assert "view" in client.post("/api/replay/view", json={"record": doc, "step": 0}).json()
    assert threads == ["carioca-replay_0"] * 2 and loop not in threads, (loop, threads)


@pytest.mark.parametrize(("body", "english", "spanish"), [
    ({"preset": "chile", "seats": 8, "options": {"decks": 1}},
     "round 1 deals 12 cards to 8 players and turns one up: 97 cards, but the deck has only "
     "54; add a deck",
     "la ronda 1 reparte 12 cartas a 8 jugadores y da vuelta una: hacen falta 97 cartas, pero "
     "solo hay 54; agrega un naipe"),
    ({"preset": "chile", "options": {"contracts": ["20T"]}},
     "round 1 (20T) can never be played: 20 tríos need at least 60 cards, but a hand never "
     "holds more than 13",
     "la ronda 1 (20T) no se puede jugar nunca: 20 tríos necesitan al menos 60 cartas, pero "
     "una mano nunca tiene más de 13"),
    ({"preset": "online", "seats": 5},
     "online is played by 2 to 4 players, not 5",
     "el carioca online se juega de 2 a 4 jugadores, no con 5"),
    ({"preset": "chile", "options": {"jokers": 9}},
     "option 'jokers' must be a whole number from 0 to 4, not 9",
     "la opción 'jokers' tiene que ser un número entero de 0 a 4, no 9"),
    ({"preset": "chile", "options": {"bying": "off"}},
     "unknown option 'bying' (did you mean 'buying'?)",
     "no existe la opción 'bying' (¿quisiste decir 'buying'?)"),
])
def test_rules_that_cannot_be_played_are_refused_with_the_reason_in_spanish(
        body: dict[str, Any], english: str, spanish: str) -> None:
    """The engine's reason in English (as records and the CLI say it), and beside it in
    Spanish (``detail.es``), which the lobby shows on a Spanish page."""
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        answer = client.post("/api/tables", json={"name": "Ana", **body})
        assert answer.status_code == 400
        assert answer.json() == {"error": {"code": "bad_rules", "message": english,
                                           "detail": {"es": spanish}}}
        assert not app.state.manager.tables  # nothing made
        other = client.post("/api/tables", json={"name": "Ana", "turn_timer": 7}).json()
        assert other["error"]["code"] == "bad_timer" and "detail" not in other["error"]


def test_a_stuck_bot_is_played_for_and_the_other_tables_bots_go_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    class Stuck:
        """Never answers until the test ends (a bot with a bug, say)."""

        name = "stuck"
        description = "hangs (for the test only)"
        thinking, go = threading.Event(), threading.Event()

        def choose(self, view: Any, legal: Any) -> Any:
            self.thinking.set()
            self.go.wait(30)
            return legal[0]

    made: list[str] = []

    def make(name: str, seed: Any, rules: Any = None) -> Any:
        made.append(name)
        return Stuck() if len(made) == 1 else make_bot(name, seed, rules)

    monkeypatch.setattr(tables, "make_bot", make)
    monkeypatch.setattr(tables, "THINK_LIMIT", 0.5)
    app = create_app(":memory:", bot_delay=0)
    try:
        with TestClient(app) as client:
            stuck = _new(client, preset="chile", seats=2, bots={"1": "random"})
            other = _new(client, preset="chile", seats=2, bots={"1": "random"})
            for made_table in (stuck, other):  # seat 1, a bot, plays first in round 1
                client.post(f"/api/tables/{made_table['code']}/start",
                            headers={"X-Carioca-Token": made_table["token"]})
            assert Stuck.thinking.wait(10)
            logs: list[Any] = []
            for _ in range(100):
                logs = [app.state.manager.tables[t["code"]].game.view(0).log
                        for t in (stuck, other)]
                if all(len(log) >= 2 for log in logs):
                    break
                time.sleep(0.1)
            # The stuck bot was played for as the turn timer would: from the mazo, then a
            # discard; the other table's bot, queued behind it, thought in a new thread.
            assert logs[0][0] == {"p": 1, "draw": "mazo"} and "discard" in logs[0][1]
            assert logs[1][0]["p"] == 1 and "draw" in logs[1][0]
            assert not Stuck.go.is_set()  # all while the stuck bot still hangs
    finally:
        Stuck.go.set()


def test_a_bot_given_up_on_is_not_asked_again_until_its_thought_ends(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    class Hangs:
        """Hangs on every move until the test lets it go (a bot with a bug, say)."""

        name = "hangs"
        description = "hangs (for the test only)"
        go = threading.Event()
        asked = 0
        threads: list[threading.Thread] = []

        def choose(self, view: Any, legal: Any) -> Any:
            type(self).asked += 1
            self.threads.append(threading.current_thread())
            self.go.wait(30)
            return _mazo_then_first_discard(legal)

    def my_turn(ws: Any, state: Any = None) -> None:
        """Wait for seat 0's turn (unless its ``state`` is given), then draw from the mazo
        and throw a card."""
        state = state or _until_state(ws, lambda m: bool(m.get("legal")))
        draw = next(a for a in state["legal"] if a.get("draw") == "mazo")
        assert _send(ws, {"type": "action", "version": state["version"],
                          "action": draw})["type"] == "ack"
        state = _until_state(ws, lambda m: bool(m.get("legal")))
        throw = next(a for a in state["legal"] if "discard" in a)
        assert _send(ws, {"type": "action", "version": state["version"],
                          "action": throw})["type"] == "ack"

    monkeypatch.setattr(tables, "make_bot", lambda name, seed, rules=None: Hangs())
    monkeypatch.setattr(tables, "THINK_LIMIT", 0.5)
    app = create_app(":memory:", bot_delay=0)
    try:
        with TestClient(app) as client, _started_duel(client) as ws:
            my_turn(ws)  # the bot, first to play, hung and was played for
            assert Hangs.asked == 1
            my_turn(ws)  # its next turn was played for at once, without asking it
            assert Hangs.asked == 1  # so no second thread hangs on it
            Hangs.go.set()  # its thought ends, and its thread with it
            Hangs.threads[0].join(5)
            assert not Hangs.threads[0].is_alive()
            state = _until_state(ws, lambda m: bool(m.get("legal")))  # the bot's turn is over
            asked = Hangs.asked
            my_turn(ws, state)
            _until_state(ws, lambda m: bool(m.get("legal")))  # the bot has moved
            assert Hangs.asked == asked + 2  # it was asked again: its draw and discard
    finally:
        Hangs.go.set()


def test_a_bot_thinks_about_a_buy_off_the_event_loop_and_its_claim_stands(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import threading


    class SlowBuyer:
        """Draws from the mazo and throws its first card; the first time it may buy, it
        thinks until the test lets it go, then buys."""

        name = "slow-buyer"
        description = "waits, then buys (for the test only)"
        thinking, go = threading.Event(), threading.Event()
        answered: list[int] = []

        def __init__(self, seat: int) -> None:
            self.seat = seat

        def choose(self, view: Any, legal: Any) -> Any:
            return _mazo_then_first_discard(legal)

        def wants_to_buy(self, view: Any, legal: Any) -> bool:
            if self.answered:
                return False
            self.thinking.set()
            self.go.wait(10)
            self.answered.append(self.seat)
            return True

    seats = iter(range(1, 3))
    monkeypatch.setattr(tables, "make_bot",
                        lambda name, seed, rules=None: SlowBuyer(next(seats)))
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        made = _new(client, preset="chile", seats=3, bots={"1": "random", "2": "random"},
                    options={"buying": "penalty_card"})
        other = _new(client, preset="chile", seats=2)
        code = made["code"]
        table = app.state.manager.tables[code]
        with client.websocket_connect(f"/ws/{code}") as ws0:
            _hello(ws0, made["token"])
            client.post(f"/api/tables/{code}/start", headers={"X-Carioca-Token": made["token"]})
            # Seat 1 plays first; seat 0 (Ana) lets its discard go, seat 2 plays, and seat 1
            # may buy seat 2's discard before Ana draws.
            state = _until_state(ws0, lambda m: m.get("legal") == [{"p": 0, "buy": True}])
            assert _send(ws0, {"type": "pass", "version": state["version"]})["type"] == "ack"
            assert SlowBuyer.thinking.wait(10)
            with client.websocket_connect(f"/ws/{other['code']}") as ws:
                _hello(ws, other["token"])
                ws.send_json({"type": "ping"})
                while ws.receive_json()["type"] != "pong":
                    pass
                assert not SlowBuyer.answered  # answered while the bot was still thinking
            SlowBuyer.go.set()
            for _ in range(200):
                if SlowBuyer.answered:
                    break
                time.sleep(0.05)
            assert SlowBuyer.answered == [1] and not any(table.game.view(0).buys)
            # The claim waits for Ana, who has first claim; she draws from the mazo instead.
            assert _send(ws0, {"type": "action", "version": None,
                               "action": {"p": 0, "draw": "mazo"}})["type"] == "ack"
        assert table.game.view(0).buys[1] == 1  # the bot's claim stood: it bought the card
        tail = _moves(table.game.view(0).log[-3:])
        assert tail == ["discard", "buy", "draw"]


class _Buyer:
    """Draws from the mazo, throws its first card, and buys every card it may."""

    name = "buyer"
    description = "always buys (for the test only)"

    def __init__(self, asked: list[int]) -> None:
        self.asked = asked

    def choose(self, view: Any, legal: Any) -> Any:
        return _mazo_then_first_discard(legal)

    def wants_to_buy(self, view: Any, legal: Any) -> bool:
        self.asked.append(1)
        return True


def _window_the_bot_has_not_answered(monkeypatch: pytest.MonkeyPatch,
                                     asked: list[int]) -> Any:
    """A 3-seat table, Ana and two buyers, no background loop: the test moves the bots.
    Seat 1 plays, Ana lets its discard go, seat 2 plays: seat 1 may buy seat 2's discard
    and has not been asked yet."""
    from carioca.store import SQLiteStore

    monkeypatch.setattr(tables, "make_bot", lambda name, seed, rules=None: _Buyer(asked))
    manager = tables.TableManager(SQLiteStore(":memory:"), bot_delay=0)
    table, _ = manager.create(name="Ana", preset="chile", options={"buying": "penalty_card"},
                              seats=3, bots={1: "random", 2: "random"}, turn_timer=0,
                              steal_timer=10, hints=True)
    table.start()
    for seat in (1, 2):
        for _ in range(2):  # draw, then discard
            question = table.bot_question(seat)
            assert question is not None
            table.bot_answer(seat, question[1], table.ask_bot(seat, *question))
        if seat == 1:
            table.pass_buy(0, None)
    assert table.window is not None and table.bots_to_answer()
    asked.clear()
    return table


def test_a_bot_asked_to_buy_as_the_player_draws_still_claims(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The background loop asks bots about a buy a moment after the discard; a player who
    # draws from the mazo within that moment must not make the bot's claim vanish.
    asked: list[int] = []
    table = _window_the_bot_has_not_answered(monkeypatch, asked)

    async def ana_draws() -> dict[str, Any]:
        async def send(msg: dict[str, Any]) -> None:
            pass

        draw = ActionMsg(type="action", action={"p": 0, "draw": "mazo"})
        try:
            return await _handle(draw, table, Connection(seat=0, send=send))
        finally:
            await table.manager.stop()  # its bots' thread

    assert asyncio.run(ana_draws())["type"] == "ack"
    assert asked == [1]  # asked, in the bots' thread, before Ana's draw closed the window
    assert table.game.view(0).buys[1] == 1  # it bought seat 2's discard
    assert _moves(table.game.view(0).log[-3:]) == ["discard", "buy", "draw"]


def test_a_window_closed_without_asking_a_bot_never_thinks_on_the_event_loop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Every way a window closes asks the bots first, in the bots' thread; should one ever
    # close without that, the bots that have not answered pass, unasked.
    asked: list[int] = []
    table = _window_the_bot_has_not_answered(monkeypatch, asked)
    table.apply(0, {"p": 0, "draw": "mazo"}, None)  # straight at the table, not the app
    assert asked == [] and table.game.view(0).buys[1] == 0  # it passed without being asked
    assert _moves(table.game.view(0).log[-2:]) == ["discard", "draw"]


def test_the_background_loop_stops_when_it_is_woken_as_it_is_cancelled() -> None:
    # Python 3.11's asyncio.wait_for drops a cancel that arrives as the awaited thing ends:
    # a wake-up (a move, a retry) at the moment the server stopped left the loop running
    # and the server's shutdown waiting for ever (seen in CI).
    from carioca.store import SQLiteStore

    async def wake_then_stop() -> bool:
        manager = tables.TableManager(SQLiteStore(":memory:"), bot_delay=0)
        manager.start()
        for _ in range(3):
            await asyncio.sleep(0)  # the loop now waits to be woken
        assert manager._wake is not None
        manager._wake.set()
        run = manager._task
        assert run is not None
        run.cancel()  # one cancel, as a server's shutdown sends
        done, _ = await asyncio.wait([run], timeout=2)
        await manager.stop()
        return run in done

    assert asyncio.run(wake_then_stop())


def test_a_failing_automatic_move_is_retried_after_a_pause_not_in_a_loop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A move the table cannot store (a full disk, say) fails; the loop must not retry it on
    # every wake-up, and once the fault is gone the game goes on by itself.
    calls = []
    commit = tables.Table._commit

    def broken(self: Any, action: Any) -> None:
        calls.append(action)
        raise RuntimeError("the store is full")

    monkeypatch.setattr(tables.Table, "_commit", broken)
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        made = _new(client, preset="chile", seats=2, bots={"1": "random"})
        client.post(f"/api/tables/{made['code']}/start",
                    headers={"X-Carioca-Token": made["token"]})
        table = app.state.manager.tables[made["code"]]
        for _ in range(100):  # seat 1 (the bot) is to play first in round 1
            if calls:
                break
            time.sleep(0.1)
        time.sleep(1.5)
        assert 1 <= len(calls) <= 3, len(calls)  # the first try, then after 1 s (and 2 s)
        monkeypatch.setattr(tables.Table, "_commit", commit)
        for _ in range(100):
            if table.game.view(0).log:
                break
            time.sleep(0.1)
        assert table.game.view(0).log[0]["p"] == 1  # retried and played


def test_a_spectator_sees_no_hand_and_cannot_play() -> None:
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        made = _new(client, preset="chile", seats=2, bots={"1": "random"})
        code, token = made["code"], made["token"]
        client.post(f"/api/tables/{code}/start", headers={"X-Carioca-Token": token})
        with client.websocket_connect(f"/ws/{code}") as ws:
            assert _hello(ws, None)["seat"] is None
            ws.send_json({"type": "ping"})
            msg = ws.receive_json()
            while msg["type"] != "pong":
                if msg["type"] == "state" and "view" in msg:
                    assert msg["view"]["hand"] is None and msg["legal"] == []
                msg = ws.receive_json()
            ws.send_json({"type": "action", "version": None, "action": {"p": 0, "buy": True}})
            reply = ws.receive_json()
            while reply["type"] == "state":
                reply = ws.receive_json()
            assert reply == {"type": "error", "code": "spectator",
                             "message": "spectators cannot play; take a seat to play"}


def test_a_pass_from_another_table_is_told_not_seated_silently() -> None:
    """A token this table does not know (another table's, a typo) watches, and is told so."""
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        first = _new(client, preset="chile", seats=2)
        other = _new(client, preset="chile", seats=2)
        with client.websocket_connect(f"/ws/{first['code']}") as ws:
            assert _hello(ws, other["token"])["seat"] is None
            told = ws.receive_json()
            assert told["type"] == "error" and told["code"] == "unknown_token"
            assert "watching" in told["message"]
        with client.websocket_connect(f"/ws/{first['code']}") as ws:
            assert _hello(ws, first["token"])["seat"] == 0  # the right pass: no such word
            ws.send_json({"type": "ping"})
            kinds = [ws.receive_json()["type"]]
            while kinds[-1] != "pong":
                kinds.append(ws.receive_json()["type"])
            assert "error" not in kinds


def _buying_table(client: TestClient, app: Any, seats: int) -> tuple[str, list[str], Any]:
    """A started `chile` table with buying (penalty card) and a person in every seat: Ana
    (the host), Beto, Caro and Dani. Its code, their tokens, the table."""
    made = _new(client, preset="chile", seats=seats, options={"buying": "penalty_card"})
    code, token0 = made["code"], made["token"]
    tokens = [token0] + [client.post(f"/api/tables/{code}/join", json={"name": n}).json()["token"]
                         for n in ("Beto", "Caro", "Dani")[:seats - 1]]
    client.post(f"/api/tables/{code}/start", headers={"X-Carioca-Token": token0})
    return code, tokens, app.state.manager.tables[code]


def _beto_opens_a_window(beto: Any, ana: Any, table: Any) -> tuple[str, dict[str, Any]]:
    """Beto (seat 1) draws from the mazo and throws his first card: the card, and the state
    in which Ana's page may buy it."""
    assert _send(beto, {"type": "action", "version": table.version,
                        "action": {"p": 1, "draw": "mazo"}})["type"] == "ack"
    discard = str(table.game.hand(1)[0])
    assert _send(beto, {"type": "action", "version": table.version,
                        "action": {"p": 1, "discard": discard}})["type"] == "ack"
    return discard, _until_state(ana, lambda m: m.get("legal") == [{"p": 0, "buy": True}])


def test_the_coach_advises_on_a_buy_while_the_seat_may_still_buy() -> None:
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        code, tokens, table = _buying_table(client, app, 3)
        table.hints = True
        with client.websocket_connect(f"/ws/{code}") as ws0, \
                client.websocket_connect(f"/ws/{code}") as ws1:
            for ws, token in zip((ws0, ws1), tokens[:2], strict=True):
                _hello(ws, token)
            discard, state = _beto_opens_a_window(ws1, ws0, table)
            advice = _send_hint(ws0)
            assert advice["type"] == "hint" and advice["code"] in ("buy_early", "no_buy")
            assert advice["action"] == ({"p": 0, "buy": True, "card": discard}
                                        if advice["code"] == "buy_early" else None)
            assert discard in advice["reason"]
            # Beto threw it, and it is not his turn: no advice for him.
            assert _send_hint(ws1)["code"] == "not_your_turn"
            assert _send(ws0, {"type": "pass", "version": state["version"]})["type"] == "ack"
            assert _send_hint(ws0)["code"] == "not_your_turn"  # answered: nothing to advise


def test_buying_through_the_window() -> None:
    """Seat 1 discards; seat 0 (not the next player) claims it. The claim waits for Caro, the
    player to draw, who has first claim (ruling 19): drawing from the mazo, she lets Ana buy
    the card and a penalty card; drawing from the pozo, she takes it herself."""
    app = create_app(":memory:", bot_delay=0)
    for caro_draws in ("mazo", "pozo"):
        with TestClient(app) as client:
            code, tokens, table = _buying_table(client, app, 3)
            with client.websocket_connect(f"/ws/{code}") as ws0, \
                    client.websocket_connect(f"/ws/{code}") as ws1, \
                    client.websocket_connect(f"/ws/{code}") as ws2:
                for ws, token in zip((ws0, ws1, ws2), tokens, strict=True):
                    _hello(ws, token)
                discard, state = _beto_opens_a_window(ws1, ws0, table)
                assert state["deadlines"]["buy"] is not None
                assert _send(ws0, {"type": "action", "version": state["version"],
                                   "action": {"p": 0, "buy": True}})["type"] == "ack"
                assert table.game.view(0).buys[0] == 0  # not yet: Caro has first claim
                assert len(table.game.hand(0)) == 12
                # A page opened again now is told of Ana's claim, and only Ana's page.
                assert [table.state_for(s)["claim"] for s in (0, 1, 2, None)] == \
                    [True, None, None, None]
                assert _send(ws2, {"type": "action", "version": None,
                                   "action": {"p": 2, "draw": caro_draws}})["type"] == "ack"
                if caro_draws == "mazo":
                    assert discard in [str(c) for c in table.game.hand(0)]
                    assert len(table.game.hand(0)) == 14 and table.game.view(0).buys[0] == 1
                    assert _moves(table.game.view(0).log[-2:]) == ["buy", "draw"]
                else:
                    assert discard in [str(c) for c in table.game.hand(2)]
                    assert len(table.game.hand(0)) == 12 and table.game.view(0).buys[0] == 0
                    assert table.window is None


def test_a_buy_after_the_steal_timer_closed_an_unclaimed_window_is_too_late() -> None:
    """Nobody claimed before the steal timer ran out: the window is gone, and a buy then is
    refused as too late (the rules would still sell the card), not as "no card to buy"."""
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        code, tokens, table = _buying_table(client, app, 3)
        with client.websocket_connect(f"/ws/{code}") as ws0, \
                client.websocket_connect(f"/ws/{code}") as ws1:
            _hello(ws0, tokens[0])
            _hello(ws1, tokens[1])
            _send(ws1, {"type": "action", "action": {"p": 1, "draw": "mazo"}})
            discard = str(table.game.hand(1)[0])
            _send(ws1, {"type": "action", "action": {"p": 1, "discard": discard}})
            assert table.window is not None and table.window.eligible == {0}
            table.window.deadline = time.time() - 1  # the steal timer runs out
            for _ in range(100):  # the background loop ends the claims
                if table.window is None:
                    break
                time.sleep(0.05)
            assert table.window is None
            late = _send(ws0, {"type": "action", "action": {"p": 0, "buy": True}})
            assert (late["type"], late["code"]) == ("error", "too_late")
            # A pass then is what happened anyway: taken, with nothing to refuse.
            assert _send(ws0, {"type": "pass"})["type"] == "ack"
            # A pass from a version the table never had is stale.
            future = _send(ws0, {"type": "pass", "version": table.version + 5})
            assert future["code"] == "stale_version"


def test_a_claim_made_in_time_waits_for_the_draw_and_a_late_one_is_refused() -> None:
    """The steal timer ends the claims, not the window: a claim made in time still waits for
    the player to draw; after the timer, a claim is refused as too late."""
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        code, tokens, table = _buying_table(client, app, 4)
        with client.websocket_connect(f"/ws/{code}") as ws0, \
                client.websocket_connect(f"/ws/{code}") as ws1, \
                client.websocket_connect(f"/ws/{code}") as ws2, \
                client.websocket_connect(f"/ws/{code}") as ws3:
            for ws, token in zip((ws0, ws1, ws2, ws3), tokens, strict=True):
                _hello(ws, token)
            _send(ws1, {"type": "action", "version": None, "action": {"p": 1, "draw": "mazo"}})
            discard = str(table.game.hand(1)[0])
            _send(ws1, {"type": "action", "version": None,
                        "action": {"p": 1, "discard": discard}})
            assert table.window is not None and table.window.eligible == {0, 3}
            seen = table.version  # the state that showed Ana the window
            assert _send(ws3, {"type": "action", "version": None,
                               "action": {"p": 3, "buy": True}})["type"] == "ack"
            # Ana's pass, sent from that state, is for this window though Dani's claim moved
            # the table on: it is taken, not refused as stale.
            assert table.version > seen
            # From before the window, or from a version the table never had: stale.
            for wrong in (seen - 1, table.version + 5):
                assert _send(ws0, {"type": "pass", "version": wrong})["code"] == "stale_version"
            assert _send(ws0, {"type": "pass", "version": seen})["type"] == "ack"
            assert [table.state_for(s)["claim"] for s in range(4)] == [False, None, None, True]
            claimed = table.version
            table.window.deadline = time.time() - 1  # the steal timer runs out
            state = _until_state(ws0, lambda m: m["version"] > claimed)
            assert state["deadlines"]["buy"] is None
            assert state["legal"] == []  # Ana may no longer claim
            late = _send(ws0, {"type": "action", "version": None,
                               "action": {"p": 0, "buy": True}})
            assert late["type"] == "error" and late["code"] == "too_late"
            assert table.game.view(0).buys[3] == 0  # Dani's claim waits for Caro's draw
            _send(ws2, {"type": "action", "version": None, "action": {"p": 2, "draw": "mazo"}})
            assert table.game.view(0).buys[3] == 1 and discard in map(str, table.game.hand(3))


def test_a_restarted_server_resumes_every_table(tmp_path: Path) -> None:
    db = tmp_path / "carioca.sqlite"
    app = create_app(db, bot_delay=0)
    with TestClient(app) as client:
        made = _new(client, preset="chile", seats=3, bots={"1": "random", "2": "random"})
        code, token = made["code"], made["token"]
        client.post(f"/api/tables/{code}/start", headers={"X-Carioca-Token": token})
        with client.websocket_connect(f"/ws/{code}") as ws:
            # The bots may have played up to seat 0 already: the first state has its legal
            # moves (a second, alike, may not come: a state waiting to go is replaced).
            ws.send_json({"type": "hello", "token": token})
            rng = random.Random(9)
            moves = 0
            while True:
                msg = ws.receive_json()
                if msg["type"] == "state" and msg.get("legal"):
                    if moves == 30:
                        break  # seat 0's turn again: no bot is thinking
                    ws.send_json({"type": "action", "version": msg["version"],
                                  "action": rng.choice(msg["legal"])})
                    moves += 1
        before = app.state.manager.tables[code].game
        views = [before.view(s).to_json() for s in range(3)]
        record = before.to_record()
    again = create_app(db, bot_delay=0)
    table = again.state.manager.tables[code]
    assert table.status == "playing"
    assert [table.game.view(s).to_json() for s in range(3)] == views
    assert table.game.to_record() == record
    assert table.seat_of(token) == 0


def test_a_broken_table_started_again_keeps_its_new_game(tmp_path: Path) -> None:
    """A table whose stored game cannot be replayed is "broken"; started again, its new game
    is stored under a new number, so the broken game's moves are not read into it at the next
    restart (which would break it too, and lose it)."""
    import sqlite3

    from carioca.store import SQLiteStore

    db = tmp_path / "carioca.sqlite"

    def draw_and_discard(table: Any, times: int) -> None:
        game = table.game
        for _ in range(times):
            seat = game.seat_to_act
            move = next(a for a in game.legal_actions(seat) if a.kind in ("draw", "discard"))
            table.apply(seat, move.to_json(), None)

    manager = tables.TableManager(SQLiteStore(db), bot_delay=0)
    table, _token = manager.create(name="Ana", preset="chile", options={}, seats=2, bots={},
                                   turn_timer=0, steal_timer=10, hints=False)
    table.join("Beto")
    table.start()
    draw_and_discard(table, 6)
    code = table.code
    manager.store.close()
    with contextlib.closing(sqlite3.connect(db)) as raw:  # a stored move gone bad
        raw.execute("UPDATE actions SET action = ? WHERE code = ? AND seq = 1",
                    (json.dumps({"p": 0, "discard": "JK"}), code))
        raw.commit()
    manager = tables.TableManager(SQLiteStore(db), bot_delay=0)
    manager.load()
    table = manager.tables[code]
    assert table.status == "broken"
    table.start()
    draw_and_discard(table, 2)
    record = table.game.to_record()
    manager.store.close()
    manager = tables.TableManager(SQLiteStore(db), bot_delay=0)
    manager.load()
    table = manager.tables[code]
    assert table.status == "playing" and table.game.to_record() == record
    manager.store.close()


def test_tables_nobody_is_at_are_deleted_after_their_keep(tmp_path: Path) -> None:
    """A lobby nobody started goes after a day, a finished game after a week, a game left
    half-way after a month, from memory and from the store; a table with someone at it
    stays, and a restart does not make an idle table young again."""
    import sqlite3

    from carioca.store import SQLiteStore

    db = tmp_path / "carioca.sqlite"
    manager = tables.TableManager(SQLiteStore(db), bot_delay=0)

    def table() -> Any:
        made, _token = manager.create(name="Ana", preset="chile", options={}, seats=2,
                                      bots={1: "random"}, turn_timer=0, steal_timer=10,
                                      hints=False)
        return made

    lobby, watched, playing = table(), table(), table()
    watched.conns.add(object())  # someone is at it
    playing.start()
    now = time.time()
    assert manager.expire(now + 0.5 * tables.DAY) == []
    assert manager.expire(now + 2 * tables.DAY) == [lobby.code]
    assert set(manager.tables) == {watched.code, playing.code} and lobby.gone
    assert manager.expire(now + 29 * tables.DAY) == []
    playing.touched = now - 40 * tables.DAY
    manager.get(playing.code)  # a page asked for it: in use
    assert playing.touched >= now
    # A store that fails oddly keeps the table for the next look, and stops nothing else.
    real = manager.store.delete_table
    manager.store.delete_table = lambda code: (_ for _ in ()).throw(sqlite3.DatabaseError("x"))
    assert manager.expire(now + 31 * tables.DAY) == [] and playing.code in manager.tables
    manager.store.delete_table = real
    assert manager.expire(now + 31 * tables.DAY) == [playing.code]
    assert set(manager.tables) == {watched.code}
    with contextlib.closing(sqlite3.connect(db)) as raw:
        for name in ("tables", "rounds", "actions"):
            codes = {c for (c,) in raw.execute(f"SELECT DISTINCT code FROM {name}")}
            assert not codes & {lobby.code, playing.code}, name

    # Across a restart the store says when each table was last used: a table in use writes
    # so every TOUCH_EVERY, and is kept; one idle for 40 days goes once its pages have had
    # an hour to come back.
    again, quiet = table(), table()
    again.start()
    again.conns.add(object())
    with contextlib.closing(sqlite3.connect(db)) as raw:
        raw.execute("UPDATE tables SET updated = julianday('now') - 40 WHERE code IN (?, ?)",
                    (again.code, quiet.code))
        raw.commit()
    assert manager.expire(time.time() + tables.TOUCH_EVERY + 1) == []  # writes again's use
    manager.store.close()
    manager = tables.TableManager(SQLiteStore(db), bot_delay=0)
    manager.load()
    assert manager.expire() == []
    later = time.time() + tables.RESTORE_GRACE + 1
    assert manager.expire(later) == [quiet.code]
    assert set(manager.tables) == {watched.code, again.code}
    manager.store.close()
    app = create_app(db, bot_delay=0)
    with TestClient(app) as client:
        assert client.get(f"/api/tables/{quiet.code}").status_code == 404


def test_a_table_another_server_took_is_let_go_not_deleted(tmp_path: Path) -> None:
    """Writing a table's use finds another server serves it now: this one lets it go, and
    deletes nothing of what the other serves."""
    from carioca.store import SQLiteStore
    from carioca.store.postgres import TableMoved

    manager = tables.TableManager(SQLiteStore(tmp_path / "carioca.sqlite"), bot_delay=0)
    table, _token = manager.create(name="Ana", preset="chile", options={}, seats=2,
                                   bots={1: "random"}, turn_timer=0, steal_timer=10,
                                   hints=False)

    def taken(code: str) -> None:
        raise TableMoved(code)

    manager.store.touch_table = taken  # type: ignore[method-assign]
    table.touched += 2 * tables.DAY  # used since its last write, and idle a day after that
    assert manager.expire(time.time() + 4 * tables.DAY) == []
    assert table.gone and not manager.tables
    assert [t.code for t in manager.store.load_tables()] == [table.code]
    manager.store.close()


def test_the_server_deletes_an_idle_table_once_the_last_player_leaves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The server looks now and then: a table is kept while a page is open at it, and its
    keep counts from when the last one left."""
    monkeypatch.setattr(tables, "EXPIRY_EVERY", 0.05)
    app = create_app(":memory:", bot_delay=0)
    app.state.manager.keep = {"lobby": 3.0}
    with TestClient(app) as client:
        made = _new(client, preset="chile", seats=2)
        code = made["code"]
        with client.websocket_connect(f"/ws/{code}") as ws:
            _hello(ws, made["token"])
            time.sleep(3.5)
            assert code in app.state.manager.tables
        assert code in app.state.manager.tables  # only just left
        deadline = time.time() + 10
        while code in app.state.manager.tables:  # (asking the server would be a use)
            assert time.time() < deadline, "the idle table was never deleted"
            time.sleep(0.1)
        assert client.get(f"/api/tables/{code}").json()["error"]["code"] == "no_table"


def test_a_failed_write_takes_nothing_and_says_try_again() -> None:
    """A SQLite write that fails (the file locked, full or read-only) is the coded
    "unavailable" over HTTP and over the socket, and the table stays as the store has it: no
    seat taken with a token nobody holds, no claim, no undo the store did not make."""
    import sqlite3

    from carioca.actions import Bajar, Buy
    from carioca.store import SQLiteStore

    class Flaky(SQLiteStore):
        fail = False
        fail_when: Any = None  # a test of the written values: which writes to refuse

        def _write(self, sql: str, args: tuple[Any, ...]) -> None:
            if self.fail or (self.fail_when is not None and self.fail_when(args)):
                raise sqlite3.OperationalError("database is locked")
            super()._write(sql, args)

    store = Flaky(":memory:")
    app = create_app(store, bot_delay=0)
    with TestClient(app, raise_server_exceptions=False) as client:
        made = _new(client, seats=3)
        code = made["code"]
        store.fail = True
        refused = client.post(f"/api/tables/{code}/join", json={"name": "Beto", "seat": 1})
        assert refused.status_code == 503 and refused.json()["error"]["code"] == "unavailable"
        assert not client.get(f"/api/tables/{code}").json()["seats"][1]["taken"]
        store.fail = False
        assert client.post(f"/api/tables/{code}/join",
                           json={"name": "Beto", "seat": 1}).status_code == 200
        made = _new(client, seats=2, bots={"1": "random"})
        code, token = made["code"], made["token"]
        table = app.state.manager.tables[code]
        with client.websocket_connect(f"/ws/{code}") as ws:
            _hello(ws, token)
            client.post(f"/api/tables/{code}/start", headers={"X-Carioca-Token": token})
            mine = _until_state(ws, lambda m: bool(m.get("legal")))
            store.fail = True
            reply = _send(ws, {"type": "action", "version": mine["version"],
                               "action": {"p": 0, "draw": "mazo"}})
            assert reply["code"] == "unavailable" and table.game.phase == "draw"
            store.fail = False
    # A claim and an undo the store refuses are not made either.
    manager = tables.TableManager(Flaky(":memory:"), bot_delay=0)
    for _ in range(100):
        table, _token = manager.create(name="Ana", preset="chile",
                                       options={"undo": True, "buying": "penalty_card"},
                                       seats=3, bots={}, turn_timer=0, steal_timer=15,
                                       hints=False)
        table.join("Beto")
        table.join("Caro")
        table.start()
        game = table.game
        seat = game.seat_to_act
        table.apply(seat, {"p": seat, "draw": "mazo"}, None)
        bajar = [a for a in game.legal_actions(seat) if isinstance(a, Bajar)]
        if bajar:
            break
    assert bajar, "no deal let the player bajar"
    table.apply(seat, bajar[0].to_json(), None)
    held = game.view(seat).to_json()
    manager.store.fail = True
    with pytest.raises(sqlite3.Error):
        table.undo(seat, None)
    assert game.view(seat).to_json() == held and game.log[-1][-1] == bajar[0]
    manager.store.fail = False
    table.apply(seat, {"p": seat, "discard": str(game.hand(seat)[0])}, None)
    claimant = sorted(table.window.eligible)[0]
    manager.store.fail = True
    with pytest.raises(sqlite3.Error):
        table.apply(claimant, {"p": claimant, "buy": True}, None)
    assert claimant not in table.window.claims
    manager.store.fail = False
    table.apply(claimant, {"p": claimant, "buy": True}, None)  # may answer again
    assert table.window.claims == {claimant: True}
    # The draw that decides the window: the buy is played and stored, the draw is refused;
    # every screen hears of the buy, and the draw sent from before it is now stale.
    drawer, seen, played = game.seat_to_act, table.version, len(game.log[-1])
    manager.store.fail_when = lambda args: '"draw"' in str(args[-1])
    with pytest.raises(sqlite3.Error):
        table.apply(drawer, {"p": drawer, "draw": "mazo"}, seen)
    manager.store.fail_when = None
    assert game.log[-1][played:] == [Buy(claimant)] and table.window is None
    assert not table.current(seen)
    table.apply(drawer, {"p": drawer, "draw": "mazo"}, table.version)
    # A pozo draw the store refuses voids no claim: the draw made instead decides them.
    table.apply(drawer, {"p": drawer, "discard": str(game.hand(drawer)[0])}, None)
    drawer = game.seat_to_act
    claimant = sorted(table.window.eligible)[0]
    table.apply(claimant, {"p": claimant, "buy": True}, None)
    played = len(game.log[-1])
    manager.store.fail_when = lambda args: '"draw"' in str(args[-1])
    with pytest.raises(sqlite3.Error):
        table.apply(drawer, {"p": drawer, "draw": "pozo"}, None)
    manager.store.fail_when = None
    assert table.window is not None and table.window.claims == {claimant: True}
    assert len(game.log[-1]) == played
    table.apply(drawer, {"p": drawer, "draw": "mazo"}, None)
    assert game.log[-1][played] == Buy(claimant)
    # A bot asked to stand in while the store refuses it does not play.
    away = next(s for s in range(3) if s not in (game.seat_to_act,))
    manager.store.fail = True
    with pytest.raises(sqlite3.Error):
        table.stand_in(away, "random")
    manager.store.fail = False
    assert table.seats[away].stand_in is None and away not in table._bots


def test_one_address_opens_only_so_many_tables() -> None:
    """Tables are kept (a finished one can be looked at, a rematch played): one address that
    opens table after table is told to wait, in a code the page says in its language; the
    tables it has keep working, and its players may still join others."""
    from carioca.server.app import TABLES_PER_TEN_MINUTES

    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        codes = [_new(client, seats=2)["code"] for _ in range(TABLES_PER_TEN_MINUTES)]
        refused = client.post("/api/tables", json={"name": "Ana", "seats": 2})
        assert refused.status_code == 429 and refused.headers["Retry-After"] == "600"
        assert refused.json()["error"]["code"] == "too_many_tables"
        assert len(app.state.manager.tables) == TABLES_PER_TEN_MINUTES
        joined = client.post(f"/api/tables/{codes[0]}/join", json={"name": "Beto"})
        assert joined.status_code == 200
    words = (Path(__file__).parents[1] / "src/carioca/web/js/i18n.js").read_text("utf-8")
    assert '"err.too_many_tables": { es: "Demasiadas mesas nuevas' in words


def test_no_limit_on_tables_when_the_host_says_none() -> None:
    """``carioca serve --tables-per-address 0`` (the load test's): no address is held up,
    and nothing is kept for it."""
    from carioca.server.app import table_creations

    creations = table_creations(0)
    for i in range(500):
        creations.noted("10.0.0.1", f"T{i}")
    assert not creations.blocked("10.0.0.1") and not creations._items
    limited = table_creations(2)
    limited.noted("10.0.0.1", "T1")
    limited.noted("10.0.0.1", "T1")  # the same table again: once
    assert not limited.blocked("10.0.0.1")
    limited.noted("10.0.0.1", "T2")
    assert limited.blocked("10.0.0.1") and not limited.blocked("10.0.0.2")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_prints_the_address_that_answers_or_says_why_it_cannot(tmp_path: Path) -> None:
    command = [sys.executable, "-c", "from carioca.cli import main; main()", "serve"]
    proc = subprocess.Popen([*command, "--port", "0", "--db", str(tmp_path / "a.db")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().decode()
        assert line.startswith("Carioca: http://127.0.0.1:"), line
        port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
        assert port > 0  # --port 0: the port the system chose, not 0
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
        for args, words in ((["--port", str(port)], "cannot listen"),  # taken
                            (["--port", "99999"], "--port is a number"),
                            (["--port", "0", "--db", str(tmp_path)], "cannot keep the tables")):
            failed = subprocess.run([*command, "--db", str(tmp_path / "b.db"), *args],
                                    capture_output=True, text=True, timeout=60)
            assert failed.returncode == 2, (args, failed.stderr)
            assert words in failed.stderr and "Traceback" not in failed.stderr, failed.stderr
            assert "Carioca: http" not in failed.stdout  # no address that does not answer
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(20)


def _serve(db: Path | str, port: int, *more: str) -> subprocess.Popen[bytes]:
    """``carioca serve`` on ``db`` at ``port`` (bots without a pause), once it answers."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-c", "from carioca.cli import main; main()", "serve", "--port",
         str(port), "--db", str(db), "--bot-delay", "0", *more],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start")


def _play_acked(ws: Any, rng: random.Random, moves: int) -> list[dict[str, Any]]:
    """Over a real WebSocket (``websockets``), play random legal moves for the seat that said
    hello until ``moves`` are acknowledged: the state each acknowledged move was made in."""
    acked: list[dict[str, Any]] = []
    last: dict[str, Any] = {}
    while len(acked) < moves:
        msg = json.loads(ws.recv(timeout=10))
        if msg["type"] == "state" and "view" in msg:
            last = msg
            if msg["legal"]:
                ws.send(json.dumps({"type": "action", "version": msg["version"],
                                    "action": rng.choice(msg["legal"])}))
        elif msg["type"] == "ack":
            acked.append(last)
    return acked


def test_kill_9_loses_no_acknowledged_action(tmp_path: Path) -> None:
    import httpx
    from websockets.sync.client import connect

    db = tmp_path / "carioca.sqlite"
    port = _free_port()
    proc = _serve(db, port)
    base = f"http://127.0.0.1:{port}"
    try:
        made = httpx.post(f"{base}/api/tables", json={"name": "Ana", "preset": "chile",
                                                      "seats": 3,
                                                      "bots": {"1": "random", "2": "random"}})
        code, token = made.json()["code"], made.json()["token"]
        httpx.post(f"{base}/api/tables/{code}/start", headers={"X-Carioca-Token": token})
        with connect(f"ws://127.0.0.1:{port}/ws/{code}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            last = _play_acked(ws, random.Random(11), 25)[-1]["view"]
        acked_round, acked_log, acked_start = last["round"], last["log"], last["log_start"]
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        proc = _serve(db, port)
        with connect(f"ws://127.0.0.1:{port}/ws/{code}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            assert json.loads(ws.recv(timeout=10))["seat"] == 0
            state = json.loads(ws.recv(timeout=10))
        view = state["view"]
        assert view["round"] >= acked_round
        if view["round"] == acked_round:
            # States carry the log's recent end: compare the moves both windows hold.
            start = view["log_start"]
            assert start + len(view["log"]) >= acked_start + len(acked_log)
            both = range(max(start, acked_start), acked_start + len(acked_log))
            assert len(both) > 0
            assert [view["log"][i - start] for i in both] == \
                [acked_log[i - acked_start] for i in both]
    finally:
        proc.kill()
        proc.wait(timeout=10)


@pytest.mark.parametrize("body", [
    {"preset": "nope"},
    {"preset": "chile", "options": {"bying": "off"}},
    {"preset": "online", "seats": 6},
    {"preset": "chile", "turn_timer": 7},
    {"preset": "chile", "match": 2},
    {"preset": "chile", "seats": 99},
])
def test_impossible_tables_are_refused_with_a_reason(body: dict[str, Any]) -> None:
    with TestClient(create_app(":memory:")) as client:
        answer = client.post("/api/tables", json={"name": "Ana", **body})
        assert answer.status_code == 400
        error = answer.json()["error"]
        # The documented shape; rules that cannot be played say why in Spanish too.
        shape = {"code", "message", "detail"} if error["code"] == "bad_rules" else {
            "code", "message"}
        assert set(error) == shape, error
        if "detail" in error:
            assert error["detail"]["es"] and error["detail"]["es"] != error["message"]


def test_hostile_requests_get_clear_errors_and_leave_nothing_behind() -> None:
    app = create_app(":memory:", bot_delay=0)
    manager = app.state.manager
    with TestClient(app) as client:
        # A bad body: the documented error, naming the field, the input not echoed back.
        huge = client.post("/api/tables", json={"name": "x" * 100_000, "preset": "chile"})
        assert huge.status_code == 400 and huge.json()["error"]["code"] == "bad_request"
        assert "name" in huge.json()["error"]["message"] and len(huge.text) < 1_000
        too_big = client.post("/api/tables", content=b"{" * (9 * 1024 * 1024),
                              headers={"Content-Type": "application/json"})
        assert too_big.status_code == 413
        # The same with no length given (chunked): counted as it comes, refused past the limit.
        chunks = (b"{" * (1024 * 1024) for _ in range(9))
        streamed = client.post("/api/tables", content=chunks,
                               headers={"Content-Type": "application/json"})
        assert "content-length" not in streamed.request.headers
        assert streamed.status_code == 413 and streamed.json()["error"]["code"] == "too_big"
        streamed_record = client.post("/api/replay", content=(b" " * (1024 * 1024)
                                                              for _ in range(9)))
        assert streamed_record.status_code == 413
        small = client.post("/api/replay", content=(part for part in (b"{", b"}")))
        assert small.status_code == 200 and small.json()["error"]["code"] == "bad_record"
        # An option called like the preset's own argument is an unknown option, not a 500.
        named = client.post("/api/tables", json={"name": "Ana", "options": {"name": 1}})
        assert named.status_code == 400 and "unknown option 'name'" in named.text
        # A create refused for its bots saves no table.
        before = set(manager.tables)
        refused = client.post("/api/tables", json={"name": "Ana", "preset": "chile",
                                                   "seats": 3, "bots": {"5": "greedy"}})
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_seat"
        assert set(manager.tables) == before and not manager.store.load_tables()
        made = _new(client, preset="chile", seats=3)
        code = made["code"]
        seven = client.post(f"/api/tables/{code}/join", json={"name": "Beto", "seat": 7})
        assert seven.status_code == 400 and seven.json()["error"]["code"] == "bad_seat"
        early = client.post(f"/api/tables/{code}/rematch",
                            headers={"X-Carioca-Token": made["token"]})
        assert early.status_code == 409 and manager.tables[code].status == "lobby"
        # A socket that goes before its hello; a version that is not a number.
        with client.websocket_connect(f"/ws/{code}") as ws:
            ws.close()
        with client.websocket_connect(f"/ws/{code}") as ws:
            _hello(ws, made["token"])
            reply = _send(ws, {"type": "pass", "version": "6"})
            assert reply["type"] == "error" and reply["code"] == "bad_message"
            long = _send(ws, {"type": "action", "action": {"p": 0, "draw": "é" * 9_000}})
            assert long["code"] == "too_big"  # 9,000 characters, 18 KB: over the 16 KiB


async def _soon(done: Any, limit: float = 30.0) -> None:
    """Wait until ``done()`` holds: on an event, not a timing (the bound is for a test that
    would otherwise hang, on however slow a machine)."""
    async with asyncio.timeout(limit):
        while not done():
            await asyncio.sleep(0.01)


def _stuck_connection(seat: int | None = None) -> tuple[Any, asyncio.Event, asyncio.Event]:
    """A connection whose client stopped reading: its send never ends. With the events set
    once a send has begun and once the connection was closed."""
    began, closed = asyncio.Event(), asyncio.Event()

    async def stuck(msg: dict[str, Any]) -> None:
        began.set()
        await asyncio.Event().wait()  # its buffers are full: it never takes the message

    async def close() -> None:
        closed.set()

    return Connection(seat, stuck, close=close), began, closed


def _in_memory(name: str = "Ana", bots: dict[int, str | None] | None = None,
               manager: Any = None) -> tuple[Any, Any]:
    """A manager on an in-memory store (or ``manager``) and a new 2-seat chile table at it."""
    from carioca.store import SQLiteStore

    manager = manager or tables.TableManager(SQLiteStore(":memory:"), bot_delay=0)
    table, _ = manager.create(name=name, preset="chile", options={}, seats=2,
                              bots=bots or {}, turn_timer=0, steal_timer=10, hints=False)
    return manager, table


def test_a_connection_that_does_not_read_is_dropped_not_waited_for(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables, "SEND_LIMIT", 0.5)

    async def main() -> None:
        from carioca.server.tables import broadcast

        manager, table = _in_memory(bots={1: "random"})
        table.start()
        got: list[dict[str, Any]] = []

        async def reads(msg: dict[str, Any]) -> None:
            got.append(msg)

        slow, began, closed = _stuck_connection()
        table.conns.update({slow, Connection(0, reads)})
        broadcast(table)  # queues the states: it waits on no socket
        await _soon(lambda: len(got) == 1 and began.is_set())
        await _soon(closed.is_set)  # it took nothing within SEND_LIMIT: closed
        assert slow not in table.conns and slow.closing
        broadcast(table)  # the next state goes to the others only
        await _soon(lambda: len(got) == 2)
        await manager.stop()
        assert asyncio.all_tasks() == {asyncio.current_task()}  # no writer left behind

    asyncio.run(main())


def test_a_connection_its_writer_dropped_is_read_no_more(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Its writer gave up on it (it took nothing within SEND_LIMIT): a move it still sends
    # must not be played, since no answer could reach it.
    async def main() -> None:
        from starlette.websockets import WebSocketDisconnect

        from carioca.server.app import _serve

        manager, table = _in_memory(bots={1: "random"})
        table.start()
        to_act = table.game.view(None).to_act  # type: ignore[union-attr]
        version = table.version
        conn, _, closed = _stuck_connection(to_act)
        manager.open(table, conn)
        conn.post({"type": "ack"})  # it never takes this: dropped after SEND_LIMIT

        class Socket:
            sent = False

            async def receive(self) -> dict[str, Any]:
                if self.sent:  # then the client goes away
                    return {"type": "websocket.disconnect", "code": 1000}
                self.sent = True
                await _soon(lambda: conn.closing)  # the move arrives once it is dropped
                return {"type": "websocket.receive", "text": json.dumps(
                    {"type": "action", "version": version,
                     "action": {"p": to_act, "draw": "mazo"}})}

        with contextlib.suppress(WebSocketDisconnect):
            await asyncio.wait_for(_serve(Socket(), table, conn, manager),  # type: ignore[arg-type]
                                   timeout=30)
        assert closed.is_set() and table.version == version  # not played
        await manager.stop()

    monkeypatch.setattr(tables, "SEND_LIMIT", 0.2)
    asyncio.run(main())


def test_a_stuck_connection_at_one_table_holds_up_no_other_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The background loop sends the states of every table; a socket whose client stopped
    # reading must not hold up the states, bots and timers of the others. With a time limit
    # too long to wait out, a move at another table reaches its players all the same.
    monkeypatch.setattr(tables, "SEND_LIMIT", 3600.0)

    async def main() -> None:

        manager, stuck_at = _in_memory()
        _, other = _in_memory("Caro", manager=manager)
        other.join("Beto")
        other.start()  # Beto (seat 1) plays first
        got: dict[int, list[dict[str, Any]]] = {0: [], 1: []}

        def reader(seat: int) -> Connection:
            async def reads(msg: dict[str, Any]) -> None:
                got[seat].append(msg)
            return Connection(seat, reads)

        other.conns.update({reader(0), reader(1)})
        slow, began, closed = _stuck_connection()
        stuck_at.conns.add(slow)
        manager.poke(stuck_at)
        manager.start()
        try:
            await _soon(began.is_set)  # its state is being sent, and never taken
            async with other.lock:
                other.apply(1, {"p": 1, "draw": "mazo"}, None)
            moved = other.version
            await _soon(lambda: all(any(m["version"] == moved for m in got[s]) for s in got))
            assert not closed.is_set()  # the stuck one was not waited out first
            for seat, msgs in got.items():  # each seat its own view only
                last = msgs[-1]
                assert last["view"]["seat"] == seat
                assert last["view"]["hand"] == [str(c) for c in other.game.hand(seat)]
            assert len(got[1][-1]["view"]["hand"]) == len(got[0][-1]["view"]["hand"]) + 1
            # Within the time limit, a connection that does not take its state is closed.
            monkeypatch.setattr(tables, "SEND_LIMIT", 0.2)
            slower, began_too, closed_too = _stuck_connection()
            stuck_at.conns.add(slower)
            stuck_at.presence += 1  # as a connection that comes does: a state for all
            manager.poke(stuck_at)
            await _soon(closed_too.is_set)
            assert began_too.is_set() and slower not in stuck_at.conns
            assert slow in stuck_at.conns and not closed.is_set()  # its own limit: an hour
        finally:
            async with asyncio.timeout(30):  # shutdown ends the stuck writer, and does not hang
                await manager.stop()
        assert slow.closing and not closed.is_set()  # it goes with the server
        assert asyncio.all_tasks() == {asyncio.current_task()}  # no writer left behind

    asyncio.run(main())


def test_a_connection_sends_in_order_and_only_the_newest_waiting_state() -> None:
    # States queued while an earlier message is on its way: only the newest waiting one is
    # sent; a reply keeps its place between them; the last message closes the socket.
    async def main() -> None:

        manager, table = _in_memory()
        sent: list[tuple[str, int]] = []
        full: list[dict[str, Any]] = []
        gate, closed = asyncio.Event(), asyncio.Event()

        async def send(msg: dict[str, Any]) -> None:
            sent.append((msg["type"], msg.get("version", -1)))
            full.append(msg)
            await gate.wait()

        async def close() -> None:
            closed.set()

        conn = Connection(0, send, close=close)
        manager.open(table, conn)
        conn.post_state({"type": "state", "version": 1})
        await _soon(lambda: len(sent) == 1)  # on its way, not taken yet
        conn.post_state({"type": "state", "version": 2})
        acked = conn.post({"type": "ack", "version": 2})
        # The timer played for seat 1 in version 3: the state replacing it still says so.
        conn.post_state({"type": "state", "version": 3, "played_for": 1})
        conn.post_state({"type": "state", "version": 4, "played_for": None})
        gate.set()
        await acked
        await conn.finish({"type": "error", "code": "moved"})
        assert sent == [("state", 1), ("state", 2), ("ack", 2), ("state", 4), ("error", -1)]
        assert full[3]["played_for"] == 1
        assert closed.is_set() and conn.closing
        await conn.post({"type": "pong"})  # nothing more is taken
        conn.post_state({"type": "state", "version": 5})
        assert len(sent) == 5
        await manager.stop()
        assert asyncio.all_tasks() == {asyncio.current_task()}

    asyncio.run(main())


def test_the_turn_timer_counts_the_turn_not_each_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn's countdown starts afresh when the turn starts and after its draw, not after a
    bajar, nor after its undo: bajar and undo over and over cannot hold the table."""
    from carioca.actions import Bajar
    from carioca.store import SQLiteStore

    clock = [1000.0]
    monkeypatch.setattr(tables.time, "time", lambda: clock[0])
    manager = tables.TableManager(SQLiteStore(":memory:"), bot_delay=0)
    for _ in range(100):  # deals until the player to act can bajar at once
        table, _token = manager.create(name="Ana", preset="chile", options={"undo": True},
                                       seats=2, bots={}, turn_timer=30, steal_timer=10,
                                       hints=False)
        table.join("Beto")
        table.start()
        game = table.game
        seat = game.seat_to_act
        first = table.turn_deadline
        clock[0] += 5
        table.apply(seat, {"p": seat, "draw": "mazo"}, None)
        bajar = [a for a in game.legal_actions(seat) if isinstance(a, Bajar)]
        if bajar:
            break
    assert bajar, "no deal let the player bajar"
    assert first is not None and table.turn_deadline == clock[0] + 30  # the draw: afresh
    after_draw = table.turn_deadline
    for _ in range(3):
        clock[0] += 5
        table.apply(seat, bajar[0].to_json(), table.version)
        assert table.turn_deadline == after_draw
        clock[0] += 5
        table.undo(seat, table.version)
        assert table.turn_deadline == after_draw
    clock[0] = after_draw + 1
    table.on_timers()  # the time ran out: the table drew nothing more and threw a card
    assert game.seat_to_act != seat


@pytest.mark.parametrize("answer", ["pass", "buy"])
def test_a_claim_does_not_make_the_draw_or_other_claims_stale(answer: str) -> None:
    """Another seat's claim or pass changes no move anyone may make: the player to draw and
    the other claimants act from the screen they saw, not a refusal as stale_version."""
    from carioca.store import SQLiteStore

    manager = tables.TableManager(SQLiteStore(":memory:"), bot_delay=0)
    table, _token = manager.create(name="Ana", preset="chile",
                                   options={"buying": "penalty_card"}, seats=4, bots={},
                                   turn_timer=0, steal_timer=15, hints=False)
    for name in ("Beto", "Caro", "Dani"):
        table.join(name)
    table.start()
    game = table.game
    seat = game.seat_to_act
    table.apply(seat, {"p": seat, "draw": "mazo"}, table.version)
    table.apply(seat, {"p": seat, "discard": str(game.hand(seat)[0])}, table.version)
    drawer, seen = game.seat_to_act, table.version
    first, second = sorted(table.window.eligible)[:2]
    if answer == "pass":
        table.pass_buy(first, seen)
    else:
        table.apply(first, {"p": first, "buy": True}, seen)
    table.apply(second, {"p": second, "buy": True}, seen)  # not stale
    assert table.window.claims == {first: answer == "buy", second: True}
    table.apply(drawer, {"p": drawer, "draw": "mazo"}, seen)  # not stale either
    assert game.phase == "play" and game.seat_to_act == drawer


def test_the_turn_timer_throws_the_dearest_card_the_player_does_not_need() -> None:
    # What the page promises ("your highest card you do not need"): not the joker or an ace
    # of the trío AS AH JK, but the king that goes with nothing; and a joker stays in hand
    # while a natural card may go, even one the contract does not need.
    from test_rulings import start

    from carioca.actions import Discard, Draw
    from carioca.server.tables import timeout_discard

    def timed_out(hand: str) -> tuple[Any, list[Discard]]:
        game = start("chile", [hand, "2C 3D 4H 6S 8C 9H 10S JD QC 2H 3S 4D"], top="6D 8S")
        assert game.seat_to_act == 1
        game.apply(Draw(1, "mazo"))
        game.apply(Discard(1, next(c for c in game.hand(1) if str(c) == "QC")))
        game.apply(Draw(0, "mazo"))
        discards = [a for a in game.legal_actions(0) if isinstance(a, Discard)]
        return (lambda only: str(timeout_discard(game.view(0), game.rules, [
            a for a in discards if not only or str(a.card) in only]).card)), discards

    pick, _ = timed_out("AS AH 5C 5D 5H KS 9D JK 3C 7H 2D 4S")
    assert pick(()) == "KS"
    assert pick(("AS", "JK", "9D")) == "9D"
    pick, _ = timed_out("5C 5D 5H 8C 8D 8H KS 9D JK 3C 7H 2D")
    assert pick(()) == "KS"
    assert pick(("JK", "2D")) == "2D"
    assert pick(("JK",)) == "JK"  # nothing else may go


def test_names_cannot_hide_or_repeat_a_player() -> None:
    # A right-to-left override would show "\u202eanA" as "Ana" and turn the log lines around;
    # two players called Ana could not be told apart on the sheet or in the record.
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        made = _new(client, preset="chile", seats=4, name="Ana")
        code = made["code"]
        for name in ("\u202eanA\u200f", "Ana", "  \t "):
            assert client.post(f"/api/tables/{code}/join", json={"name": name}).status_code == 200
        names = [s["name"] for s in client.get(f"/api/tables/{code}").json()["seats"]]
        assert names == ["Ana", "anA", "Ana 2", "Jugador 4"]
        other = _new(client, preset="chile", seats=3, name="José")["code"]
        for name in ("Jose\u0301", "👩\u200d👧"):  # José composed otherwise; a family emoji
            client.post(f"/api/tables/{other}/join", json={"name": name})
        names = [s["name"] for s in client.get(f"/api/tables/{other}").json()["seats"]]
    assert names == ["José", "José 2", "👩\u200d👧"]
    # Characters that show nothing do not make another Ana, nor a blank name.
    with TestClient(create_app(":memory:", bot_delay=0)) as client:
        code = _new(client, preset="chile", seats=8, name="Ana")["code"]
        for name in ("Ana\u200d", "\u200dAna", "Ana\u034f", "Ana\u3164", "Ana\u2800",
                     "\u200d" * 40, "\ufb2c" * 40):
            client.post(f"/api/tables/{code}/join", json={"name": name})
        names = [s["name"] for s in client.get(f"/api/tables/{code}").json()["seats"]]
    assert names[:7] == ["Ana", "Ana 2", "Ana 3", "Ana 4", "Ana 5", "Ana 6", "Jugador 7"]
    assert len(names[7]) == 40  # cut after its letters were composed (3 each)
    # A long name is cut at 40 characters, as the docs say, not refused.
    with TestClient(create_app(":memory:", bot_delay=0)) as client:
        made = _new(client, preset="chile", seats=2, name="Ana María " * 6)
        joined = client.post(f"/api/tables/{made['code']}/join", json={"name": "B" * 60})
        assert joined.status_code == 200, joined.text
        names = [s["name"] for s in client.get(f"/api/tables/{made['code']}").json()["seats"]]
    assert names == [("Ana María " * 4).strip(), "B" * 40]
    # A joiner that holds letters or an emoji together stays; a cut leaves none dangling.
    assert clean_name("ශ්\u200dරී") == "ශ්\u200dරී"  # Sri, in Sinhala
    assert clean_name("🙂\u200d↔\ufe0f") == "🙂\u200d↔\ufe0f"
    assert clean_name("1\ufe0f\u20e3") == "1\ufe0f\u20e3" and clean_name("Ana\ufe0f") == "Ana"
    assert clean_name("x" * 38 + "👩\u200d👧") == "x" * 38 + "👩"
    for hidden in ("Ana\U000e0100", "Ana\u17b4", "Ana\u180b"):
        assert clean_name(hidden) == "Ana"
    # An emoji with and without its presentation selector looks the same: a second one.
    with TestClient(create_app(":memory:", bot_delay=0)) as client:
        code = _new(client, preset="chile", seats=2, name="😀")["code"]
        joined = client.post(f"/api/tables/{code}/join", json={"name": "😀\ufe0f"}).json()
        assert joined["table"]["seats"][1]["name"] == "😀\ufe0f 2"


def test_a_rematch_starts_without_the_last_games_round_end() -> None:
    # The page shows a round's end once per (game, round): a rematch that still sent the
    # last game's round 1 would show old hands at its start and hide its own round 1's end.
    from carioca.store import SQLiteStore

    manager = tables.TableManager(SQLiteStore(":memory:"), bot_delay=0)
    table, _ = manager.create(name="Ana", preset="chico", options={"rounds": [1]}, seats=2,
                              bots={}, turn_timer=0, steal_timer=10, hints=False)
    table.join("Beto")
    table.start()
    rng = random.Random(3)
    while table.status == "playing":
        seat = table.game.seat_to_act
        table.apply(seat, rng.choice(list(table.game.legal_actions(seat))).to_json(), None)
    assert table.public_state()["round_end"]["round"] == 1
    table.start()  # the rematch
    assert table.public_state()["round_end"] is None


def test_every_error_a_player_can_meet_is_translated() -> None:
    # The page says an error in the player's language by its code; a code without words
    # would show the server's English on a Spanish page.
    import re

    src = Path(__file__).resolve().parent.parent / "src" / "carioca"
    raised = set()
    for path in [*src.glob("*.py"), *(src / "server").glob("*.py")]:
        text = path.read_text(encoding="utf-8")
        raised |= set(re.findall(r'(?:TableError|IllegalAction)\(\s*"([a-z_]+)"', text))
    # Only records and the engine's own dealing meet these; the page never does.
    raised -= {"bad_deal", "no_deal", "no_round", "round_not_over", "no_page"}
    words = (src / "web" / "js" / "i18n.js").read_text(encoding="utf-8")
    entries = dict(re.findall(r'"err\.([a-z_]+)": (\{[^\n]*\}),?\n', words))
    assert raised - set(entries) == set()
    for code, entry in entries.items():
        assert all(f"{lang}: " in entry for lang in ("es", "en", "de", "sv")), code


def test_a_bot_plays_for_a_player_who_left_until_they_come_back() -> None:
    # A player who closes the tab would stop the table for good: anyone seated may let a
    # bot play for them, and coming back with the seat's token takes the seat back.
    app = create_app(":memory:", bot_delay=0)
    manager = app.state.manager
    with TestClient(app) as client:
        code, ana, beto, table = _two_playing(client, app)
        assert table.game.seat_to_act == 1  # Beto plays first, and he is not here
        url = f"/api/tables/{code}/stand-in"
        watcher = client.post(url, json={"seat": 1, "bot": "chela"})
        assert watcher.status_code == 403  # a spectator may not
        with client.websocket_connect(f"/ws/{code}") as ws1:
            _hello(ws1, beto)
            here = client.post(url, json={"seat": 1, "bot": "chela"},
                               headers={"X-Carioca-Token": ana})
            assert here.status_code == 409 and here.json()["error"]["code"] == "connected"
        with client.websocket_connect(f"/ws/{code}") as ws0:
            _hello(ws0, ana)
            info = client.post(url, json={"seat": 1, "bot": "chela"},
                               headers={"X-Carioca-Token": ana}).json()
            assert info["seats"][1]["stand_in"] == "chela"
            # The bot plays Beto's turn: the turn comes to Ana.
            _until_state(ws0, lambda m: bool(m.get("legal")))
            assert table.game.seat_to_act == 0
            stored = {t.code: t.meta for t in manager.store.load_tables()}
            assert stored[code]["seats"][1]["stand_in"] == "chela"  # a restart keeps it
            with client.websocket_connect(f"/ws/{code}") as ws1:
                _hello(ws1, beto)
                assert table.seats[1].stand_in is None and 1 not in table._bots
                state = _until_state(ws0, lambda m: m["table"]["seats"][1]["stand_in"] is None)
                assert state["table"]["seats"][1]["connected"]


def test_a_spanish_player_is_told_in_spanish_why_melds_are_not_the_contract() -> None:
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        code, _, beto, table = _two_playing(client, app)
        with client.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json({"type": "hello", "token": beto, "lang": "es"})
            ws.receive_json()
            _send(ws, {"type": "action", "version": None, "action": {"p": 1, "draw": "mazo"}})
            cards = [str(c) for c in table.game.hand(1)[:3]]
            reply = _send(ws, {"type": "action", "version": None,
                               "action": {"p": 1, "bajar": [cards]}})
    assert reply["code"] == "not_the_contract"
    assert reply["message"].startswith("that is not the contract")
    assert reply["detail"].startswith("eso no es el contrato: ")
    assert "meld" not in reply["detail"] and "trío is" not in reply["detail"]


def test_a_spanish_player_is_told_which_cards_could_not_all_go(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In a round gone out at once the engine names the cards a bajar would leave; the page's
    own words for the code cannot, so a Spanish player gets the server's detail."""
    from carioca import IllegalAction

    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        code, _, beto, table = _two_playing(client, app)

        def refuse(*_: Any) -> None:
            raise IllegalAction("must_go_out", "in this round whoever bajarse must go out in the "
                                "same turn (meld, lay off and discard): these cards could not "
                                "all go: QC KC")
        monkeypatch.setattr(table, "apply", refuse)
        with client.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json({"type": "hello", "token": beto, "lang": "es"})
            ws.receive_json()
            reply = _send(ws, {"type": "action", "version": None,
                               "action": {"p": 1, "draw": "mazo"}})
    assert reply["code"] == "must_go_out"
    assert reply["detail"].endswith("no podrías deshacerte de todas estas cartas: QC KC")


def test_a_rounds_first_turn_leaves_time_to_read_how_the_last_one_ended() -> None:
    from carioca.store import SQLiteStore

    manager = tables.TableManager(SQLiteStore(":memory:"), bot_delay=0)
    table, _ = manager.create(name="Ana", preset="chile", options={}, seats=2, bots={},
                              turn_timer=30, steal_timer=10, hints=False)
    table.join("Beto")
    table.start()
    first = table.turn_deadline - time.time()
    assert 30 + tables.READING_TIME - 2 < first <= 30 + tables.READING_TIME
    table.apply(1, {"p": 1, "draw": "mazo"}, None)
    assert 28 < table.turn_deadline - time.time() <= 30


def _three_at_a_table(options: dict[str, Any], turn_timer: int = 0,
                      db: Path | str = ":memory:") -> Any:
    """Ana, Beto and Caro at a started 3-seat `chile` table, moved by the test (no loop)."""
    from carioca.store import SQLiteStore

    manager = tables.TableManager(SQLiteStore(db), bot_delay=0)
    table, _ = manager.create(name="Ana", preset="chile", options=options, seats=3, bots={},
                              turn_timer=turn_timer, steal_timer=10, hints=True)
    table.join("Beto")
    table.join("Caro")
    table.start()
    return table


def test_a_stand_in_switched_on_and_off_does_not_make_a_move_stale() -> None:
    """Any player may seat a bot for one who is away; switching it on and off again and again
    must not keep the player to act from moving (each switch is a new version of the table),
    while a move decided before a real change still is stale."""
    table = _three_at_a_table({})
    seat = table.game.seat_to_act
    away = (seat + 1) % 3
    seen = table.version
    for _ in range(5):
        table.stand_in(away, "chela")
        table.stand_in(away, None)
    assert table.version == seen + 10
    table.apply(seat, {"p": seat, "draw": "mazo"}, seen)  # taken
    with pytest.raises(tables.TableError) as stale:
        table.apply(seat, {"p": seat, "discard": str(table.game.hand(seat)[0])}, seen)
    assert stale.value.code == "stale_version"  # the draw was a change: a new version to name
    table.apply(seat, {"p": seat, "discard": str(table.game.hand(seat)[0])}, table.version)


def test_a_version_from_before_a_restart_is_stale(tmp_path: Path) -> None:
    """The version is not stored: a table restored (a restart, another server taking it over)
    counts on from the clock, so a move decided on a screen from before is never current."""
    from carioca.store import SQLiteStore

    db = tmp_path / "t.sqlite"
    table = _three_at_a_table({}, db=db)
    seat = table.game.seat_to_act
    seen = table.version
    restarted = tables.TableManager(SQLiteStore(db), bot_delay=0)
    restarted.load()
    again = restarted.tables[table.code]
    for bot in ("chela", None):  # changes that make nothing stale (a reconnect's take_back)
        again.stand_in((seat + 1) % 3, bot)
    assert again.version > seen
    with pytest.raises(tables.TableError) as stale:
        again.apply(seat, {"p": seat, "draw": "mazo"}, seen)
    assert stale.value.code == "stale_version"
    again.apply(seat, {"p": seat, "draw": "mazo"}, again.version)


def test_a_stand_in_switched_on_and_off_keeps_the_persons_time() -> None:
    """The turn timer counts a move, not a stand-in: a bot seated for the away player to act
    and taken away again leaves the countdown where it was."""
    table = _three_at_a_table({}, turn_timer=30)
    seat = table.game.seat_to_act
    deadline = table.turn_deadline
    assert deadline is not None
    time.sleep(0.01)
    table.stand_in(seat, "chela")
    assert table.turn_deadline is None  # a bot plays: no countdown
    table.stand_in(seat, None)
    assert table.turn_deadline == deadline


def test_bots_move_while_someone_switches_a_stand_in_on_and_off() -> None:
    """Switching a stand-in on and off faster than a bot's delay must not keep the bots (or
    anyone) from moving: a bot's move waits only for changes to the game."""
    app = create_app(":memory:", bot_delay=0.2)
    with TestClient(app) as client:
        made = _new(client, preset="chile", seats=3, bots={"1": "random"})
        code, ana = made["code"], made["token"]
        client.post(f"/api/tables/{code}/join", json={"name": "Beto"})  # away from then on
        client.post(f"/api/tables/{code}/start", headers={"X-Carioca-Token": ana})
        table = app.state.manager.tables[code]
        assert table.game.seat_to_act == 1  # the bot plays first
        url, head = f"/api/tables/{code}/stand-in", {"X-Carioca-Token": ana}
        deadline = time.time() + 5
        while not table.game.log[-1] and time.time() < deadline:
            for bot in ("chela", None):
                client.post(url, json={"seat": 2, "bot": bot}, headers=head)
        assert table.game.log[-1], "the bot never moved"


def test_a_buy_that_ends_the_round_takes_the_draw_with_it() -> None:
    # Beto discards; Ana claims; Caro draws from the mazo, so Ana buys first, and her penalty
    # card is the mazo's last: the round ends. Caro's draw must not become the first move of
    # the next round (which she starts).
    table = _three_at_a_table({"buying": "penalty_card"})
    state = table.game._round  # a mazo of two cards and a pozo of one (a test's shortcut)
    state.hands[0].extend(state.mazo[:-2] + state.pozo[:-1])
    state.mazo, state.pozo = state.mazo[-2:], state.pozo[-1:]
    table.apply(1, {"p": 1, "draw": "mazo"}, None)
    table.apply(1, {"p": 1, "discard": str(table.game.hand(1)[0])}, None)
    table.apply(0, {"p": 0, "buy": True}, None)
    table.apply(2, {"p": 2, "draw": "mazo"}, None)
    assert table.game.round_number == 2 and table.game.log[-1] == []
    assert [a.to_json() for a in table.game.log[0][-2:]][-1] == {"p": 0, "buy": True}


def test_how_the_last_round_ended_survives_a_restart(tmp_path: Path) -> None:
    """Every hand and score of the round just ended stays on the screen over a restart."""
    from carioca.store import SQLiteStore

    db = tmp_path / "carioca.sqlite"
    manager = tables.TableManager(SQLiteStore(db), bot_delay=0)
    table, _token = manager.create(name="Ana", preset="chile", options={}, seats=2, bots={},
                                   turn_timer=0, steal_timer=10, hints=False)
    table.join("Beto")
    table.start()
    game, rng = table.game, random.Random(2)
    while not game.results:
        seat = game.seat_to_act
        legal = list(game.legal_actions(seat))
        eager = [a for a in legal if a.kind in ("bajar", "agregar")]
        table.apply(seat, rng.choice(eager or legal).to_json(), None)
    live = table.public_state()["round_end"]
    assert live is not None and live["round"] == 1
    manager.store.close()
    manager = tables.TableManager(SQLiteStore(db), bot_delay=0)
    manager.load()
    assert manager.tables[table.code].public_state()["round_end"] == live
    manager.store.close()


def test_claims_survive_a_restart_and_leave_the_turn_timer_alone(tmp_path: Path) -> None:
    from carioca.store import SQLiteStore

    db = tmp_path / "t.sqlite"
    table = _three_at_a_table({"buying": "penalty_card"}, turn_timer=30, db=db)
    table.apply(1, {"p": 1, "draw": "mazo"}, None)
    card = str(table.game.hand(1)[0])
    table.apply(1, {"p": 1, "discard": card}, None)
    deadline = table.turn_deadline
    time.sleep(0.01)
    table.apply(0, {"p": 0, "buy": True}, None)
    assert table.turn_deadline == deadline  # a claim is not a move: Caro's time goes on
    table.stand_in(1, None)  # nobody stands in for Beto: nothing changes
    assert table.turn_deadline == deadline
    restarted = tables.TableManager(SQLiteStore(db), bot_delay=0)
    restarted.load()
    again = restarted.tables[table.code]
    assert again.window is not None and again.window.claims == {0: True}
    again.apply(2, {"p": 2, "draw": "mazo"}, None)
    assert card in map(str, again.game.hand(0)) and again.game.view(0).buys[0] == 1
    # The steal timer over, a claim is too late even before the timers are looked at.
    again.apply(2, {"p": 2, "discard": str(again.game.hand(2)[0])}, None)
    assert again.window is not None
    again.window.deadline = time.time() - 1
    with pytest.raises(tables.TableError) as late:
        again.apply(1, {"p": 1, "buy": True}, None)
    assert late.value.code == "too_late"


def test_the_turn_timer_finishes_a_turn_gone_out_at_once() -> None:
    # After the bajar of a round gone out at once nothing may be discarded until the rest is
    # laid off: the timer lays it off, then discards, and the player has gone out.
    from carioca.cards import parse_cards
    from carioca.store import SQLiteStore

    manager = tables.TableManager(SQLiteStore(":memory:"), bot_delay=0)
    table, _ = manager.create(name="Ana", preset="chile",
                              options={"contracts": ["2E!"], "hand_size": 9}, seats=2,
                              bots={}, turn_timer=30, steal_timer=10, hints=False)
    table.join("Beto")
    table.start()
    state = table.game._round  # Beto's hand, set by hand (a test's shortcut)
    beto = parse_cards("3H 4H 5H 6H 3S 4S 5S 6S 7H")
    spare = [c for c in state.hands[1] if c not in beto]
    state.hands[1] = beto
    state.mazo.extend(spare)
    state.mazo.append(parse_cards("KC")[0])  # Beto's draw
    table.apply(1, {"p": 1, "draw": "mazo"}, None)
    table.apply(1, {"p": 1, "bajar": [["3H", "4H", "5H", "6H"], ["3S", "4S", "5S", "6S"]]},
                None)
    assert not any("discard" in a for a in (x.to_json() for x in table.game.legal_actions(1)))
    table.turn_deadline = time.time() - 1
    table.on_timers()
    result = table.game.results[0]
    assert result.went_out == 1
    assert [a.to_json() for a in table.game.log[0][-2:]] == [
        {"p": 1, "agregar": {"card": "7H", "meld": 0, "end": "high"}}, {"p": 1, "discard": "KC"}]


def test_a_lobby_left_by_a_player_or_the_host_can_still_start() -> None:
    # Beto joined and closed the tab: the host gives his seat to a bot. Then the host goes:
    # Caro, at the table, does the host's part and starts; a spectator may not.
    app = create_app(":memory:", bot_delay=0)
    with TestClient(app) as client:
        made = _new(client, preset="chile", seats=3)
        code, ana = made["code"], made["token"]
        beto = client.post(f"/api/tables/{code}/join", json={"name": "Beto"}).json()["token"]
        caro = client.post(f"/api/tables/{code}/join", json={"name": "Caro"}).json()["token"]
        with client.websocket_connect(f"/ws/{code}") as ws_ana, \
                client.websocket_connect(f"/ws/{code}") as ws_beto:
            _hello(ws_ana, ana)
            _hello(ws_beto, beto)
            here = client.post(f"/api/tables/{code}/bots", json={"seat": 1, "bot": "chela"},
                               headers={"X-Carioca-Token": ana})
            assert here.status_code == 409  # Beto is at the table
            early = client.post(f"/api/tables/{code}/start", headers={"X-Carioca-Token": caro})
            assert early.status_code == 403  # the host is here: only the host starts
        gone = client.post(f"/api/tables/{code}/bots", json={"seat": 1, "bot": "chela"},
                           headers={"X-Carioca-Token": caro})  # the host is away now
        assert gone.status_code == 200 and gone.json()["seats"][1]["bot"] == "chela"
        stranger = client.post(f"/api/tables/{code}/start", headers={"X-Carioca-Token": "x"})
        assert stranger.status_code == 403
        started = client.post(f"/api/tables/{code}/start", headers={"X-Carioca-Token": caro})
        assert started.status_code == 200 and started.json()["status"] == "playing"


def test_a_rematch_whose_save_fails_leaves_the_table_as_it_was(tmp_path: Path) -> None:
    # The store refuses the rematch's first write: the player is told, the table stays over
    # with its last game (nothing half started), and the next rematch starts and is stored.
    import sqlite3

    db = tmp_path / "carioca.sqlite"
    app = create_app(db, bot_delay=0)
    manager = app.state.manager
    with TestClient(app, raise_server_exceptions=False) as client:
        made = _new(client, preset="chile", seats=2, bots={"1": "greedy"},
                    options={"rounds": [1]})
        code, ana = made["code"], made["token"]
        client.post(f"/api/tables/{code}/start", headers={"X-Carioca-Token": ana})
        client.post(f"/api/tables/{code}/stand-in", json={"seat": 0, "bot": "greedy"},
                    headers={"X-Carioca-Token": ana})
        table = manager.tables[code]
        deadline = time.time() + 30
        while table.status != "over":
            assert time.time() < deadline, "the game did not end"
            time.sleep(0.05)
        last = table.game.to_record()
        real, failed = manager.store.save_table, []

        def full_disk(*args: Any) -> None:
            if not failed:
                failed.append(args)
                raise sqlite3.OperationalError("database or disk is full")
            real(*args)

        manager.store.save_table = full_disk
        refused = client.post(f"/api/tables/{code}/rematch", headers={"X-Carioca-Token": ana})
        # a full disk is the store's refusal: try again (as with PostgreSQL away)
        assert refused.status_code == 503 and refused.json()["error"]["code"] == "unavailable"
        assert table.status == "over" and table.game_no == 0
        assert table.game.to_record() == last
        again = client.post(f"/api/tables/{code}/rematch", headers={"X-Carioca-Token": ana})
        assert again.status_code == 200 and table.game_no == 1
    restarted = create_app(db, bot_delay=0).state.manager.tables[code]
    # The new game was stored, deal and all (the bots may have finished it meanwhile).
    assert restarted.status in ("playing", "over") and restarted.game_no == 1
    assert restarted.game is not None and restarted.game.round_number == 1


# --------------------------------------------------------------------------- matches

def _duel(db: Path | str = ":memory:", match: int = 3) -> Any:
    """Ana (a person, moved by the test) and a greedy bot at a 2-seat table of one round,
    in a match of ``match`` games; the manager's loop is not running."""
    from carioca.store import SQLiteStore

    manager = tables.TableManager(SQLiteStore(db), bot_delay=0)
    table, _ = manager.create(name="Ana", preset="chile", options={"rounds": [1]}, seats=2,
                              bots={1: "greedy"}, turn_timer=0, steal_timer=10, hints=False,
                              match=match)
    return table


def _play_to_the_end(table: Any) -> tuple[int, ...]:
    """Play the table's game to its end: Ana draws from the mazo and throws a card (she never
    lays down, so she never goes out), the bot plays its game. The game's winners."""
    for _ in range(5_000):
        if table.status != "playing":
            break
        seat = table.game.seat_to_act
        if seat == 1:
            view, legal = table.bot_question(1)
            table.bot_answer(1, legal, table.ask_bot(1, view, legal))
        else:
            legal = list(table.game.legal_actions(0))
            table.apply(0, _mazo_then_first_discard(legal).to_json(), None)
    assert table.status == "over"
    return tuple(table.game.score_sheet().winners)


def test_a_match_must_be_one_game_or_the_best_of_3_or_5() -> None:
    with TestClient(create_app(":memory:")) as client:
        for bad in (2, 0, 7, -1):
            answer = client.post("/api/tables", json={"name": "Ana", "match": bad})
            assert answer.status_code == 400
            error = answer.json()["error"]
            assert error["code"] == "bad_match"
            assert "one game" in error["message"] and "best of 3 or of 5" in error["message"]
        word = client.post("/api/tables", json={"name": "Ana", "match": "three"})
        assert word.status_code == 400 and "match" in word.json()["error"]["message"]
        one = _new(client)  # one game unless the host says otherwise
        assert one["table"]["match"] == {"games": 1, "wins": [0, 0, 0, 0], "played": 0,
                                          "current": 1, "winners": None}
        five = _new(client, match=5, seats=2)
        assert five["table"]["match"]["games"] == 5
        assert client.get(f"/api/tables/{five['code']}").json()["match"]["wins"] == [0, 0]


def test_the_table_counts_the_games_each_seat_won_across_rematches() -> None:
    # One game at a time: no match to decide, the tally runs on through every rematch.
    table = _duel(match=1)
    table.start()
    first = _play_to_the_end(table)
    table.start()  # the rematch
    assert table.info()["match"]["played"] == 1 and table.info()["match"]["current"] == 2
    second = _play_to_the_end(table)
    wins = [0, 0]
    for seat in (*first, *second):
        wins[seat] += 1
    assert table.info()["match"] == {"games": 1, "wins": wins, "played": 2, "current": 2,
                                     "winners": None}
    table.start()
    assert table.info()["match"]["wins"] == wins  # not reset: a tally, not a match


def test_best_of_3_is_decided_by_two_games_and_the_next_rematch_starts_a_new_match() -> None:
    table = _duel(match=3)
    table.start()
    assert table.info()["match"]["current"] == 1
    assert _play_to_the_end(table) == (1,)  # Ana never lays down: the bot wins
    match = table.info()["match"]
    assert match == {"games": 3, "wins": [0, 1], "played": 1, "current": 1, "winners": None}
    table.start()  # the next game of the match
    assert table.info()["match"]["current"] == 2 and table.info()["match"]["wins"] == [0, 1]
    assert _play_to_the_end(table) == (1,)
    assert table.info()["match"] == {"games": 3, "wins": [0, 2], "played": 2, "current": 2,
                                     "winners": [1]}
    table.start()  # a rematch after the match is decided: a new match
    assert table.info()["match"] == {"games": 3, "wins": [0, 0], "played": 0, "current": 1,
                                     "winners": None}
    assert table.game_no == 2


def test_who_wins_a_match() -> None:
    win = tables.match_winners
    assert win(3, [2, 0], 2) == [0]
    assert win(3, [1, 1], 2) is None  # a third game decides
    assert win(3, [1, 1, 1], 3) == [0, 1, 2]  # three games, three winners: shared
    assert win(3, [2, 2], 2) == [0, 1]  # two shared games: both passed the mark at once
    assert win(3, [1, 2, 0], 3) == [1]
    assert win(5, [2, 2, 0], 4) is None
    assert win(5, [3, 1], 4) == [0]
    assert win(5, [2, 2, 1], 5) == [0, 1]  # five games, no majority: the most wins, shared
    assert win(1, [4, 2], 6) is None  # one game at a time: a tally, no match


def test_the_match_survives_a_restart_and_an_end_stored_without_the_table(
        tmp_path: Path) -> None:
    from carioca.store import SQLiteStore

    db = tmp_path / "t.sqlite"
    table = _duel(db, match=3)
    table.start()
    assert _play_to_the_end(table) == (1,)
    restarted = tables.TableManager(SQLiteStore(db), bot_delay=0)
    restarted.load()
    again = restarted.tables[table.code]
    assert again.info()["match"] == table.info()["match"]
    assert again.info()["match"]["wins"] == [0, 1]
    # The second game's last move is stored, the table's own write after it is not (the
    # disk filled up): the restart reads the end off the game and counts it, once.
    again.start()
    real = again.manager.store.save_table

    def full_disk(*args: Any) -> None:
        if again.game.is_over:
            raise OSError("disk full")
        real(*args)

    again.manager.store.save_table = full_disk
    _play_to_the_end(again)
    assert again.info()["match"]["wins"] == [0, 2]
    assert SQLiteStore(db).load_tables()[0].meta["status"] == "playing"
    third = tables.TableManager(SQLiteStore(db), bot_delay=0)
    third.load()
    decided = third.tables[table.code].info()
    assert decided["status"] == "over"
    assert decided["match"] == {"games": 3, "wins": [0, 2], "played": 2, "current": 2,
                                "winners": [1]}
    assert SQLiteStore(db).load_tables()[0].meta["match_wins"] == [0, 2]


def test_a_table_stored_before_matches_loads_as_one_game() -> None:
    from carioca.store import SQLiteStore

    store = SQLiteStore(":memory:")
    store.save_table("OLD234", {"preset": "chile", "options": {}, "host": 0,
                                "seats": [{"name": "Ana"}, {"name": "Beto"}],
                                "status": "lobby"})
    manager = tables.TableManager(store, bot_delay=0)
    manager.load()
    table = manager.tables["OLD234"]
    assert table.info()["match"] == {"games": 1, "wins": [0, 0], "played": 0, "current": 1,
                                     "winners": None}
    assert table.meta()["match"] == 1 and table.meta()["match_wins"] == [0, 0]


def test_codes_that_name_no_table_are_refused_for_a_minute_past_thirty() -> None:
    """Trying codes until one opens somebody's table: past 30 codes that named no table in a
    minute, the table routes and sockets refuse that address (429, Retry-After), even for a
    table that is there; a minute later they answer again. Other addresses are not held up."""
    from carioca.server.app import GUESSES_PER_MINUTE

    app = create_app(":memory:", bot_delay=0)
    now = [0.0]
    app.state.guesses.clock = lambda: now[0]
    with TestClient(app) as client:
        code = _new(client)["code"]
        for _ in range(3 * GUESSES_PER_MINUTE):  # one wrong code asked again counts once
            assert client.get("/api/tables/NOSUCH").status_code == 404
        assert client.get(f"/api/tables/{code}/nowhere").status_code == 404  # not a guess
        with client.websocket_connect("/ws/NOSOCK") as ws:  # a socket's miss counts too
            assert ws.receive_json()["code"] == "no_table"
        for i in range(GUESSES_PER_MINUTE - 3):
            assert client.get(f"/api/tables/NO{i:04d}").status_code == 404
        assert client.get(f"/api/tables/{code}").status_code == 200  # 29 codes: still open
        assert client.get("/api/tables/nosuch").status_code == 404  # the same code, any case
        assert client.get("/api/tables/NO9999").status_code == 404  # the 30th
        refused = client.get(f"/api/tables/{code}")
        assert refused.status_code == 429 and refused.headers["Retry-After"] == "60"
        assert refused.json()["error"]["code"] == "too_many_tries"
        assert client.post(f"/api/tables/{code}/join", json={"name": "Beto"}).status_code == 429
        with client.websocket_connect(f"/ws/{code}") as ws:
            assert ws.receive_json()["code"] == "too_many_tries"
        other = TestClient(app, client=("10.0.0.9", 5000))
        assert other.get(f"/api/tables/{code}").status_code == 200
        now[0] = 61.0
        assert client.get(f"/api/tables/{code}").status_code == 200
        assert client.get("/api/presets").status_code == 200  # never held up


def test_guessers_are_counted_by_household_and_forgotten() -> None:
    """IPv6 addresses count by their /64; the table of guessers stays bounded whatever
    comes, and an address whose misses are past is forgotten."""
    from carioca.server.app import code_guesses

    now = [0.0]
    guesses = code_guesses(most=3, clock=lambda: now[0], addresses=100)
    for i in range(3):
        guesses.noted(f"2001:db8::{i + 1}", f"C{i}")
    assert guesses.blocked("2001:db8::ffff") and not guesses.blocked("2001:db8:0:1::1")
    for i in range(1000):
        guesses.noted(f"10.0.{i // 250}.{i % 250}", "X")
    assert len(guesses._items) <= 100
    guesses.noted("10.8.8.8", "Z" * 100_000)  # a long path is kept as long as a code
    assert max(len(c) for codes in guesses._items.values() for c in codes) <= 16
    now[0] = 61.0
    guesses.noted("10.9.9.9", "Y")
    assert not guesses.blocked("2001:db8::1")
    assert len(guesses._items) <= 100
