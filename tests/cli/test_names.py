"""Naming an entity on the command line: loose names, accents, ambiguity, "did you mean"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from memhop.cli.app import app
from memhop.core.store import memory, open_store


def run(runner: CliRunner, *args: str) -> Any:
    return runner.invoke(app, list(args))


@pytest.fixture
def world(purge_db: Path) -> Path:
    """The sample world with an accented name and a second Bob."""
    with open_store(purge_db) as store, store.transaction():
        memory.add_entity(store, "Órlaith Rooney", "person")
        memory.add_entity(store, "Bob Marley", "person")
    return purge_db


@pytest.mark.parametrize(("typed", "entity"), [("ORLAITH", "Órlaith Rooney"), ("nguyen", "Alice Nguyen"),
                                                ("Okafor", "Dan Okafor"), ("northlight", "Northlight Studios")])  # fmt: skip
def test_show_takes_a_loose_name(world: Path, runner: CliRunner, typed: str, entity: str) -> None:
    result = run(runner, "show", typed, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["entity"] == entity


def test_an_unknown_name_is_one_line_with_the_closest_names(world: Path, runner: CliRunner) -> None:
    result = run(runner, "show", "Orlaiht")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == "Error: no entity named 'Orlaiht' (did you mean Órlaith Rooney?)\n"
    result = run(runner, "fact", "add", "Kowalsky", "He plays bass.")
    assert result.exit_code == 1 and "did you mean Bob Kowalski?" in result.stderr


def test_an_ambiguous_name_lists_the_candidates(world: Path, runner: CliRunner) -> None:
    for args in (["show", "bob"], ["forget", "bob", "--dry-run"], ["rename", "Bob", "Robert"]):
        result = run(runner, *args)
        assert result.exit_code == 1
        assert result.stderr == f"Error: {args[1]!r} could be Bob Kowalski or Bob Marley; give the full name\n"


def test_forget_edit_and_merge_take_a_unique_loose_name(world: Path, runner: CliRunner) -> None:
    plan = run(runner, "forget", "kowalski", "--dry-run", "--json")
    assert plan.exit_code == 0, plan.output
    assert json.loads(plan.stdout)["label"] == "Bob Kowalski"
    added = run(runner, "fact", "add", "orlaith", "Órlaith Rooney climbs at Boulder Barn.", "--json")
    assert added.exit_code == 0 and json.loads(added.stdout)["entity"] == "Órlaith Rooney"
    merged = run(runner, "merge", "okafor", "PRIYA", "--json", "--yes")
    assert merged.exit_code == 0, merged.output
    assert json.loads(merged.stdout)["details"]["merged"] == "Priya"
