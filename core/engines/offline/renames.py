"""What a thing is called now, when the text renames it: "Pomelo is now Hollyhock", "the
café is now called Ottermill", "we renamed Pomelo to Hollyhock". A name question about it
("what is Pomelo called now?") asks the name it took, which no sentence says beside the
words of the question ("called" is the question's frame, not what the answer sentence says).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memhop.core.engines.offline.ranking import date_of
from memhop.core.language import lexical
from memhop.core.language.sentences import Sentence

_NAME = r"([A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,3})"
# The words a name question asks by, not what its answer sentence must say.
NAMING = frozenset(lexical.stem(w) for w in ("call", "called", "name", "named", "now"))


def _patterns(form: str) -> list[re.Pattern[str]]:
    said = re.escape(form)
    return [
        re.compile(rf"(?<![\w'’]){said}\s+(?:is|['’]s)\s+now\s+(?:called\s+|named\s+|known\s+as\s+)?{_NAME}"),
        re.compile(rf"\brenamed\s+{said}\s+(?:to\s+|as\s+)?{_NAME}"),
        re.compile(rf"(?<![\w'’]){said}\s+(?:has\s+been|was|got)\s+renamed\s+(?:to\s+|as\s+)?{_NAME}"),
    ]


def renamed(text: str, forms: Sequence[str]) -> str | None:
    """The new name this text gives a thing known by one of `forms`, if it renames it."""
    for form in forms:
        for pattern in _patterns(form):
            found = pattern.search(text)
            if found and found.group(1) not in forms:
                return found.group(1)
    return None


def latest_name(forms: Sequence[str], sentences: Sequence[Sentence]) -> tuple[str, Sentence] | None:
    """The name the latest renaming sentence gives (a rename may follow a rename); by date,
    then by the order the sentences come in."""
    found = [(name, s) for s in sentences if (name := renamed(s.text, forms))]
    if not found:
        return None
    dated = [(date_of(s), at) for at, (_, s) in enumerate(found)]
    best = max(range(len(found)), key=lambda at: (dated[at][0] is not None, dated[at][0] or 0, at))
    return found[best]


def asks_renamed(predicate: Sequence[str]) -> bool:
    """A name question with no words beyond its frame ("what is Pomelo called now?")."""
    return set(predicate) <= NAMING
