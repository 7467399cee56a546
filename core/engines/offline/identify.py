"""Entity identification without a model: spaCy's names, cleaned hard, matched to the registry.

Few good entities beat many noisy ones (seed 003: 10 vs 61 entities, +29.8 pp), so a
candidate must look like a name: capitalised, not a greeting, weekday or month, not an
English word that is only ever capitalised because it starts a sentence. Pets are told
from people by an animal word next to the name; "Mum (Leena)" makes "Mum" an alias.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from memhop.core.engines.offline import kinds as kinds_of
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
from memhop.core.engines.offline.propn import proper_noun_runs
from memhop.core.engines.offline.titles import title_ranges
from memhop.core.language import relations
from memhop.core.language.names import find_names, match_registry, name_key
from memhop.core.language.placeholders import is_unnamed
from memhop.core.model import FoundEntity, KnownEntity, SessionView, add_votes, decide_kind

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span

LABEL_KIND = {"PERSON": "person", "ORG": "org", "GPE": "place", "LOC": "place", "FAC": "place"}
_PRONOUN_NAMES = frozenset({"me", "i", "user", "you"})
_OTHERS_POSSESSIVES = frozenset({"his", "her", "their", "your", "its"})
# Kin words people call their family by ("Dad rang"); "Mother" and "Father" name days,
# saints and titles more often than a diarist's parents.
_KIN_NAMES = relations.KIN_ALIASES - {"mother", "father", "grandmother", "grandfather"}


@dataclass
class _Candidate:
    surface: str
    labels: Counter[str] = field(default_factory=Counter)
    cued_kind: str | None = None  # "pet" / "person" from a cue in the text
    mid_sentence: bool = False  # capitalised somewhere other than a sentence start
    vocative_only: bool = True  # only ever addressed ("Thanks, Freddo!"), never talked about
    mentions: int = 0  # read as a name: by NER or as a run of proper nouns
    against: int = 0  # mentions read as something else: a nationality, a holiday, a platform
    adjective: bool = False  # also used as a capitalised adjective ("Breton crêpes")
    pet_cues: int = 0  # named as an animal: "our cat Thimble", "the rescue named him Bodkin"
    feels: int = 0  # mentions as the subject of a feeling or a body's doing: "which Chase loved"


def _collect(session: SessionView, docs: Sequence[Doc]) -> dict[str, _Candidate]:
    found: dict[str, _Candidate] = {}
    against: Counter[str] = Counter()
    adjectives: set[str] = set()

    def add(name: str) -> _Candidate:
        return found.setdefault(name, _Candidate(name))

    # An assistant's advice is not the user's life.
    read = [(turn, doc, _name_spans(doc)) for turn, doc in zip(session.turns, docs) if not is_bot(turn.speaker)]
    every = [(span, sentence_starts(doc)) for _, doc, spans in read for span, _ in spans]
    cuts = leading_cuts([span for span, _ in every], [starts for _, starts in every])
    for turn, doc, spans in read:
        starts = sentence_starts(doc)
        things = relations.thing_names(turn.text)
        adjectives |= proper_adjectives(doc)
        titles = title_ranges(doc)
        for ent in doc.ents:
            if ent.label_ in NOT_ENTITY_LABELS and (other := clean_name(ent.text)) is not None:
                against[other] += 1  # "Zoë" once read as a nationality still counts as one
        for span, label in spans:
            tokens = list(span)
            while len(tokens) > 1 and (tokens[0].tag_ in LEADING_JUNK or tokens[0].lower_ in _FEELINGS):
                tokens = tokens[1:]  # "Took Pepper", "Poor Halvard"
            if len(tokens) > 1 and tokens[0].i == span.start and (id(doc), span.start_char) in cuts:
                tokens = tokens[1:]  # "Met Priya", "Via Femi": a verb or preposition in capitals
            first = tokens[0]
            if first.i > 0 and doc[first.i - 1].lower_ in ("a", "an") and len(tokens) == 1:
                continue  # "a Steinway": names take no indefinite article
            owner = _owns_something_personal(doc, tokens[-1].i)  # "Uncle Osric's dog" is his, not a place
            name = clean_name(doc[first.i : tokens[-1].i + 1].text, keep_possessive=label not in (None, "PERSON") and not owner)
            if name is not None and any(s <= first.idx < e for s, e in titles):
                against[name] += 1  # "played us Song of Dawn": a title's words are nobody
                continue
            if name is None or name.split()[0] in things or in_quotes(span) or modifier(span):
                continue
            if not_an_entity(span) is not None:
                against[name] += 1  # "by Diwali", "in Breton", "on TikTok"
                continue
            stated = kinds_of.stated_kind(doc, first.idx, span.end_char)
            if stated == kinds_of.THING:
                against[name] += 1  # "a booklet called Healthy Paws"
                continue
            cand = add(name)
            cand.mentions += 1
            if label is not None:
                cand.labels[label] += 1
            cand.mid_sentence |= first.idx not in starts
            cand.feels += _feels(span)
            cand.cued_kind = cand.cued_kind or stated
            sent = span.sent
            cand.vocative_only &= is_vocative(
                sent.text, span.start_char - sent.start_char, span.end_char - sent.start_char, span.root.dep_
            )
        for pet in relations.pet_names(turn.text):
            if clean_name(pet) == pet:
                cand = add(pet)
                cand.cued_kind, cand.mid_sentence, cand.vocative_only = "pet", True, False
                cand.pet_cues += 1
    _fold_possessives(found)
    for name, cand in found.items():
        cand.against = against[name] + against[f"{name}'s"]
        cand.adjective = name in adjectives
    return found


# Feelings stuck to a name at a sentence start: "Poor Halvard.", "Lucky Odile!"
_FEELINGS = frozenset({"poor", "lucky", "sweet", "silly", "brave", "clever", "bless", "darling", "proud", "grumpy", "quiet"})


def _owns_something_personal(doc: Doc, last: int) -> bool:
    """The name ends in "'s" and what follows is a person's or a pet's: "Uncle Osric's dog"."""
    token = doc[last]
    after = last + 1
    if token.lower_ in ("'s", "’s"):
        after = last + 1
    elif after < len(doc) and doc[after].lower_ in ("'s", "’s"):
        after += 1
    else:
        return False
    return after < len(doc) and kinds_of.personal(doc[after].lower_)


def _name_spans(doc: Doc) -> list[tuple[Span, str | None]]:
    """What may be a name: NER's names (with their label), then the tagger's proper-noun
    runs that NER did not read at all (NER may have read them as a date or a nationality)."""
    spans: list[tuple[Span, str | None]] = [
        (ent, ent.label_)
        for ent in doc.ents
        if ent.label_ in LABEL_KIND and not any(t.tag_ in ("PRP", "PRP$") for t in ent) and not shouted(ent)
    ]
    tagged = [(e.start_char, e.end_char) for e in doc.ents]
    for start, end in proper_noun_runs(doc):
        if any(s < end and start < e for s, e in tagged):
            continue
        span = doc.char_span(start, end, alignment_mode="expand")
        if span is not None and not shouted(span):
            spans.append((span, None))
    return spans


def _fold_possessives(found: dict[str, _Candidate]) -> None:
    """"Zoë's" beside "Zoë", "Paper Kites's" beside "Paper Kites": one entity."""
    for name in [n for n in found if n.endswith("'s") and n[:-2] in found]:
        owned, cand = found.pop(name), found[name[:-2]]
        cand.labels.update(owned.labels)
        cand.mentions += owned.mentions
        cand.mid_sentence |= owned.mid_sentence
        cand.vocative_only &= owned.vocative_only


def identify(session: SessionView, known: Sequence[KnownEntity], docs: Sequence[Doc]) -> list[FoundEntity]:
    """The session's entities: self and speakers first, then others by first mention."""
    registry = list(known)
    stored_kinds = {k.name: k for k in registry}
    kinds = {k.name: k.kind for k in registry}
    aliases: dict[str, set[str]] = {k.name: set() for k in registry}
    texts = [t.text for t in session.turns]

    def canonical(name: str, kind: str) -> str:
        hit = match_registry(name, [(k.name, k.aliases + tuple(aliases.get(k.name, ()))) for k in registry])
        if hit is None and kind == "person":
            hit = _given_name_of(name, registry, kinds)
        if hit is None:
            registry.append(KnownEntity(-len(registry) - 1, name, kind))
            kinds[name], aliases[name] = kind, set()
            return name
        if hit != name and name.lower() not in (a.lower() for a in aliases[hit]):
            aliases[hit].add(name)
        return hit

    votes: dict[str, Counter[str]] = defaultdict(Counter)  # this session's evidence per entity
    renamed: dict[str, str] = {}  # an entity named by a kin word -> the name the text now gives it
    me = self_name_of(session)
    present: dict[str, None] = {}
    self_entity: str | None = None
    if any(is_self_speaker(session, t.speaker) for t in session.turns):
        self_entity = canonical(me, "self")
        present[self_entity] = None
    for turn in session.turns:
        if is_self_speaker(session, turn.speaker) or is_bot(turn.speaker) or is_unnamed(turn.speaker):
            continue  # an unsaved contact is somebody, but nobody to remember by their digits
        speaker = canonical(turn.speaker.strip(), "person")
        if speaker not in present:
            votes[speaker]["person"] += kinds_of.SPEAKS
        present[speaker] = None

    for text in texts:
        for name, kin in relations.kin_aliases(text):
            # "Mum (Leena)" after "Mum" alone made an entity "Mum": Leena is that entity
            holder = next((k.name for k in registry if k.name.lower() == kin.lower() != name.lower()), None)
            if holder is not None and match_registry(name, [(k.name, k.aliases) for k in registry]) is None:
                aliases[holder].add(name)
                renamed[holder] = name  # the write path renames "Mum" to "Leena"
                votes[holder]["person"] += kinds_of.CUED
                continue
            person = canonical(name, "person")
            aliases[person].add(kin)
            votes[person]["person"] += kinds_of.CUED
    # "His real name is Łukasz" pairs with a name of an earlier paragraph of the entry
    for full, nick in relations.nicknames("\n\n".join(texts)):
        person = canonical(full, "person")
        aliases[person].add(nick)
        votes[person]["person"] += kinds_of.CONTEXT

    if self_entity is not None:  # "Dad turns sixty in May": the diarist's dad, named by the kin word
        for turn, doc in zip(session.turns, docs):
            if is_self_speaker(session, turn.speaker):
                for word in _kin_names(doc):
                    votes[canonical(word, "person")]["person"] += kinds_of.CUED

    candidates = _collect(session, docs)
    named_pets: set[str] = {k.name for k in registry if kinds.get(k.name) == "pet"}
    read_as_person: Counter[str] = Counter()  # person votes that are only NER's guess
    # An unlabelled name (the tagger's, not NER's) starts as a person; the votes decide.
    kinded = [(c, c.cued_kind or _vote(c.labels) or "person") for c in candidates.values()]
    # People first (so "Alice's" is known to be Alice's place), longer names first (so
    # "Bob" joins "Bob Kowalski" rather than the other way round).
    kinded.sort(key=lambda ck: (ck[1] not in ("person", "pet"), -len(ck[0].surface.split()), ck[0].surface))
    for cand, kind in kinded:
        if not _keep(cand, kind) or _names_people(cand.surface, registry, kinds):
            continue
        owner = _nickname_of(cand.surface, registry, kinds, list(present) if cand.vocative_only else [])
        if owner is None:
            owner = _short_form_of(cand.surface, registry, kinds)
        if owner is not None:
            aliases[owner].add(cand.surface)
            continue
        name = canonical(cand.surface, kind)
        votes[name].update(kinds_of.label_votes(cand.labels))  # what the text states counts per mention, in _mentions
        read_as_person[name] += kinds_of.LABEL * cand.labels["PERSON"]
        if cand.feels and kind == "org":  # someone who loves is no organisation
            votes[name]["person"] += kinds_of.CONTEXT * cand.feels
        if cand.pet_cues:  # the naming grammar outweighs NER's guess
            votes[name]["pet"] += kinds_of.CUED * cand.pet_cues
            named_pets.add(name)

    forms = [
        (k.name, tuple(k.aliases) + tuple(sorted(aliases.get(k.name, ()))))
        for k in registry
        if k.name.lower() not in _PRONOUN_NAMES
    ]
    mentions = _mentions(session, docs, forms, votes, named_pets)
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
        stored = stored_kinds.get(name)
        if stored is None:  # what the name is made of counts once, when it is new
            votes[name].update(kinds_of.name_votes(name))
        _only_guessed_a_person(votes[name], read_as_person[name])
        evidence = tuple(sorted(votes[name].items()))
        if name == self_entity:
            kind = "self"
        elif stored is not None:  # the store's evidence so far, and this session's
            kind = decide_kind(add_votes(stored.kind_votes or ((stored.kind, 1.0),), evidence), stored.kind)
        else:
            kind = decide_kind(evidence or ((kinds.get(name, "person"), 1.0),))
        if name in renamed:
            name, seen = renamed[name], sorted({*seen, name} - {renamed[name]})
        out.append(FoundEntity(name, kind, tuple(seen), tuple(sorted(turn_ids)), evidence))
    return out


