"""memhop forget / edit / fact / merge / rename / entities, as a user runs them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from memhop.cli.render import forget as forget_render
from memhop.cli.app import app

from support import purge_world
from support.paths import SAMPLES

BOB = "Bob Kowalski"


def run(runner: CliRunner, *args: str, input: str | None = None) -> Any:
    return runner.invoke(app, list(args), input=input)


def test_forget_yes_leaves_no_trace_and_ask_does_not_know(purge_db: Path, runner: CliRunner) -> None:
    result = run(runner, "forget", BOB, "--yes", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["residue"]["text_hits"] == {} and report["residue"]["file_text_hits"] == 0
    assert report["summary"]["entities deleted"] == 1 and report["compacted"]
    assert not Path(str(purge_db) + ".wal").exists()
    data = purge_db.read_bytes().lower()
    assert b"kowalski" not in data and not re.search(rb"[ -~]{4}bob[ -~]{4}", data)
    answer = run(runner, "ask", "What instrument does Bob Kowalski play?")
    assert answer.exit_code == 0 and "I don't know" in answer.stdout
    assert run(runner, "show", BOB).exit_code == 1


def test_forget_asks_first_and_refuses_without_a_terminal(
    purge_db: Path, runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    digest = purge_world.sha256_file(purge_db)
    refused = run(runner, "forget", BOB)
    assert refused.exit_code == 2 and "pass --yes" in refused.stderr
    monkeypatch.setattr(forget_render, "interactive", lambda: True)
    declined = run(runner, "forget", BOB, input="n\n")
    assert declined.exit_code == 1 and "not confirmed" in declined.stderr
    assert "entities deleted: 1" in declined.stderr
    assert purge_world.sha256_file(purge_db) == digest
    accepted = run(runner, "forget", BOB, input="y\n")
    assert accepted.exit_code == 0, accepted.output
    assert "residue scan: 0 matches" in accepted.stdout


def test_dry_run_lists_every_change_and_the_file_stays_identical(purge_db: Path, runner: CliRunner) -> None:
    digest = purge_world.sha256_file(purge_db)
    listed = run(runner, "forget", "Alice Nguyen", "--dry-run")
    assert listed.exit_code == 0, listed.output
    assert "update sources" in listed.stdout and "whatsapp-[forgotten].txt" in listed.stdout
    assert "dry run: nothing was changed." in listed.stdout
    assert re.search(r"^redact in turns \d+: '.*Alice.*'$", listed.stdout, re.MULTILINE)  # the sentences themselves
    as_json = json.loads(run(runner, "forget", "Alice Nguyen", "--dry-run", "--drop-turns", "--json").stdout)
    assert as_json["dry_run"] and any(c["table"] == "turns" and c["action"] == "delete" for c in as_json["changes"])
    assert any("Alice" in s["sentence"] for s in as_json["sentences"])
    assert purge_world.sha256_file(purge_db) == digest


def test_the_forget_plan_says_facts(purge_db: Path, runner: CliRunner) -> None:
    listed = run(runner, "forget", "Alice Nguyen", "--dry-run").stdout
    assert "facts deleted:" in listed and "delete facts where id in" in listed
    assert "residual" not in listed
    as_json = json.loads(run(runner, "forget", "Alice Nguyen", "--dry-run", "--json").stdout)
    assert any(c["table"] == "facts" for c in as_json["changes"]) and "facts deleted" in as_json["summary"]
    assert "residual" not in json.dumps(as_json)


def test_facts_added_corrected_and_removed(purge_db: Path, runner: CliRunner) -> None:
    added = run(runner, "fact", "add", "Priya", "Priya is an editor at a publishing house.", "--json")
    assert added.exit_code == 0, added.output
    fact_id = json.loads(added.stdout)["details"]["id"]
    fixed = run(runner, "fact", "edit", str(fact_id), "Priya is a senior editor.", "-c", "state_change")
    assert fixed.exit_code == 0, fixed.output
    shown = json.loads(run(runner, "show", "Priya", "--json").stdout)
    assert {"id": fact_id, "text": "Priya is a senior editor."}.items() <= next(
        r for r in shown["facts"] if r["id"] == fact_id
    ).items()
    removed = run(runner, "fact", "rm", str(fact_id))
    assert removed.exit_code == 0, removed.output
    shown = json.loads(run(runner, "show", "Priya", "--json").stdout)
    assert fact_id not in [r["id"] for r in shown["facts"]]
    again = run(runner, "forget", "--fact", str(fact_id), "--yes")
    assert again.exit_code == 1 and "no fact with id" in again.stderr
    bad_category = run(runner, "fact", "add", "Priya", "x", "--category", "gossip")
    assert bad_category.exit_code == 2 and "unknown category 'gossip'" in bad_category.stderr


def test_forget_a_source(purge_db: Path, runner: CliRunner, stats: Any) -> None:
    before = stats()
    result = run(runner, "forget", "--source", str(SAMPLES / "notes.jsonl"), "--yes", "--json")
    assert result.exit_code == 0, result.output
    after = stats()
    assert (after["sources"], after["turns"]) == (before["sources"] - 1, before["turns"] - 8)
    assert "not regenerated" in json.loads(result.stdout)["note"]


def test_forget_a_source_by_its_id_from_memhop_sources(purge_db: Path, runner: CliRunner, stats: Any) -> None:
    listed = json.loads(run(runner, "sources", "--json").stdout)
    notes = next(s for s in listed if s["name"].endswith("notes.jsonl"))
    before = stats()
    result = run(runner, "forget", "--source", str(notes["id"]), "--yes")
    assert result.exit_code == 0, result.output
    assert stats()["sources"] == before["sources"] - 1
    assert all(s["id"] != notes["id"] for s in json.loads(run(runner, "sources", "--json").stdout))


def test_forget_on_a_mistyped_store_path_creates_nothing(home: Path, tmp_path: Path, runner: CliRunner) -> None:
    missing = tmp_path / "no" / "such.duckdb"
    result = run(runner, "forget", "Bob", "--yes", "--db", str(missing))
    assert result.exit_code != 0 and "no memhop store" in result.stderr
    assert not missing.parent.exists()


def test_edit_profile_by_flag_by_stdin_and_in_the_editor(
    purge_db: Path, runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(runner, "edit", "Priya", "--set", "Priya loves typography.").exit_code == 0
    assert json.loads(run(runner, "show", "Priya", "--json").stdout)["profile"] == "Priya loves typography."
    assert run(runner, "edit", "Priya", "--set", "-", input="Priya edits books.\n").exit_code == 0
    assert json.loads(run(runner, "show", "Priya", "--json").stdout)["profile"] == "Priya edits books."
    import click

    monkeypatch.setattr(click, "edit", lambda text: text.replace("edits books", "edits novels"))
    assert run(runner, "edit", "Priya").exit_code == 0
    assert json.loads(run(runner, "show", "Priya", "--json").stdout)["profile"] == "Priya edits novels."
    monkeypatch.setattr(click, "edit", lambda text: None)
    unchanged = run(runner, "edit", "Priya")
    assert unchanged.exit_code == 0 and "nothing to change" in unchanged.stdout


def test_merge_rename_and_the_entity_list(purge_db: Path, runner: CliRunner) -> None:
    renamed = run(runner, "rename", "Carol", "Carol Kowalski", "--json", "--yes")
    assert renamed.exit_code == 0, renamed.output
    assert json.loads(renamed.stdout)["details"]["aliases"] == ["Carol"]
    merged = run(runner, "merge", "Carol Kowalski", "Pepper", "--yes")
    assert merged.exit_code == 0, merged.output
    listed = json.loads(run(runner, "entities", "--json").stdout)
    names = {e["name"]: e for e in listed}
    assert listed[0]["name"] == "Maya Patel" and "Pepper" not in names
    assert names["Carol Kowalski"]["aliases"] == ["Carol", "Pepper"]
    assert names["Carol Kowalski"]["facts"] > 0 and names["Carol Kowalski"]["mentions"] > 0
    table = run(runner, "entities")
    assert table.exit_code == 0 and "Carol Kowalski" in table.stdout
    taken = run(runner, "rename", "Priya", "Alice Nguyen", "--yes")
    assert taken.exit_code == 1 and "merge" in taken.stderr


def test_forget_needs_exactly_one_target(purge_db: Path, runner: CliRunner) -> None:
    before = purge_db.read_bytes()
    for args in ([], [BOB, "--fact", "1"], ["--fact", "1", "--source", "x"]):
        result = run(runner, "forget", *args, "--yes")
        assert result.exit_code == 2 and "exactly one" in result.stderr  # a usage error
    assert purge_db.read_bytes() == before
    assert run(runner, "forget", "Maya Patel", "--yes").exit_code == 1
    assert run(runner, "forget", "Nobody Here", "--yes").exit_code == 1


def test_forget_resume_finishes_an_interrupted_forget(
    purge_db: Path, runner: CliRunner, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from memhop.core.errors import StoreError
    from memhop.core.store import compact

    nothing = run(runner, "forget", "--resume")
    assert nothing.exit_code == 0 and "nothing to resume" in nothing.stdout

    def disk_full(store: Any) -> None:
        raise StoreError(f"{store.path}: compaction failed (No space left on device)")

    with monkeypatch.context() as patch:
        patch.setattr(compact, "compact", disk_full)
        failed = run(runner, "forget", BOB, "--yes")
    assert failed.exit_code == 1 and "No space left" in failed.stderr
    with caplog.at_level("WARNING", logger="memhop"):
        assert run(runner, "show", "Alice Nguyen").exit_code == 0  # reads still work, and say what to do
    assert "run `memhop forget --resume`" in caplog.text
    resumed = run(runner, "forget", "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert "finished the interrupted forget (entity): file compacted; residue scan: 0 matches" in resumed.stdout
    assert b"kowalski" not in purge_db.read_bytes().lower()
    assert "nothing to resume" in run(runner, "forget", "--resume").stdout
    assert run(runner, "forget", "--resume", BOB).exit_code == 2


def test_merge_and_rename_show_a_dry_run_and_ask_first(
    purge_db: Path, runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    digest = purge_world.sha256_file(purge_db)
    for args in (["merge", "Carol", "Pepper"], ["rename", "Carol", "Carol Kowalski"]):
        planned = run(runner, *args, "--dry-run")
        assert planned.exit_code == 0, planned.output
        assert planned.stdout.startswith(f"would {args[0]}: ") and "dry run: nothing was changed." in planned.stdout
        monkeypatch.setattr(forget_render, "interactive", lambda: False)
        refused = run(runner, *args)
        assert refused.exit_code == 2 and "pass --yes" in refused.stderr
        monkeypatch.setattr(forget_render, "interactive", lambda: True)
        declined = run(runner, *args, input="n\n")
        assert declined.exit_code == 1 and "not confirmed" in declined.stderr and f"about to {args[0]}" in declined.stderr
    assert purge_world.sha256_file(purge_db) == digest
    monkeypatch.setattr(forget_render, "interactive", lambda: True)
    accepted = run(runner, "rename", "Carol", "Carol Kowalski", input="y\n")
    assert accepted.exit_code == 0, accepted.output
    assert json.loads(run(runner, "show", "Carol Kowalski", "--json").stdout)["entity"] == "Carol Kowalski"


def test_the_diarist_is_folded_into_someone_only_with_yes(
    purge_db: Path, runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    digest = purge_world.sha256_file(purge_db)
    monkeypatch.setattr(forget_render, "interactive", lambda: True)
    confirmed = run(runner, "merge", "Priya", "Maya Patel", input="y\n")  # a terminal's yes is not enough
    assert confirmed.exit_code == 2 and "Maya Patel is the diarist" in confirmed.stderr and "--yes" in confirmed.stderr
    assert purge_world.sha256_file(purge_db) == digest
    planned = run(runner, "merge", "Priya", "Maya Patel", "--dry-run", "--json")
    assert planned.exit_code == 0 and json.loads(planned.stdout)["details"]["kind"] == "self"
    folded = run(runner, "merge", "Priya", "Maya Patel", "--yes", "--json")
    assert folded.exit_code == 0, folded.output
    listed = {e["name"]: e for e in json.loads(run(runner, "entities", "--json").stdout)}
    assert "Maya Patel" not in listed and listed["Priya"]["kind"] == "self"


def test_fact_add_and_edit_leave_a_large_stores_fact_file_current(
    purge_db: Path, runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The next ask reads the fact file as the command left it: nothing to rebuild."""
    pytest.importorskip("usearch")
    from memhop.core.store import fact_vectors, open_store, vectors

    monkeypatch.setattr(vectors, "ANN_MIN_TURNS", 10)  # the sample store counts as large
    assert run(runner, "ask", "What instrument does Bob play?").exit_code == 0  # the derived files, built

    def current() -> tuple[list[int], np.ndarray]:
        with open_store(purge_db, read_only=True) as store:
            facts = fact_vectors.load(store, build=False)  # None if stale
            assert facts is not None and facts.state == fact_vectors.State.of(store.con)
            rows = store.con.execute("SELECT id, embedding FROM residuals WHERE superseded_by IS NULL ORDER BY id").fetchall()
            assert facts.ids.tolist() == [r[0] for r in rows]
            vectors_now = facts.rows(np.arange(len(rows)))
            facts.close()
        assert np.allclose(vectors_now, [r[1] for r in rows], atol=2e-3)  # each row the fact's own embedding
        return [r[0] for r in rows], vectors_now

    added = run(runner, "fact", "add", BOB, "Bob restores old sailing boats on weekends.", "--json")
    assert added.exit_code == 0, added.output
    fact_id = json.loads(added.stdout)["details"]["id"]
    assert fact_id in current()[0]
    edited = run(runner, "fact", "edit", str(fact_id), "Bob restores old rowing boats in winter.", "--json")
    assert edited.exit_code == 0, edited.output
    current()
