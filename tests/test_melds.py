"""Melds: reading tríos and escalas from the cards as laid, growing them, swapping wilds out,
and the reasons given when cards are not a meld."""

from __future__ import annotations

import pytest
from hypothesis import assume as hyp_assume
from hypothesis import given, settings
from hypothesis import strategies as st

from carioca import Card, Meld, MeldError, RuleSet, parse_cards
from carioca.melds import rank_at, read_meld, wild_limit

CHILE = RuleSet.preset("chile")
ONLINE = RuleSet.preset("online")
FAMILIA = RuleSet.preset("familia")
DOS = RuleSet.preset("dos-libres")
CHILE_10 = RuleSet.preset("chile-10")


def c(text: str) -> Card:
    return Card.parse(text)


def cs(text: str) -> list[Card]:
    return parse_cards(text)


def trio(text: str, rules: RuleSet = CHILE, **kw: object) -> Meld:
    return read_meld(cs(text), "trio", rules, **kw)  # type: ignore[arg-type]


def escala(text: str, rules: RuleSet = CHILE, **kw: object) -> Meld:
    return read_meld(cs(text), "escala", rules, **kw)  # type: ignore[arg-type]


def why(text: str, kind: str, rules: RuleSet = CHILE, **kw: object) -> str:
    with pytest.raises(MeldError) as info:
        read_meld(cs(text), kind, rules, **kw)  # type: ignore[arg-type]
    return str(info.value)


# --------------------------------------------------------------------------- tríos

def test_trio_with_duplicate_cards() -> None:
    """Copies from two decks are the same card: 7H 7H 7S is a trío."""
    m = trio("7H 7H 7S")
    assert (m.kind, m.rank, m.wild_count) == ("trio", 7, 0)
    assert m.cards == tuple(cs("7H 7H 7S"))


def test_trio_longer_and_with_a_wild() -> None:
    assert len(trio("7H 7S 7D 7C 7H").cards) == 5
    m = trio("7H JK 7S")
    assert m.wild == (False, True, False)
    assert m.stands_for(1) == "7"
    assert m.describe() == "trío 7H 7(JK) 7S"


def test_trio_of_mixed_ranks_says_so() -> None:
    assert why("7H 8S 7D", "trio") == "a trío is cards of one rank, not 7, 8"


def test_trio_with_a_joker_that_is_not_wild_names_it() -> None:
    no_jokers = RuleSet.preset("online", wilds=["red_aces"])
    assert why("7H 7S JK", "trio", no_jokers) == (
        "the jokers are not wild in these rules: a joker fits no meld")
    assert why("JK 5H 6H 7H", "escala", no_jokers).startswith("the jokers are not wild")
    assert why("10H 7S 10D", "trio") == "a trío is cards of one rank, not 7, 10"


def test_trio_too_short_says_how_many() -> None:
    assert why("7H 7S", "trio") == "a trío needs 3 cards, not 2"
    assert why("7H 7S 7D", "trio", min_len=4) == "a trío needs 4 cards, not 3"


def test_trio_exact() -> None:
    assert why("7H 7S 7D 7C", "trio", exact=True) == (
        "a trío is laid down with exactly 3 cards, not 4")
    assert len(trio("7H 7S 7D", exact=True).cards) == 3


def test_trio_wild_limit() -> None:
    assert why("7H JK JK", "trio") == "a meld may hold only one wild card (comodín)"
    assert trio("7H JK JK", FAMILIA).wild_count == 2
    assert why("7H JK JK JK", "trio", RuleSet.preset("chile", max_wilds_per_meld=2)) == (
        "a meld may hold at most 2 wild cards")
    assert why("7H 7S JK", "trio", RuleSet.preset("chile", max_wilds_per_meld=0)) == (
        "this meld may hold no wild card")


def test_trio_needs_a_natural_card() -> None:
    assert "natural" in why("JK JK JK", "trio", FAMILIA)


def test_trio_of_twos_is_natural_where_twos_are_wild() -> None:
    m = trio("2S 2H 2D", DOS)
    assert (m.rank, m.wild_count) == (2, 0)
    assert trio("2S 2H JK", DOS).wild == (False, False, True)
    assert trio("7H 7S 2C", DOS).wild == (False, False, True)
    assert "one wild" in why("7H 2S 2C", "trio", DOS)


def test_trio_a_two_is_natural_only_where_twos_are_not_wild() -> None:
    assert "one rank" in why("7H 7S 2C", "trio")


# --------------------------------------------------------------------------- escalas

