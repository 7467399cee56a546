"""MemHop questions over a generated scenario: the chain, its natural-language noun
phrase ("the sister of Alice's roommate"), the per-hop decomposition and gold evidence."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from memhop.core.bench import phrases as ph


@dataclass(frozen=True)
class Character:
    key: str
    name: str  # how the diary and the questions call it: first name, pet name, place name
    kind: str  # self | person | pet | place | acquaintance
    gender: str  # f | m
    species: str = ""  # pets
    place_type: str = ""  # places


@dataclass(frozen=True)
class Link:
    type: ph.RelationType
    source: str
    target: str


@dataclass(frozen=True)
class Hop:
    question: str
    answer: str
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class BenchQuestion:
    id: str
    k: int
    text: str
    answer: str
    chain: tuple[str, ...]  # entity names e1..eK; the last one bears the answer
    hops: tuple[Hop, ...]
    distractors: tuple[str, ...] = ()  # wrong values: the same attribute elsewhere, stale values

    @property
    def evidence(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(e for hop in self.hops for e in hop.evidence))


def noun_for(chars: Mapping[str, Character], link: Link, forward: bool) -> str:
    """What the other end is called from one end: "sister", "dog", "mentee"..."""
    other = chars[link.target if forward else link.source]
    if link.type is ph.PET_RELATION and forward:
        return other.species
    if link.type.gendered:
        return link.type.gendered[0 if other.gender == "f" else 1]
    return link.type.forward if forward else link.type.inverse


def _extend(np: str, kind: str, chars: Mapping[str, Character], link: Link, forward: bool, rng: random.Random) -> tuple[str, str]:
    """The noun phrase one hop further, and its shape: self | name | poss | phrase."""
    if link.type is ph.WORK_RELATION:
        if forward:
            place = chars[link.target].place_type
            return (f"the {place} where I work" if kind == "self" else f"the {place} where {np} works"), "phrase"
        return f"the person who works at {np}", "phrase"
    noun = noun_for(chars, link, forward)
    if kind == "self":
        return f"my {noun}", "poss"
    if kind == "name" or (kind == "poss" and rng.random() < 0.5):
        return f"{np}'s {noun}", ("poss" if kind == "name" else "phrase")
    return f"the {noun} of {np}", "phrase"


def _who(np: str, link: Link, forward: bool) -> str:
    if link.type is ph.WORK_RELATION:
        return f"Where does {np} work?" if forward else f"Who works at {np}?"
    if link.type is ph.PET_RELATION and forward:
        return f"What is the name of {np}?"
    return f"Who is {np}?"


def compose(
    chars: Mapping[str, Character],
    links: Sequence[Link],
    facts: Mapping[tuple[str, str], tuple[str, str | None]],
    path: Sequence[str],
    via: Sequence[int],
    slot_name: str,
    evidence: Mapping[str, Sequence[str]],
    qid: str,
    rng: random.Random,
) -> BenchQuestion:
    start = chars[path[0]]
    np, kind = ("I", "self") if start.kind == "self" else (start.name, "name")
    hops = []
    for i, index in enumerate(via):
        link = links[index]
        forward = link.source == path[i]
        here = chars[path[i]]
        one_np, _ = _extend("I" if here.kind == "self" else here.name, "self" if here.kind == "self" else "name",
                            chars, link, forward, rng)
        if link.type is ph.WORK_RELATION:
            one_np = "I" if here.kind == "self" else here.name
        hops.append(Hop(_who(one_np, link, forward), chars[path[i + 1]].name, tuple(evidence[f"link:{index}"])))
        np, kind = _extend(np, kind, chars, link, forward, rng)
    holder = chars[path[-1]]
    slot = ph.slot_named(slot_name)
    value, previous = facts[(holder.key, slot_name)]
    template = rng.choice(slot.asked)
    hops.append(Hop(template.format(np=holder.name), value, tuple(evidence[f"fact:{holder.key}:{slot_name}"])))
    text = template.format(np=np)
    wrong = [v for (h, s), (v, _) in facts.items() if s == slot_name and h != holder.key]
    if previous:
        wrong.append(previous)
    names = tuple(chars[k].name for k in path)
    return BenchQuestion(qid, len(path), text[0].upper() + text[1:], value, names, tuple(hops), tuple(wrong))
