"""The store's lock file: one writer across processes, readers together, a clear wait."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memhop.core.errors import StoreError
from memhop.core.store import open_store
from memhop.core.store.lock import lock_path

HOLD = """
import sys, time
from pathlib import Path
from memhop.core.store import open_store
store = open_store(Path(sys.argv[1]), read_only=sys.argv[2] == "read")
print("open", flush=True)
time.sleep(float(sys.argv[3]))
store.close()
"""


def hold(path: Path, mode: str, seconds: float) -> subprocess.Popen[str]:
    """Another memhop process with the store open for `seconds`."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path), mode, str(seconds)], stdout=subprocess.PIPE, text=True, env=os.environ
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "open"
    return proc


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    path = tmp_path / "memhop.duckdb"
    open_store(path).close()
    return path


def test_a_second_writer_fails_clearly_naming_the_holder(store_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMHOP_LOCK_TIMEOUT", "0.3")
    proc = hold(store_path, "write", 30)
    try:
        with pytest.raises(StoreError, match=rf"in use by another memhop process \(pid {proc.pid}\); waited 0.3 s"):
            open_store(store_path)
        with pytest.raises(StoreError, match="in use by another memhop process"):
            open_store(store_path, read_only=True)
    finally:
        proc.kill()
        proc.wait()
    with open_store(store_path) as store:  # the holder is gone, and so is its lock
        assert store.schema_version() > 0


def test_a_writer_waits_for_the_holder_to_finish_and_says_so(
    store_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("MEMHOP_LOCK_TIMEOUT", "30")
    proc = hold(store_path, "write", 1.0)
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="memhop"), open_store(store_path) as store:
        store.log("test", "after the wait")
    assert time.monotonic() - started >= 0.5
    assert proc.wait() == 0
    assert "waiting for another memhop process" in caplog.text


def test_readers_share_the_store(store_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMHOP_LOCK_TIMEOUT", "0")
    proc = hold(store_path, "read", 30)
    try:
        with open_store(store_path, read_only=True) as store:
            assert store.schema_version() > 0
    finally:
        proc.kill()
        proc.wait()


def test_one_process_may_open_its_store_twice_and_the_lock_is_private(store_path: Path) -> None:
    with open_store(store_path) as first, open_store(store_path) as second:
        assert first.schema_version() == second.schema_version()
    assert lock_path(store_path).stat().st_mode & 0o777 == 0o600


def test_a_bad_timeout_setting_is_an_error(store_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMHOP_LOCK_TIMEOUT", "soon")
    with pytest.raises(StoreError, match="MEMHOP_LOCK_TIMEOUT"):
        open_store(store_path)
