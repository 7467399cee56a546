"""Speed at scale: a real benchmark store grown to 10k / 100k / 1M turns with synthetic
turns, entities, profiles and facts written in bulk through Arrow, then asked its own
questions.

Each size takes three fresh processes (`python -m memhop.core.bench.scale build|measure|recall`):
one grows the store (and builds its derived vectors and ANN index, as ingest would), one
asks, so the asking one's peak RSS is its own, and one compares the approximate path's
evidence with exact search's.
Synthetic turns reuse real diary sentences and their embeddings (plus a little noise),
never ones naming the base scenario's entities, so the base questions keep one answer.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from memhop.core.importers.base import ParsedSource, Session, Turn
from memhop.core.store import Store, memory, open_store, raw
from memhop.core.store import vectors as derived
from memhop.core.store.bulk import bulk_insert

if TYPE_CHECKING:
    from memhop.core.config import Settings
    from memhop.core.embed import Embedder
    from memhop.core.model import AnswerRequest, Reply

CHUNK_TURNS = 50_000
TURNS_PER_SESSION = 12
TURNS_PER_ENTITY = 100  # synthetic people: 1 per 100 turns
NOISE = 0.02  # per-dimension noise on reused embeddings (cosine to the original ≈ 0.93)
_SYLLABLES = ("ka", "lo", "mi", "ren", "tos", "vul", "zan", "dor", "pel", "quin", "sha", "bri", "ix", "morv", "tel")


@dataclass
class ScalePoint:
    turns: int
    build_seconds: float
    db_mb: float
    entities: int
    residuals: int
    warm_p50_ms: float | None
    warm_p95_ms: float | None
    cores_p50_ms: float | None  # the same asks with BLAS on every core (numpy's default in a caller's own process)
    cores_p95_ms: float | None
    cold_seconds: float | None
    peak_rss_mb: float
    em: float | None  # exact match on the base scenario's questions at this size
    asks: int
    note: str = ""
    index_seconds: float | None = None  # building the derived vectors and ANN index (None: exact search, no index)
    index_mb: float | None = None
    recall25: float | None = None  # evidence@25 of the approximate path, as a share of exact search's


def _noisy(vectors: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    out = vectors + rng.normal(0.0, NOISE, vectors.shape).astype(np.float32)
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    return out.astype(np.float32)


def _names(count: int, rng: np.random.Generator) -> list[str]:
    names: dict[str, None] = {}
    while len(names) < count:
        parts = rng.choice(len(_SYLLABLES), size=(count, 3))
        for p in parts:
            first = "".join(_SYLLABLES[i] for i in p[:2]).capitalize()
            names.setdefault(f"{first}{len(names)} {_SYLLABLES[p[2]].capitalize()}", None)
    return list(names)[:count]


def grow(store: Store, texts: list[str], vectors: np.ndarray, target: int, self_name: str, seed: int = 0) -> None:
    """Add synthetic turns until the store holds `target`, and memory layers in proportion:
    1 entity per 100 turns and as many facts per turn as the real write path produced."""
    rng = np.random.default_rng(seed)
    counts = store.counts()
    have = counts["turns"]
    ratio = counts["residuals"] / max(have, 1)
    start = datetime(2010, 1, 1)
    first_turn = store.next_id("turns")
    chunk = 0
    while have < target:
        n = min(CHUNK_TURNS, target - have)
        picks = rng.integers(0, len(texts), n)
        sessions = []
        for s in range(0, n, TURNS_PER_SESSION):
            day = start + timedelta(days=(have + s) // TURNS_PER_SESSION)
            rows = picks[s : s + TURNS_PER_SESSION]
            turns = tuple(Turn(self_name, texts[r], day + timedelta(minutes=i), f"X{have + s + i}") for i, r in enumerate(rows))
            sessions.append(Session(f"synthetic-{have + s}", turns, started_at=day))
        parsed = ParsedSource("synthetic", tuple(sessions), owner=self_name)
        batches = raw.new_turns(store, parsed)
        with store.transaction():
            raw.insert_source(store, f"synthetic-{chunk}", f"synthetic-{seed}-{chunk}-{have}", parsed, batches,
                              _noisy(vectors[picks], rng), self_name)
        have += n
        chunk += 1
    last_turn = store.next_id("turns") - 1
    if last_turn >= first_turn:
        _grow_memory(store, texts, vectors, first_turn, last_turn, ratio, rng)


def _grow_memory(store: Store, texts: list[str], vectors: np.ndarray, first: int, last: int, ratio: float,
                 rng: np.random.Generator) -> None:
    added = last - first + 1
    n_ent = max(1, added // TURNS_PER_ENTITY)
    n_res = int(added * ratio)
    now = datetime.now()
    ent0, res0 = store.next_id("entities"), store.next_id("residuals")
    ent_ids = np.arange(ent0, ent0 + n_ent, dtype=np.int32)
    names = _names(n_ent, rng)
    profile_rows = rng.integers(0, len(texts), (n_ent, 3))
    profile_vecs = vectors[profile_rows].mean(axis=1)
    owners = rng.integers(0, n_ent, n_res)
    sources = rng.integers(first, last + 1, n_res).astype(np.int32)
    res_rows = rng.integers(0, len(texts), n_res)
    with store.transaction():
        bulk_insert(store, "entities", {
            "id": ent_ids, "name": names, "kind": ["person"] * n_ent, "aliases": [[] for _ in range(n_ent)],
            "created_at": [now] * n_ent,
        })
        bulk_insert(store, "profiles", {
            "entity_id": ent_ids,
            "text": [f"{n}. " + " ".join(texts[r] for r in rows) for n, rows in zip(names, profile_rows)],
            "embedding": _noisy(profile_vecs, rng), "version": [1] * n_ent, "updated_at": [now] * n_ent,
        })
        bulk_insert(store, "residuals", {
            "id": np.arange(res0, res0 + n_res, dtype=np.int32), "entity_id": ent_ids[owners],
            "text": [f"{names[o]}: {texts[r]}" for o, r in zip(owners, res_rows)],
            "category": ["cross_entity"] * n_res, "embedding": _noisy(vectors[res_rows], rng),
            "source_turns": [[int(s)] for s in sources], "date": [None] * n_res, "slot": [None] * n_res,
            "superseded_by": [None] * n_res, "created_at": [now] * n_res,
        })
        bulk_insert(store, "mentions", {"entity_id": ent_ids[owners], "turn_id": sources}, skip_duplicates=True)
        memory.mark_all_written(store)


def build(spec: dict[str, object]) -> dict[str, object]:
    """Child process 1: a copy of the base store grown to the size asked."""
    import shutil

    db, target = Path(str(spec["db"])), int(str(spec["turns"]))
    pool = np.load(str(spec["pool"]))
    texts = json.loads(Path(str(spec["texts"])).read_text(encoding="utf-8"))
    shutil.copy(str(spec["base"]), db)
    started = time.perf_counter()
    with open_store(db) as store:
        grow(store, texts, pool["vectors"], target, str(spec["self_name"]))
        store.checkpoint()
        counts = store.counts()
        built = time.perf_counter() - started
        index_seconds = derived.refresh(store)  # what ingest does at the end
    folder = derived.directory(db)
    index_mb = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6 if folder.is_dir() else None
    return {"turns": counts["turns"], "build_seconds": round(built, 2),
            "db_mb": round(db.stat().st_size / 1e6, 1), "entities": counts["entities"],
            "residuals": counts["residuals"], "index_seconds": round(index_seconds, 2) if index_mb else None,
            "index_mb": round(index_mb, 1) if index_mb is not None else None}


def recall(spec: dict[str, object]) -> dict[str, object]:
    """Child process 3: the evidence@25 of each base question through the approximate path
    and through exact search over the same store (every vector in memory, as below the
    ANN threshold); the mean share of the exact turns the approximate path also returns."""
    from dataclasses import replace

    from memhop.core.config import load_settings
    from memhop.core.embed import get_embedder
    from memhop.core.read import read
    from memhop.core.store.recall import kept_whole

    db = Path(str(spec["db"]))
    settings = load_settings(db=db, engine=str(spec["engine"]))
    options = replace(settings.read, evidence=25)
    questions: list[dict[str, str]] = list(spec["questions"])  # type: ignore[call-overload]
    with open_store(db, read_only=True) as store:  # read with the embedder it records
        embedder = get_embedder(store.embedder_setting)
        if derived.load(store, build=False) is None:
            return {"recall25": None}
        approx = [[e.turn.id for e in read(store, q["text"], embedder, options).evidence] for q in questions]
    with kept_whole(), open_store(db, read_only=True) as store:  # every turn in memory: exact search
        exact = [[e.turn.id for e in read(store, q["text"], embedder, options).evidence] for q in questions]
    shares = [len(set(a) & set(e)) / len(e) for a, e in zip(approx, exact) if e]
    return {"recall25": round(sum(shares) / len(shares), 4) if shares else None}


def measure(spec: dict[str, object]) -> dict[str, object]:
    """Child process 2: warm asks, then a cold `memhop ask`; its peak RSS is what asking
    this store costs (the build's memory stayed in child 1). The warm asks run as every
    asking memhop process runs them (BLAS on one thread, see `_child`)."""
    from memhop.core.bench.metrics import percentile

    latencies, hits = _warm_asks(spec)
    rss = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    db = Path(str(spec["db"]))
    cold, note = _cold_start(db, spec["questions"][0]["text"], str(spec["engine"]))  # type: ignore[index]
    return {
        "warm_p50_ms": round(percentile(latencies, 50), 1), "warm_p95_ms": round(percentile(latencies, 95), 1),
        "cold_seconds": cold, "peak_rss_mb": rss, "em": sum(hits) / len(hits) if hits else None,
        "asks": len(latencies), "note": note,
    }


def cores(spec: dict[str, object]) -> dict[str, object]:
    """Child process 3: the same warm asks with BLAS on every core (numpy's default in a
    process that sets nothing). A process of its own, so it starts from the same caches
    as `measure`'s asks instead of reusing the rows they read."""
    from memhop.core.bench.metrics import percentile

    latencies, _ = _warm_asks(spec)
    return {"cores_p50_ms": round(percentile(latencies, 50), 1), "cores_p95_ms": round(percentile(latencies, 95), 1)}


def _warm_asks(spec: dict[str, object]) -> tuple[list[float], list[bool]]:
    """One ask to load the matrices and models, then each question once, timed."""
    from memhop.core.config import load_settings
    from memhop.core.embed import get_embedder
    from memhop.core.engines import build_engine
    from memhop.core.read import ask

    db = Path(str(spec["db"]))
    settings = load_settings(db=db, engine=str(spec["engine"]))
    answer = build_engine(settings).answer
    questions: list[dict[str, str]] = list(spec["questions"])  # type: ignore[call-overload]
    with open_store(db, read_only=True) as store:  # read with the embedder it records
        embedder = get_embedder(store.embedder_setting)
        ask(store, questions[0]["text"], embedder, settings.read, answer)  # warm: load the matrices once
        if settings.engine == "offline":  # and the parser, which a plain question no longer loads
            from memhop.core.engines.offline.nlp import load_nlp

            load_nlp()
        return _timed(store, questions, embedder, settings, answer)


def _timed(store: Store, questions: list[dict[str, str]], embedder: Embedder, settings: Settings,
           answer: Callable[[AnswerRequest], str | Reply]) -> tuple[list[float], list[bool]]:
    """Milliseconds per `ask` (read + answer) and whether each answer matched exactly."""
    from memhop.core.bench.metrics import exact_match
    from memhop.core.read import ask

    latencies, hits = [], []
    for q in questions:
        clock = time.perf_counter()
        got = ask(store, q["text"], embedder, settings.read, answer)
        latencies.append((time.perf_counter() - clock) * 1000)
        hits.append(exact_match(got.text, q["answer"]))
    return latencies, hits


def _cold_start(db: Path, question: str, engine: str) -> tuple[float | None, str]:
    """Wall time of a fresh `memhop ask` process: imports, model load, store open, answer."""
    clock = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "memhop", "ask", question, "--db", str(db), "--engine", engine, "--json"],
        capture_output=True, text=True, check=False,
    )
    seconds = round(time.perf_counter() - clock, 2)
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return None, f"cold start not available: `memhop ask` exited {done.returncode} ({tail[:120]})"
    return seconds, ""


