"""memhop ingest / ask with the openai engine, as a user runs them, against a real
OpenAI-compatible HTTP server on 127.0.0.1 (tests/support/fake_openai.py): calls are
counted on the server side, retried replies, kept replies, a dead server. What one
entity's failed call does is in test_ingest_quarantine.py."""

from __future__ import annotations

import json
import os
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from support import process
from support.fake_openai import FakeOpenAI, Reply, broken, prompt_name, rule_responder, server_error, user_text
from support.paths import SAMPLES
from typer.testing import CliRunner

from memhop.cli.app import app
from memhop.core.store import open_store

SECRET = "sk-test-DO-NOT-STORE-4f9a"
DIARY = SAMPLES / "maya-diary.md"
CHAT = SAMPLES / "whatsapp-alice.txt"
COUNTED = ("sources", "sessions", "turns", "entities", "profiles", "facts")


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(responder=rule_responder) as fake:
        yield fake


def use_openai(home: Path, server: FakeOpenAI, max_retries: int = 0) -> None:
    home.mkdir(parents=True, exist_ok=True)
    settings = {
        "engine": "openai",
        "openai": {"base_url": server.base_url, "model": "test-model", "api_key": SECRET,
                   "max_retries": max_retries, "timeout": 10},
    }
    (home / "config.yaml").write_text(yaml.safe_dump(settings), encoding="utf-8")


def ingest(runner: CliRunner, *paths: Path) -> Any:
    return runner.invoke(app, ["ingest", *map(str, paths), "--self", "Maya Patel", "--json"])


def tasks(server: FakeOpenAI) -> list[str]:
    return [prompt_name(body) for body in server.requests]


@pytest.mark.slow
def test_each_session_costs_one_plus_e_calls_counted_by_the_server(
    home: Path, runner: CliRunner, server: FakeOpenAI, stats: Any
) -> None:
    use_openai(home, server)
    result = ingest(runner, DIARY, CHAT)
    assert result.exit_code == 0, result.output
    write = json.loads(result.stdout)["write"]
    assert write["engine"] == "openai" and not write["failures"]
    sent = tasks(server)
    assert sent.count("identify") == write["sessions"] == stats()["sessions"] == 19
    assert len(sent) == write["usage"]["calls"] == sent.count("identify") + sent.count("coextract")
    assert write["usage"]["prompt_tokens"] == 100 * len(sent)  # the server's usage, summed
    counts = stats()
    assert counts["entities"] > 3 and counts["facts"] > 10
    shown = json.loads(runner.invoke(app, ["show", "Alice", "--json"]).stdout)
    assert shown["profile"].startswith("Alice is mentioned with") and shown["facts"][0]["sources"]


@pytest.mark.slow
def test_a_broken_reply_is_retried_and_the_key_is_never_stored_or_shown(
    home: Path, runner: CliRunner, server: FakeOpenAI
) -> None:
    use_openai(home, server, max_retries=1)
    server.script(broken())  # the first identify reply is cut-off JSON
    result = ingest(runner, CHAT)
    assert result.exit_code == 0, result.output
    write = json.loads(result.stdout)["write"]
    assert not write["failures"] and write["usage"]["calls"] == server.calls  # retries are paid for too
    assert tasks(server).count("identify") == write["sessions"] + 1  # the broken one, sent again
    assert all(h.get("authorization") == f"Bearer {SECRET}" for h in server.headers)
    assert SECRET not in result.output
    shown = runner.invoke(app, ["config", "--json"])
    assert SECRET not in shown.stdout and json.loads(shown.stdout)["settings"]["openai"]["api_key"] == "set"
    for path in home.iterdir():
        if path.suffix in (".duckdb", ".wal"):
            assert SECRET.encode() not in path.read_bytes()


@pytest.mark.slow
def test_ask_sends_the_facts_and_prints_the_model_answer(
    home: Path, runner: CliRunner, server: FakeOpenAI
) -> None:
    use_openai(home, server)
    assert ingest(runner, DIARY).exit_code == 0
    server.reset()
    asked = runner.invoke(app, ["ask", "What instrument does Bob play?", "--json"])
    assert asked.exit_code == 0, asked.output
    answer = json.loads(asked.stdout)
    assert tasks(server) == ["answer"]
    sent = user_text(server.requests[0])
    assert "What instrument does Bob play?" in sent
    assert answer["answer"] != "I don't know" and answer["answer"] in sent  # a fact the server was given


def kept_replies(home: Path, word: str = "") -> int:
    with open_store(home / "memhop.duckdb", read_only=True) as store:
        return int(store.scalar("SELECT count(*) FROM model_replies WHERE reply LIKE ?", [f"%{word}%"]))


