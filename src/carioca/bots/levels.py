"""Named bots for the table: personalities and levels.

A level is a policy (how the bot picks a move without looking ahead) or a search budget (how
many playouts it spends on each decision), never a random blunder die: a weaker bot is one that
thinks less or by a simpler rule, and every bot decides from its seat's view only.

>>> [spec.name for spec in BOTS.values()][:3]
['random', 'eager', 'greedy']
>>> BOTS["rosa"].describe("es")
'Abuela Rosa: solo cuida su mano: cuando duda, prueba cada jugada en 16 repartos posibles.'
>>> BOTS["greedy"].title, BOTS["greedy"].title_in("es"), BOTS["rosa"].title_in("de")
('Greedy', 'Clásico', 'Abuela Rosa')
>>> from carioca import RuleSet
>>> bot = make_bot("search@16", seed=3, rules=RuleSet.preset("chico"))
>>> bot.name, bot.playouts
('search@16', 16)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..actions import Action
from ..cards import quoted
from ..engine import View
from ..rules import RuleSet
from .random_bot import Bot, RandomBot
from .search import Objective, SearchBot, policy_factory

__all__ = ["BotSpec", "BOTS", "EagerBot", "make_bot", "bot_names", "ACTIONS_PER_PLAYOUT"]

Policy = Literal["random", "eager", "greedy", "lookahead", "search"]


class EagerBot:
    """A child's policy: lays down, lays off and swaps whenever the rules let it (the first
    such move offered), and otherwise draws and discards at random."""

    name: str = "eager"
    description: str = ("Goes down and lays off whenever it can, else plays at random (se baja "
                        "y agrega apenas puede; si no, juega al azar).")

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._random = RandomBot(seed)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        for kind in ("bajar", "swap", "agregar"):
            for action in legal:
                if action.kind == kind:
                    return action
        return self._random.choose(view, legal)

    def __repr__(self) -> str:
        return f"EagerBot(seed={self.seed!r})"


@dataclass(frozen=True, slots=True)
class BotSpec:
    """One bot of the table: its name, who it is (``title``), a one-line description in
    Spanish, English, German and Swedish (``es``, ``en``, ``de``, ``sv``), and its level: a
    policy, or a search budget in playouts per decision with what it plays for
    (``objective``) and how it plays the playouts out.

    ``name`` is the bot's id (the CLI, the API, records); ``title`` is who sits at the table,
    in English. A generic bot ("Random") has a title in each language of the table too
    (``titles``: language, title); a personality's name ("Tía Chela") needs none."""

    name: str
    title: str
    es: str
    en: str
    level: int
    """Strength order, 0 the weakest; bots of one level differ in style, not in strength."""
    policy: Policy
    playouts: int | None = None
    objective: Objective = "relative"
    playout_policy: str = "greedy"
    de: str = ""
    sv: str = ""
    titles: tuple[tuple[str, str], ...] = ()

    def title_in(self, lang: str) -> str:
        """The title in ``lang`` (es, en, de or sv): the English ``title`` when it has none
        of its own there."""
        return dict(self.titles).get(lang, self.title)

    def introduce(self, lang: str = "en") -> str:
        """What the lobby says about it in ``lang``: its title and its line in that language
        (:meth:`describe` keeps the English title, as the docs list it)."""
        lines = {"es": self.es, "en": self.en, "de": self.de, "sv": self.sv}
        return f"{self.title_in(lang)}: {lines.get(lang) or self.en}"

    @property
    def budget(self) -> str:
        """The level in words: the policy, or the search budget."""
        if self.policy != "search":
            return f"policy: {self.policy}"
        return (f"search: {self.playouts} playouts per decision, {self.playout_policy} "
                f"playouts, objective {self.objective}")

    def describe(self, lang: str = "en") -> str:
        """Who it is and its line in ``lang`` (es, en, de or sv; English for any other)."""
        lines = {"es": self.es, "en": self.en, "de": self.de, "sv": self.sv}
        return f"{self.title}: {lines.get(lang) or self.en}"

    def make(self, seed: int | None = None, rules: RuleSet | None = None, *,
             name: str | None = None) -> Bot:
        """A new bot of this kind, seeded."""
        bot: Bot
        if self.policy == "random":
            bot = RandomBot(seed)
        elif self.policy == "eager":
            bot = EagerBot(seed)
        elif self.policy in ("greedy", "lookahead"):
            bot = policy_factory(self.policy, rules)(seed or 0)
        else:
            assert self.playouts is not None
            bot = SearchBot(seed, playouts=self.playouts, rules=rules,
                            actions=ACTIONS_PER_PLAYOUT * self.playouts,
                            policy=self.playout_policy, objective=self.objective,
                            **SEARCH_STYLE)
        bot.name = name or self.name
        bot.description = f"{self.en} ({self.es})"
        return bot


def _search(name: str, title: str, level: int, playouts: int, objective: Objective,
            en: str, es: str, de: str, sv: str,
            titles: tuple[tuple[str, str], ...] = ()) -> BotSpec:
    return BotSpec(name, title, es, en, level, "search", playouts, objective, de=de, sv=sv,
                   titles=titles)


