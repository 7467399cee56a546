"""The main verb of a short question, read by rules where the word order leaves no doubt.

Reading a question's verb with the parser means loading spaCy, ~0.7 s of CPU in a fresh
`memhop ask` that often needs nothing else from it. English questions put the verb in a
few fixed places: "what does Maren like ...?", "which city did my best friend's partner
move to?" (the bare verb right after a subject that is a pronoun, a name or a possessive
chain ending in a relation word); "what is the favourite drink of ...?" (a copula with no
participle after it has no main verb). A question of any other shape is left to the
parser (`read` gives None), so the rules answer only where they are sure.
"""

from __future__ import annotations

from dataclasses import dataclass

from memhop.core.language.question import MODIFIERS, is_possessive, is_relation, tokens

_WH = frozenset({"what", "which"})
_DO = frozenset({"do", "does", "did"})
_BE = frozenset({"is", "are", "was", "were"})
_AUX = _DO | _BE | frozenset("has have had can could will would should shall may might must".split())
_PRONOUNS = frozenset({"i", "you", "he", "she", "we", "they", "it"})
_POSSESSIVES = frozenset({"my", "your", "his", "her", "our", "their"})
_LEADING = frozenset("in on at for from with to by of about during".split())  # "in which city ..."
# Adverbs that stand where the verb does ("what did she last buy?"); several are verbs too.
_ADVERBS = frozenset(
    "last still even best better further ever never really usually often also just first".split()
)
_PARTICLES = frozenset("up down out off back over away around along about on in".split())  # "grow up"
MAX_WORDS = 14  # a short question: longer ones (clauses, lists) are the parser's
MAX_TYPE_WORDS = 3  # "what kind of music", between the question word and its auxiliary
MAX_NAME_WORDS = 3  # "Halloran Café", "Huw Jenkins"


@dataclass(frozen=True)
class Read:
    """What the rules read: the verb's bare form, or None for a copula question."""

    verb: str | None


def read(question: str) -> Read | None:
    """The question's main verb by rules, or None when its shape is not one they know."""
    words = [m.group(0) for m in tokens(question)]
    while words and words[-1] in ("?", "."):
        words.pop()
    if not words or len(words) > MAX_WORDS or not all(w[0].isalnum() for w in words):
        return None  # punctuation inside: quotes, commas, dashes, another clause
    low = [w.lower() for w in words]
    start = 1 if low[0] in _LEADING else 0
    if start >= len(low) or low[start] not in _WH:
        return None
    aux = next((i for i in range(start + 1, len(low)) if low[i] in _AUX), None)
    if aux is None or aux - start - 1 > MAX_TYPE_WORDS or not all(w.islower() for w in words[start + 1 : aux]):
        return None
    if low[aux] in _BE:
        return None if any(_may_be_participle(w) for w in low[aux + 1 :]) else Read(None)
    if low[aux] in _DO:
        return _after_subject(words, aux + 1)
    return None


def _may_be_participle(word: str) -> bool:
    """"called", "doing", "taken", "seen": after a copula, the question's real verb."""
    from memhop.core.engines.offline.nlp import irregular_verbs

    return word.endswith(("ing", "ed", "en")) or word in irregular_verbs()


def _after_subject(words: list[str], at: int) -> Read | None:
    """The bare verb after the subject that starts at `at`."""
    end = _subject_end(words, at)
    if end is None or end >= len(words):
        return None
    from memhop.core.engines.offline.nlp import verb_lemmas

    if words[end].endswith("ly") and end + 1 < len(words) and words[end] not in verb_lemmas():
        end += 1  # "does my cousin usually play", not "did Maren apply last"
    if words[end].lower() in _ADVERBS:
        return None  # "what did she last buy?": the parser finds the verb past the adverb
    after = words[end + 1] if end + 1 < len(words) else ""
    if after.endswith("ing") or after in verb_lemmas() and after not in _PARTICLES:
        return None  # "does she enjoy cooking", "did she still want": which verb leads is the parser's call
    return _bare_verb(words[end])


def _subject_end(words: list[str], at: int) -> int | None:
    """Where a subject ends: a pronoun, a name, or a possessive chain ending in a relation word
    ("my brother's wife", "Huw Jenkins's boyfriend"); None for any other subject."""
    if at >= len(words):
        return None
    first = words[at]
    if first.lower() in _PRONOUNS:
        return at + 1
    i = at
    if first.lower() in _POSSESSIVES:
        i += 1
    elif first[0].isupper():
        while i < len(words) and i - at < MAX_NAME_WORDS and words[i][0].isupper() and not is_possessive(words[i]):
            i += 1
        if i < len(words) and words[i][0].isupper() and is_possessive(words[i]):
            i += 1  # the name's last word, owning what follows
        elif i == at or i - at >= MAX_NAME_WORDS and i < len(words) and words[i][0].isupper():
            return None
        else:
            return i  # the name itself is the subject
    else:
        return None
    while i < len(words) and (words[i] in MODIFIERS or words[i].islower() and is_possessive(words[i])):
        i += 1  # "brother's", "best friend's"
    if i < len(words) and words[i].islower() and is_relation(words[i]):
        return i + 1
    return None


def _bare_verb(word: str) -> Read | None:
    from memhop.core.engines.offline.grammar import verb_base
    from memhop.core.engines.offline.nlp import verb_lemmas

    if not (word.isalpha() and word.islower()) or word not in verb_lemmas():
        return None
    return Read(verb_base(word))