def _only_guessed_a_person(votes: Counter[str], guessed: int) -> None:
    """A name the text puts somewhere ("flew over from X", "brunch at X") and never makes do
    what people do is no person for NER's guess alone: its guessed person votes go."""
    if 0 < votes["person"] <= guessed and votes["place"] + votes["org"] >= kinds_of.CONTEXT:
        votes["person"] = 0
        del votes["person"]


def _kin_names(doc: Doc) -> list[str]:
    """Kin words the diarist uses as names: "Dad", "Oma" capitalised, not someone else's
    ("Femi's Mum", "her Dad") and not part of a longer name ("Mother Teresa")."""
    found: list[str] = []
    for token in doc:
        if token.lower_ not in _KIN_NAMES or not token.text[:1].isupper() or token.text.isupper():
            continue  # lower case is a word ("my dad"), all capitals a shout or a sign ("APPA")
        before = doc[token.i - 1] if token.i > 0 else None
        after = doc[token.i + 1] if token.i + 1 < len(doc) else None
        if before is not None and (before.tag_ == "POS" or before.lower_ in _OTHERS_POSSESSIVES):
            continue
        if any(t is not None and t.tag_ in ("NNP", "NNPS") and t.lower_ not in _KIN_NAMES for t in (before, after)):
            continue
        found.append(token.text)
    return found


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
    if cand.adjective or cand.against > cand.mentions:
        return False
    words = cand.surface.split()
    if len(words) > 1 or not is_english_word(words[0]):
        return True
    if kind == "org":
        return cand.feels > 0  # "which Chase loved": NER's ORG for a word that loves is no organisation
    return cand.mid_sentence


