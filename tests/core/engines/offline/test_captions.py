"""A shared photo's caption says what the picture shows, in the importer's frame "a photo
of …": the frame is no part of an answer, and a picture shows no how or why."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory
from memhop.core.bench.metrics import is_idk
from memhop.core.engines.offline import refusals
from memhop.core.language.question import parse

CONVERSATION = {
    "speaker_a": "Odalys",
    "speaker_b": "Kester",
    "session_1_date_time": "6:10 pm on 4 March, 2024",
    "session_1": [
        {"speaker": "Odalys", "dia_id": "D1:1", "text": "Kester! I finally finished the mural for the library."},
        {"speaker": "Kester", "dia_id": "D1:2", "text": "Amazing, I need to see it. What did you paint?"},
        {"speaker": "Odalys", "dia_id": "D1:3", "text": "Here it is, took me three weekends.",
         "blip_caption": "a photo of a lighthouse on a rocky shore"},
        {"speaker": "Kester", "dia_id": "D1:4", "text": "Lovely. Planning keeps me sane these days.",
         "blip_caption": "a photo of a wall planner with coloured sticky notes"},
        {"speaker": "Odalys", "dia_id": "D1:5", "text": "Ha, you and your lists."},
        {"speaker": "Kester", "dia_id": "D1:6", "text": "Lists and music. I play the oboe in a wind band."},
        {"speaker": "Kester", "dia_id": "D1:7", "text": "Music lifts me up.",
         "blip_caption": "a photo of a drawing of a man playing a piano"},
    ],
}


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "locomo-odalys.json", json.dumps(CONVERSATION), "Odalys") as memory:
        yield memory


def test_a_photo_shows_no_how(mem: Memory) -> None:
    # the planner is in Kester's picture; how he uses it, nothing says
    answer = mem.ask("How does Kester use the wall planner with coloured sticky notes?")
    assert is_idk(answer.text) and not answer.answered


@pytest.mark.parametrize(
    ("question", "shown"),
    [
        ("What did Kester pin up?", "a wall planner with sticky notes"),
        ("How does Kester plan his week?", ""),  # a picture shows no how
        ("Why did Kester buy it?", ""),  # nor why
        ("How many notes are on the planner?", "a wall planner with sticky notes"),
    ],
)
def test_a_captions_frame_is_no_part_of_what_it_shows(question: str, shown: str) -> None:
    cut = "a photo of a wall planner with sticky notes"
    assert refusals.uncaptioned(cut, parse(question, ["Kester"])) == shown
    # a cut that is no caption keeps its words
    assert refusals.uncaptioned("a wall planner", parse(question, ["Kester"])) == "a wall planner"


def test_what_a_picture_shows_is_no_item_of_the_speakers(mem: Memory) -> None:
    # the man in Kester's drawing plays the piano; Kester plays the oboe
    assert mem.ask("Which instruments does Kester play?").text == "oboe"


WORKS = {
    "speaker_a": "Ysolde",
    "speaker_b": "Bram",
    "session_1_date_time": "9:00 am on 12 May, 2024",
    "session_1": [
        {"speaker": "Ysolde", "dia_id": "D1:1", "text": "Morning Bram! The kids and I spent Sunday at the easels."},
        {"speaker": "Ysolde", "dia_id": "D1:2", "text": "Here's our newest creation, two Sundays in the making.",
         "blip_caption": "a photo of a painting of a heron in the reeds"},
        {"speaker": "Bram", "dia_id": "D1:3", "text": "Gorgeous! I've been at the lathe myself."},
        {"speaker": "Bram", "dia_id": "D1:4", "text": "Finished my newest piece on Friday, still sanding it."},
    ],
}


@pytest.fixture(scope="module")
def works(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "locomo-ysolde.json", json.dumps(WORKS), "Ysolde") as memory:
        yield memory


def test_a_work_pointed_at_is_what_its_picture_shows(works: Memory) -> None:
    # "our newest creation" says nothing of what was painted; the picture beside it does
    assert works.ask("What did Ysolde paint?").text == "a heron in the reeds"


def test_a_work_with_no_picture_is_no_answer(works: Memory) -> None:
    # "my newest piece": what Bram made, nothing says
    answer = works.ask("What did Bram finish on Friday?")
    assert is_idk(answer.text) and not answer.answered
