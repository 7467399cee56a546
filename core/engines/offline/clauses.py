"""Reading one sentence's tokens: who speaks in it, its tense, its dates, what it reports."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memhop.core.engines.offline import tense
from memhop.core.engines.offline.model import FIRST, GROUP, SECOND, THIRD, Mention, Sentence
from memhop.core.language.sentences import is_question

if TYPE_CHECKING:
    from spacy.tokens import Span


def read_tokens(s: Sentence, span: Span, lead: int, speaker: int | None) -> None:
    s.question = is_question(s.text)
    has_verb = False
    for tok in span:
        low = tok.lower_
        if tok.tag_ in ("PRP", "PRP$") or low in FIRST | GROUP | SECOND:
            if low in FIRST and (low != "i" or tok.text in ("I", "i")):
                s.first_person = True
                if speaker is not None:
                    offset = tok.idx - lead
                    s.mentions.append(
                        Mention(speaker, offset, offset + len(tok.text), "first", possessive=low in ("my", "mine"))
                    )
            if low in ("our", "ours") and speaker is not None:  # "our cat Miso": the speaker's, for relations
                offset = tok.idx - lead
                s.mentions.append(Mention(speaker, offset, offset + len(tok.text), "group", possessive=True))
            s.group |= low in GROUP
            s.second |= low in SECOND
            s.third |= low in THIRD or low in ("they", "them", "their")
        if tense.past_form(tok):
            s.past = True
        if tok.tag_.startswith("VB") or tok.tag_ == "MD":
            has_verb = True
    root = span.root
    s.fragment = not has_verb
    s.event = _event(span, s.first_person or s.group)
    # Diary style: the sentence opens with its verb ("Walked to ...", "Must remember ...").
    opening = all(t.tag_ in ("RB", "MD", "UH", ",") for t in span[: root.i - span.start])
    no_subject = not any(c.dep_ in ("nsubj", "nsubjpass", "expl", "csubj") for c in root.children)
    s.continuation = has_verb and no_subject and not opening  # "... 6 years old and still acts like"
    s.subjectless = (
        has_verb and no_subject and opening and root.i - span.start <= 2
        and root.tag_ in ("VBD", "VBN", "VBG", "MD", "VBZ", "VBP")
    )
    first = span[0]
    if first.tag_ == "VBD" and first.text[:1].isupper() and not any(c.dep_.startswith("nsubj") for c in first.children):
        s.subjectless = True  # "Had dinner at Alice's tonight — her roommate Bob played ..."


# Verbs that say how someone feels or what they say, not what they did.
_STATIVE = frozenset(
    """be is am are was were been being 's 'm 're have has had 've 'd do does did get got gets say says said
    think thought feel felt love loved like liked hope hoped seem seemed look looked sound sounds sounded
    mean meant know knew want wanted bet guess agree agreed wish hear heard see saw thank appreciate miss
    can could would should will may might must let go going gone make made take took""".split()
)
_OBJECTS = frozenset({"dobj", "prep", "prt", "xcomp", "ccomp", "attr", "dative", "advcl"})


def _event(span: Span, first_person: bool) -> str | None:
    """Whether the sentence reports something done ("past") or under way/habitual ("ongoing")."""
    for tok in span:
        if tok.lower_ in _STATIVE or not tok.tag_.startswith("VB"):
            continue
        children = list(tok.children)
        if not any(c.dep_ in _OBJECTS for c in children):
            continue
        subject = next((c for c in children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if not first_person and subject is not None and not subject.tag_.startswith("NNP"):
            continue  # "they bring such comfort": not about anyone we know
        if tense.past_form(tok):
            return "past"
        aux = {c.lower_ for c in children if c.dep_ in ("aux", "auxpass")}
        if (tok.tag_ == "VBG" and aux & {"am", "'m", "is", "'s", "are", "'re", "been"}) or tok.tag_ in ("VBP", "VBZ"):
            return "ongoing"
    return None
