"""Settings: a YAML file in the user's config dir, MEMHOP_* environment overrides, then flags."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from memhop.core.engines import check_name as check_engine_name
from memhop.core.errors import ConfigError
from memhop.core.retrievers import check_name as check_retriever_name

DB_FILENAME = "memhop.duckdb"
CONFIG_FILENAME = "config.yaml"


@dataclass(frozen=True)
class Paths:
    """Where memhop keeps things. MEMHOP_HOME puts everything in one folder (tests, demos)."""

    config_dir: Path
    data_dir: Path
    cache_dir: Path  # derived files only (the ONNX graph of the embedder); safe to delete

    @property
    def config_file(self) -> Path:
        return self.config_dir / CONFIG_FILENAME

    @property
    def default_db(self) -> Path:
        return self.data_dir / DB_FILENAME

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Paths:
        env = os.environ if env is None else env
        cache = env.get("MEMHOP_CACHE_DIR")
        home = env.get("MEMHOP_HOME")
        if home:
            root = Path(home).expanduser()
            return cls(config_dir=root, data_dir=root, cache_dir=Path(cache or root / "cache"))
        user_home = Path(env.get("HOME", "~")).expanduser()
        config_root = Path(env.get("XDG_CONFIG_HOME") or user_home / ".config")
        data_root = Path(env.get("XDG_DATA_HOME") or user_home / ".local" / "share")
        cache_root = Path(env.get("XDG_CACHE_HOME") or user_home / ".cache")
        return cls(config_dir=config_root / "memhop", data_dir=data_root / "memhop",
                   cache_dir=Path(cache or cache_root / "memhop"))


@dataclass(frozen=True)
class OpenAISettings:
    base_url: str | None = None
    model: str = "gpt-4o-mini"
    api_key: str | None = field(default=None, repr=False)  # settings file or MEMHOP_OPENAI_API_KEY / OPENAI_API_KEY
    timeout: float = 60.0
    max_retries: int = 3
    concurrency: int = 4  # model calls in flight at once while writing (`--jobs` overrides it)
    # The reply cap: a number for every call, or {prompt name: number}; unset, each prompt
    # file's own max_tokens.
    max_tokens: int | dict[str, int] | None = None
    context_tokens: int = 2048  # the window when the server does not say (Ollama's default)
    response_format: str = "auto"  # auto (detect per server), json_schema, json_object or text

    def redacted(self) -> dict[str, Any]:
        shown = asdict(self)
        shown["api_key"] = "set" if self.api_key else "not set"
        return shown


@dataclass(frozen=True)
class ReadSettings:
    """The read-path knobs of ProGraph (seed 000 §3.2), all overridable per question."""

    top: int = 5
    hops: int = 5
    gate: float = 0.2
    name_boost: float = 0.3
    facts_per_entity: int = 5
    evidence: int = 10
    expand: bool = True
    residuals: bool = True
    retriever: str = "prograph"  # which evidence retriever ranks the raw turns (core/retrievers)


_LOADED = "loaded"  # field metadata: False for a field that says something about the settings, not a setting


@dataclass(frozen=True)
class Settings:
    db: Path
    engine: str = "offline"
    embedder: str | None = None  # None: an existing store's recorded one, embed.DEFAULT_EMBEDDER for a new one
    # Where `embedder` was set (MEMHOP_EMBEDDER or the config file), for refusals: found by
    # the loader, never loaded itself (`_LOADED`), so a settings file cannot set it.
    embedder_from: str | None = field(default=None, metadata={_LOADED: False})
    dedup_threshold: float = 0.9
    openai: OpenAISettings = field(default_factory=OpenAISettings)
    read: ReadSettings = field(default_factory=ReadSettings)

    def redacted(self) -> dict[str, Any]:
        """Everything a user may see; secrets reduced to set / not set."""
        return {
            "db": str(self.db),
            "engine": self.engine,
            "embedder": self.embedder,  # None: the store's own (`memhop stats` names it)
            "dedup_threshold": self.dedup_threshold,
            "openai": self.openai.redacted(),
            "read": asdict(self.read),
        }


ENV_OVERRIDES: dict[str, tuple[str, ...]] = {
    "MEMHOP_DB": ("db",),
    "MEMHOP_ENGINE": ("engine",),
    "MEMHOP_EMBEDDER": ("embedder",),
    "MEMHOP_OPENAI_BASE_URL": ("openai", "base_url"),
    "MEMHOP_OPENAI_MODEL": ("openai", "model"),
    "MEMHOP_OPENAI_API_KEY": ("openai", "api_key"),
}


def _read_file(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    import yaml  # only when there is a file to read: ~10 ms of every command's start otherwise

    try:
        loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise ConfigError(f"{path}: invalid YAML{where}") from None
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise ConfigError(f"{path}: expected a mapping of settings")
    return loaded


def _build(cls: type, values: Mapping[str, Any], where: str) -> Any:
    known = {f.name: f for f in fields(cls) if f.metadata.get(_LOADED, True)}
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise ConfigError(f"{where}: unknown setting {unknown[0]!r}")
    kwargs: dict[str, Any] = {}
    for name, value in values.items():
        default = known[name].default
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise ConfigError(f"{where}: {name} must be true or false")
        elif isinstance(default, (int, float)) and not isinstance(default, bool):
            try:
                value = type(default)(value)
            except (TypeError, ValueError):
                raise ConfigError(f"{where}: {name} must be a number") from None
        kwargs[name] = value
    return cls(**kwargs)


def _check_openai(settings: OpenAISettings, where: str) -> None:
    """The openai keys `_build` cannot check by their default's type."""
    from memhop.core.engines.openai.server import FORMAT_SETTINGS  # stdlib-only module

    caps = settings.max_tokens
    values = list(caps.values()) if isinstance(caps, dict) else [] if caps is None else [caps]
    if not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in values):
        raise ConfigError(f"{where}: openai.max_tokens must be a positive number or a mapping of prompt names to numbers")
    if settings.context_tokens < 256:
        raise ConfigError(f"{where}: openai.context_tokens must be at least 256")
    if settings.response_format not in FORMAT_SETTINGS:
        raise ConfigError(f"{where}: openai.response_format must be one of {', '.join(FORMAT_SETTINGS)}")


