"""Word-level matching shared by evidence ranking and the offline answerer.

Small sentence embeddings blur rare exact words ("pottery", "LGBTQ", "Elgar") that a
question and its evidence share; a light stemmer and BM25 over a short candidate list
restore them at the cost of a few milliseconds.

A word is a run of Unicode letters and digits (so "Zoë" and "Łódź" are one word each), and
words are compared folded: no case, no accents (NFKD with its combining marks dropped, then
names.fold's letters that NFKD keeps whole, ł -> l, ø -> o), so "Zoe" typed on an English
keyboard meets "Zoë" in the diary.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from memhop.core.language.names import fold

STOPWORDS = frozenset(
    """a an the of to in on at for and or but nor is are was were be been being am do does did
    done doing what when where who whom whose which why how have has had having i you he she it
    we they me him her them my your his its our their mine yours hers ours theirs this that these
    those with from by as about into over after before than then there here not no yes can could
    would should will shall may might must just so if also any some more most very s t d ll m re
    ve don didn doesn isn wasn aren weren get got go goes going went make made one ever kind ago
    thing things really much many lot lots""".split()
)
# Combining marks a decomposed text (NFD: "e" + U+0301) puts inside a word: part of the word.
_MARKS = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
# A word (letters, digits, their marks) and its apostrophe tail ("Zoë's", "don’t"), in any case.
_WORD = re.compile(rf"([^\W_](?:[^\W_]|[{_MARKS}])*)(?:['’][^\W\d_](?:[^\W\d_]|[{_MARKS}])*)?")
# _WORD on a lower-case ASCII text, spelt in ASCII (~2x as fast); also the rule before words
# were Unicode, which ascii_terms keeps. The one group: the word without its tail.
_ASCII_WORD = re.compile(r"([a-z0-9]+)(?:'[a-z]+)?")
_SUFFIXES = ("ingly", "edly", "ies", "ing", "ed", "es", "ly", "s")


def words(text: str) -> list[str]:
    """Folded word tokens (no case, no accents), possessive and contraction tails dropped."""
    if text.isascii():  # no accents to fold: the words as _WORD finds them, by the faster ASCII spelling of it
        return _ASCII_WORD.findall(text.lower())
    return [word for word, _ in positions(text)]


@lru_cache(maxsize=65536)
def folded(word: str) -> str:
    """A word as matching sees it: case folded ("Straße" -> "strasse") and without accents."""
    if word.isascii():
        return word.lower()
    plain = "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))
    return fold(plain).casefold()


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A crude suffix stripper: enough for live/lives/lived/living (and play/plays/played) to meet.
    A word with accents is folded first, so every caller's stems meet `terms`'."""
    if not word.isascii():
        word = folded(word)
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            if suffix == "ies":
                return word + "y"
            if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
                word = word[:-1]  # running -> run, but not "bell" -> "bel"
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def singular(word: str) -> str:
    """A noun without its plural ending: "quizzes" and "quiz" are one word, "booked" and
    "book" are not (`stem` would join them)."""
    word = word.lower()
    for plural, single in (("zzes", "z"), ("ies", "y"), ("sses", "ss"), ("shes", "sh"), ("ches", "ch"), ("xes", "x")):
        if word.endswith(plural) and len(word) > len(plural) + 1:
            return word[: -len(plural)] + single
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word


def terms(text: str) -> list[str]:
    """Content-word stems of a text, in order (duplicates kept)."""
    return [stem(w) for w in words(text) if w not in STOPWORDS and len(w) > 1]


def bm25(query: Sequence[str], docs: Sequence[Sequence[str]], k1: float = 1.2, b: float = 0.75) -> list[float]:
    """BM25 of each doc (a list of terms) for the query terms, idf taken over the docs given."""
    n = len(docs)
    if not n or not query:
        return [0.0] * n
    wanted = set(query)
    df: Counter[str] = Counter()
    for doc in docs:
        df.update(wanted.intersection(doc))
    avg = sum(len(d) for d in docs) / n or 1.0
    weight = {w: idf(df[w], n) for w in wanted if df[w]}
    scores = []
    for doc in docs:
        counts = Counter(t for t in doc if t in weight)
        norm = k1 * (1 - b + b * len(doc) / avg)
        scores.append(sum(weight[t] * c * (k1 + 1) / (c + norm) for t, c in counts.items()))
    return scores


def idf(df: int, n: int) -> float:
    """BM25's inverse document frequency of a term in `df` of `n` documents: positive however common."""
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def positions(text: str) -> list[tuple[str, int]]:
    """Folded words (possessive tails dropped) with their offsets in `text` itself, so a
    caller slices the text as written; a folded word may be longer or shorter than its span."""
    return [(folded(m.group(1)), m.start()) for m in _WORD.finditer(text)]


def ascii_terms(text: str) -> list[str]:
    """`terms` as they were before words were Unicode ("José" -> "jos"): what the hero
    retriever's persisted cue table (core/store/cues.py) was filed under. Refiling existing
    stores under Unicode terms needs a migration; until then both sides of that table keep
    this rule so a question still meets the turns it was filed from."""
    return [stem(w) for w in _ASCII_WORD.findall(text.lower()) if w not in STOPWORDS and len(w) > 1]
