"""`hero`, seed 002 without an LLM: a graph of raw turns and the cues they carry, cue
expansion gated by the question, then Personalized PageRank seeded from the question's cues.

Cues (core/store/cues.py): a turn's speaker and content-word stems, and the entities the
write path found in it (the `mentions` table). The question's cues are its content words
and the people it names (a person is one node: the turns they speak and the turns naming
them). Each seed weighs its inverse document frequency (BM25's, always positive), so a word
said in three turns pulls harder than one said in three hundred.

Expansion (one round of the seed's cue–context–cue walk): the cues that co-occur with the
seeds in at least CO_MIN of their best contexts (the turns the first step of the walk
activates most) are kept only when closer to the question than the store as a whole:
cos(cue, q) > cos(store, q), a cue's vector the normalised mean of its turns' stored
embeddings, the store's the mean of every turn's. The bar is the data's own null model,
not a constant tuned to a conversation: a cue whose turns are no more about the question
than an average turn would only spread the walk (a speaker of half the turns sits at the
bar; a mean of few turns scores lower than the mean of all on average, so small random
cues fall below it too). A kept cue weighs what two steps of the walk from the seeds give
it (seed -> its turn -> each cue of that turn) times its cosine: the seed's activation
transfer, W(c) = W(c') · sim, with the walk's own shares instead of a constant.

Personalized PageRank over those cues' turns alone (fetched by SQL, so a large store never
loads its whole cue table) plus the seed's temporal chaining (each such turn linked to the
turns before and after it in its session: answers follow questions), restarting on the
cues by weight, damping 0.85 (Page et al.'s constant), until the L1 change is below
TOLERANCE. Turns rank by PPR mass, ties by cosine, then every other turn by cosine (dense
backfill), so the ranking does not depend on the budget. The seed also restarts on turns
by their cosine (its α·sim term): measured, that helped LoCoMo 26 and hurt 30, so the
restart stays on the question's cues.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import duckdb
import numpy as np
import pyarrow as pa

from memhop.core.errors import StoreError
from memhop.core.language import lexical
from memhop.core.language.names import name_key
from memhop.core.retrievers.base import Query, Ranking, pick, ranked_rows, same_session_neighbours
from memhop.core.store import cues as cue_table

DAMPING = 0.85  # PageRank's published damping factor
TOLERANCE = 1e-6  # PPR stops when the L1 change of an iteration is below this...
MAX_ITERATIONS = 100  # ...or after this many (0.85^100 leaves nothing to propagate)
CO_MIN = 2  # a co-occurring cue shares at least this many contexts with the seeds (one is chance)
MAX_CONTEXTS = 500  # the seeds' turns, most activated first, that expansion starts from (bounds SQL on a large store)
EPSILON = 1e-6  # float noise: a cue of every turn computes its mean apart from the store's, but it is the same
SHOWN = 5  # cues listed per line of the trace

Cue = tuple[str, str]  # (kind, key): ("word", stem), ("person", name), ("speaker", key), ("entity", id)


@dataclass
class CueGraph:
    """Cue nodes with their weights, and their edges to turn rows."""

    weights: dict[Cue, float] = field(default_factory=dict)
    postings: dict[Cue, np.ndarray] = field(default_factory=dict)  # cue -> turn rows, sorted
    named: set[Cue] = field(default_factory=set)  # the speaker and entity cues a ("person", name) seed stands for


_BY_CUES = (
    f"SELECT c.kind, c.cue, c.turn_id FROM {cue_table.TABLE} c JOIN memhop_hero_cues w ON c.kind = w.kind AND c.cue = w.cue "
    "UNION ALL SELECT 'entity', CAST(m.entity_id AS VARCHAR), m.turn_id FROM mentions m "
    "JOIN memhop_hero_cues w ON w.kind = 'entity' AND CAST(m.entity_id AS VARCHAR) = w.cue"
)
_BY_TURNS = (
    f"SELECT c.kind, c.cue, c.turn_id FROM {cue_table.TABLE} c JOIN memhop_hero_turns t ON c.turn_id = t.id "
    "UNION ALL SELECT 'entity', CAST(m.entity_id AS VARCHAR), m.turn_id FROM mentions m "
    "JOIN memhop_hero_turns t ON m.turn_id = t.id"
)  # joins with registered Arrow tables: binding a Python list costs DuckDB a lookup per element


def _fetch(query: Query, words: Sequence[str], speakers: Sequence[str], entities: Sequence[int],
           in_turns: np.ndarray | None = None) -> dict[Cue, np.ndarray]:
    """Postings of these cues (or, with `in_turns`, every cue of those turns), as turn rows."""
    con = query.con
    if con is None:
        raise StoreError("the hero retriever reads the store's cue table; it was given no store")
    if in_turns is not None:
        name, sql = "memhop_hero_turns", _BY_TURNS
        table = pa.table({"id": pa.array(query.snap.turns.ids[in_turns], pa.int64())})
    else:
        name, sql = "memhop_hero_cues", _BY_CUES
        pairs = [*(("word", w) for w in words), *(("speaker", k) for k in speakers), *(("entity", str(e)) for e in entities)]
        table = pa.table({"kind": pa.array([k for k, _ in pairs], pa.string()),
                          "cue": pa.array([c for _, c in pairs], pa.string())})
    con.register(name, table)
    try:
        found = con.execute(sql).arrow().read_all()
    except duckdb.CatalogException:  # no turn_cues table: a store opened read-only before migration 7
        raise StoreError("this store predates the cue table (schema 7); open it for writing once "
                         "(any `memhop ingest` does) to migrate it, then ask again") from None
    finally:
        con.unregister(name)
    if not found.num_rows:
        return {}
    rows, ok = query.snap.turns.lookup(found.column("turn_id").to_numpy().astype(np.int64))
    keys = [f"{k}\x00{c}" for k, c in zip(found.column("kind").to_pylist(), found.column("cue").to_pylist())]
    names, group = np.unique(np.asarray(keys, dtype=object)[ok], return_inverse=True)
    rows = rows[ok]
    order = np.lexsort((rows, group))
    starts = np.searchsorted(group[order], np.arange(len(names)))
    out: dict[Cue, np.ndarray] = {}
    for name, part in zip(names.tolist(), np.split(rows[order], starts[1:])):
        kind, cue = name.split("\x00", 1)
        out[(kind, cue)] = part  # sorted, and unique: each table's key holds a (cue, turn) pair once
    return out


def seed_cues(query: Query) -> tuple[CueGraph, list[str]]:
    """The question's cues that the store files turns under, and its words it files none under."""
    turns = query.snap.turns
    words = cue_table.word_cues(query.text)
    person_of: dict[Cue, str] = {}
    for person in query.people:
        for form in (person.name, *person.aliases):
            person_of[("speaker", name_key(form))] = person.name
        if person.entity_id is not None:
            person_of[("entity", str(person.entity_id))] = person.name
    fetched = _fetch(query, words, [k for kind, k in person_of if kind == "speaker"],
                     [int(k) for kind, k in person_of if kind == "entity"])
    graph = CueGraph(named=set(person_of))
    people: dict[str, list[np.ndarray]] = {}
    for cue, rows in fetched.items():
        if cue in person_of:
            people.setdefault(person_of[cue], []).append(rows)
        elif cue[0] == "word":
            graph.postings[cue] = rows
    for name, parts in people.items():
        graph.postings[("person", name)] = np.unique(np.concatenate(parts))
    n = len(turns.ids)
    for cue, rows in graph.postings.items():
        graph.weights[cue] = lexical.idf(len(rows), n)
    unfiled = [w for w in words if ("word", w) not in graph.postings]
    return graph, unfiled


