"""Every ruling of docs/rulings.md, and every row of the RULES.md "ruling / default" column,
checked through the public API: a test here fails if the engine stops doing what was ruled.

Positions are set up exactly with ``Game(rules, players)`` and ``start_round(Deal(...))``:
``start`` takes the hands and pozo a test chooses and the cards it wants on top of the mazo,
and fills the mazo with the rest of the rules' deck in canonical order.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from carioca import (
    Agregar,
    Bajar,
    Buy,
    Card,
    Deal,
    Discard,
    Draw,
    Game,
    IllegalAction,
    MeldError,
    RulesError,
    RuleSet,
    Swap,
    parse_cards,
)
from carioca.cards import deck
from carioca.describe import describe_rules
from carioca.engine import round_seed
from carioca.melds import read_meld
from carioca.record import from_record, replay
from carioca.rules import OPTION_NAMES, PRESETS, Contract
from carioca.spanish import explain

NAMES = ("Ana", "Beto", "Caro", "Dani", "Eli", "Fer", "Gabi", "Hugo")
ZERO_VALUES = {k: 0 for k in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
                              "JK")}


# --------------------------------------------------------------------------- helpers

def c(text: str) -> Card:
    return Card.parse(text)


def cs(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def melds_of(text: str) -> tuple[tuple[Card, ...], ...]:
    """``"7H 7S 7D / QS QH JK"``: melds separated by slashes."""
    return tuple(cs(group) for group in text.split("/"))


def bajar(seat: int, text: str) -> Bajar:
    return Bajar(seat, melds_of(text))


def rules_of(rules: str | RuleSet, **options: Any) -> RuleSet:
    if isinstance(rules, str):
        return RuleSet.preset(rules, **options)
    return rules.with_options(**options) if options else rules


def make_deal(rules: RuleSet, hands: Sequence[str], pozo: str = "9C", top: str = "") -> Deal:
    """The deal of these hands and pozo (bottom to top), with ``top`` the first cards of the
    mazo and then the rest of the rules' deck in canonical order."""
    full = deck(*rules.deck_for(len(hands)))
    hand_cards = tuple(cs(h) for h in hands)
    pozo_cards = cs(pozo)
    top_cards = cs(top)
    left = Counter(full)
    left.subtract([x for h in hand_cards for x in h] + list(pozo_cards) + list(top_cards))
    over = [str(x) for x, k in left.items() if k < 0]
    assert not over, f"the test uses more {over} than the deck holds"
    rest = []
    for card in full:
        if left[card] > 0:
            rest.append(card)
            left[card] -= 1
    return Deal(hand_cards, pozo_cards, top_cards + tuple(rest))


def start(rules: str | RuleSet, hands: Sequence[str], pozo: str = "9C", top: str = "",
          **options: Any) -> Game:
    """A game of ``len(hands)`` players with round 1 dealt exactly so."""
    ruleset = rules_of(rules, **options)
    game = Game(ruleset, NAMES[: len(hands)])
    game.start_round(make_deal(ruleset, hands, pozo, top))
    return game


def code_of(game: Game, action: Any) -> str:
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    return info.value.code


def message_of(game: Game, action: Any) -> str:
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    return info.value.message


def draw_discard(game: Game, seat: int, source: str = "mazo") -> Card:
    """The seat draws and throws the drawn card away; returns it."""
    game.apply(Draw(seat, source))  # type: ignore[arg-type]
    hand = game.view(seat).hand
    assert hand is not None
    game.apply(Discard(seat, hand[-1]))
    return hand[-1]


def loop_pozo(game: Game, turns: int) -> None:
    """Players take the pozo top and throw it back, ``turns`` times."""
    for _ in range(turns):
        seat = game.seat_to_act
        assert seat is not None
        draw_discard(game, seat, "pozo")


def hand_value(rules: RuleSet, text: str) -> int:
    return sum(rules.value(x) for x in cs(text))


def table_cards(game: Game) -> int:
    """Every physical card the view accounts for: hands, melds, pozo and mazo."""
    v = game.view(None)
    return sum(v.hand_counts) + sum(len(m.cards) for m in v.melds) + len(v.pozo) + v.mazo_count


def one_escala(preset: str = "chile", hand_size: int = 5, **options: Any) -> RuleSet:
    """A one-round game whose contract is a single escala of 4: small positions."""
    return RuleSet.preset(preset, contracts=["1E"], hand_size=hand_size, **options)


def down_escala_game(rules: RuleSet, escala: str, extra: str, seat0: str,
                     top: str = "") -> Game:
    """Seat 1 lays ``escala`` in its first turn and keeps ``extra``; seat 0 then plays a turn
    (draws and discards), so that seat 1 is in the draw phase of its second turn."""
    first = cs(top)[0] if top else None
    game = start(rules, [seat0, f"{escala} {extra}"], top=top)
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, escala))
    assert first is not None
    game.apply(Discard(1, first))
    draw_discard(game, 0)
    return game


# =========================================================================== docs/rulings.md
# --------------------------------------------------------------------------- table and cards

def test_ruling_1_players_per_preset() -> None:
    """1. chile, rumi, chico: 2-8; chile-10, dos-libres, argentina, familia: 2-6; online: 2-4."""
    expected = {"chile": 8, "rumi": 8, "chico": 8, "chile-10": 6, "dos-libres": 6,
                "argentina": 6, "familia": 6, "online": 4}
    for name, most in expected.items():
        rules = RuleSet.preset(name)
        assert (rules.min_players, rules.max_players) == (2, most), name
        for n in range(2, most + 1):
            rules.check_players(n)
        for n in (1, most + 1):
            with pytest.raises(RulesError):
                rules.check_players(n)
    with pytest.raises(RulesError, match="2 to 4 players, not 5"):
        Game(RuleSet.preset("online"), NAMES[:5])


def pack_sizes(name: str) -> dict[int, int]:
    rules = RuleSet.preset(name)
    out = {}
    for n in range(2, rules.max_players + 1):
        packs, jokers = rules.deck_for(n)
        out[n] = len(deck(packs, jokers))
    return out


def test_ruling_1_packs_per_preset() -> None:
    """1. 108 cards, a third pack from 6 (chile) or 5 (chile-10); dos-libres: 106 / 159 from 5."""
    for name in ("chile", "rumi", "chico"):
        assert pack_sizes(name) == {2: 108, 3: 108, 4: 108, 5: 108, 6: 162, 7: 162, 8: 162}
    assert pack_sizes("chile-10") == {2: 108, 3: 108, 4: 108, 5: 162, 6: 162}
    for name in ("dos-libres", "argentina"):
        assert pack_sizes(name) == {2: 106, 3: 106, 4: 106, 5: 159, 6: 159}
        assert RuleSet.preset(name).deck_for(3) == (2, 1)
    assert pack_sizes("online") == {2: 108, 3: 108, 4: 108}


def test_ruling_1_familia_plays_108_cards() -> None:
    """1. `familia`: 2-6, 108."""
    assert pack_sizes("familia") == {2: 108, 3: 108, 4: 108, 5: 108, 6: 108}


def test_ruling_1_jokers_per_pack_and_decks_fix_the_packs() -> None:
    """1. The option `jokers` is jokers per pack; `decks` fixes the packs."""
    assert RuleSet.preset("chile", jokers=0).deck_for(4) == (2, 0)
    assert RuleSet.preset("chile", jokers=3).deck_for(6) == (3, 3)
    assert RuleSet.preset("chile", decks=3).deck_for(2) == (3, 2)
    assert RuleSet.preset("chile", decks=2).deck_for(8) == (2, 2)
    assert RuleSet.preset("chile", decks=1, jokers=1).deck_for(3) == (1, 1)


def test_ruling_1_a_deal_must_be_the_deck_of_the_rules() -> None:
    """1. dos-libres is dealt from 106 cards: a deal of the 108-card deck is refused."""
    game = Game(RuleSet.preset("dos-libres"), NAMES[:2])
    hands = ["3S 4S 5S 6S 8S 9S 10S JS QS KS AS", "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"]
    with pytest.raises(IllegalAction) as info:
        game.start_round(make_deal(RuleSet.preset("chile"), hands))
    assert info.value.code == "bad_deal"
    assert "106" in info.value.message


def test_ruling_2_dealing_from_a_seed() -> None:
    """2. Round r is dealt with Random("carioca:S:r"), one card at a time after the dealer."""
    rules = RuleSet.preset("chile", max_turns_per_round=10)
    game = Game.new(rules, NAMES[:3], seed=7)
    for number in (1, 2):
        seed = random.Random(f"carioca:7:{number}").getrandbits(32)
        assert round_seed(7, number) == seed
        cards = deck(2, 2)
        random.Random(seed).shuffle(cards)
        dealt = game.deals[number - 1]
        first = number % 3  # the dealer is seat (number - 1) mod 3
        assert dealt.seed == seed
        for k in range(3):
            assert dealt.hands[(first + k) % 3] == tuple(cards[k:36:3])
        assert dealt.pozo == (cards[36],)
        assert dealt.mazo == tuple(cards[37:])
        assert game.view(first).to_act == first
        if number == 1:
            loop_pozo(game, 10)  # the turn cap ends round 1; the seed deals round 2
    entry = game.to_record()["rounds"][0]
    assert entry["seed"] == round_seed(7, 1)
    assert entry["deal"]["hands"][1] == [str(x) for x in game.deals[0].hands[1]]


def pairs_record(seed: int | None) -> dict[str, Any]:
    hands = ["AS AS 2S 2S 3S 3S 4S 4S 5S 5S 6S 6S", "7S 7S 8S 8S 9S 9S 10S 10S JS JS QS QS"]
    entry: dict[str, Any] = {"deal": {"hands": [h.split() for h in hands],
                                      "pozo": ["KS", "KS"]}, "actions": []}
    if seed is not None:
        entry["seed"] = seed
    return {"format": "carioca-record/1", "rules": {"preset": "chile"},
            "players": ["Ana", "Beto"], "rounds": [entry]}


def test_ruling_3_a_deal_without_mazo() -> None:
    """3. The rest of the deck, in canonical order, shuffled with the round's seed (0 if none)."""
    leftover = [x for x in deck(2, 2) if x.suit != "S"]  # every spade is dealt, both packs
    for seed in (5, None):
        expected = list(leftover)
        random.Random(seed or 0).shuffle(expected)
        game = from_record(pairs_record(seed))
        assert game.deals[0].mazo == tuple(expected)
    # A card the deck holds twice and the deal once: the copy left keeps the first pack's place.
    doc = pairs_record(7)
    doc["rounds"][0]["deal"]["pozo"] = ["KS", "7H"]
    first, second = deck(2, 2)[:54], deck(2, 2)[54:]  # each pack: 52 cards and its 2 jokers
    expected = ([x for x in first if x.suit != "S" or x == c("KS")]
                + [x for x in second if x.suit != "S" and x != c("7H")])
    random.Random(7).shuffle(expected)
    assert from_record(doc).deals[0].mazo == tuple(expected)


def test_ruling_4_a_wild_turned_up_is_buried() -> None:
    """4. A wild turned up goes to the bottom of the mazo, until a natural card shows."""
    rules = RuleSet.preset("dos-libres", rounds=[1])
    hands = ["3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"]
    game = start(rules, hands, pozo="2H", top="JK 5C 6C")
    view = game.view(0)
    assert view.pozo == (c("5C"),)
    assert view.mazo_count == 106 - 22 - 1
    assert set(game.deals[0].mazo[-2:]) == {c("2H"), c("JK")}
    game.apply(Draw(1, "mazo"))
    assert game.view(1).hand[-1] == c("6C")  # type: ignore[index]


def test_ruling_4_a_natural_top_is_left_as_it_is() -> None:
    """4. A deal whose top is natural is left as it is; only bury_wild_first_discard buries."""
    hands = ["3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"]
    game = start("dos-libres", hands, pozo="2H 5C", top="JK", rounds=[1])
    assert game.view(0).pozo == cs("2H 5C")
    chile_hands = [h + " AS" for h in hands]
    assert start("chile", chile_hands, pozo="JK").view(0).pozo == cs("JK")
    argentina = start("argentina", hands, pozo="JK", top="2H 5C")
    assert argentina.view(0).pozo == cs("2H")  # twos are not wild in argentina


def test_ruling_4_applies_to_a_record_deal() -> None:
    """4. This also applies to a record's deal whose pozo shows a wild on top."""
    rules = RuleSet.preset("dos-libres", rounds=[1])
    hands = ["3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"]
    dealt = make_deal(rules, hands, pozo="2C", top="8C")
    doc = {"format": "carioca-record/1",
           "rules": {"preset": "dos-libres", "options": {"rounds": [1]}},
           "players": ["Ana", "Beto"], "rounds": [{"deal": dealt.to_json(), "actions": []}]}
    assert from_record(doc).view(0).pozo == cs("8C")


# --------------------------------------------------------------------------- melds

TRIOS_12 = "7H 7S 7D 7C 8H 8S 8D 4C 4S 4D QD JS"


def test_ruling_5_the_contract_is_laid_whole_no_more() -> None:
    """5. `bajar` lays exactly the melds of the contract, no more."""
    game = start("chile", ["AS 2S 3S 4H 5S 6S 8C 9S 10S JD QS KS", TRIOS_12])
    game.apply(Draw(1, "mazo"))
    with pytest.raises(IllegalAction) as info:
        game.apply(bajar(1, "7H 7S 7D / 8H 8S 8D / 4C 4S 4D"))
    assert info.value.code == "not_the_contract"
    assert info.value.message.endswith("the contract has 2 melds, and these are 3 melds")
    assert explain(info.value, "es") == "eso no es el contrato: el contrato pide 2 juegos, no 3"
    assert code_of(game, bajar(1, "7H 7S 7D")) == "not_the_contract"
    game.apply(bajar(1, "7H 7S 7D 7C / 8H 8S 8D"))  # a trío of four
    assert [len(m.cards) for m in game.view(0).melds] == [4, 3]


def test_ruling_5_a_meld_may_be_longer_than_its_minimum() -> None:
    """5. A meld may be longer than its minimum (an escala of six)."""
    game = start("chile", ["AS 2S 3S 4D 5S 6S 8C 9S 10S JD QS KS",
                           "3H 4H 5H 6H 7H 8H 9S 9D 9C KC QD JS"], rounds=[2])
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "3H 4H 5H 6H 7H 8H / 9S 9D 9C"))
    assert len(game.view(0).melds[0].cards) == 6


