"""The raw-turn layer of the read path: which verbatim turns the answerer gets to see.

ProGraph's profiles and facts paraphrase; the turns are what was actually said. Within a
budget of K turns: (1) the turns the chosen verified facts came from (facts that clear the
relevance gate, best first), (2) their replies and the turns they reply to, then (3)
backfill over every turn — cosine of the question without its names (names dominate a
small embedding and every turn of a speaker lacks them), a bonus for turns by or about the
entities the question names plus each name's BM25 weight (`name_weight`; not for a reply
that names them only to address them, `addressed`), BM25 over the
best candidates for the rare words embeddings blur, a share of the score of the session
the turn was said in (its best few turns: the evidence of one question clusters in the
sessions about it), and one-hop recovery across speakers (a turn inherits part of the
score of the turn it answers or that answers it; a writer's next sentence in a diary is
not a reply and lends nothing; a turn that mostly asks gives its reply its whole score).
Layers 1–2 take at
most a quarter of the budget: on LoCoMo a larger share cost recall (the facts point at
the right turns, but backfill finds more of the others). The `prograph` retriever
(core/retrievers/prograph.py) puts these together. Every tunable number is a field of
`Weights`; `memhop bench` grids each one on one LoCoMo conversation and tests it on the
other (core/bench/gap.py), and the defaults are the values that hold on both.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace

import numpy as np

from memhop.core.language import lexical
from memhop.core.language.address import only_addressed
from memhop.core.language.names import match_registry
from memhop.core.language.turns import asks, replies
from memhop.core.store.recall import TurnIndex, TurnRecord, distinct
from memhop.core.trace import EvidencePick

LEXICAL_POOL = 100  # backfill candidates re-scored with BM25
MIN_NAME_WEIGHT = 1e-3  # a name weight below this is not added (a pass over its rows for nothing)
SESSION_BEST = 3  # a session's score: the mean of its best few turns among the BM25 pool


@dataclass(frozen=True)
class Weights:
    """The default retriever's tunable numbers, so the benchmark can re-rank one question
    many ways (its 26-vs-30 gap report); `WEIGHTS` are the shipped ones."""

    entity_bonus: float = 0.1  # a turn spoken by, or naming, an entity the question starts from
    lexical: float = 0.2  # BM25, scaled to [0, 1] within the pool
    neighbour_share: float = 0.7  # what a turn inherits of its neighbour's score
    fact_share: int = 4  # fact sources and their neighbours take at most 1/fact_share of the budget (rounded up)
    session: float = 0.2  # a turn gains this share of its session's score


WEIGHTS = Weights()


@dataclass(frozen=True)
class Listener:
    """One person the question names, as a party to the conversation: their name's forms
    and the rows of the turns they said (sorted)."""

    forms: tuple[str, ...]
    spoken: np.ndarray


@dataclass(frozen=True)
class FactSource:
    residual_id: int
    score: float
    turn_ids: tuple[int, ...]

    @property
    def cited_turns(self) -> tuple[int, ...]:
        """The turn an answer cites the fact by: its first source (support.py), which the
        read path fetches with the evidence on a large store."""
        return self.turn_ids[:1]


@dataclass(frozen=True)
class Evidence:
    turn: TurnRecord
    pick: EvidencePick


def evidence_of(turns: TurnIndex, rows: Sequence[int], picks: Sequence[EvidencePick]) -> list[Evidence]:
    """The turns of these rows, in this order, each with why it was picked."""
    return [Evidence(rec, replace(p, external_id=rec.external_id)) for rec, p in zip(turns.records(list(rows)), picks)]


def _external(turns: TurnIndex, row: int) -> str:
    return f"turn {int(turns.ids[row])}"




def _neighbours(turns: TurnIndex, row: int) -> list[int]:
    """The turn before and after that `replies` pairs with this one: the turn it answers and
    its answer."""
    out = []
    for other in (row - 1, row + 1):
        if 0 <= other < len(turns.ids) and replies(turns.speaker_codes[row], turns.sessions[row],
                                                   turns.speaker_codes[other], turns.sessions[other]):
            out.append(other)
    return out


def fact_picks(
    turns: TurnIndex, sources: Sequence[FactSource], cap: int, allowed: np.ndarray | None,
    share: float = WEIGHTS.neighbour_share,
) -> dict[int, EvidencePick]:
    """Up to `cap` turns, in pick order: the sources of the facts, best fact first, then
    the turns they answer or that answer them (`_neighbours`)."""
    picks: dict[int, EvidencePick] = {}
    ordered = sorted(sources, key=lambda s: -s.score)
    seeds: list[tuple[int, float]] = []
    for source in ordered:
        for row in turns.rows_of(source.turn_ids):
            row = int(row)
            if len(picks) >= cap:
                return picks
            if row not in picks and (allowed is None or allowed[row]):
                picks[row] = EvidencePick(
                    int(turns.ids[row]), None, "fact source", f"fact #{source.residual_id}", round(source.score, 4)
                )
                seeds.append((row, source.score))
    for row, score in seeds:
        for other in _neighbours(turns, row):
            if len(picks) >= cap:
                return picks
            if other not in picks and (allowed is None or allowed[other]):
                picks[other] = EvidencePick(
                    int(turns.ids[other]), None, "neighbour", _external(turns, row), round(share * score, 4)
                )
    return picks


def name_weight(rows: int, n: int, weights: Weights = WEIGHTS) -> float:
    """What a turn by or naming one entity of the question gains beyond the entity bonus:
    the name's BM25 idf (the name as a word found in `rows` of the `n` turns) relative to a
    word found in one turn, at the lexical weight. BM25 scores the question without its
    names, so this gives a name its word's weight back: a name in a handful of turns (a pet,
    a café) is as telling as a rare word, a speaker of half the turns tells next to nothing."""
    if rows <= 0 or n <= 1:
        return 0.0
    return weights.lexical * lexical.idf(rows, n) / lexical.idf(1, n)


def _add(base: np.ndarray, rows: np.ndarray, value: float) -> None:
    """base[rows] += value; rows distinct."""
    if len(rows) > len(base) // 8:  # a mask is cheaper than a million-row fancy index
        mask = np.zeros(len(base), dtype=bool)
        mask[rows] = True
        base[mask] += value
    else:
        base[rows] += value


def hybrid_scores(
    cosines: np.ndarray,
    query_text: str,
    texts: Callable[[list[int]], list[str]],
    wanted: int,
    focus_rows: np.ndarray | None = None,
    allowed: np.ndarray | None = None,
    in_period: np.ndarray | None = None,
    sparse: bool = False,
    weights: Weights = WEIGHTS,
    named: Sequence[np.ndarray] = (),
    listeners: Sequence[Listener] = (),
    sessions: np.ndarray | None = None,
    scored: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Every row's score — its `cosines` (a fresh array, changed in place), +entity bonus for `focus_rows`,
    +`name_weight` for each of `named` (one entity's rows each; a turn naming two of them gains both, as
    BM25 sums its words), the entity bonus again for rows `in_period` (a mask), +BM25 (scaled to the lexical
    weight) over the best LEXICAL_POOL rows — and the best `wanted` rows, unordered. Rows not `allowed`
    score -inf and are never among the best. `listeners` (one per `named`, with the turns' `sessions`): a
    row of the pool that names a person only to address them, in a session they speak in, loses what
    naming them gave it (`addressed`). `scored` (`sparse` only): the finite rows of `cosines`, ascending, when
    the caller knows them (`TurnIndex.scored_cosines`), so no pass over every row finds them again."""
    base = cosines
    bonus = weights.entity_bonus
    alone = len(named) == 1 and named[0] is focus_rows  # one entity: its weight joins the bonus, one pass
    if focus_rows is not None and len(focus_rows):
        _add(base, focus_rows, bonus + (name_weight(len(focus_rows), len(base), weights) if alone else 0.0))
    for rows in () if alone else named:
        weight = name_weight(len(rows), len(base), weights)
        if weight >= MIN_NAME_WEIGHT:  # a speaker of most turns: next to nothing, not worth a pass over them
            _add(base, rows, weight)
    if in_period is not None:
        base[in_period] += bonus  # a turn said in the period the question names: as telling
    if allowed is not None:
        base[~allowed] = -np.inf
    seeds = _best(base, wanted, sparse, scored)
    pool = seeds[np.argsort(-base[seeds], kind="stable")[:LEXICAL_POOL]]
    query_terms = lexical.terms(query_text)
    addressing = bool(listeners) and sessions is not None and focus_rows is not None and len(focus_rows) > 0
    pool_texts = texts(pool.tolist()) if len(pool) and (query_terms or addressing) else []
    if addressing and sessions is not None and focus_rows is not None:
        gains = [bonus + name_weight(len(focus_rows), len(base), weights)] if alone else [
            w if (w := name_weight(len(rows), len(base), weights)) >= MIN_NAME_WEIGHT else 0.0 for rows in named]
        base[pool] -= addressed(pool, pool_texts, named, listeners, sessions, gains, 0.0 if alone else bonus)
    if query_terms and len(pool):
        lex = np.asarray(lexical.bm25(query_terms, [lexical.terms(text) for text in pool_texts]))
        if lex.max(initial=0.0) > 0:
            base[pool] += weights.lexical * lex / lex.max()
    return base, seeds


