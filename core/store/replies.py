"""Model replies kept in the store, so a model call is paid for once.

The write path stores each reply the moment it is read (before the session it belongs to
is applied), keyed by a hash of the model, the prompt's name and version and the whole
request. A killed ingest therefore resumes without asking again, and `memhop rebuild`
reuses what it can unless told `--fresh`. Only the request's hash is kept, never the
request, the endpoint or the API key.

Engine calls run on worker threads while the main thread holds the session's transaction,
so the cache speaks through its own DuckDB connection (a cursor of the store's), one
thread at a time, each write committed on its own.
"""

from __future__ import annotations

import threading
from datetime import datetime

from memhop.core.store.db import Store, private_files

TABLE = "model_replies"


class ReplyCache:
    """get/put of reply texts by key; `reuse=False` (a fresh rebuild) ignores replies stored
    before this cache was opened but still shares the ones this run stores."""

    def __init__(self, store: Store, *, reuse: bool = True) -> None:
        self._con = store.con.cursor()
        self._lock = threading.Lock()
        self._reuse = reuse
        self._mine: set[str] = set()  # keys stored through this cache

    def get(self, key: str) -> str | None:
        with self._lock:
            if not self._reuse and key not in self._mine:
                return None
            row = self._con.execute(
                f"SELECT reply FROM {TABLE} WHERE key = ? ORDER BY created_at DESC LIMIT 1", [key]
            ).fetchone()
        return None if row is None else str(row[0])

    def put(self, key: str, model: str, prompt: str, version: int, reply: str) -> None:
        with self._lock, private_files():
            self._con.begin()
            try:
                self._con.execute(f"DELETE FROM {TABLE} WHERE key = ?", [key])
                self._con.execute(
                    f"INSERT INTO {TABLE} (key, model, prompt, prompt_version, reply, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    [key, model, prompt, version, reply, datetime.now()],
                )
            except BaseException:
                self._con.rollback()
                raise
            self._con.commit()
            self._mine.add(key)

    def close(self) -> None:
        with self._lock:
            self._con.close()


def count(store: Store) -> int:
    return int(store.scalar(f"SELECT count(*) FROM {TABLE}"))


def rowids(store: Store) -> list[int]:
    """Every kept reply, by DuckDB's rowid (the table has no key column of its own)."""
    return [int(r[0]) for r in store.con.execute(f"SELECT rowid FROM {TABLE}").fetchall()]
