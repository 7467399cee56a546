"""Turning a sentence into a self-contained clause about one entity.

"I play the piano" said by Bob becomes "Bob plays the piano"; "He was really good"
after a mention of Bob becomes "Bob was really good"; "yesterday" said on 8 May 2023
gains "(on 7 May 2023)". What cannot be rewritten safely ("you", "we") is quoted.
"""

from __future__ import annotations

import re

from memhop.core.engines.offline import captions
from memhop.core.engines.offline.model import GROUP, SECOND, Sentence, SessionAnalysis
from memhop.core.language.names import mentions

_NOISE = re.compile(
    rf"\s*(?:{captions.PHOTO_MARKER}|<media omitted>|\[(?:photo|sticker[^\]]*|video|image|gif)\]|https?://\S+)",
    re.I,
)
_EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\ufe0f\u200d]+")
_THIRD_PERSON = {"am": "is", "'m": "is", "m": "is", "are": "is", "'re": "is", "have": "has", "'ve": "has",
                 "ve": "has", "do": "does", "go": "goes", "'ll": "will", "'d": "would"}  # fmt: skip
_LEADING = re.compile(r"^(?:(?:and|but|so|or|haha+|lol|omg|ok|okay|oh|well|yeah|yes|also|plus|anyway)\b[,!.]*\s*)+", re.I)
# "Hey Ottilie, since we last chatted ..." / "Wow, Tilly! ...": an opening greeting is not the fact.
_GREETING = re.compile(r"^(?:(?:hey|hi|hello|wow|woah|thanks|thank you|aww?|oh|yay)\b[,\s]*(?:\w+\s*){0,2}[,!.]+\s*)+", re.I)
_PARTICIPLES = frozenset({"come", "become", "run", "been", "gone", "done", "seen"})
_SKIPPABLE = frozenset({"RB", "RBR", "RBS"})
MAX_WORDS = 30


def third_person(verb: str) -> str:
    """Present tense, third person singular: play -> plays, try -> tries, am -> is."""
    low = verb.lower()
    if low in _THIRD_PERSON:
        return _THIRD_PERSON[low]
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(low) > 1 and low.endswith("y") and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def clean(text: str) -> str:
    text = _EMOJI.sub("", _NOISE.sub("", text))
    return " ".join(text.split()).strip()


_AGAIN = {"my": "their", "mine": "theirs", "me": "them", "myself": "themselves"}


