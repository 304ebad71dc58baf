"""The SQLite store (standard library, WAL): one file holds every table of a server.

A table is its settings (a JSON object) plus, per game, the rounds' deals and the actions in
order: exactly a ``carioca-record/1`` document, so a game is rebuilt by replaying it.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["SQLiteStore", "StoredTable", "stored_round"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY,
    meta TEXT NOT NULL,
    updated REAL NOT NULL DEFAULT (julianday('now'))
);
CREATE TABLE IF NOT EXISTS rounds (
    code TEXT NOT NULL,
    game INTEGER NOT NULL,
    round INTEGER NOT NULL,
    seed INTEGER,
    deal TEXT NOT NULL,
    PRIMARY KEY (code, game, round)
);
CREATE TABLE IF NOT EXISTS actions (
    code TEXT NOT NULL,
    game INTEGER NOT NULL,
    round INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (code, game, round, seq)
);
"""


@dataclass
class StoredTable:
    """A table as stored: its settings and, for its current game, the record's rounds."""

    code: str
    meta: dict[str, Any]
    rounds: list[dict[str, Any]] = field(default_factory=list)
    updated: float | None = field(default=None, compare=False)
    """When its settings were last written (epoch seconds): a join, a start, a game's end."""


def stored_round(seed: int | None, deal: str, actions: list[str]) -> dict[str, Any]:
    """A round of a record from the stored texts: its seed (if known), deal and actions."""
    entry: dict[str, Any] = {"deal": json.loads(deal), "actions": [json.loads(a) for a in actions]}
    return entry if seed is None else {"seed": seed, **entry}


class SQLiteStore:
    """Tables, deals and actions in one SQLite file. Thread-safe; each write is committed
    before the call returns."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            # NORMAL survives a killed process (the WAL is on disk); only a power cut may lose
            # the last commits.
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        with self._lock:
            self._db.execute(sql, args)

    def save_table(self, code: str, meta: dict[str, Any]) -> None:
        self._write(
            "INSERT INTO tables (code, meta) VALUES (?, ?) ON CONFLICT(code) DO UPDATE SET "
            "meta = excluded.meta, updated = julianday('now')",
            (code, json.dumps(meta)),
        )

    def save_round(self, code: str, game: int, number: int, seed: int | None,
                   deal: dict[str, Any]) -> None:
        self._write("INSERT OR REPLACE INTO rounds VALUES (?, ?, ?, ?, ?)",
                    (code, game, number, seed, json.dumps(deal)))

    def append_action(self, code: str, game: int, number: int, seq: int,
                      action: dict[str, Any]) -> None:
        self._write("INSERT OR REPLACE INTO actions VALUES (?, ?, ?, ?, ?)",
                    (code, game, number, seq, json.dumps(action)))

    def delete_action(self, code: str, game: int, number: int, seq: int) -> None:
        self._write("DELETE FROM actions WHERE code = ? AND game = ? AND round = ? AND seq = ?",
                    (code, game, number, seq))

    def load_tables(self) -> list[StoredTable]:
        """Every table with the rounds and actions of its current game."""
        with self._lock:
            rows = self._db.execute("SELECT code, meta, (updated - 2440587.5) * 86400.0 "
                                    "FROM tables ORDER BY updated").fetchall()
            out = []
            for code, meta_text, updated in rows:
                meta = json.loads(meta_text)
                out.append(StoredTable(code, meta, self._rounds(code, int(meta.get("game", 0))),
                                       updated))
            return out

    def touch_table(self, code: str) -> None:
        """Note that ``code`` is in use now (its ``updated`` time)."""
        self._write("UPDATE tables SET updated = julianday('now') WHERE code = ?", (code,))

    def delete_table(self, code: str) -> bool:
        """Forget ``code`` whole: its settings, deals and actions, at once (False: there was
        no such table)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for name in ("actions", "rounds"):
                    self._db.execute(f"DELETE FROM {name} WHERE code = ?", (code,))
                gone = self._db.execute("DELETE FROM tables WHERE code = ?", (code,)).rowcount
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:  # nothing half-done joins the next writes
                    self._db.execute("ROLLBACK")
                raise
            return bool(gone)

    def _rounds(self, code: str, game: int) -> list[dict[str, Any]]:
        return [stored_round(seed, deal, [a for (a,) in self._db.execute(
                    "SELECT action FROM actions WHERE code = ? AND game = ? AND round = ? "
                    "ORDER BY seq", (code, game, number))])
                for number, seed, deal in self._db.execute(
                    "SELECT round, seed, deal FROM rounds WHERE code = ? AND game = ? "
                    "ORDER BY round", (code, game)).fetchall()]
