"""A "when" answer is a date said of the asked event, through a real store: the date of
someone joining a group does not say when the group was started, and the "(before <day>)"
note the write path gives a past event stated with no date of its own is a bound, answered
as "before <day>", never as the day itself. A date said in the event's own clause, and a
relative one ("last night"), are still read."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory
from memhop.core.bench.metrics import is_idk

CHAT = """13/05/2024, 18:00 - Ottoline Brisco: Hi all, welcome to the orchard group!
13/05/2024, 18:05 - Bastien Oyelaran: Thanks! I joined the choir, busy month.
14/05/2024, 09:12 - Ottoline Brisco: The cider pressing is on 25 May at the barn.
16/05/2024, 08:30 - Ottoline Brisco: The recital was last night, Leopold played beautifully.
17/05/2024, 19:00 - Corvin Drummond: I finally joined the poetry circle, first meeting went well.
18/05/2024, 10:00 - Isaura Quint: We founded the seed library on 2 March 2024, after months of planning.
19/05/2024, 11:00 - Leopold Hatherley: My troupe is finishing up the steps to perform at the harvest fair next month.
"""


@pytest.fixture(scope="module")
def chat(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "whatsapp-orchard.txt", CHAT, "Ottoline Brisco") as memory:
        yield memory


@pytest.mark.parametrize("question", [
    "When was the poetry circle started?",
    "When did the poetry circle start?",
    "When was the poetry circle created?",
])
def test_a_date_someone_joined_is_no_date_the_group_was_started(chat: Memory, home: Path, question: str) -> None:
    assert is_idk(chat.ask(question).text)  # only "Corvin joined the poetry circle" is dated


@pytest.mark.parametrize(("question", "expected"), [
    ("When did Corvin join the poetry circle?", "before 17 May 2024"),
    ("When did Bastien join the choir?", "before 13 May 2024"),
])
def test_an_undated_past_event_is_answered_as_a_bound(chat: Memory, home: Path, question: str, expected: str) -> None:
    assert chat.ask(question).text == expected  # not "17 May 2024": that is only the day it was told


@pytest.mark.parametrize(("question", "expected"), [
    ("When was the seed library founded?", "2 March 2024"),  # the asked verb governs the date
    ("When is the cider pressing?", "25 May 2024"),  # the event is the subject of its date's clause
    ("When was the recital?", "15 May 2024"),  # "last night", said on the 16th
    ("When is Leopold's troupe performing at the harvest fair?", "June 2024"),  # the asked verb, on the way up
])
def test_a_date_said_of_the_event_itself_is_still_read(chat: Memory, home: Path, question: str, expected: str) -> None:
    assert chat.ask(question).text == expected
