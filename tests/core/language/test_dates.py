"""Relative and absolute time expressions, resolved against the moment they were said."""

from __future__ import annotations

from datetime import date

import pytest

from memhop.core.language.dates import find_dates, period

MONDAY = date(2023, 5, 8)


@pytest.mark.parametrize(
    ("text", "past", "day", "label"),
    [
        ("I went to a choir rehearsal yesterday", True, date(2023, 5, 7), "on 7 May 2023"),
        ("the recital was last night", True, date(2023, 5, 7), "on 7 May 2023"),
        ("he started last Tuesday", True, date(2023, 5, 2), "on 2 May 2023"),
        ("we met on Friday", True, date(2023, 5, 5), "on 5 May 2023"),
        ("see you on Friday", False, date(2023, 5, 12), "on 12 May 2023"),
        ("the gig is next month", False, date(2023, 6, 1), "in June 2023"),
        ("he resigned two weeks ago", True, date(2023, 4, 24), "around 24 April 2023"),
        ("I painted it last year", True, date(2022, 1, 1), "in 2022"),
        ("she moved three years ago", True, date(2020, 1, 1), "in 2020"),
        ("nervous about the recital on the 14th", False, date(2023, 5, 14), "on 14 May 2023"),
        ("it was on the 4th", True, date(2023, 5, 4), "on 4 May 2023"),
        ("the party on 14 March", True, date(2023, 3, 14), "on 14 March 2023"),
        ("the party on 14 March", False, date(2024, 3, 14), "on 14 March 2024"),
        ("last weekend we went sailing", True, date(2023, 5, 6), "on the weekend of 6 May 2023"),
        ("joined a new club last Tues.", True, date(2023, 5, 2), "on 2 May 2023"),
        ("tomorrow is sorted", False, date(2023, 5, 9), "on 9 May 2023"),
        # a chat's lower-case month is a month, after "in", "since", "last"...
        ("we moved here last october", True, date(2022, 10, 1), "in October 2022"),
        # "since" looks back whatever the tense: this January, never the next
        ("running every day since January", False, date(2023, 1, 1), "in January 2023"),
        ("since december its been quiet", False, date(2022, 12, 1), "in December 2022"),
    ],
)
def test_relative_dates(text: str, past: bool, day: date, label: str) -> None:
    found = find_dates(text, MONDAY, past)
    assert [(d.day, d.label) for d in found] == [(day, label)]
    assert not found[0].explicit


def test_explicit_dates_say_so() -> None:
    found = find_dates("on March 14, 2024 and in 2019", MONDAY)
    assert [(d.day, d.explicit) for d in found] == [(date(2024, 3, 14), True), (date(2019, 1, 1), True)]


def test_vague_amounts_keep_a_label_but_no_date() -> None:
    (found,) = find_dates("a few weeks ago I painted", MONDAY, past=True)
    assert found.day is None and found.label == "a few weeks before 8 May 2023"


@pytest.mark.parametrize("text", ["I may go", "are you free sat", "ten years of friendship", "March on!", "we may go in may",
                                  "we march in march"])
def test_words_that_are_not_dates(text: str) -> None:
    assert find_dates(text, MONDAY, past=False) == []


def test_without_a_reference_only_absolute_dates_resolve() -> None:
    assert [d.day for d in find_dates("yesterday, and in 2019", None)] == [date(2019, 1, 1)]


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("she turned forty in May 2024", (date(2024, 5, 1), date(2024, 5, 31))),
        ("my favourite books of 2024", (date(2024, 1, 1), date(2024, 12, 31))),
        ("the party on 14 March 2024", (date(2024, 3, 14), date(2024, 3, 14))),
    ],
)
def test_a_mention_covers_a_day_a_month_or_a_year(text: str, days: tuple[date, date]) -> None:
    (mention,) = find_dates(text, MONDAY)
    assert period(mention) == days


def test_a_vague_mention_covers_no_period() -> None:
    (mention,) = find_dates("a few weeks ago", MONDAY, past=True)
    assert period(mention) is None


@pytest.mark.parametrize("text", ["The party is Saturday 21st June.", "The party is on Saturday, 21 June."])
def test_a_weekday_before_a_date_names_that_date(text: str) -> None:
    # one date, 21 June: not the coming Saturday and then 21 June
    found = find_dates(text, date(2025, 2, 8))
    assert [(d.day, d.label) for d in found] == [(date(2025, 6, 21), "on 21 June 2025")]


def test_a_weekday_and_a_date_apart_are_two_dates() -> None:
    found = find_dates("Saturday and 21 June both work", date(2025, 2, 8))
    assert [d.day for d in found] == [date(2025, 2, 15), date(2025, 6, 21)]
