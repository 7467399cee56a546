"""One note as memory (`Memory.remember`, what `memhop mcp`'s remember tool calls): its own
source, written into profiles and facts at once, said by the store's diarist by default."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

import memhop
from memhop.core.errors import ImportFormatError, StoreError
from memhop.core.notes import make_note


def test_a_note_is_its_own_source_and_is_written_at_once(home: Path) -> None:
    with memhop.open() as mem:
        report = mem.remember("My flatmate Tomás plays the cello.", when="2026-03-14T18:30")
        sources = mem.store.con.execute("SELECT path, format FROM sources").fetchall()
        turns = mem.store.con.execute("SELECT speaker, ts, text FROM turns").fetchall()
        tomas = mem.show("Tomás")
    [stored] = report.files
    assert stored.status == "imported" and stored.turns == 1 and stored.path.startswith("note 2026-03-14T18:30:00 ")
    assert sources == [(stored.path, "note")]
    assert turns == [("me", datetime(2026, 3, 14, 18, 30), "My flatmate Tomás plays the cello.")]
    assert report.write is not None and report.write.sessions == 1 and not report.write.failures
    assert any("cello" in fact.text for fact in tomas.residuals)


def test_the_same_note_at_the_same_time_is_stored_once(home: Path) -> None:
    with memhop.open() as mem:
        first = mem.remember("Inês is a vet.", when="2026-03-14")
        again = mem.remember("  Inês is a vet. ", when="2026-03-14")
        later = mem.remember("Inês is a vet.", when="2026-03-15")
        counts = mem.stats()
    assert [first.files[0].status, again.files[0].status, later.files[0].status] == ["imported", "unchanged", "imported"]
    assert again.files[0].path == first.files[0].path
    assert counts["sources"] == counts["turns"] == 2


def test_i_in_a_note_is_the_stores_diarist(home: Path, tmp_path: Path) -> None:
    diary = tmp_path / "diary.md"
    diary.write_text("# 2026-03-01\n\nHad lunch with Ana.\n", encoding="utf-8")
    with memhop.open() as mem:
        mem.ingest(diary, self_name="Maya Patel")
        mem.remember("My sister Ana is a pilot.", when="2026-03-02")
        session_owner = mem.store.scalar("SELECT self_name FROM sessions ORDER BY id DESC LIMIT 1")
        entities = {e.name: e.kind for e in mem.entities()}
    assert session_owner == "Maya Patel"
    assert entities.get("Maya Patel") == "self" and "me" not in entities


@pytest.mark.parametrize(
    ("text", "when", "reason"),
    [("   ", None, "the note has no text"), ("Ana is a pilot.", "next Tuesday", "unrecognised date 'next Tuesday'")],
)
def test_a_note_without_text_or_with_a_date_that_is_not_iso_is_refused_before_the_store(
    home: Path, text: str, when: str | None, reason: str
) -> None:
    with memhop.open() as mem, pytest.raises(ImportFormatError, match=reason):
        mem.remember(text, when=when)
    assert not (home / "memhop.duckdb").exists()


def test_a_note_without_a_date_is_dated_now_and_spoken_by_the_diarist() -> None:
    before = datetime.now().replace(microsecond=0)
    note = make_note("Ana is a pilot.", speaker="  ")
    assert note.speaker == "me" and before <= note.when <= datetime.now()
    assert make_note("Ana is a pilot.", speaker="Ana").speaker == "Ana"


def test_a_read_only_memory_refuses_a_note(home: Path) -> None:
    with memhop.open() as mem:
        mem.stats()  # creates the store
    with memhop.open(read_only=True) as mem, pytest.raises(StoreError, match="remember needs"):
        mem.remember("Ana is a pilot.")
