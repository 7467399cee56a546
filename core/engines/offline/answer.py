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

from memhop.core.engines.offline import grammar, lists
from memhop.core.engines.offline.spans import JOB_WORDS, asks_class, asks_name, clause, identity_question, role, span
from memhop.core.language import lexical
from memhop.core.language.chains import follow, same_entity
from memhop.core.language.dates import find_dates, period
from memhop.core.language.question import (
    CURRENT,
    FIRST_PERSON,
    Question,
    bare,
    is_relation,
    parse,
    relation_forms,
)
from memhop.core.language.relations import ANIMALS
from memhop.core.language.sentences import Sentence, actor, gather, mentions
from memhop.core.model import AnswerRequest

DONT_KNOW = "I don't know"
MIN_COVERAGE = 0.34  # share of the question's (idf-weighted) words the best sentence must carry
SPAN_BONUS = 0.15  # a sentence that holds the kind of answer asked for ranks above one that does not
RECENCY_BONUS = 0.1  # among equals, the newer statement wins (jobs and homes change)
RECENCY_NOW = 0.3  # more so when the question asks for the current state ("where does she live now?")
NEAR_WORDS = 4  # an actor named this close to the matched word is surely its actor
# Question types whose answer is a typed span: without one, a sentence answers nothing.
AMOUNTS = frozenset({"how many", "how much", "how old", "how long", "how far"})
TYPED = AMOUNTS | {"when", "where"}
NEEDS_SPAN = TYPED | {"who", "whom"}  # a clause is no answer to these
SCOPE_IN, SCOPE_OUT = 1.3, 0.5  # a sentence dated inside / outside the period the question names
VERB_WEIGHT = 2.0
SIZE_WEIGHT = 0.5  # the question's own verb counts this many times its other words
STRONG_SHARE = 0.6  # a list or count gathers from sentences scoring at least this share of the best
SPAN_REACH = 8  # supporting sentences searched for a typed span before falling back to the best one
_FIRST_PERSON_SUBJECT = re.compile(r"\b(?:do|did|have|had|will|would|can|could|should|am|was)\s+I\b")
_SPOUSES = relation_forms("partner")  # wife, husband, partner, spouse...
# Words of an amount question that name its type, not what the sentence must say.
_AMOUNT_WORDS = frozenset(lexical.stem(w) for w in ("turn", "turned", "age", "aged", "old", "cost", "long", "far", "times"))
# Words that ask for the same thing in other words.
_SYNONYMS: dict[str, frozenset[str]] = {
    "work": frozenset({"job", "employ", "shift", "office", "hire"}),
    "job": frozenset({"work", "employ", "hire"}),
    "liv": frozenset({"home", "flat", "hous", "apartment", "mov"}),
    "start": frozenset({"began", "begin", "join"}),
    "lik": frozenset({"lov", "enjoy", "favourit", "favorit"}),
    "birth": frozenset({"born"}),
    "di": frozenset({"death", "dead", "passed"}),
}


@dataclass(frozen=True)
class Explanation:
    """What the answerer did: the chain it walked and the sentence it answered from."""

    answer: str
    chain: tuple[str, ...]  # entity names from where the question starts to where it ends
    sentence: str | None  # the supporting sentence (None: from the chain alone, or no answer)

    @property
    def span(self) -> tuple[int, int] | None:
        """Where the answer stands in its sentence (character offsets), when it was cut
        from it word for word; None for a refusal, a list, a count or a resolved date."""
        if self.sentence is None:
            return None
        at = self.sentence.find(self.answer)
        return (at, at + len(self.answer)) if at >= 0 and self.answer else None


def answer_offline(request: AnswerRequest) -> str:
    return explain(request).answer


