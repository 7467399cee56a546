"""The offline answerer: deterministic and extractive, no model.

It walks the chain the question describes ("Alice's roommate's sister": in what is said
about Alice find "roommate" next to a name -> Bob; about Bob find "sister" -> Carol),
then takes the answer from the sentences about the entity where the chain ends — verified
facts first, then evidence turns, then profiles — and cuts it to the span the question
asks for. When no sentence carries enough of the question's words, it says exactly
"I don't know" instead of guessing.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from memhop.core.engines.offline import grammar
from memhop.core.engines.offline.spans import JOB_WORDS, asks_class, clause, identity_question, role, span
from memhop.core.language import lexical
from memhop.core.language.chains import follow, same_entity
from memhop.core.language.dates import find_dates
from memhop.core.language.question import FIRST_PERSON, Question, is_relation, parse
from memhop.core.language.relations import ANIMALS
from memhop.core.language.sentences import Sentence, actor, gather, mentions
from memhop.core.model import AnswerRequest

DONT_KNOW = "I don't know"
MIN_COVERAGE = 0.34  # share of the question's (idf-weighted) words the best sentence must carry
SPAN_BONUS = 0.15  # a sentence that holds the kind of answer asked for ranks above one that does not
RECENCY_BONUS = 0.1  # among equals, the newer statement wins (jobs and homes change)
NEAR_WORDS = 4  # an actor named this close to the matched word is surely its actor
# Question types whose answer is a typed span: without one, a sentence answers nothing.
AMOUNTS = frozenset({"how many", "how much", "how old", "how long", "how far"})
TYPED = AMOUNTS | {"when", "where"}
NEEDS_SPAN = TYPED | {"who", "whom"}  # a clause is no answer to these
SPAN_REACH = 8  # supporting sentences searched for a typed span before falling back to the best one
# Words that ask for the same thing in other words.
_SYNONYMS: dict[str, frozenset[str]] = {
    "work": frozenset({"job", "employ", "shift", "office", "hire"}),
    "job": frozenset({"work", "employ", "hire"}),
    "liv": frozenset({"home", "flat", "hous", "apartment", "mov"}),
    "start": frozenset({"began", "begin", "join"}),
    "lik": frozenset({"lov", "enjoy", "favourit", "favorit"}),
}


@dataclass(frozen=True)
class Explanation:
    """What the answerer did: the chain it walked and the sentence it answered from."""

    answer: str
    chain: tuple[str, ...]  # entity names from where the question starts to where it ends
    sentence: str | None  # the supporting sentence (None: from the chain alone, or no answer)


def answer_offline(request: AnswerRequest) -> str:
    return explain(request).answer


def explain(request: AnswerRequest) -> Explanation:
    """The answer, the chain walked to reach it and the sentence it came from."""
    sentences = gather(request)
    names = [s.name for s in request.slices]
    question = parse(request.question, names)
    start = _start(question, request, names)
    if question.relations and start is None:
        return Explanation(DONT_KNOW, (), None)
    chain = [start] if start else []
    leftover: list[str] = []
    for i, relation in enumerate(question.relations):
        following = follow(chain[-1], relation, sentences)
        if following is None:
            head = relation.split()[-1]
            if i < len(question.relations) - 1 or (is_relation(head) and head.rstrip("s") not in ANIMALS):
                return Explanation(DONT_KNOW, tuple(chain), None)  # nobody known is that relative
            leftover = lexical.terms(relation)  # "Carol's dog's breed": said of the dog, unnamed
            break
        chain.append(following)
    end = chain[-1] if chain else None
    predicate = tuple(dict.fromkeys((*question.predicate, *leftover)))
    if identity_question(question):
        predicate = tuple(t for t in predicate if t not in {lexical.stem(w) for w in JOB_WORDS})
    elif not predicate and question.wh not in TYPED:
        if end and len(chain) > 1:
            return Explanation(end, tuple(chain), None)  # "who is Alice's roommate?"
        return Explanation(_describe(end, sentences), tuple(chain), None)
    ranked = _ranked(question, predicate, end, sentences, _doer(question, request))
    for scored in ranked[:SPAN_REACH]:  # a typed span from any well-supported sentence first
        short = span(question, scored.sentence, scored.hit, end, loose=False)
        if short and not _echoes(short, question):
            return Explanation(short, tuple(chain), scored.sentence.text)
    if ranked and question.wh not in NEEDS_SPAN:  # else the best sentence's own words
        top = ranked[0]
        short = span(question, top.sentence, top.hit, end)
        if not short or _echoes(short, question):
            short = clause(top.sentence.text, top.hit)
        return Explanation(short, tuple(chain), top.sentence.text)
    return Explanation(DONT_KNOW, tuple(chain), None)


def _echoes(short: str, question: Question) -> bool:
    """"Where did Ines work before Halden?" is not answered by "Halden Labs": a name the
    question itself gives is not its answer."""
    if short.lower() in question.text.lower():
        return True
    asked = {w.lower() for w in re.findall(r"\b[A-Z][\w'’&-]+", question.text)} - {"what", "which", "who", "where", "when", "how"}
    named = {w.lower() for w in re.findall(r"\b[A-Z][\w'’&-]+", short)}
    return question.wh in ("where", "who", "whom") and bool(named & asked)


def _start(question: Question, request: AnswerRequest, names: Sequence[str]) -> str | None:
    """The entity the question starts from; "I"/"my" is the read path's first anchor (self)."""
    owner = question.owner
    if owner is None:
        return None
    if owner.lower() in FIRST_PERSON:
        return request.chain[0] if request.chain else None
    for name in names:
        if same_entity(owner, name):
            return name
    if request.chain and owner[:1].isupper():
        return request.chain[0]  # a nickname the read path resolved ("Rafa" for its "Rafaela")
    return owner


