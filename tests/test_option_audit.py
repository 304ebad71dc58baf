"""An option-by-option audit of the rules engine, through game records.

Every public option of RULES.md ("Options every preset accepts") and every preset is exercised
the way an outside record would exercise it: a ``carioca-record/1`` document written by hand
(explicit deal: hands, pozo and the whole mazo, top first), replayed with
:func:`carioca.record.replay`, and its ``--json`` answer checked against what RULES.md, the
record spec and docs/rulings.md say. Scores are worked out by hand from the preset's value
table. The focus is on combinations the other test files leave alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from carioca import Game, RuleSet
from carioca.cards import Card, deck
from carioca.record import from_record, replay
from carioca.rules import PRESETS

NAMES = ("Ana", "Beto", "Caro", "Dani", "Eli", "Fer", "Gabi", "Hugo")
PUBLIC = ("rounds", "buying", "max_buys_per_round", "scoring", "tie_break",
          "max_wilds_per_meld", "wild_limit_on_layoff", "wrap", "layoff_same_turn",
          "go_out_by_layoff", "partial_contracts", "joker_replacement", "out_score",
          "instant_out_score", "values", "decks", "jokers", "wilds", "open_hands")


# --------------------------------------------------------------------------- record helpers

def _cards(text: str) -> list[str]:
    return text.split()


def mazo_for(preset: str, options: dict[str, Any], hands: Sequence[str], pozo: str,
             top: str) -> list[str]:
    """The whole mazo, top first: ``top`` and then the rest of the rules' deck in canonical
    order (so a record carries every card, as the spec asks)."""
    rules = RuleSet.from_dict({"preset": preset, "options": options})
    full = deck(*rules.deck_for(len(hands)))
    used = [Card.parse(x) for h in hands for x in _cards(h)]
    used += [Card.parse(x) for x in _cards(pozo) + _cards(top)]
    left = Counter(full)
    left.subtract(used)
    assert all(k >= 0 for k in left.values()), "the test uses more cards than the deck holds"
    rest = []
    for card in full:
        if left[card] > 0:
            rest.append(str(card))
            left[card] -= 1
    return _cards(top) + rest


def round_of(preset: str, options: dict[str, Any], hands: Sequence[str], actions: Sequence[Any],
             pozo: str = "9C", top: str = "") -> dict[str, Any]:
    return {"deal": {"hands": [_cards(h) for h in hands], "pozo": _cards(pozo),
                     "mazo": mazo_for(preset, options, hands, pozo, top)},
            "actions": list(actions)}


def record(preset: str, options: dict[str, Any], rounds: Sequence[dict[str, Any]],
           players: int = 2) -> dict[str, Any]:
    return {"format": "carioca-record/1", "rules": {"preset": preset, "options": options},
            "players": list(NAMES[:players]), "rounds": list(rounds)}


def one_round(preset: str, options: dict[str, Any], hands: Sequence[str],
              actions: Sequence[Any], pozo: str = "9C", top: str = "") -> dict[str, Any]:
    return record(preset, options, [round_of(preset, options, hands, actions, pozo, top)],
                  players=len(hands))


def result(doc: dict[str, Any]) -> dict[str, Any]:
    return replay(doc).to_json()


def error(doc: dict[str, Any]) -> tuple[int | None, int | None, str]:
    got = result(doc)
    assert "error" in got, f"expected an error, the replay gave {got}"
    e = got["error"]
    assert set(e) == {"round", "action", "message"}
    assert isinstance(e["message"], str) and e["message"].strip()
    return e["round"], e["action"], e["message"]


def ok(doc: dict[str, Any]) -> dict[str, Any]:
    got = result(doc)
    assert "error" not in got, got
    return got


def game(doc: dict[str, Any]) -> Game:
    return from_record(doc)


def value(preset: str, text: str, **options: Any) -> int:
    rules = RuleSet.preset(preset, **options)
    return sum(rules.value(Card.parse(x)) for x in _cards(text))


# actions, as a record writes them
def draw(p: int, source: str = "mazo") -> dict[str, Any]:
    return {"p": p, "draw": source}


def discard(p: int, card: str) -> dict[str, Any]:
    return {"p": p, "discard": card}


def bajar(p: int, melds: str) -> dict[str, Any]:
    return {"p": p, "bajar": [_cards(m) for m in melds.split("/")]}


def agregar(p: int, card: str, meld: int, end: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"card": card, "meld": meld}
    if end:
        body["end"] = end
    return {"p": p, "agregar": body}


def swap(p: int, card: str, meld: int, end: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"card": card, "meld": meld}
    if end:
        body["end"] = end
    return {"p": p, "swap": body}


def buy(p: int) -> dict[str, Any]:
    return {"p": p, "buy": True}


def melds_of(doc: dict[str, Any]) -> list[str]:
    return [m.describe() for m in game(doc).view(None).melds]


def hand_of(doc: dict[str, Any], seat: int) -> list[str]:
    hand = game(doc).view(seat).hand
    assert hand is not None
    return [str(x) for x in hand]


# A hand of 11 or 12 cards that never takes part in the melds of the tests below.
IDLE_11 = "AS 3S 5S 7S 9C 10C JC 4D 6D 8D 10D"
IDLE_12 = IDLE_11 + " QD"


# =========================================================================== wrap

def corner_record(preset: str, options: dict[str, Any], escala: str, card: str,
                  end: str | None = None) -> dict[str, Any]:
    """Seat 1 lays ``escala`` and an escala of spades, then in its next turn adds ``card``
    to the first escala (round 3 of chile/online: two escalas)."""
    size = 12 if preset == "chile" else 11
    hand = f"{escala} 5S 6S 7S 8S {card} KC 9D" + (" 3C" if size == 12 else "")
    options = {"rounds": [3], **options}
    actions = [draw(1), bajar(1, f"{escala} / 5S 6S 7S 8S"), discard(1, "QC"),
               draw(0), discard(0, "QS"), draw(1), agregar(1, card, 0, end)]
    idle = IDLE_12 if size == 12 else IDLE_11
    return one_round(preset, options, [idle, hand], actions, top="QC QS KD")


@pytest.mark.parametrize(("preset", "options", "turns"), [
    ("chile", {}, False), ("chile", {"wrap": True}, True),
    ("online", {}, True), ("online", {"wrap": False}, False),
])
def test_wrap_decides_k_a_2_when_adding(preset: str, options: dict[str, Any],
                                        turns: bool) -> None:
    """RULES.md ace in escala: K-A-2 only with `wrap` (only online sets it), also when the
    corner is turned by agregar, at either end."""
    high = corner_record(preset, options, "JH QH KH AH", "2H")
    low = corner_record(preset, options, "AH 2H 3H 4H", "KH")
    if turns:
        assert melds_of(high)[0] == "escala JH QH KH AH 2H"
        assert melds_of(low)[0] == "escala KH AH 2H 3H 4H"
    else:
        assert error(high)[:2] == (1, 7)
        assert "ends at the ace" in error(high)[2]  # the rule, not "it needs 10H"
        assert "starts at the ace" in error(low)[2]


@pytest.mark.parametrize(("preset", "options", "turns"), [
    ("chile", {}, False), ("chile", {"wrap": True}, True),
    ("familia", {"wrap": True}, True), ("online", {"wrap": False}, False),
])
def test_wrap_decides_k_a_2_when_laid(preset: str, options: dict[str, Any],
                                      turns: bool) -> None:
    """RULES.md: with `wrap` the escala turns the corner when laid (K-A-2-3); without it,
    the refusal names K-A-2. familia's escalas of 3 turn it too (K-A-2)."""
    size = 11 if preset == "online" else 12
    idle = IDLE_11 if size == 11 else IDLE_12
    first = "KH AH 2H" if preset == "familia" else "KH AH 2H 3H"
    hand = f"{first} QS KS AS 2S 6C 7C 8C 9H 10H"
    hand = " ".join(_cards(hand)[:size])
    doc = one_round(preset, {"rounds": [3], **options}, [idle, hand],
                    [draw(1), bajar(1, f"{first} / QS KS AS 2S")], top="QC")
    if turns:
        assert melds_of(doc) == [f"escala {first}", "escala QS KS AS 2S"]
    else:
        assert "K-A-2" in error(doc)[2]


