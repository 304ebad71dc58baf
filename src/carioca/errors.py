"""Typed errors with stable codes and messages a player understands."""

from __future__ import annotations

__all__ = ["IllegalAction", "RecordError"]


class IllegalAction(ValueError):
    """An action the rules forbid now. ``code`` is stable (for programs and translations);
    the message names the rule in words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class RecordError(ValueError):
    """A game record that is malformed or breaks the rules, with where (1-based; ``None`` where
    the document itself is at fault)."""

    def __init__(self, message: str, round: int | None = None, action: int | None = None,
                 code: str = "bad_record") -> None:
        super().__init__(message)
        self.message = message
        self.round = round
        self.action = action
        self.code = code

    def to_json(self) -> dict[str, object]:
        return {"error": {"round": self.round, "action": self.action, "message": self.message}}
