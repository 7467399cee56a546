"""The read path of ProGraph (seed 000 §3.2) plus memhop's raw-turn layer.

(1) cosine of the question to every profile, a name boost for entities the question
names (the `self` entity for "I"/"my"), top M; (2) relevance-gated expansion over the
registered names found in the selected profiles; (3) per entity its own top verified
facts; then raw evidence turns (core/evidence.py) and one answer call.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

import numpy as np

from memhop.core import retrievers
from memhop.core.config import ReadSettings
from memhop.core.embed import Embedder
from memhop.core.evidence import Evidence, FactSource, Listener, evidence_of, people_rows
from memhop.core.expansion import expand, walk_chain
from memhop.core.groups import asked_group
from memhop.core.language.names import NameMatch, find_names
from memhop.core.language.periods import stated_period
from memhop.core.language.question import parse as parse_question
from memhop.core.model import AnswerRequest, EntitySlice, GroupView, Reply, TurnView
from memhop.core.retrievers.base import Person, Query
from memhop.core.route import classify
from memhop.core.store import Store
from memhop.core.store.recall import ProfileIndex, ResidualIndex, Snapshot, TurnIndex, cites_from_snapshot, snapshot
from memhop.core.support import Support, find_support
from memhop.core.trace import EntityFacts, EvidencePick, FactScore, ProfileScore, Trace
from memhop.core.window import Window

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

FIRST_PERSON = re.compile(r"(?<![\w'])(i|me|my|mine|myself)(?![\w'])", re.IGNORECASE)
FIRST_PLURAL = re.compile(r"(?<![\w'])(we|us|our|ours|ourselves)(?![\w'])", re.IGNORECASE)
STAGE1_SHOWN_EXTRA = 3  # profiles listed in the trace beyond the selected ones
CUT_SHOWN = 3  # facts listed in the trace beyond the per-entity cap
_EMBEDDING: tuple[int, ThreadPoolExecutor] | None = None  # (pid, pool), made on first use: no thread at import


@dataclass(frozen=True)
class Selected:
    entity_id: int
    name: str
    kind: str
    profile: str
    facts: tuple[str, ...]
    sources: tuple[FactSource, ...] = ()  # per fact, in the same order: its id, score and source turns
    aliases: tuple[str, ...] = ()  # other names the text gives it ("Tina" for Bettina)


@dataclass(frozen=True)
class Context:
    question: str
    selected: tuple[Selected, ...]
    evidence: tuple[Evidence, ...]
    chain: tuple[str, ...]
    trace: Trace
    group: GroupView | None = None  # the chat group the question is about (core/groups.py)

    def request(self) -> AnswerRequest:
        return AnswerRequest(
            question=self.question,
            slices=tuple(EntitySlice(s.name, s.profile, s.facts, s.kind, s.aliases) for s in self.selected),
            evidence=tuple(
                TurnView(e.turn.id, e.turn.speaker, e.turn.text, e.turn.timestamp, e.turn.external_id, e.turn.session_id)
                for e in self.evidence
            ),
            chain=self.chain,
            asker=self.trace.asker,
            budget=self.trace.settings.get("evidence"),
            group=self.group,
        )


@dataclass(frozen=True)
class Answer:
    context: Context
    text: str
    support: Support

    @property
    def answered(self) -> bool:
        """False for "I don't know"."""
        return self.support.answered

    def to_dict(self) -> dict[str, Any]:
        """The `--json` shape: exactly these keys."""
        ctx = self.context
        return {
            "question": ctx.question,
            "answer": self.text,
            "answered": self.answered,
            "support": self.support.to_list(),
            "selected": [s.name for s in ctx.selected],
            "facts": {s.name: list(s.facts) for s in ctx.selected},
            "evidence": [
                {
                    "turn_id": e.turn.id,
                    "external_id": e.turn.external_id,
                    "session": e.turn.session,
                    "speaker": e.turn.speaker,
                    "timestamp": e.turn.timestamp.isoformat() if e.turn.timestamp else None,
                    "text": e.turn.text,
                }
                for e in ctx.evidence
            ],
            "trace": ctx.trace.to_dict(),
        }


def ask(
    store: Store,
    question: str,
    embedder: Embedder,
    options: ReadSettings,
    answer: Callable[[AnswerRequest], str | Reply],
    window: Window | None = None,
) -> Answer:
    """Read, then answer, then find the answer's support (the sentence the engine says it
    read the answer from first); an empty store or an unsupported question gets "I don't
    know" and the closest memories."""
    context = read(store, question, embedder, options, window)
    started = time.perf_counter()
    reply = Reply.of(answer(context.request()))
    context.trace.timings_ms["answer"] = _ms(started)
    started = time.perf_counter()
    support = find_support(store, context, reply.text, reply.read_from)
    context.trace.answer, context.trace.answer_from = reply.text, support.source
    context.trace.timings_ms["support"] = _ms(started)
    return Answer(context, reply.text, support)


