"""Answers that must come from the thing asked about, through a real store: a contracted
question word ("what's", "where's", "who's") types the answer as its uncontracted form does;
"when's it?" names no event and is refused, not answered with the only date there is; a
reply sentence about something else ("my shift starts at 6pm") is no time of the event the
reply was asked about."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory
from memhop.core.bench.metrics import is_idk

DIARY = """# Wren's diary

# 2024-01-12

Perpetua's wedding is on 3 May. She asked me to read a poem at it, no pressure.

# 2024-01-20

Perpetua is working on a new mural with her cousin Elodie, slowly.

# 2024-02-02

Perpetua works as a glassblower at Kestrel Forge in Hexworth.

# 2024-02-09

The lantern parade is on 28 February and Elodie is carrying the big fish lantern.
"""


@pytest.fixture(scope="module")
def diary(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "wren-diary.md", DIARY, "Wren Ashby") as memory:
        yield memory


@pytest.mark.parametrize(("question", "expected"), [
    ("What's Perpetua's job?", "glassblower"),
    ("Where's Perpetua working?", "Kestrel Forge"),
    ("Who's carrying the big fish lantern?", "Elodie"),  # the clause that says the lantern, not the parade
])
def test_a_contracted_question_word_types_the_answer(diary: Memory, home: Path, question: str, expected: str) -> None:
    assert diary.ask(question).text == expected  # not the whole sentence it matched


@pytest.mark.parametrize("question", ["When's it?", "When is it?", "When's that on?"])
def test_a_when_question_naming_no_event_is_refused(diary: Memory, home: Path, question: str) -> None:
    assert is_idk(diary.ask(question).text)


def test_a_when_question_naming_its_event_still_reads_its_date(diary: Memory, home: Path) -> None:
    assert diary.ask("When's the lantern parade?").text == "28 February 2024"


CHAT = """21/06/2024, 17:00 - Sunniva Reyes: what time's the quiz tonight?
21/06/2024, 17:04 - Tobiah Lund: Not sure. My shift starts at 6pm though.
21/06/2024, 17:10 - Sunniva Reyes: what time's the auction on saturday?
21/06/2024, 17:12 - Tobiah Lund: It starts at 2pm. My bus gets in at 1pm.
22/06/2024, 09:00 - Sunniva Reyes: what time's the jumble sale?
22/06/2024, 09:03 - Tobiah Lund: Sorry, busy. Working until 6pm.
"""


@pytest.fixture(scope="module")
def chat(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "whatsapp-tobiah.txt", CHAT, "Sunniva Reyes") as memory:
        yield memory


def test_a_reply_sentence_about_something_else_is_no_time_of_the_event(chat: Memory, home: Path) -> None:
    assert is_idk(chat.ask("What time does the quiz start?").text)  # the shift starts at 6pm, not the quiz


def test_a_subjectless_reply_about_the_writers_own_day_is_no_time_of_the_event(chat: Memory, home: Path) -> None:
    assert is_idk(chat.ask("What time is the jumble sale?").text)  # working until 6pm is not the sale


def test_the_reply_sentence_that_answers_still_does(chat: Memory, home: Path) -> None:
    assert chat.ask("What time does the auction start?").text == "2pm"


PLANS = """# Wren's diary

# 2024-05-12

Lysander asked who's bringing the tent. Not me, I said.

# 2024-05-13

Odalys is bringing the camping stove.

# 2024-05-14

Fenwick's party is at Christmas this year.

# 2024-05-15

Brannock is in charge of the bake sale this year.

# 2024-05-16

Odalys and Brannock are coming to the barn dance on Saturday.

# 2024-05-17

Marisol's leaving do is at the Tin Kettle.

# 2024-05-20

Solveig moved to Tarrowby on 2 May.

# 2024-05-21

The pub quiz starts at 8pm tonight. My shift starts at 6pm.
"""


@pytest.fixture(scope="module")
def plans(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "wren-plans.md", PLANS, "Wren Ashby") as memory:
        yield memory


@pytest.mark.parametrize("who", ["Who's", "Who is"])
def test_who_is_doing_it_is_the_one_said_to_do_it(plans: Memory, home: Path, who: str) -> None:
    assert is_idk(plans.ask(f"{who} bringing the tent?").text)  # Lysander only asked
    assert plans.ask(f"{who} bringing the camping stove?").text == "Odalys"
    assert plans.ask(f"{who} in charge of the bake sale?").text == "Brannock"  # not the writer
    assert plans.ask(f"{who} coming to the barn dance?").text == "Odalys and Brannock"  # both, not the first


@pytest.mark.parametrize("where", ["Where's", "Where is"])
def test_a_feast_is_a_time_not_a_place(plans: Memory, home: Path, where: str) -> None:
    assert is_idk(plans.ask(f"{where} Fenwick's party?").text)  # "at Christmas" says when
    assert plans.ask(f"{where} Marisol's leaving do?").text == "Tin Kettle"


def test_a_when_question_that_names_its_event_after_it_is_answered(plans: Memory, home: Path) -> None:
    assert plans.ask("When was it that Solveig moved to Tarrowby?").text == "2 May 2024"  # a cleft
    assert plans.ask("What time does it start, the quiz?").text == "8pm"  # the quiz, named after the comma
    assert is_idk(plans.ask("What time does it start, the raffle?").text)  # the shift's 6pm is not the raffle's
