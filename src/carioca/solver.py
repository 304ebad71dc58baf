"""The combinatorics of contracts: which melds a hand can lay down, and whether what is left
can still be shed. Pure functions of cards and rules, tested alone.

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

from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement

from .cards import ALL_CARDS, Card
from .melds import Meld, MeldError, rank_at, read_meld, wild_limit
from .rules import Contract, MeldSpec, RuleSet

__all__ = [
    "contract_arrangements",
    "can_meet",
    "can_shed",
    "extend_arrangement",
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


def _position_mask(counts: list[int], suit: int, wrap: bool) -> int:
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


def _sequence_candidates(spec: MeldSpec, counts: list[int], rules: RuleSet
                         ) -> Iterator[tuple[int, ...]]:
    cap = wild_limit(spec.kind, rules)
    cap = _BIG if cap is None else cap
    length = spec.min_len
    wilds = _wild_codes(rules, counts)
    n_wild = sum(counts[w] for w in wilds)
    room = min(cap, n_wild)
    if spec.kind == "escala":
        starts = range(1, 14) if rules.wrap else range(1, 16 - length)
        full = (1 << length) - 1
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
                yield from _fill(need, missing, counts, wilds)
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


def _fill(need: list[int], missing: list[int], counts: list[int], wilds: list[int]
          ) -> Iterator[tuple[int, ...]]:
    used = list(counts)
    for code in need:
        used[code] -= 1
    # A wild that is also a natural of this escala may already be spoken for.
    free = [w for w in wilds if used[w] > 0] if missing else []
    for wl in _multisets(free, used, len(missing)):
        cand = list(need)
        for i, w in zip(missing, wl, strict=True):
            cand[i] = w
        yield tuple(cand)
        if not missing:
            return


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


def _candidates(spec: MeldSpec, counts: list[int], rules: RuleSet
                ) -> Iterator[tuple[int, ...]]:
    if spec.kind == "trio":
        return _trio_candidates(spec, counts, rules)
    return _sequence_candidates(spec, counts, rules)


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
    return any(((mask >> start) & full).bit_count() >= need for start in range(1, last))


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
    order."""
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

    def search(depth: int, floor: tuple[int, ...] | None) -> Iterator[Arrangement]:
        nonlocal found
        if depth == len(order):
            found += 1
            yield tuple(tuple(ALL_CARDS[c] for c in chosen[i]) for i in range(len(specs)))
            return
        index = order[depth]
        spec = specs[index]
        same_as_prev = depth > 0 and specs[order[depth - 1]] == spec
        for cand in _candidates(spec, counts, rules):
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

    yield from search(0, None)


def can_meet(hand: Sequence[Card], contract: Contract, rules: RuleSet) -> bool:
    """Whether the hand holds the contract."""
    return next(contract_arrangements(hand, contract, rules, limit=1), None) is not None


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


def can_shed(rest: Sequence[Card], melds: Sequence[Meld], rules: RuleSet, keep: int) -> bool:
    """Whether ``rest`` can be laid off onto ``melds`` until at most ``keep`` cards are left
    (one for the last discard, or none when going out by laying off)."""
    if len(rest) <= keep:
        return True
    seen: set[Card] = set()
    for i, card in enumerate(rest):
        if card in seen:
            continue
        seen.add(card)
        others = [*rest[:i], *rest[i + 1:]]
        for m_index, meld in enumerate(melds):
            ends = meld.open_ends(rules) if meld.kind == "escala" else (None,)
            for end in ends:
                try:
                    grown = meld.extended(card, end, rules, limit=rules.wild_limit_on_layoff)
                except MeldError:
                    continue
                new_melds = [*melds[:m_index], grown, *melds[m_index + 1:]]
                if can_shed(others, new_melds, rules, keep):
                    return True
    return False
