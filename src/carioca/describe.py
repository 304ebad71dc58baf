"""The rules of a game in plain words, in Spanish (``"es"``, the default), English (``"en"``),
German (``"de"``) or Swedish (``"sv"``).

:func:`describe_rules` writes out everything a :class:`~carioca.rules.RuleSet` decides, round by
round, as plain text with simple markdown headings, tables and lists (``carioca rules chile``).
:func:`describe_preset_list` gives one line per named preset. The game's own words (trío,
escala, bajarse, agregar, pozo, mazo, comodín, comprar) are used in every language; German
and Swedish name them as their source texts do (Trío, Escala, Pozo, Mazo; a comodín is a
"wilde Karte" in German and a "joker" in Swedish). Numbers, card names (A, K, JK, 5♥) and the
preset names are the same in every language.

>>> from carioca.rules import RuleSet
>>> text = describe_rules(RuleSet.preset("chile"), lang="en")
>>> print(text.splitlines()[0])
# Carioca: chile
>>> row = next(line for line in text.splitlines() if line.startswith("| 8 "))
>>> [cell.strip() for cell in row.strip("|").split("|")]
['8', 'four tríos', '12', 'must go out in one turn']
>>> describe_rounds(RuleSet.preset("dos-libres"), lang="es")[-1]
(8, 'cuatro tríos', 13, True)
>>> describe_rounds(RuleSet.preset("chile"), lang="de")[1]
(2, 'ein Trío und eine 4er-Escala', 12, False)
>>> describe_rounds(RuleSet.preset("chile"), lang="sv")[5]
(6, 'en trío och två escalas på 4', 12, False)
>>> "Deck: 2 packs of 52 + 4 jokers (108 cards) up to 5 players" in text
True
>>> print(describe_rules(RuleSet.preset("chile")).splitlines()[0])
# Carioca: chile
>>> dict(describe_preset_list("es"))["chico"]
'Carioca chico: las rondas 1, 3, 5 y 7 de chile, una partida corta.'
>>> describe_rules(RuleSet.preset("chile"), lang="fr")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: unknown language 'fr': use 'es' (español), 'en' (English), ... or 'sv' (svenska)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .cards import RANKS
from .rules import PRESET_NOTES, PRESETS, Contract, RoundDef, RulesError, RuleSet

__all__ = ["LANGS", "describe_rules", "describe_rounds", "describe_preset_list", "preset_notes"]

LANGS: Final = ("es", "en", "de", "sv")
"""The languages the rules can be written in."""

_LANG_NAMES: Final = {"es": "español", "en": "English", "de": "Deutsch", "sv": "svenska"}

# The presets' one-line notes, by language (the English ones live with the presets).
_PRESET_NOTES: Final[dict[str, dict[str, str]]] = {
    "es": {
        "chile": "El estándar chileno (guía sueca): 8 rondas, 12 cartas a cada uno, 108 cartas "
                 "en total.",
        "chile-10": "Como se juega en Chile (fuente en español): las 8 rondas de chile "
                    "+ escala sucia + escala real.",
        "dos-libres": "Los doses son comodines (fuente alemana): 11 cartas, 13 en la ronda 8 "
                      "(cuatro tríos, hay que irse de una).",
        "argentina": "Argentina (fuente alemana): 7 rondas, los doses no son comodines.",
        "rumi": "El rumi de Perú: como chile, pero el contrato se puede bajar por partes "
                "en varios turnos.",
        "chico": "Carioca chico: las rondas 1, 3, 5 y 7 de chile, una partida corta.",
        "familia": "Para familias con niños: 4 rondas, escalas de 3, comodines libres, "
                   "gana quien gana más rondas.",
        "online": "La versión en línea (fuente en inglés): 7 rondas (+ escala real), "
                  "K-A-2 vale, -10 por irse de una.",
    },
    "en": PRESET_NOTES,
    "de": {
        "chile": "Der chilenische Standard (schwedische Anleitung): 8 Runden, 12 Karten, "
                 "108 Karten.",
        "chile-10": "Wie in Chile gespielt (spanische Quelle): die 8 Runden von chile "
                    "+ Escala sucia + Escala real.",
        "dos-libres": "Zweien sind wild (deutsche Quelle): 11 Karten, 13 in Runde 8 "
                      "(vier Tríos auf einmal).",
        "argentina": "Argentinien (deutsche Quelle): 7 Runden, Zweien sind nicht wild.",
        "rumi": "Rumi aus Peru: wie chile, aber der Kontrakt darf in Teilen über mehrere "
                "Züge ausgelegt werden.",
        "chico": "Carioca chico: die Runden 1, 3, 5 und 7 von chile, ein kurzes Spiel.",
        "familia": "Für Familien mit Kindern: 4 Runden, Escalas aus 3 Karten, beliebig viele "
                   "Joker, es gewinnt, wer die meisten Runden gewinnt.",
        "online": "Das Online-Spiel (englische Quelle): 7 Runden (+ Escalera real), K-A-2 "
                  "gilt, -10 fürs Ausgehen auf einen Schlag.",
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

# German and Swedish names of the melds, (one, many); "{n}" is an escala's length. Spanish and
# English come from Contract.words.
_MELD_NAMES: Final[dict[str, dict[str, tuple[str, str]]]] = {
    "de": {
        "trio": ("Trío", "Tríos"),
        "escala": ("{n}er-Escala", "{n}er-Escalas"),
        "sucia": ("Escala sucia", "Escalas sucias"),
        "real": ("Escala real", "Escalas reales"),
        "colores": ("Escala de colores", "Escalas de colores"),
    },
    "sv": {
        "trio": ("trío", "tríos"),
        "escala": ("escala på {n}", "escalas på {n}"),
        "sucia": ("escala sucia", "escalas sucias"),
        "real": ("escala real", "escalas reales"),
        "colores": ("escala de colores", "escalas de colores"),
    },
}
_COUNT_WORDS: Final = {
    "de": ("ein", "zwei", "drei", "vier", "fünf", "sechs"),
    "sv": ("en", "två", "tre", "fyra", "fem", "sex"),
}

_NUMBER_KEYS: Final = tuple(r for r in RANKS if r.isdigit())  # "2" ... "10"


class _Words:
    """Picks each text in the language asked for: ``w(es, en, de, sv)``, all four given."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self._index = LANGS.index(lang)

    def __call__(self, es: str, en: str, de: str, sv: str) -> str:
        return (es, en, de, sv)[self._index]

    def plural(self, n: int, es: tuple[str, str], en: tuple[str, str], de: tuple[str, str],
               sv: tuple[str, str]) -> str:
        """The (one, many) pair of the language, by ``n``."""
        one, many = (es, en, de, sv)[self._index]
        return one if n == 1 else many

    def join(self, items: list[str]) -> str:
        """``a, b y c`` / ``a, b and c`` / ``a, b und c`` / ``a, b och c``."""
        if len(items) <= 1:
            return "".join(items)
        return ", ".join(items[:-1]) + self(" y ", " and ", " und ", " och ") + items[-1]

    def either(self, items: list[str]) -> str:
        """``a o b`` / ``a or b`` / ``a oder b`` / ``a eller b``."""
        return self(" o ", " or ", " oder ", " eller ").join(items)


def _check_lang(lang: object) -> str:
    if isinstance(lang, str):
        key = lang.strip().lower()
        if key in LANGS:
            return key
    names = [f"'{code}' ({name})" for code, name in _LANG_NAMES.items()]
    raise ValueError(f"unknown language {lang!r}: use {', '.join(names[:-1])} or {names[-1]}")


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
    w = _Words(_check_lang(lang))
    return [(name, _note(name, rules, w)) for name, rules in PRESETS.items()]


def preset_notes(name: str) -> dict[str, str]:
    """A preset's one-line note in every language a page speaks (es, en, de, sv).

    >>> preset_notes("chico")["es"]
    'Carioca chico: las rondas 1, 3, 5 y 7 de chile, una partida corta.'
    >>> sorted(preset_notes("chile"))
    ['de', 'en', 'es', 'sv']
    """
    return {lang: dict(describe_preset_list(lang))[name] for lang in LANGS}


