"""A time window a user puts around a question or a search (`--since`, `--until`).

Dates are read with the project's own rules (core/language/dates.py: "2024-03-15",
"15 March 2024", "March 2024", "last week" against today), dateparser for other written
forms. A month or a year covers all its days: `--until "March 2024"` keeps 31 March.
Turns without a timestamp fall outside any window: nothing says they belong in it.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

import numpy as np
import pyarrow as pa

from memhop.core.errors import InvalidDate
from memhop.core.language.dates import find_dates, parse_loose

_YEAR = re.compile(r"(?:19|20)\d\d")
_MONTH_LABEL = re.compile(r"in [A-Z][a-z]+ \d{4}$")
_YEAR_LABEL = re.compile(r"in \d{4}$")
_FORMS = "2024-03-15, '15 March 2024', 'March 2024', 2024 or 'last week'"


@dataclass(frozen=True)
class Window:
    since: date | None = None  # first day kept
    until: date | None = None  # last day kept

    def __bool__(self) -> bool:
        return self.since is not None or self.until is not None

    def contains(self, stamp: datetime | None) -> bool:
        if not self:
            return True
        if stamp is None:
            return False
        day = stamp.date()
        return (self.since is None or day >= self.since) and (self.until is None or day <= self.until)

    def mask(self, stamps: pa.Array | pa.ChunkedArray) -> np.ndarray:
        """Which of these timestamps fall inside (all of them when the window is open)."""
        if not self:
            return np.ones(len(stamps), dtype=bool)
        import pyarrow.compute as pc  # ~30 ms of CPU to import: only a question with a window pays it

        keep = pc.is_valid(stamps)
        if self.since is not None:
            keep = pc.and_(keep, pc.greater_equal(stamps, pa.scalar(datetime.combine(self.since, time.min))))
        if self.until is not None:
            end = datetime.combine(self.until + timedelta(days=1), time.min)
            keep = pc.and_(keep, pc.less(stamps, pa.scalar(end)))
        return np.asarray(pc.fill_null(keep, False), dtype=bool)


def parse_window(since: date | str | None, until: date | str | None, today: date | None = None) -> Window:
    """The window two bounds describe, each a date or text; InvalidDate (exit code 2) when
    text is not a date or the window ends before it starts."""
    today = today or date.today()
    window = Window(_bound(since, today, "--since", last=False), _bound(until, today, "--until", last=True))
    if window.since and window.until and window.since > window.until:
        raise InvalidDate(f"--since {since} is after --until {until}")
    return window


def _bound(value: date | str | None, today: date, option: str, last: bool) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if value is None or isinstance(value, date):
        return value
    return parse_day(value, today, option, last)


def parse_day(text: str, today: date, option: str = "date", last: bool = False) -> date:
    """The first day `text` means (its last day when `last`: the end of a month or a year)."""
    said = " ".join(text.split()).rstrip(".")
    if _YEAR.fullmatch(said):
        return date(int(said), 12, 31) if last else date(int(said), 1, 1)
    found = [m for m in find_dates(said, today, past=True) if m.day is not None]
    if len(found) == 1 and not said[: found[0].start].strip() and not said[found[0].end :].strip():
        day, label = found[0].day, found[0].label
        assert day is not None
        if last and _MONTH_LABEL.fullmatch(label):
            return day.replace(day=calendar.monthrange(day.year, day.month)[1])
        if last and _YEAR_LABEL.fullmatch(label):
            return day.replace(month=12, day=31)
        return day
    loose = parse_loose(said, today) if said and any(c.isalnum() for c in said) else None
    if loose is None:
        raise InvalidDate(f"{option}: cannot read {text!r} as a date (try {_FORMS})")
    return loose
