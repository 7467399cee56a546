"""Which sentences support an answer, and how well: the idf-weighted share of the
question's words a sentence carries (the question's own verb counting double), whether it is
said of the entity where the chain ends (or of the actor the question names), whether it
holds the kind of answer asked for, when it was said against the period the question
names, and how recent it is when the question asks for the current state.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from memhop.core.engines.offline import grammar, lists
from memhop.core.engines.offline.spans import (
    asked_role,
    asks_class,
    identity_question,
    role,
    role_given_to,
    set_off,
    span,
    starts_job,
)
from memhop.core.language import lexical, numbers
from memhop.core.language.chains import same_entity
from memhop.core.language.dates import find_dates
from memhop.core.language.periods import Period, stated_period, unpinned
from memhop.core.language.question import CURRENT, Question, asks_for_several
from memhop.core.language.sentences import Sentence, actor, mentions

MIN_COVERAGE = 0.34  # share of the question's (idf-weighted) words the best sentence must carry
SPAN_BONUS = 0.15  # a sentence that holds the kind of answer asked for ranks above one that does not
RECENCY_BONUS = 0.1  # among equals, the newer statement wins (jobs and homes change)
RECENCY_NOW = 0.3  # more so when the question asks for the current state ("where does she live now?")
NEAR_WORDS = 4  # an actor named this close to the matched word is surely its actor
# Question types whose answer is a typed span: without one, a sentence answers nothing.
AMOUNTS = frozenset({"how many", "how much", "how old", "how long", "how far"})
TYPED = AMOUNTS | {"when", "where"}
SCOPE_IN, SCOPE_OUT = 1.3, 0.5  # a sentence dated inside / outside the period the question names
_WHO_DID = re.compile(r"^\W*who\s+(?!(?:do|does|did|is|was|are|were)\b)[a-z]+", re.I)  # "Who found Gran ...?"
CONTEXT_SHARE = 0.5  # a name the question sets the answer in, said elsewhere in the sentence's turn, half counts
NOTE_SHARE = MIN_COVERAGE / 2  # the most a note without the verb adds: another word must match too
# What a note ("Tin Owls at the Copper Hall last night") says someone did at the place: were,
# went, visited, played or performed there; asked with a period it dates, it answers those.
_BEING_THERE = frozenset(lexical.stem(w) for w in "be go visit play perform stay spend attend".split())
VERB_WEIGHT = 2.0  # the question's own verb counts this many times its other words
SIZE_WEIGHT = 0.5  # "top three": how many, more than what the sentence must say
# Words that ask for the same thing in other words.
_SYNONYMS: dict[str, frozenset[str]] = {
    "work": frozenset({"job", "employ", "shift", "office", "hire"}),
    "job": frozenset({"work", "employ", "hire"}),
    "liv": frozenset({"home", "flat", "hous", "apartment", "mov"}),
    "start": frozenset({"began", "begin", "join"}),
    "lik": frozenset({"lov", "enjoy", "favourit", "favorit"}),
    "birth": frozenset({"born"}),
    "die": frozenset({"death", "dead", "passed"}),
    # "the drummer in Tin Owls" says who plays in the band
    "play": frozenset(lexical.stem(w) for w in (
        "drummer", "bassist", "guitarist", "pianist", "keyboardist", "violinist", "cellist", "saxophonist",
        "trumpeter", "singer", "vocalist", "frontman", "frontwoman")),
}


_MOVE = lexical.stem("move")
_WEIGHED = lexical.stem("weigh")
_WEIGHT_UNIT = re.compile(r"\b\d+(?:[.,]\d+)?\s?(?:kg|kgs|kilos?|lbs?|stone|oz)\b", re.I)  # not "pounds": money too
_WORK = lexical.stem("work")


def main_verb(question: Question) -> str | None:
    """The stem of the question's own verb, for the questions the grammar reads anyway."""
    if question.wh not in ("what", "which") or identity_question(question):
        return None
    verb = grammar.question_verb(question.text)
    return lexical.stem(verb) if verb else None


@dataclass(frozen=True)
class Scored:
    score: float
    sentence: Sentence
    hit: int
    second: bool = False  # it only hints at the answer (a note without the verb, "left for"): ranks last


