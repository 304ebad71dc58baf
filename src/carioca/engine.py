"""The game: one state machine, configured by a :class:`~carioca.rules.RuleSet`.

Every change goes through :meth:`Game.apply`, which checks the action against the rules
(``verify``), then makes it (``do``). ``can_apply`` answers yes or no. :meth:`Game.view` is the
only way state leaves the engine, and shows a seat only what the rules let it see.

>>> from carioca import Game, RuleSet
>>> game = Game.new(RuleSet.preset("chile"), ["Ana", "Beto", "Caro"], seed=7)
>>> game.seat_to_act, game.phase
(1, 'draw')
>>> game.apply(Draw(1, "mazo"))
Draw(seat=1, source='mazo')
>>> game.apply(Draw(1, "mazo"))
Traceback (most recent call last):
...
carioca.errors.IllegalAction: Beto has drawn already: now bajarse, agregar or discard a card
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .actions import _DISCARDS, Action, Agregar, Bajar, Buy, Discard, Draw, Swap, draw_action
from .cards import Card, deck
from .errors import IllegalAction
from .melds import Meld, MeldError, read_meld, relocates_wild
from .rules import Contract, MeldSpec, RoundDef, RuleSet
from .solver import can_shed, contract_arrangements, extend_arrangement

__all__ = ["Game", "Deal", "RoundResult", "ScoreSheet", "View", "LegalActions"]

Phase = Literal["draw", "play", "between", "over"]


# --------------------------------------------------------------------------- plain results

@dataclass(frozen=True, slots=True)
class Deal:
    """A round's cards as dealt: ``hands`` per seat, ``pozo`` bottom to top, ``mazo`` top first."""

    hands: tuple[tuple[Card, ...], ...]
    pozo: tuple[Card, ...]
    mazo: tuple[Card, ...]
    seed: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": [[str(c) for c in h] for h in self.hands],
            "pozo": [str(c) for c in self.pozo],
            "mazo": [str(c) for c in self.mazo],
        }


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended: who went out (``None`` if nobody did) and each seat's score."""

    round: int
    went_out: int | None
    scores: tuple[int, ...]
    instant: bool = False
    hands: tuple[tuple[Card, ...], ...] = ()
    """Every hand as the round ended: shown on the table to count the scores, so public."""

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "went_out": self.went_out, "scores": list(self.scores)}


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """The anotador: every round so far, totals, and the winners once the game is over."""

    players: tuple[str, ...]
    rounds: tuple[RoundResult | None, ...]
    totals: tuple[int, ...]
    finished: bool
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """Exactly the ``carioca replay --json`` document of the record spec."""
        rows = []
        for i, r in enumerate(self.rounds, 1):
            rows.append(r.to_json() if r else {"round": i, "went_out": None, "scores": None})
        return {"rounds": rows, "totals": list(self.totals), "finished": self.finished,
                "winners": list(self.winners)}


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may see (``seat=None``: a spectator, who sees only what is public)."""

    seat: int | None
    players: tuple[str, ...]
    round: int
    rounds: int
    contract: str
    contract_words: str
    hand_size: int
    go_out_at_once: bool
    dealer: int
    to_act: int | None
    phase: Phase
    hand: tuple[Card, ...] | None
    hand_counts: tuple[int, ...]
    open_hands: tuple[tuple[Card, ...], ...] | None
    melds: tuple[Meld, ...]
    pozo: tuple[Card, ...]
    mazo_count: int
    down: tuple[bool, ...]
    buys: tuple[int, ...]
    buy_window: bool
    log: tuple[dict[str, Any], ...]
    """The round's actions as the record writes them; a draw from the pozo and a buy also name
    the card taken (``"card"``), which everyone saw on the pozo."""
    sheet: ScoreSheet
    known: tuple[tuple[Card, ...], ...] = ()
    """Per seat, the cards everyone saw it take (from the pozo, or a wild swapped off the
    table) that it still holds."""
    turn: int = 0
    laid_this_turn: bool = False
    down_turn: tuple[int, ...] = ()
    first_bajar_turn: tuple[int, ...] = ()
    owed: tuple[tuple[str, ...], ...] = ()
    """Per seat, what each contract alternative still asks of it (contract notation)."""
    steals: tuple[int, ...] = ()
    last_discarder: int | None = None
    reshuffles: int = 0
    reshuffles_left: int | None = None
    """How many more times the pozo may be shuffled into a new mazo this round (None: as often
    as needed, every preset's rule): an empty mazo with one left is rebuilt when drawn from."""

    @property
    def pozo_top(self) -> Card | None:
        return self.pozo[-1] if self.pozo else None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "players": list(self.players),
            "round": self.round,
            "rounds": self.rounds,
            "contract": self.contract,
            "contract_words": self.contract_words,
            "hand_size": self.hand_size,
            "go_out_at_once": self.go_out_at_once,
            "dealer": self.dealer,
            "to_act": self.to_act,
            "phase": self.phase,
            "hand": None if self.hand is None else [str(c) for c in self.hand],
            "hand_counts": list(self.hand_counts),
            "open_hands": None if self.open_hands is None
            else [[str(c) for c in h] for h in self.open_hands],
            "melds": [m.to_json() for m in self.melds],
            "pozo": [str(c) for c in self.pozo],
            "mazo_count": self.mazo_count,
            "down": list(self.down),
            "buys": list(self.buys),
            "buy_window": self.buy_window,
            "log": list(self.log),
            "sheet": self.sheet.to_json(),
            "known": [[str(c) for c in k] for k in self.known],
            "turn": self.turn,
            "laid_this_turn": self.laid_this_turn,
            "down_turn": list(self.down_turn),
            "first_bajar_turn": list(self.first_bajar_turn),
            "owed": [list(o) for o in self.owed],
            "steals": list(self.steals),
            "last_discarder": self.last_discarder,
            "reshuffles": self.reshuffles,
            "reshuffles_left": self.reshuffles_left,
        }