def test_escala_joker_place_from_the_order() -> None:
    """5H JK 7H 8H: the joker is the 6H; JK 5H 6H 7H: it is the 4H."""
    m = escala("5H JK 7H 8H")
    assert m.wild == (False, True, False, False)
    assert m.stands_for(1) == "6H"
    assert (m.start, m.suit) == (5, "H")
    assert m.describe() == "escala 5H 6H(JK) 7H 8H"
    m = escala("JK 5H 6H 7H")
    assert m.stands_for(0) == "4H" and m.start == 4
    assert escala("5H 6H 7H JK").stands_for(3) == "8H"


def test_escala_ace_low_and_high() -> None:
    low = escala("AH 2H 3H 4H")
    assert low.start == 1 and low.stands_for(0) == "AH"
    high = escala("JH QH KH AH")
    assert high.start == 11 and high.stands_for(3) == "AH"
    assert escala("JK QH KH AH").stands_for(0) == "JH"
    assert escala("JK 2H 3H 4H").stands_for(0) == "AH"


def test_escala_never_both_ends_without_wrap() -> None:
    assert why("KS AS 2S 3S", "escala") == (
        "an escala may not turn the corner (K-A-2): the ace is low (A-2-3) or high (Q-K-A)")
    with pytest.raises(MeldError):
        escala("QH KH AH JK")  # nothing comes after the high ace
    with pytest.raises(MeldError):
        escala("JK AH 2H 3H")  # nothing comes before the low ace


def test_escala_wraps_with_wrap() -> None:
    m = escala("KS AS 2S 3S", ONLINE)
    assert (m.start, [m.stands_for(i) for i in range(4)]) == (13, ["KS", "AS", "2S", "3S"])
    assert escala("JK AH 2H 3H", ONLINE).stands_for(0) == "KH"
    assert escala("QH KH AH JK", ONLINE).stands_for(3) == "2H"


