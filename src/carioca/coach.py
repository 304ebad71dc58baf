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

Two things it weighs as the table shows them: under open hands (the teaching variant) the
cards in the others' hands are seen, not unseen, and what feeds the next player is read from
the hand they show; scored by rounds won (``familia``) a card's points cost nothing.

Like the bots, the coach sees only what the seat sees: the legal actions are those of a world
sampled from the view (:meth:`carioca.Game.from_view`), which are the same in every world.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action, Agregar, Discard
from .bots.greedy import Decision, _fitting_meld, _Memo, _owed
from .bots.lookahead import LookaheadBot
from .cards import RANKS, Card
from .engine import Game, View
from .melds import End
from .rules import Contract, RuleSet
from .solver import Distance, Step, Target, distance
from .spanish import a_rank_es

__all__ = ["Hint", "hint", "explain", "LANGS"]


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
    """What the seat of ``view`` should do now, and why (``lang``: one of :data:`LANGS`). The
    view must be the seat's own, at a moment it may act (its turn, or a buy it may make).
    ``legal`` are its legal actions, when the caller has them."""
    if lang not in LANGS:
        raise ValueError(f"the coach speaks {', '.join(LANGS)}, not {lang!r}")
    if view.seat is None or view.hand is None:
        raise ValueError("the coach advises a seat from that seat's own view")
    if legal is None:
        legal = _legal(view, rules)
    if not legal:
        raise ValueError("the seat has nothing to do now")
    # Under open hands the next player's hand is on the table: what feeds them is read from
    # it, not guessed from what they threw (no "they are not collecting those" while they
    # visibly hold one).
    # Scored by rounds won (familia's marks), a card's points cost nothing: the coach does not
    # weigh them, nor speak of them.
    options: dict[str, Any] = {}
    if view.open_hands is not None:
        options["safe_bonus"] = 0
    if rules.scoring == "rounds":
        options["value_weight"] = 0
    coach = _Coach(rules=rules, **options)
    decision = coach.decide(view, legal, explain=True)
    decision = _checked(decision, view, rules, coach)
    return Hint(decision.action, explain(decision, view, lang, rules), decision.reason)


class _Coach(LookaheadBot):
    """The lookahead planner, which under open hands (the teaching variant) reads what feeds
    the next player off the hand they show: a discard feeds them when it is one of its outs.
    (The cards in sight are not counted as unseen either: ``reading.unseen_counts``.)"""

    def _feeding_test(self, view: View, rules: RuleSet, seat: int) -> Callable[[Card], bool]:
        # The discards greedy's rules choose (once down, in a lost round) read the hand in
        # sight too; else they guess as the planner does.
        if view.open_hands is None or view.down[seat]:
            return super()._feeding_test(view, rules, seat)
        feeds = self._feeds(view, rules, seat)
        return lambda card: feeds(card) > 0

    def _feeds(self, view: View, rules: RuleSet, seat: int) -> Callable[[Card], float]:
        if view.open_hands is None or view.down[seat]:
            return super()._feeds(view, rules, seat)
        owed = _owed(view, seat)
        outs = distance(view.open_hands[seat], owed, rules).outs if owed else frozenset()
        return lambda card: 1.0 if card in outs else 0.0