def read(
    store: Store, question: str, embedder: Embedder, options: ReadSettings, window: Window | None = None
) -> Context:
    """Stages 1–3 and the raw evidence for one question, with the trace of every decision;
    with a `window`, only facts and turns from that time (a fact by its source turns)."""
    query, chosen, trace = _prepare(store, question, embedder, options, window)
    clock = time.perf_counter()
    ranking = retrievers.get(options.retriever).retrieve(query, options.evidence)
    if query.snap.turns.approximate:  # the evidence, and the facts' turns the citations read from it: fetched together
        cites = cites_from_snapshot(store) is query.snap
        cited = [t for s in chosen for source in s.sources for t in source.cited_turns] if cites else []
        query.snap.turns.prefetch([*ranking.rows, *query.snap.turns.rows_of(cited).tolist()], paths=cites)
    evidence = evidence_of(query.snap.turns, ranking.rows, [t.pick for t in ranking.turns])
    group = asked_group(store, query.snap, query.question)
    if group is not None:
        evidence += _group_record(query.snap.turns, group, evidence)
    trace.evidence = [e.pick for e in evidence]
    trace.retriever, trace.retrieval = ranking.retriever, ranking.stages
    trace.timings_ms["evidence"] += _ms(clock)
    return Context(query.question, tuple(chosen), tuple(evidence), tuple(trace.chain), trace, group)


def _group_record(turns: TurnIndex, group: GroupView, evidence: Sequence[Evidence]) -> list[Evidence]:
    """The naming record the group's name is read from, when retrieval left it out: an
    answer read from it must be shown and cited."""
    shown = {e.turn.id for e in evidence}
    wanted = [t for t in (group.named_by,) if t is not None and t not in shown]
    rows, found = turns.lookup(wanted)
    picks = [EvidencePick(t, None, "group name", None, 1.0) for t, ok in zip(wanted, found) if ok]
    return evidence_of(turns, rows[found].tolist(), picks)


def evidence_query(
    store: Store, question: str, embedder: Embedder, options: ReadSettings, window: Window | None = None
) -> Query:
    """What a retriever is given for this question (stages 1–3 run): the benchmark ranks
    the same query many ways without embedding it again."""
    return _prepare(store, question, embedder, options, window)[0]


