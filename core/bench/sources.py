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
LOCOMO_HEADLINE = tuple(LOCOMO_CATEGORIES[c] for c in (1, 2, 3, 4))  # the categories the headline numbers count
LOCOMO_DIR_ENV = "MEMHOP_LOCOMO_DIR"


DEV_DIR_ENV = "MEMHOP_DEV_DIR"


def _shared_data(name: str, env: str) -> Path:
    """`shared/data/<name>` beside the checkout, unless the variable `env` says otherwise.
    Found from this file, never from the current directory: the repo is the folder holding
    the real core/ (memhop/core links to it)."""
    override = os.environ.get(env)
    if override:
        return Path(override).expanduser()
    repo = Path(__file__).resolve().parents[2]
    return repo.parent / "shared" / "data" / name


def default_locomo_dir() -> Path:
    """Where the shared LoCoMo conversations sit (MEMHOP_LOCOMO_DIR overrides)."""
    return _shared_data("locomo", LOCOMO_DIR_ENV)


def default_dev_dir() -> Path:
    """Where the natural-text dev set sits, a diary and a chat with their answer key
    (MEMHOP_DEV_DIR overrides)."""
    return _shared_data("dev", DEV_DIR_ENV)


def _given_or_default(given: Path | None, default: Path) -> Path | None:
    if given is not None:
        return given
    return default if default.is_dir() else None


def locomo_dir(given: Path | None) -> Path | None:
    """The folder the user named, else the default one if it is there (else no LoCoMo part)."""
    return _given_or_default(given, default_locomo_dir())


def dev_dir(given: Path | None) -> Path | None:
    """The dev folder the user named, else the default one if it is there (else no natural-text part)."""
    return _given_or_default(given, default_dev_dir())


class BenchInputError(MemhopError):
    """A benchmark input (the LoCoMo or dev folder) is missing or unreadable."""


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