def _titles(es: str, de: str, sv: str) -> tuple[tuple[str, str], ...]:
    """A generic bot's title in Spanish, German and Swedish: words a family at the table
    says of a player ("el Apurado"), not a translation of the English policy's name."""
    return (("es", es), ("de", de), ("sv", sv))


SEARCH_PLAYOUTS = 32
"""The budget of the plain ``search`` bot: under 1 s a decision on one core in 2-seat chile
(see docs/bots.md for what it costs and how it fares)."""

MAX_PLAYOUTS = 100_000
"""The largest budget ``search@N`` takes: at 10-90 ms a playout, already hours a decision."""

ACTIONS_PER_PLAYOUT = 128
"""The named search bots also stop a decision once their playouts have played this many game
actions per playout of the budget, on average (``SearchBot(actions=...)``). A playout early in
a round of 4 seats plays about 100-150 actions, of 8 seats several hundred: the cap keeps a
decision at a big table as quick as at a small one (docs/bots.md), and, unlike a time limit,
decides the same on every machine."""

SEARCH_STYLE: dict[str, Any] = {
    "planner": "lookahead",
    "width": 2,
    "confidence": 2.5,
    "plausible": 8,
    "trust": ("go_out", "agregar", "swap_layoff", "swap_relocate", "forced",
              "discard_outs", "discard_dear", "discard_feeds", "discard_safe", "discard_down",
              "draw_pozo_out", "draw_pozo_layoff", "draw_mazo", "draw_pozo_only"),
}
"""How every named search bot searches (:class:`SearchBot`). The planner is the lookahead bot:
its discards while building the contract are already an exact expectimax over the next draw
(live outs, :mod:`carioca.bots.lookahead`), and its draws, going out and laying off are
trusted, and so is its discard once down (docs/bots.md: searched, it took three quarters of the
search's time and was overruled once in 267 decisions). What is left to the Monte Carlo
playouts are the real doubts: going down now or not and with which melds, the discard in a
lost round, swaps and buys. There it
weighs the planner's move against its second choice, over worlds where the others who are not
down hold plausible hands, and overrules the planner only when sure (2.5 standard errors).
docs/bots.md tells why: with a budget of tens of playouts a freer search picks noise."""

_SPECS: tuple[BotSpec, ...] = (
    BotSpec("random", "Random", "elige al azar entre las jugadas permitidas.",
            "picks any legal move at random.", 0, "random",
            de="wählt irgendeinen erlaubten Zug zufällig.",
            sv="väljer ett tillåtet drag på måfå.",
            titles=_titles("Al azar", "Zufall", "Slumpen")),
    BotSpec("eager", "Eager", "se baja, agrega y cambia comodines apenas puede; si no, saca y "
            "bota al azar.", "goes down, lays off and swaps whenever it can; else draws and "
            "discards at random.", 0, "eager",
            de="legt aus, legt an und tauscht Joker, sobald es geht; sonst zieht und wirft es "
            "zufällig.",
            sv="lägger ner, lägger på och byter jokrar så fort det går; annars drar och kastar "
            "den på måfå.",
            titles=_titles("Apurado", "Draufgänger", "Hetsporren")),
    BotSpec("greedy", "Greedy", "arma sus juegos con los consejos de siempre, sin mirar "
            "adelante.", "builds its melds by the usual advice, without looking ahead.", 1,
            "greedy", de="baut seine Kombinationen nach den üblichen Ratschlägen, ohne "
            "vorauszudenken.",
            sv="bygger sina kombinationer efter de vanliga råden, utan att tänka framåt.",
            titles=_titles("Clásico", "Klassiker", "Klassikern")),
    BotSpec("lookahead", "Lookahead", "arma sus juegos como el Clásico, pero bota la carta "
            "que le deja más cartas por salir que le sirven.", "builds its melds like greedy, but "
            "discards to keep the most live outs: the unseen cards that would help it.", 2,
            "lookahead", de="baut wie der Klassiker, wirft aber so ab, dass ihm die meisten "
            "ungesehenen Karten bleiben, die ihm helfen würden.",
            sv="bygger som Klassikern, men kastar så att flest osedda kort som skulle hjälpa den "
            "finns kvar.",
            titles=_titles("Previsor", "Vorausdenker", "Planeraren")),
    _search("search", "Search", 3, SEARCH_PLAYOUTS, "relative",
            f"plays its doubts out in {SEARCH_PLAYOUTS} sampled deals and keeps the best.",
            f"cuando duda, prueba cada jugada en {SEARCH_PLAYOUTS} repartos posibles y se "
            "queda con la mejor.",
            f"spielt seine Zweifel in {SEARCH_PLAYOUTS} möglichen Verteilungen durch und "
            "nimmt die beste.",
            f"spelar igenom sina tvivel i {SEARCH_PLAYOUTS} möjliga givar och tar den bästa.",
            _titles("Calculador", "Tüftler", "Grubblaren")),
    BotSpec("pepito", "Pepito", "tiene seis años: se baja y agrega apenas puede, y bota "
            "cualquier carta.", "is six: goes down and lays off as soon as he can, and throws "
            "any card.", 0, "eager",
            de="ist sechs: legt aus und an, sobald er kann, und wirft irgendeine Karte ab.",
            sv="är sex år: lägger ner och på så fort han kan, och kastar vilket kort som "
            "helst."),
    BotSpec("chela", "Tía Chela", "juega a la antigua: escalas primero, guarda los comodines, "
            "se baja apenas otro se baja.", "plays by the book: escalas first, keeps the "
            "jokers, goes down as soon as someone else has.", 1, "greedy",
            de="spielt wie im Lehrbuch: Escalas zuerst, behält die Joker, legt aus, sobald ein "
            "anderer ausgelegt hat.",
            sv="spelar enligt boken: escalas först, behåller jokrarna, lägger ner så fort "
            "någon annan har gjort det."),
    _search("rosa", "Abuela Rosa", 2, 16, "own",
            "minds only her own hand: weighs her doubts in 16 sampled deals.",
            "solo cuida su mano: cuando duda, prueba cada jugada en 16 repartos posibles.",
            "achtet nur auf ihre eigene Hand: wägt ihre Zweifel in 16 möglichen Verteilungen "
            "ab.",
            "bryr sig bara om sin egen hand: väger sina tvivel i 16 möjliga givar."),
    _search("beto", "Tío Beto", 2, 16, "relative",
            "plays against the table: weighs his doubts in 16 sampled deals.",
            "juega contra la mesa: antes de decidir, prueba las jugadas dudosas en 16 "
            "repartos posibles.",
            "spielt gegen den Tisch: wägt seine Zweifel in 16 möglichen Verteilungen ab.",
            "spelar mot bordet: väger sina tvivel i 16 möjliga givar."),
    _search("profe", "La Profe", 3, SEARCH_PLAYOUTS, "leader",
            f"watches whoever leads the score sheet: {SEARCH_PLAYOUTS} sampled deals a doubt.",
            f"vigila al que va ganando en el anotador: cada duda la prueba en "
            f"{SEARCH_PLAYOUTS} repartos posibles.",
            f"behält im Blick, wer auf dem Punkteblatt führt: {SEARCH_PLAYOUTS} mögliche "
            "Verteilungen pro Zweifel.",
            f"håller koll på den som leder i protokollet: {SEARCH_PLAYOUTS} möjliga givar per "
            "tvivel."),
    _search("campeon", "El Campeón", 4, 96, "relative",
            "the most careful at the table: 96 sampled deals a doubt (takes its time).",
            "el más cuidadoso de la mesa: cada duda la prueba en 96 repartos posibles (se "
            "toma su tiempo).",
            "der Sorgfältigste am Tisch: 96 mögliche Verteilungen pro Zweifel (lässt sich "
            "Zeit).",
            "den mest noggranna vid bordet: 96 möjliga givar per tvivel (tar god tid på sig)."),
)

