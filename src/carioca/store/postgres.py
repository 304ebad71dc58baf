"""The PostgreSQL store, for several server processes on several machines (psycopg 3).

The same tables as the SQLite store (settings, deals, actions), so a game is again a
``carioca-record/1`` document rebuilt by replaying it. One more column makes it safe to share:
each table has an *epoch*, raised by the process that takes the table over (:meth:`adopt`).
Every write of that process checks, in the same transaction, that the epoch is still its
own; a process that lost the table (it stalled, its lease ran out, another took over) gets
:class:`TableMoved` instead of writing over the new owner's game.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from .sqlite import StoredTable, stored_round

__all__ = ["PostgresStore", "TableMoved"]

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS carioca_tables (
    code TEXT PRIMARY KEY,
    meta TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'lobby',
    epoch BIGINT NOT NULL DEFAULT 0,
    updated TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS carioca_tables_idle ON carioca_tables (status, updated);
CREATE TABLE IF NOT EXISTS carioca_rounds (
    code TEXT NOT NULL,
    game INTEGER NOT NULL,
    round INTEGER NOT NULL,
    seed NUMERIC,
    deal TEXT NOT NULL,
    PRIMARY KEY (code, game, round)
);
CREATE TABLE IF NOT EXISTS carioca_actions (
    code TEXT NOT NULL,
    game INTEGER NOT NULL,
    round INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (code, game, round, seq)
);
"""


_SCHEMA_LOCK = 0x0CA210CA
"""The advisory lock held while the tables are made."""


class TableMoved(RuntimeError):
    """Another server process has taken the table over, or the store holds another game
    than this process has in memory: this one must let it go (and read it again)."""

    def __init__(self, code: str, table: object = None) -> None:
        super().__init__(f"table {code} is served by another process now")
        self.code = code
        self.table = table
        """The copy of the table that wrote, when known."""


