"""One hop of the offline answerer: who is X's roommate, by the sentences that put a
relation word between two names ("Alice's roommate Bob", "her roommate Bob" said of
Alice, "Carol is Bob's older sister", "Mum (Leena)" in Maya's diary, "Alice and I have
been best friends").
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from memhop.core.language.name_lookup import is_surname
from memhop.core.language.names import name_key
from memhop.core.language.partners import SPOUSE_WORDS, wed_pairs
from memhop.core.language.question import MODIFIERS, bare, is_possessive, relation_forms, tokens
from memhop.core.language.relations import ANIMALS, PRONOUN_GENDER, SYMMETRIC, base_word, gender_of
from memhop.core.language.sentences import Sentence, name_at, resolve_pronoun, surface_name, word_of

_GLUE_AFTER = frozenset({",", "(", ":", "named", "called", "is", "was", "-"})
_GLUE_BEFORE = _GLUE_AFTER | {"the", "also"}
_COPULAS = frozenset({"is", "was", "are", "were", "became"})
MODIFIER_BONUS = 1.5
COPULA_REACH = 8  # words between "X is" and the relation word it still governs
RELATIVE_REACH = 12  # words between "X, who" and the copula of its relative clause
_MUTUAL = re.compile(
    r"\band\s+(?:I|me|\w+)\s+(?:are|were|have been|had been|['’]ve been|became|got)\s+(?:\w+\s+)?$", re.I
)
Token = re.Match[str]


def same_entity(a: str | None, b: str | None) -> bool:
    """Names that stand for the same entity: equal, or one is the other's first name (case
    and accents aside: "Celeste" typed for "Céleste")."""
    if not a or not b:
        return False
    return _same_parts(name_key(a), name_key(b))


def _same_parts(a: str, b: str) -> bool:
    """Equal, or one is the other's first name (both already normalised, neither empty)."""
    return a == b or a.split()[0] == b or b.split()[0] == a


def _spelt(name: str) -> str:
    """A name as spelt, case and spacing aside: accents kept ("Andre" is not "André")."""
    return " ".join(name.casefold().split())


def named_by(written: str, names: Sequence[str]) -> list[str]:
    """The known names a name as written stands for, at the most exact level that has any:
    the whole name as spelt (case aside), the whole name folded (no accents either), a first
    name as spelt, a first name folded, a surname alone. "Andre" is Andre Wierzbicki when André
    Morvan is known too; "Celeste" is Céleste when no Celeste is; "Quarrie" is Lindel Quarrie
    while no other known name ends in it. Two names at that level: the name is ambiguous.
    The same "most exact level wins" idea as `memhop show`'s name_lookup, whose levels
    differ (it has no "as spelt" level: "Andre" there fits both people above)."""
    if not written.split():
        return []
    spelt, key = _spelt(written), name_key(written)
    levels: tuple[Callable[[str], bool], ...] = (
        lambda n: _spelt(n) == spelt,
        lambda n: name_key(n) == key,
        lambda n: _same_parts(_spelt(n), spelt),
        lambda n: _same_parts(name_key(n), key),
        lambda n: is_surname(key, name_key(n).split()),
    )
    for fits in levels:
        found = list(dict.fromkeys(n for n in names if n.split() and fits(n)))
        if found:
            return found
    return []


_THIRD_PERSON = re.compile(r"\b(?:" + "|".join(PRONOUN_GENDER) + r")\b", re.I)
_OTHER_SIDE = relation_forms("partner") | relation_forms("sister") | relation_forms("brother")
_KIN_WORD = re.compile(
    r"\b(?:" + "|".join(sorted(_OTHER_SIDE | relation_forms("son") | relation_forms("daughter"), key=len, reverse=True)) + r")\b",
    re.I,
)
_NO_LONGER = frozenset({"ex", "former"})  # a relation that was, not one that is
# Relations one has one at a time: the latest statement holds, and an "old" or "previous" one is over.
ONE_AT_A_TIME = frozenset(
    "boss manager husband wife spouse partner boyfriend girlfriend fiance fiancé fiancée landlord landlady".split()
)
_FORMER = frozenset({"old", "previous", "last", "late"})
WED_WEIGHT = 0.75  # a verb says partner, not which word; a relation word said outright counts more


