"""memhop ingest: read inputs, parse them, store the raw layer, then run the write path.

Each file is its own transaction: a bad file or a crash leaves the store as it was
before that file, and the other files of the same command still import.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from memhop.core import importers
from memhop.core.embed import Embedder
from memhop.core.engines.base import Engine
from memhop.core.errors import ConfigError, ImportFormatError, SecondDiarist, UnknownFormat
from memhop.core.importers.base import ParsedSource, ParseOptions
from memhop.core.importers.containers import walk
from memhop.core.language.names import match_registry
from memhop.core.progress import Progress, SilentProgress
from memhop.core.store import Store, memory, raw, vectors
from memhop.core.write import WriteReport, write_pending

EMBED_CHUNK = 256


@dataclass(frozen=True)
class InputFile:
    name: str  # the path as the user gave it, "archive.zip:member", or the stdin import's name
    data: bytes
    parse_name: str = ""  # what the importers see: "-" for stdin (judged by content alone)

    @property
    def shown_to_importer(self) -> str:
        return self.parse_name or self.name


@dataclass
class FileReport:
    path: str
    status: str  # imported | unchanged | failed | skipped (no known format) | ignored (holds no conversation)
    format: str | None = None
    sessions: int = 0
    turns: int = 0
    error: str | None = None
    seconds: float = 0.0
    reason: str | None = None  # why a file was skipped or ignored


@dataclass
class IngestReport:
    files: list[FileReport] = field(default_factory=list)
    write: WriteReport | None = None

    @property
    def failed(self) -> list[FileReport]:
        return [f for f in self.files if f.status == "failed"]

    def with_status(self, status: str) -> list[FileReport]:
        return [f for f in self.files if f.status == status]


def read_input(name: str) -> InputFile:
    """One file by its path ("-" is stdin), for commands that take a single file."""
    if name == importers.STDIN:
        return InputFile(name=name, data=sys.stdin.buffer.read())
    path = Path(name)
    try:
        return InputFile(name=name, data=path.read_bytes())
    except FileNotFoundError:
        raise ImportFormatError(name, "no such file") from None
    except IsADirectoryError:
        raise ImportFormatError(name, "is a directory") from None
    except PermissionError:
        raise ImportFormatError(name, "permission denied") from None


def parse_options(day_first: bool | None = None, tz: str | None = None) -> ParseOptions:
    """The user's word on dates: day/month order and the zone for UTC times (IANA name)."""
    if tz is None:
        return ParseOptions(day_first=day_first)
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ParseOptions(day_first=day_first, tz=ZoneInfo(tz.strip()))
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(f"--tz: unknown time zone {tz!r} (use a name like Europe/Berlin or UTC)") from None


def stdin_input(label: str | None) -> InputFile:
    """stdin as a named source: `--name LABEL`, else "stdin-" and a hash of what was read, so
    two different stdin imports can be told apart (and forgotten) one by one."""
    data = sys.stdin.buffer.read()
    name = label.strip() if label and label.strip() else f"stdin-{raw.sha256_of(data)[:12]}"
    return InputFile(name=name, data=data, parse_name=importers.STDIN)


class EmbeddingStopped(Exception):
    """`embed_in_chunks` was told to stop: its caller left early and reads no vectors."""


def embed_in_chunks(
    embedder: Embedder, texts: Sequence[str], progress: Progress, stop: threading.Event | None = None
) -> np.ndarray:
    """The texts' vectors, EMBED_CHUNK at a time. `stop` (set by a caller that gave up on
    the result, e.g. on Ctrl-C) ends the work before the next chunk, so a worker thread
    does not keep embedding a whole file that nobody will store."""
    parts = []
    for start in range(0, len(texts), EMBED_CHUNK):
        if stop is not None and stop.is_set():
            raise EmbeddingStopped(f"stopped after {start} of {len(texts)} texts")
        chunk = texts[start : start + EMBED_CHUNK]
        parts.append(embedder.embed(chunk))
        progress.advance(len(chunk))
    if not parts:
        return np.zeros((0, embedder.dim), dtype=np.float32)
    return np.concatenate(parts)


