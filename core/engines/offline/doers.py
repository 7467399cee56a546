"""Who a "who" question asks for when "who" is its subject ("who is bringing the tent?",
"who's in charge?"): the subject of the clause the matched word sits in, read from the
parse. The nearest name before the word is not it: in "Colm asked who's bringing the
tent" Colm asks, and nobody is said to bring it; in "Piet is in charge", said by Maud,
Piet is, whether or not he is a known entity; "Maud and Piet are coming" names two.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from memhop.core.engines.offline import grammar, tense
from memhop.core.engines.offline.nlp import is_english_word
from memhop.core.language import lexical
from memhop.core.language.names import name_key
from memhop.core.language.sentences import SPEAKER_WORDS, Sentence, name_at, resolve_pronoun

if TYPE_CHECKING:
    from spacy.tokens import Token

_SUBJECTS = frozenset({"nsubj", "nsubjpass"})
_ONE_PERSON = frozenset({"he", "she", "him", "her"})
_NAME_PARTS = frozenset({"compound", "flat"})
_NOUN_TAGS = ("NN", "NNS")
_NAME_TAGS = ("NNP", "NNPS")
# Quantifier pronouns: a closed class that never names anyone ("everyone brought wine",
# "no one" is "one" under "no"), whatever the tagger or the word list says of them.
_QUANTIFIERS = frozenset(
    """everyone everybody everything anyone anybody anything someone somebody something no-one noone nobody
    nothing one none all both each either neither""".split()
)
_ECHO = frozenset({"do", "does", "did"})  # "Piet didn't bring it, Maud did"


@dataclass(frozen=True)
class _Asked:
    """What every candidate sentence is weighed against, read from the question once."""

    verb: str | None  # the base of the verb "who" is the subject of ("bring", "be")
    stance: tuple[bool, str | None]  # that verb's negation and modal (`grammar.stance`)
    past: bool  # asked in the past ("who played it?", "who has played it?"): "used to" answers
    nouns: frozenset[str]  # the question's common nouns
    objects: frozenset[str]  # its object's nouns, proper ones too (`_says_all`)
    passive: bool  # "who was invited?": the one the passive is done to is asked for


@lru_cache(maxsize=64)
def _asked(question: str) -> _Asked:
    doc = grammar.parsed(question)
    who = next((t for t in doc if t.lower_ == "who"), None)
    objects = [t for t in doc if t.dep_ == "dobj"]
    return _Asked(
        verb=tense.verb_base(who.head.text) if who is not None else None,
        stance=grammar.stance(who.head if who is not None else None),
        past=who is not None and grammar.asked_in_past(who.head),
        nouns=frozenset(_nouns(doc)),
        objects=frozenset(set().union(*(_nouns(o.subtree, _NOUN_TAGS + _NAME_TAGS) for o in objects))),
        passive=any(t.lower_ == "who" and t.dep_ == "nsubjpass" for t in doc),
    )


def asks_subject(question: str) -> bool:
    """"Who is bringing the tent?": "who" is the only subject of the question's verb (not
    "who did Maud go with?", which the parser also gives two subjects)."""
    doc = grammar.parsed(question)
    who = next((t for t in doc if t.lower_ == "who"), None)
    if who is None or who.dep_ not in _SUBJECTS:
        return False
    return not any(c.dep_ in _SUBJECTS and c.i != who.i for c in who.head.children)


def subject(question: str, sentence: Sentence, hit: int) -> str | None:
    """Who the sentence says does what the question asks: the subject of the clause whose
    verb is the question's and that says its object ("the lantern parade is on Friday and
    Yusra is carrying the fish lantern": Yusra), else of the clause the word at `hit` (a
    character offset) sits in, or of the clause above it when it has none ("Piet managed to
    bring it"); the writer for a sentence with no subject at all ("Bringing the tent!"). The
    clause must say its act happened: not denied ("Maud never fixed it") unless the question
    is, not under a modal other than the future's ("might", "can't"), not a condition or a
    question, and not only wanted or planned ("Maud was going to paint it"; see grammar.carries).
    None when the clause does not say the question's object ("Yusra is bringing the stove"
    for "who is bringing the tent?"), or its subject is no one it can name: a question word
    ("asked who's bringing it"), a group ("we"), a common noun ("my sister")."""
    doc = grammar.parsed(sentence.text)
    asked = _asked(question)
    same = [t for t in doc if _clause_verb(t) and tense.verb_base(t.text) == asked.verb and _says_all(asked, t)]
    # the clause saying most of the question's nouns ("Piet is in charge": the "is" that says "charge"), the shortest
    same.sort(key=lambda t: (-len(asked.nouns & _stems(t)), len(_stems(t))))
    verb = same[0] if same else next((t for t in doc if t.idx <= hit < t.idx + len(t.text)), None)
    at = verb
    stance = asked.stance
    while verb is not None:
        if _clause_verb(verb):
            if not _asserted(verb, stance):
                echo = _echo(asked, verb) if at is not None and verb.i == at.i else None
                return _person(sentence, echo) if echo is not None else None
            found = _subject_of(verb)
            if found is not None:
                if found.dep_ == "nsubjpass" and not asked.passive:
                    found = _agent(verb)  # "Colm was visited by Maud", for "who visited Colm?": Maud
                said = found is not None and _says_all(asked, verb) and _embedded_asserted(verb, asked.past)
                return _person(sentence, found) if said and found is not None else None
            if _complement(verb) and not grammar.carries(verb.head, asked.past):
                return None  # "Maud was going to paint the fence", "Maud refused to paint it"
        verb = None if verb.head.i == verb.i else verb.head  # spaCy makes a new Token each time: no "is"
    return sentence.implicit if at is not None and _says_all(asked, at.sent.root) else None


def _subject_of(verb: Token) -> Token | None:
    """The clause's subject; a name set off by a colon ("Colm: Piet fixed it") labels the
    line, and the parser may hang it on the verb as a second subject."""
    return next((c for c in verb.children if c.dep_ in _SUBJECTS
                 and not any(p.text == ":" for p in c.children)), None)


def _asserted(verb: Token, stance: tuple[bool, str | None]) -> bool:
    """The clause says its act as the question asks it: in the question's stance, not put as
    a condition ("if Maud fixed it"), not itself a question ("did Maud fix it?")."""
    return grammar.stance(verb) == stance and not grammar.conditional(verb) and not verb.sent.text.rstrip().endswith("?")


def _embedded_asserted(verb: Token, past: bool) -> bool:
    """Each clause the answering one is said under is asserted too: not "Maud didn't say
    Piet fixed it", "I can't believe Piet fixed it"; a joined clause ("Maud didn't come but
    Piet fixed it") or a clause telling when is asserted on its own."""
    while verb.dep_ in ("ccomp", "xcomp") and verb.head.i != verb.i:
        if _complement(verb) and not grammar.carries(verb.head, past):
            return False  # "Maud wanted Piet to paint the fence"
        verb = verb.head
        if grammar.stance(verb) != (False, None) or grammar.conditional(verb):
            return False
    return True


