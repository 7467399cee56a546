"""Asking the model about upcoming sessions while the write path is still on earlier ones.

The write path applies sessions one by one, in date order, and every call it makes sees
the store as the sessions before it left it: that is what makes the result the
sequential one. This module only guesses those calls early, on worker threads, from the
store as it is now:

- identification of the next few sessions, with today's registry (asked again whenever
  the registry changes, so the write path rarely waits for it);
- co-extraction for the entities of those sessions that no earlier pending session
  mentions (their profile and facts cannot change before their turn comes).

The engine keeps every reply and makes a caller of a request already in flight wait for
it, so when the write path reaches a session it finds the replies of every guess that
was right and asks only the rest. A wrong guess costs one call, never a wrong result.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from types import TracebackType

from memhop.core.engines.base import Engine
from memhop.core.limits import fit_session
from memhop.core.model import FoundEntity, KnownEntity, SessionView
from memhop.core.store import Store, memory

LOOKAHEAD = 2  # sessions guessed ahead, per worker
Expected = tuple[str | None, tuple[memory.StoredResidual, ...]]  # an entity's profile and live residuals


@dataclass(frozen=True)
class _Asked:
    key: str  # what identification was asked (the engine's request key, else the registry's repr)
    registry: list[KnownEntity]
    future: Future[list[FoundEntity]]


class Prefetcher:
    """Guesses for `sessions` (ids in write order); `advance(p)` before writing sessions[p].

    Guessing runs on a thread of its own, woken by `advance` and by every identification
    that comes back, so the guesses run ahead while the write path waits or applies. It
    reads the store through its own connection (it sees what the write path committed)."""

    def __init__(
        self, store: Store, engine: Engine, sessions: list[int], jobs: int, held: Mapping[int, int] | None = None
    ) -> None:
        self._store, self._engine, self._sessions = store, engine, sessions
        self._held = held if held is not None else {}  # entities whose updates wait (the write path adds to it)
        self._reader = Store(store.path, store.con.cursor(), embedder_setting=store.embedder_setting)
        self._ahead = max(1, jobs * LOOKAHEAD)
        self._pool = ThreadPoolExecutor(jobs, "memhop-prefetch")
        self._views: dict[int, SessionView] = {}
        self._identified: dict[int, _Asked] = {}
        self._guessed: set[tuple[int, FoundEntity]] = set()
        self._chained: set[tuple[int, FoundEntity, str | None, tuple[int, ...]]] = set()  # guesses from expect()
        self._wake = threading.Condition()
        self._target: tuple[int, list[KnownEntity]] | None = None
        self._expected: tuple[int, dict[int, Expected]] | None = None
        self._dirty = self._closing = False
        self._thread = threading.Thread(target=self._run, name="memhop-prefetch-plan", daemon=True)
        self._thread.start()

    def __enter__(self) -> Prefetcher:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        with self._wake:
            self._closing = True
            self._wake.notify()
        self._thread.join()
        # Calls already sent finish (their replies are kept); queued guesses are dropped.
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._reader.con.close()

    def advance(self, position: int) -> None:
        """Sessions before `position` are applied (the registry is read here, on the write
        path's connection, so the guesses start from exactly what it will see)."""
        registry = memory.registry(self._store)
        with self._wake:
            self._target = (position, registry)
            self._poke_locked()

    def expect(self, position: int, states: dict[int, Expected]) -> None:
        """What the write path will leave of these entities (id -> profile, live residuals)
        once the session before `position` is applied: their co-extractions for `position`
        can be asked now, while it is written."""
        with self._wake:
            self._expected = (position, states)
            self._poke_locked()

    def _poke(self, _: object = None) -> None:
        with self._wake:
            self._poke_locked()

    def _poke_locked(self) -> None:
        self._dirty = True
        self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not (self._dirty or self._closing):
                    self._wake.wait()
                if self._closing:
                    return
                self._dirty = False
                target, expected = self._target, self._expected
            if target is not None:
                self._plan(*target, expected)

    def _plan(self, position: int, registry: list[KnownEntity], expected: tuple[int, dict[int, Expected]] | None) -> None:
        """Identification is guessed from `position` on (the write path asks for `position`
        at once, and waits for a guess in flight) with the registry the sessions before
        each one are expected to leave, one session after the other; co-extraction after
        `position`, for the entities no earlier pending session names."""
        from memhop.core.write import _registry_entry  # the write path's own matching

        for done in [p for p in self._identified if p < position]:
            del self._identified[done]
            self._views.pop(done, None)
        self._guessed = {(p, f) for p, f in self._guessed if p > position}
        self._chained = {g for g in self._chained if g[0] > position}
        predicted = registry
        named: set[str] = set()
        for p in range(position, min(len(self._sessions), position + 1 + self._ahead)):
            view = self._view(p)
            asked = self._ask_identify(p, view, predicted)
            if not asked.future.done() or asked.future.exception() is not None:
                # The registry the next sessions see depends on this one: asking for them
                # before it is known was measured to waste most such calls (new people).
                break
            entries = [(f, _registry_entry(f, asked.registry)) for f in asked.future.result()]
            if p > position:
                self._guess_coextractions(p, view, [(f, k) for f, k in entries if not _named(f, k, named)])
            if expected is not None and expected[0] == p:
                self._guess_chained(p, view, entries, expected[1])
            named |= {f.name for f, _ in entries} | {k.name for _, k in entries if k}
            predicted = _expected_registry(predicted, entries)

    def _ask_identify(self, position: int, view: SessionView, registry: list[KnownEntity]) -> _Asked:
        key_of = getattr(self._engine, "identify_key", None)
        key = key_of(view, registry) if callable(key_of) else repr(registry)
        asked = self._identified.get(position)
        if asked is None or asked.key != key:
            asked = _Asked(key, registry, self._pool.submit(self._engine.identify, view, registry))
            self._identified[position] = asked
            asked.future.add_done_callback(self._poke)
        return asked

    def _view(self, position: int) -> SessionView:
        view = self._views.get(position)
        if view is None:
            view, _ = fit_session(memory.session_view(self._reader, self._sessions[position]))
            self._views[position] = view
        return view

    def _guess_chained(
        self, position: int, view: SessionView, entries: list[tuple[FoundEntity, KnownEntity | None]],
        states: dict[int, Expected],
    ) -> None:
        """Co-extractions of the entities the session before `position` updates, from the
        state it is expected to leave them in (core.write.expected_after)."""
        for found, known in entries:
            if known is None or known.id not in states or known.id in self._held:
                continue
            profile, residuals = states[known.id]
            guess = (position, found, profile, tuple(r.id for r in residuals))
            if guess in self._chained:
                continue
            self._chained.add(guess)
            self._pool.submit(self._engine.coextract, found, profile, memory.as_existing(residuals), view)

    def _guess_coextractions(
        self, position: int, view: SessionView, entries: list[tuple[FoundEntity, KnownEntity | None]]
    ) -> None:
        fresh = [(f, k) for f, k in entries if (position, f) not in self._guessed and not (k and k.id in self._held)]
        known_ids = [k.id for _, k in fresh if k]
        profiles = memory.profiles_of(self._reader, known_ids)
        residuals = memory.residuals_of_many(self._reader, known_ids)
        for found, known in fresh:
            profile = profiles.get(known.id) if known else None
            existing = memory.as_existing(tuple(residuals.get(known.id, ()))) if known else []
            self._guessed.add((position, found))
            self._pool.submit(self._engine.coextract, found, profile, existing, view)


def _named(found: FoundEntity, known: KnownEntity | None, named: set[str]) -> bool:
    return found.name in named or (known is not None and known.name in named)


def _expected_registry(
    registry: list[KnownEntity], entries: list[tuple[FoundEntity, KnownEntity | None]]
) -> list[KnownEntity]:
    """The registry after a session is applied, as far as identification can see it: new
    entities added, aliases merged (a guess: renames and kinds are left out)."""
    out = list(registry)
    for found, known in entries:
        if known is None:
            out.append(KnownEntity(-len(out) - 1, found.name, found.kind, found.aliases))
            continue
        merged = set(known.aliases) | set(found.aliases) | ({found.name} - {known.name})
        if merged != set(known.aliases):
            out[out.index(known)] = replace(known, aliases=tuple(sorted(merged)))
    return out
