"""One entity's failed model call holds back only that entity's update (#17 item 2), as a
user sees it: `memhop ingest` against a real OpenAI-compatible server on 127.0.0.1
(tests/support/fake_openai.py) whose replies for one entity are broken. The session is
written for everyone else, `memhop stats` lists what is held, and the next run with a
good server applies it in session order, ending where a clean run ends."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from support.fake_openai import FakeOpenAI, Reply, block, block_lines, broken, prompt_name, rule_responder, user_text
from support.paths import SAMPLES
from typer.testing import CliRunner

from memhop.cli.app import app
from memhop.core.store import open_store

DIARY = SAMPLES / "maya-diary.md"


def chain_responder(body: dict[str, Any]) -> Reply | dict[str, Any]:
    """rule_responder, but a co-extracted profile keeps the one it was given and adds this
    session's first turn id: the stored profile spells out the order of its updates."""
    reply = rule_responder(body)
    if prompt_name(body) == "coextract":
        before = json.loads(block(body, "profile"))
        first = min(t["id"] for t in block_lines(body, "turns"))
        reply["profile"] = (f"{before} | " if before else "") + f"turn {first}"
    return reply


def bob_is_broken(body: dict[str, Any]) -> Reply | dict[str, Any]:
    """Every co-extraction of Bob gets a reply that is not JSON (a small model's bad day)."""
    if prompt_name(body) == "coextract" and json.loads(block(body, "entity"))["name"] == "Bob":
        return broken("Bob is a pianist, I think")
    return chain_responder(body)


def use_server(home: Path, server: FakeOpenAI) -> None:
    home.mkdir(parents=True, exist_ok=True)
    settings = {"engine": "openai", "openai": {"base_url": server.base_url, "model": "test-model", "max_retries": 1}}
    (home / "config.yaml").write_text(yaml.safe_dump(settings), encoding="utf-8")


def ingest(runner: CliRunner, *extra: str) -> Any:
    return runner.invoke(app, ["ingest", str(DIARY), "--self", "Maya Patel", "--json", *extra])


def memory_of(db: Path) -> tuple[dict[str, str | None], list[tuple[str, str]], int]:
    """Profiles by entity, every (entity, fact) pair, and the mentions: what a run wrote,
    ids aside (a held update's facts are inserted later, so they get later ids)."""
    with open_store(db, read_only=True) as store:
        profiles = dict(store.con.execute(
            "SELECT e.name, p.text FROM entities e LEFT JOIN profiles p ON p.entity_id = e.id").fetchall())
        facts = sorted(store.con.execute(
            "SELECT e.name, r.text FROM residuals r JOIN entities e ON e.id = r.entity_id").fetchall())
        mentions = int(store.scalar("SELECT count(*) FROM mentions"))
    return profiles, facts, mentions


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str | None], list[tuple[str, str]], int]:
    """What one run against a good server writes."""
    home = tmp_path_factory.mktemp("clean")
    with FakeOpenAI(responder=chain_responder) as server, pytest.MonkeyPatch.context() as patch:
        patch.setenv("MEMHOP_HOME", str(home))
        use_server(home, server)
        result = ingest(CliRunner())
        assert result.exit_code == 0, result.output
    return memory_of(home / "memhop.duckdb")


