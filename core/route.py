"""What kind of question this is, read from its grammar alone (seed 004's typed routing,
without a learned classifier): a single fact, an aggregation over sessions, a time, or an
inference about a person.

The rules are cheap (no model, no store) and each says why it fired, so `--trace` can
show the reason. What the read path does with the kind was measured on LoCoMo 26 and 30,
the generated scenarios and the dev set, and only what did not lose anywhere is kept: an
inference question is ranked by its words without the framing that marks it as a guess
("would", "likely", "be considered"). Spreading an aggregation's evidence over sessions
(round robin by session, its reciprocal-rank fusion with the plain ranking, a rank
discount per turn already taken from a session), ranking only the named person's turns,
and a larger share for fact turns each lost recall on both conversations (the gold turns
of a list question cluster in the sessions that match best), so an aggregation is ranked
like a single fact; a question naming a period gets the period's turns lifted whatever
its kind (core/language/periods.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from memhop.core.language.question import NUMBER_WORDS, Question, tokens
from memhop.core.language.question import parse as parse_question

SINGLE, AGGREGATION, TEMPORAL, INFERENCE = "single fact", "aggregation", "temporal", "inference"
KINDS = (SINGLE, AGGREGATION, TEMPORAL, INFERENCE)

_TIME_NOUNS = frozenset("year month day date time week weekend season age decade century".split())
_MODALS = frozenset({"would", "could", "might"})
_HEDGES = frozenset({"likely", "unlikely", "probably", "possibly", "perhaps"})
_FRAMING = _MODALS | _HEDGES | {"be", "considered", "still"}
_FRAMING_WORDS = re.compile(r"\b(?:" + "|".join(sorted(_FRAMING)) + r")\b", re.IGNORECASE)
_PERFECT = frozenset({"has", "have"})
_AUX = frozenset("is are was were do does did has have had can will".split())
_EVERYONE = frozenset({"both", "in common"})  # about two people or more, whatever the question word
_QUANTIFIERS = re.compile(r"\b(?:all|every|both|list|in common|ever|some)\b", re.IGNORECASE)
_TIMES = re.compile(r"\bhow (?:many times|often)\b", re.IGNORECASE)
_TYPES_OF = re.compile(r"\b(?:what|which) (?:kinds|types|sorts) of\b", re.IGNORECASE)
_KIND_WORDS = frozenset({"kind", "kinds", "type", "types", "sort", "sorts"})
_COUNTED = re.compile(r"\b(?:top\s+)?(?:\d+|" + "|".join(NUMBER_WORDS) + r")\s+\w+s\b", re.IGNORECASE)


@dataclass(frozen=True)
class Route:
    """The question's kind and the grammar that decided it (shown by `--trace`)."""

    kind: str
    why: str
    category: str | None = None  # an aggregation's category, as its words ("sports")

    def unframed(self, text: str) -> str:
        """The question without the words that frame an inference ("would", "likely", "be
        considered"): they say the answer is a guess and match no turn; what is left says
        what about the person the answer rests on."""
        if self.kind != INFERENCE:
            return text
        kept = " ".join(_FRAMING_WORDS.sub(" ", text).split())
        return kept if re.search(r"\w", kept) else text


def classify(question: str) -> Route:
    """The first rule that fires, in this order: temporal (it asks for a time), inference
    (it asks what would or might be), aggregation (it asks for several things, or for what
    someone has done over time), else a single fact."""
    parsed = parse_question(question, [])
    low = [t.group(0).lower() for t in tokens(question)]
    rules: tuple[tuple[str, Callable[[], str]], ...] = (
        (TEMPORAL, lambda: _temporal(parsed)),
        (INFERENCE, lambda: _inference(low)),
        (AGGREGATION, lambda: _aggregation(parsed, low)),
    )
    for kind, rule in rules:
        why = rule()
        if why:
            return Route(kind, why, _category(parsed, low) if kind == AGGREGATION else None)
    return Route(SINGLE, "no rule for time, inference or several things fired")


def _category(q: Question, low: list[str]) -> str | None:
    """The category an aggregation question asks for, as its words: "sports" in "which
    sports has Tomas played?", "knots" in "what kinds of knots does she tie?" (the words
    before the auxiliary, past "kinds of"); None for one without a category before its
    auxiliary ("what has Tomas built?")."""
    phrase, aux = _wh_phrase(q, [w for w in low if re.match(r"\w", w)])
    if len(phrase) > 2 and phrase[0] in _KIND_WORDS and phrase[1] == "of":
        phrase = phrase[2:]
    return " ".join(phrase) if phrase and aux is not None else None


def _temporal(q: Question) -> str:
    if q.wh == "when":
        return "asks 'when'"
    if q.wh == "how long":
        return "asks 'how long'"
    if q.wh in ("what", "which") and q.target in _TIME_NOUNS:
        return f"asks for a {q.target}"
    return ""


def _inference(low: list[str]) -> str:
    modal = next((w for w in low if w in _MODALS), None)
    if modal:
        return f"asks what {modal} be (a modal: the answer is inferred, not stated)"
    hedge = next((w for w in low if w in _HEDGES), None)
    if hedge:
        return f"asks what is '{hedge}' (the answer is inferred, not stated)"
    if "considered" in low:
        return "asks whether someone is 'considered' something (a judgement)"
    return ""


def _aggregation(q: Question, low: list[str]) -> str:
    text = q.text
    for pattern, what in ((_TIMES, "counts occurrences"), (_TYPES_OF, "asks for kinds of things")):
        found = pattern.search(text)
        if found:
            return f"{what} ('{found.group(0)}')"
    words = [w for w in low if re.match(r"\w", w)]
    phrase, aux = _wh_phrase(q, words)
    if aux is not None and phrase and _plural(phrase[-1]):
        return f"a plural object ('{q.wh} {' '.join(phrase)} {aux}')"
    if q.wh in ("what", "which", "where") and aux in _PERFECT and len(words) - len(phrase) - 2 >= 2:
        return f"the present perfect ('{q.wh} … {aux} … {words[-1]}'): everything done up to now"
    counted = _COUNTED.search(text)
    if counted and q.wh in ("what", "which"):
        return f"asks for several ('{counted.group(0)}')"
    if q.wh == "how many":
        return "counts things ('how many')"
    quantifier = _QUANTIFIERS.search(text)
    if quantifier and (quantifier.group(0).lower() in _EVERYONE or q.wh not in ("", "yes/no", "why", "who")):
        return f"a quantifier ('{quantifier.group(0)}')"
    return ""


def _wh_phrase(q: Question, words: list[str]) -> tuple[list[str], str | None]:
    """The words between the question word and the first auxiliary, and that auxiliary:
    "what board games | has", "which cities | has", "what | has". In "what N aux S V" the
    phrase is the object, so a plural N asks for several; "what makes Ines …" has no
    auxiliary there and is not a plural object."""
    if q.wh not in ("what", "which", "where") or q.wh not in words:
        return [], None
    rest = words[words.index(q.wh) + 1 :]
    at = next((i for i, w in enumerate(rest) if w in _AUX), None)
    if at is None:
        return rest, None
    return rest[:at], rest[at]


def _plural(word: str) -> bool:
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is"))
