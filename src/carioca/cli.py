"""The command line: ``carioca rules``, ``carioca replay`` and ``carioca play``.

``carioca rules chile --lang en`` prints the rules of a preset in words;
``carioca replay FILE [--json]`` replays a ``carioca-record/1`` game record and prints its score
sheet (or the first rule it breaks); ``carioca play`` is a game in the terminal, one person (seat 0)
against bots (random ones unless ``--bots`` names others). The play loop is :func:`play_game`,
which reads every answer through a ``read_line(prompt)`` function, so it can be driven by a
script as well as by a keyboard.

No input makes a command end in a traceback: a bad preset, option or record is a one-line
message and exit status 2.
"""

from __future__ import annotations

import contextlib
import datetime
import errno
import itertools
import json
import os
import random
import re
import sys
import tempfile
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from . import record as record_mod
from .actions import Action, ActionError, Agregar, Bajar, Buy, Discard, Draw, Swap
from .bots import BOTS, Bot, Buyer, RandomBot, make_bot
from .cards import Card, CardError, quoted, sort_by_rank, sort_by_suit
from .describe import LANGS as RULES_LANGS
from .describe import describe_preset_list, describe_rules
from .engine import Game, View
from .errors import IllegalAction, RecordError
from .melds import Meld
from .rules import RulesError, RuleSet, parse_option_texts
from .spanish import explain, explain_to_reader, record_reason_es, rules_reason_es, translated

__all__ = ["SaveFailed", "app", "main", "play_game", "parse_set_options", "printable",
           "sheet_table"]

EXIT_ERROR = 2

# --------------------------------------------------------------------------- UI strings

