"""The three read stages on a small real store: what gets selected, which hop brings the
roommate in, what the gate stops, which facts are kept, and that the trace says so."""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from memhop.core.config import ReadSettings
from memhop.core.embed import DIM, MODEL, get_embedder
from memhop.core.engines.offline.answer import answer_offline
from memhop.core.errors import ConfigError
from memhop.core.read import Context, ask, evidence_query, read
from memhop.core.store import Store, open_store
from memhop.core.store import memory
from memhop.core.store.recall import snapshot
from support.read_world import STALE, build_world

ROOMMATE = "What instrument does Alice's roommate play?"


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_world(tmp_path_factory.mktemp("world"))


@pytest.fixture
def store(world: Path) -> Iterator[Store]:
    with open_store(world, read_only=True) as opened:
        yield opened


def run(store: Store, question: str, **options: object) -> Context:
    return read(store, question, get_embedder("minilm"), replace(ReadSettings(), **options))


def test_named_entity_gets_the_boost_and_leads_stage_one(store: Store) -> None:
    trace = run(store, ROOMMATE).trace
    first = trace.stage1[0]
    assert (first.entity, first.boost, first.named_as) == ("Alice Nguyen", 0.3, "Alice")
    assert first.score == pytest.approx(first.cosine + 0.3, abs=1e-3)
    assert trace.anchors == ["Alice Nguyen"]


def test_the_roommate_joins_through_a_hop_that_names_him(store: Store) -> None:
    context = run(store, ROOMMATE, top=1)
    hop = context.trace.hops[0]
    bob = next(c for c in hop.candidates if c.entity == "Bob Kowalski")
    assert bob.named_by == "Alice Nguyen" and bob.passed and "roommate [Bob Kowalski]" in bob.matched
    assert bob.score is not None and bob.score > 0.2
    assert "Bob Kowalski" in hop.added
    assert [s.name for s in context.selected][:2] == ["Alice Nguyen", "Bob Kowalski"]
    assert context.chain == ("Alice Nguyen", "Bob Kowalski")
    assert "[Bob Kowalski]" in context.trace.links[0].matched


def test_no_expand_means_no_hop(store: Store) -> None:
    context = run(store, ROOMMATE, top=1, expand=False)
    assert context.trace.hops == [] and context.trace.stopped == "expansion disabled"
    assert [s.name for s in context.selected] == ["Alice Nguyen"]


def test_hop_limit_is_respected_and_reported(store: Store) -> None:
    trace = run(store, ROOMMATE, top=1, hops=1).trace
    assert len(trace.hops) == 1 and trace.stopped == "hop limit reached (1)"


def test_an_unrelated_question_stops_at_the_gate(store: Store) -> None:
    context = run(store, "What is the capital of Peru?", top=1)
    assert "gate" in context.trace.stopped
    assert all(not c.passed for hop in context.trace.hops for c in hop.candidates)
    assert ask(store, "What is the capital of Peru?", get_embedder("minilm"), ReadSettings(), answer_offline).text == "I don't know"


def test_a_high_gate_stops_expansion(store: Store) -> None:
    context = run(store, "Where does Alice work these days?", top=1, gate=0.99)
    assert [s.name for s in context.selected] == ["Alice Nguyen"]
    assert "no candidate cleared the gate" in context.trace.stopped


def test_the_entity_a_profile_gives_the_questions_relation_joins_below_the_gate(store: Store) -> None:
    context = run(store, ROOMMATE, top=1, gate=0.99)
    assert "no candidate cleared the gate" in context.trace.stopped
    assert len(context.selected) == 2 and "Bob" in context.selected[1].name
    assert [(link.source, link.joined) for link in context.trace.links] == [("Alice Nguyen", True)]


def test_first_person_starts_from_self(store: Store) -> None:
    trace = run(store, "What instrument do I play?").trace
    assert trace.anchors == ["Maya Patel"]
    assert trace.stage1[0].entity == "Maya Patel" and trace.stage1[0].named_as == "I"


def test_we_makes_the_writer_the_asker_without_anchoring_the_writer(store: Store) -> None:
    # "which flats did we see?" asks what the writer did, not another speaker's "I"
    trace = run(store, "Which flats did we look at?").trace
    assert trace.asker == "Maya Patel"
    assert "Maya Patel" not in trace.anchors


