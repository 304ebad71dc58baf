"""Tests for carioca.describe: the rules in plain words, in Spanish, English, German and Swedish."""

from __future__ import annotations

import doctest
import re
from typing import Any

import pytest
from typer.testing import CliRunner

import carioca.describe as describe_module
from carioca.cli import app
from carioca.describe import (
    LANGS,
    describe_preset_list,
    describe_rounds,
    describe_rules,
    preset_notes,
)
from carioca.rules import PRESETS, Contract, RoundDef, RulesError, RuleSet

CHILE_ES = [
    "dos tríos",
    "un trío y una escala de 4",
    "dos escalas de 4",
    "tres tríos",
    "dos tríos y una escala de 4",
    "un trío y dos escalas de 4",
    "tres escalas de 4",
    "cuatro tríos",
]
CHILE_EN = [
    "two tríos",
    "one trío and one escala of 4",
    "two escalas of 4",
    "three tríos",
    "two tríos and one escala of 4",
    "one trío and two escalas of 4",
    "three escalas of 4",
    "four tríos",
]
CHILE_DE = [
    "zwei Tríos",
    "ein Trío und eine 4er-Escala",
    "zwei 4er-Escalas",
    "drei Tríos",
    "zwei Tríos und eine 4er-Escala",
    "ein Trío und zwei 4er-Escalas",
    "drei 4er-Escalas",
    "vier Tríos",
]
CHILE_SV = [
    "två tríos",
    "en trío och en escala på 4",
    "två escalas på 4",
    "tre tríos",
    "två tríos och en escala på 4",
    "en trío och två escalas på 4",
    "tre escalas på 4",
    "fyra tríos",
]
# The game's own words, as each language writes them.
GAME_WORDS = {
    "es": ("trío", "escala", "pozo", "mazo", "comodín", "agregar"),
    "en": ("trío", "escala", "pozo", "mazo", "comodín", "agregar", "bajarse"),
    "de": ("Trío", "Escala", "Pozo", "Mazo", "Comodines", "agregar", "bajarse", "Kontrakt"),
    "sv": ("trío", "escala", "pozon", "mazon", "comodines", "agregar", "bajarse", "kontrakt"),
}
OR = {"es": " o ", "en": " or ", "de": " oder ", "sv": " eller "}


def table_rows(text: str) -> list[list[str]]:
    """The body rows of the round table, as stripped cells."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    assert lines, "no round table"
    assert set(lines[1]) <= {"|", "-"}, "second table line is not the separator"
    return [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:]]


def section(text: str, heading: str) -> str:
    """The body of one ``## heading`` section."""
    marker = f"## {heading}\n"
    assert marker in text, f"no section {heading!r}"
    body = text.split(marker, 1)[1]
    return body.split("\n## ", 1)[0]


def en(name: str, **options: object) -> str:
    return describe_rules(RuleSet.preset(name, **options), lang="en")


def es(name: str, **options: object) -> str:
    return describe_rules(RuleSet.preset(name, **options), lang="es")


# --------------------------------------------------------------------------- every preset

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_describes(name: str, lang: str) -> None:
    rules = PRESETS[name]
    text = describe_rules(rules, lang=lang)
    assert text.startswith(f"# Carioca: {name}\n")
    rows = table_rows(text)
    assert [r[0] for r in rows] == [str(i) for i in range(1, len(rules.rounds) + 1)]
    for row, rnd in zip(rows, rules.rounds, strict=True):
        if lang in ("es", "en"):
            assert row[1] == OR[lang].join(c.words(lang) for c in rnd.contracts)
        assert row[1].count(OR[lang]) == len(rnd.contracts) - 1
        assert row[2] == str(rnd.hand_size)
        assert bool(row[3]) == rnd.go_out_at_once
    # the game's own words appear in every language
    for word in GAME_WORDS[lang]:
        assert word in text, word


def test_default_language_is_spanish() -> None:
    rules = RuleSet.preset("chile")
    assert describe_rules(rules) == describe_rules(rules, lang="es")
    assert "## Rondas" in describe_rules(rules)
    assert "## Rounds" in describe_rules(rules, "en")
    assert describe_rules(rules, "es") != describe_rules(rules, "en")


