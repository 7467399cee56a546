"""Correcting memory by hand: a profile, one fact, two entities that are one, a new name.

Each operation is one transaction, re-embeds exactly the rows whose text changed, and is
written to the operation log. Raw turns are never edited here: they are what was said.
Removing a fact is `forget --fact` (see core/forget.py), so that removal means one thing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from memhop.core import redact as rd
from memhop.core.embed import Embedder
from memhop.core.errors import MemhopError, UsageError
from memhop.core.forget_plans import resolve_exactly
from memhop.core.language.names import name_forms
from memhop.core.model import CATEGORIES, KnownEntity, ResidualDraft, for_users
from memhop.core.store import Store, edits, fact_vectors, memory, quarantine, tables

DEFAULT_CATEGORY = "identity"


class EditError(MemhopError):
    """An edit that makes no sense (unknown fact, name taken); nothing changed."""


class UnknownCategory(EditError, UsageError):
    """A category that is not one of CATEGORIES: a bad option value."""


class SelfFold(EditError):
    """Folding the diarist into someone else without saying so (--yes)."""

    exit_code = 2


@dataclass
class EditReport:
    op: str
    entity: str
    changed: bool = True
    details: dict[str, Any] = field(default_factory=dict)
    dry_run: bool = False

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


Confirm = Callable[[EditReport], bool]  # sees the plan of a merge or rename; False aborts it


def edit_profile(
    store: Store,
    name: str,
    embedder: Embedder,
    text: str | None = None,
    editor: Callable[[str], str | None] | None = None,
) -> EditReport:
    """Replace a profile with `text`, or with what `editor` returns for the current one
    (None from the editor means it was closed without saving)."""
    store.check_embedder(embedder)
    entity = resolve_exactly(store, name)
    current = memory.profile_of(store, entity.id) or ""
    new = text if text is not None else (editor(current) if editor is not None else None)
    if new is None or new.strip() == current.strip():
        return EditReport("edit", entity.name, changed=False)
    new = new.strip()
    vector = embedder.embed([new])[0]
    with store.transaction():
        memory.put_profile(store, entity.id, new, vector)
        store.log("edit", f"profile of {entity.name} edited")
    return EditReport("edit", entity.name, details={"chars": len(new)})


def add_fact(store: Store, name: str, text: str, embedder: Embedder, category: str | None = None) -> EditReport:
    store.check_embedder(embedder)
    entity = resolve_exactly(store, name)
    category = _category(category or DEFAULT_CATEGORY)
    text = _fact_text(text)
    vectors = embedder.embed([text])
    with store.transaction():
        [fact_id] = memory.insert_residuals(store, entity.id, [ResidualDraft(text, category, ())], vectors)
        store.log("fact add", f"fact {fact_id} added to {entity.name}")
    fact_vectors.keep_current(store)  # after the commit: a crash before it leaves them stale
    return EditReport("fact add", entity.name, details={"id": fact_id, "category": category})


def edit_fact(store: Store, fact_id: int, text: str, embedder: Embedder, category: str | None = None) -> EditReport:
    store.check_embedder(embedder)
    found = edits.fact_owner(store, fact_id)
    if found is None:
        raise EditError(f"no fact with id {fact_id} (see `memhop show NAME` for ids)")
    values: dict[str, Any] = {"text": _fact_text(text)}
    if category is not None:
        values["category"] = _category(category)
    values["embedding"] = embedder.embed([values["text"]])[0]
    with store.transaction():
        tables.update_rows(store, "residuals", [(fact_id, values)])
        store.log("fact edit", f"fact {fact_id} edited")
    fact_vectors.keep_current(store)  # after the commit: a crash before it leaves them stale
    return EditReport("fact edit", found[1], details={"id": fact_id})


def merge(
    store: Store,
    keep: str,
    fold: str,
    embedder: Embedder | None,
    *,
    dry_run: bool = False,
    confirm: Confirm | None = None,
    fold_self: bool = False,
) -> EditReport:
    """One person under two names: `fold` becomes part of `keep` (its name an alias).

    Every fact of `fold` is kept: one that repeats a fact of `keep` word for word (and is
    as current as it) is folded into it, its source turns added to the kept one's and any
    pointer to it moved there. Folding the diarist (`self`) into someone else makes them
    the diarist, so it needs `fold_self` (the CLI's --yes) as well as a confirmation.
    """
    if embedder is not None:
        store.check_embedder(embedder)
    a, b = resolve_exactly(store, keep), resolve_exactly(store, fold)
    if a.id == b.id:
        raise EditError(f"{keep!r} and {fold!r} are already the same entity ({a.name})")
    aliases = _dedupe([*a.aliases, *b.aliases, b.name], exclude=a.name)
    old_profile = memory.profile_of(store, a.id)
    profile = merge_texts(old_profile or "", memory.profile_of(store, b.id) or "")
    folded = _folded_facts(store, a.id, b.id)
    turns = edits.mentioned_turns(store, b.id)
    report = EditReport(
        "merge",
        a.name,
        dry_run=dry_run,
        details={
            "merged": b.name,
            "aliases": aliases,
            "facts_moved": len(memory.residuals_of(store, b.id, True)) - len(folded),
            "duplicate_facts_folded": len(folded),
            **({"kind": "self"} if b.kind == "self" and a.kind != "self" else {}),
        },
    )
    if b.kind == "self" and a.kind != "self" and not fold_self and not dry_run:
        raise SelfFold(
            f"{b.name} is the diarist (self); folding it into {a.name} makes {a.name} the diarist. "
            f"Pass --yes if that is what you mean (or merge {b.name!r} {a.name!r} the other way round)"
        )
    if dry_run:
        return report
    _confirmed(report, confirm)
    if embedder is None:
        raise EditError("an embedder is needed to embed the merged profile")
    vector = embedder.embed([profile])[0] if profile and profile != old_profile else None
    with store.transaction():
        for fact in folded:
            tables.update_rows(store, "residuals", [(fact.keeper, {"source_turns": list(fact.source_turns)})])
            store.con.execute("UPDATE residuals SET superseded_by = ? WHERE superseded_by = ?", [fact.keeper, fact.id])
        tables.delete_where(store, "residuals", "id", [f.id for f in folded])
        edits.move_residuals(store, b.id, a.id)
        memory.add_mentions(store, a.id, turns)
        quarantine.move(store, b.id, a.id)  # held updates follow the entity
        for table, column in (("mentions", "entity_id"), ("profiles", "entity_id"), ("entities", "id")):
            tables.delete_where(store, table, column, [b.id])
        tables.update_rows(
            store, "entities", [(a.id, {"aliases": aliases, "kind": "self" if b.kind == "self" else a.kind})]
        )
        if vector is not None:
            memory.put_profile(store, a.id, profile, vector)
        store.log("merge", f"{b.name} merged into {a.name}")
    fact_vectors.keep_current(store)  # after the commit: a crash before it leaves them stale
    return report


@dataclass(frozen=True)
class _Folded:
    id: int  # the folded entity's fact, which goes
    keeper: int  # the kept entity's fact that says the same, which stays
    source_turns: tuple[int, ...]  # both facts' sources


def _folded_facts(store: Store, keep_id: int, fold_id: int) -> list[_Folded]:
    """The facts of `fold_id` that repeat one of `keep_id` word for word, current or
    superseded alike: a current fact is never folded into a superseded one."""
    kept: dict[tuple[str, bool], memory.StoredResidual] = {}
    for r in memory.residuals_of(store, keep_id, include_superseded=True):
        kept.setdefault((rd.normalize(r.text), r.superseded_by is None), r)
    out = []
    for r in memory.residuals_of(store, fold_id, include_superseded=True):
        keeper = kept.get((rd.normalize(r.text), r.superseded_by is None))
        if keeper is not None:
            out.append(_Folded(r.id, keeper.id, tuple(dict.fromkeys([*keeper.source_turns, *r.source_turns]))))
    return out


def rename(
    store: Store,
    old: str,
    new: str,
    embedder: Embedder | None,
    keep_alias: bool = True,
    *,
    dry_run: bool = False,
    confirm: Confirm | None = None,
) -> EditReport:
    """A new canonical name, written into every profile and fact that used the old one."""
    if embedder is not None:
        store.check_embedder(embedder)
    entity = resolve_exactly(store, old)
    new = " ".join(new.split())
    if not new:
        raise EditError("the new name is empty")
    clash = memory.entity_by_name(store, new)
    if clash is not None and clash.id != entity.id:
        raise EditError(f"{new!r} already names {clash.name}; use `memhop merge` to join them")
    if new == entity.name:
        return EditReport("rename", entity.name, changed=False)
    aliases = _dedupe([*entity.aliases, *([entity.name] if keep_alias else [])], exclude=new)
    rewrites = _renamed_texts(store, entity, new)
    pending = [(table, key, text) for (table, key), text in rewrites.items()]
    counts = {for_users(t): sum(1 for p in pending if p[0] == t) for t in ("profiles", "residuals")}
    report = EditReport(
        "rename", new, dry_run=dry_run, details={"old": entity.name, "aliases": aliases, "rewritten": counts}
    )
    if dry_run:
        return report
    _confirmed(report, confirm)
    if embedder is None:
        raise EditError("an embedder is needed to re-embed the rewritten texts")
    vectors = embedder.embed([text for _, _, text in pending])
    with store.transaction():
        tables.update_rows(store, "entities", [(entity.id, {"name": new, "aliases": aliases})])
        for table in ("profiles", "residuals"):
            rows = [(key, {"text": text, "embedding": v}) for (t, key, text), v in zip(pending, vectors) if t == table]
            tables.update_rows(store, table, rows)
        edits.bump_profiles(store, [key for table, key, _ in pending if table == "profiles"])
        store.log("rename", f"{entity.name} renamed to {new}")
    fact_vectors.keep_current(store)  # after the commit: a crash before it leaves them stale
    return report


def _renamed_texts(store: Store, entity: KnownEntity, new: str) -> dict[tuple[str, int], str]:
    """Profiles and facts of every entity with the old name (or its first name) replaced;
    aliases stay as written, and a first name another entity shares is left alone."""
    others = {f.lower() for e in memory.registry(store) if e.id != entity.id for f in name_forms(e.name, e.aliases)}
    forms = [f for f in name_forms(entity.name) if f.lower() not in others]
    if not forms:
        return {}
    first_old, first_new = entity.name.split()[0], new.split()[0]
    keep = {a.lower() for a in entity.aliases}

    def swap(m: Any) -> str:
        found = m.group(0)
        if found.lower() in keep:
            return str(found)
        return (
            new
            if " ".join(found.split()).lower() == entity.name.lower()
            else first_new
            if found.lower() == first_old.lower()
            else str(found)
        )

    matcher = rd.names_matcher([*forms, *entity.aliases])
    out: dict[tuple[str, int], str] = {}
    for table in ("profiles", "residuals"):
        for key, text in tables.rows_containing(store, tables.TextColumn(table, "text", False), forms):
            changed = matcher.sub(swap, text)
            if changed != text:
                out[(table, key)] = changed
    return out


def _confirmed(report: EditReport, confirm: Confirm | None) -> None:
    """`confirm` sees what would change before anything does; False aborts."""
    if confirm is not None and not confirm(report):
        raise EditError("not confirmed; nothing was changed")


def merge_texts(first: str, second: str) -> str:
    """The first text, then the sentences of the second it does not already say."""
    have = {rd.normalize(s) for s in rd.sentences_of(first)}
    extra = [s.strip() for s in rd.sentences_of(second) if rd.normalize(s) not in have]
    return " ".join(part for part in [first.strip(), *extra] if part)


def _dedupe(names: list[str], exclude: str) -> list[str]:
    out: dict[str, str] = {}
    for n in names:
        n = n.strip()
        if n and n.lower() != exclude.lower():
            out.setdefault(n.lower(), n)
    return sorted(out.values())


def _category(category: str) -> str:
    if category not in CATEGORIES:
        raise UnknownCategory(f"unknown category {category!r} (choose from: {', '.join(CATEGORIES)})")
    return category


def _fact_text(text: str) -> str:
    text = text.strip()
    if not text:
        raise EditError("a fact needs some text")
    return text