def follow(entity: str, relation: str, sentences: Sequence[Sentence]) -> str | None:
    """Who is `entity`'s `relation`: the name the most (and most trusted) sentences give.

    A sentence repeated in several places (a fact shared by two entities) counts once, and
    one that also has the question's modifier ("best friend", "older sister") counts more.
    A word of the other gender is no answer ("Jo's wife, Ada" says nothing of Jo's husband),
    and of a relation one has one at a time (a boss, a husband) the latest statement wins.
    """
    *mods, head = relation.lower().split()
    exact = relation_forms(head)
    animal = head.rstrip("s") in ANIMALS | {"pet"}
    wanted = gender_of(head)
    best: dict[tuple[str, str], float] = {}
    latest = _Latest()  # when each name was said to be it
    for at, sentence in enumerate(sentences):
        toks = tokens(sentence.text)
        for k, tok in enumerate(toks):
            word = bare(tok.group(0).lower())
            if word not in exact and not (animal and word in ANIMALS):
                continue
            if wanted is not None and gender_of(word) not in (None, wanted):
                continue
            no_longer = _NO_LONGER | _FORMER if base_word(head) in ONE_AT_A_TIME else _NO_LONGER
            if k and toks[k - 1].group(0).lower().rstrip("-") in no_longer and not no_longer & set(mods):
                continue  # "Hugo's ex wife, Dana" is not his wife, "my old boss" not my boss
            weight = sentence.weight * (1.0 if word in exact else 0.5)
            before = {t.group(0).lower() for t in toks[max(0, k - len(mods)) : k]}
            if mods and set(mods) <= before:
                weight *= MODIFIER_BONUS
            for owner, target in _pairs(sentence, toks, k):
                if same_entity(owner, entity) and not same_entity(target, entity):
                    found = target
                elif word.rstrip("s") in SYMMETRIC and same_entity(target, entity) and not same_entity(owner, entity):
                    found = owner
                else:
                    continue
                _vote(best, latest, sentence, found, weight, (entity, at))
        if exact & SPOUSE_WORDS:
            for first, second in wed_pairs(sentence, _entity_at):
                if same_entity(first, entity) != same_entity(second, entity):
                    found = second if same_entity(first, entity) else first
                    _vote(best, latest, sentence, found, sentence.weight * WED_WEIGHT, (entity, at))
    votes: dict[str, float] = defaultdict(float)
    for (_, name), weight in best.items():
        votes[name] += weight
    if not votes:
        return None
    order = list(votes)
    if base_word(head) in ONE_AT_A_TIME:  # a later "my boss Ada" replaces the earlier boss
        pick = min if (_NO_LONGER | _FORMER) & set(mods) else max  # "my old boss": the one before
        for clock in (latest.dates, latest.places):  # by the dates said, else by the order of the owner's profile
            if len(votes) > 1 and all(n in clock for n in votes):
                order = [pick(votes, key=clock.__getitem__)]
                break
    return max(order, key=lambda n: (votes[n], -order.index(n)))


@dataclass
class _Latest:
    dates: dict[str, datetime] = field(default_factory=dict)
    places: dict[str, int] = field(default_factory=dict)  # where the owner's profile first gives the name


def _vote(best: dict[tuple[str, str], float], latest: _Latest, sentence: Sentence,
          found: str, weight: float, place: tuple[str, int]) -> None:
    """One sentence's vote for `found`, and when it was said: its date, else for a sentence
    of the owner's profile (written in time order) its place in it."""
    key = (" ".join(sentence.text.split()), found)
    best[key] = max(best.get(key, 0.0), weight)
    entity, at = place
    if sentence.when is not None:
        when = sentence.when.replace(tzinfo=None)
        latest.dates[found] = max(latest.dates.get(found, when), when)
    elif sentence.origin == "profile" and same_entity(sentence.owner, entity):
        latest.places.setdefault(found, at)  # a profile states its relations first, as they were learnt


