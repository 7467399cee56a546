"""Yes/no questions, answered "Yes" only where a sentence states the question outright.

"Did Inka go to the lake with her sister?" is answered "Yes" by a sentence whose verb is the
question's (the same bare verb, read by the parser), said of the question's subject (a name,
a nickname, or "I" for the writer), whose own clause carries every other word the question
gives ("lake", "sister") with each noun the question heads a phrase with heading one there too
("Ben's sister" is no "Ben", a "car seat" no "car"), every number, frequency word ("twice")
and month or weekday the question names, in the question's tense, with no modal ("might go").
The verb must be the sentence's main verb or joined to it by "and": one under another verb is
a wish or plan ("wants to go"), a condition ("if we go") or reported ("Ben thinks Ana went",
"I dreamt ..."). A sentence with a negation, a quotation, a hedge ("almost", "nearly"), an
exception ("instead of", "except") or a frame ("in her dreams", "in the film") states nothing.
A question with "be" and a place ("has Odran been to Porto?") is also stated by a verb without
an object that goes to or stays at that place ("went to Porto"). A present-tense question asks
for the state now: the stating sentence must be on the latest day anything names the subject.
One asking whether something still holds ("is Odran still at the bakery?") is refused unread:
a later change may be worded any way.
"No" is never answered: a negated sentence usually denies something narrower ("didn't go to
Porto with Ben") than the question asks. "You" is refused (who it means is not known here).
Anything else is refused: a wrong answer is worse than "I don't know".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from memhop.core.engines.offline import grammar, tense
from memhop.core.engines.offline.kinds import may_name
from memhop.core.language import lexical
from memhop.core.language.chains import same_entity
from memhop.core.language.dates import MONTHS, WEEKDAYS
from memhop.core.language.question import CURRENT
from memhop.core.language.sentences import (
    PRONOUNS,
    SPEAKER_WORDS,
    Sentence,
    is_question,
    mentions,
    name_at,
    resolve_pronoun,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

YES = "Yes"
# Dependents that open a clause of their own: what they say is not said of the verb above.
_OWN_CLAUSE = frozenset({"conj", "advcl", "ccomp", "relcl", "parataxis", "acl", "csubj", "cc"})
_PAST = frozenset({"VBD", "VBN"})
_PRESENT = frozenset({"VBZ", "VBP", "VBG"})
_NOT_WORDS = frozenset({"ever", "never", "yet", "already", "really", "actually", "also", "too"})
# Words a stating clause must say as they are: "twice" is not "once", "in May" not "in June".
_EXACT = frozenset({"once", "twice", "thrice", "again", *MONTHS, *WEEKDAYS})
# A word in these roles modifies another noun: "Ben's sister", "a car seat", "a red bike".
_MODIFIER = frozenset({"poss", "compound", "amod", "nmod", "npadvmod"})
_HEDGES = frozenset({"almost", "nearly", "barely", "hardly", "rarely", "seldom", "supposedly", "allegedly",
                     "apparently", "maybe", "perhaps", "probably", "possibly"})
_EXCEPTIONS = frozenset({"instead", "except", "without", "rather", "besides", "apart", "excluding", "not", "n't"})
# "in her dreams", "in the film we watched": what happens there did not happen
_FRAMES = frozenset({"dream", "dreams", "nightmare", "film", "movie", "book", "novel", "game", "show", "story",
                     "play", "series", "imagination", "fantasy"})
_QUOTES = frozenset('"“”')


@dataclass(frozen=True)
class Asked:
    """What a yes/no question states, as the parser reads it."""

    verb: str  # bare: "go", "be"
    subject: str  # as written: "Inka", "I", "you", "my sister"
    arguments: tuple[str, ...]  # stems the stating clause must carry
    preposition: str | None  # "be" with a place: "to" in "been to Porto", "at" in "at the bakery"
    past: bool  # "did", "was", "has been": a past or perfect statement answers it
    modal: str | None  # "can Pia swim?": the statement must say "can" too
    exact: tuple[str, ...] = ()  # numbers, "twice", months: said as they are
    heads: tuple[str, ...] = ()  # stems the question heads a noun phrase with ("Ben" in "meet Ben")


@dataclass(frozen=True)
class Verdict:
    answer: str  # YES
    sentence: Sentence


def read(question: str) -> Asked | None:
    """The question's verb, subject and other words, or None when its shape is not plain or
    it asks for the state now in words ("still", "now": a later change may be worded any way)."""
    if any(w in CURRENT for w in lexical.words(question)):
        return None
    doc = grammar.parsed(question)
    root = grammar.root(doc)
    if root is None:
        return None
    subject = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subject is None or any(c.dep_ == "conj" for c in subject.children):
        return None  # "did Pia and I go?": one sentence saying Pia went does not say both did
    auxes = [c for c in root.children if c.dep_ in ("aux", "auxpass")]
    modal = next((a.lower_ for a in auxes if a.tag_ == "MD"), None)
    # "has Tomas been going to the gym?": the perfect asks of the time up to now, as "has he gone?" does
    past = tense.of_verb(root) == tense.PAST or any(a.lower_ in tense.PERFECT for a in auxes)
    own = _subject_words(subject)
    taken = {t.i for t in own} | {t.i for t in auxes} | {root.i}
    words = [t.text for t in doc if t.i not in taken and not t.is_punct and t.lower_ not in _NOT_WORDS
             and not t.tag_.startswith("RB")]
    arguments = tuple(dict.fromkeys(lexical.terms(" ".join(words))))
    rest = [t for t in doc if t.i not in taken and not t.is_punct]
    exact = tuple(dict.fromkeys(t.lower_ for t in rest if (t.lower_ in _EXACT and t.tag_ != "MD") or t.like_num))
    heads = tuple(dict.fromkeys(term for t in rest if t.dep_ not in _MODIFIER for term in lexical.terms(t.text)))
    verb = grammar.verb_base(root.text)
    preposition = None
    if verb == "be":
        # "is Odran still at the bike shop?": the parser may hang the place on the subject
        preps = [c for c in (*root.children, *subject.children) if c.dep_ == "prep"]
        complements = [c for c in root.children if c.dep_ in ("attr", "acomp", "dobj")]
        if preps and not complements:
            preposition = preps[0].lower_
    if not arguments and verb == "be":
        return None  # "is Pia?" says nothing to check
    return Asked(verb, " ".join(t.text for t in sorted(own, key=lambda t: t.i)), arguments, preposition, past, modal,
                 exact, tuple(h for h in heads if h in arguments))


def _subject_words(subject: Token) -> list[Token]:
    """The subject's own words ("my sister", "Odran's friend"), not a place or adverb the
    parser hung on it."""
    out = [subject]
    for child in subject.children:
        if child.dep_ not in ("prep", "advmod", "relcl", "acl", "punct"):
            out.extend(child.subtree)
    return out


def verdict(asked: Asked, entity: str | None, sentences: Sequence[Sentence], current: bool) -> Verdict | None:
    """A stating sentence's "Yes" for `entity` (who the question's subject is), or None.
    `current`: the question asks for the state now (present tense)."""
    if entity is None:
        return None
    stating = [s for s in sentences
               if not is_question(s.text) and _carries(s.text, asked.arguments) and _states(asked, entity, s)]
    if not stating:
        return None
    if current:  # "does Odran work at the bakery?": nothing later may be said of him
        latest = max((_day(s) for s in sentences if _names(s, entity)), default=date.min)
        stating = [s for s in stating if _day(s) >= latest]
    return Verdict(YES, stating[0]) if stating else None


def _day(sentence: Sentence) -> date:
    return sentence.when.date() if sentence.when else date.min


def _carries(text: str, arguments: Sequence[str]) -> bool:
    said = set(lexical.terms(text))
    return all(a in said for a in arguments)


def _names(sentence: Sentence, entity: str) -> bool:
    """The sentence names `entity` (by first name too), or is its writer's without a subject
    ("Went to the lake")."""
    return mentions(sentence, entity, same_entity) or (
        sentence.implicit == sentence.speaker and same_entity(sentence.speaker, entity))


def _states(asked: Asked, entity: str, sentence: Sentence) -> bool:
    """Whether a verb of the sentence states the question of `entity` as plain fact."""
    doc = grammar.parsed(sentence.text)
    if _QUOTES.intersection(sentence.text) or _framed(doc):
        return False  # "Ana said: "I went"", "in her dreams"
    for verb in doc:
        if not _same_verb(asked, verb):
            continue
        clause = _clause(verb)
        if not _carries(" ".join(t.text for t in clause), asked.arguments):
            continue
        if not _subject_is(verb, entity, sentence):
            continue
        if _asserted(asked, verb) and _main(verb) and _plain(asked, clause):
            return True
    return False


def _main(verb: Token) -> bool:
    """The sentence's main verb or one joined to it by "and", none of them negated: "Ben
    thinks Ana went" (a clause under "thinks") says nothing of Ana as fact."""
    while True:
        if grammar.negated(verb):
            return False
        if verb.dep_ != "conj" or verb.head == verb:
            return verb.dep_ == "ROOT"
        verb = verb.head


