"""Which chat group a question is about, read from the whole store, not from the retrieved turns.

A group's name is what its last naming record set ("created group "A"", then "changed the
group name from "A" to "B""): the retrieved turns may hold only an old one, so every naming
record of the chat is read, in time order. A question is about a group when it names one of
its names (then or now); when it says "the group" (or "our group chat") and the store holds
exactly one group chat; or when it describes it ("our chess club") and exactly one group's
members talk of what the description names: each of its distinctive words said by at least
two different members (one member's aside is not the group's topic). Anything else is no
group known: an answer about the wrong group is worse than none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, timedelta

from memhop.core.language import group_events, lexical
from memhop.core.language.periods import stated_period
from memhop.core.language.question import COLLECTIVE
from memhop.core.model import GroupView
from memhop.core.store import Store

_GENERIC = frozenset({"group", "chat", "whatsapp", "telegram", "old", "new", "little", "current", "own", "main"})
_OWNERS = r"(?:my|our|the|this)"
_NOT_A_MODIFIER = r"(?!(?:my|our|the|this|that|your|his|her|their|of|a|an|in|at|for|with|and|or|to|from)\b)"
# "the group", "our group chat", "my pub quiz team": up to three words before the collective noun
_DESCRIBED = re.compile(
    rf"\b{_OWNERS}\s+(?P<words>(?:{_NOT_A_MODIFIER}[a-z][\w'’-]*\s+){{0,3}}?)"
    rf"(?P<head>{'|'.join(sorted(COLLECTIVE))}|chat)(?:\s+chat)?\b",
    re.I,
)
# What a question asks of a group: what it is called now, or how many times it did something.
_NOW = r"(?:\s+(?:now|today|currently|these\s+days|nowadays))?"
_IS = r"what(?:['’]s|\s+is)\s+"
_CALLED = (
    re.compile(rf"^\s*{_IS}(?P<x>.+?)\s+called{_NOW}\s*\??\s*$", re.I),  # "what is our team called now?"
    re.compile(rf"^\s*{_IS}the\s+(?:current\s+)?name\s+of\s+(?P<x>.+?){_NOW}\s*\??\s*$", re.I),
    re.compile(rf"^\s*{_IS}(?P<x>.+?)['’]s\s+(?:current\s+)?name{_NOW}\s*\??\s*$", re.I),
)
_MAY_ASK = re.compile(r"\bcalled\b|\bname\b|\bhow\s+many\b", re.I)  # the store is read for no other question
_MEMBERS_WHO_SAY = 2  # a description's word is the group's topic only when this many members say it
_CHAT_PEOPLE = 3  # a source where this many people speak is a group chat, records or not
GROUP_TURNS = 300  # a count reads at most this many of a group's turns; more, and it is not made
_TOLD_LATER = timedelta(days=7)  # "we won last Tuesday" is told up to a week after the period
_TRAILING = re.compile(r"[\s\W_]+$")  # emoji and marks after a name: "Otters 🦦"


@dataclass(frozen=True)
class _Chat:
    source: int
    namings: tuple[tuple[int, str], ...]  # (record turn id, name it set), in time order
    names: tuple[str, ...]  # every name it had, the first first
    speakers: frozenset[str]
    sessions: frozenset[int]


def asked_group(store: Store, question: str, today: date) -> GroupView | None:
    """The group the question asks the name of, or a count of what it did, with the words
    that name it; None for any other question, or when which group is meant is not known."""
    if not _MAY_ASK.search(question):
        return None
    chats = _chats(store)
    found = _named(question, chats) or _described(store, question, chats) if chats else None
    if found is None:
        return None
    chat, called = found
    asked = _asks(question, called)
    if asked is None:
        return None
    last = chat.namings[-1] if chat.namings else None
    view = GroupView(
        called=called, asked=asked, name=name_now(last[1]) if last else None, named_by=last[0] if last else None,
        names=chat.names, members=chat.speakers, sessions=chat.sessions,
    )
    return _with_turns(store, view, question, today) if asked == "count" else view


def _named(question: str, chats: list[_Chat]) -> tuple[_Chat, str] | None:
    """The group whose name (now or before) the question says, as it says it."""
    low = question.lower()
    named = [(c, n) for c in chats for n in c.names if re.search(rf"(?<!\w){re.escape(n.lower())}(?!\w)", low)]
    if len({c.source for c, _ in named}) != 1:
        return None  # none, or two groups had that name
    chat, name = max(named, key=lambda cn: len(cn[1]))
    at = low.find(name.lower())
    return chat, question[at : at + len(name)]


def _described(store: Store, question: str, chats: list[_Chat]) -> tuple[_Chat, str] | None:
    """The one group "the group" or a description ("our quiz team") fits, and those words."""
    described = _DESCRIBED.search(question)
    if described is None:
        return None
    words = [w for w in described["words"].lower().split() if w not in lexical.STOPWORDS and w not in _GENERIC]
    if not words:  # "the group", "our group chat": only when there is one
        one = described["head"].lower() in ("group", "chat") and len(chats) == 1
        return (chats[0], described.group(0)) if one else None
    fits = [c for c in chats if all(_said_by_members(store, c, w) for w in words)]
    return (fits[0], described.group(0)) if len(fits) == 1 else None


def _asks(question: str, called: str) -> str | None:
    """ "name": the question asks what `called` is called now; "count": how many times
    `called` did something ("how many times did <called> win?"); None: neither."""
    said = " ".join(called.lower().split())
    if any((m := p.match(question)) and " ".join(m["x"].lower().split()) == said for p in _CALLED):
        return "name"
    counted = rf"\bhow\s+many\b.*?\b(?:did|do|does|has|have)\s+{re.escape(called)}\s+[a-z]"
    return "count" if re.search(counted, question, re.I) else None


def _with_turns(store: Store, group: GroupView, question: str, today: date) -> GroupView:
    """For a count ("how many times did <group> win in 2024?"): every turn its members said in
    the period asked about (all time when it names none), so what the group did is counted
    from all it said, not from the few turns retrieval picked; too many, and none."""
    period = stated_period(question, today)
    first = period.first if period and period.first else date.min
    last = period.last + _TOLD_LATER if period and period.last and period.last < date.max - _TOLD_LATER else date.max
    rows = store.con.execute(
        "SELECT id, speaker, text FROM turns WHERE list_contains(?, session_id) "
        "AND (ts IS NULL OR (CAST(ts AS DATE) >= ? AND CAST(ts AS DATE) <= ?)) ORDER BY ts, session_id, position LIMIT ?",
        [sorted(group.sessions), first, last, GROUP_TURNS + 1],
    ).fetchall()
    said = [t for t, speaker, text in rows if speaker in group.members and not group_events.is_record(text, speaker)]
    complete = len(rows) <= GROUP_TURNS
    return replace(group, turns=frozenset(said) if complete else frozenset(), complete=complete)


def name_now(name: str) -> str:
    """A group name as an answer: without the emoji or marks it may end with."""
    return _TRAILING.sub("", name) or name


def _chats(store: Store) -> list[_Chat]:
    """Every group chat in the store: a source with a group-event record of its own, or one
    where at least three people speak."""
    rows = store.con.execute(
        "SELECT s.source_id, t.session_id, t.speaker FROM turns t JOIN sessions s ON s.id = t.session_id "
        "GROUP BY ALL"
    ).fetchall()
    speakers: dict[int, set[str]] = {}
    sessions: dict[int, set[int]] = {}
    for source, session, speaker in rows:
        speakers.setdefault(source, set()).add(speaker)
        sessions.setdefault(source, set()).add(session)
    records = store.con.execute(
        "SELECT s.source_id, t.id, t.speaker, t.text FROM turns t JOIN sessions s ON s.id = t.session_id "
        "WHERE t.text ILIKE '%group%' OR t.text ILIKE '%subject%' ORDER BY t.ts NULLS LAST, s.started_at, t.position"
    ).fetchall()
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
            source, tuple((turn, new) for turn, _, new in named), tuple(dict.fromkeys([*names, *map(name_now, names)])),
            frozenset(speakers[source]), frozenset(sessions[source]),
        ))
    return chats


def _said_by_members(store: Store, chat: _Chat, word: str) -> bool:
    """Whether at least two members say the word (or its plural) in the chat's own messages."""
    rows = store.con.execute(
        "SELECT t.speaker, t.text FROM turns t JOIN sessions s ON s.id = t.session_id "
        "WHERE s.source_id = ? AND t.text ILIKE ?",
        [chat.source, f"%{_singular(word)[:4]}%"],
    ).fetchall()
    said = {speaker for speaker, text in rows if not group_events.is_record(text, speaker)
            and any(_singular(w) == _singular(word) for w in lexical.words(text))}
    return len(said) >= _MEMBERS_WHO_SAY


def _singular(word: str) -> str:
    """A noun without its plural ending: "quizzes" and "quiz" are one word, "booked" and
    "book" are not (a stem would join them)."""
    word = word.lower()
    for plural, single in (("zzes", "z"), ("ies", "y"), ("sses", "ss"), ("shes", "sh"), ("ches", "ch"), ("xes", "x")):
        if word.endswith(plural) and len(word) > len(plural) + 1:
            return word[: -len(plural)] + single
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word
