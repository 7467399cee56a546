"""`memhop ask` as a user runs it: the answer, --trace, --json, batch mode from stdin, and
the errors and empty cases."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memhop.cli.app import app
from memhop.core.store import open_store
from support.paths import SAMPLES
from support.read_world import build_world

ROOMMATE = "What instrument does Alice's roommate play?"
JSON_KEYS = {"question", "answer", "answered", "support", "selected", "facts", "evidence", "trace"}
EVIDENCE_KEYS = {"turn_id", "external_id", "session", "speaker", "timestamp", "text"}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_world(tmp_path_factory.mktemp("ask-world"))


@pytest.fixture
def invoke(home: Path, runner: CliRunner, world: Path) -> Iterator[object]:
    def run(*args: str, stdin: str | None = None, db: Path | None = world):
        extra = ["--db", str(db)] if db is not None else []
        return runner.invoke(app, ["ask", *args, *extra], input=stdin)

    yield run


def test_answers_the_roommate_question_with_the_hop_in_the_trace(invoke) -> None:
    result = invoke(ROOMMATE, "--trace", "--top", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "piano"
    text = result.stdout
    assert "hop 1" in text and "named by Alice Nguyen" in text and "[Bob Kowalski]" in text
    assert "Chain: Alice Nguyen → Bob Kowalski" in text and "stopped:" in text
    assert "answered by offline" in text
    assert "Bob Kowalski plays the piano." in text and "superseded" in text
    tree = lines[next(i for i, line in enumerate(lines) if line.startswith("Trace: ")):]
    assert all(len(line) <= 80 for line in tree), max(tree, key=len)  # support lines above it are one per memory


def test_the_json_trace_names_the_engine_that_answered(invoke) -> None:
    assert json.loads(invoke(ROOMMATE, "--json").stdout)["trace"]["answered_by"] == "offline"


def test_no_expand_removes_the_hop(invoke) -> None:
    result = invoke(ROOMMATE, "--json", "--top", "1", "--no-expand")
    data = json.loads(result.stdout)
    assert data["trace"]["hops"] == [] and data["selected"] == ["Alice Nguyen"]
    assert data["trace"]["stopped"] == "expansion disabled"


def test_json_has_exactly_the_documented_keys(invoke) -> None:
    result = invoke(ROOMMATE, "--json", "--evidence", "3")
    data = json.loads(result.stdout)
    assert set(data) == JSON_KEYS
    assert data["question"] == ROOMMATE and data["answer"] == "piano"
    assert set(data["facts"]) == set(data["selected"])
    assert len(data["evidence"]) == 3 and all(set(e) == EVIDENCE_KEYS for e in data["evidence"])
    assert data["trace"]["evidence"][0]["turn_id"] == data["evidence"][0]["turn_id"]


def test_unrelated_question_says_i_dont_know(invoke) -> None:
    result = invoke("What is the capital of Peru?", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["answer"] == "I don't know" and "gate" in data["trace"]["stopped"]


def test_no_facts_flag_drops_facts(invoke) -> None:
    data = json.loads(invoke(ROOMMATE, "--json", "--no-facts").stdout)
    assert data["facts"] and all(facts == [] for facts in data["facts"].values())
    assert data["trace"]["settings"]["facts"] is False and "residual" not in json.dumps(data)
    tree = invoke(ROOMMATE, "--trace", "--no-facts").stdout
    assert "facts disabled (--no-facts)" in tree


def test_questions_from_stdin_give_one_json_line_each(invoke) -> None:
    result = invoke("-", stdin=f"{ROOMMATE}\n\nWhat is the capital of Peru?\n")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    answers = [json.loads(line) for line in lines]
    assert [a["answer"] for a in answers] == ["piano", "I don't know"]
    assert all(set(a) == JSON_KEYS for a in answers)


def test_a_missing_store_is_an_error(invoke, tmp_path: Path) -> None:
    result = invoke(ROOMMATE, db=tmp_path / "nope.duckdb")
    assert result.exit_code == 1
    assert "no memhop store" in result.stderr and result.stdout == ""


def test_an_empty_store_does_not_know(invoke, tmp_path: Path) -> None:
    open_store(tmp_path / "empty.duckdb").close()
    result = invoke(ROOMMATE, "--trace", db=tmp_path / "empty.duckdb")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "I don't know" and "no profiles yet" in result.stdout


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not SAMPLES.is_dir():
        pytest.skip("no sample_diaries/")
    db = tmp_path_factory.mktemp("samples") / "memhop.duckdb"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MEMHOP_HOME", str(db.parent))
        result = CliRunner().invoke(app, ["ingest", str(SAMPLES), "--self", "Maya Patel", "-q", "--db", str(db)])
    assert result.exit_code == 0, result.output
    return db


@pytest.mark.slow
def test_end_to_end_on_the_sample_diaries(invoke, samples: Path) -> None:
    data = json.loads(invoke(ROOMMATE, "--json", db=samples).stdout)
    assert data["answer"] == "piano"
    assert data["trace"]["chain"][:2] == ["Alice Nguyen", "Bob Kowalski"]
    assert "[Bob" in data["trace"]["links"][0]["matched"]
    hop = json.loads(invoke(ROOMMATE, "--json", "--top", "1", db=samples).stdout)["trace"]["hops"][0]
    bob = next(c for c in hop["candidates"] if c["entity"] == "Bob Kowalski")
    assert bob["named_by"] == "Alice Nguyen" and bob["passed"] and "[Bob" in bob["matched"]
    flat = json.loads(invoke(ROOMMATE, "--json", "--top", "1", "--no-expand", db=samples).stdout)
    assert flat["trace"]["hops"] == [] and "Bob Kowalski" not in flat["selected"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What does Alice's roommate's sister do?", "vet"),
        ("What instrument do I play?", "violin"),
        ("Where does Bob work?", "Northlight Studios"),
        ("What is the capital of Peru?", "I don't know"),
    ],
)
def test_sample_questions(invoke, samples: Path, question: str, answer: str) -> None:
    assert json.loads(invoke(question, "--json", db=samples).stdout)["answer"] == answer


def test_the_answer_is_followed_by_the_memories_it_was_read_from(invoke) -> None:
    result = invoke(ROOMMATE)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "piano" and 2 <= len(lines) <= 4
    assert lines[1].startswith("3 Feb 2024 · Maya Patel · diary.md — ") and "piano" in lines[1]


def test_a_refusal_shows_the_closest_memories_and_still_exits_0(invoke) -> None:
    result = invoke("What is the capital of Peru?")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:2] == ["I don't know", "Closest memories:"] and len(lines) == 5
    assert all(" · " in line and " — " in line for line in lines[2:])
    data = json.loads(invoke("What is the capital of Peru?", "--json").stdout)
    assert data["answered"] is False and len(data["support"]) == 3 and all(s["closest"] for s in data["support"])


def test_json_support_is_best_first_with_where_it_came_from(invoke) -> None:
    data = json.loads(invoke(ROOMMATE, "--json").stdout)
    assert data["answered"] is True
    first = data["support"][0]
    assert "piano" in first["quote"].lower() and not first["closest"]
    assert (first["date"], first["speaker"], first["source"]) == ("2024-02-03", "Maya Patel", "diary.md")


def test_the_trace_ends_with_the_answer_and_its_sentence(invoke) -> None:
    lines = invoke(ROOMMATE, "--trace").stdout.splitlines()
    answer_at = next(i for i, line in enumerate(lines) if "Answer: piano" in line)
    tail = "\n".join(lines[answer_at:])
    assert "read from" in tail and "diary.md" in tail and "[piano]" in tail
    assert not lines[answer_at].startswith("│")  # the last branch of the tree


def test_since_and_until_limit_the_evidence(invoke) -> None:
    data = json.loads(invoke(ROOMMATE, "--json", "--since", "April 2024").stdout)
    assert data["evidence"] and all(e["timestamp"] >= "2024-04-01" for e in data["evidence"])
    data = json.loads(invoke(ROOMMATE, "--json", "--until", "2024-02-10").stdout)
    assert all(e["timestamp"] < "2024-02-11" for e in data["evidence"])


def test_a_date_that_is_not_one_is_a_one_line_usage_error(invoke) -> None:
    result = invoke(ROOMMATE, "--since", "soonish")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "--since" in result.stderr and "soonish" in result.stderr


def test_the_retriever_is_chosen_by_name_and_traced(invoke, home: Path) -> None:
    data = json.loads(invoke(ROOMMATE, "--json", "--retriever", "graph", "--evidence", "5").stdout)
    trace = data["trace"]
    assert trace["retriever"] == "graph" and trace["settings"]["retriever"] == "graph"
    assert trace["retrieval"][0].startswith("entity gating") and len(data["evidence"]) == 5
    shown = invoke(ROOMMATE, "--trace", "--retriever", "evograph")
    assert shown.exit_code == 0 and "ranked by evograph" in shown.stdout and "co-occurrence:" in shown.stdout
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.yaml").write_text("read:\n  retriever: fused\n")
    assert json.loads(invoke(ROOMMATE, "--json").stdout)["trace"]["retriever"] == "fused"
    assert json.loads(invoke(ROOMMATE, "--json", "--retriever", "prograph").stdout)["trace"]["retriever"] == "prograph"


def test_an_unknown_retriever_is_a_one_line_usage_error(invoke) -> None:
    result = invoke(ROOMMATE, "--retriever", "nonesuch")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "unknown retriever 'nonesuch'" in result.stderr


@pytest.mark.parametrize(("question", "kind", "because"), [
    ("Which instruments has Maya played?", "aggregation", "plural object"),
    ("When did Bob start his new job?", "temporal", "when"),
    ("Would Bob likely enjoy a piano recital?", "inference", "would"),
    (ROOMMATE, "single fact", "no rule"),
])
def test_the_trace_gives_the_question_type_and_why(invoke, question: str, kind: str, because: str) -> None:
    route = json.loads(invoke(question, "--json").stdout)["trace"]["route"]
    assert route["kind"] == kind and because in route["why"]
    text = invoke(question, "--trace").stdout
    assert f"Question type: {kind} (" in text


def test_an_inference_question_is_ranked_by_its_words_without_the_guess(invoke) -> None:
    data = json.loads(invoke("Would Bob likely enjoy a piano recital?", "--json").stdout)
    assert data["trace"]["query"] == "enjoy a piano recital?"


def test_a_store_made_anew_where_a_deleted_one_was_answers_from_its_own_turns(
    invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deleted store's `.vectors` folder stays beside the new one, its counts the same:
    the evidence is still the new store's turns, ranked by their own vectors."""
    pytest.importorskip("usearch")
    from memhop.core.store import vectors
    from support import replaced_store

    monkeypatch.setattr(vectors, "ANN_MIN_TURNS", 3)  # searched through the derived files
    db = tmp_path / "memhop.duckdb"
    replaced_store.make(db, replaced_store.OLD, replaced_store.OLD_FACT)
    first = invoke(replaced_store.QUESTION, "--json", db=db)
    assert first.exit_code == 0, first.output
    assert vectors.directory(db).is_dir()
    replaced_store.delete(db)
    replaced_store.make(db, replaced_store.NEW, replaced_store.NEW_FACT)
    again = invoke(replaced_store.QUESTION, "--json", db=db)
    assert again.exit_code == 0, again.output
    texts = [e["text"] for e in json.loads(again.stdout)["evidence"]]
    assert texts[0] == replaced_store.NEW[0] and set(texts) <= set(replaced_store.NEW)
