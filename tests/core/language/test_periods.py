"""The period a question names: one day, month, season or year, or a range read whole."""

from __future__ import annotations

from datetime import date

import pytest

from memhop.core.language import periods
from memhop.core.language.periods import stated_period

NOW = date(2026, 3, 10)


@pytest.mark.parametrize(
    ("question", "first", "last"),
    [
        # a year (or month) written once belongs to both ends
        ("How many gigs did Pell play between August and November 2023?", date(2023, 8, 1), date(2023, 11, 30)),
        ("What did Pell bake from March to May 2023?", date(2023, 3, 1), date(2023, 5, 31)),
        ("Where was Pell between 3 and 9 June 2024?", date(2024, 6, 3), date(2024, 6, 9)),
        ("Where was Pell from the 3rd of June until the 9th of June 2024?", date(2024, 6, 3), date(2024, 6, 9)),
        ("What did Pell read May–July 2024?", date(2024, 5, 1), date(2024, 7, 31)),
        ("Which cities did Pell live in 2019-2021?", date(2019, 1, 1), date(2021, 12, 31)),
        ("What did Pell knit from 2024-02-03 to 2024-02-10?", date(2024, 2, 3), date(2024, 2, 10)),
        # a range over new year: the start is in the year before the one written
        ("How many swims between November and February 2025?", date(2024, 11, 1), date(2025, 2, 28)),
        ("How many swims from November 2024 till February?", date(2024, 11, 1), date(2025, 2, 28)),
        # one end, to the question's now or from the beginning
        ("How many races has Pell run since April 2024?", date(2024, 4, 1), NOW),
        ("How many races did Pell run after May 2024?", date(2024, 6, 1), NOW),
        # single periods, as before
        ("How old did Pell turn in August 2024?", date(2024, 8, 1), date(2024, 8, 31)),
        ("What were Pell's favourite books of 2024?", date(2024, 1, 1), date(2024, 12, 31)),
        ("What happened on 14 March 2024?", date(2024, 3, 14), date(2024, 3, 14)),
        ("Where did Pell go in the summer of 2022?", date(2022, 6, 1), date(2022, 8, 31)),
        ("What did Pell plant in autumn 2023?", date(2023, 9, 1), date(2023, 11, 30)),
    ],
)
def test_a_period_is_read_whole(question: str, first: date, last: date) -> None:
    period = stated_period(question, NOW)
    assert period is not None and (period.first, period.last) == (first, last)


@pytest.mark.parametrize(
    ("question", "last"),
    [
        ("Where did Pell work before May 2023?", date(2023, 4, 30)),
        ("Where did Pell work until March 2024?", date(2024, 3, 31)),
        ("Where did Pell live up to 2020?", date(2020, 12, 31)),
    ],
)
def test_an_end_alone_is_open_at_the_start(question: str, last: date) -> None:
    period = stated_period(question, NOW)
    assert period is not None and period.first is None and period.last == last


@pytest.mark.parametrize(
    "question",
    [
        "How many races did Pell run between March and April?",  # no year pins either end
        "Where was Pell between 3 and 9 June?",
        "How many races did Pell run between June and 31 June 2024?",  # no such day
        "How many races did Pell run between December 2024 and March 2024?",  # ends the wrong way round
        "What did Pell do in June?",
        "What did Pell do at the 2024 fair?",  # a year naming a thing, not a time
        "What did Pell do since last year?",  # relative: left to the reader
    ],
)
def test_an_end_that_cannot_be_pinned_names_no_period(question: str) -> None:
    assert stated_period(question, NOW) is None


def test_a_range_is_never_read_as_its_last_end_alone() -> None:
    """The old reading took "November 2023" for the whole of "between August and November 2023"."""
    period = stated_period("How many races did Pell row between August and November 2023?", NOW)
    assert period is not None and period.first == date(2023, 8, 1)
    assert period.words == "between August and November 2023"
    assert period.label == "1 August 2023 – 30 November 2023"


def test_since_needs_a_now() -> None:
    assert stated_period("What has Pell read since April 2024?") is None  # never a half period
    period = stated_period("What has Pell read since April 2024?", NOW)
    assert period is not None and period.label == "1 April 2024 – 10 March 2026"


def test_the_first_period_named_is_the_one_read() -> None:
    period = stated_period("What did Pell do on March 14, 2024 and in 2019?", NOW)
    assert period is not None and (period.first, period.last) == (date(2024, 3, 14), date(2024, 3, 14))


@pytest.mark.parametrize(
    ("question", "unpinned"),
    [
        ("How many races did Pell row between August and November 2023?", False),
        ("How many races did Pell win?", False),
        ("How many races did Pell win in 2024?", False),
        ("How many races did Pell row between August and November?", True),
        ("How many races did Pell win in September?", True),
        ("How many races did Pell win last year?", True),
        ("How many races did Pell win since April?", True),
        ("How many races did Pell win in winter 2023?", True),  # a season it does not read
        ("How many races did Pell win in early 2024?", True),  # a part of the year, not all of it
        ("How many races did Pell win in mid-2024?", True),
        ("How many races did Pell win in the first half of 2024?", True),
        ("How many races did Pell win at the end of 2024?", True),
    ],
)
def test_a_time_named_but_not_pinned(question: str, unpinned: bool) -> None:
    assert periods.unpinned(question, NOW) is unpinned


@pytest.mark.parametrize(
    "question",
    [
        "How many times did Mirela row before the 2024 regatta?",
        "What did Mirela do after the 2023 regatta?",
        "How often did Mirela row up to the 2025 trials?",
        "What has Mirela done since the 2022 move?",
    ],
)
def test_a_year_naming_an_event_is_no_period(question: str) -> None:
    """"the 2024 regatta" is a regatta, not the year: before it is not before 2024."""
    assert stated_period(question, date(2026, 1, 5)) is None


def test_a_month_of_a_year_after_in_is_pinned() -> None:
    assert not periods.unpinned("How many times did Mirela row in July 2024?")
    assert not periods.unpinned("How many times did Mirela row in May of 2024?")
    assert periods.unpinned("How many times did Mirela row in July 2024 and last week?")
