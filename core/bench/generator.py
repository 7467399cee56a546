"""A MemHop-style benchmark generator (seed 000 §4, appendix B), seeded and deterministic.

Each scenario is a small social network (a diarist, 4-6 people, pets, places, 6-10
functional relations, attributes, state changes and distractors) written out as a
first-person diary, with questions at hop depth K = 1..5. K counts sub-questions: K - 1
relation hops from the start entity, then one attribute lookup (MemHop's K = 1 is a
direct lookup). Every question records its chain and per-hop gold evidence turns
(LoCoMo-style ids "D<session>:<turn>"), derived from the schema, never guessed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from memhop.core.bench import phrases as ph
from memhop.core.bench.questions import BenchQuestion, Character, Link, compose, noun_for
from memhop.core.importers.base import ParsedSource, Session, Turn

QUOTA = (25, 25, 20, 18, 12)  # questions per scenario at K = 1..5, as in MemHop
FORMAT = "benchgen"


@dataclass(frozen=True)
class Scenario:
    index: int
    diarist: str  # full name, the speaker of every turn and the store's self entity
    characters: tuple[Character, ...]
    links: tuple[Link, ...]
    facts: dict[tuple[str, str], tuple[str, str | None]]  # (holder, slot) -> (value, previous)
    parsed: ParsedSource
    questions: tuple[BenchQuestion, ...]

    @property
    def turns(self) -> int:
        return sum(len(s.turns) for s in self.parsed.sessions)


@dataclass
class _Draft:
    """Everything a scenario accumulates before it is written out."""

    rng: random.Random
    chars: dict[str, Character] = field(default_factory=dict)
    links: list[Link] = field(default_factory=list)
    used_sides: set[tuple[str, str]] = field(default_factory=set)
    facts: dict[tuple[str, str], tuple[str, str | None]] = field(default_factory=dict)
    observations: list[tuple[str, str, int]] = field(default_factory=list)  # (evidence key, text, phase)


def generate(scenarios: int, seed: int = 0, questions: int = 100, sessions: int = 20) -> list[Scenario]:
    return [generate_scenario(i, seed, questions, sessions) for i in range(scenarios)]


def generate_scenario(index: int, seed: int = 0, questions: int = 100, sessions: int = 20) -> Scenario:
    """Draw schemas until one has enough distinct chains for the K quota."""
    quota = _scaled_quota(questions)
    for attempt in range(50):
        draft = _Draft(random.Random(f"memhop-bench:{seed}:{index}:{attempt}"))
        _cast(draft)
        _relate(draft)
        _attribute(draft)
        candidates = _chains(draft)
        if all(len(candidates[k]) >= quota[k - 1] for k in range(1, 6)):
            break
    _observe(draft)
    parsed, evidence = _write_diary(draft, max(2, sessions))
    chosen = _questions(draft, candidates, quota, evidence, index)
    diarist = draft.chars["me"].name
    return Scenario(index, diarist, tuple(draft.chars.values()), tuple(draft.links), draft.facts, parsed, chosen)


def _scaled_quota(total: int) -> tuple[int, ...]:
    """MemHop's 25/25/20/18/12 shape for any total (at least one question per K)."""
    raw = [max(1, round(total * q / 100)) for q in QUOTA]
    raw[0] += total - sum(raw) if total >= 5 else 0
    return tuple(max(1, r) for r in raw)


def _cast(d: _Draft) -> None:
    rng = d.rng
    genders = [rng.choice("fm") for _ in range(9)]
    firsts = iter(rng.sample(ph.FEMALE, 9)), iter(rng.sample(ph.MALE, 9))
    names = [next(firsts[0] if g == "f" else firsts[1]) for g in genders]
    d.chars["me"] = Character("me", f"{names[0]} {rng.choice(ph.SURNAMES)}", "self", genders[0])
    people = rng.randint(4, 6)
    for i in range(1, people + 1):
        d.chars[f"p{i}"] = Character(f"p{i}", names[i], "person", genders[i])
    for i, name in enumerate(names[7:9]):
        d.chars[f"q{i}"] = Character(f"q{i}", name, "acquaintance", genders[7 + i])
    for i, pet in enumerate(rng.sample(ph.PET_NAMES, rng.randint(1, 2))):
        d.chars[f"pet{i}"] = Character(f"pet{i}", pet, "pet", rng.choice("fm"), species=rng.choice(ph.SPECIES))
    places = rng.sample(ph.PLACE_FIRST, 2)
    for i, first in enumerate(places[: rng.randint(1, 2)]):
        kind = rng.choice(ph.PLACE_TYPES)
        d.chars[f"pl{i}"] = Character(f"pl{i}", f"{first} {kind}", "place", "f", place_type=kind.lower())


