"""kill -9 at any moment of an ingest leaves a store that opens, and running the same
command again completes it with exactly the counts of an uninterrupted run."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest
from support import process
from support.paths import SAMPLES


def run(home: Path, *args: str) -> tuple[int, str]:
    code, out, err = process.run(home, *args)
    return code, out + err


def counts(home: Path) -> dict[str, int]:
    code, output = run(home, "stats", "--json")
    assert code == 0, output
    data = json.loads(output)
    data.pop("db")
    data.pop("engine_calls")  # what the runs spent, not what they stored: a killed run's calls are lost
    return data


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("inputs")
    notes = folder / "long-chat.jsonl"
    people = ["Maya Patel", "Alice Nguyen", "Bob Kowalski", "Dan Okafor"]
    with notes.open("w", encoding="utf-8") as fh:
        for i in range(200):
            record = {
                "speaker": people[i % 4],
                "text": f"Message {i}: {people[(i + 1) % 4]} said the rehearsal moves to room {i % 7}.",
                "timestamp": f"2024-05-{1 + i // 20:02d}T{8 + (i % 20) // 2:02d}:{(i * 7) % 60:02d}:00",
            }
            fh.write(json.dumps(record) + "\n")
    return [str(SAMPLES), str(notes)]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory, inputs: list[str]) -> tuple[dict[str, int], float]:
    home = tmp_path_factory.mktemp("reference")
    started = time.monotonic()
    code, output = run(home, "ingest", *inputs, "--self", "Maya Patel", "--quiet")
    assert code == 0, output
    return counts(home), time.monotonic() - started


@pytest.mark.slow
@pytest.mark.parametrize("fraction", [0.2, 0.5, 0.85])
def test_kill_9_then_rerun_gives_the_uninterrupted_counts(
    tmp_path: Path, inputs: list[str], reference: tuple[dict[str, int], float], fraction: float
) -> None:
    expected, duration = reference
    home = tmp_path / "home"
    proc = process.start(home, "ingest", *inputs, "--self", "Maya Patel", "--quiet")
    time.sleep(duration * fraction)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    if (home / "memhop.duckdb").exists():
        partial = counts(home)  # the store opens after the crash
        assert partial["turns"] <= expected["turns"]
    code, output = run(home, "ingest", *inputs, "--self", "Maya Patel", "--quiet")
    assert code == 0, output
    assert counts(home) == expected
