"""Relation words and the patterns that tie two named entities together.

Patterns run over a "marked" sentence, where every resolved mention of an entity (a name,
"I", "my", a pronoun) has been replaced by ⟦k⟧, k its index in the session's entity list:
"⟦0⟧'s older sister ⟦1⟧ is down from Leeds". That keeps the patterns short and readable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# "X is Y's friend" implies "Y is X's friend".
SYMMETRIC = frozenset(
    "friend roommate flatmate housemate colleague coworker co-worker workmate neighbour neighbor "
    "cousin partner classmate teammate bandmate spouse ex".split()
) | {"best friend", "close friend", "old friend", "good friend"}
FEMALE = frozenset(
    "sister mum mom mother mummy mommy aunt auntie niece grandma gran granny nan nana grandmother "
    "wife girlfriend daughter fiancée stepmom stepmum stepsister stepdaughter".split()
)
MALE = frozenset(
    "brother dad father daddy uncle nephew grandpa grandad granddad grandfather husband "
    "boyfriend son fiancé fiance stepdad stepbrother stepson".split()
)
OTHER_RELATIONS = frozenset(
    "sibling parent child kid grandchild grandson granddaughter boss manager mentor student "
    "teacher tutor therapist doctor landlord landlady tenant employee assistant babysitter "
    "in-laws godmother godfather godson goddaughter".split()
)
# Parent-like words that stand for one person and so can be that person's alias ("Mum").
KIN_ALIASES = frozenset(
    "mum mom mother mummy mommy ma dad father daddy pa grandma gran granny nan nana grandpa "
    "grandad granddad grandfather grandmother".split()
)
ANIMALS = frozenset(
    """dog cat puppy pup kitten kitty greyhound whippet labrador lab beagle poodle terrier
    spaniel retriever collie husky dachshund pug bulldog corgi chihuahua shepherd rescue
    hamster rabbit bunny parrot budgie cockatiel bird goldfish fish tortoise turtle horse pony
    snake lizard gecko ferret rat mouse chinchilla hedgehog""".split()
) | {"guinea pig"}
RELATION_WORDS = SYMMETRIC | FEMALE | MALE | OTHER_RELATIONS | ANIMALS
_MODIFIERS = "older younger elder eldest oldest youngest little big baby twin best close old good dear new lovely step".split()
# Where "X from my team" makes X a colleague.
_GROUP_RELATION = {"team": "colleague", "work": "colleague", "office": "colleague", "job": "colleague",
                   "class": "classmate", "school": "classmate", "band": "bandmate", "choir": "friend"}  # fmt: skip


def _alternation(words: frozenset[str] | list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_REL = rf"(?:{_alternation(RELATION_WORDS)})(?![\w'’-])"  # "my friend's sister" is not my friend
_REL_PLURAL = rf"(?:{_alternation(RELATION_WORDS)})s?(?![\w'’-])"
_MOD = rf"(?:(?:{_alternation(_MODIFIERS)})\s+)*"
_X = r"⟦(\d+)⟧"
_POSS = rf"{_X}['’]s"
_NEG = r"(?<!not )(?<!n't )(?<!never )"

# (pattern, which group is the relative, which is the owner, relation group)
_PATTERNS: tuple[tuple[re.Pattern[str], int, int, int], ...] = tuple(
    (re.compile(p, re.I), rel_of, owner, rel)
    for p, rel_of, owner, rel in (
        # "⟦0⟧'s older sister ⟦1⟧", "⟦0⟧'s dog, ⟦1⟧", "⟦0⟧'s cat named ⟦1⟧"
        (rf"{_NEG}{_POSS}\s+({_MOD}{_REL}),?\s+(?:(?:named|called)\s+)?{_X}", 3, 1, 2),
        # "⟦1⟧, ⟦0⟧'s sister" / "⟦1⟧ (⟦0⟧'s sister)"
        (rf"{_X}\s*[,(]\s*{_POSS}\s+({_MOD}{_REL})\b", 1, 2, 3),
        # "⟦1⟧ is ⟦0⟧'s roommate" / "⟦1⟧'s ⟦0⟧'s roommate"
        (rf"{_X}(?:\s+(?:is|was|has been|became|is also|was also)|\s*['’]s)\s+{_POSS}\s+({_MOD}{_REL})\b", 1, 2, 3),
        # "⟦1⟧ is the sister of ⟦0⟧"
        (rf"{_X}\s+(?:is|was|['’]s)\s+(?:the|a)\s+({_MOD}{_REL})\s+of\s+{_X}", 1, 3, 2),
    )
)
# "⟦0⟧ and ⟦1⟧ have been best friends"
_MUTUAL = re.compile(
    rf"{_X}\s+and\s+{_X}\s+(?:are|were|have been|had been|['’]ve been|became|got)\s+"
    rf"(?:really\s+|such\s+|also\s+)?({_MOD}{_REL_PLURAL})",
    re.I,
)
# "⟦1⟧ from ⟦0⟧'s team"
_GROUP = re.compile(rf"{_X},?\s+from\s+{_POSS}\s+({'|'.join(_GROUP_RELATION)})\b", re.I)
# "a cat named ⟦1⟧" (owner decided by the caller: the speaker when the sentence is first person)
_NAMED_ANIMAL = re.compile(rf"\b({_alternation(ANIMALS)})\s+(?:named|called)\s+{_X}", re.I)


@dataclass(frozen=True)
class Relation:
    """`subject` is `owner`'s `word`: Carol (subject) is Bob's (owner) older sister."""

    subject: int
    word: str
    owner: int


def normalise_word(word: str) -> str:
    return " ".join(word.lower().split())


def base_word(word: str) -> str:
    """The relation word without its modifiers: "older sister" -> "sister"."""
    parts = normalise_word(word).split()
    while len(parts) > 1 and parts[0] in _MODIFIERS and " ".join(parts) not in RELATION_WORDS:
        parts = parts[1:]
    return " ".join(parts)


def is_pet_word(word: str) -> bool:
    return base_word(word) in ANIMALS


def gender_of(word: str) -> str | None:
    base = base_word(word)
    return "f" if base in FEMALE else "m" if base in MALE else None


def find_relations(marked: str, first_person_owner: int | None = None) -> list[Relation]:
    """Relations stated in one marked sentence; self-relations are dropped."""
    found: list[Relation] = []
    for pattern, rel_of, owner, rel in _PATTERNS:
        for m in pattern.finditer(marked):
            found.append(Relation(int(m.group(rel_of)), normalise_word(m.group(rel)), int(m.group(owner))))
    for m in _MUTUAL.finditer(marked):
        word = normalise_word(m.group(3))
        word = word[:-1] if word.endswith("s") and base_word(word[:-1]) in RELATION_WORDS else word
        if base_word(word) in SYMMETRIC:
            found.append(Relation(int(m.group(1)), word, int(m.group(2))))
    for m in _GROUP.finditer(marked):
        found.append(Relation(int(m.group(1)), _GROUP_RELATION[m.group(3).lower()], int(m.group(2))))
    if first_person_owner is not None:
        for m in _NAMED_ANIMAL.finditer(marked):
            found.append(Relation(int(m.group(2)), normalise_word(m.group(1)), first_person_owner))
    unique: dict[tuple[int, int], Relation] = {}
    for r in found:
        if r.subject != r.owner:
            unique.setdefault((r.subject, r.owner), r)
    return list(unique.values())


# Cue patterns on raw text, used before any entity is known (identify).
_NAME = r"([A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?)"
_PET_CUES = tuple(
    re.compile(p)
    for p in (
        rf"\b(?:[Mm]y|[Oo]ur|[Hh]er|[Hh]is|[Tt]heir|[Aa]|[Aa]n|\w+['’]s)\s+(?:\w+\s+)?(?:{_alternation(ANIMALS)})\s*,?\s+(?:(?:named|called)\s+)?{_NAME}\b",
        rf"\b{_NAME}\s*,\s+(?:my|our|her|his|their|the)\s+(?:[\w'’]+\s+){{0,3}}(?:{_alternation(ANIMALS)})\b",
        rf"\b{_NAME}\s+(?:is|was)\s+(?:my|our|her|his|their|a|an)\s+(?:\w+\s+)?(?:{_alternation(ANIMALS)})\b",
        rf"\b(?:{_alternation(ANIMALS)})\s*,?\s+(?:named|called)\s+{_NAME}\b",
    )
)
_KIN_PAREN = re.compile(rf"\b({_alternation(KIN_ALIASES)})\s*\(\s*{_NAME}\s*\)", re.I)
_NICK_PAREN = re.compile(r"\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)+)\s*\(\s*([A-Z][a-z]+)\s*\)")


_THING_NAME = re.compile(
    rf"\b(?:named|called|call|name)\s+it\s+{_NAME}"
    rf"|\bit(?:['’]s|\s+is|\s+was)\s+(?:now\s+)?(?:called|named)\s+{_NAME}"
)


def thing_names(text: str) -> list[str]:
    """Names given to things, not beings: "named it Gerald", "it's called Project Cymbal"."""
    return [m.group(1) or m.group(2) for m in _THING_NAME.finditer(text)]


def pet_names(text: str) -> list[str]:
    """Names introduced by an animal word: "her greyhound Pepper", "Oscar, my guinea pig"."""
    return [m.group(1) for p in _PET_CUES for m in p.finditer(text)]


def kin_aliases(text: str) -> list[tuple[str, str]]:
    """(name, kin word) from "Mum (Leena)"."""
    return [(m.group(2), m.group(1).capitalize()) for m in _KIN_PAREN.finditer(text) if m.group(2)[0].isupper()]


def nicknames(text: str) -> list[tuple[str, str]]:
    """(full name, nickname) from "Robert Kowalski (Bob)"."""
    return [(m.group(1), m.group(2)) for m in _NICK_PAREN.finditer(text)]
