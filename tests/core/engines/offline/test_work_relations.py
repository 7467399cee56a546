"""The people of someone's working and learning life are relatives to hop through, as a
sister or a roommate is: "her mentee Esther", "his intern Bo", "my supervisor Carys"."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory

DIARY = """# Journal

## 2025-04-03

Had coffee with Ines and her mentee Esther. Esther only drinks oat flat whites.

## 2025-04-10

Dinner at Malik's. His intern Bo grew up in Tromsø and never stops talking about the snow.

## 2025-04-17

My supervisor Carys signed off the report at last. Carys plays the cello in a string quartet.
"""


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "journal.md", DIARY, "Runa Vik") as memory:
        yield memory


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Who is Ines's mentee?", "Esther"),
        ("Where did Malik's intern grow up?", "Tromsø"),
        ("What instrument does my supervisor play?", "cello"),
    ],
)
def test_a_hop_through_a_working_relation(mem: Memory, question: str, answer: str) -> None:
    assert mem.ask(question).text == answer
