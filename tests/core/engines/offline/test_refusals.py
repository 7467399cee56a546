"""A wrong answer is worse than "I don't know": a question in the chat states nothing, a
yes/no question is not answered by a quote, and a question naming a place is not answered by
a sentence that does not name it. A date answers "when" as a date, not as a phrase around
it, and a frequency answers "how often"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory
from memhop.core.bench.metrics import is_idk

CHAT = """02/05/2023, 18:01 - Ravi Oduya: hey Lenka! how was the weekend?
02/05/2023, 18:03 - Lenka Brandt: so good, I did a glassblowing taster on Saturday and made a vase
02/05/2023, 18:04 - Ravi Oduya: nice!! what got you into glassblowing?
02/05/2023, 18:06 - Lenka Brandt: my aunt had a kiln in her shed, I was hooked at nine
02/05/2023, 18:07 - Ravi Oduya: do you play an instrument as well?
02/05/2023, 18:09 - Lenka Brandt: haha no, no time
14/06/2023, 20:11 - Ravi Oduya: I'm finally opening the bike shop next month
14/06/2023, 20:15 - Ravi Oduya: the launch party is in July 2023, come by
15/06/2023, 09:02 - Ravi Oduya: went bouldering with my cousin again, we go twice a month now
20/06/2023, 10:00 - Ravi Oduya: took a trip to Porto last week to see the tile museums
20/06/2023, 10:02 - Ravi Oduya: honestly opening a shop needs nerve and a thick skin
21/06/2023, 08:30 - Lenka Brandt: Ravi has quit his job at Cog & Spoke for good
21/06/2023, 08:31 - Lenka Brandt: he starts at Wheelhouse Cycles on Monday
22/06/2023, 19:40 - Ravi Oduya: sunflowers mean my own stubbornness to me
22/06/2023, 19:42 - Lenka Brandt: I brought my grandmother's lemon cake to the picnic
23/06/2023, 10:00 - Ravi Oduya: thanks for the necklace from your trip! It's a lovely gift.
"""


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "whatsapp-ravi.txt", CHAT, "Lenka Brandt") as memory:
        yield memory


@pytest.mark.parametrize("question", ["What instrument does Ravi play?", "What got Ravi into glassblowing?"])
def test_a_question_in_the_chat_is_not_an_answer(mem: Memory, home: Path, question: str) -> None:
    # Ravi asked Lenka these; nothing says what Ravi plays or what got him into glassblowing
    answer = mem.ask(question)
    assert is_idk(answer.text) and not answer.answered


def test_a_when_answer_is_the_date_not_a_phrase(mem: Memory, home: Path) -> None:
    assert mem.ask("When is the launch party of Ravi's bike shop?").text == "July 2023"


def test_how_often_is_answered_with_a_frequency(mem: Memory, home: Path) -> None:
    assert mem.ask("How often does Ravi go bouldering?").text == "twice a month"


def test_no_quote_answers_a_yes_no_question(mem: Memory, home: Path) -> None:
    assert is_idk(mem.ask("Did Ravi open the bike shop?").text)


def test_a_sentence_not_naming_the_place_asked_about_does_not_answer(mem: Memory, home: Path) -> None:
    # Ravi went to Porto; nothing is said of Lisbon, and "needs nerve" is about the shop
    assert is_idk(mem.ask("What did Ravi take a trip to Lisbon for?").text)


def test_a_name_the_question_sets_against_the_answer_need_not_be_named(mem: Memory, home: Path) -> None:
    assert mem.ask("Where did Ravi work before Wheelhouse?").text == "Cog & Spoke"


def test_an_answer_in_someone_elses_first_person_is_refused(mem: Memory, home: Path) -> None:
    # Ravi's "my own stubbornness" is whose? The cut does not say: refused, not quoted
    assert is_idk(mem.ask("What do sunflowers mean to Ravi?").text)
    # what the asker said of herself still answers her
    assert "grandmother's lemon cake" in mem.ask("What did I bring to the picnic?").text


def test_a_clause_about_it_is_no_answer(mem: Memory, home: Path) -> None:
    # "It's a lovely gift." says that something is a gift, not what it is
    assert is_idk(mem.ask("What was the gift to Ravi?").text)
    assert is_idk(mem.ask("What gift did Ravi get?").text)
