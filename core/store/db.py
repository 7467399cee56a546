"""Opening the DuckDB file, migrating it, and scoping writes to one transaction."""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb

from memhop.core.embed import DEFAULT_EMBEDDER, Embedder
from memhop.core.errors import StoreError, StoreNotFound
from memhop.core.store import lock as store_lock
from memhop.core.store import meta
from memhop.core.store.meta import EmbedderRecord
from memhop.core.store.schema import CUES_MIGRATION, IDENTITY_MIGRATION, LATEST, META_MIGRATION, MIGRATIONS

if TYPE_CHECKING:
    from memhop.core.store.intent import Resumed

log = logging.getLogger("memhop")


@dataclass
class Store:
    path: Path
    con: duckdb.DuckDBPyConnection
    lock: store_lock.StoreLock | None = None  # held from before DuckDB opens the file until after it closes
    resumed: Resumed | None = None  # an interrupted forget this open finished
    embedder_setting: str = DEFAULT_EMBEDDER  # the embedder that reads and writes it (open_store)

    @contextmanager
    def transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """All or nothing: a crash or an exception leaves the file as it was before. The WAL
        this writes (DuckDB creates it anew after each checkpoint) is private too."""
        with private_files():
            self.con.begin()
            try:
                yield self.con
            except BaseException:
                self.con.rollback()
                raise
            else:
                self.con.commit()

    def next_id(self, table: str) -> int:
        row = self.con.execute(f"SELECT coalesce(max(id), 0) + 1 FROM {table}").fetchone()
        assert row is not None
        return int(row[0])

    def log(self, op: str, detail: str) -> None:
        """Append to the operation log. Callers never pass forgotten content here."""
        self.con.execute(
            "INSERT INTO oplog (id, happened_at, op, detail) VALUES (?, ?, ?, ?)",
            [self.next_id("oplog"), datetime.now(), op, detail],
        )

    def last_op(self, ops: Sequence[str]) -> str | None:
        """Which of these operations was logged last, if any."""
        found = self.scalar(
            "SELECT op FROM oplog WHERE list_contains(?, op) ORDER BY id DESC LIMIT 1", [list(ops)]
        )
        return None if found is None else str(found)

    def embedder(self) -> EmbedderRecord:
        """The embedder whose vectors this store holds."""
        return _recorded(self.path, self.con)

    def check_embedder(self, embedder: Embedder) -> None:
        """StoreError unless `embedder` computes the vectors this store holds: a library caller
        passing another model would mix or compare vectors of two models without a sign. The
        model it reports is compared, not its name: a caller's own wrapper around the store's
        embedder writes the same vectors. No query: `open_store` checked `embedder_setting`
        against the record already."""
        model = getattr(embedder, "model", None)  # a caller's embedder written before `model` existed
        if not isinstance(model, str):
            raise StoreError(f"{self.path}: embedder {embedder.name!r} does not say which model computes its vectors "
                             "(give it a `model` attribute, such as 'all-MiniLM-L6-v2')")
        own, given = EmbedderRecord.of(self.embedder_setting), EmbedderRecord(model, embedder.dim)
        if given != own:
            raise StoreError(meta.given_other(self.path, own, self.embedder_setting, embedder.name, given))

    def checkpoint(self) -> None:
        """Write the WAL into the file now rather than at some later commit."""
        with private_files():
            self.con.execute("CHECKPOINT")

    def scalar(self, sql: str, params: list[Any] | None = None) -> Any:
        row = self.con.execute(sql, params or []).fetchone()
        return None if row is None else row[0]

    def counts(self) -> dict[str, int]:
        tables = ("sources", "sessions", "turns", "entities", "profiles", "residuals")
        return {name: int(self.scalar(f"SELECT count(*) FROM {name}")) for name in tables}

    def schema_version(self) -> int:
        return int(self.scalar("SELECT coalesce(max(version), 0) FROM migrations"))

    def close(self) -> None:
        try:
            self.con.close()
        finally:
            if self.lock is not None:
                self.lock.release()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_umask_lock = threading.Lock()
_umask_depth = 0
_umask_saved = 0


@contextmanager
def private_files() -> Iterator[None]:
    """Files created meanwhile (the store, its WAL) are readable by their owner only.

    DuckDB gives no file mode: it creates the WAL at the first write after each checkpoint,
    with the process umask of that moment, so every write runs under umask 077. The umask
    is per process: nested and concurrent uses share one saved value, restored by the last.
    """
    global _umask_depth, _umask_saved
    with _umask_lock:
        if _umask_depth == 0:
            _umask_saved = os.umask(0o077)
        _umask_depth += 1
    try:
        yield
    finally:
        with _umask_lock:
            _umask_depth -= 1
            if _umask_depth == 0:
                os.umask(_umask_saved)


