"""The raw-turn layer (the default `prograph` retriever): the turns the verified facts came
from and their neighbours in the same session, then backfill over every turn, within the
budget; the fact turns lead and take a quarter of it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from memhop.core.config import ReadSettings
from memhop.core.embed import get_embedder
from memhop.core.model import ResidualDraft
from memhop.core.evidence import NEIGHBOUR_SHARE, backfill
from memhop.core.ingest import ingest
from memhop.core.read import Context, read
from memhop.core.store import Store, open_store
from memhop.core.store import memory
from memhop.core.store.recall import snapshot

DIARY = """# 2024-01-05

We planned the trip to Anglesey over tea.

The ferry to Dublin leaves from Holyhead at nine.

Bought oat milk on the way home.

# 2024-01-06

Went to the climbing wall with Sam after work.

Sam finally sent the orange route, first try.

# 2024-01-07

Quiet day. Read a novel about lighthouses.

Cooked a big pot of chilli for the week.
"""
FACT = "Sam climbed the orange route at the climbing wall."


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("evidence")
    (root / "diary.md").write_text(DIARY, encoding="utf-8")
    path = root / "memhop.duckdb"
    embedder = get_embedder("minilm")
    with open_store(path) as store:
        ingest(store, [str(root / "diary.md")], embedder, self_name="Jo")
        source = store.scalar("SELECT id FROM turns WHERE text LIKE 'Sam finally%'")
        with store.transaction():
            sam = memory.add_entity(store, "Sam", "person")
            profile = "Sam is Jo's climbing partner."
            memory.put_profile(store, sam, profile, embedder.embed([profile])[0])
            memory.insert_residuals(store, sam, [ResidualDraft(FACT, "cross_entity", (int(source),))], embedder.embed([FACT]))
    return path


@pytest.fixture
def store(db: Path) -> Iterator[Store]:
    with open_store(db, read_only=True) as opened:
        yield opened


def run(store: Store, question: str, **options: object) -> Context:
    return read(store, question, get_embedder("minilm"), replace(ReadSettings(), **options))


def test_fact_sources_come_first_then_their_session_neighbours(store: Store) -> None:
    context = run(store, "What did Sam climb?", evidence=6)
    picks = context.trace.evidence
    texts = [e.turn.text for e in context.evidence]
    assert picks[0].reason == "fact source" and texts[0].startswith("Sam finally sent")
    assert picks[1].reason == "neighbour" and texts[1].startswith("Went to the climbing wall")
    assert picks[1].via == f"turn {picks[0].turn_id}"
    assert len(texts) == 6 and len(set(texts)) == 6


def test_the_budget_is_the_number_of_turns_given(store: Store) -> None:
    assert len(run(store, "What did Sam climb?", evidence=2).evidence) == 2
    assert run(store, "What did Sam climb?", evidence=0).evidence == ()
    assert len(run(store, "What did Sam climb?", evidence=50).evidence) == 7  # every turn, once


def test_backfill_finds_the_turn_by_its_words(store: Store) -> None:
    context = run(store, "Where does the ferry to Dublin leave from?", evidence=1, residuals=False)
    (only,) = context.evidence
    assert "Holyhead" in only.turn.text and only.pick.reason == "dense"


def test_evidence_rows_carry_their_provenance(store: Store) -> None:
    (first, *_) = run(store, "Where does the ferry to Dublin leave from?", evidence=3).evidence
    assert first.turn.session == "2024-01-05" and first.turn.speaker == "Jo"
    assert first.turn.timestamp is not None and first.turn.timestamp.date().isoformat() == "2024-01-05"
    assert first.turn.external_id == first.pick.external_id


def test_a_neighbour_inherits_part_of_its_seed_score(store: Store) -> None:
    turns = snapshot(store).turns
    query = get_embedder("minilm").embed(["ferry to Dublin from Holyhead"])[0]
    ranked = backfill(turns, query, "ferry to Dublin from Holyhead", np.zeros(0, dtype=np.int64), 7, set())
    (seed, top, origin), *rest = ranked
    assert origin == seed and "Holyhead" in turns.texts([seed])[0]
    scores = {row: (score, source) for row, score, source in rest}
    for row in (seed - 1, seed + 1):
        if turns.sessions[row] == turns.sessions[seed]:
            assert scores[row][0] >= NEIGHBOUR_SHARE * top - 1e-6
    assert all(source == row or turns.sessions[source] == turns.sessions[row] for row, (_, source) in scores.items())
    assert [r for r, _, _ in backfill(turns, query, "ferry", np.zeros(0, dtype=np.int64), 7, {seed})].count(seed) == 0


def test_a_period_the_question_names_lifts_the_turns_said_in_it(store: Store) -> None:
    """Two meals, on two days: the day the question names decides which comes first."""
    for day, meal in (("5 January 2024", "oat milk"), ("7 January 2024", "chilli")):
        top = run(store, f"What food did I get on {day}?", evidence=1).evidence[0]
        assert meal in top.turn.text, (day, top.turn.text)
