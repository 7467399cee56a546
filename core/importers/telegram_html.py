"""Telegram Desktop's default export: HTML pages (`ChatExport_…/messages.html`,
`messages2.html`, …), one chat per folder, each page its own source.

Parsed with the stdlib html.parser: the pages are machine-written and regular (one
`div.message` per message, classes naming every part), so a small tree of the divs is
all that is needed, and memhop takes no HTML dependency for it.

A message's time is the `title` of its date div ("03.05.2024 10:15:00 UTC+02:00"), the
phone's local time, stored as written. A "joined" message (same sender as the one before)
has no sender line and takes the previous sender. Like the JSON reader: a forwarded
message is credited to its original author and marked "[forwarded by X]", a poll is
"Poll: question — options", media without a caption is a placeholder line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from html.parser import HTMLParser

from memhop.core.errors import ImportFormatError
from memhop.core.importers._util import decode, finish, forwarded, head_text, make_session, poll_text
from memhop.core.importers.base import ParsedSource, ParseOptions, Turn
from memhop.core.language.placeholders import placeholder

_VOID = frozenset({"br", "img", "meta", "link", "hr", "input", "source", "wbr"})
_STAMP = re.compile(r"^(\d{2})\.(\d{2})\.(\d{4}) (\d{2}):(\d{2})(?::(\d{2}))?")
_MEDIA = {
    "media_photo": "photo",
    "media_video": "video",
    "media_voice_message": "voice message",
    "media_audio_file": "audio",
    "media_file": "file",
    "media_contact": "contact card",
    "media_location": "location",
    "media_live_location": "location",
    "media_game": "media",
    "media_invoice": "media",
}


@dataclass
class _Node:
    tag: str
    classes: frozenset[str]
    attrs: dict[str, str]
    children: list[_Node | str] = field(default_factory=list)

    def text(self) -> str:
        """The visible text, a <br> as a line break, whitespace as the page shows it."""
        parts: list[str] = []
        for child in self.children:
            if isinstance(child, str):
                parts.append(child)
            elif child.tag == "br":
                parts.append("\n")
            else:
                parts.append(child.text())
        return "".join(parts)

    def find(self, cls: str, deep: bool = True) -> _Node | None:
        for child in self.children:
            if isinstance(child, _Node):
                if cls in child.classes:
                    return child
                if deep and (found := child.find(cls)):
                    return found
        return None

    def find_all(self, cls: str) -> list[_Node]:
        out: list[_Node] = []
        for child in self.children:
            if isinstance(child, _Node):
                if cls in child.classes:
                    out.append(child)
                else:
                    out.extend(child.find_all(cls))
        return out


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = _Node("root", frozenset(), {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        node = _Node(tag, frozenset(values.get("class", "").split()), values)
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


class TelegramHTMLImporter:
    """Sessions per calendar day of the page's chat; turn ids are Telegram's message ids."""

    name = "telegram-html"

    def sniff(self, filename: str, head: bytes) -> bool:
        text = head_text(head).lower()
        return text.startswith("<!doctype html") and 'class="page_wrap"' in text and "class=\"history\"" in text

    def parse(
        self, data: bytes, filename: str, self_name: str | None = None, options: ParseOptions | None = None
    ) -> ParsedSource:
        builder = _Builder()
        builder.feed(decode(data, filename))
        builder.close()
        history = builder.root.find("history")
        if history is None:
            raise ImportFormatError(filename, "not a Telegram HTML export: no message history in the page")
        header = builder.root.find("page_header")
        title = _squash(header.text()) if header is not None else None
        days: dict[str, list[Turn]] = {}
        speaker = "Deleted Account"
        for message in history.find_all("message"):
            if "default" not in message.classes:
                continue  # service lines: dates, joins, pins, calls
            body = message.find("body", deep=False) or message.find("body")
            if body is None:
                continue
            sender = body.find("from_name", deep=False)
            if sender is not None:
                speaker = _squash(sender.text())
            turn = _turn(message, body, speaker)
            if turn is None:
                continue
            day = turn.timestamp.date().isoformat() if turn.timestamp else "undated"
            days.setdefault(day, []).append(turn)
        sessions = [make_session(day, turns, title=title or None) for day, turns in days.items()]
        return finish(self.name, sessions, filename, owner=self_name)


def _turn(message: _Node, body: _Node, speaker: str) -> Turn | None:
    stamp = _timestamp(body)
    ident = message.attrs.get("id", "").removeprefix("message") or None
    fwd = body.find("forwarded", deep=False)
    source = fwd if fwd is not None else body
    text = _body_text(source)
    if not text:
        return None
    if fwd is not None:
        original = fwd.find("from_name", deep=False)
        author = _squash(_without_details(original)) if original is not None else ""
        text = forwarded(text, speaker)
        speaker = author or speaker
    return Turn(speaker=speaker, text=text, timestamp=stamp, external_id=ident)


def _body_text(body: _Node) -> str:
    """The message's words, else its poll, else a placeholder for its media; caption kept."""
    node = body.find("text", deep=False)
    words = _lines(node.text()) if node is not None else ""
    poll = body.find("media_poll")
    if poll is not None:
        question = poll.find("question")
        options = [_squash(a.text()).removeprefix("- ").strip() for a in poll.find_all("answer")]
        return poll_text(_squash(question.text()) if question else "", options)
    marker = _media_marker(body)
    if marker and words:
        return f"{marker}\n{words}"
    return words or marker


def _media_marker(body: _Node) -> str:
    wrap = body.find("media_wrap", deep=False)
    if wrap is None:
        return ""
    if wrap.find("photo_wrap") is not None:
        return placeholder("photo")
    if wrap.find("sticker_wrap") is not None or wrap.find("sticker") is not None:
        return placeholder("sticker")
    if wrap.find("animated_wrap") is not None:
        return placeholder("gif")
    if wrap.find("video_file_wrap") is not None:
        return placeholder("video")
    for cls, kind in _MEDIA.items():
        if wrap.find(cls) is not None:
            return placeholder(kind)
    return placeholder("media")


def _timestamp(body: _Node) -> datetime | None:
    date = body.find("date", deep=False)
    match = _STAMP.match(date.attrs.get("title", "")) if date is not None else None
    if match is None:
        return None
    day, month, year, hour, minute, second = (int(g or 0) for g in match.groups())
    try:
        return datetime(year, month, day, hour, minute, second)
    except ValueError:
        return None


def _without_details(node: _Node) -> str:
    """A forwarded message's sender line without the original date span after the name."""
    return "".join(c if isinstance(c, str) else "" if "details" in c.classes else c.text() for c in node.children)


def _lines(text: str) -> str:
    """Page text to message text: each line trimmed of the page's indentation."""
    return "\n".join(line.strip() for line in text.strip().splitlines()).strip()


def _squash(text: str) -> str:
    return " ".join(text.split())
