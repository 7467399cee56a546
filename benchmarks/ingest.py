"""Ingest speed and start-up costs, as a user meets them.

    .venv/bin/python benchmarks/ingest.py [path/to/locomo/26.json] [--repeats 3]

Prints, for 26.json: raw-layer turns/s (parse + embeddings + store, embedder loaded);
the offline write path's turns/s (write_pending alone, within a whole ingest); the whole
ingest with the offline write path, first run (pays spaCy's load) and warm runs;
`memhop ingest` as a fresh process (pays every import and model load); the wall time of
`memhop --help`; the time from a cold process to the first embedding. Each run writes a
fresh store. Wall clocks on a shared VM are noisy: best and median are printed, and the
CPU seconds the process spent (all its threads), which other users of the machine move less.
MEMHOP_EMBEDDER=minilm-int8 measures the int8 embedder instead of the default one.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
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


def cpu_rate(turns: int, cpu: list[float]) -> str:
    return f"{turns / statistics.median(cpu):.0f} turns per CPU-second"


def main() -> None:
    args = locomo_args(__doc__)
    import memhop.core.ingest as ingest_module
    from memhop.core.engines.offline.engine import OfflineEngine
    from memhop.core.store import open_store

    spent: list[tuple[float, float]] = []  # (wall, cpu) of each write path ingest() ran
    write_pending = ingest_module.write_pending

    def timed_write(*args: Any, **kwargs: Any) -> Any:
        wall, cpu = time.perf_counter(), time.process_time()
        report = write_pending(*args, **kwargs)
        spent.append((time.perf_counter() - wall, time.process_time() - cpu))
        return report

    ingest_module.write_pending = timed_write  # the write path timed inside ingest(), as a user runs it

    embedder = warm_embedder()
    with tempfile.TemporaryDirectory() as tmp:
        def run(name: str, engine: Callable[[], OfflineEngine] | None) -> Run:
            with open_store(Path(tmp) / f"{name}.duckdb", embedder=embedder.name) as store:
                spent.clear()
                wall, cpu = time.perf_counter(), time.process_time()
                report = ingest_module.ingest(store, [str(args.source)], embedder, engine=engine() if engine else None)
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                write_wall, write_cpu = spent[0] if spent else (0.0, 0.0)
                return Run(report.files[0].turns, wall, cpu, write_wall, write_cpu)

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
