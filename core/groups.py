"""Which chat group a question asks the name of, read from the whole store, not from the retrieved turns.

A group's name is what its last naming record set ("created group "A"", then "changed the
group name from "A" to "B""): the retrieved turns may hold only an old one, so every naming
record of the chat is read, in time order. Only a question asking a name ("what is <group>
called now?", "what was the group called before?") is looked at. The group is one whose
whole name (then or now) the question says, the longest such name winning; "the group" when
the store holds exactly one group chat; or a description ("our chess club") that one chat
fits and no other source does: each of the description's words is scored in every chat,
and a chat is chosen only when at least half of them are said there by two members on two
days, no other chat passes, and it holds more of their mentions than any other source (a
diary about the club keeps the club the diary's). Anything else is no group known: an
answer about the wrong group is worse than none.
"""

from __future__ import annotations

import re
import weakref
from collections import Counter
from dataclasses import dataclass
from datetime import date

from memhop.core.language import group_events, lexical
from memhop.core.language.question import COLLECTIVE, is_possessive
from memhop.core.model import GroupView
from memhop.core.store import Store, chat_rows
from memhop.core.store.recall import Snapshot

_GENERIC = frozenset({"group", "chat", "whatsapp", "telegram", "old", "new", "little", "current", "own", "main"})
_OWNERS = r"(?:my|our|the|this)"
_NOT_A_MODIFIER = r"(?!(?:my|our|the|this|that|your|his|her|their|of|a|an|in|at|for|with|and|or|to|from)\b)"
# "the group", "our group chat", "my Sunday chess club": up to three words before the collective noun
_DESCRIBED = re.compile(
    rf"^{_OWNERS}\s+(?P<words>(?:{_NOT_A_MODIFIER}[a-z][\w'’-]*\s+){{0,3}}?)"
    rf"(?P<head>{'|'.join(sorted(COLLECTIVE))}|chat)(?:\s+chat)?$",
    re.I,
)
# What a question asks of a group: what it is called now, or what it was called before.
_NOW = r"(?:\s+(?:now|today|currently|these\s+days|nowadays))?"
_IS = r"what(?:['’]s|\s+is)\s+"
_CALLED = (
    re.compile(rf"^\s*{_IS}(?P<x>.+?)\s+(?:called|named){_NOW}\s*\??\s*$", re.I),  # "what is our team called now?"
    re.compile(rf"^\s*{_IS}the\s+(?:current\s+)?name\s+of\s+(?P<x>.+?){_NOW}\s*\??\s*$", re.I),
    re.compile(rf"^\s*{_IS}(?P<x>.+?)['’]s\s+(?:current\s+)?name{_NOW}\s*\??\s*$", re.I),
)
_BEFORE = (
    re.compile(r"^\s*what\s+was\s+(?P<x>.+?)\s+(?:called|named)\s+(?:before|first|originally|at\s+first)\s*\??\s*$", re.I),
    re.compile(r"^\s*what\s+was\s+(?P<x>.+?)['’]s\s+(?:old|previous|former|first|original)\s+name\s*\??\s*$", re.I),
    re.compile(r"^\s*what\s+was\s+the\s+(?:old|previous|former|first|original)\s+name\s+of\s+(?P<x>.+?)\s*\??\s*$", re.I),
)
_MAY_ASK = re.compile(r"\bcalled\b|\bnamed\b|\bname\b", re.I)  # the store is read for no other question
_MEMBERS_WHO_SAY = 2  # a description's word is the group's talk only when this many members say it...
_DAYS_SAID = 2  # ...on this many days (one evening's exchange is not the group's topic)
_CHAT_PEOPLE = 3  # a source where this many people speak is a group chat, records or not
_TRAILING = re.compile(r"[\s\W_]+$")  # emoji and marks after a name: "Otters 🦦"


@dataclass(frozen=True)
class _Chat:
    source: int
    namings: tuple[tuple[int, str | None, str], ...]  # (record turn id, name before, name it set), in time order
    names: tuple[str, ...]  # every name it had, the first first
    speakers: frozenset[str]


def asked_group(store: Store, snap: Snapshot, question: str) -> GroupView | None:
    """The group whose name (now or before) the question asks, with the name and the record
    it is read from; a view with no name when the question asks a chat group's former name
    and none can be given (so nothing else answers it); None for any other question."""
    asked = _asks(question)
    if asked is None:
        return None
    kind, said = asked
    chats = _chats(store, snap)
    found = (_named(said, chats) or _described(store, said, chats)) if chats else None
    if found is None:
        return _unknown(said) if kind == "before" else None
    chat = found
    record = chat.namings[-1] if chat.namings else None
    if kind == "now":
        name = name_now(record[2]) if record else None
    else:  # before: the name the last renaming replaced, read from that record
        name = name_now(record[1]) if record and record[1] else None
    return GroupView(name=name, named_by=record[0] if record and name else None)


def _asks(question: str) -> tuple[str, str] | None:
    """("now" or "before", the words naming what is asked about) for a question asking a
    name; None for any other."""
    if not _MAY_ASK.search(question):
        return None
    for kind, patterns in (("now", _CALLED), ("before", _BEFORE)):
        for pattern in patterns:
            match = pattern.match(question)
            if match:
                return kind, " ".join(match["x"].split())
    return None


