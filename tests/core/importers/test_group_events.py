"""A chat app's lines about the group itself (created, renamed, joined, left) are events of
the user's life: kept as the actor's statement, at the line's time; the app's bookkeeping
(encryption, pins, icons, calls) is not."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory
from memhop.core.importers import ParsedSource, ParseOptions
from memhop.core.importers.whatsapp import WhatsAppImporter

LRM = "\u200e"

ANDROID = """3/1/24, 9:00 AM - Messages and calls are end-to-end encrypted. Tap to learn more.
3/1/24, 9:00 AM - Pia Lund created group "Harbour Swimmers"
3/1/24, 9:01 AM - Pia Lund added Tomas Brek and Edda Quist
3/1/24, 9:02 AM - Pia Lund: welcome! first swim is saturday
3/2/24, 10:00 AM - You joined using this group's invite link
3/5/24, 8:00 AM - Pia Lund changed the subject from "Harbour Swimmers" to "Cold Water Club"
3/5/24, 8:01 AM - Pia Lund changed this group's icon
3/5/24, 8:02 AM - Pia Lund changed the group description
3/5/24, 8:03 AM - Pia Lund pinned a message
3/5/24, 8:04 AM - Your security code with Edda Quist changed. Tap to learn more.
3/5/24, 8:05 AM - Pia Lund turned on disappearing messages. New messages will disappear from this chat 7 days after they're sent.
3/5/24, 8:06 AM - Messages you send to this group are now secured with end-to-end encryption.
3/5/24, 8:07 AM - Pia Lund changed this group's settings to allow only admins to edit this group's info
3/5/24, 8:08 AM - Missed group voice call
3/6/24, 8:00 AM - Tomas Brek: see you at the pier
3/20/24, 7:00 PM - Tomas Brek left
3/21/24, 7:00 PM - Pia Lund removed +44 7700 900456
3/22/24, 7:00 PM - Pia Lund added you
"""


def _parse(text: str, self_name: str | None = None, day_first: bool | None = None) -> ParsedSource:
    return WhatsAppImporter().parse(text.encode(), "chat.txt", self_name, ParseOptions(day_first=day_first))


def test_android_group_events_are_the_actors_statements_and_the_apps_notices_are_not() -> None:
    turns = [t for s in _parse(ANDROID, self_name="Noor Amsel").sessions for t in s.turns]
    assert [(t.speaker, t.text) for t in turns] == [
        ("Pia Lund", 'Pia Lund created group "Harbour Swimmers"'),
        ("Pia Lund", "Pia Lund added Tomas Brek and Edda Quist"),
        ("Pia Lund", "welcome! first swim is saturday"),
        ("Noor Amsel", "Noor Amsel joined using this group's invite link"),  # "You": the owner, by name
        ("Pia Lund", 'Pia Lund changed the subject from "Harbour Swimmers" to "Cold Water Club"'),
        ("Tomas Brek", "see you at the pier"),
        ("Tomas Brek", "Tomas Brek left"),
        ("Pia Lund", "Pia Lund removed unsaved contact …0456"),  # read as that sender would be
        ("Pia Lund", "Pia Lund added Noor Amsel"),
    ]
    assert turns[6].timestamp == datetime(2024, 3, 20, 19, 0)  # the line's own time


def test_without_a_known_owner_you_stays_the_owners_label() -> None:
    turns = [t for s in _parse(ANDROID).sessions for t in s.turns]
    joined = next(t for t in turns if "invite link" in t.text)
    assert (joined.speaker, joined.text) == ("You", "You joined using this group's invite link")
    assert turns[-1].text == "Pia Lund added you"


def test_ios_group_events_under_the_chats_name_or_the_actors() -> None:
    text = (
        f"[01/03/2024, 09:00:00] Cold Water Club: {LRM}Messages and calls are end-to-end encrypted.\n"
        f"[01/03/2024, 09:00:00] Pia Lund: {LRM}created group “Harbour Swimmers”\n"  # the actor as sender
        f"{LRM}[01/03/2024, 09:01:00] Cold Water Club: {LRM}Pia Lund added ~\u202fEdda\n"
        f"[05/03/2024, 08:00:00] Cold Water Club: {LRM}Pia Lund changed the group name from “Harbour Swimmers” to "
        "“Cold Water Club”\n"
        f"[05/03/2024, 08:01:00] Cold Water Club: {LRM}Pia Lund changed this group’s icon\n"
        f"[06/03/2024, 08:00:00] Cold Water Club: {LRM}Edda joined using this group’s invite link\n"
        f"[20/03/2024, 19:00:00] Cold Water Club: {LRM}Edda left\n"
    )
    parsed = _parse(text, self_name="Noor Amsel", day_first=True)
    assert [(t.speaker, t.text) for s in parsed.sessions for t in s.turns] == [
        ("Pia Lund", "Pia Lund created group “Harbour Swimmers”"),
        ("Pia Lund", "Pia Lund added Edda"),
        ("Pia Lund", "Pia Lund changed the group name from “Harbour Swimmers” to “Cold Water Club”"),
        ("Edda", "Edda joined using this group’s invite link"),
        ("Edda", "Edda left"),
    ]
    assert {s.title for s in parsed.sessions} == {"Cold Water Club"}  # still the name as last set


def test_german_group_events_stay_skipped_not_read_as_english() -> None:
    """The entity reader reads English: "hat die Gruppe verlassen" kept made "Gruppe" a person."""
    text = (
        "01.03.24, 09:00 - Pia Lund hat die Gruppe „Hafenschwimmer“ erstellt.\n"
        "02.03.24, 10:00 - Du hast die Gruppe verlassen.\n"
        "06.03.24, 08:00 - Tomas Brek: bis morgen am Steg\n"
        "20.03.24, 19:00 - Pia Lund hat Tomas Brek entfernt.\n"
    )
    turns = [t for s in _parse(text, self_name="Noor Amsel").sessions for t in s.turns]
    assert [(t.speaker, t.text) for t in turns] == [("Tomas Brek", "bis morgen am Steg")]


@pytest.mark.parametrize(("said", "actor"), [("Tomas Brek left", "Tomas Brek"), ("Pia Lund added Tomas Brek", "Pia Lund")])
def test_a_member_saying_the_words_is_still_their_message(said: str, actor: str) -> None:
    text = f"3/1/24, 9:00 AM - {said}\n3/1/24, 9:05 AM - Edda Quist: {said}\n"
    turns = _parse(text, day_first=False).sessions[0].turns
    assert [(t.speaker, t.text) for t in turns] == [(actor, said), ("Edda Quist", said)]


@pytest.fixture(scope="module")
def runners(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "WhatsApp Chat with Cold Water Club.txt", ANDROID, "Noor Amsel") as memory:
        yield memory


@pytest.mark.parametrize(("question", "expected", "said"), [
    ("Who created the group?", "Pia Lund", "created group"),
    ("Who added Tomas Brek?", "Pia Lund", "added Tomas Brek"),
])
def test_the_store_reads_who_acted_from_the_groups_records(runners: Memory, question: str, expected: str,
                                                           said: str) -> None:
    answer = runners.ask(question)
    assert answer.text == expected
    assert said in answer.support.items[0].cited.text


@pytest.mark.parametrize("question", [
    "When was the group created?",  # the record's time is no date its words give
    "When did Tomas leave the group?",
])
def test_a_records_date_is_not_read_so_the_question_is_refused(runners: Memory, question: str) -> None:
    assert runners.ask(question).text == "I don't know"


def _said(text: str, self_name: str | None = None) -> list[tuple[str, str]]:
    return [(t.speaker, t.text) for s in _parse(text, self_name, day_first=False).sessions for t in s.turns]


@pytest.mark.parametrize("sender", ["Mia (added at gym)", "Mia Left", 'Robert "Bob" Smith', "Robert “Bob” Smith"])
def test_a_contact_saved_with_an_event_word_or_quotes_is_a_sender_never_an_event(sender: str) -> None:
    """A line is the app's by its whole shape: an actor never holds the sender's colon, and a
    name's words ("added", "Left") or balanced quotes make no system line of a message."""
    text = f"3/1/24, 9:03 AM - {sender}: Tomas left\n3/1/24, 9:04 AM - {sender}: hi all\n"
    assert _said(text) == [(sender, "Tomas left"), (sender, "hi all")]


