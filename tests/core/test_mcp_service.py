"""The memory behind `memhop mcp` without the protocol: what it refuses, and the store it
leaves free between calls. (Through the protocol: test_mcp_server.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

import memhop
from memhop.core.errors import StoreError
from memhop.core.mcp.service import MemoryService, ReadOnlyServer


@pytest.mark.slow  # the write path runs once
def test_a_read_write_service_creates_the_store_and_leaves_it_free_between_calls(home: Path) -> None:
    service = MemoryService()
    db = service.prepare()
    assert db == home / "memhop.duckdb" and db.exists()
    assert service.entities() == {"entities": []}
    with memhop.open() as mem:  # another writer, as `memhop ingest` in a shell would be
        mem.remember("Ana is a pilot.", when="2026-03-14")
    assert service.stats()["turns"] == 1


def test_a_read_only_service_refuses_changes_before_opening_anything(home: Path) -> None:
    service = MemoryService(read_only=True)
    with pytest.raises(StoreError, match="no memhop store at"):
        service.prepare()
    with pytest.raises(ReadOnlyServer, match=r"started with --read-only\): remember is refused"):
        service.remember("Ana is a pilot.")
    with pytest.raises(ReadOnlyServer, match="forget is refused"):
        service.forget("Ana", dry_run=False)
    assert not home.exists()


