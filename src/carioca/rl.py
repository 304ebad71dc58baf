"""Reinforcement learning: a PettingZoo AEC environment (``carioca_v0``) for any preset, and a
Gymnasium single-agent wrapper that seats bots in the other chairs.

The environment drives a :class:`~carioca.engine.Game` through its public API only
(``legal_actions``, ``apply``, ``view``, ``score_sheet``): an observation is made from
``game.view(seat)`` and nothing else, and the action mask is exactly that seat's legal actions
mapped into one fixed discrete space. The spaces, the observation segments and the rewards are
documented in ``docs/rl.md``.

>>> from carioca.rl import env
>>> e = env("chico", players=3)
>>> e.reset(seed=7)
>>> e.agent_selection
'player_1'
>>> obs, reward, terminated, truncated, info = e.last()
>>> [e.unwrapped.describe_action(int(i)) for i in obs["action_mask"].nonzero()[0]]
['draw mazo', 'draw pozo']
>>> e.step(0)
>>> e.unwrapped.phase_of("player_1")
'play'

Needs the ``rl`` extra (``pip install 'carioca[rl]'``: numpy, gymnasium, pettingzoo).
"""

from __future__ import annotations

import importlib
import operator
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal, TypeAlias

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from . import bots as bots_mod
from .actions import Action, Agregar, Bajar, Buy, Discard, Draw, Swap
from .bots import Bot, Buyer
from .cards import ALL_CARDS, deck
from .engine import Game, View
from .melds import Meld
from .rules import Contract, RuleSet

__all__ = [
    "ENV_NAME",
    "CARDS",
    "ActionLayout",
    "Observer",
    "Role",
    "raw_env",
    "env",
    "SingleAgentEnv",
    "Opponent",
    "make_opponent",
    "REDEALS",
    "redeal_seed",
    "action_index",
]

ENV_NAME: Final = "carioca_v0"
CARDS: Final = 53
"""Distinct cards, by code: 0-51 the suited cards (picas, corazones, diamantes, tréboles, each
ace to king), 52 the joker (see :data:`carioca.cards.ALL_CARDS`)."""

MELD_KINDS: Final = ("trio", "escala", "sucia", "real", "colores")
SUIT_LETTERS: Final = "SHDC"
ROLES: Final = ("draw", "play", "buy", "wait", "over")
REDEALS: Final = 10
"""How many times :meth:`SingleAgentEnv.reset` deals again a game the bots finish before the
learner's first decision."""

Role = Literal["draw", "play", "buy", "wait", "over"]
"""What an agent is asked now: draw, play (after drawing), buy or pass, nothing (``wait``), or
nothing ever again (``over``)."""

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]
ObsDict = dict[str, npt.NDArray[Any]]

_SCORE_BOUND: Final = 1_000_000.0
_MAX_MELDS_PER_SEAT: Final = 4
"""A contract never asks for more than four melds: five would need at least 15 cards, and a
hand never holds more than 14 (``RuleSet`` refuses such rules)."""
_BAJAR_SLOTS: Final = 16
"""Bajar options offered for each alternative of a contract: up to 12 were seen for one
contract in every preset, and 23 for a partial one (``rumi``), where the rest are left out."""


# --------------------------------------------------------------------------- the action space

