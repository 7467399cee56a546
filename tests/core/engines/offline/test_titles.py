"""A trade written with a capital ("we called the Plumber", "the Vet said") is no one's
name, through a real store: it is not stored as an entity, so a later "he" is not read as
it; a name that is also a word and is said bare ("Rose", "Grace Park") still is one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory
from memhop.core.bench.metrics import is_idk

DIARY = """# Perrine's diary

# 2024-03-14

The boiler broke again, so we called the Plumber this morning. He changed the lock on the shed too while he was here.

# 2024-03-18

Took our dog Crumble for his jabs. The Vet said he is a bit overweight.

# 2024-03-20

Tea and cake with Rose at the bandstand, then a walk to the canal.

# 2024-03-22

A long call with Grace Park about the choir concert. She is singing the solo.
"""


@pytest.fixture(scope="module")
def diary(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "perrine-diary.md", DIARY, "Perrine Oakhurst") as memory:
        yield memory


def test_a_capitalised_trade_after_a_determiner_is_no_entity(diary: Memory, home: Path) -> None:
    names = {e.name for e in diary.entities()}
    assert not names & {"Plumber", "Vet"}


def test_a_name_that_is_also_a_word_stays_an_entity(diary: Memory, home: Path) -> None:
    names = {e.name for e in diary.entities()}
    assert {"Rose", "Grace Park", "Crumble"} <= names


def test_a_pronoun_is_not_read_as_the_trade(diary: Memory, home: Path) -> None:
    assert is_idk(diary.ask("Who changed the lock?").text)  # "He" is the plumber, who has no name here
