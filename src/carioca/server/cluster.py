"""Several server processes, on one machine or many, sharing one PostgreSQL store (Redis).

Each table is served by one process at a time: the one holding its *lease*, a Redis key
that names the process and its address and lapses unless renewed. A request for a table
that another live process serves is sent there (its address is in the lease); a table whose
process died is taken over by the next process that is asked for it, or that finds it
during its sweep for unserved games, and resumes from the store as after a restart. The
store's epochs (:class:`carioca.store.postgres.TableMoved`) make sure that a process that
lost its lease without noticing (it stalled) cannot write over the new owner's game.

So one table's moves never need a lock across machines: the process that serves it keeps
the one lock it always had. What goes across machines is who serves which table.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sqlite3
from dataclasses import dataclass
from typing import Any

__all__ = ["Cluster", "Owner", "unavailable"]

# Renew the lease only if it is still ours; give it up only if it is still ours.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""
# Times are Redis's own (milliseconds), so the machines' clocks never have to agree. The
# scripts run on the cluster's connection of the moment (``client=self.redis``).
_NOW = """
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local now_us = t[1] * 1000000 + t[2]
"""
# The live processes: a sorted set of (name, address) by when each one's word lapses. Kept
# apart from every other key, so that finding them never walks the whole database.
_ANNOUNCE = _NOW + """
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZRANGE', KEYS[1], 0, -1)
"""
# A household's items (codes that named no table, tables opened) by when they came, in
# microseconds so that two a millisecond apart keep their order: the same item again counts
# once, only the newest ARGV[3] are kept, and the set lapses a window (ARGV[2], ms) after the
# last.
_NOTE = _NOW + """
redis.call('ZADD', KEYS[1], now_us, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_us - tonumber(ARGV[2]) * 1000)
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -(tonumber(ARGV[3]) + 1))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 0
"""
_COUNT = _NOW + """
local since = now_us - tonumber(ARGV[1]) * 1000
return redis.call('ZCOUNT', KEYS[1], '(' .. string.format('%d', since), '+inf')
"""


@dataclass(frozen=True)
class Owner:
    """The process that serves a table: its name and the address its pages answer at."""

    node: str
    url: str


class Cluster:
    """This process's part in the cluster: its name, its address, and its table leases.

    ``redis_url`` is a Redis address (``redis://host:6379/0``); ``url`` is where this
    process's pages answer (``http://10.0.0.5:8000``), handed to clients of its tables that
    asked another process; ``lease`` is how long (seconds) a table stays this process's
    without a renewal (renewed every third of it).
    """

    def __init__(self, redis_url: str, url: str, *, node: str | None = None,
                 lease: float = 15.0, prefix: str = "carioca") -> None:
        import redis

        # Short timeouts: the calls are made on the server's one event loop.
        self.redis: Any = redis.Redis.from_url(redis_url, socket_timeout=1,
                                               socket_connect_timeout=1)
        self.redis.ping()  # a wrong address says so at start, not at the first table
        self.me = Owner(node or secrets.token_hex(4), url.rstrip("/"))
        self.lease = lease
        self.prefix = prefix
        self._value = json.dumps({"node": self.me.node, "url": self.me.url})
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._announce = self.redis.register_script(_ANNOUNCE)
        self._note = self.redis.register_script(_NOTE)
        self._count = self.redis.register_script(_COUNT)

    def _key(self, code: str) -> str:
        return f"{self.prefix}:lease:{code}"

    def owner(self, code: str) -> Owner | None:
        """Who serves ``code`` now (None: nobody)."""
        return _owner(self.redis.get(self._key(code)))

    def unserved(self, codes: list[str]) -> list[str]:
        """Those of ``codes`` that no process serves now (one round trip)."""
        if not codes:
            return []
        leases = self.redis.mget([self._key(c) for c in codes])
        return [c for c, raw in zip(codes, leases, strict=True) if _owner(raw) is None]

    def acquire(self, code: str) -> bool:
        """Take the lease of ``code`` if nobody holds it; whether this process holds it now."""
        if self.redis.set(self._key(code), self._value, nx=True,
                          px=int(self.lease * 1000)):
            return True
        return self.owner(code) == self.me

    def renew(self, codes: list[str]) -> set[str]:
        """Renew the leases of ``codes``; the codes whose lease is no longer this process's."""
        if not codes:
            return set()
        pipe = self.redis.pipeline(transaction=False)
        for code in codes:
            self._renew(keys=[self._key(code)], args=[self._value, int(self.lease * 1000)],
                        client=pipe)
        return {code for code, kept in zip(codes, pipe.execute(), strict=True) if not kept}

    def release(self, code: str) -> None:
        self._release(keys=[self._key(code)], args=[self._value])

    def release_all(self, codes: list[str]) -> None:
        """Give up the leases of ``codes`` in one round trip (a server that stops)."""
        if not codes:
            return
        pipe = self.redis.pipeline(transaction=False)
        for code in codes:
            self._release(keys=[self._key(code)], args=[self._value], client=pipe)
        pipe.execute()

    def announce(self) -> list[str]:
        """Say that this process is alive (for a lease), and return the addresses of the
        others that are: a page whose server stops answering tries them."""
        live = self._announce(keys=[self._nodes_key()],
                              args=[self._value, int(self.lease * 1000)], client=self.redis)
        return sorted({owner.url for owner in map(_owner, live) if owner is not None}
                      - {self.me.url})

    def _nodes_key(self) -> str:
        return f"{self.prefix}:nodes"

    def _count_key(self, kind: str, household: str) -> str:
        return f"{self.prefix}:{kind}:{household}"

    def note(self, kind: str, household: str, item: str, window: float, most: int) -> None:
        """Count, for every process, one ``item`` of ``kind`` from ``household`` (a table
        code that named no table, a table opened): the same item again counts once; the
        newest ``most`` are kept, for ``window`` seconds after the last."""
        self._note(keys=[self._count_key(kind, household)],
                    args=[item, max(1, int(window * 1000)), most], client=self.redis)

    def count(self, kind: str, household: str, window: float) -> int:
        """How many items of ``kind`` ``household`` had counted in the last ``window``
        seconds, on any process."""
        return int(self._count(keys=[self._count_key(kind, household)],
                                 args=[max(1, int(window * 1000))], client=self.redis))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.redis.zrem(self._nodes_key(), self._value)
        self.redis.close()


def _owner(raw: bytes | None) -> Owner | None:
    if raw is None:
        return None
    try:
        data = json.loads(raw)
        return Owner(str(data["node"]), str(data["url"]))
    except (ValueError, KeyError, TypeError):
        return None  # not a lease of ours: treated as free, and taken over


def unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` is the store's or Redis's: PostgreSQL or Redis away, or refused, or the
    SQLite file locked, full or read-only (not a fault of ours, as a broken statement). The
    player is told to try again, as nothing of theirs was taken."""
    if isinstance(exc, sqlite3.OperationalError):
        return True
    return type(exc).__module__.split(".")[0] in ("psycopg", "psycopg_binary", "redis")
