"""Checks on a model's text that the schema cannot express: block tags copied from the
prompt, facts in the diarist's first person, and details a fact's source turns never say.

A small local model stored profiles wrapped in literal `<profile>` tags, facts as "I went
to ...", and names from the prompt's example in every store; each rule here is a line
between what the model wrote and what memhop keeps.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date

from memhop.core.language.names import fold

_TAG = re.compile(r"</?[A-Za-z_][\w-]*\s*/?>")
_SPACES = re.compile(r"[ \t]+")
# Words after "I" that keep their form in the third person: modals and past tenses.
_KEEPS_FORM = frozenset(
    """was had did could would should might must can will may went got met saw made took said told
    bought found gave left felt kept thought came ran began wrote spent paid lost won sold sent heard
    knew brought ate drank drove flew taught caught slept swam sang read put cut let set hit quit forgot
    became chose drew fell grew held hurt lay led lent meant rode rose shook shot shut sat spoke stood
    stole threw understood woke wore""".split()
)
_PRESENT_ED = frozenset({"need", "feed", "bleed", "breed", "speed", "seed", "heed", "embed", "shed", "wed"})
_IRREGULAR = {"am": "is", "have": "has", "do": "does", "go": "goes", "be": "is"}
_NOT_VERBS = frozenset({"and", "or", "but", "not", "too", "alone"})
# "I" and the word after it, past an adverb ("I really like"): "Alice really likes".
_I_VERB = re.compile(r"\bI((?: (?:[a-z]+ly|just|still|often|always|never|even|only|also|then|once))?) ([a-z]+)\b")
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|me|my|mine|myself)\b", re.IGNORECASE)
_LEFTOVER_I = re.compile(r"\bI\b")
_CAPITALISED = re.compile(r"\b[^\W\d_a-z][^\W\d_]*")
_NUMBER = re.compile(r"\d+")
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
# A date as a fact writes it once the model has resolved "yesterday": 2023-05-07,
# 7 May 2023, May 7th, 2023. Its numbers need not be in the turn, only near its date.
_WRITTEN_DATE = re.compile(
    rf"\b(\d{{4}})-\d{{1,2}}-\d{{1,2}}\b|\b\d{{1,2}}(?:st|nd|rd|th)? (?:of )?{_MONTH}(?:,? (\d{{4}}))?"
    rf"|\b{_MONTH} \d{{1,2}}(?:st|nd|rd|th)?(?:,? (\d{{4}}))?",
    re.IGNORECASE,
)
_THOUSANDS = re.compile(r"(?<=\d)[,_](?=\d{3}\b)")
# Words a sentence may start with, or that dates and kinship put in capitals.
_ORDINARY = frozenset(
    """a an the on in at of to for from by with after before since during until as when while on
    he she they it its his her their this that these those there here both each every some all
    no not yes today yesterday tomorrow last next early late
    monday tuesday wednesday thursday friday saturday sunday january february march april may june
    july august september october november december mum mom dad mother father""".split()
)
_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
    "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
    "hundred": 100, "thousand": 1000, "dozen": 12, "half": 2, "twice": 2, "once": 1,
}  # fmt: skip


def strip_tags(text: str) -> str:
    """The text without markup tags such as `<profile>` or `</turns>`."""
    if "<" not in text:
        return text.strip()
    return "\n".join(_SPACES.sub(" ", line).strip() for line in _TAG.sub(" ", text).splitlines()).strip()


def is_first_person(text: str) -> bool:
    return _FIRST_PERSON.search(text.replace("\u2019", "'")) is not None


def third_person(text: str, self_name: str | None) -> str | None:
    """`text` with the diarist's "I", "me" and "my" replaced by their name and the verb
    after "I" in the third person ("I like" -> "Alice likes"), or None when no name is
    known to put there."""
    text = text.replace("\u2019", "'")
    if not is_first_person(text):
        return text
    if not self_name:
        return None
    name = self_name.strip()
    rules = (
        (r"\bI'm\b", f"{name} is"),
        (r"\bI've\b", f"{name} has"),
        (r"\bI'll\b", f"{name} will"),
        (r"\bI'd\b", f"{name} would"),
        (r"\bI don't\b", f"{name} doesn't"),
        (r"\b[Mm]yself\b", name),
        (r"\b[Mm]y\b", f"{name}'s"),
        (r"\b[Mm]ine\b", f"{name}'s"),
        (r"\b[Mm]e\b", name),
    )
    for pattern, replacement in rules:
        text = re.sub(pattern, replacement.replace("\\", "\\\\"), text)
    text = _I_VERB.sub(lambda m: f"{name}{m.group(1)} {_third_singular(m.group(2))}", text)
    return None if _LEFTOVER_I.search(text) else text


def _third_singular(verb: str) -> str:
    """"like" -> "likes", "watch" -> "watches", "study" -> "studies"; a modal or a past
    tense ("could", "went", "played") as it is."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb in _NOT_VERBS or verb in _KEEPS_FORM or (verb.endswith("ed") and verb not in _PRESENT_ED):
        return verb
    if re.search(r"(?:s|sh|ch|x|z|o)$", verb):
        return verb + "es"
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ies"
    return verb + "s"


def ungrounded(fact: str, sources: Iterable[str], names: Iterable[str], dates: Iterable[date | None]) -> str | None:
    """The first name or number in `fact` that neither its source turns nor the entity's
    own names say, else None. Numbers of the fact's resolved dates count as said ("on
    2023-05-07" for "yesterday"), and "two" in a turn says 2."""
    source = " ".join(sources)
    said_words = {_key(w) for w in re.findall(r"[^\W\d_]+", source)}
    for name in names:
        said_words |= {_key(w) for w in re.findall(r"[^\W\d_]+", name)}
    said_numbers = {int(n) for n in _NUMBER.findall(_THOUSANDS.sub("", source))}
    said_numbers |= {value for word, value in _NUMBER_WORDS.items() if word in said_words}
    years = set()
    for day in dates:
        if day is not None:
            said_numbers |= {day.year, day.month, day.day, day.year % 100}
            years |= {day.year - 1, day.year, day.year + 1}

    def resolved(match: re.Match[str]) -> str:
        year = next((int(y) for y in match.groups() if y), None)
        return " " if year is None or year in years else match.group(0)

    fact = _WRITTEN_DATE.sub(resolved, fact) if years else fact
    for word in _CAPITALISED.findall(fact):
        key = _key(word)
        if key not in said_words and key not in _ORDINARY:
            return word
    for number in _NUMBER.findall(_THOUSANDS.sub("", fact)):
        if int(number) not in said_numbers:
            return number
    return None


def _key(word: str) -> str:
    return fold(word).casefold()
