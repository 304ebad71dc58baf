"""The combinatorics of contracts: which melds a hand can lay down, and whether what is left
can still be shed. Pure functions of cards and rules, tested alone (against brute force) and
benchmarked (``bench/bench_solver.py``).

* :func:`contract_arrangements`, :func:`can_meet`: the ways to lay the contract, and whether
  there is one (the engine's questions);
* :func:`best_arrangement`: the way that leaves the least penalty in hand (:class:`Plan`);
* :func:`distance`, :func:`missing_cards`, :func:`lacks_at_most`: how many cards the hand
  lacks, which cards would help (the outs) and which it cannot spare (:class:`Distance`);
* :func:`go_out_plan`: whether the player can go out this turn, and how (:class:`Step`);
* :func:`can_shed`, :func:`extend_arrangement`: lay-offs, and melds grown by the hand.

>>> from carioca.rules import RuleSet, Contract
>>> from carioca.cards import parse_cards, format_cards
>>> chile = RuleSet.preset("chile")
>>> hand = parse_cards("7H 7S 7D QS QH JK 2C 5D 9C KD 3S 4S 6H")
>>> arrangement = next(contract_arrangements(hand, Contract.parse("2T"), chile))
>>> [format_cards(m) for m in arrangement]
['7S 7H 7D', 'QS QH JK']
>>> can_meet(parse_cards("7H 7S 2C QS QH 5D"), Contract.parse("2T"), chile)
False
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from typing import Literal, NamedTuple, TypeAlias

from .actions import Action, Agregar, Bajar, Discard, Swap
from .cards import ALL_CARDS, RANKS, Card
from .melds import End, Meld, MeldError, rank_at, read_meld, relocates_wild, wild_limit
from .rules import Contract, MeldKind, MeldSpec, RuleSet

__all__ = [
    "contract_arrangements",
    "can_meet",
    "can_shed",
    "extend_arrangement",
    "best_arrangement",
    "Plan",
    "distance",
    "missing_and_outs",
    "missing_cards",
    "lacks_at_most",
    "Distance",
    "Target",
    "go_out_plan",
    "Step",
]

Arrangement = tuple[tuple[Card, ...], ...]
_BIG = 99


def _counts(cards: Sequence[Card]) -> list[int]:
    counts = [0] * 53
    for c in cards:
        counts[c] += 1
    return counts


def _multisets(codes: Sequence[int], counts: Sequence[int], k: int) -> Iterator[tuple[int, ...]]:
    """Distinct multisets of ``k`` cards among ``codes`` that the counts allow."""
    if k == 0:
        yield ()
        return
    for combo in combinations_with_replacement(codes, k):
        ok = True
        for code in set(combo):
            if combo.count(code) > counts[code]:
                ok = False
                break
        if ok:
            yield combo


def _wild_codes(rules: RuleSet, counts: Sequence[int]) -> list[int]:
    return [code for code in rules.wild_codes if counts[code]]


def _trio_candidates(spec: MeldSpec, counts: list[int], rules: RuleSet
                     ) -> Iterator[tuple[int, ...]]:
    cap = wild_limit("trio", rules)
    cap = _BIG if cap is None else cap
    wilds = _wild_codes(rules, counts)
    all_wild = sum(counts[w] for w in wilds)
    size = spec.min_len
    for rank in range(1, 14):
        c0, c1, c2, c3 = (counts[rank - 1], counts[12 + rank], counts[25 + rank],
                          counts[38 + rank])
        n_nat = c0 + c1 + c2 + c3
        # Cheap test first: most ranks in a hand cannot make a trío at all.
        if not n_nat or n_nat + min(cap, all_wild) < size:
            continue
        naturals = [s * 13 + rank - 1 for s in range(4) if counts[s * 13 + rank - 1]]
        others = [w for w in wilds if w not in naturals]
        n_wild = sum(counts[w] for w in others)
        for k in range(min(size, n_nat), 0, -1):
            need = size - k
            if need > cap or need > n_wild:
                break
            for nat in _multisets(naturals, counts, k):
                for wl in _multisets(others, counts, need):
                    yield nat + wl


def _position_mask(counts: Sequence[int], suit: int, wrap: bool) -> int:
    """Bit p set when the suit's card at escala position p is in hand (ace at 1 and 14)."""
    base = suit * 13
    mask = 0
    for r in range(13):
        if counts[base + r]:
            mask |= 2 << r
    if mask & 2:
        mask |= 1 << 14
    if wrap:
        mask |= (mask & 0x3FFE) << 13
    return mask


def _sequence_candidates(spec: MeldSpec, counts: list[int], rules: RuleSet,
                         substitute: bool = False) -> Iterator[tuple[int, ...]]:
    cap = wild_limit(spec.kind, rules)
    cap = _BIG if cap is None else cap
    length = spec.min_len
    wilds = _wild_codes(rules, counts)
    n_wild = sum(counts[w] for w in wilds)
    room = min(cap, n_wild)
    if spec.kind == "escala":
        starts = range(1, 14) if rules.wrap else range(1, 16 - length)
        full = (1 << length) - 1
        windows: list[tuple[list[int], list[int]]] = []
        for suit in range(4):
            mask = _position_mask(counts, suit, rules.wrap)
            if (mask & 0x7FFE).bit_count() + room < length:
                continue
            base = suit * 13
            for start in starts:
                present = ((mask >> start) & full).bit_count()
                if not present or length - present > room:
                    continue
                need = [base + rank_at(start + i) - 1 for i in range(length)]
                missing = [i for i, code in enumerate(need) if not counts[code]]
                windows.append((need, missing))
                yield from _fill(need, missing, counts, wilds)
        # Then, where a later meld may want them, wild cards in place of natural cards held
        # (after every plain candidate: the first arrangements found are the plain ones).
        if substitute and room:
            for need, missing in windows:
                yield from _fill(need, missing, counts, wilds, room, True, plain=False)
        return
    # sucia, real, colores: the thirteen ranks from the ace to the king
    if spec.kind == "real":
        for suit in range(4):
            need = [suit * 13 + i for i in range(13)]
            missing = [i for i, code in enumerate(need) if not counts[code]]
            if len(missing) <= room and len(missing) < 13:
                yield from _fill(need, missing, counts, wilds)
        return
    if spec.kind == "colores":
        for first_red in (True, False):
            opts = []
            for i in range(13):
                red = first_red == (i % 2 == 0)
                suits = (1, 2) if red else (0, 3)
                opts.append([s * 13 + i for s in suits if counts[s * 13 + i]])
            yield from _free_suit_fill(opts, counts, wilds, room)
        return
    options = [[s * 13 + i for s in range(4) if counts[s * 13 + i]] for i in range(13)]
    yield from _free_suit_fill(options, counts, wilds, room)


def _fill(need: list[int], missing: list[int], counts: list[int], wilds: list[int],
          room: int = 0, substitute: bool = False, plain: bool = True
          ) -> Iterator[tuple[int, ...]]:
    used = list(counts)
    for code in need:
        used[code] -= 1
    # A wild that is also a natural of this escala may already be spoken for.
    free = [w for w in wilds if used[w] > 0] if missing else []
    for wl in _multisets(free, used, len(missing)) if plain else ():
        cand = list(need)
        for i, w in zip(missing, wl, strict=True):
            cand[i] = w
        yield tuple(cand)
        if not missing:
            break
    if not substitute or room <= len(missing):
        return
    # A wild card in the place of a natural card the hand holds: only worth it when a later
    # meld of the contract needs that natural card (a trío of its rank, another escala).
    present = [i for i in range(len(need)) if i not in missing]
    for extra in range(1, min(room - len(missing), len(present) - 1) + 1):
        for swapped in combinations(present, extra):
            back = list(used)
            for i in swapped:
                back[need[i]] += 1
            places = sorted((*missing, *swapped))
            pool = [w for w in wilds if back[w] > 0]
            for wl in _multisets(pool, back, len(places)):
                cand = list(need)
                for i, w in zip(places, wl, strict=True):
                    cand[i] = w
                if any(cand[i] == need[i] for i in swapped):
                    continue  # that is the natural card itself: the plain candidate
                yield tuple(cand)


def _free_suit_fill(options: list[list[int]], counts: list[int], wilds: list[int], room: int
                    ) -> Iterator[tuple[int, ...]]:
    # One card per rank, any of the allowed suits; the first available suit is enough, since
    # the other suits of the rank are interchangeable for the meld.
    missing = [i for i, opts in enumerate(options) if not opts]
    if len(missing) > room or len(missing) == len(options):
        return
    need = [opts[0] if opts else -1 for opts in options]
    used = list(counts)
    for code in need:
        if code >= 0:
            used[code] -= 1
    free = [w for w in wilds if used[w] > 0]
    for wl in _multisets(free, used, len(missing)):
        cand = list(need)
        for i, w in zip(missing, wl, strict=True):
            cand[i] = w
        yield tuple(cand)


def _candidates(spec: MeldSpec, counts: list[int], rules: RuleSet, substitute: bool = False
                ) -> Iterator[tuple[int, ...]]:
    if spec.kind == "trio":
        return _trio_candidates(spec, counts, rules)
    return _sequence_candidates(spec, counts, rules, substitute)


