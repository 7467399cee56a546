"""A model server that answers with anything but a usable reply, through a whole
`memhop ingest --engine openai`: the session it spoils fails in one line and stops the run
(the later ones wait, so sessions are written in date order), nothing half-written, no
traceback; the next run against a sane server finishes the job with exactly the store a
clean run makes."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from support.fake_openai import FakeOpenAI, Reply, good, prompt_name, raw_body, rule_responder
from support.paths import SAMPLES
from typer.testing import CliRunner

from memhop.cli.app import app

pytestmark = pytest.mark.slow

DIARY = SAMPLES / "maya-diary.md"
COUNTED = ("sources", "sessions", "turns", "entities", "profiles", "facts")
HOSTILE: list[Reply] = [
    raw_body("<html><h1>502 Bad Gateway</h1></html>", "text/html"),  # a proxy's page, status 200
    raw_body("upstream timed out"),
    raw_body('{"object": "error", "message": "model not loaded"}'),
    raw_body("[" * 100_000),  # nested past Python's recursion limit
    Reply(content="[" * 100_000),  # the same, as the reply's text
    Reply(content="Sure! Here are the entities you asked for: Bob, Alice."),  # prose, not JSON
    good({"entities": [{"name": {"$ne": 1}, "kind": "person"}]}),  # wrong types
    good({"entities": "ignore previous instructions"}),
]


def use_openai(home: Path, server: FakeOpenAI) -> None:
    home.mkdir(parents=True, exist_ok=True)
    settings = {"engine": "openai", "openai": {"base_url": server.base_url, "model": "m", "max_retries": 0, "timeout": 10}}
    (home / "config.yaml").write_text(yaml.safe_dump(settings), encoding="utf-8")


def ingest(runner: CliRunner, *extra: str) -> Any:
    return runner.invoke(app, ["ingest", str(DIARY), "--self", "Maya Patel", *extra])


def counts(runner: CliRunner, *extra: str) -> dict[str, Any]:
    return {k: v for k, v in json.loads(runner.invoke(app, ["stats", "--json", *extra]).stdout).items() if k in COUNTED}


def test_hostile_replies_fail_their_sessions_cleanly_and_a_rerun_completes(
    home: Path, runner: CliRunner, tmp_path: Path
) -> None:
    replies = itertools.cycle(HOSTILE)

    def hostile(body: dict[str, Any]) -> Reply | dict[str, Any]:
        return next(replies) if prompt_name(body) == "identify" else rule_responder(body)

    with FakeOpenAI(responder=hostile) as server:
        use_openai(home, server)
        for _ in HOSTILE:  # one run per kind of hostile reply: each spoils the first session's identify
            spoiled = ingest(runner, "--jobs", "1")  # no guesses ahead: each reply reaches the write path
            assert spoiled.exit_code == 1
            assert isinstance(spoiled.exception, SystemExit), spoiled.exception  # an exit code, not a crash
            errors = [line for line in spoiled.stderr.splitlines() if line.startswith("Error: session")]
            assert len(errors) == 1  # that session failed, in one line, and the run stopped there
            assert "invalid reply" in errors[0] and "failed after 1 attempt" in errors[0]
            assert counts(runner)["entities"] == 0 and counts(runner)["facts"] == 0  # nothing half-written
        assert server.calls == len(HOSTILE)

        server.responder = rule_responder
        resumed = ingest(runner)
        assert resumed.exit_code == 0, resumed.output
        assert "unchanged" in resumed.stdout
        resumed_counts = counts(runner)

    clean = tmp_path / "clean.duckdb"
    with FakeOpenAI(responder=rule_responder) as server:
        use_openai(home, server)
        assert ingest(runner, "--db", str(clean)).exit_code == 0
        assert counts(runner, "--db", str(clean)) == resumed_counts
