"""Tables: seats, tokens, one game at a time, the buy window, timers and bots.

The server is authoritative. All changes to a table happen under its lock, one at a time;
each accepted action is verified, written to the store, then applied. Only ``Game.view``
output is sent to a connection (see :meth:`Table.state_for`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar, cast

from ..actions import Action, ActionError, Agregar, Buy, Discard, Draw, Swap
from ..bots import Bot, RandomBot
from ..cards import Card
from ..engine import Game, View
from ..errors import IllegalAction
from ..record import FORMAT, replay
from ..rules import PRESETS, Contract, RulesError, RuleSet
from ..solver import missing_cards
from ..store import Store, StoredTable
from ..store.postgres import PostgresStore, TableMoved
from .cluster import unavailable

if TYPE_CHECKING:
    from .cluster import Cluster, Owner

__all__ = ["Table", "TableManager", "TableError", "make_bot", "bot_names", "match_winners"]

log = logging.getLogger("carioca.server")

_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
TURN_TIMERS = (0, 30, 60, 90)
LOG_TAIL = 40
STEAL_TIMERS = (5, 10, 15)
MATCH_GAMES = (1, 3, 5)
"""A table plays one game at a time (1: each a game of its own, the tally running on through
every rematch), or a match: the best of 3 or of 5 (:func:`match_winners`)."""
T = TypeVar("T")
RETRY_FIRST, RETRY_MAX = 1.0, 30.0  # seconds before retrying a failed automatic move
UNAVAILABLE = "the tables cannot be reached just now; try again in a moment"
"""What a player is told while PostgreSQL or Redis does not answer."""
MOVED = "the table moved to another server: reconnecting"
"""What a connection to a table this process let go is told before it is closed."""
SWEEP = 50
"""Unserved games one process takes over at a time, every third of a lease (the others take
the rest; a player who asks for a game has it taken over at once)."""
DAY = 86_400.0
KEEP = {"lobby": 1 * DAY, "playing": 30 * DAY, "over": 7 * DAY, "broken": 7 * DAY}
"""How long a table nobody is at is kept after its last change, by its status (seconds):
a lobby nobody started a day, a finished game a week (to look at it, or play a rematch), a
game left half-way a month. Then it is deleted, from memory and from the store, and its
code names no table."""
RESTORE_GRACE = 3600.0
"""Seconds a table read from the store (a restart, a take-over) is kept at least, for its
pages to come back."""
EXPIRY_EVERY = 60.0
"""Seconds between two looks for tables to delete."""
TOUCH_EVERY = 600.0
"""Seconds a table's use (moves, pages, requests) may go unwritten to the store: after a
restart, and for another server looking for unserved idle tables, the store's time of last
use is this late at most."""
THINK_LIMIT = 30.0
"""Seconds a bot may think about one move or buy. A named bot takes well under a second
(docs/bots.md); one that takes longer is played for (a buy: it passes), and the bots' thread
it holds is left to it, so that one stuck bot cannot stop every bot of the server. Until
that thought ends, the bot is not asked again: it is played for at once."""


class TableError(ValueError):
    """A request the table refuses, with a stable code."""

    def __init__(self, code: str, message: str, status: int = 400, *,
                 url: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.url = url
        """Where the table is served, when another server process serves it."""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


GAME_SEED_BITS = 128
"""A table's game seed: every round's seed is drawn from it (``Game.new``), so it must be too
large to guess from a revealed round seed (a 32-bit one was found in minutes). Being wider
than 32 bits, it also gives 53-bit round seeds (``round_seed``), which a seat cannot find by
trying every one against its own hand."""


def match_winners(games: int, wins: Sequence[int], played: int) -> list[int] | None:
    """The seats that won the match, once it is decided (None: it goes on, and always with
    ``games`` 1, where there is no match, only the tally).

    ``wins`` counts the games each seat has won in the match so far (a shared game counts for
    each of its winners), ``played`` the games it has had. The match is won by the first seats
    with more than ``games / 2`` wins: they passed the mark with the same game (a match is
    decided after each game, and a decided one is not played on), so they share it. If
    ``games`` games end without that, the seats with the most wins win it (shared if tied)."""
    if games <= 1 or not wins:
        return None
    over_half = [seat for seat, won in enumerate(wins) if 2 * won > games]
    if over_half:
        return over_half
    if played >= games:
        most = max(wins)
        return [seat for seat, won in enumerate(wins) if won == most]
    return None


def round_salt(game_seed: int | None, number: int) -> str:
    """The secret mixed into round ``number``'s commitment, revealed with its seed: without
    it, a 32-bit round seed could be found from its hash by trying every one (a table's are
    53 bits now; the salt stays, and costs nothing)."""
    return hashlib.sha256(f"carioca:salt:{game_seed}:{number}".encode()).hexdigest()[:32]


def seed_hash(seed: int | None, salt: str = "") -> str | None:
    """The commitment shown while a round is played: SHA-256 of ``salt:seed`` (the seed as
    decimal text); with no salt, of the seed alone."""
    if seed is None:
        return None
    text = f"{salt}:{seed}" if salt else str(seed)
    return hashlib.sha256(text.encode()).hexdigest()


LANGS = ("es", "en", "de", "sv")
"""The languages of the table: its page, the bots' lines and the coach's hints."""


def bot_names() -> list[dict[str, Any]]:
    """The bots a host may seat, with their title and a line about each in Spanish, English,
    German and Swedish. ``title`` is the English one, which a bot's seat is named after (the
    log, the sheet and the record keep it); the pages show ``titles`` in their language."""
    try:
        from ..bots import levels  # written with the search bot; optional until then

        return [{"name": b.name, "title": b.title, "level": b.level,
                 "titles": {lang: b.title_in(lang) for lang in LANGS},
                 "description": {lang: b.introduce(lang) for lang in LANGS}}
                for b in levels.BOTS.values()]
    except (ImportError, AttributeError):
        return [{"name": "random", "description": {"es": "Juega cualquier jugada legal.",
                                                   "en": "Plays any legal move."}}]


def bot_title(name: str) -> str:
    """The title the bot ``name`` sits under ("Tía Chela"); a name no bot has is refused."""
    for b in bot_names():
        if b["name"] == name:
            return str(b.get("title", name))
    raise TableError("bad_bot", f"there is no bot called {name!r}")


def make_bot(name: str, seed: int, rules: RuleSet | None = None) -> Bot:
    """The bot ``name`` for a table of ``rules`` (the planners need them: they are handed the
    legal actions as a plain list)."""
    try:
        from ..bots import levels

        return levels.make_bot(name, seed, rules)
    except (ImportError, AttributeError):
        return RandomBot(seed)


@dataclass
class Seat:
    name: str = ""
    token_hash: str | None = None
    bot: str | None = None
    connected: int = 0
    stand_in: str | None = None
    """A bot playing for the person of this seat while they are away (they take the seat
    back by coming back)."""

    @property
    def taken(self) -> bool:
        return self.bot is not None or self.token_hash is not None


@dataclass(eq=False)
class _Letter:
    """One message waiting in a connection's outbox."""

    msg: dict[str, Any] | None
    """None: nothing to send (the close that follows a connection's last message)."""
    state: bool = False
    """A state: replaced by a newer one while it waits at the end of the outbox."""
    last: bool = False
    """The socket is closed once it is sent."""
    done: asyncio.Future[None] | None = None
    """Set once it is sent, or the connection is dropped first (a last one: once closed)."""


def _done(letter: _Letter) -> None:
    # Its waiter may have been cancelled (the socket's handler stopped), and the future with it.
    if letter.done is not None and not letter.done.done():
        letter.done.set_result(None)