def ranked(
    question: Question,
    predicate: tuple[str, ...],
    entity: str | None,
    sentences: Sequence[Sentence],
    doer: str | None = None,
    scope: Period | None = None,
) -> list[Scored]:
    """The sentences that support an answer, best first (empty: nothing clears the bar).

    Support is the idf-weighted share of the question's words a sentence carries; with no
    words left to match ("how old is Pepper?", "what does Carol do?") it is the typed
    answer itself (a number, a date, a place, a role) in a sentence about the entity.
    """
    words_of = [frozenset(lexical.terms(sentence.text)) for sentence in sentences]  # each sentence's words, read once
    idf, unseen = _idf(words_of)
    target = lexical.stem(question.target) if question.target else None
    weights = {t: idf.get(t, unseen) for t in predicate if t != target or t in idf}
    verb = main_verb(question)
    if verb in weights:
        weights[verb] *= VERB_WEIGHT  # "what did Ines name the kitten?" is about naming first
    asked = asked_role(question)
    if asked and lexical.stem(asked) in weights:
        weights[lexical.stem(asked)] *= VERB_WEIGHT  # "who is the president of the society?" is about the president
    if asks_for_several(question):  # "top three" says how many more than what the sentence says
        weights = {t: w * (SIZE_WEIGHT if t in lists.SIZE_WORDS else 1.0) for t, w in weights.items()}
    total = sum(weights.values())
    named = _named_terms(question) & set(weights)
    # "Bruno checkup. 39 lb" answers "how much did Bruno weigh?" — unless the question names a
    # time it does not pin ("in December"): the latest weight would answer for every December
    units = _WEIGHED in weights and not unpinned(question.text)
    said_in_turn = _turn_terms(sentences, words_of) if named else {}
    identity = identity_question(question)
    bases = verb_stems(question)
    found: list[Scored] = []
    classing = asks_class(question)
    for sentence in sentences:
        hits = matched(sentence, weights, bases, units)
        if _WORK in weights and _WORK not in hits and (given := role(sentence.text, current=True)) is not None:
            hits[_WORK] = given[1]  # "Wren is a vet at a practice in Clifton" says where she works
        # "left for Rome" stands in for "moved"/"lives" only where nothing says so outright
        second = any(set_off(sentence.text, pos) for pos in hits.values())
        credit = sum(weights[t] for t in hits)
        if named and sentence.turn is not None:  # "My time was 58:12" in a turn that names the Harbour 10K
            credit += CONTEXT_SHARE * sum(weights[t] for t in named - set(hits) if t in said_in_turn[sentence.turn])
        opening = _opening(sentence, entity) if question.wh in ("where", "when") and entity is not None else None
        # a note stands in for the verb only beside another matched word, or inside the period the question names
        placed = _in_scope(sentence, scope) if opening is not None and not hits else None
        dated = placed == SCOPE_IN
        if placed == SCOPE_OUT and grammar.verbless(sentence.text):
            continue  # "Ines at the Louvre" in May says nothing of where she was in June
        if opening is not None and (hits or dated):
            said = _said_verb(question)  # read only now, when a note could stand in for it (cached)
            if dated and said not in _BEING_THERE:
                continue  # "Ines at the Louvre" in May says she was there, not that she studied there
            if said in weights and said not in hits and grammar.verbless(sentence.text):
                hits[said] = opening
                credit += min(weights[said], NOTE_SHARE * total)
                second = True
        coverage = credit / total if total else 0.0
        if dated and hits:  # "Tin Owls at the Copper Hall last night", asked "where did they play in June?"
            coverage = max(coverage, MIN_COVERAGE)
        attached = False  # the grammar itself ties the answer to the entity ("his whippet Juno")
        if not total and (identity or question.wh in TYPED or classing):
            typed = role(sentence.text) if identity else None
            given_to = role_given_to(sentence.text, typed[1]) if typed else None
            if given_to and entity and not same_entity(given_to, entity):
                continue  # "Teodor got engaged to a nurse called Vesna": the nurse is Vesna
            at = typed[1] if typed else _first_content(sentence)
            short = None if typed else span(question, sentence, at, entity, loose=False)
            if typed or short:
                coverage, hits = 1.0, {"": at}
            where = _said_at(sentence.text, short) if short else None
            if where is not None:  # or of whoever is named right before the answer
                hits["span"] = where
            attached = classing and bool(short)
        elif identity and (typed := role(sentence.text)) and coverage:
            given_to = role_given_to(sentence.text, typed[1])
            if given_to and entity and not same_entity(given_to, entity):
                continue  # the role is the named one's, whatever else the sentence matched
            hits = {**hits, "": typed[1]}
        if coverage < MIN_COVERAGE or not hits:
            continue
        if attached:
            about = 1.0
        elif _WHO_DID.match(question.text) and entity is not None:
            about = max(_done_to(sentence, pos, entity) for pos in hits.values())
        else:
            about = max(_about(sentence, pos, entity, doer) for pos in hits.values())
        if about <= 0:
            continue
        hit = max(hits.values()) if identity else min(hits.values())
        score = coverage * about * sentence.weight * _in_scope(sentence, scope)
        if span(question, sentence, hit, entity):
            score += SPAN_BONUS
        found.append(Scored(score, sentence, hit, second))
    return sorted(_newer_first(found, RECENCY_NOW if asks_now(question) else RECENCY_BONUS), key=lambda f: (f.second, -f.score))