def addressed(
    pool: np.ndarray, texts: Sequence[str], named: Sequence[np.ndarray], listeners: Sequence[Listener],
    sessions: np.ndarray, gains: Sequence[float], bonus: float,
) -> np.ndarray:
    """Per row of `pool`, what naming the question's people gave it and should not have:
    each person's gain (`gains`, as `named`) for a turn said by someone else that names
    them only to address them ("Thanks, Fred!", core/language/address.py) in a session they
    speak in — a reply said to them, not about them (what they did is in their own turns) —
    and the shared `bonus` when that holds for every person the turn names."""
    out = np.zeros(len(pool), dtype=np.float64)
    for at, (row, text) in enumerate(zip(pool.tolist(), texts)):
        about = said_to = 0
        for rows, listener, gain in zip(named, listeners, gains):
            if not _has(rows, row):
                continue
            if not _has(listener.spoken, row) and _speaks_in(listener.spoken, sessions, row) \
                    and only_addressed(text, listener.forms):
                out[at] += gain
                said_to += 1
            else:
                about += 1
        if said_to and not about:
            out[at] += bonus
    return out


def _has(sorted_rows: np.ndarray, row: int) -> bool:
    at = int(np.searchsorted(sorted_rows, row))
    return at < len(sorted_rows) and int(sorted_rows[at]) == row


