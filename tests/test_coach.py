"""The coach: a legal suggestion with a reason in words, and ``carioca play --hints``."""

from __future__ import annotations

import io
import json
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
from carioca.coach import _WORDS, LANGS, Hint, _step_words, hint
from carioca.rules import PRESETS
from carioca.solver import Step

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
    assert tip(game, "es").reason == "saca el 7H del pozo: completa tu escala 5-6-_-8"
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
    assert tip(game, "es").reason == "saca del mazo: el 4D del pozo no te sirve"
    assert tip(game, "en").reason == "draw from the mazo: the 4D on the pozo does not help you"


def test_go_out_names_the_steps() -> None:
    game = crafted(RuleSet.preset("chile", rounds=[1]),
                   ["AS AH 3D 5C 6D 8C 8S 10D JH 4S KS 7C",
                    "7H 7S 7D 7C 7H 7S QS QH QD QC QS QH"], pozo="9D", mazo_top="2C")
    play(game, "draw mazo")
    t = tip(game, "en")
    assert t.code == "go_out" and t.reason.startswith("you can go out this turn: lay down ")
    assert t.reason.endswith("; discard the 2C")
    # In the player's words, not the record's notation ("bajar ...; discard 2C").
    es = tip(game, "es").reason
    assert es.startswith("te puedes ir en este turno: bájate con ") and " / " in es
    assert es.endswith("; bota el 2C") and "discard" not in es


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
    assert text.count("Pista: ") == 1 and "Pista: saca " in text
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
    shapes: list[str] = []
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


# --------------------------------------------------------------------------- true reasons

def test_the_meld_to_keep_never_counts_the_card_thrown() -> None:
    """"bota el 8D; guarda el JD: va en tu escala 8-?-10-_" was false: the 8 is the 8D."""
    game = crafted(RuleSet.preset("chile", rounds=[3]),  # two escalas
                   ["AS 3C 5C 7S 9S JC KS 2H 4C 6H 8C 10C",
                    "JH AH 4D 10D 4D 4H JD 9H QD JK 2S 6D"], pozo="KH", mazo_top="8D")
    play(game, "draw mazo")
    es, en = tip(game, "es"), tip(game, "en")
    assert str(es.action) == "discard 8D"
    assert es.reason == "bota el 8D; guarda el JD: va en tu escala ?-10-_-Q (te falta 1)"
    assert en.reason == "discard the 8D; keep the JD: it goes in your escala ?-10-_-Q (1 to go)"


@pytest.mark.parametrize("preset, hands, wild", [
    # Twos are wild in dos-libres (11 cards): "tu trío 6-2-_" would read as sixes and a two.
    ("dos-libres", ["AS 3C 5C 7S 9S JC KS 4C 6H 8C 10C", "6C 2S 9H 9D 9S KC 4D 7H JC QD 3S"],
     "2"),
    # A joker reads as the table shows it, like any other wild card.
    ("chile", ["AS 3C 5C 7S 9S JC KS 4C 6H 8C 10C QH", "6C JK 9H 9D 9S KC 4D 7H JC QD 3S 5H"],
     "JK"),
])
def test_a_wild_card_shows_what_it_stands_for(preset: str, hands: list[str], wild: str) -> None:
    game = crafted(RuleSet.preset(preset, rounds=[1]), hands, pozo="6D")  # two tríos
    es, en = tip(game, "es"), tip(game, "en")
    assert es.reason == f"saca el 6D del pozo: completa tu trío 6-6({wild})-_"
    assert en.reason == f"take the 6D from the pozo: it completes your trío 6-6({wild})-_"


