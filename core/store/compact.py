"""The file itself: compaction into a fresh file, and the byte-level residue scan.

Deleting rows in DuckDB frees blocks but does not overwrite them, and the WAL keeps what
was written; only a copy of the live data leaves the old bytes behind for good.

Both steps give up DuckDB's own lock on the file: the swap closes the connection, and
reading the file's bytes closes a descriptor of it, which drops every POSIX record lock
the process holds on it. What keeps other memhop processes out meanwhile is the store's
lock file (core/store/lock.py), taken before the store was opened and held until it is
closed, so another command waits instead of writing into a file about to be replaced.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import duckdb

from memhop.core.errors import StoreError
from memhop.core.store import vectors
from memhop.core.store.db import Store, first_line, quote

COMPACT_SUFFIX = ".compacting"


def wal_path(path: Path) -> Path:
    return path.with_name(path.name + ".wal")


def compact(store: Store) -> None:
    """Copy the live database into a fresh file and swap it in atomically.

    DuckDB leaves freed blocks (and a WAL) holding the old bytes of deleted rows; a copy
    writes only live data. The caller has committed and holds the store's exclusive lock;
    on any failure here the old file, with the committed change, stays in place and the
    partial copy is removed.
    """
    from memhop.core.store import recall

    path = store.path
    recall.drop(store)  # no snapshot keeps the derived files open once deleted
    vectors.discard(path)  # derived embeddings of the rows being erased; rebuilt from the store when needed
    fresh = path.with_name(path.name + COMPACT_SUFFIX)
    for leftover in (fresh, wal_path(fresh)):
        leftover.unlink(missing_ok=True)
    con = store.con
    catalog = str(con.execute("SELECT current_database()").fetchone()[0])  # type: ignore[index]
    old_umask = os.umask(0o077)
    try:
        con.execute("CHECKPOINT")
        con.execute(f"ATTACH '{_literal(fresh)}' AS memhop_fresh")
        try:
            con.execute(f"COPY FROM DATABASE {quote(catalog)} TO memhop_fresh")
        finally:
            con.execute("DETACH memhop_fresh")
    except duckdb.Error as exc:
        discard(fresh)
        raise StoreError(f"{path}: compaction failed ({first_line(exc)}); {_UNCOMPACTED}") from None
    finally:
        os.umask(old_umask)
    con.close()
    try:
        fsync_path(fresh)
        os.chmod(fresh, 0o600)
        # Checkpointed and closed, the old file needs no WAL; one left now holds only stale
        # bytes, and replaying it onto the fresh file would be wrong.
        wal_path(path).unlink(missing_ok=True)
        os.replace(fresh, path)
        fsync_path(path.parent)
    except OSError as exc:
        discard(fresh)
        raise StoreError(f"{path}: compaction failed ({exc.strerror}); {_UNCOMPACTED}") from None
    finally:
        try:
            store.con = duckdb.connect(str(path))
            store.con.execute("SET enable_progress_bar = false")  # as open_store sets it: stdout is ours
        except duckdb.Error as exc:
            raise StoreError(f"{path}: cannot reopen the store after compaction ({first_line(exc)})") from None


_UNCOMPACTED = (
    "the change is committed, but freed blocks may hold the old bytes until a compaction succeeds "
    "(`memhop forget --resume`, or any command that writes, retries it)"
)


def discard(fresh: Path) -> None:
    fresh.unlink(missing_ok=True)
    wal_path(fresh).unlink(missing_ok=True)


def _literal(path: Path) -> str:
    return str(path).replace("'", "''")


def fsync_path(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# --- byte-level residue scan ------------------------------------------------------------

_PRINTABLE = frozenset(range(0x20, 0x7F)) | {0x09, 0x0A, 0x0D}
MIN_ONE_SIDE = 8  # printable bytes on one side of a match make it text...
MIN_BOTH_SIDES = 3  # ...or this many on both sides


@dataclass
class FileScan:
    files: list[str]
    bytes_scanned: int = 0
    text_hits: int = 0  # matches sitting in text: residue
    binary_matches: int = 0  # the same bytes by chance inside vectors or page headers


def scan_file_bytes(path: Path, needles: Sequence[str], words: bool = True) -> FileScan:
    """Look for needles in the raw bytes of the DB file and its WAL, case-insensitively.

    DuckDB stores strings back to back ("Alice NguyenBob Kowalski"), so a word boundary
    is a non-alphanumeric byte or a lower-to-upper case change. A match counts as residue
    only when it sits in printable text; short names also occur by chance inside float
    vectors, and those are counted apart, never hidden.
    """
    scan = FileScan(files=[])
    for file in (path, wal_path(path)):
        if not file.exists():
            continue
        data = file.read_bytes()  # drops DuckDB's record lock; the store's lock file still holds
        scan.files.append(str(file))
        scan.bytes_scanned += len(data)
        low = data.lower()  # ASCII case folding; other letters are searched in their variants
        spans: dict[int, int] = {}  # start -> end of the longest match there
        for needle in _byte_needles(needles):
            at = low.find(needle)
            while at != -1:
                spans[at] = max(spans.get(at, 0), at + len(needle))
                at = low.find(needle, at + 1)
        for start, end in spans.items():
            if words and not _bounded(data, start, end):
                continue
            if _in_text(data, start, end):
                scan.text_hits += 1
            else:
                scan.binary_matches += 1
    return scan


def _byte_needles(needles: Sequence[str]) -> set[bytes]:
    return {v.encode("utf-8").lower() for n in needles if n for v in (n, n.lower(), n.upper(), n.title())}


def _alnum(b: int) -> bool:
    return 0x30 <= b <= 0x39 or 0x41 <= b <= 0x5A or 0x61 <= b <= 0x7A


def _bounded(data: bytes, start: int, end: int) -> bool:
    before = data[start - 1] if start else 0
    after = data[end] if end < len(data) else 0
    first, last = data[start], data[end - 1]
    left = not _alnum(before) or (0x41 <= first <= 0x5A and not 0x41 <= before <= 0x5A)
    right = not _alnum(after) or (0x41 <= after <= 0x5A and not 0x41 <= last <= 0x5A)
    return left and right


def _printable_run(data: bytes, start: int, step: int, limit: int) -> int:
    n, i = 0, start
    while n < limit and 0 <= i < len(data) and data[i] in _PRINTABLE:
        n, i = n + 1, i + step
    return n


def _in_text(data: bytes, start: int, end: int) -> bool:
    left = _printable_run(data, start - 1, -1, MIN_ONE_SIDE)
    right = _printable_run(data, end, 1, MIN_ONE_SIDE)
    return max(left, right) >= MIN_ONE_SIDE or min(left, right) >= MIN_BOTH_SIDES