_RANK_INDEX = tuple(code % 13 if code < 52 else 13 for code in range(53))  # 13: the joker
_SUIT_INDEX = tuple(code // 13 for code in range(53))  # 4: the joker
_POSITION_BIT = tuple(2 << (code % 13) if code < 52 else 0 for code in range(53))


def _hopeless(hand: Sequence[Card], specs: Sequence[MeldSpec], rules: RuleSet) -> bool:
    """A cheap test that proves most hands cannot meet the contract: the tríos alone, or the
    escalas alone, would already need more wild cards than the hand holds. (It never rejects
    a hand that can: wild twos and aces are counted both as wilds and as naturals.)"""
    is_wild = rules._wild_by_code
    by_rank = [0] * 14
    by_suit = [0] * 5
    masks = [0] * 5
    wilds = 0
    for c in hand:
        by_rank[_RANK_INDEX[c]] += 1
        suit = _SUIT_INDEX[c]
        by_suit[suit] += 1
        masks[suit] |= _POSITION_BIT[c]
        if is_wild[c]:
            wilds += 1
    trios = 0
    escalas = 0
    length = 13
    for spec in specs:
        if spec.kind == "trio":
            trios += 1
        elif spec.kind == "escala":
            escalas += 1
            length = min(length, spec.min_len)
    if trios and _trio_wilds_needed(by_rank, trios, wild_limit("trio", rules)) > wilds:
        return True
    if escalas:
        cap = wild_limit("escala", rules)
        room = wilds if cap is None else min(cap, wilds)
        upper = 0
        for suit in range(4):
            in_suit = by_suit[suit]
            if in_suit + room >= length and _has_window(masks[suit], length, room, rules.wrap):
                upper += (in_suit + wilds) // length
        if upper < escalas:
            return True
    return False


def _has_window(mask: int, length: int, room: int, wrap: bool) -> bool:
    """Whether some run of ``length`` escala positions misses at most ``room`` cards."""
    if mask & 2:
        mask |= 1 << 14
    if wrap:
        mask |= (mask & 0x3FFE) << 13
    full = (1 << length) - 1
    need = length - room
    last = 14 if wrap else 16 - length
    for start in range(1, last):  # noqa: SIM110 - a plain loop: this runs for every hand
        if ((mask >> start) & full).bit_count() >= need:
            return True
    return False


def _trio_wilds_needed(by_rank: list[int], trios: int, cap: int | None) -> int:
    if cap is not None and cap <= 1:
        return _trio_wilds_needed_strict(by_rank, trios, cap)
    return _trio_wilds_needed_any(by_rank, trios, cap)


def _trio_wilds_needed_strict(by_rank: list[int], trios: int, cap: int) -> int:
    # With at most one wild per trío, a rank of n cards gives n // 3 tríos free, and one more
    # for a wild when n % 3 == 2, or for two wilds (one in each of two tríos) when n % 3 == 1
    # and n >= 4. Nothing else is possible, so the cheapest choice is easy to count.
    free = ones = twos = 0
    for n in by_rank[:13]:
        if n:
            free += n // 3
            rest = n % 3
            if rest == 2:
                ones += 1
            elif rest == 1 and n >= 4:
                twos += 1
    short = trios - free
    if short <= 0:
        return 0
    if cap == 0:
        return _BIG
    if short <= ones:
        return short
    if short > ones + twos:
        return _BIG
    return ones + 2 * (short - ones)


def _trio_wilds_needed_any(by_rank: list[int], trios: int, cap: int | None) -> int:
    # Making m tríos from n cards of a rank needs 3m - n wilds; the marginal cost of one more
    # trío of a rank only grows, so the cheapest ``trios`` marginal costs add up to the least.
    costs: list[int] = []
    for n in by_rank[:13]:
        prev = 0
        for m in range(1, min(n, trios) + 1):
            need = 3 * m - n if 3 * m > n else 0
            if cap is not None and need > cap * m:
                break
            costs.append(need - prev)
            prev = need
    if len(costs) < trios:
        return _BIG
    costs.sort()
    return sum(costs[:trios])


def contract_arrangements(hand: Sequence[Card], contract: Contract | Sequence[MeldSpec],
                          rules: RuleSet, *, limit: int | None = None) -> Iterator[Arrangement]:
    """Every way (up to ``limit``) to lay the contract's melds from ``hand``, each meld at its
    shortest length, in the contract's order. Identical melds are not repeated in another
    order. An escala puts a natural card wherever the hand holds it; only when that gives no
    way at all come the ways with a wild card in the place of a natural card the hand holds
    (which another meld of the contract needs: ``2S 3S 4S 5S 6S 2H 4H`` with twos wild lays
    ``4S 4H 2H`` and ``3S 2S 5S 6S``)."""
    specs = list(contract.melds if isinstance(contract, Contract) else contract)
    if not specs:
        return
    # Sequences first: they are the most constrained, so dead ends show up early.
    order = sorted(range(len(specs)), key=lambda i: (specs[i].kind == "trio", i))
    if _hopeless(hand, specs, rules):
        return
    counts = _counts(hand)
    chosen: list[tuple[int, ...]] = [()] * len(specs)
    found = 0
    last = len(order) - 1
    substitute = False

    def search(depth: int, floor: tuple[int, ...] | None) -> Iterator[Arrangement]:
        nonlocal found
        if depth == len(order):
            found += 1
            yield tuple(tuple(ALL_CARDS[c] for c in chosen[i]) for i in range(len(specs)))
            return
        index = order[depth]
        spec = specs[index]
        same_as_prev = depth > 0 and specs[order[depth - 1]] == spec
        for cand in _candidates(spec, counts, rules, substitute and depth < last):
            key = tuple(sorted(cand))
            if same_as_prev and floor is not None and key < floor:
                continue
            if any(counts[c] < cand.count(c) for c in set(cand)):
                continue
            for c in cand:
                counts[c] -= 1
            chosen[index] = cand
            yield from search(depth + 1, key)
            for c in cand:
                counts[c] += 1
            if limit is not None and found >= limit:
                return

    substitute = False
    yield from search(0, None)
    if (not found and any(counts[w] for w in rules.wild_codes)
            and can_meet(hand, Contract(tuple(specs)), rules)):
        substitute = True
        yield from search(0, None)


def can_meet(hand: Sequence[Card], contract: Contract, rules: RuleSet) -> bool:
    """Whether the hand holds the contract: a counting test settles most hands, the search of
    :func:`distance` (whether no card is missing) the others."""
    specs = contract.melds
    if not specs or _hopeless(hand, specs, rules):
        return False
    counts = _counts(hand)
    found, _, _ = _nearest(specs, counts, rules, False, 1, 0)
    return found == 0


def extend_arrangement(arrangement: Arrangement, contract: Contract, hand: Sequence[Card],
                       rules: RuleSet) -> Arrangement:
    """The arrangement with each meld lengthened by the natural cards left in hand that fit
    (trío: more of its rank; escala: the next cards at either end), so fewer are left."""
    counts = _counts(hand)
    for meld in arrangement:
        for c in meld:
            counts[c] -= 1
    out = []
    for cards, spec in zip(arrangement, contract.melds, strict=True):
        grown = list(cards)
        if spec.kind == "trio":
            try:
                rank = read_meld(cards, "trio", rules).rank
            except MeldError:
                out.append(tuple(grown))
                continue
            for s in range(4):
                code = s * 13 + rank - 1
                while counts[code] and not rules.is_wild(ALL_CARDS[code]):
                    grown.append(ALL_CARDS[code])
                    counts[code] -= 1
        elif spec.kind == "escala":
            grown = _grow_escala(grown, counts, rules)
        out.append(tuple(grown))
    return tuple(out)


def _grow_escala(cards: list[Card], counts: list[int], rules: RuleSet) -> list[Card]:
    try:
        meld = read_meld(cards, "escala", rules, min_len=1)
    except MeldError:
        return cards
    changed = True
    while changed:
        changed = False
        for end in meld.open_ends(rules):
            pos = meld.start - 1 if end == "low" else meld.start + len(meld.cards)
            want = Card.of(rank_at(pos), meld.suit)
            if counts[want] and not rules.is_wild(want):
                meld = meld.extended(want, end, rules)
                counts[want] -= 1
                changed = True
                break
    return list(meld.cards)


def can_shed(rest: Sequence[Card], melds: Sequence[Meld], rules: RuleSet, keep: int,
             *, swaps: bool = False) -> bool:
    """Whether ``rest`` can be laid off onto ``melds`` until at most ``keep`` cards are left
    (one for the last discard, or none when going out by laying off). With ``swaps``, a
    natural card may also take a wild card's place, as the rules' ``joker_replacement`` says
    (the wild card comes to the hand, or moves to an end of its escala under ``relocate``)."""
    relocate = swaps and rules.joker_replacement == "relocate"
    tried: set[tuple[tuple[Card, ...], tuple[Meld, ...]]] = set()
    if sum(not _may_fit(card, melds, rules) for card in rest) > keep:
        return False  # those cards fit no meld whatever happens: no need to search

    def shed(rest: list[Card], melds: list[Meld]) -> bool:
        if len(rest) <= keep:
            return True
        state = (tuple(sorted(rest)), tuple(melds))
        if state in tried:  # a swap can come back to a state already searched
            return False
        tried.add(state)
        for card in dict.fromkeys(rest):
            others = list(rest)
            others.remove(card)
            for m_index, meld in enumerate(melds):
                for grown, back in _placements(card, meld, rules, swaps, relocate):
                    new_melds = [*melds[:m_index], grown, *melds[m_index + 1:]]
                    if shed(others + back, new_melds):
                        return True
        return False

    return shed(list(rest), list(melds))


def _may_fit(card: Card, melds: Sequence[Meld], rules: RuleSet) -> bool:
    """Whether ``card`` could go on some meld, now or after other cards (a quick, generous
    test: a wild card, a trío of its rank, an escala of its suit, or a meld of a kind whose
    places are not tied to one suit)."""
    if rules.is_wild(card):
        return True
    for meld in melds:
        if meld.kind == "trio":
            if card.rank == meld.rank:
                return True
        elif meld.kind != "escala" or card.suit == meld.suit:
            return True
    return False


def _placements(card: Card, meld: Meld, rules: RuleSet, swaps: bool, relocate: bool
                ) -> Iterator[tuple[Meld, list[Card]]]:
    """The melds ``card`` makes of ``meld`` (laid off at an end, or swapped for a wild card),
    each with the cards that come back to the hand."""
    ends = meld.open_ends(rules) if meld.kind == "escala" else (None,)
    for end in ends:
        grown = meld.grown(card, end, rules, limit=rules.wild_limit_on_layoff)
        if grown is not None:
            yield grown, []
    if not swaps or not meld.wild_count:
        return
    index = meld.wild_index_for(card)
    if index is None:
        return
    swapped, wild = meld.swapped(card, index)
    if relocate and relocates_wild(meld, rules):
        for end in ("low", "high"):
            moved = swapped.grown(wild, end, rules, limit=False)
            if moved is not None:
                yield moved, []
    else:
        yield swapped, [wild]


# =========================================================================== best arrangement
#
# ``best_arrangement`` searches whole melds (any length the rules allow) for the contract, and
# keeps the arrangement that leaves the least penalty in hand. Candidates for one meld come from
# the cards still free; a branch and bound over the contract's melds (sequences first) finds the
# best. Two kinds of dominance keep the candidates few, and both are exact:
#
# * the last meld searched has no rival for its cards, so it takes every natural card that fits
#   (a trío all of its rank, an escala grown until both ends meet a card the hand lacks), and
#   the dearest wild cards its limit allows;
# * a wild card stands in the place of a natural card the hand holds only when a later meld may
#   want that natural card, or when the meld cannot grow to take the wild at an end (an escala
#   of thirteen, melds laid exactly).


@dataclass(frozen=True, slots=True)
class Plan:
    """How a hand meets a contract: the melds in the contract's order (each in laid order, as
    :class:`~carioca.actions.Bajar` takes them), the cards left in hand and their penalty."""

    contract: Contract
    melds: tuple[tuple[Card, ...], ...]
    leftover: tuple[Card, ...]
    penalty: int

    def __str__(self) -> str:
        melds = " / ".join(" ".join(str(c) for c in m) for m in self.melds)
        rest = " ".join(str(c) for c in self.leftover) or "-"
        return f"{self.contract}: {melds} | left {rest} ({self.penalty})"


def _weights(rules: RuleSet) -> tuple[int, ...]:
    return rules._value_by_code


def _expand(codes: Sequence[int], counts: Sequence[int]) -> list[int]:
    out: list[int] = []
    for c in codes:
        out.extend([c] * counts[c])
    return out


def _dearest(codes: Sequence[int], counts: Sequence[int], k: int,
             weight: Sequence[int]) -> list[int]:
    cards = _expand(codes, counts)
    cards.sort(key=lambda c: (-weight[c], c))
    return cards[:k]


def _full_trios(spec: MeldSpec, counts: list[int], rules: RuleSet, wilds: Sequence[int],
                contested: bool, weight: Sequence[int]) -> list[tuple[int, ...]]:
    cap = wild_limit("trio", rules)
    cap = _BIG if cap is None else cap
    size = spec.min_len
    exact = rules.exact_melds
    out: list[tuple[int, ...]] = []
    for rank in range(1, 14):
        naturals = [s * 13 + rank - 1 for s in range(4) if counts[s * 13 + rank - 1]]
        if not naturals:
            continue
        n_nat = sum(counts[c] for c in naturals)
        others = [w for w in wilds if counts[w] and w not in naturals]
        n_wild = sum(counts[w] for w in others)
        top = min(cap, n_wild, size - 1 if exact else _BIG)
        if n_nat + top < size:
            continue
        if not contested and not exact:
            out.append(tuple(_expand(naturals, counts) + _dearest(others, counts, top, weight)))
            continue
        # Tríos are searched after every escala, so only tríos may want the other cards of
        # this rank, and for a trío one suit is as good as another: how many is all that counts.
        # Except for a card that is also wild (a red ace): how many of those is a choice of its
        # own, since one left out of the trío may be wild in another meld.
        plain = _expand([c for c in naturals if c not in wilds], counts)
        faced = _expand([c for c in naturals if c in wilds], counts)
        for k in range(len(plain) + len(faced), 0, -1):
            if exact and k > size:
                continue
            lo = max(0, size - k)
            hi = min(top, size - k) if exact else top
            for j in range(max(0, k - len(plain)), min(k, len(faced)) + 1):
                nat = (*plain[:k - j], *faced[:j])
                for w in range(lo, hi + 1):
                    for wl in _multisets(others, counts, w):
                        out.append((*nat, *wl))
    return out


def _escala_windows(length_min: int, length_max: int, wrap: bool) -> Iterator[tuple[int, int]]:
    """(start, length) of every escala window, by escala position (ace low 1, ace high 14)."""
    for start in range(1, 14 if wrap else 15):
        for length in range(length_min, length_max + 1):
            if not wrap and start + length - 1 > 14:
                break
            yield start, length


def _place_wilds(base: list[int], places: Sequence[int], wl: Sequence[int]) -> tuple[int, ...]:
    cand = list(base)
    for i, w in zip(places, wl, strict=True):
        cand[i] = w
    return tuple(cand)


_WINDOW_CODES: dict[tuple[int, int, int], tuple[int, ...]] = {
    (suit, start, length): tuple(suit * 13 + rank_at(start + i) - 1 for i in range(length))
    for suit in range(4) for start in range(1, 15) for length in range(1, 14)
}


def _full_escalas(spec: MeldSpec, counts: list[int], rules: RuleSet, wilds: Sequence[int],
                  contested: bool, weight: Sequence[int]) -> list[tuple[int, ...]]:
    cap = wild_limit("escala", rules)
    cap = _BIG if cap is None else cap
    exact = rules.exact_melds
    n_wild = sum(counts[w] for w in wilds)
    room = min(cap, n_wild)
    longest = spec.min_len if exact else 13
    out: list[tuple[int, ...]] = []
    for suit in range(4):
        base_code = suit * 13
        mask = _position_mask(counts, suit, rules.wrap)
        if not mask:
            continue

        def code_at(pos: int, base_code: int = base_code) -> int:
            return base_code + rank_at(pos) - 1

        for start in range(1, 14 if rules.wrap else 15):
            if not (mask >> start) & ((1 << longest) - 1):
                continue
            for length in range(spec.min_len, longest + 1):
                if not rules.wrap and start + length - 1 > 14:
                    break
                present_n = ((mask >> start) & ((1 << length) - 1)).bit_count()
                if length - present_n > room:
                    break
                if not present_n:
                    continue
                need = list(_WINDOW_CODES[(suit, start, length)])
                missing = [i for i, c in enumerate(need) if not counts[c]]
                grows = length < 13 and not exact
                if not contested and grows:
                    # Dominated when a natural card the hand holds fits at either end.
                    low, high = start - 1, start + length
                    if (rules.wrap or low >= 1) and counts[code_at(low)]:
                        continue
                    if (rules.wrap or high <= 14) and counts[code_at(high)]:
                        continue
                used = list(counts)
                for i, c in enumerate(need):
                    if i not in missing:
                        used[c] -= 1
                pool = [w for w in wilds if used[w] > 0]
                if contested:
                    for wild_set in _multisets(pool, used, len(missing)):
                        out.append(_place_wilds(need, missing, wild_set))
                else:
                    dearest = _dearest(pool, used, len(missing), weight)
                    if len(dearest) == len(missing):
                        out.append(_place_wilds(need, missing, dearest))
                if not (contested or exact or length == 13):
                    continue
                present = [i for i in range(length) if i not in missing]
                for extra in range(1, min(room - len(missing), len(present) - 1) + 1):
                    for swapped in combinations(present, extra):
                        back = list(used)
                        for i in swapped:
                            back[need[i]] += 1
                        places = sorted((*missing, *swapped))
                        pool2 = [w for w in wilds if back[w] > 0]
                        choices: Iterator[Sequence[int]] | list[list[int]]
                        if contested:
                            choices = _multisets(pool2, back, len(places))
                        else:
                            choices = [_dearest(pool2, back, len(places), weight)]
                        for wl in choices:
                            if len(wl) != len(places):
                                continue
                            cand = _place_wilds(need, places, wl)
                            if any(cand[i] == need[i] for i in swapped):
                                continue
                            out.append(cand)
    return out


def _full_runs(spec: MeldSpec, counts: list[int], rules: RuleSet, wilds: Sequence[int],
               weight: Sequence[int]) -> list[tuple[int, ...]]:
    """Escala sucia, real and de colores: the thirteen ranks, ace to king. Such a meld is the
    whole contract (with any other meld it would not fit in a hand), so no other meld competes
    for its cards and any natural card of the right rank (and suit or colour) will do."""
    cap = wild_limit(spec.kind, rules)
    cap = _BIG if cap is None else cap
    n_wild = sum(counts[w] for w in wilds)
    room = min(cap, n_wild)
    options: list[list[list[int]]] = []
    if spec.kind == "real":
        options = [[[s * 13 + i] for i in range(13)] for s in range(4)]
    elif spec.kind == "colores":
        for first_red in (True, False):
            options.append([[s * 13 + i for s in ((1, 2) if first_red == (i % 2 == 0) else (0, 3))]
                            for i in range(13)])
    else:
        options = [[[s * 13 + i for s in range(4)] for i in range(13)]]
    out: list[tuple[int, ...]] = []
    for slots in options:
        used = list(counts)
        need: list[int] = []
        missing: list[int] = []
        for i, codes in enumerate(slots):
            # The cheapest natural card of the rank: they are worth the same, so the first.
            held = [c for c in codes if used[c] > 0 and not rules._wild_by_code[c]]
            held = held or [c for c in codes if used[c] > 0]
            if held:
                need.append(held[0])
                used[held[0]] -= 1
            else:
                need.append(codes[0])
                missing.append(i)
        if len(missing) > room or len(missing) == 13:
            continue
        pool = [w for w in wilds if used[w] > 0]
        wl = _dearest(pool, used, len(missing), weight)
        if len(wl) < len(missing):
            continue
        out.append(_place_wilds(need, missing, wl))
        if len(missing) < room:
            for i in range(13):
                if i in missing:
                    continue
                back = list(used)
                back[need[i]] += 1
                places = sorted((*missing, i))
                pool2 = [w for w in wilds if back[w] > 0]
                wl2 = _dearest(pool2, back, len(places), weight)
                if len(wl2) == len(places):
                    cand = _place_wilds(need, places, wl2)
                    if cand[i] != need[i]:
                        out.append(cand)
    return out


def _full_candidates(spec: MeldSpec, counts: list[int], rules: RuleSet, wilds: Sequence[int],
                     contested: bool, weight: Sequence[int]) -> list[tuple[int, ...]]:
    if spec.kind == "trio":
        cands = _full_trios(spec, counts, rules, wilds, contested, weight)
    elif spec.kind == "escala":
        cands = _full_escalas(spec, counts, rules, wilds, contested, weight)
    else:
        cands = _full_runs(spec, counts, rules, wilds, weight)
    cands.sort(key=lambda cand: -sum(weight[c] for c in cand))
    return cands


def _arrange(specs: Sequence[MeldSpec], hand: Sequence[Card], rules: RuleSet,
             weight: Sequence[int], min_left: int = 0
             ) -> tuple[int, list[tuple[int, ...]]] | None:
    """The melds (codes, in laid order, one per spec) that use the most ``weight`` of the hand,
    leaving at least ``min_left`` cards; None if the contract cannot be met."""
    n_specs = len(specs)
    if not n_specs:
        return None
    order = sorted(range(n_specs), key=lambda i: (specs[i].kind == "trio", specs[i].kind,
                                                 -specs[i].min_len, i))
    counts = _counts(hand)
    wilds = list(rules.wild_codes)
    root_max = []
    for j in order:
        cands = _full_candidates(specs[j], counts, rules, wilds, False, weight)
        if not cands:
            return None
        root_max.append(sum(weight[c] for c in cands[0]))
    rest_ub = [0] * (n_specs + 1)
    for d in range(n_specs - 1, -1, -1):
        rest_ub[d] = rest_ub[d + 1] + root_max[d]
    n_cards = len(hand)
    total = sum(weight[c] for c in hand)
    best_used = -1
    best: list[tuple[int, ...]] = []
    chosen: list[tuple[int, ...]] = [()] * n_specs

    def search(depth: int, used_w: int, used_n: int, left_w: int,
               floor: tuple[int, ...] | None) -> None:
        nonlocal best_used, best
        if depth == n_specs:
            if used_w > best_used and n_cards - used_n >= min_left:
                best_used = used_w
                best = list(chosen)
            return
        index = order[depth]
        spec = specs[index]
        same_as_prev = depth > 0 and specs[order[depth - 1]] == spec
        for cand in _full_candidates(spec, counts, rules, wilds, depth < n_specs - 1, weight):
            w = 0
            for c in cand:
                w += weight[c]
            if used_w + w + min(left_w - w, rest_ub[depth + 1]) <= best_used:
                break  # candidates come dearest first: no later one does better
            key = tuple(sorted(cand))
            if same_as_prev and floor is not None and key < floor:
                continue
            ok = True
            for c in cand:
                counts[c] -= 1
                if counts[c] < 0:
                    ok = False
            if ok:
                chosen[index] = cand
                search(depth + 1, used_w + w, used_n + len(cand), left_w - w, key)
            for c in cand:
                counts[c] += 1

    search(0, 0, 0, total, None)
    if best_used < 0:
        return None
    return best_used, best


def _contract_list(contracts: Contract | Sequence[Contract]) -> list[Contract]:
    return [contracts] if isinstance(contracts, Contract) else list(contracts)


def best_arrangement(hand: Sequence[Card], contracts: Contract | Sequence[Contract],
                     rules: RuleSet) -> Plan | None:
    """The way to meet the contract (any of its alternatives, ``RoundDef.contracts``) that
    leaves the least penalty (``rules.value``) in hand, or None if the hand cannot meet it.
    Melds may be longer than their minimum unless the rules lay them exactly. Exact.

    >>> from carioca.cards import parse_cards
    >>> chile = RuleSet.preset("chile")
    >>> plan = best_arrangement(parse_cards("7H 7S 7D 7C QS QH JK 5D 6D 8D 9D 3C"),
    ...                         chile.rounds[1].contracts, chile)
    >>> print(plan)
    1T+1E: 7S 7H 7C / JK 5D 6D 7D 8D 9D | left QS QH 3C (23)
    """
    weight = _weights(rules)
    best: Plan | None = None
    for contract in _contract_list(contracts):
        specs = contract.melds
        if _hopeless(hand, specs, rules):
            continue
        found = _arrange(specs, hand, rules, weight)
        if found is None:
            continue
        _, melds = found
        left = list(hand)
        for m in melds:
            for c in m:
                left.remove(ALL_CARDS[c])
        penalty = sum(rules.value(c) for c in left)
        if best is None or penalty < best.penalty:
            best = Plan(contract, tuple(tuple(ALL_CARDS[c] for c in m) for m in melds),
                        tuple(left), penalty)
    return best


# =========================================================================== distance
#
# How far a hand is from a contract: the fewest cards it lacks. A *shape* is what one meld of
# the contract could become (a trío of a rank, an escala of a suit at a place, ...; or a meld
# with no natural card of the hand yet). For a choice of one shape per meld, the cards of the
# hand fill the shapes' places exactly as a small matching does: natural cards to the places
# that want them (a trío takes any suit of its rank, an escala place one card), then wild cards
# into the places left, at most the meld's limit, each meld keeping a place for a natural card.
# A branch and bound over the shapes, cheapest first, with each meld's cost alone as the bound,
# finds the least number missing; it keeps every nearest choice to tell the outs (cards that
# would lower the number) and the cards the hand cannot spare.


class _Shape(NamedTuple):
    kind: MeldKind
    length: int
    room: int
    """Wild cards it may hold: the meld's limit, and always one place for a natural card."""
    groups: tuple[tuple[tuple[int, ...], int], ...]
    """Its places for natural cards: (the card codes that fit, how many places)."""
    start: int = 0
    suit: int = -1
    rank: int = 0

    @property
    def empty(self) -> bool:
        return not self.groups


@dataclass(frozen=True, slots=True)
class Target:
    """One meld a hand is building: its cards in laid order, ``None`` where a card is still
    missing, and what each missing place wants in record notation (``6H``; ``7`` for a trío,
    where any suit will do; ``6`` in an escala sucia; ``6R``/``6B`` in one de colores; ``?``
    where any card would start the meld)."""

    kind: MeldKind
    cards: tuple[Card | None, ...]
    wants: tuple[str, ...]

    @property
    def missing(self) -> int:
        return sum(c is None for c in self.cards)

    def __str__(self) -> str:
        return " ".join("_" if c is None else str(c) for c in self.cards)


@dataclass(frozen=True, slots=True)
class Distance:
    """How far a hand is from the contract.

    ``missing`` is the fewest cards it lacks (0: it can meet the contract now); ``outs`` the
    cards any one of which would lower that number; ``needed`` the cards of the hand whose loss
    would raise it (the others can go without harm); ``targets`` one nearest way to the
    contract, meld by meld (``contract`` says which alternative)."""

    missing: int
    outs: frozenset[Card]
    needed: frozenset[Card]
    contract: Contract
    targets: tuple[Target, ...]


def _escala_starts(length: int, wrap: bool) -> range:
    return range(1, 14) if wrap else range(1, 16 - length)


_SHAPE_CACHE: dict[tuple[MeldSpec, int, bool], tuple[_Shape, ...]] = {}


def _all_shapes(spec: MeldSpec, room: int, wrap: bool) -> tuple[_Shape, ...]:
    """Every shape of a meld spec (whatever the hand), the empty one last; cached."""
    key = (spec, room, wrap)
    found = _SHAPE_CACHE.get(key)
    if found is not None:
        return found
    size = spec.min_len
    out: list[_Shape] = []
    if spec.kind == "trio":
        for rank in range(1, 14):
            codes = (rank - 1, 12 + rank, 25 + rank, 38 + rank)
            out.append(_Shape("trio", size, room, ((codes, size),), rank=rank))
    elif spec.kind == "escala":
        for suit in range(4):
            base = suit * 13
            for start in _escala_starts(size, wrap):
                places = [base + rank_at(start + i) - 1 for i in range(size)]
                out.append(_Shape("escala", size, room, tuple(((c,), 1) for c in places),
                                  start=start, suit=suit))
    elif spec.kind == "real":
        for suit in range(4):
            out.append(_Shape("real", 13, room, tuple(((suit * 13 + i,), 1) for i in range(13)),
                              start=1, suit=suit))
    elif spec.kind == "colores":
        for first in (0, 1):  # 0: the ace is red
            groups = tuple((tuple(s * 13 + i for s in ((1, 2) if (i % 2 == 0) != bool(first)
                                                       else (0, 3))), 1) for i in range(13))
            out.append(_Shape("colores", 13, room, groups, start=1, suit=first))
    else:
        groups = tuple((tuple(s * 13 + i for s in range(4)), 1) for i in range(13))
        out.append(_Shape("sucia", 13, room, groups, start=1))
    out.append(_Shape(spec.kind, size, room, ()))
    result = tuple(out)
    _SHAPE_CACHE[key] = result
    return result


def _shape_room(spec: MeldSpec, rules: RuleSet) -> int:
    cap = wild_limit(spec.kind, rules)
    return spec.min_len - 1 if cap is None else min(cap, spec.min_len - 1)


def _shapes(spec: MeldSpec, counts: Sequence[int], rules: RuleSet) -> list[_Shape]:
    """The shapes of a meld that hold a natural card of the hand, and the empty shape."""
    every = _all_shapes(spec, _shape_room(spec, rules), rules.wrap)
    return [s for s in every if not s.groups
            or any(counts[c] for codes, _ in s.groups for c in codes)]


def _scored_shapes(spec: MeldSpec, counts: Sequence[int], rules: RuleSet
                   ) -> list[tuple[int, int, int, _Shape]]:
    """(places without a natural card, room for wild cards, index, shape) for the shapes of
    a meld that hold a natural card of the hand, and the empty shape; fewest missing first."""
    room = _shape_room(spec, rules)
    every = _all_shapes(spec, room, rules.wrap)
    size = spec.min_len
    out: list[tuple[int, int, int, _Shape]] = []
    if spec.kind == "trio":
        for k in range(13):
            have = counts[k] + counts[13 + k] + counts[26 + k] + counts[39 + k]
            if have:
                miss = size - have if have < size else 0
                out.append((miss, room if room < miss else miss, k, every[k]))
    elif spec.kind == "escala":
        full = (1 << size) - 1
        starts = _escala_starts(size, rules.wrap)
        per_suit = len(starts)
        for suit in range(4):
            mask = _position_mask(counts, suit, rules.wrap)
            if not mask:
                continue
            for j, start in enumerate(starts):
                present = ((mask >> start) & full).bit_count()
                if present:
                    miss = size - present
                    k = suit * per_suit + j
                    out.append((miss, room if room < miss else miss, k, every[k]))
    else:
        for k, shape in enumerate(every[:-1]):
            if any(counts[c] for codes, _ in shape.groups for c in codes):
                miss = _alone(shape, counts)
                out.append((miss, room if room < miss else miss, k, shape))
    empty = every[-1]
    out.append((size, room, len(every) - 1, empty))
    out.sort(key=lambda t: (t[0], t[2]))
    return out


def _alone(shape: _Shape, counts: Sequence[int]) -> int:
    """The shape's places left empty of natural cards with the whole hand to itself."""
    filled = 0
    for codes, cap in shape.groups:
        have = 0
        for c in codes:
            have += counts[c]
        filled += have if have < cap else cap
    return shape.length - filled


def _take(c: int, g: int, counts: Sequence[int], gcap: list[int], gmeld: list[int],
          nat: list[int], takes: list[list[int]] | None) -> int:
    """Give group ``g`` as many copies of card ``c`` as it has places for; how many."""
    cap = gcap[g]
    n = counts[c]
    take = n if n < cap else cap
    if take:
        gcap[g] = cap - take
        nat[gmeld[g]] += take
        if takes is not None:
            takes[g].extend([c] * take)
    return take


def _place_count(shapes: Sequence[_Shape], counts: Sequence[int], wild: Sequence[bool],
          n_wild: int, detail: list[list[int]] | None = None) -> int:
    """How many places of ``shapes`` the hand fills at best (see the section comment).
    With ``detail`` (a list), it receives the natural cards given to each group."""
    gcap: list[int] = []
    gmeld: list[int] = []
    demand: dict[int, list[int]] = {}
    for m, shape in enumerate(shapes):
        for codes, cap in shape.groups:
            g = len(gcap)
            gcap.append(cap)
            gmeld.append(m)
            for c in codes:
                if counts[c]:
                    found = demand.get(c)
                    if found is None:
                        demand[c] = [g]
                    else:
                        found.append(g)
    nat = [0] * len(shapes)
    takes: list[list[int]] = [[] for _ in gcap] if detail is not None else []
    wild_left = n_wild
    contested: list[int] = []
    # A wild card that is also a natural one (a red ace where they are wild) takes a place as
    # a natural card only after the plain natural cards: else it could keep one out.
    two_faced: list[int] = []
    for c, gs in demand.items():
        if len(gs) > 1:
            contested.append(c)
        elif wild[c]:
            two_faced.append(c)
        else:  # _take, inlined: this is the solver's innermost loop
            g = gs[0]
            cap = gcap[g]
            if cap:
                n = counts[c]
                take = n if n < cap else cap
                gcap[g] = cap - take
                nat[gmeld[g]] += take
                if detail is not None:
                    takes[g].extend([c] * take)
    if contested:
        contested.extend(two_faced)
    else:
        for c in two_faced:
            wild_left -= _take(c, demand[c][0], counts, gcap, gmeld, nat,
                               takes if detail is not None else None)

    def value(wild_left: int) -> int:
        total = 0
        rooms = 0
        for m, shape in enumerate(shapes):
            k = nat[m]
            total += k
            free = shape.length - k
            rooms += shape.room if shape.room < free else free
        return total + (wild_left if wild_left < rooms else rooms)

    if not contested:
        if detail is not None:
            detail[:] = takes
        return value(wild_left)
    # Copies that several groups want: try every way to share them out, keeping for each
    # outcome that matters (the natural cards per meld, the room left in groups several cards
    # want) the one with the most wild cards left. Every copy goes to some group while one has
    # room: a natural card placed never fills fewer places.
    # Copies of cards that the same groups want are alike: share them out as one bundle.
    bundles: dict[tuple[tuple[int, ...], bool], list[int]] = {}
    for c in contested:
        bundles.setdefault((tuple(demand[c]), wild[c]), []).append(c)
    items = [(wanting, is_wild, codes, sum(counts[c] for c in codes))
             for (wanting, is_wild), codes in bundles.items()]
    items.sort(key=lambda item: item[1])  # plain natural cards first, as above
    seen_groups: dict[int, int] = {}
    for wanting, _, _, _ in items:
        for g in wanting:
            seen_groups[g] = seen_groups.get(g, 0) + 1
    shared = [g for g, k in seen_groups.items() if k > 1]
    Record = tuple[tuple[int, int, int], ...]
    states: dict[tuple[int, ...], tuple[int, list[int], list[int], Record]] = {
        (*nat, *(gcap[g] for g in shared)): (wild_left, list(nat), list(gcap), ())}
    for item, (wanting, is_wild, _codes, units) in enumerate(items):
        gs = list(wanting)
        nxt: dict[tuple[int, ...], tuple[int, list[int], list[int], Record]] = {}
        for left, nats, caps, record in states.values():
            room = 0
            for g in gs:
                room += caps[g]
            give = units if units < room else room
            for split in _splits(give, [caps[g] for g in gs]):
                new_nat = list(nats)
                new_cap = list(caps)
                new_record = record
                for g, take in zip(gs, split, strict=True):
                    if take:
                        new_cap[g] -= take
                        new_nat[gmeld[g]] += take
                        if detail is not None:
                            new_record = (*new_record, (g, item, take))
                new_left = left - give if is_wild else left
                key = (*new_nat, *(new_cap[g] for g in shared))
                old = nxt.get(key)
                if old is None or old[0] < new_left:
                    nxt[key] = (new_left, new_nat, new_cap, new_record)
        states = nxt
    best = -1
    best_record: Record = ()
    for left, nats, _caps, record in states.values():
        nat[:] = nats
        v = value(left)
        if v > best:
            best = v
            best_record = record
    if detail is not None:
        stock = {c: counts[c] for c in contested}
        for g, item, take in best_record:
            for c in items[item][2]:
                while take and stock[c]:
                    takes[g].append(c)
                    stock[c] -= 1
                    take -= 1
        detail[:] = takes
    return best


def _splits(total: int, caps: list[int]) -> Iterator[tuple[int, ...]]:
    """Every way to put ``total`` units into places of the given capacities."""
    if len(caps) == 2:
        a, b = caps
        for first in range(min(total, a), max(0, total - b) - 1, -1):
            yield (first, total - first)
        return
    if len(caps) == 1:
        if total <= caps[0]:
            yield (total,)
        return
    rest_cap = sum(caps[1:])
    for first in range(min(total, caps[0]), max(0, total - rest_cap) - 1, -1):
        for more in _splits(total - first, caps[1:]):
            yield (first, *more)


def _spec_order(specs: Sequence[MeldSpec]) -> list[int]:
    return sorted(range(len(specs)), key=lambda i: (specs[i].kind == "trio", specs[i].kind,
                                                    -specs[i].min_len, i))


def _nearest(specs: Sequence[MeldSpec], counts: list[int], rules: RuleSet, collect: bool,
             bound: int | None = None, stop_at: int = -1
             ) -> tuple[int, list[tuple[_Shape, ...]], list[int]]:
    """The fewest missing cards, and (with ``collect``) every choice of shapes that reaches it
    (each in the order of the returned spec indices). With ``bound``, only choices missing
    fewer than ``bound`` cards are looked for (``bound`` is returned when there is none); the
    search stops as soon as a choice missing at most ``stop_at`` is found.

    The bound of a branch: each meld lacks at least the natural cards it lacks on its own,
    and the hand's wild cards fill at most the places the melds have room for."""
    order = _spec_order(specs)
    wild = rules._wild_by_code
    n_wild = sum(counts[w] for w in rules.wild_codes)
    scored: list[list[tuple[int, int, int, _Shape]]] = []
    for d, j in enumerate(order):
        if d and specs[j] == specs[order[d - 1]]:
            scored.append(scored[-1])
        else:
            scored.append(_scored_shapes(specs[j], counts, rules))
    n = len(order)
    rest_miss = [0] * (n + 1)
    rest_room = [0] * (n + 1)
    for d in range(n - 1, -1, -1):
        rest_miss[d] = rest_miss[d + 1] + scored[d][0][0]
        rest_room[d] = rest_room[d + 1] + scored[d][0][1]
    total = sum(s.min_len for s in specs)
    room_cap = sum(scored[d][-1][3].room for d in range(n))
    best = total + 1 if bound is None else bound
    leaves: list[tuple[_Shape, ...]] = []
    chosen: list[_Shape] = [scored[0][0][3]] * n
    # The natural cards the chosen shapes hold between them, counted once: escala places take
    # their own card first, tríos what is left of their rank (this count is exact).
    taken = [0] * 53
    trio_taken = [0] * 14
    gots = [0] * n
    # Wild cards that may also be natural (a two where twos are wild): the quick count below
    # assumes none is, and leaves those hands to the exact count.
    two_faced = [w for w in rules.wild_codes if w < 52 and counts[w]]
    # The quick count follows the cards tríos and escalas take, not those of an escala sucia,
    # real or de colores: where one shares a contract with other melds, count exactly.
    mixed = n > 1 and any(spec.kind not in ("trio", "escala") for spec in specs)

    def joint(shape: _Shape) -> int:
        if shape.kind == "trio":
            if not shape.groups:
                return 0
            left = -trio_taken[shape.rank]
            for c in shape.groups[0][0]:
                extra = counts[c] - taken[c]
                if extra > 0:
                    left += extra
            return left if left < shape.length else shape.length
        if shape.kind != "escala":
            return shape.length - _alone(shape, counts)
        got = 0
        for codes, _ in shape.groups:
            c = codes[0]
            if taken[c] < counts[c]:
                got += 1
        return got

    def push(shape: _Shape, got: int) -> None:
        if shape.kind == "trio":
            trio_taken[shape.rank] += got
        elif shape.kind == "escala":
            for codes, _ in shape.groups:
                taken[codes[0]] += 1

    def pop(shape: _Shape, got: int) -> None:
        if shape.kind == "trio":
            trio_taken[shape.rank] -= got
        elif shape.kind == "escala":
            for codes, _ in shape.groups:
                taken[codes[0]] -= 1

    def search(depth: int, miss_sum: int, room_sum: int, joint_miss: int, floor: int) -> None:
        nonlocal best, leaves
        if depth == n:
            # The allocation found on the way (escala places first, tríos what is left, wild
            # cards wherever there is room) is exact when it meets the bound of the branch.
            rooms = 0
            for d in range(n):
                left_out = chosen[d].length - gots[d]
                r = chosen[d].room
                rooms += r if r < left_out else left_out
            ceiling = min(n_wild, room_cap, joint_miss)
            if (ceiling == (n_wild if n_wild < rooms else rooms)
                    and not mixed and not (two_faced and _touches(chosen, two_faced))):
                cost = joint_miss - ceiling
            else:
                cost = total - _place_count(chosen, counts, wild, n_wild)
            if cost < best:
                best = cost
                leaves = [tuple(chosen)] if collect else []
            elif cost == best and collect:
                leaves.append(tuple(chosen))
            return
        same = depth > 0 and specs[order[depth]] == specs[order[depth - 1]]
        more_miss = miss_sum + rest_miss[depth + 1]
        more_room = room_sum + rest_room[depth + 1]
        for miss, room, k, shape in scored[depth]:
            rooms = more_room + room
            lower = more_miss + miss - (n_wild if n_wild < rooms else rooms)
            if lower > best or (lower == best and not collect):
                break
            if same and k < floor:
                continue
            got = joint(shape)
            together = joint_miss + shape.length - got
            at_least = together + rest_miss[depth + 1]
            fill = min(n_wild, room_cap, at_least)
            if at_least - fill > best or (at_least - fill == best and not collect):
                continue
            chosen[depth] = shape
            gots[depth] = got
            push(shape, got)
            search(depth + 1, miss_sum + miss, room_sum + room, together, k)
            pop(shape, got)
            if best <= stop_at:
                return

    search(0, 0, 0, 0, 0)
    return best, leaves, order


def _touches(shapes: Sequence[_Shape], codes: Sequence[int]) -> bool:
    for shape in shapes:
        for group, _ in shape.groups:
            for c in codes:
                if c in group:
                    return True
    return False


def lacks_at_most(hand: Sequence[Card], contracts: Contract | Sequence[Contract],
                  rules: RuleSet, cards: int) -> bool:
    """Whether the hand lacks at most ``cards`` cards to meet the contract (any alternative):
    ``missing_cards(...) <= cards``, answered as soon as one way is found."""
    if cards < 0:
        return False
    counts = _counts(hand)
    for contract in _contract_list(contracts):
        found, _, _ = _nearest(contract.melds, counts, rules, False, cards + 1, cards)
        if found <= cards:
            return True
    return False


def missing_cards(hand: Sequence[Card], contracts: Contract | Sequence[Contract],
                  rules: RuleSet) -> int:
    """The fewest cards the hand lacks to meet the contract (any alternative): the ``missing``
    of :func:`distance`, without the outs (faster)."""
    counts = _counts(hand)
    best = _BIG
    for contract in _contract_list(contracts):
        if best == 0:
            break
        found, _, _ = _nearest(contract.melds, counts, rules, False)
        best = min(best, found)
    return best


def _card_exists(code: int, rules: RuleSet) -> bool:
    return code < 52 or rules.jokers > 0


def _empty_outs(shape: _Shape, counts: Sequence[int], rules: RuleSet) -> set[int]:
    """Cards that would start a meld whose shape holds no natural card of the hand yet: any
    card of a rank the hand lacks (a trío), any card of an escala place the hand holds nothing
    near (an escala)."""
    out: set[int] = set()
    if shape.kind == "trio":
        for rank in range(1, 14):
            same_rank = (rank - 1, 12 + rank, 25 + rank, 38 + rank)
            if not any(counts[c] for c in same_rank):
                out.update(same_rank)
    elif shape.kind == "escala":
        for suit in range(4):
            base = suit * 13
            for start in _escala_starts(shape.length, rules.wrap):
                places = [base + rank_at(start + i) - 1 for i in range(shape.length)]
                if not any(counts[c] for c in places):
                    out.update(places)
    else:
        # sucia, real, colores with no natural card yet: every rank of them is an out
        for s in _shapes(MeldSpec(shape.kind, 13), [1] * 53, rules):
            for fitting, _ in s.groups:
                out.update(c for c in fitting if not counts[c])
    return out


def _targets(leaf: tuple[_Shape, ...], order: list[int], counts: Sequence[int],
             rules: RuleSet) -> tuple[Target, ...]:
    wild = rules._wild_by_code
    n_wild = sum(counts[w] for w in rules.wild_codes)
    detail: list[list[int]] = []
    _place_count(leaf, counts, wild, n_wild, detail)
    used = [0] * 53
    for t in detail:
        for c in t:
            used[c] += 1
    spare_wilds = []
    for w in rules.wild_codes:
        spare_wilds.extend([w] * (counts[w] - used[w]))
    spare_wilds.sort(key=lambda w: (w != 52, w))
    out: list[Target | None] = [None] * len(leaf)
    g = 0
    for m, shape in enumerate(leaf):
        slots: list[int | None] = []
        wants: list[str] = []
        if shape.kind == "trio":
            taken = detail[g] if shape.groups else []
            g += len(shape.groups)
            slots = list(taken) + [None] * (shape.length - len(taken))
            label = RANKS[shape.rank - 1] if shape.rank else "?"
            wants = [label] * (shape.length - len(taken))
        elif shape.empty:
            slots = [None] * shape.length
            wants = ["?"] * shape.length
        else:
            for i, (codes, _) in enumerate(shape.groups):
                taken = detail[g + i]
                if taken:
                    slots.append(taken[0])
                else:
                    slots.append(None)
                    wants.append(_want(shape, i, codes))
            g += len(shape.groups)
        k = 0
        room = min(shape.room, sum(s is None for s in slots))
        for i, s in enumerate(slots):
            if s is None and room and spare_wilds:
                slots[i] = spare_wilds.pop(0)
                room -= 1
                wants.pop(k)
            elif s is None:
                k += 1
        cards = tuple(None if s is None else ALL_CARDS[s] for s in slots)
        out[m] = Target(shape.kind, cards, tuple(wants))
    by_spec: list[Target] = [Target("trio", (), ())] * len(leaf)
    for pos, index in enumerate(order):
        target = out[pos]
        assert target is not None
        by_spec[index] = target
    return tuple(by_spec)


def _want(shape: _Shape, index: int, codes: tuple[int, ...]) -> str:
    rank = RANKS[rank_at(shape.start + index) - 1]
    if shape.kind in ("escala", "real"):
        return str(ALL_CARDS[codes[0]])
    if shape.kind == "colores":
        return rank + ("R" if codes[0] // 13 in (1, 2) else "B")
    return rank


def distance(hand: Sequence[Card], contracts: Contract | Sequence[Contract],
             rules: RuleSet) -> Distance:
    """How far the hand is from the contract (any of its alternatives): see :class:`Distance`.
    Exact: ``missing`` is the least number of cards to add for the hand to meet the contract,
    a card is in ``outs`` exactly when adding it lowers that number, and in ``needed`` exactly
    when losing it raises that number.

    >>> from carioca.cards import parse_cards
    >>> chile = RuleSet.preset("chile")
    >>> d = distance(parse_cards("5H 6H 8H 7S 7D KC 2D 9S"), chile.rounds[1].contracts, chile)
    >>> d.missing, sorted(str(c) for c in d.outs), [str(t) for t in d.targets]
    (2, ['7C', '7D', '7H', '7S', 'JK'], ['7S 7D _', '5H 6H _ 8H'])
    >>> sorted(str(c) for c in d.needed)
    ['5H', '6H', '7D', '7S', '8H']
    """
    least, outs, needed, first = _distance(hand, contracts, rules, True)
    assert first is not None
    return Distance(least, outs, needed, first[0], first[1])


def missing_and_outs(hand: Sequence[Card], contracts: Contract | Sequence[Contract],
                     rules: RuleSet) -> tuple[int, frozenset[Card]]:
    """The ``missing`` and ``outs`` of :func:`distance`, without the needed cards and the
    targets (it skips their work): for planners that look two draws ahead and ask it of
    many hands.

    >>> from carioca.cards import parse_cards
    >>> chile = RuleSet.preset("chile")
    >>> missing, outs = missing_and_outs(parse_cards("5H 6H 8H 7S 7D KC 2D 9S"),
    ...                                  chile.rounds[1].contracts, chile)
    >>> missing, sorted(str(c) for c in outs)
    (2, ['7C', '7D', '7H', '7S', 'JK'])
    """
    least, outs, _, _ = _distance(hand, contracts, rules, False)
    return least, outs


def _distance(hand: Sequence[Card], contracts: Contract | Sequence[Contract],
              rules: RuleSet, whole: bool
              ) -> tuple[int, frozenset[Card], frozenset[Card],
                         tuple[Contract, tuple[Target, ...]] | None]:
    """What :func:`distance` finds; ``needed`` and the targets only when ``whole``."""
    counts = _counts(hand)
    wild = rules._wild_by_code
    n_wild = sum(counts[w] for w in rules.wild_codes)
    found: list[tuple[int, Contract, list[tuple[_Shape, ...]], list[int]]] = []
    for contract in _contract_list(contracts):
        best, leaves, order = _nearest(contract.melds, counts, rules, True)
        found.append((best, contract, leaves, order))
    least = min(f[0] for f in found)
    outs: set[int] = set()
    needed: set[int] | None = None
    wild_codes = [w for w in rules.wild_codes if _card_exists(w, rules)]
    held = [c for c in range(53) if counts[c]]
    first: tuple[Contract, tuple[Target, ...]] | None = None
    for best, contract, leaves, order in found:
        if best != least:
            continue
        total = contract.min_cards
        base = total - best
        spare: set[int] = set()
        for leaf in leaves:
            if first is None and whole:
                first = (contract, _targets(leaf, order, counts, rules))
            candidates: set[int] = set(wild_codes)
            room: dict[int, int] = {}  # the places of the leaf a natural card fits
            for shape in leaf:
                for codes, cap in shape.groups:
                    candidates.update(codes)
                    for c in codes:
                        room[c] = room.get(c, 0) + cap
                if shape.empty:
                    outs.update(_empty_outs(shape, counts, rules))
            for c in candidates - outs:
                if not wild[c] and counts[c] >= room.get(c, 0):
                    continue  # the hand already fills every place it fits: no more room
                counts[c] += 1
                if _place_count(leaf, counts, wild, n_wild + wild[c]) > base:
                    outs.add(c)
                counts[c] -= 1
            if not whole:
                continue
            for c in held:
                if c in spare:
                    continue
                counts[c] -= 1
                if _place_count(leaf, counts, wild, n_wild - wild[c]) == base:
                    spare.add(c)
                counts[c] += 1
        lacking = {c for c in held if c not in spare}
        needed = lacking if needed is None else needed & lacking
    return (least, frozenset(ALL_CARDS[c] for c in outs if _card_exists(c, rules)),
            frozenset(ALL_CARDS[c] for c in (needed or ())), first)


# =========================================================================== going out


@dataclass(frozen=True, slots=True)
class Step:
    """One action of a plan to go out (:func:`go_out_plan`). ``meld`` numbers the table's melds
    as they are when the step is played: a bajar adds its melds at the end, in its order."""

    kind: Literal["bajar", "agregar", "swap", "discard"]
    card: Card | None = None
    meld: int = -1
    end: End | None = None
    melds: tuple[tuple[Card, ...], ...] = ()

    def action(self, seat: int) -> Action:
        """The step as the engine's action for ``seat``."""
        if self.kind == "bajar":
            return Bajar(seat, self.melds)
        assert self.card is not None
        if self.kind == "agregar":
            return Agregar(seat, self.card, self.meld, self.end)
        if self.kind == "swap":
            return Swap(seat, self.card, self.meld, self.end)
        return Discard(seat, self.card)

    def __str__(self) -> str:
        return str(self.action(0))


def _without_card(cards: Sequence[Card], card: Card) -> list[Card]:
    rest = list(cards)
    rest.remove(card)
    return rest


def _layoff_ends(meld: Meld, rules: RuleSet) -> tuple[End | None, ...]:
    if meld.kind == "trio":
        return (None,)
    return meld.open_ends(rules)


def _stuck(cards: Sequence[Card], melds: Sequence[Meld], rules: RuleSet) -> int:
    """Cards no meld on the table can ever take (by agregar or a swap): a lower bound on the
    cards that stay in hand."""
    ranks = {m.rank for m in melds if m.kind == "trio"}
    escalas = [m for m in melds if m.kind == "escala"]
    any_meld = bool(melds)
    full_with_wild = any(m.kind in ("sucia", "real", "colores") and m.wild_count for m in melds)
    stuck = 0
    for c in cards:
        if rules.is_wild(c):
            if not any_meld:
                stuck += 1
        elif c.rank not in ranks and not full_with_wild and not any(
                m.suit == c.suit and _escala_may_take(m, c.rank) for m in escalas):
            stuck += 1
    return stuck


def _escala_may_take(meld: Meld, rank: int) -> bool:
    """Whether an escala may ever take a natural card of its suit and ``rank``: it has no
    place of that rank yet (it may grow there), or a wild card holds it (a swap). A natural
    card never leaves a meld and an escala holds each rank once, so a rank held by a
    natural card is closed for good."""
    for i, is_wild in enumerate(meld.wild):
        if rank_at(meld.start + i) == rank:
            return is_wild
    return True


def go_out_plan(hand: Sequence[Card], table_melds: Sequence[Meld], rules: RuleSet, *,
                down: bool, contracts: Contract | Sequence[Contract] | None = None,
                may_layoff: bool, keep: int, at_once: bool = False) -> list[Step] | None:
    """Whether the player can go out this turn (after drawing), and how: the steps, in order,
    or None. Counts a bajar of the contract (when not ``down``; ``contracts`` are the
    alternatives still owed), lay-offs onto the table's melds and the own new ones (when
    ``may_layoff``: the player is down and may agregar now, or will be allowed to in the turn
    of the bajar), and the swaps of a wild card the rules allow (``rules.joker_replacement``).
    The hand may keep at most ``keep`` cards after the plays (1: the last discard; 0: go out by
    playing the last card); with ``rules.go_out_by_layoff`` off no play may empty the hand.
    In a go-out-at-once round (``at_once``) the plays after the bajar are lay-offs, as the
    engine checks them. Exact within the turn.

    >>> from carioca.cards import parse_cards
    >>> chile = RuleSet.preset("chile")
    >>> table = [read_meld(parse_cards("7S 7H 7D"), "trio", chile, owner=1)]
    >>> [str(s) for s in go_out_plan(parse_cards("7C 9D"), table, chile, down=True,
    ...                              may_layoff=True, keep=1)]
    ['agregar 7C 0', 'discard 9D']
    """
    search = _GoingOut(rules, may_layoff=may_layoff, keep=keep, at_once=at_once)
    cards, table = list(hand), list(table_melds)
    if down:
        if not may_layoff:
            return search.finish(cards)
        return search.shed(cards, table, rules.joker_replacement != "off")
    if contracts is None:
        return None
    return search.bajar(cards, table, _contract_list(contracts))


Way: TypeAlias = list[Step] | None
"""The steps that go out from here, or None: there is no way out from here this turn."""


class _GoingOut:
    """One turn's search for a way out (:func:`go_out_plan`), depth first. It remembers the
    positions (cards in hand, melds on the table) that led nowhere, because the same position
    is reached by laying off the same cards in another order."""

    def __init__(self, rules: RuleSet, *, may_layoff: bool, keep: int, at_once: bool) -> None:
        self.rules = rules
        self.mode = rules.joker_replacement
        self.by_layoff = rules.go_out_by_layoff
        self.may_layoff = may_layoff
        self.keep = keep
        # In a go-out-at-once turn the engine takes only lay-offs after the bajar.
        self.swaps_after_bajar = self.mode in ("take", "relocate", "anyone") and not at_once
        self.failed: set[tuple[tuple[Card, ...], tuple[Meld, ...], bool]] = set()
        self.tried: set[tuple[tuple[Card, ...], tuple[Meld, ...]]] = set()

    def finish(self, cards: Sequence[Card]) -> Way:
        """The plan's end when what is left may go: nothing, or one last discard."""
        if len(cards) > min(self.keep, 1):
            return None
        if len(cards) == 1:
            return [Step("discard", card=cards[0])]
        return []

    def shed(self, cards: list[Card], melds: list[Meld], swaps: bool) -> Way:
        """Go out from here by lay-offs (and swaps of a wild card, with ``swaps``)."""
        done = self.finish(cards)
        if done is not None:
            return done
        key = (tuple(sorted(cards)), tuple(melds), swaps)
        if key in self.failed:
            return None
        if _stuck(cards, melds, self.rules) > min(self.keep, 1):
            self.failed.add(key)
            return None
        plan = self._lay_off(cards, melds, swaps)
        if plan is None and swaps:
            plan = self._swap_any(cards, melds, lambda c, m: self.shed(c, m, swaps))
        if plan is None:
            self.failed.add(key)
        return plan

    def _lay_off(self, cards: list[Card], melds: list[Meld], swaps: bool) -> Way:
        """Lay off one card (each, at each place it fits), then go on shedding."""
        rules = self.rules
        for card in dict.fromkeys(cards):
            rest = _without_card(cards, card)
            if not rest and not self.by_layoff:
                continue
            for i, meld in enumerate(melds):
                for end in _layoff_ends(meld, rules):
                    grown = meld.grown(card, end, rules, limit=rules.wild_limit_on_layoff)
                    if grown is None:
                        continue
                    plan = self.shed(rest, [*melds[:i], grown, *melds[i + 1:]], swaps)
                    if plan is not None:
                        return [Step("agregar", card, i, end), *plan]
        return None

    def _swap_any(self, cards: list[Card], melds: list[Meld],
                  then: Callable[[list[Card], list[Meld]], Way]) -> Way:
        """Swap a card of the hand for a wild card on the table, then ``then``."""
        for i, meld in enumerate(melds):
            if not meld.wild_count:
                continue
            for card in dict.fromkeys(cards):
                plan = self._swap(cards, melds, i, card, then)
                if plan is not None:
                    return plan
        return None

    def _swap(self, cards: list[Card], melds: list[Meld], i: int, card: Card,
              then: Callable[[list[Card], list[Meld]], Way]) -> Way:
        """Put ``card`` in place of the wild card it stands for in meld ``i``: the wild goes
        to the hand, or under ``relocate`` to an end of its escala; then ``then``."""
        meld = melds[i]
        index = meld.wild_index_for(card)
        if index is None:
            return None
        swapped, wild = meld.swapped(card, index)
        rest = _without_card(cards, card)
        if relocates_wild(meld, self.rules):
            if not rest and not self.by_layoff:
                return None
            for end in ("low", "high"):
                try:
                    moved = swapped.extended(wild, end, self.rules, limit=False)
                except MeldError:
                    continue
                plan = then(rest, [*melds[:i], moved, *melds[i + 1:]])
                if plan is not None:
                    return [Step("swap", card, i, end), *plan]
            return None
        plan = then([*rest, wild], [*melds[:i], swapped, *melds[i + 1:]])
        if plan is not None:
            return [Step("swap", card, i, None), *plan]
        return None

    def bajar(self, cards: list[Card], melds: list[Meld], options: list[Contract]) -> Way:
        """Go out from here by laying down one of the contracts ``options`` first."""
        key = (tuple(sorted(cards)), tuple(melds))
        if key in self.tried:
            return None
        self.tried.add(key)
        for contract in options:
            if _hopeless(cards, contract.melds, self.rules):
                continue
            if self.may_layoff:
                plan = self._bajar_and_shed(cards, melds, contract)
            else:
                plan = self._bajar_alone(cards, contract)
            if plan is not None:
                return plan
        if self.mode == "anyone":
            # Any player may swap in their turn, down or not: a wild from the table may be
            # what the contract lacks.
            return self._swap_any(cards, melds, lambda c, m: self.bajar(c, m, options))
        return None

    def _bajar_alone(self, cards: list[Card], contract: Contract) -> Way:
        """Lay the contract down and go out with no lay-off: one arrangement is enough."""
        min_left = 0 if self.by_layoff else 1
        found = _arrange(contract.melds, cards, self.rules, [1] * 53, min_left)
        if found is None:
            return None
        rest = list(cards)
        for m in found[1]:
            for c in m:
                rest.remove(ALL_CARDS[c])
        done = self.finish(rest)
        if done is None:
            return None
        laid = tuple(tuple(ALL_CARDS[c] for c in m) for m in found[1])
        return [Step("bajar", melds=laid), *done]

    def _bajar_and_shed(self, cards: list[Card], melds: list[Meld], contract: Contract) -> Way:
        """Lay the contract down in each arrangement, then shed the rest onto the table."""
        rules, specs = self.rules, contract.melds
        for arrangement in contract_arrangements(cards, specs, rules):
            rest = list(cards)
            for m in arrangement:
                for c in m:
                    rest.remove(c)
            if not rest and not self.by_layoff:
                continue
            laid = [read_meld(m, spec.kind, rules, min_len=spec.min_len, exact=rules.exact_melds)
                    for m, spec in zip(arrangement, specs, strict=True)]
            plan = self.shed(rest, [*melds, *laid], self.swaps_after_bajar)
            if plan is not None:
                return [Step("bajar", melds=arrangement), *plan]
        return None