def explain(request: AnswerRequest) -> Explanation:
    """The answer, the chain walked to reach it and the sentence it came from."""
    sentences = gather(request)
    names = [s.name for s in request.slices]
    question = parse(request.question, names)
    start = _start(question, request, names)
    if (question.relations and start is None) or (start is None and _unknown_name(question.text, sentences)):
        return Explanation(DONT_KNOW, (), None)
    chain = [start] if start else []
    leftover: list[str] = []
    for i, relation in enumerate(question.relations):
        following = _kin_entity(relation, names) if i == 0 and question.owner in FIRST_PERSON else None
        following = following or follow(chain[-1], relation, sentences) or _spouse_of(chain[-1], relation, names, sentences)
        if following is None:
            head = relation.split()[-1]
            if i < len(question.relations) - 1 or (is_relation(head) and head.rstrip("s") not in ANIMALS):
                return Explanation(DONT_KNOW, tuple(chain), None)  # nobody known is that relative
            leftover = lexical.terms(relation)  # "Carol's dog's breed": said of the dog, unnamed
            break
        chain.append(following)
    end = chain[-1] if chain else None
    scope, said = _scope(question.text)  # "in May 2024": when, not words to match
    predicate = tuple(t for t in dict.fromkeys((*question.predicate, *leftover)) if t not in said)
    if question.wh in AMOUNTS:
        predicate = tuple(t for t in predicate if t not in _AMOUNT_WORDS)
    if identity_question(question):
        predicate = tuple(t for t in predicate if t not in {lexical.stem(w) for w in JOB_WORDS})
    elif not predicate and question.wh not in TYPED:
        if end and len(chain) > 1:
            return Explanation(end, tuple(chain), None)  # "who is Alice's roommate?"
        return Explanation(_describe(end, sentences), tuple(chain), None)
    ranked = _ranked(question, predicate, end, sentences, _doer(question, request), scope)
    if ranked and lists.wants_list(question):
        gathered = _gathered(question, ranked)
        if gathered:
            return Explanation(gathered[0], tuple(chain), gathered[1])
    for scored in ranked[:SPAN_REACH]:  # a typed span from any well-supported sentence first
        short = span(question, scored.sentence, scored.hit, end, loose=False)
        if short and not _echoes(short, question):
            return Explanation(short, tuple(chain), scored.sentence.text)
    if ranked and lists.wants_count(question):  # "how many times": the days it happened on
        counted = lists.occasions([_date_of(s.sentence) for s in _strong(ranked)])
        if counted:
            return Explanation(counted, tuple(chain), ranked[0].sentence.text)
    top = ranked[0] if ranked else None
    if top and question.wh not in NEEDS_SPAN and not asks_name(question) and _grounded(question, top.sentence):
        short = span(question, top.sentence, top.hit, end)  # else the best sentence's own words
        if not short or _echoes(short, question) or all(w in lexical.STOPWORDS for w in lexical.words(short)):
            short = clause(top.sentence.text, top.hit)
        return Explanation(short, tuple(chain), top.sentence.text)
    return Explanation(DONT_KNOW, tuple(chain), None)


def _main_verb(question: Question) -> str | None:
    """The stem of the question's own verb, for the questions the grammar reads anyway."""
    if question.wh not in ("what", "which") or identity_question(question):
        return None
    verb = grammar.frame(question.text).verb
    return lexical.stem(verb) if verb else None


def _grounded(question: Question, sentence: Sentence) -> bool:
    """Words cut from a sentence answer "which instrument does Ines play?" only if the
    sentence speaks of playing or of instruments; otherwise they are a guess."""
    heads = {lexical.stem(w) for w in (question.target, _main_verb(question)) if w}
    if not heads:
        return True
    return bool(_hits(sentence, dict.fromkeys(heads, 1.0), _bases(question)))


def _strong(ranked: Sequence[_Scored]) -> list[_Scored]:
    """The supporting sentences nearly as good as the best one."""
    return [r for r in ranked if r.score >= STRONG_SHARE * ranked[0].score]


def _gathered(question: Question, ranked: Sequence[_Scored]) -> tuple[str, str] | None:
    """Every item the strong supporting sentences give, oldest statement first, and the
    sentence of the first."""
    found: list[str] = []
    first: str | None = None
    for scored in sorted(_strong(ranked), key=lambda r: _date_of(r.sentence) or date.max):
        more = lists.items(question, scored.sentence, scored.hit)
        if more and first is None:
            first = scored.sentence.text
        found += more
    return (lists.join(found), first) if found and first else None


