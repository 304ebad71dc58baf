"""The greedy bot: it plays only legal moves, the same ones every time, follows the sources'
advice in set situations, and beats the random bot."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from carioca import Action, Agregar, Bajar, Buy, Deal, Discard, Draw, Game, RuleSet, Swap
from carioca.bots import Bot, Buyer, GreedyBot, RandomBot
from carioca.bots.greedy import Decision
from carioca.cards import Card, deck, parse_cards
from carioca.rules import PRESETS

NAMES = ("Ana", "Beto", "Caro", "Dani")


def c(text: str) -> Card:
    return Card.parse(text)


def crafted(rules: RuleSet, hands: Sequence[str], pozo: str, mazo_top: str = "",
            ) -> Game:
    """Round 1 of a game whose hands, pozo and top of the mazo are given (the rest of the
    deck below, in canonical order)."""
    players = len(hands)
    left = Counter(deck(*rules.deck_for(players)))
    dealt = [tuple(parse_cards(h)) for h in hands]
    pile = tuple(parse_cards(pozo))
    top = tuple(parse_cards(mazo_top))
    for card in [*(x for h in dealt for x in h), *pile, *top]:
        left[card] -= 1
        assert left[card] >= 0, f"the deck has no more {card}"
    game = Game(rules, NAMES[:players])
    game.start_round(Deal(tuple(dealt), pile, top + tuple(sorted(left.elements()))))
    return game


def decide(game: Game, seat: int | None = None, bot: GreedyBot | None = None) -> Decision:
    seat = game.seat_to_act if seat is None else seat
    assert seat is not None
    bot = bot or GreedyBot(1, game.rules)
    return bot.decide(game.view(seat), game.legal_actions(seat))


def play(game: Game, *actions: str) -> None:
    """Apply actions written as text, each by the seat to act."""
    for text in actions:
        seat = game.seat_to_act
        assert seat is not None
        game.apply(Action.parse(text, seat))


CHILE = PRESETS["chile"]
ROUND2 = RuleSet.preset("chile", rounds=[2])  # 1T+1E


# --------------------------------------------------------------------------- protocol

def test_greedy_is_a_bot_and_a_buyer() -> None:
    bot = GreedyBot(3)
    assert isinstance(bot, Bot) and isinstance(bot, Buyer)
    assert bot.name == "greedy" and bot.description


def test_rules_come_from_the_game_when_not_given() -> None:
    game = Game.new(CHILE, NAMES[:2], seed=4)
    seat = game.seat_to_act
    assert seat is not None
    assert GreedyBot().choose(game.view(seat), game.legal_actions(seat)).kind == "draw"
    with pytest.raises(ValueError, match="rules"):
        GreedyBot().choose(game.view(seat), list(game.legal_actions(seat)))


def play_game(rules: RuleSet, bots: Sequence[Any], seed: int) -> Game:
    game = Game.new(rules, NAMES[:len(bots)], seed=seed)
    for _ in range(50_000):
        if game.is_over:
            break
        seat = game.seat_to_act
        assert seat is not None
        if rules.buying != "off" and game.phase == "draw":
            bought = False
            for k in range(1, game.n):
                other = (seat + k) % game.n
                legal = game.legal_actions(other)
                if any(isinstance(a, Buy) for a in legal) and \
                        bots[other].wants_to_buy(game.view(other), legal):
                    game.apply(Buy(other))
                    bought = True
                    break
            if bought:
                continue
        legal = game.legal_actions(seat)
        action = bots[seat].choose(game.view(seat), legal)
        assert action in legal
        game.apply(action)
    assert game.is_over
    return game


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_plays_whole_games_of_every_preset(preset: str) -> None:
    rules = PRESETS[preset]
    players = max(rules.min_players, 3)
    game = play_game(rules, [GreedyBot(s, rules) for s in range(players)], seed=11)
    # Greedy players finish their rounds: somebody goes out in nearly every round.
    outs = sum(r.went_out is not None for r in game.results)
    assert outs >= len(game.results) - 1


@pytest.mark.parametrize("buying", ["penalty_card", "penalty_points"])
def test_plays_with_buying(buying: str) -> None:
    rules = RuleSet.preset("chile", buying=buying, rounds=[1, 2, 3])
    game = play_game(rules, [GreedyBot(s, rules) for s in range(4)], seed=5)
    buys = sum(1 for r in game.log for a in r if isinstance(a, Buy))
    assert buys >= 1


_REPLAY_SCRIPT = """
import json, sys
sys.path.insert(0, {tests!r})
from test_greedy import play_game
from carioca import RuleSet
from carioca.bots import GreedyBot
rules = RuleSet.preset("chile", rounds=[1, 6])
game = play_game(rules, [GreedyBot(s, rules) for s in range(3)], seed=9)
print(json.dumps(game.to_record(), sort_keys=True))
"""


def test_same_game_in_another_process() -> None:
    """Deterministic: the same deals give the same game, even in a process whose string
    hashing (set and dict order of strings) differs."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    rules = RuleSet.preset("chile", rounds=[1, 6])
    here = play_game(rules, [GreedyBot(s, rules) for s in range(3)], seed=9).to_record()
    script = _REPLAY_SCRIPT.format(tests=str(Path(__file__).parent))
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=env, check=True, timeout=300)
    assert json.loads(out.stdout) == json.loads(json.dumps(here, sort_keys=True))


