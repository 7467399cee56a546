"""WhatsApp text exports in the layouts phones actually produce."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from memhop.core.errors import ImportFormatError
from memhop.core.importers import ParsedSource, ParseOptions, detect, parse_source
from memhop.core.importers.whatsapp import WhatsAppImporter

NNBSP = "\u202f"


def _parse(text: str, self_name: str | None = None, day_first: bool | None = True) -> ParsedSource:
    """Most files here are too short to tell day/month order: they say --dayfirst."""
    options = ParseOptions(day_first=day_first)
    return WhatsAppImporter().parse(text.encode(), "chat.txt", self_name=self_name, options=options)


def test_sample_counts_speakers_and_ids(samples: Path) -> None:
    parsed = parse_source((samples / "whatsapp-alice.txt").read_bytes(), "whatsapp-alice.txt", self_name="Maya Patel")
    assert parsed.format == "whatsapp"
    assert parsed.owner == "Maya Patel"
    assert set(parsed.participants) == {"Alice Nguyen", "Maya Patel"}
    assert [s.external_id for s in parsed.sessions] == [
        "2024-03-12",
        "2024-03-14",
        "2024-03-19",
        "2024-03-27",
        "2024-04-03",
        "2024-04-06",
        "2024-04-07",
    ]
    assert sum(len(s.turns) for s in parsed.sessions) == 34
    texts = [t.text for s in parsed.sessions for t in s.turns]
    assert not any("end-to-end" in t or "was deleted" in t for t in texts)
    assert texts.count("[media omitted]") == 2
    shopping = next(t for t in texts if t.startswith("ok shopping list"))
    assert shopping.endswith("- candles for the cake\nand maybe a plant? he keeps saying the flat needs more green")
    first = parsed.sessions[0].turns[0]
    assert (first.speaker, first.timestamp) == ("Alice Nguyen", datetime(2024, 3, 12, 9, 14))
    assert first.external_id == "2024-03-12#1"


def test_ios_layout_with_seconds_bom_and_marks() -> None:
    text = (
        "\ufeff[08/05/2023, 13:56:02] Alice: \u200eMessages and calls are end-to-end encrypted. No one outside of "
        "this chat, not even WhatsApp, can read or listen to them.\n"
        "[08/05/2023, 13:56:10] Alice: hi! did you know our messages are end-to-end encrypted? I read about it\n"
        "\u200e[08/05/2023, 13:58:10] Bob: \u200e<attached: 00000012-PHOTO-2023-05-08-13-58-10.jpg>\n"
        "[08/05/2023, 13:59:00] Bob: \u200eimage omitted\n"
        "[08/05/2023, 14:00:00] Group: \u200eAlice added Carol\n"
    )
    parsed = _parse(text)
    turns = parsed.sessions[0].turns
    assert [(t.speaker, t.text) for t in turns] == [
        ("Alice", "hi! did you know our messages are end-to-end encrypted? I read about it"),
        ("Bob", "[attached: 00000012-PHOTO-2023-05-08-13-58-10.jpg]"),
        ("Bob", "[image omitted]"),
        ("Alice", "Alice added Carol"),  # a group event: the actor's statement
    ]
    assert turns[0].timestamp == datetime(2023, 5, 8, 13, 56, 10)
    assert parsed.owner is None


def test_android_12h_with_narrow_nbsp_and_system_lines() -> None:
    text = (
        f"1/15/24, 9:05{NNBSP}PM - Messages and calls are end-to-end encrypted. Tap to learn more.\n"
        f'1/15/24, 9:05{NNBSP}PM - Alice created group "Trip: Paris"\n'
        f"1/15/24, 9:06{NNBSP}PM - Alice: who's packing the adapters\n"
        f"1/16/24, 12:10{NNBSP}AM - Bob: me <This message was edited>\n"
    )
    parsed = _parse(text, day_first=None)  # 15 in the second field: month-first for the whole file
    turns = [t for s in parsed.sessions for t in s.turns]
    assert [(t.speaker, t.text, t.timestamp) for t in turns] == [
        ("Alice", 'Alice created group "Trip: Paris"', datetime(2024, 1, 15, 21, 5)),
        ("Alice", "who's packing the adapters", datetime(2024, 1, 15, 21, 6)),
        ("Bob", "me", datetime(2024, 1, 16, 0, 10)),
    ]
    assert [s.external_id for s in parsed.sessions] == ["2024-01-15", "2024-01-16"]
    assert {s.title for s in parsed.sessions} == {"Trip: Paris"}  # the group's name


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("08.05.23, 13:56 - A: x", datetime(2023, 5, 8, 13, 56)),  # German-style dots, 2-digit year
        ("[2023-05-08, 1:56:00 pm] A: x", datetime(2023, 5, 8, 13, 56)),  # year first
        ("05/08/2023, 1:56 p.m. - A: x", datetime(2023, 8, 5, 13, 56)),  # ambiguous: --dayfirst given
    ],
)
def test_date_layouts(line: str, expected: datetime) -> None:
    assert _parse(line + "\n").sessions[0].turns[0].timestamp == expected


def test_date_order_decided_per_file() -> None:
    text = "05/08/2023, 10:00 - A: first\n12/31/2023, 10:00 - A: later\n"
    stamps = [t.timestamp for s in _parse(text, day_first=None).sessions for t in s.turns]
    assert stamps == [datetime(2023, 5, 8, 10, 0), datetime(2023, 12, 31, 10, 0)]


def test_ios_vs_android_detection() -> None:
    assert detect("chat.txt", b"[08/05/2023, 13:56:02] Alice: hi\n") == "whatsapp"
    assert detect("-", b"08/05/2023, 13:56 - Alice: hi\n") == "whatsapp"


def test_not_whatsapp_when_forced() -> None:
    with pytest.raises(ImportFormatError, match="not a WhatsApp export: no dated message lines"):
        parse_source(b"just some text\n", "notes.txt", format="whatsapp")


@pytest.mark.parametrize(
    "notice",
    ["<Medien ausgeschlossen>", "<Multimédia omis>", "<Multimedia omitido>", "<Media weggelaten>",
     "\u200eBild weggelassen", "\u200eimage absente"],
)
def test_media_notices_in_other_languages_become_placeholders(notice: str) -> None:
    turns = _parse(f"08/05/2023, 13:56 - Alice: {notice}\n08/05/2023, 13:57 - Alice: look!\n").sessions[0].turns
    assert [t.text for t in turns] == ["[media omitted]", "look!"]


def test_attachments_in_other_languages_keep_their_file_name() -> None:
    turns = _parse("[08/05/2023, 13:56:02] Alice: \u200e<Anhang: 00000012-PHOTO.jpg>\n").sessions[0].turns
    assert [t.text for t in turns] == ["[attached: 00000012-PHOTO.jpg]"]


@pytest.mark.parametrize(
    "notice",
    ["Diese Nachricht wurde gelöscht.", "Ce message a été supprimé", "Se eliminó este mensaje.",
     "Missed voice call", "Verpasster Sprachanruf"],
)
def test_deleted_messages_and_calls_in_other_languages_are_skipped(notice: str) -> None:
    turns = _parse(f"08/05/2023, 13:56 - Alice: {notice}\n08/05/2023, 13:57 - Alice: hi\n").sessions[0].turns
    assert [t.text for t in turns] == ["hi"]


@pytest.mark.parametrize("text", ["<sigh>", "Komplett ausgeschlossen", "image absente"])
def test_what_a_user_typed_is_not_a_notice(text: str) -> None:
    turns = _parse(f"08/05/2023, 13:56 - Alice: {text}\n").sessions[0].turns
    assert [t.text for t in turns] == [text]


@pytest.mark.parametrize(
    ("sender", "speaker"),
    [("+44 7700 900456", "unsaved contact …0456"), ("\u202a+49 151 2345678\u202c", "unsaved contact …5678"),
     ("~\u202fDan", "Dan"), ("~ Dan Okafor", "Dan Okafor")],
)
def test_unsaved_contacts_get_a_stable_label_and_lose_the_ios_tilde(sender: str, speaker: str) -> None:
    parsed = _parse(f"[08/05/2023, 13:56:02] {sender}: running late\n")
    assert parsed.sessions[0].turns[0].speaker == speaker
    assert parsed.participants == (speaker,)


def test_a_file_that_cannot_tell_day_from_month_is_refused_not_guessed() -> None:
    from support.exports import WHATSAPP_US

    with pytest.raises(ImportFormatError) as caught:
        _parse(WHATSAPP_US, day_first=None)
    message = str(caught.value)
    assert message.startswith("chat.txt: cannot tell") and "--monthfirst" in message and "\n" not in message
    assert "(3/4 is 3 April)" in message and "(3/4 is March 4)" in message
    # the text's "March 4th" is shown as a hint, never acted on
    assert message.endswith("line 1 says 'March 4th', which suggests --monthfirst")
    us = _parse(WHATSAPP_US, day_first=False)
    assert [s.external_id for s in us.sessions] == ["2024-03-04", "2024-03-09", "2024-03-11"]
    assert us.sessions[0].turns[0].text == "Happy March 4th! Coffee at 10?"
    european = _parse(WHATSAPP_US, day_first=True)
    assert [s.external_id for s in european.sessions] == ["2024-04-03", "2024-09-03", "2024-11-03"]


def test_the_only_order_in_which_the_chat_runs_forward_decides() -> None:
    text = "3/12/24, 10:00 - A: one\n4/1/24, 10:00 - A: two\n"  # day-first would go from 3 Dec back to 4 Jan
    assert [s.external_id for s in _parse(text, day_first=None).sessions] == ["2024-03-12", "2024-04-01"]
    same = "5/5/24, 10:00 - A: both orders agree\n"
    assert [s.external_id for s in _parse(same, day_first=None).sessions] == ["2024-05-05"]


def test_polls_are_readable_and_the_group_name_is_the_title() -> None:
    from support.exports import WHATSAPP_IOS

    parsed = _parse(WHATSAPP_IOS, day_first=None)  # 14/05 decides: day-first
    assert {s.title for s in parsed.sessions} == {"Lakeside Book Club"}
    texts = [t.text for t in parsed.sessions[1].turns]
    assert texts == ["Poll: Which evening suits? — Tuesday (2 votes); Thursday (1 vote)"]


def test_the_chat_name_from_the_export_file_name() -> None:
    line = b"[14/05/2024, 20:30:11] Ruben Ortiz: hi\n"
    android = parse_source(line, "exports/WhatsApp Chat with Ruben Ortiz.txt")
    assert android.sessions[0].title == "Ruben Ortiz"
    ios = parse_source(line, "WhatsApp Chat - Ruben Ortiz.zip:_chat.txt")
    assert ios.sessions[0].title == "Ruben Ortiz"
    assert parse_source(line, "chat.txt").sessions[0].title is None


def test_the_exporter_is_found_from_their_you_deleted_lines() -> None:
    text = (
        "[14/05/2024, 20:30:11] Ruben Ortiz: see you at 8\n"
        f"[14/05/2024, 20:31:00] Ines Varga: {chr(0x200E)}You deleted this message.\n"
    )
    parsed = _parse(text, day_first=None)
    assert parsed.owner == "Ines Varga"
    assert [t.text for s in parsed.sessions for t in s.turns] == ["see you at 8"]
    assert _parse(text, self_name="Ines V.", day_first=None).owner == "Ines V."  # --self wins
