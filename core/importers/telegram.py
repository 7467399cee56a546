"""Telegram Desktop's JSON export (`result.json`): one chat, or the whole account.

Service entries about the group itself are kept as a statement of the member who acted,
worded as WhatsApp words them (language/group_events): the group created or renamed (with its old name when
an earlier entry gave it), members added, removed, left, joined by link; who was in the
group, since when, and what it was called are facts of the user's life. The other service
entries (calls, pins, photo changes, migrations, screenshots, timers) are the app's
bookkeeping and are skipped. A media message with
no caption becomes a bracketed marker ("[photo]", "[sticker 👍]", "[voice message]") so
the fact that something was shared is kept; a caption is kept as the text. A forwarded
message is credited to its original author and marked "[forwarded by X]"; a poll is
kept as "Poll: question — options"; an edited message's `text` is already its final text.
"""

from __future__ import annotations

import re
from datetime import datetime, tzinfo
from typing import Any

from memhop.core.errors import ImportFormatError
from memhop.core.importers._util import (
    epoch_to_local,
    finish,
    forwarded,
    head_text,
    load_json,
    make_session,
    parse_iso,
    poll_text,
)
from memhop.core.importers.base import ParsedSource, ParseOptions, Session, Turn
from memhop.core.language.group_events import (
    group_created,
    group_renamed,
    joined_by_link,
    members_added,
    members_removed,
)
from memhop.core.language.placeholders import KINDS, placeholder

_SNIFF_TYPE = re.compile(r'"type"\s*:\s*"(?:message|service|personal_chat|private_group|saved_messages)"')
_MEDIA = {
    "sticker": "sticker",
    "voice_message": "voice message",
    "video_message": "video message",
    "video_file": "video",
    "audio_file": "audio",
    "animation": "GIF",
}


class TelegramImporter:
    """Sessions per chat per calendar day; turn ids are Telegram's message ids."""

    name = "telegram"

    def sniff(self, filename: str, head: bytes) -> bool:
        text = head_text(head)
        if not text.startswith("{"):
            return False
        if '"personal_information"' in text and '"chats"' in text:
            return True
        return '"messages"' in text and bool(_SNIFF_TYPE.search(text))

    def parse(
        self, data: bytes, filename: str, self_name: str | None = None, options: ParseOptions | None = None
    ) -> ParsedSource:
        doc = load_json(data, filename)
        if not isinstance(doc, dict):
            raise ImportFormatError(filename, "not a Telegram export: expected an object with 'messages' or 'chats'")
        chats = _chats(doc, filename)
        tz = (options or ParseOptions()).tz
        sessions: list[Session] = []
        for index, chat in enumerate(chats, start=1):
            sessions.extend(_chat_sessions(chat, index, tz))
        return finish(self.name, sessions, filename, owner=_owner(doc) or self_name)


def _chats(doc: dict[str, Any], filename: str) -> list[dict[str, Any]]:
    if isinstance(doc.get("messages"), list):
        chats = [doc]
    elif isinstance(doc.get("chats"), dict) and isinstance(doc["chats"].get("list"), list):
        chats = list(doc["chats"]["list"])
        left = doc.get("left_chats")
        if isinstance(left, dict) and isinstance(left.get("list"), list):
            chats.extend(left["list"])  # chats the owner left are still their history
    else:
        raise ImportFormatError(filename, "not a Telegram export: no 'messages' list and no 'chats.list'")
    for chat in chats:
        messages = chat.get("messages") if isinstance(chat, dict) else None
        if not isinstance(messages, list):
            raise ImportFormatError(filename, "not a Telegram export: a chat has no 'messages' list")
        if messages and not any(isinstance(m, dict) and "type" in m for m in messages):
            raise ImportFormatError(filename, "not a Telegram export: messages carry no 'type'")
    return chats


def _owner(doc: dict[str, Any]) -> str | None:
    info = doc.get("personal_information")
    if not isinstance(info, dict):
        return None
    name = " ".join(str(info[k]).strip() for k in ("first_name", "last_name") if info.get(k))
    return name or None


