"""A first name that is also an English word, which the NER model calls an organisation
("Chase", "Pierce"), is someone once the text has it love, laugh or sleep: an organisation does
none of these. Being someone, the pronouns after it can be theirs ("His sister Imelda")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory

DIARY = """# Journal

## 2025-02-02

Chase's birthday. He turned 52 and wanted nothing except a cake from Dottie's Bakery, so that's what
we got. His sister Imelda came down from Fargo with her husband, Lucan. Lucan is a welder, which Chase loved.
"""


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "journal.md", DIARY, "Ines Varga") as memory:
        yield memory


def test_a_word_that_loves_is_someone(mem: Memory, home: Path) -> None:
    kinds = {e.name: e.kind for e in mem.entities()}
    assert kinds.get("Chase") == "person"


def test_his_sister_is_the_sister_of_the_one_the_sentence_before_was_about(mem: Memory, home: Path) -> None:
    assert mem.ask("How old did Chase turn?").text == "52"
    assert mem.ask("What does Chase's sister's husband do?").text == "welder"
