"""`memhop ingest --plan`: what an import would cost in model calls and prompt tokens,
before paying for it. The files are parsed and nothing else: no model is called and
nothing is written (the store, if there is one, is only read: which files and turns it
holds already, which sessions and held updates an earlier run left).

The counts are of two kinds. Identification is one call per session: exact. How many
co-extractions follow is the model's decision, so it is estimated: one per name a
session's turns use (capitalised words not starting a sentence, chat speakers) plus the
diarist. Tokens are counted by the openai engine's own estimate (its budget module's
`message_tokens`, the count it cuts prompts to the context window by) over the very prompts
it would send, each co-extraction as for an entity met for the first time: real ones also
carry the profile and facts so far, so that part is a floor. The prompts are counted
uncut: the plan does not ask the server for its window.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from memhop.core.engines.openai.budget import message_tokens
from memhop.core.importers import parse_source
from memhop.core.importers.base import ParseOptions, Session, Turn
from memhop.core.ingest import FileReport, InputFile, each_file
from memhop.core.model import FoundEntity, KnownEntity, SessionView, TurnView
from memhop.core.store import Store, memory, quarantine, raw

if TYPE_CHECKING:
    from memhop.core.engines.openai.engine import OpenAIEngine

CALLS_ESTIMATE = (
    "co-extractions are an estimate: one per name a session's turns use, plus the diarist; the model decides"
)
TOKENS_ESTIMATE = (
    "the openai engine's own token estimate of the prompts it would send; co-extraction prompts "
    "are counted without the profile and facts they carry later, so that part is a floor"
)

_RUN = re.compile(r"\b[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)*")
_NOT_NAMES = frozenset(
    "I I'm I've I'd I'll The A An My We He She They It This That Then But And So Today Yesterday Tomorrow "
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July "
    "August September October November December Hi Hey Hello Thanks Yes No Oh Ok OK Okay Also Just What How "
    "Why When Where Who Dear Mum Dad Mom Note".split()
)


@dataclass
class IngestPlan:
    engine: str
    files: list[FileReport] = field(default_factory=list)
    sessions: int = 0  # sessions the write path would write, new and left pending
    pending: int = 0  # of them: sessions already stored that an earlier run did not write
    held: int = 0  # entity updates held back by an earlier run, retried first (one co-extraction each)
    identify_calls: int = 0  # exact: one per session
    coextract_calls: int = 0  # estimated
    prompt_tokens: int | None = None  # estimated; None for an engine that calls no model
    calls_note: str = CALLS_ESTIMATE
    tokens_note: str = TOKENS_ESTIMATE
    seconds: float = 0.0

    @property
    def calls(self) -> int:
        return self.identify_calls + self.coextract_calls

    @property
    def failed(self) -> list[FileReport]:
        return [f for f in self.files if f.status == "failed"]


def plan_ingest(
    store: Store | None,
    paths: Sequence[str],
    engine: OpenAIEngine | None,
    engine_name: str,
    format: str | None = None,
    self_name: str | None = None,
    options: ParseOptions | None = None,
    stdin_name: str | None = None,
) -> IngestPlan:
    """The plan for `paths` into `store` (None: no store yet). `engine` renders the prompts
    whose tokens are counted; None (the offline engine) counts calls only."""
    started = time.perf_counter()
    plan = IngestPlan(engine=engine_name, tokens_note="" if engine is None else TOKENS_ESTIMATE)
    sessions: list[SessionView] = []
    registry: list[KnownEntity] = []
    if store is not None:
        registry = memory.registry(store)
        pending = memory.pending_sessions(store)
        plan.pending = len(pending)
        sessions += [memory.session_view(store, s) for s in pending]
        plan.held = len(quarantine.listing(store))
        self_name = self_name or next((k.name for k in registry if k.kind == "self"), None)

    numbering = _Numbering(int(store.scalar("SELECT coalesce(max(id), 0) FROM turns")) if store is not None else 0)

    def parse(source: InputFile) -> FileReport:
        sha = raw.sha256_of(source.data)
        if store is not None and raw.source_id_for(store, sha) is not None:
            return FileReport(path=source.name, status="unchanged")
        parsed = parse_source(source.data, source.shown_to_importer, format=format, self_name=self_name, options=options)
        new = raw.new_turns(store, parsed) if store is not None else [(s, [(t, "") for t in s.turns]) for s in parsed.sessions]
        views = [numbering.view(session, [t for t, _ in turns], self_name or parsed.owner) for session, turns in new if turns]
        sessions.extend(views)
        return FileReport(path=source.name, status="new", format=parsed.format, sessions=len(views),
                          turns=sum(len(v.turns) for v in views))

    plan.files = each_file(paths, format, stdin_name, parse)
    plan.sessions = len(sessions)
    plan.identify_calls = len(sessions)
    entities = [expected_entities(view) for view in sessions]
    plan.coextract_calls = sum(len(found) for found in entities) + plan.held
    if engine is not None:
        messages = [engine.planned_messages(view, registry) for view in sessions]
        messages += [engine.planned_messages(view, registry, f) for view, found in zip(sessions, entities) for f in found]
        plan.prompt_tokens = count_tokens(messages)
    plan.seconds = time.perf_counter() - started
    return plan


def expected_entities(session: SessionView) -> list[FoundEntity]:
    """The entities a session is likely about, as identification would find them: the
    diarist, the other speakers, and the names the turns use (with the turns using them)."""
    turns: dict[str, list[int]] = {}
    for turn in session.turns:
        speaker = turn.speaker.strip()
        if speaker and speaker.lower() not in ("me", "i") and speaker != session.self_name:
            turns.setdefault(speaker, []).append(turn.id)
        for name in candidate_names(turn.text):
            turns.setdefault(name, []).append(turn.id)
    names = [n for n in turns if not any(n != other and set(n.split()) < set(other.split()) for other in turns)]
    found = [FoundEntity(n, "person", (), tuple(dict.fromkeys(turns[n]))) for n in names if n != session.self_name]
    if session.self_name:
        found.insert(0, FoundEntity(session.self_name, "self", (), ()))
    return found


def candidate_names(text: str) -> list[str]:
    """Runs of capitalised words that do not start a sentence, common words dropped."""
    out: list[str] = []
    for match in _RUN.finditer(text):
        before = text[: match.start()].rstrip()
        if not before or before[-1] in ".!?:;\"“(-—":
            continue  # a sentence's first word: a name or not, capitals cannot tell
        words = [w for w in re.sub(r"['’]s$", "", match.group(0)).split() if w not in _NOT_NAMES]
        if words:
            out.append(" ".join(words))
    return list(dict.fromkeys(out))


def count_tokens(requests: Iterable[Sequence[Mapping[str, str]]]) -> int:
    """Prompt tokens of chat requests as the openai engine counts a request it sends
    (core/engines/openai/budget.py), so the plan predicts what the engine sends."""
    return sum(message_tokens(messages) for messages in requests)


class _Numbering:
    """Ids for parsed sessions and turns as the store would give them (turn ids are part of
    the prompts, so their length counts); nothing is stored."""

    def __init__(self, last_turn: int) -> None:
        self._turn, self._session = last_turn, 0

    def view(self, session: Session, turns: Sequence[Turn], self_name: str | None) -> SessionView:
        self._session -= 1  # negative: never a stored session's id
        first = self._turn + 1
        self._turn += len(turns)
        when = session.started_at or (turns[0].timestamp if turns else None)
        views = tuple(TurnView(first + i, t.speaker, t.text, t.timestamp, t.external_id) for i, t in enumerate(turns))
        return SessionView(self._session, when, self_name, views)


