"""The chain `ask --trace` shows is the one the question describes: it starts at the name
that owns it, and a couple is named from either side ("Ottilie's boyfriend, Fenwick" says
who Fenwick's girlfriend is), as the answerer reads it."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.written_memory import written_store
from typer.testing import CliRunner

from memhop.cli.app import app

DIARY = """# Odile's diary

# 2024-02-10

Ottilie Keogh's boyfriend, Fenwick Arden, helped us paint the hall.

# 2024-03-02

Ottilie has moved into a tiny flat in Stonybatter, above a bakery that starts at four.

# 2024-03-09

Quiz night in Harrowgate with Fenwick Arden and two of his bandmates.

# 2024-03-20

I gave Fenwick Arden a box kite for his birthday.
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return written_store(tmp_path_factory.mktemp("couple"), DIARY, "couple")


def chain_of(store: Path, question: str) -> str:
    result = CliRunner().invoke(app, ["ask", question, "--db", str(store), "--trace", "--engine", "offline"])
    assert result.exit_code == 0, result.output
    return next(line for line in result.output.splitlines() if "Chain:" in line).split("Chain:")[1].strip()


def test_the_chain_crosses_a_couple_from_the_other_side(store: Path, home: Path) -> None:
    assert chain_of(store, "Where does Fenwick Arden's girlfriend live?") == "Fenwick Arden → Ottilie Keogh"


def test_the_chain_starts_at_its_owner_not_at_a_place_named_first(store: Path, home: Path) -> None:
    chain = chain_of(store, "In which part of Harrowgate does Fenwick Arden's girlfriend live?")
    assert chain == "Fenwick Arden → Ottilie Keogh"


def test_a_question_that_says_i_walks_from_the_name_that_owns_the_chain(store: Path, home: Path) -> None:
    """"What did I give Ottilie's boyfriend?" asks about Ottilie's boyfriend, not the writer's;
    the answerer still reads "I" as the writer."""
    assert chain_of(store, "What did I give Ottilie Keogh's boyfriend?") == "Ottilie Keogh → Fenwick Arden"
    result = CliRunner().invoke(app, ["ask", "What did I give Ottilie Keogh's boyfriend?", "--db", str(store),
                                      "--engine", "offline"])
    assert "box kite" in result.output.splitlines()[0]


SIBLINGS = """# Odile's diary

# 2024-01-06

Ola Fenn's sister, Kemi Fenn, lent me her tent for the weekend.

# 2024-01-13

Ola Fenn's brother, Sam Fenn, fixed the gears on my bike for free.

# 2024-01-20

Ola Fenn moved to Bristol. He teaches maths at a sixth-form college there now.

# 2024-01-27

Sam Fenn lives in Derby. He drives a delivery van.
"""


@pytest.fixture(scope="module")
def siblings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return written_store(tmp_path_factory.mktemp("siblings"), SIBLINGS, "siblings")


def test_a_brother_is_not_taken_for_the_sister_asked_about(siblings: Path, home: Path) -> None:
    """Sam's sibling Ola is never called anyone's sister: "Sam's sister" is not known, and
    Ola's town is no answer."""
    result = CliRunner().invoke(app, ["ask", "Where does Sam Fenn's sister live?", "--db", str(siblings),
                                      "--engine", "offline"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "I don't know"