_UI: dict[str, dict[str, str]] = {
    "es": {
        "you": "Tú",
        "round": "Ronda {n} de {total}",
        "contract": "contrato: {words}",
        "at_once": "hay que irse de una: bajarse, agregar y botar la última carta en el mismo "
                   "turno",
        "at_once_short": "hay que irse de una",
        "or": " o ",
        "dealer": "reparte {dealer}, empieza {first}",
        "dealer_you": "repartes tú, empieza {first}",
        "first_you": "reparte {dealer}, empiezas tú",
        "turn_of": "Turno de {name}",
        "your_turn_draw": "Te toca: saca una carta",
        "your_turn_play": "Te toca: bájate, agrega o bota una carta",
        "your_turn_down": "Te toca: agrega o bota una carta",
        "table": "Mesa",
        "no_melds": "(no hay juegos en la mesa)",
        "pozo": "Pozo",
        "pozo_empty": "(vacío)",
        "mazo": "Mazo",
        "mazo_from_pozo": " (al sacar, se baraja el pozo)",
        "cards": "cartas",
        "card": "carta",
        "hand": "Tu mano",
        "by_rank": "por número",
        "by_suit": "por pinta",
        "hand_of": "Mano de {name}",
        "sheet": "Anotador",
        "sheet_marks": "Anotador (rondas ganadas)",
        "col_round": "#",
        "col_contract": "Contrato",
        "col_out": "Se fue",
        "row_cards": "cartas",
        "row_down": "bajado",
        "total": "Total",
        "nobody": "nadie",
        "in_play": "en curso",
        "winner": "Gana {names}.",
        "you_win": "¡Ganaste!",
        "you_share": "Ganaste, con {names}.",
        "save_is_dir": "{path} es una carpeta: --save es el archivo donde guardar la partida",
        "save_bad": "no se puede guardar la partida en {path}: {msg}",
        "save_no_folder": "no se puede guardar la partida en {path}: la carpeta no existe o no "
                          "se puede escribir en ella",
        "winners": "Ganan {names}.",
        "not_over": "La partida no ha terminado: se jugaron {played} de {total} rondas.",
        "not_over_1": "La partida no ha terminado: se jugó 1 de {total} rondas.",
        "can": "Puedes:",
        "g_draw": "sacar",
        "g_bajar": "bajarse",
        "g_agregar": "agregar",
        "g_swap": "cambiar comodín",
        "g_discard": "botar",
        "prompt": "Tu jugada (número, jugada, ayuda) > ",
        "illegal": "No se puede: {msg}",
        "unparsable": "No entiendo: {msg}",
        "bad_bytes": "No entiendo esas letras: la terminal no escribe en UTF-8. Prueba otra "
                     "vez.",
        "no_option": "No hay opción {n}: elige de 1 a {last}.",
        "nothing_legal": "No hay ninguna jugada posible (error del motor).",
        "draw_mazo": "{name} saca del mazo",
        "draw_mazo_2": "Sacas del mazo: {card}",
        "draw_pozo_2": "Sacas {card} del pozo",
        "bajar_2": "Te bajas: {melds}",
        "agregar_2": "Agregas {card} al juego {meld}",
        "swap_2": "Pones {card} en el juego {meld} y tomas el comodín",
        "swap_relocate_2": "Pones {card} en el juego {meld}; el comodín pasa a una punta",
        "discard_2": "Botas {card}",
        "buy_2": "Compras {card} del pozo",
        "buy_penalty_2": "Compras {card} del pozo (+ castigo: {penalty})",
        "went_out_2": "¡Te fuiste!",
        "draw_pozo": "{name} saca {card} del pozo",
        "bajar": "{name} se baja: {melds}",
        "agregar": "{name} agrega {card} al juego {meld}",
        "swap": "{name} pone {card} en el juego {meld} y toma el comodín",
        "swap_relocate": "{name} pone {card} en el juego {meld}; el comodín pasa a una punta",
        "discard": "{name} bota {card}",
        "buy": "{name} compra {card} del pozo",
        "buy_penalty": "{name} compra {card} del pozo (+ castigo: {penalty})",
        "went_out": "{name} se fue.",
        "nobody_out": "Nadie se fue: la ronda terminó sin cartas para sacar o por tiempo.",
        "round_over": "Fin de la ronda {n}",
        "game_over": "Fin de la partida",
        "continue": "Enter para seguir, o escribe salir > ",
        "buy_q": "¿Compras {card} del pozo? Tu mano: {hand} (s/n) > ",
        "buy_help": "Responde s (sí, la compro) o n (no); pista da una pista, salir deja la "
                    "partida.",
        "no": "n no",
        "save_exists": "{path} ya existe: elige otro nombre (o bórralo primero)",
        "saved_elsewhere": "No se pudo guardar en {path} ({msg}); la partida quedó en {other}",
        "resume_bad": "no se puede seguir la partida de {file}: {msg}",
        "resume_over": "la partida de {file} ya terminó: no hay nada que seguir",
        "resumed": "Sigue la partida de {file}: ronda {n}.",
        "resume_options": "--resume sigue con las reglas, los jugadores y la semilla de la "
                          "partida guardada: quita --preset, --players, --set, --seed y --name",
        "saved": "Partida guardada en {path}",
        "save_failed": "No se pudo guardar la partida en {path}: {msg}",
        "undone": "Deshecho: {action}",
        "hint": "Pista: {action} — {reason}",
        "hint_pass": "Pista: {reason}",
        "sorted": "Mano ordenada {how}.",
        "bye": "Partida interrumpida.",
        "table_bots": "Juegan contigo:",
        "err_bot": "no conozco al bot {name}: elige entre {names}, o search@N (N repartos de "
                   "prueba por jugada)",
        "err_no_bots": "--bots necesita al menos un bot: {names}",
        "err_bots_seats": "--bots nombra {n} bots, pero la mesa tiene lugar para {seats} "
                          "además de ti: quita --players, o pon más jugadores",
        "err_budget": "{name}: escribe search@N, con N de 1 a 100.000 repartos de prueba por "
                      "jugada (o search@N:POLÍTICA, con greedy, lookahead, bottleneck, eager o "
                      "random)",
        "bots_tag_bad": "su lista de bots no se entiende",
        "yes": "s si sí y yes",
        "help": (
            "Escribe el número de una opción de la lista, o la jugada (cartas como 7H 10S QD "
            "JK; H corazones, D diamantes, S picas, C tréboles):\n"
            "  saca mazo | saca pozo        sacar una carta (o solo: mazo, pozo)\n"
            "  baja 7H 7S 7D / QS QH JK     bajarse: los juegos separados por /, las escalas\n"
            "                               de menor a mayor (el comodín en su lugar)\n"
            "  agrega 7C 0 [low|high]       agregar 7C al juego 0 de la mesa\n"
            "  cambia QD 1 [low|high]       poner QD en lugar del comodín del juego 1\n"
            "  bota 9C                      botar 9C (o solo: 9C)\n"
            "  compra                       comprar la carta del pozo (o s, cuando te pregunten\n"
            "                               ¿Compras?)\n"
            "  ordenar                      ordenar la mano por número o por pinta\n"
            "  deshacer                     deshacer la última jugada del turno, si las reglas\n"
            "                               lo permiten\n"
            "  reglas                       las reglas de esta partida\n"
            "  pista                        una jugada sugerida y por qué (con --hints, antes\n"
            "                               de cada jugada)\n"
            "  salir                        guardar la partida y salir"
        ),
        "err_set": "--set espera opción=valor, no {text!r}",
        "err_sort": "--sort es rank o suit, no {value!r}",
        "err_read": "no se puede leer {file}: {msg}",
        "err_no_file": "falta el archivo del registro (o - para leerlo de la entrada estándar)",
        "err_internal": "error interno (por favor, repórtalo): {msg}",
        "err_at": "Error en la ronda {round}, jugada {action}: {msg}",
        "err_at_round": "Error en la ronda {round}: {msg}",
        "err_doc": "Error: {msg}",
        "rules_hint": "Para leer las reglas de una variante: carioca rules chile.",
    },
    "en": {
        "you": "You",
        "round": "Round {n} of {total}",
        "contract": "contract: {words}",
        "at_once": "you must go out in one turn (bajarse, agregar and discard it all)",
        "at_once_short": "go out in one turn",
        "or": " or ",
        "dealer": "{dealer} deals, {first} starts",
        "dealer_you": "you deal, {first} starts",
        "first_you": "{dealer} deals, you start",
        "turn_of": "{name}'s turn",
        "your_turn_draw": "Your turn: draw a card",
        "your_turn_play": "Your turn: bajarse, agregar or discard a card",
        "your_turn_down": "Your turn: agregar or discard a card",
        "table": "Table",
        "no_melds": "(no melds on the table)",
        "pozo": "Pozo",
        "pozo_empty": "(empty)",
        "mazo": "Mazo",
        "mazo_from_pozo": " (drawing reshuffles the pozo)",
        "cards": "cards",
        "card": "card",
        "hand": "Your hand",
        "by_rank": "by rank",
        "by_suit": "by suit",
        "hand_of": "{name}'s hand",
        "sheet": "Score sheet",
        "sheet_marks": "Score sheet (rounds won)",
        "col_round": "#",
        "col_contract": "Contract",
        "col_out": "Went out",
        "row_cards": "cards",
        "row_down": "down",
        "total": "Total",
        "nobody": "nobody",
        "in_play": "in play",
        "winner": "{names} wins.",
        "you_win": "You win!",
        "you_share": "You win, with {names}.",
        "save_is_dir": "{path} is a folder: --save is the file to save the game in",
        "save_bad": "cannot save the game in {path}: {msg}",
        "save_no_folder": "cannot save the game in {path}: the folder does not exist or "
                          "cannot be written to",
        "winners": "{names} win.",
        "not_over": "The game is not over: {played} of {total} rounds were played.",
        "not_over_1": "The game is not over: 1 of {total} rounds was played.",
        "can": "You can:",
        "g_draw": "draw",
        "g_bajar": "bajarse",
        "g_agregar": "agregar",
        "g_swap": "swap a comodín",
        "g_discard": "discard",
        "prompt": "Your move (number, move, help) > ",
        "illegal": "Not allowed: {msg}",
        "unparsable": "I don't understand: {msg}",
        "bad_bytes": "I can't read those letters: the terminal does not write UTF-8. Try "
                     "again.",
        "no_option": "There is no option {n}: choose 1 to {last}.",
        "nothing_legal": "No move is possible (an engine bug).",
        "draw_mazo": "{name} draws from the mazo",
        "draw_mazo_2": "You draw from the mazo: {card}",
        "draw_pozo_2": "You take {card} from the pozo",
        "bajar_2": "You go down: {melds}",
        "agregar_2": "You lay {card} off on meld {meld}",
        "swap_2": "You put {card} in meld {meld} and take the comodín",
        "swap_relocate_2": "You put {card} in meld {meld}; the comodín moves to an end",
        "discard_2": "You discard {card}",
        "buy_2": "You buy {card} from the pozo",
        "buy_penalty_2": "You buy {card} from the pozo (+ penalty card: {penalty})",
        "went_out_2": "You went out!",
        "draw_pozo": "{name} takes {card} from the pozo",
        "bajar": "{name} goes down: {melds}",
        "agregar": "{name} lays {card} off on meld {meld}",
        "swap": "{name} puts {card} in meld {meld} and takes the comodín",
        "swap_relocate": "{name} puts {card} in meld {meld}; the comodín moves to an end",
        "discard": "{name} discards {card}",
        "buy": "{name} buys {card} from the pozo",
        "buy_penalty": "{name} buys {card} from the pozo (+ penalty card: {penalty})",
        "went_out": "{name} went out.",
        "nobody_out": "Nobody went out: the round ran out of cards or of time.",
        "round_over": "End of round {n}",
        "game_over": "Game over",
        "continue": "Enter to go on (quit to stop) > ",
        "buy_q": "Buy {card} from the pozo? Your hand: {hand} (y/n) > ",
        "buy_help": "Answer y (yes, buy it) or n (no); hint gives a hint, quit stops.",
        "no": "n no",
        "save_exists": "{path} already exists: choose another name (or remove it first)",
        "saved_elsewhere": "Could not save to {path} ({msg}); the game was saved to {other}",
        "resume_bad": "cannot go on with the game in {file}: {msg}",
        "resume_over": "the game in {file} is over: there is nothing to go on with",
        "resumed": "Going on with the game in {file}: round {n}.",
        "resume_options": "--resume goes on with the saved game's rules, players and seed: "
                          "leave out --preset, --players, --set, --seed and --name",
        "saved": "Game saved to {path}",
        "save_failed": "Could not save the game to {path}: {msg}",
        "undone": "Undone: {action}",
        "hint": "Hint: {action} — {reason}",
        "hint_pass": "Hint: {reason}",
        "sorted": "Hand sorted {how}.",
        "bye": "Game interrupted.",
        "table_bots": "At the table with you:",
        "err_bot": "{msg}",
        "err_no_bots": "--bots needs one bot at least: {names}",
        "err_bots_seats": "--bots names {n} bots, but the table has room for {seats} besides "
                          "you: leave out --players, or make it larger",
        "err_budget": "{msg}",
        "bots_tag_bad": "its 'bots' is not a list of the bots of the seats after yours",
        "yes": "y yes s si sí",
        "help": (
            "Type the number of an option from the list, or the move (cards like 7H 10S QD "
            "JK; H hearts, D diamonds, S spades, C clubs):\n"
            "  draw mazo | draw pozo        draw (or just: mazo, pozo)\n"
            "  bajar 7H 7S 7D / QS QH JK    bajarse: melds split by /, escalas low to high\n"
            "                               (a comodín in the place it stands for)\n"
            "  agregar 7C 0 [low|high]      lay 7C off on meld 0 of the table\n"
            "  swap QD 1 [low|high]         put QD in place of the comodín of meld 1\n"
            "  discard 9C                   discard 9C (or just: 9C)\n"
            "  buy                          buy the pozo card (or y, when asked Buy?)\n"
            "  sort                         sort the hand by rank or by suit\n"
            "  undo                         take back the last move of this turn, where the\n"
            "                               rules allow it\n"
            "  rules                        the rules of this game\n"
            "  hint                         a suggested move and why (with --hints, before\n"
            "                               each of your moves)\n"
            "  quit                         save the game and stop"
        ),
        "err_set": "--set takes option=value, not {text!r}",
        "err_sort": "--sort is rank or suit, not {value!r}",
        "err_read": "cannot read {file}: {msg}",
        "err_no_file": "give the record's file (or - to read it from standard input)",
        "err_internal": "internal error (please report it): {msg}",
        "err_at": "Error in round {round}, action {action}: {msg}",
        "err_at_round": "Error in round {round}: {msg}",
        "err_doc": "Error: {msg}",
        "rules_hint": "To read the rules of one: carioca rules chile.",
    },
}

