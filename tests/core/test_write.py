"""The write path's own rules, with the shared fake engine scripted by small honest rules:
they really find names in the turns and really return what they say."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

import numpy as np
import pytest

from memhop.core.embed import get_embedder
from memhop.core.model import ExistingResidual, Extraction, FoundEntity, KnownEntity, ResidualDraft, SessionView
from memhop.core.errors import EngineError
from memhop.core.importers.base import ParsedSource, Session, Turn
from memhop.core.language.names import find_names, match_registry
from memhop.core.store import Store, open_store
from memhop.core.store import memory, raw
from memhop.core import write_batch
from memhop.core.write import fuller_name, rebuild, write_pending
from support.fake_engine import FakeEngine

PEOPLE = ("Bob Kowalski", "Alice Nguyen")


def rule_engine(fail_on: str | None = None, supersede: bool = True, failure: BaseException | None = None) -> FakeEngine:
    """Finds the PEOPLE by name; one residual per sentence naming them; 'works at' sets the job
    slot. fail_on: identify fails for good on a session containing that text (with `failure`,
    else an EngineError); supersede=False: an engine that never says a fact was replaced."""

    def identify(session: SessionView, known: Sequence[KnownEntity]) -> list[FoundEntity]:
        if fail_on and any(fail_on in t.text for t in session.turns):
            raise failure or EngineError("the model replied with invalid JSON three times")
        registry = [(k.name, k.aliases) for k in known]
        found = []
        for person in PEOPLE:
            turn_ids = tuple(t.id for t in session.turns if find_names(t.text, [(person, ())]))
            if turn_ids:
                found.append(FoundEntity(match_registry(person, registry) or person, "person", (), turn_ids))
        return found

    def coextract(
        entity: FoundEntity, profile: str | None, existing: Sequence[ExistingResidual], session: SessionView
    ) -> Extraction:
        turns = [t for t in session.turns if t.id in entity.turn_ids]
        drafts = tuple(
            ResidualDraft(
                text=t.text,
                category="identity" if "works at" in t.text else "cross_entity",
                source_turns=(t.id,),
                slot="job" if "works at" in t.text else None,
            )
            for t in turns
        )
        summary = " ".join(t.text for t in turns)
        employers = {_employer(d.text) for d in drafts if d.slot == "job"}  # a restated employer replaces nothing
        replaced = tuple(r.id for r in existing if supersede and r.slot == "job" and employers
                         and _employer(r.text) not in employers)
        return Extraction(profile=f"{profile or ''} {summary}".strip(), residuals=drafts, supersedes=replaced)

    return FakeEngine(identify, coextract, name="rules")


def _employer(text: str) -> str:
    return text.split("works at", 1)[-1].split()[0]


def add_source(store: Store, name: str, days: Sequence[tuple[str, Sequence[str]]]) -> None:
    sessions = tuple(
        Session(
            external_id=day,
            started_at=datetime.fromisoformat(day),
            turns=tuple(Turn("Maya", text, datetime.fromisoformat(day), f"{day}#{i}") for i, text in enumerate(texts)),
        )
        for day, texts in days
    )
    parsed = ParsedSource(format="generic", sessions=sessions)
    batches = raw.new_turns(store, parsed)
    texts = [turn.text for _, pairs in batches for turn, _ in pairs]
    with store.transaction():
        raw.insert_source(store, name, raw.sha256_of(name.encode()), parsed, batches, get_embedder().embed(texts), "Maya")


@pytest.fixture
def store(tmp_path: Path) -> Store:
    with open_store(tmp_path / "m.duckdb") as opened:
        yield opened


DAYS = [
    ("2024-03-01", ["Bob Kowalski works at Crumb & Co bakery.", "Alice Nguyen is Bob's roommate."]),
    ("2024-04-02", ["Bob works at Northlight Studios now.", "The weather was grey."]),
    ("2024-04-09", ["Alice Nguyen is Bob's roommate.", "Nothing else happened."]),
]


def test_one_identify_plus_one_call_per_entity_per_session(store: Store) -> None:
    add_source(store, "a", DAYS)
    engine = rule_engine()
    report = write_pending(store, engine, get_embedder())
    # session 1: Bob + Alice; session 2: Bob; session 3: Alice + Bob (named as "Bob's")
    assert report.sessions == 3
    assert engine.calls.count("identify") == 3
    assert report.usage["calls"] == 3 + 2 + 1 + 2
    assert {e.name for e in memory.registry(store)} == set(PEOPLE)


def test_written_sessions_are_not_written_again(store: Store) -> None:
    add_source(store, "a", DAYS)
    write_pending(store, rule_engine(), get_embedder())
    second = rule_engine()
    report = write_pending(store, second, get_embedder())
    assert report.sessions == 0 and second.calls == []


def test_a_repeated_fact_is_stored_once(store: Store) -> None:
    add_source(store, "a", DAYS)
    report = write_pending(store, rule_engine(), get_embedder())
    alice = memory.entity_by_name(store, "Alice Nguyen")
    assert alice is not None
    texts = [r.text for r in memory.residuals_of(store, alice.id)]
    assert texts.count("Alice Nguyen is Bob's roommate.") == 1
    assert report.residuals_deduplicated >= 1


def test_a_new_job_supersedes_the_old_one_which_is_kept(store: Store) -> None:
    add_source(store, "a", DAYS)
    write_pending(store, rule_engine(), get_embedder())
    bob = memory.entity_by_name(store, "Bob Kowalski")
    assert bob is not None
    current = [r.text for r in memory.residuals_of(store, bob.id)]
    everything = memory.residuals_of(store, bob.id, include_superseded=True)
    assert "Bob works at Northlight Studios now." in current
    assert "Bob Kowalski works at Crumb & Co bakery." not in current
    old = next(r for r in everything if "Crumb" in r.text)
    assert old.superseded_by is not None


def test_a_restated_job_retires_nothing_and_a_bogus_supersede_is_ignored(store: Store) -> None:
    restated = [*DAYS, ("2024-05-01", ["Bob works at Northlight Studios, as a colourist."])]
    add_source(store, "a", restated)
    report = write_pending(store, rule_engine(), get_embedder())
    bob = memory.entity_by_name(store, "Bob Kowalski")
    assert bob is not None
    current = [r.text for r in memory.residuals_of(store, bob.id)]
    assert "Bob works at Northlight Studios now." in current  # same employer: both stay current
    assert "Bob works at Northlight Studios, as a colourist." in current
    assert report.residuals_superseded == 1  # only Crumb & Co, once


def test_the_engine_alone_decides_what_is_replaced(store: Store) -> None:
    add_source(store, "a", DAYS)
    report = write_pending(store, rule_engine(supersede=False), get_embedder())
    bob = memory.entity_by_name(store, "Bob Kowalski")
    assert bob is not None
    current = [r.text for r in memory.residuals_of(store, bob.id)]
    assert report.residuals_superseded == 0  # same slot, different text: still not the write path's call
    assert "Bob Kowalski works at Crumb & Co bakery." in current and "Bob works at Northlight Studios now." in current


def test_a_failed_identification_stops_the_run_and_is_resumed_in_date_order(store: Store) -> None:
    add_source(store, "a", DAYS)
    failing = write_pending(store, rule_engine(fail_on="Northlight"), get_embedder())
    assert len(failing.failures) == 1 and "invalid JSON" in failing.failures[0].error
    assert failing.sessions == 1  # the later session waits too: sessions are written in date order
    assert len(memory.pending_sessions(store)) == 2
    bob = memory.entity_by_name(store, "Bob Kowalski")
    assert bob is not None
    assert not any("Northlight" in r.text for r in memory.residuals_of(store, bob.id, include_superseded=True))

    resumed = write_pending(store, rule_engine(), get_embedder())
    assert resumed.sessions == 2 and not resumed.failures
    assert memory.pending_sessions(store) == []


def test_rebuild_reproduces_the_same_memory(store: Store) -> None:
    add_source(store, "a", DAYS)
    write_pending(store, rule_engine(), get_embedder())
    before = store.counts()
    report = rebuild(store, rule_engine(), get_embedder())
    assert report.sessions == 3
    assert store.counts() == before


def test_an_interrupted_rebuild_resumes_instead_of_starting_over(store: Store) -> None:
    add_source(store, "a", DAYS)
    write_pending(store, rule_engine(), get_embedder())
    interrupted = rebuild(store, rule_engine(fail_on="Northlight"), get_embedder())
    assert len(interrupted.failures) == 1
    resumed_engine = rule_engine()
    resumed = rebuild(store, resumed_engine, get_embedder())
    assert resumed.sessions == 2  # only the sessions that were left, not all three again
    assert resumed_engine.calls.count("identify") == 2


def _voting_engine(votes_by_day: dict[str, tuple[str, float]]) -> FakeEngine:
    """Finds "Tomasz" in every session and reports that session's evidence for his kind."""

    def identify(session: SessionView, known: Sequence[KnownEntity]) -> list[FoundEntity]:
        day = session.turns[0].external_id.split("#")[0] if session.turns[0].external_id else ""
        kind, weight = votes_by_day[day]
        return [FoundEntity("Tomasz", kind, (), (session.turns[0].id,), ((kind, weight),))]

    def coextract(entity: FoundEntity, profile: str | None, existing: Sequence[ExistingResidual],
                  session: SessionView) -> Extraction:
        return Extraction(profile or "Tomasz.", ())

    return FakeEngine(identify, coextract, name="voting")


