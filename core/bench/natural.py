"""The natural-text section of `memhop bench`: a real-looking diary and group chat, ingested
and asked as a user would, scored against a hand-written answer key.

The dev folder holds the inputs (every visible file but the answer key) and the answer key:
`cast.json` (who and what the text names: one entity each, of a kind, with aliases) and
`questions.json` (multi-hop questions with gold answers, chains and evidence dates). Only
the inputs reach memhop; the key is read here, for scoring.

Matching is deliberately strict, so that the numbers move only when the engine does: a
stored name or alias matches a gold name or alias when both are equal after folding case
and accents, curly apostrophes and runs of whitespace, nothing else ("Zoë's" is not
"Zoë").
"""

from __future__ import annotations

import json
import re
import tempfile
import time
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from memhop.core.bench.metrics import is_idk, mean, normalise
from memhop.core.bench.sources import BenchInputError
from memhop.core.config import Settings
from memhop.core.language.numbers import SIMPLE_NUMBER, as_digits
from memhop.core.model import KnownEntity
from memhop.core.progress import Progress

ANSWER_KEY = frozenset({"README.md", "cast.json", "questions.json"})  # never fed to memhop
UNKNOWN = "unknown"  # the gold of an unanswerable question
OUTCOMES = ("right", "refused", "wrong")


@dataclass(frozen=True)
class CastEntity:
    name: str
    kind: str
    aliases: tuple[str, ...] = ()

    @property
    def keys(self) -> frozenset[str]:
        """Every way the text may name it ("my …" role words included: matching one is fine)."""
        return frozenset(name_key(n) for n in (self.name, *self.aliases))


@dataclass(frozen=True)
class Cast:
    entities: tuple[CastEntity, ...]
    also_named: tuple[str, ...] = ()  # real names too: an entity for them is neither required nor spurious

    @property
    def self_name(self) -> str | None:
        return next((e.name for e in self.entities if e.kind == "self"), None)

    def find(self, name: str) -> CastEntity | None:
        key = name_key(name)
        return next((e for e in self.entities if key in e.keys), None)


@dataclass(frozen=True)
class GoldQuestion:
    q: str
    answer: str
    k: int
    chain: tuple[str, ...]
    evidence: tuple[str, ...]  # ISO dates of the diary entries / chat days holding the facts
    type: str


@dataclass
class EntityScore:
    """The stored registry against the cast."""

    gold: int
    stored: int
    found: list[str] = field(default_factory=list)  # gold names
    right_kind: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    wrong_kind: dict[str, list[str]] = field(default_factory=dict)  # gold "name (kind)" -> stored kinds
    spurious: list[str] = field(default_factory=list)  # stored names
    split: dict[str, list[str]] = field(default_factory=dict)  # gold name -> its stored entities


@dataclass(frozen=True)
class QuestionRecord:
    q: str
    gold: str
    k: int
    type: str
    answer: str
    outcome: str  # right | refused | wrong
    reached: bool  # the chain's last entity was among the selected profiles
    hops: tuple[bool, ...]  # each chain entity: among the selected profiles
    selected: tuple[str, ...]
    gold_days: tuple[str, ...]
    evidence_days: tuple[str, ...]
    day_recall: float | None  # None: no gold evidence (unanswerable)
    cited: bool | None = None  # the answer's first support item holds the gold; None: unanswerable


@dataclass(frozen=True)
class Tally:
    """Questions summed up: counts out of n, day recall averaged over those with evidence."""

    n: int
    reached: int
    right: int
    refused: int
    wrong: int
    day_recall: float | None
    entities_read: float | None  # selected profiles per question: reach is cheap when most are read
    cited: int = 0  # answerable questions whose first support item holds the gold
    answerable: int = 0

    @classmethod
    def of(cls, records: Sequence[QuestionRecord]) -> Tally:
        count = {o: sum(r.outcome == o for r in records) for o in OUTCOMES}
        return cls(len(records), sum(r.reached for r in records), count["right"], count["refused"],
                   count["wrong"], mean(r.day_recall for r in records), mean(len(r.selected) for r in records),
                   sum(bool(r.cited) for r in records), sum(r.cited is not None for r in records))


