"""The search bot: determinized Monte Carlo over the rest of the round.

For each decision it samples worlds consistent with what its seat has seen
(:meth:`Game.from_view <carioca.engine.Game.from_view>`: the others' hands and the mazo dealt at
random from the cards it cannot see), applies each candidate action in each world, plays the
round out with a playout policy (the greedy bot when it is there) for every seat, and keeps the
candidate with the best mean round result relative to the others. Candidates share the same
worlds and the same playout seeds (common random numbers), and the playouts go to the
candidates by sequential halving: all of them first, then the better half, and so on.
Options narrow the search to a planner's doubts (``planner``, ``width``, ``trust``: the
named bots plan with :class:`~carioca.bots.LookaheadBot`), let it overrule the planner only
when sure (``confidence``), and sample worlds where the other players hold plausible hands
(``plausible``); docs/bots.md says why and what each is worth.

It decides from ``view`` (its seat's view), the rules and its own seeded generator only; with
a playout budget (not a time budget) the same seed and the same questions give the same
answers.

>>> from carioca import Game, RuleSet
>>> rules = RuleSet.preset("chico")
>>> game = Game.new(rules, ["Ana", "Beto"], seed=3)
>>> bot = SearchBot(seed=1, playouts=8, rules=rules)
>>> seat = game.seat_to_act
>>> bot.choose(game.view(seat), game.legal_actions(seat)).kind
'draw'

The playout driver :func:`play_until_round_end` is also what the tournaments and simulations
of :mod:`carioca.lab` use to run a table of bots.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Literal

from ..actions import Action, Buy
from ..engine import Game, View
from ..rules import Contract, RuleSet
from ..solver import missing_cards
from .greedy import GreedyBot, rules_of
from .lookahead import LookaheadBot
from .random_bot import Bot, Buyer, RandomBot

__all__ = [
    "SearchBot",
    "Objective",
    "PolicyFactory",
    "policy_factory",
    "play_until_round_end",
    "round_utility",
]

Objective = Literal["relative", "own", "leader"]
"""What a playout's result is worth to the seat that searches:

* ``relative``: the others' mean round score minus its own (points scoring; marks in rounds
  scoring count the other way round);
* ``own``: minus its own round score (it only minds its own hand);
* ``leader``: its game total after the round against the best of the others'."""

PolicyFactory = Callable[[int], Bot]
"""Makes the playout bot of one seat from a seed."""

Observer = Callable[[Game, Action, float], None]
"""Called after each action a bot chose, with the seconds it took to choose: CPU seconds of
the thread that chose (one core's work, whatever else the machine is running)."""

Timer = Callable[[int, float], None]
"""Called after each decision (a move, or the answer to a buy question) with the seat and the
CPU seconds its bot took."""

_decision_clock = time.thread_time  # a busy machine must not make a decision look slow

_MIN_PAIRED = 8  # worlds both moves were played in before the policy's move is overruled
_MAX_ACTIONS = 20_000  # a guard: no round of any preset comes near (600 turns at most)


def policy_factory(name: str, rules: RuleSet | None = None) -> PolicyFactory:
    """The playout (or planning) policy by name: ``greedy`` (:class:`~carioca.bots.GreedyBot`,
    told the ``rules``), ``lookahead`` (:class:`~carioca.bots.LookaheadBot`), ``bottleneck``
    (the lookahead bot weighing :func:`~carioca.bots.lookahead.equivalent_outs`), ``eager`` or
    ``random``."""
    if name == "random":
        return RandomBot
    if name == "eager":
        from .levels import EagerBot

        return EagerBot
    if name == "greedy":
        def greedy(seed: int) -> Bot:
            return GreedyBot(seed, rules)

        return greedy
    if name == "lookahead":
        def lookahead(seed: int) -> Bot:
            return LookaheadBot(seed, rules)

        return lookahead
    if name == "bottleneck":
        def bottleneck(seed: int) -> Bot:
            return LookaheadBot(seed, rules, bottleneck=True)

        return bottleneck
    raise ValueError(f"unknown policy {name!r}: use greedy, lookahead, bottleneck, eager or "
                     "random")


