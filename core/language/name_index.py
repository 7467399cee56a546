"""find_names over a fixed set of entities, fast enough to run on every sentence.

core/names.find_names tries every form of every entity on the text; with a few hundred
entities and dozens of sentences per question that dominates the read path. A text can
only mention an entity if it contains the first word of one of its forms, so each text
is tried only against those entities (same results, far fewer regex searches). Words are
compared without accents, as find_names compares them.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from memhop.core.language.names import NameMatch, find_names, fold, name_forms

_WORD = re.compile(r"\w+")


class NameIndex:
    def __init__(self, entries: Sequence[tuple[str, Sequence[str]]]) -> None:
        self.entries = [(name, tuple(aliases)) for name, aliases in entries]
        self._by_word: dict[str, list[int]] = defaultdict(list)
        for i, (name, aliases) in enumerate(self.entries):
            for form in name_forms(name, aliases):
                words = _WORD.findall(fold(form).lower())
                if words and i not in self._by_word[words[0]]:
                    self._by_word[words[0]].append(i)

    def candidates(self, text: str) -> list[tuple[str, tuple[str, ...]]]:
        """The entries that could be mentioned in `text` (a superset of those that are)."""
        hits = sorted({i for w in set(_WORD.findall(fold(text).lower())) for i in self._by_word.get(w, ())})
        return [self.entries[i] for i in hits]

    def find(self, text: str) -> list[NameMatch]:
        """Exactly find_names(text, entries)."""
        likely = self.candidates(text)
        return find_names(text, likely) if likely else []
