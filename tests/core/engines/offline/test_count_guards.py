"""A count of occasions is never a guess: only the user's own past occasions count (not a
plan, a habit, a failure or someone else's swim), a stated count over part of the period
answers none of it, and a count the evidence may have cut short is refused, not undercounted."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory
from memhop.core.bench.metrics import is_idk
from memhop.core.engines.offline.counts import occasions
from memhop.core.language.periods import stated_period
from memhop.core.language.sentences import Sentence

SWIMS = """# Perrin's diary

# 2024-07-02

Went swimming at the quarry pool before work.

# 2024-07-20

Went swimming at the quarry pool with Ilka.
"""


def _diary(tmp_path_factory: pytest.TempPathFactory, extra: str) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "perrin-diary.md", SWIMS + extra, "Perrin Vasko") as memory:
        yield memory


@pytest.fixture(scope="module")
def swims(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    yield from _diary(tmp_path_factory, "")


def test_a_count_in_a_month_of_a_year_answers(swims: Memory, home: Path) -> None:
    assert swims.ask("How many times did I go swimming in July 2024?").text == "2"
    assert swims.ask("How many times did I go swimming in Jul 2024?").text == "2"


@pytest.mark.parametrize(
    "line",
    [
        "My brother went swimming at the quarry pool.",  # someone else's swim
        "Going swimming tonight at the quarry pool.",  # a plan
        "Forgot to go swimming again.",  # it did not happen
        "I used to go swimming at the quarry pool every week.",  # a habit
        "We go swimming at the quarry pool every Sunday.",
        "Agreed to go swimming with Ilka at the quarry pool.",  # a promise, not a swim
        "We probably went swimming at the quarry pool, I forget.",  # not surely (a guard: not counted before either)
    ],
)
def test_only_my_own_past_occasions_count(tmp_path_factory: pytest.TempPathFactory, home: Path, line: str) -> None:
    for memory in _diary(tmp_path_factory, f"\n# 2024-07-10\n\n{line}\n"):
        assert memory.ask("How many times did I go swimming?").text == "2"


@pytest.mark.parametrize(
    ("line", "question"),
    [
        ("Went swimming three times last week.", "How many times did I go swimming in 2024?"),  # a week is not the year
        ("Went swimming three times last week.", "How many times did I go swimming since January 2024?"),
        ("I went swimming twice in July 2024.", "How many times did I go swimming in 2024?"),  # two, not one
    ],
)
def test_a_number_of_times_over_part_of_the_period_is_no_count_of_it(
    tmp_path_factory: pytest.TempPathFactory, home: Path, line: str, question: str
) -> None:
    extra = f"\n# 2024-03-09\n\nWent swimming at the quarry pool.\n\n# 2024-07-30\n\n{line}\n"
    for memory in _diary(tmp_path_factory, extra):
        assert is_idk(memory.ask(question).text)


FILLERS = ("Baked rye bread.", "Mended the fence.", "Wrote to Aunt Sabine.", "Sorted the shed.", "Long shift at the depot.")
MONTHLY = "# Perrin's diary\n" + "".join(
    f"\n# {day}\n\n{FILLERS[i % 5]} Went swimming at the quarry pool. {FILLERS[(i + 2) % 5]}\n"
    for i, day in enumerate(
        ["2023-12-02", *(f"2024-{m:02d}-0{1 + m % 7}" for m in range(1, 13)), "2025-01-11"]
    )
)


@pytest.fixture(scope="module")
def monthly(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "perrin-monthly.md", MONTHLY, "Perrin Vasko") as memory:
        yield memory


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("How many times did I go swimming in 2024?", "12"),
        ("How many times did I go swimming?", "14"),
    ],
)
def test_a_count_the_evidence_cannot_hold_is_refused(monthly: Memory, home: Path, question: str, count: str) -> None:
    """More swims than the evidence shows: the count is right or "I don't know", never a part."""
    answer = monthly.ask(question).text
    assert answer == count or is_idk(answer)


def test_someone_elses_occasion_never_counts_for_me_even_when_the_store_does_not_know_me() -> None:
    """With no self anchor (no --self, a question whose chain starts nowhere), "I" is still
    only the teller: "my sister went swimming" is hers."""
    def said(text: str, day: int, turn: int) -> tuple[Sentence, int]:
        return Sentence(text, "evidence", None, "Noor", datetime(2024, 5, day, 12), None, "Noor", (), True, turn), 0

    question = "How many times did I go swimming in May 2024?"
    evidence = [said("My sister went swimming on Saturday.", 6, 1), said("I went swimming today.", 9, 2)]
    counted = occasions(question, evidence, stated_period(question), None)
    assert counted is not None and counted[0] == "1"
