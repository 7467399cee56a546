"""The ONNX Runtime MiniLM must stay interchangeable with the sentence-transformers reference."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from memhop.core.embed import (
    DIM,
    Embedder,
    MiniLMEmbedder,
    MiniLMInt8Embedder,
    RememberingEmbedder,
    SentenceTransformerEmbedder,
    get_embedder,
)
from memhop.core.errors import ConfigError
from memhop.core.minilm_onnx import weights_file

LONG = " ".join(
    f"On day {i} Alice walked the dog along the canal, then called her sister about the wedding plans."
    for i in range(30)
)  # ~600 tokens: both sides must truncate at 256

TEXTS = [
    "Bob plays the piano every Sunday at the community hall.",
    "What instrument does Bob play?",
    "Carol is a vet in Leeds.",
    "piano",
    "",
    "   I moved to Berlin in March 2021 — best decision ever!   ",
    "Café crème with Zoë in Kraków 🎉🎂 東京タワー, naïve résumé",
    "lol ok 👍",
    "My daughter's first day at school was 4 Sept; she cried, I cried, the teacher laughed.",
    "SELECT * FROM turns WHERE speaker = 'Rosalind' -- not a sentence",
    LONG,
]


@pytest.fixture(scope="module")
def minilm() -> Embedder:
    return get_embedder("minilm")


@pytest.fixture(scope="module")
def reference() -> Embedder:
    pytest.importorskip("sentence_transformers")
    return SentenceTransformerEmbedder()


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    cos: np.ndarray = (a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    return cos


def test_shape_dtype_and_unit_norm(minilm: Embedder) -> None:
    vecs = minilm.embed(TEXTS)
    assert vecs.dtype == np.float32 and vecs.shape == (len(TEXTS), DIM)
    assert vecs.flags.c_contiguous
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert minilm.name == "minilm" and minilm.dim == DIM


def test_empty_input(minilm: Embedder) -> None:
    assert minilm.embed([]).shape == (0, DIM)
    assert minilm.embed([]).dtype == np.float32


def test_long_text_is_truncated_not_rejected(minilm: Embedder) -> None:
    assert isinstance(minilm, MiniLMEmbedder)
    assert minilm.token_counts([LONG, "piano", ""]) == [256, 3, 2]
    a, b = minilm.embed([LONG, LONG + " And then a completely different ending about volcanoes."])
    assert float(a @ b) > 0.99999  # the tail lies beyond token 256, so it cannot matter


def test_batching_keeps_input_order() -> None:
    small = MiniLMEmbedder(batch_size=3)  # several length-sorted batches
    texts = [*TEXTS[-2::-1], "short", TEXTS[0]]  # LONG left out: it only slows this test
    together = small.embed(texts)
    alone = np.vstack([small.embed([t]) for t in texts])
    np.testing.assert_allclose(together, alone, atol=2e-5)
    np.testing.assert_allclose(together[-1], together[len(TEXTS) - 2], atol=2e-5)


def test_repeated_texts_get_the_same_row(minilm: Embedder) -> None:
    texts = ["ok", "Bob plays the piano", " ok ", "<Media omitted>", "ok", "<Media omitted>"]
    vecs = minilm.embed(texts)
    assert vecs.shape == (6, DIM) and vecs.flags.c_contiguous
    np.testing.assert_array_equal(vecs[0], vecs[2])
    np.testing.assert_array_equal(vecs[0], vecs[4])
    np.testing.assert_array_equal(vecs[3], vecs[5])
    np.testing.assert_allclose(vecs[1], minilm.embed(["Bob plays the piano"])[0], atol=2e-5)
    assert float(vecs[0] @ vecs[1]) < 0.9


class CountingEmbedder:
    """The real embedder, counting the texts it is asked to embed."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.name, self.model, self.dim, self.asked = inner, inner.name, inner.model, inner.dim, 0

    def embed(self, texts: list[str]) -> np.ndarray:
        self.asked += len(texts)
        return self.inner.embed(texts)


def test_a_remembering_embedder_embeds_a_text_once_and_gives_its_own_vector(minilm: Embedder) -> None:
    counting = CountingEmbedder(minilm)
    remembering = RememberingEmbedder(counting, size=2)
    first = remembering.embed(["Bob plays the piano", "ok"])
    again = remembering.embed([" ok", "Bob plays the piano", "Mia moved to Leeds"])
    assert counting.asked == 3  # the repeats were not embedded again
    np.testing.assert_array_equal(again[0], first[1])
    np.testing.assert_array_equal(again[1], first[0])
    later = remembering.embed(["ok", "Mia moved to Leeds"])  # "ok" fell out of the last two texts
    assert counting.asked == 4
    np.testing.assert_allclose(later, minilm.embed(["ok", "Mia moved to Leeds"]), atol=2e-5)
    assert remembering.embed([]).shape == (0, DIM)


