"""Titles of works in running text: "played us Song of Dawn", "read Lanterns in Winter".

The capitalised words of a title are nobody's name. A title is a run of capitalised words
joined by small lower-case words (to, of, in, the …), standing as the object of a verb of
performing, reading or watching. A run without a joining word ("played Ivo Marsh at
squash") is left to the other rules: it may be a person.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_JOINING = frozenset({"to", "of", "in", "the", "and", "a", "an", "on", "for", "at", "with", "from", "upon", "&"})
_PERFORMING = frozenset(
    """play plays played playing watch watches watched watching read reads reading reread rereading
    sing sings sang singing perform performs performed performing rewatch rewatched binge binged
    stream streamed recite recited rehearse rehearsed rehearsing practise practised practice practiced
    practising practicing""".split()
)
_RECEIVERS = frozenset({"us", "me", "him", "her", "them", "you", "everyone", "everybody"})


def title_ranges(doc: Doc) -> list[tuple[int, int]]:
    """Character ranges of the titles named after a verb of performing, reading or watching."""
    out: list[tuple[int, int]] = []
    for verb in doc:
        if verb.lower_ not in _PERFORMING or not verb.tag_.startswith("VB"):
            continue
        i = verb.i + 1
        if i < len(doc) and doc[i].lower_ in _RECEIVERS:
            i += 1  # "played us ..."
        end = _title_end(doc, i)
        if end is not None:
            out.append((doc[i].idx, doc[end].idx + len(doc[end].text)))
    return out


def _title_end(doc: Doc, i: int) -> int | None:
    """The last token of a title starting at token i, if a joined capitalised run starts there."""
    if i >= len(doc) or not _capital(doc[i]):
        return None
    last, joined, j = i, False, i + 1
    while j < len(doc):
        token = doc[j]
        if _capital(token):
            last, j = j, j + 1
        elif token.lower_ in _JOINING and j + 1 < len(doc) and (_capital(doc[j + 1]) or doc[j + 1].lower_ in _JOINING):
            joined, j = True, j + 1
        else:
            break
    return last if joined and last > i else None


def _capital(token: Token) -> bool:
    return token.text[:1].isupper() and token.is_alpha