def test_ruling_5_exact_melds_in_online() -> None:
    """5. `exact_melds` (online): a trío of exactly 3, an escala of exactly 4."""
    assert RuleSet.preset("online").exact_melds
    game = start("online", ["AS 2S 3S 4D 5S 6S 8C 9S 10S JD QS",
                            "7H 7S 7D 7C 8H 8S 8D 4C 4S QD JS"], rounds=[1])
    game.apply(Draw(1, "mazo"))
    assert "exactly 3" in message_of(game, bajar(1, "7H 7S 7D 7C / 8H 8S 8D"))
    game.apply(bajar(1, "7H 7S 7D / 8H 8S 8D"))
    escalas = start("online", ["AS 2S 3S 4D 5S 6S 8C 9S 10S JD QS",
                               "3H 4H 5H 6H 7H 9S 9D 9C QD JS KC"], rounds=[2])
    escalas.apply(Draw(1, "mazo"))
    assert "exactly 4" in message_of(escalas, bajar(1, "3H 4H 5H 6H 7H / 9S 9D 9C"))
    escalas.apply(bajar(1, "3H 4H 5H 6H / 9S 9D 9C"))


def test_ruling_6_same_rank_and_same_suit() -> None:
    """6. Two tríos of one contract may share a rank; two escalas may share a suit."""
    game = start("chile", ["AS 2S 3S 4D 5S 6S 8C 9S 10S JD QS KS",
                           "7H 7S 7D 7C 7H 7S 4C 4S 4D QD JS KC"])
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "7H 7S 7D / 7C 7H 7S"))
    assert [m.rank for m in game.view(0).melds] == [7, 7]
    game = start("chile", ["AS 2S 3S 4D 5S 6S 8C 9S 10S JD QS KS",
                           "3H 4H 5H 6H 9H 10H JH QH 4S 4D KD KC"], rounds=[3])
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "3H 4H 5H 6H / 9H 10H JH QH"))
    assert [m.suit for m in game.view(0).melds] == ["H", "H"]


def test_ruling_7_a_wild_two_at_its_own_place_is_natural() -> None:
    """7. A wild two in its own place of an escala is natural: it does not count as a wild."""
    rules = RuleSet.preset("dos-libres")
    game = start(rules, ["AS 3S 4S 5D 6S 8C 9S 10S JD QS KS",
                         "AH 2H 3H JK 7H 7S 2C 9D 10D QD KC"], rounds=[2])
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "AH 2H 3H JK / 7H 7S 2C"))
    escala, trio = game.view(0).melds
    assert escala.wild == (False, False, False, True)
    assert escala.stands_for(3) == "4H"
    assert trio.wild == (False, False, True)


def test_ruling_7_a_natural_two_cannot_be_swapped_out() -> None:
    """7. A wild two at its own place cannot be swapped out (a joker can)."""
    rules = one_escala("dos-libres", hand_size=5)
    game = down_escala_game(rules, "AH 2H 3H JK", "KC", "2H 4H 9S 9D 8C", top="QS 10S")
    draw_discard(game, 1)
    game.apply(Draw(0, "mazo"))  # seat 0, not down, may swap under `anyone`
    assert code_of(game, Swap(0, c("2H"), 0)) == "no_wild_for_card"
    game.apply(Swap(0, c("4H"), 0))
    assert game.view(0).melds[0].wild == (False, False, False, False)


def test_ruling_7_trio_of_twos_and_red_aces_are_natural() -> None:
    """7. A trío of twos (2S 2H 2D) is natural; so is a wild red ace at its own place."""
    dos = RuleSet.preset("dos-libres")
    trio = read_meld(cs("2S 2H 2D"), "trio", dos)
    assert (trio.rank, trio.wild_count) == (2, 0)
    red = RuleSet.preset("online", wilds=["jokers", "red_aces"])
    escala = read_meld(cs("AH 2H JK 4H"), "escala", red)
    assert escala.wild == (False, False, True, False)
    assert read_meld(cs("AD 7S 7H"), "trio", red).wild == (True, False, False)


def test_ruling_7_a_joker_is_never_natural() -> None:
    """7. A joker is never natural. Every meld keeps at least one natural card."""
    familia = RuleSet.preset("familia")
    for kind, text in (("trio", "JK JK JK"), ("escala", "JK JK JK JK")):
        with pytest.raises(MeldError, match="natural"):
            read_meld(cs(text), kind, familia)  # type: ignore[arg-type]
    dos = RuleSet.preset("dos-libres", max_wilds_per_meld=None)
    assert read_meld(cs("JK 2C 7H"), "trio", dos).wild == (True, True, False)


SUCIA = "AH 2S 3D 4C 5H 6S 7D 8C 9H 10S JD QC KH"
REAL = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
COLORES = "AH 2S 3D 4C 5H 6S 7D 8C 9H 10S JD QC KH"


def test_ruling_8_escala_sucia() -> None:
    """8. Sucia: the ace to the king in order, any suits, at most one wild (even in familia)."""
    chile = RuleSet.preset("chile-10")
    assert read_meld(cs(SUCIA), "sucia", chile).wild_count == 0
    one = SUCIA.replace("5H", "JK")
    assert read_meld(cs(one), "sucia", chile).wild_count == 1
    two = one.replace("9H", "JK")
    for rules in (chile, RuleSet.preset("familia")):
        with pytest.raises(MeldError, match="one wild"):
            read_meld(cs(two), "sucia", rules)
    with pytest.raises(MeldError, match="ace to the king"):
        read_meld(cs(SUCIA)[1:] + cs("AH"), "sucia", chile)
    with pytest.raises(MeldError):
        read_meld(cs(SUCIA)[:12], "sucia", chile)


def test_ruling_8_escala_real() -> None:
    """8. Real: one suit, no wild."""
    chile = RuleSet.preset("chile-10")
    assert read_meld(cs(REAL), "real", chile).suit == "H"
    with pytest.raises(MeldError, match="no wild"):
        read_meld(cs(REAL.replace("5H", "JK")), "real", chile)
    with pytest.raises(MeldError):
        read_meld(cs(REAL.replace("5H", "5S")), "real", chile)


def test_ruling_8_escala_de_colores() -> None:
    """8. De colores: alternating red and black, wilds as the meld limit allows."""
    chile = RuleSet.preset("chile")
    assert read_meld(cs(COLORES), "colores", chile).wild_count == 0
    one = COLORES.replace("6S", "JK")
    assert read_meld(cs(one), "colores", chile).wild_count == 1
    two = one.replace("10S", "JK")
    with pytest.raises(MeldError, match="one wild"):
        read_meld(cs(two), "colores", chile)
    assert read_meld(cs(two), "colores", RuleSet.preset("familia")).wild_count == 2
    with pytest.raises(MeldError, match="alternating"):
        read_meld(cs(COLORES.replace("2S", "2H")), "colores", chile)


def test_ruling_8_nothing_added_but_a_wild_swapped_out() -> None:
    """8. Nothing can be added to them, but a wild in them can be swapped out."""
    rules = RuleSet.preset("chile-10")
    sucia = read_meld(cs(SUCIA.replace("5H", "JK")), "sucia", rules)
    for card in ("5D", "JK", "AS"):
        with pytest.raises(MeldError, match="nothing can be added"):
            sucia.extended(c(card), None, rules)
    index = sucia.wild_index_for(c("5C"))
    assert index == 4
    swapped, wild = sucia.swapped(c("5C"), 4)
    assert wild == c("JK") and swapped.wild_count == 0
    colores = read_meld(cs(COLORES.replace("6S", "JK")), "colores", rules)
    assert colores.wild_index_for(c("6H")) is None  # the 6 there is black
    assert colores.wild_index_for(c("6C")) == 5


def test_ruling_9_no_wrap_without_the_option() -> None:
    """9. Without `wrap` the ace is low or high, never both; K-A-2 is not an escala."""
    rules = RuleSet.preset("chile", rounds=[3])
    game = start(rules, ["AD 3D 4C 5D 6D 8C 9D 10C JD QC KC 7C",
                         "KS AS 2S 3S JH QH KH AH 9C 9D 5C 6C"])
    game.apply(Draw(1, "mazo"))
    message = message_of(game, bajar(1, "KS AS 2S 3S / JH QH KH AH"))
    assert "K-A-2" in message
    game = start(rules, ["AD 3D 4C 5D 6D 8C 9D 10C JD QC KC 7C",
                         "AS 2S 3S 4S JH QH KH AH 9C 9D 5C 6C"])
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "AS 2S 3S 4S / JH QH KH AH"))
    assert [m.open_ends(rules) for m in game.view(0).melds] == [("high",), ("low",)]


def test_ruling_9_wrap_in_online() -> None:
    """9. With `wrap` (online) an escala may turn the corner."""
    game = start("online", ["AD 3D 4C 5D 6D 8C 9D 10C JD QC KC",
                            "KS AS 2S 3S QH KH AH 2H 9C 9D 5C"], rounds=[3])
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "KS AS 2S 3S / QH KH AH 2H"))
    assert [m.stands_for(0) for m in game.view(0).melds] == ["KS", "QH"]


def test_ruling_9_wrap_still_thirteen_cards_no_rank_twice() -> None:
    """9. A wrapping escala still holds at most thirteen cards, no rank twice."""
    online = RuleSet.preset("online")
    full = read_meld(cs("10S JS QS KS AS 2S 3S 4S 5S 6S 7S 8S 9S"), "escala", online)
    assert full.open_ends(online) == ()
    with pytest.raises(MeldError):
        full.extended(c("10S"), "high", online)
    with pytest.raises(MeldError, match="thirteen"):
        read_meld(cs("10S JS QS KS AS 2S 3S 4S 5S 6S 7S 8S 9S 10S"), "escala", online)
    with pytest.raises(MeldError, match="twice"):
        read_meld(cs("QS KS AS 2S QS"), "escala", online)


def test_ruling_10_a_wild_added_goes_high_by_default() -> None:
    """10. A wild goes to the `end` named; else on the high end if open, else the low end."""
    rules = one_escala()
    game = down_escala_game(rules, "3H 4H 5H 6H", "KC", "AS 3S 5S 7S 9S", top="QS 10S JK")
    game.apply(Draw(1, "mazo"))
    game.apply(Agregar(1, c("JK"), 0))
    meld = game.view(0).melds[0]
    assert meld.wild == (False, False, False, False, True)
    assert meld.stands_for(4) == "7H"

    game = down_escala_game(rules, "JH QH KH AH", "KC", "AS 3S 5S 7S 9S", top="QS 10S JK")
    game.apply(Draw(1, "mazo"))
    game.apply(Agregar(1, c("JK"), 0))
    assert game.view(0).melds[0].stands_for(0) == "10H"

    game = down_escala_game(rules, "3H 4H 5H 6H", "KC", "AS 3S 5S 7S 9S", top="QS 10S JK")
    game.apply(Draw(1, "mazo"))
    game.apply(Agregar(1, c("JK"), 0, "low"))
    assert game.view(0).melds[0].stands_for(0) == "2H"


def test_ruling_10_a_wild_two_without_end_goes_to_its_own_place() -> None:
    """10. Without `end`, a wild two that is natural at one end goes there, as a natural."""
    rules = one_escala("dos-libres")
    game = down_escala_game(rules, "3H 4H 5H 6H", "KC", "AS 3S 5S 7S 9S", top="QS 10S 2H")
    game.apply(Draw(1, "mazo"))
    game.apply(Agregar(1, c("2H"), 0))
    meld = game.view(0).melds[0]
    assert meld.cards[0] == c("2H")
    assert meld.wild_count == 0
    assert meld.stands_for(0) == "2H"


def test_ruling_10_a_wild_card_without_end_goes_high() -> None:
    """10. Without `end`, any other wild card goes on the high end if that end is open."""
    rules = one_escala("dos-libres")
    game = down_escala_game(rules, "3H 4H 5H 6H", "KC", "AS 3S 5S 7S 9S", top="QS 10S 2S")
    game.apply(Draw(1, "mazo"))
    game.apply(Agregar(1, c("2S"), 0))
    meld = game.view(0).melds[0]
    assert meld.cards[-1] == c("2S")
    assert meld.stands_for(4) == "7H"


def test_ruling_11_take_needs_the_exact_card_in_an_escala() -> None:
    """11. In an escala the exact card; under `take` the wild may be used in the same turn."""
    rules = one_escala(hand_size=6)
    game = down_escala_game(rules, "5H JK 7H 8H", "6H 6S", "AS 3S 5S 7S 9S 10D",
                            top="QS 10S 9H")
    game.apply(Draw(1, "mazo"))
    assert code_of(game, Swap(1, c("6S"), 0)) == "no_wild_for_card"
    game.apply(Swap(1, c("6H"), 0))
    assert game.view(1).hand == cs("6S 9H JK")
    assert game.view(0).melds[0].cards == cs("5H 6H 7H 8H")
    game.apply(Agregar(1, c("JK"), 0, "low"))  # the wild is used at once
    assert game.view(0).melds[0].stands_for(0) == "4H"


def test_ruling_11_take_in_a_trio_any_card_of_the_rank() -> None:
    """11. In a trío any card of the trío's rank replaces the wild."""
    rules = RuleSet.preset("chile", contracts=["1T"], hand_size=5)
    game = start(rules, ["AS 3S 5S 7S 9S", "7H 7S JK 7C KD"], top="QS 10S 2D")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "7H 7S JK"))
    game.apply(Discard(1, c("QS")))
    draw_discard(game, 0)
    game.apply(Draw(1, "mazo"))
    game.apply(Swap(1, c("7C"), 0))
    assert game.view(0).melds[0].cards == cs("7H 7S 7C")
    assert c("JK") in game.view(1).hand  # type: ignore[operator]


def test_ruling_11_take_needs_the_contract_down_and_agregar_timing() -> None:
    """11. Under `take` the player must be down, with the same timing as `agregar`."""
    rules = one_escala(hand_size=6)
    game = start(rules, ["6H AS 3S 5S 7S 9S", "5H JK 7H 8H 6H KC"], top="QS 10S")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "5H JK 7H 8H"))
    assert code_of(game, Swap(1, c("6H"), 0)) == "cannot_swap"  # the turn it bajarse
    said = message_of(game, Swap(1, c("6H"), 0))
    assert "swap a wild card out in the turn" in said and "agregar" not in said
    game.apply(Discard(1, c("QS")))
    game.apply(Draw(0, "mazo"))
    assert code_of(game, Swap(0, c("6H"), 0)) == "cannot_swap"  # not down
    assert "before swapping a wild card out" in message_of(game, Swap(0, c("6H"), 0))