def _feels(span: Span) -> int:
    """1 when the name is the subject of a feeling verb ("Chase loved", "Chase laughed")."""
    root = span.root
    verb = root.head
    return int(root.dep_ == "nsubj" and verb.tag_.startswith("VB") and verb.lower_ in kinds_of.FEELING_VERBS)


def _names_people(surface: str, registry: Sequence[KnownEntity], kinds: dict[str, str]) -> bool:
    """"Alice's" (a flat), "Dan & Priya's" (a home), "Met Priya" stand for people already known;
    "Paper Kites's" is the known band's."""
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


def _short_form_of(surface: str, registry: Sequence[KnownEntity], kinds: dict[str, str]) -> str | None:
    """"the Otters" for Eastfield Otters: one word that ends exactly one known organisation's
    name. (Not for people: a surname alone is as often a place, Preston for Anne Webb.)"""
    if " " in surface:
        return None
    low = surface.casefold()
    hits = {k.name for k in registry if kinds.get(k.name) == "org" and " " in k.name and k.name.split()[-1].casefold() == low}
    return hits.pop() if len(hits) == 1 else None


def _given_name_of(surface: str, registry: Sequence[KnownEntity], kinds: dict[str, str]) -> str | None:
    """Names written family name first ("Lima Sora", a niece of Ana Lima): when the first
    word is another known person's surname, the second is the given name, and the given
    name alone ("Sora") is that person — as is the full name of a "Sora" met earlier.
    Exactly one person must fit."""
    words = [name_key(w) for w in surface.split()]
    if len(words) > 2 or kinds.get(surface) is not None:
        return None
    people = [k for k in registry if kinds.get(k.name) in ("person", "self")]

    def surname_of_another(family: str, person: str) -> bool:
        return any(o.name != person and len(o.name.split()) > 1 and name_key(o.name.split()[-1]) == family for o in people)

    if len(words) == 1:  # "Sora" after "Lima Sora"
        hits = {
            k.name for k in people
            if len(parts := [name_key(w) for w in k.name.split()]) == 2 and parts[1] == words[0]
            and surname_of_another(parts[0], k.name)
        }
    elif surname_of_another(words[0], surface):  # "Lima Sora" after "Sora", whatever "Sora" was first taken for
        hits = {k.name for k in registry if kinds.get(k.name) not in ("self", "org") and name_key(k.name) == words[1]}
    else:
        return None
    return hits.pop() if len(hits) == 1 else None


