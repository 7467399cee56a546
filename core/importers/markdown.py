"""Markdown or plain-text diaries whose entries start with a line that is only a date.

A heading is a line made of date words alone (weekday, day, month, year, optional `#`
marks and a trailing colon), so prose that merely mentions a date never opens an entry.
Text before the first dated heading (a title, a preface) is not part of any entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime

from memhop.core.errors import ImportFormatError
from memhop.core.importers._util import decode, finish, head_text, make_session
from memhop.core.importers.base import ParsedSource, Session, Turn

EXTENSIONS = (".md", ".markdown", ".txt")
_WEEKDAY = r"(?:mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)(?:day|nesday|rsday|urday|sday)?\.?"
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
# Each token ends where a letter or digit run ends, so matching stays linear on any input.
_TOKEN = rf"(?:(?:{_WEEKDAY}|{_MONTH}|of|the)(?![a-z])|\d{{1,4}}(?!\d)(?:st|nd|rd|th)?(?![a-z]))"
_DATE_WORDS = re.compile(rf"^(?:{_TOKEN}[\s,./-]*)+$", re.I)
_WEEKDAY_WORD = re.compile(rf"\b{_WEEKDAY}(?=[\s,]|$)", re.I)
_MONTH_WORD = re.compile(rf"\b{_MONTH}(?=[\s,./-]|\d|$)", re.I)
_ISO = re.compile(r"^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$")
_NUMERIC = re.compile(r"^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})$")
_YEAR = re.compile(r"\b\d{4}\b|^\d{1,2}[-/.]\d{1,2}[-/.]\d{2}$")


@dataclass
class _Entry:
    day: date
    title: str
    lines: list[str] = field(default_factory=list)


class MarkdownImporter:
    """Each dated section is a session; each paragraph in it is a turn by the diarist."""

    name = "markdown"

    def sniff(self, filename: str, head: bytes) -> bool:
        if b"\x00" in head:
            return False
        if filename.lower().endswith(EXTENSIONS):
            return True
        return any(_candidate(line) is not None for line in head_text(head).splitlines()[:400])

    def parse(self, data: bytes, filename: str, self_name: str | None = None) -> ParsedSource:
        lines = decode(data, filename).splitlines()
        candidates = {i: c for i, line in enumerate(lines) if (c := _candidate(line)) is not None}
        day_first = _numeric_day_first(list(candidates.values()))
        entries: list[_Entry] = []
        for number, line in enumerate(lines):
            day = _heading_date(candidates[number], day_first) if number in candidates else None
            if day is not None:
                entries.append(_Entry(day, candidates[number]))
            elif entries:
                entries[-1].lines.append(line)
        if not entries:
            raise ImportFormatError(filename, "no dated headings found")
        speaker = self_name or "me"
        return finish(self.name, _sessions(entries, speaker), filename, owner=self_name)


def _sessions(entries: list[_Entry], speaker: str) -> list[Session]:
    """Paragraph numbers run on across repeated dates, so "<date>#<n>" stays unique."""
    seen: dict[date, int] = {}
    paragraphs_so_far: dict[date, int] = {}
    sessions: list[Session] = []
    for entry in entries:
        repeat = seen[entry.day] = seen.get(entry.day, 0) + 1
        iso = entry.day.isoformat()
        start = datetime.combine(entry.day, datetime.min.time())
        turns: list[Turn] = []
        for text in _paragraphs(entry.lines):
            n = paragraphs_so_far[entry.day] = paragraphs_so_far.get(entry.day, 0) + 1
            turns.append(Turn(speaker=speaker, text=text, timestamp=start, external_id=f"{iso}#{n}"))
        session_id = iso if repeat == 1 else f"{iso}_{repeat}"
        sessions.append(make_session(session_id, turns, title=entry.title, started_at=start))
    return sessions


def _paragraphs(lines: list[str]) -> list[str]:
    blocks: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    return [text for block in blocks if (text := "\n".join(block).strip())]


def _candidate(line: str) -> str | None:
    """The bare date text if the line is nothing but a date (cheap, no dateparser)."""
    text = line.strip()
    if not text or len(text) > 60:
        return None
    text = re.sub(r"^(?:#{1,6}\s*|>\s*)", "", text).strip("*_ \t").rstrip(":").strip("*_ \t")
    if not text or not text[0].isalnum() or not _DATE_WORDS.match(text) or not _YEAR.search(text):
        return None
    bare = _bare(text)
    if _ISO.match(bare) or _NUMERIC.match(bare) or _MONTH_WORD.search(bare):
        return text
    return None


def _numeric_day_first(candidates: list[str]) -> bool:
    """Like WhatsApp: one order per file; day-first unless a date proves month-first."""
    fields = [(int(m[1]), int(m[2])) for c in candidates if (m := _NUMERIC.match(_bare(c)))]
    if any(a > 12 for a, _ in fields):
        return True
    return not any(b > 12 for _, b in fields)


def _bare(candidate: str) -> str:
    return _WEEKDAY_WORD.sub("", candidate).strip(" ,.")


def _heading_date(candidate: str, day_first: bool) -> date | None:
    bare = _bare(candidate)
    try:
        if m := _ISO.match(bare):
            return date(int(m[1]), int(m[2]), int(m[3]))
        if m := _NUMERIC.match(bare):
            a, b, year = int(m[1]), int(m[2]), int(m[3])
            year += 2000 if year < 100 else 0
            return date(year, b, a) if day_first else date(year, a, b)
    except ValueError:
        return None
    return _textual_date(bare)


def _textual_date(text: str) -> date | None:
    """Month-name dates via dateparser, strictly: day, month and year must all be present."""
    import dateparser  # deferred: costly to import, and only diaries with month names need it

    settings = {"STRICT_PARSING": True, "REQUIRE_PARTS": ["day", "month", "year"], "PREFER_DATES_FROM": "past"}
    parsed = dateparser.parse(text, languages=["en"], settings=settings)
    return parsed.date() if parsed else None
