"""The search bot: what it decides, how it spends its budget, and that it plays better than
the policies it is built on."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from carioca import Action, Agregar, Bajar, Card, Deal, Discard, Draw, Game, RuleSet, View
from carioca.bots import Bot, GreedyBot, LookaheadBot, RandomBot
from carioca.bots.levels import BOTS, EagerBot, bot_names, make_bot
from carioca.bots.search import SearchBot, play_until_round_end, policy_factory, round_utility
from carioca.cards import deck, parse_cards
from carioca.lab import tournament
from carioca.rules import Contract
from carioca.solver import missing_cards

NAMES = ("Ana", "Beto", "Caro", "Dani")


def cs(text: str) -> list[Card]:
    return parse_cards(text)


def started(preset: str, players: int, seed: int, steps: int = 0) -> Game:
    game = Game.new(RuleSet.preset(preset), NAMES[:players], seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        seat = game.seat_to_act
        assert seat is not None
        game.apply(rng.choice(list(game.legal_actions(seat))))
    return game


# --------------------------------------------------------------------------- a position to win

def going_out_position() -> tuple[Game, int]:
    """chico round 1 (two tríos), two players. Seat 1 went down on its first turn with
    5S 5D 5H and eight eights, kept 5C and threw the king; seat 0 took the king and threw it
    back. Now seat 1 has drawn 9D and holds 5C 9D: laying the 5C off on the trío of fives and
    discarding the 9D goes out at once. Discarding the 5C instead would leave it stuck."""
    rules = RuleSet.preset("chico")
    mine = cs("5S 5D 5H 8S 8D 8C 8H 8S 8D 8C 8H 5C")
    top = cs("KD 9D")
    pozo = cs("3C")
    rest = Counter(deck(*rules.deck_for(2)))
    rest.subtract(mine + top + pozo)
    cards = sorted(rest.elements())
    random.Random(1).shuffle(cards)
    other, mazo = cards[:12], cards[12:]
    game = Game(rules, NAMES[:2])
    game.start_round(Deal((tuple(other), tuple(mine)), tuple(pozo), tuple(top + mazo)))
    for action in (Draw(1, "mazo"), Bajar(1, (tuple(cs("5S 5D 5H")),
                                              tuple(cs("8S 8D 8C 8H 8S 8D 8C 8H")))),
                   Discard(1, cs("KD")[0]), Draw(0, "pozo"), Discard(0, cs("KD")[0]),
                   Draw(1, "mazo")):
        game.apply(action)
    assert sorted(game.hand(1)) == sorted(cs("5C 9D"))
    return game, 1


@pytest.mark.parametrize("objective", ["relative", "own", "leader"])
@pytest.mark.parametrize("policy", ["eager", "random", "greedy"])
def test_search_goes_out_when_it_can(objective: str, policy: str) -> None:
    game, seat = going_out_position()
    legal = game.legal_actions(seat)
    five = cs("5C")[0]
    assert Agregar(seat, five, 0, None) in list(legal)
    assert Discard(seat, five) in list(legal)
    bot = SearchBot(seed=3, playouts=24, rules=game.rules, policy=policy,
                    objective=objective)  # type: ignore[arg-type]
    choice = bot.choose(game.view(seat), legal)
    assert choice == Agregar(seat, five, 0, None)
    game.apply(choice)
    assert bot.choose(game.view(seat), game.legal_actions(seat)) == Discard(seat, cs("9D")[0])


def test_search_spends_its_budget_by_halving() -> None:
    game, seat = going_out_position()
    bot = SearchBot(seed=3, playouts=30, rules=game.rules, policy="eager")
    bot.choose(game.view(seat), game.legal_actions(seat))
    # three candidates: two phases; every candidate is tried, the budget is not exceeded
    assert 3 <= bot.last_playouts <= 30
    assert bot.last_playouts >= 24  # the budget is used, not wasted


def test_one_legal_action_needs_no_search() -> None:
    game = started("chico", 2, 5)
    seat = game.seat_to_act
    assert seat is not None
    game.apply(Draw(seat, "mazo"))
    game.apply(Discard(seat, game.hand(seat)[0]))
    other = game.seat_to_act
    assert other is not None
    bot = SearchBot(seed=1, playouts=50, rules=game.rules)
    legal = [a for a in game.legal_actions(other) if a.kind == "draw"][:1]
    assert bot.choose(game.view(other), legal) == legal[0]
    assert bot.last_playouts == 0


def test_search_is_reproducible_and_chooses_a_legal_action() -> None:
    for steps in (0, 1, 7, 30):
        game = started("chile", 3, 11, steps)
        seat = game.seat_to_act
        assert seat is not None
        legal = game.legal_actions(seat)
        picks = {SearchBot(seed=9, playouts=12, horizon=30, rules=game.rules,
                           policy="eager").choose(game.view(seat), legal) for _ in range(2)}
        assert len(picks) == 1
        assert picks.pop() in legal


def test_search_does_not_touch_the_game() -> None:
    game = started("chile", 3, 2, 13)
    seat = game.seat_to_act
    assert seat is not None
    before = (game.view(None), [game.hand(s) for s in range(3)], list(game.log[-1]))
    SearchBot(seed=1, playouts=8, horizon=40, rules=game.rules, policy="eager").choose(
        game.view(seat), game.legal_actions(seat))
    assert (game.view(None), [game.hand(s) for s in range(3)], list(game.log[-1])) == before


def test_search_reads_the_rules_off_the_legal_actions() -> None:
    game = started("chico", 2, 8, 3)
    seat = game.seat_to_act
    assert seat is not None
    legal = game.legal_actions(seat)
    with_rules = SearchBot(seed=4, playouts=6, horizon=20, rules=game.rules, policy="eager")
    without = SearchBot(seed=4, playouts=6, horizon=20, policy="eager")
    assert with_rules.choose(game.view(seat), legal) == without.choose(game.view(seat), legal)
    with pytest.raises(ValueError, match="needs the rules"):
        SearchBot(seed=4, playouts=6).choose(game.view(seat), list(legal))


def test_time_budget_is_kept() -> None:
    import time

    game = started("chile", 4, 3, 1)
    seat = game.seat_to_act
    assert seat is not None
    bot = SearchBot(seed=1, seconds=0.3, rules=game.rules, policy="eager")
    t0 = time.perf_counter()
    bot.choose(game.view(seat), game.legal_actions(seat))
    spent = time.perf_counter() - t0
    # every candidate gets at least one playout, so a slow playout may run over a little
    assert spent < 1.5
    assert bot.last_playouts >= 2


def test_action_budget_caps_the_playouts_and_decides_the_same_every_time() -> None:
    game = started("chile", 4, 3, 1)
    seat = game.seat_to_act
    assert seat is not None
    view, legal = game.view(seat), game.legal_actions(seat)
    free = SearchBot(seed=1, playouts=40, rules=game.rules, policy="eager")
    free.choose(view, legal)
    assert free.last_playouts == 40
    per_playout = free.last_actions / free.last_playouts
    budget = int(8 * per_playout)
    capped = [SearchBot(seed=1, playouts=40, actions=budget, rules=game.rules, policy="eager")
              for _ in range(2)]
    picks = {bot.choose(view, legal) for bot in capped}
    assert len(picks) == 1 and picks.pop() in legal
    bot = capped[0]
    assert len(set(legal)) <= bot.last_playouts < 40  # every candidate is tried once
    # A phase stops once it has spent its share: over the budget by one playout at most
    # per candidate still alive.
    assert bot.last_actions <= budget + len(set(legal)) * 3 * per_playout
    assert capped[1].last_actions == bot.last_actions


def test_named_search_bots_cap_their_actions_by_their_budget() -> None:
    from carioca.bots.levels import ACTIONS_PER_PLAYOUT

    rules = RuleSet.preset("chile")
    for name in ("search", "campeon", "rosa"):
        bot = make_bot(name, seed=1, rules=rules)
        assert isinstance(bot, SearchBot)
        assert bot.actions == ACTIONS_PER_PLAYOUT * bot.playouts


def test_named_search_bots_trust_the_discard_once_down() -> None:
    """Once down, the lookahead planner's discard is played without a playout (searched, it
    took most of the search's time and was almost never overruled: docs/bots.md)."""

    rules = RuleSet.preset("chile")
    game = Game.new(rules, NAMES[:2], seed=5)
    players = [GreedyBot(s, rules) for s in range(2)]
    planner = LookaheadBot(0, rules)
    found = 0
    while found < 3 and not game.is_over:
        seat = game.seat_to_act
        assert seat is not None
        view, legal = game.view(seat), game.legal_actions(seat)
        plan = planner.decide(view, legal, explain=False)
        if plan.reason == "discard_down" and sum(a.kind == "discard" for a in legal) > 1:
            bot = make_bot("search", seed=found, rules=rules)
            assert isinstance(bot, SearchBot)
            assert bot.choose(view, legal) == plan.action
            assert bot.last_playouts == 0
            found += 1
        game.apply(players[seat].choose(view, legal))
    assert found == 3


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="at least one playout"):
        SearchBot(playouts=0)
    with pytest.raises(ValueError, match="seconds"):
        SearchBot(seconds=0)
    with pytest.raises(ValueError, match="action budget"):
        SearchBot(actions=0)
    with pytest.raises(ValueError, match="objective"):
        SearchBot(objective="greed")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown policy 'clever'"):
        SearchBot(policy="clever")
    with pytest.raises(ValueError, match="unknown policy 'wise'"):
        SearchBot(planner="wise")


