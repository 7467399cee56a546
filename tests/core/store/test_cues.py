"""Migration 7: a store written before the cue table gets it filled from its turns at the
first writing open; read-only, the hero retriever says how to migrate it instead of
answering from nothing."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from support.old_stores import store_at_version

from memhop.core.config import ReadSettings
from memhop.core.embed import DIM, get_embedder
from memhop.core.errors import StoreError
from memhop.core.read import read
from memhop.core.store import cues, open_store
from memhop.core.store.schema import LATEST

TURNS = [
    (1, "Wren Halloway", "Our kayak club meets at the reservoir every Saturday."),
    (2, "Ossian Pike", "The reservoir was frozen, so kayaking is off until March."),
    (3, "Wren Halloway", "Yes, it is!"),
]


def _version_6_store(path: Path) -> None:
    """A store as memhop wrote it before migration 7: three turns, no cue table."""
    con = store_at_version(path, 6)
    con.execute("INSERT INTO sources VALUES (1, 'club.txt', 'abc', 'whatsapp', NULL, now())")
    con.execute("INSERT INTO sessions VALUES (1, 1, '2024-02-01', NULL, '2024-02-01', NULL, NULL)")
    vector = [1.0] + [0.0] * (DIM - 1)
    for turn_id, speaker, text in TURNS:
        con.execute(
            "INSERT INTO turns VALUES (?, 1, ?, ?, '2024-02-01 10:00', ?, NULL, ?, ?)",
            [turn_id, turn_id, speaker, text, f"fp{turn_id}", vector],
        )
    con.close()


def test_migration_7_files_an_old_store_s_turns_under_their_cues(tmp_path: Path) -> None:
    path = tmp_path / "memhop.duckdb"
    _version_6_store(path)
    with open_store(path, read_only=True) as store:  # reading never migrates
        assert store.schema_version() == 6
        with pytest.raises(StoreError, match="predates the cue table"):
            read(store, "Where does the kayak club meet?", get_embedder("minilm"),
                 replace(ReadSettings(), retriever="hero"))
    with open_store(path) as store:
        assert store.schema_version() == LATEST
        got = set(store.con.execute("SELECT turn_id, cue, kind FROM turn_cues").fetchall())
    assert got == {(t, cue, kind) for t, speaker, text in TURNS for cue, kind in cues.cues_of(speaker, text)}
    assert {(1, "kayak", "word"), (2, "reservoir", "word"), (3, "wren halloway", "speaker")} <= got
    assert not any(t == 3 and kind == "word" for t, _, kind in got)  # "Yes, it is!" has no content word
