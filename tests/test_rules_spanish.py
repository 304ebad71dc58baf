"""Why rules cannot be played, in Spanish: every ``raise RulesError`` of carioca/rules.py is
triggered here, and its message comes out of :func:`carioca.spanish.rules_reason_es` in
Spanish, with no English word left and the numbers of the English kept. Then in Chromium (the
server and browser of tests/test_web_pages.py): the lobby and the rules page say why."""

from __future__ import annotations

import ast
import dataclasses
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from carioca import rules as rules_module
from carioca.rules import Contract, RulesError, RuleSet, parse_option_texts
from carioca.spanish import rules_reason_es

try:  # the browser and the server of the page tests, where Playwright is installed
    from test_web_pages import CHROMIUM, DESKTOP, _page, base_url, browser
except pytest.skip.Exception:
    CHROMIUM = ""

__all__ = ["base_url", "browser"]  # fixtures, shared with test_web_pages
needs_chromium = pytest.mark.skipif(not CHROMIUM or not Path(CHROMIUM).exists(),
                                    reason="needs Playwright and Debian's chromium")

CHILE = RuleSet.preset("chile")
RULES_PY = Path(rules_module.__file__)

# Words of the engine's English that a Spanish reason must not keep (outside the quoted input
# and option names, which are kept as written).
ENGLISH = {
    "add", "an", "and", "are", "at", "be", "but", "cannot", "card", "cards",
    "contract", "deals", "deck", "did", "discard", "empty", "for", "from", "gives", "hand",
    "has", "have", "hold", "holds", "is", "kept", "lacks", "least", "like", "long", "may",
    "mean", "meld", "melds", "most", "must", "need", "needs", "never", "not", "number",
    "numbers", "object", "of", "one", "only", "option", "or", "pack", "packs", "per",
    "played", "players", "points", "preset", "presets", "round", "rounds", "rules", "takes",
    "the", "there", "these", "to", "twice", "unknown", "up", "value", "values", "whole",
    "with", "worth",
}

# One way to reach each ``raise RulesError`` of rules.py, by what it is about.
TRIGGERS: dict[str, Callable[[], Any]] = {
    "contract with an empty part": lambda: Contract.parse("2T+"),
    "contract with too many melds": lambda: Contract.parse("21T"),
    "contract part that is no meld": lambda: Contract.parse("2X"),
    "contract asking for no meld": lambda: Contract.parse("0T"),
    "too many players": lambda: CHILE.check_players(9),
    "too few cards for the players": lambda: RuleSet.preset("chile", decks=1).check_players(8),
    "unknown preset": lambda: RuleSet.preset("chiel"),
    "option nested too deeply": lambda: parse_option_texts(["rounds=" + "[" * 3000]),
    "option set twice": lambda: parse_option_texts(["rounds=[1]", "rounds=[1, 2]"]),
    "rules not an object": lambda: RuleSet.from_dict([1]),
    "rules with an unknown field": lambda: RuleSet.from_dict({"preset": "chile", "colour": 1}),
    "rules without a preset": lambda: RuleSet.from_dict({"options": {}}),
    "preset not a name": lambda: RuleSet.from_dict({"preset": 3}),
    "options not an object": lambda: RuleSet.from_dict({"preset": "chile", "options": [1]}),
    "option names not strings": lambda: RuleSet.from_dict(
        {"preset": "chile", "options": {1: 2}}),
    "option given twice": lambda: RuleSet.from_dict(
        {"preset": "chile", "buying": "off", "options": {"buying": "off"}}),
    "unknown option": lambda: RuleSet.preset("chile", bying="off"),
    "no rounds": lambda: RuleSet(rounds=()),
    "fewest players above most": lambda: RuleSet.preset("chile", min_players=5, max_players=3),
    "a table of one": lambda: dataclasses.replace(CHILE, min_players=1),
    "decks out of range": lambda: dataclasses.replace(CHILE, decks=5),
    "jokers out of range": lambda: dataclasses.replace(CHILE, jokers=5),
    "unknown wild kind": lambda: dataclasses.replace(CHILE, wilds=frozenset({"threes"})),
    "negative wild limit": lambda: dataclasses.replace(CHILE, max_wilds_per_meld=-1),
    "value table lacking cards": lambda: dataclasses.replace(CHILE, values=(("A", 20),)),
    "hand too big": lambda: RuleSet.preset("chile", hand_size=14),
    "escala too short": lambda: RuleSet.preset("chile", contracts=["1E2"]),
    "contract bigger than a hand": lambda: RuleSet.preset("chile", contracts=["20T"]),
    "--set without =": lambda: parse_option_texts(["oops"]),
    "choice not offered": lambda: RuleSet.preset("chile", buying="sometimes"),
    "bool not true or false": lambda: RuleSet.preset("chile", wrap="yes"),
    "number out of range": lambda: RuleSet.preset("chile", jokers=9),
    "wild limit out of range": lambda: RuleSet.preset("chile", max_wilds_per_meld=21),
    "decks option out of range": lambda: RuleSet.preset("chile", decks=7),
    "wilds not a list": lambda: RuleSet.preset("chile", wilds=3),
    "wilds option with an unknown kind": lambda: RuleSet.preset("chile", wilds=["threes"]),
    "values not a mapping": lambda: RuleSet.preset("chile", values=[1]),
    "value of no card": lambda: RuleSet.preset("chile", values={"Z": 1}),
    "value out of range": lambda: RuleSet.preset("chile", values={"A": 5000}),
    "option unknown to the converter": lambda: rules_module._convert_option("nope", 1, CHILE),
    "rounds empty": lambda: RuleSet.preset("chile", rounds=[]),
    "no such round": lambda: RuleSet.preset("chile", rounds=[9]),
    "too many rounds": lambda: RuleSet.preset("chile", rounds=[1] * 101),
    "contracts not a list": lambda: RuleSet.preset("chile", contracts="2T"),
    "hand sizes of the wrong count": lambda: RuleSet.preset("chile", hand_size=[12, 12]),
}

