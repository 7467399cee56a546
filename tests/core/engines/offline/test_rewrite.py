"""Long sentences cut into facts a reader can still read."""

from __future__ import annotations

from memhop.core.engines.offline.rewrite import split_long

LONG = (
    "Rosa made the whole lot: moqueca because it is her favourite, beans, a heap of salad from the stall down "
    "the road that I was told to collect, and — because she is Rosa — a tray of pastries on the side, and more food "
    "than anybody could finish in one sitting."
)


def test_no_fact_ends_on_a_conjunction_or_a_comma() -> None:
    parts = split_long(LONG, "Rosa")
    assert len(parts) > 1
    for part in parts:
        assert not part.rstrip(".").endswith((" and", " but", " so", ",", ";")), part


def test_the_pieces_keep_their_punctuation_and_every_word() -> None:
    parts = split_long(LONG, "Rosa")
    assert any("— a tray of pastries on the side, and more food" in p for p in parts)
    words = [w for p in parts for w in p.replace("Rosa: ", "").split()]
    assert len(words) >= len(LONG.split()) - 2  # only a dangling "and" may go
