"""Signal chats exported with signal-export (`sigexport`): each chat's folder holds
`data.json` (one JSON message per line) and `chat.md` (the same messages as Markdown).

Both are read; when a folder has both, `chat.md` is left out (see containers). Times are
the exporting computer's local time, stored as written. "Me" is the export's owner
(`--self` names them). Calls and deleted messages are skipped, attachments become
placeholder lines, reactions and the quoted text of a reply are not part of the turn.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import PurePosixPath
from typing import Any

from memhop.core.errors import ImportFormatError
from memhop.core.importers._util import decode, finish, head_text, loads, make_session, parse_iso
from memhop.core.importers.base import ParsedSource, ParseOptions, Turn
from memhop.core.language.placeholders import placeholder

ME = "Me"
_MD_LINE = re.compile(r"^\[(?P<date>\d{4}-\d{2}-\d{2} \d{2}:\d{2}(?::\d{2})?)\] (?P<sender>[^:\n]{1,80}): (?P<body>.*)$")
_JSON_KEYS = ('"date"', '"sender"', '"body"', '"attachments"')
_MD_ATTACHMENT = re.compile(r"!?\[(?P<name>[^\]\n]*)\]\(\./media/[^)\n]*\)")
_MD_REACTIONS = re.compile(r"\n?\(- .* -\)$", re.M)
_CALL = re.compile(r"^(?:Incoming|Outgoing|Missed) (?:voice |video )?call\b")
_MD_STICKER = re.compile(r"\n?\(\( .* \)\)$", re.M)


class SignalImporter:
    """A session per calendar day; the chat's folder name is the title."""

    name = "signal"

    def sniff(self, filename: str, head: bytes) -> bool:
        text = head_text(head)
        base = _base(filename)
        if base == "chat.md":
            return bool(_MD_LINE.match(text.split("\n", 1)[0]))
        first = text.split("\n", 1)[0]
        return first.startswith("{") and all(k in first for k in _JSON_KEYS)

    def parse(
        self, data: bytes, filename: str, self_name: str | None = None, options: ParseOptions | None = None
    ) -> ParsedSource:
        text = decode(data, filename)
        if _base(filename) == "chat.md" or text.lstrip().startswith("["):
            turns = _markdown(text, filename)
        else:
            turns = _json_lines(text, filename)
        me = self_name or ME
        days: dict[str, list[Turn]] = {}
        for turn in turns:
            if turn.speaker == ME:
                turn = Turn(speaker=me, text=turn.text, timestamp=turn.timestamp, external_id=turn.external_id)
            day = turn.timestamp.date().isoformat() if turn.timestamp else "undated"
            days.setdefault(day, []).append(turn)
        title = _chat_name(filename)
        sessions = [make_session(day, day_turns, title=title) for day, day_turns in days.items()]
        return finish(self.name, sessions, filename, owner=self_name)


def _json_lines(text: str, filename: str) -> list[Turn]:
    turns: list[Turn] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        record = loads(line, filename, f"line {number}: ")
        if not isinstance(record, dict):
            raise ImportFormatError(filename, f"line {number}: expected a JSON object")
        stamp = parse_iso(str(record.get("date") or ""))
        if stamp is None or not isinstance(record.get("sender"), str):
            raise ImportFormatError(filename, f"line {number}: no date or sender")
        if record.get("deleted") or record.get("call"):
            continue
        lines = [placeholder("attached", str(a.get("name") or "")) for a in _list(record.get("attachments"))
                 if isinstance(a, dict)]
        if record.get("sticker"):
            lines.append(placeholder("sticker"))
        body = str(record.get("body") or "").strip()
        if body:
            lines.append(body)
        if lines:
            turns.append(Turn(speaker=record["sender"], text="\n".join(lines), timestamp=stamp, external_id=f"L{number}"))
    return turns


def _markdown(text: str, filename: str) -> list[Turn]:
    found: list[tuple[int, datetime, str, list[str]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = _MD_LINE.match(line)
        if match is None:
            if found:
                found[-1][3].append(line)
            continue
        stamp = datetime.fromisoformat(match["date"])
        found.append((number, stamp, match["sender"], [match["body"]]))
    if not found:
        raise ImportFormatError(filename, "not a signal-export chat: no '[date] sender: text' lines")
    turns: list[Turn] = []
    for number, stamp, sender, lines in found:
        body = "\n".join(lines).strip()
        if body == "(This message was deleted)" or _CALL.match(body):
            continue
        body = _MD_STICKER.sub("", _MD_REACTIONS.sub("", body))
        body = re.sub(r"^> .*$\n?", "", body, flags=re.M).strip()  # the quoted message of a reply
        body = _MD_ATTACHMENT.sub(lambda m: "\n" + placeholder("attached", m["name"]) + "\n", body)
        body = "\n".join(ln.rstrip() for ln in body.splitlines() if ln.strip()).strip()
        if body:
            turns.append(Turn(speaker=sender, text=body, timestamp=stamp, external_id=f"L{number}"))
    return turns


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _base(filename: str) -> str:
    return PurePosixPath(filename.replace("\\", "/").rsplit(":", 1)[-1]).name.lower()


def _chat_name(filename: str) -> str | None:
    """signal-export names each chat's folder after the chat."""
    parent = PurePosixPath(filename.replace("\\", "/").replace(":", "/")).parent.name
    return parent or None
