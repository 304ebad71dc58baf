"""The engine's English reasons in Spanish, for the faces that speak to players (the terminal
game, the online table): an illegal move by its stable code where the code says it all, and
by pattern where the engine's words carry cards or numbers (a meld that is not one, a card
that does not fit).

>>> from carioca.errors import IllegalAction
>>> explain(IllegalAction("draw_first", "Ana must draw first"), "es")
'primero saca una carta del mazo o del pozo'
>>> meld_reason_es("a trío is cards of one rank, not 7, 8")
'un trío es de cartas de un mismo número, no 7, 8'

Rules that cannot be played (:class:`carioca.rules.RulesError`) are said in Spanish the same
way, keeping the numbers, option names and contracts of the English:

>>> rules_reason_es("option 'decks' must be 1 to 4 packs, not 7")
"la opción 'decks' tiene que ser de 1 a 4 naipes, no 7"
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .errors import IllegalAction
from .rules import Contract, RulesError

__all__ = ["a_rank_es", "explain", "explain_to_reader", "meld_reason_es", "record_reason_es",
           "rules_reason_es", "translated"]


_ILLEGAL_ES: dict[str, str] = {
    "already_down": "ya bajaste todo el contrato: ahora puedes agregar",
    "draw_first": "primero saca una carta del mazo o del pozo",
    "drawn_already": "ya sacaste: ahora bájate, agrega o bota una carta",
    "keep_cards": "una parte del contrato no puede dejarte con menos de dos cartas "
                  "(no podrías irte)",
    "keep_one": "guarda una carta: con estas reglas uno se va solo botando la última",
    "mazo_empty": "el mazo está vacío: saca del pozo",
    "pozo_empty": "el pozo está vacío: saca del mazo",
    "must_go_out": "en esta ronda hay que irse de una: el que se baja se queda sin cartas "
                   "en el mismo turno (bajarse, agregar y botar la última)",
    "nothing_to_undo": "no hay nada que deshacer en este turno",
    "swap_off": "estas reglas no permiten cambiar un comodín",
    "undo_off": "estas reglas no permiten deshacer",
    "cannot_go_out": "no puedes irte antes de bajar todo el contrato",
    "not_your_turn": "no es tu turno",
    "round_over": "la ronda terminó; la siguiente todavía no se reparte",
    "game_over": "la partida terminó",
}

# The engine's reasons a buy is refused, in Spanish (``cannot_buy``), by their English words.
_BUY_ES = (
    ("do not allow buying", "estas reglas no permiten comprar del pozo"),
    ("allow no buys", "estas reglas no permiten comprar en la ronda"),
    ("bought already", "esa carta ya se compró: se compra una sola por descarte"),
    ("no need to buy", "es tu turno: saca la carta del pozo, no hace falta comprarla"),
    ("whose turn it is buys nothing", "ya sacaste: en tu turno no se compra"),
    ("only after a discard", "solo se compra después de que alguien bota y antes de que el "
                             "siguiente saque"),
    ("just discarded", "no puedes comprar la carta que acabas de botar"),
    ("the pozo is empty", "el pozo está vacío"),
    ("the most the rules allow", "ya compraste todas las veces que las reglas permiten en "
                                 "esta ronda"),
)


def a_rank_es(rank: str) -> str:
    """A rank with its article: "un as", "un 7", "una Q" (the letters are feminine).

    >>> [a_rank_es(r) for r in ("A", "7", "K")]
    ['un as', 'un 7', 'una K']
    """
    if rank == "A":
        return "un as"
    return f"una {rank}" if rank in ("J", "Q", "K") else f"un {rank}"


def _melds(n: str) -> str:
    """The melds a contract asks for: "1 juego", "3 juegos"."""
    return "1 juego" if n == "1" else f"{n} juegos"


def _on_table(n: str) -> str:
    """How many melds the table holds, and how they are numbered."""
    if n == "0":
        return "todavía no hay ninguno"
    return "hay 1, el 0" if n == "1" else f"hay {n}, numerados desde 0"


# Why a meld is not one (carioca.melds), in Spanish: the engine's English, pattern by pattern.
_MELD_ES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(pattern), words) for pattern, words in (
        (r"^an? (trío|escala(?: \w+)?) needs (\d+) cards, not (\d+)$",
         lambda m: f"{'un' if m[1] == 'trío' else 'una'} {m[1]} necesita {m[2]} cartas, no {m[3]}"),
        (r"^an? (trío|escala(?: \w+)?) is laid down with exactly (\d+) cards, not (\d+)$",
         lambda m: f"{'un' if m[1] == 'trío' else 'una'} {m[1]} se baja con {m[2]} cartas "
                   f"justas, no {m[3]}"),
        (r"^the jokers are not wild in these rules: a joker fits no meld$",
         lambda m: "en estas reglas los jokers no son comodines: un joker no va en ningún juego"),
        (r"^a trío is cards of one rank, not (.*)$",
         lambda m: f"un trío es de cartas de un mismo número, no {m[1]}"),
        (r"^a trío needs cards$", lambda m: "un trío necesita cartas"),
        (r"^every meld needs at least one natural card$",
         lambda m: "todo juego necesita al menos una carta que no sea comodín"),
        (r"^an escala is cards of one suit$", lambda m: "una escala es de una sola pinta"),
        (r"^an escala has at most thirteen cards.*$",
         lambda m: "una escala tiene a lo más trece cartas: ningún número se repite"),
        (r"^no rank may appear twice in an escala$",
         lambda m: "en una escala ningún número se repite"),
        (r"^an escala may not turn the corner.*$",
         lambda m: "una escala no da la vuelta (K-A-2): el as va abajo (A-2-3) o arriba "
                   "(Q-K-A)"),
        (r"^the cards of an escala follow each other in order, low to high$",
         lambda m: "las cartas de una escala van seguidas, de menor a mayor"),
        (r"^an escala (\w+) is the thirteen cards from the ace to the king.*$",
         lambda m: f"una escala {m[1]} son las trece cartas del as al rey, en orden"),
        (r"^this meld may hold no wild card$", lambda m: "este juego no admite comodines"),
        (r"^a meld may hold only one wild card.*$",
         lambda m: "un juego admite un solo comodín"),
        (r"^a meld may hold at most (\d+) wild cards$",
         lambda m: f"un juego admite a lo más {m[1]} comodines"),
        (r"^the (\w+) runs from the ace to the king; nothing can be added$",
         lambda m: f"la escala {m[1]} va del as al rey: no se le puede agregar nada"),
        (r"^(\S+) is not an? (\S+): it does not fit the trío$",
         lambda m: f"{m[1]} no es {a_rank_es(m[2])}: no va en el trío"),
        (r"^(\S+) does not fit the (low|high) end of the escala \(it needs (\S+)\)$",
         lambda m: f"{m[1]} no va en la punta {'de abajo' if m[2] == 'low' else 'de arriba'} "
                   f"de la escala (ahí va {m[3]})"),
        (r"^the escala already has all thirteen ranks$",
         lambda m: "la escala ya tiene los trece números"),
        (r"^the escala already starts at the ace; it cannot go lower$",
         lambda m: "la escala ya empieza en el as: no puede bajar más"),
        (r"^the contract has (\d+) melds?, and these are (\d+) melds?$",
         lambda m: f"el contrato pide {_melds(m[1])}, no {m[2]}"),
        (r"^the escala already ends at the ace; it cannot go higher$",
         lambda m: "la escala ya termina en el as: no puede subir más"),
    ))


_Patterns = Sequence[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]]


def translated(table: _Patterns, text: str) -> str:
    """``text`` in the words of the first pattern of ``table`` that matches it (else as is)."""
    for pattern, words in table:
        found = pattern.match(text)
        if found:
            return words(found)
    return text


def meld_reason_es(reason: str) -> str:
    """A meld's reason in Spanish where it has a fixed shape (else as the engine says it)."""
    return translated(_MELD_ES, reason)