# --------------------------------------------------------------------------- the driver

def play_until_round_end(game: Game, bots: Sequence[Bot], *, observer: Observer | None = None,
                         max_actions: int = _MAX_ACTIONS, timer: Timer | None = None) -> int:
    """Let ``bots`` (one per seat) play ``game`` until the current round ends (or the game, or
    ``max_actions``). When the rules allow buying, each time a discard opens the window the
    others are asked in turn order, nearest first, whether they buy (bots that are not a
    :class:`~carioca.bots.Buyer` never do). ``observer`` sees every action played, with the
    seconds its bot took; ``timer(seat, seconds)`` every decision, a buy declined too. The
    clock is the bot's alone: the engine's view and legal actions are made before it starts.
    Returns the number of actions played."""
    start = len(game.results)
    buying = game.rules.buying != "off"
    played = 0
    clock = _decision_clock
    while played < max_actions and not game.is_over and len(game.results) == start:
        seat = game.seat_to_act
        if seat is None:
            break
        if buying and game.phase == "draw" and _offer_buys(game, bots, seat, observer, timer):
            played += 1
            continue
        legal = game.legal_actions(seat)
        view = game.view(seat)
        t0 = clock()
        action = bots[seat].choose(view, legal)
        spent = clock() - t0
        if timer is not None:
            timer(seat, spent)
        game.apply(action)
        played += 1
        if observer is not None:
            observer(game, action, spent)
    return played


def _offer_buys(game: Game, bots: Sequence[Bot], drawer: int, observer: Observer | None,
                timer: Timer | None) -> bool:
    for k in range(1, game.n):
        seat = (drawer + k) % game.n
        bot = bots[seat]
        if not isinstance(bot, Buyer):
            continue
        legal = game.legal_actions(seat)
        buy = next((a for a in legal if isinstance(a, Buy)), None)
        if buy is None:
            continue
        view = game.view(seat)
        t0 = _decision_clock()
        wants = bot.wants_to_buy(view, legal)
        spent = _decision_clock() - t0
        if timer is not None:
            timer(seat, spent)
        if wants:
            game.apply(buy)
            if observer is not None:
                observer(game, buy, spent)
            return True
    return False


def round_utility(scores: Sequence[int], seat: int, rules: RuleSet, objective: Objective,
                  totals_before: Sequence[int] = ()) -> float:
    """What a round's ``scores`` are worth to ``seat`` (higher is better) under ``objective``.

    >>> chile = RuleSet.preset("chile")
    >>> round_utility([0, 40, 20], 0, chile, "relative")
    30.0
    >>> round_utility([0, 40, 20], 1, chile, "own")
    -40.0
    >>> round_utility([0, 40, 20], 2, chile, "leader", totals_before=[100, 0, 10])
    10.0
    """
    sign = 1 if rules.scoring == "rounds" else -1
    good = [sign * s for s in scores]
    if objective == "own":
        return float(good[seat])
    if objective == "leader":
        before = list(totals_before) or [0] * len(scores)
        after = [sign * b + g for b, g in zip(before, good, strict=True)]
        return float(after[seat] - max(a for i, a in enumerate(after) if i != seat))
    others = [g for i, g in enumerate(good) if i != seat]
    return float(good[seat] - sum(others) / len(others))


# --------------------------------------------------------------------------- the bot

