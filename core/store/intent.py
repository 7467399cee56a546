"""A forget in flight: its record, and finishing it after a crash.

Forget writes `<store>.forget` (private, atomically) before it commits its logical delete,
and removes it after the compaction and the residue scan. The record holds the kind of
forget, the id of its target row, and keyed BLAKE2 hashes of the words to look for in the
file afterwards, never the words: the names of the person being forgotten are not written
anywhere in clear. The key is random per forget and sits in the record (a private file
beside the store), so the hashes cannot be looked up in a table made for another store;
record and key go together when the job is done.

Whoever next opens the store for writing (under its exclusive lock) finishes the job: if
the target row is gone the delete was committed, so the file is compacted again and
scanned by hash; if the row is still there the forget never committed and the record is
dropped. A stale `<store>.compacting` copy is only ever a partial copy (the swap is one
rename), so it is removed. A read-only open cannot compact: it warns and reads on.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import secrets
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from memhop.core.errors import StoreError
from memhop.core.language.names import fold
from memhop.core.store import compact, tables, vectors
from memhop.core.store.db import Store, quote

RECORD_SUFFIX = ".forget"
PREFIX_WORDS = 6  # a long needle (a removed turn) is looked for by its first words
TARGETS = {"entity": "entities", "fact": "residuals", "source": "sources"}
_FORMAT = 1
_CASE_CHANGE = re.compile(r"(?<=[a-z])(?=[A-Z])")  # "NguyenBob": strings stored back to back
_WORD = re.compile(r"[^\W_]+")
_TEXT_RUN = re.compile(rb"(?:[\t\n\r\x20-\x7e]|[\xc2-\xf4][\x80-\xbf]{1,3}){8,}")  # printable, UTF-8 letters

log = logging.getLogger("memhop")


def record_path(store: Path) -> Path:
    return store.with_name(store.name + RECORD_SUFFIX)


def words(text: str) -> list[str]:
    """Accent- and case-folded words; a lower-to-upper change is a boundary too."""
    return [w.casefold() for w in _WORD.findall(_CASE_CHANGE.sub(" ", fold(text)))]


@dataclass
class Intent:
    kind: str  # entity | fact | source
    target: int  # the id of the entity, fact or source row
    key: bytes
    needles: frozenset[bytes] = frozenset()
    widths: frozenset[int] = frozenset()
    may_remain: bool = False  # a needle still in live text is not residue (a source's turn texts)

    @classmethod
    def new(cls, kind: str, target: int, needles: Sequence[str], may_remain: bool = False) -> Intent:
        intent = cls(kind, target, secrets.token_bytes(32), may_remain=may_remain)
        cut = [ws[:PREFIX_WORDS] if may_remain else ws for ws in map(words, needles) if ws]
        intent.needles = frozenset(intent.digest(ws) for ws in cut)
        intent.widths = frozenset(len(ws) for ws in cut)
        return intent

    def digest(self, window: Sequence[str]) -> bytes:
        return hashlib.blake2b(" ".join(window).encode(), key=self.key, digest_size=16).digest()

    def hits(self, text: str) -> list[bytes]:
        """The needle hashes found in a text, one per place (the longest needle there)."""
        ws = words(text)
        found = []
        for i in range(len(ws)):
            for width in sorted(self.widths, reverse=True):
                h = self.digest(ws[i : i + width]) if i + width <= len(ws) else b""
                if h in self.needles:
                    found.append(h)
                    break
        return found

    def to_json(self) -> dict[str, Any]:
        return {
            "format": _FORMAT,
            "kind": self.kind,
            "target": self.target,
            "key": self.key.hex(),
            "needles": sorted(n.hex() for n in self.needles),
            "widths": sorted(self.widths),
            "may_remain": self.may_remain,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Intent:
        if data.get("format") != _FORMAT or data.get("kind") not in TARGETS:
            raise ValueError("unknown record format")
        return cls(
            str(data["kind"]),
            int(data["target"]),
            bytes.fromhex(data["key"]),
            frozenset(bytes.fromhex(n) for n in data["needles"]),
            frozenset(int(w) for w in data["widths"]),
            bool(data["may_remain"]),
        )


def write(store: Path, intent: Intent) -> None:
    """Atomically and durably: temp file, fsync, rename, fsync of the folder."""
    target = record_path(store)
    temp = target.with_name(target.name + ".tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(intent.to_json(), handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.rename(temp, target)  # atomic on POSIX, like os.replace
        compact.fsync_path(target.parent)
    except OSError as exc:
        temp.unlink(missing_ok=True)
        raise StoreError(f"{store}: cannot record the forget before starting it ({exc.strerror}); nothing was changed") from None


def read(store: Path) -> Intent | None:
    target = record_path(store)
    try:
        data = json.loads(target.read_text(encoding="utf-8"))
        return Intent.from_json(data)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise StoreError(f"{target}: unreadable record of an interrupted forget ({exc}); remove it after "
                         "checking the store, then run `memhop forget` again") from None


def remove(store: Path) -> None:
    record_path(store).unlink(missing_ok=True)
    compact.fsync_path(store.parent)


@dataclass
class Resumed:
    """What finishing an interrupted forget did."""

    kind: str
    committed: bool  # False: it died before its delete was committed; nothing to finish
    compacted: bool = False
    residue: dict[str, Any] = field(default_factory=dict)

    @property
    def clean(self) -> bool:
        return not any(self.residue.get(k) for k in ("text_hits", "file_text_hits", "derived_files"))

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def pending(store: Path) -> bool:
    return record_path(store).exists()


def warn_if_pending(store: Path) -> None:
    """For a read-only open, which cannot finish the job."""
    if pending(store):
        log.warning(
            "%s: a forget was interrupted before its compaction and residue scan; old bytes may still "
            "hold what it removed: run `memhop forget --resume`",
            store,
        )


def finish(store: Store) -> Resumed | None:
    """Under the exclusive lock: drop a stale compaction copy, then finish a recorded forget."""
    compact.discard(store.path.with_name(store.path.name + compact.COMPACT_SUFFIX))
    record = record_path(store.path)
    record.with_name(record.name + ".tmp").unlink(missing_ok=True)  # a record cut short while written
    intent = read(store.path)
    if intent is None:
        return None
    if not _committed(store, intent):
        remove(store.path)  # the delete never committed: the store is as it was
        return Resumed(intent.kind, committed=False)
    compact.compact(store)
    done = Resumed(intent.kind, committed=True, compacted=True, residue=scan(store, intent))
    remove(store.path)  # the scan ran; what it found is reported below, never left silent
    if not done.clean:
        where = ", ".join(f"{k} ({v})" for k, v in done.residue["text_hits"].items()) or "no table"
        raise StoreError(
            f"{store.path}: finishing an interrupted forget ({intent.kind}): the residue scan still finds it "
            f"in {where} and {done.residue['file_text_hits']} places of the file's bytes"
            + (f", and derived files remain ({', '.join(left)})" if (left := done.residue["derived_files"]) else "")
        )
    return done


def _committed(store: Store, intent: Intent) -> bool:
    """The target row is gone. Ids are never reused before this check: it runs at the first
    open after the forget, before anything else can write."""
    return not store.scalar(f"SELECT count(*) FROM {TARGETS[intent.kind]} WHERE id = ?", [intent.target])


def drop_if_uncommitted(store: Store) -> None:
    """After a forget's transaction failed: drop the record if the store shows the delete
    did not commit; if even that cannot be read, keep it for the next open to decide."""
    intent = read(store.path)
    try:
        committed = intent is None or _committed(store, intent)
    except duckdb.Error:
        return
    if not committed:
        remove(store.path)


def scan(store: Store, intent: Intent) -> dict[str, Any]:
    """The residue scan by hash: every text column, then the text runs of the file and its WAL."""
    text_hits: dict[str, int] = {}
    live: set[bytes] = set()
    for col in tables.text_columns(store):
        sql = f"SELECT {_text(col)} FROM {quote(col.table)} WHERE {quote(col.column)} IS NOT NULL"
        values = tables.rows(store, sql)
        found = [h for (value,) in values for h in intent.hits(value)]
        live.update(found)
        if found and not intent.may_remain:
            text_hits[f"{col.table}.{col.column}"] = len(found)
    file_hits, scanned, files = 0, 0, []
    for path in (store.path, compact.wal_path(store.path)):
        if not path.exists():
            continue
        data = path.read_bytes()  # safe: the store's lock file, not DuckDB's, keeps others out
        files.append(str(path))
        scanned += len(data)
        for run in _TEXT_RUN.finditer(data):
            found = intent.hits(run.group(0).decode("utf-8", "ignore"))
            file_hits += sum(not intent.may_remain or h not in live for h in found)
    return {"text_hits": text_hits, "file_text_hits": file_hits, "files_scanned": files, "bytes_scanned": scanned,
            "derived_files": vectors.leftovers(store.path)}


def _text(col: tables.TextColumn) -> str:
    return f"array_to_string({quote(col.column)}, chr(10))" if col.is_list else quote(col.column)
