"""Yes/no questions through the real stack: "Yes" only from a sentence that states the
question's verb of its subject with the question's other words, cited as the support;
"No" only from that sentence negated; a wish, a plan, a "might", a reported pronoun,
another person's sentence or a past state asked "still" stays "I don't know"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory
from memhop.core.bench.metrics import is_idk

DIARY = """# Inka's diary

# 2024-03-02

Went to the lake with my sister Pia. The water was freezing.

# 2024-03-09

Odran works at the bakery on Quay Street now. He loves the early shifts.

# 2024-03-16

Odran didn't go to the concert with Pia, he was ill.

# 2024-03-23

Pia wants to go to Lisbon in the summer. I might go to the museum with her.

# 2024-04-06

Odran has been to Porto twice. Pia says he never went to Madrid.

# 2024-04-13

Odran quit the bakery. He started at the bike shop on Monday.

# 2024-04-20

Pia will visit the zoo with Odran next week. Odran is still at the bike shop, he likes it.
"""


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "inka-diary.md", DIARY, "Inka Salo") as memory:
        yield memory


@pytest.mark.parametrize(("question", "stated"), [
    ("Did I go to the lake with my sister?", "to the lake with"),  # "I" is the writer
    ("Did Inka go to the lake with Pia?", "to the lake with"),
    ("Has Odran ever been to Porto?", "been to Porto"),
    ("Is Odran still at the bike shop?", "at the bike shop"),  # the latest word on it
])
def test_a_stated_event_is_yes_with_its_sentence(mem: Memory, home: Path, question: str, stated: str) -> None:
    answer = mem.ask(question)
    assert answer.text == "Yes"
    assert stated in answer.support.items[0].cited.text


def test_the_same_sentence_negated_is_no(mem: Memory, home: Path) -> None:
    answer = mem.ask("Did Odran go to the concert with Pia?")
    assert answer.text == "No"
    assert "go to the concert" in answer.support.items[0].cited.text


@pytest.mark.parametrize("question", [
    "Did Pia go to Lisbon?",  # she only wants to
    "Did I go to the museum?",  # "I might go"
    "Did Pia go to the lake?",  # the writer went, with her: not said of Pia as subject
    "Did Odran go to Madrid?",  # "Pia says he never went": who "he" is is not sure
    "Did Pia go to Madrid?",
    "Is Odran still at the bakery?",  # he quit since
    "Does Odran work at the bakery?",  # a present question is the state now, too
    "Did Odran go to Lisbon?",  # nothing says so
    "Did you go to the lake?",  # who "you" is, the answerer cannot tell
    "Did Pia and Odran go to the concert?",  # a sentence about one says nothing of both
])
def test_no_yes_without_a_statement(mem: Memory, home: Path, question: str) -> None:
    assert is_idk(mem.ask(question).text)


def test_a_name_owning_the_subject_is_not_the_subject(tmp_path_factory: pytest.TempPathFactory, home: Path) -> None:
    diary = "# Inka's diary\n\n# 2024-05-04\n\nPia's dog is a greyhound. Odran Kelly is a nurse.\n"
    with written_memory(tmp_path_factory, "dog-diary.md", diary, "Inka Salo") as memory:
        assert is_idk(memory.ask("Is Pia a greyhound?").text)
        assert memory.ask("Is Odran Kelly a nurse?").text == "Yes"
