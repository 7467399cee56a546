"""How long-running core work reports progress; the CLI decides whether to draw it."""

from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    def start(self, label: str, total: int) -> None: ...

    def advance(self, amount: int) -> None: ...

    def note(self, text: str) -> None:
        """A short status next to the bar (the write path: calls/s and tokens so far)."""
        ...


class SilentProgress:
    def start(self, label: str, total: int) -> None:
        return None

    def advance(self, amount: int) -> None:
        return None

    def note(self, text: str) -> None:
        return None