def _echoes(short: str, question: Question) -> bool:
    """"Where did Ines work before Halden?" is not answered by "Halden Labs": a name the
    question itself gives is not its answer."""
    if short.lower() in question.text.lower():
        return True
    said = set(lexical.terms(short))
    if said and said <= set(lexical.terms(question.text)):
        return True  # "it's her favourite drink" only repeats the question
    asked = {w.lower() for w in re.findall(r"\b[A-Z][\w'’&-]+", question.text)} - {"what", "which", "who", "where", "when", "how"}
    named = {w.lower() for w in re.findall(r"\b[A-Z][\w'’&-]+", short)}
    return question.wh in ("where", "who", "whom") and bool(named & asked)


def _unknown_name(text: str, sentences: Sequence[Sentence]) -> bool:
    """The question names someone nothing in memory mentions ("what does Ezra play?" after
    Ezra was forgotten): whatever the sentences say is about someone else."""
    words = re.findall(r"(?<=\s)[A-Z][\w'’-]+", text)
    said = {w for s in sentences for w in re.findall(r"[\w'’-]+", s.text)}
    return any(bare(w) not in said and w not in said for w in words)


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
    short = owner.lower()
    for name in names:  # a short form of a known name ("Rafa" for "Rafaela Nogueira")
        if len(short) >= 3 and any(w.startswith(short) for w in name.lower().split()):
            return name
    return owner


def _spouse_of(entity: str, relation: str, names: Sequence[str], sentences: Sequence[Sentence]) -> str | None:
    """"Tomas's wife" when the text only says "Ines's husband, Tomas": spouses are each
    other's, whichever word the text uses."""
    forms = relation_forms(relation.split()[-1])
    if not forms & _SPOUSES:
        return None
    for name in names:
        if not same_entity(name, entity) and same_entity(follow(name, "partner", sentences), entity):
            return name
    return None


def _kin_entity(relation: str, names: Sequence[str]) -> str | None:
    """"my mum" is the entity the diary calls "Mum", when there is one."""
    forms = relation_forms(relation.split()[-1])
    return next((n for n in names if n.lower() in forms), None)


def _doer(question: Question, request: AnswerRequest) -> str | None:
    """Who the question says acted, when not the entity it is about: "what did I give Ines?"
    asks what the speaker (the read path's first anchor) did, to Ines."""
    first_person = _FIRST_PERSON_SUBJECT.search(question.text)
    if first_person and request.chain and question.owner not in FIRST_PERSON:
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
    scope: tuple[date, date] | None = None,
) -> list[_Scored]:
    """The sentences that support an answer, best first (empty: nothing clears the bar).

    Support is the idf-weighted share of the question's words a sentence carries; with no
    words left to match ("how old is Pepper?", "what does Carol do?") it is the typed
    answer itself (a number, a date, a place, a role) in a sentence about the entity.
    """
    idf, unseen = _idf(sentences)
    target = lexical.stem(question.target) if question.target else None
    weights = {t: idf.get(t, unseen) for t in predicate if t != target or t in idf}
    verb = _main_verb(question)
    if verb in weights:
        weights[verb] *= VERB_WEIGHT  # "what did Ines name the kitten?" is about naming first
    if lists.wants_list(question):  # "top three" says how many more than what the sentence says
        weights = {t: w * (SIZE_WEIGHT if t in lists.SIZE_WORDS else 1.0) for t, w in weights.items()}
    total = sum(weights.values())
    identity = identity_question(question)
    bases = _bases(question)
    found: list[_Scored] = []
    classing = asks_class(question)
    for sentence in sentences:
        hits = _hits(sentence, weights, bases)
        coverage = sum(weights[t] for t in hits) / total if total else 0.0
        attached = False  # the grammar itself ties the answer to the entity ("his whippet Juno")
        if not total and (identity or question.wh in TYPED or classing):
            typed = role(sentence.text) if identity else None
            at = typed[1] if typed else _first_content(sentence)
            short = None if typed else span(question, sentence, at, entity, loose=False)
            if typed or short:
                coverage, hits = 1.0, {"": at}
            if short and short in sentence.text:  # or of whoever is named right before the answer
                hits["span"] = sentence.text.index(short)
            attached = classing and bool(short)
        elif identity and (typed := role(sentence.text)) and coverage:
            hits = {**hits, "": typed[1]}
        if coverage < MIN_COVERAGE or not hits:
            continue
        about = 1.0 if attached else max(_about(sentence, pos, entity, doer) for pos in hits.values())
        if about <= 0:
            continue
        hit = max(hits.values()) if identity else min(hits.values())
        score = coverage * about * sentence.weight * _in_scope(sentence, scope)
        if span(question, sentence, hit, entity):
            score += SPAN_BONUS
        found.append(_Scored(score, sentence, hit))
    current = any(w in CURRENT for w in lexical.words(question.text))
    return sorted(_newer_first(found, RECENCY_NOW if current else RECENCY_BONUS), key=lambda f: -f.score)


