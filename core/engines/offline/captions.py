"""What a shared picture shows, as an answer where the words beside it only point at it.

"Here's this new piece from the retreat. [shares a photo: a photo of a painting of a
windmill in fog]": the words say "piece", the picture says what the piece is. An
importer keeps a shared picture's caption in the turn as "[shares a photo: …]"
(core/importers/locomo.py); the answerer reads it only when what the sentence itself gives
is a generic word for something made ("this new piece", "our latest work").
"""

from __future__ import annotations

import re

from memhop.core.engines.offline import grammar

# How an importer keeps a shared picture's caption in its turn (core/importers/locomo.py); the
# write path drops it from what a sentence says (rewrite.py, session.py), the answerer reads it here.
PHOTO_MARKER = r"\[shares a photo:[^\]]*\]"
_CAPTION = re.compile(PHOTO_MARKER, re.I)
_OPENING = len("[shares a photo:")
# How a caption opens ("a photo of a dog on a beach"): the medium, no part of what is shown.
DEPICTION = re.compile(r"^(?:an?\s+)?(?:photo|photograph|photography|picture|image|snapshot|screenshot)\s+of\s+", re.I)
# Words for a thing made that say nothing of what it is: "this new piece", "our latest work".
_GENERIC_WORKS = frozenset("work works piece pieces project projects creation creations".split())
_POINTING = frozenset(
    "a an the this that these those my our your his her their its latest newest new recent last first own".split()
)
# A verb whose product is named by its noun: "painted a windmill" is "a painting of a windmill".
_PRODUCTS = {"paint": "painting", "draw": "drawing", "sketch": "sketch"}


def generic_work(cut: str) -> bool:
    """Whether a cut only points at something made: a generic noun ("work", "piece") with at
    most determiners, owners and words of recency before it."""
    words = [w.lower() for w in re.findall(r"[\w'’]+", cut)]
    return bool(words) and len(words) <= 4 and words[-1] in _GENERIC_WORKS and all(w in _POINTING for w in words[:-1])


def in_caption(sentence: str, at: int) -> bool:
    """Whether offset `at` of the sentence falls inside a shared picture's caption."""
    return any(found.start() <= at < found.end() for found in _CAPTION.finditer(sentence))


def shown(sentence: str, question: str, made_only: bool = False) -> str | None:
    """What the sentence's shared picture shows, without its "a photo of" frame; and, for a
    question asking what was painted or drawn, without "a painting of" too: what was painted
    is what the painting shows. `made_only`: only such a made thing (None otherwise)."""
    found = _CAPTION.search(sentence)
    if found is None:
        return None
    what = DEPICTION.sub("", found.group(0)[_OPENING:-1].strip(" .,;:"))
    verb = grammar.question_verb(question)
    product = _PRODUCTS.get(grammar.verb_base(verb.lower())) if verb else None
    made = re.sub(rf"^(?:an?\s+|the\s+)?{product}s?\s+of\s+", "", what, flags=re.I) if product else what
    if made_only and made == what:
        return None
    return made or None
