"""The `hero` retriever on real stores: cues filed at ingest (new turns only), a turn found
through a cue it shares with the question's turns though it shares no word with the
question, one ranking whatever the budget, the time window, the trace, and forget leaving
no cue of a forgotten name."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from support import purge_world
from typer.testing import CliRunner

from memhop.cli.app import app
from memhop.core import forget_plans
from memhop.core.config import ReadSettings
from memhop.core.embed import get_embedder
from memhop.core.forget import forget, scan_residue
from memhop.core.ingest import ingest
from memhop.core.language import lexical
from memhop.core.read import Context, read
from memhop.core.redact import SentenceRedactor
from memhop.core.store import Store, cues, open_store
from memhop.core.window import Window

EMBED = get_embedder("minilm")
QUESTION = "How are my lessons going?"
TARGET = "Need new strings for the cello before the recital, the A string keeps slipping."
FILLER = [
    "Made a big pot of lentil soup and froze half of it.",
    "Rain all afternoon, so the garden can wait until Sunday.",
    "The quarterly report finally went out, only two days late.",
    "Tried the new ramen place near the station, the broth was great.",
    "My sister called about the holiday plans for December.",
    "Fixed the squeaky hinge on the kitchen cupboard.",
    "Ran five kilometres before breakfast, legs are sore.",
    "The printer at the office jammed three times today.",
    "Booked train tickets to the coast for the long weekend.",
    "Watched a documentary about octopuses, they are so clever.",
    "Picked up a basil plant from the market for the windowsill.",
    "The team meeting ran over because of the budget discussion.",
]
TOPIC = [
    "Signed up for cello lessons with a teacher across town, first one is on Tuesday.",
    "Cello lessons were tough today, my bow arm still aches.",
    "Driving lessons start next month and I am already nervous about parking.",
    "My nephew's swimming lessons got cancelled because the pool is closed.",
    TARGET,
]


def notes(texts: list[str], first_day: int = 1) -> str:
    """A JSONL notes export, one note a day in March 2024 from the diarist Robin Vale."""
    return "".join(
        json.dumps({"id": f"n{first_day + i}", "timestamp": f"2024-03-{first_day + i:02d}T10:00:00",
                    "speaker": "Robin Vale", "text": text}) + "\n"
        for i, text in enumerate(texts)
    )


@pytest.fixture(scope="module")
def lessons(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A raw-layer store (no write path needed: cues are filed with the turns)."""
    folder = tmp_path_factory.mktemp("hero-lessons")
    source = folder / "notes.jsonl"
    source.write_text(notes(FILLER[:6] + TOPIC + FILLER[6:]), encoding="utf-8")
    with open_store(folder / "memhop.duckdb") as store:
        ingest(store, [str(source)], EMBED)
    return folder / "memhop.duckdb"


@pytest.fixture
def store(lessons: Path) -> Iterator[Store]:
    with open_store(lessons, read_only=True) as opened:
        yield opened


def run(store: Store, question: str, evidence: int, window: Window | None = None) -> Context:
    return read(store, question, EMBED, replace(ReadSettings(), retriever="hero", evidence=evidence), window)


def filed(store: Store) -> set[tuple[int, str, str]]:
    rows = store.con.execute("SELECT turn_id, cue, kind FROM turn_cues").fetchall()
    assert len(rows) == len(set(rows))  # no turn filed twice under one cue (PPR and idf count rows)
    return set(rows)


def derived(store: Store) -> set[tuple[int, str, str]]:
    """What the cue table must hold: every live turn's cues, worked out from its text."""
    turns = store.con.execute("SELECT id, speaker, text FROM turns").fetchall()
    return {(turn_id, cue, kind) for turn_id, speaker, text in turns for cue, kind in cues.cues_of(speaker, text)}


def test_ingest_files_each_new_turn_under_its_speaker_and_content_words(
    tmp_path: Path, home: Path, runner: CliRunner
) -> None:
    db, first, second = tmp_path / "memhop.duckdb", tmp_path / "march.jsonl", tmp_path / "march-more.jsonl"
    first.write_text(notes(TOPIC), encoding="utf-8")
    second.write_text(notes([*TOPIC, "Bought rosin for the bow at the music shop."]), encoding="utf-8")
    assert runner.invoke(app, ["ingest", str(first), "--db", str(db), "-q"]).exit_code == 0
    with open_store(db, read_only=True) as opened:
        once = filed(opened)
        assert once == derived(opened)
        cello_turns = {t for t, cue, kind in once if (cue, kind) == ("cello", "word")}
        assert len(cello_turns) == 3 and {("robin vale", "speaker")} <= {(c, k) for _, c, k in once}
        assert not {c for _, c, _ in once} & set(lexical.STOPWORDS)
    assert runner.invoke(app, ["ingest", str(first), "--db", str(db), "-q"]).exit_code == 0  # unchanged
    assert runner.invoke(app, ["ingest", str(second), "--db", str(db), "-q"]).exit_code == 0  # one new turn
    with open_store(db, read_only=True) as opened:
        again = filed(opened)
        assert again == derived(opened) and once < again
        added = {t for t, _, _ in again - once}
        assert len(added) == 1 and ("rosin", "word") in {(c, k) for t, c, k in again if t in added}


