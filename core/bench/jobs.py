"""The benchmark's heavy work in worker processes, one per core (two by default): each
source needs two writes (full memory and the profile-only ablation) and one round of
questions, all CPU-bound, so two cores nearly halve the wall time."""

from __future__ import annotations

import contextlib
import os
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Self

from memhop.core.bench.ask import AskOutcome
from memhop.core.bench.sources import BenchSource
from memhop.core.config import Settings
from memhop.core.write import WriteReport

MAX_WORKERS = 2
_LIMITS: list[object] = []  # keeps a worker's BLAS limit alive


def one_blas_thread() -> contextlib.AbstractContextManager[object]:
    """BLAS on one thread while processes share the cores: with OpenBLAS's own threads
    competing, a two-sentence embedding took 13x longer (420 vs 33 ms) on 2 busy cores.
    threadpoolctl comes with the `bench` extra (checked before a run: core/bench/extra.py)."""
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1)


def _worker_init() -> None:
    _LIMITS.append(one_blas_thread())
    os.environ["MEMHOP_EMBED_THREADS"] = "1"  # ONNX Runtime's pool is not covered by threadpoolctl


@dataclass
class WriteOutcome:
    report: WriteReport | None
    counts: dict[str, int] = field(default_factory=dict)
    error: str | None = None  # why the engine could not run at all


def write_store(db: str, settings: Settings, profile_only: bool) -> WriteOutcome:
    """Run the write path over every pending session of one store."""
    from memhop.core.bench.systems import ProfileOnly
    from memhop.core.embed import get_embedder
    from memhop.core.engines import build_engine
    from memhop.core.store import open_store
    from memhop.core.write import write_pending

    try:
        engine = build_engine(settings)
        with open_store(Path(db)) as store:  # the embedder its raw layer was written with
            report = write_pending(store, ProfileOnly(engine) if profile_only else engine,
                                   get_embedder(store.embedder_setting), settings.dedup_threshold)
            return WriteOutcome(report, store.counts())
    except ImportError as exc:
        return WriteOutcome(None, error=f"the {settings.engine} engine's write path cannot run ({exc})")


def ask_store(source: BenchSource, stores: dict[str, str], settings: Settings, wrote: bool) -> AskOutcome:
    from memhop.core.bench.ask import ask_source

    paths = {v: Path(p) for v, p in stores.items()}
    return ask_source(source, paths, settings, wrote)


class Jobs:
    """A small process pool (spawned, so no state leaks in from the parent)."""

    def __init__(self, workers: int | None = None) -> None:
        count = workers or max(1, min(MAX_WORKERS, os.cpu_count() or 1))
        self._pool = ProcessPoolExecutor(max_workers=count, mp_context=get_context("spawn"), initializer=_worker_init)

    def write(self, db: Path, settings: Settings, profile_only: bool) -> Future[WriteOutcome]:
        return self._pool.submit(write_store, str(db), settings, profile_only)

    def ask(self, source: BenchSource, stores: dict[str, Path], settings: Settings, wrote: bool) -> Future[AskOutcome]:
        return self._pool.submit(ask_store, source, {v: str(p) for v, p in stores.items()}, settings, wrote)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
