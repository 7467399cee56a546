"""Telegram Desktop JSON: single-chat and full-account exports."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from memhop.core.errors import ImportFormatError
from memhop.core.importers import detect, parse_source
from memhop.core.language.group_events import names

SINGLE_CHAT = {
    "name": "Bob",
    "type": "personal_chat",
    "id": 42,
    "messages": [
        {"id": 1, "type": "service", "date": "2024-04-01T10:00:00", "actor": "Bob", "action": "phone_call", "text": ""},
        {
            "id": 2,
            "type": "message",
            "date": "2024-04-01T10:05:00",
            "from": "Bob",
            "text": ["read ", {"type": "bold", "text": "this"}, ": ", {"type": "link", "text": "https://example.org"}],
        },
        {"id": 3, "type": "message", "date": "2024-04-02T09:00:00", "from": "Me", "text": "ok!"},
        {"id": 4, "type": "message", "date": "2024-04-02T09:01:00", "from": "Me", "text": "  "},
    ],
}


def test_sample_full_export(samples: Path) -> None:
    parsed = parse_source((samples / "telegram-result.json").read_bytes(), "result.json")
    assert parsed.format == "telegram"
    assert parsed.owner == "Maya Patel"  # from personal_information
    assert set(parsed.participants) == {"Maya Patel", "Bob Kowalski"}
    assert [s.external_id for s in parsed.sessions] == [
        "6620193418:2024-04-02",
        "6620193418:2024-04-05",
        "6620193418:2024-04-21",
        "6620193418:2024-05-12",
        "6620193418:2024-05-19",
    ]
    assert all(s.title == "Bob Kowalski" for s in parsed.sessions)
    turns = [t for s in parsed.sessions for t in s.turns]
    assert len(turns) == 20
    assert "4112" not in {t.external_id for t in turns}  # the service message (a phone call)
    by_id = {t.external_id: t for t in turns}
    assert by_id["4103"].text == "how's the new job?? is it glamorous yet"
    assert by_id["4105"].text.endswith("https://northlightstudios.example/about")
    assert by_id["4108"].text == "[photo]"
    assert by_id["4110"].text == "[sticker 👏]"
    assert by_id["4101"].timestamp == datetime(2024, 4, 2, 19, 41, 7)


def test_single_chat_entity_list_and_service_skipped() -> None:
    data = json.dumps(SINGLE_CHAT).encode()
    assert detect("result.json", data) == "telegram"
    parsed = parse_source(data, "result.json", self_name="Me")
    assert parsed.owner == "Me"
    assert [(s.external_id, [t.text for t in s.turns]) for s in parsed.sessions] == [
        ("42:2024-04-01", ["read this: https://example.org"]),
        ("42:2024-04-02", ["ok!"]),
    ]
    assert parsed.sessions[0].turns[0].external_id == "2"


def test_generic_messages_object_is_not_telegram() -> None:
    with pytest.raises(ImportFormatError, match="not a Telegram export"):
        parse_source(b'{"messages": [{"from": "a", "text": "b"}]}', "x.json", format="telegram")


def test_forwarded_messages_are_credited_to_their_author_and_polls_are_kept() -> None:
    chat = {
        "name": "Hiking",
        "type": "private_group",
        "id": 7,
        "messages": [
            {"id": 1, "type": "message", "date": "2024-05-06T19:40:00", "from": "Olek Brandt", "from_id": "user1",
             "forwarded_from": "Marta Quill", "text": "The river walk opens on Saturday."},
            {"id": 2, "type": "message", "date": "2024-05-06T19:41:00", "from": "Olek Brandt", "from_id": "user1",
             "forwarded_from": None, "text": "From a hidden account"},
            {"id": 3, "type": "message", "date": "2024-05-07T08:15:00", "from": "Wren Hollis", "from_id": "user2",
             "text": "", "poll": {"question": "Picnic or museum?", "closed": False, "total_voters": 3,
                                  "answers": [{"text": "Picnic", "voters": 1, "chosen": False},
                                              {"text": "Museum", "voters": 2, "chosen": True}]}},
            {"id": 4, "type": "message", "date": "2024-05-07T08:20:00", "edited": "2024-05-07T08:25:00",
             "from": "Wren Hollis", "text": "Museum it is (edited)"},
        ],
    }
    parsed = parse_source(json.dumps(chat).encode(), "result.json")
    assert [(t.speaker, t.text) for s in parsed.sessions for t in s.turns] == [
        ("Marta Quill", "[forwarded by Olek Brandt]\nThe river walk opens on Saturday."),
        ("Olek Brandt", "[forwarded from a hidden account]\nFrom a hidden account"),
        ("Wren Hollis", "Poll: Picnic or museum? — Picnic (1 vote); Museum (2 votes)"),
        ("Wren Hollis", "Museum it is (edited)"),
    ]
    assert {s.title for s in parsed.sessions} == {"Hiking"}


def test_group_service_entries_are_the_actors_statements() -> None:
    def service(mid: int, day: str, actor: str, action: str, **extra: object) -> dict[str, object]:
        return {"id": mid, "type": "service", "date": f"2024-06-{day}T10:00:00", "actor": actor,
                "actor_id": "user1", "action": action, "text": "", **extra}

    chat = {
        "name": "Night Owls",
        "type": "private_group",
        "id": 9,
        "messages": [
            service(1, "01", "Ilse Varn", "create_group", title="Dawn Patrol", members=["Ilse Varn", "Joost Hale"]),
            service(2, "02", "Ilse Varn", "invite_members", members=["Rune Okoro", "Mai Thet"]),
            service(3, "03", "Rune Okoro", "pin_message", message_id=1),
            service(4, "03", "Ilse Varn", "edit_group_photo", photo="(File not included.)"),
            service(5, "04", "Ilse Varn", "edit_group_title", title="Night Owls"),
            service(6, "05", "Mai Thet", "remove_members", members=["Mai Thet"]),
            service(7, "06", "Ilse Varn", "remove_members", members=["Rune Okoro"]),
            service(8, "07", "Wendel Ash", "join_group_by_link", inviter="Ilse Varn"),
            service(9, "08", "Ilse Varn", "phone_call", discard_reason="missed"),
            service(10, "09", "Ilse Varn", "invite_members", members=["Ilse Varn"]),
        ],
    }
    parsed = parse_source(json.dumps(chat).encode(), "result.json")
    turns = [t for s in parsed.sessions for t in s.turns]
    assert [(t.external_id, t.speaker, t.text) for t in turns] == [
        ("1", "Ilse Varn", 'Ilse Varn created group "Dawn Patrol"'),
        ("2", "Ilse Varn", "Ilse Varn added Rune Okoro and Mai Thet"),
        ("5", "Ilse Varn", 'Ilse Varn changed the group name from "Dawn Patrol" to "Night Owls"'),
        ("6", "Mai Thet", "Mai Thet left"),
        ("7", "Ilse Varn", "Ilse Varn removed Rune Okoro"),
        ("8", "Wendel Ash", "Wendel Ash joined using this group's invite link"),
        ("10", "Ilse Varn", "Ilse Varn joined the group"),
    ]
    assert turns[3].timestamp == datetime(2024, 6, 5, 10, 0)


def test_a_group_name_holding_quotes_reads_back_whole_from_its_rename() -> None:
    """The importer quotes a name in marks it does not hold, so the one wording both sides
    use (language/group_events) reads each rename's old and new name back."""
    def renamed(mid: int, title: str) -> dict[str, object]:
        return {"id": mid, "type": "service", "date": f"2024-06-0{mid}T10:00:00", "actor": "Ilse Varn",
                "actor_id": "user1", "action": "edit_group_title", "title": title, "text": ""}

    chat = {"name": "Owls", "type": "private_group", "id": 9, "messages": [
        {"id": 1, "type": "service", "date": "2024-06-01T10:00:00", "actor": "Ilse Varn", "actor_id": "user1",
         "action": "create_group", "title": "Dawn Patrol", "text": ""},
        renamed(2, 'Night "Owls" 🦉'), renamed(3, "Owls"), renamed(4, "«Lark» “Club”"),
    ]}
    turns = [t for s in parse_source(json.dumps(chat).encode(), "result.json").sessions for t in s.turns]
    assert [names(t.text) for t in turns] == [
        [(None, "Dawn Patrol")], [("Dawn Patrol", 'Night "Owls" 🦉')], [('Night "Owls" 🦉', "Owls")],
        [("Owls", "«Lark» “Club”")],
    ]
