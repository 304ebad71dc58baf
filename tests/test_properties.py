"""Property-based tests (hypothesis): random legal play of every preset keeps the invariants of
RULES.md after every action, and the pure parts (cards, actions, the solver) behave.

Invariants checked after EVERY action of random play:

* every physical card is in exactly one place (hands + pozo + mazo + melds == the deck);
* a seat's view shows only its own hand: the rest of its JSON is the same for every seat and
  for a spectator, and the only cards in it are public ones (melds, pozo, the public log, the
  cards a seat was seen to take); ``open_hands`` is empty unless the rules open the hands;
* (now and then) ``legal_actions`` lists exactly the draws, buys, discards, agregar and swaps
  the rules allow;
* when a round ends, each score follows from the hands at the end and the rules, and the
  totals of the score sheet are the sums of the rounds;
* the game record, through JSON, replays to the same score sheet and the same views (checked
  at random points, and the replayed game then keeps step with the original for a while).
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from carioca import (
    Action,
    Agregar,
    Bajar,
    Buy,
    Card,
    Discard,
    Draw,
    Game,
    IllegalAction,
    RoundResult,
    RuleSet,
    Swap,
    View,
)
from carioca.cards import ALL_CARDS, JOKER, RANKS, SUITS, deck
from carioca.melds import MeldError, read_meld
from carioca.rules import PRESETS, Contract, MeldSpec, RulesError
from carioca.solver import can_meet, contract_arrangements

PRESET_NAMES = sorted(PRESETS)
BUYING = ("off", "penalty_card", "penalty_points")
# Names that can never be read as a card (so the JSON scan below cannot mistake one).
NAMES = ("Ana", "Beto", "Caro", "Dani", "Eli", "Fran")


def seat_counts(name: str) -> range:
    rules = PRESETS[name]
    return range(max(2, rules.min_players), min(6, rules.max_players) + 1)


# House rules that a table may change on top of a preset (RULES.md, "options every preset
# accepts"); a few examples add one or two of them.
HOUSE_RULES: dict[str, tuple[Any, ...]] = {
    "tie_break": ("share", "most_outs", "extra_round"),
    "scoring": ("points", "rounds"),
    "instant_out_score": (-10, 0, None),
    "out_score": (-5, 0),
    "joker_replacement": ("off", "take", "anyone", "relocate"),
    "layoff_same_turn": (True, False),
    "wrap": (True, False),
    "max_wilds_per_meld": (None, 1, 2),
    "steal_points": (0, 5),
    "max_buys_per_round": (1, 5),
}


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, int, dict[str, Any]]:
    """A preset, a number of seats it allows, and options (buying on or off, open hands, now
    and then a house rule or two)."""
    preset = draw(st.sampled_from(PRESET_NAMES))
    players = draw(st.sampled_from(list(seat_counts(preset))))
    options: dict[str, Any] = {}
    buying = draw(st.sampled_from(BUYING))
    if buying != "off":
        options["buying"] = buying
    if draw(st.integers(0, 5)) == 0:
        options["open_hands"] = True
    if draw(st.integers(0, 3)) == 0:
        for name in draw(st.lists(st.sampled_from(sorted(HOUSE_RULES)), min_size=1,
                                  max_size=2, unique=True)):
            options[name] = draw(st.sampled_from(HOUSE_RULES[name]))
    try:
        RuleSet.preset(preset, **options).check_players(players)
    except RulesError:
        assume(False)
    return preset, players, options


# --------------------------------------------------------------------------- random play

PROGRESS = (Bajar, Agregar, Swap)


def choose_action(game: Game, rng: random.Random) -> Action:
    """A seeded random legal action: sometimes another seat's Buy, otherwise one of the legal
    actions of the seat to act (bajar, agregar and swap a bit more often than a plain discard,
    so that rounds are won by going out and not only by the mazo running dry)."""
    seat = game.seat_to_act
    assert seat is not None
    if game.rules.buying != "off" and rng.random() < 0.3:
        buyers = [s for s in range(game.n) if s != seat and Buy(s) in game.legal_actions(s)]
        for s in buyers:
            assert list(game.legal_actions(s)) == [Buy(s)]
        if buyers:
            return Buy(rng.choice(buyers))
    legal = list(game.legal_actions(seat))
    assert legal, f"seat {seat} has no legal action in phase {game.phase}"
    progress = [a for a in legal if isinstance(a, PROGRESS)]
    if progress and rng.random() < 0.6:
        return rng.choice(progress)
    return rng.choice(legal)


# --------------------------------------------------------------------------- invariants

# The only places where a view's JSON may name a card ("*" is any list index). Of these only
# "hand" holds hidden cards; "open_hands" is allowed only under open-hand rules.
PUBLIC_CARD_PATHS = {
    "melds.*.cards.*",
    "melds.*.stands_for",  # an escala's "6H" reads as a card: it is what a wild stands for
    "pozo.*",
    "log.*.discard",
    "log.*.bajar.*.*",
    "log.*.agregar.card",
    "log.*.swap.card",
    "log.*.card",  # the card a draw from the pozo or a buy took: it lay face up
    "known.*.*",  # cards a seat was seen to take (from the pozo, or a wild off the table)
}


def _card_paths(obj: Any, path: tuple[str, ...] = ()) -> Iterator[str]:
    """The paths of every string in ``obj`` that is a card in record notation."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from _card_paths(value, (*path, str(key)))
    elif isinstance(obj, list):
        for value in obj:
            yield from _card_paths(value, (*path, "*"))
    elif isinstance(obj, str):
        try:
            card = Card.parse(obj)
        except ValueError:
            return
        if str(card) == obj:
            shown = path[:-1] if path[-2:-1] == ("stands_for",) else path
            yield ".".join(shown)