def _chat_sessions(chat: dict[str, Any], index: int, tz: tzinfo | None) -> list[Session]:
    chat_key = str(chat.get("id", f"chat{index}"))
    title = chat.get("name") or ("Saved Messages" if chat.get("type") == "saved_messages" else None)
    days: dict[str, list[Turn]] = {}
    named: list[str] = []  # the group's names so far, for a rename's old name
    for position, msg in enumerate(chat["messages"], start=1):
        if not isinstance(msg, dict) or msg.get("type") not in ("message", "service"):
            continue
        if msg["type"] == "service":
            text, speaker = _service(msg, named), msg.get("actor")
        else:
            text = _text(msg.get("text")).strip() or _poll(msg.get("poll")) or _media_marker(msg)
            speaker = msg.get("from") or msg.get("from_id") or "Deleted Account"
        if not text:
            continue
        stamp = _timestamp(msg, tz)
        day = stamp.date().isoformat() if stamp else "undated"
        if "forwarded_from" in msg:
            original = msg.get("forwarded_from")
            if original:
                text, speaker = forwarded(text, str(speaker)), original
            else:  # null: the original author hid their account
                text = f"[forwarded from a hidden account]\n{text}"
        external = str(msg["id"]) if "id" in msg else f"{chat_key}#{position}"
        days.setdefault(day, []).append(Turn(speaker=str(speaker), text=text, timestamp=stamp, external_id=external))
    return [make_session(f"{chat_key}:{day}", turns, title=title) for day, turns in days.items()]


def _service(msg: dict[str, Any], named: list[str]) -> str:
    """A membership or group-name entry as its actor's statement; "" for the app's others."""
    actor, action = msg.get("actor"), msg.get("action")
    if not isinstance(actor, str) or not actor.strip():
        return ""
    actor = actor.strip()
    title = msg.get("title") if isinstance(msg.get("title"), str) else None
    members = [str(m).strip() for m in msg.get("members") or [] if isinstance(m, str) and m.strip()]
    if action in ("create_group", "create_channel"):
        named.extend([title] if title else [])
        return group_created(actor, title)
    if action == "edit_group_title" and title:
        before = named[-1] if named else None
        named.append(title)
        return group_renamed(actor, title, before)
    if action == "invite_members":
        return members_added(actor, members)
    if action == "remove_members":
        return members_removed(actor, members)
    if action == "join_group_by_link":
        return joined_by_link(actor)
    return ""


def _text(value: object) -> str:
    """`text` is a plain string, or a list of strings and entity objects {type, text}."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(p if isinstance(p, str) else str(p.get("text", "")) for p in value if isinstance(p, str | dict))
    return ""


def _poll(poll: object) -> str:
    if not isinstance(poll, dict) or not isinstance(poll.get("question"), str):
        return ""
    answers = poll.get("answers")
    if not isinstance(answers, list):
        answers = []
    options = [_answer(a) for a in answers if isinstance(a, dict) and isinstance(a.get("text"), str)]
    return poll_text(poll["question"], options)


def _answer(answer: dict[str, Any]) -> str:
    voters = answer.get("voters")
    if isinstance(voters, int) and voters:
        return f"{answer['text']} ({voters} vote{'s' if voters != 1 else ''})"
    return str(answer["text"])


def _media_marker(msg: dict[str, Any]) -> str:
    if msg.get("photo"):
        return placeholder("photo")
    kind = msg.get("media_type")
    if kind == "sticker" and msg.get("sticker_emoji"):
        return placeholder(f"sticker {msg['sticker_emoji']}")
    if isinstance(kind, str):
        known = _MEDIA.get(kind, kind.replace("_", " "))
        return placeholder(known) if known.lower() in KINDS else placeholder("media", known)
    if msg.get("file"):
        path = str(msg["file"])  # "(File not included. ...)" when media was not exported
        name = msg.get("file_name") or ("" if path.startswith("(") else path.rsplit("/", 1)[-1])
        return placeholder("file", name)
    return ""


def _timestamp(msg: dict[str, Any], tz: tzinfo | None) -> datetime | None:
    """`date` is local wall-clock time; `date_unixtime` (UTC, made local) only when `date` is missing."""
    if isinstance(msg.get("date"), str) and (stamp := parse_iso(msg["date"], tz)):
        return stamp
    unix = msg.get("date_unixtime")
    if isinstance(unix, str | int) and str(unix).isdigit():
        return epoch_to_local(int(unix), tz)
    return None