def load_settings(
    paths: Paths | None = None,
    env: Mapping[str, str] | None = None,
    db: Path | None = None,
    engine: str | None = None,
) -> Settings:
    """File, then environment, then explicit arguments (the CLI's flags) win."""
    env = os.environ if env is None else env
    paths = paths or Paths.from_env(env)
    raw = _read_file(paths.config_file)
    embedder_from = (
        "MEMHOP_EMBEDDER" if env.get("MEMHOP_EMBEDDER") else str(paths.config_file) if raw.get("embedder") else None
    )
    for var, key_path in ENV_OVERRIDES.items():
        if env.get(var):
            target = raw
            for key in key_path[:-1]:
                target = target.setdefault(key, {})
            target[key_path[-1]] = env[var]
    openai_raw = dict(raw.pop("openai", None) or {})
    if not openai_raw.get("api_key") and env.get("OPENAI_API_KEY"):
        openai_raw["api_key"] = env["OPENAI_API_KEY"]
    if not openai_raw.get("base_url") and env.get("OPENAI_BASE_URL"):
        openai_raw["base_url"] = env["OPENAI_BASE_URL"]
    read_raw = raw.pop("read", None) or {}
    where = str(paths.config_file)
    raw.setdefault("db", str(paths.default_db))
    settings: Settings = _build(
        Settings,
        {
            **raw,
            "openai": _build(OpenAISettings, openai_raw, where),
            "read": _build(ReadSettings, read_raw, where),
        },
        where,
    )
    _check_openai(settings.openai, where)
    settings = replace(settings, db=Path(settings.db).expanduser(), embedder_from=embedder_from)
    if db is not None:
        settings = replace(settings, db=db)
    if engine is not None:
        settings = replace(settings, engine=engine)
    check_engine_name(settings.engine)
    check_retriever_name(settings.read.retriever)
    return settings