# --------------------------------------------------------------------------- helpers

def _note(name: str, rules: RuleSet, w: _Words) -> str:
    """A preset's written note, or a generated summary for a preset without one."""
    return _PRESET_NOTES[w.lang].get(name) or _summary(rules, w)


def _summary(rules: RuleSet, w: _Words) -> str:
    """A generated one-line description, for rules without a written note."""
    n = len(rules.rounds)
    sizes = sorted({r.hand_size for r in rules.rounds})
    cards = "/".join(str(s) for s in sizes)
    wilds = _wild_names(rules, w)
    if wilds:
        wild_text = w("comodines: ", "wild: ", "wild sind ", "som jokrar räknas ") + w.join(wilds)
    else:
        wild_text = w("sin comodines", "no wild cards", "keine wilden Karten", "inga jokrar")
    rounds = w.plural(n, ("ronda", "rondas"), ("round", "rounds"), ("Runde", "Runden"),
                      ("runda", "rundor"))
    return f"{n} {rounds}, {cards} " + w("cartas", "cards", "Karten", "kort") + f", {wild_text}."


def _wild_names(rules: RuleSet, w: _Words) -> list[str]:
    names = {
        "jokers": w("los jokers", "the jokers", "die Joker", "jokrarna"),
        "twos": w("los doses (dos libres)", "the twos (dos libres)", "die Zweien (dos libres)",
                  "tvåorna (dos libres)"),
        "red_aces": w("los ases rojos (A♥ y A♦)", "the red aces (A♥ and A♦)",
                      "die roten Asse (A♥ und A♦)", "de röda essen (A♥ och A♦)"),
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
    return f"{n} " + w.plural(abs(n), ("punto", "puntos"), ("point", "points"),
                              ("Punkt", "Punkte"), ("poäng", "poäng"))


def _player_range(a: int, b: int, lo: int, hi: int, w: _Words) -> str:
    if a == b:
        return w(f"con {a} jugadores", f"for {a} players", f"bei {a} Spielern",
                 f"med {a} spelare")
    if a == lo and b < hi:
        return w(f"hasta {b} jugadores", f"up to {b} players", f"bis {b} Spieler",
                 f"upp till {b} spelare")
    if b == hi and a > lo:
        return w(f"desde {a} jugadores", f"from {a} players", f"ab {a} Spielern",
                 f"från {a} spelare")
    return w(f"de {a} a {b} jugadores", f"for {a} to {b} players",
             f"bei {a} bis {b} Spielern", f"med {a} till {b} spelare")


def _deck_words(packs: int, jokers_per_pack: int, w: _Words) -> str:
    jokers = packs * jokers_per_pack
    size = packs * (52 + jokers_per_pack)
    pack = w.plural(packs, ("naipe", "naipes"), ("pack", "packs"), ("Deck", "Decks"),
                    ("kortlek", "kortlekar"))
    deck = w(f"{packs} {pack} de 52", f"{packs} {pack} of 52", f"{packs} {pack} zu 52 Karten",
             f"{packs} {pack} à 52 kort")
    if jokers:
        deck += f" + {jokers} " + w.plural(jokers, ("joker", "jokers"), ("joker", "jokers"),
                                            ("Joker", "Joker"), ("joker", "jokrar"))
    else:
        deck += w(" sin jokers", " without jokers", " ohne Joker", " utan jokrar")
    return deck + w(f" ({size} cartas)", f" ({size} cards)", f" ({size} Karten)",
                    f" ({size} kort)")


def _contract_words(rnd: RoundDef, w: _Words) -> str:
    return w.either([_one_contract(c, w.lang) for c in rnd.contracts])


def _one_contract(contract: Contract, lang: str) -> str:
    """``ein Trío und eine 4er-Escala`` / ``en trío och en escala på 4`` (es and en: as
    :meth:`Contract.words` writes them)."""
    if lang not in _MELD_NAMES:
        return contract.words(lang)
    counts: dict[tuple[str, int], int] = {}
    for m in contract.melds:
        counts[m.kind, m.min_len] = counts.get((m.kind, m.min_len), 0) + 1
    parts = [_meld_count(kind, length, n, lang) for (kind, length), n in counts.items()]
    joiner = " und " if lang == "de" else " och "
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + joiner + parts[-1]


def _meld_count(kind: str, length: int, n: int, lang: str) -> str:
    """``zwei Tríos``, ``eine 4er-Escala``, ``två escalas på 4``."""
    one, many = _MELD_NAMES[lang][kind]
    numbers = _COUNT_WORDS[lang]
    count = numbers[n - 1] if n <= len(numbers) else str(n)
    if lang == "de" and n == 1 and kind != "trio":
        count += "e"  # ein Trío, eine Escala
    return f"{count} {(one if n == 1 else many).format(n=length)}"


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
        note = _note(name, PRESETS[name], w)
        if rules.options:
            note = w(f"Basado en el preset {name}: ", f"Based on the preset {name}: ",
                     f"Beruht auf der Vorgabe {name}: ", f"Bygger på förvalet {name}: ") + note
        lines.append("")
        lines.append(note)
    else:
        lines = [w(f"# Carioca: reglas propias ({name})", f"# Carioca: house rules ({name})",
                   f"# Carioca: eigene Regeln ({name})", f"# Carioca: egna regler ({name})"),
                 "", _summary(rules, w)]
    if rules.options:
        changed = "; ".join(f"{k} = {_format_value(v)}" for k, v in rules.options)
        lines.append("")
        lines.append(w(f"Cambios sobre el preset: {changed}.",
                       f"Changed from the preset: {changed}.",
                       f"Geändert gegenüber der Vorgabe: {changed}.",
                       f"Ändrat från förvalet: {changed}."))
    return "\n".join(lines)


def _players_and_deck(rules: RuleSet, w: _Words) -> str:
    lo, hi = rules.min_players, rules.max_players
    items = [w(f"Jugadores: de {lo} a {hi}.", f"Players: {lo} to {hi}.",
               f"Spieler: {lo} bis {hi}.", f"Spelare: {lo} till {hi}.")]
    deck_text = _decks_by_players(rules, w)
    items.append(w(f"Naipes: {deck_text}.", f"Deck: {deck_text}.", f"Karten: {deck_text}.",
                   f"Kort: {deck_text}."))

    short = []
    for n in range(lo, hi + 1):
        try:
            rules.check_players(n)
        except RulesError:
            short.append(str(n))
    if short:
        who = w.join(short)
        items.append(w(
            f"Con {who} jugadores no alcanzan las cartas para repartir: agreguen otro naipe.",
            f"With {who} players there are not enough cards to deal: add a pack.",
            f"Bei {who} Spielern reichen die Karten zum Austeilen nicht: nehmt ein weiteres "
            f"Deck dazu.",
            f"Med {who} spelare räcker korten inte till given: lägg till en kortlek.",
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
        "Der Geber wechselt mit jeder Runde zum nächsten Spieler, und der Spieler nach dem Geber "
        "beginnt; gespielt wird reihum in der Sitzordnung. In jeder Runde werden so viele Karten "
        "ausgeteilt, wie die Rundentabelle angibt; eine Karte wird aufgedeckt und beginnt den "
        "Pozo (Ablagestapel), der Rest liegt verdeckt als Mazo (Nachziehstapel) bereit.",
        "Given går vidare till nästa spelare för varje runda, och spelaren efter givaren "
        "börjar; man spelar i tur och ordning runt bordet. Varje runda ges så många kort som "
        "tabellen över rundorna anger; ett kort vänds upp som början på pozon (slänghögen) och "
        "resten läggs med baksidan upp som mazon (talongen).",
    ))
    if rules.bury_wild_first_discard:
        items.append(w(
            "Si la carta que se da vuelta para el pozo es un comodín, se entierra en el mazo y "
            "se da vuelta otra.",
            "If the card turned up for the pozo is a comodín (wild card), it is buried in the "
            "mazo and another card is turned up.",
            "Ist die für den Pozo aufgedeckte Karte eine wilde Karte (Comodín), kommt sie "
            "verdeckt in den Mazo, und eine neue Karte wird aufgedeckt.",
            "Om kortet som vänds upp till pozon är en joker (comodín) stoppas det in i mazon "
            "och ett nytt kort vänds upp.",
        ))
    else:
        items.append(w(
            "La primera carta del pozo queda como salga, aunque sea un comodín.",
            "The first pozo card stays as it comes, even if it is a comodín (wild card).",
            "Die erste Karte des Pozos bleibt liegen, wie sie kommt, auch wenn sie eine wilde "
            "Karte (Comodín) ist.",
            "Det första kortet i pozon ligger kvar som det kommer, även om det är en joker "
            "(comodín).",
        ))
    return w("## Jugadores y naipes", "## Players and deck", "## Spieler und Karten",
             "## Spelare och kortlekar") + "\n\n" + _bullets(items)


def _decks_by_players(rules: RuleSet, w: _Words) -> str:
    """The deck in words, or the decks and the player counts each is for."""
    lo, hi = rules.min_players, rules.max_players
    groups: list[tuple[int, int, tuple[int, int]]] = []
    for n in range(lo, hi + 1):
        deck = rules.deck_for(n)
        if groups and groups[-1][2] == deck:
            groups[-1] = (groups[-1][0], n, deck)
        else:
            groups.append((n, n, deck))
    if len(groups) == 1:
        return _deck_words(*groups[0][2], w)
    return "; ".join(
        f"{_deck_words(*deck, w)} {_player_range(a, b, lo, hi, w)}" for a, b, deck in groups
    )


def _wild_cards(rules: RuleSet, w: _Words) -> str:
    head = w("## Comodines", "## Wild cards (comodines)", "## Wilde Karten (Comodines)",
             "## Jokrar (comodines)") + "\n\n"
    names = _wild_names(rules, w)
    items: list[str] = []
    if rules.jokers and "jokers" not in rules.wilds:
        items.append(w("Los jokers del naipe no son comodines en estas reglas.",
                       "The jokers in the deck are not wild in these rules.",
                       "Die Joker im Spiel sind nach diesen Regeln keine wilden Karten.",
                       "Med de här reglerna får lekens jokrar inte ersätta andra kort."))
    if not names:
        items.insert(0, w("No hay comodines: ninguna carta reemplaza a otra.",
                          "No card is wild: no card may stand for another.",
                          "Es gibt keine wilden Karten: keine Karte darf eine andere ersetzen.",
                          "Inget kort är joker: inget kort får ersätta ett annat."))
        return head + _bullets(items)
    items.insert(0, w(
        f"Son comodines {w.join(names)}. Un comodín reemplaza a cualquier carta en un trío o "
        f"una escala.",
        f"Wild cards (comodines): {w.join(names)}. A comodín stands for any card in a trío or "
        f"an escala.",
        f"Wilde Karten (Comodines) sind {w.join(names)}. Eine wilde Karte ersetzt jede "
        f"beliebige Karte in einem Trío oder einer Escala.",
        f"Som jokrar (comodines) räknas {w.join(names)}. En joker ersätter vilket kort som "
        f"helst i en trío eller en escala.",
    ))
    items.extend(_wild_limits(rules, w))
    items.append(w(
        "Todo juego conserva al menos una carta natural: nunca puede ser solo de comodines.",
        "Every meld keeps at least one natural card: it may never be all comodines.",
        "Jede Kombination behält mindestens eine natürliche Karte: sie darf nie nur aus "
        "wilden Karten bestehen.",
        "Varje kombination behåller minst ett naturligt kort: den får aldrig bestå av bara "
        "jokrar.",
    ))
    items.append(_wild_at_own_place(rules, w))
    return head + _bullets(items)


def _wild_limits(rules: RuleSet, w: _Words) -> list[str]:
    """How many wild cards a meld may hold, when laid down and when laid off."""
    limit = rules.max_wilds_per_meld
    if limit is None:
        return [w("No hay límite de comodines por juego (trío o escala).",
                  "There is no limit of comodines per meld (trío or escala).",
                  "Die Zahl der wilden Karten pro Kombination (Trío oder Escala) ist "
                  "unbegrenzt.",
                  "Det finns ingen gräns för hur många jokrar en kombination (trío eller "
                  "escala) får ha.")]
    items: list[str] = []
    if limit == 0:
        items.append(w("Al bajarse no se pueden usar comodines en los juegos.",
                       "No comodín may be used in the melds you lay down.",
                       "In den Kombinationen, die du auslegst, darf keine wilde Karte sein.",
                       "I de kombinationer du lägger ner får ingen joker användas."))
    else:
        many = w.plural(limit, ("comodín", "comodines"), ("comodín", "comodines"),
                        ("wilde Karte", "wilde Karten"), ("joker", "jokrar"))
        count = w("un", "one", "eine", "en") if limit == 1 else str(limit)
        items.append(w(f"Máximo {count} {many} por juego (trío o escala).",
                       f"At most {count} {many} per meld (trío or escala).",
                       f"Höchstens {count} {many} pro Kombination (Trío oder Escala).",
                       f"Högst {count} {many} per kombination (trío eller escala)."))
    if rules.wild_limit_on_layoff:
        items.append(w(
            "El límite vale también al agregar: ningún juego de la mesa pasa de ese número "
            "de comodines.",
            "The limit also holds when you agregar (lay off): no meld on the table ever "
            "holds more comodines than that.",
            "Die Grenze gilt auch beim Anlegen (agregar): keine Kombination auf dem Tisch hat "
            "je mehr wilde Karten.",
            "Gränsen gäller också när du lägger på (agregar): ingen kombination på bordet får "
            "någonsin fler jokrar än så.",
        ))
    else:
        items.append(w(
            "Al agregar no hay límite: a los juegos de la mesa se les pueden añadir más "
            "comodines.",
            "When you agregar (lay off) there is no limit: more comodines may be added to "
            "the melds on the table.",
            "Beim Anlegen (agregar) gilt keine Grenze: an die Kombinationen auf dem Tisch "
            "dürfen weitere wilde Karten angelegt werden.",
            "När du lägger på (agregar) finns ingen gräns: fler jokrar får läggas till "
            "kombinationerna på bordet.",
        ))
    return items


def _wild_at_own_place(rules: RuleSet, w: _Words) -> str:
    """A wild two or red ace at its own place is a natural card ("" when neither is wild)."""
    own_place: list[tuple[str, str]] = []
    if "twos" in rules.wilds:
        own_place.append((w("un dos", "a two", "eine Zwei", "en tvåa"),
                          w("el 2♥ en A♥ 2♥ 3♥ 4♥", "2♥ in A♥ 2♥ 3♥ 4♥",
                            "die 2♥ in A♥ 2♥ 3♥ 4♥", "2♥ i A♥ 2♥ 3♥ 4♥")))
    if "red_aces" in rules.wilds:
        own_place.append((w("un as rojo", "a red ace", "ein rotes Ass", "ett rött ess"),
                          w("el A♦ en A♦ 2♦ 3♦ 4♦", "A♦ in A♦ 2♦ 3♦ 4♦",
                            "das A♦ in A♦ 2♦ 3♦ 4♦", "A♦ i A♦ 2♦ 3♦ 4♦")))
    if not own_place:
        return ""
    which = w.either([name for name, _ in own_place])
    example = w.either([ex for _, ex in own_place])
    return w(
        f"En su propio lugar, {which} cuenta como carta natural, no como comodín: en una "
        f"escala de su pinta (como {example}) o en un trío de su número.",
        f"At its own place, {which} counts as a natural card, not as a comodín: in an "
        f"escala of its suit (like {example}) or in a trío of its rank.",
        f"Liegt {which} an der eigenen Stelle, zählt die Karte als natürliche Karte, nicht "
        f"als wilde Karte: in einer Escala derselben Farbe (wie {example}) oder in einem "
        f"Trío desselben Rangs.",
        f"På sin egen plats räknas {which} som ett naturligt kort, inte som joker: i en "
        f"escala i sin egen färg (som {example}) eller i en trío av sin egen valör.",
    )


def _rounds_table(rules: RuleSet, w: _Words) -> str:
    n = len(rules.rounds)
    head = w(f"## Rondas\n\nSe juegan {n} rondas, en este orden:",
             f"## Rounds\n\n{n} rounds are played, in this order:",
             f"## Runden\n\nEs werden {n} Runden in dieser Reihenfolge gespielt:",
             f"## Rundor\n\nMan spelar {n} rundor i den här ordningen:")
    if n == 1:
        head = w("## Rondas\n\nSe juega una sola ronda:", "## Rounds\n\nOne round is played:",
                 "## Runden\n\nEs wird nur eine Runde gespielt:",
                 "## Rundor\n\nMan spelar en enda runda:")
    header = w("Ronda|Contrato|Cartas|Nota", "Round|Contract|Cards dealt|Note",
               "Runde|Kontrakt|Karten|Hinweis", "Runda|Kontrakt|Kort|Anmärkning").split("|")
    at_once = w("hay que irse de una", "must go out in one turn",
                "Ausgehen in einem Zug", "gå ut på en tur")
    rows = [
        [str(i), words, str(cards), at_once if once else ""]
        for i, words, cards, once in describe_rounds(rules, w.lang)
    ]
    parts = [head, _table(header, rows)]
    if any(len(r.contracts) > 1 for r in rules.rounds):
        parts.append(w("Donde el contrato dice «o», cada jugador elige cuál cumplir.",
                       "Where the contract says \"or\", each player chooses which to meet.",
                       "Wo der Kontrakt „oder“ sagt, wählt jeder Spieler, welche Möglichkeit "
                       "er erfüllt.",
                       "Där det står ”eller” i kontraktet väljer var och en vilket alternativ "
                       "som ska uppfyllas."))
    if any(r.go_out_at_once for r in rules.rounds):
        parts.append(w(
            "En las rondas en que hay que irse de una, el que se baja tiene que "
            "quedarse sin cartas en ese mismo turno (bajarse, agregar y botar); por eso en esas "
            "rondas se puede agregar en el mismo turno en que uno se baja.",
            "In a round where you must go out in one turn, whoever lays the contract down "
            "(bajarse) must empty the hand in that same turn (bajarse, agregar and discard); so "
            "in those rounds you may agregar in the same turn you go down.",
            "In Runden mit Ausgehen in einem Zug muss, wer den Kontrakt auslegt (bajarse), im "
            "selben Zug die ganze Hand loswerden (auslegen, anlegen und abwerfen); deshalb darf "
            "in diesen Runden schon im Zug des Auslegens angelegt werden (agregar).",
            "I rundor där man måste gå ut på en tur måste den som lägger ner kontraktet "
            "(bajarse) bli av med hela handen på samma tur (lägga ner, lägga på och kasta); "
            "därför får man i de rundorna lägga på (agregar) redan samma tur som man lägger ner.",
        ))
    return "\n\n".join(parts)


def _melds(rules: RuleSet, w: _Words) -> str:
    items = [_trio_words(rules, w)]
    if rules.decks != 1:
        items.append(w(
            "Como hay más de un naipe, un trío puede tener dos cartas iguales.",
            "With more than one pack, a trío may hold two identical cards.",
            "Da mit mehr als einem Deck gespielt wird, darf ein Trío zwei gleiche Karten "
            "enthalten.",
            "Eftersom man spelar med mer än en kortlek får en trío innehålla två identiska kort.",
        ))
    items.append(_escala_words(rules, w))
    if rules.wrap:
        items.append(w(
            "El as va abajo (A-2-3-4) o arriba (J-Q-K-A), y la escala puede dar la vuelta por "
            "el as: K-A-2 vale (por ejemplo Q-K-A-2).",
            "The ace goes low (A-2-3-4) or high (J-Q-K-A), and an escala may wrap round the "
            "ace: K-A-2 is allowed (for example Q-K-A-2).",
            "Das Ass steht unten (A-2-3-4) oder oben (J-Q-K-A), und eine Escala darf über das "
            "Ass hinweg weiterlaufen: K-A-2 ist erlaubt (zum Beispiel Q-K-A-2).",
            "Esset är lågt (A-2-3-4) eller högt (J-Q-K-A), och en escala får gå runt hörnet "
            "via esset: K-A-2 är tillåtet (till exempel Q-K-A-2).",
        ))
    else:
        items.append(w(
            "El as va abajo (A-2-3-4) o arriba (J-Q-K-A), pero no las dos cosas a la vez: "
            "K-A-2 no vale.",
            "The ace goes low (A-2-3-4) or high (J-Q-K-A), never both at once: K-A-2 is not "
            "allowed.",
            "Das Ass steht unten (A-2-3-4) oder oben (J-Q-K-A), aber nie beides zugleich: "
            "K-A-2 ist nicht erlaubt.",
            "Esset är lågt (A-2-3-4) eller högt (J-Q-K-A), aldrig båda samtidigt: K-A-2 är "
            "inte tillåtet.",
        ))
    items.append(w(
        "Una escala se baja en orden, de menor a mayor: el lugar de un comodín dice qué carta "
        "reemplaza (en 5♥ JK 7♥ 8♥ el comodín es el 6♥).",
        "An escala is laid in order, low to high: a comodín's place says which card it stands "
        "for (in 5♥ JK 7♥ 8♥ the comodín is the 6♥).",
        "Eine Escala wird der Reihe nach ausgelegt, von niedrig nach hoch: der Platz einer "
        "wilden Karte bestimmt, welche Karte sie ersetzt (in 5♥ JK 7♥ 8♥ ist die wilde Karte "
        "die 6♥).",
        "En escala läggs ner i ordning, från låg till hög: jokerns plats avgör vilket kort den "
        "ersätter (i 5♥ JK 7♥ 8♥ är jokern 6♥).",
    ))
    items.extend(_special_words(kind, rules, w) for kind in _special_kinds(rules))
    return w("## Tríos y escalas", "## Tríos and escalas", "## Tríos und Escalas",
             "## Tríos och escalas") + "\n\n" + _bullets(items)


def _trio_words(rules: RuleSet, w: _Words) -> str:
    if rules.exact_melds:
        return w(
            "Trío: exactamente 3 cartas del mismo número, de cualquier pinta, al bajarse; "
            "después se le pueden agregar más.",
            "Trío: exactly 3 cards of one rank, any suits, when laid down; more may be added "
            "later.",
            "Trío: beim Auslegen genau 3 Karten desselben Rangs, in beliebigen Farben; später "
            "dürfen weitere angelegt werden.",
            "Trío: exakt 3 kort av samma valör, i valfria färger, när den läggs ner; fler får "
            "läggas på senare.",
        )
    return w(
        "Trío: 3 o más cartas del mismo número, de cualquier pinta.",
        "Trío: 3 or more cards of one rank, any suits.",
        "Trío: 3 oder mehr Karten desselben Rangs, in beliebigen Farben.",
        "Trío: 3 eller fler kort av samma valör, i valfria färger.",
    )


def _escala_words(rules: RuleSet, w: _Words) -> str:
    """How long an escala is ("" when no contract asks for a plain escala)."""
    lengths = _escala_lengths(rules)
    if not lengths:
        return ""
    length = str(lengths[0]) if len(lengths) == 1 else None
    if rules.exact_melds and length is not None:
        return w(
            f"Escala: exactamente {length} cartas seguidas de la misma pinta al "
            f"bajarse, sin repetir número; después se alarga por cualquiera de las "
            f"puntas.",
            f"Escala: exactly {length} cards in a row of one suit when laid down, "
            f"no rank twice; later it may grow at either end.",
            f"Escala: beim Auslegen genau {length} aufeinanderfolgende Karten derselben "
            f"Farbe, kein Rang doppelt; später kann sie an beiden Enden verlängert werden.",
            f"Escala: exakt {length} kort i följd i samma färg när den läggs ner, ingen "
            f"valör två gånger; senare får den förlängas i båda ändar.",
        )
    if rules.exact_melds:
        return w(
            "Escala: cartas seguidas de la misma pinta, sin repetir número, exactamente "
            "del largo que pide el contrato al bajarse; después se alarga por cualquiera "
            "de las puntas.",
            "Escala: cards in a row of one suit, no rank twice, exactly as long as the "
            "contract says when laid down; later it may grow at either end.",
            "Escala: aufeinanderfolgende Karten derselben Farbe, kein Rang doppelt, beim "
            "Auslegen genau so lang, wie der Kontrakt verlangt; später kann sie an beiden "
            "Enden verlängert werden.",
            "Escala: kort i följd i samma färg, ingen valör två gånger, när den läggs ner "
            "exakt så lång som kontraktet kräver; senare får den förlängas i båda ändar.",
        )
    if length is not None:
        return w(
            f"Escala: {length} o más cartas seguidas de la misma pinta, sin repetir "
            f"número.",
            f"Escala: {length} or more cards in a row of one suit, no rank twice.",
            f"Escala: {length} oder mehr aufeinanderfolgende Karten derselben Farbe, kein "
            f"Rang doppelt.",
            f"Escala: {length} eller fler kort i följd i samma färg, ingen valör två gånger.",
        )
    return w(
        "Escala: cartas seguidas de la misma pinta, sin repetir número, por lo menos "
        "del largo que pide el contrato.",
        "Escala: cards in a row of one suit, no rank twice, at least as long as the "
        "contract says.",
        "Escala: aufeinanderfolgende Karten derselben Farbe, kein Rang doppelt, mindestens "
        "so lang, wie der Kontrakt verlangt.",
        "Escala: kort i följd i samma färg, ingen valör två gånger, minst så lång som "
        "kontraktet kräver.",
    )


def _special_words(kind: str, rules: RuleSet, w: _Words) -> str:
    """The escala sucia, real or de colores in words."""
    if kind == "sucia":
        if rules.max_wilds_per_meld == 0:
            wilds = w("sin comodines.", "with no comodín.", "ohne wilde Karte.", "utan joker.")
        else:
            wilds = w("con máximo un comodín.", "with at most one comodín.",
                      "mit höchstens einer wilden Karte.", "med högst en joker.")
        return w(
            "Escala sucia: del as al rey (13 cartas) seguidas, de cualquier pinta, ",
            "Escala sucia: ace to king (13 cards) in a row, any suits, ",
            "Escala sucia: vom Ass bis zum König (13 Karten) in Folge, in beliebigen Farben, ",
            "Escala sucia: ess till kung (13 kort) i följd, i valfria färger, ",
        ) + wilds
    if kind == "real":
        return w(
            "Escala real: del as al rey (13 cartas) de una sola pinta, sin comodines.",
            "Escala real: ace to king (13 cards) of one suit, with no comodín.",
            "Escala real: vom Ass bis zum König (13 Karten) in einer einzigen Farbe, ohne "
            "wilde Karte.",
            "Escala real: ess till kung (13 kort) i en enda färg, utan joker.",
        )
    return w(
        "Escala de colores: del as al rey (13 cartas), alternando rojo y negro.",
        "Escala de colores: ace to king (13 cards), alternating red and black.",
        "Escala de colores: vom Ass bis zum König (13 Karten), abwechselnd rot und schwarz.",
        "Escala de colores: ess till kung (13 kort), omväxlande röda och svarta.",
    )


def _turn(rules: RuleSet, w: _Words) -> str:
    at_once = any(r.go_out_at_once for r in rules.rounds)
    steps = [
        w(
            "Saca una carta: la de arriba del mazo o la de arriba del pozo.",
            "Draw one card: the top of the mazo (stock) or the top of the pozo (discard pile).",
            "Zieh eine Karte: die oberste vom Mazo (Nachziehstapel) oder die oberste vom Pozo "
            "(Ablagestapel).",
            "Dra ett kort: det översta i mazon (talongen) eller det översta i pozon "
            "(slänghögen).",
        ),
        _going_down(rules, at_once, w),
        _laying_off(rules, at_once, w),
        _replacement(rules, w),
    ]
    if rules.go_out_by_layoff:
        steps.append(w(
            "Termina su turno botando una carta al pozo (si ya se quedó sin cartas, no bota).",
            "End the turn by discarding one card onto the pozo (if your hand is already empty, "
            "there is nothing to discard).",
            "Beende deinen Zug, indem du eine Karte auf den Pozo abwirfst (ist deine Hand schon "
            "leer, wirfst du nichts ab).",
            "Avsluta turen genom att kasta ett kort på pozon (om handen redan är tom finns "
            "inget att kasta).",
        ))
    else:
        steps.append(w(
            "Termina su turno botando una carta al pozo.",
            "End the turn by discarding one card onto the pozo.",
            "Beende deinen Zug, indem du eine Karte auf den Pozo abwirfst.",
            "Avsluta turen genom att kasta ett kort på pozon.",
        ))
    body = "\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1))
    intro = w("En su turno, cada jugador:", "In your turn:", "In deinem Zug:", "På din tur:")
    head = w("## El turno", "## The turn", "## Der Zug", "## Turen")
    return head + "\n\n" + intro + "\n\n" + body


def _going_down(rules: RuleSet, at_once: bool, w: _Words) -> str:
    if not rules.partial_contracts:
        return w(
            "Si puede, se baja: pone en la mesa el contrato completo de la ronda, todo en el "
            "mismo turno (no se baja solo una parte).",
            "If you can, go down (bajarse): lay the whole contract of the round on the table, "
            "all in the same turn (never just a part of it).",
            "Wenn du kannst, leg aus (bajarse): den ganzen Kontrakt der Runde, alles im selben "
            "Zug auf den Tisch (nie nur einen Teil davon).",
            "Om du kan, lägg ner (bajarse): hela rundans kontrakt på bordet, allt på samma tur "
            "(aldrig bara en del av det).",
        )
    text = w(
        "Se baja por partes: puede bajar uno o más juegos del contrato en un turno y el "
        "resto en turnos siguientes; el contrato está bajado cuando están en la mesa todos "
        "sus juegos.",
        "Go down (bajarse) in parts: you may lay down one or more melds of the contract in "
        "one turn and the rest in later turns; the contract is down once all its melds are "
        "on the table.",
        "Leg in Teilen aus (bajarse): du darfst in einem Zug eine oder mehrere Kombinationen "
        "des Kontrakts auslegen und den Rest in späteren Zügen; der Kontrakt liegt aus, sobald "
        "alle seine Kombinationen auf dem Tisch liegen.",
        "Lägg ner i delar (bajarse): du får lägga ner en eller flera av kontraktets "
        "kombinationer på en tur och resten på senare turer; kontraktet är nere när alla dess "
        "kombinationer ligger på bordet.",
    )
    if at_once:
        text += w(" En las rondas en que hay que irse de una, se baja todo en el "
                  "mismo turno.",
                  " In a round where you must go out in one turn, it all goes down in that turn.",
                  " In Runden mit Ausgehen in einem Zug wird alles im selben Zug ausgelegt.",
                  " I rundor där man måste gå ut på en tur läggs allt ner på samma tur.")
    return text


def _laying_off(rules: RuleSet, at_once: bool, w: _Words) -> str:
    down = w("Con el contrato completo en la mesa", "Once your whole contract is down",
             "Liegt dein ganzer Kontrakt aus", "När hela ditt kontrakt ligger på bordet")
    if rules.layoff_same_turn:
        return w(
            f"{down}, puede agregar cartas a cualquier juego de la mesa, propio o ajeno, ya en "
            f"el mismo turno en que se bajó.",
            f"{down}, you may agregar (lay off) cards onto any meld on the table, yours or "
            f"another player's, already in the turn you go down (bajarse).",
            f"{down}, darfst du Karten an jede Kombination auf dem Tisch anlegen (agregar), an "
            f"deine eigenen oder die der anderen, schon in dem Zug, in dem du auslegst.",
            f"{down} får du lägga på (agregar) kort på vilken kombination som helst på bordet, "
            f"din egen eller någon annans, redan samma tur som du lägger ner.",
        )
    text = w(
        f"{down}, puede agregar cartas a cualquier juego de la mesa, propio o ajeno, desde "
        f"su turno siguiente: no en el mismo turno en que se bajó",
        f"{down}, you may agregar (lay off) cards onto any meld on the table, yours or "
        f"another player's, from your next turn on: not in the turn you go down",
        f"{down}, darfst du ab deinem nächsten Zug Karten an jede Kombination auf dem Tisch "
        f"anlegen (agregar), an deine eigenen oder die der anderen: nicht in dem Zug, in dem "
        f"du auslegst",
        f"{down} får du från och med din nästa tur lägga på (agregar) kort på vilken "
        f"kombination som helst på bordet, din egen eller någon annans: inte samma tur som du "
        f"lägger ner",
    )
    if not at_once:
        return text + "."
    return text + w(" (salvo en las rondas en que hay que irse de una).",
                    " (except in a round where you must go out in one turn).",
                    " (außer in Runden mit Ausgehen in einem Zug).",
                    " (utom i rundor där man måste gå ut på en tur).")


def _replacement(rules: RuleSet, w: _Words) -> str:
    """Whether and how a wild card on the table may be swapped for the card it stands for."""
    mode = rules.joker_replacement
    if mode == "off":
        return w(
            "Los comodines de la mesa no se cambian: quedan donde están.",
            "Comodines on the table are never swapped out: they stay where they are.",
            "Wilde Karten auf dem Tisch werden nie ausgetauscht: sie bleiben, wo sie sind.",
            "Jokrar på bordet byts aldrig ut: de ligger kvar där de ligger.",
        )
    if mode == "take":
        return w(
            "Cambiar un comodín: quien ya se bajó y tiene la carta natural exacta que un "
            "comodín de la mesa reemplaza puede, en su turno, ponerla en su lugar y llevarse el "
            "comodín a la mano.",
            "Swapping a comodín: once your contract is down, if you hold the exact natural card "
            "a comodín on the table stands for, you may in your turn put it in its place and "
            "take the comodín into your hand.",
            "Eine wilde Karte austauschen: Liegt dein Kontrakt aus und hast du genau die "
            "natürliche Karte, die eine wilde Karte auf dem Tisch ersetzt, darfst du sie in "
            "deinem Zug an deren Stelle legen und die wilde Karte auf die Hand nehmen.",
            "Byta ut en joker: när ditt kontrakt ligger på bordet och du har exakt det "
            "naturliga kort som en joker på bordet ersätter, får du på din tur lägga det på "
            "jokerns plats och ta jokern till handen.",
        )
    if mode == "anyone":
        return w(
            "Cambiar un comodín: cualquier jugador, en su turno y aunque no se haya bajado, "
            "que tenga la carta natural exacta que un comodín de la mesa reemplaza puede "
            "ponerla en su lugar y llevarse el comodín a la mano; lo puede usar de inmediato.",
            "Swapping a comodín: any player, in their turn and even before going down, who "
            "holds "
            "the exact natural card a comodín on the table stands for may put it in its place "
            "and take the comodín into their hand; it may be used at once.",
            "Eine wilde Karte austauschen: Jeder Spieler, der genau die natürliche Karte hat, "
            "die eine wilde Karte auf dem Tisch ersetzt, darf sie in seinem Zug an deren "
            "Stelle legen und die wilde Karte auf die Hand nehmen, auch wenn er selbst noch "
            "nicht ausgelegt hat; er darf sie sofort verwenden.",
            "Byta ut en joker: vilken spelare som helst som har exakt det naturliga kort som "
            "en joker på bordet ersätter får på sin tur lägga det på jokerns plats och ta "
            "jokern till handen, även innan hen har lagt ner; jokern får användas direkt.",
        )
    if mode == "relocate":
        return w(
            "Cambiar un comodín: quien ya se bajó y tiene la carta natural exacta que un "
            "comodín de la mesa reemplaza puede, en su turno, ponerla en su lugar. En una "
            "escala el comodín no sale de la mesa: se corre a la punta de la escala que elija "
            "el jugador. En un trío, o en una escala que ya tiene las trece cartas, el cambio es "
            "directo y el comodín pasa a su mano.",
            "Swapping a comodín: once your contract is down, if you hold the exact natural card "
            "a comodín on the table stands for, you may in your turn put it in its place. In "
            "an escala the comodín stays on the table and moves to the end of the escala you "
            "choose; in a trío, or in an escala that already holds all thirteen ranks, the swap is "
            "direct and the comodín goes to your hand.",
            "Eine wilde Karte austauschen: Liegt dein Kontrakt aus und hast du genau die "
            "natürliche Karte, die eine wilde Karte auf dem Tisch ersetzt, darfst du sie in "
            "deinem Zug an deren Stelle legen. In einer Escala bleibt die wilde Karte auf dem "
            "Tisch und rückt an das Ende der Escala, das du wählst; in einem Trío, oder in einer "
            "Escala, die schon alle dreizehn Ränge hat, wird direkt getauscht, und die wilde "
            "Karte kommt auf deine Hand.",
            "Byta ut en joker: när ditt kontrakt ligger på bordet och du har exakt det "
            "naturliga kort som en joker på bordet ersätter, får du på din tur lägga det på "
            "jokerns plats. I en escala ligger jokern kvar på bordet och flyttas till den ände "
            "av escalan som du väljer; i en trío, eller i en escala som redan har alla tretton "
            "valörer, byts den direkt och jokern går till din hand.",
        )
    return f"joker_replacement = {mode}."


def _going_out(rules: RuleSet, w: _Words) -> str:
    items: list[str] = []
    if rules.go_out_by_layoff:
        items.append(w(
            "Un jugador se va (irse) cuando se queda sin cartas: botando la última al pozo, o "
            "bajándola o agregándola a un juego de la mesa.",
            "A player goes out (irse) when their hand is empty: by discarding the last card, or "
            "by laying it down or adding it to a meld (agregar).",
            "Ein Spieler geht aus (irse), sobald er keine Karte mehr auf der Hand hat: indem er "
            "die letzte abwirft, auslegt oder an eine Kombination anlegt (agregar).",
            "En spelare går ut (irse) när handen är tom: genom att kasta sitt sista kort, eller "
            "genom att lägga ner det eller lägga på det på en kombination (agregar).",
        ))
    else:
        items.append(w(
            "Un jugador se va (irse) solo botando su última carta al pozo: hay que guardar una "
            "carta para botarla al final.",
            "A player goes out (irse) only by discarding their last card onto the pozo: one "
            "card must be kept back for that last discard.",
            "Ein Spieler geht nur aus (irse), indem er seine letzte Karte auf den Pozo abwirft: "
            "für diesen letzten Abwurf muss eine Karte übrig bleiben.",
            "En spelare kan bara gå ut (irse) genom att kasta sitt sista kort på pozon: ett "
            "kort måste sparas till det sista kastet.",
        ))
    if rules.scoring == "rounds":
        items.append(w(
            "La ronda termina en ese momento y la gana el que se fue.",
            "The round ends at once, and whoever went out wins it.",
            "Die Runde endet sofort, und wer ausgegangen ist, gewinnt sie.",
            "Rundan tar slut direkt, och den som gick ut vinner den.",
        ))
    else:
        items.append(w(
            "La ronda termina en ese momento; los demás suman los puntos de todas las cartas "
            "que les quedan en la mano, se hayan bajado o no.",
            "The round ends at once; every other player scores all the cards left in their "
            "hand, whether or not they had laid their contract down.",
            "Die Runde endet sofort; alle anderen Spieler bekommen die Punkte sämtlicher Karten, "
            "die sie noch auf der Hand haben, ob sie ihren Kontrakt ausgelegt haben oder nicht.",
            "Rundan tar slut direkt; alla andra spelare räknar poäng för alla kort de har kvar "
            "på handen, oavsett om de har lagt ner sitt kontrakt eller inte.",
        ))
    return w("## Irse", "## Going out", "## Ausgehen", "## Att gå ut") + "\n\n" + _bullets(items)


def _buying(rules: RuleSet, w: _Words) -> str:
    head = w("## Comprar", "## Buying (comprar)", "## Kaufen (comprar)",
             "## Köpa (comprar)") + "\n\n"
    if rules.buying == "off":
        return head + _bullets([w(
            "No se compra: la carta de arriba del pozo solo la saca el jugador de turno, en "
            "vez de sacar del mazo.",
            "No buying: only the player whose turn it is may take the top of the pozo, as their "
            "draw.",
            "Es wird nicht gekauft: nur wer am Zug ist, darf die oberste Karte des Pozos nehmen, "
            "statt vom Mazo zu ziehen.",
            "Man köper inte: bara den vars tur det är får ta det översta kortet i pozon, i "
            "stället för att dra från mazon.",
        )])
    items = [w(
        "Se puede comprar: cuando alguien bota, otro jugador puede comprar la carta de arriba "
        "del pozo fuera de su turno. El que la botó no puede comprarla. El jugador de turno "
        "tiene la primera opción (la saca en su turno); después, el más cercano en el orden "
        "de la mesa. Hay que pedirla antes de que el jugador siguiente saque.",
        "Buying is allowed: when someone discards, another player may comprar (buy) the top "
        "of the pozo out of turn. The discarder may not buy it. The player whose turn it is has "
        "first claim (taking it as their draw); then the nearest in turn order. It must be "
        "claimed before the next player draws.",
        "Kaufen ist erlaubt: Wirft jemand ab, darf ein anderer Spieler die oberste Karte des "
        "Pozos außer der Reihe kaufen (comprar). Wer sie abgeworfen hat, darf sie nicht kaufen. "
        "Wer am Zug ist, hat das erste Recht darauf (er nimmt sie, statt vom Mazo zu ziehen); "
        "danach der Nächste in der Spielreihenfolge. Die Karte muss verlangt werden, bevor der "
        "nächste Spieler zieht.",
        "Köp är tillåtet: när någon kastar får en annan spelare köpa (comprar) det översta "
        "kortet i pozon utanför sin tur. Den som kastade kortet får inte köpa det. Den vars "
        "tur det är har förtur (och tar det i stället för att dra från mazon); därefter den som "
        "är närmast i turordningen. Köpet måste ropas innan nästa spelare drar.",
    )]
    if rules.buying == "penalty_card":
        items.append(w(
            "Quien compra saca además una carta del mazo, de castigo.",
            "Whoever buys also takes a penalty card from the mazo.",
            "Wer kauft, nimmt zusätzlich eine Strafkarte vom Mazo.",
            "Den som köper tar dessutom ett straffkort från mazon.",
        ))
    else:
        pts = _points(rules.steal_points, w)
        items.append(w(
            f"Cada compra cuesta {pts} de castigo, que se suman a la cuenta del que compra al "
            f"final de la ronda.",
            f"Each buy costs {pts}, added to the buyer's score at the end of the round.",
            f"Jeder Kauf kostet {pts}, die dem Käufer am Ende der Runde angerechnet werden.",
            f"Varje köp kostar {pts}, som läggs till köparens summa när rundan är slut.",
        ))
    items.append(_buy_limit(rules.max_buys_per_round, w))
    return head + _bullets(items)


def _buy_limit(n: int, w: _Words) -> str:
    if n == 0:
        return w("El máximo es 0 compras por ronda: en la práctica nadie compra.",
                 "The limit is 0 buys a round: in practice nobody may buy.",
                 "Die Grenze liegt bei 0 Käufen pro Runde: praktisch darf niemand kaufen.",
                 "Gränsen är 0 köp per runda: i praktiken får ingen köpa.")
    times = w.plural(n, ("compra", "compras"), ("buy", "buys"), ("Kauf", "Käufe"),
                     ("köp", "köp"))
    return w(f"Máximo {n} {times} por jugador en cada ronda.",
             f"At most {n} {times} per player in each round.",
             f"Höchstens {n} {times} pro Spieler und Runde.",
             f"Högst {n} {times} per spelare och runda.")


def _stock(rules: RuleSet, w: _Words) -> str:
    # ``ends`` follows a condition ("if there is still no card to draw, ..."), so in German and
    # Swedish it starts with its verb.
    if rules.scoring == "rounds":
        ends = w("la ronda termina sin ganador", "the round ends and nobody wins it",
                 "endet die Runde ohne Sieger", "tar rundan slut utan vinnare")
    else:
        ends = w("la ronda termina y todos suman los puntos de su mano",
                 "the round ends and everyone scores the cards in their hand",
                 "endet die Runde, und alle bekommen die Punkte ihrer Handkarten",
                 "tar rundan slut och alla räknar poäng för korten på handen")
    m = rules.max_turns_per_round
    items = [_reshuffle(rules.max_reshuffles, ends, w), w(
        f"Una ronda dura como máximo {m} turnos; si nadie se ha ido antes, {ends}.",
        f"A round lasts at most {m} turns; if nobody has gone out by then, {ends}.",
        f"Eine Runde dauert höchstens {m} Züge; ist bis dahin niemand ausgegangen, {ends}.",
        f"En runda varar högst {m} turer; har ingen gått ut innan dess, {ends}.",
    )]
    return w("## Cuando se acaba el mazo", "## When the mazo runs out",
             "## Wenn der Mazo ausgeht", "## När mazon tar slut") + "\n\n" + _bullets(items)


def _reshuffle(n: int | None, ends: str, w: _Words) -> str:
    """What happens when the mazo runs out, reshuffled ``n`` times at most (None: always)."""
    if n is None:
        return w(
            f"Si se acaba el mazo, se baraja el pozo, menos su carta de arriba, y pasa a ser el "
            f"nuevo mazo, cada vez que haga falta. Si aun así no quedan cartas para sacar, "
            f"{ends}.",
            f"If the mazo runs out, the pozo except its top card is shuffled into a new mazo, "
            f"as often as needed. If there is still no card to draw, {ends}.",
            f"Geht der Mazo aus, wird der Pozo außer seiner obersten Karte gemischt und zum "
            f"neuen Mazo, so oft wie nötig. Gibt es dann immer noch keine Karte zum Ziehen, "
            f"{ends}.",
            f"Tar mazon slut blandas pozon, utom det översta kortet, till en ny mazo, så många "
            f"gånger som behövs. Finns det ändå inget kort att dra, {ends}.",
        )
    if n:
        times = w.plural(n, ("vez", "veces"), ("time", "times"), ("Mal", "Mal"),
                         ("gång", "gånger"))
        return w(
            f"Si se acaba el mazo, se baraja el pozo, menos su carta de arriba, y pasa a ser el "
            f"nuevo mazo; esto se hace hasta {n} {times} por ronda. Si aun así no quedan cartas "
            f"para sacar, {ends}.",
            f"If the mazo runs out, the pozo except its top card is shuffled into a new mazo, "
            f"up to {n} {times} a round. If there is still no card to draw, {ends}.",
            f"Geht der Mazo aus, wird der Pozo außer seiner obersten Karte gemischt und zum "
            f"neuen Mazo, bis zu {n} {times} pro Runde. Gibt es dann immer noch keine Karte "
            f"zum Ziehen, {ends}.",
            f"Tar mazon slut blandas pozon, utom det översta kortet, till en ny mazo, upp till "
            f"{n} {times} per runda. Finns det ändå inget kort att dra, {ends}.",
        )
    return w(
        f"Si se acaba el mazo, no se vuelve a barajar el pozo: {ends}.",
        f"If the mazo runs out, the pozo is not reshuffled: {ends}.",
        f"Geht der Mazo aus, wird der Pozo nicht neu gemischt: dann {ends}.",
        f"Tar mazon slut blandas pozon inte om: då {ends}.",
    )


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
                parts.append(w(f"del {key} al {keys[j]}: lo que dice la carta",
                               f"{key} to {keys[j]}: face value",
                               f"{key} bis {keys[j]}: Nennwert",
                               f"{key} till {keys[j]}: kortets valör"))
                i = j + 1
                continue
        while j + 1 < len(keys) and keys[j + 1] != "JK" and key != "JK" and (
            values[keys[j + 1]] == values[key]
            and not (keys[j + 1] in _NUMBER_KEYS and values[keys[j + 1]] == int(keys[j + 1]))
        ):
            j += 1
        names = [w("comodín (JK)", "joker (JK)", "Joker (JK)", "joker (JK)") if k == "JK" else k
                 for k in keys[i:j + 1]]
        parts.append(f"{', '.join(names)}: {values[key]}")
        i = j + 1
    return " · ".join(parts)


def _scoring(rules: RuleSet, w: _Words) -> str:
    items = _rounds_scoring(w) if rules.scoring == "rounds" else _points_scoring(rules, w)
    tie = {
        "share": w("Si hay empate, los empatados comparten la victoria.",
                   "A tie is shared: the tied players all win.",
                   "Bei Gleichstand teilen sich die Erstplatzierten den Sieg.",
                   "Vid lika delas segern: alla som ligger lika vinner."),
        "most_outs": w("Si hay empate, gana el empatado que se fue en más rondas.",
                       "On a tie, the tied player who went out in most rounds wins.",
                       "Bei Gleichstand gewinnt von den Erstplatzierten, wer in den meisten "
                       "Runden ausgegangen ist.",
                       "Vid lika vinner den av dem som har gått ut i flest rundor."),
        "extra_round": w(
            f"Si hay empate, los empatados juegan una ronda más con el último contrato (hasta "
            f"{rules.extra_rounds_cap} rondas extra; si siguen empatados, comparten la "
            f"victoria).",
            f"On a tie, the tied players play one more round with the last contract (up to "
            f"{rules.extra_rounds_cap} extra rounds; if still tied, they share the win).",
            f"Bei Gleichstand spielen die Erstplatzierten eine weitere Runde mit dem letzten "
            f"Kontrakt (bis zu {rules.extra_rounds_cap} Zusatzrunden; steht es dann immer "
            f"noch gleich, teilen sie sich den Sieg).",
            f"Vid lika spelar de som ligger lika en runda till med det sista kontraktet "
            f"(högst {rules.extra_rounds_cap} extrarundor; ligger de fortfarande lika delar "
            f"de på segern).",
        ),
    }
    items.append(tie.get(rules.tie_break, f"tie_break = {rules.tie_break}."))
    return w("## Puntos y ganador", "## Scoring and winning", "## Punkte und Sieg",
             "## Poäng och vinnare") + "\n\n" + _bullets(items)


def _rounds_scoring(w: _Words) -> list[str]:
    return [w(
        "Se juega por rondas ganadas: el que se va gana la ronda (una marca en el "
        "anotador). Al final gana quien ganó más rondas. Los puntos de las cartas no "
        "cuentan.",
        "Scoring by rounds won: whoever goes out wins the round (a mark on the anotador, "
        "the score sheet). At the end, whoever won most rounds wins. Card points do not "
        "count.",
        "Gewertet wird nach gewonnenen Runden: wer ausgeht, gewinnt die Runde (ein Strich auf "
        "dem Anotador, dem Spielblock). Am Ende gewinnt, wer die meisten Runden gewonnen hat. "
        "Die Kartenpunkte zählen nicht.",
        "Man räknar vunna rundor: den som går ut vinner rundan (ett streck i anotadorn, "
        "protokollet). Till sist vinner den som har vunnit flest rundor. Kortens poäng räknas "
        "inte.",
    )]


def _points_scoring(rules: RuleSet, w: _Words) -> list[str]:
    values = _value_line(rules, w)
    out = _points(rules.out_score, w)
    items = [
        w(
            "Se juega por puntos: al final de cada ronda cada jugador suma a su cuenta los "
            "puntos de las cartas que le quedan en la mano. Al final de la última ronda gana "
            "el que tiene menos puntos.",
            "Scoring by points: at the end of each round every player adds the points of the "
            "cards left in their hand to their total. After the last round the lowest total "
            "wins.",
            "Gewertet wird nach Punkten: Am Ende jeder Runde schreibt sich jeder Spieler die "
            "Punkte der Karten an, die er noch auf der Hand hat. Nach der letzten Runde gewinnt, "
            "wer insgesamt die wenigsten Punkte hat.",
            "Man räknar poäng: efter varje runda får varje spelare poäng för korten som är kvar "
            "på handen, och de läggs till spelarens summa. Efter sista rundan vinner den som har "
            "lägst totalsumma.",
        ),
        w(f"Valor de las cartas: {values}.", f"Card values: {values}.",
          f"Kartenwerte: {values}.", f"Kortens värden: {values}."),
        w(f"El que se va anota {out}.", f"Going out scores {out}.",
          f"Wer ausgeht, bekommt {out}.", f"Den som går ut får {out}."),
    ]
    inst = rules.out_points(instant=True)
    if inst != rules.out_score:
        pts = _points(inst, w)
        items.append(w(
            f"Irse de una (bajarse e irse en el mismo turno) anota {pts} en "
            f"vez de {rules.out_score}.",
            f"An instant out (irse de una: bajarse and go out in the same turn) scores "
            f"{pts} instead of {rules.out_score}.",
            f"Wer auf einen Schlag ausgeht (irse de una: im selben Zug auslegen und ausgehen), "
            f"bekommt {pts} statt {rules.out_score}.",
            f"Att gå ut direkt (irse de una: lägga ner och gå ut på samma tur) ger {pts} i "
            f"stället för {rules.out_score}.",
        ))
    else:
        items.append(w(
            "Irse de una (bajarse e irse en el mismo turno) no da puntos extra.",
            "An instant out (irse de una: bajarse and go out in the same turn) earns nothing "
            "extra.",
            "Wer auf einen Schlag ausgeht (irse de una: im selben Zug auslegen und ausgehen), "
            "bekommt dafür nichts extra.",
            "Att gå ut direkt (irse de una: lägga ner och gå ut på samma tur) ger inget extra.",
        ))
    return items


def _other(rules: RuleSet, w: _Words) -> str:
    items = []
    if rules.open_hands:
        items.append(w(
            "Mano abierta: todos juegan con las cartas a la vista, para enseñar a los que "
            "aprenden.",
            "Open hands: everyone plays with their cards face up, to teach those learning.",
            "Offene Hand: alle spielen mit offen liegenden Karten, damit Anfänger dabei "
            "lernen können.",
            "Öppna kort: alla spelar med korten synliga, så att de som lär sig kan få hjälp.",
        ))
    else:
        items.append(w(
            "Cada uno ve solo su mano; de los demás se sabe lo que está en la mesa y lo que "
            "toman del pozo.",
            "Each player sees only their own hand; of the others you know what is on the table "
            "and what they take from the pozo.",
            "Jeder sieht nur seine eigene Hand; von den anderen weiß man, was auf dem Tisch "
            "liegt und was sie vom Pozo nehmen.",
            "Var och en ser bara sin egen hand; om de andra vet man det som ligger på bordet "
            "och det de tar från pozon.",
        ))
    if rules.undo:
        items.append(w(
            "Deshacer: se puede deshacer lo jugado en el turno mientras no se haya botado.",
            "Undo: you may undo your moves within your turn, until you discard.",
            "Rückgängig machen: in deinem Zug kannst du deine Spielzüge zurücknehmen, solange "
            "du nicht abgeworfen hast.",
            "Ångra: du kan ångra dina drag under din tur, tills du har kastat.",
        ))
    else:
        items.append(w("Lo jugado no se deshace.", "A move once made cannot be undone.",
                       "Was gespielt ist, kann nicht zurückgenommen werden.",
                       "Ett drag som är gjort kan inte ångras."))
    return w("## Otras reglas", "## Other rules", "## Weitere Regeln",
             "## Övriga regler") + "\n\n" + _bullets(items)
