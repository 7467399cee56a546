"""Day One's JSON export (`Journal.json`, alone or in the export `.zip` beside `photos/`).

Each entry is a session of the diarist's paragraphs. `creationDate` is UTC; the entry's
own `timeZone` (where the diarist was when writing) turns it into the local time memhop
stores everywhere, falling back to ParseOptions.tz. Day One escapes Markdown punctuation
("Hello\\!") and writes photos as `![](dayone-moment://…)`: the escapes are undone and a
photo becomes a "[photo]" line.
"""

from __future__ import annotations

import re
from datetime import datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from memhop.core.errors import ImportFormatError
from memhop.core.importers._util import finish, head_text, load_json, make_session, parse_iso
from memhop.core.importers.base import ParsedSource, ParseOptions, Session, Turn
from memhop.core.language.placeholders import placeholder

_SNIFF = re.compile(r'"entries"\s*:\s*\[')
_MOMENT = re.compile(r"!\[[^\]]*\]\(dayone-moment:/*(?P<kind>[a-z]*)/?[^)]*\)", re.I)
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~])")


class DayOneImporter:
    """One session per entry (id: the entry's uuid); a turn per paragraph."""

    name = "dayone"

    def sniff(self, filename: str, head: bytes) -> bool:
        text = head_text(head)
        return text.startswith("{") and bool(_SNIFF.search(text)) and '"creationDate"' in text

    def parse(
        self, data: bytes, filename: str, self_name: str | None = None, options: ParseOptions | None = None
    ) -> ParsedSource:
        doc = load_json(data, filename)
        entries = doc.get("entries") if isinstance(doc, dict) else None
        if not isinstance(entries, list):
            raise ImportFormatError(filename, "not a Day One export: expected an object with an 'entries' list")
        speaker = self_name or "me"
        tz = (options or ParseOptions()).tz
        sessions = [_entry(e, i, speaker, tz, filename) for i, e in enumerate(entries, start=1)]
        return finish(self.name, sessions, filename, owner=self_name)


def _entry(entry: object, index: int, speaker: str, tz: tzinfo | None, filename: str) -> Session:
    if not isinstance(entry, dict):
        raise ImportFormatError(filename, f"entry {index}: expected an object")
    stamp = _when(entry, tz)
    if stamp is None:
        raise ImportFormatError(filename, f"entry {index}: no readable creationDate")
    ident = str(entry.get("uuid") or f"entry{index}")
    text = _clean(str(entry.get("text") or ""))
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
    title = None
    if paragraphs and paragraphs[0].startswith("#") and "\n" not in paragraphs[0]:
        title = paragraphs.pop(0).lstrip("# ").strip() or None  # the entry's title, not a paragraph
    turns = [Turn(speaker=speaker, text=p, timestamp=stamp, external_id=f"{ident}#{n}") for n, p in
             enumerate(paragraphs, start=1)]
    return make_session(ident, turns, title=title, started_at=stamp)


def _when(entry: dict[str, Any], fallback: tzinfo | None) -> datetime | None:
    raw = entry.get("creationDate")
    if not isinstance(raw, str):
        return None
    zone = _zone(entry.get("timeZone")) or fallback
    return parse_iso(raw, zone)  # "Z": made local in the entry's zone; an offset: already local


def _zone(name: object) -> tzinfo | None:
    if not isinstance(name, str) or not name.strip():
        return None
    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        return None


def _clean(text: str) -> str:
    def moment(match: re.Match[str]) -> str:
        kind = match["kind"].lower()
        kinds = {"video": "video", "audio": "audio", "pdfattachment": "document"}
        return "\n" + placeholder(kinds.get(kind, "photo")) + "\n"

    return _ESCAPE.sub(r"\1", _MOMENT.sub(moment, text))