def _checked(decision: Decision, view: View, rules: RuleSet, coach: _Coach) -> Decision:
    """The decision with the meld it names worked out again on the hand the sentence speaks
    of: the hand with the card taken from the pozo, or the hand left after the discard (a
    meld "to keep" never counts the card thrown), with each wild card shown as what it stands
    for. A discard whose kept card no longer shows in a meld says only the discard's reason;
    a discard after going down says so when dearer cards stay because they feed the next
    player."""
    details = dict(decision.details)
    hand = list(view.hand or ())
    seat = view.seat if view.seat is not None else 0
    owed = _owed(view, seat)
    action = decision.action
    if decision.reason == "draw_pozo_out" and "card" in details and owed:
        card = details["card"]
        target = _target_words_for(card, [*hand, card], owed, rules)
        details.pop("target", None)
        if target is not None:
            details["target"] = target
    if "keep" in details and isinstance(action, Discard):
        keep = details.pop("keep")
        details.pop("target", None)
        rest = list(hand)
        rest.remove(action.card)
        found = distance(rest, owed, rules) if owed else None
        if found is not None and keep in rest and keep in found.needed:
            target = _target_words_for(keep, rest, owed, rules, found)
            if target is not None:
                details["keep"], details["target"] = keep, target
    if rules.scoring == "rounds":
        details["marks"] = True
    top = view.pozo_top
    if decision.reason == "no_buy" and view.down[seat]:
        details["down"] = True  # nothing to bring nearer: a buy only adds cards
    elif decision.reason == "no_buy" and top is not None and owed:
        # Say which of the two reasons it is: the card does not help, or it is too late.
        before = distance(hand, owed, rules).missing
        details["late"] = distance([*hand, top], owed, rules).missing < before
    if decision.reason == "discard_down" and isinstance(action, Discard):
        card = action.card

        def fits(c: Card) -> bool:
            return _fitting_meld(c, view.melds, rules) is not None

        rest = list(hand)
        rest.remove(card)
        if fits(card) and any(not fits(c) for c in rest):
            # A card that could be laid off goes: every card that could not would help them.
            details["others_feed"] = True
        else:
            kept = [c for c in rest if not fits(c) and rules.value(c) > rules.value(card)]
            feeds = coach._feeding_test(view, rules, (seat + 1) % len(view.players))
            if kept and any(feeds(c) for c in kept):
                details["kept_feed"] = True
    elif decision.reason == "discard_lost" and isinstance(action, Discard):
        # Greedy sheds the dearest card that does not feed the next player: when a dearer
        # one stays for that reason, "shed the dearest first" alone would not explain it.
        card = action.card
        feeds = coach._feeding_test(view, rules, (seat + 1) % len(view.players))
        spare = _spare_test(hand, owed, rules)
        if owed and any(feeds(c) and spare(c)
                        for c in hand if rules.value(c) > rules.value(card)):
            details["kept_feed"] = True
    elif decision.reason in ("discard", "discard_feeds") and isinstance(action, Discard) \
            and owed and any(map(_spare_test(hand, owed, rules),
                                 (c for c in hand if rules.is_wild(c)))):
        # Every natural card is needed, but a comodín is not: it stays because it would help
        # the next player (greedy gives none away), so "you need them all" would be false.
        details["spare_wild"] = True
    return dataclasses.replace(decision, details=details)


def _spare_test(hand: Sequence[Card], owed: Sequence[Contract], rules: RuleSet
                ) -> Callable[[Card], bool]:
    """A test: could the hand lose this card and lack no more cards than it does now?"""
    memo = _Memo(rules, list(owed))
    now = memo.missing(list(hand))

    def spare(card: Card) -> bool:
        rest = list(hand)
        rest.remove(card)
        return memo.at_most(rest, now)

    return spare


def _target_words_for(card: Card, hand: Sequence[Card], owed: Sequence[Contract],
                      rules: RuleSet, found: Distance | None = None) -> dict[str, Any] | None:
    """The meld of the nearest arrangement of ``hand`` that ``card`` goes in, its place shown
    as a gap: ``{"kind": "escala", "shape": "5-6-_-8", "missing": 0}``."""
    if found is None:
        found = distance(hand, owed, rules)
    for target in found.targets:
        if card in target.cards:
            return {"kind": target.kind, "shape": _shape(target, card, rules),
                    "missing": target.missing}
    return None