# (code, the English, the Spanish made from what the English names)
_CodedPatterns = tuple[tuple[str, re.Pattern[str], Callable[[re.Match[str]], str]], ...]

# The engine's messages that carry cards or numbers, in Spanish.
_ILLEGAL_PATTERNS_ES: _CodedPatterns = (
    # The contract is on the screen in Spanish; the engine names it in English.
    ("not_the_contract", re.compile(r"^that is not the contract \((.*?)\): (.*)$"),
     lambda m: f"eso no es el contrato: {meld_reason_es(m[2])}"),
    ("does_not_fit", re.compile(r"^(\S+) cannot go on meld (\d+): (.*)$"),
     lambda m: f"{m[1]} no va en el juego {m[2]}: {meld_reason_es(m[3])}"),
    ("cannot_relocate", re.compile(r"^the wild card cannot move to that end: (.*)$"),
     lambda m: f"el comodín no puede ir a esa punta: {meld_reason_es(m[1])}"),
    ("card_not_in_hand", re.compile(r"has no (\S+)"), lambda m: f"no tienes el {m[1]}"),
    ("no_such_meld", re.compile(r"no meld (\d+) on the table \((\d+) melds"),
     lambda m: f"no hay un juego {m[1]} en la mesa ({_on_table(m[2])})"),
    ("no_wild_for_card", re.compile(r"meld (\d+) stands for (\S+)"),
     lambda m: f"ningún comodín del juego {m[1]} está en lugar de {m[2]}"),
    # A bajar in a round gone out at once names the cards that could not all go.
    ("must_go_out", re.compile(r"could not all go: (.*)$"),
     lambda m: f"{_ILLEGAL_ES['must_go_out']}: no podrías deshacerte de todas estas cartas: "
               f"{m[1]}"),
)


