"""Shared fixtures: every test gets its own MEMHOP home; nothing touches the user's files."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from support.paths import LOCOMO


@pytest.fixture(scope="session", autouse=True)
def shared_model_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One built embedder graph for the whole run: each subprocess CLI test would rebuild it."""
    cache = tmp_path_factory.mktemp("model-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MEMHOP_CACHE_DIR", str(cache))
        yield cache


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "memhop-home"
    monkeypatch.setenv("MEMHOP_HOME", str(root))
    for var in ("MEMHOP_DB", "MEMHOP_ENGINE", "MEMHOP_EMBEDDER", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    return root


@pytest.fixture(scope="session")
def purge_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The store of tests/support/purge_world.py, built once per run; tests get copies."""
    from support import purge_world

    return purge_world.template(tmp_path_factory.mktemp("purge-world"))


@pytest.fixture
def purge_db(purge_template: Path, home: Path) -> Path:
    """A copy of the purge world as the default store of the test's MEMHOP home."""
    from support import purge_world

    return purge_world.install(purge_template, home)


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def locomo26() -> Path:
    path = LOCOMO / "26.json"
    if not path.exists():
        pytest.skip(f"LoCoMo sample not found at {path}")
    return path


def stats_of(runner: CliRunner, *extra: str) -> dict[str, object]:
    from memhop.cli.app import app

    result = runner.invoke(app, ["stats", "--json", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture
def stats(runner: CliRunner) -> Iterator[object]:
    yield lambda *extra: stats_of(runner, *extra)
