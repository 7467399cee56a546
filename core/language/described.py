"""What is said of someone's relative without naming them ("her husband is a paramedic",
"Orla's husband works nights"), read as said of the one the chain found to be that relative.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from memhop.core.language.chains import same_entity
from memhop.core.language.names import NameMatch
from memhop.core.language.question import bare, relation_forms
from memhop.core.language.relations import gender_of
from memhop.core.language.sentences import Sentence, name_at, resolve_pronoun


def described(owner: str, relation: str, named: str, sentences: Sequence[Sentence]) -> list[Sentence]:
    """The sentences that tell of `owner`'s `relation` without naming them ("her husband is a
    paramedic", "Orla's husband works nights"), read as naming `named`, the one the chain
    found to be that relative: what is said of "her husband" is said of Dario. A phrase that
    names someone right after it ("her husband, Dario") is left as it is."""
    forms = relation_forms(relation.split()[-1])
    wanted = gender_of(relation.split()[-1])
    out = []
    for sentence in sentences:
        if not forms & {w.lower() for w in _WORD.findall(sentence.text)} or any(
            same_entity(m.entity, named) for m in sentence.names
        ):
            continue  # a sentence naming the relative already tells of them ("Kez's sister is Tamsin")
        spans = [m.span() for m in _OWNED.finditer(sentence.text)
                 if bare(m.group(2).lower()) in forms and gender_of(m.group(2)) in (None, wanted)
                 and _owned_by(sentence, m, owner) and not _named_next(sentence, m.end())]
        if spans:
            out.append(_renamed(sentence, spans, named))
    return out


_WORD = re.compile(r"[\w-]+")
_OWNED = re.compile(r"\b(his|her|their|[\w-]+['’]s)\s+(?:(?:new|current|lovely)\s+)?([\w-]+)\b", re.I)


def _owned_by(sentence: Sentence, match: re.Match[str], owner: str) -> bool:
    """The owner word of "her husband" / "Orla's husband" stands for `owner`."""
    word = match.group(1)
    if word.lower() in ("his", "her", "their"):
        return same_entity(resolve_pronoun(sentence, match.start()), owner)
    named = name_at(sentence, match.start(1), match.end(1))
    return named is not None and same_entity(named.entity, owner)


def _named_next(sentence: Sentence, end: int) -> bool:
    """"her husband, Dario" / "her husband Dario": a name follows the phrase."""
    rest = sentence.text[end:]
    gap = len(rest) - len(rest.lstrip(" ,("))
    return name_at(sentence, end + gap, end + gap + 1) is not None or bool(re.match(r"\s*,?\s*[A-Z]\w", rest))


def _renamed(sentence: Sentence, spans: list[tuple[int, int]], named: str) -> Sentence:
    """The sentence with each phrase replaced by `named`, its name positions moved to match."""
    text, names = sentence.text, list(sentence.names)
    for start, end in sorted(spans, reverse=True):
        shift = len(named) - (end - start)
        names = [m if m.end <= start else NameMatch(m.entity, m.start + shift, m.end + shift, m.text)
                 for m in names if m.end <= start or m.start >= end]
        names.append(NameMatch(named, start, start + len(named), named))
        text = text[:start] + named + text[end:]
    return replace(sentence, text=text, names=tuple(sorted(names, key=lambda m: m.start)), written=sentence.cited)
