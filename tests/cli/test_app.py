from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memhop.cli.app import app


def test_help_lists_the_commands(runner: CliRunner) -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("ingest", "stats", "config", "show", "rebuild"):
        assert command in result.stdout


def test_help_pays_for_no_model_or_database_import() -> None:
    probe = (
        "import sys; from memhop.cli.app import main; sys.argv = ['memhop', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in ('torch', 'sentence_transformers', 'spacy', 'duckdb', 'numpy', 'openai', 'dateparser')"
        " if m in sys.modules]\nprint('HEAVY', heavy)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert "HEAVY []" in out


def test_config_shows_paths_and_never_the_key(
    home: Path, runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-SECRET")
    for args in (["config"], ["config", "--json"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        assert "sk-test-SECRET" not in result.output
    data = json.loads(runner.invoke(app, ["config", "--json"]).stdout)
    assert data["config_file"] == str(home / "config.yaml")
    assert data["settings"]["db"] == str(home / "memhop.duckdb")
    assert data["settings"]["openai"]["api_key"] == "set"


def test_bad_settings_file_is_one_line_and_exit_2(home: Path, runner: CliRunner) -> None:
    home.mkdir(parents=True)
    (home / "config.yaml").write_text("engine: [oops\n")
    result = runner.invoke(app, ["stats"])
    assert result.exit_code == 2
    assert result.stderr.strip().count("\n") == 0
    assert "config.yaml" in result.stderr and "invalid YAML" in result.stderr


def test_db_flag_points_anywhere(home: Path, runner: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere" / "mine.duckdb"
    made = runner.invoke(app, ["ingest", "-", "--db", str(target), "--quiet"], input="# 2024-03-02\nhello\n")
    assert made.exit_code == 0, made.output
    result = runner.invoke(app, ["stats", "--json", "--db", str(target)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["db"] == str(target)
    assert json.loads(result.stdout)["turns"] == 1


@pytest.mark.parametrize(
    "command",
    [["stats"], ["rebuild"], ["rename", "Bob", "Robert"], ["edit", "Bob", "--set", "Bob plays chess."], ["fact", "add", "Bob", "Bob plays chess."], ["sources"]],
)
def test_a_mistyped_db_creates_nothing(home: Path, runner: CliRunner, tmp_path: Path, command: list[str]) -> None:
    target = tmp_path / "typo" / "memhpo.duckdb"
    result = runner.invoke(app, [*command, "--db", str(target)])
    assert result.exit_code != 0
    assert result.stderr.strip() == f"Error: no memhop store at {target} (check --db, or run `memhop ingest` to create one)"
    assert not target.parent.exists()


def test_ingest_help_names_every_format_an_unknown_file_is_pointed_to(runner: CliRunner) -> None:
    from memhop.core.importers import available

    import re

    shown = set(re.findall(r"[\w-]+", runner.invoke(app, ["ingest", "--help"], terminal_width=200).stdout))
    assert [name for name in available() if name not in shown] == []