@dataclass(frozen=True, slots=True)
class ActionLayout:
    """The fixed discrete action space: index ranges, from an action to its index and back.

    ``agregar`` and ``swap`` indexes are ``base + (slot * 53 + card) * 2 + end``, where ``end``
    is 0 for the low end of an escala and 1 for its high end or for a meld without ends (a
    trío, or a swap that does not move the wild card).

    >>> layout = ActionLayout(bajar_slots=16, meld_slots=16)
    >>> layout.size
    3465
    >>> layout.describe(layout.agregar_index(meld=2, card=5, end="high"))
    'agregar 6S on meld 2 high'
    """

    bajar_slots: int = 16
    meld_slots: int = 16

    DRAW_MAZO: ClassVar[int] = 0
    DRAW_POZO: ClassVar[int] = 1
    DISCARD: ClassVar[int] = 2

    @property
    def bajar(self) -> int:
        return self.DISCARD + CARDS

    @property
    def agregar(self) -> int:
        return self.bajar + self.bajar_slots

    @property
    def swap(self) -> int:
        return self.agregar + self.meld_slots * CARDS * 2

    @property
    def buy(self) -> int:
        return self.swap + self.meld_slots * CARDS * 2

    @property
    def pass_(self) -> int:
        return self.buy + 1

    @property
    def size(self) -> int:
        return self.pass_ + 1

    def ranges(self) -> dict[str, range]:
        """Each kind of action and its indexes."""
        return {
            "draw mazo": range(self.DRAW_MAZO, self.DRAW_MAZO + 1),
            "draw pozo": range(self.DRAW_POZO, self.DRAW_POZO + 1),
            "discard": range(self.DISCARD, self.bajar),
            "bajar": range(self.bajar, self.agregar),
            "agregar": range(self.agregar, self.swap),
            "swap": range(self.swap, self.buy),
            "buy": range(self.buy, self.buy + 1),
            "pass": range(self.pass_, self.pass_ + 1),
        }

    def agregar_index(self, meld: int, card: int, end: str | None) -> int:
        return self.agregar + self._placed(meld, card, end)

    def swap_index(self, meld: int, card: int, end: str | None) -> int:
        return self.swap + self._placed(meld, card, end)

    def _placed(self, meld: int, card: int, end: str | None) -> int:
        if not 0 <= meld < self.meld_slots:
            raise ValueError(f"meld {meld} is beyond the {self.meld_slots} meld slots")
        return (meld * CARDS + card) * 2 + (0 if end == "low" else 1)

    def index_of(self, action: Action, bajar_rank: int | None = None) -> int | None:
        """The index of an engine action (``None`` when it has none: a meld beyond the slots, or
        a bajar whose rank among the current options is beyond ``bajar_slots``). A bajar's index
        depends on the options of the moment: give its ``bajar_rank``."""
        if isinstance(action, Draw):
            return self.DRAW_MAZO if action.source == "mazo" else self.DRAW_POZO
        if isinstance(action, Discard):
            return self.DISCARD + int(action.card)
        if isinstance(action, (Agregar, Swap)):
            if action.meld >= self.meld_slots:
                return None
            base = self.agregar if isinstance(action, Agregar) else self.swap
            return base + self._placed(action.meld, int(action.card), action.end)
        if isinstance(action, Bajar):
            if bajar_rank is None or bajar_rank >= self.bajar_slots:
                return None
            return self.bajar + bajar_rank
        if isinstance(action, Buy):
            return self.buy
        return None

    def describe(self, index: int) -> str:
        """The action at ``index`` in words (``discard 7H``, ``agregar JK on meld 3 low``)."""
        if not 0 <= index < self.size:
            raise ValueError(f"{index} is not an action index (0 to {self.size - 1})")
        if index == self.DRAW_MAZO:
            return "draw mazo"
        if index == self.DRAW_POZO:
            return "draw pozo"
        if index < self.bajar:
            return f"discard {ALL_CARDS[index - self.DISCARD]}"
        if index < self.agregar:
            rank = index - self.bajar
            return "bajar option 0 (least penalty left)" if rank == 0 else f"bajar option {rank}"
        if index < self.buy:
            kind, base = ("agregar", self.agregar) if index < self.swap else ("swap", self.swap)
            rest = index - base
            slot, card, end = rest // (CARDS * 2), (rest // 2) % CARDS, rest % 2
            where = "low" if end == 0 else "high"
            return f"{kind} {ALL_CARDS[card]} on meld {slot} {where}"
        return "buy" if index == self.buy else "pass"


def bajar_order(options: Sequence[Bajar], rules: RuleSet) -> list[Bajar]:
    """Bajar options in the environment's order: most penalty points laid down first (so the
    least left in hand), then most cards, then by their text form."""

    def key(action: Bajar) -> tuple[int, int, str]:
        cards = action.cards
        return (-sum(rules.value(c) for c in cards), -len(cards), str(action))

    return sorted(options, key=key)


# --------------------------------------------------------------------------- observations