def store_parsed(
    store: Store,
    name: str,
    sha: str,
    parsed: ParsedSource,
    embedder: Embedder,
    self_name: str | None,
    progress: Progress,
    engine: Engine | None = None,
) -> raw.RawCounts:
    """The raw layer of one source: new turns embedded first, then one transaction.

    An engine that can `read_ahead` (the offline one parses) reads the new turns on this
    thread while a worker embeds them: ONNX Runtime leaves the GIL while it computes, so
    the write path's parsing is done on the core the embedder leaves idle. If this thread
    leaves early (Ctrl-C, an error in the read-ahead), the worker is told to stop after
    the chunk it is embedding, rather than the executor waiting for the whole file."""
    store.check_embedder(embedder)
    batches = raw.new_turns(store, parsed)
    turns = [turn for _, pairs in batches for turn, _ in pairs]
    texts = [turn.text for turn in turns]
    progress.start(f"embedding {name}", len(texts))
    ahead = getattr(engine, "read_ahead", None)
    if callable(ahead) and texts:
        stop = threading.Event()
        with ThreadPoolExecutor(1, "memhop-embed") as worker:
            embedding = worker.submit(embed_in_chunks, embedder, texts, progress, stop)
            try:
                ahead([(turn.speaker, turn.text) for turn in turns])
                vectors = embedding.result()
            finally:
                stop.set()  # no effect once the vectors are in; otherwise the worker stops
    else:
        vectors = embed_in_chunks(embedder, texts, progress)
    with store.transaction():
        counts = raw.insert_source(store, name, sha, parsed, batches, vectors, self_name or parsed.owner)
        store.log("ingest", f"source {name}: {counts.sessions} sessions, {counts.turns} turns")
    return counts


def ingest_one(
    store: Store,
    source: InputFile,
    embedder: Embedder,
    format: str | None,
    self_name: str | None,
    progress: Progress,
    options: ParseOptions | None = None,
    engine: Engine | None = None,
) -> FileReport:
    started = time.perf_counter()
    sha = raw.sha256_of(source.data)
    if raw.source_id_for(store, sha) is not None:
        return FileReport(path=source.name, status="unchanged", seconds=time.perf_counter() - started)
    parsed = importers.parse_source(
        source.data, source.shown_to_importer, format=format, self_name=self_name, options=options
    )
    counts = store_parsed(store, source.name, sha, parsed, embedder, self_name, progress, engine)
    return FileReport(
        path=source.name,
        status="imported",
        format=parsed.format,
        sessions=counts.sessions,
        turns=counts.turns,
        seconds=time.perf_counter() - started,
    )


def ingest(
    store: Store,
    paths: Sequence[str],
    embedder: Embedder,
    format: str | None = None,
    self_name: str | None = None,
    progress: Progress | None = None,
    engine: Engine | None = None,
    dedup_threshold: float = 0.9,
    options: ParseOptions | None = None,
    stdin_name: str | None = None,
) -> IngestReport:
    """Import every path (a failing file is reported and skipped, never half-stored), then
    run the write path over every session still pending, including ones an earlier,
    interrupted run left behind.

    Folders are walked and `.zip` exports read in place (see importers.containers); a file
    found there in no known format is reported as skipped, not failed."""
    store.check_embedder(embedder)
    progress = progress or SilentProgress()
    if stdin_name is not None and importers.STDIN not in paths:
        raise ImportFormatError("--name", "names a stdin import; give - as the input")
    if self_name:
        _check_diarist(store, self_name)
    else:
        self_name = stored_diarist(store)  # --self is remembered: "I" is the store's diarist
    report = IngestReport()
    report.files = each_file(
        paths, format, stdin_name,
        lambda source: ingest_one(store, source, embedder, format, self_name, progress, options, engine),
    )
    if engine is not None:
        report.write = write_pending(store, engine, embedder, dedup_threshold, progress)
    vectors.refresh(store)  # a large store's derived vectors and ANN index take the new turns now, not at the next ask
    return report


def each_file(
    paths: Sequence[str], format: str | None, stdin_name: str | None, handle: Callable[[InputFile], FileReport]
) -> list[FileReport]:
    """`handle` each input file (ingest stores it, `ingest --plan` only parses it); a file
    that fails is reported and the others go on. Folders are walked and `.zip` exports read
    in place; a file found there in no known format is skipped, not failed."""
    reports = []
    for found in walk(list(paths)):
        if found.status is not None:
            reports.append(FileReport(path=found.name, status=found.status, reason=found.reason))
            continue
        try:
            source = stdin_input(stdin_name) if found.name == importers.STDIN else InputFile(found.name, found.load())
            reports.append(handle(source))
        except UnknownFormat as exc:
            if found.nested and format is None:
                reports.append(FileReport(path=found.name, status="skipped", reason=exc.reason))
            else:
                reports.append(FileReport(path=found.name, status="failed", error=str(exc)))
        except ImportFormatError as exc:
            reports.append(FileReport(path=found.name, status="failed", error=str(exc)))
    return reports


def stored_diarist(store: Store) -> str | None:
    """The name of the store's `self` entity, if an earlier import named one."""
    return next((k.name for k in memory.registry(store) if k.kind == "self"), None)


def _check_diarist(store: Store, self_name: str) -> None:
    """One store, one diarist: "I" in every file means the same person."""
    diarist = next((k for k in memory.registry(store) if k.kind == "self"), None)
    if diarist is not None and match_registry(self_name, [(diarist.name, diarist.aliases)]) is None:
        raise SecondDiarist(self_name, diarist.name)