_BOT_NAMES = ("Beto", "Caro", "Diego", "Eli", "Fran", "Gabi", "Hugo", "Isa")

# "robar" / "roba" were the words for drawing once: they still work, though "saca" is shown.
_ALIASES = {
    "sacar": "draw", "saca": "draw", "robar": "draw", "roba": "draw", "bajarse": "bajar",
    "baja": "bajar", "agrega": "agregar", "botar": "discard", "bota": "discard",
    "descartar": "discard", "cambiar": "swap", "cambia": "swap", "comprar": "buy",
    "compra": "buy",
}
_TYPED_ES = {"draw": "saca", "bajar": "baja", "agregar": "agrega", "discard": "bota",
             "swap": "cambia", "buy": "compra"}


def _typed(action: Action, lang: str) -> str:
    """The move as the player would type it: in a Spanish game with the Spanish verb
    ("bota 7S"), which :meth:`parse` reads back."""
    text = str(action)
    verb, _, rest = text.partition(" ")
    if lang != "es" or verb not in _TYPED_ES:
        return text
    return f"{_TYPED_ES[verb]} {rest}".strip()


_COMMANDS = {
    "help": "help", "ayuda": "help", "?": "help", "sort": "sort", "ordenar": "sort",
    "undo": "undo", "deshacer": "undo", "quit": "quit", "salir": "quit", "exit": "quit",
    "q": "quit", "rules": "rules", "reglas": "rules", "hint": "hint", "pista": "hint",
}


_UNPARSABLE_ES = (
    (re.compile(r"^('.*') is not an action; try (.*)$"),
     lambda m: f"{m[1]} no es una jugada; prueba "
               + re.sub(r"'(\w+)", lambda w: "'" + _TYPED_ES.get(w[1], w[1]), m[2])
               .replace(" or ", " o ")),
    (re.compile(r"^('.*') is not a card \(write rank then suit, like 10H or JK\)$"),
     lambda m: f"{m[1]} no es una carta (escribe el número y la pinta, como 10H o JK)"),
)


def _unparsable(message: str, lang: str) -> str:
    """Why a typed move is not understood, in Spanish with the Spanish verbs."""
    # Typed in one's own turn, where nothing is bought: a buy is the answer to "Buy?".
    message = message.replace(", 'discard 9C' or 'buy'", " or 'discard 9C'")
    if lang != "es":
        return message
    found = translated(_UNPARSABLE_ES, message)
    return found if found != message else record_reason_es(message)


_OS_ES = {errno.ENOENT: "no existe", errno.EISDIR: "es una carpeta",
          errno.ENOTDIR: "una parte del camino no es una carpeta",
          errno.EACCES: "no hay permiso", errno.EPERM: "no hay permiso",
          errno.ENAMETOOLONG: "el nombre es demasiado largo", errno.ENOSPC: "no queda espacio",
          errno.EROFS: "es solo de lectura", errno.EBADF: "la entrada está cerrada"}


def _os_reason(exc: OSError, lang: str) -> str:
    """Why a file could not be read or written, in the reader's language."""
    if lang == "es" and exc.errno in _OS_ES:
        return _OS_ES[exc.errno]
    return exc.strerror or str(exc)


def _lang(lang: str) -> str:
    key = lang.strip().lower()
    if key not in _UI:  # the terminal speaks es and en; only the rules are written in more
        raise ValueError(f"unknown language {lang!r}: use 'es' (español) or 'en' (English)")
    return key


def _t(lang: str, key: str, **values: Any) -> str:
    return _UI[lang][key].format(**values)


# --------------------------------------------------------------------------- small renderers

def card_text(card: Card) -> Text:
    """A card in record notation, coloured: hearts and diamonds red, the joker magenta."""
    if card.is_joker:
        return Text(str(card), style="bold magenta")
    return Text(str(card), style="bold red" if card.is_red else "bold")


def cards_text(cards: Sequence[Card], sep: str = " ") -> Text:
    return Text(sep).join(card_text(c) for c in cards)


def meld_text(meld: Meld) -> Text:
    """A meld as :meth:`Meld.describe` writes it (``escala 5H 6H(JK) 7H 8H``: a wild card shows
    what it stands for), coloured."""
    out = Text(("trío" if meld.kind == "trio" else meld.kind) + " ", style="italic")
    for i, card in enumerate(meld.cards):
        if i:
            out.append(" ")
        if meld.wild[i]:
            out.append(meld.stands_for(i), style="cyan")
            out.append("(")
            out.append_text(card_text(card))
            out.append(")")
        else:
            out.append_text(card_text(card))
    return out


_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def printable(text: str) -> str:
    r"""Text from a record or a person, as it may reach a terminal: a control character is
    shown as its code, so a shared record's player name cannot clear the screen, retitle the
    window or reorder the line (escape sequences, bidi overrides). Emoji and accents stay.

    >>> print(printable("Ana\x1b[2J"), printable("Ñandú 🃏"))
    Ana\x1b[2J Ñandú 🃏
    """
    return "".join(_shown(c) for c in text)


def _shown(c: str) -> str:
    # Cs: a lone surrogate (from a record's \\ud800) cannot be written to a terminal at all.
    if unicodedata.category(c) not in ("Cc", "Cs") and c not in _BIDI_CONTROLS:
        return c
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def _names(names: Sequence[str], lang: str) -> str:
    names = [printable(n) for n in names]
    if len(names) <= 1:
        return "".join(names)
    joiner = " y " if lang == "es" else " and "
    return ", ".join(names[:-1]) + joiner + names[-1]


def _contract_words(game: Game, number: int, lang: str) -> str:
    rnd = game.round_def(number)
    return _t(lang, "or").join(c.words(lang) for c in rnd.contracts)


def sheet_table(game: Game, lang: str = "es", *, words: bool = True,
                view: View | None = None, compact: bool = False,
                current: bool = True) -> Table:
    """The score sheet (anotador) as a table: one row per round (contract, who went out, each
    player's score), then the totals. With a ``view``, two rows more on top: each player's
    cards in hand and whether they are down. ``compact``: fewer lines, for the game screen;
    ``current=False`` leaves out the round being played (and ``compact`` does too)."""
    sheet = game.score_sheet()
    title = _t(lang, "sheet_marks" if game.rules.scoring == "rounds" else "sheet")
    if compact:
        table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                      show_edge=False, title_style="bold")
    else:
        table = Table(title=title, title_justify="left", title_style="bold")
    table.add_column(_t(lang, "col_round"), justify="right")
    table.add_column(_t(lang, "col_contract"))
    table.add_column(_t(lang, "col_out"))
    for seat, name in enumerate(sheet.players):
        style = "bold" if view is not None and seat == view.seat else None
        table.add_column(Text(printable(name)), justify="right",  # a name, not markup
                         header_style=style)
    if view is not None:
        table.add_row("", _t(lang, "row_cards"), "", *[str(k) for k in view.hand_counts])
        table.add_row("", _t(lang, "row_down"), "", *["✓" if d else "·" for d in view.down],
                      end_section=not compact)
    for number, row in enumerate(sheet.rounds, 1):
        contract = _contract_words(game, number, lang) if words else str(game.round_def(number))
        if row is None:
            if compact or not current:
                continue
            table.add_row(str(number), contract, _t(lang, "in_play"), *["—"] * game.n,
                          style="dim")
            continue
        out = Text(printable(sheet.players[row.went_out])) if row.went_out is not None \
            else _t(lang, "nobody")
        table.add_row(str(number), contract, out, *[str(s) for s in row.scores])
    if not compact:
        table.add_section()
    table.add_row("", _t(lang, "total"), "", *[str(s) for s in sheet.totals], style="bold")
    return table


def _result_line(game: Game, lang: str, you: int | None = None) -> str:
    """Who won, or how far the game went; ``you``: the seat of the person reading it."""
    sheet = game.score_sheet()
    if sheet.finished and you is not None and you in sheet.winners:
        others = [sheet.players[s] for s in sheet.winners if s != you]
        if not others:
            return _t(lang, "you_win")
        return _t(lang, "you_share", names=_names(others, lang))
    if sheet.finished:
        names = [sheet.players[s] for s in sheet.winners]
        return _t(lang, "winner" if len(names) == 1 else "winners", names=_names(names, lang))
    played = sum(1 for r in sheet.rounds if r is not None)
    return _t(lang, "not_over_1" if played == 1 else "not_over", played=played,
              total=game.rounds_planned)