def explain(exc: IllegalAction, lang: str) -> str:
    """The message of an illegal move for the person at the keyboard: the engine's words in
    English, and in Spanish where the code has a fixed meaning (else the engine's words)."""
    if lang != "es":
        return exc.message
    said = _said_by(_ILLEGAL_PATTERNS_ES, exc)
    if said is not None:
        return said
    if exc.code in _ILLEGAL_ES:
        return _ILLEGAL_ES[exc.code]
    if exc.code == "cannot_buy":
        return next((es for en, es in _BUY_ES if en in exc.message), exc.message)
    if exc.code in ("cannot_agregar", "cannot_swap"):
        if "before" in exc.message:
            return "primero tienes que bajar todo el contrato"
        what = "agregar" if exc.code == "cannot_agregar" else "cambiar un comodín"
        return f"no puedes {what} en el turno en que te bajas; desde el próximo turno sí"
    return exc.message


# A record's reader is told who did what: where the engine's English names the players,
# the Spanish names them too, in the third person, not the player's "no es tu turno".
_READER_ES: _CodedPatterns = (
    ("not_your_turn", re.compile(r"^it is (.+)'s turn, not (.+)'s$"),
     lambda m: f"es el turno de {m[1]}, no de {m[2]}"),
    ("not_your_turn", re.compile(r"^only (.+) may undo now, in their own turn$"),
     lambda m: f"solo {m[1]} puede deshacer ahora, en su propio turno"),
    ("card_not_in_hand", re.compile(r"^(.+) has no (\S+?)(?: to play)?$"),
     lambda m: f"{m[1]} no tiene el {m[2]}"),
    ("drawn_already", re.compile(r"^(.+) has drawn already: "),
     lambda m: f"{m[1]} ya sacó: le toca bajarse, agregar o botar una carta"),
    ("draw_first", re.compile(r"^(.+) must first draw a card from "),
     lambda m: f"{m[1]} primero tiene que sacar una carta del mazo o del pozo"),
    ("already_down", re.compile(r"^(.+) has laid the whole contract down already"),
     lambda m: f"{m[1]} ya bajó todo el contrato: ahora puede agregar"),
    ("cannot_buy", re.compile(r"^it is (.+)'s turn and they have drawn already"),
     lambda m: f"es el turno de {m[1]} y ya sacó: quien tiene el turno no compra"),
    ("cannot_buy", re.compile(r"^it is (.+)'s turn: take the pozo card by drawing it"),
     lambda m: f"es el turno de {m[1]}: saca la carta del pozo, no hace falta comprarla"),
)


def explain_to_reader(exc: IllegalAction, lang: str) -> str:
    """The message of an illegal move in a record, for someone reading the game (not the
    player who made it): as :func:`explain`, but naming the players the English names.

    >>> explain_to_reader(IllegalAction("not_your_turn", "It is Beto's turn, not Ana's"), "es")
    'es el turno de Beto, no de Ana'
    """
    said = _said_by(_READER_ES, exc) if lang == "es" else None
    return explain(exc, lang) if said is None else said


def _said_by(patterns: _CodedPatterns, exc: IllegalAction) -> str | None:
    # A record's error opens with a capital ("That is not the contract"): read it as said.
    message = exc.message[:1].lower() + exc.message[1:]
    for code, pattern, words in patterns:
        found = pattern.search(exc.message) or pattern.search(message)
        if exc.code == code and found:
            return words(found)
    return None


def _names_es(names: str) -> str:
    """A list of names as :func:`carioca.cards.named` cuts it ("a, b and 3 more"), in Spanish.

    >>> _names_es("f0, f1 and 3 more")
    'f0, f1 y 3 más'
    """
    return re.sub(r" and (\d+) more$", r" y \1 más", names)


# --------------------------------------------------------------------------- rules

_NUMBERS_EN = {"one": "una", "two": "dos", "three": "tres", "four": "cuatro", "five": "cinco"}


