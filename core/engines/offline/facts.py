"""What kind of fact a clause is: its ProGraph category, the slot it sets, what it is worth.

Pure text rules, so the same code reads a fresh clause and a sentence of an old profile.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memhop.core.language.dates import MONTHS, WEEKDAYS

OCCUPATIONS = (
    "sound engineer|software engineer|engineer|nurse|vet|veterinarian|doctor|gp|surgeon|paramedic|"
    "midwife|pharmacist|dentist|teacher|lecturer|professor|tutor|student|designer|developer|"
    "programmer|lawyer|solicitor|accountant|chef|cook|baker|barista|waiter|waitress|musician|"
    "pianist|drummer|guitarist|violinist|singer|artist|painter|writer|author|journalist|editor|"
    "counsellor|counselor|therapist|psychologist|social worker|scientist|researcher|manager|"
    "nanny|architect|photographer|firefighter|police officer|mechanic|electrician|plumber|"
    "carpenter|farmer|pilot|cleaner|receptionist|consultant|analyst|librarian|coach|trainer|"
    "instructor|cashier|entrepreneur|freelancer|intern|ux designer|product manager"
)
INSTRUMENTS = (
    "piano|violin|viola|cello|guitar|bass|drums|drum kit|flute|saxophone|sax|trumpet|ukulele|harp|clarinet|keyboard|organ"
)

_STATE = tuple(
    re.compile(p, re.I)
    for p in (
        r"\b(?:started|starts|starting|began|begun|joined|landed|accepted|got|took)\b(?:\s+[\w'’]+){0,4}?\s+(?:job|position|role|internship|course|degree|apprenticeship)\b",
        r"\bnew (?:job|role|position|home|house|flat|apartment|school|partner|girlfriend|boyfriend)\b",
        r"\b(?:moved|moving|relocated|relocating)\s+(?:to|into|in|out|back|house|abroad|away)\b",
        r"\b(?:quit|quitting|resigned|resigning|retired|retiring|graduated|graduating|promoted|fired|laid off|made redundant)\b",
        r"\b(?:left|leaving)\s+(?:(?:his|her|their|my|the)\s+)?(?:job|work|company|team|school|band|[A-Z])",
        r"\bhanded\s+(?:in\s+)?(?:his|her|their|my)\s+notice\b",
        r"\b(?:now works?|now lives?|is now|are now|['’]s now|has become|became|officially)\b",
        r"\b(?:got|getting)\s+(?:married|engaged|divorced|a promotion)\b|\b(?:broke|split) up\b",
        r"\b(?:adopted|had a baby|gave birth|passed away|died|is pregnant|transitioned|came out)\b",
        r"\bbought\s+(?:a|an|our|his|her|their|my)\s+(?:house|home|flat|apartment|car)\b",
    )
)
_IDENTITY = re.compile(
    rf"\b(?:works?\s+(?:as|at|for|in)|working\s+(?:as|at|for)|job\s+(?:as|at)|where\s+\w+\s+works?|"
    rf"(?:is|was|['’]s|am|be|becoming|become)\s+(?:now\s+|officially\s+|still\s+)?an?\s+(?:\w+\s+)?(?:{OCCUPATIONS})|"
    rf"years?\s+old|aged?\s+\d+|is\s+from|comes?\s+from|grew\s+up|born\s+in|identif(?:y|ies)\s+as|"
    rf"transgender|trans\s+(?:woman|man|girl|boy)|gay|lesbian|bisexual|queer|non-binary|vegan|vegetarian|"
    rf"(?:plays?|played|playing|practi[sc]es?)\s+(?:the\s+|a\s+)?(?:{INSTRUMENTS})|"
    rf"keen\s+on|passionate\s+about|interested\s+in|loves?\s+(?:to\s+|\w+ing\b)|enjoys?|favou?rite|"
    rf"hobby|hobbies|fan\s+of|career|studying|studies|(?:{OCCUPATIONS})\b)",
    re.I,
)
_PLACE = rf"(?!(?:{'|'.join(MONTHS + WEEKDAYS)})\b)(?-i:[A-Z])"  # a name, not "Saturday"
_SLOTS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (slot, re.compile(p, re.I))
    for slot, p in (
        ("job", rf"\bworks?\s+(?:as|at|for)\b|\bworking\s+(?:as|at|for)\b|\bjob\s+as\b|\bwhere\s+\w+\s+works\b|"
                rf"\b(?:is|was|['’]s)\s+(?:now\s+|officially\s+)?an?\s+(?:\w+\s+)?(?:{OCCUPATIONS})\b|"
                rf"\bstarted\s+(?:\w+\s+){{0,3}}(?:job|role|position)\s+(?:as|at)\b"),
        ("home", rf"\b(?:lives?|living)\s+(?:in|at|on)\s+(?:the\s+)?{_PLACE}|\bmoved\s+(?:to|into)\b|"
                 rf"\b(?:flat|house|home|apartment)\s+(?:is\s+)?(?:in|on)\s+{_PLACE}"),
        ("relationship", r"\b(?:married\s+to|engaged\s+to|dating|broke\s+up\s+with)\b"),
        ("age", r"\b(?:is|turned|turns|['’]s)\s+\d{1,3}(?:\s+years\s+old)?\b|\b\d{1,3}\s+years\s+old\b"),
        ("weight", r"\bweigh(?:s|ed|t|ing)?\b.*\b\d+(?:\.\d+)?\s*(?:kg|kilos?|lbs?|pounds|stone)\b"),
        ("school", r"\b(?:studies|studying|student)\s+at\b|\bgoes\s+to\s+(?:\w+\s+){0,3}(?:school|university|college)\b"),
    )
)
_NUMBER = re.compile(
    r"[£$€]\s?\d|\b\d+(?:[.,]\d+)?\s*(?:%|kg|km|mins?|minutes|hours|times|people|years?|months?|weeks?|days?)?\b|"
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|dozen)\b",
    re.I,
)
_LIST = re.compile(r"[^,;]+(?:[,;][^,;]+){2,}")
_CAPITALISED = re.compile(r"(?<=[\s(])([A-Z][\w&'’.-]*(?:\s+(?:&|of|the|and|de)?\s*[A-Z][\w&'’.-]*)*)")
_TIME_WORDS = frozenset(w.capitalize() for w in MONTHS + WEEKDAYS) | {"I"}
_OCCUPATION = re.compile(rf"\b(?:{OCCUPATIONS})\b", re.I)
WEIGHTS = {"state_change": 5.0, "date": 3.0, "cross_entity": 2.5, "identity": 3.0, "number": 1.5, "list": 1.5, "name": 1.0}


@dataclass(frozen=True)
class Kind:
    category: str | None  # None: nothing worth keeping exactly
    slot: str | None
    score: float


def is_state_change(text: str) -> bool:
    return any(p.search(text) for p in _STATE)


def is_identity(text: str) -> bool:
    return bool(_IDENTITY.search(text))


def slot_of(text: str) -> str | None:
    return next((slot for slot, p in _SLOTS if p.search(text)), None)


def values(text: str, own_names: tuple[str, ...] = ()) -> frozenset[str]:
    """What a slot is set to: the names, occupations and numbers in the clause, minus its own entity."""
    text = _strip_dates(text)
    found = {m.group(1).strip(" .'’") for m in _CAPITALISED.finditer(text)}
    found |= {m.group(0).lower() for m in _OCCUPATION.finditer(text)}
    found |= set(re.findall(r"\b\d+(?:\.\d+)?\b", text))
    found = {v for v in found if v not in _TIME_WORDS and not all(w in _TIME_WORDS for w in v.split())}
    own = {n.lower() for n in own_names} | {n.split()[0].lower() for n in own_names if n}
    kept = set()
    for value in found:
        words = value.split()
        while words and (words[0] in _TIME_WORDS or words[0].lower() in own):
            words = words[1:]
        value = " ".join(words).removesuffix("'s").removesuffix("’s")
        if value and value.lower() not in own and value not in _TIME_WORDS:
            kept.add(value)
    return frozenset(kept)


def classify(
    text: str,
    has_date: bool,
    other_entities: bool,
    relation: bool,
    proper_names: bool,
    is_list: bool,
    subject_is_entity: bool,
) -> Kind:
    """The most specific category (state change > date > cross-entity > number > identity > list > name)."""
    state = is_state_change(text)
    identity = bool(_IDENTITY.search(text))
    listed = is_list or bool(_LIST.search(text) and re.search(r"\b(?:and|or)\b|;", text))
    number = bool(_NUMBER.search(_strip_dates(text)))
    flags = {
        "state_change": state,
        "date": has_date,
        "cross_entity": relation or other_entities,
        "number": number,
        "identity": identity,
        "list": listed,
        "name": proper_names,
    }
    category = next((c for c, on in flags.items() if on), None)
    slot = slot_of(text) if subject_is_entity and category is not None else None
    score = sum(WEIGHTS[c] for c, on in flags.items() if on) + (3.0 if relation else 0.0)
    score += min(len(text.split()), 25) / 25
    return Kind(category, slot, score)


def _strip_dates(text: str) -> str:
    """Numbers inside the "(on 7 May 2023)" labels are dates, not quantities."""
    text = re.sub(r"\((?:on|in|around|as of|the|a few|several)\b[^)]*\)", "", text)
    months = "|".join(MONTHS)
    return re.sub(rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{months})\b|\b(?:19|20)\d\d\b", "", text, flags=re.I)
