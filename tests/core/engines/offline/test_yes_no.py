"""Yes/no questions through the real stack: "Yes" only from a sentence that states the
question's verb of its subject with the question's other words, cited as the support;
never "No"; a wish, a plan, a condition, a "might", reported speech or belief, a hedge, a
possessor or modifier taken for the object, another month, another count, another person's
sentence or anything asked "still" stays "I don't know"."""

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
    ("Has Odran been to Porto twice?", "been to Porto"),
])
def test_a_stated_event_is_yes_with_its_sentence(mem: Memory, home: Path, question: str, stated: str) -> None:
    answer = mem.ask(question)
    assert answer.text == "Yes"
    assert stated in answer.support.items[0].cited.text


def test_a_negated_sentence_answers_nothing(mem: Memory, home: Path) -> None:
    # "didn't go to the concert with Pia" may deny only the company, so it is no "No" to either
    assert is_idk(mem.ask("Did Odran go to the concert with Pia?").text)
    assert is_idk(mem.ask("Did Odran go to the concert?").text)


@pytest.mark.parametrize("question", [
    "Did Pia go to Lisbon?",  # she only wants to
    "Did I go to the museum?",  # "I might go"
    "Did Pia go to the lake?",  # the writer went, with her: not said of Pia as subject
    "Did Odran go to Madrid?",  # "Pia says he never went": who "he" is is not sure
    "Did Pia go to Madrid?",
    "Is Odran still at the bakery?",  # he quit since
    "Is Odran still at the bike shop?",  # "still": a later change may be worded any way
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


FOILS = """# Inka's diary

# 2024-06-01

Bram told me Tove went to Lisbon.

# 2024-06-02

Bram thinks Ilse moved to Berlin. Everyone says Tove won the race.

# 2024-06-03

I dreamt Casimir won the lottery. I never said Tove went to Milan.

# 2024-06-04

Noor said: "I went to Vigo last year."

# 2024-06-05

Tove almost quit the choir. Bram nearly moved to Oslo.

# 2024-06-06

Tove went to Oporto once. Bram went to Ghent twice.

# 2024-06-07

Tove met Bram's sister at the market. Tove bought a car seat for the baby.

# 2024-06-08

Ilse went to Ghent instead of Bruges. Casimir ate everything except the fish.

# 2024-06-09

Bram went to Lille in June.

# 2024-06-10

Tove went to Granada in her dreams, she told me at breakfast.

# 2024-06-12

Casimir works at the bakery on Elm Row.

# 2024-06-19

Casimir quit his job yesterday.

# 2024-06-20

Ilse went to Ypres with Noor and visited the cathedral.
"""


@pytest.fixture(scope="module")
def foils(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "foil-diary.md", FOILS, "Inka Salo") as memory:
        yield memory


@pytest.mark.parametrize("question", [
    "Did Tove go to Lisbon?",  # Bram told me so
    "Did Ilse move to Berlin?",  # Bram thinks so
    "Did Tove win the race?",  # everyone says so
    "Did Casimir win the lottery?",  # a dream
    "Did Tove go to Milan?",  # the writer denies saying it
    "Did I go to Vigo?",  # Noor's quoted "I"
    "Did Noor go to Vigo?",  # a quotation is no statement of the writer's
    "Did Tove quit the choir?",  # almost
    "Did Bram move to Oslo?",  # nearly
    "Did Tove go to Oporto twice?",  # once
    "Did Bram go to Ghent once?",  # twice
    "Did Tove meet Bram?",  # his sister; a guard for later: "Did Tove meet Bram's sister?" is not answered yet either
    "Did Tove buy a car?",  # a car seat
    "Did Ilse go to Bruges?",  # instead of Bruges
    "Did Casimir eat the fish?",  # except the fish
    "Did Bram go to Lille in May?",  # in June
    "Did Tove go to Granada?",  # in her dreams
    "Does Casimir work at the bakery?",  # he quit his job since
])
def test_no_yes_from_what_is_not_stated_as_fact(foils: Memory, home: Path, question: str) -> None:
    assert is_idk(foils.ask(question).text)


@pytest.mark.parametrize(("question", "stated"), [
    ("Did Bram go to Ghent twice?", "Ghent twice"),
    ("Did Bram go to Lille in June?", "Lille in June"),
    ("Did Ilse visit the cathedral?", "visited the cathedral"),  # joined to the main verb by "and"
])
def test_the_same_foils_still_state_what_they_say(foils: Memory, home: Path, question: str, stated: str) -> None:
    answer = foils.ask(question)
    assert answer.text == "Yes"
    assert stated in answer.support.items[0].cited.text


def test_a_condition_or_a_wish_states_nothing(tmp_path_factory: pytest.TempPathFactory, home: Path) -> None:
    diary = ("# Inka's diary\n\n# 2024-08-01\n\nIf Yana goes to Madrid, she calls me. Ossian wants to live in Lisbon. "
             "Yana works in Girona.\n")
    with written_memory(tmp_path_factory, "wish-diary.md", diary, "Inka Salo") as memory:
        assert is_idk(memory.ask("Does Yana go to Madrid?").text)  # only if
        assert is_idk(memory.ask("Does Ossian live in Lisbon?").text)  # only wants to
        assert memory.ask("Does Yana work in Girona?").text == "Yes"
