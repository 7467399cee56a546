"""A date without a year ("on 14 August") is stored and answered on the side of the turn its
clause points to, by one rule (core/engines/offline/dating.py) for ingest and answers: a date
a present verb only remembers, a date of a thing ("photos from our hike on 3 May"), "since"
and a caption look back; "is on", "we fly on", "is booked for", "will" look ahead. A wrong
year is worse than no answer (issue #12)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory
from memhop.core.engines.offline.answer import answer_offline
from memhop.core.model import AnswerRequest, EntitySlice, TurnView

DIARY = """# Ysolde's diary

# 2025-12-01

I still think about the boat trip on 14 August. Gareth steered the whole way.

# 2025-12-02

Here are the photos from our hike on 3 May, Gareth looks frozen in all of them.

# 2025-12-03

I miss the party on 12 June at Bramwell's barn.

# 2025-12-04

The bakery on Fenn Street is closed since 9 March, I still miss its rye bread.

# 2025-12-05

This is Gareth at the lighthouse on 7 July.

# 2025-12-06

Gareth's wedding is on 3 May. He asked me to be his best woman.

# 2025-12-07

We fly to Quillan on 20 February for the conference.

# 2025-12-08

The recital is booked for 11 April at the town hall.

# 2025-12-09

Gareth will run the marathon on 26 April.

# 2025-12-10

The allotment supper is on 19 December, Gareth is bringing cider.

# 2025-12-11

I can't wait for the harvest fair on 14 March, Gareth is judging the marrows.
"""


@pytest.fixture(scope="module")
def diary(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "ysolde-diary.md", DIARY, "Ysolde Pryce") as memory:
        yield memory


@pytest.mark.parametrize(("question", "expected"), [
    ("When was the boat trip?", "14 August 2025"),  # remembered in December: the August gone
    ("When was the hike?", "3 May 2025"),  # the photos are from it
    ("When was the party?", "12 June 2025"),  # missed, so gone
    ("When did the bakery close?", "9 March 2025"),  # closed since
    ("When was Gareth at the lighthouse?", "7 July 2025"),  # a caption
])
def test_a_present_tense_about_a_date_gone_by_stores_the_one_gone_by(
    diary: Memory, home: Path, question: str, expected: str
) -> None:
    assert diary.ask(question).text == expected


@pytest.mark.parametrize(("question", "expected"), [
    ("When is Gareth's wedding?", "3 May 2026"),
    ("When do we fly to Quillan?", "20 February 2026"),
    ("When is the recital?", "11 April 2026"),  # booked for
    ("When is the marathon?", "26 April 2026"),  # will run
    ("When is the allotment supper?", "19 December 2025"),  # nine days on
    ("When is the harvest fair?", "14 March 2026"),  # waited for
])
def test_a_clause_that_points_forward_stores_the_coming_date(
    diary: Memory, home: Path, question: str, expected: str
) -> None:
    assert diary.ask(question).text == expected


GARETH = EntitySlice("Gareth", "Gareth is Ysolde's friend.", ())


@pytest.mark.parametrize(("text", "question", "expected"), [
    ("Gareth's wedding is on 3 May.", "When is Gareth's wedding?", "3 May 2026"),
    ("We fly to Quillan on 20 February.", "When do we fly to Quillan?", "20 February 2026"),
    ("Gareth's recital is booked for 11 April.", "When is Gareth's recital?", "11 April 2026"),
])
def test_the_answer_reads_a_turn_as_ingest_stores_it(text: str, question: str, expected: str) -> None:
    """Asked of the raw turn, the answer side reads the same side as the store (the same rule):
    a schedule months ahead is the coming one, not the one gone by."""
    said = TurnView(1, "Ysolde Pryce", text, datetime(2025, 12, 6), "2025-12-06#1")
    request = AnswerRequest(question, (GARETH,), (said,), ("Gareth",))
    assert answer_offline(request) == expected
