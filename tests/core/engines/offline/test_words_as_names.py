"""Capitalised words, through a real ingest: a role capitalised by its place ("Plumber came
at nine", "the Plumber") is nobody, and a name that is also a word ("Will", "May") is a
name where it stands as one and a word where it stands as a word."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from memhop.cli.app import app


def _ingest(runner: CliRunner, path: Path, text: str) -> dict[str, dict[str, Any]]:
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(path), "--self", "Ingrid Sol"])
    assert result.exit_code == 0, result.output
    listed = runner.invoke(app, ["entities", "--json"])
    assert listed.exit_code == 0, listed.output
    return {e["name"]: e for e in json.loads(listed.stdout)}


ROLES = """# 2025-03-03

The Plumber came at nine and fixed the boiler. He charged far too much for it.

# 2025-03-04

Monday: Plumber rang back about the valve. I told the Plumber to order the part.

# 2025-03-05

Our Landlord says the rent goes up in the autumn. He was vague about how much.

# 2025-03-06

Bea came round for tea and we planned the allotment. Otto is a joiner from Ravensby and fixed the gate.
"""


def test_a_role_capitalised_by_its_place_is_nobody(home: Path, runner: CliRunner, tmp_path: Path) -> None:
    found = _ingest(runner, tmp_path / "roles.md", ROLES)
    assert not {"Plumber", "Landlord"} & set(found), sorted(found)
    assert found["Bea"]["kind"] == "person" and found["Otto"]["kind"] == "person"
    asked = _ask(runner, "Who charged too much for the boiler?")
    assert asked["answer"] != "Plumber"  # "he" is nobody the store knows by name


def _ask(runner: CliRunner, question: str) -> dict[str, Any]:
    result = runner.invoke(app, ["ask", question, "--json"])
    assert result.exit_code == 0, result.output
    answer: dict[str, Any] = json.loads(result.stdout)
    return answer


WILL = """# 2025-04-01

Will and I went climbing at the quarry, my arms are dead.

# 2025-04-03

Will said he'd come again on Saturday if it stays dry.

# 2025-04-05

I met Will at the bar after work, he was celebrating.

# 2025-04-07

Will's sister is a vet in Carrowby, she's just qualified.

# 2025-04-09

Will you ever learn, I asked myself, after burning the toast again.
"""


def test_a_name_that_is_a_modal_is_a_name_where_it_stands_as_one(
    home: Path, runner: CliRunner, tmp_path: Path
) -> None:
    found = _ingest(runner, tmp_path / "will.md", WILL)
    assert found["Will"]["kind"] == "person"
    assert found["Will"]["mentions"] == 4  # not "Will you ever learn": the modal
    shown = runner.invoke(app, ["show", "Will", "--json"])
    assert shown.exit_code == 0, shown.output
    facts = " ".join(f["text"] for f in json.loads(shown.stdout)["facts"])
    assert "vet" in facts and "toast" not in facts
    assert _ask(runner, "Who said he'd come again on Saturday?")["answer"] == "Will"  # not the diarist


CHAT = """02/05/2025, 09:14 - May Chen: morning! still on for the bake sale?
20/05/2025, 09:20 - Ingrid Sol: yes! I'll bring the lemon slices
20/05/2025, 09:21 - Ingrid Sol: and see you in May for the hike, it's on 3 May
20/05/2025, 09:30 - Ingrid Sol: May said she'd bring her sister along too
"""


def test_a_month_is_no_mention_of_a_person_named_after_it(home: Path, runner: CliRunner, tmp_path: Path) -> None:
    found = _ingest(runner, tmp_path / "chat.txt", CHAT)
    assert found["May Chen"]["mentions"] == 2  # her own line and "May said", not "in May" nor "3 May"
    shown = runner.invoke(app, ["show", "May Chen", "--json"])
    assert shown.exit_code == 0, shown.output
    assert not any("hike" in f["text"] for f in json.loads(shown.stdout)["facts"])
