"""Questions about a chat group when the store holds two groups' records and a diary: a
record's day is not read as the date of what it says, and which group "the group" is is
not known, so such questions are refused rather than answered from the wrong group, an old
name or a sentence about something else; the diary still answers what it says."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import memhop
from memhop.core.api import Memory

SWIMS = """3/1/24, 9:00 AM - Pia Lund created group "Harbour Swimmers"
3/1/24, 9:01 AM - Pia Lund added Tobin Marr
3/1/24, 9:02 AM - Pia Lund: first swim is saturday
3/5/24, 8:00 AM - Pia Lund changed the subject from "Harbour Swimmers" to "Cold Water Club"
3/6/24, 8:00 AM - Tobin Marr: see you at the pier
3/20/24, 7:00 PM - Tobin Marr left
"""
CHESS = """4/2/24, 9:00 AM - Wendel Ash created group "Chess Friends"
4/2/24, 9:01 AM - Wendel Ash added Tobin Marr
4/3/24, 9:02 AM - Wendel Ash: board game night on friday
4/9/24, 9:02 AM - Tobin Marr: I'll bring the clock
"""
DIARY = """# 2024-05-01
Our study group was called Night Owls before we renamed it Early Birds last week.

# 2024-05-03
Tobin left for Lisbon today.

# 2024-05-04
Tobin joined the rowing club today.
"""


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    folder = tmp_path_factory.mktemp("groups")
    files = {"WhatsApp Chat with Cold Water Club.txt": SWIMS, "WhatsApp Chat with Chess Friends.txt": CHESS,
             "diary.md": DIARY}
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    with memhop.open(folder / "store.duckdb", engine="offline") as opened:
        opened.ingest([folder / name for name in files], self_name="Noor Amsel")
        yield opened


@pytest.mark.parametrize("question", [
    "What is the chess group called now?",  # not the swimmers' name
    "When was the chess group created?",
    "When was the group created?",  # two groups; nor the diary's renaming "last week"
    "When was the swimming group created?",  # nor the day of the first swim
    "When did Tobin leave the group?",  # nor the diary's trip
    "When did Tobin join the group?",  # nor the rowing club
])
def test_questions_of_a_group_are_refused_not_answered_from_another(memory: Memory, question: str) -> None:
    assert memory.ask(question).text == "I don't know"


@pytest.mark.parametrize(("question", "expected"), [
    ("When did Tobin leave?", "3 May 2024"),  # no group asked: the diary says when, the record does not
    ("When did Tobin leave for Lisbon?", "3 May 2024"),
])
def test_the_diary_still_answers_what_it_says(memory: Memory, question: str, expected: str) -> None:
    answer = memory.ask(question)
    assert answer.text == expected
    assert "Lisbon" in answer.support.items[0].cited.text