def _sides(rtype: ph.RelationType) -> tuple[str, str]:
    if rtype.symmetric:
        return rtype.name, rtype.name
    return f"{rtype.name}>", f"{rtype.name}<"


def _try_link(d: _Draft, rtype: ph.RelationType, source: str, target: str) -> bool:
    src_side, dst_side = _sides(rtype)
    if source == target or (source, src_side) in d.used_sides or (target, dst_side) in d.used_sides:
        return False
    if any({link.source, link.target} == {source, target} for link in d.links):
        return False
    d.used_sides |= {(source, src_side), (target, dst_side)}
    d.links.append(Link(rtype, source, target))
    return True


def _relate(d: _Draft) -> None:
    """A spanning tree (every entity reachable), then extra relations up to 6-10 in all."""
    rng = d.rng
    people = [k for k, c in d.chars.items() if c.kind == "person"]
    joined = ["me"]
    for person in people:
        while not _try_link(d, rng.choice(ph.PERSON_RELATIONS), rng.choice(joined), person):
            pass
        joined.append(person)
    for key, char in d.chars.items():
        if char.kind in ("pet", "place"):
            rtype = ph.PET_RELATION if char.kind == "pet" else ph.WORK_RELATION
            owners = [p for p in people + ["me"] if (p, _sides(rtype)[0]) not in d.used_sides]
            owners = [p for p in owners if p != "me" or rng.random() < 0.3] or owners
            _try_link(d, rtype, rng.choice(owners), key)
    target = max(len(d.links), rng.randint(6, 10))
    for _ in range(200):
        if len(d.links) >= target:
            break
        a, b = rng.sample(joined, 2)
        _try_link(d, rng.choice(ph.PERSON_RELATIONS), a, b)


def _attribute(d: _Draft) -> None:
    """Values are distinct per slot, so another holder's value is always a wrong answer."""
    rng = d.rng
    pools = {s.name: rng.sample(s.values, len(s.values)) for s in ph.PERSON_SLOTS + ph.PET_SLOTS + ph.PLACE_SLOTS}
    counts = {"person": (4, 6), "self": (3, 3), "acquaintance": (2, 2)}
    for key, char in d.chars.items():
        if char.kind in ("pet", "place"):
            slots = ph.PET_SLOTS if char.kind == "pet" else ph.PLACE_SLOTS
        else:
            slots = tuple(rng.sample(ph.PERSON_SLOTS, rng.randint(*counts[char.kind])))
        for slot in slots:
            pool = pools[slot.name]
            if slot.name == "breed":
                breeds = ph.BREEDS[char.species]
                pool = pools.setdefault(f"breed:{char.species}", rng.sample(breeds, len(breeds)))
            if not pool:
                continue
            value = pool.pop()
            previous = None
            if slot.changed and char.kind == "person" and pool and rng.random() < 0.5:
                previous = pool.pop()
            d.facts[(key, slot.name)] = (value, previous)


def _pronouns(char: Character) -> dict[str, str]:
    sub, pos = ("she", "her") if char.gender == "f" else ("he", "his")
    return {"a_sub": sub, "a_sub_cap": sub.capitalize(), "a_pos": pos}


def _fill(d: _Draft, template: str, a: Character | None = None, **extra: str) -> str:
    when = d.rng.choice(ph.WHEN)
    fields = {"when": when, "when_lower": when[0].lower() + when[1:], "act": d.rng.choice(ph.ACTS)}
    if a is not None:
        fields |= {"a": a.name, "a_poss": f"{a.name}'s", **_pronouns(a)}
    for key in ("v", "old"):
        if key in extra:
            fields[f"a_{key}"] = ("an " if extra[key][0] in "aeiou" else "a ") + extra[key]
    return template.format(**(fields | extra))


def _observe(d: _Draft) -> None:
    """One diary sentence per observation; phase 0 = early sessions, 1 = late (state changes)."""
    rng, add = d.rng, d.observations.append
    for i, link in enumerate(d.links):
        for _ in range(rng.choice((1, 2))):
            add((f"link:{i}", _link_sentence(d, link), -1))
    for (holder, slot_name), (value, previous) in d.facts.items():
        char, slot = d.chars[holder], ph.slot_named(slot_name)
        templates = slot.said_self if char.kind == "self" else slot.said
        if previous is not None:
            add((f"stale:{holder}:{slot_name}", _fill(d, rng.choice(templates), char, v=previous), 0))
            add((f"fact:{holder}:{slot_name}", _fill(d, rng.choice(slot.changed), char, v=value, old=previous), 1))
        else:
            for template in rng.sample(templates, min(len(templates), rng.choice((1, 1, 2)))):
                add((f"fact:{holder}:{slot_name}", _fill(d, template, char, v=value), -1))
    for char in d.chars.values():
        if char.kind == "acquaintance":
            add(("noise", _fill(d, rng.choice(ph.ACQUAINTANCE), char), -1))
        if char.kind == "person":
            for template in rng.sample(ph.MENTION_ONLY, rng.randint(1, 3)):
                add(("noise", _fill(d, template, char), -1))


