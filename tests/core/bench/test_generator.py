"""The MemHop-style generator: deterministic scenarios whose questions are answerable from
the diary alone, with exact per-hop gold evidence, ingestible through the normal path."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from memhop.core.bench.ingest import ingest_parsed
from memhop.core.bench.generator import Scenario, generate, generate_scenario
from memhop.core.embed import get_embedder
from memhop.core.language.names import mentions
from memhop.core.store import open_store


@pytest.fixture(scope="module")
def scenarios() -> list[Scenario]:
    return generate(3, seed=7, questions=100)


def _texts(scenario: Scenario) -> dict[str, str]:
    return {t.external_id or "": t.text for s in scenario.parsed.sessions for t in s.turns}


def test_same_seed_same_benchmark_other_seed_another() -> None:
    a, b, c = generate_scenario(1, seed=3), generate_scenario(1, seed=3), generate_scenario(1, seed=4)
    assert a.parsed == b.parsed and a.questions == b.questions
    assert a.parsed != c.parsed


def test_memhop_shape(scenarios: list[Scenario]) -> None:
    for sc in scenarios:
        assert Counter(q.k for q in sc.questions) == {1: 25, 2: 25, 3: 20, 4: 18, 5: 12}
        kinds = Counter(c.kind for c in sc.characters)
        assert 4 <= kinds["person"] <= 6 and kinds["pet"] >= 1 and kinds["place"] >= 1
        assert 6 <= len(sc.links) <= 10
        assert len(sc.parsed.sessions) == 20 and 150 <= sc.turns <= 320
        assert len({q.text for q in sc.questions}) == len(sc.questions)


def test_diary_is_first_person_by_the_diarist(scenarios: list[Scenario]) -> None:
    sc = scenarios[0]
    assert sc.parsed.format == "benchgen" and sc.parsed.owner == sc.diarist
    turns = [t for s in sc.parsed.sessions for t in s.turns]
    assert {t.speaker for t in turns} == {sc.diarist}
    assert len({t.external_id for t in turns}) == len(turns)
    assert any(t.text.startswith(("Yesterday", "Last Saturday", "Two days ago")) for t in turns)
    assert any(" my " in f" {t.text} " for t in turns)


def _names(text: str, name: str, diarist: str) -> bool:
    """A turn names an entity: by name, or the diarist by writing in the first person."""
    if name == diarist:
        return any(w in f" {text} " for w in (" my ", " My ", " I ", " I'm ")) or text.startswith(("Long day", "Locked up"))
    return mentions(text, name)


def test_every_hop_is_documented_by_its_gold_turns(scenarios: list[Scenario]) -> None:
    for sc in scenarios:
        texts = _texts(sc)
        for q in sc.questions:
            assert len(q.hops) == q.k and len(q.chain) == q.k and q.hops[-1].answer == q.answer
            for i, hop in enumerate(q.hops[:-1]):
                assert hop.evidence and hop.answer == q.chain[i + 1]
                for ext in hop.evidence:
                    assert _names(texts[ext], q.chain[i], sc.diarist), texts[ext]
                    assert _names(texts[ext], q.chain[i + 1], sc.diarist), texts[ext]
            last = q.hops[-1]
            assert last.evidence
            for ext in last.evidence:
                assert q.answer.lower() in texts[ext].lower() and mentions(texts[ext], q.chain[-1]), texts[ext]


def test_questions_start_from_the_first_entity_and_wrong_values_exist(scenarios: list[Scenario]) -> None:
    for sc in scenarios:
        for q in sc.questions:
            start = q.chain[0]
            assert mentions(q.text, start) or (start == sc.diarist and " my " in q.text)
            assert q.answer not in q.distractors
        assert sum(bool(q.distractors) for q in sc.questions) > 0.8 * len(sc.questions)


def test_state_changes_answer_with_the_new_value(scenarios: list[Scenario]) -> None:
    changed = [(sc, key, v) for sc in scenarios for key, v in sc.facts.items() if v[1] is not None]
    assert changed, "some scenario should hold a state change"
    asked = 0
    for sc, (holder, _slot), (new, old) in changed:
        texts = _texts(sc)
        session = lambda ext: int(ext[1:].split(":")[0])
        first_old = min(session(e) for e, t in texts.items() if old in t)
        assert any(session(e) > first_old for e, t in texts.items() if new in t)
        name = next(c.name for c in sc.characters if c.key == holder)
        for q in sc.questions:
            if q.chain[-1] == name and q.answer in (new, old):
                asked += 1
                assert q.answer == new and old in q.distractors
    assert asked


def test_smaller_question_counts_keep_every_depth() -> None:
    sc = generate_scenario(0, questions=10)
    assert sorted({q.k for q in sc.questions}) == [1, 2, 3, 4, 5]


def test_a_scenario_ingests_through_the_raw_layer_once(tmp_path: Path, scenarios: list[Scenario]) -> None:
    sc = scenarios[0]
    embedder = get_embedder("minilm")
    with open_store(tmp_path / "bench.duckdb") as store:
        first = ingest_parsed(store, sc.parsed, "scenario-0", embedder)
        again = ingest_parsed(store, sc.parsed, "scenario-0", embedder)
        stored = {r[0] for r in store.con.execute("SELECT external_id FROM turns").fetchall()}
        owner = store.scalar("SELECT DISTINCT self_name FROM sessions")
    assert (first.sessions, first.turns) == (20, sc.turns)
    assert (again.sessions, again.turns) == (0, 0)
    assert stored == set(_texts(sc)) and owner == sc.diarist
