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
import time
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
        prefix = f"{self.prefix}:node:"
        self.redis.set(prefix + self.me.node, self.me.url, px=int(self.lease * 1000))
        keys = sorted(self.redis.scan_iter(match=prefix + "*", count=1000))
        urls = self.redis.mget(keys) if keys else []
        return sorted({u.decode() for u in urls if u is not None} - {self.me.url})

    def _guesses_key(self, household: str) -> str:
        return f"{self.prefix}:guesses:{household}"

    def note_guess(self, household: str, code: str, window: float, most: int) -> None:
        """Count, for every process, a table code from ``household`` that named no table: a
        sorted set of its codes by when they were tried (the same code again counts once),
        which keeps only the newest ``most`` and lapses a ``window`` after the last."""
        key, now = self._guesses_key(household), time.time()
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(key, {code: now})
        pipe.zremrangebyscore(key, "-inf", now - window)
        pipe.zremrangebyrank(key, 0, -(most + 1))
        pipe.pexpire(key, max(1, int(window * 1000)))
        pipe.execute()

    def guesses(self, household: str, window: float) -> int:
        """How many codes that named no table ``household`` tried in the last ``window``
        seconds, on any process (wall clocks: a few seconds apart between machines do not
        matter to a minute)."""
        return int(self.redis.zcount(self._guesses_key(household), time.time() - window,
                                     "+inf"))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.redis.delete(f"{self.prefix}:node:{self.me.node}")
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
    """Whether ``exc`` is PostgreSQL's or Redis's (the service is away, or refused)."""
    return type(exc).__module__.split(".")[0] in ("psycopg", "psycopg_binary", "redis")