def _contract_es(code: str, words: str) -> str:
    """A contract's melds in Spanish ("dos tríos y una escala de 4"): read again from its
    notation (``2T+1E``), or else word by word from the English."""
    try:
        return Contract.parse(code).words("es")
    except RulesError:
        pass
    words = re.sub(r"\b(one|two|three|four|five)\b", lambda m: _NUMBERS_EN[m[1]], words)
    words = re.sub(r"\buna trío\b", "un trío", words)
    return words.replace(" of ", " de ").replace(" and ", " y ")


def _never_played(m: re.Match[str]) -> str:
    """A round whose contract no hand can hold (rules.py's ``_validate_round``)."""
    verb = "necesita" if m[4] == "needs" else "necesitan"
    why = (f"la ronda {m[1]} ({m[2]}) no se puede jugar nunca: {_contract_es(m[2], m[3])} "
           f"{verb} al menos {m[5]} cartas, pero una mano nunca tiene más de {m[6]}")
    if m[7]:
        why += " y hay que guardar una carta para botarla al final"
    return why


def _did_you_mean(hint: str | None) -> str:
    return f" (¿quisiste decir {hint}?)" if hint else ""


def _the_option(prefix: str | None) -> str:
    """ "option 'decks' ..." (an option as given) or "'decks' ..." (a rule set built so)."""
    return "la opción " if prefix else ""