def test_language_code_is_forgiving_about_case() -> None:
    rules = RuleSet.preset("chile")
    assert describe_rules(rules, " EN ") == describe_rules(rules, "en")


@pytest.mark.parametrize("bad", ["fr", "", "english", None, 3, "deutsch", "se"])
def test_unknown_language_raises(bad: object) -> None:
    rules = RuleSet.preset("chile")
    with pytest.raises(ValueError, match="unknown language") as raised:
        describe_rules(rules, lang=bad)  # type: ignore[arg-type]
    for code in LANGS:  # the message names every language the rules are written in
        assert f"'{code}'" in str(raised.value)
    with pytest.raises(ValueError, match="use 'es'"):
        describe_preset_list(lang=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown language"):
        describe_rounds(rules, lang=bad)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- presets

def test_chile_contracts_in_order() -> None:
    assert [r[1] for r in table_rows(es("chile"))] == CHILE_ES
    assert [r[1] for r in table_rows(en("chile"))] == CHILE_EN
    rows = table_rows(en("chile"))
    assert [r[2] for r in rows] == ["12"] * 8
    assert [r[3] for r in rows] == [""] * 6 + ["must go out in one turn"] * 2


def test_chile_deck_by_player_count() -> None:
    deck = section(en("chile"), "Players and deck")
    assert "Players: 2 to 8." in deck
    assert "2 packs of 52 + 4 jokers (108 cards) up to 5 players" in deck
    assert "3 packs of 52 + 6 jokers (162 cards) from 6 players" in deck
    deck_es = section(es("chile"), "Jugadores y naipes")
    assert "2 naipes de 52 + 4 jokers (108 cartas) hasta 5 jugadores" in deck_es
    assert "3 naipes de 52 + 6 jokers (162 cartas) desde 6 jugadores" in deck_es


def test_chile_wilds_and_scoring() -> None:
    text = en("chile")
    wilds = section(text, "Wild cards (comodines)")
    assert "the jokers" in wilds
    assert "twos" not in wilds
    assert "At most one comodín per meld" in wilds
    assert "at least one natural card" in wilds
    assert "K-A-2 is not allowed" in text
    scoring = section(text, "Scoring and winning")
    assert "lowest total wins" in scoring
    assert "A: 20 · 2 to 10: face value · J, Q, K: 10 · joker (JK): 50" in scoring
    assert "No buying" in section(text, "Buying (comprar)")


def test_dos_libres() -> None:
    text = en("dos-libres")
    wilds = section(text, "Wild cards (comodines)")
    assert "the jokers and the twos (dos libres)" in wilds
    assert "counts as a natural card" in wilds
    rows = table_rows(text)
    assert rows[7] == ["8", "four tríos", "13", "must go out in one turn"]
    assert all(r[2] == "11" and r[3] == "" for r in rows[:7])
    assert "2 packs of 52 + 2 jokers (106 cards) up to 4 players" in text
    assert "buried in the mazo" in text
    assert "A: 15 · 2: 25 · 3 to 10: face value" in text
    text_es = es("dos-libres")
    assert "los doses (dos libres)" in section(text_es, "Comodines")
    assert table_rows(text_es)[7] == ["8", "cuatro tríos", "13", "hay que irse de una"]
    assert describe_rounds(RuleSet.preset("dos-libres"), "en")[7] == (8, "four tríos", 13, True)


def test_online() -> None:
    text = en("online")
    assert "K-A-2 is allowed" in text
    assert "not allowed" not in section(text, "Tríos and escalas")
    assert "scores -10 points instead of 0" in text
    assert "exactly 3 cards" in text and "exactly 4 cards" in text
    assert "moves to the end of the escala you choose" in text
    assert "only by discarding their last card" in text
    assert "Undo: you may undo" in text
    assert "Players: 2 to 4." in text
    assert "Deck: 2 packs of 52 + 4 jokers (108 cards)." in text
    text_es = es("online")
    assert "K-A-2 vale" in text_es
    assert "anota -10 puntos en vez de 0" in text_es


def test_familia_scores_by_rounds() -> None:
    text = en("familia")
    scoring = section(text, "Scoring and winning")
    assert "Scoring by rounds won" in scoring
    assert "whoever won most rounds wins" in scoring
    assert "Card values" not in scoring
    assert "no limit of comodines per meld" in text
    assert "Escala: 3 or more cards" in text
    assert "Se juega por rondas ganadas" in es("familia")
    assert "Card values" in en("familia", scoring="points")


def test_chile_10_special_escalas_and_tie() -> None:
    text = en("chile-10")
    assert [r[1] for r in table_rows(text)][8:] == ["one escala sucia", "one escala real"]
    assert "Escala sucia: ace to king (13 cards) in a row, any suits" in text
    assert "Escala real: ace to king (13 cards) of one suit, with no comodín" in text
    assert "went out in most rounds wins" in text
    assert "joker (JK): 30" in text
    assert "Escala real: del as al rey" in es("chile-10")


def test_rumi_partial_contracts() -> None:
    assert "in parts" in en("rumi")
    assert "in parts" not in en("chile")
    assert "por partes" in es("rumi")


def test_chico_rounds() -> None:
    rows = table_rows(en("chico"))
    assert [r[1] for r in rows] == [CHILE_EN[i] for i in (0, 2, 4, 6)]


# --------------------------------------------------------------- options change the text

def test_buying_option_changes_the_text() -> None:
    off = en("chile")
    card = en("chile", buying="penalty_card")
    points = en("chile", buying="penalty_points", steal_points=5, max_buys_per_round=4)
    assert len({off, card, points}) == 3
    assert "No buying" in off
    buying = section(card, "Buying (comprar)")
    assert "penalty card from the mazo" in buying
    assert "The discarder may not buy it" in buying
    assert "At most 3 buys per player" in buying
    assert "buying = penalty_card" in card  # the changed option is named
    buying = section(points, "Buying (comprar)")
    assert "Each buy costs 5 points" in buying
    assert "At most 4 buys per player" in buying
    assert "Se puede comprar" in es("chile", buying="penalty_card")


def test_layoff_and_replacement_options() -> None:
    assert "from your next turn on" in en("chile")
    assert "already in the turn you go down" in en("chile", layoff_same_turn=True)
    texts = {
        mode: section(en("chile", joker_replacement=mode), "The turn")
        for mode in ("off", "take", "anyone", "relocate")
    }
    assert len(set(texts.values())) == 4
    assert "never swapped out" in texts["off"]
    assert "take the comodín into your hand" in texts["take"]
    assert "even before going down" in texts["anyone"]
    assert "moves to the end of the escala" in texts["relocate"]


def test_wild_options() -> None:
    text = en("chile", wilds=["jokers", "red_aces"], max_wilds_per_meld=2,
              wild_limit_on_layoff=False)
    wilds = section(text, "Wild cards (comodines)")
    assert "the red aces (A♥ and A♦)" in wilds
    assert "At most 2 comodines per meld" in wilds
    assert "When you agregar (lay off) there is no limit" in wilds
    assert "a red ace" in wilds
    no_wilds = section(en("chile", wilds=[]), "Wild cards (comodines)")
    assert "No card is wild" in no_wilds
    assert "jokers in the deck are not wild" in no_wilds
    assert "ases rojos" in section(es("chile", wilds=["red_aces"]), "Comodines")


def test_scoring_options() -> None:
    text = en("chile", out_score=-5, instant_out_score=-20, values={"JK": 40, "A": 15},
              tie_break="extra_round")
    scoring = section(text, "Scoring and winning")
    assert "Going out scores -5 points." in scoring
    assert "scores -20 points instead of -5" in scoring
    assert "A: 15" in scoring and "joker (JK): 40" in scoring
    assert "one more round with the last contract (up to 3 extra rounds" in scoring
    assert "A tie is shared" in en("chile")


def test_stock_and_going_out_options() -> None:
    stock = section(en("chile"), "When the mazo runs out")
    assert "as often as needed" in stock
    assert "up to 3 times a round" in section(en("chile", max_reshuffles=3),
                                              "When the mazo runs out")
    assert "at most 600 turns" in stock
    assert "everyone scores the cards in their hand" in stock
    stock = section(en("chile", max_reshuffles=0, max_turns_per_round=100),
                    "When the mazo runs out")
    assert "the pozo is not reshuffled" in stock
    assert "at most 100 turns" in stock
    assert "by laying it down or adding it to a meld" in en("chile")
    assert "only by discarding their last card" in en("chile", go_out_by_layoff=False)


def test_open_hands_and_undo() -> None:
    plain = section(en("chile"), "Other rules")
    assert "cannot be undone" in plain and "sees only their own hand" in plain
    changed = section(en("chile", open_hands=True, undo=True), "Other rules")
    assert "Open hands" in changed and "undo your moves" in changed
    assert "Mano abierta" in es("chile", open_hands=True)


def test_fixed_deck_and_short_deck() -> None:
    text = en("chile", decks=1, jokers=0, rounds=[1], hand_size=12)
    assert "Deck: 1 pack of 52 without jokers (52 cards)." in text
    assert "not enough cards to deal" in text
    assert "two identical cards" not in text
    assert "two identical cards" in en("chile")


def test_rounds_option_and_alternatives() -> None:
    rows = table_rows(en("chile", rounds=[2, 8]))
    assert [r[1] for r in rows] == [CHILE_EN[1], CHILE_EN[7]]
    assert [r[0] for r in rows] == ["1", "2"]
    text = en("chile", contracts=["2T|2E", "3T"])
    assert table_rows(text)[0][1] == "two tríos or two escalas of 4"
    assert "each player chooses" in text
    assert "must go out in one turn" not in text


def test_custom_rules() -> None:
    rules = RuleSet(rounds=(RoundDef((Contract.parse("2T"),), 10),))
    text = describe_rules(rules, "en")
    assert text.startswith("# Carioca: house rules (custom)")
    assert table_rows(text) == [["1", "two tríos", "10", ""]]
    assert describe_rules(rules, "es").startswith("# Carioca: reglas propias (custom)")


# --------------------------------------------------------------------------- preset list

@pytest.mark.parametrize("lang", LANGS)
def test_preset_list(lang: str) -> None:
    listing = describe_preset_list(lang)
    assert [name for name, _ in listing] == list(PRESETS)
    for _, line in listing:
        assert line and "\n" not in line


def test_preset_list_languages_differ() -> None:
    spanish = dict(describe_preset_list("es"))
    english = dict(describe_preset_list("en"))
    assert spanish == dict(describe_preset_list())
    for name in PRESETS:
        assert spanish[name] != english[name]
    assert "dos" in spanish["dos-libres"] and "Twos are wild" in english["dos-libres"]


def test_preset_list_covers_a_preset_without_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    extra = RuleSet(preset_name="extra", rounds=(RoundDef((Contract.parse("2T"),), 9),) * 3)
    monkeypatch.setitem(PRESETS, "extra", extra)
    assert dict(describe_preset_list("en"))["extra"] == "3 rounds, 9 cards, wild: the jokers."
    assert dict(describe_preset_list("es"))["extra"] == "3 rondas, 9 cartas, comodines: los jokers."


def test_module_doctests_pass() -> None:
    result = doctest.testmod(describe_module)
    assert result.attempted > 0
    assert result.failed == 0


# --------------------------------------------------------------------------- German and Swedish

# Option sets that, over every preset, reach every sentence describe.py can write.
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"buying": "penalty_card", "max_buys_per_round": 1, "layoff_same_turn": True},
    {"buying": "penalty_points", "steal_points": 5, "max_buys_per_round": 0},
    {"joker_replacement": "off", "max_reshuffles": 0, "open_hands": True, "undo": True},
    {"joker_replacement": "anyone", "max_reshuffles": 1, "tie_break": "extra_round"},
    {"joker_replacement": "relocate", "max_reshuffles": 3, "tie_break": "most_outs"},
    {"wilds": ["jokers", "twos", "red_aces"], "max_wilds_per_meld": 2,
     "wild_limit_on_layoff": False, "go_out_by_layoff": False},
    {"wilds": [], "scoring": "rounds", "bury_wild_first_discard": True},
    {"max_wilds_per_meld": 0, "contracts": ["2T|2E", "ES", "ER|EC"], "exact_melds": True},
    {"max_wilds_per_meld": None, "partial_contracts": True, "wrap": True, "scoring": "points"},
    {"out_score": -5, "instant_out_score": -20, "values": {"JK": 40, "A": 15}},
    {"decks": 1, "jokers": 0, "rounds": [1], "hand_size": 12},
    {"contracts": ["1T+1E3", "2E|2E3"], "exact_melds": True, "rounds": [1, 2]},
    {"contracts": ["1T+1E3", "2E"]},
]