def test_beats_the_random_bot() -> None:
    # Measured over 200 games in docs/bots.md; here a handful, each seat in turn.
    wins = 0
    for g in range(6):
        greedy = g % 2
        bots: list[Any] = [RandomBot(g), RandomBot(g)]
        bots[greedy] = GreedyBot(g, CHILE)
        game = play_game(RuleSet.preset("chile", rounds=[1, 2, 3, 4]), bots, seed=300 + g)
        wins += game.score_sheet().winners == (greedy,)
    assert wins == 6


# --------------------------------------------------------------------------- situations
#
# In round 1, the seat after the dealer plays first: with two or three players that is seat 1
# (Beto), the bot under test below; Ana is seat 0, Caro seat 2.

SUBJECT = 1


def drawing(pozo: str, hand: str = "5H 6H 8H 9S 9D KC 2D 4S JC QD 3C 10S",
            rules: RuleSet = ROUND2) -> Game:
    return crafted(rules, ["AS AH 3D 5C 6D 7C 8S 10D JH QS KS 2H", hand], pozo=pozo)


def test_takes_the_pozo_card_that_completes_a_meld() -> None:
    d = decide(drawing("7H"), SUBJECT)
    assert d.action == Draw(SUBJECT, "pozo") and d.reason == "draw_pozo_out"
    assert d.details["target"] == {"kind": "escala", "shape": "5-6-_-8", "missing": 0}


def test_leaves_a_pozo_card_that_does_not_help() -> None:
    d = decide(drawing("4D"), SUBJECT)
    assert d.action == Draw(SUBJECT, "mazo") and d.reason == "draw_mazo"


TWO_TRIOS = "7H 7S 7D QS QH QD 2C 5D 9C KD 3S 4H"
ANA = "AS AH 3D 5C 6D 8C 8S 10D JH 4S KS 7C"


def beto_down(mazo: str, ana: str = ANA) -> Game:
    """Beto goes down with two tríos in his first turn; Ana then draws the second mazo card
    and throws her last card; it is Beto's turn again."""
    game = crafted(RuleSet.preset("chile", rounds=[1]), [ana, TWO_TRIOS], pozo="9D",
                   mazo_top=mazo)
    play(game, "draw mazo", "bajar 7H 7S 7D / QS QH QD", "discard 2C")
    return game


def test_down_it_takes_a_pozo_card_it_can_lay_off() -> None:
    game = beto_down("6S 6H")
    play(game, "draw mazo", "discard 7C")
    d = decide(game, SUBJECT)
    assert d.action == Draw(SUBJECT, "pozo") and d.reason == "draw_pozo_layoff"
    assert d.details["meld"] == 0


def test_down_it_leaves_a_pozo_card_that_fits_nothing() -> None:
    game = beto_down("6S 6H")
    play(game, "draw mazo", "discard 6H")
    assert decide(game, SUBJECT).action == Draw(SUBJECT, "mazo")


def test_down_it_keeps_a_card_it_can_lay_off_next_turn() -> None:
    """Just down, Beto may not lay off this turn: he keeps the AC (20 points, but it goes on
    his trío of aces next turn) and throws the dearest of the rest, the KD."""
    hand = "AH AS AD QS QH QD 2C 5D 9C KD 3S 4H"
    game = crafted(RuleSet.preset("chile", rounds=[1]), [ANA.replace("AS AH", "7S 7H"), hand],
                   pozo="9D", mazo_top="AC")
    play(game, "draw mazo", "bajar AH AS AD / QS QH QD")
    d = decide(game, SUBJECT)
    assert d.reason == "discard_down" and d.action == Discard(SUBJECT, c("KD"))


