"""`memhop serve` with `memhop ask`: a real server process on a Unix socket beside a temp
store; every answer through it is the one `ask` gives without it, a dead or stopped server
costs only time, and writes made while it runs (ingest, forget) are what it serves next."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from memhop.cli.app import app
from memhop.cli.render.answer import render_answer
from memhop.cli.serve import console_like, screen_of
from memhop.core.serve_client import ACCEPT_TIMEOUT
from memhop.core.serve_protocol import socket_path
from support.process import run, start
from support.read_world import build_world

ROOMMATE = "What instrument does Alice's roommate play?"
CAROL = "What does Carol do for a living?"
READY = "memhop serve: answering"
ANSWERED = "memhop serve: answered in"


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_world(tmp_path_factory.mktemp("serve-world"))


@contextmanager
def serving(home: Path, db: Path, *extra: str, env: dict[str, str] | None = None) -> Iterator[subprocess.Popen[str]]:
    """`memhop serve --db DB` until the block ends (SIGTERM, unless the block stopped it)."""
    proc = start(home, "serve", "--db", str(db), *extra, extra_env=env)
    assert proc.stderr is not None
    first = proc.stderr.readline()
    if READY not in first:
        proc.kill()
        pytest.fail(f"server did not start: {first}{proc.communicate()[1]}")
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGCONT)  # in case a test stopped it
            proc.terminate()
            proc.wait(timeout=60)


def stop(proc: subprocess.Popen[str], sig: int = signal.SIGTERM) -> tuple[int, int]:
    """Stop the server; its exit code and how many answers it served."""
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"the server did not stop on signal {sig}: {proc.communicate()[1]}")
    return proc.returncode, err.count(ANSWERED)


def ask(runner: CliRunner, db: Path, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["ask", *args, "--db", str(db)], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def same_json(text: str) -> dict[str, object]:
    """An `ask --json` document without its timings (they differ between any two runs)."""
    data = json.loads(text)
    del data["trace"]["timings_ms"]
    return data


def without_timings(text: str) -> str:
    """The trace tree without its Timings node (it may wrap over several lines)."""
    lines = text.splitlines()
    start_at = next(i for i, line in enumerate(lines) if "Timings:" in line)
    end = next(i for i in range(start_at, len(lines)) if "Answer:" in lines[i])
    return "\n".join(lines[:start_at] + lines[end:])


CASES = [
    ("plain", [ROOMMATE], lambda text: text),
    ("trace", [ROOMMATE, "--trace", "--top", "1"], without_timings),
    ("json", [ROOMMATE, "--json", "--evidence", "3"], same_json),
    ("refusal", ["What is the capital of Peru?", "--json"], same_json),
    ("window", [CAROL, "--since", "March 2024", "--retriever", "fused", "--no-facts"], lambda text: text),
]


@pytest.mark.slow
def test_every_answer_through_the_server_is_the_one_ask_gives_without_it(
    home: Path, runner: CliRunner, world: Path
) -> None:
    batch = f"{ROOMMATE}\n\n{CAROL}\n"
    errors = [["Where?", "--since", "the day after never"], ["Where?", "--retriever", "psychic"]]
    with serving(home, world) as server:
        served = {name: ask(runner, world, *args) for name, args, _ in CASES}
        served_batch = ask(runner, world, "-", stdin=batch)
        served_errors = [ask(runner, world, *args) for args in errors]
        code, answered = stop(server)
    assert (code, answered) == (0, len(CASES) + 2)  # each question once; the two errors are not answers
    assert not socket_path(world).exists()
    for name, args, comparable in CASES:
        alone = ask(runner, world, *args)
        assert served[name][0] == alone[0] == 0, name
        assert comparable(served[name][1]) == comparable(alone[1]), name
    alone_batch = ask(runner, world, "-", stdin=batch)
    assert [same_json(line) for line in served_batch[1].splitlines()] == [
        same_json(line) for line in alone_batch[1].splitlines()
    ]
    for args, (code, out, err) in zip(errors, served_errors):
        assert (code, out, err) == ask(runner, world, *args) and code != 0 and err.startswith("Error:")


def test_a_socket_left_by_a_dead_server_is_passed_over(home: Path, runner: CliRunner, world: Path) -> None:
    path = socket_path(world)
    left = socket.socket(socket.AF_UNIX)
    left.bind(str(path))  # bound, never listening, closed: what a killed server leaves
    left.close()
    try:
        started = time.monotonic()
        code, out, _ = ask(runner, world, ROOMMATE)
        assert code == 0 and out.splitlines()[0] == "piano"
        assert time.monotonic() - started < ACCEPT_TIMEOUT  # refused at once, not waited for
    finally:
        path.unlink()


def test_a_file_that_is_no_socket_is_passed_over(home: Path, runner: CliRunner, world: Path) -> None:
    path = socket_path(world)
    path.write_text("not a socket")
    try:
        code, out, _ = ask(runner, world, ROOMMATE)
        assert code == 0 and out.splitlines()[0] == "piano"
    finally:
        path.unlink()


@pytest.mark.slow
def test_a_stopped_server_costs_a_few_seconds_not_the_answer(home: Path, runner: CliRunner, world: Path) -> None:
    with serving(home, world) as server:
        server.send_signal(signal.SIGSTOP)
        started = time.monotonic()
        code, out, _ = ask(runner, world, ROOMMATE)
        waited = time.monotonic() - started
        server.send_signal(signal.SIGCONT)
        assert code == 0 and out.splitlines()[0] == "piano"
        assert ACCEPT_TIMEOUT <= waited
        assert stop(server) == (0, 0)  # the request it took late found its client gone


def request(address: str | tuple[str, int], message: dict[str, object]) -> list[dict[str, object]]:
    """One request as a script would send it; the server's replies."""
    family = socket.AF_UNIX if isinstance(address, str) else socket.AF_INET
    with socket.socket(family) as sock:
        sock.settimeout(60)
        sock.connect(address)
        sock.sendall(json.dumps(message).encode() + b"\n")
        return [json.loads(line) for line in sock.makefile("rb")]


