"""Rules about whole turns of a talk, shared by the evidence ranking (core/evidence.py) and
the offline answerer's reading of chat replies: plain text and turn fields, no store."""

from __future__ import annotations

import re
from collections.abc import Hashable

from memhop.core.language.sentences import is_question, split_sentences

_ASIDE = re.compile(r"\[[^\]]*\]")  # text in square brackets: an annotation (a described photo), not said

def replies(speaker: Hashable, session: Hashable, next_speaker: Hashable, next_session: Hashable) -> bool:
    """Whether the turn after a turn is its reply (and the turn before, the one it answers):
    said by someone else, in the same session. The session is the sitting the importer cut
    (a chat's calendar day, a LoCoMo session, a diary entry), so a chat's next-day turn opens
    a new talk; unlike "the same day" it needs no clock, holds for turns without a time and
    for a sitting past midnight. A writer's own next sentence (a diary) is not a reply. An
    unknown session (None: a view built without one) is no sitting shared: two such turns a
    week apart would else pair, and a wrong answer is worse than a refusal. The one rule for
    the evidence's neighbours and the answerer's reading of replies."""
    return next_speaker != speaker and session is not None and next_session == session


def asks(text: str) -> bool:
    """Whether a turn mostly asks: more of its words are in questions (sentences ending in
    "?") than in statements. "Wow! What got you into it?" asks; "I started last May. You?"
    tells. Text in square brackets is an annotation, not said, and is not counted."""
    sentences = split_sentences(_ASIDE.sub(" ", text))
    asked = sum(len(s.split()) for s in sentences if is_question(s))
    return 2 * asked > sum(len(s.split()) for s in sentences)
