"""Did a change to the ingest path change what is stored? Ingest with one checkout, dump the
store, do the same with another checkout, compare the two dumps.

    PYTHONPATH=<checkout A> .venv/bin/python benchmarks/same_store.py dump a.json [--self NAME] FILE...
    PYTHONPATH=<checkout B> .venv/bin/python benchmarks/same_store.py dump b.json [--self NAME] FILE...
    .venv/bin/python benchmarks/same_store.py compare a.json b.json

A dump holds every table the ingest writes (raw layer, entities with their kind votes,
profiles with their versions, residuals, mentions), ids included, sorted by key; clock
times are reduced to "set or not". Embeddings go to a .npz beside the .json and are compared
to a tolerance (1e-5 per component): the same text embedded in a different batch may differ
in the last bits of a float, nothing else may differ. Only the store's public opening and
ingest calls are used, so the script runs unchanged against an older checkout.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

TOLERANCE = 1e-5
_CLOCKS = {"created_at", "updated_at", "imported_at", "written_at", "happened_at"}
_TABLES = {  # table -> sort key
    "sources": "id",
    "sessions": "id",
    "turns": "id",
    "entities": "id",
    "profiles": "entity_id",
    "residuals": "id",
    "mentions": "entity_id, turn_id",
}


def _plain(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)  # dates, times


def dump(out: Path, files: list[str], self_name: str | None) -> None:
    from memhop.core.embed import get_embedder
    from memhop.core.engines.offline.engine import OfflineEngine
    from memhop.core.ingest import ingest
    from memhop.core.store import open_store

    tables: dict[str, Any] = {}
    vectors: dict[str, np.ndarray] = {}
    with tempfile.TemporaryDirectory() as tmp, open_store(Path(tmp) / "dump.duckdb") as store:
        report = ingest(store, files, get_embedder("minilm"), self_name=self_name, engine=OfflineEngine())
        failed = [f for f in report.files if f.status == "failed"]
        if failed or (report.write is not None and report.write.failures):
            sys.exit(f"ingest failed: {failed} {report.write.failures if report.write else ''}")
        for table, key in _TABLES.items():
            cursor = store.con.execute(f"SELECT * FROM {table} ORDER BY {key}")
            columns = [d[0] for d in cursor.description]
            rows = cursor.fetchall()
            kept = [c for c in columns if c != "embedding"]
            tables[table] = {
                "columns": kept,
                "rows": [[(row[columns.index(c)] is not None) if c in _CLOCKS else _plain(row[columns.index(c)])
                          for c in kept] for row in rows],
            }
            if "embedding" in columns:
                at = columns.index("embedding")
                vectors[table] = np.array([row[at] for row in rows], dtype=np.float32).reshape(len(rows), -1)
    out.write_text(json.dumps({"files": files, "self": self_name, "tables": tables}, ensure_ascii=False, indent=0))
    np.savez_compressed(out.with_suffix(".npz"), **vectors)
    print(f"{out}: " + ", ".join(f"{t} {len(v['rows'])}" for t, v in tables.items()))


def compare(a: Path, b: Path) -> bool:
    left, right = json.loads(a.read_text()), json.loads(b.read_text())
    same = True
    for table in _TABLES:
        x, y = left["tables"][table], right["tables"][table]
        if x != y:
            same = False
            extra = [r for r in x["rows"] if r not in y["rows"]][:3]
            missing = [r for r in y["rows"] if r not in x["rows"]][:3]
            print(f"{table}: DIFFERENT ({len(x['rows'])} vs {len(y['rows'])} rows); "
                  f"only in {a.name}: {extra}; only in {b.name}: {missing}")
        else:
            print(f"{table}: same ({len(x['rows'])} rows)")
    va, vb = np.load(a.with_suffix(".npz")), np.load(b.with_suffix(".npz"))
    for table in sorted(set(va.files) | set(vb.files)):
        if table not in va.files or table not in vb.files or va[table].shape != vb[table].shape:
            print(f"{table} embeddings: DIFFERENT shapes")
            same = False
            continue
        diff = float(np.max(np.abs(va[table] - vb[table]))) if va[table].size else 0.0
        ok = diff <= TOLERANCE
        same &= ok
        print(f"{table} embeddings: {'same' if ok else 'DIFFERENT'} (max |diff| {diff:.1e})")
    return same


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out", type=Path)
    d.add_argument("files", nargs="+")
    d.add_argument("--self", dest="self_name")
    c = sub.add_parser("compare")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    args = parser.parse_args()
    if args.command == "dump":
        dump(args.out, args.files, args.self_name)
    elif not compare(args.a, args.b):
        sys.exit("the stores differ")
    else:
        print("identical")


if __name__ == "__main__":
    main()