def test_superseded_facts_never_reach_the_answerer(store: Store) -> None:
    context = run(store, "Where does Bob work?", facts_per_entity=10)
    bob = next(s for s in context.selected if s.name == "Bob Kowalski")
    assert STALE not in bob.facts and "Bob Kowalski plays the piano." in bob.facts
    assert next(f for f in context.trace.facts if f.entity == "Bob Kowalski").superseded == 1


def test_facts_are_capped_per_entity_and_the_cut_is_recorded(store: Store) -> None:
    context = run(store, ROOMMATE, facts_per_entity=1)
    bob = next(f for f in context.trace.facts if f.entity == "Bob Kowalski")
    assert len(bob.chosen) == 1 and bob.cut_count == 1 and len(bob.cut) == 1
    assert bob.chosen[0].score >= bob.cut[0].score
    assert next(s for s in context.selected if s.name == "Bob Kowalski").facts == (bob.chosen[0].text,)


def test_no_residuals_leaves_profiles_only(store: Store) -> None:
    context = run(store, ROOMMATE, residuals=False)
    assert all(s.facts == () for s in context.selected)
    assert all(p.reason != "fact source" for p in context.trace.evidence)


def test_the_request_carries_slices_evidence_and_chain(store: Store) -> None:
    context = run(store, ROOMMATE, top=1)
    request = context.request()
    assert [s.name for s in request.slices] == [s.name for s in context.selected]
    assert [t.id for t in request.evidence] == [e.turn.id for e in context.evidence]
    assert request.chain == ("Alice Nguyen", "Bob Kowalski")


def test_an_empty_store_reads_nothing_and_does_not_know(tmp_path: Path) -> None:
    with open_store(tmp_path / "empty.duckdb") as store:
        context = run(store, ROOMMATE)
        assert context.selected == () and context.evidence == ()
        result = ask(store, ROOMMATE, get_embedder("minilm"), ReadSettings(), answer_offline)
    assert result.text == "I don't know"


def test_the_cached_matrices_follow_changes_to_the_store(tmp_path: Path) -> None:
    root = build_world(tmp_path / "w")
    with open_store(root) as store:
        before = snapshot(store)
        assert snapshot(store) is before  # warm: nothing reloaded
        vector = get_embedder("minilm").embed(["Erin is a pianist."])[0]
        memory.put_profile(store, memory.add_entity(store, "Erin", "person"), "Erin is a pianist.", vector)
        after = snapshot(store)
    assert after is not before and "Erin" in after.profiles.names


class _Recording:
    """The real embedder, noting which thread embeds what (or failing, when told to)."""

    def __init__(self, fail: bool = False) -> None:
        self.inner, self.fail = get_embedder("minilm"), fail
        self.name, self.model, self.dim = self.inner.name, self.inner.model, self.inner.dim
        self.calls: list[tuple[int, list[str]]] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append((threading.get_ident(), list(texts)))
        if self.fail:
            raise ConfigError("the model file is unreadable")
        return self.inner.embed(texts)


def test_the_question_is_embedded_once_off_the_asking_thread_as_it_is_on_this_one(store: Store) -> None:
    recording = _Recording()
    query = evidence_query(store, ROOMMATE, recording, ReadSettings())  # type: ignore[arg-type]
    # the question, unframed; then (a chain question) the question asked of the chain's end by name
    assert [texts for _, texts in recording.calls] == [[ROOMMATE, "What instrument does roommate play?"],
                                                       ["What instrument does Bob play?"]]
    assert all(thread != threading.get_ident() for thread, _ in recording.calls)
    texts = [text for _, said in recording.calls for text in said]
    here = get_embedder("minilm").embed(texts)  # the same texts, embedded on the asking thread
    np.testing.assert_allclose(query.vector, here[1], rtol=0, atol=1e-6)
    replayed = read(store, ROOMMATE, _Replaying(dict(zip(texts, here))), ReadSettings())  # type: ignore[arg-type]
    context = read(store, ROOMMATE, recording, ReadSettings())  # type: ignore[arg-type]
    assert context.request() == replayed.request() and context.trace.stage1 == replayed.trace.stage1


