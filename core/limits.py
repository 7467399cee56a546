"""How much of one turn the write path reads.

A pasted log or a whole book in one chat message is stored verbatim in the raw layer,
but parsing it whole costs spaCy about 1 GB of memory per 100,000 characters (and it
refuses a text over a million). The engines read the first MAX_TURN_CHARS of such a
turn, cut at a word boundary, and the write report says so in one line.
"""

from __future__ import annotations

from dataclasses import replace

from memhop.core.model import SessionView

MAX_TURN_CHARS = 20_000  # about ten pages of prose, far beyond any ordinary message
_WORD_BACKTRACK = 200  # a cut looks this far back for a space, so no word is split


def cut(text: str, limit: int = MAX_TURN_CHARS) -> str:
    """The first `limit` characters of `text`, ending at a word boundary where one is near."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    space = head.rfind(" ", limit - _WORD_BACKTRACK)
    return head[:space] if space > 0 else head


def fit_session(session: SessionView, limit: int = MAX_TURN_CHARS) -> tuple[SessionView, list[str]]:
    """The session as the engines see it, and one warning per turn that was cut."""
    warnings = [
        f"session {session.id}, turn {turn.id} ({turn.speaker}) has {len(turn.text):,} characters; "
        f"memories were made from its first {limit:,} (the raw turn is stored whole)"
        for turn in session.turns
        if len(turn.text) > limit
    ]
    if not warnings:
        return session, []
    turns = tuple(replace(t, text=cut(t.text, limit)) if len(t.text) > limit else t for t in session.turns)
    return replace(session, turns=turns), warnings
