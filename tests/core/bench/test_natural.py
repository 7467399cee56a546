"""The natural-text section of `memhop bench`: entities scored against a cast, answers and
chains against a key, on small hand-made inputs; then once on the real dev set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from memhop.core.bench.natural import (
    Cast,
    CastEntity,
    GoldQuestion,
    NaturalResult,
    answer_contains,
    day_recall,
    input_files,
    load_cast,
    outcome,
    run_natural,
    score_entities,
    score_question,
)
from memhop.core.bench.report import natural_section, render, summary
from memhop.core.bench.result import BenchConfig, BenchResult
from memhop.core.bench.sources import BenchInputError, default_dev_dir, dev_dir
from memhop.core.config import Settings
from memhop.core.model import KnownEntity
from typer.testing import CliRunner

CAST = Cast(
    (
        CastEntity("Jun Park", "self", ("Jun",)),
        CastEntity("Seun Adeyemi", "person", ("Seun", "Oluwaseun Adeyemi", "my flatmate")),
        CastEntity("Rafaela Nogueira", "person", ("Rafa", "my climbing coach")),
        CastEntity("Siobhán Keane", "person", ("Siobhán",)),
        CastEntity("Crux Mill", "org"),
        CastEntity("Biscuit", "pet"),
    ),
    also_named=("Kirkstall", "Halden's"),
)


def entity(i: int, name: str, kind: str, *aliases: str) -> KnownEntity:
    return KnownEntity(i, name, kind, aliases)


STORED = [
    entity(1, "Jun Park", "self"),
    entity(2, "Seun", "org", "Seun Adeyemi"),  # right name, wrong kind ...
    entity(3, "Oluwaseun Adeyemi", "person"),  # ... and split: this one has the right kind
    entity(4, "Rafaela Nogueira", "person", "my climbing coach"),
    entity(5, "siobhan", "person"),  # case and accents do not matter
    entity(6, "Siobhán's", "org"),  # a possessive is another name: spurious
    entity(7, "Crux Mill", "person"),
    entity(8, "Kirkstall", "place"),  # also named in the text: fine
    entity(9, "Halden", "org"),  # "Halden's" is the name; "Halden" is not
    entity(10, "Easter", "place"),
]


def test_entities_found_right_kind_split_spurious_and_missed() -> None:
    score = score_entities(CAST, STORED)
    assert (score.gold, score.stored) == (6, 10)
    assert score.found == ["Jun Park", "Seun Adeyemi", "Rafaela Nogueira", "Siobhán Keane", "Crux Mill"]
    assert score.missed == ["Biscuit"]
    assert score.right_kind == ["Jun Park", "Seun Adeyemi", "Rafaela Nogueira", "Siobhán Keane"]
    assert score.wrong_kind == {"Crux Mill (org)": ["Crux Mill: person"]}
    assert score.split == {"Seun Adeyemi": ["Seun", "Oluwaseun Adeyemi"]}
    assert score.spurious == ["Siobhán's", "Halden", "Easter"]


def test_a_role_word_alias_is_not_needed_to_be_found_but_matches_when_stored() -> None:
    cast = Cast((CastEntity("Ruth Bradford", "person", ("Ruth", "my boss")),))
    assert score_entities(cast, [entity(1, "Ruth", "person")]).found == ["Ruth Bradford"]
    only_role = score_entities(cast, [entity(1, "my boss", "person")])
    assert only_role.found == ["Ruth Bradford"] and only_role.spurious == []
    assert score_entities(cast, [entity(1, "Bradford", "place")]).missed == ["Ruth Bradford"]


def test_answers_are_right_refused_or_wrong() -> None:
    assert outcome("the Lantern Rooms, in Leeds", "the Lantern Rooms") == "right"
    assert outcome("Lantern Rooms", "the Lantern Rooms") == "right"  # articles do not count
    assert outcome("Les Quizerables", "Les Quizérables") == "right"
    assert outcome("She turned 30 in May.", "3") == "wrong"  # whole words only
    assert outcome("I don't know", "Galway") == "refused"
    assert outcome("Leeds", "Galway") == "wrong"
    assert outcome("I don't know", "unknown") == "right"  # unanswerable: refusing is right
    assert outcome("the bass", "unknown") == "wrong"
    assert answer_contains("puff puff and chin chin", "puff-puff and chin chin")


def test_chain_reach_follows_cast_aliases_and_day_recall_counts_gold_dates() -> None:
    gold = GoldQuestion("Where is my flatmate's sister's wife from?", "Belo Horizonte", 3,
                        ("Jun Park", "Seun", "Rafa"), ("2024-02-11", "2024-02-24"), "multi")
    selected = ["Jun Park", "Rafaela Nogueira", "Easter"]  # "Rafa" is an alias in the cast only
    record = score_question(gold, "Belo Horizonte, Brazil", selected, ["2024-02-24", "2024-03-01"], CAST, STORED)
    assert record.reached and record.hops == (True, False, True)
    assert record.outcome == "right" and record.day_recall == 0.5
    missed = score_question(gold, "I don't know", ["Jun Park", "Oluwaseun Adeyemi"], [], CAST, STORED)
    assert not missed.reached and missed.hops == (True, True, False) and missed.outcome == "refused"
    assert missed.day_recall == 0.0
    assert day_recall([], ["2024-02-24"]) is None  # unanswerable: no gold evidence


def test_the_first_support_item_is_scored_against_the_gold() -> None:
    gold = GoldQuestion("Where is Rafa from?", "Belo Horizonte", 1, ("Rafa",), ("2024-02-11",), "single")
    cited = score_question(gold, "Belo Horizonte", [], [], CAST, STORED, "Rafa grew up in Belo Horizonte, she says.")
    assert cited.cited is True
    assert score_question(gold, "Recife", [], [], CAST, STORED, "Rafa loves Recife.").cited is False
    assert score_question(gold, "I don't know", [], [], CAST, STORED, None).cited is False
    nobody = GoldQuestion("Who is Rafa's dog?", "unknown", 1, ("Rafa",), (), "unanswerable")
    assert score_question(nobody, "I don't know", [], [], CAST, STORED, "Rafa has a cat.").cited is None
    tally = NaturalResult(Path("dev"), "Jun Park", [], 1, score_entities(CAST, STORED),
                          [cited, score_question(nobody, "I don't know", [], [], CAST, STORED, None)]).total
    assert (tally.cited, tally.answerable) == (1, 1)


def _result(records: list[tuple[str, str, str, int, str]]) -> NaturalResult:
    """(question, gold, answer, k, type); each chain is its own last entity, Jun Park."""
    scored = [score_question(GoldQuestion(q, gold, k, ("Jun Park",), ("2024-02-11",), kind), answer,
                             ["Jun Park"] if k == 1 else [], ["2024-02-11"], CAST, STORED)
              for q, gold, answer, k, kind in records]
    return NaturalResult(Path("dev"), "Jun Park", ["diary.md"], 10, score_entities(CAST, STORED), scored)


def test_tallies_by_k_and_type() -> None:
    result = _result([("a", "Galway", "Galway", 1, "single"), ("b", "Leeds", "I don't know", 2, "multi"),
                      ("c", "York", "Leeds", 2, "multi"), ("d", "unknown", "I don't know", 1, "unanswerable")])
    total = result.total
    assert (total.n, total.reached, total.right, total.refused, total.wrong) == (4, 2, 2, 1, 1)
    assert total.day_recall == 1.0 and total.entities_read == 0.5
    assert {k: (t.n, t.right) for k, t in result.by("k").items()} == {"1": (2, 2), "2": (2, 0)}
    assert list(result.by("type")) == ["multi", "single", "unanswerable"]


def test_the_report_and_summary_carry_the_section_or_say_why_not() -> None:
    bench = BenchResult(BenchConfig(Path("out")), "offline")
    assert "not run: no dev set folder" in natural_section(bench)
    assert summary(bench)["natural"] is None
    bench.natural = _result([("a", "Galway", "Galway", 1, "single")])
    report = render(bench, [])
    assert "## Natural text (dev set)" in report and "| 5/6 | 4/6 | 10 | 3/10 | 1 |" in report
    assert "- missed: Biscuit" in report and "| all | 1 | 1/1 | 1/1 | 0/1 | 0/1 | 0/1 | 100.0 | 1.0 |" in report
    natural = summary(bench)["natural"]
    assert isinstance(natural, dict)
    assert natural["entities"]["found"] == 5 and natural["questions"]["all"]["right"] == 1


def test_only_the_diary_and_chat_are_inputs_never_the_answer_key(tmp_path: Path) -> None:
    for name in ("README.md", "cast.json", "questions.json", "diary.md", "chat.txt", ".hidden"):
        (tmp_path / name).write_text("x", encoding="utf-8")
    assert [p.name for p in input_files(tmp_path)] == ["chat.txt", "diary.md"]


def test_a_missing_folder_or_answer_key_is_a_clear_error(tmp_path: Path) -> None:
    settings = Settings(db=tmp_path / "unused.duckdb")
    with pytest.raises(BenchInputError, match="no dev set folder"):
        run_natural(tmp_path / "absent", settings)
    (tmp_path / "diary.md").write_text("## 2024-01-01\n\nHello.\n", encoding="utf-8")
    with pytest.raises(BenchInputError, match="cast.json: missing"):
        run_natural(tmp_path, settings)
    (tmp_path / "cast.json").write_text(json.dumps({"entities": [{"kind": "self"}]}), encoding="utf-8")
    with pytest.raises(BenchInputError, match="not a cast file"):
        load_cast(tmp_path / "cast.json")


def test_the_default_dev_folder_is_beside_the_checkout_unless_overridden(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from support.paths import REPO

    monkeypatch.delenv("MEMHOP_DEV_DIR", raising=False)
    assert default_dev_dir() == REPO.parent / "shared" / "data" / "dev"
    monkeypatch.setenv("MEMHOP_DEV_DIR", str(tmp_path / "absent"))
    assert dev_dir(None) is None and dev_dir(tmp_path / "named") == tmp_path / "named"


def test_bench_with_a_missing_dev_folder_fails_before_the_long_part(
    home: Path, runner: CliRunner, tmp_path: Path
) -> None:
    from memhop.cli.app import app

    result = runner.invoke(app, ["bench", "--dev", str(tmp_path / "absent"), "--no-scale", "-q",
                                 "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "no dev set folder" in result.stderr and not (tmp_path / "out").exists()


@pytest.mark.slow
def test_the_real_dev_set_end_to_end(tmp_path: Path) -> None:
    folder = default_dev_dir()
    if not (folder / "questions.json").exists():
        pytest.skip(f"dev set not found at {folder}")
    result = run_natural(folder, Settings(db=tmp_path / "unused.duckdb"))
    assert result.inputs == ["group_chat.txt", "jun_diary.md"] and result.self_name == "Jun Park"
    assert result.turns > 150
    ent = result.entities
    assert ent.gold == 32 and len(ent.found) + len(ent.missed) == 32
    assert len(ent.right_kind) <= len(ent.found) and len(ent.spurious) <= ent.stored
    assert "Jun Park" in ent.right_kind  # the --self entity
    total = result.total
    assert total.n == 30 and total.right + total.refused + total.wrong == 30
    assert total.reached >= 10 and total.day_recall is not None and total.day_recall > 0.5
