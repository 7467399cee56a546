"""The memory behind `memhop mcp`: each call opens the store, does one thing, closes it,
and hands back plain JSON data. No MCP here, so it is usable (and testable) without the SDK.

Why open per call: a desktop client keeps its MCP server running all day, and DuckDB lets
one process at a time write a file (its file lock is the store's writer lock). Holding the
store only while a call runs leaves it free for `memhop` in a shell between calls. Inside
the server one lock admits one call at a time, so one writer at a time, a read never sees
a session half-written, and a DuckDB connection is never shared between threads.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memhop.core.api import Memory, open_memory
from memhop.core.errors import MemhopError
from memhop.core.model import for_users
from memhop.core.progress import Progress

if TYPE_CHECKING:
    from memhop.core.read import Answer


class ReadOnlyServer(MemhopError):
    """A change asked of a server started with --read-only."""

    def __init__(self, what: str) -> None:
        super().__init__(f"this memhop server is read-only (started with --read-only): {what} is refused")


@dataclass
class MemoryService:
    """One store (`db`, or the settings' default) served call by call."""

    db: Path | None = None
    engine: str | None = None
    read_only: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def prepare(self) -> Path:
        """Before serving: create the store (read-write) or check that it opens (read-only),
        so a bad --db fails at start, not at the assistant's first question. Its path."""
        with self._memory(write=not self.read_only) as mem:
            mem.store  # noqa: B018 - opening is the point
            return mem.db

    @contextmanager
    def _memory(self, *, write: bool) -> Iterator[Memory]:
        """The store for one call; its snapshot kept whole, as a served process asks many questions."""
        from memhop.core.store.recall import kept_whole

        with self._lock, kept_whole(), open_memory(self.db, self.engine, read_only=not write) as mem:
            yield mem

    def _refuse_if_read_only(self, what: str) -> None:
        if self.read_only:
            raise ReadOnlyServer(what)

    # Reading.

    def ask(
        self, question: str, *, top: int | None = None, hops: int | None = None, evidence: int | None = None,
        trace: bool = False,
    ) -> dict[str, Any]:
        """`ask --json`'s keys, with the chain (the path from the question's anchor, each
        step and why) pulled out of the trace; the whole trace only when asked for."""
        data = self.answer(question, top=top, hops=hops, evidence=evidence).to_dict()
        full = data["trace"]
        data.setdefault("chain", {"path": full["chain"], "links": full["links"]})
        if not trace:
            del data["trace"]
        return data

    def answer(self, question: str, **options: Any) -> Answer:
        """`Memory.ask` on the store opened for this call (`memhop serve` renders it as `ask` does)."""
        with self._memory(write=False) as mem:
            return mem.ask(question, **options)

    def search(
        self, query: str, *, person: str | None = None, since: date | None = None, until: date | None = None,
        limit: int | None = None,
    ) -> dict[str, Any]:
        """`memhop search`'s results (Memory.search ranks; this only relays)."""
        with self._memory(write=False) as mem:
            found = mem.search(query, person=person, since=since, until=until, limit=limit or 10)
        return found.to_dict()  # the `search --json` shape

    def show(self, name: str, *, include_superseded: bool = False) -> dict[str, Any]:
        with self._memory(write=False) as mem:
            return mem.show(name, include_superseded=include_superseded).to_json()

    def entities(self) -> dict[str, Any]:
        with self._memory(write=False) as mem:
            return {"entities": [row.to_json() for row in mem.entities()]}

    def stats(self) -> dict[str, Any]:
        with self._memory(write=False) as mem:
            return {**mem.stats(), "db": str(mem.db)}

    # Changing.

    def remember(
        self, text: str, *, speaker: str | None = None, when: str | None = None, progress: Progress | None = None
    ) -> dict[str, Any]:
        """One note in, written into profiles and facts; what was stored and written."""
        self._refuse_if_read_only("remember")
        with self._memory(write=True) as mem:
            report = mem.remember(text, speaker=speaker, when=when, progress=progress)
        stored = report.files[0]
        written = None if report.write is None else {for_users(k): v for k, v in asdict(report.write).items()}
        return {"source": stored.path, "status": stored.status, "turns": stored.turns, "written": written}

    def forget(self, name: str, *, dry_run: bool = True) -> dict[str, Any]:
        """The plan (dry run: nothing changes), or the forget itself with its residue scan."""
        if not dry_run:
            self._refuse_if_read_only("forget")
        with self._memory(write=not dry_run) as mem:
            return mem.forget(name, dry_run=dry_run).to_json()

