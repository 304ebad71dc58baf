"""``carioca serve``: the server on a SQLite file in the user's data folder, or one of
several servers sharing PostgreSQL and Redis."""

from __future__ import annotations

import contextlib
import os
import socket
import sqlite3
from pathlib import Path
from typing import Annotated, Any

import typer

from .app import TABLES_PER_TEN_MINUTES


def default_db() -> Path:
    """``$XDG_DATA_HOME/carioca/carioca.sqlite`` (``~/.local/share/...`` by default)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "carioca" / "carioca.sqlite"


def _fail(message: str) -> typer.Exit:
    typer.echo(f"carioca: {message}", err=True)
    return typer.Exit(2)


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound before the address is printed, so that the address shown
    is the one that answers (or a clear message says why there is none)."""
    if not 0 <= port <= 65535:
        raise _fail(f"--port is a number from 1 to 65535 (0: any free port), not {port}")
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
    except OSError as exc:
        raise _fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    listener.listen(128)
    return listener


def _addresses(host: str, port: int) -> list[str]:
    """Where to open the page: on this machine, and, when listening on every address, at
    this machine's address on the network (for the phones at the table)."""
    if host not in ("0.0.0.0", "::"):
        shown = f"[{host}]" if ":" in host else host
        return [f"http://{shown}:{port}/"]
    found = [f"http://127.0.0.1:{port}/"]
    with contextlib.suppress(OSError):
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        with probe:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks a route
            lan = probe.getsockname()[0]
        if lan and not lan.startswith("127."):
            found.append(f"http://{lan}:{port}/")
    return found


MAX_BOT_DELAY = 60.0
"""The longest a bot may be told to wait before it plays, in seconds."""


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every "
                                                "address, for phones on the same network)."
                                                )] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
        db: Annotated[str | None, typer.Option(
            help="SQLite file (default: user data folder), or a postgresql:// address that "
                 "several servers share (with --redis).")] = None,
        bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before it "
                                                      "plays.")] = 0.7,
        redis: Annotated[str | None, typer.Option(
            help="Redis address (redis://host:6379/0): this server is one of several on "
                 "the same postgresql:// --db, each serving the tables it holds.")] = None,
        public_url: Annotated[str | None, typer.Option(
            help="With --redis: the address at which the other servers send players to "
                 "this one's tables (default: the last address printed).")] = None,
        lease: Annotated[float, typer.Option(
            help="With --redis: seconds before another server takes over the tables of "
                 "one that stopped answering.", min=1.0, max=3600.0)] = 15.0,
        tables_per_address: Annotated[int, typer.Option(
            help="New tables one address may open in ten minutes (0: no limit, for a load "
                 "test).", min=0, max=100_000)] = TABLES_PER_TEN_MINUTES,
    ) -> None:
        """Start the server: tables with friends and bots in the browser."""
        import uvicorn

        if not 0 <= bot_delay <= MAX_BOT_DELAY:  # nan too: a bot that would never play
            raise _fail(f"--bot-delay is 0 to {MAX_BOT_DELAY:g} seconds, not {bot_delay}")
        where = db or str(default_db())
        shared = where.startswith(("postgresql://", "postgres://"))
        if redis is not None and not shared:
            raise _fail("--redis shares the tables of a postgresql:// --db among servers; "
                        "a SQLite file belongs to one server")
        listener = _listen(host, port)
        port = listener.getsockname()[1]  # --port 0: the one the system chose
        addresses = _addresses(host, port)
        application = _app(where, bot_delay, redis, public_url or addresses[-1], lease,
                           tables_per_address)
        shown = "PostgreSQL" if shared else where
        for address in addresses:
            typer.echo(f"Carioca: {address}   (partidas en {shown})")
        config = uvicorn.Config(application, log_level="warning")
        uvicorn.Server(config).run(sockets=[listener])


def _app(where: str, bot_delay: float, redis: str | None, url: str, lease: float,
         tables_per_address: int = TABLES_PER_TEN_MINUTES) -> Any:
    """The server's app on its store (and cluster), or a clear message why it cannot be."""
    from .app import create_app

    try:
        cluster = None
        if redis is not None:
            from .cluster import Cluster

            try:
                cluster = Cluster(redis, url, lease=lease)
            except ValueError as exc:  # redis-py reads the address before it connects
                raise _fail(f"--redis {redis!r} is not a Redis address "
                            f"(redis://host:6379/0): {exc}") from None
        return create_app(where, bot_delay=bot_delay, cluster=cluster,
                          tables_per_address=tables_per_address)
    except ImportError as exc:  # psycopg or redis-py: the extra that brings them
        raise _fail(f"PostgreSQL and Redis need {exc.name or 'their clients'}: "
                    "pip install 'carioca[distributed]'") from None
    except (OSError, sqlite3.Error) as exc:
        raise _fail(f"cannot keep the tables in {where}: {exc}") from None
    except Exception as exc:  # psycopg's and redis's errors: the address or the service
        from .cluster import unavailable

        if not unavailable(exc):
            raise
        service = "Redis" if type(exc).__module__.startswith("redis") else "PostgreSQL"
        raise _fail(f"cannot reach {service}: {str(exc).strip() or type(exc).__name__}"
                    ) from None