class PostgresStore:
    """Tables, deals and actions in PostgreSQL. Thread-safe; each write is committed before
    the call returns.

    ``url`` is a libpq address (``postgresql://user@host/db``); ``schema`` keeps the tables
    in a schema of their own (created if missing), so that tests or several deployments can
    share one database.
    """

    def __init__(self, url: str, *, schema: str | None = None) -> None:
        self.url = url
        self.schema = schema
        self._lock = threading.Lock()
        self._epochs: dict[str, int] = {}
        self.fenced = False
        """Set when several processes share the database: every write must then be made
        under an epoch this process holds."""
        with self._lock:
            self._db = self._connect()
            # Servers started at the same moment on a new database make the tables once
            # (two concurrent CREATE TABLE IF NOT EXISTS may collide in PostgreSQL).
            self._db.execute("SELECT pg_advisory_lock(%s)", (_SCHEMA_LOCK,))
            try:
                self._db.execute(_SCHEMA)
            finally:
                self._db.execute("SELECT pg_advisory_unlock(%s)", (_SCHEMA_LOCK,))

    def _connect(self) -> Any:
        import psycopg

        # A database that stops answering is found out in seconds, not when TCP gives up:
        # the store's calls are made on the server's event loop.
        db = psycopg.connect(self.url, autocommit=True, connect_timeout=5, keepalives=1,
                             keepalives_idle=10, keepalives_interval=3, keepalives_count=3,
                             tcp_user_timeout=10000)
        db.execute("SET statement_timeout TO '5s'")
        # As the SQLite store's synchronous=NORMAL: a commit is kept once PostgreSQL has it,
        # whatever happens to this process; only a crash of PostgreSQL itself may lose the
        # last fraction of a second. Waiting for the disk on every move halved the actions a
        # server sustained (bench/bench_server.py: about 390 a second against 790).
        db.execute("SET synchronous_commit TO off")
        if self.schema is not None:
            name = psycopg.sql.Identifier(self.schema)
            db.execute(psycopg.sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(name))
            db.execute(psycopg.sql.SQL("SET search_path TO {}").format(name))
        return db

    def _run(self, work: Callable[[Any], T]) -> T:
        """``work(connection)`` (the lock is held), once more on a new connection if the old
        one broke (PostgreSQL restarted, or cut the connection): every statement of this
        store may run twice."""
        import psycopg

        try:
            return work(self._db)
        except psycopg.OperationalError:
            if not (self._db.closed or self._db.broken):
                raise
        self._db = self._connect()
        return work(self._db)

    def _one(self, sql: str, args: tuple[Any, ...] = ()) -> Any:
        """The first row of ``sql`` (None: none); the lock is held."""
        return self._run(lambda db: db.execute(sql, args).fetchone())

    def _all(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        """Every row of ``sql``; the lock is held."""
        return self._run(lambda db: db.execute(sql, args).fetchall())

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def ping(self) -> None:
        """Raise unless the database answers."""
        with self._lock:
            self._one("SELECT 1")

    # ------------------------------------------------------------------ ownership

    def adopt(self, code: str) -> int:
        """Take ``code`` over: raise its epoch and write only under the new one from now on
        (the process that had it gets :class:`TableMoved` on its next write)."""
        def bump(db: Any) -> Any:
            with db.transaction():
                # On disk before anything is served under it: a lost bump would reopen the
                # fence for the process that had the table.
                db.execute("SET LOCAL synchronous_commit TO on")
                return db.execute("UPDATE carioca_tables SET epoch = epoch + 1 WHERE code = %s "
                                  "RETURNING epoch", (code,)).fetchone()

        with self._lock:
            row = self._run(bump)
            if row is None:
                raise KeyError(code)
            self._epochs[code] = int(row[0])
            return self._epochs[code]

    def still_mine(self, code: str) -> bool:
        """Whether ``code``'s epoch is still the one this process adopted."""
        with self._lock:
            row = self._one("SELECT epoch FROM carioca_tables WHERE code = %s", (code,))
            return row is not None and int(row[0]) == self._epochs.get(code)

    def forget(self, code: str) -> None:
        """This process no longer serves ``code``: a write for it that is still on its way
        (a bot's move, say) gets :class:`TableMoved`, until the table is adopted again."""
        with self._lock:
            self._epochs[code] = -1

    def _write(self, code: str, sql: str, args: tuple[Any, ...]) -> int:
        """Run ``sql``, whose ``{fence}`` stands for the condition that this process still
        serves ``code``, in one statement (one round trip); the rows it wrote. ``FOR SHARE``
        orders it with a take-over: either it commits first (and the new owner reads it), or
        it waits for the take-over and then finds the epoch changed."""
        with self._lock:
            mine = self._epochs.get(code)
            if mine is None:
                if self.fenced:  # shared, and never adopted here: not this process's
                    raise TableMoved(code)
                # One process on this database: nothing to fence.
                return int(self._run(lambda db: db.execute(sql.format(fence="TRUE"),
                                                            args).rowcount))
            row = self._one(
                "WITH owner AS (SELECT 1 FROM carioca_tables WHERE code = %s AND epoch = %s "
                "FOR SHARE), done AS (" + sql.format(fence="EXISTS (SELECT 1 FROM owner)")
                + " RETURNING 1) SELECT (SELECT count(*) FROM owner), "
                "(SELECT count(*) FROM done)", (code, mine, *args))
            if row is None or not row[0]:
                raise TableMoved(code)
            return int(row[1])

    # ------------------------------------------------------------------ the store's calls

    def save_table(self, code: str, meta: dict[str, Any]) -> None:
        status = str(meta.get("status", "lobby"))
        with self._lock:
            if code not in self._epochs:
                # A new table: it starts at epoch 1, owned by the process that made it.
                row = self._one(
                    "INSERT INTO carioca_tables (code, meta, status, epoch) "
                    "VALUES (%s, %s, %s, 1) ON CONFLICT (code) DO NOTHING RETURNING epoch",
                    (code, json.dumps(meta), status))
                if row is not None:
                    self._epochs[code] = 1
                    return
                if self.fenced:
                    # A process makes a table only under its lease, for a code the store did
                    # not have: this is its own insert, committed before a broken connection
                    # made it run again. The fenced update checks that the epoch is still 1.
                    self._epochs[code] = 1
        self._write(code, "UPDATE carioca_tables SET meta = %s, status = %s, updated = now() "
                          "WHERE code = %s AND {fence}", (json.dumps(meta), status, code))

    def save_round(self, code: str, game: int, number: int, seed: int | None,
                   deal: dict[str, Any]) -> None:
        self._write(code,
                    "INSERT INTO carioca_rounds SELECT %s, %s, %s, %s::numeric, %s WHERE {fence} "
                    "ON CONFLICT (code, game, round) DO UPDATE SET seed = excluded.seed, "
                    "deal = excluded.deal", (code, game, number, seed, json.dumps(deal)))

    def append_action(self, code: str, game: int, number: int, seq: int,
                      action: dict[str, Any]) -> None:
        # Shared, an action is written only after its round's deal and the action before it:
        # should PostgreSQL have lost a commit (a crash, with synchronous_commit off), the
        # process reads the game again instead of building on a record with a hole in it.
        written = self._write(
            code,
            "INSERT INTO carioca_actions SELECT %s, %s, %s, %s, %s WHERE {fence} AND (NOT %s "
            "OR EXISTS (SELECT 1 FROM carioca_rounds WHERE code = %s AND game = %s AND "
            "round = %s) AND (%s = 0 OR EXISTS (SELECT 1 FROM carioca_actions WHERE "
            "code = %s AND game = %s AND round = %s AND seq = %s))) "
            "ON CONFLICT (code, game, round, seq) DO UPDATE SET action = excluded.action",
            (code, game, number, seq, json.dumps(action), self.fenced, code, game, number,
             seq, code, game, number, seq - 1))
        if self.fenced and not written:
            raise TableMoved(code)

    def delete_action(self, code: str, game: int, number: int, seq: int) -> None:
        self._write(code, "DELETE FROM carioca_actions WHERE code = %s AND game = %s AND "
                          "round = %s AND seq = %s AND {fence}", (code, game, number, seq))

    def load_tables(self) -> list[StoredTable]:
        """Every table with the rounds and actions of its current game."""
        with self._lock:
            codes = [c for (c,) in self._all("SELECT code FROM carioca_tables ORDER BY updated")]
        return [t for t in map(self.load_table, codes) if t is not None]

    def load_table(self, code: str) -> StoredTable | None:
        """One table with the rounds and actions of its current game (None: no such table)."""
        with self._lock:
            row = self._one("SELECT meta, extract(epoch FROM updated)::float8 FROM "
                            "carioca_tables WHERE code = %s", (code,))
            if row is None:
                return None
            meta = json.loads(row[0])
            game = int(meta.get("game", 0))
            deals = self._all(
                "SELECT round, seed, deal FROM carioca_rounds WHERE code = %s AND game = %s "
                "ORDER BY round", (code, game))
            actions: dict[int, list[str]] = {}
            for number, text in self._all(
                    "SELECT round, action FROM carioca_actions WHERE code = %s AND game = %s "
                    "ORDER BY round, seq", (code, game)):
                actions.setdefault(int(number), []).append(text)
        rounds = [stored_round(None if seed is None else int(seed), deal,
                               actions.get(int(number), []))
                  for number, seed, deal in deals]
        return StoredTable(code, meta, rounds, float(row[1]))

    def touch_table(self, code: str) -> None:
        """Note that ``code`` is in use now (its ``updated`` time), if this process still
        serves it (else :class:`TableMoved`)."""
        written = self._write(code, "UPDATE carioca_tables SET updated = now() "
                                    "WHERE code = %s AND {fence}", (code,))
        if self.fenced and not written:
            raise TableMoved(code)

    def delete_table(self, code: str, idle: dict[str, float] | None = None) -> bool:
        """Forget ``code`` whole, in one statement: its settings, deals and actions; only if
        this process still serves it (else :class:`TableMoved`) and, given ``idle``, only if
        it is idle as :meth:`idle` says (else False, and nothing is deleted)."""
        with self._lock:
            mine = self._epochs.get(code)
            if mine is None and self.fenced:
                raise TableMoved(code)
            conditions: list[str] = ["code = %s"]
            args: list[Any] = [code]
            if mine is not None:
                conditions.append("epoch = %s")
                args.append(mine)
            if idle is not None:
                clause, more = _idle_clause(idle)
                conditions.append(f"({clause})")
                args += more
            row = self._one(
                "WITH gone AS (DELETE FROM carioca_tables WHERE " + " AND ".join(conditions)
                + " RETURNING code), deals AS (DELETE FROM carioca_rounds WHERE code IN "
                "(SELECT code FROM gone)), moves AS (DELETE FROM carioca_actions WHERE code IN "
                "(SELECT code FROM gone)) SELECT count(*) FROM gone", tuple(args))
            if row[0]:
                self._epochs.pop(code, None)
                return True
            if idle is None and self.fenced:
                raise TableMoved(code)
            return False

    def idle(self, keep: dict[str, float], most: int) -> list[str]:
        """Up to ``most`` codes of tables whose status has a ``keep`` (seconds) and whose
        settings were last written longer ago than it, oldest first."""
        clause, args = _idle_clause(keep)
        with self._lock:
            return [c for (c,) in self._all(
                f"SELECT code FROM carioca_tables WHERE {clause} "
                "ORDER BY updated LIMIT %s", (*args, most))]

    def exists(self, code: str) -> bool:
        with self._lock:
            return self._one("SELECT 1 FROM carioca_tables WHERE code = %s", (code,)) is not None

    def playing(self) -> list[str]:
        """The codes of the tables whose game is being played, oldest change first."""
        with self._lock:
            return [c for (c,) in self._all(
                "SELECT code FROM carioca_tables WHERE status = 'playing' ORDER BY updated")]


def _idle_clause(keep: dict[str, float]) -> tuple[str, list[Any]]:
    """SQL that holds for a table whose status has a ``keep`` (seconds) and whose settings
    were last written longer ago than it; and its arguments."""
    clause = " OR ".join("(status = %s AND updated < now() - make_interval(secs => %s))"
                         for _ in keep) or "FALSE"
    return clause, [x for status, seconds in keep.items() for x in (status, seconds)]
