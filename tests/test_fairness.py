"""Fair by construction: a bot's decisions do not change when the cards it cannot see change.

Two games are dealt so that one seat's view is identical in both while the hidden cards (the
other hands and the mazo below the cards that seat will draw) differ. The other seats play a
script that shows nothing of their hands: take the pozo card and throw it back. The seat under
test is played by the bot in both games, a fresh bot with the same seed in each, and at every
decision its two views must be equal and its two choices the same, for several turns.

A control bot that peeks at a hidden hand is caught by the same check, so the check has teeth.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from carioca import Action, Deal, Discard, Draw, Game, RuleSet, View
from carioca.bots import Bot, GreedyBot, LookaheadBot, RandomBot
from carioca.bots.levels import BOTS, EagerBot
from carioca.bots.search import SearchBot

NAMES = ("Ana", "Beto", "Caro", "Dani")
TURNS = 4  # turns of the seat under test per game
HORIZON = 24  # actions per playout: the search is the same, only shorter

BotFactory = Callable[[RuleSet], Bot]


def twin_games(rules: RuleSet, players: int, seed: int) -> tuple[Game, Game, int]:
    """Two games of round 1 whose views for the first seat to act are the same, and whose
    other hands and deeper mazo are shuffled apart. Returns both games and that seat."""
    table = Game(rules, NAMES[:players])
    deal = table.deal_from_seed(seed, 1)
    seat = 1 % players  # the seat after the dealer of round 1 plays first
    keep = TURNS + 1  # mazo cards the seat may draw (the others never touch the mazo)
    hidden = [c for s, h in enumerate(deal.hands) if s != seat for c in h]
    hidden += deal.mazo[keep:]
    random.Random(seed + 1).shuffle(hidden)
    hands = []
    for s, hand in enumerate(deal.hands):
        if s == seat:
            hands.append(hand)
        else:
            hands.append(tuple(hidden[:len(hand)]))
            hidden = hidden[len(hand):]
    twin = Deal(tuple(hands), deal.pozo, deal.mazo[:keep] + tuple(hidden), deal.seed)
    return *_started(rules, players, deal, twin), seat


def _started(rules: RuleSet, players: int, *deals: Deal) -> tuple[Game, ...]:
    """A game of round 1 dealt so, for each deal."""
    games = []
    for deal in deals:
        game = Game(rules, NAMES[:players])
        game.start_round(deal)
        games.append(game)
    return tuple(games)


def _opaque_move(game: Game, seat: int) -> Action:
    """The other seats' script: take the pozo card, throw the same card back."""
    if game.phase == "draw":
        return Draw(seat, "pozo")
    known = game.view(seat).known[seat]
    return Discard(seat, known[-1])


def first_difference(make: BotFactory, rules: RuleSet, players: int, seed: int
                     ) -> str | None:
    """Play the twin games; describe the first decision where the bot's views or choices
    differ (None: it decided the same every time)."""
    a, b, seat = twin_games(rules, players, seed)
    assert any(a.hand(s) != b.hand(s) for s in range(players) if s != seat)
    bot_a, bot_b = make(rules), make(rules)
    turns = 0
    decisions = 0
    while not a.is_over and a.seat_to_act is not None and turns < TURNS:
        actor = a.seat_to_act
        assert b.seat_to_act == actor
        if actor != seat:
            move = _opaque_move(a, actor)
            assert move == _opaque_move(b, actor)
            a.apply(move)
            b.apply(move)
            continue
        view_a, view_b = a.view(seat), b.view(seat)
        if view_a != view_b:
            return f"decision {decisions}: the views differ (the harness is wrong)"
        choice_a = bot_a.choose(view_a, a.legal_actions(seat))
        choice_b = bot_b.choose(view_b, b.legal_actions(seat))
        if choice_a != choice_b:
            return f"decision {decisions}: {choice_a} with one deal, {choice_b} with the other"
        decisions += 1
        if isinstance(choice_a, Discard):
            turns += 1
        a.apply(choice_a)
        b.apply(choice_b)
        if a.results:  # the seat went out
            assert b.results == a.results
            break
    assert decisions >= 2
    return None