def card_paths(view_json: dict[str, Any]) -> set[str]:
    # The log grows through the round: its entries are scanned one kind at a time (their
    # shape does not depend on the cards), which keeps this check cheap.
    head = {k: v for k, v in view_json.items() if k != "log"}
    paths = set(_card_paths(head))
    kinds: dict[str, dict[str, Any]] = {}
    for entry in view_json["log"]:
        kinds.setdefault(next(k for k in entry if k != "p"), entry)
    paths |= set(_card_paths({"log": list(kinds.values())}))
    return paths


def check_cards(game: Game, hands: Sequence[tuple[Card, ...]], view: View) -> None:
    """Every physical card is somewhere exactly once (``view``: what everybody sees)."""
    have: Counter[Card] = Counter()
    for hand in hands:
        have.update(hand)
    have.update(view.pozo)
    for meld in view.melds:
        have.update(meld.cards)
    # The mazo is hidden from every seat, so no view shows it: read the engine's internal
    # state here, and for this invariant only.
    mazo = game._round.mazo  # type: ignore[union-attr]
    assert view.mazo_count == len(mazo)
    have.update(mazo)
    want = Counter(deck(*game.rules.deck_for(game.n)))
    assert have == want, f"cards out of place: extra {have - want}, missing {want - have}"


