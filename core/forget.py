"""Forgetting an entity, a fact or a source everywhere, then proving it.

Plan (reads only; `--dry-run` stops there) -> confirm -> embed the rewritten texts ->
record the intent -> one transaction -> compact the file -> residue scan -> drop the
record. A failure before the commit leaves the store exactly as it was; residue found
after it fails the command loudly. The whole run holds the store's exclusive lock, and a
crash after the commit leaves the intent record (hashes, never names) from which the next
writing open, or `memhop forget --resume`, finishes the compaction and the scan.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from memhop.core import redact as rd
from memhop.core.embed import Embedder
from memhop.core.errors import MemhopError, UsageError
from memhop.core.forget_plans import (
    DERIVED,
    SPECIAL,
    ForgetError,
    Plan,
    plan_entity,
    plan_fact,
    plan_source,
)
from memhop.core.model import for_users
from memhop.core.store import Store, compact, cues, edits, intent, tables, vectors

__all__ = ["ForgetError", "ForgetReport", "ResidueError", "forget"]

LOG_LINES = {"entity": "an entity was forgotten", "fact": "a fact was forgotten", "source": "a source was forgotten"}


class ResidueError(MemhopError):
    """The residue scan found forgotten content after the change was committed."""

    exit_code = 3


@dataclass
class ForgetReport:
    target: str
    label: str
    dry_run: bool
    summary: dict[str, int]
    changes: list[dict[str, Any]]
    skipped_forms: list[str]
    redactor: str
    note: str = ""
    sentences: list[dict[str, Any]] = field(default_factory=list)  # redacted: table, key, sentence
    reembedded: int = 0
    compacted: bool = False
    residue: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def one_target(name: str | None, fact: int | None, source: str | None) -> None:
    """A forget names exactly one thing; anything else is a usage error, refused before
    the store is even opened."""
    if sum(x is not None for x in (name, fact, source)) != 1:
        raise UsageError("say what to forget: a NAME, --fact ID or --source FILE (exactly one)")


def forget(
    store: Store,
    embedder: Embedder | None,
    *,
    name: str | None = None,
    fact: int | None = None,
    source: str | None = None,
    drop_turns: bool = False,
    dry_run: bool = False,
    confirm: Callable[[ForgetReport], bool] | None = None,
    redactor: rd.Redactor | None = None,
) -> ForgetReport:
    """Forget exactly one of: an entity (by name), a fact (by id), a source (by file).

    `confirm` sees the full plan before anything changes; returning False aborts.
    """
    one_target(name, fact, source)
    redactor = redactor or rd.SentenceRedactor()
    if name is not None:
        plan = plan_entity(store, name, redactor, drop_turns)
    elif fact is not None:
        plan = plan_fact(store, fact)
    else:
        plan = plan_source(store, str(source))
    report = ForgetReport(
        target=plan.kind,
        label=plan.label,
        dry_run=dry_run,
        summary={for_users(k): n for k, n in plan.summary(lambda t, c, v: tables.count_where(store, t, c, v)).items()},
        changes=[{**change, "table": for_users(change["table"])} for change in plan.changes()],
        skipped_forms=list(plan.shared_forms),
        redactor=redactor.name if plan.kind == "entity" else "offline",
        note=plan.note,
        sentences=[{**s, "table": for_users(s["table"])} for s in plan.sentences],
    )
    if dry_run:
        return report
    if confirm is not None and not confirm(report):
        raise ForgetError("not confirmed; nothing was changed")
    if embedder is None:
        raise ForgetError("an embedder is needed to re-embed the rewritten rows")
    report.reembedded = apply_plan(store, plan, embedder)
    report.compacted = True
    residue = scan_residue(store, plan)
    intent.remove(store.path)  # the scan ran: what it found is reported, the job is done
    report.residue = residue
    if residue["text_hits"] or residue["file_text_hits"] or residue["derived_files"]:
        where = ", ".join(f"{k} ({v})" for k, v in residue["text_hits"].items())
        if residue["derived_files"]:
            where += (", " if where else "") + f"derived vector files ({', '.join(residue['derived_files'])})"
        if residue["file_text_hits"]:
            where += (", " if where else "") + f"raw bytes of the DB file ({residue['file_text_hits']})"
        raise ResidueError(f"residue scan failed: the forgotten {plan.kind} is still in {where}")
    return report


def apply_plan(store: Store, plan: Plan, embedder: Embedder) -> int:
    """Embed, record the intent, apply in one transaction, log without content, then
    compact the file. The record outlives a failed compaction (the next writing open
    retries it) but not a transaction that did not commit."""
    store.check_embedder(embedder)
    pending = plan.to_embed()
    vectors = embedder.embed([text for _, _, text in pending])
    intent.write(store.path, intent.Intent.new(plan.kind, plan.target, plan.file_needles, plan.needles_may_remain))
    try:
        _commit(store, plan, pending, vectors)
    except BaseException:
        intent.drop_if_uncommitted(store)
        raise
    compact.compact(store)
    return len(pending)


def _commit(store: Store, plan: Plan, pending: list[tuple[str, Any, str]], vectors: Any) -> None:
    with store.transaction():
        for table, column, values in plan.deletes:
            tables.delete_where(store, table, column, values)
        embeddings = {(t, k): vectors[i] for i, (t, k, _) in enumerate(pending)}
        per_table: dict[str, list[tuple[Any, dict[str, Any]]]] = {}
        for (table, key), changed in plan.updates.items():
            extra = {"embedding": embeddings[(table, key)]} if (table, key) in embeddings else {}
            per_table.setdefault(table, []).append((key, {**changed, **extra}))
        for table, rows in per_table.items():
            tables.update_rows(store, table, rows)
        # The one place a forget touches the cue table: rewritten turns are filed by their new
        # words only, deleted ones under nothing.
        cues.rebuild(store.con, [*(key for key, _ in per_table.get("turns", [])), *plan.deleted_keys("turns", "id")])
        edits.bump_profiles(store, [k for (t, k), v in plan.updates.items() if t == "profiles" and "text" in v])
        store.log("forget", LOG_LINES[plan.kind])


def scan_text(store: Store, forms: Sequence[str]) -> dict[str, int]:
    """Rows naming any form, by mention (case and accents aside; an ordinary word only
    where it is a name), per table.column, over every text column of every table."""
    prose, label = rd.mention_matcher(forms), rd.mention_matcher(forms, prose=False)
    hits: dict[str, int] = {}
    for col in tables.text_columns(store):
        if col.table in DERIVED:
            continue  # checked against the live turns by the plan (cues.stale)
        matcher = prose if (col.table, col.column) in SPECIAL else label
        found = 0
        for _, value in tables.rows_containing(store, col, forms):
            values = value if col.is_list else [value]
            found += any(matcher.search(v) for v in values if v)
        if found:
            hits[f"{col.table}.{col.column}"] = found
    return hits


def scan_residue(store: Store, plan: Plan) -> dict[str, Any]:
    text_hits: dict[str, int] = scan_text(store, plan.forms) if plan.forms else {}
    for check in plan.checks:
        text_hits.update({k: v for k, v in check(store).items() if v})
    needles = plan.file_needles
    if plan.needles_may_remain and needles:
        live = tables.all_text(store)
        needles = tuple(n for n in needles if n.lower() not in live)
    scan = compact.scan_file_bytes(store.path, needles, words=plan.file_words)
    return {
        "text_hits": text_hits,
        "file_text_hits": scan.text_hits,
        "file_binary_matches": scan.binary_matches,
        "files_scanned": scan.files,
        "bytes_scanned": scan.bytes_scanned,
        "wal_present": compact.wal_path(store.path).exists(),
        "derived_files": vectors.leftovers(store.path),  # derived vectors (core/store/vectors.py): none may remain
        "needles": len(needles),
    }
