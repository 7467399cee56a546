"""memhop as a library: one object that owns the wiring every command needs.

`open_memory` (exposed as `memhop.open`) only loads the settings. The store file, the
embedding model and the engine are opened on first use, so each call pays for what it
touches: `config()` opens nothing, `show()` never loads the model, `read()` never builds
an engine. Core modules are imported inside the methods for the same reason.

Users see one word, "fact", for what the code calls a residual: `ask(facts=False)`,
the `facts` key of `stats()`. The store's table names stay as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from datetime import date, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypedDict, Unpack

from memhop.core.config import Paths, ReadSettings, Settings, load_settings
from memhop.core.errors import ConfigError, StoreError
from memhop.core.model import for_users

if TYPE_CHECKING:
    from memhop.core.edit import EditReport
    from memhop.core.embed import Embedder
    from memhop.core.engines.base import Engine
    from memhop.core.export import EntitySummary
    from memhop.core.forget import ForgetReport
    from memhop.core.ingest import IngestReport
    from memhop.core.inspect import EntityView, TurnContext
    from memhop.core.model import AnswerRequest, Reply
    from memhop.core.plan import IngestPlan
    from memhop.core.progress import Progress
    from memhop.core.read import Answer, Context
    from memhop.core.redact import Redactor
    from memhop.core.search import SearchResult
    from memhop.core.store import Store
    from memhop.core.store.intent import Resumed
    from memhop.core.store.source_list import SourceSummary
    from memhop.core.window import Window
    from memhop.core.write import WriteReport

__all__ = ["Memory", "open_memory", "user_counts"]


class ReadOverrides(TypedDict, total=False):
    """Read knobs a call may set instead of the settings (`ask --top 3`); None keeps the setting."""

    top: int | None
    hops: int | None
    gate: float | None
    evidence: int | None
    expand: bool | None
    facts: bool | None
    retriever: str | None


When = date | str | None  # a window bound: a date, or text as `--since` takes it


def _window(since: When, until: When) -> Window | None:
    """None when no bound is given; InvalidDate when text is not a date."""
    from memhop.core.window import parse_window

    return None if since is None and until is None else parse_window(since, until)


def user_counts(counts: dict[str, int]) -> dict[str, int]:
    """Row counts per table, keyed by the words users see ("facts", not "residuals")."""
    return {for_users(table): count for table, count in counts.items()}


def open_memory(
    db: str | Path | None = None, engine: str | None = None, *, read_only: bool = False, create: bool = True
) -> Memory:
    """Settings from the config file and MEMHOP_* variables, `db` and `engine` winning."""
    paths = Paths.from_env()
    settings = load_settings(paths, db=None if db is None else Path(db), engine=engine)
    return Memory(settings, paths, read_only=read_only, create=create)


class Memory:
    """One memhop store with its settings; use it as a context manager to close the file."""

    def __init__(
        self, settings: Settings, paths: Paths | None = None, *, read_only: bool = False, create: bool = True
    ) -> None:
        self.settings = settings
        self.paths = paths or Paths.from_env()
        self.read_only = read_only
        self.create = create  # False: a missing store is an error (StoreNotFound), never made
        self._store: Store | None = None
        self._engine: Engine | None = None
        self._answered_by = ""  # set by each answer call: the engine (and model) that answered

    def __repr__(self) -> str:
        mode = "read-only" if self.read_only else "read-write"
        return f"Memory(db={str(self.db)!r}, engine={self.settings.engine!r}, {mode})"

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Release the store file (and the engine's connection, if it keeps one)."""
        if self._store is not None:
            self._store.close()
            self._store = None
        if self._engine is not None:
            _close_engine(self._engine)
            self._engine = None

    # What is opened on first use.

    @property
    def db(self) -> Path:
        return self.settings.db

    @property
    def store(self) -> Store:
        """The DuckDB store, opened (and created, unless read-only) on first use."""
        if self._store is None:
            from memhop.core.store import open_store

            self._store = open_store(
                self.settings.db, read_only=self.read_only, embedder=self.settings.embedder, create=self.create,
                embedder_from=self.settings.embedder_from,
            )
        return self._store

    @property
    def embedder(self) -> Embedder:
        """The configured embedder, else the store's (opening it); the model loads once per process."""
        from memhop.core.embed import get_embedder

        return get_embedder(self.settings.embedder or self.store.embedder_setting)

    @property
    def engine(self) -> Engine:
        """The configured engine for answering and rewriting, built on first use and kept."""
        if self._engine is None:
            from memhop.core.engines import build_engine

            self._engine = build_engine(self.settings)
        return self._engine

    @contextmanager
    def _write_engine(self, jobs: int | None = None) -> Iterator[Engine]:
        """A new engine per write run, so a report's usage and the engine's caches are
        that run's alone. `jobs` replaces `openai.concurrency` for this run."""
        from memhop.core.engines import build_engine

        settings = self.settings
        if jobs is not None:
            if jobs < 1:
                raise ConfigError(f"--jobs must be at least 1, not {jobs}")
            settings = replace(settings, openai=replace(settings.openai, concurrency=jobs))
        engine = build_engine(settings)
        try:
            yield engine
        finally:
            _close_engine(engine)

    def _writable(self, what: str) -> Store:
        if self.read_only:
            raise StoreError(f"{self.db}: opened read-only; {what} needs memhop.open(read_only=False)")
        return self.store

    # Importing and writing.

    def ingest(
        self,
        paths: str | Path | Iterable[str | Path],
        *,
        format: str | None = None,
        self_name: str | None = None,
        progress: Progress | None = None,
        write: bool = True,
        day_first: bool | None = None,
        tz: str | None = None,
        name: str | None = None,
        jobs: int | None = None,
    ) -> IngestReport:
        """Import export files, folders or `.zip` exports ("-" is stdin, stored under `name`),
        then write profiles and facts for every pending session (`write=False`: the raw
        turns only). A bad file is reported in the result and skipped; the others still
        import. `day_first` settles a file whose dates cannot tell day/month order; `tz`
        (an IANA zone name) is the zone UTC times are shown in (default: this machine's).
        `jobs`: model calls in flight at once (engines that call a server; default
        `openai.concurrency`)."""
        from memhop.core.ingest import ingest, parse_options

        names = [str(paths)] if isinstance(paths, (str, Path)) else [str(p) for p in paths]
        options = parse_options(day_first, tz)  # a bad --tz is refused before the store is touched
        store = self._writable("ingest")
        with ExitStack() as stack:
            # built before any file is read: a misconfigured engine fails before any import
            engine = stack.enter_context(self._write_engine(jobs)) if write else None
            return ingest(
                store,
                names,
                self.embedder,
                format=format,
                self_name=self_name,
                progress=progress,
                engine=engine,
                dedup_threshold=self.settings.dedup_threshold,
                options=options,
                stdin_name=name,
            )

    def plan_ingest(
        self,
        paths: str | Path | Iterable[str | Path],
        *,
        format: str | None = None,
        self_name: str | None = None,
        day_first: bool | None = None,
        tz: str | None = None,
        name: str | None = None,
    ) -> IngestPlan:
        """What `ingest` of these paths would cost: sessions, model calls (identification
        exact, co-extractions estimated) and prompt tokens (a tokenizer's estimate), with
        no model called and nothing written; a missing store is not created."""
        from memhop.core.ingest import parse_options
        from memhop.core.plan import plan_ingest
        from memhop.core.store import open_store

        names = [str(paths)] if isinstance(paths, (str, Path)) else [str(p) for p in paths]
        options = parse_options(day_first, tz)
        with ExitStack() as stack:
            store = self._store
            if store is None and self.db.exists():
                store = stack.enter_context(open_store(
                    self.db, read_only=True, embedder=self.settings.embedder, embedder_from=self.settings.embedder_from
                ))
            engine = None
            if self.settings.engine == "openai":
                from memhop.core.engines.openai.engine import OpenAIEngine

                engine = OpenAIEngine(self.settings.openai)  # renders prompts; never called
                stack.callback(engine.close)
            return plan_ingest(store, names, engine, self.settings.engine, format, self_name, options, name)

    def remember(
        self,
        text: str,
        *,
        speaker: str | None = None,
        when: str | date | datetime | None = None,
        progress: Progress | None = None,
    ) -> IngestReport:
        """Add one note (a turn by `speaker`, the diarist unless told otherwise, at `when`,
        ISO 8601 or now) as a source of its own, then write profiles and facts for it."""
        from memhop.core.notes import ingest_note, make_note

        note = make_note(text, speaker, when)  # checked before the store is opened or created
        store = self._writable("remember")
        with self._write_engine() as engine:
            return ingest_note(
                store, note, self.embedder, engine=engine, dedup_threshold=self.settings.dedup_threshold, progress=progress
            )

    def rebuild(
        self, *, progress: Progress | None = None, jobs: int | None = None, fresh: bool = False
    ) -> WriteReport:
        """Re-derive profiles and facts from the raw turns (after switching engine); resumable.
        Model replies kept from earlier runs are reused unless `fresh`; `jobs` as for ingest."""
        from memhop.core.write import rebuild

        store = self._writable("rebuild")
        with self._write_engine(jobs) as engine:
            return rebuild(store, engine, self.embedder, self.settings.dedup_threshold, progress, fresh)

    # Asking.

    def read(
        self, question: str, *, since: When = None, until: When = None, **overrides: Unpack[ReadOverrides]
    ) -> Context:
        """What an answer would be built from (profiles, facts, raw turns, the trace),
        without calling the engine. `overrides` (top, hops, gate, evidence, expand, facts,
        retriever) replace the settings' read knobs; None keeps the setting. `since` / `until` (a date,
        or text such as "2024-03-15", "March 2024", "last week") keep only the facts and
        turns of that time."""
        from memhop.core.read import read

        return read(self.store, question, self.embedder, self.read_options(**overrides), _window(since, until))

    def ask(
        self,
        question: str,
        *,
        since: When = None,
        until: When = None,
        fallback: bool = False,
        **overrides: Unpack[ReadOverrides],
    ) -> Answer:
        """Answer from memory ("I don't know" when nothing supports an answer); `.text` is
        the answer, `.answered` False for a refusal, `.support` the facts and turns it was
        read from (or, flagged `closest`, the memories nearest the question),
        `.context` what it was built from, `.to_dict()` the `--json` shape. `since`,
        `until` and `overrides` as for `read`."""
        from memhop.core.read import ask

        options = self.read_options(**overrides)
        answer = self._answer_or_fall_back if fallback else self._answer
        result = ask(self.store, question, self.embedder, options, answer, _window(since, until))
        result.context.trace.answered_by = self._answered_by
        return result

    def search(
        self, query: str, *, person: str | None = None, since: When = None, until: When = None, limit: int = 10
    ) -> SearchResult:
        """The raw turns and facts closest to `query`, best first, each with its date, speaker
        and source file; `person` (any name `show` takes) keeps their turns and facts only."""
        from memhop.core.search import search

        return search(self.store, self.embedder, query, person, _window(since, until), limit)

    def _answer(self, request: AnswerRequest) -> str | Reply:
        answer = self.engine.answer(request)  # the engine is built only when a question reaches it
        self._answered_by = self._engine_label()
        return answer

    def _answer_or_fall_back(self, request: AnswerRequest) -> str | Reply:
        """The configured engine's answer, or, when it fails for good (a dead server, broken
        replies), the offline answerer's; the trace says which answered and why."""
        from memhop.core.errors import EngineError

        try:
            return self._answer(request)
        except EngineError as exc:
            from memhop.core.engines.offline.answer import reply_offline

            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            self._answered_by = f"offline (fallback: {self._engine_label()} failed: {reason})"
            return reply_offline(request)

    def _engine_label(self) -> str:
        name = self.settings.engine
        return f"{name} (model {self.settings.openai.model})" if name == "openai" else name

    def read_options(self, **overrides: Unpack[ReadOverrides]) -> ReadSettings:
        """The settings' read knobs with the given ones replaced (users say "facts", the
        settings "residuals")."""
        given: dict[str, Any] = {("residuals" if key == "facts" else key): value for key, value in overrides.items()}
        if given.get("retriever") is not None:
            from memhop.core.retrievers import check_name

            check_name(given["retriever"])  # a ConfigError now, not a KeyError mid-read
        return replace(self.settings.read, **{k: v for k, v in given.items() if v is not None})

    # Looking.

    def show(self, name: str, *, include_superseded: bool = False) -> EntityView:
        """One entity by full name, alias, first name or surname (case and accents aside): its
        profile and facts with sources. A name two entities fit raises AmbiguousName, an
        unknown one EntityNotFound with the closest names as `suggestions`."""
        from memhop.core.inspect import describe_entity

        return describe_entity(self.store, name, include_superseded=include_superseded)

    def turn(self, turn_id: int) -> TurnContext:
        """One raw turn with the two before and after it in its session; TurnNotFound if
        there is no such turn."""
        from memhop.core.inspect import describe_turn

        return describe_turn(self.store, turn_id)

    def entities(self) -> list[EntitySummary]:
        """Every entity: the diarist first, then by name."""
        from memhop.core.export import list_entities

        return list_entities(self.store)

    def stats(self) -> dict[str, Any]:
        """How many sources, sessions, turns, entities, profiles and facts the store holds;
        the entity updates held back by a failed model call (`quarantined`, retried by the
        next ingest or rebuild); and the calls and tokens each engine's write runs spent
        (`engine_calls`); and the embedder whose vectors it holds (`embedder`, its setting)."""
        from memhop.core.store import quarantine, spend

        return {
            **user_counts(self.store.counts()),
            "embedder": self.store.embedder_setting,
            "quarantined": quarantine.listing(self.store),
            "engine_calls": spend.totals(self.store),
        }

    def sources(self) -> list[SourceSummary]:
        """Every import: id, name, format, sessions, turns, first and last turn time."""
        from memhop.core.store.source_list import source_summaries

        return source_summaries(self.store)

    def config(self) -> dict[str, Any]:
        """Where memhop keeps things and the active settings, secrets as "set" / "not set"."""
        return {
            "config_file": str(self.paths.config_file),
            "config_file_exists": self.paths.config_file.exists(),
            "data_dir": str(self.paths.data_dir),
            "cache_dir": str(self.paths.cache_dir),
            "settings": self.settings.redacted(),
        }

    # Correcting and forgetting.

    def forget(
        self,
        name: str | None = None,
        *,
        fact: int | None = None,
        source: str | None = None,
        drop_turns: bool = False,
        dry_run: bool = False,
        confirm: Callable[[ForgetReport], bool] | None = None,
    ) -> ForgetReport:
        """Remove exactly one of an entity (by name; an alias, first name or surname that
        could also be another entity is refused), a fact (by id) or an imported source
        everywhere, then prove it is gone. `dry_run` plans and changes nothing; `confirm`
        sees the plan first and may refuse."""
        from memhop.core.forget import forget

        store = self.store if dry_run else self._writable("forget")
        return forget(
            store,
            None if dry_run else self.embedder,
            name=name,
            fact=fact,
            source=source,
            drop_turns=drop_turns,
            dry_run=dry_run,
            confirm=confirm,
            redactor=self._redactor() if name is not None else None,
        )

    def resume_forget(self) -> Resumed | None:
        """Finish a forget that a crash or a full disk interrupted after its commit (compact
        and scan again); None when there was none. Opening the store for writing is what
        finishes it, so any writing command would have done the same."""
        return self._writable("forget --resume").resumed

    def _redactor(self) -> Redactor:
        """Offline sentence removal, or the configured engine's rewrite call when it has one."""
        from memhop.core.redact import SentenceRedactor

        if self.settings.engine == "offline":
            return SentenceRedactor()
        engine = self.engine
        return engine if callable(getattr(engine, "rewrite", None)) else SentenceRedactor()  # type: ignore[return-value]

    def edit(self, name: str, text: str | None = None, *, editor: Callable[[str], str | None] | None = None) -> EditReport:
        """Replace an entity's profile with `text`, or with what `editor` makes of it."""
        from memhop.core.edit import edit_profile

        return edit_profile(self._writable("edit"), name, self.embedder, text=text, editor=editor)

    def add_fact(self, name: str, text: str, category: str | None = None) -> EditReport:
        """A new fact about an entity; `category` is one of core.model.CATEGORIES."""
        from memhop.core.edit import add_fact

        return add_fact(self._writable("adding a fact"), name, text, self.embedder, category)

    def edit_fact(self, fact_id: int, text: str, category: str | None = None) -> EditReport:
        """Correct a fact's text (and category)."""
        from memhop.core.edit import edit_fact

        return edit_fact(self._writable("editing a fact"), fact_id, text, self.embedder, category)

    def remove_fact(self, fact_id: int) -> ForgetReport:
        """Remove one fact for good, without asking: `forget(fact=fact_id)`."""
        return self.forget(fact=fact_id)

    def merge(
        self,
        keep: str,
        fold: str,
        *,
        dry_run: bool = False,
        confirm: Callable[[EditReport], bool] | None = None,
        fold_self: bool = False,
    ) -> EditReport:
        """One person under two names: `fold` becomes part of `keep`, its name an alias; no
        fact is lost. `dry_run` plans and changes nothing; `confirm` sees the plan first and
        may refuse; folding the diarist into someone else needs `fold_self`."""
        from memhop.core.edit import merge

        store = self.store if dry_run else self._writable("merge")
        return merge(
            store, keep, fold, None if dry_run else self.embedder,
            dry_run=dry_run, confirm=confirm, fold_self=fold_self,
        )

    def rename(
        self,
        old: str,
        new: str,
        *,
        keep_alias: bool = True,
        dry_run: bool = False,
        confirm: Callable[[EditReport], bool] | None = None,
    ) -> EditReport:
        """A new canonical name, written into every profile and fact that used the old one;
        `dry_run` and `confirm` as for `merge`."""
        from memhop.core.edit import rename

        store = self.store if dry_run else self._writable("rename")
        return rename(
            store, old, new, None if dry_run else self.embedder, keep_alias, dry_run=dry_run, confirm=confirm
        )

    # Taking it away and bringing it back.

    def export(self, format: str = "json", path: str | Path | None = None) -> str:
        """Everything memhop holds as JSON (complete, reloadable) or Markdown (readable);
        written to `path` too when given, readable by you only, since it is private data."""
        from memhop.core.export import export_text, save

        text = export_text(self.store, format)
        if path is not None:
            save(Path(path), text)
        return text

    def restore(self, path: str | Path) -> dict[str, int]:
        """Load a JSON export ("-" is stdin) into this store, which must be empty; the
        counts of what it now holds. A damaged file leaves the store empty."""
        from memhop.core.export import restore
        from memhop.core.ingest import read_input

        source = read_input(str(path))  # before the store: a missing file creates nothing
        counts = restore(self._writable("restore"), source.name, source.data, self.embedder)
        return user_counts(counts)


def _close_engine(engine: Engine) -> None:
    close = getattr(engine, "close", None)  # the openai engine holds an HTTP connection pool
    if callable(close):
        close()
