"""The turns a question's people speak or are named in (core/evidence.py rows_about, and
people_rows, which the read path uses): every such row once, in row order, however many a
speaker has."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from support import purge_world

from memhop.core.evidence import _union, people_rows, rows_about
from memhop.core.store import open_store
from memhop.core.store.recall import snapshot


def test_a_speakers_turns_and_the_turns_naming_an_entity_are_each_found_once_in_row_order(
    purge_template: Path, tmp_path: Path
) -> None:
    db = purge_world.install(purge_template, tmp_path)
    with open_store(db, read_only=True) as store:
        snap = snapshot(store)
    turns = snap.turns
    named = max(turns.mentions, key=lambda e: len(turns.mentions[e]))
    speaker = turns.speakers[int(np.bincount(turns.speaker_codes).argmax())]
    spoken = np.flatnonzero(np.asarray([turns.speakers[c] == speaker for c in turns.speaker_codes]))
    got = rows_about(turns, [(speaker, ())], [named])
    assert len(spoken) and len(turns.mentions[named])
    assert got.tolist() == sorted(set(spoken.tolist()) | set(turns.mentions[named].tolist()))
    focus, (own, its), (said, unsaid) = people_rows(turns, [(speaker, (), None), ("Nobody Atall", (), named)])
    assert own.tolist() == said.tolist() == spoken.tolist() and its.tolist() == turns.mentions[named].tolist()
    assert unsaid.tolist() == []
    assert focus.tolist() == got.tolist()  # the read path's focus is the same rows


def test_few_rows_and_many_rows_are_joined_alike() -> None:
    parts = [np.array([1, 4, 9]), np.array([0, 4, 5]), np.array([9])]
    assert _union(parts, 10_000).tolist() == _union(parts, 10).tolist() == [0, 1, 4, 5, 9]
    assert _union([np.zeros(0, np.int64), np.zeros(0, np.int64)], 100).tolist() == []
    assert _union([], 100).tolist() == [] and _union([np.array([2, 3])], 100).tolist() == [2, 3]