def test_round_utility() -> None:
    chile = RuleSet.preset("chile")
    assert round_utility([0, 30, 60], 0, chile, "relative") == 45
    assert round_utility([0, 30, 60], 1, chile, "relative") == -0.0
    assert round_utility([0, 30, 60], 2, chile, "own") == -60
    # leader: the game total after the round against the best other total
    assert round_utility([0, 30, 60], 2, chile, "leader", [0, 100, 0]) == -60
    assert round_utility([0, 30, 60], 1, chile, "leader", [200, 0, 0]) == 30
    assert round_utility([0, 30, 60], 0, chile, "leader", [200, 0, 0]) == -170
    familia = RuleSet.preset("familia")  # marks: going out is worth 1, more is better
    assert round_utility([0, 1, 0], 1, familia, "relative") == 1
    assert round_utility([0, 1, 0], 0, familia, "relative") == -0.5


# --------------------------------------------------------------------------- the greedy prior

def greedy_positions(preset: str = "chile", players: int = 2, seed: int = 5, every: int = 7
                     ) -> list[tuple[Game, int]]:
    """Positions of a greedy game with more than one legal action, every few actions."""
    rules = RuleSet.preset(preset)
    game = Game.new(rules, NAMES[:players], seed=seed)
    bots = [GreedyBot(s, rules) for s in range(players)]
    out = []
    for step in range(200):
        seat = game.seat_to_act
        if seat is None or game.is_over:
            break
        legal = game.legal_actions(seat)
        if step % every == 0 and len(legal) > 1:
            copy = Game.from_record(game.to_record())
            out.append((copy, seat))
        game.apply(bots[seat].choose(game.view(seat), legal))
    return out