def test_a_colon_inside_a_quoted_group_name_keeps_the_rename_an_event() -> None:
    text = ('3/1/24, 9:00 AM - Pia Lund created group "Re: Swims 🏊"\n'
            '3/2/24, 9:00 AM - Pia Lund changed the subject from "Re: Swims 🏊" to "Trip “2024”"\n'
            "3/2/24, 9:01 AM - Tomas Brek: ok\n")
    parsed = _parse(text, day_first=False)
    assert [t.text for s in parsed.sessions for t in s.turns] == [
        'Pia Lund created group "Re: Swims 🏊"',
        'Pia Lund changed the subject from "Re: Swims 🏊" to "Trip “2024”"',  # quotes inside the name: kept
        "ok",
    ]
    assert {s.title for s in parsed.sessions} == {"Trip “2024”"}


def test_a_member_typing_a_rename_sets_no_title() -> None:
    text = ('3/1/24, 9:00 AM - Pia Lund created group "Harbour Swimmers"\n'
            '3/1/24, 9:01 AM - Tomas Brek: I changed the subject to "Tomas Fan Club"\n')
    assert {s.title for s in _parse(text, day_first=False).sessions} == {"Harbour Swimmers"}


def test_ios_a_members_message_after_a_mark_is_theirs_and_the_chat_is_no_person() -> None:
    """RTL keyboards put an LRM before a member's words; iOS files notices under the chat's name."""
    text = (
        f"[01/03/2024, 09:00:00] Cold Water Club: {LRM}Messages and calls are end-to-end encrypted.\n"
        f"[01/03/2024, 09:00:01] Cold Water Club: {LRM}created group “Cold Water Club”\n"
        f"[01/03/2024, 09:00:02] Pia Lund: {LRM}left\n"
        f"[01/03/2024, 09:00:03] Pia Lund: {LRM}created group “Harbour Swimmers”\n"
    )
    assert [(t.speaker, t.text) for s in _parse(text, day_first=True).sessions for t in s.turns] == [
        ("Pia Lund", "left"),  # her message, not "Pia Lund left"
        ("Pia Lund", "Pia Lund created group “Harbour Swimmers”"),  # the creator named as sender
    ]


