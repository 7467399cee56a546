"""memhop ingest: read inputs, parse them, store the raw layer, then run the write path.

Each file is its own transaction: a bad file or a crash leaves the store as it was
before that file, and the other files of the same command still import.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from memhop.core import importers
from memhop.core.embed import Embedder
from memhop.core.engines.base import Engine
from memhop.core.errors import ImportFormatError, SecondDiarist
from memhop.core.importers.base import ParsedSource
from memhop.core.language.names import match_registry
from memhop.core.progress import Progress, SilentProgress
from memhop.core.store import Store, memory, raw
from memhop.core.write import WriteReport, write_pending

EMBED_CHUNK = 256


@dataclass(frozen=True)
class InputFile:
    name: str  # the path as the user gave it, or "-" for stdin
    data: bytes


@dataclass
class FileReport:
    path: str
    status: str  # imported | unchanged | failed
    format: str | None = None
    sessions: int = 0
    turns: int = 0
    error: str | None = None
    seconds: float = 0.0


@dataclass
class IngestReport:
    files: list[FileReport] = field(default_factory=list)
    write: WriteReport | None = None

    @property
    def failed(self) -> list[FileReport]:
        return [f for f in self.files if f.status == "failed"]


def expand_paths(paths: Iterable[str]) -> list[str]:
    """A directory stands for the visible files directly inside it, in name order."""
    out: list[str] = []
    for given in paths:
        path = Path(given)
        if given != "-" and path.is_dir():
            out.extend(
                str(child)
                for child in sorted(path.iterdir())
                if child.is_file() and not child.name.startswith(".")
            )
        else:
            out.append(given)
    return out


def read_input(name: str) -> InputFile:
    if name == "-":
        return InputFile(name="-", data=sys.stdin.buffer.read())
    path = Path(name)
    try:
        return InputFile(name=name, data=path.read_bytes())
    except FileNotFoundError:
        raise ImportFormatError(name, "no such file") from None
    except IsADirectoryError:
        raise ImportFormatError(name, "is a directory") from None
    except PermissionError:
        raise ImportFormatError(name, "permission denied") from None


def embed_in_chunks(embedder: Embedder, texts: Sequence[str], progress: Progress) -> np.ndarray:
    parts = []
    for start in range(0, len(texts), EMBED_CHUNK):
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
) -> raw.RawCounts:
    """The raw layer of one source: new turns embedded first, then one transaction."""
    batches = raw.new_turns(store, parsed)
    texts = [turn.text for _, pairs in batches for turn, _ in pairs]
    progress.start(f"embedding {name}", len(texts))
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
) -> FileReport:
    started = time.perf_counter()
    sha = raw.sha256_of(source.data)
    if raw.source_id_for(store, sha) is not None:
        return FileReport(path=source.name, status="unchanged", seconds=time.perf_counter() - started)
    parsed = importers.parse_source(source.data, source.name, format=format, self_name=self_name)
    counts = store_parsed(store, source.name, sha, parsed, embedder, self_name, progress)
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
) -> IngestReport:
    """Import every path (a failing file is reported and skipped, never half-stored), then
    run the write path over every session still pending, including ones an earlier,
    interrupted run left behind."""
    progress = progress or SilentProgress()
    if self_name:
        _check_diarist(store, self_name)
    report = IngestReport()
    for name in expand_paths(paths):
        try:
            source = read_input(name)
            report.files.append(ingest_one(store, source, embedder, format, self_name, progress))
        except ImportFormatError as exc:
            report.files.append(FileReport(path=name, status="failed", error=str(exc)))
    if engine is not None:
        report.write = write_pending(store, engine, embedder, dedup_threshold, progress)
    return report


def _check_diarist(store: Store, self_name: str) -> None:
    """One store, one diarist: "I" in every file means the same person."""
    diarist = next((k for k in memory.registry(store) if k.kind == "self"), None)
    if diarist is not None and match_registry(self_name, [(diarist.name, diarist.aliases)]) is None:
        raise SecondDiarist(self_name, diarist.name)
