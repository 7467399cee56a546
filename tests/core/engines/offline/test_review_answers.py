"""Ordinary diary answers the refusal rules must let through: a one-digit count, a sentence
saying "she"/"there" or a nickname instead of the question's name, a capitalised common word
("TV"), the name Will, a title ending "Things", a day that also mentions a plan, and the
everyday ways of saying how often."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory
from memhop.core.bench.metrics import is_idk

DIARY = """# Marek's diary

# 2024-01-06

Odile has 3 cats and 14 goldfish. She named the oldest cat Pudding.

# 2024-01-13

Odile works at Fenwick Pottery. She started there in 2019.

# 2024-01-20

Went climbing with Bartholomew at the Vault. Bart is my oldest friend.

# 2024-01-27

Bart plays the bassoon in a small orchestra.

# 2024-02-03

Bartholomew and I went climbing at the Vault again, and we will go climbing again next week.

# 2024-02-10

Odile's favourite show is Stranger Things, she watches it with her brother.

# 2024-02-17

Odile visits her grandmother every two weeks.

# 2024-02-24

Odile plays squash on Tuesdays.

# 2024-03-02

At the chess club I played against Will Garnett and lost.

# 2024-03-09

Took a trip to Ghent with Odile to see the canals.

# 2024-03-16

Back from Ghent today. Odile bought a lace collar at the market there.

# 2024-03-23

Went climbing with Bart at the Vault, we'll go again at Easter.

# 2024-03-30

Odile joined a book club with her neighbour.

# 2024-04-06

Odile's pottery class begins at 6.30 on Thursdays.
"""


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "marek-diary.md", DIARY, "Marek") as memory:
        yield memory


def test_a_one_digit_count_answers(mem: Memory, home: Path) -> None:
    assert mem.ask("How many cats does Odile have?").text == "3 cats"


def test_a_sentence_saying_she_there_answers_when(mem: Memory, home: Path) -> None:
    assert mem.ask("When did Odile start at Fenwick Pottery?").text == "2019"  # the date, not "in 2019"


def test_a_nickname_names_the_person(mem: Memory, home: Path) -> None:
    assert "bassoon" in mem.ask("What instrument does Bartholomew play?").text


def test_a_capitalised_common_word_is_no_other_name(mem: Memory, home: Path) -> None:
    assert mem.ask("What is Odile's favourite TV show?").text == "Stranger Things"


def test_will_is_a_name(mem: Memory, home: Path) -> None:
    assert "Will" in mem.ask("Who did I play against at the chess club?").text


def test_a_day_with_a_plan_still_happened(mem: Memory, home: Path) -> None:
    # ", and we will go climbing again next week", ", we'll go again at Easter": plans beside the event
    assert mem.ask("How many times did I go climbing with Bartholomew?").text == "3"


def test_a_nickname_counts_occasions(mem: Memory, home: Path) -> None:
    assert mem.ask("How many times did I go climbing with Bart?").text == "3"


def test_a_sentence_saying_there_is_read_with_the_one_before(mem: Memory, home: Path) -> None:
    assert "lace collar" in mem.ask("What did Odile buy in Ghent?").text
    assert is_idk(mem.ask("What did Odile buy in Bruges?").text)  # memory never says Bruges


@pytest.mark.parametrize(("question", "said"), [
    ("How often does Odile visit her grandmother?", "every two weeks"),
    ("How often does Odile play squash?", "on Tuesdays"),
])
def test_everyday_frequencies_answer_how_often(mem: Memory, home: Path, question: str, said: str) -> None:
    assert mem.ask(question).text == said  # the frequency, not the whole sentence


def test_a_sentence_naming_another_place_is_no_answer(mem: Memory, home: Path) -> None:
    assert is_idk(mem.ask("What did Odile take a trip to Lisbon for?").text)


def test_what_time_is_a_clock_time_or_nothing(mem: Memory, home: Path) -> None:
    assert mem.ask("What time does Odile's pottery class begin?").text == "6.30"
    # "joined a book club with her neighbour" says no time: not "her neighbour", not "a book club"
    assert is_idk(mem.ask("What time does Odile's book club meet?").text)
