"""Spans the NER calls names that are not anyone's or anything's name in a life-log.

Each rule reads the text the way a person would, from grammar and spaCy's own labels
rather than from lists of names: a nationality or language ("Breton crêpes", "switched to
Tagalog"), a holiday used as a deadline ("by Diwali"), an app one posts on ("a clip on
TikTok"), a numbered thing ("Level 3"), a shouted line ("WE WONNNNN"), a sentence-initial verb or preposition the
tagger took for part of a name ("Via Femi", "Met Priya").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from memhop.core.engines.offline.nlp import is_adjective, is_english_word, load_nlp
from memhop.core.language import lexical

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

# spaCy labels for things that are not people, pets, places or organisations.
NOT_ENTITY_LABELS = frozenset(
    {"NORP", "LANGUAGE", "EVENT", "WORK_OF_ART", "PRODUCT", "DATE", "TIME", "LAW", "MONEY", "QUANTITY"}
)
# Tags of a first word that is not part of the name after it ("Met Priya", "Via Femi").
LEADING_JUNK = frozenset({"VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "RB", "UH", "IN", "CC", "DT", "PRP", "PRP$", "MD"})
_ELONGATED = re.compile(r"([A-Za-z])\1\1")
# Verbs of speaking and writing: "in X" after them is a language ("replied, in Basque").
_SAYING = frozenset(
    lexical.stem(w)
    for w in """say said speak spoke spoken talk chat sing sang sung write wrote written announce answer reply
    shout swear swore whisper mutter text pray preach conduct translate explain argue curse greet""".split()
)
_SWITCHING = frozenset(lexical.stem(w) for w in ("switch", "change", "translate"))
# Verbs of publishing: "on X" after them is a platform ("a clip on TikTok").
_POSTING = frozenset(
    lexical.stem(w) for w in "post put share upload stream watch follow message broadcast livestream".split()
)
_TEMPORAL = frozenset({"since", "until", "till", "til", "during"})


def shouted(ent: Span) -> bool:
    """"HOORAYYYY", "ÉQUIPE PIVERT": capitals of a shouted line, or a word stretched out.

    An all-capital acronym inside an ordinary sentence ("the NHS") is not shouting.
    """
    if _ELONGATED.search(ent.text):
        return True
    if not ent.text.isupper():
        return False
    cased = [t.text for t in ent.sent if any(c.isalpha() for c in t.text)]
    return len(cased) >= 2 and all(w.isupper() for w in cased)


def not_an_entity(ent: Span) -> str | None:
    """What this mention is instead of a name, when the grammar around it says so."""
    after = ent.doc[ent.end] if ent.end < len(ent.doc) else None
    numbered = len(ent) == 1 and after is not None and after.like_num and after.head.i == ent.root.i
    numbered = numbered and is_english_word(ent.text)
    if numbered and ent.label_ not in ("GPE", "LOC", "FAC"):
        return "NUMBERED"  # "Stage 2", "Year 9", "Level 3": a numbered thing ("Carlisle 3" is a score)
    root = ent.root
    head = root.head
    if root.dep_ != "pobj" or len(ent) > 3:
        return None
    prep = head.lower_
    verb = head.head
    if prep in _TEMPORAL or (prep == "by" and _deadline(verb)):
        return "DATE"  # "since Christmas", "results come by Passover"
    if prep == "in" and _stem(verb) in _SAYING:
        return "LANGUAGE"
    if prep in ("to", "into") and _stem(verb) in _SWITCHING:
        return "LANGUAGE"  # "switched to Tagalog"
    if prep == "on" and (_stem(verb) in _POSTING or _stem(verb.head) in _POSTING):
        return "PRODUCT"  # "posting a clip on TikTok"
    return None


def _deadline(word: Token) -> bool:
    """"by X" with a future or modal verb is a deadline, not an agent or a place
    ("results come by Passover", "he'll have one by Diwali")."""
    for _ in range(3):
        if word.tag_.startswith("VB"):
            return any(c.tag_ == "MD" for c in word.children)
        if word.head == word:
            break
        word = word.head
    return False


def _stem(token: Token) -> str:
    return lexical.stem(token.lower_) if token.tag_.startswith("VB") or token.tag_ == "NN" else ""


def proper_adjectives(doc: Doc) -> set[str]:
    """Capitalised adjectives used before a noun inside a sentence: "Breton crêpes", "a Korean
    supermarket" — nationalities, languages, religions, never a person's or a place's name."""
    out: set[str] = set()
    for token in doc:
        if token.is_sent_start or not token.text[:1].isupper() or token.text.isupper():
            continue
        if token.dep_ in ("amod", "compound") and token.head.tag_ in ("NN", "NNS") and token.head.i == token.i + 1:
            if is_adjective(token.text) and not token.head.text[:1].isupper():
                out.add(token.text)
    return out


def leading_cuts(spans: Sequence[Span], starts: Sequence[set[int]]) -> set[tuple[int, int]]:
    """Spans (by doc id and start offset) whose first word is not part of the name.

    A capitalised first word of a sentence is tagged as a proper noun whatever it is
    ("Via Femi.", "Met Priya today"); the tagger's view of it in lower case decides. A
    word that modifies the name in lower case too ("rose Tyler") or a modal ("Will
    Smith") stays.
    """
    todo: list[tuple[Span, str]] = []
    for ent, begun in zip(spans, starts):
        first = ent[0]
        if len(ent) < 2 or first.idx not in begun or not first.tag_.startswith("NN"):
            continue
        if not (first.is_stop or is_english_word(first.text)):
            continue
        sent = ent.sent
        at = first.idx - sent.start_char
        todo.append((ent, sent.text[:at] + first.text[0].lower() + sent.text[at + 1 :]))
    if not todo:
        return set()
    nlp = load_nlp()
    cut: set[tuple[int, int]] = set()
    for (ent, _), doc in zip(todo, nlp.pipe([t for _, t in todo], disable=["ner"])):
        at = ent[0].idx - ent.sent.start_char
        token = next((t for t in doc if t.idx == at), None)
        # A modal before a name is the name ("Will Smith", "May Chen"), rarely a question.
        if token is not None and token.tag_ in LEADING_JUNK - {"MD"} and token.dep_ != "compound":
            cut.add((id(ent.doc), ent.start_char))
    return cut
