"""Helpers shared by the importers: decoding, JSON loading, grouping, the final checks.

Kept here so every format reports bad input with the same one-line wording.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, datetime, tzinfo
from typing import Any

from memhop.core.errors import ImportFormatError
from memhop.core.importers.base import ParsedSource, Session, Turn

# Zero-width marks that chat exports sprinkle around names and system lines.
INVISIBLE = "\ufeff\u200e\u200f\u202a\u202b\u202c\u202d\u202e"


def decode(data: bytes, filename: str) -> str:
    """UTF-8 text (a leading BOM dropped); anything else is not an export we know."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportFormatError(
            filename, f"not valid UTF-8 text (invalid byte 0x{data[exc.start]:02x} at offset {exc.start})"
        ) from None


def head_text(head: bytes) -> str:
    """Sniffers' view of the first bytes: lenient decode (the cut may split a character)."""
    return head.decode("utf-8", errors="ignore").lstrip(INVISIBLE + " \t\r\n")


def json_error_reason(exc: json.JSONDecodeError, prefix: str = "") -> str:
    """One line naming where the JSON broke; a cut-off file says "truncated"."""
    at_end = exc.pos >= len(exc.doc.rstrip()) or exc.msg.startswith("Unterminated string")
    kind = "truncated JSON" if at_end else "invalid JSON"
    return f"{prefix}{kind}: {exc.msg.removesuffix(' at')} at line {exc.lineno} column {exc.colno}"


def load_json(data: bytes, filename: str) -> Any:
    """Decode and parse a whole JSON document, or raise ImportFormatError with a one-line reason."""
    text = decode(data, filename)
    if not text.strip():
        raise ImportFormatError(filename, "empty file")
    return loads(text, filename)


def loads(text: str, filename: str, prefix: str = "") -> Any:
    """json.loads whose failures (syntax, absurd nesting) are ImportFormatErrors."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportFormatError(filename, json_error_reason(exc, prefix)) from None
    except RecursionError:
        raise ImportFormatError(filename, f"{prefix}invalid JSON: nested too deeply") from None


class BadTimestamp(ValueError):
    """Epoch seconds that are no date: NaN, infinite (1e400 in JSON), or beyond year 9999."""

    def __init__(self, value: object) -> None:
        self.value = value
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "…"
        super().__init__(f"timestamp {shown} is not a date (epoch seconds out of range)")


def epoch_to_local(value: float | int, tz: tzinfo | None = None) -> datetime:
    """Epoch seconds (or milliseconds) as naive wall-clock time in `tz` (None: this machine's
    zone). memhop stores local time everywhere, the way chat apps write their own dates."""
    try:
        number = float(value)
        seconds = number / 1000.0 if number > 1e11 else number
        return utc_to_local(datetime.fromtimestamp(seconds, tz=UTC), tz)
    except (OverflowError, OSError, ValueError):  # what fromtimestamp raises for each kind
        raise BadTimestamp(value) from None


def utc_to_local(stamp: datetime, tz: tzinfo | None = None) -> datetime:
    """An aware (or naive UTC) time as naive wall-clock time in `tz` (None: this machine's zone)."""
    aware = stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)
    return aware.astimezone(tz).replace(tzinfo=None)


def parse_iso(value: str, tz: tzinfo | None = None) -> datetime | None:
    """ISO 8601 string as naive wall-clock time: a time written with an offset is already the
    writer's local time (the offset is dropped); one written in UTC ("Z") is made local in `tz`."""
    text = value.strip()
    utc = text.endswith(("Z", "z"))
    if utc:
        text = text[:-1]
    try:
        stamp = datetime.fromisoformat(text)
    except ValueError:
        return None
    return utc_to_local(stamp.replace(tzinfo=None), tz) if utc else stamp.replace(tzinfo=None)


def make_session(
    external_id: str, turns: Iterable[Turn], title: str | None = None, started_at: datetime | None = None
) -> Session:
    """A session whose start defaults to its earliest known turn time."""
    kept = tuple(turns)
    if started_at is None:
        times = [t.timestamp for t in kept if t.timestamp is not None]
        started_at = min(times) if times else None
    return Session(external_id=external_id, turns=kept, started_at=started_at, title=title)


def finish(
    fmt: str,
    sessions: Iterable[Session],
    filename: str,
    owner: str | None = None,
    chronological: bool = True,
) -> ParsedSource:
    """Drop empty sessions, order them, and refuse a source that yields no turns at all."""
    kept = [s for s in sessions if s.turns]
    if not kept:
        raise ImportFormatError(filename, "no messages found")
    if chronological:
        # Stable: sessions without a date keep their file order, after the dated ones.
        kept.sort(key=lambda s: (s.started_at is None, s.started_at or datetime.min))
    participants: dict[str, None] = {}
    for session in kept:
        for turn in session.turns:
            participants.setdefault(turn.speaker, None)
    return ParsedSource(format=fmt, sessions=tuple(kept), owner=owner, participants=tuple(participants))


def poll_text(question: str, options: Iterable[str]) -> str:
    """A poll as readable speech: "Poll: Where shall we eat? — Pizza (2 votes); Sushi"."""
    listed = "; ".join(o.strip() for o in options if o.strip())
    return f"Poll: {question.strip()} — {listed}" if listed else f"Poll: {question.strip()}"


def forwarded(text: str, by: str) -> str:
    """A forwarded message's text, marked with who forwarded it: the turn itself is credited
    to the original author, since the words are theirs."""
    return f"[forwarded by {by}]\n{text}"