def test_a_wild_laid_off_is_told_its_end() -> None:
    """A natural card has one place in an escala; a joker may go at either end, and where it
    goes decides what fits next, so the coach names the end it chose."""
    rules = RuleSet.preset("chile", rounds=[3])  # two escalas
    game = crafted(rules, ["AS AH 3D 5C 6D 7C 8S 10D JH QS KS 2D",
                           "5H 6H 7H 8H 9C 10C JC QC 3S KD 4S 2C"], pozo="3C",
                   mazo_top="9D 2H JK")
    play(game, "draw mazo", "bajar 5H 6H 7H 8H / 9C 10C JC QC", "discard KD",
         "draw mazo", "discard AH", "draw mazo")
    es, en = tip(game, "es"), tip(game, "en")
    assert str(es.action) == "agregar JK 0 high"
    assert es.reason == ("agrega el JK al juego 0 en la punta de arriba: una carta menos en la "
                         "mano")
    assert en.reason == "lay the JK off on meld 0 at the high end: one card fewer in your hand"
    # A plan to go out names it too; a natural card's end goes without saying.
    steps = [Step("agregar", parse_cards("JK")[0], 1, "low"),
             Step("agregar", parse_cards("KC")[0], 1, "high")]
    assert [_step_words(s, "de", rules) for s in steps] == [
        "leg die JK an Kombination 1 am unteren Ende an", "leg die KC an Kombination 1 an"]


def test_under_open_hands_the_cards_in_sight_are_not_unseen() -> None:
    """The teaching variant shows the others' hands: "N unseen cards that would help you"
    must not count the ones the player can see in them."""
    import re

    from carioca.bots.reading import unseen_counts
    from carioca.solver import distance

    rules = RuleSet.preset("chile", rounds=[1], open_hands=True)  # two tríos
    game = crafted(rules, ["9H 9S 5H 5S QH QS KH 3D 4D 8C 10C JC",
                           "9C 9D 3C 5D 7H JS KD QD 4S 6D 8H 10S"], pozo="2C",
                   mazo_top="AH")
    play(game, "draw mazo")
    t = tip(game, "en")
    found = re.search(r"(\d+) unseen cards? that would help", t.reason)
    assert t.code in ("discard_outs", "discard_dear") and found, t
    view = game.view(1)
    rest = list(view.hand or ())
    rest.remove(t.action.card)  # type: ignore[attr-defined]
    outs = distance(rest, rules.rounds[0].contracts, rules).outs
    # Counted by hand: the two decks but what the seat holds, the pozo and Ana's hand, which
    # lies open on the table (no melds are down yet).
    left = Counter(deck(*rules.deck_for(2)))
    left.subtract([*view.hand, *view.pozo, *game.hand(0)])
    said = int(found[1])
    assert said == sum(max(left[c], 0) for c in outs)
    assert unseen_counts(view, rules) == +left  # as every bot counts it


def test_under_open_hands_no_rank_is_called_safe_that_the_next_player_holds() -> None:
    rules = RuleSet.preset("familia", open_hands=True)
    game = Game.new(rules, NAMES, seed=5)
    bots = [LookaheadBot(s, rules) for s in range(3)]
    for _ in range(40):
        seat = game.seat_to_act
        assert seat is not None
        view = game.view(seat)
        t = hint(view, rules, "en")
        assert t.code != "discard_safe", t  # the next hand is in sight: no guessing
        game.apply(bots[seat].choose(view, game.legal_actions(seat)))


def test_down_the_reason_says_when_the_dearer_cards_would_feed_the_next_player() -> None:
    """Caro is down with 4H 3S 9D 4S 8D 3C and Ana took the 10D: the coach throws the 4S,
    so "shed the dearest" was false; the 9D and 8D stay because they go with Ana's 10D."""
    rules = RuleSet.preset("chile")
    game = Game.new(rules, NAMES, seed=1)
    bots = [LookaheadBot(s, rules) for s in range(3)]
    for _ in range(23):
        seat = game.seat_to_act
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions(seat)))
    es, en = tip(game, "es", seat=2), tip(game, "en", seat=2)
    assert str(es.action) == "discard 4S" and es.code == "discard_down"
    assert es.reason == "bota el 4S: ya te bajaste; las que valen más le pueden servir a Ana"
    assert en.reason == "discard the 4S: you are down; your dearer cards may help Ana"