# --------------------------------------------------------------------------- the bots

def _search(rules: RuleSet, **kw: Any) -> Bot:
    kw.setdefault("playouts", 6)
    return SearchBot(seed=11, horizon=HORIZON, rules=rules, **kw)


def _level(name: str) -> BotFactory:
    spec = BOTS[name]
    if spec.playouts is not None:  # the same bot with a budget a test can afford
        spec = dataclasses.replace(spec, playouts=min(spec.playouts, 6))

    def make(rules: RuleSet) -> Bot:
        bot = spec.make(seed=5, rules=rules)
        if isinstance(bot, SearchBot):
            bot.horizon = HORIZON
        return bot

    return make


FACTORIES: dict[str, BotFactory] = {
    "random": lambda rules: RandomBot(3),
    "eager": lambda rules: EagerBot(3),
    "search": _search,
    "search-random-playouts": lambda rules: _search(rules, policy="random"),
    "search-own": lambda rules: _search(rules, objective="own"),
    "search-no-rules": lambda rules: SearchBot(seed=2, playouts=4, horizon=HORIZON),
    "search-full-playouts": lambda rules: SearchBot(seed=4, playouts=3, policy="eager",
                                                    rules=rules),
    # the named bots' style, loose enough to overrule its policy within a small budget
    "search-styled": lambda rules: _search(rules, playouts=24, width=3, confidence=0.01,
                                           plausible=4, trust=("go_out",)),
}
for _name, _spec in BOTS.items():
    FACTORIES[f"level-{_name}"] = _level(_name)

TABLES = [("chico", 2, 1), ("chico", 3, 2), ("chile", 4, 3), ("dos-libres", 2, 4),
          ("rumi", 2, 5), ("online", 3, 6)]


@pytest.mark.parametrize("bot", sorted(FACTORIES))
@pytest.mark.parametrize(("preset", "players", "seed"), TABLES,
                         ids=[f"{p}-{n}p" for p, n, _ in TABLES])
def test_bot_ignores_hidden_cards(bot: str, preset: str, players: int, seed: int) -> None:
    rules = RuleSet.preset(preset)
    assert first_difference(FACTORIES[bot], rules, players, seed) is None


@pytest.mark.parametrize(("preset", "players", "seed"), TABLES,
                         ids=[f"{p}-{n}p" for p, n, _ in TABLES])
def test_greedy_ignores_hidden_cards(preset: str, players: int, seed: int) -> None:
    rules = RuleSet.preset(preset)
    assert first_difference(lambda r: GreedyBot(7), rules, players, seed) is None


@pytest.mark.parametrize(("preset", "players", "seed"), TABLES,
                         ids=[f"{p}-{n}p" for p, n, _ in TABLES])
def test_lookahead_ignores_hidden_cards(preset: str, players: int, seed: int) -> None:
    # Its live outs count the cards the seat has not seen: the same in both twin games.
    rules = RuleSet.preset(preset)
    assert first_difference(lambda r: LookaheadBot(7), rules, players, seed) is None


@pytest.mark.parametrize(("preset", "players", "seed"), TABLES,
                         ids=[f"{p}-{n}p" for p, n, _ in TABLES])
def test_reading_the_next_hand_ignores_hidden_cards(preset: str, players: int, seed: int
                                                     ) -> None:
    # The hands it reads for the next player are dealt from what the seat has not seen,
    # seeded by the view: the same in both twin games.
    rules = RuleSet.preset(preset)
    assert first_difference(lambda r: LookaheadBot(7, read=8), rules, players, seed) is None


# --------------------------------------------------------------------------- the control