def _unknown(said: str) -> GroupView | None:
    """ "What was the group called before?" with no group or no former name known: refused
    (the generic answer would read out the raw "created group" record)."""
    described = _DESCRIBED.match(said)
    plain = described is not None and described["head"].lower() in ("group", "chat")
    return GroupView(name=None, named_by=None) if plain else None


def _named(said: str, chats: list[_Chat]) -> _Chat | None:
    """The group whose whole name (now or before) is what the question asks about; a name
    inside a longer one said ("Otters" in "Brainy Otters") is not said."""
    low = said.lower()
    spans = [
        (m.start(), m.end(), c) for c in chats for n in c.names
        for m in re.finditer(rf"(?<!\w){re.escape(n.lower())}(?!\w)", low)
    ]
    whole = [s for s in spans if not any(o[0] <= s[0] and s[1] <= o[1] and o[1] - o[0] > s[1] - s[0] for o in spans)]
    if len({c.source for _, _, c in whole}) != 1:
        return None  # none, or two groups had that name
    start, end, chat = max(whole, key=lambda s: s[1] - s[0])
    if low[end:].strip() or (low[:start].strip() not in ("", "the") and not _FORMERLY.fullmatch(low[:start])):
        return None  # "the Otters' captain": the name is not all that is asked about
    return chat


# "the chess club that used to be called Board Mondays": the group, by a name it had
_FORMERLY = re.compile(
    r"\s*(?:the\s+|our\s+|my\s+)?(?:[\w-]+\s+){0,3}?(?:that|which)\s+(?:used\s+to\s+be|was(?:\s+once)?|were)\s+"
    r"(?:called|named)\s+"
)


def _described(store: Store, said: str, chats: list[_Chat]) -> _Chat | None:
    """The one group "the group" or a description ("our chess club") fits."""
    described = _DESCRIBED.match(said)
    if described is None:
        return None
    if any(is_possessive(w) for w in described["words"].split()):
        return None  # "my brother's quiz team" is his, not a chat of mine
    words = [w for w in described["words"].lower().split() if w not in lexical.STOPWORDS and w not in _GENERIC]
    if not words:  # "the group", "our group chat": only when there is one
        one = described["head"].lower() in ("group", "chat") and len(chats) == 1
        return chats[0] if one else None
    mentions: Counter[int] = Counter()  # source -> mentions of the words
    passed: Counter[int] = Counter()  # chat source -> words its members talk of
    members = {c.source: c.speakers for c in chats}
    for word in words:
        who: dict[int, set[str]] = {}
        when: dict[int, set[date]] = {}
        for source, speaker, day in _mentions(store, word):
            mentions[source] += 1
            if speaker is not None and speaker in members.get(source, ()):
                who.setdefault(source, set()).add(speaker)
                if day is not None:
                    when.setdefault(source, set()).add(day)
        for source in who:
            if len(who[source]) >= _MEMBERS_WHO_SAY and len(when.get(source, ())) >= _DAYS_SAID:
                passed[source] += 1
    fits = [s for s, n in passed.items() if 2 * n >= len(words)]
    if len(fits) != 1:
        return None  # none, or two chats talk of it
    chat = next(c for c in chats if c.source == fits[0])
    if any(n >= mentions[chat.source] for s, n in mentions.items() if s != chat.source):
        return None  # another source (a diary, a 1:1 chat) talks of it as much: the group may be its
    return chat


def _mentions(store: Store, word: str) -> list[tuple[int, str | None, date | None]]:
    """(source, speaker, day) of every message that says the word (or its plural), group
    records left out."""
    one = lexical.singular(word)
    rows = chat_rows.saying(store, one[:4])
    return [
        (source, speaker, day) for source, speaker, day, text in rows
        if not group_events.is_record(text, speaker) for w in lexical.words(text) if lexical.singular(w) == one
    ]


def name_now(name: str) -> str:
    """A group name as an answer: without the emoji or marks it may end with."""
    return _TRAILING.sub("", name) or name


# store path -> (the snapshot it was read at, its group chats): a new snapshot is a changed store
_CHATS: dict[str, tuple[weakref.ref[Snapshot], list[_Chat]]] = {}


def _chats(store: Store, snap: Snapshot) -> list[_Chat]:
    """Every group chat in the store, read once per store generation (its snapshot)."""
    key = str(store.path.resolve())
    hit = _CHATS.get(key)
    if hit is not None and hit[0]() is snap:
        return hit[1]
    chats = _read_chats(store)
    _CHATS[key] = (weakref.ref(snap), chats)
    return chats


def _read_chats(store: Store) -> list[_Chat]:
    """A source with a group-event record of its own, or one where at least three people speak."""
    speakers: dict[int, set[str]] = {}
    for source, speaker in chat_rows.speakers_by_source(store):
        speakers.setdefault(source, set()).add(speaker)
    records = chat_rows.group_record_candidates(store)
    namings: dict[int, list[tuple[int, str | None, str]]] = {}
    grouped: set[int] = set()
    for source, turn, speaker, text in records:
        if group_events.is_record(text, speaker):
            grouped.add(source)
            namings.setdefault(source, []).extend((turn, old, new) for old, new in group_events.names(text))
    chats = []
    for source in sorted(speakers):
        if source not in grouped and len(speakers[source]) < _CHAT_PEOPLE:
            continue
        named = namings.get(source, [])
        names = [n for _, old, new in named for n in (old, new) if n]
        chats.append(_Chat(
            source, tuple(named), tuple(dict.fromkeys([*names, *map(name_now, names)])), frozenset(speakers[source]),
        ))
    return chats
