"""Telegram Desktop HTML, Day One JSON and daily notes, from files written as the apps write them."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from memhop.core.errors import ImportFormatError
from memhop.core.importers import ParseOptions, detect, parse_source

from support import exports


def _turns(parsed):  # noqa: ANN001, ANN202
    return [t for s in parsed.sessions for t in s.turns]


def test_telegram_html_pages(tmp_path: Path) -> None:
    folder = exports.telegram_html_folder(tmp_path)
    page = folder / "messages.html"
    assert detect(str(page), page.read_bytes()) == "telegram-html"
    parsed = parse_source(page.read_bytes(), str(page))
    assert [(s.external_id, s.title) for s in parsed.sessions] == [
        ("2024-05-05", "Olek Brandt"),
        ("2024-05-06", "Olek Brandt"),
    ]
    assert [(t.speaker, t.text, t.timestamp, t.external_id) for t in _turns(parsed)] == [
        ("Olek Brandt", "Morning! Are we still on for Sunday?", datetime(2024, 5, 5, 10, 0), "11"),
        ("Olek Brandt", "Bring the blue thermos\nand the map", datetime(2024, 5, 5, 10, 1, 30), "12"),  # joined
        ("Wren Hollis", "[photo]\nFound it in the attic", datetime(2024, 5, 5, 10, 2), "13"),
        # forwarded: the words are Marta's, Olek passed them on
        ("Marta Quill", "[forwarded by Olek Brandt]\nThe river walk opens on Saturday & it is free.",
         datetime(2024, 5, 6, 19, 40), "14"),
    ]
    second = parse_source((folder / "messages2.html").read_bytes(), "messages2.html")
    assert [(t.speaker, t.text) for t in _turns(second)] == [
        ("Wren Hollis", "Poll: Picnic or museum? — Picnic; Museum"),
        ("Olek Brandt", "Museum, it will rain"),
    ]


def test_telegram_html_page_without_history_is_refused() -> None:
    page = b'<!DOCTYPE html>\n<html><body><div class="page_wrap"></div></body></html>'
    with pytest.raises(ImportFormatError, match="no message history"):
        parse_source(page, "messages.html", format="telegram-html")


def test_day_one_journal(tmp_path: Path) -> None:
    data = exports.json.dumps(exports.DAYONE).encode()
    assert detect("Journal.json", data) == "dayone"
    parsed = parse_source(data, "Journal.json", self_name="Kit Moreau")
    first, second = parsed.sessions
    assert (first.external_id, first.title) == ("8C3F0E2A9B1D4C7E8F6A5B4C3D2E1F00", "Ferry day")
    assert [t.text for t in first.turns] == [
        "Took the early ferry with Anouk. It was windy!",  # Day One's Markdown escapes undone
        "[photo]",
        "Anouk starts her new job at the bakery on Monday.",
    ]
    # creationDate is UTC; each entry is stored in its own zone's local time
    assert first.turns[0].timestamp == datetime(2024, 5, 1, 8, 30)  # Berlin, summer time
    assert second.turns[0].timestamp == datetime(2024, 5, 3, 19, 30)  # New York
    assert parsed.participants == ("Kit Moreau",)


def test_day_one_entry_without_a_date_is_named() -> None:
    doc = b'{"metadata": {"version": "1.0"}, "entries": [{"uuid": "x", "text": "hi", "creationDate": "soon"}]}'
    with pytest.raises(ImportFormatError, match="entry 1: no readable creationDate"):
        parse_source(doc, "Journal.json", format="dayone")


def test_obsidian_daily_note_dated_by_its_file_name(tmp_path: Path) -> None:
    vault = exports.obsidian_vault(tmp_path)
    note = vault / "Daily" / "2024-05-01.md"
    assert detect(str(note), note.read_bytes()) == "daily"
    parsed = parse_source(note.read_bytes(), str(note))
    assert [s.external_id for s in parsed.sessions] == ["2024-05-01"]
    assert [t.text for t in _turns(parsed)] == [
        "# Wednesday",
        "Lunch with Priya at the noodle bar.",
        "She is moving to Leeds in June.",
    ]  # the front matter is not part of the note's text
    assert all(t.timestamp == datetime(2024, 5, 1) for t in _turns(parsed))


def test_daily_note_dated_by_front_matter_and_logseq_bullets() -> None:
    note = b"---\ndate: 2024-06-09\n---\n- Planted the tomatoes\n  - three of them\n- Called Mum\n"
    parsed = parse_source(note, "garden.md")
    assert parsed.format == "daily"
    assert [(s.external_id, [t.text for t in s.turns]) for s in parsed.sessions] == [
        ("2024-06-09", ["Planted the tomatoes\nthree of them", "Called Mum"])
    ]
    logseq = parse_source(b"- Ran 5k\n", "journals/2024_06_10.md")
    assert [s.external_id for s in logseq.sessions] == ["2024-06-10"]


def test_year_less_heading_in_a_daily_note_takes_the_notes_year() -> None:
    parsed = parse_source(b"Morning run.\n\n## Sun 5 May\nLate entry for Sunday.\n", "Daily/2024-05-06.md")
    assert [s.external_id for s in parsed.sessions] == ["2024-05-05", "2024-05-06"]


def test_chatgpt_voice_mode_and_local_time() -> None:
    data = exports.json.dumps(exports.chatgpt_conversations()).encode()
    berlin = parse_source(data, "conversations.json", options=ParseOptions(tz=ZoneInfo("Europe/Berlin")))
    voice = berlin.sessions[1]
    assert [(t.speaker, t.text) for t in voice.turns] == [
        ("user", "Remind me what Tomas said about the ferry times."),
        ("ChatGPT", "He said the last ferry leaves at nine."),
    ]
    # 08:00 UTC is 10:00 on a Berlin clock, as a Berlin phone's WhatsApp would have written it
    assert voice.turns[0].timestamp == datetime(2024, 5, 2, 10, 0)
    utc = parse_source(data, "conversations.json", options=ParseOptions(tz=ZoneInfo("UTC")))
    assert utc.sessions[1].turns[0].timestamp == datetime(2024, 5, 2, 8, 0)