def check_views(game: Game) -> tuple[list[tuple[Card, ...]], View]:
    """A seat sees its own hand and what is public, and nothing else. Returns the hands and
    the spectator's view."""
    rules = game.rules
    views = [game.view(s) for s in range(game.n)]
    hands = [v.hand for v in views]
    spectator = game.view(None)
    spectator_json = spectator.to_json()
    assert spectator.hand is None and spectator_json["hand"] is None
    public = {k: v for k, v in spectator_json.items() if k not in ("seat", "hand")}
    acting = game.seat_to_act or 0
    for s, view in enumerate(views):
        assert view.seat == s
        assert view.hand is not None
        assert view.hand == game.hand(s)
        assert len(view.hand) == view.hand_counts[s]
        if rules.open_hands:
            assert view.open_hands == tuple(hands)
        else:
            assert view.open_hands is None
        data = view.to_json()
        assert data["hand_counts"] == [len(h) for h in hands]
        assert data["seat"] == s
        assert data["hand"] == [str(c) for c in view.hand]
        # Everything but the seat's own hand is the same for every seat (and a spectator):
        # nothing in it depends on a hidden card.
        assert {k: v for k, v in data.items() if k not in ("seat", "hand")} == public
        if s == acting:
            assert json.loads(json.dumps(data)) == data
            # ... and it names cards only where they are public: the one list of hidden
            # cards is "hand" (and "open_hands", where the rules open them).
            paths = card_paths(data)
            allowed = PUBLIC_CARD_PATHS | {"hand.*"}
            if rules.open_hands:
                allowed.add("open_hands.*.*")
            assert paths <= allowed, f"cards in unexpected places of a view: {paths - allowed}"
    # What a seat was seen to take and still holds is really in its hand.
    for s, known in enumerate(spectator.known):
        assert not Counter(known) - Counter(hands[s]), f"seat {s} is 'known' to hold {known}"
    return hands, spectator


def check_sheet(game: Game) -> None:
    sheet = game.score_sheet()
    rows = [r for r in sheet.rounds if r is not None]
    assert [r.round for r in rows] == list(range(1, len(rows) + 1))
    assert all(r is not None for r in sheet.rounds[:-1])
    totals = [sum(r.scores[s] for r in rows) for s in range(game.n)]
    assert list(sheet.totals) == totals
    assert sheet.finished == game.is_over
    if not game.is_over:
        assert sheet.winners == ()
        return
    assert sheet.winners, "the game is over but nobody won"
    rules = game.rules
    best = max(totals) if rules.scoring == "rounds" else min(totals)
    leaders = {s for s, t in enumerate(totals) if t == best}
    assert set(sheet.winners) <= leaders
    if rules.tie_break != "most_outs":
        assert set(sheet.winners) == leaders


def expected_round_end(game: Game, before_hands: Sequence[tuple[Card, ...]],
                       before_view: View, action: Action, result: RoundResult
                       ) -> tuple[int | None, list[int]]:
    """Who went out and the scores, from the hands seen just before the round's last action,
    the effect of that action, the public log and the rules."""
    rules = game.rules
    hands = [Counter(h) for h in before_hands]
    seat = action.seat
    if isinstance(action, (Discard, Agregar)):
        hands[seat][action.card] -= 1
    elif isinstance(action, Bajar):
        hands[seat].subtract(action.cards)
    elif isinstance(action, Swap):
        meld = before_view.melds[action.meld]
        index = meld.wild_index_for(action.card)
        assert index is not None
        hands[seat][action.card] -= 1
        if not (rules.joker_replacement == "relocate" and meld.kind == "escala"):
            hands[seat][meld.cards[index]] += 1
    elif isinstance(action, Buy):
        # A buy whose penalty card empties a mazo that cannot be rebuilt ends the round
        # (ruling 21). The buyer took the pozo top and, under penalty_card, the mazo's last
        # card, which nobody saw: that one is read from the hands shown at the round's end.
        assert before_view.pozo
        hands[seat][before_view.pozo[-1]] += 1
        if rules.buying == "penalty_card" and before_view.mazo_count:
            penalty = Counter(result.hands[seat]) - hands[seat]
            assert sum(penalty.values()) == 1, f"the buyer's penalty card is {penalty}"
            hands[seat] += penalty
    else:
        pytest.fail(f"the round ended on {action!r}, which plays no card")
    assert all(k >= 0 for h in hands for k in h.values())
    went_out = seat if sum(hands[seat].values()) == 0 else None
    log = [*before_view.log, action.to_json()]
    buys = Counter(e["p"] for e in log if "buy" in e)
    instant = False
    if went_out is not None:
        mine = [i for i, e in enumerate(log) if e["p"] == went_out]
        last_draw = max(i for i in mine if "draw" in log[i])
        first_bajar = min((i for i in mine if "bajar" in log[i]), default=-1)
        instant = first_bajar > last_draw
    if result.hands:
        assert [Counter(h) for h in result.hands] == [+h for h in hands], (
            "the hands shown at the end of the round are not the hands held"
        )
    scores = []
    for s, hand in enumerate(hands):
        if rules.scoring == "rounds":
            scores.append(1 if s == went_out else 0)
            continue
        if s == went_out:
            # ruling 15: an instant out scores instant_out_score where set, else out_score
            apart = rules.instant_out_score
            score = apart if instant and apart is not None else rules.out_score
        else:
            score = sum(rules.value(c) * k for c, k in hand.items())
        if rules.buying == "penalty_points":
            score += rules.steal_points * buys[s]
        scores.append(score)
    return went_out, scores


