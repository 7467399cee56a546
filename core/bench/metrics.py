"""Scoring one answer and one ranked evidence list, and summarising many.

Evidence recall and answer quality are measured apart (seed 001): a system can find the
right turns and still answer wrong, or the other way round.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from memhop.core.support import is_refusal

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = str.maketrans({c: " " for c in string.punctuation})


def normalise(text: str) -> str:
    """SQuAD-style: lower case, no punctuation, no articles, single spaces."""
    text = text.lower().replace("\u2019", "'")
    text = _ARTICLES.sub(" ", text.translate(_PUNCT))
    return " ".join(text.split())


def exact_match(answer: str, gold: str) -> bool:
    return bool(gold) and normalise(answer) == normalise(gold)


def token_f1(answer: str, gold: str) -> float:
    """LoCoMo's answer metric: overlap of normalised tokens."""
    got, want = normalise(answer).split(), normalise(gold).split()
    common = sum((Counter(got) & Counter(want)).values())
    if not got or not want or not common:
        return 0.0
    precision, recall = common / len(got), common / len(want)
    return 2 * precision * recall / (precision + recall)


def is_idk(answer: str) -> bool:
    """"I don't know" as `memhop ask` recognises it (its `answered` is False)."""
    return is_refusal(answer)


def recall_at(ranked: Sequence[str | None], gold: Sequence[str], k: int) -> float | None:
    """Share of the gold turn ids among the first k retrieved; None when there is no gold."""
    wanted = set(gold)
    if not wanted:
        return None
    return len(wanted & set(ranked[:k])) / len(wanted)


def split_evidence(raw: Iterable[object]) -> list[str]:
    """LoCoMo evidence lists sometimes pack several ids in one string ("D8:6; D9:17")."""
    out: list[str] = []
    for item in raw:
        out.extend(p for p in re.split(r"[;,\s]+", str(item)) if re.fullmatch(r"D\d+:\d+", p))
    return out


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


@dataclass
class Record:
    """One system's result on one question."""

    dataset: str  # memhop | locomo
    source: str  # scenario or conversation
    system: str
    qid: str
    group: str  # "K=3" or a LoCoMo category name
    question: str
    gold: str | None  # None: adversarial, the right answer is to decline
    answer: str | None  # None: no answerer could run
    recall10: float | None
    recall25: float | None
    reached: bool | None  # the answer-bearing entity (or its gold turn) was in the context
    broke_at: int | None  # first hop (1-based) missing from the context, None when all present
    context_tokens: int
    seconds: float
    entities_read: int = 0  # profiles (with their facts) in the context: memhop systems only
    turn_reached: bool | None = None  # a gold turn of the answer-bearing hop among the 10 evidence turns

    @property
    def idk(self) -> bool:
        return self.answer is not None and is_idk(self.answer)

    @property
    def em(self) -> bool:
        if self.answer is None:
            return False
        return self.idk if self.gold is None else exact_match(self.answer, self.gold)

    @property
    def wrong(self) -> bool:
        """An answer that is not "I don't know" and does not match the gold (EM); any answer
        to an adversarial question."""
        return self.answer is not None and not self.idk and not self.em

    @property
    def f1(self) -> float:
        if self.answer is None:
            return 0.0
        return float(self.idk) if self.gold is None else token_f1(self.answer, self.gold)


def mean(values: Iterable[float | bool | None]) -> float | None:
    kept = [float(v) for v in values if v is not None]
    return sum(kept) / len(kept) if kept else None


Metric = Callable[[Record], float | bool | None]
# The per-question numbers the report averages; None = not applicable (no answer, no gold).
METRICS: dict[str, Metric] = {
    "R@10": lambda r: r.recall10,
    "R@25": lambda r: r.recall25,
    "chain reach": lambda r: r.reached,
    "EM": lambda r: None if r.answer is None else r.em,
    "F1": lambda r: None if r.answer is None else r.f1,
    "answered": lambda r: None if r.answer is None else not r.idk,
    "refused": lambda r: None if r.answer is None else r.idk,
    "wrong": lambda r: None if r.answer is None else r.wrong,
}


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A Markdown table: the report's sections all print theirs this way."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)
