"""How long-running core work reports progress; the CLI decides whether to draw it."""

from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    def start(self, label: str, total: int) -> None: ...

    def advance(self, amount: int) -> None: ...


class SilentProgress:
    def start(self, label: str, total: int) -> None:
        return None

    def advance(self, amount: int) -> None:
        return None
