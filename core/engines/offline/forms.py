"""What the question's own frame already says is no part of a short answer: "which cuisine?"
is answered "Georgian", not "Georgian cooking"; "what activity did she use to do?" is answered
"sea kayaking", not "to go sea kayaking"."""

from __future__ import annotations

import re

from memhop.core.language.question import Question

# Nouns that restate a type noun: "Georgian cooking" is the cuisine "Georgian".
_RESTATING = {"cuisine": frozenset({"cuisine", "cooking", "food"})}
# Type nouns of something done: "go swimming" is the activity "swimming".
_DOINGS = frozenset("activity activities hobby hobbies sport sports pastime pastimes exercise".split())
_GO_DOING = re.compile(r"^(?:go|goes|going|went)\s+(?=(?:\w+\s+)?\w+ing\b)", re.I)
_INFINITIVE = re.compile(r"^to\s+(?=\w)", re.I)


def without_type(named: str, target: str) -> str:
    """The thing without a last word that only restates the type asked; a name of one word
    stays whole."""
    words = named.split()
    restating = _RESTATING.get(target, frozenset({target, target + "s"}))
    if len(words) > 1 and words[-1].lower() in restating:
        return " ".join(words[:-1])
    return named


def activity(short: str, question: Question) -> str:
    """A thing done as its question frames it: the "to" of "used to go riding" belongs to the
    question's "used to do", and "go riding" is the activity "riding"."""
    if question.target not in _DOINGS:
        return short
    return _GO_DOING.sub("", _INFINITIVE.sub("", short))
