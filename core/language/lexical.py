"""Word-level matching shared by evidence ranking and the offline answerer.

Small sentence embeddings blur rare exact words ("pottery", "LGBTQ", "Elgar") that a
question and its evidence share; a light stemmer and BM25 over a short candidate list
restore them at the cost of a few milliseconds.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

STOPWORDS = frozenset(
    """a an the of to in on at for and or but nor is are was were be been being am do does did
    done doing what when where who whom whose which why how have has had having i you he she it
    we they me him her them my your his its our their mine yours hers ours theirs this that these
    those with from by as about into over after before than then there here not no yes can could
    would should will shall may might must just so if also any some more most very s t d ll m re
    ve don didn doesn isn wasn aren weren get got go goes going went make made one ever kind ago
    thing things really much many lot lots""".split()
)
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_WORD_CASED = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)?")
_SUFFIXES = ("ingly", "edly", "ies", "ing", "ed", "es", "ly", "s")


def words(text: str) -> list[str]:
    """Lower-case word tokens, possessive and contraction tails dropped."""
    return [w.split("'")[0] for w in _WORD.findall(text.lower())]


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A crude suffix stripper: enough for live/lives/lived/living (and play/plays/played) to meet."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            if suffix == "ies":
                return word + "y"
            if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
                word = word[:-1]  # running -> run, but not "bell" -> "bel"
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


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
    """Lower-case words (possessive tails dropped) with their character offsets."""
    return [(re.split("['’]", m.group(0).lower())[0], m.start()) for m in _WORD_CASED.finditer(text)]