class PeekingBot:
    """Cheats: chooses by the hand of the next seat, which it reads off the game."""

    name = "peeking"
    description = "Looks at a hidden hand (for the test only)."

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        game: Game = legal._game  # type: ignore[attr-defined]
        assert view.seat is not None
        other = game.hand((view.seat + 1) % len(view.players))
        return legal[sum(int(c) for c in other) % len(legal)]


def test_the_check_catches_a_bot_that_peeks() -> None:
    rules = RuleSet.preset("chile")
    caught = [first_difference(lambda r: PeekingBot(), rules, 3, seed) for seed in range(5)]
    assert all(caught), caught


def test_twin_games_share_the_view_but_not_the_cards() -> None:
    rules = RuleSet.preset("chile")
    a, b, seat = twin_games(rules, 4, 9)
    assert a.view(seat) == b.view(seat)
    others = [s for s in range(4) if s != seat]
    assert all(a.hand(s) != b.hand(s) for s in others)
    assert sorted(c for s in others for c in a.hand(s)) != sorted(c for s in others
                                                                  for c in b.hand(s))


# --------------------------------------------------------------------------- the whole game

def open_twins(rules: RuleSet, players: int, seed: int, seat: int, how: str
               ) -> tuple[Game, Game]:
    """Two games of round 1 that agree on what ``seat`` sees and differ in hidden cards:
    a card of one other hand swapped with a card of another (``hands``), or with a card deep
    in the mazo (``mazo``), which the others may draw later. With open hands, where every hand
    is seen, the mazo below its top twelve cards is turned over instead."""
    deal = Game(rules, NAMES[:players]).deal_from_seed(seed, 1)
    hands = [list(h) for h in deal.hands]
    mazo = list(deal.mazo)
    a, b = [s for s in range(players) if s != seat][:2] + [None] * (2 - min(2, players - 1))
    if rules.open_hands:  # what anyone draws is seen: only the mazo's depth is hidden
        mazo[12:] = mazo[:11:-1]  # (the mazo's top is its first card)
    elif how == "hands" and b is not None:
        i, j = next((i, j) for i, x in enumerate(hands[a]) for j, y in enumerate(hands[b])
                    if x != y)
        hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    else:
        i, j = next((i, j) for i, x in enumerate(hands[a]) for j, y in enumerate(mazo)
                    if j >= 20 and x != y)
        hands[a][i], mazo[j] = mazo[j], hands[a][i]
    twin = Deal(tuple(map(tuple, hands)), deal.pozo, tuple(mazo), deal.seed)
    first, second = _started(rules, players, deal, twin)
    return first, second


def whole_round_difference(make: BotFactory, rules: RuleSet, players: int, seed: int,
                           how: str, decisions_most: int = 60) -> str | None:
    """The twin games played on: the other seats make random moves legal in both (drawing
    from the mazo, laying down, buying a discard with its penalty card), the seat under test
    is asked to buy and to move, and the coach hints beside it. Stops at the round's end, or
    where a hidden difference comes into the open (then the views part, as they should)."""
    from carioca import Buy
    from carioca.bots import Buyer
    from carioca.coach import hint

    seat = 1 % players
    a, b = open_twins(rules, players, seed, seat, how)
    bot_a, bot_b = make(rules), make(rules)
    rng = random.Random(seed)
    decisions = 0
    while a.seat_to_act is not None and not a.results and decisions < decisions_most:
        if a.view(seat) != b.view(seat):
            break  # a hidden card came into the open: the seat may now tell the games apart
        actor = a.seat_to_act
        buyer = next((s for s in ((actor + k) % players for k in range(1, players))
                      if a.phase == "draw" and Buy(s) in a.legal_actions(s)), None)
        if buyer == seat and isinstance(bot_a, Buyer):
            assert isinstance(bot_b, Buyer)
            wants = bot_a.wants_to_buy(a.view(seat), a.legal_actions(seat))
            if wants != bot_b.wants_to_buy(b.view(seat), b.legal_actions(seat)):
                return f"decision {decisions}: the buy answered two ways"
            decisions += 1
            if wants:
                a.apply(Buy(seat))
                b.apply(Buy(seat))
                continue
        elif buyer is not None and rng.random() < 0.3:
            a.apply(Buy(buyer))
            b.apply(Buy(buyer))
            continue
        if actor == seat:
            view_a, view_b = a.view(seat), b.view(seat)
            choice_a = bot_a.choose(view_a, a.legal_actions(seat))
            if choice_a != bot_b.choose(view_b, b.legal_actions(seat)):
                return f"decision {decisions}: the move chosen two ways"
            tip_a, tip_b = hint(view_a, rules, "en"), hint(view_b, rules, "en")
            if (tip_a.action, tip_a.reason) != (tip_b.action, tip_b.reason):
                return f"decision {decisions}: the coach said {tip_a.reason!r} / {tip_b.reason!r}"
            decisions += 1
            a.apply(choice_a)
            b.apply(choice_a)
            continue
        legal_b = b.legal_actions(actor)
        both = sorted((m for m in a.legal_actions(actor) if m in legal_b), key=str)
        if not both:
            break  # the other seat holds different cards now, and shows it
        move = rng.choice(both)
        a.apply(move)
        b.apply(move)
    assert decisions >= 2, decisions
    return None


