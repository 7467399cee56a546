"""The openai engine's write path at --jobs 1, 2, 4, 8, 16 against a model server with a
set latency, and the check that every job count stores the same profiles and facts.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/model_concurrency.py [--latency 0.3] [--slots 16] [--jobs 1 8]

The server is tests/support/fake_openai.py (a real HTTP server on 127.0.0.1) answering
each request after `--latency` seconds, at most `--slots` at once, with replies that
depend on the request alone (its rule responder), as a model at temperature 0 would.
The scenario is the benchmark generator's first one (a 20-session diary); its raw turns
are stored once, untimed, and each job count writes a fresh copy of that store, with
no kept replies. Timed: `write_pending`, i.e. what `memhop ingest --jobs N` spends after
the import. Exits 1 if a job count stores anything different or sends a request twice.

An entity's profile changes in session order, so an entity named in every session (the
diarist) makes one call per session one after the other: the floor printed is that
chain at the set latency, which no job count can beat without changing the result.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_common import warm_embedder

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

JOBS = (1, 2, 4, 8, 16)
CHAIN_SQL = (
    "SELECT e.name, count(DISTINCT t.session_id) AS n FROM mentions m JOIN turns t ON t.id = m.turn_id "
    "JOIN entities e ON e.id = m.entity_id GROUP BY e.name ORDER BY n DESC, e.name LIMIT 1"
)



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.3, help="seconds per model call")
    parser.add_argument("--slots", type=int, default=16, help="calls the server answers at once")
    parser.add_argument("--sessions", type=int, default=20, help="sessions of the generated diary")
    parser.add_argument("--jobs", type=int, nargs="+", default=list(JOBS), help="job counts, the first the baseline")
    args = parser.parse_args()

    from support.fake_openai import FakeOpenAI, rule_responder

    from memhop.core.bench.generator import generate_scenario
    from memhop.core.bench.ingest import ingest_parsed
    from memhop.core.config import OpenAISettings
    from memhop.core.engines.openai.engine import OpenAIEngine
    from memhop.core.store import memory, open_store
    from memhop.core.write import write_pending

    embedder = warm_embedder()
    scenario = generate_scenario(0, sessions=args.sessions)
    with tempfile.TemporaryDirectory() as tmp, FakeOpenAI(rule_responder, args.latency, args.slots) as server:
        raw = Path(tmp) / "raw.duckdb"
        with open_store(raw, embedder=embedder.name) as store:
            ingest_parsed(store, scenario.parsed, "scenario-0", embedder, self_name=scenario.diarist)
        print(f"scenario: {len(scenario.parsed.sessions)} sessions, {scenario.turns} turns; "
              f"server: {args.latency * 1000:.0f} ms a call, {args.slots} slots")
        baseline: tuple[Any, ...] | None = None
        first_wall = 0.0
        for jobs in args.jobs:
            copy = Path(tmp) / f"jobs{jobs}.duckdb"
            shutil.copyfile(raw, copy)
            server.reset()
            settings = OpenAISettings(base_url=server.base_url, model="bench-model", max_retries=0, concurrency=jobs)
            engine = OpenAIEngine(settings)
            with open_store(copy, embedder=embedder.name) as store:
                started = time.perf_counter()
                report = write_pending(store, engine, embedder)
                wall = time.perf_counter() - started
                result = memory.written(store)
            engine.close()
            if baseline is None:
                baseline, first_wall = result, wall
                with open_store(copy, embedder=embedder.name) as store:
                    name, chain = store.con.execute(CHAIN_SQL).fetchone() or ("", 0)
                floor = chain * args.latency
                print(f"floor: {name} is in {chain} sessions and its profile must change in session order: "
                      f">= {chain} calls one after the other = {floor:.1f} s, at best x{first_wall / floor:.1f}")
            same = "identical" if result == baseline else "DIFFERENT"
            requests = [str(body["messages"]) for body in server.requests]
            repeated = len(requests) - len(set(requests))
            print(f"--jobs {jobs:2d}: {wall:6.2f} s  x{first_wall / wall:4.1f}  {server.calls} calls "
                  f"({repeated} repeated, {report.sessions} sessions, {len(report.failures)} failed)  "
                  f"{len(result[0])} entities, {len(result[1])} facts: {same}")
            if report.failures or result != baseline or repeated:
                sys.exit(1)


if __name__ == "__main__":
    main()