def test_width_weighs_the_policys_favourite_moves() -> None:
    positions = greedy_positions()
    assert len(positions) >= 10
    for game, seat in positions:
        view, legal = game.view(seat), game.legal_actions(seat)
        greedy = GreedyBot(0, game.rules)
        bot = SearchBot(seed=1, playouts=4, width=3, rules=game.rules, horizon=20)
        ranked = bot._ranked(greedy, view, list(legal), greedy.choose(view, legal))
        assert ranked[0] == greedy.choose(view, legal)
        assert len(ranked) == min(3, len(legal)) == len(set(ranked))
        assert all(a in legal for a in ranked)
        # the second is what greedy plays when the first is not allowed
        if len(ranked) > 1:
            rest = [a for a in legal if a != ranked[0]]
            assert ranked[1] == greedy.choose(view, rest)


def test_a_sure_enough_search_plays_the_policys_move() -> None:
    """Overruling the policy needs ``confidence`` standard errors: with an unreachable bar the
    search plays exactly the greedy move; trusted reasons are played without a search."""
    for game, seat in greedy_positions(every=5)[:12]:
        view, legal = game.view(seat), game.legal_actions(seat)
        greedy = GreedyBot(0, game.rules).choose(view, legal)
        bot = SearchBot(seed=2, playouts=12, width=3, confidence=1e9, rules=game.rules,
                        horizon=30)
        assert bot.choose(view, legal) == greedy
    game, seat = going_out_position()
    bot = SearchBot(seed=2, playouts=12, trust=("go_out",), rules=game.rules)
    assert bot.choose(game.view(seat), game.legal_actions(seat)).kind == "agregar"
    assert bot.last_playouts == 0


