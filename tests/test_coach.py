"""The coach: a legal suggestion with a reason in words, and ``carioca play --hints``."""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from carioca import Action, Deal, Game, RuleSet
from carioca.bots import LookaheadBot
from carioca.cards import deck, parse_cards
from carioca.cli import app, play_game
from carioca.coach import _WORDS, LANGS, Hint, hint
from carioca.rules import PRESETS

NAMES = ("Ana", "Beto", "Caro")
ROUND2 = RuleSet.preset("chile", rounds=[2])  # 1T+1E


def crafted(rules: RuleSet, hands: Sequence[str], pozo: str, mazo_top: str = "") -> Game:
    left = Counter(deck(*rules.deck_for(len(hands))))
    dealt = [tuple(parse_cards(h)) for h in hands]
    pile = tuple(parse_cards(pozo))
    top = tuple(parse_cards(mazo_top))
    for card in [*(x for h in dealt for x in h), *pile, *top]:
        left[card] -= 1
        assert left[card] >= 0
    game = Game(rules, NAMES[:len(hands)])
    game.start_round(Deal(tuple(dealt), pile, top + tuple(sorted(left.elements()))))
    return game


def play(game: Game, *actions: str) -> None:
    for text in actions:
        seat = game.seat_to_act
        assert seat is not None
        game.apply(Action.parse(text, seat))


def tip(game: Game, lang: str, seat: int = 1) -> Hint:
    return hint(game.view(seat), game.rules, lang)


# --------------------------------------------------------------------------- reasons

def test_take_the_card_that_completes_the_escala() -> None:
    game = crafted(ROUND2, ["AS AH 3D 5C 6D 7C 8S 10D JH QS KS 2H",
                            "5H 6H 8H 9S 9D KC 2D 4S JC QD 3C 10S"], pozo="7H")
    assert tip(game, "es").reason == "toma el 7H del pozo: completa tu escala 5-6-_-8"
    assert tip(game, "en").reason == "take the 7H from the pozo: it completes your escala 5-6-_-8"
    # ... and once it is taken, the discard's reason says to keep it.
    play(game, "draw pozo")
    es = tip(game, "es")
    assert es.action.kind == "discard"
    assert es.reason.startswith(f"bota el {es.action.card}; guarda el 7H: "  # type: ignore[attr-defined]
                                "completa tu escala 5-6-_-8")
    en = tip(game, "en")
    assert en.reason.endswith("keep the 7H: it completes your escala 5-6-_-8")


def test_go_down_now_someone_is_down() -> None:
    game = crafted(RuleSet.preset("chile", rounds=[1]),
                   ["AS AH AD 5C 5D 5S 8S 10D JH 4S KS JK",
                    "7H 7S 7D QS QH 2C 5D 9C KD 3S 4H 6C"], pozo="9D", mazo_top="2S 3H QD")
    play(game, "draw mazo", "discard 2S", "draw mazo", "bajar AS AH AD / 5C 5D 5S",
         "discard 3H", "draw mazo")
    es, en = tip(game, "es"), tip(game, "en")
    assert es.action.kind == "bajar" and es.code == "bajar_other_down"
    assert es.reason == "bájate ahora: Ana ya se bajó"
    assert en.reason == "bajarse now: Ana is already down"


def test_draw_from_the_mazo_says_why() -> None:
    game = crafted(ROUND2, ["AS AH 3D 5C 6D 7C 8S 10D JH QS KS 2H",
                            "5H 6H 8H 9S 9D KC 2D 4S JC QD 3C 10S"], pozo="4D")
    assert tip(game, "es").reason == "roba del mazo: el 4D del pozo no te sirve"
    assert tip(game, "en").reason == "draw from the mazo: the 4D on the pozo does not help you"


def test_go_out_names_the_steps() -> None:
    game = crafted(RuleSet.preset("chile", rounds=[1]),
                   ["AS AH 3D 5C 6D 8C 8S 10D JH 4S KS 7C",
                    "7H 7S 7D 7C 7H 7S QS QH QD QC QS QH"], pozo="9D", mazo_top="2C")
    play(game, "draw mazo")
    t = tip(game, "en")
    assert t.code == "go_out" and t.reason.startswith("you can go out this turn: bajar ")
    assert t.reason.endswith("; discard 2C")


def test_buy_or_let_it_pass() -> None:
    rules = RuleSet.preset("chile", rounds=[2], buying="penalty_card")
    hands = ["5H 6H 8H 9S 9D KC 2D 4S JC QD 3C 10S", "AS AH 3D 5C 6D 7C 8S 10D JH QS KS 2H",
             "AD 3H 4H 7S 7D 9C 10C JD KH QC 2S 6S"]
    game = crafted(rules, hands, pozo="4D", mazo_top="7H")
    play(game, "draw mazo", "discard 7H")  # Beto throws the 7H: Ana (not next) may buy it
    yes = hint(game.view(0), rules, "es")
    assert yes.code == "buy_early" and yes.action.kind == "buy"
    assert yes.reason.startswith("cómpralo: el 7H te acerca al contrato")
    other = crafted(rules, hands, pozo="4D", mazo_top="2C")
    play(other, "draw mazo", "discard 2C")
    no = hint(other.view(0), rules, "en")
    assert no.code == "no_buy" and no.reason.startswith("let it pass: the 2C")


# --------------------------------------------------------------------------- any state

