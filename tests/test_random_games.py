"""Fuzz: 1,000 complete games of random legal play, over every preset and 2-6 seats (where the
preset allows them), finish without error and name their winners.

A third of the games play the presets unchanged. The others end each round as soon as the
mazo first runs out (``max_reshuffles=0``), which keeps them cheap, and half of those switch
buying on (``penalty_card`` / ``penalty_points``) so that out-of-turn buys are played too.
Each game is one parametrized test, named by preset, seats, seed and variant.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from carioca import Agregar, Bajar, Buy, Game, RuleSet, Swap
from carioca.rules import PRESETS

GAMES = 1000
NAMES = ("Ana", "Beto", "Caro", "Dani", "Eli", "Fran")
MAX_ACTIONS = 200_000  # far more than any game takes: a guard against a game that never ends

TABLES = [
    (name, players)
    for name in sorted(PRESETS)
    for players in range(max(2, PRESETS[name].min_players), min(6, PRESETS[name].max_players) + 1)
]
VARIANTS: dict[str, dict[str, Any]] = {
    "real": {},
    "short": {"max_reshuffles": 0},
    "short-buy-card": {"max_reshuffles": 0, "buying": "penalty_card"},
    "short-buy-points": {"max_reshuffles": 0, "buying": "penalty_points"},
}


def _cases() -> list[Any]:
    cases = []
    for i in range(GAMES):
        preset, players = TABLES[i % len(TABLES)]
        if i % 3 == 0:
            variant = "real"
        elif i % 3 == 1:
            variant = "short"
        else:
            variant = "short-buy-card" if i % 2 else "short-buy-points"
        seed = 7_000 + i
        cases.append(pytest.param(preset, players, seed, variant,
                                  id=f"{preset}-{players}p-seed{seed}-{variant}"))
    return cases


def play_random_game(rules: RuleSet, players: int, seed: int) -> tuple[Game, int]:
    """Play a whole game of seeded random legal actions; returns the game and its length."""
    game = Game.new(rules, NAMES[:players], seed=seed)
    rng = random.Random(seed ^ 0x5EED)
    actions = 0
    while not game.is_over:
        assert actions < MAX_ACTIONS, "the game does not end"
        seat = game.seat_to_act
        assert seat is not None, f"the game is not over but nobody acts (phase {game.phase})"
        action = None
        if rules.buying != "off" and rng.random() < 0.3:
            buyers = [s for s in range(players)
                      if s != seat and Buy(s) in game.legal_actions(s)]
            if buyers:
                action = Buy(rng.choice(buyers))
        if action is None:
            legal = list(game.legal_actions(seat))
            assert legal, f"seat {seat} has no legal action (phase {game.phase})"
            progress = [a for a in legal if isinstance(a, (Bajar, Agregar, Swap))]
            prefer = progress if progress and rng.random() < 0.6 else legal
            action = rng.choice(prefer)
        game.apply(action)
        actions += 1
    return game, actions


@pytest.mark.parametrize(("preset", "players", "seed", "variant"), _cases())
def test_random_game_finishes(preset: str, players: int, seed: int, variant: str) -> None:
    rules = RuleSet.preset(preset, **VARIANTS[variant])
    game, _ = play_random_game(rules, players, seed)
    assert game.is_over
    assert game.seat_to_act is None
    sheet = game.score_sheet()
    assert sheet.finished
    assert sheet.winners, "the game is over but nobody won"
    assert set(sheet.winners) <= set(range(players))
    assert len(sheet.rounds) >= len(rules.rounds)
    assert all(r is not None for r in sheet.rounds)
    totals = [sum(r.scores[s] for r in sheet.rounds if r is not None) for s in range(players)]
    assert list(sheet.totals) == totals
    best = max(totals) if rules.scoring == "rounds" else min(totals)
    assert all(totals[w] == best for w in sheet.winners) or rules.tie_break == "most_outs"
    if seed % 10 == 0:
        copy = Game.from_record(json.loads(json.dumps(game.to_record())))
        assert copy.score_sheet() == sheet
