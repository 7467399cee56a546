"""ChatGPT export: only the branch the user last saw is imported."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from memhop.core.errors import ImportFormatError
from memhop.core.importers import parse_source
from memhop.core.importers.chatgpt import ChatGPTImporter


def _node(node_id: str, parent: str | None, role: str | None, parts: list[object], t: float | None = None) -> dict:
    message = None
    if role is not None:
        message = {
            "id": node_id,
            "author": {"role": role},
            "create_time": t,
            "content": {"content_type": "text", "parts": parts},
            "recipient": "all",
        }
    return {"id": node_id, "parent": parent, "children": [], "message": message}


def _conversation(current: str) -> dict:
    nodes = [
        _node("root", None, None, []),
        _node("sys", "root", "system", [""]),
        _node("u1", "sys", "user", ["What should I cook tonight?"], 1709900000.0),
        _node("a1-old", "u1", "assistant", ["Try a mushroom risotto."], 1709900010.0),
        _node("a1-new", "u1", "assistant", ["How about a Thai green curry?"], 1709900020.0),
        _node("u2", "a1-new", "user", ["  Sounds good, thanks  "], 1709900030.0),
        _node("a2", "u2", "assistant", [""], 1709900040.0),
    ]
    mapping = {n["id"]: n for n in nodes}
    for n in nodes:
        if n["parent"]:
            mapping[n["parent"]]["children"].append(n["id"])
    return {"title": "Dinner", "create_time": 1709900000.0, "mapping": mapping, "current_node": current, "id": "c-1"}


def test_sample_two_conversations_current_branch_only(samples: Path) -> None:
    data = (samples / "chatgpt-conversations.json").read_bytes()
    parsed = parse_source(data, "conversations.json", self_name="Maya Patel")
    assert parsed.format == "chatgpt"
    assert [s.title for s in parsed.sessions] == ["Gift for friend's piano recital", "Walking a greyhound"]
    assert [len(s.turns) for s in parsed.sessions] == [6, 4]
    assert parsed.participants == ("Maya Patel", "ChatGPT")
    texts = "\n".join(t.text for s in parsed.sessions for t in s.turns)
    for dropped in ("Henle", "piano tuning", "he already has a metronome", "Model set context", "User's friend"):
        assert dropped not in texts  # edited / regenerated branches, memory-tool calls
    assert "since he was seven" in texts
    gift = parsed.sessions[0]
    assert gift.started_at == datetime(2024, 3, 8, 20, 11, 2)
    assert gift.turns[0].timestamp == datetime(2024, 3, 8, 20, 11, 2)  # epoch seconds as naive UTC


def test_image_parts_are_dropped_but_text_kept(samples: Path) -> None:
    data = (samples / "chatgpt-conversations.json").read_bytes()
    walk = parse_source(data, "conversations.json").sessions[1]
    assert walk.turns[0].speaker == "user"
    assert walk.turns[0].text.startswith("This is Pepper")


def test_branch_follows_current_node() -> None:
    doc = [_conversation("a2")]
    parsed = ChatGPTImporter().parse(json.dumps(doc).encode(), "c.json")
    (session,) = parsed.sessions
    assert session.external_id == "c-1"
    assert [t.external_id for t in session.turns] == ["u1", "a1-new", "u2"]
    assert [t.speaker for t in session.turns] == ["user", "ChatGPT", "user"]
    assert session.turns[2].text == "Sounds good, thanks"


def test_other_branch_when_current_node_points_there() -> None:
    parsed = ChatGPTImporter().parse(json.dumps([_conversation("a1-old")]).encode(), "c.json", self_name="Sam")
    assert [t.text for t in parsed.sessions[0].turns] == ["What should I cook tonight?", "Try a mushroom risotto."]
    assert parsed.owner == "Sam"


def test_wrong_shape_is_a_clear_error() -> None:
    with pytest.raises(ImportFormatError, match=r"^x\.json: not a ChatGPT export"):
        parse_source(b'{"messages": []}', "x.json", format="chatgpt")
