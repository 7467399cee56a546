"""Generic chat records: a JSON list, `{"messages": [...]}`, or JSON Lines.

For logs written by scripts or other apps. Field names vary, so a few common aliases
are accepted; a record without a speaker or text is an error naming the record, since
silently dropping it would lose memory without anyone noticing.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, tzinfo
from typing import Any

from memhop.core.errors import ImportFormatError
from memhop.core.importers._util import (
    BadTimestamp,
    decode,
    epoch_to_local,
    finish,
    head_text,
    loads,
    make_session,
    parse_iso,
)
from memhop.core.importers.base import ParsedSource, ParseOptions, Turn

SPEAKER_KEYS = ("speaker", "from", "author", "role")
TEXT_KEYS = ("text", "content", "message")
TIME_KEYS = ("timestamp", "time", "date")
_SNIFF_SPEAKER = re.compile(r'"(?:speaker|from|author|role)"\s*:')
_SNIFF_TEXT = re.compile(r'"(?:text|content|message)"\s*:')


class GenericImporter:
    """Sessions by the `session` field, else by calendar day, else one session "all"."""

    name = "generic"

    def sniff(self, filename: str, head: bytes) -> bool:
        text = head_text(head)
        if not text.startswith(("{", "[")):
            return False
        return bool(_SNIFF_SPEAKER.search(text) and _SNIFF_TEXT.search(text))

    def parse(
        self, data: bytes, filename: str, self_name: str | None = None, options: ParseOptions | None = None
    ) -> ParsedSource:
        records = _records(data, filename)
        tz = (options or ParseOptions()).tz
        groups: dict[str, list[Turn]] = {}
        for label, record in records:
            turn = _turn(record, label, filename, tz)
            if turn is None:
                continue
            session = record.get("session")
            if session is not None and str(session).strip():
                key = str(session).strip()
            elif turn.timestamp is not None:
                key = turn.timestamp.date().isoformat()
            else:
                key = "all"
            groups.setdefault(key, []).append(turn)
        sessions = [make_session(key, turns) for key, turns in groups.items()]
        return finish(self.name, sessions, filename, owner=self_name)


def _records(data: bytes, filename: str) -> list[tuple[str, dict[str, Any]]]:
    """(label, record) pairs; the label ("record 3" / "line 7") is used in errors and ids."""
    text = decode(data, filename)
    jsonl = filename.lower().endswith((".jsonl", ".ndjson")) or _several_values(text)
    if jsonl:
        return _json_lines(text, filename)
    doc = loads(text, filename)
    if isinstance(doc, dict) and isinstance(doc.get("messages"), list):
        doc = doc["messages"]
    elif isinstance(doc, dict) and any(k in doc for k in SPEAKER_KEYS):
        doc = [doc]  # a one-record file
    if not isinstance(doc, list):
        raise ImportFormatError(filename, 'not a generic chat file: expected a list of records or {"messages": [...]}')
    pairs = [(f"record {i}", r) for i, r in enumerate(doc, start=1)]
    return _objects(pairs, filename)


def _several_values(text: str) -> bool:
    """JSON Lines without a .jsonl name (stdin, a .json): the first line is a whole object."""
    first = text.lstrip().split("\n", 1)[0].strip()
    if not (first.startswith("{") and first.endswith("}")):
        return False
    try:
        json.loads(first)
    except (json.JSONDecodeError, RecursionError):
        return False
    return bool(text.lstrip()[len(first) :].strip())


def _json_lines(text: str, filename: str) -> list[tuple[str, dict[str, Any]]]:
    pairs = [
        (f"line {n}", loads(line, filename, f"line {n}: "))
        for n, line in enumerate(text.splitlines(), 1)
        if line.strip()
    ]
    if not pairs:
        raise ImportFormatError(filename, "empty file")
    return _objects(pairs, filename)


def _objects(pairs: list[tuple[str, Any]], filename: str) -> list[tuple[str, dict[str, Any]]]:
    for label, record in pairs:
        if not isinstance(record, dict):
            raise ImportFormatError(filename, f"{label}: expected a JSON object, got {type(record).__name__}")
    return pairs


def _turn(record: dict[str, Any], label: str, filename: str, tz: tzinfo | None) -> Turn | None:
    speaker = _first(record, SPEAKER_KEYS)
    if isinstance(speaker, dict):
        speaker = speaker.get("name") or speaker.get("role")
    if not isinstance(speaker, str) or not speaker.strip():
        raise ImportFormatError(filename, f"{label}: no speaker (expected one of: {', '.join(SPEAKER_KEYS)})")
    text = _first(record, TEXT_KEYS)
    if not isinstance(text, str):
        raise ImportFormatError(filename, f"{label}: no text (expected a string in one of: {', '.join(TEXT_KEYS)})")
    if not text.strip():
        return None
    stamp = _timestamp(_first(record, TIME_KEYS), label, filename, tz)
    ident = record.get("id")
    external = str(ident) if ident is not None and str(ident).strip() else label.split()[-1]
    return Turn(speaker=speaker.strip(), text=text.strip(), timestamp=stamp, external_id=external)


def _first(record: dict[str, Any], keys: tuple[str, ...]) -> Any:
    return next((record[k] for k in keys if record.get(k) is not None), None)


def _timestamp(value: object, label: str, filename: str, tz: tzinfo | None) -> datetime | None:
    """Epochs and "Z" times are UTC and made local; other ISO times are local already."""
    if value is None or value == "":
        return None
    try:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return epoch_to_local(value, tz)
        if isinstance(value, str) and re.fullmatch(r"\d{9,13}(?:\.\d+)?", value.strip()):
            return epoch_to_local(float(value), tz)
    except BadTimestamp as exc:
        raise ImportFormatError(filename, f"{label}: {exc}") from None
    if isinstance(value, str):
        if stamp := parse_iso(value, tz):
            return stamp
    raise ImportFormatError(filename, f"{label}: unrecognised timestamp {value!r} (expected ISO 8601 or epoch seconds)")