@dataclass(frozen=True)
class Expansion:
    bar: float  # cos(neighbourhood, q): what a co-occurring cue must reach
    kept: list[tuple[Cue, float]]
    dropped: list[tuple[Cue, float]]


def _mean_cosines(query: Query, postings: Sequence[np.ndarray]) -> np.ndarray:
    """cos(normalised mean of each posting's turn vectors, q); every posting non-empty."""
    if not postings:
        return np.zeros(0, dtype=np.float32)
    flat = np.concatenate(postings)
    used, at = np.unique(flat, return_inverse=True)
    starts = np.r_[0, np.cumsum([len(p) for p in postings])[:-1]]
    sums = np.add.reduceat(query.snap.turns.vectors_of(used)[at], starts, axis=0)
    norms = np.linalg.norm(sums, axis=1)
    return np.where(norms > 0, (sums @ query.vector) / np.maximum(norms, 1e-12), 0.0)


def first_step(graph: CueGraph) -> tuple[np.ndarray, np.ndarray]:
    """The turns the seeds reach and the activation each gets in one step of the walk
    (Σ W(c) / deg(c) over its seed cues): a turn of a rare word outweighs one of a hub."""
    rows = np.concatenate(list(graph.postings.values()))
    share = np.concatenate([np.full(len(p), graph.weights[c] / len(p)) for c, p in graph.postings.items()])
    reached, at = np.unique(rows, return_inverse=True)
    return reached, np.bincount(at, weights=share, minlength=len(reached))


