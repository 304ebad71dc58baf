"""Random legal play of RLCard's gin rummy, as the yardstick for carioca's engine speed.

Run it with the python of the throwaway venv made by ``bench/setup_rlcard.sh``::

    bench/.venv-rlcard/bin/python bench/rlcard_gin_rummy.py --seconds 10 --seed 1

It prints one JSON object on stdout. Every ``step`` is one player action, the score moves at
the end of a hand included, since they are steps RLCard's players take.

Two levels are measured, because RLCard's public API does more than a rules engine does:

* ``env`` (default) drives ``rlcard.make('gin-rummy')`` as RLCard's own random agents do:
  each ``env.step`` also encodes the 5x52 observation and the legal-action dict;
* ``game`` drives ``env.game`` directly (``judge.get_legal_actions`` + ``game.step``), the
  rules engine alone, which is closer to what ``carioca.Game.apply`` does.

The choice among legal actions is uniform, like ``rlcard.agents.RandomAgent``, but made with
``random.Random`` (the harness does the same for carioca) so that neither side pays for
``np.random.choice`` on a short list; ``--numpy-choice`` draws with numpy as RandomAgent does.

This file must stay importable without carioca and run on RLCard's supported pythons.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

ENGINE = "rlcard-gin-rummy"


def pin_to_one_core() -> int | None:
    """Keep the process on one CPU so the figure is a one-core figure; returns that CPU."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu


def make_env(seed: int) -> Any:
    import rlcard  # imported here so that --help works outside the venv

    return rlcard.make("gin-rummy", config={"seed": seed})


def rlcard_version() -> str:
    import rlcard

    return str(rlcard.__version__)


def env_game_runner(env: Any, choose: Callable[[list[int]], int]) -> Callable[[], int]:
    """One complete game through the public env API; returns the number of steps."""

    def play() -> int:
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            state, _ = env.step(choose(list(state["legal_actions"])))
            steps += 1
        return steps

    return play


def core_game_runner(env: Any, choose: Callable[[list[Any]], Any]) -> Callable[[], int]:
    """One complete game on the rules engine alone, skipping the observation encoding."""
    game = env.game

    def play() -> int:
        game.init_game()
        steps = 0
        while not game.is_over():
            game.step(choose(game.judge.get_legal_actions()))
            steps += 1
        return steps

    return play


def make_chooser(seed: int, numpy_choice: bool) -> Callable[[list[Any]], Any]:
    if numpy_choice:
        import numpy as np

        rng = np.random.default_rng(seed)
        # What RandomAgent.step costs: a numpy draw per action instead of random.choice.
        return lambda legal: legal[rng.choice(len(legal))]
    return random.Random(seed).choice


def run(play: Callable[[], int], seconds: float, games: int | None) -> dict[str, float]:
    """Play whole games until the time or game budget is spent; a game is never cut short."""
    n_games = n_actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        n_actions += play()
        n_games += 1
        now = time.perf_counter()
        if (games is not None and n_games >= games) or (games is None and now >= deadline):
            break
    elapsed = now - start
    return {
        "games": n_games,
        "actions": n_actions,
        "seconds": round(elapsed, 4),
        "actions_per_s": round(n_actions / elapsed, 1),
        "games_per_s": round(n_games / elapsed, 3),
        "actions_per_game": round(n_actions / n_games, 1),
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--seconds", type=float, default=10.0, help="time budget (default 10)")
    p.add_argument("--games", type=int, default=None, help="play exactly this many games instead")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--level", choices=("env", "game"), default="env")
    p.add_argument(
        "--numpy-choice",
        action="store_true",
        help="draw with numpy, as rlcard's RandomAgent.step does",
    )
    p.add_argument("--warmup", type=int, default=3, help="untimed games first (default 3)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    cpu = pin_to_one_core()
    env = make_env(args.seed)
    choose = make_chooser(args.seed, args.numpy_choice)
    runner = env_game_runner if args.level == "env" else core_game_runner
    play = runner(env, choose)
    for _ in range(args.warmup):
        play()
    result: dict[str, Any] = {"engine": ENGINE, **run(play, args.seconds, args.games)}
    import rlcard

    result |= {
        "level": args.level,
        "rlcard": rlcard.__version__,
        "cpu": cpu,
        "python": sys.version.split()[0],
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
