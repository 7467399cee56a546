"""Every system of the benchmark behind one interface: a question in, the evidence at
budgets 10 and 25, what the answerer was given, and what it answered.

memhop and its read-time ablations go through the public read path (core/read.py) with
knob overrides; the baselines rank raw turns (core/bench/baselines.py) and hand them to
the same answerer, so answer quality differences come from retrieval alone.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np

from memhop.core.bench.baselines import Corpus, tokens
from memhop.core.config import ReadSettings
from memhop.core.embed import Embedder
from memhop.core.engines.base import Engine
from memhop.core.model import (
    AnswerRequest,
    ExistingResidual,
    Extraction,
    FoundEntity,
    KnownEntity,
    Reply,
    SessionView,
)
from memhop.core.store import Store

BUDGETS = (10, 25)
Answerer = Callable[[AnswerRequest], "str | None"]

# name -> read-time knob overrides; "profile-only" reads a store written without residuals.
MEMHOP_VARIANTS: dict[str, dict[str, object]] = {
    "memhop": {},
    "no-expansion": {"expand": False},
    "1-hop": {"hops": 1},
    "no-facts-read": {"residuals": False},
    "profile-only-write": {},
    # the other evidence retrievers (core/retrievers), each through the whole read path
    "graph": {"retriever": "graph"},
    "evograph": {"retriever": "evograph"},
    "fused": {"retriever": "fused"},
    "hero": {"retriever": "hero"},
}
RETRIEVER_SYSTEMS = {"memhop": "prograph", "graph": "graph", "evograph": "evograph", "fused": "fused", "hero": "hero"}
BASELINES = ("dense-chunks", "em-graph", "full-context")
SYSTEMS = (*MEMHOP_VARIANTS, *BASELINES)  # every system, in the report's order


@dataclass(frozen=True)
class Response:
    at10: tuple[str | None, ...]  # external ids of the evidence at budget 10, in order
    at25: tuple[str | None, ...]
    selected: tuple[str, ...]  # entities whose profile and facts the answerer saw (memhop only)
    answer: str | None
    context_tokens: int
    seconds: float  # retrieval at budget 10 plus the answer


def request_tokens(request: AnswerRequest) -> int:
    text = [request.question]
    for s in request.slices:
        text += [s.name, s.profile, *s.facts]
    text += [f"{t.speaker}: {t.text}" for t in request.evidence]
    return sum(tokens(t) for t in text)


class MemhopSystem:
    """The read path with some knobs overridden."""

    def __init__(self, name: str, store: Store, embedder: Embedder, options: ReadSettings, answer: Answerer | None) -> None:
        self.name, self.store, self.embedder, self.answer = name, store, embedder, answer
        self.options = replace(options, **MEMHOP_VARIANTS.get(name, {}))  # type: ignore[arg-type]

    def respond(self, question: str, qvec: np.ndarray) -> Response:
        from memhop.core.read import read

        started = time.perf_counter()
        ctx = read(self.store, question, self.embedder, replace(self.options, evidence=BUDGETS[0]))
        request = ctx.request()
        answer = self.answer(request) if self.answer else None
        seconds = time.perf_counter() - started
        wide = read(self.store, question, self.embedder, replace(self.options, evidence=BUDGETS[1]))
        return Response(
            tuple(e.turn.external_id for e in ctx.evidence),
            tuple(e.turn.external_id for e in wide.evidence),
            tuple(s.name for s in ctx.selected),
            answer,
            request_tokens(request),
            seconds,
        )


class Ranker(Protocol):
    name: str

    def rank(self, question: str, qvec: np.ndarray, k: int) -> list[int]: ...


class TurnSystem:
    """A raw-turn baseline: ranked turns, the first 10 given to the answerer."""

    def __init__(self, ranker: Ranker, corpus: Corpus, answer: Answerer | None, everything: bool = False) -> None:
        self.name, self.ranker, self.corpus, self.answer = ranker.name, ranker, corpus, answer
        self.everything = everything  # full context: every turn at every budget

    def respond(self, question: str, qvec: np.ndarray) -> Response:
        started = time.perf_counter()
        rows10 = self.ranker.rank(question, qvec, BUDGETS[0])
        request = AnswerRequest(question, (), tuple(self.corpus.view(r) for r in rows10))
        answer = self.answer(request) if self.answer else None
        seconds = time.perf_counter() - started
        rows25 = rows10 if self.everything else self.ranker.rank(question, qvec, BUDGETS[1])
        ext = self.corpus.external
        return Response(
            tuple(ext[r] for r in rows10), tuple(ext[r] for r in rows25), (), answer, request_tokens(request), seconds
        )


class ProfileOnly:
    """An engine with its residuals dropped: the profile-only write ablation (same profiles,
    same calls, no verified facts stored)."""

    def __init__(self, inner: Engine) -> None:
        self.inner = inner
        self.name = f"{inner.name}, profile only"
        self.usage = inner.usage

    def identify(self, session: SessionView, known: Sequence[KnownEntity]) -> list[FoundEntity]:
        return self.inner.identify(session, known)

    def coextract(
        self, entity: FoundEntity, profile: str | None, existing: Sequence[ExistingResidual], session: SessionView
    ) -> Extraction:
        return replace(self.inner.coextract(entity, profile, existing, session), residuals=(), supersedes=())

    def answer(self, request: AnswerRequest) -> str | Reply:
        return self.inner.answer(request)
