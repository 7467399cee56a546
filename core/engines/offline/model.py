"""The shapes the offline engine's session analysis is made of: mentions, sentences.

Kept apart so the readers (clauses, pronouns) and the users (rewrite, extract) share
them without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING

from memhop.core.language.dates import DateMention
from memhop.core.language.relations import PRONOUN_GENDER, Relation
from memhop.core.model import FoundEntity, SessionView, TurnView

if TYPE_CHECKING:
    from spacy.tokens import Span

FIRST = frozenset({"i", "me", "my", "mine", "myself"})
GROUP = frozenset({"we", "us", "our", "ours", "ourselves"})
SECOND = frozenset({"you", "your", "yours", "yourself", "ya", "u", "ur"})
THIRD = PRONOUN_GENDER


@dataclass
class Mention:
    entity: int
    start: int  # offsets in the sentence text
    end: int
    how: str  # "name" | "pronoun" | "first" (I, my) | "group" (our: only for relations)
    vocative: bool = False
    possessive: bool = False


@dataclass
class Sentence:
    index: int
    turn: TurnView
    turn_pos: int
    text: str
    span: Span | None
    speaker: int | None
    day: date | None
    mentions: list[Mention] = field(default_factory=list)
    first_person: bool = False
    group: bool = False
    second: bool = False
    question: bool = False
    past: bool = False
    subjectless: bool = False
    implied: int | None = None  # who a subjectless sentence is about ("Walked to ..." = the speaker)
    third: bool = False  # has he/she/they: someone other than the speaker is talked about
    fragment: bool = False
    continuation: bool = False
    is_list: bool = False
    event: str | None = None  # "past" ("I built this shelf") or "ongoing" ("I'm painting again")
    dates: list[DateMention] = field(default_factory=list)
    about: set[int] = field(default_factory=set)

    def named(self) -> set[int]:
        return {m.entity for m in self.mentions if m.how in ("name", "pronoun") and not m.vocative}


@dataclass
class SessionAnalysis:
    session: SessionView
    entities: list[FoundEntity]
    sentences: list[Sentence]
    relations: list[tuple[Relation, int]]  # with the sentence index
    genders: dict[int, str]
    speakers: set[int]

    def index_of(self, name: str) -> int | None:
        for i, e in enumerate(self.entities):
            if e.name.lower() == name.lower():
                return i
        return None


def marked(s: Sentence) -> str:
    """The sentence with each resolved mention replaced by ⟦k⟧ (possessives by ⟦k⟧'s)."""
    text = s.text
    for m in sorted(s.mentions, key=lambda m: m.start, reverse=True):
        if m.end <= m.start:
            continue
        token = f"⟦{m.entity}⟧'s" if m.possessive else f"⟦{m.entity}⟧"
        text = text[: m.start] + token + text[m.end :]
    return text
