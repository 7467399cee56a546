"""List questions through a real store: the items of every session are gathered, and a
narrower kind of an item ("baroque cello" beside "cello") is another item, not a repeat."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory

DIARY = """# Perpetua's diary

# 2024-02-03

Lunch with Caspar Wendell from the archive. Turns out Caspar plays cello in a string quartet.

# 2024-05-18

Went to hear the quartet in the chapel. Caspar in a concert is a different man from Caspar at a desk.
At the pub afterwards he told me he started on baroque cello at a summer school in Orlby. He sold his old cello last year.
I started on electric cello myself, and gave up.

# 2024-09-07

Caspar is playing his uncle's harmonium at the harvest supper.
"""


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "perpetua-diary.md", DIARY, "Perpetua Lisle") as memory:
        yield memory


def test_a_narrower_kind_said_without_the_verb_is_another_item(mem: Memory, home: Path) -> None:
    # "started on baroque cello" says no "play", yet names a kind of cello; "his old cello" is one cello, no
    # kind; the writer's own "electric cello" is not Caspar's
    assert mem.ask("Which instruments does Caspar play?").text == "cello, baroque cello and harmonium"