def _shape(target: Target, card: Card, rules: RuleSet) -> str:
    """The meld's ranks in laid order, ``_`` for ``card``, ``?`` for a card still missing; a
    wild card shows what it stands for, then itself in brackets (``6(2)``, ``6(JK)``), as the
    table shows a meld (a wild with no natural card beside it is shown as itself). A trío has
    no order: the cards held, then the gaps."""
    cards = target.cards
    stands: list[int | None] = [None] * len(cards)
    natural = [(i, c) for i, c in enumerate(cards) if c is not None and not rules.is_wild(c)]
    if natural:
        i, first = natural[0]
        if target.kind == "trio":
            stands = [first.rank] * len(cards)
        else:
            stands = [(first.rank - 1 + j - i) % 13 + 1 for j in range(len(cards))]
    shown: list[str] = []
    blank = False
    for j, c in enumerate(cards):
        if c == card and not blank:
            shown.append("_")
            blank = True
        elif c is None:
            shown.append("?")
        else:
            text = "JK" if c.is_joker else RANKS[c.rank - 1]
            rank = stands[j]
            # A wild card shows what it stands for unless it is that very card: of that rank,
            # and in an escala of that suit too (a 2C among spades is still a comodín).
            natural_here = not c.is_joker and rank == c.rank and (
                target.kind == "trio" or c.suit == natural[0][1].suit)
            if rules.is_wild(c) and rank is not None and not natural_here:
                text = f"{RANKS[rank - 1]}({text})"
            shown.append(text)
    if target.kind == "trio":
        shown.sort(key=lambda s: (s == "_", s == "?"))
    return "-".join(shown)


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
        "draw_pozo_out": "saca el {card} del pozo: {why}",
        "draw_pozo_out_plain": "saca el {card} del pozo: te acerca al contrato",
        "draw_pozo_layoff": "saca el {card} del pozo: lo puedes agregar al juego {meld}",
        "draw_pozo_only": "saca del pozo: el mazo está vacío",
        "draw_mazo": "saca del mazo: el {card} del pozo no te sirve",
        "draw_mazo_empty": "saca del mazo",
        "go_out": "te puedes ir en este turno: {steps}",
        "bajar_other_down_1": "bájate ahora: {names} ya se bajó",
        "bajar_other_down_n": "bájate ahora: {names} ya se bajaron",
        "bajar_now": "bájate ahora: tienes el contrato, y lo que bajas ya no suma puntos",
        "bajar_now_marks": "bájate ahora: tienes el contrato, y después puedes agregar cartas "
                           "para irte",
        "bajar_part": "baja esta parte del contrato: ya la tienes completa",
        "agregar": "agrega el {card} al juego {meld}{at}: una carta menos en la mano",
        "swap_layoff": "cambia el {card} por el comodín del juego {meld}: el comodín se "
                       "puede agregar enseguida",
        "swap_relocate": "pon el {card} en el juego {meld}: el comodín se corre a una punta",
        "swap_contract": "cambia el {card} por el comodín del juego {meld}: el comodín te "
                         "acerca al contrato",
        "discard": "bota el {card}: es la carta que menos te sirve",
        "discard_outs": "bota el {card}: así quedan {live_outs} cartas por salir que te "
                        "sirven",
        "discard_outs_1": "bota el {card}: así queda {live_outs} carta por salir que te sirve",
        "discard_dear": "bota el {card}: vale {points} si otro se va primero, y aún "
                        "quedan {live_outs} cartas por salir que te sirven",
        "discard_dear_1": "bota el {card}: vale {points} si otro se va primero, y aún "
                          "queda {live_outs} carta por salir que te sirve",
        "discard_dear_0": "bota el {card}: vale {points} si otro se va primero",
        "discard_all_needed": "bota el {card}: todas te sirven, esta es la que menos",
        "discard_keep": "bota el {card}; guarda el {keep}: {why}",
        "keep_feeds": " (ojo: el {card} le puede servir a {next})",
        "discard_feeds": "bota el {card}: es la que menos te sirve, aunque le puede servir "
                         "a {next}",
        "discard_safe": "bota el {card}: {next} ya botó o dejó pasar {rank} en esta "
                        "ronda, así que no le sirve",
        "discard_lost": "bota el {card}: la ronda se ve difícil, así que bota la que más vale "
                        "de las que no necesitas",
        "discard_lost_feeds": "bota el {card}: la ronda se ve difícil; las que valen más y no "
                              "necesitas le pueden servir a {next}",
        "discard_spare_wild": "bota el {card}: te hacen falta todas las cartas que no son "
                              "comodín, y botar un comodín le serviría a {next}",
        "discard_down": "bota el {card}: ya te bajaste; guarda lo que puedes agregar y bota "
                        "la que más vale",
        "discard_down_feeds": "bota el {card}: ya te bajaste; las que valen más le pueden "
                              "servir a {next}",
        "discard_down_marks": "bota el {card}: ya te bajaste; guarda lo que puedes agregar",
        "discard_down_others_feed": "bota el {card}: ya te bajaste, y las demás le pueden "
                                    "servir a {next}",
        "buy_early": "cómpralo: el {card} te acerca al contrato y la ronda recién empieza",
        "no_buy": "déjalo pasar: el {card} no te acerca al contrato, o la ronda ya va "
                  "avanzada",
        "no_buy_useless": "déjalo pasar: el {card} no te acerca al contrato",
        "no_buy_down": "déjalo pasar: ya te bajaste, y comprar solo te deja más cartas en la "
                       "mano",
        "no_buy_late": "déjalo pasar: el {card} te serviría, pero la ronda ya va avanzada",
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
        "bajar_now_marks": "bajarse now: you hold the contract, and then you can lay cards off "
                           "to go out",
        "bajar_part": "lay this part of the contract: you have it complete",
        "agregar": "lay the {card} off on meld {meld}{at}: one card fewer in your hand",
        "swap_layoff": "swap the {card} for the comodín of meld {meld}: the comodín can be "
                       "laid off at once",
        "swap_relocate": "put the {card} in meld {meld}: the comodín moves to an end",
        "swap_contract": "swap the {card} for the comodín of meld {meld}: the comodín brings "
                         "the contract closer",
        "discard": "discard the {card}: it is the card you need least",
        "discard_outs": "discard the {card}: that leaves {live_outs} unseen cards that would "
                        "help you",
        "discard_outs_1": "discard the {card}: that leaves {live_outs} unseen card that would "
                          "help you",
        "discard_dear": "discard the {card}: it costs {points} points if someone else goes "
                        "out first, and {live_outs} unseen cards that would help you remain",
        "discard_dear_1": "discard the {card}: it costs {points} points if someone else goes "
                          "out first, and {live_outs} unseen card that would help you remains",
        "discard_dear_0": "discard the {card}: it costs {points} points if someone else goes "
                          "out first",
        "discard_all_needed": "discard the {card}: you need them all, this one least",
        "discard_keep": "discard the {card}; keep the {keep}: {why}",
        "keep_feeds": " (mind: the {card} may help {next})",
        "discard_feeds": "discard the {card}: you need it least, though it may help {next}",
        "discard_safe": "discard the {card}: {next} threw or passed {rank} this round, "
                        "so they are not collecting them",
        "discard_lost": "discard the {card}: this round looks lost, so shed the dearest card "
                        "you can spare",
        "discard_lost_feeds": "discard the {card}: this round looks lost; the dearer cards you "
                              "can spare may help {next}",
        "discard_spare_wild": "discard the {card}: you need every card that is no comodín, "
                              "and a comodín thrown would help {next}",
        "discard_down": "discard the {card}: you are down; keep what you can lay off and shed "
                        "the dearest of the rest",
        "discard_down_feeds": "discard the {card}: you are down; your dearer cards may help "
                              "{next}",
        "discard_down_marks": "discard the {card}: you are down; keep what you can lay off",
        "discard_down_others_feed": "discard the {card}: you are down, and your other cards "
                                    "may help {next}",
        "buy_early": "buy it: the {card} brings the contract closer and the round has just "
                     "begun",
        "no_buy": "let it pass: the {card} does not bring the contract nearer, or the round "
                  "is too far along",
        "no_buy_useless": "let it pass: the {card} does not bring the contract nearer",
        "no_buy_down": "let it pass: you are down, and buying would only leave you more cards "
                       "in hand",
        "no_buy_late": "let it pass: the {card} would help, but the round is too far along",
        "forced": "it is the only move",
        "completes": "it completes your {meld} {shape}",
        "goes_in": "it goes in your {meld} {shape} ({missing} to go)",
        "goes_in_1": "it goes in your {meld} {shape} (1 to go)",
        "and": " and ",
    },
    "de": {
        "draw_pozo_out": "nimm die {card} vom Pozo: {why}",
        "draw_pozo_out_plain": "nimm die {card} vom Pozo: sie bringt dich näher an den "
                               "Kontrakt",
        "draw_pozo_layoff": "nimm die {card} vom Pozo: du kannst sie an Kombination {meld} "
                            "anlegen",
        "draw_pozo_only": "nimm vom Pozo: der Mazo ist leer",
        "draw_mazo": "zieh vom Mazo: die {card} auf dem Pozo hilft dir nicht",
        "draw_mazo_empty": "zieh vom Mazo",
        "go_out": "du kannst in diesem Zug ausgehen: {steps}",
        "bajar_other_down_1": "leg jetzt aus: {names} hat schon ausgelegt",
        "bajar_other_down_n": "leg jetzt aus: {names} haben schon ausgelegt",
        "bajar_now": "leg jetzt aus: du hast den Kontrakt, und was du auslegst, zählt nicht "
                     "mehr gegen dich",
        "bajar_now_marks": "leg jetzt aus: du hast den Kontrakt, und danach kannst du Karten "
                           "anlegen, um auszugehen",
        "bajar_part": "leg diesen Teil des Kontrakts aus: du hast ihn vollständig",
        "agregar": "leg die {card} an Kombination {meld}{at} an: eine Karte weniger auf der Hand",
        "swap_layoff": "tausche die {card} gegen den Joker von Kombination {meld}: den Joker "
                       "kannst du sofort anlegen",
        "swap_relocate": "leg die {card} in Kombination {meld}: der Joker rückt an ein Ende",
        "swap_contract": "tausche die {card} gegen den Joker von Kombination {meld}: der "
                         "Joker bringt dich näher an den Kontrakt",
        "discard": "wirf die {card} ab: sie ist die Karte, die du am wenigsten brauchst",
        "discard_outs": "wirf die {card} ab: so bleiben {live_outs} ungesehene Karten, die "
                        "dir helfen würden",
        "discard_outs_1": "wirf die {card} ab: so bleibt {live_outs} ungesehene Karte, die "
                          "dir helfen würde",
        "discard_dear": "wirf die {card} ab: sie kostet {points} Punkte, wenn jemand anders "
                        "zuerst ausgeht, und es bleiben {live_outs} ungesehene Karten, die "
                        "dir helfen würden",
        "discard_dear_1": "wirf die {card} ab: sie kostet {points} Punkte, wenn jemand anders "
                          "zuerst ausgeht, und es bleibt {live_outs} ungesehene Karte, die "
                          "dir helfen würde",
        "discard_dear_0": "wirf die {card} ab: sie kostet {points} Punkte, wenn jemand anders "
                          "zuerst ausgeht",
        "discard_all_needed": "wirf die {card} ab: du brauchst alle, diese am wenigsten",
        "discard_keep": "wirf die {card} ab; behalte die {keep}: {why}",
        "keep_feeds": " (Vorsicht: die {card} kann {next} helfen)",
        "discard_feeds": "wirf die {card} ab: du brauchst sie am wenigsten, auch wenn sie "
                         "{next} helfen kann",
        "discard_safe": "wirf die {card} ab: {next} hat in dieser Runde schon eine Karte vom "
                        "Rang {rank} abgeworfen oder liegen lassen, sammelt sie also nicht",
        "discard_lost": "wirf die {card} ab: diese Runde sieht verloren aus, also weg mit der "
                        "teuersten Karte, die du nicht brauchst",
        "discard_lost_feeds": "wirf die {card} ab: diese Runde sieht verloren aus; deine "
                              "teureren Karten, die du nicht brauchst, können {next} helfen",
        "discard_spare_wild": "wirf die {card} ab: du brauchst alle deine natürlichen Karten, "
                              "und ein abgeworfener Joker würde {next} helfen",
        "discard_down": "wirf die {card} ab: du hast ausgelegt; behalte, was du anlegen "
                        "kannst, und wirf die teuerste der übrigen ab",
        "discard_down_feeds": "wirf die {card} ab: du hast ausgelegt; deine teureren Karten "
                              "können {next} helfen",
        "discard_down_marks": "wirf die {card} ab: du hast ausgelegt; behalte, was du anlegen "
                              "kannst",
        "discard_down_others_feed": "wirf die {card} ab: du hast ausgelegt, und deine anderen "
                                    "Karten können {next} helfen",
        "buy_early": "kauf sie: die {card} bringt dich näher an den Kontrakt, und die Runde "
                     "hat gerade erst begonnen",
        "no_buy": "lass sie liegen: die {card} bringt dich nicht näher an den Kontrakt, oder "
                  "die Runde ist schon zu weit",
        "no_buy_useless": "lass sie liegen: die {card} bringt dich nicht näher an den Kontrakt",
        "no_buy_down": "lass sie liegen: du hast ausgelegt, und ein Kauf brächte dir nur mehr "
                       "Karten auf die Hand",
        "no_buy_late": "lass sie liegen: die {card} würde dir helfen, aber die Runde ist schon "
                       "zu weit",
        "forced": "das ist der einzige mögliche Zug",
        "completes": "sie vervollständigt {meld} {shape}",
        "goes_in": "sie gehört in {meld} {shape} (es fehlen noch {missing})",
        "goes_in_1": "sie gehört in {meld} {shape} (es fehlt noch 1)",
        "and": " und ",
    },
    "sv": {
        "draw_pozo_out": "ta {card} från pozon: {why}",
        "draw_pozo_out_plain": "ta {card} från pozon: det för dig närmare kontraktet",
        "draw_pozo_layoff": "ta {card} från pozon: du kan lägga på det på kombination {meld}",
        "draw_pozo_only": "ta från pozon: mazon är tom",
        "draw_mazo": "dra från mazon: {card} på pozon hjälper dig inte",
        "draw_mazo_empty": "dra från mazon",
        "go_out": "du kan gå ut den här turen: {steps}",
        "bajar_other_down_1": "lägg ner nu: {names} har redan lagt ner",
        "bajar_other_down_n": "lägg ner nu: {names} har redan lagt ner",
        "bajar_now": "lägg ner nu: du har kontraktet, och det du lägger ner räknas inte "
                     "längre mot dig",
        "bajar_now_marks": "lägg ner nu: du har kontraktet, och sedan kan du lägga på kort för "
                           "att gå ut",
        "bajar_part": "lägg ner den här delen av kontraktet: du har den komplett",
        "agregar": "lägg på {card} på kombination {meld}{at}: ett kort mindre på handen",
        "swap_layoff": "byt {card} mot jokern i kombination {meld}: jokern kan läggas på "
                       "direkt",
        "swap_relocate": "lägg {card} i kombination {meld}: jokern flyttas till en ände",
        "swap_contract": "byt {card} mot jokern i kombination {meld}: jokern för dig närmare "
                         "kontraktet",
        "discard": "kasta {card}: det är kortet du behöver minst",
        "discard_outs": "kasta {card}: då finns {live_outs} osedda kort kvar som skulle "
                        "hjälpa dig",
        "discard_outs_1": "kasta {card}: då finns {live_outs} osett kort kvar som skulle "
                          "hjälpa dig",
        "discard_dear": "kasta {card}: det kostar {points} poäng om någon annan går ut "
                        "först, och {live_outs} osedda kort som skulle hjälpa dig finns kvar",
        "discard_dear_1": "kasta {card}: det kostar {points} poäng om någon annan går ut "
                          "först, och {live_outs} osett kort som skulle hjälpa dig finns kvar",
        "discard_dear_0": "kasta {card}: det kostar {points} poäng om någon annan går ut först",
        "discard_all_needed": "kasta {card}: du behöver alla, det här minst",
        "discard_keep": "kasta {card}; behåll {keep}: {why}",
        "keep_feeds": " (obs: {card} kan hjälpa {next})",
        "discard_feeds": "kasta {card}: du behöver det minst, fast det kan hjälpa {next}",
        "discard_safe": "kasta {card}: {next} har redan kastat eller låtit ett kort av "
                        "valören {rank} passera den här rundan, så de samlar inte på dem",
        "discard_lost": "kasta {card}: rundan ser förlorad ut, så gör dig av med det dyraste "
                        "kortet du inte behöver",
        "discard_lost_feeds": "kasta {card}: rundan ser förlorad ut; dina dyrare kort som du "
                              "inte behöver kan hjälpa {next}",
        "discard_spare_wild": "kasta {card}: du behöver alla dina naturliga kort, och en "
                              "kastad joker skulle hjälpa {next}",
        "discard_down": "kasta {card}: du har lagt ner; behåll det du kan lägga på och kasta "
                        "det dyraste av resten",
        "discard_down_feeds": "kasta {card}: du har lagt ner; dina dyrare kort kan hjälpa "
                              "{next}",
        "discard_down_marks": "kasta {card}: du har lagt ner; behåll det du kan lägga på",
        "discard_down_others_feed": "kasta {card}: du har lagt ner, och dina andra kort kan "
                                    "hjälpa {next}",
        "buy_early": "köp det: {card} för dig närmare kontraktet och rundan har just börjat",
        "no_buy": "låt det passera: {card} för dig inte närmare kontraktet, eller så har "
                  "rundan kommit för långt",
        "no_buy_useless": "låt det passera: {card} för dig inte närmare kontraktet",
        "no_buy_down": "låt det passera: du har lagt ner, och ett köp ger dig bara fler kort "
                       "på handen",
        "no_buy_late": "låt det passera: {card} skulle hjälpa dig, men rundan har kommit för "
                       "långt",
        "forced": "det är det enda möjliga draget",
        "completes": "det gör {meld} {shape} komplett",
        "goes_in": "det passar i {meld} {shape} ({missing} kvar)",
        "goes_in_1": "det passar i {meld} {shape} (1 kvar)",
        "and": " och ",
    },
}

