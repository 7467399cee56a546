"""A diary written without capitals at sentence starts ("joined the chess club. the president is
…"): a full stop still ends a sentence, so one sentence's words do not answer for the next; a
role given to a name ("engaged to a vet called Nessa") is that name's; "who is the president?"
is answered by whoever a sentence says holds the role, the latest when asked "now"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory
from memhop.core.engines.offline import spans
from memhop.core.language.question import parse

DIARY = """# notes

## 2023-09-04

first week of uni. my roommate is called Zofia, she's doing law and labels everything in the fridge.

## 2023-09-16

joined the chess club. the president is this very intense guy, Callum Reid, who once played a tournament in Prague.

## 2023-10-21

club trip to Harrogate for a weekend congress. i lost every game but the fudge was good

## 2023-10-02

Zofia's older brother Tadhg visited. he's a junior doctor in Galway and brought us a huge box of fudge.

## 2024-01-13

back after christmas. Zofia got me a tiny bonsai, i have named it Bartholomew.

## 2024-02-03

Callum is stepping down as president because of his thesis. new president is Wren Aldous, who is lovely.

## 2024-02-24

Tadhg got engaged to a vet called Nessa. Zofia is already planning outfits.
"""


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "notes.md", DIARY, "Ione Clarke") as memory:
        yield memory


def test_a_full_stop_before_a_lower_case_word_ends_the_sentence(mem: Memory, home: Path) -> None:
    # "joined the chess club. the president … played a tournament in Prague" is two sentences
    assert mem.ask("Where did the chess club go on its trip?").text == "Harrogate"


def test_a_role_given_to_a_name_is_not_the_sentences_subjects(mem: Memory, home: Path) -> None:
    assert mem.ask("What does my roommate's brother do?").text == "junior doctor"


def test_who_holds_a_role_now(mem: Memory, home: Path) -> None:
    assert mem.ask("Who is the president of the chess club now?").text == "Wren Aldous"


@pytest.mark.parametrize(
    ("said", "holder"),
    [
        ("new president is Wren Aldous, who is lovely", "Wren Aldous"),
        ("the president is this very intense guy, Callum Reid, who", "Callum Reid"),
        ("Wren is our new president", "Wren"),
        ("the president is in Harrogate this week", None),  # a place, not who holds the role
        ("Callum is stepping down as president", None),  # the role named, no holder said
    ],
)
def test_who_a_sentence_says_holds_the_role(said: str, holder: str | None) -> None:
    assert spans.holder_of(said, "president") == holder


def test_the_role_asked_is_the_head_noun() -> None:
    assert spans.asked_role(parse("Who is the best cook in the family?", [])) == "cook"
    assert spans.asked_role(parse("Who is the new president now?", [])) == "president"
    assert spans.asked_role(parse("Who is Zofia's brother?", ["Zofia"])) is None
