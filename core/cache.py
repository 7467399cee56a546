"""Writing a file whole or not at all, readable by its owner only.

A reader never sees half a file: the bytes go to a temporary file beside the target,
reach the disk (fsync), and are renamed over it in one step, so a crash or a full disk
leaves the previous file as it was. `replace_file` raises; `write_atomically` is the
cache's variant, where a dir that cannot be written only costs rebuilding the file later.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

PRIVATE = 0o600  # the store's mode: what memhop writes is personal text


def replace_file(target: Path, data: bytes, mode: int = PRIVATE) -> None:
    """Put `data` at `target` in one rename, with `mode`; OSError (nothing changed) if not."""
    fd, part = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")  # 0600
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(part, mode)
        os.replace(part, target)  # atomic: a concurrent writer of the same bytes is harmless
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(part)
        raise
    _sync_dir(target.parent)


def _sync_dir(directory: Path) -> None:
    """The rename itself reaches the disk (best effort: some file systems refuse)."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_atomically(target: Path, data: bytes) -> bool:
    """A cache file: False, not an error, when the cache dir is read-only or full."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        replace_file(target, data)
    except OSError:
        return False
    return True