def test_a_wrong_first_kind_is_outvoted_by_later_sessions(store: Store) -> None:
    days = [("2024-01-01", ["Tomasz came by."]), ("2024-01-02", ["Tomasz said hi."]),
            ("2024-01-03", ["Tomasz cooked."])]
    add_source(store, "a", days)
    engine = _voting_engine({"2024-01-01": ("place", 1.0), "2024-01-02": ("person", 1.0),
                             "2024-01-03": ("person", 2.0)})
    write_pending(store, engine, get_embedder())
    tomasz = memory.entity_by_name(store, "Tomasz")
    assert tomasz is not None and tomasz.kind == "person"
    assert dict(next(k for k in memory.registry(store) if k.name == "Tomasz").kind_votes) == {"place": 1.0, "person": 3.0}


def test_a_tie_keeps_the_kind_an_entity_has(store: Store) -> None:
    add_source(store, "a", [("2024-01-01", ["Tomasz came by."]), ("2024-01-02", ["Tomasz said hi."])])
    write_pending(store, _voting_engine({"2024-01-01": ("org", 1.0), "2024-01-02": ("person", 1.0)}), get_embedder())
    tomasz = memory.entity_by_name(store, "Tomasz")
    assert tomasz is not None and tomasz.kind == "org"


def test_an_entity_known_by_a_kin_word_takes_the_name_the_text_gives_it(store: Store) -> None:
    add_source(store, "a", [("2024-01-01", ["Dad rang."]), ("2024-01-02", ["Lunch with Dad (Gareth)."])])

    def identify(session: SessionView, known: Sequence[KnownEntity]) -> list[FoundEntity]:
        turn = session.turns[0]
        if "Gareth" in turn.text:
            return [FoundEntity("Gareth", "person", ("Dad",), (turn.id,))]
        return [FoundEntity("Dad", "person", (), (turn.id,))]

    def coextract(entity: FoundEntity, profile: str | None, existing: Sequence[ExistingResidual],
                  session: SessionView) -> Extraction:
        return Extraction(f"{entity.name}.", ())

    write_pending(store, FakeEngine(identify, coextract), get_embedder())
    people = [(k.name, k.aliases) for k in memory.registry(store)]
    assert people == [("Gareth", ("Dad",))]