@dataclass(eq=False)
class Connection:
    """One open WebSocket: the seat it acts for (None: a spectator) and how to send.

    Everything sent on the socket once it is at a table goes through its outbox, in order,
    and is written by a task of its own (:meth:`TableManager.open`): the background loop of
    every table never waits on a client that stopped reading. A state still waiting there is
    replaced by a newer one (a state is whole: only the newest matters); a reply or an error
    is never dropped, nor put ahead of a state queued before it."""

    seat: int | None
    send: Callable[[dict[str, Any]], Awaitable[None]]
    lang: str = "es"
    close: Callable[[], Awaitable[None]] | None = None
    closing: bool = field(default=False, init=False)
    """Nothing more is taken: its last message is queued, or its socket failed or closed."""
    _outbox: deque[_Letter] = field(default_factory=deque, init=False, repr=False)
    _ready: asyncio.Event = field(default_factory=asyncio.Event, init=False, repr=False)
    _writer: asyncio.Task[None] | None = field(default=None, init=False, repr=False)

    def post(self, msg: dict[str, Any]) -> asyncio.Future[None]:
        """Queue ``msg`` after everything queued: the future is done once it is sent (or
        the connection is dropped first)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue(_Letter(msg, done=done))
        return done

    def post_state(self, state: dict[str, Any]) -> None:
        """Queue a state; one still waiting at the end of the outbox is replaced by it."""
        if self.closing:
            return
        if self._outbox and self._outbox[-1].state:
            waiting = self._outbox[-1].msg or {}
            if waiting.get("played_for") is not None and state.get("played_for") is None:
                # "The timer played for you" is news the replaced state carried: keep it.
                state = {**state, "played_for": waiting["played_for"]}
            self._outbox[-1] = _Letter(state, state=True)
            return
        self._queue(_Letter(state, state=True))

    async def deliver(self, msg: dict[str, Any]) -> None:
        """Queue ``msg`` and wait until it is sent (or the connection dropped): the handler
        reads a client's next message once its answer to the last has gone, so a client that
        sends without reading fills no outbox."""
        await self.post(msg)

    def finish_soon(self, msg: dict[str, Any] | None = None) -> None:
        """Queue ``msg`` as the last message (unless one is queued already): once it is sent
        the socket is closed, and nothing more is taken."""
        if not self.closing:
            self._queue(_Letter(msg, last=True))
            self.closing = True

    async def finish(self, msg: dict[str, Any] | None = None) -> None:
        """:meth:`finish_soon`, and wait until the writer has sent it and closed the socket
        (each within :data:`SEND_LIMIT`)."""
        self.finish_soon(msg)
        writer = self._writer
        if writer is not None:
            # asyncio.wait, not the task: the handler's cancel must not cancel the writer.
            await asyncio.wait([writer])
        elif self.close is not None:  # no writer (the server has stopped): close it here
            await _close(self.close)

    def hang_up(self) -> None:
        """The socket is gone: its writer stops, and nothing more is queued."""
        if self._writer is not None:
            self._writer.cancel()
        self._shut()

    def _queue(self, letter: _Letter) -> None:
        if self.closing:
            _done(letter)
            return
        self._outbox.append(letter)
        self._ready.set()

    async def _next(self) -> _Letter:
        while not self._outbox:
            self._ready.clear()
            await self._ready.wait()
        return self._outbox.popleft()

    def _shut(self) -> None:
        self.closing = True
        while self._outbox:
            _done(self._outbox.popleft())


@dataclass
class Window:
    """A buy window: opened by a discard, answered by the seats that may buy until its
    deadline (the steal timer), and decided only when the player to draw draws (ruling 19:
    they have first claim, by drawing the card from the pozo)."""

    key: tuple[int, int]
    eligible: set[int]
    deadline: float
    claims: dict[int, bool] = field(default_factory=dict)
    closed: bool = False
    """The steal timer ran out: no more claims; those made wait for the draw."""
    opened: int = 0
    """The table's version when the window opened: a pass sent from any later state is meant
    for this window, however the table moved since (another seat's claim, a connection)."""

    @property
    def answered(self) -> bool:
        return self.eligible <= set(self.claims)


class Table:
    """A table of the online game."""

    def __init__(self, manager: TableManager, code: str, meta: dict[str, Any]) -> None:
        self.manager = manager
        self.code = code
        self.preset: str = meta["preset"]
        self.options: dict[str, Any] = meta.get("options", {})
        self.rules = RuleSet.preset(self.preset, **self.options)
        self.seats = [Seat(s.get("name", ""), s.get("token_hash"), s.get("bot"),
                           stand_in=s.get("stand_in")) for s in meta["seats"]]
        self.host: int = meta.get("host", 0)
        self.status: str = meta.get("status", "lobby")
        self.turn_timer: int = meta.get("turn_timer", 0)
        self.steal_timer: int = meta.get("steal_timer", 10)
        self.hints: bool = meta.get("hints", True)
        self.game_no: int = meta.get("game", 0)
        self.game_seed: int | None = meta.get("game_seed")
        self.match_games: int = meta.get("match", 1)
        """Games in the table's match: 1 (one game), 3 or 5 (the best of them)."""
        saved_wins = meta.get("match_wins") or []
        self.match_wins: list[int] = [int(saved_wins[i]) if i < len(saved_wins) else 0
                                      for i in range(len(self.seats))]
        """The games each seat has won in the match so far (with one game: since the table
        was made); a shared win counts for each winner."""
        self.match_played: int = meta.get("match_played", 0)
        """The games the match has had so far (finished ones)."""
        self.game: Game | None = None
        # Counted from the clock (in microseconds: a whole number in the page's JSON until the
        # 2250s), so that a table restored after a restart, or taken over by another server,
        # never takes a number from before as current: the count does not live in the store.
        self.version = time.time_ns() // 1000
        """Counts changes to the game and the seats; an action names it to be accepted."""
        self.game_version = self.version
        """The version of the last change that makes a move decided before it stale (a
        stand-in coming or going changes no one's choice: else any player could keep the one
        to act from moving by switching a bot on and off)."""
        self.presence = 0
        """Counts connections coming and going: shown to all, but never makes a move stale."""
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self.window: Window | None = None
        self.turn_deadline: float | None = None
        self._played_for: tuple[int, int] | None = None  # (seat, version then)
        self._timed: tuple[int, int, int | None] | None = None  # the turn (and draw) it counts
        self._timed_until = 0.0  # and when its time runs out, whoever plays it meanwhile
        self._saved_window: dict[str, Any] | None = meta.get("window")
        self._bots: dict[int, Bot] = {}
        self._last_round_end: dict[str, Any] | None = None
        self._deals_saved = 0
        """How many of the current game's deals the store holds."""
        self.gone = False
        """This process no longer serves the table (:meth:`TableManager.let_go`)."""
        self.touched = time.time()
        """When anything last happened at the table (epoch seconds): a change, a connection
        coming or going. A table nobody is at is deleted after :data:`KEEP`."""
        self.touch_stored = self.touched
        """The time of last use the store holds (written every :data:`TOUCH_EVERY`)."""

    # ----------------------------------------------------------------- settings

    def meta(self) -> dict[str, Any]:
        return {
            "preset": self.preset, "options": self.options, "host": self.host,
            "seats": [{"name": s.name, "token_hash": s.token_hash, "bot": s.bot,
                       "stand_in": s.stand_in} for s in self.seats],
            "status": self.status, "turn_timer": self.turn_timer,
            "steal_timer": self.steal_timer, "hints": self.hints, "game": self.game_no,
            "game_seed": self.game_seed, "window": self._window_meta(),
            "match": self.match_games, "match_wins": list(self.match_wins),
            "match_played": self.match_played,
        }

    def info(self) -> dict[str, Any]:
        """What anyone with the code may know about the table."""
        return {
            "code": self.code, "status": self.status, "host": self.host,
            "preset": self.preset, "options": self.options,
            "seats": [{"seat": i, "name": s.name, "bot": s.bot, "connected": s.connected > 0,
                       "taken": s.taken, "stand_in": s.stand_in}
                      for i, s in enumerate(self.seats)],
            "turn_timer": self.turn_timer, "steal_timer": self.steal_timer,
            "hints": self.hints, "game": self.game_no, "match": self.match_info(),
            "version": self.version,
        }

    def match_info(self) -> dict[str, Any]:
        """The match: its length, the games won by each seat, the games finished, the game
        being played (or just over) counted from 1, and its winners once it is decided."""
        return {"games": self.match_games, "wins": list(self.match_wins),
                "played": self.match_played,
                "current": self.match_played + (0 if self.status == "over" else 1),
                "winners": self.match_winners()}

    def match_winners(self) -> list[int] | None:
        """The seats that won the match (None: undecided, or a table of one game)."""
        return match_winners(self.match_games, self.match_wins, self.match_played)

    def _game_over(self) -> None:
        """The game has ended (its last move is stored): the table is over, and the game's
        winners count in the match."""
        assert self.game is not None
        self.status = "over"
        for seat in self.game.score_sheet().winners:
            self.match_wins[seat] += 1
        self.match_played += 1

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        digest = _hash(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                return i
        return None

    def _store(self) -> Store:
        """The store, for this table's writes; refused once this process has let the table
        go (a bot's move or a timer still under way on it must not write over whoever
        serves the table now, this process included, should it take the table back)."""
        if self.gone:
            raise TableMoved(self.code, self)
        return self.manager.store

    def _save(self) -> None:
        self._store().save_table(self.code, self.meta())

    # ----------------------------------------------------------------- lobby

    def join(self, name: str, seat: int | None = None) -> tuple[int, str]:
        if self.status != "lobby":
            raise TableError("started", "the game has started; you can watch", 409)
        free = [i for i, s in enumerate(self.seats) if not s.taken]
        if seat is None:
            if not free:
                raise TableError("full", "the table is full", 409)
            seat = free[0]
        if not 0 <= seat < len(self.seats):
            raise TableError("bad_seat", f"there is no seat {seat} (0 to {len(self.seats) - 1})")
        if seat not in free:
            raise TableError("seat_taken", f"seat {seat} is taken", 409)
        token = secrets.token_urlsafe(24)
        self._seat_saved(seat, Seat(self._unique_name(clean_name(name) or f"Jugador {seat + 1}",
                                                      seat), _hash(token)))
        return seat, token

    def _seat_saved(self, seat: int, place: Seat) -> None:
        """Seat ``place`` if the store takes it; else the seat stays as it was (a write that
        fails must not leave a seat taken with a token nobody was given)."""
        before = self.seats[seat]
        self.seats[seat] = place
        self.version += 1
        try:
            self._save()
        except BaseException:
            self.seats[seat] = before
            self.version -= 1
            raise

    def set_bot(self, seat: int, bot: str | None) -> None:
        if self.status != "lobby":
            raise TableError("started", "bots are seated before the game starts", 409)
        if not 0 <= seat < len(self.seats) or seat == self.host:
            raise TableError("bad_seat", "that seat cannot take a bot")
        title = bot_title(bot) if bot is not None else ""
        current = self.seats[seat]
        if current.token_hash is not None and (current.connected or bot is None):
            raise TableError("seat_taken", "a person sits there", 409)
        # A person who joined and left before the game gives the seat up to a bot.
        self._seat_saved(seat, Seat(self._unique_name(title, seat) if bot else "", None, bot))

    def may_host(self, seat: int | None) -> bool:
        """Whether ``seat`` may do the host's part: the host, or any player at the table
        while the host has no connection."""
        if seat is None:
            return False
        return seat == self.host or not self.seats[self.host].connected

    def _unique_name(self, title: str, seat: int) -> str:
        """``title`` (a person's name, or a bot's title: "Tía Chela"), numbered when another
        seat has it already ("Ana 2", "Tía Chela 2"): the log, the sheet and the record tell
        players apart by name."""
        taken = {name_look(s.name) for i, s in enumerate(self.seats) if i != seat}
        name, n = title, 1
        while name_look(name) in taken:
            n += 1
            name = f"{title} {n}"
        return name

    def start(self) -> None:
        if self.status == "playing":
            raise TableError("started", "the game has started already", 409)
        if not all(s.taken for s in self.seats):
            raise TableError("empty_seats", "every seat needs a player or a bot", 409)
        before = (self.game_no, self.game_seed, self.game, self.status, self._bots,
                  self._last_round_end, self._deals_saved, list(self.match_wins),
                  self.match_played)
        if self.status in ("over", "broken"):
            # A new number: a broken game's stored moves stay under its own, not read back
            # into this one at the next restart.
            self.game_no += 1
            if self.status == "over" and self.match_winners() is not None:  # a new match
                self.match_wins = [0] * len(self.seats)
                self.match_played = 0
        self.game_seed = secrets.randbits(GAME_SEED_BITS)
        names = [s.name for s in self.seats]
        self.game = Game.new(self.rules, names, seed=self.game_seed)
        self._last_round_end = None  # a rematch does not show the last game's round end
        self.status = "playing"
        self._bots = self._seated_bots()
        self._deals_saved = 0
        try:
            self._save()
        except BaseException:
            # Not started after all: the table stays as the store has it.
            (self.game_no, self.game_seed, self.game, self.status, self._bots,
             self._last_round_end, self._deals_saved, self.match_wins,
             self.match_played) = before
            raise
        self._save_deals()  # should this fail, the next write makes it good (or a restart)
        self._after_change()

    def _seated_bots(self) -> dict[int, Bot]:
        """The bots of the bot seats, and those standing in for a person who is away."""
        names = {i: s.bot or s.stand_in for i, s in enumerate(self.seats)}
        return {i: make_bot(name, (self.game_seed or 0) + i, self.rules)
                for i, name in names.items() if name is not None}

    def stand_in(self, seat: int, bot: str | None) -> None:
        """A bot plays for the person of ``seat`` while they are away, so that the table
        goes on (None: nobody stands in any more). The person takes the seat back by coming
        back (:meth:`take_back`)."""
        if not 0 <= seat < len(self.seats) or self.seats[seat].token_hash is None:
            raise TableError("bad_seat", "only a person's seat can have a bot stand in")
        place = self.seats[seat]
        if place.stand_in == bot:
            return  # nothing changes: no one's move becomes stale
        if bot is not None:
            if self.status != "playing":
                raise TableError("not_playing", "a bot stands in only during a game", 409)
            if place.connected:
                raise TableError("connected", f"{place.name} is at the table", 409)
            bot_title(bot)  # an unknown bot says so
        was = place.stand_in
        place.stand_in = bot
        try:
            self._save()
        except BaseException:
            place.stand_in = was  # refused by the store: as it was, bots and all
            raise
        if bot is not None:
            self._bots[seat] = make_bot(bot, (self.game_seed or 0) + seat, self.rules)
        else:
            self._bots.pop(seat, None)
        self._after_change(reopen=False, stales=False)

    def take_back(self, seat: int) -> None:
        """The person of ``seat`` is back: the bot standing in for them stops."""
        self.stand_in(seat, None)

    # ----------------------------------------------------------------- restoring

    def restore(self, stored: StoredTable) -> None:
        """Rebuild the current game by replaying what the store holds."""
        if self.status == "playing" and not stored.rounds and self.game_seed is not None:
            # Started, and stopped before the first deal was stored: it is dealt again from
            # the game's seed.
            self.game = Game.new(self.rules, [s.name for s in self.seats],
                                 seed=self.game_seed)
            self._deals_saved = 0
            self._save_deals()
            self._bots = self._seated_bots()
            self._after_change()
            return
        if self.status == "lobby" or not stored.rounds:
            return
        doc = {"format": FORMAT, "rules": {"preset": self.preset, "options": self.options},
               "players": [s.name for s in self.seats], "rounds": stored.rounds}
        result = replay(doc)
        if result.error is not None or result.game is None:
            log.error("table %s cannot be restored: %s", self.code,
                      result.error.message if result.error else "no game")
            self.status = "broken"
            return
        game = result.game
        game.seed = self.game_seed
        self.game = game
        self._deals_saved = len(stored.rounds)
        if game.results:  # how the last round ended stays on the screen, as before the restart
            self._note_round_end(len(game.results))
        if game.seat_to_act is None and not game.is_over:
            # The store holds the action that ended a round but not the next deal yet: it
            # is dealt again from the game's seed.
            game.start_round()
            self._save_deals()
        if game.is_over and self.status != "over":
            self._game_over()  # its last move was stored, the table's status not yet
            self._save()
        self._bots = self._seated_bots()
        self._after_change()
        self._restore_claims()

    def _window_meta(self) -> dict[str, Any] | None:
        """The open window's claims, stored: a claim acknowledged waits for the draw, which
        may come after a restart."""
        window = self.window
        if window is None or not window.claims:
            return None
        return {"game": self.game_no, "key": list(window.key), "closed": window.closed,
                "claims": {str(s): wants for s, wants in window.claims.items()}}

    def _restore_claims(self) -> None:
        saved, window = self._saved_window, self.window
        self._saved_window = None
        if not saved or window is None or saved.get("game") != self.game_no \
                or tuple(saved.get("key", ())) != window.key:
            return
        window.claims = {int(s): bool(w) for s, w in saved.get("claims", {}).items()
                         if int(s) in window.eligible}
        window.closed = bool(saved.get("closed"))

    # ----------------------------------------------------------------- playing

    def _save_deals(self) -> None:
        """Store the deals not stored yet (the next round's, dealt by the action that ended
        a round), in order: a round's actions are never stored before its deal."""
        game = self.game
        assert game is not None
        while self._deals_saved < len(game.deals):
            number = self._deals_saved + 1
            deal = game.deals[number - 1]
            self._store().save_round(self.code, self.game_no, number, deal.seed,
                                     deal.to_json())
            self._deals_saved = number

    def _commit(self, action: Action) -> None:
        """Verify, store, then apply one action (the lock is held)."""
        game = self.game
        assert game is not None
        game.verify(action)
        self._save_deals()  # a deal a failed write left behind goes first
        number = len(game.deals)
        seq = len(game.log[-1])
        self._store().append_action(self.code, self.game_no, number, seq, action.to_json())
        game.apply(action)
        # The action is stored and played: from here a failed write must not say otherwise.
        # The next round's deal is stored before the next action (or dealt again from the
        # game's seed after a restart); the game's end is read off the record at a restart.
        if game.is_over:
            self._game_over()
        try:
            self._save_deals()
            if game.is_over:
                self._save()
        except TableMoved:
            raise
        except Exception:  # noqa: BLE001 - logged; made good by the next write
            log.exception("table %s: the move is stored, what follows it is not yet", self.code)
        if len(game.results) >= number and self._last_round_end_for(number) is None:
            self._note_round_end(number)

    def _last_round_end_for(self, number: int) -> dict[str, Any] | None:
        end = self._last_round_end
        return end if end is not None and end["round"] == number else None

    def _note_round_end(self, number: int) -> None:
        assert self.game is not None
        result = self.game.results[number - 1]
        self._last_round_end = {
            "round": number, "went_out": result.went_out, "scores": list(result.scores),
            "hands": [[str(c) for c in h] for h in result.hands],
            "seed": self.game.deals[number - 1].seed,
        }

    def apply(self, seat: int | None, raw: Any, version: int | None) -> None:
        """An action from a seat (the lock is held)."""
        self._check_version(version)
        if seat is None:
            raise TableError("spectator", "spectators cannot play; take a seat to play")
        game = self._game()
        try:
            action = Action.from_json(raw, game.n)
        except ActionError as exc:
            raise TableError("bad_action", str(exc)) from None
        if action.seat != seat:
            raise TableError("not_your_seat", "you can only act for your own seat")
        if isinstance(action, Buy):
            self._claim(seat, True)
            return
        self._draw_or_act(action)
        self._after_change()

    def pass_buy(self, seat: int | None, version: int | None) -> None:
        window = self.window
        if window is None or version is None or not window.opened <= version <= self.version:
            self._check_version(version)  # a pass for a window since gone, or unknown
        if seat is None:
            raise TableError("spectator", "spectators cannot play")
        # After the steal timer a pass is what happened anyway: nothing to refuse.
        if window is None or seat not in window.eligible:
            if self.game is not None and self.game.can_apply(Buy(seat)):
                return  # the timer closed the window unclaimed
        elif window.closed or time.time() >= window.deadline:
            return
        self._claim(seat, False)

    def undo(self, seat: int | None, version: int | None) -> None:
        self._check_version(version)
        game = self._game()
        if seat is None or seat != game.seat_to_act:
            raise TableError("not_your_turn", "only the player whose turn it is may undo")
        number = len(game.deals)
        seq = len(game.log[-1]) - 1
        undone = game.log[-1][-1] if seq >= 0 else None
        game.undo(seat)
        try:
            self._store().delete_action(self.code, self.game_no, number, seq)
        except BaseException:
            if undone is not None:
                game.apply(undone)  # the store keeps the move: so does the game
            raise
        self._after_change()

    def current(self, version: int) -> bool:
        """Whether a choice made on a screen of ``version`` still stands: no change to the
        game since (a stand-in or a connection does not count), and no version to come."""
        return self.game_version <= version <= self.version

    def _check_version(self, version: int | None) -> None:
        if version is not None and not self.current(version):
            raise TableError("stale_version", "the table changed; your screen is being updated")

    def _game(self) -> Game:
        if self.game is None or self.status != "playing":
            raise TableError("not_playing", "no game is being played at this table")
        return self.game

    # ----------------------------------------------------------------- the buy window

    def _open_window_if_any(self) -> None:
        game = self.game
        if game is None or self.status != "playing" or game.rules.buying == "off":
            self.window = None
            return
        view = game.view(None)
        key = (view.round, view.turn)
        if not view.buy_window:
            self.window = None
            return
        if self.window is not None and self.window.key == key:
            return
        eligible = set(game.buyers())
        if not eligible:
            self.window = None
            return
        # The bots among ``eligible`` answer from the background loop, in a worker thread
        # (a search bot may think for a second): see ``bot_buy_questions``.
        self.window = Window(key, eligible, time.time() + self.steal_timer, opened=self.version)

    def bot_buy_questions(self) -> tuple[tuple[int, int], list[tuple[int, View, list[Action]]]]:
        """The open window's key and, for each bot that may buy its card and has not answered
        yet, its seat, view and legal actions (the lock is held)."""
        window, game = self.window, self.game
        if window is None or game is None:
            return (-1, -1), []
        return window.key, [(s, game.view(s), list(game.legal_actions(s)))
                            for s in self._unanswered_bots()]

    def _unanswered_bots(self) -> list[int]:
        """The bots that may buy the open window's card and have not answered yet."""
        window = self.window
        if window is None or window.closed:
            return []
        return sorted(s for s in window.eligible & set(self._bots) if s not in window.claims)

    def ask_bot_buy(self, seat: int, view: View, legal: list[Action]) -> bool:
        """Whether the bot at ``seat`` buys; False if it failed. Like :meth:`ask_bot` it reads
        only the view and the list, so it may think in another thread."""
        wants = getattr(self._bots[seat], "wants_to_buy", None)
        if wants is None:
            return False
        try:
            return bool(wants(view, legal))
        except Exception:  # noqa: BLE001 - a bot's fault must not stop the table: it passes
            log.exception("table %s: the bot at seat %d failed to answer a buy", self.code, seat)
            return False

    def bot_buy_answers(self, key: tuple[int, int], answers: dict[int, bool]) -> None:
        """Record the bots' answers to the window ``key`` (the lock is held); answers to a
        window that has closed meanwhile are dropped. The claims wait, as they did when
        bots answered at once, for the player to draw (who has first claim, by drawing from
        the pozo) or for a bot to move. Nothing anyone sees changes, so the version stays:
        a move or claim a person sent meanwhile is not refused as stale."""
        window = self.window
        if window is None or window.key != key:
            return
        for seat, wants in answers.items():
            if seat in window.eligible and seat not in window.claims:
                window.claims[seat] = wants
        self.manager.poke(self)

    def _answer_bots_now(self) -> None:
        """The window closes with bots that have not answered: they pass. Every way a window
        closes asks them first (:meth:`TableManager.settle_buys`, in the bots' thread), so
        this is only a guard: a bot never thinks on the event loop, where a slow or stuck
        one would stop every table."""
        key, questions = self.bot_buy_questions()
        if questions:
            log.warning("table %s: the buy window closed before bots %s answered: they pass",
                        self.code, [s for s, _, _ in questions])
            self.bot_buy_answers(key, {s: False for s, _, _ in questions})

    def may_claim(self, seat: int) -> bool:
        """Whether ``seat`` may still claim the open window's card: it may buy it, has not
        answered, and the steal timer runs (what :meth:`_claim` refuses otherwise)."""
        window = self.window
        return (window is not None and seat in window.eligible and not window.closed
                and time.time() < window.deadline and seat not in window.claims)

    def _claim(self, seat: int, wants: bool) -> None:
        window = self.window
        if window is None or seat not in window.eligible:
            if self.game is not None:
                self.game.verify(Buy(seat))  # says why in the rules' words
                # The rules would still sell it: the steal timer closed the window unclaimed.
                raise TableError("too_late", "the time to buy that card is over")
            raise TableError("no_window", "there is no card to buy now")
        if window.closed or time.time() >= window.deadline:
            raise TableError("too_late", "the time to buy that card is over")
        if seat in window.claims:
            raise TableError("answered", "you have answered already")
        window.claims[seat] = wants
        # The claim waits for the player to draw, who has first claim (ruling 19), maybe
        # over a restart of the server. It changes no hand, no pozo and no move anyone may
        # make: the draw and the other claims sent from the screen before it still stand.
        try:
            self._save()
        except BaseException:
            del window.claims[seat]  # not stored, not taken: the player may answer again
            raise
        self._after_change(reopen=False, stales=False)

    def _end_claims(self) -> None:
        """The steal timer ran out: bots that have not answered pass, no more claims are
        taken, and a window nobody claimed is gone."""
        window = self.window
        if window is None or window.closed:
            return
        self._answer_bots_now()
        window.closed = True
        if not any(window.claims.values()):
            self.window = None

    def _resolve_window(self) -> None:
        """Give the card to the nearest claimant after the player to draw."""
        window = self.window
        game = self.game
        self.window = None
        if window is None or game is None or game.seat_to_act is None:
            return
        first = game.seat_to_act
        wanting = sorted((s for s, w in window.claims.items() if w),
                         key=lambda s: (s - first) % game.n)
        for seat in wanting:
            try:
                self._commit(Buy(seat))
            except IllegalAction:
                continue
            return

    def _close_window(self, source: str) -> None:
        if self.window is None:
            return
        if source == "pozo":
            self.window = None  # the player whose turn it is has first claim
            return
        self._answer_bots_now()
        if self.window is not None:
            self._resolve_window()

    def bots_to_answer(self) -> bool:
        """Whether a bot that may buy the open window's card has not answered yet."""
        return bool(self._unanswered_bots())

    def window_pending(self) -> bool:
        window = self.window
        return (window is not None and not window.closed and not window.answered
                and time.time() < window.deadline)

    def claims_due(self, now: float) -> bool:
        """Whether the open window's steal timer has run out (its claims end now)."""
        window = self.window
        return window is not None and not window.closed and now >= window.deadline

    # ----------------------------------------------------------------- after each change

    def _after_change(self, reopen: bool = True, stales: bool = True) -> None:
        self.version += 1
        if stales:
            self.game_version = self.version
        if reopen:
            self._open_window_if_any()
        game = self.game
        playing = (self.turn_timer and self.status == "playing" and game is not None
                   and game.seat_to_act is not None)
        if playing and game is not None:
            # A fresh countdown when a turn starts and once more after its draw; not for the
            # moves after the draw (a bajar then undone, again and again, would hold the table
            # for ever), nor a claim, a stand-in or a steal timer: a bot standing in and
            # stepping out again leaves the person's time as it was.
            draws = sum(isinstance(a, Draw) for a in game.log[-1]) if game.log else 0
            moment = (len(game.deals), draws, game.seat_to_act)
            if moment != self._timed:
                # The round's first turn waits while the players read how the last one ended.
                fresh = bool(game.log) and not game.log[-1]
                self._timed_until = (time.time() + self.turn_timer
                                     + (READING_TIME if fresh else 0))
                self._timed = moment
            human_turn = game.seat_to_act not in self._bots
            self.turn_deadline = self._timed_until if human_turn else None
        else:
            self.turn_deadline = None
            self._timed = None
        self.manager.poke(self)

    def bot_to_move(self) -> int | None:
        game = self.game
        if game is None or self.status != "playing":
            return None
        seat = game.seat_to_act
        if seat is None or seat not in self._bots or self.window_pending():
            return None
        return seat

    def bot_question(self, seat: int) -> tuple[View, list[Action]] | None:
        """What the bot at ``seat`` is asked now: its view and legal actions (None: nothing
        to ask). A buy window still open is decided by the bot's draw, as by a person's: the
        player to draw has first claim (ruling 19). The lock is held."""
        game = self._game()
        legal = list(game.legal_actions(seat))
        return (game.view(seat), legal) if legal else None

    def bot_at(self, seat: int) -> Bot:
        """The bot in ``seat``."""
        return self._bots[seat]

    def ask_bot(self, seat: int, view: View, legal: list[Action]) -> Action | None:
        """The bot's choice, or None if it failed. It reads only the view and the list, so it
        may think in another thread while the server serves the other tables."""
        try:
            return self._bots[seat].choose(view, legal)
        except Exception:  # noqa: BLE001 - a bot's fault must not stop the table
            log.exception("table %s: the bot at seat %d failed", self.code, seat)
            return None

    def bot_answer(self, seat: int, legal: list[Action], action: Action | None) -> None:
        """Play the bot's choice (the lock is held); a failed or illegal one is played for as
        the turn timer would, so the game goes on."""
        if action is None or action not in legal:
            self._play_for(seat)
            return
        self._draw_or_act(action)
        self._after_change()

    def _draw_or_act(self, action: Action) -> None:
        """Play ``action``; a draw first decides the buy window. A buy that ended the round
        (it left an empty mazo that the pozo cannot rebuild) takes the draw with it: there is
        no turn left to draw in."""
        game = self._game()
        if isinstance(action, Draw) and self.window is not None:
            game.verify(action)  # a draw the rules refuse decides nothing
            window = self.window
            if not self._decide_window(action.source, action.seat):
                return
            try:
                self._commit(action)
            except BaseException:
                if action.source == "pozo":
                    # Taking the pozo card voided the claims, but it was not taken: they
                    # stand, for the draw made instead (the store still holds them).
                    self.window = window
                    raise
                # The window is decided (a buy may be played and stored) though the draw is
                # not: every screen hears of it, and a draw sent from before it is stale.
                self._after_change()
                raise
            return
        self._commit(action)

    def _decide_window(self, source: str, seat: int) -> bool:
        """Decide the buy window by ``seat``'s draw from ``source``; whether that draw may
        still be played: a buy whose penalty card ended the round ends the turn with it (and
        the next round's first turn, maybe the same seat's, is not this draw's)."""
        game = self._game()
        deals = len(game.deals)
        self._close_window(source)
        return (len(game.deals) == deals and not game.is_over
                and game.seat_to_act == seat and game.phase == "draw")

    def on_timers(self) -> None:
        """Deadlines that ran out (the lock is held)."""
        now = time.time()
        if self.claims_due(now):
            self._end_claims()
            self._after_change(reopen=False, stales=False)  # no move changes: as a claim
        game = self.game
        if self.turn_deadline is not None and now >= self.turn_deadline and game is not None:
            seat = game.seat_to_act
            if seat is not None:
                self._play_for(seat)

    def _play_for(self, seat: int) -> None:
        """The turn timer ran out: draw from the mazo if not drawn yet, then discard the
        dearest card the player does not need (:func:`timeout_discard`)."""
        game = self._game()
        if game.phase == "draw":
            if not self._decide_window("mazo", seat):
                self._after_change()
                return
            self._commit(Draw(seat, "mazo"))
        self._shed_for(seat)
        discards = [a for a in game.legal_actions(seat) if isinstance(a, Discard)]
        if discards:
            self._commit(timeout_discard(game.view(seat), game.rules, discards))
        self._after_change()
        self._played_for = (seat, self.version)  # the next state says so, to that player

    def _shed_for(self, seat: int) -> None:
        """After a bajar in a round gone out at once no card may be discarded until the rest
        is laid off: lay it off (or swap a wild card out) as the engine allows, every move of
        which keeps going out possible, until a discard may follow."""
        game = self._game()
        for _ in range(64):  # every lay-off sheds a card; a swap is followed by one
            if game.seat_to_act != seat or game.phase != "play":
                return
            legal = game.legal_actions(seat)
            if any(isinstance(a, Discard) for a in legal):
                return
            moves: list[Action] = [a for a in legal if isinstance(a, Agregar)]
            moves = moves or [a for a in legal if isinstance(a, Swap)]
            if not moves:
                return
            self._commit(moves[0])

    # ----------------------------------------------------------------- what each seat sees

    def public_state(self) -> dict[str, Any] | None:
        """The part of a state message that every seat sees alike (built once a change)."""
        game = self.game
        if game is None or game.round_number == 0:
            return None
        view = game.view(None).to_json()
        # The round's log grows with every move; a state carries its recent end only.
        log_all = view["log"]
        view["log"] = log_all[-LOG_TAIL:]
        view["log_start"] = len(log_all) - len(view["log"])
        fair_seeds = [d.seed for d in game.deals]
        ended = len(game.results)
        return {
            "view": view,
            "deadlines": {"turn": self.turn_deadline,
                          "buy": (self.window.deadline if self.window and not self.window.closed
                                  else None)},
            "fair": {"round": game.round_number,
                     "seed_hash": seed_hash(fair_seeds[-1], self._salt(len(fair_seeds)))
                     if ended < len(fair_seeds) else None,
                     "revealed": [{"round": i + 1, "seed": s, "salt": self._salt(i + 1)}
                                  for i, s in enumerate(fair_seeds[:ended])]},
            "round_end": self._last_round_end,
            # The seat the table has just played for (its timer ran out), for this state only.
            "played_for": self._played_for[0] if self._played_for is not None
            and self._played_for[1] == self.version else None,
        }

    def _salt(self, number: int) -> str:
        return round_salt(self.game_seed, number)

    def state_for(self, seat: int | None, public: dict[str, Any] | None = None
                  ) -> dict[str, Any]:
        """The state message for a seat (``None``: a spectator)."""
        game = self.game
        # "now": the server's clock, by which the page counts the deadlines down.
        msg: dict[str, Any] = {"type": "state", "version": self.version,
                               "presence": self.presence, "table": self.info(),
                               "now": round(time.time(), 3)}
        if public is None:
            public = self.public_state()
        if game is None or public is None:
            return msg
        view = public["view"]
        legal: list[dict[str, Any]] = []
        if seat is not None:
            own = game.view(seat)
            view = {**view, "seat": seat, "hand": [str(c) for c in own.hand or ()]}
            if self.status == "playing":
                if seat == game.seat_to_act:
                    legal = [a.to_json() for a in game.legal_actions(seat)]
                elif self.window is not None and not self.window.closed \
                        and seat in self.window.eligible and seat not in self.window.claims:
                    legal = [Buy(seat).to_json()]
        msg.update(public)
        msg.update({"view": view, "legal": legal,
                    "can_undo": seat is not None and game.can_undo(seat),
                    "claim": self._claim_of(seat)})
        return msg

    def _claim_of(self, seat: int | None) -> bool | None:
        """How this seat answered the open buy window (True: it claimed the card, False: it
        passed; None: it has not, or there is no window), so that a page opened again after
        a claim still shows it waiting for the draw."""
        window = self.window
        if seat is None or window is None:
            return None
        return window.claims.get(seat)


class TableManager:
    """Every table of this server, their store, and the tasks that move bots and timers."""

    def __init__(self, store: Store, *, bot_delay: float = 0.7,
                 cluster: Cluster | None = None) -> None:
        if cluster is not None and not isinstance(store, PostgresStore):
            raise ValueError("several server processes share a PostgreSQL store, not a file")
        self.store = store
        self.cluster = cluster
        """Set when this is one of several processes (:mod:`carioca.server.cluster`): it
        serves the tables whose lease it holds, and takes over those nobody serves."""
        if cluster is not None:
            self._shared.fenced = True  # every write under an epoch this process holds
        self._renewed_at = time.monotonic()
        self._leases: asyncio.Task[None] | None = None
        self.peers: list[str] = []
        """The addresses of the other live processes (told to pages, for when this one
        stops answering)."""
        self.tables: dict[str, Table] = {}
        self.keep = dict(KEEP)
        """How long a table nobody is at is kept, by status (:data:`KEEP`)."""
        self.bot_delay = bot_delay
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._dirty: set[str] = set()
        self._scheduled: dict[str, tuple[int, int]] = {}
        self._answering: set[str] = set()  # tables whose bots are answering a buy window
        self._tasks: set[asyncio.Future[None]] = set()
        self._writers: dict[asyncio.Task[None], Connection] = {}
        """Each connection's writer (:meth:`open`), until it ends."""
        self._stopped = False
        self._thinker = _bots_thread()
        # The bots given up on whose thought has not ended, by id: (the bot, that thought).
        self._stuck: dict[int, tuple[object, Future[Any]]] = {}
        # A table whose automatic move failed: (retry at, the pause, its version then).
        self._backoff: dict[str, tuple[float, float, int]] = {}

    def load(self) -> None:
        if self.cluster is not None:
            return  # tables are taken over when asked for, or found unserved (_chores)
        for stored in self.store.load_tables():
            table = self._restored(stored)
            if table is not None:
                self.tables[stored.code] = table

    def _restored(self, stored: StoredTable) -> Table | None:
        try:
            table = Table(self, stored.code, stored.meta)
            table.touched = self._idle_since(table.status, stored.updated)
            table.touch_stored = table.touched
            table.restore(stored)
        except (RulesError, KeyError, TypeError, ValueError) as exc:
            log.error("table %s cannot be loaded: %s", stored.code, exc)
            return None
        return table

    def _idle_since(self, status: str, updated: float | None) -> float:
        """When a table read from the store was last used, as far as this process can tell:
        the store's time of its last use (at most :data:`TOUCH_EVERY` late), but never so
        long ago that it goes within :data:`RESTORE_GRACE` (its pages, which a restart
        closed, come back on their own)."""
        now = time.time()
        keep = self.keep.get(status)
        if updated is None or keep is None:
            return now
        return min(now, max(updated, now - keep + RESTORE_GRACE))

    def create(self, *, name: str, preset: str, options: dict[str, Any], seats: int,
               bots: dict[int, str | None], turn_timer: int, steal_timer: int,
               hints: bool, match: int = 1) -> tuple[Table, str]:
        try:
            rules = RuleSet.preset(preset, **options)
            rules.check_players(seats)
        except RulesError as exc:
            raise TableError("bad_rules", str(exc)) from None
        if turn_timer not in TURN_TIMERS:
            raise TableError("bad_timer", f"the turn timer is one of {TURN_TIMERS} seconds")
        if steal_timer not in STEAL_TIMERS:
            raise TableError("bad_timer", f"the steal timer is one of {STEAL_TIMERS} seconds")
        if match not in MATCH_GAMES or isinstance(match, bool):
            raise TableError("bad_match", "a table plays one game (match 1) or a match of the "
                                          "best of 3 or of 5 games (match 3 or 5)")
        for s, bot in bots.items():  # checked before anything is saved
            if not 0 < s < seats:
                raise TableError("bad_seat", f"there is no seat {s} for a bot (1 to {seats - 1})")
            if bot:
                bot_title(bot)
        code = self._new_code()
        meta = {"preset": rules.preset_name, "options": dict(rules.options), "host": 0,
                "seats": [{"name": ""} for _ in range(seats)], "turn_timer": turn_timer,
                "steal_timer": steal_timer, "hints": hints, "match": match}
        table = Table(self, code, meta)
        seat, token = table.join(name)
        for s, bot in bots.items():
            if bot:
                table.set_bot(s, bot)
        self.tables[code] = table
        table._save()
        del seat
        return table, token

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(6))
            if code in self.tables:
                continue
            if self.cluster is None:
                return code
            # Another process may have made it: the lease first, so no two make it at once.
            if self.cluster.acquire(code):
                if not self._shared.exists(code):
                    return code
                self.cluster.release(code)

    def get(self, code: str) -> Table:
        code = code.upper()
        if self.cluster is not None and self._stale():
            self._drop_all()
        table = self.tables.get(code)
        if table is None and self.cluster is not None:
            table = self._take_over(code)
        if table is None:
            raise TableError("no_table", f"there is no table {code[:20]}", 404)
        table.touched = time.time()  # a page loaded, a join: the table is in use
        return table

    # ----------------------------------------------------------------- several processes

    @property
    def _shared(self) -> PostgresStore:
        return cast(PostgresStore, self.store)

    def _take_over(self, code: str) -> Table | None:
        """Serve ``code`` here if no live process does (None: there is no such table). The
        game resumes from the store, as after a restart. Redis or PostgreSQL away, or another
        process taking the table at the same moment, is a clear refusal to try again."""
        try:
            return self._taking_over(code)
        except TableMoved:
            self.let_go(code)
            raise TableError("moved", f"table {code} is changing hands; try again",
                             503) from None
        except Exception as exc:
            if not unavailable(exc):
                raise
            log.error("table %s cannot be served: %s", code, exc)
            self.let_go(code)
            raise TableError("unavailable", UNAVAILABLE, 503) from None

    def _taking_over(self, code: str) -> Table | None:
        cluster = self.cluster
        assert cluster is not None
        if not 0 < len(code) <= 16 or not code.isalnum():
            return None
        owner = cluster.owner(code)
        if owner is not None and owner != cluster.me:
            raise _elsewhere(code, owner)
        if not self._shared.exists(code):
            return None
        if not cluster.acquire(code):
            raise _elsewhere(code, cluster.owner(code))
        stored = None
        with contextlib.suppress(KeyError):
            self._shared.adopt(code)
            stored = self._shared.load_table(code)
        table = self._restored(stored) if stored is not None else None
        if table is None:
            self.let_go(code)
            return None
        self.tables[code] = table
        log.info("table %s: served here now", code)
        return table

    def let_go(self, code: str, *, release: bool = True) -> None:
        """Stop serving ``code`` (its lease went to another process, or this one stops): its
        connections are closed, and their pages reconnect to the process that serves it."""
        table = self.tables.pop(code, None)
        self._scheduled.pop(code, None)
        self._backoff.pop(code, None)
        if self.cluster is not None:
            self._shared.forget(code)
            if release:
                with contextlib.suppress(Exception):  # Redis away: the lease lapses by itself
                    self.cluster.release(code)
        if table is None:
            return
        table.gone = True
        for conn in list(table.conns):
            table.conns.discard(conn)
            self.open(table, conn)
            # After the states queued before it; then the socket is closed.
            conn.finish_soon({"type": "error", "code": "moved", "message": MOVED})

    def _chores(self) -> None:
        """Renew this process's leases, let go of those lost, and take over the games that
        no process serves (their process stopped or died), a few at a time."""
        cluster = self.cluster
        if cluster is None:
            return
        # A process that cannot reach the database renews nothing: its leases lapse, and
        # the processes that can take its tables over.
        self._shared.ping()
        self.peers = cluster.announce()
        asked = time.monotonic()  # the leases run from when they were renewed, at the latest
        lost = cluster.renew(list(self.tables))
        self._renewed_at = asked
        for code in lost:
            # Lapsed and taken by nobody, and nobody adopted it meanwhile: still ours.
            if not (cluster.acquire(code) and self._shared.still_mine(code)):
                log.warning("table %s: its lease went to another process", code)
                self.let_go(code)
        taken = 0
        for code in cluster.unserved([c for c in self._shared.playing()
                                      if c not in self.tables]):
            if taken == SWEEP:
                break
            with contextlib.suppress(TableError):
                table = self._take_over(code)
                if table is not None:
                    taken += 1
                    self.poke(table)
        self._delete_unserved_idle(cluster)

    def _delete_unserved_idle(self, cluster: Cluster) -> None:
        """Delete the lobbies and finished games idle past their keep that no process serves
        (no process would take them otherwise): under the table's lease and a new epoch, so
        that no process serves it meanwhile, and only if it is idle still. Not read into
        memory: a table that could not be read is deleted too."""
        # Idle by the store's time of last use, with the grace a restored table would get:
        # a server that stopped a moment ago leaves tables whose pages are coming back.
        idle = {status: keep + RESTORE_GRACE for status, keep in self.keep.items()
                if status != "playing"}
        for code in cluster.unserved([c for c in self._shared.idle(idle, SWEEP)
                                      if c not in self.tables]):
            if not cluster.acquire(code):
                continue
            try:
                self._shared.adopt(code)
                if self._shared.delete_table(code, idle):
                    log.info("table %s: deleted, idle and served by nobody", code)
            except (KeyError, TableMoved):
                pass  # gone already, or taken by another process meanwhile
            finally:
                self.let_go(code)

    def _stale(self) -> bool:
        """Whether this process's leases may have lapsed: it could not renew them for a
        lease's length (Redis or PostgreSQL away), so others may serve its tables now."""
        cluster = self.cluster
        return cluster is not None and time.monotonic() - self._renewed_at > cluster.lease

    def _drop_all(self) -> None:
        """Serve no table from memory any more (whatever this process has is maybe stale);
        those asked for again are taken over afresh, or sent on."""
        if self.tables:
            log.error("the leases could not be renewed for %.0f s: letting every table go",
                      time.monotonic() - self._renewed_at)
        for code in list(self.tables):
            self.let_go(code, release=False)

    def expire(self, now: float | None = None) -> list[str]:
        """Delete the tables this process serves that nobody is at and nothing happened at
        for their status's :data:`KEEP`; their codes. A store that refuses now is asked
        again at the next look; a table another process took is let go."""
        now = time.time() if now is None else now
        gone = []
        for code, table in list(self.tables.items()):
            if table.conns:  # someone is at it: its keep counts from when the last leaves
                table.touched = max(table.touched, now)
            if table.touched - table.touch_stored >= TOUCH_EVERY:
                self._store_touch(table)
            if table.conns or table.gone:  # in use, or another server's now
                continue
            keep = self.keep.get(table.status)
            if keep is None or now - table.touched < keep:
                continue
            try:
                self.store.delete_table(code)
            except TableMoved as exc:
                self.moved(exc, table)
                continue
            except Exception as exc:  # noqa: BLE001 - one table's fault stops no other's
                if unavailable(exc):
                    log.warning("table %s: not deleted yet: %s", code, exc)
                else:
                    log.exception("table %s: could not be deleted", code)
                continue
            self.let_go(code)
            gone.append(code)
            log.info("table %s: deleted after %.0f days with nobody at it", code,
                     (now - table.touched) / DAY)
        return gone

    def _store_touch(self, table: Table) -> None:
        """Write that ``table`` is in use, so that a restart, or another server looking for
        unserved idle tables, does not take it for idle."""
        try:
            self.store.touch_table(table.code)
        except TableMoved as exc:
            self.moved(exc, table)
        except Exception as exc:  # noqa: BLE001 - written at the next look, then
            log.warning("table %s: its use not written yet: %s", table.code, exc)
        else:
            table.touch_stored = table.touched

    def moved(self, exc: TableMoved, table: Table | None = None) -> None:
        """A write found that another process serves the table now: let it go (unless the
        write came from a copy let go already, and this process serves the table again)."""
        log.warning("%s", exc)
        copy = exc.table if isinstance(exc.table, Table) else table
        if copy is None or self.tables.get(exc.code) is copy:
            self.let_go(exc.code)

    # ----------------------------------------------------------------- background work

    def poke(self, table: Table) -> None:
        """Something changed at ``table``: send every connection its state, move bots."""
        self._dirty.add(table.code)
        if self._wake is not None:
            self._wake.set()

    async def run(self) -> None:
        """Send states, play bots and enforce timers, until cancelled. Only tables that
        changed, or that wait on a deadline, are looked at. Now and then, the tables nobody
        is at any more are deleted (:data:`KEEP`)."""
        self._wake = asyncio.Event()
        sent: dict[str, tuple[int, int]] = {}
        expire_at = time.monotonic() + EXPIRY_EVERY
        while True:
            if time.monotonic() >= expire_at:
                expire_at = time.monotonic() + EXPIRY_EVERY
                try:
                    for code in self.expire():
                        sent.pop(code, None)
                except Exception:  # noqa: BLE001 - the tables' moves go on regardless
                    log.exception("looking for idle tables failed")
            timed = {code for code, t in self.tables.items()
                     if t.turn_deadline is not None
                     or (t.window is not None and not t.window.closed)}
            codes, self._dirty = self._dirty | timed, set()
            for code in codes:
                table = self.tables.get(code)
                if table is None:
                    continue
                try:
                    if sent.get(code) != (table.version, table.presence):
                        if code in sent:  # not a table just loaded: something happened
                            table.touched = time.time()
                        sent[code] = (table.version, table.presence)
                        broadcast(table)  # queued: each connection's writer sends it
                        # Let the writers send it now, and the handlers answer, before the
                        # next table's states are built: a pass over many tables must not
                        # hold every message back until it ends.
                        await asyncio.sleep(0)
                    await self._step(table)
                except Exception:  # noqa: BLE001 - one table's fault must not stop the others
                    log.exception("table %s: background work failed", table.code)
            if not self._dirty:
                # asyncio.timeout, not wait_for: on 3.11 wait_for drops a cancel that comes
                # as the wake-up does, and the server's shutdown then waits for ever.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(0.25):
                        await self._wake.wait()
            self._wake.clear()

    async def _step(self, table: Table) -> None:
        retry = self._backoff.get(table.code)
        if retry is not None and retry[2] == table.game_version and time.time() < retry[0]:
            return  # its last automatic move failed and nothing changed since: wait
        if table.bots_to_answer():
            if table.code not in self._answering:
                self._answering.add(table.code)
                self._spawn(self._answer_buys(table, table.game_version))
            return
        seat = table.bot_to_move()
        now = time.time()
        due_timer = (table.turn_deadline is not None and now >= table.turn_deadline) \
            or table.claims_due(now)
        if seat is None and not due_timer:
            return
        if seat is not None:
            # A task of its own, even without a delay: the loop must not wait on a thought.
            # Keyed by the last change to the game, not by every change of the table: a stand-in
            # switched on and off again must not put a bot's move off for ever.
            if self._scheduled.get(table.code) != (table.game_version, seat):
                self._scheduled[table.code] = (table.game_version, seat)
                asyncio.get_running_loop().call_later(self.bot_delay, self._nudge, table, seat,
                                                      table.game_version)
            return
        await self._move(table, seat, table.game_version)

    def open(self, table: Table, conn: Connection) -> None:
        """Start the writer of ``conn``, a connection at ``table``, once: it sends what the
        connection's outbox holds (it waits there until then). Once the server stops, no
        writer starts: the connection takes nothing more."""
        if conn._writer is not None or conn.closing:
            return
        if self._stopped:
            conn._shut()
            return
        task = asyncio.get_running_loop().create_task(self._write(table, conn))
        conn._writer = task
        self._writers[task] = conn
        task.add_done_callback(self._forget_writer)

    def _forget_writer(self, task: asyncio.Task[None]) -> None:
        self._writers.pop(task, None)

    async def _write(self, table: Table, conn: Connection) -> None:
        """Send what ``conn``'s outbox holds, in order, each message within
        :data:`SEND_LIMIT`. A connection that does not take one in time (it stopped reading:
        its buffers are full) or whose socket failed is dropped and closed, as is one whose
        last message has gone; the writer ends with it. Only this connection waits on it."""
        letter: _Letter | None = None
        try:
            while True:
                letter = await conn._next()
                if letter.msg is not None:
                    try:
                        async with asyncio.timeout(SEND_LIMIT):
                            await conn.send(letter.msg)
                    except Exception as exc:  # noqa: BLE001 - a closed or stuck socket
                        log.info("table %s: dropping a connection: %r", table.code, exc)
                        break
                if letter.last:
                    break
                _done(letter)
                letter = None
            conn.closing = True
            table.conns.discard(conn)
            if conn.close is not None:
                await _close(conn.close)
        finally:
            conn._shut()
            if letter is not None:
                _done(letter)

    def _nudge(self, table: Table, seat: int | None, version: int) -> None:
        self._spawn(self._move(table, seat, version))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task, held until it ends (the loop keeps only weak references)."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _move(self, table: Table, seat: int | None, version: int) -> None:
        """A bot's move for ``seat`` (None: the timers' moves), if the game has not changed
        since ``version`` (:attr:`Table.game_version`)."""
        failed = True
        async with table.lock:
            if table.game_version != version:
                return
            if seat is not None and table.bot_to_move() != seat \
                    and self._scheduled.get(table.code) == (version, seat):
                # The bot stepped out before its move (a stand-in switched off): the next
                # one to stand in is scheduled anew.
                self._scheduled.pop(table.code, None)
            try:
                await self.settle_buys(table)  # a bot's draw or the timer may close the window
                if seat is not None and table.bot_to_move() == seat:
                    question = table.bot_question(seat)
                    if question is not None:
                        # A search bot may think for a second: not on the event loop.
                        action = await self._think(table.bot_at(seat), table.ask_bot, seat,
                                                   *question, gave_up=None)
                        table.bot_answer(seat, question[1], action)
                else:
                    table.on_timers()
                failed = False
            except (IllegalAction, TableError) as exc:
                log.error("table %s: automatic move refused: %s", table.code, exc)
            except TableMoved as exc:
                self.moved(exc, table)
                return
            except Exception:  # noqa: BLE001 - logged; the table stays as it was
                log.exception("table %s: automatic move failed", table.code)
        if failed:
            self._retry_later(table)
            return
        self._backoff.pop(table.code, None)
        self.poke(table)

    def _retry_later(self, table: Table) -> None:
        """An automatic move failed (the store, say): try again after a pause that doubles
        with each failure in a row, not on every wake-up of the loop."""
        last = self._backoff.get(table.code)
        delay = RETRY_FIRST if last is None else min(2 * last[1], RETRY_MAX)
        self._backoff[table.code] = (time.time() + delay, delay, table.game_version)
        self._scheduled.pop(table.code, None)
        asyncio.get_running_loop().call_later(delay, self.poke, table)

    async def _answer_buys(self, table: Table, version: int) -> None:
        """The bots' answers to the open buy window, each thought out in the bots' thread."""
        failed = False
        try:
            async with table.lock:
                if table.game_version == version:
                    await self.settle_buys(table)
        except TableMoved as exc:
            self.moved(exc, table)
            return
        except Exception:  # noqa: BLE001 - logged; tried again after a pause
            log.exception("table %s: the bots' buy answers failed", table.code)
            failed = True
        finally:
            self._answering.discard(table.code)
        if failed:
            self._retry_later(table)
        else:
            self.poke(table)

    async def settle_buys(self, table: Table) -> None:
        """Ask the bots that may buy the open window's card and have not answered yet, each
        in the bots' thread (the table's lock is held). The background loop asks them a
        moment after the discard; whatever may close the window first (a player's draw, a
        bot's, the timer) asks here, so that a bot's claim is never lost to the race."""
        key, questions = table.bot_buy_questions()
        if questions:
            answers = {seat: await self._think(table.bot_at(seat), table.ask_bot_buy, seat,
                                               view, legal, gave_up=False)
                       for seat, view, legal in questions}
            table.bot_buy_answers(key, answers)

    async def coach(self, asker: object, ask: Callable[..., T], *args: Any) -> T | None:
        """``ask(*args)`` (the coach's hint) in the bots' thread, not on the event loop, with
        the bots' time limit (None: it took longer)."""
        return await self._think(asker, ask, *args, gave_up=None)

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._stopped = False  # a manager stopped may be started again (a test's second client)
        self._task = loop.create_task(self.run())
        if self.cluster is not None:
            self._leases = loop.create_task(self._keep_leases(self.cluster.lease / 3))

    async def _keep_leases(self, every: float) -> None:
        """The cluster's chores on a timer of their own: a loop busy (many tables, a slow
        database) must not let this process's leases lapse."""
        while True:
            try:
                self._chores()
            except Exception:  # noqa: BLE001 - Redis or the database away: tried again later
                log.exception("the cluster's chores failed")
                if self._stale():
                    self._drop_all()
            await asyncio.sleep(every)

    async def _think(self, bot: object, ask: Callable[..., T], *args: Any, gave_up: T) -> T:
        """``ask(*args)`` in the bots' thread. One thread for all tables: bots share one
        interpreter lock anyway, and every thread more that wants it makes the event loop
        wait longer for its turn (bench/bench_server.py --bots: the ping of an idle table).
        A thought longer than :data:`THINK_LIMIT` gives ``gave_up``, and the other bots go on
        in a new thread (a thread cannot be stopped: the old one ends when the bot does).
        Until it does, ``bot`` is not asked again and gives ``gave_up`` at once: a bot that
        hangs on every move holds one thread, not one a turn, and is never asked twice at
        the same time (bots are not made to be)."""
        stuck = self._stuck.get(id(bot))
        if stuck is not None:
            if not stuck[1].done():
                log.warning("a bot still thinks about a move it was given up on: played for")
                return gave_up
            del self._stuck[id(bot)]
        thinker = self._thinker
        work = thinker.submit(ask, *args)
        thought = asyncio.wrap_future(work)
        await asyncio.wait([thought], timeout=THINK_LIMIT)
        if thought.cancelled() and self._thinker is not thinker:
            # It waited behind a stuck bot, whose thread was given up: ask the new one.
            return await self._think(bot, ask, *args, gave_up=gave_up)
        if thought.done():
            return thought.result()
        log.error("a bot thought for more than %.0f s: played for", THINK_LIMIT)
        self._stuck[id(bot)] = (bot, work)  # the bot is held, so its id is not reused
        thought.cancel()  # its answer, should it ever come, is dropped
        if self._thinker is thinker:
            self._thinker = _bots_thread()
            thinker.shutdown(wait=False, cancel_futures=True)
        return gave_up

    async def stop(self) -> None:
        if self._leases is not None:
            self._leases.cancel()
        task = self._task
        while task is not None and not task.done():
            task.cancel()  # again, should a cancel ever be dropped: shutdown must not hang
            await asyncio.wait([task], timeout=1)
        for work in list(self._tasks):
            work.cancel()
        self._thinker.shutdown(wait=False, cancel_futures=True)
        if self.cluster is not None:
            # The other processes take these tables over at once, not when the leases lapse.
            codes = list(self.tables)
            for code in codes:
                self.let_go(code, release=False)
            with contextlib.suppress(Exception):
                self.cluster.release_all(codes)
            with contextlib.suppress(Exception):
                self.cluster.close()
            with contextlib.suppress(Exception):
                self.store.close()
        await self._end_writers()

    async def _end_writers(self) -> None:
        """Stop every connection's writer: one with a last message to send (``moved``, when
        the tables are given up) has the time to send it and close; the others stop now,
        their sockets with the server."""
        self._stopped = True  # no writer starts from here on
        writers = dict(self._writers)
        for task, conn in writers.items():
            if not conn.closing:
                task.cancel()
        pending: set[asyncio.Task[None]] = set(writers)
        if pending:
            _, pending = await asyncio.wait(pending, timeout=2 * SEND_LIMIT + 1)
        while pending:
            for task in pending:
                task.cancel()  # again, should a cancel ever be dropped: shutdown must not hang
            _, pending = await asyncio.wait(pending, timeout=1)


def clean_name(name: str) -> str:
    """A player's name as the table shows it: without control and format characters (a
    right-to-left override would make "\u202eanA" show as "Ana" and turn the rest of a log
    line around) and without characters that show nothing ("Ana" and a zero-width joiner would
    pass for "Ana"), with its spaces collapsed, at most :data:`NAME_MOST` characters."""
    text = unicodedata.normalize("NFC", name)
    kept: list[str] = []
    for i, ch in enumerate(text):
        after = text[i + 1] if i + 1 < len(text) else ""
        if ch == "\u200d":
            # The joiner holds a letter or an emoji sequence together (ශ්‍රී, 👩‍👧); at an end,
            # or beside a space, it only hides a name.
            kept.append(ch if _shows(kept[-1] if kept else "") and _shows(after) else " ")
        elif ch in _BLANK or unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp"):
            kept.append(" ")
        elif _selector(ch):
            # An emoji's presentation (😀️, ↔️, 1️⃣) stays; after a letter it shows nothing.
            if (kept and unicodedata.category(kept[-1])[0] == "S") or after == "\u20e3":
                kept.append(ch)
        elif ch not in _INVISIBLE:
            kept.append(ch)
    return " ".join("".join(kept).split())[:NAME_MOST].rstrip("\u200d ")


NAME_MOST = 40
"""A name's length at most (a longer one is cut), as the lobby's field allows."""

# Letters that are blank: the Hangul fillers and the empty braille pattern.
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Marks that show nothing: the grapheme joiner, Khmer's inherent vowels, Mongolian's selectors.
_INVISIBLE = frozenset("\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f")


def _selector(ch: str) -> bool:
    return "\ufe00" <= ch <= "\ufe0f" or "\U000e0100" <= ch <= "\U000e01ef"


def _shows(ch: str) -> bool:
    """Whether ``ch`` is something seen (not nothing, a space or a blank letter)."""
    return bool(ch) and not ch.isspace() and ch not in _BLANK \
        and unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp")


def name_look(name: str) -> str:
    """What a name looks like, to tell two names apart: "😀" and "😀" with its emoji
    presentation selector are one name."""
    return "".join(ch for ch in name if not _selector(ch))


def timeout_discard(view: View, rules: RuleSet, discards: Sequence[Discard]) -> Discard:
    """The card the table throws for a player whose time ran out, as the page promises: the
    dearest card they do not need (one whose loss leaves the contract no further away), and
    never a wild card while a natural card may go."""
    hand = list(view.hand or ())
    seat = view.seat
    down = seat is not None and view.down[seat]
    owed = ([Contract.parse(o) for o in view.owed[seat] if o]
            if view.owed and seat is not None and not down else [])
    base = missing_cards(hand, owed, rules) if owed else 0

    def needed(card: Card) -> bool:
        if not owed or card not in hand:
            return False
        rest = list(hand)
        rest.remove(card)
        return missing_cards(rest, owed, rules) > base

    return max(discards, key=lambda a: (not rules.is_wild(a.card), not needed(a.card),
                                        rules.value(a.card), int(a.card)))


def _elsewhere(code: str, owner: Owner | None) -> TableError:
    if owner is None:  # its lease lapsed as we looked: asking again finds it free
        return TableError("moved", f"table {code} is changing hands; try again", 503)
    return TableError("elsewhere", f"table {code} is served at {owner.url}", 421,
                      url=owner.url)


def _bots_thread() -> ThreadPoolExecutor:
    """The one thread the server's bots think in (a new one when a stuck bot holds it)."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="carioca-bot")


READING_TIME = 10
"""Seconds more on the turn timer for a round's first turn (the round-end dialog is open)."""

SEND_LIMIT = 2.0
"""Seconds a connection may take to accept a message. One that does not read (its buffers
full) is dropped and closed. Only its own writer waits on it (:meth:`TableManager.open`):
never the loop that moves every table, nor another connection."""


def broadcast(table: Table) -> None:
    """Queue for each connection the state its seat may see (a newer state replaces one still
    waiting to be sent); each connection's writer sends it. Nothing here waits on a socket."""
    cache: dict[int | None, dict[str, Any]] = {}
    public = table.public_state()
    for conn in list(table.conns):
        if conn.closing:  # dropped, or told its last message
            table.conns.discard(conn)
            continue
        if conn.seat not in cache:
            cache[conn.seat] = table.state_for(conn.seat, public)
        table.manager.open(table, conn)
        conn.post_state(cache[conn.seat])


async def _close(close: Callable[[], Awaitable[None]]) -> None:
    with contextlib.suppress(Exception):
        async with asyncio.timeout(SEND_LIMIT):
            await close()


def presets_payload() -> list[dict[str, Any]]:
    from ..describe import preset_notes

    out = []
    for name, rules in PRESETS.items():
        out.append({
            "name": name, "notes": preset_notes(name),
            "min_players": rules.min_players, "max_players": rules.max_players,
            "rounds": [{"number": i, "contract": str(r),
                        "words": {"es": " | ".join(c.words("es") for c in r.contracts),
                                  "en": " | ".join(c.words("en") for c in r.contracts)},
                        "hand_size": r.hand_size, "go_out_at_once": r.go_out_at_once,
                        "default": r in rules.rounds}
                       for i, r in enumerate(preset_rounds(name), 1)],
            "options": _option_values(rules),
        })
    return out


def preset_rounds(name: str) -> tuple[Any, ...]:
    """Every round a preset offers, optional ones included (``online``'s escalera real)."""
    from ..rules import _PRESET_ROUNDS

    return _PRESET_ROUNDS.get(name, PRESETS[name].rounds)


def _option_values(rules: RuleSet) -> dict[str, Any]:
    from ..rules import OPTION_NAMES

    out: dict[str, Any] = {}
    for name in OPTION_NAMES:
        if name in ("rounds", "contracts", "hand_size"):
            continue
        value = getattr(rules, name)
        if isinstance(value, frozenset):
            value = sorted(value)
        elif name == "values":
            value = dict(value)
        out[name] = value
    full = preset_rounds(rules.preset_name)
    out["rounds"] = [i for i, r in enumerate(full, 1) if r in rules.rounds]
    return out