_MELD_NAMES = {"trio": "trío", "escala": "escala", "sucia": "escala sucia",
               "real": "escala real", "colores": "escala de colores"}
# German names a meld with its article ("sie gehört in die Escala 5-6-_-8"): ein Trio, eine
# Escala in the German source, so das Trío and die Escala.
_MELD_NAMES_DE = {"trio": "das Trío", "escala": "die Escala", "sucia": "die Escala sucia",
                  "real": "die Escala real", "colores": "die Escala de colores"}

LANGS = ("es", "en", "de", "sv")
"""The languages the coach speaks."""


def explain(decision: Decision, view: View, lang: str = "es",
            rules: RuleSet | None = None) -> str:
    """The planner's decision in one sentence, in ``lang``. Given the ``rules``, a wild card
    laid off on an escala is told at which end it goes."""
    words = _WORDS[lang]
    d = decision.details
    code = decision.reason
    values: dict[str, Any] = {k: _text(v) for k, v in d.items() if not isinstance(v, dict)}
    action = decision.action
    values["at"] = _at_end(action.card, action.end, rules, lang) \
        if isinstance(action, Agregar) else ""
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
        return words["go_out"].format(
            steps="; ".join(_step_words(s, lang, rules) for s in steps))
    if code == "bajar_other_down":
        others = [view.players[s] for s in d.get("others", [])]
        names = _join(others, words["and"])
        key = "bajar_other_down_1" if len(others) == 1 else "bajar_other_down_n"
        return words[key].format(names=names)
    seat = view.seat if view.seat is not None else 0
    if code in ("discard_safe", "discard_feeds", "discard_down", "discard_lost", "discard"):
        # ... and their variants
        values["next"] = view.players[(seat + 1) % len(view.players)]
    if code == "discard_safe":
        values["rank"] = _a_rank(d["card"].rank, lang)
    if lang == "es" and "points" in d:  # "vale 1 punto", "vale 20 puntos"
        values["points"] = "1 punto" if d["points"] == 1 else f"{values['points']} puntos"
    if code == "no_buy" and d.get("down"):
        code = "no_buy_down"
    elif code == "no_buy" and "late" in d:
        code = "no_buy_late" if d["late"] else "no_buy_useless"
    if code in ("bajar_now", "discard_down") and d.get("marks"):
        code += "_marks"  # scored by rounds won: no points to save
    elif code == "discard_lost" and d.get("marks"):
        code = "discard"  # nor dear cards to shed first
    elif code == "discard_lost" and d.get("kept_feed"):
        code = "discard_lost_feeds"
    elif code == "discard_down" and d.get("others_feed"):
        code = "discard_down_others_feed"
    elif code == "discard_down" and d.get("kept_feed"):
        code = "discard_down_feeds"
    if code in ("discard", "discard_feeds", "discard_outs"):
        # A discard that costs a card says so first: "keep the KH" would hide that the card
        # thrown was needed too.
        if d.get("missing", 0) > d.get("before", 0):
            key = "discard_spare_wild" if d.get("spare_wild") else "discard_all_needed"
            return words[key].format(**values)
        if "keep" in d and "target" in d:
            said = words["discard_keep"].format(why=_target_words(d["target"], lang), **values)
            # What it keeps is the reason; that the card may help the next player still counts.
            return said + words["keep_feeds"].format(**values) if code == "discard_feeds" \
                else said
    if code in ("discard_outs", "discard_dear") and d.get("live_outs") == 1:
        code += "_1"  # "queda 1 carta", "1 unseen card"
    elif code in ("discard_outs", "discard_dear") and d.get("live_outs") == 0:
        # Nothing unseen would help any more: no "0 cards that would help you" as a reason.
        code = "discard" if code == "discard_outs" else "discard_dear_0"
    template = words.get(code)
    if template is None:
        return str(decision.action)
    return template.format(**values)


