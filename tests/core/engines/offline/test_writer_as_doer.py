"""A diary line with no subject is the writer's doing, even after a line naming a club or a
gym: "Cancelled Steelworks after five years. Joined Knot & Ledge, the climbing gym on Mill
Lane." says the writer joined Knot & Ledge — the gym is not its own member, and the verb that
opens the line is no part of its name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory

DIARY = """# Diary 2024

## 2024-02-03

Climbed at Steelworks with Pim. Steelworks is miles away though.

## 2024-08-05

Cancelled Steelworks after five years (weirdly sad). Joined Knot & Ledge, the climbing gym on Mill Lane, £60 a month.
"""


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "wynn-diary.md", DIARY, "Wynn Abara") as memory:
        yield memory


def test_a_subjectless_line_is_the_writers(mem: Memory, home: Path) -> None:
    assert mem.ask("What gym do I go to now?").text == "Knot & Ledge"
