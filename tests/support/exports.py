"""Small synthetic exports laid out the way the apps write them (invented people and chats).

Each builder writes into a folder and returns the path a user would hand to `memhop ingest`:
the ChatGPT export folder or zip, a WhatsApp iOS share zip, a Telegram Desktop HTML export
folder, a Day One zip, an Obsidian vault.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

PNG = b"\x89PNG\r\n\x1a\n" + bytes(64)  # enough of an image for a file that is never read as text
LRM = "\u200e"


# ChatGPT ---------------------------------------------------------------------------------


def chatgpt_conversations() -> list[dict[str, object]]:
    """Two conversations: a typed one and a voice-mode one (audio_transcription parts)."""

    def node(nid: str, parent: str | None, role: str | None, parts: list[object], t: float | None,
             content_type: str = "text") -> dict[str, object]:
        message = None
        if role is not None:
            message = {"id": nid, "author": {"role": role, "name": None, "metadata": {}}, "create_time": t,
                       "content": {"content_type": content_type, "parts": parts}, "status": "finished_successfully",
                       "metadata": {}, "recipient": "all"}
        return {"id": nid, "message": message, "parent": parent, "children": []}

    def conversation(cid: str, title: str, created: float, nodes: list[dict[str, object]]) -> dict[str, object]:
        mapping = {str(n["id"]): n for n in nodes}
        for n in nodes:
            if n["parent"]:
                mapping[str(n["parent"])]["children"].append(n["id"])  # type: ignore[union-attr]
        return {"title": title, "create_time": created, "update_time": created + 60, "mapping": mapping,
                "current_node": nodes[-1]["id"], "id": cid, "conversation_id": cid}

    typed = conversation("conv-typed", "Sourdough starter", 1714550400.0, [  # 2024-05-01 08:00 UTC
        node("r1", None, None, [], None),
        node("u1", "r1", "user", ["My sourdough starter smells like acetone, what now?"], 1714550400.0),
        node("a1", "u1", "assistant", ["Feed it twice a day for a few days."], 1714550410.0),
    ])
    audio = {"content_type": "audio_asset_pointer", "asset_pointer": "sediment://file_0001", "size_bytes": 5000}
    voice = conversation("conv-voice", "Voice chat", 1714636800.0, [  # 2024-05-02 08:00 UTC
        node("r2", None, None, [], None),
        node("v1", "r2", "user", [{"content_type": "audio_transcription", "text": "Remind me what Tomas said about "
                                   "the ferry times.", "direction": "in"}, audio], 1714636800.0, "multimodal_text"),
        node("v2", "v1", "assistant", [{"content_type": "audio_transcription", "text": "He said the last ferry "
                                        "leaves at nine.", "direction": "out"}, audio], 1714636805.0,
             "multimodal_text"),
    ])
    return [typed, voice]


def chatgpt_folder(root: Path) -> Path:
    """An unzipped ChatGPT export: conversations.json and its sibling files."""
    folder = root / "chatgpt-export"
    folder.mkdir(parents=True)
    (folder / "conversations.json").write_text(json.dumps(chatgpt_conversations()), encoding="utf-8")
    (folder / "chat.html").write_text("<html><body><script>var jsonData = [];</script></body></html>")
    (folder / "user.json").write_text(json.dumps({"id": "user-abc", "email": "kit@example.org"}))
    (folder / "message_feedback.json").write_text("[]")
    (folder / "model_comparisons.json").write_text("[]")
    (folder / "shared_conversations.json").write_text("[]")
    (folder / "file-A1b2C3-photo.png").write_bytes(PNG)
    return folder


def chatgpt_zip(root: Path) -> Path:
    folder = chatgpt_folder(root / "unzipped")
    return zip_folder(folder, root / "chatgpt-export.zip", inside="")


# WhatsApp --------------------------------------------------------------------------------

WHATSAPP_IOS = (
    f"[02/05/2024, 18:01:12] Lakeside Book Club: {LRM}Messages and calls are end-to-end encrypted.\n"
    f"[02/05/2024, 18:01:12] Ines Varga: {LRM}created group “Lakeside Book Club”\n"
    "[02/05/2024, 18:02:40] Ines Varga: Next book is The Glass Orchard\n"
    f"[02/05/2024, 18:03:05] Ines Varga: {LRM}<attached: 00000004-PHOTO-2024-05-02-18-03-05.jpg>\n"
    "[03/05/2024, 09:15:00] Ruben Ortiz: POLL:\nWhich evening suits?\nOPTION: Tuesday (2 votes)\nOPTION: Thursday (1 vote)\n"
    "[14/05/2024, 20:30:11] Ruben Ortiz: Finished it, loved the ending\n"
)


def whatsapp_ios_zip(root: Path) -> Path:
    """What iOS "Export Chat" shares: `_chat.txt` and the media, zipped, named after the chat."""
    path = root / "WhatsApp Chat - Lakeside Book Club.zip"
    root.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("_chat.txt", WHATSAPP_IOS)
        archive.writestr("00000004-PHOTO-2024-05-02-18-03-05.jpg", PNG)
    return path


# A US phone: month first, and every day of this chat is 12 or less.
WHATSAPP_US = (
    "3/4/24, 9:12 AM - Dana Whitfield: Happy March 4th! Coffee at 10?\n"
    "3/4/24, 9:20 AM - Leo Park: Sure, the usual place\n"
    "3/9/24, 7:45 PM - Dana Whitfield: Movie night was fun\n"
    "3/11/24, 8:02 AM - Leo Park: Back at work, ugh\n"
)


# Telegram Desktop HTML -------------------------------------------------------------------


def _tg_message(mid: int, time: str, sender: str | None, inner: str) -> str:
    joined = "" if sender else " joined"
    name = f'\n       <div class="from_name">\n{sender}\n       </div>\n' if sender else ""
    pic = (
        '\n      <div class="pull_left userpic_wrap">\n       <div class="userpic userpic2" style="width: 42px; '
        'height: 42px">\n        <div class="initials" style="line-height: 42px">\nX\n        </div>\n       '
        "</div>\n      </div>\n"
        if sender
        else ""
    )
    return (
        f'\n     <div class="message default clearfix{joined}" id="message{mid}">\n{pic}'
        f'\n      <div class="body">\n\n       <div class="pull_right date details" title="{time} UTC+02:00">\n'
        f"{time[11:16]}\n       </div>\n{name}{inner}\n      </div>\n\n     </div>\n"
    )


def _tg_text(text: str) -> str:
    return f'\n       <div class="text">\n{text}\n       </div>\n'


def _tg_page(title: str, body: str) -> str:
    return (
        "<!DOCTYPE html>\n<html>\n\n <head>\n\n  <meta charset=\"utf-8\"/>\n<title>Exported Data</title>\n\n"
        '  <meta content="width=device-width, initial-scale=1.0" name="viewport"/>\n\n'
        '  <link href="css/style.css" rel="stylesheet"/>\n\n  <script src="js/script.js" type="text/javascript">\n\n'
        '  </script>\n\n </head>\n\n <body onload="CheckLocation();">\n\n  <div class="page_wrap">\n\n'
        '   <div class="page_header">\n\n    <div class="content">\n\n     <div class="text bold">\n'
        f"{title}\n     </div>\n\n    </div>\n\n   </div>\n\n"
        '   <div class="page_body chat_page">\n\n    <div class="history">\n'
        f"{body}\n    </div>\n\n   </div>\n\n  </div>\n\n </body>\n\n</html>\n"
    )


def _tg_service(mid: int, text: str) -> str:
    return (
        f'\n     <div class="message service" id="message-{mid}">\n\n      <div class="body details">\n'
        f"{text}\n      </div>\n\n     </div>\n"
    )


def telegram_html_folder(root: Path) -> Path:
    """ChatExport_2024-05-20/ with messages.html, messages2.html and the page assets."""
    folder = root / "ChatExport_2024-05-20"
    (folder / "css").mkdir(parents=True)
    (folder / "js").mkdir()
    (folder / "images").mkdir()
    (folder / "photos").mkdir()
    (folder / "css" / "style.css").write_text("body { margin: 0 }")
    (folder / "js" / "script.js").write_text("function CheckLocation() {}")
    (folder / "images" / "back.png").write_bytes(PNG)
    (folder / "photos" / "photo_1@05-05-2024_10-02-00.jpg").write_bytes(PNG)
    forwarded = (
        '\n       <div class="forwarded body">\n\n        <div class="from_name">\nMarta Quill '
        '<span class="date details" title="01.05.2024 08:00:00 UTC+02:00"> 01.05.2024 08:00:00</span>\n'
        "        </div>\n" + _tg_text("The river walk opens on Saturday &amp; it is free.") + "\n       </div>\n"
    )
    photo = (
        '\n       <div class="media_wrap clearfix">\n\n        <a class="photo_wrap clearfix pull_left" '
        'href="photos/photo_1@05-05-2024_10-02-00.jpg">\n\n         <img class="photo" '
        'src="photos/photo_1@05-05-2024_10-02-00.jpg_thumb.jpg" style="width: 260px; height: 195px"/>\n\n'
        "        </a>\n\n       </div>\n"
    )
    poll = (
        '\n       <div class="media_wrap clearfix">\n\n        <div class="media_poll">\n\n'
        '         <div class="question bold">\nPicnic or museum?\n         </div>\n\n'
        '         <div class="details">\nAnonymous poll\n         </div>\n\n'
        '         <div class="answer">\n- Picnic\n         </div>\n\n'
        '         <div class="answer">\n- Museum\n         </div>\n\n'
        '         <div class="total details">\n3 votes\n         </div>\n\n        </div>\n\n       </div>\n'
    )
    page1 = (
        _tg_service(1, "5 May 2024")
        + _tg_message(11, "05.05.2024 10:00:00", "Olek Brandt", _tg_text("Morning! Are we still on for Sunday?"))
        + _tg_message(12, "05.05.2024 10:01:30", None, _tg_text("Bring the blue thermos<br>and the map"))
        + _tg_message(13, "05.05.2024 10:02:00", "Wren Hollis", photo + _tg_text("Found it in the attic"))
        + _tg_service(2, "6 May 2024")
        + _tg_message(14, "06.05.2024 19:40:00", "Olek Brandt", forwarded)
    )
    page2 = (
        _tg_service(3, "7 May 2024")
        + _tg_message(15, "07.05.2024 08:15:00", "Wren Hollis", poll)
        + _tg_message(16, "07.05.2024 08:16:00", "Olek Brandt", _tg_text("Museum, it will rain"))
    )
    (folder / "messages.html").write_text(_tg_page("Olek Brandt", page1), encoding="utf-8")
    (folder / "messages2.html").write_text(_tg_page("Olek Brandt", page2), encoding="utf-8")
    return folder


# Day One ---------------------------------------------------------------------------------

DAYONE = {
    "metadata": {"version": "1.0"},
    "entries": [
        {
            "uuid": "8C3F0E2A9B1D4C7E8F6A5B4C3D2E1F00",
            "creationDate": "2024-05-01T06:30:00Z",
            "modifiedDate": "2024-05-01T07:00:00Z",
            "timeZone": "Europe/Berlin",
            "creationDevice": "Kit's iPhone",
            "starred": False,
            "text": "# Ferry day\n\nTook the early ferry with Anouk\\. It was windy\\!\n\n"
            "![](dayone-moment://F00D1234ABCD5678)\n\nAnouk starts her new job at the bakery on Monday\\.",
            "photos": [{"identifier": "F00D1234ABCD5678", "md5": "0123456789abcdef", "type": "jpeg"}],
            "tags": ["travel"],
        },
        {
            "uuid": "1A2B3C4D5E6F708192A3B4C5D6E7F809",
            "creationDate": "2024-05-03T23:30:00Z",
            "timeZone": "America/New_York",
            "text": "Late call with my brother Idris about his move to Porto.",
        },
    ],
}


def dayone_zip(root: Path) -> Path:
    """The Day One "JSON" export: Journal.json beside photos/, zipped."""
    root.mkdir(parents=True, exist_ok=True)
    path = root / "Export-Journal.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("Journal.json", json.dumps(DAYONE, indent=2))
        archive.writestr("photos/0123456789abcdef.jpeg", PNG)
    return path


# Obsidian --------------------------------------------------------------------------------


def obsidian_vault(root: Path) -> Path:
    vault = root / "vault"
    (vault / "Daily").mkdir(parents=True)
    (vault / ".obsidian").mkdir()
    (vault / ".obsidian" / "app.json").write_text("{}")
    (vault / "attachments").mkdir()
    (vault / "attachments" / "Pasted image 20240501.png").write_bytes(PNG)
    (vault / "Daily" / "2024-05-01.md").write_text(
        "---\ntags: [daily]\n---\n# Wednesday\n\nLunch with Priya at the noodle bar.\n\n"
        "She is moving to Leeds in June.\n", encoding="utf-8"
    )
    (vault / "Daily" / "2024-05-02.md").write_text("Rained all day. Finished the puzzle.\n", encoding="utf-8")
    (vault / "Ideas.md").write_text("# Ideas\n\n- a shed for the bikes\n", encoding="utf-8")
    return vault


def zip_folder(folder: Path, target: Path, inside: str | None = None) -> Path:
    """Zip a folder as a phone or a desktop would: under its own name, or at the root (inside="")."""
    prefix = folder.name + "/" if inside is None else inside
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, prefix + path.relative_to(folder).as_posix())
    return target


# Facebook Messenger / Instagram ------------------------------------------------------------


def meta_mangle(text: str) -> str:
    """How Meta's JSON writes text: each UTF-8 byte as its own \\u00XX escape."""
    return text.encode("utf-8").decode("latin-1")