def _complement(verb: Token) -> bool:
    """A "to" clause ("to paint the fence") or a verb's open complement ("avoided painting it")."""
    return verb.dep_ == "xcomp" or any(c.tag_ == "TO" and c.dep_ == "aux" for c in verb.children)


def _echo(asked: _Asked, verb: Token) -> Token | None:
    """"Piet didn't bring the tent, Maud did": the bare "did" next to the denied clause
    says it of its own subject."""
    if verb.sent.text.rstrip().endswith("?") or not _says_all(asked, verb):
        return None  # "Piet didn't bring it, did he?"; or it is not what was asked
    for other in (verb.head, *verb.children, *verb.conjuncts):
        if other.i <= verb.i or other.lower_ not in _ECHO or not _clause_verb(other):
            continue
        if grammar.stance(other) != asked.stance or any(c.dep_ == "dobj" for c in other.children):
            continue
        found = _subject_of(other)
        if found is not None and found.dep_ == "nsubj":
            return found
    return None


def _clause_verb(token: Token) -> bool:
    return token.tag_.startswith("VB") and token.dep_ not in ("aux", "auxpass")


def _agent(verb: Token) -> Token | None:
    """The doer of a passive verb: the object of its "by"."""
    by = next((c for c in verb.children if c.dep_ == "agent"), None)
    return next((c for c in by.children if c.dep_ == "pobj"), None) if by is not None else None


