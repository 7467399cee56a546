"""A local engine's sessions written SESSIONS to a transaction, each changed profile embedded
once, when the transaction commits.

A profile changes in most sessions that mention its entity, and only its last text's
vector is kept: embedded per session, a LoCoMo conversation's 15 profiles cost 40 profile
embeddings, six times their final tokens. Nothing reads a profile's vector while the write
path runs (the engines read profile texts, deduplication reads residual vectors), so each
session puts its profile texts with a placeholder vector and the batch embeds every
changed profile's last text just before it commits. A crash rolls the whole batch back:
a committed store never holds a placeholder. An engine that is paid per call writes each
session on its own (write.py): a crash there must lose as little as possible.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from types import TracebackType

from memhop.core.embed import Embedder
from memhop.core.store import Store, memory

SESSIONS = 32  # at most this many sessions' work lost to a crash (~2 s of the offline engine)


class SessionBatch:
    """One transaction for up to SESSIONS sessions, opened by the first of them; committed
    when full, by `commit`, or when the `with` block ends, unless it ends by an error raised
    while a session was being written (that session is half written: the batch is rolled
    back). An error between sessions (Ctrl-C while the next one is read, a failed
    identification) keeps the sessions written before it."""

    def __init__(self, store: Store, embedder: Embedder) -> None:
        self._store, self._embedder = store, embedder
        self._transaction: ExitStack | None = None
        self._sessions = 0
        self._writing = False  # inside `session`: what is written so far is not a whole session
        self._changed: dict[int, str] = {}  # entity id -> its profile's last text in this batch

    def __enter__(self) -> SessionBatch:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if error is None or not self._writing:
            self.commit()
        elif self._transaction is not None:
            transaction, self._transaction = self._transaction, None
            transaction.__exit__(kind, error, trace)  # rolls back; the caller's error goes on

    @contextmanager
    def session(self) -> Iterator[None]:
        """Write one session inside the batch's transaction; commits the batch once it is full."""
        if self._transaction is None:
            self._transaction = ExitStack()
            self._transaction.enter_context(self._store.transaction())
        self._writing = True
        yield
        self._writing = False
        self._sessions += 1
        if self._sessions >= SESSIONS:
            self.commit()

    def defer(self, entity_ids: Sequence[int], texts: Sequence[str]) -> None:
        """Profiles just put with a placeholder vector: embedded at commit, their last text only."""
        self._changed.update(zip(entity_ids, texts))

    def commit(self) -> None:
        """Embed the batch's changed profiles, set their vectors, commit."""
        if self._transaction is None:
            return
        transaction, self._transaction = self._transaction, None
        changed, self._changed, self._sessions = self._changed, {}, 0
        with transaction:  # an error embedding rolls the batch back
            if changed:
                memory.set_profile_vectors(self._store, list(changed), self._embedder.embed(list(changed.values())))
