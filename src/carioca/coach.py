"""The coach: a suggestion for the player to act, with a short reason in Spanish or English.

It asks the lookahead planner (:class:`~carioca.bots.LookaheadBot`: the greedy planner that
discards to keep the most live outs) what it would play from the player's own view, and puts
the planner's reason in words:

>>> from carioca import Game, RuleSet
>>> from carioca.cards import parse_cards
>>> rules = RuleSet.preset("chile")
>>> game = Game.new(rules, ["Ana", "Beto"], seed=3)
>>> seat = game.seat_to_act
>>> tip = hint(game.view(seat), rules, lang="en")
>>> tip.action in game.legal_actions(seat)
True
>>> tip.action.kind
'draw'

Like the bots, the coach sees only what the seat sees: the legal actions are those of a world
sampled from the view (:meth:`carioca.Game.from_view`), which are the same in every world.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .bots.greedy import Decision
from .bots.lookahead import LookaheadBot
from .cards import RANKS, Card
from .engine import Game, View
from .rules import RuleSet
from .solver import Step

__all__ = ["Hint", "hint", "explain"]


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested action (one of the legal actions) and why, in one short sentence;
    ``code`` is the planner's reason code (stable, for programs). Out of turn, when a buy is
    all the seat may do, ``action`` is that :class:`~carioca.actions.Buy` and ``code`` is
    ``buy_early`` (buy it) or ``no_buy`` (let it pass)."""

    action: Action
    reason: str
    code: str

    def __str__(self) -> str:
        return f"{self.action} — {self.reason}"


def hint(view: View, rules: RuleSet, lang: str = "es", *,
         legal: Sequence[Action] | None = None) -> Hint:
    """What the seat of ``view`` should do now, and why (``lang``: ``es`` or ``en``). The
    view must be the seat's own, at a moment it may act (its turn, or a buy it may make).
    ``legal`` are its legal actions, when the caller has them."""
    if lang not in ("es", "en"):
        raise ValueError(f"the coach speaks es or en, not {lang!r}")
    if view.seat is None or view.hand is None:
        raise ValueError("the coach advises a seat from that seat's own view")
    if legal is None:
        legal = _legal(view, rules)
    if not legal:
        raise ValueError("the seat has nothing to do now")
    decision = LookaheadBot(rules=rules).decide(view, legal, explain=True)
    return Hint(decision.action, explain(decision, view, lang), decision.reason)


def _legal(view: View, rules: RuleSet) -> Sequence[Action]:
    # The acting seat's legal actions depend on its own hand and the public state only, so any
    # world sampled from its view gives the same ones (and ``action in legal`` stays exact).
    if view.to_act is None:
        return []
    game = Game.from_view(view, rules, random.Random(0))
    assert view.seat is not None
    return game.legal_actions(view.seat)


# --------------------------------------------------------------------------- words

