"""How often the question router (core/route.py) agrees with LoCoMo's own categories.

LoCoMo labels each question by what answering it takes; the nearest router type of each:
multi-hop (mostly lists gathered over sessions) ≈ aggregation, temporal ≈ temporal,
open-domain (guesses about a person) ≈ inference, single-hop ≈ single fact. Adversarial
questions have no counterpart and are left out. The router's rules are written, not
learned, so there is nothing to cross-validate; each conversation is shown apart.
"""

from __future__ import annotations

from collections import Counter

from memhop.core.bench.metrics import markdown_table
from memhop.core.bench.result import BenchResult
from memhop.core.route import AGGREGATION, INFERENCE, KINDS, SINGLE, TEMPORAL, classify

EXPECTED = {"multi-hop": AGGREGATION, "temporal": TEMPORAL, "open-domain": INFERENCE, "single-hop": SINGLE}


def router_table(result: BenchResult) -> str:
    """Per LoCoMo category: how its questions were routed, and the agreement per conversation."""
    asked = {(r.source, r.qid): (r.group, r.question) for r in result.records
             if r.dataset == "locomo" and r.group in EXPECTED}
    if not asked:
        return "not available: no LoCoMo questions in this run"
    routed = {key: classify(text).kind for key, (_, text) in asked.items()}
    rows = []
    for category, kind in EXPECTED.items():
        keys = [k for k, (group, _) in asked.items() if group == category]
        if not keys:
            continue
        counts = Counter(routed[k] for k in keys)
        rows.append([f"{category} (≈ {kind})", str(len(keys)), *(str(counts[k]) for k in KINDS),
                     _share(counts[kind], len(keys))])
    per_source = []
    for source in sorted({s for s, _ in asked}):
        keys = [k for k in asked if k[0] == source]
        agree = sum(routed[k] == EXPECTED[asked[k][0]] for k in keys)
        per_source.append(f"{source} {_share(agree, len(keys))} ({agree}/{len(keys)})")
    table = markdown_table(["LoCoMo category (≈ type)", "n", *KINDS, "agree"], rows)
    return table + "\n\nAgreement per conversation: " + ", ".join(per_source) + "."


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "n/a"