class Observer:
    """Writes a seat's view as one flat float vector of named segments (see ``docs/rl.md``).

    Seats are relative: in every per-seat segment the observing seat comes first, then the
    others in turn order. Only :class:`~carioca.engine.View` fields are read.
    """

    def __init__(self, rules: RuleSet, players: int, meld_slots: int) -> None:
        self.rules = rules
        self.players = players
        self.meld_slots = meld_slots
        packs, jokers = rules.deck_for(players)
        self.deck_cards = deck(packs, jokers)
        copies = np.zeros(CARDS, dtype=np.float32)
        for card in self.deck_cards:
            copies[card] += 1
        self.copies = copies
        total = float(len(self.deck_cards))
        n = players
        rounds = len(rules.rounds) + (
            rules.extra_rounds_cap if rules.tie_break == "extra_round" else 0)
        self.round_slots = rounds
        self.meld_width = 1 + len(MELD_KINDS) + n + 4 + len(SUIT_LETTERS) + 2 + 2
        # ±1,000,000, or more where the rules let a score grow past it (a whole deck of
        # 1000-point cards in hand, every round): the space holds every value.
        dearest = max(v for _, v in rules.values)
        per_round = (max(abs(rules.out_score), abs(rules.out_points(instant=True)),
                         dearest * total) + rules.steal_points * rules.max_buys_per_round)
        score_high = max(_SCORE_BOUND, rounds * per_round)
        score_low = -score_high
        parts: list[tuple[str, int, float | npt.NDArray[np.float32], float | FloatArray]] = [
            ("hand", CARDS, 0.0, copies),
            ("pozo_top", CARDS, 0.0, 1.0),
            ("pozo", CARDS, 0.0, copies),
            ("table", CARDS, 0.0, copies),
            ("unseen", CARDS, 0.0, copies),
            ("known", (n - 1) * CARDS, 0.0, np.tile(copies, n - 1)),
        ]
        if rules.open_hands:
            parts.append(("open_hands", (n - 1) * CARDS, 0.0, np.tile(copies, n - 1)))
        parts += [
            ("hand_sizes", n, 0.0, total),
            ("down", n, 0.0, 1.0),
            ("owed", n * len(MELD_KINDS), 0.0, 4.0),
            ("buys", n, 0.0, float(rules.max_buys_per_round)),
            ("steals", n, 0.0, float(rules.max_buys_per_round)),
            ("to_act", n, 0.0, 1.0),
            ("last_discarder", n, 0.0, 1.0),
            ("dealer", n, 0.0, 1.0),
            ("scores", n, score_low, score_high),
            ("round", rounds, 0.0, 1.0),
            ("contract", len(MELD_KINDS) + 4, 0.0, 14.0),
            ("role", len(ROLES), 0.0, 1.0),
            ("flags", 2, 0.0, 1.0),
            ("counts", 4, 0.0, max(total, float(rules.max_turns_per_round))),
            ("melds", meld_slots * self.meld_width, 0.0, total),
        ]
        self.segments: dict[str, slice] = {}
        lows: list[FloatArray] = []
        highs: list[FloatArray] = []
        at = 0
        for name, size, low, high in parts:
            self.segments[name] = slice(at, at + size)
            lows.append(np.broadcast_to(np.asarray(low, dtype=np.float32), (size,)).copy())
            highs.append(np.broadcast_to(np.asarray(high, dtype=np.float32), (size,)).copy())
            at += size
        self.size = at
        self.low: FloatArray = np.concatenate(lows)
        self.high: FloatArray = np.concatenate(highs)
        self._owed_cache: dict[str, tuple[int, ...]] = {"": (0,) * len(MELD_KINDS)}
        self._contract_cache: dict[str, tuple[float, ...]] = {}

    def space(self) -> spaces.Box:
        return spaces.Box(self.low, self.high, dtype=np.float32)

    def encode(self, view: View, role: Role) -> FloatArray:
        """The observation of ``view.seat`` (which must be a seat, not a spectator)."""
        if view.seat is None or view.hand is None:
            raise ValueError("an observation is made from a seat's view, not a spectator's")
        n = self.players
        me = view.seat
        order = [(me + k) % n for k in range(n)]
        rel = {seat: k for k, seat in enumerate(order)}
        out = np.zeros(self.size, dtype=np.float32)
        seg = self.segments

        def put_cards(name: str, cards: Sequence[int], offset: int = 0) -> None:
            start = seg[name].start + offset
            for c in cards:
                out[start + c] += 1.0

        put_cards("hand", view.hand)
        if view.pozo:
            out[seg["pozo_top"].start + view.pozo[-1]] = 1.0
        put_cards("pozo", view.pozo)
        table = [c for m in view.melds for c in m.cards]
        put_cards("table", table)
        seen = np.zeros(CARDS, dtype=np.float32)
        for cards in (view.hand, view.pozo, table):
            for c in cards:
                seen[c] += 1.0
        for k, seat in enumerate(order[1:]):
            known = view.known[seat] if view.known else ()
            if view.open_hands is not None:
                put_cards("open_hands", view.open_hands[seat], k * CARDS)
                cards_seen: Sequence[int] = view.open_hands[seat]
            else:
                cards_seen = known
            put_cards("known", known, k * CARDS)
            for code in cards_seen:
                seen[code] += 1.0
        out[seg["unseen"]] = np.maximum(self.copies - seen, 0.0)
        for seat in range(n):
            k = rel[seat]
            out[seg["hand_sizes"].start + k] = view.hand_counts[seat]
            out[seg["down"].start + k] = float(view.down[seat])
            out[seg["buys"].start + k] = view.buys[seat]
            if view.steals:
                out[seg["steals"].start + k] = view.steals[seat]
            out[seg["scores"].start + k] = view.sheet.totals[seat]
            if view.owed:
                counts = self._owed(view.owed[seat])
                base = seg["owed"].start + k * len(MELD_KINDS)
                out[base:base + len(MELD_KINDS)] = counts
        if view.to_act is not None:
            out[seg["to_act"].start + rel[view.to_act]] = 1.0
        if view.last_discarder is not None:
            out[seg["last_discarder"].start + rel[view.last_discarder]] = 1.0
        out[seg["dealer"].start + rel[view.dealer]] = 1.0
        out[seg["round"].start + min(view.round, self.round_slots) - 1] = 1.0
        contract = seg["contract"]
        out[contract] = self._contract(view)
        out[seg["role"].start + ROLES.index(role)] = 1.0
        flags = seg["flags"].start
        out[flags] = float(view.buy_window)
        out[flags + 1] = float(view.laid_this_turn)
        counts_at = seg["counts"].start
        out[counts_at:counts_at + 4] = (view.mazo_count, len(view.pozo), view.turn,
                                        view.reshuffles)
        melds_at = seg["melds"].start
        for i, meld in enumerate(view.melds[:self.meld_slots]):
            self._meld(out, melds_at + i * self.meld_width, meld, rel)
        return out

    def _owed(self, alternatives: Sequence[str]) -> tuple[int, ...]:
        if any(not a for a in alternatives) or not alternatives:
            return self._owed_cache[""]
        text = alternatives[0]
        found = self._owed_cache.get(text)
        if found is None:
            specs = Contract.parse(text).melds
            found = tuple(sum(1 for s in specs if s.kind == kind) for kind in MELD_KINDS)
            self._owed_cache[text] = found
        return found

    def _contract(self, view: View) -> tuple[float, ...]:
        key = f"{view.contract}/{view.hand_size}/{view.go_out_at_once}"
        found = self._contract_cache.get(key)
        if found is None:
            alternatives = [a.strip() for a in view.contract.split("|")]
            specs = Contract.parse(alternatives[0]).melds
            kinds = [float(sum(1 for s in specs if s.kind == kind)) for kind in MELD_KINDS]
            escala = max((s.min_len for s in specs if s.kind == "escala"), default=0)
            found = (*kinds, float(escala), float(len(alternatives)),
                     float(view.go_out_at_once), float(view.hand_size))
            self._contract_cache[key] = found
        return found

    def _meld(self, out: FloatArray, at: int, meld: Meld, rel: Mapping[int, int]) -> None:
        out[at] = 1.0
        out[at + 1 + MELD_KINDS.index(meld.kind)] = 1.0
        at += 1 + len(MELD_KINDS)
        if meld.owner in rel:
            out[at + rel[meld.owner]] = 1.0
        at += self.players
        out[at:at + 4] = (len(meld.cards), meld.wild_count, meld.rank, meld.start)
        at += 4
        if meld.suit in SUIT_LETTERS and meld.suit:
            out[at + SUIT_LETTERS.index(meld.suit)] = 1.0
        at += len(SUIT_LETTERS)
        if meld.kind == "colores":
            out[at + (0 if meld.suit == "R" else 1)] = 1.0
        at += 2
        ends = meld.open_ends(self.rules)
        out[at] = float("low" in ends)
        out[at + 1] = float("high" in ends)