def test_a_lost_round_says_when_the_dearer_cards_would_feed_the_next_player() -> None:
    """Beto's round is lost (Ana is down, he lacks three cards or more): he sheds the dearest
    card he can spare that Ana cannot lay off. With Ana's trío of aces on the table his AS
    stays, so "shed the dearest card" alone would be false; without it, the AS goes. A pair
    of aces stays too, but because his contract needs it: nothing more to say then."""
    rules = RuleSet.preset("chile", rounds=[5])  # 2T+1E
    said = {}
    hands = {"AS": "AS 3H 5C 7C 9S JH KD 2C 4D 6H 8S 10C",
             "AS AS": "AS AS 3H 5C 7C 9S JH KD 2C 4D 6H 8S"}
    for trio, aces in (("AH AC AD", "AS"), ("4S 4C 4H", "AS"), ("AH AC AD", "AS AS")):
        game = crafted(rules, [f"{trio} 9D 9C 9H 5D 6D 7D 8D 10H JC", hands[aces]], pozo="QS",
                       mazo_top="2S KH 3D")
        play(game, "draw mazo", "discard 2S")
        play(game, "draw mazo", f"bajar {trio} / 9D 9C 9H / 5D 6D 7D 8D", "discard KH")
        play(game, "draw mazo")
        es, en = tip(game, "es"), tip(game, "en")
        assert es.code == en.code == "discard_lost"
        said[trio, aces] = (str(es.action), es.reason, en.reason)
    assert said["AH AC AD", "AS"] == (
        "discard JH", "bota el JH: la ronda se ve difícil; las que valen más y no necesitas le "
        "pueden servir a Ana", "discard the JH: this round looks lost; the dearer cards you can "
        "spare may help Ana")
    assert said["4S 4C 4H", "AS"] == (
        "discard AS", "bota el AS: la ronda se ve difícil, así que bota la que más vale de las "
        "que no necesitas", "discard the AS: this round looks lost, so shed the dearest card "
        "you can spare")
    assert said["AH AC AD", "AS AS"] == (
        "discard JH", "bota el JH: la ronda se ve difícil, así que bota la que más vale de las "
        "que no necesitas", "discard the JH: this round looks lost, so shed the dearest card "
        "you can spare")


def test_a_spare_comodin_kept_from_the_next_player_is_said() -> None:
    """Beto's escala sucia needs every natural card he holds and one of his three jokers:
    greedy keeps the spare jokers, which would help Ana, and throws a needed card. "You need
    them all" would be false: the reason says why the comodín stays."""
    rules = RuleSet.preset("chile-10", rounds=[9])  # the escala sucia
    game = crafted(rules, ["2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
                           "3D AC JK 8D 4D QH 6D 9D 5C JK 10D JK"], pozo="2C", mazo_top="7S")
    play(game, "draw mazo")
    es, en = tip(game, "es"), tip(game, "en")
    assert str(es.action) == "discard AC"
    assert es.reason == ("bota el AC: te hacen falta todas las cartas que no son comodín, y "
                         "botar un comodín le serviría a Ana")
    assert en.reason == ("discard the AC: you need every card that is no comodín, and a "
                         "comodín thrown would help Ana")
    # The same when the card thrown would feed Ana too (greedy's reason is discard_feeds).
    from carioca.actions import Discard
    from carioca.bots.greedy import Decision
    from carioca.cards import Card
    from carioca.coach import _checked, _Coach, explain

    card = Card.parse("AC")
    feeds = Decision(Discard(1, card), "discard_feeds", {"card": card, "missing": 3,
                                                         "before": 2})
    checked = _checked(feeds, game.view(1), rules, _Coach(0, rules))
    assert checked.details.get("spare_wild") is True
    assert explain(checked, game.view(1), "en") == en.reason