# Why rules cannot be played (carioca.rules.RulesError), in Spanish: every message of
# rules.py, pattern by pattern, keeping its numbers, option names, contracts and the input it
# quotes. The most particular patterns come first.
_RULES_ES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(pattern, re.DOTALL), words) for pattern, words in (
        # contracts (Contract.parse)
        (r"^contract (.*) has an empty part$",
         lambda m: f"el contrato {m[1]} tiene una parte vacía"),
        (r"^contract (.*) asks for (\d+…?) melds: a contract has at most (\d+)$",
         lambda m: f"el contrato {m[1]} pide {m[2]} juegos: un contrato tiene a lo más {m[3]}"),
        (r"^contract (.*?): (.*) is not a meld \(use T, E, E3, ES, ER or EC\)$",
         lambda m: f"el contrato {m[1]}: {m[2]} no es un juego (usa T, E, E3, ES, ER o EC)"),
        (r"^contract (.*) asks for no (.*)$",
         lambda m: f"el contrato {m[1]} pide 0 veces {m[2]}: cada parte pide al menos un juego"),
        # a game for this many players (RuleSet.check_players)
        (r"^(\S+) is played by (\d+) to (\d+) players, not (-?\d+)$",
         lambda m: f"el carioca {m[1]} se juega de {m[2]} a {m[3]} jugadores, no con {m[4]}"),
        (r"^round (\d+) deals (\d+) cards to (\d+) players and turns one up: (\d+) cards, "
         r"but the deck has only (\d+); add a deck$",
         lambda m: f"la ronda {m[1]} reparte {m[2]} cartas a {m[3]} jugadores y da vuelta una: "
                   f"hacen falta {m[4]} cartas, pero solo hay {m[5]}; agrega un naipe"),
        # presets and the record's rules object (RuleSet.preset, RuleSet.from_dict)
        (r"^unknown preset (.*?)(?: \(did you mean (.*)\?\))?; the presets are: (.*)$",
         lambda m: f"no hay una variante {m[1]}{_did_you_mean(m[2])}; "
                   f"las variantes son: {m[3]}"),
        (r"^'rules' must be an object with a 'preset' and optional 'options'$",
         lambda m: "'rules' tiene que ser un objeto con 'preset' y, si quieres, 'options'"),
        (r"^'rules' has unknown field\(s\): (.*)$",
         lambda m: f"'rules' tiene campos que no existen: {_names_es(m[1])}"),
        (r"^'rules' needs a 'preset' \(one of: (.*)\)$",
         lambda m: f"a 'rules' le falta 'preset' (una de estas variantes: {m[1]})"),
        (r"^'rules\.preset' must be a preset name$",
         lambda m: "'rules.preset' tiene que ser el nombre de una variante"),
        (r"^'rules\.options' must be an object of option names and values$",
         lambda m: "'rules.options' tiene que ser un objeto con nombres de opciones y sus valores"),
        (r"^'rules\.options' names its options with strings$",
         lambda m: "'rules.options' tiene que nombrar sus opciones con textos entre comillas"),
        (r"^'rules' gives (.*) twice: beside the preset and in 'options'$",
         lambda m: f"'rules' da {m[1]} dos veces: junto a 'preset' y dentro de 'options'"),
        (r"^unknown option (.*?)(?: \(did you mean (.*)\?\))?$",
         lambda m: f"no existe la opción {m[1]}{_did_you_mean(m[2])}"),
        # the rule set as a whole (RuleSet._validate)
        (r"^the rules have no rounds to play$",
         lambda m: "estas reglas no tienen ninguna ronda que jugar"),
        (r"^a table has (\d+) to (\d+) players$",
         lambda m: f"una mesa es de {m[1]} a {m[2]} jugadores"),
        (r"^min_players \((\d+)\) cannot be more than max_players \((\d+)\)$",
         lambda m: f"el mínimo de jugadores (min_players, {m[1]}) no puede pasar del máximo "
                   f"(max_players, {m[2]})"),
        (r"^(option )?'decks' must be (\d+) to (\d+) packs(?:, not (.*))?$",
         lambda m: f"{_the_option(m[1])}'decks' tiene que ser de {m[2]} a {m[3]} naipes"
                   + (f", no {m[4]}" if m[4] is not None else "")),
        (r"^'jokers' \(per pack\) must be (\d+) to (\d+)$",
         lambda m: f"'jokers' (por naipe) tiene que ser de {m[1]} a {m[2]}"),
        (r"^(option )?'wilds' may hold (.*); not (.*)$",
         lambda m: f"{_the_option(m[1])}'wilds' solo puede tener {m[2]}; no {_names_es(m[3])}"),
        (r"^option '(.*)' is nested too deeply to read$",
         lambda m: f"la opción '{m[1]}' está anidada demasiado hondo para leerla"),
        (r"^'max_wilds_per_meld' must be (\d+) or more, or null for no limit$",
         lambda m: f"'max_wilds_per_meld' tiene que ser {m[1]} o más, o null (sin límite)"),
        (r"^the value table lacks (.*)$",
         lambda m: f"a la tabla de puntos le falta{'n' if ',' in m[1] else ''} {m[1]}"),
        (r"^round (\d+) deals (-?\d+) cards; deal (\d+) to (\d+)$",
         lambda m: f"la ronda {m[1]} reparte {m[2]} cartas; se reparten de {m[3]} a {m[4]}"),
        (r"^round (\d+): an escala must be (\d+) to (\d+) cards long, not (-?\d+)$",
         lambda m: f"en la ronda {m[1]}, una escala tiene que ser de {m[2]} a {m[3]} cartas, "
                   f"no de {m[4]}"),
        (r"^round (\d+) \((.*?)\) can never be played: (.*) (needs|need) at least (\d+) cards, "
         r"but a hand never holds more than (\d+)"
         r"( and one card must be kept for the last discard)?$", _never_played),
        # options one by one (parse_option_texts, _convert_option and the round options)
        (r"^(--set|--compare-set) gives option (.*) two different values: keep one$",
         lambda m: f"{m[1]} da dos valores distintos a la opción {m[2]}: deja uno"),
        (r"^(--set|--compare-set) takes option=value, not (.*)$",
         lambda m: f"{m[1]} se escribe opción=valor, no {m[2]}"),
        (r"^option (.*?) must be one of (.*), not (.*)$",
         lambda m: f"la opción {m[1]} tiene que ser una de estas: {m[2]}; no {m[3]}"),
        (r"^option (.*?) must be true or false, not (.*)$",
         lambda m: f"la opción {m[1]} tiene que ser true o false (sí o no), no {m[2]}"),
        (r"^option (.*?) must be a whole number from (-?\d+) to (-?\d+), not (.*)$",
         lambda m: f"la opción {m[1]} tiene que ser un número entero de {m[2]} a {m[3]}, "
                   f"no {m[4]}"),
        (r"^option 'max_wilds_per_meld' must be a number from (\d+) up, or null for no limit, "
         r"not (.*)$",
         lambda m: f"la opción 'max_wilds_per_meld' tiene que ser un número desde {m[1]}, "
                   f"o null (sin límite), no {m[2]}"),
        (r"^option 'wilds' must be a list drawn from (.*)$",
         lambda m: f"la opción 'wilds' tiene que ser una lista con algunos de estos: {m[1]}"),
        (r"^option 'values' must map cards \((.*)\) to points$",
         lambda m: f"la opción 'values' tiene que dar los puntos de cada carta ({m[1]})"),
        (r"^option 'values': (.*) is not a card rank \(use (.*)\)$",
         lambda m: f"la opción 'values': {m[1]} no es una carta (usa {m[2]})"),
        (r"^option 'values': (.*?) must be worth (\d+) to (\d+) points, not (.*)$",
         lambda m: f"la opción 'values': {m[1]} tiene que valer de {m[2]} a {m[3]} puntos, "
                   f"no {m[4]}"),
        (r"^option 'rounds' must be a list of round numbers from (\d+) to (\d+), like (.*)$",
         lambda m: f"la opción 'rounds' tiene que ser una lista con al menos un número de "
                   f"ronda, de {m[1]} a {m[2]}, como {m[3]}"),
        (r"^option 'rounds': there is no round (-?\d+); these rules have rounds (\d+) to (\d+)$",
         lambda m: f"la opción 'rounds': no hay ronda {m[1]}; estas reglas tienen las rondas "
                   f"de la {m[2]} a la {m[3]}"),
        (r"^option '(rounds|contracts)' lists (\d+) rounds: a game has at most (\d+)$",
         lambda m: f"la opción '{m[1]}' trae {m[2]} rondas: una partida tiene a lo más {m[3]}"),
        (r"^option 'contracts' must be a list like (.*)$",
         lambda m: f"la opción 'contracts' tiene que ser una lista como {m[1]}"),
        (r"^option 'hand_size' must be a number, or a list of (\d+) numbers \(one per round\)$",
         lambda m: f"la opción 'hand_size' tiene que ser un número, o una lista de {m[1]} "
                   f"números (uno por ronda)"),
    ))


