"""`memhop show`: a fact's sources as date and file, and `show --turn` with its neighbours."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memhop.cli.app import app
from memhop.core.store import open_store
from support.cite_world import build_diary
from support.read_world import build_world


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_world(tmp_path_factory.mktemp("show-world"))


@pytest.fixture
def invoke(home: Path, runner: CliRunner, world: Path) -> Iterator[object]:
    yield lambda *args: runner.invoke(app, ["show", *args, "--db", str(world)])


def test_facts_list_their_sources_as_date_and_file(invoke) -> None:
    result = invoke("carol")
    assert result.exit_code == 0, result.output
    assert "Carol [person]" in result.stdout
    row = next(line for line in result.stdout.splitlines() if "Carol is a vet in Leeds." in line)
    assert "2 Mar 2024 · diary.md" in row
    fact = json.loads(invoke("carol", "--json").stdout)["facts"][0]
    assert fact["sources"] and fact["from"] == [
        {"turn_id": fact["sources"][0], "date": "2024-03-02", "speaker": "Maya Patel", "source": "diary.md"}
    ]


@pytest.fixture(scope="module")
def sunday(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int]]:
    """The diary of tests/support/cite_world.py and the ids of its Sunday's six turns, in order."""
    db = build_diary(tmp_path_factory.mktemp("sunday"))
    with open_store(db, read_only=True) as store:
        ids = store.con.execute(
            "SELECT id FROM turns WHERE session_id = (SELECT session_id FROM turns WHERE text = 'Made pancakes.') "
            "ORDER BY position"
        ).fetchall()
    return db, [r[0] for r in ids]


def test_a_turn_with_two_neighbours_each_side(home: Path, runner: CliRunner, sunday: tuple[Path, list[int]]) -> None:
    db, ids = sunday
    result = runner.invoke(app, ["show", "--turn", str(ids[2]), "--db", str(db)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[4] == f"▶ 2 Jun 2024 · Maya Patel · maya-diary.md  [turn {ids[2]}]" and lines[5] == "  Made pancakes."
    texts = [line.strip() for line in lines[1::2]]
    assert texts == ["Woke up early.", "Ran along the canal.", "Made pancakes.", "Read on the balcony.", "Watered the plants."]
    first = json.loads(runner.invoke(app, ["show", "--turn", str(ids[0]), "--json", "--db", str(db)]).stdout)
    assert first["before"] == [] and [t["text"] for t in first["after"]] == ["Ran along the canal.", "Made pancakes."]
    assert first["turn"]["date"] == "2024-06-02" and first["turn"]["source"] == "maya-diary.md"


def test_an_unknown_turn_and_a_missing_argument_are_errors(invoke) -> None:
    missing = invoke("--turn", "999999")
    assert missing.exit_code == 1 and "no turn 999999" in missing.stderr
    neither = invoke()
    assert neither.exit_code == 2
