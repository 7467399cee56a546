"""Category membership for aggregation questions: "which sports has Tomas played?" asks for
the members of a category ("sports") among one person's turns, spread over sessions, and
a member rarely repeats the question's words ("went bouldering at the quarry").

The category's words (core/route.py `category`) are embedded with the store's embedder,
the person's turns (spoken by or naming them: the question's focus) are ranked by their
cosine to it, and that list is fused with the default ranking by reciprocal rank (k 60,
Cormack et al. 2009) at a quarter of its vote: a category is one part of the question,
and the list is a hint, not a ranking of its own. Measured (benchmarks/category_oracle.py)
against the finer signal — the best cosine of the category and each turn's noun and verb
phrases, parsed and embedded at ask time — the whole turn's stored vector did about as
well, lost nowhere, and costs one embedding instead of hundreds; see README's recall section.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memhop.core.store.recall import EXACT_ROWS, TurnIndex

POOL = 100  # each list's length in the fusion; the default ranking's rest follows in its order
RRF_K = 60  # reciprocal-rank fusion's constant
WEIGHT = 0.25  # the category list's vote against the default ranking's 1


def members(
    turns: TurnIndex, category: np.ndarray, focus: np.ndarray, allowed: np.ndarray | None,
    in_period: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The person's turns closest to the category, best first (at most POOL), and their
    cosines. A question naming a period ("in 2023") has only the person's turns said in it
    vote; all of them when none was (the period may be when it happened, told later). A
    person of up to EXACT_ROWS turns has each scored; on a large store a person of more has
    only the index's candidates scored (TurnIndex.cosines with the person's turns as the
    rows a bonus may lift): bounded like the question's own pass."""
    if allowed is not None:
        focus = focus[allowed[focus]]
    if in_period is not None and in_period[focus].any():
        focus = focus[in_period[focus]]
    if not len(focus):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    if turns.approximate and len(focus) > EXACT_ROWS:
        values = turns.cosines(category, POOL, [focus], allowed)[focus]
    else:
        values = turns.vectors_of(focus) @ category
    keep = np.isfinite(values)
    rows, values = focus[keep], values[keep]
    order = np.lexsort((rows, -values))[:POOL]
    return rows[order], values[order]


def fuse(ranked: Sequence[int], extra: Sequence[int], weight: float = WEIGHT) -> list[int]:
    """The default ranking's first POOL rows and the category's list, by reciprocal rank
    (a row in both gains both; the category's list at `weight`), then the default ranking's rest in its own order. Neither
    input depends on the budget beyond its first POOL rows, so the first K of a bigger
    budget are the K of a smaller one."""
    head, rest = list(ranked[:POOL]), list(ranked[POOL:])
    score = {row: 1.0 / (RRF_K + at + 1) for at, row in enumerate(head)}
    for at, row in enumerate(extra[:POOL]):
        score[row] = score.get(row, 0.0) + weight / (RRF_K + at + 1)
    fused = sorted(score, key=lambda row: (-score[row], row))
    return fused + [row for row in rest if row not in score]