@pytest.mark.slow
def test_rebuild_reuses_the_kept_replies_and_forget_drops_them(
    home: Path, runner: CliRunner, server: FakeOpenAI
) -> None:
    use_openai(home, server)
    result = runner.invoke(app, ["ingest", str(CHAT), "--self", "Maya Patel", "--jobs", "2", "--json"])
    assert result.exit_code == 0, result.output
    asked = server.calls
    assert kept_replies(home) == asked and kept_replies(home, "Bob") > 0
    server.reset()
    reused = runner.invoke(app, ["rebuild", "--json"])
    assert reused.exit_code == 0, reused.output
    assert server.calls == 0 and json.loads(reused.stdout)["usage"]["cached"] == asked
    fresh = runner.invoke(app, ["rebuild", "--fresh", "--jobs", "1", "--json"])
    assert fresh.exit_code == 0, fresh.output
    assert server.calls == asked
    forgot = runner.invoke(app, ["forget", "Bob", "--yes", "--json"])
    assert forgot.exit_code == 0, forgot.output  # the residue scan passed
    assert kept_replies(home) == 0  # a kept reply could bring Bob back on the next rebuild


@pytest.mark.slow
def test_a_dead_server_stops_the_run_with_one_message(home: Path, runner: CliRunner) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    home.mkdir(parents=True, exist_ok=True)
    settings = {"engine": "openai", "openai": {"base_url": f"http://127.0.0.1:{port}/v1", "max_retries": 3}}
    (home / "config.yaml").write_text(yaml.safe_dump(settings), encoding="utf-8")
    started = time.monotonic()
    result = ingest(runner, DIARY)
    assert result.exit_code == 1
    assert time.monotonic() - started < 20  # not every session's retry schedule (≈ 7 s each)
    (failure,) = json.loads(result.stdout)["write"]["failures"]
    assert "cannot connect" in failure["error"] and "stopped writing" in failure["error"]
    with open_store(home / "memhop.duckdb", read_only=True) as store:
        assert store.scalar("SELECT count(*) FROM sessions WHERE written_at IS NULL") == store.counts()["sessions"]


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "4"])
def test_an_ingest_killed_mid_write_resumes_without_asking_again(home: Path, jobs: str) -> None:
    """kill -9 from the server's side the moment the 12th request arrives: every reply
    that came back before is kept, so the rerun does not ask for it again."""
    killed: dict[str, Any] = {}

    def killer(body: dict[str, Any]) -> Reply | dict[str, Any]:
        if len(fake.requests) == 12 and "proc" in killed:
            os.kill(killed["proc"].pid, signal.SIGKILL)
            return server_error(500, "gone")
        return rule_responder(body)

    with FakeOpenAI(responder=killer) as fake:
        use_openai(home, fake)
        proc = killed["proc"] = process.start(home, "ingest", str(DIARY), "--self", "Maya Patel", "--jobs", jobs)
        proc.communicate(timeout=300)
        assert proc.returncode == -signal.SIGKILL
        answered = {str(b["messages"]) for b in fake.requests[:11]}  # before the kill; later ones raced it
        killed.clear()
        fake.reset()
        code, out, err = process.run(home, "ingest", str(DIARY), "--jobs", jobs)
        assert code == 0, out + err
        again = [str(b["messages"]) for b in fake.requests]
        assert again and len(again) == len(set(again))
        # Sequentially, no reply was paid for twice. With --jobs N, a reply the server sent
        # but the killed process had not kept yet is asked again: at most one per thread
        # that calls (N for the session at hand, N guessing ahead).
        repeated = answered & set(again)
        assert len(repeated) == 0 if jobs == "1" else len(repeated) <= 2 * int(jobs)


@pytest.mark.slow
def test_ask_falls_back_to_the_offline_answerer_only_when_asked_and_says_so(
    home: Path, runner: CliRunner, server: FakeOpenAI
) -> None:
    assert runner.invoke(app, ["ingest", str(DIARY), "--self", "Maya Patel", "--engine", "offline"]).exit_code == 0
    use_openai(home, server)
    server.responder = lambda body: broken("not json at all")  # every answer call fails for good
    question = "What instrument does Alice's roommate play?"
    failed = runner.invoke(app, ["ask", question])
    assert failed.exit_code == 1 and len(failed.stderr.strip().splitlines()) == 1
    fell_back = runner.invoke(app, ["ask", question, "--fallback", "--json"])
    assert fell_back.exit_code == 0, fell_back.output
    data = json.loads(fell_back.stdout)
    assert data["answer"] == "piano"
    assert data["trace"]["answered_by"].startswith("offline (fallback: openai (model test-model) failed:")
