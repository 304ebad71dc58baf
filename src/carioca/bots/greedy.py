"""The greedy bot: a meld planner that plays the sources' advice.

It decides from its seat's view, the rules and the legal actions only, with the solver
(:mod:`carioca.solver`) as its eyes:

* **draw**: take the pozo card when it lowers the number of cards the contract still lacks
  (``missing_cards``), or, once down, when it can be laid off; else the mazo;
* **bajarse** as soon as it can (the Swedish guide: "if someone at the table is already down,
  go down as soon as you can"; waiting in the early rounds is an option, ``wait_early``),
  laying the arrangement that leaves the least penalty (``best_arrangement``);
* **go out** whenever the turn allows it (``go_out_plan``): bajar, lay-offs, swaps, discard;
* **lay off** every card that fits once down, dearest first; **swap** a wild card out when
  the wild can go straight back on the table (or, under ``anyone``, when it brings the
  contract nearer);
* **discard** the card the plan needs least: never a wild card while the contract is open
  ("keep the jokers"), unless every natural card is needed and the wild helps nobody (the
  escala real takes none), then the one whose loss leaves the fewest cards missing, then one that
  does not feed the next player (cards that fit what they took from the pozo, ``view.known``,
  or a meld they can lay off on), then the loosest card (fewest neighbours in rank and suit,
  "build escalas first"), dearest first late in a round; when the round looks lost, the
  dearest card ("shed aces and court cards");
* **buy** only early in a round (before anyone is down, in the first two laps), and only a
  card that lowers the number of cards missing.

With the same view and legal actions it makes the same choice: the seed is kept only for
the bot's identity (nothing here is random).

>>> from carioca import Game, RuleSet
>>> game = Game.new(RuleSet.preset("chile"), ["Ana", "Beto"], seed=1)
>>> bot = GreedyBot(seed=5)
>>> seat = game.seat_to_act
>>> bot.choose(game.view(seat), game.legal_actions(seat)).kind
'draw'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action, Agregar, Bajar, Buy, Discard, Draw, Swap
from ..cards import Card
from ..engine import LegalActions, View
from ..melds import Meld, relocates_wild, wild_limit
from ..rules import Contract, RuleSet
from ..solver import (
    Step,
    best_arrangement,
    distance,
    go_out_plan,
    lacks_at_most,
    missing_cards,
)

__all__ = ["GreedyBot", "Decision"]


@dataclass(frozen=True, slots=True)
class Decision:
    """What the planner chose and why: ``reason`` is a stable code the coach puts in words,
    ``details`` the facts behind it (cards, seats, melds)."""

    action: Action
    reason: str
    details: dict[str, Any] = field(default_factory=dict)


def rules_of(rules: RuleSet | None, legal: Sequence[Action]) -> RuleSet:
    """The game's rules: given, or those of the game the legal actions come from (a game's
    rules are public; nothing else is read from it)."""
    if rules is not None:
        return rules
    if isinstance(legal, LegalActions):
        return legal.rules
    raise ValueError("a bot handed a plain list of actions needs the rules: "
                     "GreedyBot(rules=...), SearchBot(rules=...)")


class _Memo:
    """The solver's answers within one decision."""

    def __init__(self, rules: RuleSet, contracts: list[Contract]) -> None:
        self.rules = rules
        self.contracts = contracts
        self._missing: dict[tuple[Card, ...], int] = {}

    def missing(self, cards: Sequence[Card]) -> int:
        if not self.contracts:
            return 0
        key = tuple(sorted(cards))
        found = self._missing.get(key)
        if found is None:
            found = missing_cards(cards, self.contracts, self.rules)
            self._missing[key] = found
        return found

    def at_most(self, cards: Sequence[Card], k: int) -> bool:
        """``missing(cards) <= k``, without counting further than needed."""
        if not self.contracts:
            return True
        key = tuple(sorted(cards))
        found = self._missing.get(key)
        if found is not None:
            return found <= k
        return lacks_at_most(cards, self.contracts, self.rules, k)