def _link_sentence(d: _Draft, link: Link) -> str:
    rng, chars = d.rng, d.chars
    if link.type is ph.WORK_RELATION:
        person, place = chars[link.source], chars[link.target]
        if person.kind == "self":
            return _fill(d, rng.choice(ph.WORK_SAID_SELF), b=place.name)
        return _fill(d, rng.choice(ph.WORK_SAID), person, b=place.name)
    forward = link.source == "me" or (link.target != "me" and (link.type is ph.PET_RELATION or rng.random() < 0.5))
    a, b = (chars[link.source], chars[link.target]) if forward else (chars[link.target], chars[link.source])
    noun = noun_for(chars, link, forward)
    pool: tuple[str, ...]
    if link.type is ph.PET_RELATION:
        pool = ph.PET_SAID_SELF if a.kind == "self" else ph.PET_SAID
    else:
        pool = ph.RELATION_SAID_SELF if a.kind == "self" else ph.RELATION_SAID
    return _fill(d, rng.choice(pool), None if a.kind == "self" else a, b=b.name, noun=noun)


def _write_diary(d: _Draft, sessions: int = 20) -> tuple[ParsedSource, dict[str, list[str]]]:
    rng = d.rng
    buckets: list[list[tuple[str, str]]] = [[] for _ in range(sessions)]
    half = sessions // 2
    for key, text, phase in d.observations:
        low, high = {-1: (0, sessions - 1), 0: (0, half - 1), 1: (half, sessions - 1)}[phase]
        buckets[rng.randint(low, high)].append((key, text))
    day = datetime(2023, rng.randint(1, 6), rng.randint(1, 28), 21, rng.randint(0, 59))
    me = d.chars["me"].name
    evidence: dict[str, list[str]] = {}
    out = []
    for s, bucket in enumerate(buckets, start=1):
        day += timedelta(days=rng.randint(2, 6), minutes=rng.randint(-90, 90))
        fillers = iter(rng.sample(ph.FILLER, len(ph.FILLER)))
        while len(bucket) < rng.randint(9, 13):
            bucket.append(("filler", next(fillers)))
        rng.shuffle(bucket)
        turns = []
        for t, (key, text) in enumerate(bucket, start=1):
            ext = f"D{s}:{t}"
            evidence.setdefault(key, []).append(ext)
            turns.append(Turn(speaker=me, text=text, timestamp=day + timedelta(minutes=t), external_id=ext))
        out.append(Session(f"day-{s:02d}", tuple(turns), started_at=day, title=day.strftime("%A %d %B %Y")))
    return ParsedSource(FORMAT, tuple(out), owner=me, participants=(me,)), evidence


_Chain = tuple[tuple[str, ...], tuple[int, ...], str]  # entity keys, link indexes, slot name


def _chains(d: _Draft) -> dict[int, list[_Chain]]:
    """Every (entity path, link path, slot) whose end holds the slot, by K."""
    adjacency: dict[str, list[tuple[str, int]]] = {k: [] for k in d.chars}
    for i, link in enumerate(d.links):
        adjacency[link.source].append((link.target, i))
        adjacency[link.target].append((link.source, i))
    found: dict[int, list[_Chain]] = {k: [] for k in range(1, 6)}
    holders = {h for h, _ in d.facts}

    def walk(path: tuple[str, ...], via: tuple[int, ...]) -> None:
        k = len(path)
        end = path[-1]
        if end in holders and end != "me":
            found[k].extend((path, via, slot) for holder, slot in d.facts if holder == end)
        if k < 5:
            for nxt, i in adjacency[end]:
                if nxt not in path and nxt != "me":
                    walk(path + (nxt,), via + (i,))

    for start, char in d.chars.items():
        if char.kind != "acquaintance":
            walk((start,), ())
    return found


def _questions(
    d: _Draft, candidates: dict[int, list[_Chain]], quota: tuple[int, ...], evidence: dict[str, list[str]], index: int
) -> tuple[BenchQuestion, ...]:
    out: list[BenchQuestion] = []
    for k in range(1, 6):
        pool = [c for c in candidates[k] if k > 1 or c[0][0] != "me"]
        for n, (path, via, slot) in enumerate(d.rng.sample(pool, min(quota[k - 1], len(pool)))):
            out.append(compose(d.chars, d.links, d.facts, path, via, slot, evidence, f"s{index}-k{k}-{n}", d.rng))
    return tuple(out)