def test_ruling_11_anyone_swaps_down_or_not() -> None:
    """11. Under `anyone` any player may swap in their own turn after drawing, down or not."""
    for name in ("dos-libres", "argentina"):
        assert RuleSet.preset(name).joker_replacement == "anyone"
    rules = one_escala("dos-libres", hand_size=6)
    game = start(rules, ["6H 9S 10S JS AD 4C", "5H JK 7H 8H KC 3D"], top="QS QD 3C")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "5H JK 7H 8H"))
    game.apply(Discard(1, c("QS")))
    assert code_of(game, Swap(0, c("6H"), 0)) == "draw_first"
    game.apply(Draw(0, "mazo"))
    game.apply(Swap(0, c("6H"), 0))
    assert c("JK") in game.view(0).hand  # type: ignore[operator]
    game.apply(bajar(0, "9S 10S JS JK"))  # the wild laid in the same turn
    assert game.view(0).down == (True, True)
    # Not tied to the contract (ruling 12's timing is `take`'s): a swap may follow one's own
    # bajar in the same turn.
    game = start(rules, ["6H 9S 10S JS AD 4C", "5H JK 7H 8H 6H KC"], top="QS QD 3C")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "5H JK 7H 8H"))
    game.apply(Swap(1, c("6H"), 0))
    assert c("JK") in game.view(1).hand  # type: ignore[operator]


def test_ruling_11_relocate_moves_the_wild_to_an_end() -> None:
    """11. Under `relocate` the wild moves to `end` (high by default, else low); must be down."""
    rules = one_escala("online", hand_size=6)
    game = down_escala_game(rules, "5H JK 7H 8H", "6H 6H", "AS 3S 5S 7S 9S 10D",
                            top="QS 10S 2C")
    game.apply(Draw(1, "mazo"))
    game.apply(Swap(1, c("6H"), 0))
    meld = game.view(0).melds[0]
    assert meld.cards == cs("5H 6H 7H 8H JK")
    assert meld.stands_for(4) == "9H"
    assert c("JK") not in game.view(1).hand  # type: ignore[operator]

    game = down_escala_game(rules, "5H JK 7H 8H", "6H 6H", "AS 3S 5S 7S 9S 10D",
                            top="QS 10S 2C")
    game.apply(Draw(1, "mazo"))
    game.apply(Swap(1, c("6H"), 0, "low"))
    assert game.view(0).melds[0].stands_for(0) == "4H"

    closed = rules.with_options(wrap=False)
    game = down_escala_game(closed, "JK QH KH AH", "JH JH", "AS 3S 5S 7S 9S 10D",
                            top="QS 10S 2C")
    game.apply(Draw(1, "mazo"))
    game.apply(Swap(1, c("JH"), 0))  # without wrap the high end is closed at the ace
    assert game.view(0).melds[0].cards == cs("JK JH QH KH AH")

    game = start(rules, ["6H AS 3S 5S 7S 9S", "5H JK 7H 8H KC 2D"], top="QS 10S")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "5H JK 7H 8H"))
    game.apply(Discard(1, c("QS")))
    game.apply(Draw(0, "mazo"))
    assert code_of(game, Swap(0, c("6H"), 0)) == "cannot_swap"


def test_ruling_11_relocate_in_a_trio_gives_the_wild() -> None:
    """11. Under `relocate`, in a trío the swap gives the wild to the player's hand."""
    rules = RuleSet.preset("online", contracts=["1T"], hand_size=5)
    game = start(rules, ["AS 3S 5S 7S 9S", "7H 7S JK 7C KD"], top="QS 10S 2D")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "7H 7S JK"))
    game.apply(Discard(1, c("QS")))
    draw_discard(game, 0)
    game.apply(Draw(1, "mazo"))
    game.apply(Swap(1, c("7C"), 0))
    assert game.view(0).melds[0].cards == cs("7H 7S 7C")
    assert c("JK") in game.view(1).hand  # type: ignore[operator]


def test_ruling_11_relocate_a_full_escala_gives_the_wild() -> None:
    """11. Under `relocate`, an escala that holds all thirteen ranks has no end to move the wild
    to: the swap gives it to the player's hand, as from a trío; naming an end is refused."""
    rules = one_escala("online", hand_size=13, exact_melds=False)
    twelve = "AH 2H 3H 4H 5H JK 7H 8H 9H 10H JH QH"
    seat0 = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
    game = down_escala_game(rules, twelve, "6H", seat0, top="QD 10D KH")
    game.apply(Draw(1, "mazo"))
    game.apply(Agregar(1, c("KH"), 0, "high"))  # all thirteen ranks now
    assert [a for a in game.legal_actions(1) if isinstance(a, Swap)] == [Swap(1, c("6H"), 0)]
    assert code_of(game, Swap(1, c("6H"), 0, "high")) == "cannot_relocate"
    game.apply(Swap(1, c("6H"), 0))
    assert game.view(0).melds[0].cards == cs("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    assert c("JK") in game.view(1).hand  # type: ignore[operator]


def test_ruling_11_the_first_wild_of_a_trio_is_replaced() -> None:
    """11. When several wilds in a trío could be replaced, the first one in the meld is."""
    rules = RuleSet.preset("familia", contracts=["1T"], hand_size=5)
    game = start(rules, ["AS 3S 5S 7S 9S", "7H 2C JK 7C KD"], top="QS 10S 2D",
                 wilds=["jokers", "twos"])
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "7H 2C JK"))
    game.apply(Discard(1, c("QS")))
    draw_discard(game, 0)
    game.apply(Draw(1, "mazo"))
    game.apply(Swap(1, c("7C"), 0))
    assert game.view(0).melds[0].cards == cs("7H 7C JK")
    assert c("2C") in game.view(1).hand  # type: ignore[operator]


def test_ruling_11_off_refuses_swaps() -> None:
    """11 / RULES.md: joker replacement `off` refuses every swap."""
    rules = one_escala(hand_size=6, joker_replacement="off")
    game = down_escala_game(rules, "5H JK 7H 8H", "6H 6S", "AS 3S 5S 7S 9S 10D",
                            top="QS 10S 9H")
    game.apply(Draw(1, "mazo"))
    assert code_of(game, Swap(1, c("6H"), 0)) == "swap_off"


# --------------------------------------------------------------------------- the turn

def test_ruling_12_layoff_from_the_next_turn() -> None:
    """12. `agregar` and swaps start from the turn after the contract is complete."""
    for rules in PRESETS.values():
        assert not rules.layoff_same_turn
    rules = one_escala()
    game = start(rules, ["AS 3S 5S 7S 9S", "3H 4H 5H 6H 7H"], top="KC 10S 8H")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "3H 4H 5H 6H"))
    with pytest.raises(IllegalAction) as info:
        game.apply(Agregar(1, c("7H"), 0))
    assert info.value.code == "cannot_agregar"
    assert "next turn" in info.value.message
    game.apply(Discard(1, c("KC")))
    draw_discard(game, 0)
    game.apply(Draw(1, "mazo"))
    game.apply(Agregar(1, c("7H"), 0))
    assert len(game.view(0).melds[0].cards) == 5


def test_ruling_12_layoff_same_turn_option() -> None:
    """12. `layoff_same_turn` lets the player lay off in the turn of the contract."""
    rules = one_escala(layoff_same_turn=True)
    game = start(rules, ["AS 3S 5S 7S 9S", "3H 4H 5H 6H 7H"], top="KC")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "3H 4H 5H 6H"))
    game.apply(Agregar(1, c("7H"), 0))


def test_ruling_12_layoff_at_once_in_go_out_rounds() -> None:
    """12. In a go-out-at-once round agregar is allowed in the same turn."""
    game = start("dos-libres", ["3S 4S 5S 6S 8S 9S 10S JS QS KS AS AD AC",
                                "7H 7S 7D 8H 8S 8D 9H 9S 9D 10H 10S 10D KC"],
                 top="7C", rounds=[8])
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "7H 7S 7D / 8H 8S 8D / 9H 9S 9D / 10H 10S 10D"))
    game.apply(Agregar(1, c("7C"), 0))
    game.apply(Discard(1, c("KC")))
    assert game.score_sheet().rounds[0].went_out == 1  # type: ignore[union-attr]


def at_once_rounds(rules: RuleSet) -> list[int]:
    return [i for i, r in enumerate(rules.rounds, 1) if r.go_out_at_once]


def test_ruling_13_the_go_out_at_once_rounds() -> None:
    """13. chile 7-8, chile-10 7-10, rumi 7-8, chico 4, dos-libres 8, online 7 (and 8)."""
    expected = {"chile": [7, 8], "chile-10": [7, 8, 9, 10], "rumi": [7, 8], "chico": [4],
                "dos-libres": [8], "online": [7], "argentina": [], "familia": []}
    for name, rounds in expected.items():
        assert at_once_rounds(RuleSet.preset(name)) == rounds, name
    online8 = RuleSet.preset("online", rounds=[1, 2, 3, 4, 5, 6, 7, 8])
    assert at_once_rounds(online8) == [7, 8]


def test_ruling_13_bajar_only_if_the_rest_can_go() -> None:
    """13. A `bajar` is legal only if the rest can be laid off, one card left for the discard."""
    hands = ["3S 4S 5S 6S 8S 9S 10S JS QS KS AS AD AC",
             "7H 7S 7D 8H 8S 8D 9H 9S 9D 10H 10S 10D KC"]
    four_trios = "7H 7S 7D / 8H 8S 8D / 9H 9S 9D / 10H 10S 10D"
    game = start("dos-libres", hands, top="QC", rounds=[8])
    game.apply(Draw(1, "mazo"))
    with pytest.raises(IllegalAction) as refused:
        game.apply(bajar(1, four_trios))
    assert refused.value.code == "must_go_out"  # and it names what could not go
    assert refused.value.message.endswith("these cards could not all go: QC KC")
    assert explain(refused.value, "es").endswith(
        "no podrías deshacerte de todas estas cartas: QC KC")
    game = start("dos-libres", hands, top="7C", rounds=[8])
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, four_trios))  # 7C goes on the sevens, KC is the discard


def test_ruling_13_going_out_at_once_may_swap_on_the_way() -> None:
    """13. The rest may go through a swap: a natural card takes a wild card's place, and the
    wild card is then laid off (take), or moves to an end of its escala (relocate). With
    swaps off the same bajar leaves a card that cannot go."""
    rules = RuleSet.preset("chile", contracts=["2E!"], hand_size=9)
    hands = ["5S JK 7S 8S 2H 3H 4H 5H 6S", "AC 3C 5C 7C 9C JC KD QD 9D"]
    melds = "5S JK 7S 8S / 2H 3H 4H 5H"
    for mode in ("take", "relocate", "off"):
        game = start(rules.with_options(joker_replacement=mode), hands, top="9H KC")
        game.apply(Draw(1, "mazo"))
        game.apply(Discard(1, c("KD")))
        game.apply(Draw(0, "mazo"))  # the KC: the 6S and the KC are left after the bajar
        if mode == "off":
            assert code_of(game, bajar(0, melds)) == "must_go_out"
            continue
        game.apply(bajar(0, melds))
        assert code_of(game, Discard(0, c("KC"))) == "must_go_out"  # the 6S would stay
        if mode == "take":
            game.apply(Swap(0, c("6S"), 0))
            game.apply(Agregar(0, c("JK"), 1, "high"))
        else:
            game.apply(Swap(0, c("6S"), 0, "high"))
        game.apply(Discard(0, c("KC")))
        assert game.score_sheet().rounds[0].went_out == 0  # type: ignore[union-attr]


def test_ruling_13_the_discard_must_be_the_last_card() -> None:
    """13. After it, the discard must be the last card."""
    game = start("dos-libres", ["3S 4S 5S 6S 8S 9S 10S JS QS KS AS AD AC",
                                "7H 7S 7D 8H 8S 8D 9H 9S 9D 10H 10S 10D KC"],
                 top="7C", rounds=[8])
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "7H 7S 7D / 8H 8S 8D / 9H 9S 9D / 10H 10S 10D"))
    assert code_of(game, Discard(1, c("KC"))) == "must_go_out"
    assert Discard(1, c("KC")) not in game.legal_actions(1)


def test_ruling_13_only_moves_that_keep_going_out_possible() -> None:
    """13. After the bajar, only moves that keep going out possible are legal."""
    rules = RuleSet.preset("chile", contracts=["1E!"], hand_size=6, joker_replacement="off")
    game = start(rules, ["AS 3S 5S 7S 9S JD", "3H 4H 5H 6H 7H JK"], top="KC")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "3H 4H 5H 6H"))
    # the joker on the 7H's place would strand the 7H (with swaps off: else the 7H could
    # take the joker's place and the joker go to the low end)
    assert code_of(game, Agregar(1, c("JK"), 0, "high")) == "must_go_out"
    assert Agregar(1, c("JK"), 0, "high") not in game.legal_actions(1)
    game.apply(Agregar(1, c("JK"), 0, "low"))
    game.apply(Agregar(1, c("7H"), 0))
    game.apply(Discard(1, c("KC")))
    assert game.score_sheet().rounds[0].went_out == 1  # type: ignore[union-attr]
    game = start(rules.with_options(joker_replacement="take"),
                 ["AS 3S 5S 7S 9S JD", "3H 4H 5H 6H 7H JK"], top="KC")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "3H 4H 5H 6H"))
    game.apply(Agregar(1, c("JK"), 0, "high"))  # the 7H takes its place back
    game.apply(Swap(1, c("7H"), 0))
    assert code_of(game, Discard(1, c("KC"))) == "must_go_out"  # the joker is in hand again
    game.apply(Agregar(1, c("JK"), 0, "low"))
    game.apply(Discard(1, c("KC")))
    assert game.score_sheet().rounds[0].went_out == 1  # type: ignore[union-attr]


def test_ruling_14_going_out_by_agregar_without_discard() -> None:
    """14. A player whose last card goes into a meld has gone out; no discard is needed."""
    for name, rules in PRESETS.items():
        assert rules.go_out_by_layoff == (name != "online"), name
    game = down_escala_game(one_escala(), "3H 4H 5H 6H", "7H", "AS 3S 5S 7S 9S",
                            top="QS 10S 8H")
    game.apply(Draw(1, "mazo"))
    game.apply(Agregar(1, c("7H"), 0))
    game.apply(Agregar(1, c("8H"), 0))
    result = game.score_sheet().rounds[0]
    assert result is not None and result.went_out == 1


def test_ruling_14_going_out_by_bajar() -> None:
    """14. ... by `bajar`: the whole hand laid down is going out."""
    game = start(one_escala(), ["AS 3S 5S 7S 9S", "3H 4H 5H 6H 7H"], top="8H")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "3H 4H 5H 6H 7H 8H"))
    result = game.score_sheet().rounds[0]
    assert result is not None and result.went_out == 1