def unanswered(path: Path, data: bytes) -> bool:
    """Whether the server closes the connection on `data` without a word."""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(60)
        sock.connect(str(path))
        try:
            sock.sendall(data)
            return sock.recv(1) == b""
        except (BrokenPipeError, ConnectionResetError):  # closed while we were still sending
            return True


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.slow
def test_one_private_server_per_store_for_clients_with_its_settings_and_scripts(
    home: Path, runner: CliRunner, world: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    port, token = free_port(), "correct horse battery staple"
    script = {"protocol": 1, "question": ROOMMATE, "render": {"json": True}}
    with serving(home, world, "--tcp", f"127.0.0.1:{port}", env={"MEMHOP_SERVE_TOKEN": token}) as server:
        assert stat.S_IMODE(os.stat(socket_path(world)).st_mode) == 0o600
        code, _, err = run(home, "serve", "--db", str(world))
        assert code == 1 and f"pid {server.pid}" in err and "already serves this store" in err
        code, out, _ = ask(runner, world, ROOMMATE, "--engine", "offline", "--json")  # the server's own: served
        assert code == 0 and json.loads(out)["answer"] == "piano"
        monkeypatch.setenv("TZ", "Pacific/Auckland")  # "last week" is another week there
        code, _, _ = ask(runner, world, ROOMMATE)
        assert code == 0
        assert unanswered(socket_path(world), b"not json\n")  # and it serves on
        assert unanswered(socket_path(world), b"x" * (2 << 20) + b"\n")  # not read to its end
        by_socket = request(str(socket_path(world)), script)  # no fingerprint: the server's settings
        assert request(("127.0.0.1", port), script)[0] == {"accepted": False, "reason": "a token is needed here, and this is not it"}
        by_port = request(("127.0.0.1", port), {**script, "token": token})
        assert stop(server) == (0, 3)
    assert by_socket[0] == by_port[0] == {"accepted": True}
    assert same_json(str(by_socket[1]["output"])) == same_json(str(by_port[1]["output"])) == same_json(out)


@pytest.mark.parametrize(
    ("address", "env", "message"),
    [
        ("0.0.0.0:8765", {"MEMHOP_SERVE_TOKEN": "t"}, "--tcp '0.0.0.0:8765': only a loopback address"),
        ("8765", {}, "--tcp: every local user can reach a port; set $MEMHOP_SERVE_TOKEN"),
        ("localhost:http", {"MEMHOP_SERVE_TOKEN": "t"}, "--tcp 'localhost:http': expected PORT or 127.0.0.1:PORT"),
    ],
)
def test_tcp_is_loopback_with_a_token_or_nothing(
    runner: CliRunner, home: Path, world: Path, monkeypatch: pytest.MonkeyPatch, address: str, env: dict[str, str],
    message: str,
) -> None:
    monkeypatch.delenv("MEMHOP_SERVE_TOKEN", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    result = runner.invoke(app, ["serve", "--db", str(world), "--tcp", address])
    assert result.exit_code == 2 and message in result.stderr
    assert not socket_path(world).exists()


@pytest.mark.slow
def test_ingest_and_forget_go_on_while_it_serves_and_it_serves_what_they_wrote(
    home: Path, runner: CliRunner, world: Path, tmp_path: Path
) -> None:
    db = tmp_path / "store" / "memhop.duckdb"
    shutil.copytree(world.parent, db.parent)
    note = tmp_path / "zed.md"
    note.write_text("# 2024-05-01\n\nMy neighbour Zed Quist plays the oboe in an orchestra.\n", encoding="utf-8")
    zed = "What instrument does Zed Quist play?"
    with serving(home, db) as server:
        assert ask(runner, db, CAROL)[1].startswith("vet")
        assert run(home, "ingest", str(note), "--db", str(db), "-q")[0] == 0
        assert ask(runner, db, zed)[1].startswith("oboe")
        code, _, err = run(home, "forget", "Carol", "--yes", "--db", str(db))
        assert code == 0, err
        after = ask(runner, db, CAROL, "--json")
        assert stop(server, signal.SIGINT) == (0, 3)
    assert not socket_path(db).exists()
    data = json.loads(after[1])
    assert data["answer"] == "I don't know"
    shown = json.dumps({k: v for k, v in data.items() if k != "question"} | {"trace": {}})
    assert "Carol" not in shown and " vet" not in shown  # the question aside, nothing of her is served
    assert same_json(after[1]) == same_json(ask(runner, db, CAROL, "--json")[1])


def test_serving_a_store_that_does_not_exist_fails_before_listening(runner: CliRunner, home: Path, tmp_path: Path) -> None:
    db = tmp_path / "none.duckdb"
    result = runner.invoke(app, ["serve", "--db", str(db)])
    assert result.exit_code == 1 and "no memhop store at" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_client_terminal_is_drawn_as_it_would_draw_itself(runner: CliRunner, home: Path, world: Path) -> None:
    import memhop

    with memhop.open(world, read_only=True) as mem:
        result = mem.ask(ROOMMATE)
    own = Console(file=StringIO(), force_terminal=True, width=100, height=30, color_system="256",
                  highlight=False, soft_wrap=True)
    render_answer(result, as_json=False, trace=True, console=own)
    like = console_like(json.loads(json.dumps(screen_of(own))), StringIO())
    render_answer(result, as_json=False, trace=True, console=like)
    drawn = own.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b[" in drawn and max(len(line) for line in drawn.splitlines()) > 80  # colours, its own width
    assert like.file.getvalue() == drawn  # type: ignore[attr-defined]
