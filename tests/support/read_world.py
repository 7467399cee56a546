"""A small memory with a depth-2 chain and distractors, built without the write path:
raw turns through `ingest`, entities, profiles and residuals through core/store/memory.

Maya (the diarist, violin) -> her friend Alice -> Alice's roommate Bob (piano) -> Bob's
sister Carol (vet, greyhound Pepper); Dan (drums) is Maya's colleague. Bob's old bakery
job is superseded by his sound-engineer job.
"""

from __future__ import annotations

from pathlib import Path

from memhop.core.embed import get_embedder
from memhop.core.model import ResidualDraft
from memhop.core.ingest import ingest
from memhop.core.store import open_store
from memhop.core.store import memory

DIARY = """# Maya's diary

# 2024-02-03

Had dinner at Alice's tonight — her roommate Bob played the piano for us after we ate. He was really good.

# 2024-02-09

Dan Okafor from my team was drumming on his desk all afternoon. He plays the drums in a covers band called The Late Replies.

# 2024-02-17

Violin practice this morning, 40 mins of scales. I've played the violin since I was nine.

# 2024-03-02

Bob's older sister Carol is down from Leeds for the weekend. She is a vet up there and brought her greyhound Pepper.

# 2024-04-08

Bob started his new job as a sound engineer at Northlight Studios last Tuesday. He's left the bakery for good.
"""

# name, kind, aliases, profile
ENTITIES = [
    ("Maya Patel", "self", (), "Maya Patel keeps this diary. She plays the violin and works at Brightwave with Dan Okafor. Her best friend is Alice Nguyen."),
    ("Alice Nguyen", "person", (), "Alice Nguyen is Maya's best friend from university. Alice lives with her roommate Bob Kowalski in a small flat on Elm Street."),
    ("Bob Kowalski", "person", ("Bob",), "Bob Kowalski is Alice's roommate, a gifted musician who practises every evening. His older sister is Carol."),
    ("Carol", "person", (), "Carol is Bob's older sister. She lives in Leeds, where she works as a vet, and owns a greyhound called Pepper."),
    ("Dan Okafor", "person", (), "Dan Okafor is Maya's colleague at Brightwave. He is in a covers band called The Late Replies."),
    ("Brightwave", "org", (), "Brightwave is the design agency where Maya Patel and Dan Okafor work."),
]

# entity, text, category, diary entry (session) index of the source turn, slot
RESIDUALS = [
    ("Maya Patel", "Maya Patel plays the violin.", "identity", 2, None),
    ("Alice Nguyen", "Alice Nguyen lives with her roommate Bob Kowalski.", "cross_entity", 0, None),
    ("Bob Kowalski", "Bob Kowalski plays the piano.", "identity", 0, None),
    ("Bob Kowalski", "Bob Kowalski works at a bakery.", "identity", 0, "job"),
    ("Bob Kowalski", "Bob Kowalski works as a sound engineer at Northlight Studios.", "state_change", 4, "job"),
    ("Carol", "Carol is a vet in Leeds.", "identity", 3, None),
    ("Dan Okafor", "Dan Okafor plays the drums in The Late Replies.", "identity", 1, None),
]
STALE = "Bob Kowalski works at a bakery."


def build_world(root: Path) -> Path:
    """Write the diary, ingest it and add the memory layers; returns the store path."""
    root.mkdir(parents=True, exist_ok=True)
    diary = root / "diary.md"
    diary.write_text(DIARY, encoding="utf-8")
    db = root / "memhop.duckdb"
    embedder = get_embedder("minilm")
    with open_store(db, embedder="minilm") as store:  # a float store, as before int8 was the default
        ingest(store, [str(diary)], embedder, self_name="Maya Patel")
        sessions = [r[0] for r in store.con.execute("SELECT id FROM sessions ORDER BY started_at").fetchall()]
        first_turn = {
            s: store.scalar("SELECT min(id) FROM turns WHERE session_id = ?", [s]) for s in sessions
        }
        with store.transaction():
            ids = {}
            for name, kind, aliases, profile in ENTITIES:
                ids[name] = memory.add_entity(store, name, kind, aliases)
                memory.put_profile(store, ids[name], profile, embedder.embed([profile])[0])
            new_ids = {}
            for name, text, category, entry, slot in RESIDUALS:
                draft = ResidualDraft(text, category, (int(first_turn[sessions[entry]]),), slot=slot)
                (new_ids[text],) = memory.insert_residuals(store, ids[name], [draft], embedder.embed([text]))
            memory.supersede(store, [new_ids[STALE]], new_ids[RESIDUALS[4][1]])
            for name in ids:
                turns = store.con.execute(
                    "SELECT id FROM turns WHERE text ILIKE ?", [f"%{name.split()[0]}%"]
                ).fetchall()
                memory.add_mentions(store, ids[name], [t[0] for t in turns])
    return db
