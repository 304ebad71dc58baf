"""The rules in words on the web: ``GET /api/rules`` and the ``/rules`` page, for a preset with
the host's changes or for a table, in the page's language (the text of
:func:`carioca.describe.describe_rules`)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from carioca import RuleSet
from carioca.describe import describe_rules
from carioca.server import create_app


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(create_app(":memory:", bot_delay=0)) as c:
        yield c


def _rules(client: TestClient, **params: Any) -> Any:
    return client.get("/api/rules", params=params)


def test_a_preset_in_words_is_the_describe_text(client: TestClient) -> None:
    answer = _rules(client, preset="chile", lang="es")
    assert answer.status_code == 200
    body = answer.json()
    assert body == {"text": describe_rules(RuleSet.preset("chile"), "es"), "lang": "es",
                    "preset": "chile", "options": {}}
    assert "| 8     | cuatro tríos" in body["text"]


def test_the_hosts_changes_are_in_the_words(client: TestClient) -> None:
    options = {"buying": "penalty_card", "rounds": [1, 8]}
    body = _rules(client, preset="chile", options=json.dumps(options), lang="en").json()
    assert body["text"] == describe_rules(RuleSet.preset("chile", **options), "en")
    assert "Se juegan" not in body["text"] and "2 rounds" in body["text"]
    assert body["options"] == {"buying": "penalty_card", "rounds": [1, 8]}


@pytest.mark.parametrize(("params", "code", "words"), [
    ({"preset": "bridge"}, "bad_rules", "bridge"),
    ({"preset": "chile", "options": "{not json"}, "bad_options", "JSON object"),
    ({"preset": "chile", "options": "[1, 2]"}, "bad_options", "JSON object"),
    ({"preset": "chile", "options": '{"colour": 3}'}, "bad_rules", "colour"),
    ({"preset": "dos-libres", "options": '{"contracts": ["4E"]}'}, "bad_rules", ""),
    ({"preset": "chile", "options": '{"contracts": ["\u00b2T"]}'}, "bad_rules", "not a meld"),
    ({"preset": "chile", "options": '{"contracts": ["99999999999999T"]}'}, "bad_rules",
     "at most 20"),
    ({"preset": "chile", "options": '{"contracts": ["E' + "9" * 5000 + '"]}'}, "bad_rules",
     "…"),
])
def test_rules_that_cannot_be_played_get_a_clear_error(
        client: TestClient, params: dict[str, str], code: str, words: str) -> None:
    answer = _rules(client, **params)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == code and words in error["message"]
    assert "Traceback" not in answer.text


def test_rules_that_cannot_be_played_say_why_in_spanish_too(client: TestClient) -> None:
    error = _rules(client, preset="chile", options='{"contracts": ["20T"]}').json()["error"]
    assert error == {
        "code": "bad_rules",
        "message": "round 1 (20T) can never be played: 20 tríos need at least 60 cards, but a "
                   "hand never holds more than 13",
        "detail": {"es": "la ronda 1 (20T) no se puede jugar nunca: 20 tríos necesitan al "
                         "menos 60 cartas, pero una mano nunca tiene más de 13"}}
    error = _rules(client, preset="chile", options='{"max_wilds_per_meld": -4}').json()["error"]
    assert error["detail"]["es"].startswith("la opción 'max_wilds_per_meld' tiene que ser")
    # A long input is quoted cut short in both languages (the reason says the rest).
    long = _rules(client, preset="chile", options='{"contracts": ["E' + "9" * 5000 + '"]}')
    error = long.json()["error"]
    assert error["detail"]["es"].startswith("el contrato 'E999")
    assert len(error["detail"]["es"]) <= 300 and "…" in error["detail"]["es"]
    assert error["detail"]["es"].endswith("no es un juego (usa T, E, E3, ES, ER o EC)")
    # Other refusals have no reason to say in Spanish.
    assert "detail" not in _rules(client, preset="chile", options="[1]").json()["error"]


def test_the_language_is_read_as_the_cli_reads_it(client: TestClient) -> None:
    assert _rules(client, preset="chico", lang=" DE ").json()["lang"] == "de"


def test_a_language_the_words_are_not_written_in_falls_back_to_english(
        client: TestClient) -> None:
    body = _rules(client, preset="chico", lang="fr").json()
    assert body["lang"] == "en" and body["text"].startswith("# Carioca: chico")


def test_the_page_is_served(client: TestClient) -> None:
    answer = client.get("/rules")
    assert answer.status_code == 200 and "rules.js" in answer.text
