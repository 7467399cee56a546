"""The natural-text dev set in a few seconds: entities against the cast, questions against the key.

    .venv/bin/python benchmarks/natural.py [path/to/dev] [--json]

Ingests the folder's diary and chat (never its answer key: README.md, cast.json,
questions.json) into a fresh temporary store with the offline engine, as `memhop ingest
--self "<the cast's self>"` does, asks every question as `memhop ask` does, and prints the
tables of `memhop bench`'s natural-text section, or with --json its numbers, lists and
per-question records. The default folder is shared/data/dev beside the checkout, or
$MEMHOP_DEV_DIR. Run it after each engine change.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

from memhop.core.bench.sources import default_dev_dir


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=default_dev_dir(),
                        help="the dev set folder (default: %(default)s)")
    parser.add_argument("--json", action="store_true", help="numbers, lists and per-question records as JSON")
    args = parser.parse_args()
    if not args.folder.is_dir():
        print(f"no dev set folder at {args.folder}: name one, or set $MEMHOP_DEV_DIR", file=sys.stderr)
        return 2

    from memhop.core.bench.natural import run_natural
    from memhop.core.bench.report import natural_entities, natural_questions
    from memhop.core.config import load_settings
    from memhop.core.errors import MemhopError

    try:
        result = run_natural(args.folder, load_settings(engine="offline"))
    except MemhopError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    if args.json:
        doc = result.summary() | {"records": [asdict(q) for q in result.questions]}
        print(json.dumps(doc, indent=2, ensure_ascii=False))
        return 0
    print(f"{result.folder}: {', '.join(result.inputs)} ({result.turns} turns), offline engine, "
          f"self {result.self_name!r}; {result.seconds:.1f} s\n")
    print("Entities against the cast\n\n" + natural_entities(result) + "\n")
    print("Questions\n\n" + natural_questions(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
