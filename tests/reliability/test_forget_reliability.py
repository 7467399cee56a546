"""forget under fire, as real processes: kill -9 at random points, a second writer, a full disk.

Each case runs `memhop forget "Bob Kowalski" --yes` in a subprocess on a copy of the purge
world and checks what a user would: afterwards (after `forget --resume`, or running the
forget again when the kill came before anything was committed) the store says exactly what
an uninterrupted forget leaves, and neither the DB file nor its WAL holds the name.
"""

from __future__ import annotations

import json
import random
import resource
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import pytest
from support import process, purge_world

NAME = "Bob Kowalski"
TRIALS = 5
SEED = 13
FORGET = ("forget", NAME, "--yes")

pytestmark = pytest.mark.slow


LOCK_WAIT = {"MEMHOP_LOCK_TIMEOUT": "300"}


def start(home: Path, *args: str, preexec_fn: Callable[[], None] | None = None) -> subprocess.Popen[str]:
    return process.start(home, *args, extra_env=LOCK_WAIT, preexec_fn=preexec_fn)


def run(home: Path, *args: str, preexec_fn: Callable[[], None] | None = None) -> tuple[int, str, str]:
    return process.run(home, *args, extra_env=LOCK_WAIT, preexec_fn=preexec_fn)


def store_of(home: Path) -> Path:
    return home / "memhop.duckdb"


def logical(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, without the clock (timestamps) and with vectors rounded:
    what the store says, comparable across runs."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        out = {}
        for (table,) in con.execute("SELECT table_name FROM duckdb_tables() ORDER BY 1").fetchall():
            columns = con.execute(
                "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ? "
                "ORDER BY ordinal_position",
                [table],
            ).fetchall()
            picked = [
                f'list_transform("{c}", x -> round(x, 4))' if t.startswith("FLOAT[") else f'"{c}"'
                for c, t in columns
                if not t.startswith("TIMESTAMP")
            ]
            out[table] = con.execute(f'SELECT {", ".join(picked)} FROM "{table}" ORDER BY ALL').fetchall()
        return out
    finally:
        con.close()


def residue(db: Path) -> int:
    """Plain-text copies of the surname in the DB file and its WAL."""
    files = [db, db.with_name(db.name + ".wal")]
    return sum(f.read_bytes().lower().count(b"kowalski") for f in files if f.exists())


def still_known(home: Path) -> bool:
    code, _, _ = run(home, "show", NAME)
    return code == 0


@pytest.fixture(scope="module")
def reference(purge_template: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What an uninterrupted forget leaves (its subprocess also builds the model cache)."""
    home = tmp_path_factory.mktemp("reference")
    purge_world.install(purge_template, home)
    code, out, err = run(home, *FORGET)
    assert code == 0, err
    assert residue(store_of(home)) == 0
    return logical(store_of(home))


def wait_for(path: Path, proc: subprocess.Popen[str], timeout: float = 120) -> bool:
    """True once `path` exists; False if the process ended first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists():
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.005)
    raise AssertionError(f"{path} never appeared")


def test_kill_9_at_random_points_then_resume_leaves_the_reference_state_and_no_residue(
    purge_template: Path, reference: dict[str, Any], tmp_path: Path
) -> None:
    rng = random.Random(SEED)
    outcomes = []
    for trial in range(TRIALS):
        home = tmp_path / f"trial-{trial}"
        db = purge_world.install(purge_template, home)
        proc = start(home, *FORGET)
        if trial < 2:  # anywhere in the run, mostly start-up and planning
            time.sleep(rng.uniform(0.5, 5.0))
        elif trial < TRIALS - 1:  # in the critical part: from the intent record through commit, compaction and scan
            wait_for(db.with_name(db.name + ".forget"), proc)
            time.sleep(rng.uniform(0.0, 0.6))
        else:  # mid-compaction, after the commit: the fresh copy is being written
            wait_for(db.with_name(db.name + ".compacting"), proc)
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
        code, out, err = run(home, "forget", "--resume")
        assert code == 0, err
        outcome = "resumed" if "finished the interrupted forget" in out else "done before the kill"
        if still_known(home):  # killed before the commit: nothing changed, so forget again
            code, _, err = run(home, *FORGET)
            assert code == 0, err
            outcome = "run again"
        outcomes.append(outcome)
        assert not db.with_name(db.name + ".forget").exists()
        assert not db.with_name(db.name + ".compacting").exists()
        assert logical(db) == reference, f"trial {trial}"
        assert residue(db) == 0, f"trial {trial}"
    assert "resumed" in outcomes, f"no kill landed after a commit: {outcomes}"


def test_a_concurrent_ingest_during_forget_keeps_its_import(purge_template: Path, tmp_path: Path) -> None:
    extra = tmp_path / "late-chat.jsonl"
    extra.write_text(
        "\n".join(
            json.dumps({"speaker": s, "text": t, "timestamp": f"2024-07-0{i + 1}T09:00:00"})
            for i, (s, t) in enumerate(
                [("Maya Patel", "The quarterly report is finally done."), ("Dan Okafor", "Great, drinks on Friday then.")]
            )
        )
        + "\n"
    )
    for trial, when in enumerate(("at once", "during compaction")):
        home = tmp_path / f"trial-{trial}"
        db = purge_world.install(purge_template, home)
        forgetting = start(home, *FORGET)
        if when == "during compaction":
            wait_for(db.with_name(db.name + ".forget"), forgetting)
        ingesting = start(home, "ingest", str(extra), "--self", "Maya Patel", "--quiet")
        f_out, f_err = forgetting.communicate(timeout=600)
        i_out, i_err = ingesting.communicate(timeout=600)
        assert forgetting.returncode == 0, f_err
        assert ingesting.returncode == 0, i_err
        with duckdb.connect(str(db), read_only=True) as con:
            sources = [p for (p,) in con.execute("SELECT path FROM sources").fetchall()]
            turns = [t for (t,) in con.execute("SELECT text FROM turns").fetchall()]
        assert str(extra) in sources, when
        assert "The quarterly report is finally done." in turns, when
        assert residue(db) == 0, when


def _file_size_limit(limit: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def test_a_full_disk_during_forget_is_a_clear_error_and_a_later_run_finishes(
    purge_template: Path, reference: dict[str, Any], tmp_path: Path
) -> None:
    home = tmp_path / "home"
    db = purge_world.install(purge_template, home)
    limit = db.stat().st_size // 2  # room for the change, not for the compacted copy
    code, out, err = run(home, *FORGET, preexec_fn=_file_size_limit(limit))
    assert code == 1, (out, err)
    assert "Traceback" not in err and "compaction failed" in err, err
    assert not db.with_name(db.name + ".compacting").exists()
    code, out, err = run(home, "show", "Alice Nguyen")  # intact and readable, and says what to run
    assert code == 0 and "Alice Nguyen" in out, err
    assert "run `memhop forget --resume`" in err
    code, out, err = run(home, "forget", "--resume")
    assert code == 0 and "finished the interrupted forget" in out, err
    assert logical(db) == reference
    assert residue(db) == 0