def test_a_two_of_another_suit_in_an_escala_shows_as_a_comodin() -> None:
    """In dos-libres a two is natural only in an escala of its own suit: the 2C among spades
    stands for the 2 as a comodín, and the shape says so (2(2)), as the table shows it."""
    rules = RuleSet.preset("dos-libres", rounds=[7])  # 3 escalas
    game = crafted(rules, ["AS AH 3D 5C 6D 7D 8S 10D JH QS KS",
                           "5S 4S JC 2C 4C 10C 2D 9C 7C 10H 3S"], pozo="9H", mazo_top="KD")
    play(game, "draw mazo")
    en = tip(game, "en")
    assert en.reason == "discard the KD; keep the 5S: it completes your escala 2(2)-3-4-_"


def test_one_card_is_one_card() -> None:
    from carioca.actions import Discard
    from carioca.bots.greedy import Decision
    from carioca.cards import Card
    from carioca.coach import explain

    game = Game.new(PRESETS["chile"], NAMES, seed=2)
    view = game.view(game.seat_to_act)
    card = Card.parse("9S")
    one = {"card": card, "missing": 1, "before": 1, "live_outs": 1, "points": 9}
    outs, dear = Decision(Discard(0, card), "discard_outs", one), \
        Decision(Discard(0, card), "discard_dear", one)
    assert explain(outs, view, "es") == "bota el 9S: así queda 1 carta por salir que te sirve"
    assert explain(outs, view, "en") == ("discard the 9S: that leaves 1 unseen card that "
                                         "would help you")
    assert explain(dear, view, "es") == ("bota el 9S: vale 9 puntos si otro se va primero, y "
                                         "aún queda 1 carta por salir que te sirve")
    worth_one = Decision(Discard(0, card), "discard_dear", {**one, "points": 1})
    assert explain(worth_one, view, "es").startswith("bota el 9S: vale 1 punto si otro")
    assert explain(dear, view, "en").endswith(
        "and 1 unseen card that would help you remains")
    assert "1 ungesehene Karte," in explain(outs, view, "de")
    assert "1 osett kort" in explain(outs, view, "sv")
    # Every unseen card that would help is in sight: no "0 cards that would help you".
    none = {**one, "live_outs": 0}
    assert explain(Decision(Discard(0, card), "discard_outs", none), view, "es") == \
        "bota el 9S: es la carta que menos te sirve"
    assert explain(Decision(Discard(0, card), "discard_dear", none), view, "en") == \
        "discard the 9S: it costs 9 points if someone else goes out first"


@pytest.mark.parametrize(("card", "es", "en"), [("AS", "un as", "an A"), ("8D", "un 8", "an 8"),
                                                ("JS", "una J", "a J"), ("KD", "una K", "a K")])
def test_a_rank_with_its_article(card: str, es: str, en: str) -> None:
    from carioca.actions import Discard
    from carioca.bots.greedy import Decision
    from carioca.cards import Card
    from carioca.coach import explain

    game = Game.new(PRESETS["chile"], NAMES, seed=2)
    view = game.view(0)
    safe = Decision(Discard(0, Card.parse(card)), "discard_safe",
                    {"card": Card.parse(card), "missing": 1, "before": 1, "live_outs": 5,
                     "points": 20})
    assert explain(safe, view, "es") == (f"bota el {card}: Beto ya botó o dejó pasar {es} en "
                                         "esta ronda, así que no le sirve")
    assert f"Beto threw or passed {en} this round" in explain(safe, view, "en")


