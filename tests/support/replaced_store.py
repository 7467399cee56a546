"""Two unrelated stores with the same counts, made one after the other at the same path:
what a user gets who deletes a store (or restores another file over it) while the derived
`<store>.vectors/` folder beside it stays. Every count the derived files are keyed to (turns,
largest turn id, facts, logged operations) is the same in both; only the texts differ."""

from __future__ import annotations

from pathlib import Path

from memhop.core.edit import add_fact
from memhop.core.ingest import ingest
from memhop.core.store import memory, open_store

from support import purge_world

EMBED = purge_world.EMBEDDER
OWNER = "Tamsin Vale"
# Four entries each; the question below shares no word with either diary.
OLD = [
    "Spent the afternoon glazing clay bowls at the pottery studio.",
    "Flew a red kite over the dunes until the string snapped.",
    "Finally filed the quarterly tax forms with the accountant.",
    "Replaced the chain and brake pads on my mountain bike.",
]
NEW = [
    "The dishwasher broke down and flooded the floor again.",
    "Checked the beehive; the queen is laying well this spring.",
    "Played a sonata at the community hall recital tonight.",
    "Walked out along the jetty to the old lighthouse at dusk.",
]
OLD_FACT = "Tamsin Vale glazes clay bowls at a pottery studio."
NEW_FACT = "Tamsin Vale keeps bees in a hive behind the house."
QUESTION = "Which kitchen appliance stopped working?"
FACT_QUESTION = "Does Tamsin have any insects as a hobby?"


def make(db: Path, entries: list[str], fact: str) -> None:
    """A store at `db` holding `entries` (one diary day each) and one fact about OWNER."""
    add(db, entries, month=5)
    with open_store(db, embedder=EMBED.name) as store:
        with store.transaction():
            memory.add_entity(store, OWNER, "person")
        add_fact(store, OWNER, fact, EMBED)


def add(db: Path, entries: list[str], month: int) -> None:
    """Ingest `entries` into the store at `db` (made if missing), one day of `month` each."""
    diary = db.with_name(f"{db.stem}-diary.md")
    days = "".join(f"# 2024-{month:02d}-0{day}\n\n{text}\n\n" for day, text in enumerate(entries, start=1))
    diary.write_text(f"# Notes\n\n{days}", encoding="utf-8")
    with open_store(db, embedder=EMBED.name) as store:
        ingest(store, [str(diary)], EMBED)
    diary.unlink()


def delete(db: Path) -> None:
    """The store's file gone (and its WAL); its derived folder left where it was."""
    for path in (db, db.with_name(db.name + ".wal")):
        path.unlink(missing_ok=True)
