"""A pattern compiled on first use matches exactly as the compiled pattern would."""

from __future__ import annotations

import re

from memhop.core.language.patterns import LazyPattern


def test_a_lazy_pattern_matches_as_re_compile_does_flags_included() -> None:
    text = "Cat sat; the HAT and a bat. ⟦1⟧'s cat"
    for source, flags in ((r"\b\w+at\b", 0), (r"\b\w+at\b", re.I), (r"⟦(\d+)⟧['’]s", 0)):
        lazy = LazyPattern(source, flags)
        for _ in range(2):  # the first call compiles, the second reuses it
            assert [(m.span(), m.groups()) for m in lazy.finditer(text)] == [
                (m.span(), m.groups()) for m in re.compile(source, flags).finditer(text)
            ]