def _plain(asked: Asked, clause: list[Token]) -> bool:
    """The clause says the question's words as the question does, with no hedge or exception."""
    low = {t.lower_ for t in clause}
    if low & (_HEDGES | _EXCEPTIONS) or not low.issuperset(asked.exact):
        return False
    return all(any(t.dep_ not in _MODIFIER or _names_a_name(t) for t in clause if head in lexical.terms(t.text))
               for head in asked.heads)


def _names_a_name(token: Token) -> bool:
    """"my sister Pia": "sister" is parsed as modifying the name, and is still the sister."""
    return token.dep_ == "compound" and token.head.pos_ == "PROPN"


def _framed(doc: Doc) -> bool:
    return any(t.dep_ == "pobj" and t.lower_ in _FRAMES and t.head.lower_ == "in" for t in doc)


def _same_verb(asked: Asked, verb: Token) -> bool:
    if not (verb.tag_.startswith("VB")):
        return False
    base = grammar.verb_base(verb.text)
    if verb.lower_ in ("'s", "’s") and any(c.dep_ in ("nsubj", "nsubjpass") for c in verb.children):
        base = "be" if not any(c.tag_ == "VBN" for c in verb.head.children) else base
    if base == asked.verb and (asked.verb != "be" or verb.dep_ not in ("aux", "auxpass")):
        return True
    if asked.preposition is None:
        return False
    # "been to Porto" is stated by "went to Porto"; "at the bakery" by "works at the bakery"
    children = list(verb.children)
    return (verb.dep_ not in ("aux", "auxpass") and not any(c.dep_ in ("dobj", "attr", "acomp", "dative") for c in children)
            and any(c.dep_ == "prep" and c.lower_ == asked.preposition for c in children))