def test_ruling_14_going_out_by_a_relocating_swap() -> None:
    """14. ... by a relocating swap."""
    rules = one_escala("online", go_out_by_layoff=True)
    game = down_escala_game(rules, "5H JK 7H 8H", "6H", "AS 3S 5S 7S 9S", top="QS 10S 9H")
    game.apply(Draw(1, "mazo"))
    game.apply(Agregar(1, c("9H"), 0))
    game.apply(Swap(1, c("6H"), 0))
    result = game.score_sheet().rounds[0]
    assert result is not None and result.went_out == 1


def test_ruling_14_online_keeps_one_card_for_the_discard() -> None:
    """14. In `online` a play that would empty the hand is refused."""
    rules = one_escala("online")
    game = down_escala_game(rules, "3H 4H 5H 6H", "7H", "AS 3S 5S 7S 9S", top="QS 10S 8H")
    game.apply(Draw(1, "mazo"))
    game.apply(Agregar(1, c("7H"), 0))
    assert code_of(game, Agregar(1, c("8H"), 0)) == "keep_one"
    game.apply(Discard(1, c("8H")))
    assert game.score_sheet().rounds[0].went_out == 1  # type: ignore[union-attr]
    game = down_escala_game(rules, "5H JK 7H 8H", "6H", "AS 3S 5S 7S 9S", top="QS 10S 9H")
    game.apply(Draw(1, "mazo"))
    game.apply(Agregar(1, c("9H"), 0))
    assert code_of(game, Swap(1, c("6H"), 0)) == "keep_one"  # a relocating swap
    loose = one_escala("online", exact_melds=False)
    game = start(loose, ["AS 3S 5S 7S 9S", "3H 4H 5H 6H 7H"], top="8H")
    game.apply(Draw(1, "mazo"))
    assert code_of(game, bajar(1, "3H 4H 5H 6H 7H 8H")) == "keep_one"


ESCALAS_12 = "3H 4H 5H 6H 3S 4S 5S 6S 3D 4D 5D 6D"
OTHER_12 = "AC 2C 3C 4C 5C 7C 8C 9C 10C JC QC 9D"
OTHER_11 = "AC 2C 3C 4C 5C 7C 8C 9C 10C JC QC"


def test_ruling_15_instant_out() -> None:
    """15. Instant out (first meld and out in one turn) scores `instant_out_score` (online -10)."""
    rules = RuleSet.preset("online", rounds=[7])
    game = start(rules, [OTHER_12, ESCALAS_12], top="KC")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "3H 4H 5H 6H / 3S 4S 5S 6S / 3D 4D 5D 6D"))
    game.apply(Discard(1, c("KC")))
    result = game.score_sheet().rounds[0]
    assert result is not None
    assert result.instant
    assert result.scores == (hand_value(rules, OTHER_12), -10)


def test_ruling_15_a_later_out_scores_out_score() -> None:
    """15. Going out in a later turn than the first meld scores `out_score`."""
    rules = one_escala("online", out_score=-3)
    game = down_escala_game(rules, "3H 4H 5H 6H", "7H", "AS 3S 5S 7S 9S", top="QS 10S 8H")
    game.apply(Draw(1, "mazo"))
    game.apply(Agregar(1, c("7H"), 0))
    game.apply(Discard(1, c("8H")))
    result = game.score_sheet().rounds[0]
    assert result is not None and not result.instant
    assert result.scores[1] == -3


def test_ruling_15_a_house_out_score_counts_for_an_instant_out_too() -> None:
    """15. Where the rules set no `instant_out_score`, an instant out scores `out_score`: a
    house that scores -10 for going out does so in the rounds gone out at once too."""
    house = RuleSet.preset("chile", rounds=[7], out_score=-10)
    game = start(house, [OTHER_12, ESCALAS_12], top="KC")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "3H 4H 5H 6H / 3S 4S 5S 6S / 3D 4D 5D 6D"))
    game.apply(Discard(1, c("KC")))
    result = game.score_sheet().rounds[0]
    assert result is not None and result.instant
    assert result.scores == (hand_value(house, OTHER_12), -10)
    # null in a record means the same; a number set apart still scores apart.
    assert RuleSet.from_dict({"preset": "online", "options": {
        "instant_out_score": None}}).out_points(instant=True) == 0
    assert RuleSet.preset("chile", out_score=-10, instant_out_score=0).out_points(True) == 0


def test_ruling_16_partial_contracts() -> None:
    """16. rumi: a `bajar` may lay any melds owed; `agregar` waits for the whole contract."""
    rules = RuleSet.preset("rumi", rounds=[2])
    game = start(rules, ["AS 3S 5S 7S 9S JD KD 2C 4C 6C 8C 10C",
                         "7H 7S 7D 3H 4H 5H 6H 9C JC QC KC 2D"], top="AD 5C 7C")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "7H 7S 7D"))
    assert game.view(0).down == (False, False)
    assert code_of(game, Agregar(1, c("9C"), 0)) == "cannot_agregar"
    game.apply(Discard(1, c("AD")))
    draw_discard(game, 0)
    game.apply(Draw(1, "mazo"))
    assert code_of(game, Agregar(1, c("7C"), 0)) == "cannot_agregar"
    game.apply(bajar(1, "3H 4H 5H 6H"))
    assert game.view(0).down == (False, True)
    assert code_of(game, Agregar(1, c("7C"), 0)) == "cannot_agregar"  # not in that turn


def test_ruling_16_a_part_leaves_two_cards() -> None:
    """16. A part that does not complete the contract must leave at least two cards in hand."""
    rules = RuleSet.preset("rumi", contracts=["2T"], hand_size=5)
    game = start(rules, ["AS 3S 5S 7S 9S", "7H 7S 7D 7C 8H"], top="7H")
    game.apply(Draw(1, "mazo"))
    assert code_of(game, bajar(1, "7H 7S 7D 7C 7H")) == "keep_cards"
    game.apply(bajar(1, "7H 7S 7D 7C"))


def test_ruling_16_at_once_rounds_lay_the_contract_whole() -> None:
    """16. In a go-out-at-once round the contract is laid whole."""
    game = start("rumi", [OTHER_12, ESCALAS_12], top="KC", rounds=[7])
    game.apply(Draw(1, "mazo"))
    assert code_of(game, bajar(1, "3H 4H 5H 6H")) == "not_the_contract"


def test_ruling_17_a_pozo_card_may_be_discarded_again() -> None:
    """17. A card taken from the pozo may be discarded again in the same turn."""
    game = start("chile", [OTHER_12, ESCALAS_12], pozo="KD")
    game.apply(Draw(1, "pozo"))
    assert Discard(1, c("KD")) in game.legal_actions(1)
    game.apply(Discard(1, c("KD")))
    assert game.view(0).pozo == cs("KD")


def test_ruling_18_undo_within_the_turn() -> None:
    """18. The player to act may take back a bajar of this turn; no trace is left in the record."""
    assert RuleSet.preset("online").undo
    game = start("online", [OTHER_11, "7H 7S 7D 8H 8S 8D 4C 4S QD JS KS"], rounds=[1])
    game.apply(Draw(1, "mazo"))
    before = game.view(1).hand
    game.apply(bajar(1, "7H 7S 7D / 8H 8S 8D"))
    with pytest.raises(IllegalAction) as info:
        game.undo(0)
    assert info.value.code == "not_your_turn"
    assert isinstance(game.undo(1), Bajar)
    assert game.view(1).hand == before
    assert game.view(0).melds == ()
    assert game.to_record()["rounds"][0]["actions"] == [{"p": 1, "draw": "mazo"}]


def test_ruling_18_never_the_draw() -> None:
    """18. Never the draw (a card from the mazo has been seen)."""
    game = start("online", [OTHER_11, "7H 7S 7D 8H 8S 8D 4C 4S QD JS KS"], rounds=[1])
    game.apply(Draw(1, "mazo"))
    with pytest.raises(IllegalAction) as info:
        game.undo(1)
    assert info.value.code == "nothing_to_undo"
    assert game.phase == "play" and len(game.view(1).hand) == 12  # type: ignore[arg-type]


def test_ruling_18_not_after_the_discard_nor_without_undo() -> None:
    """18. Only before the discard, and only where the rules allow undo."""
    game = start("online", [OTHER_11, "7H 7S 7D 8H 8S 8D 4C 4S QD JS KS"], rounds=[1])
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "7H 7S 7D / 8H 8S 8D"))
    game.apply(Discard(1, c("KS")))
    with pytest.raises(IllegalAction) as info:
        game.undo()
    assert info.value.code == "nothing_to_undo"
    chile = start("chile", [OTHER_12, "7H 7S 7D 8H 8S 8D 4C 4S QD JS KS 2D"])
    chile.apply(Draw(1, "mazo"))
    chile.apply(bajar(1, "7H 7S 7D / 8H 8S 8D"))
    with pytest.raises(IllegalAction) as info:
        chile.undo(1)
    assert info.value.code == "undo_off"
    host = start("chile", [OTHER_12, "7H 7S 7D 8H 8S 8D 4C 4S QD JS KS 2D"], undo=True)
    host.apply(Draw(1, "mazo"))
    host.apply(bajar(1, "7H 7S 7D / 8H 8S 8D"))
    assert isinstance(host.undo(1), Bajar)


def test_ruling_18_undo_an_agregar() -> None:
    """18. An agregar of this turn may be taken back; the draw stays."""
    game = down_escala_game(one_escala("online"), "3H 4H 5H 6H", "7H", "AS 3S 5S 7S 9S",
                            top="QS 10S 8H")
    game.apply(Draw(1, "mazo"))
    game.apply(Agregar(1, c("7H"), 0))
    assert isinstance(game.undo(1), Agregar)
    assert game.view(0).melds[0].cards == cs("3H 4H 5H 6H")
    assert game.view(1).hand == cs("7H 8H")
    assert game.phase == "play"


# --------------------------------------------------------------------------- buying

THREE = ["AS 3S 5S 7S 9S", "2H 4H 6H 8H 10H", "3D 5D 7D 9D JD"]


def test_ruling_19_the_buying_window() -> None:
    """19. The window opens with a discard and closes when the next player draws; one buy each."""
    rules = one_escala(buying="penalty_card")
    game = start(rules, THREE, pozo="KC", top="QS JC 10C 9C")
    assert code_of(game, Buy(0)) == "cannot_buy"  # no discard yet
    game.apply(Draw(1, "mazo"))
    game.apply(Discard(1, c("QS")))
    assert game.view(0).buy_window
    assert Buy(0) in game.legal_actions(0)
    assert "drawing" in message_of(game, Buy(2))
    assert code_of(game, Buy(1)) == "cannot_buy"
    game.apply(Buy(0))
    assert code_of(game, Buy(1)) == "cannot_buy"  # one card per discard
    assert "bought already" in message_of(game, Buy(1))
    game.apply(Draw(2, "mazo"))
    game.apply(Discard(2, game.view(2).hand[-1]))  # type: ignore[index]
    game.apply(Draw(0, "mazo"))
    assert code_of(game, Buy(1)) == "cannot_buy"  # closed by the draw


def test_ruling_19_the_cap_and_a_down_buyer() -> None:
    """19. A player who is down may buy, at most `max_buys_per_round` times a round (3)."""
    assert all(r.max_buys_per_round == 3 for r in PRESETS.values())
    rules = one_escala(buying="penalty_card", max_buys_per_round=1, hand_size=6)
    game = start(rules, ["3H 4H 5H 6H KS KD", "2C 4C 6C 8C 10C QC", "3D 5D 7D 9D JD KC"],
                 pozo="KC", top="QS JC 10D 9C 8D 7C 6D 5C")
    draw_discard(game, 1)
    draw_discard(game, 2)
    game.apply(Draw(0, "mazo"))
    game.apply(bajar(0, "3H 4H 5H 6H"))
    game.apply(Discard(0, c("KS")))
    game.apply(Draw(1, "mazo"))
    game.apply(Discard(1, c("2C")))
    game.apply(Buy(0))  # down, and buying
    game.apply(Draw(2, "mazo"))
    game.apply(Discard(2, c("3D")))
    game.apply(Draw(0, "mazo"))
    game.apply(Discard(0, c("KD")))
    game.apply(Draw(1, "mazo"))
    game.apply(Discard(1, c("4C")))
    with pytest.raises(IllegalAction) as info:
        game.apply(Buy(0))
    assert "bought once" in info.value.message


def test_ruling_20_penalty_card() -> None:
    """20. `penalty_card`: the buyer takes the top card of the mazo as well."""
    rules = one_escala(buying="penalty_card")
    game = start(rules, THREE, pozo="KC", top="QS JC 10C")
    game.apply(Draw(1, "mazo"))
    game.apply(Discard(1, c("QS")))
    game.apply(Buy(0))
    assert game.view(0).hand == cs("AS 3S 5S 7S 9S QS JC")
    assert game.view(0).pozo == cs("KC")
    assert table_cards(game) == 108


def test_ruling_20_penalty_points_whoever_goes_out() -> None:
    """20. `penalty_points`: 2 per buy added to the buyer's score, whoever goes out."""
    rules = one_escala(buying="penalty_points")
    assert rules.steal_points == 2
    game = start(rules, ["3H 4H 5H 7H 8H", "2C 4C 6C 8C 10C", "3D 5D 7D 9D JD"],
                 pozo="KC", top="6H 9S 10S")
    game.apply(Draw(1, "mazo"))
    game.apply(Discard(1, c("6H")))
    game.apply(Buy(0))
    assert game.view(0).hand == cs("3H 4H 5H 7H 8H 6H")  # no penalty card
    draw_discard(game, 2)
    game.apply(Draw(0, "mazo"))
    game.apply(bajar(0, "3H 4H 5H 6H 7H 8H"))
    game.apply(Discard(0, c("10S")))
    result = game.score_sheet().rounds[0]
    assert result is not None and result.went_out == 0
    assert result.scores[0] == 2


def a_buyer_who_does_not_go_out(rules: RuleSet) -> Game:
    """Seat 0 buys seat 1's QS; seat 1 goes out in its next turn."""
    game = start(rules, ["2C 4C 6C 8C 10C", "3H 4H 5H 6H 9D", "3D 5D 7D 9D JD"],
                 pozo="KC", top="QS JC 10C 7H")
    game.apply(Draw(1, "mazo"))
    game.apply(Discard(1, c("QS")))
    game.apply(Buy(0))
    draw_discard(game, 2)
    draw_discard(game, 0)
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "3H 4H 5H 6H 7H"))
    game.apply(Discard(1, c("9D")))
    return game


def test_ruling_20_steal_points_on_top_of_the_hand() -> None:
    """20. A buyer who does not go out scores the hand plus 2 per buy."""
    rules = one_escala(buying="penalty_points")
    result = a_buyer_who_does_not_go_out(rules).score_sheet().rounds[0]
    assert result is not None and result.went_out == 1
    assert result.scores == (hand_value(rules, "2C 4C 6C 8C 10C QS") + 2, 0,
                             hand_value(rules, "3D 5D 7D 9D JD"))