def rules_reason_es(message: str) -> str:
    """Why rules cannot be played (a :class:`~carioca.rules.RulesError`'s message) in
    Spanish; a message of another shape comes back as it is.

    >>> print(rules_reason_es(  # doctest: +NORMALIZE_WHITESPACE
    ...     "round 1 (20T) can never be played: 20 tríos need at least 60 cards, but a hand "
    ...     "never holds more than 13"))
    la ronda 1 (20T) no se puede jugar nunca: 20 tríos necesitan al menos 60 cartas, pero una
    mano nunca tiene más de 13
    >>> rules_reason_es("no such thing")
    'no such thing'
    """
    return translated(_RULES_ES, message)


# --------------------------------------------------------------------------- records

def _fields_es(text: str) -> str:
    return text.replace(" and ", " y ").replace(" or ", " o ")


def _deck_es(text: str) -> str:
    """``2 packs + 4 jokers = 108 cards`` and ``(2, the deck has 1)`` in Spanish."""
    text = re.sub(r"(\d+) packs? \+ (\d+) jokers? = (\d+) cards",
                  lambda m: f"{m[1]} {'naipe' if m[1] == '1' else 'naipes'} + {m[2]} "
                            f"{'joker' if m[2] == '1' else 'jokers'} = {m[3]} cartas", text)
    text = re.sub(r"\((\d+), the deck has (\d+)\)", r"(hay \1; la baraja trae \2)", text)
    text = re.sub(r" and (\d+) more", r" y \1 más", text)
    return text.replace("too many ", "sobra ").replace("too few ", "falta ")


def _round_reason(m: re.Match[str]) -> str:
    """``round N: ...``: a record's reason about round N, unless the rules' reasons say the
    whole (a round of the rules that cannot be played)."""
    whole = rules_reason_es(m[0])
    return whole if whole != m[0] else f"ronda {m[1]}: {record_reason_es(m[2])}"