WHOLE_TABLES = [("chile", 4, {"buying": "penalty_card"}, 21),
                ("online", 3, {"buying": "penalty_points"}, 22),
                ("dos-libres", 3, {"buying": "penalty_card"}, 23),
                ("familia", 3, {"open_hands": True, "buying": "penalty_card"}, 24)]
# (with open hands only the mazo's depth is hidden: one way to make the twins, not two)
WHOLE_BOTS: dict[str, BotFactory] = {
    "greedy": lambda rules: GreedyBot(7), "lookahead": lambda rules: LookaheadBot(7),
    "reading": lambda rules: LookaheadBot(7, read=8), "random": lambda rules: RandomBot(3),
    "level-beto": _level("beto"),
}


WHOLE_CASES = [(*table, how) for table in WHOLE_TABLES
               for how in (("hands",) if table[2].get("open_hands") else ("hands", "mazo"))]


@pytest.mark.parametrize("bot", sorted(WHOLE_BOTS))
@pytest.mark.parametrize(("preset", "players", "options", "seed", "how"), WHOLE_CASES,
                         ids=[f"{p}-{how}" for p, *_, how in WHOLE_CASES])
def test_bots_buys_and_the_coach_ignore_hidden_cards_over_a_round(
        bot: str, preset: str, players: int, options: dict[str, Any], seed: int,
        how: str) -> None:
    rules = RuleSet.preset(preset, **options)
    found = whole_round_difference(WHOLE_BOTS[bot], rules, players, seed, how,
                                   decisions_most=12 if bot.startswith("level") else 60)
    assert found is None, found


class PeekingBuyer(GreedyBot):
    """Plays as greedy, but buys when the next seat's hidden hand says so."""

    def wants_to_buy(self, view: View, legal: Sequence[Action]) -> bool:
        game: Game = legal._game  # type: ignore[attr-defined]
        assert view.seat is not None
        hidden = " ".join(sorted(map(str, game.hand((view.seat + 1) % len(view.players)))))
        return hashlib.sha256(hidden.encode()).digest()[0] % 2 == 0


def test_the_whole_round_check_catches_a_bot_that_peeks() -> None:
    rules = RuleSet.preset("chile", buying="penalty_card")
    caught = [whole_round_difference(lambda r: PeekingBot(), rules, 3, seed, "hands")
              for seed in range(5)]
    assert all(caught), caught
    bought = [whole_round_difference(lambda r: PeekingBuyer(7), rules, 3, seed, "hands")
              for seed in range(5)]
    assert all(b and "the buy answered two ways" in b for b in bought), bought
