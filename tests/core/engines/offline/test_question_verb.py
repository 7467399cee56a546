"""The main verb of a plain question is read by rules, without loading the parser; the rules
must be right wherever they answer, and leave every other shape to the parser."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memhop.core.engines.offline import grammar
from memhop.core.engines.offline.question_verb import read
from support.paths import SAMPLES

# Questions with the verb a reader finds in them (None: a copula question has no main verb).
PLAIN = (
    ("What does Tove like to drink most?", "like"),
    ("What did Odile name her new kitten?", "name"),
    ("Which instrument does Kasimir play?", "play"),
    ("What did I give Odile for her birthday?", "give"),
    ("What does my sister's husband do for a living?", "do"),
    ("Which town does my best friend's flatmate live in today?", "live"),
    ("What did Tove bring to the picnic?", "bring"),
    ("What did Kasimir's brother weigh as a baby?", "weigh"),
    ("What does Lumi's daughter study?", "study"),
    ("In which city did Odile grow up?", "grow"),
    ("What did you see at the museum?", "see"),
    ("What does she cook on Sundays?", "cook"),
    ("What kind of music does Odile Brandt love?", "love"),
    ("What does Kasimir's cousin teach?", "teach"),
    ("What did Tove's mum bake for the fair?", "bake"),
    ("What is the favourite drink of Tove?", None),
    ("What is Odile allergic to?", None),
    ("Which street is the bakery on?", None),
    ("What was the name of Kasimir's first dog?", None),
    ("What are Tove's plans for the summer?", None),
)
# Shapes the rules do not know: a participle after the copula, a gerund after the verb, a
# subject that is no name or relation, another auxiliary, no auxiliary, an aside.
OTHER = (
    ("What is Tove's band called now?", "call"),
    ("Which songs does Odile enjoy singing?", "enjoy"),
    ("What did the charity run raise money for?", "raise"),
    ("What has Kasimir painted lately?", "paint"),
    ("What inspired Tove to start running?", "inspire"),
    ("What, according to Odile, is the best café?", None),
    ("What does Tove's climbing partner play?", "play"),  # "climbing partner play": which word is the verb?
    # an adverb where the verb stands, or a verb before another: the parser decides
    ("What did she last buy?", "buy"),
    ("What did Odile still want?", "want"),
    ("What does she even like?", "like"),
    ("What does Kasimir best like?", "like"),
    ("What did Odile apply last?", "apply"),
)


def test_the_rules_read_every_plain_question_right() -> None:
    assert {q: (r.verb if (r := read(q)) else "unread") for q, _ in PLAIN} == dict(PLAIN)


def test_other_shapes_are_left_to_the_parser() -> None:
    assert [q for q, _ in OTHER if read(q) is not None] == []
    assert [read(q) for q in ("Where does Tove live?", "Who gave Odile the kitten?", "How many dogs does Lumi have?")] == [
        None, None, None
    ]


def test_where_the_parser_reads_the_verb_right_the_rules_do_too() -> None:
    """The parser trips on unknown names ("does Tove like" can give "tove"); wherever it is
    right, the rules must not be wrong."""
    compared = 0
    for question, verb in PLAIN + OTHER:
        ruled = read(question)
        if ruled is not None and grammar.frame(question).verb == verb:
            assert ruled.verb == verb, question
            compared += 1
    assert compared >= len(PLAIN) // 2  # the comparison ran: neither side gave up on most questions
    assert grammar.question_verb("What is Tove's band called now?") == grammar.frame("What is Tove's band called now?").verb


def test_a_sentence_without_the_verb_is_not_parsed_one_with_any_form_of_it_is() -> None:
    grammar.parsed.cache_clear()
    assert grammar.complements("Tove's favourite drink is kombucha, no contest.", "give", frozenset()) == []
    assert grammar.class_of("Her lurcher sleeps all day.", "Juno", None) == []
    assert grammar.object_of("The café is famous.", "for", 0) is None
    assert grammar.parsed.cache_info().misses == 0
    given = grammar.complements("Odile gave him a framed print.", "give", frozenset())  # irregular
    stopped = grammar.complements("She stopped the car.", "stop", frozenset())  # doubled consonant
    tried = grammar.complements("Kasimir tried sushi.", "try", frozenset())  # -ied
    assert [p[0].text for p in (given, stopped, tried)] == ["framed print", "car", "sushi"]
    assert grammar.class_of("Juno is a lurcher.", "Juno", None)[0].text == "lurcher"
    assert grammar.object_of("The café is famous for its maps.", "for", 0) == "maps"


@pytest.mark.slow
def test_a_plain_question_is_answered_the_same_without_loading_the_parser(tmp_path: Path) -> None:
    """A fresh process answers "what does X do for work?" without importing spaCy, and
    gives the answer a process whose question verbs are all read by the parser gives."""
    import memhop

    db = tmp_path / "samples.duckdb"
    with memhop.open(db, engine="offline") as mem:
        mem.ingest([SAMPLES], self_name="Maya Patel")
    code = (
        "import sys, memhop\n"
        "from memhop.core.engines.offline import nlp\n"
        "from memhop.core.engines.offline import question_verb\n"
        "if sys.argv[2] == 'parser':\n"
        "    nlp.load_nlp(ner=False)\n"
        "    question_verb.read = lambda question: None  # every question verb is the parser's\n"
        "with memhop.open(sys.argv[1], engine='offline', read_only=True) as mem:\n"
        "    print(mem.ask(\"What does Bob's sister do for work?\").text)\n"
        "print('spacy' in sys.modules)\n"
    )
    runs = [subprocess.run([sys.executable, "-c", code, str(db), how], capture_output=True, text=True, check=True)
            for how in ("rules", "parser")]
    (answer, loaded), (parsed_answer, parser_loaded) = (r.stdout.strip().split("\n")[-2:] for r in runs)
    assert "vet" in answer and answer == parsed_answer
    assert (loaded, parser_loaded) == ("False", "True")


@pytest.mark.parametrize("question", [
    "How many chess nights did Rook Hounds win in May?",  # the parser makes "did" the root and "win" its object
    "How many times did Kit Vane win in May 2024?",
    "How many times did Kit Vane win?",  # "win" parsed as the subject of "did"
])
def test_a_verb_read_as_the_object_of_did_is_the_verb(question: str) -> None:
    assert grammar.question_verb(question) == "win"
    assert grammar.question_verb("How many times did Kit Vane do a run?") == "do"  # an object with its article
