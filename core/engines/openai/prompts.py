"""Prompt templates as files (prompts/*.yaml) and the contract their replies must meet.

A prompt file is versioned text a user can read and audit. The system message is fixed
text; everything that comes from the user's data is filled into the user template, so a
diary line can never become an instruction. Each file also declares the JSON shape of
the reply, which `Prompt.check_reply` enforces before anything is stored.
"""

from __future__ import annotations

import importlib.resources
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from string import Template
from typing import Any

import yaml

from memhop.core.errors import MemhopError

PROMPT_PACKAGE = "memhop.prompts"
REQUIRED_KEYS = ("name", "version", "system", "user", "placeholders", "reply_schema")
OPTIONAL_KEYS = ("description", "max_tokens")
DEFAULT_MAX_TOKENS = 512  # a reply cap for a prompt file that declares none
SCHEMA_KEYWORDS = frozenset(
    {"type", "properties", "required", "items", "enum", "minLength", "additionalProperties", "description"}
)
_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}
# A `$name` or `${name}` anywhere in the system text is a mistake: data never goes there.
_PLACEHOLDER_LIKE = re.compile(r"(?<!\$)\$(\{?[A-Za-z_][A-Za-z0-9_]*)")


class PromptError(MemhopError):
    """A prompt file is missing, malformed, or its template and declarations disagree."""


class ReplyError(MemhopError):
    """A model's reply does not have the shape its prompt declares (the engine retries)."""


@dataclass(frozen=True)
class Prompt:
    name: str
    version: int
    system: str
    user: str  # a string.Template: $placeholder or ${placeholder}
    placeholders: tuple[str, ...]
    reply_schema: Mapping[str, Any]
    max_tokens: int = DEFAULT_MAX_TOKENS  # the reply's cap: a looping model stops here

    def render(self, **values: str) -> list[dict[str, str]]:
        """Chat messages; values are substituted once, so a `$x` inside them stays text."""
        given, declared = set(values), set(self.placeholders)
        if given != declared:
            missing, extra = sorted(declared - given), sorted(given - declared)
            raise PromptError(f"prompt {self.name!r}: missing values {missing}, unexpected values {extra}")
        return [
            {"role": "system", "content": self.system},
            {"role": "user", "content": Template(self.user).substitute(values)},
        ]

    def check_reply(self, reply: object) -> None:
        """Raise ReplyError naming the first place where the reply breaks the schema."""
        _check(reply, self.reply_schema, "reply")

    def wire_schema(self) -> dict[str, Any]:
        """The reply schema as sent in `response_format` (OpenAI's strict mode): every object
        closed and every property required (an optional one is then sent as null or []),
        and no keyword strict mode refuses (minLength, description). `check_reply` still
        holds the reply to the file's own schema."""
        return _strict(self.reply_schema)


def _strict(schema: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in schema.items() if k not in ("minLength", "description")}
    if "properties" in schema:
        out["properties"] = {key: _strict(sub) for key, sub in schema["properties"].items()}
        out["required"] = list(schema["properties"])
        out["additionalProperties"] = False
    if "items" in schema:
        out["items"] = _strict(schema["items"])
    return out


def _type_ok(value: object, type_name: str) -> bool:
    if isinstance(value, bool) and type_name in ("integer", "number"):
        return False
    return isinstance(value, _JSON_TYPES[type_name])