def rules_for(name: str, i: int) -> RuleSet:
    return RuleSet.preset(name, **OPTION_SETS[i])


def _playable(name: str, i: int) -> bool:
    try:
        rules_for(name, i)
    except RulesError:  # e.g. chile-10's 13-card escala sucia when the last card must be thrown
        return False
    return True


CASES = [(name, i) for name in PRESETS for i in range(len(OPTION_SETS)) if _playable(name, i)]


def has_words(line: str) -> bool:
    """Whether a line says something in a language: not only numbers, card names, table
    rules, option values or the game's and the presets' names."""
    rest = re.sub(r"\b[a-z_]+ = [^;.]*", "", line)  # "buying = penalty_card": option names
    rest = re.sub("|".join(["Carioca", "JK", *map(re.escape, PRESETS)]), "", rest)
    return re.search(r"[^\W\d_]{2,}", rest) is not None


@pytest.mark.parametrize("lang", ["de", "sv"])
@pytest.mark.parametrize(("name", "i"), CASES)
def test_every_line_is_translated(name: str, i: int, lang: str) -> None:
    rules = rules_for(name, i)
    text = describe_rules(rules, lang)
    assert text.startswith(f"# Carioca: {name}\n")
    lines = text.splitlines()
    for other in ("en", "es"):
        other_lines = describe_rules(rules, other).splitlines()
        assert len(lines) == len(other_lines)  # the same sections, items and rows
        for line, theirs in zip(lines, other_lines, strict=True):
            if has_words(line):
                assert line != theirs, f"{lang} line left in {other}: {line!r}"