def _migrate(con: duckdb.DuckDBPyConnection, creator: EmbedderRecord) -> None:
    """Apply what is missing, each migration in its own transaction. The meta record says
    `creator` in a new store; in an older one it says what wrote those (meta.LEGACY)."""
    con.execute(
        "CREATE TABLE IF NOT EXISTS migrations "
        "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMP NOT NULL)"
    )
    done = {row[0] for row in con.execute("SELECT version FROM migrations").fetchall()}
    if all(version in done for version, _, _ in MIGRATIONS):
        return
    for version, name, sql in MIGRATIONS:
        if version in done:
            continue
        con.begin()
        try:
            con.execute(sql)
            if version == META_MIGRATION:
                meta.write(con, meta.LEGACY if done else creator)
            if version == CUES_MIGRATION:
                from memhop.core.store import cues

                cues.backfill(con)
            if version == IDENTITY_MIGRATION:
                meta.write_identity(con)
            con.execute("INSERT INTO migrations VALUES (?, ?, ?)", [version, name, datetime.now()])
        except duckdb.Error:
            con.rollback()
            raise
        con.commit()
    # Schema changes go into the file now, not the WAL: DuckDB 1.5.5 cannot replay an ALTER
    # TABLE from the WAL on a read-only connection after a crash.
    con.execute("CHECKPOINT")


def open_store(
    path: Path,
    read_only: bool = False,
    embedder: str | None = None,
    create: bool = True,
    embedder_from: str | None = None,
) -> Store:
    """Open (creating and migrating if needed) the store; the file is private to its owner.

    `create=False` (commands that use a store but never make one: stats, rename, rebuild)
    and `read_only` refuse a path with no file, creating neither it nor its folders.

    `embedder` is the setting that names the embedder (settings.embedder). A store written by
    another embedder, or by a newer memhop, is refused and left exactly as it was. None (no
    embedder configured): an existing store's recorded one, DEFAULT_EMBEDDER for a new store;
    `Store.embedder_setting` says which. `embedder_from` (settings.embedder_from: the config
    file or MEMHOP_EMBEDDER) is named in the refusal, which says to remove that setting.

    The store's lock file is taken first (exclusive to write, shared to read; see
    core/store/lock.py) and released by `Store.close`. A writing open finishes a forget
    that a crash interrupted (core/store/intent.py) before it returns.
    """
    path = Path(path).expanduser()
    if embedder is not None:
        EmbedderRecord.of(embedder)  # an unknown name: refused before any file is touched
    if (read_only or not create) and not path.exists():
        raise StoreNotFound(path)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    held = store_lock.acquire(path, exclusive=not read_only)
    try:
        return _open_locked(path, read_only, _Wanted(embedder, embedder_from), held)
    except BaseException:
        if held is not None:
            held.release()
        raise


@dataclass(frozen=True)
class _Wanted:
    """The embedder an open is asked for: its setting (None: the store's own) and where the
    setting came from (for the refusal)."""

    setting: str | None
    source: str | None


def _open_locked(path: Path, read_only: bool, asked: _Wanted, held: store_lock.StoreLock | None) -> Store:
    setting = asked.setting or DEFAULT_EMBEDDER  # a new store's
    if not read_only and path.exists():
        probe = _probe(path)
        try:
            setting = _setting(path, probe, asked)
        finally:
            probe.close()
    con = _connect(path, read_only)
    if read_only:
        try:
            if not has_table(con, "migrations"):
                raise StoreError(f"{path}: not a memhop store (no migrations table)")
            setting = _setting(path, con, asked)
        except StoreError:
            con.close()
            raise
    wanted = EmbedderRecord.of(setting)
    if not read_only:
        _make_private(path)
    con.execute("SET enable_progress_bar = false")  # DuckDB would draw on our stdout
    if not read_only:
        try:
            with private_files():
                _migrate(con, wanted)
        except duckdb.Error as exc:
            con.close()
            raise StoreError(f"{path}: migration failed ({first_line(exc)})") from None
    store = Store(path=path, con=con, lock=held, embedder_setting=setting)
    from memhop.core.store import intent  # it compacts and scans through this module's Store

    if read_only:
        intent.warn_if_pending(path)
        return store
    try:
        store.resumed = intent.finish(store)
    except BaseException:
        store.close()
        raise
    return store


def _make_private(path: Path) -> None:
    """A store opened for writing is made private to its owner. Only its owner may change
    the mode, and a store someone else owns and lets us write keeps the mode they chose;
    read-only commands never change it."""
    with contextlib.suppress(PermissionError):
        os.chmod(path, 0o600)


def _connect(path: Path, read_only: bool) -> duckdb.DuckDBPyConnection:
    try:
        with private_files():
            return duckdb.connect(str(path), read_only=read_only)
    except duckdb.Error as exc:
        raise _cannot_open(path, exc) from None