class GreedyBot:
    """The greedy planner (see the module). ``rules`` are the game's; when not given they are
    read from the game the legal actions belong to. ``wait_early``: in the first rounds, while
    nobody else is down, do not go down with a contract that lays few cards (the Swedish
    guide's exception; off by default, measured in docs/bots.md)."""

    name: str = "greedy"
    description: str = ("Builds its melds by the book: keeps jokers, escalas first, goes down "
                        "as soon as it can (arma sus juegos con los consejos de siempre).")

    def __init__(self, seed: int | None = None, rules: RuleSet | None = None, *,
                 wait_early: bool = False) -> None:
        self.seed = seed
        self.rules = rules
        self.wait_early = wait_early
        self._explain = True

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self.seed!r})"

    # ------------------------------------------------------------------ the protocol

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        return self.decide(view, legal, explain=False).action

    def wants_to_buy(self, view: View, legal: Sequence[Action]) -> bool:
        return self.buy_decision(view, legal) is not None

    # ------------------------------------------------------------------ the planner

    def decide(self, view: View, legal: Sequence[Action], *, explain: bool = True
               ) -> Decision:
        """The action to play now, with the reason (for :mod:`carioca.coach`); without
        ``explain`` the details that only explain (the meld a card goes in) are left out."""
        self._explain = explain
        if not legal:
            raise ValueError("the bot was asked to move with no legal action")
        rules = rules_of(self.rules, legal)
        seat = view.seat
        if seat is None or view.hand is None:
            raise ValueError("a bot decides from its own seat's view")
        kinds = {a.kind for a in legal}
        if "draw" in kinds:
            return self._draw(view, legal, rules, seat)
        if kinds == {"buy"}:
            # Out of turn only a buy is legal; a bot is asked with ``wants_to_buy``. Here the
            # decision carries the Buy either way, ``no_buy`` meaning: let the card pass.
            buy = self.buy_decision(view, legal)
            if buy is not None:
                return buy
            return Decision(legal[0], "no_buy", {"card": view.pozo_top})
        return self._play(view, legal, rules, seat)

    def buy_decision(self, view: View, legal: Sequence[Action]) -> Decision | None:
        """A decision to buy the pozo top out of turn, or None."""
        buy = next((a for a in legal if isinstance(a, Buy)), None)
        if buy is None or view.seat is None or view.hand is None or view.pozo_top is None:
            return None
        rules = rules_of(self.rules, legal)
        seat = view.seat
        if view.down[seat] or any(view.down) or view.turn >= 2 * len(view.players):
            return None
        memo = _Memo(rules, _owed(view, seat))
        top = view.pozo_top
        before = memo.missing(view.hand)
        if memo.at_most([*view.hand, top], before - 1):
            return Decision(buy, "buy_early", {"card": top})
        return None

    # ------------------------------------------------------------------ drawing

    def _draw(self, view: View, legal: Sequence[Action], rules: RuleSet, seat: int
              ) -> Decision:
        mazo = next((a for a in legal if isinstance(a, Draw) and a.source == "mazo"), None)
        pozo = next((a for a in legal if isinstance(a, Draw) and a.source == "pozo"), None)
        top = view.pozo_top
        hand = list(view.hand or ())
        if pozo is not None and top is not None:
            if view.down[seat]:
                fits = _fitting_meld(top, view.melds, rules)
                if fits is not None:
                    return Decision(pozo, "draw_pozo_layoff", {"card": top, "meld": fits})
            else:
                memo = _Memo(rules, _owed(view, seat))
                before = memo.missing(hand)
                if memo.at_most([*hand, top], before - 1):
                    details: dict[str, Any] = {"card": top, "before": before,
                                               "after": before - 1}
                    target = _target_for(top, [*hand, top], memo) if self._explain else None
                    if target is not None:
                        details["target"] = target
                    return Decision(pozo, "draw_pozo_out", details)
        if mazo is None:
            assert pozo is not None
            return Decision(pozo, "draw_pozo_only", {"card": top})
        return Decision(mazo, "draw_mazo", {"card": top})

    # ------------------------------------------------------------------ playing

    def _play(self, view: View, legal: Sequence[Action], rules: RuleSet, seat: int
              ) -> Decision:
        hand = list(view.hand or ())
        down = view.down[seat]
        owed = _owed(view, seat)
        bajars = [a for a in legal if isinstance(a, Bajar)]
        may = _may_layoff(view, rules, seat)
        others_down = [s for s in range(len(view.players)) if s != seat and view.down[s]]

        # 1. Go out now if the turn allows it.
        if down or bajars:
            steps = go_out_plan(hand, view.melds, rules, down=down, contracts=owed or None,
                                may_layoff=may if down else _may_layoff_after_bajar(view, rules),
                                keep=1, at_once=view.go_out_at_once)
            if steps:
                action = steps[0].action(seat)
                if action in legal:
                    return Decision(action, "go_out", {"steps": steps})

        # 2. Go down as soon as possible.
        if bajars and not down:
            decision = self._bajar(view, legal, rules, seat, hand, owed, bajars, others_down)
            if decision is not None:
                return decision

        # 3. Once down: lay off, dearest card first; swap a wild out when it goes back.
        if down:
            layoff = _best_layoff(legal, rules)
            if layoff is not None:
                return Decision(layoff, "agregar", {"card": layoff.card, "meld": layoff.meld})
        swap = self._swap(view, legal, rules, seat, hand, owed)
        if swap is not None:
            return swap

        # 4. Discard.
        return self._discard(view, legal, rules, seat, hand, owed, others_down)

    def _bajar(self, view: View, legal: Sequence[Action], rules: RuleSet, seat: int,
               hand: list[Card], owed: list[Contract], bajars: list[Bajar],
               others_down: list[int]) -> Decision | None:
        full = [b for b in bajars if _completes(b, owed)]
        if full:
            if self.wait_early and not others_down and view.round <= 3:
                plan = best_arrangement(hand, owed, rules)
                laid = sum(len(m) for m in plan.melds) if plan else 0
                if plan is not None and laid < len(hand) - 4:
                    return None
            plan = best_arrangement(hand, owed, rules)
            choice: Bajar | None = None
            if plan is not None:
                candidate = Bajar(seat, plan.melds)
                if candidate in legal:
                    choice = candidate
            if choice is None:
                choice = min(full, key=lambda b: (_left_value(hand, b, rules), str(b)))
            reason = "bajar_other_down" if others_down else "bajar_now"
            return Decision(choice, reason, {"others": others_down})
        # Partial contracts (rumi): lay a part the plan has complete, keeping cards in hand.
        memo = _Memo(rules, owed)
        here = distance(hand, owed, rules) if owed else None
        if here is None:
            return None
        ready = [t for t in here.targets if t.missing == 0 and t.cards]
        for bajar in bajars:
            if len(bajar.melds) == 1 and any(sorted(map(str, bajar.melds[0])) ==
                                             sorted(str(c) for c in t.cards if c is not None)
                                             for t in ready):
                rest = list(hand)
                for c in bajar.cards:
                    rest.remove(c)
                if len(rest) >= 2 and memo.at_most(rest, here.missing):
                    return Decision(bajar, "bajar_part", {})
        return None

    def _swap(self, view: View, legal: Sequence[Action], rules: RuleSet, seat: int,
              hand: list[Card], owed: list[Contract]) -> Decision | None:
        swaps = [a for a in legal if isinstance(a, Swap)]
        if not swaps:
            return None
        down = view.down[seat]
        memo = _Memo(rules, owed)
        for swap in swaps:
            meld = view.melds[swap.meld]
            index = meld.wild_index_for(swap.card)
            if index is None:
                continue
            new_meld, wild = meld.swapped(swap.card, index)
            if relocates_wild(meld, rules):
                if down:
                    return Decision(swap, "swap_relocate", {"card": swap.card,
                                                            "meld": swap.meld})
                continue
            table = [*view.melds[:swap.meld], new_meld, *view.melds[swap.meld + 1:]]
            if down:
                if _may_layoff(view, rules, seat) and _fitting_meld(wild, table, rules) is not None:
                    return Decision(swap, "swap_layoff", {"card": swap.card, "meld": swap.meld,
                                                          "wild": wild})
                continue
            rest = list(hand)
            rest.remove(swap.card)
            if owed and memo.at_most([*rest, wild], memo.missing(hand) - 1):
                return Decision(swap, "swap_contract", {"card": swap.card, "meld": swap.meld,
                                                        "wild": wild})
        return None

    def _feeding_test(self, view: View, rules: RuleSet, seat: int) -> Callable[[Card], bool]:
        """Whether a discard helps ``seat`` (the next player), as greedy's discards ask it:
        :func:`_feeding`, a guess from the cards they were seen to take. (The coach, under
        open hands, reads it off the hand they show.)"""
        return _feeding(view, rules, seat)  # type: ignore[no-any-return]

    def _discard(self, view: View, legal: Sequence[Action], rules: RuleSet, seat: int,
                 hand: list[Card], owed: list[Contract], others_down: list[int]
                 ) -> Decision:
        discards = [a for a in legal if isinstance(a, Discard)]
        if not discards:
            # Nothing to discard is legal (a go-out-at-once turn): play any legal move.
            return Decision(legal[0], "forced")
        n = len(view.players)
        nxt = (seat + 1) % n
        feeds = self._feeding_test(view, rules, nxt)
        down = view.down[seat]
        memo = _Memo(rules, owed)
        if down or not owed:
            # Keep what fits a meld on the table: it goes off next turn.
            best = min(discards, key=lambda a: (
                feeds(a.card), _fitting_meld(a.card, view.melds, rules) is not None,
                -rules.value(a.card), a.card))
            return Decision(best, "discard_down", {"card": best.card})
        now = memo.missing(hand)
        lost = _lost(view, now, others_down)
        late = bool(others_down)
        # Losing one card costs at most one missing card: the best discard is the first card,
        # in the order of the other keys, whose loss costs nothing (else the first of all).
        scored = []
        for a in discards:
            card = a.card
            if lost:
                key: tuple[Any, ...] = (feeds(card), -rules.value(card), card)
            else:
                value_key = -rules.value(card) if late else 0
                key = (rules.is_wild(card), feeds(card), _neighbours(card, hand, rules),
                       value_key, -rules.value(card), card)
            scored.append((key, a))
        scored.sort(key=lambda t: t[0])
        best_action = scored[0][1]
        after = now + 1
        for key, a in scored:
            if not lost and key[0] and feeds(a.card):
                # A wild card goes only if every natural card is needed and it helps nobody
                # (the escala real takes none): else a natural goes, at the cost of a card.
                break
            rest = list(hand)
            rest.remove(a.card)
            if memo.at_most(rest, now):
                best_action, after = a, now
                break
        assert isinstance(best_action, Discard)
        details: dict[str, Any] = {"card": best_action.card, "missing": after, "before": now}
        if lost:
            return Decision(best_action, "discard_lost", details)
        if self._explain and owed:
            keep = _worth_keeping(view, seat, hand, best_action.card, memo)
            if keep is not None:
                details["keep"], details["target"] = keep
        if feeds(best_action.card):
            return Decision(best_action, "discard_feeds", details)
        return Decision(best_action, "discard", details)