# --------------------------------------------------------------------------- the AEC env

def _rules_of(preset: str | RuleSet, options: Mapping[str, Any] | None) -> RuleSet:
    if isinstance(preset, RuleSet):
        return preset.with_options(**dict(options)) if options else preset
    return RuleSet.preset(preset, **dict(options or {}))


class raw_env(AECEnv):  # type: ignore[misc]
    """The PettingZoo AEC environment ``carioca_v0``: one agent per seat (``player_0`` ...).

    ``preset`` is a preset name or a :class:`~carioca.rules.RuleSet`; ``options`` change any
    rule (``{"buying": "penalty_card"}``). The rules are fixed when the environment is made, so
    ``reset(options=...)`` ignores its options. A round's scores are paid at its end as rewards:
    minus the score under points scoring, plus it under ``rounds`` scoring (an out is +1), times
    ``reward_scale``. ``meld_slots`` (default: 16, or 4 per seat with more than 4 seats) is how
    many table melds agregar and swap can name; ``bajar_slots`` how many bajar options the
    space offers at once (default: 16 for each alternative of the contract that has most).
    """

    metadata: dict[str, Any] = {
        "render_modes": ["ansi"],
        "name": ENV_NAME,
        "is_parallelizable": False,
    }

    def __init__(self, preset: str | RuleSet = "chile", players: int = 4,
                 options: Mapping[str, Any] | None = None, render_mode: str | None = None,
                 *, reward_scale: float = 1.0, meld_slots: int | None = None,
                 bajar_slots: int | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']} or None, "
                             f"not {render_mode!r}")
        for name, value in (("players", players), ("meld_slots", meld_slots),
                            ("bajar_slots", bajar_slots)):
            if value is not None and (isinstance(value, bool)
                                      or not isinstance(value, (int, np.integer))):
                raise ValueError(f"{name} is a whole number, not {value!r}")
        players = int(players)
        if options is not None and not isinstance(options, Mapping):
            raise ValueError(f"options is a mapping of option names to values, not {options!r}")
        self.rules = _rules_of(preset, options)
        self.rules.check_players(players)
        self.n = players
        self.render_mode = render_mode
        self.reward_scale = float(reward_scale)
        slots = meld_slots if meld_slots is not None else max(16, _MAX_MELDS_PER_SEAT * players)
        if bajar_slots is None:
            # A contract with alternatives ("1T+1E|2E") offers the options of each of them.
            bajar_slots = _BAJAR_SLOTS * max(len(r.contracts) for r in self.rules.rounds)
        if slots < 1 or bajar_slots < 1:
            raise ValueError("meld_slots and bajar_slots must be at least 1")
        self.layout = ActionLayout(bajar_slots=bajar_slots, meld_slots=slots)
        self.observer = Observer(self.rules, players, slots)
        self.possible_agents: list[str] = [f"player_{i}" for i in range(players)]
        self.agents: list[str] = []
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": self.observer.space(),
            "action_mask": spaces.Box(0, 1, (self.layout.size,), dtype=np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(self.layout.size) for a in self.possible_agents}
        self._sign = 1.0 if self.rules.scoring == "rounds" else -1.0
        self._rng: np.random.Generator | None = None
        self.game: Game | None = None
        self.agent_selection: str = self.possible_agents[0]
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self._window: list[int] = []
        # A draw from the mazo held while the others may buy, with the round it belongs to.
        self._deferred: tuple[int, Draw] | None = None
        self._rounds_paid = 0
        self._steps = 0
        self._cache: tuple[Game, int, dict[int, Action | None]] | None = None

    # ----------------------------------------------------------------- spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def segments(self) -> dict[str, slice]:
        """The named segments of the observation vector."""
        return dict(self.observer.segments)

    def describe_action(self, index: int) -> str:
        return self.layout.describe(index)

    # ----------------------------------------------------------------- reset

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game. With ``seed`` the game is ``Game.new(rules, names, seed=seed)``;
        without, the seed is drawn from the environment's generator."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            if self._rng is None:
                self._rng = np.random.default_rng()
            game_seed = int(self._rng.integers(2**32))
        self.game = Game.new(self.rules, self.possible_agents, seed=game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._window = []
        self._deferred = None
        self._rounds_paid = 0
        self._steps = 0
        self._cache = None
        self._select()

    # ----------------------------------------------------------------- questions

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def seat_of(self, agent: str) -> int:
        return self._seat_of[agent]

    def phase_of(self, agent: str) -> Role:
        """What ``agent`` is asked now (``wait`` when it is not its decision)."""
        game = self._game()
        if game.is_over:
            return "over"
        if agent != self.agent_selection or self.terminations.get(agent, False):
            return "wait"
        seat = self._seat_of[agent]
        if self._window and self._window[0] == seat:
            return "buy"
        return "draw" if game.phase == "draw" else "play"

    def legal_map(self, agent: str | None = None) -> dict[int, Action | None]:
        """The selected agent's legal actions by index (``None`` stands for pass); empty for
        any other agent. The mask is exactly its keys."""
        agent = self.agent_selection if agent is None else agent
        game = self._game()
        if agent != self.agent_selection or game.is_over or self.terminations.get(agent):
            return {}
        cache = self._cache
        if cache is not None and cache[0] is game and cache[1] == self._steps:
            return cache[2]
        table = self._legal_map(game, self._seat_of[agent], self.phase_of(agent))
        if not table:
            raise RuntimeError(f"{agent} has legal actions but none has an index: make the "
                               "env with more meld_slots or bajar_slots")
        self._cache = (game, self._steps, table)
        return table

    def _legal_map(self, game: Game, seat: int, role: Role) -> dict[int, Action | None]:
        layout = self.layout
        table: dict[int, Action | None] = {}
        legal = game.legal_actions(seat)
        if role == "buy":
            if Buy(seat) in legal:
                table[layout.buy] = Buy(seat)
            table[layout.pass_] = None
            return table
        bajars: list[Bajar] = []
        for action in legal:
            if isinstance(action, Bajar):
                bajars.append(action)
                continue
            if isinstance(action, Buy):
                continue
            index = layout.index_of(action)
            if index is None:
                continue
            if index in table:
                raise RuntimeError(f"two legal actions share index {index}: "
                                   f"{table[index]} and {action}")
            table[index] = action
        for rank, action in enumerate(bajar_order(bajars, self.rules)[:layout.bajar_slots]):
            table[layout.bajar + rank] = action
        return table

    def action_mask(self, agent: str) -> MaskArray:
        mask = np.zeros(self.layout.size, dtype=np.int8)
        for index in self.legal_map(agent):
            mask[index] = 1
        return mask

    def observe(self, agent: str) -> ObsDict:
        game = self._game()
        view = game.view(self._seat_of[agent])
        return {
            "observation": self.observer.encode(view, self.phase_of(agent)),
            "action_mask": self.action_mask(agent),
        }

    # ----------------------------------------------------------------- stepping

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        if not self.agents:
            raise ValueError("the game is over: reset() to play another" if self.game
                             else "no game yet: call reset() first")
        if action is None:
            raise ValueError(f"{agent} is not done: give an action index, not None")
        index = action_index(action)
        table = self.legal_map(agent)
        if index not in table:
            raise ValueError(f"{agent} may not {self.layout.describe(index)!r} now (index "
                             f"{index} is not in the action mask)")
        self._play(table[index])

    def step_engine(self, action: Action | None) -> None:
        """Play an engine action for the selected agent (``None``: pass in a buy window).
        For bots and demonstrations: any legal action is accepted, including bajar options
        beyond ``bajar_slots``; anything else raises ``ValueError`` (``IllegalAction`` when the
        rules forbid it) and changes nothing."""
        game = self._game()
        agent = self.agent_selection
        seat = self._seat_of[agent]
        role = self.phase_of(agent)
        if role in ("wait", "over"):
            raise ValueError(f"{agent} has nothing to decide now")
        if action is not None and not isinstance(action, Action):
            raise ValueError(f"step_engine takes an engine action (carioca.actions) or None, "
                             f"not {action!r}; step() takes an index")
        if role == "buy":
            if action is not None and not isinstance(action, Buy):
                raise ValueError(f"{agent} may only buy or pass (None) now, not {action}")
        elif action is None:
            raise ValueError(f"only a seat offered the pozo card may pass; {agent} must "
                             "play an action")
        if action is not None:
            if action.seat != seat:
                raise ValueError(f"{action} is seat {action.seat}'s, but {agent} is to act")
            game.verify(action)
        self._play(action)

    def _play(self, action: Action | None) -> None:
        """Make a legal action (or pass) of the selected agent, and move on."""
        game = self._game()
        agent = self.agent_selection
        seat = self._seat_of[agent]
        role = self.phase_of(agent)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if role == "buy":
            if action is None:
                self._window.pop(0)
            else:
                game.apply(action)
                self._window.clear()
        else:
            assert action is not None
            waits = (isinstance(action, Draw) and action.source == "mazo"
                     and self.rules.buying != "off")
            buyers = self._buyers(seat) if waits else []
            if isinstance(action, Draw) and buyers:  # the draw waits: the others may buy
                self._deferred = (len(game.results), action)
                self._window = buyers
            else:
                game.apply(action)
        self._steps += 1
        self._select()
        self._pay_rounds()
        self._accumulate_rewards()

    def _buyers(self, drawer: int) -> list[int]:
        """The seats that may buy the pozo top before ``drawer`` draws, nearest first."""
        seats = [(drawer + k) % self.n for k in range(1, self.n)]
        return [s for s in seats if self._can_buy(s)]

    def _can_buy(self, seat: int) -> bool:
        return Buy(seat) in self._game().legal_actions(seat)

    def _select(self) -> None:
        """Choose who decides next: the next seat of an open buy window, else the engine's."""
        game = self._game()
        while self._window and not self._can_buy(self._window[0]):
            self._window.pop(0)
        if not self._window and self._deferred is not None:
            (rounds_done, draw), self._deferred = self._deferred, None
            # A buy may leave an empty mazo the pozo cannot rebuild and end the round: the
            # draw ends with it.
            if rounds_done == len(game.results) and game.can_apply(draw):
                game.apply(draw)
        seat = self._window[0] if self._window else game.seat_to_act
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def _pay_rounds(self) -> None:
        game = self._game()
        sheet = game.score_sheet()
        done = [r for r in sheet.rounds if r is not None]
        for result in done[self._rounds_paid:]:
            for seat, score in enumerate(result.scores):
                agent = self.possible_agents[seat]
                self.rewards[agent] += self._sign * score * self.reward_scale
        self._rounds_paid = len(done)
        if game.is_over:
            for agent in self.agents:
                self.terminations[agent] = True
                self.infos[agent] = {"totals": list(sheet.totals),
                                     "winners": [self.possible_agents[w] for w in sheet.winners]}

    # ----------------------------------------------------------------- render

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: make the env with "
                                  "render_mode='ansi'")
            return None
        game = self._game()
        seat = None if game.is_over else self._seat_of.get(self.agent_selection)
        return render_text(game.view(None), self.rules, self.possible_agents,
                           game.view(seat) if seat is not None else None,
                           self.phase_of(self.agent_selection))

    def close(self) -> None:
        pass