def expand(query: Query, graph: CueGraph) -> Expansion:
    """One round: cues of the seeds' best contexts, kept when closer to the question than
    the store as a whole (module docstring)."""
    reached, activation = first_step(graph)
    cosine = query.snap.turns.vectors_of(reached) @ query.vector
    bar = float(query.snap.turns.centroid @ query.vector)
    contexts = np.lexsort((reached, -cosine, -activation))  # most activated first, then closest, then row
    around = _fetch(query, [], [], [], in_turns=reached[contexts[:MAX_CONTEXTS]])
    candidates = [c for c, rows in around.items() if len(rows) >= CO_MIN and c not in graph.postings
                  and c not in graph.named]  # a person the question names is a seed already
    if not candidates:
        return Expansion(bar, [], [])
    words = [k for kind, k in candidates if kind == "word"]
    speakers = [k for kind, k in candidates if kind == "speaker"]
    entities = [int(k) for kind, k in candidates if kind == "entity"]
    postings = _fetch(query, words, speakers, entities)
    ordered = [c for c in candidates if c in postings]
    sims = _mean_cosines(query, [postings[c] for c in ordered])
    # Two steps of the walk from the seeds: seed -> context turn -> each of that turn's cues.
    per_turn = np.bincount(np.searchsorted(reached, np.concatenate(list(around.values()))), minlength=len(reached))
    kept, dropped = [], []
    for cue, sim in sorted(zip(ordered, sims.tolist()), key=lambda x: (-x[1], x[0])):
        if sim > bar + EPSILON and sim > 0:
            kept.append((cue, sim))
            graph.postings[cue] = postings[cue]
            here = np.searchsorted(reached, around[cue])
            graph.weights[cue] = float((activation[here] / per_turn[here]).sum()) * sim
        else:
            dropped.append((cue, sim))
    return Expansion(bar, kept, dropped)


@dataclass(frozen=True)
class Walk:
    rows: np.ndarray  # the graph's turn rows
    mass: np.ndarray  # their PPR mass
    cosine: np.ndarray  # their cosine to the question
    iterations: int
    edges: int  # turn-cue edges
    chained: int  # chronological links


