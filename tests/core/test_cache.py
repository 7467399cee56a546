"""Cache files are written whole or not at all, and a cache dir that cannot be written is no error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memhop.core.cache import replace_file, write_atomically


def test_a_file_is_written_whole_and_replaced_whole(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "names.txt"
    assert write_atomically(target, b"first")
    assert write_atomically(target, b"second")
    assert target.read_bytes() == b"second"
    assert sorted(p.name for p in target.parent.iterdir()) == ["names.txt"]  # no .part left behind


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through a read-only dir")
def test_an_unwritable_cache_dir_is_reported_not_raised(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    assert write_atomically(locked / "names.txt", b"x") is False
    assert list(locked.iterdir()) == []


def test_a_cache_dir_that_is_a_file_is_reported_not_raised(tmp_path: Path) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("not a dir")
    assert write_atomically(blocker / "names.txt", b"x") is False
    assert blocker.read_text() == "not a dir"


def test_replace_file_is_private_and_leaves_the_old_file_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "export.json"
    target.write_text("previous")
    target.chmod(0o644)
    replace_file(target, b"new")
    assert target.read_bytes() == b"new" and target.stat().st_mode & 0o777 == 0o600
    with pytest.raises(OSError):
        replace_file(tmp_path / "missing-dir" / "export.json", b"x")  # an export makes no dirs
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export.json"]