def render_text(public: View, rules: RuleSet, names: Sequence[str], acting: View | None = None,
                role: str = "") -> str:
    """A text table of the public view (and the hand of the seat deciding, if given)."""
    lines = [f"{ENV_NAME} · {rules.preset_name} · round {public.round}/{public.rounds}: "
             f"{public.contract} ({public.contract_words})"
             + (" · go out at once" if public.go_out_at_once else "")
             + f" · turn {public.turn}"]
    lines.append(f"{'seat':<10} {'hand':>4} {'down':>4} {'buys':>4} {'total':>6}  known")
    for seat, name in enumerate(names):
        mark = "*" if public.to_act == seat else " "
        known = " ".join(str(c) for c in public.known[seat]) if public.known else ""
        lines.append(f"{name:<9}{mark} {public.hand_counts[seat]:>4} "
                     f"{'yes' if public.down[seat] else '-':>4} {public.buys[seat]:>4} "
                     f"{public.sheet.totals[seat]:>6}  {known}")
    for i, meld in enumerate(public.melds):
        owner = names[meld.owner] if 0 <= meld.owner < len(names) else "?"
        lines.append(f"meld {i:>2} ({owner}): {meld.describe()}")
    top = public.pozo_top
    lines.append(f"pozo: {top if top is not None else '-'} ({len(public.pozo)} cards) · "
                 f"mazo: {public.mazo_count} cards")
    if public.phase == "over":
        winners = ", ".join(names[w] for w in public.sheet.winners)
        lines.append(f"game over · totals {list(public.sheet.totals)} · winners: {winners}")
    elif acting is not None and acting.seat is not None and acting.hand is not None:
        hand = " ".join(str(c) for c in acting.hand)
        lines.append(f"{names[acting.seat]} to {role}: {hand}")
    return "\n".join(lines) + "\n"


