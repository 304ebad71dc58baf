"""The rules of a game in plain words, in Spanish (``"es"``, the default) or English (``"en"``).

:func:`describe_rules` writes out everything a :class:`~carioca.rules.RuleSet` decides, round by
round, as plain text with simple markdown headings, tables and lists (``carioca rules chile``).
:func:`describe_preset_list` gives one line per named preset. The game's own words (trío,
escala, bajarse, agregar, pozo, mazo, comodín, comprar) are used in both languages.

>>> from carioca.rules import RuleSet
>>> text = describe_rules(RuleSet.preset("chile"), lang="en")
>>> print(text.splitlines()[0])
# Carioca: chile
>>> row = next(line for line in text.splitlines() if line.startswith("| 8 "))
>>> [cell.strip() for cell in row.strip("|").split("|")]
['8', 'four tríos', '12', 'must go out in one turn']
>>> describe_rounds(RuleSet.preset("dos-libres"), lang="es")[-1]
(8, 'cuatro tríos', 13, True)
>>> "Deck: 2 packs of 52 + 4 jokers (108 cards) up to 5 players" in text
True
>>> print(describe_rules(RuleSet.preset("chile")).splitlines()[0])
# Carioca: chile
>>> dict(describe_preset_list("es"))["chico"]
'Carioca chico: las rondas 1, 3, 5 y 7 de chile, un juego corto.'
>>> describe_rules(RuleSet.preset("chile"), lang="fr")
Traceback (most recent call last):
...
ValueError: unknown language 'fr': use 'es' (español) or 'en' (English)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .cards import RANKS
from .rules import PRESET_NOTES, PRESETS, RoundDef, RulesError, RuleSet

__all__ = ["LANGS", "describe_rules", "describe_rounds", "describe_preset_list", "preset_notes"]

LANGS: Final = ("es", "en")
"""The languages the rules can be written in."""

_PRESET_NOTES_ES: Final[dict[str, str]] = {
    "chile": "El estándar chileno (guía sueca): 8 rondas, 12 cartas, 108 cartas.",
    "chile-10": "Como se juega en Chile (fuente en español): las 8 rondas de chile "
                "+ escala sucia + escala real.",
    "dos-libres": "Los doses son comodines (fuente alemana): 11 cartas, 13 en la ronda 8 "
                  "(cuatro tríos de una vez).",
    "argentina": "Argentina (fuente alemana): 7 rondas, los doses no son comodines.",
    "rumi": "El rumi de Perú: como chile, pero el contrato se puede bajar por partes "
            "en varios turnos.",
    "chico": "Carioca chico: las rondas 1, 3, 5 y 7 de chile, un juego corto.",
    "familia": "Para familias con niños: 4 rondas, escalas de 3, comodines libres, "
               "gana quien gana más rondas.",
    "online": "El juego en línea (fuente en inglés): 7 rondas (+ escalera real), "
              "K-A-2 vale, -10 por irse de una.",
}

# The presets' notes in the web table's other languages (the rules themselves are written
# in Spanish and English only).
_PRESET_NOTES_DE_SV: Final[dict[str, dict[str, str]]] = {
    "de": {
        "chile": "Der chilenische Standard (schwedische Anleitung): 8 Runden, 12 Karten, "
                 "108 Karten.",
        "chile-10": "Wie in Chile gespielt (spanische Quelle): die 8 Runden von chile "
                    "+ Escala sucia + Escala real.",
        "dos-libres": "Zweien sind Joker (deutsche Quelle): 11 Karten, 13 in Runde 8 "
                      "(vier Tríos auf einmal).",
        "argentina": "Argentinien (deutsche Quelle): 7 Runden, Zweien sind keine Joker.",
        "rumi": "Rumi aus Peru: wie chile, aber der Kontrakt darf in Teilen über mehrere "
                "Züge ausgelegt werden.",
        "chico": "Carioca chico: die Runden 1, 3, 5 und 7 von chile, ein kurzes Spiel.",
        "familia": "Für Familien mit Kindern: 4 Runden, Escalas aus 3 Karten, Joker frei, "
                   "es gewinnt, wer die meisten Runden gewinnt.",
        "online": "Das Online-Spiel (englische Quelle): 7 Runden (+ Escalera real), K-A-2 "
                  "gilt, -10 fürs Ausgehen auf einmal.",
    },
    "sv": {
        "chile": "Chilensk standard (svensk guide): 8 rundor, 12 kort, 108 kort.",
        "chile-10": "Som man spelar i Chile (spansk källa): chiles 8 rundor + escala sucia "
                    "+ escala real.",
        "dos-libres": "Tvåorna är jokrar (tysk källa): 11 kort, 13 i runda 8 (fyra tríos "
                      "på en gång).",
        "argentina": "Argentina (tysk källa): 7 rundor, tvåorna är inte jokrar.",
        "rumi": "Rumi från Peru: som chile, men kontraktet får läggas ner i delar under "
                "flera turer.",
        "chico": "Carioca chico: chiles rundor 1, 3, 5 och 7, ett kort parti.",
        "familia": "För familjer med barn: 4 rundor, escalas på 3 kort, fria jokrar, den "
                   "som vinner flest rundor vinner.",
        "online": "Onlinespelet (engelsk källa): 7 rundor (+ escalera real), K-A-2 gäller, "
                  "-10 för att gå ut på en gång.",
    },
}

_NUMBER_KEYS: Final = tuple(r for r in RANKS if r.isdigit())  # "2" ... "10"


class _Words:
    """Picks the Spanish or the English form of each sentence."""

    def __init__(self, lang: str) -> None:
        self.es = lang == "es"

    def __call__(self, es: str, en: str) -> str:
        return es if self.es else en

    def plural(self, n: int, es_one: str, es_many: str, en_one: str, en_many: str) -> str:
        if self.es:
            return es_one if n == 1 else es_many
        return en_one if n == 1 else en_many

    def join(self, items: list[str]) -> str:
        """``a, b y c`` / ``a, b and c``."""
        if len(items) <= 1:
            return "".join(items)
        return ", ".join(items[:-1]) + self(" y ", " and ") + items[-1]


def _check_lang(lang: object) -> str:
    if isinstance(lang, str):
        key = lang.strip().lower()
        if key in LANGS:
            return key
    raise ValueError(f"unknown language {lang!r}: use 'es' (español) or 'en' (English)")


# --------------------------------------------------------------------------- public API

def describe_rules(rules: RuleSet, lang: str = "es") -> str:
    """The rules of the game, in plain words, section by section and round by round."""
    w = _Words(_check_lang(lang))
    sections = [
        _title(rules, w),
        _players_and_deck(rules, w),
        _wild_cards(rules, w),
        _rounds_table(rules, w),
        _melds(rules, w),
        _turn(rules, w),
        _going_out(rules, w),
        _buying(rules, w),
        _stock(rules, w),
        _scoring(rules, w),
        _other(rules, w),
    ]
    return "\n\n".join(s.rstrip() for s in sections) + "\n"


def describe_rounds(rules: RuleSet, lang: str = "es") -> list[tuple[int, str, int, bool]]:
    """(number, contract in words, cards dealt, must go out in one turn) for every round."""
    w = _Words(_check_lang(lang))
    return [
        (i, _contract_words(rnd, w), rnd.hand_size, rnd.go_out_at_once)
        for i, rnd in enumerate(rules.rounds, 1)
    ]


def describe_preset_list(lang: str = "es") -> list[tuple[str, str]]:
    """(preset name, one-line description) for every preset, in the order of ``PRESETS``."""
    key = _check_lang(lang)
    w = _Words(key)
    notes = _PRESET_NOTES_ES if key == "es" else PRESET_NOTES
    return [(name, notes.get(name) or _summary(rules, w)) for name, rules in PRESETS.items()]


def preset_notes(name: str) -> dict[str, str]:
    """A preset's one-line note in every language a page speaks (es, en, de, sv).

    >>> preset_notes("chico")["es"]
    'Carioca chico: las rondas 1, 3, 5 y 7 de chile, un juego corto.'
    >>> sorted(preset_notes("chile"))
    ['de', 'en', 'es', 'sv']
    """
    notes = {lang: dict(describe_preset_list(lang))[name] for lang in LANGS}
    notes.update({lang: by_name[name] for lang, by_name in _PRESET_NOTES_DE_SV.items()
                  if name in by_name})
    return notes


# --------------------------------------------------------------------------- helpers

def _summary(rules: RuleSet, w: _Words) -> str:
    """A generated one-line description, for rules without a written note."""
    n = len(rules.rounds)
    sizes = sorted({r.hand_size for r in rules.rounds})
    cards = "/".join(str(s) for s in sizes)
    wilds = _wild_names(rules, w)
    wild_text = w("comodines: ", "wild: ") + w.join(wilds) if wilds else w(
        "sin comodines", "no wild cards"
    )
    rounds = w.plural(n, "ronda", "rondas", "round", "rounds")
    return f"{n} {rounds}, {cards} " + w("cartas", "cards") + f", {wild_text}."


def _wild_names(rules: RuleSet, w: _Words) -> list[str]:
    names = {
        "jokers": w("los jokers", "the jokers"),
        "twos": w("los doses (dos libres)", "the twos (dos libres)"),
        "red_aces": w("los ases rojos (A♥ y A♦)", "the red aces (A♥ and A♦)"),
    }
    return [text for kind, text in names.items() if kind in rules.wilds]


def _format_value(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={_format_value(v)}" for k, v in value.items())
    if isinstance(value, (frozenset, set)):
        return "[" + ", ".join(sorted(str(v) for v in value)) + "]"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_format_value(v) for v in value) + "]"
    return str(value)


def _points(n: int, w: _Words) -> str:
    return f"{n} " + w.plural(abs(n), "punto", "puntos", "point", "points")


def _player_range(a: int, b: int, lo: int, hi: int, w: _Words) -> str:
    if a == b:
        return w(f"con {a} jugadores", f"for {a} players")
    if a == lo and b < hi:
        return w(f"hasta {b} jugadores", f"up to {b} players")
    if b == hi and a > lo:
        return w(f"desde {a} jugadores", f"from {a} players")
    return w(f"de {a} a {b} jugadores", f"for {a} to {b} players")


def _deck_words(packs: int, jokers_per_pack: int, w: _Words) -> str:
    jokers = packs * jokers_per_pack
    size = packs * (52 + jokers_per_pack)
    deck = w(
        f"{packs} {w.plural(packs, 'baraja', 'barajas', '', '')} de 52",
        f"{packs} {w.plural(packs, '', '', 'pack', 'packs')} of 52",
    )
    if jokers:
        deck += f" + {jokers} " + w.plural(jokers, "joker", "jokers", "joker", "jokers")
    else:
        deck += w(" sin jokers", " without jokers")
    return deck + w(f" ({size} cartas)", f" ({size} cards)")


def _contract_words(rnd: RoundDef, w: _Words) -> str:
    lang = "es" if w.es else "en"
    return w(" o ", " or ").join(c.words(lang) for c in rnd.contracts)


def _escala_lengths(rules: RuleSet) -> list[int]:
    return sorted({
        m.min_len for r in rules.rounds for c in r.contracts for m in c.melds
        if m.kind == "escala"
    })


def _special_kinds(rules: RuleSet) -> list[str]:
    found: list[str] = []
    for r in rules.rounds:
        for c in r.contracts:
            for m in c.melds:
                if m.kind in ("sucia", "real", "colores") and m.kind not in found:
                    found.append(m.kind)
    return found


def _table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.ljust(wd) for c, wd in zip(cells, widths, strict=True)) + " |"

    rule = "|" + "|".join("-" * (wd + 2) for wd in widths) + "|"
    return "\n".join([line(header), rule, *(line(r) for r in rows)])


def _bullets(items: list[str]) -> str:
    return "\n".join(f"- {item}" for item in items if item)


# --------------------------------------------------------------------------- sections

def _title(rules: RuleSet, w: _Words) -> str:
    name = rules.preset_name
    if name in PRESETS:
        lines = [f"# Carioca: {name}"]
        note = (_PRESET_NOTES_ES if w.es else PRESET_NOTES).get(name) or _summary(
            PRESETS[name], w
        )
        if rules.options:
            note = w(f"Basado en el preset {name}: ", f"Based on the preset {name}: ") + note
        lines.append("")
        lines.append(note)
    else:
        lines = [w(f"# Carioca: reglas propias ({name})", f"# Carioca: house rules ({name})"),
                 "", _summary(rules, w)]
    if rules.options:
        changed = "; ".join(f"{k} = {_format_value(v)}" for k, v in rules.options)
        lines.append("")
        lines.append(w(f"Cambios sobre el preset: {changed}.",
                       f"Changed from the preset: {changed}."))
    return "\n".join(lines)


def _players_and_deck(rules: RuleSet, w: _Words) -> str:
    lo, hi = rules.min_players, rules.max_players
    items = [w(f"Jugadores: de {lo} a {hi}.", f"Players: {lo} to {hi}.")]

    groups: list[tuple[int, int, tuple[int, int]]] = []
    for n in range(lo, hi + 1):
        deck = rules.deck_for(n)
        if groups and groups[-1][2] == deck:
            groups[-1] = (groups[-1][0], n, deck)
        else:
            groups.append((n, n, deck))
    if len(groups) == 1:
        deck_text = _deck_words(*groups[0][2], w)
    else:
        deck_text = "; ".join(
            f"{_deck_words(*deck, w)} {_player_range(a, b, lo, hi, w)}" for a, b, deck in groups
        )
    items.append(w(f"Baraja: {deck_text}.", f"Deck: {deck_text}."))

    short = []
    for n in range(lo, hi + 1):
        try:
            rules.check_players(n)
        except RulesError:
            short.append(str(n))
    if short:
        who = w.join(short)
        items.append(w(
            f"Con {who} jugadores no alcanzan las cartas para repartir: agreguen una baraja.",
            f"With {who} players there are not enough cards to deal: add a pack.",
        ))

    items.append(w(
        "En cada ronda reparte el jugador siguiente al de la ronda anterior, y empieza el que "
        "está después del que reparte; se juega en el orden de la mesa. Cada ronda da las "
        "cartas que dice la tabla de rondas; se da vuelta una carta para empezar el pozo y el "
        "resto queda boca abajo como mazo.",
        "The deal passes to the next player each round, and the player after the dealer starts; "
        "play goes round the table in seat order. Each round deals the cards the round table "
        "says; one card is turned up to start the pozo (discard pile) and the rest, face down, "
        "is the mazo (stock).",
    ))
    if rules.bury_wild_first_discard:
        items.append(w(
            "Si la carta que se da vuelta para el pozo es un comodín, se entierra en el mazo y "
            "se da vuelta otra.",
            "If the card turned up for the pozo is a comodín (wild card), it is buried in the "
            "mazo and another card is turned up.",
        ))
    else:
        items.append(w(
            "La primera carta del pozo queda como salga, aunque sea un comodín.",
            "The first pozo card stays as it comes, even if it is a comodín (wild card).",
        ))
    return w("## Jugadores y baraja", "## Players and deck") + "\n\n" + _bullets(items)


def _wild_cards(rules: RuleSet, w: _Words) -> str:
    head = w("## Comodines", "## Wild cards (comodines)") + "\n\n"
    names = _wild_names(rules, w)
    items: list[str] = []
    if rules.jokers and "jokers" not in rules.wilds:
        items.append(w("Los jokers de la baraja no son comodines en estas reglas.",
                       "The jokers in the deck are not wild in these rules."))
    if not names:
        items.insert(0, w("No hay comodines: ninguna carta reemplaza a otra.",
                          "No card is wild: no card may stand for another."))
        return head + _bullets(items)
    items.insert(0, w(
        f"Son comodines {w.join(names)}. Un comodín reemplaza a cualquier carta en un trío o "
        f"una escala.",
        f"Wild cards (comodines): {w.join(names)}. A comodín stands for any card in a trío or "
        f"an escala.",
    ))

    limit = rules.max_wilds_per_meld
    if limit is None:
        items.append(w("No hay límite de comodines por juego (trío o escala).",
                       "There is no limit of comodines per meld (trío or escala)."))
    elif limit == 0:
        items.append(w("Al bajarse no se pueden usar comodines en los juegos.",
                       "No comodín may be used in the melds you lay down."))
    else:
        many = w.plural(limit, "comodín", "comodines", "comodín", "comodines")
        count = w("un", "one") if limit == 1 else str(limit)
        items.append(w(f"Máximo {count} {many} por juego (trío o escala).",
                       f"At most {count} {many} per meld (trío or escala)."))
    if limit is not None:
        if rules.wild_limit_on_layoff:
            items.append(w(
                "El límite vale también al agregar: ningún juego de la mesa pasa de ese número "
                "de comodines.",
                "The limit also holds when you agregar (lay off): no meld on the table ever "
                "holds more comodines than that.",
            ))
        else:
            items.append(w(
                "Al agregar no hay límite: a los juegos de la mesa se les pueden añadir más "
                "comodines.",
                "When you agregar (lay off) there is no limit: more comodines may be added to "
                "the melds on the table.",
            ))
    items.append(w(
        "Todo juego conserva al menos una carta natural: nunca puede ser solo de comodines.",
        "Every meld keeps at least one natural card: it may never be all comodines.",
    ))
    own_place: list[tuple[str, str]] = []
    if "twos" in rules.wilds:
        own_place.append((w("un dos", "a two"),
                          w("el 2♥ en A♥ 2♥ 3♥ 4♥", "2♥ in A♥ 2♥ 3♥ 4♥")))
    if "red_aces" in rules.wilds:
        own_place.append((w("un as rojo", "a red ace"),
                          w("el A♦ en A♦ 2♦ 3♦ 4♦", "A♦ in A♦ 2♦ 3♦ 4♦")))
    if own_place:
        which = w(" o ", " or ").join(name for name, _ in own_place)
        example = w(" o ", " or ").join(ex for _, ex in own_place)
        items.append(w(
            f"En su propio lugar, {which} cuenta como carta natural, no como comodín: en una "
            f"escala de su pinta (como {example}) o en un trío de su número.",
            f"At its own place, {which} counts as a natural card, not as a comodín: in an "
            f"escala of its suit (like {example}) or in a trío of its rank.",
        ))
    return head + _bullets(items)


def _rounds_table(rules: RuleSet, w: _Words) -> str:
    n = len(rules.rounds)
    head = w(f"## Rondas\n\nSe juegan {n} rondas, en este orden:",
             f"## Rounds\n\n{n} rounds are played, in this order:")
    if n == 1:
        head = w("## Rondas\n\nSe juega una sola ronda:", "## Rounds\n\nOne round is played:")
    header = w("Ronda|Contrato|Cartas|Nota", "Round|Contract|Cards dealt|Note").split("|")
    at_once = w("hay que irse en una sola vuelta", "must go out in one turn")
    rows = [
        [str(i), words, str(cards), at_once if once else ""]
        for i, words, cards, once in describe_rounds(rules, "es" if w.es else "en")
    ]
    parts = [head, _table(header, rows)]
    if any(len(r.contracts) > 1 for r in rules.rounds):
        parts.append(w("Donde el contrato dice «o», cada jugador elige cuál cumplir.",
                       "Where the contract says \"or\", each player chooses which to meet."))
    if any(r.go_out_at_once for r in rules.rounds):
        parts.append(w(
            "En las rondas en que hay que irse en una sola vuelta, el que se baja tiene que "
            "quedarse sin cartas en ese mismo turno (bajarse, agregar y botar); por eso en esas "
            "rondas se puede agregar en el mismo turno en que uno se baja.",
            "In a round where you must go out in one turn, whoever lays the contract down "
            "(bajarse) must empty the hand in that same turn (bajarse, agregar and discard); so "
            "in those rounds you may agregar in the same turn you go down.",
        ))
    return "\n\n".join(parts)


def _melds(rules: RuleSet, w: _Words) -> str:
    items: list[str] = []
    if rules.exact_melds:
        items.append(w(
            "Trío: exactamente 3 cartas del mismo número, de cualquier pinta, al bajarse; "
            "después se le pueden agregar más.",
            "Trío: exactly 3 cards of one rank, any suits, when laid down; more may be added "
            "later.",
        ))
    else:
        items.append(w(
            "Trío: 3 o más cartas del mismo número, de cualquier pinta.",
            "Trío: 3 or more cards of one rank, any suits.",
        ))
    if rules.decks != 1:
        items.append(w(
            "Como hay más de una baraja, un trío puede tener dos cartas iguales.",
            "With more than one pack, a trío may hold two identical cards.",
        ))

    lengths = _escala_lengths(rules)
    if lengths:
        length = str(lengths[0]) if len(lengths) == 1 else None
        if rules.exact_melds:
            if length is not None:
                items.append(w(
                    f"Escala: exactamente {length} cartas seguidas de la misma pinta al "
                    f"bajarse, sin repetir número; después se alarga por cualquiera de las "
                    f"puntas.",
                    f"Escala: exactly {length} cards in a row of one suit when laid down, "
                    f"no rank twice; later it may grow at either end.",
                ))
            else:
                items.append(w(
                    "Escala: cartas seguidas de la misma pinta, sin repetir número, exactamente "
                    "del largo que pide el contrato al bajarse; después se alarga por cualquiera "
                    "de las puntas.",
                    "Escala: cards in a row of one suit, no rank twice, exactly as long as the "
                    "contract says when laid down; later it may grow at either end.",
                ))
        elif length is not None:
            items.append(w(
                f"Escala: {length} o más cartas seguidas de la misma pinta, sin repetir "
                f"número.",
                f"Escala: {length} or more cards in a row of one suit, no rank twice.",
            ))
        else:
            items.append(w(
                "Escala: cartas seguidas de la misma pinta, sin repetir número, por lo menos "
                "del largo que pide el contrato.",
                "Escala: cards in a row of one suit, no rank twice, at least as long as the "
                "contract says.",
            ))

    if rules.wrap:
        items.append(w(
            "El as va abajo (A-2-3-4) o arriba (J-Q-K-A), y la escala puede dar la vuelta por "
            "el as: K-A-2 vale (por ejemplo Q-K-A-2).",
            "The ace goes low (A-2-3-4) or high (J-Q-K-A), and an escala may wrap round the "
            "ace: K-A-2 is allowed (for example Q-K-A-2).",
        ))
    else:
        items.append(w(
            "El as va abajo (A-2-3-4) o arriba (J-Q-K-A), pero no las dos cosas a la vez: "
            "K-A-2 no vale.",
            "The ace goes low (A-2-3-4) or high (J-Q-K-A), never both at once: K-A-2 is not "
            "allowed.",
        ))
    items.append(w(
        "Una escala se baja en orden, de menor a mayor: el lugar de un comodín dice qué carta "
        "reemplaza (en 5♥ JK 7♥ 8♥ el comodín es el 6♥).",
        "An escala is laid in order, low to high: a comodín's place says which card it stands "
        "for (in 5♥ JK 7♥ 8♥ the comodín is the 6♥).",
    ))
    specials = {
        "sucia": w(
            "Escala sucia: del as al rey (13 cartas) seguidas, de cualquier pinta, "
            + ("sin comodines." if rules.max_wilds_per_meld == 0 else "con máximo un comodín."),
            "Escala sucia: ace to king (13 cards) in a row, any suits, "
            + ("with no comodín." if rules.max_wilds_per_meld == 0
               else "with at most one comodín."),
        ),
        "real": w(
            "Escala real: del as al rey (13 cartas) de una sola pinta, sin comodines.",
            "Escala real: ace to king (13 cards) of one suit, with no comodín.",
        ),
        "colores": w(
            "Escala de colores: del as al rey (13 cartas), alternando rojo y negro.",
            "Escala de colores: ace to king (13 cards), alternating red and black.",
        ),
    }
    items.extend(specials[k] for k in _special_kinds(rules))
    return w("## Tríos y escalas", "## Tríos and escalas") + "\n\n" + _bullets(items)


def _turn(rules: RuleSet, w: _Words) -> str:
    steps: list[str] = [w(
        "Roba una carta: la de arriba del mazo o la de arriba del pozo.",
        "Draw one card: the top of the mazo (stock) or the top of the pozo (discard pile).",
    )]
    at_once = any(r.go_out_at_once for r in rules.rounds)
    if rules.partial_contracts:
        steps.append(w(
            "Se baja por partes: puede bajar uno o más juegos del contrato en un turno y el "
            "resto en turnos siguientes; el contrato está bajado cuando están en la mesa todos "
            "sus juegos.",
            "Go down (bajarse) in parts: you may lay down one or more melds of the contract in "
            "one turn and the rest in later turns; the contract is down once all its melds are "
            "on the table.",
        ) + (w(" En las rondas en que hay que irse en una sola vuelta, se baja todo en el "
               "mismo turno.",
               " In a round where you must go out in one turn, it all goes down in that turn.")
             if at_once else ""))
    else:
        steps.append(w(
            "Si puede, se baja: pone en la mesa el contrato completo de la ronda, todo en el "
            "mismo turno (no se baja solo una parte).",
            "If you can, go down (bajarse): lay the whole contract of the round on the table, "
            "all in the same turn (never just a part of it).",
        ))
    down = w("Con el contrato completo en la mesa", "Once your whole contract is down")
    if rules.layoff_same_turn:
        steps.append(w(
            f"{down}, puede agregar cartas a cualquier juego de la mesa, propio o ajeno, ya en "
            f"el mismo turno en que se bajó.",
            f"{down}, you may agregar (lay off) cards onto any meld on the table, yours or "
            f"another player's, already in the turn you go down (bajarse).",
        ))
    else:
        steps.append(w(
            f"{down}, puede agregar cartas a cualquier juego de la mesa, propio o ajeno, desde "
            f"su turno siguiente: no en el mismo turno en que se bajó",
            f"{down}, you may agregar (lay off) cards onto any meld on the table, yours or "
            f"another player's, from your next turn on: not in the turn you go down",
        ) + (w(" (salvo en las rondas en que hay que irse en una sola vuelta).",
               " (except in a round where you must go out in one turn).") if at_once else "."))
    replacement = {
        "off": w(
            "Los comodines de la mesa no se cambian: quedan donde están.",
            "Comodines on the table are never swapped out: they stay where they are.",
        ),
        "take": w(
            "Cambiar un comodín: quien ya se bajó y tiene la carta natural exacta que un "
            "comodín de la mesa reemplaza puede, en su turno, ponerla en su lugar y llevarse el "
            "comodín a la mano.",
            "Swapping a comodín: once your contract is down, if you hold the exact natural card "
            "a comodín on the table stands for, you may in your turn put it in its place and "
            "take the comodín into your hand.",
        ),
        "anyone": w(
            "Cambiar un comodín: cualquier jugador, en su turno y aunque no se haya bajado, "
            "que tenga la carta natural exacta que un comodín de la mesa reemplaza puede "
            "ponerla en su lugar y llevarse el comodín a la mano; lo puede usar de inmediato.",
            "Swapping a comodín: any player, in their turn and even before going down, who "
            "holds "
            "the exact natural card a comodín on the table stands for may put it in its place "
            "and take the comodín into their hand; it may be used at once.",
        ),
        "relocate": w(
            "Cambiar un comodín: quien ya se bajó y tiene la carta natural exacta que un "
            "comodín de la mesa reemplaza puede, en su turno, ponerla en su lugar. En una "
            "escala el comodín no sale de la mesa: se corre a la punta de la escala que elija "
            "el jugador. En un trío el cambio es directo y el comodín pasa a su mano.",
            "Swapping a comodín: once your contract is down, if you hold the exact natural card "
            "a comodín on the table stands for, you may in your turn put it in its place. In "
            "an escala the comodín stays on the table and moves to the end of the escala you "
            "choose; in a trío the swap is direct and the comodín goes to your hand.",
        ),
    }
    steps.append(replacement.get(
        rules.joker_replacement, f"joker_replacement = {rules.joker_replacement}."
    ))
    if rules.go_out_by_layoff:
        steps.append(w(
            "Termina su turno botando una carta al pozo (si ya se quedó sin cartas, no bota).",
            "End the turn by discarding one card onto the pozo (if your hand is already empty, "
            "there is nothing to discard).",
        ))
    else:
        steps.append(w(
            "Termina su turno botando una carta al pozo.",
            "End the turn by discarding one card onto the pozo.",
        ))
    body = "\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1))
    intro = w("En su turno, cada jugador:", "In your turn:")
    return w("## El turno", "## The turn") + "\n\n" + intro + "\n\n" + body


def _going_out(rules: RuleSet, w: _Words) -> str:
    items: list[str] = []
    if rules.go_out_by_layoff:
        items.append(w(
            "Un jugador se va (irse) cuando se queda sin cartas: botando la última al pozo, o "
            "bajándola o agregándola a un juego de la mesa.",
            "A player goes out (irse) when their hand is empty: by discarding the last card, or "
            "by laying it down or adding it to a meld (agregar).",
        ))
    else:
        items.append(w(
            "Un jugador se va (irse) solo botando su última carta al pozo: hay que guardar una "
            "carta para botarla al final.",
            "A player goes out (irse) only by discarding their last card onto the pozo: one "
            "card must be kept back for that last discard.",
        ))
    if rules.scoring == "rounds":
        items.append(w(
            "La ronda termina en ese momento y la gana el que se fue.",
            "The round ends at once, and whoever went out wins it.",
        ))
    else:
        items.append(w(
            "La ronda termina en ese momento; los demás suman los puntos de todas las cartas "
            "que les quedan en la mano, se hayan bajado o no.",
            "The round ends at once; every other player scores all the cards left in their "
            "hand, whether or not they had laid their contract down.",
        ))
    return w("## Irse", "## Going out") + "\n\n" + _bullets(items)


def _buying(rules: RuleSet, w: _Words) -> str:
    head = w("## Comprar", "## Buying (comprar)") + "\n\n"
    if rules.buying == "off":
        return head + _bullets([w(
            "No se compra: la carta de arriba del pozo solo la toma el jugador de turno, como "
            "su robo.",
            "No buying: only the player whose turn it is may take the top of the pozo, as their "
            "draw.",
        )])
    items = [w(
        "Se puede comprar: cuando alguien bota, otro jugador puede comprar la carta de arriba "
        "del pozo fuera de su turno. El que la botó no puede comprarla. El jugador de turno "
        "tiene la primera opción (la toma como su robo); después, el más cercano en el orden "
        "de juego. Hay que pedirla antes de que el jugador siguiente robe.",
        "Buying is allowed: when someone discards, another player may comprar (buy) the top "
        "of the pozo out of turn. The discarder may not buy it. The player whose turn it is has "
        "first claim (taking it as their draw); then the nearest in turn order. It must be "
        "claimed before the next player draws.",
    )]
    if rules.buying == "penalty_card":
        items.append(w(
            "Quien compra saca además una carta del mazo, de castigo.",
            "Whoever buys also takes a penalty card from the mazo.",
        ))
    else:
        pts = _points(rules.steal_points, w)
        items.append(w(
            f"Cada compra cuesta {pts} de castigo, que se suman a la cuenta del que compra al "
            f"final de la ronda.",
            f"Each buy costs {pts}, added to the buyer's score at the end of the round.",
        ))
    n = rules.max_buys_per_round
    if n == 0:
        items.append(w("El máximo es 0 compras por ronda: en la práctica nadie compra.",
                       "The limit is 0 buys a round: in practice nobody may buy."))
    else:
        times = w.plural(n, "compra", "compras", "buy", "buys")
        items.append(w(f"Máximo {n} {times} por jugador en cada ronda.",
                       f"At most {n} {times} per player in each round."))
    return head + _bullets(items)


def _stock(rules: RuleSet, w: _Words) -> str:
    if rules.scoring == "rounds":
        ends = w("la ronda termina sin ganador", "the round ends and nobody wins it")
    else:
        ends = w("la ronda termina y todos suman los puntos de su mano",
                 "the round ends and everyone scores the cards in their hand")
    n = rules.max_reshuffles
    items = []
    if n is None:
        items.append(w(
            f"Si se acaba el mazo, se baraja el pozo, menos su carta de arriba, y pasa a ser el "
            f"nuevo mazo, cada vez que haga falta. Si aun así no quedan cartas para robar, "
            f"{ends}.",
            f"If the mazo runs out, the pozo except its top card is shuffled into a new mazo, "
            f"as often as needed. If there is still no card to draw, {ends}.",
        ))
    elif n:
        times = w.plural(n, "vez", "veces", "time", "times")
        items.append(w(
            f"Si se acaba el mazo, se baraja el pozo, menos su carta de arriba, y pasa a ser el "
            f"nuevo mazo; esto se hace hasta {n} {times} por ronda. Si aun así no quedan cartas "
            f"para robar, {ends}.",
            f"If the mazo runs out, the pozo except its top card is shuffled into a new mazo, "
            f"up to {n} {times} a round. If there is still no card to draw, {ends}.",
        ))
    else:
        items.append(w(
            f"Si se acaba el mazo, no se vuelve a barajar el pozo: {ends}.",
            f"If the mazo runs out, the pozo is not reshuffled: {ends}.",
        ))
    m = rules.max_turns_per_round
    items.append(w(
        f"Una ronda dura como máximo {m} turnos; si nadie se ha ido antes, {ends}.",
        f"A round lasts at most {m} turns; if nobody has gone out by then, {ends}.",
    ))
    return w("## Cuando se acaba el mazo", "## When the mazo runs out") + "\n\n" + _bullets(items)


def _value_line(rules: RuleSet, w: _Words) -> str:
    values = dict(rules.values)
    keys = [k for k in (*RANKS, "JK") if k in values]
    parts: list[str] = []
    i = 0
    while i < len(keys):
        key = keys[i]
        j = i
        if key in _NUMBER_KEYS and values[key] == int(key):
            while j + 1 < len(keys) and keys[j + 1] in _NUMBER_KEYS and (
                values[keys[j + 1]] == int(keys[j + 1])
            ):
                j += 1
            if j > i:
                parts.append(w(f"{key} al {keys[j]}: lo que dice la carta",
                               f"{key} to {keys[j]}: face value"))
                i = j + 1
                continue
        while j + 1 < len(keys) and keys[j + 1] != "JK" and key != "JK" and (
            values[keys[j + 1]] == values[key]
            and not (keys[j + 1] in _NUMBER_KEYS and values[keys[j + 1]] == int(keys[j + 1]))
        ):
            j += 1
        names = [w("comodín (JK)", "joker (JK)") if k == "JK" else k for k in keys[i:j + 1]]
        parts.append(f"{', '.join(names)}: {values[key]}")
        i = j + 1
    return " · ".join(parts)


def _scoring(rules: RuleSet, w: _Words) -> str:
    items: list[str] = []
    if rules.scoring == "rounds":
        items.append(w(
            "Se juega por rondas ganadas: el que se va gana la ronda (una marca en el "
            "anotador). Al final gana quien ganó más rondas. Los puntos de las cartas no "
            "cuentan.",
            "Scoring by rounds won: whoever goes out wins the round (a mark on the anotador, "
            "the score sheet). At the end, whoever won most rounds wins. Card points do not "
            "count.",
        ))
    else:
        items.append(w(
            "Se juega por puntos: al final de cada ronda cada jugador suma a su cuenta los "
            "puntos de las cartas que le quedan en la mano. Al final de la última ronda gana "
            "el que tiene menos puntos.",
            "Scoring by points: at the end of each round every player adds the points of the "
            "cards left in their hand to their total. After the last round the lowest total "
            "wins.",
        ))
        items.append(w(f"Valor de las cartas: {_value_line(rules, w)}.",
                       f"Card values: {_value_line(rules, w)}."))
        out = _points(rules.out_score, w)
        items.append(w(f"El que se va anota {out}.", f"Going out scores {out}."))
        inst = rules.out_points(instant=True)
        if inst != rules.out_score:
            items.append(w(
                f"Irse de una (bajarse e irse en el mismo turno) anota {_points(inst, w)} en "
                f"vez de {rules.out_score}.",
                f"An instant out (irse de una: bajarse and go out in the same turn) scores "
                f"{_points(inst, w)} instead of {rules.out_score}.",
            ))
        else:
            items.append(w(
                "Irse de una (bajarse e irse en el mismo turno) no da puntos extra.",
                "An instant out (irse de una: bajarse and go out in the same turn) earns nothing "
                "extra.",
            ))
    tie = {
        "share": w("Si hay empate, los empatados comparten la victoria.",
                   "A tie is shared: the tied players all win."),
        "most_outs": w("Si hay empate, gana el empatado que se fue en más rondas.",
                       "On a tie, the tied player who went out in most rounds wins."),
        "extra_round": w(
            f"Si hay empate, los empatados juegan una ronda más con el último contrato (hasta "
            f"{rules.extra_rounds_cap} rondas extra; si siguen empatados, comparten la "
            f"victoria).",
            f"On a tie, the tied players play one more round with the last contract (up to "
            f"{rules.extra_rounds_cap} extra rounds; if still tied, they share the win).",
        ),
    }
    items.append(tie.get(rules.tie_break, f"tie_break = {rules.tie_break}."))
    return w("## Puntos y ganador", "## Scoring and winning") + "\n\n" + _bullets(items)


def _other(rules: RuleSet, w: _Words) -> str:
    items = []
    if rules.open_hands:
        items.append(w(
            "Mano abierta: todos juegan con las cartas a la vista, para enseñar a los que "
            "aprenden.",
            "Open hands: everyone plays with their cards face up, to teach those learning.",
        ))
    else:
        items.append(w(
            "Cada uno ve solo su mano; de los demás se sabe lo que está en la mesa y lo que "
            "toman del pozo.",
            "Each player sees only their own hand; of the others you know what is on the table "
            "and what they take from the pozo.",
        ))
    if rules.undo:
        items.append(w(
            "Deshacer: se puede deshacer lo jugado en el turno mientras no se haya botado.",
            "Undo: you may undo your moves within your turn, until you discard.",
        ))
    else:
        items.append(w("Lo jugado no se deshace.", "A move once made cannot be undone."))
    return w("## Otras reglas", "## Other rules") + "\n\n" + _bullets(items)
