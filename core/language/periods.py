"""The period a question names outright: one day, month, season or year ("in May 2024"), or
a range of them ("between March and June 2023", "from 3 to 9 June 2024",
"May–July 2024", "since April 2024", "before May 2023").

A count or a list over the wrong period is a confident wrong answer, so a range is read
whole or not at all: a year or month written once belongs to both ends ("between 3 and 9
June 2024"), each end covers all the days it names (a month ends on its last day), and a
range with an end no written year pins ("between June and July") names no period at all,
never half of one. Relative periods ("last year") are left to the reader of the question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from memhop.core.language.dates import MONTH_WORD, find_dates, format_day, month_days, month_index

# Meteorological seasons (northern hemisphere); winter straddles two years and is left unread.
_SEASONS = {"spring": (3, 5), "summer": (6, 8), "autumn": (9, 11), "fall": (9, 11)}
_ORD = r"\d{1,2}(?:st|nd|rd|th)?"
_YEAR = r"(?:19|20)\d\d"
# A year anywhere: one the period does not hold leaves the question's time unpinned.
_ANY_YEAR = re.compile(rf"(?<!\w){_YEAR}(?!\w)")
# Words that take a part of the period that follows them: "early 2024", "the end of 2024".
_PART = re.compile(r"\b(?:early|late|mid|beginning|start|end|half|quarter|q[1-4]|winter|christmas|easter|new year)\b[\w\s-]*$",
                   re.I)
# One end, longest form first; a bare day ("3") only begins a range whose other end names the month.
_END = (
    rf"(?:\d{{4}}-\d{{2}}-\d{{2}}|{_ORD}\s+(?:of\s+)?{MONTH_WORD}\.?(?:,?\s+{_YEAR})?|{MONTH_WORD}\.?\s+{_ORD}(?:,?\s+{_YEAR})?"
    rf"|(?:{'|'.join(_SEASONS)})(?:\s+(?:of\s+)?{_YEAR})?|{MONTH_WORD}(?:\s+(?:of\s+)?{_YEAR})?|{_YEAR})(?!\w)"
)
_FIRST_END = rf"(?:{_END}|{_ORD}(?!\w))"
_TO = r"(?:\s+(?:to|until|till|til|through|thru)\s+|\s*[-–—]\s*)"
_THE = r"(?:the\s+)?"
# ... but "the" before a bare year makes it a noun's modifier: "before the 2024 Olympics" is no period
_THE_NOT_YEAR = rf"(?:the\s+(?!{_YEAR}(?!\w)))?"
_RANGES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern, re.I))
    for kind, pattern in (
        ("both", rf"\bbetween\s+{_THE}(?P<a>{_FIRST_END})\s+and\s+{_THE}(?P<b>{_END})"),
        ("both", rf"\bfrom\s+{_THE}(?P<a>{_FIRST_END}){_TO}{_THE}(?P<b>{_END})"),
        ("both", rf"(?<!\w)(?P<a>{_FIRST_END})\s*[-–—]\s*(?P<b>{_END})"),
        ("since", rf"\bsince\s+{_THE_NOT_YEAR}(?P<a>{_END})"),
        ("after", rf"\bafter\s+{_THE_NOT_YEAR}(?P<a>{_END})"),
        ("until", rf"\b(?:until|till|til|up\s+(?:un)?till?|up\s+to|through)\s+{_THE_NOT_YEAR}(?P<a>{_END})"),
        ("before", rf"\bbefore\s+{_THE_NOT_YEAR}(?P<a>{_END})"),
        # a year alone only after "in", "of"...: "the 2024 race" names a race, not a period
        ("one", rf"(?<!\w)(?!{_YEAR}(?![\w-]))(?P<a>{_END})"),
        ("one", rf"\b(?:in|of|during|by|back\s+in|throughout)\s+(?P<a>{_YEAR})(?!\w)(?!\s*[-–—]\s*{_END})"),
    )
)


@dataclass(frozen=True)
class Period:
    """The days a question is limited to, both ends kept; `first` None: from the beginning."""

    first: date | None
    last: date
    words: str  # the question's words that name it

    def covers(self, day: date) -> bool:
        return (self.first is None or self.first <= day) and day <= self.last

    def spans(self, days: tuple[date, date]) -> bool:
        """`days` are exactly this period: a count over them is a count over it, while a count
        over a part of it (or over more) is not."""
        return days == (self.first, self.last)

    @property
    def label(self) -> str:
        """How the trace shows it: "1 September 2024 – 31 December 2024"."""
        if self.first is None:
            return f"up to {format_day(self.last)}"
        if self.first == self.last:
            return format_day(self.first)
        return f"{format_day(self.first)} – {format_day(self.last)}"


@dataclass(frozen=True)
class _End:
    """One end as written; what it leaves out may come from the other end."""

    year: int | None
    month: int | None  # None: a whole year, or a bare day waiting for its month
    day: int | None
    months: tuple[int, int] | None = None  # a season's first and last month

    def span(self) -> tuple[date, date] | None:
        """The first and last day it covers, once its year is known."""
        if self.year is None:
            return None
        if self.months is not None:
            return month_days(self.year, *self.months)
        if self.month is None:
            return (date(self.year, 1, 1), date(self.year, 12, 31)) if self.day is None else None
        if self.day is not None:
            day = date(self.year, self.month, self.day)
            return day, day
        return month_days(self.year, self.month)


def _read_end(text: str) -> _End:
    said = " ".join(text.split()).rstrip(".,")
    digits = [int(n) for n in re.findall(r"\d+", said)]
    year = next((n for n in digits if n >= 1000), None)
    day = next((n for n in digits if n < 1000), None)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", said):
        return _End(digits[0], digits[1], digits[2])
    season = said.split()[0].lower()
    if season in _SEASONS:
        return _End(year, None, None, _SEASONS[season])
    month = re.search(MONTH_WORD, said, re.I)
    return _End(year, month_index(month.group(0)) if month else None, day)


def _joined(first: _End, last: _End) -> tuple[date, date] | None:
    """Both ends of "between A and B", each taking from the other what it leaves unsaid."""
    if first.month is None and first.day is not None and first.months is None:  # "3 and 9 June 2024"
        if last.month is None or last.day is None:
            return None
        first = _End(last.year, last.month, first.day)
    if first.year is None and last.year is not None:
        first = _End(last.year, first.month, first.day, first.months)
        begin, end = first.span(), last.span()
        if begin and end and begin[0] > end[1]:  # "between November and February 2025"
            first = _End(last.year - 1, first.month, first.day, first.months)
    elif last.year is None and first.year is not None:
        last = _End(first.year, last.month, last.day, last.months)
        begin, end = first.span(), last.span()
        if begin and end and begin[0] > end[1]:  # "from November 2024 to February"
            last = _End(first.year + 1, last.month, last.day, last.months)
    begin, end = first.span(), last.span()
    if begin is None or end is None or begin[0] > end[1]:
        return None
    return begin[0], end[1]


def _period(kind: str, ends: tuple[str, ...], now: date | None) -> tuple[date | None, date] | None:
    """The days one match names; None when an end cannot be pinned down."""
    try:
        if kind == "both":
            return _joined(_read_end(ends[0]), _read_end(ends[1]))
        span = _read_end(ends[0]).span()
    except ValueError:  # "31 June", "between 40 and 45 May 2024"
        return None
    if span is None:
        return None
    if kind in ("since", "after"):
        begin = span[0] if kind == "since" else span[1] + timedelta(days=1)
        return (begin, now) if now is not None and begin <= now else None
    if kind == "until":
        return None, span[1]
    if kind == "before":
        return None, span[0] - timedelta(days=1)
    return span


def stated_period(text: str, now: date | None = None) -> Period | None:
    """The first period the question names outright, a range read as a whole; `now` (the day
    it is asked) closes "since April 2024". A range or a "since"/"before" whose end is not
    pinned names no period, whatever follows: reading one of its ends alone would be wrong."""
    found: list[tuple[int, int, str, re.Match[str]]] = []
    for kind, pattern in _RANGES:
        found += [(m.start(), -(m.end() - m.start()), kind, m) for m in pattern.finditer(text)]
    taken = -1
    for start, _, kind, m in sorted(found, key=lambda f: (f[0], f[1])):
        if start < taken:
            continue  # a piece of a range already read
        days = _period(kind, tuple(e for e in (m.group("a"), m.groupdict().get("b")) if e), now)
        if days is not None:
            return Period(days[0], days[1], m.group(0))
        if kind != "one":
            return None
        taken = m.end()
    return None


def unpinned(text: str, now: date | None = None) -> bool:
    """The question names a time its period does not pin down ("in June", "last week",
    "between June and July"): whatever is counted or listed over all time answers another
    question."""
    pinned = stated_period(text, now)
    start = text.find(pinned.words) if pinned else -1
    stop = start + len(pinned.words) if pinned else -1
    if pinned and _PART.search(text[max(0, start - 24):start]):
        return True  # "early 2024", "the first half of 2024", "the winter of 2023": part of it, not all
    spans = [(m.start(), m.end()) for kind, pattern in _RANGES if kind != "one" for m in pattern.finditer(text)]
    spans += [(m.start, m.end) for m in find_dates(text, now or date.today(), past=True)]
    spans += [(m.start(), m.end()) for m in _ANY_YEAR.finditer(text)]  # "in winter 2023", "Q1 2024"
    # a mention overlapping the period's words is the period ("in July 2024" holds "July 2024")
    return any(end <= start or begin >= stop for begin, end in spans)