class _Namer:
    """The full name at first mention, the first name after that; a repeated "my" is "their"."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def __call__(self, name: str, possessive: bool = False, word: str = "") -> str:
        if name in self.seen and word.lower() in _AGAIN:
            again = _AGAIN[word.lower()]  # "… 10K. My time was": "Their time was", still a sentence's start
            return again.capitalize() if word[:1].isupper() and word != "I" else again
        short = name.split()[0] if name in self.seen and name.lower() != "me" else name
        self.seen.add(name)
        return f"{short}'s" if possessive else short


Edit = tuple[int, int, str]  # replace text[start:end] with the string


def rewrite(s: Sentence, focus: int, analysis: SessionAnalysis) -> tuple[str, bool]:
    """(text, quoted): the sentence as a clause that names `focus`; quoted if only a quote is safe."""
    ents = analysis.entities
    namer = _Namer()
    speaker_name = ents[s.speaker].name if s.speaker is not None else None
    can_rewrite_first = speaker_name is not None and speaker_name.lower() not in ("me", "user")
    edits = _subject_edits(s, focus, analysis, namer, can_rewrite_first)
    edits += _mention_edits(s, analysis, namer, can_rewrite_first)
    dates = _date_edits(s)
    text = _apply(s.text, edits + dates)
    words = set(re.findall(r"[a-z]+", text.lower()))
    # "we"/"us" may stay once the speaker is named in the clause ("Maya Patel had dinner ...
    # for us"); "you" never can: the reader would not know who was addressed.
    anchored = can_rewrite_first and speaker_name is not None and speaker_name.split()[0] in text
    quoted = bool(words & SECOND) or (bool(words & GROUP) and not anchored)
    quoted |= s.first_person and not can_rewrite_first and speaker_name is None
    if quoted:
        text = _apply(s.text, dates)
        if speaker_name is not None and not can_rewrite_first and focus == s.speaker:
            return finish(clean(text)), False  # the unnamed owner's own words need no quoting
        who = speaker_name or s.turn.speaker
        about = "" if focus == s.speaker or _names(text, focus, analysis) else f" about {ents[focus].name}"
        return f'{who} said{about}: "{clean(text)}"', True
    text = finish(clean(text))
    unnamed_self = ents[focus].name.lower() in ("me", "user") and s.speaker == focus
    if not unnamed_self and not _names(text, focus, analysis):
        text = _name_alias(text, focus, analysis)
    return text, False


def _subject_edits(s: Sentence, focus: int, analysis: SessionAnalysis, namer: _Namer, first_ok: bool) -> list[Edit]:
    """A subject for diary-style sentences: "Walked to the market" -> "Maya Patel walked ..."."""
    ents = analysis.entities
    if s.subjectless and s.implied is not None and (s.implied != s.speaker or first_ok):
        head = s.span[0] if s.span is not None else None
        name = namer(ents[s.implied].name)
        if head is not None and head.tag_ == "VBP" and head.dep_ == "ROOT":  # "Totally agree" -> "agrees"
            verb = third_person(head.text)
            return [(0, len(head.text), f"{name} {verb[:1].lower()}{verb[1:]}")]
        keep_case = head is not None and (head.tag_ in ("NNP", "NNPS") or head.text == "I")
        return [(0, 1, f"{name} {s.text[:1] if keep_case else s.text[:1].lower()}")]
    if s.fragment and s.speaker == focus and not s.named() and first_ok:
        return [(0, 0, f"{namer(ents[focus].name)}: ")]  # "Long day at Brightwave."
    return []


def _mention_edits(s: Sentence, analysis: SessionAnalysis, namer: _Namer, first_ok: bool) -> list[Edit]:
    """"I"/"my" become the speaker's name; the first he/she of each entity its name."""
    ents = analysis.entities
    lead = 0 if s.span is None else s.span.start_char + (len(s.span.text) - len(s.span.text.lstrip()))
    tokens = {} if s.span is None else {t.idx - lead: t for t in s.span}
    named_at = {m.entity: m.start for m in s.mentions if m.how == "name"}
    edits: list[Edit] = []
    replaced: set[int] = set()
    for m in s.mentions:
        if m.how == "name":
            namer.seen.add(ents[m.entity].name)
            continue
        if m.how == "group":
            continue  # "our" stays: the speaker and others
        if m.how == "first" and (not first_ok or s.text[m.end : m.end + 1] == "-"):
            continue  # "me-time" stays
        if m.how == "pronoun" and (m.entity in replaced or named_at.get(m.entity, m.start) < m.start):
            continue  # "Bob ... his recital" already names Bob
        tok = tokens.get(m.start)
        word = s.text[m.start : m.end] if m.how == "first" else ""
        edits.append((m.start, m.end, namer(ents[m.entity].name, m.possessive, word)))
        replaced.add(m.entity)
        if tok is not None and m.how == "first" and tok.lower_ == "i" and tok.dep_ != "conj":
            edits.extend(_agree(tok, lead))
        elif tok is not None and m.how == "pronoun" and not m.possessive:
            edits.extend(_expand(tok, lead))
    return edits


def _date_edits(s: Sentence) -> list[Edit]:
    """"yesterday" -> "yesterday (on 7 May 2023)", once per date, never inside brackets."""
    edits: list[Edit] = []
    labelled: set[object] = set()
    for d in s.dates:
        inside = s.text[: d.start].rstrip().endswith("(")
        if not d.explicit and d.label and not inside and (d.day or d.label) not in labelled:
            labelled.add(d.day or d.label)
            edits.append((d.end, d.end, f" ({d.label})"))
    return edits


def finish(text: str) -> str:
    """A sentence: no leading "and"/"haha", a capital first letter, a full stop."""
    text = _GREETING.sub("", _LEADING.sub("", text)).strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", '"')) else text + "."


def _expand(pronoun: object, lead: int) -> list[Edit]:
    """"She'd" -> "Alice had": a name does not take the contracted verb well."""
    doc = pronoun.doc  # type: ignore[attr-defined]
    nxt = doc[pronoun.i + 1] if pronoun.i + 1 < len(doc) else None  # type: ignore[attr-defined]
    if nxt is None or not nxt.text.startswith(("'", "’")):
        return []
    low = nxt.lower_.replace("’", "'")
    verb = next((t for t in doc[nxt.i + 1 : nxt.i + 4] if t.tag_ not in _SKIPPABLE), None)
    perfect = verb is not None and (verb.tag_ == "VBN" or verb.lower_ in _PARTICIPLES)
    full = {"'d": "had" if perfect else "would", "'ll": "will", "'ve": "has", "'re": "is"}.get(low)
    if low == "'s" and nxt.tag_ == "VBZ":  # "she's a vet" -> "Carol is a vet" (not "Carol's", a possessive)
        full = "has" if perfect else "is"
    start = nxt.idx - lead
    return [(start, start + len(nxt.text), " " + full)] if full else []


