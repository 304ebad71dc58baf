"""Where tables and their games are kept: every accepted action is written before it is
acknowledged, so a restarted server resumes every table with nothing lost.

:class:`SQLiteStore` (one file, one process) and :class:`PostgresStore` (one database shared
by several processes, see :mod:`carioca.server.cluster`) answer the same calls.
"""

from __future__ import annotations

from typing import Any, Protocol

from .sqlite import SQLiteStore, StoredTable

__all__ = ["SQLiteStore", "Store", "StoredTable", "open_store"]


class Store(Protocol):
    """What the server asks of a store; each write is kept before the call returns."""

    def save_table(self, code: str, meta: dict[str, Any]) -> None: ...

    def save_round(self, code: str, game: int, number: int, seed: int | None,
                   deal: dict[str, Any]) -> None: ...

    def append_action(self, code: str, game: int, number: int, seq: int,
                      action: dict[str, Any]) -> None: ...

    def delete_action(self, code: str, game: int, number: int, seq: int) -> None: ...

    def load_tables(self) -> list[StoredTable]: ...

    def touch_table(self, code: str) -> None: ...

    def delete_table(self, code: str) -> bool: ...

    def close(self) -> None: ...


def open_store(where: str) -> Store:
    """The store at ``where``: a ``postgresql://`` address, or a SQLite file's path."""
    if where.startswith(("postgresql://", "postgres://")):
        from .postgres import PostgresStore

        return PostgresStore(where)
    return SQLiteStore(where)