# States one holds one at a time (a home, a job): asked in the simple present, the latest
# statement answers. Not "which instrument does she play?": she may play several.
_ONE_AT_A_TIME = frozenset(lexical.stem(w) for w in ("live", "work", "study", "stay"))


def _named_terms(question: Question) -> set[str]:
    """The words of the names a question gives besides its first word ("the Harbour 10K",
    "on the Fourth of July"): what the answer is set in, which its turn may say for it."""
    words = re.findall(r"(?<=\s)[A-Z][\w'’-]*", question.text)
    return {t for w in words for t in lexical.terms(w)}


def _turn_terms(sentences: Sequence[Sentence], said: Sequence[frozenset[str]]) -> dict[int, set[str]]:
    """The words each evidence turn says, over all its sentences."""
    turns: dict[int, set[str]] = {}
    for sentence, terms in zip(sentences, said):
        if sentence.turn is not None:
            turns.setdefault(sentence.turn, set()).update(terms)
    return turns


def _said_at(text: str, short: str) -> int | None:
    """Where a span stands in its sentence, a number read from words ("eleven" for 11) included."""
    if short in text:
        return text.index(short)
    if short.isdigit():
        for m in re.finditer(rf"\b{numbers.WORD_NUMBER}\b", text, re.I):
            if numbers.value(m.group(0)) == int(short):
                return m.start()
    return None


def asks_now(question: Question) -> bool:
    """"Where does she live now?" and "where does she live?" alike ask for the state today."""
    words = lexical.words(question.text)
    if any(w in CURRENT for w in words):
        return True
    if not any(w in ("do", "does") for w in words[1:]):
        return False
    return identity_question(question) or bool(set(question.predicate) & _ONE_AT_A_TIME)


_NOTE_PLACE = re.compile(r"\s+(?:at|in|on|from|to|near)\s")


def _said_verb(question: Question) -> str:
    """The stem of the verb a "where" or "when" question asks about ("where did they play?"):
    "be" for a copula question ("where were they in June?")."""
    verb = grammar.question_verb(question.text)
    return lexical.stem(verb or "be")


def _opening(sentence: Sentence, entity: str) -> int | None:
    """Where the words after `entity` start, when a sentence (without a verb) opens with it and
    a preposition ("Tin Owls at the Copper Hall last night"): it says where or when the
    entity did whatever the question asks."""
    first = sentence.names[0] if sentence.names else None
    if first is None or first.start != 0 or not same_entity(first.entity, entity):
        return None
    if not _NOTE_PLACE.match(sentence.text, first.end):
        return None  # the name must be followed by where: "Tin Owls rehearse on Thursdays" has a verb
    return first.end  # the caller checks it has no verb, the one costly test


def _newer_first(found: list[Scored], bonus: float) -> list[Scored]:
    """A recency bonus among the supporting sentences, by the dates they carry."""
    days = [date_of(f.sentence) for f in found]
    stamps = sorted({d for d in days if d})
    if len(stamps) < 2:
        return found
    return [
        Scored(f.score + bonus * stamps.index(d) / (len(stamps) - 1), f.sentence, f.hit, f.second) if d else f
        for f, d in zip(found, days)
    ]


def _idf(said: Sequence[frozenset[str]]) -> tuple[dict[str, float], float]:
    """Rare words weigh more; a word no sentence has weighs most (it cannot be matched).
    `said`: each sentence's words."""
    df: Counter[str] = Counter()
    for terms in said:
        df.update(terms)
    n = max(len(said), 1)
    return {t: math.log(1 + n / c) for t, c in df.items()}, math.log(1 + n / 0.5)


def matched(sentence: Sentence, weights: dict[str, float], bases: dict[str, str] | None = None,
            units: bool = False) -> dict[str, int]:
    """Each question word the sentence carries (or a synonym of it, or another form of the
    same verb: "gave" for "give", "died" for "die"), with its offset. `bases`: question
    term -> the stem of its bare verb; `units`: a weight's unit after a number says "weigh"."""
    found: dict[str, int] = {}
    if units and (unit := _WEIGHT_UNIT.search(sentence.text)):
        found[_WEIGHED] = unit.start()
    for word, start in lexical.positions(sentence.text):
        stem = lexical.stem(word)
        base = lexical.stem(grammar.verb_base(word))
        if set_off(sentence.text, start):
            stem = _MOVE  # "left for Lyon" may say where someone went to live, as "moved to Lyon" does
        elif starts_job(sentence.text, start):
            stem = _WORK  # "starts at North Shore Dermatology on Monday": works there from then
        for term in weights:
            if term in found:
                continue
            if stem == term or stem in _SYNONYMS.get(term, ()) or base in (term, (bases or {}).get(term)):
                found[term] = start
    return found


