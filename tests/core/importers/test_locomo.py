"""LoCoMo: the dialogue is imported, the authors' annotations never are."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from memhop.core.errors import ImportFormatError
from memhop.core.importers import detect, parse_source


def _annotation_texts(doc: dict) -> list[str]:
    conv = doc.get("conversation", doc)
    texts: list[str] = []
    for key, value in conv.items():
        if key.endswith(("_observation", "_summary")) or key.startswith("events_session_"):
            texts.append(json.dumps(value))
    return texts


@pytest.mark.parametrize(("name", "sessions", "turns"), [("26.json", 19, 419), ("30.json", 19, 369)])
def test_counts(locomo_dir: Path, name: str, sessions: int, turns: int) -> None:
    data = (locomo_dir / name).read_bytes()
    assert detect(name, data) == "locomo"
    parsed = parse_source(data, name)
    assert len(parsed.sessions) == sessions
    assert sum(len(s.turns) for s in parsed.sessions) == turns
    assert [s.external_id for s in parsed.sessions] == [f"session_{n}" for n in range(1, sessions + 1)]


# One conversation in the shape of the benchmark's files (field names theirs, texts invented).
CONVERSATION = {
    "speaker_a": "Beatrix",
    "speaker_b": "Ambrose",
    "session_1_date_time": "1:56 pm on 8 May, 2023",
    "session_1": [
        {"speaker": "Beatrix", "dia_id": "D1:1", "text": "Morning Ambrose! The allotment flooded again."},
        {"speaker": "Ambrose", "dia_id": "D1:2", "text": "Oh no, the leeks?",
         "img_url": ["https://example.invalid/leeks.jpg"], "blip_caption": "a photo of a wet garden with a wheelbarrow",
         "query": "flooded allotment"},
    ],
    "session_1_observation": {"Beatrix": [["Beatrix keeps an allotment.", "D1:1"]]},
}


def test_dates_ids_and_photo_captions() -> None:
    parsed = parse_source(json.dumps(CONVERSATION).encode(), "conv.json")
    first = parsed.sessions[0]
    assert first.started_at == datetime(2023, 5, 8, 13, 56)  # "1:56 pm on 8 May, 2023"
    assert all(t.timestamp == first.started_at for t in first.turns)
    assert first.turns[0].external_id == "D1:1"
    assert set(parsed.participants) == {"Beatrix", "Ambrose"}
    photo = next(t for t in first.turns if t.external_id == "D1:2")
    assert photo.text == "Oh no, the leeks? [shares a photo: a photo of a wet garden with a wheelbarrow]"
    assert "allotment." not in photo.text and "keeps an allotment" not in "\n".join(t.text for t in first.turns)


def test_26_speakers_and_photo_captions_come_from_the_file(locomo_dir: Path) -> None:
    doc = json.loads((locomo_dir / "26.json").read_text())
    parsed = parse_source((locomo_dir / "26.json").read_bytes(), "26.json")
    first = parsed.sessions[0]
    assert set(parsed.participants) == {doc["speaker_a"], doc["speaker_b"]}
    shown = next(t for t in doc["session_1"] if t.get("blip_caption"))
    photo = next(t for t in first.turns if t.external_id == shown["dia_id"])
    assert photo.text.endswith(f"[shares a photo: {shown['blip_caption']}]")


def test_26_never_contains_annotations(locomo_dir: Path) -> None:
    doc = json.loads((locomo_dir / "26.json").read_text())
    parsed = parse_source((locomo_dir / "26.json").read_bytes(), "26.json")
    imported = "\n".join(t.text for s in parsed.sessions for t in s.turns)
    sample_obs = doc["session_1_observation"][doc["speaker_a"]][0][0]
    assert sample_obs not in imported
    assert doc["session_1_summary"][:80] not in imported
    assert doc["qa"][0]["question"] not in imported
    assert not any(text[:60] in imported for text in _annotation_texts(doc))


def test_list_of_samples_prefixes_session_ids() -> None:
    sample = {
        "sample_id": "conv-1",
        "qa": [{"question": "Q?", "answer": "A", "evidence": ["D1:1"], "category": 4}],
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Ben",
            "session_2_date_time": "9:05 am on 3 June, 2023",
            "session_2": [{"speaker": "Ben", "dia_id": "D2:1", "text": "later"}],
            "session_1_date_time": "12:30 pm on 1 June, 2023",
            "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "", "blip_caption": "a cat"}],
            "session_1_observation": {"Ann": [["Ann has a cat.", "D1:1"]]},
        },
        "session_summary": {"session_1_summary": "Ann shares a cat photo."},
    }
    parsed = parse_source(json.dumps([sample]).encode(), "-")
    assert parsed.format == "locomo"
    assert [(s.external_id, s.started_at) for s in parsed.sessions] == [
        ("conv-1:session_1", datetime(2023, 6, 1, 12, 30)),
        ("conv-1:session_2", datetime(2023, 6, 3, 9, 5)),
    ]
    assert parsed.sessions[0].turns[0].text == "[shares a photo: a cat]"


def test_bad_date_is_reported() -> None:
    doc = {"speaker_a": "A", "speaker_b": "B", "session_1_date_time": "sometime", "session_1": []}
    with pytest.raises(ImportFormatError, match="session_1: unrecognised date 'sometime'"):
        parse_source(json.dumps(doc).encode(), "x.json", format="locomo")