# Said of one side, meant of both: spouses, siblings and in-laws.
_SPOUSES = relation_forms("partner")  # wife, husband, partner, spouse...
_IN_LAW = "-in-law"
_SIBLINGS = ("sister", "brother")
_CHILDREN = ("son", "daughter")
# A sister-in-law may be a brother's partner, a son-in-law a daughter's.
_IN_LAW_VIA = {"sister": "brother", "brother": "sister", "daughter": "son", "son": "daughter"}


def relative(entity: str, relation: str, names: Sequence[str], sentences: Sequence[Sentence]) -> str | None:
    """One hop of a chain, for the read path and the answerer alike: who the sentences say
    is `entity`'s `relation`, else who it is from the other side ("Seren's husband, Ivo"
    says who Ivo's wife is), or through a partner or sibling for an in-law."""
    found = follow(entity, relation, sentences)
    if found and _other_gender(found, relation, sentences):
        return None  # "Ada's wife" is not the partner the text calls "he" throughout
    if not found and relation.split()[-1].lower() in _SIBLINGS_CHILD:
        return _siblings_child(entity, relation.split()[-1].lower(), sentences)
    if found or not (relation_forms(relation.split()[-1]) & _OTHER_SIDE or relation.endswith(_IN_LAW)):
        return found
    # Each name is tried against what the sentences say of partners and siblings: only the
    # sentences with such a word are read for it (a profile naming hundreds stays cheap).
    kin = [s for s in sentences if _KIN_WORD.search(s.text)]
    return (_spouse_of(entity, relation, names, kin) or _in_law(entity, relation, names, kin, sentences)
            or _sibling_of(entity, relation, names, kin, sentences))


def _spouse_of(entity: str, relation: str, names: Sequence[str], sentences: Sequence[Sentence]) -> str | None:
    """"Ivo's wife" when the text only says "Seren's husband, Ivo": spouses are each
    other's, whichever word the text uses; two people who each call `entity` their
    partner leave it unknown."""
    forms = relation_forms(relation.split()[-1])
    if not forms & _SPOUSES:
        return None
    told = _about(sentences, entity)
    found = {n for n in names if not same_entity(n, entity) and same_entity(follow(n, "partner", told), entity)}
    return found.pop() if len(found) == 1 else None


def _called(name: str, word: str, names: Sequence[str], kin: Sequence[Sentence], sentences: Sequence[Sentence]) -> bool:
    """`name` is `word` ("sister") as the text tells it: someone's `word` is `name` (in the
    `kin` sentences), or at least two pronouns stand for `name` alone (no one else named
    before them in their sentence) and all are of that word's gender ("Kemi … she … her")."""
    told = _about(kin, name)
    if any(same_entity(follow(m, word, told), name) for m in names if not same_entity(m, name)):
        return True
    want = gender_of(word)
    said = [PRONOUN_GENDER[m.group(0).lower()] for s in sentences for m in _THIRD_PERSON.finditer(s.text)
            if _stands_for(s, m.start(), name)]
    return want is not None and len(said) >= 2 and set(said) == {want}


# A niece is a sibling's daughter, a nephew a sibling's son.
_SIBLINGS_CHILD = {"niece": "daughter", "nephew": "son"}


def _siblings_child(entity: str, word: str, sentences: Sequence[Sentence]) -> str | None:
    """"My niece" when the text only says "my sister Tina … her daughter Oona": the one child
    of that word the text gives any of `entity`'s siblings; two or none leave it unknown."""
    siblings = {s for s in (follow(entity, w, sentences) for w in ("sister", "brother", "sibling")) if s}
    children = {c for sib in siblings if (c := follow(sib, _SIBLINGS_CHILD[word], sentences))}
    return children.pop() if len(children) == 1 else None


