"""Time expressions in a sentence, resolved to absolute dates against when it was said.

Hand-written rules for the forms diaries and chats use ("yesterday", "last Tuesday",
"two weeks ago", "next month", "on the 14th", "14 March"); dateparser only as the
fallback for other month-name dates. Deterministic: the same text and reference give
the same answer, whatever today is.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

from memhop.core.language import numbers

MONTHS = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip
# Feasts and festivals named as times ("at Christmas", "by Easter"): a time, never a place.
FESTIVALS = (
    "christmas", "xmas", "easter", "whitsun", "whitsuntide", "pentecost", "michaelmas", "candlemas", "lent",
    "advent", "halloween", "hallowe'en", "thanksgiving", "hogmanay", "diwali", "hanukkah", "chanukah", "passover",
    "ramadan", "eid", "new year", "new year's eve", "boxing day", "midsummer",
)  # fmt: skip
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

# a month's name or its short form, one group: shared with the question's period reader
MONTH_WORD = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_DOW = r"(mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)(?:day|sday|nesday|rsday|urday)?"
# how many of a unit: "3 weeks", "a couple of days", "several months" (one group)
COUNT_WORDS = (
    r"(\d{1,2}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|couple of|a couple of|a few|few|several)"
)
_UNIT = r"(day|week|weekend|month|year)s?"
_ORD = r"(\d{1,2})(?:st|nd|rd|th)?"

# A clock time, what "what time ...?" asks for: "7pm", "6.30", "19:45", "8 o'clock", "noon".
CLOCK_TIME = re.compile(
    r"\b(?:\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)(?!\w)|\d{1,2}[:.][0-5]\d\b|\d{1,2}\s*o['’]clock\b"
    r"|half (?:past )?\d{1,2}\b|(?:quarter )?(?:past|to) \d{1,2}\b|noon\b|midday\b|midnight\b)",
    re.I,
)
# Words that look ahead: "we'll go again next week", "planning to", "the upcoming recital" —
# a plan, not something that happened (one list for counting occasions and reading dates).
FUTURE = re.compile(
    r"\b(?:next|will|tomorrow|upcoming|coming up|going to|gonna|plans? to|planning(?: to)?|hope to|wants? to)\b|\w['’]ll\b",
    re.I,
)

_RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern, re.I))
    for kind, pattern in (
        ("iso", r"\b(\d{4})-(\d{2})-(\d{2})\b"),
        ("day_month", rf"\b(?:on )?(?:the )?{_ORD} (?:of )?{MONTH_WORD}\.?(?:,? (\d{{4}}))?\b"),
        ("month_day", rf"\b(?:on )?{MONTH_WORD}\.? {_ORD}(?!\d|:)(?:,? (\d{{4}}))?\b"),
        ("day_before", r"\bthe day before yesterday\b"),
        ("day_after", r"\bthe day after tomorrow\b"),
        ("yesterday", r"\b(?:yesterday|last night)\b"),
        ("today", r"\b(?:today|tonight|this (?:morning|afternoon|evening))\b"),
        ("tomorrow", r"\btomorrow\b"),
        ("ago", rf"\b{COUNT_WORDS} {_UNIT} ago\b"),
        ("recently", r"\b(?:recently|the other day|a while (?:ago|back))\b"),
        ("in_n", rf"\bin {COUNT_WORDS} {_UNIT}\b"),
        ("rel_unit", r"\b(last|next|this past|this coming|this) (week|weekend|month|year)\b"),
        ("weekday", rf"\b(?:(last|next|this past|this coming|this|on) )?{_DOW}\b"),
        ("month", rf"\b(?:(last|next|this|in|since|early|late|mid|of|by) )?{MONTH_WORD}(?: (\d{{4}}))?\b"),
        ("ordinal", r"\b(?:on )?the (\d{1,2})(?:st|nd|rd|th)\b"),
        ("year", r"\b(?:in|since|of|during|back in|by) ((?:19|20)\d\d)\b"),
    )
)


@dataclass(frozen=True)
class DateMention:
    start: int
    end: int
    text: str
    day: date | None  # None when vague ("a few weeks ago") or unanchored
    label: str  # what the expression means, e.g. "on 7 May 2023", "in June 2024"
    explicit: bool  # the text itself already says the absolute date


def format_day(day: date) -> str:
    return f"{day.day} {calendar.month_name[day.month]} {day.year}"


def month_index(word: str) -> int:
    """1 for "Jan" or "January"."""
    return next(i + 1 for i, m in enumerate(MONTHS) if m.startswith(word.lower()[:3]))


def _weekday_index(word: str) -> int:
    return next(i for i, w in enumerate(WEEKDAYS) if w.startswith(word.lower()[:3]))


def _shift_months(day: date, months: int) -> date:
    total = day.year * 12 + day.month - 1 + months
    year, month = divmod(total, 12)
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


def _count(word: str) -> int | None:
    word = word.lower()
    if word.isdigit():
        return int(word)
    return numbers.value(word)  # None for "a few", "several", "some"


def _offset(ref: date, n: int, unit: str) -> tuple[date, str]:
    unit = unit.lower()
    if unit == "day":
        day = ref + timedelta(days=n)
        return day, f"on {format_day(day)}"
    if unit in ("week", "weekend"):
        day = ref + timedelta(weeks=n)
        return day, f"around {format_day(day)}"
    if unit == "month":
        day = _shift_months(ref, n).replace(day=1)
        return day, f"in {calendar.month_name[day.month]} {day.year}"
    return date(ref.year + n, 1, 1), f"in {ref.year + n}"


def _weekday(ref: date, target: int, mode: str, past: bool) -> date:
    """`last` = most recent before today; `next` = first after; otherwise by tense."""
    back = (ref.weekday() - target) % 7 or 7
    ahead = (target - ref.weekday()) % 7 or 7
    if mode == "last" or mode == "this past" or (mode not in ("next", "this coming") and past):
        return ref - timedelta(days=back)
    return ref + timedelta(days=ahead)


def _resolve(kind: str, m: re.Match[str], ref: date, past: bool) -> tuple[date | None, str, bool] | None:
    """(day, label, explicit) for one match, or None if it is not a date after all."""
    g = m.groups()
    if kind == "iso":
        day = date(int(g[0]), int(g[1]), int(g[2]))
        return day, f"on {format_day(day)}", True
    if kind in ("day_month", "month_day"):
        day_n, mon = (g[0], g[1]) if kind == "day_month" else (g[1], g[0])
        if kind == "month_day" and mon.lower() == "may" and not m.group(0)[0].isupper():
            return None
        year = int(g[2]) if g[2] else _closest_year(ref, month_index(mon), int(day_n), past)
        day = date(year, month_index(mon), int(day_n))
        return day, f"on {format_day(day)}", bool(g[2])
    if kind in ("yesterday", "today", "tomorrow", "day_before", "day_after"):
        shift = {"yesterday": -1, "today": 0, "tomorrow": 1, "day_before": -2, "day_after": 2}[kind]
        day = ref + timedelta(days=shift)
        return day, f"on {format_day(day)}", False
    if kind == "recently":
        how = "some time" if "while" in m.group(0).lower() else "shortly"
        return None, f"{how} before {format_day(ref)}", False
    if kind in ("ago", "in_n"):
        n = _count(g[0])
        sign = -1 if kind == "ago" else 1
        if n is None:
            rel = "before" if kind == "ago" else "after"
            return None, f"{g[0]} {g[1]}s {rel} {format_day(ref)}", False
        day, label = _offset(ref, sign * n, g[1])
        return day, label, False
    if kind == "rel_unit":
        mode, unit = g[0].lower(), g[1].lower()
        sign = -1 if mode in ("last", "this past") else 1 if mode in ("next", "this coming") else 0
        if unit == "weekend":
            anchor = _weekday(ref, 5, "last" if sign < 0 or (sign == 0 and past) else "next", past)
            if sign == 0 and ref.weekday() >= 5:
                anchor = ref - timedelta(days=ref.weekday() - 5)
            return anchor, f"on the weekend of {format_day(anchor)}", False
        if unit == "week":
            day = ref + timedelta(weeks=sign)
            return day, f"in the week of {format_day(day)}", False
        day, label = _offset(ref, sign, unit)
        return day, label, False
    if kind == "weekday":
        mode = (g[0] or "").lower()
        word = m.group(0).split()[-1].rstrip(".").lower()
        if not mode and word == g[1].lower() and not m.group(0)[0].isupper():
            return None  # a bare lower-case "sat", "sun", "wed" is a word, not a day
        day = _weekday(ref, _weekday_index(g[1]), mode, past)
        return day, f"on {format_day(day)}", False
    if kind == "month":
        mode, mon, year_text = (g[0] or "").lower(), g[1], g[2]
        if (not mon[0].isupper() and mon.lower()[:3] in ("may", "mar")) or (not mode and not year_text):
            return None  # "may", "march on": a verb; a month needs "in", "last", "since"... or a year ("in october" is one)
        month = month_index(mon)
        if year_text:
            day = date(int(year_text), month, 1)
            return day, f"in {calendar.month_name[month]} {year_text}", True
        if mode == "last":
            y = ref.year if month < ref.month else ref.year - 1
        elif mode == "since":  # "since January", said in May: this January, never the next
            y = ref.year if month <= ref.month else ref.year - 1
        elif mode == "next":
            y = ref.year if month > ref.month else ref.year + 1
        else:
            y = _closest_year(ref, month, 1, past, whole_month=True)
        day = date(y, month, 1)
        return day, f"in {calendar.month_name[month]} {y}", False
    if kind == "ordinal":
        n = int(g[0])
        if not 1 <= n <= 31:
            return None
        of_month = _day_of_month(ref, n, past)
        return (of_month, f"on {format_day(of_month)}", False) if of_month else None
    if kind == "year":
        day = date(int(g[0]), 1, 1)
        return day, f"in {g[0]}", True
    return None


def _closest_year(ref: date, month: int, day: int, past: bool, whole_month: bool = False) -> int:
    """The year that puts month/day on the side of `ref` the tense points to."""
    this_year = (month, day) if not whole_month else (month, 1)
    now = (ref.month, ref.day) if not whole_month else (ref.month, 1)
    if past:
        return ref.year if this_year <= now else ref.year - 1
    return ref.year if this_year >= now else ref.year + 1


def _day_of_month(ref: date, n: int, past: bool) -> date | None:
    months = (0, -1, -2) if past else (0, 1, 2)
    for shift in months:
        base = _shift_months(ref.replace(day=1), shift)
        if n > calendar.monthrange(base.year, base.month)[1]:
            continue
        day = base.replace(day=n)
        if (past and day <= ref) or (not past and day >= ref):
            return day
    return None


def find_dates(text: str, ref: date | None, past: bool = False) -> list[DateMention]:
    """Every time expression in `text`, left to right, longest first, resolved against `ref`.

    `past` says the sentence is in the past tense: "on Friday" then means the last Friday.
    Without a reference date only explicit dates resolve.
    """
    found: list[DateMention] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in _RULES:
        for m in pattern.finditer(text):
            if any(m.start() < end and start < m.end() for start, end in taken):
                continue
            if ref is None and kind not in ("iso", "year"):
                continue
            try:
                resolved = _resolve(kind, m, ref or date.min, past)
            except (ValueError, StopIteration, OverflowError):
                continue  # "31 February", an unknown month spelling
            if resolved is None:
                continue
            day, label, explicit = resolved
            taken.append((m.start(), m.end()))
            found.append(DateMention(m.start(), m.end(), m.group(0), day, label, explicit))
    return _weekdays_joined(text, sorted(found, key=lambda d: d.start))


_WEEKDAY_ONLY = re.compile(rf"(?:on\s+)?(?:{'|'.join(WEEKDAYS)})", re.I)


def _weekdays_joined(text: str, found: list[DateMention]) -> list[DateMention]:
    """"Saturday 21st June", "on Friday, 3 May": the weekday names the day of the date after
    it, one date, not the coming Saturday and then 21 June."""
    out: list[DateMention] = []
    for mention in found:
        before = out[-1] if out else None
        if (before is not None and _WEEKDAY_ONLY.fullmatch(before.text) and re.search(r"\d", mention.text)
                and not text[before.end : mention.start].strip(" ,")):
            joined = DateMention(before.start, mention.end, text[before.start : mention.end], mention.day,
                                 mention.label, mention.explicit)
            out[-1] = joined
            continue
        out.append(mention)
    return out


def month_days(year: int, first: int, last: int | None = None) -> tuple[date, date]:
    """The first and last day of a month (or of the months `first` to `last`)."""
    last = first if last is None else last
    return date(year, first, 1), date(year, last, calendar.monthrange(year, last)[1])


def period(mention: DateMention) -> tuple[date, date] | None:
    """The days a resolved mention covers: one day, a month ("in May 2024"), a year."""
    if mention.day is None:
        return None
    label = mention.label
    if re.fullmatch(r"in \d{4}", label):
        return date(mention.day.year, 1, 1), date(mention.day.year, 12, 31)
    if label.startswith("in "):
        return month_days(mention.day.year, mention.day.month)
    if label.startswith(("around ", "in the week of ", "on the weekend of ")):
        return mention.day - timedelta(days=3), mention.day + timedelta(days=3)
    return mention.day, mention.day


def parse_loose(text: str, ref: date) -> date | None:
    """dateparser for the rare month-name date the rules above do not know."""
    from datetime import datetime

    import dateparser  # deferred: costly import, rarely reached

    settings = {"RELATIVE_BASE": datetime.combine(ref, datetime.min.time()), "PREFER_DATES_FROM": "past"}
    parsed = dateparser.parse(text, languages=["en"], settings=settings)
    return parsed.date() if parsed else None
