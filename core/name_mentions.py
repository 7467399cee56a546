"""Where a name in a text refers to the entity: the rule forget and its redaction share.

A form is found as whole words, ignoring case and accents ("Ines" finds Inês), as
core/language/names.py finds mentions. A one-word form that is also an ordinary word
("Rose", "Mark", "Will", "May", "Bill", "Joy": in WordNet's word list, a stopword, a month
or a weekday) counts only where it is written as a name: capitalised (not shouted in
capitals), and at the start of a sentence only when the tagger does not read it as the
verb, modal or adverb it also is ("Mark the calendar.", "Will you come?") unless a verb
follows it ("Will said hi."). A month form after "in", "since", "early"... or before a
number is the month. In a label (a speaker, a file path, a title) a capitalised form is
a name wherever it stands; "Prices rose again" and "rose.jsonl" stay as they are.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache

from memhop.core.language.dates import MONTHS, WEEKDAYS
from memhop.core.language.lexical import STOPWORDS
from memhop.core.language.names import fold, name_key

# Tags of a sentence-initial word that is not a name ("Mark the", "Will you", "Rose again").
NOT_NAME_TAGS = frozenset({"VB", "VBP", "VBZ", "VBD", "MD", "RB", "UH", "IN"})
FINITE_TAGS = frozenset({"VBD", "VBZ", "VBP", "MD"})  # "Will said hi": a verb after it makes it the subject
TEMPORAL = frozenset(
    "in on of since until till by early late mid last next this every during from through before after".split()
)
_SENTENCE_START = re.compile(r"(?:\A|[.!?…:;]|\n)[\s\"'“‘(\[*_-]*\Z")
_WORD_BEFORE = re.compile(r"([^\W\d_]+)\W*\Z")
_SENTENCE_REST = re.compile(r"[^.!?…\n]*")

Tagger = Callable[[str], Sequence[str]]  # fine-grained tags of a short text's tokens


@lru_cache(maxsize=4096)
def is_common_word(form: str) -> bool:
    """A one-word form that is also an ordinary English word, a month or a weekday."""
    words = name_key(form).split()
    if len(words) != 1:
        return False
    word = words[0]
    if word in STOPWORDS or word in MONTHS or word in WEEKDAYS:
        return True
    from memhop.core.engines.offline.nlp import is_english_word  # spaCy's word list: loaded on need

    return is_english_word(word)


def spacy_tags(text: str) -> Sequence[str]:
    return _tags(text)


@lru_cache(maxsize=4096)
def _tags(text: str) -> tuple[str, ...]:
    from memhop.core.engines.offline.nlp import load_nlp

    doc = load_nlp()(text, disable=["parser", "ner"])
    return tuple(token.tag_ for token in doc)


class NameMatcher:
    """Finds an entity's forms where they name it; `search` and `sub` as on a pattern.

    `prose` texts (turns, profiles, facts) get the sentence-start rule; labels do not.
    `seen` collects the spellings found of the forms that are not ordinary words
    ("CÉLESTE"), for the byte scan that has no accent folding of its own.
    """

    def __init__(self, forms: Sequence[str], prose: bool = True, tagger: Tagger = spacy_tags) -> None:
        self.forms = tuple(f for f in forms if f.strip())
        self.prose = prose
        self.seen: set[str] = set()
        self._tagger = tagger
        parts = [r"\s+".join(re.escape(p) for p in fold(f).split()) for f in sorted(self.forms, key=len, reverse=True)]
        alternatives = "|".join(p for p in parts if p) or "(?!)"
        self._pattern = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)
        self.common = frozenset(name_key(f) for f in self.forms if is_common_word(f))

    def finditer(self, text: str) -> Iterator[tuple[int, int]]:
        for m in self._pattern.finditer(fold(text)):
            start, end = m.span()
            surface = text[start:end]
            if name_key(surface) in self.common:
                if not self._names_here(text, start, end):
                    continue
            else:
                self.seen.add(surface)
            yield start, end

    def search(self, text: str) -> bool:
        return sum(1 for _ in self.finditer(text)) > 0  # every match, so `seen` has each spelling

    def sub(self, replacement: str, text: str) -> str:
        out, pos = [], 0
        for start, end in self.finditer(text):
            out += [text[pos:start], replacement]
            pos = end
        return "".join(out) + text[pos:] if out else text

    def _names_here(self, text: str, start: int, end: int) -> bool:
        surface = text[start:end]
        if not surface[:1].isupper() or (len(surface) > 1 and surface.isupper()):
            return False
        if not self.prose:
            return True
        before = text[:start]
        if name_key(surface) in MONTHS or name_key(surface) in WEEKDAYS:
            word = _WORD_BEFORE.search(before)
            if (word and word.group(1).lower() in TEMPORAL) or text[end:].lstrip()[:1].isdigit():
                return False
        if not _SENTENCE_START.search(before):
            return True  # capitalised inside a sentence: a name
        rest = _SENTENCE_REST.match(text, end)
        tags = self._tagger(surface + (rest.group(0) if rest else ""))
        if not tags or tags[0] not in NOT_NAME_TAGS:
            return True
        return len(tags) > 1 and tags[1] in FINITE_TAGS
