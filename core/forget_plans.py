"""What a forget changes, worked out before anything is written (and all `--dry-run` shows).

- An entity: its own rows go; other profiles and facts are rewritten by the redactor;
  raw turns that name it keep their place with the sentences about it marked, or are
  dropped; every other text column (paths, titles, speakers, the log) has the name marked.
- A fact: the fact (and identical copies of it for the same entity) and the profile
  sentences that state it.
- A source: its sessions and turns, the facts drawn only from them, the entities nothing
  else supports; other profiles lose the sentences quoting the removed material.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memhop.core import redact as rd
from memhop.core.errors import AmbiguousName as AmbiguousName  # raised here before it moved to errors
from memhop.core.errors import ImportFormatError, MemhopError
from memhop.core.inspect import resolve_entity
from memhop.core.language.names import name_forms, name_key
from memhop.core.model import KnownEntity
from memhop.core.name_mentions import NameMatcher
from memhop.core.store import Store, cues, edits, memory, quarantine, replies, sources, tables
from memhop.core.store.raw import sha256_of

EMBEDDED = ("turns", "profiles", "residuals")  # tables whose `text` column has an `embedding`
SPECIAL = {("turns", "text"), ("profiles", "text"), ("residuals", "text")}
# Derived from the turns, so rebuilt with them (forget._commit re-derives the cues of every
# turn the plan rewrites or deletes), neither deleted by the plan nor redacted in place; the
# residue scan checks them against the live turns (cues.stale): a cue word is lower-case and
# stemmed, so the name matchers can neither find it reliably nor tell "Rose" from "rose".
DERIVED = {cues.TABLE}
MIN_QUOTE = 12  # a profile sentence this long found in a removed turn is a quote of it
MIN_NEEDLE = 24  # removed turn texts this long are looked for in the file's bytes


class ForgetError(MemhopError):
    """A forget that cannot or must not run; nothing was changed."""


@dataclass
class Plan:
    """Every row a forget deletes or rewrites, and how to check afterwards that it worked."""

    kind: str  # entity | fact | source
    label: str  # shown to the user, never logged
    target: int = 0  # the id of the entity, fact or source row
    forms: tuple[str, ...] = ()
    shared_forms: tuple[str, ...] = ()
    deletes: list[tuple[str, str, list[Any]]] = field(default_factory=list)  # table, column, values
    updates: dict[tuple[str, Any], dict[str, Any]] = field(default_factory=dict)
    checks: list[Callable[[Store], dict[str, int]]] = field(default_factory=list)
    file_needles: tuple[str, ...] = ()
    file_words: bool = True
    needles_may_remain: bool = False  # a needle still in live text is not residue
    note: str = ""
    sentences: list[dict[str, Any]] = field(default_factory=list)  # what the redaction takes out, for --dry-run

    def delete(self, table: str, column: str, values: Sequence[Any]) -> None:
        if values:
            self.deletes.append((table, column, sorted(set(values))))

    def update(self, table: str, key: Any, column: str, value: Any) -> None:
        self.updates.setdefault((table, key), {})[column] = value

    def rewrite(self, table: str, key: Any, old: str, new: str) -> None:
        """A redacted text, with the sentences it loses noted for the dry run."""
        self.update(table, key, "text", new)
        self.note_sentences(table, key, old, new)

    def note_sentences(self, table: str, key: Any, old: str, new: str) -> None:
        kept = {s.strip() for s in rd.sentences_of(new)}
        for sentence in rd.sentences_of(old):
            if sentence.strip() not in kept:
                self.sentences.append({"table": table, "key": key, "sentence": sentence.strip()})

    def deleted_keys(self, table: str, key_column: str) -> set[Any]:
        return {v for t, c, vals in self.deletes if t == table and c == key_column for v in vals}

    def to_embed(self) -> list[tuple[str, Any, str]]:
        return [(t, k, v["text"]) for (t, k), v in self.updates.items() if t in EMBEDDED and "text" in v]

    def changes(self) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = [
            {"action": "delete", "table": t, "where": c, "values": v} for t, c, v in self.deletes
        ]
        rows += [{"action": "update", "table": t, "key": k, "set": v} for (t, k), v in self.updates.items()]
        return rows

    def summary(self, count: Callable[[str, str, list[Any]], int]) -> dict[str, int]:
        """Rows deleted per table and values rewritten per column; `count` sizes a delete."""
        counts: dict[str, int] = {}
        for table, column, values in self.deletes:
            counts[f"{table} deleted"] = counts.get(f"{table} deleted", 0) + count(table, column, values)
        for (table, _), changed in self.updates.items():
            for column in changed:
                counts[f"{table}.{column} rewritten"] = counts.get(f"{table}.{column} rewritten", 0) + 1
        return counts


def resolve_exactly(store: Store, name: str) -> KnownEntity:
    """Like `memhop show`'s lookup, but a loose name (an alias, a first name, a surname)
    that could also be another entity is refused with the candidates rather than guessed:
    these operations cannot be undone."""
    return resolve_entity(store, name, strict=True)


def plan_entity(store: Store, name: str, redactor: rd.Redactor, drop_turns: bool) -> Plan:
    entity = resolve_exactly(store, name)
    if entity.kind == "self":
        raise ForgetError(f"{entity.name} is the diarist (self); forget their files with --source instead")
    taken = {f.lower() for e in memory.registry(store) if e.id != entity.id for f in name_forms(e.name, e.aliases)}
    every = name_forms(entity.name, entity.aliases)
    forms = tuple(f for f in every if f.lower() not in taken)
    if not forms:
        raise ForgetError(f"every name of {entity.name} also names another entity; rename or merge first")
    plan = Plan("entity", entity.name, entity.id, forms, tuple(f for f in every if f.lower() in taken), file_needles=forms)
    own_facts = [r.id for r in memory.residuals_of(store, entity.id, include_superseded=True)]
    plan.delete("mentions", "entity_id", [entity.id])
    plan.delete(quarantine.TABLE, "entity_id", [entity.id])
    plan.delete("residuals", "id", own_facts)
    if memory.profile_of(store, entity.id) is not None:
        plan.delete("profiles", "entity_id", [entity.id])
    plan.delete("entities", "id", [entity.id])
    prose, label = rd.mention_matcher(forms), rd.mention_matcher(forms, prose=False)
    for key, text in tables.rows_containing(store, tables.TextColumn("profiles", "text", False), forms):
        if key != entity.id and prose.search(text):
            plan.rewrite("profiles", key, text, rd.checked_rewrite(redactor, text, forms))
    emptied = []
    for key, text in tables.rows_containing(store, tables.TextColumn("residuals", "text", False), forms):
        if key not in own_facts and prose.search(text):
            new = rd.checked_rewrite(redactor, text, forms)
            if new:
                plan.rewrite("residuals", key, text, new)
            else:
                emptied.append(key)
                plan.note_sentences("residuals", key, text, "")
    plan.delete("residuals", "id", emptied)
    _plan_turns(store, plan, prose, label, drop_turns)
    drop_kept_replies(store, plan)
    _plan_labels(store, plan, label)
    # The bytes are searched for the forms that are not ordinary words ("rose" stays in
    # "prices rose"; the rows were checked by mention) and for every spelling met ("Inês").
    distinct = [f for f in forms if name_key(f) not in prose.common]
    plan.file_needles = tuple(sorted({*distinct, *prose.seen, *label.seen}, key=lambda f: (-len(f), f)))
    filed_as = cues.forms_as_cues(forms)
    plan.checks.append(lambda st: {f"{cues.TABLE} (the name)": cues.stale(st.con, filed_as)})
    return plan


def drop_kept_replies(store: Store, plan: Plan) -> None:
    """Every kept model reply goes, whatever is forgotten. Only a hash of each request is
    kept, so which replies drew on the forgotten text cannot be told from the rest (a
    profile reply need not name the entity to restate its facts), and a kept reply that
    `memhop rebuild` reused would bring the forgotten text back. The cost: the next
    rebuild asks the model again."""
    plan.delete(replies.TABLE, "rowid", replies.rowids(store))


def _plan_turns(store: Store, plan: Plan, prose: NameMatcher, label: NameMatcher, drop: bool) -> None:
    """Turns naming the entity (or spoken by it) in session order, so that a pronoun at the
    start of the next turn ("he thinks it went ok") is carried over."""
    hits = {
        key
        for column, matcher in (("text", prose), ("speaker", label))
        for key, value in tables.rows_containing(store, tables.TextColumn("turns", column, False), plan.forms)
        if matcher.search(value)
    }
    rows = edits.session_turns_around(store, sorted(hits))
    changed: list[int] = []
    carry, session = False, None
    for turn_id, session_id, speaker, text in rows:
        if session_id != session:
            carry, session = False, session_id
        if label.search(speaker):
            new, carry = rd.MARKER, False  # their own words are theirs to forget
        else:
            new, carry = rd.redact(text, prose.search, rd.MARKER, carry)
        if new != text:
            changed.append(turn_id)
            plan.note_sentences("turns", turn_id, text, "" if drop else new)
            if not drop:
                plan.update("turns", turn_id, "text", new)
    if drop:
        plan.delete("mentions", "turn_id", changed)
        plan.delete("turns", "id", changed)
        gone, dropped = plan.deleted_keys("residuals", "id"), set(changed)
        for rid, _, _, cited in edits.residuals_citing(store, changed):
            if rid not in gone:
                plan.update("residuals", rid, "source_turns", [t for t in cited if t not in dropped])


def _plan_labels(store: Store, plan: Plan, matcher: NameMatcher) -> None:
    """Every other text column, including ones later migrations add: names marked out in
    strings, list elements naming the entity dropped."""
    for col in tables.text_columns(store):
        if (col.table, col.column) in SPECIAL or col.table in DERIVED:
            continue
        gone = plan.deleted_keys(col.table, tables.key_column(store, col.table))
        for key, value in tables.rows_containing(store, col, plan.forms):
            if key in gone:
                continue
            if col.is_list:
                new: Any = [v for v in value if not matcher.search(v)]
            else:
                new = rd.replace_forms(value, matcher, rd.MARKER)
            if new != value:
                plan.update(col.table, key, col.column, new)


def plan_fact(store: Store, fact_id: int) -> Plan:
    found = edits.fact_owner(store, fact_id)
    if found is None:
        raise ForgetError(f"no fact with id {fact_id} (see `memhop show NAME` for ids)")
    entity_id, owner, text = found
    target = rd.normalize(text)
    plan = Plan("fact", f"fact {fact_id} of {owner}", fact_id)
    drop_kept_replies(store, plan)
    copies = [r.id for r in memory.residuals_of(store, entity_id, True) if rd.normalize(r.text) == target]
    plan.delete("residuals", "id", copies or [fact_id])
    profile = memory.profile_of(store, entity_id)
    if profile and target:

        def states_it(sentence: str) -> bool:
            said = rd.normalize(sentence)
            return target in said or (len(said) >= MIN_QUOTE and said in target)

        new = rd.redact(profile, states_it, None, pronouns=False)[0]
        if new != profile:
            plan.update("profiles", entity_id, "text", new)

    def check(st: Store) -> dict[str, int]:
        left = [r for r in memory.residuals_of(st, entity_id, True) if rd.normalize(r.text) == target]
        prof = memory.profile_of(st, entity_id) or ""
        return {
            "facts (the fact)": len(left),
            "profile (the fact)": int(bool(target) and target in rd.normalize(prof)),
        }

    plan.checks.append(check)
    plan.note = "the raw turns the fact came from are kept; forget a name or a source to remove those"
    return plan


def find_source(store: Store, given: str) -> tuple[int, str]:
    """By the path or name as imported, by its id in `memhop sources`, by the file's content
    (its sha256), or by a unique file name."""
    rows = sources.sources(store)
    exact = [r for r in rows if r[1] == given]
    if not exact and given.isdigit() and not Path(given).exists():
        exact = [r for r in rows if r[0] == int(given)]
    if not exact and (given == "-" or Path(given).is_file()):
        from memhop.core.ingest import read_input

        try:
            sha = sha256_of(read_input(given).data)
        except ImportFormatError as exc:
            raise ForgetError(str(exc)) from None
        exact = [r for r in rows if r[2] == sha]
    if not exact:
        exact = [r for r in rows if Path(r[1]).name == Path(given).name]
    if len(exact) != 1:
        what = "several imported sources match" if exact else "no imported source matches"
        raise ForgetError(f"{what} {given!r} (give its id or path from `memhop sources`, or the file itself)")
    return exact[0][0], exact[0][1]


def plan_source(store: Store, given: str) -> Plan:
    source_id, path = find_source(store, given)
    plan = Plan("source", path, source_id, needles_may_remain=True, file_words=False)
    drop_kept_replies(store, plan)
    sessions, turns = sources.source_contents(store, source_id)
    removed = sorted(t[0] for t in turns)
    plan.delete("mentions", "turn_id", removed)
    plan.delete("turns", "id", removed)
    plan.delete("sessions", "id", sessions)
    plan.delete(quarantine.TABLE, "session_id", sessions)
    plan.delete("sources", "id", [source_id])
    cited, removed_set = edits.residuals_citing(store, removed), set(removed)
    gone_facts = [r for r in cited if set(r[3]) <= removed_set]
    plan.delete("residuals", "id", [r[0] for r in gone_facts])
    for rid, _, _, from_turns in cited:
        if not set(from_turns) <= removed_set:
            plan.update("residuals", rid, "source_turns", [t for t in from_turns if t not in removed_set])
    _plan_source_entities(
        store, plan, removed, [r[0] for r in gone_facts], [t[1] for t in turns] + [r[2] for r in gone_facts]
    )
    plan.file_needles = tuple(sorted({t[1] for t in turns if len(t[1]) >= MIN_NEEDLE}))
    plan.checks.append(lambda st: sources.source_leftovers(st, source_id, removed))
    plan.checks.append(lambda st: {f"{cues.TABLE} (its turns)": tables.count_where(st, cues.TABLE, "turn_id", removed)})
    plan.note = (
        "profiles of the entities it touched were redacted (sentences quoting the removed turns or "
        "facts dropped), not regenerated; `memhop rebuild` re-derives them from what is left"
    )
    return plan


def _plan_source_entities(
    store: Store, plan: Plan, removed: list[int], gone_facts: list[int], texts: list[str]
) -> None:
    """Entities that only this source supported go; the others lose quoted sentences."""
    quoted = "\x00".join(rd.normalize(t) for t in texts)
    affected = edits.entities_touched(store, removed, gone_facts)
    orphans = [e for e, mentions, facts, _ in affected if not mentions and not facts]
    plan.delete("profiles", "entity_id", orphans)
    plan.delete("entities", "id", orphans)
    plan.delete(quarantine.TABLE, "entity_id", orphans)

    def quotes_removed(sentence: str) -> bool:
        return len(rd.normalize(sentence)) >= MIN_QUOTE and rd.normalize(sentence) in quoted

    for entity_id, _, _, profile in affected:
        if profile and entity_id not in orphans:
            new = rd.redact(profile, quotes_removed, None, pronouns=False)[0]
            if new != profile:
                plan.update("profiles", entity_id, "text", new)
