"""What the write path reads of a turn too long to parse whole."""

from __future__ import annotations

from datetime import datetime

import pytest

from memhop.core.engines.offline.engine import OfflineEngine
from memhop.core.errors import EngineError
from memhop.core.limits import MAX_TURN_CHARS, cut, fit_session
from memhop.core.model import SessionView, TurnView

DAY = datetime(2024, 3, 1, 9, 0)


def session(*texts: str) -> SessionView:
    turns = tuple(TurnView(i + 1, "Maya", text, DAY) for i, text in enumerate(texts))
    return SessionView(id=7, started_at=DAY, self_name="Maya", turns=turns)


def test_a_cut_ends_at_a_word_and_short_text_is_untouched() -> None:
    assert cut("Bob plays the piano.", 100) == "Bob plays the piano."
    assert cut("Bob plays the piano.", 12) == "Bob plays"
    assert cut("x" * 50, 10) == "x" * 10  # no space to cut at: cut anyway


def test_only_long_turns_are_cut_each_with_one_warning() -> None:
    long = "Bob Kowalski plays the piano. " * (MAX_TURN_CHARS // 10)
    fitted, warnings = fit_session(session("Hello Bob.", long, long))
    assert [len(t.text) <= MAX_TURN_CHARS for t in fitted.turns] == [True, True, True]
    assert fitted.turns[0].text == "Hello Bob." and fitted.turns[1].text.startswith("Bob Kowalski plays")
    assert [t.id for t in fitted.turns] == [1, 2, 3]
    assert len(warnings) == 2 and all("\n" not in w and f"{len(long):,} characters" in w for w in warnings)
    untouched = session("Hello Bob.")
    assert fit_session(untouched) == (untouched, [])


def test_a_text_spacy_refuses_is_an_engine_error_so_the_session_stays_pending() -> None:
    with pytest.raises(EngineError, match=r"cannot parse session 7: \[E088\]"):
        OfflineEngine().identify(session("Hello Bob.", "word " * 220_000), [])