def _a_rank(rank: int, lang: str) -> str:
    """A card of that rank, with its article where the sentence needs one: "un as", "una K"
    (the letters are feminine), "an 8"."""
    symbol = RANKS[rank - 1]
    if lang == "es":
        return a_rank_es(symbol)
    if lang == "en":
        return f"an {symbol}" if rank in (1, 8) else f"a {symbol}"
    return symbol


_STEPS: dict[str, dict[str, str]] = {
    "es": {"bajar": "bájate con {melds}", "agregar": "agrega el {card} al juego {meld}{at}",
           "swap": "cambia el {card} por el comodín del juego {meld}",
           "swap_end": "pon el {card} en el juego {meld} y corre el comodín a una punta",
           "discard": "bota el {card}"},
    "en": {"bajar": "lay down {melds}", "agregar": "lay the {card} off on meld {meld}{at}",
           "swap": "swap the {card} for the comodín of meld {meld}",
           "swap_end": "put the {card} in meld {meld} and move the comodín to an end",
           "discard": "discard the {card}"},
    "de": {"bajar": "leg {melds} aus", "agregar": "leg die {card} an Kombination {meld}{at} an",
           "swap": "tausche die {card} gegen den Joker von Kombination {meld}",
           "swap_end": "leg die {card} in Kombination {meld} und rück den Joker an ein Ende",
           "discard": "wirf die {card} ab"},
    "sv": {"bajar": "lägg ner {melds}", "agregar": "lägg på {card} på kombination {meld}{at}",
           "swap": "byt {card} mot jokern i kombination {meld}",
           "swap_end": "lägg {card} i kombination {meld} och flytta jokern till en ände",
           "discard": "kasta {card}"},
}


