"""Generic JSON / JSON Lines chat records."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from memhop.core.errors import ImportFormatError
from memhop.core.importers import parse_source


def test_sample_notes(samples: Path) -> None:
    parsed = parse_source((samples / "notes.jsonl").read_bytes(), "notes.jsonl", self_name="Maya Patel")
    assert parsed.format == "generic"
    assert [(s.external_id, len(s.turns)) for s in parsed.sessions] == [
        ("work", 5),
        ("2024-03-09", 1),
        ("2024-04-20", 1),
        ("2024-05-20", 1),
    ]
    work = parsed.sessions[0]
    assert [t.external_id for t in work.turns] == ["note-001", "note-002", "note-003", "note-006", "note-008"]
    assert work.turns[3].timestamp == datetime(2024, 4, 2, 9, 0)  # epoch seconds, naive UTC
    assert parsed.sessions[2].turns[0].timestamp == datetime(2024, 4, 20, 23, 10)  # offset dropped, wall clock kept


def test_json_messages_object_aliases_and_one_session() -> None:
    doc = {"messages": [{"from": "A", "content": "hi"}, {"author": "B", "message": " yo "}, {"role": "A", "text": ""}]}
    parsed = parse_source(json.dumps(doc).encode(), "log.json")
    (session,) = parsed.sessions
    assert session.external_id == "all"
    assert [(t.speaker, t.text, t.external_id) for t in session.turns] == [("A", "hi", "1"), ("B", "yo", "2")]


def test_jsonl_from_stdin() -> None:
    data = (
        b'{"speaker": "A", "text": "one", "date": "2024-01-02"}\n{"speaker": "B", "text": "two", "time": 1704200000}\n'
    )
    parsed = parse_source(data, "-")
    assert parsed.format == "generic"
    assert [s.external_id for s in parsed.sessions] == ["2024-01-02"]


def test_missing_speaker_names_the_line() -> None:
    data = b'{"speaker": "A", "text": "one"}\n\n{"text": "two"}\n'
    with pytest.raises(ImportFormatError, match=r"^n\.jsonl: line 3: no speaker"):
        parse_source(data, "n.jsonl")


def test_missing_text_names_the_record() -> None:
    with pytest.raises(ImportFormatError, match=r"record 2: no text"):
        parse_source(b'[{"speaker": "A", "text": "x"}, {"speaker": "B"}]', "r.json", format="generic")


def test_bad_timestamp() -> None:
    with pytest.raises(ImportFormatError, match=r"record 1: unrecognised timestamp 'soon'"):
        parse_source(b'[{"speaker": "A", "text": "x", "timestamp": "soon"}]', "r.json", format="generic")