def env(preset: str | RuleSet = "chile", players: int = 4,
        options: Mapping[str, Any] | None = None, render_mode: str | None = None,
        **kwargs: Any) -> Any:
    """``raw_env`` with PettingZoo's order and bounds checks: an index outside the action
    space fails PettingZoo's bounds check (``AssertionError``), one inside it but outside the
    mask raises ``ValueError``; neither ends the game."""
    wrapped = raw_env(preset, players, options, render_mode, **kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


# --------------------------------------------------------------------------- single agent

Opponent: TypeAlias = str | Bot | type | Callable[[int, int], Bot]
"""A bot by name (``"random"``, or any name ``carioca.bots`` knows), a bot class, a bot (one
instance for every other chair), or a factory ``(seat, seed) -> Bot``."""


def make_opponent(spec: Opponent, seat: int, seed: int, rules: RuleSet | None = None) -> Bot:
    """A bot for ``seat`` from an :data:`Opponent`, seeded with ``seed`` where it takes one.

    A name goes to the bot registry (``carioca.bots.levels.make_bot``: ``"greedy"``,
    ``"search@100"``, the table's personalities) when it is installed, and otherwise to the bot
    classes :mod:`carioca.bots` exports, by their ``name``."""
    if isinstance(spec, str):
        registry = _bot_registry()
        if registry is not None:
            made = registry(spec, seed=seed, rules=rules)
            if isinstance(made, Bot):
                return made
            raise TypeError(f"the bot registry made {made!r} for {spec!r}, which is not a bot")
        for name in getattr(bots_mod, "__all__", ()):
            cls = getattr(bots_mod, name, None)
            if isinstance(cls, type) and getattr(cls, "name", None) == spec:
                return make_opponent(cls, seat, seed, rules)
        names = sorted({getattr(getattr(bots_mod, n, None), "name", "")
                        for n in getattr(bots_mod, "__all__", ())} - {""})
        raise ValueError(f"no bot is named {spec!r}; the bots are: {', '.join(names)}")
    if isinstance(spec, type):
        try:
            made = spec(seed=seed)
        except TypeError:
            made = spec()
        if not isinstance(made, Bot):
            raise TypeError(f"{spec.__name__} is not a bot class")
        return made
    if isinstance(spec, Bot):
        return spec
    if callable(spec):
        return spec(seat, seed)
    raise TypeError(f"{spec!r} is not a bot, a bot's name or a bot factory")


def _bot_registry() -> Callable[..., Any] | None:
    try:
        levels = importlib.import_module(".bots.levels", __package__)
    except ImportError:
        return None
    found = getattr(levels, "make_bot", None)
    return found if callable(found) else None


def redeal_seed(seed: int, redealt: int) -> int:
    """The seed of the ``redealt``-th deal again of a reset with ``seed`` (0: ``seed``
    itself): drawn from both, so that it is not the seed of another episode (``seed + 1``
    would replay the next one of an evaluation over ``range(n)``)."""
    if not redealt:
        return seed
    return random.Random(f"carioca-redeal:{seed}:{redealt}").getrandbits(32)


def action_index(action: object) -> int:
    """An action given as an index: an int, a numpy integer or a 0-d integer array; anything
    else (a float, a string, a bool, None) is refused, never rounded or parsed."""
    try:
        if isinstance(action, bool):
            raise TypeError
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"an action is a whole-number index, not {action!r}") from None


