"""Turn ids to snapshot rows (core/store/recall.py _lookup): the id-indexed table a large
lookup uses and the binary search a small one uses give the same rows."""

from __future__ import annotations

import numpy as np
import pytest

from memhop.core.store import recall
from memhop.core.store.recall import _id_table, _lookup


def test_the_table_and_the_binary_search_find_the_same_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    ids = np.array([7, 3, 12, 5, 9], dtype=np.int64)  # rows 0..4, not in id order
    order = np.argsort(ids)
    wanted = [5, 12, 4, 100, -2, 7, 3]  # present, absent inside the range, past it, negative
    monkeypatch.setattr(recall, "DENSE_LOOKUP", 10**9)
    searched = _lookup(ids, order, wanted)
    monkeypatch.setattr(recall, "DENSE_LOOKUP", 1)
    tabled = _lookup(ids, order, wanted)
    kept = _lookup(ids, order, wanted, table=_id_table(ids, order))  # a table made once, reused
    for rows, found in (searched, tabled, kept):
        assert found.tolist() == [True, True, False, False, False, True, True]
        assert rows[found].tolist() == [3, 2, 0, 1]
    assert _id_table(np.array([1, 10**6]), np.array([0, 1])) is None  # too sparse for a table
