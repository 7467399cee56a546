"""A date that only anchors a relative time is not the time: "got it a few years ago", written
on 8 February 2025, is stored with the note "(a few years before 8 February 2025)", and
"when did she get it?" is answered with the whole note, never with 8 February 2025. A date of
a denied act ("didn't make it on Thursday") is no time it happened."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory
from memhop.core.bench.metrics import is_idk

DIARY = """# Journal

## 2025-02-08

Showed Ilse my tattoo at lunch. Got the tattoo a few years ago in Porto, a swallow on my wrist.

## 2025-03-15

Ilse ran the river relay last Sunday, her first race since the operation.

## 2025-04-02

Finished the patchwork quilt for Ilse's new flat.

## 2025-05-10

Ilse didn't make it to the book club on Thursday, her train was cancelled.

## 2025-06-14

Ilse's birthday picnic on the heath last Saturday. Rain, then sun.

## 2025-06-20

Don't forget the quiz night at the Anchor on Thursday, Ilse is hosting.
"""


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "journal.md", DIARY, "Runa Vik") as memory:
        yield memory


def test_a_time_counted_back_from_a_day_is_not_that_day(mem: Memory) -> None:
    assert mem.ask("When did Runa get the tattoo?").text == "a few years before 8 February 2025"


def test_a_day_the_note_names_is_still_the_day(mem: Memory) -> None:
    # "last Sunday", written on 15 March 2025: the note names the day itself
    assert mem.ask("When did Ilse run the river relay?").text == "9 March 2025"


def test_a_past_event_told_without_a_date_is_answered_with_the_day_it_was_told(mem: Memory) -> None:
    # "(before 2 April 2025)" is the write path's note of the telling, not a distance from it
    assert mem.ask("When did Runa finish the patchwork quilt?").text == "2 April 2025"


def test_a_date_of_a_denied_act_is_no_time_it_happened(mem: Memory) -> None:
    answer = mem.ask("When did Ilse go to the book club?")
    assert is_idk(answer.text) and not answer.answered
    # asked as denied, the date is the answer
    assert mem.ask("When didn't Ilse make it to the book club?").text == "8 May 2025"


def test_a_date_in_a_sentence_without_a_verb_is_read(mem: Memory) -> None:
    # no verb governs "last Saturday": nothing denies it (the walk up the parse ends at its root)
    assert mem.ask("When was Ilse's birthday picnic?").text == "7 June 2025"


def test_a_denial_that_affirms_still_dates(mem: Memory) -> None:
    # "don't forget the quiz night on Thursday" says when it is
    assert mem.ask("When is the quiz night at the Anchor?").text == "26 June 2025"