@pytest.mark.parametrize("melds", ["KH AH 2H 3H / 9S 9D 9H", "9S 9D 9H / KH AH 2H 3H"])
def test_a_trio_and_a_k_a_2_the_refusal_names_k_a_2(melds: str) -> None:
    """Record spec: the message names the rule broken. In a round of a trío and an escala,
    cards of one suit laid as K-A-2 are refused for K-A-2, not for not being a trío."""
    hand = "KH AH 2H 3H 9S 9D 9H 2C 4C 6C 8C QS"
    doc = one_round("chile", {"rounds": [2]}, [IDLE_12, hand], [draw(1), bajar(1, melds)],
                    top="QC")
    at = error(doc)
    assert at[:2] == (1, 2) and "K-A-2" in at[2] and "trío is" not in at[2]
    twice = one_round("chile", {"rounds": [2]}, [IDLE_12, hand.replace("AH", "2H")],
                      [draw(1), bajar(1, melds.replace("AH", "2H"))], top="QC")
    assert "twice" in error(twice)[2]
    assert ok(one_round("chile", {"rounds": [2], "wrap": True}, [IDLE_12, hand],
                        [draw(1), bajar(1, melds)], top="QC"))


# =========================================================================== wilds

RED_ACES = {"wilds": ["jokers", "red aces"]}  # as RULES.md writes them


def test_red_aces_wild_in_trios() -> None:
    """online's red-aces option: A♥ A♦ stand for any card; in a trío of aces they are
    natural (ruling 7); the black aces stay natural; one wild a meld (strict)."""
    hand = "7S 7H AH AC AS AD 9H KC 5C 6C 8C"
    laid = one_round("online", {"rounds": [1], **RED_ACES}, [IDLE_11, hand],
                     [draw(1), bajar(1, "7S 7H AH / AC AS AD")], top="QC")
    assert melds_of(laid) == ["trío 7S 7H 7(AH)", "trío AC AS AD"]
    two = one_round("online", {"rounds": [1], **RED_ACES}, [IDLE_11, hand],
                    [draw(1), bajar(1, "7S AH AD / 7H AC AS")], top="QC")
    assert "one wild" in error(two)[2]
    black = one_round("online", {"rounds": [1], **RED_ACES}, [IDLE_11, hand],
                      [draw(1), bajar(1, "7S 7H AS / AC AH AD")], top="QC")
    assert error(black)[:2] == (1, 2)
    plain = one_round("online", {"rounds": [1]}, [IDLE_11, hand],
                      [draw(1), bajar(1, "7S 7H AH / AC AS AD")], top="QC")
    assert error(plain)[:2] == (1, 2)  # without the option a red ace is an ace


@pytest.mark.parametrize("preset", ["online", "chile"])
def test_red_aces_wild_in_escalas(preset: str) -> None:
    """A red ace at its own place of an escala of its suit is natural, low or high; of
    another suit it is a wild card (ruling 7)."""
    size = 11 if preset == "online" else 12
    idle = IDLE_11 if size == 11 else IDLE_12
    hand = " ".join(_cards("JD QD KD AH AD 2H 3H 4H 9S KC 5C 6C")[:size])
    doc = one_round(preset, {"rounds": [3], **RED_ACES}, [idle, hand],
                    [draw(1), bajar(1, "JD QD KD AH / AD 2H 3H 4H")], top="QC")
    assert melds_of(doc) == ["escala JD QD KD AD(AH)", "escala AH(AD) 2H 3H 4H"]
    natural = " ".join(_cards("JD QD KD AD AH 2H 3H 4H 9S KC 5C 6C")[:size])
    doc = one_round(preset, {"rounds": [3], **RED_ACES}, [idle, natural],
                    [draw(1), bajar(1, "JD QD KD AD / AH 2H 3H 4H")], top="QC")
    assert [m.wild_count for m in game(doc).view(None).melds] == [0, 0]


