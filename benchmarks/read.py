"""The read path's numbers: evidence recall on LoCoMo, warm latency at scale, cold start.

    .venv/bin/python benchmarks/read.py [--raw-only] [--skip-locomo] [--sizes 10000 100000]

(a) Evidence recall@10 and @25 on LoCoMo 26 and 30 (shared/data/locomo beside the checkout,
    or $MEMHOP_LOCOMO_DIR), categories 1-4:
    each conversation is ingested into a temporary store (raw turns, then the offline
    write path unless --raw-only); every question is read with --evidence 10 and 25;
    recall = share of the question's gold `evidence` dia_ids among the external ids of
    the evidence turns (core/bench/metrics.py, as `memhop bench` counts it), averaged over
    questions. Floor: R@25 >= 0.80. Also, for a rough idea of the offline answerer: token
    F1 against the gold answers (categories 1-4) and how often it says "I don't know" to
    the unanswerable category 5.
(b) Warm latency p50/p95 (nearest rank) of read() and of a whole ask() (read + offline
    answer) at 10k and 100k turns, on a real store grown as `memhop bench` grows its own
    (core/bench/scale.py): the sample diaries through the raw layer and the offline write
    path, then synthetic turns reusing a pool of sentences and their embeddings (plus
    noise), 1 entity per 100 turns with a profile, facts at the write path's rate. "Warm"
    = the same process has already answered one question (matrices cached, model
    loaded), as in `memhop ask -`.
(c) Wall time of one cold `memhop ask` subprocess per grown store.
Floor: warm p50 <= 100 ms at 100k turns.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from memhop.core.bench.metrics import percentile, recall_at, split_evidence, token_f1
from memhop.core.bench.scale import grow
from memhop.core.bench.sources import default_locomo_dir

SAMPLES = Path(__file__).resolve().parents[1] / "sample_diaries"
SELF = "Maya Patel"  # the sample diaries' owner
WORDS = """garden piano violin recital bakery studio nurse ward hospital flat street market coffee
train holiday beach mountain climbing painting pottery class support group concert guitar drums
band gig dinner lunch birthday party present poster headphones plant dog greyhound walk canal
vet practice kennels job interview engineer microphone cables session quartet budget recipe
dal lentils ginger promotion publishing fonts keys office sprint design redesign button colour
orchestra rehearsal scales vibrato festival camping hiking novel library museum exhibition""".split()


# -- (a) LoCoMo evidence recall ---------------------------------------------------------


def locomo_recall(raw_only: bool, budgets: tuple[int, ...] = (10, 25)) -> dict[str, float]:
    from memhop.core.config import ReadSettings
    from memhop.core.embed import get_embedder
    from memhop.core.engines.offline.engine import OfflineEngine
    from memhop.core.ingest import ingest
    from memhop.core.engines.offline.answer import reply_offline
    from memhop.core.read import ask, read
    from memhop.core.store import open_store

    embedder = get_embedder("minilm")
    recalls: dict[int, list[float]] = {k: [] for k in budgets}
    f1s: list[float] = []
    abstained: list[bool] = []
    by_category: dict[tuple[int, int], list[float]] = {}
    for name in ("26", "30"):
        path = default_locomo_dir() / f"{name}.json"
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
                        got = [e.turn.external_id for e in read(store, q["question"], embedder, options).evidence]
                        value = recall_at(got, split_evidence(q["evidence"]), k)
                        if value is None:  # no gold evidence
                            continue
                        recalls[k].append(value)
                        by_category.setdefault((k, q["category"]), []).append(value)
                for q in json.loads(path.read_text())["qa"]:
                    said = ask(store, q["question"], embedder, ReadSettings(), reply_offline).text
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


# -- (b, c) latency on a grown store ------------------------------------------------------


def base_store(path: Path) -> list[str]:
    """The sample diaries through the raw layer and the offline write path; returns
    questions about the people it now knows (each names one of them)."""
    from memhop.core.embed import get_embedder
    from memhop.core.engines.offline.engine import OfflineEngine
    from memhop.core.ingest import ingest
    from memhop.core.store import open_store
    from memhop.core.store.memory import registry

    pyrng = random.Random(7)
    with open_store(path) as store:
        ingest(store, [str(SAMPLES)], get_embedder("minilm"), self_name=SELF, engine=OfflineEngine())
        names = [e.name for e in registry(store) if e.name != SELF]
    templates = ["What does {a}'s friend like?", "Where does {a} work?", "What did {a} buy?",
                 "When did I talk about the {w} with {f}?", "What {w} does {a}'s colleague play?"]
    return [pyrng.choice(templates).format(a=pyrng.choice(names), f=pyrng.choice(names).split()[0],
                                           w=pyrng.choice(WORDS)) for _ in range(60)]


def sentence_pool(size: int = 400, seed: int = 7) -> tuple[list[str], np.ndarray]:
    """Diary-like sentences naming nobody, and their embeddings: what the grown turns reuse."""
    from memhop.core.embed import get_embedder

    pyrng = random.Random(seed)
    texts = [f"I talked about the {' '.join(pyrng.choice(WORDS) for _ in range(pyrng.randint(8, 20)))}."
             for _ in range(size)]
    return texts, get_embedder("minilm").embed(texts)


def grown_store(path: Path, base: Path, n_turns: int, texts: list[str], vectors: np.ndarray) -> None:
    """A copy of the base store grown to n_turns by `memhop bench`'s own grower."""
    from memhop.core.store import open_store

    shutil.copy(base, path)
    with open_store(path) as store:
        grow(store, texts, vectors, n_turns, SELF)


def warm_latency(path: Path, questions: list[str]) -> dict[str, float]:
    from memhop.core.config import ReadSettings
    from memhop.core.embed import get_embedder
    from memhop.core.engines.offline.answer import reply_offline
    from memhop.core.read import ask, read
    from memhop.core.store import open_store

    embedder = get_embedder("minilm")
    reads, asks = [], []
    with open_store(path, read_only=True) as store:
        started = time.perf_counter()
        ask(store, questions[0], embedder, ReadSettings(), reply_offline)  # the first, cold question
        first = time.perf_counter() - started
        for q in questions[1:]:
            t = time.perf_counter()
            read(store, q, embedder, ReadSettings())
            reads.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            ask(store, q, embedder, ReadSettings(), reply_offline)
            asks.append((time.perf_counter() - t) * 1000)
    return {"first question s": first, "read p50 ms": percentile(reads, 50), "read p95 ms": percentile(reads, 95),
            "ask p50 ms": percentile(asks, 50), "ask p95 ms": percentile(asks, 95)}


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
    if not args.sizes:
        return
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base.duckdb"
        questions = base_store(base)
        texts, vectors = sentence_pool()
        for size in args.sizes:
            path = Path(tmp) / f"grown-{size}.duckdb"
            started = time.perf_counter()
            grown_store(path, base, size, texts, vectors)
            print(f"(b) the sample diaries grown to {size} turns (in {time.perf_counter() - started:.0f}s)")
            for key, value in warm_latency(path, questions).items():
                print(f"  warm {key}: {value:.1f}")
            print(f"(c) cold `memhop ask` at {size} turns: {cold_ask(path, questions[1]):.2f}s wall")
            path.unlink()

if __name__ == "__main__":
    main()