def test_escala_no_rank_twice() -> None:
    assert why("3H 4H 4H 5H", "escala") == "no rank may appear twice in an escala"
    assert "thirteen" in why("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "escala", ONLINE)


def test_escala_one_suit_in_order() -> None:
    assert why("3H 4H 5S 6H", "escala") == "an escala is cards of one suit"
    assert why("3H 4H 6H 7H", "escala") == (
        "the cards of an escala follow each other in order, low to high")
    assert "in order" in why("4H 3H 5H 6H", "escala")
    assert "in order" in why("6H 5H 4H 3H", "escala")


def test_escala_length() -> None:
    assert why("3H 4H 5H", "escala") == "an escala needs 4 cards, not 3"
    assert len(escala("3H 4H 5H", FAMILIA, min_len=3).cards) == 3
    assert why("3H 4H 5H 6H 7H", "escala", ONLINE, exact=True) == (
        "an escala is laid down with exactly 4 cards, not 5")


def test_escala_wild_limit_and_natural_card() -> None:
    assert "only one wild" in why("5H JK JK 8H", "escala")
    assert escala("5H JK JK 8H", FAMILIA).wild_count == 2
    assert "natural" in why("JK JK JK JK", "escala", FAMILIA)


def test_escala_a_wild_two_or_red_ace_at_its_own_place() -> None:
    assert escala("2H 3H 4H JK", DOS).wild == (False, False, False, True)
    assert escala("2S 3H 4H 5H", DOS).wild == (True, False, False, False)
    aces = RuleSet.preset("online", wilds=["jokers", "red_aces"])
    assert escala("AD 2D 3D JK", aces).wild == (False, False, False, True)
    assert escala("AD 5S 6S 7S", aces).stands_for(0) == "4S"


# --------------------------------------------------------------------------- sucia, real, colores

SUCIA = "AH 2S 3D 4C 5H 6S 7D 8C 9H 10S JD QC KH"
REAL = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
COLORES = "AH 2S 3D 4C 5H 6S 7D 8C 9H 10S JD QC KH"


def test_sucia_any_suits_at_most_one_wild() -> None:
    m = read_meld(cs(SUCIA), "sucia", CHILE_10)
    assert (m.kind, m.wild_count, m.stands_for(0)) == ("sucia", 0, "A")
    one = read_meld(cs(SUCIA.replace("7D", "JK")), "sucia", CHILE_10)
    assert one.stands_for(6) == "7"
    two = SUCIA.replace("7D", "JK").replace("9H", "JK")
    assert why(two, "sucia", FAMILIA) == "a meld may hold only one wild card (comodín)"
    assert wild_limit("sucia", FAMILIA) == 1


def test_sucia_runs_ace_to_king_in_order() -> None:
    assert why(" ".join(SUCIA.split()[1:] + ["AH"]), "sucia", CHILE_10) == (
        "an escala sucia is the thirteen cards from the ace to the king, in order, any suits")
    assert why(" ".join(SUCIA.split()[:12]), "sucia", CHILE_10) == (
        "an escala sucia needs 13 cards, not 12")


def test_real_one_suit_no_wild() -> None:
    assert read_meld(cs(REAL), "real", CHILE_10).suit == "S"
    assert why(REAL.replace("5S", "JK"), "real", CHILE_10) == "this meld may hold no wild card"
    assert "one suit" in why(REAL.replace("5S", "5H"), "real", CHILE_10)
    assert wild_limit("real", FAMILIA) == 0


def test_real_with_a_natural_wild_two() -> None:
    m = read_meld(cs(REAL), "real", DOS)
    assert m.wild_count == 0


def test_colores_alternating() -> None:
    m = read_meld(cs(COLORES), "colores", CHILE)
    assert (m.wild_count, m.suit) == (0, "R")
    assert m.stands_for(1) == "2B"
    black_first = "AS 2H 3C 4D 5S 6H 7C 8D 9S 10H JC QD KS"
    assert read_meld(cs(black_first), "colores", CHILE).suit == "B"
    assert "alternating red and black" in why(COLORES.replace("2S", "2D"), "colores")
    wild = read_meld(cs(COLORES.replace("6S", "JK")), "colores", CHILE)
    assert wild.stands_for(5) == "6B"


def test_full_melds_take_nothing_more() -> None:
    for kind, text in (("sucia", SUCIA), ("real", REAL), ("colores", COLORES)):
        m = read_meld(cs(text), kind, CHILE_10)  # type: ignore[arg-type]
        with pytest.raises(MeldError, match="nothing can be added"):
            m.extended(c("JK"), None, CHILE_10)
        assert m.open_ends(CHILE_10) == ()


# --------------------------------------------------------------------------- extended

def test_extended_trio() -> None:
    m = trio("7H 7S 7D")
    assert m.extended(c("7C"), None, CHILE).cards == tuple(cs("7H 7S 7D 7C"))
    grown = m.extended(c("JK"), "low", CHILE)  # a trío has no ends: the end is ignored
    assert grown.wild == (False, False, False, True)
    with pytest.raises(MeldError, match="only one wild"):
        grown.extended(c("JK"), None, CHILE)
    assert grown.extended(c("JK"), None, CHILE, limit=False).wild_count == 2
    with pytest.raises(MeldError) as info:
        m.extended(c("8H"), None, CHILE)
    assert str(info.value) == "8H is not a 7: it does not fit the trío"


def test_extended_escala_ends() -> None:
    m = escala("5H 6H 7H 8H")
    assert m.open_ends(CHILE) == ("low", "high")
    assert m.extended(c("9H"), "high", CHILE).cards[-1] == c("9H")
    low = m.extended(c("4H"), "low", CHILE)
    assert (low.start, low.cards[0]) == (4, c("4H"))
    assert m.extended(c("4H"), None, CHILE).start == 4  # a natural card goes where it fits
    with pytest.raises(MeldError) as info:
        m.extended(c("10H"), "high", CHILE)
    assert str(info.value) == "10H does not fit the high end of the escala (it needs 9H)"


def test_extended_escala_wild_default_end() -> None:
    m = escala("5H 6H 7H 8H")
    assert m.extended(c("JK"), None, CHILE).stands_for(4) == "9H"
    top = escala("JH QH KH AH")
    assert top.extended(c("JK"), None, CHILE).stands_for(0) == "10H"


def test_extended_closed_ends_say_why() -> None:
    low = escala("AH 2H 3H 4H")
    assert low.open_ends(CHILE) == ("high",)
    with pytest.raises(MeldError, match="already starts at the ace"):
        low.extended(c("JK"), "low", CHILE)
    high = escala("JH QH KH AH")
    with pytest.raises(MeldError, match="already ends at the ace"):
        high.extended(c("JK"), "high", CHILE)
    full = escala("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    assert full.open_ends(CHILE) == ()
    with pytest.raises(MeldError, match="all thirteen ranks"):
        full.extended(c("AH"), "high", CHILE)


def test_extended_escala_around_the_corner_with_wrap() -> None:
    m = escala("QS KS AS 2S", ONLINE)
    assert m.extended(c("3S"), "high", ONLINE).stands_for(4) == "3S"
    low = escala("AS 2S 3S 4S", ONLINE).extended(c("KS"), "low", ONLINE)
    assert (low.start, low.stands_for(0)) == (13, "KS")
    with pytest.raises(MeldError):
        escala("AS 2S 3S 4S").extended(c("KS"), "low", CHILE)


def test_extended_natural_two_at_its_place_is_not_a_wild() -> None:
    m = escala("3H 4H 5H JK", DOS)
    grown = m.extended(c("2H"), "low", DOS)
    assert grown.wild == (False, False, False, False, True)


def test_rank_at() -> None:
    assert [rank_at(p) for p in (1, 13, 14, 15, 27)] == [1, 13, 1, 2, 1]


# --------------------------------------------------------------------------- swapping

def test_wild_index_for_escala_needs_the_exact_card() -> None:
    m = escala("5H JK 7H 8H")
    assert m.wild_index_for(c("6H")) == 1
    assert m.wild_index_for(c("6S")) is None
    assert m.wild_index_for(c("5H")) is None
    assert m.wild_index_for(c("JK")) is None


def test_wild_index_for_trio_any_card_of_the_rank() -> None:
    m = trio("7H JK 7S")
    assert m.wild_index_for(c("7C")) == 1
    assert m.wild_index_for(c("7H")) == 1
    assert m.wild_index_for(c("8C")) is None
    assert trio("7H JK JK", FAMILIA).wild_index_for(c("7D")) == 1  # the first wild


def test_wild_index_for_a_natural_two() -> None:
    assert escala("AH 2H 3H JK", DOS).wild_index_for(c("2H")) is None


def test_swapped() -> None:
    m = escala("5H JK 7H 8H")
    new, wild = m.swapped(c("6H"), 1)
    assert wild == c("JK")
    assert new.cards == tuple(cs("5H 6H 7H 8H"))
    assert new.wild_count == 0
    assert (new.start, new.suit, new.kind) == (5, "H", "escala")
    assert m.cards == tuple(cs("5H JK 7H 8H"))  # melds are values
    t, w = trio("7H JK 7S").swapped(c("7D"), 1)
    assert (t.cards, t.rank, w) == (tuple(cs("7H 7D 7S")), 7, c("JK"))


def test_to_json_says_what_each_card_stands_for() -> None:
    m = read_meld(cs("5H JK 7H 8H"), "escala", CHILE, owner=2)
    assert m.to_json() == {"kind": "escala", "owner": 2, "cards": ["5H", "JK", "7H", "8H"],
                           "stands_for": ["5H", "6H", "7H", "8H"]}


# --------------------------------------------------------------------------- grown

_CARDS = [Card(i) for i in range(53)]


@st.composite
def _table_melds(draw: st.DrawFn) -> tuple[RuleSet, Meld]:
    """A meld as it lies on the table under some preset: a trío or an escala, perhaps with a
    wild card in it and perhaps already grown."""
    rules = draw(st.sampled_from([CHILE, ONLINE, FAMILIA, DOS, CHILE_10]))
    if draw(st.booleans()):
        rank = draw(st.integers(1, 13))
        cards = [Card.of(rank, s) for s in draw(st.lists(st.sampled_from("SHDC"), min_size=3,
                                                         max_size=5))]
        kind = "trio"
    else:
        suit = draw(st.sampled_from("SHDC"))
        start = draw(st.integers(1, 11))
        length = draw(st.integers(3, 14 - start))
        cards = [Card.of(rank_at(p), suit) for p in range(start, start + length)]
        kind = "escala"
    if draw(st.booleans()):
        cards[draw(st.integers(0, len(cards) - 1))] = c("JK")
    try:
        return rules, read_meld(cards, kind, rules, min_len=3)  # type: ignore[arg-type]
    except MeldError:
        hyp_assume(False)
        raise


@given(_table_melds(), st.sampled_from(_CARDS), st.sampled_from([None, "low", "high"]),
       st.booleans())
@settings(max_examples=400, deadline=None)
def test_grown_says_no_exactly_when_extended_raises(
        table: tuple[RuleSet, Meld], card: Card, end: str | None, limit: bool) -> None:
    rules, meld = table
    grown = meld.grown(card, end, rules, limit=limit)  # type: ignore[arg-type]
    try:
        extended = meld.extended(card, end, rules, limit=limit)  # type: ignore[arg-type]
    except MeldError as exc:
        assert grown is None and str(exc)
        assert not meld.fits(card, end, rules, limit=limit)  # type: ignore[arg-type]
    else:
        assert grown == extended
        assert meld.fits(card, end, rules, limit=limit)  # type: ignore[arg-type]