def _prepare(
    store: Store, question: str, embedder: Embedder, options: ReadSettings, window: Window | None
) -> tuple[Query, list[Selected], Trace]:
    store.check_embedder(embedder)
    question = " ".join(question.split())
    clock = time.perf_counter()
    snap = snapshot(store)
    timings = {"load": _ms(clock)}
    named = _named(question, snap)
    route = classify(question)
    query_text = route.unframed(_strip_names(question, named)) or question
    # The question is embedded on a worker thread (ONNX Runtime releases the GIL) while this
    # one does what needs no vector: anchors, the question's parse, the people's rows.
    embedding = _in_background(embedder, [question] if query_text == question else [question, query_text])
    clock = time.perf_counter()
    profiles = snap.profiles
    anchors = _anchors(question, named, profiles)
    parsed = parse_question(question, [profiles.names[r] for r in anchors])
    relations = parsed.relations
    people = _people([m.entity for m in named], [profiles.entity_ids[r] for r in anchors], profiles)
    # Every anchor is one of the people (with its entity id): their rows, all together, are the focus.
    focus, each, spoken = people_rows(snap.turns, [(p.name, p.aliases, p.entity_id) for p in people])
    listeners = tuple(Listener((p.name, *p.aliases), said) for p, said in zip(people, spoken))
    # only a person's list pays an embedding of its category, on the same worker, after the question's
    category = _in_background(embedder, [route.category]) if route.category and len(focus) else None
    alone = _ms(clock)
    clock = time.perf_counter()
    vectors = embedding.result()
    full, stripped = vectors[0], vectors[-1]
    timings["embed"] = _ms(clock)  # the wait for the vectors, past what overlapped it
    trace = Trace(question=question, query=query_text, settings=asdict(options), timings_ms=timings, route=route)

    clock = time.perf_counter()
    cosines = profiles.matrix @ full if len(profiles.names) else np.zeros(0, dtype=np.float32)
    trace.anchors = [profiles.names[r] for r in anchors]
    trace.asker = next((profiles.names[r] for r, said in anchors.items() if FIRST_PERSON.fullmatch(said)), None)
    if trace.asker is None and FIRST_PLURAL.search(question) and "self" in profiles.kinds:
        trace.asker = profiles.names[profiles.kinds.index("self")]  # "did we ...": the writer is one of us (no anchor)
    selection = _stage1(cosines, anchors, profiles, options, trace)
    timings["stage1"] = _ms(clock)

    clock = time.perf_counter()
    edges = expand(cosines, selection, snap, options, trace)
    walk_chain(_chain_start(anchors, parsed.owner, relations), relations, selection, edges, snap, trace, join=options.expand)
    timings["stage2"] = _ms(clock)

    clock = time.perf_counter()
    facts_query = _unit(full + stripped)
    allowed = window.mask(snap.turns.timestamps) if window else None
    chosen: list[Selected] = []
    sources: list[FactSource] = []
    own = snap.residuals.spans([profiles.entity_ids[r] for r in selection], lazy=True) if options.residuals else {}
    ranked = {e: _ranked(facts, facts_query) for e, facts in own.items()}
    end = _chain_end(question, parsed.owner, relations, trace.chain, profiles)
    if end is not None and end[0] in own:  # "what does Kez's sister do?" read as "what does Tamsin do?"
        ranked[end[0]] = _ranked(own[end[0]], _unit(_in_background(embedder, [end[1]]).result()[0]))
    if allowed is None:  # the facts shown are read together (a window reads every fact's source turns)
        shown = max(options.facts_per_entity, 0) + CUT_SHOWN
        snap.residuals.prefetch([int(i) for e, facts in own.items() for i in facts.ids[ranked[e][1][:shown]]])
    for row in selection:
        facts, row_sources = _facts(row, own, ranked, facts_query, snap, options, trace, allowed)
        chosen.append(
            Selected(
                profiles.entity_ids[row], profiles.names[row], profiles.kinds[row], profiles.texts[row], facts,
                tuple(row_sources), _answer_aliases(profiles.kinds[row], profiles.aliases[row]),
            )
        )
        sources.extend(f for f in row_sources if f.score > options.gate)  # only relevant facts bring turns
    timings["stage3"] = _ms(clock)

    clock = time.perf_counter()
    in_period = _in_period(question, snap, trace)
    query = Query(question, stripped, query_text, snap, people, focus, tuple(sources), allowed, in_period,
                  store.con, each, listeners, None if category is None else _unit(category.result()[0]))
    timings["evidence"] = round(_ms(clock) + alone, 2)  # the people's rows were found before the embedding
    return query, chosen, trace


def _in_background(embedder: Embedder, texts: list[str]) -> Future[np.ndarray]:
    """`embedder.embed(texts)` running on the read path's one worker thread. A forked child
    (multiprocessing's fork, celery prefork, gunicorn --preload) inherits the parent's pool
    but not its thread, and would wait forever on it: each process makes its own pool."""
    global _EMBEDDING
    if _EMBEDDING is None or _EMBEDDING[0] != os.getpid():
        from concurrent.futures import ThreadPoolExecutor  # not at import: it imports logging

        _EMBEDDING = (os.getpid(), ThreadPoolExecutor(max_workers=1, thread_name_prefix="memhop-embed"))
    return _EMBEDDING[1].submit(embedder.embed, texts)


