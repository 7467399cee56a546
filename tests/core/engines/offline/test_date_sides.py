"""A date without a year ("on 14 August") is stored and answered on the side of the turn its
clause points to, by one rule (core/engines/offline/dating.py) for ingest and answers: a date
of a thing ("photos from our hike on 3 May"), "since" and a caption look back; a date that
hangs on a present verb ("is on", "runs the relay on", "is rowing on", "there's a fair on"),
"will" and "can't wait for" look ahead; a date the grammar leaves open (a present verb only
remembering it, a verbless note) is answered only when the calendar settles it, else "I don't
know". A wrong year is worse than no answer (issue #12)."""

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
    ("When was the hike?", "3 May 2025"),  # the photos are from it
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


@pytest.mark.parametrize("question", ["When was the boat trip?", "When was the party?"])
def test_a_date_a_present_verb_only_remembers_is_not_given_a_year(diary: Memory, home: Path, question: str) -> None:
    """"I still think about the boat trip on 14 August", "I miss the party on 12 June": the
    grammar does not say which August; a guessed year would be a confident wrong answer."""
    assert diary.ask(question).text == "I don't know"


PLANS = """# Marisol's diary

# 2025-12-01

Orrin runs the relay on 19 April. He trains every morning.

# 2025-12-02

Tamsin turns 40 on 8 March, we are planning a surprise.

# 2025-12-03

Orrin is rowing the estuary race on 23 May.

# 2025-12-04

We're having a ceilidh on 17 May at the village hall.

# 2025-12-05

I have a viva on 11 March and I am terrified.

# 2025-12-06

The barn dance starts at 7pm on 12 February.

# 2025-12-07

There's a harp recital on 9 May in the chapel.

# 2025-12-08

The grant deadline is 2 March.

# 2025-12-09

I've got an audition on 5 March.

# 2025-12-09

I want to frame the photos from our canoe trip on 4 May.

# 2025-12-09

I still think about the kayak outing on 15 August that we took next to the dunes.

# 2025-12-09

Pottery fair on 6 May!

# 2025-12-09

The ferry to Vantry on 16 July is fully booked.

# 2025-12-10

I still laugh about the pub quiz on Friday.
"""


@pytest.fixture(scope="module")
def plans(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "marisol-diary.md", PLANS, "Marisol Dunmere") as memory:
        yield memory


@pytest.mark.parametrize(("question", "expected"), [
    ("When does Orrin run the relay?", "19 April 2026"),  # any present verb the date hangs on: its time
    ("When does Tamsin turn 40?", "8 March 2026"),
    ("When is the estuary race?", "23 May 2026"),  # present progressive
    ("When is the ceilidh?", "17 May 2026"),  # "we're having ... on"
    ("When is the viva?", "11 March 2026"),  # "I have ... on": what "have" holds
    ("When is the barn dance?", "12 February 2026"),  # a clock time before the date
    ("When is the harp recital?", "9 May 2026"),  # "there's", not a caption
    ("When is the grant deadline?", "2 March 2026"),  # the date is what the deadline is
    ("When is the audition?", "5 March 2026"),  # "have got": possession now, not a perfect
])
def test_a_date_on_a_present_verb_is_the_coming_one(plans: Memory, home: Path, question: str, expected: str) -> None:
    assert plans.ask(question).text == expected


def test_a_thing_from_a_date_looks_back_whatever_plan_the_sentence_makes(plans: Memory, home: Path) -> None:
    """"I want to frame the photos from our canoe trip on 4 May": "want to" is the framing's
    plan; the trip the photos are from is gone."""
    assert plans.ask("When was the canoe trip?").text == "4 May 2025"


@pytest.mark.parametrize("question", [
    "When was the kayak outing?",  # "next to the dunes" is no plan, and it is only remembered
    "When is the pottery fair?",  # a verbless note months from either 6 May
    "When is the ferry to Vantry?",  # the date is the ferry's, "is booked" says nothing of it
])
def test_a_date_the_grammar_leaves_open_gets_no_year(plans: Memory, home: Path, question: str) -> None:
    assert plans.ask(question).text == "I don't know"


def test_a_weekday_the_grammar_leaves_open_is_the_one_the_question_asks_for(plans: Memory, home: Path) -> None:
    """"I still laugh about the pub quiz on Friday", said on a Wednesday: both Fridays are this
    week's; the grammar does not choose, so only the question's "was" does."""
    assert plans.ask("When was the pub quiz?").text == "5 December 2025"


def test_a_verbless_turn_is_answered_as_it_is_stored_whatever_the_question_tense() -> None:
    """The asker's tense is the asker's now, not the turn's: a note four days ahead of its
    date names the coming one for "when was" too."""
    said = TurnView(1, "Marisol Dunmere", "Tamsin's gig on 10 December!", datetime(2025, 12, 6), "2025-12-06#1")
    tamsin = EntitySlice("Tamsin", "Tamsin is Marisol's friend.", ())
    request = AnswerRequest("When was Tamsin's gig?", (tamsin,), (said,), ("Tamsin",))
    assert answer_offline(request) == "10 December 2025"