class SearchBot:
    """Determinized Monte Carlo: samples the hidden cards, plays each candidate out to the end
    of the round with the playout policy, and picks the best mean result.

    ``playouts`` is the budget of playouts per decision (deterministic); ``seconds``, when
    given, is a time budget instead (the choice then depends on the machine's speed).
    ``actions``, when given, also caps the game actions all the playouts of one decision may
    play: the search stops at whichever budget runs out first. Long rounds (more seats, a
    mazo reshuffled) then cost no more than short ones, and, unlike ``seconds``, the cap
    gives the same choice on any machine.
    ``horizon``, when given, cuts each playout after that many actions and scores the hands
    as they are then (as if the round ended with nobody out).
    ``confidence`` > 0 makes the bot trust its playout policy: the policy's own move is kept
    unless another beats it by that many standard errors over the same sampled worlds (0: the
    best mean wins). ``trust``: reasons of the policy's decisions (``GreedyBot.decide``) taken
    without a search, such as ``go_out`` or ``agregar``. ``width`` > 0 weighs only the
    policy's favourite moves (its choice, then its choice without that move, ...) instead of
    every legal move. ``plausible`` > 0 samples up to that many more worlds for each world
    played and keeps the one where the other players who are not down are nearest their
    contracts (after a few laps their hands are not random: they kept what they wanted).
    ``planner`` is the policy that proposes and ranks the moves to weigh and whose move
    stands unless overruled (``width``, ``confidence``, ``trust``); by default the playout
    ``policy`` itself.
    ``rules`` are the game's rules (public knowledge); when not given, the bot reads them from
    the legal-action list the face hands it."""

    name: str = "search"
    description: str = ("Plays each candidate move out in sampled deals and keeps the best "
                        "(prueba cada jugada en repartos posibles y se queda con la mejor).")

    def __init__(self, seed: int | None = None, *, playouts: int = 200,
                 seconds: float | None = None, actions: int | None = None,
                 horizon: int | None = None, rules: RuleSet | None = None,
                 policy: str | PolicyFactory = "greedy",
                 planner: str | PolicyFactory | None = None,
                 objective: Objective = "relative",
                 confidence: float = 0.0, trust: Iterable[str] = (), width: int = 0,
                 plausible: int = 0,
                 name: str | None = None,
                 description: str | None = None) -> None:
        if playouts < 1:
            raise ValueError("a search needs at least one playout per decision")
        if seconds is not None and seconds <= 0:
            raise ValueError("a time budget must be more than 0 seconds")
        if actions is not None and actions < 1:
            raise ValueError("an action budget is at least 1 action per decision")
        if objective not in ("relative", "own", "leader"):
            raise ValueError(f"unknown objective {objective!r}: relative, own or leader")
        if horizon is not None and horizon < 0:
            raise ValueError("a playout horizon is 0 actions or more")
        if confidence < 0:
            raise ValueError("confidence is 0 (always the best mean) or more standard errors")
        if width < 0:
            raise ValueError("width is the number of the policy's favourite moves to weigh, "
                             "0 for every legal move")
        if plausible < 0:
            raise ValueError("plausible is how many worlds to sample for one, 0 or more")
        self.seed = seed
        self.confidence = confidence
        self.trust = frozenset(trust)
        self.width = width
        self.plausible = plausible
        self._worlds: dict[int, int] = {}
        self.playouts = playouts
        self.horizon = horizon
        self.seconds = seconds
        self.actions = actions
        self.rules = rules
        self.objective: Objective = objective
        for named in (policy, planner):
            if isinstance(named, str):
                policy_factory(named)  # an unknown name fails now
        self.policy = policy
        self.planner = policy if planner is None else planner
        self._factories: dict[str, PolicyFactory] = {}
        self._factories_rules: RuleSet | None = None
        self._rng = random.Random(seed)
        if name is not None:
            self.name = name
        if description is not None:
            self.description = description
        self.last_playouts = 0
        """How many playouts the last decision used."""
        self.last_actions = 0
        """How many game actions the playouts of the last decision played."""

    def __repr__(self) -> str:
        budget = f"seconds={self.seconds!r}" if self.seconds else f"playouts={self.playouts}"
        if self.actions is not None:
            budget += f", actions={self.actions}"
        return f"SearchBot(seed={self.seed!r}, {budget}, objective={self.objective!r})"

    def _policy(self, rules: RuleSet, which: str | PolicyFactory | None = None
                ) -> PolicyFactory:
        """The factory of the playout policy (or of ``which``, such as the planner)."""
        named = self.policy if which is None else which
        if not isinstance(named, str):
            return named
        if self._factories_rules is not rules:
            self._factories, self._factories_rules = {}, rules
        found = self._factories.get(named)
        if found is None:
            found = self._factories[named] = policy_factory(named, rules)
        return found

    # ----------------------------------------------------------------- the Bot protocol

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        candidates: list[Action] = list(dict.fromkeys(legal))
        if not candidates:
            raise ValueError("the bot was asked to move with no legal action")
        self.last_playouts = self.last_actions = 0
        if len(candidates) == 1:
            return candidates[0]
        rules = rules_of(self.rules, legal)
        prior: Action | None = None
        if self.confidence > 0 or self.trust or self.width:
            policy = self._policy(rules, self.planner)(self._rng.getrandbits(32))
            decide = getattr(policy, "decide", None)
            if decide is not None:
                decision = decide(view, legal, explain=False)  # GreedyBot.decide
                prior = decision.action
                if decision.reason in self.trust and prior in candidates:
                    return prior
            else:
                prior = policy.choose(view, legal)
            if self.width and prior in candidates:
                candidates = self._ranked(policy, view, candidates, prior)
                if len(candidates) == 1:
                    return candidates[0]
        best = self._search(view, rules, list(candidates), prior)
        assert best is not None
        return best

    def _ranked(self, policy: Bot, view: View, candidates: list[Action], first: Action
                ) -> list[Action]:
        """The policy's ``width`` favourite moves, best first: its choice, then its choice
        without that move, and so on."""
        ranked = [first]
        rest = [a for a in candidates if a != first]
        while rest and len(ranked) < self.width:
            pick = policy.choose(view, rest)
            if pick not in rest:
                break
            ranked.append(pick)
            rest.remove(pick)
        return ranked

    def wants_to_buy(self, view: View, legal: Sequence[Action]) -> bool:
        self.last_playouts = self.last_actions = 0
        buy = next((a for a in legal if isinstance(a, Buy)), None)
        if buy is None:
            return False
        rules = rules_of(self.rules, legal)
        prior: Action | None = None
        if self.confidence > 0:
            policy = self._policy(rules, self.planner)(self._rng.getrandbits(32))
            if isinstance(policy, Buyer) and policy.wants_to_buy(view, legal):
                prior = buy
        return self._search(view, rules, [buy, None], prior) is not None

    # ----------------------------------------------------------------- the search

    def _search(self, view: View, rules: RuleSet, candidates: list[Action | None],
                prior: Action | None = None) -> Action | None:
        """Sequential halving over ``candidates`` (``None``: do nothing, let the game go on).
        The policy's own move, ``prior``, stays in to the end, and is overruled only by a
        candidate that beats it by ``confidence`` standard errors on the same worlds."""
        seat = view.seat
        if seat is None:
            raise ValueError("a spectator's view cannot choose a move")
        keep = candidates.index(prior) if self.confidence > 0 and prior in candidates else -1
        totals_before = view.sheet.totals
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        worlds: list[int] = []
        self._worlds = {}
        values: list[list[float]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        phases = max(1, math.ceil(math.log2(len(candidates))))
        used = acted = 0
        slice_end = 0.0
        acted_end = math.inf
        for phase in range(phases):
            left = phases - phase
            if deadline is None:
                share = (self.playouts - used) // (len(alive) * left)
                target = max(1, min(share + min(len(values[i]) for i in alive), 10_000))
            else:
                target = 10_000
                slice_end = time.perf_counter() + (deadline - time.perf_counter()) / left
            if self.actions is not None:  # each phase gets its share of what is left
                acted_end = acted + (self.actions - acted) / left
            while True:
                need = min(len(values[i]) for i in alive)
                if need >= target:
                    break
                if need > 0 and (acted >= acted_end or (
                        deadline is not None and time.perf_counter() >= slice_end)):
                    break
                while len(worlds) <= need:
                    worlds.append(self._rng.getrandbits(32))
                for i in alive:
                    if len(values[i]) > need:
                        continue
                    value, played = self._playout(view, rules, candidates[i], worlds[need],
                                                  seat, totals_before)
                    values[i].append(value)
                    used += 1
                    acted += played
            if len(alive) <= 1:
                break
            alive.sort(key=lambda i: (-_mean(values[i]), i))
            survivors = alive[:max(1, math.ceil(len(alive) / 2))]
            if keep >= 0 and keep not in survivors:
                survivors.append(keep)
            alive = survivors
            if len(alive) == 1:
                break
        self.last_playouts, self.last_actions = used, acted
        best = max(alive, key=lambda i: (_mean(values[i]), -i))
        if keep >= 0 and best != keep and not self._sure(values[best], values[keep]):
            best = keep
        return candidates[best]

    def _sure(self, better: list[float], prior: list[float]) -> bool:
        """Whether ``better`` beats ``prior`` by ``confidence`` standard errors, paired over
        the worlds both were played in."""
        k = min(len(better), len(prior))
        if k < _MIN_PAIRED:
            return False
        diffs = [better[w] - prior[w] for w in range(k)]
        mean = sum(diffs) / k
        sd = statistics.stdev(diffs)
        return mean > self.confidence * sd / math.sqrt(k)

    def _world(self, view: View, rules: RuleSet, world: int, seat: int) -> int:
        """The seed of the world to play: ``world`` itself, or (``plausible`` > 0) the most
        plausible of several worlds sampled from it: the one whose players who are not down
        are nearest their contracts, as players who have kept the cards they want for a while
        are. The choice is made once per world and shared by every candidate."""
        if not self.plausible:
            return world
        cached = self._worlds.get(world)
        if cached is not None:
            return cached
        rng = random.Random(world)
        n = len(view.players)
        laps = view.turn // n
        tries = 1 + min(self.plausible, laps)
        owed = {s: [Contract.parse(a) for a in view.owed[s] if a] for s in range(n)
                if s != seat and not view.down[s] and view.open_hands is None}
        owed = {s: c for s, c in owed.items() if c}
        best_seed, best_score = world, math.inf
        for _ in range(tries if owed else 1):
            candidate = rng.getrandbits(32)
            game = Game.from_view(view, rules, random.Random(candidate))
            score = sum(missing_cards(game.hand(s), c, rules) for s, c in owed.items())
            if score < best_score:
                best_seed, best_score = candidate, score
        self._worlds[world] = best_seed
        return best_seed

    def _playout(self, view: View, rules: RuleSet, action: Action | None, world: int,
                 seat: int, totals_before: Sequence[int]) -> tuple[float, int]:
        """The worth of playing ``action`` in ``world``, and the actions the playout took."""
        world_rng = random.Random(self._world(view, rules, world, seat))
        game = Game.from_view(view, rules, world_rng)
        start = len(game.results)
        played = 0
        if action is not None:
            game.apply(action)
            played = 1
        if len(game.results) == start:
            make = self._policy(rules)
            bots = [make(world_rng.getrandbits(32)) for _ in range(game.n)]
            limit = _MAX_ACTIONS if self.horizon is None else self.horizon
            played += play_until_round_end(game, bots, max_actions=limit)
        if len(game.results) == start:  # cut at the horizon: score the hands as they are
            scores: Sequence[int] = _hand_scores(game, rules)
        else:
            scores = game.results[start].scores
        return round_utility(scores, seat, rules, self.objective, totals_before), played


def _hand_scores(game: Game, rules: RuleSet) -> list[int]:
    """Each seat's score if the round ended now with nobody out."""
    if rules.scoring == "rounds":
        return [0] * game.n
    return [sum(rules.value(c) for c in game.hand(seat)) for seat in range(game.n)]


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else -math.inf
