"""Partners the text names by being married or engaged, with no relation word: "Ada and Cy
got engaged", "she's married now, to a pilot named Cy", "Ada married Cy". What the chain
walk reads when a question asks for a husband, wife or partner.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memhop.core.language.question import tokens
from memhop.core.language.sentences import Sentence, resolve_pronoun, word_of

Token = re.Match[str]
EntityAt = Callable[[Sentence, Token], "str | None"]
_WED = re.compile(r"\b(?:married|engaged)\b", re.I)  # not "wed": "Wed 3rd" is a day
_NOT_WED = frozenset({"not", "never", "n't", "isn't", "wasn't", "aren't", "weren't", "unmarried"})
_WED_AUX = frozenset({"got", "get", "gets", "getting", "are", "were", "is", "'s", "’s", "'re", "’re", "have",
                      "has", "been", "be", "just", "finally", "recently", "now", "newly", "happily", "secretly"})
_OWNER = re.compile(r"['’]s$", re.I)
SPOUSE_WORDS = frozenset({"husband", "wife", "spouse", "partner", "fiance", "fiancé", "fiancée", "husbands", "wives"})


def wed_pairs(sentence: Sentence, entity_at: EntityAt) -> list[tuple[str, str]]:
    """The two people each married or engaged the sentence tells of, by the verb and not a
    relation word: "Ada and Cy got engaged", "she's married now, to a pilot named Cy", "Ada
    married Cy" (each is the other's partner); "not married", "never got engaged" say nobody.
    `entity_at` says who a name or "I" stands for."""
    if not _WED.search(sentence.text):
        return []
    found: list[tuple[str, str]] = []
    toks = tokens(sentence.text)
    for k, tok in enumerate(toks):
        if not _WED.fullmatch(tok.group(0)) or any(
            t.group(0).lower() in _NOT_WED for t in toks[max(0, k - 3) : k]
        ):
            continue
        pair = _wed_pair(sentence, toks, k, entity_at)
        if pair is None:
            subject = _wed_subject(sentence, toks, k, entity_at)
            partner = _wed_partner(sentence, toks, k, entity_at)
            pair = (subject, partner) if subject and partner else None
        if pair is not None:
            found.append(pair)
    return found


def _wed_pair(sentence: Sentence, toks: list[Token], k: int, entity_at: EntityAt) -> tuple[str, str] | None:
    """"Ada and Cy got engaged", "she and Cy are married": the two before "and" and the verb."""
    j = k - 1
    while j >= 0 and toks[j].group(0).lower() in _WED_AUX:
        j -= 1
    if j < 2 or j == k - 1 or toks[j - 1].group(0).lower() != "and":
        return None
    first, second = _reference(sentence, toks[j - 2], entity_at), _reference(sentence, toks[j], entity_at)
    return (first, second) if first and second else None


def _wed_subject(sentence: Sentence, toks: list[Token], k: int, entity_at: EntityAt) -> str | None:
    """Who the verb at k is said of: the name or pronoun right before its auxiliaries."""
    j = k - 1
    while j >= 0 and toks[j].group(0).lower() in _WED_AUX:
        j -= 1
    return _reference(sentence, toks[j], entity_at) if 0 <= j < k - 1 or (j == k - 1 >= 0 and _is_married_verb(toks[k])) else None


def _is_married_verb(tok: Token) -> bool:
    return tok.group(0).lower() == "married"


def _wed_partner(sentence: Sentence, toks: list[Token], k: int, entity_at: EntityAt) -> str | None:
    """The name after "married (now,) to (a pilot named)" or right after "married"."""
    i = k + 1
    if i < len(toks) and toks[i].group(0).lower() in ("now", "again", ","):
        i += 1
    if i < len(toks) and toks[i].group(0) == ",":
        i += 1
    if i < len(toks) and toks[i].group(0).lower() == "to":
        i += 1
    elif not _is_married_verb(toks[k]):
        return None  # "engaged" names the partner only after "to"
    for j in range(i, min(i + 4, len(toks))):
        word = toks[j].group(0)
        if word[0].isupper() and word.lower() not in ("i", "me"):
            last = j
            while last + 1 < len(toks) and toks[last + 1].group(0)[0].isupper():
                last += 1
            if _OWNER.search(toks[last].group(0)):
                return None  # "married Cy's brother": the brother, not Cy
            return _reference(sentence, toks[j], entity_at)
        if word.lower() in ("named", "called") or j == i and word.lower() in ("a", "an"):
            continue
        if j > i and toks[j - 1].group(0).lower() in ("a", "an"):
            continue  # "a dentist named Cy": the job word
        return None
    return None


def _reference(sentence: Sentence, tok: Token, entity_at: EntityAt) -> str | None:
    """The entity a name, "I" or a third-person pronoun stands for."""
    if word_of(tok.group(0)) in ("he", "she"):
        return resolve_pronoun(sentence, tok.start())
    return entity_at(sentence, tok)