# The same places again, with the other shapes of their messages.
VARIANTS: dict[str, Callable[[], Any]] = {
    "a single meld bigger than a hand": lambda: RuleSet.preset(
        "chile", contracts=["ES"], hand_size=11),
    "a card kept for the last discard": lambda: RuleSet.preset("online", contracts=["4T"]),
    "escalas of 3 and a trío": lambda: RuleSet.preset(
        "chile", contracts=["2T+3E3"], hand_size=8),
    "an unknown option with no close name": lambda: RuleSet.preset("chile", zzzz=1),
    "too many contracts": lambda: RuleSet.preset("chile", contracts=["2T"] * 1000),
    "an unknown preset with no close name": lambda: RuleSet.preset("zzzz"),
    "a bad value of a number": lambda: RuleSet.preset("chile", out_score="many"),
    "a value of null": lambda: RuleSet.preset("chile", buying=None),
    "too few players": lambda: RuleSet.preset("online").check_players(5),
    "a value table lacking one card": lambda: dataclasses.replace(
        CHILE, values=tuple(kv for kv in CHILE.values if kv[0] != "JK")),
    "a round of no cards": lambda: RuleSet.preset("chile", hand_size=0),
    "no round 0": lambda: RuleSet.preset("chile", rounds=[0]),
}


def _refusal(trigger: Callable[[], Any]) -> RulesError:
    with pytest.raises(RulesError) as caught:
        trigger()
    return caught.value


def _raised_at(exc: RulesError) -> int:
    """The line of rules.py whose ``raise`` made ``exc``."""
    tb = exc.__traceback__
    assert tb is not None
    while tb.tb_next is not None:
        tb = tb.tb_next
    assert Path(tb.tb_frame.f_code.co_filename) == RULES_PY
    return tb.tb_lineno


def _raise_lines() -> set[int]:
    tree = ast.parse(RULES_PY.read_text(encoding="utf-8"))
    return {
        node.lineno for node in ast.walk(tree)
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
        and isinstance(node.exc.func, ast.Name) and node.exc.func.id == "RulesError"
    }


def _unquoted(text: str) -> str:
    """The text without the input and names it quotes ('bying', "2T"), kept as written."""
    return re.sub(r"'[^']*'|\"[^\"]*\"", " ", text)


def test_every_raise_of_rules_py_is_triggered() -> None:
    lines = _raise_lines()
    assert len(lines) >= 40  # rules.py's refusals, read from its source
    hit = {_raised_at(_refusal(trigger)) for trigger in TRIGGERS.values()}
    assert hit == lines, f"not triggered: {sorted(lines - hit)}; twice: {len(TRIGGERS) - len(hit)}"


@pytest.mark.parametrize("trigger", [*TRIGGERS.values(), *VARIANTS.values()],
                         ids=[*TRIGGERS, *VARIANTS])
def test_every_refusal_reads_in_spanish(trigger: Callable[[], Any]) -> None:
    english = str(_refusal(trigger))
    spanish = rules_reason_es(english)
    assert spanish != english
    left = sorted(w for w in ENGLISH
                  if re.search(rf"(?<![\w'-]){re.escape(w)}(?![\w'-])", _unquoted(spanish)))
    assert not left, f"English words {left} in {spanish!r}"
    numbers = Counter(re.findall(r"\d+", english))
    assert not numbers - Counter(re.findall(r"\d+", spanish)), (english, spanish)
    for quoted in re.findall(r"'[^']*'", english):  # the input and names, as written
        assert quoted in spanish, (quoted, spanish)


