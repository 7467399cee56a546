"""Ingest speed and start-up costs, as a user meets them.

    .venv/bin/python benchmarks/ingest.py [path/to/locomo/26.json] [--repeats 3]

Prints, for 26.json: raw-layer turns/s (parse + embeddings + store, embedder loaded);
the offline write path's turns/s (write_pending alone, within a whole ingest); the whole
ingest with the offline write path, first run (pays spaCy's load) and warm runs;
`memhop ingest` as a fresh process (pays every import and model load); the wall time of
`memhop --help`; the time from a cold process to the first embedding. Each run writes a
fresh store. Wall clocks on a shared VM are noisy: best and median are printed, and the
CPU seconds the process spent (all its threads), which other users of the machine move less,
and, for the whole ingest, those CPU seconds by stage and thread (see `stages`).
MEMHOP_EMBEDDER=minilm-int8 measures the int8 embedder instead of the default (float) one.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench_common import locomo_args, warm_embedder


def timed(cmd: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def spread(turns: int, seconds: list[float]) -> str:
    return f"best {turns / min(seconds):.0f}, median {turns / statistics.median(seconds):.0f} turns/s"


@dataclass(frozen=True)
class Run:
    turns: int
    wall: float  # the whole ingest call
    cpu: float  # CPU seconds of this process over the same call, every thread
    write_wall: float = 0.0  # the write path alone (write_pending), inside `wall`
    write_cpu: float = 0.0
    main_cpu: dict[str, float] = field(default_factory=dict)  # stage -> CPU of the calling thread
    stage_cpu: dict[str, float] = field(default_factory=dict)  # stage -> CPU of every thread


def stages(runs: list[Run]) -> str:
    """CPU by stage, medians: each stage's calling thread (spaCy and the rules, which hold the
    GIL) and the rest (ONNX Runtime's embedding threads). A stage cannot take less wall time
    than its calling thread's CPU, nor than its whole CPU over the 2 cores."""
    def median(values: list[float]) -> float:
        return statistics.median(values) if values else 0.0

    parts, floor = [], 0.0
    for stage, label, main, rest in (("raw", "raw layer", "parse ahead", "embed turns"),
                                     ("write", "write path", "NER, rules, DuckDB", "embed facts")):
        whole = median([r.stage_cpu.get(stage, 0.0) for r in runs])
        own = median([r.main_cpu.get(stage, 0.0) for r in runs])
        parts.append(f"{label} {whole:.2f} CPU-s ({main} {own:.2f} on the calling thread, {rest} {whole - own:.2f})")
        floor += max(own, whole / 2)
    other = median([r.cpu - sum(r.stage_cpu.values()) for r in runs])  # reading the file, refreshing vectors
    return f"{'; '.join(parts)}; other {other:.2f}; floor on 2 idle cores {floor + other:.2f} s"


def cpu_rate(turns: int, cpu: list[float]) -> str:
    return f"{turns / statistics.median(cpu):.0f} turns per CPU-second"


def main() -> None:
    args = locomo_args(__doc__)
    import memhop.core.ingest as ingest_module
    from memhop.core.engines.offline.engine import OfflineEngine
    from memhop.core.store import open_store

    spent: list[tuple[float, float]] = []  # (wall, cpu) of each write path ingest() ran
    main_cpu: dict[str, float] = {}  # CPU of the calling thread alone, by stage, of the last ingest()
    stage_cpu: dict[str, float] = {}  # CPU of the process (every thread), by stage, of the last ingest()
    write_pending, store_parsed = ingest_module.write_pending, ingest_module.store_parsed

    def staged(stage: str, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        thread, cpu = time.thread_time(), time.process_time()
        try:
            return call(*args, **kwargs)
        finally:
            main_cpu[stage] = main_cpu.get(stage, 0.0) + time.thread_time() - thread
            stage_cpu[stage] = stage_cpu.get(stage, 0.0) + time.process_time() - cpu

    def timed_write(*args: Any, **kwargs: Any) -> Any:
        wall, cpu = time.perf_counter(), time.process_time()
        report = staged("write", write_pending, *args, **kwargs)
        spent.append((time.perf_counter() - wall, time.process_time() - cpu))
        return report

    ingest_module.write_pending = timed_write  # the write path timed inside ingest(), as a user runs it
    ingest_module.store_parsed = lambda *args, **kwargs: staged("raw", store_parsed, *args, **kwargs)

    embedder = warm_embedder()
    with tempfile.TemporaryDirectory() as tmp:
        def run(name: str, engine: Callable[[], OfflineEngine] | None) -> Run:
            with open_store(Path(tmp) / f"{name}.duckdb", embedder=embedder.name) as store:
                spent.clear()
                main_cpu.clear()
                stage_cpu.clear()
                wall, cpu = time.perf_counter(), time.process_time()
                report = ingest_module.ingest(store, [str(args.source)], embedder, engine=engine() if engine else None)
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                write_wall, write_cpu = spent[0] if spent else (0.0, 0.0)
                return Run(report.files[0].turns, wall, cpu, write_wall, write_cpu, dict(main_cpu), dict(stage_cpu))

        raws = [run(f"raw{i}", None) for i in range(args.repeats)]
        turns = raws[0].turns
        print(f"raw layer      : {turns} turns; {spread(turns, [r.wall for r in raws])}; "
              f"{cpu_rate(turns, [r.cpu for r in raws])} (floor: 100)")
        fulls = [run(f"full{i}", OfflineEngine) for i in range(args.repeats)]
        warm = fulls[1:] or fulls
        print(f"write path     : {spread(turns, [r.write_wall for r in warm])}; "
              f"{cpu_rate(turns, [r.write_cpu for r in warm])} (offline engine, spaCy loaded)")
        print(f"full ingest    : first run {turns / fulls[0].wall:.0f} turns/s (loads spaCy); warm "
              f"{spread(turns, [r.wall for r in warm])}; {cpu_rate(turns, [r.cpu for r in warm])} "
              "(raw layer + offline write path; target: 200)")
        print(f"cpu by stage   : {stages(warm)}")

        env = {**os.environ, "MEMHOP_HOME": tmp, "MEMHOP_CACHE_DIR": str(Path(tmp) / "cache")}
        memhop = str(Path(sys.executable).with_name("memhop"))
        timed([sys.executable, "-c", "from memhop.core.embed import get_embedder; get_embedder()"], env)
        cli = [timed([memhop, "ingest", str(args.source), "--db", str(Path(tmp) / f"cli{i}.duckdb"), "--quiet"], env)
               for i in range(args.repeats)]
        print(f"memhop ingest  : fresh process, everything loaded from cold: {spread(turns, cli)}")
        helps = [timed([memhop, "--help"], env) for _ in range(5)]
        print(f"memhop --help  : median {statistics.median(helps):.3f}s over 5 runs (floor: < 0.5 s)")
        probe = "from memhop.core.embed import get_embedder; get_embedder('minilm').embed(['hello'])"
        firsts = [timed([sys.executable, "-c", probe], env) for _ in range(3)]
        print(f"first embedding: median {statistics.median(firsts):.3f}s from a cold process (3 runs; "
              f"the graph was cached by an earlier run)")


if __name__ == "__main__":
    main()
