"""ChatGPT's official data export, `conversations.json`.

Each conversation is a tree (edits and regenerations make branches); only the branch
the user last saw, from `current_node` up to the root, is what was actually said.
Voice-mode turns are kept as their transcripts (`audio_transcription` parts). Times are
UTC epochs in the export; they are stored as local wall-clock time (ParseOptions.tz, else
this machine's zone), like the times WhatsApp and Telegram write.
"""

from __future__ import annotations

import hashlib
import re
from datetime import tzinfo
from typing import Any

from memhop.core.errors import ImportFormatError
from memhop.core.importers._util import epoch_to_local, finish, head_text, load_json, make_session
from memhop.core.importers.base import ParsedSource, ParseOptions, Session, Turn

_SNIFF = re.compile(r'"mapping"\s*:\s*\{')
_TEXT_TYPES = {"text", "multimodal_text"}
ASSISTANT = "ChatGPT"


class ChatGPTImporter:
    """conversations.json: a list of conversations, each a `mapping` of message nodes."""

    name = "chatgpt"

    def sniff(self, filename: str, head: bytes) -> bool:
        text = head_text(head)
        return text.startswith("[") and bool(_SNIFF.search(text)) and '"author"' in text

    def parse(
        self, data: bytes, filename: str, self_name: str | None = None, options: ParseOptions | None = None
    ) -> ParsedSource:
        doc = load_json(data, filename)
        if isinstance(doc, dict) and isinstance(doc.get("mapping"), dict):
            doc = [doc]  # a single conversation saved on its own
        if not isinstance(doc, list) or not all(isinstance(c, dict) and "mapping" in c for c in doc):
            raise ImportFormatError(
                filename, "not a ChatGPT export: expected a list of conversations, each with a 'mapping'"
            )
        user = self_name or "user"
        tz = (options or ParseOptions()).tz
        sessions = [self._conversation(conv, user, filename, tz) for conv in doc]
        return finish(self.name, sessions, filename, owner=self_name)

    def _conversation(self, conv: dict[str, Any], user: str, filename: str, tz: tzinfo | None) -> Session:
        mapping = conv["mapping"]
        if not isinstance(mapping, dict):
            title = conv.get("title")
            raise ImportFormatError(filename, f"not a ChatGPT export: 'mapping' of {title!r} is not an object")
        turns: list[Turn] = []
        for node_id in _current_branch(mapping, conv.get("current_node")):
            turn = _turn(node_id, mapping[node_id], user, tz)
            if turn is not None:
                turns.append(turn)
        created = conv.get("create_time")
        started = epoch_to_local(created, tz) if isinstance(created, int | float) else None
        title = conv.get("title") if isinstance(conv.get("title"), str) else None
        return make_session(_conversation_id(conv), turns, title=title, started_at=started)


def _conversation_id(conv: dict[str, Any]) -> str:
    """The export's id; failing that, a hash of what identifies the conversation."""
    for key in ("id", "conversation_id"):
        if isinstance(conv.get(key), str) and conv[key]:
            return str(conv[key])
    basis = f"{conv.get('title')}|{conv.get('create_time')}"
    return "conv-" + hashlib.sha1(basis.encode()).hexdigest()[:12]


def _current_branch(mapping: dict[str, Any], current: object) -> list[str]:
    """Node ids from the root down to the current node (edited/regenerated siblings left out)."""
    if not isinstance(current, str) or current not in mapping:
        current = _latest_leaf(mapping)
    path: list[str] = []
    seen: set[str] = set()
    node_id: object = current
    while isinstance(node_id, str) and node_id in mapping and node_id not in seen:
        seen.add(node_id)
        path.append(node_id)
        node = mapping[node_id]
        node_id = node.get("parent") if isinstance(node, dict) else None
    path.reverse()
    return path


def _latest_leaf(mapping: dict[str, Any]) -> str | None:
    """Old or hand-trimmed exports may lack `current_node`: take the newest leaf."""
    best: tuple[float, str] | None = None
    for node_id, node in mapping.items():
        if not isinstance(node, dict) or node.get("children"):
            continue
        message = node.get("message") or {}
        stamp = message.get("create_time") if isinstance(message, dict) else None
        key = (float(stamp) if isinstance(stamp, int | float) else 0.0, node_id)
        if best is None or key > best:
            best = key
    return best[1] if best else None


def _turn(node_id: str, node: object, user: str, tz: tzinfo | None) -> Turn | None:
    """A visible user or assistant message; system, tool and hidden nodes give None."""
    message = node.get("message") if isinstance(node, dict) else None
    if not isinstance(message, dict):
        return None
    author = message.get("author") or {}
    role = author.get("role") if isinstance(author, dict) else None
    if role not in ("user", "assistant"):
        return None
    metadata = message.get("metadata") or {}
    if isinstance(metadata, dict) and metadata.get("is_visually_hidden_from_conversation"):
        return None
    if message.get("recipient", "all") != "all":
        return None  # the assistant calling a tool (browser, python), not talking to the user
    content = message.get("content") or {}
    if not isinstance(content, dict) or content.get("content_type", "text") not in _TEXT_TYPES:
        return None
    parts = content.get("parts") or []
    text = "\n".join(_part_text(p) for p in parts).strip() if isinstance(parts, list) else ""
    if not text:
        return None
    stamp = message.get("create_time")
    return Turn(
        speaker=user if role == "user" else ASSISTANT,
        text=text,
        timestamp=epoch_to_local(stamp, tz) if isinstance(stamp, int | float) else None,
        external_id=node_id,
    )


def _part_text(part: object) -> str:
    """A text part, or what was said in a voice-mode part; images and audio files give ""."""
    if isinstance(part, str):
        return part
    if isinstance(part, dict) and part.get("content_type") == "audio_transcription":
        return str(part.get("text") or "")
    return ""