# --------------------------------------------------------------------------- options

def parse_set_options(items: Sequence[str] | None) -> dict[str, Any]:
    """``["buying=penalty_card", "rounds=[1,3]", "max_wilds_per_meld=null"]`` as options: each
    value is read as JSON when it can be, else kept as text.

    >>> parse_set_options(["rounds=[1, 3]", "buying=penalty_card", "wrap=true"])
    {'rounds': [1, 3], 'buying': 'penalty_card', 'wrap': True}
    """
    return parse_option_texts(items)


# --------------------------------------------------------------------------- the game loop

class _Quit(Exception):
    """The person asked to stop."""


class _Session:
    """One game in the terminal: seat 0 is the person, every other seat a bot."""

    def __init__(self, console: Console, read_line: Callable[[str], str], game: Game,
                 bots: Mapping[int, Bot], lang: str, sort: str, hints: bool = False) -> None:
        self.console = console
        self.read_line = read_line
        self.game = game
        self.bots = bots
        self.lang = lang
        self.sort = sort
        self.hints = hints

    # ------------------------------------------------------------- output helpers

    def t(self, key: str, **values: Any) -> str:
        return _t(self.lang, key, **values)

    def say(self, text: str | Text, style: str | None = None) -> None:
        # markup off: what people type (names, answers) is shown as typed, never styled;
        # and no control character of a record's name (in a hint, a refusal) reaches the
        # terminal, whichever message carries it
        if isinstance(text, str):
            text = "\n".join(printable(line) for line in text.split("\n"))
        self.console.print(text, style=style, highlight=False, markup=False)

    def ask(self, prompt: str) -> str:
        return self.read_line(prompt).strip()

    def name(self, seat: int) -> str:
        """A player's name as the terminal may show it (a resumed record's names are
        anybody's)."""
        return printable(self.game.players[seat])

    def sorted_hand(self, cards: Sequence[Card]) -> list[Card]:
        return sort_by_suit(cards) if self.sort == "suit" else sort_by_rank(cards)

    # ------------------------------------------------------------- the loop

    def run(self) -> None:
        game = self.game
        self.announce_round()
        while not game.is_over:
            seat = game.seat_to_act
            if seat is None:
                raise RuntimeError("the game is not over, but no seat is to act")
            action = self.human_move() if seat == 0 else self.bot_move(seat)
            if action is None:
                continue
            if isinstance(action, Draw) and action.source == "mazo":
                self.offer_buys(seat)
                if not game.can_apply(action):
                    continue
            self.apply(action)

    def apply(self, action: Action) -> None:
        game = self.game
        view = game.view(action.seat)
        top = view.pozo_top
        before_hand = list(game.hand(action.seat))
        rounds_before = len(game.results)
        game.apply(action)
        self.report(action, top, before_hand, rounds_before)
        if len(game.results) > rounds_before:
            self.round_over()

    def report(self, action: Action, top: Card | None, before: list[Card],
               rounds_before: int) -> None:
        """One line for a move: in the third person for a bot, the second for the person, who
        also learns the card drawn from the mazo (or given as the penalty for buying)."""
        game = self.game
        mine = action.seat == 0
        values: dict[str, Any] = {"name": self.name(action.seat), "card": top}
        new: list[Card] = []
        if mine and len(game.results) == rounds_before:
            new = list(game.hand(0))
            for c in before:
                if c in new:
                    new.remove(c)
        key = action.kind
        if isinstance(action, Draw):
            key = "draw_pozo" if action.source == "pozo" else "draw_mazo"
            if key == "draw_mazo" and new:
                values["card"] = new[0]
        elif isinstance(action, Bajar):
            values["melds"] = Text(" / ").join(cards_text(m) for m in action.melds)
        elif isinstance(action, (Agregar, Swap)):
            values["card"], values["meld"] = action.card, action.meld
            # The wild moved to an end when the hand did not take it (a full escala, a trío
            # or a sucia give it to the hand even under relocate); a swap that took the last
            # card out of the hand moved it.
            if isinstance(action, Swap) and (
                    len(game.results) > rounds_before
                    or game.view(0).hand_counts[action.seat] < len(before)):
                key = "swap_relocate"
        elif isinstance(action, Discard):
            values["card"] = action.card
        elif isinstance(action, Buy):
            if top in new:
                new.remove(top)
            if new:
                key, values["penalty"] = "buy_penalty", new[0]
        if mine:
            key += "_2"
        line = Text("• ", style="dim")
        line.append_text(self._fill(key, **values))
        self.say(line)

    def _fill(self, key: str, **values: Any) -> Text:
        """A UI string with cards (and melds) coloured in it."""
        template = _UI[self.lang][key]
        out = Text()
        pos = 0
        while pos < len(template):
            start = template.find("{", pos)
            if start < 0:
                out.append(template[pos:])
                break
            end = template.index("}", start)
            out.append(template[pos:start])
            value = values[template[start + 1:end]]
            if isinstance(value, Card):
                out.append_text(card_text(value))
            elif isinstance(value, Text):
                out.append_text(value)
            elif value is None:
                out.append("?")
            else:
                out.append(str(value))
            pos = end + 1
        return out

    # ------------------------------------------------------------- rounds

    def announce_round(self) -> None:
        game = self.game
        view = game.view(0)
        head = Text(self.t("round", n=view.round, total=view.rounds), style="bold")
        head.append(" · " + self.t("contract", words=_contract_words(game, view.round,
                                                                    self.lang)))
        self.console.rule(head)
        first = (view.dealer + 1) % game.n  # not who acts now: a resumed round is under way
        # The person (seat 0) is spoken to: "repartes tú", not "reparte Tú".
        key = "dealer_you" if view.dealer == 0 else "first_you" if first == 0 else "dealer"
        self.say(self.t(key, dealer=self.name(view.dealer), first=self.name(first)),
                 style="dim")
        if view.go_out_at_once:
            self.say(self.t("at_once"), style="yellow")

    def round_over(self) -> None:
        game = self.game
        result = game.results[-1]
        self.console.rule(Text(self.t("round_over", n=result.round), style="bold"))
        if result.went_out is not None:
            key = "went_out_2" if result.went_out == 0 else "went_out"
            self.say(self.t(key, name=self.name(result.went_out)), style="bold green")
        else:
            self.say(self.t("nobody_out"), style="yellow")
        self.console.print(sheet_table(game, self.lang, words=False, current=False))
        if game.is_over:
            self.console.rule(Text(self.t("game_over"), style="bold"))
            self.say(_result_line(game, self.lang, you=0), style="bold green")
            return
        answer = self.ask(self.t("continue"))
        if _COMMANDS.get(answer.lower()) == "quit":
            raise _Quit
        self.announce_round()

    # ------------------------------------------------------------- bots

    def bot_move(self, seat: int) -> Action:
        legal = self.game.legal_actions(seat)
        if not len(legal):
            raise RuntimeError(f"seat {seat} is to act but has no legal action")
        return self.bots[seat].choose(self.game.view(seat), legal)

    def offer_buys(self, drawer: int) -> None:
        """Before ``drawer`` takes from the mazo, the others may buy the pozo top, nearest in
        turn order first; the first to buy closes the window."""
        game = self.game
        for k in range(1, game.n):
            seat = (drawer + k) % game.n
            legal = game.legal_actions(seat)
            buy = next((a for a in legal if isinstance(a, Buy)), None)
            if buy is None:
                continue
            view = game.view(seat)
            if seat == 0:
                wants = self.ask_buy(view)
            else:
                bot = self.bots[seat]
                wants = isinstance(bot, Buyer) and bot.wants_to_buy(view, legal)
            if wants:
                self.apply(buy)
                return

    def ask_buy(self, view: View) -> bool:
        if self.hints:
            self.show_hint(self.game.legal_actions(0))
        top = view.pozo_top
        hand = " ".join(str(c) for c in self.sorted_hand(view.hand or ()))
        while True:
            answer = self.ask(self.t("buy_q", card=top, hand=hand)).lower()
            command = _COMMANDS.get(answer)
            if command == "quit":
                raise _Quit
            # The verb the help and the coach say ("compra", "buy") is a yes too.
            if answer in self.t("yes").split() or _ALIASES.get(answer, answer) == "buy":
                return True
            if answer in self.t("no").split():
                return False
            if command == "hint":
                self.show_hint(self.game.legal_actions(0))
            else:  # a typo must not decide the buy: ask again
                self.say(self.t("buy_help"), style="yellow")

    # ------------------------------------------------------------- the person

    def human_move(self) -> Action | None:
        """Ask until the person gives a legal action (``None``: something else happened, such
        as an undo, so look again at who is to act)."""
        game = self.game
        self.show_board(full=game.phase == "draw")
        suggest = self.hints
        while True:
            legal = game.legal_actions(0)
            options = self.numbered(legal)
            if not options:
                raise RuntimeError(self.t("nothing_legal"))
            self.show_options(options)
            if suggest:
                self.show_hint(legal)
                suggest = False
            text = self.ask(self.t("prompt"))
            if not text:
                continue
            word = text.lower()
            command = _COMMANDS.get(word)
            if command == "quit":
                raise _Quit
            if command == "help":
                self.say(self.t("help"))
                continue
            if command == "hint":
                self.show_hint(legal)
                continue
            if command == "rules":
                self.console.print(Markdown(describe_rules(game.rules, self.lang)))
                continue
            if command == "sort" or word in ("sort rank", "sort suit", "ordenar número",
                                             "ordenar pinta"):
                self.toggle_sort(word)
                self.show_board()
                continue
            if command == "undo":
                try:
                    undone = game.undo(0)
                except IllegalAction as exc:
                    self.say(self.t("illegal", msg=explain(exc, self.lang)), style="red")
                    continue
                self.say(self.t("undone", action=_typed(undone, self.lang)), style="yellow")
                return None
            if word.isdigit():
                # "²" and "⑤" are digits to str.isdigit, not to int(); nor are 5,000 of them
                n = int(word) if word.isascii() and len(word) <= 6 else 0
                if not 1 <= n <= len(options):
                    shown = word if len(word) <= 24 else quoted(word)[1:-1]
                    self.say(self.t("no_option", n=shown, last=len(options)), style="red")
                    continue
                return options[n - 1]
            try:
                action = self.parse(text)
            except ActionError as exc:
                self.say(self.t("unparsable", msg=_unparsable(str(exc), self.lang)), style="red")
                continue
            try:
                game.verify(action)
            except IllegalAction as exc:
                self.say(self.t("illegal", msg=explain(exc, self.lang)), style="red")
                continue
            return action

    def show_hint(self, legal: Sequence[Action]) -> None:
        """The coach's suggestion (:func:`carioca.coach.hint`) from the person's own view."""
        from .coach import hint

        tip = hint(self.game.view(0), self.game.rules, self.lang, legal=legal)
        if tip.code == "no_buy":
            self.say(self.t("hint_pass", reason=tip.reason), style="magenta")
            return
        self.say(self.t("hint", action=_typed(tip.action, self.lang), reason=tip.reason),
                 style="magenta")

    def parse(self, text: str) -> Action:
        words = text.split()
        if len(words) == 1:
            only = words[0].lower()
            if only in ("mazo", "pozo"):
                return Action.parse(f"draw {only}", 0)
            if only != "buy" and only not in _ALIASES:
                try:
                    card = Card.parse(only)
                except CardError:
                    pass
                else:
                    return Discard(0, card)
        first = words[0].lower()
        words[0] = _ALIASES.get(first, first)
        try:
            return Action.parse(" ".join(words), 0)
        except ActionError as exc:
            # Quote what the player typed ("saca"), not the word it stood for ("draw").
            said = str(exc).replace(quoted(" ".join(words)), quoted(" ".join(text.split())), 1)
            raise ActionError(said) from None

    def toggle_sort(self, word: str) -> None:
        if word.endswith(("rank", "número")):
            self.sort = "rank"
        elif word.endswith(("suit", "pinta")):
            self.sort = "suit"
        else:
            self.sort = "suit" if self.sort == "rank" else "rank"
        how = self.t("by_suit" if self.sort == "suit" else "by_rank")
        self.say(self.t("sorted", how=how), style="dim")

    def numbered(self, legal: Sequence[Action]) -> list[Action]:
        """The legal actions in the order they are numbered: draws, bajar, agregar, swap, then
        the discards in the order of the hand."""
        order = {"draw": 0, "bajar": 1, "agregar": 2, "swap": 3, "discard": 4, "buy": 5}
        hand_order = {c: i for i, c in enumerate(self.sorted_hand(self.game.hand(0)))}

        def key(a: Action) -> tuple[int, int]:
            place = hand_order.get(a.card, 0) if isinstance(a, Discard) else 0
            return order.get(a.kind, 9), place

        return sorted(legal, key=key)

    def show_options(self, options: Sequence[Action]) -> None:
        view = self.game.view(0)
        self.say(Text(self.t("can"), style="bold"))
        groups: dict[str, list[tuple[int, Action]]] = {}
        for i, a in enumerate(options, 1):
            groups.setdefault(a.kind, []).append((i, a))
        width = max(len(self.t("g_" + k)) for k in groups) + 1
        for kind, items in groups.items():
            label = (self.t("g_" + kind) + ":").ljust(width + 1)
            if kind == "bajar":
                for j, (i, a) in enumerate(items):
                    line = Text("  " + (label if j == 0 else " " * len(label)))
                    line.append(f"{i}) ", style="cyan")
                    line.append(_typed(a, self.lang))
                    self.say(line)
                continue
            line = Text("  " + label)
            for j, (i, a) in enumerate(items):
                if j:
                    line.append(" | " if kind == "draw" else "  ")
                line.append(f"{i}) ", style="cyan")
                if isinstance(a, Discard):
                    line.append_text(card_text(a.card))
                elif isinstance(a, Draw) and a.source == "pozo" and view.pozo_top is not None:
                    line.append(_typed(a, self.lang) + " (")
                    line.append_text(card_text(view.pozo_top))
                    line.append(")")
                else:
                    line.append(_typed(a, self.lang))
            self.say(line)

    def show_board(self, full: bool = True) -> None:
        """The screen: round and contract, whose turn, the score sheet (when ``full``), the
        table's melds, the pozo and the mazo, and the hand."""
        game = self.game
        view = game.view(0)
        self.say("")
        head = Text(self.t("round", n=view.round, total=view.rounds), style="bold")
        head.append(" · " + self.t("contract", words=_contract_words(game, view.round,
                                                                    self.lang)))
        if view.go_out_at_once:
            head.append(" · " + self.t("at_once_short"), style="yellow")
        self.say(head)
        if view.to_act == 0:
            key = "your_turn_draw" if view.phase == "draw" else "your_turn_play"
            if key == "your_turn_play" and view.down[0]:
                key = "your_turn_down"
            self.say(self.t(key), style="bold green")
        elif view.to_act is not None:
            self.say(self.t("turn_of", name=self.name(view.to_act)))
        if full:
            self.console.print(sheet_table(game, self.lang, words=False, view=view,
                                           compact=True))
        self.say(Text(self.t("table") + ":", style="bold"))
        if not view.melds:
            self.say("  " + self.t("no_melds"), style="dim")
        for i, meld in enumerate(view.melds):
            line = Text(f"  {i:>2}  ", style="cyan")
            owner = self.name(meld.owner) if 0 <= meld.owner < game.n else ""
            line.append(f"{owner:<8} ", style="dim")
            line.append_text(meld_text(meld))
            self.say(line)
        if view.open_hands is not None:
            for seat, cards in enumerate(view.open_hands):
                if seat != 0:
                    line = Text(f"  {self.t('hand_of', name=self.name(seat))}: ", style="dim")
                    line.append_text(cards_text(self.sorted_hand(cards)))
                    self.say(line)
        line = Text(self.t("pozo") + ": ", style="bold")
        if view.pozo_top is not None:
            line.append_text(card_text(view.pozo_top))
        else:
            line.append(self.t("pozo_empty"))
        line.append("    " + self.t("mazo") + ": ", style="bold")
        line.append(f"{view.mazo_count} {self.t('card' if view.mazo_count == 1 else 'cards')}")
        if not view.mazo_count and view.reshuffles_left != 0:  # rebuilt when drawn from (21)
            line.append(self.t("mazo_from_pozo"))
        self.say(line)
        how = self.t("by_suit" if self.sort == "suit" else "by_rank")
        line = Text(f"{self.t('hand')} ({how}, {len(view.hand or ())}): ", style="bold")
        line.append_text(cards_text(self.sorted_hand(view.hand or ()), sep="  "))
        self.say(line)