def check_legal_actions_exact(game: Game) -> None:
    """Iterating ``legal_actions`` lists exactly the draws, buys, discards, agregar and swaps
    that the rules allow now (bajar: only ones that are legal)."""
    seat = game.seat_to_act
    assert seat is not None
    rules = game.rules
    view = game.view(seat)
    assert view.hand is not None
    listed = list(game.legal_actions(seat))
    for other in range(game.n):
        if other != seat:
            assert (Buy(other) in list(game.legal_actions(other))) == game.can_apply(Buy(other))
    candidates: set[Action] = {Draw(seat, "mazo"), Draw(seat, "pozo")}
    for card in set(view.hand):
        candidates.add(Discard(seat, card))
        for index, meld in enumerate(view.melds):
            ends: tuple[Any, ...] = (None,) if meld.kind == "trio" else ("low", "high")
            candidates.update(Agregar(seat, card, index, end) for end in ends)
            relocate = rules.joker_replacement == "relocate" and meld.kind == "escala"
            ends = ("low", "high") if relocate else (None,)
            candidates.update(Swap(seat, card, index, end) for end in ends)
    allowed = {a for a in candidates if game.can_apply(a)}
    shown = {a for a in listed if not isinstance(a, Bajar)}
    assert shown == allowed, (
        f"listed but illegal: {shown - allowed}; legal but not listed: {allowed - shown}"
    )
    for action in listed:
        if isinstance(action, Bajar):
            assert game.can_apply(action), f"{action} is listed but illegal"


def replayed(game: Game) -> Game:
    return Game.from_record(json.loads(json.dumps(game.to_record())))


def assert_same_game(copy: Game, game: Game) -> None:
    assert copy.score_sheet() == game.score_sheet()
    for s in range(game.n):
        assert copy.view(s).to_json() == game.view(s).to_json(), f"seat {s} sees another game"
    assert copy.view(None).to_json() == game.view(None).to_json()
    seat = game.seat_to_act
    if seat is not None:
        assert list(copy.legal_actions(seat)) == list(game.legal_actions(seat))