class LegalActions(Sequence[Action]):
    """The legal actions of a seat now. Iterating lists every draw, discard, agregar and swap,
    and for bajar the arrangements the solver finds (shortest melds, and the same melds
    lengthened); ``action in legal`` is exact for any action."""

    __slots__ = ("_game", "_items")

    def __init__(self, game: Game, items: list[Action]) -> None:
        self._game = game
        self._items = items

    def __iter__(self) -> Iterator[Action]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index: int) -> Action:  # type: ignore[override]
        return self._items[index]

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Action) and self._game.can_apply(action)

    def kinds(self) -> set[str]:
        return {a.kind for a in self._items}

    @property
    def rules(self) -> RuleSet:
        """The rules of the game these actions belong to (public, like the rules of any
        table): what a bot handed only a view and its legal actions plays by."""
        return self._game.rules


# --------------------------------------------------------------------------- round state

@dataclass(slots=True)
class _Round:
    """Everything that changes within a round (copied whole for undo)."""

    number: int
    definition: RoundDef
    hands: list[list[Card]]
    mazo: list[Card]  # top at the end, so drawing is pop()
    pozo: list[Card]  # top at the end
    melds: list[Meld] = field(default_factory=list)
    owed: list[list[list[MeldSpec]]] = field(default_factory=list)
    """Per seat, what each contract alternative still asks of it."""
    down: list[bool] = field(default_factory=list)
    down_turn: list[int] = field(default_factory=list)
    first_bajar_turn: list[int] = field(default_factory=list)
    buys: list[int] = field(default_factory=list)
    steals: list[int] = field(default_factory=list)
    current: int = 0
    phase: Phase = "draw"
    turn: int = 0
    window_open: bool = False
    last_discarder: int | None = None
    reshuffles: int = 0
    laid_this_turn: bool = False
    rng: random.Random = field(default_factory=random.Random)
    known: list[list[Card]] = field(default_factory=list)

    def copy(self) -> _Round:
        clone = _Round(
            self.number, self.definition, [list(h) for h in self.hands], list(self.mazo),
            list(self.pozo), list(self.melds), [[list(a) for a in o] for o in self.owed],
            list(self.down), list(self.down_turn), list(self.first_bajar_turn), list(self.buys),
            list(self.steals), self.current, self.phase, self.turn, self.window_open,
            self.last_discarder, self.reshuffles, self.laid_this_turn, random.Random(),
            [list(k) for k in self.known],
        )
        clone.rng.setstate(self.rng.getstate())
        return clone


def round_seed(game_seed: int, number: int) -> int:
    """The seed of round ``number`` of a game started with ``game_seed``: 32 bits from a game
    seed of 32 bits or fewer (a tournament's, a test's: the deals they were measured on), 53
    from a wider one (an online table's). A seat holds the order of its own cards, and could
    try every 32-bit seed against it in hours and see every hand; 2**53 is out of reach, and
    still a whole number in a web page's JSON."""
    bits = 32 if game_seed.bit_length() <= 32 else 53
    return random.Random(f"carioca:{game_seed}:{number}").getrandbits(bits)


# --------------------------------------------------------------------------- the game