@pytest.mark.parametrize(
    ("name", "aliases", "fuller"),
    [
        ("Bob", {"Bob Kowalski"}, "Bob Kowalski"),
        ("Sora", {"Lima Sora"}, "Lima Sora"),  # family name first
        ("Bob", {"Robert"}, None),
        ("Bob Kowalski", {"Bob"}, None),
    ],
)
def test_a_one_word_name_grows_into_the_full_name_the_text_gives(name: str, aliases: set[str], fuller: str | None) -> None:
    assert fuller_name(KnownEntity(1, name, "person"), aliases) == fuller


@pytest.mark.parametrize(
    "failure", [RuntimeError("a bug in identify"), ModuleNotFoundError("no spaCy model"), KeyboardInterrupt()],
    ids=["bug", "missing-model", "ctrl-c"],
)
def test_a_non_engine_error_identifying_the_next_session_leaves_the_session_before_it_written(
    store: Store, failure: BaseException
) -> None:
    """The next session is identified inside the transaction of the one before it (the
    write path overlaps the two): a Ctrl-C, a missing model or a bug there must reach the
    caller only once that session is committed."""
    add_source(store, "a", DAYS)
    with pytest.raises(type(failure)) as raised:
        write_pending(store, rule_engine(fail_on="Northlight", failure=failure), get_embedder())
    assert raised.value is failure
    assert len(memory.pending_sessions(store)) == 2  # the first session is written, the failing one waits
    bob = memory.entity_by_name(store, "Bob Kowalski")
    assert bob is not None
    facts = store.con.execute("SELECT text FROM residuals WHERE entity_id = ?", [bob.id]).fetchall()
    assert ("Bob Kowalski works at Crumb & Co bakery.",) in facts


class RecordingEmbedder:
    """The real embedder, keeping every text it is asked for; with `stop_on`, it raises
    as Ctrl-C would on a text saying that (turns are embedded at import, before it is used)."""

    def __init__(self, stop_on: str | None = None) -> None:
        self.inner = get_embedder()
        self.name, self.model, self.dim = self.inner.name, self.inner.model, self.inner.dim
        self.texts: list[str] = []
        self.stop_on = stop_on

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if self.stop_on and any(self.stop_on in t for t in texts):
            raise KeyboardInterrupt()
        self.texts += texts
        return self.inner.embed(texts)


