"""Rule sets: construction refuses what cannot be played (with a reason), presets are frozen
values, options change one rule at a time, and the record's ``rules`` object round-trips."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from carioca import Card, RulesError, RuleSet
from carioca.rules import OPTION_NAMES, PRESETS, Contract, RoundDef


def refused(**options: Any) -> str:
    with pytest.raises(RulesError) as info:
        RuleSet.preset("chile", **options)
    return str(info.value)


# --------------------------------------------------------------------------- names

def test_unknown_option_with_a_hint() -> None:
    assert refused(bying="off") == "unknown option 'bying' (did you mean 'buying'?)"
    assert "did you mean 'max_wilds_per_meld'" in refused(max_wild_per_meld=1)
    assert refused(colour="red") == "unknown option 'colour'"
    # Names that are Python's own words are options like any other (it was a TypeError).
    assert refused(**{"self": 1}) == "unknown option 'self'"
    with pytest.raises(RulesError, match="unknown option 'self'"):
        RuleSet.preset("chile").with_options(**{"self": 1})


def test_unknown_preset_with_a_hint() -> None:
    with pytest.raises(RulesError) as info:
        RuleSet.preset("chille")
    assert "unknown preset 'chille' (did you mean 'chile'?)" in str(info.value)
    assert "online" in str(info.value)  # lists the presets
    assert RuleSet.preset(" Chile ").preset_name == "chile"


# --------------------------------------------------------------------------- bad values

@pytest.mark.parametrize(("option", "value", "words"), [
    ("buying", "sometimes", "must be one of off, penalty_card, penalty_points"),
    ("scoring", "marks", "must be one of points, rounds"),
    ("tie_break", "coin", "must be one of share, most_outs, extra_round"),
    ("joker_replacement", "steal", "must be one of off, take, anyone, relocate"),
    ("wrap", "yes", "must be true or false"),
    ("open_hands", 1, "must be true or false"),
    ("max_buys_per_round", -1, "whole number from 0 to 20"),
    ("max_buys_per_round", True, "whole number"),
    ("max_buys_per_round", 2.5, "whole number"),
    ("out_score", "-10", "whole number"),
    ("jokers", 5, "whole number from 0 to 4"),
    ("max_turns_per_round", 5, "whole number from 10"),
    ("max_wilds_per_meld", "lots", "max_wilds_per_meld"),
    ("max_wilds_per_meld", -1, "max_wilds_per_meld"),
    ("decks", 0, "1 to 4 packs"),
    ("decks", "two", "1 to 4 packs"),
    ("wilds", ["threes"], "may hold jokers, twos, red_aces; not threes"),
    ("wilds", 5, "must be a list"),
    ("wilds", [1], "must be a list"),
    ("values", [20], "must map cards"),
    ("values", {"Z": 3}, "is not a card rank"),
    ("values", {"A": -1}, "0 to 1000"),
    ("values", {"A": True}, "0 to 1000"),
    ("rounds", [], "list of round numbers from 1 to 8"),
    ("rounds", "1", "list of round numbers"),
    ("rounds", [1.0], "list of round numbers"),
    ("rounds", [0], "there is no round 0"),
    ("rounds", [9], "there is no round 9"),
    ("contracts", "2T", "must be a list"),
    ("contracts", [], "must be a list"),
    ("contracts", ["2X"], "is not a meld"),
    ("hand_size", "big", "must be a number"),
    ("hand_size", [12, 12], "a list of 8 numbers"),
    ("hand_size", 14, "deal 1 to 13"),
    ("hand_size", 0, "deal 1 to 13"),
    ("max_players", 9, "whole number from 2 to 8"),
])
def test_bad_values_say_why(option: str, value: Any, words: str) -> None:
    assert words in refused(**{option: value})


def test_good_values_of_each_type() -> None:
    r = RuleSet.preset("chile", buying="penalty_points", wrap=True, max_buys_per_round=0,
                       max_wilds_per_meld="none", decks="auto", wilds="twos",
                       values={"t": 11, "joker": 40, "a": 15}, out_score=-10)
    assert (r.buying, r.wrap, r.max_buys_per_round, r.max_wilds_per_meld, r.decks) == (
        "penalty_points", True, 0, None, None)
    assert r.wilds == frozenset({"twos"})
    assert (r.value(Card.parse("10H")), r.value(Card.parse("JK")),
            r.value(Card.parse("AH"))) == (11, 40, 15)
    assert RuleSet.preset("chile", max_wilds_per_meld=None).max_wilds_per_meld is None


def test_keyword_construction_is_checked() -> None:
    rounds = PRESETS["chile"].rounds
    with pytest.raises(RulesError, match="no rounds"):
        RuleSet(rounds=())
    with pytest.raises(RulesError, match="2 to 8 players"):
        RuleSet(rounds=rounds, min_players=1)
    with pytest.raises(RulesError, match=r"^min_players \(5\) cannot be more than "
                                         r"max_players \(4\)$"):
        RuleSet(rounds=rounds, min_players=5, max_players=4)
    with pytest.raises(RulesError, match="jokers"):
        RuleSet(rounds=rounds, jokers=5)
    with pytest.raises(RulesError, match="decks"):
        RuleSet(rounds=rounds, decks=5)
    with pytest.raises(RulesError, match="not threes"):
        RuleSet(rounds=rounds, wilds=frozenset({"threes"}))
    with pytest.raises(RulesError, match="max_wilds_per_meld"):
        RuleSet(rounds=rounds, max_wilds_per_meld=-1)
    with pytest.raises(RulesError, match="lacks JK"):
        RuleSet(rounds=rounds, values=(("A", 20),) + tuple((str(n), n) for n in range(2, 11))
                + (("J", 10), ("Q", 10), ("K", 10)))
    with pytest.raises(TypeError):
        RuleSet(PRESETS["chile"].rounds)  # type: ignore[misc]  # keyword-only
    assert RuleSet(rounds=rounds).preset_name == "custom"


# --------------------------------------------------------------------------- impossible

def test_impossible_contracts_are_refused_in_words() -> None:
    text = refused(contracts=["4E"])
    assert text == ("round 1 (4E) can never be played: four escalas of 4 need at least 16 "
                    "cards, but a hand never holds more than 13")
    assert "escala must be 3 to 13 cards long, not 2" in refused(contracts=["1E2"])
    assert "14" in refused(contracts=["1E14"])


def test_a_card_kept_for_the_discard_counts() -> None:
    with pytest.raises(RulesError) as info:
        RuleSet.preset("online", contracts=["3E"])  # 11 cards, go out only by discarding
    assert "one card must be kept for the last discard" in str(info.value)
    RuleSet.preset("chile", contracts=["3E"], hand_size=11)  # go out by laying off: fine


def test_dos_libres_four_escalas_refused() -> None:
    contracts = ["2T", "1T+1E", "2E", "3T", "2T+1E", "1T+2E", "3E!", "4T|4E!"]
    with pytest.raises(RulesError) as info:
        RuleSet.preset("dos-libres", contracts=contracts)
    assert "16 cards" in str(info.value) and "more than 14" in str(info.value)


def test_contract_parse() -> None:
    assert str(Contract.parse("1t + 2e")) == "1T+2E"
    assert Contract.parse("2E3").min_cards == 6
    assert [m.kind for m in Contract.parse("ES+ER+EC").melds] == ["sucia", "real", "colores"]
    for bad, words in (("2X", "not a meld"), ("2T+", "empty part"), ("0T", "asks for no")):
        with pytest.raises(RulesError, match=words):
            Contract.parse(bad)
    assert Contract.parse("1T+2E").words("es") == "un trío y dos escalas de 4"


# --------------------------------------------------------------------------- frozen presets

def test_presets_are_frozen() -> None:
    chile = PRESETS["chile"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        chile.buying = "penalty_card"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        chile.rounds[0].hand_size = 3  # type: ignore[misc]
    changed = RuleSet.preset("chile", buying="penalty_card", rounds=[2])
    assert changed is not chile
    assert (chile.buying, len(chile.rounds)) == ("off", 8)
    assert RuleSet.preset("chile") == chile


def test_with_options_keeps_the_preset() -> None:
    r = RuleSet.preset("online").with_options(buying="penalty_points")
    assert r.preset_name == "online"
    assert (r.wrap, r.exact_melds, r.joker_replacement) == (True, True, "relocate")
    assert r.option_dict == {"buying": "penalty_points"}
    again = r.with_options(tie_break="extra_round")
    assert again.option_dict == {"buying": "penalty_points", "tie_break": "extra_round"}
    assert again.buying == "penalty_points"


def test_with_options_keeps_an_earlier_hand_size() -> None:
    """Chained options are the rules their options record says (to_dict round-trips)."""
    r = RuleSet.preset("chile", rounds=[1], hand_size=7).with_options(rounds=[1, 2])
    assert r.option_dict == {"rounds": [1, 2], "hand_size": 7}
    assert [x.hand_size for x in r.rounds] == [7, 7]
    assert RuleSet.from_dict(r.to_dict()) == r


def test_with_options_keeps_earlier_contracts() -> None:
    """Chained options are the rules their options record says (to_dict round-trips)."""
    r = RuleSet.preset("chile", contracts=["1E", "2T"]).with_options(rounds=[2])
    assert [str(x) for x in r.rounds] == ["2T"]
    assert RuleSet.from_dict(r.to_dict()) == r


# --------------------------------------------------------------------------- round trips

def test_to_dict_from_dict_round_trip() -> None:
    cases = [
        RuleSet.preset("chile"),
        RuleSet.preset("chile", buying="penalty_card", rounds=[2, 3]),
        RuleSet.preset("familia", wilds=["jokers", "twos"], values={"2": 25}),
        RuleSet.preset("online", rounds=[1, 2, 3, 4, 5, 6, 7, 8], max_wilds_per_meld=None),
        RuleSet.preset("dos-libres", contracts=["2T", "3T!"], hand_size=[11, 13]),
    ]
    for rules in cases:
        doc = rules.to_dict()
        assert json.loads(json.dumps(doc)) == doc
        back = RuleSet.from_dict(json.loads(json.dumps(doc)))
        assert back == rules
        assert back.rounds == rules.rounds
        assert back.to_dict() == doc
    assert RuleSet.preset("chile").to_dict() == {"preset": "chile", "options": {}}


def test_to_dict_is_json_for_any_input() -> None:
    r = RuleSet.preset("chile", wilds=("twos", "jokers"), decks=None)
    doc = r.to_dict()
    assert json.loads(json.dumps(doc)) == doc
    assert RuleSet.from_dict(doc).to_dict() == doc
    assert RuleSet.from_dict(doc).wilds == r.wilds


def test_from_dict_refuses_bad_objects() -> None:
    for data, words in (
        ([], "must be an object"),
        ({"preset": "chile", "extra": 1}, "unknown field(s): extra"),
        ({"preset": "chile", "rounds": [1], "options": {"rounds": [2]}}, "rounds twice"),
        ({"options": {}}, "needs a 'preset'"),
        ({"preset": 3}, "must be a preset name"),
        ({"preset": "chile", "options": [1]}, "'rules.options' must be an object"),
        ({"preset": "chile", "options": {"bying": "off"}}, "did you mean 'buying'"),
        ({"preset": "chile", "options": {"name": "x"}}, "unknown option 'name'"),
        ({"preset": "chile", "options": {1: 2}}, "names its options with strings"),
    ):
        with pytest.raises(RulesError) as info:
            RuleSet.from_dict(data)
        assert words in str(info.value), data
    assert RuleSet.from_dict({"preset": "chile", "options": None}) == RuleSet.preset("chile")
    # "unlimited" is written as the record writes it: null.
    assert RuleSet.preset("chile", max_reshuffles="unlimited").to_dict()["options"] == {
        "max_reshuffles": None}
    # An option beside the preset is read as if it were in 'options'.
    assert RuleSet.from_dict({"preset": "chile", "rounds": [2]}) == RuleSet.from_dict(
        {"preset": "chile", "options": {"rounds": [2]}})


# --------------------------------------------------------------------------- rounds, decks, players

def test_rounds_picks_rounds_by_number_in_order() -> None:
    chile = RuleSet.preset("chile")
    picked = RuleSet.preset("chile", rounds=[1, 3, 5, 7])
    assert picked.rounds == RuleSet.preset("chico").rounds
    assert picked.rounds == tuple(chile.rounds[i - 1] for i in (1, 3, 5, 7))
    assert [str(r) for r in RuleSet.preset("chile", rounds=[3, 1]).rounds] == ["2E", "2T"]
    assert RuleSet.preset("chile", rounds=[7]).rounds[0].go_out_at_once
    assert RuleSet.preset("chile", rounds=[8]).rounds[0] == RoundDef(
        (Contract.parse("4T"),), 12, True)


def test_deck_for_by_player_count() -> None:
    assert [PRESETS["chile"].deck_for(n) for n in (2, 5, 6, 8)] == [
        (2, 2), (2, 2), (3, 2), (3, 2)]
    assert [PRESETS["dos-libres"].deck_for(n) for n in (4, 5)] == [(2, 1), (3, 1)]
    assert PRESETS["online"].deck_for(4) == (2, 2)
    assert RuleSet.preset("chile", decks=1).deck_for(8) == (1, 2)
    assert RuleSet.preset("chile", third_deck_from=3).deck_for(3) == (3, 2)
    assert RuleSet.preset("chile", third_deck_from=0).deck_for(8) == (2, 2)


def test_check_players() -> None:
    PRESETS["chile"].check_players(8)
    with pytest.raises(RulesError) as info:
        PRESETS["online"].check_players(5)
    assert str(info.value) == "online is played by 2 to 4 players, not 5"
    with pytest.raises(RulesError) as info:
        RuleSet.preset("chile", decks=1).check_players(5)
    assert str(info.value) == ("round 1 deals 12 cards to 5 players and turns one up: 61 cards, "
                               "but the deck has only 54; add a deck")


def test_option_names_are_public() -> None:
    public = ("rounds", "buying", "max_buys_per_round", "scoring", "tie_break",
              "max_wilds_per_meld", "wild_limit_on_layoff", "wrap", "layoff_same_turn",
              "go_out_by_layoff", "partial_contracts", "joker_replacement", "out_score",
              "instant_out_score", "values", "decks", "jokers", "wilds", "open_hands")
    assert set(public) <= set(OPTION_NAMES)


def test_null_round_options_mean_the_preset_and_messages_say_null() -> None:
    # A record writes JSON: null for a round option changes nothing and is not kept;
    # a message about a bad value shows it as the record wrote it.
    chile = RuleSet.preset("chile")
    same = RuleSet.preset("chile", hand_size=None, rounds=None, contracts=None)
    assert same.rounds == chile.rounds and dict(same.options) == {}
    with pytest.raises(RulesError, match=r"not null$"):
        RuleSet.preset("chile", buying=None)
    with pytest.raises(RulesError, match=r"not true$"):
        RuleSet.preset("chile", decks=True)


@pytest.mark.parametrize("text", ["²T", "E²", "2T+E³", "99999999999999T", "3" * 5000 + "T",
                                  "E" + "9" * 5000])
def test_contracts_in_odd_digits_or_of_absurd_size_are_refused_in_words(text: str) -> None:
    """Only ASCII digits count, and a count no hand could hold is refused before any meld is
    built (a request must not make the server build a list of a billion melds)."""
    with pytest.raises(RulesError):
        Contract.parse(text)
