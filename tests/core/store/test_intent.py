"""The record of a forget in flight: hashes, not names; finished or dropped at the next open."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from memhop.core.store import intent, open_store

from support import purge_world


def test_needles_are_found_by_hash_across_case_accents_and_glued_strings() -> None:
    record = intent.Intent.new("entity", 1, ["Órlaith Kelly", "Órlaith"])
    assert len(record.hits("I met ORLAITH kelly today")) == 1
    assert len(record.hits("Alice NguyenOrlaith KellyBob")) == 1
    assert record.hits("Órlaithach and Kellyanne") == []


def test_a_source_needle_is_its_first_words() -> None:
    turn = "Went climbing with the usual crowd after work and it poured down the whole evening."
    record = intent.Intent.new("source", 3, [turn], may_remain=True)
    assert len(record.hits("xx" + turn[:50] + "\x00")) == 1
    assert record.widths == {intent.PREFIX_WORDS}


def test_the_record_holds_no_name_and_is_private(tmp_path: Path) -> None:
    db = tmp_path / "memhop.duckdb"
    intent.write(db, intent.Intent.new("entity", 7, ["Rose Tyler", "Rose"]))
    saved = intent.record_path(db)
    assert saved.stat().st_mode & 0o777 == 0o600
    assert b"rose" not in saved.read_bytes().lower() and b"tyler" not in saved.read_bytes().lower()
    back = intent.read(db)
    assert back is not None and back.target == 7 and len(back.hits("Rose Tyler waved at Rose")) == 2


def test_a_forget_that_never_committed_is_dropped_and_changes_nothing(purge_template: Path, tmp_path: Path) -> None:
    db = purge_world.install(purge_template, tmp_path / "home")
    before = purge_world.dump(db)
    with open_store(db, read_only=True) as store:
        priya = store.scalar("SELECT id FROM entities WHERE name = 'Priya'")
    intent.write(db, intent.Intent.new("entity", priya, ["Priya"]))  # then kill -9 before the commit
    with open_store(db) as store:
        assert store.resumed is not None and not store.resumed.committed
    assert not intent.record_path(db).exists()
    assert purge_world.dump(db) == before


def test_a_read_only_open_reads_on_and_says_how_to_finish(
    purge_template: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = purge_world.install(purge_template, tmp_path / "home")
    intent.write(db, intent.Intent.new("entity", 999, ["Nobody Here"]))
    with caplog.at_level(logging.WARNING, logger="memhop"), open_store(db, read_only=True) as store:
        assert store.counts()["entities"] > 0
    assert "memhop forget --resume" in caplog.text
    assert intent.record_path(db).exists()


def test_an_unreadable_record_is_an_error_not_ignored(purge_template: Path, tmp_path: Path) -> None:
    db = purge_world.install(purge_template, tmp_path / "home")
    intent.record_path(db).write_text("{not json")
    with pytest.raises(Exception, match="unreadable record of an interrupted forget"):
        open_store(db)
