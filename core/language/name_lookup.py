"""A name as a user types it (`memhop show zoe`): the entities it can mean, or the
closest names when it means none.

Levels, most exact first: the canonical name as written; the canonical name or an alias,
case and accents aside; a part of a name (a first name, a surname, "Bob Kowalski" for a
registered "Bob"). The first level with any match decides; two entities there make the
name ambiguous. Callers that cannot undo what they do also look at the looser levels.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from memhop.core.language.names import WEAK_FIRST_TOKENS, name_key, same_person_parts

CANONICAL = 1  # level of a match on the canonical name (case and accents aside)
SUGGEST_CUTOFF = 0.75  # difflib ratio below which a name is not offered as "did you mean"
_CONNECTORS = frozenset({"&", "and", "of", "the", "co", "de", "da", "du", "la", "le", "van", "von"})


@dataclass(frozen=True)
class Lookup:
    name: str
    matches: tuple[str, ...]  # canonical names at the most exact level that has any
    level: int  # 0 as written, 1 canonical, 2 alias, 3 part of a name; -1 nothing
    fits: tuple[str, ...]  # every canonical name the name fits at any level


def _parts_fit(words: list[str], form: str, surnames: bool) -> bool:
    """A first name, a surname (of a person), or a fuller / shorter version of the form."""
    other = name_key(form).split()
    if words[0] in WEAK_FIRST_TOKENS:
        return False
    if len(words) > 1 or len(other) < 2:
        return same_person_parts(words, other)
    return same_person_parts(words, other) or (surnames and is_surname(words[0], other))


def is_surname(word: str, name: list[str]) -> bool:
    """`word` is the last word of a name of two words or more, and that word can be a surname
    (not "co" of "Thorne & Co", nor an initial); both already `name_key`ed."""
    last = name[-1] if len(name) > 1 else ""
    return word == last and last not in _CONNECTORS and len(last) > 1 and last.isalpha()


def lookup(name: str, known: Sequence[tuple[str, Sequence[str]]], people: Collection[str] | None = None) -> Lookup:
    """`people`: the canonical names whose last word is a surname ("Heath" is Ivo Heath's,
    not Sefton Heath's); None: every name's."""
    wanted = name_key(name)
    words = wanted.split()
    levels: list[list[str]] = [[], [], [], []]
    for canonical, aliases in known:
        if canonical.strip() == name.strip():
            levels[0].append(canonical)
        if not words:
            continue
        if name_key(canonical) == wanted:
            levels[1].append(canonical)
        elif any(name_key(a) == wanted for a in aliases):
            levels[2].append(canonical)
        elif any(_parts_fit(words, f, people is None or canonical in people) for f in (canonical, *aliases)):
            levels[3].append(canonical)
    fits = tuple(dict.fromkeys(n for level in levels[1:] for n in level))
    for level, found in enumerate(levels):
        if found:
            return Lookup(name, tuple(dict.fromkeys(found)), level, fits)
    return Lookup(name, (), -1, ())


def suggest(name: str, known: Sequence[tuple[str, Sequence[str]]], limit: int = 3) -> list[str]:
    """The canonical names closest to a name that matched none: spelled like one of their
    forms or words (accents and case aside), closest first."""
    wanted = name_key(name)
    owners: dict[str, list[str]] = {}
    for canonical, aliases in known:
        for form in (canonical, *aliases):
            key = name_key(form)
            for candidate in (key, *(w for w in key.split() if len(w) > 2)):
                if canonical not in owners.setdefault(candidate, []):
                    owners[candidate].append(canonical)
    close = difflib.get_close_matches(wanted, list(owners), n=limit * 4, cutoff=SUGGEST_CUTOFF)
    return list(dict.fromkeys(c for form in close for c in owners[form]))[:limit]