def _agree(subject: object, lead: int) -> list[Edit]:
    """Edits making the verb after "I" agree with a third-person subject."""
    doc = subject.doc  # type: ignore[attr-defined]
    for tok in doc[subject.i + 1 : subject.i + 4]:  # type: ignore[attr-defined]
        if tok.tag_ in _SKIPPABLE:
            continue
        start, end = tok.idx - lead, tok.idx - lead + len(tok.text)
        contraction = tok.text.startswith(("'", "’"))
        low = tok.lower_.replace("’", "'")
        if tok.tag_ == "VBP":
            return [(start, end, (" " if contraction else "") + third_person(low if contraction else tok.text))]
        if contraction and low in _THIRD_PERSON:
            full = "had" if tok.tag_ == "VBD" and low == "'d" else _THIRD_PERSON[low]
            return [(start, end, " " + full)]
        return []
    return []


def _apply(text: str, edits: list[Edit]) -> str:
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _names(text: str, focus: int, analysis: SessionAnalysis) -> bool:
    entity = analysis.entities[focus]
    forms = [a for a in entity.aliases if a.lower() not in ("mum", "mom", "dad")]
    return mentions(text, entity.name, forms)


def _name_alias(text: str, focus: int, analysis: SessionAnalysis) -> str:
    """"Mum wants ..." about Leena becomes "Mum (Leena) wants ..."; otherwise a prefix."""
    entity = analysis.entities[focus]
    for alias in sorted(entity.aliases, key=len, reverse=True):
        m = re.search(rf"(?<!\w){re.escape(alias)}(?!\w)", text, re.I)
        if m:
            return f"{text[: m.end()]} ({entity.name}){text[m.end():]}"
    return f"{entity.name}: {text}"


# The frame `rewrite` puts around what only a quote can say: 'Bob said: "…"', 'Bob said about Ana: "…"'.
_FRAME = r'([^"]*) said(?: about [^:"]+)?'
_WHOLE_QUOTE = re.compile(rf'^{_FRAME}: "(.*)"$')
_QUOTED_FACT = re.compile(rf'^{_FRAME}: "(.*)"(?:\s+\([^()]*\))?\.?$')  # ... with the dating note a fact may carry
_FRAME_ONLY = re.compile(rf"{_FRAME}:?")


def unquoted(text: str) -> str:
    """What a fact framed as a quote says, without its frame; any other text as it is."""
    found = _QUOTED_FACT.match(text)
    return found.group(2).strip() if found else text


def is_frame(text: str) -> bool:
    """The text is only the frame ("Nia Holt said"): a cut that stopped at its colon."""
    return text[:1].isupper() and _FRAME_ONLY.fullmatch(text.strip()) is not None


def split_long(text: str, name: str) -> list[str]:
    """Clauses of at most ~MAX_WORDS words, each naming the entity (a prefix where needed)."""
    if len(text.split()) <= MAX_WORDS:
        return [text]
    first = name.split()[0]
    quote = _WHOLE_QUOTE.match(text)
    if quote:  # split inside the quotation, and quote each part
        who, inner = quote.group(1), quote.group(2)
        return [
            f'{who} said: "{part}"' if _named(f"{who} {part}", first) else f'{who} said about {name}: "{part}"'
            for part in _chunks(inner)
        ]
    return [c if _named(c, first) else f"{name}: {c}" for c in _chunks(text)]


def _named(text: str, first: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(first)}(?!\w)", text) is not None


def _chunks(text: str) -> list[str]:
    """Pieces of at most ~MAX_WORDS words, cut at sentence ends, dashes and ", and"-style
    joins; pieces that fit together are rejoined with the separator they had."""
    pieces = re.split(r"((?<=[;:.!?])\s+|\s+[—–-]\s+|,\s+(?=(?:and|but|so|which|while|because)\b))", text)
    chunks: list[str] = []
    glue = ""
    for i, part in enumerate(pieces):
        if i % 2:  # a separator
            glue = part
            continue
        if chunks and len(chunks[-1].split()) + len(part.split()) <= MAX_WORDS:
            chunks[-1] = f"{chunks[-1]}{glue}{part}"
        else:
            chunks.append(part)
    # A cut can fall after a conjunction ("buy, and — because …"): no chunk ends on one.
    return [trimmed for c in chunks if (trimmed := _DANGLING.sub("", c))]


_DANGLING = re.compile(r"(?:[,;]?\s+(?:and|but|or|so|because|which|while|then))+\s*[,;]?$|[,;]\s*$", re.I)