def test_semantic_neighbours(minilm: Embedder) -> None:
    bob, question, carol = minilm.embed(
        ["Bob plays the piano", "what instrument does Bob play", "Carol is a vet in Leeds"]
    )
    assert float(bob @ question) > float(carol @ question) + 0.2
    dog, puppy, tax = minilm.embed(["I adopted a dog last week", "we got a new puppy", "my tax return is late"])
    assert float(dog @ puppy) > float(dog @ tax) + 0.2


def test_int8_vectors_are_near_the_float_ones(minilm: Embedder) -> None:
    int8 = get_embedder("minilm-int8")
    assert isinstance(int8, MiniLMInt8Embedder) and int8.name == "minilm-int8" and int8.dim == DIM
    texts = TEXTS[:-1]  # LONG left out: it only slows this test
    vecs = int8.embed(texts)
    assert vecs.dtype == np.float32 and vecs.shape == (len(texts), DIM)
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    cos = cosines(vecs, minilm.embed(texts))
    assert cos.min() > 0.95 and cos.mean() > 0.98  # measured: mean 0.993 on LoCoMo turns and facts
    assert cos.max() < 0.99999  # quantised weights: another model's vectors, which the store keeps apart
    bob, question, carol = int8.embed(["Bob plays the piano", "what instrument does Bob play", "Carol is a vet in Leeds"])
    assert float(bob @ question) > float(carol @ question) + 0.2