# --------------------------------------------------------------------------- the mazo, caps

SMALL = {"rounds": [1], "decks": 1, "jokers": 0, "hand_size": 5}
SMALL_HANDS = ["AS 3S 5S 7S 9S", "2H 4H 6H 8H 10H"]


def test_ruling_21_reshuffle_keeps_the_pozo_top() -> None:
    """21. An empty mazo is rebuilt from the pozo but its top card, when a card must come from
    it; replays agree."""
    rules = RuleSet.preset("chile", **SMALL)
    game = start(rules, SMALL_HANDS, pozo="KC")
    assert game.view(0).mazo_count == 41
    last = None
    for _ in range(41):
        last = draw_discard(game, game.seat_to_act)  # type: ignore[arg-type]
    view = game.view(0)
    assert view.mazo_count == 0 and len(view.pozo) == 42 and view.reshuffles == 0
    seat = game.seat_to_act
    assert seat is not None and Draw(seat, "mazo") in game.legal_actions(seat)
    again = replay(game.to_record()).game
    assert again is not None
    for g in (game, again):
        g.apply(Draw(seat, "mazo"))
    view = game.view(0)
    assert view.pozo == (last,) and view.mazo_count == 40 and view.reshuffles == 1
    assert table_cards(game) == 52
    assert game.view(seat).hand == again.view(seat).hand


def test_ruling_21_the_pozo_is_reshuffled_as_often_as_needed() -> None:
    """21 (RULES.md, stock runs out): no cap by default; a table's cap ends the round sooner."""
    free = start(RuleSet.preset("chile", **SMALL), SMALL_HANDS, pozo="KC")
    capped = start(RuleSet.preset("chile", max_reshuffles=3, **SMALL), SMALL_HANDS, pozo="KC")
    for _ in range(4 * 41):  # the deck gone through four times: three reshuffles
        for game in (free, capped):
            draw_discard(game, game.seat_to_act)  # type: ignore[arg-type]
    assert capped.seat_to_act is None and capped.score_sheet().rounds[0] is not None
    for _ in range(41):  # a fourth reshuffle, and a fifth
        draw_discard(free, free.seat_to_act)  # type: ignore[arg-type]
    assert free.seat_to_act is not None and table_cards(free) == 52
    assert RuleSet.from_dict({"preset": "chile", "options": {"max_reshuffles": None}}
                             ).max_reshuffles is None


def test_ruling_21_the_reshuffle_is_written_down() -> None:
    """21. The pozo but its top, bottom to top, shuffled by the round's reshuffle generator;
    the last card of the shuffle is the new top of the mazo."""
    rules = RuleSet.preset("chile", **SMALL)
    game = start(rules, SMALL_HANDS, pozo="KC")  # a deal without a seed: seed 0
    for _ in range(40):
        draw_discard(game, game.seat_to_act)  # type: ignore[arg-type]
    before = list(game.view(0).pozo)  # the mazo holds one card: the next draw empties it
    assert game.view(0).mazo_count == 1
    draw_discard(game, game.seat_to_act)  # type: ignore[arg-type]
    expected = list(before)
    random.Random("carioca:reshuffle:0").shuffle(expected)
    seat = game.seat_to_act
    assert seat is not None
    game.apply(Draw(seat, "mazo"))
    hand = game.view(seat).hand
    assert hand is not None and hand[-1] == expected[-1]


def test_ruling_21_max_reshuffles_ends_the_round() -> None:
    """21. Past `max_reshuffles` the round ends before the next draw; everyone scores the hand."""
    assert all(r.max_reshuffles is None for r in PRESETS.values())  # RULES.md: no cap
    rules = RuleSet.preset("chile", max_reshuffles=0, **SMALL)
    game = start(rules, SMALL_HANDS, pozo="KC")
    for _ in range(41):
        draw_discard(game, game.seat_to_act)  # type: ignore[arg-type]
    assert game.seat_to_act is None
    result = game.score_sheet().rounds[0]
    assert result is not None and result.went_out is None
    assert result.scores == tuple(hand_value(rules, h) for h in SMALL_HANDS)
    assert game.score_sheet().to_json()["rounds"][0]["went_out"] is None


def test_ruling_21_max_turns_per_round() -> None:
    """21. A round ends after `max_turns_per_round` turns; nobody out (0 marks each)."""
    assert all(r.max_turns_per_round == 600 for r in PRESETS.values())
    rules = RuleSet.preset("familia", max_turns_per_round=10, **SMALL)
    game = start(rules, SMALL_HANDS, pozo="KC")
    loop_pozo(game, 9)
    assert game.seat_to_act is not None
    loop_pozo(game, 1)
    assert game.seat_to_act is None
    result = game.score_sheet().rounds[0]
    assert result is not None and result.went_out is None
    assert result.scores == (0, 0)



def test_ruling_21_mazo_emptied_by_a_penalty_card() -> None:
    """21. A penalty card that empties the mazo leaves the player to act only legal moves."""
    rules = RuleSet.preset("chile", buying="penalty_card", **SMALL)
    game = start(rules, [*SMALL_HANDS, "3D 5D 7D 9D JD"], pozo="KC")
    while game.view(0).mazo_count > 1:
        draw_discard(game, game.seat_to_act)  # type: ignore[arg-type]
    seat = game.seat_to_act
    assert seat is not None
    game.apply(Buy((seat + 1) % 3))
    # The penalty card emptied the mazo: it is rebuilt from the pozo when a card must come
    # from it (or, if it could not be, the round is over); every listed action can be played.
    view = game.view(0)
    assert view.mazo_count == 0 and view.reshuffles == 0
    legal = list(game.legal_actions(seat))
    assert Draw(seat, "mazo") in legal
    assert all(game.can_apply(a) for a in legal), [str(a) for a in legal]
    game.apply(Draw(seat, "mazo"))
    assert game.view(0).reshuffles == 1 and len(game.view(0).pozo) == 1

def run_the_mazo_out(buying: str) -> tuple[Game, Card, Card]:
    """Three players draw and throw until the last mazo card is thrown: the game, that card
    (the pozo top, on offer) and the card under it."""
    game = start(RuleSet.preset("chile", buying=buying, **SMALL),
                 [*SMALL_HANDS, "3D 5D 7D 9D JD"], pozo="KC")
    while game.view(0).mazo_count:
        draw_discard(game, game.seat_to_act)  # type: ignore[arg-type]
    pozo = game.view(0).pozo
    assert game.view(0).reshuffles == 0 and len(pozo) == 37
    return game, pozo[-1], pozo[-2]


def test_ruling_20_a_buy_after_the_mazo_ran_out_takes_the_pozo_top_first() -> None:
    """20-21. The mazo is rebuilt when a card must come from it. A buy of the card thrown as the
    mazo ran out takes that card; then the penalty card comes from the pozo but its new top
    (the card that lay under the one bought), which stays on the pozo for the next player."""
    game, thrown, under = run_the_mazo_out("penalty_card")
    seat = game.seat_to_act
    assert seat is not None
    buyer = (seat + 1) % 3
    before = game.view(0).pozo[:-2]
    game.apply(Buy(buyer))
    view = game.view(buyer)
    assert view.pozo == (under,) and view.reshuffles == 1 and view.mazo_count == 34
    assert view.hand is not None and view.hand[-2] == thrown and view.hand[-1] in before
    game.apply(Draw(seat, "pozo"))
    assert game.view(seat).hand[-1] == under  # type: ignore[index]


def test_ruling_20_a_buy_for_points_leaves_the_mazo_to_the_next_draw() -> None:
    """20-21. With `penalty_points` no card must come from the mazo: the buy takes the pozo
    top, and the card under it is the next player's to take; the mazo is rebuilt at a draw."""
    game, thrown, under = run_the_mazo_out("penalty_points")
    seat = game.seat_to_act
    assert seat is not None
    game.apply(Buy((seat + 1) % 3))
    view = game.view(0)
    assert view.pozo[-1] == under and view.mazo_count == 0 and view.reshuffles == 0
    assert set(game.legal_actions(seat)) == {Draw(seat, "mazo"), Draw(seat, "pozo")}
    game.apply(Draw(seat, "mazo"))
    view = game.view(0)
    assert view.pozo == (under,) and view.reshuffles == 1 and view.mazo_count == 34


def test_ruling_21_a_buy_that_leaves_no_mazo_to_rebuild_ends_the_round() -> None:
    """20-21. The mazo ran out; buys for points take the pozo down to its last card: with no
    mazo and no pozo to rebuild it from, the round ends before the next draw, nobody out, each
    hand scored with 2 a buy."""
    rules = RuleSet.preset("chile", decks=1, jokers=0, hand_size=12, rounds=[1],
                           buying="penalty_points")
    ranks = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")
    suits = [" ".join(f"{r}{s}" for r in ranks) for s in "SHDC"]
    game = Game(rules, ["Ana", "Beto", "Caro", "Dani"])
    game.start_round(make_deal(rules, suits, pozo="KS", top="KH KD KC"))
    for seat in (1, 2, 3):  # the mazo's three cards, each drawn and thrown
        draw_discard(game, seat)
    assert game.view(0).mazo_count == 0 and len(game.view(0).pozo) == 4
    game.apply(Buy(1))  # the KC: the pozo keeps three, enough to rebuild a mazo
    game.apply(Draw(0, "pozo"))
    game.apply(Discard(0, c("KD")))
    game.apply(Buy(2))  # the KD: two left
    game.apply(Draw(1, "pozo"))
    game.apply(Discard(1, c("KH")))
    assert game.seat_to_act == 2
    game.apply(Buy(3))  # the KH: the KS alone, no mazo to rebuild
    result = game.score_sheet().rounds[0]
    assert game.seat_to_act is None and result is not None and result.went_out is None
    assert result.scores == (hand_value(rules, suits[0]),
                             hand_value(rules, suits[1] + " KC") + 2,
                             hand_value(rules, suits[2] + " KD") + 2,
                             hand_value(rules, suits[3] + " KH") + 2)


# --------------------------------------------------------------------------- scoring

def test_ruling_22_whole_hand_counts() -> None:
    """22. Everyone but the player who went out scores every card in hand, down or not."""
    rules = one_escala()
    game = start(rules, ["3S 4S 5S 6S AD", "3H 4H 5H 6H KC", "2C 4C 6C 8C 10C"],
                 top="QS JC 10C 7H")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "3H 4H 5H 6H"))
    game.apply(Discard(1, c("QS")))
    draw_discard(game, 2)
    game.apply(Draw(0, "mazo"))
    game.apply(bajar(0, "3S 4S 5S 6S"))
    game.apply(Discard(0, c("10C")))
    game.apply(Draw(1, "mazo"))
    game.apply(Agregar(1, c("7H"), 0))
    game.apply(Discard(1, c("KC")))
    result = game.score_sheet().rounds[0]
    assert result is not None
    assert result.scores == (20, 0, hand_value(rules, "2C 4C 6C 8C 10C"))


EVEN = ["3H 5S 7D 9C KH", "3S 5D 7C 9H KS"]


def test_ruling_23_share() -> None:
    """23. `share`: every tied leader wins."""
    rules = one_escala(max_turns_per_round=10)
    assert rules.tie_break == "share"
    game = start(rules, EVEN)
    loop_pozo(game, 10)
    sheet = game.score_sheet()
    assert sheet.finished and sheet.totals[0] == sheet.totals[1]
    assert sheet.winners == (0, 1)


def two_round_game(outs: Sequence[int | None]) -> Game:
    """chile-10 (most_outs), every card worth 0, two one-escala rounds; in round r the seat
    in ``outs`` goes out in its first turn, or nobody does."""
    rules = RuleSet.preset("chile-10", contracts=["1E", "1E"], hand_size=5,
                           values=ZERO_VALUES, max_turns_per_round=10)
    assert rules.tie_break == "most_outs"
    game = Game(rules, NAMES[:2])
    for number, out in enumerate(outs, 1):
        first = number % 2
        hands = ["3S 4S 5S 6S 7S", "3H 4H 5H 6H 7H"]
        if out is None:
            hands = ["3S 5S 7S 9S JS", "3H 5H 7H 9H JH"]
        game.start_round(make_deal(rules, hands, pozo="KC", top="8S" if first == 0 else "8H"))
        if out is None:
            loop_pozo(game, 10)
        else:
            assert out == first
            game.apply(Draw(out, "mazo"))
            suit = "S" if out == 0 else "H"
            game.apply(bajar(out, " ".join(f"{r}{suit}" for r in "345678")))
    assert game.is_over
    return game


def test_ruling_23_most_outs() -> None:
    """23. `most_outs`: most outs, then the latest round's out, then shared."""
    assert two_round_game([1, None]).score_sheet().winners == (1,)
    assert two_round_game([1, 0]).score_sheet().winners == (0,)
    assert two_round_game([None, None]).score_sheet().winners == (0, 1)


def test_ruling_23_extra_round() -> None:
    """23. `extra_round`: the last contract and hand size again, up to 3 times; then shared."""
    rules = RuleSet.preset("chile", contracts=["2T", "1E"], hand_size=[6, 5],
                           tie_break="extra_round", max_turns_per_round=10)
    game = Game(rules, NAMES[:2])
    game.start_round(make_deal(rules, ["3H 5S 7D 9C KH QD", "3S 5D 7C 9H KS QC"]))
    loop_pozo(game, 10)
    for number in range(2, 6):
        assert not game.is_over
        game.start_round(make_deal(rules, EVEN))
        view = game.view(0)
        assert (view.round, view.contract, view.hand_size) == (number, "1E", 5)
        loop_pozo(game, 10)
    assert game.is_over
    assert len(game.score_sheet().rounds) == 5
    assert game.score_sheet().winners == (0, 1)


def test_ruling_23_an_extra_round_decides() -> None:
    """23. The extra round is played for real: who wins it on points wins the game."""
    rules = one_escala(tie_break="extra_round", max_turns_per_round=10)
    game = start(rules, EVEN)
    loop_pozo(game, 10)
    assert not game.is_over
    game.start_round(make_deal(rules, ["3H 4H 5H 6H 7H", "3S 5D 7C 9H KS"], top="8H"))
    game.apply(Draw(0, "mazo"))
    game.apply(bajar(0, "3H 4H 5H 6H 7H 8H"))
    assert game.is_over
    assert game.score_sheet().winners == (0,)