def test_lays_off_what_fits() -> None:
    game = beto_down("6S 6H 7C", ana=ANA.replace("7C", "KC"))
    play(game, "draw mazo", "discard 6H")
    play(game, "draw mazo")  # Beto draws the 7C
    d = decide(game, SUBJECT)
    assert d.reason == "agregar" and d.action == Agregar(SUBJECT, c("7C"), 0, None)


# --------------------------------------------------------------------------- bajarse

def test_goes_down_at_once_and_leaves_the_least() -> None:
    game = crafted(RuleSet.preset("chile", rounds=[1]),
                   [ANA, "7H 7S 7D 7C QS QH 2C 5D 9C KD 3S 4H"], pozo="9D", mazo_top="QD")
    play(game, "draw mazo")
    d = decide(game, SUBJECT)
    assert isinstance(d.action, Bajar) and d.reason == "bajar_now"
    laid = Counter(x for m in d.action.melds for x in m)
    assert laid == Counter(parse_cards("7H 7S 7D 7C QS QH QD"))  # all four sevens


def test_goes_down_when_someone_else_is() -> None:
    game = crafted(RuleSet.preset("chile", rounds=[1]),
                   ["AS AH AD 5C 5D 5S 8S 10D JH 4S KS JK",
                    "7H 7S 7D QS QH 2C 5D 9C KD 3S 4H 6C"], pozo="9D", mazo_top="2S 3H QD")
    play(game, "draw mazo", "discard 2S")                          # Beto
    play(game, "draw mazo", "bajar AS AH AD / 5C 5D 5S", "discard 3H")  # Ana goes down
    play(game, "draw mazo")                                        # Beto draws QD
    d = decide(game, SUBJECT)
    assert isinstance(d.action, Bajar) and d.reason == "bajar_other_down"
    assert d.details["others"] == [0]


def test_may_wait_in_early_rounds_while_nobody_is_down() -> None:
    game = crafted(RuleSet.preset("chile", rounds=[1]),
                   [ANA, "7H 7S 7D 7C QS QH 2C 5D 9C KD 3S 4H"], pozo="9D", mazo_top="QD")
    play(game, "draw mazo")
    waiting = GreedyBot(1, game.rules, wait_early=True)
    assert not isinstance(decide(game, SUBJECT, waiting).action, Bajar)
    assert isinstance(decide(game, SUBJECT).action, Bajar)


def test_goes_out_in_one_go_when_it_can() -> None:
    game = crafted(RuleSet.preset("chile", rounds=[1]),
                   [ANA, "7H 7S 7D 7C 7H 7S QS QH QD QC QS QH"], pozo="9D", mazo_top="2C")
    play(game, "draw mazo")
    d = decide(game, SUBJECT)
    assert d.reason == "go_out" and isinstance(d.action, Bajar)
    for step in d.details["steps"]:
        game.apply(step.action(SUBJECT))
    assert game.results[-1].went_out == SUBJECT


def test_swaps_a_joker_out_when_it_goes_straight_back() -> None:
    game = crafted(ROUND2, [ANA, "KS KH KD 5H JK 7H 8H 2C 9C 3S 4D 10C"], pozo="9D",
                   mazo_top="6S 2S 6H")
    play(game, "draw mazo", "bajar KS KH KD / 5H JK 7H 8H", "discard 6S")
    play(game, "draw mazo", "discard 2S")
    play(game, "draw mazo")  # Beto draws the 6H
    d = decide(game, SUBJECT)
    assert d.reason == "swap_layoff" and d.action == Swap(SUBJECT, c("6H"), 1, None)


def test_swaps_for_a_joker_that_brings_the_contract_closer() -> None:
    """Under ``anyone`` (argentina) a player not down may take a joker off the table: the 9C
    takes Ana's joker, which makes Beto's trío of sevens."""
    rules = PRESETS["argentina"]
    game = crafted(rules, ["9S 9H JK 5C 5D 5S 8S 10D JH 4S KS",
                           "9C 7H 7S QS QH 2C 5H 10C KD 3S 4H"], pozo="9D",
                   mazo_top="2D 3D AC")
    play(game, "draw mazo", "discard 2D")
    play(game, "draw mazo", "bajar 9S 9H JK / 5C 5D 5S", "discard 3D")
    play(game, "draw mazo")
    d = decide(game, SUBJECT)
    assert d.reason == "swap_contract" and d.action == Swap(SUBJECT, c("9C"), 0, None)