def _speaks_in(spoken: np.ndarray, sessions: np.ndarray, row: int) -> bool:
    """Whether one of these rows (sorted) is in `row`'s session: a session's turns are
    consecutive rows, so the nearest said turn on either side tells."""
    at = int(np.searchsorted(spoken, row))
    return any(0 <= i < len(spoken) and sessions[int(spoken[i])] == sessions[row] for i in (at - 1, at))


def _best(base: np.ndarray, wanted: int, sparse: bool, scored: np.ndarray | None = None) -> np.ndarray:
    """The best `wanted` finite rows of `base`, unordered (`scored`: those finite rows, if known)."""
    wanted = min(len(base), max(wanted, 1))
    if sparse:  # only the scored rows can be seeds: partition those, not every row
        scored = np.flatnonzero(np.isfinite(base)) if scored is None else scored
        return scored[np.argpartition(-base[scored], wanted - 1)[:wanted]] if len(scored) > wanted else scored
    seeds = np.argpartition(-base, wanted - 1)[:wanted]
    return seeds[np.isfinite(base[seeds])]


def session_prior(
    base: np.ndarray, sessions: np.ndarray, pool: np.ndarray, weight: float, sparse: bool, scored: np.ndarray | None = None
) -> None:
    """Each scored row gains `weight` × its session's score (in place): the mean of that
    session's SESSION_BEST best rows among `pool`, the best rows overall. A session holding
    several good turns is about the question, and the evidence of one question clusters in
    the sessions about it (passage retrieval scoring a passage with its document)."""
    if weight <= 0 or not len(pool):
        return
    best: dict[int, list[float]] = {}
    for row in pool[np.argsort(-base[pool], kind="stable")].tolist():
        best.setdefault(int(sessions[row]), []).append(float(base[row]))
    keys = np.fromiter(best, dtype=sessions.dtype, count=len(best))
    values = np.asarray([sum(v[:SESSION_BEST]) / len(v[:SESSION_BEST]) for v in best.values()])
    rows = (np.flatnonzero(np.isfinite(base)) if scored is None else scored) if sparse else np.arange(len(base))
    order = np.argsort(keys)
    at = np.clip(np.searchsorted(keys[order], sessions[rows]), 0, len(keys) - 1)
    hit = keys[order][at] == sessions[rows]
    rows, at = rows[hit], at[hit]
    base[rows] += weight * values[order][at]


