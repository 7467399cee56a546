"""In a chat a reply answers the question before it: a later question matching the asking
turn is answered from its reply, typed as any answer is, and never from a reply that gives
no answer of the asked type or one the next day."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from support.written_memory import written_memory

import memhop
from memhop.core.api import Memory
from memhop.core.bench.metrics import is_idk
from memhop.core.engines.offline.answer import DONT_KNOW, answer_offline
from memhop.core.model import AnswerRequest, EntitySlice, TurnView

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


DECLINING_CHAT = """20/06/2024, 17:00 - Wren Tally: what time's the gig?
20/06/2024, 17:02 - Idris Vale: no clue, but the last bus leaves at 11pm
20/06/2024, 17:03 - Wren Tally: where is the dinner after?
20/06/2024, 17:05 - Idris Vale: ask Yana, I'm at the Anchor till 9pm
20/06/2024, 17:06 - Wren Tally: how much was the ferry?
20/06/2024, 17:08 - Idris Vale: we were 4 people, took 2 hours
20/06/2024, 17:09 - Wren Tally: who is coming to the barbecue?
20/06/2024, 17:11 - Idris Vale: Ossian can't, he is in Leipzig
20/06/2024, 17:12 - Wren Tally: what time's the quiz?
20/06/2024, 17:13 - Idris Vale: 8pm at the Lamb
"""


@pytest.fixture(scope="module")
def declining(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "whatsapp-idris.txt", DECLINING_CHAT, "Wren Tally") as memory:
        yield memory


@pytest.mark.parametrize("question", [
    "What time does the gig start?",  # the reply declines, then tells of the bus
    "Where is the dinner?",  # "ask Yana": and where Idris is is another matter
    "What time is the dinner?",  # the asking turn asked where, not when
    "How much was the ferry?",  # people and hours are no price
    "How much was it?",  # no words left to find the asking turn by
    "Who is coming to the barbecue?",  # "Ossian can't"
    "Who is coming?",
])
def test_a_reply_that_declines_or_answers_another_question_is_no_answer(declining: Memory, home: Path,
                                                                         question: str) -> None:
    assert is_idk(declining.ask(question).text)


def test_a_plain_reply_in_the_same_chat_still_answers(declining: Memory, home: Path) -> None:
    answer = declining.ask("What time does the quiz start?")
    assert answer.text == "8pm"
    assert "8pm at the Lamb" in answer.support.items[0].cited.text



OPENING_CHAT = """14/07/2024, 19:00 - Sunniva Roe: what time's the recital?
14/07/2024, 19:03 - Teodor Vik: Haha good question. 7:30pm at the chapel
14/07/2024, 19:08 - Sunniva Roe: what time's the auction?
14/07/2024, 19:09 - Teodor Vik: Haha. Anyway I'm off work at 5pm
"""


@pytest.fixture(scope="module")
def opening(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "whatsapp-teodor.txt", OPENING_CHAT, "Sunniva Roe") as memory:
        yield memory


def test_a_reply_is_read_past_an_opening_that_says_nothing(opening: Memory, home: Path) -> None:
    answer = opening.ask("What time does the recital start?")  # "Haha good question." first
    assert answer.text == "7:30pm"
    assert "7:30pm at the chapel" in answer.support.items[0].cited.text


def test_a_reply_that_turns_to_something_else_is_no_answer(opening: Memory, home: Path) -> None:
    assert is_idk(opening.ask("What time does the auction start?").text)  # 5pm is when Teodor is off work


EVENTS_CHAT = """21/09/2024, 10:00 - Orla Venn: are you going to the parade on saturday?
21/09/2024, 10:02 - Kasim Drue: yes! It begins at 11am, by the harbour
21/09/2024, 10:05 - Orla Venn: what time's the quiz?
21/09/2024, 10:06 - Kasim Drue: It's at 6pm
21/09/2024, 10:10 - Orla Venn: when is the bake sale?
21/09/2024, 10:12 - Kasim Drue: No worries, it is on 28 September 2024
21/09/2024, 10:15 - Orla Venn: what time's the raffle?
21/09/2024, 10:16 - Kasim Drue: no clue, but it is after 2pm
"""


@pytest.fixture(scope="module")
def happenings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "whatsapp-kasim.txt", EVENTS_CHAT, "Orla Venn") as memory:
        yield memory


@pytest.mark.parametrize("question", [
    "What time does the recital start?",  # "It begins at 11am" is the parade's time
    "What time does Kasim's recital start?",  # a name the sentence's speaker has is not the event
    "What time does the next recital start?",  # a determiner before the event is no stop
    "What time does this recital start?",
])
def test_a_time_said_of_another_event_is_no_answer(happenings: Memory, home: Path, question: str) -> None:
    assert is_idk(happenings.ask(question).text)


ORLA = EntitySlice("Orla Venn", "Orla Venn keeps this chat.", ())
KASIM = EntitySlice("Kasim Drue", "Kasim Drue is Orla's friend.", ())


def pair(asked: str, reply: str, question: str, session: int | None = 1, later: str | None = None) -> str:
    """The answer to `question` from a chat of two turns: Orla asks, Kasim replies."""
    said = "2024-09-21T10:00"
    turns = (TurnView(1, "Orla Venn", asked, datetime.fromisoformat(said), "c#1", session),
             TurnView(2, "Kasim Drue", reply, datetime.fromisoformat(later or said), "c#2", session))
    return answer_offline(AnswerRequest(question, (ORLA, KASIM), turns, ("Orla Venn",)))


@pytest.mark.parametrize("reply", [
    "No idea, it's 8pm here though",  # what follows is Kasim's clock
    "Not sure, it is at 6pm maybe",  # a guess
])
def test_a_reply_that_opens_by_declining_is_no_answer(reply: str) -> None:
    assert pair("what time's the quiz?", reply, "What time is the quiz?") == DONT_KNOW


def test_a_reply_that_declines_before_but_is_no_answer(happenings: Memory, home: Path) -> None:
    assert is_idk(happenings.ask("What time does the raffle start?").text)  # "no clue, but it is after 2pm"


@pytest.mark.parametrize(("asked", "reply", "question"), [
    ("what time's the quiz?", "It's 5pm already, gotta run", "What time is the quiz?"),  # the clock
    ("what time's the quiz?", "it's my shift till 9pm", "What time is the quiz?"),  # the shift's time
    ("when is the bake sale?", "Sadly, it's my mum's birthday on the 14th", "When is the bake sale?"),
    ("what time does the quiz start?", "It finishes at 11pm", "What time does the quiz start?"),  # its end
    ("what time's the quiz?", "It closes at 11pm", "What time is the quiz?"),
    ("what time does the quiz finish?", "It starts at 8pm", "What time does the quiz finish?"),  # its start
])
def test_an_it_reply_said_of_another_thing_is_no_answer(asked: str, reply: str, question: str) -> None:
    assert pair(asked, reply, question) == DONT_KNOW


def test_turns_of_an_unknown_session_are_no_question_and_reply() -> None:
    assert pair("what time's the quiz?", "It's at 6pm", "What time is the quiz?") == "6pm"
    assert pair("what time's the quiz?", "It's at 6pm", "What time is the quiz?", session=None,
                later="2024-09-28T10:00") == DONT_KNOW  # a week apart, in no session known


@pytest.mark.parametrize(("reply", "answer"), [
    ("the 28th", "28 September 2024"),  # said on the 21st: the coming 28th, not August's
    ("Saturday!", "28 September 2024"),  # a Saturday: the coming one, not last week's
])
def test_a_reply_without_a_verb_is_read_in_the_tense_of_the_question(reply: str, answer: str) -> None:
    assert pair("when is the bake sale?", reply, "When is the bake sale?") == answer


def test_a_past_reply_does_not_answer_a_present_question() -> None:
    assert pair("what time is the quiz?", "It was at 6pm last year", "What time is the quiz?") == DONT_KNOW


def test_an_it_reply_giving_the_time_answers() -> None:
    assert pair("what time's the quiz?", "No worries, it's at 6pm", "What time is the quiz?") == "6pm"
    assert pair("what time does the quiz finish?", "It finishes at 11pm", "What time does the quiz finish?") == "11pm"
    assert pair("when is the bake sale?", "it starts on 28 September 2024", "When is the bake sale?") == "28 September 2024"


@pytest.mark.parametrize(("question", "answer", "cited"), [
    ("What time does the parade start?", "11am", "It begins at 11am"),  # the turn it answers names the parade
    ("What time is the quiz?", "6pm", "It's at 6pm"),  # "it": the quiz the asking turn names
    ("When is the bake sale?", "28 September 2024", "No worries, it is on 28 September 2024"),
])
def test_a_reply_that_says_it_answers_the_event_asked_before(happenings: Memory, home: Path, question: str,
                                                               answer: str, cited: str) -> None:
    found = happenings.ask(question)
    assert found.text == answer
    assert cited in found.support.items[0].cited.text


def test_the_first_turn_of_another_chat_on_the_same_day_is_no_reply(tmp_path: Path, home: Path) -> None:
    # Both exports cut a session named by the day; the second chat's first turn follows the
    # first chat's last one in the store, but answers nothing said in the first chat.
    first = tmp_path / "whatsapp-tova.txt"
    first.write_text("20/05/2024, 09:00 - Tova Marr: morning!\n"
                     "20/05/2024, 09:01 - Juno Reyes: morning :)\n"
                     "20/05/2024, 09:02 - Tova Marr: what time does the recital start?\n", encoding="utf-8")
    second = tmp_path / "whatsapp-pim.txt"
    second.write_text("20/05/2024, 09:30 - Pim Ardo: it starts at 6pm, don't be late\n"
                      "20/05/2024, 09:31 - Tova Marr: the football? ok\n", encoding="utf-8")
    with memhop.open(tmp_path / "store.duckdb", engine="offline") as memory:
        memory.ingest([first, second], self_name="Tova Marr")
        assert is_idk(memory.ask("What time does the recital start?").text)


FOLLOW_UP_CHAT = """14/03/2025, 10:05 - Sanne Holt: Brage got a new boat!!
14/03/2025, 10:06 - Tove Lind: what kind
14/03/2025, 10:07 - Sanne Holt: a blue wooden dinghy. he wants to paint a name on it
14/03/2025, 10:09 - Tove Lind: where is he keeping it?
14/03/2025, 10:10 - Sanne Holt: no idea yet
16/03/2025, 19:00 - Sanne Holt: Ilse bought a van
16/03/2025, 19:02 - Tove Lind: why?
16/03/2025, 19:03 - Sanne Holt: a camper conversion project
"""


@pytest.fixture(scope="module")
def follow_ups(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "whatsapp-tove.txt", FOLLOW_UP_CHAT, "Tove Lind") as memory:
        yield memory


def test_what_the_speaker_says_when_asked_to_say_more_answers(follow_ups: Memory, home: Path) -> None:
    # "got a new boat!!" — "what kind" (no "?") — "a blue wooden dinghy": the kind of boat
    answer = follow_ups.ask("What kind of boat did Brage get?")
    assert answer.text == "a blue wooden dinghy"


@pytest.mark.parametrize("question", [
    "What kind of van did Ilse buy?",  # the follow-up asked why, not what kind
    "Where does Brage keep the boat?",  # "no idea yet" answers nothing
])
def test_a_follow_up_of_another_kind_or_without_an_answer_is_no_answer(follow_ups: Memory, home: Path,
                                                                      question: str) -> None:
    assert is_idk(follow_ups.ask(question).text)