# --------------------------------------------------------------------------- discarding

def test_never_discards_a_joker_for_a_loose_card() -> None:
    game = drawing("10H", "5H 6H 8H 9S 9D JK KC 2D 4S JC QD 3C")
    play(game, "draw mazo")
    d = decide(game, SUBJECT)
    assert isinstance(d.action, Discard) and d.action.card != c("JK")
    assert d.action.card not in parse_cards("5H 6H 8H 9S 9D")


def test_discards_the_dearest_of_the_loosest_cards() -> None:
    # The mazo gives the AS. Loose (no card of its rank, none of its suit within two ranks):
    # AS, 2D, 4S, 3C, QD; JC and KC keep each other company; the dearest loose card goes.
    game = drawing("10H")
    play(game, "draw mazo")
    d = decide(game, SUBJECT)
    assert d.reason == "discard" and d.action == Discard(SUBJECT, c("AS"))


FEED_HAND = "5H 6H 8H 9S 9D AC AH 2D 7C 4S QD 10S"


def test_does_not_feed_the_next_player() -> None:
    """Ana takes Beto's AH from the pozo: Beto then keeps his loose AC (an ace would help
    her) and throws another loose card. Had Ana drawn from the mazo, the AC would go."""
    fed = crafted(ROUND2, ["AS AD 3S 5C 6D 7D 8S 10D JH QS KS 4D", FEED_HAND], pozo="9C",
                  mazo_top="2S 3H 2H")
    play(fed, "draw mazo", "discard AH", "draw pozo", "discard 4D", "draw mazo")
    assert fed.view(SUBJECT).known[0] == (c("AH"),)
    d = decide(fed, SUBJECT)
    assert isinstance(d.action, Discard) and d.action.card != c("AC")
    plain = crafted(ROUND2, ["AS AD 3S 5C 6D 7D 8S 10D JH QS KS 4D", FEED_HAND], pozo="9C",
                    mazo_top="2S 3H 2H")
    play(plain, "draw mazo", "discard AH", "draw mazo", "discard 4D", "draw mazo")
    assert plain.view(SUBJECT).known[0] == ()
    d = decide(plain, SUBJECT)
    assert isinstance(d.action, Discard) and d.action.card == c("AC")


def test_sheds_the_dearest_card_when_the_round_is_lost() -> None:
    rules = RuleSet.preset("chile", rounds=[5])  # 2T+1E
    game = crafted(rules, ["4S 4C 4H 9D 9C 9H 5D 6D 7D 8D 10H JC",
                           "AS 3H 5C 7C 9S JH KD 2C 4D 6H 8S 10C"], pozo="QS",
                   mazo_top="2S KH 3D")
    play(game, "draw mazo", "discard 2S")
    play(game, "draw mazo", "bajar 4S 4C 4H / 9D 9C 9H / 5D 6D 7D 8D", "discard KH")
    play(game, "draw mazo")
    d = decide(game, SUBJECT)
    assert d.reason == "discard_lost"
    assert isinstance(d.action, Discard) and d.action.card == c("AS")


# --------------------------------------------------------------------------- buying

def test_buys_only_early_and_only_what_helps() -> None:
    import dataclasses

    rules = RuleSet.preset("chile", rounds=[2], buying="penalty_card")
    hands = ["5H 6H 8H 9S 9D KC 2D 4S JC QD 3C 10S", "AS AH 3D 5C 6D 7C 8S 10D JH QS KS 2H",
             "AD 3H 4H 7S 7D 9C 10C JD KH QC 2S 6S"]
    game = crafted(rules, hands, pozo="4D", mazo_top="7H")
    play(game, "draw mazo", "discard 7H")  # Beto throws the 7H; Ana (not next) may buy
    legal = game.legal_actions(0)
    assert Buy(0) in legal
    bot = GreedyBot(0, rules)
    view = game.view(0)
    assert bot.wants_to_buy(view, legal)
    assert not bot.wants_to_buy(dataclasses.replace(view, turn=12), legal)
    assert not bot.wants_to_buy(dataclasses.replace(view, down=(False, True, False)), legal)
    other = crafted(rules, hands, pozo="4D", mazo_top="2C")
    play(other, "draw mazo", "discard 2C")
    assert not bot.wants_to_buy(other.view(0), other.legal_actions(0))
