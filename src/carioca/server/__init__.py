"""Online play: the authoritative server, its tables and its pages (``carioca serve``)."""

from .app import create_app

__all__ = ["create_app"]
