"""Profiles accumulate: what an early session says about someone survives later sessions,
even once the text gives the person a fuller name. Runs the real write path on a store."""

from __future__ import annotations

from pathlib import Path

import memhop
from memhop.core.engines.offline import profile as profiles

DIARY = """## 2024-03-02

Femi's cat knocked my tea over. Two years as Femi's flatmate and I always lose the debate about the heating.

## 2024-03-09

Femi Bello, who got the promotion, bought pizza. Femi Bello is very pleased with himself.

## 2024-03-16

Femi Bello went to Hull for the weekend. Femi Bello says the train was late.

## 2024-04-06

Femi Bello repainted the whole hallway a shade of green he calls sage and I call soup.

## 2024-04-13

Femi Bello started running again and now talks about split times at every single breakfast.

## 2024-04-20

Femi Bello is learning Portuguese from an app that shouts at him when he misses a day.

## 2024-04-27

Femi Bello built a bookshelf from a kit and had four screws left over at the end.
"""


def test_a_relation_stated_once_survives_a_rename_to_the_full_name(home: Path, tmp_path: Path) -> None:
    diary = tmp_path / "diary.md"
    diary.write_text(DIARY, encoding="utf-8")
    with memhop.open() as memory:
        memory.ingest(diary, self_name="Ana Silva")
        femi = memory.show("Femi")
    assert femi.entity.name == "Femi Bello"
    assert "Ana Silva's flatmate" in (femi.profile or "")


def test_a_relation_sentence_written_under_another_name_is_read_back_as_a_relation() -> None:
    text = "Femi is Ana Silva's flatmate. Femi's cat is Miso. Femi likes pizza."
    parsed = profiles.parse(text, "Femi Bello", ("Femi",))
    assert parsed.of == {"Ana Silva": "flatmate"}
    assert parsed.has == {"Miso": "cat"}
    assert profiles.render(parsed).startswith("Femi Bello is Ana Silva's flatmate. Femi's cat is Miso.")
