"""The tense of a verb or sentence, read one way by everything in the offline engine: the
question's and the answer sentence's tense (spans, replies), a sentence's "past" mark and the
tense that resolves each date at ingest (clauses), a yes/no question's and its stating
verb's (yesno).

A verb is past when it is a past form ("went") or a participle with a perfect auxiliary
("has gone", "had gone", "I'd gone", "I’ve gone" with a curly apostrophe too); a sentence
takes the tense of its main verb, and "next Friday", "will", "shall" look ahead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memhop.core.engines.offline import grammar
from memhop.core.language.dates import FUTURE

if TYPE_CHECKING:
    from spacy.tokens import Token

PAST, PRESENT, FUTURE_TENSE = "past", "present", "future"
# "have" in every form and spelling: with a participle it makes the perfect ("'d gone" is "had gone")
PERFECT = frozenset({"have", "has", "had", "'ve", "’ve", "'d", "’d"})
_PAST_AUX = frozenset({"was", "were", "did", "had"})
_FUTURE_AUX = frozenset({"will", "'ll", "’ll", "shall", "wo"})
_PRESENT_AUX = frozenset({"is", "are", "am", "'s", "'re", "'m", "’s", "’re", "’m", "do", "does"})
FINITE = frozenset({"VBD", "VBZ", "VBP", "MD"})
# Verbs an event is said to do at its time ("it is on Friday", "it starts at 6pm").
TIMED = frozenset({"be", "start", "begin", "open", "finish", "end", "close"})
_HAVE_NOW = frozenset({"have", "has", "'ve", "’ve"})


def _auxiliaries(verb: Token) -> set[str]:
    return {c.lower_ for c in verb.children if c.dep_ in ("aux", "auxpass")}


def perfect(verb: Token) -> bool:
    """A participle with "have" as its auxiliary: "has gone", "had gone", "I'd gone"; not
    "I've got an exam", which has one now."""
    return verb.tag_ == "VBN" and bool(_auxiliaries(verb) & PERFECT) and not _have_got(verb)


def _have_got(verb: Token) -> bool:
    """"I've got a hearing on 3 May": present possession, not the perfect of "get"."""
    return verb.lower_ == "got" and bool(_auxiliaries(verb) & _HAVE_NOW) and any(c.dep_ == "dobj" for c in verb.children)


def past_form(verb: Token) -> bool:
    """A verb that tells of the past by its own form: "went", "has gone"."""
    return verb.tag_ == "VBD" or perfect(verb)


def finite(verb: Token) -> bool:
    """A verb that carries a tense: a finite form, or a perfect participle."""
    return verb.tag_ in FINITE or perfect(verb) or _have_got(verb)


def of_verb(verb: Token) -> str | None:
    """past | present | future of a clause by its verb and the verb's auxiliaries."""
    aux = _auxiliaries(verb)
    if past_form(verb) or aux & _PAST_AUX:
        return PAST
    if verb.tag_ == "MD" or aux & _FUTURE_AUX:
        return FUTURE_TENSE
    if verb.tag_ in ("VBZ", "VBP") or aux & _PRESENT_AUX or _have_got(verb):
        return PRESENT
    return None


def of_text(text: str) -> str | None:
    """past | present | future by the sentence's main verb; None for a fragment ("Recital on
    the 28th!"). A date without a year is read on the side the tense points to."""
    if FUTURE.search(text):  # "the recital is next Friday (21 June)" looks ahead
        return FUTURE_TENSE
    doc = grammar.parsed(text)
    root = grammar.root(doc)
    if root is None:
        return None
    if not root.tag_.startswith(("VB", "MD")) and any(
        t.lower_ in ("'s", "’s") and t.i + 1 < len(doc) and doc[t.i + 1].dep_ == "prep" for t in doc
    ):
        return PRESENT  # "the bake sale's on 5 October": a run-on "is" the tagger took for a possessive
    return of_verb(root)


def verb_base(verb: str) -> str:
    """The verb's base; a run-on "'s" is "is" (the pipeline has no lemmatizer)."""
    return grammar.verb_base("is" if verb in ("'s", "’s") else verb.lower())

