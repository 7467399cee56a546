"""A place answer is a place, and the one asked about: someone the writer met ("bumped into
Corwin") is not where anyone lives, and "where does he live?" is where he lives today; read
from a real store as `memhop ask` reads it."""

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


MOVER = """# 2025-02-03

Lunch with Fenwick at his place in Larkhill. He's lived in Larkhill since uni and loves the allotments.

## 2025-05-10

Fenwick came round for dinner. He's still in Larkhill but hates the commute.

## 2025-09-14

Helped Fenwick pack the van. He moved to Dunmere today, new flat above a chemist.

## 2025-10-02

Fenwick rang from Dunmere; the flat is damp but he's happy.
"""


def test_the_simple_present_asks_where_someone_lives_today(tmp_path_factory: pytest.TempPathFactory, home: Path) -> None:
    with written_memory(tmp_path_factory, "mover.md", MOVER, "Noor Haddad") as memory:
        assert memory.ask("Where does Fenwick live?").text == "Dunmere"
        assert memory.ask("Which town does Fenwick live in?").text == "Dunmere"
        assert memory.ask("Where does Fenwick live now?").text == "Dunmere"