class Game:
    """A game of Carioca, from the first deal to the winners."""

    def __init__(self, rules: RuleSet, players: Sequence[str], *, seed: int | None = None
                 ) -> None:
        names = tuple(players)
        rules.check_players(len(names))
        self.rules = rules
        self.players = names
        self.n = len(names)
        self.seed = seed
        self.results: list[RoundResult] = []
        self.deals: list[Deal] = []
        self.log: list[list[Action]] = []
        self._public: list[dict[str, Any]] = []  # this round's log as JSON, kept as it grows
        self._round: _Round | None = None
        self._undo: list[_Round] = []
        self._over = False
        self.sampled = False
        """True for a world sampled from a view (:meth:`from_view`): it has no true record."""

    # ----------------------------------------------------------------- starting

    @classmethod
    def new(cls, rules: RuleSet, players: Sequence[str], seed: int | None = None) -> Game:
        """A game whose every deal follows from ``seed`` (a random one if not given)."""
        if seed is None:
            seed = random.SystemRandom().getrandbits(32)
        game = cls(rules, players, seed=seed)
        game.start_round()
        return game

    @property
    def round_number(self) -> int:
        """The current round, 1-based (the last one played once the game is over)."""
        return len(self.deals)

    def round_def(self, number: int) -> RoundDef:
        rounds = self.rules.rounds
        return rounds[number - 1] if number <= len(rounds) else rounds[-1]

    def deal_from_seed(self, seed: int, number: int | None = None) -> Deal:
        """Shuffle the rules' deck with ``seed`` and deal round ``number`` by the rules: one
        card at a time from the seat after the dealer, then one up to start the pozo."""
        number = number or self.round_number + 1
        definition = self.round_def(number)
        cards = deck(*self.rules.deck_for(self.n))
        random.Random(seed).shuffle(cards)
        first = number % self.n  # the seat after the dealer, (number - 1) mod n
        hands: list[list[Card]] = [[] for _ in range(self.n)]
        i = 0
        for _ in range(definition.hand_size):
            for k in range(self.n):
                hands[(first + k) % self.n].append(cards[i])
                i += 1
        pozo = [cards[i]]
        mazo = list(reversed(cards[i + 1:]))
        if self.rules.bury_wild_first_discard:
            _bury_wilds(pozo, mazo, self.rules)
        return Deal(tuple(tuple(h) for h in hands), tuple(pozo), tuple(reversed(mazo)), seed)

    def start_round(self, deal: Deal | None = None) -> None:
        """Deal the next round (from the game's seed when no deal is given)."""
        if self._round is not None and self._round.phase in ("draw", "play"):
            raise IllegalAction("round_not_over", "the round is still being played")
        if self._over:
            raise IllegalAction("game_over", "the game is over")
        number = self.round_number + 1
        if deal is None:
            if self.seed is None:
                raise IllegalAction("no_deal", "this game has no seed: give the deal")
            deal = self.deal_from_seed(round_seed(self.seed, number), number)
        definition = self.round_def(number)
        self._check_deal(deal, definition)
        pozo = list(deal.pozo)
        mazo = list(reversed(deal.mazo))
        if self.rules.bury_wild_first_discard:
            _bury_wilds(pozo, mazo, self.rules)
        deal = Deal(deal.hands, tuple(pozo), tuple(reversed(mazo)), deal.seed)
        n = self.n
        state = _Round(
            number=number, definition=definition, hands=[list(h) for h in deal.hands],
            mazo=mazo, pozo=pozo,
            owed=[[list(c.melds) for c in definition.contracts] for _ in range(n)],
            down=[False] * n, down_turn=[-1] * n, first_bajar_turn=[-1] * n, buys=[0] * n,
            steals=[0] * n, current=number % n, known=[[] for _ in range(n)],
            rng=random.Random(f"carioca:reshuffle:{deal.seed or 0}"),
        )
        self._round = state
        self.deals.append(deal)
        self.log.append([])
        self._public = []
        self._undo.clear()
        self._start_turn(state)

    def _check_deal(self, deal: Deal, definition: RoundDef) -> None:
        if len(deal.hands) != self.n:
            raise IllegalAction("bad_deal", f"the deal has {len(deal.hands)} hands for "
                                            f"{self.n} players")
        for seat, hand in enumerate(deal.hands):
            if len(hand) != definition.hand_size:
                raise IllegalAction(
                    "bad_deal", f"{self.players[seat]} is dealt {len(hand)} cards, but this "
                                f"round deals {definition.hand_size}")
        if not deal.pozo:
            raise IllegalAction("bad_deal", "the deal turns no card up to start the pozo")
        packs, jokers = self.rules.deck_for(self.n)
        want = Counter(deck(packs, jokers))
        have = Counter([c for h in deal.hands for c in h] + list(deal.pozo) + list(deal.mazo))
        if have != want:
            raise IllegalAction("bad_deal", _deck_difference(have, want, packs, jokers))

    def to_record(self) -> dict[str, Any]:
        """The game record (``carioca-record/1``) of everything played so far."""
        from .record import to_record

        if self.sampled:
            raise ValueError("a world sampled from a view has no record")
        return to_record(self)

    @classmethod
    def from_record(cls, doc: Any) -> Game:
        """Replay a record; raises :class:`~carioca.errors.RecordError` at the first fault."""
        from .record import from_record

        return from_record(doc)

    @classmethod
    def from_view(cls, view: View, rules: RuleSet, rng: random.Random) -> Game:
        """A whole game consistent with everything ``view.seat`` has seen: the cards it cannot
        see (the others' hands but what they were seen to take, and the mazo) are dealt at
        random by ``rng``. For search: a bot that plays out such worlds still decides from its
        view alone. Later rounds are dealt from a seed drawn from ``rng``."""
        if view.seat is None or view.hand is None or view.to_act is None:
            raise ValueError("a world is sampled from a seat's view of a round being played")
        game = cls(rules, view.players, seed=rng.getrandbits(32))
        game.sampled = True
        game.results = [r for r in view.sheet.rounds if r is not None]
        game.deals = [Deal((), (), (), None)] * view.round
        game.log = [[] for _ in range(view.round)]
        hands = _sample_hands(view, rules, rng)
        pool = hands.pop()
        game._round = _Round(
            number=view.round, definition=game.round_def(view.round), hands=hands,
            mazo=pool, pozo=list(view.pozo), melds=list(view.melds),
            owed=[[list(Contract.parse(a).melds) if a else [] for a in o] for o in view.owed],
            down=list(view.down), down_turn=list(view.down_turn),
            first_bajar_turn=list(view.first_bajar_turn), buys=list(view.buys),
            steals=list(view.steals), current=view.to_act, phase=view.phase, turn=view.turn,
            window_open=view.buy_window, last_discarder=view.last_discarder,
            reshuffles=view.reshuffles, laid_this_turn=view.laid_this_turn,
            rng=random.Random(rng.getrandbits(32)), known=[list(k) for k in view.known],
        )
        return game

    # ----------------------------------------------------------------- questions

    @property
    def phase(self) -> Phase:
        if self._over:
            return "over"
        return "between" if self._round is None else self._round.phase

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def seat_to_act(self) -> int | None:
        """The seat whose move it is (``None`` between rounds and after the game)."""
        state = self._round
        if state is None or state.phase not in ("draw", "play"):
            return None
        return state.current

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's hand (for that seat's own face only; others use :meth:`view`)."""
        return tuple(self._state().hands[seat])

    def _state(self) -> _Round:
        if self._round is None:
            raise IllegalAction("no_round", "no round is being played")
        return self._round

    def score_sheet(self) -> ScoreSheet:
        rows: list[RoundResult | None] = list(self.results)
        if len(rows) < len(self.deals):
            rows.append(None)
        totals = [0] * self.n
        for r in self.results:
            for i, s in enumerate(r.scores):
                totals[i] += s
        winners = self._winners(totals) if self._over else ()
        return ScoreSheet(self.players, tuple(rows), tuple(totals), self._over, winners)

    # ----------------------------------------------------------------- the entry point

    def apply(self, action: Action) -> Action:
        """Check ``action`` against the rules and make it; raise :class:`IllegalAction` (with a
        stable ``code`` and a message that names the rule) if the rules forbid it."""
        state = self._round
        if self._over:
            raise IllegalAction("game_over", "the game is over")
        if state is None or state.phase not in ("draw", "play"):
            raise IllegalAction("round_over", "the round is over; the next one is not dealt yet")
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction("unknown_action", f"{action!r} is not an action")
        if not 0 <= action.seat < self.n:
            raise IllegalAction("no_such_seat", f"there is no seat {action.seat}")
        verify, do = handler
        verify(self, state, action)
        if self.rules.undo and isinstance(action, (Bajar, Agregar, Swap)):
            self._undo.append(state.copy())
        self.log[-1].append(action)
        self._public.append(_public_entry(state, action))
        do(self, state, action)
        return action

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalAction` if ``action`` is not legal now; change nothing."""
        state = self._round
        if self._over:
            raise IllegalAction("game_over", "the game is over")
        if state is None or state.phase not in ("draw", "play"):
            raise IllegalAction("round_over", "the round is over; the next one is not dealt yet")
        handler = _HANDLERS.get(type(action))
        if handler is None or not 0 <= action.seat < self.n:
            raise IllegalAction("unknown_action", f"{action!r} is not an action here")
        handler[0](self, state, action)

    def can_apply(self, action: Action) -> bool:
        try:
            self.verify(action)
        except IllegalAction:
            return False
        return True

    def undo(self, seat: int | None = None) -> Action:
        """Take back the last bajar, agregar or swap of the player whose turn it is (before the
        discard, where the rules allow undo). Returns the action taken back."""
        state = self._state()
        if not self.rules.undo:
            raise IllegalAction("undo_off", "these rules do not allow undo")
        if seat is not None and seat != state.current:
            raise IllegalAction("not_your_turn", f"only {self.players[state.current]} may undo "
                                                 "now, in their own turn")
        if not self._undo or state.phase != "play":
            raise IllegalAction("nothing_to_undo", "there is nothing in this turn to take back")
        self._round = self._undo.pop()
        self._public.pop()
        return self.log[-1].pop()

    def buyers(self) -> list[int]:
        """The seats that may buy the pozo top now, in the order of their claim: the nearest
        in turn order after the player who is to draw comes first (ruling 19)."""
        state = self._round
        if state is None or self.rules.buying == "off" or state.phase != "draw":
            return []
        first = state.current
        seats = sorted(range(self.n), key=lambda s: (s - first) % self.n)
        return [s for s in seats if self._buy_problem(state, s) is None]

    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` may take back a move now (its own turn, under ``undo`` rules)."""
        state = self._round
        return bool(self.rules.undo and self._undo and state is not None
                    and state.phase == "play" and state.current == seat)

    # ----------------------------------------------------------------- legal actions

    def legal_actions(self, seat: int) -> LegalActions:
        """What ``seat`` may do now (possibly nothing)."""
        state = self._round
        items: list[Action] = []
        if state is not None and not self._over and state.phase in ("draw", "play"):
            if seat == state.current:
                if state.phase == "draw":
                    if self._mazo_drawable(state):
                        items.append(draw_action(seat, "mazo"))
                    if state.pozo:
                        items.append(draw_action(seat, "pozo"))
                else:
                    items = self._play_actions(state, seat)
            elif self._buy_problem(state, seat) is None:
                items.append(Buy(seat))
        return LegalActions(self, items)

    def _play_actions(self, state: _Round, seat: int) -> list[Action]:
        hand = state.hands[seat]
        distinct = list(dict.fromkeys(hand))
        items: list[Action] = []
        if not state.down[seat]:
            items.extend(self._bajar_options(state, seat))
        if self._may_layoff(state, seat) is None:
            items.extend(self._agregar_options(state, seat, distinct))
        if self.rules.joker_replacement != "off":
            items.extend(self._swap_options(state, seat, distinct))
        if len(hand) == 1:
            may_discard = self._may_go_out(state, seat) is None
        else:
            may_discard = not (state.laid_this_turn and state.definition.go_out_at_once)
        if may_discard:
            discards = _DISCARDS[seat]
            items.extend([discards[c] for c in distinct])
        return items

    def _agregar_options(self, state: _Round, seat: int, distinct: list[Card]) -> list[Action]:
        # The turn and lay-off checks hold for every candidate: only the fit and what is left
        # in hand remain to be checked for each.
        rules = self.rules
        hand = state.hands[seat]
        items: list[Action] = []
        if len(hand) == 1 and not rules.go_out_by_layoff:
            return items
        strict = rules.wild_limit_on_layoff
        at_once = state.definition.go_out_at_once and state.laid_this_turn
        for index, meld in enumerate(state.melds):
            for end in _ends(meld, rules):
                for card in distinct:
                    grown = meld.grown(card, end, rules, limit=strict)
                    if grown is None:
                        continue
                    if at_once:
                        rest = list(hand)
                        rest.remove(card)
                        table = [*state.melds[:index], grown, *state.melds[index + 1:]]
                        if not can_shed(rest, table, rules, 1, swaps=self._swaps_shed()):
                            continue
                    items.append(Agregar(seat, card, index, end))
        return items

    def _bajar_options(self, state: _Round, seat: int) -> list[Action]:
        hand = state.hands[seat]
        options: list[Action] = []
        seen: set[tuple[tuple[Card, ...], ...]] = set()
        for specs in self._bajar_spec_choices(state, seat):
            contract = Contract(specs)
            for arrangement in contract_arrangements(hand, specs, self.rules, limit=6):
                for melds in (arrangement, extend_arrangement(arrangement, contract, hand,
                                                              self.rules)):
                    if melds in seen:
                        continue
                    seen.add(melds)
                    action = Bajar(seat, melds)
                    if self.can_apply(action):
                        options.append(action)
        return options

    def _bajar_spec_choices(self, state: _Round, seat: int) -> list[tuple[MeldSpec, ...]]:
        owed = state.owed[seat]
        choices = [tuple(r) for r in owed if r]
        if self._partial_allowed(state):
            singles = {(spec,) for r in owed for spec in r}
            choices.extend(s for s in singles if s not in choices)
        return list(dict.fromkeys(choices))

    def _swap_options(self, state: _Round, seat: int, distinct: list[Card]) -> list[Action]:
        items: list[Action] = []
        if self.rules.joker_replacement != "anyone" and self._may_layoff(state, seat):
            return items
        for index, meld in enumerate(state.melds):
            if not meld.wild_count:
                continue
            for card in distinct:
                if meld.wild_index_for(card) is None:
                    continue
                ends: tuple[Any, ...] = (None,)
                if _relocates(self.rules, meld, None):
                    ends = ("low", "high")
                for end in ends:
                    action = Swap(seat, card, index, end)
                    if self.can_apply(action):
                        items.append(action)
        return items

    # ----------------------------------------------------------------- view

    def view(self, seat: int | None) -> View:
        """What ``seat`` may see now: its own hand, the table, counts of the others' cards
        (their cards too under open hands), and the public log. ``None``: a spectator."""
        return self._view(seat, reveal=self.rules.open_hands)

    def open_view(self) -> View:
        """A spectator's view with every hand face up: for replaying a record (whose reader
        holds every deal anyway) and for teaching. Never for a seat of a game being played."""
        return self._view(None, reveal=True)

    def _view(self, seat: int | None, *, reveal: bool) -> View:
        state = self._round
        if state is None:
            raise IllegalAction("no_round", "no round has been dealt yet")
        rules = self.rules
        definition = state.definition
        hand = tuple(state.hands[seat]) if seat is not None else None
        opened = tuple(tuple(h) for h in state.hands) if reveal else None
        return View(
            seat=seat, players=self.players, round=state.number,
            rounds=max(len(rules.rounds), state.number), contract=_round_text(definition),
            contract_words=_round_words(definition),
            hand_size=definition.hand_size, go_out_at_once=definition.go_out_at_once,
            dealer=(state.number - 1) % self.n, to_act=self.seat_to_act, phase=self.phase,
            hand=hand, hand_counts=tuple(len(h) for h in state.hands), open_hands=opened,
            melds=tuple(state.melds), pozo=tuple(state.pozo), mazo_count=len(state.mazo),
            down=tuple(state.down), buys=tuple(state.buys),
            buy_window=state.window_open and state.phase == "draw",
            log=self._public_log(), sheet=self.score_sheet(),
            known=tuple(tuple(k) for k in state.known), turn=state.turn,
            laid_this_turn=state.laid_this_turn, down_turn=tuple(state.down_turn),
            first_bajar_turn=tuple(state.first_bajar_turn),
            owed=tuple(tuple(_owed_text(tuple(a)) for a in o) for o in state.owed),
            steals=tuple(state.steals), last_discarder=state.last_discarder,
            reshuffles=state.reshuffles,
            reshuffles_left=None if rules.max_reshuffles is None
            else max(0, rules.max_reshuffles - state.reshuffles),
        )

    def _public_log(self) -> tuple[dict[str, Any], ...]:
        # Actions carry no hidden card: a mazo draw or a buy's penalty card is not named.
        return tuple(self._public)

    # ----------------------------------------------------------------- verify: draw & buy

    def _who(self, seat: int) -> str:
        return self.players[seat]

    def _check_turn(self, state: _Round, seat: int, phase: Phase) -> None:
        if seat != state.current:
            raise IllegalAction("not_your_turn", f"it is {self._who(state.current)}'s turn, "
                                                 f"not {self._who(seat)}'s")
        if state.phase != phase:
            if phase == "draw":
                raise IllegalAction("drawn_already", f"{self._who(seat)} has drawn already: "
                                                     "now bajarse, agregar or discard a card")
            raise IllegalAction("draw_first", f"{self._who(seat)} must first draw a card from "
                                              "the mazo or the pozo")

    def _verify_draw(self, state: _Round, action: Draw) -> None:
        self._check_turn(state, action.seat, "draw")
        if action.source == "pozo" and not state.pozo:
            raise IllegalAction("pozo_empty", "the pozo is empty: draw from the mazo")
        if action.source == "mazo" and not self._mazo_drawable(state):
            raise IllegalAction("mazo_empty", "the mazo is empty: draw from the pozo")

    def _do_draw(self, state: _Round, action: Draw) -> None:
        if action.source == "mazo":
            self._ensure_mazo(state)
        pile = state.mazo if action.source == "mazo" else state.pozo
        card = pile.pop()
        state.hands[action.seat].append(card)
        if action.source == "pozo":
            state.known[action.seat].append(card)
        state.phase = "play"
        state.window_open = False
        state.laid_this_turn = False
        self._undo.clear()

    def _buy_problem(self, state: _Round, seat: int) -> str | None:
        rules = self.rules
        if rules.buying == "off":
            return "these rules do not allow buying from the pozo"
        if seat == state.current and state.phase == "play":
            return (f"it is {self._who(seat)}'s turn and they have drawn already: the "
                    "player whose turn it is buys nothing")
        if seat == state.current:
            return (f"it is {self._who(seat)}'s turn: take the pozo card by drawing it, "
                    "no need to buy")
        if not state.window_open or state.phase != "draw":
            if state.phase == "draw" and self.log and self.log[-1] \
                    and isinstance(self.log[-1][-1], Buy):
                return "that discard was bought already: one card can be bought per discard"
            return ("a card can be bought only after a discard and before the next player "
                    "draws")
        if seat == state.last_discarder:
            return f"{self._who(seat)} cannot buy the card they just discarded"
        if not state.pozo:
            return "the pozo is empty"
        if rules.max_buys_per_round == 0:
            return "these rules allow no buys in a round (max_buys_per_round is 0)"
        if state.buys[seat] >= rules.max_buys_per_round:
            times = "once" if state.buys[seat] == 1 else f"{state.buys[seat]} times"
            return f"{self._who(seat)} has bought {times} this round, the most the rules allow"
        return None

    def _verify_buy(self, state: _Round, action: Buy) -> None:
        problem = self._buy_problem(state, action.seat)
        if problem is not None:
            raise IllegalAction("cannot_buy", problem)

    def _do_buy(self, state: _Round, action: Buy) -> None:
        seat = action.seat
        card = state.pozo.pop()
        state.hands[seat].append(card)
        state.known[seat].append(card)
        state.buys[seat] += 1
        state.window_open = False
        if self.rules.buying == "penalty_points":
            state.steals[seat] += 1
        elif self._ensure_mazo(state):  # else no penalty card (ruling 20)
            state.hands[seat].append(state.mazo.pop())
        if not self._mazo_drawable(state):
            # No mazo to draw from, nor a pozo to rebuild it: the round ends before the next
            # draw (ruling 21).
            self._end_round(state, None)

    # ----------------------------------------------------------------- verify: bajar

    def _partial_allowed(self, state: _Round) -> bool:
        return self.rules.partial_contracts and not state.definition.go_out_at_once

    def _verify_bajar(self, state: _Round, action: Bajar) -> None:
        seat = action.seat
        self._check_turn(state, seat, "play")
        if state.down[seat]:
            raise IllegalAction("already_down", f"{self._who(seat)} has laid the whole contract "
                                                "down already: now agregar")
        rest = _without(state.hands[seat], action.cards, self._who(seat))
        melds, remaining = self._match_contract(state, seat, action)
        complete = any(not r for r in remaining)
        if not complete and len(rest) < 2:
            raise IllegalAction("keep_cards", "a part of the contract may not leave fewer than "
                                              "two cards in hand (you could not go out)")
        if not rest and not self.rules.go_out_by_layoff:
            raise IllegalAction("keep_one", "keep one card back: these rules go out only by "
                                            "discarding the last card")
        if state.definition.go_out_at_once and complete:
            keep = 1
            table = [*state.melds, *melds]
            if not can_shed(rest, table, self.rules, keep, swaps=self._swaps_shed()):
                raise IllegalAction(
                    "must_go_out", "in this round whoever bajarse must go out in the same turn "
                                   "(meld, lay off and discard): these cards could not all go: "
                                   + " ".join(str(c) for c in sorted(rest)))

    def _match_contract(self, state: _Round, seat: int, action: Bajar
                        ) -> tuple[list[Meld], list[list[MeldSpec]]]:
        """Read the melds against what the seat still owes; returns the melds and what each
        contract alternative would still owe afterwards (those the melds fit)."""
        rules = self.rules
        partial = self._partial_allowed(state)
        first_reason = ""
        results: list[list[MeldSpec]] = []
        best: list[Meld] | None = None
        for owed in state.owed[seat]:
            if not partial and len(action.melds) != len(owed):
                first_reason = first_reason or _count_reason(len(action.melds), owed)
                continue
            try:
                melds, left = _assign(action.melds, owed, rules, seat)
            except MeldError as exc:
                first_reason = first_reason or str(exc)
                continue
            if not partial and left:
                continue
            results.append(left)
            best = best or melds
        if best is None:
            contract = " or ".join(Contract(tuple(o)).words() for o in state.owed[seat])
            raise IllegalAction("not_the_contract",
                                f"that is not the contract ({contract}): {first_reason}")
        return best, results

    def _do_bajar(self, state: _Round, action: Bajar) -> None:
        seat = action.seat
        melds, remaining = self._match_contract(state, seat, action)
        hand = state.hands[seat]
        for c in action.cards:
            hand.remove(c)
            _forget(state, seat, c)
        state.melds.extend(melds)
        state.owed[seat] = [list(r) for r in remaining]
        if state.first_bajar_turn[seat] < 0:
            state.first_bajar_turn[seat] = state.turn
        if any(not r for r in remaining):
            state.down[seat] = True
            state.down_turn[seat] = state.turn
        state.laid_this_turn = True
        if not hand:
            self._went_out(state, seat)

    # ----------------------------------------------------------------- verify: agregar & swap

    def _may_layoff(self, state: _Round, seat: int, swap: bool = False) -> str | None:
        """Why ``seat`` may not put cards on the table melds now (None: it may); ``swap``: the
        card swaps a wild card out, which keeps the timing of agregar (ruling 11)."""
        doing, do = (("swapping a wild card out", "swap a wild card out") if swap
                     else ("adding to melds", "agregar"))
        if not state.down[seat]:
            return f"{self._who(seat)} must lay down the whole contract before {doing}"
        same_turn = state.down_turn[seat] == state.turn
        if same_turn and not (self.rules.layoff_same_turn or state.definition.go_out_at_once):
            return (f"{self._who(seat)} cannot {do} in the turn they lay down their contract; "
                    "from the next turn on")
        return None

    def _verify_agregar(self, state: _Round, action: Agregar) -> None:
        seat = action.seat
        self._check_turn(state, seat, "play")
        problem = self._may_layoff(state, seat)
        if problem:
            raise IllegalAction("cannot_agregar", problem)
        rest = _without(state.hands[seat], (action.card,), self._who(seat))
        grown = self._grown(state, action)
        self._check_leftover(state, seat, rest, state.melds, action.meld, grown)

    def _grown(self, state: _Round, action: Agregar) -> Meld:
        meld = self._meld(state, action.meld)
        try:
            return meld.extended(action.card, action.end, self.rules,
                                 limit=self.rules.wild_limit_on_layoff)
        except MeldError as exc:
            raise IllegalAction("does_not_fit", f"{action.card} cannot go on meld "
                                                f"{action.meld}: {exc}") from None

    def _meld(self, state: _Round, index: int) -> Meld:
        if not 0 <= index < len(state.melds):
            raise IllegalAction("no_such_meld", f"there is no meld {index} on the table "
                                                f"({len(state.melds)} melds, numbered from 0)")
        return state.melds[index]

    def _swaps_shed(self) -> bool:
        """Whether going out at once may swap wild cards out on the way (ruling 12: in those
        rounds a swap keeps the timing of agregar, so it may follow the bajar)."""
        return self.rules.joker_replacement != "off"

    def _check_leftover(self, state: _Round, seat: int, rest: list[Card], melds: list[Meld],
                        index: int, grown: Meld) -> None:
        if not rest and not self.rules.go_out_by_layoff:
            raise IllegalAction("keep_one", "keep one card back: these rules go out only by "
                                            "discarding the last card")
        if state.definition.go_out_at_once and state.laid_this_turn:
            table = [*melds[:index], grown, *melds[index + 1:]]
            if not can_shed(rest, table, self.rules, 1, swaps=self._swaps_shed()):
                raise IllegalAction("must_go_out", "this would leave cards you cannot get rid "
                                                   "of; in this round you must go out now")

    def _do_agregar(self, state: _Round, action: Agregar) -> None:
        grown = self._grown(state, action)
        state.melds[action.meld] = grown
        hand = state.hands[action.seat]
        hand.remove(action.card)
        _forget(state, action.seat, action.card)
        if not hand:
            self._went_out(state, action.seat)

    def _verify_swap(self, state: _Round, action: Swap) -> None:
        seat = action.seat
        self._check_turn(state, seat, "play")
        mode = self.rules.joker_replacement
        if mode == "off":
            raise IllegalAction("swap_off", "these rules do not allow swapping a wild card out")
        if mode != "anyone":
            problem = self._may_layoff(state, seat, swap=True)
            if problem:
                raise IllegalAction("cannot_swap", problem)
        rest = _without(state.hands[seat], (action.card,), self._who(seat))
        new_meld, wild, to_hand = self._swapped(state, action)
        if to_hand:
            rest.append(wild)
        self._check_leftover(state, seat, rest, state.melds, action.meld, new_meld)

    def _swapped(self, state: _Round, action: Swap) -> tuple[Meld, Card, bool]:
        """The meld after the swap, the wild taken out, and whether it goes to the hand."""
        meld = self._meld(state, action.meld)
        index = meld.wild_index_for(action.card)
        if index is None:
            raise IllegalAction("no_wild_for_card",
                                f"no wild card in meld {action.meld} stands for {action.card}")
        swapped, wild = meld.swapped(action.card, index)
        if not _relocates(self.rules, meld, action.end):
            return swapped, wild, True
        try:
            swapped = swapped.extended(wild, action.end, self.rules, limit=False)
        except MeldError as exc:
            raise IllegalAction("cannot_relocate", f"the wild card cannot move to that end: "
                                                   f"{exc}") from None
        return swapped, wild, False

    def _do_swap(self, state: _Round, action: Swap) -> None:
        new_meld, wild, to_hand = self._swapped(state, action)
        hand = state.hands[action.seat]
        hand.remove(action.card)
        _forget(state, action.seat, action.card)
        state.melds[action.meld] = new_meld
        if to_hand:
            hand.append(wild)
            state.known[action.seat].append(wild)
        if not hand:
            self._went_out(state, action.seat)

    # ----------------------------------------------------------------- verify: discard

    def _may_go_out(self, state: _Round, seat: int) -> str | None:
        if not state.down[seat]:
            return f"{self._who(seat)} cannot go out before the whole contract is down"
        return None

    def _verify_discard(self, state: _Round, action: Discard) -> None:
        seat = action.seat
        self._check_turn(state, seat, "play")
        hand = state.hands[seat]
        if action.card not in hand:
            raise IllegalAction("card_not_in_hand", f"{self._who(seat)} has no {action.card}")
        if len(hand) == 1:
            problem = self._may_go_out(state, seat)
            if problem:
                raise IllegalAction("cannot_go_out", problem)
        elif state.laid_this_turn and state.definition.go_out_at_once and state.down[seat]:
            raise IllegalAction("must_go_out", "in this round whoever bajarse must go out in the "
                                               "same turn: lay off the other cards first")

    def _do_discard(self, state: _Round, action: Discard) -> None:
        seat = action.seat
        hand = state.hands[seat]
        hand.remove(action.card)
        _forget(state, seat, action.card)
        state.pozo.append(action.card)
        if not hand:
            self._went_out(state, seat)
            return
        state.current = (seat + 1) % self.n
        state.turn += 1
        state.phase = "draw"
        state.laid_this_turn = False  # it tells of the player to act: a new turn, a new player
        state.last_discarder = seat
        state.window_open = self.rules.buying != "off"
        self._undo.clear()
        self._start_turn(state)

    # ----------------------------------------------------------------- the mazo

    def _start_turn(self, state: _Round) -> None:
        # A round that could go on forever must end: see docs/rulings.md (round caps).
        if state.turn >= self.rules.max_turns_per_round or not self._mazo_drawable(state):
            self._end_round(state, None)

    def _mazo_drawable(self, state: _Round) -> bool:
        """Whether a card can come from the mazo: it holds one, or the pozo can rebuild it."""
        cap = self.rules.max_reshuffles
        return bool(state.mazo) or (len(state.pozo) >= 2
                                    and (cap is None or state.reshuffles < cap))

    def _ensure_mazo(self, state: _Round) -> bool:
        """Rebuild an empty mazo from the pozo but its top card; False if it cannot be. It is
        rebuilt only when a card must come from it (a draw, a buy's penalty card), as at the
        table: a buy just after the mazo ran out takes the pozo top first (ruling 20)."""
        if state.mazo:
            return True
        if not self._mazo_drawable(state):
            return False
        top = state.pozo.pop()
        state.mazo = state.pozo
        state.rng.shuffle(state.mazo)
        state.pozo = [top]
        state.reshuffles += 1
        return True

    # ----------------------------------------------------------------- end of round & game

    def _went_out(self, state: _Round, seat: int) -> None:
        self._end_round(state, seat)

    def _end_round(self, state: _Round, went_out: int | None) -> None:
        rules = self.rules
        instant = went_out is not None and state.first_bajar_turn[went_out] == state.turn
        scores = []
        for seat, hand in enumerate(state.hands):
            if rules.scoring == "rounds":
                scores.append(1 if seat == went_out else 0)
                continue
            if seat == went_out:
                score = rules.out_points(instant)
            else:
                score = sum(rules.value(c) for c in hand)
            if rules.buying == "penalty_points":
                score += rules.steal_points * state.steals[seat]
            scores.append(score)
        self.results.append(RoundResult(state.number, went_out, tuple(scores), instant,
                                        tuple(tuple(h) for h in state.hands)))
        state.phase = "between"
        state.window_open = False
        self._undo.clear()
        if self._rounds_left() == 0:
            self._over = True
            state.phase = "over"
        elif self.seed is not None:
            self.start_round()

    def _rounds_left(self) -> int:
        played = len(self.results)
        planned = len(self.rules.rounds)
        if played < planned:
            return planned - played
        if self.rules.tie_break != "extra_round":
            return 0
        if played - planned >= self.rules.extra_rounds_cap:
            return 0
        totals = self.score_sheet().totals
        return 1 if len(self._leaders(totals)) > 1 else 0

    @property
    def rounds_planned(self) -> int:
        """Rounds of the rules, plus any extra round a tie has called for so far."""
        return max(len(self.rules.rounds), len(self.results) + (0 if self._over else 1))

    def _leaders(self, totals: Sequence[int]) -> list[int]:
        best = max(totals) if self.rules.scoring == "rounds" else min(totals)
        return [i for i, t in enumerate(totals) if t == best]

    def _winners(self, totals: Sequence[int]) -> tuple[int, ...]:
        leaders = self._leaders(totals)
        if len(leaders) > 1 and self.rules.tie_break == "most_outs":
            outs = Counter(r.went_out for r in self.results if r.went_out is not None)
            most = max(outs[s] for s in leaders)
            leaders = [s for s in leaders if outs[s] == most]
            for r in reversed(self.results):
                if len(leaders) > 1 and r.went_out in leaders:
                    leaders = [r.went_out]
        return tuple(leaders)


# --------------------------------------------------------------------------- helpers

def _sample_hands(view: View, rules: RuleSet, rng: random.Random) -> list[list[Card]]:
    """The seat's hand, the others' hands dealt from the unseen cards, and last the mazo."""
    assert view.seat is not None and view.hand is not None
    n = len(view.players)
    unseen = Counter(deck(*rules.deck_for(n)))
    unseen.subtract(view.hand)
    unseen.subtract(view.pozo)
    for meld in view.melds:
        unseen.subtract(meld.cards)
    fixed: list[list[Card]] = []
    for seat in range(n):
        if seat == view.seat:
            fixed.append(list(view.hand))
        elif view.open_hands is not None:
            fixed.append(list(view.open_hands[seat]))
        else:
            fixed.append(list(view.known[seat]) if view.known else [])
        if seat != view.seat:
            unseen.subtract(fixed[-1])
    if any(k < 0 for k in unseen.values()):
        raise ValueError("the view does not fit these rules' deck")
    pool = sorted(unseen.elements())
    rng.shuffle(pool)
    for seat in range(n):
        while len(fixed[seat]) < view.hand_counts[seat]:
            fixed[seat].append(pool.pop())
    if len(pool) != view.mazo_count:
        raise ValueError("the view does not fit these rules' deck")
    fixed.append(pool)
    return fixed


def _relocates(rules: RuleSet, meld: Meld, end: str | None) -> bool:
    """Whether a swap moves the wild to an end of its escala: where the rules move it and the
    escala has an end free, or where the swap names an end (refused if there is none)."""
    if rules.joker_replacement != "relocate" or meld.kind != "escala":
        return False
    return end is not None or relocates_wild(meld, rules)


def _public_entry(state: _Round, action: Action) -> dict[str, Any]:
    """The log entry everyone sees: the record's action, and for a draw from the pozo or a
    buy the card taken, which was face up (``action`` is verified, the pozo not yet touched)."""
    entry = action.to_json()
    if (isinstance(action, Draw) and action.source == "pozo") or isinstance(action, Buy):
        entry["card"] = str(state.pozo[-1])
    return entry


# A view is made at every step of a bot or a learner; its round's texts never change.
@functools.lru_cache(maxsize=256)
def _round_text(definition: RoundDef) -> str:
    return str(definition)


@functools.lru_cache(maxsize=256)
def _round_words(definition: RoundDef) -> str:
    return " | ".join(c.words() for c in definition.contracts)


@functools.lru_cache(maxsize=256)
def _owed_text(specs: tuple[MeldSpec, ...]) -> str:
    return str(Contract(specs)) if specs else ""


def _forget(state: _Round, seat: int, card: Card) -> None:
    known = state.known[seat]
    if card in known:
        known.remove(card)


def _ends(meld: Meld, rules: RuleSet) -> tuple[Any, ...]:
    if meld.kind == "trio":
        return (None,)
    return meld.open_ends(rules)


def _without(hand: list[Card], cards: Sequence[Card], who: str) -> list[Card]:
    rest = list(hand)
    for c in cards:
        try:
            rest.remove(c)
        except ValueError:
            raise IllegalAction("card_not_in_hand", f"{who} has no {c} to play") from None
    return rest


def _count_reason(given: int, owed: Sequence[MeldSpec]) -> str:
    def melds(n: int) -> str:
        return "1 meld" if n == 1 else f"{n} melds"
    return f"the contract has {melds(len(owed))}, and these are {melds(given)}"


def _assign(groups: Sequence[Sequence[Card]], owed: Sequence[MeldSpec], rules: RuleSet,
            seat: int) -> tuple[list[Meld], list[MeldSpec]]:
    """Match each group of cards to a different owed meld spec; returns the melds (in the
    order given) and the specs still owed. Raises MeldError with the first reason."""
    reason = ""

    def place(i: int, left: list[MeldSpec]) -> tuple[list[Meld], list[MeldSpec]] | None:
        nonlocal reason
        if i == len(groups):
            return [], left
        tried: set[MeldSpec] = set()
        for k, spec in enumerate(left):
            if spec in tried:
                continue
            tried.add(spec)
            try:
                meld = read_meld(groups[i], spec.kind, rules, owner=seat, min_len=spec.min_len,
                                 exact=rules.exact_melds)
            except MeldError as exc:
                if not reason or _is_that_kind(groups[i], spec, rules):
                    # The reason that names the rule broken is the one for the kind of meld
                    # the cards are (a short escala, not "not a trío").
                    reason = str(exc)
                continue
            rest = place(i + 1, left[:k] + left[k + 1:])
            if rest is not None:
                return [meld, *rest[0]], rest[1]
        if not left and not reason:
            reason = "the contract asks for fewer melds"
        return None

    found = place(0, list(owed))
    if found is None:
        raise MeldError(reason or "the melds do not match the contract")
    return found


def _is_that_kind(cards: Sequence[Card], spec: MeldSpec, rules: RuleSet) -> bool:
    try:
        read_meld(cards, spec.kind, rules, min_len=1)
    except MeldError:
        # Natural cards of one suit and several ranks are meant for an escala, even one
        # that breaks a rule of escalas (K-A-2 without wrap, a rank twice): its reason is
        # the escala's, not "a trío is cards of one rank".
        natural = [c for c in cards if not rules.is_wild(c)]
        return spec.kind == "escala" and len({c.suit for c in natural}) == 1 \
            and len({c.rank for c in natural}) > 1
    return True


def _bury_wilds(pozo: list[Card], mazo: list[Card], rules: RuleSet) -> None:
    # A wild card turned up goes face down under the mazo and the next card is turned (German
    # rules: "verdeckt unter den Stapel"); see docs/rulings.md.
    for _ in range(len(mazo)):
        if not (pozo and rules.is_wild(pozo[-1])):
            break
        mazo.insert(0, pozo.pop())
        pozo.append(mazo.pop())


def _deck_difference(have: Counter[Card], want: Counter[Card], packs: int, jokers: int) -> str:
    """Which cards the deal has too many and too few of, so the writer can find the slip (the
    first differing card alone may be the right one, pushed out by a doubled card)."""
    size = packs * (52 + jokers)
    deck_words = (f"{packs} {'pack' if packs == 1 else 'packs'} + {packs * jokers} "
                  f"{'joker' if packs * jokers == 1 else 'jokers'} = {size} cards")

    def listed(cards: list[Card]) -> str:
        shown = [f"{c} ({have[c]}, the deck has {want[c]})" for c in cards[:4]]
        more = f" and {len(cards) - 4} more" if len(cards) > 4 else ""
        return ", ".join(shown) + more

    over = sorted(c for c in have if have[c] > want[c])
    under = sorted(c for c in want if have[c] < want[c])
    parts = ([f"too many {listed(over)}"] if over else []) + \
        ([f"too few {listed(under)}"] if under else [])
    return f"the deal is not the deck of the rules ({deck_words}): {'; '.join(parts)}"


_HANDLERS: dict[type, tuple[Any, Any]] = {
    Draw: (Game._verify_draw, Game._do_draw),
    Buy: (Game._verify_buy, Game._do_buy),
    Bajar: (Game._verify_bajar, Game._do_bajar),
    Agregar: (Game._verify_agregar, Game._do_agregar),
    Swap: (Game._verify_swap, Game._do_swap),
    Discard: (Game._verify_discard, Game._do_discard),
}
