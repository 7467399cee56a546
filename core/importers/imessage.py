"""iMessage conversations exported as text by imessage-exporter (`-f txt`): one file per
chat, named after the contact, number or group.

Each message is a date line ("May 05, 2024  9:12:03 AM", maybe followed by a read
receipt in brackets), the sender ("Me" is the owner, `--self` names them), then the
body; replies are the same block indented by four spaces. Times are the Mac's local
time, stored as written. Reaction lists, the "responded to an earlier message" note and
the app's effect notes are not speech; attachment paths become placeholder lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import PurePosixPath

from memhop.core.errors import ImportFormatError
from memhop.core.importers._util import decode, finish, head_text, make_session
from memhop.core.importers.base import ParsedSource, ParseOptions, Turn
from memhop.core.importers.containers import MEDIA_SUFFIXES
from memhop.core.language.placeholders import placeholder

ME = "Me"
_DATE = re.compile(
    r"^(?P<indent> *)(?P<stamp>[A-Z][a-z]{2} \d{2}, \d{4} +\d{1,2}:\d{2}:\d{2} [AP]M)(?: \(.*\))?\s*$"
)
_NOTES = re.compile(r"^(?:This message responded to an earlier message\.|Sent with [A-Z][\w ]+)$")
_REACTION = re.compile(r"^(?:Loved|Liked|Disliked|Laughed|Emphasized|Questioned|\S+) by .+$|^Sticker from .+$")


@dataclass
class _Block:
    line: int
    stamp: datetime
    sender: str | None = None
    body: list[str] = field(default_factory=list)


class IMessageImporter:
    """A session per calendar day; the file name (the chat) is the title."""

    name = "imessage"

    def sniff(self, filename: str, head: bytes) -> bool:
        lines = head_text(head).splitlines()
        return len(lines) >= 2 and bool(_DATE.match(lines[0])) and not lines[0].startswith(" ") and bool(lines[1].strip())

    def parse(
        self, data: bytes, filename: str, self_name: str | None = None, options: ParseOptions | None = None
    ) -> ParsedSource:
        blocks = _blocks(decode(data, filename), filename)
        me = self_name or ME
        days: dict[str, list[Turn]] = {}
        for block in sorted(blocks, key=lambda b: b.stamp):
            text = _text(block.body)
            if not text or not block.sender:
                continue
            speaker = me if block.sender == ME else block.sender
            day = block.stamp.date().isoformat()
            days.setdefault(day, []).append(Turn(speaker, text, block.stamp, external_id=f"L{block.line}"))
        title = PurePosixPath(filename.replace("\\", "/").replace(":", "/")).stem or None
        sessions = [make_session(day, turns, title=title) for day, turns in days.items()]
        return finish(self.name, sessions, filename, owner=self_name)


def _blocks(text: str, filename: str) -> list[_Block]:
    blocks: list[_Block] = []
    in_reactions = False
    for number, raw in enumerate(text.splitlines(), start=1):
        match = _DATE.match(raw)
        if match is not None:
            stamp = datetime.strptime(" ".join(match["stamp"].split()), "%b %d, %Y %I:%M:%S %p")
            blocks.append(_Block(number, stamp))
            in_reactions = False
            continue
        if not blocks:
            continue
        line = raw.strip()
        block = blocks[-1]
        if block.sender is None:
            block.sender = line or None
        elif line == "Reactions:":
            in_reactions = True
        elif in_reactions and _REACTION.match(line):
            continue
        else:
            in_reactions = False
            block.body.append(line)
    if not blocks:
        raise ImportFormatError(filename, "not an imessage-exporter text file: no dated messages")
    return blocks


def _text(lines: list[str]) -> str:
    out: list[str] = []
    for line in lines:
        if _NOTES.match(line):
            continue
        if line.startswith(("/", "~/")) and PurePosixPath(line).suffix.lower() in MEDIA_SUFFIXES | {".heic"}:
            out.append(placeholder("attached", PurePosixPath(line).name))
        else:
            out.append(line)
    return "\n".join(out).strip()
