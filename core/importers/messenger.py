"""Facebook Messenger and Instagram direct messages, from "Download your information" in
JSON (`messages/inbox/<thread>/message_1.json`; Instagram's has the same shape).

Meta writes every string's UTF-8 bytes as separate Latin-1 escapes ("Caf\\u00c3\\u00a9" for
"Café"), so each string is re-decoded. Messages come newest first and are put in time
order; `timestamp_ms` is UTC, stored as local time (ParseOptions.tz). Unsent messages,
calls and reaction notices are not speech and are skipped; photos, videos, voice notes,
GIFs, stickers and files become placeholder lines, a caption kept.
"""

from __future__ import annotations

import re
from datetime import tzinfo
from typing import Any

from memhop.core.errors import ImportFormatError
from memhop.core.importers._util import epoch_to_local, finish, head_text, load_json, make_session
from memhop.core.importers.base import ParsedSource, ParseOptions, Turn
from memhop.core.language.placeholders import placeholder

_MEDIA = (("photos", "photo"), ("videos", "video"), ("audio_files", "voice message"), ("gifs", "gif"),
          ("files", "file"))
_REACTION_NOTICE = re.compile(r"^(?:.{1,80} )?(?:reacted .{1,20} to (?:your|a) message|liked a message)$", re.I)


def fix_mojibake(value: Any) -> Any:
    """Undo Meta's Latin-1 escaping of UTF-8, on every string of a loaded document."""
    if isinstance(value, str):
        try:
            return value.encode("latin-1").decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            return value  # already proper text (a character above U+00FF, or not UTF-8 bytes)
    if isinstance(value, list):
        return [fix_mojibake(v) for v in value]
    if isinstance(value, dict):
        return {k: fix_mojibake(v) for k, v in value.items()}
    return value


class MessengerImporter:
    """One thread per file; a session per calendar day; turn ids are the message times."""

    name = "messenger"

    def sniff(self, filename: str, head: bytes) -> bool:
        text = head_text(head)
        return text.startswith("{") and '"participants"' in text and '"sender_name"' in text and '"timestamp_ms"' in text

    def parse(
        self, data: bytes, filename: str, self_name: str | None = None, options: ParseOptions | None = None
    ) -> ParsedSource:
        doc = fix_mojibake(load_json(data, filename))
        messages = doc.get("messages") if isinstance(doc, dict) else None
        if not isinstance(messages, list):
            raise ImportFormatError(filename, "not a Messenger/Instagram export: no 'messages' list")
        tz = (options or ParseOptions()).tz
        title = doc.get("title") if isinstance(doc.get("title"), str) else None
        timed = sorted(
            (pair for i, m in enumerate(messages, start=1) if (pair := _turn(m, i, tz, filename))),
            key=lambda pair: pair[0],
        )
        days: dict[str, list[Turn]] = {}
        for _, turn in timed:
            day = turn.timestamp.date().isoformat() if turn.timestamp else "undated"
            days.setdefault(day, []).append(turn)
        sessions = [make_session(day, day_turns, title=title) for day, day_turns in days.items()]
        return finish(self.name, sessions, filename, owner=self_name)


def _turn(msg: object, index: int, tz: tzinfo | None, filename: str) -> tuple[int, Turn] | None:
    """(timestamp_ms, turn) of a message people wrote; None for the app's notices."""
    if not isinstance(msg, dict):
        raise ImportFormatError(filename, f"message {index}: expected an object")
    stamp = msg.get("timestamp_ms")
    sender = msg.get("sender_name")
    if not isinstance(stamp, int) or not isinstance(sender, str):
        raise ImportFormatError(filename, f"message {index}: no sender_name or timestamp_ms")
    if msg.get("is_unsent") or "call_duration" in msg:
        return None
    content = msg.get("content")
    if not isinstance(content, str):
        content = ""
    if _REACTION_NOTICE.match(content.strip()):
        return None
    markers = [placeholder(kind) for key, kind in _MEDIA if msg.get(key)]
    if msg.get("sticker"):
        markers.append(placeholder("sticker"))
    text = "\n".join([*markers, content.strip()]).strip()
    if not text:
        return None
    return stamp, Turn(speaker=sender.strip(), text=text, timestamp=epoch_to_local(stamp, tz), external_id=str(stamp))