def test_plausible_worlds_give_the_others_hands_near_their_contract() -> None:
    """After some laps the others kept the cards they wanted: plausible sampling picks, among
    several sampled worlds, the one where they are nearest their contract."""
    game = Game.new(RuleSet.preset("chile", rounds=[3]), NAMES[:3], seed=4)  # two escalas
    rules = game.rules
    bots = [GreedyBot(s, rules) for s in range(3)]
    while True:
        seat = game.seat_to_act
        assert seat is not None and not game.results
        view = game.view(seat)
        owed = {s: [Contract.parse(a) for a in view.owed[s] if a] for s in range(3)
                if s != seat and not view.down[s]}
        if view.turn >= 12 and len(owed) == 2:
            break
        game.apply(bots[seat].choose(view, game.legal_actions(seat)))

    def distance(world_seed: int) -> int:
        world = Game.from_view(view, rules, random.Random(world_seed))
        return sum(missing_cards(world.hand(s), c, rules) for s, c in owed.items())

    plain = SearchBot(seed=1, rules=rules)
    picky = SearchBot(seed=1, rules=rules, plausible=8)
    seeds = range(40)
    uniform = [distance(plain._world(view, rules, w, seat)) for w in seeds]
    plausible = [distance(picky._world(view, rules, w, seat)) for w in seeds]
    assert sum(plausible) < 0.9 * sum(uniform), (plausible, uniform)
    assert all(picky._world(view, rules, w, seat) == picky._world(view, rules, w, seat)
               for w in seeds)


# --------------------------------------------------------------------------- buying

def buy_position(top: str) -> tuple[Game, int]:
    """chico round 1 (two tríos) with buying for 2 points, three players. Seat 0 holds
    7S 7D 9S 9D 9C and junk; seat 1 has just thrown ``top`` on the pozo, seat 2 is next to
    draw, so seat 0 may buy it out of turn."""
    rules = RuleSet.preset("chico", buying="penalty_points")
    mine = cs("7S 7D 9S 9D 9C KH QH 10C 3S 5D 6C 4D")
    card = cs(top)[0]
    rest = Counter(deck(*rules.deck_for(3)))
    rest.subtract([*mine, card])
    cards = sorted(rest.elements())
    random.Random(2).shuffle(cards)
    hand1 = (*cards[:11], card)
    hand2 = tuple(cards[11:23])
    mazo = cards[23:]
    game = Game(rules, NAMES[:3])
    game.start_round(Deal((tuple(mine), hand1, hand2), (mazo[0],), tuple(mazo[1:])))
    game.apply(Draw(1, "mazo"))
    game.apply(Discard(1, card))
    return game, 0


@pytest.mark.parametrize(("top", "buys"), [("7C", True), ("KD", False)])
def test_search_buys_what_completes_its_contract(top: str, buys: bool) -> None:
    """(With eager or random playouts the two answers are within the noise of the playouts.)"""
    game, seat = buy_position(top)
    legal = game.legal_actions(seat)
    assert [a.kind for a in legal] == ["buy"]
    view = game.view(seat)
    assert view.buy_window
    bot = SearchBot(seed=1, playouts=24, rules=game.rules, policy="greedy")
    assert bot.wants_to_buy(view, legal) is buys
    assert not bot.wants_to_buy(view, [])


