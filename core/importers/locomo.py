"""LoCoMo benchmark conversations (one sample object, or a list of them).

Only the dialogue is read: speaker names, `session_N` turns and `session_N_date_time`.
The authors' annotations (qa, observations, summaries, events) would leak answers into
memory, so they are never touched: the reader takes keys by allow-list, not deny-list.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from memhop.core.errors import ImportFormatError
from memhop.core.importers._util import finish, head_text, load_json, make_session
from memhop.core.importers.base import ParsedSource, ParseOptions, Session, Turn

_SESSION_KEY = re.compile(r"^session_(\d+)$")
# "1:56 pm on 8 May, 2023"; parsed by hand so a non-English LC_TIME cannot break it.
_DATE = re.compile(r"^(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([a-z]+)\.?,?\s+(\d{4})$", re.I)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


class LoCoMoImporter:
    """One session per `session_N`, in numeric order; every turn carries its session's date."""

    name = "locomo"

    def sniff(self, filename: str, head: bytes) -> bool:
        text = head_text(head)
        if not text.startswith(("{", "[")):
            return False
        if '"speaker_a"' in text and re.search(r'"session_\d+', text):
            return True
        # locomo10.json puts the (long) qa list first: recognise its evidence/category shape.
        return '"qa"' in text and '"evidence"' in text and '"category"' in text

    def parse(
        self, data: bytes, filename: str, self_name: str | None = None, options: ParseOptions | None = None
    ) -> ParsedSource:
        doc = load_json(data, filename)
        samples = doc if isinstance(doc, list) else [doc]
        many = isinstance(doc, list)
        sessions: list[Session] = []
        for index, sample in enumerate(samples, start=1):
            conv = _conversation(sample, filename, index)
            prefix = f"{sample.get('sample_id') or index}:" if many else ""
            sessions.extend(_sessions(conv, prefix, filename))
        return finish(self.name, sessions, filename, owner=self_name, chronological=False)


def _conversation(sample: object, filename: str, index: int) -> dict[str, Any]:
    """The dialogue object: under `conversation` (original release) or the sample itself."""
    if isinstance(sample, dict):
        conv = sample.get("conversation", sample)
        if isinstance(conv, dict) and "speaker_a" in conv and any(_SESSION_KEY.match(k) for k in conv):
            return conv
    raise ImportFormatError(filename, f"not a LoCoMo sample: item {index} has no speaker_a and session_N turns")


def _sessions(conv: dict[str, Any], prefix: str, filename: str) -> list[Session]:
    numbers = sorted(int(m[1]) for k in conv if (m := _SESSION_KEY.match(k)))
    sessions: list[Session] = []
    for n in numbers:
        key = f"session_{n}"
        turns_raw = conv[key]
        if not isinstance(turns_raw, list):
            raise ImportFormatError(filename, f"{prefix}{key}: expected a list of turns")
        when = _session_date(conv.get(f"{key}_date_time"), f"{prefix}{key}", filename)
        turns = [t for i, raw in enumerate(turns_raw, 1) if (t := _turn(raw, when, f"{prefix}{key}", i, filename))]
        sessions.append(make_session(f"{prefix}{key}", turns, started_at=when))
    return sessions


def _session_date(value: object, where: str, filename: str) -> datetime | None:
    """ "1:56 pm on 8 May, 2023" parsed exactly; a session without a date stays undated."""
    if value is None:
        return None
    text = " ".join(str(value).split())
    match = _DATE.match(text)
    month = match[5][:3].lower() if match else ""
    if match and month in _MONTHS and 1 <= int(match[1]) <= 12:
        hour = int(match[1]) % 12 + (12 if match[3].lower() == "p" else 0)
        try:
            return datetime(int(match[6]), _MONTHS.index(month) + 1, int(match[4]), hour, int(match[2]))
        except ValueError:
            pass
    raise ImportFormatError(filename, f"{where}: unrecognised date {text!r}")


def _turn(raw: object, when: datetime | None, where: str, index: int, filename: str) -> Turn | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("speaker"), str):
        raise ImportFormatError(filename, f"{where}, turn {index}: expected an object with a speaker")
    text = str(raw.get("text") or "").strip()
    caption = str(raw.get("blip_caption") or "").strip()
    if caption:
        marker = f"[shares a photo: {caption}]"
        text = f"{text} {marker}" if text else marker
    if not text:
        return None
    dia_id = raw.get("dia_id")
    external = str(dia_id) if dia_id else f"{where}#{index}"
    return Turn(speaker=raw["speaker"], text=text, timestamp=when, external_id=external)
