"""The offline answerer's reading of its context: sentences, who they name, and who does
what in them ("her roommate Bob played the piano": Bob plays, not Alice).

Without a parser this is a set of plain rules: the actor of a word is the nearest person
reference before it — a name, "I" (the speaker), or a pronoun resolved to the last named
non-possessive person of the sentence or of the sentence before.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from memhop.core.language.name_index import NameIndex
from memhop.core.language.names import NameMatch
from memhop.core.language.question import bare, is_possessive, tokens
from memhop.core.language.relations import RELATION_WORDS, base_word
from memhop.core.model import AnswerRequest

_CLOSERS = "\"'’”)] "


def is_question(text: str) -> bool:
    """A sentence that asks (a closing quote or bracket after the "?" aside): it states nothing."""
    return text.rstrip(_CLOSERS).endswith("?")


_SPLIT = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])|\n+")
PRONOUNS = frozenset({"he", "she", "they", "him", "his", "her", "hers", "them", "their"})
SPEAKER_WORDS = frozenset({"i", "me", "my", "mine", "myself", "we", "us", "our"})
_FIRST_PERSON_HINT = re.compile(r"\b(?:[Ii]|[Mm][ey]|[Mm]ine|[Mm]yself|[Ww]e|[Uu]s|[Oo]ur)\b(?:['’]\w+)?")
PLACE_PREPOSITIONS = frozenset({"at", "in", "from", "to", "near", "into", "on", "across", "outside", "around"})
_SURFACE_NAME = re.compile(r"\s*(?:named |called |[,(:]\s*)?((?:[A-Z][\w'’&.-]*)(?:\s+(?:[A-Z][\w'’&.-]*|&|of|de|van))*)")
_PEOPLE = frozenset({"person", "self", "pet"})
ORIGIN_WEIGHT = {"fact": 1.0, "evidence": 0.9, "profile": 0.8}


@dataclass(frozen=True)
class Sentence:
    text: str
    origin: str  # "fact" | "profile" | "evidence"
    owner: str | None  # the entity whose profile or facts it comes from
    speaker: str | None  # who said it (evidence turns)
    when: datetime | None
    carry: str | None  # who a leading pronoun means: the last person named before it
    implicit: str | None  # who a sentence without a subject is about ("Works in publishing.")
    names: tuple[NameMatch, ...]  # entity mentions, in text order
    first_person: bool  # says "I", "my", "we"...
    turn: int | None = None  # the id of the evidence turn it was said in (None: a fact or profile)
    people: frozenset[str] = frozenset()  # the names the store holds as people, and the turns' speakers
    written: str | None = None  # the text as stored, when `text` names someone it only described

    @property
    def cited(self) -> str:
        """The text to cite: what the memory says, not the answerer's reading of it."""
        return self.written or self.text

    @property
    def weight(self) -> float:
        """Facts over evidence over profiles; a question answers nothing."""
        return ORIGIN_WEIGHT[self.origin] * (0.5 if is_question(self.text) else 1.0)


def split_sentences(text: str) -> list[str]:
    return [s.strip() for piece in _SPLIT.split(text) if piece for s in _lower_case_split(piece) if s.strip()]


# A full stop before a lower-case word ends a sentence in text written without capitals ("moved
# into halls at Brindle Court. my roommate is called Zofia"), unless it ends an abbreviation
# ("e.g. cheese", "approx. two", "Mr. and Mrs.") or an ellipsis ("so... anyway"). An exclamation
# or question mark is no such end: "got engaged!! to a nurse" is one sentence.
_LOWER_START = re.compile(r"(?<=\.)[\"')\]]*\s+(?=[a-z])")
_ABBREVIATION = re.compile(
    r"(?:\b(?:[a-z]\.){1,3}|\.\.|\b(?:etc|approx|vs|incl|esp|min|mins|hr|hrs|no|vol|ch|pp|fig|dept|est|ft|st|mt|mr|mrs"
    r"|ms|dr|prof|jr|sr|co|ltd|inc|ave|rd|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|mon|tue|tues|wed|thu"
    r"|thur|thurs|fri|sat|sun|wk|yr|yrs|kg|km|lb|lbs|oz|cm|mm|ml|pt|ed|al|cf|ca)\.)$",
    re.I,
)


def _lower_case_split(piece: str) -> list[str]:
    out, start = [], 0
    for m in _LOWER_START.finditer(piece):
        if not _ABBREVIATION.search(piece[start : m.start()]):
            out.append(piece[start : m.start()])
            start = m.end()
    return [*out, piece[start:]]


def gather(request: AnswerRequest) -> list[Sentence]:
    """Facts, then evidence, then profiles, each split into sentences with their mentions."""
    entries = NameIndex([(s.name, s.aliases) for s in request.slices])
    people = frozenset({s.name for s in request.slices if s.kind in _PEOPLE}
                       | {t.speaker.strip() for t in request.evidence if t.speaker and t.speaker.strip()})
    out: list[Sentence] = []
    for piece in request.slices:
        for fact in piece.facts:
            out.extend(_sentences(fact, "fact", piece.name, None, None, entries, people=people))
    for turn in request.evidence:
        out.extend(_sentences(turn.text, "evidence", None, turn.speaker, turn.timestamp, entries, turn.id, people))
    for piece in request.slices:
        out.extend(_sentences(piece.profile, "profile", piece.name, None, None, entries, people=people))
    return out


