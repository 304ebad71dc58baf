"""Where tables and their games are kept: every accepted action is written before it is
acknowledged, so a restarted server resumes every table with nothing lost."""

from .sqlite import SQLiteStore, StoredTable

__all__ = ["SQLiteStore", "StoredTable"]