BOTS: dict[str, BotSpec] = {spec.name: spec for spec in _SPECS}
"""Every named bot, by name."""


def bot_names() -> list[str]:
    """The names :func:`make_bot` knows (``search@N`` and ``search@N:policy`` are also
    accepted)."""
    return list(BOTS)


def make_bot(name: str, seed: int | None = None, rules: RuleSet | None = None) -> Bot:
    """A bot by name: one of :data:`BOTS`, or ``search@N`` for the search bot with a budget of
    ``N`` playouts per decision. ``rules`` are the game's (the search bots need them; when not
    given they read them from the legal actions they are handed). ``search@N:policy`` plays
    its playouts with that policy: ``greedy`` (the default), ``lookahead``, ``bottleneck``,
    ``eager`` or ``random`` (:func:`~carioca.bots.search.policy_factory`)."""
    key = name.strip().lower()
    if key.startswith("search@"):
        budget, _, policy = key.partition("@")[2].partition(":")
        if not (budget.isascii() and budget.isdigit() and len(budget) <= 9) \
                or not 1 <= int(budget) <= MAX_PLAYOUTS:
            raise ValueError(f"{quoted(name)}: write search@N with N the playouts per decision, "
                             f"from 1 to {MAX_PLAYOUTS:,}, like search@100 (or "
                             "search@100:eager for eager playouts; the policies: greedy, "
                             "lookahead, bottleneck, eager or random)")
        policy = policy.strip() or "greedy"
        try:
            policy_factory(policy)
        except ValueError:  # the name as it was written, so the person finds it
            raise ValueError(f"{quoted(name)}: unknown playout policy {quoted(policy)}: use "
                             "greedy, lookahead, bottleneck, eager or random") from None
        spec = BotSpec(key, f"Search {budget}", "", "", 3, "search", int(budget),
                       playout_policy=policy)
        bot = spec.make(seed, rules)
        one = budget == "1"
        bot.description = (f"Search with {budget} {policy} playout{'' if one else 's'} per "
                           f"decision (búsqueda con {budget} reparto{'' if one else 's'} por "
                           "jugada).")
        return bot
    if key not in BOTS:
        raise ValueError(f"unknown bot {quoted(name)}; the bots are: {', '.join(BOTS)} "
                         "(and search@N)")
    return BOTS[key].make(seed, rules)
