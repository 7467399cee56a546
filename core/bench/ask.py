"""Asking one benchmark source: every question to every system, scored.

Runs in a worker process (core/bench/jobs.py), so it returns plain data: the records, what
could not run, and the source's turns (texts and vectors) for the scale stage's pool.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from memhop.core.bench.baselines import DenseChunks, EntityGraph, FullContext, load_corpus
from memhop.core.bench.gap import GapRecord, rank_grid
from memhop.core.bench.metrics import Record, recall_at
from memhop.core.bench.sources import LOCOMO_HEADLINE, BenchSource, Spec
from memhop.core.bench.systems import MEMHOP_VARIANTS, MemhopSystem, TurnSystem
from memhop.core.config import Settings
from memhop.core.embed import Embedder
from memhop.core.engines.base import Engine
from memhop.core.language.names import match_registry
from memhop.core.model import AnswerRequest, Reply
from memhop.core.store import Store, open_store
from memhop.core.store.memory import registry


@dataclass
class AskOutcome:
    records: list[Record] = field(default_factory=list)
    unavailable: dict[str, str] = field(default_factory=dict)
    texts: list[str] = field(default_factory=list)  # the source's turns, for the scale stage
    vectors: np.ndarray | None = None
    gap: list[GapRecord] = field(default_factory=list)  # LoCoMo: the default's weights re-ranked (core/bench/gap.py)


class Answers:
    """The engine's answer call; if the engine cannot answer at all, every answer is None
    (reported as not available), never a made-up one."""

    def __init__(self, engine: Engine | None, outcome: AskOutcome) -> None:
        self.engine, self.outcome = engine, outcome

    def __call__(self, request: AnswerRequest) -> str | None:
        if self.engine is None:
            return None
        try:
            return Reply.of(self.engine.answer(request)).text
        except ImportError as exc:
            self.outcome.unavailable["answers"] = f"the {self.engine.name} answerer cannot run ({exc})"
            self.engine = None
            return None


def _answer_engine(settings: Settings) -> Engine | None:
    from memhop.core.engines import build_engine

    try:
        return build_engine(settings)
    except ImportError:
        return None


def ask_source(source: BenchSource, stores: dict[str, Path], settings: Settings, wrote: bool) -> AskOutcome:
    """memhop's systems only if its stores were written; the baselines always. Questions are
    embedded with the embedder the stores record (the one the bench ingested them with)."""
    from memhop.core.embed import get_embedder

    opened = {v: open_store(p, read_only=True) for v, p in stores.items()}
    try:
        return _ask(source, opened, settings, get_embedder(opened["full"].embedder_setting), wrote)
    finally:
        for store in opened.values():
            store.close()


def _ask(source: BenchSource, stores: dict[str, Store], settings: Settings, embedder: Embedder,
         wrote: bool) -> AskOutcome:
    outcome = AskOutcome()
    answer = Answers(_answer_engine(settings), outcome)
    corpus = load_corpus(stores["full"])
    outcome.texts, outcome.vectors = list(corpus.texts), corpus.vectors
    systems: list[MemhopSystem | TurnSystem] = []
    if wrote:
        systems += [MemhopSystem(n, stores["profile-only" if n == "profile-only-write" else "full"], embedder,
                                 settings.read, answer) for n in MEMHOP_VARIANTS]
    systems += [
        TurnSystem(DenseChunks(corpus, embedder), corpus, answer),
        TurnSystem(EntityGraph.from_store(stores["full"], corpus, embedder), corpus, answer),
        TurnSystem(FullContext(corpus), corpus, answer, everything=True),
    ]
    known = [(e.name, e.aliases) for e in registry(stores["full"])]
    vectors = embedder.embed([q.text for q in source.questions])
    for q, qvec in zip(source.questions, vectors):
        for system in systems:
            got = system.respond(q.text, qvec)
            reached, broke = reach(q, got.selected, got.at10, known, isinstance(system, MemhopSystem))
            by_turns = reach(q, got.selected, got.at10, known, False)[0]
            outcome.records.append(Record(
                source.dataset, source.name, system.name, q.qid, q.group, q.text, q.gold, got.answer,
                recall_at(got.at10, q.evidence, len(got.at10)), recall_at(got.at25, q.evidence, len(got.at25)),
                reached, broke, got.context_tokens, got.seconds, len(got.selected), by_turns,
            ))
    if wrote and source.dataset == "locomo":
        outcome.gap = _gap(source, stores["full"], settings, embedder)
    return outcome


def _gap(source: BenchSource, store: Store, settings: Settings, embedder: Embedder) -> list[GapRecord]:
    """The LoCoMo questions (categories 1–4) re-ranked at every grid point of the default's weights."""
    from memhop.core.read import evidence_query
    from memhop.core.store.recall import snapshot

    turns = snapshot(store).turns
    asked = [(q.qid, evidence_query(store, q.text, embedder, settings.read), q.evidence)
             for q in source.questions if q.group in LOCOMO_HEADLINE and q.evidence]
    return rank_grid(source.name, asked, lambda rows: [r.external_id for r in turns.records(rows)])


def reach(q: Spec, selected: Sequence[str], turns: Sequence[str | None], known: list[tuple[str, tuple[str, ...]]],
          by_entity: bool) -> tuple[bool | None, int | None]:
    """Did the context carry each hop? memhop: the hop's entity is selected (its profile and
    facts were read); raw-turn systems: one of the hop's gold turns is among the evidence."""
    if not q.chain:
        return None, None
    if by_entity:
        chosen = set(selected)
        present = [match_registry(name, known) in chosen for name in q.chain]
    else:
        given = set(turns)
        present = [bool(given & set(ev)) for ev in q.hop_evidence]
    broke = next((i + 1 for i, ok in enumerate(present) if not ok), None)
    return present[-1], broke
