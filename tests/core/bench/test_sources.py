"""Where the benchmark looks for LoCoMo when no folder is named."""

from __future__ import annotations

from pathlib import Path

import pytest
from memhop.core.bench.sources import default_locomo_dir, locomo_dir
from support.paths import REPO


def test_the_default_locomo_folder_is_beside_the_checkout_wherever_memhop_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MEMHOP_LOCOMO_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    assert default_locomo_dir() == REPO.parent / "shared" / "data" / "locomo"
    monkeypatch.setenv("MEMHOP_LOCOMO_DIR", str(tmp_path / "mine"))
    assert default_locomo_dir() == tmp_path / "mine"


def test_a_named_folder_wins_and_a_missing_default_means_no_locomo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMHOP_LOCOMO_DIR", str(tmp_path / "absent"))
    assert locomo_dir(None) is None
    assert locomo_dir(tmp_path / "named") == tmp_path / "named"  # checked when read: a clear error if missing
    (tmp_path / "absent").mkdir()
    assert locomo_dir(None) == tmp_path / "absent"
