"""The benchmark's own dependencies (the `bench` extra): memhop itself runs without them,
so `memhop bench` checks for them first and says what to install, in one line."""

from __future__ import annotations

import importlib

from memhop.core.errors import MemhopError

# matplotlib draws the report's plots; threadpoolctl pins BLAS to one thread per worker.
BENCH_MODULES = ("matplotlib", "threadpoolctl")
INSTALL_HINT = "pip install 'memhop[bench]'"


class MissingBenchExtra(MemhopError):
    """A module of the `bench` extra is not installed."""

    exit_code = 2


def require_bench_extra() -> None:
    """Raise MissingBenchExtra before any work starts if a bench-only module cannot be imported."""
    missing = []
    for name in BENCH_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    if missing:
        raise MissingBenchExtra(f"memhop bench needs {' and '.join(missing)}, not installed: {INSTALL_HINT}")
