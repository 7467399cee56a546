"""Stage 2 of the read path: relevance-gated expansion over the names that the selected
profiles contain (ProGraph's implicit entity graph), and the chain the question walks.

Each round scans the profiles added last for registered names; a named entity not yet
selected is scored by cosine(question, its profile) and joins if it clears the gate.
Expansion stops when no profile names anyone new, when no candidate clears the gate, or
at the hop limit, and the trace says which.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from memhop.core.config import ReadSettings
from memhop.core.language.chains import relative
from memhop.core.language.names import NameMatch
from memhop.core.language.question import relation_forms
from memhop.core.language.sentences import gather as gather_sentences
from memhop.core.model import AnswerRequest, EntitySlice
from memhop.core.store.recall import ProfileIndex, Snapshot
from memhop.core.trace import Candidate, ChainLink, Hop, Trace

SNIPPET = 40  # characters of profile text either side of a matched name
Edges = dict[int, dict[int, list[NameMatch]]]  # row -> {row its profile names: the mentions}


def snippet(text: str, match: NameMatch) -> str:
    """The text around a mention, the name in [brackets]."""
    start, end = max(0, match.start - SNIPPET), min(len(text), match.end + SNIPPET)
    left = ("…" if start else "") + text[start : match.start]
    right = text[match.end : end] + ("…" if end < len(text) else "")
    return " ".join(f"{left}[{match.text}]{right}".split())


def _scan(row: int, snap: Snapshot, row_of: dict[str, int], edges: Edges) -> dict[int, list[NameMatch]]:
    """Who a profile names; cached on the snapshot (profiles only change with the store)."""
    if row not in snap.links:
        found: dict[int, list[NameMatch]] = {}
        for match in snap.names.find(snap.profiles.texts[row]):
            other = row_of[match.entity]
            if other != row:
                found.setdefault(other, []).append(match)
        snap.links[row] = found
    edges[row] = snap.links[row]
    return edges[row]


def expand(cosines: np.ndarray, selection: list[int], snap: Snapshot, options: ReadSettings, trace: Trace) -> Edges:
    """Grow `selection` in place; return who names whom among the selected (for the chain)."""
    profiles = snap.profiles
    row_of = profiles.row_of
    edges: Edges = {}
    frontier = list(selection)
    trace.stopped = f"hop limit reached ({options.hops})" if options.expand else "expansion disabled"
    for round_no in range(1, options.hops + 1 if options.expand else 1):
        found: dict[int, Candidate] = {}
        for row in frontier:
            for other, mentions in _scan(row, snap, row_of, edges).items():
                if other not in selection and other not in found:
                    score = round(float(cosines[other]), 4)
                    around = snippet(profiles.texts[row], mentions[0])
                    found[other] = Candidate(
                        profiles.names[other], profiles.names[row], around, score, score > options.gate
                    )
        if not found:
            trace.stopped = "no new names in the selected profiles"
            break
        ranked = sorted(found.items(), key=lambda kv: (-(kv[1].score or 0.0), kv[0]))
        added = [row for row, cand in ranked if cand.passed]
        trace.hops.append(Hop(round_no, tuple(c for _, c in ranked), tuple(profiles.names[r] for r in added)))
        if not added:
            trace.stopped = f"no candidate cleared the gate (best {ranked[0][1].score or 0.0:.2f} ≤ {options.gate:.2f})"
            break
        selection.extend(added)
        frontier = added
    for row in selection:  # the last additions were never scanned; the chain needs their names too
        _scan(row, snap, row_of, edges)
    return edges


def walk_chain(
    anchor: int | None, relations: Sequence[str], selection: list[int], edges: Edges, snap: Snapshot, trace: Trace,
    *, join: bool = True,
) -> None:
    """The chain the question describes, walked through the selected profiles: from the
    anchor, for each relation word of the question ("Alice's roommate's sister"), the
    entity the current profile gives that relation to (the offline answerer's rule),
    with the profile text that links them. Recorded in the trace.

    An entity the chain reaches joins the selection even below the gate: a profile that
    states the very relation the question names is stronger evidence than a cosine
    (`join=False`, as with expansion disabled: the chain stays within the selection)."""
    if anchor is None or anchor not in selection:
        return
    profiles = snap.profiles
    row_of = profiles.row_of
    path = [anchor]
    for relation in relations:
        here = path[-1]
        near = [here, *(r for r in selection if r in edges.get(here, {}) or here in edges.get(r, {}))]
        pieces = tuple(EntitySlice(profiles.names[r], profiles.texts[r], ()) for r in near)
        said = gather_sentences(AnswerRequest("", pieces, ()))
        found = relative(profiles.names[here], relation, [p.name for p in pieces], said)
        row = profiles.names.index(found) if found in profiles.names else None
        joined = row is not None and row not in selection
        if row is None or row in path or (joined and not join):
            break
        if joined:
            selection.append(row)
            _scan(row, snap, row_of, edges)
        path.append(row)
        around = _link_text(here, row, relation, edges, profiles)
        trace.links.append(ChainLink(profiles.names[here], profiles.names[row], around, joined))
    trace.chain = [profiles.names[r] for r in path]


def _link_text(here: int, there: int, relation: str, edges: Edges, profiles: ProfileIndex) -> str:
    """The mention that links two profiles, preferring one with the relation word beside it."""
    forms = relation_forms(relation.split()[-1])
    options = [snippet(profiles.texts[here], m) for m in edges.get(here, {}).get(there, [])]
    options += [snippet(profiles.texts[there], m) for m in edges.get(there, {}).get(here, [])]
    for text in options:
        if forms & set(re.findall(r"\w+", text.lower())):
            return text
    return options[0] if options else ""