def _clause(verb: Token) -> list[Token]:
    """The verb's own clause: its words, without the clauses hanging from it."""
    out = [verb]
    for child in verb.children:
        if child.dep_ not in _OWN_CLAUSE:
            out.extend(child.subtree)
    return out


def _subject_is(verb: Token, entity: str, sentence: Sentence) -> bool:
    head = verb
    while True:
        subject = next((c for c in head.children if c.dep_ in ("nsubj", "nsubjpass", "expl")), None)
        if subject is not None or head.dep_ != "conj" or head.head == head:
            break
        head = head.head  # "went to the lake and swam": the subject of the first verb
    if subject is None:
        if head.dep_ in ("ROOT",) and head.i == _first_word(head):
            who = sentence.implicit  # "Went to the lake": the writer, or who the text is about
            return who is not None and same_entity(who, entity)
        return False
    low = subject.lower_
    if low in SPEAKER_WORDS:
        return sentence.speaker is not None and same_entity(sentence.speaker, entity)
    if low in PRONOUNS:
        who = resolve_pronoun(sentence, subject.idx)
        if who is not None and any(_subject_is(above, who, sentence) for above in verb.ancestors if above.tag_.startswith("VB")):
            return False  # "Pia says he never went": he is hardly Pia, and who else is not said
        return who is not None and same_entity(who, entity)
    # the subject's own name ("Odran Kelly"), not a name owning it ("Pia's dog" is not Pia)
    words = sorted([subject, *(c for c in subject.children if c.dep_ == "compound")], key=lambda t: t.i)
    start, end = words[0].idx, words[-1].idx + len(words[-1].text)
    named = name_at(sentence, start, end)
    if named is not None:
        return same_entity(named.entity, entity)
    return subject.tag_.startswith("NNP") and may_name(subject.text, entity)


def _first_word(verb: Token) -> int:
    return next(t.i for t in verb.doc if not t.is_punct)


def _asserted(asked: Asked, verb: Token) -> bool:
    """Stated as fact: not a wish or plan ("wants to go"), not under a condition ("if we go"),
    not with a modal the question lacks ("might go"), and in the question's tense."""
    if verb.dep_ == "xcomp" or (verb.dep_ == "aux" and verb.head.dep_ == "xcomp"):
        return False
    children = list(verb.children)
    if grammar.conditional(verb):
        return False
    if verb.dep_ in ("advcl", "conj") and grammar.conditional(verb.head):
        return False
    auxes = [c for c in children if c.dep_ in ("aux", "auxpass")]
    modal = next((a.lower_ for a in auxes if a.tag_ == "MD"), None)
    if modal != asked.modal:
        return False
    if asked.modal is not None:
        return True
    finite = auxes[0] if auxes else verb
    if asked.past:
        return finite.tag_ in _PAST or any(a.lower_ in tense.PERFECT for a in auxes)
    return finite.tag_ in _PRESENT


