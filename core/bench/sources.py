"""What the benchmark asks: generated MemHop scenarios and LoCoMo conversations, both as
parsed sources plus questions with gold answers and gold evidence turn ids."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from memhop.core.bench.generator import generate
from memhop.core.bench.metrics import split_evidence
from memhop.core.errors import MemhopError
from memhop.core.importers import get as get_importer
from memhop.core.importers.base import ParsedSource

LOCOMO_CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
LOCOMO_DIR_ENV = "MEMHOP_LOCOMO_DIR"


def default_locomo_dir() -> Path:
    """Where the shared LoCoMo conversations sit: `shared/data/locomo` beside the checkout,
    unless MEMHOP_LOCOMO_DIR says otherwise. Found from this file, never from the current
    directory: the repo is the folder holding the real core/ (memhop/core links to it)."""
    override = os.environ.get(LOCOMO_DIR_ENV)
    if override:
        return Path(override).expanduser()
    repo = Path(__file__).resolve().parents[2]
    return repo.parent / "shared" / "data" / "locomo"


def locomo_dir(given: Path | None) -> Path | None:
    """The folder the user named, else the default one if it is there (else no LoCoMo part)."""
    if given is not None:
        return given
    default = default_locomo_dir()
    return default if default.is_dir() else None


class BenchInputError(MemhopError):
    """A benchmark input (the LoCoMo folder) is missing or unreadable."""


@dataclass(frozen=True)
class Spec:
    """One question, whatever the dataset."""

    qid: str
    text: str
    gold: str | None  # None: adversarial, the right answer is to decline
    group: str  # "K=3" or a LoCoMo category
    evidence: tuple[str, ...]
    chain: tuple[str, ...] = ()  # MemHop: entity names e1..eK
    hop_evidence: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class BenchSource:
    dataset: str  # memhop | locomo
    name: str
    parsed: ParsedSource
    self_name: str | None
    questions: tuple[Spec, ...]


def memhop_sources(scenarios: int, questions: int, seed: int = 0, sessions: int = 20) -> list[BenchSource]:
    out = []
    for sc in generate(scenarios, seed, questions, sessions):
        specs = tuple(
            Spec(q.id, q.text, q.answer, f"K={q.k}", q.evidence, q.chain, tuple(h.evidence for h in q.hops))
            for q in sc.questions
        )
        out.append(BenchSource("memhop", f"scenario-{sc.index}", sc.parsed, sc.diarist, specs))
    return out


def locomo_sources(folder: Path, only: tuple[str, ...] | None = None) -> list[BenchSource]:
    """Each LoCoMo file (or those named in `only`, else the first): its dialogue through the
    normal importer, its qa list as questions."""
    files = sorted(folder.glob("*.json"))
    if only is not None:
        files = [f for f in files if f.name in only] or files[:1]
    if not files:
        raise BenchInputError(f"{folder}: no LoCoMo conversations (*.json) here")
    out = []
    for path in files:
        data = path.read_bytes()
        parsed = get_importer("locomo").parse(data, path.name)
        doc = json.loads(data)
        qa = doc.get("qa", []) if isinstance(doc, dict) else []
        specs = []
        for i, item in enumerate(qa):
            category = int(item.get("category", 0))
            gold = None if category == 5 else str(item.get("answer", ""))
            group = LOCOMO_CATEGORIES.get(category, f"category {category}")
            specs.append(Spec(f"locomo-{path.stem}-{i}", str(item["question"]), gold, group,
                              tuple(split_evidence(item.get("evidence", [])))))
        out.append(BenchSource("locomo", f"locomo-{path.stem}", parsed, None, tuple(specs)))
    return out
