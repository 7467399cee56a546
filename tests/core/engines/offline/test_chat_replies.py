"""In a chat a reply answers the question before it: a later question matching the asking
turn is answered from its reply, typed as any answer is, and never from a reply that gives
no answer of the asked type or one the next day."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory
from memhop.core.bench.metrics import is_idk

CHAT = """13/05/2024, 18:02 - Inka Salo: hey! are we still on for friday?
13/05/2024, 18:05 - Lior Benami: yes!! can't wait
13/05/2024, 18:06 - Inka Salo: what time's the gig?
13/05/2024, 18:09 - Lior Benami: 8pm at the Forum, doors at 7
13/05/2024, 18:10 - Inka Salo: perfect, I'll bring the tickets
15/05/2024, 11:00 - Inka Salo: what time does the film start on sunday?
15/05/2024, 11:04 - Lior Benami: no idea honestly
16/05/2024, 21:40 - Inka Salo: what time does the quiz start?
17/05/2024, 08:15 - Lior Benami: 9pm, see you there
"""


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "whatsapp-lior.txt", CHAT, "Inka Salo") as memory:
        yield memory


def test_a_reply_answers_the_question_it_follows(mem: Memory, home: Path) -> None:
    answer = mem.ask("What time does the gig start?")
    assert answer.text == "8pm"
    assert "8pm at the Forum" in answer.support.items[0].cited.text


@pytest.mark.parametrize("question", [
    "What time does the film start?",  # the reply gives no time
    "What time does the quiz start?",  # the next day's turn opens another talk
    "What time is the quiz?",  # and "what time's the gig?" is not about the quiz
])
def test_a_reply_without_an_answer_of_the_type_is_no_answer(mem: Memory, home: Path, question: str) -> None:
    assert is_idk(mem.ask(question).text)