def _step_words(step: Step, lang: str, rules: RuleSet | None = None) -> str:
    """One step of a plan to go out in the player's words, as the coach's other sentences
    name cards and melds ("agrega el 5C al juego 3"), not in the record's notation."""
    melds = " / ".join(" ".join(str(c) for c in meld) for meld in step.melds)
    # A swap with an end is a relocation: the wild stays in the meld, at that end.
    kind = "swap_end" if step.kind == "swap" and step.end is not None else step.kind
    at = _at_end(step.card, step.end, rules, lang) if step.kind == "agregar" else ""
    return _STEPS[lang][kind].format(card=step.card, meld=step.meld, melds=melds, at=at)


_ENDS: dict[str, dict[str, str]] = {
    "es": {"low": " en la punta de abajo", "high": " en la punta de arriba"},
    "en": {"low": " at the low end", "high": " at the high end"},
    "de": {"low": " am unteren Ende", "high": " am oberen Ende"},
    "sv": {"low": " i nedre änden", "high": " i övre änden"},
}


def _at_end(card: Card | None, end: End | None, rules: RuleSet | None, lang: str) -> str:
    """Where a lay-off goes, when only the player can tell: a natural card has one place in an
    escala, a wild card may go at either end (and where it goes decides what fits next)."""
    if card is None or end is None or rules is None or not rules.is_wild(card):
        return ""
    return _ENDS[lang][end]


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
    meld = (_MELD_NAMES_DE if lang == "de" else _MELD_NAMES).get(target["kind"], target["kind"])
    missing = target.get("missing", 0)
    if not missing:
        return words["completes"].format(meld=meld, shape=target["shape"])
    key = "goes_in_1" if missing == 1 else "goes_in"
    return words[key].format(meld=meld, shape=target["shape"], missing=missing)
