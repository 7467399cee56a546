"""Shared fixtures for the importer tests: where the samples and the LoCoMo data live."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.paths import LOCOMO, SAMPLES


@pytest.fixture
def samples() -> Path:
    return SAMPLES


@pytest.fixture
def locomo_dir() -> Path:
    if not (LOCOMO / "26.json").is_file():
        pytest.skip(f"LoCoMo data not found at {LOCOMO} (shared/data beside the checkout, or $MEMHOP_LOCOMO_DIR)")
    return LOCOMO
