"""The engine's English reasons in Spanish, for the faces that speak to players (the terminal
game, the online table): an illegal move by its stable code where the code says it all, and
by pattern where the engine's words carry cards or numbers (a meld that is not one, a card
that does not fit).

>>> from carioca.errors import IllegalAction
>>> explain(IllegalAction("draw_first", "Ana must draw first"), "es")
'primero saca una carta del mazo o del pozo'
>>> meld_reason_es("a trío is cards of one rank, not 7, 8")
'un trío es de cartas de un mismo número, no 7, 8'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .errors import IllegalAction

__all__ = ["explain", "meld_reason_es", "translated"]


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
    ("only after a discard", "solo se compra después de que alguien bota y antes de que el "
                             "siguiente saque"),
    ("just discarded", "no puedes comprar la carta que acabas de botar"),
    ("the pozo is empty", "el pozo está vacío"),
    ("the most the rules allow", "ya compraste todas las veces que las reglas permiten en "
                                 "esta ronda"),
)


def _a_rank(rank: str) -> str:
    """A rank with its article: "un as", "un 7", "una Q" (the letters are feminine).

    >>> [_a_rank(r) for r in ("A", "7", "K")]
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
        (r"^K-A-2 does not turn the corner.*$",
         lambda m: "K-A-2 no da la vuelta: el as va abajo (A-2-3) o arriba (Q-K-A)"),
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
         lambda m: f"{m[1]} no es {_a_rank(m[2])}: no va en el trío"),
        (r"^(\S+) does not fit the (low|high) end of the escala \(it needs (\S+)\)$",
         lambda m: f"{m[1]} no va en la punta {'de abajo' if m[2] == 'low' else 'de arriba'} "
                   f"de la escala (ahí va {m[3]})"),
        (r"^the escala already has all thirteen ranks$",
         lambda m: "la escala ya tiene los trece números"),
        (r"^the escala already starts at the ace; it cannot go lower$",
         lambda m: "la escala ya empieza en el as: no puede bajar más"),
        (r"^it has (\d+) melds, not (\d+)$",
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


# The engine's messages that carry cards or numbers, in Spanish: (code, English, Spanish).
_ILLEGAL_PATTERNS_ES: tuple[tuple[str, re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
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
)


def explain(exc: IllegalAction, lang: str) -> str:
    """The message of an illegal move for the person at the keyboard: the engine's words in
    English, and in Spanish where the code has a fixed meaning (else the engine's words)."""
    if lang != "es":
        return exc.message
    if exc.code in _ILLEGAL_ES:
        return _ILLEGAL_ES[exc.code]
    if exc.code == "cannot_buy":
        return next((es for en, es in _BUY_ES if en in exc.message), exc.message)
    if exc.code in ("cannot_agregar", "cannot_swap"):
        if "before" in exc.message:
            return "primero tienes que bajar todo el contrato"
        what = "agregar" if exc.code == "cannot_agregar" else "cambiar un comodín"
        return f"no puedes {what} en el turno en que te bajas; desde el próximo turno sí"
    for code, pattern, words in _ILLEGAL_PATTERNS_ES:
        found = pattern.search(exc.message)
        if exc.code == code and found:
            return words(found)
    return exc.message
