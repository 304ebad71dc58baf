"""The reinforcement-learning environment's speed (docs/rl.md): the time of one step on one core.

Two loops, each picking uniformly among the legal actions by the action mask:

* ``aec``: the PettingZoo environment ``carioca_v0``, every seat a learner: ``last()`` (the
  observation and its mask) and ``step(action)`` per agent turn;
* ``single``: the Gymnasium ``SingleAgentEnv``, the other seats played by a bot (``--opponents``):
  one ``step`` is the learner's action and the bots' moves until the learner decides again.

For each it reports steps per second (CPU time) and the time of a step as p50/p90/p99, and
the share of the time spent observing (``last``) against stepping. Episodes end and reset
inside the timed loop, as in training. Nothing here is asserted: this reports, it does not test.

    python bench/bench_rl.py --preset chile --players 4 --steps 20000
    python bench/bench_rl.py --loop single --opponents greedy --players 2 --steps 5000
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from carioca.rl import SingleAgentEnv, env  # noqa: E402  (the checkout's carioca)


def _pick(rng: np.random.Generator, mask: Any) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def aec(preset: str, players: int, steps: int, seed: int) -> dict[str, Any]:
    """Random play in the AEC environment: (observe seconds, step seconds) per agent turn."""
    game = env(preset=preset, players=players)
    rng = np.random.default_rng(seed)
    observe: list[float] = []
    act: list[float] = []
    episodes = 0
    game.reset(seed=seed)
    while len(act) < steps:
        for _agent in game.agent_iter():
            t0 = time.process_time()
            obs, _reward, terminated, truncated, _info = game.last()
            t1 = time.process_time()
            game.step(None if terminated or truncated else _pick(rng, obs["action_mask"]))
            t2 = time.process_time()
            observe.append(t1 - t0)
            act.append(t2 - t1)
            if len(act) >= steps:
                break
        else:
            episodes += 1
            game.reset(seed=seed + episodes)
    return {"observe": observe, "step": act, "episodes": episodes}


def single(preset: str, players: int, steps: int, seed: int, opponents: str) -> dict[str, Any]:
    """Random play of the learner in the single-agent environment against ``opponents``."""
    game = SingleAgentEnv(preset, players, opponents=opponents)
    rng = np.random.default_rng(seed)
    act: list[float] = []
    episodes = 0
    obs, _info = game.reset(seed=seed)
    while len(act) < steps:
        t0 = time.process_time()
        obs, _reward, terminated, truncated, _info = game.step(_pick(rng, obs["action_mask"]))
        act.append(time.process_time() - t0)
        if terminated or truncated:
            episodes += 1
            obs, _info = game.reset(seed=seed + episodes)
    return {"observe": [], "step": act, "episodes": episodes}


def _ms(values: list[float], q: float) -> float:
    return float(np.quantile(values, q)) * 1000


def report(name: str, found: dict[str, Any]) -> str:
    steps = [o + s for o, s in zip(found["observe"], found["step"], strict=True)] \
        if found["observe"] else found["step"]
    total = sum(steps)
    line = (f"{name}: {len(steps):,} steps, {found['episodes']} episodes ended: "
            f"{len(steps) / total:,.0f} steps/s; a step p50 {_ms(steps, .5):.3f} ms, "
            f"p90 {_ms(steps, .9):.3f} ms, p99 {_ms(steps, .99):.3f} ms, "
            f"mean {statistics.fmean(steps) * 1000:.3f} ms")
    if found["observe"]:
        line += f"; observing {sum(found['observe']) / total:.0%} of the time"
    return line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loop", choices=("aec", "single", "both"), default="both")
    parser.add_argument("--preset", default="chile")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponents", default="random",
                        help="the bots of the single-agent loop (a bot name)")
    args = parser.parse_args(argv)
    where = f"{args.preset}, {args.players} seats"
    if args.loop in ("aec", "both"):
        print(report(f"aec ({where}, every seat random)",
                     aec(args.preset, args.players, args.steps, args.seed)))
    if args.loop in ("single", "both"):
        print(report(f"single ({where}, the others {args.opponents})",
                     single(args.preset, args.players, args.steps, args.seed, args.opponents)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
