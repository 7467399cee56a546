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

Climbing at the old mill. Ottilie Keogh's new boyfriend, Fenwick Arden, came along and was annoyingly good.

# 2024-03-02

Ottilie has moved into a tiny flat in Stonybatter, above a bakery that starts at four.

# 2024-03-09

Quiz night in Harrowgate with Fenwick Arden and two of his bandmates.
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
