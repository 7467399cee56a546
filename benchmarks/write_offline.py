"""The offline write path on a real store: turns/s, entities per session, facts per entity.

    .venv/bin/python benchmarks/write_offline.py [path/to/locomo/26.json] [--repeats 3]

The raw layer is ingested once (not timed). Then `write_pending` (identify, coextract,
embedding, dedup, supersede; one transaction per session) runs over every session of a
fresh copy of that store, `--repeats` times in this process with a new offline engine
each time. The first run pays spaCy's load as `memhop ingest` does (cold); the later ones
do not (warm). Wall clocks on a shared VM are noisy, so best and median are printed.
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from pathlib import Path

from bench_common import locomo_args, warm_embedder

PER_SESSION_SQL = """
SELECT s.id, count(DISTINCT m.entity_id) FROM sessions s
LEFT JOIN turns t ON t.session_id = s.id LEFT JOIN mentions m ON m.turn_id = t.id GROUP BY s.id
"""


def main() -> None:
    args = locomo_args(__doc__)
    from memhop.core.engines.offline.engine import OfflineEngine
    from memhop.core.ingest import ingest
    from memhop.core.store import open_store
    from memhop.core.write import write_pending

    embedder = warm_embedder()
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw.duckdb"
        with open_store(raw, embedder=embedder.name) as store:
            ingest(store, [str(args.source)], embedder)
            counts = store.counts()
        turns, sessions = counts["turns"], counts["sessions"]
        print(f"source              : {args.source.name}: {sessions} sessions, {turns} turns")

        walls: list[float] = []
        for run in range(args.repeats):
            copy = Path(tmp) / f"run{run}.duckdb"
            shutil.copyfile(raw, copy)
            engine = OfflineEngine()
            with open_store(copy, embedder=embedder.name) as store:
                started = time.perf_counter()
                report = write_pending(store, engine, embedder)
                walls.append(time.perf_counter() - started)
                per_session = [n for _, n in store.con.execute(PER_SESSION_SQL).fetchall()]
                final = store.counts()
            label = "cold (spaCy load)" if run == 0 else "warm"
            print(f"run {run + 1} {label:17s}: {walls[-1]:.2f}s = {turns / walls[-1]:.0f} turns/s; "
                  f"engine {report.usage['seconds']:.2f}s in {int(report.usage['calls'])} calls")

        warm = walls[1:] or walls
        print(f"write path          : cold {turns / walls[0]:.0f} turns/s; warm best {turns / min(warm):.0f}, "
              f"median {turns / statistics.median(warm):.0f} turns/s (floor: 50)")
        entities = int(report.usage["calls"]) - report.sessions  # 1 + E calls per session
        print(f"entities per session: {entities / report.sessions:.1f} engine-found (1 + E calls), "
              f"max {max(per_session)} per session in mentions; registry {final['entities']}")
        print(f"facts per entity: {final['residuals'] / max(final['entities'], 1):.1f} "
              f"({final['residuals']} kept, {report.residuals_deduplicated} dropped as near-duplicates, "
              f"{report.residuals_superseded} superseded)")


if __name__ == "__main__":
    main()
