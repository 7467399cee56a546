"""Compaction swaps a fresh copy in while the store's lock keeps every other memhop out."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memhop.core.forget import forget
from memhop.core.store import compact, open_store

from support import purge_world

WRITER = """
import sys
from pathlib import Path
from memhop.core.store import open_store
with open_store(Path(sys.argv[1])) as store:
    with store.transaction():
        store.log("test", "written by a second process")
print("committed", flush=True)
"""


def test_a_writer_arriving_mid_compaction_waits_and_its_write_survives(
    purge_template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = purge_world.install(purge_template, tmp_path / "home")
    monkeypatch.setenv("MEMHOP_LOCK_TIMEOUT", "60")
    writers: list[subprocess.Popen[str]] = []
    real_fsync = compact.fsync_path

    def start_writer_in_the_gap(path: Path) -> None:
        # Called after the connection to the old file is closed and before the swap: the
        # moment a second process could once open the old file and commit into it.
        if not writers:
            proc = subprocess.Popen([sys.executable, "-c", WRITER, str(db)], stdout=subprocess.PIPE, text=True, env=os.environ)
            writers.append(proc)
            try:
                proc.wait(timeout=5)  # the old code let it commit here; now it waits for our lock
            except subprocess.TimeoutExpired:
                pass
        real_fsync(path)

    monkeypatch.setattr(compact, "fsync_path", start_writer_in_the_gap)
    with open_store(db) as store:
        forget(store, purge_world.EMBEDDER, name="Priya")
    out, _ = writers[0].communicate(timeout=120)
    assert writers[0].returncode == 0 and "committed" in out
    with open_store(db, read_only=True) as store:
        logged = store.con.execute("SELECT detail FROM oplog WHERE op = 'test'").fetchall()
        assert logged == [("written by a second process",)]
        assert store.scalar("SELECT count(*) FROM entities WHERE name = 'Priya'") == 0


def test_a_stale_partial_copy_is_discarded_and_the_store_kept(purge_template: Path, tmp_path: Path) -> None:
    db = purge_world.install(purge_template, tmp_path / "home")
    before = purge_world.dump(db)
    stale = Path(str(db) + compact.COMPACT_SUFFIX)
    stale.write_bytes(b"DUCK" + os.urandom(4096))  # what kill -9 mid-copy leaves
    Path(str(stale) + ".wal").write_bytes(b"partial")
    with open_store(db) as store:
        assert store.resumed is None
    assert not stale.exists() and not Path(str(stale) + ".wal").exists()
    assert purge_world.dump(db) == before
