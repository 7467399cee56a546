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
    ("What was the group called before?", "Harbour Swimmers", "changed the subject"),
    ("What is the group called now?", "Cold Water Club", "changed the subject"),
    ("When was the group created?", "1 March 2024", "created group"),  # not the day someone joined it
    ("When did Tomas leave the group?", "20 March 2024", "Tomas Brek left"),
])
def test_the_store_answers_from_the_groups_records(runners: Memory, question: str, expected: str, said: str) -> None:
    answer = runners.ask(question)
    assert answer.text == expected
    assert said in answer.support.items[0].cited.text
