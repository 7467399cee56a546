"""One memory on one line: "15 Mar 2024 · Maya Patel · maya-diary.md — what was said"."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memhop.core.cite import Cited

QUOTE_CHARS = 160


def day_text(cited: Cited) -> str:
    day = cited.day
    return f"{day.day} {day:%b %Y}" if day else "undated"


def where(cited: Cited) -> str:
    """Date · speaker · file, leaving out what is not known."""
    return " · ".join(p for p in (day_text(cited), cited.speaker, cited.source) if p)


def cited_line(cited: Cited, quote: str | None = None) -> str:
    text = " ".join((quote or cited.text).split())
    if len(text) > QUOTE_CHARS:
        text = text[: QUOTE_CHARS - 1].rstrip() + "…"
    return f"{where(cited)} — {'fact: ' if cited.kind == 'fact' else ''}{text}"