# Why a record (carioca.record.RecordError), a typed or recorded action (ActionError) or a
# card (CardError) cannot be read, in Spanish: the record's field names and the quoted input
# stay as written, since the reader has to find them in the file.
_RECORD_ES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(pattern, re.DOTALL), words) for pattern, words in (
        # the document
        (r"^cannot read (.*): (.*)$", lambda m: f"no se puede leer {m[1]}: {m[2]}"),
        (r"^the file is not JSON: it is nested too deeply$",
         lambda m: "el archivo no es JSON: está anidado demasiado hondo"),
        (r"^the file is not JSON: .*codec can't decode.*$",
         lambda m: "el archivo no es JSON: su texto no está en UTF-8"),
        (r"^the file is not JSON: .*line (\d+) column (\d+).*$",
         lambda m: f"el archivo no es JSON (línea {m[1]}, columna {m[2]})"),
        (r"^the file is not JSON: (.*)$", lambda m: f"el archivo no es JSON: {m[1]}"),
        (r"^the file holds a number too long to read \(over ([\d,]+) digits\).*$",
         lambda m: f"el archivo tiene un número demasiado largo para leerlo (más de "
                   f"{m[1].replace(',', '.')} cifras); ningún número de un registro es tan largo"),
        (r"^a record is a JSON object with format, rules, players and rounds$",
         lambda m: "un registro es un objeto JSON con 'format', 'rules', 'players' y 'rounds'"),
        (r"^this is not a (\S+) record \(format is (.*)\)$",
         lambda m: f"esto no es un registro {m[1]} (format es {m[2]})"),
        (r"^the record has no (.*)$", lambda m: f"al registro le falta {m[1]}"),
        (r"^(.*) belongs? inside 'rules' or a round, not at the top of the record$",
         lambda m: f"{m[1]} va dentro de 'rules' o de una ronda, no arriba en el registro"),
        (r"^the rules cannot be played: (.*)$",
         lambda m: f"las reglas no se pueden jugar: {rules_reason_es(m[1])}"),
        (r"^'players' must be a list of names, in seat order$",
         lambda m: "'players' tiene que ser una lista de nombres, en el orden de los asientos"),
        (r"^'rounds' must be a list of rounds$",
         lambda m: "'rounds' tiene que ser una lista de rondas"),
        # the rounds
        (r"^the game ended after round (\d+), but the record goes on$",
         lambda m: f"la partida terminó después de la ronda {m[1]}, pero el registro sigue"),
        (r"^round (\d+) has not ended, but the record goes on with round (\d+)$",
         lambda m: f"la ronda {m[1]} no ha terminado, pero el registro sigue con la ronda "
                   f"{m[2]}"),
        (r"^round (\d+) must be an object with a deal and actions$",
         lambda m: f"la ronda {m[1]} tiene que ser un objeto con 'deal' y 'actions'"),
        (r"^round (\d+) has unknown field\(s\): (.*)$",
         lambda m: f"la ronda {m[1]} tiene campos que no existen: {_names_es(m[2])}"),
        (r"^round (\d+) is over; no action may follow$",
         lambda m: f"la ronda {m[1]} ya terminó: no puede seguir ninguna jugada"),
        (r"^round (\d+) needs a 'deal' or a 'seed'$",
         lambda m: f"la ronda {m[1]} necesita un 'deal' o un 'seed'"),
        (r"^round (\d+): (.*)$", _round_reason),
        (r"^'(seed)' must be a whole number$", lambda m: "'seed' tiene que ser un número entero"),
        (r"^'actions' must be a list$", lambda m: "'actions' tiene que ser una lista"),
        (r"^'deal' must be an object with hands, pozo and mazo$",
         lambda m: "'deal' tiene que ser un objeto con 'hands', 'pozo' y 'mazo'"),
        (r"^'deal' has unknown field\(s\): (.*)$",
         lambda m: f"'deal' tiene campos que no existen: {_names_es(m[1])}"),
        (r"^the deal needs 'hands' and 'pozo'$",
         lambda m: "el reparto necesita 'hands' y 'pozo'"),
        (r"^'hands' must be a list of lists of cards$",
         lambda m: "'hands' tiene que ser una lista de listas de cartas"),
        (r"^the (pozo|mazo) must be a list of cards$",
         lambda m: f"el {m[1]} tiene que ser una lista de cartas"),
        (r"^the deal holds more (.*) than the deck of the rules has \((\d+) packs?, (\d+) "
         r"jokers? each\)$",
         lambda m: f"el reparto tiene más {m[1]} de los que trae la baraja de las reglas "
                   f"({m[2]} {'naipe' if m[2] == '1' else 'naipes'}, {m[3]} "
                   f"{'joker' if m[3] == '1' else 'jokers'} cada uno)"),
        # the deal (the engine's bad_deal)
        (r"^the deal has (\d+) hands for (\d+) players$",
         lambda m: f"el reparto tiene {m[1]} manos para {m[2]} jugadores"),
        (r"^(.*) is dealt (\d+) cards, but this round deals (\d+)$",
         lambda m: f"a {m[1]} le tocan {m[2]} cartas, pero esta ronda reparte {m[3]}"),
        (r"^the deal turns no card up to start the pozo$",
         lambda m: "el reparto no da vuelta ninguna carta para empezar el pozo"),
        (r"^the deal is not the deck of the rules \((.*?)\): (.*)$",
         lambda m: f"el reparto no es la baraja de las reglas ({_deck_es(m[1])}): "
                   f"{_deck_es(m[2])}"),
        # actions
        (r"^an action must be an object like (.*)$",
         lambda m: f"una jugada es un objeto como {m[1]}"),
        (r"^an action needs 'p', the number of the seat that acts$",
         lambda m: "una jugada necesita 'p', el número del asiento que juega"),
        (r"^'p' is the number of the seat that acts \(0, 1, \.\.\.\), not (.*)$",
         lambda m: f"'p' es el número del asiento que juega (0, 1, ...), no {m[1]}"),
        (r"^there is no seat (.*): seats are 0 to (\d+)$",
         lambda m: f"no hay asiento {m[1]}: los asientos van de 0 a {m[2]}"),
        (r"^an action has 'p' and exactly one of ([^(]*?)(?: \(found (.*)\))?$",
         lambda m: f"una jugada tiene 'p' y una sola de {_fields_es(m[1])}"
                   + (f" (tiene {m[2]})" if m[2] else "")),
        (r"^('.*') is not an action; try (.*)$",
         lambda m: f"{m[1]} no es una jugada; prueba {_fields_es(m[2])}"),
        (r"^say an action: .*$",
         lambda m: "di una jugada: saca, baja, agrega, cambia, bota o compra"),
        (r"^(.*) is not a meld number \(melds are numbered from 0\)$",
         lambda m: f"{m[1]} no es un número de juego (los juegos se numeran desde 0)"),
        (r"^draw from the 'mazo' or the 'pozo', not (.*)$",
         lambda m: f"saca del 'mazo' o del 'pozo', no {m[1]}"),
        (r"^'bajar' is a list of melds, each a list of cards$",
         lambda m: "'bajar' es una lista de juegos, cada uno una lista de cartas"),
        (r"^'bajar' is a list of melds, each a non-empty list of cards$",
         lambda m: "'bajar' es una lista de juegos, cada uno una lista de cartas (no vacía)"),
        (r"^'(\w+)' is an object like (.*)$", lambda m: f"'{m[1]}' es un objeto como {m[2]}"),
        (r"^'(\w+)' has unknown field\(s\): (.*)$",
         lambda m: f"'{m[1]}' tiene campos que no existen: {_names_es(m[2])}"),
        (r"^'(\w+)' needs a 'card' and a 'meld' number$",
         lambda m: f"'{m[1]}' necesita una carta ('card') y un número de juego ('meld')"),
        (r"^'(\w+)\.meld' must be a meld number from 0, not (.*)$",
         lambda m: f"'{m[1]}.meld' tiene que ser un número de juego desde 0, no {m[2]}"),
        (r"^'(\w+)\.end' is 'low' or 'high', not (.*)$",
         lambda m: f"'{m[1]}.end' es 'low' (abajo) o 'high' (arriba), no {m[2]}"),
        (r"^'buy' must be true$", lambda m: "'buy' tiene que ser true"),
        (r"^(.*) is not an end of the escala: write low or high$",
         lambda m: f"{m[1]} no es un extremo de la escala: escribe low (abajo) o high "
                   "(arriba)"),
        (r"^a meld between the '/' is empty: write the melds split by '/', like (.*)$",
         lambda m: f"hay un juego vacío entre las '/': escribe los juegos separados por '/', "
                   f"como {m[1]}"),
        # cards
        (r"^no card has rank (\d+) and suit (.*)$",
         lambda m: f"ninguna carta tiene el número {m[1]} y la pinta {m[2]}"),
        (r"^a card is written as text like '10H', not (.*)$",
         lambda m: f"una carta se escribe como texto, por ejemplo '10H', no {m[1]}"),
        (r"^(.*) is not a card \(write rank then suit, like 10H or JK\)$",
         lambda m: f"{m[1]} no es una carta (escribe el número y la pinta, como 10H o JK)"),
    ))


def record_reason_es(message: str) -> str:
    """Why a record, an action or a card cannot be read, in Spanish (the rules' reasons by
    :func:`rules_reason_es`); a message of another shape comes back as it is.

    >>> record_reason_es("round 2: 'XX' is not a card (write rank then suit, like 10H or JK)")
    "ronda 2: 'XX' no es una carta (escribe el número y la pinta, como 10H o JK)"
    >>> print(record_reason_es(  # doctest: +NORMALIZE_WHITESPACE
    ...     "the deal is not the deck of the rules (1 pack + 0 jokers = 52 "
    ...                        "cards): too many 2C (2, the deck has 1); too few KS (0, the deck "
    ...                        "has 1)"))
    el reparto no es la baraja de las reglas (1 naipe + 0 jokers = 52 cartas): sobra 2C (hay 2;
    la baraja trae 1); falta KS (hay 0; la baraja trae 1)
    """
    found = translated(_RECORD_ES, message)
    return found if found != message else rules_reason_es(message)
