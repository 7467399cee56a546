"""In a chat a reply answers the question before it: "what time's the gig?" — "8pm at the
Forum". The reply shares no word with a later question ("what time does the gig start?"),
so no sentence of it is ranked as support; the asking turn is. When a turn that mostly asks
carries the question's words (all but its verb and type noun) and asks the same kind of
question (a "where" turn's reply tells no time), its reply (the next turn, by someone else, in
the same session: core/language/turns.py `replies`) is read for the answer, typed as any answer is
(a "what time" still needs a clock time). The reply's sentences are read in order while each
plainly answers: a fragment ("Haha good question.", "8pm at the Forum"), a sentence repeating
the question's words or one with a pronoun subject ("It's at 6pm", past a courtesy opening);
reading stops at the first with a negation or declining ("no clue, but the bus leaves at
11pm", "Kofi can't"), an order ("ask Ana, ...") or anything else ("I'm off at 11pm").
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from memhop.core.engines.offline import events, grammar, tense
from memhop.core.language import lexical
from memhop.core.language.question import Question, parse, target_noun
from memhop.core.language.sentences import Sentence, is_question
from memhop.core.language.turns import asks
from memhop.core.model import TurnView

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token


def replies_to(question: Question, asking: Sequence[Sentence], by_id: dict[int, TurnView],
               sentences: Sequence[Sentence]) -> Iterator[Sentence]:
    """The sentences of the replies to the turns that `asking` (question sentences ranked
    for the question, best first) come from, in that order; `by_id`: the evidence turns by id."""
    seen: set[int] = set()
    needed = _things(question)
    if not needed:
        return  # "who is coming?": every asking turn would match
    for asked in asking:
        if not needed <= _said(asked.text):  # `asking` holds questions; a fact's or profile's has no turn below
            continue
        if not _same_kind(question, parse(asked.text, [])):
            continue
        turn = by_id.get(asked.turn) if asked.turn is not None else None
        if turn is None or turn.id in seen or not asks(turn.text):
            continue
        seen.add(turn.id)
        reply = by_id.get(turn.id + 1)
        if reply is None or not events.answers(turn, reply):
            continue
        said = [s for s in sentences if s.origin == "evidence" and s.turn == reply.id]  # in the order said
        for sentence in said:  # "Haha good question. 8pm at the Forum": read on while it answers
            if is_question(sentence.text) or not _answers(sentence.text, needed, question):
                break
            yield sentence


def _same_kind(question: Question, asked: Question) -> bool:
    """"what time's the gig?" asks what "what time does the gig start?" does; "where is the
    party?" does not."""
    return asked.wh == question.wh and (question.wh not in ("what", "which")
                                        or target_noun(asked) == target_noun(question))


_DECLINING = frozenset({"no", "not", "n't", "never", "nobody", "nothing", "none", "nope", "dunno", "idk"})


def _answers(text: str, needed: set[str], question: Question) -> bool:
    """A sentence of the reply gives an answer: not negated or declining, not an order
    ("ask Ana"), and either a fragment with no verb of its own, about the question's words,
    or said of what was asked, by a pronoun ("It starts at 6pm"). A courtesy opening ("No
    worries, it is on the 14th") is read past; a declining one ("No idea, it's 8pm here")
    or one the reply turns away from ("no clue, but the bus leaves at 11pm") is not."""
    opening, rest = _opening(text)
    if opening and _declines(grammar.parsed(opening)) and not _COURTESY & set(opening.lower().split()):
        return False  # "No idea, ...", "Not sure, ...": what follows is a guess or another matter
    doc = grammar.parsed(rest)
    if _declines(doc):
        return False
    root = grammar.root(doc)
    if root is not None and root.tag_ == "VB" and not any(c.dep_ in ("nsubj", "nsubjpass") for c in root.children):
        return False
    fragment = not any(t.tag_ in tense.FINITE for t in doc)
    return fragment or bool(needed & _said(text)) or (_said_of_it(doc, question) and not _past_of_present(rest, question))


def _declines(doc: Doc) -> bool:
    return any(t.dep_ == "neg" or t.lower_ in _DECLINING for t in doc)


# Openings that decline nothing though they say "no": "No worries, it is on the 14th".
_COURTESY = frozenset({"worries", "worry", "problem", "probs", "prob", "bother", "rush", "stress"})
# Verbs an event is said to do at its time ("it starts at 6pm"), beside the copula ("it's at 6pm"),
# by the end of it they tell: an event's time is when it starts, unless the question asks its end.
_ENDS = frozenset({"finish", "end", "close"})
_STARTS = tense.TIMED - _ENDS


def _end_asked(question: Question) -> bool:
    return any(tense.verb_base(word) in _ENDS for word in re.findall(r"[\w'’]+", question.text))