def _other_gender(name: str, relation: str, sentences: Sequence[Sentence]) -> bool:
    """The relation word has a gender and the pronouns that can only stand for `name` (two at
    least) all have the other one."""
    want = gender_of(relation.split()[-1])
    if want is None:
        return False
    said = {(" ".join(s.text.split()), m.start()): PRONOUN_GENDER[m.group(0).lower()]
            for s in sentences for m in _THIRD_PERSON.finditer(s.text)
            if _named_before(s, m.start(), name) and not _REPORTED.search(s.text[: m.start()])}
    return len(said) >= 2 and want not in said.values()  # a sentence told twice (fact and turn) counts once


# "Pia says he never went": a pronoun after a verb of saying is someone else as often as not.
_REPORTED = re.compile(r"\b(?:says?|said|thinks?|thought|told|tells?|reckons?)\s+(?:that\s+)?$", re.I)


def _named_before(sentence: Sentence, position: int, name: str) -> bool:
    """`name`, and nobody else, is named in the sentence before `position` (a carried-over
    pronoun is too loose a sign of gender to refuse on)."""
    earlier = [m.entity for m in sentence.names if m.end <= position]
    return bool(earlier) and all(same_entity(e, name) for e in earlier)


def _about(sentences: Sequence[Sentence], name: str) -> list[Sentence]:
    """The sentences that may relate someone to `name`: those that name it (by a known
    mention, its first word written, or a pronoun carried on from it)."""
    first = name.split()[0] if name.split() else name
    return [s for s in sentences if first in s.text or same_entity(s.carry or "", name)
            or any(same_entity(m.entity, name) for m in s.names)]


def _stands_for(sentence: Sentence, position: int, name: str) -> bool:
    """The pronoun at `position` can only mean `name`: every name before it in the sentence is
    that one (or, with none, the person the sentence carries on from)."""
    earlier = [m.entity for m in sentence.names if m.end <= position]
    return all(same_entity(e, name) for e in earlier) if earlier else same_entity(sentence.carry or "", name)


def _sibling_of(
    entity: str, relation: str, names: Sequence[str], kin: Sequence[Sentence], sentences: Sequence[Sentence]
) -> str | None:
    """"Kemi's sister" when the text only says "Ola's big sister Kemi" and calls Ola
    someone's sister too: siblings are each other's, but a sibling is a sister only where
    the text says so (Ola may be a brother). Only one such sibling may answer, and not one
    the text also calls a brother."""
    head = relation.split()[-1].lower()
    if head not in _SIBLINGS:
        return None
    told = _about(kin, entity)
    other = _SIBLINGS[1 - _SIBLINGS.index(head)]
    found = {n for n in names if not same_entity(n, entity)
             and any(same_entity(follow(n, word, told), entity) for word in _SIBLINGS)}
    found = {n for n in found if _called(n, head, names, kin, sentences) and not _called(n, other, names, kin, sentences)}
    return found.pop() if len(found) == 1 else None


def _in_law(
    entity: str, relation: str, names: Sequence[str], kin: Sequence[Sentence], sentences: Sequence[Sentence]
) -> str | None:
    """"Teo's sister-in-law" when the text never says it: Teo's partner's sister (or the
    one person whose sibling that partner is and whom the text calls a sister), else Teo's
    brother's partner; a son-in-law is only a daughter's partner."""
    head = relation.split()[-1].lower()
    if not head.endswith(_IN_LAW):
        return None
    kin_word = head[: -len(_IN_LAW)]
    partner = follow(entity, "partner", kin) or _spouse_of(entity, "partner", names, kin)
    if partner and kin_word not in _CHILDREN:  # a partner's daughter is a stepdaughter, not a daughter-in-law
        found = follow(partner, kin_word, kin)
        of_partner = _about(kin, partner)
        siblings = {n for n in names if not same_entity(n, partner) and not same_entity(n, entity)
                    and any(same_entity(follow(n, word, of_partner), partner) for word in _SIBLINGS)
                    and _called(n, kin_word, names, kin, sentences)}
        if found or len(siblings) == 1 and kin_word in _SIBLINGS:
            return found or siblings.pop()
    other = _IN_LAW_VIA.get(kin_word)
    via = follow(entity, other, kin) if other else None
    return follow(via, "partner", kin) or _spouse_of(via, "partner", names, kin) if via else None


