"""Prompt files: every shipped prompt loads and keeps user data out of the system message;
a broken prompt file is a clear error; replies are checked against the declared shape."""

from __future__ import annotations

import re
import textwrap

import pytest
from memhop.core.model import CATEGORIES, ENTITY_KINDS
from memhop.core.engines.openai.prompts import PromptError, ReplyError, load_prompt, parse_prompt, shipped_prompts

# Placeholders the engine fills with its own short values, not with user data blocks.
INLINE = {"session_date", "self_name"}

GOOD = textwrap.dedent(
    """\
    name: demo
    version: 2
    system: |
      Fixed instructions; costs $$5 and $5.
    user: |
      Question:
      <question>
      $question
      </question>
    placeholders: [question]
    reply_schema:
      type: object
      required: [answer]
      properties:
        answer: {type: string, minLength: 1}
    """
)


def test_every_expected_prompt_ships() -> None:
    assert set(shipped_prompts()) >= {"identify", "coextract", "answer", "rewrite"}


@pytest.mark.parametrize("name", shipped_prompts())
def test_shipped_prompt_is_valid_and_keeps_data_in_tagged_blocks(name: str) -> None:
    prompt = load_prompt(name)
    assert prompt.name == name and prompt.version >= 1
    assert "never an instruction" in prompt.system
    assert "JSON" in prompt.system  # json_object mode requires the word in the messages
    for placeholder in prompt.placeholders:
        tagged = re.search(rf"<(\w+)>\n\${placeholder}\n</\1>", prompt.user)
        assert tagged or placeholder in INLINE, f"{name}: ${placeholder} is not inside a tagged block"
    messages = prompt.render(**{p: f"<<{p}>>" for p in prompt.placeholders})
    assert [m["role"] for m in messages] == ["system", "user"]
    assert all(f"<<{p}>>" in messages[1]["content"] for p in prompt.placeholders)
    assert "<<" not in messages[0]["content"]


def test_reply_enums_match_the_engine_contract() -> None:
    coextract = load_prompt("coextract")
    item = coextract.reply_schema["properties"]["residuals"]["items"]
    assert all(category in item["properties"]["category"]["description"] for category in CATEGORIES)
    assert all(category in coextract.system for category in CATEGORIES)
    identify = load_prompt("identify").reply_schema["properties"]["entities"]["items"]
    assert tuple(identify["properties"]["kind"]["enum"]) == ENTITY_KINDS


def test_the_answer_prompt_lets_the_raw_turns_win_and_admits_ignorance() -> None:
    """A model's facts are evidence to check against the turns, never "verified" overrides."""
    prompt = load_prompt("answer")
    assert "the evidence turns win" in prompt.system and "Facts win over the profile" in prompt.system
    assert "verified" not in (prompt.system + prompt.user).lower()
    assert '"I don\'t know"' in prompt.system


def test_the_coextract_prompt_resolves_relative_dates() -> None:
    system = load_prompt("coextract").system
    assert "Resolve relative" in system and "2023-05-07" in system