def test_scored_by_rounds_won_the_coach_speaks_of_no_points() -> None:
    """familia counts marks for going out: "lo que bajas ya no suma puntos" and "vale 20
    puntos si otro se va primero" are not true there."""
    rules = RuleSet.preset("familia", rounds=[1])  # two tríos
    game = crafted(rules, ["AS 3C 5C 7S 9S JC KS 2H 4C 6H 8C 10C",
                           "9C 9D 9S QD QH QS 4S 6D 8H 10S AH AD"], pozo="2C", mazo_top="3D")
    play(game, "draw mazo")
    es, en = tip(game, "es"), tip(game, "en")
    assert es.code == "bajar_now"
    assert es.reason == ("bájate ahora: tienes el contrato, y después puedes agregar cartas "
                         "para irte")
    assert "points" not in en.reason
    # The dearer card is not worth losing live outs for.
    game = crafted(rules, ["AS 3C 5C 7S 9S JC KS 2H 4C 6H 8C 10C",
                           "9C 9D 3C 5D 7H JS KD QD 4S 6D 8H 10C"], pozo="3H 3S 3D",
                   mazo_top="AH")
    play(game, "draw mazo")
    t = tip(game, "en")
    assert t.code != "discard_dear" and "points" not in t.reason, t
    # A round that looks lost sheds no "dearest cards" where cards cost nothing.
    from carioca.actions import Discard
    from carioca.bots.greedy import Decision
    from carioca.cards import Card
    from carioca.coach import explain

    lost = Decision(Discard(1, Card.parse("KD")), "discard_lost", {"card": Card.parse("KD"),
                                                                    "marks": True})
    for lang in LANGS:
        assert explain(lost, game.view(1), lang) == _WORDS[lang]["discard"].format(card="KD")


def test_letting_a_card_pass_says_which_reason() -> None:
    """"the card does not help, or the round is too far along": the coach knows which."""
    import dataclasses

    rules = RuleSet.preset("chile", rounds=[2], buying="penalty_card")
    hands = ["5H 6H 8H 9S 9D KC 2D 4S JC QD 3C 10S", "AS AH 3D 5C 6D 7C 8S 10D JH QS KS 2H",
             "AD 3H 4H 7S 7D 9C 10C JD KH QC 2S 6S"]
    useless = crafted(rules, hands, pozo="4D", mazo_top="2C")
    play(useless, "draw mazo", "discard 2C")
    no = hint(useless.view(0), rules, "es")
    assert no.code == "no_buy" and no.reason == "déjalo pasar: el 2C no te acerca al contrato"
    late = crafted(rules, hands, pozo="4D", mazo_top="7H")
    play(late, "draw mazo", "discard 7H")
    view = dataclasses.replace(late.view(0), turn=12)  # four laps on: too late to buy
    tip_late = hint(view, rules, "en", legal=late.legal_actions(0))
    assert tip_late.code == "no_buy"
    assert tip_late.reason == "let it pass: the 7H would help, but the round is too far along"
    # A player who is down has nothing to bring nearer: a buy only adds cards.
    down = crafted(RuleSet.preset("chile", rounds=[1], buying="penalty_card"),
                   [hands[0], "AS AH AD 5C 5D 5S 8S 10D JH 4S KS JK", hands[2]], pozo="9D",
                   mazo_top="2S 3H")
    play(down, "draw mazo", "bajar AS AH AD / 5C 5D 5S", "discard 2S", "draw mazo",
         "discard 3H")
    tip_down = hint(down.view(1), down.rules, "es")
    assert tip_down.code == "no_buy" and down.view(1).down[1]
    assert tip_down.reason == ("déjalo pasar: ya te bajaste, y comprar solo te deja más cartas "
                               "en la mano")


# Positions the coach's audit of stop 26 found (tests/positions: records that stop there).
POSITIONS = Path(__file__).parent / "positions"


def position(name: str) -> Game:
    return Game.from_record(json.loads((POSITIONS / f"{name}.json").read_text("utf-8")))


def test_a_joker_no_meld_can_take_goes_before_a_card_the_meld_needs() -> None:
    """In the escala real nothing is wild: a second joker costs nothing to throw, where any
    heart costs a card (greedy kept its jokers and threw the 7H)."""
    from carioca.bots import GreedyBot

    rules = RuleSet.preset("chile-10", rounds=[10])
    game = crafted(rules, ["2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",
                           "AH 2H 3H 4H 5H 7H 9H 10H JH QH KH JK"], pozo="AC", mazo_top="JK")
    play(game, "draw mazo")
    for lang in ("es", "en"):
        assert str(tip(game, lang).action) == "discard JK"
    view = game.view(1)
    assert str(GreedyBot(1, rules).choose(view, game.legal_actions(1))) == "discard JK"


