"""The reinforcement-learning environment: PettingZoo's API and seed tests, Gymnasium's checker,
an action mask that is exactly the legal actions, observations made from the view alone, the
buy window, rewards that add up to the score sheet, and docs/rl.md kept true."""

from __future__ import annotations

import random
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from carioca import Bajar, Buy, Discard, Draw, Game  # noqa: E402
from carioca.bots import RandomBot  # noqa: E402
from carioca.rl import (  # noqa: E402
    CARDS,
    ActionLayout,
    SingleAgentEnv,
    bajar_order,
    env,
    raw_env,
    redeal_seed,
)
from carioca.rules import PRESETS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHORT = {"max_reshuffles": 0}
"""Rounds end when the mazo first runs out: whole games in a fraction of a second."""


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    # PettingZoo's checkers warn about Dict observations, which every masked env has.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def play(e: raw_env, seed: int, check: Any = None, steps: int = 100_000) -> dict[str, float]:
    """Random masked play to the end of the game; returns each agent's summed rewards.
    ``check(e, agent, obs)`` is called before every decision."""
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(steps):
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        if check is not None:
            check(e, agent, obs)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


# --------------------------------------------------------------------------- the API tests

@pytest.mark.parametrize(("preset", "players", "options"), [
    ("chile", 4, {}),
    ("chico", 3, {"buying": "penalty_card"}),
    ("rumi", 2, {"buying": "penalty_points"}),
    ("familia", 4, {"open_hands": True}),
])
def test_pettingzoo_api(preset: str, players: int, options: dict[str, Any]) -> None:
    api_test(env(preset, players, options, render_mode="ansi"), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env("chile", 4, {"buying": "penalty_card"}), num_cycles=400)


def test_same_seed_same_game_different_seed_different_game() -> None:
    def transcript(seed: int) -> list[str]:
        e = raw_env("chico", 3, SHORT)
        e.reset(seed=seed)
        play(e, seed=1, steps=300)
        assert e.game is not None
        return [str(a) for a in e.game.log[-1]]

    assert transcript(5) == transcript(5)
    assert transcript(5) != transcript(6)


def test_reset_with_a_seed_deals_the_games_deal() -> None:
    e = raw_env("chile", 4)
    e.reset(seed=11)
    assert e.game is not None
    assert e.game.view(0) == Game.new(e.rules, e.possible_agents, seed=11).view(0)


def test_gymnasium_check_env() -> None:
    check_env(SingleAgentEnv("chile", 4, seat=2), skip_render_check=True)
    check_env(SingleAgentEnv("chico", 3, seat=0, options={"buying": "penalty_card"},
                             render_mode="ansi"))


# --------------------------------------------------------------------------- the action mask

def mask_is_exact(e: raw_env, agent: str, obs: dict[str, Any]) -> None:
    """Every masked index is a legal action of the engine, and every legal action of the engine
    has a masked index (but bajar options ranked beyond the bajar slots)."""
    assert e.game is not None
    seat = e.seat_of(agent)
    mask = obs["action_mask"]
    assert mask.dtype == np.int8 and set(np.unique(mask)) <= {0, 1}
    table = e.legal_map(agent)
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(table)
    legal = e.game.legal_actions(seat)
    role = e.phase_of(agent)
    if role == "buy":
        assert set(table) == {e.layout.buy, e.layout.pass_}
        assert table[e.layout.buy] == Buy(seat) and Buy(seat) in legal
        return
    assert role in ("draw", "play")
    for index, action in table.items():
        assert action is not None and action in legal, (index, action)
        assert action.seat == seat
    bajars = bajar_order([a for a in legal if isinstance(a, Bajar)], e.rules)
    for action in legal:
        if isinstance(action, Bajar):
            rank = bajars.index(action)
            index = e.layout.index_of(action, rank)
            if rank >= e.layout.bajar_slots:
                assert index is None
                continue
        else:
            index = e.layout.index_of(action)
        assert index is not None and table[index] == action, action
        assert e.describe_action(index).split()[0] == action.kind


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_mask_is_exactly_the_legal_actions(preset: str) -> None:
    players = min(4, PRESETS[preset].max_players)
    seen: set[str] = set()

    def check(e: raw_env, agent: str, obs: dict[str, Any]) -> None:
        mask_is_exact(e, agent, obs)
        seen.update("pass" if a is None else a.kind for a in e.legal_map(agent).values())

    for seed, options in ((1, SHORT), (2, {**SHORT, "buying": "penalty_card"})):
        e = raw_env(preset, players, options)
        e.reset(seed=seed)
        play(e, seed, check=check)
        assert e.game is not None and e.game.is_over
    assert seen == {"draw", "discard", "bajar", "agregar", "swap", "buy", "pass"}


