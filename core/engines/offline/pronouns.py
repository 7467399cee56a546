"""he/she/his/her resolved to a person or pet of the session, conservatively.

Genders come from relation words and kin aliases ("sister", "Mum"), then from pronouns
that only one candidate can take; a pronoun two unknown people could take stays open.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memhop.core.engines.offline.model import THIRD, Mention, Sentence, marked
from memhop.core.language import lexical, relations
from memhop.core.model import FoundEntity

if TYPE_CHECKING:
    from spacy.tokens import Token

WINDOW = 2  # a pronoun looks back this many turns for its person
SUBJECTS = ("nsubj", "nsubjpass")
# Verbs only a person does (speaking, writing, thinking): their "she" is not the cat.
_PERSONAL = frozenset(
    lexical.stem(w)
    for w in """say said tell told text texted ring rang call email write wrote reply answer ask admit claim insist
    swear swore promise explain announce complain argue reckon think thought believe decide hope plan apply
    applied""".split()
)


def seed_genders(ents: list[FoundEntity], sentences: list[Sentence]) -> dict[int, str]:
    genders: dict[int, str] = {}
    for i, e in enumerate(ents):
        for alias in (e.name, *e.aliases):  # "Mum" as a name is as female as "Mum" as an alias
            if (g := relations.gender_of(alias)) is not None:
                genders[i] = g
    for s in sentences:
        for rel in relations.find_relations(marked(s)):
            if (g := relations.gender_of(rel.word)) is not None:
                genders.setdefault(rel.subject, g)
    return genders


def resolve_pronouns(sentences: list[Sentence], genders: dict[int, str], speakers: set[int], ents: list[FoundEntity]) -> None:
    """Two passes: learn genders where only one person fits, then resolve to the most recent fit."""
    animate = {i for i, e in enumerate(ents) if e.kind in ("person", "pet", "self")} - speakers
    # Each sentence's third-person pronouns, found once for the three passes.
    pronouns = [
        [tok for tok in s.span if tok.lower_ in THIRD and tok.tag_ in ("PRP", "PRP$")] if s.span is not None else []
        for s in sentences
    ]
    for learning in (True, True, False):
        recent: list[tuple[int, int]] = []  # (entity, turn position), most recent last
        previous_subject: int | None = None  # who the sentence before was about, as its subject
        for s, found in zip(sentences, pronouns):
            if s.span is None:
                previous_subject = None
                continue
            events: list[tuple[int, int | None, Token | None]] = [
                (m.start, m.entity, None) for m in s.mentions if m.how == "name" and not m.vocative
            ]
            lead = s.span.start_char + (len(s.span.text) - len(s.span.text.lstrip()))
            events += [(tok.idx - lead, None, tok) for tok in found]
            for offset, entity, pronoun in sorted(events, key=lambda e: e[0]):
                if entity is not None:
                    recent.append((entity, s.turn_pos))
                    continue
                assert pronoun is not None
                want = THIRD[pronoun.lower_]
                fits = []
                for ent, at in reversed(recent):
                    if ent in animate and s.turn_pos - at <= WINDOW and genders.get(ent, want) == want and ent not in fits:
                        fits.append(ent)
                if _calls_it_an_animal(pronoun):  # "she's a greyhound": the pet, not its owner
                    fits = [f for f in fits if ents[f].kind == "pet"] or fits
                elif _does_what_only_people_do(pronoun):  # "she says …": a person, not the cat
                    fits = [f for f in fits if ents[f].kind != "pet"]
                subject = _subject_before(s, offset, lead)
                given = _name_given(s, want)
                if given is not None and given in animate:
                    fits = [given]  # "He's a baker, his name's Hal": the sentence names him
                elif (pronoun.tag_ == "PRP$" or pronoun.lower_.endswith("self")) and subject in fits:
                    # "Min-ji is back at her office", "Dai took himself home": the clause's subject
                    fits = [subject]
                elif pronoun.dep_ in SUBJECTS and subject in fits and _nearest_named(s, offset, animate) == subject:
                    # "Olu rang: she started on Tuesday": a subject pronoun continues
                    # its own sentence's subject when nobody else is named between them.
                    fits = [subject]
                if learning:
                    if len(fits) == 1 and fits[0] not in genders:
                        genders[fits[0]] = want
                    continue
                known = [f for f in fits if genders.get(f) == want]
                named_here = _nearest_named(s, offset, set(known))
                if (len(known) > 1 and previous_subject in known and pronoun.dep_ in SUBJECTS
                        and named_here in (None, previous_subject)):
                    # "Ana rang Beth. She was in tears.": a subject pronoun continues the
                    # previous sentence's subject rather than whoever was named last — unless
                    # its own sentence named another before it ("Rang Auntie Wren; she still swims …")
                    known = [previous_subject]
                # A person known to fit beats those whose gender is unknown; between two
                # unknowns the pronoun stays unresolved (a wrong name is worse than none).
                fits = known or (fits if len(fits) == 1 else [])
                if fits:
                    length = len(pronoun.text)
                    poss = pronoun.tag_ == "PRP$" or pronoun.lower_ == "his"
                    s.mentions.append(Mention(fits[0], offset, offset + length, "pronoun", possessive=poss))
                    recent.append((fits[0], s.turn_pos))
            previous_subject = _subject_before(s, len(s.text) + 1, lead, names_only=False)
    for s in sentences:
        s.mentions.sort(key=lambda m: m.start)


_NAME_GIVEN = re.compile(r"\b(his|her)\s+(?:first\s+|real\s+)?name(?:['’]s|\s+is|\s+was)\s+$", re.I)


def _name_given(s: Sentence, want: str) -> int | None:
    """The person a sentence names as "his/her name's X", of the pronoun's gender."""
    for m in s.mentions:
        given = _NAME_GIVEN.search(s.text[: m.start]) if m.how == "name" else None
        if given is not None and relations.PRONOUN_GENDER[given.group(1).lower()] == want:
            return m.entity
    return None


def _subject_before(s: Sentence, offset: int, lead: int, names_only: bool = True) -> int | None:
    """The entity named (or, with `names_only=False`, also pronoun-resolved) as the subject
    of the sentence before `offset`, if any."""
    assert s.span is not None
    for m in sorted(s.mentions, key=lambda m: m.start):
        if (names_only and m.how != "name") or m.how not in ("name", "pronoun") or m.start >= offset:
            continue
        # The name's head word is the subject: "Marsh" of "Idris Marsh", not "Idris".
        if any(t.dep_ in SUBJECTS for t in s.span if m.start <= t.idx - lead < m.end):
            return m.entity
    return None


def _nearest_named(s: Sentence, offset: int, animate: set[int]) -> int | None:
    """The person or pet named last before `offset` in the sentence."""
    before = [m for m in s.mentions if m.how == "name" and m.start < offset and m.entity in animate]
    return max(before, key=lambda m: m.start).entity if before else None


def _does_what_only_people_do(tok: Token) -> bool:
    """The pronoun is the subject of a verb of speaking or thinking, or of a verb joined to one
    by "and" ("she started on Tuesday and says …")."""
    if tok.dep_ not in SUBJECTS:
        return False
    verbs = [tok.head, *(c for c in tok.head.children if c.dep_ == "conj" and c.tag_.startswith("VB"))]
    return any(lexical.stem(v.lower_) in _PERSONAL for v in verbs)


def _calls_it_an_animal(tok: Token) -> bool:
    """The pronoun is the subject of "is a <dog word>"."""
    children = tok.head.children
    return tok.dep_ == "nsubj" and any(c.dep_ == "attr" and c.lower_ in relations.ANIMALS for c in children)