def messenger_thread(root: Path) -> Path:
    """messages/inbox/<thread>/message_1.json as "Download your information" (JSON) writes it."""
    thread = root / "your_facebook_activity" / "messages" / "inbox" / "zofiakrol_1234567890"
    thread.mkdir(parents=True)
    (thread / "photos").mkdir()
    (thread / "photos" / "448812_10159.jpg").write_bytes(PNG)
    doc = {
        "participants": [{"name": meta_mangle("Zofia Król")}, {"name": "Kit Moreau"}],
        "messages": [  # newest first, as Meta writes them
            {"sender_name": "Kit Moreau", "timestamp_ms": 1715080000000, "content": "Zofia reacted \u00e2\u009d\u00a4 "
             "to your message", "is_geoblocked_for_viewer": False},
            {"sender_name": meta_mangle("Zofia Król"), "timestamp_ms": 1715079000000,
             "photos": [{"uri": "your_facebook_activity/messages/inbox/zofiakrol_1234567890/photos/448812_10159.jpg",
                         "creation_timestamp": 1715079000}], "is_geoblocked_for_viewer": False},
            {"sender_name": "Kit Moreau", "timestamp_ms": 1715078000000, "content": "Kit unsent a message",
             "is_unsent": True, "is_geoblocked_for_viewer": False},
            {"sender_name": meta_mangle("Zofia Król"), "timestamp_ms": 1715000000000, "call_duration": 125,
             "content": "The call ended.", "is_geoblocked_for_viewer": False},
            {"sender_name": "Kit Moreau", "timestamp_ms": 1714990000000,
             "content": meta_mangle("Yes! Meet at the café on Żurawia 🙂"), "is_geoblocked_for_viewer": False},
            {"sender_name": meta_mangle("Zofia Król"), "timestamp_ms": 1714989000000,
             "content": meta_mangle("Are you in Kraków next weekend?"), "is_geoblocked_for_viewer": False},
        ],
        "title": meta_mangle("Zofia Król"),
        "is_still_participant": True,
        "thread_path": "inbox/zofiakrol_1234567890",
        "magic_words": [],
    }
    path = thread / "message_1.json"
    path.write_text(json.dumps(doc, indent=2), encoding="ascii")  # ensure_ascii: the \u00XX escapes
    return path


