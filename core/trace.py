"""The trace of one question: every decision the read path took, in plain data.

It is what `memhop ask --trace` draws and what `--json` carries under "trace", so a user
can see why an entity was (or was not) read and why a fact or a turn was cut.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from memhop.core.model import for_users
from memhop.core.route import Route


@dataclass(frozen=True)
class ProfileScore:
    """Stage 1: one entity's profile against the question."""

    entity: str
    kind: str
    cosine: float
    boost: float  # the name boost it received (0 if the question does not name it)
    named_as: str | None  # the words of the question that named it ("Alice", "my" for self)
    score: float
    selected: bool


@dataclass(frozen=True)
class Candidate:
    """Stage 2: a name found in a selected profile, scored against the gate."""

    entity: str
    named_by: str  # the entity whose profile contains the name
    matched: str  # the profile text around the match, the name in [brackets]
    score: float | None  # cosine(question, its profile); None if it has no profile
    passed: bool


@dataclass(frozen=True)
class Hop:
    round: int
    candidates: tuple[Candidate, ...]
    added: tuple[str, ...]


@dataclass(frozen=True)
class ChainLink:
    """One step of the chain: `source`'s profile names `target` (whichever stage selected it)."""

    source: str
    target: str
    matched: str
    joined: bool = False  # the chain brought `target` into the selection (its cosine was below the gate)


@dataclass(frozen=True)
class FactScore:
    fact_id: int
    text: str
    score: float


@dataclass(frozen=True)
class EntityFacts:
    """Stage 3: one selected entity's verified facts, chosen and cut by the per-entity cap."""

    entity: str
    chosen: tuple[FactScore, ...]
    cut: tuple[FactScore, ...]  # the best few of those cut
    cut_count: int  # how many were cut in all
    superseded: int  # how many were never considered because a newer fact replaced them


@dataclass(frozen=True)
class EvidencePick:
    """One raw turn given to the answerer, and why."""

    turn_id: int
    external_id: str | None
    reason: str  # "fact source" | "neighbour" | "dense" | a retriever's own stage ("entity", "co-occurrence", ...)
    via: str | None  # the fact or turn that brought it in
    score: float


@dataclass(frozen=True)
class AnswerSource:
    """The sentence the answer was read from, and where the answer is in it."""

    kind: str  # "fact" | "turn"
    id: int
    sentence: str
    span: tuple[int, int] | None  # character offsets of the answer in `sentence`
    how: str  # "words" (in order), "date" (a date written any way), "some words", "own date" (the turn's date),
    # "source" (the sentence the engine cut it from, holding none of its words: a count's)
    date: str | None
    speaker: str | None
    source: str | None


@dataclass
class Trace:
    question: str
    query: str  # the question without its names: what facts and turns are ranked by
    settings: dict[str, Any]
    anchors: list[str] = field(default_factory=list)  # entities the question starts from
    asker: str | None = None  # who "I" is, when the question says it and the store knows the writer
    stage1: list[ProfileScore] = field(default_factory=list)
    stage1_unshown: int = 0  # profiles scored but below the ones listed
    hops: list[Hop] = field(default_factory=list)
    stopped: str = ""  # why expansion stopped
    facts: list[EntityFacts] = field(default_factory=list)
    route: Route | None = None  # the question's kind and why (core/route.py)
    period: str = ""  # the period the question names, as read ("1 March 2023 – 31 May 2023 (from March to May 2023)")
    retriever: str = ""  # which retriever ranked the evidence (core/retrievers)
    retrieval: list[str] = field(default_factory=list)  # what each of its stages contributed
    evidence: list[EvidencePick] = field(default_factory=list)
    chain: list[str] = field(default_factory=list)  # where the question leads: anchor, then hops
    links: list[ChainLink] = field(default_factory=list)  # why each step of the chain is there
    timings_ms: dict[str, float] = field(default_factory=dict)
    answer: str | None = None  # set once the question is answered
    answered_by: str = ""  # the engine (and model) that answered: "offline", "openai (model m)"
    answer_from: AnswerSource | None = None  # None: refused, or no memory contains the answer

    def to_dict(self) -> dict[str, Any]:
        """The trace as `ask --json` shows it: users read "facts" where the code says residuals."""
        data = asdict(self)
        data["settings"] = {for_users(key): value for key, value in data["settings"].items()}
        return data