def _pairs(sentence: Sentence, toks: list[Token], k: int) -> list[tuple[str, str]]:
    """(owner, relative) pairs the relation word at k states."""
    owner, owner_at = _possessor(sentence, toks, k)
    target = _target(sentence, toks, k, owner_at)
    pairs = [(owner, target)] if owner and target else []
    mutual = _mutual(sentence, toks, k)
    if mutual:
        pairs.append(mutual)
    return pairs


def _entity_at(sentence: Sentence, tok: Token) -> str | None:
    named = name_at(sentence, tok.start(), tok.end())
    if named:
        return named.entity
    word = tok.group(0)
    if word.lower() in ("i", "me"):
        return sentence.speaker
    return surface_name(sentence, tok.start()) if word[0].isupper() else None


def _possessor(sentence: Sentence, toks: list[Token], k: int) -> tuple[str | None, int]:
    """Whose relation the word at k is, and the token that says so."""
    j = k - 1
    while j >= 0 and (toks[j].group(0).lower() in MODIFIERS or _describing(toks, j)):
        j -= 1
    if k + 2 < len(toks) and toks[k + 1].group(0).lower() == "of":  # "the sister of Bob"
        return _entity_at(sentence, toks[k + 2]), k
    if k + 2 < len(toks) and toks[k + 1].group(0).lower() == "in" and j >= 0 \
            and toks[j].group(0).lower() in ("the", "a", "an"):  # "the drummer in Tin Owls", not "my sister in Lyon"
        group = name_at(sentence, toks[k + 2].start(), toks[k + 2].end())
        if group is not None:
            return group.entity, k
    if j < 0:
        return sentence.owner, k
    prev = toks[j].group(0)
    low = prev.lower()
    if is_possessive(prev):
        named = name_at(sentence, toks[j].start(), toks[j].end())
        return (named.entity if named else bare(prev) if prev[0].isupper() else None), j
    if low in ("my", "our"):
        return sentence.speaker or sentence.owner, j
    if low in ("his", "her", "their"):
        return resolve_pronoun(sentence, toks[j].start()), j
    if toks[k].group(0)[0].isupper() and sentence.speaker:  # "lunch with Mum (Leena)"
        return sentence.speaker, k
    if low in ("a", "an", "the") or _described(toks, j):  # "the colleague", "the only colleague"
        if sentence.owner:
            return sentence.owner, k
        if sentence.first_person and sentence.speaker and _predicative(toks, j):
            return sentence.speaker, k  # "Bo … is the colleague who fixes the printer" in my diary: my colleague
    return None, k


def _predicative(toks: list[Token], j: int) -> bool:
    """"is a colleague", "was the only colleague": the relation word says what someone is."""
    return any(t.group(0).lower() in _COPULAS for t in toks[max(0, j - 2) : j + 1])


def _described(toks: list[Token], j: int) -> bool:
    """"the only colleague", "a new neighbour": one lower-case word between an article and
    the relation word."""
    word = toks[j].group(0)
    return word.isalpha() and word.islower() and j > 0 and toks[j - 1].group(0).lower() in ("a", "an", "the")


def _describing(toks: list[Token], j: int) -> bool:
    """"Ines's climbing partner": one lower-case word between an owner and its relation word."""
    word = toks[j].group(0)
    if not (word.isalpha() and word.islower()) or j == 0:
        return False
    before = toks[j - 1].group(0)
    return is_possessive(before) or before.lower() in ("my", "our", "his", "her", "their")


