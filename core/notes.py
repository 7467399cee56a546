"""One note as memory: a single turn, stored as a source of its own and then written like
any import, so `memhop forget --source` can take it back and `rebuild` re-derives it.

For callers that hand memhop a sentence rather than a file (an assistant through
`memhop mcp`): no temporary file, no format detection, the same raw layer and write path.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime

from memhop.core.embed import Embedder
from memhop.core.engines.base import Engine
from memhop.core.errors import ImportFormatError
from memhop.core.importers._util import parse_iso
from memhop.core.importers.base import ParsedSource, Session, Turn
from memhop.core.ingest import FileReport, IngestReport, store_parsed
from memhop.core.progress import Progress, SilentProgress
from memhop.core.store import Store, memory, raw
from memhop.core.write import write_pending

NOTE_FORMAT = "note"
DEFAULT_SPEAKER = "me"  # a self label: the diarist, whoever the store says that is


@dataclass(frozen=True)
class Note:
    """What was said, by whom ("me" is the diarist) and when (naive local wall-clock time)."""

    text: str
    speaker: str
    when: datetime

    @property
    def key(self) -> str:
        """The note's identity: the same words by the same speaker at the same time are one note."""
        canonical = json.dumps([self.speaker, self.when.isoformat(), self.text], ensure_ascii=False)
        return raw.sha256_of(canonical.encode("utf-8"))

    @property
    def label(self) -> str:
        """The source name users see (`forget --source` takes it): the time and a short id."""
        return f"{NOTE_FORMAT} {self.when.isoformat(timespec='seconds')} {self.key[:8]}"


def make_note(text: str, speaker: str | None = None, when: str | date | datetime | None = None) -> Note:
    """A Note from loose input: blank speaker means the diarist, no date means now; empty
    text or a date that is not ISO 8601 raises ImportFormatError."""
    if not text.strip():
        raise ImportFormatError(NOTE_FORMAT, "the note has no text")
    return Note(text=text.strip(), speaker=(speaker or "").strip() or DEFAULT_SPEAKER, when=_when(when))


def _when(value: str | date | datetime | None) -> datetime:
    if value is None:
        return datetime.now().replace(microsecond=0)
    if isinstance(value, datetime):
        return value.replace(tzinfo=None)
    if isinstance(value, date):
        return datetime.combine(value, datetime.min.time())
    stamp = parse_iso(value) if value.strip() else None
    if stamp is None:
        raise ImportFormatError(NOTE_FORMAT, f"unrecognised date {value!r} (expected ISO 8601: 2026-03-14 or 2026-03-14T18:30)")
    return stamp


def parsed_note(note: Note, owner: str | None) -> ParsedSource:
    """The note as an importer would have parsed it: one session holding one turn."""
    turn = Turn(speaker=note.speaker, text=note.text, timestamp=note.when, external_id="1")
    session = Session(external_id=note.key[:16], turns=(turn,), started_at=note.when)
    return ParsedSource(format=NOTE_FORMAT, sessions=(session,), owner=owner, participants=(note.speaker,))


def ingest_note(
    store: Store,
    note: Note,
    embedder: Embedder,
    *,
    engine: Engine | None,
    dedup_threshold: float,
    progress: Progress | None = None,
) -> IngestReport:
    """Store the note (unchanged if the store holds it already), then run the write path
    over every pending session, as `ingest` does. "I" in the note is the store's diarist."""
    progress = progress or SilentProgress()
    diarist = next((k.name for k in memory.registry(store) if k.kind == "self"), None)
    report = IngestReport()
    if raw.source_id_for(store, note.key) is not None:
        report.files.append(FileReport(path=note.label, status="unchanged", format=NOTE_FORMAT))
    else:
        counts = store_parsed(store, note.label, note.key, parsed_note(note, diarist), embedder, diarist, progress)
        report.files.append(
            FileReport(path=note.label, status="imported", format=NOTE_FORMAT, sessions=counts.sessions, turns=counts.turns)
        )
    if engine is not None:
        report.write = write_pending(store, engine, embedder, dedup_threshold, progress)
    return report