def _sentences(
    text: str,
    origin: str,
    owner: str | None,
    speaker: str | None,
    when: datetime | None,
    entries: NameIndex,
    turn: int | None = None,
    people: frozenset[str] = frozenset(),
) -> list[Sentence]:
    out = []
    carry, first_person = owner, True
    found = entries.find(text)  # once per text, then shared out to its sentences
    at = 0
    for part in split_sentences(text):
        start = text.find(part, at)
        at = start + len(part)
        names = tuple(
            NameMatch(m.entity, m.start - start, m.end - start, m.text) for m in found if start <= m.start < at
        )
        implicit = owner or (speaker if first_person or carry is None else carry)
        first_person = any(word_of(w) in SPEAKER_WORDS for w in _FIRST_PERSON_HINT.findall(part))
        out.append(Sentence(part, origin, owner, speaker, when, carry, implicit, names, first_person, turn, people))
        # a name opening the sentence is its subject and carries on whatever the store calls it; a
        # later one ("Cancelled Ironclad after five years.") only if the store holds it as someone
        subjects = [m.entity for m in names if _can_be_referred_to(part, m)
                    and (m.start == 0 or not people or m.entity in people)]
        if subjects:
            carry = subjects[-1]
    return out


def word_of(token: str) -> str:
    """"She's" -> "she", "I've" -> "i": the pronoun inside a contraction."""
    return re.sub(r"['’](?:s|ve|d|ll|m|re)$", "", token.lower())


def _after_place_word(text: str, match: NameMatch) -> bool:
    before = text[: match.start].split()
    return bool(before) and before[-1].lower() in PLACE_PREPOSITIONS


def _can_be_referred_to(text: str, match: NameMatch) -> bool:
    """"she" can mean "Alice" in "with Alice" and in "Alice's last shift" (what she owns is no
    one), not in "Alice's sister came" (she may be the sister) nor "from Leeds"."""
    if _after_place_word(text, match):
        return False
    if not is_possessive(text[match.start : match.end + 2]):
        return True
    owned = re.findall(r"[\w-]+", text[match.end + 2 : match.end + 40])[:3]
    return bool(owned) and not any(base_word(w.lower()) in RELATION_WORDS for w in owned)


def mentions(sentence: Sentence, entity: str, same: Callable[[str | None, str], bool] = operator.eq) -> bool:
    """Whether the sentence names `entity`, or its speaker is `entity` speaking of themself
    ("I", "my"). `same` says when two names stand for one entity: the same string, unless
    the caller allows a first name for the full one (chains.same_entity)."""
    return any(same(m.entity, entity) for m in sentence.names) or (
        same(sentence.speaker, entity) and sentence.first_person
    )


def name_at(sentence: Sentence, start: int, end: int) -> NameMatch | None:
    """The entity mention overlapping the character span, if any."""
    for match in sentence.names:
        if match.start < end and start < match.end:
            return match
    return None


def actor(sentence: Sentence, position: int, people_only: bool = False) -> tuple[str | None, int]:
    """Who does what the word at `position` (a character offset) says, and how many words
    back they were named (0 when the sentence has no subject and its context says who).
    `people_only`: a name the store holds as no person or pet is passed over ("Joined Crag &
    Cup, the bouldering gym": the gym is joined, by the writer)."""
    before = [t for t in tokens(sentence.text) if t.end() <= position]
    for distance, tok in enumerate(reversed(before), start=1):
        word = word_of(tok.group(0))
        named = name_at(sentence, tok.start(), tok.end())
        if named is not None:
            if _after_place_word(sentence.text, named) or (people_only and not _may_be_someone(sentence, named.entity)):
                continue  # "at St Mary's (she's a nurse": St Mary's is not the nurse
            return named.entity, distance
        if word in SPEAKER_WORDS:
            return sentence.speaker, distance
        if word in PRONOUNS:
            return resolve_pronoun(sentence, tok.start()), distance
    return sentence.implicit, 0


# "He's a baker, his name's Hal": a sentence that gives the pronoun's name says who it is.
_NAME_GIVEN = re.compile(r"\b(his|her)\s+name(?:['’]s|\s+is|\s+was)\s+", re.I)
_SAME_GENDER = {"he": "his", "him": "his", "his": "his", "she": "her", "her": "her"}


def resolve_pronoun(sentence: Sentence, position: int) -> str | None:
    """A pronoun means the person the sentence names as it ("his name's Hal"), else the last
    person named before it in its sentence, else the carried one."""
    text = sentence.text
    word = re.match(r"[\w'’]*", text[position:])
    pronoun = _SAME_GENDER.get(word_of(word.group(0)) if word else "")
    for given in _NAME_GIVEN.finditer(text):
        named = next((m for m in sentence.names if m.start == given.end()), None)
        if named is not None and pronoun == given.group(1).lower():
            return named.entity
    earlier = [
        m for m in sentence.names
        if m.end <= position and (is_possessive(text[m.start : m.end + 2]) or not _after_place_word(text, m))
        and not _THE_BEFORE.search(text[: m.start])
    ]
    if earlier:
        return earlier[-1].entity
    return sentence.carry


# "from the Rams' physio room: she …": a name after "the" is a team, a place or a thing, not a "she".
_THE_BEFORE = re.compile(r"\bthe\s+$", re.I)


def _may_be_someone(sentence: Sentence, entity: str) -> bool:
    """"she" can stand for a person or a pet, not for a team or a town the store knows as one
    ("Keri texted from the Otters' physio room: she started on Monday")."""
    return not sentence.people or entity in sentence.people


def surface_name(sentence: Sentence, start: int) -> str | None:
    """A capitalised name starting at or right after `start` that no entity stands for."""
    m = _SURFACE_NAME.match(sentence.text[start:])
    if not m:
        return None
    name = bare(m.group(1).rstrip(".,"))
    return name if name.lower() not in PRONOUNS and name.lower() not in SPEAKER_WORDS else None