def _target(sentence: Sentence, toks: list[Token], k: int, owner_at: int) -> str | None:
    """The name right after the relation word ("sister Carol"), else right before its owner
    ("Carol is Bob's sister", "Bob, Alice's roommate")."""
    i = k + 1
    while i < len(toks) and i <= k + 3 and toks[i].group(0).lower() in _GLUE_AFTER:
        i += 1
    if i < len(toks) and i <= k + 3 and toks[i].group(0)[0].isupper() and not _possessive_name(toks, i):
        found = _entity_at(sentence, toks[i])
        if found:
            return found
    if is_possessive(toks[k].group(0)):
        return None  # "Pepper, Maya's friend's sister's dog": Pepper is the dog, not the friend
    named_after = _after_owner(sentence, toks, k) if owner_at == k else None
    if named_after:
        return named_after
    i = owner_at - 1
    while i >= 0 and i >= owner_at - 3 and toks[i].group(0).lower() in _GLUE_BEFORE:
        i -= 1
    if not 0 <= i < owner_at:
        return None
    if word_of(toks[i].group(0)) in ("he", "she", "they"):  # "he's Alice's roommate"
        return resolve_pronoun(sentence, toks[i].start())
    named = name_at(sentence, toks[i].start(), toks[i].end())
    if named and not is_possessive(toks[i].group(0)):
        return named.entity
    for c in range(owner_at - 1, max(owner_at - COPULA_REACH, 0), -1):  # "Alice is Maya's friend and Bob's roommate"
        if toks[c].group(0).lower() in _COPULAS:
            subject = name_at(sentence, toks[c - 1].start(), toks[c - 1].end())
            if subject is None:
                return _relative_subject(sentence, toks, c)
            return subject.entity if not is_possessive(toks[c - 1].group(0)) else None
    return None


def _after_owner(sentence: Sentence, toks: list[Token], k: int) -> str | None:
    """"the drummer in Tin Owls is Cal": a known name after the group's name and a copula.
    Only that shape: "the mother of Bob was French" names no one after the copula."""
    if k + 2 >= len(toks) or toks[k + 1].group(0).lower() != "in":
        return None
    j = k - 1
    while j >= 0 and (toks[j].group(0).lower() in MODIFIERS or _describing(toks, j)):
        j -= 1
    if j < 0 or toks[j].group(0).lower() not in ("the", "a", "an"):
        return None
    owner = name_at(sentence, toks[k + 2].start(), toks[k + 2].end())
    if owner is None:
        return None
    i = k + 2
    while i < len(toks) and toks[i].start() < owner.end:
        i += 1
    if i + 1 < len(toks) and toks[i].group(0).lower() in _COPULAS and toks[i + 1].group(0)[0].isupper() \
            and not _possessive_name(toks, i + 1):  # "… is Bo's singer": Bo is not the one
        named = name_at(sentence, toks[i + 1].start(), toks[i + 1].end())
        return named.entity if named else None
    return None


def _relative_subject(sentence: Sentence, toks: list[Token], c: int) -> str | None:
    """"Bo, who sits by the window and is my colleague": the copula's subject is the name
    the relative "who" follows, when no clause mark stands between them."""
    for w in range(c - 1, max(c - RELATIVE_REACH, 1), -1):
        word = toks[w].group(0).lower()
        if word in (",", ";", ":", "(", ")", ".") or word in _COPULAS:
            return None
        if word == "who" and toks[w - 1].group(0) == "," and w >= 2:
            return None if is_possessive(toks[w - 2].group(0)) else _entity_at(sentence, toks[w - 2])
    return None


def _possessive_name(toks: list[Token], i: int) -> bool:
    """"Dan Okafor's colleague": a name that owns the next noun is not an apposition."""
    while i + 1 < len(toks) and toks[i + 1].group(0)[0].isupper() and not is_possessive(toks[i].group(0)):
        i += 1
    return is_possessive(toks[i].group(0))


def _mutual(sentence: Sentence, toks: list[Token], k: int) -> tuple[str, str] | None:
    """"Alice and I have been best friends": each is the other's friend."""
    head = sentence.text[: toks[k].start()]
    m = _MUTUAL.search(re.sub(r"(?:\b(?:best|close|good|old)\s+)+$", "", head))
    if not m:
        return None
    before = [t for t in toks if t.end() <= m.start()]
    second = [t for t in toks if m.start() <= t.start() < m.end()][1:2]
    if not before or not second:
        return None
    first, other = _entity_at(sentence, before[-1]), _entity_at(sentence, second[0])
    return (first, other) if first and other else None