def _probe(path: Path) -> duckdb.DuckDBPyConnection:
    """A connection to check an existing file through without changing it: a read-only one,
    since a writing one replays a pending WAL into the file. When this process has the file
    open for writing already (DuckDB then refuses a read-only connection), the file is live
    and another connection to it changes nothing."""
    try:
        return duckdb.connect(str(path), read_only=True)
    except duckdb.ConnectionException:
        return _connect(path, read_only=False)
    except duckdb.Error as exc:
        if path.with_name(path.name + ".wal").exists() and "WAL" in str(exc):
            # DuckDB 1.5.5 cannot replay some WAL records (an ALTER TABLE of a migration cut
            # short by a crash) read-only; a writing connection replays them, as the next
            # write would anyway.
            try:
                return _connect(path, read_only=False)
            except StoreError:
                if not _set_aside_unborn_wal(path):
                    raise
                return _connect(path, read_only=False)
        raise _cannot_open(path, exc) from None


def _set_aside_unborn_wal(path: Path) -> bool:
    """A store killed while it was being created: its file holds no table yet, and its WAL
    (the first tables, half written) is one DuckDB cannot replay at all. Nothing was ever
    stored in it — every memhop write comes after the first migrations are checkpointed
    into the file — so the WAL is moved aside (kept, as `.wal.unreplayable`) and the store
    is created afresh. A file with any table keeps its WAL and stays refused."""
    wal = path.with_name(path.name + ".wal")
    aside = path.with_name(path.name + ".wal.unreplayable")
    os.replace(wal, aside)
    try:
        con = duckdb.connect(str(path), read_only=True)
        try:
            tables = con.execute("SELECT count(*) FROM information_schema.tables").fetchone()
        finally:
            con.close()
    except duckdb.Error:
        tables = None
    if tables != (0,):
        os.replace(aside, wal)
        return False
    log.warning("%s: the store was cut off while being created; its unreadable WAL is kept as %s", path, aside.name)
    return True


def _cannot_open(path: Path, exc: duckdb.Error) -> StoreError:
    if isinstance(exc, duckdb.IOException):
        return StoreError(f"{path}: cannot open the store ({first_line(exc)})")
    return StoreError(f"{path}: not a memhop store ({first_line(exc)})")


def _refuse_foreign(path: Path, con: duckdb.DuckDBPyConnection, asked: _Wanted) -> EmbedderRecord | None:
    """StoreError unless this code can use the store: a schema it knows, holding vectors of
    the embedder asked for (any, when none is set). Returns what the store records; None
    for a file without migrations, which is new (or not a store) and passes."""
    if not has_table(con, "migrations"):
        return None
    row = con.execute("SELECT coalesce(max(version), 0) FROM migrations").fetchone()
    version = int(row[0]) if row else 0
    if version > LATEST:
        raise StoreError(f"{path}: schema version {version} is newer than this memhop knows ({LATEST}): upgrade memhop")
    stored = _recorded(path, con)
    if asked.setting is not None and stored != (record := EmbedderRecord.of(asked.setting)):
        raise StoreError(meta.mismatch(path, stored, asked.setting, record, asked.source))
    return stored


def _setting(path: Path, con: duckdb.DuckDBPyConnection, asked: _Wanted) -> str:
    """The embedder this open uses: the one configured, refused unless the store holds its
    vectors; with none configured, the store's recorded one (DEFAULT_EMBEDDER if it is new)."""
    stored = _refuse_foreign(path, con, asked)
    if asked.setting is not None:
        return asked.setting
    return DEFAULT_EMBEDDER if stored is None else meta.setting(path, stored)


def _recorded(path: Path, con: duckdb.DuckDBPyConnection) -> EmbedderRecord:
    """What the meta record says; a store older than the record holds MiniLM's vectors. A
    store whose migrations made the record but whose meta table is gone may hold either
    model's: it is damaged, not float (and a writing open would never make the table again)."""
    if has_table(con, "meta"):
        return meta.recorded(path, con)
    made = con.execute("SELECT count(*) FROM migrations WHERE version = ?", [META_MIGRATION]).fetchone()
    if made and made[0]:
        raise StoreError(f"{path}: damaged store (its meta table, which records the embedder, is missing)")
    return meta.LEGACY


def has_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    """Whether the store has this table: a store opened read-only is not migrated, so a newer
    table may be missing."""
    row = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [name]
    ).fetchone()
    return bool(row and row[0])


def quote(identifier: str) -> str:
    """An identifier for SQL text (table and column names come from the schema, never a user)."""
    return '"' + identifier.replace('"', '""') + '"'


def first_line(exc: BaseException) -> str:
    """A DuckDB error's first line: the rest is a stack trace or a hint meant for SQL users."""
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__

