"""Files memhop keeps in its cache dir: written whole or not at all, and optional.

A reader never sees half a file (it is written beside its place and renamed in), and a
cache dir that cannot be written only costs rebuilding the file next time.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomically(target: Path, data: bytes) -> bool:
    """Write `data` to `target` in one rename; False if the cache dir is not writable."""
    part: str | None = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, part = tempfile.mkstemp(dir=target.parent, prefix=target.name, suffix=".part")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(part, target)  # atomic: a concurrent writer writes the same bytes
    except OSError:  # read-only or full
        if part is not None:
            with contextlib.suppress(OSError):
                os.unlink(part)
        return False
    return True