def test_a_turn_sharing_no_word_with_the_question_is_found_through_a_cue(store: Store) -> None:
    assert not set(lexical.terms(QUESTION)) & set(lexical.terms(TARGET))
    context = run(store, QUESTION, 6)
    stages = context.trace.retrieval
    assert stages[0].startswith("seed cues (idf): lesson")
    assert "kept 1: cello" in stages[1]  # co-occurs with "lesson" in two turns, and is about the question
    assert "robin vale" in stages[1].split("; dropped")[1]  # the diarist speaks every turn: no closer than the store
    found = {e.turn.text: e.pick.reason for e in context.evidence}
    assert found.get(TARGET) == "cue graph (PPR)"
    assert [e.pick.reason for e in context.evidence][:5] == ["cue graph (PPR)"] * 5


def test_a_person_the_question_names_is_a_seed_not_an_expansion(store: Store) -> None:
    stages = run(store, "What lessons is Robin Vale taking?", 6).trace.retrieval
    assert stages[0].startswith("seed cues (idf): ") and "Robin Vale" in stages[0]
    assert "robin vale" not in stages[1]  # not offered again as a cue co-occurring with the seeds


def test_the_first_k_of_a_bigger_budget_are_budget_k(store: Store) -> None:
    for question in (QUESTION, "What did I cook?", "strings"):
        small, big = run(store, question, 4), run(store, question, 30)
        assert [e.turn.id for e in big.evidence][:4] == [e.turn.id for e in small.evidence]
        assert len({e.turn.id for e in big.evidence}) == len(big.evidence) == len(FILLER) + len(TOPIC)  # every turn, once


def test_only_turns_inside_the_time_window(store: Store) -> None:
    window = Window(date(2024, 3, 1), date(2024, 3, 8))  # the first two lesson notes, not the rest
    context = run(store, QUESTION, 10, window)
    assert context.evidence and all(window.contains(e.turn.timestamp) for e in context.evidence)
    assert TARGET not in {e.turn.text for e in context.evidence}


def test_ask_traces_hero_s_stages(lessons: Path, home: Path, runner: CliRunner) -> None:
    result = runner.invoke(app, ["ask", QUESTION, "--retriever", "hero", "--trace", "--db", str(lessons)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    for shown in ("ranked by hero", "seed cues (idf): lesson", "cue expansion (kept when cos >",
                  "personalized PageRank (d=0.85):", "ranked by PPR:"):
        assert shown in text


BOB = "Bob Kowalski"


@pytest.mark.parametrize("drop_turns", [False, True], ids=["rewritten", "dropped"])
def test_forget_leaves_no_cue_of_the_forgotten_name(purge_template: Path, tmp_path: Path, drop_turns: bool) -> None:
    db = purge_world.install(purge_template, tmp_path / "home")
    with open_store(db) as opened:
        bob_cues = {"bob", "kowalski", "bob kowalski"}
        assert {c for _, c, _ in filed(opened)} & bob_cues  # filed at ingest, before
        plan = forget_plans.plan_entity(opened, BOB, SentenceRedactor(), drop_turns=drop_turns)
        report = forget(opened, purge_world.EMBEDDER, name=BOB, drop_turns=drop_turns)
        assert report.residue is not None and report.residue["text_hits"] == {}
        left = filed(opened)
        assert not {c for _, c, _ in left} & bob_cues
        assert left == derived(opened)  # rewritten turns filed by their new words only, dropped ones not at all
        turn = opened.con.execute("SELECT min(id) FROM turns").fetchone()
        assert turn is not None
        opened.con.execute("INSERT INTO turn_cues VALUES (?, 'kowalski', 'word')", [turn[0]])
        assert scan_residue(opened, plan)["text_hits"] == {"turn_cues (the name)": 1}  # the scan checks the table


def test_forgetting_a_source_drops_its_turns_cues(purge_template: Path, tmp_path: Path) -> None:
    db = purge_world.install(purge_template, tmp_path / "home")
    with open_store(db) as opened:
        path = opened.con.execute("SELECT path FROM sources ORDER BY id LIMIT 1").fetchone()
        assert path is not None
        before = len(filed(opened))
        plan = forget_plans.plan_source(opened, path[0])
        report = forget(opened, purge_world.EMBEDDER, source=path[0])
        assert report.residue is not None and report.residue["text_hits"] == {}
        left = filed(opened)
        assert len(left) < before and left == derived(opened)
        removed = plan.deleted_keys("turns", "id")
        assert removed and not {t for t, _, _ in left} & removed
        opened.con.execute("INSERT INTO turn_cues VALUES (?, 'kowalski', 'word')", [min(removed)])
        assert scan_residue(opened, plan)["text_hits"] == {"turn_cues (its turns)": 1}  # the scan checks the table