# --------------------------------------------------------------------------- helpers

_CONTRACTS: dict[str, Contract] = {}


def _contract(text: str) -> Contract:
    found = _CONTRACTS.get(text)
    if found is None:
        found = _CONTRACTS[text] = Contract.parse(text)
    return found


def _owed(view: View, seat: int) -> list[Contract]:
    if not view.owed:
        return []
    return [_contract(o) for o in view.owed[seat] if o]


def _completes(bajar: Bajar, owed: list[Contract]) -> bool:
    return any(len(c.melds) == len(bajar.melds) for c in owed)


def _may_layoff(view: View, rules: RuleSet, seat: int) -> bool:
    if not view.down[seat]:
        return False
    same_turn = bool(view.down_turn) and view.down_turn[seat] == view.turn
    return not same_turn or rules.layoff_same_turn or view.go_out_at_once


def _may_layoff_after_bajar(view: View, rules: RuleSet) -> bool:
    return rules.layoff_same_turn or view.go_out_at_once


def _fitting_meld(card: Card, melds: Sequence[Meld], rules: RuleSet) -> int | None:
    """The first table meld ``card`` can be laid off on, or None."""
    for i, meld in enumerate(melds):
        ends: tuple[Any, ...] = (None,) if meld.kind == "trio" else meld.open_ends(rules)
        for end in ends:
            if meld.fits(card, end, rules, limit=rules.wild_limit_on_layoff):
                return i
    return None