def run_scale(
    sizes: list[int], base: Path, texts: list[str], vectors: np.ndarray, questions: list[dict[str, str]],
    self_name: str, engine: str, workdir: Path,
) -> list[ScalePoint]:
    """One child process per size; a size that fails is reported as failed, not skipped silently."""
    (workdir / "pool.json").write_text(json.dumps(texts), encoding="utf-8")
    np.savez(workdir / "pool.npz", vectors=vectors)
    points = []
    for size in sizes:
        db = workdir / f"scale-{size}.duckdb"
        spec = {"db": str(db), "turns": size, "base": str(base), "pool": str(workdir / "pool.npz"),
                "texts": str(workdir / "pool.json"), "questions": questions, "self_name": self_name, "engine": engine}
        try:
            points.append(ScalePoint(**_child("build", spec), **_child("measure", spec),
                                     **_child("cores", spec, blas_threads=os.cpu_count() or 1), **_child("recall", spec)))
        except ScaleFailed as exc:
            points.append(ScalePoint(size, 0.0, 0.0, 0, 0, None, None, None, None, None, 0.0, None, 0, f"failed: {exc}"))
        finally:
            db.unlink(missing_ok=True)
            db.with_name(db.name + ".wal").unlink(missing_ok=True)
            derived.discard(db)
    return points


class ScaleFailed(Exception):
    """A child process of the scale stage failed; its last stderr line says why."""


def _child(step: str, spec: dict[str, object], blas_threads: int | None = None) -> dict[str, Any]:
    """One step in a fresh process, with BLAS on one thread as `memhop ask` (and `ask -`,
    serve, search) sets it before numpy loads: a question is a few small matrix products,
    and on two cores OpenBLAS's second thread, spinning after each product, takes the core
    ONNX Runtime's and DuckDB's threads wait for (a warm ask at 100k turns: 83 ms against
    41 on a quiet machine)."""
    threads = str(blas_threads) if blas_threads else os.environ.get("OPENBLAS_NUM_THREADS", "1")
    env = {**os.environ, "OPENBLAS_NUM_THREADS": threads}
    done = subprocess.run([sys.executable, "-m", "memhop.core.bench.scale", step, json.dumps(spec)],
                          capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise ScaleFailed(f"{step}: {tail[:200]}")
    loaded: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return loaded


if __name__ == "__main__":
    steps = {"build": build, "measure": measure, "cores": cores, "recall": recall}
    print(json.dumps(steps[sys.argv[1]](json.loads(sys.argv[2]))))