class Play:
    """Random play of one game, with every invariant checked after every action."""

    def __init__(self, preset: str, players: int, seed: int, options: dict[str, Any],
                 *, replay_every: int = 150) -> None:
        self.rules = RuleSet.preset(preset, **options)
        self.game = Game.new(self.rules, NAMES[:players], seed=seed)
        self.rng = random.Random(seed)
        self.replay_every = replay_every
        self.shadow: Game | None = None
        self.shadow_left = 0
        self.actions = 0
        self.hands, self.public = check_views(self.game)
        check_cards(self.game, self.hands, self.public)

    def run(self, max_actions: int | None) -> None:
        game = self.game
        while not game.is_over and (max_actions is None or self.actions < max_actions):
            self.step()
        if not game.is_over:
            self.check_record()
        else:
            assert game.seat_to_act is None
            assert all(not game.legal_actions(s) for s in range(game.n))
            with pytest.raises(IllegalAction):
                game.apply(Draw(0, "mazo"))
            self.check_record()

    def step(self) -> None:
        game, rng = self.game, self.rng
        if game.rules.undo and game.phase == "play" and rng.random() < 0.05:
            self.try_undo()
        if rng.random() < 0.15:
            check_legal_actions_exact(game)
        before_view = self.public
        before_hands = self.hands
        rounds_before = len(game.results)
        action = choose_action(game, rng)
        assert game.apply(action) == action
        self.actions += 1
        self.hands, self.public = check_views(game)
        hands = self.hands
        check_cards(game, hands, self.public)
        check_sheet(game)
        if len(game.results) > rounds_before:
            assert len(game.results) == rounds_before + 1
            result = game.score_sheet().rounds[rounds_before]
            assert result is not None
            went_out, scores = expected_round_end(game, before_hands, before_view, action, result)
            assert result.went_out == went_out
            assert list(result.scores) == scores, (
                f"round {result.round}: scores {list(result.scores)}, the rules say {scores}"
            )
        else:
            assert all(hands), "a seat has no cards left but the round goes on"
        self.keep_step(action, rounds_before)
        if rng.randrange(self.replay_every) == 0:
            self.check_record()

    def try_undo(self) -> None:
        game = self.game
        seat = game.seat_to_act
        log_before = len(game.view(None).log)
        try:
            taken = game.undo(seat)
        except IllegalAction:
            return
        assert isinstance(taken, PROGRESS)
        assert len(game.view(None).log) == log_before - 1
        self.hands, self.public = check_views(game)
        check_cards(game, self.hands, self.public)
        self.shadow = None

    def check_record(self) -> None:
        copy = replayed(self.game)
        assert_same_game(copy, self.game)
        if self.game.seat_to_act is not None:
            self.shadow, self.shadow_left = copy, 40

    def keep_step(self, action: Action, rounds_before: int) -> None:
        """The replayed game, given the same actions, goes on exactly as the original (its
        mazo and reshuffles are the same)."""
        shadow = self.shadow
        if shadow is None:
            return
        shadow.apply(action)
        game = self.game
        if len(game.results) > rounds_before:
            assert shadow.score_sheet().rounds[:rounds_before + 1] == \
                game.score_sheet().rounds[:rounds_before + 1]
            self.shadow = None
            return
        assert_same_game(shadow, game)
        self.shadow_left -= 1
        if self.shadow_left <= 0:
            self.shadow = None


# --------------------------------------------------------------------------- random play tests

@settings(max_examples=70, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), seed=st.integers(0, 2**32 - 1))
def test_random_play_keeps_invariants(table: tuple[str, int, dict[str, Any]], seed: int) -> None:
    preset, players, options = table
    Play(preset, players, seed, options).run(max_actions=400)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), seed=st.integers(0, 2**32 - 1))
def test_random_full_games_keep_invariants(table: tuple[str, int, dict[str, Any]],
                                           seed: int) -> None:
    preset, players, options = table
    # Rounds end when the mazo first runs out: whole games stay cheap.
    options = {**options, "max_reshuffles": 0}
    play = Play(preset, players, seed, options, replay_every=400)
    play.run(max_actions=None)
    assert play.game.is_over


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_full_game_of_each_preset(preset: str) -> None:
    """One whole game of every preset, with every invariant after every action (the mazo is
    reshuffled once at most, to keep the rounds short)."""
    players = seat_counts(preset)[1]
    play = Play(preset, players, 20240 + players, {"max_reshuffles": 1}, replay_every=300)
    play.run(max_actions=None)
    assert play.game.is_over


# --------------------------------------------------------------------------- actions

