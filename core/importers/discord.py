"""Discord channels and DMs exported with DiscordChatExporter as JSON.

Only what people wrote is read: messages of type Default and Reply (joins, pins, calls,
thread notices are the app's). The speaker is the server nickname, else the user name;
`timestamp` carries the exporting machine's offset and is stored as written (local
time); `content` is already the final text of an edited message. Attachments and
stickers become placeholder lines; the title is "server #channel" (a DM's own name).
"""

from __future__ import annotations

from datetime import tzinfo
from typing import Any

from memhop.core.errors import ImportFormatError
from memhop.core.importers._util import finish, head_text, load_json, make_session, parse_iso
from memhop.core.importers.base import ParsedSource, ParseOptions, Turn
from memhop.core.language.placeholders import placeholder

_SPOKEN = frozenset({"Default", "Reply"})


class DiscordImporter:
    """One channel per file; a session per calendar day; turn ids are Discord's message ids."""

    name = "discord"

    def sniff(self, filename: str, head: bytes) -> bool:
        text = head_text(head)
        return text.startswith("{") and '"guild"' in text and '"channel"' in text and '"messages"' in text

    def parse(
        self, data: bytes, filename: str, self_name: str | None = None, options: ParseOptions | None = None
    ) -> ParsedSource:
        doc = load_json(data, filename)
        messages = doc.get("messages") if isinstance(doc, dict) else None
        if not isinstance(messages, list):
            raise ImportFormatError(filename, "not a DiscordChatExporter file: no 'messages' list")
        tz = (options or ParseOptions()).tz
        title = _title(doc)
        days: dict[str, list[Turn]] = {}
        for index, msg in enumerate(messages, start=1):
            turn = _turn(msg, index, tz, filename)
            if turn is not None and turn.timestamp is not None:
                days.setdefault(turn.timestamp.date().isoformat(), []).append(turn)
        sessions = [make_session(day, turns, title=title) for day, turns in days.items()]
        return finish(self.name, sessions, filename, owner=self_name)


def _title(doc: dict[str, Any]) -> str | None:
    guild, channel = _object(doc.get("guild")), _object(doc.get("channel"))
    name = str(channel.get("name") or "").strip()
    server = str(guild.get("name") or "").strip()
    if server and server != "Direct Messages" and name:
        return f"{server} #{name}"
    return name or server or None


def _turn(msg: object, index: int, tz: tzinfo | None, filename: str) -> Turn | None:
    if not isinstance(msg, dict):
        raise ImportFormatError(filename, f"message {index}: expected an object")
    if msg.get("type", "Default") not in _SPOKEN:
        return None
    author = _object(msg.get("author"))
    speaker = str(author.get("nickname") or author.get("name") or "").strip()
    stamp = parse_iso(str(msg.get("timestamp") or ""), tz)
    if not speaker or stamp is None:
        raise ImportFormatError(filename, f"message {index}: no author or timestamp")
    lines = [
        placeholder("attached", str(a.get("fileName") or "").strip())
        for a in msg.get("attachments") or []
        if isinstance(a, dict)
    ]
    lines += [placeholder("sticker") for s in msg.get("stickers") or [] if isinstance(s, dict)]
    content = str(msg.get("content") or "").strip()
    text = "\n".join([*lines, content]).strip()
    if not text:
        return None
    return Turn(speaker=speaker, text=text, timestamp=stamp, external_id=str(msg.get("id") or index))


def _object(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