def two_layoff(options: dict[str, Any], adds: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """dos-libres round 3: seat 1 lays 3H 4H JK 6H (one wild) and, a turn later, adds cards."""
    hand = "3H 4H JK 6H 8S 9S 10S JS 2H 2C KD"
    actions = [draw(1), bajar(1, "3H 4H JK 6H / 8S 9S 10S JS"), discard(1, "QC"),
               draw(0), discard(0, "QD"), draw(1), *adds]
    return one_round("dos-libres", {"rounds": [3], **options}, [IDLE_11, hand], actions,
                     top="QC QD 5C")


def test_wild_two_at_its_own_place_is_natural_when_added() -> None:
    """RULES.md: a two of the right suit in its own position counts as natural: it goes on
    an escala that already holds its one wild (strict limit), at the low end without `end`
    (ruling 10); named to the other end it is a wild, and the strict limit refuses it."""
    doc = two_layoff({}, [agregar(1, "2H", 0)])
    assert melds_of(doc)[0] == "escala 2H 3H 4H 5H(JK) 6H"
    assert "one wild" in error(two_layoff({}, [agregar(1, "2H", 0, "high")]))[2]
    assert "one wild" in error(two_layoff({}, [agregar(1, "2H", 0), agregar(1, "2C", 0)]))[2]


def test_wild_limit_on_layoff_lenient_lets_a_second_wild_on() -> None:
    """`wild_limit_on_layoff` false: the limit holds when laid, not when adding (ruling 36)."""
    doc = two_layoff({"wild_limit_on_layoff": False}, [agregar(1, "2H", 0, "high"),
                                                      agregar(1, "2C", 0, "low")])
    assert melds_of(doc)[0] == "escala 2H(2C) 3H 4H 5H(JK) 6H 7H(2H)"
    laid = one_round("dos-libres", {"rounds": [3], "wild_limit_on_layoff": False},
                     [IDLE_11, "3H 2C JK 6H 8S 9S 10S JS 2H 4H KD"],
                     [draw(1), bajar(1, "3H 2C JK 6H / 8S 9S 10S JS")], top="QC")
    assert "one wild" in error(laid)[2]  # still one a meld when laid down


WILD_HAND = "7H 7S JK JK 8H 8S 8D 2C 5C 6C KD 9D"


def trios(options: dict[str, Any], melds: str, preset: str = "chile") -> dict[str, Any]:
    hand, idle = WILD_HAND, IDLE_12
    if preset == "dos-libres":
        hand, idle = hand.replace(" 9D", ""), IDLE_11
    return one_round(preset, {"rounds": [1], **options}, [idle, hand],
                     [draw(1), bajar(1, melds)], top="QC")


@pytest.mark.parametrize(("limit", "melds", "allowed"), [
    (0, "7H 7S JK / 8H 8S 8D", False),
    (0, "7H 7S 8D / 8H 8S", None),  # not a contract at all: refused for that
    (1, "7H 7S JK / 8H 8S 8D", True),
    (1, "7H JK JK / 8H 8S 8D", False),
    (2, "7H JK JK / 8H 8S 8D", True),
    (None, "7H JK JK / 8H 8S 8D", True),
    ("none", "7H JK JK / 8H 8S 8D", True),
])
def test_max_wilds_per_meld(limit: Any, melds: str, allowed: bool | None) -> None:
    """`max_wilds_per_meld`: 0, 1 (default), more, or null / "none" (unlimited)."""
    doc = trios({"max_wilds_per_meld": limit}, melds)
    if allowed:
        ok(doc)
    else:
        at = error(doc)
        assert at[:2] == (1, 2)
        if allowed is False:
            assert "wild" in at[2]


def test_wilds_option_sets_which_cards_are_wild() -> None:
    """`wilds` is the whole set of wild cards: twos made wild in chile, made natural in
    dos-libres, and no joker wild when the set leaves them out."""
    twos = trios({"wilds": ["jokers", "twos"]}, "7H 7S 2C / 8H 8S 8D")
    assert melds_of(twos)[0] == "trío 7H 7S 7(2C)"
    assert error(trios({}, "7H 7S 2C / 8H 8S 8D"))[:2] == (1, 2)
    assert error(trios({"wilds": ["jokers"]}, "7H 7S 2C / 8H 8S 8D", "dos-libres"))[:2] == (1, 2)
    assert ok(trios({}, "7H 7S 2C / 8H 8S 8D", "dos-libres"))
    assert error(trios({"wilds": ["twos"]}, "7H 7S JK / 8H 8S 8D"))[:2] == (1, 2)
    unlimited = trios({"wilds": ["jokers", "twos"], "max_wilds_per_meld": None},
                      "7H JK JK 2C / 8H 8S 8D")
    assert game(unlimited).view(None).melds[0].wild_count == 3


# =========================================================================== joker replacement

def swap_record(preset: str, options: dict[str, Any], escala: str, card: str,
                end: str | None = None, seat: int = 1) -> dict[str, Any]:
    """Round 3 (two escalas): seat 1 lays ``escala`` (with a joker) and spades; a turn
    later ``seat`` (1, or 0 who is not down) swaps ``card`` in."""
    size = 11 if preset in ("online", "dos-libres", "argentina") else 12
    idle = " ".join(_cards(IDLE_12)[:size - 1]) + f" {card}"
    hand = " ".join(_cards(f"{escala} 9S 10S JS QS {card} KD 2D 3D")[:size])
    actions = [draw(1), bajar(1, f"{escala} / 9S 10S JS QS"), discard(1, "QC"), draw(0)]
    if seat == 0:
        actions.append(swap(0, card, 0, end))
    else:
        actions += [discard(0, "QD"), draw(1), swap(1, card, 0, end)]
    return one_round(preset, {"rounds": [3], **options}, [idle, hand], actions,
                     top="QC QD 3C")


@pytest.mark.parametrize(("end", "meld"), [
    ("low", "escala 4H(JK) 5H 6H 7H 8H"), ("high", "escala 5H 6H 7H 8H 9H(JK)"),
    (None, "escala 5H 6H 7H 8H 9H(JK)"),
])
@pytest.mark.parametrize("preset", ["online", "chile"])
def test_relocate_moves_the_wild_to_the_end_named(preset: str, end: str | None,
                                                  meld: str) -> None:
    """`relocate`: the natural card takes the joker's place and the joker moves to the end
    the record names with `end` (high by default); it does not come to the hand."""
    doc = swap_record(preset, {"joker_replacement": "relocate"}, "5H JK 7H 8H", "6H", end)
    assert melds_of(doc)[0] == meld
    assert "JK" not in hand_of(doc, 1) and "6H" not in hand_of(doc, 1)


def test_relocate_to_a_closed_end_is_refused() -> None:
    """Without wrap an escala that ends at the ace cannot take the joker at the high end;
    named there, the swap is refused with the reason; unnamed, it goes low (ruling 11)."""
    options = {"joker_replacement": "relocate", "wrap": False}
    refused = swap_record("online", options, "JK QH KH AH", "JH", "high")
    assert "ends at the ace" in error(refused)[2]
    low = swap_record("online", options, "JK QH KH AH", "JH")
    assert melds_of(low)[0] == "escala 10H(JK) JH QH KH AH"


def test_relocate_without_an_end_puts_a_red_ace_where_it_is_natural() -> None:
    """Ruling 11 (as ruling 10): a wild red ace relocated with no end named goes to the end
    where it is natural, the low end before the 2H, not to the high end as a wild."""
    options = {"joker_replacement": "relocate", **RED_ACES}
    doc = swap_record("online", options, "2H 3H 4H AH", "5H")
    assert melds_of(doc)[0] == "escala AH 2H 3H 4H 5H"
    named = swap_record("online", options, "2H 3H 4H AH", "5H", "high")
    assert melds_of(named)[0] == "escala 2H 3H 4H 5H 6H(AH)"


@pytest.mark.parametrize(("preset", "mode", "seat", "outcome"), [
    ("chile", "take", 1, "hand"), ("online", "take", 1, "hand"),
    ("chile", "take", 0, "refused"), ("chile", "anyone", 0, "hand"),
    ("dos-libres", "take", 0, "refused"), ("dos-libres", "anyone", 0, "hand"),
    ("chile", "off", 1, "refused"), ("online", "off", 1, "refused"),
])
def test_joker_replacement_modes(preset: str, mode: str, seat: int, outcome: str) -> None:
    """`joker_replacement`: take (the joker to the hand; the player must be down), anyone
    (any player in their turn after drawing, down or not), off (never)."""
    doc = swap_record(preset, {"joker_replacement": mode}, "5H JK 7H 8H", "6H", seat=seat)
    if outcome == "refused":
        assert error(doc)[0] == 1
        return
    assert melds_of(doc)[0] == "escala 5H 6H 7H 8H"
    assert "JK" in hand_of(doc, seat)


# =========================================================================== partial contracts

RUMI_IDLE = "AS 3S 5S 9S JS KS 2C 4C 6C 8C 10C QD"  # 20+3+5+9+10+10 + 2+4+6+8+10+10 = 97
RUMI_HAND = "7H 7S 7D 3H 4H 5H 6H 7C 7H 8H 2D 9H"


def rumi_record(options: dict[str, Any], actions: Sequence[dict[str, Any]],
                preset: str = "rumi") -> dict[str, Any]:
    return one_round(preset, {"rounds": [2], **options}, [RUMI_IDLE, RUMI_HAND], actions,
                     top="AD KC KH KD 10H")


RUMI_GAME = [
    draw(1), bajar(1, "7H 7S 7D"), discard(1, "AD"),  # the trío only: not down yet
    draw(0), discard(0, "KC"),
    draw(1), bajar(1, "3H 4H 5H 6H"), discard(1, "2D"),  # the escala: the contract is down
    draw(0), discard(0, "KD"),
    draw(1), agregar(1, "7C", 0), agregar(1, "7H", 1), agregar(1, "8H", 1),
    agregar(1, "9H", 1), agregar(1, "10H", 1), discard(1, "KH"),
]


def test_rumi_partial_contract_over_several_turns() -> None:
    """Ruling 16: the contract laid in parts; agregar once the whole is down (next turn);
    going out later is no instant out even where the rules score one (ruling 15)."""
    got = ok(rumi_record({"instant_out_score": -10}, RUMI_GAME))
    assert got["rounds"] == [{"round": 1, "went_out": 1, "scores": [97, 0]}]
    assert value("rumi", RUMI_IDLE) == 97
    assert got["winners"] == [1] and got["finished"]
    chile = rumi_record({}, RUMI_GAME, preset="chile")
    assert error(chile)[:2] == (1, 2)  # chile lays the contract whole
    assert ok(rumi_record({}, RUMI_GAME, preset="chile") | {
        "rules": {"preset": "chile", "options": {"rounds": [2], "partial_contracts": True}}})
    assert error(rumi_record({"partial_contracts": False}, RUMI_GAME))[:2] == (1, 2)


def test_rumi_waits_for_the_whole_contract() -> None:
    """Ruling 16: no agregar with a part down, nor in the turn the contract is completed."""
    early = rumi_record({}, [*RUMI_GAME[:5], draw(1), agregar(1, "7C", 0)])
    assert error(early)[:2] == (1, 7)
    same_turn = rumi_record({}, [*RUMI_GAME[:7], agregar(1, "7C", 0)])
    assert error(same_turn)[:2] == (1, 8)
    assert ok(rumi_record({"layoff_same_turn": True}, [*RUMI_GAME[:7], agregar(1, "7C", 0)]))


def test_rumi_a_part_leaves_two_cards() -> None:
    """Ruling 16: a part that does not complete the contract leaves at least two cards."""
    hand = "7H 7S 7D 7C 7H 7S 8H 8S 8D 8C 8H 9C"
    doc = one_round("rumi", {"rounds": [5]}, [RUMI_IDLE, hand],
                    [draw(1), bajar(1, "7H 7S 7D 7C 7H 7S / 8H 8S 8D 8C 8H 8S")], top="8S")
    at = error(doc)
    assert at[:2] == (1, 2) and "two cards" in at[2]


# =========================================================================== going out, scores

ONLINE_IDLE = "AC 2C 3C 4C 5C 7C 8C 9S 10C JC QC"  # 15+2+3+4+5+7+8+9+10+10+10 = 83


def test_online_instant_out_in_a_normal_round() -> None:
    """online, -10 instant out: round 6 (2E+1T, eleven cards laid exactly) can be laid and
    gone out of in one turn, by the discard; chile scores its out_score (0) for the same."""
    hand = "3H 4H 5H 6H 3S 4S 5S 6S 9D 9C 9H"
    play = [draw(1), bajar(1, "3H 4H 5H 6H / 3S 4S 5S 6S / 9D 9C 9H"), discard(1, "KD")]
    got = ok(one_round("online", {"rounds": [6]}, [ONLINE_IDLE, hand], play, top="KD"))
    assert value("online", ONLINE_IDLE) == 83
    assert got["rounds"] == [{"round": 1, "went_out": 1, "scores": [83, -10]}]
    chile = ok(one_round("chile", {"rounds": [6]}, [ONLINE_IDLE + " KS", hand + " 9S"],
                         [draw(1), bajar(1, "3H 4H 5H 6H / 3S 4S 5S 6S / 9D 9C 9H 9S"),
                          discard(1, "KD")], top="KD"))
    assert chile["rounds"][0]["scores"] == [value("chile", ONLINE_IDLE + " KS"), 0]
    house = one_round("chile", {"rounds": [6], "out_score": -5, "instant_out_score": -20},
                      [ONLINE_IDLE + " KS", hand + " 9S"],
                      [draw(1), bajar(1, "3H 4H 5H 6H / 3S 4S 5S 6S / 9D 9C 9H 9S"),
                       discard(1, "KD")], top="KD")
    assert ok(house)["rounds"][0]["scores"][1] == -20


def test_online_instant_out_with_a_steal() -> None:
    """online with stealing (`buying: penalty_points`): the buyer goes out at once in round
    7 (bajar, lay off, discard): -10 for the instant out and +2 for the steal; the others
    score their hands (A 15, 10-K 10, joker 25)."""
    hands = ["3H 4H 5H 6H 3S 4S 5S 6S 3D 4D 5D 7H",
             "AC 2C 3C 4C 5C 7C 8C 9S 10C JC QC KS",
             "AS 2S 7S 8S 9D 10D JD QD KH 2H 9H 10H"]
    actions = [draw(1), discard(1, "6D"), buy(0), draw(2), discard(2, "KD"), draw(0),
               bajar(0, "3H 4H 5H 6H / 3S 4S 5S 6S / 3D 4D 5D 6D"), agregar(0, "7H", 0),
               discard(0, "KC")]
    doc = one_round("online", {"rounds": [7], "buying": "penalty_points"}, hands, actions,
                    top="6D KD KC")
    got = ok(doc)
    assert (value("online", hands[1]), value("online", hands[2])) == (93, 102)
    assert got["rounds"] == [{"round": 1, "went_out": 0, "scores": [-8, 93, 102]}]
    assert got["totals"] == [-8, 93, 102] and got["winners"] == [0]


# =========================================================================== ties, scoring

SEVENS_EIGHTS = "7H 7S 7D 7C 7H 7S 8H 8S 8D 8C 8H 8S"
OTHER_12 = "AS 3S 5S 9S JS KS 2C 4C 6C 10C QD KD"
ZERO = {k: 0 for k in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK")}


def out_at_once(preset: str, options: dict[str, Any], seat: int) -> dict[str, Any]:
    """A round of two tríos (the preset's round 1) that ``seat``, first to act, goes out of
    in its first turn: both tríos and the discard."""
    hands = [OTHER_12, OTHER_12]
    hands[seat] = SEVENS_EIGHTS
    return round_of(preset, options, hands,
                    [draw(seat), bajar(seat, "7H 7S 7D 7C 7H 7S / 8H 8S 8D 8C 8H 8S"),
                     discard(seat, "QC")], top="QC")


def outs_game(preset: str, options: dict[str, Any], outs: Sequence[int]) -> dict[str, Any]:
    return record(preset, options, [out_at_once(preset, options, s) for s in outs])


@pytest.mark.parametrize(("tie_break", "winners"), [
    ("share", [0, 1]), ("most_outs", [1]), ("extra_round", None),
])
def test_tie_break_in_points(tie_break: str, winners: list[int] | None) -> None:
    """Every card worth 0, so the totals tie: `share` shares, `most_outs` gives it to the
    player out most often (ruling 23), `extra_round` plays on. The `rounds` option may
    repeat a round (ruling 33); the record's rounds are numbered by position and the
    player after the dealer, (r-1) mod n, acts first."""
    options = {"rounds": [1, 1, 1], "values": ZERO, "tie_break": tie_break}
    got = ok(outs_game("chile", options, [1, 0, 1]))
    assert [r["round"] for r in got["rounds"]] == [1, 2, 3]
    assert [r["went_out"] for r in got["rounds"]] == [1, 0, 1]
    assert got["totals"] == [0, 0]
    if winners is None:
        assert not got["finished"] and got["winners"] == []
    else:
        assert got["finished"] and got["winners"] == winners


def test_extra_round_at_most_three_then_shared() -> None:
    """Ruling 23: up to 3 extra rounds with the last contract; a tie after those is shared,
    and a record that goes on after that is refused."""
    options = {"rounds": [1], "values": ZERO, "tie_break": "extra_round"}
    got = ok(outs_game("chile", options, [1, 0, 1, 0]))
    assert len(got["rounds"]) == 4 and got["finished"] and got["winners"] == [0, 1]
    too_long = outs_game("chile", options, [1, 0, 1, 0, 1])
    assert error(too_long)[:2] == (5, None)


FAMILIA_R1 = (["AS 3S 5S 6S 9S JS KS 2D 4D 6D 10C 10D", "7H 7S 7D 7C 7H 7S 8H 8S 8D 8C 8H 8S"],
              [draw(1), bajar(1, "7H 7S 7D 7C 7H 7S 7D / 8H 8S 8D 8C 8H 8S")], "7D")
FAMILIA_R2 = (["AH 2H 3H 4H 5H 6H 7H 8H 9H 10H 9S 9D", "AS 3S 5S 7S 9S JS KS 2D 4D 6D 8D 10D"],
              [draw(0), bajar(0, "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H / 9S 9D 9C")], "9C")
FAMILIA_R3 = (["AH 3H 5H 7H JH KH 2D 4D 6D 8D 10D QD", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S 9H 9D"],
              [draw(1), bajar(1, "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S / 9H 9D 9C")], "9C")


def familia(options: dict[str, Any], *rounds: Any) -> dict[str, Any]:
    options = {"rounds": [1, 2], **options}
    return record("familia", options, [round_of("familia", options, hands, actions, top=top)
                                       for hands, actions, top in rounds])


def test_familia_rounds_scoring_with_ties() -> None:
    """familia: a mark for going out (rounds scoring), the most marks win; a tie is shared,
    or goes to the latest out (most_outs), or to an extra round with the last contract
    (1T+1E3: a trío and an escala of 3 or more) that decides it."""
    shared = ok(familia({}, FAMILIA_R1, FAMILIA_R2))
    assert [r["scores"] for r in shared["rounds"]] == [[0, 1], [1, 0]]
    assert shared["totals"] == [1, 1] and shared["winners"] == [0, 1] and shared["finished"]
    latest = ok(familia({"tie_break": "most_outs"}, FAMILIA_R1, FAMILIA_R2))
    assert latest["winners"] == [0]
    pending = ok(familia({"tie_break": "extra_round"}, FAMILIA_R1, FAMILIA_R2))
    assert not pending["finished"] and pending["winners"] == []
    decided = ok(familia({"tie_break": "extra_round"}, FAMILIA_R1, FAMILIA_R2, FAMILIA_R3))
    assert decided["rounds"][2] == {"round": 3, "went_out": 1, "scores": [0, 1]}
    assert decided["totals"] == [1, 2] and decided["winners"] == [1] and decided["finished"]


def test_scoring_option_switches_points_and_marks() -> None:
    """`scoring`: familia in points counts the hands (its A 20 / JK 50 table); chile in rounds
    gives marks."""
    points = ok(familia({"scoring": "points"}, FAMILIA_R1, FAMILIA_R2))
    assert points["rounds"][0]["scores"] == [value("familia", FAMILIA_R1[0][0]), 0]
    assert points["rounds"][1]["scores"] == [0, value("familia", FAMILIA_R2[0][1])]
    marks = ok(outs_game("chile", {"rounds": [1, 1, 1], "scoring": "rounds"}, [1, 0, 1]))
    assert [r["scores"] for r in marks["rounds"]] == [[0, 1], [1, 0], [0, 1]]
    assert marks["totals"] == [1, 2] and marks["winners"] == [1]


# =========================================================================== buying

BUYERS = [OTHER_12, "AH 3H 5H 9H JH KH 2D 4D 6D 10D QH KH", SEVENS_EIGHTS]  # 99, 99, -


@pytest.mark.parametrize(("buying", "drawn", "ana"), [
    ("penalty_card", "9D", 99 + 5 + 6),  # the 5C bought and the 6C from the mazo
    ("penalty_points", "6C", 99 + 5 + 2),  # the 5C bought and 2 points
])
def test_buying_penalty_card_or_points(buying: str, drawn: str, ana: int) -> None:
    """RULES.md buying: out of turn, after a discard and before the next player draws; the
    price is the mazo's top card or 2 points, whoever goes out (ruling 20)."""
    assert value("chile", BUYERS[0]) == value("chile", BUYERS[1]) == 99
    actions = [draw(1), discard(1, "5C"), buy(0), draw(2),
               bajar(2, "7H 7S 7D 7C 7H 7S / 8H 8S 8D 8C 8H 8S"), discard(2, drawn)]
    doc = one_round("chile", {"rounds": [1], "buying": buying}, BUYERS, actions,
                    top="5C 6C 9D")
    assert ok(doc)["rounds"] == [{"round": 1, "went_out": 2, "scores": [ana, 99, 0]}]
    off = one_round("chile", {"rounds": [1]}, BUYERS, actions, top="5C 6C 9D")
    assert error(off)[:2] == (1, 3)


def buys(cap: int) -> dict[str, Any]:
    """Seven turns of draw and throw; after each discard the seat that is neither the
    discarder nor the next player buys (penalty points: no card from the mazo)."""
    top = _cards("5C 6C 9D 8D 7D 5D 3D")
    actions: list[dict[str, Any]] = []
    seat = 1
    for card in top:
        actions += [draw(seat), discard(seat, card), buy((seat + 2) % 3)]
        seat = (seat + 1) % 3
    return one_round("chile", {"rounds": [1], "buying": "penalty_points",
                               "max_buys_per_round": cap}, BUYERS, actions, top=" ".join(top))


def test_max_buys_per_round() -> None:
    """`max_buys_per_round` caps each player's buys in a round (default 3); 0: no buying."""
    assert error(buys(2))[:2] == (1, 21)  # Ana's third buy
    assert "bought 2 times" in error(buys(2))[2]
    assert ok(buys(3))["rounds"] == [{"round": 1, "went_out": None, "scores": None}]
    assert RuleSet.preset("chile", buying="penalty_card").max_buys_per_round == 3
    at = error(buys(0))
    assert at[:2] == (1, 3) and "no buys" in at[2]


# =========================================================================== the mazo runs out

ONE_PACK = {"rounds": [1], "decks": 1, "jokers": 0}
PACK_HANDS = [OTHER_12, "AH 3H 5H 9H JH KH 2D 4D 6D 10D QH QC"]  # 99 each, one pack


def through_the_mazo(options: dict[str, Any], extra: Sequence[dict[str, Any]] = ()
                     ) -> dict[str, Any]:
    """Every card of the mazo drawn and thrown away, in turn (one pack, no jokers:
    52 - 2 * 12 - 1 = 27 cards)."""
    mazo = mazo_for("chile", options, PACK_HANDS, "9C", "")
    assert len(mazo) == 27
    actions: list[dict[str, Any]] = []
    for i, card in enumerate(mazo):
        seat = (1 + i) % 2
        actions += [draw(seat), discard(seat, card)]
    return one_round("chile", options, PACK_HANDS, [*actions, *extra])


def test_the_pozo_becomes_the_mazo() -> None:
    """RULES.md stock runs out / ruling 21: the pozo but its top card is the new mazo, as
    often as needed; with the table's cap reached the round ends and everyone scores the
    hand, nobody out."""
    doc = through_the_mazo(ONE_PACK, [draw(0), discard(0, "AS")])
    view = game(doc).view(None)
    last = mazo_for("chile", ONE_PACK, PACK_HANDS, "9C", "")[-1]
    assert view.mazo_count == 26 and view.reshuffles == 1
    assert [str(x) for x in view.pozo] == [last, "AS"]  # the old top stayed in the pozo
    capped = ok(through_the_mazo({**ONE_PACK, "max_reshuffles": 0}))
    assert capped["rounds"] == [{"round": 1, "went_out": None, "scores": [99, 99]}]
    assert capped["finished"] and capped["winners"] == [0, 1]
    after = through_the_mazo({**ONE_PACK, "max_reshuffles": 0}, [draw(0)])
    assert error(after)[:2] == (1, 55)


# =========================================================================== decks and jokers

def dealt_cards(preset: str, options: dict[str, Any], players: int) -> Counter[str]:
    doc = record(preset, options, [{"seed": 1, "actions": []}], players=players)
    deal = game(doc).deals[0]
    assert all(len(h) == game(doc).rules.rounds[0].hand_size for h in deal.hands)
    return Counter(str(x) for x in [*(c for h in deal.hands for c in h), *deal.pozo,
                                    *deal.mazo])


@pytest.mark.parametrize(("preset", "sizes"), [
    ("chile", {2: 108, 5: 108, 6: 162, 8: 162}), ("rumi", {2: 108, 6: 162}),
    ("chico", {5: 108, 6: 162, 8: 162}), ("chile-10", {4: 108, 5: 162, 6: 162}),
    ("dos-libres", {2: 106, 4: 106, 5: 159, 6: 159}), ("argentina", {4: 106, 5: 159}),
    ("familia", {2: 108, 6: 108}), ("online", {2: 108, 4: 108}),
])
def test_deck_size_by_players(preset: str, sizes: dict[int, int]) -> None:
    """Ruling 1: packs and jokers per preset and player count, as a seeded deal holds them."""
    for players, size in sizes.items():
        cards = dealt_cards(preset, {}, players)
        assert sum(cards.values()) == size, (preset, players)
        packs = 3 if size > 110 else 2
        assert cards["7H"] == packs
        assert cards["JK"] == size - 52 * packs


@pytest.mark.parametrize(("preset", "options", "players", "size", "jokers"), [
    ("chile", {"jokers": 1}, 2, 106, 2), ("chile", {"decks": 3}, 2, 162, 6),
    ("chile", {"decks": 1, "jokers": 0}, 3, 52, 0), ("chile", {"decks": 2}, 7, 108, 4),
    ("dos-libres", {"jokers": 2}, 3, 108, 4), ("familia", {"decks": 3}, 2, 162, 6),
])
def test_decks_and_jokers_options(preset: str, options: dict[str, Any], players: int,
                                  size: int, jokers: int) -> None:
    """`decks` fixes the packs whatever the table; `jokers` is jokers per pack."""
    cards = dealt_cards(preset, options, players)
    assert (sum(cards.values()), cards["JK"]) == (size, jokers)


def test_a_deal_of_another_deck_is_refused_in_words() -> None:
    """A record's deal must be exactly the rules' deck: dos-libres has 106 cards."""
    doc = one_round("chile", {"rounds": [1]}, [IDLE_11, "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"],
                    [])
    doc["rules"] = {"preset": "dos-libres", "options": {"rounds": [1]}}
    at = error(doc)
    assert at[:2] == (1, None) and "106" in at[2]
    small = record("chile", {"decks": 1}, [], players=5)
    at = error(small)
    assert at[:2] == (None, None) and "add a deck" in at[2]


# =========================================================================== rounds option

TWO_ESCALAS = "3H 4H 5H 6H 7H 8H 3S 4S 5S 6S 7S 8S"
THREE_ESCALAS = "3H 4H 5H 6H 3S 4S 5S 6S 3D 4D 5D 6D"


def test_rounds_option_plays_the_listed_rounds_in_order() -> None:
    """Ruling 33 / record spec: `rounds: [3, 1]` plays two escalas, then two tríos; rounds
    are counted by their position in the record, for dealing and in the output."""
    options = {"rounds": [3, 1]}
    escalas = round_of("chile", options, [OTHER_12, TWO_ESCALAS],
                       [draw(1), bajar(1, "3H 4H 5H 6H 7H 8H / 3S 4S 5S 6S 7S 8S"),
                        discard(1, "QC")], top="QC")
    tríos = out_at_once("chile", options, 0)
    got = ok(record("chile", options, [escalas, tríos]))
    assert [(r["round"], r["went_out"]) for r in got["rounds"]] == [(1, 1), (2, 0)]
    assert got["finished"]
    wrong = record("chile", options, [out_at_once("chile", options, 1)])
    at = error(wrong)
    assert at[:2] == (1, 2) and "two escalas" in at[2]


@pytest.mark.parametrize(("preset", "rounds", "at_once"), [
    ("chile", [7, 1], True), ("chile", [6, 7], False), ("chico", [4], True),
    ("chico", [3], False), ("chile-10", [7], True), ("rumi", [7], True),
])
def test_a_picked_round_keeps_its_go_out_at_once_flag(preset: str, rounds: list[int],
                                                      at_once: bool) -> None:
    """The round picked keeps its definition: chile's round 7 (chico's 4) is gone out of in
    one turn, so agregar follows the bajar at once (ruling 12); elsewhere it waits a turn."""
    if at_once:
        hand, melds = THREE_ESCALAS, "3H 4H 5H 6H / 3S 4S 5S 6S / 3D 4D 5D 6D"
    else:  # chile's round 6, chico's 3: a trío and two escalas
        hand = "3H 4H 5H 6H 3S 4S 5S 6S 9D 9H 9S KC"
        melds = "9D 9H 9S / 3S 4S 5S 6S / 3H 4H 5H 6H"
        if preset == "chico":  # chile's round 5: two tríos and an escala
            hand = "3H 4H 5H 6H 8S 8C 8D 9D 9H 9S KC QC"
            melds = "8S 8C 8D / 9D 9H 9S / 3H 4H 5H 6H"

    def play(options: dict[str, Any]) -> dict[str, Any]:
        return one_round(preset, {"rounds": rounds, **options}, [IDLE_12, hand],
                         [draw(1), bajar(1, melds), agregar(1, "7H", 0 if at_once else 2)],
                         top="7H")

    if at_once:
        assert ok(play({}))["rounds"][0]["went_out"] == 1
    else:
        at = error(play({}))
        assert at[:2] == (1, 3) and "next turn" in at[2]
        assert game(play({"layoff_same_turn": True})).view(None).melds[2].describe() == (
            "escala 3H 4H 5H 6H 7H")


# =========================================================================== chile-10, familia

SUCIA_12 = "AH 2S 3D 4C JK 6S 7D 8C 9H 10S JD QC"


def test_chile_10_escala_sucia_with_one_joker_goes_out() -> None:
    """chile-10 round 9: the escala sucia (A to K, any suits, at most one wild) takes the
    whole hand after the draw: laying it is going out (ruling 29); A 20, joker 30."""
    doc = one_round("chile-10", {"rounds": [9]}, [IDLE_12, SUCIA_12],
                    [draw(1), bajar(1, SUCIA_12 + " KH")], top="KH")
    assert value("chile-10", IDLE_12) == 102
    assert ok(doc)["rounds"] == [{"round": 1, "went_out": 1, "scores": [102, 0]}]
    assert melds_of(doc)[0].startswith("escala sucia AH 2S 3D 4C 5(JK) 6S")
    shuffled = SUCIA_12.replace("2S 3D", "3D 2S")
    assert error(one_round("chile-10", {"rounds": [9]}, [IDLE_12, SUCIA_12],
                           [draw(1), bajar(1, shuffled + " KH")], top="KH"))[:2] == (1, 2)
    two = SUCIA_12.replace("9H", "JK")
    assert "one wild" in error(one_round("chile-10", {"rounds": [9]}, [IDLE_12, two],
                                         [draw(1), bajar(1, two + " KH")], top="KH"))[2]


def test_chile_10_escala_real_takes_no_wild() -> None:
    """chile-10 round 10: the escala real is one suit, A to K, no wild."""
    real = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH"
    doc = one_round("chile-10", {"rounds": [10]}, [IDLE_12, real],
                    [draw(1), bajar(1, real + " KH")], top="KH")
    assert ok(doc)["rounds"][0]["went_out"] == 1
    joker = real.replace("5H", "JK")
    refused = one_round("chile-10", {"rounds": [10]}, [IDLE_12, joker],
                        [draw(1), bajar(1, joker + " KH")], top="KH")
    assert "no wild" in error(refused)[2]
    also = one_round("chile-10", {"rounds": [10], "max_wilds_per_meld": None},
                     [IDLE_12, joker], [draw(1), bajar(1, joker + " KH")], top="KH")
    assert "no wild" in error(also)[2]


def familia_round_2(hand: str, melds: str, more: Sequence[dict[str, Any]] = (),
                    **options: Any) -> dict[str, Any]:
    return one_round("familia", {"rounds": [2], **options}, [IDLE_12, hand],
                     [draw(1), bajar(1, melds), discard(1, "QC"), draw(0), discard(0, "QS"),
                      draw(1), *more], top="QC QS 6H")


def test_familia_escalas_of_three() -> None:
    """familia: escalas of 3 (1T+1E3), extended later like any escala; any number of
    wilds, but one natural card at least; the ace never turns the corner."""
    hand = "3H 4H 5H 9S 9D 9H 2C 4C 6C 8C JK JK"
    doc = familia_round_2(hand, "3H 4H 5H / 9S 9D 9H", [agregar(1, "6H", 0)])
    assert melds_of(doc)[0] == "escala 3H 4H 5H 6H"
    wild = familia_round_2(hand, "3H JK JK / 9S 9D 9H")
    assert melds_of(wild)[0] == "escala 3H 4H(JK) 5H(JK)"
    assert error(familia_round_2(hand, "3H 4H / 9S 9D 9H"))[:2] == (1, 2)
    corner = familia_round_2("KH AH 2H 9S 9D 9H 2C 4C 6C 8C JK JK", "KH AH 2H / 9S 9D 9H")
    assert "K-A-2" in error(corner)[2]
    high = familia_round_2("QH KH AH 9S 9D 9H 2C 4C 6C 8C JK JK", "QH KH AH / 9S 9D 9H")
    assert melds_of(high)[0] == "escala QH KH AH"


# =========================================================================== online, going out

ONLINE_R2 = "3H 4H 5H 6H 9S 9D 9H 2H 7H 9C KD"


def online_round_2(melds: str, more: Sequence[dict[str, Any]] = (),
                   **options: Any) -> dict[str, Any]:
    return one_round("online", {"rounds": [2], **options}, [IDLE_11, ONLINE_R2],
                     [draw(1), bajar(1, melds), discard(1, "QC"), draw(0), discard(0, "QS"),
                      draw(1), *more], pozo="5C", top="QC QS 8H")


def test_online_exactly_3_and_4_when_laid_then_extended() -> None:
    """online: a trío of exactly 3 and an escala of exactly 4 when laid; later they grow
    (the escala at either end); going out is by the discard (A 15, 10-K 10)."""
    assert "exactly 4" in error(online_round_2("2H 3H 4H 5H 6H / 9S 9D 9H"))[2]
    assert "exactly 3" in error(online_round_2("3H 4H 5H 6H / 9S 9D 9H 9C"))[2]
    adds = [agregar(1, "2H", 0), agregar(1, "7H", 0), agregar(1, "8H", 0),
            agregar(1, "9C", 1), discard(1, "KD")]
    doc = online_round_2("3H 4H 5H 6H / 9S 9D 9H", adds)
    assert value("online", IDLE_11) == 87
    assert ok(doc)["rounds"] == [{"round": 1, "went_out": 1, "scores": [87, 0]}]
    assert melds_of(doc) == ["escala 2H 3H 4H 5H 6H 7H 8H", "trío 9S 9D 9H 9C"]
    assert ok(online_round_2("2H 3H 4H 5H 6H / 9S 9D 9H 9C", exact_melds=False))


def last_card_laid_off(preset: str, options: dict[str, Any], end: dict[str, Any]
                       ) -> dict[str, Any]:
    """Round 2 (a trío and an escala): seat 1 lays down, and in its next turn lays off
    every card, a 9H last (or plays ``end`` instead of laying the 9H off)."""
    hand = "3H 4H 5H 6H 9S 9D 9H 2H 7H 9C 9H"
    idle = IDLE_11
    adds = [agregar(1, "2H", 0), agregar(1, "7H", 0), agregar(1, "8H", 0), agregar(1, "9C", 1)]
    if preset != "online":  # twelve cards: one more for the trío
        hand, idle = hand + " 9S", IDLE_12
        adds.append(agregar(1, "9S", 1))
    actions = [draw(1), bajar(1, "3H 4H 5H 6H / 9S 9D 9H"), discard(1, "QC"),
               draw(0), discard(0, "QS"), draw(1), *adds, end]
    return one_round(preset, {"rounds": [2], **options}, [idle, hand], actions, pozo="5C",
                     top="QC QS 8H")


@pytest.mark.parametrize(("preset", "options", "by_layoff"), [
    ("chile", {}, True), ("chile", {"go_out_by_layoff": False}, False),
    ("online", {}, False), ("online", {"go_out_by_layoff": True}, True),
])
def test_go_out_by_layoff(preset: str, options: dict[str, Any], by_layoff: bool) -> None:
    """`go_out_by_layoff`: the last card laid off is going out, or (online, ruling 14) one
    card is kept back and going out is by the discard."""
    laid = last_card_laid_off(preset, options, agregar(1, "9H", 0))
    thrown = last_card_laid_off(preset, options, discard(1, "9H"))
    assert ok(thrown)["rounds"][0]["went_out"] == 1
    if by_layoff:
        assert ok(laid)["rounds"][0]["went_out"] == 1
    else:
        at = error(laid)
        assert at[:2] == (1, 11 if preset == "online" else 12)
        assert "keep one card" in at[2].lower()


# =========================================================================== errors

def rules_error(preset: str, options: dict[str, Any], players: int = 2) -> str:
    at = error(record(preset, options, [], players=players))
    assert at[:2] == (None, None)  # the document itself is at fault
    return at[2]


def test_rules_that_cannot_be_played_say_why() -> None:
    """Record spec: rules that can never be played (a contract a hand cannot hold, an
    unknown option, a bad value) are an error that says what is wrong."""
    said = rules_error("chile-10", {"go_out_by_layoff": False})
    assert "round 9" in said and "13 cards" in said and "discard" in said
    assert "did you mean 'buying'" in rules_error("chile", {"bying": "off"})
    assert "'wrap' must be true or false" in rules_error("online", {"wrap": "yes"})
    assert "penalty_card" in rules_error("chile", {"buying": "penalty"})
    assert "no round 9" in rules_error("chile", {"rounds": [9]})
    assert "no round 5" in rules_error("chico", {"rounds": [5]})
    assert "rounds" in rules_error("chile", {"rounds": []})
    assert "twos" in rules_error("chile", {"wilds": ["fours"]})
    assert "0 to 4" in rules_error("chile", {"jokers": 9})
    assert "1 to 4 packs" in rules_error("chile", {"decks": 0})
    assert "not a card rank" in rules_error("chile", {"values": {"X": 1}})
    assert "2 to 4 players, not 5" in rules_error("online", {}, players=5)
    assert "add a deck" in rules_error("familia", {"decks": 1}, players=5)
    assert "unknown preset" in rules_error("peru", {})


def test_errors_name_their_place() -> None:
    """Record spec: `round` and `action` are 1-based, null where the document is at fault."""
    good = out_at_once("chile", {"rounds": [1, 2]}, 1)
    two = {"rounds": [1, 2]}
    assert error(record("chile", two, [good, {"seed": 3, "actions": [draw(1)]}]))[:2] == (2, 1)
    assert error(record("chile", two, [good, {"actions": []}]))[:2] == (2, None)
    short = {**good, "deal": {**good["deal"], "hands": [OTHER_12.split()[:11],
                                                          SEVENS_EIGHTS.split()]}}
    assert error(record("chile", two, [short]))[:2] == (1, None)
    after = {**good, "actions": [*good["actions"], draw(0)]}
    assert "over" in error(record("chile", two, [after]))[2]
    pending = {**good, "actions": good["actions"][:1]}
    assert error(record("chile", two, [pending, good]))[:2] == (2, None)
    bad_card = {**good, "actions": [draw(1), discard(1, "1H")]}
    assert error(record("chile", two, [bad_card]))[:2] == (1, 2)
    no_seat = {**good, "actions": [{"p": 2, "draw": "mazo"}]}
    assert "seat" in error(record("chile", two, [no_seat]))[2]
    assert error({"format": "carioca-record/2", "rules": {"preset": "chile"},
                  "players": ["A", "B"], "rounds": []})[:2] == (None, None)


MALFORMED: list[Any] = [None, [], "chile", 3, {}, {"format": "carioca-record/1"},
                        {"format": "carioca-record/1", "rules": None, "players": [],
                         "rounds": []}]


@pytest.mark.parametrize("spot", ["rules", "options", "players", "rounds", "round", "deal",
                                  "hands", "pozo", "mazo", "actions", "action", "bajar"])
def test_no_input_makes_the_replay_crash(spot: str) -> None:
    """Record spec: no input, however malformed, ends in a traceback; the error has the
    three fields and a message."""
    for doc in MALFORMED:
        assert "error" in result(doc)
    junk: list[Any] = [None, True, -1, 1.5, 10**30, "", "x", [], [None], {}, {"x": 1}, [[]],
                       ["JK"], [1, 2], "7h"]
    for bad in junk:
        doc = outs_game("chile", {"rounds": [1]}, [1])
        entry = doc["rounds"][0]
        where: dict[str, tuple[Any, Any]] = {
            "rules": (doc, "rules"), "options": (doc["rules"], "options"),
            "players": (doc, "players"), "rounds": (doc, "rounds"),
            "round": (doc["rounds"], 0), "deal": (entry, "deal"),
            "hands": (entry["deal"], "hands"), "pozo": (entry["deal"], "pozo"),
            "mazo": (entry["deal"], "mazo"), "actions": (entry, "actions"),
            "action": (entry["actions"], 0), "bajar": (entry["actions"][1], "bajar"),
        }
        holder, key = where[spot]
        holder[key] = bad
        got = result(doc)
        if "error" in got:
            assert set(got["error"]) == {"round", "action", "message"}
            assert isinstance(got["error"]["message"], str) and got["error"]["message"]


# =========================================================================== the spec, values

def test_the_record_spec_example_replays() -> None:
    """The record spec's example, with its elided cards filled in: Ana buys Beto's 9C (and
    a penalty card), Caro lays two tríos, and a turn later adds the 7C and swaps the QD in
    for the joker, which comes to her hand (chile: `take`)."""
    caro = ["7H", "7S", "7D", "QS", "QH", "JK", "QD", "KD", "7C", "9H", "5C", "8S"]
    hands = [OTHER_12, "9C 2S 4S 6S 8S 10S AH 2H 4H 6H 8H 10H", " ".join(caro)]
    actions = [draw(1), discard(1, "9C"), buy(0), draw(2),
               {"p": 2, "bajar": [["7H", "7S", "7D"], ["QS", "QH", "JK"]]}, discard(2, "KD"),
               draw(0), discard(0, "6D"), draw(1), discard(1, "8D"),
               draw(2), agregar(2, "7C", 0), swap(2, "QD", 1), discard(2, "9H")]
    doc = one_round("chile", {"buying": "penalty_card"}, hands, actions, pozo="5D",
                    top="JC 3D 4D 6D 8D 3H")
    got = ok(doc)
    assert got["rounds"] == [{"round": 1, "went_out": None, "scores": None}]
    assert melds_of(doc) == ["trío 7H 7S 7D 7C", "trío QS QH QD"]
    assert sorted(hand_of(doc, 2)) == sorted(["5C", "8S", "4D", "3H", "JK"])
    assert sorted(hand_of(doc, 0)) == sorted([*OTHER_12.split(), "9C", "3D"])


def test_values_option_scores_the_hand() -> None:
    """`values` changes single entries of the preset's table (A 1, K 13 here)."""
    assert value("chile", OTHER_12) == 99
    got = ok(outs_game("chile", {"rounds": [1], "values": {"A": 1, "K": 13}}, [1]))
    assert got["rounds"][0]["scores"] == [99 - 19 + 3 + 3, 0]


def test_open_hands_option() -> None:
    """`open_hands`: every seat sees the others' hands; off, only its own."""
    for opened in (False, True):
        options = {"rounds": [1], "open_hands": opened}
        doc = record("familia", options,
                     [round_of("familia", options, [OTHER_12, SEVENS_EIGHTS], [])])
        view = game(doc).view(0)
        if opened:
            assert view.open_hands is not None
            assert [str(x) for x in view.open_hands[1]] == SEVENS_EIGHTS.split()
        else:
            assert view.open_hands is None


def test_every_preset_takes_every_public_option_in_a_record() -> None:
    """RULES.md: every preset accepts every public option, by its public name, in a record's
    `rules.options`, and the replay writes it back."""
    for preset in PRESETS:
        for name in PUBLIC:
            value_ = {"rounds": [1], "values": {"JK": 40}, "wilds": ["jokers"],
                      "buying": "penalty_points", "scoring": "rounds",
                      "tie_break": "most_outs", "joker_replacement": "off",
                      "max_wilds_per_meld": 2, "max_buys_per_round": 1, "out_score": -10,
                      "instant_out_score": -20, "decks": 3, "jokers": 1}.get(name, True)
            doc = record(preset, {name: value_}, [{"seed": 2, "actions": []}])
            g = game(doc)
            assert g.to_record()["rules"]["options"][name] == value_, (preset, name)
