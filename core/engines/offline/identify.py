"""Entity identification without a model: spaCy's names, cleaned hard, matched to the registry.

Few good entities beat many noisy ones (seed 003: 10 vs 61 entities, +29.8 pp), so a
candidate must look like a name: capitalised, not a greeting, weekday or month, not an
English word that is only ever capitalised because it starts a sentence. Pets are told
from people by an animal word next to the name; "Mum (Leena)" makes "Mum" an alias.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from memhop.core.engines.offline.names import (
    clean_name,
    in_quotes,
    is_bot,
    is_self_speaker,
    is_vocative,
    modifier,
    plausible_mention,
    self_name_of,
    sentence_starts,
)
from memhop.core.engines.offline.nlp import is_english_word
from memhop.core.engines.offline.nonentities import (
    LEADING_JUNK,
    NOT_ENTITY_LABELS,
    leading_cuts,
    not_an_entity,
    proper_adjectives,
    shouted,
)
from memhop.core.language import relations
from memhop.core.language.names import find_names, match_registry
from memhop.core.language.placeholders import is_unnamed
from memhop.core.model import FoundEntity, KnownEntity, SessionView

if TYPE_CHECKING:
    from spacy.tokens import Doc

LABEL_KIND = {"PERSON": "person", "ORG": "org", "GPE": "place", "LOC": "place", "FAC": "place"}
_PRONOUN_NAMES = frozenset({"me", "i", "user", "you"})


@dataclass
class _Candidate:
    surface: str
    labels: Counter[str] = field(default_factory=Counter)
    cued_kind: str | None = None  # "pet" / "person" from a cue in the text
    mid_sentence: bool = False  # capitalised somewhere other than a sentence start
    vocative_only: bool = True  # only ever addressed ("Thanks, Mell!"), never talked about
    against: int = 0  # mentions read as something else: a nationality, a holiday, a title
    adjective: bool = False  # also used as a capitalised adjective ("Welsh cakes")


def _collect(session: SessionView, docs: Sequence[Doc]) -> dict[str, _Candidate]:
    found: dict[str, _Candidate] = {}
    against: Counter[str] = Counter()
    adjectives: set[str] = set()

    def add(name: str) -> _Candidate:
        return found.setdefault(name, _Candidate(name))

    read = [(turn, doc) for turn, doc in zip(session.turns, docs) if not is_bot(turn.speaker)]
    named = [(ent, sentence_starts(doc)) for _, doc in read for ent in doc.ents if ent.label_ in LABEL_KIND]
    cuts = leading_cuts([ent for ent, _ in named], [starts for _, starts in named])
    for turn, doc in read:  # an assistant's advice is not the user's life
        starts = sentence_starts(doc)
        things = relations.thing_names(turn.text)
        adjectives |= proper_adjectives(doc)
        for ent in doc.ents:
            if ent.label_ in NOT_ENTITY_LABELS:
                if (other := clean_name(ent.text)) is not None:
                    against[other] += 1  # "Siobhán" once read as a nationality still counts as one
                continue
            if ent.label_ not in LABEL_KIND or any(t.tag_ in ("PRP", "PRP$") for t in ent) or shouted(ent):
                continue
            tokens = list(ent)
            while len(tokens) > 1 and tokens[0].tag_ in LEADING_JUNK:
                tokens = tokens[1:]  # "Took Pepper"
            if len(tokens) > 1 and tokens[0].i == ent.start and (id(doc), ent.start_char) in cuts:
                tokens = tokens[1:]  # "Met Priya", "Via Seun": a verb or preposition in capitals
            first = tokens[0]
            if first.i > 0 and doc[first.i - 1].lower_ in ("a", "an") and len(tokens) == 1:
                continue  # "a Steinway": names take no indefinite article
            text = doc[first.i : tokens[-1].i + 1].text
            name = clean_name(text, keep_possessive=ent.label_ != "PERSON")
            if name is None or name.split()[0] in things or in_quotes(ent) or modifier(ent):
                continue
            if not_an_entity(ent) is not None:
                against[name] += 1  # "by Easter", "in Welsh", "on Instagram"
                continue
            cand = add(name)
            cand.labels[ent.label_] += 1
            cand.mid_sentence |= first.idx not in starts
            sent = ent.sent
            cand.vocative_only &= is_vocative(
                sent.text, ent.start_char - sent.start_char, ent.end_char - sent.start_char, ent.root.dep_
            )
        for pet in relations.pet_names(turn.text):
            if clean_name(pet) == pet:
                cand = add(pet)
                cand.cued_kind, cand.mid_sentence, cand.vocative_only = "pet", True, False
    _fold_possessives(found)
    for name, cand in found.items():
        cand.against = against[name] + sum(n for other, n in against.items() if other == f"{name}'s")
        cand.adjective = name in adjectives
    return found


def _fold_possessives(found: dict[str, _Candidate]) -> None:
    """"Siobhán's" beside "Siobhán", "Moth Parliament's" beside "Moth Parliament": one entity."""
    for name in [n for n in found if n.endswith("'s") and n[:-2] in found]:
        owned, cand = found.pop(name), found[name[:-2]]
        cand.labels.update(owned.labels)
        cand.mid_sentence |= owned.mid_sentence
        cand.vocative_only &= owned.vocative_only


def identify(session: SessionView, known: Sequence[KnownEntity], docs: Sequence[Doc]) -> list[FoundEntity]:
    """The session's entities: self and speakers first, then others by first mention."""
    registry = list(known)
    kinds = {k.name: k.kind for k in registry}
    aliases: dict[str, set[str]] = {k.name: set() for k in registry}
    texts = [t.text for t in session.turns]

    def canonical(name: str, kind: str) -> str:
        hit = match_registry(name, [(k.name, k.aliases + tuple(aliases.get(k.name, ()))) for k in registry])
        if hit is None:
            registry.append(KnownEntity(-len(registry) - 1, name, kind))
            kinds[name], aliases[name] = kind, set()
            return name
        if hit != name and name.lower() not in (a.lower() for a in aliases[hit]):
            aliases[hit].add(name)
        return hit

    me = self_name_of(session)
    present: dict[str, None] = {}
    self_entity: str | None = None
    if any(is_self_speaker(session, t.speaker) for t in session.turns):
        self_entity = canonical(me, "self")
        present[self_entity] = None
    for turn in session.turns:
        if is_self_speaker(session, turn.speaker) or is_bot(turn.speaker) or is_unnamed(turn.speaker):
            continue  # an unsaved contact is somebody, but nobody to remember by their digits
        present[canonical(turn.speaker.strip(), "person")] = None

    for text in texts:
        for name, kin in relations.kin_aliases(text):
            aliases[canonical(name, "person")].add(kin)
        for full, nick in relations.nicknames(text):
            aliases[canonical(full, "person")].add(nick)

    candidates = _collect(session, docs)
    kinded = [(c, k) for c in candidates.values() if (k := c.cued_kind or _vote(c.labels)) is not None]
    # People first (so "Alice's" is known to be Alice's place), longer names first (so
    # "Bob" joins "Bob Kowalski" rather than the other way round).
    kinded.sort(key=lambda ck: (ck[1] not in ("person", "pet"), -len(ck[0].surface.split()), ck[0].surface))
    for cand, kind in kinded:
        if not _keep(cand, kind) or _names_people(cand.surface, registry, kinds):
            continue
        owner = _nickname_of(cand.surface, registry, kinds, list(present) if cand.vocative_only else [])
        if owner is not None:
            aliases[owner].add(cand.surface)
            continue
        canonical(cand.surface, kind)

    forms = [
        (k.name, tuple(k.aliases) + tuple(sorted(aliases.get(k.name, ()))))
        for k in registry
        if k.name.lower() not in _PRONOUN_NAMES
    ]
    mentions = _mentions(session, docs, forms)
    for name in list(present):
        mentions.setdefault(name, [])
    out: list[FoundEntity] = []
    order = list(present) + [n for n in mentions if n not in present]
    for name in order:
        turn_ids = set(mentions.get(name, []))
        turn_ids |= {t.id for t in session.turns if _spoken_by(session, t.speaker, name, me)}
        if not turn_ids:
            continue
        seen = sorted(aliases.get(name, set()) - {name})
        kind = "self" if name == self_entity else kinds.get(name, "person")
        if name in present and kind not in ("self", "person"):
            kind = "person"  # whoever speaks is a person, whatever NER thought
        out.append(FoundEntity(name, kind, tuple(seen), tuple(sorted(turn_ids))))
    return out