def _best_layoff(legal: Sequence[Action], rules: RuleSet) -> Agregar | None:
    layoffs = [a for a in legal if isinstance(a, Agregar)]
    if not layoffs:
        return None
    # Natural cards first (a wild may still fit afterwards), then the dearest.
    return min(layoffs, key=lambda a: (rules.is_wild(a.card), -rules.value(a.card), a.card,
                                       a.meld, a.end or ""))


def _left_value(hand: list[Card], bajar: Bajar, rules: RuleSet) -> int:
    rest = list(hand)
    for c in bajar.cards:
        rest.remove(c)
    return sum(rules.value(c) for c in rest)


def _lost(view: View, missing: int, others_down: Sequence[int]) -> bool:
    """Whether the round looks lost: someone else is down and the hand still lacks three
    cards or more (two, if that player holds three cards or fewer)."""
    least_left = min((view.hand_counts[s] for s in others_down), default=99)
    return bool(others_down) and (missing >= 3 or (missing >= 2 and least_left <= 3))


def _neighbours(card: Card, hand: Sequence[Card], rules: RuleSet) -> int:
    """How many other cards of the hand ``card`` could meld with: same rank, or same suit
    within two ranks (the raw material of tríos and escalas). Fewer: a looser card."""
    if rules.is_wild(card):
        return 99
    code = int(card)
    rank, suit = code % 13, code // 13
    n = -2  # the card itself is counted once below, as its own rank
    wild = rules._wild_by_code
    for other in hand:
        o = int(other)
        if o == 52 or wild[o]:
            continue
        o_rank = o % 13
        if o_rank == rank:
            n += 2
        elif o // 13 == suit:
            gap = abs(o_rank - rank)
            if rank == 0 or o_rank == 0:
                gap = min(gap, 13 - gap)
            if gap <= 2:
                n += 3 - gap
    return n