def test_ruling_24_rounds_scoring() -> None:
    """24. Rounds scoring (familia): a mark for going out; the most marks win."""
    rules = RuleSet.preset("familia", contracts=["1E3", "1E3", "1E3"], hand_size=4)
    assert rules.scoring == "rounds"
    game = Game(rules, NAMES[:2])
    for number in (1, 2, 3):
        out = number % 2
        suit = "S" if out == 0 else "H"
        other = "H" if out == 0 else "S"
        hands = ["", ""]
        hands[out] = " ".join(f"{r}{suit}" for r in "3456")
        hands[1 - out] = " ".join(f"{r}{other}" for r in "3579")
        game.start_round(make_deal(rules, hands, pozo="KC", top=f"7{suit}"))
        game.apply(Draw(out, "mazo"))
        game.apply(bajar(out, " ".join(f"{r}{suit}" for r in "34567")))
    sheet = game.score_sheet()
    assert [r.scores for r in sheet.rounds] == [(0, 1), (1, 0), (0, 1)]  # type: ignore[union-attr]
    assert sheet.totals == (1, 2)
    assert sheet.winners == (1,)


# --------------------------------------------------------------------------- vague presets

def test_ruling_25_argentina() -> None:
    """25. argentina: chile's first seven, 11 cards, twos not wild (worth 2), A 15, JK 50, 106."""
    rules = RuleSet.preset("argentina")
    chile = RuleSet.preset("chile")
    assert [r.contracts for r in rules.rounds] == [r.contracts for r in chile.rounds[:7]]
    assert [r.hand_size for r in rules.rounds] == [11] * 7
    assert not rules.is_wild(c("2C")) and rules.is_wild(c("JK"))
    assert (rules.value(c("2C")), rules.value(c("AS")), rules.value(c("JK"))) == (2, 15, 50)
    assert len(deck(*rules.deck_for(4))) == 106
    assert rules.bury_wild_first_discard
    assert rules.joker_replacement == "anyone"
    game = start(rules, ["3S 4S 5S 6S 8S 9S 10S JS QS KS AS",
                         "7H 7S 2C 8H 8S 8D 4C 4S QD JD KD"], rounds=[1])
    game.apply(Draw(1, "mazo"))
    assert code_of(game, bajar(1, "7H 7S 2C / 8H 8S 8D")) == "not_the_contract"


def test_ruling_26_chico() -> None:
    """26. chico is chile with rounds 1, 3, 5 and 7 only; `rounds` numbers its own four."""
    chico = RuleSet.preset("chico")
    chile = RuleSet.preset("chile")
    assert chico.rounds == tuple(chile.rounds[i - 1] for i in (1, 3, 5, 7))
    assert [str(r) for r in RuleSet.preset("chico", rounds=[2]).rounds] == ["2E"]
    assert RuleSet.preset("chico", rounds=[4]).rounds[0].go_out_at_once
    with pytest.raises(RulesError, match="no round 5"):
        RuleSet.preset("chico", rounds=[5])


CHILE_CONTRACTS = ["2T", "1T+1E", "2E", "3T", "2T+1E", "1T+2E", "3E!"]


def test_ruling_27_dos_libres_round_8_four_trios_only() -> None:
    """27. dos-libres round 8 is four tríos only: four escalas need 16 cards, a hand holds 14."""
    rules = RuleSet.preset("dos-libres")
    last = rules.rounds[7]
    assert [str(x) for x in last.contracts] == ["4T"]
    assert (last.hand_size, last.go_out_at_once) == (13, True)
    with pytest.raises(RulesError) as info:
        RuleSet.preset("dos-libres", contracts=[*CHILE_CONTRACTS, "4T|4E!"])
    assert "16 cards" in str(info.value) and "14" in str(info.value)
    with pytest.raises(RulesError, match="16 cards"):
        RuleSet.preset("dos-libres", contracts=["4T|4E"])
    doc = {"format": "carioca-record/1",
           "rules": {"preset": "dos-libres",
                     "options": {"contracts": [*CHILE_CONTRACTS, "4T|4E!"]}},
           "players": ["Ana", "Beto"], "rounds": []}
    error = replay(doc).error
    assert error is not None and "16 cards" in error.message and "14" in error.message


def test_ruling_28_online_round_8_is_optional() -> None:
    """28. online round 8, the escalera real, is optional and deals 13 cards."""
    assert len(RuleSet.preset("online").rounds) == 7
    rules = RuleSet.preset("online", rounds=[1, 2, 3, 4, 5, 6, 7, 8])
    last = rules.rounds[7]
    assert (str(last), last.hand_size, last.go_out_at_once) == ("ER", 13, True)
    hearts = REAL.replace(" KH", "")
    game = start("online", ["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", f"{hearts} KC"],
                 top="KH", rounds=[8])
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, REAL))
    game.apply(Discard(1, c("KC")))
    result = game.score_sheet().rounds[0]
    assert result is not None and result.went_out == 1 and result.scores[1] == -10


def test_ruling_29_chile_10_escala_sucia_is_going_out() -> None:
    """29. chile-10 round 9 deals 12 cards: laying the 13-card escala sucia is going out."""
    rules = RuleSet.preset("chile-10")
    assert [r.hand_size for r in rules.rounds[8:]] == [12, 12]
    sucia = cs(SUCIA)
    game = start(rules, ["AS 3S 5S 7S 9S JS KS 2D 4D 6D 8D 10D",
                         " ".join(str(x) for x in sucia[:12])], top="KH", rounds=[9])
    game.apply(Draw(1, "mazo"))
    game.apply(Bajar(1, (sucia,)))
    result = game.score_sheet().rounds[0]
    assert result is not None and result.went_out == 1


def test_ruling_29_chile_10_escala_real_is_going_out() -> None:
    """29. ... and the escala real of round 10."""
    hearts = REAL.replace(" KH", "")
    game = start("chile-10", ["AS 3S 5S 7S 9S JS KS 2D 4D 6D 8D 10D", hearts], top="KH",
                 rounds=[10])
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, REAL))
    result = game.score_sheet().rounds[0]
    assert result is not None and result.went_out == 1


def test_ruling_30_familia_open_hands_off_by_default() -> None:
    """30. familia leaves open hands off by default; `open_hands` turns them on."""
    hands = ["3S 4S 5S 6S 8S 9S 10S JS QS KS AS AD", "7H 7S 7D 8H 8S 8D 4C 4S QD JD KD 2C"]
    closed = start("familia", hands)
    assert closed.view(0).open_hands is None
    assert closed.view(0).to_json()["open_hands"] is None
    opened = start("familia", hands, open_hands=True)
    assert opened.view(0).open_hands is not None
    assert opened.view(0).open_hands[1] == cs(hands[1])


# --------------------------------------------------------------------------- records, options

def test_ruling_31_unknown_fields_are_an_error() -> None:
    """31. A field the record format does not have, in a round, a deal, an action or the
    rules, is an error that names it; the document's own notes (PGN's tags) are let be."""
    doc = Game.new(RuleSet.preset("chile", rounds=[1]), NAMES[:2], seed=4).to_record()
    dated = {**doc, "date": "2026-12-04", "event": "once de septiembre"}
    assert replay(dated).to_json() == replay(doc).to_json()
    seeded = {**doc, "rounds": [{**doc["rounds"][0], "sead": 3}]}
    assert "unknown field(s): sead" in replay(seeded).to_json()["error"]["message"]
    # A field that belongs inside, left at the top, would be a change quietly ignored.
    for stray in ({"options": {"out_score": -10}}, {"buying": "penalty_card"}, {"seed": 3}):
        said = replay({**doc, **stray}).to_json()["error"]["message"]
        assert f"'{next(iter(stray))}' belongs inside" in said
    timed = {**doc, "rounds": [{**doc["rounds"][0],
                                "actions": [{"p": 1, "draw": "mazo", "t": 3}]}]}
    error = replay(timed).to_json()["error"]
    assert (error["round"], error["action"]) == (1, 1) and "t)" in error["message"]


def test_ruling_32_words_and_cards_in_any_case() -> None:
    """32. Cards, the preset's name and the words mazo, pozo, low and high are read in any
    case; a record is written in the canonical form."""
    rules = one_escala()
    game = start(rules, ["3H 4H 5H 7H 8H", "2C 4C 6C 8C 10C"], top="6H 9S")
    game.apply(Draw(1, "mazo"))
    game.apply(Discard(1, c("6H")))
    game.apply(Draw(0, "pozo"))
    doc = game.to_record()
    shouted = {**doc, "rules": {**doc["rules"], "preset": "Chile"},
               "rounds": [{**doc["rounds"][0], "actions": [{"p": 1, "draw": "MAZO"},
                                                           {"p": 1, "discard": "6h"},
                                                           {"p": 0, "draw": " Pozo"}]}]}
    again = replay(shouted).game
    assert again is not None and again.to_record() == doc
    from carioca.actions import Action
    assert Action.from_json({"p": 0, "agregar": {"card": "jk", "meld": 0, "end": "LOW"}},
                            2) == Agregar(0, c("JK"), 0, "low")


def test_ruling_33_rounds_in_the_order_listed() -> None:
    """33. `rounds` plays the listed rounds in the order given; a round may come again."""
    rules = RuleSet.preset("chile", rounds=[3, 1, 1])
    assert [str(r.contracts[0]) for r in rules.rounds] == ["2E", "2T", "2T"]
    assert len(RuleSet.preset("chile", rounds=[8] * 100).rounds) == 100  # at most 100
    with pytest.raises(RulesError, match="at most 100"):
        RuleSet.preset("chile", rounds=[8] * 101)


def test_ruling_34_values_come_from_the_value_table() -> None:
    """34. A card is worth what the value table says, whatever is wild: a two made natural
    in `dos-libres` still costs 25 unless `values` says otherwise (as `argentina` does)."""
    two = c("2S")
    natural_twos = RuleSet.preset("dos-libres", wilds=["jokers"])
    assert not natural_twos.is_wild(two) and natural_twos.value(two) == 25
    assert RuleSet.preset("dos-libres", wilds=["jokers"], values={"2": 2}).value(two) == 2
    assert RuleSet.preset("argentina").value(two) == 2
    online = RuleSet.preset("online", wilds=["jokers", "red_aces"])
    assert online.is_wild(c("AH")) and online.value(c("AH")) == online.value(c("AS")) == 15


def test_ruling_35_no_steal_points_in_rounds_scoring() -> None:
    """35. In rounds scoring a round gives marks only: steal points do not count."""
    rules = one_escala(buying="penalty_points", scoring="rounds")
    result = a_buyer_who_does_not_go_out(rules).score_sheet().rounds[0]
    assert result is not None and result.scores == (0, 1, 0)


def test_ruling_36_the_wild_limit_counts_per_meld() -> None:
    """36. `max_wilds_per_meld` counts the wilds of each meld, also for the English source's
    "lenient" limit ("max 1 in the contract, unlimited in lay-offs"): each meld of the contract
    holds one wild at most when laid; `wild_limit_on_layoff` off lets lay-offs add more."""
    hands = ["7H 7S JK QS QH QD JK 2C 4C 6C 8C", "3D 5D 7D 9D JD KD 3C 5C 9C JC KC"]
    for lenient in (True, False):
        rules = RuleSet.preset("online", rounds=[1], wild_limit_on_layoff=not lenient)
        assert rules.max_wilds_per_meld == 1
        game = start(rules, hands, top="9H 5S 9S JK")
        draw_discard(game, 1)
        game.apply(Draw(0, "mazo"))
        assert "wild" in message_of(game, bajar(0, "7H JK JK / QS QH QD"))  # two in one
        game.apply(bajar(0, "7H 7S JK / QS QH JK"))  # one wild in each meld
        game.apply(Discard(0, c("QD")))
        draw_discard(game, 1)
        game.apply(Draw(0, "mazo"))
        second_wild = Agregar(0, c("JK"), 0)
        if lenient:
            game.apply(second_wild)
            assert game.view(0).melds[0].wild_count == 2
        else:
            assert "wild" in message_of(game, second_wild)


# =========================================================================== RULES.md rows

def test_rules_md_players() -> None:
    """RULES.md players: 2-8, limited by preset."""
    for name, rules in PRESETS.items():
        assert 2 <= rules.min_players <= rules.max_players <= 8, name
    with pytest.raises(RulesError):
        RuleSet.preset("chile", max_players=9)
    with pytest.raises(RulesError):
        Game(RuleSet.preset("chile"), ["Ana"])
    with pytest.raises(RulesError):
        Game(RuleSet.preset("chile"), [*NAMES, "Ines"])


def test_rules_md_decks_jokers() -> None:
    """RULES.md decks, jokers: options; the preset picks them by player count."""
    chile = RuleSet.preset("chile")
    assert (chile.deck_for(5), chile.deck_for(6)) == ((2, 2), (3, 2))
    assert RuleSet.preset("chile", decks=3, jokers=1).deck_for(2) == (3, 1)
    game = Game(RuleSet.preset("chile", decks=1, jokers=0, rounds=[1], hand_size=5),
                NAMES[:2], seed=1)
    game.start_round()
    assert table_cards(game) == 52


def test_rules_md_wild_cards() -> None:
    """RULES.md wild cards: the set of wild cards is an option: jokers / twos / red aces."""
    chile = RuleSet.preset("chile")
    assert chile.wilds == frozenset({"jokers"})
    assert [chile.is_wild(c(x)) for x in ("JK", "2C", "AH")] == [True, False, False]
    twos = RuleSet.preset("chile", wilds=["jokers", "twos"])
    assert [twos.is_wild(c(x)) for x in ("JK", "2C", "2H", "AH")] == [True, True, True, False]
    aces = RuleSet.preset("online", wilds=["red_aces"])
    # as RULES.md writes them ("red aces"), in any case; a record writes the option's spelling
    as_written = RuleSet.from_dict({"preset": "online", "options": {"wilds": ["Red aces"]}})
    assert as_written == aces and as_written.to_dict()["options"] == {"wilds": ["red_aces"]}
    assert [aces.is_wild(c(x)) for x in ("JK", "AH", "AD", "AS", "AC")] == [
        False, True, True, False, False]
    with pytest.raises(MeldError):
        read_meld(cs("7H 7S JK"), "trio", aces)  # jokers are not wild here
    game = start("online", ["3S 4S 5S 6S 8S 9S 10S JS QS KS AS",
                            "AH 2H 3H JK 9H 9D AD 4C 5C 7C QD"],
                 rounds=[2], wilds=["jokers", "red_aces"])
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "AH 2H 3H JK / 9H 9D AD"))
    escala, trio = game.view(0).melds
    assert escala.wild == (False, False, False, True)  # the red ace at its own place
    assert trio.wild == (False, False, True)


