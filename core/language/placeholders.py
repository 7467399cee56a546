"""Stand-ins for what is not speech in a chat: shared media, app notices, unsaved contacts.

Importers write a placeholder as a line of its own, "[image omitted]" or "[attached:
NAME]", so a turn keeps the fact that something was shared; readers mask those lines
(offsets kept) so no name or fact is ever mined from a file name or an app's wording.
A sender the phone had no name for is a stable label ("unsaved contact …0456"), never
an entity named by its digits.
"""

from __future__ import annotations

import re

# The kinds importers write; a bracketed line starting with one of them is a placeholder.
KINDS = (
    "media",
    "image",
    "photo",
    "video message",
    "video",
    "audio",
    "voice message",
    "sticker",
    "gif",
    "document",
    "contact card",
    "file",
    "attached",
    "location",
    "poll",
)
_LINE = re.compile(
    r"^[ \t]*\[(?:" + "|".join(re.escape(k) for k in KINDS) + r")\b[^\[\]\n]{0,200}\][ \t]*$", re.I | re.M
)
UNSAVED = "unsaved contact"
# "+44 7700 900456", "+1 (555) 010-9999", "07700 900456": digits with phone punctuation only.
_PHONE = re.compile(r"^\+?[\d\s().\-\u00a0\u202f]{7,}$")


def placeholder(kind: str, detail: str = "") -> str:
    """The marker line for something shared: "[image omitted]", "[attached: a.jpg]"."""
    low = kind.lower()
    if low not in KINDS and not any(low.startswith(f"{k} ") for k in KINDS):
        raise ValueError(f"unknown placeholder kind {kind!r}")
    return f"[{kind}: {detail}]" if detail else f"[{kind}]"


def is_placeholder(line: str) -> bool:
    return _LINE.match(line) is not None


def mask(text: str) -> str:
    """The text with placeholder lines blanked: same length, so offsets still point home."""
    return _LINE.sub(lambda m: " " * len(m.group(0)), text)


def is_phone_number(name: str) -> bool:
    digits = sum(c.isdigit() for c in name)
    return _PHONE.match(name.strip()) is not None and 7 <= digits <= 15


def unsaved_contact(number: str) -> str:
    """A stable label for a sender known only by a phone number: its last four digits."""
    digits = "".join(c for c in number if c.isdigit())
    return f"{UNSAVED} …{digits[-4:]}"


def is_unnamed(speaker: str) -> bool:
    """A speaker with no name: an unsaved contact's label, or a bare phone number."""
    text = speaker.strip()
    return text.lower().startswith(f"{UNSAVED} …") or is_phone_number(text)