@pytest.mark.slow
def test_the_int8_graph_is_derived_once_and_cached_beside_the_float_one(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = MiniLMInt8Embedder(cache_dir=cache).embed(TEXTS[:3])
    (built,) = cache.glob("all-MiniLM-L6-v2-int8-*.onnx")
    assert weights_file(built).stat().st_size < 70_000_000  # int8 weights, not the 90 MB float ones
    stamp = built.stat().st_mtime_ns
    np.testing.assert_allclose(MiniLMInt8Embedder(cache_dir=cache).embed(TEXTS[:3]), first, atol=1e-6)
    assert built.stat().st_mtime_ns == stamp  # reused, not derived again
    MiniLMEmbedder(cache_dir=cache).embed(TEXTS[:1])
    assert len(list(cache.glob("*.onnx"))) == 2  # the float graph under a name of its own


@pytest.mark.slow
def test_graph_is_built_once_into_the_cache_and_rebuilt_when_damaged(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = MiniLMEmbedder(cache_dir=cache).embed(TEXTS[:3])
    (built,) = cache.glob("*.onnx")
    weights = weights_file(built)
    stamp = built.stat().st_mtime_ns
    again = MiniLMEmbedder(cache_dir=cache).embed(TEXTS[:3])
    assert built.stat().st_mtime_ns == stamp  # reused, not rebuilt
    np.testing.assert_allclose(again, first, atol=1e-6)
    for damaged in (built, weights):
        damaged.write_bytes(damaged.read_bytes()[:1_000])  # a disk that lost the tail of the file
        repaired = MiniLMEmbedder(cache_dir=cache).embed(TEXTS[:3])
        np.testing.assert_allclose(repaired, first, atol=1e-6)
        assert weights.stat().st_size > 50_000_000
    weights.unlink()
    np.testing.assert_allclose(MiniLMEmbedder(cache_dir=cache).embed(TEXTS[:3]), first, atol=1e-6)
    assert sorted(p.name for p in cache.iterdir()) == [built.name, weights.name]  # no partial files left behind

    def refuse(self: Path, missing_ok: bool = False) -> None:  # tests run as root: chmod cannot stop it
        raise PermissionError(13, "Permission denied", str(self))

    built.write_bytes(b"not a model")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Path, "unlink", refuse)  # a damaged file that cannot be replaced...
        again = MiniLMEmbedder(cache_dir=cache).embed(TEXTS[:3])  # ...still embeds, from memory
    np.testing.assert_allclose(again, first, atol=1e-6)
    assert built.read_bytes() == b"not a model"


@pytest.mark.slow
def test_cache_lives_under_memhop_home_and_an_unwritable_cache_still_embeds(
    tmp_path: Path, minilm: Embedder
) -> None:
    code = "from memhop.core.embed import get_embedder; print(get_embedder('minilm').embed(['hi'])[0].tolist())"
    home = tmp_path / "home"
    env = {**{k: v for k, v in os.environ.items() if k != "MEMHOP_CACHE_DIR"}, "MEMHOP_HOME": str(home)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    expected = minilm.embed(["hi"])[0]
    np.testing.assert_allclose(json.loads(out.stdout.strip().splitlines()[-1]), expected, atol=1e-6)
    assert sorted(p.suffixes[-1] for p in (home / "cache").iterdir()) == [".data", ".onnx"]
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("")
    vec = MiniLMEmbedder(cache_dir=blocked / "cache").embed(["hi"])  # cannot create the dir
    np.testing.assert_allclose(vec[0], expected, atol=1e-6)
    assert blocked.read_text() == ""


def test_embedding_leaves_no_onnx_runtime_telemetry_behind(tmp_path: Path) -> None:
    """ONNX Runtime would write a device id and queued telemetry events under the cache home."""
    code = "from memhop.core.embed import get_embedder; print(get_embedder().embed(['hi']).shape)"
    cache_home = tmp_path / "xdg-cache"
    cache_home.mkdir()
    quiet = ("ORT_DISABLE_TELEMETRY", "ORT_RUNNING_UNIT_TESTS", "CI")  # each would hide the telemetry
    env = {k: v for k, v in os.environ.items() if k not in quiet}
    env |= {"XDG_CACHE_HOME": str(cache_home), "HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip().endswith(f"(1, {DIM})")
    assert not (cache_home / "Microsoft").exists()
    assert list(cache_home.iterdir()) == []


def test_thread_setting_is_checked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEMHOP_EMBED_THREADS", "two")
    with pytest.raises(ConfigError, match="MEMHOP_EMBED_THREADS must be a whole number"):
        MiniLMEmbedder(cache_dir=tmp_path)


def test_get_embedder_caches_and_rejects_unknown_names(minilm: Embedder) -> None:
    assert get_embedder("minilm") is minilm
    assert get_embedder() is minilm is get_embedder(None)  # a new store's
    int8 = get_embedder("minilm-int8")
    assert int8 is not minilm and get_embedder("minilm-int8") is int8  # each name's model loads once
    with pytest.raises(ConfigError, match="unknown embedder 'bert-huge'"):
        get_embedder("bert-huge")


def test_rejects_a_model_dir_that_is_not_minilm(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text(json.dumps({"hidden_size": 768, "hidden_act": "gelu"}))
    with pytest.raises(ConfigError, match="not a MiniLM-L6"):
        MiniLMEmbedder(model_dir=tmp_path)


def test_import_is_cheap_and_embedding_never_loads_torch() -> None:
    code = """
import json, os, sys
import memhop.core.embed as e
heavy = ("torch", "sentence_transformers", "transformers", "tokenizers", "safetensors", "onnxruntime", "onnx")
after_import = [m for m in heavy if m in sys.modules]
offline_before = os.environ.get("HF_HUB_OFFLINE")
vec = e.get_embedder().embed(["hello there"])
print(json.dumps({
    "after_import": after_import,
    "after_embed": [m for m in ("torch", "sentence_transformers", "transformers") if m in sys.modules],
    "offline_before": offline_before,
    "offline_after": [os.environ.get("HF_HUB_OFFLINE"), os.environ.get("TRANSFORMERS_OFFLINE")],
    "shape": list(vec.shape),
}))
"""
    env = {k: v for k, v in os.environ.items() if k not in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report == {
        "after_import": [],
        "after_embed": [],
        "offline_before": None,
        "offline_after": ["1", "1"],
        "shape": [1, DIM],
    }


# Last, so torch's spinning OpenMP threads cannot slow the tests above.
@pytest.mark.slow
def test_matches_sentence_transformers(minilm: Embedder, reference: Embedder) -> None:
    ours, ref = minilm.embed(TEXTS), reference.embed(TEXTS)
    assert ours.shape == ref.shape == (len(TEXTS), DIM)
    cos = cosines(ours, ref)
    assert cos.min() >= 0.9999, dict(zip(TEXTS, cos.round(6), strict=True))
    assert np.abs(ours - ref).max() < 1e-3


def test_an_int8_vector_is_its_text_alone_whatever_it_is_embedded_with() -> None:
    """The int8 graph scales activations per run: a batched text's vector would depend on
    the other texts (and their padding); each is embedded alone, as a question is."""
    int8 = get_embedder("minilm-int8")
    together = int8.embed(["Bob plays the piano.", "A far longer sentence about the rain in the hills all week.", "ok"])
    alone = int8.embed(["Bob plays the piano."])
    np.testing.assert_allclose(together[0], alone[0], atol=1e-6)
    with pytest.raises(ConfigError, match="one text per run"):  # a caller cannot batch it into other vectors
        MiniLMInt8Embedder(batch_size=8)