def test_a_decision_is_timed_in_cpu_seconds() -> None:
    """The driver charges a bot the CPU time of its thread, not the wall time: a bot that
    waits (as on a busy machine) is not charged for waiting, one that works is."""
    import time as clock

    class Sleepy(GreedyBot):
        def choose(self, view: View, legal: Sequence[Action]) -> Action:
            clock.sleep(0.05)
            return super().choose(view, legal)

    class Busy(GreedyBot):
        def choose(self, view: View, legal: Sequence[Action]) -> Action:
            end = clock.thread_time() + 0.02
            while clock.thread_time() < end:
                pass
            return super().choose(view, legal)

    for kind, low, high in ((Sleepy, 0.0, 0.03), (Busy, 0.02, 10.0)):
        game = started("chico", 2, seed=3)
        times: list[float] = []
        played = play_until_round_end(game, [kind(0, game.rules), kind(1, game.rules)],
                                      observer=lambda _g, _a, spent, into=times:
                                      into.append(spent),
                                      max_actions=4)
        assert played == 4 and len(times) == 4
        assert all(low <= t < high for t in times), (kind.__name__, times)


def test_the_driver_offers_buys_in_turn_order() -> None:
    class Always:
        name = "always"
        description = "buys everything"

        def __init__(self) -> None:
            self.asked = 0

        def choose(self, view: View, legal: Sequence[Action]) -> Action:
            return legal[0]

        def wants_to_buy(self, view: View, legal: Sequence[Action]) -> bool:
            self.asked += 1
            return True

    rules = RuleSet.preset("chico", buying="penalty_card", max_buys_per_round=1)
    game = Game.new(rules, NAMES[:3], seed=4)
    bots = [Always(), Always(), Always()]
    play_until_round_end(game, bots, max_actions=12)
    buys = [a for a in game.log[0] if a.kind == "buy"]
    assert buys, "nobody bought"
    # after seat 1's first discard, seat 2 draws: the nearest buyer after it is seat 0
    first = game.log[0].index(buys[0])
    assert game.log[0][first - 1].kind == "discard"
    assert buys[0].seat == (game.log[0][first - 1].seat + 2) % 3
    assert all(b.asked for b in bots)


