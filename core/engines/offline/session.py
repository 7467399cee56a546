"""One analysis of a session, shared by every per-entity call of the offline engine.

Sentences with their mentions: names (the entities identify() found), "I/my" (the
speaker), and he/she/his/her resolved to the most recent compatible person or pet.
Relations and dates are found here once, so each coextract() only selects and rewrites.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from memhop.core.engines.offline import captions, dating
from memhop.core.engines.offline.clauses import read_tokens
from memhop.core.engines.offline.model import Mention, Sentence, SessionAnalysis, marked
from memhop.core.engines.offline.names import (
    is_bot,
    is_self_speaker,
    is_vocative,
    plausible_mention,
    self_name_of,
    sentence_starts,
)
from memhop.core.engines.offline.pronouns import resolve_pronouns, seed_genders
from memhop.core.language import relations
from memhop.core.language.names import find_names, match_registry
from memhop.core.model import FoundEntity, SessionView, TurnView

if TYPE_CHECKING:
    from spacy.tokens import Doc

_NOISE = re.compile(
    rf"{captions.PHOTO_MARKER}|<media omitted>|this message was deleted|\[(?:photo|sticker[^\]]*|video|voice message|image|gif)\]|https?://\S+",
    re.I,
)
_LIST_LINE = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")


def analyse(session: SessionView, entities: Sequence[FoundEntity], docs: Sequence[Doc]) -> SessionAnalysis:
    ents = list(entities)
    forms = [(e.name, e.aliases) for e in ents if e.name.lower() not in ("me", "user")]
    index = {e.name: i for i, e in enumerate(ents)}
    speakers: dict[str, int | None] = {}
    for turn in session.turns:
        speakers[turn.speaker] = _speaker_index(session, turn.speaker, ents)
    sentences: list[Sentence] = []
    for pos, (turn, doc) in enumerate(zip(session.turns, docs)):
        kinds = {i: e.kind for i, e in enumerate(ents)}
        sentences.extend(_sentences(session, pos, turn, doc, forms, index, speakers[turn.speaker], kinds))
    for i, s in enumerate(sentences):
        s.index = i
    genders = seed_genders(ents, sentences)
    resolve_pronouns(sentences, genders, {i for i in speakers.values() if i is not None}, ents)
    found: list[tuple[relations.Relation, int]] = []
    for s, after in zip(sentences, [*sentences[1:], None]):
        owner = s.speaker if (s.first_person or s.group or _borrows_first_person(s, after)) else None
        for rel in relations.find_relations(marked(s), owner, s.speaker):
            found.append((rel, s.index))
        found.extend((rel, s.index) for rel in _kin_relations(s, ents))
    _mark_about(sentences, ents)
    return SessionAnalysis(session, ents, sentences, found, genders, {i for i in speakers.values() if i is not None})


def _speaker_index(session: SessionView, speaker: str, ents: list[FoundEntity]) -> int | None:
    name = self_name_of(session) if is_self_speaker(session, speaker) else speaker.strip()
    for i, e in enumerate(ents):
        if match_registry(name, [(e.name, e.aliases)]) == e.name:
            return i
    return None


def _sentences(
    session: SessionView,
    pos: int,
    turn: TurnView,
    doc: Doc,
    forms: list[tuple[str, tuple[str, ...]]],
    index: dict[str, int],
    speaker: int | None,
    kinds: dict[int, str],
) -> list[Sentence]:
    if is_bot(turn.speaker):
        return []
    starts = sentence_starts(doc)
    tagged = {e.start_char for e in doc.ents}
    self_turn = is_self_speaker(session, turn.speaker)
    names = [m for m in find_names(turn.text, forms) if plausible_mention(m, doc, starts, self_turn, tagged)]
    when = turn.timestamp or session.started_at
    day = when.date() if when else None
    lines = turn.text.splitlines()
    if sum(bool(_LIST_LINE.match(line)) for line in lines) >= 2:
        # A bulleted message is one list, not a handful of fragments.
        items = [_LIST_LINE.sub("", line).strip() for line in lines if line.strip()]
        text = " ".join(f"{item}" if item.endswith(":") or i == len(items) - 1 else f"{item};" for i, item in enumerate(items))
        s = Sentence(0, turn, pos, text, None, speaker, day, is_list=True)
        s.mentions = [Mention(index[m.entity], 0, 0, "name") for m in names if m.entity in index]
        s.first_person = bool(re.search(r"\b(?:I|my|me)\b", text))
        return [s]
    out: list[Sentence] = []
    for span in doc.sents:
        text = span.text.strip()
        if not _NOISE.sub("", text).strip(" .,!?-—"):
            continue
        s = Sentence(0, turn, pos, text, span, speaker, day)
        lead = span.start_char + (len(span.text) - len(span.text.lstrip()))
        for m in names:
            if span.start_char <= m.start < span.end_char and m.entity in index:
                s.mentions.append(Mention(index[m.entity], m.start - lead, m.end - lead, "name"))
        read_tokens(s, span, lead, speaker)
        for mention in s.mentions:
            token = next((t for t in span if t.idx - lead == mention.start), None)
            addressable = kinds.get(mention.entity) in ("person", "self", "pet")  # nobody says "Thanks, Carlisle!"
            mention.vocative = mention.how == "name" and addressable and is_vocative(
                text, mention.start, mention.end, token.dep_ if token else ""
            )
        s.dates = dating.resolve(s.text, s.day, span, lead)  # the side of the turn each date's clause points to
        out.append(s)
    return out


def _borrows_first_person(s: Sentence, after: Sentence | None) -> bool:
    """A fragment with no subject of its own ("Four years as Femi's flatmate") takes the
    subject of the clause it runs into in the same turn ("and I never …")."""
    return (
        s.fragment and after is not None and after.turn.id == s.turn.id and after.first_person
        and after.text.lstrip().lower().startswith(("and ", "but ", "so "))
    )


def _kin_relations(s: Sentence, ents: list[FoundEntity]) -> list[relations.Relation]:
    """"Mum" said by someone makes that entity the speaker's mum."""
    out: list[relations.Relation] = []
    if s.speaker is None:
        return out
    for m in s.mentions:
        surface = s.text[m.start : m.end].lower() if m.how == "name" else ""
        if surface in relations.KIN_ALIASES and m.entity != s.speaker:
            out.append(relations.Relation(m.entity, surface, s.speaker))
    return out


def _mark_about(sentences: list[Sentence], ents: list[FoundEntity]) -> None:
    """Who each sentence tells something about.

    The speaker, when they speak of themselves (first person, or a diary's subjectless
    "Walked to the market") or of nobody else; a subjectless "Works in publishing" is
    about whoever the sentence before was about; a verbless fragment inherits outright.
    """
    previous: set[int] = set()
    previous_turn = -1
    for s in sentences:
        named = s.named()
        people = {i for i in named if ents[i].kind in ("person", "pet", "self")}
        same_turn = previous_turn == s.turn_pos
        if s.subjectless and s.span is not None:
            others = sorted(previous - {s.speaker}) if same_turn else []
            third_verb = s.span.root.tag_ == "VBZ"
            s.implied = others[0] if third_verb and others else s.speaker
        about = set(named)
        if s.implied is not None:
            about.add(s.implied)
        if s.speaker is not None and (
            s.first_person or s.group or (s.subjectless and s.implied == s.speaker) or not (people or s.third)
        ):
            about.add(s.speaker)
        if (s.fragment or s.continuation) and not named and not s.first_person and same_turn:
            about = set(previous)  # "6 years old and ..." continues the sentence before
        s.about = about
        previous, previous_turn = about, s.turn_pos