@pytest.mark.parametrize("preset", ["chile", "dos-libres", "online", "rumi"])
def test_every_hint_is_legal_and_in_words(preset: str) -> None:
    rules = PRESETS[preset]
    game = Game.new(rules, NAMES, seed=21)
    bots = [LookaheadBot(s, rules) for s in range(3)]
    codes = set()
    for _ in range(250):
        if game.is_over:
            break
        seat = game.seat_to_act
        assert seat is not None
        view = game.view(seat)
        legal = game.legal_actions(seat)
        for lang in LANGS:
            t = hint(view, rules, lang)
            assert t.action in legal
            assert t.reason and "{" not in t.reason and t.reason != str(t.action)
            assert str(t) == f"{t.action} — {t.reason}"
        # The coach says what the lookahead planner would do.
        assert t.action == bots[seat].choose(view, legal)
        codes.add(t.code)
        game.apply(t.action)
    assert {"draw_mazo", "discard_outs"} <= codes
    assert codes & {"bajar_now", "bajar_other_down", "go_out", "bajar_part"}


def test_every_language_has_every_sentence_with_the_same_blanks() -> None:
    import string

    def blanks(template: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(template) if f}

    assert set(_WORDS) == set(LANGS)
    for lang in LANGS:
        assert _WORDS[lang].keys() == _WORDS["es"].keys(), lang
        for key, template in _WORDS[lang].items():
            assert blanks(template) == blanks(_WORDS["es"][key]), (lang, key)


def test_the_coach_speaks_german_and_swedish() -> None:
    game = position_after_two_moves()
    seat = game.seat_to_act
    assert seat is not None
    said = {lang: hint(game.view(seat), game.rules, lang) for lang in LANGS}
    assert len({t.action for t in said.values()}) == 1  # one advice, four languages
    assert len({t.reason for t in said.values()}) == 4
    for lang in ("de", "sv"):  # the reason is one of that language's sentences
        starts = {t.split("{")[0] for t in _WORDS[lang].values() if not t.startswith("{")}
        assert any(said[lang].reason.startswith(start) for start in starts), said[lang]
    assert said["de"].reason != said["en"].reason


def position_after_two_moves() -> Game:
    game = Game.new(PRESETS["chile"], NAMES, seed=4)
    for _ in range(2):
        seat = game.seat_to_act
        assert seat is not None
        game.apply(LookaheadBot(0, game.rules).choose(game.view(seat),
                                                       game.legal_actions(seat)))
    return game


def test_hint_refuses_what_it_cannot_advise() -> None:
    game = Game.new(PRESETS["chile"], NAMES, seed=2)
    seat = game.seat_to_act
    assert seat is not None
    with pytest.raises(ValueError, match="es, en, de, sv"):
        hint(game.view(seat), game.rules, "fr")
    with pytest.raises(ValueError, match="own view"):
        hint(game.view(None), game.rules)
    with pytest.raises(ValueError, match="nothing to do"):
        hint(game.view((seat + 1) % 3), game.rules)


# --------------------------------------------------------------------------- the terminal

class Script:
    def __init__(self, answers: list[str], default: str = "1", limit: int = 400) -> None:
        self.answers = iter(answers)
        self.default = default
        self.limit = limit
        self.prompts = 0

    def __call__(self, prompt: str) -> str:
        self.prompts += 1
        if self.prompts > self.limit:
            raise EOFError
        return next(self.answers, self.default)


def test_play_with_hints_suggests_before_each_move(tmp_path: Path) -> None:
    out = io.StringIO()
    con = Console(file=out, width=200, color_system=None)
    play_game(con, Script(["1", "1", "quit"]), "chile", 2, seed=5, lang="en",
              save=tmp_path / "g.json", hints=True)
    text = out.getvalue()
    assert text.count("Hint: ") >= 2
    assert "Hint: draw " in text


def test_hint_command_at_the_prompt(tmp_path: Path) -> None:
    out = io.StringIO()
    con = Console(file=out, width=200, color_system=None)
    play_game(con, Script(["pista", "quit"]), "chile", 2, seed=5, save=tmp_path / "g.json")
    text = out.getvalue()
    assert text.count("Pista: ") == 1 and "Pista: draw " in text
    out2 = io.StringIO()
    play_game(Console(file=out2, width=200, color_system=None), Script(["quit"]), "chile", 2,
              seed=5, save=tmp_path / "h.json")
    assert "Pista" not in out2.getvalue()


def test_play_command_takes_hints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["play", "--players", "2", "--seed", "3", "--hints",
                                      "--lang", "en", "--save", str(tmp_path / "x.json")],
                                input="quit\n")
    assert result.exit_code == 0, result.output
    assert "Hint: " in result.output


def test_a_trio_is_shown_with_its_gap_last() -> None:
    """A trío has no order: "your trío 2-2-_", never "2-_-2" (an escala keeps its order)."""
    import re

    from carioca.bots import make_bot

    rules = RuleSet.preset("chile")
    game = Game.new(rules, ["Ana", "Beto", "Caro"], seed=7)
    bots = [make_bot("greedy", i, rules) for i in range(3)]
    shapes = []
    while not game.is_over and len(shapes) < 5 and len(game.log) < 6:
        seat = game.seat_to_act
        assert seat is not None
        view = game.view(seat)
        shapes += re.findall(r"trío ([^ ]+)", hint(view, rules, "en").reason)
        game.apply(bots[seat].choose(view, game.legal_actions(seat)))
    assert shapes
    for shape in shapes:
        parts = shape.split("-")
        assert parts[-1] == "_" and "_" not in parts[:-1], shape