@pytest.mark.parametrize(("english", "spanish"), [
    ("round 1 (20T) can never be played: 20 tríos need at least 60 cards, but a hand never "
     "holds more than 13",
     "la ronda 1 (20T) no se puede jugar nunca: 20 tríos necesitan al menos 60 cartas, pero "
     "una mano nunca tiene más de 13"),
    ("round 2 (1T+1E) can never be played: one trío and one escala of 4 need at least 7 "
     "cards, but a hand never holds more than 4",
     "la ronda 2 (1T+1E) no se puede jugar nunca: un trío y una escala de 4 necesitan al "
     "menos 7 cartas, pero una mano nunca tiene más de 4"),
    ("round 9 (ER) can never be played: one escala real needs at least 13 cards, but a "
     "hand never holds more than 12",
     "la ronda 9 (ER) no se puede jugar nunca: una escala real necesita al menos 13 cartas, "
     "pero una mano nunca tiene más de 12"),
    ("round 1 deals 12 cards to 8 players and turns one up: 97 cards, but the deck has only "
     "54; add a deck",
     "la ronda 1 reparte 12 cartas a 8 jugadores y da vuelta una: hacen falta 97 cartas, "
     "pero solo hay 54; agrega un naipe"),
    ("unknown option 'bying' (did you mean 'buying'?)",
     "no existe la opción 'bying' (¿quisiste decir 'buying'?)"),
    ("option 'jokers' must be a whole number from 0 to 4, not 9",
     "la opción 'jokers' tiene que ser un número entero de 0 a 4, no 9"),
])
def test_the_words_of_some_refusals(english: str, spanish: str) -> None:
    assert rules_reason_es(english) == spanish


def test_the_card_kept_for_the_last_discard_is_said() -> None:
    english = str(_refusal(VARIANTS["a card kept for the last discard"]))
    assert english.endswith("kept for the last discard")
    assert rules_reason_es(english).endswith("hay que guardar una carta para botarla al final")


def test_a_message_of_another_shape_comes_back_as_it_is() -> None:
    for text in ("", "something else went wrong", "round one is odd"):
        assert rules_reason_es(text) == text


# --------------------------------------------------------------------------- in the browser

@needs_chromium
def test_the_spanish_lobby_says_why_the_rules_cannot_be_played(base_url: str,
                                                                browser: Any) -> None:
    """A host picks 8 players and one pack ("Naipes": automático unticked, 1), which cannot
    deal round 1; the lobby says so, and why, in Spanish. In German, its own sentence with the
    engine's English reason in parentheses."""
    page = _page(browser, DESKTOP, "es-CL")
    page.goto(base_url + "/")
    page.wait_for_selector("#preset option", state="attached")
    page.fill("#name", "Ana")
    page.select_option("#seats", "8")
    page.click('details[data-group="jokers"] summary')
    page.uncheck('input[name="decks-null"]')
    assert page.locator('input[name="decks"]').input_value() == "1"
    page.click("#create-form button[type=submit]")
    page.wait_for_selector(".toast")
    assert page.inner_text(".toast") == (
        "Esas reglas no se pueden jugar: la ronda 1 reparte 12 cartas a 8 jugadores y da "
        "vuelta una: hacen falta 97 cartas, pero solo hay 54; agrega un naipe")
    assert page.is_hidden("#created")
    page.evaluate("() => document.querySelectorAll('.toast').forEach((el) => el.remove())")
    page.select_option("c-settings select.lang", "de")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector(".toast")
    assert page.inner_text(".toast") == (
        "Diese Regeln sind nicht spielbar (round 1 deals 12 cards to 8 players and turns one "
        "up: 97 cards, but the deck has only 54; add a deck)")
    assert not page.js_errors, page.js_errors
    page.context.close()


@needs_chromium
def test_the_rules_page_says_why_in_the_pages_language(base_url: str, browser: Any) -> None:
    page = _page(browser, DESKTOP, "es-CL")
    page.goto(base_url + '/rules?preset=chile&options={"contracts":["20T"]}')
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == (
        "Esas reglas no se pueden jugar: la ronda 1 (20T) no se puede jugar nunca: 20 tríos "
        "necesitan al menos 60 cartas, pero una mano nunca tiene más de 13")
    page.select_option("c-settings select.lang", "sv")
    page.wait_for_function("() => document.querySelector('#error').innerText.startsWith('De')")
    assert page.inner_text("#error") == (
        "De reglerna går inte att spela (round 1 (20T) can never be played: 20 tríos need at "
        "least 60 cards, but a hand never holds more than 13)")
    page.select_option("c-settings select.lang", "en")
    page.wait_for_function("() => document.querySelector('#error').innerText.startsWith('R')")
    assert page.inner_text("#error").startswith("Round 1 (20T) can never be played")
    # An option is named by the label the host chose it by, not by its code ('decks').
    page.goto(base_url + '/rules?preset=chile&options={"decks":7}')
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == "Option “Packs” must be 1 to 4 packs, not 7"
    page.select_option("c-settings select.lang", "es")
    page.wait_for_function("() => document.querySelector('#error').innerText.startsWith('E')")
    assert page.inner_text("#error") == (
        "Esas reglas no se pueden jugar: la opción «Naipes» tiene que ser de 1 a 4 naipes, no 7")
    # A value that spells an option's code is a value, and stays as it was given.
    page.goto(base_url + '/rules?preset=chile&options={"buying":"undo"}')
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error").startswith(
        "Esas reglas no se pueden jugar: la opción «Comprar la carta del pozo fuera de turno» ")
    assert page.inner_text("#error").endswith("; no 'undo'")
    assert not page.js_errors, page.js_errors
    page.context.close()