def test_rules_md_cards_dealt() -> None:
    """RULES.md cards dealt: the per-round hand size is part of the round definition."""
    expected = {"chile": [12] * 8, "chile-10": [12] * 10, "dos-libres": [11] * 7 + [13],
                "argentina": [11] * 7, "rumi": [12] * 8, "chico": [12] * 4,
                "familia": [12] * 4, "online": [11] * 6 + [12]}
    for name, sizes in expected.items():
        assert [r.hand_size for r in RuleSet.preset(name).rounds] == sizes, name
    game = Game.new(RuleSet.preset("dos-libres", rounds=[8]), NAMES[:3], seed=4)
    assert game.view(0).hand_counts == (13, 13, 13)
    wrong = Game(RuleSet.preset("chile"), NAMES[:2])
    with pytest.raises(IllegalAction) as info:
        wrong.start_round(make_deal(wrong.rules, [OTHER_11, OTHER_11.replace("C", "D")]))
    assert info.value.code == "bad_deal" and "deals 12" in info.value.message


def test_rules_md_first_discard() -> None:
    """RULES.md first discard: an option; dos-libres buries wilds."""
    buried = {name for name, r in PRESETS.items() if r.bury_wild_first_discard}
    assert buried == {"dos-libres", "argentina"}
    rules = RuleSet.preset("dos-libres")
    for seed in range(40):
        top = Game.new(rules, NAMES[:4], seed=seed).view(0).pozo_top
        assert top is not None and not rules.is_wild(top)


def test_rules_md_turn() -> None:
    """RULES.md turn: draw (mazo or pozo top), optionally bajarse / lay off, discard."""
    for name in PRESETS:
        game = Game.new(RuleSet.preset(name), NAMES[:2], seed=3)
        seat = game.seat_to_act
        assert seat == 1
        assert game.legal_actions(seat).kinds() == {"draw"}
        assert code_of(game, Discard(seat, game.view(seat).hand[0])) == "draw_first"  # type: ignore[index]
        assert code_of(game, Draw(0, "mazo")) == "not_your_turn"
        game.apply(Draw(seat, "pozo"))
        assert code_of(game, Draw(seat, "mazo")) == "drawn_already"
        assert "discard" in game.legal_actions(seat).kinds()
        game.apply(Discard(seat, game.view(seat).hand[0]))  # type: ignore[index]
        assert game.seat_to_act == 0 and game.phase == "draw"


def test_rules_md_contract() -> None:
    """RULES.md contract: all at once; option `partial_contracts` (Peru)."""
    assert {n for n, r in PRESETS.items() if r.partial_contracts} == {"rumi"}
    hands = [OTHER_12, "7H 7S 7D 3H 4H 5H 6H 9D JD QD KD 2D"]
    game = start("chile", hands, rounds=[2])
    game.apply(Draw(1, "mazo"))
    assert "the contract has 2 melds, and these are 1 meld" in message_of(
        game, bajar(1, "7H 7S 7D"))
    from carioca.engine import _count_reason
    assert _count_reason(2, ["one owed meld"]) == "the contract has 1 meld, and these are 2 melds"  # type: ignore[list-item]
    game = start("chile", hands, rounds=[2], partial_contracts=True)
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "7H 7S 7D"))
    assert game.view(0).down == (False, False)


def test_rules_md_trio() -> None:
    """RULES.md trío: 3+ when laid down unless a preset says exactly 3 (online)."""
    chile = RuleSet.preset("chile")
    assert len(read_meld(cs("7H 7S 7D 7C 7H"), "trio", chile).cards) == 5
    with pytest.raises(MeldError, match="3 cards"):
        read_meld(cs("7H 7S"), "trio", chile)
    assert {n for n, r in PRESETS.items() if r.exact_melds} == {"online"}


def test_rules_md_escala() -> None:
    """RULES.md escala: the minimum length is per contract; no rank twice in one escala."""
    hands = [OTHER_12, "3H 4H 5H 6H 7H 9S 9D 9C JD QD KD 2D"]
    game = start("chile", hands, pozo="KS", contracts=["1T+1E5"])
    game.apply(Draw(1, "mazo"))
    assert code_of(game, bajar(1, "3H 4H 5H 6H / 9S 9D 9C")) == "not_the_contract"
    game.apply(bajar(1, "3H 4H 5H 6H 7H / 9S 9D 9C"))
    familia = start("familia", hands, pozo="KS", rounds=[2])
    familia.apply(Draw(1, "mazo"))
    familia.apply(bajar(1, "3H 4H 5H / 9S 9D 9C"))  # familia: escalas of 3
    with pytest.raises(MeldError, match="twice"):
        read_meld(cs("3H 4H 4H 5H"), "escala", RuleSet.preset("chile"))



def test_rules_md_escala_too_short_says_why() -> None:
    """RULES.md escala / record spec: the refusal names the rule broken (too short)."""
    hands = [OTHER_12, "3H 4H 5H 6H 7H 9S 9D 9C JD QD KD 2D"]
    for order in ("3H 4H 5H 6H / 9S 9D 9C", "9S 9D 9C / 3H 4H 5H 6H"):
        game = start("chile", hands, pozo="KS", contracts=["1T+1E5"])
        game.apply(Draw(1, "mazo"))
        assert "5 cards" in message_of(game, bajar(1, order)), order

def test_rules_md_ace_in_escala() -> None:
    """RULES.md ace in escala: low or high, never both; option `wrap` (only online sets it)."""
    assert {n for n, r in PRESETS.items() if r.wrap} == {"online"}
    chile = RuleSet.preset("chile")
    assert read_meld(cs("AS 2S 3S 4S"), "escala", chile).start == 1
    assert read_meld(cs("JS QS KS AS"), "escala", chile).start == 11
    with pytest.raises(MeldError, match="K-A-2"):
        read_meld(cs("KS AS 2S 3S"), "escala", chile)
    assert read_meld(cs("KS AS 2S 3S"), "escala", RuleSet.preset("online")).start == 13


def test_rules_md_wilds_per_meld() -> None:
    """RULES.md wilds per meld: default 1; none = unlimited (familia); a natural card each."""
    assert {n: r.max_wilds_per_meld for n, r in PRESETS.items()} == {
        n: (None if n == "familia" else 1) for n in PRESETS}
    assert all(r.wild_limit_on_layoff for r in PRESETS.values())
    with pytest.raises(MeldError, match="only one wild"):
        read_meld(cs("7H JK JK"), "trio", RuleSet.preset("chile"))
    assert read_meld(cs("7H JK JK JK"), "trio", RuleSet.preset("familia")).wild_count == 3
    assert read_meld(cs("7H JK JK"), "trio", RuleSet.preset("chile", max_wilds_per_meld=2))
    with pytest.raises(MeldError, match="natural"):
        read_meld(cs("JK JK JK"), "trio", RuleSet.preset("familia"))


def trio_layoff_game(**options: Any) -> Game:
    rules = RuleSet.preset("chile", contracts=["1T"], hand_size=5, **options)
    game = start(rules, ["AS 3S 5S 7S 9S", "7H 7S JK JK KD"], top="QS 10S 2D")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "7H 7S JK"))
    game.apply(Discard(1, c("QS")))
    draw_discard(game, 0)
    game.apply(Draw(1, "mazo"))
    return game


def test_rules_md_wild_limit_on_layoff() -> None:
    """RULES.md: `wild_limit_on_layoff` false lets a second wild go on by agregar."""
    strict = trio_layoff_game()
    assert code_of(strict, Agregar(1, c("JK"), 0)) == "does_not_fit"
    lenient = trio_layoff_game(wild_limit_on_layoff=False)
    lenient.apply(Agregar(1, c("JK"), 0))
    assert lenient.view(0).melds[0].wild_count == 2


def test_rules_md_wild_two_at_its_own_place() -> None:
    """RULES.md: a two of the right suit in its own position of an escala counts as natural."""
    dos = RuleSet.preset("dos-libres")
    assert read_meld(cs("2S 3S 4S JK"), "escala", dos).wild == (False, False, False, True)
    assert read_meld(cs("2H 3S 4S 5S"), "escala", dos).wild == (True, False, False, False)


def test_rules_md_jokers_place() -> None:
    """RULES.md joker's place: the order laid is the order of the escala."""
    game = start("chile", [OTHER_12, "5H JK 7H 8H JK 5S 6S 7S 9D 10D QD KD"], rounds=[3])
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "5H JK 7H 8H / JK 5S 6S 7S"))
    first, second = game.view(0).melds
    assert first.stands_for(1) == "6H"
    assert second.stands_for(0) == "4S"


def test_rules_md_lay_off() -> None:
    """RULES.md lay off: once down, onto any meld, yours or others', from a later turn."""
    game = start(one_escala(), ["3S 4S 5S 6S AD", "3H 4H 5H 6H KC"], top="QS JC 7S")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "3H 4H 5H 6H"))
    game.apply(Discard(1, c("QS")))
    game.apply(Draw(0, "mazo"))
    game.apply(bajar(0, "3S 4S 5S 6S"))
    game.apply(Discard(0, c("JC")))
    game.apply(Draw(1, "mazo"))
    game.apply(Agregar(1, c("7S"), 1))  # onto Ana's escala
    assert game.view(0).melds[1].cards == cs("3S 4S 5S 6S 7S")


def test_rules_md_joker_replacement() -> None:
    """RULES.md joker replacement: `off` / `take` / `anyone` / `relocate` per preset."""
    assert {n: r.joker_replacement for n, r in PRESETS.items()} == {
        "chile": "take", "chile-10": "take", "dos-libres": "anyone", "argentina": "anyone",
        "rumi": "take", "chico": "take", "familia": "take", "online": "relocate"}


def test_rules_md_going_out() -> None:
    """RULES.md going out: option `go_out_by_layoff` (default yes)."""
    assert {n for n, r in PRESETS.items() if not r.go_out_by_layoff} == {"online"}
    assert RuleSet.preset("online", go_out_by_layoff=True).go_out_by_layoff


def test_rules_md_go_out_in_one_turn() -> None:
    """RULES.md go out in one turn: per-round flag `go_out_at_once`."""
    game = start("chile", [OTHER_12, ESCALAS_12], top="KC", rounds=[7])
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "3H 4H 5H 6H / 3S 4S 5S 6S / 3D 4D 5D 6D"))
    assert game.legal_actions(1).kinds() == {"discard"}
    game.apply(Discard(1, c("KC")))
    assert game.score_sheet().rounds[0].went_out == 1  # type: ignore[union-attr]
    normal = start("chile", [OTHER_12, "3H 4H 5H 6H 3S 4S 5S 6S 9D 10D QD KD"],
                   top="KC", rounds=[3])
    normal.apply(Draw(1, "mazo"))
    normal.apply(bajar(1, "3H 4H 5H 6H / 3S 4S 5S 6S"))
    normal.apply(Discard(1, c("KC")))  # a normal round: keep the rest
    assert normal.seat_to_act == 0


def test_rules_md_extra_rounds() -> None:
    """RULES.md extra rounds: a contract may list alternatives; the five kinds of meld."""
    rules = RuleSet.preset("chile", contracts=["2T|2E"])
    assert [str(x) for x in rules.rounds[0].contracts] == ["2T", "2E"]
    hand = "7H 7S 7D 8H 8S JK 3H 4H 5H 6H 3S 4S"
    for melds in ("7H 7S 7D / 8H 8S JK", "3H 4H 5H 6H / 3S 4S 5S JK"):
        game = start(rules, [OTHER_12, hand], top="5S")
        game.apply(Draw(1, "mazo"))
        game.apply(bajar(1, melds))
        assert game.view(0).down[1]
    assert [(m.kind, m.min_len) for m in Contract.parse("1T+1E5+ES+ER+EC").melds] == [
        ("trio", 3), ("escala", 5), ("sucia", 13), ("real", 13), ("colores", 13)]


def test_rules_md_extra_rounds_colores_contract() -> None:
    """RULES.md extra rounds: a round of escala de colores (house rule) can be laid down."""
    rules = RuleSet.preset("chile-10", contracts=["EC!"])
    colores = cs(COLORES)
    game = start(rules, ["AS 3S 5S 7S 9S JS KS 2D 4D 6D 8D 10D",
                         " ".join(str(x) for x in colores[:12])], top="KH")
    game.apply(Draw(1, "mazo"))
    game.apply(Bajar(1, (colores,)))
    assert game.score_sheet().rounds[0].went_out == 1  # type: ignore[union-attr]


def test_rules_md_buying() -> None:
    """RULES.md buying: `off` by default; penalty_card / penalty_points; no buying back."""
    assert all(r.buying == "off" and r.max_buys_per_round == 3 for r in PRESETS.values())
    game = start(one_escala(), THREE, pozo="KC", top="QS")
    draw_discard(game, 1)
    assert "do not allow buying" in message_of(game, Buy(0))
    for mode in ("penalty_card", "penalty_points"):
        game = start(one_escala(buying=mode), THREE, pozo="KC", top="QS")
        draw_discard(game, 1)
        assert code_of(game, Buy(1)) == "cannot_buy"
        game.apply(Buy(0))


def test_rules_md_stock_runs_out() -> None:
    """RULES.md stock runs out: reshuffle the pozo but its top; if empty, the round ends."""
    rules = RuleSet.preset("chile", max_reshuffles=1, **SMALL)
    game = start(rules, SMALL_HANDS, pozo="KC")
    for _ in range(41):
        draw_discard(game, game.seat_to_act)  # type: ignore[arg-type]
    assert game.view(0).mazo_count == 0 and len(game.view(0).pozo) == 42
    for _ in range(41):  # the first draw rebuilds the mazo (41 cards), the last empties it
        draw_discard(game, game.seat_to_act)  # type: ignore[arg-type]
    result = game.score_sheet().rounds[0]
    assert result is not None and result.went_out is None
    assert result.scores == tuple(hand_value(rules, h) for h in SMALL_HANDS)


def values_of(name: str) -> dict[str, int]:
    rules = RuleSet.preset(name)
    return {k: rules.value(c("JK" if k == "JK" else f"{k}S")) for k in ZERO_VALUES}


def test_rules_md_card_values() -> None:
    """RULES.md card values: a value table in the rule set, per preset."""
    face = {str(n): n for n in range(2, 11)} | {"J": 10, "Q": 10, "K": 10}
    special = {"chile": (20, 2, 50), "chile-10": (20, 2, 30), "dos-libres": (15, 25, 50),
               "argentina": (15, 2, 50), "rumi": (20, 2, 50), "chico": (20, 2, 50),
               "familia": (20, 2, 50), "online": (15, 2, 25)}
    for name, (ace, two, joker) in special.items():
        table = values_of(name)
        assert table == face | {"A": ace, "2": two, "JK": joker}, name
    changed = RuleSet.preset("chile", values={"JK": 30, "A": 15})
    assert (changed.value(c("JK")), changed.value(c("AH")), changed.value(c("KH"))) == (
        30, 15, 10)


