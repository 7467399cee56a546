"""What every importer produces: sessions of turns, nothing about storage."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import Protocol


@dataclass(frozen=True)
class Turn:
    speaker: str
    text: str
    timestamp: datetime | None = None
    external_id: str | None = None  # the source's own message id, e.g. LoCoMo "D1:3"


@dataclass(frozen=True)
class Session:
    external_id: str  # stable within its source: conversation id, "session_3", "2024-05-08"
    turns: tuple[Turn, ...]
    started_at: datetime | None = None
    title: str | None = None


@dataclass(frozen=True)
class ParsedSource:
    format: str
    sessions: tuple[Session, ...]
    owner: str | None = None  # the diarist / export owner, when the file says who it is
    participants: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class ParseOptions:
    """What the user told us about a file that the file may not say itself.

    day_first: True (--dayfirst), False (--monthfirst) or None (decide from the file's dates,
    refusing when they cannot tell). tz: the zone that UTC times (ChatGPT's epochs) are
    shown in; None is this machine's zone. Every stored time is local wall-clock time.
    """

    day_first: bool | None = None
    tz: tzinfo | None = None


class Importer(Protocol):
    """One export format. Pure: bytes in, sessions out; raises ImportFormatError."""

    name: str

    def sniff(self, filename: str, head: bytes) -> bool:
        """Cheap check on the name and the first bytes: could this be my format?"""
        ...

    def parse(
        self, data: bytes, filename: str, self_name: str | None = None, options: ParseOptions | None = None
    ) -> ParsedSource:
        """All sessions of the file; `filename` may be "archive.zip:member" (its name says things
        like the WhatsApp chat's name)."""
        ...
