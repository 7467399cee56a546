"""Ingest speed and start-up costs, as a user meets them.

    .venv/bin/python benchmarks/ingest.py [path/to/locomo/26.json] [--repeats 3]

Prints, for 26.json: raw-layer turns/s (parse + embeddings + store, embedder loaded);
the whole ingest with the offline write path, first run (pays spaCy's load) and warm
runs; `memhop ingest` as a fresh process (pays every import and model load); the wall
time of `memhop --help`; the time from a cold process to the first embedding. Each run
writes a fresh store. Wall clocks on a shared VM are noisy: best and median are printed.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench_common import locomo_args, warm_embedder


def timed(cmd: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def spread(turns: int, seconds: list[float]) -> str:
    return f"best {turns / min(seconds):.0f}, median {turns / statistics.median(seconds):.0f} turns/s"


def main() -> None:
    args = locomo_args(__doc__)
    from memhop.core.engines.offline.engine import OfflineEngine
    from memhop.core.ingest import ingest
    from memhop.core.store import open_store

    embedder = warm_embedder()
    with tempfile.TemporaryDirectory() as tmp:
        def run(name: str, engine: Callable[[], OfflineEngine] | None) -> tuple[float, int]:
            with open_store(Path(tmp) / f"{name}.duckdb") as store:
                started = time.perf_counter()
                report = ingest(store, [str(args.source)], embedder, engine=engine() if engine else None)
                return time.perf_counter() - started, report.files[0].turns

        raws = [run(f"raw{i}", None) for i in range(args.repeats)]
        turns = raws[0][1]
        print(f"raw layer      : {turns} turns; {spread(turns, [s for s, _ in raws])} (floor: 100)")
        fulls = [run(f"full{i}", OfflineEngine)[0] for i in range(args.repeats)]
        print(f"full ingest    : first run {turns / fulls[0]:.0f} turns/s (loads spaCy); warm "
              f"{spread(turns, fulls[1:] or fulls)} (raw layer + offline write path)")

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