# DiscordChatExporter ---------------------------------------------------------------------


def discord_channel(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)

    def author(uid: str, name: str, nickname: str) -> dict[str, object]:
        return {"id": uid, "name": name, "discriminator": "0000", "nickname": nickname, "color": None,
                "isBot": False, "roles": [], "avatarUrl": "https://cdn.discordapp.com/embed/avatars/0.png"}

    def message(mid: str, kind: str, stamp: str, who: dict[str, object], content: str,
                attachments: list[dict[str, object]] | None = None, edited: str | None = None) -> dict[str, object]:
        return {"id": mid, "type": kind, "timestamp": stamp, "timestampEdited": edited, "callEndedTimestamp": None,
                "isPinned": False, "content": content, "author": who, "attachments": attachments or [],
                "embeds": [], "stickers": [], "reactions": [], "mentions": [], "inlineEmojis": []}

    noor = author("501", "noor.h", "Noor")
    tam = author("502", "tamsin_r", "Tam")
    doc = {
        "guild": {"id": "900", "name": "Allotment Friends", "iconUrl": "https://cdn.discordapp.com/icons/900/a.png"},
        "channel": {"id": "901", "type": "GuildTextChat", "categoryId": "902", "category": "Text Channels",
                    "name": "harvest", "topic": None},
        "dateRange": {"after": None, "before": None},
        "exportedAt": "2024-05-20T09:00:00.000+01:00",
        "messages": [
            message("1001", "GuildMemberJoin", "2024-05-04T08:00:00.000+01:00", tam, ""),
            message("1002", "Default", "2024-05-04T08:05:10.123+01:00", noor, "First courgettes are in!"),
            message("1003", "Reply", "2024-05-04T08:07:00.456+01:00", tam, "Save me two, I'll swap rhubarb",
                    edited="2024-05-04T08:09:00.000+01:00"),
            message("1004", "Default", "2024-05-05T19:30:00.000+01:00", noor, "",
                    [{"id": "77", "url": "https://cdn.discordapp.com/attachments/901/77/beds.jpg",
                      "fileName": "beds.jpg", "fileSizeBytes": 52311}]),
            message("1005", "ChannelPinnedMessage", "2024-05-05T19:31:00.000+01:00", noor, "Pinned a message."),
        ],
        "messageCount": 5,
    }
    path = root / "Allotment Friends - Text Channels - harvest [901].json"
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return path


