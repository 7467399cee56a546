"""Co-extraction for one entity: its residuals from this session, and its updated profile.

Residuals are the precise clauses about the entity, rewritten to name it and ranked by
what they hold (state changes, dates, relations, identity, numbers, lists, names);
chit-chat holds none of these and is dropped. The profile is rebuilt from the previous
one plus this session's relations, slot clauses and best facts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from memhop.core.engines.offline import profile as profiles
from memhop.core.engines.offline.facts import Kind, classify, values
from memhop.core.engines.offline.model import Sentence, SessionAnalysis
from memhop.core.engines.offline.rewrite import rewrite, split_long
from memhop.core.language.dates import format_day
from memhop.core.language.names import match_registry
from memhop.core.language.relations import SYMMETRIC, base_word
from memhop.core.model import ExistingResidual, Extraction, FoundEntity, ResidualDraft

MAX_RESIDUALS = 8  # per entity per session: the best, by what they hold
NEW_FACTS = 2  # per session into the profile
_PROPER_LABELS = frozenset({"ORG", "GPE", "LOC", "FAC", "WORK_OF_ART", "EVENT", "PRODUCT", "PERSON", "NORP", "LANGUAGE"})
_MIN_WORDS = 4
_QUOTABLE = frozenset({"date", "number", "state_change", "cross_entity"})


@dataclass(frozen=True)
class _Draft:
    draft: ResidualDraft
    kind: Kind
    order: int  # position in the session
    quoted: bool  # kept as the speaker's words
    event: bool  # only an event ("went to ..."): a residual, never profile material


def coextract(
    analysis: SessionAnalysis, entity: FoundEntity, profile: str | None, existing: Sequence[ExistingResidual]
) -> Extraction:
    focus = analysis.index_of(entity.name)
    if focus is None:  # the caller renamed it; nothing in this session is known to be about it
        return Extraction(profile=profile or _minimal(entity.kind, entity.name), residuals=())
    drafts = _residuals(analysis, focus, existing)
    supersedes = _superseded(drafts, existing, (entity.name, *entity.aliases))
    text = _profile(analysis, focus, profile, drafts)
    return Extraction(profile=text, residuals=tuple(d.draft for d in drafts), supersedes=supersedes)


def _residuals(analysis: SessionAnalysis, focus: int, existing: Sequence[ExistingResidual]) -> list[_Draft]:
    entity = analysis.entities[focus]
    related = {s for r, s in analysis.relations if focus in (r.subject, r.owner)}
    seen = [set(_words(e.text)) for e in existing]
    found: list[_Draft] = []
    for s in analysis.sentences:
        if focus not in s.about or s.question or len(s.text.split()) < 3:
            continue
        text, quoted = rewrite(s, focus, analysis)
        if len(text.split()) < _MIN_WORDS:
            continue
        kind = classify(
            text,
            has_date=any(d.label for d in s.dates),
            other_entities=bool(_others(s, focus, analysis)),
            relation=s.index in related,
            proper_names=_proper_names(s, focus, analysis),
            is_list=s.is_list,
            subject_is_entity=_subject_is(s, focus, text, entity.name),
        )
        event = kind.category is None and s.event is not None
        if event:
            kind, text = _event(s, text, kind)
        if kind.category is None or (quoted and kind.category not in _QUOTABLE):
            continue  # chit-chat; a quote must carry a date, a number, a change or another entity
        if kind.category == "state_change" and not s.dates and s.day is not None:
            text = f"{text.rstrip('.!')} (as of {format_day(s.day)})."
        day = next((d.day for d in s.dates if d.day is not None), None)
        for clause in split_long(text, entity.name):
            words = set(_words(clause))
            if any(_similar(words, other) for other in seen):
                continue
            seen.append(words)
            draft = ResidualDraft(clause, kind.category, (s.turn.id,), day, kind.slot)
            found.append(_Draft(draft, kind, len(found), quoted, event))
    best = sorted(found, key=lambda d: (-d.kind.score + (1.0 if d.quoted else 0.0), d.order))[:MAX_RESIDUALS]
    return sorted(best, key=lambda d: d.order)


def _event(s: Sentence, text: str, kind: Kind) -> tuple[Kind, str]:
    """Something the entity did or does, with no other hook: a dated or an identity fact.

    A past event without a date of its own happened before the day it was told.
    """
    if s.event == "past" and s.day is not None:
        if not s.dates:
            text = re.sub(r'([.!?]?)("?)$', rf" (before {format_day(s.day)})\1\2", text, count=1)
        return Kind("date", None, kind.score + 1.0), text
    return Kind("identity", None, kind.score + 1.0), text


def _others(s: Sentence, focus: int, analysis: SessionAnalysis) -> set[int]:
    return {
        m.entity
        for m in s.mentions
        if m.entity != focus and not m.vocative and analysis.entities[m.entity].kind in ("person", "pet", "self")
    }


def _proper_names(s: Sentence, focus: int, analysis: SessionAnalysis) -> bool:
    if analysis.entities[focus].kind in ("place", "org"):
        return True  # the clause holds the place's or organisation's own name
    if any(analysis.entities[i].kind in ("place", "org") for i in s.named() if i != focus):
        return True
    if s.span is None:
        return False
    people = [(e.name, e.aliases) for e in analysis.entities]
    # Names of this session's entities count as cross-entity facts (or, addressed, as nothing).
    return any(e.label_ in _PROPER_LABELS and match_registry(e.text, people) is None for e in s.span.ents)


def _subject_is(s: Sentence, focus: int, text: str, name: str) -> bool:
    """Does the clause speak of the entity as its subject (so a slot it sets is the entity's)?"""
    first = next((m for m in s.mentions if not m.vocative), None)
    if first is not None and first.entity == focus and first.start <= 2:
        return True
    return profiles.subject_of(text, name)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _similar(a: set[str], b: set[str]) -> bool:
    return bool(a) and bool(b) and len(a & b) / len(a | b) >= 0.8


def _superseded(drafts: list[_Draft], existing: Sequence[ExistingResidual], own: tuple[str, ...]) -> tuple[int, ...]:
    """Older residuals of a slot this session sets to a different value."""
    out: list[int] = []
    for d in drafts:
        slot = d.draft.slot
        if slot is None:
            continue
        new_values = values(d.draft.text, own)
        for old in existing:
            if old.slot != slot or old.id in out or not new_values:
                continue
            if old.date is not None and d.draft.date is not None and old.date > d.draft.date:
                continue
            old_values = values(old.text, own)
            if old_values and not (old_values & new_values):
                out.append(old.id)
    return tuple(out)


def _profile(analysis: SessionAnalysis, focus: int, previous: str | None, drafts: list[_Draft]) -> str:
    entity = analysis.entities[focus]
    profile = profiles.parse(previous, entity.name, entity.aliases)
    for rel, _ in analysis.relations:
        if rel.subject == focus:
            profiles.add_relation(profile, analysis.entities[rel.owner].name, rel.word, "of")
        elif rel.owner == focus:
            symmetric = base_word(rel.word) in SYMMETRIC
            profiles.add_relation(profile, analysis.entities[rel.subject].name, rel.word, "of" if symmetric else "has")
    own = (entity.name, *entity.aliases)
    for d in drafts:
        if d.draft.slot is not None and not d.quoted and profiles.own_slot(d.draft.text, entity.name):
            profiles.add_slot(profile, d.draft.slot, d.draft.text, own)
    # Clauses with the entity as subject describe it best; quotes only if nothing else.
    ranked = sorted(drafts, key=lambda d: (d.quoted, -d.kind.score, d.order))
    # Mere events ("X went to ...") stay residuals; the profile takes what describes the entity.
    own_facts = [d for d in ranked if not d.quoted and not d.event and profiles.subject_of(d.draft.text, entity.name)]
    plain = [d for d in ranked if not d.quoted]
    # An entity never the subject (a place, an organisation) is described by one clause naming it.
    chosen = own_facts[:NEW_FACTS] or plain[:1] or (ranked[:1] if not profile.facts else [])
    profiles.add_facts(profile, [d.draft.text for d in chosen])
    return profiles.render(profile) or _minimal(entity.kind, entity.name)


def _minimal(kind: str, name: str) -> str:
    """A profile is never empty: an entity met only in passing is at least named with its kind."""
    noun = {"self": "the diarist", "person": "a person", "pet": "a pet", "place": "a place", "org": "an organisation"}
    return f"{name} is {noun.get(kind, 'an entity')} mentioned in passing."