def _spoken_by(session: SessionView, speaker: str, name: str, me: str) -> bool:
    if is_self_speaker(session, speaker):
        return match_registry(me, [(name, ())]) == name
    return speaker.strip().lower() == name.lower() or match_registry(speaker.strip(), [(name, ())]) == name


def _vote(labels: Counter[str]) -> str | None:
    if not labels:
        return None
    if labels["PERSON"] and labels["PERSON"] * 2 >= sum(labels.values()):
        return "person"
    label = max(sorted(labels), key=lambda lab: labels[lab])
    return LABEL_KIND.get(label)


def _keep(cand: _Candidate, kind: str) -> bool:
    """Single dictionary words need evidence beyond a capital letter at a sentence start;
    a name read more often as something else (a nationality, a holiday) is that thing."""
    if cand.cued_kind:
        return True
    if cand.adjective or cand.against > sum(cand.labels.values()):
        return False
    words = cand.surface.split()
    if len(words) > 1 or not is_english_word(words[0]):
        return True
    if kind == "org":
        return False
    return cand.mid_sentence


def _names_people(surface: str, registry: Sequence[KnownEntity], kinds: dict[str, str]) -> bool:
    """"Alice's" (a flat), "Dan & Priya's" (a home), "Met Priya" stand for people already known;
    "Moth Parliament's" is the known band's."""
    if surface.endswith("'s") and match_registry(surface[:-2], [(k.name, k.aliases) for k in registry]):
        return True
    people = [(k.name, k.aliases) for k in registry if kinds.get(k.name) in ("person", "self", "pet")]
    words = surface.split()
    if len(words) > 1 and is_english_word(words[0]) and match_registry(" ".join(words[1:]), people):
        return True  # "Met Priya": a verb NER swallowed
    parts = re.split(r"\s*(?:&|\band\b)\s*", surface.removesuffix("'s"))
    if not surface.endswith("'s") and len(parts) < 2:
        return False
    return any(match_registry(part, people) is not None for part in parts if part)


