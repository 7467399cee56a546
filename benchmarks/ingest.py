"""Ingest speed and start-up costs, as a user meets them.

    .venv/bin/python benchmarks/ingest.py [path/to/locomo/26.json]

Prints: raw-layer turns/s (parse + embeddings + store) for 26.json, the whole ingest
(raw + write path with the offline engine) turns/s, the wall time of `memhop --help`,
and the time from a cold process to the first embedding.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT = REPO.parent / "shared" / "data" / "locomo" / "26.json"


def timed(cmd: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    from memhop.core.embed import get_embedder
    from memhop.core.engines.offline import OfflineEngine
    from memhop.core.ingest import ingest
    from memhop.core.store import open_store

    with tempfile.TemporaryDirectory() as tmp:
        embedder = get_embedder("minilm")
        embedder.embed(["warm up"])
        with open_store(Path(tmp) / "raw.duckdb") as store:
            started = time.perf_counter()
            report = ingest(store, [str(source)], embedder)
            raw_seconds = time.perf_counter() - started
            turns = report.files[0].turns
        print(f"raw layer      : {turns} turns in {raw_seconds:.2f}s = {turns / raw_seconds:.0f} turns/s")

        engine = OfflineEngine()
        with open_store(Path(tmp) / "full.duckdb") as store:
            started = time.perf_counter()
            report = ingest(store, [str(source)], embedder, engine=engine)
            full_seconds = time.perf_counter() - started
            assert report.write is not None
            calls = int(report.write.usage["calls"])
        print(
            f"full ingest    : {turns} turns in {full_seconds:.2f}s = {turns / full_seconds:.0f} turns/s "
            f"(offline engine, {calls} engine calls, {report.write.sessions} sessions; includes model loading)"
        )

        env = {**os.environ, "MEMHOP_HOME": tmp}
        memhop = str(Path(sys.executable).with_name("memhop"))
        helps = [timed([memhop, "--help"], env) for _ in range(5)]
        print(f"memhop --help  : median {statistics.median(helps):.3f}s over 5 runs")
        probe = "from memhop.core.embed import get_embedder; get_embedder('minilm').embed(['hello'])"
        firsts = [timed([sys.executable, "-c", probe], env) for _ in range(3)]
        print(f"first embedding: median {statistics.median(firsts):.3f}s from a cold process (3 runs)")


if __name__ == "__main__":
    main()