def test_an_embedding_error_reaches_the_asker(store: Store) -> None:
    with pytest.raises(ConfigError, match="unreadable"):
        read(store, ROOMMATE, _Recording(fail=True), ReadSettings())  # type: ignore[arg-type]


class _Replaying:
    """Vectors the real embedder made in the parent, by text: the forked child embeds with no
    ONNX Runtime state of its own, so only the read path's worker pool is under test."""

    name, model, dim = "minilm", MODEL, DIM

    def __init__(self, vectors: dict[str, np.ndarray]) -> None:
        self.vectors = vectors

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.stack([self.vectors[t] for t in texts])


def _ask_in_child(store: Store, embedder: _Replaying, expected: list[int]) -> None:
    got = [e.turn.id for e in read(store, ROOMMATE, embedder, ReadSettings()).evidence]  # type: ignore[arg-type]
    raise SystemExit(0 if got == expected else 1)


def test_a_forked_child_asks_after_the_parent_did(store: Store) -> None:
    recording = _Recording()
    parent = read(store, ROOMMATE, recording, ReadSettings())  # type: ignore[arg-type]  # the worker thread now runs
    texts = [t for _, batch in recording.calls for t in batch]
    replaying = _Replaying(dict(zip(texts, get_embedder("minilm").embed(texts))))
    child = multiprocessing.get_context("fork").Process(
        target=_ask_in_child, args=(store, replaying, [e.turn.id for e in parent.evidence])
    )
    child.start()
    child.join(timeout=60)
    if child.is_alive():  # waiting on the parent's worker thread, which the child does not have
        child.kill()
        child.join()
        pytest.fail("the forked child's ask did not finish")
    assert child.exitcode == 0


SISTER_DIARY = """# Diary 2024

## 2024-01-06

Rhoswen's sister Ilsa came to the quiz with us. Rhoswen and her sister Ilsa won the music round.

## 2024-01-13

Ilsa is a farrier, mostly racehorses out near Ludlow.

## 2024-01-20

Rhoswen says her sister Ilsa still owes her a tenner. Ilsa laughed and said sisters never pay.

## 2024-01-27

Rhoswen's birthday. Her sister Ilsa made the cake, a lopsided one. Ilsa and Rhoswen sang badly.

## 2024-02-10

Ilsa is organising a surprise for her sister Rhoswen. Ilsa swore me to secrecy about Rhoswen's party.
"""


def test_the_chains_last_entity_is_read_by_what_is_asked_of_it(tmp_path: Path, home: Path) -> None:
    # "what does Rhoswen's sister do?" reaches Ilsa; her facts are ranked as "what does Ilsa do
    # for work?", not by the word "sister" that most of her facts share
    from support.written_memory import written_store

    with open_store(written_store(tmp_path, SISTER_DIARY, "sisters", "Wynn Abara"), read_only=True) as opened:
        context = run(opened, "What does Rhoswen's sister do for work?")
    assert context.trace.chain == ["Rhoswen", "Ilsa"]
    ilsa = next(f for f in context.trace.facts if f.entity == "Ilsa")
    assert any("farrier" in fact.text for fact in ilsa.chosen), [f.text for f in ilsa.chosen]


PEPPER_DIARY = """# Diary

## 2024-03-02

Our dog Pepper chewed a cushion today. Pepper is a beagle.

## 2024-03-04

Dinner at Tarik's. Tarik puts black pepper on everything, even on strawberries.
"""


def test_a_name_written_in_lower_case_is_the_ordinary_word_when_the_asker_capitalises_names(
    tmp_path: Path, home: Path
) -> None:
    # "pepper" in a question that writes Tarik with a capital is the spice, not the dog: the
    # dog is no anchor and the word stays in what the turns are searched for
    from support.written_memory import written_store

    with open_store(written_store(tmp_path, PEPPER_DIARY, "pepper", "Wynn Abara"), read_only=True) as opened:
        spice = run(opened, "What does Tarik put pepper on?").trace
        dog = run(opened, "what did pepper chew?").trace  # typed all in lower case: any word may be a name
    assert "Pepper" not in spice.anchors and "pepper" in spice.query
    assert "Pepper" in dog.anchors
