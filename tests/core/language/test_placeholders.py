"""Placeholder lines: what importers write for media, and what readers blank out."""

from __future__ import annotations

import json

import pytest

from memhop.core.importers import parse_source
from memhop.core.language.placeholders import is_placeholder, is_unnamed, mask, placeholder, unsaved_contact


def test_mask_blanks_placeholder_lines_and_keeps_offsets() -> None:
    text = "[attached: Priya Shah.jpg]\nPriya's party was lovely\n[media omitted]"
    masked = mask(text)
    assert len(masked) == len(text)
    assert masked.split("\n")[1] == "Priya's party was lovely"
    assert masked.replace("\n", "").strip() == "Priya's party was lovely"


@pytest.mark.parametrize(
    "text", ["[shares a photo: a dog on a beach]", "I said [laughs] no", "[Photo of the beach at Whitby, by me]x"]
)
def test_other_brackets_are_text(text: str) -> None:
    assert mask(text) == text


def test_every_telegram_marker_is_a_placeholder() -> None:
    kinds = [{"photo": "p.jpg"}, {"media_type": "sticker", "sticker_emoji": "👍"}, {"media_type": "voice_message"},
             {"media_type": "video_message"}, {"media_type": "animation"}, {"media_type": "mystery_thing"},
             {"file": "files/report.pdf"}]
    messages = [{"id": i, "type": "message", "date": "2024-01-01T10:00:00", "from": "Alice", "text": "", **k}
                for i, k in enumerate(kinds, 1)]
    data = json.dumps({"name": "Alice", "type": "personal_chat", "id": 1, "messages": messages}).encode()
    texts = [t.text for s in parse_source(data, "result.json").sessions for t in s.turns]
    assert len(texts) == len(kinds)
    assert all(is_placeholder(t) for t in texts), texts


def test_placeholder_refuses_kinds_readers_would_not_mask() -> None:
    assert placeholder("image omitted") == "[image omitted]"
    with pytest.raises(ValueError, match="unknown placeholder kind"):
        placeholder("shares a photo")


@pytest.mark.parametrize(
    ("speaker", "unnamed"),
    [("+44 7700 900456", True), ("07700 900456", True), (unsaved_contact("+1 (555) 010-9999"), True),
     ("Dan", False), ("Agent 47", False), ("2024", False)],
)
def test_unnamed_speakers(speaker: str, unnamed: bool) -> None:
    assert is_unnamed(speaker) is unnamed