_WORDS: dict[str, dict[str, str]] = {
    "es": {
        "draw_pozo_out": "toma el {card} del pozo: {why}",
        "draw_pozo_out_plain": "toma el {card} del pozo: te acerca al contrato",
        "draw_pozo_layoff": "toma el {card} del pozo: lo puedes agregar al juego {meld}",
        "draw_pozo_only": "toma del pozo: el mazo está vacío",
        "draw_mazo": "roba del mazo: el {card} del pozo no te sirve",
        "draw_mazo_empty": "roba del mazo",
        "go_out": "te puedes ir en este turno: {steps}",
        "bajar_other_down_1": "bájate ahora: {names} ya se bajó",
        "bajar_other_down_n": "bájate ahora: {names} ya se bajaron",
        "bajar_now": "bájate ahora: tienes el contrato, y lo que bajas ya no suma puntos",
        "bajar_part": "baja esta parte del contrato: ya la tienes completa",
        "agregar": "agrega el {card} al juego {meld}: una carta menos en la mano",
        "swap_layoff": "cambia el {card} por el comodín del juego {meld}: el comodín se "
                       "puede agregar enseguida",
        "swap_relocate": "pon el {card} en el juego {meld}: el comodín se corre a un extremo",
        "swap_contract": "cambia el {card} por el comodín del juego {meld}: el comodín te "
                         "acerca al contrato",
        "discard": "bota el {card}: es la carta que menos te sirve",
        "discard_outs": "bota el {card}: así quedan {live_outs} cartas por salir que te "
                        "sirven",
        "discard_dear": "bota el {card}: vale {points} puntos si otro se va primero, y aún "
                        "quedan {live_outs} cartas por salir que te sirven",
        "discard_all_needed": "bota el {card}: todas te sirven, esta es la que menos",
        "discard_keep": "bota el {card}; guarda el {keep}: {why}",
        "discard_feeds": "bota el {card}: es la que menos te sirve, aunque le puede servir "
                         "a {next}",
        "discard_safe": "bota el {card}: {next} ya botó o dejó pasar un {rank} en esta "
                        "ronda, así que no junta esos",
        "discard_lost": "bota el {card}: la ronda se ve difícil, bota primero las cartas que "
                        "más valen",
        "discard_down": "bota el {card}: ya te bajaste; guarda lo que puedes agregar y bota "
                        "la que más vale",
        "buy_early": "cómpralo: el {card} te acerca al contrato y la ronda recién empieza",
        "no_buy": "déjalo pasar: el {card} no te acerca al contrato, o la ronda ya va "
                  "avanzada",
        "forced": "es la única jugada posible",
        "completes": "completa tu {meld} {shape}",
        "goes_in": "va en tu {meld} {shape} (te faltan {missing})",
        "goes_in_1": "va en tu {meld} {shape} (te falta 1)",
        "and": " y ",
    },
    "en": {
        "draw_pozo_out": "take the {card} from the pozo: {why}",
        "draw_pozo_out_plain": "take the {card} from the pozo: it brings the contract closer",
        "draw_pozo_layoff": "take the {card} from the pozo: you can lay it off on meld {meld}",
        "draw_pozo_only": "take from the pozo: the mazo is empty",
        "draw_mazo": "draw from the mazo: the {card} on the pozo does not help you",
        "draw_mazo_empty": "draw from the mazo",
        "go_out": "you can go out this turn: {steps}",
        "bajar_other_down_1": "bajarse now: {names} is already down",
        "bajar_other_down_n": "bajarse now: {names} are already down",
        "bajar_now": "bajarse now: you hold the contract, and what you lay down no longer "
                     "counts against you",
        "bajar_part": "lay this part of the contract: you have it complete",
        "agregar": "lay the {card} off on meld {meld}: one card fewer in your hand",
        "swap_layoff": "swap the {card} for the comodín of meld {meld}: the comodín can be "
                       "laid off at once",
        "swap_relocate": "put the {card} in meld {meld}: the comodín moves to an end",
        "swap_contract": "swap the {card} for the comodín of meld {meld}: the comodín brings "
                         "the contract closer",
        "discard": "discard the {card}: it is the card you need least",
        "discard_outs": "discard the {card}: that leaves {live_outs} unseen cards that would "
                        "help you",
        "discard_dear": "discard the {card}: it costs {points} points if someone else goes "
                        "out first, and {live_outs} unseen cards that would help you remain",
        "discard_all_needed": "discard the {card}: you need them all, this one least",
        "discard_keep": "discard the {card}; keep the {keep}: {why}",
        "discard_feeds": "discard the {card}: you need it least, though it may help {next}",
        "discard_safe": "discard the {card}: {next} threw or passed a {rank} this round, "
                        "so they are not collecting them",
        "discard_lost": "discard the {card}: this round looks lost, so shed the dearest cards "
                        "first",
        "discard_down": "discard the {card}: you are down; keep what you can lay off and shed "
                        "the dearest of the rest",
        "buy_early": "buy it: the {card} brings the contract closer and the round has just "
                     "begun",
        "no_buy": "let it pass: the {card} does not bring the contract nearer, or the round "
                  "is too far along",
        "forced": "it is the only move",
        "completes": "it completes your {meld} {shape}",
        "goes_in": "it goes in your {meld} {shape} ({missing} to go)",
        "goes_in_1": "it goes in your {meld} {shape} (1 to go)",
        "and": " and ",
    },
}

_MELD_NAMES = {"trio": "trío", "escala": "escala", "sucia": "escala sucia",
               "real": "escala real", "colores": "escala de colores"}


def explain(decision: Decision, view: View, lang: str = "es") -> str:
    """The planner's decision in one sentence, in ``lang``."""
    words = _WORDS[lang]
    d = decision.details
    code = decision.reason
    values: dict[str, Any] = {k: _text(v) for k, v in d.items() if not isinstance(v, dict)}
    if code == "draw_pozo_out":
        target = d.get("target")
        if target is None:
            return words["draw_pozo_out_plain"].format(**values)
        return words["draw_pozo_out"].format(why=_target_words(target, lang), **values)
    if code == "draw_mazo":
        key = "draw_mazo" if d.get("card") is not None else "draw_mazo_empty"
        return words[key].format(**values)
    if code == "go_out":
        steps: Sequence[Step] = d["steps"]
        return words["go_out"].format(steps="; ".join(str(s) for s in steps))
    if code == "bajar_other_down":
        others = [view.players[s] for s in d.get("others", [])]
        names = _join(others, words["and"])
        key = "bajar_other_down_1" if len(others) == 1 else "bajar_other_down_n"
        return words[key].format(names=names)
    if code == "discard_safe":
        seat = view.seat if view.seat is not None else 0
        values["next"] = view.players[(seat + 1) % len(view.players)]
        values["rank"] = RANKS[d["card"].rank - 1]
    if code in ("discard", "discard_feeds", "discard_outs"):
        if "keep" in d and "target" in d:
            return words["discard_keep"].format(why=_target_words(d["target"], lang), **values)
        if d.get("missing", 0) > d.get("before", 0):
            return words["discard_all_needed"].format(**values)
        if code == "discard_feeds":
            seat = view.seat if view.seat is not None else 0
            values["next"] = view.players[(seat + 1) % len(view.players)]
        return words[code].format(**values)
    template = words.get(code)
    if template is None:
        return str(decision.action)
    return template.format(**values)


def _text(value: Any) -> str:
    if isinstance(value, Card):
        return str(value)
    return str(value)


def _join(names: Sequence[str], word: str) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + word + names[-1]


def _target_words(target: dict[str, Any], lang: str) -> str:
    words = _WORDS[lang]
    meld = _MELD_NAMES.get(target["kind"], target["kind"])
    missing = target.get("missing", 0)
    if not missing:
        return words["completes"].format(meld=meld, shape=target["shape"])
    key = "goes_in_1" if missing == 1 else "goes_in"
    return words[key].format(meld=meld, shape=target["shape"], missing=missing)
