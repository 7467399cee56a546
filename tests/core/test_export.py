"""export: everything a user needs to leave, complete enough to rebuild the store from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memhop.core.export import (
    ExportError,
    export_data,
    export_text,
    list_entities,
    load_export,
)
from memhop.core.store import meta, open_store, tables

from support import purge_world

EMBED = purge_world.EMBEDDER


def test_a_json_export_rebuilds_the_same_store(purge_template: Path, tmp_path: Path) -> None:
    with open_store(purge_template, read_only=True) as store:
        text = export_text(store, "json")
        counts = store.counts()
        dumped = {t: tables.dump_table(store, t) for t in tables.tables(store) if t != "migrations"}
        identity = meta.identity(store.con)
    data = json.loads(text)
    assert {k: data["counts"][k] for k in counts} == counts
    assert len(data["entities"]) == counts["entities"]
    assert sum(len(e["facts"]) for e in data["entities"]) == counts["residuals"]
    assert sum(len(s["turns"]) for src in data["sources"] for s in src["sessions"]) == counts["turns"]
    with open_store(tmp_path / "fresh.duckdb", embedder=EMBED.name) as fresh:  # the embedder of the export
        assert load_export(fresh, data, EMBED) == counts
        for table, rows in dumped.items():
            got = tables.dump_table(fresh, table)
            if table == "meta":  # a restored store is another store: the same record, its own identity
                assert meta.identity(fresh.con) not in ("", identity)
                got = (got[0], [r for r in got[1] if r[0] != meta.IDENTITY_KEY])
                rows = (rows[0], [r for r in rows[1] if r[0] != meta.IDENTITY_KEY])
            assert got == rows, table
        with pytest.raises(ExportError, match="not empty"):
            load_export(fresh, data, EMBED)


def test_facts_carry_their_sources(purge_template: Path) -> None:
    with open_store(purge_template, read_only=True) as store:
        data = export_data(store)
    turns = {t["id"]: t for src in data["sources"] for s in src["sessions"] for t in s["turns"]}
    carol = next(e for e in data["entities"] if e["name"] == "Carol")
    assert carol["profile"]["text"].startswith("Bob's older sister Carol")
    assert carol["facts"] and carol["mentions"]
    for fact in carol["facts"]:
        assert fact["source_turns"] and all(fact["text"] in turns[t]["text"] for t in fact["source_turns"])


def test_markdown_reads_as_a_document(purge_template: Path) -> None:
    with open_store(purge_template, read_only=True) as store:
        text = export_text(store, "md")
        with pytest.raises(ExportError, match="unknown export format"):
            export_text(store, "csv")
    assert text.startswith("# memhop export\n")
    assert "### Bob Kowalski (person)" in text and "## Sources" in text and "## Operation log" in text
    assert "  > Maya Patel (2024-03-02T00:00:00): Bob's older sister Carol is down from Leeds" in text
    assert "- **Alice Nguyen** (2024-03-12T09:14:00): morning!! are you still coming thursday?" in text


def test_entities_are_listed_with_their_counts(purge_template: Path) -> None:
    with open_store(purge_template, read_only=True) as store:
        rows = list_entities(store)
        assert rows[0].name == "Maya Patel" and rows[0].kind == "self"
        northlight = next(r for r in rows if r.name == "Northlight Studios")
        assert northlight.aliases == ["Northlight"]
        facts = store.scalar("SELECT count(*) FROM residuals WHERE entity_id = ?", [northlight.id])
        mentions = store.scalar("SELECT count(*) FROM mentions WHERE entity_id = ?", [northlight.id])
    assert (northlight.facts, northlight.mentions) == (facts, mentions) and northlight.has_profile


def test_save_replaces_a_link_target_and_writes_a_pipe_in_place(tmp_path: Path) -> None:
    import os
    import threading

    from memhop.core.export import save

    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real.name)
    save(link, "new")
    assert link.is_symlink() and real.read_text() == "new" and real.stat().st_mode & 0o777 == 0o600
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    save(fifo, "streamed")
    reader.join(timeout=10)
    assert got == ["streamed"] and sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "pipe", "real.json"]