@pytest.mark.slow
def test_one_entitys_broken_replies_hold_back_only_its_update_until_a_later_run(
    home: Path, runner: CliRunner, clean: tuple[dict[str, str | None], list[tuple[str, str]], int]
) -> None:
    with FakeOpenAI(responder=bob_is_broken) as server:
        use_server(home, server)
        failed = ingest(runner)
        first_calls = server.calls
    assert failed.exit_code == 1  # something is not written yet: a script must be able to tell
    write = json.loads(failed.stdout)["write"]
    assert write["failures"] == []  # no session failed
    assert write["sessions"] == 12
    held = write["quarantined"]
    assert len(held) >= 3 and {h["entity"] for h in held} == {"Bob"}  # Bob's updates only
    # his first one failed; his later ones wait for it, without a call
    assert "invalid reply" in held[0]["reason"] and all(h["reason"].startswith("waits for") for h in held[1:])
    db = home / "memhop.duckdb"
    profiles, facts, mentions = memory_of(db)
    assert profiles["Alice"] == clean[0]["Alice"]  # the others of Bob's sessions are written in full
    assert any(name == "Alice" and "Chopin" in text for name, text in facts)
    assert profiles["Bob"] is None and not [f for f in facts if f[0] == "Bob"]
    assert mentions == clean[2]  # Bob was identified: he can be found, only his update waits
    with open_store(db, read_only=True) as store:
        assert store.scalar("SELECT count(*) FROM sessions WHERE written_at IS NULL") == 0

    stats = json.loads(runner.invoke(app, ["stats", "--json"]).stdout)
    dates = [q["date"] for q in stats["quarantined"]]
    assert dates[0] == "2024-02-03" and dates == sorted(dates) and len(dates) == len(held)
    assert stats["quarantined"][0]["attempts"] == 1 and stats["quarantined"][1]["attempts"] == 0
    (spent,) = stats["engine_calls"]  # counted in the store, per engine and model
    assert (spent["engine"], spent["model"], spent["calls"]) == ("openai", "test-model", first_calls)
    assert spent["prompt_tokens"] == 100 * first_calls  # the server's usage (100 a call)
    shown = runner.invoke(app, ["stats"]).stdout
    assert shown.count("quarantined: Bob's update of session") == len(held)

    with FakeOpenAI(responder=chain_responder) as server:
        use_server(home, server)
        resumed = ingest(runner)
        asked = [(prompt_name(b), json.loads(block(b, "entity"))["name"] if prompt_name(b) == "coextract" else "")
                 for b in server.requests]
        firsts = [min(t["id"] for t in block_lines(b, "turns")) for b in server.requests]
    assert resumed.exit_code == 0, resumed.output
    write = json.loads(resumed.stdout)["write"]
    assert write["released"] == len(held) and write["quarantined"] == [] and write["sessions"] == 0
    assert asked == [("coextract", "Bob")] * len(held)  # nothing else is asked again
    assert firsts == sorted(firsts)  # in session order
    assert memory_of(db) == clean  # the same memory as a run that never failed
    stats = json.loads(runner.invoke(app, ["stats", "--json"]).stdout)
    assert stats["quarantined"] == [] and stats["engine_calls"][0]["calls"] == first_calls + len(held)


@pytest.mark.slow
def test_a_failed_identification_stops_the_run_so_sessions_stay_in_date_order(home: Path, runner: CliRunner) -> None:
    def no_identify_for_the_recital(body: dict[str, Any]) -> Reply | dict[str, Any]:
        if prompt_name(body) == "identify" and "standing ovation" in user_text(body):
            return broken()
        return chain_responder(body)

    with FakeOpenAI(responder=no_identify_for_the_recital) as server:
        use_server(home, server)
        failed = ingest(runner)
    assert failed.exit_code == 1
    (failure,) = json.loads(failed.stdout)["write"]["failures"]
    assert "identify failed" in failure["error"]
    with open_store(home / "memhop.duckdb", read_only=True) as store:
        pending = store.con.execute(
            "SELECT strftime(started_at, '%Y-%m-%d') FROM sessions WHERE written_at IS NULL ORDER BY started_at"
        ).fetchall()
    # the recital's session and every later one wait; none was written before it
    assert [p[0] for p in pending] == ["2024-03-15", "2024-03-28", "2024-04-08", "2024-04-20", "2024-05-04", "2024-05-18"]

    with FakeOpenAI(responder=chain_responder) as server:
        use_server(home, server)
        resumed = ingest(runner)
        identified = [re.findall(r'"id": (\d+)', user_text(b))[0] for b in server.requests if prompt_name(b) == "identify"]
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.stdout)["write"]["sessions"] == 6
    assert identified == sorted(identified, key=int)


@pytest.mark.slow
def test_forgetting_an_entity_drops_its_held_updates(home: Path, runner: CliRunner) -> None:
    with FakeOpenAI(responder=bob_is_broken) as server:
        use_server(home, server)
        assert ingest(runner).exit_code == 1
    assert json.loads(runner.invoke(app, ["stats", "--json"]).stdout)["quarantined"]
    forgot = runner.invoke(app, ["forget", "Bob", "--yes", "--json"])
    assert forgot.exit_code == 0, forgot.output  # the residue scan finds nothing of Bob's left
    assert json.loads(runner.invoke(app, ["stats", "--json"]).stdout)["quarantined"] == []
    with FakeOpenAI(responder=chain_responder) as server:
        use_server(home, server)
        again = ingest(runner)
        assert again.exit_code == 0, again.output
        assert server.calls == 0  # nothing of Bob's is asked again