def test_masked_actions_never_raise_and_illegal_indexes_do() -> None:
    e = raw_env("chile", 3)
    e.reset(seed=4)
    obs = e.observe(e.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not in the action mask"):
        e.step(illegal)
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_step_engine_checks_before_it_changes_anything() -> None:
    from carioca import IllegalAction

    e = raw_env("chile", 3)
    e.reset(seed=4)
    agent = e.agent_selection
    seat = e.seat_of(agent)
    assert e.game is not None
    hand = e.game.view(seat).hand
    assert hand is not None
    with pytest.raises(IllegalAction):
        e.step_engine(Discard(seat, hand[0]))  # draw first
    with pytest.raises(ValueError, match="only a seat offered the pozo card may pass"):
        e.step_engine(None)
    with pytest.raises(ValueError, match="is to act"):
        e.step_engine(Draw((seat + 1) % 3, "mazo"))
    assert e.agent_selection == agent and e.game.view(seat).turn == 0
    e.step_engine(Draw(seat, "pozo"))
    assert e.phase_of(agent) == "play"


def test_step_engine_takes_engine_actions_only() -> None:
    e = raw_env("chile", 3)
    e.reset(seed=4)
    assert e.game is not None
    before = e.game.view(e.seat_of(e.agent_selection))
    for wrong in (0, "draw mazo"):
        with pytest.raises(ValueError, match="takes an engine action"):
            e.step_engine(wrong)  # type: ignore[arg-type]
    assert e.game.view(e.seat_of(e.agent_selection)) == before


def test_a_contract_with_alternatives_offers_every_bajar() -> None:
    """16 bajar slots for each alternative: with "1T+1E|2E" this hand has 24 ways down (12
    for each contract), and all are in the mask; 16 slots would leave out the only two that
    keep both jokers in hand."""
    from collections import Counter

    from carioca import Deal
    from carioca.cards import deck, parse_cards

    e = raw_env("chile", 3, {"contracts": ["1T+1E|2E"]})
    assert e.layout.bajar_slots == 32 and raw_env("chile", 3).layout.bajar_slots == 16
    e.reset(seed=1)
    hands = ["AS 3H 5C 7C 9S JH KD 2C 4D 6H 8S 10C", "2C 3C 4C 5C 5H 6H 7H 8H 9H 5D 5S JK",
             "AD 3D 4H 7S 7D 9C 10H JD KH QC 2S 6S"]
    dealt = tuple(tuple(parse_cards(h)) for h in hands)
    pozo, mazo_top = tuple(parse_cards("QH")), tuple(parse_cards("JK"))
    left = Counter(deck(*e.rules.deck_for(3)))
    left.subtract([*(c for h in dealt for c in h), *pozo, *mazo_top])
    game = Game(e.rules, ["Ana", "Beto", "Caro"])
    game.start_round(Deal(dealt, pozo, mazo_top + tuple(sorted(left.elements()))))
    game.apply(Draw(1, "mazo"))
    e.game = game
    legal = {a for a in game.legal_actions(1) if isinstance(a, Bajar)}
    offered = {a for a in e.legal_map("player_1").values() if isinstance(a, Bajar)}
    assert len(legal) == 24 and offered == legal
    assert any(str(a).endswith("5H 6H 7H 8H 9H / 2C 3C 4C 5C") for a in offered)


def test_the_layout_round_trips_every_index() -> None:
    layout = ActionLayout(bajar_slots=16, meld_slots=16)
    ranges = layout.ranges()
    assert sum(len(r) for r in ranges.values()) == layout.size == 3465
    assert [r.start for r in ranges.values()] == sorted(r.start for r in ranges.values())
    for index in range(layout.size):
        words = layout.describe(index)
        kind = next(k for k, r in ranges.items() if index in r)
        assert words.startswith(kind.split()[0])
    assert layout.describe(layout.DISCARD + CARDS - 1) == "discard JK"
    assert layout.swap_index(15, 52, "low") == layout.buy - 2


def test_meld_slots_cover_every_table() -> None:
    assert raw_env("chile", 4).layout.meld_slots == 16
    assert raw_env("chile", 8).layout.meld_slots == 32
    assert raw_env("chile", 2).layout.size == raw_env("online", 4).layout.size


# --------------------------------------------------------------------------- observations

def test_observation_is_made_from_the_view_alone() -> None:
    """Worlds sampled from a seat's view (other hands and the mazo dealt anew) give the seat
    exactly the observation and mask of the real game."""
    e = raw_env("chile", 4, {"buying": "penalty_card"})
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    checked = 0
    for step in range(600):
        agent = e.agent_selection
        obs = e.observe(agent)
        if step % 40 == 7:
            real = e.game
            assert real is not None
            for other in e.possible_agents:
                seat = e.seat_of(other)
                view = real.view(seat)
                expected = e.observe(other)
                worlds = [Game.from_view(view, e.rules, random.Random(k)) for k in (1, 2)]
                hidden = [[sorted(w.hand(s)) for s in range(4) if s != seat] for w in worlds]
                assert hidden[0] != hidden[1], "the sampled worlds should differ"
                for world in worlds:
                    e.game = world
                    try:
                        seen = e.observe(other)
                    finally:
                        e.game = real
                    assert np.array_equal(seen["observation"], expected["observation"])
                    assert np.array_equal(seen["action_mask"], expected["action_mask"])
                    checked += 1
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checked >= 100


def test_observation_segments() -> None:
    e = raw_env("chile", 4)
    e.reset(seed=9)
    agent = e.agent_selection
    seat = e.seat_of(agent)
    assert e.game is not None
    view = e.game.view(seat)
    vec = e.observe(agent)["observation"]
    seg = e.segments
    assert vec.dtype == np.float32 and vec.shape == (e.observer.size,)
    assert list(seg) == ["hand", "pozo_top", "pozo", "table", "unseen", "known",
                         "hand_sizes", "down", "owed", "buys", "steals", "to_act",
                         "last_discarder", "dealer", "scores", "round", "contract", "role",
                         "flags", "counts", "melds"]
    assert view.hand is not None
    hand = vec[seg["hand"]]
    assert hand.sum() == len(view.hand) == 12
    for card in view.hand:
        assert hand[card] >= 1
    assert vec[seg["pozo_top"]].argmax() == view.pozo[-1]
    assert vec[seg["unseen"]].sum() == 108 - 12 - len(view.pozo)
    assert vec[seg["hand_sizes"]].tolist() == [12.0, 12.0, 12.0, 12.0]
    assert vec[seg["to_act"]][0] == 1.0  # the observer comes first
    assert vec[seg["round"]].tolist() == [1, 0, 0, 0, 0, 0, 0, 0]
    assert vec[seg["contract"]].tolist() == [2, 0, 0, 0, 0, 0, 1, 0, 12]
    assert vec[seg["owed"]][:5].tolist() == [2, 0, 0, 0, 0]
    assert vec[seg["role"]].tolist() == [1, 0, 0, 0, 0]  # draw
    other = e.possible_agents[(seat + 1) % 4]
    assert e.observe(other)["observation"][seg["role"]].tolist() == [0, 0, 0, 1, 0]  # wait
    assert not e.observe(other)["action_mask"].any()


def test_melds_and_relative_seats_in_the_observation() -> None:
    e = raw_env("chile", 3, SHORT)
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    seg = e.segments
    width = e.observer.meld_width
    while e.game is not None and not e.game.is_over:
        agent = e.agent_selection
        obs = e.observe(agent)
        view = e.game.view(e.seat_of(agent))
        if view.melds:
            melds = obs["observation"][seg["melds"]].reshape(e.layout.meld_slots, width)
            assert melds[:, 0].sum() == len(view.melds)
            for i, meld in enumerate(view.melds):
                assert melds[i, 1:6].argmax() == ("trio", "escala").index(meld.kind)
                owner = (meld.owner - e.seat_of(agent)) % 3
                assert melds[i, 6:9].argmax() == owner
                assert melds[i, 9] == len(meld.cards)
            table = obs["observation"][seg["table"]]
            assert table.sum() == sum(len(m.cards) for m in view.melds)
            return
        table_map = e.legal_map(agent)
        progress = [i for i, a in table_map.items() if isinstance(a, Bajar)]
        e.step(progress[0] if progress else int(rng.choice(sorted(table_map))))
    pytest.fail("nobody laid down a contract")


def test_observations_stay_in_their_space() -> None:
    e = raw_env("online", 4, {"buying": "penalty_points"})
    e.reset(seed=8)
    space = e.observation_space("player_0")

    def inside(e: raw_env, agent: str, obs: dict[str, Any]) -> None:
        assert space.contains(obs)
        assert space.contains(e.observe(e.possible_agents[0]))

    play(e, 8, check=inside, steps=1500)


# --------------------------------------------------------------------------- the buy window

def find_window(e: raw_env, rng: Any) -> str:
    """Play until the selected agent must draw while others may buy the pozo top."""
    assert e.game is not None
    for _ in range(2000):
        agent = e.agent_selection
        seat = e.seat_of(agent)
        if e.phase_of(agent) == "draw" and any(
            Buy(s) in e.game.legal_actions(s) for s in range(e.n) if s != seat
        ):
            return agent
        obs = e.observe(agent)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    pytest.fail("no buy window came up")


def test_buy_window_opens_when_the_next_player_declines_the_pozo() -> None:
    e = raw_env("chile", 4, {"buying": "penalty_card"})
    e.reset(seed=21)
    rng = np.random.default_rng(21)
    agent = find_window(e, rng)
    assert e.game is not None
    drawer = e.seat_of(agent)
    discarder = (drawer - 1) % 4
    top = e.game.view(drawer).pozo[-1]
    mazo = e.game.view(drawer).mazo_count
    e.step(ActionLayout.DRAW_MAZO)
    asked = []
    while e.phase_of(e.agent_selection) == "buy":
        buyer = e.agent_selection
        asked.append(e.seat_of(buyer))
        assert set(e.legal_map(buyer)) == {e.layout.buy, e.layout.pass_}
        assert e.game.view(drawer).hand_counts[drawer] == 12  # the draw waits
        e.step(e.layout.pass_)
    assert asked == [(drawer + 1) % 4, (drawer + 2) % 4]
    assert discarder not in asked and drawer not in asked
    assert e.agent_selection == agent and e.phase_of(agent) == "play"
    view = e.game.view(drawer)
    assert view.pozo[-1] == top and view.mazo_count == mazo - 1
    assert view.hand_counts[drawer] == 13


def test_a_buy_closes_the_window_then_the_draw_is_made() -> None:
    e = raw_env("chile", 4, {"buying": "penalty_card"})
    e.reset(seed=22)
    rng = np.random.default_rng(22)
    agent = find_window(e, rng)
    assert e.game is not None
    drawer = e.seat_of(agent)
    top = e.game.view(drawer).pozo[-1]
    e.step(ActionLayout.DRAW_MAZO)
    buyer = e.seat_of(e.agent_selection)
    before = e.game.view(buyer).hand_counts[buyer]
    e.step(e.layout.buy)
    view = e.game.view(buyer)
    assert view.hand_counts[buyer] == before + 2  # the pozo card and a penalty card
    assert top in view.known[buyer]
    assert e.agent_selection == agent and e.phase_of(agent) == "play"
    assert view.hand_counts[drawer] == 13


def test_a_buy_that_ends_the_round_takes_the_held_draw_with_it() -> None:
    """The penalty card of a buy is the mazo's last (no reshuffle): the round ends, and the draw
    held for the buy window is not made in the next round."""
    e = raw_env("chico", 3, {"buying": "penalty_card", "max_reshuffles": 0})
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    game = e.game
    assert game is not None
    while not game.is_over:
        agent = e.agent_selection
        seat = e.seat_of(agent)
        view = game.view(seat)
        if e.phase_of(agent) == "buy":
            e.step(e.layout.pass_)
        elif e.phase_of(agent) == "draw" and view.mazo_count == 1 and e._buyers(seat):
            e.step(ActionLayout.DRAW_MAZO)
            e.step(e.layout.buy)  # the penalty card empties the mazo: the round ends
            after = game.view(seat)
            assert after.round == view.round + 1 and after.log == ()
            assert all(n == after.hand_size for n in after.hand_counts)
            return
        else:
            e.step(int(rng.choice(sorted(e.legal_map(agent)))))
    pytest.fail("no buy took the mazo's last card")


def test_the_laid_flag_is_the_player_to_acts_in_this_turn() -> None:
    """flags[1]: the player to act laid melds this turn; the next player's turn starts at 0."""
    e = raw_env("chile", 2)
    e.reset(seed=3)
    game = e.game
    assert game is not None
    laid_at = e.observer.segments["flags"].start + 1
    seen = False
    for _ in range(3000):
        if game.is_over:
            break
        agent = e.agent_selection
        obs = e.observe(agent)["observation"]
        if e.phase_of(agent) == "draw":
            assert obs[laid_at] == 0
        seen = seen or obs[laid_at] == 1
        e.step(int(np.random.default_rng(len(game.log[-1])).choice(sorted(e.legal_map(agent)))))
    assert seen


def test_an_action_is_a_whole_number_and_a_finished_game_says_so() -> None:
    e = raw_env("chico", 2, SHORT)
    e.reset(seed=2)
    for bad in (1.9, "3", True):
        with pytest.raises(ValueError, match="whole-number index"):
            e.step(bad)  # type: ignore[arg-type]
    play(e, 2)
    with pytest.raises(ValueError, match="the game is over"):
        e.step(None)
    # numpy's integers and 0-d integer arrays (an argmax) are whole numbers too
    e.reset(seed=2)
    mask = e.observe(e.agent_selection)["action_mask"]
    e.step(np.array(int(np.flatnonzero(mask)[0])))
    assert raw_env("chico", np.int64(3)).n == 3
    for kwargs in ({"players": "4"}, {"meld_slots": "3"}, {"options": [1]}):
        with pytest.raises(ValueError, match="whole number|mapping"):
            raw_env("chile", **kwargs)  # type: ignore[arg-type]


def test_no_window_when_the_next_player_takes_the_pozo_card() -> None:
    e = raw_env("chile", 4, {"buying": "penalty_card"})
    e.reset(seed=23)
    agent = find_window(e, np.random.default_rng(23))
    e.step(ActionLayout.DRAW_POZO)
    assert e.agent_selection == agent and e.phase_of(agent) == "play"


def test_no_buy_or_pass_without_buying() -> None:
    e = raw_env("chile", 4)
    e.reset(seed=5)

    def never(e: raw_env, agent: str, obs: dict[str, Any]) -> None:
        assert e.phase_of(agent) != "buy"
        assert not obs["action_mask"][e.layout.buy:].any()

    play(e, 5, check=never, steps=2000)


# --------------------------------------------------------------------------- rewards

@pytest.mark.parametrize(("preset", "players", "options"), [
    ("chile", 4, SHORT),
    ("chico", 3, {**SHORT, "buying": "penalty_points"}),
    ("online", 2, SHORT),
])
def test_rewards_add_up_to_minus_the_totals(preset: str, players: int,
                                            options: dict[str, Any]) -> None:
    e = raw_env(preset, players, options)
    e.reset(seed=31)
    totals = play(e, 31)
    assert e.game is not None and e.game.is_over
    sheet = e.game.score_sheet()
    assert [totals[a] for a in e.possible_agents] == [-t for t in sheet.totals]
    assert any(t != 0 for t in sheet.totals)


def test_rounds_scoring_rewards_outs_and_scale() -> None:
    e = raw_env("familia", 3, SHORT, reward_scale=0.5)
    e.reset(seed=32)
    totals = play(e, 32)
    assert e.game is not None
    sheet = e.game.score_sheet()
    assert [totals[a] for a in e.possible_agents] == [0.5 * t for t in sheet.totals]


def test_rewards_come_at_the_end_of_each_round() -> None:
    e = raw_env("chico", 2, SHORT)
    e.reset(seed=33)
    rng = np.random.default_rng(33)
    paid = 0
    while e.game is not None and not e.game.is_over:
        before = len([r for r in e.game.score_sheet().rounds if r is not None])
        obs = e.observe(e.agent_selection)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        rounds = [r for r in e.game.score_sheet().rounds if r is not None]
        if len(rounds) > before:
            expected = [-float(sum(r.scores[s] for r in rounds[before:])) for s in range(2)]
            assert [e.rewards[a] for a in e.possible_agents] == expected
            paid += len(rounds) - before
        else:
            assert not any(e.rewards.values())
    assert paid == 4


def test_render_is_a_text_table() -> None:
    e = raw_env("chile", 3, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str)
    assert "round 1/8: 2T" in text and "player_2" in text and "pozo:" in text
    assert e.game is not None
    hand = e.game.view(e.seat_of(e.agent_selection)).hand
    assert hand is not None and " ".join(map(str, hand)) in text


# --------------------------------------------------------------------------- single agent

def test_single_agent_env_plays_a_whole_game() -> None:
    single = SingleAgentEnv("chico", 3, seat=1, options=SHORT)
    obs, _ = single.reset(seed=41)
    rng = np.random.default_rng(41)
    total, done, info = 0.0, False, {}
    while not done:
        assert obs["action_mask"].any()
        assert np.array_equal(single.action_masks(), obs["action_mask"].astype(bool))
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = single.step(action)
        total += reward
        done = terminated or truncated
    sheet = single.game.score_sheet()
    assert total == -sheet.totals[1]
    assert info["totals"] == list(sheet.totals)


def test_what_the_bots_score_before_the_learner_decides_is_paid() -> None:
    """A round the bots end before the learner's first decision is paid with its first
    step; a deal they finish before it decides at all is dealt again."""
    opts = {"hand_size": [6, 8], "rounds": [1, 2]}
    single = SingleAgentEnv("chico", 2, seat=0, opponents="eager", options=opts)
    obs, info = single.reset(seed=226)
    assert single.game.results and not info  # round 1 is over before seat 0 decided
    total, done = 0.0, False
    while not done:
        action = int(np.flatnonzero(obs["action_mask"])[0])
        obs, reward, terminated, truncated, info = single.step(action)
        total += reward
        done = terminated or truncated
    assert total == -single.game.score_sheet().totals[0]
    once = SingleAgentEnv("chico", 2, seat=0, opponents="eager",
                          options={"hand_size": 6, "rounds": [1]})
    obs, info = once.reset(seed=226)
    assert info == {"redealt": 1} and not once.game.is_over and obs["action_mask"].any()
    assert once.game.seed == redeal_seed(226, 1) not in (226, 227)  # no other episode's deal
    for bad in (1.9, "0", None, True):
        with pytest.raises(ValueError, match="whole-number index"):
            once.step(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no game yet"):
        raw_env("chico", 2).step(0)
    # A step refused with illegal="raise" keeps what is owed for the next one.
    strict = SingleAgentEnv("chico", 2, seat=0, opponents="eager", options=opts,
                            illegal="raise")
    obs, _ = strict.reset(seed=226)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    total, done = 0.0, False
    while not done:
        obs, reward, terminated, truncated, _ = strict.step(
            int(np.flatnonzero(obs["action_mask"])[0]))
        total += reward
        done = terminated or truncated
    assert total == -strict.game.score_sheet().totals[0]


def test_single_agent_env_illegal_actions() -> None:
    single = SingleAgentEnv("chile", 4, seat=0, max_illegal=3)
    obs, _ = single.reset(seed=42)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = single.game.view(0)
    for k in range(3):
        obs2, reward, terminated, truncated, info = single.step(illegal)
        assert reward == -1.0 and info["illegal_action"] and not terminated
        assert truncated == (k == 2)
    assert single.game.view(0) == before
    assert np.array_equal(obs2["observation"], obs["observation"])
    strict = SingleAgentEnv("chile", 4, illegal="raise")
    strict.reset(seed=42)
    with pytest.raises(ValueError):
        strict.step(illegal)
    forgiving = SingleAgentEnv("chile", 4, illegal="random")
    forgiving.reset(seed=42)
    _, _, _, _, info = forgiving.step(illegal)
    assert info["illegal_action"] and forgiving.game.view(0).turn > 0


def test_single_agent_env_checks_its_seat_and_asks_for_a_reset_first() -> None:
    for seat in (1.0, True, "1"):
        with pytest.raises(ValueError, match="seat is a whole number"):
            SingleAgentEnv("chile", 4, seat=seat)  # type: ignore[arg-type]
    assert SingleAgentEnv("chile", 4, seat=np.int64(2)).seat == 2
    with pytest.raises(RuntimeError, match="no game yet: call reset"):
        SingleAgentEnv("chile", 4).step(0)


def test_opponents_by_name_instance_and_factory() -> None:
    made: list[int] = []

    def factory(seat: int, seed: int) -> RandomBot:
        made.append(seat)
        return RandomBot(seed)

    for opponents in ("random", RandomBot(3), factory, [RandomBot(1), "random", factory]):
        single = SingleAgentEnv("chico", 4, seat=0, opponents=opponents, options=SHORT)
        single.reset(seed=1)
    assert made
    with pytest.raises(ValueError, match="nobody"):
        SingleAgentEnv("chile", 4, opponents="nobody")
    with pytest.raises(ValueError, match="give 3 opponents"):
        SingleAgentEnv("chile", 4, opponents=["random"])


def test_bots_that_buy_buy_in_the_window() -> None:
    class Greedy(RandomBot):
        def wants_to_buy(self, view: Any, legal: Any) -> bool:
            return True

    single = SingleAgentEnv("chile", 4, seat=0, opponents=Greedy(1),
                            options={"buying": "penalty_card"})
    obs, _ = single.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(60):
        mask = obs["action_mask"]
        if mask[ActionLayout.DRAW_MAZO]:
            action = ActionLayout.DRAW_MAZO
        else:
            legal = [i for i in np.flatnonzero(mask) if not (
                ActionLayout.DISCARD <= i < ActionLayout.DISCARD + CARDS)]
            action = int(rng.choice(legal or np.flatnonzero(mask)))
        obs, *_ = single.step(action)
    assert sum(single.game.view(0).buys[1:]) > 0


# --------------------------------------------------------------------------- docs/rl.md

def doc() -> str:
    return (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")


def test_docs_name_every_segment_and_action_range() -> None:
    text = doc()
    for preset_options in ({}, {"open_hands": True}):
        for name in raw_env("chile", 4, preset_options).segments:
            assert f"`{name}`" in text, f"docs/rl.md does not document segment {name!r}"
    layout = ActionLayout()
    for kind, indexes in layout.ranges().items():
        first, last = indexes.start, indexes.stop - 1
        span = f"{first}" if first == last else f"{first}-{last}"
        assert re.search(rf"\| {re.escape(span)} \|", text), f"{kind}: {span} not in docs"


def test_docs_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", doc(), flags=re.S)
    runnable = [b for b in blocks if "sb3_contrib" not in b]
    assert len(runnable) >= 2
    for block in runnable:
        exec(compile(block, "docs/rl.md", "exec"), {"__name__": "docs_rl"})


def test_discard_and_draw_indexes_are_the_card_codes() -> None:
    layout = ActionLayout()
    assert layout.index_of(Draw(0, "mazo")) == 0 and layout.index_of(Draw(0, "pozo")) == 1
    from carioca import Card

    assert layout.index_of(Discard(0, Card.parse("AS"))) == 2
    assert layout.index_of(Discard(0, Card.parse("JK"))) == 54


def test_the_single_agent_env_has_the_helpers_docs_rl_md_names() -> None:
    # docs/rl.md uses env.unwrapped.segments / .layout / .legal_map on either environment.
    single = SingleAgentEnv("chico", players=2, opponents="random")
    obs, _ = single.reset(seed=3)
    inner = single.unwrapped
    assert inner.segments == single.aec.segments
    assert inner.layout.ranges() == single.aec.layout.ranges()
    legal = inner.legal_map()
    assert sorted(legal) == [i for i, m in enumerate(obs["action_mask"]) if m]


def test_the_score_bounds_hold_the_most_the_rules_allow() -> None:
    """±1,000,000 as a rule; past it where the rules let a total grow further."""
    plain = raw_env("chile", 2).observer
    assert plain.space().high[plain.segments["scores"]].tolist() == [1e6, 1e6]
    dear = raw_env("chile", 2, {"values": {"K": 1000}, "contracts": ["2T"] * 30}).observer
    # 30 rounds, each of a whole 108-card deck of 1000-point cards left in hand, at worst
    assert dear.space().high[dear.segments["scores"]][0] >= 30 * 1000 * 108
    assert dear.space().low[dear.segments["scores"]][0] <= -30 * 1000 * 108