def _newer_first(found: list[_Scored], bonus: float) -> list[_Scored]:
    """A recency bonus among the supporting sentences, by the dates they carry."""
    days = [_date_of(f.sentence) for f in found]
    stamps = sorted({d for d in days if d})
    if len(stamps) < 2:
        return found
    return [
        _Scored(f.score + bonus * stamps.index(d) / (len(stamps) - 1), f.sentence, f.hit) if d else f
        for f, d in zip(found, days)
    ]


def _idf(sentences: Sequence[Sentence]) -> tuple[dict[str, float], float]:
    """Rare words weigh more; a word no sentence has weighs most (it cannot be matched)."""
    df: Counter[str] = Counter()
    for sentence in sentences:
        df.update(set(lexical.terms(sentence.text)))
    n = max(len(sentences), 1)
    return {t: math.log(1 + n / c) for t, c in df.items()}, math.log(1 + n / 0.5)


def _hits(sentence: Sentence, weights: dict[str, float], bases: dict[str, str] | None = None) -> dict[str, int]:
    """Each question word the sentence carries (or a synonym of it, or another form of the
    same verb: "gave" for "give", "died" for "die"), with its offset. `bases`: question
    term -> the stem of its bare verb."""
    found: dict[str, int] = {}
    for word, start in lexical.positions(sentence.text):
        stem = lexical.stem(word)
        base = lexical.stem(grammar.verb_base(word))
        for term in weights:
            if term in found:
                continue
            if stem == term or stem in _SYNONYMS.get(term, ()) or base in (term, (bases or {}).get(term)):
                found[term] = start
    return found


def _bases(question: Question) -> dict[str, str]:
    """Each question term with the stem of its bare verb form ("brought" -> "bring")."""
    return {lexical.stem(w): lexical.stem(grammar.verb_base(w)) for w in lexical.words(question.text)}


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
    if _same_person(doer, entity):
        return 1.0 if distance <= NEAR_WORDS else 0.8
    if doer is None and (sentence.owner == entity or mentions(sentence, entity)):
        return 0.7
    return 0.0


def _scope(text: str) -> tuple[tuple[date, date] | None, frozenset[str]]:
    """The period a question is limited to ("in May 2024") and the words that say it."""
    for mention in find_dates(text, date(2000, 1, 1)):
        days = period(mention) if mention.explicit else None
        if days:
            return days, frozenset(lexical.terms(mention.text)) | frozenset(lexical.words(mention.text))
    return None, frozenset()


def _in_scope(sentence: Sentence, scope: tuple[date, date] | None) -> float:
    """A sentence dated inside the question's period counts more, one dated outside less."""
    if scope is None:
        return 1.0
    days = [d.day for d in find_dates(sentence.text, None) if d.day and d.explicit]
    if sentence.when:
        days.append(sentence.when.date())
    if not days:
        return 1.0
    return SCOPE_IN if any(scope[0] <= d <= scope[1] for d in days) else SCOPE_OUT


def _same_person(a: str | None, b: str | None) -> bool:
    """Names of one entity, also when the shorter is the other's last name ("Ines" and
    "Moreau Ines", stored apart when a text puts the family name first)."""
    if same_entity(a, b):
        return True
    if not a or not b:
        return False
    short, long = sorted((a.lower().split(), b.lower().split()), key=len)
    return len(short) == 1 and len(long) > 1 and short[0] == long[-1]


def _date_of(sentence: Sentence) -> date | None:
    """When a sentence was true: its turn's date, or the absolute date a fact states."""
    if sentence.when:
        return sentence.when.date()
    days = [d.day for d in find_dates(sentence.text, None) if d.day and d.explicit]
    return max(days) if days else None
