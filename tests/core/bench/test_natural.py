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
    support_holds,
)
from memhop.core.bench.report import natural_section, render, summary
from memhop.core.bench.result import BenchConfig, BenchResult
from memhop.core.bench.sources import BenchInputError, default_dev_dir, dev_dir
from memhop.core.config import Settings
from memhop.core.model import KnownEntity
from typer.testing import CliRunner

CAST = Cast(
    (
        CastEntity("Ada Heath", "self", ("Ada",)),
        CastEntity("Kunle Babatunde", "person", ("Kunle", "Olakunle Babatunde", "my flatmate")),
        CastEntity("Tatiana Monteiro", "person", ("Tati", "my swimming coach")),
        CastEntity("Órlaith Rooney", "person", ("Órlaith",)),
        CastEntity("Boulder Barn", "org"),
        CastEntity("Noodle", "pet"),
    ),
    also_named=("Hollinwell", "Marrick's"),
)


def entity(i: int, name: str, kind: str, *aliases: str) -> KnownEntity:
    return KnownEntity(i, name, kind, aliases)


STORED = [
    entity(1, "Ada Heath", "self"),
    entity(2, "Kunle", "org", "Kunle Babatunde"),  # right name, wrong kind ...
    entity(3, "Olakunle Babatunde", "person"),  # ... and split: this one has the right kind
    entity(4, "Tatiana Monteiro", "person", "my swimming coach"),
    entity(5, "orlaith", "person"),  # case and accents do not matter
    entity(6, "Órlaith's", "org"),  # a possessive is another name: spurious
    entity(7, "Boulder Barn", "person"),
    entity(8, "Hollinwell", "place"),  # also named in the text: fine
    entity(9, "Marrick", "org"),  # "Marrick's" is the name; "Marrick" is not
    entity(10, "Easter", "place"),
]


def test_entities_found_right_kind_split_spurious_and_missed() -> None:
    score = score_entities(CAST, STORED)
    assert (score.gold, score.stored) == (6, 10)
    assert score.found == ["Ada Heath", "Kunle Babatunde", "Tatiana Monteiro", "Órlaith Rooney", "Boulder Barn"]
    assert score.missed == ["Noodle"]
    assert score.right_kind == ["Ada Heath", "Kunle Babatunde", "Tatiana Monteiro", "Órlaith Rooney"]
    assert score.wrong_kind == {"Boulder Barn (org)": ["Boulder Barn: person"]}
    assert score.split == {"Kunle Babatunde": ["Kunle", "Olakunle Babatunde"]}
    assert score.spurious == ["Órlaith's", "Marrick", "Easter"]


def test_a_role_word_alias_is_not_needed_to_be_found_but_matches_when_stored() -> None:
    cast = Cast((CastEntity("Hilary Stanton", "person", ("Hilary", "my boss")),))
    assert score_entities(cast, [entity(1, "Hilary", "person")]).found == ["Hilary Stanton"]
    only_role = score_entities(cast, [entity(1, "my boss", "person")])
    assert only_role.found == ["Hilary Stanton"] and only_role.spurious == []
    assert score_entities(cast, [entity(1, "Stanton", "place")]).missed == ["Hilary Stanton"]


def test_answers_are_right_refused_or_wrong() -> None:
    assert outcome("the Quayside Vaults, in Sheffield", "the Quayside Vaults") == "right"
    assert outcome("Quayside Vaults", "the Quayside Vaults") == "right"  # articles do not count
    assert outcome("Les Debrouillards", "Les Débrouillards") == "right"
    assert outcome("She turned 30 in May.", "3") == "wrong"  # whole words only
    assert outcome("I don't know", "Sligo") == "refused"
    assert outcome("Sheffield", "Sligo") == "wrong"
    assert outcome("I don't know", "unknown") == "right"  # unanswerable: refusing is right
    assert outcome("the bass", "unknown") == "wrong"
    assert answer_contains("choc chip and rocky road", "choc-chip and rocky road")
    assert answer_contains("11", "eleven") and not answer_contains("11", "twelve")


def test_chain_reach_follows_cast_aliases_and_day_recall_counts_gold_dates() -> None:
    gold = GoldQuestion("Where is my flatmate's cousin's husband from?", "Campo Grande", 3,
                        ("Ada Heath", "Kunle", "Tati"), ("2024-02-11", "2024-02-24"), "multi")
    selected = ["Ada Heath", "Tatiana Monteiro", "Easter"]  # "Tati" is an alias in the cast only
    record = score_question(gold, "Campo Grande, Brazil", selected, ["2024-02-24", "2024-03-01"], CAST, STORED)
    assert record.reached and record.hops == (True, False, True)
    assert record.outcome == "right" and record.day_recall == 0.5
    missed = score_question(gold, "I don't know", ["Ada Heath", "Olakunle Babatunde"], [], CAST, STORED)
    assert not missed.reached and missed.hops == (True, True, False) and missed.outcome == "refused"
    assert missed.day_recall == 0.0
    assert day_recall([], ["2024-02-24"]) is None  # unanswerable: no gold evidence


