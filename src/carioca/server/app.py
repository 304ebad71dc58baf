"""The web server: HTTP API, WebSockets and the pages (see docs/protocol.md).

Every incoming message is checked against its schema before any game code sees it; only
``Game.view`` output leaves the server.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import mimetypes
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar
from urllib.parse import quote, urlencode

from fastapi import FastAPI, Header, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import IllegalAction, RecordError
from ..record import replay, to_record
from ..rules import INT_RANGES, NULLABLE_OPTIONS, OPTION_NAMES
from ..spanish import explain, rules_reason_es
from ..store import Store, open_store
from ..store.postgres import TableMoved
from .cluster import Cluster, unavailable
from .tables import (
    LANGS,
    MOVED,
    UNAVAILABLE,
    Connection,
    Table,
    TableError,
    TableManager,
    bot_names,
    presets_payload,
)

__all__ = ["create_app", "MAX_MESSAGE"]

log = logging.getLogger("carioca.server")
T = TypeVar("T")

WEB = Path(__file__).resolve().parent.parent / "web"
mimetypes.add_type("application/manifest+json", ".webmanifest")
MAX_MESSAGE = 16 * 1024
MAX_RECORD = 8 * 1024 * 1024


# --------------------------------------------------------------------------- schemas

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# A name is cut to NAME_MOST (40) characters once cleaned (tables.clean_name), as the docs
# say; this bound only keeps a body from carrying a book.
NAME_INPUT_MOST = 200


class CreateTable(_Strict):
    name: Annotated[str, Field(max_length=NAME_INPUT_MOST)] = ""
    preset: Annotated[str, Field(max_length=40)] = "chile"
    options: dict[str, Any] = Field(default_factory=dict)
    seats: Annotated[int, Field(ge=2, le=8)] = 4
    bots: dict[str, Annotated[str, Field(max_length=40)] | None] = Field(default_factory=dict)
    turn_timer: int = 0
    steal_timer: int = 10
    hints: bool = True
    match: int = 1


class JoinTable(_Strict):
    name: Annotated[str, Field(max_length=NAME_INPUT_MOST)] = ""
    seat: Annotated[int, Field(ge=0, le=7)] | None = None


class SetBot(_Strict):
    seat: Annotated[int, Field(ge=0, le=7)]
    bot: Annotated[str, Field(max_length=40)] | None = None


class Hello(_Strict):
    type: Literal["hello"]
    token: Annotated[str, Field(max_length=200)] | None = None
    lang: Annotated[str, Field(max_length=8)] | None = None


class ActionMsg(_Strict):
    type: Literal["action"]
    version: StrictInt | None = None
    action: dict[str, Any]


class PassMsg(_Strict):
    type: Literal["pass"]
    version: StrictInt | None = None


class UndoMsg(_Strict):
    type: Literal["undo"]
    version: StrictInt | None = None


class HintMsg(_Strict):
    type: Literal["hint"]


class PingMsg(_Strict):
    type: Literal["ping"]


ClientMessage = Annotated[ActionMsg | PassMsg | UndoMsg | HintMsg | PingMsg,
                          Field(discriminator="type")]
_CLIENT: TypeAdapter[ActionMsg | PassMsg | UndoMsg | HintMsg | PingMsg] = TypeAdapter(
    ClientMessage)
_HELLO = TypeAdapter(Hello)


class _SafeJSON(JSONResponse):
    """JSON in UTF-8. A lone surrogate sent to us ("\\udfff": valid JSON, not valid text) and
    named back in an error cannot be written as UTF-8: the answer then escapes every non-ASCII
    character, instead of failing as a 500."""

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(content, separators=(",", ":")).encode("ascii")


def _error(code: str, message: str, status: int = 400) -> JSONResponse:
    return _SafeJSON({"error": {"code": code, "message": message}}, status_code=status)


def _cut(text: str, most: int | None) -> str:
    return text if most is None or len(text) <= most else text[:most - 1] + "…"


class _RulesRefused(TableError):
    """``bad_rules``: rules that cannot be played. Beside the engine's reason in English, the
    answer carries it in Spanish (``detail.es``) where it has Spanish words (every reason of
    carioca.rules has), so a Spanish page says why, not only that they cannot be played."""

    def __init__(self, message: str, most: int | None = None) -> None:
        super().__init__("bad_rules", _cut(message, most))
        # From the whole reason (a cut one has no shape), unless it is huge: a reason that
        # quotes megabytes of input is not worth 38 patterns' time.
        spanish = rules_reason_es(message) if len(message) <= 20_000 else message
        self.detail = {"es": _cut(spanish, most)} if spanish != message else None


class _BodyTooBig(HTTPException):
    """Raised while a body is read past the limit (an HTTPException, so FastAPI passes it on)."""

    def __init__(self) -> None:
        super().__init__(413, "the request is too large")


class _BodyLimit:
    """Refuses a body larger than any record: by its Content-Length before it is read, and
    while it is read when it comes in chunks with no length, so no body is ever held whole."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        size = dict(scope.get("headers") or ()).get(b"content-length", b"")
        if size.isdigit() and int(size) > self.limit:
            await _error("too_big", "the request is too large", 413)(scope, receive, send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _BodyTooBig
            return message

        await self.app(scope, counted, send)


GUESSES_PER_MINUTE = 30
"""Table codes naming no table that one address may try in a minute: a friend's typos fit
many times over, while going through the 32⁶ codes for somebody's table would take years."""


TABLES_PER_TEN_MINUTES = 60
"""New tables that one address may open in ten minutes: a family's evening needs a few, and a
school behind one address a table for each group, while a script opening thousands would fill
the memory and the store (tables are kept)."""


SHARED_PAUSE = 5.0
"""Seconds a server counts alone after Redis failed to count with it."""


class PerAddress:
    """What each address did in the last ``window`` seconds, counted as distinct items (a
    table code that named no table, a table opened): past ``most`` of them (0: no limit), the
    address waits out the window. The same item again counts once. IPv6 addresses count by
    their /64, which one household holds whole.

    With a ``shared`` cluster the count is the cluster's (Redis, under ``kind``), so that N
    processes do not allow N times as many. This process's own count is always kept too:
    should Redis fail, it guards alone, and Redis is not asked again for
    :data:`SHARED_PAUSE` seconds (a Redis that hangs would hold every request for its
    timeout); once Redis answers again, the larger of the two counts."""

    def __init__(self, kind: str, most: int, window: float, *,
                 clock: Callable[[], float] = time.monotonic, addresses: int = 100_000,
                 shared: Cluster | None = None) -> None:
        self.kind, self.most, self.window = kind, most, window
        self.clock, self.addresses, self.shared = clock, addresses, shared
        self._shared_after = 0.0  # when Redis may be asked again, after a failure
        self._items: dict[str, dict[str, float]] = {}  # address: {item: when}

    def _recent(self, who: str) -> dict[str, float]:
        items = self._items.get(who)
        if items is None:
            return {}
        since = self.clock() - self.window
        for item in [i for i, when in items.items() if when <= since]:
            del items[item]
        if not items:
            del self._items[who]  # an address that stopped is forgotten
        return items

    def blocked(self, who: str) -> bool:
        if self.most <= 0:
            return False
        key = _household(who)
        if len(self._recent(key)) >= self.most:
            return True
        shared = self._ask_shared(lambda cluster: cluster.count(self.kind, key, self.window))
        return shared is not None and shared >= self.most

    def _ask_shared(self, ask: Callable[[Cluster], T]) -> T | None:
        """``ask`` of the cluster's Redis, or None: no cluster, or Redis failed (now or a
        moment ago). A limiter's failure must never fail the request it guards."""
        if self.shared is None or self.clock() < self._shared_after:
            return None
        try:
            return ask(self.shared)
        except Exception:  # noqa: BLE001 - any failure: counted here alone for a while
            log.warning("the shared count of %s failed; counting here alone for %s s",
                        self.kind, SHARED_PAUSE, exc_info=True)
            self._shared_after = self.clock() + SHARED_PAUSE
            return None

    def noted(self, who: str, item: str) -> None:
        if self.most <= 0:
            return
        # the item as any case finds it, and no longer than a table code (a long path must
        # not make the table of addresses long)
        key, item = _household(who), item[:16].upper()
        self._ask_shared(lambda cluster: cluster.note(self.kind, key, item, self.window,
                                                      self.most))
        items = self._recent(key)
        if not items:
            if len(self._items) >= self.addresses:
                self._sweep()
            items = self._items.setdefault(key, {})
        items.pop(item, None)
        items[item] = self.clock()
        while len(items) > self.most:  # more than enough to refuse: keep the newest
            del items[next(iter(items))]

    def _sweep(self) -> None:
        """Forget the addresses whose items are all past (and, should that not be enough,
        the ones seen longest ago), so that the table stays small whatever comes."""
        for who in list(self._items):
            self._recent(who)
        while len(self._items) >= self.addresses * 0.9:  # room for many before the next
            del self._items[next(iter(self._items))]


def code_guesses(most: int = GUESSES_PER_MINUTE, **kw: Any) -> PerAddress:
    """The table codes each address tried that named no table, in the last minute (see
    :data:`GUESSES_PER_MINUTE`)."""
    return PerAddress("guesses", most, 60.0, **kw)


def table_creations(most: int = TABLES_PER_TEN_MINUTES, **kw: Any) -> PerAddress:
    """The tables each address opened in the last ten minutes (see
    :data:`TABLES_PER_TEN_MINUTES`)."""
    return PerAddress("tables", most, 600.0, **kw)


def _household(address: str) -> str:
    """An IPv4 address as it is; an IPv6 one by its /64 (a home or a phone holds a whole /64,
    so its addresses are one guesser)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return address


TOO_MANY_TABLES = "too many new tables from this address: wait a few minutes"


TOO_MANY_GUESSES = ("too many codes from this address named no table: wait a minute, then "
                    "check the code")


class _CodeGuard:
    """Refuses, for a minute, the table routes to an address whose codes keep naming no table
    (counted where ``no_table`` is answered), so that codes cannot be tried until one opens
    a table."""

    def __init__(self, app: ASGIApp, guesses: PerAddress) -> None:
        self.app = app
        self.guesses = guesses

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith(("/api/tables/", "/t/")) \
                and self.guesses.blocked(_address(scope)):
            refusal = _error("too_many_tries", TOO_MANY_GUESSES, 429)
            refusal.headers["Retry-After"] = str(int(self.guesses.window))
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "?"


def _option_groups() -> list[dict[str, Any]]:
    groups = {
        "rounds": "rounds", "wilds": "jokers", "jokers": "jokers", "decks": "jokers",
        "max_wilds_per_meld": "joker_limit", "wild_limit_on_layoff": "joker_limit",
        "joker_replacement": "joker_replacement", "buying": "stealing",
        "max_buys_per_round": "stealing", "steal_points": "stealing", "undo": "undo",
        "open_hands": "open_hands", "scoring": "scoring", "tie_break": "scoring",
        "values": "scoring", "out_score": "scoring", "instant_out_score": "scoring",
    }
    kinds = {
        "buying": ("choice", ["off", "penalty_card", "penalty_points"]),
        "scoring": ("choice", ["points", "rounds"]),
        "tie_break": ("choice", ["share", "most_outs", "extra_round"]),
        "joker_replacement": ("choice", ["off", "take", "anyone", "relocate"]),
        "wilds": ("wilds", ["jokers", "twos", "red_aces"]),
        "values": ("values", None), "rounds": ("rounds", None),
        **{name: ("int_or_null", None) for name in NULLABLE_OPTIONS},
    }
    bools = {"wild_limit_on_layoff", "wrap", "layoff_same_turn", "go_out_by_layoff",
             "partial_contracts", "open_hands", "exact_melds", "bury_wild_first_discard",
             "undo"}
    out = []
    for name in OPTION_NAMES:
        if name in ("contracts", "hand_size"):
            continue
        kind, choices = kinds.get(name, ("bool" if name in bools else "int", None))
        entry: dict[str, Any] = {"name": name, "type": kind,
                                 "group": groups.get(name, "other")}
        if choices:
            entry["choices"] = choices
        if name in INT_RANGES:
            entry["min"], entry["max"] = INT_RANGES[name]
        out.append(entry)
    return out


# --------------------------------------------------------------------------- the app

def create_app(db_path: str | Path | Store = ":memory:", *, bot_delay: float = 0.7,
               cluster: Cluster | None = None,
               tables_per_address: int = TABLES_PER_TEN_MINUTES) -> FastAPI:
    """The whole server on one SQLite file, or a ``postgresql://`` database; tables found
    there are resumed. With a ``cluster`` (PostgreSQL only) it is one of several processes
    that share the database, each serving the tables it holds (:mod:`.cluster`). One address
    opens at most ``tables_per_address`` tables in ten minutes (0: no limit, for a load
    test)."""
    store = open_store(str(db_path)) if isinstance(db_path, str | Path) else db_path
    manager = TableManager(store, bot_delay=bot_delay, cluster=cluster)
    manager.load()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        manager.start()
        try:
            yield
        finally:
            await manager.stop()

    app = FastAPI(title="carioca", lifespan=lifespan, docs_url="/api/docs",
                  redoc_url=None, default_response_class=_SafeJSON)
    app.state.manager = manager
    app.state.guesses = code_guesses(shared=cluster)
    app.state.creations = table_creations(tables_per_address, shared=cluster)
    _http_routes(app, manager)
    _rules_route(app)
    _page_routes(app, manager)
    _socket_route(app, manager)
    if cluster is not None:
        # A page whose server stopped asks the others which one serves its table now. Added
        # last, so it wraps the others: their refusals (a 429 too) carry its headers.
        app.add_middleware(CORSMiddleware, allow_origins=["*"], allow_methods=["GET"])
    return app


def _http_routes(app: FastAPI, manager: TableManager) -> None:
    @app.exception_handler(TableError)
    async def table_error(request: Request, exc: TableError) -> JSONResponse:
        if exc.code == "no_table":
            guesses: PerAddress = request.app.state.guesses
            guesses.noted(_address(request.scope), str(request.path_params.get("code", "")))
        error: dict[str, Any] = {"code": exc.code, "message": exc.message}
        if isinstance(exc, _RulesRefused) and exc.detail:
            error["detail"] = exc.detail
        if exc.url is not None:  # another server process serves that table: ask it
            error["url"] = exc.url
        return _SafeJSON({"error": error}, status_code=exc.status)

    @app.exception_handler(TableMoved)
    async def moved(request: Request, exc: TableMoved) -> JSONResponse:
        manager.moved(exc, manager.tables.get(exc.code))
        return _error("moved", "the table moved to another server; try again", 503)

    async def away(request: Request, exc: Exception) -> JSONResponse:
        log.error("%s %s: %s", request.method, request.url.path, exc)
        return _error("unavailable", UNAVAILABLE, 503)

    for service_error in _service_errors():  # PostgreSQL or Redis away: try again
        app.add_exception_handler(service_error, away)

    @app.exception_handler(Exception)
    async def failed(request: Request, exc: Exception) -> JSONResponse:
        # The server's log has the trace (the server prints it); the client gets no trace.
        return _error("internal", "something went wrong on the server", 500)

    @app.exception_handler(RequestValidationError)
    async def bad_body(request: Request, exc: RequestValidationError) -> JSONResponse:
        # The documented error shape, naming the field; never the input echoed back.
        first = exc.errors()[0] if exc.errors() else {}
        if first.get("type") == "json_invalid":
            return _error("bad_json", "the body is not JSON")
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        why = first.get("msg", "not understood")
        return _error("bad_request", f"{where or 'the request'}: {why}"[:300])

    @app.exception_handler(StarletteHTTPException)
    async def http_refusal(request: Request, exc: StarletteHTTPException) -> Response:
        # The framework's own refusals, in the documented shape: a route or a method that is
        # not there, a body that cannot be read as text or JSON.
        if isinstance(exc, _BodyTooBig):
            return _error("too_big", "the request is too large", 413)
        known = {404: ("not_found", "there is no such page or API route"),
                 405: ("bad_method", "that method is not allowed here"),
                 400: ("bad_json", "the body is not JSON (or not UTF-8 text)")}
        code, message = known.get(exc.status_code, ("bad_request", "the request is refused"))
        answer = _error(code, message, exc.status_code)
        answer.headers.update(exc.headers or {})  # a 405 says which methods: Allow
        return answer

    @app.exception_handler(_BodyTooBig)
    async def too_big(request: Request, exc: _BodyTooBig) -> JSONResponse:
        return _error("too_big", "the request is too large", 413)

    app.add_middleware(_BodyLimit, limit=MAX_RECORD)
    app.add_middleware(_CodeGuard, guesses=app.state.guesses)

    @app.exception_handler(IllegalAction)
    async def illegal(request: Request, exc: IllegalAction) -> JSONResponse:
        return _error(exc.code, exc.message, 409)

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        return {"presets": presets_payload(), "options": _option_groups(), "bots": bot_names()}

    @app.post("/api/tables")
    async def create(body: CreateTable, request: Request, response: Response) -> Any:
        creations: PerAddress = request.app.state.creations
        who = _address(request.scope)
        if creations.blocked(who):
            refusal = _error("too_many_tables", TOO_MANY_TABLES, 429)
            refusal.headers["Retry-After"] = str(int(creations.window))
            return refusal
        try:
            bots = {int(k): v for k, v in body.bots.items()}
        except ValueError:
            raise TableError("bad_bots", "bots are given by seat number") from None
        try:
            table, token = manager.create(
                name=body.name, preset=body.preset, options=body.options, seats=body.seats,
                bots=bots, turn_timer=body.turn_timer, steal_timer=body.steal_timer,
                hints=body.hints, match=body.match)
        except TableError as exc:
            if exc.code != "bad_rules":
                raise
            raise _RulesRefused(exc.message, most=300) from None  # with the reason in Spanish
        creations.noted(who, table.code)
        response.set_cookie(f"carioca_{table.code}", token, httponly=True, samesite="strict")
        return {"code": table.code, "seat": 0, "token": token, "table": table.info()}

    @app.get("/api/tables/{code}")
    async def info(code: str) -> dict[str, Any]:
        return manager.get(code).info()

    @app.post("/api/tables/{code}/join")
    async def join(code: str, body: JoinTable, response: Response) -> dict[str, Any]:
        table = manager.get(code)
        async with table.lock:
            seat, token = table.join(body.name, body.seat)
        manager.poke(table)
        response.set_cookie(f"carioca_{table.code}", token, httponly=True, samesite="strict")
        return {"seat": seat, "token": token, "table": table.info()}

    async def host_only(table: Table, token: str | None) -> None:
        # While the host is away any player at the table does the host's part, so that a
        # host who closed the tab does not keep the others from starting or a rematch.
        if not table.may_host(table.seat_of(token)):
            raise TableError("not_host", "only the host may do that", 403)

    @app.post("/api/tables/{code}/bots")
    async def set_bot(code: str, body: SetBot,
                      x_carioca_token: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        table = manager.get(code)
        await host_only(table, x_carioca_token)
        async with table.lock:
            table.set_bot(body.seat, body.bot)
        manager.poke(table)
        return table.info()

    @app.post("/api/tables/{code}/stand-in")
    async def stand_in(code: str, body: SetBot,
                       x_carioca_token: Annotated[str | None, Header()] = None
                       ) -> dict[str, Any]:
        # Any player at the table may ask: the host may be the one who is away.
        table = manager.get(code)
        if table.seat_of(x_carioca_token) is None:
            raise TableError("spectator", "only a player at the table may do that", 403)
        async with table.lock:
            table.stand_in(body.seat, body.bot)
        manager.poke(table)
        return table.info()

    @app.post("/api/tables/{code}/start")
    async def start(code: str,
                    x_carioca_token: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        return await _start(code, x_carioca_token, rematch=False)

    @app.post("/api/tables/{code}/rematch")
    async def rematch(code: str,
                      x_carioca_token: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        return await _start(code, x_carioca_token, rematch=True)

    async def _start(code: str, token: str | None, *, rematch: bool) -> dict[str, Any]:
        table = manager.get(code)
        await host_only(table, token)
        if rematch and table.status != "over":
            raise TableError("not_over", "a rematch comes after the game", 409)
        async with table.lock:
            table.start()
        return table.info()

    @app.get("/api/tables/{code}/record")
    async def record(code: str) -> Any:
        table = manager.get(code)
        if table.game is None or not table.game.is_over:
            raise TableError("not_over", "the record is shown once the game is over: it holds "
                                         "every deal", 409)
        return to_record(table.game)

    @app.post("/api/replay")
    async def replay_doc(request: Request) -> Any:
        doc = await _read_record(request)
        return await _off_the_loop(_replay_steps, doc)

    @app.post("/api/replay/view")
    async def replay_view(request: Request) -> Any:
        doc = await _read_record(request)
        if not isinstance(doc, dict) or "record" not in doc or not isinstance(doc.get("step"),
                                                                               int):
            raise TableError("bad_request", "send {\"record\": ..., \"step\": N}")
        return await _off_the_loop(_replay_view, doc["record"], doc["step"])


_REPLAYS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="carioca-replay")
"""One thread for the replays anyone may ask for: a long record takes seconds, which on the
event loop would stop every table; and many at once in many threads would each want the
interpreter lock the loop needs (and fill the thread pool the static files are served from)."""


async def _off_the_loop(work: Callable[..., Any], *args: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(_REPLAYS, work, *args)


async def _read_record(request: Request) -> Any:
    body = await request.body()
    if len(body) > MAX_RECORD:
        raise TableError("too_big", "the record is too large", 413)
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise TableError("bad_json", "the file is not JSON") from None


def _replay_steps(doc: Any) -> dict[str, Any]:
    result = replay(doc)
    steps = []
    rounds = doc.get("rounds", []) if isinstance(doc, dict) else []
    game = result.game
    played = [len(a) for a in game.log] if game is not None else []
    for r, count in enumerate(played, 1):
        actions = rounds[r - 1].get("actions", []) if r - 1 < len(rounds) else []
        for i in range(count):
            steps.append({"round": r, "action": i + 1, "move": actions[i]})
    return {"sheet": game.score_sheet().to_json() if game is not None else None,
            "error": _replay_error(result.error) if result.error is not None else None,
            "players": list(game.players) if game is not None else [],
            "steps": steps}


def _replay_error(error: RecordError) -> dict[str, Any]:
    """The record's error as ``carioca replay --json`` gives it, with its code, so that a page
    can say it in the player's language (``bad_record``: the document is at fault)."""
    return {"round": error.round, "action": error.action, "message": error.message,
            "code": error.code}


def _replay_view(doc: Any, step: int) -> dict[str, Any]:
    """The open view after ``step`` actions of the record (0: the first deal)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("rounds"), list):
        raise TableError("bad_record", "not a record")
    count = 0
    rounds = []
    for entry in doc["rounds"]:
        if not isinstance(entry, dict):
            break
        actions = entry.get("actions", []) if isinstance(entry.get("actions"), list) else []
        take = max(0, min(len(actions), step - count))
        rounds.append({**entry, "actions": actions[:take]})
        count += take
        if count >= step and take < len(actions):
            break
    result = replay({**doc, "rounds": rounds})
    if result.game is None or result.game.round_number == 0:
        raise TableError("bad_record", result.error.message if result.error else "no game")
    return {"view": result.game.open_view().to_json(),
            "error": result.error.to_json()["error"] if result.error else None}


def _rules_route(app: FastAPI) -> None:
    @app.get("/api/rules")
    async def rules_in_words(preset: str = "chile", options: str = "{}",
                             lang: str = "es") -> dict[str, Any]:
        """A preset's rules with the changes ``options`` (a JSON object of option names), in
        words (:func:`carioca.describe.describe_rules`), in ``lang`` or else in English."""
        from ..describe import LANGS, describe_rules
        from ..rules import RuleSet

        try:
            changes = json.loads(options)
        except (ValueError, RecursionError):
            changes = None
        if not isinstance(changes, dict):
            raise TableError("bad_options", "options must be a JSON object of rule names")
        try:
            rules = RuleSet.preset(preset, **changes)
        except (TypeError, ValueError) as exc:  # RulesError is a ValueError
            # The reason may quote the input: a long one is cut (in both languages).
            raise _RulesRefused(str(exc), most=300) from None
        lang = lang.strip().lower()
        lang = lang if lang in LANGS else "en"
        return {"text": describe_rules(rules, lang), "lang": lang,
                "preset": rules.preset_name, "options": dict(rules.options)}


def _page_routes(app: FastAPI, manager: TableManager) -> None:
    def page(name: str) -> FileResponse:
        path = WEB / name
        if not path.is_file():
            raise TableError("no_page", f"{name} is missing from this install", 404)
        # Asked again each time (answered 304 while unchanged): a page of a table that moved
        # to another server must not come back from the cache, redirect and all.
        return FileResponse(path, media_type="text/html", headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return page("index.html")

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str, request: Request) -> Response:
        if manager.cluster is not None:
            try:
                manager.get(code)
            except TableError as exc:
                if exc.code == "no_table":  # a 307 or not tells codes apart: counted too
                    request.app.state.guesses.noted(_address(request.scope), code)
                here = str(request.base_url).rstrip("/")
                if exc.url is not None and exc.url != here:
                    # Served by another process: its page, there, with the seat's pass
                    # (kept in this address's cookie, which the other address cannot read).
                    query = dict(request.query_params)
                    token = request.cookies.get(f"carioca_{code.upper()}")
                    if token and "token" not in query:
                        query["token"] = token
                    where = f"{exc.url}/t/{quote(code)}"
                    if query:
                        where += "?" + urlencode(query)
                    return RedirectResponse(where, status_code=307)
                # Else the page opens here and says so, or follows its table once it can.
        return page("table.html")

    @app.get("/replay", include_in_schema=False)
    async def replay_page() -> FileResponse:
        return page("replay.html")

    @app.get("/rules", include_in_schema=False)
    async def rules_page() -> FileResponse:
        return page("rules.html")

    @app.get("/anotador", include_in_schema=False)
    async def anotador_root() -> RedirectResponse:
        return RedirectResponse("/anotador/")

    if (WEB / "anotador").is_dir():
        app.mount("/anotador", StaticFiles(directory=WEB / "anotador", html=True),
                  name="anotador")
    if WEB.is_dir():
        app.mount("/static", StaticFiles(directory=WEB), name="static")


def _socket_route(app: FastAPI, manager: TableManager) -> None:
    @app.websocket("/ws/{code}")
    async def socket(ws: WebSocket, code: str) -> None:
        await ws.accept()
        guesses: PerAddress = app.state.guesses
        who = _address(ws.scope)
        try:
            if guesses.blocked(who):
                raise TableError("too_many_tries", TOO_MANY_GUESSES, 429)
            table = manager.get(code)
        except TableError as exc:
            if exc.code == "no_table":
                guesses.noted(who, code)
            refusal = {"type": "error", "code": exc.code, "message": exc.message}
            if exc.url is not None:
                refusal["url"] = exc.url  # the page goes there
            await ws.send_json(refusal)
            await ws.close()
            return
        try:
            hello = _HELLO.validate_json(await _receive(ws))
        except WebSocketDisconnect:
            return  # gone before saying hello: nothing to undo
        except (ValidationError, _TooBig):
            await ws.send_json({"type": "error", "code": "bad_message",
                                "message": 'say hello first: {"type": "hello", "token": ...}'})
            await ws.close()
            return
        seat = table.seat_of(hello.token)
        # From here on everything this socket is sent goes through the connection's outbox,
        # in order, written by a task of its own: states from the background loop, replies
        # from here (a socket that does not read holds up nobody but itself).
        conn = Connection(seat, ws.send_json, (hello.lang or "es")[:2], close=ws.close)
        manager.open(table, conn)
        if seat is not None:
            table.seats[seat].connected += 1
            table.presence += 1
        try:
            try:
                if seat is not None and table.seats[seat].stand_in is not None:
                    async with table.lock:  # after the move the bot may be making
                        table.take_back(seat)
            except TableMoved as exc:  # taking the seat back found the table served elsewhere
                manager.moved(exc, table)
            if table.gone:
                # Let go (another server serves it now) between the lookup and here: the
                # page asks again, and is sent there.
                await conn.finish({"type": "error", "code": "moved", "message": MOVED})
                return
            welcome: dict[str, Any] = {"type": "welcome", "seat": seat, "table": table.info()}
            if manager.cluster is not None:
                welcome["peers"] = manager.peers
            conn.post(welcome)
            conn.post_state(table.state_for(seat))
            if seat is None and hello.token:
                # A pass from another table or an old game: say so, rather than seat them
                # silently among the spectators with a page that thinks it has a seat.
                conn.post({"type": "error", "code": "unknown_token",
                           "message": "your seat pass is not one of this table's, "
                                      "so you are watching; join to sit down"})
            # Only now among the table's connections: no state goes out before the welcome.
            table.conns.add(conn)
            manager.poke(table)
            await _serve(ws, table, conn, manager)
        except WebSocketDisconnect:
            pass
        except TableMoved as exc:
            manager.moved(exc, table)
        finally:
            conn.hang_up()
            table.conns.discard(conn)
            table.touched = time.time()  # a table's keep counts from when the last one left
            if seat is not None:
                table.seats[seat].connected -= 1
                table.presence += 1
                manager.poke(table)


class _TooBig(Exception):
    pass


async def _receive(ws: WebSocket) -> str:
    message = await ws.receive()
    if message.get("type") == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        data = message.get("bytes") or b""
        if len(data) > MAX_MESSAGE:
            raise _TooBig
        text = data.decode("utf-8", errors="replace")
    if len(text) > MAX_MESSAGE or len(text.encode("utf-8", "replace")) > MAX_MESSAGE:
        raise _TooBig  # in bytes, as the limit says (an "é" is two)
    return str(text)


async def _serve(ws: WebSocket, table: Table, conn: Connection, manager: TableManager) -> None:
    # A connection its writer dropped (it stopped reading) is read no more: its moves would
    # be played with no answer it could see.
    while not table.gone and not conn.closing:
        try:
            raw = await _receive(ws)
            if conn.closing:
                break
            msg = _CLIENT.validate_json(raw)
        except _TooBig:
            await conn.deliver({"type": "error", "code": "too_big",
                                "message": f"messages are at most {MAX_MESSAGE} bytes"})
            continue
        except ValidationError as exc:
            await conn.deliver({"type": "error", "code": "bad_message",
                                "message": _validation_text(exc)})
            continue
        reply = await _handle(msg, table, conn)
        # Waited for: a client that sends without reading is read no faster than it reads.
        await conn.deliver(reply)
        manager.poke(table)
    # This copy of the table was let go: whoever still talks to it is sent on (the letting go
    # has told this connection so already, unless it came in between: then it is told here).
    # A connection dropped already is only waited for: its writer has closed it.
    await conn.finish({"type": "error", "code": "moved", "message": MOVED})


_MESSAGE_TYPES = ("action", "pass", "undo", "hint", "ping")
"""What a seat may send once it has said hello."""


def _validation_text(exc: ValidationError) -> str:
    """Why a socket message was refused, in words, without echoing what was sent."""
    errors = exc.errors()
    if not errors:
        return "that message is not understood"
    first = errors[0]
    loc = [str(p) for p in first["loc"]]
    if loc and loc[0] in _MESSAGE_TYPES:  # the message's own type leads the path
        loc = loc[1:]
    where = ".".join(loc)[:40]
    kind = first.get("type", "")
    if kind == "json_invalid":
        return "that message is not JSON"
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        if str(first.get("ctx", {}).get("tag", "")) == "hello":
            return "you are connected already: hello comes once, first"
        return "that message's type is not one of: " + ", ".join(_MESSAGE_TYPES)
    if kind == "missing":
        return f"that message lacks {where}"
    if kind == "extra_forbidden":
        return f"that message has a field it should not have: {where}"
    reason = str(first.get("msg", ""))[:80]
    return f"that message is not understood: {where}: {reason}" if where else \
        f"that message is not understood: {reason}"


async def _handle(msg: Any, table: Table, conn: Connection) -> dict[str, Any]:
    if isinstance(msg, PingMsg):
        if table.manager.cluster is not None:  # the live servers, for when this one stops
            return {"type": "pong", "peers": table.manager.peers}
        return {"type": "pong"}
    if isinstance(msg, HintMsg):
        answer = await _hint(table, conn)
        if answer["type"] == "error":
            answer["about"] = "hint"  # not the refusal of a move sent before it
        return answer
    async with table.lock:
        try:
            if isinstance(msg, ActionMsg):
                await table.manager.settle_buys(table)  # a draw closes the buy window
                table.apply(conn.seat, msg.action, msg.version)
            elif isinstance(msg, PassMsg):
                table.pass_buy(conn.seat, msg.version)
            elif isinstance(msg, UndoMsg):
                table.undo(conn.seat, msg.version)
        except TableError as exc:
            return {"type": "error", "code": exc.code, "message": exc.message}
        except IllegalAction as exc:
            reply = {"type": "error", "code": exc.code, "message": exc.message}
            if conn.lang == "es" and exc.code in _DETAILED:
                # Which card, which meld and why, not only "that is not the contract".
                reply["detail"] = explain(exc, "es")
            return reply
        except TableMoved as exc:
            table.manager.moved(exc, table)
            return {"type": "error", "code": "moved", "message": MOVED}
        except Exception as exc:
            if not unavailable(exc):
                raise
            log.error("table %s: %s", table.code, exc)
            return {"type": "error", "code": "unavailable", "message": UNAVAILABLE}
        return {"type": "ack", "version": table.version}




def _service_errors() -> list[type[Exception]]:
    """The errors of the stores and of Redis's client (PostgreSQL's and Redis's where they
    are installed)."""
    found: list[type[Exception]] = [sqlite3.OperationalError]
    try:
        import psycopg

        found.append(psycopg.Error)
    except ImportError:
        pass
    try:
        import redis

        found.append(redis.RedisError)
    except ImportError:
        pass
    return found

_DETAILED = frozenset({"not_the_contract", "does_not_fit", "cannot_relocate",
                       "no_wild_for_card", "cannot_buy", "must_go_out"})
"""The refusals whose Spanish words say more than the page's own word for the code."""


