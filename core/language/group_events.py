"""How a chat's records word the group's own events: created as "A", renamed from "A" to
"B", someone added, removed, left, joined by the invite link.

One wording, in one place: WhatsApp writes these lines itself (importers/whatsapp_events
reads them with the patterns below), Telegram's entries only name the action and are put
into the same words by the builders below, and the chat's name as last set is read back out
of either with names(). Each pattern is the words after the actor's name. English only: the
entity reader reads English, and a kept "Dagny hat die Runde verlassen" made "Runde" a person.
"""

from __future__ import annotations

import re

_PAIRS = (("\"", "\""), ("“", "”"), ("«", "»"), ("„", "“"))
_OPEN, _CLOSE = "".join(p[0] for p in _PAIRS), "".join(p[1] for p in _PAIRS)
QUOTE_MARKS = "".join(sorted(set(_OPEN + _CLOSE)))  # every mark a group name may be quoted in


def quoted(group: str, last: bool = False) -> str:
    """A group name as the apps quote it, captured as `group`: "A", “A”, „A“, «A». A name
    may hold quotes itself (`Tandem “2024”`), so the name runs to the closing mark that the
    pattern's next words follow; `last` is the name the line ends with (its last mark)."""
    return rf"[{_OPEN}](?P<{group}>[^\n]+{'' if last else '?'})[{_CLOSE}]"


# "created group "A""; "created this group" names none.
CREATED = rf"created (?:this )?group(?: {quoted('name', last=True)})?"
# "changed the subject from "A" to "B"", "changed the group name to "B"".
RENAMED = rf"changed the (?:subject|group name) (?:from {quoted('old')} )?to {quoted('new', last=True)}"
# "added Ivo": never an app object ("added a description", "removed their phone number"),
# and never a colon: "Mara added Ottoline: welcome" is a message by a contact saved as "Mara added Ottoline".
_NOT_PERSON = r"(?!(?:a|an|the|this|their|his|her) )"
ADDED = rf"added {_NOT_PERSON}(?P<who>[^\n:]+?)"
REMOVED = rf"removed {_NOT_PERSON}(?P<who>[^\n:]+?)"
LEFT = r"left"
JOINED = r"joined (?:using (?:this group['’]s|this community['’]s|a group|your) (?:invite )?link|the group)"
_NAMING = re.compile(rf"(?:{CREATED}|{RENAMED})$", re.I)
_EVENTS = tuple(re.compile(kind, re.I) for kind in (CREATED, RENAMED, ADDED, REMOVED, LEFT, JOINED))


def names(statement: str) -> list[tuple[str | None, str]]:
    """(old name or None, new name) of the naming a group-event statement records: a group
    created as "A" is (None, "A"); created without a name, or any other event, gives none."""
    match = _NAMING.search(statement.strip())
    new = match and (match["new"] or match["name"])
    return [(match["old"], new.strip())] if match and new else []


def is_record(text: str, actor: str | None) -> bool:
    """Whether a sentence is worded as a group-event record of `actor` ("Lasse left"; not
    "Lasse's sister left"). The wording alone: a member may type the same words."""
    text = text.strip().removesuffix(".")
    if not actor or not text.lower().startswith(actor.lower() + " "):
        return False
    return any(kind.fullmatch(text, len(actor) + 1) for kind in _EVENTS)


def _quote(name: str) -> str:
    """The name in the first pair of marks it does not hold itself, so it reads back whole."""
    left, right = next((p for p in _PAIRS if p[0] not in name and p[1] not in name), _PAIRS[0])
    return f"{left}{name}{right}"


def group_created(actor: str, title: str | None) -> str:
    """ "Oona created group "A"", or "Oona created the group" when the name is not known."""
    return f"{actor} created group {_quote(title)}" if title else f"{actor} created the group"


def group_renamed(actor: str, title: str, before: str | None) -> str:
    """ "Oona changed the group name from "A" to "B"": the old name only when known."""
    old = f"from {_quote(before)} " if before and before != title else ""
    return f"{actor} changed the group name {old}to {_quote(title)}"


def members_added(actor: str, members: list[str]) -> str:
    """Someone adding only themselves joined: "Lasse joined the group", not "Lasse added Lasse"."""
    if not members or members == [actor]:
        return f"{actor} joined the group"
    return f"{actor} added {_listed(members)}"


def members_removed(actor: str, members: list[str]) -> str:
    """Someone removing only themselves left: "Lasse left"."""
    if not members or members == [actor]:
        return f"{actor} left"
    return f"{actor} removed {_listed(members)}"


def joined_by_link(actor: str) -> str:
    """ "Lasse joined using this group's invite link", as WhatsApp words it."""
    return f"{actor} joined using this group's invite link"


def _listed(people: list[str]) -> str:
    return people[0] if len(people) == 1 else f"{', '.join(people[:-1])} and {people[-1]}"