def test_a_good_file_parses_and_renders_values_literally() -> None:
    prompt = parse_prompt(GOOD, "demo.yaml", expected_name="demo")
    assert prompt.version == 2 and prompt.placeholders == ("question",)
    system, user = (m["content"] for m in prompt.render(question="why $question and ${x}?"))
    assert "$$5" in system  # the system text is not a template
    assert "why $question and ${x}?" in user
    with pytest.raises(PromptError, match=r"missing values \['question'\]"):
        prompt.render()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: "name: [unclosed", "demo.yaml: invalid YAML at line 1"),
        (lambda t: "- a list", "demo.yaml: expected a mapping"),
        (lambda t: t.replace("version: 2\n", ""), "missing key 'version'"),
        (lambda t: t + "temperature: 0\n", "unknown key 'temperature'"),
        (lambda t: t.replace("name: demo", "name: other"), "name 'other' does not match the file name"),
        (lambda t: t.replace("version: 2", "version: two"), "version must be a positive integer"),
        (lambda t: t.replace("[question]", "[question, extra]"), r"unused: \['extra'\]"),
        (lambda t: t.replace("[question]", "[]"), r"undeclared: \['question'\]"),
        (lambda t: t.replace("Fixed instructions", "Hi $question"), "system text has a placeholder"),
        (lambda t: t.replace("Question:", "Costs $ 5:"), "malformed placeholder"),
        (lambda t: t.replace("minLength: 1", "pattern: x"), "unsupported schema keyword 'pattern'"),
        (lambda t: t.replace("required: [answer]", "required: [answr]"), "'answr' is not among the"),
        (lambda t: t.replace("type: string", "type: text"), "unknown type 'text'"),
        (lambda t: t.replace("system: |\n  Fixed instructions; costs $$5 and $5.\n", "system: ''\n"),
         "system must be non-empty text"),
    ],
)
def test_a_bad_prompt_file_is_a_clear_error(change, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(PromptError, match=message) as caught:
        parse_prompt(change(GOOD), "demo.yaml", expected_name="demo")
    assert str(caught.value).startswith("demo.yaml")


def test_an_unknown_prompt_name_is_an_error() -> None:
    with pytest.raises(PromptError, match="no prompt file nope.yaml"):
        load_prompt("nope")


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        ([], "reply: expected object, got array"),
        ({}, "reply: missing field 'profile'"),
        ({"profile": "  ", "residuals": []}, "reply.profile: must not be empty"),
        ({"profile": "p", "residuals": [{"text": "t", "source_turns": []}]},
         r"reply.residuals\[0\]: missing field 'category'"),
        ({"profile": "p", "residuals": [{"text": "t", "category": "date", "source_turns": [True]}]},
         r"reply.residuals\[0\].source_turns\[0\]: expected integer or string, got boolean"),
        ({"profile": "p", "residuals": [], "supersedes": "3"}, "reply.supersedes: expected array, got"),
    ],
)
def test_replies_are_checked_against_the_declared_shape(reply: object, message: str) -> None:
    with pytest.raises(ReplyError, match=message):
        load_prompt("coextract").check_reply(reply)


def test_a_good_reply_passes_with_extra_fields_and_nulls() -> None:
    reply = {
        "profile": "Bob Kowalski plays the piano.",
        "residuals": [{"text": "t", "category": "date", "source_turns": [1, "2"], "date": None, "note": "x"}],
    }
    load_prompt("coextract").check_reply(reply)


# Every capitalised word the shipped prompts may use: instruction words, calendar words,
# format names. A name in an example ("Bob Kowalski") ended up in every store a small
# model built, so a new capitalised word here must be an ordinary word, never a name.
ORDINARY_CAPITALISED = frozenset(
    """Answer Be Chain DD Diarist Do Each Entities Everything Evidence Facts For Give If Its JSON Keep
    Known List MM May Mum Names Never ONE Often Plain Quality Question Reply Resolve Return Rewrite
    Rules Saturday Session THESE The Turns Use Verified When YYYY You Your""".split()
)


@pytest.mark.parametrize("name", shipped_prompts())
def test_shipped_prompts_show_no_example_names_that_could_leak(name: str) -> None:
    prompt = load_prompt(name)
    capitalised = set(re.findall(r"\b[A-Z][A-Za-z]+\b", prompt.system + prompt.user))
    assert capitalised <= ORDINARY_CAPITALISED, f"{name}: names in the prompt text: {capitalised - ORDINARY_CAPITALISED}"


@pytest.mark.parametrize("name", shipped_prompts())
def test_shipped_prompts_cap_their_replies(name: str) -> None:
    assert 100 <= load_prompt(name).max_tokens <= 1000


def test_max_tokens_must_be_a_positive_integer() -> None:
    with pytest.raises(PromptError, match="max_tokens must be a positive integer"):
        parse_prompt(GOOD + "max_tokens: many\n", "prompts/demo.yaml")
    assert parse_prompt(GOOD + "max_tokens: 64\n", "prompts/demo.yaml").max_tokens == 64


def test_the_wire_schema_is_strict_and_the_check_stays_lenient() -> None:
    prompt = load_prompt("coextract")
    wire = prompt.wire_schema()["properties"]["residuals"]["items"]
    assert wire["additionalProperties"] is False
    assert set(wire["required"]) == {"text", "category", "source_turns", "date", "slot"}
    prompt.check_reply({"profile": "x", "residuals": [{"text": "t", "category": "date", "source_turns": [1]}]})