def _in_period(question: str, snap: Snapshot, trace: Trace) -> np.ndarray | None:
    """The turns said in the period the question names outright ("in May 2024", "between
    March and May 2023", "since April 2024" up to today), if any; the trace shows the period."""
    stated = stated_period(question, date.today())
    if stated is None:
        return None
    trace.period = f"{stated.label} ({stated.words})"
    return Window(stated.first, stated.last).mask(snap.turns.timestamps)


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 2)


def _unit(vector: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm else vector


def _named(question: str, snap: Snapshot) -> list[NameMatch]:
    """Registered entities and raw-turn speakers the question names, in question order."""
    likely = [*snap.names.candidates(question), *snap.speakers.candidates(question)]
    found = find_names(question, likely) if likely else []
    return [m for m in found if not _lowered(m, question)] if _capitalises_names(question) else found


def _capitalises_names(question: str) -> bool:
    """Whether the asker writes names with a capital: a capitalised word past the first
    (not "I"). Then a name written in lower case is the ordinary word ("what is Dana's
    identity?" does not ask about a painting called "Identity"); in a question typed all in
    lower case every word may be a name."""
    words = re.findall(r"[^\W\d_]+", question)
    return any(w[0].isupper() and w != "I" for w in words[1:])


def _lowered(match: NameMatch, question: str) -> bool:
    """A match written all in lower case of a name that has capitals."""
    return match.text == match.text.lower() and match.entity != match.entity.lower()


def _strip_names(question: str, named: Sequence[NameMatch]) -> str:
    out = question
    for match in sorted(named, key=lambda m: -m.start):
        end = match.end + (2 if out[match.end : match.end + 2] in ("'s", "’s") else 0)
        out = out[: match.start] + out[end:]
    return " ".join(out.split())


def _answer_aliases(kind: str, aliases: Sequence[str]) -> tuple[str, ...]:
    """A person's or pet's other names, for the answerer to read as them ("Tina" for Bettina). A
    place's or group's are left out: ingest can take a person's name for a short form of one
    ("Wes" of Weston Road), and a sentence with Wes in it would become one about the road."""
    return tuple(aliases) if kind in ("person", "self", "pet") else ()


def _chain_end(
    question: str, owner: str | None, relations: Sequence[str], chain: Sequence[str], profiles: ProfileIndex
) -> tuple[int, str] | None:
    """The chain's last entity and the question asked of it by its first name, its facts' own
    ranking: "what does Kez's sister do for work?" walked to Tamsin Obi is "what does Tamsin do
    for work?" ("my colleague's band", walked to the colleague only, "Ossian's band").
    The relation words would rank the facts that name the relation ("her sister Tamsin as maid
    of honour") above what is asked (MiniLM weighs a name heavily: with no name at all, "what
    does do for work?" is as near to any of her facts as to "Tamsin is a midwife")."""
    if not owner or not relations or len(chain) < 2 or chain[-1] not in profiles.names:
        return None
    found = re.search(rf"\b{re.escape(owner)}\b", question, re.I)
    if found is None:
        return None
    start = at = found.start()
    for relation in relations[: len(chain) - 1]:  # each relation walked, after the owner ("my sister's husband")
        word = re.compile(rf"\b{re.escape(relation)}s?\b", re.I).search(question, at)
        if word is None:
            return None
        at = word.end()
    possessive = re.match(r"['’]s\b", question[at:])
    name = chain[-1].split()[0] + ("'s" if possessive else "")
    at += possessive.end() if possessive else 0
    return profiles.entity_ids[profiles.names.index(chain[-1])], question[:start] + name + question[at:]


def _anchors(question: str, named: Sequence[NameMatch], profiles: ProfileIndex) -> dict[int, str]:
    """Profile rows the question starts from, in question order, with the words that name
    them: the entities it names, and `self` where it says "I" or "my"."""
    found: list[tuple[int, int, str]] = []
    for match in named:
        if match.entity in profiles.names:
            found.append((match.start, profiles.names.index(match.entity), match.text))
    first_person = FIRST_PERSON.search(question)
    if first_person and "self" in profiles.kinds:
        found.append((first_person.start(), profiles.kinds.index("self"), first_person.group(0)))
    rows: dict[int, str] = {}
    for _, row, text in sorted(found):
        rows.setdefault(row, text)
    return rows


def _chain_start(anchors: dict[int, str], owner: str | None, relations: Sequence[str]) -> int | None:
    """Where the question's chain is walked from: the anchor that owns it ("at the Harbourside
    office, what does Tomas's wife do?" walks from Tomas, "what did I give Ana's husband?" from
    Ana), else the first one named."""
    first = next(iter(anchors), None)
    if first is None or not relations or not owner:
        return first
    return next((row for row, text in anchors.items() if text.lower() == owner.lower()), first)


def _stage1(
    cosines: np.ndarray, anchors: dict[int, str], profiles: ProfileIndex, options: ReadSettings, trace: Trace
) -> list[int]:
    boosts = np.zeros(len(cosines), dtype=np.float32)
    boosts[list(anchors)] = options.name_boost
    scores = cosines + boosts
    order: list[int] = np.argsort(-scores, kind="stable").tolist()  # best first, ties by row
    selection = order[: max(options.top, 0)]
    for rank, row in enumerate(order[: len(selection) + STAGE1_SHOWN_EXTRA]):
        named_as = anchors.get(row)
        trace.stage1.append(
            ProfileScore(
                profiles.names[row], profiles.kinds[row], round(float(cosines[row]), 4),
                round(float(boosts[row]), 4), named_as, round(float(scores[row]), 4), rank < len(selection),
            )
        )
    trace.stage1_unshown = max(0, len(order) - len(trace.stage1))
    return selection


def _ranked(residuals: ResidualIndex, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(cosine of each fact to the question, facts best first)."""
    scores = residuals.matrix @ query
    return scores, np.argsort(-scores, kind="stable")


def _facts(
    row: int, own: dict[int, ResidualIndex], ranks: dict[int, tuple[np.ndarray, np.ndarray]], query: np.ndarray,
    snap: Snapshot, options: ReadSettings, trace: Trace, allowed: np.ndarray | None,
) -> tuple[tuple[str, ...], list[FactSource]]:
    """One entity's own top facts by cosine to the question (its own ranking: a fact-rich
    entity cannot crowd out a fact-poor one), and the turns they came from; with `allowed`
    (a time window over the turns) only facts with a source turn inside it."""
    profiles = snap.profiles
    entity_id = profiles.entity_ids[row]
    residuals = own[entity_id] if entity_id in own else snap.residuals.span(entity_id)
    superseded = residuals.superseded.get(entity_id, 0)
    if not options.residuals or not len(residuals.ids):
        left_out = len(residuals.ids) if not options.residuals else 0
        trace.facts.append(EntityFacts(profiles.names[row], (), (), left_out, superseded))
        return (), []
    scores, ranked = ranks[entity_id] if entity_id in ranks else _ranked(residuals, query)
    cap = max(options.facts_per_entity, 0)
    if allowed is not None:
        inside = [fact_allowed(snap.turns, residuals.source_turns[int(i)], allowed) for i in ranked]
        ranked = ranked[np.asarray(inside, dtype=bool)]
    order = ranked[: cap + CUT_SHOWN]
    scored = [FactScore(int(residuals.ids[i]), residuals.texts[i], round(float(scores[i]), 4)) for i in order]
    chosen, cut = tuple(scored[:cap]), tuple(scored[cap:])
    trace.facts.append(EntityFacts(profiles.names[row], chosen, cut, max(0, len(ranked) - cap), superseded))
    sources = [FactSource(f.fact_id, f.score, residuals.source_turns[int(i)]) for f, i in zip(chosen, order)]
    return tuple(f.text for f in chosen), sources


def fact_allowed(turns: TurnIndex, source_turns: Sequence[int], allowed: np.ndarray) -> bool:
    """A fact is inside a time window when one of its source turns is."""
    return bool(allowed[turns.rows_of(source_turns)].any())


def _people(named: Sequence[str], anchor_ids: Sequence[int], profiles: ProfileIndex) -> tuple[Person, ...]:
    """The entities the question starts from: those it names (raw-turn speakers included), then its anchors."""
    names = list(dict.fromkeys([*named, *(profiles.names[profiles.entity_ids.index(e)] for e in anchor_ids)]))
    out = []
    for name in names:
        row = profiles.names.index(name) if name in profiles.names else None
        out.append(Person(name, profiles.aliases[row], profiles.entity_ids[row]) if row is not None
                   else Person(name, (), None))
    return tuple(out)
