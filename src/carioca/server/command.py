"""``carioca serve``: the server on a SQLite file in the user's data folder."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer


def default_db() -> Path:
    """``$XDG_DATA_HOME/carioca/carioca.sqlite`` (``~/.local/share/...`` by default)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "carioca" / "carioca.sqlite"


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
        db: Annotated[Path | None, typer.Option(help="SQLite file (default: user data "
                                                     "folder).")] = None,
        bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before it "
                                                      "plays.")] = 0.7,
    ) -> None:
        """Start the server: tables with friends and bots in the browser."""
        import uvicorn

        from .app import create_app

        path = db or default_db()
        application = create_app(path, bot_delay=bot_delay)
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        typer.echo(f"Carioca: http://{shown}:{port}/   (partidas en {path})")
        uvicorn.run(application, host=host, port=port, log_level="warning")
