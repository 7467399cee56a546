"""What an import costs, before and while it runs (#17 item 5): `memhop ingest --plan`
counts sessions, model calls and prompt tokens without asking the model or writing
anything; a write run shows calls/s and tokens as it goes. Against the real fake
OpenAI-compatible server on 127.0.0.1, which counts what it is asked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from memhop.cli.app import app
from memhop.core.config import OpenAISettings
from memhop.core.embed import get_embedder
from memhop.core.engines.openai.budget import message_tokens
from memhop.core.engines.openai.engine import OpenAIEngine
from memhop.core.ingest import ingest
from memhop.core.plan import count_tokens
from memhop.core.store import open_store
from memhop.core.write import write_pending

from support.fake_openai import FakeOpenAI, prompt_name, rule_responder
from support.paths import SAMPLES

DIARY = SAMPLES / "maya-diary.md"
CHAT = SAMPLES / "whatsapp-alice.txt"


def use_server(home: Path, server: FakeOpenAI) -> None:
    home.mkdir(parents=True, exist_ok=True)
    settings = {"engine": "openai", "openai": {"base_url": server.base_url, "model": "test-model", "max_retries": 0}}
    (home / "config.yaml").write_text(yaml.safe_dump(settings), encoding="utf-8")


def plan(runner: CliRunner, *paths: Path) -> dict[str, Any]:
    result = runner.invoke(app, ["ingest", *map(str, paths), "--self", "Maya Patel", "--plan", "--json"])
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.stdout))


@pytest.mark.slow
def test_the_plan_counts_calls_and_tokens_without_asking_or_writing(home: Path, runner: CliRunner) -> None:
    with FakeOpenAI(responder=rule_responder) as server:
        use_server(home, server)
        before = plan(runner, DIARY)
        assert server.calls == 0 and not home.joinpath("memhop.duckdb").exists()  # nothing asked, no store made
        shown = runner.invoke(app, ["ingest", str(DIARY), "--self", "Maya Patel", "--plan"]).stdout
        assert "12 identify (one a session)" in shown and "estimate" in shown and "nothing was written" in shown

        done = runner.invoke(app, ["ingest", str(DIARY), "--self", "Maya Patel", "--json"])
        assert done.exit_code == 0, done.output
        sent = [prompt_name(b) for b in server.requests]
        identify_tokens = count_tokens(b["messages"] for b in server.requests if prompt_name(b) == "identify")
        all_tokens = count_tokens(b["messages"] for b in server.requests)
    assert before["sessions"] == before["identify_calls"] == sent.count("identify") == 12  # exact
    assert before["coextract_calls"] >= before["sessions"]  # at least the diarist, each session
    assert 0.5 * sent.count("coextract") <= before["coextract_calls"] <= 2 * sent.count("coextract")
    # the identify prompts are rendered as they are sent (the store is empty, as it was)
    assert before["prompt_tokens"] > identify_tokens
    assert 0.5 * all_tokens <= before["prompt_tokens"] <= 1.5 * all_tokens

    db = home / "memhop.duckdb"
    size, wal = db.stat().st_mtime_ns, db.with_name(db.name + ".wal").exists()
    with FakeOpenAI(responder=rule_responder) as server:
        use_server(home, server)
        again = plan(runner, DIARY, CHAT)
        assert server.calls == 0
    assert [f["status"] for f in again["files"]] == ["unchanged", "new"]
    assert again["sessions"] == again["files"][1]["sessions"] == 7  # only what is not stored yet
    assert db.stat().st_mtime_ns == size and db.with_name(db.name + ".wal").exists() == wal  # the store is untouched


def test_the_plan_counts_what_the_engine_sends_by_the_engines_own_count(
    home: Path, runner: CliRunner, tmp_path: Path
) -> None:
    """One session whose only entity is the diarist: identification and one co-extraction
    with no profile or facts yet, exactly the prompts the plan renders, so its count is the
    engine's count of what the server received, to the token."""
    diary = tmp_path / "walks.md"
    diary.write_text("# 2023-05-08\n\nWent for a long walk by the river this morning; the water was high.\n\n"
                     "Made soup for dinner and read about old ships until late.\n", encoding="utf-8")
    with FakeOpenAI(responder=rule_responder) as server:
        use_server(home, server)
        before = plan(runner, diary)
        assert server.calls == 0
        done = runner.invoke(app, ["ingest", str(diary), "--self", "Maya Patel", "--json"])
        assert done.exit_code == 0, done.output
        assert [prompt_name(b) for b in server.requests] == ["identify", "coextract"]
        sent = [b["messages"] for b in server.requests]
    assert (before["identify_calls"], before["coextract_calls"]) == (1, 1)
    assert before["prompt_tokens"] == sum(message_tokens(m) for m in sent)


def test_a_write_run_shows_calls_per_second_and_tokens(tmp_path: Path) -> None:
    notes: list[str] = []

    class Recording:
        def start(self, label: str, total: int) -> None:
            return None

        def advance(self, amount: int) -> None:
            return None

        def note(self, text: str) -> None:
            notes.append(text)

    with FakeOpenAI(responder=rule_responder) as server, open_store(tmp_path / "m.duckdb") as store:
        ingest(store, [str(CHAT)], get_embedder(), self_name="Maya Patel")
        engine = OpenAIEngine(OpenAISettings(base_url=server.base_url, model="m", max_retries=0))
        report = write_pending(store, engine, get_embedder(), progress=Recording())
    assert len(notes) == report.sessions == 7
    calls = server.calls
    assert notes[-1].startswith(f"{calls} calls, ") and "/s" in notes[-1]
    assert notes[-1].endswith(f"{calls * 120:,} tokens")  # the server says 100 prompt + 20 completion a call
