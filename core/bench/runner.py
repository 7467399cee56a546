"""`memhop bench`: every system on the same stores, the same embedder and the same
evidence budget, on generated MemHop scenarios and on LoCoMo conversations; memhop alone
(offline engine) on the natural-text dev set (core/bench/natural.py); then speed at scale.
A system that cannot run (a missing piece) is reported as not available, never estimated.
"""

from __future__ import annotations

import os
import platform
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from memhop.core.bench import scale as bench_scale
from memhop.core.bench.ask import AskOutcome
from memhop.core.bench.extra import require_bench_extra
from memhop.core.bench.ingest import IngestedSource, ingest_parsed
from memhop.core.bench.jobs import Jobs, WriteOutcome, one_blas_thread
from memhop.core.bench.natural import run_natural
from memhop.core.bench.result import BenchConfig, BenchResult, IngestStat
from memhop.core.bench.sources import BenchSource, locomo_sources, memhop_sources
from memhop.core.bench.systems import MEMHOP_VARIANTS
from memhop.core.config import Settings
from memhop.core.embed import Embedder, get_embedder
from memhop.core.progress import Progress, SilentProgress
from memhop.core.store import open_store


def run_bench(config: BenchConfig, settings: Settings, progress: Progress | None = None) -> BenchResult:
    """Raw ingest here (embedding), the writes and the questions in worker processes.

    Checks the `bench` extra first, so a missing plot library fails before the run, not after."""
    require_bench_extra()
    embedder = get_embedder(settings.embedder)  # the workers and scale steps read each store with the one it records
    progress = progress or SilentProgress()
    started, load_at_start = time.perf_counter(), os.getloadavg()[0]
    result = BenchResult(config, settings.engine)
    if config.dev is not None:  # first: seconds, and a broken dev folder fails before the long part
        result.natural = run_natural(config.dev, settings, progress)
    sources = memhop_sources(config.n_scenarios, config.n_questions, config.seed, config.sessions)
    if config.locomo is not None:
        sources += locomo_sources(config.locomo, config.locomo_files)
    with tempfile.TemporaryDirectory(prefix="memhop-bench-") as tmp, Jobs() as jobs, one_blas_thread():
        work = Path(tmp)
        writes = []
        for source in sources:  # embedding the next source while the workers write the previous
            ingested = _ingest_raw(source, work, embedder, progress)
            writes.append((source, ingested, {v: jobs.write(_path(work, source, v), settings, v == "profile-only")
                                              for v in VARIANTS}))
        asks = []
        progress.start("writing memories and asking", len(sources))
        for source, ingested, pending in writes:
            wrote = _record_writes(source, ingested, {v: job.result() for v, job in pending.items()}, result)
            asks.append(jobs.ask(source, {v: _path(work, source, v) for v in VARIANTS}, settings, wrote))
        outcomes = []
        for job in asks:
            outcomes.append(job.result())
            result.records += outcomes[-1].records
            result.gap += outcomes[-1].gap
            result.unavailable |= outcomes[-1].unavailable
            progress.advance(1)
        base = _path(work, sources[0], "full") if sources else None
        if not config.scales:
            pass
        elif base is not None and "memhop" not in result.unavailable:
            result.scale = _scale(config, sources[0], outcomes[1:], base, settings, work, progress)
        else:
            result.unavailable["scale"] = result.unavailable.get("memhop", "no benchmark store was built")
    result.seconds = time.perf_counter() - started
    result.machine = _machine(load_at_start)
    return result


def _machine(load_at_start: float) -> str:
    return (f"{os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}; "
            f"1-min load average {load_at_start:.1f} at start, {os.getloadavg()[0]:.1f} at end")


VARIANTS = ("full", "profile-only")


def _path(work: Path, source: BenchSource, variant: str) -> Path:
    return work / f"{source.name}.{variant}.duckdb"


def _ingest_raw(source: BenchSource, work: Path, embedder: Embedder, progress: Progress) -> IngestedSource:
    """The raw layer once, then one copy per memory variant for the write path to fill."""
    raw_path = work / f"{source.name}.raw.duckdb"
    with open_store(raw_path, embedder=embedder.name) as store:  # labelled with the model whose vectors it gets
        ingested = ingest_parsed(store, source.parsed, source.name, embedder, self_name=source.self_name, progress=progress)
    for variant in VARIANTS:
        shutil.copy(raw_path, _path(work, source, variant))
    return ingested


def _record_writes(source: BenchSource, ingested: IngestedSource, outcomes: dict[str, WriteOutcome],
                   result: BenchResult) -> bool:
    """Costs of the full write; False (memhop systems marked unavailable) if the engine could not run."""
    failed = next((o.error for o in outcomes.values() if o.error), None)
    full = outcomes["full"]
    if failed is not None or full.report is None:
        for name in MEMHOP_VARIANTS:
            result.unavailable[name] = failed or "the write path did not run"
        return False
    result.ingest.append(IngestStat(
        source.dataset, source.name, ingested.sessions, ingested.turns, ingested.embed_seconds,
        full.report.seconds, int(full.report.usage.get("calls", 0)), full.counts["entities"],
        full.counts["residuals"], len(full.report.failures),
    ))
    return True


def _scale(config: BenchConfig, first: BenchSource, others: Sequence[AskOutcome], base: Path, settings: Settings,
           work: Path, progress: Progress) -> list[bench_scale.ScalePoint]:
    """Grow the first scenario's store with the other sources' turns (none naming its entities)."""
    from memhop.core.language.names import mentions

    names = sorted({n for q in first.questions for n in q.chain})
    seen: dict[str, np.ndarray] = {}
    for other in others:
        for text, vector in zip(other.texts, other.vectors if other.vectors is not None else []):
            if text not in seen and not any(mentions(text, n) for n in names):
                seen[text] = vector
    if not seen:
        return []
    asked = [{"text": q.text, "answer": q.gold or ""} for q in first.questions][: 20 if config.quick else 50]
    progress.start("scale: growing and timing stores", len(config.scales))
    return bench_scale.run_scale(list(config.scales), base, list(seen), np.stack(list(seen.values())), asked,
                                 first.self_name or "Me", settings.engine, work)