@dataclass
class NaturalResult:
    folder: Path
    self_name: str | None
    inputs: list[str]  # file names ingested
    turns: int
    entities: EntityScore
    questions: list[QuestionRecord]
    seconds: float = 0.0

    @property
    def total(self) -> Tally:
        return Tally.of(self.questions)

    def by(self, attribute: str) -> dict[str, Tally]:
        """Tallies per value of "k" or "type", in sorted order."""
        groups: dict[str, list[QuestionRecord]] = {}
        for r in sorted(self.questions, key=lambda r: getattr(r, attribute)):
            groups.setdefault(str(getattr(r, attribute)), []).append(r)
        return {g: Tally.of(rs) for g, rs in groups.items()}

    def summary(self) -> dict[str, Any]:
        """The numbers and lists, without the per-question records (summary.json, --json)."""
        ent = self.entities
        return {
            "folder": str(self.folder),
            "inputs": self.inputs,
            "turns": self.turns,
            "seconds": round(self.seconds, 1),
            "entities": {
                "gold": ent.gold, "stored": ent.stored, "found": len(ent.found), "right_kind": len(ent.right_kind),
                "spurious": len(ent.spurious), "split": len(ent.split), "missed_names": ent.missed,
                "wrong_kind": ent.wrong_kind, "spurious_names": ent.spurious, "split_names": ent.split,
            },
            "questions": {
                "all": asdict(self.total),
                "by_k": {g: asdict(t) for g, t in self.by("k").items()},
                "by_type": {g: asdict(t) for g, t in self.by("type").items()},
            },
        }


# Matching.


def name_key(name: str) -> str:
    """Case, accents, curly apostrophes and whitespace folded; punctuation kept."""
    decomposed = unicodedata.normalize("NFKD", name.replace("\u2019", "'"))
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


def _stored_keys(entity: KnownEntity) -> frozenset[str]:
    return frozenset(name_key(n) for n in (entity.name, *entity.aliases))


def _answer_key(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return normalise("".join(c for c in decomposed if not unicodedata.combining(c)))


def answer_contains(answer: str, gold: str) -> bool:
    """The gold's normalised words appear, in order and whole, in the normalised answer (a
    number in words or digits alike: "11" answers "eleven")."""
    want = _support_key(gold)
    return bool(want) and f" {want} " in f" {_support_key(answer)} "


def support_holds(support: str, gold: str) -> bool:
    """A support sentence holds the gold as a reader would see it: each item of a gold list
    ("Gilead, Kindred and The Overstory") in any order and punctuation, a number in
    words or digits ("thirty" holds 30), a unit written on ("16.4KG" holds 16.4 kg)."""
    said = f" {_support_key(support)} "
    items = [i for i in re.split(r",\s*|\s+and\s+|\s*&\s*", gold) if i.strip()]
    return bool(items) and all(f" {_support_key(i)} " in said for i in items)


def _support_key(text: str) -> str:
    text = re.sub(rf"\b(?:{SIMPLE_NUMBER})\b", lambda m: as_digits(m.group(0)), text, flags=re.I)
    return _answer_key(re.sub(r"(\d)([^\W\d_])", r"\1 \2", text))


def outcome(answer: str, gold: str) -> str:
    """right | refused | wrong; refusing an unanswerable question is right."""
    refused = is_idk(answer)
    if name_key(gold) == UNKNOWN:
        return "right" if refused else "wrong"
    if answer_contains(answer, gold):
        return "right"
    return "refused" if refused else "wrong"


# Scoring.


def score_entities(cast: Cast, stored: Sequence[KnownEntity]) -> EntityScore:
    """Found: some stored entity is named (or aliased) like the gold one; right kind: one of
    those has the gold kind; split: two or more do; spurious: a stored entity matching no gold
    entity and no `also_named` name."""
    score = EntityScore(gold=len(cast.entities), stored=len(stored))
    keys = [_stored_keys(s) for s in stored]
    for gold in cast.entities:
        matches = [s for s, k in zip(stored, keys) if k & gold.keys]
        if not matches:
            score.missed.append(gold.name)
            continue
        score.found.append(gold.name)
        if any(s.kind == gold.kind for s in matches):
            score.right_kind.append(gold.name)
        else:
            score.wrong_kind[f"{gold.name} ({gold.kind})"] = [f"{s.name}: {s.kind}" for s in matches]
        if len(matches) > 1:
            score.split[gold.name] = [s.name for s in matches]
    known = frozenset().union(*(g.keys for g in cast.entities), (name_key(n) for n in cast.also_named))
    score.spurious = [s.name for s, k in zip(stored, keys) if not k & known]
    return score


def hops_reached(chain: Sequence[str], selected: Iterable[str], cast: Cast,
                 stored: Sequence[KnownEntity]) -> tuple[bool, ...]:
    """Each chain entity: is a selected profile one of its stored entities (by name or alias)?"""
    by_name = {s.name: s for s in stored}
    chosen = [_stored_keys(by_name[n]) if n in by_name else frozenset({name_key(n)}) for n in selected]
    out = []
    for name in chain:
        gold = cast.find(name)
        wanted = gold.keys if gold is not None else frozenset({name_key(name)})
        out.append(any(k & wanted for k in chosen))
    return tuple(out)


def day_recall(gold_days: Sequence[str], evidence_days: Iterable[str]) -> float | None:
    """Share of the gold evidence dates among the evidence turns' dates; None without gold."""
    wanted = set(gold_days)
    return len(wanted & set(evidence_days)) / len(wanted) if wanted else None


def score_question(gold: GoldQuestion, answer: str, selected: Sequence[str], evidence_days: Sequence[str],
                   cast: Cast, stored: Sequence[KnownEntity], first_support: str | None = None) -> QuestionRecord:
    """`first_support`: the text of the answer's first support item (`ask` prints it first)."""
    hops = hops_reached(gold.chain, selected, cast, stored)
    cited = None if name_key(gold.answer) == UNKNOWN else support_holds(first_support or "", gold.answer)
    return QuestionRecord(
        gold.q, gold.answer, gold.k, gold.type, answer, outcome(answer, gold.answer), bool(hops) and hops[-1], hops,
        tuple(selected), gold.evidence, tuple(evidence_days), day_recall(gold.evidence, evidence_days), cited,
    )


# The answer key.


def load_cast(path: Path) -> Cast:
    doc = _load_json(path)
    try:
        entities = tuple(CastEntity(str(e["name"]), str(e["kind"]), tuple(map(str, e.get("aliases", ()))))
                         for e in doc["entities"])
        return Cast(entities, tuple(map(str, doc.get("also_named", ()))))
    except (KeyError, TypeError) as exc:
        raise BenchInputError(f"{path}: not a cast file (entities with name, kind, aliases): {exc!r}") from None


def load_questions(path: Path) -> list[GoldQuestion]:
    doc = _load_json(path)
    try:
        return [GoldQuestion(str(d["q"]), str(d["answer"]), int(d["k"]), tuple(map(str, d["chain"])),
                             tuple(map(str, d["evidence"])), str(d["type"])) for d in doc]
    except (KeyError, TypeError, ValueError) as exc:
        raise BenchInputError(f"{path}: not a questions file ({{q, answer, k, chain, evidence, type}}): {exc!r}") from None


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BenchInputError(f"{path}: missing (the dev set's answer key)") from None
    except json.JSONDecodeError as exc:
        raise BenchInputError(f"{path}: invalid JSON at line {exc.lineno}") from None


def input_files(folder: Path) -> list[Path]:
    """What memhop may read: every visible file of the folder except the answer key."""
    files = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")
                   and p.name not in ANSWER_KEY)
    if not files:
        raise BenchInputError(f"{folder}: no diary or chat files besides the answer key")
    return files