def _says_all(asked: _Asked, verb: Token) -> bool:
    """The clause under `verb` says each common noun of the question's object ("the tent",
    "the camping stove"; not "after her operation", which tells when)."""
    return asked.objects <= _stems(verb)


def _nouns(words: Iterable[Token], tags: tuple[str, ...] = _NOUN_TAGS) -> set[str]:
    """The stems of the words with these tags; a question's object counts its proper nouns
    too, the tagger taking a rare noun for one ("who painted the pergola?")."""
    return {lexical.stem(w.lower_) for w in words if w.tag_ in tags}


def _stems(verb: Token) -> set[str]:
    return {lexical.stem(t.lower_) for t in verb.subtree}


def _starts_sentence(token: Token) -> bool:
    """Nothing but punctuation before the word in its sentence, or it starts what a label
    says ("Maud: Glazier fixed it")."""
    return all(t.is_punct for t in token.doc[token.sent.start : token.i]) or (token.i > 0 and token.nbor(-1).text == ":")


def _person(sentence: Sentence, token: Token) -> str | None:
    low = token.lower_
    if low in ("i", "me"):
        return sentence.speaker
    if low in SPEAKER_WORDS:
        return None  # "we are bringing it": more than the writer
    if low in _ONE_PERSON:
        return resolve_pronoun(sentence, token.idx)
    said = [_name(sentence, n) for n in (token, *(c for c in token.conjuncts if c.i > token.i))]
    if not all(said):
        return None  # "my sister", "who", "Maud and her sister": someone the sentence does not name
    names = [name for name in said if name]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _name(sentence: Sentence, token: Token) -> str | None:
    """The known entity a word stands for, else a proper noun's words ("Piet", "Anna
    Ruiz"); None for a common word. The tagger often takes a name for a common noun, and a
    common noun starting a sentence for a name ("Glazier fixed it"): a lone English word
    there, or one with an article or owner ("the Glazier"), is no name unless the store holds
    it as a person (named mid-sentence, a chat's speaker: "Merit", "Merit Oxley"); an entity
    of another kind made of that word alone is no name either.
    """
    if token.lower_ in _QUANTIFIERS:
        return None  # "Everyone brought wine": no one in particular
    words = sorted([token, *(c for c in token.children if c.dep_ in _NAME_PARTS and c.tag_.startswith("NNP"))],
                   key=lambda t: t.i)
    named = name_at(sentence, token.idx, token.idx + len(token.text))
    if named is not None and named.entity in sentence.people:
        return named.entity  # "Olive fixed it", Olive a person the store knows: a name, word or not
    common = len(words) == 1 and is_english_word(token.lower_) and (
        _starts_sentence(token) or any(c.dep_ in ("det", "poss") for c in token.children))
    if common and token.text in sentence.people:
        return token.text  # "Jack fixed it", said in a chat Jack speaks in
    if common and (named is None or name_key(named.entity) == token.lower_):
        return None  # "Glazier fixed the window", "the Glazier fixed it": a common noun
    if named is not None:
        return named.entity
    if not (token.tag_.startswith("NNP") or (token.text[:1].isupper() and not is_english_word(token.text))):
        return None  # a name the tagger took for a common noun at the start of a sentence is still a name
    return sentence.text[words[0].idx : words[-1].idx + len(words[-1].text)]
