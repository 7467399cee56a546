"""Files memhop writes, under a full disk: `export -o` over the previous backup with a file
size limit (RLIMIT_FSIZE, what `ulimit -f` sets) too small for the new export."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def export_with_limit(home: Path, target: Path, limit: int | None) -> subprocess.CompletedProcess[str]:
    def cap() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    env = {**os.environ, "MEMHOP_HOME": str(home), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "memhop", "export", "-o", str(target)],
        env=env, capture_output=True, text=True, preexec_fn=cap, timeout=300,
    )


def test_a_full_disk_leaves_the_previous_export_intact(purge_db: Path, tmp_path: Path) -> None:
    home = purge_db.parent
    backups = tmp_path / "backups"
    backups.mkdir()
    target = backups / "backup.json"
    first = export_with_limit(home, target, None)
    assert first.returncode == 0, first.stderr
    previous = target.read_bytes()
    assert len(previous) > 20_000
    store = purge_db.read_bytes()

    full = export_with_limit(home, target, limit=len(previous) // 3)
    assert full.returncode == 1, full.stderr
    assert "Traceback" not in full.stderr and full.stderr.strip().count("\n") == 0
    assert "cannot write" in full.stderr and str(target) in full.stderr
    assert target.read_bytes() == previous  # the old backup, whole
    assert target.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in backups.iterdir()) == ["backup.json"]  # no temp file left behind
    assert purge_db.read_bytes() == store
