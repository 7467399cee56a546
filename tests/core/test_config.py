from __future__ import annotations

from pathlib import Path

import pytest

from memhop.core.config import Paths, load_settings
from memhop.core.errors import ConfigError


def test_memhop_home_holds_config_and_db(tmp_path: Path) -> None:
    paths = Paths.from_env({"MEMHOP_HOME": str(tmp_path)})
    assert paths.config_file == tmp_path / "config.yaml"
    assert paths.default_db == tmp_path / "memhop.duckdb"
    assert paths.cache_dir == tmp_path / "cache"


def test_xdg_dirs_are_used_without_memhop_home(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "cfg"), "XDG_DATA_HOME": str(tmp_path / "data")}
    paths = Paths.from_env(env)
    assert paths.config_file == tmp_path / "cfg" / "memhop" / "config.yaml"
    assert paths.default_db == tmp_path / "data" / "memhop" / "memhop.duckdb"
    assert paths.cache_dir == tmp_path / ".cache" / "memhop"
    moved = Paths.from_env({**env, "XDG_CACHE_HOME": str(tmp_path / "xc")})
    assert moved.cache_dir == tmp_path / "xc" / "memhop"
    assert Paths.from_env({**env, "MEMHOP_CACHE_DIR": str(tmp_path / "mc")}).cache_dir == tmp_path / "mc"


def test_file_then_environment_then_flags(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text(
        "engine: openai\nopenai:\n  base_url: http://127.0.0.1:9/v1\n  model: from-file\nread:\n  top: 7\n"
    )
    env = {"MEMHOP_HOME": str(tmp_path), "MEMHOP_OPENAI_MODEL": "from-env"}
    settings = load_settings(env=env)
    assert settings.engine == "openai"
    assert settings.openai.model == "from-env"
    assert settings.read.top == 7 and settings.read.retriever == "prograph"
    flagged = load_settings(env=env, engine="offline", db=tmp_path / "x.duckdb")
    assert flagged.engine == "offline" and flagged.db == tmp_path / "x.duckdb"


def test_secrets_are_never_shown(tmp_path: Path) -> None:
    env = {"MEMHOP_HOME": str(tmp_path), "OPENAI_API_KEY": "sk-test-SECRET"}
    settings = load_settings(env=env)
    assert settings.openai.api_key == "sk-test-SECRET"
    assert "sk-test-SECRET" not in repr(settings.redacted())
    assert settings.redacted()["openai"]["api_key"] == "set"


@pytest.mark.parametrize(
    "text, message",
    [
        ("engine: [unclosed\n", "invalid YAML"),
        ("- just\n- a list\n", "expected a mapping"),
        ("colour: blue\n", "unknown setting 'colour'"),
        ("read:\n  top: many\n", "top must be a number"),
        ("engine: claude\n", "unknown engine"),
        ("read:\n  retriever: nonesuch\n", "unknown retriever 'nonesuch'"),
    ],
)
def test_bad_settings_file_is_a_clear_error(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "config.yaml").write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_settings(env={"MEMHOP_HOME": str(tmp_path)})


def test_the_retriever_is_a_read_setting(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("read:\n  retriever: fused\n")
    settings = load_settings(env={"MEMHOP_HOME": str(tmp_path)})
    assert settings.read.retriever == "fused" and settings.redacted()["read"]["retriever"] == "fused"


def test_the_embedder_setting_says_where_it_was_set(tmp_path: Path) -> None:
    env = {"MEMHOP_HOME": str(tmp_path)}
    unset = load_settings(env=env)
    assert unset.embedder is None and unset.embedder_from is None and unset.redacted()["embedder"] is None
    config = tmp_path / "config.yaml"
    config.write_text("embedder: minilm-int8\n")
    from_file = load_settings(env=env)
    assert (from_file.embedder, from_file.embedder_from) == ("minilm-int8", str(config))
    from_env = load_settings(env={**env, "MEMHOP_EMBEDDER": "minilm"})
    assert (from_env.embedder, from_env.embedder_from) == ("minilm", "MEMHOP_EMBEDDER")
    config.write_text("embedder_from: MEMHOP_EMBEDDER\n")  # not a setting
    with pytest.raises(ConfigError, match="unknown setting 'embedder_from'"):
        load_settings(env=env)