def test_each_unsaved_number_in_an_added_list_reads_as_its_label() -> None:
    text = "3/1/24, 9:00 AM - Pia Lund added +44 7700 900456, you and +44 7700 900457\n3/1/24, 9:01 AM - Pia Lund: hi\n"
    assert _said(text, "Noor Amsel")[0] == (
        "Pia Lund", "Pia Lund added unsaved contact …0456, Noor Amsel and unsaved contact …0457")


def test_ios_notices_under_an_unknown_chat_name_are_not_messages() -> None:
    """A bare _chat.txt whose first line is no encryption notice does not say the chat's name:
    the app's icon and pin notices, filed under it, are still no one's message."""
    text = (
        "[01/03/2024, 09:00:00] Pia Lund: morning all\n"
        f"[05/03/2024, 08:01:00] Cold Water Club: {LRM}Pia Lund changed this group’s icon\n"
        f"[05/03/2024, 08:02:00] Cold Water Club: {LRM}Pia Lund pinned a message\n"
        "[06/03/2024, 08:00:00] Edda Quist: see you at the pier\n"
    )
    turns = [t for s in _parse(text, self_name="Noor Amsel", day_first=True).sessions for t in s.turns]
    assert [(t.speaker, t.text) for t in turns] == [("Pia Lund", "morning all"), ("Edda Quist", "see you at the pier")]
