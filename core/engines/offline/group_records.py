"""Questions about a chat group itself, answered from the records of its events.

A chat keeps the group's creation, renames and members' comings and goings as statements
of the person who acted (language/group_events): "Oona Kettle changed the group name from "A"
to "B"", "Lasse left". Each is the app's record of the moment, so its turn's time is
when it happened (a statement such as "I left the club" only says it was before then).
- "What was the group called before?": the old name of the latest rename; "what is the group
  called (now)?": its latest name; "what was it first called?": its earliest.
- "When was the group created / renamed?", "when did Lasse leave / join the group?": the
  day of that record.
The names answer only when the namings found link into one history (each rename starts
from the name before it), and a date only when one record fits: two groups' records would
answer for either, so they answer nothing here, and the question goes to the usual reader.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memhop.core.language.dates import format_day
from memhop.core.language.group_events import CREATED, JOINED, LEFT, RENAMED, names
from memhop.core.model import TurnView

_GROUP = r"(?:the|our|my|this|that)\s+(?:[\w-]+\s+){0,2}?(?:group|chat)"
_NAME_ASKED = re.compile(
    rf"^what(?P<tense>\s+is|['’]s|\s+was)\s+{_GROUP}(?:\s+(?P<adverb>first|originally))?"
    r"(?:['’]s\s+name|\s+called|\s+named)(?:\s+(?P<when>before|previously|now|first|originally|at first|these days))?"
    r"\s*\??$",
    re.I,
)
_WHEN_GROUP = re.compile(
    rf"^when\s+(?:was\s+{_GROUP}\s+(?P<passive>created|renamed|started|set up)"
    rf"|did\s+(?P<doer>[\w'’-]+(?:\s+[\w'’-]+)?)\s+(?P<active>create|rename|start|set up)\s+{_GROUP})\s*\??$",
    re.I,
)
# The name as written, capitalised: "when did lasse leave" is read as any question is.
_WHEN_MEMBER = re.compile(rf"^(?i:when\s+did)\s+(?P<who>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?)\s+(?i:(?P<verb>leave|join)"
                          rf"(?:\s+{_GROUP})?)\s*\??$")
_BEFORE, _FIRST = ("before", "previously"), ("first", "originally", "at first")
_MADE = {"created": CREATED, "create": CREATED, "started": CREATED, "start": CREATED, "set up": CREATED,
         "renamed": RENAMED, "rename": RENAMED}


def answer(question: str, evidence: Sequence[TurnView]) -> tuple[str, str] | None:
    """(answer, the record it was read from) for a question about the group itself, or
    None when the question asks no such thing or the records do not tell one answer."""
    text = question.strip()
    turns = sorted((t for t in evidence if t.timestamp is not None), key=lambda t: t.timestamp or 0)
    if asked := _NAME_ASKED.match(text):
        return _name(asked, turns)
    if asked := _WHEN_GROUP.match(text):
        kind = _MADE[(asked["passive"] or asked["active"]).lower()]
        records = _records(turns, kind)
        if asked["doer"]:  # "when did Oona rename the group?": Oona's renames only
            records = _by(records, asked["doer"])
        if kind is RENAMED and not _one_history(_history(turns)):
            return None
        return _dated(records, last=kind is RENAMED)
    if asked := _WHEN_MEMBER.match(text):
        kind = LEFT if asked["verb"].lower() == "leave" else JOINED
        return _dated(_by(_records(turns, kind), asked["who"]))
    return None


def _by(records: list[TurnView], name: str) -> list[TurnView]:
    """The records of the person the question names, by their full name or its first words."""
    words = name.lower().split()
    return [t for t in records if t.speaker.lower().split()[: len(words)] == words]


def _records(turns: list[TurnView], kind: str) -> list[TurnView]:
    """The turns that are a record of that kind: the actor, who is the speaker, then the
    app's words and nothing else ("Lasse left"; not "Lasse's sister left")."""
    return [t for t in turns if re.fullmatch(rf"{re.escape(t.speaker)} {kind}", t.text.strip(), re.I)]


def _name(asked: re.Match[str], turns: list[TurnView]) -> tuple[str, str] | None:
    when = (asked["when"] or asked["adverb"] or "").lower()
    past = asked["tense"].strip().lower() == "was"
    if past and not when:
        return None  # "what was the group called?": at which time is not said
    history = _history(turns)
    if not history or not _one_history(history):
        return None
    if when in _BEFORE:
        renamed = [(old, text) for old, _, text in history if old]
        return renamed[-1] if renamed else None
    if when in _FIRST:
        old, new, text = history[0]
        return old or new, text
    return None if past else (history[-1][1], history[-1][2])


def _dated(records: list[TurnView], last: bool = False) -> tuple[str, str] | None:
    """The day of the one record (of the latest, for a rename: "when was it renamed?" asks
    of the name it has); None for none, or for several that are no one history."""
    if not records or (len(records) > 1 and not last):
        return None
    found = records[-1]
    return (format_day(found.timestamp.date()), found.text) if found.timestamp else None


def _history(turns: list[TurnView]) -> list[tuple[str | None, str, str]]:
    """(old name, new name, record) of every naming recorded, oldest first."""
    return [(old, new, turn.text) for turn in _records(turns, f"(?:{CREATED}|{RENAMED})")
            for old, new in names(turn.text)]


def _one_history(history: list[tuple[str | None, str, str]]) -> bool:
    """Every naming after the first starts from the name the one before it gave (a second
    "created" or a rename from an unknown name may be another group's)."""
    return all((old or "").lower() == before.lower() or (old is None and new.lower() == before.lower())
               for (_, before, _), (old, new, _) in zip(history, history[1:]))
