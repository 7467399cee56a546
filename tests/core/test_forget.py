"""forget: an entity, a fact, a source; gone from every table and from the file's bytes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pytest
from support import purge_world
from support.fake_engine import FakeEngine, raises
from support.paths import SAMPLES

from memhop.core import forget_plans
from memhop.core.edit import add_fact
from memhop.core.errors import AmbiguousName, EngineError, EntityNotFound, StoreError, UsageError
from memhop.core.forget import ForgetError, ResidueError, forget, scan_text
from memhop.core.ingest import ingest
from memhop.core.inspect import resolve_entity
from memhop.core.language.names import mentions
from memhop.core.redact import MARKER, checked_rewrite, names_matcher, redact
from memhop.core.store import Store, compact, intent, memory, open_store, tables

EMBED = purge_world.EMBEDDER

BOB = "Bob Kowalski"


@pytest.fixture
def db(purge_template: Path, tmp_path: Path) -> Path:
    return purge_world.install(purge_template, tmp_path / "home")


@pytest.fixture(scope="module")
def bob_gone(purge_template: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], Any]:
    """One store with Bob forgotten (turns redacted in place), and a dump from before."""
    db = purge_world.install(purge_template, tmp_path_factory.mktemp("bob-gone"))
    before = purge_world.dump(db)
    with open_store(db) as store:
        report = forget(store, EMBED, name=BOB)
    return db, before, report


def _bob_id(before: dict[str, Any]) -> int:
    return next(row[0] for row in before["entities"] if row[1] == BOB)


def _names_bob(text: str) -> bool:
    return mentions(text, BOB)


def test_forgotten_name_is_nowhere_in_the_tables_or_the_file(bob_gone: tuple[Path, dict[str, Any], Any]) -> None:
    db, _, report = bob_gone
    assert report.residue["text_hits"] == {} and report.residue["file_text_hits"] == 0
    assert not Path(str(db) + ".wal").exists()
    assert db.stat().st_mode & 0o777 == 0o600
    data = db.read_bytes().lower()
    assert b"kowalski" not in data
    # "bob" in text would sit among printable bytes; three letters also occur by chance in vectors
    assert not re.search(rb"[ -~]{4}bob[ -~]{4}", data)
    with open_store(db, read_only=True) as store:
        assert scan_text(store, [BOB, "Bob"]) == {}
        with pytest.raises(EntityNotFound):
            resolve_entity(store, "Bob")


def _schema(path: Path) -> list[Any]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return [
            con.execute("SELECT table_name, sql FROM duckdb_tables() ORDER BY 1").fetchall(),
            con.execute("SELECT index_name, sql FROM duckdb_indexes() ORDER BY 1").fetchall(),
            con.execute("SELECT table_name, constraint_text FROM duckdb_constraints() ORDER BY ALL").fetchall(),
            con.execute("SELECT * FROM migrations ORDER BY version").fetchall(),
        ]
    finally:
        con.close()


def test_compaction_keeps_every_table_index_constraint_and_migration(
    purge_template: Path, bob_gone: tuple[Path, dict[str, Any], Any]
) -> None:
    assert _schema(bob_gone[0]) == _schema(purge_template)


def test_a_failed_compaction_is_reported_and_the_store_stays_usable(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(compact.os, "replace", refuse)
    with open_store(db) as store:
        with pytest.raises(StoreError, match=r"compaction failed .*No space left"):
            forget(store, EMBED, name="Priya")
        assert store.scalar("SELECT count(*) FROM entities WHERE name = 'Priya'") == 0
    assert not Path(str(db) + compact.COMPACT_SUFFIX).exists()


def test_his_own_rows_are_deleted_and_the_log_says_only_that(bob_gone: tuple[Path, dict[str, Any], Any]) -> None:
    db, before, _ = bob_gone
    bob = _bob_id(before)
    after = purge_world.dump(db)
    assert not [r for r in after["residuals"] if r[1] == bob]
    assert not [r for r in after["mentions"] if r[0] == bob]
    assert not [r for r in after["profiles"] if r[0] == bob]
    assert after["oplog"][-1][2:] == ("forget", "an entity was forgotten")
    assert not any(_names_bob(r[3]) for r in after["oplog"])


def test_other_facts_unchanged_except_those_that_named_him(bob_gone: tuple[Path, dict[str, Any], Any]) -> None:
    db, before, _ = bob_gone
    bob = _bob_id(before)
    after = {r[0]: r for r in purge_world.dump(db)["residuals"]}
    others = [r for r in before["residuals"] if r[1] != bob]
    named = [r for r in others if _names_bob(r[2])]
    assert named, "the sample should have facts of other people that name Bob"
    for row in others:
        if row in named:
            assert row[0] not in after or not _names_bob(after[row[0]][2])
        else:
            assert after[row[0]] == row  # text, embedding, sources: untouched


def test_turns_are_redacted_in_place_and_reembedded(bob_gone: tuple[Path, dict[str, Any], Any]) -> None:
    db, before, _ = bob_gone
    after = {r[0]: r for r in purge_world.dump(db)["turns"]}
    assert len(after) == len(before["turns"])
    changed = [(old, after[old[0]]) for old in before["turns"] if after[old[0]][5] != old[5]]
    assert any(_names_bob(old[5]) for old, _ in changed)
    for _, new in changed:
        assert MARKER in new[5] and not _names_bob(new[5])
    untouched = [old for old in before["turns"] if _names_bob(old[5])]
    assert all(after[t[0]][5] != t[5] for t in untouched)
    sample = changed[:3]
    vectors = EMBED.embed([new[5] for _, new in sample])
    for (_, new), vector in zip(sample, vectors):
        assert np.allclose(np.asarray(new[8], dtype=np.float32), vector, atol=1e-5)


def test_profiles_lose_only_the_sentences_about_him(bob_gone: tuple[Path, dict[str, Any], Any]) -> None:
    db, _, _ = bob_gone
    with open_store(db, read_only=True) as store:
        maya = memory.profile_of(store, resolve_entity(store, "Maya Patel").id)
    assert maya == "Maya Patel keeps this diary and plays the violin. She works at Brightwave with Dan Okafor."


def test_drop_turns_deletes_them_and_every_reference(db: Path) -> None:
    with open_store(db) as store:
        turns_before = store.counts()["turns"]
        plan = forget(store, None, name=BOB, dry_run=True, drop_turns=True)
        dropped = next(c["values"] for c in plan.changes if c["table"] == "turns" and c["action"] == "delete")
        report = forget(store, EMBED, name=BOB, drop_turns=True)
        assert store.counts()["turns"] == turns_before - len(dropped)
        assert store.scalar("SELECT count(*) FROM mentions WHERE turn_id NOT IN (SELECT id FROM turns)") == 0
        cited = "SELECT unnest(source_turns) AS t FROM residuals"
        assert store.scalar(f"SELECT count(*) FROM ({cited}) WHERE t NOT IN (SELECT id FROM turns)") == 0
    assert report.residue["text_hits"] == {} and report.residue["file_text_hits"] == 0


def test_a_file_name_naming_her_is_redacted_and_reimporting_it_brings_nothing_back(db: Path) -> None:
    embedder = EMBED
    with open_store(db) as store:
        forget(store, embedder, name="Alice Nguyen")
        paths = [r[0] for r in store.con.execute("SELECT path FROM sources").fetchall()]
        assert any(p.endswith("whatsapp-[forgotten].txt") for p in paths)
        assert not any("alice" in p.lower() for p in paths)
        again = ingest(store, [str(SAMPLES / "whatsapp-alice.txt")], embedder)
        assert again.files[0].status == "unchanged"
        assert scan_text(store, ["Alice Nguyen", "Alice"]) == {}


def test_dry_run_lists_the_changes_and_leaves_the_file_identical(db: Path) -> None:
    digest = purge_world.sha256_file(db)
    with open_store(db, read_only=True) as store:
        report = forget(store, None, name=BOB, dry_run=True)
    assert purge_world.sha256_file(db) == digest
    assert report.dry_run and report.residue is None
    assert {"action": "delete", "table": "entities", "where": "id", "values": [3]} in report.changes
    assert any(
        c["table"] == "turns" and MARKER in c["set"].get("text", "") for c in report.changes if c["action"] == "update"
    )


def _fail_on_call(n: int, original: Any) -> Any:
    calls = {"n": 0}

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == n:
            raise RuntimeError("simulated crash")
        return original(*args, **kwargs)

    return wrapper


@pytest.mark.parametrize(
    ("owner", "step", "nth"),
    [(tables, "delete_where", 3), (tables, "update_rows", 3), (Store, "log", 1)],
)
def test_a_failure_midway_leaves_every_table_as_it_was(
    db: Path, monkeypatch: pytest.MonkeyPatch, owner: Any, step: str, nth: int
) -> None:
    before = purge_world.dump(db)
    monkeypatch.setattr(owner, step, _fail_on_call(nth, getattr(owner, step)))
    with open_store(db) as store, pytest.raises(RuntimeError, match="simulated crash"):
        forget(store, EMBED, name=BOB)
    assert purge_world.dump(db) == before
    assert not intent.record_path(db).exists()  # nothing committed, nothing to finish


def test_residue_left_behind_fails_loudly(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forget_plans, "_plan_labels", lambda store, plan, matcher: None)
    with open_store(db) as store, pytest.raises(ResidueError, match=r"turns\.speaker") as caught:
        forget(store, EMBED, name=BOB)
    assert caught.value.exit_code == 3


def test_forget_fact_removes_it_and_the_profile_sentence_stating_it(db: Path) -> None:
    embedder = EMBED
    sentence = "Dan Okafor from my team was drumming on his desk with two pencils all afternoon."
    with open_store(db) as store:
        fact_id = add_fact(store, "Dan Okafor", sentence, embedder).details["id"]
        dan = resolve_entity(store, "Dan").id
        other_facts = [r for r in memory.residuals_of(store, dan) if r.id != fact_id]
        assert sentence in (memory.profile_of(store, dan) or "")
        report = forget(store, embedder, fact=fact_id)
        assert report.residue["text_hits"] == {}
        assert fact_id not in [r.id for r in memory.residuals_of(store, dan, include_superseded=True)]
        profile = memory.profile_of(store, dan) or ""
        assert "two pencils" not in profile and "Priya came by the office" in profile
        assert memory.residuals_of(store, dan) == other_facts
        assert store.scalar("SELECT detail FROM oplog ORDER BY id DESC LIMIT 1") == "a fact was forgotten"
        with pytest.raises(ForgetError, match="no fact with id"):
            forget(store, embedder, fact=fact_id)


def test_forget_source_by_a_copy_of_the_file(db: Path, tmp_path: Path) -> None:
    copy = tmp_path / "exported-again.txt"
    copy.write_bytes((SAMPLES / "whatsapp-alice.txt").read_bytes())
    with open_store(db) as store:
        sid = store.scalar("SELECT id FROM sources WHERE path LIKE '%whatsapp-alice.txt'")
        gone = [
            r[0]
            for r in store.con.execute(
                "SELECT t.id FROM turns t JOIN sessions s ON s.id = t.session_id WHERE s.source_id = ?", [sid]
            ).fetchall()
        ]
        cited = store.con.execute("SELECT id, source_turns FROM residuals").fetchall()
        before = store.counts()
        report = forget(store, EMBED, source=str(copy))
        after = store.counts()
        assert (after["sources"], after["turns"]) == (before["sources"] - 1, before["turns"] - len(gone))
        kept = {r[0] for r in store.con.execute("SELECT id FROM residuals").fetchall()}
        for rid, sources in cited:
            assert (rid in kept) == (not set(sources) <= set(gone))
    assert report.residue["text_hits"] == {} and report.residue["file_text_hits"] == 0
    assert report.residue["needles"] > 0


def test_the_diarist_and_ambiguous_requests_are_refused(db: Path) -> None:
    with open_store(db) as store:
        with pytest.raises(ForgetError, match="diarist"):
            forget(store, None, name="Maya Patel", dry_run=True)
        with pytest.raises(UsageError, match="exactly one"):
            forget(store, None, name=BOB, fact=1, dry_run=True)
        with pytest.raises(ForgetError, match="no imported source"):
            forget(store, None, source="never-imported.txt", dry_run=True)


def test_a_first_name_shared_with_someone_else_is_left_alone(db: Path) -> None:
    with open_store(db) as store:
        with store.transaction():
            memory.add_entity(store, "Bob Marley", "person")
        with pytest.raises(AmbiguousName, match="could be Bob Kowalski or Bob Marley"):
            forget(store, None, name="Bob", dry_run=True)
        report = forget(store, None, name=BOB, dry_run=True)
    assert report.skipped_forms == ["Bob"]
    updated = {c["key"] for c in report.changes if c["action"] == "update" and c["table"] == "turns"}
    with open_store(db, read_only=True) as store:
        only_bob = [
            turn_id
            for turn_id, speaker, text in store.con.execute("SELECT id, speaker, text FROM turns").fetchall()
            if re.search(r"\bBob\b", text) and BOB not in text and speaker != BOB
        ]
    assert only_bob and not updated & set(only_bob)


def test_a_unique_surname_picks_one_entity_and_a_loose_name_that_fits_two_forgets_nothing(db: Path) -> None:
    with open_store(db) as store:
        assert forget(store, None, name="kowalski", dry_run=True).label == BOB
        with store.transaction():
            memory.add_entity(store, "Pri Kowalski", "person")
        before = store.counts()
        # "Kowalski" is now two people's surname; "priya" is Priya's name and fits nobody else
        with pytest.raises(AmbiguousName, match="could be Bob Kowalski or Pri Kowalski"):
            forget(store, EMBED, name="Kowalski")
        assert forget(store, None, name="priya", dry_run=True).label == "Priya"
        assert store.counts() == before


# --- the text surgery and the byte scan on their own ----------------------------------


def test_redaction_marks_sentences_and_carries_a_pronoun_into_the_next_turn() -> None:
    hit = names_matcher(["Bob Kowalski", "Bob"]).search
    first, carry = redact("Bob had his interview today. Fingers crossed.", hit, MARKER)
    assert (first, carry) == (f"{MARKER} Fingers crossed.", False)
    first, carry = redact("Lunch was fine. Bob had his interview today", hit, MARKER)
    second, _ = redact("he thinks it went ok? they asked him to mix a track. Anyway, coffee?", hit, MARKER, carry)
    assert (first, second) == (f"Lunch was fine. {MARKER}", f"{MARKER} Anyway, coffee?")
    assert (
        redact("Bobby is not Bob's cousin", names_matcher(["Bobby Tables"]).search, MARKER)[0]
        == "Bobby is not Bob's cousin"
    )


def test_an_engine_rewrite_is_checked_by_string_match() -> None:
    text = "Alice lives with Bob. She is a nurse."
    forms = ["Bob Kowalski", "Bob"]
    assert checked_rewrite(FakeEngine(rewrite="Alice lives with a flatmate. She is a nurse."), text, forms) == (
        "Alice lives with a flatmate. She is a nurse."
    )
    assert checked_rewrite(FakeEngine(rewrite="Alice lives with Bob K."), text, forms) == ""
    failing = FakeEngine(rewrite=raises(EngineError("retries exhausted")))
    assert checked_rewrite(failing, text, forms) == "She is a nurse."


def test_byte_scan_tells_text_from_chance_bytes(tmp_path: Path) -> None:
    noise = bytes([0x93, 0x01, 0xFE]) + b"bOb" + bytes([0x00, 0x8F, 0x11])
    text = b"\x00\x00Alice NguyenBob Kowalski said hi\x00 kebob and Bobby are fine \x00"
    path = tmp_path / "x.duckdb"
    path.write_bytes(noise + text)
    scan = compact.scan_file_bytes(path, ["Bob Kowalski", "Bob"])
    assert (scan.text_hits, scan.binary_matches) == (1, 1)
    Path(str(path) + ".wal").write_bytes(b"....... Bob was here .......")
    assert compact.scan_file_bytes(path, ["Bob"]).text_hits == 2


def test_a_forget_cut_short_after_its_commit_is_finished_by_the_next_open(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def killed(store: Store) -> None:
        raise KeyboardInterrupt  # as kill -9 right after the commit: no compaction, no scan

    with monkeypatch.context() as patch:
        patch.setattr(compact, "compact", killed)
        with open_store(db) as store, pytest.raises(KeyboardInterrupt):
            forget(store, EMBED, name=BOB)
    record = intent.record_path(db)
    assert record.exists() and b"kowalski" not in record.read_bytes().lower()
    assert b"kowalski" in db.read_bytes().lower()  # deleted rows, their bytes still in freed blocks
    with open_store(db) as store:  # any writing open finishes the job
        assert store.resumed is not None and store.resumed.committed and store.resumed.clean
        assert store.resumed.residue["bytes_scanned"] > 0
        with pytest.raises(EntityNotFound):
            resolve_entity(store, BOB)
    assert not record.exists()
    assert b"kowalski" not in db.read_bytes().lower()
    assert not Path(str(db) + ".wal").exists()


def test_a_failed_compaction_is_retried_at_the_next_open(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patch:
        patch.setattr(compact.os, "replace", lambda *args: (_ for _ in ()).throw(OSError(28, "No space left on device")))
        with open_store(db) as store, pytest.raises(StoreError, match="compaction failed"):
            forget(store, EMBED, name=BOB)
    assert intent.record_path(db).exists()
    with open_store(db) as store:
        assert store.resumed is not None and store.resumed.compacted
    assert b"kowalski" not in db.read_bytes().lower()


def _add_person(store: Store, name: str, profile: str, turn_text: str) -> int:
    entity_id = memory.add_entity(store, name, "person")
    memory.put_profile(store, entity_id, profile, EMBED.embed([profile])[0])
    turns = [t for (t,) in store.con.execute("SELECT id FROM turns WHERE text LIKE ?", [f"%{turn_text}%"]).fetchall()]
    memory.add_mentions(store, entity_id, turns)
    return entity_id


def test_a_common_word_name_is_forgotten_where_it_names_her_and_nowhere_else(db: Path, tmp_path: Path) -> None:
    chat = tmp_path / "rose.jsonl"
    lines = [
        "Prices rose again this month, so I skipped the market.",
        "Rose Tyler came over for dinner. She brought a lemon cake.",
        "Please mark the calendar for Friday. Rose said she may come too.",
    ]
    chat.write_text(
        "\n".join(
            json.dumps({"speaker": purge_world.SELF, "text": t, "timestamp": f"2024-06-0{i + 1}T10:00:00"})
            for i, t in enumerate(lines)
        )
        + "\n"
    )
    with open_store(db) as store:
        ingest(store, [str(chat)], EMBED, self_name=purge_world.SELF)
        _add_person(store, "Rose Tyler", "Rose Tyler is a friend from school. Rose loves baking.", "Rose Tyler")
        dry = forget(store, None, name="Rose Tyler", dry_run=True)
        assert [s["sentence"] for s in dry.sentences if s["table"] == "turns"] == [
            "Rose Tyler came over for dinner.",
            "She brought a lemon cake.",
            "Rose said she may come too.",
        ]
        report = forget(store, EMBED, name="Rose Tyler")
        assert report.residue["text_hits"] == {} and report.residue["file_text_hits"] == 0
        texts = [t for (t,) in store.con.execute("SELECT text FROM turns ORDER BY id").fetchall()]
        paths = [p for (p,) in store.con.execute("SELECT path FROM sources").fetchall()]
    assert lines[0] in texts and f"Please mark the calendar for Friday. {MARKER}" in texts
    assert str(chat) in paths  # the file's name is a common word, not her
    assert b"tyler" not in db.read_bytes().lower()


def test_forgetting_a_name_catches_its_accented_spelling(db: Path, tmp_path: Path) -> None:
    chat = tmp_path / "gym.jsonl"
    chat.write_text(json.dumps({"speaker": purge_world.SELF, "text": "Órlaith Kelly spotted me at the gym. Good session.",
                                "timestamp": "2024-06-01T10:00:00"}) + "\n")
    with open_store(db) as store:
        ingest(store, [str(chat)], EMBED, self_name=purge_world.SELF)
        _add_person(store, "Orlaith Kelly", "Orlaith Kelly goes to the same gym.", "Orlai")
        report = forget(store, EMBED, name="Orlaith Kelly")
        assert report.residue["file_text_hits"] == 0 and report.residue["needles"] >= 3
        texts = [t for (t,) in store.con.execute("SELECT text FROM turns WHERE text LIKE '%Good session%'").fetchall()]
    assert texts == [f"{MARKER} Good session."]
    assert b"orlai" not in db.read_bytes().lower()