def backfill(
    turns: TurnIndex,
    query: np.ndarray,
    query_text: str,
    focus_rows: np.ndarray,
    room: int,
    taken: Collection[int],
    allowed: np.ndarray | None = None,
    lend: bool = True,
    in_period: np.ndarray | None = None,
    weights: Weights = WEIGHTS,
    named: Sequence[np.ndarray] = (),
    listeners: Sequence[Listener] = (),
) -> list[tuple[int, float, int]]:
    """The best `room` turns not yet taken, best first: (row, score, row its score came from).

    Only the top turns by their own score can lend a neighbour a score (a lent score is a
    fraction of the lender's), so ranking those and their neighbours ranks every turn; one
    matrix product is the only pass over all of them. A turn of the pool that mostly asks
    (`asks`) matches a question by its form, not by what it tells: its reply (the next turn,
    by someone else) inherits its whole score, and it keeps a neighbour's share of it.
    `lend=False` ranks turns by their
    own words only, without a neighbour's or their session's score (a search result must
    match by itself). `named`: each entity's rows among `focus_rows`; `listeners`: those
    entities as parties to the conversation (`hybrid_scores`).
    """
    if room <= 0 or not len(turns.ids):
        return []
    wanted = max(LEXICAL_POOL, room + len(taken))
    extra = [r for r in (focus_rows, None if in_period is None else np.flatnonzero(in_period)) if r is not None]
    # a large store scores only its candidates: their rows, known here, spare three passes over every row
    cosines, scored = turns.scored_cosines(query, wanted, extra, allowed)
    read: dict[int, str] = {}  # the pool's texts, as BM25 read them

    def texts(rows: list[int]) -> list[str]:
        got = turns.texts(rows)
        read.update(zip(rows, got))
        return got

    base, seeds = hybrid_scores(
        cosines, query_text, texts, wanted, focus_rows, allowed, in_period, turns.approximate, weights, named,
        listeners, turns.sessions, scored,
    )
    if lend and weights.session > 0:
        pool = seeds[np.argsort(-base[seeds], kind="stable")[:LEXICAL_POOL]]
        session_prior(base, turns.sessions, pool, weights.session, turns.approximate, scored)
        seeds = _best(base, wanted, turns.approximate, scored)
    asking = _asking(turns, base, seeds, read) if lend else {}
    for row in asking:
        base[row] *= weights.neighbour_share  # ranked as if lent by its reply, not by its own words
    best: dict[int, tuple[float, int]] = {}
    for seed in seeds.tolist():
        best[seed] = max(best.get(seed, (-np.inf, seed)), (float(base[seed]), seed))
        for other in _neighbours(turns, seed) if lend else ():
            if allowed is not None and not allowed[other]:
                continue
            own = asking.get(seed, float(base[seed]))
            lent = (own if other == seed + 1 and seed in asking else weights.neighbour_share * own, seed)
            best[other] = max(best.get(other, (float(base[other]), other)), lent)
    ranked = sorted((r for r in best if r not in taken), key=lambda r: (-best[r][0], r))[:room]
    return [(r, best[r][0], best[r][1]) for r in ranked]