def test_rules_md_going_out_scores() -> None:
    """RULES.md going out scores: options `out_score`, `instant_out_score`."""
    assert {n: (r.out_score, r.instant_out_score) for n, r in PRESETS.items()} == {
        n: (0, -10 if n == "online" else None) for n in PRESETS}
    rules = one_escala(out_score=-5, instant_out_score=-20)
    game = start(rules, ["AS 3S 5S 7S 9S", "3H 4H 5H 6H 7H"], top="8H")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "3H 4H 5H 6H 7H 8H"))
    assert game.score_sheet().rounds[0].scores[1] == -20  # type: ignore[union-attr]
    game = down_escala_game(rules, "3H 4H 5H 6H", "7H", "AS 3S 5S 7S 9S", top="QS 10S 8H")
    game.apply(Draw(1, "mazo"))
    game.apply(Agregar(1, c("7H"), 0))
    game.apply(Agregar(1, c("8H"), 0))
    assert game.score_sheet().rounds[0].scores[1] == -5  # type: ignore[union-attr]


def test_rules_md_not_laid_down_at_the_end() -> None:
    """RULES.md not laid down at the end: the whole hand counts, always."""
    rules = one_escala()
    hand0 = "AS KS QS JD 10C"
    game = start(rules, [hand0, "3H 4H 5H 6H 7H"], top="8H")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "3H 4H 5H 6H 7H 8H"))
    assert game.score_sheet().rounds[0].scores == (20 + 10 + 10 + 10 + 10, 0)  # type: ignore[union-attr]
    assert hand_value(rules, hand0) == 60


def test_rules_md_scoring_mode() -> None:
    """RULES.md scoring mode: option `scoring`: points / rounds (familia)."""
    assert {n for n, r in PRESETS.items() if r.scoring == "rounds"} == {"familia"}
    rules = one_escala(scoring="rounds")
    game = start(rules, ["AS 3S 5S 7S 9S", "3H 4H 5H 6H 7H"], top="8H")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "3H 4H 5H 6H 7H 8H"))
    sheet = game.score_sheet()
    assert sheet.rounds[0].scores == (0, 1)  # type: ignore[union-attr]
    assert sheet.winners == (1,)


def test_rules_md_ties() -> None:
    """RULES.md ties: option `tie_break`: share / most_outs (chile-10) / extra_round."""
    assert {n: r.tie_break for n, r in PRESETS.items()} == {
        n: ("most_outs" if n == "chile-10" else "share") for n in PRESETS}
    for mode in ("share", "most_outs", "extra_round"):
        assert RuleSet.preset("chile", tie_break=mode).tie_break == mode


def test_rules_md_teaching() -> None:
    """RULES.md teaching: an open-hand option; undo within the turn (online)."""
    assert not any(r.open_hands for r in PRESETS.values())
    assert {n for n, r in PRESETS.items() if r.undo} == {"online"}
    game = start("chile", [OTHER_12, ESCALAS_12], open_hands=True)
    assert game.view(1).open_hands == (cs(OTHER_12), cs(ESCALAS_12))


# --------------------------------------------------------------------------- presets

def contracts_of(name: str) -> list[str]:
    return [str(r) for r in RuleSet.preset(name).rounds]


CHILE_8 = ["2T", "1T+1E", "2E", "3T", "2T+1E", "1T+2E", "3E", "4T"]


def test_rules_md_preset_chile() -> None:
    """RULES.md chile: 8 contracts, 12 cards, 108, max 1 wild, A 20 / JK 50, take, no buying."""
    r = RuleSet.preset("chile")
    assert contracts_of("chile") == CHILE_8
    assert len(deck(*r.deck_for(4))) == 108
    assert (r.wilds, r.max_wilds_per_meld, r.joker_replacement, r.buying) == (
        frozenset({"jokers"}), 1, "take", "off")


def test_rules_md_preset_chile_10() -> None:
    """RULES.md chile-10: chile + escala sucia + escala real, A 20 / JK 30, most outs."""
    r = RuleSet.preset("chile-10")
    assert contracts_of("chile-10") == [*CHILE_8, "ES", "ER"]
    assert (r.value(c("AS")), r.value(c("JK")), r.tie_break) == (20, 30, "most_outs")


def test_rules_md_preset_dos_libres() -> None:
    """RULES.md dos-libres: twos wild, 106 cards, 11/13 cards, A 15 / 2 25 / JK 50, buried."""
    r = RuleSet.preset("dos-libres")
    assert contracts_of("dos-libres") == CHILE_8
    assert r.rounds[7].go_out_at_once
    assert r.wilds == frozenset({"jokers", "twos"})
    assert len(deck(*r.deck_for(2))) == 106
    assert (r.value(c("AS")), r.value(c("2S")), r.value(c("JK"))) == (15, 25, 50)
    assert r.bury_wild_first_discard


def test_rules_md_preset_argentina() -> None:
    """RULES.md argentina: 7 rounds, twos not wild."""
    r = RuleSet.preset("argentina")
    assert contracts_of("argentina") == CHILE_8[:7]
    assert "twos" not in r.wilds


def test_rules_md_preset_rumi() -> None:
    """RULES.md rumi: as chile, partial contracts over several turns."""
    r = RuleSet.preset("rumi")
    chile = RuleSet.preset("chile")
    assert r.rounds == chile.rounds and r.partial_contracts
    assert r.values == chile.values and r.deck_for(6) == chile.deck_for(6)


def test_rules_md_preset_chico() -> None:
    """RULES.md chico: rounds 1, 3, 5, 7 of chile."""
    assert contracts_of("chico") == ["2T", "2E", "2T+1E", "3E"]


def test_rules_md_preset_familia() -> None:
    """RULES.md familia: 4 rounds, 3-card escalas, unlimited wilds, tally scoring."""
    r = RuleSet.preset("familia")
    assert contracts_of("familia") == ["2T", "1T+1E3", "2E3", "3T"]
    assert (r.max_wilds_per_meld, r.scoring) == (None, "rounds")
    assert RuleSet.preset("familia", open_hands=True).open_hands


def test_rules_md_preset_online() -> None:
    """RULES.md online: 7 rounds, exact melds, wrap, relocate, A 15 / JK 25, -10 instant."""
    r = RuleSet.preset("online")
    assert contracts_of("online") == ["2T", "1E+1T", "2E", "3T", "2T+1E", "2E+1T", "3E"]
    assert (r.exact_melds, r.wrap, r.joker_replacement, r.steal_points) == (
        True, True, "relocate", 2)
    assert at_once_rounds(r) == [7]
    assert (r.value(c("AS")), r.value(c("JK")), r.instant_out_score) == (15, 25, -10)
    assert RuleSet.preset("online", wilds=["jokers", "red_aces"]).is_wild(c("AD"))
    assert RuleSet.preset("online", buying="penalty_points").buying == "penalty_points"


def test_rules_md_dos_libres_round_8_ruling() -> None:
    """RULES.md: a contract the hand cannot meet is invalid, and the engine says so in words."""
    with pytest.raises(RulesError) as info:
        RuleSet.preset("dos-libres", contracts=[*CHILE_CONTRACTS, "4T|4E!"])
    text = str(info.value)
    assert "round 8" in text and "four escalas" in text and "never" in text


PUBLIC_OPTIONS = {
    "rounds": [1], "buying": "penalty_card", "max_buys_per_round": 2, "scoring": "rounds",
    "tie_break": "extra_round", "max_wilds_per_meld": None, "wild_limit_on_layoff": False,
    "wrap": True, "layoff_same_turn": True, "go_out_by_layoff": True,
    "partial_contracts": True, "joker_replacement": "off", "out_score": -10,
    "instant_out_score": -20, "values": {"JK": 40}, "decks": 3, "jokers": 1,
    "wilds": ["jokers", "twos"], "open_hands": True,
}


def test_rules_md_options_every_preset_accepts() -> None:
    """RULES.md: the options every preset accepts, by their public names."""
    assert set(PUBLIC_OPTIONS) <= set(OPTION_NAMES)
    for name in PRESETS:
        for option, value in PUBLIC_OPTIONS.items():
            rules = RuleSet.preset(name, **{option: value})
            assert rules.preset_name == name
            assert rules.option_dict[option] == value


# --------------------------------------------------------------------------- invariants

def test_rules_md_invariant_every_card_once() -> None:
    """RULES.md invariant: every physical card is somewhere exactly once."""
    rules = one_escala(buying="penalty_card")
    game = start(rules, ["3S 4S 5S 6S AD", "3H 4H 5H 6H KC", "2C 4C 6C 8C 10C"],
                 top="QS JC 10C 7H")
    game.apply(Draw(1, "mazo"))
    game.apply(bajar(1, "3H 4H 5H 6H"))
    game.apply(Discard(1, c("QS")))
    game.apply(Buy(0))
    assert table_cards(game) == 108
    draw_discard(game, 2)
    assert table_cards(game) == 108


def test_rules_md_invariant_score_from_the_hand() -> None:
    """RULES.md invariant: a round's score follows from the hand at its end and the rules."""
    rules = one_escala(max_turns_per_round=10)
    game = start(rules, EVEN)
    loop_pozo(game, 10)
    assert game.score_sheet().rounds[0].scores == (  # type: ignore[union-attr]
        hand_value(rules, EVEN[0]), hand_value(rules, EVEN[1]))


def test_rules_md_invariant_hidden_information() -> None:
    """RULES.md invariant: a player never learns another player's hand or the mazo order."""
    game = start("chile", [OTHER_12, ESCALAS_12], pozo="KD", top="QH")
    game.apply(Draw(1, "mazo"))
    game.apply(Discard(1, c("3H")))
    view = game.view(0)
    assert view.hand == cs(OTHER_12)
    assert view.open_hands is None
    assert view.hand_counts == (12, 12)
    text = str(view.to_json())
    for secret in ("QH", "4H", "6D"):  # seat 1's drawn card and hand, the mazo
        assert f"'{secret}'" not in text
    assert {"p": 1, "draw": "mazo"} in view.log
    spectator = game.view(None)
    assert spectator.hand is None and spectator.open_hands is None


def test_the_log_names_the_card_taken_from_the_pozo_and_nothing_hidden() -> None:
    """The hidden-information invariant in the log: a draw from the pozo and a buy name the card
    taken (it lay face up); a mazo draw and a buy's penalty card are not named."""
    rules = one_escala(buying="penalty_card")
    game = start(rules, THREE, pozo="KC", top="QS JC 10C")
    game.apply(Draw(1, "mazo"))
    game.apply(Discard(1, c("QS")))
    game.apply(Buy(0))
    game.apply(Draw(2, "pozo"))
    for seat in (None, 0, 1, 2):
        assert game.view(seat).log == (
            {"p": 1, "draw": "mazo"}, {"p": 1, "discard": "QS"},
            {"p": 0, "buy": True, "card": "QS"}, {"p": 2, "draw": "pozo", "card": "KC"})
    # The record keeps the spec's actions: the card is not part of them.
    assert [a.to_json() for a in game.log[-1]][2:] == [{"p": 0, "buy": True},
                                                        {"p": 2, "draw": "pozo"}]


def test_ruling_37_a_match_of_n_games() -> None:
    """Best of N: the first to more than N/2 games; after N games without that, the most games
    won (shared on a tie); one game decides no match. (The anotador's series follows the same
    rule in JavaScript: tests/test_anotador.py::test_series_standing_rules.)"""
    from carioca.server.tables import match_winners

    assert match_winners(3, [2, 0], played=2) == [0]  # 2 of 3: decided before the third
    assert match_winners(3, [1, 1], played=2) is None  # one game each: a third is played
    assert match_winners(3, [2, 2, 0], played=3) == [0, 1]  # a shared game took both past 1.5
    assert match_winners(5, [2, 2, 1], played=5) == [0, 1]  # no one past 2.5: the most, shared
    assert match_winners(5, [3, 1], played=4) == [0]
    assert match_winners(1, [4, 2], played=6) is None  # one game at a time: only the tally


def test_ruling_38_who_deals_the_next_game() -> None:
    """Online, each game of a table starts with seat 0 dealing round 1, rematch or not (a game
    is a record); the anotador moves the first deal on in a series, which
    tests/test_anotador.py::test_otra_igual_moves_the_deal_on plays in Chromium."""
    from carioca.server import tables
    from carioca.store import SQLiteStore

    manager = tables.TableManager(SQLiteStore(":memory:"), bot_delay=0)
    table, _ = manager.create(name="Ana", preset="chico", options={"rounds": [1, 3]}, seats=3,
                              bots={}, turn_timer=0, steal_timer=10, hints=False, match=3)
    table.join("Beto")
    table.join("Caro")
    rng = random.Random(38)
    for _game in range(2):
        table.start()  # the first game, then the next of the match
        assert table.game is not None
        dealers = []
        while table.status == "playing":
            view = table.game.view(0)
            if not dealers or dealers[-1][0] != view.round:
                dealers.append((view.round, view.dealer, table.game.seat_to_act))
            seat = table.game.seat_to_act
            table.apply(seat, rng.choice(list(table.game.legal_actions(seat))).to_json(), None)
        assert dealers[:2] == [(1, 0, 1), (2, 1, 2)], dealers


def test_ruling_39_jokers_that_are_not_wild_stay_in_the_deck() -> None:
    """39. `wilds` without jokers (or `max_wilds_per_meld: 0`) leaves the jokers in the deck,
    dead: they fit no meld and cost their value at the end; `jokers: 0` takes them out."""
    twos = RuleSet.preset("chile", rounds=[1], wilds=["twos"])
    assert not twos.is_wild(c("JK")) and twos.is_wild(c("2C"))
    assert len(deck(*twos.deck_for(2))) == 108
    assert len(deck(*RuleSet.preset("chile", wilds=["twos"], jokers=0).deck_for(2))) == 104
    game = start(twos, ["7H 7S JK QS QH QD 2C 4C 6C 8C KC 9D",
                        "3D 5D 7D 9D JD KD 3C 5C 9C JC KC 4S"])
    draw_discard(game, 1)
    game.apply(Draw(0, "mazo"))
    assert "the jokers are not wild in these rules" in message_of(game,
                                                                  bajar(0, "7H 7S JK / QS QH QD"))
    game.apply(bajar(0, "7H 7S 2C / QS QH QD"))  # the two is the wild card now
    game.apply(Discard(0, c("9D")))
    draw_discard(game, 1)
    game.apply(Draw(0, "mazo"))
    assert "a joker fits no meld" in message_of(game, Agregar(0, c("JK"), 0))
    hand = game.view(0).hand
    assert hand is not None and c("JK") in hand and twos.value(c("JK")) == 50
    assert "jokers in the deck are not wild" in describe_rules(twos, "en")
