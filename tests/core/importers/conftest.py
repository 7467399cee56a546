"""Shared fixtures for the importer tests: where the samples and the LoCoMo data live."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
SAMPLES = REPO / "sample_diaries"
LOCOMO = REPO.parent / "shared/data/locomo"


@pytest.fixture
def samples() -> Path:
    return SAMPLES


@pytest.fixture
def locomo_dir() -> Path:
    if not (LOCOMO / "26.json").is_file():
        pytest.skip(f"LoCoMo data not found at {LOCOMO} (it lives in ../shared/data, outside the repo)")
    return LOCOMO
