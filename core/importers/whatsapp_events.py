"""WhatsApp's system lines about the group itself, kept as statements by the person who acted.

Who created the group and when, what it was called and since when, who added whom, who
left or was removed, who joined by the invite link: these are events of the user's life,
so each such line becomes a turn whose speaker is the actor and whose text is the line's
own words, starting with the actor's name ("Oona Kettle added Lasse", "Lasse left"). The
phone's owner appears as "You": their name is put in its place when it is known (--self),
else "You" stays as the app wrote it. iOS sometimes leaves the creator out of the text and
names them as the sender ("Oona Kettle: created group …"); the sender is then put in
front, unless the sender is the chat itself (iOS files its notices under the chat's name).
A line is an event only by its whole shape: an actor never holds a colon, so "Lowri (added
at gym): Ivo left" is Lowri's message. English wording only (see language/group_events): a
line in another language stays skipped, as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memhop.core.language.group_events import ADDED, CREATED, JOINED, LEFT, REMOVED, RENAMED

# The actor: a name, never a colon (that is a sender's mark), a quoted group name or a second line.
_A = r"(?P<actor>[^\n:\"“”„]{1,80}?)"
_KINDS = tuple(re.compile(rf"^{_A} {kind}$", re.I) for kind in (CREATED, RENAMED, ADDED, REMOVED, LEFT, JOINED))
_CREATED_ALONE = re.compile(rf"^{CREATED}$", re.I)  # iOS: the creator only as the line's sender
_LISTED = re.compile(r"(,\s*|\s+and\s+)")  # "added Mara, Ottoline and +44 7700 900456"
_SELF = "you"  # the phone's owner, as subject or object


def group_event(
    line: str, sender: str | None, owner: str | None, name: Callable[[str], str] = str.strip, chat: str | None = None
) -> tuple[str, str] | None:
    """(actor, statement) of a membership or group-name line; None for any other line. `name`
    is how the export's other senders read (an unsaved number as its stable label); `chat`
    is the chat's own name, never an actor."""
    text = line.strip().removesuffix(".")
    match = _match(text)
    if match is None and sender and sender != chat and _CREATED_ALONE.match(text):
        text = f"{sender} {text}"  # iOS: "Oona Kettle: ‎created group …"
        match = _match(text)
    if match is None:
        return None
    actor, rest = match["actor"].strip(), text[match.end("actor"):]
    if who := match.groupdict().get("who"):
        start, end = match.span("who")
        listed = "".join(part if i % 2 else _person(part, owner, name) for i, part in enumerate(_LISTED.split(who)))
        rest = text[match.end("actor"):start] + listed + text[end:]
    if actor.lower() != _SELF:
        return name(actor), name(actor) + rest
    return (owner, owner + rest) if owner else ("You", actor + rest)


def _person(who: str, owner: str | None, name: Callable[[str], str]) -> str:
    """One added or removed member as the export's senders read: "you" as the owner when known."""
    return owner if owner and who.strip().lower() == _SELF else (name(who) or who)


def _match(text: str) -> re.Match[str] | None:
    return next((m for kind in _KINDS if (m := kind.match(text))), None)
