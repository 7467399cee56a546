"""The cue table of the `hero` retriever (seed 002): which cues each raw turn carries.

A cue is what a turn can be recalled by: its speaker, and the content words it says
(core/language/lexical.py's stems, stopwords left out). The entities a turn names are
cues too, but they are not copied here: the write path's `mentions` table holds them, and
merge, rename and forget keep it right (core/retrievers/hero.py reads both).

Word cues keep lexical's ASCII word rule (`ascii_terms`: "José" is filed as "jos"), the
rule existing stores were filed under; the rest of memhop reads Unicode words. Filing
under Unicode words needs a migration that refiles every turn; until then questions are
looked up by the same old rule, so they still meet the turns filed by it.

The table is a function of the turns' live text: written with the turns at ingest, filled
for existing stores by migration 7, and rebuilt for every turn a forget rewrites, so no cue
outlives the words it came from (`stale` is the residue check).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import duckdb
import pyarrow as pa

from memhop.core.language import lexical
from memhop.core.language.names import name_key

TABLE = "turn_cues"
WORD, SPEAKER = "word", "speaker"
BACKFILL_CHUNK = 50_000  # turns read per query when a whole store is filled (memory stays bounded)


def cues_of(speaker: str, text: str) -> list[tuple[str, str]]:
    """(cue, kind) of one turn: its speaker's name key, then each distinct content stem."""
    out = [(name_key(speaker), SPEAKER)] if speaker.strip() else []
    return out + [(term, WORD) for term in word_cues(text)]


def word_cues(text: str) -> list[str]:
    """The word cues a text (a question) would be filed under."""
    return list(dict.fromkeys(lexical.ascii_terms(text)))


def add_turns(con: duckdb.DuckDBPyConnection, turns: Iterable[tuple[int, str, str]]) -> int:
    """File turns (id, speaker, text) that have no rows yet under their cues; the caller holds
    the transaction."""
    ids: list[int] = []
    cues: list[str] = []
    kinds: list[str] = []
    for turn_id, speaker, text in turns:
        for cue, kind in cues_of(speaker, text):
            ids.append(int(turn_id))
            cues.append(cue)
            kinds.append(kind)
    if not ids:
        return 0
    data = pa.table({"turn_id": pa.array(ids, pa.int32()), "cue": pa.array(cues, pa.string()),
                     "kind": pa.array(kinds, pa.string())})
    con.register("memhop_cues", data)
    try:  # callers file only turns that have no rows yet: new turns, or turns whose rows were just deleted
        con.execute(f"INSERT INTO {TABLE} (turn_id, cue, kind) SELECT turn_id, cue, kind FROM memhop_cues")
    finally:
        con.unregister("memhop_cues")
    return len(ids)


def rebuild(con: duckdb.DuckDBPyConnection, turn_ids: Sequence[int]) -> int:
    """Re-derive these turns' cues from their current speaker and text (a forget rewrote
    them); turns that are gone keep none."""
    wanted = sorted({int(t) for t in turn_ids})
    if not wanted:
        return 0
    con.execute(f"DELETE FROM {TABLE} WHERE list_contains(?, turn_id)", [wanted])
    rows = con.execute("SELECT id, speaker, text FROM turns WHERE list_contains(?, id)", [wanted]).fetchall()
    return add_turns(con, rows)


def backfill(con: duckdb.DuckDBPyConnection) -> int:
    """Every turn of the store filed under its cues (migration 7, in its transaction)."""
    added, last = 0, -1
    while True:
        rows = con.execute(
            "SELECT id, speaker, text FROM turns WHERE id > ? ORDER BY id LIMIT ?", [last, BACKFILL_CHUNK]
        ).fetchall()
        if not rows:
            return added
        added += add_turns(con, rows)
        last = int(rows[-1][0])


def stale(con: duckdb.DuckDBPyConnection, cues: Sequence[str]) -> int:
    """Rows filing a turn under one of `cues` that its live speaker and text no longer give:
    the residue a forget must not leave (0 when the table follows the turns)."""
    wanted = sorted(set(cues))
    if not wanted:
        return 0
    filed = con.execute(
        f"SELECT c.turn_id, c.cue, c.kind, t.speaker, t.text FROM {TABLE} c LEFT JOIN turns t ON t.id = c.turn_id "
        "WHERE list_contains(?, c.cue)",
        [wanted],
    ).fetchall()
    return sum(1 for _, cue, kind, speaker, text in filed
               if text is None or (cue, kind) not in cues_of(speaker, text))


def forms_as_cues(forms: Sequence[str]) -> list[str]:
    """The cues a name's forms would be filed under: as a speaker, and as words."""
    out = {name_key(f) for f in forms}
    for form in forms:
        out.update(lexical.ascii_terms(form))
    return sorted(out)