def test_the_timer_hears_every_decision_and_times_the_bot_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``timer`` gets every decision, a buy question answered no too, and the clock runs
    over the bot's own work: the engine's view is made before it starts."""
    import time as clock

    class Never(RandomBot):  # decides in microseconds: any slowness timed is the engine's
        asked = 0

        def wants_to_buy(self, view: View, legal: Sequence[Action]) -> bool:
            Never.asked += 1
            return False

    rules = RuleSet.preset("chico", buying="penalty_card")
    game = Game.new(rules, NAMES[:3], seed=4)
    real_view = Game.view

    def slow_view(self: Game, seat: int | None) -> View:
        end = clock.thread_time() + 0.01  # an engine 10 ms slow to show a seat its view
        while clock.thread_time() < end:
            pass
        return real_view(self, seat)

    monkeypatch.setattr(Game, "view", slow_view)
    timed: list[tuple[int, float]] = []
    played = play_until_round_end(game, [Never(s) for s in range(3)], max_actions=30,
                                  timer=lambda seat, spent: timed.append((seat, spent)))
    assert Never.asked > 0
    assert len(timed) == played + Never.asked  # every move, and every "no"
    assert all(spent < 0.005 for _, spent in timed), max(spent for _, spent in timed)


# --------------------------------------------------------------------------- strength

def test_search_beats_random_play() -> None:
    """Search with eager playouts against the random bot, on the same deal in both seats: it
    goes out every time. (How it fares against greedy is measured in docs/bots.md.)"""
    result = tournament(["search@8:eager", "random"], "chico", games=2, seed=3, workers=1,
                        options={"rounds": [1]})
    stats = {s.name: s for s in result.stats}
    assert stats["search@8:eager"].win_rate == 1
    assert stats["search@8:eager"].outs_per_game == 1
    assert stats["random"].mean_points > 0


def test_policies_by_name() -> None:
    assert policy_factory("random") is RandomBot
    assert policy_factory("eager") is EagerBot
    bot = policy_factory("greedy")(3)
    assert isinstance(bot, Bot)
    planner = policy_factory("bottleneck", RuleSet.preset("chile"))(3)
    assert isinstance(planner, LookaheadBot) and planner.bottleneck
    plain = policy_factory("lookahead")(3)
    assert isinstance(plain, LookaheadBot) and not plain.bottleneck


# --------------------------------------------------------------------------- levels

def test_every_level_is_described_and_made() -> None:
    rules = RuleSet.preset("chico")
    assert {"random", "greedy", "search"} <= set(bot_names())
    levels = sorted({spec.level for spec in BOTS.values()})
    assert levels == list(range(len(levels)))
    for name, spec in BOTS.items():
        assert spec.name == name
        lines = [spec.es, spec.en, spec.de, spec.sv]
        assert all(lines) and len(set(lines)) == 4  # a line in each language of the table
        for lang, line in zip(("es", "en", "de", "sv"), lines, strict=True):
            assert spec.describe(lang) == f"{spec.title}: {line}"
        assert spec.describe("fr") == spec.describe("en")
        assert spec.budget.startswith("search:" if spec.policy == "search" else "policy:")
        if spec.policy == "search":
            assert spec.playouts is not None and spec.playouts >= 1
        bot = make_bot(name, 1, rules)
        assert isinstance(bot, Bot)
        assert bot.name == name
        assert spec.en in bot.description and spec.es in bot.description
    # a search level's budget grows with its level
    budgets = {spec.level: spec.playouts for spec in BOTS.values() if spec.playouts}
    assert [budgets[k] for k in sorted(budgets)] == sorted(budgets.values())


def test_search_budget_by_name() -> None:
    bot = make_bot("search@7", 1, RuleSet.preset("chico"))
    assert isinstance(bot, SearchBot) and bot.playouts == 7
    eager = make_bot("search@5:eager", 1)
    assert isinstance(eager, SearchBot) and eager.name == "search@5:eager"
    assert "eager" in eager.description
    for bad in ("search@0", "search@x", "wizard", "search@5:clever"):
        with pytest.raises(ValueError):
            make_bot(bad, 1)


def test_a_level_is_not_a_die() -> None:
    """The same bot asked the same question twice (fresh, same seed) answers the same: a
    level never adds random mistakes on top of its policy or search."""
    game = started("chico", 3, 6, 9)
    seat = game.seat_to_act
    assert seat is not None
    for name in BOTS:
        answers = set()
        for _ in range(2):
            bot = make_bot(name, 21, game.rules)
            if isinstance(bot, SearchBot):
                bot.playouts = 4
                bot.horizon = 20
            answers.add(bot.choose(game.view(seat), game.legal_actions(seat)))
        assert len(answers) == 1, name


def test_the_levels_table_in_the_docs_is_the_registry() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "bots.md").read_text("utf-8")
    section = text[text.index("### Levels and personalities"):text.index("### Fair by")]
    rows = [line.split("|")[1:-1] for line in section.splitlines()
            if line.startswith("| `")]
    documented = {cells[0].strip().strip("`"): [c.strip() for c in cells] for cells in rows
                  if len(cells) == 6}
    titled = {cells[0].strip().strip("`"): [c.strip() for c in cells[1:]] for cells in rows
              if len(cells) == 5}
    assert titled == {name: [spec.title, *(spec.title_in(lang) for lang in ("es", "de", "sv"))]
                      for name, spec in BOTS.items() if spec.titles}
    assert set(documented) == set(BOTS)
    for name, cells in documented.items():
        spec = BOTS[name]
        assert cells[1] == spec.title
        assert cells[2] == str(spec.level)
        assert cells[4] == spec.en and cells[5] == spec.es
        if spec.playouts is not None:
            assert f"{spec.playouts} playouts" in cells[3] and spec.objective in cells[3]
        else:
            assert cells[3] == spec.budget