def _nickname_of(
    surface: str, registry: Sequence[KnownEntity], kinds: dict[str, str], addressees: Sequence[str]
) -> str | None:
    """"Mel" for Melanie: a single word that begins exactly one known person's first name.

    A name only ever used to address someone ("Thanks, Mell!") is a speaker's nickname
    when it shares their first three letters.
    """
    if " " in surface:
        return None
    low = surface.lower()
    close = {a for a in addressees if a.lower()[:3] == low[:3] and a.lower() != low}
    if len(close) == 1 and len(surface) <= 6:
        return close.pop()
    if not 3 <= len(surface) <= 4:
        return None  # "Carol" is not "Caroline"; "Mel" and "Caro" are
    hits = {
        k.name
        for k in registry
        if kinds.get(k.name) in ("person", "self")
        and (first := k.name.split()[0].lower()) != low
        and first.startswith(low)
    }
    return hits.pop() if len(hits) == 1 else None


def _mentions(
    session: SessionView, docs: Sequence[Doc], forms: list[tuple[str, tuple[str, ...]]]
) -> dict[str, list[int]]:
    """Turn ids per entity named in them (in first-mention order)."""
    out: dict[str, list[int]] = {}
    for turn, doc in zip(session.turns, docs):
        if is_bot(turn.speaker):
            continue
        starts = sentence_starts(doc)
        tagged = {e.start_char for e in doc.ents}
        self_turn = is_self_speaker(session, turn.speaker)
        for match in find_names(turn.text, forms):
            if plausible_mention(match, doc, starts, self_turn, tagged):
                ids = out.setdefault(match.entity, [])
                if turn.id not in ids:
                    ids.append(turn.id)
    return out
