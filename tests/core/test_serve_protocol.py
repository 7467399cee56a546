"""What decides whether `memhop serve` may answer for `memhop ask`: the socket beside the
store, and a fingerprint that changes with anything that changes an answer."""

from __future__ import annotations

import io
import os
import time
from dataclasses import replace
from pathlib import Path

from memhop.core.config import Settings
from memhop.core.serve_protocol import code_stamp, fingerprint, fits, receive, send, socket_path


def test_the_socket_is_beside_the_store_wherever_it_is_named_from(tmp_path: Path, monkeypatch) -> None:
    db = tmp_path / "memhop.duckdb"
    monkeypatch.chdir(tmp_path)
    assert socket_path(Path("memhop.duckdb")) == socket_path(db) == tmp_path / "memhop.duckdb.sock"
    assert fits(socket_path(db)) and not fits(tmp_path / ("x" * 120))


def test_the_fingerprint_follows_what_changes_an_answer(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    base = Settings(db=Path("memhop.duckdb"))
    env = {"TZ": "Europe/London", "OPENBLAS_NUM_THREADS": "1", "HOME": "/home/a"}
    same = fingerprint(base, "code", env)
    assert fingerprint(replace(base, db=tmp_path / "memhop.duckdb"), "code", env) == same  # one store, two spellings
    assert fingerprint(base, "code", {**env, "HOME": "/home/b"}) == same  # nothing an answer reads
    others = [
        fingerprint(replace(base, engine="openai"), "code", env),
        fingerprint(replace(base, read=replace(base.read, top=3)), "code", env),
        fingerprint(replace(base, openai=replace(base.openai, api_key="sk-other")), "code", env),
        fingerprint(replace(base, db=tmp_path / "other.duckdb"), "code", env),
        fingerprint(base, "edited code", env),
        fingerprint(base, "code", {**env, "TZ": "Pacific/Auckland"}),
        fingerprint(base, "code", {**env, "OPENBLAS_NUM_THREADS": "2"}),
    ]
    assert same not in others and len(set(others)) == len(others)
    assert "sk-other" not in "".join(others)


def test_the_code_stamp_changes_when_a_file_of_memhop_does(tmp_path: Path) -> None:
    import memhop

    before = code_stamp()
    source = Path(memhop.__file__)
    stat = source.stat()
    try:
        os.utime(source, ns=(stat.st_atime_ns, time.time_ns() + 10**10))  # newer than any file
        assert code_stamp() != before
    finally:
        os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert code_stamp() == before


def test_a_line_that_is_no_message_is_none() -> None:
    stream = io.BytesIO()
    send(stream, {"question": "Wer ist Zoë?"})
    stream.write(b"[1, 2]\n{broken\n\xff\xfe\n{\"cut\": tr")
    stream.seek(0)
    assert receive(stream) == {"question": "Wer ist Zoë?"}
    assert [receive(stream) for _ in range(5)] == [None] * 5
