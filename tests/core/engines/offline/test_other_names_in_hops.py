"""A hop through someone the text calls by another name ("Ros" for Rosalind): the answerer
reads the nickname as the person, so "her daughter" in "Ros called — her daughter Nettle …"
is Rosalind's; and what is played "on the cello" is the instrument, whatever was played."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory
from memhop.core.bench.metrics import is_idk
from memhop.core.engines.offline.answer import explain
from memhop.core.model import AnswerRequest, EntitySlice

DIARY = """# Diary 2024

## 2024-01-06

Rosalind came for lunch with her husband. Rosalind brought a trifle.

## 2024-02-10

My sister Ros called — her daughter Nettle started cello lessons. Nettle is 6 and takes it very seriously.

## 2024-03-02

Nettle played us a lullaby on the cello, twice.

## 2024-03-09

Femi has joined the Larks, a netball club in Hove. The Larks train on Thursdays.

## 2024-03-16

Femi texted from the Larks' changing room: she played her first match on Saturday and loved it.

## 2024-06-01

Nettle's birthday party at the trampoline park. Eleven children, no injuries.
"""


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "wynn-diary.md", DIARY, "Wynn Abara") as memory:
        yield memory


def test_a_nickname_in_a_sentence_names_the_person(mem: Memory, home: Path) -> None:
    # end to end; ingest binds the nickname already, so this guards the whole path (the unit test below is the fix)
    assert mem.ask("How old is my sister's daughter?").text == "6"


def test_the_answerer_reads_an_alias_as_its_entity() -> None:
    # the facts call her "Ros" (more of them than the profile line naming Rosalind): without her
    # alias the hop ended at a bare "Ros", and "her daughter" was nobody's
    request = AnswerRequest(
        "How old is my sister's daughter?",
        (
            EntitySlice("Wynn Abara", "Wynn's sister is Rosalind.",
                        ("Wynn Abara's sister Ros called.", "Wynn Abara's sister Ros rang again."), "self"),
            EntitySlice("Rosalind", "Rosalind is Wynn's sister.", ("Ros said her daughter Nettle is 6.",), "person",
                        ("Ros",)),
            EntitySlice("Nettle", "", ("Nettle is 6 and takes it very seriously.",), "person"),
        ),
        (),
        asker="Wynn Abara",
    )
    found = explain(request)
    assert found.chain == ("Wynn Abara", "Rosalind", "Nettle")
    assert found.answer == "6"


def test_what_is_played_on_an_instrument_is_not_the_instrument(mem: Memory, home: Path) -> None:
    assert mem.ask("What instrument does Nettle play?").text == "cello"


def test_she_is_a_person_not_the_club_named_before_it(mem: Memory, home: Path) -> None:
    # "from the Larks' changing room: she played …": she is Femi, not the netball club
    assert mem.ask("When did Femi play her first match?").text == "9 March 2024"


def test_a_niece_is_a_siblings_daughter(mem: Memory, home: Path) -> None:
    # nobody is called "my niece": Ros is my sister, Nettle her daughter
    assert mem.ask("How old is my niece?").text == "6"


def test_an_age_told_before_a_birthday_is_no_age_now(mem: Memory, home: Path) -> None:
    # "Nettle is 6" in February, her birthday party in June: how old she is now, the memory does not say
    assert is_idk(mem.ask("How old is my niece now?").text)