def test_the_first_support_item_is_scored_against_the_gold() -> None:
    gold = GoldQuestion("Where is Tati from?", "Campo Grande", 1, ("Tati",), ("2024-02-11",), "single")
    cited = score_question(gold, "Campo Grande", [], [], CAST, STORED, "Tati grew up in Campo Grande, she says.")
    assert cited.cited is True
    assert score_question(gold, "Recife", [], [], CAST, STORED, "Tati loves Recife.").cited is False
    assert score_question(gold, "I don't know", [], [], CAST, STORED, None).cited is False
    nobody = GoldQuestion("Who is Tati's dog?", "unknown", 1, ("Tati",), (), "unanswerable")
    assert score_question(nobody, "I don't know", [], [], CAST, STORED, "Tati has a cat.").cited is None
    tally = NaturalResult(Path("dev"), "Ada Heath", [], 1, score_entities(CAST, STORED),
                          [cited, score_question(nobody, "I don't know", [], [], CAST, STORED, None)]).total
    assert (tally.cited, tally.answerable) == (1, 1)


def _result(records: list[tuple[str, str, str, int, str]]) -> NaturalResult:
    """(question, gold, answer, k, type); each chain is its own last entity, Ada Heath."""
    scored = [score_question(GoldQuestion(q, gold, k, ("Ada Heath",), ("2024-02-11",), kind), answer,
                             ["Ada Heath"] if k == 1 else [], ["2024-02-11"], CAST, STORED)
              for q, gold, answer, k, kind in records]
    return NaturalResult(Path("dev"), "Ada Heath", ["diary.md"], 10, score_entities(CAST, STORED), scored)


def test_tallies_by_k_and_type() -> None:
    result = _result([("a", "Sligo", "Sligo", 1, "single"), ("b", "Sheffield", "I don't know", 2, "multi"),
                      ("c", "Chester", "Sheffield", 2, "multi"), ("d", "unknown", "I don't know", 1, "unanswerable")])
    total = result.total
    assert (total.n, total.reached, total.right, total.refused, total.wrong) == (4, 2, 2, 1, 1)
    assert total.day_recall == 1.0 and total.entities_read == 0.5
    assert {k: (t.n, t.right) for k, t in result.by("k").items()} == {"1": (2, 2), "2": (2, 0)}
    assert list(result.by("type")) == ["multi", "single", "unanswerable"]


def test_the_report_and_summary_carry_the_section_or_say_why_not() -> None:
    bench = BenchResult(BenchConfig(Path("out")), "offline")
    assert "not run: no dev set folder" in natural_section(bench)
    assert summary(bench)["natural"] is None
    bench.natural = _result([("a", "Sligo", "Sligo", 1, "single")])
    report = render(bench, [])
    assert "## Natural text (dev set)" in report and "| 5/6 | 4/6 | 10 | 3/10 | 1 |" in report
    assert "- missed: Noodle" in report and "| all | 1 | 1/1 | 1/1 | 0/1 | 0/1 | 0/1 | 100.0 | 1.0 |" in report
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
    writer = load_cast(folder / "cast.json").self_name  # read from the key: no dev-set name in tests
    assert result.inputs == [p.name for p in input_files(folder)] and len(result.inputs) == 2 and result.self_name == writer
    assert result.turns > 150
    ent = result.entities
    assert ent.gold == 32 and len(ent.found) + len(ent.missed) == 32
    assert len(ent.right_kind) <= len(ent.found) and len(ent.spurious) <= ent.stored
    assert writer in ent.right_kind  # the --self entity
    total = result.total
    assert total.n == 30 and total.right + total.refused + total.wrong == 30
    assert total.reached >= 10 and total.day_recall is not None and total.day_recall > 0.5


@pytest.mark.parametrize(
    "support, gold, holds",
    [
        ("Best of the year, in order: Gilead, Kindred, The Overstory.", "Gilead, Kindred and The Overstory", True),
        ("She brought a tray of flapjacks and a tub of tablet.", "flapjacks and tablet", True),
        ("Rory is thirty today!", "30", True),
        ("THE DOG WEIGHED IN AT 12.7KG", "12.7 kg", True),
        # every item, and the number itself
        ("Ossian plays bass in a band.", "bass, double bass and accordion", False),
        ("Rory is thirty-one today!", "30", False),
        ("The dog weighed 14.1 kg in February.", "12.7 kg", False),
    ],
)
def test_a_support_holds_the_gold_as_a_reader_sees_it(support: str, gold: str, holds: bool) -> None:
    assert support_holds(support, gold) is holds