def _default_save_path(seed: int, folder: Path | None = None) -> Path:
    base = f"carioca-{datetime.date.today().isoformat()}-{seed}"
    folder = Path.cwd() if folder is None else folder
    path = folder / f"{base}.json"
    k = 2
    while path.exists():
        path = folder / f"{base}-{k}.json"
        k += 1
    return path


class SaveFailed(OSError):
    """The record of a game could not be written anywhere (the message said so)."""


def _fallback_places(seed: int) -> Iterator[Path]:
    """Where a game goes when the file it was meant for cannot take it: the games folder,
    then the temporary folder (each worked out only when needed: a machine may have no home)."""
    try:
        home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        yield _default_save_path(seed, Path(home) / "carioca" / "games")
    except RuntimeError:
        pass
    yield _default_save_path(seed, Path(tempfile.gettempdir()))


def _write_whole(place: Path, data: bytes) -> None:
    """Write ``data`` to a new file beside ``place``, then put it in its place: a failure
    halfway (a full disk) leaves the file that was there, such as the game being resumed."""
    place.parent.mkdir(parents=True, exist_ok=True)
    # mkstemp makes the file private (0600): give it the mode the file had, or a record's.
    mode = place.stat().st_mode & 0o777 if place.exists() else 0o644
    handle, temp = tempfile.mkstemp(dir=place.parent, prefix=f".{place.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temp, mode)
        os.replace(temp, place)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def _save_game(console: Console, game: Game, path: Path, seed: int, lang: str,
               tags: Mapping[str, Any] | None = None) -> Path:
    """Write the record to ``path``; if that fails, to the games folder (then the temporary
    folder), and say where. Raises :class:`SaveFailed` when no place takes it."""
    # backslashreplace: a lone surrogate in a name is written as its JSON escape, which
    # reads back as the same name.
    data = record_mod.dumps(game, tags).encode("utf-8", errors="backslashreplace")
    first_error: str | None = None
    for place in itertools.chain([path], _fallback_places(seed)):
        try:
            _write_whole(place, data)
        except OSError as exc:
            first_error = first_error or exc.strerror or str(exc)
            continue
        if place == path:
            console.print(_t(lang, "saved", path=place), style="bold", highlight=False,
                          markup=False)
        else:
            console.print(_t(lang, "saved_elsewhere", path=path, msg=first_error, other=place),
                          style="bold yellow", highlight=False, markup=False)
        return place
    console.print(_t(lang, "save_failed", path=printable(str(path)), msg=first_error),
                  style="red", highlight=False, markup=False)
    raise SaveFailed(first_error)


def _seated(opponents: Sequence[str], players: int) -> list[str]:
    """The bot of each seat after the person's: the names given, repeated to fill the table."""
    return [opponents[i % len(opponents)].strip().lower() for i in range(players - 1)]


def _seat_names(me: str, kinds: Sequence[str]) -> list[str]:
    """Who sits where: the person, then a personality bot under its own name ("Tía Chela", a
    second one "Tía Chela 2") and any other bot under the next of the usual names."""
    usual = iter([*(n for n in _BOT_NAMES if n != me), *(f"Bot {i}" for i in range(9))])
    names = [me]
    for kind in kinds:
        spec = BOTS.get(kind)
        name = spec.title if spec is not None and not spec.titles else next(usual)
        base, k = name, 2
        while name in names:
            name, k = f"{base} {k}", k + 1
        names.append(name)
    return names


def _introduce(console: Console, game: Game, kinds: Sequence[str], lang: str) -> None:
    """Who the bots at the table are, one line each: the name, and what kind of player."""
    console.print(_t(lang, "table_bots"), style="bold", highlight=False, markup=False)
    for seat, kind in enumerate(kinds, start=1):
        spec = BOTS.get(kind)
        name = printable(game.players[seat])
        if spec is None:
            line = f"{name} — {kind}"
        elif name == spec.title_in(lang):
            line = spec.introduce(lang)
        else:
            line = f"{name} — {spec.introduce(lang)}"
        console.print(f"  {line}", highlight=False, markup=False)


def _checked_bots(names: Sequence[str], lang: str = "en") -> list[str]:
    """The bot names given (a ``--bots`` list split, or a record's ``bots`` tag), or
    :class:`ValueError` with a reason in ``lang`` that names the one that is wrong."""
    names = [name.strip() for name in names if name.strip()]
    if not names:
        raise ValueError(_t(lang, "err_no_bots", names=", ".join(BOTS)))
    for name in names:
        try:
            make_bot(name)
        except ValueError as exc:
            key = "err_budget" if name.lower().startswith("search@") else "err_bot"
            raise ValueError(_t(lang, key, name=quoted(name), msg=str(exc),
                                names=", ".join(BOTS))) from None
    return names


def _bot_seed(seed: int, seat: int) -> int:
    return random.Random(f"carioca:bot:{seed}:{seat}").getrandbits(32)


def play_game(console: Console, read_line: Callable[[str], str], preset: str = "chile",
              players: int = 4, seed: int | None = None, *, name: str | None = None,
              lang: str = "es", sort: str = "rank", options: Mapping[str, Any] | None = None,
              save: str | Path | None = None,
              bots: Sequence[Bot] | None = None, hints: bool = False,
              resume: Game | None = None, opponents: Sequence[str] | None = None,
              notes: Mapping[str, Any] | None = None) -> Game:
    """Play one game in ``console``: seat 0 answers through ``read_line(prompt)``, every other
    seat is a bot (``RandomBot`` by default, seeded from ``seed``). ``opponents`` names them
    instead (:data:`carioca.bots.BOTS` or ``search@N``), one per seat after the person's, the
    list repeated to fill the table: a personality sits under its own name ("Tía Chela"), and
    the table is told who is who. ``read_line`` may raise
    ``EOFError`` or ``KeyboardInterrupt`` to stop, as may the answer ``quit``. With ``hints`` the
    coach suggests a move (and says why) before each of the person's moves; the answer ``hint``
    asks for one at any time. At the end, or when
    stopped, the record is saved to ``save`` (default ``carioca-<date>-<seed>.json`` here) and the
    path printed; if that place cannot take it, the games folder does (and the message says
    so). ``resume`` is a game to go on with (from a record: the person takes seat 0), instead of
    a new one, and ``notes`` the tags of its record, written back with it. Raises
    :class:`RulesError` for rules or options that cannot be played,
    ``ValueError`` for a bad ``lang`` or ``sort``, and ``OSError`` when the record could not be
    saved anywhere (after saying so). Returns the game as it stands."""
    lang = _lang(lang)
    if sort not in ("rank", "suit"):
        raise ValueError(_t(lang, "err_sort", value=sort))
    if bots is not None and opponents:
        raise ValueError("give the bots (bots) or their names (opponents), not both")
    if seed is None:
        seed = random.SystemRandom().getrandbits(32)
    if resume is not None:
        game, players = resume, resume.n
    else:
        rules = RuleSet.preset(preset, **dict(options or {}))
        rules.check_players(players)
    kinds = _seated(opponents or ["random"], players)
    if resume is None:
        names = _seat_names(name or _t(lang, "you"), kinds)
        game = Game.new(rules, names, seed=seed)
    seat_bots: dict[int, Bot] = {}
    for seat in range(1, players):
        if bots is not None:
            seat_bots[seat] = bots[seat - 1]
        elif opponents:
            seat_bots[seat] = make_bot(kinds[seat - 1], _bot_seed(seed, seat), game.rules)
        else:
            seat_bots[seat] = RandomBot(_bot_seed(seed, seat))
    if opponents and bots is None:
        _introduce(console, game, kinds, lang)
    session = _Session(console, read_line, game, seat_bots, lang, sort, hints)
    path = Path(save) if save is not None else _default_save_path(seed)
    # Who the bots were goes with the record, so that --resume seats them again.
    tags = dict(notes or {})  # the record's notes stay, each in its place
    if opponents and bots is None:
        tags["bots"] = [None, *kinds]
    try:
        session.run()
    except (_Quit, EOFError, KeyboardInterrupt):
        console.print()
        console.print(_t(lang, "bye"), style="yellow", highlight=False)
    except BaseException:
        # Keep what was played, but let the failure that stopped the game be the one told.
        with contextlib.suppress(SaveFailed):
            _save_game(console, game, path, seed, lang, tags)
        raise
    _save_game(console, game, path, seed, lang, tags)
    return game


def _check_save_path(path: Path, lang: str, *, may_exist: bool = False) -> None:
    """Refuse, before the game, a --save path the record could not be written to, or one that
    holds another file (a finished game is not overwritten by a new one)."""
    try:
        is_dir, exists = path.is_dir(), path.exists()
    except OSError as exc:  # a name too long for the system, say
        raise _fail(_t(lang, "save_bad", path=path, msg=_os_reason(exc, lang))) from None
    if is_dir:
        raise _fail(_t(lang, "save_is_dir", path=path))
    if exists and not may_exist:
        raise _fail(_t(lang, "save_exists", path=path))
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise _fail(_t(lang, "save_no_folder", path=path))


# --------------------------------------------------------------------------- commands

app = typer.Typer(
    name="carioca",
    help="Carioca, the Chilean contract rummy: the rules of every variant, game records, and a "
         "game in the terminal.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

LangOption = Annotated[str, typer.Option("--lang", help="es (español, the default) or en.")]
SetOption = Annotated[
    list[str] | None,
    typer.Option("--set", help="Change a rule: option=value (the value is read as JSON when it "
                               "can be: --set rounds=[1,3] --set buying=penalty_card)."),
]


def _fail(message: str) -> typer.Exit:
    Console(stderr=True).print(f"carioca: {message}", style="red", highlight=False,
                               markup=False, soft_wrap=True)
    return typer.Exit(EXIT_ERROR)


def _rules_fail(exc: Exception, lang: str) -> typer.Exit:
    """Why the rules cannot be played, in Spanish for a Spanish terminal (the engine's words
    are English)."""
    return _fail(rules_reason_es(str(exc)) if lang == "es" else str(exc))


def _checked_lang(lang: str) -> str:
    try:
        return _lang(lang)
    except ValueError as exc:
        raise _fail(str(exc)) from None


RulesLangOption = Annotated[str, typer.Option(
    "--lang", help="es (español, the default), en (English), de (Deutsch) or sv (svenska).")]

# The hint after the preset list, in the languages only the rules speak.
_RULES_HINT = {
    "de": "Um die Regeln einer Vorgabe zu lesen: carioca rules chile.",
    "sv": "För att läsa reglerna för ett förval: carioca rules chile.",
}


def _checked_rules_lang(lang: str) -> str:
    """The rules are written in every language of :data:`carioca.describe.LANGS`."""
    key = lang.strip().lower()
    if key not in RULES_LANGS:
        names = ", ".join(f"'{code}'" for code in RULES_LANGS[:-1])
        raise _fail(f"unknown language {lang!r}: use {names} or '{RULES_LANGS[-1]}'")
    return key


@app.command("rules")
def rules_command(
    preset: Annotated[str | None, typer.Argument(help="A preset: chile, chile-10, ...")] = None,
    list_presets: Annotated[bool, typer.Option("--list", help="List the presets.")] = False,
    lang: RulesLangOption = "es",
    set_options: SetOption = None,
    plain: Annotated[bool, typer.Option("--plain", help="Print the markdown text as is.")] = False,
) -> None:
    """The rules of a preset, in words (with any option changed)."""
    lang = _checked_rules_lang(lang)
    out = Console(markup=False)
    if preset is not None:
        try:
            RuleSet.preset(preset)  # --list with a preset that does not exist says so
        except RulesError as exc:
            raise _rules_fail(exc, lang) from None
    if list_presets or preset is None:
        table = Table(show_header=False, box=None, pad_edge=False)
        table.add_column(style="bold")
        table.add_column()
        for name, line in describe_preset_list(lang):
            table.add_row(name, line)
        out.print(table)
        if preset is None and not list_presets:
            out.print(_RULES_HINT.get(lang) or _t(lang, "rules_hint"), style="dim",
                      highlight=False)
        return
    try:
        rules = RuleSet.preset(preset, **parse_set_options(set_options))
        text = describe_rules(rules, lang)
    except (RulesError, ValueError, TypeError) as exc:
        raise _rules_fail(exc, lang) from None
    if plain or not out.is_terminal:
        typer.echo(text, nl=False)
    else:
        out.print(Markdown(text))


def _json_line(doc: Any) -> str:
    """``doc`` as one line of JSON, in UTF-8 where it can be; a lone surrogate read from the
    record (a name such as "\\ud800") cannot be written as UTF-8, so then every non-ASCII
    character is escaped instead of failing."""
    text = json.dumps(doc, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(doc)
    return text


def _read_source(file: str) -> bytes:
    if file == "-":
        if sys.stdin is None:  # started with standard input closed (<&-)
            raise OSError(errno.EBADF, "standard input is closed")
        stream = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else None
        return stream.read() if stream is not None else sys.stdin.read().encode("utf-8")
    return Path(file).read_bytes()


def _replay(file: str, as_json: bool, lang: str) -> int:
    result: record_mod.Replay
    try:
        data = _read_source(file)
    except OSError as exc:
        result = record_mod.Replay(None, RecordError(f"cannot read {file}: {exc.strerror or exc}"))
        if not as_json:
            text = _t(lang, "err_doc", msg=_t(lang, "err_read", file=file,
                                             msg=_os_reason(exc, lang)))
            return _replay_failed(result, text)
    else:
        try:
            doc = record_mod.load(data)
        except RecordError as exc:
            result = record_mod.Replay(None, exc)
        else:
            result = record_mod.replay(doc)
    if as_json:
        typer.echo(_json_line(result.to_json()))
        return EXIT_ERROR if result.error is not None else 0
    out = Console()
    if result.game is not None and result.game.deals:
        out.print(sheet_table(result.game, lang))
        if result.error is None:
            out.print(_result_line(result.game, lang), highlight=False)
    error = result.error
    if error is None:
        return 0
    # A move the rules forbid has a code, so its reason can be said in the reader's language.
    msg = _said(error, lang)
    if error.round is not None and error.action is not None:
        text = _t(lang, "err_at", round=error.round, action=error.action, msg=msg)
    elif error.round is not None:
        # "Error in round 2: round 2: ..." says the round once
        msg = re.sub(rf"^(?:round|ronda) {error.round}: ", "", msg)
        text = _t(lang, "err_at_round", round=error.round, msg=msg)
    else:
        text = _t(lang, "err_doc", msg=msg)
    return _replay_failed(result, text)


def _replay_failed(result: record_mod.Replay, text: str) -> int:
    """Say why a replay stopped: in the reader's words on stderr, and on stdout as the
    record spec's ``{"error": ...}`` line (as ``--json`` prints it), for whatever reads
    the output. That line is ASCII, so a name in the record cannot move the terminal."""
    typer.echo(json.dumps(result.to_json()))
    Console(stderr=True).print(printable(text), style="red", highlight=False, markup=False,
                               soft_wrap=True)
    return EXIT_ERROR


@app.command("replay")
def replay_command(
    file: Annotated[str, typer.Argument(help="A carioca-record/1 JSON file ('-': stdin).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    lang: LangOption = "es",
    check_seeds: Annotated[bool, typer.Option(
        "--check-seeds", help="Check that each round's deal is the one its revealed seed "
                              "gives (the provably fair deck).")] = False,
) -> None:
    """Replay a game record and print its score sheet, or the first rule it breaks."""
    lang = _checked_lang(lang)
    if not file.strip():
        raise _fail(_t(lang, "err_no_file"))
    try:
        code = _check_seeds(file) if check_seeds else _replay(file, as_json, lang)
    except Exception as exc:  # noqa: BLE001 - no input may end in a traceback
        msg = f"{type(exc).__name__}: {exc}"
        doc = {"error": {"round": None, "action": None,
                         "message": _t("en", "err_internal", msg=msg)}}
        if as_json:
            typer.echo(_json_line(doc))
            raise typer.Exit(EXIT_ERROR) from None
        typer.echo(json.dumps(doc))  # as a replay that stops says it (_replay_failed)
        raise _fail(_t(lang, "err_internal", msg=msg)) from None
    if code:
        raise typer.Exit(code)


def _check_seeds(file: str) -> int:
    from .record import check_seeds, load

    try:
        doc = load(_read_source(file))
    except OSError as exc:
        error = RecordError(f"cannot read {file}: {exc.strerror or exc}")
        typer.echo(_json_line(error.to_json()))
        return EXIT_ERROR
    except RecordError as exc:
        typer.echo(_json_line(exc.to_json()))
        return EXIT_ERROR
    # The deals are checked even when the replay stops: a changed seed also changes the
    # reshuffles, so the moves of that round no longer replay, and the seeds say why.
    replayed = record_mod.replay(doc)
    checks = check_seeds(doc, replayed)
    found = replayed.error
    out: dict[str, Any] = {"seeds": checks, **(found.to_json() if found is not None else {})}
    if not checks and replayed.game is not None:  # exit 2 means "not shown fair": say why
        out["message"] = ("no round of this record gives both its seed and its whole deal "
                          "(hands, pozo and mazo), so no deal can be checked")
    typer.echo(_json_line(out))
    good = checks and all(c["matches"] for c in checks) and found is None
    return 0 if good else EXIT_ERROR


@app.command("play")
def play_command(
    preset: Annotated[str, typer.Option("--preset", help="The rules: chile, chile-10, ...")]
    = "chile",
    players: Annotated[int | None, typer.Option(
        "--players", help="Players at the table, you included (default: 4, or you and one "
                          "seat for each bot that --bots names).")] = None,
    name: Annotated[str | None, typer.Option("--name", help="Your name.")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the deals and bots.")]
    = None,
    lang: LangOption = "es",
    sort: Annotated[str, typer.Option("--sort", help="Sort your hand by rank or suit.")]
    = "rank",
    set_options: SetOption = None,
    save: Annotated[Path | None, typer.Option(
        "--save", help="Where to save the record (default: carioca-<date>-<seed>.json here).")]
    = None,
    hints: Annotated[bool, typer.Option(
        "--hints", help="The coach suggests a move, and why, before each of yours "
                        "(type 'hint' for one at any time).")] = False,
    resume: Annotated[Path | None, typer.Option(
        "--resume", help="Go on with a game saved by 'quit' (you take seat 0; it is saved "
                         "back to the same file unless --save says otherwise).")] = None,
    bots: Annotated[str | None, typer.Option(
        "--bots", help="Who plays with you, comma separated, one per seat (with --players, "
                       f"the list repeats to fill the table): {', '.join(BOTS)}, or search@N. "
                       "Default: random."
    )] = None,
) -> None:
    """Play a game in the terminal against bots (random ones unless --bots names others)."""
    lang = _checked_lang(lang)
    if sort not in ("rank", "suit"):
        raise _fail(_t(lang, "err_sort", value=sort))
    opponents = None
    if bots is not None:
        try:
            opponents = _checked_bots(bots.split(","), lang)
        except ValueError as exc:
            raise _fail(str(exc)) from None
        if players is not None and len(opponents) > players - 1 >= 1:
            raise _fail(_t(lang, "err_bots_seats", n=len(opponents), seats=players - 1))
    game = None
    notes: dict[str, Any] = {}
    if resume is not None:
        if (preset, players, set_options, seed, name) != ("chile", None, None, None, None):
            raise _fail(_t(lang, "resume_options"))
        game, kinds, notes = _resumed_game(resume, lang)
        if opponents is None:
            opponents = kinds
        elif len(opponents) > game.n - 1:
            raise _fail(_t(lang, "err_bots_seats", n=len(opponents), seats=game.n - 1))
        save = resume if save is None else save
    if save is not None:
        same = resume is not None and save.resolve() == resume.resolve()
        _check_save_path(save, lang, may_exist=same)
    console = Console(markup=False)
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401 - line editing and history for input()

    # A terminal in another encoding (Latin-1's "sí") sends bytes UTF-8 cannot read: they
    # come as stand-ins (lone surrogates), not as an error that would lose the line read
    # ahead, and the line is asked again.
    with contextlib.suppress(AttributeError, ValueError, OSError):
        sys.stdin.reconfigure(errors="surrogateescape")  # type: ignore[union-attr]

    def read_line(prompt: str) -> str:
        while True:
            try:
                line = console.input(Text(prompt, style="bold"))
            except UnicodeDecodeError:  # a stdin that could not be told to read on
                line = "\udcff"
            except RuntimeError as exc:
                if not str(exc).startswith("input(): lost sys."):
                    raise
                raise EOFError from None  # stdin (or stdout) closed: nobody can answer
            if not any("\udc80" <= c <= "\udcff" for c in line):
                return line
            console.print(_t(lang, "bad_bytes"), style="yellow", highlight=False,
                          markup=False)

    try:
        options = parse_set_options(set_options)
        if game is not None:
            console.print(_t(lang, "resumed", file=resume, n=game.round_number),
                          style="bold", highlight=False, markup=False)
        if players is None:
            players = 1 + len(opponents) if opponents else 4
        play_game(console, read_line, preset, players, seed, name=name, lang=lang, sort=sort,
                  options=options, save=save, hints=hints, resume=game, opponents=opponents,
                  notes=notes)
    except RulesError as exc:
        raise _rules_fail(exc, lang) from None
    except SaveFailed:
        raise typer.Exit(EXIT_ERROR) from None  # the record could not be saved: said above
    except Exception as exc:  # noqa: BLE001 - the record is saved; say what happened
        raise _fail(_t(lang, "err_internal", msg=f"{type(exc).__name__}: {exc}")) from None


def _said(error: RecordError, lang: str) -> str:
    """A record's error in the reader's language: a move the rules forbid by its code, a
    record that cannot be read by its words."""
    if error.code != "bad_record":
        return explain_to_reader(IllegalAction(error.code, error.message), lang)
    return record_reason_es(error.message) if lang == "es" else error.message


def _resumed_game(file: Path, lang: str) -> tuple[Game, list[str] | None, dict[str, Any]]:
    """The game of a record, where it stopped, the bots it names for the seats after the
    person's (its ``bots`` tag, None without one) and its notes (kept when it is saved
    again), or a one-line reason why not."""
    try:
        doc = record_mod.load(file.read_bytes())
    except OSError as exc:
        raise _fail(_t(lang, "resume_bad", file=file, msg=_os_reason(exc, lang))) from None
    except RecordError as exc:
        raise _fail(_t(lang, "resume_bad", file=file, msg=_said(exc, lang))) from None
    result = record_mod.replay(doc)
    game = result.game
    if result.error is not None or game is None:
        msg = _said(result.error, lang) if result.error is not None else "?"
        raise _fail(_t(lang, "resume_bad", file=file, msg=msg))
    if game.is_over:
        raise _fail(_t(lang, "resume_over", file=file))
    # A record gives the deals it played, not the seed of those to come: the rounds still to
    # play are dealt from a new seed (each one's seed goes into the record as it is dealt).
    game.seed = random.SystemRandom().getrandbits(32)
    tag = doc.get("bots") if isinstance(doc, dict) else None
    kinds = None
    if tag is not None:
        if not (isinstance(tag, list) and len(tag) == game.n and tag[0] is None
                and all(isinstance(k, str) for k in tag[1:])):
            raise _fail(_t(lang, "resume_bad", file=file, msg=_t(lang, "bots_tag_bad")))
        try:
            kinds = _checked_bots(tag[1:], lang)
        except ValueError as exc:
            raise _fail(_t(lang, "resume_bad", file=file, msg=str(exc))) from None
    if game.seat_to_act is None:  # stopped between rounds, or before the first deal
        game.start_round()
    return game, kinds, record_mod.tags(doc)


def _register_faces() -> None:
    # The other faces add their commands here, so this module needs none of their imports.
    from .anotador import register as register_anotador
    from .cli_lab import register as register_lab
    from .server.command import register as register_serve

    register_serve(app)
    register_anotador(app)
    register_lab(app)


_register_faces()


def main() -> None:
    """The ``carioca`` console script."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
