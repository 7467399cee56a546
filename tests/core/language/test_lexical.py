"""Words are Unicode: an accented word is one word, matched without its accents, and the
offsets `positions` gives still slice the text as written (callers cut answers with them)."""

from __future__ import annotations

import random
import unicodedata

from memhop.core.language import lexical


def test_an_accented_word_is_one_word_matched_without_its_accents() -> None:
    assert lexical.words("Zénobe met Maëlle at the Crémerie") == ["zenobe", "met", "maelle", "at", "the", "cremerie"]
    assert lexical.terms("Ódvar played the bandoneón") == lexical.terms("Odvar played the bandoneon")
    assert lexical.words("Wiesław Ørnhøj") == ["wieslaw", "ornhoj"]  # letters NFKD keeps whole
    assert lexical.words("Großmann") == ["grossmann"]


def test_both_apostrophes_drop_a_possessive_tail() -> None:
    assert lexical.words("Zénobe's jam and Maëlle’s film") == ["zenobe", "jam", "and", "maelle", "film"]


def test_a_stem_of_an_accented_word_meets_the_terms_of_its_plain_spelling() -> None:
    assert lexical.stem("Crémeries") == lexical.terms("cremeries")[0]


def test_offsets_slice_the_text_as_written() -> None:
    composed = "Ask Großmann's friend Zénobe about Ørnhøj."
    decomposed = unicodedata.normalize("NFD", composed)  # "e" + a combining accent: longer text
    for text in (composed, decomposed):
        found = lexical.positions(text)
        assert [w for w, _ in found] == ["ask", "grossmann", "friend", "zenobe", "about", "ornhoj"]
        starts = dict(found)
        assert text[starts["grossmann"]:starts["friend"]] == "Großmann's "  # "ß" folds to two letters, the text keeps one
        assert unicodedata.normalize("NFC", text[starts["zenobe"]:starts["about"]]).strip() == "Zénobe"
        assert text[starts["ornhoj"]:].rstrip(".") == "Ørnhøj"
        assert text[starts["friend"]:starts["zenobe"]] == "friend "


def test_the_hero_cue_rule_is_the_one_existing_stores_were_filed_under() -> None:
    # core/store/cues.py's persisted table: refiling it needs a migration, so it keeps the ASCII rule
    assert lexical.ascii_terms("Zénobe played the bandoneón") == ["nob", "play", "bandon"]  # "Zé|nobe", "bandone|ón"
    assert lexical.ascii_terms("Odile played pottery") == lexical.terms("Odile played pottery")


def _general(text: str) -> list[str]:
    return [w for w, _ in lexical.positions(text)]  # the Unicode path `words` takes for any non-ASCII text


def test_the_ascii_fast_path_gives_the_words_of_the_general_path() -> None:
    written = [
        "Zoë's 2nd café, on Łąkowa Straße", "Ørnhøj’s 12 o'clock", "rock'n'roll at 9pm", "O'Neill's don't",
        "snake_case_word and 3'4 or x'", "'quoted' ''twice'' 7's", "Tab\tand\nnew-line: 1,000.5", "",
        unicodedata.normalize("NFD", "Zénobe déjà vu"), "ALL CAPS'S 0'CLOCK", "a'b'c d'1 e''f",
    ]
    alphabet = "aZ09'’_- .\n,éßłØ\u0301"
    pick = random.Random(7)
    generated = ["".join(pick.choice(alphabet) for _ in range(pick.randint(0, 24))) for _ in range(3000)]
    ascii_only = ["".join(c for c in text if c.isascii()) for text in written + generated]
    texts = written + generated + ascii_only
    assert sum(text.isascii() for text in texts) > 3000  # the fast path is exercised, not only the general one
    for text in texts:
        assert lexical.words(text) == _general(text), text
