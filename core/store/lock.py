"""One writer per store across processes: an advisory lock file beside the store.

DuckDB guards the store file with POSIX record locks. The kernel drops those as soon as
the process closes *any* descriptor of the file (reading its bytes for forget's residue
scan, fsyncing it), and forget has to give them up anyway while it swaps a compacted
copy in. In those gaps a second memhop could open the store, commit, and lose its write
when the copy replaced the file. So every memhop process takes `<store>.lock` with
flock(2) before DuckDB opens the store and keeps it until DuckDB has closed it: flock
belongs to the lock file's own open description, and nothing else ever opens that file
in the holder, so no other descriptor can drop it. Writers hold it exclusively, readers
shared. A process that finds it taken waits up to MEMHOP_LOCK_TIMEOUT seconds (saying
so on the `memhop` logger), then fails with a StoreError naming the holder's pid.

Within one process the lock is counted, not taken twice (flock locks of two descriptors
of one process would block each other): the process is one DuckDB instance anyway.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path

from memhop.core.errors import StoreError

LOCK_SUFFIX = ".lock"
DEFAULT_TIMEOUT = 60.0  # seconds; an ingest holds the store for as long as it writes
POLL = 0.1

log = logging.getLogger("memhop")


@dataclass
class _Held:
    fd: int
    exclusive: bool
    count: int


_HELD: dict[str, _Held] = {}


def lock_path(store: Path) -> Path:
    return store.with_name(store.name + LOCK_SUFFIX)


def timeout_setting() -> float:
    """MEMHOP_LOCK_TIMEOUT in seconds (0: fail at once); a bad value is an error, not a guess."""
    raw = os.environ.get("MEMHOP_LOCK_TIMEOUT", "").strip()
    if not raw:
        return DEFAULT_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value >= 0:  # also NaN
        raise StoreError(f"MEMHOP_LOCK_TIMEOUT={raw!r}: give a number of seconds (0 or more)")
    return value


class StoreLock:
    """This process's hold on a store's lock file; `release` once per `acquire`."""

    def __init__(self, key: str) -> None:
        self._key: str | None = key

    def release(self) -> None:
        if self._key is None:
            return
        held = _HELD[self._key]
        held.count -= 1
        if held.count == 0:
            del _HELD[self._key]
            if held.exclusive:
                os.ftruncate(held.fd, 0)  # no stale pid for the next one to show
            os.close(held.fd)  # closing the only descriptor of the lock file releases the flock
        self._key = None


def acquire(store: Path, exclusive: bool, timeout: float | None = None) -> StoreLock | None:
    """Take the store's lock (waiting up to `timeout`), or None for a read-only use where the
    lock file cannot be created (a store on read-only media: nobody can write it either)."""
    target = lock_path(store)
    key = str(target.resolve())
    held = _HELD.get(key)
    if held is not None:
        if exclusive and not held.exclusive:
            _wait(held.fd, target, exclusive=True, timeout=timeout_setting() if timeout is None else timeout)
            held.exclusive = True
        held.count += 1
        return StoreLock(key)
    old_umask = os.umask(0o077)
    try:
        fd = os.open(target, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        if not exclusive and exc.errno in (errno.EACCES, errno.EROFS, errno.EPERM):
            return None
        raise StoreError(f"{store}: cannot create the lock file {target.name} ({exc.strerror})") from None
    finally:
        os.umask(old_umask)
    try:
        _wait(fd, target, exclusive, timeout_setting() if timeout is None else timeout)
    except BaseException:
        os.close(fd)
        raise
    if exclusive:
        _write_holder(fd)
    _HELD[key] = _Held(fd, exclusive, 1)
    return StoreLock(key)


def _wait(fd: int, target: Path, exclusive: bool, timeout: float) -> None:
    mode = (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB
    deadline = time.monotonic() + timeout
    told = False
    while True:
        try:
            fcntl.flock(fd, mode)
            return
        except BlockingIOError:
            pass
        store = target.with_name(target.name.removesuffix(LOCK_SUFFIX))
        if time.monotonic() >= deadline:
            raise StoreError(
                f"{store}: in use by another memhop process{_holder(fd)}; waited {timeout:g} s "
                "(try again when it has finished, or set MEMHOP_LOCK_TIMEOUT)"
            )
        if not told:
            log.warning("%s: waiting for another memhop process%s to finish", store, _holder(fd))
            told = True
        time.sleep(POLL)


def _write_holder(fd: int) -> None:
    """Our pid, for the message another process shows while it waits (no command line:
    that could hold the very name being forgotten)."""
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)


def _holder(fd: int) -> str:
    try:
        pid = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return f" (pid {pid})" if pid.isdigit() else ""