# signal-export ---------------------------------------------------------------------------


def signal_chat(root: Path) -> Path:
    """One chat folder as sigexport writes it: data.json, chat.md, index.html, media/."""
    folder = root / "signal-out" / "Bea Lindqvist"
    (folder / "media").mkdir(parents=True)
    (folder / "media" / "2024-05-06T18-02-11.000_00_IMG_2231.jpg").write_bytes(PNG)

    def msg(date: str, sender: str, body: str, **extra: object) -> dict[str, object]:
        return {"date": date, "sender": sender, "body": body + "  ", "quote": "", "sticker": "", "reactions": [],
                "attachments": [], "deleted": False, "call": False, "missed": False, **extra}

    records = [
        msg("2024-05-06T18:00:00", "Bea Lindqvist", "Did you book the ferry to Gotland?"),
        msg("2024-05-06T18:01:30", "Me", "Yes, Friday 7am", quote="\n\n> Did you book the ferry?\n\n",
            reactions=[["Bea Lindqvist", "👍"]]),
        msg("2024-05-06T18:02:11", "Bea Lindqvist", "",
            attachments=[{"name": "2024-05-06T18-02-11.000_00_IMG_2231.jpg",
                          "path": "media/2024-05-06T18-02-11.000_00_IMG_2231.jpg"}]),
        msg("2024-05-07T09:00:00", "Me", "Outgoing voice call (accepted, 2m 5s)", call=True),
        msg("2024-05-07T09:10:00", "Bea Lindqvist", "", deleted=True),
    ]
    (folder / "data.json").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records),
                                      encoding="utf-8")
    (folder / "chat.md").write_text(
        "[2024-05-06 18:00:00] Bea Lindqvist: Did you book the ferry to Gotland?  \n\n"
        "[2024-05-06 18:01:30] Me: \n\n> Did you book the ferry?\n\nYes, Friday 7am  \n(- Bea Lindqvist: 👍 -)\n\n"
        "[2024-05-06 18:02:11] Bea Lindqvist:   ![2024-05-06T18-02-11.000_00_IMG_2231.jpg]"
        "(./media/2024-05-06T18-02-11.000_00_IMG_2231.jpg)  \n\n"
        "[2024-05-07 09:00:00] Me: Outgoing voice call (accepted, 2m 5s)  \n\n"
        "[2024-05-07 09:10:00] Bea Lindqvist: (This message was deleted)\n\n",
        encoding="utf-8",
    )
    (folder / "index.html").write_text("<html><body><div class='msg'>…</div></body></html>", encoding="utf-8")
    return folder


# imessage-exporter -----------------------------------------------------------------------

IMESSAGE_TXT = (
    "May 06, 2024  6:00:00 PM\n"
    "+15555550123\n"
    "Landed! Taxi line is huge\n"
    "\n"
    "May 06, 2024  6:02:45 PM (Read by them after 1 minute)\n"
    "Me\n"
    "Welcome back. Dinner at Rosa's at 8?\n"
    "Reactions:\n"
    "Loved by +15555550123\n"
    "\n"
    "May 06, 2024  6:05:10 PM\n"
    "+15555550123\n"
    "/Users/kit/Library/Messages/Attachments/4f/15/ABC123/IMG_4410.HEIC\n"
    "Perfect, see you there\n"
    "    May 06, 2024  6:06:00 PM\n"
    "    Me\n"
    "    Booked a table for two\n"
    "    This message responded to an earlier message.\n"
    "\n"
    "May 07, 2024  8:15:00 AM\n"
    "Me\n"
    "Thanks for last night\n"
    "Sent with Confetti\n"
    "\n"
)