class SingleAgentEnv(gymnasium.Env[ObsDict, np.int64]):
    """One learner in ``seat``; bots in the other chairs. Observations and actions are those
    of ``carioca_v0``; a step plays the learner's action, then the bots until the learner
    decides again or the game ends. The reward of a step is what the learner earned in it.

    An index outside the mask: ``illegal="penalize"`` (default) changes nothing and pays
    ``illegal_penalty``, and ``max_illegal`` such steps in a row truncate the episode;
    ``"random"`` plays a random legal action instead; ``"raise"`` raises ``ValueError``.
    Something that is not an index at all (a float, a string, None) always raises it.

    What the learner earns while the bots play before its first decision (a round they end
    first) comes with the reward of its first step. A deal the bots finish before the learner
    decides at all (a one-round game gone out on the first turn) leaves it nothing to learn:
    ``reset`` deals again from a seed drawn from the first (:func:`redeal_seed`), up to
    :data:`REDEALS` times, and says how many times in ``info["redealt"]``.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(self, preset: str | RuleSet = "chile", players: int = 4, seat: int = 0,
                 opponents: Opponent | Sequence[Opponent] = "random", *,
                 options: Mapping[str, Any] | None = None, render_mode: str | None = None,
                 reward_scale: float = 1.0,
                 illegal: Literal["penalize", "random", "raise"] = "penalize",
                 illegal_penalty: float = -1.0, max_illegal: int = 100,
                 meld_slots: int | None = None, bajar_slots: int | None = None) -> None:
        super().__init__()
        self.aec = raw_env(preset, players, options, render_mode, reward_scale=reward_scale,
                           meld_slots=meld_slots, bajar_slots=bajar_slots)
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
            raise ValueError(f"seat is a whole number, not {seat!r}")
        seat = int(seat)
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not at a table of {players}")
        if illegal not in ("penalize", "random", "raise"):
            raise ValueError(f"illegal is 'penalize', 'random' or 'raise', not {illegal!r}")
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        self.render_mode = render_mode
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.max_illegal = max_illegal
        others = [s for s in range(players) if s != seat]
        if isinstance(opponents, Sequence) and not isinstance(opponents, str):
            if len(opponents) != len(others):
                raise ValueError(f"give {len(others)} opponents (one per other seat), "
                                 f"not {len(opponents)}")
            self._specs: dict[int, Opponent] = dict(zip(others, opponents, strict=True))
        else:
            self._specs = dict.fromkeys(others, opponents)
        for s, spec in self._specs.items():  # a bad name fails now, not at the first reset
            if isinstance(spec, str):
                make_opponent(spec, s, 0, self.aec.rules)
        self.bots: dict[int, Bot] = {}
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self._illegal_streak = 0
        self._pending = 0.0

    @property
    def game(self) -> Game:
        return self.aec._game()

    # The AEC environment's maps, so that docs/rl.md's helpers work on either environment.

    @property
    def segments(self) -> dict[str, slice]:
        """Each observation segment's slice (:attr:`raw_env.segments`)."""
        return self.aec.segments

    @property
    def layout(self) -> ActionLayout:
        """The action indices (:attr:`raw_env.layout`)."""
        return self.aec.layout

    def legal_map(self, agent: str | None = None) -> dict[int, Action | None]:
        """The learner's legal actions by index (:meth:`raw_env.legal_map`)."""
        return self.aec.legal_map(agent or self.agent)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**32))
        info: dict[str, Any] = {}
        for redealt in range(REDEALS + 1):
            seed_now = redeal_seed(game_seed, redealt)
            self.aec.reset(seed=seed_now)
            rules = self.aec.rules
            self.bots = {s: make_opponent(spec, s, random.Random(
                f"{seed_now}:{s}").getrandbits(32), rules)
                for s, spec in self._specs.items()}
            self._illegal_streak = 0
            self._pending = self._play_bots()
            if not self.game.is_over:
                break
        else:
            raise RuntimeError(f"the bots finished {REDEALS + 1} deals in a row before seat "
                               f"{self.seat} had a decision: these rules leave it none")
        if redealt:
            info["redealt"] = redealt
        return self.aec.observe(self.agent), info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's mask as booleans (for sb3-contrib's MaskablePPO)."""
        return self.aec.action_mask(self.agent).astype(bool)

    def step(self, action: np.int64 | int) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        aec = self.aec
        if aec.game is None:
            raise RuntimeError("no game yet: call reset() first")
        if aec.game.is_over:
            raise RuntimeError("the game is over: call reset()")
        index = action_index(action)
        table = aec.legal_map(self.agent)
        info: dict[str, Any] = {}
        if index not in table and self.illegal == "raise":
            raise ValueError(f"{aec.describe_action(index)!r} (index {index}) is not legal now")
        # What the learner earned before its first decision (see the class) is paid now.
        reward, self._pending = self._pending, 0.0
        if index not in table:
            info["illegal_action"] = True
            if self.illegal == "penalize":
                self._illegal_streak += 1
                truncated = self._illegal_streak >= self.max_illegal
                reward += self.illegal_penalty
                return aec.observe(self.agent), reward, False, truncated, info
            choices = sorted(table)
            index = choices[int(self.np_random.integers(len(choices)))]
        self._illegal_streak = 0
        aec.step_engine(table[index])
        reward += aec.rewards.get(self.agent, 0.0)
        reward += self._play_bots()
        terminated = aec.game.is_over
        if terminated:
            info.update(aec.infos.get(self.agent, {}))
        return aec.observe(self.agent), reward, terminated, False, info

    def _play_bots(self) -> float:
        """Let the bots decide until the learner does; the learner's reward meanwhile."""
        aec = self.aec
        game = self.game
        earned = 0.0
        while not game.is_over and aec.agent_selection != self.agent:
            agent = aec.agent_selection
            seat = aec.seat_of(agent)
            bot = self.bots[seat]
            legal = game.legal_actions(seat)
            view = game.view(seat)
            choice: Action | None
            if aec.phase_of(agent) == "buy":
                wants = isinstance(bot, Buyer) and bot.wants_to_buy(view, legal)
                choice = Buy(seat) if wants and Buy(seat) in legal else None
            else:
                choice = bot.choose(view, legal)
            aec.step_engine(choice)
            earned += aec.rewards.get(self.agent, 0.0)
        return earned

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        game = self.game
        return render_text(game.view(None), self.aec.rules, self.aec.possible_agents,
                           None if game.is_over else game.view(self.seat),
                           self.aec.phase_of(self.agent))

    def close(self) -> None:
        self.aec.close()