# The run.


def run_natural(folder: Path, settings: Settings, progress: Progress | None = None) -> NaturalResult:
    """Ingest the folder's inputs into a fresh store with the offline engine (as `memhop
    ingest --self <the cast's self>` does), ask every question (as `memhop ask` does), score."""
    from memhop.core.api import Memory

    started = time.perf_counter()
    if not folder.is_dir():
        raise BenchInputError(f"{folder}: no dev set folder here")
    cast, questions = load_cast(folder / "cast.json"), load_questions(folder / "questions.json")
    inputs = input_files(folder)
    with tempfile.TemporaryDirectory(prefix="memhop-natural-") as tmp, \
            Memory(replace(settings, db=Path(tmp) / "natural.duckdb", engine="offline")) as mem:
        report = mem.ingest(inputs, self_name=cast.self_name, progress=progress)
        if report.failed:
            raise BenchInputError("; ".join(f"{f.path}: {f.error}" for f in report.failed))
        stored = [KnownEntity(e.id, e.name, e.kind, tuple(e.aliases)) for e in mem.entities()]
        records = []
        for gold in questions:
            got = mem.ask(gold.q)
            days = [e.turn.timestamp.date().isoformat() for e in got.context.evidence if e.turn.timestamp]
            first = got.support.items[0].cited.text if got.support.items else None
            records.append(score_question(gold, got.text, [s.name for s in got.context.selected], days, cast, stored,
                                          first))
        turns = mem.stats()["turns"]
    return NaturalResult(folder, cast.self_name, [p.name for p in inputs], turns, score_entities(cast, stored),
                         records, time.perf_counter() - started)
