"""Editing memory by hand: profile, facts, merge, rename; each re-embeds what changed."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from memhop.core.edit import EditError, SelfFold, add_fact, edit_fact, edit_profile, merge, rename
from memhop.core.model import ResidualDraft
from memhop.core.errors import EntityNotFound
from memhop.core.inspect import resolve_entity
from memhop.core.store import memory, open_store

from support import purge_world

EMBED = purge_world.EMBEDDER


@pytest.fixture
def db(purge_template: Path, tmp_path: Path) -> Path:
    return purge_world.install(purge_template, tmp_path / "home")


def _vector(store, table: str, key_column: str, key: int) -> np.ndarray:
    row = store.con.execute(f"SELECT embedding FROM {table} WHERE {key_column} = ?", [key]).fetchone()
    return np.asarray(row[0], dtype=np.float32)


def test_edit_profile_sets_the_text_reembeds_and_logs(db: Path) -> None:
    text = "Priya works in publishing and is Dan Okafor's partner."
    with open_store(db) as store:
        priya = resolve_entity(store, "Priya").id
        version = store.scalar("SELECT version FROM profiles WHERE entity_id = ?", [priya])
        report = edit_profile(store, "priya", EMBED, text=text)
        assert report.changed and report.entity == "Priya"
        assert memory.profile_of(store, priya) == text
        assert np.allclose(_vector(store, "profiles", "entity_id", priya), EMBED.embed([text])[0], atol=1e-6)
        assert store.scalar("SELECT version FROM profiles WHERE entity_id = ?", [priya]) == version + 1
        assert store.scalar("SELECT op FROM oplog ORDER BY id DESC LIMIT 1") == "edit"


def test_an_editor_closed_without_saving_changes_nothing(db: Path) -> None:
    before = purge_world.dump(db)
    seen: list[str] = []
    with open_store(db) as store:
        report = edit_profile(store, "Priya", EMBED, editor=lambda current: seen.append(current) or None)
    assert not report.changed and seen and seen[0].startswith("Dan's partner Priya")
    assert purge_world.dump(db) == before


def test_add_and_correct_a_fact(db: Path) -> None:
    with open_store(db) as store:
        added = add_fact(store, "Priya", "Priya is an editor at a publishing house.", EMBED)
        fact_id = added.details["id"]
        stored = {r.id: r for r in memory.residuals_of(store, resolve_entity(store, "Priya").id)}
        assert stored[fact_id].text == "Priya is an editor at a publishing house."
        assert stored[fact_id].category == "identity" and stored[fact_id].source_turns == ()
        edit_fact(store, fact_id, "Priya is a senior editor at a publishing house.", EMBED, category="state_change")
        row = store.con.execute("SELECT text, category FROM residuals WHERE id = ?", [fact_id]).fetchone()
        assert row == ("Priya is a senior editor at a publishing house.", "state_change")
        vector = EMBED.embed(["Priya is a senior editor at a publishing house."])[0]
        assert np.allclose(_vector(store, "residuals", "id", fact_id), vector, atol=1e-6)
        with pytest.raises(EditError, match="unknown category"):
            add_fact(store, "Priya", "Priya likes fonts.", EMBED, category="gossip")
        with pytest.raises(EditError, match="no fact with id"):
            edit_fact(store, 99999, "nothing", EMBED)
        with pytest.raises(EntityNotFound):
            add_fact(store, "Zed", "Zed exists.", EMBED)


def _add_duplicate_dan(store) -> int:
    """ "Danny", the same man seen under another name: one repeated sentence, one new."""
    dan = resolve_entity(store, "Dan Okafor")
    dan_fact = memory.residuals_of(store, dan.id)[0].text
    dan_turns = [
        r[0] for r in store.con.execute("SELECT turn_id FROM mentions WHERE entity_id = ?", [dan.id]).fetchall()
    ]
    profile = "Dan Okafor from my team was drumming on his desk with two pencils all afternoon. Danny supports Arsenal."
    facts = [dan_fact, "Danny supports Arsenal."]
    vectors = EMBED.embed([profile, *facts])
    with store.transaction():
        danny = memory.add_entity(store, "Danny", "person", ["Dan O."])
        memory.put_profile(store, danny, profile, vectors[0])
        memory.insert_residuals(
            store, danny, [ResidualDraft(f, "identity", (dan_turns[0],)) for f in facts], vectors[1:]
        )
        memory.add_mentions(store, danny, [dan_turns[0], 1])
    return danny


def test_merge_folds_one_name_into_the_other(db: Path) -> None:
    with open_store(db) as store:
        danny = _add_duplicate_dan(store)
        dan = resolve_entity(store, "Dan Okafor")
        facts_before = len(memory.residuals_of(store, dan.id))
        mentions_before = set(
            r[0] for r in store.con.execute("SELECT turn_id FROM mentions WHERE entity_id = ?", [dan.id]).fetchall()
        )
        report = merge(store, "Dan Okafor", "Danny", EMBED)
        assert report.details["duplicate_facts_folded"] == 1 and report.details["facts_moved"] == 1
        merged = resolve_entity(store, "Danny")
        assert merged.id == dan.id and set(merged.aliases) == {"Danny", "Dan O."}
        facts = [r.text for r in memory.residuals_of(store, dan.id)]
        assert len(facts) == facts_before + 1 and "Danny supports Arsenal." in facts
        mentions = set(
            r[0] for r in store.con.execute("SELECT turn_id FROM mentions WHERE entity_id = ?", [dan.id]).fetchall()
        )
        assert mentions == mentions_before | {1}
        profile = memory.profile_of(store, dan.id) or ""
        assert profile.count("two pencils") == 1 and profile.endswith("Danny supports Arsenal.")
        assert store.scalar("SELECT count(*) FROM entities WHERE id = ?", [danny]) == 0
        assert store.scalar("SELECT count(*) FROM profiles WHERE entity_id = ?", [danny]) == 0
        assert store.scalar("SELECT count(*) FROM mentions WHERE entity_id = ?", [danny]) == 0
        with pytest.raises(EditError, match="already the same entity"):
            merge(store, "Dan", "Danny", EMBED)


def test_a_failed_merge_leaves_the_store_as_it_was(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with open_store(db) as store:
        _add_duplicate_dan(store)
    before = purge_world.dump(db)

    def boom(*args: object) -> None:
        raise RuntimeError("simulated crash")

    monkeypatch.setattr(memory, "put_profile", boom)
    with open_store(db) as store, pytest.raises(RuntimeError):
        merge(store, "Dan Okafor", "Danny", EMBED)
    assert purge_world.dump(db) == before


def test_rename_rewrites_every_profile_and_fact_but_not_the_raw_turns(db: Path) -> None:
    with open_store(db) as store:
        bob = resolve_entity(store, "Bob Kowalski").id
        turns_before = store.con.execute("SELECT id, text FROM turns ORDER BY id").fetchall()
        report = rename(store, "Bob Kowalski", "Robert Kowalski", EMBED)
        assert report.details["rewritten"]["profiles"] > 1 and report.details["rewritten"]["facts"] > 1
        assert resolve_entity(store, "Bob Kowalski").id == bob  # the old name is an alias now
        assert resolve_entity(store, "Robert").id == bob
        texts = [
            r[0] for r in store.con.execute("SELECT text FROM profiles UNION ALL SELECT text FROM residuals").fetchall()
        ]
        assert not any(re.search(r"\bBob\b", t) for t in texts)
        assert any("Alice's roommate Robert Kowalski" in t for t in texts)
        assert any("Robert's older sister Carol" in t for t in texts)
        maya = memory.profile_of(store, resolve_entity(store, "Maya Patel").id) or ""
        assert np.allclose(
            _vector(store, "profiles", "entity_id", resolve_entity(store, "Maya Patel").id),
            EMBED.embed([maya])[0],
            atol=1e-6,
        )
        assert store.con.execute("SELECT id, text FROM turns ORDER BY id").fetchall() == turns_before
        assert (
            store.scalar("SELECT detail FROM oplog ORDER BY id DESC LIMIT 1")
            == "Bob Kowalski renamed to Robert Kowalski"
        )


def test_rename_without_alias_and_to_a_taken_name(db: Path) -> None:
    with open_store(db) as store:
        with pytest.raises(EditError, match="already names Alice Nguyen"):
            rename(store, "Bob Kowalski", "Alice Nguyen", EMBED)
        rename(store, "Bob Kowalski", "Robert Kowalski", EMBED, keep_alias=False)
        assert resolve_entity(store, "Robert Kowalski").aliases == ()
        with pytest.raises(EntityNotFound):
            resolve_entity(store, "Bob Kowalski")


def test_merge_keeps_every_fact_and_its_sources(db: Path) -> None:
    """A repeated fact is folded into its twin with both sources; a current fact that only
    repeats a superseded one is moved, not dropped."""
    with open_store(db) as store:
        danny = _add_duplicate_dan(store)
        dan = resolve_entity(store, "Dan Okafor")
        twin = memory.residuals_of(store, dan.id)[0]
        repeated = next(r for r in memory.residuals_of(store, danny) if r.text == twin.text)
        old_job = "Dan Okafor works at a call centre."
        vectors = EMBED.embed([old_job, old_job])
        with store.transaction():
            [retired] = memory.insert_residuals(store, dan.id, [ResidualDraft(old_job, "state_change", ())], vectors[:1])
            memory.supersede(store, [retired], twin.id)
            [current] = memory.insert_residuals(store, danny, [ResidualDraft(old_job, "state_change", (1,))], vectors[1:])
        texts_before = sorted((r.text, r.superseded_by is None) for e in (dan.id, danny)
                              for r in memory.residuals_of(store, e, include_superseded=True))
        report = merge(store, "Dan Okafor", "Danny", EMBED)
        after = {r.id: r for r in memory.residuals_of(store, dan.id, include_superseded=True)}
        assert report.details["duplicate_facts_folded"] == 1
        assert current in after and after[current].superseded_by is None  # still current, not dropped
        assert repeated.id not in after and set(after[twin.id].source_turns) >= set(repeated.source_turns)
        assert sorted((r.text, r.superseded_by is None) for r in after.values()) == sorted(set(texts_before))


def test_dry_run_and_a_refused_confirmation_change_nothing(db: Path) -> None:
    with open_store(db) as store:
        _add_duplicate_dan(store)
    before = purge_world.dump(db)
    seen: list[str] = []
    with open_store(db) as store:
        planned = merge(store, "Dan Okafor", "Danny", None, dry_run=True)
        assert planned.dry_run and planned.details["merged"] == "Danny"
        renamed = rename(store, "Bob Kowalski", "Robert Kowalski", None, dry_run=True)
        assert renamed.details["rewritten"]["facts"] > 0
        with pytest.raises(EditError, match="not confirmed"):
            merge(store, "Dan Okafor", "Danny", EMBED, confirm=lambda r: seen.append(r.op) is not None)
        with pytest.raises(EditError, match="not confirmed"):
            rename(store, "Bob Kowalski", "Robert Kowalski", EMBED, confirm=lambda r: seen.append(r.op) is not None)
    assert seen == ["merge", "rename"]
    assert purge_world.dump(db) == before


def test_folding_the_diarist_into_someone_needs_fold_self(db: Path) -> None:
    before = purge_world.dump(db)
    with open_store(db) as store:
        with pytest.raises(SelfFold, match="Maya Patel is the diarist") as refused:
            merge(store, "Priya", "Maya Patel", EMBED)
        assert refused.value.exit_code == 2
    assert purge_world.dump(db) == before
    with open_store(db) as store:
        merge(store, "Priya", "Maya Patel", EMBED, fold_self=True)
        assert resolve_entity(store, "Priya").kind == "self"
