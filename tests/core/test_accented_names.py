"""A user who types a name or word without its accents ("Zenobe", "Maelle") still reaches
the diary that writes them ("Zénobe", "Maëlle"): the offline answerer matches words folded,
and the answer is cut from the text as written."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.written_memory import written_store

import memhop

DIARY = """# Odile's diary

# 2024-01-06

Zénobe Grönqvist came over for soup. He brought a jar of quince jam from the Crémerie Vautrin.

# 2024-02-10

Went to the Lumière cinema with Maëlle. We watched a film about lighthouses.

# 2024-03-16

Zénobe taught me to play the bandoneón at his flat. It was harder than it looks.

# 2024-04-20

Lunch with my colleague Tomasz at the office canteen; he talked about his new bicycle.
"""


@pytest.fixture(scope="module")
def diary_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return written_store(tmp_path_factory.mktemp("accents"), DIARY, "accents")


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What did Zenobe bring?", "quince jam"),  # a name typed without its accent
        ("What did Zenobe Gronqvist bring?", "quince jam"),
        ("What did Zénobe bring?", "quince jam"),  # as written, as before
        ("Where did I go with Maelle?", "Lumière"),  # an accented word matched, cut as written
    ],
)
def test_a_question_typed_without_accents_is_answered_from_the_accented_diary(
    diary_store: Path, home: Path, question: str, answer: str
) -> None:
    with memhop.open(diary_store, engine="offline", read_only=True) as mem:
        assert mem.ask(question).text == answer


def test_a_name_nobody_in_the_diary_has_is_still_refused(diary_store: Path, home: Path) -> None:
    with memhop.open(diary_store, engine="offline", read_only=True) as mem:
        assert mem.ask("What did Zenobia bring?").text == "I don't know"


TWO_RENES = """# Odile's diary

# 2024-01-06

René Calvet came over for soup. He brought a jar of quince jam.

# 2024-02-10

Rene Ostrowski brought a box of figs to the allotment.
"""


@pytest.fixture(scope="module")
def renes_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return written_store(tmp_path_factory.mktemp("renes"), TWO_RENES, "renes")


@pytest.fixture(scope="module")
def plain_renes_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return written_store(tmp_path_factory.mktemp("plain-renes"), TWO_RENES.replace("René", "Rene"), "renes")


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What did Rene bring?", "figs"),  # spelt as Rene Ostrowski's name, not René Calvet's
        ("What did René bring?", "quince jam"),
    ],
)
def test_a_first_name_spelt_as_one_person_writes_it_is_that_person(
    renes_store: Path, home: Path, question: str, answer: str
) -> None:
    with memhop.open(renes_store, engine="offline", read_only=True) as mem:
        assert mem.ask(question).text == answer


@pytest.mark.parametrize("question", ["What did Rene bring?", "What did René bring?"])
def test_a_first_name_two_people_share_is_refused(plain_renes_store: Path, home: Path, question: str) -> None:
    with memhop.open(plain_renes_store, engine="offline", read_only=True) as mem:
        assert mem.ask(question).text == "I don't know"
