"""memhop as a library, on real stores: what a script using `memhop.open` sees."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import pytest
from support.old_stores import store_at_version
from support.paths import REPO, SAMPLES
from support.purge_world import sha256_file

import memhop
from memhop.core.errors import ConfigError, EntityNotFound, InvalidDate, MemhopError, StoreError
from memhop.core.export import ExportError
from memhop.core.forget import ForgetError

ROOMMATE = "What instrument does Alice's roommate play?"
COUNTED = {"sources", "sessions", "turns", "entities", "profiles", "facts"}


@pytest.fixture(scope="module")
def diary_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Maya's diary ingested once through the API; tests that change it get a copy."""
    db = tmp_path_factory.mktemp("api") / "diary.duckdb"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MEMHOP_HOME", str(db.parent))
        with memhop.open(db) as mem:
            report = mem.ingest(SAMPLES / "maya-diary.md", self_name="Maya Patel")
    assert [f.status for f in report.files] == ["imported"]
    assert report.write is not None and report.write.sessions == 12 and not report.write.failures
    return db


@pytest.fixture
def copy(diary_db: Path, home: Path) -> Path:
    home.mkdir(parents=True, exist_ok=True)
    target = home / "memhop.duckdb"
    shutil.copyfile(diary_db, target)
    return target