def _nickname_of(
    surface: str, registry: Sequence[KnownEntity], kinds: dict[str, str], addressees: Sequence[str]
) -> str | None:
    """"Fred" for Frederica: a single word that begins exactly one known person's first name.

    A name only ever used to address someone ("Thanks, Freddo!") is a speaker's nickname
    when it shares their first three letters.
    """
    if " " in surface:
        return None
    low = surface.lower()
    close = {a for a in addressees if a.lower()[:3] == low[:3] and a.lower() != low}
    if len(close) == 1 and len(surface) <= 6:
        return close.pop()
    if not 3 <= len(surface) <= 4:
        return None  # "Maria" is not "Mariana"; "Gabi" and "Mari" are
    hits = {
        k.name
        for k in registry
        if kinds.get(k.name) in ("person", "self")
        and (first := k.name.split()[0].lower()) != low
        and first.startswith(low)
    }
    return hits.pop() if len(hits) == 1 else None


def _mentions(
    session: SessionView,
    docs: Sequence[Doc],
    forms: list[tuple[str, tuple[str, ...]]],
    votes: dict[str, Counter[str]],
    pets: frozenset[str] | set[str] = frozenset(),
) -> dict[str, list[int]]:
    """Turn ids per entity named in them (in first-mention order); each mention's
    surroundings add to `votes`. A pet's name, capitalised, is the pet even where it is
    also a word the tagger reads otherwise at a sentence start ("Bramble snored")."""
    out: dict[str, list[int]] = {}
    for turn, doc in zip(session.turns, docs):
        if is_bot(turn.speaker):
            continue
        starts = sentence_starts(doc)
        tagged = {e.start_char for e in doc.ents}
        self_turn = is_self_speaker(session, turn.speaker)
        for match in find_names(turn.text, forms):
            pet = match.entity in pets and match.text[:1].isupper() and match.text.lower() not in relations.KIN_ALIASES
            if pet or plausible_mention(match, doc, starts, self_turn, tagged):
                votes[match.entity].update(kinds_of.mention_votes(doc, match.start, match.end))
                ids = out.setdefault(match.entity, [])
                if turn.id not in ids:
                    ids.append(turn.id)
    return out