def _asking(turns: TurnIndex, base: np.ndarray, seeds: np.ndarray, read: dict[int, str]) -> dict[int, float]:
    """The turns of the BM25 pool that mostly ask, with their scores: the texts BM25 read,
    or the pool's best LEXICAL_POOL rows' when it read none (a question of names only)."""
    if not read and len(seeds):
        pool = seeds[np.argsort(-base[seeds], kind="stable")[:LEXICAL_POOL]].tolist()
        read = dict(zip(pool, turns.texts(pool)))
    return {row: float(base[row]) for row, text in read.items() if np.isfinite(base[row]) and asks(text)}


def rows_about(turns: TurnIndex, people: Sequence[tuple[str, tuple[str, ...]]], entity_ids: Sequence[int]) -> np.ndarray:
    """Rows of the turns spoken by one of `people` (name, aliases) or naming one of `entity_ids`."""
    if not people or not len(turns.ids):
        return np.zeros(0, dtype=np.int64)
    codes = [code for code, speaker in enumerate(turns.speakers) if match_registry(speaker, people) is not None]
    return _spoken_or_named(turns, _spoken(turns, codes), [turns.mentions[e] for e in entity_ids if e in turns.mentions])


def people_rows(
    turns: TurnIndex, people: Sequence[tuple[str, tuple[str, ...], int | None]]
) -> tuple[np.ndarray, tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """The rows about the question's people (`rows_about` them all: the focus), each
    person's own rows (their name's weight) and each person's rows of the turns they said
    (what `Listener` needs), from one match of the speakers. A speaker is matched against
    all of them at once, as the focus is: "Rob" is neither "Robert Lane" nor "Robert Moss"
    when both are named (a nickname must fit one registered name only), where matched
    against each alone he was both."""
    empty = np.zeros(0, dtype=np.int64)
    if not people or not len(turns.ids):
        return empty, tuple(empty for _ in people), tuple(empty for _ in people)
    registry = [(name, aliases) for name, aliases, _ in people]
    whose = {name: i for i, (name, _, _) in enumerate(people)}  # names are distinct
    codes: list[list[int]] = [[] for _ in people]
    for code, speaker in enumerate(turns.speakers):
        match = match_registry(speaker, registry)
        if match is not None:
            codes[whose[match]].append(code)
    spoken = tuple(_spoken(turns, own) for own in codes)
    each = tuple(_spoken_or_named(turns, said, [turns.mentions[e]] if e is not None and e in turns.mentions else [])
                 for (_, _, e), said in zip(people, spoken))
    return _spoken_or_named(turns, empty, each), each, spoken


def _spoken(turns: TurnIndex, codes: Sequence[int]) -> np.ndarray:
    """Rows of the turns spoken by one of these speaker codes, sorted."""
    if not codes:
        return np.zeros(0, dtype=np.int64)
    said = np.zeros(len(turns.speakers), dtype=bool)
    said[list(codes)] = True  # a lookup per row, not np.isin's sort of a million codes
    return np.flatnonzero(said[turns.speaker_codes])


def _spoken_or_named(turns: TurnIndex, said: np.ndarray, named: Sequence[np.ndarray]) -> np.ndarray:
    """Rows in `said` (the turns someone spoke) or in `named` (row arrays), each once, sorted."""
    return _union([rows for rows in (said, *named) if len(rows)], len(turns.ids))


def _union(parts: Sequence[np.ndarray], n: int) -> np.ndarray:
    """The sorted distinct rows of these arrays (each sorted and distinct; np.unique's result).
    Many rows (a speaker's every turn) are marked in a mask: np.unique hashes them, ~0.5 s
    CPU for a million."""
    if len(parts) <= 1:
        return parts[0] if parts else np.zeros(0, dtype=np.int64)
    if sum(len(p) for p in parts) > n // 64:
        keep = np.zeros(n, dtype=bool)
        for rows in parts:
            keep[rows] = True
        return np.flatnonzero(keep)
    return distinct(np.concatenate(parts))