def _check(value: object, schema: Mapping[str, Any], path: str) -> None:
    wanted = schema.get("type")
    if wanted is not None:
        names = [wanted] if isinstance(wanted, str) else list(wanted)
        if not any(_type_ok(value, n) for n in names):
            raise ReplyError(f"{path}: expected {' or '.join(names)}, got {_json_type(value)}")
    if "enum" in schema and value not in schema["enum"]:
        shown = repr(value)[:40]
        raise ReplyError(f"{path}: {shown} is not one of {', '.join(map(str, schema['enum']))}")
    if isinstance(value, str) and len(value.strip()) < schema.get("minLength", 0):
        raise ReplyError(f"{path}: must not be empty")
    if isinstance(value, dict):
        for key in schema.get("required", ()):
            if key not in value:
                raise ReplyError(f"{path}: missing field {key!r}")
        properties = schema.get("properties", {})
        if schema.get("additionalProperties", True) is False:
            extra = sorted(set(value) - set(properties))
            if extra:
                raise ReplyError(f"{path}: unexpected field {extra[0]!r}")
        for key, sub in properties.items():
            if key in value:
                _check(value[key], sub, f"{path}.{key}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            _check(item, schema["items"], f"{path}[{i}]")


def _json_type(value: object) -> str:
    return next((name for name in _JSON_TYPES if _type_ok(value, name)), type(value).__name__)


def _validate_schema(schema: object, where: str) -> None:
    """Only the keywords `_check` enforces are allowed, so none is silently ignored."""
    if not isinstance(schema, dict):
        raise PromptError(f"{where}: a schema must be a mapping")
    unknown = sorted(set(schema) - SCHEMA_KEYWORDS)
    if unknown:
        raise PromptError(f"{where}: unsupported schema keyword {unknown[0]!r}")
    types = schema.get("type")
    for name in [types] if isinstance(types, str) else list(types or ()):
        if name not in _JSON_TYPES:
            raise PromptError(f"{where}: unknown type {name!r}")
    properties = schema.get("properties", {})
    if not isinstance(properties, dict):
        raise PromptError(f"{where}: properties must be a mapping")
    for key, sub in properties.items():
        _validate_schema(sub, f"{where}.{key}")
    missing = sorted(set(schema.get("required", ())) - set(properties))
    if missing:
        raise PromptError(f"{where}: required field {missing[0]!r} is not among the properties")
    if "items" in schema:
        _validate_schema(schema["items"], f"{where}[]")


def parse_prompt(text: str, source: str, expected_name: str | None = None) -> Prompt:
    """Build a Prompt from a file's text; every problem is a PromptError naming the file."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise PromptError(f"{source}: invalid YAML{where}") from None
    if not isinstance(data, dict):
        raise PromptError(f"{source}: expected a mapping with keys {', '.join(REQUIRED_KEYS)}")
    missing = [k for k in REQUIRED_KEYS if k not in data]
    if missing:
        raise PromptError(f"{source}: missing key {missing[0]!r}")
    unknown = sorted(set(data) - set(REQUIRED_KEYS) - set(OPTIONAL_KEYS))
    if unknown:
        raise PromptError(f"{source}: unknown key {unknown[0]!r}")
    name, version, system, user = data["name"], data["version"], data["system"], data["user"]
    if expected_name is not None and name != expected_name:
        raise PromptError(f"{source}: name {name!r} does not match the file name {expected_name!r}")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise PromptError(f"{source}: version must be a positive integer")
    for key, value in (("system", system), ("user", user)):
        if not isinstance(value, str) or not value.strip():
            raise PromptError(f"{source}: {key} must be non-empty text")
    declared = data["placeholders"]
    if not isinstance(declared, list) or not all(isinstance(p, str) for p in declared):
        raise PromptError(f"{source}: placeholders must be a list of names")
    stray = _PLACEHOLDER_LIKE.search(system.replace("$$", ""))
    if stray:
        raise PromptError(f"{source}: system text has a placeholder ${stray.group(1)}; data goes in user")
    template = Template(user)
    if not template.is_valid():
        raise PromptError(f"{source}: user template has a malformed placeholder (write $$ for a dollar)")
    used = set(template.get_identifiers())
    if used != set(declared) or len(declared) != len(set(declared)):
        undeclared, unused = sorted(used - set(declared)), sorted(set(declared) - used)
        raise PromptError(
            f"{source}: placeholders disagree with the template (undeclared: {undeclared}, unused: {unused})"
        )
    _validate_schema(data["reply_schema"], f"{source}: reply_schema")
    max_tokens = data.get("max_tokens", DEFAULT_MAX_TOKENS)
    if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1:
        raise PromptError(f"{source}: max_tokens must be a positive integer")
    return Prompt(
        name=name,
        version=version,
        system=system,
        user=user,
        placeholders=tuple(declared),
        reply_schema=data["reply_schema"],
        max_tokens=max_tokens,
    )


def shipped_prompts() -> list[str]:
    """Names of the prompt files that ship with memhop."""
    files = importlib.resources.files(PROMPT_PACKAGE).iterdir()
    return sorted(f.name[: -len(".yaml")] for f in files if f.name.endswith(".yaml"))


@cache
def load_prompt(name: str) -> Prompt:
    resource = importlib.resources.files(PROMPT_PACKAGE).joinpath(f"{name}.yaml")
    if not resource.is_file():
        raise PromptError(f"no prompt file {name}.yaml in {PROMPT_PACKAGE}")
    return parse_prompt(resource.read_text(encoding="utf-8"), f"prompts/{name}.yaml", expected_name=name)