def verb_stems(question: Question) -> dict[str, str]:
    """Each question term with the stem of its bare verb form ("brought" -> "bring")."""
    return {lexical.stem(w): lexical.stem(grammar.verb_base(w)) for w in lexical.words(question.text)}


def _first_content(sentence: Sentence) -> int:
    """Where a sentence's own words start, past a leading name ("Carol: ...")."""
    ends = [m.end for m in sentence.names if m.start == 0]
    return ends[0] if ends else 0


def _about(sentence: Sentence, position: int, entity: str | None, asked_doer: str | None = None) -> float:
    """How surely the word at `position` is said of `entity` (1 sure, 0 it is someone else's);
    with `asked_doer`, of that actor doing it to `entity`."""
    if entity is None:  # "which venues did we look at?": the asker's doing, not another speaker's "I"
        found = actor(sentence, position)[0] if asked_doer is not None else None
        return 1.0 if found is None or same_entity(found, asked_doer) else 0.0
    doer, distance = actor(sentence, position, people_only=entity in sentence.people)
    if distance == 0 and _equated(sentence.text, position, entity):
        return 1.0  # "the drummer in Tin Owls is Cal": Cal is the drummer
    if asked_doer is not None:
        if not same_entity(doer, asked_doer):
            return 0.0
        return 1.0 if mentions(sentence, entity) else 0.8
    if same_entity(doer, entity):
        return 1.0 if distance <= NEAR_WORDS else 0.8
    if doer is None and (sentence.owner == entity or mentions(sentence, entity)):
        return 0.7
    return 0.0


def _done_to(sentence: Sentence, position: int, entity: str) -> float:
    """"Who found Gran?" asks for the doer, so the word at `position` must be done by someone
    other than `entity`, in a sentence that names `entity`."""
    doer, _ = actor(sentence, position)
    if doer is None or same_entity(doer, entity) or not mentions(sentence, entity):
        return _about(sentence, position, entity) * 0.5
    return 1.0


_CLAUSE_END = re.compile(r"[.;:!?]|\s[—–-]\s")


def _equated(text: str, position: int, entity: str) -> bool:
    """The word at `position` describes `entity` through a copula in its clause: "the drummer
    in Tin Owls is Cal Rees", "Cal Rees is the drummer in Tin Owls"."""
    starts = [m.end() for m in _CLAUSE_END.finditer(text) if m.end() <= position]
    ends = [m.start() for m in _CLAUSE_END.finditer(text) if m.start() > position]
    before = text[starts[-1] if starts else 0 : position]
    after = text[position : ends[0] if ends else len(text)]
    name = re.escape(entity)
    subject = re.match(r"\W*(?:the|a|an)\b", before) and re.match(rf"[^,]*?\s(?:is|was)\s+{name}\b", after)
    complement = re.search(rf"\b{name}\s+(?:is|was)\s+(?:the|a|an)\s+(?:\w+\s+)?$", before)
    return bool(subject or complement)


def scope_of(text: str) -> tuple[Period | None, frozenset[str]]:
    """The period a question is limited to ("in May 2024", "between March and May 2023",
    "since April 2024" up to today) and the words that say it."""
    return _scope(text, date.today())


@lru_cache(maxsize=256)
def _scope(text: str, today: date) -> tuple[Period | None, frozenset[str]]:
    """Read once a question and day: the answerer asks for it at each of its steps."""
    stated = stated_period(text, today)
    if stated is None:
        return None, frozenset()
    return stated, frozenset(lexical.terms(stated.words)) | frozenset(lexical.words(stated.words))


def _in_scope(sentence: Sentence, scope: Period | None) -> float:
    """A sentence dated inside the question's period counts more, one dated outside less."""
    if scope is None:
        return 1.0
    days = _stated_days(sentence.text)
    if sentence.when:
        days.append(sentence.when.date())
    if not days:
        return 1.0
    return SCOPE_IN if any(scope.covers(d) for d in days) else SCOPE_OUT


def date_of(sentence: Sentence) -> date | None:
    """When a sentence was true: its turn's date, or the absolute date a fact states."""
    if sentence.when:
        return sentence.when.date()
    days = [d.day for d in find_dates(sentence.text, None) if d.day and d.explicit]
    return max(days) if days else None


def _stated_days(text: str) -> list[date]:
    """The absolute dates a text states ("on 28 June 2024", "2024-06-28"), not relative ones:
    without a reference day only ISO dates and years would be read. (Only the period test
    reads them so: as recency, a fact's "as of" date would favour "has left the bakery" over
    the job that followed.)"""
    return [d.day for d in find_dates(text, date.today()) if d.day and d.explicit]
