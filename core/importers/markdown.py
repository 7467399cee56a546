"""Markdown or plain-text diaries whose entries start with a line that is only a date.

A heading is a line made of date words alone (weekday, day, month, year, optional `#`
marks and a trailing colon), so prose that merely mentions a date never opens an entry.
Text before the first dated heading (a title, a preface) is not part of any entry.
A heading without a year ("## Sun 5 May") takes the year of the dated headings around it
(the one its weekday fits, else the one that keeps the diary going forward); with no
dated neighbour to take it from, the file is refused with the line number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime

from memhop.core.errors import ImportFormatError, UnknownFormat
from memhop.core.importers._util import decode, finish, head_text, make_session
from memhop.core.importers.base import ParsedSource, ParseOptions, Session, Turn

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
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_WEEKDAYS = ("mo", "tu", "we", "th", "fr", "sa", "su")
_YEAR = re.compile(r"\b\d{4}\b|^\d{1,2}[-/.]\d{1,2}[-/.]\d{2}$")


@dataclass
class DiaryEntry:
    """One dated section: its day, its heading text and the lines under it."""

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

    def parse(
        self, data: bytes, filename: str, self_name: str | None = None, options: ParseOptions | None = None
    ) -> ParsedSource:
        lines = decode(data, filename).splitlines()
        entries = diary_entries(lines, filename, (options or ParseOptions()).day_first)
        if not entries:
            raise UnknownFormat(filename, "no dated headings found")
        speaker = self_name or "me"
        return finish(self.name, diary_sessions(entries, speaker), filename, owner=self_name)


def diary_entries(
    lines: list[str], filename: str, day_first: bool | None = None, preface_day: date | None = None
) -> list[DiaryEntry]:
    """The dated sections of a diary; text before the first heading belongs to `preface_day`
    (a daily note's own date) or to nothing."""
    candidates = {i: c for i, line in enumerate(lines) if (c := _candidate(line, need_year=False)) is not None}
    if day_first is None:
        day_first = _numeric_day_first(list(candidates.values()))
    days = _resolve_years(candidates, day_first, filename, preface_day)
    entries: list[DiaryEntry] = [DiaryEntry(preface_day, "")] if preface_day is not None else []
    for number, line in enumerate(lines):
        day = days.get(number)
        if day is not None:
            entries.append(DiaryEntry(day, candidates[number]))
        elif entries:
            entries[-1].lines.append(line)
    return entries


def _resolve_years(
    candidates: dict[int, str], day_first: bool, filename: str, context: date | None
) -> dict[int, date]:
    """Line number -> date for every heading, year-less ones dated from their neighbours."""
    dated = {i: d for i, c in candidates.items() if _YEAR.search(c) and (d := _heading_date(c, day_first))}
    days: dict[int, date] = {}
    previous = context
    for number in sorted(candidates):
        if number in dated:
            days[number] = previous = dated[number]
            continue
        if _YEAR.search(candidates[number]):
            continue  # a full date that is no real day ("31 February 2024"): text, as before
        parts = _month_day(candidates[number])
        if parts is None:
            continue
        following = next((dated[i] for i in sorted(dated) if i > number), None)
        day = _year_from(parts, previous, following)
        if day is None:
            raise ImportFormatError(
                filename,
                f"line {number + 1}: heading {candidates[number]!r} has no year, and no dated heading "
                "around it gives one that fits (add the year)",
            )
        days[number] = previous = day
    return days


def _month_day(candidate: str) -> tuple[int, int, int | None] | None:
    """(month, day, weekday or None) of a year-less heading such as "Sun 5 May" or "May 5th"."""
    month = _MONTH_WORD.search(candidate)
    day = re.search(r"(?<!\d)(\d{1,2})(?:st|nd|rd|th)?(?!\d)", candidate)
    if month is None or day is None:
        return None
    weekday = _WEEKDAY_WORD.search(candidate)
    return (
        _MONTHS.index(month[0][:3].lower()) + 1,
        int(day[1]),
        _WEEKDAYS.index(weekday[0][:2].lower()) if weekday else None,
    )


def _year_from(parts: tuple[int, int, int | None], previous: date | None, following: date | None) -> date | None:
    """The year that fits: the weekday's, else the neighbour's year, moved on by one when
    that keeps the diary going forward across New Year."""
    month, day, weekday = parts
    anchor = previous or following
    if anchor is None:
        return None
    years = [anchor.year, anchor.year + 1, anchor.year - 1] if previous else [anchor.year, anchor.year - 1, anchor.year + 1]
    options = [d for y in years if (d := _safe_date(y, month, day)) is not None]
    if weekday is not None:
        return next((d for d in options if d.weekday() == weekday), None)
    if not options:
        return None
    best = options[0]
    if previous is not None and best < previous and len(options) > 1 and 0 <= (options[1] - previous).days <= 62:
        return options[1]
    if previous is None and following is not None and best > following and len(options) > 1:
        return options[1] if 0 <= (following - options[1]).days <= 62 else best
    return best


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def diary_sessions(entries: list[DiaryEntry], speaker: str) -> list[Session]:
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
        sessions.append(make_session(session_id, turns, title=entry.title or None, started_at=start))
    return sessions


def _paragraphs(lines: list[str]) -> list[str]:
    blocks: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    return [text for block in blocks if (text := "\n".join(block).strip())]


def _candidate(line: str, need_year: bool = True) -> str | None:
    """The bare date text if the line is nothing but a date (cheap, no dateparser); with
    `need_year` False, also a month name with a day and no year ("Sun 5 May")."""
    text = line.strip()
    if not text or len(text) > 60:
        return None
    text = re.sub(r"^(?:#{1,6}\s*|>\s*)", "", text).strip("*_ \t").rstrip(":").strip("*_ \t")
    if not text or not text[0].isalnum() or not _DATE_WORDS.match(text):
        return None
    bare = _bare(text)
    if not _YEAR.search(text):
        return text if not need_year and _month_day(bare) is not None else None
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
