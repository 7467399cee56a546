"""Capitalised dictionary words, through a real ingest: a word capitalised only because it
starts a sentence or a line ("Plumber came at nine") is nobody; one also capitalised inside
a sentence ("Dinner: Clover cooked", "drinks at the Anchor") stays an entity."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from support.ingested import ingested_entities
from typer.testing import CliRunner

from memhop.cli.app import app


def _ingest(runner: CliRunner, path: Path, text: str) -> dict[str, dict[str, Any]]:
    return ingested_entities(runner, path, text)


def _ask(runner: CliRunner, question: str) -> dict[str, Any]:
    result = runner.invoke(app, ["ask", question, "--json"])
    assert result.exit_code == 0, result.output
    answer: dict[str, Any] = json.loads(result.stdout)
    return answer


ROLES = """# 2025-03-03

Plumber came at nine and fixed the boiler. He charged far too much for it.

# 2025-03-04

Plumber rang back about the valve.
Landlord says the rent goes up in the autumn. He was vague about how much.

# 2025-03-06

Bea came round for tea and we planned the allotment. Otto is a joiner from Ravensby and fixed the gate.
"""


def test_a_word_capitalised_only_at_sentence_starts_is_nobody(home: Path, runner: CliRunner, tmp_path: Path) -> None:
    found = _ingest(runner, tmp_path / "roles.md", ROLES)
    assert not {"Plumber", "Landlord"} & set(found), sorted(found)
    assert found["Bea"]["kind"] == "person" and found["Otto"]["kind"] == "person"
    asked = _ask(runner, "Who charged too much for the boiler?")
    assert not asked["answered"], asked["answer"]  # "he" is nobody the store knows by name


PLACES = """# 2025-06-02

Guests: Clover, Juniper and Tamsin. Dinner: Clover cooked a lentil stew and it was lovely.

# 2025-06-04

We had drinks at the Anchor with Juniper after work. The Anchor does a good pie on Fridays.
"""


def test_a_word_capitalised_after_a_label_or_an_article_stays_an_entity(
    home: Path, runner: CliRunner, tmp_path: Path
) -> None:
    found = _ingest(runner, tmp_path / "places.md", PLACES)
    assert found["Clover"]["kind"] == "person"  # "Dinner: Clover cooked": a label, not a sentence start
    assert "Anchor" in found  # "at the Anchor": a pub, not a role
