"""`memhop search` as a user runs it: one memory per line with date, speaker and file,
JSON for scripts, restricted by person and dates, and its errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memhop.cli.app import app
from support.read_world import build_world


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_world(tmp_path_factory.mktemp("search-world"))


@pytest.fixture
def invoke(home: Path, runner: CliRunner, world: Path) -> Iterator[object]:
    yield lambda *args: runner.invoke(app, ["search", *args, "--db", str(world)])


def test_each_result_is_one_line_with_date_speaker_file_and_id(invoke) -> None:
    result = invoke("greyhound", "--limit", "3")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("2 Mar 2024 · Maya Patel · diary.md — ") and "greyhound" in lines[0]
    assert all(line.endswith("]") and ("[turn " in line or "[fact " in line) for line in lines)


def test_json_for_scripts(invoke) -> None:
    data = json.loads(invoke("piano", "--json", "--person", "Bob", "--until", "February 2024").stdout)
    assert data["person"] == "Bob Kowalski" and data["until"] == "2024-02-29"
    assert data["results"] and all(r["date"] <= "2024-02-29" for r in data["results"])
    assert {r["kind"] for r in data["results"]} <= {"turn", "fact"}


def test_nothing_inside_the_window_says_so_on_stderr(invoke) -> None:
    result = invoke("piano", "--since", "2030-01-01")
    assert result.exit_code == 0 and result.stdout == "" and "no memories match" in result.stderr


def test_errors_are_one_line_with_their_exit_code(invoke) -> None:
    unknown = invoke("piano", "--person", "Zebedee")
    assert unknown.exit_code == 1 and "no entity named 'Zebedee'" in unknown.stderr
    bad = invoke("piano", "--until", "whenever")
    assert bad.exit_code == 2 and bad.stderr.count("\n") == 1 and "--until" in bad.stderr
