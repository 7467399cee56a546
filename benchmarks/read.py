"""The read path's numbers: evidence recall on LoCoMo, warm latency at scale, cold start.

    .venv/bin/python benchmarks/read.py [--raw-only] [--skip-locomo] [--sizes 10000 100000]

(a) Evidence recall@10 and @25 on ../shared/data/locomo/{26,30}.json, categories 1-4:
    each conversation is ingested into a temporary store (raw turns, then the offline
    write path unless --raw-only); every question is read with --evidence 10 and 25;
    recall = share of the question's gold `evidence` dia_ids among the external ids of
    the evidence turns, averaged over questions. Floor: R@25 >= 0.80. Also, for a rough
    idea of the offline answerer: token F1 against the gold answers (categories 1-4) and
    how often it says "I don't know" to the unanswerable category 5.
(b) Warm latency p50/p95 of read() and of a whole ask() (read + offline answer) at 10k and
    100k turns, on a synthetic store written straight through Arrow: realistic unit
    vectors (real sentence embeddings plus noise), a few hundred entities with profiles
    that name each other, residuals and mentions. "Warm" = the same process has already
    answered one question (matrices cached, model loaded), as in `memhop ask -`.
(c) Wall time of one cold `memhop ask` subprocess per synthetic store.
Floor: warm p50 <= 100 ms at 100k turns.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pyarrow as pa

REPO = Path(__file__).resolve().parents[1]
LOCOMO = REPO.parent / "shared" / "data" / "locomo"
WORDS = """garden piano violin recital bakery studio nurse ward hospital flat street market coffee
train holiday beach mountain climbing painting pottery class support group concert guitar drums
band gig dinner lunch birthday party present poster headphones plant dog greyhound walk canal
vet practice kennels job interview engineer microphone cables session quartet budget recipe
dal lentils ginger promotion publishing fonts keys office sprint design redesign button colour
orchestra rehearsal scales vibrato festival camping hiking novel library museum exhibition""".split()


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q)) if values else float("nan")


# -- (a) LoCoMo evidence recall ---------------------------------------------------------


def locomo_recall(raw_only: bool, budgets: tuple[int, ...] = (10, 25)) -> dict[str, float]:
    from memhop.core.bench.metrics import token_f1
    from memhop.core.config import ReadSettings
    from memhop.core.embed import get_embedder
    from memhop.core.engines.offline.engine import OfflineEngine
    from memhop.core.ingest import ingest
    from memhop.core.engines.offline.answer import answer_offline
    from memhop.core.read import ask, read
    from memhop.core.store import open_store

    embedder = get_embedder("minilm")
    recalls: dict[int, list[float]] = {k: [] for k in budgets}
    f1s: list[float] = []
    abstained: list[bool] = []
    by_category: dict[tuple[int, int], list[float]] = {}
    for name in ("26", "30"):
        path = LOCOMO / f"{name}.json"
        questions = [q for q in json.loads(path.read_text())["qa"] if q.get("category") in (1, 2, 3, 4)]
        with tempfile.TemporaryDirectory() as tmp:
            started = time.perf_counter()
            with open_store(Path(tmp) / "memhop.duckdb") as store:
                engine = None if raw_only else OfflineEngine()
                ingest(store, [str(path)], embedder, engine=engine)
                built = time.perf_counter() - started
                counts = store.counts()
                print(f"  {name}.json: {counts['turns']} turns, {counts['entities']} entities, "
                      f"{counts['residuals']} facts, built in {built:.0f}s; {len(questions)} questions")
                for k in budgets:
                    options = ReadSettings(evidence=k)
                    for q in questions:
                        gold = {g.strip() for e in q["evidence"] for g in str(e).split(";") if g.strip()}
                        if not gold:
                            continue
                        got = {e.turn.external_id for e in read(store, q["question"], embedder, options).evidence}
                        value = len(gold & got) / len(gold)
                        recalls[k].append(value)
                        by_category.setdefault((k, q["category"]), []).append(value)
                for q in json.loads(path.read_text())["qa"]:
                    said = ask(store, q["question"], embedder, ReadSettings(), answer_offline).text
                    if q.get("category") == 5:
                        abstained.append(said == "I don't know")
                    elif q.get("category") in (1, 2, 3, 4):
                        f1s.append(token_f1(said, str(q.get("answer", ""))))
    out = {f"R@{k}": float(np.mean(v)) for k, v in recalls.items()}
    out["offline answer token-F1, cat 1-4"] = float(np.mean(f1s))
    out["offline 'I don't know' on cat 5 (unanswerable)"] = float(np.mean(abstained))
    for (k, cat), values in sorted(by_category.items()):
        out[f"R@{k} cat{cat}"] = float(np.mean(values))
    return out


def _unit(m: np.ndarray) -> np.ndarray:
    return (m / np.linalg.norm(m, axis=1, keepdims=True)).astype(np.float32)


def build_synthetic(path: Path, n_turns: int, n_entities: int = 300, seed: int = 7) -> list[str]:
    """A store of n_turns turns written through Arrow; returns questions that fit it."""
    from memhop.core.embed import get_embedder
    from memhop.core.store import open_store
    from memhop.core.store.bulk import vectors_to_arrow

    rng = np.random.default_rng(seed)
    pyrng = random.Random(seed)
    embedder = get_embedder("minilm")
    names = [f"{first} {last}" for first, last in zip(
        (pyrng.choice("Ada Ben Cleo Dev Eli Fay Gus Hana Ivo Jun Kit Lena Milo Nia Otto Pia Quin Rui Sana Teo".split())
         + str(i) for i in range(n_entities)),
        (pyrng.choice("Smith Okafor Patel Nguyen Kowalski Silva Berg Novak".split()) for _ in range(n_entities)),
    )]
    texts = [" ".join(pyrng.choice(WORDS) for _ in range(pyrng.randint(8, 20))).capitalize() + "." for _ in range(400)]
    bases = embedder.embed(texts)
    sessions = max(1, n_turns // 20)
    start = datetime(2023, 1, 1)
    pick = rng.integers(0, len(texts), n_turns)
    turn_vectors = _unit(bases[pick] + 0.35 * rng.standard_normal((n_turns, 384)).astype(np.float32) / np.sqrt(384) * 8)
    session_of = np.sort(rng.integers(1, sessions + 1, n_turns))
    position = np.zeros(n_turns, dtype=np.int32)
    for i in range(1, n_turns):
        position[i] = position[i - 1] + 1 if session_of[i] == session_of[i - 1] else 0
    turn_texts = [f"{pyrng.choice(names).split()[0]} and I talked about {texts[p][:-1].lower()}." for p in pick]
    profiles = [
        f"{n} is {names[(i + 1) % n_entities]}'s {pyrng.choice(['friend', 'sister', 'colleague', 'neighbour'])}. "
        + " ".join(pyrng.choice(texts) for _ in range(3))
        + f" {n.split()[0]} often sees {names[(i + 7) % n_entities]}."
        for i, n in enumerate(names)
    ]
    residual_texts = [f"{n} {pyrng.choice(['plays', 'loves', 'bought', 'visited'])} the {pyrng.choice(WORDS)}."
                      for n in names for _ in range(10)]
    with open_store(path) as store, store.transaction():
        con = store.con
        con.execute("INSERT INTO sources VALUES (1, 'synthetic', 'synthetic', 'generic', NULL, now())")
        ses = pa.table({
            "id": pa.array(range(1, sessions + 1), pa.int32()),
            "source_id": pa.array([1] * sessions, pa.int32()),
            "external_id": pa.array([f"s{i}" for i in range(1, sessions + 1)]),
            "title": pa.array([None] * sessions, pa.string()),
            "started_at": pa.array([start + timedelta(days=i) for i in range(sessions)], pa.timestamp("us")),
            "self_name": pa.array(["Me"] * sessions),
            "written_at": pa.array([datetime.now()] * sessions, pa.timestamp("us")),
        })
        turns = pa.table({
            "id": pa.array(range(1, n_turns + 1), pa.int32()),
            "session_id": pa.array(session_of, pa.int32()),
            "position": pa.array(position, pa.int32()),
            "speaker": pa.array([pyrng.choice(["Me", names[0], names[1]]) for _ in range(n_turns)]),
            "ts": pa.array([start + timedelta(days=int(s)) for s in session_of], pa.timestamp("us")),
            "text": pa.array(turn_texts),
            "external_id": pa.array([f"T{i}" for i in range(1, n_turns + 1)]),
            "fingerprint": pa.array([f"fp{i}" for i in range(1, n_turns + 1)]),
            "embedding": vectors_to_arrow(turn_vectors),
        })
        ents = pa.table({
            "id": pa.array(range(1, n_entities + 1), pa.int32()),
            "name": pa.array(names),
            "kind": pa.array(["person"] * n_entities),
            "aliases": pa.array([[] for _ in names], pa.list_(pa.string())),
            "created_at": pa.array([datetime.now()] * n_entities, pa.timestamp("us")),
        })
        profs = pa.table({
            "entity_id": pa.array(range(1, n_entities + 1), pa.int32()),
            "text": pa.array(profiles),
            "embedding": vectors_to_arrow(embedder.embed(profiles)),
            "version": pa.array([1] * n_entities, pa.int32()),
            "updated_at": pa.array([datetime.now()] * n_entities, pa.timestamp("us")),
        })
        n_res = len(residual_texts)
        res = pa.table({
            "id": pa.array(range(1, n_res + 1), pa.int32()),
            "entity_id": pa.array([1 + i // 10 for i in range(n_res)], pa.int32()),
            "text": pa.array(residual_texts),
            "category": pa.array(["identity"] * n_res),
            "embedding": vectors_to_arrow(embedder.embed(residual_texts)),
            "source_turns": pa.array([[int(rng.integers(1, n_turns + 1))] for _ in range(n_res)], pa.list_(pa.int32())),
            "date": pa.array([None] * n_res, pa.date32()),
            "slot": pa.array([None] * n_res, pa.string()),
            "superseded_by": pa.array([None] * n_res, pa.int32()),
            "created_at": pa.array([datetime.now()] * n_res, pa.timestamp("us")),
        })
        mention_pairs = {(int(rng.integers(1, n_entities + 1)), int(t)) for t in rng.integers(1, n_turns + 1, n_turns // 2)}
        ment = pa.table({
            "entity_id": pa.array([e for e, _ in mention_pairs], pa.int32()),
            "turn_id": pa.array([t for _, t in mention_pairs], pa.int32()),
        })
        for table, data in (("sessions", ses), ("turns", turns), ("entities", ents), ("profiles", profs),
                            ("residuals", res), ("mentions", ment)):
            con.register("incoming", data)
            con.execute(f"INSERT INTO {table} SELECT * FROM incoming")
            con.unregister("incoming")
    templates = ["What does {a}'s friend like?", "Where does {a} work?", "What did {a} buy?",
                 "When did I talk about the {w} with {f}?", "What {w} does {a}'s colleague play?"]
    return [pyrng.choice(templates).format(a=pyrng.choice(names), f=pyrng.choice(names).split()[0], w=pyrng.choice(WORDS))
            for _ in range(60)]


def warm_latency(path: Path, questions: list[str]) -> dict[str, float]:
    from memhop.core.config import ReadSettings
    from memhop.core.embed import get_embedder
    from memhop.core.engines.offline.answer import answer_offline
    from memhop.core.read import ask, read
    from memhop.core.store import open_store

    embedder = get_embedder("minilm")
    reads, asks = [], []
    with open_store(path, read_only=True) as store:
        started = time.perf_counter()
        ask(store, questions[0], embedder, ReadSettings(), answer_offline)  # the first, cold question
        first = time.perf_counter() - started
        for q in questions[1:]:
            t = time.perf_counter()
            read(store, q, embedder, ReadSettings())
            reads.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            ask(store, q, embedder, ReadSettings(), answer_offline)
            asks.append((time.perf_counter() - t) * 1000)
    return {"first question s": first, "read p50 ms": pct(reads, 50), "read p95 ms": pct(reads, 95),
            "ask p50 ms": pct(asks, 50), "ask p95 ms": pct(asks, 95)}


def cold_ask(path: Path, question: str) -> float:
    memhop = Path(sys.executable).with_name("memhop")
    started = time.perf_counter()
    subprocess.run([str(memhop), "ask", question, "--db", str(path)], check=True, capture_output=True,
                   env={**os.environ, "MEMHOP_HOME": str(path.parent)})
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--raw-only", action="store_true", help="LoCoMo: raw turns only, no write path")
    parser.add_argument("--skip-locomo", action="store_true")
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000])
    args = parser.parse_args()
    print(f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}, cpus={os.cpu_count()}, "
          f"load={os.getloadavg()[0]:.1f}")
    if not args.skip_locomo:
        mode = "raw turns only" if args.raw_only else "raw turns + offline write path"
        print(f"(a) LoCoMo evidence recall, categories 1-4 ({mode})")
        for key, value in locomo_recall(args.raw_only).items():
            print(f"  {key}: {value:.3f}")
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "memhop.duckdb"
            started = time.perf_counter()
            questions = build_synthetic(path, size)
            print(f"(b) synthetic store, {size} turns (built in {time.perf_counter() - started:.0f}s)")
            for key, value in warm_latency(path, questions).items():
                print(f"  warm {key}: {value:.1f}")
            print(f"(c) cold `memhop ask` at {size} turns: {cold_ask(path, questions[1]):.2f}s wall")


if __name__ == "__main__":
    main()
