"""Reading the next player's hand: their last turn off the log, the book's discard, and the
weighted hands that explain what they did."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from carioca import Card, Discard, Draw, Game, RuleSet
from carioca.bots import GreedyBot, LookaheadBot
from carioca.bots.greedy import _Memo, _owed
from carioca.bots.reading import (
    Turn,
    _explains,
    _feeds_then,
    _flipped,
    _walk,
    book_discard,
    feeding_chance,
    last_turn,
    read_hand,
    unseen_counts,
)
from carioca.cards import deck_counts


def greedy_turns(rules: RuleSet, seed: int, turns: int
                 ) -> Iterator[tuple[Game, int, list[Card]]]:
    """Greedy against greedy, yielding after each whole turn of a seat that is still
    building: the game, that seat and their hand before the discard."""
    game = Game.new(rules, ["Ana", "Beto"], seed=seed)
    bots = [GreedyBot(0, rules), GreedyBot(1, rules)]
    done = 0
    while not game.is_over and done < turns:
        seat = game.seat_to_act
        assert seat is not None
        action = bots[seat].choose(game.view(seat), game.legal_actions(seat))
        before = list(game.hand(seat))
        number = game.view(seat).round
        game.apply(action)
        if isinstance(action, Discard) and not game.is_over \
                and game.view(seat).round == number and not game.view(seat).down[seat]:
            done += 1
            yield game, seat, before


def test_the_last_turn_is_read_off_the_log() -> None:
    rules = RuleSet.preset("chile", rounds=[7])
    game = Game.new(rules, ["Ana", "Beto"], seed=3)
    ana = game.seat_to_act
    assert ana is not None
    beto = 1 - ana
    flipped = game.view(ana).pozo[-1]
    assert last_turn(game.view(beto), ana) is None  # no turn yet
    game.apply(Draw(ana, "mazo"))
    thrown = sorted(game.hand(ana))[0]
    game.apply(Discard(ana, thrown))
    turn = last_turn(game.view(beto), ana)
    assert turn == Turn(top=flipped, source="mazo", thrown=thrown, taken=(), next_down=False)
    game.apply(Draw(beto, "pozo"))  # Beto takes Ana's card: Ana sees it
    game.apply(Discard(beto, sorted(game.hand(beto))[-1]))
    game.apply(Draw(ana, "pozo"))
    again = sorted(game.hand(ana))[1]
    game.apply(Discard(ana, again))
    turn = last_turn(game.view(beto), ana)
    assert turn is not None
    assert (turn.source, turn.thrown, turn.taken) == ("pozo", again, (thrown,))


@pytest.mark.parametrize("rounds", [[7], [8], [1, 2, 3, 4, 5, 6]])
def test_the_book_discard_is_greedys_discard(rounds: list[int]) -> None:
    # Given the true hand, the reading's model of greedy throws what greedy threw: that is
    # what lets a hand be tested against the last turn.
    rules = RuleSet.preset("chile", rounds=rounds)
    agreed = total = 0
    for seed in range(4):
        for game, seat, before in greedy_turns(rules, seed, 30):
            view = game.view(1 - seat)
            turn = last_turn(view, seat)
            assert turn is not None and turn.thrown in before
            memo = _Memo(rules, _owed(view, seat))
            got = book_discard(before, memo, rules, _feeds_then(turn, view, rules),
                               late=turn.next_down)
            agreed += got == turn.thrown
            total += 1
    assert total >= 40
    # Going down and the lost-round test read the other player's hand size, which the model
    # takes as it is now; in the rounds gone out at once it is exact.
    assert agreed == total if rounds in ([7], [8]) else agreed >= 0.9 * total


def test_the_true_hand_explains_the_last_turn() -> None:
    rules = RuleSet.preset("chile", rounds=[7, 8])
    failed = 0
    checked = 0
    for seed in range(3):
        for game, seat, _ in greedy_turns(rules, seed, 25):
            view = game.view(1 - seat)
            turn = last_turn(view, seat)
            assert turn is not None
            known = list(view.known[seat])
            memo = _Memo(rules, _owed(view, seat))
            # The drawn card is guessed among the hand's cards: try every guess, one of them
            # is the card really drawn, and with it the turn is explained.
            results = {_explains(turn, game.hand(seat), known, memo, rules,
                                 _feeds_then(turn, view, rules), turn.next_down,
                                 random.Random(k)) for k in range(40)}
            failed += 0 not in results
            checked += 1
    assert checked >= 40 and failed == 0


def test_a_reading_is_weighted_and_follows_the_view_only() -> None:
    rules = RuleSet.preset("chile", rounds=[7])
    game, seat, _ = next(g for i, g in enumerate(greedy_turns(rules, 5, 6)) if i == 5)
    view = game.view(1 - seat)
    reading = read_hand(view, rules, seat, samples=16, seed=4)
    assert reading is not None and len(reading.hands) == 16
    assert math.isclose(sum(w for w, _, _ in reading.hands), 1.0)
    hidden = view.hand_counts[seat]
    for weight, hand, _ in reading.hands:
        assert weight >= 0 and len(hand) == hidden
        for card in view.known[seat]:
            assert card in hand  # what they were seen to take is in every hand read
    again = read_hand(view, rules, seat, samples=16, seed=4)
    assert again == reading  # seeded by the view: the same view reads the same
    chance = feeding_chance(view, rules, seat, samples=16, seed=4)
    assert chance is not None and chance(Card.parse("JK")) == 1.0
    for card in view.hand or ():
        assert 0.0 <= chance(card) <= 1.0


def test_under_open_hands_the_reading_is_the_hand_in_sight() -> None:
    # The teaching variant lays every hand open: nothing to guess, and the cards in sight
    # are not counted among those not seen.
    rules = RuleSet.preset("chile", rounds=[7], open_hands=True)
    game, seat, _ = next(g for i, g in enumerate(greedy_turns(rules, 5, 6)) if i == 5)
    view = game.view(1 - seat)
    reading = read_hand(view, rules, seat, samples=16, seed=4)
    assert reading is not None and len(reading.hands) == 1
    weight, hand, _ = reading.hands[0]
    assert weight == 1.0 and sorted(hand) == sorted(game.hand(seat))
    unseen = unseen_counts(view, rules)
    assert all(unseen[c] < Counter(deck_counts(*rules.deck_for(2)))[c] for c in hand)


def test_the_unseen_cards_never_include_the_seats_own() -> None:
    rules = RuleSet.preset("chile", rounds=[8])
    game, seat, _ = next(g for i, g in enumerate(greedy_turns(rules, 2, 4)) if i == 3)
    view = game.view(1 - seat)
    reading = read_hand(view, rules, seat, samples=8)
    assert reading is not None
    left = Counter(deck_counts(*rules.deck_for(2)))
    left.subtract(view.hand or ())
    for _, hand, _ in reading.hands:
        over = Counter(hand)
        over.subtract(left)
        assert not +over, hand  # never more copies of a card than the seat has not seen


def test_no_reading_once_they_are_down() -> None:
    rules = RuleSet.preset("chile", rounds=[1])
    game = Game.new(rules, ["Ana", "Beto"], seed=1)
    bots = [GreedyBot(0, rules), GreedyBot(1, rules)]
    while not game.is_over:
        seat = game.seat_to_act
        assert seat is not None
        view = game.view(seat)
        if view.down[1 - seat]:
            assert read_hand(view, rules, 1 - seat) is None
            assert feeding_chance(view, rules, 1 - seat) is None
            return
        game.apply(bots[seat].choose(view, game.legal_actions(seat)))
    pytest.fail("nobody went down")


def test_the_reading_planner_plays_legal_whole_games() -> None:
    rules = RuleSet.preset("chile", rounds=[7, 8])
    game = Game.new(rules, ["Ana", "Beto"], seed=8)
    bots = [LookaheadBot(1, rules, read=8), GreedyBot(2, rules)]
    while not game.is_over:
        seat = game.seat_to_act
        assert seat is not None
        legal = game.legal_actions(seat)
        action = bots[seat].choose(game.view(seat), legal)
        assert action in legal
        game.apply(action)
    assert game.score_sheet().totals


def test_refusals_count_the_card_turned_up_and_the_card_under_a_bought_one() -> None:
    from carioca.actions import Buy
    from carioca.bots.reading import refusals

    rules = RuleSet.preset("chile", buying="penalty_card")
    game = Game.new(rules, ["Ana", "Beto", "Caro"], seed=4)
    first = game.seat_to_act
    assert first is not None
    second, third = (first + 1) % 3, (first + 2) % 3
    turned_up = game.view(first).pozo[-1]
    game.apply(Draw(first, "mazo"))  # lets the card turned up at the deal pass
    under = sorted(game.hand(first))[0]
    game.apply(Discard(first, under))
    game.apply(Draw(second, "mazo"))  # lets ``under`` pass
    bought = sorted(game.hand(second))[0]
    game.apply(Discard(second, bought))
    game.apply(Buy(first))  # Ana buys it: ``under`` is on top again
    game.apply(Draw(third, "mazo"))
    seen = game.view(second)
    assert refusals(seen, first) == [(turned_up, 0), (under, 0)]
    assert refusals(seen, second) == [(under, 0), (bought, 0)]
    assert refusals(seen, third) == [(under, 0)]  # not the card Ana bought
    # The reading's bookkeeping of the cards seen taken agrees with the engine's, buys too.
    taken, _ = _walk(seen, _flipped(seen), len(seen.log))
    assert [list(k) for k in seen.known] == taken and taken[first] == [bought]


def test_the_card_turned_up_is_known_after_buys_bring_it_back_on_top() -> None:
    """Two buys empty the pozo down to the card turned up at the deal, and a later draw takes
    it: the log names it there, and the player who drew over it let it pass (not whatever
    lies at the bottom of the pozo now)."""
    from carioca.actions import Buy
    from carioca.bots.reading import refusals

    rules = RuleSet.preset("chile", rounds=[4], buying="penalty_card")  # three tríos
    game = Game.new(rules, ["Ana", "Beto", "Caro"], seed=0)
    ana = game.seat_to_act
    assert ana is not None
    beto, caro = (ana + 1) % 3, (ana + 2) % 3
    turned_up = game.view(ana).pozo[-1]
    game.apply(Draw(ana, "mazo"))
    game.apply(Discard(ana, sorted(game.hand(ana))[0]))
    game.apply(Buy(caro))
    game.apply(Draw(beto, "mazo"))  # Beto lets the card turned up pass
    thrown = sorted(game.hand(beto))[0]
    game.apply(Discard(beto, thrown))
    game.apply(Buy(ana))
    game.apply(Draw(caro, "pozo"))  # the card turned up, on top again
    last = sorted(game.hand(caro))[0]
    game.apply(Discard(caro, last))
    game.apply(Draw(ana, "mazo"))
    view = game.view(ana)
    assert list(view.pozo) == [last] and last != turned_up  # the bottom is another card now
    assert _flipped(view) == turned_up
    assert refusals(view, beto) == [(turned_up, 0), (thrown, 0)]
