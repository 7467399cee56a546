"""How a chat's records word the group's own events: created as "A", renamed from "A" to
"B", someone added, removed, left, joined by the invite link.

One wording for both sides: the importers keep such lines (WhatsApp's own; Telegram's
entries put in the same words, importers/_util) and the answerer reads names and dates out
of them (engines/offline/group_records), so the two cannot drift apart. Each pattern is the
words after the actor's name. English only: the entity reader and the answerer read
English, and a kept "Pia hat die Gruppe verlassen" made "Gruppe" a person.
"""

from __future__ import annotations

import re

_OPEN, _CLOSE = "\"“„«", "\"”“»"


def quoted(group: str) -> str:
    """A group name as the apps quote it, captured as `group`: "A", “A”, „A“, «A»."""
    return rf"[{_OPEN}](?P<{group}>[^\n{_OPEN}{_CLOSE}]+)[{_CLOSE}]"


# "created group "A""; "created this group" names none.
CREATED = rf"created (?:this )?group(?: {quoted('name')})?"
# "changed the subject from "A" to "B"", "changed the group name to "B"".
RENAMED = rf"changed the (?:subject|group name) (?:from {quoted('old')} )?to {quoted('new')}"
# "added Tomas": never an app object ("added a description").
_NOT_PERSON = r"(?!(?:a|an|the|this) )"
ADDED = rf"added {_NOT_PERSON}(?P<who>[^\n]+?)"
REMOVED = rf"removed {_NOT_PERSON}(?P<who>[^\n]+?)"
LEFT = r"left"
JOINED = r"joined (?:using (?:this group['’]s|this community['’]s|a group|your) (?:invite )?link|the group)"
NAMING = re.compile(rf"\b(?:{CREATED}|{RENAMED})", re.I)


def names(text: str) -> list[tuple[str | None, str]]:
    """(old name or None, new name) of every naming the text records, in order: a group
    created as "A" is (None, "A"); created without a name gives nothing."""
    found: list[tuple[str | None, str]] = []
    for match in NAMING.finditer(text):
        new = match["new"] or match["name"]
        if new:
            found.append((match["old"], new.strip()))
    return found