def test_the_readme_example(home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(REPO)
    with memhop.open() as mem:
        mem.ingest(["sample_diaries/maya-diary.md"], self_name="Maya Patel")
        print(mem.ask(ROOMMATE).text)
        again = mem.ingest("sample_diaries/maya-diary.md")  # nothing new: no engine calls reported
    assert capsys.readouterr().out == "piano\n"
    assert (home / "memhop.duckdb").exists()
    assert [f.status for f in again.files] == ["unchanged"]
    assert again.write is not None and again.write.sessions == 0 and again.write.usage["calls"] == 0


def test_opening_touches_nothing_until_it_is_used(home: Path, tmp_path: Path) -> None:
    db = tmp_path / "new" / "memhop.duckdb"
    mem = memhop.open(db)
    assert mem.config()["settings"]["db"] == str(db) and mem.config()["config_file"] == str(home / "config.yaml")
    assert not db.exists()
    with memhop.open(db, read_only=True) as reader, pytest.raises(StoreError, match="no memhop store"):
        reader.stats()
    assert not db.exists()
    with mem:
        assert mem.stats() == {**dict.fromkeys(COUNTED, 0), "embedder": "minilm", "quarantined": [], "engine_calls": []}
    assert db.exists()


def test_closing_releases_the_file(diary_db: Path, home: Path) -> None:
    with memhop.open(diary_db) as writer:
        counts = writer.stats()
    with memhop.open(diary_db, read_only=True) as reader:  # DuckDB refuses this while a writer is open
        assert reader.stats() == counts


def test_an_unknown_engine_fails_at_open_and_read_needs_no_engine(diary_db: Path, home: Path) -> None:
    with pytest.raises(ConfigError, match="unknown engine 'gpt-9'"):
        memhop.open(diary_db, engine="gpt-9")
    with memhop.open(diary_db, engine="openai", read_only=True) as mem:  # no base_url, no key
        context = mem.read(ROOMMATE)
        assert "Bob" in [s.name for s in context.selected] and context.evidence
        with pytest.raises(ConfigError, match="needs openai.base_url or an API key"):
            mem.ask(ROOMMATE)


def test_ask_and_its_options(diary_db: Path, home: Path) -> None:
    with memhop.open(diary_db, read_only=True) as mem:
        answer = mem.ask(ROOMMATE)
        assert answer.text == "piano"
        assert set(answer.to_dict()) == {"question", "answer", "answered", "support", "selected", "facts", "evidence", "trace"}
        assert answer.context.chain[:2] == ("Alice", "Bob")
        assert any(answer.to_dict()["facts"].values())
        assert not any(mem.ask(ROOMMATE, facts=False).to_dict()["facts"].values())
        flat = mem.ask(ROOMMATE, top=1, expand=False)
        assert flat.context.trace.hops == [] and [s.name for s in flat.context.selected] == ["Alice"]
        assert len(mem.ask(ROOMMATE, evidence=2).context.evidence) == 2
        assert mem.ask("What is the capital of Peru?").text == "I don't know"


def test_support_search_and_turns_for_a_script(diary_db: Path, home: Path) -> None:
    with memhop.open(diary_db, read_only=True) as mem:
        answer = mem.ask(ROOMMATE)
        assert answer.answered and answer.support.items and "piano" in answer.support.items[0].quote.lower()
        assert answer.support.items[0].cited.source == "maya-diary.md"
        refused = mem.ask("What is the capital of Peru?")
        assert not refused.answered and all(i.closest for i in refused.support.items)
        spring = mem.ask(ROOMMATE, since="March 2024", until=date(2024, 4, 30))
        assert all(date(2024, 3, 1) <= e.turn.timestamp.date() <= date(2024, 4, 30) for e in spring.context.evidence)
        found = mem.search("recital", person="Bob", limit=3)
        assert found.person == "Bob" and 0 < len(found.hits) <= 3 and "recital" in found.hits[0].cited.text.lower()
        turn = next(h.cited for h in mem.search("recital").hits if h.cited.kind == "turn")
        around = mem.turn(turn.id)
        assert around.turn == turn and len(around.before) <= 2 and len(around.after) <= 2
        with pytest.raises(InvalidDate):
            mem.search("recital", since="the day the music died")


def test_show_entities_and_stats_speak_of_facts(diary_db: Path, home: Path) -> None:
    with memhop.open(diary_db, read_only=True) as mem:
        bob = mem.show("Bob")
        entities = mem.entities()
        stats = mem.stats()
    assert bob.entity.name == "Bob" and "roommate" in (bob.profile or "") and bob.residuals
    shown = bob.to_json()
    assert "residuals" not in shown and shown["facts"][0]["sources"]
    assert entities[0].name == "Maya Patel" and "Bob" in [e.name for e in entities]
    assert set(stats) == COUNTED | {"embedder", "quarantined", "engine_calls"} and stats["facts"] >= sum(e.facts for e in entities) > 0
    with memhop.open(diary_db, read_only=True) as mem, pytest.raises(EntityNotFound):
        mem.show("Nobody Here")


def test_stats_of_a_store_read_before_its_quarantine_migration(tmp_path: Path, home: Path) -> None:
    # Read-only opening never migrates (the MCP server reads this way): the held updates and
    # engine calls of a store older than their tables are none, not an SQL error.
    store_at_version(tmp_path / "old.duckdb", 5).close()
    with memhop.open(tmp_path / "old.duckdb", read_only=True) as mem:
        stats = mem.stats()
    assert stats["quarantined"] == [] and stats["engine_calls"] == [] and stats["turns"] == 0


def test_a_fact_added_corrected_and_removed(copy: Path) -> None:
    with memhop.open(copy) as mem:
        added = mem.add_fact("Bob", "Bob owns a red bicycle.", "identity")
        fact_id = added.details["id"]
        assert added.entity == "Bob"
        mem.edit_fact(fact_id, "Bob owns a blue bicycle.")
        facts = {f.id: f.text for f in mem.show("Bob").residuals}
        assert facts[fact_id] == "Bob owns a blue bicycle."
        assert "Bob owns a blue bicycle." in mem.ask("What colour is Bob's bicycle?").to_dict()["facts"]["Bob"]
        mem.remove_fact(fact_id)
        assert fact_id not in {f.id for f in mem.show("Bob").residuals}
        with pytest.raises(ForgetError, match="no fact with id"):
            mem.remove_fact(fact_id)
        with pytest.raises(MemhopError, match="unknown category"):
            mem.add_fact("Bob", "Bob gossips.", "gossip")


def test_edit_merge_and_rename(copy: Path) -> None:
    with memhop.open(copy) as mem:
        mem.edit("Bob", "Bob plays the piano and works at Northlight Studios.")
        assert mem.show("Bob").profile == "Bob plays the piano and works at Northlight Studios."
        renamed = mem.rename("Bob", "Robert Kowalski")
        assert renamed.details["aliases"] == ["Bob"]
        assert mem.show("Bob").entity.name == "Robert Kowalski"
        assert "Robert" in (mem.show("Alice").profile or "")
        merged = mem.merge("Carol", "Pepper")
        assert merged.details["merged"] == "Pepper" and "Pepper" in mem.show("Carol").entity.aliases


def test_forget_plans_on_a_read_only_memory_and_forgets_on_a_writable_one(copy: Path) -> None:
    digest = sha256_file(copy)
    with memhop.open(copy, read_only=True) as reader:
        plan = reader.forget("Bob", dry_run=True)
        assert plan.dry_run and plan.summary["entities deleted"] == 1
        with pytest.raises(StoreError, match="read-only"):
            reader.forget("Bob")
    with memhop.open(copy) as mem, pytest.raises(ForgetError, match="not confirmed"):
        mem.forget("Bob", confirm=lambda report: False)
    assert sha256_file(copy) == digest
    with memhop.open(copy) as mem:
        report = mem.forget("Bob", confirm=lambda report: report.label == "Bob")
        assert report.residue is not None and report.residue["text_hits"] == {}
        assert report.residue["file_text_hits"] == 0
        with pytest.raises(EntityNotFound):
            mem.show("Bob")
        assert mem.ask("What instrument does Bob play?").text == "I don't know"


def test_export_and_restore(diary_db: Path, home: Path, tmp_path: Path) -> None:
    target = tmp_path / "backup.json"
    with memhop.open(diary_db, read_only=True) as mem:
        text = mem.export(path=target)
        original = {k: v for k, v in mem.stats().items() if k in COUNTED}  # the counts, not the engine calls spent
        answer = mem.ask(ROOMMATE).to_dict()
        assert mem.export("md").startswith("# memhop export")
        with pytest.raises(ExportError, match="unknown export format"):
            mem.export("csv")
    assert target.read_text(encoding="utf-8") == text and target.stat().st_mode & 0o777 == 0o600
    assert json.loads(text)["format"] == "memhop-export"
    fresh = tmp_path / "restored.duckdb"
    with memhop.open(fresh) as mem:
        assert mem.restore(target) == original
        again = mem.ask(ROOMMATE).to_dict()
        assert (again["answer"], again["selected"], again["facts"]) == (
            answer["answer"], answer["selected"], answer["facts"],
        )
        with pytest.raises(ExportError, match="not empty"):
            mem.restore(target)
    with memhop.open(tmp_path / "other.duckdb") as mem, pytest.raises(MemhopError, match="no such file"):
        mem.restore(tmp_path / "missing.json")
    assert not (tmp_path / "other.duckdb").exists()
