"""Speed and shape of the offline engine's write path, without the store.

    .venv/bin/python benchmarks/write_offline.py [path/to/locomo/26.json]

Runs identify + coextract over every session in order, feeding profiles, residuals and
the registry forward as core/write.py does, then embeds the profiles and residuals each
session produced (MiniLM, when core/embed.py is there) and drops residuals within cosine
0.9 of an earlier one of the same entity. Prints turns/s for the engine alone and for
engine + embedding, entities per session and residuals per entity.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
DEFAULT = REPO.parent / "shared" / "data" / "locomo" / "26.json"
DEDUP = 0.9


def sessions_of(path: Path, self_name: str | None) -> list[object]:
    from memhop.core.engines.base import SessionView, TurnView
    from memhop.core.importers import parse_source

    parsed = parse_source(path.read_bytes(), path.name, self_name=self_name)
    views, next_id = [], 1
    for number, session in enumerate(parsed.sessions, start=1):
        turns = []
        for turn in session.turns:
            turns.append(TurnView(next_id, turn.speaker, turn.text, turn.timestamp, turn.external_id))
            next_id += 1
        views.append(SessionView(number, session.started_at, self_name, tuple(turns)))
    return views


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    from memhop.core.engines.base import ExistingResidual, KnownEntity
    from memhop.core.engines.nlp import load_nlp
    from memhop.core.engines.offline import OfflineEngine

    try:
        from memhop.core.embed import get_embedder

        embedder = get_embedder("minilm")
        embedder.embed(["warm up"])
    except ImportError:
        embedder = None

    started = time.perf_counter()
    load_nlp()
    print(f"spaCy load          : {time.perf_counter() - started:.2f}s (once per process, not counted below)")

    views = sessions_of(source, None)
    turns = sum(len(v.turns) for v in views)  # type: ignore[attr-defined]
    engine = OfflineEngine()
    registry: dict[str, KnownEntity] = {}
    profiles: dict[str, str] = {}
    residuals: dict[str, list[tuple[int, object]]] = defaultdict(list)
    vectors: dict[str, list[np.ndarray]] = defaultdict(list)
    per_session: list[int] = []
    per_entity_session: list[int] = []
    engine_seconds = embed_seconds = engine_cpu = embed_cpu = 0.0
    kept = dropped = superseded = next_id = 0
    embedded_texts = embedded_words = 0
    for view in views:
        t0, c0 = time.perf_counter(), time.process_time()
        found = engine.identify(view, list(registry.values()))  # type: ignore[arg-type]
        outputs = []
        for entity in found:
            known = registry.get(entity.name)
            aliases = tuple(sorted({*(known.aliases if known else ()), *entity.aliases}))
            registry[entity.name] = KnownEntity(known.id if known else len(registry) + 1, entity.name,
                                                known.kind if known else entity.kind, aliases)
            existing = [ExistingResidual(i, r.text, r.category, r.slot, r.date) for i, r in residuals[entity.name]]
            out = engine.coextract(entity, profiles.get(entity.name), existing, view)  # type: ignore[arg-type]
            profiles[entity.name] = out.profile
            superseded += len(out.supersedes)
            outputs.append((entity.name, out))
            per_entity_session.append(len(out.residuals))
        engine_seconds += time.perf_counter() - t0
        engine_cpu += time.process_time() - c0
        per_session.append(len(found))
        t1, c1 = time.perf_counter(), time.process_time()
        texts = [out.profile for _, out in outputs] + [r.text for _, out in outputs for r in out.residuals]
        embedded_texts += len(texts)
        embedded_words += sum(len(t.split()) for t in texts)
        matrix = embedder.embed(texts) if embedder is not None and texts else None
        row = len(outputs)
        for name, out in outputs:
            for draft in out.residuals:
                vec = matrix[row] if matrix is not None else None
                row += 1
                if vec is not None and vectors[name] and float(np.max(np.stack(vectors[name]) @ vec)) > DEDUP:
                    dropped += 1
                    continue
                if vec is not None:
                    vectors[name].append(vec)
                next_id += 1
                residuals[name].append((next_id, draft))
                kept += 1
        embed_seconds += time.perf_counter() - t1
        embed_cpu += time.process_time() - c1

    total = engine_seconds + embed_seconds
    print(f"source              : {source.name}: {len(views)} sessions, {turns} turns")
    # CPU seconds as well as wall seconds: on a shared machine the wall clock measures the
    # neighbours; the engine is single-threaded, so its CPU time is what an idle box would take.
    print(f"engine (identify+coextract): {engine_seconds:.2f}s wall, {engine_cpu:.2f}s CPU = "
          f"{turns / engine_seconds:.0f} turns/s wall, {turns / engine_cpu:.0f} per CPU-s; {engine.usage.calls} calls")
    if embedder is not None:
        print(f"embedding           : {embed_seconds:.2f}s wall, {embed_cpu:.2f}s CPU (all threads) for "
              f"{embedded_texts} profiles + residuals ({embedded_words} words)")
        print(f"write path total    : {total:.2f}s = {turns / total:.0f} turns/s wall (floor: 50)")
    print(f"entities per session: mean {statistics.mean(per_session):.1f}, max {max(per_session)}; "
          f"registry {len(registry)}: {', '.join(sorted(registry))}")
    print(f"residuals per entity per session: mean {statistics.mean(per_entity_session):.1f}, "
          f"max {max(per_entity_session)}")
    print(f"residuals kept {kept}, dropped as near-duplicates {dropped}, supersedes {superseded}; "
          f"per entity: mean {kept / max(len(residuals), 1):.1f}")


if __name__ == "__main__":
    main()
