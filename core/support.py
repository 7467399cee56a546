"""Why an answer can be trusted: the facts and turns it was read from, best first.

Computed after the answer call from what the answerer was given, so it works the same for
every engine. A fact or turn supports an answer when one of its sentences contains it —
its words in order (case, punctuation, accents and articles aside), a date written in any
form that resolves to the answer's date ("last night" in a turn of 15 March is 14 March),
or at least half of its content words — and support is ranked by how fully it contains
the answer (a sentence stating it word for word before one whose date resolves to it),
then by the read path's own ranking. A date answer that no text states but
that is a turn's own date is weak support: it shows where the answerer took it from.

A refusal, or an answer nothing contains, gets the closest memories instead, flagged
`closest`: what was found, never presented as proof.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from memhop.core.cite import Cited, cite_fact, cite_turn
from memhop.core.language import lexical
from memhop.core.language.dates import find_dates
from memhop.core.language.sentences import split_sentences
from memhop.core.store.recall import snapshot
from memhop.core.store.turns import turns_by_id
from memhop.core.trace import AnswerSource

if TYPE_CHECKING:
    from memhop.core.read import Context
    from memhop.core.store import Store

REFUSALS = ("i don't know", "i do not know", "i dont know", "unknown", "not mentioned", "no answer")
CLOSEST = 3  # memories shown when nothing supports an answer
WIDER = 300  # facts of the selected entities searched when the answerer's own context holds no support
FULL = 1.0  # the answer's words in order
DATE = 0.95  # a date expression that resolves to the answer's date: below a sentence stating it word for word
OWN_DATE = 0.5  # a date answer that is only the turn's own date
PARTIAL = 0.8  # times the share of the answer's content words a sentence holds
ENOUGH = 0.4  # a sentence with half the answer's content words supports it
_STATED = ("words", "date")  # how a sentence holds the whole answer
SOURCE = "source"  # how the answer's own sentence supports it when it holds none of its words (a count)
_ARTICLE = r"(?:a|an|the)"
_SEP = rf"[^a-z0-9]+(?:{_ARTICLE}[^a-z0-9]+)?"
_BEFORE = r"(?<![a-z0-9])(?<!\d[:.,])"  # "30" is not the minutes of "9:30" nor the decimals of "2.30"
_AFTER = r"(?![a-z0-9])(?![:.,]\d)(?!-[a-z])"  # nor "thirty" the start of "thirty-eight"
_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_MONTH_LABEL = re.compile(r"in [A-Z][a-z]+ (\d{4})$")
_YEAR_LABEL = re.compile(r"in (\d{4})$")
_MAYBE_DATE = re.compile(  # what every date expression core/language/dates.py reads contains
    r"\d|yesterday|today|tonight|tomorrow|night|morning|afternoon|evening|ago|week|month|year|recently|day"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\b(?:mon|tue|wed|thu|fri|sat|sun)",
    re.IGNORECASE,
)


def is_refusal(answer: str) -> bool:
    """"I don't know" in any of the ways an engine says it (or nothing at all)."""
    said = answer.strip().lower().replace("\u2019", "'")
    return not said or any(said.startswith(p) for p in REFUSALS)


@dataclass(frozen=True)
class SupportItem:
    cited: Cited
    closest: bool  # only close to the question: not shown to contain the answer
    quote: str  # the sentence holding the answer (or, for a closest item, nearest the question)
    span: tuple[int, int] | None  # where the answer is in `quote`
    how: str | None = None  # "words" | "date" | "some words" | "own date" | "source"; None for a closest item
    read: bool = False  # the engine says it cut the answer from this one (`quote`)

    def to_dict(self) -> dict[str, Any]:
        return {**self.cited.to_dict(), "closest": self.closest, "quote": self.quote}


@dataclass(frozen=True)
class Support:
    answered: bool  # False for "I don't know"
    items: tuple[SupportItem, ...]  # best first

    def to_list(self) -> list[dict[str, Any]]:
        return [item.to_dict() for item in self.items]

    @property
    def source(self) -> AnswerSource | None:
        """Where the answer was read from: the item the engine says it cut it from, else the
        best item that contains it."""
        best = next((i for i in self.items if i.read), None) or next((i for i in self.items if not i.closest), None)
        if best is None:
            return None
        c = best.cited
        day = c.day.isoformat() if c.day else None
        return AnswerSource(c.kind, c.id, best.quote, best.span, best.how or "", day, c.speaker, c.source)


@dataclass(frozen=True)
class _Target:
    """The answer, prepared for matching."""

    pattern: re.Pattern[str] | None  # its words in order, on folded text
    terms: frozenset[str]  # its content-word stems
    days: tuple[tuple[date, str], ...]  # the dates it says, with their grain: day | monthday | month | year
    numbers: frozenset[str]  # the amounts it says besides dates ("2.9" of "2.9 kg")

    @classmethod
    def of(cls, answer: str) -> _Target:
        words = [w for w in re.findall(r"[a-z0-9]+", fold(answer)) if w not in ("a", "an", "the")]
        pattern = re.compile(_BEFORE + _joined(words) + _AFTER) if words else None
        days, undated = _answer_days(answer)
        terms = frozenset(lexical.terms(undated))  # "12 May" shares no word with "12 March"
        return cls(pattern, terms, days, frozenset(_numbers(undated)))


@dataclass(frozen=True)
class _Found:
    score: float
    quote: str
    span: tuple[int, int] | None
    how: str | None = None


def find_support(store: Store, context: Context, answer: str, read_from: str | None = None) -> Support:
    """The facts and evidence turns the answer was read from, best first; the closest ones
    (flagged) for a refusal or an answer none of them contains.

    An answer read from a profile is in none of the facts and turns the answerer saw; the
    selected entities' other facts (and the turns those came from) are searched next — also
    when the context holds only some of its words and a sentence there may state it whole.
    `read_from`: the sentence the engine says it cut the answer from; the fact or turn
    holding it comes first (a list, a count or a resolved date need not contain its words),
    the others after it, best first."""
    answered = not is_refusal(answer)
    given = _given(store, context)
    if answered:
        target = _Target.of(answer)
        kept = _supporting(target, given)
        wider: list[Cited] | None = None
        if not kept or kept[0].how not in _STATED:  # a sentence stating it may be among the entities' other facts
            wider = _wider(store, context, given)
            kept = _fullest(kept + _supporting(target, wider))
        if read_from and read_from.strip():

            def searched(seen: list[Cited] | None = wider) -> list[Cited]:  # only when no supporting item holds it
                return given + (seen if seen is not None else _wider(store, context, given))

            kept = _mark_source(kept, read_from, target, searched)
        if kept:
            return Support(True, tuple(_read_from_first(kept, context, target)))
    return Support(answered, tuple(_closest(given, frozenset(lexical.terms(context.question)))))


def _given(store: Store, context: Context) -> list[Cited]:
    """What the answerer saw, in the read path's order: facts by score and evidence turns
    in the order given, interleaved (a fact before a turn of the same rank), each once."""
    facts = sorted(((text, src) for s in context.selected for text, src in zip(s.facts, s.sources)), key=lambda f: -f[1].score)
    wanted = [e.turn.id for e in context.evidence] + [t for _, src in facts for t in src.cited_turns]
    turns = turns_by_id(store, wanted)
    ranked: list[tuple[int, int, Cited]] = [
        (rank, 0, cite_fact(src.residual_id, text, src.turn_ids, turns)) for rank, (text, src) in enumerate(facts)
    ]
    ranked += [(rank, 1, cite_turn(turns[e.turn.id])) for rank, e in enumerate(context.evidence) if e.turn.id in turns]
    ranked.sort(key=lambda c: (c[0], c[1]))
    return _once([c for _, _, c in ranked])


def _wider(store: Store, context: Context, given: list[Cited]) -> list[Cited]:
    """The selected entities' live facts (at most WIDER, in selection order) the answerer
    was not given, then the turns every one of those facts came from."""
    residuals = snapshot(store).residuals
    rows: list[tuple[int, str, tuple[int, ...]]] = []  # id, text, source turns
    for entity in context.selected:
        if len(rows) >= WIDER:
            break
        mine = residuals.span(entity.entity_id)
        rows += [(int(i), t, s) for i, t, s in zip(mine.ids, mine.texts, mine.source_turns)]
    rows = rows[:WIDER]
    turns = turns_by_id(store, [t for _, _, source in rows for t in source[:1]])
    shown = {(c.kind, c.id) for c in given}
    facts = [cite_fact(fact_id, text, source, turns) for fact_id, text, source in rows]
    sources = [cite_turn(turns[t]) for _, _, source in rows for t in source[:1] if t in turns]
    return _once([c for c in facts + sources if (c.kind, c.id) not in shown])


def _supporting(target: _Target, candidates: list[Cited]) -> list[SupportItem]:
    """The candidates that contain the answer, fullest first (ties keep their order)."""
    found = [(match(target, c.text, c.timestamp), c) for c in candidates]
    kept = sorted(((f, c) for f, c in found if f.score >= ENOUGH), key=lambda fc: -fc[0].score)
    return [SupportItem(c, False, f.quote, f.span, f.how) for f, c in kept]


def _fullest(items: list[SupportItem]) -> list[SupportItem]:
    order = {"words": FULL, "date": DATE}
    return sorted(items, key=lambda i: -order.get(i.how or "", 0.0))


def _read_from_first(items: list[SupportItem], context: Context, target: _Target) -> list[SupportItem]:
    """Among sentences that state the answer equally fully, the one it was read from first:
    the one the engine says it cut the answer from (flagged `read`), else the one naming
    where the question's chain ends ("Cal" for "Ines's boyfriend"), then the one carrying
    more of the question's words ("found" for "who found Gran?"). A sentence stating the
    answer word for word stays before the source when that only implies it ("her 60th").
    When the source does not hold the answer's digits at all (a count worked out from several
    sentences), a sentence sharing no word with the question but its names ("two of his songs"
    for "how many times did I swim?") holds the number by coincidence and goes behind it."""
    end = fold(context.chain[-1]) if context.chain else None
    asked = frozenset(lexical.terms(context.question))
    order = {"words": FULL, "date": DATE}
    source = next((item.quote for item in items if item.read), None)
    worked_out = source is not None and not target.numbers & set(re.findall(r"\d+(?:[.,]\d+)?", source))

    # the names the question walks through do not make a sentence about what it counts
    named = re.findall(r"(?<=\s)[A-Z][\w'’-]*", context.question)
    doing = asked - frozenset(t for name in (*context.chain, *named) for t in lexical.terms(name))

    def coincidence(item: SupportItem) -> bool:
        return worked_out and item.how == "words" and not item.read and not _shared(item.quote, doing)

    def key(at: int) -> tuple[float, bool, bool, int, int]:
        item = items[at]
        if item.how not in order or coincidence(item):
            # a partial or coincidental statement keeps its place behind the full ones, the source first
            return (0.0, not item.read, False, 0, at)
        names_end = end is not None and re.search(rf"(?<!\w){re.escape(end)}(?!\w)", fold(item.quote)) is not None
        return (-order[item.how or ""], not item.read, not names_end, -_shared(item.quote, asked), at)

    return [items[i] for i in sorted(range(len(items)), key=key)]


def _mark_source(
    items: list[SupportItem], sentence: str, target: _Target, searched: Callable[[], list[Cited]]
) -> list[SupportItem]:
    """The fact or turn holding `sentence` (where the answer was cut from) flagged `read`,
    quoting it: the first such among those that contain the answer, else one of all the
    answerer could have read, added (a count's or a list's sentence need not state it).
    Unchanged when none holds it: a profile's sentence cannot be cited."""
    said = " ".join(sentence.split())
    at = next((i for i, item in enumerate(items) if said in " ".join(item.cited.text.split())), None)
    if at is not None:
        item = items[at]
        found = _in_sentence(target, said, item.cited.day)
        quote, span, how = (said, found.span, found.how) if found.score >= ENOUGH else (item.quote, item.span, item.how)
        return [*items[:at], SupportItem(item.cited, False, quote, span, how, read=True), *items[at + 1 :]]
    cited = next((c for c in searched() if said in " ".join(c.text.split())), None)
    if cited is None:
        return items
    return [*(i for i in items if i.cited != cited), SupportItem(cited, False, said, None, SOURCE, read=True)]


