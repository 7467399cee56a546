"""memhop as a separate process, as a user's shell (or a crash) would see it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path


def start(
    home: Path, *args: str, extra_env: dict[str, str] | None = None, preexec_fn: Callable[[], None] | None = None
) -> subprocess.Popen[str]:
    """`memhop ARGS` with MEMHOP_HOME=home, its output captured as text."""
    env = {**os.environ, "MEMHOP_HOME": str(home), **(extra_env or {})}
    return subprocess.Popen(
        [sys.executable, "-m", "memhop", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=preexec_fn,
    )


def run(
    home: Path, *args: str, extra_env: dict[str, str] | None = None, preexec_fn: Callable[[], None] | None = None
) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of a finished `memhop ARGS`."""
    proc = start(home, *args, extra_env=extra_env, preexec_fn=preexec_fn)
    out, err = proc.communicate(timeout=600)
    return proc.returncode, out, err
