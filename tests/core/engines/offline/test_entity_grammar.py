"""Entities and their kinds from the grammar that introduces them, through a real ingest:
the words that name a pet, a place after "from"/"in", a title someone played or read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from support.ingested import ingested_entities
from typer.testing import CliRunner


def _ingest(runner: CliRunner, path: Path, text: str) -> dict[str, dict[str, Any]]:
    return ingested_entities(runner, path, text)


PETS = """# 2025-02-03

We drove out to the rescue centre and came home with a lurcher. The staff there named him Wobbegong.
Wobbegong slept on the landing all night.

# 2025-02-05

Bramble, our old spaniel, is not impressed with him. My neighbour has a scruffy grey terrier called Crumpet.

# 2025-02-09

Took Snorkel to the vet this morning, and Snorkel's vet says she needs a diet. Bramble snored through the whole film.
"""


def test_the_grammar_that_names_a_pet_makes_a_pet_even_of_a_dictionary_word(
    home: Path, runner: CliRunner, tmp_path: Path
) -> None:
    found = _ingest(runner, tmp_path / "pets.md", PETS)
    kinds = {name: found[name]["kind"] if name in found else None for name in ("Wobbegong", "Bramble", "Crumpet", "Snorkel")}
    assert kinds == {"Wobbegong": "pet", "Bramble": "pet", "Crumpet": "pet", "Snorkel": "pet"}, kinds


PLACES = """# 2025-04-07

Back from the stag weekend. Ferdia flew over from Kilrush for it and we all slept badly.
Gym at Hammerlock after work. I go to Hammerlock every Tuesday now.

# 2025-04-12

Big news at work: Tobiah handed his notice in. He's off to Wessex Wanderers as their kit manager, starting in June.
Yusuf moved to a flat on the Marlowe side of town.
"""


def test_a_name_a_preposition_of_place_governs_is_no_person(home: Path, runner: CliRunner, tmp_path: Path) -> None:
    found = _ingest(runner, tmp_path / "places.md", PLACES)
    kinds = {n: found[n]["kind"] if n in found else None for n in ("Kilrush", "Hammerlock", "Wessex Wanderers", "Marlowe")}
    assert kinds == {"Kilrush": "place", "Hammerlock": "place", "Wessex Wanderers": "org", "Marlowe": "place"}, kinds
    assert found["Tobiah"]["kind"] == "person" and found["Ferdia"]["kind"] == "person"


TITLES = """# 2025-05-03

Gran and Pip came up for the weekend. Pip played us Song of Dawn on the cello, twice.
Wendell read Lanterns in Winter aloud to the kids. Pip hates that book.

# 2025-05-06

Sent Halvard a card. Poor Halvard. He hates hospitals. Wendell said that Aunty Briony's dog "ran off again".
Quiet NYE in the end. The new VP is a nightmare. Drinks with Odile at Easter, she is paying.
"""


def test_the_words_of_a_title_a_holiday_or_a_feeling_are_no_entities(
    home: Path, runner: CliRunner, tmp_path: Path
) -> None:
    found = _ingest(runner, tmp_path / "titles.md", TITLES)
    spurious = {"Song", "Dawn", "Song of Dawn", "Lanterns", "Winter", "Poor Halvard", "NYE", "VP", "Easter"}
    assert not spurious & set(found), sorted(found)
    assert not [n for n in found if n.endswith("'s")], sorted(found)
    assert {"Pip", "Wendell", "Halvard"} <= set(found), sorted(found)


GUESSED = """# 2025-07-14

Back from the hen weekend in Porthkerris. I'm so tired I could sleep for a week.
Porthkerris? We went when we were nineteen and Sunniva loved it.
Porthkerris, fine, I'll look at houses there.
"""


def test_a_place_a_text_puts_someone_in_is_no_person_for_the_taggers_guess_alone(
    home: Path, runner: CliRunner, tmp_path: Path
) -> None:
    found = _ingest(runner, tmp_path / "guessed.md", GUESSED)
    assert found.get("Porthkerris", {}).get("kind") == "place", sorted((n, e["kind"]) for n, e in found.items())
