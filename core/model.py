"""The data memhop passes between the store, the write and read paths and the engines.

Plain frozen views, never the store: an engine cannot half-write anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime

# The seven residual categories of ProGraph (seed 000 §3.1).
CATEGORIES: tuple[str, ...] = (
    "date",  # dates / times
    "number",  # numbers / quantities
    "name",  # proper names: titles, places, organisations
    "identity",  # identity markers: job, nationality, age, role
    "list",  # enumerated lists
    "cross_entity",  # facts linking this entity to another
    "state_change",  # state transitions: new job, moved, quit, started
)

ENTITY_KINDS: tuple[str, ...] = ("self", "person", "pet", "place", "org")

KindVotes = tuple[tuple[str, float], ...]  # (kind, weight) pairs: evidence, summed across sessions


def add_votes(*votes: KindVotes) -> KindVotes:
    """The sum of several sessions' evidence, heaviest kind first."""
    total: dict[str, float] = {}
    for pairs in votes:
        for kind, weight in pairs:
            total[kind] = total.get(kind, 0.0) + weight
    return tuple(sorted(total.items(), key=lambda kv: (-kv[1], ENTITY_KINDS.index(kv[0]) if kv[0] in ENTITY_KINDS else 99)))


def decide_kind(votes: KindVotes, current: str | None = None) -> str:
    """The kind the evidence favours. `self` never changes; a tie keeps the current kind, so
    a kind moves only when the evidence for another one has grown past it: an early wrong
    guess does not stick, and one odd mention does not flip a well-known entity."""
    if current == "self":
        return "self"
    summed = add_votes(votes)
    if not summed:
        return current or "person"
    best, weight = summed[0]
    if current is not None and dict(summed).get(current, 0.0) >= weight:
        return current
    return best


def for_users(name: str) -> str:
    """The name a user sees: the paper's "residual" is a "fact" on every surface (JSON keys,
    forget plans, counts); the code and the store keep the paper's word."""
    return re.sub("residual", "fact", name)


@dataclass(frozen=True)
class TurnView:
    id: int
    speaker: str
    text: str
    timestamp: datetime | None = None
    external_id: str | None = None
    session: int | None = None  # the id of the session it was said in: a reply is the next turn of the same one


@dataclass(frozen=True)
class GroupView:
    """The chat group whose name a question asks (core/groups.py): read from all its naming
    records, not only the retrieved turns, so an answer gives its name now, not an old one."""

    name: str | None  # the name asked for, without trailing emoji; None: not known (the question is refused)
    named_by: int | None  # the naming record that name is read from (cited)


@dataclass(frozen=True)
class SessionView:
    id: int
    started_at: datetime | None
    self_name: str | None  # the diarist / owner: first person in their turns means them
    turns: tuple[TurnView, ...]


@dataclass(frozen=True)
class KnownEntity:
    id: int
    name: str
    kind: str
    aliases: tuple[str, ...] = ()
    kind_votes: KindVotes = ()  # the evidence for `kind` from every earlier session


@dataclass(frozen=True)
class FoundEntity:
    """An entity of one session. `name` is the registry's canonical name when it matched."""

    name: str
    kind: str
    aliases: tuple[str, ...] = ()
    turn_ids: tuple[int, ...] = ()  # the session's turns that are about it
    kind_votes: KindVotes = ()  # this session's evidence for the kind; () = one vote for `kind`


@dataclass(frozen=True)
class ExistingResidual:
    id: int
    text: str
    category: str
    slot: str | None
    date: date | None


@dataclass(frozen=True)
class ResidualDraft:
    text: str  # self-contained: names its entity
    category: str  # one of CATEGORIES
    source_turns: tuple[int, ...]
    date: date | None = None  # the absolute date it speaks of, if any
    slot: str | None = None  # the attribute it sets ("job", "home"...): a newer one supersedes


@dataclass(frozen=True)
class Extraction:
    profile: str
    residuals: tuple[ResidualDraft, ...]
    supersedes: tuple[int, ...] = ()  # ids of existing residuals this session replaced


@dataclass(frozen=True)
class EntitySlice:
    """What the answerer sees of one selected entity."""

    name: str
    profile: str
    facts: tuple[str, ...]
    kind: str = ""  # the store's kind for it ("person", "org", ...); "" when not known
    aliases: tuple[str, ...] = ()  # other names the text gives it: a sentence saying "Tina" names Bettina


@dataclass(frozen=True)
class Reply:
    """An answer and the sentence it was read from, when the engine knows (the offline
    answerer cuts it from one; a model does not say): support cites that sentence first.
    A type of its own, not a `str`, so no string operation can drop `read_from` unseen."""

    text: str
    read_from: str | None = None

    @staticmethod
    def of(answer: str | Reply) -> Reply:
        """An engine's answer as a Reply (a plain string was read from no known sentence)."""
        return answer if isinstance(answer, Reply) else Reply(answer)


@dataclass(frozen=True)
class AnswerRequest:
    question: str
    slices: tuple[EntitySlice, ...]  # in selection order; the chain ends at the last hop
    evidence: tuple[TurnView, ...]
    chain: tuple[str, ...] = field(default_factory=tuple)  # entity names along the hops
    asker: str | None = None  # who "I" or "my" in the question is (the store's writer), when it says so
    # how many turns the read path could show: evidence that fills it may have left matches out
    # (a count over it is a lower bound); None: the evidence is all there is
    budget: int | None = None
    group: GroupView | None = None  # the chat group the question is about, when one is known