def _chain(query: Query, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Temporal chaining (the seed's third edge type): each of `rows` linked to the turn
    before and after it in its session, inside the time window, as (earlier, later) rows."""
    turns, allowed = query.snap.turns, query.allowed
    has_prev, has_next = same_session_neighbours(turns.sessions)
    pairs = np.concatenate([np.stack([rows[has_prev[rows]] - 1, rows[has_prev[rows]]], axis=1),
                            np.stack([rows[has_next[rows]], rows[has_next[rows]] + 1], axis=1)])
    if allowed is not None:
        pairs = pairs[allowed[pairs[:, 0]] & allowed[pairs[:, 1]]]
    pairs = np.unique(pairs, axis=0) if len(pairs) else pairs.reshape(0, 2)
    return pairs[:, 0], pairs[:, 1]


def personalized_pagerank(query: Query, graph: CueGraph) -> Walk:
    """PPR over `graph`'s cues, their turns inside the time window, and those turns'
    chronological neighbours, restarting on the cues by weight: a = (1 - d)·r + d·a·P."""
    allowed = query.allowed
    cues: list[Cue] = []
    edge_cue: list[np.ndarray] = []
    edge_row: list[np.ndarray] = []
    for cue, rows in graph.postings.items():
        inside = rows if allowed is None else rows[allowed[rows]]
        if len(inside) and graph.weights.get(cue, 0) > 0:
            edge_cue.append(np.full(len(inside), len(cues)))
            edge_row.append(inside)
            cues.append(cue)
    if not cues:
        return Walk(np.zeros(0, np.int64), np.zeros(0), np.zeros(0), 0, 0, 0)
    ec, er = np.concatenate(edge_cue), np.concatenate(edge_row)
    earlier, later = _chain(query, np.unique(er))
    rows = np.unique(np.concatenate([er, earlier, later]))
    et = np.searchsorted(rows, er)
    src = np.searchsorted(rows, np.concatenate([earlier, later]))  # each chain edge both ways
    dst = np.searchsorted(rows, np.concatenate([later, earlier]))
    n_cues, n_turns = len(cues), len(rows)
    restart = np.asarray([graph.weights[c] for c in cues], dtype=np.float64)
    restart /= restart.sum()
    deg_c = np.bincount(ec, minlength=n_cues).astype(np.float64)
    deg_t = (np.bincount(et, minlength=n_turns) + np.bincount(src, minlength=n_turns)).astype(np.float64)
    a_c: np.ndarray = restart.copy()
    a_t: np.ndarray = np.zeros(n_turns)
    iterations = 0
    while iterations < MAX_ITERATIONS:
        iterations += 1
        to_t = (np.bincount(et, weights=a_c[ec] / deg_c[ec], minlength=n_turns)
                + np.bincount(dst, weights=a_t[src] / deg_t[src], minlength=n_turns))
        to_c = np.bincount(ec, weights=a_t[et] / deg_t[et], minlength=n_cues)
        new_c, new_t = (1 - DAMPING) * restart + DAMPING * to_c, DAMPING * to_t
        change = float(np.abs(new_c - a_c).sum() + np.abs(new_t - a_t).sum())
        a_c, a_t = new_c, new_t
        if change < TOLERANCE:
            break
    cosine = query.snap.turns.vectors_of(rows) @ query.vector
    return Walk(rows, a_t, cosine, iterations, len(ec), len(earlier))


def _label(cue: Cue, query: Query) -> str:
    kind, key = cue
    if kind == "entity":
        profiles = query.snap.profiles
        return profiles.names[profiles.entity_ids.index(int(key))] if int(key) in profiles.entity_ids else f"entity {key}"
    return key


def _listed(items: Sequence[tuple[Cue, float]], query: Query) -> str:
    shown = ", ".join(f"{_label(c, query)} {s:.2f}" for c, s in items[:SHOWN])
    return shown + (f" (+{len(items) - SHOWN} more)" if len(items) > SHOWN else "") if items else "none"


class HeroRetriever:
    name = "hero"

    def retrieve(self, query: Query, budget: int) -> Ranking:
        turns = query.snap.turns
        ranking = Ranking(self.name)
        n = len(turns.ids)
        if budget <= 0 or not n:
            return ranking
        graph, unfiled = seed_cues(query)
        seeds = dict(graph.weights)
        expansion = Expansion(0.0, [], [])
        if graph.postings:
            expansion = expand(query, graph)
        walk = personalized_pagerank(query, graph)
        order = np.lexsort((walk.rows, -walk.cosine, -walk.mass))
        top = walk.rows[order][:budget]
        scores = np.full(n, -np.inf, dtype=np.float32)
        if len(top) < budget:
            scores = turns.cosines(query.vector, budget, [walk.rows], query.allowed).astype(np.float32)
            scores[walk.rows] = -np.inf
        inside = np.isfinite(scores) if query.allowed is None else np.isfinite(scores) & query.allowed
        fill = ranked_rows(scores, np.flatnonzero(inside), budget - len(top))
        ranking.turns = [pick(query, int(r), "cue graph (PPR)", float(m))
                         for r, m in zip(top.tolist(), walk.mass[order][: len(top)].tolist())]
        ranking.turns += [pick(query, int(r), "dense backfill", float(scores[r])) for r in fill.tolist()]
        seeded = sorted(seeds.items(), key=lambda x: (-x[1], x[0]))
        ranking.stages = [
            f"seed cues (idf): {_listed(seeded, query)}"
            + (f"; not in any turn: {', '.join(unfiled)}" if unfiled else ""),
            f"cue expansion (kept when cos > {expansion.bar:.2f}, the whole store's): kept "
            f"{len(expansion.kept)}: {_listed(expansion.kept, query)}; dropped {len(expansion.dropped)}: "
            f"{_listed(expansion.dropped, query)}",
            f"personalized PageRank (d={DAMPING}): {walk.iterations} iterations over {len(graph.postings)} cues, "
            f"{len(walk.rows)} turns, {walk.edges} turn-cue edges, {walk.chained} chronological links",
            f"ranked by PPR: {len(top)}; dense backfill: {len(fill)}",
        ]
        return ranking