@settings(max_examples=40, deadline=None)
@given(table=tables(), seed=st.integers(0, 2**32 - 1))
def test_actions_round_trip(table: tuple[str, int, dict[str, Any]], seed: int) -> None:
    preset, players, options = table
    rules = RuleSet.preset(preset, **options)
    game = Game.new(rules, NAMES[:players], seed=seed)
    rng = random.Random(seed)
    for _ in range(300):
        if game.is_over:
            break
        action = choose_action(game, rng)
        data = action.to_json()
        assert Action.from_json(data) == action
        assert Action.from_json(json.loads(json.dumps(data)), players) == action
        assert Action.parse(str(action), action.seat) == action
        assert Action.parse(str(action).lower(), action.seat) == action
        game.apply(action)


# --------------------------------------------------------------------------- cards

CASES = (str, str.lower, str.upper, str.title, str.swapcase)


@given(card=st.sampled_from(ALL_CARDS), case=st.sampled_from(CASES),
       pad=st.sampled_from(("", " ", "  ")))
def test_card_text_round_trip(card: Card, case: Any, pad: str) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(str(card)) is card
    assert Card.parse(pad + case(str(card)) + pad) == card
    if card.rank == 10:
        assert Card.parse(case("T" + card.suit)) == card
        assert Card.parse(case("t" + card.suit)) == card
    assert Card.parse(card.pretty()) == card


def test_every_card_round_trips() -> None:
    seen = set()
    for card in ALL_CARDS:
        text = str(card)
        seen.add(text)
        assert Card.parse(text) == card
        assert Card.parse(text.lower()) == card
        if card != JOKER:
            assert Card.of(card.rank, card.suit) == card
            assert text == RANKS[card.rank - 1] + card.suit
    assert len(seen) == 53


# --------------------------------------------------------------------------- the solver

def _rule_contracts() -> list[tuple[str, RuleSet, Contract]]:
    out = []
    for name in PRESET_NAMES:
        rules = PRESETS[name]
        seen: set[Contract] = set()
        for rnd in rules.rounds:
            for contract in rnd.contracts:
                if contract not in seen:
                    seen.add(contract)
                    out.append((name, rules, contract))
    red_aces = RuleSet.preset("online", wilds=["jokers", "red_aces"], max_wilds_per_meld=2)
    for text in ("2T", "1T+1E", "2E", "1E+1T"):
        out.append(("online+red_aces", red_aces, Contract.parse(text)))
    return out


RULE_CONTRACTS = _rule_contracts()


@st.composite
def hands_for(draw: st.DrawFn, rules: RuleSet, min_size: int, max_size: int) -> list[Card]:
    """A hand dealt from the rules' deck: from the whole deck, or (to make melds likely) from
    a few neighbouring ranks of one or two suits and the wild cards."""
    full = deck(*rules.deck_for(4))
    style = draw(st.sampled_from(("full", "narrow", "narrow", "run")))
    if style == "full":
        pool = full
    elif style == "narrow":
        suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=2, unique=True))
        low = draw(st.integers(1, 13))
        width = draw(st.integers(3, 6))
        ranks = {(low - 1 + i) % 13 + 1 for i in range(width)}
        pool = [c for c in full
                if rules.is_wild(c) or (c.suit in suits and c.rank in ranks)]
    else:
        # A whole run from the ace to the king (for escala sucia, real and de colores), a few
        # of its cards replaced by others of the deck.
        suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=4, unique=True))
        run = [Card.of(r, suits[r % len(suits)]) for r in range(1, 14)]
        rest = list(full)
        for c in run:
            rest.remove(c)
        swaps = draw(st.lists(st.integers(0, 12), max_size=2, unique=True))
        extra = draw(st.lists(st.integers(0, len(rest) - 1), min_size=len(swaps),
                              max_size=len(swaps) + 1, unique=True))
        hand = [c for i, c in enumerate(run) if i not in swaps] + [rest[i] for i in extra]
        return draw(st.permutations(hand))[:max_size]
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=min(min_size, len(pool)),
                          max_size=min(max_size, len(pool)), unique=True))
    return [pool[i] for i in picks]


