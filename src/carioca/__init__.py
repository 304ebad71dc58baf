"""Carioca, the Chilean contract rummy: the rules engine and the game record."""

from .cards import JOKER, Card, CardError, deck, parse_cards
from .rules import PRESETS, Contract, RoundDef, RulesError, RuleSet

__all__ = [
    "Card", "CardError", "JOKER", "deck", "parse_cards",
    "RuleSet", "RulesError", "Contract", "RoundDef", "PRESETS",
]
__version__ = "0.1.0"

from .actions import Action, ActionError, Agregar, Bajar, Buy, Discard, Draw, Swap  # noqa: E402
from .engine import Deal, Game, LegalActions, RoundResult, ScoreSheet, View  # noqa: E402
from .errors import IllegalAction, RecordError  # noqa: E402
from .melds import Meld, MeldError  # noqa: E402

__all__ += [
    "Action", "ActionError", "Agregar", "Bajar", "Buy", "Discard", "Draw", "Swap",
    "Deal", "Game", "LegalActions", "RoundResult", "ScoreSheet", "View",
    "IllegalAction", "RecordError", "Meld", "MeldError",
]
