"""Every evidence retriever through the read path, on the purge world (99 turns of diary
and chats about Maya, Alice, Bob, Carol and Pepper): one ranking whatever the budget, the
time window respected, and each retriever's own stages doing what they say."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from memhop.core.config import ReadSettings
from memhop.core.embed import get_embedder
from memhop.core.errors import ConfigError
from memhop.core.read import Context, read
from memhop.core.retrievers import available, check_name
from memhop.core.store import Store, open_store
from memhop.core.store.recall import snapshot
from memhop.core.window import Window

QUESTIONS = (
    "What does Bob play?",
    "Where did Bob have an interview?",
    "What did Carol say about Pepper?",
    "What did I do at the weekend?",
    "Why was sprint planning long?",
)


@pytest.fixture
def store(purge_template: Path) -> Iterator[Store]:
    with open_store(purge_template, read_only=True) as opened:
        yield opened


def run(store: Store, question: str, retriever: str, evidence: int, window: Window | None = None) -> Context:
    options = replace(ReadSettings(), retriever=retriever, evidence=evidence)
    return read(store, question, get_embedder("minilm"), options, window)


def ids(context: Context) -> list[int]:
    return [e.turn.id for e in context.evidence]


@pytest.mark.parametrize("name", available())
def test_the_first_25_of_100_are_the_25(store: Store, name: str) -> None:
    for question in QUESTIONS:
        small, big = run(store, question, name, 25), run(store, question, name, 100)
        assert len(small.evidence) == 25 and len(set(ids(small))) == 25
        assert ids(big)[:25] == ids(small), (name, question)
        assert small.trace.retriever == big.trace.retriever == name and small.trace.retrieval


@pytest.mark.parametrize("name", available())
def test_only_turns_inside_the_time_window(store: Store, name: str) -> None:
    window = Window(date(2024, 3, 1), date(2024, 3, 31))
    context = run(store, "What did Bob do?", name, 10, window)
    assert context.evidence and all(window.contains(e.turn.timestamp) for e in context.evidence)


def test_graph_gates_by_the_named_entities_before_backfill(store: Store) -> None:
    context = run(store, "What did Carol say about Pepper?", "graph", 20)
    names = ("carol", "pepper")
    reasons = [e.pick.reason for e in context.evidence]
    assert reasons[0] == "entity + cosine"
    gated = [e for e in context.evidence if e.pick.reason == "entity + cosine"]
    assert gated and all(any(n in (e.turn.text + e.turn.speaker).lower() for n in names) for e in gated)
    assert "dense backfill" not in reasons[: len(gated)]  # the gated turns come first
    assert context.trace.retrieval[0].startswith("entity gating (Carol, Pepper)")


def test_evograph_expands_to_the_entities_named_with_the_question_s(store: Store) -> None:
    context = run(store, "What does Bob play?", "evograph", 99)
    stages = context.trace.retrieval
    assert stages[1].startswith("co-occurrence: ") and "Bob" not in stages[1].split(";")[0]
    reasons = [e.pick.reason for e in context.evidence]
    assert "entity" in reasons and "co-occurrence" in reasons  # both layers, reranked together by cosine
    first_other = reasons.index("dense backfill")  # candidates (both layers) before every other turn
    assert set(reasons[:first_other]) <= {"entity", "co-occurrence"}
    assert "entity" not in reasons[first_other:] and "co-occurrence" not in reasons[first_other:]


def test_fused_ranks_only_turns_its_parts_ranked(store: Store) -> None:
    question = "Where did Bob have an interview?"
    parts = {name: set(ids(run(store, question, name, 100))) for name in ("prograph", "graph", "evograph", "hero")}
    fused = run(store, question, "fused", 10)
    assert all(any(turn in part for part in parts.values()) for turn in ids(fused))
    assert [s.split(":")[0] for s in fused.trace.retrieval[:4]] == ["prograph", "graph", "evograph", "hero"]
    everything = len(snapshot(store).turns.ids)
    assert len(run(store, question, "fused", 500).evidence) == everything  # a budget past every turn: all, once


def test_an_unknown_retriever_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown retriever 'nonesuch'"):
        check_name("nonesuch")
    assert available()[0] == "prograph"
