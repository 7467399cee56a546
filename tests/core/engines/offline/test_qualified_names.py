"""A sentence naming several people answers "who" with the one its qualifier points at: "a fan
of old jazz like John Coltrane, and of new folk like Laura Marling" — asked about new folk, the name
said beside "new folk", not the first one in the sentence."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory

DIARY = """# Journal

## 2025-03-02

Lunch with Greta at the market hall. Greta is a fan of old jazz like John Coltrane, and of new folk like Laura Marling.
"""


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "journal.md", DIARY, "Runa Vik") as memory:
        yield memory


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("Who is Greta a fan of in terms of new folk?", "Laura Marling"),
        ("Who is Greta a fan of in terms of old jazz?", "John Coltrane"),
    ],
)
def test_the_name_beside_the_qualifier_answers(mem: Memory, question: str, named: str) -> None:
    assert mem.ask(question).text == named
