"""A place answer is a place: someone the writer met ("bumped into Corwin") is not where
anyone lives, read from a real store as `memhop ask` reads it."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.written_memory import written_memory

DIARY = """# 2024-04-02

Took the train to Vellmar to see Corwin, who lives there.

# 2024-04-09

Bumped into Corwin at the market; Ottoline's lodger always seems to be there on Saturdays.

# 2024-04-16

Had tea with Ottoline.
"""


def test_a_person_bumped_into_is_not_the_city_asked_for(tmp_path_factory: pytest.TempPathFactory, home: Path) -> None:
    # nothing says who Ottoline's lodger is: the chain stops at Ottoline, and no sentence
    # names the city her lodger lives in; "into Corwin" was read as a place
    with written_memory(tmp_path_factory, "lodger.md", DIARY, "Noor Haddad") as memory:
        assert memory.ask("Which city does Ottoline's lodger live in now?").answered is False
        assert memory.ask("Which city does Corwin live in?").text == "Vellmar"
