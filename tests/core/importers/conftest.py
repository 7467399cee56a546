"""Shared fixtures for the importer tests: where the samples and the LoCoMo data live."""

from __future__ import annotations

import time
from collections.abc import Iterator
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


@pytest.fixture(autouse=True)
def machine_zone_utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """UTC times (ChatGPT's epochs) are shown in this machine's zone unless told: pin it."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()
