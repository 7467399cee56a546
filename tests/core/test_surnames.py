"""A question may name someone by surname alone ("what did Tremblett bring?"): it means
the one known person with that surname, through a real store, and nobody else's sentence
answers it; a surname two known people share is refused, as a shared first name is."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.written_memory import written_store

import memhop
from memhop.core.bench.metrics import is_idk

ONE_TREMBLETT = """# Wren's diary

# 2024-03-11

Met Saoirse Tremblett at the station.

# 2024-03-12

Odran Pelletier brought a flask of cocoa to the picnic.
"""

TWO_TREMBLETTS = ONE_TREMBLETT.replace("at the station.", "at the station. Bruno Tremblett was there too.") + """
# 2024-03-13

Saoirse brought a lemon tart to the fete.
"""


@pytest.fixture(scope="module")
def one_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return written_store(tmp_path_factory.mktemp("one-tremblett"), ONE_TREMBLETT, "one")


@pytest.fixture(scope="module")
def two_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return written_store(tmp_path_factory.mktemp("two-trembletts"), TWO_TREMBLETTS, "two")


def test_a_surname_is_its_one_person_not_whoever_did_it(one_store: Path, home: Path) -> None:
    with memhop.open(one_store, engine="offline", read_only=True) as mem:
        assert is_idk(mem.ask("What did Tremblett bring?").text)  # Odran brought the cocoa, not Saoirse
        assert mem.ask("What did Pelletier bring?").text == "cocoa"


def test_a_surname_two_people_share_is_refused(two_store: Path, home: Path) -> None:
    with memhop.open(two_store, engine="offline", read_only=True) as mem:
        assert is_idk(mem.ask("What did Tremblett bring?").text)  # Saoirse or Bruno: either may be meant
        assert mem.ask("What did Saoirse bring?").text == "lemon tart"


LOST_FIRST_NAME = """# Wren's diary

# 2024-03-11

Sterling Pellow brought a jar of honey. Ismay Sterling brought a basket of plums.
"""


def test_a_surname_that_is_a_word_may_be_a_lost_first_name_so_is_refused(tmp_path: Path, home: Path) -> None:
    # "Sterling" starting the sentence is cut from "Sterling Pellow" at ingest; that leaves Ismay
    # Sterling the only known name ending in it, yet "Sterling" may be the honey's bringer
    store = written_store(tmp_path, LOST_FIRST_NAME, "lost")
    with memhop.open(store, engine="offline", read_only=True) as mem:
        assert is_idk(mem.ask("What did Sterling bring?").text)