def stored_profiles(store: Store) -> list[tuple[str, int, float]]:
    """Each profile's text, version, and the cosine of its stored vector to its text's."""
    rows = store.con.execute("SELECT text, version, embedding FROM profiles ORDER BY entity_id").fetchall()
    fresh = get_embedder().embed([r[0] for r in rows]) if rows else np.zeros((0, 1))
    return [(r[0], r[1], float(np.dot(np.asarray(r[2], np.float32), v))) for r, v in zip(rows, fresh)]


def test_a_profile_changed_in_every_session_is_embedded_once_with_its_last_text(store: Store) -> None:
    add_source(store, "a", DAYS)
    embedder = RecordingEmbedder()
    write_pending(store, rule_engine(), embedder)
    profiles = stored_profiles(store)
    bob = next(p for p in profiles if p[0].startswith("Bob Kowalski works at"))
    assert bob[1] == 3  # changed by each of the three sessions: three versions, as before
    assert all(cosine > 0.9999 for _, _, cosine in profiles)  # every vector is its own text's
    drafts = [t for _, texts in DAYS for t in texts]
    profile_texts = [t for t in embedder.texts if t not in drafts]
    assert sorted(profile_texts) == sorted(p[0] for p in profiles)  # no earlier version was embedded


def test_a_fact_drafted_again_in_a_later_session_is_embedded_once_and_every_stored_vector_is_its_texts(
    store: Store,
) -> None:
    add_source(store, "a", DAYS)
    embedder = RecordingEmbedder()
    write_pending(store, rule_engine(), embedder)
    repeated = "Alice Nguyen is Bob's roommate."  # drafted by the first and the third session
    assert embedder.texts.count(repeated) == 1
    rows = store.con.execute("SELECT entity_id, text, embedding FROM residuals").fetchall()
    assert len({(entity, text) for entity, text, _ in rows}) == len(rows)  # each entity's fact stored once
    fresh = get_embedder().embed([text for _, text, _ in rows])
    assert all(float(np.dot(np.asarray(vector, np.float32), v)) > 0.9999 for (_, _, vector), v in zip(rows, fresh))
    assert all(cosine > 0.9999 for _, _, cosine in stored_profiles(store))


def test_ctrl_c_while_a_batch_embeds_its_profiles_leaves_the_store_as_before_then_a_rerun_completes_it(
    store: Store,
) -> None:
    add_source(store, "a", DAYS)
    with pytest.raises(KeyboardInterrupt):  # a profile's text, embedded only as the batch commits
        write_pending(store, rule_engine(), RecordingEmbedder(stop_on="Alice Nguyen is Bob's roommate. Alice"))
    assert len(memory.pending_sessions(store)) == 3
    assert store.scalar("SELECT count(*) FROM profiles") == 0  # no text without its vector
    write_pending(store, rule_engine(), get_embedder())
    assert not memory.pending_sessions(store)
    assert [(text, version) for text, version, _ in stored_profiles(store)] == [
        (text, version) for text, version, _ in uninterrupted_profiles()
    ]
    assert all(cosine > 0.9999 for _, _, cosine in stored_profiles(store))


def test_a_crash_in_a_later_batch_keeps_the_batches_before_it_with_their_vectors(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(write_batch, "SESSIONS", 1)  # a batch per session
    add_source(store, "a", DAYS)
    with pytest.raises(KeyboardInterrupt):  # session 2's facts
        write_pending(store, rule_engine(), RecordingEmbedder(stop_on="Northlight"))
    assert len(memory.pending_sessions(store)) == 2
    profiles = stored_profiles(store)
    assert profiles and all(cosine > 0.9999 for _, _, cosine in profiles)


def uninterrupted_profiles() -> list[tuple[str, int, float]]:
    with open_store(Path(tempfile.mkdtemp()) / "whole.duckdb") as whole:
        add_source(whole, "a", DAYS)
        write_pending(whole, rule_engine(), get_embedder())
        return stored_profiles(whole)


def test_ctrl_c_between_sessions_keeps_the_sessions_of_the_batch_written_before_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sessions share a transaction: a Ctrl-C while the next session's facts are extracted
    (no session half written) must not take the finished ones back with it."""
    add_source(store, "a", DAYS)
    engine = rule_engine()
    extract = engine.coextract

    def interrupted(entity: FoundEntity, profile: str | None, existing: Sequence[ExistingResidual],
                    session: SessionView) -> Extraction:
        if any("Northlight" in t.text for t in session.turns):
            raise KeyboardInterrupt()
        return extract(entity, profile, existing, session)

    monkeypatch.setattr(engine, "coextract", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_pending(store, engine, get_embedder())
    assert len(memory.pending_sessions(store)) == 2  # the first session is written
    profiles = stored_profiles(store)
    assert profiles and all(cosine > 0.9999 for _, _, cosine in profiles)