def _feeding(view: View, rules: RuleSet, seat: int, *, by_contract: bool = False) -> Any:
    """A test: does discarding this card help ``seat`` (the next player)? It does when the
    card goes with a card they were seen to take (same rank, or same suit within two ranks),
    or when they are down and it fits a meld on the table. ``by_contract`` narrows "goes
    with" to what their contract can use: the rank only for tríos, the suit only for
    escalas (greedy itself counts both in every round)."""
    trios = escalas = True
    if by_contract:
        kinds = {spec.kind for contract in _owed(view, seat) for spec in contract.melds}
        if kinds:
            trios, escalas = "trio" in kinds, bool(kinds - {"trio"})
    known = [k for k in (view.known[seat] if view.known else ()) if not rules.is_wild(k)]
    down = view.down[seat]
    # A wild card helps anyone, but for a contract that takes none (the escala real). (One
    # that is down is taken to use it too, as greedy always has: the tournaments measured
    # against greedy keep their opponent.)
    owed = _owed(view, seat)
    wild_helps = down or not owed or any(wild_limit(spec.kind, rules) != 0
                                         for contract in owed for spec in contract.melds)

    def feeds(card: Card) -> bool:
        if rules.is_wild(card):
            return wild_helps
        if _goes_with(card, known, trios=trios, escalas=escalas):
            return True
        return down and _fitting_meld(card, view.melds, rules) is not None

    return feeds