def test_no_text_falls_back_to_english_or_spanish(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``w(es, en, de, sv)`` reached gives German and Swedish of their own."""
    seen: set[tuple[str, str, str, str]] = set()
    pick = describe_module._Words.__call__

    def record(self: Any, es: str, en: str, de: str, sv: str) -> str:
        seen.add((es, en, de, sv))
        return pick(self, es, en, de, sv)

    monkeypatch.setattr(describe_module._Words, "__call__", record)
    for lang in LANGS:
        for name, i in CASES:
            describe_rules(rules_for(name, i), lang)
        for wilds in ({"jokers"}, set()):  # rules of one's own: a summary, not a note
            custom = RuleSet(rounds=(RoundDef((Contract.parse("2T"),), 10),),
                             wilds=frozenset(wilds))
            describe_rules(custom, lang)
        describe_module._player_range(3, 4, 2, 8, describe_module._Words(lang))
    assert len(seen) > 150
    same_word = {"joker (JK)"}  # the Swedish word for the card is the English one
    for es, en, de, sv in seen:
        if not has_words(en):
            continue
        assert de not in (en, es), (de, en)
        assert sv not in (en, es) or sv in same_word, (sv, en)
        assert de != sv, de


def test_chile_in_german_and_swedish() -> None:
    rules = RuleSet.preset("chile")
    de, sv = describe_rules(rules, "de"), describe_rules(rules, "sv")
    assert [r[1] for r in table_rows(de)] == CHILE_DE
    assert [r[1] for r in table_rows(sv)] == CHILE_SV
    assert [r[3] for r in table_rows(de)][6:] == ["Ausgehen in einem Zug"] * 2
    assert [r[1] for r in describe_rounds(rules, "de")] == CHILE_DE
    deck = section(de, "Spieler und Karten")
    assert "2 Decks zu 52 Karten + 4 Joker (108 Karten) bis 5 Spieler" in deck
    assert "3 Decks zu 52 Karten + 6 Joker (162 Karten) ab 6 Spielern" in deck
    assert "Pozo (Ablagestapel)" in deck and "Mazo (Nachziehstapel)" in deck
    assert "Höchstens eine wilde Karte pro Kombination" in section(de, "Wilde Karten (Comodines)")
    assert "K-A-2 ist nicht erlaubt" in section(de, "Tríos und Escalas")
    assert "A: 20 · 2 bis 10: Nennwert · J, Q, K: 10 · Joker (JK): 50" in de
    deck = section(sv, "Spelare och kortlekar")
    assert "2 kortlekar à 52 kort + 4 jokrar (108 kort) upp till 5 spelare" in deck
    assert "pozon (slänghögen)" in deck and "mazon (talongen)" in deck
    assert "Högst en joker per kombination" in section(sv, "Jokrar (comodines)")
    assert "K-A-2 är inte tillåtet" in section(sv, "Tríos och escalas")
    assert "A: 20 · 2 till 10: kortets valör · J, Q, K: 10 · joker (JK): 50" in sv


def test_german_and_swedish_follow_the_options() -> None:
    de = describe_rules(RuleSet.preset("dos-libres", buying="penalty_points"), "de")
    assert "die Joker und die Zweien (dos libres)" in de
    assert "Jeder Kauf kostet 2 Punkte" in section(de, "Kaufen (comprar)")
    assert table_rows(de)[7] == ["8", "vier Tríos", "13", "Ausgehen in einem Zug"]
    sv = describe_rules(RuleSet.preset("familia"), "sv")
    assert "Man räknar vunna rundor" in section(sv, "Poäng och vinnare")
    assert "Escala: 3 eller fler kort" in sv
    two = RuleSet.preset("chile", contracts=["2T|2E", "ES|ER", "1E3+2T"])
    assert describe_rounds(two, "de")[0][1] == "zwei Tríos oder zwei 4er-Escalas"
    assert describe_rounds(two, "sv")[1][1] == "en escala sucia eller en escala real"
    assert describe_rounds(two, "de")[2][1] == "eine 3er-Escala und zwei Tríos"
    custom = RuleSet(rounds=(RoundDef((Contract.parse("2T"),), 10),))
    assert describe_rules(custom, "de").startswith("# Carioca: eigene Regeln (custom)")
    assert describe_rules(custom, "sv").startswith("# Carioca: egna regler (custom)")


@pytest.mark.parametrize("lang", ["de", "sv"])
def test_preset_list_in_german_and_swedish(lang: str) -> None:
    listing = dict(describe_preset_list(lang))
    english = dict(describe_preset_list("en"))
    spanish = dict(describe_preset_list("es"))
    for name in PRESETS:
        assert listing[name] not in (english[name], spanish[name])
        assert preset_notes(name)[lang] == listing[name]
    assert describe_preset_list(lang.upper()) == describe_preset_list(lang)


def test_cli_prints_the_rules_in_german_and_swedish() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["rules", "chile", "--lang", "de"])
    assert result.exit_code == 0, result.output
    assert result.stdout == describe_rules(RuleSet.preset("chile"), "de")
    assert "## Runden" in result.stdout and "ein Trío und eine 4er-Escala" in result.stdout
    result = runner.invoke(app, ["rules", "online", "--lang", "sv", "--set", "undo=false"])
    assert result.exit_code == 0, result.output
    assert "Ett drag som är gjort kan inte ångras." in result.stdout
    result = runner.invoke(app, ["rules", "--lang", "de"])
    assert result.exit_code == 0, result.output
    assert "Für Familien mit Kindern" in result.stdout and "Vorgabe" in result.stdout