def _said_of_it(doc: Doc, question: Question) -> bool:
    """The sentence says its time of what was asked: a pronoun subject ("it", "that") of
    "be" or a start/begin-like verb whose prepositional complement holds the time or date
    ("It's at 6pm", "it is on the 14th", "It begins at 11am"). A clock "it" ("It's 5pm
    already") and an it-clause naming another thing ("it's my shift till 9pm", "it's my
    mum's birthday on the 14th") say nothing of it, nor does its end time of a question
    about its start ("It finishes at 11pm" for "what time does it start?"), or the reverse."""
    root = grammar.root(doc)
    if root is None or tense.verb_base(root.lower_) not in (_ENDS if _end_asked(question) else _STARTS):
        return False
    children = list(root.children)
    if not any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ in events.REFERRING for c in children):
        return False
    if any(c.dep_ in ("attr", "dobj", "acomp", "oprd") for c in children):
        return False  # "it's my shift", "It is 6pm": said of another thing, or of the clock
    return any(c.dep_ == "prep" and any(_dated(w) for w in c.subtree if w is not c) for c in children)


def _dated(token: Token) -> bool:
    """A word of a time or date: "6pm", "14th", "September", "Saturday"."""
    return token.like_num or any(ch.isdigit() for ch in token.text) or token.tag_ == "NNP"


def _past_of_present(text: str, question: Question) -> bool:
    """"It was at 6pm last year" tells a past time, no answer to "What time is the quiz?"."""
    return tense.of_text(text) == tense.PAST and tense.of_text(question.text) != tense.PAST


_OPENING = re.compile(r"^([^,]{1,30}),\s+(?!(?:but|though|although|except|unless)\b)(\w.*)$", re.IGNORECASE)


def _opening(text: str) -> tuple[str, str]:
    """A verbless opening of a few words and the sentence past it ("No worries, it is on the
    14th" -> "No worries", "it is on the 14th"), else no opening and the sentence."""
    found = _OPENING.match(text)
    if found is None or len(found[1].split()) > 3 or not grammar.verbless(found[1]):
        return "", text
    return found[1], found[2]


def _things(question: Question) -> set[str]:
    """The words the asking turn must say too: the question's own, but for its verb ("what
    time's the gig?" asks what "what time does the gig start?" does) and its type noun."""
    verb = grammar.question_verb(question.text)
    skip = {lexical.stem(w) for w in (verb, question.target) if w}
    return {grammar.term_base(t) for t in question.predicate if t not in skip}


def _said(text: str) -> set[str]:
    return {grammar.term_base(t) for t in lexical.terms(text)}




FOLLOW_UP_WORDS = 4  # "what kind?", "which one", "where?": a follow-up asks in a few words


def elaborations(statements: Sequence[Sentence], by_id: dict[int, TurnView], sentences: Sequence[Sentence],
                 question: Question) -> Iterator[Sentence]:
    """What the speaker of a matched statement said when asked to say more: "mum got a new
    car!!" — "what kind?" — "a red one, a Panda". The follow-up is the next turn, someone
    else's, a question of a few words of the same kind as the question asked ("what kind"
    for "what car", "where?" for "where"); the elaboration is the turn after it, the
    statement's speaker's again, in the same session. Its first sentence is yielded."""
    seen: set[int] = set()
    for statement in statements:
        said = by_id.get(statement.turn) if statement.turn is not None else None
        if said is None or said.id in seen:
            continue
        seen.add(said.id)
        follow_up, elaboration = by_id.get(said.id + 1), by_id.get(said.id + 2)
        if follow_up is None or elaboration is None or not events.answers(said, follow_up):
            continue
        if elaboration.speaker != said.speaker or elaboration.session != said.session:
            continue
        asked = parse(follow_up.text, [])
        if len(lexical.words(follow_up.text)) > FOLLOW_UP_WORDS or asked.wh in ("", "yes/no"):
            continue  # a chat's follow-up often goes without its "?": "what kind", "which one"
        if not _follows_up(asked, question):
            continue
        first = next((s for s in sentences if s.origin == "evidence" and s.turn == elaboration.id), None)
        if first is not None and not is_question(first.text):
            yield first


def _follows_up(asked: Question, question: Question) -> bool:
    """"what kind" follows up what "what car did she get?" asks; "why?" does not."""
    things = ("what", "which")
    return asked.wh == question.wh or (asked.wh in things and question.wh in things)


def fragment(sentence: Sentence) -> str | None:
    """A sentence without a finite verb ("a red one, a Panda."): the thing itself, as said."""
    doc = grammar.parsed(sentence.text)
    if any(t.tag_ in tense.FINITE for t in doc) or not any(t.tag_.startswith("NN") for t in doc):
        return None
    return sentence.text.strip().rstrip(".!…")
