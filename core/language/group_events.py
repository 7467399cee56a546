"""How a chat's records word the group's own events: created as "A", renamed from "A" to
"B", someone added, removed, left, joined by the invite link.

One wording for both sides: the importers keep such lines (WhatsApp's own, English or
German; Telegram's entries put in the same English, importers/_util) and the answerer reads
names and dates out of them (engines/offline/group_records), so the two cannot drift apart.
Each pattern is the words after the actor's name.
"""

from __future__ import annotations

import re

_OPEN, _CLOSE = "\"“„«", "\"”“»"


def quoted(group: str) -> str:
    """A group name as the apps quote it, captured as `group`: "A", “A”, „A“, «A»."""
    return rf"[{_OPEN}](?P<{group}>[^\n{_OPEN}{_CLOSE}]+)[{_CLOSE}]"


# "created group "A"", "hat die Gruppe „A“ erstellt"; "created this group" names none.
CREATED = rf"(?:created (?:this )?group(?: {quoted('name')})?|ha(?:t|st) die Gruppe {quoted('name_de')} erstellt)"
# "changed the subject from "A" to "B"", "changed the group name to "B"", "hat den Betreff von „A“ zu „B“ geändert".
RENAMED = (
    rf"(?:changed the (?:subject|group name) (?:from {quoted('old')} )?to {quoted('new')}"
    rf"|ha(?:t|st) (?:den Betreff|den Gruppennamen) (?:von {quoted('old_de')} )?(?:zu|in) {quoted('new_de')} geändert)"
)
# "added Tomas", "hat Tomas hinzugefügt": never an app object ("added a description").
_NOT_PERSON = r"(?!(?:a|an|the|this|die|das|den|der|diese[nrs]?) )"
ADDED = rf"(?:added {_NOT_PERSON}(?P<who>[^\n]+?)|ha(?:t|st) {_NOT_PERSON}(?P<who_de>[^\n]+?) hinzugefügt)"
REMOVED = rf"(?:removed {_NOT_PERSON}(?P<who>[^\n]+?)|ha(?:t|st) {_NOT_PERSON}(?P<who_de>[^\n]+?) entfernt)"
LEFT = r"(?:left|ha(?:t|st) die Gruppe verlassen)"
JOINED = (
    r"(?:joined using (?:this group['’]s|this community['’]s|a group|your) (?:invite )?link|joined the group"
    r"|(?:ist|bist) (?:der Gruppe )?über den Einladungslink (?:dieser Gruppe )?beigetreten)"
)
NAMING = re.compile(rf"\b(?:{CREATED}|{RENAMED})", re.I)


def names(text: str) -> list[tuple[str | None, str]]:
    """(old name or None, new name) of every naming the text records, in order: a group
    created as "A" is (None, "A"); created without a name gives nothing."""
    found: list[tuple[str | None, str]] = []
    for match in NAMING.finditer(text):
        new = match["new"] or match["new_de"] or match["name"] or match["name_de"]
        if new:
            found.append((match["old"] or match["old_de"], new.strip()))
    return found
