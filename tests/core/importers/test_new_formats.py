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


def test_messenger_text_is_re_decoded_and_notices_skipped(tmp_path: Path) -> None:
    path = exports.messenger_thread(tmp_path)
    assert detect(str(path), path.read_bytes()) == "messenger"
    parsed = parse_source(path.read_bytes(), str(path), options=ParseOptions(tz=ZoneInfo("Europe/Warsaw")))
    assert [(s.external_id, s.title) for s in parsed.sessions] == [("2024-05-06", "Zofia Król"), ("2024-05-07", "Zofia Król")]
    assert [(t.speaker, t.text) for t in _turns(parsed)] == [
        ("Zofia Król", "Are you in Kraków next weekend?"),  # in time order, not Meta's newest-first
        ("Kit Moreau", "Yes! Meet at the café on Żurawia 🙂"),
        ("Zofia Król", "[photo]"),
    ]  # the call, the unsent message and the reaction notice are not speech
    assert _turns(parsed)[0].timestamp == datetime(2024, 5, 6, 11, 50)  # 09:50 UTC on a Warsaw clock


def test_discord_channel(tmp_path: Path) -> None:
    path = exports.discord_channel(tmp_path)
    assert detect(str(path), path.read_bytes()) == "discord"
    parsed = parse_source(path.read_bytes(), str(path))
    assert {s.title for s in parsed.sessions} == {"Allotment Friends #harvest"}
    assert [(t.speaker, t.text, t.timestamp, t.external_id) for t in _turns(parsed)] == [
        ("Noor", "First courgettes are in!", datetime(2024, 5, 4, 8, 5, 10, 123000), "1002"),
        ("Tam", "Save me two, I'll swap rhubarb", datetime(2024, 5, 4, 8, 7, 0, 456000), "1003"),
        ("Noor", "[attached: beds.jpg]", datetime(2024, 5, 5, 19, 30), "1004"),
    ]


def test_signal_export_json_and_markdown_agree(tmp_path: Path) -> None:
    folder = exports.signal_chat(tmp_path)
    data, md = folder / "data.json", folder / "chat.md"
    assert detect(str(data), data.read_bytes()) == "signal"
    assert detect(str(md), md.read_bytes()) == "signal"
    expected = [
        ("Bea Lindqvist", "Did you book the ferry to Gotland?", datetime(2024, 5, 6, 18, 0)),
        ("Kit Moreau", "Yes, Friday 7am", datetime(2024, 5, 6, 18, 1, 30)),  # "Me", named by --self
        ("Bea Lindqvist", "[attached: 2024-05-06T18-02-11.000_00_IMG_2231.jpg]", datetime(2024, 5, 6, 18, 2, 11)),
    ]  # the call and the deleted message are left out
    for path in (data, md):
        parsed = parse_source(path.read_bytes(), str(path), self_name="Kit Moreau")
        assert [(t.speaker, t.text, t.timestamp) for t in _turns(parsed)] == expected, path.name
        assert {s.title for s in parsed.sessions} == {"Bea Lindqvist"}


def test_imessage_exporter_text(tmp_path: Path) -> None:
    path = tmp_path / "+15555550123.txt"
    path.write_text(exports.IMESSAGE_TXT, encoding="utf-8")
    assert detect(str(path), path.read_bytes()) == "imessage"
    parsed = parse_source(path.read_bytes(), str(path), self_name="Kit Moreau")
    assert [(t.speaker, t.text, t.timestamp) for t in _turns(parsed)] == [
        ("+15555550123", "Landed! Taxi line is huge", datetime(2024, 5, 6, 18, 0)),
        ("Kit Moreau", "Welcome back. Dinner at Rosa's at 8?", datetime(2024, 5, 6, 18, 2, 45)),
        ("+15555550123", "[attached: IMG_4410.HEIC]\nPerfect, see you there", datetime(2024, 5, 6, 18, 5, 10)),
        ("Kit Moreau", "Booked a table for two", datetime(2024, 5, 6, 18, 6)),  # a reply, indented
        ("Kit Moreau", "Thanks for last night", datetime(2024, 5, 7, 8, 15)),
    ]
    assert [s.external_id for s in parsed.sessions] == ["2024-05-06", "2024-05-07"]
    assert {s.title for s in parsed.sessions} == {"+15555550123"}