def test_a_discard_that_costs_a_card_says_so_before_what_it_keeps() -> None:
    from carioca.actions import Discard
    from carioca.bots.greedy import Decision
    from carioca.cards import Card
    from carioca.coach import explain

    view = position("coach-open-hands-down").view(2)
    card = Card.parse("7H")
    details = {"card": card, "missing": 3, "before": 2, "keep": Card.parse("KH"),
               "target": {"kind": "escala", "shape": "9-10-J-Q-_", "missing": 0}}
    said = explain(Decision(Discard(2, card), "discard", details), view, "en")
    assert said == "discard the 7H: you need them all, this one least"


def test_a_relocating_swap_in_a_plan_to_go_out_keeps_the_wild_in_its_meld() -> None:
    game = position("coach-relocate-go-out")
    en, es = tip(game, "en", seat=2), tip(game, "es", seat=2)
    assert en.code == "go_out" and str(en.action) == "swap 6C 0 low"
    assert en.reason == ("you can go out this turn: put the 6C in meld 0 and move the comodín "
                         "to an end; discard the 7H")
    assert es.reason == ("te puedes ir en este turno: pon el 6C en el juego 0 y corre el "
                         "comodín a una punta; bota el 7H")
    game.apply(en.action)
    assert "JK" in [str(c) for c in game.view(2).melds[0].cards]  # moved, not taken


def test_down_a_card_that_could_be_laid_off_goes_when_every_other_would_feed() -> None:
    game = position("coach-down-others-feed")
    es, en = tip(game, "es", seat=0), tip(game, "en", seat=0)
    assert str(es.action) == "discard 8D" and es.code == "discard_down"
    assert es.reason == "bota el 8D: ya te bajaste, y las demás le pueden servir a P1"
    assert en.reason == "discard the 8D: you are down, and your other cards may help P1"


def test_under_open_hands_a_player_who_is_down_reads_the_next_hand_in_sight() -> None:
    """P3 shows a hand the KH is no out of: the KH, the dearest, goes, and the reason does
    not say the dearer cards would help P3 (the guess from what P3 took said so)."""
    game = position("coach-open-hands-down")
    t = tip(game, "es", seat=2)
    assert str(t.action) == "discard KH" and t.code == "discard_down"
    assert t.reason == ("bota el KH: ya te bajaste; guarda lo que puedes agregar y bota la que "
                        "más vale")


def test_a_discard_that_may_feed_says_so_after_what_it_keeps() -> None:
    from carioca.actions import Discard
    from carioca.bots.greedy import Decision
    from carioca.cards import Card
    from carioca.coach import explain

    game = Game.new(PRESETS["chile"], NAMES, seed=2)
    view = game.view(game.seat_to_act)
    card = Card.parse("9C")
    details = {"card": card, "missing": 1, "before": 1, "keep": Card.parse("7H"),
               "target": {"kind": "escala", "shape": "5-6-_-8", "missing": 0}}
    nxt = view.players[(game.seat_to_act + 1) % 3]
    said = {lang: explain(Decision(Discard(0, card), "discard_feeds", details), view, lang)
            for lang in LANGS}
    assert said["es"] == ("bota el 9C; guarda el 7H: completa tu escala 5-6-_-8 (ojo: el 9C le "
                          f"puede servir a {nxt})")
    assert said["en"].endswith(f"(mind: the 9C may help {nxt})")  # the card thrown, not kept
    assert said["de"].endswith(f"(Vorsicht: die 9C kann {nxt} helfen)")
    assert all(nxt in text for text in said.values())
    plain = explain(Decision(Discard(0, card), "discard", details), view, "en")
    assert nxt not in plain and plain.startswith("discard the 9C; keep the 7H")