@st.composite
def solver_cases(draw: st.DrawFn) -> tuple[str, RuleSet, Contract, list[Card]]:
    name, rules, contract = draw(st.sampled_from(RULE_CONTRACTS))
    hand = draw(hands_for(rules, 3, 14))
    return name, rules, contract, hand


@settings(max_examples=300, deadline=None)
@given(case=solver_cases())
def test_contract_arrangements_are_melds_from_the_hand(
        case: tuple[str, RuleSet, Contract, list[Card]]) -> None:
    _name, rules, contract, hand = case
    in_hand = Counter(hand)
    seen = set()
    for arrangement in itertools.islice(contract_arrangements(hand, contract, rules), 200):
        assert len(arrangement) == len(contract.melds)
        used: Counter[Card] = Counter(c for meld in arrangement for c in meld)
        assert not used - in_hand, f"{arrangement} uses cards the hand lacks: {used - in_hand}"
        for cards, spec in zip(arrangement, contract.melds, strict=True):
            assert len(cards) == spec.min_len
            read_meld(cards, spec.kind, rules, min_len=spec.min_len)  # raises if not a meld
        key = tuple(tuple(sorted(m)) if s.kind == "trio" else m
                    for m, s in zip(arrangement, contract.melds, strict=True))
        assert key not in seen, f"arrangement {arrangement} is yielded twice"
        seen.add(key)
    found = bool(seen)
    assert can_meet(hand, contract, rules) == found


def brute_can_meet(hand: Sequence[Card], specs: Sequence[MeldSpec], rules: RuleSet) -> bool:
    """Whether the hand holds the contract, by trying every split of the cards into melds and
    every order of an escala's cards with ``read_meld``. Melds are tried at their shortest
    length: any longer meld holds one of that length (drop a wild card, or a natural card of a
    trío, or an end of an escala), so this loses nothing."""
    if not specs:
        return True
    spec, rest_specs = specs[0], specs[1:]
    tried: set[tuple[Card, ...]] = set()
    for picked in itertools.combinations(range(len(hand)), spec.min_len):
        cards = tuple(sorted(hand[i] for i in picked))
        if cards in tried:
            continue
        tried.add(cards)
        orders = [cards] if spec.kind == "trio" else sorted(set(itertools.permutations(cards)))
        for order in orders:
            try:
                read_meld(order, spec.kind, rules, min_len=spec.min_len)
            except MeldError:
                continue
            left = [c for i, c in enumerate(hand) if i not in picked]
            if brute_can_meet(left, rest_specs, rules):
                return True
            break
    return False


SMALL_CASES = [
    ("chile", "2T"), ("chile", "1T+1E"), ("dos-libres", "2T"), ("dos-libres", "1T+1E"),
    ("familia", "1T+1E3"), ("familia", "2E3"), ("online", "1E+1T"), ("argentina", "1T+1E"),
]


def _small_rules(name: str) -> RuleSet:
    if name == "online+red_aces":
        return RuleSet.preset("online", wilds=["jokers", "red_aces"])
    return PRESETS[name]


@st.composite
def small_cases(draw: st.DrawFn) -> tuple[RuleSet, Contract, list[Card]]:
    name, text = draw(st.sampled_from([*SMALL_CASES, ("online+red_aces", "1T+1E")]))
    rules = _small_rules(name)
    hand = draw(hands_for(rules, 6, 8).filter(lambda h: 6 <= len(h) <= 8))
    return rules, Contract.parse(text), hand


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(case=small_cases())
def test_can_meet_agrees_with_brute_force(case: tuple[RuleSet, Contract, list[Card]]) -> None:
    rules, contract, hand = case
    expected = brute_can_meet(hand, contract.melds, rules)
    assert can_meet(hand, contract, rules) == expected, (
        f"can_meet({' '.join(map(str, hand))}, {contract}) under {rules.preset_name} says "
        f"{not expected}; the brute force says {expected}"
    )