def _closest(given: list[Cited], asked: frozenset[str]) -> list[SupportItem]:
    """The CLOSEST memories to the question: most of its words in one sentence, then the
    read path's order."""
    quotes = [(_nearest(c.text, asked), c) for c in given]
    ordered = sorted(range(len(quotes)), key=lambda i: (-_shared(quotes[i][0], asked), i))
    return [SupportItem(quotes[i][1], True, quotes[i][0], None) for i in ordered[:CLOSEST]]


def _once(candidates: list[Cited]) -> list[Cited]:
    """Two entities' facts can say the same thing: cite it once, where it ranks best."""
    seen: set[tuple[str, str]] = set()
    kept = []
    for cited in candidates:
        if (cited.kind, cited.text) not in seen:
            seen.add((cited.kind, cited.text))
            kept.append(cited)
    return kept


def _joined(words: list[str]) -> str:
    """The answer's words in order; a unit may be written onto its number ("12.7KG" for "12.7 kg")."""
    out = _word_pattern(words[0])
    for before, word in zip(words, words[1:]):
        glued = before.isdigit() and word.isalpha()
        out += (f"(?:{_SEP})?" if glued else _SEP) + _word_pattern(word)
    return out


def _word_pattern(word: str) -> str:
    """One word of the answer; a number below a hundred also as it is spelt ("30": "thirty")."""
    if not word.isdigit() or int(word) >= 100:
        return re.escape(word)
    n = int(word)
    spelt = _UNITS[n] if n < 20 else _TENS[n // 10] + (f"[ -]{_UNITS[n % 10]}" if n % 10 else "")
    return f"(?:{word}|{spelt})"


def match(target: _Target, text: str, when: datetime | None) -> _Found:
    """How fully the best sentence of `text` (said at `when`) contains the answer."""
    best = _Found(0.0, "", None)
    ref = when.date() if when else None
    for sentence in _sentences(text):
        found = _in_sentence(target, sentence, ref)
        if found.score > best.score:
            best = found
    if best.score < ENOUGH and ref is not None and any(_same(ref, day, grain) for day, grain in target.days):
        best = _Found(OWN_DATE, _nearest(text, target.terms), None, "own date")
    return best


def _in_sentence(target: _Target, sentence: str, ref: date | None) -> _Found:
    if target.pattern is not None:
        for hit in target.pattern.finditer(fold(sentence)):  # "3" of "on 3 March we adopted 3 kittens": the second
            if target.days or not _in_a_date(sentence, hit.span(), ref):
                return _Found(FULL, sentence, hit.span(), "words")
    if target.days and _MAYBE_DATE.search(sentence):
        for mention in find_dates(sentence, ref, past=True):
            readings = [mention] if mention.explicit else [mention, *find_dates(mention.text, ref, past=False)[:1]]
            for reading in readings:  # the tense is not known: "on the 14th" may be before or after
                if reading.day and _grain(reading.label) and any(_same(reading.day, d, g) for d, g in target.days):
                    return _Found(DATE, sentence, (mention.start, mention.end), "date")
    if target.terms:
        if target.numbers and not target.numbers & _numbers(sentence):
            return _Found(0.0, sentence, None)  # "14.3 kg" shares the unit of "2.9 kg", not the amount
        said = {t for t in lexical.terms(sentence) if not t.isdigit()} | _numbers(sentence)
        share = len(target.terms & said) / len(target.terms)
        return _Found(PARTIAL * share, sentence, None, "some words")
    return _Found(0.0, sentence, None)


def _in_a_date(sentence: str, span: tuple[int, int], ref: date | None) -> bool:
    """A number answer's digits as the day or year of a date ("3" of "on 3 February 2024"):
    not a statement of the number."""
    start, end = span
    if not any(c.isdigit() for c in sentence[start:end]):
        return False
    return any(m.start <= start and end <= m.end and (m.start, m.end) != span
               for m in find_dates(sentence, ref or date.today(), past=True))


def _numbers(sentence: str) -> set[str]:
    """The numbers a text says, whole: "3.1", not the "30" of "9:30" nor the "5" of "2.5"."""
    return set(re.findall(_BEFORE + r"\d+(?:[.,]\d+)?" + _AFTER, sentence))


def _sentences(text: str) -> Iterator[str]:
    parts = split_sentences(text)
    yield from parts or [text]


def _nearest(text: str, terms: frozenset[str]) -> str:
    """The sentence sharing most content words with `terms` (the first on a tie)."""
    return max(_sentences(text), key=lambda s: _shared(s, terms))


def _shared(sentence: str, terms: frozenset[str]) -> int:
    return len(terms & set(lexical.terms(sentence)))


def _grain(label: str) -> str | None:
    if label.startswith("on "):
        return "day"
    if _MONTH_LABEL.fullmatch(label):
        return "month"
    if _YEAR_LABEL.fullmatch(label):
        return "year"
    return None  # "around…", "in the week of…": too loose to count as the answer's date


def _answer_days(answer: str) -> tuple[tuple[tuple[date, str], ...], str]:
    """The dates an answer states (a day without a year, "14 March", matches any year), and
    the answer without them."""
    out = []
    rest = answer
    for mention in reversed(find_dates(answer, date.today(), past=True)):
        grain = _grain(mention.label)
        if mention.day is None or grain is None:
            continue
        if mention.explicit:
            out.append((mention.day, grain))
        elif grain == "day" and re.search(r"\d", mention.text) and re.search(r"[A-Za-z]{3}", mention.text):
            out.append((mention.day, "monthday"))  # "14 March": the answerer's year is unknown
        else:
            continue
        rest = rest[: mention.start] + " " + rest[mention.end :]
    return tuple(reversed(out)), rest


def _same(day: date, target: date, grain: str) -> bool:
    if grain == "day":
        return day == target
    if grain == "monthday":
        return (day.month, day.day) == (target.month, target.day)
    if grain == "month":
        return (day.year, day.month) == (target.year, target.month)
    return day.year == target.year


def fold(text: str) -> str:
    """Lower case without accents, one character for one, so offsets stay those of `text`."""
    return "".join(_fold_char(c) for c in text)


@lru_cache(maxsize=4096)
def _fold_char(char: str) -> str:
    base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)).lower()
    if len(base) == 1:
        return base
    lower = char.lower()
    return lower if len(lower) == 1 else char

