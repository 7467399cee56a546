"""Names the NER model does not know.

spaCy's small NER finds the names it saw in training (Alice, Carlisle) and misses the rest:
Crumbwell, Hillside Vets, a dog called Pickle, Ji-ho, Łukasz. The tagger reads
shape and context instead, and marks those as proper nouns. So a run of capitalised
proper-noun tokens (joined by "&", "of", "de" …) is a name candidate, and so is a
capitalised hyphenated word whose parts are not all English ("Ji-ho", not "Check-in").
What they are (person, pet, place, organisation) the kind votes decide.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memhop.core.engines.offline.nlp import is_english_word

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_PROPER = frozenset({"NNP", "NNPS"})
_JOINERS = frozenset({"&", "of", "de", "da", "do", "dos", "das", "van", "von", "der", "den", "del", "la", "le", "al", "bin"})
_HYPHENATED = re.compile(r"(?<![\w'’-])([^\W\d_][^\W\d_']*(?:-[^\W\d_]+)+)(?![\w-])")


def proper_noun_runs(doc: Doc) -> list[tuple[int, int]]:
    """Character spans of the proper-noun runs in a parsed text, in order."""
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(doc):
        if not _starts_name(doc[i]):
            i += 1
            continue
        j = i + 1
        while j < len(doc):
            if _starts_name(doc[j]):
                j += 1
            elif doc[j].lower_ in _JOINERS and j + 1 < len(doc) and _starts_name(doc[j + 1]):
                j += 2
            else:
                break
        runs.append((doc[i].idx, doc[j - 1].idx + len(doc[j - 1].text)))
        i = j
    return _with_hyphenated(doc.text, runs)


def _starts_name(token: Token) -> bool:
    text = token.text
    return token.tag_ in _PROPER and text[:1].isupper() and any(c.islower() for c in text) and text.isalpha()


def _with_hyphenated(text: str, runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Add "Ji-ho"-like names (the tokenizer splits them, the tagger calls "Do" a verb),
    replacing the runs inside them."""
    for match in _HYPHENATED.finditer(text):
        word = match.group(1)
        parts = word.split("-")
        if not word[0].isupper() or all(is_english_word(p) for p in parts):
            continue
        start, end = match.span(1)
        runs = [r for r in runs if r[1] <= start or r[0] >= end] + [(start, end)]
    return sorted(runs)