def _doer(question: Question, request: AnswerRequest) -> str | None:
    """Who the question says acted, when not the entity it is about: "what did I give Ines?"
    asks what the speaker (the read path's first anchor) did, to Ines."""
    subject = grammar.frame(question.text).subject
    if subject and subject.lower() in FIRST_PERSON and request.chain and question.owner not in FIRST_PERSON:
        return request.chain[0]
    return None


def _describe(entity: str | None, sentences: Sequence[Sentence]) -> str:
    """"Who is Alice?": the first thing said about her."""
    for sentence in sentences:
        if entity and sentence.owner == entity:
            return clause(sentence.text, 0)
    return DONT_KNOW


@dataclass(frozen=True)
class _Scored:
    score: float
    sentence: Sentence
    hit: int


def _ranked(
    question: Question,
    predicate: tuple[str, ...],
    entity: str | None,
    sentences: Sequence[Sentence],
    doer: str | None = None,
) -> list[_Scored]:
    """The sentences that support an answer, best first (empty: nothing clears the bar).

    Support is the idf-weighted share of the question's words a sentence carries; with no
    words left to match ("how old is Pepper?", "what does Carol do?") it is the typed
    answer itself (a number, a date, a place, a role) in a sentence about the entity.
    """
    idf, unseen = _idf(sentences)
    target = lexical.stem(question.target) if question.target else None
    weights = {t: idf.get(t, unseen) for t in predicate if t != target or t in idf}
    total = sum(weights.values())
    identity = identity_question(question)
    found: list[_Scored] = []
    for sentence in sentences:
        hits = _hits(sentence, weights)
        coverage = sum(weights[t] for t in hits) / total if total else 0.0
        if not total and (identity or question.wh in TYPED or asks_class(question)):
            typed = role(sentence.text) if identity else None
            at = typed[1] if typed else _first_content(sentence)
            if typed or span(question, sentence, at, entity):
                coverage, hits = 1.0, {"": at}
        elif identity and (typed := role(sentence.text)) and coverage:
            hits = {**hits, "": typed[1]}
        if coverage < MIN_COVERAGE or not hits:
            continue
        about = max(_about(sentence, pos, entity, doer) for pos in hits.values())
        if about <= 0:
            continue
        hit = max(hits.values()) if identity else min(hits.values())
        score = coverage * about * sentence.weight
        if span(question, sentence, hit, entity):
            score += SPAN_BONUS
        found.append(_Scored(score, sentence, hit))
    return sorted(_newer_first(found), key=lambda f: -f.score)


def _newer_first(found: list[_Scored]) -> list[_Scored]:
    """A recency bonus among the supporting sentences, by the dates they carry."""
    days = [_date_of(f.sentence) for f in found]
    stamps = sorted({d for d in days if d})
    if len(stamps) < 2:
        return found
    return [
        _Scored(f.score + RECENCY_BONUS * stamps.index(d) / (len(stamps) - 1), f.sentence, f.hit) if d else f
        for f, d in zip(found, days)
    ]


def _idf(sentences: Sequence[Sentence]) -> tuple[dict[str, float], float]:
    """Rare words weigh more; a word no sentence has weighs most (it cannot be matched)."""
    df: Counter[str] = Counter()
    for sentence in sentences:
        df.update(set(lexical.terms(sentence.text)))
    n = max(len(sentences), 1)
    return {t: math.log(1 + n / c) for t, c in df.items()}, math.log(1 + n / 0.5)


def _hits(sentence: Sentence, weights: dict[str, float]) -> dict[str, int]:
    """Each question word the sentence carries (or a synonym of it), with its offset."""
    found: dict[str, int] = {}
    for word, start in lexical.positions(sentence.text):
        stem = lexical.stem(word)
        for term in weights:
            if term not in found and (stem == term or stem in _SYNONYMS.get(term, ())):
                found[term] = start
    return found


def _first_content(sentence: Sentence) -> int:
    """Where a sentence's own words start, past a leading name ("Carol: ...")."""
    ends = [m.end for m in sentence.names if m.start == 0]
    return ends[0] if ends else 0


def _about(sentence: Sentence, position: int, entity: str | None, asked_doer: str | None = None) -> float:
    """How surely the word at `position` is said of `entity` (1 sure, 0 it is someone else's);
    with `asked_doer`, of that actor doing it to `entity`."""
    if entity is None:
        return 1.0
    doer, distance = actor(sentence, position)
    if asked_doer is not None:
        if not same_entity(doer, asked_doer):
            return 0.0
        return 1.0 if mentions(sentence, entity) else 0.8
    if same_entity(doer, entity):
        return 1.0 if distance <= NEAR_WORDS else 0.8
    if doer is None and (sentence.owner == entity or mentions(sentence, entity)):
        return 0.7
    return 0.0


def _date_of(sentence: Sentence) -> date | None:
    """When a sentence was true: its turn's date, or the absolute date a fact states."""
    if sentence.when:
        return sentence.when.date()
    days = [d.day for d in find_dates(sentence.text, None) if d.day and d.explicit]
    return max(days) if days else None