def _goes_with(card: Card, known: Sequence[Card], *, trios: bool = True,
               escalas: bool = True) -> bool:
    """Whether ``card`` goes with one of ``known`` (natural cards): the same rank (for
    tríos), or the same suit within two ranks (for escalas)."""
    for k in known:
        if trios and k.rank == card.rank:
            return True
        if escalas and k.suit == card.suit and 0 < abs(k.rank - card.rank) <= 2:
            return True
    return False


def _last_drawn(view: View, seat: int) -> Card | None:
    """The card the seat took from the pozo this turn, if it did (the view shows it)."""
    if view.known and view.known[seat] and view.log:
        last = view.log[-1]
        if last.get("p") == seat and last.get("draw") == "pozo":
            return view.known[seat][-1]
    return None


def _worth_keeping(view: View, seat: int, hand: list[Card], discard: Card, memo: _Memo
                   ) -> tuple[Card, dict[str, Any]] | None:
    """A card of the hand the plan needs, to name with the discard ("keep the 7H: it completes
    your escala 5-6-_-8"): the card just taken from the pozo if it is needed, else the needed
    card of the meld nearest to complete."""
    found = distance(hand, memo.contracts, memo.rules)
    needed = [c for c in found.needed if c != discard]
    if not needed:
        return None
    drawn = _last_drawn(view, seat)
    if drawn is not None and drawn in needed:
        shown_drawn = _target_for(drawn, hand, memo, found)
        return (drawn, shown_drawn) if shown_drawn is not None else None
    best: tuple[tuple[int, int], Card, dict[str, Any]] | None = None
    for meld in found.targets:
        for c in meld.cards:
            if c is None or c not in needed or memo.rules.is_wild(c):
                continue
            shown = _target_for(c, hand, memo, found)
            if shown is None:
                continue
            key = (meld.missing, -int(c))
            if best is None or key < best[0]:
                best = (key, c, shown)
    return None if best is None else (best[1], best[2])


def _target_for(card: Card, hand: list[Card], memo: _Memo, found: Any = None
                ) -> dict[str, Any] | None:
    """The meld of the nearest arrangement that ``card`` goes in, with the card's place shown
    as a gap: for "it completes your escala 5-6-_-8"."""
    if not memo.contracts:
        return None
    if found is None:
        found = distance(hand, memo.contracts, memo.rules)
    for target in found.targets:
        if card in target.cards:
            shown: list[str] = []
            blank = False
            for c in target.cards:
                if c == card and not blank:
                    shown.append("_")
                    blank = True
                else:
                    shown.append("?" if c is None else _rank_text(c, memo.rules))
            if target.kind == "trio":  # a trío has no order: the cards held, then the gaps
                shown.sort(key=lambda s: (s == "_", s == "?"))
            return {"kind": target.kind, "shape": "-".join(shown),
                    "missing": target.missing}
    return None


def _rank_text(card: Card, rules: RuleSet) -> str:
    if card.is_joker:
        return "JK"
    return str(card)[:-1]


def plan_text(steps: Sequence[Step]) -> str:
    """A plan's steps in record notation, ``; `` between them."""
    return "; ".join(str(s) for s in steps)