async def _hint(table: Table, conn: Connection) -> dict[str, Any]:
    game = table.game
    if not table.hints:
        return {"type": "error", "code": "no_hints", "message": "the host turned hints off"}
    if game is None or conn.seat is None or (game.seat_to_act != conn.seat
                                             and not table.may_claim(conn.seat)):
        return {"type": "error", "code": "not_your_turn",
                "message": "hints come in your turn, or when you may buy"}
    try:
        from ..coach import hint  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return {"type": "error", "code": "no_coach", "message": "the coach is not installed"}
    lang = conn.lang if conn.lang in LANGS else "en"
    # The view is taken here; the coach reads only it, in the bots' thread, not on the loop.
    version = table.version
    view = game.view(conn.seat)
    try:
        advice = await table.manager.coach(conn, hint, view, game.rules, lang)
    except Exception:  # noqa: BLE001 - a fault of the coach's: the table goes on without it
        log.exception("the coach failed on a position")
        return {"type": "error", "code": "no_coach", "message": "the coach cannot advise here"}
    if advice is None:
        return {"type": "error", "code": "no_coach", "message": "the coach took too long"}
    if not table.current(version) or table.game is not game or (
            game.seat_to_act != conn.seat and not table.may_claim(conn.seat)):
        # The table moved while the coach thought (the window closed, a move was played):
        # advice for a moment gone would mislead.
        return {"type": "error", "code": "stale_version",
                "message": "the table moved on: ask again"}
    # "Let it pass" is no action to show: only its reason is. A draw from the pozo or a buy
    # names its card, as the log does ("compra el 7♥ del pozo"): it lies face up.
    action = None if advice.code == "no_buy" else advice.action.to_json()
    if action is not None and (action.get("draw") == "pozo" or "buy" in action) \
            and view.pozo_top is not None:
        action["card"] = str(view.pozo_top)
    return {"type": "hint", "action": action, "reason": advice.reason, "code": advice.code}

