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


@dataclass(frozen=True)
class FoundEntity:
    """An entity of one session. `name` is the registry's canonical name when it matched."""

    name: str
    kind: str
    aliases: tuple[str, ...] = ()
    turn_ids: tuple[int, ...] = ()  # the session's turns that are about it


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


@dataclass(frozen=True)
class AnswerRequest:
    question: str
    slices: tuple[EntitySlice, ...]  # in selection order; the chain ends at the last hop
    evidence: tuple[TurnView, ...]
    chain: tuple[str, ...] = field(default_factory=tuple)  # entity names along the hops
